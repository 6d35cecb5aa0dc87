//! What an engine is to the protocol loop: options, a new game, and a move for a position.

use std::any::Any;
use std::fmt;

use games::Game;

/// What a `go` command allows the engine to spend. All times in ms; `None` means no limit of that kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Time left on the mover's clock (`p1time`/`p2time` of the side to move), ms.
    pub time_ms: Option<u64>,
    /// The mover's increment per move (`p1inc`/`p2inc`), ms.
    pub inc_ms: Option<u64>,
    /// A fixed time for this move (`movetime`), ms.
    pub movetime_ms: Option<u64>,
    /// Maximum search depth (`depth`), plies.
    pub depth: Option<u32>,
    /// Maximum nodes to search (`nodes`).
    pub nodes: Option<u64>,
    /// Time left on the opponent's clock, ms (for display: `arena play`'s person sees both clocks).
    pub opponent_time_ms: Option<u64>,
    /// The opponent's increment per move, ms.
    pub opponent_inc_ms: Option<u64>,
    /// When the `go` line arrived (set by the protocol loop): an engine that counts its move time from
    /// here (`dots-tps`) pays the replay of the game's moves from that time. `None`: from the search's
    /// start.
    pub received: Option<std::time::Instant>,
}

/// One search report, sent to the arena as `info depth D score S nodes N [time T] [pv ...]`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchInfo {
    /// Completed depth, plies.
    pub depth: u32,
    /// Score from the mover's point of view, in the engine's own units.
    pub score: i64,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time spent so far, ms.
    pub time_ms: u64,
    /// Principal variation in the game's move notation.
    pub pv: Vec<String>,
}

impl fmt::Display for SearchInfo {
    /// `info depth D score S nodes N time T [pv …]`; a forced win or loss (a score at or beyond
    /// [`crate::search::MATE_BOUND`], `±(MATE − plies)`) as UCI's `score mate M`, M the mover's own
    /// moves to the end (negative for a loss), which the arena writes as cutechess does (`+M3`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (mate, bound) = (
            i64::from(crate::search::MATE),
            i64::from(crate::search::MATE_BOUND),
        );
        write!(f, "info depth {} score ", self.depth)?;
        if self.score.abs() >= bound {
            let moves = ((mate - self.score.abs() + 1) / 2).max(1);
            write!(f, "mate {}", moves * self.score.signum())?;
        } else {
            write!(f, "{}", self.score)?;
        }
        write!(f, " nodes {} time {}", self.nodes, self.time_ms)?;
        if !self.pv.is_empty() {
            write!(f, " pv {}", self.pv.join(" "))?;
        }
        Ok(())
    }
}

/// The type and bounds of an engine option, as UCI/UGI declares them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// An integer in `min..=max`.
    Spin { default: i64, min: i64, max: i64 },
    /// `true` or `false`.
    Check { default: bool },
    /// One of `vars`.
    Combo { default: String, vars: Vec<String> },
    /// Free text.
    String { default: String },
    /// No value: a command (UCI's `Clear Hash`). No engine of this crate declares one; the arena reads
    /// them from other engines.
    Button,
}

/// An option as its declaration line gives it (`option name … type …`): what an engine of this crate
/// declares in its handshake ([`Engine::options`]), and what the arena reads from any bot's handshake
/// to check a config's options against. `Display` writes the line, [`FromStr`](std::str::FromStr) reads
/// it, and `parse(format(o)) == o` for every option of this crate's engines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOption {
    /// The name: one word for this crate's engines; another engine's may hold spaces (UCI allows them:
    /// the words from `name` to `type`, joined by single spaces).
    pub name: String,
    pub kind: OptionKind,
}

impl fmt::Display for EngineOption {
    /// The UGI declaration line, e.g. `option name seed type spin default 0 min 0 max 9223372036854775807`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "option name {} type ", self.name)?;
        match &self.kind {
            OptionKind::Spin { default, min, max } => {
                write!(f, "spin default {default} min {min} max {max}")
            }
            OptionKind::Check { default } => write!(f, "check default {default}"),
            OptionKind::Combo { default, vars } => {
                write!(f, "combo default {default}")?;
                vars.iter().try_for_each(|v| write!(f, " var {v}"))
            }
            OptionKind::String { default } => write!(f, "string default {default}"),
            OptionKind::Button => write!(f, "button"),
        }
    }
}

/// A line that is not an option declaration [`EngineOption`] can use.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DeclarationError {
    #[error("not an option declaration (option name <N> type <T> …)")]
    NotADeclaration,
    #[error("an option declaration without a name")]
    NoName,
    #[error("an option declaration without a type")]
    NoType,
    #[error("option {name}: unknown type {kind:?} (spin, check, combo, string or button)")]
    UnknownType { name: String, kind: String },
}

