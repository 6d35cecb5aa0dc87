//! End to end: CPU affinity per game slot (`affinity`, `arena run --affinity`, fastchess's
//! `-use-affinity`). The bots are the arena's random bot behind a script that first writes the CPUs it
//! may run on (`Cpus_allowed_list` of `/proc/self/status`) to its stderr, which the arena keeps per game.

use crate::common;

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use arena::config::affinity::Cpus;
use arena::sandbox::affinity;
use common::{games, run, text, write_config};

/// The CPUs each bot of each game reported, in the order of the game ids, first player first: (game
/// id, its `Cpus_allowed_list`).
fn reported(dir: &Path, name: &str) -> Vec<(String, String)> {
    let logs = dir.join("results").join(name).join("logs");
    let mut out = Vec::new();
    let mut recorded = games(dir, name);
    recorded.sort_by(|a, b| a.id.cmp(&b.id));
    for g in recorded {
        for (side, bot) in [("first", &g.first), ("second", &g.second)] {
            let path = logs.join(format!("{}-{side}-{bot}.stderr", g.id));
            let text = std::fs::read_to_string(&path).unwrap();
            let list = text
                .lines()
                .find_map(|l| l.strip_prefix("Cpus_allowed_list:"))
                .unwrap_or_else(|| panic!("{}: {text}", path.display()))
                .trim()
                .to_string();
            out.push((g.id.clone(), list));
        }
    }
    out
}

fn config(dir: &Path, name: &str, extra: &str) -> std::path::PathBuf {
    let script = dir.join("cpus.sh");
    std::fs::write(
        &script,
        "#!/bin/sh\ngrep Cpus_allowed_list /proc/self/status >&2\nexec \"$1\" bot random\n",
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let bot = |n: &str| {
        format!(
            "[[bots]]\nname = \"{n}\"\ncommand = {:?}\nargs = [{:?}]\n",
            script.display().to_string(),
            env!("CARGO_BIN_EXE_arena")
        )
    };
    write_config(
        dir,
        name,
        &format!(
            "name = \"{name}\"\ngames_per_pair = 4\nseed = 1\nconcurrency = 2\nsandbox = \"none\"\n{extra}\n\
             [game]\nname = \"tictactoe\"\n[time_control]\ntime_ms = 10000\n{}{}",
            bot("a"),
            bot("b")
        ),
    )
}

#[test]
fn each_game_slot_runs_its_bots_on_cpus_of_its_own() {
    let mine = affinity::allowed().unwrap();
    let two: Vec<usize> = mine.iter().copied().take(2).collect();
    let list = two
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(",");
    let tmp = tempfile::tempdir().unwrap();
    let path = config(tmp.path(), "pinned", &format!("affinity = {list:?}"));
    let out = run(tmp.path(), &path, &[]);
    assert!(out.status.success(), "{}", text(&out));
    let seen = reported(tmp.path(), "pinned");
    assert_eq!(seen.len(), 8);
    for pair in seen.chunks(2) {
        // Both bots of a game on the same single CPU, one of the two given.
        assert_eq!(pair[0].1, pair[1].1, "{seen:?}");
        let cpu: usize = pair[0].1.parse().unwrap_or_else(|_| panic!("{seen:?}"));
        assert!(two.contains(&cpu), "{seen:?}");
    }
    // The first two games start together, in slots 0 and 1.
    let first_two = [&seen[0], &seen[2]].map(|(id, cpu)| (id.as_str(), cpu.clone()));
    let expected = [
        ("g0001", two[0].to_string()),
        ("g0002", two[two.len() - 1].to_string()),
    ];
    assert_eq!(first_two, expected.each_ref().map(|(i, c)| (*i, c.clone())));

    // `--affinity=CPU` overrides the config; `--affinity=off` turns it off; without either, the
    // bots may run where the arena may.
    let one = format!("--affinity={}", two[0]);
    let out = run(tmp.path(), &path, &["--fresh", &one]);
    assert!(out.status.success(), "{}", text(&out));
    for (_, cpu) in reported(tmp.path(), "pinned") {
        assert_eq!(cpu, two[0].to_string());
    }
    let out = run(tmp.path(), &path, &["--fresh", "--affinity=off"]);
    assert!(out.status.success(), "{}", text(&out));
    let anywhere = Cpus::List(mine.clone()).to_string();
    for (_, cpu) in reported(tmp.path(), "pinned") {
        assert_eq!(cpu, anywhere, "--affinity=off");
    }
    // The value needs its `=`: a config after a bare --affinity is a config, not a CPU list.
    let out = common::arena()
        .args(["run", "--affinity"])
        .arg(&path)
        .arg("--results")
        .arg(tmp.path().join("results"))
        .arg("--fresh")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    if mine.len() > 1 {
        // `--affinity` alone is all of them, shared out: no game gets every CPU.
        for (_, cpu) in reported(tmp.path(), "pinned") {
            assert_ne!(cpu, anywhere, "a bare --affinity");
        }
    }
    let free = config(tmp.path(), "free", "");
    let out = run(tmp.path(), &free, &[]);
    assert!(out.status.success(), "{}", text(&out));
    for (_, cpu) in reported(tmp.path(), "free") {
        assert_eq!(cpu, anywhere);
    }
}

#[test]
fn cpus_the_arena_may_not_use_are_refused_before_any_game() {
    let tmp = tempfile::tempdir().unwrap();
    let path = config(tmp.path(), "typo", "affinity = \"0-x\"");
    let out = run(tmp.path(), &path, &[]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("affinity: CPUs \"0-x\": \"x\" is no CPU number"),
        "{stderr}"
    );
    if !affinity::allowed().unwrap().contains(&1023) {
        let path = config(tmp.path(), "absent", "affinity = \"1023\"");
        let out = run(tmp.path(), &path, &[]);
        assert!(!out.status.success());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("affinity: CPU 1023 is not one the arena may run on"),
            "{stderr}"
        );
        assert!(
            !tmp.path().join("results/absent/games.csv").exists(),
            "no game played"
        );
    }
}

#[test]
fn a_cpu_list_after_a_bare_affinity_gets_a_hint_to_write_its_equals() {
    let tmp = tempfile::tempdir().unwrap();
    let path = config(tmp.path(), "spelled", "");
    let hint = "--affinity takes its CPU list after '=': --affinity=0-3";
    let stderr = |args: &[&str]| {
        let out = common::arena()
            .current_dir(tmp.path())
            .arg("run")
            .args(args)
            .arg(&path)
            .arg("--results")
            .arg(tmp.path().join("results"))
            .output()
            .unwrap();
        assert!(!out.status.success(), "{}", text(&out));
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    // The old spelling: 0-3 is read as a config, which does not exist.
    let e = stderr(&["--affinity", "0-3"]);
    assert!(e.contains("0-3") && e.contains(hint), "{e}");
    // Only a missing CPU list with --affinity given gets the hint.
    let e = stderr(&["--affinity", "absent.toml"]);
    assert!(e.contains("absent.toml") && !e.contains("after '='"), "{e}");
    let e = stderr(&["0-3"]);
    assert!(e.contains("0-3") && !e.contains("after '='"), "{e}");
}
