//! Games the arena has never seen: a WebAssembly **game module** gives the rules, and [`ModuleGame`]
//! plays them through the same [`Game`] trait as the built-in games, so the referee, the records, the
//! report and the built-in engines need nothing else.
//!
//! The ABI, the SDK that writes it (`modules/sdk`) and the example module are documented in
//! `docs/modules.md`. A module is compiled once ([`load`], which checks its exports) and kept for the
//! life of the process, found again by its SHA-256 ([`find`]): a record names its game as
//! `module <sha256> <variant>` ([`ModuleVariant`]'s text form), so that every reader re-referees it
//! through the very module it was played with.
//!
//! A position is its variant and its moves; the module's instance is a cache of one position, shared
//! by the copies of a position and brought up to date (replayed) when another copy uses it. A module
//! that traps, runs out of fuel or memory, or answers outside the ABI **faults** the game
//! ([`Game::fault`]): the position then reads as over and every caller that reports a result asks
//! `fault` first (the referee voids the game).

mod check;
mod runtime;

use std::collections::HashMap;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::str::FromStr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

pub use check::{check, CheckFailure, Checked, MAX_PLIES};
pub use runtime::sha256;
pub use runtime::{
    frame_from_json, is_game_name, Instance, Judge, Limits, Loaded, ModuleError, Program, Verdict,
    ABI_VERSION, MAX_SIDE,
};

use crate::eval::{Evaluation, Score, Weight, Weights};
use crate::frame::{Board, Frame, Text};
use crate::variant::{Param, Variant};
use crate::{Game, Outcome, ParseMoveError, PlayError, Player, SpecError};

/// The modules this process has loaded, by SHA-256, and the variant texts in use: a module is
/// compiled once and lives as long as the process (a [`ModuleVariant`] is `Copy` and points at it).
struct Table {
    modules: HashMap<String, &'static Loaded>,
    variants: HashMap<String, &'static str>,
    /// (module's SHA-256, words as given) → the normal form, for variants already checked.
    checked: HashMap<(String, String), &'static str>,
}

fn table() -> &'static Mutex<Table> {
    static TABLE: OnceLock<Mutex<Table>> = OnceLock::new();
    TABLE.get_or_init(|| {
        Mutex::new(Table {
            modules: HashMap::new(),
            variants: HashMap::new(),
            checked: HashMap::new(),
        })
    })
}

/// Compiles and checks the module `bytes` (named `label` in messages, its file name), or finds it when
/// the same bytes were loaded before (the first label and limits stay).
///
/// # Errors
/// [`ModuleError`]: not WebAssembly, an import, an export missing or of the wrong type, another ABI
/// version, a bad name.
pub fn load(label: &str, bytes: &[u8], limits: Limits) -> Result<&'static Loaded, ModuleError> {
    let sha = runtime::sha256(bytes);
    if let Some(m) = find(&sha) {
        return Ok(m);
    }
    let loaded: &'static Loaded = Box::leak(Box::new(Loaded::with_sha256(
        label,
        bytes,
        limits,
        sha.clone(),
    )?));
    let mut t = table().lock().unwrap_or_else(|e| e.into_inner());
    Ok(*t.modules.entry(sha).or_insert(loaded))
}

/// Keeps `loaded` (a referee program's rules, [`Loaded::program`]) for the life of the process, or
/// finds the rules of the same identity kept before (which stay).
pub fn register(loaded: Loaded) -> &'static Loaded {
    if let Some(m) = find(&loaded.sha256) {
        return m;
    }
    let sha = loaded.sha256.clone();
    let loaded: &'static Loaded = Box::leak(Box::new(loaded));
    let mut t = table().lock().unwrap_or_else(|e| e.into_inner());
    t.modules.entry(sha).or_insert(loaded)
}

/// The module of SHA-256 `sha256` (lower-case hex), if this process has loaded it.
pub fn find(sha256: &str) -> Option<&'static Loaded> {
    let t = table().lock().unwrap_or_else(|e| e.into_inner());
    t.modules.get(sha256).copied()
}

/// The module named `name` (`arena_name`) among those this process has loaded: how a bot started with
/// `--module FILE` knows the game of the protocol's `game gomoku 15 15`.
pub fn named(name: &str) -> Option<&'static Loaded> {
    let t = table().lock().unwrap_or_else(|e| e.into_inner());
    let mut found: Vec<&'static Loaded> = t
        .modules
        .values()
        .copied()
        .filter(|m| m.name == name)
        .collect();
    found.sort_by(|a, b| a.sha256.cmp(&b.sha256));
    found.first().copied()
}

