//! Game modules (`games::module`): the example Connect Four module referees exactly as the built-in
//! Connect Four, and a module that traps, loops, grows past its memory, breaks the ABI or is not
//! deterministic faults the game with a reason naming it, never a panic or a wrong result.

mod common;

use games::module::{self, Limits, ModuleGame, ModuleVariant};
use games::{Connect4, Game, GameSpec, Outcome, PlayError};
use rand::seq::IndexedRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn connect4_module() -> Option<&'static module::Loaded> {
    let (label, bytes) = common::example_module("connect4")?;
    Some(module::load(&label, &bytes, Limits::default()).unwrap())
}

/// 10,000 seeded random games on five board sizes: at every position the same legal moves, side to
/// move and outcome as the built-in game; in every tenth game also the same board picture and text,
/// and the same refusal of a full column.
#[test]
fn the_connect4_module_referees_as_the_built_in_game() {
    let Some(m) = connect4_module() else { return };
    let mut rng = ChaCha8Rng::seed_from_u64(2026);
    let sizes = [(7, 6), (4, 4), (9, 9), (5, 7), (1, 1)];
    let mut positions = 0;
    for game in 0..10_000 {
        let (w, h) = sizes[game % sizes.len()];
        let variant = ModuleVariant::new(m, &format!("{w} {h}")).unwrap();
        let mut ours = ModuleGame::start(variant);
        let spec: GameSpec = format!("connect4 {w} {h}").parse().unwrap();
        let mut theirs = Connect4::start(spec.variant_of().unwrap());
        loop {
            positions += 1;
            let legal: Vec<String> = ours.legal_moves().iter().map(|m| m.to_string()).collect();
            let want: Vec<String> = theirs.legal_moves().iter().map(|m| m.to_string()).collect();
            assert_eq!(legal, want, "game {game}: {theirs}");
            assert_eq!(ours.turn(), theirs.turn());
            assert_eq!(ours.outcome(), theirs.outcome(), "game {game}: {theirs}");
            let pictures = game % 10 == 0;
            if pictures {
                assert_eq!(ours.frame(), theirs.frame(), "game {game}: {theirs}");
                assert_eq!(ours.to_string(), theirs.to_string());
            }
            let Some(pick) = want.choose(&mut rng) else {
                break;
            };
            ours.play(pick.parse().unwrap()).unwrap();
            theirs.play(pick.parse().unwrap()).unwrap();
            // A full column: both refuse it (the module with its own words).
            let full =
                (1..=w).find(|c| !want.contains(&c.to_string()) && theirs.outcome().is_none());
            if let Some(full) = full.filter(|_| pictures) {
                let e = ours.check(full.to_string().parse().unwrap()).unwrap_err();
                assert!(
                    matches!(e, PlayError::Refused(ref r) if r.contains("full")),
                    "{e}"
                );
                assert!(theirs.check(full.to_string().parse().unwrap()).is_err());
            }
        }
        assert_eq!(ours.fault(), None);
    }
    assert!(positions > 150_000, "{positions} positions");
}

#[test]
fn a_module_game_round_trips_its_text_form_and_undo_and_copies_are_independent() {
    let Some(m) = connect4_module() else { return };
    let spec: GameSpec = format!("module {} 6 5", m.sha256).parse().unwrap();
    assert_eq!(spec.to_string(), format!("module {} 6 5", m.sha256));
    assert_eq!(spec.kind().name(), "module");
    let e = format!("module {} 10 5", m.sha256)
        .parse::<GameSpec>()
        .unwrap_err();
    assert!(e.to_string().contains("width 10 is out of range"), "{e}");
    assert!(e.to_string().contains("connect4.wasm"), "{e}");
    let e = "module 00ff 7 6"
        .parse::<GameSpec>()
        .unwrap_err()
        .to_string();
    assert!(e.contains("not loaded"), "{e}");

    let mut a = ModuleGame::start(spec.variant_of().unwrap());
    for m in ["1", "2", "3"] {
        a.play(m.parse().unwrap()).unwrap();
    }
    let b = a.clone();
    a.undo();
    a.play("6".parse().unwrap()).unwrap();
    // `b` still has its own moves, and reads its own position from the shared instance.
    assert_eq!(b.moves().collect::<Vec<_>>(), ["1", "2", "3"]);
    assert_eq!(b.to_string(), "......\n......\n......\n......\nXOX...\n");
    assert_eq!(a.to_string(), "......\n......\n......\n......\nXO...X\n");
    assert_eq!(b.turn(), games::Player::Second);
    a.undo();
    a.undo();
    assert_eq!(a.moves().collect::<Vec<_>>(), ["1"]);
    assert_eq!(a.legal_moves().len(), 6);
    assert!(a.fault().is_none() && b.fault().is_none());
}

