//! The CPUs of the config's `affinity` and of `--affinity` (fastchess's `-use-affinity`), as `taskset
//! -c` and fastchess write them (`0-3,8`), or `all`: every CPU the arena itself may run on. The
//! sandbox pins each game's bots to its slot's share of them ([`crate::sandbox::affinity`]).
//!
//! ```
//! use arena::config::affinity::Cpus;
//! let cpus: Cpus = "0-3,8".parse().unwrap();
//! assert_eq!(cpus, Cpus::List(vec![0, 1, 2, 3, 8]));
//! assert_eq!(cpus.to_string(), "0-3,8");
//! ```

use std::fmt;
use std::str::FromStr;

/// The CPUs a run's bots may use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cpus {
    /// Every CPU the arena may run on (its own affinity mask).
    All,
    /// These CPUs (numbers as the kernel counts them), ascending, each once.
    List(Vec<usize>),
}

/// The highest CPU number accepted (Linux's `CPU_SETSIZE` is 1024).
pub const MAX_CPU: usize = 1023;

impl FromStr for Cpus {
    type Err = String;

    /// `all`, or a list of CPU numbers and ranges: `0-3,8`.
    fn from_str(s: &str) -> Result<Cpus, String> {
        let s = s.trim();
        if s == "all" {
            return Ok(Cpus::All);
        }
        let bad = |why: &str| format!("CPUs {s:?}: {why} (expected all, or a list such as 0-3,8)");
        let number = |t: &str| -> Result<usize, String> {
            let n: usize = t
                .trim()
                .parse()
                .map_err(|_| bad(&format!("{t:?} is no CPU number")))?;
            if n > MAX_CPU {
                return Err(bad(&format!("CPU {n} is past {MAX_CPU}")));
            }
            Ok(n)
        };
        let mut out = std::collections::BTreeSet::new();
        for part in s.split(',') {
            match part.split_once('-') {
                Some((a, b)) => {
                    let (a, b) = (number(a)?, number(b)?);
                    if a > b {
                        return Err(bad(&format!("the range {a}-{b} runs backwards")));
                    }
                    out.extend(a..=b);
                }
                None => {
                    out.insert(number(part)?);
                }
            }
        }
        Ok(Cpus::List(out.into_iter().collect()))
    }
}

/// The value of `--affinity` (`arena run`, `arena match`): the CPUs, or `off`, over a config's
/// `affinity`. On the command line it follows an `=` (`--affinity=0-3,8`, `--affinity=off`); `--affinity`
/// alone is `all`.
///
/// ```
/// use arena::config::affinity::{Cpus, Setting};
/// assert_eq!("off".parse::<Setting>().unwrap().cpus(), None);
/// assert_eq!("all".parse::<Setting>().unwrap().cpus(), Some(Cpus::All));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Setting {
    /// The bots run anywhere, whatever the config says.
    Off,
    /// These CPUs.
    On(Cpus),
}

impl Setting {
    /// The CPUs, `None` when off.
    pub fn cpus(&self) -> Option<Cpus> {
        match self {
            Setting::Off => None,
            Setting::On(c) => Some(c.clone()),
        }
    }
}

impl FromStr for Setting {
    type Err = String;

    /// `off`, else [`Cpus`]'s `all` or list.
    fn from_str(s: &str) -> Result<Setting, String> {
        if s.trim() == "off" {
            return Ok(Setting::Off);
        }
        s.parse()
            .map(Setting::On)
            .map_err(|e: String| format!("{e}; or off"))
    }
}

impl fmt::Display for Cpus {
    /// `all`, or the list with its runs as ranges: `0-3,8`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Cpus::All => f.write_str("all"),
            Cpus::List(list) => f.write_str(&ranges(list)),
        }
    }
}

/// `list` (ascending) with its runs as ranges: `0-3,8`.
pub fn ranges(list: &[usize]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < list.len() {
        let mut j = i;
        while j + 1 < list.len() && list[j + 1] == list[j] + 1 {
            j += 1;
        }
        parts.push(if i == j {
            list[i].to_string()
        } else {
            format!("{}-{}", list[i], list[j])
        });
        i = j + 1;
    }
    parts.join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_lists_parse_as_taskset_writes_them() {
        assert_eq!("all".parse(), Ok(Cpus::All));
        assert_eq!(" 3 ".parse(), Ok(Cpus::List(vec![3])));
        assert_eq!("8,0-2,1".parse(), Ok(Cpus::List(vec![0, 1, 2, 8])));
        for (bad, why) in [
            ("", "no CPU number"),
            ("x", "no CPU number"),
            ("3-1", "runs backwards"),
            ("0-", "no CPU number"),
            ("1024", "past 1023"),
        ] {
            let e = bad.parse::<Cpus>().unwrap_err();
            assert!(e.contains(why), "{bad:?}: {e}");
        }
        assert_eq!(
            "0-3,8,10-11".parse::<Cpus>().unwrap().to_string(),
            "0-3,8,10-11"
        );
        assert_eq!(Cpus::All.to_string(), "all");
    }
}
