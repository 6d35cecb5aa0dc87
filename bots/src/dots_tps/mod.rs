//! `dots-tps`: the Dots engine of seed `000_71d76f5b75d0c15c.txt` ("Игра Точки. Методы и
//! алгоритмы", 2002), under the Russian rules of `shared/DOTS_RULES.md`.
//!
//! How a move is chosen ([`think`]), after the article's sections:
//! 1. **Grounding** (R13, ours): `ground` when it wins the game at once; never into a loss.
//! 2. **Play range** ("Предварительный отбор точек"): the legal points of the smallest rectangle
//!    covering every dot, plus `margin` rows and columns ([`trajectories::Range`]).
//! 3. **Importance** ("Оценка важности точек"): a pattern table, the maximum over matching patterns,
//!    once per move ([`patterns`]).
//! 4. For m = 1, 2, … `depth` full moves (iterative deepening under the clock), [`search::iteration`]:
//!    one-sided simulations give the bounds `Fmax`/`Fmin` and the surrounding trajectories
//!    ([`trajectories`]); `Fmin = Fmax` means no capture is possible, so importance alone decides;
//!    else the useful points (those on a trajectory) are searched by minimax over the capture
//!    difference `kill2 − kill1`, pruned by heuristics 1 and 2, and each root move is scored
//!    `F = k1·Importance + k2·MinMax` (formula (1)); the search stops early when a move reaches `Fmax`.
//! 5. **Playouts** (ours, option `playouts`): when the search leaves every quiet point (on no
//!    trajectory) the same value and one of them is the move, the most important quiet points are
//!    compared by random fills of the board in what the deepening left of the soft limit (or of
//!    the node limit; not under `go depth` alone) ([`playouts`]).
//!
//! Every part can be switched off by an option ([`Config`]), so that the modes can be compared;
//! `dots-tps --bench` prints the article's table on our tactical suite ([`mod@bench`]).
//!
//! **The default engine and the article's.** [`Config::article`] is the article's engine exactly
//! (depth 3 full moves, trajectories of up to m points, static inner order); `dots-tps --bench` runs
//! it, and the options `depth 3`, `tt false`, `history false`, `threats false`, `reach 0`, `widen false`,
//! `playouts 0` select it.
//! The default ([`Config::default`]) plays stronger at equal time (at 20 s + 200 ms on 20×20 an SPRT
//! of H1 = +400 Elo against H0 = +200 over the engine of commit 0f8cf58 accepted H1 after 34 games,
//! all won, `docs/dots-tps.md`):
//! no depth cap ([`MAX_DEPTH`]) under
//! a time manager that spends the clock ([`move_time`]), trajectories of at most
//! [`DEFAULT_REACH`] points (`reach`) so that the tree goes 5–7 full moves deep in the middle game
//! while the simulations stay cheap (and are reused across depths), a transposition table with
//! Zobrist keys ([`tt`]) and history ordering in the tree, and grounding (R13) as a threat and a
//! weapon (`threats`): a ground that wins at any ply below the root (`threat_plies`) is a win or
//! a loss in the tree, and, when we do not trail, each dot a point connects to the edge adds [`GROUND_BONUS`] to its
//! importance ([`ground_bonus`]). The importance term of formula (1) is kept; among the quiet points
//! the search cannot tell apart, random fills choose ([`DEFAULT_PLAYOUTS`] candidates, option
//! `playouts`), scoring each by its mean final capture difference plus its importance.
//!
//! ```
//! use bots::dots_tps::{think, Budget, Config};
//! use bots::dots_tps::patterns::PatternTable;
//! use games::dots::{Dots, Move, Start};
//!
//! // Blue (first) has Red's 5-5 closed on three sides and is to move: 5-4 captures.
//! let pos = Dots::from_moves(8, 8, Start::Empty, "5-6 5-5 4-5 1-1 6-5 1-8").unwrap();
//! let d = think(&pos, &Config::default(), &PatternTable::default(), &Budget::depth(1), &mut |_| {});
//! assert_eq!(d.best, Some(Move::Put { x: 5, y: 4 }));
//! assert_eq!(d.value, 1);
//! ```

pub mod bench;
mod cycles;
pub mod exposure;
pub mod inner;
pub mod patterns;
pub mod playouts;
pub mod progress;
pub mod safety;
pub mod search;
pub mod tactics;
pub mod trajectories;
pub mod tt;

use std::fmt;
use std::str::FromStr;
use std::time::{Duration, Instant};

use games::dots::Move;
use games::{Dots, Game};

use crate::engine::{
    concrete, generic_move, Engine, EngineOption, Limits, OptionError, SearchInfo,
};
use patterns::{Grid, PatternTable};
use search::{iteration, Memory, RootPoints, WIN};
use trajectories::Range;

