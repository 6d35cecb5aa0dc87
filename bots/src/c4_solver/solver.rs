//! The exact solver: negamax with alpha-beta over [`Board`], a [`Table`] of score bounds, and the
//! root's narrowing of `[min, max]` by null-window searches (Pons, "Solving Connect 4", parts 4–12).
//!
//! Scores are Pons's: positive when the player to move wins, `(W * H + 1) / 2 + 1 -` the number of
//! stones the winner has played when the game ends (22 − stones on 7 × 6); negative for a loss, the
//! same from the winner's side; 0 for a draw.
//!
//! Beyond Pons's articles (each measured on his test sets, see `benches/c4_solver.rs`):
//! - every node looks one move further: a move after which the opponent has no non-losing reply wins
//!   at once with our next-but-one stone, and without one the upper bound drops by one stone;
//! - a side with no line left open (every four holds an enemy stone) cannot win: bound 0;
//! - Allis's claimeven: when every column has an even number of empty squares the opponent can
//!   answer each move on top of it and take all the even rows; with one column of odd height we can
//!   play there and do the same. Either gives bounds (0, or ±1 when the claimer also has a line);
//!   this prunes 5–12 % of the nodes on Pons's sets;
//! - enhanced transposition cutoffs (a child the table already refutes) high in the tree;
//! - the table keeps both bounds, the refuting column (tried first) and the work;
//! - fail-soft values, so a failed null-window probe narrows the root's window by more than one;
//! - a small table by default: on this kind of machine a miss in the TLB costs more than re-searching
//!   the few positions a bigger table would keep.

use std::time::Instant;

use super::board::{has_four, non_losing, winning_spots, Board, Geometry};
use super::book::Book;
use super::tt::Table;

/// Stops a search: the number of nodes and the instant it may not pass.
#[derive(Clone, Copy, Debug, Default)]
pub struct Budget {
    /// Maximum nodes (counted from the solver's last [`Solver::reset_nodes`]).
    pub nodes: Option<u64>,
    /// Wall-clock deadline.
    pub deadline: Option<Instant>,
}

impl Budget {
    /// No limit.
    pub const UNLIMITED: Budget = Budget {
        nodes: None,
        deadline: None,
    };
}

/// The result of [`Solver::solve`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Solved {
    /// The exact score, and a column (0-based) that achieves it when one was seen at the root.
    Exact { score: i32, best: Option<u32> },
    /// The budget ran out: what the narrowing had proved so far (`lower <= score <= upper`), and a
    /// column proved to reach `lower` if a probe found one.
    Partial {
        lower: i32,
        upper: i32,
        best: Option<u32>,
    },
}

/// Up to nine moves, sorted by a key that packs the move score (high bits) and `15 -` the column's
/// rank in the centre-first order (low 4 bits), so that equal scores keep that order.
struct MoveList {
    len: usize,
    keys: [u32; 9],
}

impl MoveList {
    #[inline(always)]
    fn new() -> Self {
        MoveList {
            len: 0,
            keys: [0; 9],
        }
    }

    #[inline(always)]
    fn push(&mut self, rank: u32, score: u32) {
        let key = score << 4 | (15 - rank);
        let mut i = self.len;
        while i > 0 && self.keys[i - 1] < key {
            self.keys[i] = self.keys[i - 1];
            i -= 1;
        }
        self.keys[i] = key;
        self.len += 1;
    }

    /// Moves the column of rank `rank`, if listed, to the front.
    #[inline(always)]
    fn promote(&mut self, rank: u32) {
        if let Some(i) = self.keys[..self.len]
            .iter()
            .position(|k| k & 15 == 15 - rank)
        {
            let k = self.keys[i];
            self.keys.copy_within(0..i, 1);
            self.keys[0] = k;
        }
    }
}

