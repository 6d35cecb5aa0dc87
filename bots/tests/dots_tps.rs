//! `dots-tps` (seed `000_71d76f5b75d0c15c.txt`): the tactical suite checked by brute force and
//! solved in every pruning mode, the pruning modes measured against the full search on seeded
//! random positions, the pattern table's symmetries, grounding, and the protocol.
//!
//! Every test is exact: depth and node limits, seeds, never the clock.

use bots::dots_tps::patterns::{symmetries, Cell, Grid, Kind, PatternTable};
use bots::dots_tps::search::WIN;
use bots::dots_tps::tactics::{self, Tactic};
use bots::dots_tps::trajectories::Range;
use bots::dots_tps::{think, Budget, Config, Decision, DotsTps, Prune};
use bots::engine::Engine;
use games::dots::{Move, Start};
use games::{Dots, Game, Outcome, Player};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const INF: i32 = 1 << 20;

/// The engine's decision at `pos` searched to `depth` full moves (iterative deepening, no node or time
/// limit), without search reports.
fn think_at(pos: &Dots, cfg: &Config, table: &PatternTable, depth: u32) -> Decision {
    think(pos, cfg, table, &Budget::depth(depth), &mut |_| {})
}

/// `mover`'s captures minus the opponent's.
fn diff(pos: &Dots, mover: Player) -> i32 {
    pos.captures(mover) as i32 - pos.captures(mover.opponent()) as i32
}

/// Plain negamax alpha-beta over every legal point of `pts`, written from the rules alone (no code
/// of the engine): the independent check of the suite's answers and of the modes' values.
fn brute(
    pos: &mut Dots,
    pts: &[Move],
    plies: u32,
    mut alpha: i32,
    beta: i32,
    nodes: &mut u64,
) -> i32 {
    *nodes += 1;
    let mover = pos.turn();
    if plies == 0 || pos.outcome().is_some() {
        return diff(pos, mover);
    }
    let mut best = -INF;
    for &m in pts {
        if !pos.is_legal(m) {
            continue;
        }
        pos.play_unchecked(m);
        let v = -brute(pos, pts, plies - 1, -beta, -alpha, nodes);
        pos.undo();
        best = best.max(v);
        alpha = alpha.max(v);
        if alpha >= beta {
            break;
        }
    }
    if best == -INF {
        diff(pos, mover)
    } else {
        best
    }
}

/// The exact value of root move `m` at `full_moves` (2·full_moves plies in all), mover's view.
fn value_of(pos: &Dots, pts: &[Move], m: Move, full_moves: u32, window: (i32, i32)) -> i32 {
    let mut p = pos.clone();
    p.play_unchecked(m);
    let mut nodes = 0;
    -brute(
        &mut p,
        pts,
        2 * full_moves - 1,
        -window.1,
        -window.0,
        &mut nodes,
    )
}

/// The play range of the engine's default margin.
fn range_points(pos: &Dots) -> Vec<Move> {
    Range::of(pos, Config::default().margin).legal_points(pos)
}

/// Checks `t`'s answers by brute force: each answer reaches the best value, every other point is
/// strictly worse. Returns the best value.
fn verify(t: &Tactic) -> i32 {
    let pos = &t.pos;
    if t.answers == [Move::Ground] {
        let mut p = pos.clone();
        p.play(Move::Ground).unwrap();
        assert_eq!(p.outcome(), Some(Outcome::Win(pos.turn())), "{}", t.name);
        return INF;
    }
    let pts = range_points(pos);
    let best = value_of(pos, &pts, t.answers[0], t.depth, (-INF, INF));
    for &a in &t.answers[1..] {
        assert_eq!(
            value_of(pos, &pts, a, t.depth, (-INF, INF)),
            best,
            "{}: {a}",
            t.name
        );
    }
    for &m in &pts {
        if !t.answers.contains(&m) {
            // A null window at the best value: fails low iff m is strictly worse.
            let v = value_of(pos, &pts, m, t.depth, (best - 1, best));
            assert!(
                v < best,
                "{}: {m} is as good as the answer ({v} >= {best})",
                t.name
            );
        }
    }
    best
}

#[test]
fn every_tactic_answer_is_verified_by_brute_force() {
    let suite = tactics::suite();
    assert!(suite.len() >= 15);
    for t in &suite {
        let v = verify(t);
        println!("{:<28} depth {} value {v}", t.name, t.depth);
    }
}

/// The moves reaching the best value at `full_moves`, by brute force.
fn best_set(pos: &Dots, full_moves: u32) -> Vec<Move> {
    let pts = range_points(pos);
    let mut best = -INF;
    let mut set = Vec::new();
    for &m in &pts {
        // A narrow window around the best so far: a worse move fails low at once, a better one
        // fails high and is searched again for its value.
        let mut v = value_of(pos, &pts, m, full_moves, (best - 1, best + 1));
        if v > best {
            v = value_of(pos, &pts, m, full_moves, (best, INF));
        }
        if v > best {
            best = v;
            set.clear();
        }
        if v == best {
            set.push(m);
        }
    }
    set.sort();
    set
}

#[test]
fn every_bench_answer_is_the_brute_force_best_set_at_depth_3() {
    for t in tactics::suite() {
        if t.answers == [Move::Ground] {
            assert_eq!(t.bench_answers, t.answers);
            continue;
        }
        let mut want = t.bench_answers.clone();
        want.sort();
        if t.depth == bots::dots_tps::bench::BENCH_DEPTH {
            assert_eq!(t.bench_answers, t.answers, "{}", t.name);
        } else {
            assert_eq!(
                best_set(&t.pos, bots::dots_tps::bench::BENCH_DEPTH),
                want,
                "{}",
                t.name
            );
        }
    }
}

#[test]
fn every_mode_finds_every_tactic_and_all_modes_agree() {
    // The suite's answers are checked by a brute force over captures alone; grounding threats are
    // scored here at the first 2 plies only (the rule of commit 6148596). With the default
    // `threat_plies` (every ply) a move may also win by a `ground` 3–4 plies down on these small
    // boards, so each mode's move must then be an answer or such a win.
    let table = PatternTable::default();
    for t in tactics::suite() {
        for mode in Prune::ALL {
            let cfg = Config {
                prune: mode,
                ..Config::default()
            };
            let d = think_at(&t.pos, &cfg, &table, t.depth);
            assert!(
                d.best.is_some_and(|b| t.answers.contains(&b)) || d.value >= WIN / 2,
                "{} in mode {mode} (threats at every ply): {d:?}",
                t.name,
            );
        }
        let mut chosen = Vec::new();
        for mode in Prune::ALL {
            let cfg = Config {
                prune: mode,
                threat_plies: 2,
                ..Config::default()
            };
            let d = think_at(&t.pos, &cfg, &table, t.depth);
            assert!(
                d.best.is_some_and(|b| t.answers.contains(&b)),
                "{} in mode {mode}: {:?} ({})",
                t.name,
                d.best,
                d.how
            );
            chosen.push(d.best);
        }
        assert!(
            chosen.windows(2).all(|w| w[0] == w[1]),
            "{}: {chosen:?}",
            t.name
        );
    }
}

