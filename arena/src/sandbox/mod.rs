//! Containment of bot processes, in layers probed once per run (`arena doctor` shows them), as the IOI
//! judge isolate and nsjail do it for untrusted programs:
//!
//! - **cgroups** ([`cgroup`]): one per bot process per game. `cgroup.kill` ends the whole tree with the
//!   game, `setsid` daemons included; `memory.max` and `pids.max` cap it; `cgroup.freeze` stops the idle
//!   bot. Used wherever the machine lets the arena create cgroups (root, or a delegated subtree).
//! - **rlimits** ([`rlimit`]): file size, open files, CPU time and no core dumps always; address space and
//!   process count where no cgroup controller covers memory or processes.
//! - **subreaper** ([`reaper`]): the arena inherits every orphaned descendant of its bots, so even without
//!   cgroups it can find and kill them, and it reaps them.
//! - **the parent-death signal**: a bot's main process dies with the arena, even a SIGKILLed one.
//! - **bubblewrap** ([`bubblewrap`]): by default for every bot given as a `command`; built-in bots only
//!   when a config asks for `sandbox = "bubblewrap"`.
//!
//! [`Containment`] is the run's view of these layers; [`Jail`] confines one bot process for one game and
//! is owned by its [`crate::game::process::BotProcess`].

pub mod affinity;
pub mod bubblewrap;
pub mod cgroup;
pub mod launch;
pub mod limits;
mod spawn;

pub use spawn::{confine, describe_exit, own_group};
pub mod reaper;
pub mod rlimit;

use std::ffi::OsString;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitStatus;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

pub use limits::{LimitHit, Limits};

use crate::config::SandboxKind;
use cgroup::{BotCgroup, Cgroups, Version};
use launch::Launch;
use reaper::Reaper;
use rlimit::Rlimits;

/// The containment layers of this machine, probed once per run, and the run's bookkeeping of its bots'
/// processes. Dropping it removes the run's cgroup folders.
#[derive(Debug)]
pub struct Containment {
    /// The cgroups the arena may use.
    pub cgroups: Cgroups,
    /// Whether the arena is a child subreaper.
    pub subreaper: bool,
    /// The `bwrap` executable, if found.
    pub bwrap: Option<PathBuf>,
    /// Whether that `bwrap` takes `--size` ([`bubblewrap::sizes`]).
    pub bwrap_sizes: bool,
    /// What the sandbox covers under the system folders ([`bubblewrap::private_entries`]), found when
    /// the run's first sandboxed bot starts (a run of built-in bots never looks).
    private: std::sync::OnceLock<Vec<PathBuf>>,
    /// Whether `bwrap` starts a sandbox here ([`bubblewrap::works`]), probed once: a second probe
    /// while games run could lose its child to the subreaper's end-of-game sweep, which takes the
    /// arena's unregistered children for inherited orphans.
    bwrap_works: std::sync::OnceLock<Result<(), String>>,
    /// Whether the arena runs as root (`RLIMIT_NPROC` does not bind root).
    pub root: bool,
    /// The bots' (and referees') main processes, to tell escaped descendants from them: the process's
    /// one reaper ([`Reaper::process`]).
    pub reaper: &'static Reaper,
    /// Numbers the bots' cgroups.
    serial: AtomicU64,
}

impl Containment {
    /// Probes the machine and takes the layers it offers: creates the run's cgroup folders where it may,
    /// and makes the arena a child subreaper. Never fails; [`Containment::report`] says what is missing.
    pub fn probe() -> Arc<Containment> {
        Containment::probe_layers(true)
    }

    /// [`Containment::probe`], with cgroups left out when `cgroups` is false (the fallback layers alone:
    /// rlimits, the subreaper, SIGSTOP), as `ARENA_NO_CGROUPS=1` does for a whole run.
    pub fn probe_layers(cgroups: bool) -> Arc<Containment> {
        let cgroups = if cgroups {
            Cgroups::probe()
        } else {
            Cgroups::default()
        };
        Containment::with_layers(cgroups, reaper::become_subreaper(), bubblewrap::find())
    }

    /// No layer but process groups and the parent-death signal (for the arena's own benchmarks).
    pub fn bare() -> Arc<Containment> {
        Containment::with_layers(Cgroups::default(), false, None)
    }

