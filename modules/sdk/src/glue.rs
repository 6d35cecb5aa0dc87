//! What the exports of [`export_game!`](crate::export_game) do, over one game at a time: the position
//! stack (undo), the input buffer the host writes into, and the text the host reads back.
//!
//! Text goes out as one `i64`: the address in the high 32 bits, the length in bytes in the low 32
//! (`docs/modules.md`, "Text"); it stays valid until the next call.

use crate::{Game, Outcome, Side};

/// The state behind the exports: every position since the start (the last is the current one), the
/// buffers, and the reason of the last refusal.
pub struct Host<G: Game> {
    stack: Vec<G>,
    input: Vec<u8>,
    out: Vec<u8>,
    reason: String,
    moves: Vec<G::Move>,
}

impl<G: Game> Default for Host<G> {
    fn default() -> Self {
        Host::new()
    }
}

impl<G: Game> Host<G> {
    /// No game yet.
    pub fn new() -> Host<G> {
        Host {
            stack: Vec::new(),
            input: Vec::new(),
            out: Vec::new(),
            reason: String::new(),
            moves: Vec::new(),
        }
    }

    /// A buffer of `len` bytes for the host's input; its address.
    pub fn alloc(&mut self, len: i32) -> i32 {
        self.input.clear();
        self.input.resize(len.max(0) as usize, 0);
        self.input.as_ptr() as usize as i32
    }

    /// Keeps `text` as the output and returns its address and length, packed.
    pub fn text(&mut self, text: String) -> i64 {
        self.out = text.into_bytes();
        ((self.out.as_ptr() as usize as u64) << 32 | self.out.len() as u64) as i64
    }

    fn input(&self, ptr: i32, len: i32) -> String {
        let start = ptr as usize - self.input.as_ptr() as usize;
        let bytes = self
            .input
            .get(start..start + len.max(0) as usize)
            .unwrap_or(&[]);
        String::from_utf8_lossy(bytes).into_owned()
    }

    fn refuse(&mut self, code: i32, reason: String) -> i32 {
        self.reason = reason;
        code
    }

    fn current(&self) -> &G {
        self.stack.last().expect("arena_new before any other call")
    }
}

/// `arena_new`: 0 when the variant's start position is set up, 1 when refused (the reason kept).
pub fn new<G: Game>(h: &mut Host<G>, ptr: i32, len: i32) -> i32 {
    let variant = h.input(ptr, len);
    match G::start(variant.trim()) {
        Ok(g) => {
            h.stack.clear();
            h.stack.push(g);
            0
        }
        Err(e) => h.refuse(1, e),
    }
}

/// `arena_variant`: the variant's normal form.
pub fn variant<G: Game>(h: &mut Host<G>) -> i64 {
    let v = h.current().variant();
    h.text(v)
}

/// `arena_turn`: 0 or 1.
pub fn turn<G: Game>(h: &mut Host<G>) -> i32 {
    h.current().turn().index() as i32
}

/// `arena_legal`: the legal moves, one space between them.
pub fn legal<G: Game>(h: &mut Host<G>) -> i64 {
    let mut moves = std::mem::take(&mut h.moves);
    moves.clear();
    let g = h.current();
    g.legal_moves(&mut moves);
    let mut text = String::new();
    for (k, &m) in moves.iter().enumerate() {
        if k > 0 {
            text.push(' ');
        }
        text.push_str(&g.move_text(m));
    }
    h.moves = moves;
    h.text(text)
}

/// `arena_play`: 0 played, 1 not a move of the game, 2 illegal here, 3 the game is over.
pub fn play<G: Game>(h: &mut Host<G>, ptr: i32, len: i32) -> i32 {
    let text = h.input(ptr, len);
    let g = h.current();
    if g.outcome().is_some() {
        return h.refuse(3, "the game is over".to_string());
    }
    let m = match g.parse_move(&text) {
        Ok(m) => m,
        Err(e) => return h.refuse(1, e),
    };
    let mut next = g.clone();
    match next.play(m) {
        Ok(()) => {
            h.stack.push(next);
            0
        }
        Err(e) => h.refuse(2, e),
    }
}

/// `arena_undo`: 0 when the last move is taken back, 1 at the start position.
pub fn undo<G: Game>(h: &mut Host<G>) -> i32 {
    if h.stack.len() > 1 {
        h.stack.pop();
        0
    } else {
        h.refuse(1, "no move to take back".to_string())
    }
}

/// `arena_outcome`: -1 while the game goes on, 0 the first player won, 1 the second, 2 a draw.
pub fn outcome<G: Game>(h: &mut Host<G>) -> i32 {
    match h.current().outcome() {
        None => -1,
        Some(Outcome::Win(Side::First)) => 0,
        Some(Outcome::Win(Side::Second)) => 1,
        Some(Outcome::Draw) => 2,
    }
}

/// `arena_score`: the score of side 0 or 1, -1 where the game keeps none.
pub fn score<G: Game>(h: &mut Host<G>, side: i32) -> i32 {
    match (h.current().score(), side) {
        (Some(s), 0) => s[0] as i32,
        (Some(s), 1) => s[1] as i32,
        _ => -1,
    }
}

/// `arena_frame`: the board picture as JSON.
pub fn frame<G: Game>(h: &mut Host<G>) -> i64 {
    let json = h.current().frame().to_json();
    h.text(json)
}

/// `arena_reason`: why the last call was refused.
pub fn reason<G: Game>(h: &mut Host<G>) -> i64 {
    let r = h.reason.clone();
    h.text(r)
}