/// The solver for boards of geometry `G`: owns its transposition table and counts nodes.
pub struct Solver<G: Geometry> {
    geom: G,
    tt: Table,
    nodes: u64,
    /// Columns, centre first.
    order: [u32; 9],
    /// The squares of each column of `order`.
    columns: [u64; 9],
    /// The rank of each column in `order`.
    rank_of: [u32; 9],
    /// The squares on odd rows, counted from 1 at the bottom.
    odd_rows: u64,
    /// Claimeven needs columns of even height to pair the squares.
    claimeven: bool,
    budget: Budget,
    limited: bool,
    aborted: bool,
    root_moves: u32,
    root_best: Option<u32>,
    /// The CPU counts bits in one instruction: the search runs in a copy compiled for it.
    popcnt: bool,
    /// The opening book, when it is for this board size.
    book: Option<&'static Book>,
    /// Positions of fewer plies than this are looked up in the book (0: no book).
    book_plies: u32,
}

/// Positions with fewer empty squares skip the table: re-searching them costs less than the memory
/// access (measured on Pons's sets: the same nodes within 1 %, 10–20 % less time).
const TT_MIN_EMPTY: u32 = 5;

/// Positions with at least this many empty squares look up their children in the table before
/// searching them (enhanced transposition cutoff): 10–25 % fewer nodes, which pays for the extra
/// lookups only where subtrees are big (Test_L1_R3: a quarter less time; the easier sets: the same).
const ETC_MIN_EMPTY: u32 = 18;

/// The table size of [`solve_lines`](super::solve_lines) and the benchmark, MiB. Measured on Pons's
/// sets: 4 MiB solves Test_L1_R3 with about 12 % more nodes than 64 MiB but faster.
pub const SOLVE_HASH_MB: usize = 4;

impl<G: Geometry> Solver<G> {
    /// A solver with a table of about `hash_mb` MiB and the built-in opening book
    /// ([`Book::builtin`]) when the board is 7 × 6 (see [`set_book`](Solver::set_book)).
    pub fn new(geom: G, hash_mb: usize) -> Self {
        let w = geom.width();
        let mut order = [0; 9];
        for (i, o) in order.iter_mut().enumerate().take(w as usize) {
            // 3, 2, 4, 1, 5, 0, 6 on 7 columns: the centre, then outwards, left first (2, 1, 3, 0
            // on 4: the right one of the two middle columns first).
            let i = i as i32;
            let c = w as i32 / 2 + if i % 2 == 1 { -(i + 1) / 2 } else { i / 2 };
            *o = c as u32;
        }
        let mut columns = [0; 9];
        let mut rank_of = [0; 9];
        for r in 0..w as usize {
            columns[r] = geom.column(order[r]);
            rank_of[order[r] as usize] = r as u32;
        }
        #[cfg(target_arch = "x86_64")]
        let popcnt = std::arch::is_x86_feature_detected!("popcnt");
        #[cfg(not(target_arch = "x86_64"))]
        let popcnt = false;
        Solver {
            geom,
            tt: Table::new(hash_mb, geom.key_bits()),
            nodes: 0,
            order,
            columns,
            rank_of,
            odd_rows: {
                let mut row = 0u64;
                for r in (0..geom.height()).step_by(2) {
                    row |= 1 << r;
                }
                geom.bottom() * row
            },
            claimeven: geom.height() & 1 == 0,
            budget: Budget::UNLIMITED,
            limited: false,
            aborted: false,
            root_moves: 0,
            root_best: None,
            popcnt,
            book: None,
            book_plies: 0,
        }
        .with_book(Some(Book::builtin()))
    }

    /// The solver with `book` (`None`: none). A book for another board size is ignored. Scores do not
    /// change, only the work: positions the book holds are not searched.
    pub fn with_book(mut self, book: Option<&'static Book>) -> Self {
        self.set_book(book);
        self
    }

    /// Uses `book` from now on (`None`: no book); see [`with_book`](Solver::with_book).
    pub fn set_book(&mut self, book: Option<&'static Book>) {
        self.book = book.filter(|b| b.fits(self.geom) && !b.is_empty());
        self.book_plies = self.book.map_or(0, |b| b.depth() + 1);
    }

