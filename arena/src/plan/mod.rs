//! The validated tournament plan (stage two of the config): everything the runner needs, checked once.

use std::path::{Path, PathBuf};

use std::collections::BTreeMap;

use games::{Game, GameKind, GameSpec, GameVisitor};

use crate::config::time_control::TimeControl;
use crate::config::{
    BotConfig, Config, Format, OpeningOrder, ProtocolKind, SandboxKind, SprtConfig, Sweep,
    TimeControlConfig,
};
pub mod adjudication;
pub mod formats;
pub use crate::sandbox::launch::Launch;
use crate::sandbox::launch::{absolute, resolve_args, resolve_command};
pub use crate::sandbox::limits;
pub mod openings;
pub mod schedule;

use crate::stats::sprt::{Sprt, SprtModel};
use limits::Limits;

/// A tournament ready to run. Built by [`Plan::new`]; passed explicitly, never global.
#[derive(Clone, Debug)]
pub struct Plan {
    /// Tournament name; the results folder is `results/<name>/`.
    pub name: String,
    /// The config file it came from.
    pub config_path: PathBuf,
    /// The game and variant.
    pub spec: GameSpec,
    /// The file of a module game (`[game] module`), to keep a copy of in the results folder; `None`
    /// for a built-in game.
    pub module: Option<PathBuf>,
    /// The referee program of a referee game (`[game] referee`, `docs/referees.md`), to keep in the
    /// results folder; `None` otherwise.
    pub referee: Option<crate::referee_programs::Referee>,
    pub format: Format,
    /// Games per pair of bots, even, ≥ 2 (an SPRT match: twice its `max_pairs`; a round-robin: times its
    /// `cycles`; a Swiss: per pairing; a knockout: 2, its matches' length is in [`Plan::knockout`]).
    pub games_per_pair: u32,
    /// Random opening plies shared by both games of a game pair, played after the book line.
    pub opening_plies: u32,
    /// The openings of the book (its lines, or its SGF games with their setup dots), each checked legal
    /// and not ending the game; empty without `[openings]`.
    pub openings: Vec<crate::plan::openings::Opening>,
    /// The order in which game pairs take [`Plan::openings`].
    pub opening_order: OpeningOrder,
    /// The stop rule of a `format = "sprt"` match; `None` for the other formats.
    pub sprt: Option<SprtPlan>,
    /// The config's `[shards] count`: the shards `--shard auto` splits into when the scheduler does not
    /// say; `None` without a `[shards]` table.
    pub shard_count: Option<u32>,
    /// The bot rated 0 Elo in the report, one of [`Plan::bots`]; `None`: the mean rating is 0.
    pub anchor: Option<String>,
    pub seed: u64,
    /// Games played at once, ≥ 1.
    pub concurrency: usize,
    /// Adjudication limit, plies.
    pub max_plies: Option<u32>,
    /// How the two games of a game pair share out the first move (`noswap`, `reverse`).
    pub sides: PairSides,
    /// `[adjudication]`: games ended by the bots' own scores.
    pub adjudication: adjudication::Adjudication,
    /// The config's `pgnout`, resolved against the config file's folder: the PGN file each game is
    /// appended to as it ends ([`crate::run::RunOptions::pgnout`] overrides it).
    pub pgnout: Option<PathBuf>,
    /// The config's `affinity`: the CPUs the game slots share out ([`crate::sandbox::affinity`]);
    /// [`crate::run::RunOptions::affinity`] overrides it. `None`: off.
    pub affinity: Option<crate::config::affinity::Cpus>,
    /// The config's `sgfout`, resolved against the config file's folder: the SGF file each Dots game is
    /// appended to as it ends, one game tree per game ([`crate::run::RunOptions::sgfout`] overrides it).
    /// Only for Dots boards SGF can write ([`crate::formats::sgf::writable`]).
    pub sgfout: Option<PathBuf>,
    /// Whether the waiting bot's processes are stopped while its opponent thinks (CodeCup's rule).
    pub suspend_idle: bool,
    /// Whether the config sets a `processes` limit itself (a default one that the machine cannot enforce
    /// is only noted; a configured one must be enforced or the run is refused).
    pub processes_configured: bool,
    /// At least two, unique names.
    pub bots: Vec<BotPlan>,
    /// `format = "swiss"`: its rounds (1 ≤ rounds ≤ a round-robin's); 0 for the other formats.
    pub swiss_rounds: u32,
    /// `format = "knockout"`: the bracket's rules; `None` for the other formats.
    pub knockout: Option<KnockoutPlan>,
    /// The ranking's tie-breaks after points; empty: the standings' default (wins, capture difference).
    pub tiebreaks: Vec<crate::config::Tiebreak>,
}

/// Who moves first in each game of a game pair (cutechess's `-noswap` and `-reverse`): by default the
/// pair's opener first, then the other bot.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PairSides {
    /// Both games with the same first player (the sides are not swapped).
    pub noswap: bool,
    /// The other bot opens the pair.
    pub reverse: bool,
}

impl PairSides {
    /// The (first, second) players of the pair's two games, `opener` being the bot the format gives
    /// the first move of the pair's first game.
    pub fn games(self, opener: usize, other: usize) -> [(usize, usize); 2] {
        let (x, y) = if self.reverse {
            (other, opener)
        } else {
            (opener, other)
        };
        if self.noswap {
            [(x, y), (x, y)]
        } else {
            [(x, y), (y, x)]
        }
    }

    /// `swapped` (the default), `noswap`, `reverse` or `noswap reverse`: the fingerprint's words.
    pub fn words(self) -> &'static str {
        match (self.noswap, self.reverse) {
            (false, false) => "swapped",
            (true, false) => "noswap",
            (false, true) => "reverse",
            (true, true) => "noswap reverse",
        }
    }
}

