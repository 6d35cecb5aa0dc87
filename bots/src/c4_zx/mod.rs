//! `c4-zx`: S. Vikhrov's Connect Four program from "Artificial intelligence in computer games", ZX
//! Format #5 (1996) and #6 (1997), seed `003_b3294bcb59fe041f.txt` (digest in `shared/ENGINES.md`).
//!
//! The listing, step by step, and where each step lives:
//! 1. [`Board::sm`] — the strength `SM` of a colour (subroutine 1000 with subroutine 2000): the most
//!    own discs in an open window of four without enemy discs; read its docs for what "open" means.
//! 2. [`TwoPly::build`] — every own move `m` and reply `n`, and `SM` of both colours after them: the
//!    table `B(m, n, colour)` (lines 100–240; an impossible own move is marked 5).
//! 3. [`priorities`] — the priority `C(m)` of each move, lower is better (lines 300–510): 1 the move
//!    makes four; 199 some reply makes four for the opponent; 200 the column is full; 2 an own open
//!    three survives every reply; else the weighted sum `C = Y − X + 100` over the replies, where
//!    `X = Σₙ f(B(m, n, 1))`, `Y = Σₙ f(B(m, n, 2))`, `f(3) = 10`, `f(2) = 4`, other strengths as
//!    they are.
//! 4. [`decide`] — the move of lowest priority (lines 520–550: the first such column, scanning from
//!    the left); with `deepen` > 0 the best few are searched further ([`deepen`]).
//!
//! The listing's two slips are fixed by default and kept behind options ([`Params::literal_line310`],
//! [`Params::literal_sign`]); [`priorities`] and [`Board::sm`] list every other place where we read
//! the intent rather than the letter (the article warns that its author rewrote the listing from
//! memory and that technical slips may remain).
//!
//! Boards: any Connect Four size the `games` crate allows (up to 9×9); the listing's loops simply run
//! to the width and height. Other games are refused: [`Engine::choose`] writes the reason to stderr
//! (the arena keeps it in the bot's log) and returns `None`, which the protocol loop answers with
//! `info string error: no legal move` and `bestmove (none)`, as `c4-solver` does.

pub mod board;
pub mod deepen;
pub mod rules;

use std::time::Instant;

use games::connect4::Move as C4Move;
use games::{Connect4, Game};
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

pub use board::Board;
pub use rules::{priorities, Priority, TwoPly};

pub use crate::engine::TieBreak;
use crate::engine::{
    concrete, generic_move, Engine, EngineOption, Limits, OptionError, SearchInfo,
};
use crate::search::settings::rng_for;
use crate::search::Budget;

/// The engine's settings: every option but `seed`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Params {
    /// `f(3)`, the weight of an open three in the sums (lines 440–450); option `weight_three`,
    /// default 10.
    pub weight_three: i64,
    /// `f(2)`, the weight of an open two (lines 460–470); option `weight_two`, default 4.
    pub weight_two: i64,
    /// The weight of the own sum `X` in line 500, percent; option `own_weight`, default 100.
    pub own_weight: i64,
    /// The weight of the opponent's sum `Y` in line 500, percent; option `opp_weight`, default 100.
    pub opp_weight: i64,
    /// Line 310 as written (`D(B) = 1`, an array nothing reads): no move gets priority 1, so a move
    /// that makes four is weighed like any other (its own strength 4 counts 4 in `X`, less than a
    /// three's 10). Option `literal_line310`, default `false` (read as `C(B) = 1`).
    pub literal_line310: bool,
    /// Line 500 as written, `C = X − Y + 100` with the lowest `C` best: the engine then prefers weak
    /// own lines and strong enemy ones. Option `literal_sign`, default `false` (`C = Y − X + 100`).
    pub literal_sign: bool,
    /// How many of the best moves to search further (the article suggests 3); 0 = off.
    /// Only when the best priority is a weighted sum (a win, a forced win by rule 2, or a position
    /// where every move loses at once gains nothing from a search). Option `deepen`, default 0.
    pub deepen: usize,
    /// Plies searched after each candidate move when `deepen` > 0. Option `deepen_plies`, default 3
    /// (with the candidate, 4 plies: the depth of part #6's general program).
    pub deepen_plies: u32,
    /// Option `tiebreak` (`first` | `random`), default `first`: the leftmost, as the listing's lines
    /// 530–550 (`IF C(B) < X`, scanning B = 1..7).
    pub tiebreak: TieBreak,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            weight_three: 10,
            weight_two: 4,
            own_weight: 100,
            opp_weight: 100,
            literal_line310: false,
            literal_sign: false,
            deepen: 0,
            deepen_plies: 3,
            tiebreak: TieBreak::First,
        }
    }
}

