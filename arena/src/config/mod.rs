//! The tournament config as written in TOML (stage one of two: see [`crate::plan`] for the validated plan).
//!
//! Every table rejects unknown keys, and errors name the file, line and column.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

pub mod affinity;
pub mod matchup;
pub mod span;
pub mod tiebreak;
pub mod time_control;
pub mod tune;

pub use tiebreak::Tiebreak;

/// A whole config file. See `configs/*.toml` and README.md for examples.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// The tournament's name; also its folder under `results/` (letters, digits, `.`, `_`, `-`).
    pub name: String,
    /// `round-robin` (default), `gauntlet` (the first bot plays every other bot), `sprt` (two bots play
    /// game pairs until the SPRT of `[sprt]` decides), `swiss` (`rounds` rounds) or `knockout` (a
    /// bracket, `[knockout]`).
    #[serde(default)]
    pub format: Format,
    /// Games each pair of bots plays: an even number, played as game pairs with the first move swapped.
    /// Default 2; not allowed with `format = "sprt"` (its `[sprt] max_pairs` bounds the match).
    pub games_per_pair: Option<u32>,
    /// Random plies played before the bots take over (after the book line, with `[openings]`); both games
    /// of a game pair share the opening. 0 (default) starts every game from the start position.
    #[serde(default)]
    pub opening_plies: u32,
    /// `[openings]`: an opening file; each game pair starts from one of its lines.
    pub openings: Option<OpeningsConfig>,
    /// `[sprt]`: the test of a `format = "sprt"` match; required by that format, refused by the others
    /// but `tune`, where it is the test of `[tune] verify`.
    pub sprt: Option<SprtConfig>,
    /// `[tune]`: the SPSA tuning of a `format = "tune"` config (`arena tune`); refused by the others.
    pub tune: Option<tune::TuneConfig>,
    /// `format = "swiss"`: the number of rounds, at least 1 and at most a round-robin's (bots − 1, or
    /// bots when odd). Refused by the other formats.
    pub rounds: Option<u32>,
    /// `[knockout]`: match length, tie-break pairs and seeding of a `format = "knockout"` bracket.
    pub knockout: Option<KnockoutConfig>,
    /// `format = "round-robin"`: play the whole round-robin this many times (default 1), each cycle's
    /// game pairs opening with the other bot first; the same as multiplying `games_per_pair`.
    pub cycles: Option<u32>,
    /// The ranking's tie-breaks, in order, after points: `forfeits` (fewer games lost by forfeit,
    /// CodeCup's irregular losses), `head-to-head` (points among the tied bots), `sonneborn-berger`,
    /// `buchholz`, `wins`, `capture-difference` (Dots only). Default `["wins", "capture-difference"]`
    /// (capture difference only counts in Dots); see `docs/formats.md`.
    pub tiebreaks: Option<Vec<String>>,
    /// The bot whose rating is 0 Elo in the standings (Ordo's `-a`, as `arena ratings --anchor`); a swept
    /// variant is named as it plays, `bot[k=v]`. Default: the mean of all ratings is 0.
    pub anchor: Option<String>,
    /// The seed of the schedule, the openings and the per-game seeds.
    #[serde(default)]
    pub seed: u64,
    /// Games played at once; default: the number of cores.
    pub concurrency: Option<usize>,
    /// Adjudicate a game after this many plies (Dots: by score; others: a draw). Default: never.
    pub max_plies: Option<u32>,
    /// Both games of a game pair have the same first player (cutechess's `-noswap`): the pair's
    /// opening is not played again with the sides swapped. Default false.
    pub noswap: Option<bool>,
    /// Each game pair starts with the other bot first (cutechess's `-reverse`): the bot that would move
    /// first in the pair's first game moves second (with `noswap`, in both games). Default false.
    pub reverse: Option<bool>,
    /// Append each game to this PGN file as it ends (cutechess's `-pgnout`), with each bot move's score,
    /// depth and time as its comment; relative to the config file's folder unless absolute.
    /// `arena run --pgnout FILE` overrides it. Default: none (`arena export` writes PGN afterwards).
    pub pgnout: Option<PathBuf>,
    /// Pin each game's bots to CPUs of their own (fastchess's `-use-affinity`): `true` shares out every
    /// CPU the arena may run on among the game slots, a string names the CPUs (`"0-3,8"`, as `taskset
    /// -c`); `arena run --affinity` overrides it. Default: off.
    pub affinity: Option<AffinityConfig>,
    /// Append each Dots game to this SGF file as it ends, one game tree of an SGF collection per game in
    /// the SGF of `arena export --format sgf`, with each move's comment `C[..]` as the live PGN's
    /// (score/depth and time); relative to the config file's folder unless absolute. Dots only (with a
    /// board of at most 52 points a side). `arena run --sgfout FILE` overrides it. Default: none.
    pub sgfout: Option<PathBuf>,
    /// `[adjudication]`: end games by the bots' own scores (cutechess's `-resign` and `-draw`); off by
    /// default.
    pub adjudication: Option<AdjudicationConfig>,
    /// `[limits]`: resource limits of every bot's process tree, per game; a bot's own `limits` table
    /// overrides them key by key. Safe defaults apply to every key left out ([`LimitsConfig`]).
    #[serde(default)]
    pub limits: LimitsConfig,
    /// Stop the waiting bot's processes while its opponent thinks and resume them before it is sent
    /// anything (CodeCup's rule), so pondering and concurrent games cannot steal CPU. Default true.
    pub suspend_idle: Option<bool>,
    /// Run every bot inside this sandbox (a bot's own `sandbox` overrides it): `bubblewrap` (Debian's
    /// `bwrap`: no network, only the system read-only and its own folders, its own writable working
    /// directory, `/tmp` and `/dev/shm`, a clean environment) or `none`. Default: `bubblewrap` for bots
    /// given as a `command`, `none` for built-in bots.
    pub sandbox: Option<SandboxKind>,
    /// The game and its variant.
    pub game: GameConfig,
    /// The time control of every bot that does not set its own.
    pub time_control: TimeControlConfig,
    /// The players, at least two.
    pub bots: Vec<BotConfig>,
    /// `[shards]`: how `arena run --shard auto` splits this tournament when the scheduler does not say
    /// (a Kubernetes Indexed Job); see [`ShardsConfig`].
    pub shards: Option<ShardsConfig>,
}