fn intern(text: &str) -> &'static str {
    let mut t = table().lock().unwrap_or_else(|e| e.into_inner());
    if let Some(s) = t.variants.get(text) {
        return s;
    }
    let s: &'static str = Box::leak(text.to_string().into_boxed_str());
    t.variants.insert(text.to_string(), s);
    s
}

/// A game module with one of its variants: the [`Variant`] of [`ModuleGame`].
///
/// Text form (the words after `module` in a record or the protocol's `game` command): the module's
/// SHA-256, then the variant's words in the module's normal form (`arena_variant`), e.g.
/// `6f0c…e1 7 6`.
#[derive(Clone, Copy)]
pub struct ModuleVariant {
    module: &'static Loaded,
    words: &'static str,
}

impl ModuleVariant {
    /// The variant `words` of `module` (`""`: its default), checked by starting a game of it and put
    /// in the module's normal form.
    ///
    /// # Errors
    /// [`SpecError::Param`] of key `variant` when the module refuses the variant (its reason), or
    /// `module` when it faults.
    pub fn new(module: &'static Loaded, words: &str) -> Result<ModuleVariant, SpecError> {
        // Every record of a folder names its variant: start a game of it once per process.
        let key = (module.sha256.clone(), words.to_string());
        let known = table()
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .checked
            .get(&key)
            .copied();
        if let Some(words) = known {
            return Ok(ModuleVariant { module, words });
        }
        let fault = |e: ModuleError| SpecError::Param {
            key: "module",
            message: e.to_string(),
        };
        let mut inst = module.open().map_err(fault)?;
        match inst.start(words.trim()).map_err(fault)? {
            Ok(()) => {}
            Err(reason) => {
                return Err(SpecError::Param {
                    key: "variant",
                    message: format!(
                        "{} ({}) refuses the variant {words:?}: {reason}",
                        module.name, module.label
                    ),
                })
            }
        }
        let normal = intern(inst.variant().map_err(fault)?.trim());
        let mut t = table().lock().unwrap_or_else(|e| e.into_inner());
        t.checked.insert(key, normal);
        Ok(ModuleVariant {
            module,
            words: normal,
        })
    }

    /// The module.
    pub fn module(&self) -> &'static Loaded {
        self.module
    }

    /// The variant's words in the module's normal form.
    pub fn words(&self) -> &'static str {
        self.words
    }
}

impl PartialEq for ModuleVariant {
    fn eq(&self, other: &Self) -> bool {
        self.module.sha256 == other.module.sha256 && self.words == other.words
    }
}

impl Eq for ModuleVariant {}

impl Hash for ModuleVariant {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.module.sha256.hash(state);
        self.words.hash(state);
    }
}

impl fmt::Debug for ModuleVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "ModuleVariant({} {:?}, {})",
            self.module.name, self.words, self.module.label
        )
    }
}

impl fmt::Display for ModuleVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.words.is_empty() {
            write!(f, "{}", self.module.sha256)
        } else {
            write!(f, "{} {}", self.module.sha256, self.words)
        }
    }
}

impl Variant for ModuleVariant {
    const NAME: &'static str = "module";
    const PARAMS: &'static [Param] = &[
        Param {
            key: "module",
            doc: "the game module's file (.wasm), relative to the config's folder; in a record, its SHA-256",
        },
        Param {
            key: "variant",
            doc: "the variant's words as the module reads them; default: the module's default",
        },
    ];

    /// `params[0]`: the SHA-256 of a module this process has loaded ([`load`]); `params[1]`: the
    /// variant's words.
    fn from_params(params: &[Option<&str>]) -> Result<Self, SpecError> {
        let sha = params.first().copied().flatten().unwrap_or("");
        let module = find(sha).ok_or_else(|| SpecError::Param {
            key: "module",
            message: if sha.is_empty() {
                "a module game needs its module (module = \"FILE.wasm\")".to_string()
            } else {
                format!("module {sha} is not loaded (a record's module is read from its results folder)")
            },
        })?;
        ModuleVariant::new(module, params.get(1).copied().flatten().unwrap_or(""))
    }
}

/// A move of a module's game: its text, as the module writes it (1 to 32 printable ASCII characters,
/// no spaces). Whether it is a move of the game at all is the module's to say, when it is played.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct ModuleMove {
    len: u8,
    text: [u8; ModuleMove::MAX],
}

impl ModuleMove {
    /// The longest move text, bytes.
    pub const MAX: usize = 32;

    /// The text.
    pub fn as_str(&self) -> &str {
        std::str::from_utf8(&self.text[..usize::from(self.len)]).unwrap_or("")
    }
}

