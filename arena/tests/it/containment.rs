//! End to end: every failure of an untrusted bot, one `faulty` flag each, is a recorded forfeit naming
//! what happened (a limit by name), the opponent is credited, the tournament goes on, and no process of
//! the bot — escaped descendants, `setsid` daemons and forks included — is alive after the game. The
//! processes are found in /proc by a marker in their command line, so forks that never exec are found
//! too.

use crate::common;

use std::path::Path;

use common::{games, is_dead, run, text, write_config};

/// One misbehaving bot: its name, its extra flags and config keys, the termination its games must end
/// with, and words its detail must hold.
struct Case {
    name: &'static str,
    flags: &'static str,
    keys: &'static str,
    termination: &'static str,
    detail: &'static str,
}

const fn case(
    name: &'static str,
    flags: &'static str,
    keys: &'static str,
    termination: &'static str,
    detail: &'static str,
) -> Case {
    Case {
        name,
        flags,
        keys,
        termination,
        detail,
    }
}

/// The failures of the list that end in a forfeit, each played as a game pair against `random`.
const CASES: &[Case] = &[
    case(
        "crash-at-start",
        "\"--crash-at-start\"",
        "",
        "crash",
        "exited with status 3",
    ),
    case(
        "exit-zero",
        "\"--exit0-on-move\", \"2\"",
        "",
        "crash",
        "exited with status 0",
    ),
    case(
        "abort",
        "\"--abort-on-move\", \"2\"",
        "",
        "crash",
        "SIGABRT",
    ),
    case("segv", "\"--segv-on-move\", \"2\"", "", "crash", "SIGSEGV"),
    case(
        "hang",
        "\"--hang-on-move\", \"2\"",
        "",
        "timeout",
        "no move within",
    ),
    case(
        "slow-move",
        "\"--delay-ms\", \"400\"",
        "time_control = { time_ms = 100000, max_move_ms = 100, startup_ms = 10000 }",
        "timeout",
        "no move within 100 ms",
    ),
    case(
        "slow-clock",
        "\"--delay-ms\", \"150\"",
        "time_control = { time_ms = 250, startup_ms = 10000 }",
        "timeout",
        "no move within",
    ),
    case(
        "illegal",
        "\"--illegal-on-move\", \"2\"",
        "",
        "illegal",
        "off the board",
    ),
    case(
        "other-game",
        "\"--other-game-on-move\", \"2\"",
        "",
        "illegal",
        "\"2-2\"",
    ),
    case(
        "not-utf8",
        "\"--bad-utf8-on-move\", \"2\"",
        "",
        "protocol",
        "not UTF-8",
    ),
    case(
        "long-line",
        "\"--flood-on-move\", \"2\"",
        "",
        "protocol",
        "longer than 65536 bytes",
    ),
    case(
        "closed-stdout",
        "\"--close-stdout-on-move\", \"2\"",
        "",
        "crash",
        "closed its output but did not exit",
    ),
    case(
        "deaf-to-sigterm",
        "\"--ignore-sigterm\", \"--hang-on-move\", \"2\"",
        "time_control = { time_ms = 1000, startup_ms = 10000 }",
        "timeout",
        "no move within",
    ),
    case(
        "early-bestmove",
        "\"--bestmove-before-readyok\"",
        "",
        "protocol",
        "before readyok",
    ),
    case(
        "two-answers",
        "\"--two-answers-on-move\", \"2\"",
        "",
        "protocol",
        "two answers to one go",
    ),
    case(
        "two-answers-apart",
        "\"--two-answers-apart-on-move\", \"2\"",
        "",
        "protocol",
        "two answers to one go",
    ),
    case(
        "late-bestmove",
        "\"--bestmove-after-readyok\"",
        "",
        "protocol",
        "\"bestmove 4\" before its first go",
    ),
    case(
        "grandchild",
        "\"--spawn-child\", \"--crash-on-move\", \"2\"",
        "",
        "crash",
        "exited with status 3",
    ),
    case(
        "memory-hog",
        "\"--eat-memory-on-move\", \"2\"",
        "limits = { memory_mb = 256 }",
        "limit",
        "memory limit 256 MiB",
    ),
    case(
        "fork-bomb",
        "\"--fork-on-move\", \"2\", \"--forks\", \"200\"",
        "limits = { processes = 64 }",
        "limit",
        "process limit 64",
    ),
    case(
        "big-file",
        "\"--big-file-on-move\", \"2\", \"--file-mb\", \"300\"",
        "",
        "limit",
        "file size limit 64 MiB",
    ),
    case(
        "many-files",
        "\"--open-files-on-move\", \"2\", \"--files\", \"5000\"",
        "",
        "crash",
        "Too many open files",
    ),
];

/// The pids of the processes whose command line holds `marker`, running now (zombies excluded).
fn processes_with(marker: &str) -> Vec<u32> {
    let mut out = Vec::new();
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return out;
    };
    for e in dir.flatten() {
        let Some(pid) = e.file_name().to_str().and_then(|s| s.parse::<u32>().ok()) else {
            continue;
        };
        let Ok(cmdline) = std::fs::read(format!("/proc/{pid}/cmdline")) else {
            continue;
        };
        if !String::from_utf8_lossy(&cmdline).contains(marker) {
            continue;
        }
        let zombie = std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .ok()
            .and_then(|s| {
                s.rsplit(')')
                    .next()
                    .map(|r| r.trim_start().starts_with('Z'))
            })
            .unwrap_or(true);
        if !zombie {
            out.push(pid);
        }
    }
    out
}