/// `[shards]`: the split of a tournament over machines, for `arena run --shard auto` (see
/// [`crate::shard`]). A Kubernetes Indexed Job gives each pod its index but not the count, so the count
/// comes from here (or `--shard-count`); a Slurm job array's own count must equal it.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct ShardsConfig {
    /// The number of shards, at least 1 (the Indexed Job's `completions`).
    pub count: u32,
}

/// The config's `affinity`: `true`/`false`, or the CPUs (`"0-3,8"`).
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(untagged)]
pub enum AffinityConfig {
    /// `true`: every CPU the arena may run on; `false`: off.
    On(bool),
    /// The CPUs, as `taskset -c` writes them: `"0-3,8"`.
    Cpus(String),
}

/// `[adjudication]`: games ended by the scores the bots report in their `info` lines before each move
/// (`docs/configs.md`), as cutechess's `-resign movecount=3 score=600` and `-draw movenumber=40
/// movecount=8 score=10`. Scores are compared as the bots give them: UCI's `score cp` in centipawns, the
/// arena protocol's `score S` in the bot's own units; a mate is the most or the least there is.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct AdjudicationConfig {
    /// A bot whose score was `-resign_score` or worse on each of its last `resign_moves` moves loses,
    /// recorded as a resignation, when it is next to move (cutechess's `movecount`).
    pub resign_moves: Option<u32>,
    /// The resignation's score, at least 0 (cutechess's `score`).
    pub resign_score: Option<i64>,
    /// The draw rule applies once this many full moves are played, the opening's included (cutechess's
    /// `movenumber`); default 0.
    pub draw_after: Option<u32>,
    /// The game is drawn (Dots: decided by the captures, as at `max_plies`) once both bots' scores were
    /// within ±`draw_score` on each of their last `draw_moves` moves (cutechess's `movecount`).
    pub draw_moves: Option<u32>,
    /// The draw's score, at least 0 (cutechess's `score`).
    pub draw_score: Option<i64>,
    /// Connect Four 7 × 6 and tic-tac-toe: once this many plies are played (the opening's included),
    /// the solver searches each position before a move, and the game ends `solved` with the value it
    /// proves, as cutechess's tablebase adjudication. Off when left out.
    pub solver_plies: Option<u32>,
    /// The node cap of each of those searches (default 1,000,000, at most 100,000,000); a position
    /// not proved within it is played on.
    pub solver_nodes: Option<u64>,
}

