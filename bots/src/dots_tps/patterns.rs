//! The importance of empty points: a table of small ASCII patterns, each standing for its 16
//! symmetric forms (4 rotations × mirror × colour swap), plus the "corner point" rule.
//!
//! Source: seed `000_71d76f5b75d0c15c.txt`, section "Оценка важности точек". The article's 33
//! pictures are lost; the table shipped in `patterns.txt` is ours, written in their spirit and
//! documented in `docs/dots-tps.md`. The article's rules kept here:
//! - importance is computed for empty points only, once per move at the root, and is the same for
//!   both sides (hence the colour swap among the symmetries);
//! - the importance of a point is the **maximum** over the matching patterns, not the sum, and may be
//!   negative; a point no pattern matches is worth 0;
//! - a pattern with dots of both colours is worth at least 0.1 in magnitude; one with dots of one
//!   colour (plus "half-colours") at most 0.05 ([`PatternTable::parse`] enforces both);
//! - extra rule: a *corner point* (a dot of one colour in straight sight along a row and along a
//!   column, both farther than one step) gets a positive value.
//!
//! # File format
//!
//! ```text
//! # a comment
//! corner 0.04 5            # corner rule: value, farthest sight in points (0 value: off)
//! pattern crosscut 0.30    # name (no spaces) and value, at most 3 decimals, -1..=1
//! .O.
//! X*X
//! .O.
//! end
//! ```
//!
//! Grid characters (rows from the top, optional spaces between characters):
//! `*` the empty point valued (exactly one); `X` a live dot of one colour; `O` a live dot of the
//! other; `.` an empty legal point (a house point included); `x` empty or `X`; `o` empty or `O`;
//! `?` anything (including off the board); `#` off the board (our addition: the article's
//! pictures show no board edge, but its first line matters in play).

use std::fmt;

use games::dots::Point;
use games::{Dots, Player};

/// What a pattern cell demands, in the pattern's own colours (`A` is `X`, `B` is `O`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// `X`: a live dot of colour A.
    A,
    /// `O`: a live dot of colour B.
    B,
    /// `.`: an empty legal point.
    Empty,
    /// `x`: empty or a live dot of A.
    EmptyOrA,
    /// `o`: empty or a live dot of B.
    EmptyOrB,
    /// `?`: anything.
    Any,
    /// `#`: off the board.
    Off,
}

impl Kind {
    fn from_char(c: char) -> Option<Kind> {
        Some(match c {
            'X' => Kind::A,
            'O' => Kind::B,
            '.' => Kind::Empty,
            'x' => Kind::EmptyOrA,
            'o' => Kind::EmptyOrB,
            '?' => Kind::Any,
            '#' => Kind::Off,
            _ => return None,
        })
    }

    /// The character of the file format.
    pub fn symbol(self) -> char {
        match self {
            Kind::A => 'X',
            Kind::B => 'O',
            Kind::Empty => '.',
            Kind::EmptyOrA => 'x',
            Kind::EmptyOrB => 'o',
            Kind::Any => '?',
            Kind::Off => '#',
        }
    }

    /// The same demand with the colours swapped.
    pub fn swapped(self) -> Kind {
        match self {
            Kind::A => Kind::B,
            Kind::B => Kind::A,
            Kind::EmptyOrA => Kind::EmptyOrB,
            Kind::EmptyOrB => Kind::EmptyOrA,
            k => k,
        }
    }

    /// Whether `cell` satisfies this demand when colour A is `a`.
    #[inline]
    pub fn accepts(self, cell: Cell, a: Player) -> bool {
        match (self, cell) {
            (Kind::Any, _) => true,
            (Kind::Off, Cell::Off) => true,
            (Kind::Empty | Kind::EmptyOrA | Kind::EmptyOrB, Cell::Empty) => true,
            (Kind::A | Kind::EmptyOrA, Cell::Dot(p)) => p == a,
            (Kind::B | Kind::EmptyOrB, Cell::Dot(p)) => p != a,
            _ => false,
        }
    }
}

/// A point of the board as the patterns see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    /// Outside the board.
    Off,
    /// Empty and legal (R5), house points included.
    Empty,
    /// A live dot.
    Dot(Player),
    /// A dead empty point or a captured dot: matches only `?`.
    Dead,
}

/// A snapshot of a board for pattern matching: `cells[(y + 1) * (W + 2) + x + 1]` for 0-based
/// x, y from the bottom left, with a ring of [`Cell::Off`] around the board.
#[derive(Clone, Debug)]
pub struct Grid {
    w: i32,
    h: i32,
    cells: Vec<Cell>,
}