    /// The columns (0-based) in the order the search tries them: the centre, then outwards, left
    /// first (the right one of two middle columns first).
    pub fn centre_first(&self) -> &[u32] {
        &self.order[..self.geom.width() as usize]
    }

    /// The book in use, if any.
    pub fn book(&self) -> Option<&'static Book> {
        self.book
    }

    /// The geometry.
    pub fn geom(&self) -> G {
        self.geom
    }

    /// Nodes searched since the last [`reset_nodes`](Solver::reset_nodes): calls of the negamax, as
    /// Pons counts them.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Restarts the node count.
    pub fn reset_nodes(&mut self) {
        self.nodes = 0;
    }

    /// Forgets the transposition table (O(1)).
    pub fn clear(&mut self) {
        self.tt.clear();
    }

    /// Marks a new search: old entries stay valid but are replaced first.
    pub fn age(&mut self) {
        self.tt.age();
    }

    /// Touches every page of the table now (see [`Table::prefault`]).
    pub fn prefault(&mut self) {
        self.tt.prefault();
    }

    /// Replaces the table by an empty one of about `hash_mb` MiB.
    pub fn resize(&mut self, hash_mb: usize) {
        self.tt = Table::new(hash_mb, self.geom.key_bits());
    }

    /// Bytes held by the table.
    pub fn table_bytes(&self) -> usize {
        self.tt.bytes()
    }

    /// The exact score of `b` (Pons's), with no budget.
    ///
    /// # Panics
    /// If the board is full.
    pub fn score(&mut self, b: &Board<G>) -> i32 {
        match self.solve(b, Budget::UNLIMITED) {
            Solved::Exact { score, .. } => score,
            Solved::Partial { .. } => unreachable!("no budget, no abort"),
        }
    }

    /// Solves `b` within `budget`: the root's `[min, max]` is narrowed by null-window searches. Each
    /// probes the middle of the window, moved halfway towards the nearer end (Pons part 8): the
    /// probes for a quick win or loss are cheap and come first, then win/draw/loss, then the distance.
    ///
    /// # Panics
    /// If the board is full.
    pub fn solve(&mut self, b: &Board<G>, budget: Budget) -> Solved {
        self.solve_clamped(b, budget, false, false)
    }

    /// As [`solve`](Solver::solve) but only win, draw or loss: the score is the sign of the exact
    /// one (1, 0, −1), found by narrowing `[-1, 1]` only, which needs fewer nodes (Pons's weak solver).
    /// The first probe asks "not lost?" (Pons's asks "won?" first), so that a search the budget stops
    /// during "won?" returns [`Solved::Partial`] `{ lower: 0, upper: 1 }`, with a move that keeps at
    /// least the draw when the probe saw one at the root (none when the table cut it off there).
    ///
    /// # Panics
    /// If the board is full.
    pub fn solve_weak(&mut self, b: &Board<G>, budget: Budget) -> Solved {
        self.solve_clamped(b, budget, true, false)
    }

    /// [`solve_weak`](Solver::solve_weak) asking "won?" first (Pons's order): for a position the
    /// caller knows to be won (see `c4_solver::won_by_book`), that one probe settles it and names the
    /// winning move, where "not lost?" first would cost a probe more (1226317544: 7.7 M nodes in all
    /// against 6.4 M in `arena solve connect4 --weak`).
    ///
    /// # Panics
    /// If the board is full.
    pub fn solve_weak_won_first(&mut self, b: &Board<G>, budget: Budget) -> Solved {
        self.solve_clamped(b, budget, true, true)
    }

    /// The narrowing; `weak`: win, draw or loss only; `won_first`: in that case, "won?" before "not
    /// lost?".
    fn solve_clamped(
        &mut self,
        b: &Board<G>,
        budget: Budget,
        weak: bool,
        won_first: bool,
    ) -> Solved {
        let sq = self.geom.squares() as i32;
        let n = b.moves() as i32;
        assert!(n < sq, "no score for a full board");
        self.budget = budget;
        self.limited = budget.nodes.is_some() || budget.deadline.is_some();
        self.aborted = false;
        self.root_moves = b.moves();
        let clamp = |s: i32| if weak { s.signum() } else { s };
        if let Some(e) = self.book_entry(b) {
            return Solved::Exact {
                score: clamp(e.score),
                best: e.best,
            };
        }
        if b.can_win_next() {
            let col = (0..self.geom.width()).find(|&c| b.is_winning_col(c));
            return Solved::Exact {
                score: clamp((sq + 1 - n) / 2),
                best: col,
            };
        }
        let mut min = clamp(-(sq - n) / 2);
        let mut max = clamp((sq + 1 - n) / 2);
        let mut best = None;
        while min < max {
            let mut med = min + (max - min) / 2;
            if med <= 0 && min / 2 < med {
                med = min / 2;
            } else if med >= 0 && max / 2 > med {
                med = max / 2;
            }
            // Win, draw or loss: "not lost?" first, so that a search stopped by its budget while it
            // asks "won?" has already named a move that keeps the draw.
            if weak && !won_first && min < 0 && max > 0 {
                med = -1;
            }
            self.root_best = None;
            let r = self.search(b, med, med + 1);
            if self.aborted {
                return Solved::Partial {
                    lower: clamp(min),
                    upper: clamp(max),
                    best,
                };
            }
            if r <= med {
                max = r;
            } else {
                min = r;
                // Only a move seen to reach this bound counts: one named by an earlier probe reached
                // a lower one (a cutoff by the table or a bound at the root names none).
                best = self.root_best;
            }
        }
        // Fail-soft probes may prove more than the clamped window asks: keep the sign only.
        Solved::Exact {
            score: clamp(min),
            best,
        }
    }

    /// Whether `col` (0-based) scores at least `score` in `b`, for a root move the narrowing did not
    /// name: one null-window search of the child.
    pub fn move_reaches(
        &mut self,
        b: &Board<G>,
        col: u32,
        score: i32,
        budget: Budget,
    ) -> Option<bool> {
        let sq = self.geom.squares() as i32;
        if !b.can_play(col) {
            return Some(false);
        }
        if b.is_winning_col(col) {
            return Some((sq + 1 - b.moves() as i32) / 2 >= score);
        }
        let mut child = *b;
        child.play_col(col);
        if child.moves() as i32 == sq {
            return Some(score <= 0);
        }
        self.budget = budget;
        self.limited = budget.nodes.is_some() || budget.deadline.is_some();
        self.aborted = false;
        self.root_moves = u32::MAX;
        // The child's mover wins at once: we lose with its next stone.
        let v = if child.can_win_next() {
            -(sq + 1 - child.moves() as i32) / 2
        } else {
            -self.search(&child, -score, -score + 1)
        };
        (!self.aborted).then_some(v >= score)
    }

    /// The book's entry for `b`, if it holds one.
    #[inline(always)]
    pub fn book_entry(&self, b: &Board<G>) -> Option<super::book::BookEntry> {
        if b.moves() < self.book_plies {
            self.book?.get(b)
        } else {
            None
        }
    }

    #[inline(always)]
    fn over_budget(&mut self) -> bool {
        if let Some(limit) = self.budget.nodes {
            if self.nodes > limit {
                self.aborted = true;
            }
        }
        if self.nodes & 1023 == 0 {
            if let Some(deadline) = self.budget.deadline {
                if Instant::now() >= deadline {
                    self.aborted = true;
                }
            }
        }
        self.aborted
    }

    /// The negamax, in the copy compiled for this CPU.
    #[inline(always)]
    fn search(&mut self, b: &Board<G>, alpha: i32, beta: i32) -> i32 {
        #[cfg(target_arch = "x86_64")]
        if self.popcnt {
            // SAFETY: `popcnt` is only set when the CPU has the instruction.
            return unsafe { self.negamax_popcnt(b, alpha, beta) };
        }
        self.negamax_plain(b, alpha, beta)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    fn negamax_popcnt(&mut self, b: &Board<G>, alpha: i32, beta: i32) -> i32 {
        self.negamax::<true>(b, alpha, beta)
    }

    fn negamax_plain(&mut self, b: &Board<G>, alpha: i32, beta: i32) -> i32 {
        self.negamax::<false>(b, alpha, beta)
    }

    #[inline(always)]
    fn recurse<const POPCNT: bool>(&mut self, b: &Board<G>, alpha: i32, beta: i32) -> i32 {
        #[cfg(target_arch = "x86_64")]
        if POPCNT {
            // SAFETY: only reached from `negamax_popcnt`, so the CPU has the instruction.
            return unsafe { self.negamax_popcnt(b, alpha, beta) };
        }
        self.negamax_plain(b, alpha, beta)
    }

    /// Negamax with alpha-beta, fail-soft: a result `<= alpha` is an upper bound, one `>= beta` a
    /// lower bound, one in between exact. `b` must not be won, and its mover must not be able to win
    /// at once (the parent only plays moves that leave no immediate win).
    #[inline(always)]
    fn negamax<const POPCNT: bool>(&mut self, b: &Board<G>, mut alpha: i32, mut beta: i32) -> i32 {
        debug_assert!(alpha < beta);
        // Step 1. Count the node; check the budget now and then.
        self.nodes += 1;
        if self.limited && self.over_budget() {
            return 0;
        }
        let geom = self.geom;
        let sq = geom.squares() as i32;
        let n = b.moves() as i32;
        if let Some(e) = self.book_entry(b) {
            return e.score;
        }

        // Step 2. Forced moves: the opponent's playable winning squares must be blocked, and no stone
        // may go right under one of its winning squares (Pons part 9).
        let possible = b.possible();
        let moves = non_losing(possible, b.opponent_winning_spots());
        if moves == 0 {
            return -(sq - n) / 2;
        }
        if n >= sq - 2 {
            return 0;
        }

        // Step 3. Lower bound: the opponent cannot win with its next stone (we have a non-losing
        // move), nor at all with no line left open.
        let mut min = -(sq - 2 - n) / 2;
        if !has_four(geom, geom.board() & !b.current()) {
            min = 0;
        }
        // Claimeven for us (see step 5): with a single column of odd height we play there first and
        // then answer each move on top of it, taking the even rows.
        let odd_start = possible & !self.odd_rows;
        if self.claimeven && min <= 0 && odd_start != 0 && odd_start & (odd_start - 1) == 0 {
            let empty = geom.board() & !b.mask();
            let theirs = (b.current() ^ b.mask()) | (empty & self.odd_rows);
            if !has_four(geom, theirs) {
                min = 0;
                if has_four(geom, b.current() | (empty & !self.odd_rows)) {
                    min = 1;
                }
            }
        }
        if alpha < min {
            alpha = min;
            if alpha >= beta {
                return alpha;
            }
        }

        // Step 4. Look one move further: a move after which the opponent has no non-losing reply wins
        // with our next-but-one stone, the best we can do since we cannot win at once. The winning
        // squares each move makes also order the moves (Pons part 10).
        let tkey = b.key();
        let use_tt = b.empty_squares() >= TT_MIN_EMPTY;
        if use_tt {
            self.tt.prefetch(tkey);
        }
        let w = geom.width() as usize;
        let mut list = MoveList::new();
        for rank in 0..w {
            let bit = moves & self.columns[rank];
            if bit != 0 {
                let ours = winning_spots(geom, b.current() | bit, b.mask());
                let replies = (possible ^ bit) | ((bit << 1) & geom.board());
                if non_losing(replies, ours) == 0 {
                    return (sq - 1 - n) / 2;
                }
                list.push(rank as u32, ours.count_ones());
            }
        }

        // Step 5. Upper bound: otherwise we win at the earliest with the stone after that, and not at
        // all with no line left open.
        let mut max = (sq - 3 - n) / 2;
        if max > 0 && !has_four(geom, geom.board() & !(b.current() ^ b.mask())) {
            max = 0;
        }
        // Claimeven (Allis): when every column has an even number of empty squares, the opponent
        // can answer each move on top of it, taking every empty square on an even row (1-based) and
        // leaving us the odd ones. Then we cannot win without a line of our stones and odd squares,
        // and we lose if the opponent has one of its stones and even squares.
        if self.claimeven && max >= 0 && possible & !self.odd_rows == 0 {
            let empty = geom.board() & !b.mask();
            if !has_four(geom, b.current() | (empty & self.odd_rows)) {
                max = 0;
                if has_four(geom, (b.current() ^ b.mask()) | (empty & !self.odd_rows)) {
                    max = -1;
                }
            }
        }
        if beta > max {
            beta = max;
            if alpha >= beta {
                return beta;
            }
        }

        // Step 6. The transposition table: its bounds narrow the window, its best move goes first.
        if let Some(hit) = if use_tt { self.tt.probe(tkey) } else { None } {
            if hit.lower >= beta {
                return hit.lower;
            }
            if hit.upper <= alpha {
                return hit.upper;
            }
            alpha = alpha.max(hit.lower);
            beta = beta.min(hit.upper);
            if alpha >= beta {
                return alpha;
            }
            if let Some(c) = hit.best {
                list.promote(self.rank_of[c as usize]);
            }
        }

        // Step 6b. Enhanced transposition cutoff: a child the table already knows to be bad enough
        // for the opponent refutes the window without a search.
        if b.empty_squares() >= ETC_MIN_EMPTY {
            let opp = b.current() ^ b.mask();
            for &k in &list.keys[..list.len] {
                let rank = (15 - (k & 15)) as usize;
                let bit = moves & self.columns[rank];
                let ckey = opp + (b.mask() | bit);
                if let Some(hit) = self.tt.probe(ckey) {
                    if -hit.upper >= beta {
                        return -hit.upper;
                    }
                }
            }
        }

        // Step 7. Search the moves.
        let nodes_before = self.nodes;
        let alpha_start = alpha;
        let mut best = None;
        let mut best_score = i32::MIN;
        for &k in &list.keys[..list.len] {
            let rank = (15 - (k & 15)) as usize;
            let col = self.order[rank];
            let mut child = *b;
            child.play(moves & self.columns[rank]);
            let score = -self.recurse::<POPCNT>(&child, -beta, -alpha);
            if self.aborted {
                return 0;
            }
            if score >= beta {
                if b.moves() == self.root_moves {
                    self.root_best = Some(col);
                }
                if use_tt {
                    let work = work_of(self.nodes - nodes_before);
                    self.tt.store(tkey, score, max, Some(col), work);
                }
                return score;
            }
            if score > best_score {
                best_score = score;
            }
            if score > alpha {
                alpha = score;
                best = Some(col);
            }
        }

        // Step 8. Store an exact value if a move landed inside the window, else an upper bound.
        if alpha > alpha_start && b.moves() == self.root_moves {
            self.root_best = best;
        }
        if use_tt {
            let work = work_of(self.nodes - nodes_before);
            if alpha > alpha_start {
                self.tt.store(tkey, alpha, alpha, best, work);
            } else {
                self.tt.store(tkey, min, best_score, None, work);
            }
        }
        best_score
    }
}

