//! The organiser's conformance test of a game module (`arena check-game`): seeded random games through
//! two instances of the module at once, checking at every position what the referee relies on.

use std::time::{Duration, Instant};

use super::{Loaded, ModuleGame, ModuleMove, ModuleVariant};
use crate::Game;

/// The longest game the check plays out, plies: a game still on after it is a failure.
pub const MAX_PLIES: usize = 10_000;

/// What a passing check played and how long the module took.
#[derive(Clone, Debug, PartialEq)]
pub struct Checked {
    /// Games played to their end.
    pub games: usize,
    /// Plies in all.
    pub plies: usize,
    /// The longest game, plies.
    pub longest: usize,
    /// Wins of the first player, of the second, and draws.
    pub results: [usize; 3],
    /// Time in the module per ply (one instance's legal moves, play, outcome and picture), µs.
    pub us_per_ply: f64,
    /// The longest single ply, µs.
    pub slowest_ply_us: f64,
}

/// The first thing found wrong: in which game, after which moves, and what.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("game {game} (seed {seed}), after the moves [{moves}]: {what}", moves = moves.join(" "))]
pub struct CheckFailure {
    /// The game, counted from 1.
    pub game: usize,
    /// The seed of its moves.
    pub seed: u64,
    /// The moves that reach the position at fault.
    pub moves: Vec<String>,
    /// What is wrong.
    pub what: String,
}

/// splitmix64: the check's own seeded choice of moves (no dependency; the same on every machine).
fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Plays `games` random games of `variant` of `module` (game `k` from seed `seed + k`) and checks at
/// every position:
/// - the same moves give the same position in a second instance (legal moves, side to move, outcome,
///   score and picture): the module is deterministic;
/// - every legal move is accepted ([`Game::check`]: play and undo), and the position is unchanged
///   after it: undo restores it;
/// - moves that were legal elsewhere but are not listed here are refused;
/// - every picture is valid ([`crate::Frame::validate`], checked when it is read);
/// - a game on has legal moves, and it ends within [`MAX_PLIES`];
/// - the module never faults (traps, fuel, memory, answers outside the ABI).
///
/// # Errors
/// The first [`CheckFailure`]: the game, its seed, the moves that reach it, what is wrong.
pub fn check(
    module: &'static Loaded,
    variant: &str,
    games: usize,
    seed: u64,
) -> Result<Checked, CheckFailure> {
    let v = ModuleVariant::new(module, variant).map_err(|e| CheckFailure {
        game: 0,
        seed,
        moves: Vec::new(),
        what: e.to_string(),
    })?;
    let mut out = Checked {
        games: 0,
        plies: 0,
        longest: 0,
        results: [0; 3],
        us_per_ply: 0.0,
        slowest_ply_us: 0.0,
    };
    let mut timed = Duration::ZERO;
    let mut seen: Vec<ModuleMove> = Vec::new();
    for k in 0..games {
        let game_seed = seed.wrapping_add(k as u64);
        let mut rng = game_seed;
        let mut a = ModuleGame::start(v);
        let mut b = ModuleGame::start(v);
        let fail = |pos: &ModuleGame, what: String| CheckFailure {
            game: k + 1,
            seed: game_seed,
            moves: pos.moves().map(str::to_string).collect(),
            what,
        };
        let faulted = |pos: &ModuleGame| pos.fault().map(|f| fail(pos, f));
        loop {
            let t = Instant::now();
            let legal = a.legal_moves();
            let outcome = a.outcome();
            let frame = a.frame();
            let spent = t.elapsed();
            if let Some(f) = faulted(&a).or_else(|| faulted(&b)) {
                return Err(f);
            }
            let same = legal == b.legal_moves()
                && a.turn() == b.turn()
                && outcome == b.outcome()
                && a.score() == b.score()
                && frame == b.frame();
            if let Some(f) = faulted(&b) {
                return Err(f);
            }
            if !same {
                return Err(fail(
                    &a,
                    "two instances given the same moves disagree (legal moves, side to move, outcome, score or picture): the module is not deterministic".into(),
                ));
            }
            if outcome.is_some() {
                if !legal.is_empty() {
                    return Err(fail(
                        &a,
                        format!(
                            "the game is over but {} moves are listed as legal",
                            legal.len()
                        ),
                    ));
                }
                let r = match outcome {
                    Some(crate::Outcome::Win(p)) => p.index(),
                    _ => 2,
                };
                out.results[r] += 1;
                break;
            }
            if legal.is_empty() {
                return Err(fail(&a, "the game is on but no move is legal".into()));
            }
            if a.ply() >= MAX_PLIES {
                return Err(fail(
                    &a,
                    format!("the game is still on after {MAX_PLIES} plies"),
                ));
            }
            for &m in &legal {
                if let Err(e) = a.check(m) {
                    return Err(faulted(&a).unwrap_or_else(|| {
                        fail(&a, format!("the legal move {m} is refused: {e}"))
                    }));
                }
            }
            // Up to 8 moves legal elsewhere but not here.
            for &m in seen.iter().filter(|m| !legal.contains(m)).take(8) {
                if a.check(m).is_ok() {
                    return Err(fail(&a, format!("{m} is accepted but not listed as legal")));
                }
            }
            if let Some(f) = faulted(&a) {
                return Err(f);
            }
            if a.legal_moves() != legal || a.frame() != frame {
                return Err(fail(&a, "trying the legal moves (play and undo) changed the position: undo does not restore it".into()));
            }
            for &m in &legal {
                if !seen.contains(&m) {
                    seen.push(m);
                }
            }
            let m = legal[(next(&mut rng) % legal.len() as u64) as usize];
            let t = Instant::now();
            let played = a.play(m);
            let spent = spent + t.elapsed();
            timed += spent;
            out.slowest_ply_us = out.slowest_ply_us.max(spent.as_secs_f64() * 1e6);
            if let Err(e) = played.and_then(|()| b.play(m)) {
                return Err(faulted(&a)
                    .or_else(|| faulted(&b))
                    .unwrap_or_else(|| fail(&a, format!("the legal move {m} is refused: {e}"))));
            }
            out.plies += 1;
        }
        out.games += 1;
        out.longest = out.longest.max(a.ply());
    }
    out.us_per_ply = timed.as_secs_f64() * 1e6 / out.plies.max(1) as f64;
    Ok(out)
}