impl Grid {
    /// The snapshot of `pos`.
    pub fn new(pos: &Dots) -> Grid {
        let (w, h) = (i32::from(pos.width()), i32::from(pos.height()));
        let mut g = Grid {
            w,
            h,
            cells: vec![Cell::Off; ((w + 2) * (h + 2)) as usize],
        };
        for (x, y, p) in pos.points() {
            let c = match p {
                Point::Empty | Point::House(_) => Cell::Empty,
                Point::Dot(p) => Cell::Dot(p),
                Point::Dead(_) | Point::Captured(_) => Cell::Dead,
            };
            let i = g.index(i32::from(x) - 1, i32::from(y) - 1);
            g.cells[i] = c;
        }
        g
    }

    fn index(&self, x: i32, y: i32) -> usize {
        ((y + 1) * (self.w + 2) + x + 1) as usize
    }

    /// Overwrites the cell at 0-based `x`, `y` (ignored outside the board): for crafted tests.
    pub fn set(&mut self, x: i32, y: i32, cell: Cell) {
        if x >= 0 && y >= 0 && x < self.w && y < self.h {
            let i = self.index(x, y);
            self.cells[i] = cell;
        }
    }

    /// The cell at 0-based `x`, `y` (from the bottom left); [`Cell::Off`] outside the board.
    #[inline]
    pub fn at(&self, x: i32, y: i32) -> Cell {
        if x < 0 || y < 0 || x >= self.w || y >= self.h {
            Cell::Off
        } else {
            self.cells[self.index(x, y)]
        }
    }
}

/// One symmetric form of a pattern: cells as (dx, dy, demand) around the valued point, dy up.
pub type Form = Vec<(i8, i8, Kind)>;

/// One pattern of the table: its name, value (thousandths) and its distinct symmetric forms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pattern {
    /// The name in the file.
    pub name: String,
    /// The importance it gives, in thousandths (0.15 → 150).
    pub value: i32,
    /// The form as written in the file (the first entry of `forms`).
    pub base: Form,
    /// The distinct forms among the 16 symmetries (4 rotations × mirror × colour swap), `base` first.
    pub forms: Vec<Form>,
}

impl Pattern {
    /// Whether `form` matches at the empty point `x`, `y` (0-based) of `grid` with `X` = First.
    /// (The colour swap is among the forms, so one colour assignment suffices.)
    pub fn form_matches(form: &Form, grid: &Grid, x: i32, y: i32) -> bool {
        form.iter().all(|&(dx, dy, k)| {
            k.accepts(grid.at(x + i32::from(dx), y + i32::from(dy)), Player::First)
        })
    }

    /// Whether some form matches at `x`, `y` (0-based), which must be an empty point.
    pub fn matches(&self, grid: &Grid, x: i32, y: i32) -> bool {
        self.forms.iter().any(|f| Self::form_matches(f, grid, x, y))
    }
}

/// The 16 symmetries of `base`: rotations by 90°, the mirror, the colour swap; duplicates kept
/// (index `swap * 8 + mirror * 4 + rotation`).
pub fn symmetries(base: &Form) -> Vec<Form> {
    let mut out = Vec::with_capacity(16);
    for swap in [false, true] {
        for mirror in [false, true] {
            for rot in 0..4 {
                let mut f: Form = base
                    .iter()
                    .map(|&(dx, dy, k)| {
                        let (mut x, mut y) = (dx, dy);
                        if mirror {
                            x = -x;
                        }
                        for _ in 0..rot {
                            (x, y) = (-y, x);
                        }
                        (x, y, if swap { k.swapped() } else { k })
                    })
                    .collect();
                f.sort();
                out.push(f);
            }
        }
    }
    out
}

/// A pattern file that does not parse or breaks the article's magnitude rules.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("patterns line {line}: {reason}")]
pub struct PatternError {
    /// 1-based line number.
    pub line: usize,
    pub reason: String,
}

/// The importance table: the patterns and the corner rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternTable {
    /// The patterns in file order.
    pub patterns: Vec<Pattern>,
    /// The corner rule's value, thousandths (0: off).
    pub corner_value: i32,
    /// The corner rule's farthest sight, points.
    pub corner_sight: i32,
}

/// The shipped table (`bots/src/dots_tps/patterns.txt`).
pub const DEFAULT_PATTERNS: &str = include_str!("patterns.txt");

impl Default for PatternTable {
    fn default() -> Self {
        PatternTable::parse(DEFAULT_PATTERNS).expect("the shipped patterns.txt parses")
    }
}

/// A decimal in -1..=1 with at most 3 decimals, as thousandths.
fn parse_value(t: &str) -> Option<i32> {
    let (neg, t) = match t.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, t),
    };
    let (int, frac) = t.split_once('.').unwrap_or((t, ""));
    if int.is_empty() && frac.is_empty() || frac.len() > 3 {
        return None;
    }
    let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if !all_digits(int) || !all_digits(frac) {
        return None;
    }
    let i: i32 = if int.is_empty() { 0 } else { int.parse().ok()? };
    let mut f: i32 = if frac.is_empty() {
        0
    } else {
        frac.parse().ok()?
    };
    for _ in frac.len()..3 {
        f *= 10;
    }
    let v = i * 1000 + f;
    (v <= 1000).then_some(if neg { -v } else { v })
}

