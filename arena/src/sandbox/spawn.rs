//! What a child of the arena's goes through between fork and exec (its cgroups, CPUs, rlimits, no
//! inherited descriptor, death with the arena), and how its end is told: for bots
//! ([`crate::game::process::BotProcess`]) and referee programs alike.

use std::process::{Command, ExitStatus};

use super::Jail;

/// Sets up, between fork and exec, what confines the child: the parent-death signal, its cgroups, its
/// CPUs, its rlimits, and no file descriptor but its three pipes (`close_inherited_fds`).
pub fn confine(cmd: &mut Command, jail: &Jail) {
    use std::os::unix::process::CommandExt;
    die_with_the_arena(cmd);
    let fds = jail.enter_fds();
    let rlimits = jail.rlimits().clone();
    let cpus = jail.cpus();
    // SAFETY: between fork and exec the closure only makes the system calls sched_setaffinity, write,
    // close_range (or fcntl) and setrlimit (and getrlimit), which are async-signal-safe, on memory
    // allocated before the fork; it allocates nothing.
    unsafe {
        cmd.pre_exec(move || {
            for &fd in &fds {
                // `0`: the writing process itself enters the cgroup, before it runs any code of the bot.
                if nix::libc::write(fd, b"0".as_ptr().cast(), 1) != 1 {
                    return Err(std::io::Error::last_os_error());
                }
            }
            // After entering the cgroup: on kernels before 6.2 a move into a cgroup under a cpuset
            // resets the CPUs a task may use.
            if let Some(set) = &cpus {
                nix::sched::sched_setaffinity(nix::unistd::Pid::from_raw(0), set)?;
            }
            // Before the rlimits: a lower open-files limit would hide descriptors from the fallback.
            close_inherited_fds();
            rlimits.apply()
        });
    }
}

/// Marks every file descriptor from 3 up close-on-exec, between fork and exec: the bot keeps only its
/// stdin, stdout and stderr. Rust opens its own files close-on-exec, but a descriptor the arena
/// inherited (a shell's `7<secret 8>>log`, a service manager's socket) is not, and would reach every
/// bot and the bubblewrap sandbox. `close_range(3, ~0, CLOSE_RANGE_CLOEXEC)` (Linux 5.11); on older
/// kernels `fcntl(FD_CLOEXEC)` on each descriptor below the open-files limit (at most 65,536).
/// Close-on-exec rather than closed: the exec that fails still reports its error through Rust's own
/// close-on-exec pipe. Async-signal-safe system calls only; allocates nothing.
fn close_inherited_fds() {
    use nix::libc;
    const CLOSE_RANGE_CLOEXEC: libc::c_uint = 1 << 2;
    // SAFETY: close_range only changes the flags of this process's descriptors.
    let done = unsafe {
        libc::syscall(
            libc::SYS_close_range,
            3 as libc::c_uint,
            !0 as libc::c_uint,
            CLOSE_RANGE_CLOEXEC,
        )
    } == 0;
    if done {
        return;
    }
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes the struct it is given.
    let max = if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } == 0 {
        limit.rlim_cur.min(65_536) as libc::c_int
    } else {
        1024
    };
    for fd in 3..max {
        // SAFETY: fcntl on a descriptor that may not be open fails with EBADF and changes nothing.
        unsafe {
            let flags = libc::fcntl(fd, libc::F_GETFD);
            if flags >= 0 && flags & libc::FD_CLOEXEC == 0 {
                libc::fcntl(fd, libc::F_SETFD, flags | libc::FD_CLOEXEC);
            }
        }
    }
}

/// Makes the bot receive SIGKILL if the arena dies first (Linux's parent-death signal), so even an arena
/// killed by SIGKILL, which cannot run its own clean-up, leaves no bot running. It covers the bot's
/// process, not children the bot starts itself: those the arena kills with the process group whenever it
/// can run at all. Elsewhere a no-op.
fn die_with_the_arena(cmd: &mut Command) {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::process::CommandExt;
        let arena = std::process::id();
        // SAFETY: between fork and exec the closure only makes the system calls prctl and getppid,
        // which are async-signal-safe, and allocates nothing (an error is an errno value).
        unsafe {
            cmd.pre_exec(move || {
                nix::sys::prctl::set_pdeathsig(nix::sys::signal::Signal::SIGKILL)?;
                // The arena died between fork and prctl: the signal will never come.
                if nix::unistd::getppid().as_raw() as u32 != arena {
                    return Err(std::io::Error::from_raw_os_error(nix::libc::ESRCH));
                }
                Ok(())
            });
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = cmd;
}

/// `exited with status 3`, `killed by signal 9 (SIGKILL)`.
pub fn describe_exit(status: ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    if let Some(code) = status.code() {
        format!("exited with status {code}")
    } else if let Some(sig) = status.signal() {
        let name = nix::sys::signal::Signal::try_from(sig)
            .map(|s| s.as_str().to_string())
            .unwrap_or_else(|_| "?".into());
        format!("killed by signal {sig} ({name})")
    } else {
        "ended".into()
    }
}

/// Gives the child its own process group, so that it and everything it starts are suspended and
/// killed together; a `sandboxed` child (bwrap) instead gets an empty environment (the bot could read
/// it as its pid 1) and a session of its own, whose id is its pid as a process group's would be (no
/// controlling terminal to push keystrokes into, CVE-2017-5226).
pub fn own_group(cmd: &mut Command, sandboxed: bool) {
    use std::os::unix::process::CommandExt;
    if sandboxed {
        cmd.env_clear();
        // SAFETY: setsid is async-signal-safe and allocates nothing.
        unsafe {
            cmd.pre_exec(|| {
                nix::unistd::setsid()
                    .map(|_| ())
                    .map_err(std::io::Error::from)
            });
        }
    } else {
        cmd.process_group(0);
    }
}
