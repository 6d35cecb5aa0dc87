//! The host's side of the module ABI (`docs/modules.md`): a compiled module with its identity
//! ([`Loaded`]) and one instance of it running one game ([`Instance`]), every call bounded by fuel
//! and memory, every answer checked.
//!
//! The runtime is wasmi, an interpreter (the choice and its figures: `docs/modules.md`, "The
//! runtime"). A module may import nothing: it gets no files, clock or network.

use std::fmt;

use sha2::{Digest, Sha256};
use wasmi::{
    Config, Engine, Linker, Memory, Module, Store, StoreLimits, StoreLimitsBuilder, TypedFunc,
};

use crate::frame::Frame;
use crate::{Outcome, Player};

/// The most columns or rows of a module's board picture.
pub const MAX_SIDE: u16 = 256;

/// The ABI version this host speaks (`arena_abi`).
pub const ABI_VERSION: i32 = 1;

/// The resource limits of each instance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Fuel per call (about one unit per WebAssembly instruction): a call that needs more is a loop.
    pub fuel: u64,
    /// The most linear memory an instance may have, bytes.
    pub memory: usize,
}

impl Default for Limits {
    /// 50 million units of fuel per call (tens of milliseconds: a call runs on the arena's own thread,
    /// beside the other games' bots), 64 MiB of memory.
    fn default() -> Limits {
        Limits {
            fuel: 50_000_000,
            memory: 64 << 20,
        }
    }
}

/// What went wrong inside a module or at its boundary: the game cannot be judged and is voided. The
/// text names the module (its file name) and what it did.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{module}: {what}")]
pub struct ModuleError {
    /// What failed: `module FILE.wasm` or `referee WORDS` ([`Loaded::describe`]).
    pub module: String,
    /// What it did: trapped (and how), ran out of fuel, grew past its memory, broke the ABI.
    pub what: String,
}

/// A game's rules as loaded: a compiled module, its exports checked, or a referee program
/// ([`Program`]); what every game of it is started from ([`Loaded::open`]).
pub struct Loaded {
    rules: Rules,
    /// The label in messages: the module's file name, or the referee program's words.
    pub label: String,
    /// The identity in records and fingerprints, lower-case hex: the SHA-256 of the module's bytes, or
    /// of a referee program's words and files.
    pub sha256: String,
    /// The game's name (`arena_name`).
    pub name: String,
    /// The limits of its instances.
    pub limits: Limits,
}

enum Rules {
    Wasm { engine: Engine, module: Module },
    Program(Box<dyn Program>),
}

/// One running game of a module or a referee program: the calls of the ABI (`docs/modules.md`) or of
/// the referee protocol (`docs/referees.md`), each answer checked. [`Instance`] is a module's; a
/// referee program's is the arena's (`arena::referees`). A failed call is a [`ModuleError`]: the game is
/// void.
pub trait Judge: Send {
    /// Starts a game of `variant` (`""`: the default): `Ok(Err(reason))` when it is refused.
    ///
    /// # Errors
    /// [`ModuleError`] when the call fails or answers outside the ABI.
    fn start(&mut self, variant: &str) -> Result<Result<(), String>, ModuleError>;
    /// The variant's normal form.
    ///
    /// # Errors
    /// [`ModuleError`].
    fn variant(&mut self) -> Result<String, ModuleError>;
    /// The player to move.
    ///
    /// # Errors
    /// [`ModuleError`].
    fn turn(&mut self) -> Result<Player, ModuleError>;
    /// The legal moves' texts, separated by spaces.
    ///
    /// # Errors
    /// [`ModuleError`].
    fn legal(&mut self) -> Result<String, ModuleError>;
    /// Plays the move written `text`.
    ///
    /// # Errors
    /// [`ModuleError`].
    fn play(&mut self, text: &str) -> Result<Verdict, ModuleError>;
    /// Takes back the last move: `false` when the rules do not (the caller replays instead).
    ///
    /// # Errors
    /// [`ModuleError`].
    fn undo(&mut self) -> Result<bool, ModuleError>;
    /// The result once the game is over.
    ///
    /// # Errors
    /// [`ModuleError`].
    fn outcome(&mut self) -> Result<Option<Outcome>, ModuleError>;
    /// Each side's score, where the game keeps one.
    ///
    /// # Errors
    /// [`ModuleError`].
    fn score(&mut self) -> Result<Option<[u32; 2]>, ModuleError>;
    /// The board picture, checked ([`frame_from_json`]).
    ///
    /// # Errors
    /// [`ModuleError`].
    fn frame(&mut self) -> Result<Frame, ModuleError>;
    /// The game failed (a fault found by the caller, e.g. a replay judged differently): this judge
    /// plays no other game (a referee process is killed, not kept for the next one).
    fn discard(&mut self) {}
}

