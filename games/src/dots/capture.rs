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

/// Screen steps (x right, y down) of the eight directions, clockwise from north.
const STEP: [(i16, i16); 8] = [
    (0, -1),
    (1, -1),
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
];
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
    /// Chains found for the current move: (index, x, y) with x, y relative to the start dot.
    chains: [Chain; 4],
    /// Position of a point in the chain being walked (see [`walk`]).
    place: Vec<u32>,
    seeds: [usize; 4],
    /// Points of the current flood, and its work stack.
    region: Vec<u32>,
    stack: Vec<u32>,
}

impl Scratch {
    pub(super) fn new(len: usize) -> Scratch {
        Scratch {
            mark: vec![0; len],
            epoch: 0,
            place: vec![0; len],
            chains: std::array::from_fn(|_| Chain {
                buf: vec![(0, 0, 0); len],
                len: 0,
            }),
            seeds: [0; 4],
            region: Vec::with_capacity(len),
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

/// Step 2 on the neighbour masks: walks from `start` whose first step is direction `d` through the
/// live dots of colour `p`, into `chain` as (index, x, y) with x, y relative to `start`.
/// `place[i]` is the position of point `i` in `chain` if `chain` still holds `i` there (stale
/// entries are told apart by checking), so a loop is cut off by truncating.
#[allow(clippy::too_many_arguments)]
fn walk(
    links: &[[u8; 2]],
    edges: &[u8],
    dirs: &[isize; 8],
    place: &mut [u32],
    chain: &mut Chain,
    start: usize,
    p: usize,
    mut d: u8,
) -> Walk {
    let n = links.len();
    let (edges, place, buf) = (&edges[..n], &mut place[..n], &mut chain.buf[..n]);
    let step = |i: usize, d: u8| i.wrapping_add_signed(dirs[(d & 7) as usize]);
    buf[0] = (start as u32, 0, 0);
    let mut center = step(start, d);
    let (mut cx, mut cy) = STEP[d as usize];
    place[center] = 1;
    buf[1] = (center as u32, cx, cy);
    let mut len = 2;
    loop {
        // The first live dot or padding clockwise from a quarter turn back.
        d = first_next(d);
        let (live, border) = (links[center][p], edges[center]);
        d = (d + (live | border).rotate_right(u32::from(d)).trailing_zeros() as u8) & 7;
        if border >> d & 1 != 0 {
            chain.len = 0;
            return Walk::Open;
        }
        let next = step(center, d);
        if next == start {
            break;
        }
        // Back on the chain: a loop, cut it off (without a branch: it is unpredictable).
        let k = place[next] as usize;
        let (kept, kx, ky) = buf[k];
        let looped = (k < len) & (kept as usize == next);
        // All ones if looped, else zero: a select by masks, which the compiler keeps branch-free.
        let m = usize::from(looped).wrapping_neg();
        let m16 = m as i16;
        let at = (k & m) | (len & !m);
        cx = (kx & m16) | ((cx + STEP[d as usize].0) & !m16);
        cy = (ky & m16) | ((cy + STEP[d as usize].1) & !m16);
        buf[at] = (next as u32, cx, cy);
        place[next] = at as u32;
        len = at + 1;
        center = next;
    }
    chain.len = len;
    // Shoelace sum; the start is the origin, so its two terms vanish.
    let mut area = 0i32;
    for w in buf[1..len].windows(2) {
        area += i32::from(w[0].1) * i32::from(w[1].2) - i32::from(w[0].2) * i32::from(w[1].1);
    }
    if area < 0 {
        Walk::Encloses
    } else {
        Walk::Outward { len }
    }
}

/// A chain buffer: `buf[..len]` holds (index, x, y) with x, y relative to the first dot.
#[derive(Clone)]
struct Chain {
    buf: Vec<(u32, i16, i16)>,
    len: usize,
}

impl Chain {
    fn points(&self) -> &[(u32, i16, i16)] {
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
        for d in 0..8u8 {
            let j = self.step(i, d);
            let bit = 1u8 << ((d + 4) & 7);
            if let Some(p) = was {
                self.links[j][p] &= !bit;
            }
            if let Some(p) = is {
                self.links[j][p] |= bit;
            }
        }
    }

    /// Plays a dot of colour `p` on the free point `i` and resolves captures (R7–R10).
    pub(super) fn put(&mut self, i: usize, p: u8) {
        let c = self.cells[i];
        let dot = (c & !PLAYER) | PUT | p;
        if c & HOUSE == 0 {
            self.set(i, dot);
            self.find_captures(i, p);
        } else if c & PLAYER == p {
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
        (self.links[i][p as usize], self.edges[i])
    }

    /// The input points of a new dot of colour `p` at `i` (step 1): up to four (direction of the
    /// walk's first dot, seed), in the order W, S, E, N sides.
    #[inline]
    fn input_points(&self, i: usize, p: u8) -> ([(u8, usize); 4], usize) {
        let (n, dirs) = INPUTS[self.around(i, p).0 as usize];
        let mut out = [(0u8, 0usize); 4];
        for k in 0..n as usize {
            out[k] = (dirs[k].0, self.step(i, dirs[k].1));
        }
        (out, n as usize)
    }

    /// Walks from `start` (a live dot of colour `p`) whose first step is `d` (step 2), into chain
    /// buffer `slot`.
    fn walk(&mut self, slot: usize, start: usize, p: u8, d: u8) -> Walk {
        let Scratch { chains, place, .. } = &mut self.scratch;
        walk(
            &self.links,
            &self.edges,
            &self.dirs,
            place,
            &mut chains[slot],
            start,
            p as usize,
            d,
        )
    }

    /// Steps 1–3 for a new dot of colour `p` at `i`. True if some chain enclosed its seed (even one
    /// that only made a house).
    fn find_captures(&mut self, i: usize, p: u8) -> bool {
        let (inputs, n) = self.input_points(i, p);
        if n < 2 {
            return false;
        }
        let mut limit = n - 1;
        let mut found = 0;
        for &(d, seed) in &inputs[..n] {
            match self.walk(found, i, p, d) {
                Walk::Encloses => {
                    self.scratch.seeds[found] = seed;
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
        for &(j, _, _) in self.scratch.chains[slot].points() {
            self.scratch.mark[j as usize] = ep;
        }
        let s = &mut self.scratch;
        let cells = &self.cells;
        let stride = self.stride;
        s.region.clear();
        s.stack.clear();
        let (mut captured, mut freed) = (0i32, 0i32);
        let floodable = |c: u8| c & BORDER == 0 && !is_bound(c, p);
        if s.mark[seed] != ep && floodable(cells[seed]) {
            s.mark[seed] = ep;
            s.stack.push(seed as u32);
        }
        while let Some(j) = s.stack.pop() {
            let j = j as usize;
            s.region.push(j as u32);
            let c = cells[j];
            if c & PUT != 0 {
                if c & PLAYER != p {
                    captured += 1;
                } else if c & CAPTURED != 0 {
                    freed += 1;
                }
            }
            for k in [j - stride, j + stride, j - 1, j + 1] {
                if s.mark[k] != ep && floodable(cells[k]) {
                    s.mark[k] = ep;
                    s.stack.push(k as u32);
                }
            }
        }
        let region = std::mem::take(&mut self.scratch.region);
        let made_base = captured > 0;
        if made_base {
            self.scores[p as usize] += captured;
            self.scores[(p ^ 1) as usize] -= freed;
            for k in 0..self.scratch.chains[slot].len {
                let j = self.scratch.chains[slot].buf[k].0 as usize;
                let c = self.cells[j];
                if c & BOUND == 0 {
                    self.set(j, c | BOUND);
                }
            }
            for &j in &region {
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
            for &j in &region {
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
        self.scratch.region = region;
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
        let side = |j: u32| {
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
        for &(j, _, _) in chain {
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
                .map(|&(j, _, _)| side(j))
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
