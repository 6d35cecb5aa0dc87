//! The report of a results folder, recomputed from `games.csv` alone: standings with Elo ratings and
//! their 95% intervals, the crosstable, the likelihood-of-superiority matrix, and the head-to-head
//! statistics of a two-bot match. `arena run` prints it at the end; `arena ratings <dir>` prints it
//! again (after a resume or a merge the numbers are the same, since they depend only on the games).
//! [`html`] writes the same numbers, every game and a replay of each as `report.html`.

pub mod extras;
pub mod html;

use std::fmt::Write as _;
use std::path::Path;

use anyhow::{bail, Context, Result};
use games::Player;

use crate::record::GameRecord;
use crate::standings::crosstable::Crosstable;
use crate::standings::head_to_head::HeadToHead;
use crate::standings::{self, Rating, Standing};
use crate::stats::elo::signed;
use crate::stats::ratings::{self, Anchor, RatedGame, Ratings};
use crate::stats::sprt::Sprt;

/// How to compute the ratings.
#[derive(Clone, Debug)]
pub struct ReportOptions {
    /// The bot rated 0; `None`: the mean rating is 0.
    pub anchor: Option<String>,
    /// Whether an anchor with no game is an error (`arena ratings --anchor`, where the user named
    /// it) rather than a note and the mean anchoring (a config's `anchor` in a run stopped or sharded
    /// before that bot played).
    pub anchor_required: bool,
    /// Parametric bootstrap samples for the 95% intervals and the LOS matrix (Ordo's method).
    pub bootstrap: usize,
    /// The seed of the bootstrap.
    pub seed: u64,
    /// The SPRT of a `format = "sprt"` match, for its LLR line.
    pub sprt: Option<Sprt>,
    /// The standings' tie-breaks after points (a config's `tiebreaks`); empty: wins, then capture
    /// difference.
    pub tiebreaks: Vec<crate::config::Tiebreak>,
    /// The two bots of the head-to-head block, the first one's wins counting as wins (`arena ratings
    /// --pair A B`); `None`: an SPRT's two bots, or the two bots of a two-bot tournament, better first.
    pub pair: Option<(String, String)>,
}

/// Bootstrap samples by default: as many as keep `arena ratings` on 50 bots (24,500 games) under a
/// second of CPU time in a release build (0.88 s; `cargo bench -p arena --bench ratings`, figures in
/// docs/benchmarks.md). The samples are spread over the cores, so the wall time is less on an idle
/// machine with more than one.
pub const DEFAULT_BOOTSTRAP: usize = 1500;

impl Default for ReportOptions {
    fn default() -> ReportOptions {
        ReportOptions {
            anchor: None,
            anchor_required: false,
            bootstrap: DEFAULT_BOOTSTRAP,
            seed: 1,
            sprt: None,
            tiebreaks: Vec::new(),
            pair: None,
        }
    }
}

impl ReportOptions {
    /// The options a run of `plan` reports with: its SPRT (a `format = "sprt"` match), its anchor and
    /// its tie-breaks; the default bootstrap and seed, so the figures depend on the games alone.
    pub fn of(plan: &crate::plan::Plan) -> ReportOptions {
        ReportOptions {
            sprt: plan.sprt.map(|s| s.test),
            anchor: plan.anchor.clone(),
            tiebreaks: plan.tiebreaks.clone(),
            ..ReportOptions::default()
        }
    }

    /// The bots of the config copy in `dir` in plan order, sweeps expanded ([`crate::plan::bot_names`]),
    /// as the run that wrote the folder named them in its standings (a bot with no game included);
    /// empty without a readable copy, or when the copy names none of the bots of `records` (the report
    /// then takes the bots from the games).
    pub fn recorded_names(dir: &std::path::Path, records: &[GameRecord]) -> Vec<String> {
        let names = crate::results::recorded::config(dir)
            .map(|c| crate::plan::bot_names(&c))
            .unwrap_or_default();
        let covers = records
            .iter()
            .all(|r| names.contains(&r.first) && names.contains(&r.second));
        if covers {
            names
        } else {
            Vec::new()
        }
    }

    /// The options the run that wrote the results folder `dir` reported with, read from its config copy
    /// ([`crate::results::recorded::config`]): its anchor, its tie-breaks (words this arena does not know
    /// are skipped) and, for an SPRT match whose two bots are `names`, its SPRT. The defaults without a
    /// readable copy.
    pub fn recorded(dir: &std::path::Path, names: &[String]) -> ReportOptions {
        let Some(config) = crate::results::recorded::config(dir) else {
            return ReportOptions::default();
        };
        let sprt = config.sprt.as_ref().and_then(|s| {
            (config.format == crate::config::Format::Sprt && names.len() == 2)
                .then(|| Sprt::new(s.elo0, s.elo1, s.alpha, s.beta, s.model.parse().ok()?).ok())
                .flatten()
        });
        ReportOptions {
            anchor: config.anchor.clone(),
            sprt,
            tiebreaks: config
                .tiebreaks
                .iter()
                .flatten()
                .filter_map(|w| w.parse().ok())
                .collect(),
            ..ReportOptions::default()
        }
    }
}

