//! Connect Four as a game module: the example of `docs/modules.md`, written with the SDK
//! (`arena_game`) and independently of the arena's built-in Connect Four (`games/src/connect4/`), which
//! it must referee exactly like (`arena/tests/it/modules.rs`).
//!
//! A `width` × `height` board (each 1..=9, default 7 6; variant text `W H`), four in a row wins, a full
//! board is a draw. A move is the column number, `1` from the left. The position is a plain array of
//! cells, column by column, bottom row first.
//!
//! Build: `modules/build.sh` (to `modules/out/connect4.wasm`); natively, `cargo test -p connect4-module`.

use arena_game::frame::numbers;
use arena_game::{Frame, Game, Outcome, Piece, Shape, Side, Style};

/// The position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Connect4 {
    width: usize,
    height: usize,
    /// `cells[col * height + row]`: the disc there.
    cells: Vec<Option<Side>>,
    /// The columns played, 0-based.
    history: Vec<usize>,
    outcome: Option<Outcome>,
}

impl Connect4 {
    fn at(&self, col: i32, row: i32) -> Option<Side> {
        if col < 0 || row < 0 || col >= self.width as i32 || row >= self.height as i32 {
            return None;
        }
        self.cells[col as usize * self.height + row as usize]
    }

    fn filled(&self, col: usize) -> usize {
        (0..self.height)
            .take_while(|&r| self.cells[col * self.height + r].is_some())
            .count()
    }

    /// The cells of every line of four or more through the disc at `col`, `row` of `who`.
    fn fours(&self, col: usize, row: usize, who: Side) -> Vec<(usize, usize)> {
        let mut cells = Vec::new();
        let (c, r) = (col as i32, row as i32);
        for &(dx, dy) in &[(1, 0), (0, 1), (1, 1), (1, -1)] {
            let run = |sign: i32| {
                (1..)
                    .take_while(|&k| self.at(c + sign * k * dx, r + sign * k * dy) == Some(who))
                    .count() as i32
            };
            let (back, ahead) = (run(-1), run(1));
            if back + ahead + 1 >= 4 {
                for k in -back..=ahead {
                    let cell = ((c + k * dx) as usize, (r + k * dy) as usize);
                    if !cells.contains(&cell) {
                        cells.push(cell);
                    }
                }
            }
        }
        cells
    }

    fn last_disc(&self) -> Option<(usize, usize)> {
        let &col = self.history.last()?;
        Some((col, self.filled(col) - 1))
    }
}

fn size(what: &str, word: Option<&str>, default: usize) -> Result<usize, String> {
    let v = match word {
        None => default,
        Some(w) => w
            .parse::<usize>()
            .map_err(|_| format!("{} {:?} is not a number", what, w))?,
    };
    if (1..=9).contains(&v) {
        Ok(v)
    } else {
        Err(format!("{} {} is out of range 1..=9", what, v))
    }
}

impl Game for Connect4 {
    type Move = usize;
    const NAME: &'static str = "connect4";

    fn start(variant: &str) -> Result<Connect4, String> {
        let mut words = variant.split_whitespace();
        let width = size("width", words.next(), 7)?;
        let height = size("height", words.next(), 6)?;
        if words.next().is_some() {
            return Err(format!("too many words in {:?}: expected W H", variant));
        }
        Ok(Connect4 {
            width,
            height,
            cells: vec![None; width * height],
            history: Vec::new(),
            outcome: None,
        })
    }

    fn variant(&self) -> String {
        format!("{} {}", self.width, self.height)
    }

    fn turn(&self) -> Side {
        if self.history.len() % 2 == 0 {
            Side::First
        } else {
            Side::Second
        }
    }

    fn legal_moves(&self, out: &mut Vec<usize>) {
        if self.outcome.is_none() {
            out.extend((0..self.width).filter(|&c| self.filled(c) < self.height));
        }
    }

    fn play(&mut self, col: usize) -> Result<(), String> {
        if col >= self.width {
            return Err(format!("column {} is off the board", col + 1));
        }
        let row = self.filled(col);
        if row == self.height {
            return Err(format!("column {} is full", col + 1));
        }
        let who = self.turn();
        self.cells[col * self.height + row] = Some(who);
        self.history.push(col);
        if !self.fours(col, row, who).is_empty() {
            self.outcome = Some(Outcome::Win(who));
        } else if self.history.len() == self.width * self.height {
            self.outcome = Some(Outcome::Draw);
        }
        Ok(())
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    fn move_text(&self, col: usize) -> String {
        (col + 1).to_string()
    }

    fn parse_move(&self, text: &str) -> Result<usize, String> {
        match text.as_bytes() {
            [d @ b'1'..=b'9'] => Ok(usize::from(d - b'1')),
            _ => Err("expected a column number 1-9".to_string()),
        }
    }

    fn frame(&self) -> Frame {
        let mut f = Frame::grid(self.width as u16, self.height as u16);
        f.style = Style::Holes;
        f.col_labels = numbers(self.width as u16);
        f.colors = Some(["#f2c81b".to_string(), "#d8342b".to_string()]);
        let four = match (self.outcome, self.last_disc()) {
            (Some(Outcome::Win(who)), Some((c, r))) => self.fours(c, r, who),
            _ => Vec::new(),
        };
        for col in 0..self.width {
            for row in 0..self.height {
                if let Some(who) = self.cells[col * self.height + row] {
                    let mut disc =
                        Piece::new(col as u16, row as u16, Some(who), Shape::Disc, "disc");
                    disc.ring = four.contains(&(col, row));
                    f.pieces.push(disc);
                }
            }
        }
        if let Some((c, r)) = self.last_disc() {
            f.highlight.push([c as u16, r as u16]);
        }
        let name = |s: Side| if s == Side::First { "first" } else { "second" };
        f.panel.push(match self.outcome {
            Some(Outcome::Win(p)) => (format!("{} player wins", name(p)), Some(p)),
            Some(Outcome::Draw) => ("draw: the board is full".to_string(), None),
            None => (format!("{} to move", name(self.turn())), Some(self.turn())),
        });
        f
    }
}

arena_game::export_game!(Connect4);

#[cfg(test)]
mod tests {
    use super::*;

    fn after(moves: &str) -> Connect4 {
        let mut g = Connect4::start("").unwrap();
        for c in moves.chars() {
            let m = g.parse_move(&c.to_string()).unwrap();
            g.play(m).unwrap();
        }
        g
    }

    #[test]
    fn four_in_a_row_wins_and_a_full_column_is_refused() {
        assert_eq!(after("4455667").outcome(), Some(Outcome::Win(Side::First)));
        assert_eq!(after("445566").outcome(), None);
        let mut g = after("111111");
        assert_eq!(g.play(0), Err("column 1 is full".to_string()));
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        assert_eq!(v, vec![1, 2, 3, 4, 5, 6]);
        assert_eq!(
            Connect4::start("10 6").unwrap_err(),
            "width 10 is out of range 1..=9"
        );
        assert_eq!(Connect4::start("").unwrap().variant(), "7 6");
    }

    #[test]
    fn a_full_one_by_one_board_is_a_draw() {
        let mut g = Connect4::start("1 1").unwrap();
        g.play(0).unwrap();
        assert_eq!(g.outcome(), Some(Outcome::Draw));
    }
}