/// Which moves the tree tries (the rows of the article's table).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Prune {
    /// Every legal point of the play range, at every node.
    All,
    /// The useful points: on some trajectory (own or enemy) of at most m points.
    Useful,
    /// Useful points, with heuristic 1 at every node.
    H1,
    /// Useful points, heuristic 2 before the search and heuristic 1 at every node.
    H12,
}

impl Prune {
    /// The four modes, from the widest search to the narrowest.
    pub const ALL: [Prune; 4] = [Prune::All, Prune::Useful, Prune::H1, Prune::H12];

    /// The option value: `all`, `useful`, `h1`, `h12`.
    pub fn name(self) -> &'static str {
        match self {
            Prune::All => "all",
            Prune::Useful => "useful",
            Prune::H1 => "h1",
            Prune::H12 => "h12",
        }
    }
}

impl fmt::Display for Prune {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Prune {
    type Err = String;

    fn from_str(s: &str) -> Result<Prune, String> {
        Prune::ALL
            .into_iter()
            .find(|p| p.name() == s)
            .ok_or_else(|| format!("expected all, useful, h1 or h12, got {s:?}"))
    }
}

/// The engine's settings; each is a protocol option of the same name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// `k1`: the weight of importance (thousandths) in `F` (default 1).
    pub k1: i64,
    /// `k2`: the weight of the minimax capture difference in `F` (default 1000; with every
    /// importance within ±1.000 this keeps `k1·|I| < k2`, the article's `k1 ≪ k2`).
    pub k2: i64,
    /// `margin`: rows and columns added around the dots' rectangle (default 2; the article: 1 or 2).
    pub margin: u8,
    /// `depth`: the deepest search, full moves (pairs of plies; default 3, the article's m).
    pub depth: u32,
    /// `prune`: which moves the tree tries (default `h12`).
    pub prune: Prune,
    /// `bounds`: the one-sided bounds: stop at `Fmax`, importance alone when `Fmin = Fmax`.
    pub bounds: bool,
    /// `ordering`: the root order (previous best, most important, most trajectories); off: board order.
    pub ordering: bool,
    /// `grounding`: answer `ground` when it wins at once (R13).
    pub grounding: bool,
    /// `alphabeta`: alpha-beta cut-offs in the tree (same values as the article's minimax).
    pub alphabeta: bool,
    /// `importance`: the pattern table; off: every importance is 0.
    pub importance: bool,
    /// `tt` (ours): a transposition table in the tree ([`tt`]): Zobrist keys of the tree's dots,
    /// value, bound, depth and best move per entry; cut-offs within one depth, the best move for
    /// ordering across depths. Off in [`Config::article`].
    pub tt: bool,
    /// `history` (ours): the inner nodes try the table's move first, then the points that caused
    /// the most cut-offs (history heuristic), the static order for ties. Off in [`Config::article`].
    pub history: bool,
    /// `threats` (ours): grounding inside the tree (R13): at the first `threat_plies` plies below the
    /// root (by default every ply) the side to move may end the game with `ground` when that wins, so a root move that lets the
    /// opponent ground into a win scores as a loss and one that lets us ground next is a win; when
    /// no capture is possible a root move after which our `ground` wins is played; when we do not
    /// trail, [`ground_bonus`] adds to the importance of points that ground our dots. Off in
    /// [`Config::article`].
    pub threats: bool,
    /// `reach` (ours): the longest trajectory the one-sided simulations look for, points (0: the
    /// depth m, as the article). Shorter than m, the simulations stay cheap while the tree goes
    /// deeper; `Fmax`/`Fmin` are then bounds over trajectories of at most `reach` points only.
    pub reach: u32,
    /// `widen` (ours): when the first pass (trajectories of at most `reach` points) has searched every
    /// depth up to the cap and time is left (a deeper iteration may still start: `deepen`), a second pass searches with
    /// trajectories of `reach + 1` points from depth `reach + 1` up, stopped at the soft limit; its
    /// deepest complete depth gives the move. Needs `reach` > 0. Off in [`Config::article`].
    pub widen: bool,
    /// `threat_plies` (ours, with `threats`): the plies below the root at which a side to move that
    /// wins by `ground` is scored as winning (default [`DEFAULT_THREAT_PLIES`]: every ply; 2 was the
    /// rule of commit 6148596: the opponent's answer and our next move).
    pub threat_plies: u32,
    /// `bonus_lead` (ours, with `threats`): the smallest capture lead (ours minus theirs) at which
    /// [`ground_bonus`] applies (default 0: when we do not trail).
    pub bonus_lead: i64,
    /// `deepen` (ours): no deeper iteration starts after this share of the soft limit, percent
    /// (default [`DEFAULT_DEEPEN`]; 50 was the rule of commit 6148596); without a soft limit, after half
    /// of this share of the hard limit. It acts only under a clock, so [`Config::article`] has the
    /// same value.
    pub deepen: u32,
    /// `playouts` (ours): when the move comes from importance alone among quiet points (the search
    /// gives every point on no trajectory the same value), this many of the most important quiet
    /// points are compared by random fills of the board, in what the deepening left of the soft
    /// limit or of the node limit (none under a depth limit alone); at least [`MIN_FILLS`] each, or
    /// the importance's move stands ([`playouts`]). 0 or 1: off. Off in [`Config::article`].
    pub playouts: u32,
    /// `safety` (ours, issue 28): the weight of group safety in the importance, thousandths per dot
    /// of a group, divided by its cut ([`safety::bonus`]: `safety · s / c` on each point of the
    /// min-cut of a group of `s` dots that `c ≤` [`safety::MAX_CUT`] enemy dots would cut from the
    /// edge, for both players' groups). 0: off (the default, and in [`Config::article`]).
    pub safety: i32,
    /// `exposed` (ours, issue 28): points after which the opponent captures more with one move next
    /// to them ([`exposure`]) have their value capped by that loss, quiet points are picked among
    /// the others, and the random fills leave them out. Off in [`Config::article`].
    pub exposed: bool,
    /// `inner` (ours, issue 39): the one-sided simulations run again inside the tree, after every
    /// dot it puts, for both players on the points within [`inner::RADIUS`] of that dot, and the
    /// trajectories found followed below it as the root's are ([`inner`]): a line in which the
    /// opponent encloses a dot just put is searched as such. Off by default and in
    /// [`Config::article`].
    pub inner: bool,
}