/// A referee program as the rules see it: what starts a game of it (a process of its own, or one
/// kept from an earlier game). Implemented by the arena, which owns processes; the games crate does
/// no I/O.
pub trait Program: Send + Sync {
    /// A judge with no game yet.
    ///
    /// # Errors
    /// [`ModuleError`]: the program cannot be started or does not answer as the protocol says.
    fn open(&self) -> Result<Box<dyn Judge>, ModuleError>;
}

/// Reads a board picture given as JSON (`arena_frame`'s text, a referee's `frame` answer) and checks it
/// ([`Frame::validate`], at most [`MAX_SIDE`] cells a side).
///
/// # Errors
/// What is wrong, for a [`ModuleError`]'s text.
pub fn frame_from_json(json: &str) -> Result<Frame, String> {
    let frame: Frame = serde_json::from_str(json).map_err(|e| format!("no frame: {e}"))?;
    frame.validate().map_err(|e| e.to_string())?;
    let (cols, rows) = (frame.board.cols, frame.board.rows);
    if cols > MAX_SIDE || rows > MAX_SIDE {
        return Err(format!(
            "a {cols} × {rows} board; at most {MAX_SIDE} × {MAX_SIDE}"
        ));
    }
    Ok(frame)
}

/// Whether `name` is a game's name: 1 to 32 lower-case letters, digits and `-`.
pub fn is_game_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 32
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

impl fmt::Debug for Loaded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Loaded")
            .field("label", &self.label)
            .field("sha256", &self.sha256)
            .field("name", &self.name)
            .finish()
    }
}

/// The exports of the ABI, by name and type.
const EXPORTS: &[(&str, &str)] = &[
    ("arena_abi", "() -> i32"),
    ("arena_alloc", "(i32) -> i32"),
    ("arena_name", "() -> i64"),
    ("arena_new", "(i32, i32) -> i32"),
    ("arena_variant", "() -> i64"),
    ("arena_turn", "() -> i32"),
    ("arena_legal", "() -> i64"),
    ("arena_play", "(i32, i32) -> i32"),
    ("arena_undo", "() -> i32"),
    ("arena_outcome", "() -> i32"),
    ("arena_score", "(i32) -> i32"),
    ("arena_frame", "() -> i64"),
    ("arena_reason", "() -> i64"),
];

impl Loaded {
    /// Compiles `bytes` and checks the module: no imports, every export of the ABI with its type, the
    /// ABI version, a name of lower-case letters, digits and `-`.
    ///
    /// # Errors
    /// [`ModuleError`] naming `label` and what is wrong.
    pub fn new(label: &str, bytes: &[u8], limits: Limits) -> Result<Loaded, ModuleError> {
        Loaded::with_sha256(label, bytes, limits, sha256(bytes))
    }

    /// [`Loaded::new`] of bytes whose SHA-256 (`sha256`) the caller has computed already.
    pub(crate) fn with_sha256(
        label: &str,
        bytes: &[u8],
        limits: Limits,
        sha256: String,
    ) -> Result<Loaded, ModuleError> {
        let err = |what: String| ModuleError {
            module: format!("module {label}"),
            what,
        };
        let mut config = Config::default();
        config.consume_fuel(true);
        let engine = Engine::new(&config);
        let module = Module::new(&engine, bytes)
            .map_err(|e| err(format!("is not a WebAssembly module: {e}")))?;
        if let Some(i) = module.imports().next() {
            return Err(err(format!(
                "imports {}.{}: a game module may import nothing (no files, clock or network)",
                i.module(),
                i.name()
            )));
        }
        let mut loaded = Loaded {
            rules: Rules::Wasm { engine, module },
            label: label.to_string(),
            sha256,
            name: String::new(),
            limits,
        };
        let mut inst = Instance::new(&loaded)?;
        let name = inst.text(inst.f.name, "arena_name")?;
        if !is_game_name(&name) {
            return Err(err(format!(
                "arena_name gave {name:?}: a name is 1 to 32 lower-case letters, digits and -"
            )));
        }
        loaded.name = name;
        Ok(loaded)
    }

