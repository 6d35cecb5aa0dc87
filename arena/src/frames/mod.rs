//! The board pictures of recorded games ([`games::Frame`], one per position) as the viewers take them:
//! `report.html`'s replays, the contest server's replay pages and its live board. One renderer,
//! [`BOARD_JS`], draws every game from them; it knows no game's rules.
//!
//! A game's pictures travel as a [`Replay`]: its board, every piece, line and area that appears in it
//! once ([`Replay::items`]), and per position the items that come and go ([`Step`]), the highlight and
//! the text panel. The report embeds each game's replay in its [`compact`] form, gzip-compressed and
//! base64-encoded ([`embed`]), one line a game, which the page decompresses in the browser
//! (`DecompressionStream`) when the game is opened; the contest server's API gives the plain form.

pub mod compact;

use foldhash::HashMap;
use std::io::Write as _;

use base64::Engine as _;
use games::frame::{Area, Board, Line, Piece, Spot, Text};
use games::{Frame, Game, GameSpec, GameVisitor};
use serde::{Deserialize, Serialize};

use crate::record::GameRecord;

/// The renderer (`ArenaBoard` in the page): draws a [`Frame`] as SVG and plays a [`Replay`] forward
/// and back. Shared by `report.html` and the contest server's pages.
pub const BOARD_JS: &str = include_str!("board.js");

/// One piece, line or area of a game's pictures.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Item {
    Piece(Piece),
    Line(Line),
    Area(Area),
}

/// How one position's picture differs from the one before it (the start's from an empty board).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Step {
    /// Indices into [`Replay::items`] that appear.
    #[serde(rename = "a", default, skip_serializing_if = "Vec::is_empty")]
    pub add: Vec<u32>,
    /// Indices of the items that go.
    #[serde(rename = "d", default, skip_serializing_if = "Vec::is_empty")]
    pub remove: Vec<u32>,
    /// The frame's highlight.
    #[serde(rename = "h", default, skip_serializing_if = "Vec::is_empty")]
    pub highlight: Vec<Spot>,
    /// The frame's text panel; `None` when it is the one of the step before.
    #[serde(rename = "p", default, skip_serializing_if = "Option::is_none")]
    pub panel: Option<Vec<Text>>,
}

/// A recorded game's pictures, position by position.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Replay {
    /// The board of every position (a game's board does not change).
    pub board: Board,
    /// Every item of the game, in the order they first appear.
    pub items: Vec<Item>,
    /// One step per position: the start, then after each ply. Fewer than the record's plies + 1 only
    /// when a move does not replay (see [`Replay::error`]).
    pub steps: Vec<Step>,
    /// Who made each move that replayed: `0` the first player, `1` the second (the side to move need
    /// not alternate: Kalah gives another move).
    pub movers: String,
    /// Why the pictures stop early: the game or a move that the rules refuse.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl Replay {
    /// The frame of position `ply` (0: the start), built from the steps; `None` past the last.
    pub fn frame(&self, ply: usize) -> Option<Frame> {
        if ply >= self.steps.len() {
            return None;
        }
        let mut on: Vec<bool> = vec![false; self.items.len()];
        let mut panel: &[Text] = &[];
        for step in &self.steps[..=ply] {
            for &i in &step.remove {
                on[i as usize] = false;
            }
            for &i in &step.add {
                on[i as usize] = true;
            }
            if let Some(p) = &step.panel {
                panel = p;
            }
        }
        let mut f = Frame::new(self.board.clone());
        for (item, _) in self.items.iter().zip(&on).filter(|(_, &on)| on) {
            match item {
                Item::Piece(p) => f.pieces.push(p.clone()),
                Item::Line(l) => f.lines.push(l.clone()),
                Item::Area(a) => f.areas.push(a.clone()),
            }
        }
        f.highlight = self.steps[ply].highlight.clone();
        f.panel = panel.to_vec();
        Some(f)
    }
}

/// Builds a [`Replay`] from the pictures of consecutive positions, whole ([`Builder::push`]) or of the
/// spots a move changed ([`Builder::push_changed`]).
#[derive(Default)]
struct Builder {
    replay: Replay,
    ids: HashMap<Item, u32>,
    /// The pieces shown, by spot.
    pieces: HashMap<Spot, Vec<u32>>,
    /// The areas and lines shown, and their ids.
    areas: Vec<Area>,
    lines: Vec<Line>,
    others: Vec<u32>,
    /// The last panel.
    panel: Option<Vec<Text>>,
}

impl Builder {
    fn id(&mut self, item: Item) -> u32 {
        if let Some(&id) = self.ids.get(&item) {
            return id;
        }
        let id = self.replay.items.len() as u32;
        self.replay.items.push(item.clone());
        self.ids.insert(item, id);
        id
    }