/// Everything the report shows.
#[derive(Clone, Debug)]
pub struct Report {
    /// Best first, each with its rating when it played a game.
    pub standings: Vec<Standing>,
    /// In standings order.
    pub crosstable: Crosstable,
    /// The bots rated (those with games), in sorted order, and their ratings; `None` without games.
    pub ratings: Option<(Vec<String>, Ratings)>,
    /// The head-to-head of a two-bot tournament: the first bot of the config first in an SPRT match,
    /// else the better-placed bot first.
    pub head_to_head: Option<HeadToHead>,
    pub sprt: Option<Sprt>,
    /// Why the ratings are not anchored as asked (an anchor with no game), for the console.
    pub anchor_note: Option<String>,
}

impl Report {
    /// The report over `records` for `bots` (the plan's bots in config order; bots that appear only in
    /// `records` are added in sorted order).
    ///
    /// # Errors
    /// An anchor that names no bot with games, when [`ReportOptions::anchor_required`]; a
    /// [`ReportOptions::pair`] bot with no game.
    pub fn new(bots: &[String], records: &[GameRecord], opts: &ReportOptions) -> Result<Report> {
        let mut names: Vec<String> = bots.to_vec();
        let mut extra: Vec<String> = records
            .iter()
            .flat_map(|r| [r.first.clone(), r.second.clone()])
            .filter(|n| !names.contains(n))
            .collect();
        extra.sort();
        extra.dedup();
        names.extend(extra);

        // Ratings depend on the set of games only: bots sorted by name, games sorted by id.
        let mut sorted: Vec<&GameRecord> =
            records.iter().filter(|r| r.termination.counts()).collect();
        sorted.sort_by(|a, b| a.id.cmp(&b.id));
        let mut rated: Vec<String> = sorted
            .iter()
            .flat_map(|r| [r.first.clone(), r.second.clone()])
            .collect();
        rated.sort();
        rated.dedup();
        let mut anchor_note = None;
        let ratings = if rated.len() >= 2 {
            let index = |n: &str| rated.binary_search_by(|x| x.as_str().cmp(n)).ok();
            let games: Vec<RatedGame> = sorted
                .iter()
                .filter_map(|r| {
                    Some(RatedGame {
                        first: index(&r.first)?,
                        second: index(&r.second)?,
                        first_points: r.result.points(Player::First),
                    })
                })
                .collect();
            let anchor = match &opts.anchor {
                None => Anchor::Mean,
                Some(a) => match index(a) {
                    Some(i) => Anchor::Bot(i),
                    None if opts.anchor_required => bail!(
                        "the anchor {a:?} played no game; bots with games: {}",
                        rated.join(", ")
                    ),
                    None => {
                        anchor_note = Some(format!(
                            "the anchor {a} has no game yet: ratings are relative to the mean"
                        ));
                        Anchor::Mean
                    }
                },
            };
            Some((
                rated.clone(),
                ratings::fit(rated.len(), &games, anchor, opts.bootstrap, opts.seed),
            ))
        } else {
            None
        };

        let mut rows = standings::standings(&names, records);
        crate::standings::tiebreak::apply(&mut rows, records, &opts.tiebreaks);
        if let Some((rated, r)) = &ratings {
            for row in &mut rows {
                if let Some(i) = rated.iter().position(|n| *n == row.bot) {
                    row.rating = Some(Rating {
                        elo: r.elo[i],
                        low: r.interval95[i].0,
                        high: r.interval95[i].1,
                        bound: r.bound[i],
                    });
                }
            }
        }
        let order: Vec<String> = rows.iter().map(|s| s.bot.clone()).collect();
        let crosstable = Crosstable::new(&order, records);
        if let Some((a, b)) = &opts.pair {
            for name in [a, b] {
                if !records
                    .iter()
                    .any(|r| r.first == *name || r.second == *name)
                {
                    bail!(
                        "bot {name:?} played no game; bots with games: {}",
                        rated.join(", ")
                    );
                }
            }
        }
        let head_to_head = match (&opts.pair, &opts.sprt, bots) {
            (Some((a, b)), _, _) => Some(HeadToHead::new(a, b, records)),
            (None, Some(_), [a, b]) => Some(HeadToHead::new(a, b, records)),
            _ if order.len() == 2 => Some(HeadToHead::new(&order[0], &order[1], records)),
            _ => None,
        };
        Ok(Report {
            standings: rows,
            crosstable,
            ratings,
            head_to_head,
            sprt: opts.sprt,
            anchor_note,
        })
    }

    /// Writes `standings.csv`, `crosstable.csv` and, with ratings, `los.csv` into `dir`.
    ///
    /// # Errors
    /// Write errors, with the path.
    pub fn write(&self, dir: &Path) -> Result<()> {
        standings::write_csv(&dir.join("standings.csv"), &self.standings)?;
        self.crosstable.write_csv(&dir.join("crosstable.csv"))?;
        if let Some((rated, r)) = &self.ratings {
            write_los_csv(&dir.join("los.csv"), &self.rated_order(rated), rated, r)?;
        }
        Ok(())
    }