    /// A referee program's rules: `program`, labelled `label` (its words), of identity `sha256`, whose
    /// game is `name` (its `hello`).
    ///
    /// # Errors
    /// [`ModuleError`] for a name that is not 1 to 32 lower-case letters, digits and `-`.
    pub fn program(
        label: &str,
        sha256: String,
        name: &str,
        program: Box<dyn Program>,
    ) -> Result<Loaded, ModuleError> {
        if !is_game_name(name) {
            return Err(ModuleError {
                module: format!("referee {label}"),
                what: format!(
                    "named its game {name:?}: a name is 1 to 32 lower-case letters, digits and -"
                ),
            });
        }
        Ok(Loaded {
            rules: Rules::Program(program),
            label: label.to_string(),
            sha256,
            name: name.to_string(),
            limits: Limits::default(),
        })
    }

    /// `module FILE.wasm` or `referee WORDS`: the rules in messages.
    pub fn describe(&self) -> String {
        match self.rules {
            Rules::Wasm { .. } => format!("module {}", self.label),
            Rules::Program(_) => format!("referee {}", self.label),
        }
    }

    /// A judge with no game yet: a new instance of the module, or a referee process.
    ///
    /// # Errors
    /// [`ModuleError`]: see [`Instance::new`] and [`Program::open`].
    pub fn open(&self) -> Result<Box<dyn Judge>, ModuleError> {
        match &self.rules {
            Rules::Wasm { .. } => Ok(Box::new(Instance::new(self)?)),
            Rules::Program(p) => p.open(),
        }
    }
}

/// The SHA-256 of `bytes`, lower-case hex.
pub fn sha256(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// One instance of a module: one game at a time.
pub struct Instance {
    store: Store<StoreLimits>,
    memory: Memory,
    label: String,
    fuel: u64,
    memory_limit: usize,
    f: Exports,
}

struct Exports {
    alloc: TypedFunc<i32, i32>,
    name: TypedFunc<(), i64>,
    new: TypedFunc<(i32, i32), i32>,
    variant: TypedFunc<(), i64>,
    turn: TypedFunc<(), i32>,
    legal: TypedFunc<(), i64>,
    play: TypedFunc<(i32, i32), i32>,
    undo: TypedFunc<(), i32>,
    outcome: TypedFunc<(), i32>,
    score: TypedFunc<i32, i32>,
    frame: TypedFunc<(), i64>,
    reason: TypedFunc<(), i64>,
}

/// A module's answer to a move: played, or refused with its reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    Played,
    /// The text is not a move of the game (`arena_play` 1).
    Unparsable(String),
    /// The move is not legal here (2).
    Illegal(String),
    /// The game is over (3).
    Over,
}

impl Instance {
    /// A new instance of `loaded`, with no game yet.
    ///
    /// # Errors
    /// [`ModuleError`]: an export missing or of the wrong type, another ABI version, a start function
    /// that traps.
    pub fn new(loaded: &Loaded) -> Result<Instance, ModuleError> {
        let err = |what: String| ModuleError {
            module: loaded.describe(),
            what,
        };
        let Rules::Wasm { engine, module } = &loaded.rules else {
            return Err(err("is a referee program, not a module".into()));
        };
        // One memory, few and small tables, one instance: the memory limit is the module's whole
        // footprint (wasmi allows many memories and tables of any size by default).
        let limits = StoreLimitsBuilder::new()
            .memory_size(loaded.limits.memory)
            .memories(1)
            .tables(4)
            .table_elements(1 << 16)
            .instances(1)
            .trap_on_grow_failure(true)
            .build();
        let mut store = Store::new(engine, limits);
        store.limiter(|l| l);
        store
            .set_fuel(loaded.limits.fuel)
            .map_err(|e| err(format!("{e}")))?;
        let linker = Linker::<StoreLimits>::new(engine);
        let instance = linker
            .instantiate_and_start(&mut store, module)
            .map_err(|e| err(format!("cannot be instantiated: {e}")))?;
        let memory = instance
            .get_memory(&store, "memory")
            .ok_or_else(|| err("exports no memory named \"memory\"".into()))?;
        macro_rules! func {
            ($name:literal) => {
                instance.get_typed_func(&store, $name).map_err(|_| {
                    let ty = EXPORTS.iter().find(|e| e.0 == $name).map_or("", |e| e.1);
                    err(format!(
                        "lacks the export {} {ty}, or it has another type",
                        $name
                    ))
                })?
            };
        }
        let abi: TypedFunc<(), i32> = func!("arena_abi");
        let f = Exports {
            alloc: func!("arena_alloc"),
            name: func!("arena_name"),
            new: func!("arena_new"),
            variant: func!("arena_variant"),
            turn: func!("arena_turn"),
            legal: func!("arena_legal"),
            play: func!("arena_play"),
            undo: func!("arena_undo"),
            outcome: func!("arena_outcome"),
            score: func!("arena_score"),
            frame: func!("arena_frame"),
            reason: func!("arena_reason"),
        };
        let mut inst = Instance {
            store,
            memory,
            label: loaded.describe(),
            fuel: loaded.limits.fuel,
            memory_limit: loaded.limits.memory,
            f,
        };
        let version = inst.call(&abi, (), "arena_abi")?;
        if version != ABI_VERSION {
            return Err(err(format!(
                "speaks ABI version {version}; this arena speaks {ABI_VERSION}"
            )));
        }
        Ok(inst)
    }