impl PatternTable {
    /// Parses a table in the format of the module docs.
    ///
    /// # Errors
    /// [`PatternError`] for a syntax error, a grid without exactly one `*`, a value outside -1..=1,
    /// or a value breaking the article's rules: |value| ≥ 0.1 when both colours appear, ≤ 0.05
    /// otherwise.
    pub fn parse(text: &str) -> Result<PatternTable, PatternError> {
        let mut table = PatternTable {
            patterns: Vec::new(),
            corner_value: 0,
            corner_sight: 0,
        };
        let err = |line: usize, reason: String| PatternError { line, reason };
        let mut current: Option<(usize, String, i32, Vec<Vec<char>>)> = None;
        for (k, raw) in text.lines().enumerate() {
            let line_no = k + 1;
            let line = raw.split('#').next().unwrap_or("");
            // A '#' inside a grid is the off-board kind: only strip comments outside grids.
            let line = if current.is_some() {
                raw.trim()
            } else {
                line.trim()
            };
            if line.is_empty() {
                continue;
            }
            let words: Vec<&str> = line.split_whitespace().collect();
            if let Some((start, name, value, rows)) = current.as_mut() {
                if words == ["end"] {
                    let p = Self::build(*start, name, *value, rows)?;
                    table.patterns.push(p);
                    current = None;
                } else {
                    rows.push(line.chars().filter(|c| !c.is_whitespace()).collect());
                }
                continue;
            }
            match words.as_slice() {
                ["corner", v, d] => {
                    table.corner_value =
                        parse_value(v).ok_or_else(|| err(line_no, format!("bad value {v:?}")))?;
                    table.corner_sight = d
                        .parse()
                        .ok()
                        .filter(|d| (2..=64).contains(d))
                        .ok_or_else(|| err(line_no, format!("bad sight {d:?} (2..=64)")))?;
                    if table.corner_value.abs() > 50 {
                        return Err(err(
                            line_no,
                            "the corner rule has one colour: |value| <= 0.05".into(),
                        ));
                    }
                }
                ["pattern", name, v] => {
                    let value =
                        parse_value(v).ok_or_else(|| err(line_no, format!("bad value {v:?}")))?;
                    current = Some((line_no, name.to_string(), value, Vec::new()));
                }
                _ => return Err(err(line_no, format!("unexpected {line:?}"))),
            }
        }
        if let Some((start, ..)) = current {
            return Err(err(start, "pattern without 'end'".into()));
        }
        Ok(table)
    }

    fn build(
        line: usize,
        name: &str,
        value: i32,
        rows: &[Vec<char>],
    ) -> Result<Pattern, PatternError> {
        let err = |reason: String| PatternError { line, reason };
        let mut centre = None;
        for (r, row) in rows.iter().enumerate() {
            for (c, &ch) in row.iter().enumerate() {
                if ch == '*' {
                    if centre.is_some() {
                        return Err(err(format!("pattern {name}: more than one '*'")));
                    }
                    centre = Some((r as i32, c as i32));
                }
            }
        }
        let (cr, cc) = centre.ok_or_else(|| err(format!("pattern {name}: no '*'")))?;
        let mut base: Form = Vec::new();
        for (r, row) in rows.iter().enumerate() {
            for (c, &ch) in row.iter().enumerate() {
                if ch == '*' {
                    continue;
                }
                let k = Kind::from_char(ch)
                    .ok_or_else(|| err(format!("pattern {name}: unknown cell {ch:?}")))?;
                let (dx, dy) = (c as i32 - cc, cr - r as i32);
                if dx.abs() > 8 || dy.abs() > 8 {
                    return Err(err(format!("pattern {name}: wider than 8 around '*'")));
                }
                if k != Kind::Any {
                    base.push((dx as i8, dy as i8, k));
                }
            }
        }
        let has = |k: Kind| base.iter().any(|c| c.2 == k);
        let both = has(Kind::A) && has(Kind::B);
        if both && value.abs() < 100 {
            return Err(err(format!(
                "pattern {name}: both colours, so |value| >= 0.1 (the article's rule)"
            )));
        }
        if !both && value.abs() > 50 {
            return Err(err(format!(
                "pattern {name}: one colour at most, so |value| <= 0.05 (the article's rule)"
            )));
        }
        base.sort();
        let mut forms: Vec<Form> = vec![base.clone()];
        for f in symmetries(&base) {
            if !forms.contains(&f) {
                forms.push(f);
            }
        }
        Ok(Pattern {
            name: name.to_string(),
            value,
            base,
            forms,
        })
    }