#[test]
#[ignore = "exploration: prints the brute-force value of every root move of every tactic"]
fn analyse_tactics() {
    let only = std::env::var("TACTIC").unwrap_or_default();
    let depth: Option<u32> = std::env::var("DEPTH").ok().and_then(|d| d.parse().ok());
    for mut t in tactics::suite() {
        if !t.name.contains(&only) {
            continue;
        }
        t.depth = depth.unwrap_or(t.depth);
        println!(
            "{} (depth {}, answers {:?})\n{}",
            t.name, t.depth, t.answers, t.pos
        );
        if t.answers == [Move::Ground] {
            continue;
        }
        let pts = range_points(&t.pos);
        let mut vals: Vec<(i32, Move)> = pts
            .iter()
            .map(|&m| (value_of(&t.pos, &pts, m, t.depth, (-INF, INF)), m))
            .collect();
        vals.sort_by_key(|v| -v.0);
        let best = vals[0].0;
        let top: Vec<String> = vals
            .iter()
            .filter(|v| v.0 == best)
            .map(|v| v.1.to_string())
            .collect();
        println!("best {best}: {}", top.join(" "));
        for mode in Prune::ALL {
            let cfg = Config {
                prune: mode,
                ..Config::default()
            };
            let d = think_at(&t.pos, &cfg, &PatternTable::default(), t.depth);
            println!(
                "  {mode:<6} {:?} value {} nodes {} sim {} ({}) roots {} trajs {:?}",
                d.best.map(|m| m.to_string()),
                d.value,
                d.nodes,
                d.sim_nodes,
                d.how,
                d.root_moves,
                d.trajectories
            );
        }
    }
}

/// Values of every range point at `full_moves`, best first.
fn all_values(pos: &Dots, full_moves: u32) -> Vec<(i32, Move)> {
    let pts = range_points(pos);
    let mut vals: Vec<(i32, Move)> = pts
        .iter()
        .map(|&m| (value_of(pos, &pts, m, full_moves, (-INF, INF)), m))
        .collect();
    vals.sort_by_key(|v| -v.0);
    vals
}

/// A random position of `w`×`h` with `k` dots of each colour and no capture, first player to move.
fn random_position(rng: &mut ChaCha8Rng, w: u8, h: u8, k: usize) -> Option<Dots> {
    let mut pos = Dots::new(w, h, Start::Empty);
    for _ in 0..2 * k {
        let moves = pos.legal_moves();
        let m = moves[rng.random_range(0..moves.len())];
        pos.play(m).ok()?;
        if pos.score() != Some([0, 0]) {
            return None;
        }
    }
    Some(pos)
}

#[test]
#[ignore = "exploration: looks for tactical positions with one best move"]
fn generate_tactics() {
    let mut rng = ChaCha8Rng::seed_from_u64(
        std::env::var("SEED")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(1),
    );
    let mut found = 0;
    for _ in 0..4000 {
        let k = rng.random_range(6..11);
        let Some(pos) = random_position(&mut rng, 7, 7, k) else {
            continue;
        };
        let v1 = all_values(&pos, 1);
        let v2 = all_values(&pos, 2);
        let unique = |v: &[(i32, Move)]| v.len() > 1 && v[0].0 > v[1].0;
        let mut passed = pos.clone();
        passed.play_unchecked(Move::Put { x: 0, y: 0 });
        let threat2 = -value_of(
            &passed,
            &range_points(&pos),
            range_points(&passed)[0],
            2,
            (-INF, INF),
        );
        let _ = threat2;
        let kind = if v1[0].0 == 0 && unique(&v2) && v2[0].0 > 0 {
            Some(("capture-in-2", 2))
        } else if v1[0].0 == 0 && v2[0].0 == 0 && unique(&v2) {
            Some(("defend-in-2", 2))
        } else if v2[0].0 == 0 && v1[0].0 == 0 {
            let v3 = all_values(&pos, 3);
            (unique(&v3) && v3[0].0 > 0).then_some(("capture-in-3", 3))
        } else {
            None
        };
        let Some((name, depth)) = kind else { continue };
        let best = if depth == 2 {
            v2[0]
        } else {
            all_values(&pos, 3)[0]
        };
        let mut ok = true;
        for mode in Prune::ALL {
            let cfg = Config {
                prune: mode,
                ..Config::default()
            };
            let d = think_at(&pos, &cfg, &PatternTable::default(), depth);
            ok &= d.best == Some(best.1);
        }
        found += 1;
        println!("position {name}-{found}\nnote generated; value {} all-modes {ok}\nto-move X\ndepth {depth}\nanswer {}\nboard\n{}end\n", best.0, best.1, pos);
        if found >= 30 {
            break;
        }
    }
}

/// A middle-game position: `plies` random moves from the cross on `w`×`h`, seeded.
fn middle_game(seed: u64, w: u8, h: u8, plies: usize) -> Dots {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut pos = Dots::new(w, h, Start::Cross);
    for _ in 0..plies {
        // Mostly next to a dot, as players do: a random legal point within one step of a dot.
        let near: Vec<Move> = pos
            .legal_moves()
            .into_iter()
            .filter(|&m| {
                let Move::Put { x, y } = m else { return false };
                (-1i32..=1).any(|dx| {
                    (-1i32..=1).any(|dy| {
                        let (nx, ny) = (i32::from(x) + dx, i32::from(y) + dy);
                        nx >= 1
                            && ny >= 1
                            && matches!(
                                pos.point(nx as u8, ny as u8),
                                Some(games::dots::Point::Dot(_))
                            )
                    })
                })
            })
            .collect();
        let m = near[rng.random_range(0..near.len())];
        pos.play(m).unwrap();
    }
    pos
}

