//! The situations every Dots implementation must test (end of `shared/DOTS_RULES.md`), plus the
//! notation, the start positions and undo. Each position is built by moves and checked as the
//! board `Display` draws it: `X`/`O` live dots of the first/second player, `x`/`o` captured ones,
//! `.` empty, `+`/`-` empty in a house of the first/second player, `,` empty and dead in a base.

use games::dots::{Dots, Move, MovesError, Point, Start};
use games::{Game, GameSpec, Outcome, PlayError, Player};

/// A picture's rows without indentation or blank lines, each ending in `\n`: `Display`'s format.
fn pic(s: &str) -> String {
    s.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(|l| format!("{l}\n"))
        .collect()
}

/// The board of `picture` (rows from the top; `X` first player's dots, `O` second's, `.` empty),
/// built by playing its dots alternately in reading order, the first player's first: the counts
/// must be equal (first player to move) or the first player's one more. The pictures have no closed
/// cycle, so no capture or house forms on the way, whatever the order.
fn setup(picture: &str) -> Dots {
    let rows: Vec<String> = pic(picture).lines().map(String::from).collect();
    let (w, h) = (rows[0].len() as u8, rows.len() as u8);
    let (mut xs, mut os) = (Vec::new(), Vec::new());
    for (r, row) in rows.iter().enumerate() {
        assert_eq!(row.len(), w as usize, "ragged picture");
        for (c, ch) in row.chars().enumerate() {
            let m = Move::Put {
                x: c as u8 + 1,
                y: h - r as u8,
            };
            match ch {
                'X' => xs.push(m),
                'O' => os.push(m),
                '.' => {}
                _ => panic!("setup pictures hold X, O and . only"),
            }
        }
    }
    assert!(
        xs.len() == os.len() || xs.len() == os.len() + 1,
        "{} X and {} O",
        xs.len(),
        os.len()
    );
    let mut pos = Dots::new(w, h, Start::Empty);
    for (k, &m) in xs.iter().enumerate() {
        pos.play(m).unwrap();
        if let Some(&m) = os.get(k) {
            pos.play(m).unwrap();
        }
    }
    assert_eq!(pos.score(), Some([0, 0]));
    assert_eq!(pos.to_string(), pic(picture), "setup formed something");
    pos
}

fn mv(s: &str) -> Move {
    s.parse().unwrap()
}

fn play(pos: &mut Dots, m: &str) {
    if let Err(e) = pos.play(mv(m)) {
        panic!("{m}: {e}\n{pos}");
    }
}

/// Plays `m`, then checks that undo restores an equal position and replay the same one.
fn play_and_check_undo(pos: &mut Dots, m: &str) {
    let before = pos.clone();
    play(pos, m);
    let after = pos.clone();
    pos.undo();
    assert_eq!(*pos, before, "undo of {m}");
    assert_eq!(pos.to_string(), before.to_string());
    play(pos, m);
    assert_eq!(*pos, after, "replay of {m}");
}

