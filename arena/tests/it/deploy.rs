//! `--shard auto` and the files of deploy/: the Kubernetes manifests parse and have the fields of their
//! kinds, consistent with the arena flags in their commands; the commands of the manifests and the Slurm
//! scripts, run here with the scheduler's variables set by hand, play and merge every shard into the games
//! of an unsplit run. (A real Slurm cluster runs them in deploy/slurm/local-cluster.sh.)

use crate::common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::{arena, text};
use serde::Deserialize;
use serde_norway::Value;

/// The variables of both schedulers, removed from every child so a test run inside a Slurm job or a
/// Kubernetes pod sees only what it sets.
const SCHEDULER_VARS: [&str; 7] = [
    "SLURM_JOB_ID",
    "SLURM_ARRAY_TASK_ID",
    "SLURM_ARRAY_TASK_MIN",
    "SLURM_ARRAY_TASK_MAX",
    "SLURM_ARRAY_TASK_STEP",
    "SLURM_ARRAY_TASK_COUNT",
    "JOB_COMPLETION_INDEX",
];

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_owned()
}

fn clean(mut cmd: Command) -> Command {
    for var in SCHEDULER_VARS {
        cmd.env_remove(var);
    }
    cmd
}

/// Every YAML document of deploy/kubernetes/, with its file.
fn manifests() -> Vec<(PathBuf, Value)> {
    let dir = repo().join("deploy/kubernetes");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "yaml" || x == "yml"))
        .collect();
    files.sort();
    let mut docs = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        for doc in serde_norway::Deserializer::from_str(&text) {
            let value = Value::deserialize(doc)
                .unwrap_or_else(|e| panic!("{}: not YAML: {e}", file.display()));
            docs.push((file.clone(), value));
        }
    }
    docs
}

fn str_of<'a>(v: &'a Value, what: &str) -> &'a str {
    v.as_str()
        .unwrap_or_else(|| panic!("{what} is not a string: {v:?}"))
}

/// The one object of `kind` named `name`.
fn object<'a>(docs: &'a [(PathBuf, Value)], kind: &str, name: &str) -> &'a Value {
    let found: Vec<&Value> = docs
        .iter()
        .map(|(_, v)| v)
        .filter(|v| {
            v["kind"].as_str() == Some(kind) && v["metadata"]["name"].as_str() == Some(name)
        })
        .collect();
    assert_eq!(found.len(), 1, "one {kind} named {name}");
    found[0]
}

/// The single container of a Job, its command as strings, and the claim mounted at each path.
struct Pod {
    command: Vec<String>,
    working_dir: String,
    mounts: Vec<(String, String)>,
}

fn pod(job: &Value, name: &str) -> Pod {
    assert_eq!(job["apiVersion"].as_str(), Some("batch/v1"), "{name}");
    let spec = &job["spec"]["template"]["spec"];
    let restart = str_of(&spec["restartPolicy"], "restartPolicy");
    assert!(
        ["Never", "OnFailure"].contains(&restart),
        "{name}: a Job's pods restart Never or OnFailure, not {restart}"
    );
    let containers = spec["containers"].as_sequence().unwrap();
    assert_eq!(containers.len(), 1, "{name}: one container");
    let c = &containers[0];
    assert!(!str_of(&c["image"], "image").is_empty());
    let command: Vec<String> = c["command"]
        .as_sequence()
        .unwrap_or_else(|| panic!("{name}: no command"))
        .iter()
        .map(|a| str_of(a, "a command argument").to_string())
        .collect();
    let volumes = spec["volumes"].as_sequence().unwrap();
    let mounts = c["volumeMounts"]
        .as_sequence()
        .unwrap_or_else(|| panic!("{name}: no volumeMounts"))
        .iter()
        .map(|m| {
            let volume = str_of(&m["name"], "a mount's name");
            let v = volumes
                .iter()
                .find(|v| v["name"].as_str() == Some(volume))
                .unwrap_or_else(|| panic!("{name}: the mount {volume} has no volume"));
            let claim = str_of(&v["persistentVolumeClaim"]["claimName"], "claimName");
            (
                str_of(&m["mountPath"], "mountPath").to_string(),
                claim.to_string(),
            )
        })
        .collect();
    Pod {
        command,
        working_dir: str_of(&c["workingDir"], "workingDir").to_string(),
        mounts,
    }
}

/// The value after `flag` in `args`.
fn flag<'a>(args: &'a [String], flag: &str) -> Option<&'a str> {
    args.iter()
        .position(|a| a == flag)
        .map(|k| args[k + 1].as_str())
}

