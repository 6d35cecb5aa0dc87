//! Captures by chain tracing at the placed dot (R6–R10), grounding (R12).
//!
//! The method is the one of `shared/DOTS_RULES.md` ("Finding captures"), as oppai-rs's field engine
//! does it (the oracle of `shared/data/dots-random-games` is its output, so the details follow it):
//!
//! 1. The *input points* of the new dot: for each of its four sides (W, S, E, N), if the side
//!    neighbour is not a live dot of the mover but the diagonal clockwise after it (NW, SW, SE, NE)
//!    or, failing that, the orthogonal after that one (N, W, S, E) is, that dot starts a walk, and
//!    the side neighbour is the *seed* of the region the walk may enclose. Fewer than two input
//!    points: no cycle can close.
//! 2. From each input point, walk through the mover's live dots taking at every dot the first
//!    neighbour clockwise after the one a quarter turn back from the way we came, cutting off
//!    loops, until the walk comes back to the new dot (a chain) or looks at the board's padding
//!    (no chain). A chain whose shoelace area is negative (clockwise on the board drawn top down)
//!    encloses its seed. At most one chain fewer than the input points is kept; a walk that closes
//!    the wrong way round with fewer than four dots lowers that limit by one.
//! 3. The chains are resolved shortest first (R8): flood the inside from the seed (4-connected,
//!    stopping at the chain and at the walls of the mover's earlier bases). If the flood holds an
//!    enemy dot (R7) it is a base: enemy dots and empty points inside are captured, the mover's dots
//!    captured before are freed and leave the enemy's score (R10), the chain becomes a wall.
//!    Otherwise the empty points inside become a house of the mover (R9).
//! 4. A dot played into an enemy house (R9): if the mover's own chains found anything (step 2), the
//!    houses touching the dot are dissolved; otherwise the house owner captures it — its enclosing
//!    chain is found by walking west from the dot to the owner's dots and tracing from there.
//!
//! Cost per move: the chains' length plus the flooded area.

use super::cell::{self, is_bound, is_free, is_live, BORDER, BOUND, CAPTURED, HOUSE, PLAYER, PUT};
use super::Dots;

const N: u8 = 0;
const NE: u8 = 1;
const E: u8 = 2;
const SE: u8 = 3;
const S: u8 = 4;
const SW: u8 = 5;
const W: u8 = 6;
const NW: u8 = 7;

/// For each mask of a new dot's live neighbours (bit `d` for direction `d`), its input points
/// (step 1): how many, and (direction of the walk's first dot, direction of the seed) for each, in the
/// order W, S, E, N sides.
const INPUTS: [(u8, [(u8, u8); 4]); 256] = input_table();

const fn input_table() -> [(u8, [(u8, u8); 4]); 256] {
    const fn has(m: usize, d: u8) -> bool {
        m >> d & 1 == 1
    }
    // (side, its clockwise diagonal, the orthogonal before that)
    const SIDES: [(u8, u8, u8); 4] = [(W, NW, N), (S, SW, W), (E, SE, S), (N, NE, E)];
    let mut table = [(0u8, [(0u8, 0u8); 4]); 256];
    let mut m = 0;
    while m < 256 {
        let mut k = 0;
        while k < 4 {
            let (side, diag, before) = SIDES[k];
            if !has(m, side) {
                let n = table[m].0 as usize;
                if has(m, diag) {
                    table[m].1[n] = (diag, side);
                    table[m].0 += 1;
                } else if has(m, before) {
                    table[m].1[n] = (before, side);
                    table[m].0 += 1;
                }
            }
            k += 1;
        }
        m += 1;
    }
    table
}

/// The direction to scan first after arriving in direction `d`: a quarter turn back, rounded to a
/// diagonal (coming east, look north-east first).
#[inline(always)]
fn first_next(d: u8) -> u8 {
    ((d + 6) | 1) & 7
}

/// One step of a walk, looked up by [`turns`]: the index offset to the next dot, and the
/// direction `d` of the step as the start of its row in the table, `d << 8`.
#[derive(Clone, Copy, Default)]
pub(super) struct Turn {
    off: i16,
    row: u16,
}

