//! Runs N plain-minimax searches (depth 3) of the Dots position of `benches/search.rs` (12×12 from the
//! cross after 10 plies) and prints the nodes, for counting instructions independently of load:
//!
//! ```text
//! cargo build --release -p bots --example dots_search_count
//! valgrind --tool=callgrind target/release/examples/dots_search_count 2   # and again with 0
//! ```
//!
//! (the difference of the two totals, halved, is the count per search; see docs/benchmarks.md).

use bots::eval;
use bots::search;
use games::dots::Start;
use games::Dots;

fn main() {
    let searches: u32 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1);
    let pos = Dots::from_moves(
        12,
        12,
        Start::Cross,
        "5-5 8-8 5-8 8-5 4-6 9-7 6-4 7-9 4-7 9-6",
    )
    .expect("the benchmark position is legal");
    let eval = eval::standard(&pos, &Default::default());
    let nodes: u64 = (0..searches)
        .map(|_| search::minimax_value(&mut pos.clone(), &eval, 3).1)
        .sum();
    println!("{searches} searches, {nodes} nodes");
}
