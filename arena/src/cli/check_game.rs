//! `arena check-game`: an organiser's conformance test of a game module or a referee program before a
//! contest.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;

use arena::{errln, outln};

/// Check a game module (`FILE.wasm`, docs/modules.md) or the referee program of a config
/// (`CONFIG.toml` with `[game] referee`, docs/referees.md) before a contest: seeded random games through
/// two instances (referee processes) at once, checking at every position that the same moves give the same position,
/// that every legal move is accepted and undone exactly and no other is, that every picture is valid,
/// and that the game ends; with the module's time per ply. The first failure is named with the moves
/// that reach it. Exit status 0 when the module passes, 1 when it fails.
#[derive(Debug, Args)]
pub struct CheckGameArgs {
    /// The game module, a .wasm file; or a config (.toml) whose `[game]` has a `referee`.
    module: PathBuf,
    /// The variant's words as the module reads them (default: the config's `variant`, else the
    /// module's default).
    #[arg(long, default_value = "")]
    variant: String,
    /// Random games to play.
    #[arg(long, default_value_t = 200)]
    games: usize,
    /// The seed of the first game (game k is played from seed + k).
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// Loads the module and runs [`games::module::check`].
///
/// # Errors
/// None of its own: a module that does not load or fails is reported and gives exit status 1.
pub fn run(args: CheckGameArgs) -> Result<ExitCode> {
    let is_config = args.module.extension().and_then(|e| e.to_str()) == Some("toml");
    let loaded = if is_config {
        arena::referee_programs::of_config_file(&args.module)
    } else {
        arena::modules::load_file(&args.module).map(|m| (m, String::new()))
    };
    let (loaded, words) = match loaded {
        Ok(m) => m,
        Err(e) => {
            errln!("{e}");
            return Ok(ExitCode::FAILURE);
        }
    };
    let variant = if args.variant.is_empty() {
        words
    } else {
        args.variant.clone()
    };
    if is_config {
        outln!(
            "{}: the referee program {}, the game {:?}, identity {}",
            args.module.display(),
            loaded.label,
            loaded.name,
            loaded.sha256
        );
    } else {
        outln!(
            "{}: the game {:?}, sha256 {}, {} KiB",
            args.module.display(),
            loaded.name,
            loaded.sha256,
            std::fs::metadata(&args.module).map_or(0, |m| m.len().div_ceil(1024))
        );
    }
    match games::module::check(loaded, &variant, args.games, args.seed) {
        Ok(c) => {
            outln!(
                "passed: {} games, {} plies (longest {}); first player won {}, second {}, drawn {}",
                c.games,
                c.plies,
                c.longest,
                c.results[0],
                c.results[1],
                c.results[2]
            );
            outln!(
                "time in the rules: {:.1} µs a ply (legal moves, play, outcome, picture), slowest ply {:.0} µs",
                c.us_per_ply,
                c.slowest_ply_us
            );
            Ok(ExitCode::SUCCESS)
        }
        Err(f) => {
            errln!("failed: {f}");
            Ok(ExitCode::FAILURE)
        }
    }
}