impl std::str::FromStr for EngineOption {
    type Err = DeclarationError;

    /// Reads a declaration line as UCI writes it: `option name <N> type <spin|check|combo|string|button>
    /// [default <D>] [min <a>] [max <b>] [var <v>]…`, split on whitespace. The name runs from `name` to
    /// the first `type`. Leniently, as the arena has always read other people's engines: a spin
    /// without (integer) bounds is unbounded and its missing default is 0 (within its bounds); a check's
    /// default is `true` only when written so; a combo's default and each `var` are one word; a string's
    /// default is the rest of the line (`<empty>` kept as written).
    ///
    /// # Errors
    /// [`DeclarationError`]: another line, no name, no type, or a type UCI does not have.
    fn from_str(line: &str) -> Result<EngineOption, DeclarationError> {
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.first() != Some(&"option") || words.get(1) != Some(&"name") {
            return Err(DeclarationError::NotADeclaration);
        }
        let ty = words
            .iter()
            .position(|w| *w == "type")
            .ok_or(DeclarationError::NoType)?;
        let name = words[2..ty].join(" ");
        if name.is_empty() {
            return Err(DeclarationError::NoName);
        }
        let rest = &words[ty + 1..];
        let at = |key: &str| rest.iter().position(|w| *w == key);
        let value_of = |key: &str| at(key).and_then(|i| rest.get(i + 1)).copied();
        let int = |key: &str| value_of(key).and_then(|v| v.parse::<i64>().ok());
        let kind = match *rest.first().ok_or(DeclarationError::NoType)? {
            "spin" => {
                let (min, max) = (
                    int("min").unwrap_or(i64::MIN),
                    int("max").unwrap_or(i64::MAX),
                );
                OptionKind::Spin {
                    default: int("default").unwrap_or(0.max(min).min(max)),
                    min,
                    max,
                }
            }
            "check" => OptionKind::Check {
                default: value_of("default") == Some("true"),
            },
            "combo" => OptionKind::Combo {
                default: value_of("default").unwrap_or_default().to_string(),
                vars: rest
                    .iter()
                    .enumerate()
                    .filter(|(_, w)| **w == "var")
                    .filter_map(|(i, _)| rest.get(i + 1).map(|v| v.to_string()))
                    .collect(),
            },
            "string" => OptionKind::String {
                default: at("default").map_or_else(String::new, |i| rest[i + 1..].join(" ")),
            },
            "button" => OptionKind::Button,
            other => {
                return Err(DeclarationError::UnknownType {
                    name,
                    kind: other.to_string(),
                })
            }
        };
        Ok(EngineOption { name, kind })
    }
}

/// An option value the engine refuses.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OptionError {
    #[error("unknown option {0:?}")]
    Unknown(String),
    #[error("bad value {value:?} for option {name}: {reason}")]
    BadValue {
        name: String,
        value: String,
        reason: String,
    },
}

/// How an engine chooses among moves of equal value: option `tiebreak` ([`EngineOption::tiebreak`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TieBreak {
    /// The first in the engine's move order (an article's listing, as written).
    First,
    /// A uniformly random one, from the engine's seeded generator.
    Random,
}

impl TieBreak {
    /// The value of a `tiebreak` option already checked by [`EngineOption::parse`]: `random` or `first`.
    pub fn from_option(value: &str) -> TieBreak {
        if value == "random" {
            TieBreak::Random
        } else {
            TieBreak::First
        }
    }
}

impl EngineOption {
    /// A `spin` option: an integer in `min..=max` with its default.
    pub fn spin(name: &str, default: i64, min: i64, max: i64) -> EngineOption {
        EngineOption {
            name: name.into(),
            kind: OptionKind::Spin { default, min, max },
        }
    }

    /// A `check` option: `true` or `false`.
    pub fn check(name: &str, default: bool) -> EngineOption {
        EngineOption {
            name: name.into(),
            kind: OptionKind::Check { default },
        }
    }

    /// A `combo` option: one of `vars`, `default` among them.
    pub fn combo<V: ToString>(
        name: &str,
        default: &str,
        vars: impl IntoIterator<Item = V>,
    ) -> EngineOption {
        EngineOption {
            name: name.into(),
            kind: OptionKind::Combo {
                default: default.into(),
                vars: vars.into_iter().map(|v| v.to_string()).collect(),
            },
        }
    }

    /// A `string` option: free text.
    pub fn string(name: &str, default: &str) -> EngineOption {
        EngineOption {
            name: name.into(),
            kind: OptionKind::String {
                default: default.into(),
            },
        }
    }