/// The step table of a walk: `[d << 8 | mask]`, see [`turns`]. Flat, so that a step's entry
/// holds the next row's start ready to be or-ed with the next mask.
pub(super) type Turns = [Turn; 8 * 256];

/// The walk's step table for boards of row stride `stride`: entry `[d << 8 | mask]` is, for a walk
/// arriving in direction `d` at a dot whose neighbours of interest (live dots of the walker, or
/// padding) are `mask`, the step to the first of them clockwise from [`first_next`]`(d)`
/// (`first_next(d)` itself if the mask is empty). One load, from the row of the previous step's
/// direction indexed by the mask, instead of rotate, count and a load of the offset, shortens the
/// dependency chain from one step to the next, which bounds the walk's speed. Built once per
/// stride (8 KiB each) and shared by all boards.
pub(super) fn turns(stride: usize) -> &'static Turns {
    use std::sync::OnceLock;
    static TABLES: [OnceLock<Box<Turns>>; 66] = [const { OnceLock::new() }; 66];
    TABLES[stride].get_or_init(|| {
        let s = stride as isize;
        let dirs = [-s, -s + 1, 1, s + 1, s, s - 1, -1, -s - 1];
        let mut table = Box::new([Turn::default(); 8 * 256]);
        for (d, row) in (0u8..).zip(table.chunks_exact_mut(256)) {
            for (mask, turn) in (0u8..=255).zip(row.iter_mut()) {
                let first = first_next(d);
                let rotated = u32::from(mask.rotate_right(u32::from(first))) | 0x100;
                let dir = (first + rotated.trailing_zeros() as u8) & 7;
                *turn = Turn {
                    off: dirs[usize::from(dir)] as i16,
                    row: u16::from(dir) << 8,
                };
            }
        }
        table
    })
}

/// How a walk from an input point ended.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Walk {
    /// Back at the start, enclosing the seed side.
    Encloses,
    /// Reached the padding: no chain; the chain buffer is left empty.
    Open,
    /// Back at the start the wrong way round; `len` dots in the chain (the start included).
    Outward { len: usize },
}

/// Reusable buffers of the capture search, kept out of equality and `Display`.
#[derive(Clone)]
pub(super) struct Scratch {
    /// `mark[i] == epoch`: point `i` is on the current chain or already flooded.
    mark: Vec<u32>,
    epoch: u32,
    /// Chains found for the current move.
    chains: [Chain; 4],
    /// Position of a point in the chain being walked (see [`walk`]).
    place: Vec<u16>,
    /// Where a walk stops: 1 on the padding (set by [`Dots::mark_padding`]) and, during a walk,
    /// on its start.
    stop: Vec<u8>,
    seeds: [usize; 4],
    /// Points of the current flood, also its work queue (as long as the board, see [`flood`]).
    flood: Vec<u32>,
    /// Work stack of [`Dots::dissolve_houses`].
    stack: Vec<u32>,
}

impl Scratch {
    pub(super) fn new(len: usize) -> Scratch {
        // Chains hold point indices and positions as `u16` (at most 66 × 65 + 1 cells).
        assert!(len <= usize::from(u16::MAX));
        Scratch {
            mark: vec![0; len],
            epoch: 0,
            place: vec![0; len],
            stop: vec![0; len],
            chains: std::array::from_fn(|_| Chain {
                buf: vec![0; len],
                len: 0,
            }),
            seeds: [0; 4],
            flood: vec![0; len],
            stack: Vec::with_capacity(len),
        }
    }

    #[inline]
    fn next_epoch(&mut self) -> u32 {
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.mark.fill(0);
            self.epoch = 1;
        }
        self.epoch
    }
}

/// The board's views a walk reads.
#[derive(Clone, Copy)]
struct Board<'a> {
    links: &'a [[u8; 2]],
    dirs: &'a [isize; 8],
    turns: &'a Turns,
}

