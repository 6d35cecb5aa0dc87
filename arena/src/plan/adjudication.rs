//! Adjudication by the bots' own scores (cutechess's `-resign movecount=3 score=600` and `-draw
//! movenumber=40 movecount=8 score=10`) and by the solver (as cutechess's tablebase adjudication): the
//! rules of `[adjudication]`, checked, and the tests the referee applies before each move request
//! ([`crate::game::referee`]).

use crate::analyze::judge;
use crate::config::AdjudicationConfig;
use crate::record::{MoveEval, Score};
use games::GameSpec;

/// The checked `[adjudication]` of a plan; every rule off by default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Adjudication {
    pub resign: Option<ResignRule>,
    pub draw: Option<DrawRule>,
    /// Adjudication by the solver (`solver_plies`, `solver_nodes`).
    pub solver: Option<SolverRule>,
}

/// Connect Four 7 × 6 and tic-tac-toe: once `after` plies are played (the opening's included), the
/// position before each move is searched by the solver ([`judge::judge`], cold, within `nodes` nodes),
/// and the game ends as soon as its value under perfect play is proved, with that result (termination
/// `solved`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolverRule {
    /// Plies played before the solver is asked (`solver_plies`).
    pub after: u32,
    /// The node cap of each search, 1..=[`judge::MAX_NODES`] (`solver_nodes`).
    pub nodes: u64,
}

/// A bot whose own score was `-score` or worse on each of its last `moves` moves loses when it is next
/// to move, as if it resigned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResignRule {
    /// At least 1.
    pub moves: u32,
    /// At least 0, in the bots' units.
    pub score: i64,
}

/// The game ends, drawn (Dots: by the captures, as `max_plies`), once `after` full moves are played
/// and both bots' scores were within ±`score` on each of their last `moves` moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawRule {
    /// Full moves (a move of each side, the opening's included; in a game where a side may move
    /// again, the fewer moves either side has made) played before the rule applies.
    pub after: u32,
    /// At least 1.
    pub moves: u32,
    /// At least 0, in the bots' units.
    pub score: i64,
}

/// A score as a number to compare: centi-units and units as given, a mate as the most there is (a win)
/// or the least (a loss; `mate 0`, mated, too).
fn value(e: &MoveEval) -> i64 {
    match e.score {
        Score::Cp(x) | Score::Units(x) => x,
        Score::Mate(n) if n > 0 => i64::MAX,
        Score::Mate(_) => i64::MIN,
    }
}

/// The last `n` of `own` (a bot's scores of its moves, oldest first), when it has made `n` moves and
/// gave a score with each.
fn last(own: &[Option<MoveEval>], n: u32) -> Option<Vec<i64>> {
    let n = n as usize;
    if own.len() < n {
        return None;
    }
    own[own.len() - n..]
        .iter()
        .map(|e| e.as_ref().map(value))
        .collect()
}

impl ResignRule {
    /// Whether a bot whose scores of its own moves are `own` (oldest first) resigns now.
    pub fn resigns(&self, own: &[Option<MoveEval>]) -> bool {
        last(own, self.moves).is_some_and(|v| v.iter().all(|&x| x <= -self.score))
    }

    /// The record's detail.
    pub fn detail(&self) -> String {
        format!(
            "adjudicated: its score was -{} or worse on its last {} moves",
            self.score, self.moves
        )
    }
}

impl DrawRule {
    /// Whether the game is drawn now, the two sides having made `made` moves (`[first, second]`, the
    /// opening's included) and the two bots' scores of their own moves being `own`.
    pub fn draws(&self, made: [usize; 2], own: [&[Option<MoveEval>]; 2]) -> bool {
        made[0].min(made[1]) >= self.after as usize
            && own.iter().all(|o| {
                last(o, self.moves).is_some_and(|v| v.iter().all(|&x| x.abs() <= self.score))
            })
    }

