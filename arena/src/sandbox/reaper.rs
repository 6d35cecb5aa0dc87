//! The arena as a child subreaper (`PR_SET_CHILD_SUBREAPER`): a bot's descendants whose parent dies —
//! a double-forked daemon, `setsid` or not — become the arena's children instead of init's, so the arena
//! can find them, kill them when the game ends, and reap them. The fallback for machines without cgroups,
//! and the reaper of what `cgroup.kill` killed.
//!
//! Only the arena's own children are ever waited for, by pid, and never a bot's main process, which its
//! `tokio::process::Child` waits for (a `waitpid(-1)` would steal that status).

use std::collections::{HashMap, HashSet};
use std::sync::Mutex;

use nix::sys::signal::{kill, Signal};
use nix::sys::wait::{waitpid, WaitPidFlag};
use nix::unistd::Pid;

/// One process as `/proc/<pid>/stat` shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProcInfo {
    pub pid: i32,
    /// `R`, `S`, `Z`, ….
    pub state: char,
    pub ppid: i32,
    pub pgrp: i32,
    pub session: i32,
}

/// Every process the arena can see.
pub fn snapshot() -> Vec<ProcInfo> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
        .filter_map(|pid| {
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
            parse_stat(pid, &stat)
        })
        .collect()
}

/// Parses `/proc/<pid>/stat`: the fields after the command name (which may hold spaces and parentheses,
/// hence the last `)`).
pub fn parse_stat(pid: i32, stat: &str) -> Option<ProcInfo> {
    let rest = stat.rsplit_once(')')?.1;
    let mut f = rest.split_whitespace();
    let state = f.next()?.chars().next()?;
    let ppid = f.next()?.parse().ok()?;
    let pgrp = f.next()?.parse().ok()?;
    let session = f.next()?.parse().ok()?;
    Some(ProcInfo {
        pid,
        state,
        ppid,
        pgrp,
        session,
    })
}

/// Makes the arena a child subreaper. Returns whether the kernel took it (Linux 3.4 and later).
pub fn become_subreaper() -> bool {
    #[cfg(target_os = "linux")]
    {
        nix::sys::prctl::set_child_subreaper(true).is_ok()
    }
    #[cfg(not(target_os = "linux"))]
    false
}

/// The arena's bookkeeping of its bots' main processes, so that their escaped descendants can be told
/// from them.
#[derive(Debug, Default)]
pub struct Reaper {
    /// Main process → its process group, for every bot process not yet waited for by its owner.
    live: Mutex<HashMap<i32, i32>>,
}