#[test]
fn the_kubernetes_manifests_have_the_fields_of_their_kinds() {
    let docs = manifests();
    let kinds: BTreeSet<&str> = docs
        .iter()
        .map(|(_, v)| str_of(&v["kind"], "kind"))
        .collect();
    assert_eq!(
        kinds,
        BTreeSet::from(["Job", "PersistentVolumeClaim"]),
        "the kinds of deploy/kubernetes/"
    );

    // The shared volume: every shard's pod and the merge Job write to it, on any node.
    let pvc = object(&docs, "PersistentVolumeClaim", "arena-results");
    assert_eq!(pvc["apiVersion"].as_str(), Some("v1"));
    let modes: Vec<&str> = pvc["spec"]["accessModes"]
        .as_sequence()
        .unwrap()
        .iter()
        .map(|m| str_of(m, "an access mode"))
        .collect();
    assert_eq!(modes, ["ReadWriteMany"]);
    assert!(pvc["spec"]["resources"]["requests"]["storage"].is_string());

    // The Indexed Job of the shards: completions = parallelism = --shard-count = [shards] count.
    let shards = object(&docs, "Job", "arena-shards");
    let spec = &shards["spec"];
    assert_eq!(spec["completionMode"].as_str(), Some("Indexed"));
    let completions = spec["completions"].as_u64().expect("completions");
    assert_eq!(spec["parallelism"].as_u64(), Some(completions));
    let p = pod(shards, "arena-shards");
    let args = &p.command;
    assert_eq!(&args[..2], ["arena", "run"]);
    assert_eq!(flag(args, "--shard"), Some("auto"));
    let count: u64 = flag(args, "--shard-count").unwrap().parse().unwrap();
    assert_eq!(count, completions, "--shard-count is the Job's completions");
    let results = flag(args, "--results").expect("--results");
    assert_eq!(
        p.mounts,
        [(results.to_string(), "arena-results".to_string())]
    );
    // The config, as the image holds it: configs/ under the working directory.
    assert_eq!(p.working_dir, "/arena");
    let config_path = repo().join(&args[2]);
    let config = arena::config::Config::load(&config_path).unwrap();
    if let Some(s) = &config.shards {
        assert_eq!(u64::from(s.count), count, "[shards] count of {}", args[2]);
    }
    let name = &config.name;

    // The merge Job: every shard folder by name, into the tournament's folder, on the same volume.
    let merge = object(&docs, "Job", "arena-merge");
    assert!(
        merge["spec"]["completionMode"].is_null()
            || merge["spec"]["completionMode"].as_str() == Some("NonIndexed")
    );
    assert_eq!(merge["spec"]["completions"].as_u64().unwrap_or(1), 1);
    let m = pod(merge, "arena-merge");
    assert_eq!(m.mounts, p.mounts);
    let expected: Vec<String> = ["arena", "merge"]
        .into_iter()
        .map(String::from)
        .chain((1..=count).map(|k| format!("{results}/{name}.shard-{k}-of-{count}")))
        .chain([
            "--into".to_string(),
            format!("{results}/{name}"),
            "--complete".to_string(),
        ])
        .collect();
    assert_eq!(m.command, expected);
}

/// Runs `args` (a deploy file's command, `arena` first) with this build's arena, from the repository's
/// folder, with `results` in place of the container's results path `from`, and `env` set.
fn run_command(args: &[String], from: &str, results: &Path, env: &[(&str, String)]) -> Output {
    let mut cmd = clean(arena());
    cmd.current_dir(repo());
    for a in &args[1..] {
        match a.strip_prefix(from) {
            Some(rest) => cmd.arg(format!("{}{rest}", results.display())),
            None => cmd.arg(a),
        };
    }
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    assert!(out.status.success(), "{args:?}\n{}", text(&out));
    out
}

/// The games of results folder `dir` that do not depend on timing: id, players, opening, moves, result,
/// termination, seed.
fn games(dir: &Path) -> Vec<String> {
    let mut rows: Vec<String> = arena::results::read_games_csv(&dir.join("games.csv"))
        .unwrap()
        .into_iter()
        .map(|r| {
            format!(
                "{} {} {} {:?} {:?} {:?} {} {}",
                r.id, r.first, r.second, r.opening, r.moves, r.result, r.termination, r.seed
            )
        })
        .collect();
    rows.sort();
    rows
}

/// The tournament of the deploy files, unsplit, into `results`.
fn unsplit(config: &str, results: &Path) -> Vec<String> {
    let args: Vec<String> = [
        "arena",
        "run",
        config,
        "--results",
        "/results",
        "--no-progress",
    ]
    .map(String::from)
    .to_vec();
    run_command(&args, "/results", results, &[]);
    let name = arena::config::Config::load(&repo().join(config))
        .unwrap()
        .name;
    games(&results.join(name))
}

