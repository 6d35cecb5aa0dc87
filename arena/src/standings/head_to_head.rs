//! Two-bot statistics over game pairs, fastchess style: W/D/L, score, Elo ± 95%, LOS, draw ratio,
//! pentanomial counts and normalized Elo, plus the SPRT's log-likelihood ratio when one is running.
//! The formulas are in [`crate::stats`]; what each number means is in `docs/statistics.md`.

use std::collections::BTreeMap;
use std::fmt;

use games::Player;

use crate::record::{GameRecord, GameResult};
use crate::stats::elo::Wdl;
use crate::stats::pentanomial::Pentanomial;
use crate::stats::sprt::{Llr, Sprt, SprtDecision};

/// The games between two bots, from the first-named bot's point of view.
#[derive(Clone, Debug, PartialEq)]
pub struct HeadToHead {
    /// The bot whose wins count as wins.
    pub bot: String,
    pub opponent: String,
    /// Every game between the two, forfeits included.
    pub wdl: Wdl,
    /// Every complete game pair (both games of a pair number recorded, each bot first once).
    pub pentanomial: Pentanomial,
    /// Pair number → the bot's points where it moved first and where it moved second, for pairs with
    /// one game recorded so far.
    pending: BTreeMap<u32, [Option<f64>; 2]>,
}

impl HeadToHead {
    /// The head-to-head of `bot` against `opponent` over `records` (other games are ignored).
    pub fn new(bot: &str, opponent: &str, records: &[GameRecord]) -> HeadToHead {
        let mut h = HeadToHead {
            bot: bot.to_string(),
            opponent: opponent.to_string(),
            wdl: Wdl::default(),
            pentanomial: Pentanomial::default(),
            pending: BTreeMap::new(),
        };
        for r in records {
            h.add(r);
        }
        h
    }

    /// Counts one more game; returns whether it completed a game pair (the pentanomial changed).
    /// Games of other bots are ignored (false).
    pub fn add(&mut self, r: &GameRecord) -> bool {
        if !r.termination.counts() {
            // Voided (its game module failed): no result; its pair stays incomplete.
            return false;
        }
        let side = if r.first == self.bot && r.second == self.opponent {
            Player::First
        } else if r.first == self.opponent && r.second == self.bot {
            Player::Second
        } else {
            return false;
        };
        let points = r.result.points(side);
        match r.result {
            GameResult::Draw => self.wdl.draws += 1,
            _ if points == 1.0 => self.wdl.wins += 1,
            _ => self.wdl.losses += 1,
        }
        let slot = self.pending.entry(r.pair).or_default();
        slot[side.index()] = Some(points);
        if let [Some(a), Some(b)] = *slot {
            self.pending.remove(&r.pair);
            self.pentanomial.add_pair(a, b);
            return true;
        }
        false
    }

    /// cutechess's result line, from the bot's point of view: `Score of A vs B: W - L - D  [0.625] N`
    /// (wins, losses, draws, the mean points per game with three decimals, the games).
    pub fn score_line(&self) -> String {
        let w = &self.wdl;
        format!(
            "Score of {} vs {}: {} - {} - {}  [{:.3}] {}",
            self.bot,
            self.opponent,
            w.wins,
            w.losses,
            w.draws,
            w.score(),
            w.games()
        )
    }

    /// One status line for a progress bar: LLR (with an SPRT), Elo ± over pairs, LOS, pentanomial.
    pub fn status(&self, sprt: Option<&Sprt>) -> String {
        let c = self.pentanomial.counts;
        let llr = sprt
            .map(|s| {
                let (lower, upper) = s.bounds();
                format!(
                    "LLR {:.2} ({lower:.2}, {upper:.2})  ",
                    s.llr(&self.pentanomial)
                )
            })
            .unwrap_or_default();
        format!(
            "{llr}Elo {}  LOS {}  Ptnml [{}, {}, {}, {}, {}]",
            estimate(self.pentanomial.elo(), self.pentanomial.score()),
            los_text(self.pentanomial.los(), self.pentanomial.pairs(), 1),
            c[0],
            c[1],
            c[2],
            c[3],
            c[4]
        )
    }

    /// The report lines, with the SPRT's line when `sprt` is given.
    pub fn report(&self, sprt: Option<&Sprt>) -> Report<'_> {
        Report {
            h2h: self,
            sprt: sprt.copied(),
        }
    }
}

/// [`HeadToHead::report`]'s text: see `docs/statistics.md` for each line.
pub struct Report<'a> {
    h2h: &'a HeadToHead,
    sprt: Option<Sprt>,
}

/// A likelihood of superiority as printed: `97.50%` (with `decimals`); `n/a` with no results (`n`
/// games or pairs); `cannot be estimated (every result ½)` where the variance is 0 at a score of ½.
pub fn los_text(los: Option<f64>, n: u64, decimals: usize) -> String {
    match los {
        Some(x) => format!("{:.decimals$}%", 100.0 * x),
        None if n == 0 => "n/a".to_string(),
        None => "cannot be estimated (every result ½: no variance)".to_string(),
    }
}