    fn err(&self, what: String) -> ModuleError {
        ModuleError {
            module: self.label.clone(),
            what,
        }
    }

    /// Calls `f` with a fresh tank of fuel.
    fn call<P: wasmi::WasmParams, R: wasmi::WasmResults>(
        &mut self,
        f: &TypedFunc<P, R>,
        args: P,
        name: &str,
    ) -> Result<R, ModuleError> {
        self.store
            .set_fuel(self.fuel)
            .map_err(|e| self.err(format!("{e}")))?;
        f.call(&mut self.store, args).map_err(|e| {
            let what = match e.as_trap_code() {
                Some(wasmi::TrapCode::OutOfFuel) => {
                    format!("{name} ran out of fuel ({} units: a loop?)", self.fuel)
                }
                Some(wasmi::TrapCode::GrowthOperationLimited) => format!(
                    "{name} grew its memory past the limit of {} MiB",
                    self.memory_limit >> 20
                ),
                Some(wasmi::TrapCode::StackOverflow) => format!("{name} exhausted the call stack"),
                Some(wasmi::TrapCode::UnreachableCodeReached) => {
                    format!("{name} trapped (unreachable: a panic?)")
                }
                Some(code) => format!("{name} trapped: {code}"),
                None => format!("{name} failed: {e}"),
            };
            self.err(what)
        })
    }

    /// Writes `text` into a buffer of the module's (`arena_alloc`): its address and length.
    fn input(&mut self, text: &str) -> Result<(i32, i32), ModuleError> {
        let len = i32::try_from(text.len()).map_err(|_| self.err("input too long".into()))?;
        let f = self.f.alloc;
        let ptr = self.call(&f, len, "arena_alloc")?;
        self.memory
            .write(&mut self.store, ptr as u32 as usize, text.as_bytes())
            .map_err(|_| {
                self.err(format!(
                    "arena_alloc({len}) gave address {ptr}, outside its memory"
                ))
            })?;
        Ok((ptr, len))
    }

    /// Reads the text of a packed answer (address in the high 32 bits, length in the low 32).
    fn read(&self, packed: i64, name: &str) -> Result<String, ModuleError> {
        let (ptr, len) = (
            (packed as u64 >> 32) as usize,
            (packed as u64 & 0xffff_ffff) as usize,
        );
        let data = self.memory.data(&self.store);
        let bytes = data.get(ptr..ptr.saturating_add(len)).ok_or_else(|| {
            self.err(format!(
                "{name} gave text at {ptr}..{} outside its memory of {} bytes",
                ptr.saturating_add(len),
                data.len()
            ))
        })?;
        String::from_utf8(bytes.to_vec())
            .map_err(|_| self.err(format!("{name} gave text that is not UTF-8")))
    }

    fn text(&mut self, f: TypedFunc<(), i64>, name: &str) -> Result<String, ModuleError> {
        let packed = self.call(&f, (), name)?;
        self.read(packed, name)
    }

    /// Starts a game of `variant` (`""`: the default): `Ok(Err(reason))` when the module refuses it.
    ///
    /// # Errors
    /// [`ModuleError`] when the call fails or answers outside the ABI.
    pub fn start(&mut self, variant: &str) -> Result<Result<(), String>, ModuleError> {
        let (ptr, len) = self.input(variant)?;
        let f = self.f.new;
        match self.call(&f, (ptr, len), "arena_new")? {
            0 => Ok(Ok(())),
            1 => Ok(Err(self.text(self.f.reason, "arena_reason")?)),
            n => Err(self.err(format!("arena_new answered {n}: expected 0 or 1"))),
        }
    }

    /// The variant's normal form (`arena_variant`).
    ///
    /// # Errors
    /// [`ModuleError`].
    pub fn variant(&mut self) -> Result<String, ModuleError> {
        self.text(self.f.variant, "arena_variant")
    }