/// The default `threat_plies`: every ply of the deepest search (2 × [`MAX_DEPTH`]).
pub const DEFAULT_THREAT_PLIES: u32 = 32;

/// The default `deepen`, percent of the soft limit: a deeper iteration may start until the soft
/// limit, and the hard limit stops it.
pub const DEFAULT_DEEPEN: u32 = 100;

/// The default `playouts`: the quiet points compared by random fills, the most important first.
/// At 5 s + 50 ms on 20×20, 10 won 18 of 20 games against 0 (off) and 13 of 20 against 30
/// (`configs/baseline/screen-dots-tps-playouts.toml`; `docs/benchmarks.md`, "dots-tps against its older
/// engines").
pub const DEFAULT_PLAYOUTS: u32 = 10;

/// The default `reach`, points.
pub const DEFAULT_REACH: u32 = 3;

/// The deepest search the default engine may reach, full moves: in practice the clock stops it
/// long before (the `depth` option's maximum and default).
pub const MAX_DEPTH: u32 = 16;

impl Config {
    /// The article's engine exactly (the engine's default before the time manager and the
    /// transposition table): depth 3 full moves, no table, static ordering in the tree, grounding
    /// only at the root. `dots-tps --bench` runs this; as options: `depth 3`, `tt false`,
    /// `history false`, `threats false`, `reach 0`, `widen false`, `playouts 0`.
    pub fn article() -> Config {
        Config {
            k1: 1,
            k2: 1000,
            margin: 2,
            depth: 3,
            prune: Prune::H12,
            bounds: true,
            ordering: true,
            grounding: true,
            alphabeta: true,
            importance: true,
            tt: false,
            history: false,
            threats: false,
            reach: 0,
            widen: false,
            threat_plies: DEFAULT_THREAT_PLIES,
            bonus_lead: 0,
            deepen: DEFAULT_DEEPEN,
            playouts: 0,
            safety: 0,
            exposed: false,
            inner: false,
        }
    }
}

impl Default for Config {
    /// The playing engine: the article's with no depth cap ([`MAX_DEPTH`]; the clock decides),
    /// trajectories of at most [`DEFAULT_REACH`] points, the transposition table, history ordering
    /// and grounding threats.
    fn default() -> Self {
        Config {
            depth: MAX_DEPTH,
            tt: true,
            history: true,
            threats: true,
            reach: DEFAULT_REACH,
            widen: false,
            playouts: DEFAULT_PLAYOUTS,
            ..Config::article()
        }
    }
}

/// Node counting and the stop rule of one move: tree nodes and simulation nodes share the limit.
#[derive(Debug)]
pub struct Control {
    start: Instant,
    deadline: Option<Instant>,
    node_limit: Option<u64>,
    /// Tree nodes entered (the root's children and below).
    pub nodes: u64,
    /// Positions of the one-sided simulations, and plies of the random fills (option `playouts`).
    pub sim_nodes: u64,
    /// Set once a limit is passed; every search returns at once after that.
    pub stopped: bool,
}

impl Control {
    /// A control with at most `node_limit` nodes (tree and simulations together) and `time`, the
    /// clock starting now.
    pub fn new(node_limit: Option<u64>, time: Option<Duration>) -> Control {
        Control::since(Instant::now(), node_limit, time)
    }