#[test]
fn pruning_modes_against_the_full_search_on_random_positions() {
    const POSITIONS: u64 = 200;
    const DEPTH: u32 = 2;
    let table = PatternTable::default();
    let mut nodes = [0u64; 4];
    let mut sims = [0u64; 4];
    let mut differ = [0u32; 4];
    let mut loss = [0i64; 4];
    let mut brute_nodes = 0u64;
    for seed in 0..POSITIONS {
        let pos = middle_game(seed, 10, 10, 24 + (seed % 16) as usize);
        let pts = range_points(&pos);
        // The full search: plain alpha-beta over the whole play range, importance left out.
        let mut best = -INF;
        for &m in &pts {
            let mut p = pos.clone();
            p.play_unchecked(m);
            let v = -brute(&mut p, &pts, 2 * DEPTH - 1, -INF, -best, &mut brute_nodes);
            best = best.max(v);
        }
        for (k, mode) in Prune::ALL.into_iter().enumerate() {
            let cfg = Config {
                prune: mode,
                ..Config::default()
            };
            let d = think(
                &pos,
                &cfg,
                &table,
                &Budget {
                    iterative: false,
                    ..Budget::depth(DEPTH)
                },
                &mut |_| {},
            );
            nodes[k] += d.nodes;
            sims[k] += d.sim_nodes;
            let chosen = d.best.expect("a move");
            let v = value_of(&pos, &pts, chosen, DEPTH, (-INF, INF));
            assert!(v <= best);
            if v < best {
                differ[k] += 1;
                loss[k] += i64::from(best - v);
            }
        }
    }
    println!("{POSITIONS} random 10x10 positions, depth {DEPTH} full moves; full search {brute_nodes} nodes");
    println!(
        "{:<8} {:>12} {:>12} {:>8} {:>10}",
        "mode", "tree nodes", "sim nodes", "differ", "lost dots"
    );
    for (k, mode) in Prune::ALL.into_iter().enumerate() {
        println!(
            "{:<8} {:>12} {:>12} {:>8} {:>10}",
            mode.name(),
            nodes[k],
            sims[k],
            differ[k],
            loss[k]
        );
    }
    assert!(
        nodes[1] < nodes[0],
        "useful moves must search fewer nodes than all moves"
    );
    assert!(nodes[2] <= nodes[1], "heuristic 1 must not search more");
    assert!(nodes[3] <= nodes[2], "heuristic 2 must not search more");
    // The approximations of the article may cost a value now and then, not often.
    assert!(
        differ[3] * 5 <= POSITIONS as u32,
        "h12 differs too often: {}",
        differ[3]
    );
}

/// The cells of `form` drawn on an otherwise empty `w`×`h` board with the valued point where the
/// form's off-board cells fall off the board; returns the board and the point (0-based).
fn craft(form: &[(i8, i8, Kind)], w: i32, h: i32) -> (Dots, i32, i32) {
    let fits = |cx: i32, cy: i32| {
        form.iter().all(|&(dx, dy, k)| {
            let (x, y) = (cx + i32::from(dx), cy + i32::from(dy));
            (x >= 0 && y >= 0 && x < w && y < h) == (k != Kind::Off) || k == Kind::Any
        })
    };
    let (cx, cy) = [w / 2, 0, w - 1]
        .into_iter()
        .flat_map(|cx| [h / 2, 0, h - 1].into_iter().map(move |cy| (cx, cy)))
        .find(|&(cx, cy)| fits(cx, cy))
        .unwrap_or_else(|| panic!("the crafted board cannot realise {form:?}"));
    let mut rows = vec![vec!['.'; w as usize]; h as usize];
    for &(dx, dy, k) in form {
        let (x, y) = (cx + i32::from(dx), cy + i32::from(dy));
        let ch = match k {
            Kind::A => 'X',
            Kind::B => 'O',
            _ => continue,
        };
        rows[(h - 1 - y) as usize][x as usize] = ch;
    }
    let rows: Vec<String> = rows.into_iter().map(|r| r.into_iter().collect()).collect();
    let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
    (tactics::board(&refs, Player::First).unwrap(), cx, cy)
}

#[test]
fn each_pattern_matches_its_16_forms_and_nothing_else() {
    let table = PatternTable::default();
    for p in &table.patterns {
        // The 16 symmetries are all among the pattern's forms, and the forms are nothing else.
        let sym = symmetries(&p.base);
        assert_eq!(sym.len(), 16);
        for f in &sym {
            assert!(p.forms.contains(f), "{}: a symmetry is missing", p.name);
        }
        for f in &p.forms {
            assert!(sym.contains(f), "{}: a form is no symmetry", p.name);
        }
        for f in &p.forms {
            let (pos, x, y) = craft(f, 11, 11);
            let grid = Grid::new(&pos);
            let matching: Vec<&Vec<(i8, i8, Kind)>> = p
                .forms
                .iter()
                .filter(|g| bots::dots_tps::patterns::Pattern::form_matches(g, &grid, x, y))
                .collect();
            assert_eq!(
                matching,
                vec![f],
                "{}: on the board of one form\n{pos}",
                p.name
            );
            assert!(table.importance(&grid, x, y) >= p.value, "{}", p.name);
            // Spoil each demanding cell in turn (a dead point satisfies nothing but '?'): no form
            // of the pattern matches any more.
            for &(dx, dy, k) in f {
                if k == Kind::Off || k == Kind::Any {
                    continue;
                }
                let mut spoiled = Grid::new(&pos);
                spoiled.set(x + i32::from(dx), y + i32::from(dy), Cell::Dead);
                assert!(
                    !p.matches(&spoiled, x, y),
                    "{}: still matches with ({dx},{dy}) spoiled\n{pos}",
                    p.name
                );
            }
        }
    }
}

#[test]
fn importance_is_the_maximum_of_the_matching_patterns_not_the_sum() {
    let table = PatternTable::parse(
        "pattern a 0.12\n?X?\n?*O\n???\nend\npattern b 0.10\n?O?\n?*?\n?X?\nend\npattern c -0.2\nX?O\n?*?\nend\n",
    )
    .unwrap();
    // 4-3 between X above (4-4) and O below (4-2): b alone.
    let pos = tactics::board(
        &[".......", "...X...", ".......", "...O...", "......."],
        Player::First,
    )
    .unwrap();
    let grid = Grid::new(&pos);
    assert_eq!(table.matching(&grid, 3, 2), vec!["b"]);
    assert_eq!(table.importance(&grid, 3, 2), 100);
    let pos = tactics::board(
        &[".......", "...X...", "....O..", "...O...", "......."],
        Player::First,
    )
    .unwrap();
    let grid = Grid::new(&pos);
    assert_eq!(table.matching(&grid, 3, 2), vec!["a", "b"]);
    assert_eq!(table.importance(&grid, 3, 2), 120);
    // Only a negative pattern: the importance is negative.
    let pos = tactics::board(
        &[".......", "..X.O..", ".......", ".......", "......."],
        Player::First,
    )
    .unwrap();
    let grid = Grid::new(&pos);
    assert_eq!(table.importance(&grid, 3, 2), -200);
    // Nothing matches: 0.
    assert_eq!(table.importance(&grid, 0, 0), 0);
}

#[test]
fn a_corner_point_sees_own_dots_at_a_right_angle_farther_than_one_step() {
    let table = PatternTable::default();
    // 2-2 sees X on 5-2 (3 steps right) and on 2-4 (2 steps up).
    let pos = tactics::board(
        &["......", "......", ".X....", "......", "....X.", "......"],
        Player::First,
    )
    .unwrap();
    let grid = Grid::new(&pos);
    assert!(table.is_corner(&grid, 1, 1));
    assert!(table.importance(&grid, 1, 1) >= table.corner_value);
    // 2-3 sees 2-4 one step away only: no corner.
    assert!(!table.is_corner(&grid, 1, 2));
    // Different colours at the right angle: no corner.
    let pos = tactics::board(
        &["......", "......", ".X....", "......", "....O.", "......"],
        Player::First,
    )
    .unwrap();
    assert!(!table.is_corner(&Grid::new(&pos), 1, 1));
}