/// The rules of a knockout bracket (`[knockout]`).
#[derive(Clone, Debug, PartialEq)]
pub struct KnockoutPlan {
    /// Game pairs of each match, ≥ 1.
    pub pairs: u32,
    /// Extra game pairs at most, one at a time, while a match is tied; then the higher seed advances.
    pub extra_pairs: u32,
    /// Bot indices into [`Plan::bots`] by seed, best first (seed 1 first).
    pub seeding: Vec<usize>,
    /// Where the seeding came from, for people: `config order` or `ratings of <folder>`.
    pub seeded_by: String,
    /// `[knockout] seeds_from`: the results folder whose ratings seed the bracket (resolved against the
    /// config's folder) and the folder as written; read by [`crate::tournament::pairing::seed`], not here.
    pub seeds_from: Option<(std::path::PathBuf, String)>,
}

/// Why an SPRT match refuses `--shard` (and `[shards]`).
pub const SPRT_ON_ONE_MACHINE: &str = concat!(
    "an SPRT match stays on one machine: its stop rule reads every game pair as it finishes, ",
    "so it cannot be split into shards"
);

/// The most games one pair of bots may play (`games_per_pair`, or twice `[sprt] max_pairs`).
pub const MAX_GAMES_PER_PAIR: u32 = 1_000_000;

/// The most games one tournament may schedule: the schedule is built in memory.
pub const MAX_GAMES: u64 = 10_000_000;

/// The SPRT of a `format = "sprt"` match: the test, and the most game pairs to play before stopping as
/// inconclusive.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtPlan {
    pub test: Sprt,
    pub max_pairs: u32,
}

/// One player of the plan.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotPlan {
    pub name: String,
    /// The command as the config gives it, for people and the run's fingerprint: `builtin random`, or the
    /// `command` as written followed by its `args` (paths unresolved, so a moved folder still resumes).
    pub command: String,
    pub launch: Launch,
    pub protocol: ProtocolKind,
    /// `setoption` pairs in config order (name, value as text).
    pub options: Vec<(String, String)>,
    pub time_control: TimeControl,
    /// Resource limits of its processes, per game.
    pub limits: Limits,
    /// The sandbox its processes run in: the config's `sandbox` (the bot's, else the tournament's), else
    /// `bubblewrap` for a bot given as a `command` and `none` for a `builtin` (the arena's own code).
    pub sandbox: SandboxKind,
    /// Whether it is a built-in bot (`builtin = "…"`), which the arena trusts to run unsandboxed.
    pub builtin: bool,
}

/// A config that is well-formed TOML but cannot be played.
#[derive(Debug, thiserror::Error)]
#[error("{}{}: {message}", .path.display(), place(.position))]
pub struct PlanError {
    pub path: PathBuf,
    /// The 1-based line and column in the config file of the value at fault (an unknown game or
    /// builtin, a missing executable, …; [`crate::config::span`]), when the error has one and the file
    /// holds it.
    pub position: Option<(usize, usize)>,
    pub message: String,
}

/// `:line:column` of a [`PlanError`], empty without a position.
fn place(position: &Option<(usize, usize)>) -> String {
    position.map_or(String::new(), |(line, column)| format!(":{line}:{column}"))
}

/// An error of one `[[bots]]` entry and the key of that entry whose value is at fault (`name` when no
/// other is), for the error's place in the file.
struct BotError {
    key: &'static str,
    message: String,
}

impl BotError {
    fn at(key: &'static str, message: String) -> BotError {
        BotError { key, message }
    }
}

impl From<String> for BotError {
    fn from(message: String) -> BotError {
        BotError::at("name", message)
    }
}

impl From<&str> for BotError {
    fn from(message: &str) -> BotError {
        BotError::from(message.to_string())
    }
}

