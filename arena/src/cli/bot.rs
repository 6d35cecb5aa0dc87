//! `arena bot`: serve a built-in reference bot (the `bots` crate's command line).

use std::process::ExitCode;

use clap::Args;

/// Serve a built-in reference bot on stdin/stdout (how configs' `builtin` bots are started).
#[derive(Debug, Args)]
pub struct BotArgs {
    /// The bot, one of the reference bots (see docs/bots.md): random, minimax, alphabeta, ….
    name: String,
    /// The bot's own flags (see `arena bot <name> --help`).
    #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
    args: Vec<String>,
}

/// Serves the bot until its input ends; the exit status is the `bots` crate's (see [`bots::cli::run`]).
pub fn run(args: BotArgs) -> ExitCode {
    bots::cli::run(&args.name, &args.args)
}
