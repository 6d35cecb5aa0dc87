//! Plays a Swiss or a knockout round by round: each round is paired from the games recorded for the
//! rounds before it, its games run at `concurrency` like any tournament's, each appended to `games.csv`
//! as it ends; the next round starts when the last game of this one has ended. A resumed run pairs
//! every round again from the recorded games (the same pairings, since they depend on nothing else) and
//! plays only the games not yet recorded.

use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;
use std::sync::Arc;

use anyhow::{Context, Result};
use games::Player;

use super::knockout::{self, DecidedBy, MatchLine, MatchState};
use super::swiss::{Pairing, SwissState};
use super::{book_order, game_pair, Tiebreak};
use crate::config::Format;
use crate::plan::schedule::ScheduledGame;
use crate::plan::Plan;
use crate::record::GameRecord;
use crate::report::{Report, ReportOptions};
use crate::results::fingerprint::Fingerprint;
use crate::results::{check_resumable, Expected, GameWriter, ResultsDir};
use crate::run::{Flow, Played, Progress, Run, RunOptions, RunSummary, Setup, Sink};

/// Runs (or resumes) a `format = "swiss"` or `"knockout"` tournament: see the module's documentation.
///
/// # Errors
/// A shard (the rounds cannot be split across machines), a results folder that cannot be written or
/// whose games belong to another config or pairing, a game the arena could not set up.
pub async fn run(plan: Arc<Plan>, opts: &RunOptions) -> Result<RunSummary> {
    let format = if plan.format == Format::Swiss {
        "swiss"
    } else {
        "knockout"
    };
    anyhow::ensure!(
        opts.shard.is_none(),
        "a {format} tournament cannot be split into shards: each round is paired from the results of \
         the round before, so the rounds run one after another on one machine (run it without --shard)"
    );
    // A knockout seeded by an earlier results folder's ratings: read now, by the runner.
    let plan = match plan
        .knockout
        .as_ref()
        .is_some_and(|k| k.seeds_from.is_some())
    {
        true => {
            let mut seeded = (*plan).clone();
            super::seed(&mut seeded)?;
            Arc::new(seeded)
        }
        false => plan,
    };
    let mut run = Run::open(Setup::of(&plan, opts, plan.name.clone()))?;
    let recorded = run.dir.read_games()?;
    let fingerprint = Fingerprint::of(&plan);
    run.check_fingerprint(&fingerprint, !recorded.is_empty(), "games")?;
    run.record_config()?;
    if !recorded.is_empty() && !opts.quiet {
        crate::errln!(
            "resuming {}: {} games already recorded; pairing the rounds again from them",
            plan.name,
            recorded.len()
        );
    }
    let n = plan.bots.len();
    let estimate = match plan.format {
        Format::Swiss => plan.swiss_rounds as usize * (n / 2) * plan.games_per_pair as usize,
        _ => (n - 1) * 2 * plan.knockout.as_ref().map_or(1, |k| k.pairs as usize),
    };
    let mut runner = Runner {
        progress: Progress::new(estimate, recorded.len(), opts.progress_bar, opts.quiet),
        recorded: recorded.into_iter().map(|r| (r.id.clone(), r)).collect(),
        paired: HashSet::new(),
        plan: Arc::clone(&plan),
        dir: run.dir.clone(),
        quiet: opts.quiet,
        fingerprint,
        run,
        writer: None,
    };
    let outcome = match plan.format {
        Format::Swiss => runner.swiss().await,
        _ => runner.knockout().await,
    };
    runner.progress.finish();
    let (complete, summary_text) = outcome?;
    if complete {
        let stray: Vec<&str> = runner
            .recorded
            .keys()
            .filter(|id| !runner.paired.contains(*id))
            .map(String::as_str)
            .collect();
        anyhow::ensure!(
            stray.is_empty(),
            "{}: games {} are in no round of this config's pairing; run with --fresh to start afresh \
             (the old folder is kept)",
            runner.dir.path.display(),
            stray.join(", ")
        );
    }
    let mut records: Vec<GameRecord> = runner.recorded.values().cloned().collect();
    records.sort_by(|a, b| a.id.cmp(&b.id));
    let names: Vec<String> = plan.bots.iter().map(|b| b.name.clone()).collect();
    let report = Report::new(&names, &records, &ReportOptions::of(&plan))?;
    report.write(&runner.dir.path)?;
    // After the bracket and rounds files: the page shows them.
    crate::report::html::write(&runner.dir.path, &plan.name, &records, &report)?;
    runner.run.finish();
    if !opts.quiet {
        crate::outln!("{}", summary_text.trim_end());
    }
    Ok(RunSummary {
        played: runner.run.played,
        total: if complete {
            records.len()
        } else {
            estimate.max(records.len())
        },
        recorded: records.len(),
        complete,
        interrupted: runner.run.interrupted,
        sprt: None,
        report,
        dir: runner.dir.path,
    })
}

