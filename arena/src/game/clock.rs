//! The chess clock the referee runs for each bot during a game.

use std::time::Duration;

use crate::config::time_control::TimeControl;

/// One bot's clock during a game. Runs only while the arena waits for that bot's move.
#[derive(Clone, Debug)]
pub struct Clock {
    tc: TimeControl,
    /// Time left on the game budget, ms (meaningless without `time_ms`).
    left_ms: u64,
    /// Total time the bot spent on its moves, ms.
    used_ms: u64,
}

/// What a finished move cost against the clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Charge {
    /// In time; the increment has been added.
    InTime,
    /// Over the budget or the per-move cap (the move is a timeout forfeit).
    Flagged,
}

impl Clock {
    /// A full clock for `tc`.
    pub fn new(tc: TimeControl) -> Clock {
        Clock {
            tc,
            left_ms: tc.time_ms.unwrap_or(0),
            used_ms: 0,
        }
    }

    /// The time control this clock runs.
    pub fn control(&self) -> &TimeControl {
        &self.tc
    }

    /// Time left on the budget, ms, as sent in `go p1time …`; `None` without a budget.
    pub fn left_ms(&self) -> Option<u64> {
        self.tc.time_ms.map(|_| self.left_ms)
    }

    /// Total time spent on moves so far, ms.
    pub fn used_ms(&self) -> u64 {
        self.used_ms
    }

    /// How long the arena waits for the next move before calling a timeout: the budget left or the
    /// per-move cap, whichever is smaller, plus the margin.
    pub fn allowance(&self) -> Duration {
        let budget = self
            .left_ms()
            .into_iter()
            .chain(self.tc.max_move_ms)
            .min()
            .unwrap_or(u64::MAX / 4);
        Duration::from_millis(budget.saturating_add(self.tc.margin_ms))
    }

    /// Charges a move that took `spent`; adds the increment if it was in time.
    pub fn charge(&mut self, spent: Duration) -> Charge {
        let ms = spent.as_millis().min(u64::MAX as u128) as u64;
        self.used_ms += ms;
        if spent > self.allowance() {
            self.left_ms = self.left_ms.saturating_sub(ms);
            return Charge::Flagged;
        }
        if self.tc.time_ms.is_some() {
            self.left_ms = self.left_ms.saturating_sub(ms) + self.tc.inc_ms;
        }
        Charge::InTime
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::time_control::tc;

    #[test]
    fn the_increment_is_added_after_a_move_in_time() {
        let mut c = Clock::new(tc(Some(1000), 100, None));
        assert_eq!(c.charge(Duration::from_millis(300)), Charge::InTime);
        assert_eq!(c.left_ms(), Some(800));
        assert_eq!(c.used_ms(), 300);
        assert_eq!(c.allowance(), Duration::from_millis(800));
    }

    #[test]
    fn a_move_over_the_budget_or_the_cap_flags() {
        let mut c = Clock::new(tc(Some(1000), 0, Some(200)));
        assert_eq!(c.allowance(), Duration::from_millis(200));
        assert_eq!(c.charge(Duration::from_millis(201)), Charge::Flagged);
        let mut c = Clock::new(tc(Some(100), 0, None));
        assert_eq!(c.charge(Duration::from_millis(101)), Charge::Flagged);
    }

    #[test]
    fn a_per_move_control_has_no_budget() {
        let mut c = Clock::new(tc(None, 0, Some(50)));
        assert_eq!(c.left_ms(), None);
        assert_eq!(c.charge(Duration::from_millis(50)), Charge::InTime);
        assert_eq!(c.allowance(), Duration::from_millis(50));
    }
}