impl Reaper {
    /// The process's one reaper. Waiting and adopting are per process, not per containment: two
    /// reapers would each take the other's processes for orphans (to kill and to reap), as a run's
    /// bots and the referee processes of its game, or the competitions of a server, would be.
    pub fn process() -> &'static Reaper {
        static REAPER: std::sync::OnceLock<Reaper> = std::sync::OnceLock::new();
        REAPER.get_or_init(Reaper::default)
    }

    /// Records a bot's main process (its process group is its pid).
    pub fn register(&self, pid: i32) {
        if let Ok(mut live) = self.live.lock() {
            live.insert(pid, pid);
        }
    }

    /// Forgets a bot's main process once its owner has waited for it.
    pub fn unregister(&self, pid: i32) {
        if let Ok(mut live) = self.live.lock() {
            live.remove(&pid);
        }
    }

    fn live(&self) -> HashMap<i32, i32> {
        self.live.lock().map(|l| l.clone()).unwrap_or_default()
    }

    /// Kills, without cgroups, every process of the bot whose main process is `root`: its descendants
    /// (walked by parent links while they last), its process group, and the orphans the arena inherited
    /// that belong to no running bot (a daemon that left its process group with `setsid` cannot be told
    /// apart, so every such orphan is killed at the end of each game). Repeats until a pass finds none,
    /// so a tree that forks while it is killed ends too.
    pub fn kill_tree(&self, root: i32) {
        let me = std::process::id() as i32;
        for _ in 0..50 {
            let live = self.live();
            let others: HashSet<i32> = live.keys().copied().filter(|&p| p != root).collect();
            let other_groups: HashSet<i32> =
                others.iter().filter_map(|p| live.get(p)).copied().collect();
            let procs = snapshot();
            let mut children: HashMap<i32, Vec<i32>> = HashMap::new();
            for p in &procs {
                children.entry(p.ppid).or_default().push(p.pid);
            }
            let mut doomed: HashSet<i32> = HashSet::new();
            let mut stack = vec![root];
            while let Some(p) = stack.pop() {
                if doomed.insert(p) {
                    stack.extend(children.get(&p).into_iter().flatten().copied());
                }
            }
            for p in &procs {
                let orphan =
                    p.ppid == me && !others.contains(&p.pid) && !other_groups.contains(&p.pgrp);
                if p.pgrp == root || orphan {
                    doomed.insert(p.pid);
                    stack.push(p.pid);
                }
            }
            // Their descendants too.
            while let Some(p) = stack.pop() {
                for &c in children.get(&p).into_iter().flatten() {
                    if doomed.insert(c) {
                        stack.push(c);
                    }
                }
            }
            doomed.remove(&me);
            doomed.retain(|&p| p > 1 && !others.contains(&p));
            let alive: Vec<i32> = procs
                .iter()
                .filter(|p| doomed.contains(&p.pid) && p.state != 'Z')
                .map(|p| p.pid)
                .collect();
            if alive.is_empty() {
                break;
            }
            for pid in alive {
                let _ = kill(Pid::from_raw(pid), Signal::SIGKILL);
            }
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        self.reap();
    }

    /// Waits for (reaps) every zombie child of the arena that is not a bot's main process: the
    /// descendants it inherited as a subreaper. Returns how many it reaped.
    ///
    /// It first peeks (`waitid` with `WNOWAIT`, which leaves the zombie in place) so that the common
    /// case, no zombie at all, costs one system call; only when the first zombie is a bot's main process,
    /// which its owner must reap, does it read the whole process table to find the others.
    pub fn reap(&self) -> usize {
        use nix::sys::wait::{waitid, Id, WaitStatus};
        let mut n = 0;
        loop {
            let peek = waitid(
                Id::All,
                WaitPidFlag::WEXITED | WaitPidFlag::WNOHANG | WaitPidFlag::WNOWAIT,
            );
            let pid = match peek {
                Ok(WaitStatus::Exited(pid, _) | WaitStatus::Signaled(pid, ..)) => pid,
                _ => return n,
            };
            if self.live().contains_key(&pid.as_raw()) {
                break;
            }
            if matches!(
                waitpid(pid, Some(WaitPidFlag::WNOHANG)),
                Ok(s) if s.pid().is_some()
            ) {
                n += 1;
            } else {
                return n;
            }
        }
        let me = std::process::id() as i32;
        let live = self.live();
        for p in snapshot() {
            if p.ppid == me && p.state == 'Z' && !live.contains_key(&p.pid) {
                if let Ok(status) = waitpid(Pid::from_raw(p.pid), Some(WaitPidFlag::WNOHANG)) {
                    if status.pid().is_some() {
                        n += 1;
                    }
                }
            }
        }
        n
    }

    /// The arena's children that are not bots' main processes and still run (escaped descendants not yet
    /// killed): for tests and `arena doctor`.
    pub fn strays(&self) -> Vec<i32> {
        let me = std::process::id() as i32;
        let live = self.live();
        snapshot()
            .into_iter()
            .filter(|p| p.ppid == me && p.state != 'Z' && !live.contains_key(&p.pid))
            .map(|p| p.pid)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stat_lines_parse_even_with_odd_command_names() {
        let p = parse_stat(42, "42 (a b) c)) S 7 42 40 0 -1 4194560 93 0 0").unwrap();
        assert_eq!(
            p,
            ProcInfo {
                pid: 42,
                state: 'S',
                ppid: 7,
                pgrp: 42,
                session: 40
            }
        );
        assert_eq!(parse_stat(1, "garbage"), None);
    }

    #[test]
    fn the_snapshot_sees_this_process() {
        let me = std::process::id() as i32;
        let procs = snapshot();
        let mine = procs
            .iter()
            .find(|p| p.pid == me)
            .expect("this test in /proc");
        assert_eq!(mine.ppid, nix::unistd::getppid().as_raw());
    }
}
