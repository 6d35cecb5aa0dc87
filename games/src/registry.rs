//! The registry: the one list of the games the arena knows, one line a game (in `lib.rs`, where the
//! [`registry!`](crate::registry!) macro of this file declares each game's module too).
//!
//! Everything else that differs from game to game is declared by the game in its own folder, through
//! the [`Game`] trait: its name, variants and config keys ([`Game::Variant`]), notation
//! ([`Game::Move`]), evaluation ([`Game::Eval`]), board picture ([`Game::frame`]) and the record
//! formats that apply ([`Game::RECORD_FORMATS`]). The macro turns the list into [`GameKind`] (the
//! names), [`GameSpec`] (a game with its variant) and the dispatch from a spec to the concrete game
//! ([`GameSpec::visit`]); no code outside it matches on a game. Adding a game is its folder and its
//! line in the list (`docs/games.md`).

use std::fmt;
use std::str::FromStr;

pub use crate::weights;
use crate::{Game, GameKind, GameSpec};

/// A game name or variant that is not supported.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    #[error("unknown game {0:?} (expected {list}, or a game module: module = \"FILE.wasm\")", list = GameKind::names().join(", "))]
    UnknownGame(String),
    #[error("{0}")]
    Invalid(String),
    /// A parameter, named by its config key, that is not a value of its kind or is out of range.
    #[error("{message}")]
    Param { key: &'static str, message: String },
}

impl SpecError {
    /// The config key of the parameter at fault, if the error is about one.
    pub fn key(&self) -> Option<&'static str> {
        match self {
            SpecError::Param { key, .. } => Some(key),
            _ => None,
        }
    }
}

/// A record format beyond PGN (which every game has) that applies to a game's records.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RecordFormat {
    /// SGF with `GM[40]`, the Dots programs' format (zagram.org, KataGoDots, oppai-rs).
    Sgf,
    /// Pascal Pons's Connect Four move strings, one digit a ply.
    Pons,
}

/// Something to do with the start position of a game whose type is only known at run time.
///
/// [`GameSpec::visit`] calls [`visit`](GameVisitor::visit) with the concrete game, so generic code
/// (a referee, an engine loop) is monomorphised once per game instead of going through trait objects.
pub trait GameVisitor {
    type Output;
    fn visit<G: Game>(self, start: G) -> Self::Output;
}

