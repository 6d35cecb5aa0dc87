//! Time controls: what a config's `tc` asks of each bot, and the text `games.csv` records it as.

/// A bot's time control, validated. All in ms.
///
/// Either a game budget (`time_ms`) with an increment, or only a hard cap per move, or both.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Time for the whole game, ms (`None`: only `max_move_ms` limits a move).
    pub time_ms: Option<u64>,
    /// Added to the clock after each completed move, ms (Fischer increment).
    pub inc_ms: u64,
    /// A hard cap for any one move, ms.
    pub max_move_ms: Option<u64>,
    /// Deadline for starting up and the handshake, not charged to the clock, ms.
    pub startup_ms: u64,
    /// Slack added before a timeout is called, ms.
    pub margin_ms: u64,
}

impl std::fmt::Display for TimeControl {
    /// The time control as `games.csv` records it, ms: `10000+100` (budget + increment), `10000+100
    /// max=2000` (with a per-move cap), or `max=2000` (a per-move cap alone). The startup deadline and the
    /// margin are left out (they are part of the run's fingerprint instead).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.time_ms, self.max_move_ms) {
            (Some(t), None) => write!(f, "{t}+{}", self.inc_ms),
            (Some(t), Some(m)) => write!(f, "{t}+{} max={m}", self.inc_ms),
            (None, Some(m)) => write!(f, "max={m}"),
            (None, None) => f.write_str("none"),
        }
    }
}

/// A time control read back from its `games.csv` text ([`TimeControl`]'s `Display`), ms. For the game
/// records' exporters (PGN's `TimeControl` tag).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RecordedTimeControl {
    /// Time for the whole game, ms.
    pub time_ms: Option<u64>,
    /// Increment per move, ms.
    pub inc_ms: u64,
    /// Cap per move, ms.
    pub max_move_ms: Option<u64>,
}

impl std::str::FromStr for RecordedTimeControl {
    type Err = String;
    /// Parses `10000+100`, `10000+100 max=2000` or `max=2000`.
    ///
    /// # Errors
    /// Text in none of these forms.
    fn from_str(s: &str) -> Result<Self, String> {
        let bad =
            || format!("time control {s:?}: expected TIME+INC, TIME+INC max=MS or max=MS (ms)");
        let mut tc = RecordedTimeControl {
            time_ms: None,
            inc_ms: 0,
            max_move_ms: None,
        };
        for word in s.split_whitespace() {
            if let Some(m) = word.strip_prefix("max=") {
                tc.max_move_ms = Some(m.parse().map_err(|_| bad())?);
            } else if let Some((t, i)) = word.split_once('+') {
                tc.time_ms = Some(t.parse().map_err(|_| bad())?);
                tc.inc_ms = i.parse().map_err(|_| bad())?;
            } else {
                return Err(bad());
            }
        }
        if tc.time_ms.is_none() && tc.max_move_ms.is_none() {
            return Err(bad());
        }
        Ok(tc)
    }
}

/// A time control for unit tests: a 1 s startup, no margin.
#[cfg(test)]
pub(crate) fn tc(time_ms: Option<u64>, inc_ms: u64, max_move_ms: Option<u64>) -> TimeControl {
    TimeControl {
        time_ms,
        inc_ms,
        max_move_ms,
        startup_ms: 1000,
        margin_ms: 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_time_control_reads_back_from_its_record_text() {
        for (tc, text) in [
            (tc(Some(10_000), 100, None), "10000+100"),
            (tc(Some(5000), 0, Some(700)), "5000+0 max=700"),
            (tc(None, 0, Some(2000)), "max=2000"),
        ] {
            assert_eq!(tc.to_string(), text);
            let back: RecordedTimeControl = text.parse().unwrap();
            assert_eq!(
                (back.time_ms, back.inc_ms, back.max_move_ms),
                (tc.time_ms, tc.inc_ms, tc.max_move_ms)
            );
        }
        assert!("".parse::<RecordedTimeControl>().is_err());
        assert!("10s".parse::<RecordedTimeControl>().is_err());
    }
}
