//! A match between two bots given on the command line (`arena match`), as fastchess's `-engine cmd=A
//! -engine cmd=B -each tc=10+0.1 -rounds 50 -repeat`: the clock as cutechess and fastchess write it
//! (`10+0.1`, seconds; [`Clock`]), the two bots (`builtin:NAME` or an executable; [`BotSource`]) and the
//! [`Config`] the match amounts to ([`Match::config`]): the same value a config file gives, so a match
//! is validated, played, resumed and reported as `arena run` does, and can be written out as a config
//! file ([`Config::to_toml`]).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use super::{
    AdjudicationConfig, BotConfig, Config, Format, GameConfig, LimitsConfig, OpeningsConfig,
    ProtocolKind, SandboxKind, SprtConfig, TimeControlConfig,
};

/// The prefix that names a reference bot built into the arena: `builtin:alphabeta`.
pub const BUILTIN_PREFIX: &str = "builtin:";

/// A game clock as cutechess's and fastchess's `tc=` give it, in seconds: `10+0.1` (10 s for the game,
/// 0.1 s added after each move), `60` (no increment) or `1:30+1` (minutes and seconds). Held in ms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Time for the whole game, ms (at least 1).
    pub time_ms: u64,
    /// Added to the clock after each move, ms.
    pub inc_ms: u64,
}

impl FromStr for Clock {
    type Err = String;

    /// Parses `TIME[+INC]`, TIME in seconds or as `MIN:SEC`, INC in seconds, each to the millisecond.
    ///
    /// # Errors
    /// Moves per period (`40/60`: the arena's clocks are a budget for the whole game plus an
    /// increment), `inf`, a zero time, text in no such form, a value finer than a millisecond.
    fn from_str(text: &str) -> Result<Clock, String> {
        let s = text.trim();
        if s.contains('/') {
            return Err(
                "moves per period (cutechess's 40/60) are not supported: a clock here is a time for \
                 the whole game plus an increment per move, TIME+INC in seconds (e.g. 60+0.6)"
                    .into(),
            );
        }
        if s.eq_ignore_ascii_case("inf") {
            return Err(
                "no clock (inf) is not a time control here: give TIME+INC in seconds, or \
                 only a time per move"
                    .into(),
            );
        }
        let bad = |why: String| {
            format!(
                "{why}; expected TIME+INC in seconds as cutechess writes it: 10+0.1, 60, 1:30+1"
            )
        };
        let (time, inc) = s.split_once('+').unwrap_or((s, "0"));
        let time_ms = match time.split_once(':') {
            Some((minutes, seconds)) => {
                let minutes: u64 = minutes
                    .parse()
                    .map_err(|_| bad(format!("minutes {minutes:?}: not a whole number")))?;
                let seconds = seconds_ms(seconds).map_err(bad)?;
                minutes
                    .checked_mul(60_000)
                    .and_then(|m| m.checked_add(seconds))
                    .ok_or_else(|| bad("too long".into()))?
            }
            None => seconds_ms(time).map_err(bad)?,
        };
        if time_ms == 0 {
            return Err(bad("the time for the game must be positive".into()));
        }
        Ok(Clock {
            time_ms,
            inc_ms: seconds_ms(inc).map_err(bad)?,
        })
    }
}

/// Seconds written in decimal (`0.1`, `10`, `2.5`) as whole milliseconds, exactly (no floating point).
///
/// # Errors
/// Anything but digits with at most one `.`, a value finer than a millisecond (`0.0005`), more ms than
/// a `u64` holds.
pub fn seconds_ms(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let (whole, frac) = t.split_once('.').unwrap_or((t, ""));
    let digits = |s: &str| s.chars().all(|c| c.is_ascii_digit());
    if whole.len() + frac.len() == 0 || !digits(whole) || !digits(frac) {
        return Err(format!("{text:?} is not a number of seconds"));
    }
    if frac.len() > 3 && frac[3..].chars().any(|c| c != '0') {
        return Err(format!("{text:?} is finer than a millisecond"));
    }
    let whole: u64 = if whole.is_empty() {
        0
    } else {
        whole
            .parse()
            .map_err(|_| format!("{text:?} seconds is too long"))?
    };
    let ms: u64 = format!("{:0<3}", &frac[..frac.len().min(3)])
        .parse()
        .expect("three digits");
    whole
        .checked_mul(1000)
        .and_then(|w| w.checked_add(ms))
        .ok_or_else(|| format!("{text:?} seconds is too long"))
}

