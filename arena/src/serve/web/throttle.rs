//! Login and registration attempts limited per account and per address (GCRA rate limiters from
//! the `governor` crate), so that guessing passwords is slow and a flood of guesses is refused before
//! its password hashes take the cores (a refused attempt hashes nothing).
//!
//! - Per account (its name, case folded): `[server] login_account_burst` attempts at once (default
//!   5), then 1 every `login_account_every_s` (60).
//! - Per address ([`super::listen::client_address`]): `login_address_burst` attempts at once (20),
//!   then 1 every `login_address_every_s` (6); registrations count here too.
//!
//! A flood against one account also keeps its owner out until the flood stops; the per-address
//! limit makes such a flood slow unless it comes from many addresses.

use std::net::IpAddr;
use std::num::NonZeroU32;
use std::time::Duration;

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota};

/// Keys kept before the limiters forget the ones back at full allowance.
const FORGET_ABOVE: usize = 10_000;

/// The limiters of one server.
pub struct LoginLimits {
    by_account: DefaultKeyedRateLimiter<String>,
    by_address: DefaultKeyedRateLimiter<IpAddr>,
    clock: DefaultClock,
}

fn quota(burst: u32, every: Duration) -> Quota {
    Quota::with_period(every)
        .expect("a positive period")
        .allow_burst(NonZeroU32::new(burst).expect("a positive burst"))
}

impl LoginLimits {
    /// The limiters of the contest file's `[server]` keys (validated: bursts and periods at least 1).
    pub fn new(server: &crate::serve::contest::ServerConfig) -> LoginLimits {
        LoginLimits {
            by_account: DefaultKeyedRateLimiter::hashmap(quota(
                server.login_account_burst,
                Duration::from_secs(server.login_account_every_s),
            )),
            by_address: DefaultKeyedRateLimiter::hashmap(quota(
                server.login_address_burst,
                Duration::from_secs(server.login_address_every_s),
            )),
            clock: DefaultClock::default(),
        }
    }
}

/// An attempt refused: what was exhausted and when to try again.
#[derive(Debug, PartialEq, Eq)]
pub struct TooMany {
    /// "this account" or "this address".
    pub what: &'static str,
    /// Until the next attempt is allowed, whole seconds (at least 1).
    pub retry_after_s: u64,
}

impl std::fmt::Display for TooMany {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "too many login attempts from {}: try again in {} s",
            self.what, self.retry_after_s
        )
    }
}

impl LoginLimits {
    /// Counts an attempt from `address` (when known) and, when `account` is `Some`, on that
    /// account.
    ///
    /// # Errors
    /// [`TooMany`] when either allowance is spent (the attempt must not be tried).
    pub fn attempt(&self, account: Option<&str>, address: Option<IpAddr>) -> Result<(), TooMany> {
        let refused = |what, not_until: governor::NotUntil<_>| TooMany {
            what,
            retry_after_s: not_until
                .wait_time_from(self.clock.now())
                .as_secs_f64()
                .ceil()
                .max(1.0) as u64,
        };
        if let Some(ip) = address {
            if self.by_address.len() > FORGET_ABOVE {
                self.by_address.retain_recent();
            }
            self.by_address
                .check_key(&ip)
                .map_err(|n| refused("this address", n))?;
        }
        if let Some(name) = account {
            if self.by_account.len() > FORGET_ABOVE {
                self.by_account.retain_recent();
            }
            self.by_account
                .check_key(&name.to_lowercase())
                .map_err(|n| refused("this account", n))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_account_gets_five_attempts_and_an_address_twenty() {
        let limits = LoginLimits::new(&crate::serve::contest::ServerConfig::default());
        let here: IpAddr = "10.0.0.1".parse().unwrap();
        for _ in 0..5 {
            limits.attempt(Some("alice"), Some(here)).unwrap();
        }
        let refused = limits.attempt(Some("ALICE"), Some(here)).unwrap_err();
        assert_eq!(refused.what, "this account", "the name is case folded");
        assert!((1..=60).contains(&refused.retry_after_s), "{refused}");
        // Another account from the same address, until the address's 20 are spent (6 so far).
        for i in 0..14 {
            limits
                .attempt(Some(&format!("user{i}")), Some(here))
                .unwrap();
        }
        let refused = limits.attempt(Some("bob"), Some(here)).unwrap_err();
        assert_eq!(refused.what, "this address");
        // Bob from elsewhere is not held back by this address.
        limits
            .attempt(Some("bob"), Some("10.0.0.2".parse().unwrap()))
            .unwrap();
    }

    #[test]
    fn a_classroom_behind_one_address_gets_the_allowance_its_organiser_sets() {
        let server = crate::serve::contest::ServerConfig {
            login_address_burst: 60,
            ..Default::default()
        };
        let limits = LoginLimits::new(&server);
        let school: IpAddr = "192.0.2.7".parse().unwrap();
        for i in 0..60 {
            limits
                .attempt(Some(&format!("pupil{i}")), Some(school))
                .unwrap();
        }
        let refused = limits.attempt(Some("late"), Some(school)).unwrap_err();
        assert_eq!(refused.what, "this address");
        assert!((1..=6).contains(&refused.retry_after_s), "{refused}");
    }
}
