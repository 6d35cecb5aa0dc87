//! The `c4-solver` bot as its own executable: see [`bots::cli`] and [`bots::c4_solver`].

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    bots::cli::run("c4-solver", &args)
}