struct Runner {
    plan: Arc<Plan>,
    run: Run,
    dir: ResultsDir,
    quiet: bool,
    fingerprint: Fingerprint,
    /// Every recorded game by id, this run's included.
    recorded: HashMap<String, GameRecord>,
    /// Ids of the games of every round paired so far.
    paired: HashSet<String>,
    /// Opened before the first game this run plays.
    writer: Option<GameWriter>,
    progress: Progress,
}

impl Runner {
    /// Points of `bot` in the recorded games among `ids`, in half points.
    fn half_points(&self, ids: &[String], bot: usize) -> u32 {
        let name = &self.plan.bots[bot].name;
        ids.iter()
            .filter_map(|id| self.recorded.get(id))
            .filter(|r| r.termination.counts())
            .map(|r| {
                let p = if r.first == *name {
                    r.result.points(Player::First)
                } else if r.second == *name {
                    r.result.points(Player::Second)
                } else {
                    0.0
                };
                (p * 2.0) as u32
            })
            .sum()
    }

    /// Checks the recorded games among `games` against them, then plays the others. `Ok(false)` when
    /// Ctrl-C (or SIGTERM, SIGHUP) stopped the run.
    async fn play(&mut self, games: &[ScheduledGame]) -> Result<bool> {
        let plan = Arc::clone(&self.plan);
        let expected: Vec<Expected> = games.iter().map(|g| Expected::of(&plan, g)).collect();
        let ours: Vec<GameRecord> = games
            .iter()
            .filter_map(|g| self.recorded.get(&g.id).cloned())
            .collect();
        check_resumable(&ours, &expected, &plan.spec.to_string(), &self.dir.path)?;
        self.paired.extend(games.iter().map(|g| g.id.clone()));
        let todo: Vec<ScheduledGame> = games
            .iter()
            .filter(|g| !self.recorded.contains_key(&g.id))
            .cloned()
            .collect();
        if todo.is_empty() {
            return Ok(true);
        }
        let env = self.run.env(&plan, &self.fingerprint).await?;
        if self.writer.is_none() {
            self.writer = Some(self.dir.appender()?);
        }
        let progress_total = self.progress_total();
        let Runner {
            run,
            recorded,
            writer,
            progress,
            ..
        } = self;
        let played = run
            .play(plan, env, todo, "games", |record| {
                let done = recorded.len() + 1;
                let total = done.max(progress_total);
                if let Some(w) = writer.as_mut() {
                    w.game_finished(&record, done, total)?;
                }
                progress.game_finished(&record, done, total)?;
                recorded.insert(record.id.clone(), record);
                Ok(Flow::Continue)
            })
            .await?;
        Ok(played == Played::Done)
    }