impl Plan {
    /// Validates `config` (read from `config_path`). `self_exe` is the `arena` binary, which serves the
    /// `builtin` bots as `arena bot <name>`.
    ///
    /// # Errors
    /// A [`PlanError`] naming the problem: a bad name, an odd `games_per_pair`, fewer than two bots, a
    /// duplicate bot name, a bot with neither or both of `command` and `builtin`, an unknown builtin, an
    /// executable that does not exist, a time control without time, a game variant out of range,
    /// options or openings given to a CodeCup bot, an empty or bad sweep, an opening file that cannot be
    /// read or holds an illegal line (with its line number), an `sprt` format without exactly two bots
    /// or with bad `[sprt]` values, an `anchor` that names no bot, more than [`MAX_GAMES_PER_PAIR`] games
    /// a pair or [`MAX_GAMES`] in all, a `max_plies` within the opening, a game over at its start, an
    /// option name or value that could break the protocol line, a `[shards] count` of 0 or with `format =
    /// "sprt"`, a `format = "tune"` config (played by `arena tune`, [`crate::tune`]) or a `[tune]` table in
    /// another format.
    pub fn new(config: &Config, config_path: &Path, self_exe: &Path) -> Result<Plan, PlanError> {
        let err = |message: String| PlanError {
            path: config_path.to_owned(),
            position: None,
            message,
        };
        // The error at the string value `expected` at `keys` in the config file (read again: errors are
        // rare, and a config built as a value has no file, or one without that value).
        let err_at = |keys: &[&str], expected: &str, message: String| PlanError {
            position: std::fs::read_to_string(config_path)
                .ok()
                .and_then(|text| crate::config::span::position(&text, keys, expected)),
            ..err(message)
        };
        if config.name.is_empty()
            || !config
                .name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "._-".contains(c))
            || config.name.starts_with('.')
        {
            return Err(err(format!(
                "name {:?} must be letters, digits, '.', '_' or '-' (it names the results folder)",
                config.name
            )));
        }
        match (config.format, &config.tune) {
            (Format::Tune, _) => {
                return Err(err(
                    "format = \"tune\" is played by `arena tune`, not as a tournament".into(),
                ))
            }
            (_, Some(_)) => {
                return Err(err(
                    "a [tune] table needs format = \"tune\" (it would be ignored)".into(),
                ))
            }
            _ => {}
        }
        let games_per_pair = config.games_per_pair.unwrap_or(2);
        if games_per_pair == 0 || !games_per_pair.is_multiple_of(2) {
            return Err(err(format!(
                "games_per_pair = {games_per_pair} must be even and at least 2 (games come in pairs)"
            )));
        }
        if config.concurrency == Some(0) {
            return Err(err("concurrency must be at least 1".into()));
        }
        if config.max_plies == Some(0) {
            return Err(err(
                "max_plies must be at least 1 (leave it out for no adjudication)".into(),
            ));
        }
        // Paths in a config (`command`, `dir`, `[openings] file`, `[game] module`) are relative to the
        // config file's folder.
        let base = config_path
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default();
        let base = if base.as_os_str().is_empty() {
            PathBuf::from(".")
        } else {
            base
        };
        let module = game_module(config, &base);
        let referee = crate::referee_programs::of_config(config, &base).map_err(|m| PlanError {
            position: std::fs::read_to_string(config_path)
                .ok()
                .and_then(|text| crate::config::span::value_position(&text, &["game", "referee"])),
            ..err(format!("[game] referee: {m}"))
        })?;
        let spec = game_spec(config, module.as_deref(), referee.as_ref()).map_err(|(key, m)| {
            PlanError {
                position: std::fs::read_to_string(config_path)
                    .ok()
                    .and_then(|text| crate::config::span::value_position(&text, &["game", &key])),
                ..err(format!("[game]: {m}"))
            }
        })?;
        if let Some(path) = &config.sgfout {
            crate::formats::sgf::writable(&spec).map_err(|reason| {
                let value = path.to_string_lossy();
                err_at(
                    &["sgfout"],
                    &value,
                    format!("sgfout {reason}; use pgnout for these games"),
                )
            })?;
        }
        // A module or referee game: the built-in engines play it through the same rules.
        let rules_args = match (&module, &referee) {
            (Some(m), _) => {
                let m = std::path::absolute(m).unwrap_or_else(|_| m.clone());
                vec!["--module".to_string(), m.display().to_string()]
            }
            (None, Some(r)) => vec![
                "--referee".to_string(),
                serde_json::to_string(r).expect("a referee serializes"),
            ],
            (None, None) => Vec::new(),
        };
        let mut bots: Vec<BotPlan> = Vec::new();
        for (i, bot) in config.bots.iter().enumerate() {
            let variants = bot_plan(bot, config, &base, self_exe, &rules_args).map_err(|e| {
                let dir = bot.dir.as_ref().map(|d| d.display().to_string());
                let value = match e.key {
                    "builtin" => bot.builtin.as_deref(),
                    "command" => bot.command.as_deref(),
                    "dir" => dir.as_deref(),
                    _ => Some(bot.name.as_str()),
                };
                err_at(
                    &["bots", &i.to_string(), e.key],
                    value.unwrap_or_default(),
                    format!("bot {:?}: {}", bot.name, e.message),
                )
            })?;
            for plan in variants {
                if bots.iter().any(|b| b.name == plan.name) {
                    return Err(err_at(
                        &["bots", &i.to_string(), "name"],
                        &bot.name,
                        format!("two bots are named {:?}", plan.name),
                    ));
                }
                bots.push(plan);
            }
        }
        if bots.len() < 2 {
            return Err(err(format!(
                "a tournament needs at least two bots, found {}",
                bots.len()
            )));
        }
        let (sprt, games_per_pair) = match (config.format, &config.sprt) {
            (Format::Sprt, Some(s)) => {
                if config.games_per_pair.is_some() {
                    return Err(err(
                        "an sprt match has no games_per_pair: [sprt] max_pairs bounds it".into(),
                    ));
                }
                if bots.len() != 2 {
                    return Err(err(format!(
                        "an sprt match is between exactly two bots, found {}",
                        bots.len()
                    )));
                }
                let plan = sprt_plan(s).map_err(|m| err(format!("[sprt]: {m}")))?;
                if s.max_pairs > MAX_GAMES_PER_PAIR / 2 {
                    return Err(err(format!(
                        "[sprt]: max_pairs = {} is more than {} pairs",
                        s.max_pairs,
                        MAX_GAMES_PER_PAIR / 2
                    )));
                }
                (Some(plan), 2 * s.max_pairs)
            }
            (Format::Sprt, None) => {
                return Err(err("format = \"sprt\" needs an [sprt] table".into()))
            }
            (_, Some(_)) => {
                return Err(err(
                    "an [sprt] table needs format = \"sprt\" (it would be ignored)".into(),
                ))
            }
            (_, None) => (None, games_per_pair),
        };
        let shard_count = config.shards.as_ref().map(|s| s.count);
        if shard_count == Some(0) {
            return Err(err(
                "[shards] count = 0: a tournament is split into at least 1 shard".into(),
            ));
        }
        if sprt.is_some() && shard_count.is_some() {
            return Err(err(format!(
                "[shards] with format = \"sprt\": {}; remove [shards]",
                SPRT_ON_ONE_MACHINE
            )));
        }
        if games_per_pair > MAX_GAMES_PER_PAIR {
            return Err(err(format!(
                "games_per_pair = {games_per_pair} is more than {MAX_GAMES_PER_PAIR}"
            )));
        }
        let formats = formats::plan_formats(config, &spec, &bots, &base).map_err(err)?;
        let games_per_pair = games_per_pair
            .checked_mul(formats.cycles)
            .filter(|&g| g <= MAX_GAMES_PER_PAIR)
            .ok_or_else(|| {
                err(format!(
                    "cycles = {} × games_per_pair = {games_per_pair} is more than {MAX_GAMES_PER_PAIR} games a pair",
                    formats.cycles
                ))
            })?;
        let n = bots.len() as u64;
        let pairs = match config.format {
            Format::Gauntlet => n - 1,
            // A Swiss plays `rounds` rounds of n/2 pairings; a bracket at most n − 1 matches of up to
            // pairs + extra_pairs game pairs (and its `games_per_pair` is 2).
            Format::Swiss => u64::from(formats.swiss_rounds) * (n / 2),
            Format::Knockout => {
                (n - 1)
                    * formats
                        .knockout
                        .as_ref()
                        .map_or(1, |k| u64::from(k.pairs) + u64::from(k.extra_pairs))
            }
            _ => n * (n - 1) / 2,
        };
        let total = pairs * u64::from(games_per_pair);
        if total > MAX_GAMES {
            return Err(err(format!(
                "{total} games ({pairs} pairs of bots × {games_per_pair}) is more than {MAX_GAMES}: \
                 split the tournament"
            )));
        }
        let openings = match &config.openings {
            Some(o) => {
                let file = base.join(&o.file);
                crate::plan::openings::read(spec, &file, o.plies)
                    .map_err(|m| err(format!("[openings]: {m}")))?
            }
            None => Vec::new(),
        };
        if (config.opening_plies > 0 || !openings.is_empty())
            && bots.iter().any(|b| b.protocol == ProtocolKind::Codecup)
        {
            return Err(err(
                "the codecup protocol cannot be given an opening (opening_plies or [openings])"
                    .into(),
            ));
        }
        let longest_opening = openings.iter().map(|o| o.moves.len()).max().unwrap_or(0)
            + config.opening_plies as usize;
        if let Some(m) = config.max_plies {
            if m as usize <= longest_opening {
                return Err(err(format!(
                    "max_plies = {m} would end games inside their opening (up to {longest_opening} \
                     plies) before any bot moves"
                )));
            }
        }
        if let Some(anchor) = &config.anchor {
            if !bots.iter().any(|b| &b.name == anchor) {
                let names: Vec<&str> = bots.iter().map(|b| b.name.as_str()).collect();
                return Err(err(format!(
                    "anchor = {anchor:?} names no bot; the bots are {}",
                    names.join(", ")
                )));
            }
        }
        let adjudication = config
            .adjudication
            .as_ref()
            .map(|a| adjudication::Adjudication::new(a, &spec))
            .transpose()
            .map_err(|m| err(format!("[adjudication]: {m}")))?
            .unwrap_or_default();
        let affinity = match &config.affinity {
            None | Some(crate::config::AffinityConfig::On(false)) => None,
            Some(crate::config::AffinityConfig::On(true)) => {
                Some(crate::config::affinity::Cpus::All)
            }
            Some(crate::config::AffinityConfig::Cpus(s)) => {
                Some(s.parse().map_err(|m| err(format!("affinity: {m}")))?)
            }
        };
        let concurrency = config
            .concurrency
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
        Ok(Plan {
            name: config.name.clone(),
            config_path: config_path.to_owned(),
            spec,
            module,
            referee,
            format: config.format,
            games_per_pair,
            opening_plies: config.opening_plies,
            openings,
            opening_order: config
                .openings
                .as_ref()
                .map(|o| o.order)
                .unwrap_or_default(),
            sprt,
            shard_count,
            anchor: config.anchor.clone(),
            seed: config.seed,
            concurrency,
            max_plies: config.max_plies,
            sides: PairSides {
                noswap: config.noswap.unwrap_or(false),
                reverse: config.reverse.unwrap_or(false),
            },
            pgnout: config.pgnout.as_ref().map(|p| base.join(p)),
            affinity,
            sgfout: config.sgfout.as_ref().map(|p| base.join(p)),
            adjudication,
            suspend_idle: config.suspend_idle.unwrap_or(true),
            processes_configured: config.limits.processes.is_some_and(|p| p > 0)
                || config.bots.iter().any(|b| {
                    b.limits
                        .as_ref()
                        .is_some_and(|l| l.processes.is_some_and(|p| p > 0))
                }),
            bots,
            swiss_rounds: formats.swiss_rounds,
            knockout: formats.knockout,
            tiebreaks: formats.tiebreaks,
        })
    }
}