/// What [`decide`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decision {
    /// The column to play, 0-based; `None` when every column is full.
    pub column: Option<usize>,
    /// `C(m)` of every column.
    pub priorities: Vec<Priority>,
    /// The possible columns best first: by priority, equal priorities in tie-break order.
    pub order: Vec<usize>,
    /// With `deepen`: each candidate searched and its value for the mover ([`deepen::WIN`] units),
    /// in `order`. Empty when no search was made.
    pub deepened: Vec<(usize, i64)>,
    /// The plies searched after each candidate: [`Params::deepen_plies`], or fewer when the time for
    /// the move ran short ([`decide_within`]); 0 when no search was made.
    pub deepened_plies: u32,
    /// Positions whose strength was computed: the table's, then the deeper search's.
    pub nodes: u64,
}

/// Picks the move for [`board::OWN`] on `board` under `params`; `rng` breaks ties when
/// [`Params::tiebreak`] is [`TieBreak::Random`] (and is not touched otherwise). No clock: the deeper
/// search, if any, goes to [`Params::deepen_plies`].
pub fn decide(board: &Board, params: &Params, rng: &mut ChaCha8Rng) -> Decision {
    decide_within(board, params, rng, None)
}

/// [`decide`] within `time_ms` for the move (`None`: no limit). The deeper search of the candidates
/// then deepens one ply at a time, from 0 to [`Params::deepen_plies`], and keeps the values of the
/// deepest complete round; a next round starts only if the time spent so far plus 7 times the last
/// round's (a ply multiplies the positions by up to 7) stays below `time_ms`. Round 0 (the position
/// right after each candidate) always runs, so `Some(0)` searches no further.
pub fn decide_within(
    board: &Board,
    params: &Params,
    rng: &mut ChaCha8Rng,
    time_ms: Option<u64>,
) -> Decision {
    let start = Instant::now();
    // Step 1. The two-ply table and the priorities.
    let mut work = board.clone();
    let table = TwoPly::build(&mut work);
    let prio = priorities(&table, params);
    let mut nodes = table.nodes();

    // Step 2. The order: priority, then the tie-break (a stable sort keeps left to right).
    let mut order: Vec<usize> = (0..board.width())
        .filter(|&m| prio[m] != Priority::Full)
        .collect();
    if params.tiebreak == TieBreak::Random {
        order.shuffle(rng);
    }
    order.sort_by_key(|&m| prio[m]);

    // Step 3. The article's strengthening: search the best few further, keep the best value (the
    // earlier in `order` on equal values).
    let mut deepened = Vec::new();
    let mut deepened_plies = 0;
    let mut column = order.first().copied();
    if params.deepen > 0 && matches!(column.map(|m| prio[m]), Some(Priority::Weighted(_))) {
        let candidates: Vec<usize> = order
            .iter()
            .take(params.deepen)
            .copied()
            .filter(|&m| matches!(prio[m], Priority::Weighted(_)))
            .collect();
        let first = match time_ms {
            None => params.deepen_plies,
            Some(_) => 0,
        };
        for plies in first..=params.deepen_plies {
            let round = Instant::now();
            deepened = candidates
                .iter()
                .map(|&m| {
                    (
                        m,
                        deepen::candidate_value(&mut work, m, plies, params, &mut nodes),
                    )
                })
                .collect();
            deepened_plies = plies;
            if let Some(t) = time_ms {
                let next = start.elapsed() + round.elapsed() * 7;
                if next.as_secs_f64() * 1000.0 >= t as f64 {
                    break;
                }
            }
        }
        let mut best: Option<(usize, i64)> = None;
        for &(m, v) in &deepened {
            match best {
                Some((_, bv)) if bv >= v => {}
                _ => best = Some((m, v)),
            }
        }
        column = best.map(|(m, _)| m);
    }
    Decision {
        column,
        priorities: prio,
        order,
        deepened,
        deepened_plies,
        nodes,
    }
}

/// The `c4-zx` engine; see the module docs.
///
/// Options (UGI `setoption`): `weight_three` (spin 0..=1000, default 10), `weight_two` (spin
/// 0..=1000, default 4), `own_weight` and `opp_weight` (spin 0..=1000, percent, default 100),
/// `literal_line310` and `literal_sign` (check, default `false`), `deepen` (spin 0..=9, default 0),
/// `deepen_plies` (spin 0..=8, default 3), `tiebreak` (combo `first` | `random`, default `first`),
/// `seed` (spin, 0 = from the operating system; feeds `tiebreak = random`).
///
/// Limits: the listing has no clock, and the two-ply table is fixed work (7 + 49 positions on 7×6).
/// With `deepen` the deeper search (at most `deepen` × 7^`deepen_plies` positions) deepens ply by ply
/// within the time for the move ([`decide_within`], the time of [`Budget::time_for_move`]), so a short
/// clock gets fewer plies; without a clock or `movetime` it always searches `deepen_plies`.
///
/// Reports: one `info depth 2 score S nodes N time T pv M` after the table, `S` =
/// [`Priority::info_score`] of the move (hundredths, higher better); with a deeper search, a second
/// line with `depth` = 1 + `deepen_plies` and `score` the searched value.
#[derive(Debug)]
pub struct C4Zx {
    /// Everything but the seed.
    pub params: Params,
    seed: u64,
    rng: ChaCha8Rng,
}