#[test]
fn grounding_never_into_a_loss_or_a_draw() {
    let table = PatternTable::default();
    // Blue leads 1:0 but has two ungrounded dots in the open: ground would lose 1:2.
    let pos = Dots::from_moves(
        8,
        8,
        Start::Empty,
        "2-3 2-2 1-2 6-6 3-2 6-7 2-1 7-6 4-5 7-7 4-4 8-8",
    )
    .unwrap();
    assert_eq!(pos.score(), Some([1, 0]));
    let d = think_at(&pos, &Config::default(), &table, 1);
    assert_ne!(d.best, Some(Move::Ground));
    // One ungrounded dot: ground would draw 1:1.
    let pos = Dots::from_moves(
        8,
        8,
        Start::Empty,
        "2-3 2-2 1-2 6-6 3-2 6-7 2-1 7-6 4-5 7-7",
    )
    .unwrap();
    assert_eq!(pos.ungrounded_dots(Player::First), 1);
    let d = think_at(&pos, &Config::default(), &table, 1);
    assert_ne!(d.best, Some(Move::Ground));
}

#[test]
fn grounding_can_be_switched_off() {
    let t = tactics::suite()
        .into_iter()
        .find(|t| t.answers == [Move::Ground])
        .unwrap();
    let cfg = Config {
        grounding: false,
        ..Config::default()
    };
    let d = think_at(&t.pos, &cfg, &PatternTable::default(), 1);
    assert!(matches!(d.best, Some(Move::Put { .. })));
}

