//! Re-refereeing a recorded game: its moves replayed by the rules from its start, and its result, ending
//! and score checked against the position they reach. Every reader of `games.csv` runs it
//! ([`super::read_games_csv`]), so `arena run` (on resume), `report`, `ratings` and `merge` refuse a row
//! that a bot or a person edited to change a result, however well-formed the row is.
//!
//! What follows from the moves:
//! - `normal` and `ground`: the game is over after them, with that result (and `ground` is the last move);
//! - `adjudicated`: the game is not over; the result is the score's (Dots) or a draw;
//! - `solved`: the game is not over, and the solver proves its result from the position reached, in
//!   the nodes the detail says the referee's proof took ([`judge`]: the same cold search);
//! - a forfeit or `resign`: the game is not over, and the loser is the side to move after the recorded
//!   moves (a bot forfeits when it is asked for a move, and its faulty answer is not recorded), or either
//!   side before either has moved (the handshake: no moves, the opening not played; rows of earlier
//!   versions hold the opening as their moves);
//! - the score (Dots) is the position's, and `plies` the number of moves.

use games::{Game, GameSpec, GameVisitor, Player};

use crate::analyze::judge;
use crate::record::{GameRecord, GameResult, Termination};

/// Replays `record`'s moves and checks its result, termination and score against them.
///
/// # Errors
/// One sentence saying what does not follow from the moves (the caller adds the file, line and game).
pub fn verify(record: &GameRecord) -> Result<(), String> {
    let spec: GameSpec = format!("{} {}", record.game, record.variant)
        .parse()
        .map_err(|e| format!("game {} {}: {e}", record.game, record.variant))?;
    spec.visit_with_setup(&record.setup, Replay { record, spec })
        .map_err(|e| format!("setup {}: {e}", record.setup))?
}

struct Replay<'a> {
    record: &'a GameRecord,
    spec: GameSpec,
}