#[test]
fn the_kubernetes_commands_play_and_merge_the_games_of_an_unsplit_run() {
    let docs = manifests();
    let shards = pod(object(&docs, "Job", "arena-shards"), "arena-shards");
    let merge = pod(object(&docs, "Job", "arena-merge"), "arena-merge");
    let completions = object(&docs, "Job", "arena-shards")["spec"]["completions"]
        .as_u64()
        .unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let volume = tmp.path().join("volume");
    for index in 0..completions {
        let out = run_command(
            &shards.command,
            "/results",
            &volume,
            &[("JOB_COMPLETION_INDEX", index.to_string())],
        );
        let log = String::from_utf8_lossy(&out.stderr);
        assert!(
            log.contains(&format!(
                "shard {}/{completions} (JOB_COMPLETION_INDEX={index}",
                index + 1
            )),
            "{log}"
        );
    }
    run_command(&merge.command, "/results", &volume, &[]);
    let into = flag(&merge.command, "--into")
        .unwrap()
        .replace("/results", "");
    let merged = games(&volume.join(into.trim_start_matches('/')));
    let alone = unsplit(&shards.command[2], &tmp.path().join("unsplit"));
    assert_eq!(merged.len(), 24);
    assert_eq!(merged, alone);
}

#[test]
fn the_slurm_scripts_play_and_merge_the_games_of_an_unsplit_run() {
    let config = "configs/shards-connect4.toml";
    let tmp = tempfile::tempdir().unwrap();
    let results = tmp.path().join("shared");
    let script = |file: &str| {
        let mut cmd = clean(Command::new("bash"));
        cmd.current_dir(repo())
            .arg(repo().join("deploy/slurm").join(file))
            .env("ARENA", env!("CARGO_BIN_EXE_arena"))
            .env("ARENA_RESULTS", &results);
        cmd
    };
    // sbatch --array=1-4: tasks 1 to 4, as Slurm numbers them.
    for id in 1..=4 {
        let out = script("shards.sbatch")
            .arg(config)
            .env("SLURM_JOB_ID", (100 + id).to_string())
            .env("SLURM_ARRAY_TASK_ID", id.to_string())
            .env("SLURM_ARRAY_TASK_MIN", "1")
            .env("SLURM_ARRAY_TASK_MAX", "4")
            .env("SLURM_ARRAY_TASK_STEP", "1")
            .env("SLURM_ARRAY_TASK_COUNT", "4")
            .output()
            .unwrap();
        assert!(out.status.success(), "task {id}\n{}", text(&out));
        assert!(
            String::from_utf8_lossy(&out.stderr).contains(&format!(
                "shard {id}/4 (SLURM_ARRAY_TASK_ID={id} of the Slurm job array 1-4)"
            )),
            "{}",
            text(&out)
        );
    }
    let out = script("merge.sbatch")
        .args(["shards-connect4", "4"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("merged 4 folders"),
        "{}",
        text(&out)
    );
    let merged = games(&results.join("shards-connect4"));
    assert_eq!(merged, unsplit(config, &tmp.path().join("unsplit")));

    // A missing shard fails the merge rather than merging part of the tournament.
    std::fs::remove_dir_all(results.join("shards-connect4.shard-3-of-4")).unwrap();
    let out = script("merge.sbatch")
        .args(["shards-connect4", "4"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(
        text(&out).contains("shard-3-of-4 has no games.csv"),
        "{}",
        text(&out)
    );
}

#[test]
fn the_slurm_scripts_are_valid_bash() {
    for file in [
        "shards.sbatch",
        "merge.sbatch",
        "submit.sh",
        "local-cluster.sh",
    ] {
        let out = Command::new("bash")
            .arg("-n")
            .arg(repo().join("deploy/slurm").join(file))
            .output()
            .unwrap();
        assert!(out.status.success(), "{file}\n{}", text(&out));
    }
}

#[test]
fn shard_auto_outside_a_scheduler_is_a_clear_error() {
    let out = clean(arena())
        .current_dir(repo())
        .args([
            "run",
            "configs/shards-connect4.toml",
            "--shard",
            "auto",
            "--results",
        ])
        .arg(tempfile::tempdir().unwrap().path())
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    for needed in ["SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX", "--shard K/N"] {
        assert!(err.contains(needed), "{err}");
    }
}

#[test]
fn an_sprt_match_refuses_shards_in_the_command() {
    let tmp = tempfile::tempdir().unwrap();
    for shard in ["auto", "1/2"] {
        let out = clean(arena())
            .current_dir(repo())
            .args([
                "run",
                "configs/sprt-c4-zx.toml",
                "--shard",
                shard,
                "--results",
            ])
            .arg(tmp.path())
            .env("JOB_COMPLETION_INDEX", "0")
            .output()
            .unwrap();
        assert!(!out.status.success());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("stays on one machine"), "{err}");
    }
    // Nothing was played or created.
    assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 0);
}
