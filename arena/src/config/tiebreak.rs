//! The words of a config's `tiebreaks = [...]`; how each ranks bots is
//! [`crate::standings::tiebreak`].

/// One tie-break (`tiebreaks = [...]` in a config), compared after points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tiebreak {
    /// Points (1 a win, ½ a draw, byes included): always first, listing it is allowed but changes nothing.
    Points,
    /// Fewer games lost by forfeit (timeout, crash, illegal move, protocol, limit): CodeCup's
    /// "irregular losses".
    Forfeits,
    /// Points scored in the games among the bots still tied (FIDE C.07 "direct encounter").
    HeadToHead,
    /// Sonneborn–Berger: for each game, the opponent's points times the points scored in it.
    SonnebornBerger,
    /// Buchholz: the sum of the points of each opponent, once per game played against it.
    Buchholz,
    /// More games won.
    Wins,
    /// Dots only: own captured dots minus the opponents', over all games (0 in other games).
    CaptureDifference,
}

impl Tiebreak {
    /// Every tie-break with its config word.
    pub const ALL: [(Tiebreak, &'static str); 7] = [
        (Tiebreak::Points, "points"),
        (Tiebreak::Forfeits, "forfeits"),
        (Tiebreak::HeadToHead, "head-to-head"),
        (Tiebreak::SonnebornBerger, "sonneborn-berger"),
        (Tiebreak::Buchholz, "buchholz"),
        (Tiebreak::Wins, "wins"),
        (Tiebreak::CaptureDifference, "capture-difference"),
    ];

    /// The tie-breaks the standings used before they were configurable: wins, then capture difference.
    pub const DEFAULT: [Tiebreak; 2] = [Tiebreak::Wins, Tiebreak::CaptureDifference];

    /// The config word (`sonneborn-berger`).
    pub fn as_str(self) -> &'static str {
        Tiebreak::ALL
            .iter()
            .find(|(t, _)| *t == self)
            .map_or("?", |(_, w)| w)
    }
}

impl std::fmt::Display for Tiebreak {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for Tiebreak {
    type Err = String;
    fn from_str(s: &str) -> Result<Tiebreak, String> {
        Tiebreak::ALL
            .iter()
            .find(|(_, w)| *w == s)
            .map(|(t, _)| *t)
            .ok_or_else(|| {
                let words: Vec<&str> = Tiebreak::ALL.iter().map(|(_, w)| *w).collect();
                format!("unknown tie-break {s:?}; known: {}", words.join(", "))
            })
    }
}