    /// [`Control::new`] with the clock started at `start` (the arrival of `go`): `time` counts from
    /// there, and so does [`Control::elapsed_ms`].
    pub fn since(start: Instant, node_limit: Option<u64>, time: Option<Duration>) -> Control {
        Control {
            start,
            deadline: time.map(|t| start + t),
            node_limit,
            nodes: 0,
            sim_nodes: 0,
            stopped: false,
        }
    }

    fn check(&mut self) -> bool {
        let total = self.nodes + self.sim_nodes;
        let over = self.node_limit.is_some_and(|n| total > n);
        // The clock is read only every 256 nodes, so it costs nothing.
        if over || (total.is_multiple_of(256) && self.deadline.is_some_and(|d| Instant::now() >= d))
        {
            self.stopped = true;
        }
        self.stopped
    }

    /// Counts a tree node; true when the search must stop.
    #[inline]
    pub fn visit(&mut self) -> bool {
        self.nodes += 1;
        self.check()
    }

    /// Counts a simulation node; true when the search must stop.
    #[inline]
    pub fn visit_sim(&mut self) -> bool {
        self.sim_nodes += 1;
        self.check()
    }

    /// Time since the control's start, ms.
    pub fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    /// Brings the deadline forward to `ms` after the start (never later than it was).
    pub fn cap_time(&mut self, ms: u64) {
        let d = self.start + Duration::from_millis(ms);
        self.deadline = Some(self.deadline.map_or(d, |old| old.min(d)));
    }
}

/// What one move may spend.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// The deepest search, full moves.
    pub depth: u32,
    /// Nodes (tree and simulations together), or `None`.
    pub nodes: Option<u64>,
    /// The hard limit, ms, or `None`: the search stops there, in the middle of a depth if need be.
    pub time_ms: Option<u64>,
    /// The soft limit, ms, or `None`: no deeper iteration starts after `deepen` percent of it
    /// ([`Config::deepen`]). Without it, none starts after half that share of `time_ms`.
    pub soft_ms: Option<u64>,
    /// Iterative deepening from 1 full move (true), or `depth` alone (false, for the benchmark).
    pub iterative: bool,
    /// When the clock started (the arrival of `go`, [`Limits::received`]): `time_ms` and
    /// `soft_ms` count from there. `None`: from the call of [`think`].
    pub start: Option<Instant>,
}

impl Budget {
    /// `depth` full moves, iteratively, no node or time limit.
    pub fn depth(depth: u32) -> Budget {
        Budget {
            depth,
            nodes: None,
            time_ms: None,
            soft_ms: None,
            iterative: true,
            start: None,
        }
    }
}

/// The time of one move from the clock: a soft limit (no deeper iteration starts after `deepen`
/// percent of it)
/// and a hard one (the search stops).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveTime {
    /// The soft limit, ms.
    pub soft_ms: u64,
    /// The hard limit, ms (at least `soft_ms`).
    pub hard_ms: u64,
}

/// The clock's reserve for the protocol and the process, ms (at most a tenth of the time left).
pub const CLOCK_RESERVE_MS: u64 = 50;

/// The time each expected move keeps in reserve for the pipe, the scheduler and the work done before
/// the clock is checked, ms (as Stockfish's `Move Overhead`): without an increment the clock can then
/// not run down to a few ms while moves remain.
pub const MOVE_OVERHEAD_MS: u64 = 10;

/// The time manager, a pure function of the clock: `movetime` gives both limits
/// ([`crate::search::Budget::time_for_move`]: `movetime` less a fifth, at most 100 ms); a clock of
/// `time_ms` left and `inc_ms` a move gives, with `moves = clamp(free_points / 8, 12, 50)` (the moves
/// we expect still to play: a Dots game ends long before the board is full, by `ground` or the arena's
/// ply limit) and `avail = time − max(min(50, time/10), 10·moves)` ([`CLOCK_RESERVE_MS`],
/// [`MOVE_OVERHEAD_MS`]; 0 when the clock is below the reserve: the search stops at once and the most
/// important point is played),
/// `soft = min(avail/moves + ¾·inc, avail/5)` and `hard = max(soft, min(3·soft, avail/4))`, so no
/// move takes more than a quarter of the clock and the increment is mostly spent. `None` without
/// `movetime` or a clock.
pub fn move_time(
    movetime_ms: Option<u64>,
    time_ms: Option<u64>,
    inc_ms: Option<u64>,
    free_points: usize,
) -> Option<MoveTime> {
    if movetime_ms.is_some() {
        let t = crate::search::Budget::time_for_move(&Limits {
            movetime_ms,
            ..Limits::default()
        })?;
        return Some(MoveTime {
            soft_ms: t,
            hard_ms: t,
        });
    }
    let time = time_ms?;
    let inc = inc_ms.unwrap_or(0);
    let moves = (free_points as u64 / 8).clamp(12, 50);
    let reserve = CLOCK_RESERVE_MS
        .min(time / 10)
        .max(MOVE_OVERHEAD_MS * moves);
    let avail = time.saturating_sub(reserve);
    let soft = (avail / moves + inc * 3 / 4).min(avail / 5);
    let hard = (3 * soft).min(avail / 4).max(soft);
    Some(MoveTime {
        soft_ms: soft,
        hard_ms: hard,
    })
}