impl Default for C4Zx {
    fn default() -> Self {
        C4Zx::new(Params::default(), 0)
    }
}

impl C4Zx {
    /// The engine with `params` and `seed` (0: from the operating system).
    pub fn new(params: Params, seed: u64) -> Self {
        C4Zx {
            params,
            seed,
            rng: rng_for(seed),
        }
    }

    /// [`decide`] for the side to move of `pos` (which is not over), with this engine's settings
    /// and generator.
    pub fn decide_connect4(&mut self, pos: &Connect4) -> Decision {
        decide(&Board::from_connect4(pos), &self.params, &mut self.rng)
    }

    /// [`decide_within`] for the side to move of `pos`, within `time_ms` (`None`: no limit).
    pub fn decide_connect4_within(&mut self, pos: &Connect4, time_ms: Option<u64>) -> Decision {
        decide_within(
            &Board::from_connect4(pos),
            &self.params,
            &mut self.rng,
            time_ms,
        )
    }
}

impl Engine for C4Zx {
    fn name(&self) -> String {
        "c4-zx".into()
    }

    fn options(&self) -> Vec<EngineOption> {
        let d = Params::default();
        vec![
            EngineOption::spin("weight_three", d.weight_three, 0, 1000),
            EngineOption::spin("weight_two", d.weight_two, 0, 1000),
            EngineOption::spin("own_weight", d.own_weight, 0, 1000),
            EngineOption::spin("opp_weight", d.opp_weight, 0, 1000),
            EngineOption::check("literal_line310", false),
            EngineOption::check("literal_sign", false),
            EngineOption::spin("deepen", d.deepen as i64, 0, 9),
            EngineOption::spin("deepen_plies", i64::from(d.deepen_plies), 0, 8),
            EngineOption::tiebreak(),
            EngineOption::seed(),
        ]
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), OptionError> {
        let option = EngineOption::find(self.options(), name)?;
        let v = option.parse(value)?.unwrap_or(0);
        let p = &mut self.params;
        match name {
            "weight_three" => p.weight_three = v,
            "weight_two" => p.weight_two = v,
            "own_weight" => p.own_weight = v,
            "opp_weight" => p.opp_weight = v,
            "literal_line310" => p.literal_line310 = v != 0,
            "literal_sign" => p.literal_sign = v != 0,
            "deepen" => p.deepen = v as usize,
            "deepen_plies" => p.deepen_plies = v as u32,
            "tiebreak" => p.tiebreak = TieBreak::from_option(value),
            _ => {
                self.seed = v as u64;
                self.rng = rng_for(self.seed);
            }
        }
        Ok(())
    }

    fn new_game(&mut self) {
        self.rng = rng_for(self.seed);
    }

    /// Refuses every game but Connect Four (stderr says why; returns `None`).
    fn choose<G: Game>(
        &mut self,
        pos: &G,
        limits: &Limits,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> Option<G::Move> {
        let Some(c4) = concrete::<Connect4, G>(pos) else {
            eprintln!(
                "c4-zx: plays Connect Four only (seed 003_b3294bcb59fe041f.txt), not {}",
                pos.spec()
            );
            return None;
        };
        let start = Instant::now();
        let d = self.decide_connect4_within(c4, Budget::time_for_move(limits));
        let col = d.column?;
        let elapsed = || start.elapsed().as_millis() as u64;
        let first = d.order.first().copied().unwrap_or(col);
        info(&SearchInfo {
            depth: 2,
            score: d.priorities[first].info_score(),
            nodes: d.nodes,
            time_ms: elapsed(),
            pv: vec![(first + 1).to_string()],
        });
        if let Some(&(_, v)) = d.deepened.iter().find(|(m, _)| *m == col) {
            info(&SearchInfo {
                depth: 1 + d.deepened_plies,
                score: v,
                nodes: d.nodes,
                time_ms: elapsed(),
                pv: vec![(col + 1).to_string()],
            });
        }
        let m = C4Move::new(u8::try_from(col).ok()?);
        generic_move::<G, _>(m)
    }
}