    /// The step to `frame`, whose pieces on `spots` replace those shown there (all the pieces when
    /// `spots` is `None`); its areas and lines replace those shown when `outlines`.
    fn step(&mut self, frame: Frame, spots: Option<&[Spot]>, outlines: bool) {
        if self.replay.steps.is_empty() {
            self.replay.board = frame.board.clone();
        }
        let (mut add, mut remove) = (Vec::new(), Vec::new());
        // Areas and lines, whole every time (a game has few), looked up only when they changed.
        if outlines && (frame.areas != self.areas || frame.lines != self.lines) {
            let mut others: Vec<u32> = Vec::with_capacity(frame.areas.len() + frame.lines.len());
            for a in &frame.areas {
                others.push(self.id(Item::Area(a.clone())));
            }
            for l in &frame.lines {
                others.push(self.id(Item::Line(l.clone())));
            }
            others.sort_unstable();
            others.dedup();
            diff(&self.others, &others, &mut add, &mut remove);
            self.others = others;
            self.areas = frame.areas;
            self.lines = frame.lines;
        }
        // Pieces, by spot.
        let mut now: HashMap<Spot, Vec<u32>> = HashMap::default();
        for p in frame.pieces {
            let spot = [p.x, p.y];
            let id = self.id(Item::Piece(p));
            now.entry(spot).or_default().push(id);
        }
        let mut redrawn: Vec<Spot> = match spots {
            Some(s) => s.to_vec(),
            None => self.pieces.keys().chain(now.keys()).copied().collect(),
        };
        redrawn.sort_unstable();
        redrawn.dedup();
        for spot in redrawn {
            let mut was = self.pieces.remove(&spot).unwrap_or_default();
            let mut is = now.remove(&spot).unwrap_or_default();
            was.sort_unstable();
            is.sort_unstable();
            diff(&was, &is, &mut add, &mut remove);
            if !is.is_empty() {
                self.pieces.insert(spot, is);
            }
        }
        add.sort_unstable();
        remove.sort_unstable();
        let panel = (self.panel.as_ref() != Some(&frame.panel)).then(|| frame.panel.clone());
        self.panel = Some(frame.panel);
        self.replay.steps.push(Step {
            add,
            remove,
            highlight: frame.highlight,
            panel,
        });
    }

    /// The step to the position `pos`: from the spots its last move changed where the game names them
    /// ([`Game::changed`]), else from its whole picture.
    fn push<G: Game>(&mut self, pos: &G) {
        match pos.changed().filter(|_| !self.replay.steps.is_empty()) {
            Some(c) => self.step(pos.frame_at(&c), Some(&c.spots), c.outlines),
            None => self.step(pos.frame(), None, true),
        }
    }
}

/// Appends to `add` the ids in `now` and not in `before`, and to `remove` those in `before` and not
/// in `now` (both sorted).
fn diff(before: &[u32], now: &[u32], add: &mut Vec<u32>, remove: &mut Vec<u32>) {
    let (mut i, mut j) = (0, 0);
    while i < before.len() || j < now.len() {
        match (before.get(i), now.get(j)) {
            (Some(a), Some(b)) if a == b => {
                i += 1;
                j += 1;
            }
            (Some(a), Some(b)) if a < b => {
                remove.push(*a);
                i += 1;
            }
            (Some(a), None) => {
                remove.push(*a);
                i += 1;
            }
            (_, Some(b)) => {
                add.push(*b);
                j += 1;
            }
            (None, None) => break,
        }
    }
}

/// Plays a record's moves from its start, a frame after each.
struct Frames<'a>(&'a GameRecord);

impl GameVisitor for Frames<'_> {
    type Output = Replay;
    fn visit<G: Game>(self, mut pos: G) -> Replay {
        let mut b = Builder::default();
        b.push(&pos);
        for (k, text) in self.0.moves.iter().enumerate() {
            let mover = pos.turn();
            let played = text
                .parse::<G::Move>()
                .map_err(|e| e.to_string())
                .and_then(|m| pos.play(m).map_err(|e| e.to_string()));
            if let Err(e) = played {
                b.replay.error = Some(format!("move {} ({text}): {e}", k + 1));
                break;
            }
            b.replay.movers.push(if mover == games::Player::First {
                '0'
            } else {
                '1'
            });
            b.push(&pos);
        }
        b.replay
    }
}

/// The pictures of `record`, from its start (with its setup) through every move. A game or setup the
/// rules do not know gives a replay with no steps and the reason; a move they refuse ends the steps
/// there.
pub fn replay(record: &GameRecord) -> Replay {
    let spec: GameSpec = match format!("{} {}", record.game, record.variant).parse() {
        Ok(s) => s,
        Err(e) => {
            return Replay {
                error: Some(format!("{e}")),
                ..Replay::default()
            }
        }
    };
    spec.visit_with_setup(&record.setup, Frames(record))
        .unwrap_or_else(|e| Replay {
            error: Some(format!("{e}")),
            ..Replay::default()
        })
}

