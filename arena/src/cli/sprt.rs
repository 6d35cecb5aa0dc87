//! `arena sprt` and `arena elo`: the calculators of fishtest and OpenBench on the command line, from
//! counts alone, with the code of the match and tournament reports ([`arena::stats`],
//! [`arena::standings::head_to_head`]).

use std::process::ExitCode;

use anyhow::Result;
use clap::Args;

use arena::outln;
use arena::standings::head_to_head::{estimate, llr_lines, los_text, nelo_text};
use arena::stats::elo::Wdl;
use arena::stats::pentanomial::Pentanomial;
use arena::stats::sprt::{Sprt, SprtModel};

/// The results to compute from: game pairs (pentanomial) or games (W/D/L), from the first bot's side.
#[derive(Debug, Args)]
#[group(required = true, multiple = false)]
pub struct Counts {
    /// Game pairs: how many scored 0, ½, 1, 1½ and 2 points, `LL,LD,DD/WL,WD,WW` (the middle class:
    /// two draws, or a win and a loss), e.g. `39,2226,31451,2412,40`; brackets and spaces are
    /// allowed, as fishtest prints them: `"[39, 2226, 31451, 2412, 40]"`.
    #[arg(long, value_name = "LL,LD,DD/WL,WD,WW", value_parser = parse_pentanomial)]
    pentanomial: Option<Pentanomial>,
    /// Games won, drawn and lost, `W,D,L`, where the pairs are not known (the games are then read as
    /// independent: a trinomial).
    #[arg(long, value_name = "W,D,L", value_parser = parse_wdl)]
    wdl: Option<Wdl>,
}

/// The SPRT calculator (fishtest's, OpenBench's): the log-likelihood ratio of H1 (elo1) against H0
/// (elo0) for the counts given, its bounds and the decision, with the code of `arena match --sprt`
/// and the tournament reports. The LLR is always the constrained maximum of the likelihood; where
/// fishtest's iteration gives another figure (a local maximum), both are printed. Example: `arena
/// sprt --pentanomial 39,2226,31451,2412,40 --elo0 0 --elo1 5`. See docs/statistics.md.
#[derive(Debug, Args)]
pub struct SprtArgs {
    #[command(flatten)]
    counts: Counts,
    /// The Elo of H0, in the unit of --model.
    #[arg(long, allow_negative_numbers = true)]
    elo0: f64,
    /// The Elo of H1, in the unit of --model; greater than --elo0.
    #[arg(long, allow_negative_numbers = true)]
    elo1: f64,
    /// How the bounds are read: normalized Elo (fishtest's default) or logistic Elo.
    #[arg(long, default_value = "normalized", value_parser = ["normalized", "logistic"])]
    model: String,
    /// The false positive rate: accepting H1 when H0 holds.
    #[arg(long, default_value_t = 0.05)]
    alpha: f64,
    /// The false negative rate: accepting H0 when H1 holds.
    #[arg(long, default_value_t = 0.05)]
    beta: f64,
}

/// The Elo calculator: Elo ± its 95% error, normalized Elo and the likelihood of superiority (LOS)
/// of the counts given, with the code of the match and tournament reports (fastchess's formulas;
/// docs/statistics.md). Example: `arena elo --pentanomial 39,2226,31451,2412,40`.
#[derive(Debug, Args)]
pub struct EloArgs {
    #[command(flatten)]
    counts: Counts,
}

/// Prints the SPRT's state for the counts. Exit status 0.
///
/// # Errors
/// A test [`Sprt::new`] refuses (elo0 ≥ elo1, α or β outside (0, 1), α + β ≥ 1).
pub fn run(args: SprtArgs) -> Result<ExitCode> {
    let model: SprtModel = args.model.parse().map_err(anyhow::Error::msg)?;
    let sprt = Sprt::new(args.elo0, args.elo1, args.alpha, args.beta, model)
        .map_err(anyhow::Error::msg)?;
    let llr = match (&args.counts.pentanomial, &args.counts.wdl) {
        (Some(p), _) => {
            outln!("{}", pairs_line(p));
            sprt.llr_detail(p)
        }
        (None, Some(w)) => {
            outln!("{}", games_line(w));
            outln!("  (the games read as independent: pairs are not known)");
            sprt.llr_wdl_detail(w)
        }
        (None, None) => unreachable!("clap requires --pentanomial or --wdl"),
    };
    arena::out!("{}", llr_lines(&sprt, llr));
    Ok(ExitCode::SUCCESS)
}