/// `[limits]` (or a bot's `limits = { … }`): resource limits of one bot's processes during one game, as
/// isolate's `--mem`, `--processes`, `--fsize` and `--time`. Each key left out takes the tournament's
/// value, then the default; 0 turns a limit off. A bot stopped by a limit forfeits, and the record's
/// detail names the limit (`memory limit 256 MiB`).
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct LimitsConfig {
    /// Memory of the bot's whole process tree, MiB (cgroup `memory.max`; without a memory cgroup, the
    /// address space of each process, `RLIMIT_AS`). Default 1024.
    pub memory_mb: Option<u64>,
    /// Processes and threads of the bot's tree (cgroup `pids.max`; without a pids cgroup,
    /// `RLIMIT_NPROC`, which counts the user's processes and does not bind root). Default 128.
    pub processes: Option<u64>,
    /// CPU time of each of the bot's processes over the game, s (`RLIMIT_CPU`). Default 0: off (the clock
    /// already bounds the time a bot thinks, and an idle bot is suspended).
    pub cpu_s: Option<u64>,
    /// Largest file the bot may write, MiB (`RLIMIT_FSIZE`). Default 64.
    pub file_mb: Option<u64>,
    /// Open file descriptors per process (`RLIMIT_NOFILE`). Default 1024.
    pub open_files: Option<u64>,
    /// Size of each writable folder of a sandboxed bot, MiB: its `HOME` (its working folder), `/tmp`
    /// and `/dev/shm` are each a tmpfs this large (bubblewrap's `--size`), so nothing it writes reaches
    /// the host's disk. Default 256.
    pub disk_mb: Option<u64>,
}

/// A sandbox for bot processes. A config that names none gets `bubblewrap` for every bot given as a
/// `command` and `none` for built-in bots (see [`crate::plan::BotPlan::sandbox`]).
#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq, Hash)]
#[serde(rename_all = "lowercase")]
pub enum SandboxKind {
    /// No sandbox: the bot sees the machine as the arena's user does (its limits still apply); `arena
    /// run` prints a warning for bots given as commands.
    None,
    /// Debian's `bubblewrap` (`bwrap`): new namespaces without network, only the system folders
    /// (read-only) and the bot's own folders, a writable working directory of its own under the run's
    /// folder, its own `/tmp` and `/dev/shm`, a clean environment ([`crate::sandbox::bubblewrap`]).
    Bubblewrap,
}

impl SandboxKind {
    /// The `PATH` inside the bubblewrap sandbox; a `command` given without a `/` is looked up here first,
    /// so that it names a program the bot can see.
    pub const PATH: &'static str = "/usr/local/bin:/usr/bin:/bin";
}

/// `[openings]`: an opening book as a text file, one opening per line (cutechess's and fastchess's
/// `-openings file=… order=…`).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct OpeningsConfig {
    /// The file, relative to the config file's folder (or absolute). Each line holds the moves of one
    /// opening in the game's notation, separated by spaces; empty lines and lines starting with `#` are
    /// skipped. For Dots, an `.sgf` file or a folder of them: each game tree is one opening, its start
    /// dots and main line (see [`crate::plan::openings`]).
    pub file: PathBuf,
    /// `sequential` (default): game pair k plays line k, wrapping around; `random`: a seeded shuffle of
    /// the lines, then in that order, wrapping around.
    #[serde(default)]
    pub order: OpeningOrder,
    /// Keep at most this many plies of each opening (cutechess's `plies=`), e.g. to start from the first
    /// moves of finished games; all of them by default.
    #[serde(default)]
    pub plies: Option<u32>,
}

/// The order in which game pairs take the lines of an opening file.
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum OpeningOrder {
    /// Line 1, 2, 3, …, wrapping around.
    #[default]
    Sequential,
    /// A shuffle of the lines drawn from the tournament seed, wrapping around.
    Random,
}

/// `[sprt]`: a sequential probability ratio test between two bots (fishtest's and fastchess's GSPRT on
/// pentanomial counts). H0: elo = `elo0`; H1: elo = `elo1`, in the units of `model`.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct SprtConfig {
    /// Elo under H0 (default 0).
    #[serde(default)]
    pub elo0: f64,
    /// Elo under H1 (default 5), greater than `elo0`.
    #[serde(default = "default_elo1")]
    pub elo1: f64,
    /// False positive rate: accepting H1 when H0 holds (default 0.05).
    #[serde(default = "default_error_rate")]
    pub alpha: f64,
    /// False negative rate: accepting H0 when H1 holds (default 0.05).
    #[serde(default = "default_error_rate")]
    pub beta: f64,
    /// `normalized` (default; elo0/elo1 in normalized Elo) or `logistic` (plain Elo).
    #[serde(default = "default_model")]
    pub model: String,
    /// Stop as inconclusive after this many game pairs.
    pub max_pairs: u32,
}

