//! The compact JSON of a [`Replay`] that `report.html` embeds (before gzip): a report may hold ten
//! thousand Dots games of a thousand plies, so a piece is an array of numbers and a step names only the
//! items it brings back (the new ones follow from the order the items first appear). The page's renderer
//! turns it back into a replay (`ArenaBoard.expand` in `board.js`); the API serves the plain form.
//!
//! ```text
//! {"b": board, "k": [kind…], "i": [item…], "s": [step…], "w": movers, "e": error}
//! piece: [x, y, shape, kind, owner, flags, label, w, h]  trailing defaults left out; shape an index of
//!        SHAPES, kind of "k", owner 0 none, 1 first, 2 second; flags 1 faded, 2 ring; w, h 1 when left out
//! line:  {"l": Line}    area: {"a": Area}
//! step:  [new, again, gone, highlight, panel]  trailing empties left out; new: how many items appear
//!        for the first time (the next ones of "i"); again, gone: item indices; highlight: x, y, x, y…,
//!        left out when it is the spots of the new pieces (a dot put, a disc dropped); panel:
//!        [[text, owner]…], left out when it is the step before's
//! ```

use std::fmt::Write as _;

use games::frame::{Piece, Shape};
use games::Player;

use super::{Item, Replay};

/// The shapes by their index in a compact piece (the order `board.js` reads them in).
pub const SHAPES: [Shape; 7] = [
    Shape::Disc,
    Shape::Cross,
    Shape::Ring,
    Shape::Dot,
    Shape::Square,
    Shape::Outline,
    Shape::Pit,
];

fn owner(p: Option<Player>) -> u8 {
    match p {
        None => 0,
        Some(Player::First) => 1,
        Some(Player::Second) => 2,
    }
}

/// `s` as a JSON string.
fn quoted(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
}

/// Appends the compact JSON of `r` to `out`.
pub fn write(r: &Replay, out: &mut String) {
    let mut kinds: Vec<&str> = Vec::new();
    let mut items = String::with_capacity(r.items.len() * 16);
    for (n, item) in r.items.iter().enumerate() {
        if n > 0 {
            items.push(',');
        }
        match item {
            Item::Piece(p) => {
                let k = match kinds.iter().position(|&x| x == p.kind) {
                    Some(i) => i,
                    None => {
                        kinds.push(&p.kind);
                        kinds.len() - 1
                    }
                };
                piece(p, k, &mut items)
            }
            Item::Line(l) => {
                let _ = write!(
                    items,
                    "{{\"l\":{}}}",
                    serde_json::to_string(l).unwrap_or_default()
                );
            }
            Item::Area(a) => {
                let _ = write!(
                    items,
                    "{{\"a\":{}}}",
                    serde_json::to_string(a).unwrap_or_default()
                );
            }
        }
    }
    let board = serde_json::to_string(&r.board).unwrap_or_else(|_| "{}".into());
    let kinds: Vec<String> = kinds.iter().map(|k| quoted(k)).collect();
    let _ = write!(
        out,
        "{{\"b\":{board},\"k\":[{}],\"i\":[{items}],\"s\":[",
        kinds.join(",")
    );
    let mut next = 0u32;
    for (n, st) in r.steps.iter().enumerate() {
        if n > 0 {
            out.push(',');
        }
        // The items this step shows for the first time are the next ones of `items`.
        let new = st.add.iter().filter(|&&i| i >= next).count() as u32;
        debug_assert!(st
            .add
            .iter()
            .filter(|&&i| i >= next)
            .copied()
            .eq(next..next + new));
        let seen = next;
        next += new;
        // The highlight goes without saying when it is the spots of the new pieces, in order.
        let new_spots = r.items[seen as usize..next as usize]
            .iter()
            .filter_map(|i| match i {
                Item::Piece(p) => Some([p.x, p.y]),
                _ => None,
            });
        let implied = new_spots.eq(st.highlight.iter().copied());
        // How many fields to write: the panel's five when it changed, else up to the last one needed.
        let fields = if st.panel.is_some() {
            5
        } else if !implied {
            4
        } else if !st.remove.is_empty() {
            3
        } else if st.add.iter().any(|&i| i < seen) {
            2
        } else {
            1
        };
        let _ = write!(out, "[{new}");
        if fields > 1 {
            out.push_str(",[");
            list(out, st.add.iter().filter(|&&i| i < seen));
            out.push(']');
        }
        if fields > 2 {
            out.push_str(",[");
            list(out, st.remove.iter());
            out.push(']');
        }
        if fields > 3 {
            out.push_str(",[");
            list(out, st.highlight.iter().flatten());
            out.push(']');
        }
        if let Some(panel) = &st.panel {
            out.push_str(",[");
            for (k, t) in panel.iter().enumerate() {
                if k > 0 {
                    out.push(',');
                }
                match t.owner {
                    Some(p) => {
                        let _ = write!(out, "[{},{}]", quoted(&t.text), owner(Some(p)));
                    }
                    None => {
                        let _ = write!(out, "[{}]", quoted(&t.text));
                    }
                }
            }
            out.push(']');
        }
        out.push(']');
    }
    out.push_str("],\"w\":");
    out.push_str(&quoted(&r.movers));
    if let Some(e) = &r.error {
        let _ = write!(out, ",\"e\":{}", quoted(e));
    }
    out.push('}');
}

/// Writes `1,2,3`.
fn list<'a, T: std::fmt::Display + 'a>(out: &mut String, v: impl Iterator<Item = &'a T>) {
    for (k, x) in v.enumerate() {
        if k > 0 {
            out.push(',');
        }
        let _ = write!(out, "{x}");
    }
}

/// A piece as `[x, y, shape, kind, owner, flags, label, w, h]`, trailing defaults left out.
fn piece(p: &Piece, kind: usize, out: &mut String) {
    let shape = SHAPES.iter().position(|&s| s == p.shape).unwrap_or(0);
    let flags = u8::from(p.faded) | (u8::from(p.ring) << 1);
    let spans = p.w != 1 || p.h != 1;
    let _ = write!(out, "[{},{},{shape},{kind}", p.x, p.y);
    // The fields after `kind` as far as the last one that is not its default.
    let last = if spans {
        8
    } else if p.label.is_some() {
        6
    } else if flags != 0 {
        5
    } else if p.owner.is_some() {
        4
    } else {
        3
    };
    if last >= 4 {
        let _ = write!(out, ",{}", owner(p.owner));
    }
    if last >= 5 {
        let _ = write!(out, ",{flags}");
    }
    if last >= 6 {
        out.push(',');
        out.push_str(&p.label.as_deref().map_or("null".to_string(), quoted));
    }
    if last >= 8 {
        let _ = write!(out, ",{},{}", p.w, p.h);
    }
    out.push(']');
}