    /// The containment of referee programs (`crate::referee_programs`): bubblewrap when installed, no
    /// cgroups, and neither adopting nor reaping orphans, which would take the processes of whatever
    /// else runs in this process for orphans (a test reading a results folder beside running arenas).
    pub fn for_referees() -> Arc<Containment> {
        Containment::with_layers(Cgroups::default(), false, bubblewrap::find())
    }

    fn with_layers(cgroups: Cgroups, subreaper: bool, bwrap: Option<PathBuf>) -> Arc<Containment> {
        Arc::new(Containment {
            cgroups,
            subreaper,
            bwrap_sizes: bwrap.as_deref().is_some_and(bubblewrap::sizes),
            private: std::sync::OnceLock::new(),
            bwrap_works: std::sync::OnceLock::new(),
            bwrap,
            root: nix::unistd::geteuid().is_root(),
            reaper: Reaper::process(),
            serial: AtomicU64::new(0),
        })
    }

    /// Reaps the orphans this process adopted ([`Reaper::reap`]); nothing unless it adopts them (a
    /// subreaper): without, every child has an owner that waits for it.
    fn reap(&self) {
        if self.subreaper {
            self.reaper.reap();
        }
    }

    /// Whether `processes` limits can be enforced: by a pids cgroup, or by `RLIMIT_NPROC` for a user
    /// that is not root.
    pub fn enforces_processes(&self) -> bool {
        self.cgroups.pids.is_some() || !self.root
    }