/// Where a bot of a match comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BotSource {
    /// A reference bot inside the arena (`builtin:NAME`), a config's `builtin = "NAME"`.
    Builtin(String),
    /// An executable, a config's `command`: a path (with a `/`, relative to the working directory
    /// unless absolute) or a program looked up on `PATH`.
    Command(String),
}

impl FromStr for BotSource {
    type Err = String;

    /// `builtin:NAME` for one of [`bots::cli::BOT_NAMES`], else the command as given.
    ///
    /// # Errors
    /// An empty text, an unknown built-in name, or a built-in bot's name without its prefix (the
    /// name would be looked up on `PATH`).
    fn from_str(s: &str) -> Result<BotSource, String> {
        let known = || bots::cli::BOT_NAMES.join(", ");
        if let Some(name) = s.strip_prefix(BUILTIN_PREFIX) {
            return if bots::cli::BOT_NAMES.contains(&name) {
                Ok(BotSource::Builtin(name.to_string()))
            } else {
                Err(format!("no built-in bot {name:?}; known: {}", known()))
            };
        }
        if s.is_empty() {
            return Err(format!(
                "empty; give builtin:NAME ({}) or the path of an executable",
                known()
            ));
        }
        if bots::cli::BOT_NAMES.contains(&s) {
            return Err(format!(
                "a built-in bot is written {BUILTIN_PREFIX}{s} (a program on PATH of that name: give \
                 its path)"
            ));
        }
        Ok(BotSource::Command(s.to_string()))
    }
}

/// One bot of a match.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchBot {
    /// Its name in the games and the standings.
    pub name: String,
    pub source: BotSource,
    /// Arguments passed to the executable (to `arena bot NAME` for a built-in bot), as given.
    pub args: Vec<String>,
    /// Engine options sent with `setoption`, `(name, value)` as given; a later one replaces an earlier
    /// one of the same name.
    pub options: Vec<(String, String)>,
    pub protocol: ProtocolKind,
}

/// How long a match is.
#[derive(Clone, Debug, PartialEq)]
pub enum Length {
    /// This many game pairs (each opening played twice, the bots' sides swapped).
    Pairs(u32),
    /// Game pairs until this SPRT accepts H0 or H1, or its `max_pairs` are played (`format = "sprt"`).
    Sprt(SprtConfig),
}

/// A match between two bots as the command line gives it; [`Match::config`] makes it a [`Config`].
#[derive(Clone, Debug)]
pub struct Match {
    /// The tournament's name, also its results folder; `None`: [`Match::default_name`].
    pub name: Option<String>,
    /// Bot A (whose wins the score counts) and bot B.
    pub bots: [MatchBot; 2],
    pub game: GameConfig,
    /// Both bots' clock for the game; `None`: only `movetime_ms` limits a move.
    pub clock: Option<Clock>,
    /// A hard cap per move, ms (cutechess's `st=`); with a clock, a cap besides it.
    pub movetime_ms: Option<u64>,
    pub length: Length,
    /// An opening file, its path relative to the working directory unless absolute.
    pub openings: Option<OpeningsConfig>,
    /// Random plies after the opening line, shared by both games of a pair.
    pub opening_plies: u32,
    /// The seed of the schedule, the openings and the per-game seeds.
    pub seed: u64,
    /// Games played at once; `None`: the number of cores.
    pub concurrency: Option<usize>,
    /// Adjudicate a game after this many plies; `None`: never.
    pub max_plies: Option<u32>,
    /// Both bots' sandbox; `None`: a config's default (bubblewrap for executables, none for built-in
    /// bots).
    pub sandbox: Option<SandboxKind>,
    /// Both games of a pair with the same first player (cutechess's `-noswap`).
    pub noswap: bool,
    /// B moves first in each pair's first game (cutechess's `-reverse`).
    pub reverse: bool,
    /// Append each game to this PGN file as it ends (relative to the working directory unless
    /// absolute; written absolute).
    pub pgnout: Option<PathBuf>,
    /// Append each Dots game to this SGF file as it ends (relative to the working directory unless
    /// absolute; written absolute).
    pub sgfout: Option<PathBuf>,
    /// The CPUs the game slots share out (`--affinity`); `None`: off.
    pub affinity: Option<super::affinity::Cpus>,
    /// `[adjudication]`: games ended by the bots' scores; `None`: off.
    pub adjudication: Option<AdjudicationConfig>,
}