impl Plan {
    /// What the containment must know of each bot ([`crate::sandbox::Containment::check`]).
    pub fn confined(&self) -> Vec<crate::sandbox::Confined<'_>> {
        self.bots
            .iter()
            .map(|b| crate::sandbox::Confined {
                name: &b.name,
                sandbox: b.sandbox,
                dir: b.launch.dir.as_deref(),
                processes: b.limits.processes.is_some(),
                builtin: b.builtin,
            })
            .collect()
    }
}

/// The game of `[game]`, or the key whose value is at fault (`name` when no other is) and why: an
/// unknown game, a key the game does not have (another game's key), a value of the wrong type or out
/// of range.
fn game_spec(
    config: &Config,
    module: Option<&Path>,
    referee: Option<&crate::referee_programs::Referee>,
) -> Result<GameSpec, (String, String)> {
    let g = &config.game;
    if let Some(path) = module {
        if g.keys.contains_key("referee") {
            return Err((
                "referee".into(),
                "give either module or referee, not both".into(),
            ));
        }
        return module_spec(g, "module", &path.display().to_string(), || {
            crate::modules::load_file(path)
        });
    }
    if let Some(r) = referee {
        return module_spec(g, "referee", &r.label, || {
            crate::referee_programs::register(r.clone())
        });
    }
    let kind: GameKind = g
        .name
        .parse()
        .map_err(|e| ("name".into(), format!("{e}")))?;
    let params = kind.params();
    let mut texts: Vec<Option<String>> = vec![None; params.len()];
    for (key, value) in &g.keys {
        let Some(i) = params.iter().position(|p| p.key == key) else {
            return Err((
                key.clone(),
                format!(
                    "{kind} has no key {key} (its keys: {})",
                    params.iter().map(|p| p.key).collect::<Vec<_>>().join(", ")
                ),
            ));
        };
        texts[i] = Some(match value {
            toml::Value::Integer(n) => n.to_string(),
            toml::Value::String(s) => s.clone(),
            other => {
                return Err((
                    key.clone(),
                    format!("{key} = {other}: expected a number or a string"),
                ))
            }
        });
    }
    let words: Vec<Option<&str>> = texts.iter().map(Option::as_deref).collect();
    let spec = kind.spec(&words).map_err(|e| {
        let key = e
            .key()
            .filter(|k| g.keys.contains_key(*k))
            .unwrap_or("name");
        (key.to_string(), e.to_string())
    })?;
    struct Over;
    impl GameVisitor for Over {
        type Output = bool;
        fn visit<G: Game>(self, pos: G) -> bool {
            pos.outcome().is_some()
        }
    }
    if spec.visit(Over) {
        return Err((
            "name".into(),
            format!("{spec}: the game is over in its start position (no bot would move)"),
        ));
    }
    Ok(spec)
}