/// What [`think`] decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decision {
    /// The move (`None` only when the game is over).
    pub best: Option<Move>,
    /// Its minimax capture difference (`kill2 − kill1`, the mover's view) at `depth`; with option
    /// `threats`, [`search::WIN`] less the plies for a win by grounding (negative: a loss).
    pub value: i32,
    /// The deepest completed (or used) depth, full moves (0: none).
    pub depth: u32,
    /// Tree nodes, all depths.
    pub nodes: u64,
    /// Simulation nodes, all depths, and the random fills' plies.
    pub sim_nodes: u64,
    /// Time spent, ms.
    pub time_ms: u64,
    /// `"ground"`, `"single"`, `"search"`, `"fmax"`, `"shortcut"`, `"playouts"` (random fills chose
    /// among the quiet points, option `playouts`) or `"importance"` (nothing completed in time).
    pub how: &'static str,
    /// Whether a limit stopped the search.
    pub stopped: bool,
    /// Root moves searched at `depth`.
    pub root_moves: usize,
    /// Trajectories used at `depth`: the mover's and the opponent's.
    pub trajectories: [usize; 2],
    /// The longest trajectory of the pass the move comes from, points: `reach` (the depth with
    /// `reach` 0), or `reach + 1` when the widening pass (option `widen`) gave it.
    pub reach: u32,
}

impl Decision {
    /// Takes the move, value and counts of iteration `it` at `depth` (full moves) of a pass whose
    /// trajectories have at most `reach` points.
    fn adopt(&mut self, it: &search::Iteration, depth: u32, reach: u32) {
        self.best = it.best;
        self.value = it.value;
        self.depth = depth;
        self.how = it.how;
        self.root_moves = it.root_moves;
        self.trajectories = it.trajectories;
        self.reach = reach;
    }
}

