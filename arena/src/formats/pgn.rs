//! PGN for every game: one file of all a tournament's games that Ordo and BayesElo rate.
//!
//! As cutechess writes PGN for its non-chess games: the seven-tag roster (`Event`, `Site`, `Date`,
//! `Round`, `White`, `Black`, `Result`) with White the first player and Black the second, then `Variant`
//! (the game and variant words, `dots 39 32 cross`), `TimeControl` (PGN's seconds: `10+0.1`; a cap per move
//! alone as `1/2`, one move in 2 s; `WhiteTimeControl` and `BlackTimeControl` instead when the sides'
//! differ), `Termination` (PGN's words: `normal`, `time forfeit`, `rules infraction` for an illegal move
//! or a protocol breach, `abandoned` for a crash, `adjudication`, also for a resignation by
//! `[adjudication]`) and `PlyCount`. A Dots game with setup
//! dots adds `SetUp "1"` and `FEN` holding the setup in the protocol's words (`first 12-22 … second …`),
//! as PGN gives a start position other than the standard one.
//!
//! The movetext holds every move in the game's own notation, numbered by move pairs (`1. 4 4 2. 3 5`),
//! each with a comment: `{book}` for an opening ply, else the time the move took (`{0.012s}`), as
//! cutechess comments its moves, after the bot's score and depth when it gave them (`{+0.32/10 0.12s}`,
//! only in the live PGN of `--pgnout`: [`game`] with the evals); then a comment with the termination
//! and its detail, and the result.

use std::fmt::Write as _;

use crate::config::time_control::RecordedTimeControl;
use crate::formats::seconds;
use crate::record::{GameRecord, MoveEval, Termination};

/// The PGN of `records`, one game after another, each followed by an empty line; `event` is the
/// tournament's name.
pub fn write(records: &[GameRecord], event: &str) -> String {
    records.iter().map(|r| game(r, event, &[])).collect()
}

/// A tag value with PGN's escapes (`\` and `"` take a backslash).
fn tag(name: &str, value: &str) -> String {
    let escaped = value.replace('\\', "\\\\").replace('"', "\\\"");
    format!("[{name} \"{escaped}\"]\n")
}

/// PGN's `TimeControl` value of a time control as `games.csv` records it (`?` when unknown).
fn time_control(text: &str) -> String {
    match text.parse::<RecordedTimeControl>() {
        Ok(RecordedTimeControl {
            time_ms: Some(t),
            inc_ms,
            ..
        }) => format!("{}+{}", seconds(t), seconds(inc_ms)),
        Ok(RecordedTimeControl {
            max_move_ms: Some(m),
            ..
        }) => format!("1/{}", seconds(m)),
        _ => "?".into(),
    }
}

/// The `Result` tag: `*` for a voided game (no result), else `1-0`, `0-1`, `1/2-1/2`.
fn result_tag(r: &GameRecord) -> String {
    if r.termination.counts() {
        r.result.to_string()
    } else {
        "*".into()
    }
}

/// PGN's `Termination` word.
fn termination(t: Termination) -> &'static str {
    match t {
        // PGN has no word of its own for a resignation: it ends the game "normally" (as lichess
        // writes it); the closing comment says `resign`.
        Termination::Normal | Termination::Ground | Termination::Resign => "normal",
        Termination::Timeout => "time forfeit",
        Termination::Illegal | Termination::Protocol | Termination::Limit => "rules infraction",
        Termination::Crash => "abandoned",
        Termination::Adjudicated | Termination::Solved => "adjudication",
        Termination::Void => "unterminated",
    }
}