/// A normalized Elo as printed: `+12.30 ± 4.10`; `n/a` with no results (`n` games or pairs);
/// `cannot be estimated (every result the same)` where the variance is 0.
pub fn nelo_text(e: Option<crate::stats::elo::EloEstimate>, n: u64) -> String {
    match (e, n) {
        (Some(e), _) => e.to_string(),
        (None, 0) => "n/a".to_string(),
        (None, _) => "cannot be estimated (every result the same)".to_string(),
    }
}

/// The LLR line of a report: `LLR    -1.23 (-2.94, 2.94) [0.00, 5.00] normalized: running`, and
/// where fishtest's iteration gives another figure, a second line saying so ([`Llr::note`]).
pub fn llr_lines(s: &Sprt, llr: Llr) -> String {
    let (lower, upper) = s.bounds();
    let decision = match s.decide_llr(llr.value) {
        SprtDecision::Continue => "running",
        SprtDecision::AcceptH0 => "H0 accepted",
        SprtDecision::AcceptH1 => "H1 accepted",
    };
    let mut out = format!(
        "  LLR    {:.2} ({lower:.2}, {upper:.2}) [{:.2}, {:.2}] {}: {decision}\n",
        llr.value, s.elo0, s.elo1, s.model
    );
    if let Some(note) = llr.note() {
        out.push_str(&format!("         {note}\n"));
    }
    out
}

/// An estimate as `+40.70 ± 30.43`; with a score of 0 or 1, why there is none (no finite Elo fits).
pub fn estimate(e: Option<crate::stats::elo::EloEstimate>, score: f64) -> String {
    match e {
        Some(e) => e.to_string(),
        None if score >= 1.0 => "+∞ (every point won: no finite Elo fits)".to_string(),
        None if score <= 0.0 => "-∞ (every point lost: no finite Elo fits)".to_string(),
        None => "n/a".to_string(),
    }
}

impl fmt::Display for Report<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let h = self.h2h;
        let w = &h.wdl;
        let p = &h.pentanomial;
        writeln!(
            f,
            "{} vs {}: {} games, {} complete pairs",
            h.bot,
            h.opponent,
            w.games(),
            p.pairs()
        )?;
        writeln!(
            f,
            "  Games  W/D/L {}/{}/{}  score {:.2}%  draw ratio {:.2}%",
            w.wins,
            w.draws,
            w.losses,
            100.0 * w.score(),
            100.0 * w.draw_ratio()
        )?;
        writeln!(
            f,
            "  Elo    {} (games)  {} (pairs)  nElo {} (pairs)",
            estimate(w.elo(), w.score()),
            estimate(p.elo(), p.score()),
            nelo_text(p.normalized_elo(), p.pairs())
        )?;
        writeln!(
            f,
            "  LOS    {} (games)  {} (pairs)",
            los_text(w.los(), w.games(), 2),
            los_text(p.los(), p.pairs(), 2)
        )?;
        let c = p.counts;
        writeln!(
            f,
            "  Ptnml  [{}, {}, {}, {}, {}]  (LL, LD, WL+DD, WD, WW)",
            c[0], c[1], c[2], c[3], c[4]
        )?;
        if let Some(s) = &self.sprt {
            f.write_str(&llr_lines(s, s.llr_detail(p)))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(pair: u32, first: &str, second: &str, result: GameResult) -> GameRecord {
        GameRecord {
            id: format!("g{pair}{first}"),
            pair,
            ..GameRecord::example(first, second, result)
        }
    }

    #[test]
    fn only_complete_pairs_enter_the_pentanomial() {
        use GameResult::*;
        let records = [
            // Pair 1: a wins both → WW.
            game(1, "a", "b", FirstWins),
            game(1, "b", "a", SecondWins),
            // Pair 2: a wins as first, loses as second → WL+DD.
            game(2, "b", "a", FirstWins),
            game(2, "a", "b", FirstWins),
            // Pair 3: a draw and a loss → LD.
            game(3, "a", "b", Draw),
            game(3, "b", "a", FirstWins),
            // Pair 4: only one game recorded.
            game(4, "a", "b", FirstWins),
            // Another opponent.
            game(5, "a", "c", FirstWins),
        ];
        let h = HeadToHead::new("a", "b", &records);
        assert_eq!(
            (h.wdl.wins, h.wdl.draws, h.wdl.losses),
            (4, 1, 2),
            "every game between a and b"
        );
        assert_eq!(h.pentanomial.counts, [0, 1, 1, 0, 1]);
        assert_eq!(h.score_line(), "Score of a vs b: 4 - 2 - 1  [0.643] 7");
        let mirror = HeadToHead::new("b", "a", &records);
        assert_eq!(mirror.pentanomial.counts, [1, 0, 1, 1, 0]);
        assert_eq!(
            (mirror.wdl.wins, mirror.wdl.losses),
            (h.wdl.losses, h.wdl.wins)
        );
    }
}