/// The JSON text `json`, gzip-compressed and base64-encoded: what `report.html` embeds for each game
/// (its script decodes it with `DecompressionStream('gzip')`).
pub fn embed(json: &str) -> String {
    // Level 6: half of level 9's time for a few percent more bytes (docs/benchmarks.md).
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    // Writing into a Vec cannot fail.
    let _ = gz.write_all(json.as_bytes());
    let bytes = gz.finish().unwrap_or_default();
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{GameRecord, GameResult};
    use games::GameVisitor;
    use std::io::Read as _;

    /// The frame of every position of `r`, straight from the games crate.
    fn frames_of(r: &GameRecord) -> Vec<Frame> {
        struct All<'a>(&'a GameRecord);
        impl GameVisitor for All<'_> {
            type Output = Vec<Frame>;
            fn visit<G: Game>(self, mut pos: G) -> Vec<Frame> {
                let mut out = vec![pos.frame()];
                for t in &self.0.moves {
                    pos.play(t.parse().ok().unwrap()).unwrap();
                    out.push(pos.frame());
                }
                out
            }
        }
        let spec: GameSpec = format!("{} {}", r.game, r.variant).parse().unwrap();
        spec.visit_with_setup(&r.setup, All(r)).unwrap()
    }

    /// Frames compared as sets of items: the replay does not keep the order within a kind.
    fn normal(mut f: Frame) -> Frame {
        f.pieces.sort_by_key(|p| serde_json::to_string(p).unwrap());
        f.lines.sort_by_key(|l| serde_json::to_string(l).unwrap());
        f.areas.sort_by_key(|a| serde_json::to_string(a).unwrap());
        f
    }

    #[test]
    fn every_position_comes_back_from_the_steps() {
        let mut dots = GameRecord::example("a", "b", GameResult::FirstWins);
        (dots.game, dots.variant) = ("dots".into(), "8 8 empty".into());
        dots.moves = "5-6 5-5 4-5 1-1 6-5 1-8 5-4 2-2"
            .split(' ')
            .map(String::from)
            .collect();
        let c4 = GameRecord::example("a", "b", GameResult::FirstWins);
        for r in [dots, c4] {
            let replay = replay(&r);
            assert_eq!(replay.error, None);
            let frames = frames_of(&r);
            assert_eq!(replay.steps.len(), frames.len());
            for (k, f) in frames.into_iter().enumerate() {
                assert_eq!(normal(replay.frame(k).unwrap()), normal(f), "ply {k}");
            }
        }
    }

    #[test]
    fn a_move_that_does_not_replay_ends_the_steps_with_the_reason() {
        let mut r = GameRecord::example("a", "b", GameResult::FirstWins);
        r.moves = vec!["4".into(), "x".into(), "4".into()];
        let replay = replay(&r);
        assert_eq!(replay.steps.len(), 2);
        assert!(replay.error.unwrap().starts_with("move 2 (x)"));
        r.game = "chess".into();
        assert!(super::replay(&r).error.unwrap().contains("unknown game"));
    }

    #[test]
    fn a_quiet_ply_is_one_number_in_the_compact_form() {
        // Connect Four: each ply a new disc, highlighted (implied), the panel's side to move changing.
        let r = GameRecord::example("a", "b", GameResult::FirstWins);
        let mut text = String::new();
        compact::write(&replay(&r), &mut text);
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        let steps = v["s"].as_array().unwrap();
        assert_eq!(steps.len(), r.moves.len() + 1);
        // The start: nothing new on an empty board.
        assert_eq!(steps[0][0], 0);
        // Ply 1: one new disc; the panel (whose side to move changed) comes last, so the highlight
        // before it is written out.
        assert_eq!(
            steps[1],
            serde_json::json!([1, [], [], [3, 0], [["second to move", 2]]])
        );
        let dots = {
            let mut d = GameRecord::example("a", "b", GameResult::FirstWins);
            (d.game, d.variant) = ("dots".into(), "8 8 empty".into());
            d.moves = vec!["1-1".into(), "8-8".into()];
            d
        };
        let mut text = String::new();
        compact::write(&replay(&dots), &mut text);
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        // A Dots ply with no capture: one new dot, highlighted, the panel unchanged: `[1]`.
        assert_eq!(v["s"][2], serde_json::json!([1]));
        assert_eq!(v["i"][1], serde_json::json!([7, 7, 3, 0, 2]));
        assert_eq!(v["k"], serde_json::json!(["dot"]));
    }

    #[test]
    fn the_embedded_text_is_the_json_gzipped() {
        let r = GameRecord::example("a", "b", GameResult::FirstWins);
        let replays = vec![replay(&r)];
        let text = serde_json::to_string(&replays).unwrap();
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(embed(&text))
            .unwrap();
        let mut json = String::new();
        flate2::read::GzDecoder::new(&bytes[..])
            .read_to_string(&mut json)
            .unwrap();
        let back: Vec<Replay> = serde_json::from_str(&json).unwrap();
        assert_eq!(back, replays);
    }
}