/// The move for the side to move of `pos` (see the module docs for the steps).
pub fn think(
    pos: &Dots,
    cfg: &Config,
    table: &PatternTable,
    budget: &Budget,
    info: &mut dyn FnMut(&Decision),
) -> Decision {
    let mut ctl = Control::since(
        budget.start.unwrap_or_else(Instant::now),
        budget.nodes,
        budget.time_ms.map(Duration::from_millis),
    );
    let me = pos.turn();
    let mut d = Decision {
        best: None,
        value: trajectories::diff(pos, me),
        depth: 0,
        nodes: 0,
        sim_nodes: 0,
        time_ms: 0,
        how: "importance",
        stopped: false,
        root_moves: 0,
        trajectories: [0, 0],
        reach: 0,
    };
    if pos.outcome().is_some() {
        return d;
    }

    // Step 1. Grounding that wins at once (R13): my ungrounded dots go to the opponent.
    if cfg.grounding {
        let lost = pos.ungrounded_dots(me);
        if pos.captures(me) > pos.captures(me.opponent()) + lost {
            d.best = Some(Move::Ground);
            d.how = "ground";
            return d;
        }
    }

    // Step 2. The play range and the importance of its points.
    let range = Range::of(pos, cfg.margin);
    let mut points = range.legal_points(pos);
    if points.is_empty() {
        points = pos.legal_moves();
    }
    let grid = Grid::new(pos);
    let importance = points
        .iter()
        .map(|&m| match (cfg.importance, m) {
            (true, Move::Put { x, y }) => {
                table.importance(&grid, i32::from(x) - 1, i32::from(y) - 1)
            }
            _ => 0,
        })
        .collect::<Vec<i32>>();
    let importance = if cfg.threats {
        let lead = i64::from(pos.captures(me)) - i64::from(pos.captures(me.opponent()));
        if lead >= cfg.bonus_lead {
            ground_bonus(&mut pos.clone(), &points, importance)
        } else {
            importance
        }
    } else {
        importance
    };
    let importance = safety::bonus(pos, &points, importance, cfg.safety);
    let exposure = if cfg.exposed {
        exposure::exposure(&mut pos.clone(), &points)
    } else {
        Vec::new()
    };
    let root = RootPoints {
        exposure,
        points,
        importance,
        grid,
        centre: (
            i32::from(range.x0) + i32::from(range.x1),
            i32::from(range.y0) + i32::from(range.y1),
        ),
    };
    if root.points.len() <= 1 {
        d.best = root.points.first().copied();
        d.how = "single";
        return d;
    }
    // Nothing completed: the most important point, the nearest to the centre among equals.
    let key = |k: usize| root.rank(root.importance[k], root.points[k]);
    let top = (0..root.points.len()).fold(0, |b, k| if key(k) > key(b) { k } else { b });
    d.best = Some(root.points[top]);

    // Step 3. Iterative deepening.
    let mut work = pos.clone();
    let mut mem = Memory::new(cfg, pos);
    let first = if budget.iterative {
        1
    } else {
        budget.depth.max(1)
    };
    let last = budget.depth.max(1);
    let pass_reach = |m: u32| if cfg.reach > 0 { m.min(cfg.reach) } else { m };
    // Whether the first pass searched every depth to `last` with time to spare.
    let mut finished = false;
    // When the adopted iteration's move is a quiet point: its points on a trajectory (the fills'
    // candidates are the others).
    let mut quiet: Option<Vec<Move>> = None;
    for m in first..=last {
        let it = iteration(
            &mut work,
            cfg,
            &root,
            m,
            d.best.filter(|_| d.depth > 0),
            &mut mem,
            &mut ctl,
        );
        let usable =
            it.best.is_some() && (it.complete || d.depth == 0 || (cfg.ordering && it.searched));
        if usable {
            d.adopt(&it, m, pass_reach(m));
            quiet = it.quiet.then_some(it.useful);
        }
        d.nodes = ctl.nodes;
        d.sim_nodes = ctl.sim_nodes;
        d.time_ms = ctl.elapsed_ms();
        if ctl.stopped {
            d.stopped = true;
            break;
        }
        info(&d);
        if d.value >= WIN / 2 {
            break; // a win by grounding: nothing deeper is better
        }
        // A deeper search costs many times this one: do not start what cannot finish.
        if !time_for_more(budget, &ctl, cfg.deepen) {
            break;
        }
        finished = m == last;
    }

    // Step 4 (ours, option `widen`): the first pass is done with time left, so search again with
    // trajectories one point longer, from depth reach + 1, stopped at the soft limit; every complete
    // depth of this pass replaces the first pass's move (it sees every capture the first pass saw
    // within its horizon, and the enclosures one move further off).
    if cfg.widen && cfg.reach > 0 && finished && d.depth == last && last > cfg.reach {
        if let Some(s) = budget.soft_ms {
            ctl.cap_time(s);
        }
        let wide = Config {
            reach: cfg.reach + 1,
            ..cfg.clone()
        };
        mem.tag = WIDE_TAG;
        for m in cfg.reach + 1..=last {
            let it = iteration(&mut work, &wide, &root, m, d.best, &mut mem, &mut ctl);
            if ctl.stopped || !it.complete || it.best.is_none() {
                break;
            }
            d.adopt(&it, m, wide.reach.min(m));
            quiet = it.quiet.then_some(it.useful);
            d.nodes = ctl.nodes;
            d.sim_nodes = ctl.sim_nodes;
            d.time_ms = ctl.elapsed_ms();
            info(&d);
            if d.value >= WIN / 2 || !time_for_more(budget, &ctl, cfg.deepen) {
                break;
            }
        }
    }

    // Step 5 (ours, option `playouts`): a quiet move chosen by importance alone is compared with
    // the other most important quiet points by random fills, in what the deepening left of the soft
    // limit (or of the node limit).
    let time_left = budget.soft_ms.is_none_or(|s| ctl.elapsed_ms() < s);
    let limited = budget.soft_ms.is_some() || budget.nodes.is_some();
    if let Some(useful) = quiet.filter(|_| {
        cfg.playouts > 1 && limited && time_left && !ctl.stopped && d.value.abs() < WIN / 2
    }) {
        let exposed = |k: usize| root.exposure.get(k).is_some_and(|e| e.loss > 0);
        let mut cands: Vec<usize> = (0..root.points.len())
            .filter(|&k| !useful.contains(&root.points[k]) && !exposed(k))
            .collect();
        cands.sort_by_key(|&k| std::cmp::Reverse(key(k)));
        cands.truncate(cfg.playouts as usize);
        if cands.len() > 1 {
            if let Some(s) = budget.soft_ms {
                ctl.cap_time(s);
            }
            let moves: Vec<Move> = cands.iter().map(|&k| root.points[k]).collect();
            let t = playouts::tally(&mut work, &moves, u32::MAX, pos.ply() as u64, &mut ctl);
            if t.games.iter().all(|&g| g >= MIN_FILLS) {
                // The mean capture difference plus the importance in captures (0.40 adds 0.4).
                let value = |j: usize| t.mean(j) + f64::from(root.importance[cands[j]]) / 1000.0;
                let best = (0..cands.len()).fold(0, |b, j| if value(j) > value(b) { j } else { b });
                d.best = Some(moves[best]);
                d.how = "playouts";
            }
        }
    }
    d.nodes = ctl.nodes;
    d.sim_nodes = ctl.sim_nodes;
    d.time_ms = ctl.elapsed_ms();
    d
}