/// The module file of `[game] module`, relative to the config's folder `base`; `None` for a built-in
/// game.
fn game_module(config: &Config, base: &Path) -> Option<PathBuf> {
    match config.game.keys.get("module") {
        Some(toml::Value::String(file)) => Some(base.join(file)),
        _ => None,
    }
}

/// The game of a `[game]` table with `module` or `referee` (`kind`, `what` in messages, its rules
/// from `load`): its keys are `kind`, `variant` and optionally `name`, which must be the rules' own.
fn module_spec(
    g: &crate::config::GameConfig,
    kind: &str,
    what: &str,
    load: impl FnOnce() -> Result<&'static games::module::Loaded, String>,
) -> Result<GameSpec, (String, String)> {
    let mut words = String::new();
    for (key, value) in &g.keys {
        match (key.as_str(), value) {
            (k, _) if k == kind => {}
            ("variant", toml::Value::String(s)) => words = s.clone(),
            ("variant", toml::Value::Integer(n)) => words = n.to_string(),
            ("variant", other) => {
                return Err((
                    key.clone(),
                    format!("variant = {other}: expected the variant's words as a string"),
                ))
            }
            _ => {
                return Err((
                    key.clone(),
                    format!("a {kind} game has no key {key} (its keys: {kind}, variant, name)"),
                ))
            }
        }
    }
    let loaded = load().map_err(|m| (kind.to_string(), m))?;
    let v = games::module::ModuleVariant::new(loaded, &words)
        .map_err(|e| (e.key().unwrap_or(kind).to_string(), e.to_string()))?;
    if !g.name.is_empty() && g.name != loaded.name {
        return Err((
            "name".into(),
            format!(
                "name = {:?}, but the {kind} {what} is the game {:?}",
                g.name, loaded.name
            ),
        ));
    }
    Ok(GameSpec::Module(v))
}

fn time_control(tc: &TimeControlConfig) -> Result<TimeControl, String> {
    if tc.time_ms.is_none() && tc.max_move_ms.is_none() {
        return Err("a time control needs time_ms (per game) or max_move_ms (per move)".into());
    }
    if tc.time_ms == Some(0) || tc.max_move_ms == Some(0) {
        return Err("time_ms and max_move_ms must be positive".into());
    }
    if tc.startup_ms == 0 {
        return Err("startup_ms must be positive".into());
    }
    Ok(TimeControl {
        time_ms: tc.time_ms,
        inc_ms: tc.inc_ms,
        max_move_ms: tc.max_move_ms,
        startup_ms: tc.startup_ms,
        margin_ms: tc.margin_ms,
    })
}

fn sprt_plan(s: &SprtConfig) -> Result<SprtPlan, String> {
    let model: SprtModel = s.model.parse()?;
    let test = Sprt::new(s.elo0, s.elo1, s.alpha, s.beta, model)?;
    if s.max_pairs == 0 {
        return Err("max_pairs must be at least 1".into());
    }
    Ok(SprtPlan {
        test,
        max_pairs: s.max_pairs,
    })
}

/// The text of an option value as `setoption` sends it. A name must be one word and neither may hold a
/// control character: a line break would end the `setoption` line and send the rest as a command.
///
/// # Errors
/// A name that is empty or not one word, a control character, a value that is no string, integer,
/// float or boolean: the reason, naming the option.
pub fn option_text(name: &str, value: &toml::Value) -> Result<String, String> {
    if name.is_empty() || name.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(format!(
            "option name {name:?}: one word without spaces or control characters"
        ));
    }
    match value {
        toml::Value::String(s) if s.chars().any(char::is_control) => Err(format!(
            "option {name}: the value {s:?} holds a control character (a line break would end the \
             setoption line)"
        )),
        toml::Value::String(s) => Ok(s.clone()),
        toml::Value::Integer(i) => Ok(i.to_string()),
        toml::Value::Float(f) => Ok(f.to_string()),
        toml::Value::Boolean(b) => Ok(b.to_string()),
        other => Err(format!(
            "option {name}: a {} is not an option value",
            other.type_str()
        )),
    }
}