impl fmt::Debug for ModuleMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ModuleMove({:?})", self.as_str())
    }
}

impl fmt::Display for ModuleMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for ModuleMove {
    type Err = ParseMoveError;

    fn from_str(s: &str) -> Result<ModuleMove, ParseMoveError> {
        if s.is_empty() {
            return Err(ParseMoveError::new(s, "empty move"));
        }
        if s.len() > ModuleMove::MAX || !s.bytes().all(|b| b.is_ascii_graphic()) {
            return Err(ParseMoveError::new(
                s,
                "a module game's move is 1 to 32 printable ASCII characters without spaces",
            ));
        }
        let mut text = [0; ModuleMove::MAX];
        text[..s.len()].copy_from_slice(s.as_bytes());
        Ok(ModuleMove {
            len: s.len() as u8,
            text,
        })
    }
}

/// The instance shared by a position and its copies: the moves of the position it holds (`held`), the
/// copy that last used it (`owner`, whose moves are `held` as long as it stays the owner), and the
/// fault that ended the game, if any.
struct Shared {
    inst: Option<Box<dyn Judge>>,
    held: Vec<ModuleMove>,
    owner: u64,
    fault: Option<String>,
}

impl Shared {
    /// Records the game's fault (the first one stays) and ends the instance: a module's is dropped, a
    /// referee process is killed rather than given another game ([`Judge::discard`]).
    fn fail(&mut self, what: String) {
        self.fault.get_or_insert(what);
        if let Some(mut j) = self.inst.take() {
            j.discard();
        }
        self.held.clear();
        self.owner = 0;
    }
}

fn next_id() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// A position of a module's game: its variant and the moves played, the rules asked of the module.
pub struct ModuleGame {
    variant: ModuleVariant,
    moves: Vec<ModuleMove>,
    id: u64,
    shared: Arc<Mutex<Shared>>,
}

impl Clone for ModuleGame {
    /// An independent position with the same moves; it shares the instance (replayed when it is used).
    fn clone(&self) -> Self {
        ModuleGame {
            variant: self.variant,
            moves: self.moves.clone(),
            id: next_id(),
            shared: Arc::clone(&self.shared),
        }
    }
}

impl PartialEq for ModuleGame {
    fn eq(&self, other: &Self) -> bool {
        self.variant == other.variant && self.moves == other.moves
    }
}

impl Eq for ModuleGame {}

impl Hash for ModuleGame {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.variant.hash(state);
        self.moves.hash(state);
    }
}

impl fmt::Debug for ModuleGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let moves: Vec<&str> = self.moves.iter().map(ModuleMove::as_str).collect();
        write!(f, "ModuleGame({:?}, {})", self.variant, moves.join(" "))
    }
}

impl ModuleGame {
    /// Runs `f` on the instance brought to this position; on a fault keeps it and gives `default`.
    fn with<R>(&self, default: R, f: impl FnOnce(&mut dyn Judge) -> Result<R, ModuleError>) -> R {
        let mut sh = self.shared.lock().unwrap_or_else(|e| e.into_inner());
        if sh.fault.is_some() {
            return default;
        }
        let result = self
            .sync(&mut sh)
            .and_then(|()| f(sh.inst.as_deref_mut().expect("synced")));
        match result {
            Ok(r) => r,
            Err(e) => {
                sh.fail(e.to_string());
                default
            }
        }
    }

    /// Brings the instance to this position: nothing when it holds it, else back (undo) to the moves
    /// the two have in common and forward through the rest, or a new game and every move where the
    /// module cannot undo. Copies used in turn (a search's parent and child) cost a move or two.
    fn sync(&self, sh: &mut Shared) -> Result<(), ModuleError> {
        if sh.owner == self.id && sh.inst.is_some() {
            return Ok(());
        }
        let module = self.variant.module;
        let err = |what: String| ModuleError {
            module: module.describe(),
            what,
        };
        let Shared { inst, held, .. } = sh;
        let fresh = inst.is_none();
        if fresh {
            *inst = Some(module.open()?);
        }
        let inst = inst.as_mut().expect("just made");
        let mut common = held
            .iter()
            .zip(&self.moves)
            .take_while(|(a, b)| a == b)
            .count();
        if fresh {
            common = 0;
        }
        while held.len() > common {
            if !inst.undo()? {
                common = 0;
                break;
            }
            held.pop();
        }
        if fresh || (common == 0 && !held.is_empty()) {
            if let Err(reason) = inst.start(self.variant.words)? {
                return Err(err(format!(
                    "refused its own variant {:?} on a new game: {reason}",
                    self.variant.words
                )));
            }
            held.clear();
        }
        for (k, m) in self.moves.iter().enumerate().skip(held.len()) {
            match inst.play(m.as_str())? {
                Verdict::Played => held.push(*m),
                v => {
                    return Err(err(format!(
                        "refused move {} ({m}) on a replay, which it had accepted ({v:?}): it is not deterministic",
                        k + 1
                    )))
                }
            }
        }
        sh.owner = self.id;
        Ok(())
    }