/// Prints Elo, nElo and LOS for the counts. Exit status 0.
///
/// # Errors
/// None beyond the flags' own (clap).
pub fn run_elo(args: EloArgs) -> Result<ExitCode> {
    match (&args.counts.pentanomial, &args.counts.wdl) {
        (Some(p), _) => {
            outln!("{}", pairs_line(p));
            outln!(
                "  Elo    {}  nElo {}",
                estimate(p.elo(), p.score()),
                nelo_text(p.normalized_elo(), p.pairs())
            );
            outln!("  LOS    {}", los_text(p.los(), p.pairs(), 2));
        }
        (None, Some(w)) => {
            outln!("{}", games_line(w));
            outln!(
                "  Elo    {}  nElo {}",
                estimate(w.elo(), w.score()),
                nelo_text(w.normalized_elo(), w.games())
            );
            outln!("  LOS    {}", los_text(w.los(), w.games(), 2));
        }
        (None, None) => unreachable!("clap requires --pentanomial or --wdl"),
    }
    Ok(ExitCode::SUCCESS)
}

fn pairs_line(p: &Pentanomial) -> String {
    let c = p.counts;
    format!(
        "Ptnml  [{}, {}, {}, {}, {}]  (LL, LD, WL+DD, WD, WW): {} pairs, score {:.2}%",
        c[0],
        c[1],
        c[2],
        c[3],
        c[4],
        p.pairs(),
        100.0 * p.score()
    )
}

fn games_line(w: &Wdl) -> String {
    format!(
        "Games  W/D/L {}/{}/{}: {} games, score {:.2}%, draw ratio {:.2}%",
        w.wins,
        w.draws,
        w.losses,
        w.games(),
        100.0 * w.score(),
        100.0 * w.draw_ratio()
    )
}

/// `n` counts separated by commas (brackets and spaces allowed).
fn counts<const N: usize>(text: &str, form: &str) -> Result<[u64; N], String> {
    let inner = text.trim().trim_start_matches('[').trim_end_matches(']');
    let values = inner
        .split(',')
        .map(|x| {
            x.trim().parse::<u64>().map_err(|_| {
                format!(
                    "{:?} is not a count (a whole number of 0 or more)",
                    x.trim()
                )
            })
        })
        .collect::<Result<Vec<u64>, String>>()?;
    values
        .try_into()
        .map_err(|v: Vec<u64>| format!("expected {N} counts {form}, got {}", v.len()))
}

fn parse_pentanomial(text: &str) -> Result<Pentanomial, String> {
    Ok(Pentanomial {
        counts: counts::<5>(text, "LL,LD,DD/WL,WD,WW")?,
    })
}

fn parse_wdl(text: &str) -> Result<Wdl, String> {
    let [wins, draws, losses] = counts::<3>(text, "W,D,L")?;
    Ok(Wdl {
        wins,
        draws,
        losses,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_read_as_fishtest_prints_them_and_refuse_the_rest() {
        assert_eq!(
            parse_pentanomial("[39, 2226, 31451, 2412, 40]")
                .unwrap()
                .counts,
            [39, 2226, 31451, 2412, 40]
        );
        assert_eq!(
            parse_pentanomial("1,2,3,4,5").unwrap().counts,
            [1, 2, 3, 4, 5]
        );
        assert_eq!(
            parse_pentanomial("1,2,3,4").unwrap_err(),
            "expected 5 counts LL,LD,DD/WL,WD,WW, got 4"
        );
        assert_eq!(
            parse_wdl("10,x,3").unwrap_err(),
            "\"x\" is not a count (a whole number of 0 or more)"
        );
        assert_eq!(
            parse_wdl("10, 80, 3").unwrap(),
            Wdl {
                wins: 10,
                draws: 80,
                losses: 3
            }
        );
    }
}