/// The variants of a sweep: each a list of (option, value) settings, in grid or list order.
fn sweep_settings(sweep: &Sweep) -> Result<Vec<Vec<(String, String)>>, String> {
    let table = |t: &BTreeMap<String, toml::Value>| -> Result<Vec<(String, String)>, String> {
        t.iter()
            .map(|(k, v)| Ok((k.clone(), option_text(k, v)?)))
            .collect()
    };
    let variants = match sweep {
        Sweep::List(list) => list.iter().map(table).collect::<Result<Vec<_>, _>>()?,
        Sweep::Grid(grid) => {
            let mut variants = vec![Vec::new()];
            for (name, values) in grid {
                if values.is_empty() {
                    return Err(format!("sweep {name}: no values"));
                }
                let texts = values
                    .iter()
                    .map(|v| option_text(name, v))
                    .collect::<Result<Vec<_>, _>>()?;
                variants = variants
                    .into_iter()
                    .flat_map(|v: Vec<(String, String)>| {
                        texts.iter().map(move |t| {
                            let mut v = v.clone();
                            v.push((name.clone(), t.clone()));
                            v
                        })
                    })
                    .collect();
            }
            variants
        }
    };
    if variants.is_empty() || variants.iter().any(Vec::is_empty) {
        return Err("a sweep needs at least one variant, each setting at least one option".into());
    }
    Ok(variants)
}

/// The plans of one `[[bots]]` entry: one bot, or one per variant of its sweep. `base` is the config
/// file's folder, which relative paths start from.
fn bot_plan(
    bot: &BotConfig,
    config: &Config,
    base: &Path,
    self_exe: &Path,
    rules_args: &[String],
) -> Result<Vec<BotPlan>, BotError> {
    if bot.name.is_empty()
        || bot
            .name
            .chars()
            .any(|c| c.is_whitespace() || c == ',' || c == '/')
    {
        return Err("a bot name must be non-empty, without spaces, commas or '/'".into());
    }
    let dir = match &bot.dir {
        Some(d) => {
            let dir = base.join(d);
            if !dir.is_dir() {
                return Err(BotError::at(
                    "dir",
                    format!("dir {} is not a directory", dir.display()),
                ));
            }
            Some(absolute(&dir)?)
        }
        None => None,
    };
    // Isolation is the default for executables (contest-safe without asking); built-in bots are the
    // arena's own code.
    let sandbox = bot.sandbox.or(config.sandbox).unwrap_or(match bot.builtin {
        Some(_) => SandboxKind::None,
        None => SandboxKind::Bubblewrap,
    });
    let launch = match (&bot.command, &bot.builtin) {
        (Some(_), Some(_)) => return Err("give either command or builtin, not both".into()),
        (None, None) => {
            return Err("give command (an executable) or builtin (a reference bot)".into())
        }
        (None, Some(name)) => {
            if !bots::cli::BOT_NAMES.contains(&name.as_str()) {
                return Err(BotError::at(
                    "builtin",
                    format!(
                        "unknown builtin {name:?}; known: {}",
                        bots::cli::BOT_NAMES.join(", ")
                    ),
                ));
            }
            let args = ["bot".to_string(), name.clone()]
                .into_iter()
                .chain(rules_args.iter().cloned())
                .chain(resolve_args(&bot.args, base, dir.is_some())?)
                .collect();
            Launch {
                program: self_exe.to_owned(),
                args,
                dir: dir.clone(),
            }
        }
        (Some(command), None) => Launch {
            program: resolve_command(command, base, sandbox == SandboxKind::Bubblewrap)
                .map_err(|m| BotError::at("command", m))?,
            args: resolve_args(&bot.args, base, dir.is_some())?,
            dir: dir.clone(),
        },
    };
    let command = match (&bot.command, &bot.builtin) {
        (Some(c), _) => std::iter::once(c.as_str())
            .chain(bot.args.iter().map(String::as_str))
            .collect::<Vec<_>>()
            .join(" "),
        (None, Some(b)) => std::iter::once(format!("builtin {b}"))
            .chain(bot.args.iter().cloned())
            .collect::<Vec<_>>()
            .join(" "),
        (None, None) => unreachable!("refused above"),
    };
    let options = bot
        .options
        .iter()
        .map(|(name, value)| Ok((name.clone(), option_text(name, value)?)))
        .collect::<Result<Vec<_>, String>>()?;
    if bot.protocol == ProtocolKind::Codecup && (!options.is_empty() || bot.sweep.is_some()) {
        return Err(
            "the codecup protocol has no options (nor sweeps); pass settings as args".into(),
        );
    }
    let time_control = time_control(bot.time_control.as_ref().unwrap_or(&config.time_control))
        .map_err(|m| format!("time control: {m}"))?;
    let limits = Limits::resolve(&config.limits, bot.limits.as_ref())?;
    let plan = BotPlan {
        name: bot.name.clone(),
        command,
        launch,
        protocol: bot.protocol,
        options,
        time_control,
        limits,
        sandbox,
        builtin: bot.builtin.is_some(),
    };
    let Some(sweep) = &bot.sweep else {
        return Ok(vec![plan]);
    };
    let variants = sweep_settings(sweep)?;
    if let Some((k, v)) = variants
        .iter()
        .flatten()
        .find(|(_, v)| v.chars().any(|c| c.is_whitespace() || c == '/'))
    {
        return Err(format!(
            "sweep {k} = {v:?}: a value in a variant's name cannot hold spaces or '/'"
        )
        .into());
    }
    Ok(variants
        .into_iter()
        .map(|settings| {
            let name = variant_name(&plan.name, &settings);
            let mut options = plan.options.clone();
            for (k, v) in settings {
                match options.iter_mut().find(|(name, _)| *name == k) {
                    Some(slot) => slot.1 = v,
                    None => options.push((k, v)),
                }
            }
            BotPlan {
                name,
                options,
                ..plan.clone()
            }
        })
        .collect())
}