    /// Indices into `rated` in standings order.
    fn rated_order(&self, rated: &[String]) -> Vec<usize> {
        self.standings
            .iter()
            .filter_map(|s| rated.iter().position(|n| *n == s.bot))
            .collect()
    }

    /// The console text: standings, crosstable, first-move advantage, LOS matrix, head-to-head.
    pub fn text(&self) -> String {
        let mut out = standings::table(&self.standings);
        if let Some(note) = &self.anchor_note {
            let _ = writeln!(out, "({note})");
        }
        if self.crosstable.bots.len() > 2 {
            out.push_str("\ncrosstable (points/games of the row's bot against the column's)\n");
            out.push_str(&self.crosstable.table());
        }
        if let Some((rated, r)) = &self.ratings {
            let _ = writeln!(
                out,
                "\nfirst-move advantage {} Elo (95%: {} to {})",
                signed(r.first_move_elo, 1),
                signed(r.first_move_interval95.0, 1),
                signed(r.first_move_interval95.1, 1)
            );
            if r.samples > 0 {
                let _ = writeln!(
                    out,
                    "bootstrap: {} samples, seed {}; Monte Carlo error (95%) of the interval ends \
                     ±{:.1} Elo, of the LOS ±{:.1} points",
                    r.samples,
                    r.seed,
                    r.mc_error95.interval_ends,
                    100.0 * r.mc_error95.los
                );
            }
            if rated.len() > 2 {
                out.push_str(
                    "\nLOS (likelihood that the row's bot is stronger than the column's, %)\n",
                );
                out.push_str(&los_table(&self.rated_order(rated), rated, r));
            }
        }
        if let Some(h) = &self.head_to_head {
            out.push('\n');
            let _ = write!(out, "{}", h.report(self.sprt.as_ref()));
        }
        out
    }
}

/// Writes `los.csv`: a header `bot,<bot>,<bot>,…` in `order`, then one row per bot whose cell in column B
/// is the likelihood, 0–1, that the row's bot is stronger than B (empty on the diagonal).
fn write_los_csv(path: &Path, order: &[usize], rated: &[String], r: &Ratings) -> Result<()> {
    let mut w =
        csv::Writer::from_path(path).with_context(|| format!("writing {}", path.display()))?;
    let mut header = vec!["bot".to_string()];
    header.extend(order.iter().map(|&i| rated[i].clone()));
    w.write_record(&header)?;
    for &i in order {
        let mut row = vec![rated[i].clone()];
        row.extend(order.iter().map(|&j| {
            if i == j {
                String::new()
            } else {
                format!("{:.4}", r.los[i][j])
            }
        }));
        w.write_record(&row)?;
    }
    w.flush()
        .with_context(|| format!("writing {}", path.display()))?;
    Ok(())
}

/// The LOS matrix in `order` (indices into `rated`), whole percent.
fn los_table(order: &[usize], rated: &[String], r: &Ratings) -> String {
    let w = order
        .iter()
        .map(|&i| rated[i].len())
        .max()
        .unwrap_or(3)
        .max(3);
    let mut out = format!("{:<w$}", "bot", w = w + 2);
    for k in 0..order.len() {
        let _ = write!(out, " {:>4}", k + 1);
    }
    out.push('\n');
    for (k, &i) in order.iter().enumerate() {
        let _ = write!(out, "{:<w$}", format!("{} {}", k + 1, rated[i]), w = w + 2);
        for &j in order {
            if i == j {
                let _ = write!(out, " {:>4}", "·");
            } else {
                let _ = write!(out, " {:>4.0}", 100.0 * r.los[i][j]);
            }
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_recorded_options_come_from_the_config_copy() {
        let tmp = tempfile::tempdir().unwrap();
        assert!(ReportOptions::recorded(tmp.path(), &[])
            .tiebreaks
            .is_empty());
        std::fs::write(
            tmp.path().join("config.toml"),
            "name = \"m\"\nformat = \"sprt\"\nanchor = \"b\"\ntiebreaks = [\"forfeits\", \"wins\"]\n\
             [sprt]\nelo0 = 0\nelo1 = 10\nmax_pairs = 100\n[game]\nname = \"connect4\"\n[time_control]\ntime_ms = 1000\n\
             [[bots]]\nname = \"a\"\nbuiltin = \"random\"\n[[bots]]\nname = \"b\"\nbuiltin = \"random\"\n",
        )
        .unwrap();
        let two = ["a".to_string(), "b".to_string()];
        let o = ReportOptions::recorded(tmp.path(), &two);
        assert_eq!(
            o.tiebreaks,
            vec![
                crate::config::Tiebreak::Forfeits,
                crate::config::Tiebreak::Wins
            ]
        );
        assert_eq!(o.anchor.as_deref(), Some("b"));
        assert!(o.sprt.is_some(), "an SPRT match's folder reports its SPRT");
        // Pooled, or with another number of bots: no SPRT line.
        assert!(ReportOptions::recorded(tmp.path(), &[]).sprt.is_none());
    }
}
