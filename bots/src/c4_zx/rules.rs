//! The two-ply table `B(m, n, colour)` (lines 100–240) and the priorities `C(m)` (lines 300–550) of
//! seed `003_b3294bcb59fe041f.txt`, ZX Format #5.

use super::board::{Board, OPP, OWN};
use super::Params;

/// The listing's mark for an own move into a full column (line 120): `B(m, n, 1) = 5`.
pub const IMPOSSIBLE: u8 = 5;

/// The two-ply table: `SM` of both colours after own move `m` and reply `n` (lines 100–240), plus the
/// own `SM` after `m` alone, which the fixed reading of line 310 needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TwoPly {
    width: usize,
    /// `SM(OWN)` after own move `m` alone; `None` when column `m` is full.
    after_own: Vec<Option<u8>>,
    /// `[SM(OWN), SM(OPP)]` after `m` then `n`, indexed `m * width + n`; `None` when either move is
    /// impossible.
    replies: Vec<Option<[u8; 2]>>,
    /// Positions whose strength was computed (own moves plus own-move–reply pairs).
    nodes: u64,
}

impl TwoPly {
    /// Fills the table for `board`, [`OWN`] to move (lines 100–240). As in the listing, a reply is
    /// played even when the own move already made four: the table is pure strength, the rules
    /// decide. `board` is restored before returning.
    pub fn build(board: &mut Board) -> TwoPly {
        let w = board.width();
        let mut t = TwoPly {
            width: w,
            after_own: vec![None; w],
            replies: vec![None; w * w],
            nodes: 0,
        };
        for m in 0..w {
            if board.drop_disc(m, OWN).is_none() {
                continue;
            }
            t.after_own[m] = Some(board.sm(OWN));
            t.nodes += 1;
            for n in 0..w {
                if board.drop_disc(n, OPP).is_none() {
                    continue;
                }
                t.replies[m * w + n] = Some([board.sm(OWN), board.sm(OPP)]);
                t.nodes += 1;
                board.lift_disc(n);
            }
            board.lift_disc(m);
        }
        t
    }

    /// Columns (own moves and replies).
    pub fn width(&self) -> usize {
        self.width
    }

    /// Whether own move `m` is possible (column not full).
    pub fn own_possible(&self, m: usize) -> bool {
        self.after_own[m].is_some()
    }

    /// `SM(OWN)` after own move `m` alone, `None` if the column is full.
    pub fn after_own(&self, m: usize) -> Option<u8> {
        self.after_own[m]
    }

    /// `[SM(OWN), SM(OPP)]` after own move `m` and reply `n`, `None` if either is impossible.
    pub fn reply(&self, m: usize, n: usize) -> Option<[u8; 2]> {
        self.replies[m * self.width + n]
    }

    /// The listing's `B(m, n, colour)` with 0-based `m`, `n` and `colour` 1 ([`OWN`]) or 2 ([`OPP`]):
    /// [`IMPOSSIBLE`] (5) for every `n` when own move `m` is impossible and `colour` is 1 (line 120),
    /// 0 where the listing writes nothing (an impossible reply, line 150), else the strength.
    pub fn b(&self, m: usize, n: usize, colour: u8) -> u8 {
        if !self.own_possible(m) {
            return if colour == OWN { IMPOSSIBLE } else { 0 };
        }
        self.reply(m, n)
            .map_or(0, |s| s[usize::from(colour == OPP)])
    }

    /// Positions whose strength was computed.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }
}

/// The priority `C(m)` of a move; lower is better. The classes order as the listing's numbers do,
/// 1 < 2 < the weighted sums < 199 < 200, and a weighted sum stays inside its class whatever the
/// weights (with the article's weights it lies in 30..=170 on 7×6 anyway).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Priority {
    /// 1: the move makes four (lines 310–320).
    Four,
    /// 2: after every reply an own open three remains, so the next move makes four (lines 383–398).
    OpenThree,
    /// Lines 400–510: the weighted sum `C` in hundredths (`100 · C` with the default weights);
    /// fixed sign `C = Y − X + 100`, see [`Params::literal_sign`].
    Weighted(i64),
    /// 199: some reply makes four for the opponent (lines 330–360).
    OpponentFour,
    /// 200: the column is full (lines 370–380).
    Full,
}

impl Priority {
    /// The listing's number: 1, 2, `C` (hundredths rounded toward zero), 199 or 200.
    pub fn article_value(self) -> i64 {
        match self {
            Priority::Four => 1,
            Priority::OpenThree => 2,
            Priority::Weighted(c) => c / 100,
            Priority::OpponentFour => 199,
            Priority::Full => 200,
        }
    }

    /// The score reported in `info` lines, higher is better for the mover, hundredths:
    /// `100 · (100 − C)`; with the default weights and the fixed sign that is `100 · (X − Y)`.
    pub fn info_score(self) -> i64 {
        match self {
            Priority::Weighted(c) => 10_000 - c,
            p => 100 * (100 - p.article_value()),
        }
    }
}

/// The article's weight function of lines 440–470: `f(3) = weight_three`, `f(2) = weight_two`, any
/// other strength as it is (0, 1, 4).
pub fn weight(strength: u8, params: &Params) -> i64 {
    match strength {
        3 => params.weight_three,
        2 => params.weight_two,
        s => i64::from(s),
    }
}

/// `C(m)` for every column `m` of `table` (lines 300–510).
///
/// Where it differs from the listing, and why:
/// - Line 310 tests `B(B, 1, 1) = 4`, the own strength after reply 1, which the listing leaves at 0
///   when column 1 is full; we test the own strength after the move itself, as the prose explains
///   the rule (a move that makes a line of four). Its `D(B) = 1` is read as `C(B) = 1` unless
///   [`Params::literal_line310`]: then, as written, the assignment goes to an unused array and no
///   move gets priority 1.
/// - Lines 350 and 385 run over all seven replies, so an impossible reply reads as strength 0 (line
///   385 then needs `X = 7` and can never fire next to a full column); we take the possible replies
///   only, for both rules and for the sums of lines 420–490, as the prose explains rule 2 (whatever
///   the opponent replies). The sums are unchanged by this, the 0 entries added nothing.
/// - Rule 2 needs at least one possible reply (a move that fills the board is the only move left).
/// - Line 500 `C = X − Y + 100` is read `C = Y − X + 100` unless [`Params::literal_sign`]: with
///   "lowest is best" the written sign prefers weak own lines and strong enemy ones. The weights
///   `own_weight` and `opp_weight` (percent) scale `X` and `Y`.
pub fn priorities(table: &TwoPly, params: &Params) -> Vec<Priority> {
    let w = table.width();
    (0..w)
        .map(|m| {
            if !table.own_possible(m) {
                return Priority::Full;
            }
            if !params.literal_line310 && table.after_own(m) == Some(4) {
                return Priority::Four;
            }
            let replies: Vec<[u8; 2]> = (0..w).filter_map(|n| table.reply(m, n)).collect();
            if replies.iter().any(|s| s[1] == 4) {
                return Priority::OpponentFour;
            }
            if !replies.is_empty() && replies.iter().all(|s| s[0] == 3) {
                return Priority::OpenThree;
            }
            let x: i64 = replies.iter().map(|s| weight(s[0], params)).sum();
            let y: i64 = replies.iter().map(|s| weight(s[1], params)).sum();
            let (x, y) = (x * params.own_weight, y * params.opp_weight);
            let c = if params.literal_sign { x - y } else { y - x };
            Priority::Weighted(c + 10_000)
        })
        .collect()
}