    /// The record's detail (before the Dots score, if any).
    pub fn detail(&self) -> String {
        format!(
            "draw adjudication: both scores within ±{} on their last {} moves",
            self.score, self.moves
        )
    }
}

impl Adjudication {
    /// Checks `[adjudication]` for games of `spec`.
    ///
    /// # Errors
    /// A rule given half (`resign_moves` without `resign_score`, …), a count of 0, a negative score,
    /// `draw_after` without the draw rule, `solver_nodes` without `solver_plies` or out of
    /// 1..=[`judge::MAX_NODES`], the solver rule for a game it cannot solve.
    pub fn new(c: &AdjudicationConfig, spec: &GameSpec) -> Result<Adjudication, String> {
        let resign = match (c.resign_moves, c.resign_score) {
            (None, None) => None,
            (Some(moves), Some(score)) => Some(ResignRule { moves, score }),
            _ => return Err("resign_moves and resign_score come together".into()),
        };
        let draw = match (c.draw_moves, c.draw_score) {
            (None, None) if c.draw_after.is_some() => {
                return Err("draw_after needs draw_moves and draw_score".into())
            }
            (None, None) => None,
            (Some(moves), Some(score)) => Some(DrawRule {
                after: c.draw_after.unwrap_or(0),
                moves,
                score,
            }),
            _ => return Err("draw_moves and draw_score come together".into()),
        };
        if resign.is_some_and(|r| r.moves == 0) || draw.is_some_and(|d| d.moves == 0) {
            return Err("resign_moves and draw_moves must be at least 1".into());
        }
        if resign.is_some_and(|r| r.score < 0) || draw.is_some_and(|d| d.score < 0) {
            return Err(
                "resign_score and draw_score are distances from 0, at least 0 (resign_score = 600: \
                 a score of -600 or worse)"
                    .into(),
            );
        }
        let solver = match (c.solver_plies, c.solver_nodes) {
            (None, None) => None,
            (None, Some(_)) => return Err("solver_nodes needs solver_plies".into()),
            (Some(after), nodes) => {
                let nodes = nodes.unwrap_or(judge::DEFAULT_NODES);
                if !(1..=judge::MAX_NODES).contains(&nodes) {
                    return Err(format!(
                        "solver_nodes must be 1 to {} (it was {nodes})",
                        judge::MAX_NODES
                    ));
                }
                judge::supports(spec).map_err(|e| format!("solver_plies: {e}"))?;
                Some(SolverRule { after, nodes })
            }
        };
        Ok(Adjudication {
            resign,
            draw,
            solver,
        })
    }

    /// Whether any rule is on.
    pub fn is_on(&self) -> bool {
        self.resign.is_some() || self.draw.is_some() || self.solver.is_some()
    }

