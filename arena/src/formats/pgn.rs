//! PGN for every game: one file of all a tournament's games that Ordo and BayesElo rate.
//!
//! As cutechess writes PGN for its non-chess games: the seven-tag roster (`Event`, `Site`, `Date`,
//! `Round`, `White`, `Black`, `Result`) with White the first player and Black the second, then `Variant`
//! (the game and variant words, `dots 39 32 cross`), `TimeControl` (PGN's seconds: `10+0.1`; a cap per move
//! alone as `1/2`, one move in 2 s; `WhiteTimeControl` and `BlackTimeControl` instead when the sides'
//! differ), `Termination` (PGN's words: `normal`, `time forfeit`, `rules infraction` for an illegal move
//! or a protocol breach, `abandoned` for a crash, `adjudication`) and `PlyCount`. A Dots game with setup
//! dots adds `SetUp "1"` and `FEN` holding the setup in the protocol's words (`first 12-22 … second …`),
//! as PGN gives a start position other than the standard one.
//!
//! The movetext holds every move in the game's own notation, numbered by move pairs (`1. 4 4 2. 3 5`),
//! each with a comment: `{book}` for an opening ply, else the time the move took (`{0.012s}`), as
//! cutechess comments its moves; then a comment with the termination and its detail, and the result.

use std::fmt::Write as _;

use crate::config::time_control::RecordedTimeControl;
use crate::formats::seconds;
use crate::record::{GameRecord, Termination};

/// The PGN of `records`, one game after another, each followed by an empty line; `event` is the
/// tournament's name.
pub fn write(records: &[GameRecord], event: &str) -> String {
    records.iter().map(|r| game(r, event)).collect()
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

/// PGN's `Termination` word.
fn termination(t: Termination) -> &'static str {
    match t {
        // PGN has no word of its own for a resignation: it ends the game "normally" (as lichess
        // writes it); the closing comment says `resign`.
        Termination::Normal | Termination::Ground | Termination::Resign => "normal",
        Termination::Timeout => "time forfeit",
        Termination::Illegal | Termination::Protocol | Termination::Limit => "rules infraction",
        Termination::Crash => "abandoned",
        Termination::Adjudicated => "adjudication",
    }
}

fn game(r: &GameRecord, event: &str) -> String {
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
        ("Result", r.result.to_string()),
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
    out.push_str(&tag("Termination", termination(r.termination)));
    out.push_str(&tag("PlyCount", &r.moves.len().to_string()));
    if !r.setup.is_empty() {
        out.push_str(&tag("SetUp", "1"));
        out.push_str(&tag("FEN", &r.setup.to_string()));
    }
    out.push('\n');

    // Step 2. The movetext, wrapped before 80 columns.
    let mut words: Vec<String> = Vec::new();
    let opening = r.opening.len();
    for (k, m) in r.moves.iter().enumerate() {
        if k % 2 == 0 {
            words.push(format!("{}.", k / 2 + 1));
        }
        words.push(m.clone());
        let note = match k.checked_sub(opening) {
            None => Some("{book}".to_string()),
            Some(i) => r.move_ms.get(i).map(|&ms| format!("{{{}s}}", seconds(ms))),
        };
        words.extend(note);
    }
    let ending = if r.detail.is_empty() {
        r.termination.to_string()
    } else {
        format!("{}: {}", r.termination, r.detail)
    };
    // A comment ends at the first `}`.
    words.push(format!("{{{}}}", ending.replace('}', ")")));
    words.push(r.result.to_string());
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
    fn tags_escape_quotes_and_backslashes() {
        assert_eq!(
            tag("White", r#"a "b" \c"#),
            "[White \"a \\\"b\\\" \\\\c\"]\n"
        );
    }
}
