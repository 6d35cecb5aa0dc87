//! The tactical suite: small positions as ASCII boards, each with its correct move(s) and the depth
//! it needs, kept as data in `tactics.txt` (shared by the tests and `dots-tps --bench`).
//!
//! # File format
//!
//! ```text
//! # a comment
//! position capture-in-1    # a name without spaces
//! note Blue closes the ring around 4-4.
//! to-move X                # X: the first player (Blue), O: the second (Red)
//! depth 1                  # full moves needed
//! answer 4-3               # one move, or several truly equivalent ones; `ground` allowed
//! bench-answer 4-3 5-3     # optional: the moves as good at depth 3 (the benchmark's), if others
//! board                    # rows from the top; X and O dots, '.' empty; no captures yet
//! .......
//! ...X...
//! ..XOX..
//! .......
//! end
//! ```
//!
//! Instead of `board … end`, a position with captures is given by the game that led to it:
//! `moves W H m1 m2 …` plays the moves from the empty W×H board (R2 notation, `to-move` must agree).

use games::dots::{Move, Start};
use games::{Dots, Game, Player};

use super::trajectories::PASS;

/// The shipped suite.
pub const TACTICS: &str = include_str!("tactics.txt");

/// One position of the suite.
#[derive(Clone, Debug)]
pub struct Tactic {
    /// Its name.
    pub name: String,
    /// What it tests, in a sentence.
    pub note: String,
    /// The position, side to move as the file says.
    pub pos: Dots,
    /// The full moves the answer needs (the search depth).
    pub depth: u32,
    /// The correct moves (usually one).
    pub answers: Vec<Move>,
    /// The moves as good as the best at depth 3, the depth of `dots-tps --bench` (`answers` unless
    /// the file says otherwise: a capture that can wait may be taken in more ways at depth 3).
    pub bench_answers: Vec<Move>,
}

/// Builds a position from rows drawn from the top (`X` first player, `O` second, `.` empty) with
/// `to_move` to move: the dots are put alternately, each side passing (an off-board ply, see
/// [`Dots`]'s `play_unchecked`) when it has no dot left to put.
///
/// # Errors
/// Uneven rows, an unknown character, a board outside 4..=64, or a capture while building.
pub fn board(rows: &[&str], to_move: Player) -> Result<Dots, String> {
    let h = rows.len();
    let w = rows.first().map_or(0, |r| r.chars().count());
    if !(4..=64).contains(&w) || !(4..=64).contains(&h) {
        return Err(format!("board {w}x{h} outside 4..=64"));
    }
    let mut dots: [Vec<Move>; 2] = [Vec::new(), Vec::new()];
    for (r, row) in rows.iter().enumerate() {
        if row.chars().count() != w {
            return Err(format!("row {} has not {w} points", r + 1));
        }
        for (c, ch) in row.chars().enumerate() {
            let m = Move::Put {
                x: c as u8 + 1,
                y: (h - r) as u8,
            };
            match ch {
                'X' => dots[0].push(m),
                'O' => dots[1].push(m),
                '.' => {}
                _ => return Err(format!("unknown point {ch:?}")),
            }
        }
    }
    let mut pos = Dots::new(w as u8, h as u8, Start::Empty);
    let (mut a, mut b) = (dots[0].iter(), dots[1].iter());
    loop {
        let (ma, mb) = (a.next(), b.next());
        if ma.is_none() && mb.is_none() {
            break;
        }
        pos.play_unchecked(*ma.unwrap_or(&PASS));
        pos.play_unchecked(*mb.unwrap_or(&PASS));
    }
    if pos.turn() != to_move {
        pos.play_unchecked(PASS);
    }
    if pos.score() != Some([0, 0]) {
        return Err("a capture happened while building the board".into());
    }
    Ok(pos)
}

/// A position being read: name, note, side to move, depth, answers, bench answers.
type Entry = (
    String,
    String,
    Option<Player>,
    Option<u32>,
    Vec<Move>,
    Vec<Move>,
);

/// The tactic read as `fields`, on position `pos`: it needs an answer and a depth; without bench answers
/// the answers serve the bench too.
fn tactic(fields: Entry, pos: Dots) -> Result<Tactic, String> {
    let (name, note, _, depth, answers, bench) = fields;
    if answers.is_empty() {
        return Err(format!("{name}: no answer"));
    }
    Ok(Tactic {
        depth: depth.ok_or_else(|| format!("{name}: no depth"))?,
        bench_answers: if bench.is_empty() {
            answers.clone()
        } else {
            bench
        },
        name,
        note,
        pos,
        answers,
    })
}

