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
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "info depth {} score {} nodes {} time {}",
            self.depth, self.score, self.nodes, self.time_ms
        )?;
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
}

/// An option the engine declares during the handshake (`option name … type …`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOption {
    /// The name, without spaces.
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
        }
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
    /// spins (and 0/1 for checks), `None` for text.
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
