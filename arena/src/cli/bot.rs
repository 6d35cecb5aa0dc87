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
///
/// `--referee JSON` (a [`arena::referee_programs::Referee`], as a referee game's plan passes it) is
/// the arena's own flag: the referee program is registered here, so that the bot plays its game
/// through a referee process of its own; the `bots` crate never sees it.
pub fn run(mut args: BotArgs) -> ExitCode {
    if let Some(i) = args.args.iter().position(|a| a == "--referee") {
        let Some(json) = args.args.get(i + 1).cloned() else {
            eprintln!("arena bot: --referee needs its JSON");
            return ExitCode::from(2);
        };
        args.args.drain(i..i + 2);
        let registered = serde_json::from_str::<arena::referee_programs::Referee>(&json)
            .map_err(|e| format!("--referee: {e}"))
            .and_then(|r| {
                arena::referee_programs::register(r).map_err(|e| format!("--referee: {e}"))
            });
        if let Err(e) = registered {
            eprintln!("arena bot: {e}");
            return ExitCode::from(2);
        }
    }
    let code = bots::cli::run(&args.name, &args.args);
    arena::referee_programs::shutdown();
    code
}