impl Match {
    /// `A-vs-B-GAME` (`alphabeta-vs-random-connect4`), every character a tournament name does not allow
    /// (letters, digits, `.`, `_`, `-`) replaced by `_`.
    pub fn default_name(&self) -> String {
        // A game module's match is named by its file (`connect4.wasm` → `connect4`).
        let game = match self.game.keys.get("module") {
            Some(toml::Value::String(file)) if self.game.name.is_empty() => {
                std::path::Path::new(file)
                    .file_stem()
                    .map_or_else(String::new, |s| s.to_string_lossy().into_owned())
            }
            // A referee program's match (`--game CONFIG.toml`): named after the referee.
            _ if self.game.name.is_empty() && self.game.keys.contains_key("referee") => {
                "referee".to_string()
            }
            _ => self.game.name.clone(),
        };
        let name = format!("{}-vs-{}-{}", self.bots[0].name, self.bots[1].name, game);
        name.chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || "._-".contains(c) {
                    c
                } else {
                    '_'
                }
            })
            .collect()
    }

    /// The config of the match: a round-robin of its two bots with `2 × pairs` games per pair (or an
    /// SPRT match), everything else as given or a config's default. Relative paths (a command with a
    /// `/`, the opening file) are taken from `cwd` and written absolute, so the config plays the same
    /// match from any folder; what else is wrong with it [`crate::plan::Plan::new`] says.
    ///
    /// # Errors
    /// No game pair, neither a clock nor a time per move, or a command path that does not exist.
    pub fn config(&self, cwd: &Path) -> Result<Config, String> {
        if self.clock.is_none() && self.movetime_ms.is_none() {
            return Err("a match needs a clock (TIME+INC) or a time per move, or both".into());
        }
        // `cwd/./mybot` written `cwd/mybot` (`..` is kept: it may cross a symbolic link).
        let absolute = |p: &Path| -> PathBuf {
            cwd.join(p)
                .components()
                .filter(|c| *c != std::path::Component::CurDir)
                .collect()
        };
        let bots = self
            .bots
            .iter()
            .map(|b| {
                let (command, builtin) = match &b.source {
                    BotSource::Builtin(name) => (None, Some(name.clone())),
                    BotSource::Command(c) if c.contains('/') => {
                        let path = absolute(Path::new(c));
                        if !path.exists() {
                            return Err(format!(
                                "bot {}: {c}: no such file ({})",
                                b.name,
                                path.display()
                            ));
                        }
                        (Some(path.to_string_lossy().into_owned()), None)
                    }
                    BotSource::Command(c) => (Some(c.clone()), None),
                };
                Ok(BotConfig {
                    name: b.name.clone(),
                    command,
                    builtin,
                    args: b.args.clone(),
                    dir: None,
                    protocol: b.protocol,
                    options: b
                        .options
                        .iter()
                        .map(|(k, v)| (k.clone(), option_value(v)))
                        .collect::<BTreeMap<_, _>>(),
                    time_control: None,
                    limits: None,
                    sandbox: None,
                    sweep: None,
                })
            })
            .collect::<Result<Vec<_>, String>>()?;
        let (format, games_per_pair, sprt) = match &self.length {
            Length::Pairs(0) => return Err("a match needs at least one game pair".into()),
            Length::Pairs(p) => {
                let games = p
                    .checked_mul(2)
                    .ok_or_else(|| format!("{p} game pairs are too many"))?;
                (Format::RoundRobin, Some(games), None)
            }
            Length::Sprt(s) => (Format::Sprt, None, Some(s.clone())),
        };
        let openings = self.openings.as_ref().map(|o| OpeningsConfig {
            file: absolute(&o.file),
            ..o.clone()
        });
        Ok(Config {
            name: self.name.clone().unwrap_or_else(|| self.default_name()),
            format,
            games_per_pair,
            opening_plies: self.opening_plies,
            openings,
            sprt,
            tune: None,
            rounds: None,
            knockout: None,
            cycles: None,
            tiebreaks: None,
            anchor: None,
            seed: self.seed,
            concurrency: self.concurrency,
            max_plies: self.max_plies,
            noswap: self.noswap.then_some(true),
            reverse: self.reverse.then_some(true),
            pgnout: self.pgnout.as_deref().map(absolute),
            sgfout: self.sgfout.as_deref().map(absolute),
            adjudication: self.adjudication.clone(),
            affinity: self
                .affinity
                .as_ref()
                .map(|c| super::AffinityConfig::Cpus(c.to_string())),
            limits: LimitsConfig::default(),
            suspend_idle: None,
            sandbox: self.sandbox,
            game: self.game.clone(),
            time_control: TimeControlConfig {
                time_ms: self.clock.map(|c| c.time_ms),
                inc_ms: self.clock.map_or(0, |c| c.inc_ms),
                max_move_ms: self.movetime_ms,
                startup_ms: super::default_startup_ms(),
                margin_ms: 0,
            },
            bots,
            shards: None,
        })
    }
}

