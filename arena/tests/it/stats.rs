//! The SPRT's error rates on simulated matches: at Elo = elo0 it should pass about α of the time,
//! at Elo = elo1 about 1 − β (fewer false results than nominal, if anything: the LLR overshoots
//! Wald's bounds).

use arena::stats::elo::{score_from_elo, NELO_PER_T};
use arena::stats::{Pentanomial, Sprt, SprtDecision, SprtModel};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const DRAW_RATIO: f64 = 0.3;
const RUNS: usize = 1000;

/// Win, draw and loss probabilities of one game at a logistic Elo difference: draws at
/// `DRAW_RATIO` (capped so that the probabilities stay valid), wins making up the expected score.
fn wdl(elo: f64) -> (f64, f64, f64) {
    let s = score_from_elo(elo);
    let d = DRAW_RATIO.min(2.0 * s).min(2.0 * (1.0 - s));
    (s - d / 2.0, d, 1.0 - s - d / 2.0)
}

fn game(rng: &mut ChaCha8Rng, elo: f64) -> f64 {
    let (w, d, _) = wdl(elo);
    let u: f64 = rng.random();
    if u < w {
        1.0
    } else if u < w + d {
        0.5
    } else {
        0.0
    }
}

/// The per-game normalized Elo of the game model at a logistic Elo.
fn nelo(elo: f64) -> f64 {
    let (w, d, l) = wdl(elo);
    let s = w + d / 2.0;
    let var = w * (1.0 - s).powi(2) + d * (0.5 - s).powi(2) + l * s * s;
    (s - 0.5) / var.sqrt() * NELO_PER_T
}

/// The logistic Elo whose normalized Elo is `target` (bisection; nElo rises with Elo).
fn elo_of_nelo(target: f64) -> f64 {
    let (mut lo, mut hi) = (-400.0, 400.0);
    for _ in 0..100 {
        let mid = (lo + hi) / 2.0;
        if nelo(mid) < target {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    (lo + hi) / 2.0
}

/// Plays pairs of two independent games until the test decides; returns the share of runs that
/// accepted H1 and the mean number of pairs.
fn pass_rate(sprt: &Sprt, elo: f64, seed: u64) -> (f64, f64) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (mut passed, mut pairs_played) = (0, 0);
    for _ in 0..RUNS {
        let mut p = Pentanomial::default();
        let decision = loop {
            let (a, b) = (game(&mut rng, elo), game(&mut rng, elo));
            p.add_pair(a, b);
            match sprt.decide(&p) {
                SprtDecision::Continue if p.pairs() < 100_000 => continue,
                d => break d,
            }
        };
        assert_ne!(decision, SprtDecision::Continue, "a run never decided");
        passed += usize::from(decision == SprtDecision::AcceptH1);
        pairs_played += p.pairs();
    }
    (
        passed as f64 / RUNS as f64,
        pairs_played as f64 / RUNS as f64,
    )
}

// With α = β = 0.05 and 1000 runs, the pass count is binomial with standard deviation
// √(1000·0.05·0.95) ≈ 6.9 runs (0.69%). The thresholds below are α + 3 sd and 1 − β − 3 sd: a
// correct test fails them with probability < 0.2%, and the seeds are fixed, so the outcome is
// exact. A wrong LLR sign, scale or bound shows as rates near 0.5, or far from α and 1 − β.
// (About 500–600 pairs a run: the whole file takes a few seconds at opt-level 2.)
const ALPHA_MAX: f64 = 0.05 + 0.021;
const POWER_MIN: f64 = 0.95 - 0.021;

#[test]
fn logistic_sprt_keeps_its_error_rates() {
    let sprt = Sprt::new(0.0, 20.0, 0.05, 0.05, SprtModel::Logistic).unwrap();
    let (at_h0, pairs0) = pass_rate(&sprt, 0.0, 1);
    let (at_h1, pairs1) = pass_rate(&sprt, 20.0, 2);
    eprintln!("logistic: pass {at_h0} at elo0 ({pairs0} pairs), {at_h1} at elo1 ({pairs1} pairs)");
    assert!(at_h0 <= ALPHA_MAX, "passed {at_h0} at elo0");
    assert!(at_h1 >= POWER_MIN, "passed {at_h1} at elo1");
}

#[test]
fn normalized_sprt_keeps_its_error_rates() {
    let sprt = Sprt::new(0.0, 25.0, 0.05, 0.05, SprtModel::Normalized).unwrap();
    let elo1 = elo_of_nelo(25.0);
    assert!((nelo(elo1) - 25.0).abs() < 1e-9);
    let (at_h0, pairs0) = pass_rate(&sprt, 0.0, 3);
    let (at_h1, pairs1) = pass_rate(&sprt, elo1, 4);
    eprintln!("normalized: pass {at_h0} at elo0 ({pairs0} pairs), {at_h1} at elo1 = {elo1:.2} ({pairs1} pairs)");
    assert!(at_h0 <= ALPHA_MAX, "passed {at_h0} at elo0");
    assert!(at_h1 >= POWER_MIN, "passed {at_h1} at elo1");
}

/// The calculators through the binary, on the cases: the constrained maximum with
/// fishtest's local maximum named beside it, and an LOS that cannot be estimated.
#[test]
fn the_calculators_print_the_constrained_maximum_and_say_what_cannot_be_estimated() {
    let run = |args: &[&str]| {
        let out = crate::common::arena().args(args).output().unwrap();
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (ok, out, err) = run(&[
        "sprt",
        "--pentanomial",
        "39,2226,31451,2412,40",
        "--elo0",
        "0",
        "--elo1",
        "231",
    ]);
    assert!(ok, "{err}");
    assert!(
        out.contains("LLR    -17328.28 (-2.94, 2.94) [0.00, 231.00] normalized: H0 accepted"),
        "{out}"
    );
    assert!(
        out.contains("fishtest's iteration gives -21000.48"),
        "{out}"
    );
    let (ok, out, err) = run(&["elo", "--pentanomial", "0,0,100,0,0"]);
    assert!(ok, "{err}");
    assert!(out.contains("LOS    cannot be estimated"), "{out}");
    let (ok, out, _) = run(&["elo", "--wdl", "7,2,1"]);
    assert!(ok && out.contains("Games  W/D/L 7/2/1: 10 games"), "{out}");
    // fishtest's own figure, where it settles on the global maximum, is not repeated.
    let (ok, out, _) = run(&[
        "sprt",
        "--pentanomial",
        "39,2226,31451,2412,40",
        "--elo0",
        "0.764",
        "--elo1",
        "3.439",
    ]);
    assert!(
        ok && out.contains("LLR    2.16 ") && !out.contains("fishtest"),
        "{out}"
    );
    let (ok, _, err) = run(&[
        "sprt",
        "--pentanomial",
        "1,2,3",
        "--elo0",
        "0",
        "--elo1",
        "5",
    ]);
    assert!(!ok && err.contains("expected 5 counts"), "{err}");
    let (ok, _, err) = run(&["sprt", "--wdl", "1,2,3", "--elo0", "5", "--elo1", "0"]);
    assert!(
        !ok && err.contains("elo0 (5) must be less than elo1 (0)"),
        "{err}"
    );
}
