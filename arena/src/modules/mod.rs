//! Game modules in the arena (`docs/modules.md`): a config's `[game] module = "FILE.wasm"` (or `arena
//! match --game FILE.wasm`) loaded into a [`GameSpec`], a copy of the module kept in the results folder
//! under its SHA-256 so that every reader of the folder re-referees its records through the very module
//! they were played with, and the loading of those copies.
//!
//! The rules run in process ([`games::module`]); a module that fails voids the game
//! ([`crate::record::Termination::Void`]), never a bot's loss.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use games::module::{self, Limits, Loaded};
use games::GameSpec;

/// The folder of a results folder that keeps the modules its records were played with.
pub const FOLDER: &str = "modules";

/// The end of the name of a file in [`FOLDER`] that keeps how to start a referee program
/// (`<identity>.referee.toml`, `crate::referee_programs`).
pub const KEPT_REFEREE: &str = ".referee.toml";

/// Reads and loads the module file `path` (named by its file name in messages).
///
/// # Errors
/// The file cannot be read, or [`games::module::load`] refuses the module.
pub fn load_file(path: &Path) -> Result<&'static Loaded, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("module {}: {e}", path.display()))?;
    let label = path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    module::load(&label, &bytes, Limits::default()).map_err(|e| e.to_string())
}

/// A game as people read it: a built-in game's text (`connect4 7 6`); a module's or referee program's
/// name, variant and rules (`gomoku 15 5 (referee python3 referee.py)`), not the SHA-256 of its record.
pub fn title(spec: &GameSpec) -> String {
    match spec {
        GameSpec::Module(v) => {
            let m = v.module();
            let words = if v.words().is_empty() {
                String::new()
            } else {
                format!(" {}", v.words())
            };
            format!("{}{words} ({})", m.name, m.describe())
        }
        other => other.to_string(),
    }
}

/// Whether `word` names a module file rather than a built-in game (`--game connect4.wasm`).
pub fn is_file(word: &str) -> bool {
    word.ends_with(".wasm")
}

/// The path of the copy of `loaded` in results folder `dir`.
pub fn kept(dir: &Path, loaded: &Loaded) -> PathBuf {
    dir.join(FOLDER).join(format!("{}.wasm", loaded.sha256))
}

/// Keeps a copy of the module file `source` (of `spec`, a module game) in results folder `dir`, unless
/// the folder holds it already. Nothing for a built-in game.
///
/// # Errors
/// The copy cannot be written.
pub fn keep(dir: &Path, spec: &GameSpec, source: Option<&Path>) -> Result<()> {
    let (GameSpec::Module(v), Some(source)) = (spec, source) else {
        return Ok(());
    };
    let to = kept(dir, v.module());
    if to.exists() {
        return Ok(());
    }
    std::fs::create_dir_all(to.parent().expect("in a folder"))
        .with_context(|| format!("creating {}", dir.join(FOLDER).display()))?;
    let tmp = to.with_extension("wasm.tmp");
    std::fs::copy(source, &tmp)
        .and_then(|_| std::fs::rename(&tmp, &to))
        .with_context(|| {
            format!(
                "keeping the module {} in {}",
                source.display(),
                to.display()
            )
        })
}

/// Copies the modules kept in results folder `from` into results folder `into` (a merge of shards).
///
/// # Errors
/// A copy that cannot be read or written.
pub fn copy_kept(from: &Path, into: &Path) -> Result<()> {
    let Ok(entries) = std::fs::read_dir(from.join(FOLDER)) else {
        return Ok(());
    };
    std::fs::create_dir_all(into.join(FOLDER))
        .with_context(|| format!("creating {}", into.join(FOLDER).display()))?;
    for entry in entries {
        let path = entry?.path();
        let to = into
            .join(FOLDER)
            .join(path.file_name().expect("an entry has a name"));
        // A module, or how to start a referee program (`<identity>.referee.toml`, docs/referees.md).
        let kept = path.extension().and_then(|e| e.to_str()) == Some("wasm")
            || path.to_string_lossy().ends_with(KEPT_REFEREE);
        if kept && !to.exists() {
            std::fs::copy(&path, &to)
                .with_context(|| format!("copying {} to {}", path.display(), to.display()))?;
        }
    }
    Ok(())
}

/// Loads every module kept in results folder `dir` (none when it has no `modules` folder), so that
/// its records' games (`module <sha256> …`) parse.
///
/// # Errors
/// A kept module that cannot be read or loaded, or whose bytes are not those its name says.
pub fn load_kept(dir: &Path) -> Result<()> {
    let folder = dir.join(FOLDER);
    let Ok(entries) = std::fs::read_dir(&folder) else {
        return Ok(());
    };
    for entry in entries {
        let path = entry?.path();
        if path.extension().and_then(|e| e.to_str()) != Some("wasm") {
            continue;
        }
        let loaded = load_file(&path).map_err(anyhow::Error::msg)?;
        let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
        anyhow::ensure!(
            stem == loaded.sha256,
            "{}: its SHA-256 is {}, not its name: the module was changed after the games were played",
            path.display(),
            loaded.sha256
        );
    }
    Ok(())
}
