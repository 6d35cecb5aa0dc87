//! The one reader of what a run keeps in its results folder beside its games: the copy of its config
//! (`config.toml`, written by [`crate::run`]) and where that config came from (`config.origin`, the
//! folder its relative paths resolve against). `arena report`, `ratings`, `merge` and the knockout's
//! seeding read a folder's config through here.

use std::path::{Path, PathBuf};

use crate::config::Config;

/// The config copy's file name in a results folder.
pub const CONFIG: &str = "config.toml";

/// The config a run recorded in `dir`, parsed; `None` when the copy is missing or does not parse (a
/// folder from an older arena, or one edited by hand: its games are still read).
pub fn config(dir: &Path) -> Option<Config> {
    let path = dir.join(CONFIG);
    let text = std::fs::read_to_string(&path).ok()?;
    Config::parse(&text, &path).ok()
}

/// The absolute path of the config the copy in `dir` came from (`config.origin`); `None` when the run
/// did not record it.
pub fn origin(dir: &Path) -> Option<PathBuf> {
    let text = std::fs::read_to_string(dir.join(super::CONFIG_ORIGIN)).ok()?;
    let line = text.lines().next()?.trim();
    (!line.is_empty()).then(|| PathBuf::from(line))
}