/// Step 2 on the neighbour masks: walks from `start` whose first step is direction `d` through the
/// live dots of colour `p`, into `chain` (point indices, `start` first). `place[i]` is the position
/// of point `i` in `chain` if `chain` still holds `i` there (stale entries are told apart by
/// checking), so a loop is cut off by truncating.
///
/// The loop is the hot spot of the whole engine (most of a random game's time) and is bound by the
/// latency from one step's loads to the next: the step is one load of the neighbour mask and one of
/// the step table, and the walk keeps only the indices (the shoelace area is computed afterwards,
/// for the walks that close only). Running two walks interleaved was tried and was slower.
#[inline(always)]
fn walk(
    board: Board,
    stop: &mut [u8],
    place: &mut [u16],
    chain: &mut Chain,
    start: usize,
    p: u8,
    d: u8,
) -> Walk {
    let Board { links, dirs, turns } = board;
    let n = links.len();
    let (stop, place, buf) = (&mut stop[..n], &mut place[..n], &mut chain.buf[..n]);
    let p = usize::from(p);
    // The start of the table's row for the direction of the last step.
    let mut row = usize::from(d & 7) << 8;
    buf[0] = start as u16;
    let mut center = start.wrapping_add_signed(dirs[usize::from(d & 7)]);
    place[center] = 1;
    buf[1] = center as u16;
    let mut len = 2;
    // The walk ends on the padding (open) or back at the start: one test per step for both.
    stop[start] = 1;
    let next = loop {
        // The first live dot or padding clockwise from a quarter turn back. `links` has the padding
        // bits merged in: the mask of the step table in one load.
        //
        // Unchecked indexing, as the bounds checks are a sixth of the step's instructions. In
        // bounds because: `center` is a point, never padding (it is the first dot of the walk, a
        // live dot, or a `next` that `stop` did not stop at, and `stop` is set on the padding), so
        // it and its eight neighbours (the padding all round) are below `n`; `row` is a
        // direction times 256 (at most 7 × 256) and the mask below 256, so the table index is
        // below 8 × 256, the table's length.
        debug_assert!(center < n && row < 0x800);
        // SAFETY: `center < n` (above); `links` has length `n`.
        let mask = unsafe { links.get_unchecked(center)[p] };
        // SAFETY: `row | mask < 8 * 256` (above), the length of `Turns`.
        let t = unsafe { *turns.get_unchecked(row | usize::from(mask)) };
        row = usize::from(t.row);
        let next = center.wrapping_add_signed(isize::from(t.off));
        debug_assert!(next < n);
        // SAFETY: `next` is a neighbour of the point `center`, below `n` (above).
        if unsafe { *stop.get_unchecked(next) } != 0 {
            break next;
        }
        // Back on the chain: a loop, cut it off (without a branch: it is unpredictable; a fifth
        // of the steps cut one).
        //
        // In bounds because: `next` is a point (a live dot: `stop` ruled out padding just above),
        // and points are below `n`; every value ever written to `place` is a chain position `at`,
        // and `buf[..len]` never holds a point twice (a repeat is cut back to its first place),
        // so `len` and `at` stay below the number of points, below `n` (`place` starts zeroed).
        debug_assert!(len < n);
        // SAFETY: `next < n` (above); `place` and `buf` have length `n`.
        let k = unsafe { *place.get_unchecked(next) } as usize;
        debug_assert!(k < n);
        // SAFETY: `k < n` (above).
        let looped = (k < len) & (unsafe { *buf.get_unchecked(k) } as usize == next);
        let at = if looped { k } else { len };
        // SAFETY: `at` is `k` or `len`, both below `n` (above).
        unsafe {
            *buf.get_unchecked_mut(at) = next as u16;
            *place.get_unchecked_mut(next) = at as u16;
        }
        len = at + 1;
        center = next;
    };
    stop[start] = 0;
    if next != start {
        chain.len = 0;
        return Walk::Open;
    }
    chain.len = len;
    if shoelace(&buf[..len]) < 0 {
        Walk::Encloses
    } else {
        Walk::Outward { len }
    }
}

