//! CPU affinity per game slot (fastchess's `-use-affinity`, Linux's `sched_setaffinity(2)`): the CPUs a
//! run may use are shared out among its game slots, and both bots of a game run on their slot's CPUs
//! only, so that two games at once do not share a core.
//!
//! The CPUs are given as `taskset -c` and fastchess write them (`0-3,8`), or as `all`: every CPU the
//! arena itself may run on. With `n` CPUs and `k` slots, slot `i` gets the CPUs
//! `n·i/k .. n·(i+1)/k` of the list; with fewer CPUs than slots, slot `i` gets CPU `i mod n`, and slots
//! share.
//!
//! ```
//! use arena::run::affinity::{share, Cpus};
//! let cpus: Cpus = "0-3,8".parse().unwrap();
//! assert_eq!(cpus, Cpus::List(vec![0, 1, 2, 3, 8]));
//! assert_eq!(share(&[0, 1, 2, 3], 2, 1), vec![2, 3]);
//! assert_eq!(share(&[0, 1], 3, 2), vec![0]);
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
const MAX_CPU: usize = 1023;

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
fn ranges(list: &[usize]) -> String {
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

impl Cpus {
    /// The CPUs this names on this machine: `All` is the arena's own affinity mask.
    ///
    /// # Errors
    /// A CPU the arena may not run on (absent, or outside its cpuset), naming the ones it may; the
    /// mask that cannot be read.
    pub fn resolve(&self) -> Result<Vec<usize>, String> {
        let allowed = allowed()?;
        match self {
            Cpus::All => Ok(allowed),
            Cpus::List(list) => {
                if let Some(c) = list.iter().find(|c| !allowed.contains(c)) {
                    return Err(format!(
                        "affinity: CPU {c} is not one the arena may run on ({})",
                        ranges(&allowed)
                    ));
                }
                Ok(list.clone())
            }
        }
    }
}

/// The CPUs this process may run on (`sched_getaffinity(2)`), ascending.
///
/// # Errors
/// The system call's error.
pub fn allowed() -> Result<Vec<usize>, String> {
    let set = nix::sched::sched_getaffinity(nix::unistd::Pid::from_raw(0))
        .map_err(|e| format!("affinity: reading the arena's CPUs: {e}"))?;
    Ok((0..nix::sched::CpuSet::count())
        .filter(|&c| set.is_set(c).unwrap_or(false))
        .collect())
}

/// Slot `slot`'s share of `cpus` among `slots` slots (see the module's docs); empty when `cpus` is.
pub fn share(cpus: &[usize], slots: usize, slot: usize) -> Vec<usize> {
    let (n, k) = (cpus.len(), slots.max(1));
    if n == 0 {
        return Vec::new();
    }
    if n < k {
        return vec![cpus[slot % n]];
    }
    cpus[n * slot / k..n * (slot + 1) / k].to_vec()
}

/// `cpus` as the kernel's set, for `sched_setaffinity` between fork and exec.
///
/// # Errors
/// A CPU number past the set's size.
pub fn cpu_set(cpus: &[usize]) -> Result<nix::sched::CpuSet, String> {
    let mut set = nix::sched::CpuSet::new();
    for &c in cpus {
        set.set(c).map_err(|e| format!("affinity: CPU {c}: {e}"))?;
    }
    Ok(set)
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

    #[test]
    fn slots_share_the_cpus_without_overlap() {
        let cpus: Vec<usize> = (0..8).collect();
        let shares: Vec<Vec<usize>> = (0..3).map(|i| share(&cpus, 3, i)).collect();
        assert_eq!(shares, vec![vec![0, 1], vec![2, 3, 4], vec![5, 6, 7]]);
        assert_eq!(share(&[4, 6], 2, 0), vec![4]);
        assert_eq!(share(&[4, 6], 2, 1), vec![6]);
        assert_eq!(
            share(&[4, 6], 5, 4),
            vec![4],
            "fewer CPUs than slots: they share"
        );
        assert_eq!(share(&[], 2, 1), Vec::<usize>::new());
    }

    #[test]
    fn the_arena_may_run_on_what_it_reports() {
        let mine = allowed().unwrap();
        assert!(!mine.is_empty());
        assert_eq!(Cpus::All.resolve().unwrap(), mine);
        let first = Cpus::List(vec![mine[0]]);
        assert_eq!(first.resolve().unwrap(), vec![mine[0]]);
        let e = Cpus::List(vec![MAX_CPU]).resolve();
        if !mine.contains(&MAX_CPU) {
            assert!(e.unwrap_err().contains("not one the arena may run on"));
        }
        let set = cpu_set(&mine).unwrap();
        assert!(mine.iter().all(|&c| set.is_set(c).unwrap()));
    }
}