/// The tiny game of `modules/fixtures/tiny.wat` ("say `a` three times"), each body named in `replace`
/// (`abi`, `turn`, `legal`, `play`) replaced by a faulty one.
fn tiny(replace: &[(&str, &str)]) -> Vec<u8> {
    let mut text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../modules/fixtures/tiny.wat"
    ))
    .unwrap();
    for (name, body) in replace {
        let (open, close) = (format!("(; {name} ;)"), format!("(; /{name} ;)"));
        let (a, b) = (text.find(&open).unwrap(), text.find(&close).unwrap());
        text.replace_range(a..b + close.len(), body);
    }
    wat::parse_str(&text).unwrap()
}

fn limits() -> Limits {
    Limits {
        fuel: 2_000_000,
        memory: 4 << 20,
    }
}

/// Plays `a` until the game ends or faults; the fault.
fn play_out(label: &str, bytes: &[u8]) -> Option<String> {
    let m = module::load(label, bytes, limits()).unwrap();
    let mut g = ModuleGame::start(ModuleVariant::new(m, "").unwrap());
    for _ in 0..10 {
        if g.outcome().is_some() {
            break;
        }
        let _ = g.turn();
        let _ = g.legal_moves();
        let _ = g.play("a".parse().unwrap());
    }
    g.fault()
}

#[test]
fn the_tiny_module_plays_to_its_end() {
    let m = module::load("tiny.wasm", &tiny(&[]), limits()).unwrap();
    assert_eq!(m.name, "tiny");
    let mut g = ModuleGame::start(ModuleVariant::new(m, "").unwrap());
    let e = g.play("b".parse().unwrap()).unwrap_err();
    assert_eq!(e, PlayError::Refused("only a".into()));
    for _ in 0..3 {
        g.play("a".parse().unwrap()).unwrap();
    }
    assert_eq!(g.outcome(), Some(Outcome::Win(games::Player::First)));
    assert_eq!(g.play("a".parse().unwrap()), Err(PlayError::GameOver));
    assert_eq!(g.fault(), None);
}

#[test]
fn a_module_that_misbehaves_faults_the_game_with_a_reason_naming_it() {
    let cases: &[(&str, (&str, &str), &str)] = &[
        ("loops.wasm", ("legal", "(loop $l (br $l)) (i64.const 0)"), "arena_legal ran out of fuel"),
        ("traps.wasm", ("play", "(unreachable)"), "arena_play trapped (unreachable"),
        (
            "grows.wasm",
            ("legal", "(loop $l (br_if $l (i32.ne (memory.grow (i32.const 16)) (i32.const -1)))) (i64.const 0)"),
            "arena_legal grew its memory past the limit of 4 MiB",
        ),
        ("turns.wasm", ("turn", "(i32.const 7)"), "arena_turn answered 7"),
        (
            "points-away.wasm",
            ("legal", "(i64.or (i64.shl (i64.const 70000) (i64.const 32)) (i64.const 5))"),
            "arena_legal gave text at 70000..70005 outside its memory",
        ),
        (
            // Accepts `a` on its first 2 calls only: the replay of a copy finds it out.
            "forgets.wasm",
            (
                "play",
                "(global.set $calls (i32.add (global.get $calls) (i32.const 1)))
                 (if (result i32) (i32.le_s (global.get $calls) (i32.const 2))
                   (then (global.set $ply (i32.add (global.get $ply) (i32.const 1))) (i32.const 0))
                   (else (i32.const 2)))",
            ),
            "not deterministic",
        ),
    ];
    for (label, replace, want) in cases {
        let bytes = tiny(&[*replace]);
        let fault = if *label == "forgets.wasm" {
            let m = module::load(label, &bytes, limits()).unwrap();
            let mut a = ModuleGame::start(ModuleVariant::new(m, "").unwrap());
            a.play("a".parse().unwrap()).unwrap();
            a.play("a".parse().unwrap()).unwrap();
            let b = a.clone();
            a.undo();
            // `b` is replayed: the module now refuses the moves it accepted.
            let _ = b.turn();
            b.fault()
        } else {
            play_out(label, &bytes)
        };
        let fault = fault.unwrap_or_else(|| panic!("{label}: no fault"));
        assert!(fault.starts_with(&format!("module {label}: ")), "{fault}");
        assert!(fault.contains(want), "{label}: {fault}");
    }
}