/// log2 of a node count, rounded up: the "work" a table entry is ranked by.
#[inline(always)]
fn work_of(nodes: u64) -> u32 {
    64 - nodes.leading_zeros()
}

#[cfg(test)]
mod tests {
    use super::super::board::{AnySize, Std7x6};
    use super::*;

    fn score(moves: &str) -> i32 {
        let mut s = Solver::new(Std7x6, 4);
        s.score(&Board::from_moves(Std7x6, moves).unwrap())
    }

    #[test]
    fn pons_scores_of_simple_positions() {
        // First player wins at once with its 4th stone: 22 - 4.
        assert_eq!(score("112233"), 18);
        // X on 3, 4, 5 threatens 2 and 6: the second player loses to X's 4th stone.
        assert_eq!(score("31415"), -18);
        // One move earlier X makes that double threat.
        assert_eq!(score("3141"), 18);
        // Lines 1 and 2 of Test_L3_R1, line 1 of Test_L2_R1.
        assert_eq!(score("2252576253462244111563365343671351441"), -1);
        assert_eq!(score("7422341735647741166133573473242566"), 1);
        assert_eq!(score("5554224333234511764415115"), 4);
    }

    #[test]
    fn the_portable_and_the_popcnt_search_agree() {
        for moves in ["274552224131661", "5455174361263362", "2531276566711153"] {
            let b = Board::from_moves(Std7x6, moves).unwrap();
            let mut fast = Solver::new(Std7x6, 4);
            let mut plain = Solver::new(Std7x6, 4);
            plain.popcnt = false;
            assert_eq!(fast.score(&b), plain.score(&b), "{moves}");
            assert_eq!(fast.nodes(), plain.nodes(), "{moves}");
        }
    }

