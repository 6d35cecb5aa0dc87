//! The tournament config as written in TOML (stage one of two: see [`crate::plan`] for the validated plan).
//!
//! Every table rejects unknown keys, and errors name the file, line and column.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

/// A whole config file. See `configs/*.toml` and README.md for examples.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// The tournament's name; also its folder under `results/` (letters, digits, `.`, `_`, `-`).
    pub name: String,
    /// `round-robin` (default) or `gauntlet` (the first bot plays every other bot).
    #[serde(default)]
    pub format: Format,
    /// Games each pair of bots plays: an even number, played as game pairs with the first move swapped.
    #[serde(default = "default_games_per_pair")]
    pub games_per_pair: u32,
    /// Random plies played from the start position before the bots take over; both games of a game
    /// pair share the opening. 0 (default) starts every game from the start position.
    #[serde(default)]
    pub opening_plies: u32,
    /// The seed of the schedule, the openings and the per-game seeds.
    #[serde(default)]
    pub seed: u64,
    /// Games played at once; default: the number of cores.
    pub concurrency: Option<usize>,
    /// Adjudicate a game after this many plies (Dots: by score; others: a draw). Default: never.
    pub max_plies: Option<u32>,
    /// The game and its variant.
    pub game: GameConfig,
    /// The time control of every bot that does not set its own.
    pub time_control: TimeControlConfig,
    /// The players, at least two.
    pub bots: Vec<BotConfig>,
}

fn default_games_per_pair() -> u32 {
    2
}

/// The tournament format.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// Every bot plays every other bot.
    #[default]
    RoundRobin,
    /// The first bot listed plays every other bot; the others do not meet.
    Gauntlet,
}

/// `[game]`: which game and which variant.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameConfig {
    /// `tictactoe`, `connect4` or `dots`.
    pub name: String,
    /// Columns (tic-tac-toe, Connect Four) or points across (Dots).
    pub width: Option<u32>,
    /// Rows, or points down.
    pub height: Option<u32>,
    /// Tic-tac-toe only: stones in a row to win.
    pub k: Option<u32>,
    /// Dots only: `empty`, `cross` (default) or `four-crosses`.
    pub start: Option<String>,
}

/// `[time_control]`: a budget per game plus an increment (Fischer), or a fixed time per move. All in ms.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct TimeControlConfig {
    /// Time for the whole game, ms. Absent: only `max_move_ms` limits each move.
    pub time_ms: Option<u64>,
    /// Added to the clock after each move, ms.
    #[serde(default)]
    pub inc_ms: u64,
    /// A hard cap per move, ms, whatever the clock says.
    pub max_move_ms: Option<u64>,
    /// Deadline for the handshake (start to `readyok`), not charged to the clock, ms.
    #[serde(default = "default_startup_ms")]
    pub startup_ms: u64,
    /// Grace added to every deadline before a timeout is called, ms (fastchess `timemargin`).
    #[serde(default)]
    pub margin_ms: u64,
}

fn default_startup_ms() -> u64 {
    5000
}

/// `[[bots]]`: one player.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BotConfig {
    /// Unique name in this tournament.
    pub name: String,
    /// The executable: a path (with a `/`) or a name looked up on `PATH`.
    pub command: Option<String>,
    /// Instead of `command`: a reference bot built into the `arena` binary, started as `arena bot <name>`.
    pub builtin: Option<String>,
    /// Arguments passed to the executable.
    #[serde(default)]
    pub args: Vec<String>,
    /// The working directory of the process (default: the arena's).
    pub dir: Option<PathBuf>,
    /// `ugi` (default) or `codecup`.
    #[serde(default)]
    pub protocol: ProtocolKind,
    /// Engine options sent with `setoption` (UGI only).
    #[serde(default)]
    pub options: BTreeMap<String, toml::Value>,
    /// Overrides the tournament's time control for this bot.
    pub time_control: Option<TimeControlConfig>,
}

/// How the arena talks to a bot (`docs/protocol.md`).
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq, Hash)]
#[serde(rename_all = "lowercase")]
pub enum ProtocolKind {
    /// UGI with the arena's `game` command.
    #[default]
    Ugi,
    /// CodeCup: `Start`, the opponent's moves one per line, `Quit`.
    Codecup,
}

/// A config file that cannot be read or parsed.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("{path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}:{line}:{column}: {message}")]
    Parse {
        path: PathBuf,
        line: usize,
        column: usize,
        message: String,
    },
}

impl Config {
    /// Reads and parses a config file.
    ///
    /// # Errors
    /// [`ConfigError::Read`] if the file cannot be read; [`ConfigError::Parse`] with the 1-based line and
    /// column for a syntax error, an unknown key, a missing key or a value of the wrong type.
    pub fn load(path: &Path) -> Result<Config, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
            path: path.to_owned(),
            source,
        })?;
        Config::parse(&text, path)
    }

    /// Parses config text; `path` is only used in error messages.
    ///
    /// # Errors
    /// As [`Config::load`].
    pub fn parse(text: &str, path: &Path) -> Result<Config, ConfigError> {
        toml::from_str(text).map_err(|e| {
            let (line, column) = e
                .span()
                .map(|s| line_column(text, s.start))
                .unwrap_or((0, 0));
            ConfigError::Parse {
                path: path.to_owned(),
                line,
                column,
                message: e.message().to_string(),
            }
        })
    }
}

/// 1-based line and column of byte `offset` in `text`.
fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    const MINIMAL: &str = r#"
name = "t"
[game]
name = "connect4"
[time_control]
time_ms = 1000
[[bots]]
name = "a"
builtin = "random"
[[bots]]
name = "b"
builtin = "random"
"#;

    #[test]
    fn a_minimal_config_parses_with_defaults() {
        let c = Config::parse(MINIMAL, Path::new("t.toml")).unwrap();
        assert_eq!(c.format, Format::RoundRobin);
        assert_eq!(c.games_per_pair, 2);
        assert_eq!(c.time_control.startup_ms, 5000);
        assert_eq!(c.bots[1].protocol, ProtocolKind::Ugi);
    }

    #[test]
    fn unknown_keys_are_errors_with_file_line_and_column() {
        let text = MINIMAL.replace(
            "builtin = \"random\"\n[[bots]]",
            "builtin = \"random\"\ncolour = 3\n[[bots]]",
        );
        let err = Config::parse(&text, Path::new("bad.toml"))
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("bad.toml:10:1: unknown field `colour`"),
            "{err}"
        );
    }

    #[test]
    fn a_wrong_type_names_its_place() {
        let text = MINIMAL.replace("time_ms = 1000", "time_ms = \"soon\"");
        let err = Config::parse(&text, Path::new("c.toml"))
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("c.toml:6:11:"), "{err}");
    }
}