/// Twice the signed area of the closed polygon through the points `ring` (consecutive points are
/// neighbours, the last one is a neighbour of the first), in screen coordinates (rows down), read
/// straight from the point indices `j = y * stride + x`.
///
/// The shoelace sum as trapezoids is `Σ (x + x') (y' - y)` over the ring's steps; with
/// `x = j - stride * y` it is `Σ (j + j') (y' - y) - stride * Σ (y'² - y²)`, and the second sum
/// vanishes round a closed ring. So the area needs only each step's row change `y' - y` (-1, 0 or
/// 1), which is the sign of the index difference rounded to whole rows (|dx| ≤ 1 < stride - 1),
/// and one product a step.
fn shoelace(ring: &[u16]) -> i32 {
    let Some(&last) = ring.last() else {
        return 0;
    };
    let mut prev = i32::from(last);
    let mut area = 0i32;
    for &j in ring {
        let j = i32::from(j);
        let delta = j - prev;
        let dy = i32::from(delta > 1) - i32::from(delta < -1);
        area += (j + prev) * dy;
        prev = j;
    }
    area
}

/// `FLOODABLE[p][c]`: whether the flood of colour `p` may enter a point whose cell is `c`: not
/// padding, not a wall dot of `p`'s bases (a table, as the test is on the flood's critical path).
const FLOODABLE: [[bool; 256]; 2] = {
    let mut table = [[false; 256]; 2];
    let mut p = 0;
    while p < 2 {
        let mut c = 0;
        while c < 256 {
            table[p][c] = (c as u8 & BORDER == 0) & !is_bound(c as u8, p as u8);
            c += 1;
        }
        p += 1;
    }
    table
};

/// Step 3's flood for colour `p` from `seed`, stopping at the points marked `ep` (the chain) and at
/// the walls of `p`'s bases: marks the points it takes `ep` and leaves them in `queue[..size]`.
/// Returns (size, enemy dots taken, `p`'s captured dots taken).
///
/// A queue rather than a stack, so that the points taken stay in it, in the order taken (the region
/// then needs no list of its own). Without branches (which points get flooded is unpredictable):
/// `&` rather than `&&`, and every neighbour is written to the queue, its tail raised only if it is
/// taken. Each point is taken at most once, so the queue (as long as the board) never overflows.
fn flood(
    cells: &[u8],
    mark: &mut [u32],
    queue: &mut [u32],
    ep: u32,
    seed: usize,
    stride: usize,
    p: u8,
) -> (usize, i32, i32) {
    let n = cells.len();
    let (mark, queue) = (&mut mark[..n], &mut queue[..n]);
    let (mut captured, mut freed) = (0i32, 0i32);
    let floodable = &FLOODABLE[usize::from(p & 1)];
    let floodable = |c: u8| floodable[usize::from(c)];
    let (mut head, mut tail) = (0, 0);
    if (mark[seed] != ep) & floodable(cells[seed]) {
        mark[seed] = ep;
        queue[0] = seed as u32;
        tail = 1;
    }
    while head < tail {
        let j = queue[head] as usize;
        head += 1;
        let c = cells[j];
        let (dot, own) = (c & PUT != 0, c & PLAYER == p);
        captured += i32::from(dot & !own);
        freed += i32::from(dot & own & (c & CAPTURED != 0));
        // Unchecked indexing, as the checks are a third of the loop's instructions. In bounds
        // because: `j` is a point (padding is never taken) and the padding all round keeps its four
        // neighbours `k` below `n`; `tail` is the number of points taken so far (each once), at
        // most W × H, below `n`.
        debug_assert!(j > stride && j + stride < n);
        for k in [j - stride, j + stride, j - 1, j + 1] {
            debug_assert!(k < n && tail < n);
            // SAFETY: `k < n` and `tail < n` (above); `cells`, `mark` and `queue` have length `n`.
            unsafe {
                let m = mark.get_unchecked_mut(k);
                let take = (*m != ep) & floodable(*cells.get_unchecked(k));
                // `mark[k] = ep` if taken, by a mask (the compiler would branch on an `if`).
                *m ^= (*m ^ ep) & u32::from(take).wrapping_neg();
                *queue.get_unchecked_mut(tail) = k as u32;
                tail += usize::from(take);
            }
        }
    }
    (tail, captured, freed)
}

/// A chain buffer: `buf[..len]` holds point indices, the start dot first (`u16`: boards have
/// fewer than 65 536 cells, and the walk's buffers are then half as big in the cache).
#[derive(Clone)]
struct Chain {
    buf: Vec<u16>,
    len: usize,
}

