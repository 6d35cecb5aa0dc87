//! A bot's resource limits, resolved from the config (`[limits]`, then the bot's own `limits`), and the
//! words a forfeit's detail uses for them.

use crate::config::LimitsConfig;

/// The limits of one bot's processes during one game; `None` is no limit. Built by
/// [`Limits::resolve`]: the bot's keys, then the tournament's, then the defaults ([`Limits::DEFAULT`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Limits {
    /// Memory of the process tree, MiB (cgroup `memory.max`, else `RLIMIT_AS` per process).
    pub memory_mb: Option<u64>,
    /// Processes and threads of the tree (cgroup `pids.max`, else `RLIMIT_NPROC`).
    pub processes: Option<u64>,
    /// CPU time per process, s (`RLIMIT_CPU`).
    pub cpu_s: Option<u64>,
    /// Largest file written, MiB (`RLIMIT_FSIZE`).
    pub file_mb: Option<u64>,
    /// Open file descriptors per process (`RLIMIT_NOFILE`).
    pub open_files: Option<u64>,
    /// Size of each writable folder in the bubblewrap sandbox (its `HOME` and working folder, `/tmp`,
    /// `/dev/shm`: each a tmpfs of this size, in memory the memory cgroup counts), MiB.
    pub disk_mb: Option<u64>,
}

impl Limits {
    /// The defaults of every key left out: 1024 MiB, 128 processes, no CPU limit (the clock bounds a
    /// bot's thinking and an idle bot is suspended), 64 MiB files, 1024 open files, 256 MiB writable
    /// folders. Core dumps are always off.
    pub const DEFAULT: Limits = Limits {
        memory_mb: Some(1024),
        processes: Some(128),
        cpu_s: None,
        file_mb: Some(64),
        open_files: Some(1024),
        disk_mb: Some(256),
    };

    /// No limit at all (for the arena's own measurements).
    pub const NONE: Limits = Limits {
        memory_mb: None,
        processes: None,
        cpu_s: None,
        file_mb: None,
        open_files: None,
        disk_mb: None,
    };

    /// The limits of a bot: each key from `bot` if it sets it, else from `tournament`, else the default;
    /// a value of 0 is no limit.
    ///
    /// # Errors
    /// A value so large it overflows bytes (memory or file size over 2^44 MiB), or an `open_files` or
    /// `processes` of 1 or 2, with which no bot could start.
    pub fn resolve(
        tournament: &LimitsConfig,
        bot: Option<&LimitsConfig>,
    ) -> Result<Limits, String> {
        let pick = |get: fn(&LimitsConfig) -> Option<u64>, default: Option<u64>| match bot
            .and_then(get)
            .or_else(|| get(tournament))
        {
            Some(0) => None,
            Some(v) => Some(v),
            None => default,
        };
        let d = Limits::DEFAULT;
        let limits = Limits {
            memory_mb: pick(|l| l.memory_mb, d.memory_mb),
            processes: pick(|l| l.processes, d.processes),
            cpu_s: pick(|l| l.cpu_s, d.cpu_s),
            file_mb: pick(|l| l.file_mb, d.file_mb),
            open_files: pick(|l| l.open_files, d.open_files),
            disk_mb: pick(|l| l.disk_mb, d.disk_mb),
        };
        const MAX_MB: u64 = 1 << 44;
        for (key, v) in [
            ("memory_mb", limits.memory_mb),
            ("file_mb", limits.file_mb),
            ("disk_mb", limits.disk_mb),
        ] {
            if v.is_some_and(|v| v > MAX_MB) {
                return Err(format!(
                    "limits: {key} = {} is more than {MAX_MB}",
                    v.unwrap_or(0)
                ));
            }
        }
        for (key, v) in [
            ("processes", limits.processes),
            ("open_files", limits.open_files),
        ] {
            if v.is_some_and(|v| v < 3) {
                return Err(format!(
                    "limits: {key} = {} is too small for any process to start (0 turns it off)",
                    v.unwrap_or(0)
                ));
            }
        }
        Ok(limits)
    }