#[test]
fn single_dot_captured_in_the_open() {
    let mut pos = setup(
        "
        .......
        ...X...
        ..XOX..
        .......
        O.....O
        ",
    );
    assert!(pos.is_legal(mv("4-2")));
    play_and_check_undo(&mut pos, "4-2");
    assert_eq!(
        pos.to_string(),
        pic("
            .......
            ...X...
            ..XoX..
            ...X...
            O.....O
            ")
    );
    assert_eq!(pos.score(), Some([1, 0]));
    assert_eq!(pos.point(4, 3), Some(Point::Captured(Player::Second)));
    assert_eq!(pos.check(mv("4-3")), Err(PlayError::Occupied("4-3".into())));
    assert_eq!(pos.legal_moves().len(), 35 - 7);
    assert_eq!(pos.outcome(), None);
}

#[test]
fn several_dots_and_an_empty_point_captured_by_one_chain() {
    let mut pos = setup(
        "
        ........
        ........
        ...XX...
        ..XO.X..
        ..X.OX..
        ...X....
        OOOOO...
        ",
    );
    play_and_check_undo(&mut pos, "5-2");
    assert_eq!(
        pos.to_string(),
        pic("
            ........
            ........
            ...XX...
            ..Xo,X..
            ..X,oX..
            ...XX...
            OOOOO...
            ")
    );
    assert_eq!(pos.score(), Some([2, 0]));
    // The empty points inside are dead for both players (R5, R7).
    assert_eq!(pos.point(5, 4), Some(Point::Dead(Player::First)));
    assert!(!pos.is_legal(mv("5-4")));
    assert!(!pos.is_legal(mv("4-3")));
}

#[test]
fn no_capture_against_the_edge() {
    // R1: the edge is not a wall, so a dot on the edge can never be captured.
    let mut pos = setup(
        "
        ...OOO
        X.....
        OX....
        ....XX
        ....XO
        ",
    );
    play_and_check_undo(&mut pos, "1-2");
    assert_eq!(
        pos.to_string(),
        pic("
            ...OOO
            X.....
            OX....
            X...XX
            ....XO
            ")
    );
    assert_eq!(pos.score(), Some([0, 0]));
    assert_eq!(pos.point(1, 3), Some(Point::Dot(Player::Second)));
    assert_eq!(pos.legal_moves().len(), 30 - 11);
}

#[test]
fn house_stays_playable_then_an_enemy_dot_played_into_it_is_captured() {
    let mut pos = setup(
        "
        .......
        ...X...
        ..X.X..
        .......
        .......
        OOO....
        ",
    );
    play_and_check_undo(&mut pos, "4-3");
    // An enclosure with nothing inside is a house: no score, and its inside stays legal (R5, R9).
    assert_eq!(
        pos.to_string(),
        pic("
            .......
            ...X...
            ..X+X..
            ...X...
            .......
            OOO....
            ")
    );
    assert_eq!(pos.score(), Some([0, 0]));
    assert_eq!(pos.point(4, 4), Some(Point::House(Player::First)));
    assert!(pos.is_legal(mv("4-4")));
    assert!(pos.legal_moves().contains(&mv("4-4")));

    // The owner may fill its own house: nothing happens.
    let mut own = pos.clone();
    play(&mut own, "7-1");
    play(&mut own, "4-4");
    assert_eq!(own.point(4, 4), Some(Point::Dot(Player::First)));
    assert_eq!(own.score(), Some([0, 0]));

    // The enemy's dot is captured at once by the house owner (R9).
    play_and_check_undo(&mut pos, "4-4");
    assert_eq!(
        pos.to_string(),
        pic("
            .......
            ...X...
            ..XoX..
            ...X...
            .......
            OOO....
            ")
    );
    assert_eq!(pos.score(), Some([1, 0]));
    assert_eq!(pos.turn(), Player::First);
}

#[test]
fn dot_played_into_a_house_that_captures_itself_wins() {
    // R9: the mover's own capture comes first; then the house is dissolved.
    let mut pos = setup(
        "
        .......
        ...X...
        ..X.X..
        ..O.O..
        ...O...
        .......
        ",
    );
    play_and_check_undo(&mut pos, "4-3");
    assert_eq!(
        pos.to_string(),
        pic("
            .......
            ...X...
            ..X+X..
            ..OXO..
            ...O...
            .......
            ")
    );
    play_and_check_undo(&mut pos, "4-4");
    assert_eq!(
        pos.to_string(),
        pic("
            .......
            ...X...
            ..XOX..
            ..OxO..
            ...O...
            .......
            ")
    );
    assert_eq!(pos.score(), Some([0, 1]));
    assert_eq!(pos.point(4, 4), Some(Point::Dot(Player::Second)));
}

#[test]
fn two_bases_closed_by_one_move() {
    let mut pos = setup(
        "
        ........
        ..X.X...
        .XO.OX..
        ..X.X...
        OO....OO
        ",
    );
    play_and_check_undo(&mut pos, "4-3");
    assert_eq!(
        pos.to_string(),
        pic("
            ........
            ..X.X...
            .XoXoX..
            ..X.X...
            OO....OO
            ")
    );
    assert_eq!(pos.score(), Some([2, 0]));
}

#[test]
fn big_and_small_cycle_through_one_dot_only_the_small_is_a_base() {
    // 6-5 closes a small cycle around the O on 5-5 and a big one around it and the empty ring
    // between them. The small one is resolved first (R8); the big one then holds no live enemy dot,
    // so it is a house, not a second base: one point, not two.
    let mut pos = setup(
        "
        OOOOOO.....
        ...XXX.....
        ..X...X....
        .X..X.X....
        .X.XO......
        .X..X.X....
        ..X...X....
        ...XXX.....
        OOOOOOOOOOO
        ",
    );
    play_and_check_undo(&mut pos, "6-5");
    assert_eq!(
        pos.to_string(),
        pic("
            OOOOOO.....
            ...XXX.....
            ..X+++X....
            .X++X+X....
            .X+XoX.....
            .X++X+X....
            ..X+++X....
            ...XXX.....
            OOOOOOOOOOO
            ")
    );
    assert_eq!(pos.score(), Some([1, 0]));
    assert!(pos.is_legal(mv("3-5")));
}

#[test]
fn enemy_house_inside_a_new_base_becomes_dead() {
    // R7: everything inside a base is dead, a house included.
    let mut pos = setup(
        "
        ....XXXX
        ........
        ..OXO...
        .OX.XO..
        ..O.O...
        ...O....
        ........
        ",
    );
    play_and_check_undo(&mut pos, "4-3");
    assert_eq!(pos.point(4, 4), Some(Point::House(Player::First)));
    assert!(pos.is_legal(mv("4-4")));
    play_and_check_undo(&mut pos, "4-6");
    assert_eq!(
        pos.to_string(),
        pic("
            ....XXXX
            ...O....
            ..OxO...
            .Ox,xO..
            ..OxO...
            ...O....
            ........
            ")
    );
    assert_eq!(pos.score(), Some([0, 4]));
    assert!(!pos.is_legal(mv("4-4")));
}

#[test]
fn own_house_inside_a_new_base_becomes_dead() {
    // R7 for the mover's own house: the base swallows it, and its inside is no longer legal.
    let mut pos = setup(
        "
        OOO........
        ...........
        OOOOOOOOOOO
        ...........
        ..XXXXXXX..
        .X.......X.
        .X...X...X.
        .X..X.X....
        .X.......X.
        .X.O.....X.
        ..XXXXXXX..
        OOOOOOOOOOO
        ",
    );
    play_and_check_undo(&mut pos, "6-4");
    assert_eq!(pos.point(6, 5), Some(Point::House(Player::First)));
    play(&mut pos, "11-12");
    play_and_check_undo(&mut pos, "10-5");
    assert_eq!(
        pos.to_string(),
        pic("
            OOO.......O
            ...........
            OOOOOOOOOOO
            ...........
            ..XXXXXXX..
            .X,,,,,,,X.
            .X,,,X,,,X.
            .X,,X,X,,X.
            .X,,,X,,,X.
            .X,o,,,,,X.
            ..XXXXXXX..
            OOOOOOOOOOO
            ")
    );
    assert_eq!(pos.score(), Some([1, 0]));
    assert_eq!(pos.point(6, 5), Some(Point::Dead(Player::First)));
    assert!(!pos.is_legal(mv("6-5")));
}

#[test]
fn base_inside_base_inside_base() {
    // KataGoDots's test of the same name, framed by a margin: 1:0, then 0:4, then 13:0 (R10).
    let mut pos = setup(
        "
        OOO........
        ...........
        ..XXXXXXX..
        .X..OOO..X.
        .X.O.X.O.X.
        .X.OXOXO.X.
        .X.O...O.X.
        .X..O.O..X.
        ..XXX.XXX..
        ...........
        OOOOOOOOOOO
        ",
    );
    play_and_check_undo(&mut pos, "6-5");
    assert_eq!(pos.score(), Some([1, 0]));
    assert_eq!(
        pos.to_string(),
        pic("
            OOO........
            ...........
            ..XXXXXXX..
            .X..OOO..X.
            .X.O.X.O.X.
            .X.OXoXO.X.
            .X.O.X.O.X.
            .X..O.O..X.
            ..XXX.XXX..
            ...........
            OOOOOOOOOOO
            ")
    );
    play_and_check_undo(&mut pos, "6-4");
    assert_eq!(pos.score(), Some([0, 4]));
    assert_eq!(
        pos.to_string(),
        pic("
            OOO........
            ...........
            ..XXXXXXX..
            .X..OOO..X.
            .X.O,x,O.X.
            .X.OxOxO.X.
            .X.O,x,O.X.
            .X..OOO..X.
            ..XXX.XXX..
            ...........
            OOOOOOOOOOO
            ")
    );
    play_and_check_undo(&mut pos, "6-3");
    assert_eq!(pos.score(), Some([13, 0]));
    assert_eq!(
        pos.to_string(),
        pic("
            OOO........
            ...........
            ..XXXXXXX..
            .X,,ooo,,X.
            .X,o,X,o,X.
            .X,oXoXo,X.
            .X,o,X,o,X.
            .X,,ooo,,X.
            ..XXXXXXX..
            ...........
            OOOOOOOOOOO
            ")
    );
}

#[test]
fn grounding_through_a_diagonal_link_is_not_grounding() {
    // R12: only orthogonal steps count; the edge dot 1-3 is grounded, 2-4 and 3-4 hang on it by a
    // diagonal link only.
    let mut pos = setup(
        "
        ......
        .XX...
        X.....
        ......
        OOO...
        ",
    );
    assert!(pos.is_grounded(1, 3));
    assert!(!pos.is_grounded(2, 4));
    assert!(!pos.is_grounded(3, 4));
    assert_eq!(pos.ungrounded_dots(Player::First), 2);
    assert_eq!(pos.ungrounded_dots(Player::Second), 0);
    // An orthogonal link grounds the group.
    play(&mut pos, "1-4");
    assert!(pos.is_grounded(3, 4));
    assert_eq!(pos.ungrounded_dots(Player::First), 0);
}

#[test]
fn grounding_runs_through_the_inside_of_a_base_but_not_of_a_house() {
    // R12: a base's inside is its owner's; a house's empty inside is nobody's.
    let mut pos = setup(
        "
        .X.....
        XOX....
        .......
        .......
        ....X..
        ...X.X.
        OOO...O
        ",
    );
    play(&mut pos, "7-7");
    play(&mut pos, "2-5"); // captures 2-6
    play(&mut pos, "7-6");
    play(&mut pos, "5-1"); // a house on 5-2
    assert_eq!(
        pos.to_string(),
        pic("
            .X....O
            XoX...O
            .X.....
            .......
            ....X..
            ...X+X.
            OOO.X.O
            ")
    );
    // 2-5 reaches the edge only through the captured dot on 2-6.
    assert!(pos.is_grounded(2, 5));
    assert!(pos.is_grounded(5, 1));
    assert!(!pos.is_grounded(5, 3));
    assert!(!pos.is_grounded(4, 2));
    assert_eq!(pos.ungrounded_dots(Player::First), 3);
}

#[test]
fn ground_ends_the_game_and_hands_the_ungrounded_dots_over() {
    let mut pos = setup(
        "
        ......
        .XX...
        X.....
        ....O.
        O.....
        ",
    );
    assert_eq!(pos.turn(), Player::Second);
    play(&mut pos, "6-5");
    assert_eq!(pos.check(Move::Ground), Ok(()));
    assert!(!pos.legal_moves().contains(&Move::Ground));
    let before = pos.clone();
    play_and_check_undo(&mut pos, "ground");
    assert_eq!(pos.score(), Some([0, 2]));
    assert_eq!(pos.outcome(), Some(Outcome::Win(Player::Second)));
    assert_eq!(pos.grounded_by(), Some(Player::First));
    assert_eq!(
        pos.to_string(),
        pic("
            .....O
            .xx...
            X.....
            ....O.
            O.....
            ")
    );
    assert!(pos.legal_moves().is_empty());
    assert_eq!(pos.check(mv("3-3")), Err(PlayError::GameOver));
    assert_eq!(pos.check(Move::Ground), Err(PlayError::GameOver));
    pos.undo();
    assert_eq!(pos, before);
    assert_eq!(pos.outcome(), None);

    // Second grounds instead: its dot 5-2 stands alone in the field and is lost; 1-1 and 6-5 are on
    // the edge.
    play(&mut pos, "4-1");
    play(&mut pos, "ground");
    assert_eq!(pos.score(), Some([1, 0]));
    assert_eq!(pos.outcome(), Some(Outcome::Win(Player::First)));
}

#[test]
fn full_board_ends_the_game() {
    let mut pos = Dots::new(4, 4, Start::Empty);
    let mut plies = 0;
    while let Some(&m) = pos.legal_moves().first() {
        play_and_check_undo(&mut pos, &m.to_string());
        plies += 1;
    }
    assert_eq!(plies, 16);
    assert_eq!(pos.free_points(), 0);
    assert_eq!(pos.outcome(), Some(Outcome::Draw));
    assert_eq!(pos.check(Move::Ground), Err(PlayError::GameOver));
    assert_eq!(
        pos.to_string(),
        pic("
            XOXO
            XOXO
            XOXO
            XOXO
            ")
    );

    // A full board can also come with captures, and then the score decides (R14).
    let pos = Dots::from_moves(
        4,
        4,
        Start::Empty,
        "2-3 2-2 1-2 1-1 3-2 3-1 2-1 4-1 1-3 4-2 3-3 4-3 2-4 1-4 3-4 4-4",
    );
    let pos = pos.unwrap();
    assert_eq!(pos.free_points(), 0);
    assert_eq!(pos.score(), Some([1, 0]));
    assert_eq!(pos.outcome(), Some(Outcome::Win(Player::First)));
}

#[test]
fn four_crosses_fill_a_4x4_board_so_the_game_is_over_at_once() {
    let pos = Dots::new(4, 4, Start::FourCrosses);
    assert_eq!(
        pos.to_string(),
        pic("
            XOXO
            OXOX
            XOXO
            OXOX
            ")
    );
    assert_eq!(pos.ply(), 0);
    assert_eq!(pos.outcome(), Some(Outcome::Draw));
}

#[test]
fn cross_start_on_the_standard_board() {
    let pos = Dots::default();
    assert_eq!(
        pos.spec(),
        GameSpec::Dots(games::dots::DotsVariant {
            width: 39,
            height: 32,
            start: Start::Cross
        })
    );
    assert_eq!(pos.point(20, 17), Some(Point::Dot(Player::First)));
    assert_eq!(pos.point(21, 16), Some(Point::Dot(Player::First)));
    assert_eq!(pos.point(20, 16), Some(Point::Dot(Player::Second)));
    assert_eq!(pos.point(21, 17), Some(Point::Dot(Player::Second)));
    let dots: Vec<_> = pos
        .points()
        .filter(|&(_, _, p)| p != Point::Empty)
        .collect();
    assert_eq!(dots.len(), 4);
    assert_eq!(pos.ply(), 0);
    assert_eq!(pos.turn(), Player::First);
    assert_eq!(pos.legal_moves().len(), 39 * 32 - 4);
    assert_eq!(pos.legal_moves()[0], mv("1-32"));
    assert_eq!(
        pos.check(mv("20-17")),
        Err(PlayError::Occupied("20-17".into()))
    );
    assert_eq!(
        pos.check(mv("40-1")),
        Err(PlayError::OffBoard("40-1".into()))
    );
    assert_eq!(
        pos.check(mv("1-33")),
        Err(PlayError::OffBoard("1-33".into()))
    );
    // Odd sizes round up (R4).
    let small = Dots::new(5, 5, Start::Cross);
    assert_eq!(
        small.to_string(),
        pic("
            .....
            ..XO.
            ..OX.
            .....
            .....
            ")
    );
}

#[test]
fn four_crosses_start_as_in_katagodots() {
    let pos = Dots::new(8, 8, Start::FourCrosses);
    assert_eq!(
        pos.to_string(),
        pic("
            ........
            .XO..XO.
            .OX..OX.
            ........
            ........
            .XO..XO.
            .OX..OX.
            ........
            ")
    );
    let std = Dots::new(39, 32, Start::FourCrosses);
    for (x0, y0) in [(12, 21), (27, 21), (12, 11), (27, 11)] {
        assert_eq!(std.point(x0, y0 + 1), Some(Point::Dot(Player::First)));
        assert_eq!(std.point(x0 + 1, y0), Some(Point::Dot(Player::First)));
        assert_eq!(std.point(x0, y0), Some(Point::Dot(Player::Second)));
        assert_eq!(std.point(x0 + 1, y0 + 1), Some(Point::Dot(Player::Second)));
    }
    assert_eq!(std.legal_moves().len(), 39 * 32 - 16);
}

#[test]
fn notation_round_trips_and_rejects_bad_strings() {
    assert_eq!(mv("1-1"), Move::Put { x: 1, y: 1 });
    assert_eq!(mv("39-32"), Move::Put { x: 39, y: 32 });
    assert_eq!(mv("ground"), Move::Ground);
    for m in Dots::default().legal_moves() {
        assert_eq!(m.to_string().parse::<Move>(), Ok(m));
    }
    for bad in [
        "", "1", "1-", "-1", "0-1", "1-0", "01-2", "+1-2", "1-2-3", "1 - 2", "x-y", "STOP",
    ] {
        assert!(bad.parse::<Move>().is_err(), "{bad:?}");
    }
    assert!(matches!(
        Dots::from_moves(8, 8, Start::Empty, "1-1 1-01"),
        Err(MovesError::Parse { ply: 2, .. })
    ));
    assert!(matches!(
        Dots::from_moves(8, 8, Start::Empty, "1-1 1-1"),
        Err(MovesError::Play {
            ply: 2,
            error: PlayError::Occupied(_)
        })
    ));
}

#[test]
fn undo_restores_the_start_after_captures_houses_and_ground() {
    let start = Dots::new(8, 8, Start::Cross);
    let mut pos = start.clone();
    // A scrambled walk over the points, playing the legal ones, then `ground`.
    for k in 0..64u32 {
        let i = (k * 37 + 11) % 64;
        let m = Move::Put {
            x: (i % 8) as u8 + 1,
            y: (i / 8) as u8 + 1,
        };
        if pos.is_legal(m) && pos.ply() < 40 {
            play_and_check_undo(&mut pos, &m.to_string());
        }
    }
    assert!(pos.score() != Some([0, 0]), "no capture to undo:\n{pos}");
    play_and_check_undo(&mut pos, "ground");
    assert!(pos.outcome().is_some());
    while pos.ply() > 0 {
        pos.undo();
    }
    assert_eq!(pos, start);
    assert_eq!(pos.to_string(), start.to_string());
}

#[test]
fn the_alternate_display_adds_the_coordinates_of_the_notation() {
    let mut small = Dots::new(5, 4, Start::Empty);
    small.play("2-4".parse().unwrap()).unwrap();
    assert_eq!(
        format!("{small:#}"),
        " 4 .X...\n 3 .....\n 2 .....\n 1 .....\n   12345\n"
    );
    let mut wide = Dots::new(12, 4, Start::Empty);
    wide.play("11-1".parse().unwrap()).unwrap();
    assert_eq!(
        format!("{wide:#}"),
        " 4 ............\n 3 ............\n 2 ............\n 1 ..........X.\n            111\n   123456789012\n"
    );
    // The plain form is unchanged: only the points.
    assert_eq!(
        format!("{wide}"),
        "............\n............\n............\n..........X.\n"
    );
}
