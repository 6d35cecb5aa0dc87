//! End to end: bots that crash, hang, lie or flood lose by forfeit with the reason recorded, the
//! tournament goes on, and no bot process is left running.

use crate::common;

use common::{games, is_dead, run, text, write_config};

/// `(bot name, faulty flags, expected termination, expected words in the detail)`. Two are no faults:
/// a resignation (`bestmove resign`) is a loss by `resign`, and one that comes after the clock ran
/// out is a timeout all the same.
const FAULTS: &[(&str, &str, &str, &str)] = &[
    (
        "crasher",
        "\"--crash-on-move\", \"2\"",
        "crash",
        "exited with status 3",
    ),
    (
        "hanger",
        "\"--hang-on-move\", \"2\"",
        "timeout",
        "no move within",
    ),
    (
        "liar",
        "\"--illegal-on-move\", \"2\"",
        "illegal",
        "off the board",
    ),
    (
        "babbler",
        "\"--garbage-on-move\", \"2\"",
        "illegal",
        "banana",
    ),
    (
        "flooder",
        "\"--flood-on-move\", \"2\"",
        "protocol",
        "longer than 65536 bytes",
    ),
    (
        "mute",
        "\"--nomove-on-move\", \"2\"",
        "protocol",
        "bestmove without a move",
    ),
    (
        "resigner",
        "\"--resign-on-move\", \"2\"",
        "resign",
        "resigned",
    ),
    (
        "late-resigner",
        "\"--resign-on-move\", \"1\", \"--delay-ms\", \"1500\"",
        "timeout",
        "no move within",
    ),
    (
        "sleeper",
        "\"--no-ugiok\"",
        "timeout",
        "no ugiok within 500 ms",
    ),
];

