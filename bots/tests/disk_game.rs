//! The disk game of seed `002_d88c0e1c38cad7fe.txt` ("Lošimas disku") as a tiny [`Game`]: both
//! searches must find the first player's win.
//!
//! Two players in turn spin a disk numbered 1..6 by one segment left or right and add the number now
//! on top to a common sum `s`; the disk starts at 1, `s` at 0; whoever makes `s` reach or pass
//! `m = 13` wins. The article's tree has 9 levels and the first player wins.

use std::fmt;
use std::str::FromStr;

use bots::engine::{Engine, Limits};
use bots::eval;
use bots::search::{self, Budget, MATE};
use games::frame::{Board, Frame, Text};
use games::tictactoe::TicTacToeVariant;
use games::{Game, NoEvaluation, Outcome, ParseMoveError, PlayError, Player};
use rand::SeedableRng;

const M: u32 = 13;

/// A spin: the article's `sukti_pirmyn` (forward: the disk shows `d − 1`, 1 wraps to 6) or not
/// (back: `d + 1`, 6 wraps to 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Spin {
    Forward,
    Back,
}

impl fmt::Display for Spin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Spin::Forward => "f",
            Spin::Back => "b",
        })
    }
}

impl FromStr for Spin {
    type Err = ParseMoveError;
    fn from_str(s: &str) -> Result<Spin, ParseMoveError> {
        match s {
            "f" => Ok(Spin::Forward),
            "b" => Ok(Spin::Back),
            _ => Err(ParseMoveError::new(s, "expected f or b")),
        }
    }
}

/// The position `(s, d)` of the article, with the spins played for undo.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Disk {
    s: u32,
    d: u32,
    history: Vec<Spin>,
}

impl Disk {
    fn new() -> Disk {
        Disk {
            s: 0,
            d: 1,
            history: Vec::new(),
        }
    }
}

impl fmt::Display for Disk {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "s={} d={}", self.s, self.d)
    }
}

impl Game for Disk {
    type Move = Spin;
    /// The disk game is no game of the arena; the trait wants some variant, and nothing here reads it.
    type Variant = TicTacToeVariant;
    /// The article searches the disk game's whole tree: no static evaluation.
    type Eval = NoEvaluation;
    const LEGEND: &'static str = "s is the sum, d the disk's number; a move is f or b";

    fn start(_: TicTacToeVariant) -> Disk {
        Disk::new()
    }

    fn variant(&self) -> TicTacToeVariant {
        TicTacToeVariant::default()
    }

    fn frame(&self) -> Frame {
        let mut f = Frame::new(Board {
            cols: 1,
            rows: 1,
            ..Board::default()
        });
        f.panel.push(Text::new(self.to_string(), Some(self.turn())));
        f
    }

    fn turn(&self) -> Player {
        if self.history.len().is_multiple_of(2) {
            Player::First
        } else {
            Player::Second
        }
    }

    fn ply(&self) -> usize {
        self.history.len()
    }

    /// In the article's loop order: `false` (back) first, then `true` (forward).
    fn legal_moves_into(&self, out: &mut Vec<Spin>) {
        if self.s < M {
            out.extend([Spin::Back, Spin::Forward]);
        }
    }

    fn check(&self, _m: Spin) -> Result<(), PlayError> {
        if self.s >= M {
            Err(PlayError::GameOver)
        } else {
            Ok(())
        }
    }

    /// The article's `atlik_ėjimą`.
    fn play_unchecked(&mut self, m: Spin) {
        self.d = match m {
            Spin::Forward => (self.d + 4) % 6 + 1,
            Spin::Back => self.d % 6 + 1,
        };
        self.s += self.d;
        self.history.push(m);
    }

    /// The article's `atšauk_ėjimą`.
    fn undo(&mut self) {
        let m = self.history.pop().expect("undo at the start");
        self.s -= self.d;
        self.d = match m {
            Spin::Forward => self.d % 6 + 1,
            Spin::Back => (self.d + 4) % 6 + 1,
        };
    }

    fn outcome(&self) -> Option<Outcome> {
        (self.s >= M).then(|| Outcome::Win(self.turn().opponent()))
    }
}