    /// The name and the values it takes, for people: `depth (spin 1..20)`, `tiebreak (combo
    /// first|random)`, `bounds (check true|false)`, `patterns (string)`, `Clear Hash (button)`. The
    /// arena lists a bot's options so when a config's option is not among them.
    pub fn summary(&self) -> String {
        let name = &self.name;
        match &self.kind {
            OptionKind::Spin { min, max, .. } => format!("{name} (spin {min}..{max})"),
            OptionKind::Check { .. } => format!("{name} (check true|false)"),
            OptionKind::Combo { vars, .. } => format!("{name} (combo {})", vars.join("|")),
            OptionKind::String { .. } => format!("{name} (string)"),
            OptionKind::Button => format!("{name} (button)"),
        }
    }

    /// The `tiebreak` option of an engine that follows an article's move order: a combo of `first`
    /// (the default, as the article) and `random` (seeded).
    pub fn tiebreak() -> EngineOption {
        EngineOption::combo("tiebreak", "first", ["first", "random"])
    }

    /// The `seed` option every seeded engine declares: a spin in `0..=i64::MAX`, default 0. The arena
    /// sends each game's seed to an engine that declares it (`docs/protocol.md`).
    pub fn seed() -> EngineOption {
        EngineOption::spin("seed", 0, 0, i64::MAX)
    }

    /// The option called `name` among `options`.
    ///
    /// # Errors
    /// [`OptionError::Unknown`] if there is none.
    pub fn find(options: Vec<EngineOption>, name: &str) -> Result<EngineOption, OptionError> {
        options
            .into_iter()
            .find(|o| o.name == name)
            .ok_or_else(|| OptionError::Unknown(name.into()))
    }

    /// Checks `value` against this option's type and bounds; returns it parsed as an integer for
    /// spins (and 0/1 for checks), `None` for text (and a button's empty value).
    ///
    /// # Errors
    /// [`OptionError::BadValue`] when the value does not fit.
    pub fn parse(&self, value: &str) -> Result<Option<i64>, OptionError> {
        let bad = |reason: String| OptionError::BadValue {
            name: self.name.clone(),
            value: value.to_string(),
            reason,
        };
        match &self.kind {
            OptionKind::Spin { min, max, .. } => {
                let v: i64 = value.parse().map_err(|_| bad("not an integer".into()))?;
                if v < *min || v > *max {
                    return Err(bad(format!("outside {min}..={max}")));
                }
                Ok(Some(v))
            }
            OptionKind::Check { .. } => match value {
                "true" => Ok(Some(1)),
                "false" => Ok(Some(0)),
                _ => Err(bad("expected true or false".into())),
            },
            OptionKind::Combo { vars, .. } => {
                if vars.iter().any(|v| v == value) {
                    Ok(None)
                } else {
                    Err(bad(format!("expected one of {}", vars.join(", "))))
                }
            }
            OptionKind::String { .. } => Ok(None),
            // UCI presses a button with `setoption name <N>`, no value.
            OptionKind::Button if value.is_empty() => Ok(None),
            OptionKind::Button => Err(bad("a button takes no value".into())),
        }
    }
}

/// `pos` as the concrete game `C`, or `None` when `G` is another game: how an engine written for one game
/// (c4-zx, c4-solver, dots-tps, ttt-boardvalue) serves the generic [`Engine::choose`].
pub fn concrete<C: Game, G: Game>(pos: &G) -> Option<&C> {
    (pos as &dyn Any).downcast_ref::<C>()
}

/// A move `m` of a concrete game as a move of `G`: `Some` exactly when `G`'s move type is `M`, which
/// holds wherever [`concrete`] gave the position.
pub fn generic_move<G: Game, M: Copy + 'static>(m: M) -> Option<G::Move> {
    (&m as &dyn Any).downcast_ref::<G::Move>().copied()
}

/// A game-playing engine, served over the protocol by [`crate::protocol::serve`].
///
/// The engine is generic over the game: [`choose`](Engine::choose) is called with the concrete position
/// type, so one engine can play all three games.
pub trait Engine {
    /// The name sent as `id name …`.
    fn name(&self) -> String;

    /// The options sent during the handshake.
    fn options(&self) -> Vec<EngineOption>;

    /// Sets an option by name (names compare case-sensitively).
    ///
    /// # Errors
    /// [`OptionError`] if the option is unknown or the value does not fit.
    fn set_option(&mut self, name: &str, value: &str) -> Result<(), OptionError>;

    /// Called on `uginewgame`: forget what belongs to the previous game.
    fn new_game(&mut self) {}

