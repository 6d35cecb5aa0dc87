//! `arena`: the command line. See `arena --help` and README.md; each command's flags and body are in
//! `cli/<command>.rs`.

mod cli;

use std::process::ExitCode;

use clap::Parser;

use cli::{Cli, Command};

fn main() -> ExitCode {
    let result = match Cli::parse().command {
        Command::Run(args) => cli::run::run(args),
        Command::Match(args) => cli::match_cmd::run(*args),
        #[cfg(feature = "server")]
        Command::Serve(args) => cli::serve::run(args),
        #[cfg(feature = "server")]
        Command::Worker(args) => cli::worker::run(args),
        Command::Merge(args) => cli::merge::run(args),
        Command::Ratings(args) => cli::ratings::run(args),
        Command::Sprt(args) => cli::sprt::run(args),
        Command::Elo(args) => cli::sprt::run_elo(args),
        Command::Analyze(args) => cli::analyze::run(args),
        Command::Probe(args) => cli::probe::run(args),
        Command::Play(args) => cli::play::run(args),
        Command::Replay(args) => cli::replay::run(args),
        Command::Doctor(args) => cli::doctor::run(args),
        Command::Export(args) => cli::export::run(args),
        Command::Tune(args) => cli::tune::run(args),
        Command::Report(args) => cli::report::run(args),
        Command::Check(args) => cli::check::run(args),
        Command::CheckGame(args) => cli::check_game::run(args),
        // A bot speaks the protocol on stdout and reports its own errors.
        Command::Bot(args) => return cli::bot::run(args),
        Command::Solve(args) => cli::solve::run(args),
        Command::Book(args) => cli::book::run(args),
        Command::Bench(args) => cli::bench::run(args),
    };
    // Referee programs started by this command end with it (their processes, their work folders).
    arena::referee_programs::shutdown();
    match result {
        Ok(code) => code,
        Err(e) => {
            arena::errln!("arena: error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