/// The name of the variant of bot `name` with option `settings`: `name[k=v,…]`.
fn variant_name(name: &str, settings: &[(String, String)]) -> String {
    let label: Vec<String> = settings.iter().map(|(k, v)| format!("{k}={v}")).collect();
    format!("{name}[{}]", label.join(","))
}

/// The names of `config`'s players in plan order, as [`Plan::new`] names them (a sweep's variants
/// `name[k=v,…]`), without resolving commands or checking options: what the config copy in a results
/// folder says its bots were. A sweep that does not expand gives no names.
pub fn bot_names(config: &Config) -> Vec<String> {
    config
        .bots
        .iter()
        .flat_map(|b| match &b.sweep {
            None => vec![b.name.clone()],
            Some(sweep) => sweep_settings(sweep)
                .map(|variants| {
                    variants
                        .iter()
                        .map(|settings| variant_name(&b.name, settings))
                        .collect()
                })
                .unwrap_or_default(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(extra: &str, bots: &str) -> Config {
        let text = format!(
            "name = \"t\"\n{extra}\n[game]\nname = \"connect4\"\n[time_control]\ntime_ms = 1000\n{bots}"
        );
        Config::parse(&text, Path::new("t.toml")).unwrap()
    }

    const TWO: &str = "[[bots]]\nname = \"a\"\nbuiltin = \"random\"\n[[bots]]\nname = \"b\"\nbuiltin = \"random\"\n";

    fn plan_err(extra: &str, bots: &str) -> String {
        Plan::new(
            &config(extra, bots),
            Path::new("t.toml"),
            Path::new("/bin/arena"),
        )
        .unwrap_err()
        .to_string()
    }

    #[test]
    fn builtins_start_the_arena_itself() {
        let plan = Plan::new(&config("", TWO), Path::new("t.toml"), Path::new("/x/arena")).unwrap();
        assert_eq!(plan.bots[0].launch.program, PathBuf::from("/x/arena"));
        assert_eq!(plan.bots[0].launch.args, vec!["bot", "random"]);
        assert_eq!(plan.spec, "connect4 7 6".parse().unwrap());
    }

    #[test]
    fn broken_plans_say_what_is_wrong() {
        assert!(plan_err("games_per_pair = 3", TWO).contains("must be even"));
        assert!(
            plan_err("", "[[bots]]\nname = \"a\"\nbuiltin = \"random\"\n")
                .contains("at least two bots")
        );
        assert!(plan_err("", &TWO.replace("\"b\"", "\"a\"")).contains("two bots are named \"a\""));
        assert!(plan_err(
            "",
            &TWO.replace(
                "builtin = \"random\"\n[[",
                "command = \"./no/such/bot\"\n[["
            )
        )
        .contains("does not exist"));
        assert!(plan_err(
            "",
            &TWO.replace(
                "builtin = \"random\"\n[[",
                "command = \"no-such-bot-anywhere\"\n[["
            )
        )
        .contains("not found on PATH"));
        assert!(
            plan_err("", &TWO.replace("\"random\"\n[[", "\"stockfish\"\n[["))
                .contains("unknown builtin")
        );
        let mut c = config("", TWO);
        c.name = "../x".into();
        let e = Plan::new(&c, Path::new("t.toml"), Path::new("/bin/arena"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("results folder"), "{e}");
        assert!(plan_err(
            "opening_plies = 2",
            &TWO.replace(
                "builtin = \"random\"\n[[",
                "builtin = \"random\"\nprotocol = \"codecup\"\n[["
            )
        )
        .contains("codecup"));
    }

    #[test]
    fn a_sweep_expands_into_named_variants_with_their_options() {
        let bots =
            "[[bots]]\nname = \"ab\"\nbuiltin = \"alphabeta\"\noptions = { depth = 3, seed = 1 }\n\
                    sweep = { depth = [1, 2], c4_centre = [0, 8] }\n\
                    [[bots]]\nname = \"r\"\nbuiltin = \"random\"\n";
        let plan = Plan::new(
            &config("", bots),
            Path::new("t.toml"),
            Path::new("/bin/arena"),
        )
        .unwrap();
        let names: Vec<&str> = plan.bots.iter().map(|b| b.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "ab[c4_centre=0,depth=1]",
                "ab[c4_centre=0,depth=2]",
                "ab[c4_centre=8,depth=1]",
                "ab[c4_centre=8,depth=2]",
                "r"
            ]
        );
        // The sweep's value replaces the bot's own; other options stay.
        let opts = &plan.bots[3].options;
        assert!(opts.contains(&("depth".into(), "2".into())), "{opts:?}");
        assert!(opts.contains(&("seed".into(), "1".into())), "{opts:?}");
        assert!(opts.contains(&("c4_centre".into(), "8".into())), "{opts:?}");
        assert_eq!(opts.iter().filter(|(k, _)| k == "depth").count(), 1);

        let list = bots.replace(
            "sweep = { depth = [1, 2], c4_centre = [0, 8] }",
            "sweep = [{ depth = 5 }, { depth = 6, c4_line3 = 1 }]",
        );
        let plan = Plan::new(
            &config("", &list),
            Path::new("t.toml"),
            Path::new("/bin/arena"),
        )
        .unwrap();
        assert_eq!(plan.bots[1].name, "ab[c4_line3=1,depth=6]");
        assert_eq!(plan.bots.len(), 3);

        let empty = bots.replace("depth = [1, 2]", "depth = []");
        assert!(plan_err("", &empty).contains("sweep depth: no values"));
        let spaced = bots.replace("depth = [1, 2]", "depth = [\"1 2\"]");
        assert!(plan_err("", &spaced).contains("cannot hold spaces"));
        let clash = format!(
            "{}[[bots]]\nname = \"ab[depth=1]\"\nbuiltin = \"random\"\n",
            bots.replace(", c4_centre = [0, 8]", "")
        );
        assert!(plan_err("", &clash).contains("two bots are named"));
    }

    #[test]
    fn an_sprt_match_needs_its_table_and_two_bots() {
        let sprt = "format = \"sprt\"\n[sprt]\nmax_pairs = 10\nelo1 = 10";
        let plan = Plan::new(
            &config(sprt, TWO),
            Path::new("t.toml"),
            Path::new("/bin/arena"),
        )
        .unwrap();
        assert_eq!(plan.games_per_pair, 20);
        assert_eq!(plan.sprt.unwrap().test.elo1, 10.0);
        assert!(plan_err("format = \"sprt\"", TWO).contains("needs an [sprt] table"));
        assert!(plan_err("[sprt]\nmax_pairs = 10", TWO).contains("needs format = \"sprt\""));
        assert!(plan_err(&format!("games_per_pair = 4\n{sprt}"), TWO).contains("no games_per_pair"));
        let three = format!("{TWO}[[bots]]\nname = \"c\"\nbuiltin = \"random\"\n");
        assert!(plan_err(sprt, &three).contains("exactly two bots"));
        assert!(plan_err("format = \"sprt\"\n[sprt]\nmax_pairs = 0", TWO).contains("max_pairs"));
    }

    #[test]
    fn plans_that_could_not_play_as_meant_are_refused() {
        // A line break in an option would send the rest as a protocol command.
        let injected = TWO.replace(
            "builtin = \"random\"\n[[",
            "builtin = \"random\"\noptions = { seed = \"5\\nquit\" }\n[[",
        );
        assert!(plan_err("", &injected).contains("control character"));
        let spaced = TWO.replace(
            "builtin = \"random\"\n[[",
            "builtin = \"random\"\noptions = { \"my depth\" = 3 }\n[[",
        );
        assert!(plan_err("", &spaced).contains("one word"));
        // Sizes that overflow or exhaust memory.
        let sprt = "format = \"sprt\"\n[sprt]\nmax_pairs = 2147483648";
        assert!(plan_err(sprt, TWO).contains("max_pairs = 2147483648 is more than"));
        assert!(plan_err("games_per_pair = 2000000000", TWO).contains("is more than"));
        // Games decided before any bot moves.
        assert!(plan_err("opening_plies = 6\nmax_plies = 3", TWO).contains("inside their opening"));
        assert!(plan_err("opening_plies = 2\nmax_plies = 2", TWO).contains("inside their opening"));
        let four = config("", TWO);
        let mut dots = four.clone();
        dots.game = crate::config::GameConfig::from_words("dots 4 4 four-crosses").unwrap();
        let e = Plan::new(&dots, Path::new("t.toml"), Path::new("/bin/arena"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("over in its start position"), "{e}");
    }

    #[test]
    fn args_that_name_files_are_taken_from_the_config_folder() {
        let tmp = tempfile::tempdir().unwrap();
        let base = tmp.path().join("configs");
        std::fs::create_dir_all(&base).unwrap();
        std::fs::write(tmp.path().join("bot.py"), "").unwrap();
        let args: Vec<String> = ["../bot.py", "--depth", "3", "missing.py", ""]
            .map(String::from)
            .to_vec();
        let resolved = resolve_args(&args, &base, false).unwrap();
        // Without the `..`, which would not open inside the sandbox.
        assert_eq!(
            resolved[0],
            std::fs::canonicalize(tmp.path())
                .unwrap()
                .join("bot.py")
                .display()
                .to_string()
        );
        assert_eq!(resolved[1..], args[1..]);
        // With a `dir`, the bot starts there and gets its arguments as written.
        assert_eq!(resolve_args(&args, &base, true).unwrap(), args);
    }

    /// A command given through `..` (`../target/sparring/oppai-wrapper` from `configs/`) starts from
    /// its folder's real path: bubblewrap could not follow the `..` through folders it does not mount.
    #[test]
    fn a_command_through_dotdot_is_its_real_path() {
        use std::os::unix::fs::PermissionsExt;
        let tmp = tempfile::tempdir().unwrap();
        let base = tmp.path().join("configs");
        std::fs::create_dir_all(&base).unwrap();
        std::fs::create_dir_all(tmp.path().join("bin")).unwrap();
        let bot = tmp.path().join("bin/bot.sh");
        std::fs::write(&bot, "#!/bin/sh\n").unwrap();
        std::fs::set_permissions(&bot, std::fs::Permissions::from_mode(0o755)).unwrap();
        let real_tmp = std::fs::canonicalize(tmp.path()).unwrap();
        assert_eq!(
            resolve_command("../bin/bot.sh", &base, true).unwrap(),
            real_tmp.join("bin/bot.sh")
        );
        // A link keeps its name; only the folders above it are resolved.
        std::os::unix::fs::symlink(&bot, tmp.path().join("bin/link")).unwrap();
        assert_eq!(
            resolve_command("./../bin/link", &base, true).unwrap(),
            real_tmp.join("bin/link")
        );
    }

    #[test]
    fn the_anchor_must_name_a_bot_of_the_plan() {
        let plan = Plan::new(
            &config("anchor = \"b\"", TWO),
            Path::new("t.toml"),
            Path::new("/bin/arena"),
        )
        .unwrap();
        assert_eq!(plan.anchor.as_deref(), Some("b"));
        let e = plan_err("anchor = \"c\"", TWO);
        assert!(
            e.contains("anchor = \"c\" names no bot; the bots are a, b"),
            "{e}"
        );
    }
}