fn default_elo1() -> f64 {
    5.0
}

fn default_error_rate() -> f64 {
    0.05
}

fn default_model() -> String {
    "normalized".into()
}

/// `[knockout]`: a single-elimination bracket (see `docs/formats.md`).
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct KnockoutConfig {
    /// Game pairs of each match (default 1).
    pub pairs: Option<u32>,
    /// A match tied after `pairs` goes on one game pair at a time until one bot leads, for at most this
    /// many extra pairs (default 2); still tied, the higher seed advances.
    pub extra_pairs: Option<u32>,
    /// Seed the bracket by the Elo ratings of this results folder (relative to the config file's
    /// folder, e.g. `"../results/c4"`); bots it has not rated come after, in config order. Default: the
    /// config order is the seeding.
    pub seeds_from: Option<PathBuf>,
}

/// The tournament format.
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// Every bot plays every other bot.
    #[default]
    RoundRobin,
    /// The first bot listed plays every other bot; the others do not meet.
    Gauntlet,
    /// Exactly two bots play game pairs until the SPRT of `[sprt]` accepts H0 or H1, or `max_pairs`.
    Sprt,
    /// SPSA tuning of one bot's options (`[tune]`), played by `arena tune`, not `arena run`.
    Tune,
    /// `rounds` Swiss rounds: each round pairs bots of equal or near score who have not met
    /// ([`crate::tournament::pairing::swiss`]).
    Swiss,
    /// A seeded single-elimination bracket ([`crate::tournament::pairing::knockout`]).
    Knockout,
}

/// `[game]`: which game and which variant. The keys besides `name` belong to the game: each game
/// declares its own ([`games::Variant::PARAMS`]: `width`, `height`, `k` for tic-tac-toe; `width`,
/// `height`, `start` for Dots; `pits`, `seeds` for Kalah; `docs/configs.md` lists them), and the plan
/// refuses a key the game does not have, with its line and column ([`crate::plan::Plan::new`]).
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
pub struct GameConfig {
    /// A game of the registry ([`games::GameKind`]): `tictactoe`, `connect4`, `dots`, `kalah`. With
    /// `module = "FILE.wasm"` (a game module, `docs/modules.md`) it may be left out.
    #[serde(default)]
    pub name: String,
    /// The variant's keys as written, each a number or a string; checked against the game's when the
    /// plan is made.
    #[serde(flatten)]
    pub keys: BTreeMap<String, toml::Value>,
}

impl GameConfig {
    /// The `[game]` table of a game's text as the protocol's `game` command writes it (`kalah 6 4`,
    /// `connect4`): the name, and each word given under its key (`pits = 6`, `seeds = 4`). A first word
    /// ending in `.wasm` is a game module's file (made absolute: `module`), the other words its
    /// `variant`; one ending in `.toml` is a config whose `[game]` is taken, the other words its
    /// `variant` ([`GameConfig::of_config`]: how a referee program's game is named on the command
    /// line). Nothing is checked but the number of words; [`crate::plan::Plan::new`] checks the rest.
    ///
    /// # Errors
    /// An unknown game, more words than the game has keys, a config that cannot be read.
    pub fn from_words(text: &str) -> Result<GameConfig, String> {
        let mut words = text.split_whitespace();
        let name = words.next().unwrap_or_default();
        if crate::modules::is_file(name) {
            // A module file, then its variant's words: `connect4.wasm 7 6`.
            let path = std::path::absolute(name).map_err(|e| format!("{name}: {e}"))?;
            let mut keys = BTreeMap::new();
            keys.insert(
                "module".to_string(),
                toml::Value::String(path.display().to_string()),
            );
            let rest: Vec<&str> = words.collect();
            if !rest.is_empty() {
                keys.insert("variant".to_string(), toml::Value::String(rest.join(" ")));
            }
            return Ok(GameConfig {
                name: String::new(),
                keys,
            });
        }
        if name.ends_with(".toml") {
            // A config's game (a referee program's, say), then the variant's words.
            return GameConfig::of_config(Path::new(name), &words.collect::<Vec<_>>().join(" "));
        }
        let kind: games::GameKind = name.parse().map_err(|e| format!("{e}"))?;
        let rest: Vec<&str> = words.collect();
        let params = kind.params();
        if rest.len() > params.len() {
            return Err(format!(
                "{text:?}: {kind} takes at most {} words after its name ({})",
                params.len(),
                params.iter().map(|p| p.key).collect::<Vec<_>>().join(" ")
            ));
        }
        let keys = params
            .iter()
            .zip(rest)
            .map(|(p, w)| (p.key.to_string(), key_value(w)))
            .collect();
        Ok(GameConfig {
            name: kind.name().to_string(),
            keys,
        })
    }

