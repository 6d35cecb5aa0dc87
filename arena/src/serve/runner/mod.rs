//! The server's own pool: two background loops on the server's runtime that play through the same
//! run layer as `arena run` ([`crate::tournament::run`]: containment, limits, records, resume).
//!
//! - [`checks`]: each new version, oldest first, plays `[check] games` against every reference bot;
//!   it passes when it forfeits none. A check left running by a killed server is played again from
//!   the start.
//! - [`competitions`]: test competitions on the schedule, and those the organiser starts, one at a
//!   time; a competition left running by a killed server is resumed from its `games.csv` (every
//!   recorded game kept once, the games that were running played again).

pub mod checks;
pub mod competitions;
pub mod live;

use std::path::{Component, Path, PathBuf};

use anyhow::{Context, Result};

use crate::config::BotConfig;
use crate::serve::upload::Manifest;

/// The `[[bots]]` entry of version `hash` of the bot `name`: its manifest's command, arguments,
/// protocol and options, started in its stored folder `store/<hash>`.
///
/// # Errors
/// A stored manifest that no longer parses (a database edited by hand).
pub fn bot_config(name: &str, manifest: &str, store: &Path, hash: &str) -> Result<BotConfig> {
    let m: Manifest =
        toml::from_str(manifest).with_context(|| format!("the manifest of {name}"))?;
    let dir = store.join(hash);
    let command = if m.command.contains('/') {
        let mut path = dir.clone();
        for c in Path::new(&m.command).components() {
            if let Component::Normal(c) = c {
                path.push(c);
            }
        }
        path.to_string_lossy().into_owned()
    } else {
        m.command.clone()
    };
    Ok(BotConfig {
        name: name.to_string(),
        command: Some(command),
        builtin: None,
        args: m.args,
        dir: Some(dir),
        protocol: m.protocol,
        options: m.options,
        time_control: None,
        limits: None,
        sandbox: None,
        sweep: None,
    })
}

/// The folders of a contest's data, all under `root` (`results/<contest>/` by default).
#[derive(Clone, Debug)]
pub struct DataDirs {
    pub root: PathBuf,
}

impl DataDirs {
    /// Uploads being received and unpacked (emptied when the server starts).
    pub fn incoming(&self) -> PathBuf {
        self.root.join("incoming")
    }
    /// Every stored upload, `store/<sha256>/`.
    pub fn store(&self) -> PathBuf {
        self.root.join("store")
    }
    /// The results folder of each check, `checks/<bot>-v<N>/`.
    pub fn checks(&self) -> PathBuf {
        self.root.join("checks")
    }
    /// The results folder of each competition, `competitions/competition-<id>/`.
    pub fn competitions(&self) -> PathBuf {
        self.root.join("competitions")
    }
    /// The results folder of competition `id`.
    pub fn competition(&self, id: i64) -> PathBuf {
        self.competitions().join(format!("competition-{id}"))
    }
    /// The results folder of version `number` of bot `name`'s check.
    pub fn check(&self, name: &str, number: i64) -> PathBuf {
        self.checks().join(check_name(name, number))
    }
}

/// The name of a check's run: `<bot>-v<N>`.
pub fn check_name(name: &str, number: i64) -> String {
    format!("{name}-v{number}")
}