impl Chain {
    fn points(&self) -> &[u16] {
        &self.buf[..self.len]
    }
}

impl Dots {
    /// The neighbour of `i` in direction `d`.
    #[inline(always)]
    fn step(&self, i: usize, d: u8) -> usize {
        i.wrapping_add_signed(self.dirs[d as usize])
    }

    /// Writes a cell, logging the old value for undo and keeping the count of legal points and the
    /// neighbour masks.
    #[inline(always)]
    pub(super) fn set(&mut self, i: usize, new: u8) {
        let old = self.cells[i];
        self.log.push(((i as u32) << 8) | u32::from(old));
        self.free = self.free + u32::from(is_free(new)) - u32::from(is_free(old));
        self.cells[i] = new;
        self.relink(i, old, new);
    }

    /// Updates the neighbour masks of the points around `i` after its cell went from `old` to
    /// `new`.
    #[inline(always)]
    pub(super) fn relink(&mut self, i: usize, old: u8, new: u8) {
        if (old ^ new) & (PUT | CAPTURED | PLAYER) == 0 {
            return;
        }
        let live = |c: u8| (c & (PUT | CAPTURED) == PUT).then_some((c & PLAYER) as usize);
        let (was, is) = (live(old), live(new));
        if was == is {
            return;
        }
        if let Some(p) = was {
            self.link(i, p, false);
        }
        if let Some(p) = is {
            self.link(i, p, true);
        }
    }

    /// Sets (`on`) or clears, in colour `p`'s masks of the eight neighbours of point `i`, the bit
    /// pointing back at `i`.
    #[inline(always)]
    fn link(&mut self, i: usize, p: usize, on: bool) {
        let s = self.stride;
        // The 3×3 block around `i`, from its top left corner `i - s - 1`: a point's neighbours are
        // all in the array (padding all round), so one check for the block spares one per
        // neighbour (this runs on every move).
        assert!(i > s && i + s + 1 < self.links.len());
        let corner = i - s - 1;
        // (offset of the neighbour in the block, the direction from it back to `i`)
        let around = [
            (1, S),
            (2, SW),
            (s + 2, W),
            (2 * s + 2, NW),
            (2 * s + 1, N),
            (2 * s, NE),
            (s, E),
            (0, SE),
        ];
        for (k, d) in around {
            // SAFETY: `corner + k <= i + s + 1`, in bounds (asserted above).
            let mask = unsafe { self.links.get_unchecked_mut(corner + k) };
            if on {
                mask[p] |= 1 << d;
            } else {
                mask[p] &= !(1 << d);
            }
        }
    }

    /// Plays a dot of colour `p` on the free point `i`, whose cell is `c`, and resolves captures
    /// (R7–R10).
    #[inline(always)]
    pub(super) fn put(&mut self, i: usize, c: u8, p: u8) {
        debug_assert_eq!(c, self.cells[i]);
        if c & HOUSE == 0 {
            // `set(i, dot)` spelled out for the common case: `c` is free and `dot` a live dot; the
            // neighbours looked up before the stores to other arrays (which make the compiler
            // load and check the lengths again). The log entry comes before those of the captures
            // (which may change `i` again), for `undo` to restore them in reverse.
            self.cells[i] = (c & !PLAYER) | PUT | p;
            let live = self.around(i, p).0;
            self.link(i, usize::from(p), true);
            self.log.push(((i as u32) << 8) | u32::from(c));
            self.free -= 1;
            // Most moves have fewer than two input points: no cycle can close (step 1).
            if INPUTS[usize::from(live)].0 >= 2 {
                self.search_captures(i, p);
            }
        } else {
            self.put_in_house(i, p);
        }
    }

    /// [`Dots::put`] on a house point (R9), out of line as it is rare.
    #[inline(never)]
    fn put_in_house(&mut self, i: usize, p: u8) {
        let c = self.cells[i];
        let dot = (c & !PLAYER) | PUT | p;
        if c & PLAYER == p {
            // Into one's own house: nothing can close here that was not closed before.
            self.set(i, dot & !HOUSE);
        } else {
            self.set(i, dot);
            if self.find_captures(i, p) {
                self.dissolve_houses(i);
            } else {
                self.house_capture(i, p);
            }
        }
    }