    fn progress_total(&self) -> usize {
        let n = self.plan.bots.len();
        match self.plan.format {
            Format::Swiss => {
                self.plan.swiss_rounds as usize * (n / 2) * self.plan.games_per_pair as usize
            }
            _ => (n - 1) * 2 * self.plan.knockout.as_ref().map_or(1, |k| k.pairs as usize),
        }
    }

    /// The Swiss rounds. Returns whether every round is played, and the final text (pairings by
    /// round, the Swiss ranking with byes).
    async fn swiss(&mut self) -> Result<(bool, String)> {
        let plan = Arc::clone(&self.plan);
        let n = plan.bots.len();
        let name = |b: usize| plan.bots[b].name.as_str();
        let book = book_order(&plan);
        let pairs_per_pairing = plan.games_per_pair / 2;
        let pairs_per_round = (n / 2) as u32 * pairs_per_pairing;
        // A bye scores as winning every game of a pairing (FIDE C.04.1: a pairing-allocated bye is a win).
        let bye_half = 2 * plan.games_per_pair;
        let mut state = SwissState::new(n, plan.seed);
        let mut rounds_text = String::new();
        let mut rows: Vec<[String; 6]> = Vec::new();
        for round in 1..=plan.swiss_rounds {
            let pairing: Pairing = state.pair_next();
            let mut games = Vec::new();
            let mut ids: Vec<Vec<String>> = Vec::new();
            for (j, &(a, b)) in pairing.pairs.iter().enumerate() {
                let mut mine = Vec::new();
                for k in 0..pairs_per_pairing {
                    let pair_no =
                        (round - 1) * pairs_per_round + j as u32 * pairs_per_pairing + k + 1;
                    let sides = if k % 2 == 0 { (a, b) } else { (b, a) };
                    for g in game_pair(&plan, &book, round, pair_no, sides) {
                        mine.push(g.id.clone());
                        games.push(g);
                    }
                }
                ids.push(mine);
            }
            let fresh = games.iter().any(|g| !self.recorded.contains_key(&g.id));
            if fresh && !self.quiet {
                let mut text = format!("swiss round {round} of {}:", plan.swiss_rounds);
                for &(a, b) in pairing.pairs.iter().take(12) {
                    let _ = write!(text, " {}–{}", name(a), name(b));
                }
                if pairing.pairs.len() > 12 {
                    let _ = write!(text, " … ({} pairings)", pairing.pairs.len());
                }
                if let Some(x) = pairing.bye {
                    let _ = write!(text, "; bye: {}", name(x));
                }
                if pairing.rematches > 0 {
                    let _ = write!(
                        text,
                        "; {} rematches (no pairing avoids them)",
                        pairing.rematches
                    );
                }
                self.progress.print_block(&text);
            }
            if !self.play(&games).await? {
                return Ok((false, rounds_text));
            }
            let results: Vec<(u32, u32)> = pairing
                .pairs
                .iter()
                .zip(&ids)
                .map(|(&(a, b), ids)| (self.half_points(ids, a), self.half_points(ids, b)))
                .collect();
            let _ = write!(rounds_text, "round {round}:");
            for (&(a, b), &(pa, pb)) in pairing.pairs.iter().zip(&results) {
                let _ = write!(
                    rounds_text,
                    " {} {}–{} {};",
                    name(a),
                    half(pa),
                    half(pb),
                    name(b)
                );
                rows.push([
                    round.to_string(),
                    name(a).into(),
                    name(b).into(),
                    half(pa),
                    half(pb),
                    String::new(),
                ]);
            }
            if let Some(x) = pairing.bye {
                let _ = write!(rounds_text, " bye {} (+{})", name(x), half(bye_half));
                rows.push([
                    round.to_string(),
                    name(x).into(),
                    String::new(),
                    half(bye_half),
                    String::new(),
                    "bye".into(),
                ]);
            }
            rounds_text.push('\n');
            state.add_round(&pairing, &results, bye_half);
        }
        // The Swiss ranking: points with byes, then the configured tie-breaks (default Buchholz, then
        // Sonneborn–Berger, as Swiss events usually break ties).
        let names: Vec<String> = plan.bots.iter().map(|b| b.name.clone()).collect();
        let records: Vec<GameRecord> = self.recorded.values().cloned().collect();
        let byes: Vec<f64> = (0..n)
            .map(|b| f64::from(state.byes(b)) * f64::from(bye_half) / 2.0)
            .collect();
        let tiebreaks = if plan.tiebreaks.is_empty() {
            vec![Tiebreak::Buchholz, Tiebreak::SonnebornBerger]
        } else {
            plan.tiebreaks.clone()
        };
        let (order, points) = crate::standings::tiebreak::rank(&names, &records, &byes, &tiebreaks);
        let mut ranking = format!(
            "swiss ranking (points with byes, then {}):\n",
            tiebreaks
                .iter()
                .map(|t| t.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        );
        for (b, rank) in &order {
            let _ = writeln!(
                ranking,
                "{rank:>4}. {:<20} {:>6}{}",
                names[*b],
                points[*b],
                if state.byes(*b) > 0 { "  (bye)" } else { "" }
            );
        }
        write_swiss(&self.dir.path, &rows, &rounds_text, &ranking)?;
        Ok((true, ranking))
    }

    /// The knockout bracket. Returns whether the final is decided, and the bracket's text.
    async fn knockout(&mut self) -> Result<(bool, String)> {
        let plan = Arc::clone(&self.plan);
        let ko = plan.knockout.clone().context("a knockout plan")?;
        let n = plan.bots.len();
        let total_rounds = knockout::rounds(n);
        let book = book_order(&plan);
        let block = ko.pairs + ko.extra_pairs;
        let bot = |seed: usize| ko.seeding[seed - 1];
        let name = |seed: usize| plan.bots[bot(seed)].name.clone();
        let mut entrants: Vec<(usize, Option<usize>)> = knockout::first_round(n);
        let mut lines: Vec<MatchLine> = Vec::new();
        let mut champion = None;
        for round in 1..=total_rounds {
            // (higher seed, lower seed, complete pairs, decision)
            let mut state: Vec<Option<(bool, DecidedBy)>> = entrants
                .iter()
                .map(|(_, lower)| lower.is_none().then_some((true, DecidedBy::Bye)))
                .collect();
            let mut played = vec![0u32; entrants.len()];
            let pair_no =
                |i: usize, k: u32| (knockout::match_index(n, round, i) as u32) * block + k + 1;
            loop {
                // `known`: the recorded games of these matches, checked against the pairing;
                // `games`: the ones to play now.
                let mut known = Vec::new();
                let mut games = Vec::new();
                for (i, &(higher, lower)) in entrants.iter().enumerate() {
                    let Some(lower) = lower else { continue };
                    if state[i].is_some() {
                        continue;
                    }
                    // Complete pairs recorded so far, and their points.
                    let mut ids = Vec::new();
                    let mut k = 0;
                    while k < block {
                        let sides = if k % 2 == 0 {
                            (bot(higher), bot(lower))
                        } else {
                            (bot(lower), bot(higher))
                        };
                        let pair = game_pair(&plan, &book, round, pair_no(i, k), sides);
                        if !pair.iter().all(|g| self.recorded.contains_key(&g.id)) {
                            break;
                        }
                        ids.extend(pair.iter().map(|g| g.id.clone()));
                        known.extend(pair);
                        k += 1;
                    }
                    played[i] = k;
                    let (h, l) = (
                        self.half_points(&ids, bot(higher)),
                        self.half_points(&ids, bot(lower)),
                    );
                    match knockout::decide(ko.pairs, ko.extra_pairs, k, h, l) {
                        MatchState::Decided { higher_wins, by } => {
                            state[i] = Some((higher_wins, by))
                        }
                        MatchState::Play(target) => {
                            for k in played[i]..target {
                                let sides = if k % 2 == 0 {
                                    (bot(higher), bot(lower))
                                } else {
                                    (bot(lower), bot(higher))
                                };
                                games.extend(game_pair(&plan, &book, round, pair_no(i, k), sides));
                            }
                        }
                    }
                }
                let done = games.is_empty();
                known.extend(games);
                if !self.play(&known).await? {
                    return Ok((false, knockout::text(&lines, total_rounds)));
                }
                if done {
                    break;
                }
            }
            let mut next = Vec::new();
            for (i, &(higher, lower)) in entrants.iter().enumerate() {
                let (higher_wins, by) = state[i].context("every match decided")?;
                let ids: Vec<String> = (0..played[i])
                    .flat_map(|k| {
                        let sides = if k % 2 == 0 {
                            (bot(higher), bot(lower.unwrap_or(higher)))
                        } else {
                            (bot(lower.unwrap_or(higher)), bot(higher))
                        };
                        game_pair(&plan, &book, round, pair_no(i, k), sides).map(|g| g.id)
                    })
                    .collect();
                let winner = if higher_wins {
                    higher
                } else {
                    lower.unwrap_or(higher)
                };
                lines.push(MatchLine {
                    round,
                    number: i + 1,
                    higher: (higher, name(higher)),
                    lower: lower.map(|l| (l, name(l))),
                    points: (
                        f64::from(self.half_points(&ids, bot(higher))) / 2.0,
                        lower.map_or(0.0, |l| f64::from(self.half_points(&ids, bot(l))) / 2.0),
                    ),
                    pairs: played[i],
                    winner: Some((name(winner), by)),
                });
                next.push(winner);
            }
            let shown: Vec<MatchLine> =
                lines.iter().filter(|m| m.round == round).cloned().collect();
            self.progress
                .print_block(&knockout::text(&shown, total_rounds));
            knockout::write(&self.dir.path, &lines, total_rounds)?;
            if let [w] = next.as_slice() {
                champion = Some(*w);
            }
            entrants = next
                .chunks(2)
                .filter(|c| c.len() == 2)
                .map(|c| (c[0].min(c[1]), Some(c[0].max(c[1]))))
                .collect();
        }
        let mut text = format!("bracket (seeded by {}):\n", ko.seeded_by);
        text.push_str(&knockout::text(&lines, total_rounds));
        if let Some(w) = champion {
            let _ = writeln!(text, "winner: [{w}] {}", name(w));
        }
        knockout::write(&self.dir.path, &lines, total_rounds)?;
        // The finished bracket's text also names the seeding and the winner.
        let txt = self.dir.path.join("bracket.txt");
        std::fs::write(&txt, &text).with_context(|| format!("writing {}", txt.display()))?;
        Ok((true, text))
    }
}

/// Half points as points: `3`, `2.5`.
fn half(h: u32) -> String {
    if h.is_multiple_of(2) {
        (h / 2).to_string()
    } else {
        format!("{}.5", h / 2)
    }
}

/// Writes `swiss.csv` (round, bot, opponent, points, opponent_points, note: one row per pairing, a bye
/// as its own row) and `swiss.txt` (the rounds and the ranking) into `dir`.
fn write_swiss(
    dir: &std::path::Path,
    rows: &[[String; 6]],
    rounds: &str,
    ranking: &str,
) -> Result<()> {
    let path = dir.join("swiss.csv");
    let mut w =
        csv::Writer::from_path(&path).with_context(|| format!("writing {}", path.display()))?;
    w.write_record([
        "round",
        "bot",
        "opponent",
        "points",
        "opponent_points",
        "note",
    ])?;
    for r in rows {
        w.write_record(r)?;
    }
    w.flush()
        .with_context(|| format!("writing {}", path.display()))?;
    let txt = dir.join("swiss.txt");
    std::fs::write(&txt, format!("{rounds}\n{ranking}"))
        .with_context(|| format!("writing {}", txt.display()))
}