    /// The `[game]` table of the config `path` (`--game configs/referee-gomoku.toml`), its paths made
    /// absolute (a module's file; a referee's command given as a path and its arguments that name
    /// files, relative to the config's folder), with `variant` replaced by `words` when given.
    ///
    /// # Errors
    /// The config cannot be read or parsed.
    pub fn of_config(path: &Path, words: &str) -> Result<GameConfig, String> {
        let config = Config::load(path).map_err(|e| e.to_string())?;
        let base = path.parent().filter(|p| !p.as_os_str().is_empty());
        let base = std::path::absolute(base.unwrap_or(Path::new(".")))
            .map_err(|e| format!("{}: {e}", path.display()))?;
        let absolute = |word: &str| -> String {
            let p = base.join(word);
            if Path::new(word).is_absolute() || !p.exists() {
                word.to_string()
            } else {
                p.display().to_string()
            }
        };
        let mut game = config.game;
        if let Some(toml::Value::String(m)) = game.keys.get_mut("module") {
            *m = absolute(m);
        }
        if let Some(toml::Value::Table(r)) = game.keys.get_mut("referee") {
            if let Some(toml::Value::String(c)) = r.get_mut("command") {
                if c.contains('/') {
                    *c = absolute(c);
                }
            }
            if let Some(toml::Value::Array(args)) = r.get_mut("args") {
                for a in args.iter_mut() {
                    if let toml::Value::String(w) = a {
                        *w = absolute(w);
                    }
                }
            }
        }
        if !words.is_empty() {
            game.keys
                .insert("variant".into(), toml::Value::String(words.to_string()));
        }
        Ok(game)
    }

    /// Sets key `key` to `value` (a flag such as `--width 8`): a number if it reads as one.
    pub fn set(&mut self, key: &str, value: &str) {
        self.keys.insert(key.to_string(), key_value(value));
    }
}

/// A variant's word as a config value: an integer if it reads as one, else a string.
fn key_value(word: &str) -> toml::Value {
    match word.parse::<i64>() {
        Ok(n) => toml::Value::Integer(n),
        Err(_) => toml::Value::String(word.to_string()),
    }
}

/// `[time_control]`: a budget per game plus an increment (Fischer), or a fixed time per move. All in ms.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq)]
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
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct BotConfig {
    /// Unique name in this tournament.
    pub name: String,
    /// The executable: a path (with a `/`), relative to the config file's folder unless absolute, or a
    /// name looked up on `PATH`.
    pub command: Option<String>,
    /// Instead of `command`: a reference bot built into the `arena` binary, started as `arena bot <name>`.
    pub builtin: Option<String>,
    /// Arguments passed to the executable. Without a `dir`, an argument that names an existing file or
    /// folder relative to the config file's folder is passed as that path (made absolute), as `command`
    /// is resolved; with a `dir`, arguments are passed as written (the bot starts there).
    #[serde(default)]
    pub args: Vec<String>,
    /// The working directory of the process, relative to the config file's folder (default: the
    /// arena's).
    pub dir: Option<PathBuf>,
    /// `ugi` (default) or `codecup`.
    #[serde(default)]
    pub protocol: ProtocolKind,
    /// Engine options sent with `setoption` (UGI only).
    #[serde(default)]
    pub options: BTreeMap<String, toml::Value>,
    /// Overrides the tournament's time control for this bot.
    pub time_control: Option<TimeControlConfig>,
    /// Overrides keys of the tournament's `[limits]` for this bot.
    pub limits: Option<LimitsConfig>,
    /// Overrides the tournament's `sandbox` for this bot.
    pub sandbox: Option<SandboxKind>,
    /// Plays this bot as several variants, one per option setting: a grid (`{ depth = [2, 4] }`, every
    /// combination of the listed values) or a list (`[{ depth = 2 }, { depth = 4, seed = 1 }]`). Variant
    /// names are `name[option=value,…]`; their options are `options` with the sweep's values on top.
    pub sweep: Option<Sweep>,
}

