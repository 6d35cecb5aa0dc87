//! The `dots-tps` bot as its own executable: see [`bots::cli`] and [`bots::dots_tps`].
//! `dots-tps --bench [--verbose]` prints the article's table on the tactical suite instead
//! ([`bots::dots_tps::bench`]); `dots-tps --sims [--verbose]` the cost of the one-sided simulations
//! for trajectories of 3, 4 and 5 points ([`bots::dots_tps::bench::simulations`]).

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let first = args.first().map(String::as_str);
    if first == Some("--bench") || first == Some("--sims") {
        let verbose = args.iter().any(|a| a == "--verbose");
        let out = std::io::stdout().lock();
        let done = if first == Some("--bench") {
            bots::dots_tps::bench::run(out, verbose)
        } else {
            bots::dots_tps::bench::simulations(out, verbose)
        };
        return match done {
            Ok(()) => std::process::ExitCode::SUCCESS,
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => std::process::ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("dots-tps: {e}");
                std::process::ExitCode::from(1)
            }
        };
    }
    bots::cli::run("dots-tps", &args)
}
