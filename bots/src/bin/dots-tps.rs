//! The `dots-tps` bot as its own executable: see [`bots::cli`] and [`bots::dots_tps`].
//! `dots-tps --bench [--verbose]` prints the article's table on the tactical suite instead
//! ([`bots::dots_tps::bench`]).

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--bench") {
        let verbose = args.iter().any(|a| a == "--verbose");
        return match bots::dots_tps::bench::run(std::io::stdout().lock(), verbose) {
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