impl GameVisitor for Replay<'_> {
    type Output = Result<(), String>;

    fn visit<G: Game>(self, mut pos: G) -> Result<(), String> {
        let r = self.record;
        if r.plies as usize != r.moves.len() {
            return Err(format!(
                "plies {} but {} moves recorded",
                r.plies,
                r.moves.len()
            ));
        }
        // A game that ended in its handshake never played its opening (rows of earlier versions
        // recorded it as the moves).
        let unplayed = r.moves.is_empty() && r.termination.is_forfeit();
        // A game voided while its opening was played ends within the opening.
        let cut = r.termination == Termination::Void && r.opening.starts_with(&r.moves);
        // A game the contest server did not play (its bot disqualified meanwhile): void, no move.
        if r.termination == Termination::Void
            && r.moves.is_empty()
            && r.detail.starts_with(crate::record::NOT_PLAYED)
        {
            return Ok(());
        }
        if !r.moves.starts_with(&r.opening) && !unplayed && !cut {
            return Err("the moves do not start with the opening".into());
        }
        // A voided game: its module must fail again on the same moves (it is deterministic, or
        // re-refereeing finds it out); any other game: it must not fail on what the referee asked.
        let void = r.termination == Termination::Void;
        let failed = |pos: &G| -> Option<Result<(), String>> {
            let fault = pos.fault()?;
            Some(if void {
                Ok(())
            } else {
                Err(format!("the game module failed on its moves: {fault}"))
            })
        };
        for (i, text) in r.moves.iter().enumerate() {
            if let Some(done) = failed(&pos) {
                return done;
            }
            if pos.outcome().is_some() {
                return Err(format!(
                    "the game was over after {i} plies, and {} more moves follow",
                    r.moves.len() - i
                ));
            }
            let m: G::Move = text
                .parse()
                .map_err(|e| format!("move {} ({text}): {e}", i + 1))?;
            let played = pos.play(m);
            if let Some(done) = failed(&pos) {
                return done;
            }
            played.map_err(|e| format!("move {} ({text}): {e}", i + 1))?;
        }
        let _ = (pos.turn(), pos.outcome(), pos.score());
        if let Some(done) = failed(&pos) {
            return done;
        }
        if void {
            // The referee draws the position only for a watched run: the picture last.
            let _ = pos.frame();
            if let Some(done) = failed(&pos) {
                return done;
            }
        }
        // Voided because the rules failed inside a built-in engine's own process, in a position of its
        // search that the game never reached: the game's moves replay, and nothing more can be asked.
        if void && r.detail.contains(bots::protocol::RULES_FAILED) {
            return Ok(());
        }
        if void {
            return Err(format!(
                "{} {}, but the game module does not fail on its {} moves",
                r.result,
                r.termination,
                r.moves.len()
            ));
        }
        if r.score != pos.score() {
            return Err(format!(
                "score {} but the moves give {}",
                score_text(r.score),
                score_text(pos.score())
            ));
        }
        let outcome = pos.outcome();
        let claimed = format!("{} {}", r.result, r.termination);
        match r.termination {
            Termination::Void => unreachable!("returned above"),
            Termination::Normal | Termination::Ground => {
                let Some(outcome) = outcome else {
                    return Err(format!(
                        "{claimed}, but the game is not over after its {} moves",
                        r.moves.len()
                    ));
                };
                let result = GameResult::from_winner(outcome.winner());
                if result != r.result {
                    return Err(format!("{claimed}, but the moves end it {result}"));
                }
                let grounded = r.moves.last().map(String::as_str) == Some("ground");
                if grounded != (r.termination == Termination::Ground) {
                    return Err(format!(
                        "{claimed}, but the last move is {}",
                        r.moves.last().map_or("none", String::as_str)
                    ));
                }
            }
            Termination::Adjudicated => {
                if outcome.is_some() {
                    return Err(format!(
                        "{claimed}, but the moves end the game by the rules"
                    ));
                }
                let result = pos.score().map_or(GameResult::Draw, GameResult::from_score);
                if result != r.result {
                    return Err(format!("{claimed}, but the adjudication gives {result}"));
                }
            }
            Termination::Solved => {
                if outcome.is_some() {
                    return Err(format!(
                        "{claimed}, but the moves end the game by the rules"
                    ));
                }
                // The referee's proof, repeated: the same cold search within the nodes it took
                // (a proof of 0 nodes, by the book or a win on the board, needs no search); if
                // that is not enough (a record of another version of the solver), once more within
                // the most a verdict may take, and for a win once more asking "won?" first
                // ([`reprove`]).
                let nodes = judge::nodes_in(&r.detail)
                    .filter(|&n| n <= judge::MAX_NODES)
                    .ok_or_else(|| {
                        format!(
                            "{claimed}, but the detail gives no proof's nodes (0 to {})",
                            judge::MAX_NODES
                        )
                    })?;
                let won = r.result == GameResult::from_winner(Some(pos.turn()));
                let verdict = reprove(&self.spec, &r.moves, nodes, won, judge::MAX_NODES)
                    .map_err(|e| format!("{claimed}: {e}"))?
                    .ok_or_else(|| {
                        format!(
                            "{claimed}, but the solver proves nothing in {} nodes",
                            judge::MAX_NODES
                        )
                    })?;
                let result = verdict.result(pos.turn());
                if result != r.result {
                    return Err(format!("{claimed}, but the solver gives {result}"));
                }
                // The detail says that result too.
                let words = |d: &str| d.rsplit_once(" (proved in ").map(|(w, _)| w.to_owned());
                if words(&r.detail) != words(&verdict.detail(result)) {
                    return Err(format!("{claimed}, but the detail says {:?}", r.detail));
                }
            }
            Termination::Resign
            | Termination::Timeout
            | Termination::Crash
            | Termination::Illegal
            | Termination::Protocol
            | Termination::Limit => {
                if outcome.is_some() {
                    return Err(format!(
                        "{claimed}, but the moves end the game by the rules"
                    ));
                }
                let loser = match r.result {
                    GameResult::FirstWins => Player::Second,
                    GameResult::SecondWins => Player::First,
                    GameResult::Draw => {
                        return Err(format!("{claimed}: a forfeit or resignation is no draw"))
                    }
                };
                let handshake = r.moves.len() == r.opening.len() || unplayed;
                if !handshake && loser != pos.turn() {
                    return Err(format!(
                        "{claimed}: the {} player lost by {}, but the {} player was to move",
                        side(loser),
                        r.termination,
                        side(pos.turn())
                    ));
                }
            }
        }
        Ok(())
    }
}

