//! Per-process resource limits (`setrlimit(2)`), set in the bot's process between fork and exec: the
//! layer for what cgroups do not cover (file size, open files, CPU time, core dumps) and the fallback
//! for memory and processes where no cgroup controller is available.

use nix::sys::resource::{setrlimit, Resource};

use super::Limits;

/// The rlimits of one bot process: `(resource, value)`, soft and hard alike except for CPU time, whose
/// hard limit is a second above the soft one (SIGXCPU first, then SIGKILL).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rlimits {
    items: Vec<(Resource, u64, u64)>,
}

impl Rlimits {
    /// The rlimits for `limits`. `memory_by_cgroup` and `processes_by_cgroup` say whether a cgroup
    /// already enforces those two; if not, `RLIMIT_AS` (per process address space, which some runtimes
    /// reserve generously: a JVM may need `memory_mb` raised) and `RLIMIT_NPROC` stand in. `RLIMIT_NPROC`
    /// counts every process of the user, so it is set to the user's present count plus the limit
    /// (`user_processes`), and does not bind root at all.
    pub fn for_limits(
        limits: &Limits,
        memory_by_cgroup: bool,
        processes_by_cgroup: bool,
        user_processes: u64,
    ) -> Rlimits {
        let mut items = vec![(Resource::RLIMIT_CORE, 0, 0)];
        if let Some(b) = limits.file_bytes() {
            items.push((Resource::RLIMIT_FSIZE, b, b));
        }
        if let Some(n) = limits.open_files {
            items.push((Resource::RLIMIT_NOFILE, n, n));
        }
        if let Some(s) = limits.cpu_s {
            items.push((Resource::RLIMIT_CPU, s, s + 1));
        }
        if let (Some(b), false) = (limits.memory_bytes(), memory_by_cgroup) {
            items.push((Resource::RLIMIT_AS, b, b));
        }
        if let (Some(n), false) = (limits.processes, processes_by_cgroup) {
            let n = n.saturating_add(user_processes);
            items.push((Resource::RLIMIT_NPROC, n, n));
        }
        Rlimits { items }
    }

    /// Whether `RLIMIT_AS` stands in for the memory limit.
    pub fn limits_address_space(&self) -> bool {
        self.items.iter().any(|(r, ..)| *r == Resource::RLIMIT_AS)
    }

    /// Sets every limit on the calling process. Called between fork and exec: it makes only
    /// `setrlimit` calls and allocates nothing.
    ///
    /// # Errors
    /// The first limit the kernel refused (e.g. raising a hard limit above the arena's own without
    /// privilege).
    pub fn apply(&self) -> std::io::Result<()> {
        for &(resource, soft, hard) in &self.items {
            // A limit above the arena's own hard limit cannot be set by a normal user: keep theirs.
            let (_, cur_hard) = nix::sys::resource::getrlimit(resource)?;
            let hard = hard.min(cur_hard);
            setrlimit(resource, soft.min(hard), hard)?;
        }
        Ok(())
    }
}

/// How many processes the arena's user runs now (the base of `RLIMIT_NPROC`, which counts them all).
pub fn user_processes() -> u64 {
    let uid = nix::unistd::getuid().as_raw();
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return 0;
    };
    let mut n = 0;
    for e in dir.flatten() {
        let name = e.file_name();
        if !name
            .to_str()
            .is_some_and(|s| s.bytes().all(|b| b.is_ascii_digit()))
        {
            continue;
        }
        use std::os::unix::fs::MetadataExt;
        if e.metadata().is_ok_and(|m| m.uid() == uid) {
            n += 1;
        }
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cgroups_take_memory_and_processes_off_the_rlimits() {
        let l = Limits {
            memory_mb: Some(256),
            processes: Some(64),
            cpu_s: Some(10),
            file_mb: Some(1),
            open_files: Some(100),
            disk_mb: None,
        };
        let both = Rlimits::for_limits(&l, true, true, 7);
        assert!(!both.limits_address_space());
        assert_eq!(
            both.items,
            vec![
                (Resource::RLIMIT_CORE, 0, 0),
                (Resource::RLIMIT_FSIZE, 1 << 20, 1 << 20),
                (Resource::RLIMIT_NOFILE, 100, 100),
                (Resource::RLIMIT_CPU, 10, 11),
            ]
        );
        let neither = Rlimits::for_limits(&l, false, false, 7);
        assert!(neither.limits_address_space());
        assert!(neither
            .items
            .contains(&(Resource::RLIMIT_AS, 256 << 20, 256 << 20)));
        assert!(neither.items.contains(&(Resource::RLIMIT_NPROC, 71, 71)));
        // Only core dumps are always off.
        assert_eq!(
            Rlimits::for_limits(&Limits::NONE, false, false, 0).items,
            vec![(Resource::RLIMIT_CORE, 0, 0)]
        );
    }
}