    /// Checks that this machine can contain `bots` (a plan's, [`crate::plan::Plan::confined`]) as they ask, before any game (the caller
    /// prints [`Containment::warning`] when the config turned isolation off).
    ///
    /// # Errors
    /// One line naming the missing layer and how to get it: a sandboxed bot (every executable by default)
    /// without a working `bwrap`, or a process limit the config sets explicitly that neither a pids cgroup
    /// nor `RLIMIT_NPROC` can enforce (root without a pids controller).
    pub fn check(&self, bots: &[Confined<'_>], explicit_processes: bool) -> Result<(), String> {
        let boxed: Vec<&str> = bots
            .iter()
            .filter(|b| b.sandbox == SandboxKind::Bubblewrap)
            .map(|b| b.name)
            .collect();
        if !boxed.is_empty() {
            let usable = match &self.bwrap {
                None => Err("bwrap is not on PATH".to_string()),
                Some(bwrap) => self
                    .bwrap_works
                    .get_or_init(|| bubblewrap::works(bwrap, self.bwrap_sizes))
                    .clone(),
            };
            if let Err(why) = usable {
                return Err(format!(
                    "bots {} must run isolated (sandbox = \"bubblewrap\", the default for a bot given \
                     as a command), and this machine cannot isolate them: {why}. Install bubblewrap \
                     (Debian, Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap) and \
                     allow user namespaces or run as root; or set sandbox = \"none\" in the config to \
                     run them unisolated (they can then harm each other and the results). `arena doctor` \
                     shows the layers",
                    boxed.join(", ")
                ));
            }
        }
        // A sandboxed bot's `dir` is shown to it whole: not `/`, a top-level folder or the home folder.
        if let Some((bot, dir)) = bots
            .iter()
            .filter(|b| b.sandbox == SandboxKind::Bubblewrap)
            .find_map(|b| {
                let dir = b.dir?;
                let real = std::fs::canonicalize(dir).ok()?;
                bubblewrap::too_broad(&real).then_some((b, dir))
            })
        {
            return Err(format!(
                "bot {}: dir {} is too broad to show a sandboxed bot (a top-level or home folder): give \
                 it a folder of its own",
                bot.name,
                dir.display()
            ));
        }
        if explicit_processes && bots.iter().any(|b| b.processes) && !self.enforces_processes() {
            return Err(
                "limits: processes cannot be enforced here: no pids cgroup is available and \
                        RLIMIT_NPROC does not bind root (run as another user, or give the arena a \
                        cgroup; `arena doctor` shows the layers)"
                    .into(),
            );
        }
        Ok(())
    }

    /// The warning for bots (a plan's) whose config turned isolation off (`sandbox = "none"`) for bots given as
    /// commands; `None` when every such bot is sandboxed.
    pub fn warning(bots: &[Confined<'_>]) -> Option<String> {
        let bare: Vec<&str> = bots
            .iter()
            .filter(|b| !b.builtin && b.sandbox == SandboxKind::None)
            .map(|b| b.name)
            .collect();
        (!bare.is_empty()).then(|| {
            format!(
                "warning: sandbox = \"none\": bots {} run unisolated: they can signal each other and the \
                 arena, read each other's files and the arena's environment, and write into the results",
                bare.join(", ")
            )
        })
    }

    /// A jail for one process of a bot (or a referee program) of `limits` and `sandbox`: its cgroups (named `<n>-<label>`), its rlimits, and for a
    /// sandboxed bot its working folder `<work_root>/<label>` (created now, removed by
    /// [`Jail::finish`]).
    ///
    /// # Errors
    /// A cgroup or folder that cannot be created, or a sandboxed bot without `work_root`.
    pub fn jail(
        self: &Arc<Self>,
        limits: &Limits,
        sandbox: SandboxKind,
        label: &str,
        work_root: Option<&Path>,
        hide: Option<&Path>,
    ) -> Result<Jail, String> {
        let n = self.serial.fetch_add(1, Ordering::Relaxed) + 1;
        let safe: String = label
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || "-_.".contains(c) {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        let cgroup = if self.cgroups.any() {
            Some(self.cgroups.bot(
                &format!("{n}-{safe}"),
                limits.memory_bytes(),
                limits.processes,
            )?)
        } else {
            None
        };
        let memory_by_cgroup = self.cgroups.memory.is_some();
        let processes_by_cgroup = self.cgroups.pids.is_some();
        let users = if processes_by_cgroup || self.root || limits.processes.is_none() {
            0
        } else {
            rlimit::user_processes()
        };
        let rlimits = Rlimits::for_limits(limits, memory_by_cgroup, processes_by_cgroup, users);
        let mut jail = Jail {
            containment: Arc::clone(self),
            limits: *limits,
            cgroup,
            rlimits,
            sandbox: None,
            pid: None,
            killed: Default::default(),
            cpus: None,
        };
        if sandbox == SandboxKind::Bubblewrap {
            let bwrap = self
                .bwrap
                .clone()
                .ok_or("sandbox = \"bubblewrap\" needs bwrap, which is not on PATH")?;
            let root =
                work_root.ok_or("a sandboxed bot needs a results folder for its work folder")?;
            let work = root.join(&safe);
            std::fs::create_dir_all(&work)
                .map_err(|e| format!("creating {}: {e}", work.display()))?;
            // Real paths, so that a results folder reached through a link or `..` is still covered.
            let work =
                std::fs::canonicalize(&work).map_err(|e| format!("{}: {e}", work.display()))?;
            jail.sandbox = Some(Sandbox {
                bwrap,
                work,
                hide: hide.and_then(|h| std::fs::canonicalize(h).ok()),
            });
        }
        Ok(jail)
    }

    /// What `arena doctor` prints: each layer, whether it is in use, and why not.
    pub fn report(&self) -> String {
        let mut s = String::new();
        let cg = &self.cgroups;
        let yes_no = |b: bool| if b { "yes" } else { "no" };
        let place = |p: &Option<cgroup::Place>| match p {
            Some(p) => format!(
                "cgroup {} ({})",
                if p.version == Version::V2 { "v2" } else { "v1" },
                p.run_dir.display()
            ),
            None => "none".into(),
        };
        let _ = writeln!(
            s,
            "arena doctor: the containment layers of this machine (Linux only)"
        );
        let _ = writeln!(
            s,
            "  process tree ends with the game: {}",
            match (&cg.v2, cg.v2_kill) {
                (Some(d), true) => format!("cgroup v2 cgroup.kill ({})", d.display()),
                (Some(d), false) => format!(
                    "cgroup v2 without cgroup.kill (Linux < 5.14): each listed process is killed ({})",
                    d.display()
                ),
                (None, _) if self.subreaper =>
                    "child subreaper: inherited descendants are killed at each game's end (no cgroup)"
                        .into(),
                (None, _) => "process group only (no cgroup, no subreaper)".into(),
            }
        );
        let _ = writeln!(
            s,
            "  memory limit:                    {}",
            match &cg.memory {
                Some(_) => place(&cg.memory),
                None => "RLIMIT_AS per process (address space; no memory cgroup)".into(),
            }
        );
        let _ = writeln!(
            s,
            "  process limit:                   {}",
            match (&cg.pids, self.root) {
                (Some(_), _) => place(&cg.pids),
                (None, false) => "RLIMIT_NPROC (counts all of the user's processes)".into(),
                (None, true) =>
                    "NOT ENFORCED: no pids cgroup, and RLIMIT_NPROC does not bind root".into(),
            }
        );
        let _ = writeln!(
            s,
            "  idle bot suspended by:           {}",
            match &cg.freezer {
                Some(p) if p.version == Version::V2 =>
                    format!("cgroup.freeze ({})", p.run_dir.display()),
                Some(p) => format!("cgroup v1 freezer ({})", p.run_dir.display()),
                None => "SIGSTOP/SIGCONT to the bot's process group".into(),
            }
        );
        let _ = writeln!(
            s,
            "  file size, open files, CPU time: rlimits; core dumps off"
        );
        let _ = writeln!(
            s,
            "  child subreaper:                 {}",
            yes_no(self.subreaper)
        );
        let _ = writeln!(
            s,
            "  parent-death signal:             yes (a bot's main process dies with the arena)"
        );
        let bwrap = match &self.bwrap {
            Some(b) => bubblewrap::works(b, self.bwrap_sizes).map(|()| b.display().to_string()),
            None => Err("not installed (Debian: apt-get install bubblewrap)".into()),
        };
        let _ = writeln!(
            s,
            "  bubblewrap sandbox:              {}",
            match &bwrap {
                Ok(b) => format!("available ({b})"),
                Err(e) => format!("NOT usable: {e}"),
            }
        );
        let _ = writeln!(
            s,
            "  writable folders (sandboxed):    {}",
            match (&bwrap, self.bwrap_sizes) {
                (Ok(_), true) =>
                    "HOME, /tmp and /dev/shm each a tmpfs of [limits] disk_mb (default \
                                  256 MiB): nothing reaches the host's disk",
                (Ok(_), false) =>
                    "NOT CAPPED: this bwrap has no --size (bubblewrap 0.8, Debian 12); \
                                   HOME is a host folder and /tmp a tmpfs of half the RAM",
                (Err(_), _) => "no sandbox",
            }
        );
        let _ = writeln!(
            s,
            "  bots isolated from each other:   {}",
            match &bwrap {
                Ok(_) =>
                    "yes: each bot given as a command runs in its own bubblewrap sandbox (the \
                          default; built-in bots run unsandboxed)"
                        .to_string(),
                Err(_) =>
                    "NO: `arena run` refuses a config with a bot given as a command unless it sets \
                           sandbox = \"none\" (bots can then harm each other and the results)"
                        .to_string(),
            }
        );
        let _ = writeln!(
            s,
            "  running as root:                 {}",
            yes_no(self.root)
        );
        for note in &cg.notes {
            let _ = writeln!(s, "  note: {note}");
        }
        let _ = writeln!(s, "  default limits per bot and game: {}", Limits::DEFAULT);
        s
    }
}

impl Drop for Containment {
    fn drop(&mut self) {
        self.reap();
        self.cgroups.remove();
    }
}

/// A bubblewrap sandbox of one bot process.
#[derive(Debug)]
struct Sandbox {
    bwrap: PathBuf,
    /// Its writable working folder, removed after the game.
    work: PathBuf,
    /// The results folder hidden from it.
    hide: Option<PathBuf>,
}

/// What [`Containment::check`] needs to know of a bot: its name, its sandbox, its `dir`, whether it
/// has a process limit, and whether it is a built-in bot.
#[derive(Clone, Copy, Debug)]
pub struct Confined<'a> {
    pub name: &'a str,
    pub sandbox: SandboxKind,
    pub dir: Option<&'a Path>,
    /// A `processes` limit is set.
    pub processes: bool,
    pub builtin: bool,
}

/// The confinement of one bot process for one game: its cgroups, rlimits and sandbox. Owned by the
/// [`crate::game::process::BotProcess`] that runs in it.
#[derive(Debug)]
pub struct Jail {
    containment: Arc<Containment>,
    limits: Limits,
    cgroup: Option<BotCgroup>,
    rlimits: Rlimits,
    sandbox: Option<Sandbox>,
    /// The main process, once started.
    pid: Option<i32>,
    /// Whether [`Jail::kill`] has run since the main process was seen to exit.
    killed: std::sync::atomic::AtomicBool,
    /// The CPUs the bot's processes may run on ([`Jail::pin`]); `None`: any.
    cpus: Option<nix::sched::CpuSet>,
}

/// What to execute for a bot: the program, its arguments and working directory, after the sandbox (if
/// any) has wrapped them.
#[derive(Debug)]
pub struct Exec {
    pub program: PathBuf,
    pub args: Vec<OsString>,
    pub dir: Option<PathBuf>,
    /// A sandboxed bot: start the program (bwrap) with an empty environment (the bot could read it as
    /// its pid 1), in a session of its own (no controlling terminal to push keystrokes into, CVE-2017-5226).
    pub sandboxed: bool,
}

impl Jail {
    /// A jail with no layer of its own (for the arena's benchmarks): the process group and the
    /// parent-death signal still apply.
    pub fn none(containment: &Arc<Containment>) -> Jail {
        Jail {
            containment: Arc::clone(containment),
            limits: Limits::NONE,
            cgroup: None,
            rlimits: Rlimits::default(),
            sandbox: None,
            pid: None,
            killed: Default::default(),
            cpus: None,
        }
    }

    /// The command that starts `launch` in this jail.
    pub fn exec(&self, launch: &Launch) -> Exec {
        match &self.sandbox {
            None => Exec {
                program: launch.program.clone(),
                args: launch.args.iter().map(OsString::from).collect(),
                dir: launch.dir.clone(),
                sandboxed: false,
            },
            Some(sb) => {
                // Real paths, as the sandbox shows them.
                let real_dir = launch
                    .dir
                    .as_deref()
                    .and_then(|d| std::fs::canonicalize(d).ok());
                let dir = real_dir.as_deref().or(launch.dir.as_deref());
                let args = bubblewrap::absolute_args(&launch.args, dir);
                let visible = bubblewrap::visible(&launch.program, &args, dir);
                let c = &self.containment;
                Exec {
                    program: sb.bwrap.clone(),
                    args: bubblewrap::command_line(
                        &launch.program,
                        &args,
                        &bubblewrap::Folders {
                            work: &sb.work,
                            cwd: dir,
                            hide: sb.hide.as_deref(),
                            visible: &visible,
                            tmpfs_bytes: match (
                                self.limits.memory_bytes(),
                                self.limits.disk_bytes(),
                            ) {
                                (Some(m), Some(d)) => Some(m.min(d)),
                                (m, d) => m.or(d),
                            }
                            .filter(|_| c.bwrap_sizes),
                            work_bytes: self.limits.disk_bytes().filter(|_| c.bwrap_sizes),
                            private: c.private.get_or_init(bubblewrap::private_entries),
                        },
                    ),
                    dir: Some(sb.work.clone()),
                    sandboxed: true,
                }
            }
        }
    }

    /// The `cgroup.procs` descriptors the child writes `0` to, between fork and exec.
    pub fn enter_fds(&self) -> Vec<i32> {
        self.cgroup
            .as_ref()
            .map(BotCgroup::enter_fds)
            .unwrap_or_default()
    }

    /// Pins the bot to `cpus` (its main process sets its affinity between fork and exec, and every
    /// process it starts inherits it; [`affinity`]).
    ///
    /// # Errors
    /// A CPU number past the kernel's set.
    pub fn pin(&mut self, cpus: &[usize]) -> Result<(), String> {
        self.cpus = Some(affinity::cpu_set(cpus)?);
        Ok(())
    }

    /// The CPUs of [`Jail::pin`], if any.
    pub fn cpus(&self) -> Option<nix::sched::CpuSet> {
        self.cpus
    }

    /// The rlimits the child sets on itself between fork and exec.
    pub fn rlimits(&self) -> &Rlimits {
        &self.rlimits
    }

    /// Records the started main process (its process group has the same id).
    pub fn started(&mut self, pid: i32) {
        self.pid = Some(pid);
        if let Some(cg) = self.cgroup.as_mut() {
            cg.entered();
        }
        self.containment.reaper.register(pid);
    }

    /// Records that the main process's owner has waited for it.
    pub fn reaped(&self) {
        if let Some(pid) = self.pid {
            self.containment.reaper.unregister(pid);
        }
    }

    /// Stops (`true`) or resumes every process of the bot: its cgroup's freezer, else SIGSTOP/SIGCONT to
    /// its process group.
    pub fn suspend(&self, stopped: bool) {
        if let Some(cg) = self.cgroup.as_ref().filter(|c| c.can_freeze()) {
            if cg.freeze(stopped) {
                return;
            }
        }
        if let Some(pid) = self.pid {
            let sig = if stopped {
                nix::sys::signal::Signal::SIGSTOP
            } else {
                nix::sys::signal::Signal::SIGCONT
            };
            let _ = nix::sys::signal::killpg(nix::unistd::Pid::from_raw(pid), sig);
        }
    }

    /// Kills every process of the bot: its cgroup (escaped descendants included), its process group,
    /// and without a cgroup its descendants and the orphans the arena inherited; then reaps what the
    /// arena inherited.
    pub fn kill(&self) {
        if self.killed.swap(true, Ordering::Relaxed) {
            // Already done: with the main process gone, nothing of the bot can have started since,
            // but an inherited zombie may wait to be reaped.
            self.containment.reap();
            return;
        }
        if let Some(cg) = &self.cgroup {
            cg.kill();
        }
        if let Some(pid) = self.pid {
            let _ = nix::sys::signal::killpg(
                nix::unistd::Pid::from_raw(pid),
                nix::sys::signal::Signal::SIGKILL,
            );
            // A frozen group must be thawed for its processes to die (v1 freezer, SIGSTOP).
            let _ = nix::sys::signal::killpg(
                nix::unistd::Pid::from_raw(pid),
                nix::sys::signal::Signal::SIGCONT,
            );
            if self.cgroup.is_none() && self.containment.subreaper {
                self.containment.reaper.kill_tree(pid);
            }
        }
        self.containment.reap();
    }

    /// The limit the bot ran into, judged from the kernel's counts and the way its main process ended
    /// (`status`; a sandboxed bot's status is bwrap's, which exits with 128 + the signal's number).
    pub fn limit_hit(&self, status: Option<ExitStatus>) -> Option<LimitHit> {
        use std::os::unix::process::ExitStatusExt;
        let l = &self.limits;
        if let Some(cg) = &self.cgroup {
            if cg.hit_memory_limit() {
                return l.memory_mb.map(LimitHit::Memory);
            }
        }
        let signal = status.and_then(|s| {
            s.signal().or_else(|| {
                s.code()
                    .filter(|c| self.sandbox.is_some() && (129..160).contains(c))
                    .map(|c| c - 128)
            })
        });
        // The soft rlimits' signals, whose default action ends the process (the CPU hard limit's SIGKILL
        // comes a second after SIGXCPU, to a bot that caught it).
        match signal {
            Some(s) if s == nix::libc::SIGXCPU => return l.cpu_s.map(LimitHit::Cpu),
            Some(s) if s == nix::libc::SIGXFSZ => return l.file_mb.map(LimitHit::FileSize),
            _ => {}
        }
        if self
            .cgroup
            .as_ref()
            .is_some_and(BotCgroup::hit_process_limit)
        {
            return l.processes.map(LimitHit::Processes);
        }
        None
    }

    /// Whether the memory limit is an address-space rlimit (a bot that runs out then sees failed
    /// allocations, not the OOM killer).
    pub fn memory_as_rlimit(&self) -> bool {
        self.rlimits.limits_address_space()
    }

    /// Ends the jail after the game: kills what is left, removes the bot's cgroups and its sandbox's
    /// work folder.
    pub fn finish(mut self) {
        self.kill();
        self.reaped();
        if let Some(cg) = self.cgroup.take() {
            cg.remove();
        }
        if let Some(sb) = self.sandbox.take() {
            let _ = std::fs::remove_dir_all(&sb.work);
        }
        self.containment.reap();
    }
}