/// The processes of `pids` still running after waiting up to 10 s for them to die. SIGKILL is
/// delivered asynchronously: on a loaded machine a killed process may take a moment to be scheduled
/// and end, so the check polls rather than reading `/proc` once.
fn still_alive(pids: &[u32]) -> Vec<u32> {
    let waited = std::time::Instant::now();
    loop {
        let alive: Vec<u32> = pids.iter().copied().filter(|&p| !is_dead(p)).collect();
        if alive.is_empty() || waited.elapsed() > std::time::Duration::from_secs(10) {
            return alive;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

#[test]
fn every_kind_of_misbehaviour_is_a_recorded_forfeit_and_no_process_survives() {
    let tmp = tempfile::tempdir().unwrap();
    let pids = tmp.path().join("pids.txt");
    // The faulty bots get tight limits so hangs are caught fast; `random`, which must never forfeit,
    // gets generous ones so a loaded machine cannot make it lose on time.
    let mut config = String::from(
        "name = \"faults\"\nformat = \"gauntlet\"\ngames_per_pair = 2\nseed = 5\nconcurrency = 2\n\
         [game]\nname = \"connect4\"\n[time_control]\ntime_ms = 1000\nstartup_ms = 500\n\
         [[bots]]\nname = \"random\"\nbuiltin = \"random\"\n\
         time_control = { time_ms = 20000, startup_ms = 10000 }\n\
         [[bots]]\nname = \"quitter\"\ncommand = \"false\"\n",
    );
    for (name, flags, ..) in FAULTS {
        config.push_str(&format!(
            "[[bots]]\nname = \"{name}\"\nbuiltin = \"faulty\"\nargs = [{flags}, \"--spawn-child\", \"--pid-file\", {:?}]\n",
            pids.display().to_string()
        ));
    }
    let path = write_config(tmp.path(), "faults", &config);
    let out = run(tmp.path(), &path, &[]);
    assert!(out.status.success(), "{}", text(&out));
    let recorded = games(tmp.path(), "faults");
    assert_eq!(recorded.len(), 2 * (FAULTS.len() + 1), "{}", text(&out));

    let mut expected: Vec<(&str, &str, &str)> =
        FAULTS.iter().map(|(n, _, t, d)| (*n, *t, *d)).collect();
    expected.push(("quitter", "crash", "exited with status 1"));
    for (name, termination, detail) in expected {
        let played: Vec<_> = recorded
            .iter()
            .filter(|g| g.first == name || g.second == name)
            .collect();
        assert_eq!(played.len(), 2, "{name}");
        for g in played {
            assert_eq!(g.termination.as_str(), termination, "{name}: {g:?}");
            assert!(g.detail.starts_with(&format!("{name}: ")), "{name}: {g:?}");
            assert!(
                g.detail.contains(detail),
                "{name}: expected {detail:?} in {:?}",
                g.detail
            );
            let lost = if g.first == name { "0-1" } else { "1-0" };
            assert_eq!(g.result.to_string(), lost, "{name}: {g:?}");
        }
    }

    let standings =
        std::fs::read_to_string(tmp.path().join("results/faults/standings.csv")).unwrap();
    let random = standings.lines().find(|l| l.contains(",random,")).unwrap();
    assert!(
        random.starts_with("1,random,20,20,0,0,20,100.0,"),
        "{standings}"
    );
    // A resignation is no forfeit: the resigner's forfeit columns stay at 0.
    let resigner = standings
        .lines()
        .find(|l| l.contains(",resigner,"))
        .unwrap();
    let fields: Vec<&str> = resigner.split(',').collect();
    assert_eq!(&fields[2..6], ["2", "0", "0", "2"], "{standings}");
    assert_eq!(&fields[8..13], ["0", "0", "0", "0", "0"], "{standings}");

    let pid_list = std::fs::read_to_string(&pids).unwrap();
    let all: Vec<u32> = pid_list.lines().map(|l| l.parse().unwrap()).collect();
    // Each faulty bot wrote itself and its child, in each of its two games (the sleeper included).
    assert_eq!(all.len(), FAULTS.len() * 2 * 2, "{pid_list}");
    let alive = still_alive(&all);
    assert!(alive.is_empty(), "bot processes still running: {alive:?}");
}

#[test]
fn a_stopped_run_keeps_its_games_kills_its_bots_and_resumes() {
    let tmp = tempfile::tempdir().unwrap();
    let pids = tmp.path().join("pids.txt");
    // Slow bots (50 ms a move) so the run is still going when it is stopped.
    let slow = format!("builtin = \"faulty\"\nargs = [\"--delay-ms\", \"50\", \"--spawn-child\", \"--pid-file\", {:?}]\n", pids.display().to_string());
    let config = format!(
        "name = \"stopped\"\ngames_per_pair = 4\nseed = 1\nconcurrency = 1\n[game]\nname = \"tictactoe\"\n[time_control]\ntime_ms = 10000\n\
         [[bots]]\nname = \"slow-a\"\n{slow}[[bots]]\nname = \"slow-b\"\n{slow}"
    );
    let path = write_config(tmp.path(), "stopped", &config);
    // SIGHUP, as when the terminal closes (SIGTERM is what the other stop tests send).
    let status = common::signal_after(tmp.path(), &path, "stopped", 1, "HUP");
    assert_eq!(status.code(), Some(130));
    let kept = games(tmp.path(), "stopped");
    assert!(!kept.is_empty() && kept.len() < 4, "{} games", kept.len());
    let all: Vec<u32> = std::fs::read_to_string(&pids)
        .unwrap()
        .lines()
        .map(|l| l.parse().unwrap())
        .collect();
    let alive = still_alive(&all);
    assert!(
        alive.is_empty(),
        "bot processes still running after the stop: {alive:?}"
    );

    let out = run(tmp.path(), &path, &[]);
    assert!(out.status.success(), "{}", text(&out));
    let resumed = games(tmp.path(), "stopped");
    assert_eq!(resumed.len(), 4);
    assert_eq!(resumed[..kept.len()], kept[..]);
}

#[test]
fn an_arena_killed_by_sigkill_takes_its_bots_with_it() {
    let tmp = tempfile::tempdir().unwrap();
    let pids = tmp.path().join("pids.txt");
    // Both bots hang on their first move, under a clock far longer than the test.
    let hang = format!(
        "builtin = \"faulty\"\nargs = [\"--hang-on-move\", \"1\", \"--pid-file\", {:?}]\n",
        pids.display().to_string()
    );
    let config = format!(
        "name = \"killed\"\nseed = 1\nconcurrency = 1\n[game]\nname = \"connect4\"\n[time_control]\ntime_ms = 600000\n\
         [[bots]]\nname = \"a\"\n{hang}[[bots]]\nname = \"b\"\n{hang}"
    );
    let path = write_config(tmp.path(), "killed", &config);
    let mut arena = common::spawn_run(tmp.path(), &path);
    let waited = std::time::Instant::now();
    let started = loop {
        let listed: Vec<u32> = std::fs::read_to_string(&pids)
            .unwrap_or_default()
            .lines()
            .map(|l| l.parse().unwrap())
            .collect();
        if listed.len() == 2 {
            break listed;
        }
        assert!(
            waited.elapsed() < std::time::Duration::from_secs(60),
            "the bots did not start"
        );
        std::thread::sleep(std::time::Duration::from_millis(10));
    };
    assert!(still_alive_now(&started).len() == 2, "{started:?}");
    // SIGKILL: the arena runs no clean-up of its own.
    arena.kill().unwrap();
    arena.wait().unwrap();
    let alive = still_alive(&started);
    assert!(alive.is_empty(), "bots outlived a killed arena: {alive:?}");
}

/// The processes of `pids` running at this moment.
fn still_alive_now(pids: &[u32]) -> Vec<u32> {
    pids.iter().copied().filter(|&p| !is_dead(p)).collect()
}

#[test]
fn a_codecup_bot_s_start_up_is_not_charged_to_its_first_move() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = tempfile::tempdir().unwrap();
    // Takes a second to start, far more than the 500 ms a move may take, then plays at once.
    let script = tmp.path().join("slow-start.sh");
    std::fs::write(
        &script,
        "#!/bin/sh\nsleep 1\nexec \"$1\" bot random --codecup \"connect4 7 6\"\n",
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let config = format!(
        "name = \"slowstart\"\ngames_per_pair = 2\nseed = 1\nconcurrency = 1\n[game]\nname = \"connect4\"\n\
         [time_control]\nmax_move_ms = 500\nstartup_ms = 10000\n\
         [[bots]]\nname = \"slow\"\ncommand = {:?}\nargs = [{:?}]\nprotocol = \"codecup\"\n\
         [[bots]]\nname = \"random\"\nbuiltin = \"random\"\n",
        script.display().to_string(),
        // The program the script runs, named in its args so that the sandbox shows it.
        env!("CARGO_BIN_EXE_arena")
    );
    let path = write_config(tmp.path(), "slowstart", &config);
    let out = run(tmp.path(), &path, &[]);
    assert!(out.status.success(), "{}", text(&out));
    let recorded = games(tmp.path(), "slowstart");
    assert_eq!(recorded.len(), 2);
    for g in &recorded {
        assert_eq!(g.termination.as_str(), "normal", "{g:?}");
    }
}