/// `[adjudication]` from cutechess's `-resign` and `-draw` words: `resign` holds `movecount=N score=S`,
/// `draw` `movenumber=N movecount=N score=S` (`movenumber` optional), and `--solver`'s `plies=N
/// nodes=N` (`nodes` optional), each word once.
///
/// # Errors
/// A word that is not `key=integer`, a key the option does not take, a key missing.
pub fn adjudication(
    resign: Option<&[String]>,
    draw: Option<&[String]>,
    solver: Option<&[String]>,
) -> Result<Option<AdjudicationConfig>, String> {
    fn words(flag: &str, given: &[String], keys: &[&str]) -> Result<BTreeMap<String, i64>, String> {
        let mut out = BTreeMap::new();
        for w in given {
            let (k, v) = w
                .split_once('=')
                .ok_or_else(|| format!("{flag} {w:?}: expected KEY=VALUE ({})", keys.join(", ")))?;
            if !keys.contains(&k) {
                return Err(format!("{flag}: {k:?} is none of {}", keys.join(", ")));
            }
            let v: i64 = v
                .parse()
                .map_err(|_| format!("{flag} {k}={v}: not a whole number"))?;
            if out.insert(k.to_string(), v).is_some() {
                return Err(format!("{flag}: {k} given twice"));
            }
        }
        Ok(out)
    }
    let count = |flag: &str, m: &BTreeMap<String, i64>, k: &str| -> Result<Option<u32>, String> {
        m.get(k)
            .map(|&v| u32::try_from(v).map_err(|_| format!("{flag} {k}={v}: out of range")))
            .transpose()
    };
    if resign.is_none() && draw.is_none() && solver.is_none() {
        return Ok(None);
    }
    let mut c = AdjudicationConfig::default();
    if let Some(r) = resign {
        let m = words("--resign", r, &["movecount", "score"])?;
        c.resign_moves =
            Some(count("--resign", &m, "movecount")?.ok_or("--resign needs movecount=N")?);
        c.resign_score = Some(*m.get("score").ok_or("--resign needs score=S")?);
    }
    if let Some(d) = draw {
        let m = words("--draw", d, &["movenumber", "movecount", "score"])?;
        c.draw_after = count("--draw", &m, "movenumber")?;
        c.draw_moves = Some(count("--draw", &m, "movecount")?.ok_or("--draw needs movecount=N")?);
        c.draw_score = Some(*m.get("score").ok_or("--draw needs score=S")?);
    }
    if let Some(s) = solver {
        let m = words("--solver", s, &["plies", "nodes"])?;
        c.solver_plies = Some(count("--solver", &m, "plies")?.ok_or("--solver needs plies=N")?);
        c.solver_nodes = m
            .get("nodes")
            .map(|&v| u64::try_from(v).map_err(|_| format!("--solver nodes={v}: out of range")))
            .transpose()?;
    }
    Ok(Some(c))
}