    /// Plays `m` on the instance: the module's verdict (a fault gives [`Verdict::Over`]).
    fn put(&mut self, m: ModuleMove) -> Verdict {
        let shared = Arc::clone(&self.shared);
        let mut sh = shared.lock().unwrap_or_else(|e| e.into_inner());
        if sh.fault.is_some() {
            return Verdict::Over;
        }
        let result = self
            .sync(&mut sh)
            .and_then(|()| sh.inst.as_deref_mut().expect("synced").play(m.as_str()));
        match result {
            Ok(Verdict::Played) => {
                self.moves.push(m);
                sh.held.push(m);
                Verdict::Played
            }
            Ok(v) => v,
            Err(e) => {
                sh.fail(e.to_string());
                Verdict::Over
            }
        }
    }

    /// The moves played, as texts.
    pub fn moves(&self) -> impl Iterator<Item = &str> {
        self.moves.iter().map(ModuleMove::as_str)
    }
}

impl fmt::Display for ModuleGame {
    /// The board of the module's frame as text: a row a line from the top, `X` and `O` for the pieces
    /// of the first and second player, `*` for nobody's, `.` for empty.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let frame = self.frame();
        let (cols, rows) = (usize::from(frame.board.cols), usize::from(frame.board.rows));
        let mut grid = vec![vec!['.'; cols]; rows];
        for p in &frame.pieces {
            let c = match p.owner {
                Some(Player::First) => 'X',
                Some(Player::Second) => 'O',
                None => '*',
            };
            if let Some(cell) = grid
                .get_mut(usize::from(p.y))
                .and_then(|r| r.get_mut(usize::from(p.x)))
            {
                *cell = c;
            }
        }
        for row in grid.iter().rev() {
            writeln!(f, "{}", row.iter().collect::<String>())?;
        }
        Ok(())
    }
}

impl Game for ModuleGame {
    type Move = ModuleMove;
    type Variant = ModuleVariant;
    type Eval = ScoreEval;
    const LEGEND: &'static str =
        "X first player, O second; a move is written as the game module writes it";
    const ALTERNATES: bool = false;

    fn start(variant: ModuleVariant) -> ModuleGame {
        let id = next_id();
        ModuleGame {
            variant,
            moves: Vec::new(),
            id,
            shared: Arc::new(Mutex::new(Shared {
                inst: None,
                held: Vec::new(),
                owner: 0,
                fault: None,
            })),
        }
    }

    fn variant(&self) -> ModuleVariant {
        self.variant
    }

    fn turn(&self) -> Player {
        self.with(Player::First, |j| j.turn())
    }

    fn ply(&self) -> usize {
        self.moves.len()
    }

    fn legal_moves_into(&self, out: &mut Vec<ModuleMove>) {
        let label = self.variant.module.describe();
        let moves = self.with(Vec::new(), |inst| {
            inst.legal()?
                .split(' ')
                .filter(|w| !w.is_empty())
                .map(|w| {
                    w.parse::<ModuleMove>().map_err(|e| ModuleError {
                        module: label.clone(),
                        what: format!("arena_legal gave {e}"),
                    })
                })
                .collect::<Result<Vec<_>, _>>()
        });
        out.extend(moves);
    }

    /// Asks the module: plays `m` on the instance and takes it back (where the module cannot, the
    /// instance is replayed at its next use).
    fn check(&self, m: ModuleMove) -> Result<(), PlayError> {
        let (verdict, undone) = self.with((Verdict::Over, true), |inst| {
            let v = inst.play(m.as_str())?;
            let undone = v != Verdict::Played || inst.undo()?;
            Ok((v, undone))
        });
        if !undone {
            // The instance holds the move played: replayed at the next use.
            let mut sh = self.shared.lock().unwrap_or_else(|e| e.into_inner());
            sh.held.push(m);
            sh.owner = 0;
        }
        match verdict {
            Verdict::Played => Ok(()),
            v => Err(refusal(v)),
        }
    }