    /// Bytes of the memory limit.
    pub fn memory_bytes(&self) -> Option<u64> {
        self.memory_mb.map(|m| m << 20)
    }

    /// Bytes of the file size limit.
    pub fn file_bytes(&self) -> Option<u64> {
        self.file_mb.map(|m| m << 20)
    }

    /// Bytes of each writable folder in the sandbox.
    pub fn disk_bytes(&self) -> Option<u64> {
        self.disk_mb.map(|m| m << 20)
    }
}

impl std::fmt::Display for Limits {
    /// `memory 1024 MiB, processes 128, cpu off, files 64 MiB, open files 1024` (the run's fingerprint and
    /// `arena check` show this), then `, disk 16 MiB` when the writable folders' size is not the default
    /// (so that a run recorded before that key existed resumes under the default).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let show = |v: Option<u64>, unit: &str| match v {
            Some(v) => format!("{v}{unit}"),
            None => "off".to_string(),
        };
        write!(
            f,
            "memory {}, processes {}, cpu {}, files {}, open files {}",
            show(self.memory_mb, " MiB"),
            show(self.processes, ""),
            show(self.cpu_s, " s"),
            show(self.file_mb, " MiB"),
            show(self.open_files, "")
        )?;
        if self.disk_mb != Limits::DEFAULT.disk_mb {
            write!(f, ", disk {}", show(self.disk_mb, " MiB"))?;
        }
        Ok(())
    }
}

/// The limit a bot ran into, for a forfeit's detail: `memory limit 256 MiB`, `process limit 64`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LimitHit {
    /// The memory limit, MiB.
    Memory(u64),
    /// The process limit.
    Processes(u64),
    /// The CPU time limit, s.
    Cpu(u64),
    /// The file size limit, MiB.
    FileSize(u64),
}

impl std::fmt::Display for LimitHit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LimitHit::Memory(mb) => write!(f, "memory limit {mb} MiB"),
            LimitHit::Processes(n) => write!(f, "process limit {n}"),
            LimitHit::Cpu(s) => write!(f, "cpu time limit {s} s"),
            LimitHit::FileSize(mb) => write!(f, "file size limit {mb} MiB"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bot_s_keys_override_the_tournament_s_which_override_the_defaults() {
        let tournament = LimitsConfig {
            memory_mb: Some(256),
            processes: Some(0),
            ..LimitsConfig::default()
        };
        let bot = LimitsConfig {
            memory_mb: Some(512),
            cpu_s: Some(30),
            ..LimitsConfig::default()
        };
        let l = Limits::resolve(&tournament, Some(&bot)).unwrap();
        assert_eq!(l.memory_mb, Some(512));
        assert_eq!(l.processes, None, "0 turns a limit off");
        assert_eq!(l.cpu_s, Some(30));
        assert_eq!(l.file_mb, Limits::DEFAULT.file_mb);
        assert_eq!(l.memory_bytes(), Some(512 << 20));
        let l = Limits::resolve(&tournament, None).unwrap();
        assert_eq!(l.memory_mb, Some(256));
        assert_eq!(
            Limits::resolve(&LimitsConfig::default(), None).unwrap(),
            Limits::DEFAULT
        );
        let tiny = LimitsConfig {
            open_files: Some(2),
            ..LimitsConfig::default()
        };
        assert!(Limits::resolve(&tiny, None)
            .unwrap_err()
            .contains("open_files = 2"));
    }

    #[test]
    fn limits_read_as_words() {
        assert_eq!(
            Limits::DEFAULT.to_string(),
            "memory 1024 MiB, processes 128, cpu off, files 64 MiB, open files 1024"
        );
        assert_eq!(LimitHit::Memory(256).to_string(), "memory limit 256 MiB");
        assert_eq!(LimitHit::Processes(64).to_string(), "process limit 64");
    }
}