/// The fewest random fills per candidate for the playouts to choose the move (option `playouts`).
pub const MIN_FILLS: u32 = 8;

/// The iteration tag of the widening pass's table entries (option `widen`): its depths hold other
/// trajectories than the first pass's, so their entries must not cut each other's searches.
const WIDE_TAG: u8 = 64;

/// Whether a deeper iteration may start: before `deepen` percent of the soft limit (by default
/// half), or, without one, before half that share of the hard limit (a deeper search costs many
/// times the last one).
fn time_for_more(budget: &Budget, ctl: &Control, deepen: u32) -> bool {
    let elapsed = ctl.elapsed_ms() * 100;
    let share = u64::from(deepen);
    match (budget.soft_ms, budget.time_ms) {
        (Some(s), _) => elapsed <= s * share,
        (None, Some(t)) => elapsed * 2 <= t * share,
        _ => true,
    }
}

/// The importance added per dot of ours a point connects to the edge (thousandths), with option
/// `threats` when we do not trail: fewer ungrounded dots bring a winning `ground` nearer (R13).
pub const GROUND_BONUS: i32 = 150;

/// `importance` of `points` plus [`GROUND_BONUS`] per dot of the mover that the point grounds, kept
/// within ±999 so that `k1·I < k2`. [`think`] applies it when the mover's capture lead is at least
/// `bonus_lead` (by default: when it does not trail).
pub fn ground_bonus(pos: &mut Dots, points: &[Move], mut importance: Vec<i32>) -> Vec<i32> {
    let me = pos.turn();
    let before = pos.ungrounded_dots(me);
    if before == 0 {
        return importance;
    }
    for (k, &m) in points.iter().enumerate() {
        pos.play_unchecked(m);
        let after = pos.ungrounded_dots(me);
        pos.undo();
        let gained = before.saturating_sub(after) as i32;
        importance[k] = (importance[k] + GROUND_BONUS * gained).clamp(-999, 999);
    }
    importance
}

/// Time per move when `go` sets no limit at all, ms.
const DEFAULT_MOVE_MS: u64 = 1000;

/// The `dots-tps` engine: [`think`] behind the protocol.
///
/// Plays Dots only; other games are refused ([`Engine::choose`] returns `None`, which the protocol
/// loop answers with `bestmove (none)`). Limits: `movetime`, else the clock through [`move_time`]
/// (iterative deepening until `deepen` percent of the soft limit, stopped at the hard one), else 1 s;
/// `go depth D` (plies) caps the depth at ⌈D/2⌉ full moves; `go nodes` caps tree and simulation
/// nodes together. Reports `info depth <2m plies> score <capture difference> nodes … time … pv <move>`
/// (|score| within a few plies of 65536, [`search::WIN`] less the plies: a win or loss by grounding).
///
/// Options (see [`Config`]): `depth` (spin 1..=16 full moves, default 16: no cap in practice), `k1`
/// (spin, default 1), `k2` (spin, default 1000), `margin` (spin 0..=8, default 2), `prune` (combo
/// all/useful/h1/h12, default h12), `bounds`, `ordering`, `grounding`, `alphabeta`, `importance`,
/// `tt`, `history`, `threats` (checks, default true), `reach` (spin 0..=16 points, default 3; 0: the
/// depth), `widen` (check, default false), `patterns` (string: a pattern file replacing the shipped
/// table; empty: the shipped one). The clock of a move starts when its `go` arrives
/// ([`Limits::received`]). The article's engine ([`Config::article`]) is `depth 3`, `tt false`,
/// `history false`, `threats false`, `reach 0`, `widen false`, `playouts 0`. `playouts` (spin
/// 0..=64, default [`DEFAULT_PLAYOUTS`]): the quiet points compared by random fills (0 and 1: none).
/// `safety` (spin 0..=1000, default 0: off): the weight of group safety ([`safety::bonus`]).
/// `exposed` (check, default false): cap the value of points the opponent answers with a capture
/// next to them ([`exposure`]). `inner` (check, default false): trajectories of both players found
/// again inside the tree around each dot it puts ([`inner`]). The engine
/// declares no `seed`: the fills' random order is seeded by the ply, so a position under a node
/// limit always gets the same move.
#[derive(Default)]
pub struct DotsTps {
    /// The settings.
    pub config: Config,
    table: PatternTable,
    patterns: String,
}

impl DotsTps {
    /// The engine with `config` and the shipped pattern table.
    pub fn new(config: Config) -> Self {
        DotsTps {
            config,
            ..DotsTps::default()
        }
    }

