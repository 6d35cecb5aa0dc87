//! End to end: each reference search bot (`minimax`, `alphabeta`, `ttt-boardvalue`) plays a short
//! tournament against `random` through the real `arena` binary and wins by a wide margin.
//!
//! Deterministic: the tournament seed fixes the openings and the seeds sent to the bots, the search
//! bots have fixed depth limits, and the clock is generous enough never to cut a search short.

use crate::common;

use common::{games, run, text, write_config};

/// Runs a 10-game match of `bot` (a `[[bots]]` body without the name) against `random` in `game`
/// (a `[game]` body), checks that every game ended normally, and returns `bot`'s score, 0–100 %,
/// and its losses.
fn match_against_random(name: &str, game: &str, bot: &str) -> (f64, u32) {
    let tmp = tempfile::tempdir().unwrap();
    let config = format!(
        "name = \"{name}\"\ngames_per_pair = 10\nseed = 42\nconcurrency = 2\n\
         [game]\n{game}\n\
         [time_control]\ntime_ms = 60000\ninc_ms = 1000\n\
         [[bots]]\nname = \"{name}\"\n{bot}\n\
         [[bots]]\nname = \"random\"\nbuiltin = \"random\"\n"
    );
    let path = write_config(tmp.path(), name, &config);
    let out = run(tmp.path(), &path, &[]);
    assert!(out.status.success(), "{}", text(&out));
    let records = games(tmp.path(), name);
    assert_eq!(records.len(), 10);
    for g in &records {
        assert_eq!(g.termination.as_str(), "normal", "{g:?}");
    }
    let table = arena::standings::standings(&[name.to_string(), "random".into()], &records);
    let row = table.iter().find(|s| s.bot == name).unwrap();
    eprintln!("{name}: {:.1} % ({} losses)", row.score_pct(), row.losses);
    (row.score_pct(), row.losses)
}

#[test]
fn ttt_boardvalue_never_loses_to_random() {
    let (pct, losses) = match_against_random(
        "ttt-boardvalue",
        "name = \"tictactoe\"",
        "builtin = \"ttt-boardvalue\"\noptions = { SkillLevel = 9, tiebreak = \"random\" }",
    );
    assert_eq!(losses, 0);
    assert!(pct >= 80.0, "{pct}");
}

#[test]
fn minimax_beats_random_at_tic_tac_toe_and_connect_four() {
    let (pct, losses) = match_against_random(
        "minimax-ttt",
        "name = \"tictactoe\"",
        "builtin = \"minimax\"\noptions = { depth = 9 }",
    );
    // Full depth is perfect play.
    assert_eq!(losses, 0);
    assert!(pct >= 80.0, "{pct}");
    let (pct, _) = match_against_random(
        "minimax-c4",
        "name = \"connect4\"",
        "builtin = \"minimax\"\noptions = { depth = 3 }",
    );
    assert!(pct >= 90.0, "{pct}");
}

#[test]
fn alphabeta_beats_random_at_connect_four_and_dots() {
    let (pct, _) = match_against_random(
        "alphabeta-c4",
        "name = \"connect4\"",
        "builtin = \"alphabeta\"\noptions = { depth = 5 }",
    );
    assert!(pct >= 90.0, "{pct}");
    let (pct, _) = match_against_random(
        "alphabeta-dots",
        "name = \"dots\"\nwidth = 10\nheight = 10",
        "builtin = \"alphabeta\"\noptions = { depth = 2 }",
    );
    assert!(pct >= 80.0, "{pct}");
}

#[test]
fn c4_zx_beats_random_at_connect_four() {
    // The article's fixed two-ply program: deterministic (leftmost tie-break), no clock.
    let (pct, losses) = match_against_random("c4-zx", "name = \"connect4\"", "builtin = \"c4-zx\"");
    assert_eq!(losses, 0);
    assert!(pct >= 90.0, "{pct}");
}