    #[test]
    fn the_run_time_geometry_matches_the_constant_one() {
        let g = AnySize::new(7, 6).unwrap();
        for moves in ["274552224131661", "5455174361263362"] {
            let mut a = Solver::new(Std7x6, 4);
            let mut b = Solver::new(g, 4);
            assert_eq!(
                a.score(&Board::from_moves(Std7x6, moves).unwrap()),
                b.score(&Board::from_moves(g, moves).unwrap()),
            );
        }
    }

    #[test]
    fn small_boards_are_solved_completely() {
        // 4 x 4: a draw with perfect play; 5 x 4 too (John Tromp's table of results).
        for (w, h, expected) in [(4, 4, 0), (5, 4, 0)] {
            let g = AnySize::new(w, h).unwrap();
            let mut s = Solver::new(g, 4);
            assert_eq!(s.score(&Board::new(g)), expected, "{w}x{h}");
        }
    }

    /// Pons's score by plain minimax, for small boards.
    fn brute_force<G: Geometry>(b: &Board<G>) -> i32 {
        let sq = b.geom().squares() as i32;
        let n = b.moves() as i32;
        if b.can_win_next() {
            return (sq + 1 - n) / 2;
        }
        if n == sq - 1 {
            return 0;
        }
        (0..b.geom().width())
            .filter(|&c| b.can_play(c))
            .map(|c| {
                let mut child = *b;
                child.play_col(c);
                -brute_force(&child)
            })
            .max()
            .unwrap()
    }