    /// Loads a table from a file.
    ///
    /// # Errors
    /// The I/O error or the [`PatternError`], as text.
    pub fn load(path: &str) -> Result<PatternTable, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
        PatternTable::parse(&text).map_err(|e| format!("{path}: {e}"))
    }

    /// Whether the empty point `x`, `y` (0-based) is a corner point: along some row direction and
    /// some column direction, the first non-empty point within `corner_sight` is a live dot of the
    /// same colour for both, at a distance of at least 2.
    pub fn is_corner(&self, grid: &Grid, x: i32, y: i32) -> bool {
        if self.corner_value == 0 {
            return false;
        }
        let seen = |dx: i32, dy: i32| -> Option<Player> {
            for d in 1..=self.corner_sight {
                match grid.at(x + dx * d, y + dy * d) {
                    Cell::Empty => continue,
                    Cell::Dot(p) if d >= 2 => return Some(p),
                    _ => return None,
                }
            }
            None
        };
        let horizontal = [seen(1, 0), seen(-1, 0)];
        let vertical = [seen(0, 1), seen(0, -1)];
        horizontal
            .iter()
            .flatten()
            .any(|h| vertical.iter().flatten().any(|v| v == h))
    }

    /// The importance of the empty point `x`, `y` (0-based), thousandths: the maximum of the
    /// matching patterns' values and of the corner rule's; 0 when nothing matches.
    pub fn importance(&self, grid: &Grid, x: i32, y: i32) -> i32 {
        let mut best: Option<i32> = None;
        for p in &self.patterns {
            if best.is_some_and(|b| b >= p.value) {
                continue;
            }
            if p.matches(grid, x, y) {
                best = Some(p.value);
            }
        }
        if self.is_corner(grid, x, y) {
            best = Some(best.map_or(self.corner_value, |b| b.max(self.corner_value)));
        }
        best.unwrap_or(0)
    }

    /// The names of the patterns that match at `x`, `y` (0-based), for tests and debugging.
    pub fn matching(&self, grid: &Grid, x: i32, y: i32) -> Vec<&str> {
        self.patterns
            .iter()
            .filter(|p| p.matches(grid, x, y))
            .map(|p| p.name.as_str())
            .collect()
    }
}

impl fmt::Display for Pattern {
    /// The base form as a grid, rows from the top, `?` where the pattern says nothing.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let r = self
            .base
            .iter()
            .map(|c| c.0.abs().max(c.1.abs()))
            .max()
            .unwrap_or(0);
        for dy in (-r..=r).rev() {
            for dx in -r..=r {
                let ch = if (dx, dy) == (0, 0) {
                    '*'
                } else {
                    self.base
                        .iter()
                        .find(|c| (c.0, c.1) == (dx, dy))
                        .map_or('?', |c| c.2.symbol())
                };
                write!(f, "{ch}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_parse_as_thousandths() {
        assert_eq!(parse_value("0.15"), Some(150));
        assert_eq!(parse_value("-0.05"), Some(-50));
        assert_eq!(parse_value("1"), Some(1000));
        assert_eq!(parse_value(".3"), Some(300));
        assert_eq!(parse_value("0.1234"), None);
        assert_eq!(parse_value("1.5"), None);
        assert_eq!(parse_value("abc"), None);
    }

    #[test]
    fn the_shipped_table_parses_and_obeys_the_magnitude_rules() {
        let t = PatternTable::default();
        assert!(t.patterns.len() >= 20);
        assert!(t.corner_value > 0 && t.corner_value <= 50);
        for p in &t.patterns {
            assert!(p.forms.len() <= 16 && !p.forms.is_empty(), "{}", p.name);
        }
    }

    #[test]
    fn magnitude_rules_are_enforced() {
        let both_small = "pattern p 0.05\nX*O\nend\n";
        assert!(PatternTable::parse(both_small).is_err());
        let one_big = "pattern p 0.2\nX*X\nend\n";
        assert!(PatternTable::parse(one_big).is_err());
        let ok = "pattern p -0.2\nX*O\nend\npattern q 0.05\nx*X\nend\n";
        assert_eq!(PatternTable::parse(ok).unwrap().patterns.len(), 2);
        assert!(PatternTable::parse("pattern p 0.1\nX.O\nend\n").is_err());
        assert!(PatternTable::parse("pattern p 0.1\nX*O\n").is_err());
    }

    #[test]
    fn an_asymmetric_pattern_has_16_forms() {
        let t = PatternTable::parse("pattern p 0.2\nXO.\n.*.\n...\nend\n").unwrap();
        assert_eq!(t.patterns[0].forms.len(), 16);
    }
}
