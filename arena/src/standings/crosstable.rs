//! The crosstable: the score of each bot against each other bot, from game records alone.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::{Context, Result};
use games::Player;

use crate::record::GameRecord;

/// Points and games of every bot against every other; `bots` in the order given (usually the standings).
#[derive(Clone, Debug, PartialEq)]
pub struct Crosstable {
    pub bots: Vec<String>,
    /// `points[i][j]`: points of `bots[i]` against `bots[j]` (win 1, draw ½).
    pub points: Vec<Vec<f64>>,
    /// `games[i][j]`: games between `bots[i]` and `bots[j]` (symmetric).
    pub games: Vec<Vec<u32>>,
}

impl Crosstable {
    /// The crosstable of `bots` over `records`; games of bots not in `bots` are left out.
    pub fn new(bots: &[String], records: &[GameRecord]) -> Crosstable {
        let n = bots.len();
        let mut t = Crosstable {
            bots: bots.to_vec(),
            points: vec![vec![0.0; n]; n],
            games: vec![vec![0; n]; n],
        };
        let index = |name: &str| bots.iter().position(|b| b == name);
        for r in records.iter().filter(|r| r.termination.counts()) {
            let (Some(i), Some(j)) = (index(&r.first), index(&r.second)) else {
                continue;
            };
            t.points[i][j] += r.result.points(Player::First);
            t.points[j][i] += r.result.points(Player::Second);
            t.games[i][j] += 1;
            t.games[j][i] += 1;
        }
        t
    }

    /// Writes `crosstable.csv`: a header `bot,<bot 1>,<bot 2>,…` and one row per bot whose cells are
    /// `points/games` against the column's bot (empty on the diagonal and where they did not meet).
    ///
    /// # Errors
    /// Write errors, with the path.
    pub fn write_csv(&self, path: &Path) -> Result<()> {
        let mut w =
            csv::Writer::from_path(path).with_context(|| format!("writing {}", path.display()))?;
        let mut header = vec!["bot".to_string()];
        header.extend(self.bots.iter().cloned());
        w.write_record(&header)?;
        for i in 0..self.bots.len() {
            let mut row = vec![self.bots[i].clone()];
            row.extend((0..self.bots.len()).map(|j| self.cell(i, j)));
            w.write_record(&row)?;
        }
        w.flush()
            .with_context(|| format!("writing {}", path.display()))?;
        Ok(())
    }

    /// `points/games` of bot `i` against bot `j`; empty on the diagonal and where they did not meet.
    fn cell(&self, i: usize, j: usize) -> String {
        if i == j || self.games[i][j] == 0 {
            String::new()
        } else {
            format!("{}/{}", self.points[i][j], self.games[i][j])
        }
    }

    /// The crosstable as an aligned text table: one row per bot, one numbered column per opponent.
    pub fn table(&self) -> String {
        let n = self.bots.len();
        let name_w = self.bots.iter().map(String::len).max().unwrap_or(3).max(3);
        let cell_w = (0..n)
            .flat_map(|i| (0..n).map(move |j| (i, j)))
            .map(|(i, j)| self.cell(i, j).len())
            .max()
            .unwrap_or(1)
            .max(3);
        let mut out = format!("{:>3}  {:<name_w$}", "", "bot");
        for j in 0..n {
            let _ = write!(out, "  {:>cell_w$}", j + 1);
        }
        out.push('\n');
        for i in 0..n {
            let _ = write!(out, "{:>3}  {:<name_w$}", i + 1, self.bots[i]);
            for j in 0..n {
                let cell = if i == j {
                    "·".to_string()
                } else {
                    self.cell(i, j)
                };
                let _ = write!(out, "  {cell:>cell_w$}");
            }
            out.push('\n');
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::GameResult;

    fn game(first: &str, second: &str, result: GameResult) -> GameRecord {
        GameRecord::example(first, second, result)
    }

    #[test]
    fn each_cell_holds_one_side_of_the_head_to_head() {
        let bots = ["a".to_string(), "b".to_string(), "c".to_string()];
        let t = Crosstable::new(
            &bots,
            &[
                game("a", "b", GameResult::FirstWins),
                game("b", "a", GameResult::Draw),
                game("c", "a", GameResult::SecondWins),
                game("x", "a", GameResult::SecondWins),
            ],
        );
        assert_eq!(t.points[0][1], 1.5);
        assert_eq!(t.points[1][0], 0.5);
        assert_eq!((t.games[0][1], t.games[1][0]), (2, 2));
        assert_eq!(t.points[0][2], 1.0);
        assert_eq!(t.cell(1, 2), "", "b and c never met");
        assert_eq!(t.cell(0, 1), "1.5/2");
        let text = t.table();
        assert!(text.lines().nth(1).unwrap().contains("1.5/2"), "{text}");
    }
}