/// Parses a suite in the format of the module docs.
///
/// # Errors
/// The 1-based line and the reason.
pub fn parse(text: &str) -> Result<Vec<Tactic>, String> {
    let mut out = Vec::new();
    let mut lines = text.lines().enumerate();
    let mut cur: Option<Entry> = None;
    while let Some((k, raw)) = lines.next() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let err = |r: String| format!("tactics line {}: {r}", k + 1);
        let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
        let rest = rest.trim();
        if word == "position" {
            if cur.is_some() {
                return Err(err("position without a board".into()));
            }
            cur = Some((
                rest.to_string(),
                String::new(),
                None,
                None,
                Vec::new(),
                Vec::new(),
            ));
            continue;
        }
        let Some(c) = cur.as_mut() else {
            return Err(err(format!("{word:?} before 'position'")));
        };
        match word {
            "note" => c.1 = rest.to_string(),
            "to-move" => {
                c.2 = Some(match rest {
                    "X" => Player::First,
                    "O" => Player::Second,
                    _ => return Err(err("to-move is X or O".into())),
                })
            }
            "depth" => c.3 = Some(rest.parse().map_err(|_| err("bad depth".into()))?),
            "answer" => {
                for a in rest.split_whitespace() {
                    c.4.push(a.parse().map_err(|e| err(format!("{e}")))?);
                }
            }
            "bench-answer" => {
                for a in rest.split_whitespace() {
                    c.5.push(a.parse().map_err(|e| err(format!("{e}")))?);
                }
            }
            "moves" => {
                let mut words = rest.split_whitespace();
                let mut size = || -> Result<u8, String> {
                    words
                        .next()
                        .and_then(|w| w.parse().ok())
                        .ok_or_else(|| err("moves W H m1 m2 ...".into()))
                };
                let (w, h) = (size()?, size()?);
                let list: Vec<&str> = rest.split_whitespace().skip(2).collect();
                let pos = Dots::from_moves(w, h, Start::Empty, &list.join(" "))
                    .map_err(|e| err(e.to_string()))?;
                let fields = cur.take().unwrap_or_default();
                if fields.2 != Some(pos.turn()) {
                    return Err(err(format!(
                        "{}: to-move disagrees with the moves",
                        fields.0
                    )));
                }
                out.push(tactic(fields, pos).map_err(err)?);
            }
            "board" => {
                let mut rows = Vec::new();
                for (_, r) in lines.by_ref() {
                    let r = r.trim();
                    if r == "end" {
                        break;
                    }
                    rows.push(r);
                }
                let fields = cur.take().unwrap_or_default();
                let to_move = fields.2.ok_or_else(|| err("no to-move".into()))?;
                let pos = board(&rows, to_move).map_err(|e| err(format!("{}: {e}", fields.0)))?;
                out.push(tactic(fields, pos).map_err(err)?);
            }
            _ => return Err(err(format!("unexpected {word:?}"))),
        }
    }
    if cur.is_some() {
        return Err("tactics: the last position has no board".into());
    }
    Ok(out)
}

/// The shipped suite, parsed.
///
/// # Panics
/// If `tactics.txt` does not parse (a unit test checks it does).
pub fn suite() -> Vec<Tactic> {
    parse(TACTICS).expect("the shipped tactics.txt parses")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boards_build_with_the_side_to_move() {
        let pos = board(&["....", ".XX.", ".O..", "...."], Player::Second).unwrap();
        assert_eq!(pos.turn(), Player::Second);
        assert_eq!(pos.to_string(), "....\n.XX.\n.O..\n....\n");
        let pos = board(&["....", ".XX.", ".O..", "...."], Player::First).unwrap();
        assert_eq!(pos.turn(), Player::First);
        assert!(board(&["...", "..."], Player::First).is_err());
    }

    #[test]
    fn the_shipped_suite_parses() {
        let s = suite();
        assert!(s.len() >= 15, "{} positions", s.len());
        for t in &s {
            for &a in &t.answers {
                assert!(t.pos.is_legal(a), "{}: {a} is not legal", t.name);
            }
        }
    }
}