/// One game's PGN, followed by an empty line; `evals` holds the bots' scores of their moves, one per
/// move after the opening (as `move_ms`; shorter, or empty, when there are none).
pub fn game(r: &GameRecord, event: &str, evals: &[Option<MoveEval>]) -> String {
    let mut out = String::new();
    // Step 1. The tags.
    let date = match r.date.get(..10) {
        Some(d) if r.date.len() >= 10 => d.replace('-', "."),
        _ => "????.??.??".into(),
    };
    for (name, value) in [
        ("Event", event.to_string()),
        ("Site", "?".into()),
        ("Date", date),
        ("Round", r.round.to_string()),
        ("White", r.first.clone()),
        ("Black", r.second.clone()),
        ("Result", result_tag(r)),
        ("Variant", format!("{} {}", r.game, r.variant)),
    ] {
        out.push_str(&tag(name, &value));
    }
    let [white, black] = [&r.time_control[0], &r.time_control[1]].map(|t| time_control(t));
    if white == black {
        out.push_str(&tag("TimeControl", &white));
    } else {
        out.push_str(&tag("WhiteTimeControl", &white));
        out.push_str(&tag("BlackTimeControl", &black));
    }
    // A resignation by `[adjudication]` (its detail says so) is cutechess's adjudication.
    let adjudicated = r.termination == Termination::Resign && r.detail.contains(": adjudicated: ");
    out.push_str(&tag(
        "Termination",
        if adjudicated {
            "adjudication"
        } else {
            termination(r.termination)
        },
    ));
    out.push_str(&tag("PlyCount", &r.moves.len().to_string()));
    if !r.setup.is_empty() {
        out.push_str(&tag("SetUp", "1"));
        out.push_str(&tag("FEN", &r.setup.to_string()));
    }
    out.push('\n');

    // Step 2. The movetext, wrapped before 80 columns.
    // Where the side to move does not alternate (Kalah's extra move), every turn is numbered: `n.` for
    // the first player's, `n...` for the second's; else chess's `n.` before the first player's moves.
    let movers = r.movers();
    let alternates = movers.windows(2).all(|w| w[0] != w[1] || w[0].is_none());
    let mut words: Vec<String> = Vec::new();
    let mut turn = 0;
    for (k, m) in r.moves.iter().enumerate() {
        let mover = movers.get(k).copied().flatten();
        if alternates {
            if k % 2 == 0 {
                words.push(format!("{}.", k / 2 + 1));
            }
        } else if k == 0 || movers[k - 1] != mover {
            if mover != Some(games::Player::Second) {
                turn += 1;
                words.push(format!("{turn}."));
            } else {
                words.push(format!("{}...", turn.max(1)));
            }
        }
        words.push(m.clone());
        words.extend(move_comment(r, k, evals).map(|c| format!("{{{c}}}")));
    }
    let ending = if r.detail.is_empty() {
        r.termination.to_string()
    } else {
        format!("{}: {}", r.termination, r.detail)
    };
    // A comment ends at the first `}`.
    words.push(format!("{{{}}}", ending.replace('}', ")")));
    words.push(result_tag(r));
    let mut line = String::new();
    for w in words {
        if !line.is_empty() && line.len() + 1 + w.len() > 79 {
            let _ = writeln!(out, "{line}");
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&w);
    }
    let _ = writeln!(out, "{line}\n");
    out
}

/// The comment of ply `k` (0-based, the opening's plies included) of `r`, without its braces, as
/// cutechess comments a move: `book` for an opening ply, else the mover's score and depth from `evals`
/// (one per move after the opening, as `move_ms`) when it gave them, then the move's time in seconds
/// from `move_ms`: `+0.32/10 0.12s`, `+12/6 0.12s`, `0.12s`. `None` for a move with neither (a ply past
/// the recorded times). The live SGF's `C[..]` carries the same text ([`crate::formats::sgf::commented`]).
pub fn move_comment(r: &GameRecord, k: usize, evals: &[Option<MoveEval>]) -> Option<String> {
    let Some(i) = k.checked_sub(r.opening.len()) else {
        return Some("book".to_string());
    };
    let eval = evals.get(i).copied().flatten().map(|e| e.to_string());
    let time = r.move_ms.get(i).map(|&ms| format!("{}s", seconds(ms)));
    match (eval, time) {
        (Some(e), Some(t)) => Some(format!("{e} {t}")),
        (Some(x), None) | (None, Some(x)) => Some(x),
        (None, None) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_read_as_pgn_seconds() {
        assert_eq!(time_control("10000+100"), "10+0.1");
        assert_eq!(time_control("5000+0 max=700"), "5+0");
        assert_eq!(time_control("max=2000"), "1/2");
        assert_eq!(time_control(""), "?");
    }

    #[test]
    fn moves_carry_the_bots_scores_before_their_times() {
        use crate::record::{GameResult, Score};
        let mut r = GameRecord::example("a", "b", GameResult::FirstWins);
        r.opening = vec!["4".into()];
        r.move_ms = vec![120, 5, 1500, 0, 7, 8];
        let eval = |cp, depth| {
            Some(MoveEval {
                score: Score::Cp(cp),
                depth,
            })
        };
        let evals = [eval(32, Some(10)), None, eval(-7, None)];
        let text = game(&r, "t", &evals);
        let movetext = text.split("\n\n").nth(1).unwrap().replace('\n', " ");
        assert!(
            movetext.starts_with(
                "1. 4 {book} 5 {+0.32/10 0.12s} 2. 4 {0.005s} 5 {-0.07 1.5s} 3. 4 {0s} 5 {0.007s}"
            ),
            "{movetext}"
        );
        // Without evals, as `arena export` writes it.
        let plain = game(&r, "t", &[]);
        assert!(plain.contains("5 {0.12s} 2. 4 {0.005s}"), "{plain}");
    }

    #[test]
    fn tags_escape_quotes_and_backslashes() {
        assert_eq!(
            tag("White", r#"a "b" \c"#),
            "[White \"a \\\"b\\\" \\\\c\"]\n"
        );
    }
}