/// The verdict on the position `moves` reach, proved again as the referee proved it: the same cold
/// search within the `nodes` the record's proof took; if that is not enough (a record of another
/// version of the solver), once more within `cap` nodes ([`judge::MAX_NODES`]); and when that runs
/// out and `won` (the record says the side to move wins), Connect Four once more within `cap`
/// asking "won?" first ([`judge::judge_won_first`]). `None`: no proof.
///
/// # Errors
/// [`judge::judge`]'s.
fn reprove(
    spec: &GameSpec,
    moves: &[String],
    nodes: u64,
    won: bool,
    cap: u64,
) -> Result<Option<judge::Verdict>, String> {
    let verdict = match judge::judge(spec, moves, nodes.max(1))? {
        None if nodes < cap => judge::judge(spec, moves, cap)?,
        verdict => verdict,
    };
    // Connect Four's proof asks "not lost?" first since 54b44b8; a win then takes a probe more than
    // in the order of the records before (1226317544: 7.7 M nodes against 6.4 M), so a win those
    // proved within the cap may now run out of it: once more, asking "won?" first (the same verdict
    // for a game whose judge has no such order).
    match verdict {
        None if won => judge::judge_won_first(spec, moves, cap),
        verdict => Ok(verdict),
    }
}

fn side(p: Player) -> &'static str {
    match p {
        Player::First => "first",
        Player::Second => "second",
    }
}

