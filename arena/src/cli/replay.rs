//! `arena replay`: show a recorded game again, by the rules.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;

use arena::{out, outln};

use super::recorded_games;

/// Replay a recorded game by the rules and print its moves and the board (after the last ply, after
/// ply N with --ply, or after every ply with --every). Also a Dots game of an SGF file (GM[40]), e.g.
/// one played on zagram.org: `arena replay game.sgf`.
#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// A tournament's results folder, e.g. results/connect4, or an SGF file.
    dir: PathBuf,
    /// The game's id, as in games.csv (g0001); for an SGF file of several games, <stem>-<n>.
    id: Option<String>,
    /// Show the board after this many plies (0: the start position).
    #[arg(long)]
    ply: Option<usize>,
    /// Show the board after every ply.
    #[arg(long)]
    every: bool,
}

/// Prints game `id` of a results folder or an SGF file, and its board. Exit status 0.
///
/// # Errors
/// A folder or file that cannot be read, no such game (the error names the ones there are), or
/// [`arena::replay::replay`]'s errors.
pub fn run(args: ReplayArgs) -> Result<ExitCode> {
    let (dir, id) = (args.dir.as_path(), args.id.as_deref());
    let records = if dir.is_file() {
        arena::formats::sgf::read_records(dir)?
    } else {
        recorded_games(dir)?
    };
    let source = if dir.is_file() {
        dir.to_path_buf()
    } else {
        dir.join("games.csv")
    };
    let found = match (id, records.as_slice()) {
        (Some(id), _) => records.iter().find(|r| r.id == id),
        (None, [one]) if dir.is_file() => Some(one),
        (None, _) => None,
    };
    let Some(record) = found else {
        let mut ids: Vec<&str> = records.iter().map(|r| r.id.as_str()).collect();
        ids.sort_unstable();
        let which = id.map_or("which game?".into(), |id| format!("no game {id:?}"));
        anyhow::bail!(
            "{which} in {}; its games are {}",
            source.display(),
            match ids.as_slice() {
                [] => "none".to_string(),
                [one] => one.to_string(),
                [first, .., last] => format!("{first} to {last} ({} games)", ids.len()),
            }
        );
    };
    let detail = if record.detail.is_empty() {
        String::new()
    } else {
        format!(", {}", record.detail)
    };
    outln!(
        "{} — {} {} — {} vs {}: {} ({}{detail}), {} plies",
        record.id,
        record.game,
        record.variant,
        record.first,
        record.second,
        record.result,
        record.termination.as_str(),
        record.plies
    );
    if !record.setup.is_empty() {
        outln!("setup: {}", record.setup);
    }
    out!("{}", arena::replay::replay(record, args.ply, args.every)?);
    Ok(ExitCode::SUCCESS)
}