/// An option's value as a config would write it: `true`/`false` as booleans, an integer written the
/// way TOML writes it back as an integer, anything else as a string (the bot receives the same text
/// either way).
fn option_value(text: &str) -> toml::Value {
    match text {
        "true" => toml::Value::Boolean(true),
        "false" => toml::Value::Boolean(false),
        _ => match text.parse::<i64>() {
            Ok(i) if i.to_string() == text => toml::Value::Integer(i),
            _ => toml::Value::String(text.to_string()),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_read_as_cutechess_writes_them() {
        let c = |s: &str| s.parse::<Clock>().map(|c| (c.time_ms, c.inc_ms));
        assert_eq!(c("10+0.1"), Ok((10_000, 100)));
        assert_eq!(c("1+0.01"), Ok((1000, 10)));
        assert_eq!(c("60"), Ok((60_000, 0)));
        assert_eq!(c("1:30+1"), Ok((90_000, 1000)));
        assert_eq!(c("0.5+0"), Ok((500, 0)));
        assert_eq!(c(" 2.250+.5 "), Ok((2250, 500)));
        let err = c("40/60").unwrap_err();
        assert!(err.contains("moves per period"), "{err}");
        for bad in [
            "",
            "+1",
            "0+1",
            "10+",
            "10s",
            "1e3",
            "-1+0",
            "10+0.0001",
            "x:10",
            "inf",
        ] {
            assert!(c(bad).is_err(), "{bad:?} was accepted");
        }
        assert!(c("10+x").unwrap_err().contains("TIME+INC"));
    }

    #[test]
    fn seconds_become_whole_milliseconds_exactly() {
        assert_eq!(seconds_ms("0.1"), Ok(100));
        assert_eq!(seconds_ms("0.001"), Ok(1));
        assert_eq!(seconds_ms("3"), Ok(3000));
        assert_eq!(seconds_ms("1.5000"), Ok(1500));
        assert_eq!(seconds_ms("0.29"), Ok(290));
        assert!(seconds_ms("0.0015").unwrap_err().contains("millisecond"));
        assert!(seconds_ms("1.2.3").is_err());
        assert!(seconds_ms(".").is_err());
        assert!(seconds_ms("99999999999999999999").is_err());
    }

    #[test]
    fn bots_are_builtin_names_or_commands() {
        assert_eq!(
            "builtin:alphabeta".parse(),
            Ok(BotSource::Builtin("alphabeta".into()))
        );
        assert_eq!("./mybot".parse(), Ok(BotSource::Command("./mybot".into())));
        assert_eq!("python3".parse(), Ok(BotSource::Command("python3".into())));
        let err = "builtin:stockfish".parse::<BotSource>().unwrap_err();
        assert!(err.contains("known: random"), "{err}");
        let err = "alphabeta".parse::<BotSource>().unwrap_err();
        assert!(err.contains("builtin:alphabeta"), "{err}");
        assert!("".parse::<BotSource>().is_err());
    }

    fn bot(name: &str, source: BotSource) -> MatchBot {
        MatchBot {
            name: name.into(),
            source,
            args: Vec::new(),
            options: Vec::new(),
            protocol: ProtocolKind::Ugi,
        }
    }

    fn a_match(length: Length) -> Match {
        Match {
            name: None,
            bots: [
                MatchBot {
                    options: vec![
                        ("depth".into(), "4".into()),
                        ("tiebreak".into(), "random".into()),
                        ("bounds".into(), "true".into()),
                        ("depth".into(), "2".into()),
                        ("padded".into(), "007".into()),
                    ],
                    ..bot("alphabeta", BotSource::Builtin("alphabeta".into()))
                },
                bot("random", BotSource::Builtin("random".into())),
            ],
            game: GameConfig::from_words("connect4").unwrap(),
            clock: Some(Clock {
                time_ms: 10_000,
                inc_ms: 100,
            }),
            movetime_ms: None,
            length,
            openings: None,
            opening_plies: 0,
            seed: 7,
            concurrency: Some(2),
            max_plies: None,
            sandbox: None,
            noswap: false,
            reverse: false,
            pgnout: None,
            affinity: None,
            sgfout: None,
            adjudication: None,
        }
    }

    #[test]
    fn a_match_is_a_two_bot_round_robin_that_survives_toml() {
        let m = a_match(Length::Pairs(10));
        let c = m.config(Path::new("/work")).unwrap();
        assert_eq!(c.name, "alphabeta-vs-random-connect4");
        assert_eq!(c.format, Format::RoundRobin);
        assert_eq!(c.games_per_pair, Some(20));
        assert_eq!((c.seed, c.concurrency), (7, Some(2)));
        let tc = &c.time_control;
        assert_eq!(
            (tc.time_ms, tc.inc_ms, tc.max_move_ms),
            (Some(10_000), 100, None)
        );
        assert_eq!(tc.startup_ms, 5000, "a config's default");
        assert_eq!(c.bots[0].builtin.as_deref(), Some("alphabeta"));
        let o = &c.bots[0].options;
        assert_eq!(o["depth"], toml::Value::Integer(2), "the later value wins");
        assert_eq!(o["bounds"], toml::Value::Boolean(true));
        assert_eq!(o["tiebreak"], toml::Value::String("random".into()));
        assert_eq!(o["padded"], toml::Value::String("007".into()));
        let text = c.to_toml().unwrap();
        let again = Config::parse(&text, Path::new("m.toml")).unwrap();
        assert_eq!(again.to_toml().unwrap(), text);
        assert!(matches!(
            a_match(Length::Pairs(0)).config(Path::new("/")),
            Err(e) if e.contains("at least one game pair")
        ));
    }

    #[test]
    fn a_time_per_move_is_a_cap_or_the_only_limit() {
        let mut m = a_match(Length::Pairs(1));
        m.movetime_ms = Some(500);
        let tc = m.config(Path::new("/")).unwrap().time_control;
        assert_eq!((tc.time_ms, tc.max_move_ms), (Some(10_000), Some(500)));
        m.clock = None;
        let tc = m.config(Path::new("/")).unwrap().time_control;
        assert_eq!(
            (tc.time_ms, tc.inc_ms, tc.max_move_ms),
            (None, 0, Some(500))
        );
        m.movetime_ms = None;
        assert!(m.config(Path::new("/")).unwrap_err().contains("a clock"));
    }

    #[test]
    fn an_sprt_match_has_no_games_per_pair() {
        let sprt = SprtConfig {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.1,
            model: "logistic".into(),
            max_pairs: 300,
        };
        let c = a_match(Length::Sprt(sprt.clone()))
            .config(Path::new("/"))
            .unwrap();
        assert_eq!(c.format, Format::Sprt);
        assert_eq!(c.games_per_pair, None);
        assert_eq!(c.sprt, Some(sprt));
    }

    #[test]
    fn relative_paths_are_written_absolute_and_must_exist() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::write(tmp.path().join("mybot"), "").unwrap();
        let mut m = a_match(Length::Pairs(1));
        m.bots[1] = bot("mine", BotSource::Command("./mybot".into()));
        m.openings = Some(OpeningsConfig {
            file: "./book.txt".into(),
            order: super::super::OpeningOrder::Random,
            plies: Some(4),
        });
        let c = m.config(tmp.path()).unwrap();
        assert_eq!(
            c.bots[1].command.as_deref().map(PathBuf::from),
            Some(tmp.path().join("mybot"))
        );
        assert!(Path::new(c.bots[1].command.as_deref().unwrap()).is_absolute());
        let o = c.openings.unwrap();
        assert_eq!(o.file, tmp.path().join("book.txt"));
        assert_eq!(o.plies, Some(4));
        m.bots[1].source = BotSource::Command("./gone".into());
        let err = m.config(tmp.path()).unwrap_err();
        assert!(err.starts_with("bot mine: ./gone: no such file"), "{err}");
        // A name without a `/` is a program on PATH, which the plan looks up.
        m.bots[1].source = BotSource::Command("python3".into());
        assert_eq!(
            m.config(tmp.path()).unwrap().bots[1].command.as_deref(),
            Some("python3")
        );
    }

    #[test]
    fn cutechess_adjudication_words_make_the_table() {
        let w = |s: &str| -> Vec<String> { s.split_whitespace().map(str::to_string).collect() };
        assert_eq!(adjudication(None, None, None), Ok(None));
        let c = adjudication(
            Some(&w("movecount=3 score=600")),
            Some(&w("movenumber=40 movecount=8 score=10")),
            None,
        )
        .unwrap()
        .unwrap();
        assert_eq!(
            (
                c.resign_moves,
                c.resign_score,
                c.draw_after,
                c.draw_moves,
                c.draw_score
            ),
            (Some(3), Some(600), Some(40), Some(8), Some(10))
        );
        let c = adjudication(None, Some(&w("score=5 movecount=2")), None)
            .unwrap()
            .unwrap();
        assert_eq!((c.draw_after, c.resign_moves), (None, None));
        let c = adjudication(None, None, Some(&w("plies=12 nodes=5000")))
            .unwrap()
            .unwrap();
        assert_eq!((c.solver_plies, c.solver_nodes), (Some(12), Some(5000)));
        let c = adjudication(None, None, Some(&w("plies=0")))
            .unwrap()
            .unwrap();
        assert_eq!(
            (c.solver_plies, c.solver_nodes, c.draw_moves),
            (Some(0), None, None)
        );
        for (solver, err) in [
            ("nodes=5", "needs plies"),
            ("plies=3 nodes=-5", "out of range"),
            ("plies=3 depth=5", "none of plies, nodes"),
        ] {
            let e = adjudication(None, None, Some(&w(solver))).unwrap_err();
            assert!(e.contains(err), "{solver}: {e}");
        }
        for (resign, err) in [
            ("movecount=3", "needs score"),
            ("score=600", "needs movecount"),
            ("movecount=3 score=6 score=7", "twice"),
            ("movecount=x score=6", "not a whole number"),
            ("count=3 score=6", "none of movecount, score"),
            ("3 600", "KEY=VALUE"),
            ("movecount=-1 score=6", "out of range"),
        ] {
            let e = adjudication(Some(&w(resign)), None, None).unwrap_err();
            assert!(e.contains(err), "{resign}: {e}");
        }
    }

    #[test]
    fn the_default_name_keeps_to_the_characters_of_a_folder_name() {
        let mut m = a_match(Length::Pairs(1));
        m.bots[1].name = "my bot[2]".into();
        assert_eq!(m.default_name(), "alphabeta-vs-my_bot_2_-connect4");
        m.name = Some("mine".into());
        assert_eq!(m.config(Path::new("/")).unwrap().name, "mine");
    }
}