    /// Picks a move for the side to move in `pos` (which is not over), within `limits`, sending
    /// search reports through `info`. Returns `None` only when there is no legal move, or when the
    /// engine resigns (then [`resigned`](Engine::resigned) says so).
    fn choose<G: Game>(
        &mut self,
        pos: &G,
        limits: &Limits,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> Option<G::Move>;

    /// Whether the last `None` of [`choose`](Engine::choose) gave up the game: the UGI loop then answers
    /// `bestmove resign` (a loss, recorded as `resign`) instead of `bestmove (none)` (a protocol
    /// forfeit). Only a person resigns ([`crate::human::Human`]); engines keep this default, `false`.
    fn resigned(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_forced_win_or_loss_is_reported_as_mate_in_the_mover_s_moves() {
        let mate = i64::from(crate::search::MATE);
        let line = |score| {
            SearchInfo {
                depth: 5,
                score,
                nodes: 10,
                time_ms: 1,
                pv: vec![],
            }
            .to_string()
        };
        assert_eq!(line(12), "info depth 5 score 12 nodes 10 time 1");
        assert_eq!(line(mate - 1), "info depth 5 score mate 1 nodes 10 time 1");
        assert_eq!(line(mate - 5), "info depth 5 score mate 3 nodes 10 time 1");
        assert_eq!(
            line(-(mate - 4)),
            "info depth 5 score mate -2 nodes 10 time 1"
        );
    }

    /// The lines of `arena::game::options`' tests, read by the one type both crates use.
    fn declared() -> Vec<EngineOption> {
        [
            "option name depth type spin default 4 min 1 max 20",
            "option name tiebreak type combo default first var first var random",
            "option name literal_sign type check default false",
            "option name Book File type string default <empty>",
            "option name Clear Hash type button",
        ]
        .iter()
        .map(|l| l.parse().unwrap())
        .collect()
    }

    #[test]
    fn declarations_parse_as_uci_writes_them() {
        let d = declared();
        assert_eq!(d[0], EngineOption::spin("depth", 4, 1, 20));
        assert_eq!(d[1], EngineOption::tiebreak());
        assert_eq!(d[2], EngineOption::check("literal_sign", false));
        assert_eq!(d[3], EngineOption::string("Book File", "<empty>"));
        assert_eq!(d[4].kind, OptionKind::Button);
        assert_eq!(d[4].name, "Clear Hash");
        let err = |l: &str| l.parse::<EngineOption>().unwrap_err();
        assert_eq!(err("id name x"), DeclarationError::NotADeclaration);
        assert_eq!(err("option name x"), DeclarationError::NoType);
        assert_eq!(err("option name type spin"), DeclarationError::NoName);
        assert_eq!(
            err("option name x type colour"),
            DeclarationError::UnknownType {
                name: "x".into(),
                kind: "colour".into()
            }
        );
        // What people see of them.
        let shown: Vec<String> = d.iter().map(EngineOption::summary).collect();
        assert_eq!(
            shown,
            [
                "depth (spin 1..20)",
                "tiebreak (combo first|random)",
                "literal_sign (check true|false)",
                "Book File (string)",
                "Clear Hash (button)"
            ]
        );
    }

    #[test]
    fn a_lenient_declaration_still_gives_its_name_and_bounds() {
        // Extra spaces, a spin without bounds or default, a string default of several words.
        let o: EngineOption = "  option  name  Skill Level type spin".parse().unwrap();
        assert_eq!(o, EngineOption::spin("Skill Level", 0, i64::MIN, i64::MAX));
        let o: EngineOption = "option name x type spin default 9 min 10 max 20"
            .parse()
            .unwrap();
        assert_eq!(o, EngineOption::spin("x", 9, 10, 20));
        let o: EngineOption = "option name x type spin min 10 max 20".parse().unwrap();
        assert_eq!(o, EngineOption::spin("x", 10, 10, 20));
        let o: EngineOption = "option name p type string default a  b".parse().unwrap();
        assert_eq!(o, EngineOption::string("p", "a b"));
        let o: EngineOption = "option name c type check".parse().unwrap();
        assert_eq!(o, EngineOption::check("c", false));
    }

    #[test]
    fn every_reference_engines_option_line_reads_back_as_itself() {
        let engines: Vec<(&str, Vec<EngineOption>)> = vec![
            ("random", crate::random::RandomEngine::default().options()),
            (
                "minimax",
                crate::minimax::MinimaxEngine::default().options(),
            ),
            (
                "alphabeta",
                crate::alphabeta::AlphaBetaEngine::default().options(),
            ),
            (
                "ttt-boardvalue",
                crate::boardvalue::BoardValueEngine::default().options(),
            ),
            ("c4-solver", crate::c4_solver::C4Solver::default().options()),
            ("dots-tps", crate::dots_tps::DotsTps::default().options()),
            ("c4-zx", crate::c4_zx::C4Zx::default().options()),
            (
                "faulty",
                crate::faulty::FaultyEngine::new(None, 0).options(),
            ),
            ("human", crate::human::Human::default().options()),
        ];
        for (engine, options) in engines {
            assert!(!options.is_empty(), "{engine} declares no option");
            for o in options {
                let line = o.to_string();
                assert_eq!(line.parse::<EngineOption>(), Ok(o), "{engine}: {line}");
            }
        }
    }
}
