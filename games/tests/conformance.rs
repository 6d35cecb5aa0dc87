//! The contract of [`Game`] (see its docs), checked on seeded random games for every game of the
//! registry and a few variants, after OpenSpiel's `RandomSimTest`. A game joins by a line in
//! [`CASES`]; [`every_registered_game_has_a_case`] fails until it does.

use games::{Game, GameKind, GameSpec, GameVisitor};
use rand::seq::IndexedRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// At most this many moves per position go through the play/undo checks; the rest are sampled.
/// A 39×32 Dots board has ~1200 moves per position for ~1200 plies, so checking them all is
/// quadratic in the board area; the cheap checks (`check`, notation) still cover every move.
const PLAY_UNDO_SAMPLE: usize = 64;

/// Plays `games` random games from `start`, seeded by `seed`, checking at every position:
/// - every legal move passes `check` and `is_legal`, and its notation round-trips;
/// - `play_unchecked` then `undo` restores an equal position with the same board text, turn and
///   frame, and `play` accepts the move; `ply` goes up by one;
/// - every frame is valid (`Frame::validate`) and serializes to JSON and back; where a game names the
///   spots a move changed (`Game::changed`), the picture before the move with those spots drawn again
///   (`Game::frame_at`) is the picture after it;
/// - a game on has legal moves, a game over has none, and it is over within [`MAX_PLIES`];
/// - after the end, `play` of any formerly legal move is `GameOver` and changes nothing;
/// - undoing every move gives back the start position.
fn conformance<G: Game>(start: G, games: usize, seed: u64) {
    let spec = start.spec();
    let max_plies = MAX_PLIES;
    assert_eq!(start.ply(), 0, "{spec}: the start position is ply 0");
    let at = |game: usize, played: &[G::Move], pos: &G| {
        format!("{spec}, game {game}, after {played:?}:\n{pos}")
    };
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut moves = Vec::new();
    let mut last_moves = Vec::new();
    for game in 0..games {
        let mut pos = start.clone();
        let mut played = Vec::new();
        while pos.outcome().is_none() {
            assert_eq!(
                pos.ply(),
                played.len(),
                "ply counts plies: {}",
                at(game, &played, &pos)
            );
            assert!(
                pos.ply() < max_plies,
                "game too long: {}",
                at(game, &played, &pos)
            );
            moves.clear();
            pos.legal_moves_into(&mut moves);
            assert!(
                !moves.is_empty(),
                "game on with no legal moves: {}",
                at(game, &played, &pos)
            );
            assert_eq!(pos.legal_moves(), moves);

            for &m in &moves {
                assert_eq!(
                    pos.check(m),
                    Ok(()),
                    "legal move {m} rejected: {}",
                    at(game, &played, &pos)
                );
                assert!(pos.is_legal(m));
                assert_eq!(m.to_string().parse::<G::Move>(), Ok(m), "notation of {m:?}");
            }

            let before = pos.clone();
            let text = pos.to_string();
            let frame = pos.frame();
            frame
                .validate()
                .unwrap_or_else(|e| panic!("invalid frame: {e}: {}", at(game, &played, &pos)));
            let json = serde_json::to_string(&frame).unwrap();
            assert_eq!(
                serde_json::from_str::<games::Frame>(&json).unwrap(),
                frame,
                "the frame's JSON does not read back: {json}"
            );
            let sample: Vec<usize> = if moves.len() <= PLAY_UNDO_SAMPLE {
                (0..moves.len()).collect()
            } else {
                rand::seq::index::sample(&mut rng, moves.len(), PLAY_UNDO_SAMPLE).into_vec()
            };
            for i in sample {
                let m = moves[i];
                pos.play_unchecked(m);
                assert_eq!(pos.ply(), before.ply() + 1, "ply after {m}");
                pos.frame()
                    .validate()
                    .unwrap_or_else(|e| panic!("frame after {m}: {e}"));
                pos.undo();
                assert!(
                    pos == before,
                    "undo of {m} differs: {}\nwas\n{before}",
                    at(game, &played, &pos)
                );
                assert_eq!(pos.to_string(), text, "board text after undo of {m}");
                assert_eq!(pos.turn(), before.turn(), "turn after undo of {m}");
                assert!(pos.frame() == frame, "frame after undo of {m}");
                assert_eq!(pos.outcome(), None);
                assert_eq!(
                    pos.play(m),
                    Ok(()),
                    "play of legal {m}: {}",
                    at(game, &played, &pos)
                );
                pos.undo();
                assert!(
                    pos == before,
                    "undo of {m} after play differs: {}",
                    at(game, &played, &pos)
                );
            }

            let &m = moves.choose(&mut rng).unwrap();
            pos.play(m).unwrap();
            played.push(m);
            if G::ALTERNATES && pos.outcome().is_none() {
                assert_eq!(
                    pos.turn(),
                    before.turn().opponent(),
                    "the game says its sides alternate (Game::ALTERNATES): {}",
                    at(game, &played, &pos)
                );
            }
            std::mem::swap(&mut moves, &mut last_moves);
            if let Some(changed) = pos.changed() {
                assert_eq!(
                    incremental(&frame, &changed, &pos.frame_at(&changed)),
                    sorted(pos.frame()),
                    "the picture from the changed spots differs from the whole: {}",
                    at(game, &played, &pos)
                );
            }
        }

        let end = at(game, &played, &pos);
        pos.frame()
            .validate()
            .unwrap_or_else(|e| panic!("invalid frame at the end: {e}: {end}"));
        assert_eq!(pos.ply(), played.len(), "ply counts plies: {end}");
        assert!(pos.ply() <= max_plies, "game too long: {end}");
        assert!(
            pos.legal_moves().is_empty(),
            "legal moves after the end: {end}"
        );
        let over = pos.clone();
        for &m in &last_moves {
            assert_eq!(pos.play(m), Err(games::PlayError::GameOver), "{m}: {end}");
            assert!(pos == over, "a refused {m} changed the position: {end}");
        }
        for _ in 0..played.len() {
            pos.undo();
        }
        assert!(
            pos == start,
            "undoing every move does not give the start: {end}"
        );
    }
}