    /// The neighbours of `i` (not padding) as two masks, bit `d` for direction `d`: live dots of
    /// colour `p`, and padding.
    #[inline(always)]
    fn around(&self, i: usize, p: u8) -> (u8, u8) {
        let e = self.edges[i][0];
        (self.links[i][p as usize] & !e, e)
    }

    /// The input points of a new dot of colour `p` at `i` (step 1): up to four (direction of the
    /// walk's first dot, seed), in the order W, S, E, N sides.
    #[inline(always)]
    fn input_points(&self, i: usize, p: u8) -> ([(u8, usize); 4], usize) {
        let (n, dirs) = INPUTS[self.around(i, p).0 as usize];
        let mut out = [(0u8, 0usize); 4];
        for k in 0..n as usize {
            out[k] = (dirs[k].0, self.step(i, dirs[k].1));
        }
        (out, n as usize)
    }

    /// Marks the padding in the walk's stop array, once the board is laid out.
    pub(super) fn mark_padding(&mut self) {
        for (stop, &c) in self.scratch.stop.iter_mut().zip(&self.cells) {
            *stop = u8::from(c & BORDER != 0);
        }
    }

    /// The board's read-only views for the walks, and the scratch buffers they write.
    #[inline(always)]
    fn views(&mut self) -> (Board<'_>, &mut Scratch) {
        let board = Board {
            links: &self.links,
            dirs: &self.dirs,
            turns: self.turns,
        };
        (board, &mut self.scratch)
    }

    /// Walks from `start` (a live dot of colour `p`) whose first step is `d` (step 2), into chain
    /// buffer `slot`.
    #[inline(always)]
    fn walk(&mut self, slot: usize, start: usize, p: u8, d: u8) -> Walk {
        let (
            board,
            Scratch {
                chains,
                place,
                stop,
                ..
            },
        ) = self.views();
        walk(board, stop, place, &mut chains[slot], start, p, d)
    }

    /// Steps 1–3 for a new dot of colour `p` at `i`. True if some chain enclosed its seed (even one
    /// that only made a house).
    #[inline(always)]
    fn find_captures(&mut self, i: usize, p: u8) -> bool {
        // Most moves have fewer than two input points: tell that from the table, inlined in the
        // caller, before anything else.
        INPUTS[self.around(i, p).0 as usize].0 >= 2 && self.search_captures(i, p)
    }

    /// [`Dots::find_captures`] past the check that there are at least two input points.
    #[inline(never)]
    fn search_captures(&mut self, i: usize, p: u8) -> bool {
        let (n, inputs) = INPUTS[self.around(i, p).0 as usize];
        let n = usize::from(n);
        // The board's views and the scratch buffers taken apart once for all the walks.
        let (
            board,
            Scratch {
                chains,
                place,
                stop,
                seeds,
                ..
            },
        ) = self.views();
        let mut limit = n - 1;
        let mut found = 0;
        for &(d, side) in &inputs[..n] {
            // `found < limit <= 3` here (`& 3` spares the bounds check).
            match walk(board, stop, place, &mut chains[found & 3], i, p, d) {
                Walk::Encloses => {
                    seeds[found & 3] = i.wrapping_add_signed(board.dirs[usize::from(side & 7)]);
                    found += 1;
                    if found == limit {
                        break;
                    }
                }
                Walk::Outward { len } if len < 4 => {
                    limit -= 1;
                    if found == limit {
                        break;
                    }
                }
                _ => {}
            }
        }
        // Shortest first (R8), stable among equals.
        for a in 1..found {
            let mut b = a;
            while b > 0 && self.scratch.chains[b - 1].len > self.scratch.chains[b].len {
                self.scratch.chains.swap(b - 1, b);
                self.scratch.seeds.swap(b - 1, b);
                b -= 1;
            }
        }
        for k in 0..found {
            let seed = self.scratch.seeds[k];
            self.enclose(k, seed, p);
        }
        found > 0
    }