    /// The rules as the fingerprint writes them: `resign 3 moves <= -600; draw after 40, 8 moves within
    /// 10; solver after 12 plies, 1000000 nodes`.
    pub fn words(&self) -> String {
        let mut out = Vec::new();
        if let Some(r) = self.resign {
            out.push(format!("resign {} moves <= -{}", r.moves, r.score));
        }
        if let Some(d) = self.draw {
            out.push(format!(
                "draw after {}, {} moves within {}",
                d.after, d.moves, d.score
            ));
        }
        if let Some(s) = self.solver {
            out.push(format!("solver after {} plies, {} nodes", s.after, s.nodes));
        }
        out.join("; ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cp(x: i64) -> Option<MoveEval> {
        Some(MoveEval {
            score: Score::Units(x),
            depth: Some(4),
        })
    }

    #[test]
    fn a_bot_resigns_after_enough_bad_scores_in_a_row() {
        let r = ResignRule {
            moves: 3,
            score: 600,
        };
        assert!(!r.resigns(&[cp(-700), cp(-700)]), "two moves only");
        assert!(r.resigns(&[cp(50), cp(-600), cp(-700), cp(-900)]));
        assert!(!r.resigns(&[cp(-600), cp(-599), cp(-700)]));
        assert!(
            !r.resigns(&[cp(-700), None, cp(-700)]),
            "a move without a score"
        );
        let mated = Some(MoveEval {
            score: Score::Mate(-2),
            depth: None,
        });
        assert!(r.resigns(&[mated, mated, cp(-600)]));
        let mating = Some(MoveEval {
            score: Score::Mate(2),
            depth: None,
        });
        assert!(!r.resigns(&[mating, cp(-900), cp(-900)]));
    }

    #[test]
    fn a_draw_needs_both_sides_quiet_after_the_move_number() {
        let d = DrawRule {
            after: 3,
            moves: 2,
            score: 10,
        };
        let quiet = [cp(0), cp(-10), cp(10)];
        let q = &quiet[..];
        assert!(d.draws([3, 3], [q, q]));
        assert!(!d.draws([3, 2], [q, q]), "before move 3 is complete");
        assert!(
            !d.draws([4, 2], [q, q]),
            "a side that moved twice in a row has not completed a full move for the other"
        );
        assert!(!d.draws([3, 3], [q, &[cp(11), cp(0), cp(0)][..2]]));
        assert!(!d.draws([3, 3], [q, &[cp(0)][..]]), "one move only");
        assert!(!d.draws([3, 3], [q, &[None, cp(0)][..]]));
    }

    #[test]
    fn the_table_is_checked() {
        let c = |resign: (Option<u32>, Option<i64>),
                 draw: (Option<u32>, Option<u32>, Option<i64>)| {
            Adjudication::new(
                &AdjudicationConfig {
                    resign_moves: resign.0,
                    resign_score: resign.1,
                    draw_after: draw.0,
                    draw_moves: draw.1,
                    draw_score: draw.2,
                    ..AdjudicationConfig::default()
                },
                &"connect4 7 6".parse().unwrap(),
            )
        };
        assert_eq!(
            c((None, None), (None, None, None)),
            Ok(Adjudication::default())
        );
        let a = c((Some(3), Some(600)), (Some(40), Some(8), Some(10))).unwrap();
        assert_eq!(
            a.words(),
            "resign 3 moves <= -600; draw after 40, 8 moves within 10"
        );
        assert!(c((Some(3), None), (None, None, None))
            .unwrap_err()
            .contains("together"));
        assert!(c((None, None), (Some(3), None, None))
            .unwrap_err()
            .contains("draw_after needs"));
        assert!(c((Some(0), Some(6)), (None, None, None))
            .unwrap_err()
            .contains("at least 1"));
        let solver = |plies: Option<u32>, nodes: Option<u64>, spec: &str| {
            Adjudication::new(
                &AdjudicationConfig {
                    solver_plies: plies,
                    solver_nodes: nodes,
                    ..AdjudicationConfig::default()
                },
                &spec.parse().unwrap(),
            )
        };
        let a = solver(Some(12), None, "connect4 7 6").unwrap();
        assert_eq!(a.words(), "solver after 12 plies, 1000000 nodes");
        assert_eq!(
            solver(Some(0), Some(5), "tictactoe 4 3 3").unwrap().solver,
            Some(SolverRule { after: 0, nodes: 5 })
        );
        assert!(solver(None, Some(5), "connect4 7 6")
            .unwrap_err()
            .contains("needs solver_plies"));
        assert!(solver(Some(1), Some(0), "connect4 7 6")
            .unwrap_err()
            .contains("must be 1 to"));
        assert!(solver(Some(1), None, "connect4 6 5")
            .unwrap_err()
            .contains("7 6 only"));
        assert!(solver(Some(1), None, "dots 20 20 cross")
            .unwrap_err()
            .contains("not available for dots"));
        assert!(c((Some(2), Some(-6)), (None, None, None))
            .unwrap_err()
            .contains("at least 0"));
    }
}