    /// The player to move.
    ///
    /// # Errors
    /// [`ModuleError`], also for an answer other than 0 or 1.
    pub fn turn(&mut self) -> Result<Player, ModuleError> {
        let f = self.f.turn;
        match self.call(&f, (), "arena_turn")? {
            0 => Ok(Player::First),
            1 => Ok(Player::Second),
            n => Err(self.err(format!("arena_turn answered {n}: expected 0 or 1"))),
        }
    }

    /// The legal moves' texts, separated by single spaces.
    ///
    /// # Errors
    /// [`ModuleError`].
    pub fn legal(&mut self) -> Result<String, ModuleError> {
        self.text(self.f.legal, "arena_legal")
    }

    /// Plays the move written `text`.
    ///
    /// # Errors
    /// [`ModuleError`], also for an answer outside 0..=3.
    pub fn play(&mut self, text: &str) -> Result<Verdict, ModuleError> {
        let (ptr, len) = self.input(text)?;
        let f = self.f.play;
        match self.call(&f, (ptr, len), "arena_play")? {
            0 => Ok(Verdict::Played),
            1 => Ok(Verdict::Unparsable(
                self.text(self.f.reason, "arena_reason")?,
            )),
            2 => Ok(Verdict::Illegal(self.text(self.f.reason, "arena_reason")?)),
            3 => Ok(Verdict::Over),
            n => Err(self.err(format!("arena_play answered {n}: expected 0 to 3"))),
        }
    }

    /// Takes back the last move: `false` when the module does not (the caller replays instead).
    ///
    /// # Errors
    /// [`ModuleError`].
    pub fn undo(&mut self) -> Result<bool, ModuleError> {
        let f = self.f.undo;
        match self.call(&f, (), "arena_undo")? {
            0 => Ok(true),
            1 => Ok(false),
            n => Err(self.err(format!("arena_undo answered {n}: expected 0 or 1"))),
        }
    }

    /// The result once the game is over.
    ///
    /// # Errors
    /// [`ModuleError`], also for an answer outside -1..=2.
    pub fn outcome(&mut self) -> Result<Option<Outcome>, ModuleError> {
        let f = self.f.outcome;
        match self.call(&f, (), "arena_outcome")? {
            -1 => Ok(None),
            0 => Ok(Some(Outcome::Win(Player::First))),
            1 => Ok(Some(Outcome::Win(Player::Second))),
            2 => Ok(Some(Outcome::Draw)),
            n => Err(self.err(format!("arena_outcome answered {n}: expected -1 to 2"))),
        }
    }

    /// Each side's score, where the game keeps one.
    ///
    /// # Errors
    /// [`ModuleError`], also for one side with a score and the other without.
    pub fn score(&mut self) -> Result<Option<[u32; 2]>, ModuleError> {
        let f = self.f.score;
        let a = self.call(&f, 0, "arena_score")?;
        let b = self.call(&f, 1, "arena_score")?;
        match (u32::try_from(a), u32::try_from(b)) {
            (Ok(a), Ok(b)) => Ok(Some([a, b])),
            _ if a == -1 && b == -1 => Ok(None),
            _ => Err(self.err(format!(
                "arena_score answered {a} and {b}: expected two scores of 0 or more, or -1 twice"
            ))),
        }
    }

    /// The board picture, read and checked ([`Frame::validate`]).
    ///
    /// # Errors
    /// [`ModuleError`]: the JSON is not a frame, or the frame breaks the vocabulary's rules.
    pub fn frame(&mut self) -> Result<Frame, ModuleError> {
        let json = self.text(self.f.frame, "arena_frame")?;
        frame_from_json(&json).map_err(|e| self.err(format!("arena_frame gave {e}")))
    }
}

impl Judge for Instance {
    fn start(&mut self, variant: &str) -> Result<Result<(), String>, ModuleError> {
        Instance::start(self, variant)
    }
    fn variant(&mut self) -> Result<String, ModuleError> {
        Instance::variant(self)
    }
    fn turn(&mut self) -> Result<Player, ModuleError> {
        Instance::turn(self)
    }
    fn legal(&mut self) -> Result<String, ModuleError> {
        Instance::legal(self)
    }
    fn play(&mut self, text: &str) -> Result<Verdict, ModuleError> {
        Instance::play(self, text)
    }
    fn undo(&mut self) -> Result<bool, ModuleError> {
        Instance::undo(self)
    }
    fn outcome(&mut self) -> Result<Option<Outcome>, ModuleError> {
        Instance::outcome(self)
    }
    fn score(&mut self) -> Result<Option<[u32; 2]>, ModuleError> {
        Instance::score(self)
    }
    fn frame(&mut self) -> Result<Frame, ModuleError> {
        Instance::frame(self)
    }
}