/// Waits up to 10 s (SIGKILL is delivered asynchronously) for every process of a bot to be gone: those
/// listed in its pid file and those whose command line holds its marker. Returns the survivors.
fn survivors(pid_file: &Path, marker: &str) -> Vec<u32> {
    let waited = std::time::Instant::now();
    loop {
        let mut alive: Vec<u32> = std::fs::read_to_string(pid_file)
            .unwrap_or_default()
            .lines()
            .filter_map(|l| l.parse().ok())
            .filter(|&p| !is_dead(p))
            .collect();
        alive.extend(processes_with(marker));
        alive.sort_unstable();
        alive.dedup();
        if alive.is_empty() || waited.elapsed() > std::time::Duration::from_secs(10) {
            return alive;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// A gauntlet config: `random` (generous clock, so only the faulty bots forfeit) against one `faulty`
/// bot per case, each with its own pid file (whose path is the marker of its processes) and its own
/// working folder. The clocks are generous too (10 s a game and 10 s to start, so a loaded machine
/// cannot make a bot forfeit by accident); the cases about time set their own.
fn gauntlet(dir: &Path, name: &str, cases: &[Case]) -> String {
    let mut config = format!(
        "name = \"{name}\"\nformat = \"gauntlet\"\ngames_per_pair = 2\nseed = 5\nconcurrency = 2\n\
         [game]\nname = \"connect4\"\n[time_control]\ntime_ms = 10000\nstartup_ms = 10000\n\
         [[bots]]\nname = \"random\"\nbuiltin = \"random\"\n\
         time_control = {{ time_ms = 60000, startup_ms = 20000 }}\n"
    );
    for c in cases {
        let work = dir.join(format!("work-{}", c.name));
        std::fs::create_dir_all(&work).unwrap();
        config.push_str(&format!(
            "[[bots]]\nname = \"{}\"\nbuiltin = \"faulty\"\ndir = {:?}\n\
             args = [{}, \"--pid-file\", {:?}]\n{}\n",
            c.name,
            work.display().to_string(),
            c.flags,
            dir.join(format!("pids-{}.txt", c.name))
                .display()
                .to_string(),
            c.keys
        ));
    }
    config
}

/// Runs the gauntlet of `cases` and checks each bot's games and that none of its processes survived.
fn every_failure_is_a_forfeit_and_leaves_nothing(name: &str, cases: &[Case], env: &[(&str, &str)]) {
    let tmp = tempfile::tempdir().unwrap();
    let path = write_config(tmp.path(), name, &gauntlet(tmp.path(), name, cases));
    let out = common::run_env(tmp.path(), &path, env);
    assert!(out.status.success(), "{}", text(&out));
    let recorded = games(tmp.path(), name);
    assert_eq!(recorded.len(), 2 * cases.len(), "{}", text(&out));
    let mut problems = Vec::new();
    for c in cases {
        let played: Vec<_> = recorded
            .iter()
            .filter(|g| g.first == c.name || g.second == c.name)
            .collect();
        assert_eq!(played.len(), 2, "{}", c.name);
        for g in played {
            let lost = if g.first == c.name { "0-1" } else { "1-0" };
            if g.termination.as_str() != c.termination
                || !g.detail.starts_with(&format!("{}: ", c.name))
                || !g.detail.contains(c.detail)
                || g.result.to_string() != lost
            {
                problems.push(format!(
                    "{}: expected {} with {:?} and {lost}, got {} {:?} {}",
                    c.name, c.termination, c.detail, g.termination, g.detail, g.result
                ));
            }
        }
        let pid_file = tmp.path().join(format!("pids-{}.txt", c.name));
        let left = survivors(&pid_file, &pid_file.display().to_string());
        if !left.is_empty() {
            problems.push(format!("{}: processes still running: {left:?}", c.name));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    // The opponent was credited every game.
    let standings =
        std::fs::read_to_string(tmp.path().join(format!("results/{name}/standings.csv"))).unwrap();
    let games = 2 * cases.len();
    let random = standings.lines().find(|l| l.contains(",random,")).unwrap();
    assert!(
        random.starts_with(&format!("1,random,{games},{games},0,0,{games},100.0,")),
        "{standings}"
    );
}

/// Whether this machine gives the arena a cgroup controller for `resource` (`memory`, `process`), from
/// `arena doctor`.
fn cgroup_controls(resource: &str) -> bool {
    let out = common::arena().arg("doctor").output().unwrap();
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .any(|l| l.trim_start().starts_with(&format!("{resource} limit:")) && l.contains("cgroup"))
}

#[test]
fn every_failure_of_an_untrusted_bot_is_a_named_forfeit_and_none_of_its_processes_survive() {
    // The memory and process limits are named only where a cgroup enforces them (elsewhere a bot sees
    // failed allocations or forks and crashes in its own way): those cases need one.
    let mut cases: Vec<&Case> = CASES.iter().collect();
    for (resource, name) in [("memory", "memory-hog"), ("process", "fork-bomb")] {
        if !cgroup_controls(resource) {
            eprintln!("skipped case {name}: no {resource} cgroup here (see arena doctor)");
            cases.retain(|c| c.name != name);
        }
    }
    let cases: Vec<Case> = cases
        .into_iter()
        .map(|c| case(c.name, c.flags, c.keys, c.termination, c.detail))
        .collect();
    every_failure_is_a_forfeit_and_leaves_nothing("failures", &cases, &[]);
}

/// A bot that starts a `setsid` daemon plays on normally, and the daemon is gone after its game. Today's
/// cgroups end it; without cgroups (`ARENA_NO_CGROUPS=1`), the subreaper finds it.
fn a_daemon_dies_with_its_game(env: &[(&str, &str)]) {
    let tmp = tempfile::tempdir().unwrap();
    let cases = [case("daemon", "\"--daemon\"", "", "", "")];
    let path = write_config(
        tmp.path(),
        "daemon",
        &gauntlet(tmp.path(), "daemon", &cases),
    );
    let out = common::run_env(tmp.path(), &path, env);
    assert!(out.status.success(), "{}", text(&out));
    for g in games(tmp.path(), "daemon") {
        assert_eq!(g.termination.as_str(), "normal", "{g:?}");
    }
    let pid_file = tmp.path().join("pids-daemon.txt");
    let pids = std::fs::read_to_string(&pid_file).unwrap();
    // Each of the two games: the bot and its daemon (without cgroups, a daemon may already have been
    // killed, as an orphan, before it could give its pid).
    let expected = if env.is_empty() { 4..=4 } else { 2..=4 };
    assert!(expected.contains(&pids.lines().count()), "{pids}");
    let left = survivors(&pid_file, &pid_file.display().to_string());
    assert!(left.is_empty(), "daemons outlived their games: {left:?}");
}

#[test]
fn a_setsid_daemon_started_by_a_bot_is_gone_after_its_game() {
    a_daemon_dies_with_its_game(&[]);
}

#[test]
fn without_cgroups_the_subreaper_still_ends_daemons_and_forks() {
    a_daemon_dies_with_its_game(&[("ARENA_NO_CGROUPS", "1")]);
    let cases = [
        case(
            "fork-bomb",
            "\"--fork-on-move\", \"2\", \"--forks\", \"20\", \"--hang-on-move\", \"3\"",
            "time_control = { time_ms = 1000, startup_ms = 10000 }",
            "timeout",
            "no move within",
        ),
        case(
            "big-file",
            "\"--big-file-on-move\", \"2\", \"--file-mb\", \"300\"",
            "",
            "limit",
            "file size limit 64 MiB",
        ),
    ];
    every_failure_is_a_forfeit_and_leaves_nothing("fallback", &cases, &[("ARENA_NO_CGROUPS", "1")]);
}

#[test]
fn a_gigabyte_to_stderr_is_capped_and_the_arena_s_memory_stays_flat() {
    let tmp = tempfile::tempdir().unwrap();
    let cases = [case("noisy", "\"--stderr-mb\", \"1024\"", "", "", "")];
    let config =
        // It writes the gigabyte before its handshake: a generous start-up deadline.
        gauntlet(tmp.path(), "noisy", &cases).replace(
            "time_ms = 10000\nstartup_ms = 10000\n",
            "time_ms = 30000\nstartup_ms = 120000\n",
        );
    let path = write_config(tmp.path(), "noisy", &config);
    let mut child = common::spawn_run(tmp.path(), &path);
    // The arena's peak resident memory (VmHWM), read while it runs.
    let mut peak_kb = 0u64;
    let status = loop {
        if let Ok(status) = std::fs::read_to_string(format!("/proc/{}/status", child.id())) {
            for l in status.lines() {
                if let Some(v) = l.strip_prefix("VmHWM:") {
                    let kb: u64 = v.trim().trim_end_matches("kB").trim().parse().unwrap_or(0);
                    peak_kb = peak_kb.max(kb);
                }
            }
        }
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    assert!(status.success());
    let recorded = games(tmp.path(), "noisy");
    assert_eq!(recorded.len(), 2);
    let logs = tmp.path().join("results/noisy/logs");
    for g in &recorded {
        let side = if g.first == "noisy" {
            "first"
        } else {
            "second"
        };
        let log = logs.join(format!("{}-{side}-noisy.stderr", g.id));
        let size = std::fs::metadata(&log).unwrap().len();
        assert!(
            ((1 << 20)..(1 << 20) + 200).contains(&size),
            "{}: {size} bytes",
            log.display()
        );
        let text = std::fs::read_to_string(&log).unwrap();
        assert!(
            text.contains("more bytes dropped: stderr is capped"),
            "{}",
            &text[text.len() - 200..]
        );
    }
    // The stream passed through 8 KiB at a time: the arena never held it.
    assert!(
        peak_kb < 100 * 1024,
        "the arena's peak RSS was {peak_kb} kB"
    );
}

#[test]
fn an_idle_bot_is_suspended_so_it_cannot_ponder_on_its_opponent_s_time() {
    // A pondering bot (a thread that never stops computing) against a slow opponent (300 ms a move):
    // suspended while idle, it uses about the CPU of its own moves; not suspended, that of the whole game.
    let cpu = |suspend: bool| -> u64 {
        let tmp = tempfile::tempdir().unwrap();
        let cpu_file = tmp.path().join("cpu.txt");
        let config = format!(
            "name = \"ponder\"\ngames_per_pair = 2\nseed = 3\nconcurrency = 1\nsuspend_idle = {suspend}\n\
             [game]\nname = \"connect4\"\n[time_control]\ntime_ms = 60000\nstartup_ms = 20000\n\
             [[bots]]\nname = \"ponderer\"\nbuiltin = \"faulty\"\nargs = [\"--ponder\", \"--cpu-file\", {:?}]\n\
             [[bots]]\nname = \"slow\"\nbuiltin = \"faulty\"\nargs = [\"--delay-ms\", \"300\"]\n",
            cpu_file.display().to_string()
        );
        let path = write_config(tmp.path(), "ponder", &config);
        let out = run(tmp.path(), &path, &[]);
        assert!(out.status.success(), "{}", text(&out));
        // The CPU time at its last move of each game, summed over the two games (each a fresh process).
        let lines: Vec<u64> = std::fs::read_to_string(&cpu_file)
            .unwrap()
            .lines()
            .map(|l| l.parse().unwrap())
            .collect();
        let mut total = 0;
        let mut last = 0;
        for &v in &lines {
            if v < last {
                total += last;
            }
            last = v;
        }
        total += last;
        let slow_moves: u32 = games(tmp.path(), "ponder")
            .iter()
            .map(|g| {
                g.moves_by(if g.first == "slow" {
                    ::games::Player::First
                } else {
                    ::games::Player::Second
                })
            })
            .sum();
        assert!(slow_moves >= 6, "{slow_moves} moves by the slow bot");
        total
    };
    let suspended = cpu(true);
    // Its own moves take microseconds; the handshake and start-up some ms.
    assert!(
        suspended < 600,
        "a suspended ponderer used {suspended} ms of CPU"
    );
    let pondering = cpu(false);
    assert!(
        pondering > suspended,
        "not suspended: {pondering} ms, suspended: {suspended} ms"
    );
}

/// Whether bubblewrap can start a sandbox here; if not, the reason (CI installs it, see `.ci/run`).
fn bubblewrap_missing() -> Option<String> {
    match std::process::Command::new("bwrap")
        .args([
            "--unshare-all",
            "--ro-bind",
            "/",
            "/",
            "--dev",
            "/dev",
            "--proc",
            "/proc",
            "true",
        ])
        .output()
    {
        Ok(o) if o.status.success() => None,
        Ok(o) => Some(String::from_utf8_lossy(&o.stderr).into_owned()),
        Err(e) => Some(format!("bwrap: {e}")),
    }
}

#[test]
fn a_sandboxed_bot_sees_a_read_only_system_no_network_a_clean_environment_and_its_own_folders() {
    if let Some(why) = bubblewrap_missing() {
        eprintln!("skipped: bubblewrap cannot run here ({why}); CI installs it");
        return;
    }
    use std::os::unix::fs::PermissionsExt;
    let tmp = tempfile::tempdir().unwrap();
    let bot_dir = tmp.path().join("bot");
    std::fs::create_dir_all(&bot_dir).unwrap();
    std::fs::write(tmp.path().join("secret.txt"), "hidden").unwrap();
    // The sandbox shows the bot its own folder, not the rest of /tmp, where a checkout (and so the arena
    // binary the script runs) may live: the binary goes into the bot's folder.
    let player = bot_dir.join("arena");
    std::fs::hard_link(env!("CARGO_BIN_EXE_arena"), &player)
        .or_else(|_| std::fs::copy(env!("CARGO_BIN_EXE_arena"), &player).map(|_| ()))
        .unwrap();
    // The bot reports what it can do on stderr, then plays.
    let script = bot_dir.join("probe.sh");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\n{{\n\
             touch /usr/arena-test 2>/dev/null && echo 'system: writable' || echo 'system: read-only'\n\
             echo x > ./mine.txt && echo 'cwd: writable' || echo 'cwd: read-only'\n\
             echo x > /tmp/t.txt && echo 'tmp: writable' || echo 'tmp: read-only'\n\
             echo \"tmp holds: $(ls /tmp | tr '\\n' ' ')\"\n\
             echo \"net: $(tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' ' | tr '\\n' ' ')\"\n\
             echo \"secret: $(cat {secret:?} 2>/dev/null || echo unreadable)\"\n\
             echo \"results: $(ls {results:?} 2>/dev/null | tr '\\n' ' ')\"\n\
             echo \"marker: ${{ARENA_TEST_MARKER:-unset}}\"\n\
             echo \"home: $HOME\"\n\
             echo \"shadow: $(cat /etc/shadow 2>/dev/null | wc -c)\"\n\
             echo \"caps: $(grep CapEff /proc/self/status | tr -d '\\t')\"\n\
             head -c 33554432 /dev/zero > ./fill 2>/dev/null; echo \"home fill: $(stat -c %s ./fill)\"; rm -f ./fill\n\
             head -c 33554432 /dev/zero > /tmp/fill 2>/dev/null; echo \"tmp fill: $(stat -c %s /tmp/fill)\"; rm -f /tmp/fill\n\
             }} >&2\nexec {arena:?} bot random\n",
            secret = tmp.path().join("secret.txt").display().to_string(),
            results = tmp.path().join("results/boxed").display().to_string(),
            arena = player.display().to_string(),
        ),
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let config = format!(
        "name = \"boxed\"\ngames_per_pair = 2\nseed = 1\nconcurrency = 1\n\
         [game]\nname = \"tictactoe\"\n[time_control]\ntime_ms = 10000\n\
         [limits]\ndisk_mb = 8\n\
         [[bots]]\nname = \"boxed\"\ncommand = {:?}\nsandbox = \"bubblewrap\"\n\
         [[bots]]\nname = \"random\"\nbuiltin = \"random\"\n",
        script.display().to_string()
    );
    let path = write_config(tmp.path(), "boxed", &config);
    let out = common::run_env(tmp.path(), &path, &[("ARENA_TEST_MARKER", "leaked")]);
    assert!(out.status.success(), "{}", text(&out));
    let recorded = games(tmp.path(), "boxed");
    assert_eq!(recorded.len(), 2);
    for g in &recorded {
        assert_eq!(g.termination.as_str(), "normal", "{g:?}");
        let side = if g.first == "boxed" {
            "first"
        } else {
            "second"
        };
        let report = std::fs::read_to_string(
            tmp.path()
                .join(format!("results/boxed/logs/{}-{side}-boxed.stderr", g.id)),
        )
        .unwrap();
        for expected in [
            "system: read-only",
            "cwd: writable",
            "tmp: writable",
            "tmp holds: t.txt \n",
            "net: lo \n",
            "secret: unreadable",
            "marker: unset",
            // Root's own files are covered, and no capability is left (root keeps uid 0 inside).
            "shadow: 0\n",
            "caps: CapEff:0000000000000000",
        ] {
            assert!(report.contains(expected), "{expected:?} not in:\n{report}");
        }
        // Its writable folders hold 8 MiB ([limits] disk_mb) of the 32 it tried to write, in
        // memory: nothing reached the host's disk.
        for place in ["home", "tmp"] {
            let written: u64 = report
                .split(&format!("{place} fill: "))
                .nth(1)
                .and_then(|r| r.lines().next())
                .and_then(|n| n.trim().parse().ok())
                .unwrap_or_else(|| panic!("no {place} fill in:\n{report}"));
            assert!(
                written > 0 && written <= 8 << 20,
                "{place}: {written} bytes written:\n{report}"
            );
        }
        // The results folder is hidden but for the way to the bot's own work folder.
        assert!(report.contains("results: sandbox \n"), "{report}");
        assert!(
            report.contains("home: ") && report.contains("/sandbox/"),
            "{report}"
        );
    }
    // The work folders are removed after their games.
    let sandbox = tmp.path().join("results/boxed/sandbox");
    let left: Vec<_> = std::fs::read_dir(&sandbox).map_or(Vec::new(), |d| d.flatten().collect());
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn a_config_asking_for_a_sandbox_the_machine_lacks_fails_before_any_game() {
    let tmp = tempfile::tempdir().unwrap();
    let config = "name = \"nobox\"\n[game]\nname = \"tictactoe\"\n[time_control]\ntime_ms = 1000\n\
         sandbox = \"bubblewrap\"\n[[bots]]\nname = \"a\"\nbuiltin = \"random\"\n\
         [[bots]]\nname = \"b\"\nbuiltin = \"random\"\n"
        .replace(
            "[time_control]\ntime_ms = 1000\nsandbox = \"bubblewrap\"\n",
            "[time_control]\ntime_ms = 1000\n",
        )
        .replace(
            "name = \"nobox\"\n",
            "name = \"nobox\"\nsandbox = \"bubblewrap\"\n",
        );
    let path = write_config(tmp.path(), "nobox", &config);
    // A PATH without bwrap on it.
    let out = common::run_env(
        tmp.path(),
        &path,
        &[("PATH", &tmp.path().display().to_string())],
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("this machine cannot isolate them: bwrap is not on PATH")
            && err.contains("apt-get install bubblewrap"),
        "{err}"
    );
    let csv = tmp.path().join("results/nobox/games.csv");
    assert!(!csv.exists(), "a game was recorded");
}

/// A config with a bot given as a command and no `sandbox` key: isolated by default, so a machine
/// without bubblewrap refuses it before any game, saying how to install it or how to opt out; with
/// `sandbox = "none"` it runs, with a warning.
#[test]
fn an_executable_is_isolated_by_default_and_runs_unisolated_only_when_the_config_says_so() {
    let tmp = tempfile::tempdir().unwrap();
    let base = format!(
        "name = \"plain\"\ngames_per_pair = 2\n[game]\nname = \"tictactoe\"\n\
         [time_control]\ntime_ms = 10000\n\
         [[bots]]\nname = \"exe\"\ncommand = {:?}\nargs = [\"bot\", \"random\"]\n\
         [[bots]]\nname = \"b\"\nbuiltin = \"random\"\n",
        env!("CARGO_BIN_EXE_arena")
    );
    let path = write_config(tmp.path(), "plain", &base);
    let no_bwrap = [("PATH", tmp.path().display().to_string())];
    let env: Vec<(&str, &str)> = no_bwrap.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let out = common::run_env(tmp.path(), &path, &env);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let err = String::from_utf8_lossy(&out.stderr);
    for words in [
        "bots exe must run isolated",
        "the default for a bot given as a command",
        "bwrap is not on PATH",
        "apt-get install bubblewrap",
        "sandbox = \"none\"",
    ] {
        assert!(err.contains(words), "{words:?} not in {err}");
    }
    assert!(!tmp.path().join("results/plain/games.csv").exists());
    // Opting out runs, and says what it costs.
    let path = write_config(
        tmp.path(),
        "plain",
        &base.replace(
            "games_per_pair = 2\n",
            "games_per_pair = 2\nsandbox = \"none\"\n",
        ),
    );
    let out = common::run_env(tmp.path(), &path, &env);
    assert!(out.status.success(), "{}", text(&out));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("warning: sandbox = \"none\": bots exe run unisolated"),
        "{err}"
    );
    assert_eq!(games(tmp.path(), "plain").len(), 2);
}

/// The hostile bots of `docs/reliability.md`: each attacks once, on its first move, then plays on as a
/// random player. `--attack` as the faulty bot's CLI takes it.
const ATTACKS: &[(&str, &str)] = &[
    ("killer", "kill-opponent"),
    ("stopper", "stop-opponent"),
    ("freezer", "stop-arena"),
    ("forger", "forge-results"),
    ("snoop", "read-environ:ARENA_TEST_SECRET_7f3a"),
    ("caller", "connect-socket:SOCKET"),
    ("hoarder", "shm-flood:32"),
];

/// Runs `arena run <config>` with `env` added, killing it (and failing) if it has not finished within
/// `secs` seconds: a bot that stopped the arena must fail the test, not hang it.
fn run_within(dir: &Path, config: &Path, env: &[(&str, &str)], secs: u64) -> std::process::Output {
    let mut cmd = common::arena();
    cmd.arg("run")
        .arg(config)
        .arg("--results")
        .arg(dir.join("results"))
        .arg("--no-progress")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let child = cmd.spawn().unwrap();
    let pid = child.id();
    let watchdog = std::thread::spawn(move || {
        let start = std::time::Instant::now();
        while start.elapsed() < std::time::Duration::from_secs(secs) {
            std::thread::sleep(std::time::Duration::from_millis(100));
            if is_dead(pid) {
                return false;
            }
        }
        // Thaw it first: a stopped process does not die of SIGKILL until it runs.
        let _ = std::process::Command::new("kill")
            .args(["-CONT", &pid.to_string()])
            .status();
        let _ = std::process::Command::new("kill")
            .args(["-KILL", &pid.to_string()])
            .status();
        true
    });
    let out = child.wait_with_output().unwrap();
    assert!(
        !watchdog.join().unwrap(),
        "the arena did not finish within {secs} s: {}",
        text(&out)
    );
    out
}

#[test]
fn under_the_default_config_hostile_bots_harm_neither_their_opponents_nor_the_arena_nor_the_results(
) {
    if let Some(why) = bubblewrap_missing() {
        eprintln!("skipped: bubblewrap cannot run here ({why}); CI installs it");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    // A host Unix socket the caller is told about, under a folder the bot is not shown.
    let socket = tmp.path().join("host.sock");
    let listener = std::os::unix::net::UnixListener::bind(&socket).unwrap();
    listener.set_nonblocking(true).unwrap();
    let shm_before: Vec<_> = shm_files();
    let mut config = String::from(
        "name = \"hostile\"\nformat = \"gauntlet\"\ngames_per_pair = 2\nseed = 3\nconcurrency = 2\n\
         [game]\nname = \"connect4\"\n[time_control]\ntime_ms = 20000\nstartup_ms = 10000\n\
         [[bots]]\nname = \"random\"\nbuiltin = \"random\"\n",
    );
    for (name, attack) in ATTACKS {
        let attack = attack.replace("SOCKET", &socket.display().to_string());
        config.push_str(&format!(
            "[[bots]]\nname = \"{name}\"\ncommand = {:?}\n\
             args = [\"bot\", \"faulty\", \"--attack\", {attack:?}]\n",
            env!("CARGO_BIN_EXE_arena")
        ));
    }
    let path = write_config(tmp.path(), "hostile", &config);
    let out = run_within(tmp.path(), &path, &[("ARENA_TEST_SECRET_7f3a", "1")], 120);
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        !String::from_utf8_lossy(&out.stderr).contains("warning"),
        "{}",
        text(&out)
    );
    let recorded = games(tmp.path(), "hostile");
    assert_eq!(recorded.len(), 2 * ATTACKS.len(), "{}", text(&out));
    // Every game played to its end by the rules: no one was killed, stopped or blamed.
    for g in &recorded {
        assert_eq!(g.termination.as_str(), "normal", "{g:?}");
    }
    // Each attack ran, and found nothing to act on.
    let expected = [
        ("killer", "kill-opponent: no target found"),
        ("stopper", "stop-opponent: no target found"),
        ("freezer", "stop-arena: no target found"),
        ("forger", "forge-results: no games.csv found"),
        ("snoop", "read-environ: not found"),
        ("caller", "connect-socket: refused"),
        // It may fill its own /dev/shm, which is gone with its namespace.
        ("hoarder", "shm-flood: wrote 32 MiB"),
    ];
    for g in &recorded {
        let (side, bot) = if g.first == "random" {
            ("second", &g.second)
        } else {
            ("first", &g.first)
        };
        let stderr = std::fs::read_to_string(
            tmp.path()
                .join(format!("results/hostile/logs/{}-{side}-{bot}.stderr", g.id)),
        )
        .unwrap_or_default();
        let want = expected.iter().find(|(b, _)| b == bot).unwrap().1;
        assert!(stderr.contains(want), "{bot}: {want:?} not in {stderr:?}");
    }
    // Nothing reached the host's socket, and nothing is left in the host's /dev/shm.
    assert!(
        listener.accept().is_err(),
        "a bot connected to the host's socket"
    );
    assert_eq!(shm_files(), shm_before);
    // The results read back, re-refereed, as they were played.
    let report = common::arena()
        .arg("report")
        .arg(tmp.path().join("results/hostile"))
        .output()
        .unwrap();
    assert!(report.status.success(), "{}", text(&report));
}

/// The names of the files in the host's `/dev/shm` that a `faulty` bot writes.
fn shm_files() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir("/dev/shm")
        .map(|d| {
            d.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.starts_with("faulty-"))
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

/// The control: with `sandbox = "none"` the same forger reaches `games.csv` and turns a result around,
/// and the arena refuses the edited folder when it reads it back (on resume and in `arena report`),
/// naming the game and the line.
#[test]
fn unisolated_a_forger_rewrites_games_csv_and_the_arena_refuses_the_forged_row() {
    // Not under /tmp: the forger turns a result around in every `games.csv` in or up to two folders
    // below any folder that holds its working directory, /tmp/*/*/games.csv included, where other tests
    // of this binary, running beside this one, keep theirs (ratings' folders).
    let tmp = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let config = format!(
        "name = \"forged\"\ngames_per_pair = 6\nseed = 3\nconcurrency = 1\nsandbox = \"none\"\n\
         [game]\nname = \"connect4\"\n[time_control]\ntime_ms = 20000\n\
         [[bots]]\nname = \"random\"\nbuiltin = \"random\"\n\
         [[bots]]\nname = \"forger\"\ncommand = {:?}\ndir = {:?}\n\
         args = [\"bot\", \"faulty\", \"--attack\", \"forge-results\"]\n",
        env!("CARGO_BIN_EXE_arena"),
        tmp.path().display().to_string()
    );
    let path = write_config(tmp.path(), "forged", &config);
    let out = run_within(tmp.path(), &path, &[], 120);
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("warning: sandbox = \"none\""),
        "{}",
        text(&out)
    );
    let logs = tmp.path().join("results/forged/logs");
    let forged = std::fs::read_dir(&logs)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".stderr"))
        .any(|e| {
            std::fs::read_to_string(e.path())
                .unwrap_or_default()
                .contains("forge-results: forged")
        });
    assert!(
        forged,
        "the unisolated forger never reached games.csv: {}",
        text(&out)
    );
    for args in [
        vec![
            "report".to_string(),
            tmp.path().join("results/forged").display().to_string(),
        ],
        vec![
            "run".to_string(),
            path.display().to_string(),
            "--results".to_string(),
            tmp.path().join("results").display().to_string(),
        ],
    ] {
        let again = common::arena().args(&args).output().unwrap();
        assert!(!again.status.success(), "{args:?}: {}", text(&again));
        let err = String::from_utf8_lossy(&again.stderr);
        assert!(
            err.contains("games.csv: line ")
                && err.contains("the row does not follow from its moves"),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn arena_doctor_names_every_layer() {
    let out = common::arena().arg("doctor").output().unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let report = String::from_utf8_lossy(&out.stdout);
    for layer in [
        "process tree ends with the game:",
        "memory limit:",
        "process limit:",
        "idle bot suspended by:",
        "child subreaper:",
        "bubblewrap sandbox:",
        "default limits per bot and game: memory 1024 MiB",
    ] {
        assert!(report.contains(layer), "{layer:?} not in:\n{report}");
    }
    // Without cgroups, the fallbacks are named.
    let out = common::arena()
        .env("ARENA_NO_CGROUPS", "1")
        .arg("doctor")
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(
        report.contains("child subreaper: inherited descendants are killed"),
        "{report}"
    );
    assert!(report.contains("SIGSTOP/SIGCONT"), "{report}");
}

/// A sandboxed bot whose `dir` holds the results folder (given plainly, or through `..`) sees that folder
/// covered but for the way to its own work folder; a bot without `dir` whose arguments name files
/// relative to the arena's working directory still finds them (it starts in its own work folder).
#[test]
fn the_results_folder_stays_covered_under_a_bot_s_own_folder_and_relative_args_resolve() {
    if let Some(why) = bubblewrap_missing() {
        eprintln!("skipped: bubblewrap cannot run here ({why}); CI installs it");
        return;
    }
    use std::os::unix::fs::PermissionsExt;
    let tmp = tempfile::tempdir().unwrap();
    let contest = tmp.path().join("contest");
    std::fs::create_dir_all(contest.join("bots")).unwrap();
    // A game recorded earlier in the same results folder, which no bot may read.
    std::fs::create_dir_all(contest.join("results/earlier")).unwrap();
    std::fs::write(contest.join("results/earlier/games.csv"), "secret rows\n").unwrap();
    let script = contest.join("bots/probe.sh");
    std::fs::write(
        &script,
        "#!/bin/sh\n{\n\
         echo \"results: $(ls results 2>&1 | tr '\\n' ' ')\"\n\
         echo \"earlier: $(cat results/earlier/games.csv 2>&1)\"\n\
         echo \"tournament: $(ls results/covered 2>&1 | tr '\\n' ' ')\"\n\
         } >&2\nexec \"$1\" bot random\n",
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let arena_exe = env!("CARGO_BIN_EXE_arena");
    let config = format!(
        "name = \"covered\"\nformat = \"gauntlet\"\ngames_per_pair = 2\nseed = 1\nconcurrency = 1\n\
         [game]\nname = \"tictactoe\"\n[time_control]\ntime_ms = 10000\n\
         [[bots]]\nname = \"random\"\nbuiltin = \"random\"\n\
         [[bots]]\nname = \"plain\"\ncommand = \"bots/probe.sh\"\ndir = \".\"\nargs = [{arena_exe:?}]\n\
         [[bots]]\nname = \"dotdot\"\ncommand = \"bots/probe.sh\"\ndir = \"bots/..\"\nargs = [{arena_exe:?}]\n\
         [[bots]]\nname = \"relative\"\ncommand = \"/bin/sh\"\nargs = [\"bots/probe.sh\", {arena_exe:?}]\n"
    );
    let path = write_config(&contest, "covered", &config);
    let out = common::arena()
        .current_dir(&contest)
        .args([
            "run",
            "covered.toml",
            "--results",
            "results",
            "--no-progress",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let _ = path;
    let recorded =
        arena::results::read_games_csv(&contest.join("results/covered/games.csv")).unwrap();
    assert_eq!(recorded.len(), 6, "{}", text(&out));
    for g in &recorded {
        assert_eq!(g.termination.as_str(), "normal", "{g:?}");
        let (side, bot) = if g.first == "random" {
            ("second", &g.second)
        } else {
            ("first", &g.first)
        };
        let report = std::fs::read_to_string(
            contest.join(format!("results/covered/logs/{}-{side}-{bot}.stderr", g.id)),
        )
        .unwrap();
        if bot == "relative" {
            // Started in its work folder: `results` is not there at all.
            assert!(report.contains("results: ls: "), "{bot}: {report}");
        } else {
            // Only the way to its own work folder: the tournament's folder, and in it `sandbox`.
            assert!(report.contains("results: covered \n"), "{bot}: {report}");
            assert!(report.contains("tournament: sandbox \n"), "{bot}: {report}");
        }
        assert!(!report.contains("secret rows"), "{bot}: {report}");
    }
}

/// The red team's hole: an arena started with `7<secret` gave every bot the secret on fd 7. Now a
/// bot (sandboxed, and unsandboxed) sees no descriptor of the arena's beyond its three pipes: the
/// script plays the illegal move `fd7-closed` when it cannot use fd 7, `fd7-open` when it can, so the
/// record's detail says which.
#[test]
fn descriptors_the_arena_inherited_do_not_reach_the_bots() {
    use std::os::unix::io::AsRawFd;
    use std::os::unix::process::CommandExt;
    let tmp = tempfile::tempdir().unwrap();
    let secret = tmp.path().join("secret");
    std::fs::write(&secret, "the organiser's password\n").unwrap();
    let bot = tmp.path().join("fd7.sh");
    std::fs::write(
        &bot,
        "#!/bin/sh\nread line\nif (: <&7) 2>/dev/null; then echo fd7-open; else echo fd7-closed; fi\nexec sleep 30\n",
    )
    .unwrap();
    std::fs::set_permissions(&bot, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    for (name, sandbox) in [("sandboxed", "bubblewrap"), ("unsandboxed", "none")] {
        if sandbox == "bubblewrap" && !std::path::Path::new("/usr/bin/bwrap").exists() {
            eprintln!("skipped the sandboxed case: no /usr/bin/bwrap (installed by .ci/run)");
            continue;
        }
        let config = common::write_config(
            tmp.path(),
            name,
            &format!(
                "name = \"{name}\"\ngames_per_pair = 2\nseed = 1\nconcurrency = 1\nsandbox = \"{sandbox}\"\n\
                 [game]\nname = \"kalah\"\n[time_control]\nmax_move_ms = 2000\n\
                 [[bots]]\nname = \"script\"\ncommand = {:?}\nprotocol = \"codecup\"\n\
                 [[bots]]\nname = \"random\"\nbuiltin = \"random\"\n",
                bot.display().to_string()
            ),
        );
        let file = std::fs::File::open(&secret).unwrap();
        let fd = file.as_raw_fd();
        let mut cmd = common::arena();
        cmd.arg("run")
            .arg(&config)
            .arg("--results")
            .arg(tmp.path().join("results"))
            .arg("--no-progress")
            .current_dir(tmp.path());
        // SAFETY: dup2 is async-signal-safe; the arena starts with fd 7 open on the secret, not
        // close-on-exec, as a shell's `7<secret` leaves it.
        unsafe {
            cmd.pre_exec(move || {
                if nix::libc::dup2(fd, 7) == 7 {
                    Ok(())
                } else {
                    Err(std::io::Error::last_os_error())
                }
            });
        }
        let out = cmd.output().unwrap();
        drop(file);
        assert!(out.status.success(), "{}", common::text(&out));
        let games = common::games(tmp.path(), name);
        assert_eq!(games.len(), 2);
        for g in &games {
            assert_eq!(g.termination.as_str(), "illegal", "{name}: {g:?}");
            assert!(g.detail.contains("fd7-closed"), "{name}: {}", g.detail);
        }
    }
}