fn score_text(s: Option<[u32; 2]>) -> String {
    s.map_or("none".into(), |[x, y]| format!("{x}:{y}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyze::Value;

    /// Connect Four: the first player drops four in column 4 while the second plays column 5.
    fn won() -> GameRecord {
        let g = GameRecord::example("a", "b", GameResult::FirstWins);
        assert_eq!(g.moves.join(""), "4545454");
        g
    }

    #[test]
    fn a_game_whose_moves_give_its_result_passes() {
        assert_eq!(verify(&won()), Ok(()));
        let mut timeout = won();
        timeout.moves.pop();
        timeout.plies = 6;
        timeout.termination = Termination::Timeout;
        // After 6 plies the first player is to move: its timeout is the second's win.
        timeout.result = GameResult::SecondWins;
        assert_eq!(verify(&timeout), Ok(()));
        let mut handshake = GameRecord::example("a", "b", GameResult::FirstWins);
        handshake.moves.clear();
        handshake.plies = 0;
        handshake.termination = Termination::Crash;
        assert_eq!(verify(&handshake), Ok(()));
    }

    /// A bot that never finished its handshake was never sent the opening: its game records the
    /// opening it was scheduled with, and no move played. The rows of earlier versions, whose moves
    /// are the opening, still pass.
    #[test]
    fn a_game_ended_in_its_handshake_has_its_opening_and_no_move() {
        let mut g = GameRecord::example("a", "b", GameResult::SecondWins);
        g.opening = vec!["4".into(), "4".into()];
        g.moves.clear();
        g.plies = 0;
        g.termination = Termination::Timeout;
        assert_eq!(verify(&g), Ok(()));
        g.result = GameResult::FirstWins;
        assert_eq!(verify(&g), Ok(()));
        // Before this record: the opening as the moves.
        g.moves = g.opening.clone();
        g.plies = 2;
        assert_eq!(verify(&g), Ok(()));
        // A game that ended by the rules has played its opening.
        let mut g = won();
        g.opening = vec!["4".into()];
        g.moves.clear();
        g.plies = 0;
        assert!(verify(&g).is_err());
    }

    #[test]
    fn a_result_turned_around_is_refused() {
        let mut g = won();
        g.result = GameResult::SecondWins;
        assert_eq!(
            verify(&g).unwrap_err(),
            "0-1 normal, but the moves end it 1-0"
        );
        g.result = GameResult::Draw;
        g.termination = Termination::Adjudicated;
        assert_eq!(
            verify(&g).unwrap_err(),
            "1/2-1/2 adjudicated, but the moves end the game by the rules"
        );
    }

    /// A game the solver ended passes when the same search proves its result in the nodes its detail
    /// gives, and only then.
    #[test]
    fn a_solved_game_is_proved_again() {
        let mut g = won();
        g.moves.pop();
        g.plies = 6;
        g.termination = Termination::Solved;
        g.detail = "solver: a win for the first player (proved in 1000 nodes)".into();
        assert_eq!(verify(&g), Ok(()));
        g.result = GameResult::SecondWins;
        assert_eq!(
            verify(&g).unwrap_err(),
            "0-1 solved, but the solver gives 1-0"
        );
        g.result = GameResult::FirstWins;
        g.detail = "solver: a win for the first player".into();
        assert!(verify(&g).unwrap_err().contains("gives no proof's nodes"));
        // Past the opening book, 50 nodes prove nothing: a record of another version of the solver,
        // proved again within the most a verdict may take.
        g.moves = "4 4 4 4 4 3 3 3 3 5 5"
            .split(' ')
            .map(String::from)
            .collect();
        g.plies = 11;
        let spec: GameSpec = "connect4 7 6".parse().unwrap();
        assert_eq!(judge::judge(&spec, &g.moves, 50), Ok(None));
        let mut verdict = judge::judge(&spec, &g.moves, judge::MAX_NODES)
            .unwrap()
            .unwrap();
        verdict.nodes = 50;
        let truth = verdict.result(Player::Second);
        g.result = truth;
        g.detail = verdict.detail(truth);
        assert_eq!(verify(&g), Ok(()));
        // Another result is refused, and so is a detail that says another one.
        let other = if truth == GameResult::Draw {
            GameResult::FirstWins
        } else {
            GameResult::Draw
        };
        g.result = other;
        g.detail = verdict.detail(other);
        assert_eq!(
            verify(&g).unwrap_err(),
            format!("{other} solved, but the solver gives {truth}")
        );
        g.result = truth;
        assert!(verify(&g).unwrap_err().contains("but the detail says"));
        let mut over = won();
        over.termination = Termination::Solved;
        over.detail = "solver: a win for the first player (proved in 1000 nodes)".into();
        assert!(verify(&over)
            .unwrap_err()
            .contains("end the game by the rules"));
    }

    /// A Connect Four win recorded by the solver before 54b44b8, which asked "won?" first, may need
    /// more nodes than the cap with "not lost?" first: it is proved again asking "won?" first, when
    /// the record says the side to move wins.
    #[test]
    fn a_win_out_of_nodes_is_proved_again_asking_won_first() {
        let spec: GameSpec = "connect4 7 6".parse().unwrap();
        // The first player to move wins; "won?" alone proves it in about 12,000 nodes, "not lost?"
        // then "won?" in about 33,000.
        let moves: Vec<String> = "7 7 6 5 5 7 4 6 2 2 5 6"
            .split(' ')
            .map(String::from)
            .collect();
        let old = judge::judge_won_first(&spec, &moves, judge::MAX_NODES)
            .unwrap()
            .unwrap();
        let new = judge::judge(&spec, &moves, judge::MAX_NODES)
            .unwrap()
            .unwrap();
        assert_eq!((old.value, new.value), (Value::Win, Value::Win));
        assert!(old.nodes < new.nodes, "{old:?} {new:?}");
        // The old proof's nodes as the cap: too few for the new order, enough asking "won?" first.
        assert_eq!(
            reprove(&spec, &moves, old.nodes, true, old.nodes),
            Ok(Some(old))
        );
        // Not for a record of a draw or a loss, nor when the new order proves it within the cap.
        assert_eq!(
            reprove(&spec, &moves, old.nodes, false, old.nodes),
            Ok(None)
        );
        assert_eq!(
            reprove(&spec, &moves, old.nodes, true, judge::MAX_NODES),
            Ok(Some(new))
        );
    }

    #[test]
    fn a_forfeit_charged_to_the_side_that_was_not_to_move_is_refused() {
        let mut g = won();
        g.moves.pop();
        g.plies = 6;
        g.termination = Termination::Crash;
        g.result = GameResult::FirstWins;
        assert_eq!(
            verify(&g).unwrap_err(),
            "1-0 crash: the second player lost by crash, but the first player was to move"
        );
    }

    #[test]
    fn moves_that_are_illegal_or_past_the_end_or_miscounted_are_refused() {
        let mut g = won();
        g.moves.push("1".into());
        g.plies = 8;
        assert!(verify(&g).unwrap_err().contains("over after 7 plies"));
        let mut g = won();
        g.plies = 9;
        assert!(verify(&g).unwrap_err().contains("plies 9 but 7 moves"));
        let mut g = won();
        g.moves[0] = "9".into();
        assert!(verify(&g).unwrap_err().starts_with("move 1 (9)"));
        let mut g = won();
        g.score = Some([1, 0]);
        assert_eq!(verify(&g).unwrap_err(), "score 1:0 but the moves give none");
    }
}