    /// Step 3 for chain `slot` of colour `p`, flooding from `seed`. True if it made a base.
    fn enclose(&mut self, slot: usize, seed: usize, p: u8) -> bool {
        let ep = self.scratch.next_epoch();
        for &j in self.scratch.chains[slot].points() {
            self.scratch.mark[j as usize] = ep;
        }
        let s = &mut self.scratch;
        let (size, captured, freed) = flood(
            &self.cells,
            &mut s.mark,
            &mut s.flood,
            ep,
            seed,
            self.stride,
            p,
        );
        let mut region = std::mem::take(&mut self.scratch.flood);
        let made_base = captured > 0;
        if made_base {
            self.scores[p as usize] += captured;
            self.scores[(p ^ 1) as usize] -= freed;
            let chain = std::mem::take(&mut self.scratch.chains[slot].buf);
            let len = self.scratch.chains[slot].len;
            self.walls.extend_from_slice(&chain[..len]);
            self.bases.push((cell::player(p), self.walls.len() as u32));
            for &j in &chain[..len] {
                let j = usize::from(j);
                let c = self.cells[j];
                if c & BOUND == 0 {
                    // `set(j, c | BOUND)` spelled out: a wall dot stays a live dot, so the legal
                    // points and the neighbour masks do not change.
                    self.log.push(((j as u32) << 8) | u32::from(c));
                    self.cells[j] = c | BOUND;
                }
            }
            self.scratch.chains[slot].buf = chain;
            for &j in &region[..size] {
                let j = j as usize;
                let c = self.cells[j];
                let new = if c & PUT == 0 {
                    (c & !(HOUSE | PLAYER)) | CAPTURED | p
                } else if c & PLAYER != p {
                    (c & !BOUND) | CAPTURED
                } else {
                    c & !CAPTURED
                };
                if new != c {
                    self.set(j, new);
                }
            }
        } else {
            for &j in &region[..size] {
                let j = j as usize;
                let c = self.cells[j];
                if c & PUT == 0 {
                    let new = (c & !PLAYER) | HOUSE | p;
                    if new != c {
                        self.set(j, new);
                    }
                }
            }
        }
        std::mem::swap(&mut self.scratch.flood, &mut region);
        made_base
    }

    /// Clears the house marks of the houses 4-connected to `i` (the intruder that captured, R9).
    fn dissolve_houses(&mut self, i: usize) {
        let mut stack = std::mem::take(&mut self.scratch.stack);
        stack.clear();
        if self.cells[i] & HOUSE != 0 {
            let c = self.cells[i];
            self.set(i, c & !HOUSE);
            stack.push(i as u32);
        }
        while let Some(j) = stack.pop() {
            let j = j as usize;
            for k in [j - self.stride, j + self.stride, j - 1, j + 1] {
                let c = self.cells[k];
                if c & HOUSE != 0 {
                    self.set(k, c & !HOUSE);
                    stack.push(k as u32);
                }
            }
        }
        self.scratch.stack = stack;
    }

    /// R9: the dot of colour `p` at `i`, played into a house of the other colour, captured nothing:
    /// the house owner captures it. Its chain around `i` is found by walking west to the owner's
    /// live dots and tracing from each until a chain encloses `i`.
    fn house_capture(&mut self, i: usize, p: u8) {
        let q = p ^ 1;
        let mut b = i;
        loop {
            // West along the row, then on through the padding into the rows above: a house always
            // has a wall to the west, so this stops long before the first row.
            loop {
                b -= 1;
                if b <= self.stride {
                    return;
                }
                if is_live(self.cells[b], q) {
                    break;
                }
            }
            let (inputs, n) = self.input_points(b, q);
            for &(d, seed) in &inputs[..n] {
                if self.walk(0, b, q, d) == Walk::Encloses && self.ring_contains(0, i) {
                    self.enclose(0, seed, q);
                    return;
                }
            }
        }
    }