/// Independent of the crate: whether the player to move wins, and in how many plies with best play
/// (the winner hurries, the loser delays).
fn solve(pos: &mut Disk) -> (bool, u32) {
    if pos.outcome().is_some() {
        return (false, 0);
    }
    let mut best: Option<(bool, u32)> = None;
    for m in pos.legal_moves() {
        pos.play_unchecked(m);
        let (child_wins, n) = solve(pos);
        pos.undo();
        let mine = (!child_wins, n + 1);
        best = Some(match best {
            None => mine,
            Some(b) => match (b.0, mine.0) {
                (true, true) => (true, b.1.min(mine.1)),
                (false, false) => (false, b.1.max(mine.1)),
                (true, false) => b,
                (false, true) => mine,
            },
        });
    }
    best.expect("a game that is on has moves")
}

fn tree_height(pos: &mut Disk) -> u32 {
    if pos.outcome().is_some() {
        return 0;
    }
    let mut h = 0;
    for m in pos.legal_moves() {
        pos.play_unchecked(m);
        h = h.max(1 + tree_height(pos));
        pos.undo();
    }
    h
}

#[test]
fn the_article_facts_hold_the_tree_has_9_levels_and_the_first_player_wins() {
    let mut pos = Disk::new();
    assert_eq!(tree_height(&mut pos), 9);
    assert!(solve(&mut pos).0);
    // The article's level 7: from (s = 11, d = 2) the second player wins by turning up 3.
    let mut pos = Disk {
        s: 11,
        d: 2,
        history: vec![Spin::Back; 7],
    };
    assert_eq!(pos.turn(), Player::Second);
    assert_eq!(solve(&mut pos), (true, 1));
}

#[test]
fn minimax_and_alpha_beta_find_the_first_players_win() {
    let mut pos = Disk::new();
    let (wins, plies) = solve(&mut pos);
    assert!(wins);
    // Spinning forward to 6 first leaves s = 6: any reply allows 13 or more on the third ply.
    assert_eq!(plies, 3);
    let eval = eval::standard(&pos, &Default::default());
    for depth in [9, 12] {
        let (mm, mm_nodes) = search::minimax_value(&mut pos, &eval, depth);
        let (ab, ab_nodes) = search::alpha_beta_value(&mut pos, &eval, depth);
        assert_eq!(mm, MATE - plies as i32, "depth {depth}");
        assert_eq!(ab, mm, "depth {depth}");
        assert!(ab_nodes < mm_nodes, "{ab_nodes} < {mm_nodes}");
    }
    // The whole tree, root included, is 69 positions; two plies cannot reach 13.
    assert_eq!(search::minimax_value(&mut pos, &eval, 9).1, 69);
    let (shallow, _) = search::minimax_value(&mut pos, &eval, 2);
    assert!(!search::is_mate(shallow));
}

#[test]
fn every_move_the_engines_choose_keeps_the_win() {
    for seed in 1..=20u64 {
        let mut minimax = bots::minimax::MinimaxEngine::new(9, seed);
        let mut alphabeta = bots::alphabeta::AlphaBetaEngine::new(64, seed);
        // No clock: the depth limits alone decide.
        let limits = Limits {
            depth: Some(search::MAX_DEPTH),
            ..Limits::default()
        };
        // The first player is the engine; the second plays every reply in turn (a seeded choice).
        for engine in 0..2 {
            let mut pos = Disk::new();
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            while pos.outcome().is_none() {
                let m = if pos.turn() == Player::First {
                    let m = match engine {
                        0 => minimax.choose(&pos, &limits, &mut |_| {}),
                        _ => alphabeta.choose(&pos, &limits, &mut |_| {}),
                    }
                    .unwrap();
                    pos.play_unchecked(m);
                    assert!(!solve(&mut pos).0, "seed {seed}: {m} gives the win away");
                    pos.undo();
                    m
                } else {
                    let moves = pos.legal_moves();
                    moves[rand::Rng::random_range(&mut rng, 0..moves.len())]
                };
                pos.play_unchecked(m);
            }
            assert_eq!(pos.outcome(), Some(Outcome::Win(Player::First)));
        }
    }
}

#[test]
fn iterative_deepening_stops_once_the_win_is_proven() {
    let pos = Disk::new();
    let eval = eval::standard(&pos, &Default::default());
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
    let mut reports = Vec::new();
    let r =
        search::iterative_deepening(&pos, &eval, &Budget::fixed_depth(100), &mut rng, &mut |i| {
            reports.push(i.clone())
        });
    assert!(r.depth <= 9, "{r:?}");
    assert!(search::is_mate(r.score));
    assert_eq!(reports.len() as u32, r.depth);
    assert_eq!(reports.last().unwrap().score, i64::from(r.score));
}