    /// One call to the module, not [`check`](Game::check) and then a play. A module that says the game
    /// is over while its outcome says it goes on breaks the ABI: a fault, not the bot's illegal move.
    fn play(&mut self, m: ModuleMove) -> Result<(), PlayError> {
        match self.put(m) {
            Verdict::Played => Ok(()),
            Verdict::Over => {
                if self.fault().is_none() && self.outcome().is_none() {
                    let mut sh = self.shared.lock().unwrap_or_else(|e| e.into_inner());
                    sh.fail(format!(
                        "{}: arena_play answered 3 (the game is over) while arena_outcome says it goes on",
                        self.variant.module.describe()
                    ));
                }
                Err(PlayError::GameOver)
            }
            v => {
                // A refusal is a bot's loss: the rules must not list the move they refuse (a referee
                // that judges a move one way in one game and another way in the next).
                if self.fault().is_none() && self.legal_moves().contains(&m) {
                    let mut sh = self.shared.lock().unwrap_or_else(|e| e.into_inner());
                    sh.fail(format!(
                        "{}: refused the move {m} ({v:?}) that its own legal moves list: its rules \
                         contradict themselves",
                        self.variant.module.describe()
                    ));
                    return Err(PlayError::GameOver);
                }
                Err(refusal(v))
            }
        }
    }

    /// The move is kept even when the module refuses it or fails (the game then reads as faulted and
    /// over), so that [`undo`](Game::undo) stays symmetric for a search.
    fn play_unchecked(&mut self, m: ModuleMove) {
        match self.put(m) {
            Verdict::Played => {}
            v => {
                self.moves.push(m);
                let mut sh = self.shared.lock().unwrap_or_else(|e| e.into_inner());
                // The instance does not hold this position (it refused the move).
                sh.owner = 0;
                if let Verdict::Unparsable(r) | Verdict::Illegal(r) = v {
                    if sh.fault.is_none() {
                        let who = self.variant.module.describe();
                        sh.fail(format!(
                            "{who}: an illegal move {m} was played unchecked: {r}"
                        ));
                    }
                }
            }
        }
    }

    fn undo(&mut self) {
        self.moves.pop().expect("undo at the start position");
        let shared = Arc::clone(&self.shared);
        let mut sh = shared.lock().unwrap_or_else(|e| e.into_inner());
        if sh.owner == self.id && sh.fault.is_none() && sh.held.len() == self.moves.len() + 1 {
            match sh.inst.as_deref_mut().map(|j| j.undo()) {
                Some(Ok(true)) => {
                    sh.held.pop();
                }
                // The module cannot undo: the next use brings the instance back.
                Some(Ok(false)) | None => sh.owner = 0,
                Some(Err(e)) => sh.fail(e.to_string()),
            }
        } else if sh.owner == self.id {
            sh.owner = 0;
        }
    }

    /// A faulted game reads as a draw (see [`Game::fault`]).
    fn outcome(&self) -> Option<Outcome> {
        self.with(Some(Outcome::Draw), |j| j.outcome())
    }

    fn score(&self) -> Option<[u32; 2]> {
        self.with(None, |j| j.score())
    }

    fn frame(&self) -> Frame {
        let broken = || {
            let mut f = Frame::new(Board {
                cols: 1,
                rows: 1,
                ..Board::default()
            });
            f.panel.push(Text::new("the game module failed", None));
            f
        };
        self.with(broken(), |j| j.frame())
    }

    fn fault(&self) -> Option<String> {
        self.shared
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .fault
            .clone()
    }
}

/// The evaluation of the built-in engines in a module's game: the module's score
/// ([`Game::score`]: captures, seeds in a store), the side to move's minus the other's, 100 a point;
/// 0 where the game keeps no score (then only finished games count, as with
/// [`NoEvaluation`](crate::NoEvaluation)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ScoreEval;

impl Evaluation<ModuleGame> for ScoreEval {
    const WEIGHTS: &'static [Weight] = &[];

    fn new(_: &ModuleGame, _: &Weights) -> Self {
        ScoreEval
    }

    fn evaluate(&self, pos: &ModuleGame) -> Score {
        match pos.score() {
            Some(s) => {
                let me = pos.turn().index();
                (i64::from(s[me]) - i64::from(s[1 - me]))
                    .saturating_mul(100)
                    .clamp(-1_000_000, 1_000_000) as Score
            }
            None => 0,
        }
    }
}

fn refusal(v: Verdict) -> PlayError {
    match v {
        Verdict::Played => unreachable!("not a refusal"),
        Verdict::Unparsable(r) | Verdict::Illegal(r) => PlayError::Refused(r),
        Verdict::Over => PlayError::GameOver,
    }
}