#[test]
fn a_module_past_the_table_limit_is_refused() {
    // The tiny game with a table of a million elements: its instance cannot be made.
    let big = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../modules/fixtures/tiny.wat"
    ))
    .unwrap()
    .replacen(
        "(memory (export \"memory\") 1)",
        "(memory (export \"memory\") 1) (table 1000000 funcref)",
        1,
    );
    let e = module::load("table.wasm", &wat::parse_str(&big).unwrap(), limits())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("module table.wasm: cannot be instantiated"),
        "{e}"
    );
}

#[test]
fn a_module_without_an_export_or_with_an_import_is_refused_at_load() {
    let text =
        wat::parse_str(r#"(module (import "env" "clock" (func)) (memory (export "memory") 1))"#)
            .unwrap();
    let e = module::load("clock.wasm", &text, limits())
        .unwrap_err()
        .to_string();
    assert!(e.contains("module clock.wasm: imports env.clock"), "{e}");
    let e = module::load("junk.wasm", b"not wasm", limits())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("module junk.wasm: is not a WebAssembly module"),
        "{e}"
    );
    let bare = wat::parse_str(r#"(module (memory (export "memory") 1) (func (export "arena_abi") (result i32) (i32.const 1)))"#).unwrap();
    let e = module::load("bare.wasm", &bare, limits())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("lacks the export arena_alloc (i32) -> i32"),
        "{e}"
    );
    let e = module::load("v2.wasm", &tiny(&[("abi", "(i32.const 2)")]), limits())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("speaks ABI version 2; this arena speaks 1"),
        "{e}"
    );
}

/// Every Connect Four record of the repository (the 2,401 four-ply openings, the golden Pons file) and,
/// where they are beside the repository, Pons's 6,000 benchmark positions: each replayed through the
/// module and the built-in game, with the same verdict on every move and the same position, outcome
/// and picture at the end.
#[test]
fn the_connect4_module_agrees_on_every_connect4_record() {
    let Some(m) = connect4_module() else { return };
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let mut lines: Vec<String> = Vec::new();
    for file in [
        "configs/openings/connect4-4ply.txt",
        "arena/tests/golden/games.pons",
    ] {
        let text = std::fs::read_to_string(format!("{root}/{file}")).unwrap();
        lines.extend(
            text.lines()
                .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
                .map(|l| l.split_whitespace().collect::<Vec<_>>().join("")),
        );
    }
    let pons = format!("{root}/../shared/data/connect4-pons");
    let sets = std::fs::read_dir(&pons).map(|d| d.count()).unwrap_or(0);
    for set in [
        "Test_L1_R1",
        "Test_L1_R2",
        "Test_L1_R3",
        "Test_L2_R1",
        "Test_L2_R2",
        "Test_L3_R1",
    ] {
        if let Ok(text) = std::fs::read_to_string(format!("{pons}/{set}")) {
            lines.extend(
                text.lines()
                    .filter_map(|l| l.split_whitespace().next().map(str::to_string)),
            );
        }
    }
    if sets == 0 {
        eprintln!("Pons's positions not found in {pons}: checked the repository's records only");
    }
    let variant = ModuleVariant::new(m, "7 6").unwrap();
    for line in &lines {
        let mut ours = ModuleGame::start(variant);
        let mut theirs = Connect4::start(Default::default());
        for c in line.chars() {
            let text = c.to_string();
            let a = ours.play(text.parse().unwrap()).is_ok();
            let b = theirs.play(text.parse().unwrap()).is_ok();
            assert_eq!(a, b, "{line}: move {c}");
        }
        assert_eq!(ours.outcome(), theirs.outcome(), "{line}");
        assert_eq!(ours.frame(), theirs.frame(), "{line}");
    }
    assert!(lines.len() >= 2_402, "{} records", lines.len());
}