/// The registry's list, invoked once in `lib.rs`: each line `Kind => module::Type` declares the game's
/// module (`pub mod module;`), re-exports its type, and adds it to [`GameKind`], [`GameSpec`] and the
/// dispatch.
#[macro_export]
macro_rules! registry {
    ($( $(#[doc = $doc:literal])* $kind:ident => $module:ident :: $ty:ident, )*) => {
        $( pub mod $module; pub use $module::$ty; )*
        $crate::registry!(@items $( $(#[doc = $doc])* $kind => $module::$ty, )*);
    };
    (@items $( $(#[doc = $doc:literal])* $kind:ident => $game:ty, )*) => {
        /// The games, by the names used in configs, records and the protocol ([`GameKind::name`]).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum GameKind {
            $( $(#[doc = $doc])* $kind, )*
            /// A game module's game ([`crate::module`]): the rules come from a WebAssembly file.
            Module,
        }

        impl GameKind {
            /// Every built-in game, in the registry's order (game modules are not listed).
            pub const ALL: &'static [GameKind] = &[ $( GameKind::$kind, )* ];

            /// The name in configs and the protocol: `tictactoe`, `connect4`, …
            pub fn name(self) -> &'static str {
                match self {
                    $( GameKind::$kind => <<$game as $crate::Game>::Variant as $crate::Variant>::NAME, )*
                    GameKind::Module => <$crate::module::ModuleVariant as $crate::Variant>::NAME,
                }
            }

            /// Other names the parser accepts.
            pub fn aliases(self) -> &'static [&'static str] {
                match self {
                    $( GameKind::$kind => <<$game as $crate::Game>::Variant as $crate::Variant>::ALIASES, )*
                    GameKind::Module => &[],
                }
            }

            /// The variant's parameters: the config keys of `[game]` besides `name`, in the order of
            /// the protocol's words.
            pub fn params(self) -> &'static [$crate::Param] {
                match self {
                    $( GameKind::$kind => <<$game as $crate::Game>::Variant as $crate::Variant>::PARAMS, )*
                    GameKind::Module => <$crate::module::ModuleVariant as $crate::Variant>::PARAMS,
                }
            }

            /// The variant of parameters `params` (`params[i]` for `params()[i]`, `None`: default).
            ///
            /// # Errors
            /// [`SpecError::Invalid`] naming the parameter at fault.
            pub fn spec(self, params: &[Option<&str>]) -> Result<GameSpec, $crate::SpecError> {
                match self {
                    $( GameKind::$kind => Ok(GameSpec::$kind(
                        <<$game as $crate::Game>::Variant as $crate::Variant>::from_params(params)?,
                    )), )*
                    GameKind::Module => Ok(GameSpec::Module(
                        <$crate::module::ModuleVariant as $crate::Variant>::from_params(params)?,
                    )),
                }
            }
        }

        /// A game with its variant, validated: constructing the start position from it cannot fail.
        ///
        /// Text form (the protocol's `game` command without the word `game`): the name, then the
        /// variant's words (`connect4 7 6`, `dots 39 32 cross`); trailing words may be left out and
        /// take the defaults.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum GameSpec {
            $( $(#[doc = $doc])* $kind(<$game as $crate::Game>::Variant), )*
            /// A game module's game with its variant ([`crate::module::ModuleVariant`]).
            Module($crate::module::ModuleVariant),
        }

        impl From<$crate::module::ModuleVariant> for GameSpec {
            fn from(v: $crate::module::ModuleVariant) -> GameSpec {
                GameSpec::Module(v)
            }
        }

        $(
            impl From<<$game as $crate::Game>::Variant> for GameSpec {
                fn from(v: <$game as $crate::Game>::Variant) -> GameSpec {
                    GameSpec::$kind(v)
                }
            }
        )*

        impl GameSpec {
            /// The game.
            pub fn kind(&self) -> GameKind {
                match self {
                    $( GameSpec::$kind(_) => GameKind::$kind, )*
                    GameSpec::Module(_) => GameKind::Module,
                }
            }

            /// The variant alone, as the words after the game name: `3 3 3`, `7 6`, `39 32 cross`.
            pub fn variant(&self) -> String {
                match self {
                    $( GameSpec::$kind(v) => v.to_string(), )*
                    GameSpec::Module(v) => v.to_string(),
                }
            }

            /// The variant as the game's own type `V`, when this is that game (`None` for another).
            pub fn variant_of<V: $crate::Variant>(&self) -> Option<V> {
                match self {
                    $( GameSpec::$kind(v) => (v as &dyn ::std::any::Any).downcast_ref::<V>().copied(), )*
                    GameSpec::Module(v) => (v as &dyn ::std::any::Any).downcast_ref::<V>().copied(),
                }
            }

            /// The record formats beyond PGN that apply to this game's records.
            pub fn record_formats(&self) -> &'static [$crate::RecordFormat] {
                match self {
                    $( GameSpec::$kind(_) => <$game as $crate::Game>::RECORD_FORMATS, )*
                    GameSpec::Module(_) => <$crate::module::ModuleGame as $crate::Game>::RECORD_FORMATS,
                }
            }

            /// Calls `v` with the start position of this game.
            pub fn visit<V: $crate::GameVisitor>(&self, v: V) -> V::Output {
                match *self {
                    $( GameSpec::$kind(variant) => v.visit(<$game as $crate::Game>::start(variant)), )*
                    GameSpec::Module(variant) => v.visit(<$crate::module::ModuleGame as $crate::Game>::start(variant)),
                }
            }

            /// Calls `v` with the start position of this game with `setup`'s dots put on top
            /// ([`Game::start_with_setup`]); an empty setup is [`GameSpec::visit`].
            ///
            /// # Errors
            /// [`SetupError`] for a setup the game cannot place (a dot off the board or on a taken
            /// point), or any setup in a game without setups.
            pub fn visit_with_setup<V: GameVisitor>(
                &self,
                setup: &$crate::Setup,
                v: V,
            ) -> Result<V::Output, $crate::SetupError> {
                match *self {
                    $( GameSpec::$kind(variant) => {
                        Ok(v.visit(<$game as $crate::Game>::start_with_setup(variant, setup)?))
                    } )*
                    GameSpec::Module(variant) => Ok(v.visit(
                        <$crate::module::ModuleGame as $crate::Game>::start_with_setup(variant, setup)?,
                    )),
                }
            }
        }

        /// The evaluation weights of every game (each an option of the built-in search engines), in
        /// the registry's order; a name two games share is listed once.
        pub fn weights() -> Vec<&'static $crate::Weight> {
            let mut out: Vec<&'static $crate::Weight> = Vec::new();
            $(
                for w in <<$game as $crate::Game>::Eval as $crate::Evaluation<$game>>::WEIGHTS {
                    if !out.iter().any(|o| o.name == w.name) {
                        out.push(w);
                    }
                }
            )*
            out
        }
    };
}

impl GameKind {
    /// Every game's name, in the registry's order.
    pub fn names() -> Vec<&'static str> {
        GameKind::ALL.iter().map(|k| k.name()).collect()
    }

    /// The default variant.
    pub fn default_spec(self) -> GameSpec {
        self.spec(&[])
            .expect("every game's default variant is valid")
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for GameKind {
    type Err = SpecError;
    fn from_str(s: &str) -> Result<Self, SpecError> {
        GameKind::ALL
            .iter()
            .copied()
            .chain([GameKind::Module])
            .find(|k| k.name() == s || k.aliases().contains(&s))
            .ok_or_else(|| SpecError::UnknownGame(s.to_string()))
    }
}

impl GameSpec {
    /// The default variant of `kind`.
    pub fn default_for(kind: GameKind) -> GameSpec {
        kind.default_spec()
    }
}

impl fmt::Display for GameSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.kind(), self.variant())
    }
}

impl FromStr for GameSpec {
    type Err = SpecError;

    /// Parses `connect4 7 6`, `tictactoe 4 4 3`, `dots 20 20 empty`, or a bare name for the default.
    fn from_str(s: &str) -> Result<Self, SpecError> {
        let mut words = s.split_whitespace();
        let kind: GameKind = words
            .next()
            .ok_or_else(|| SpecError::UnknownGame(String::new()))?
            .parse()?;
        let mut rest: Vec<Option<&str>> = words.map(Some).collect();
        let joined;
        if kind == GameKind::Module && rest.len() > 2 {
            // A module's variant is every word after its SHA-256.
            joined = rest[1..]
                .iter()
                .flatten()
                .copied()
                .collect::<Vec<_>>()
                .join(" ");
            rest.truncate(1);
            rest.push(Some(&joined));
        }
        if rest.len() > kind.params().len() {
            return Err(SpecError::Invalid(format!(
                "too many parameters for {kind}: {s:?} (its words: {})",
                kind.params()
                    .iter()
                    .map(|p| p.key)
                    .collect::<Vec<_>>()
                    .join(" ")
            )));
        }
        kind.spec(&rest)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::connect4::Connect4Variant;
    use crate::{Setup, SetupError};

    #[test]
    fn text_form_round_trips_and_defaults_fill_in() {
        for text in [
            "tictactoe 3 3 3",
            "tictactoe 4 5 4",
            "connect4 7 6",
            "connect4 9 9",
            "dots 39 32 cross",
            "dots 4 64 empty",
        ] {
            let spec: GameSpec = text.parse().unwrap();
            assert_eq!(spec.to_string(), text);
        }
        assert_eq!(
            "dots".parse::<GameSpec>().unwrap(),
            GameSpec::default_for(GameKind::Dots)
        );
        assert_eq!(
            "connect4 8".parse::<GameSpec>().unwrap(),
            GameSpec::Connect4(Connect4Variant {
                width: 8,
                height: 6
            })
        );
        assert_eq!(
            "connect-four".parse::<GameSpec>().unwrap().kind(),
            GameKind::Connect4
        );
    }

    #[test]
    fn out_of_range_variants_are_rejected_with_the_parameter_named() {
        let err = |s: &str| s.parse::<GameSpec>().unwrap_err().to_string();
        assert!(err("connect4 10 6").contains("width 10"));
        assert!(err("dots 3 20").contains("width 3"));
        assert!(err("dots 20 65").contains("height 65"));
        assert!(err("tictactoe 3 3 4").contains("k 4"));
        assert!(err("dots 20 20 spiral").contains("spiral"));
        assert!(err("connect4 x").contains("width \"x\" is not a number"));
        let unknown = err("chess");
        assert!(unknown.contains("unknown game") && unknown.contains("connect4"));
        assert!(err("connect4 7 6 4").contains("too many"));
    }

    #[test]
    fn setups_are_placed_on_dots_only_and_never_on_a_taken_point() {
        struct Board;
        impl GameVisitor for Board {
            type Output = String;
            fn visit<G: Game>(self, pos: G) -> String {
                pos.to_string()
            }
        }
        let setup = |s: &str| s.parse::<Setup>().unwrap();
        let spec: GameSpec = "dots 4 4 cross".parse().unwrap();
        assert_eq!(
            spec.visit_with_setup(&setup("first 1-1 second 4-4"), Board)
                .unwrap(),
            "...O\n.XO.\n.OX.\nX...\n"
        );
        // 2-2 and 3-3 hold the cross's second-player dots (R4).
        assert_eq!(
            spec.visit_with_setup(&setup("second 2-2"), Board),
            Err(SetupError::Taken("2-2".into()))
        );
        assert_eq!(
            spec.visit_with_setup(&setup("first 1-1 second 1-1"), Board),
            Err(SetupError::Taken("1-1".into()))
        );
        assert_eq!(
            spec.visit_with_setup(&setup("first 5-1"), Board),
            Err(SetupError::OffBoard("5-1".into()))
        );
        let c4: GameSpec = "connect4".parse().unwrap();
        assert_eq!(
            c4.visit_with_setup(&setup("first 1-1"), Board),
            Err(SetupError::NoSetups("connect4"))
        );
        assert!(c4.visit_with_setup(&Setup::default(), Board).is_ok());
    }

    #[test]
    fn a_spec_gives_its_variant_to_its_own_game_only() {
        let spec: GameSpec = "connect4 6 5".parse().unwrap();
        assert_eq!(
            spec.variant_of::<Connect4Variant>(),
            Some(Connect4Variant {
                width: 6,
                height: 5
            })
        );
        assert_eq!(spec.variant_of::<crate::dots::DotsVariant>(), None);
    }

    #[test]
    fn every_game_names_its_keys_and_its_weights_are_unique() {
        for &kind in GameKind::ALL {
            assert!(!kind.params().is_empty(), "{kind}");
            assert_eq!(kind.name().parse::<GameKind>().unwrap(), kind);
        }
        let w = weights();
        for (k, a) in w.iter().enumerate() {
            assert!(w[k + 1..].iter().all(|b| b.name != a.name), "{}", a.name);
        }
    }
}