/// A bot's `sweep`: the option settings of its variants.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(untagged)]
pub enum Sweep {
    /// Option name → the values to try; every combination is a variant (names in sorted order).
    Grid(BTreeMap<String, Vec<toml::Value>>),
    /// One table of option settings per variant.
    List(Vec<BTreeMap<String, toml::Value>>),
}

/// How the arena talks to a bot (`docs/protocol.md`).
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, PartialEq, Eq, Hash)]
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
    /// The file could not be read (the I/O error is in the message, not a `source` as well: anyhow's
    /// `{:#}` would print it twice).
    #[error("{path}: {error}")]
    Read {
        path: PathBuf,
        error: std::io::Error,
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
        let text = std::fs::read_to_string(path).map_err(|error| ConfigError::Read {
            path: path.to_owned(),
            error,
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

    /// The config as TOML text, which [`Config::parse`] reads back as the same config: how a config built
    /// as a value (a tuning's verifying SPRT) is recorded in its results folder.
    ///
    /// # Errors
    /// A value TOML cannot hold (none of the config's types has one; kept for the serializer's contract).
    pub fn to_toml(&self) -> Result<String, toml::ser::Error> {
        toml::to_string(self)
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

    /// Every config of the repository, written out as TOML and read back, is the same config (compared
    /// by its TOML, since the config types hold floats and maps without `Eq`).
    #[test]
    fn every_repository_config_survives_a_round_trip_through_toml() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../configs");
        let mut seen = 0;
        for folder in [root.clone(), root.join("baseline")] {
            for entry in std::fs::read_dir(&folder).unwrap().flatten() {
                let path = entry.path();
                // A contest file (`arena serve`) is checked by the server's own test.
                let contest = path
                    .file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with("contest-"));
                if path.extension().is_none_or(|e| e != "toml") || contest {
                    continue;
                }
                let config = Config::load(&path).unwrap();
                let text = config.to_toml().unwrap();
                let again = Config::parse(&text, &path)
                    .unwrap_or_else(|e| panic!("{}: {e}\n{text}", path.display()));
                assert_eq!(again.to_toml().unwrap(), text, "{}", path.display());
                assert_eq!(again.name, config.name);
                assert_eq!(again.bots.len(), config.bots.len());
                seen += 1;
            }
        }
        assert!(
            seen >= 20,
            "only {seen} configs found under {}",
            root.display()
        );
    }

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
        assert_eq!(c.games_per_pair, None);
        assert!(c.sprt.is_none() && c.openings.is_none());
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
    fn sweeps_are_grids_or_lists() {
        let grid = MINIMAL.replace(
            "name = \"b\"\nbuiltin = \"random\"",
            "name = \"b\"\nbuiltin = \"alphabeta\"\nsweep = { c4_centre = [1, 3], depth = [2] }",
        );
        let c = Config::parse(&grid, Path::new("t.toml")).unwrap();
        let Some(Sweep::Grid(g)) = &c.bots[1].sweep else {
            panic!("{:?}", c.bots[1].sweep)
        };
        assert_eq!(g["c4_centre"].len(), 2);
        let list = MINIMAL.replace(
            "name = \"b\"\nbuiltin = \"random\"",
            "name = \"b\"\nbuiltin = \"alphabeta\"\nsweep = [{ depth = 2 }, { depth = 4, c4_centre = 0 }]",
        );
        let c = Config::parse(&list, Path::new("t.toml")).unwrap();
        assert!(matches!(&c.bots[1].sweep, Some(Sweep::List(l)) if l.len() == 2));
    }

    #[test]
    fn an_sprt_table_takes_fishtest_defaults() {
        let text = MINIMAL.replace(
            "[game]",
            "format = \"sprt\"\n[sprt]\nmax_pairs = 100\n[game]",
        );
        let c = Config::parse(&text, Path::new("t.toml")).unwrap();
        assert_eq!(c.format, Format::Sprt);
        let s = c.sprt.unwrap();
        assert_eq!((s.elo0, s.elo1, s.alpha, s.beta), (0.0, 5.0, 0.05, 0.05));
        assert_eq!((s.model.as_str(), s.max_pairs), ("normalized", 100));
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