    #[test]
    fn scores_match_plain_minimax_on_small_boards_of_both_parities() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        for (w, h, stones) in [(4, 4, 4), (4, 5, 8), (5, 4, 9), (5, 5, 15), (6, 3, 6)] {
            let g = AnySize::new(w, h).unwrap();
            let mut s = Solver::new(g, 1);
            let mut checked = 0;
            while checked < 40 {
                let mut b = Board::new(g);
                let mut ok = true;
                for _ in 0..stones {
                    let cols: Vec<u32> = (0..w).filter(|&c| b.can_play(c)).collect();
                    let c = cols[rng.random_range(0..cols.len())];
                    if b.is_winning_col(c) {
                        ok = false;
                        break;
                    }
                    b.play_col(c);
                }
                if !ok {
                    continue;
                }
                s.clear();
                assert_eq!(s.score(&b), brute_force(&b), "{w}x{h}: {b:?}");
                checked += 1;
            }
        }
    }

    #[test]
    fn a_budget_stops_the_search_with_what_it_proved() {
        let b = Board::from_moves(Std7x6, "").unwrap();
        // Without the book, which holds the empty board.
        let mut s = Solver::new(Std7x6, 4).with_book(None);
        let r = s.solve(
            &b,
            Budget {
                nodes: Some(5000),
                deadline: None,
            },
        );
        match r {
            Solved::Partial { lower, upper, .. } => assert!(lower <= 1 && 1 <= upper),
            other => panic!("the empty board in 5000 nodes: {other:?}"),
        }
    }
}