    /// Whether point `i` lies inside the polygon of chain `slot`: a ray to the west, counting the
    /// times the chain crosses the row of `i` (touching it from one side and leaving to the same
    /// side is no crossing).
    fn ring_contains(&self, slot: usize, i: usize) -> bool {
        #[derive(Clone, Copy, PartialEq, Eq)]
        enum Side {
            Away,
            Above,
            On,
            Below,
        }
        let (px, py) = (i % self.stride, i / self.stride);
        let side = |j: u16| {
            let j = j as usize;
            let (x, y) = (j % self.stride, j / self.stride);
            if x > px {
                Side::Away
            } else if y + 1 == py {
                Side::Above
            } else if y == py {
                Side::On
            } else if y == py + 1 {
                Side::Below
            } else {
                Side::Away
            }
        };
        let chain = self.scratch.chains[slot].points();
        let mut crossings = 0u32;
        let mut state = Side::Away;
        for &j in chain {
            match side(j) {
                Side::On => {}
                Side::Away => state = Side::Away,
                s => {
                    if state != Side::Away && state != s {
                        crossings += 1;
                    }
                    state = s;
                }
            }
        }
        if state != Side::Away {
            // Close the ring: compare with the first side met from the beginning.
            let first = chain
                .iter()
                .map(|&j| side(j))
                .find(|&s| s != Side::On)
                .unwrap_or(Side::Away);
            if first != Side::Away && first != state {
                crossings += 1;
            }
        }
        crossings % 2 == 1
    }

    /// For every point index, whether a 4-connected path through points owned by colour `p` (its
    /// live dots, its captured enemy dots and the dead empty points of its bases; not house points)
    /// reaches the board's edge from there (R12). A whole-board flood: for `ground` and the helpers.
    pub(super) fn grounded_points(&self, p: u8) -> Vec<bool> {
        let stride = self.stride;
        let (w, h) = (self.w as usize, self.h as usize);
        let mut mark = vec![false; self.cells.len()];
        let mut stack = Vec::new();
        let owned = |c: u8| cell::owner(c) == Some(p);
        for row in 1..=h {
            for col in 1..=w {
                let j = row * stride + col;
                if (row == 1 || row == h || col == 1 || col == w) && owned(self.cells[j]) {
                    mark[j] = true;
                    stack.push(j);
                }
            }
        }
        while let Some(j) = stack.pop() {
            for k in [j - stride, j + stride, j - 1, j + 1] {
                if !mark[k] && owned(self.cells[k]) {
                    mark[k] = true;
                    stack.push(k);
                }
            }
        }
        mark
    }
}

#[cfg(test)]
mod tests {
    use super::shoelace;

    /// The shoelace sum with two products a step, on the coordinates (the formula `shoelace`
    /// replaced), for rings in screen coordinates relative to the first point.
    fn cross_products(ring: &[u16], stride: usize) -> i32 {
        let s = stride as i32;
        let (x0, y0) = (i32::from(ring[0]) % s, i32::from(ring[0]) / s);
        let at = |j: u16| (i32::from(j) % s - x0, i32::from(j) / s - y0);
        ring.windows(2)
            .map(|w| {
                let ((x, y), (x1, y1)) = (at(w[0]), at(w[1]));
                x * y1 - x1 * y
            })
            .sum()
    }

    #[test]
    fn shoelace_on_indices_equals_the_cross_products() {
        let s = 40;
        let p = |x: u16, y: u16| y * s as u16 + x;
        let rings: [&[u16]; 5] = [
            // A diamond round one point, both ways; a square; a dent; an out-and-back tail.
            &[p(5, 4), p(6, 5), p(5, 6), p(4, 5)],
            &[p(5, 4), p(4, 5), p(5, 6), p(6, 5)],
            &[
                p(3, 3),
                p(4, 3),
                p(5, 3),
                p(5, 4),
                p(5, 5),
                p(4, 5),
                p(3, 5),
                p(3, 4),
            ],
            &[
                p(3, 3),
                p(4, 4),
                p(5, 3),
                p(6, 4),
                p(5, 5),
                p(4, 6),
                p(3, 5),
                p(2, 4),
            ],
            &[p(7, 7), p(8, 8), p(7, 9), p(6, 8), p(5, 8), p(6, 8)],
        ];
        for ring in rings {
            assert_eq!(shoelace(ring), cross_products(ring, s), "{ring:?}");
        }
        assert_eq!(shoelace(rings[0]), -shoelace(rings[1]));
        assert_ne!(shoelace(rings[0]), 0);
    }
}
