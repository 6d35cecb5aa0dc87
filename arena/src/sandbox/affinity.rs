//! CPU affinity per game slot (fastchess's `-use-affinity`, Linux's `sched_setaffinity(2)`): the CPUs a
//! run may use ([`Cpus`], the config's `affinity`) are shared out among its game slots, and both bots of
//! a game run on their slot's CPUs only ([`super::Jail::pin`]), so that two games at once do not share
//! a core.
//!
//! With `n` CPUs and `k` slots, slot `i` gets the CPUs `n·i/k .. n·(i+1)/k` of the list; with fewer
//! CPUs than slots, slot `i` gets CPU `i mod n`, and slots share.
//!
//! ```
//! use arena::sandbox::affinity::share;
//! assert_eq!(share(&[0, 1, 2, 3], 2, 1), vec![2, 3]);
//! assert_eq!(share(&[0, 1], 3, 2), vec![0]);
//! ```

use crate::config::affinity::{ranges, Cpus};

/// The CPUs `cpus` names on this machine: [`Cpus::All`] is the arena's own affinity mask.
///
/// # Errors
/// A CPU the arena may not run on (absent, or outside its cpuset), naming the ones it may; the mask
/// that cannot be read.
pub fn resolve(cpus: &Cpus) -> Result<Vec<usize>, String> {
    let allowed = allowed()?;
    match cpus {
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
    use crate::config::affinity::MAX_CPU;

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
        assert_eq!(resolve(&Cpus::All).unwrap(), mine);
        let first = Cpus::List(vec![mine[0]]);
        assert_eq!(resolve(&first).unwrap(), vec![mine[0]]);
        let e = resolve(&Cpus::List(vec![MAX_CPU]));
        if !mine.contains(&MAX_CPU) {
            assert!(e.unwrap_err().contains("not one the arena may run on"));
        }
        let set = cpu_set(&mine).unwrap();
        assert!(mine.iter().all(|&c| set.is_set(c).unwrap()));
    }
}