    /// The decision for `pos` under `limits`.
    pub fn choose_dots(
        &mut self,
        pos: &Dots,
        limits: &Limits,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> Decision {
        let depth = limits
            .depth
            .map_or(self.config.depth, |d| d.div_ceil(2).min(self.config.depth))
            .max(1);
        let mut time = move_time(
            limits.movetime_ms,
            limits.time_ms,
            limits.inc_ms,
            pos.free_points(),
        );
        if time.is_none() && limits.depth.is_none() && limits.nodes.is_none() {
            time = Some(MoveTime {
                soft_ms: DEFAULT_MOVE_MS,
                hard_ms: DEFAULT_MOVE_MS,
            });
        }
        let budget = Budget {
            depth,
            nodes: limits.nodes,
            time_ms: time.map(|t| t.hard_ms),
            soft_ms: time.map(|t| t.soft_ms),
            iterative: true,
            start: limits.received,
        };
        let d = think(pos, &self.config, &self.table, &budget, &mut |d| {
            info(&report(d))
        });
        info(&report(&d));
        d
    }
}

fn report(d: &Decision) -> SearchInfo {
    SearchInfo {
        depth: 2 * d.depth,
        score: i64::from(d.value),
        nodes: d.nodes + d.sim_nodes,
        time_ms: d.time_ms,
        pv: d.best.iter().map(|m| m.to_string()).collect(),
    }
}

impl Engine for DotsTps {
    fn name(&self) -> String {
        "dots-tps".into()
    }

    fn options(&self) -> Vec<EngineOption> {
        let c = Config::default();
        vec![
            EngineOption::spin("depth", i64::from(c.depth), 1, i64::from(MAX_DEPTH)),
            EngineOption::spin("k1", c.k1, 0, 1_000_000),
            EngineOption::spin("k2", c.k2, 1, 1_000_000_000),
            EngineOption::spin("margin", i64::from(c.margin), 0, 8),
            EngineOption::combo("prune", &c.prune.to_string(), Prune::ALL),
            EngineOption::check("bounds", c.bounds),
            EngineOption::check("ordering", c.ordering),
            EngineOption::check("grounding", c.grounding),
            EngineOption::check("alphabeta", c.alphabeta),
            EngineOption::check("importance", c.importance),
            EngineOption::check("tt", c.tt),
            EngineOption::check("history", c.history),
            EngineOption::check("threats", c.threats),
            EngineOption::spin("reach", i64::from(c.reach), 0, i64::from(MAX_DEPTH)),
            EngineOption::check("widen", c.widen),
            EngineOption::spin("threat_plies", i64::from(c.threat_plies), 1, 32),
            EngineOption::spin("bonus_lead", c.bonus_lead, -1000, 1000),
            EngineOption::spin("deepen", i64::from(c.deepen), 1, 100),
            EngineOption::spin("playouts", i64::from(c.playouts), 0, 64),
            EngineOption::spin("safety", i64::from(c.safety), 0, 1000),
            EngineOption::check("exposed", c.exposed),
            EngineOption::check("inner", c.inner),
            EngineOption::string("patterns", ""),
        ]
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), OptionError> {
        let spec = EngineOption::find(self.options(), name)?;
        let v = spec.parse(value)?.unwrap_or(0);
        let c = &mut self.config;
        match name {
            "depth" => c.depth = v as u32,
            "k1" => c.k1 = v,
            "k2" => c.k2 = v,
            "margin" => c.margin = v as u8,
            "prune" => c.prune = value.parse().unwrap_or(Prune::H12),
            "bounds" => c.bounds = v != 0,
            "ordering" => c.ordering = v != 0,
            "grounding" => c.grounding = v != 0,
            "alphabeta" => c.alphabeta = v != 0,
            "importance" => c.importance = v != 0,
            "tt" => c.tt = v != 0,
            "history" => c.history = v != 0,
            "threats" => c.threats = v != 0,
            "reach" => c.reach = v as u32,
            "widen" => c.widen = v != 0,
            "threat_plies" => c.threat_plies = v as u32,
            "bonus_lead" => c.bonus_lead = v,
            "deepen" => c.deepen = v as u32,
            "playouts" => c.playouts = v as u32,
            "safety" => c.safety = v as i32,
            "exposed" => c.exposed = v != 0,
            "inner" => c.inner = v != 0,
            _ => {
                let path = value.trim();
                self.table = if path.is_empty() || path == "<empty>" {
                    PatternTable::default()
                } else {
                    PatternTable::load(path).map_err(|reason| OptionError::BadValue {
                        name: name.into(),
                        value: value.into(),
                        reason,
                    })?
                };
                self.patterns = path.to_string();
            }
        }
        Ok(())
    }

    /// Refuses every game but Dots (returns `None`).
    fn choose<G: Game>(
        &mut self,
        pos: &G,
        limits: &Limits,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> Option<G::Move> {
        let dots = concrete::<Dots, G>(pos)?;
        let m = self.choose_dots(dots, limits, info).best?;
        generic_move::<G, _>(m)
    }
}