fn session(engine: &mut impl Engine, input: &str) -> String {
    let mut out = Vec::new();
    bots::protocol::serve(engine, input.as_bytes(), &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

#[test]
fn serves_dots_and_refuses_other_games() {
    let mut e = DotsTps::default();
    let out = session(
        &mut e,
        "ugi\nsetoption name prune value h1\nsetoption name margin value 1\ngame dots 12 12 cross\nposition startpos moves 7-8 6-5\ngo depth 4 nodes 200000\nquit\n",
    );
    assert!(
        out.contains("option name prune type combo default h12 var all var useful var h1 var h12")
    );
    assert!(out.contains("option name patterns type string"));
    let mv = out
        .lines()
        .find_map(|l| l.strip_prefix("bestmove "))
        .unwrap();
    let mut pos = Dots::from_moves(12, 12, Start::Cross, "7-8 6-5").unwrap();
    pos.play(mv.parse().unwrap()).unwrap();
    assert!(!out.contains("error"), "{out}");
    let out = session(
        &mut DotsTps::default(),
        "game connect4 7 6\nposition startpos\ngo depth 2\nquit\n",
    );
    assert!(out.contains("bestmove (none)"));
    let out = session(
        &mut DotsTps::default(),
        "setoption name patterns value /nonexistent/p.txt\nsetoption name prune value sideways\n",
    );
    assert_eq!(out.matches("info string error").count(), 2, "{out}");
}

#[test]
fn the_same_position_gets_the_same_move_and_node_count() {
    let pos = middle_game(7, 12, 12, 30);
    let run = || think_at(&pos, &Config::default(), &PatternTable::default(), 2);
    let (a, b) = (run(), run());
    assert_eq!(
        (a.best, a.nodes, a.sim_nodes),
        (b.best, b.nodes, b.sim_nodes)
    );
}

#[test]
fn the_bench_table_finds_every_answer_at_depth_3_and_the_nodes_fall() {
    let suite = tactics::suite();
    let rows = bots::dots_tps::bench::rows(
        &suite,
        bots::dots_tps::bench::BENCH_DEPTH,
        true,
        &mut |_, _, _, _| {},
    );
    for r in &rows {
        println!(
            "{:<7} {:>9} tree nodes {:>8} sim nodes {}/{} right",
            r.mode.name(),
            r.nodes,
            r.sim_nodes,
            r.right,
            r.positions
        );
        assert_eq!(r.capped, 0, "{}", r.mode);
        assert_eq!(r.right, r.positions, "{}", r.mode);
    }
    assert!(rows.windows(2).all(|w| w[1].nodes < w[0].nodes));
}

#[test]
fn on_an_empty_board_it_opens_in_the_centre() {
    // No dot: the play range is the whole board, nothing can be captured and no pattern matches
    // the middle, so importance ties are broken towards the centre of the range.
    let pos = Dots::new(9, 9, Start::Empty);
    let d = think_at(&pos, &Config::default(), &PatternTable::default(), 2);
    assert_eq!(d.best, Some(Move::Put { x: 5, y: 5 }));
    assert_eq!(d.how, "shortcut");
}

#[test]
fn the_patterns_option_loads_another_table() {
    let path = std::env::temp_dir().join(format!("dots-tps-patterns-{}.txt", std::process::id()));
    // One pattern: a point right of a lone X dot is worth 0.05; everything else 0.
    std::fs::write(&path, "pattern right-of-x 0.05\nX*\nend\n").unwrap();
    let mut e = DotsTps::default();
    e.set_option("patterns", path.to_str().unwrap()).unwrap();
    e.set_option("margin", "1").unwrap();
    std::fs::remove_file(&path).unwrap();
    // Nothing to capture on this board: the importance alone picks a point next to a dot.
    let pos = tactics::board(
        &["......", "......", "..X...", "......", "....O.", "......"],
        Player::Second,
    )
    .unwrap();
    let d = e.choose_dots(
        &pos,
        &bots::engine::Limits {
            depth: Some(2),
            ..Default::default()
        },
        &mut |_| {},
    );
    let mv = d.best.unwrap();
    let Move::Put { x, y } = mv else {
        panic!("{mv}")
    };
    let grid = Grid::new(&pos);
    let table = PatternTable::parse("pattern right-of-x 0.05\nX*\nend\n").unwrap();
    assert_eq!(
        table.importance(&grid, i32::from(x) - 1, i32::from(y) - 1),
        50,
        "{mv}"
    );
    e.set_option("patterns", "").unwrap();
}

/// The article's engine at `depth` with the transposition table and history ordering set as given
/// (no grounding threats, trajectories as long as the depth, as the article).
fn article_with(depth: u32, tt: bool, history: bool) -> Config {
    Config {
        depth,
        tt,
        history,
        ..Config::article()
    }
}

#[test]
fn the_transposition_table_and_history_keep_every_value_and_move_at_fixed_depth() {
    // The table cuts only within one depth and at the same plies left, so the negamax values, and
    // with the same root order the chosen moves, are those of the search without it.
    let table = PatternTable::default();
    let mut fewer = 0;
    for t in tactics::suite() {
        for depth in 1..=3 {
            let plain = think_at(&t.pos, &article_with(depth, false, false), &table, depth);
            for (tt, history) in [(true, false), (false, true), (true, true)] {
                let d = think_at(&t.pos, &article_with(depth, tt, history), &table, depth);
                assert_eq!(
                    (d.best, d.value, d.depth),
                    (plain.best, plain.value, plain.depth),
                    "{} at depth {depth}, tt {tt}, history {history}",
                    t.name
                );
                if tt && depth == 3 && d.nodes < plain.nodes {
                    fewer += 1;
                }
            }
        }
    }
    assert!(fewer > 0, "the table never saved a node at depth 3");
}

#[test]
fn the_transposition_table_keeps_the_values_on_random_middle_games() {
    let table = PatternTable::default();
    for seed in 0..6 {
        let pos = middle_game(seed, 12, 12, 40);
        let plain = think_at(&pos, &article_with(2, false, false), &table, 2);
        let d = think_at(&pos, &article_with(2, true, true), &table, 2);
        assert_eq!((d.best, d.value), (plain.best, plain.value), "seed {seed}");
    }
}

#[test]
fn the_default_engines_table_keeps_its_values_and_moves_at_fixed_depth() {
    // The default engine (grounding threats scored in the tree, trajectories of at most 3 points,
    // simulations reused across depths) with and without its table and history.
    let table = PatternTable::default();
    let with = |depth, tt| Config {
        depth,
        tt,
        history: tt,
        ..Config::default()
    };
    let mut positions: Vec<Dots> = tactics::suite().into_iter().map(|t| t.pos).collect();
    positions.extend((0..6).map(|seed| middle_game(seed, 12, 12, 40)));
    for (k, pos) in positions.iter().enumerate() {
        for depth in 1..=2 {
            let plain = think_at(pos, &with(depth, false), &table, depth);
            let d = think_at(pos, &with(depth, true), &table, depth);
            assert_eq!(
                (d.best, d.value, d.depth),
                (plain.best, plain.value, plain.depth),
                "position {k} at depth {depth}"
            );
        }
    }
}

#[test]
fn zobrist_keys_agree_on_transpositions_and_after_undo() {
    use bots::dots_tps::tt::{node_key, point_key, TURN_KEY};
    let start = Dots::from_moves(10, 10, Start::Cross, "2-2 9-9").unwrap();
    let put = |x: u8, y: u8| Move::Put { x, y };
    let id = |m: Move| match m {
        Move::Put { x, y } => usize::from(y) * 12 + usize::from(x),
        Move::Ground => 0,
    };
    // The same three dots in two orders: the same position, the same key.
    let line = |order: [Move; 3]| {
        let mut pos = start.clone();
        let mut dots = 0u64;
        for m in order {
            dots ^= point_key(id(m), pos.turn());
            pos.play(m).unwrap();
        }
        (node_key(dots, &pos), pos)
    };
    let (a, b, c) = (put(3, 3), put(8, 8), put(4, 7));
    let (k1, p1) = line([a, b, c]);
    let (k2, p2) = line([c, b, a]);
    assert_eq!(p1.to_string(), p2.to_string());
    assert_eq!(k1, k2);
    // Another dot for the other side: another key.
    let (k3, _) = line([a, c, b]);
    assert_ne!(k1, k3);
    // Play and undo restore the key; the side to move is part of it.
    let mut pos = p1.clone();
    let before = node_key(0, &pos);
    pos.play(put(7, 3)).unwrap();
    assert_ne!(node_key(0, &pos), before);
    pos.undo();
    assert_eq!(node_key(0, &pos), before);
    let mut passed = start.clone();
    let k = node_key(0, &passed);
    passed.play(Move::Put { x: 0, y: 0 }).ok();
    if passed.turn() != start.turn() {
        assert_eq!(node_key(0, &passed), k ^ TURN_KEY);
    }
    // A capture changes the key through the capture counts: Blue closes Red's 5-5.
    let mut cap = Dots::from_moves(8, 8, Start::Empty, "5-6 5-5 4-5 1-1 6-5 1-8").unwrap();
    let k_before = node_key(0, &cap);
    let blue = cap.turn();
    cap.play(put(5, 4)).unwrap();
    assert_eq!(cap.captures(blue), 1);
    let z = point_key(id(put(5, 4)), blue);
    assert_ne!(node_key(z, &cap), k_before ^ TURN_KEY ^ z);
}

#[test]
fn the_time_manager_spends_a_share_of_the_clock_and_never_a_quarter() {
    use bots::dots_tps::{move_time, MoveTime};
    // 20 s + 200 ms at the start of 20×20 (396 free points): 49 moves expected, a reserve of
    // 10 ms each, avail = 19510, soft = 19510/49 + 150 = 548, hard = 3 × 548 = 1644.
    assert_eq!(
        move_time(None, Some(20_000), Some(200), 396),
        Some(MoveTime {
            soft_ms: 548,
            hard_ms: 1644
        })
    );
    // 39×32 (1244 points): at most 50 moves expected, avail = 19500.
    assert_eq!(
        move_time(None, Some(20_000), Some(200), 1244),
        Some(MoveTime {
            soft_ms: 540,
            hard_ms: 1620
        })
    );
    // Late, 300 ms left and 12 moves expected: avail = 300 − 120 = 180, a fifth and a quarter of it;
    // the increment cannot be spent.
    assert_eq!(
        move_time(None, Some(300), Some(200), 40),
        Some(MoveTime {
            soft_ms: 36,
            hard_ms: 45
        })
    );
    // Below the reserve (10 ms for each of the 12 moves still expected): nothing to spend.
    assert_eq!(
        move_time(None, Some(100), Some(0), 40),
        Some(MoveTime {
            soft_ms: 0,
            hard_ms: 0
        })
    );
    // movetime: less a fifth, at most 100 ms, both limits.
    assert_eq!(
        move_time(Some(1000), Some(5), None, 10),
        Some(MoveTime {
            soft_ms: 900,
            hard_ms: 900
        })
    );
    assert_eq!(move_time(None, None, Some(100), 10), None);
    for time in [0, 1, 10, 99, 1000, 20_000, 600_000] {
        for inc in [0, 50, 200, 5000] {
            for free in [0, 50, 400, 1244] {
                let t = move_time(None, Some(time), Some(inc), free).unwrap();
                assert!(
                    t.soft_ms <= t.hard_ms && t.hard_ms <= time / 4,
                    "{time} {inc} {free}"
                );
            }
        }
    }
}

#[test]
fn the_article_config_is_the_old_default_and_the_options_reach_it() {
    let mut e = DotsTps::default();
    for (k, v) in [
        ("depth", "3"),
        ("tt", "false"),
        ("history", "false"),
        ("threats", "false"),
        ("reach", "0"),
        ("playouts", "0"),
    ] {
        e.set_option(k, v).unwrap();
    }
    assert_eq!(e.config, Config::article());
    let a = Config::article();
    assert_eq!(
        (a.depth, a.tt, a.history, a.threats, a.reach),
        (3, false, false, false, 0)
    );
    assert!(Config::default().tt && Config::default().depth > 3);
}

#[test]
fn threats_see_the_opponent_grounding_into_a_win() {
    // 10×10, Blue to move, 0:2: Red has taken 2-2 and 2-3, and every Red dot but 6-4 is grounded
    // (the edge and the base), so Red's `ground` wins 2:1 now. Blue's only capture, 6-4, needs 7-4
    // and 6-5: two moves. Every Blue move loses to the ground; the article's engine does not see it.
    let pos = Dots::from_moves(
        10,
        10,
        Start::Empty,
        "2-2 1-2 2-3 1-3 5-4 2-1 6-3 3-2 9-9 6-4 9-8 2-4 9-7 3-3",
    )
    .unwrap();
    assert_eq!(
        (pos.captures(Player::First), pos.captures(Player::Second)),
        (0, 2)
    );
    assert_eq!(pos.ungrounded_dots(Player::Second), 1);
    let table = PatternTable::default();
    let d = think_at(&pos, &Config::default(), &table, 2);
    assert_eq!(d.value, -(WIN - 1), "{d:?}");
    let d = think_at(
        &pos,
        &Config {
            depth: 2,
            ..Config::article()
        },
        &table,
        2,
    );
    assert!(d.value > -WIN / 2, "{d:?}");
}

#[test]
fn threats_ground_the_last_dot_and_then_win_by_grounding() {
    // 8×8, Red to move, 1:0 (Red took 2-2), one ungrounded Red dot, 5-2: 5-1 or 4-2 joins it to the
    // edge (through 3-2 and the base), then Red's `ground` wins; Blue cannot capture in time.
    let pos = Dots::from_moves(
        8,
        8,
        Start::Empty,
        "2-2 1-2 6-6 2-1 6-7 3-2 7-7 2-3 7-5 5-2 8-3",
    )
    .unwrap();
    assert_eq!(pos.turn(), Player::Second);
    assert_eq!(pos.ungrounded_dots(Player::Second), 1);
    let d = think_at(&pos, &Config::default(), &PatternTable::default(), 2);
    assert!(
        [Move::Put { x: 5, y: 1 }, Move::Put { x: 4, y: 2 }].contains(&d.best.unwrap()),
        "{d:?}"
    );
    assert_eq!(d.value, WIN - 2);
    let d = think_at(&pos, &Config::article(), &PatternTable::default(), 2);
    assert!(d.value < WIN / 2, "{d:?}");
}

#[test]
fn widening_adds_a_pass_with_4_point_trajectories_of_the_same_values() {
    // With `widen` (off by default), after the first pass (trajectories of at most 3 points) reaches the depth, a
    // second pass searches with 4-point trajectories from depth 4: its value is the value of a
    // plain `reach 4` search at that depth (the table keeps the two passes' entries apart).
    let table = PatternTable::default();
    let mut positions: Vec<Dots> = tactics::suite().into_iter().map(|t| t.pos).collect();
    positions.extend((0..3).map(|seed| middle_game(seed, 12, 12, 40)));
    let wide = Config {
        widen: true,
        ..Config::default()
    };
    let mut widened = 0;
    for (k, pos) in positions.iter().enumerate() {
        let d = think_at(pos, &wide, &table, 4);
        let narrow = think_at(
            pos,
            &Config {
                widen: false,
                ..Config::default()
            },
            &table,
            4,
        );
        assert!(narrow.reach <= 3, "position {k}: {narrow:?}");
        // At depth 3 there is nothing to widen: the same move, value and nodes as without it.
        let at3 = think_at(pos, &wide, &table, 3);
        let at3_narrow = think_at(
            pos,
            &Config {
                widen: false,
                ..Config::default()
            },
            &table,
            3,
        );
        assert_eq!(
            (at3.best, at3.value, at3.nodes, at3.reach),
            (
                at3_narrow.best,
                at3_narrow.value,
                at3_narrow.nodes,
                at3_narrow.reach
            ),
            "position {k}"
        );
        if d.reach == 4 {
            widened += 1;
            let plain4 = think_at(
                pos,
                &Config {
                    reach: 4,
                    widen: false,
                    ..Config::default()
                },
                &table,
                4,
            );
            assert_eq!((d.value, d.depth), (plain4.value, 4), "position {k}");
            assert!(d.sim_nodes > narrow.sim_nodes, "position {k}");
        } else {
            // Only a win by grounding (at the root or in the tree) ends the first pass early; then
            // the move is the narrow one.
            assert!(
                d.how == "ground" || d.value >= WIN / 2,
                "position {k}: {d:?}"
            );
            assert_eq!((d.best, d.value), (narrow.best, narrow.value));
        }
    }
    assert!(
        widened * 2 > positions.len(),
        "{widened} of {}",
        positions.len()
    );
}

#[test]
fn the_clock_starts_when_go_arrives() {
    use bots::engine::Limits;
    use std::time::{Duration, Instant};
    // A `go` that arrived 10 s ago with 1 s on the clock: the move's time is spent before the search
    // starts, so it stops at once (within the first 256 nodes, or after the first depth) and reports
    // the time since `go`. Deterministic: the deadline has passed whatever the machine's speed.
    let pos = middle_game(1, 12, 12, 40);
    let Some(past) = Instant::now().checked_sub(Duration::from_secs(10)) else {
        return; // a clock younger than 10 s (a fresh boot): nothing to show
    };
    let limits = Limits {
        time_ms: Some(1000),
        inc_ms: Some(0),
        received: Some(past),
        ..Limits::default()
    };
    let mut e = DotsTps::default();
    let d = e.choose_dots(&pos, &limits, &mut |_| {});
    assert!(d.time_ms >= 10_000, "{d:?}");
    assert!(d.depth <= 1, "{d:?}");
    assert!(d.best.is_some_and(|m| pos.is_legal(m)));
    // Without the arrival the search counts from its own start (a quarter of the clock at most, far
    // below 10 s).
    let d = e.choose_dots(
        &pos,
        &Limits {
            received: None,
            ..limits
        },
        &mut |_| {},
    );
    assert!(d.time_ms < 10_000, "{d:?}");
}

/// A game of the default engine against the article's on 20×20 from the cross (its first 98
/// plies).
const GAME: &str =
    "1-14 5-16 5-15 5-14 6-15 4-15 6-14 6-16 7-14 7-13 6-13 5-13 6-12 5-12 7-12 8-13 \
    8-14 8-12 8-15 7-15 7-16 9-15 9-14 9-13 10-14 10-13 10-12 11-13 11-12 12-11 12-12 9-12 9-11 \
    8-11 7-11 8-10 9-10 10-9 9-9 7-10 8-9 7-9 11-14 12-13 13-12 10-15 11-9 10-8 13-10 9-8 12-10 \
    8-8 13-11 11-15 12-14 13-13 12-15 13-14 11-8 13-15 12-16 11-16 13-16 5-10 6-10 6-9 6-11 5-11 \
    4-12 4-13 4-14 3-14 4-11 4-10 3-11 3-10 2-13 3-13 3-12 2-14 1-13 6-8 2-12 7-8 4-9 5-9 3-9 \
    2-10 2-11 2-9 4-7 4-8 3-8 5-8 5-7 6-7 2-8 8-7";

/// [`GAME`] after its first `plies` plies.
fn game_at(plies: usize) -> Dots {
    let moves: Vec<&str> = GAME.split_whitespace().collect();
    Dots::from_moves(20, 20, Start::Cross, &moves[..plies].join(" ")).unwrap()
}

#[test]
fn an_iteration_calls_its_move_quiet_exactly_when_it_is_on_no_trajectory() {
    use bots::dots_tps::patterns::Grid;
    use bots::dots_tps::search::{iteration, Memory, RootPoints};
    use bots::dots_tps::Control;
    let cfg = Config::default();
    // Every importance 0: the order of the quiet points does not matter here.
    let run = |pos: &Dots, m: u32| {
        let range = Range::of(pos, cfg.margin);
        let points = range.legal_points(pos);
        let root = RootPoints {
            exposure: Vec::new(),
            importance: vec![0; points.len()],
            points,
            grid: Grid::new(pos),
            centre: (
                i32::from(range.x0) + i32::from(range.x1),
                i32::from(range.y0) + i32::from(range.y1),
            ),
        };
        let mut work = pos.clone();
        let mut mem = Memory::new(&cfg, pos);
        iteration(
            &mut work,
            &cfg,
            &root,
            m,
            None,
            &mut mem,
            &mut Control::new(None, None),
        )
    };
    // A capture on the board: the move is on a trajectory.
    let pos = Dots::from_moves(8, 8, Start::Empty, "5-6 5-5 4-5 1-1 6-5 1-8").unwrap();
    let it = run(&pos, 2);
    assert_eq!(it.best, Some(Move::Put { x: 5, y: 4 }));
    assert!(
        !it.quiet && it.useful.contains(&Move::Put { x: 5, y: 4 }),
        "{it:?}"
    );
    let (mut quiet, mut loud) = (0, 0);
    for plies in (10..=90).step_by(10) {
        let it = run(&game_at(plies), 3);
        let best = it.best.unwrap();
        assert!(it.complete);
        assert_eq!(it.quiet, !it.useful.contains(&best), "ply {plies}: {it:?}");
        if it.quiet {
            quiet += 1;
        } else {
            loud += 1;
        }
    }
    assert!(
        quiet > 0 && loud > 0,
        "{quiet} quiet, {loud} on a trajectory"
    );
}

#[test]
fn random_fills_are_seeded_round_robin_and_count_their_plies() {
    use bots::dots_tps::playouts::tally;
    use bots::dots_tps::Control;
    let mut pos = middle_game(1, 12, 12, 30);
    let before = pos.clone();
    let cands: Vec<Move> = pos.legal_moves().into_iter().take(3).collect();
    let run = |pos: &mut Dots, seed: u64| {
        let mut ctl = Control::new(None, None);
        let t = tally(pos, &cands, 5, seed, &mut ctl);
        (t, ctl.sim_nodes)
    };
    let (a, nodes) = run(&mut pos, 9);
    assert_eq!(pos, before, "the fills are taken back");
    assert_eq!(a.games, vec![5, 5, 5]);
    // Every fill puts a dot on most of the 144 − 34 free points (some become enclosed first).
    assert!(nodes > 15 * 50 && nodes < 15 * 144, "{nodes}");
    assert_eq!(
        run(&mut pos, 9),
        (a.clone(), nodes),
        "the same seed, the same fills"
    );
    assert_ne!(run(&mut pos, 10).0, a, "another seed, other fills");
    // A node limit stops within a fill; that fill is not counted.
    let mut ctl = Control::new(Some(nodes / 2), None);
    let t = tally(&mut pos, &cands, 5, 9, &mut ctl);
    assert!(ctl.stopped);
    assert!(t.games.iter().sum::<u32>() < 15, "{t:?}");
    assert_eq!(pos, before);
}

#[test]
fn random_fills_favour_the_point_that_captures() {
    use bots::dots_tps::playouts::tally;
    use bots::dots_tps::Control;
    // Blue (first) has Red's 5-5 closed on three sides: 5-4 captures it, 1-4 does not.
    let mut pos = Dots::from_moves(8, 8, Start::Empty, "5-6 5-5 4-5 1-1 6-5 1-8").unwrap();
    let cands = [Move::Put { x: 5, y: 4 }, Move::Put { x: 1, y: 4 }];
    let t = tally(&mut pos, &cands, 200, 1, &mut Control::new(None, None));
    assert!(t.mean(0) > t.mean(1) + 0.5, "{t:?}");
}

#[test]
fn playouts_change_only_a_quiet_move_and_never_its_value() {
    let table = PatternTable::default();
    let on = Config {
        playouts: 10,
        ..Config::default()
    };
    let off = Config {
        playouts: 0,
        ..Config::default()
    };
    let budget = Budget {
        nodes: Some(400_000),
        ..Budget::depth(bots::dots_tps::MAX_DEPTH)
    };
    // A capture is never given up for the fills.
    let pos = Dots::from_moves(8, 8, Start::Empty, "5-6 5-5 4-5 1-1 6-5 1-8").unwrap();
    let d = think(&pos, &on, &table, &budget, &mut |_| {});
    assert_eq!(
        (d.best, d.value),
        (Some(Move::Put { x: 5, y: 4 }), 1),
        "{d:?}"
    );
    let mut chosen = 0;
    for plies in (10..=90).step_by(10) {
        let pos = game_at(plies);
        // The decision without its time (ms), the one field that depends on the machine.
        let run = |cfg: &Config| Decision {
            time_ms: 0,
            ..think(&pos, cfg, &table, &budget, &mut |_| {})
        };
        let (a, b) = (run(&off), run(&on));
        assert_eq!(b, run(&on), "seeded");
        // The search is the same; the fills only pick among the quiet points it left equal.
        assert_eq!((a.value, a.depth, a.nodes), (b.value, b.depth, b.nodes));
        if b.how == "playouts" {
            chosen += 1;
            assert!(b.sim_nodes > a.sim_nodes, "{b:?}");
            assert!(pos.is_legal(b.best.unwrap()));
        } else {
            // Fills cut short (fewer than `MIN_FILLS` each) change nothing but the node count.
            assert_eq!(
                Decision { sim_nodes: 0, ..a },
                Decision { sim_nodes: 0, ..b }
            );
        }
    }
    assert!(chosen > 0, "no position left the choice to the fills");
}

/// Option `exposed`: with every importance 0 the point nearest the centre is played (5-5 on an
/// empty 9×9 but for the corners); Red's 4-5, 6-5 and 5-4 make it a point where Red's 5-6 takes the
/// dot, so the engine with `exposed` plays elsewhere, and the same is true through the protocol's
/// options. `safety` is set the same way.
#[test]
fn an_exposed_point_is_not_played_when_another_is_as_good() {
    let pos = Dots::from_moves(9, 9, Start::Empty, "1-9 4-5 9-1 6-5 9-9 5-4").unwrap();
    let table = PatternTable::default();
    let plain = Config {
        importance: false,
        playouts: 0,
        ..Config::default()
    };
    let centre = Move::Put { x: 5, y: 5 };
    assert_eq!(think_at(&pos, &plain, &table, 2).best, Some(centre));
    let exposed = Config {
        exposed: true,
        ..plain.clone()
    };
    let d = think_at(&pos, &exposed, &table, 2);
    assert!(d.best.is_some_and(|m| m != centre), "{:?}", d.best);
    assert!(
        d.value >= 0,
        "an unexposed point loses nothing: {}",
        d.value
    );

    let mut engine = DotsTps::new(plain);
    engine.set_option("exposed", "true").unwrap();
    engine.set_option("safety", "150").unwrap();
    assert!(engine.config.exposed);
    assert_eq!(engine.config.safety, 150);
    assert!(
        engine.set_option("safety", "5000").is_err(),
        "above the spin's max"
    );
}

/// Option `inner` (issue 39). Blue to move; Red's 5-5 and 4-4 are each one Blue dot from capture
/// once Blue has 5-4, so 5-4 looks like a double threat to the article's tree (Red can block only
/// one). But 5-4 lies in Red's cup 4-4, 5-5, 6-4: Red's 5-3 closes the ring and takes it, a ring
/// that enclosed nothing at the root and is therefore on no root trajectory. Brute force over the
/// play range (no code of the engine) shows that 5-4 is worse than the best move at 2 full moves,
/// that Red's best answer to it captures the dot on 5-4, and that the move chosen with `inner` is
/// as good as the best; without `inner` the engine plays 5-4 (its own value overrates it).
#[test]
fn inner_trajectories_see_the_opponent_enclose_the_dot_just_put() {
    let rows = [
        ".........",
        ".........",
        ".........",
        "....X....",
        "...XO....",
        "..XO.O...",
        ".........",
        ".........",
        ".........",
    ];
    let pos = tactics::board(&rows, Player::First).unwrap();
    let depth = 2;
    let pts = range_points(&pos);
    let values: Vec<i32> = pts
        .iter()
        .map(|&m| value_of(&pos, &pts, m, depth, (-INF, INF)))
        .collect();
    let best = *values.iter().max().unwrap();
    let value = |m: Move| values[pts.iter().position(|&p| p == m).unwrap()];
    let table = PatternTable::default();
    let plain = Config {
        threats: false,
        ..Config::default()
    };
    let inner = Config {
        inner: true,
        ..plain.clone()
    };
    let d0 = think_at(&pos, &plain, &table, depth);
    let d1 = think_at(&pos, &inner, &table, depth);
    let (m0, m1) = (d0.best.unwrap(), d1.best.unwrap());
    // Without the option: a move the brute force finds worse, which the engine overrates.
    assert!(value(m0) < best, "{m0}: {} against {best}", value(m0));
    assert!(d0.value > value(m0), "{d0:?}");
    // The opponent's best answer (brute force, 1 full move left after it) encloses the dot.
    let mut after = pos.clone();
    after.play(m0).unwrap();
    let answers: Vec<(i32, Move)> = range_points(&after)
        .into_iter()
        .map(|a| {
            let mut p = after.clone();
            p.play(a).unwrap();
            let mut nodes = 0;
            (-brute(&mut p, &pts, 2, -INF, INF, &mut nodes), a)
        })
        .collect();
    let top = answers.iter().map(|a| a.0).max().unwrap();
    let enclosing = answers.iter().filter(|a| a.0 == top).any(|&(_, a)| {
        let mut p = after.clone();
        p.play(a).unwrap();
        let Move::Put { x, y } = m0 else { return false };
        matches!(p.point(x, y), Some(games::dots::Point::Captured(_)))
    });
    assert!(enclosing, "no best answer to {m0} captures it: {answers:?}");
    // With the option: a best move, and the engine's value is the true one.
    assert_eq!(value(m1), best, "{m1}");
    assert_eq!(d1.value, best, "{d1:?}");
}

/// Option `inner` keeps the suite: every tactic is found in every pruning mode (as in
/// `every_mode_finds_every_tactic_and_all_modes_agree`, grounding threats at 2 plies), and the
/// transposition table and the history change no value and no move (their keys hold the
/// trajectories found below the root).
#[test]
fn inner_trajectories_find_every_tactic_and_keep_the_tables_exact() {
    let table = PatternTable::default();
    for t in tactics::suite() {
        let mut seen = Vec::new();
        for mode in Prune::ALL {
            for (tt, history) in [(true, true), (false, false)] {
                let cfg = Config {
                    prune: mode,
                    threat_plies: 2,
                    inner: true,
                    tt,
                    history,
                    ..Config::default()
                };
                let d = think_at(&t.pos, &cfg, &table, t.depth);
                assert!(
                    d.best.is_some_and(|b| t.answers.contains(&b)),
                    "{} in mode {mode}, tt {tt}: {:?} ({})",
                    t.name,
                    d.best,
                    d.how
                );
                seen.push((mode, d.best, d.value));
            }
        }
        for w in seen.chunks(2) {
            assert_eq!(w[0].1, w[1].1, "{}: {w:?}", t.name);
            assert_eq!(w[0].2, w[1].2, "{}: {w:?}", t.name);
        }
    }
}

/// Option `inner` with and without the transposition table and history, on the suite and 6 random
/// 12×12 middle games at 1 to 3 full moves: the same values and moves (the table's key holds the
/// trajectories found below the root, so it never cuts a line with another move set).
#[test]
fn inner_trajectories_keep_the_tables_values_and_moves_on_middle_games() {
    let table = PatternTable::default();
    let with = |depth, tt| Config {
        depth,
        tt,
        history: tt,
        inner: true,
        ..Config::default()
    };
    let mut positions: Vec<Dots> = tactics::suite().into_iter().map(|t| t.pos).collect();
    positions.extend((0..6).map(|seed| middle_game(seed, 12, 12, 40)));
    let mut nodes = [0u64; 2];
    for (k, pos) in positions.iter().enumerate() {
        for depth in 1..=3 {
            let plain = think_at(pos, &with(depth, false), &table, depth);
            let d = think_at(pos, &with(depth, true), &table, depth);
            assert_eq!(
                (d.best, d.value, d.depth),
                (plain.best, plain.value, plain.depth),
                "position {k} at depth {depth}"
            );
            if depth == 3 {
                nodes[0] += plain.nodes;
                nodes[1] += d.nodes;
            }
        }
    }
    println!("depth 3, tree nodes without and with the table: {nodes:?}");
}