/// `f`'s pieces, lines and areas in a fixed order (a picture is a set of them).
fn sorted(mut f: games::Frame) -> games::Frame {
    f.pieces.sort_by_key(|p| serde_json::to_string(p).unwrap());
    f.lines.sort_by_key(|l| serde_json::to_string(l).unwrap());
    f.areas.sort_by_key(|a| serde_json::to_string(a).unwrap());
    f
}

/// The picture after a move from the picture `before` it, what the move changed and the partial
/// picture of it ([`Game::frame_at`]).
fn incremental(
    before: &games::Frame,
    changed: &games::frame::Changed,
    partial: &games::Frame,
) -> games::Frame {
    let spots = &changed.spots;
    let mut f = partial.clone();
    f.board = before.board.clone();
    if !changed.outlines {
        f.areas = before.areas.clone();
        f.lines = before.lines.clone();
    }
    f.pieces = before
        .pieces
        .iter()
        .filter(|p| !spots.contains(&[p.x, p.y]))
        .chain(&partial.pieces)
        .cloned()
        .collect();
    sorted(f)
}

/// Longer games fail: every game of the registry ends well within it (Dots 39×32 has 1,248 points).
const MAX_PLIES: usize = 5_000;

/// `(spec, games, seed)`: the variants checked, at least one per game of the registry.
const CASES: &[(&str, usize, u64)] = &[
    ("tictactoe 3 3 3", 300, 1),
    ("tictactoe 5 4 4", 200, 2),
    ("connect4 7 6", 200, 3),
    ("connect4 9 9", 100, 4),
    ("connect4 4 4", 200, 5),
    ("dots 8 8 empty", 30, 6),
    ("dots 20 20 cross", 5, 7),
    ("dots 39 32 cross", 1, 8),
    ("kalah 6 4", 300, 10),
    ("kalah 6 6", 100, 11),
    ("kalah 3 1", 300, 12),
];

struct Check {
    games: usize,
    seed: u64,
}

impl GameVisitor for Check {
    type Output = ();
    fn visit<G: Game>(self, start: G) {
        conformance(start, self.games, self.seed);
    }
}

#[test]
fn every_case_conforms() {
    for &(spec, games, seed) in CASES {
        let spec: GameSpec = spec.parse().unwrap();
        spec.visit(Check { games, seed });
    }
}

#[test]
fn every_registered_game_has_a_case() {
    for &kind in GameKind::ALL {
        assert!(
            CASES
                .iter()
                .any(|(s, _, _)| s.parse::<GameSpec>().unwrap().kind() == kind),
            "{kind} has no conformance case"
        );
    }
}

/// A start with setup dots of its own (an SGF game's `AB`/`AW`): zagram-style crosses at uneven
/// points, a lone dot, and a setup dot on the border, on top of the cross.
#[test]
fn dots_12x10_cross_with_setup() {
    let setup: games::Setup = "first 3-8 4-7 9-4 10-3 12-10 second 3-7 4-8 9-3 10-4 1-1"
        .parse()
        .unwrap();
    let variant = games::dots::DotsVariant {
        width: 12,
        height: 10,
        start: games::dots::Start::Cross,
    };
    let start = games::Dots::start_with_setup(variant, &setup).unwrap();
    assert_eq!(start.setup(), setup);
    conformance(start, 20, 9);
}
