//! The words the database stores for a competition's kind and status and a version's check, as
//! enums: the code matches on variants, and a word the code does not know (a database written by a
//! newer server) is an error when the row is read, not a silent "other".
//!
//! Each is stored as its lowercase word (`TEXT` on SQLite and PostgreSQL; migration 0001) and shown
//! and serialised as that word, so the pages and the JSON API read as before.

use std::fmt;

/// Declares a stored word enum: its variants and words, `as_str`, `Display`, serde as the word,
/// and `TryFrom<String>` (for sqlx's `#[sqlx(try_from = "String")]`).
macro_rules! words {
    ($(#[$doc:meta])* $name:ident { $($(#[$vdoc:meta])* $variant:ident = $word:literal),+ $(,)? }) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $name {
            $($(#[$vdoc])* $variant),+
        }

        impl $name {
            /// Every value, in the order declared.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The stored word.
            pub fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $word),+
                }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }

        impl std::str::FromStr for $name {
            type Err = UnknownWord;

            fn from_str(word: &str) -> Result<$name, UnknownWord> {
                match word {
                    $($word => Ok($name::$variant),)+
                    _ => Err(UnknownWord {
                        what: stringify!($name),
                        word: word.to_string(),
                        known: &[$($word),+],
                    }),
                }
            }
        }

        impl TryFrom<String> for $name {
            type Error = UnknownWord;

            fn try_from(word: String) -> Result<$name, UnknownWord> {
                word.parse()
            }
        }
    };
}

/// A word that names no value of the enum `what`.
#[derive(Debug, thiserror::Error)]
#[error("{what} {word:?}: one of {}", known.join(", "))]
pub struct UnknownWord {
    pub what: &'static str,
    pub word: String,
    pub known: &'static [&'static str],
}

words! {
    /// What a competition is: one of the scheduled test competitions or the final.
    Kind {
        /// Scheduled every `[competition] every_minutes`, or started by the organiser.
        Test = "test",
        /// Started by the organiser; plays `[final]`'s keys over `[competition]`'s.
        Final = "final",
    }
}

words! {
    /// Where a competition stands.
    CompetitionStatus {
        /// Created, not started.
        Scheduled = "scheduled",
        /// Its games are being played (or it was running when the server stopped).
        Running = "running",
        /// Stopped by the organiser or by itself (its `detail` says why); no game is played.
        Paused = "paused",
        /// Every game played; its standings and report written.
        Finished = "finished",
        /// Stopped for good by the organiser.
        Cancelled = "cancelled",
    }
}

impl CompetitionStatus {
    /// Whether it is over (finished or cancelled): its standings no longer change by play.
    pub fn is_over(self) -> bool {
        matches!(
            self,
            CompetitionStatus::Finished | CompetitionStatus::Cancelled
        )
    }

    /// Whether it is due to be played or being played (scheduled or running).
    pub fn is_live(self) -> bool {
        matches!(
            self,
            CompetitionStatus::Scheduled | CompetitionStatus::Running
        )
    }
}

words! {
    /// Where a version's check stands.
    CheckStatus {
        /// Uploaded, waiting for a check.
        Pending = "pending",
        /// Its check is being played.
        Running = "running",
        /// Its check passed: it can be its bot's active version.
        Passed = "passed",
        /// Its check failed (the verdict's detail says why).
        Failed = "failed",
    }
}

impl CheckStatus {
    /// The word a participant sees: `pending` for a check waiting or being played; `passed`,
    /// `failed`.
    pub fn word(self) -> &'static str {
        match self {
            CheckStatus::Running => "pending",
            s => s.as_str(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_word_reads_back_and_an_unknown_one_is_refused() {
        for s in CompetitionStatus::ALL {
            assert_eq!(s.as_str().parse::<CompetitionStatus>().unwrap(), *s);
        }
        for s in CheckStatus::ALL {
            assert_eq!(CheckStatus::try_from(s.to_string()).unwrap(), *s);
        }
        for k in Kind::ALL {
            assert_eq!(k.as_str().parse::<Kind>().unwrap(), *k);
        }
        let e = "Running".parse::<CompetitionStatus>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "CompetitionStatus \"Running\": one of scheduled, running, paused, finished, cancelled"
        );
        assert_eq!(
            serde_json::to_string(&CheckStatus::Passed).unwrap(),
            "\"passed\""
        );
        assert_eq!(CheckStatus::Running.word(), "pending");
        assert_eq!(CheckStatus::Failed.word(), "failed");
        assert!(CompetitionStatus::Cancelled.is_over() && !CompetitionStatus::Paused.is_over());
        assert!(CompetitionStatus::Scheduled.is_live() && !CompetitionStatus::Paused.is_live());
    }
}
