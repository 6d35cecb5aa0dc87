//! `--shard auto` and the files of deploy/: the Kubernetes manifests parse and have the fields of their
//! kinds, consistent with the arena flags in their commands; the commands of the manifests and the Slurm
//! scripts, run here with the scheduler's variables set by hand, play and merge every shard into the games
//! of an unsplit run. (A real Slurm cluster runs them in deploy/slurm/local-cluster.sh.) The contest's
//! manifests (a PostgreSQL StatefulSet, the server, the workers) and the Slurm workers' script: their
//! commands, expanded as Kubernetes and Slurm would, get past every flag and stop at the database; on a
//! PostgreSQL (`ARENA_TEST_POSTGRES`) they serve and play a competition.

use crate::common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::{arena, execute_postgres, fresh_postgres, text};
use serde::Deserialize;
use serde_norway::Value;

/// The variables of both schedulers, removed from every child so a test run inside a Slurm job or a
/// Kubernetes pod sees only what it sets.
const SCHEDULER_VARS: [&str; 9] = [
    "SLURM_JOB_ID",
    "SLURM_ARRAY_JOB_ID",
    "SLURM_CPUS_PER_TASK",
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

/// Where a container's mount comes from.
#[derive(Clone, Debug, PartialEq)]
enum Source {
    /// A PersistentVolumeClaim, by its name.
    Claim(String),
    /// A ConfigMap, by its name.
    ConfigMap(String),
    /// A folder of the pod's own (`emptyDir`).
    EmptyDir,
}

/// Where an environment variable of a container comes from.
#[derive(Debug, PartialEq)]
enum Env {
    /// `value`, which may hold `$(VAR)` references to the variables before it.
    Value(String),
    /// `valueFrom.secretKeyRef`.
    Secret { name: String, key: String },
    /// `valueFrom.fieldRef` (the downward API), by its field path.
    Field(String),
}

/// The single container of a pod: its command as strings, where each mount comes from, its
/// environment, and the container itself for the fields of one kind of pod.
struct Pod {
    command: Vec<String>,
    working_dir: String,
    mounts: Vec<(String, Source)>,
    env: Vec<(String, Env)>,
    container: Value,
}

/// The single container of the pod `spec` (a pod template's spec) of the workload `name`.
fn container(spec: &Value, name: &str) -> Pod {
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
            let source = if v["persistentVolumeClaim"].is_mapping() {
                Source::Claim(str_of(&v["persistentVolumeClaim"]["claimName"], "claimName").into())
            } else if v["configMap"].is_mapping() {
                Source::ConfigMap(str_of(&v["configMap"]["name"], "a ConfigMap's name").into())
            } else if v["emptyDir"].is_mapping() {
                Source::EmptyDir
            } else {
                panic!("{name}: the volume {volume} is of a kind these tests do not know: {v:?}")
            };
            (str_of(&m["mountPath"], "mountPath").to_string(), source)
        })
        .collect();
    let env = c["env"]
        .as_sequence()
        .map(|e| e.as_slice())
        .unwrap_or_default()
        .iter()
        .map(|e| {
            let var = str_of(&e["name"], "an env name").to_string();
            let from = &e["valueFrom"];
            let value = if let Some(v) = e["value"].as_str() {
                Env::Value(v.to_string())
            } else if from["secretKeyRef"].is_mapping() {
                Env::Secret {
                    name: str_of(&from["secretKeyRef"]["name"], "a Secret's name").into(),
                    key: str_of(&from["secretKeyRef"]["key"], "a Secret's key").into(),
                }
            } else if from["fieldRef"].is_mapping() {
                Env::Field(str_of(&from["fieldRef"]["fieldPath"], "fieldPath").into())
            } else {
                panic!("{name}: env {var} has neither a value nor a known valueFrom: {e:?}")
            };
            (var, value)
        })
        .collect();
    Pod {
        command,
        working_dir: str_of(&c["workingDir"], "workingDir").to_string(),
        mounts,
        env,
        container: c.clone(),
    }
}

/// The single container of a Job.
fn pod(job: &Value, name: &str) -> Pod {
    assert_eq!(job["apiVersion"].as_str(), Some("batch/v1"), "{name}");
    let spec = &job["spec"]["template"]["spec"];
    let restart = str_of(&spec["restartPolicy"], "restartPolicy");
    assert!(
        ["Never", "OnFailure"].contains(&restart),
        "{name}: a Job's pods restart Never or OnFailure, not {restart}"
    );
    container(spec, name)
}

/// Whether every label of the `selector` (a mapping) is one of `labels`, and there is one at least.
fn selects(selector: &Value, labels: &Value) -> bool {
    let selector = selector.as_mapping().expect("a selector");
    let labels = labels.as_mapping().expect("labels");
    !selector.is_empty() && selector.iter().all(|(k, v)| labels.get(k) == Some(v))
}

/// The Deployment `name` (apps/v1; its selector picks its pods; they restart Always) and its single
/// container.
fn deployment<'a>(docs: &'a [(PathBuf, Value)], name: &str) -> (&'a Value, Pod) {
    let d = object(docs, "Deployment", name);
    assert_eq!(d["apiVersion"].as_str(), Some("apps/v1"), "{name}");
    let template = &d["spec"]["template"];
    assert!(
        selects(
            &d["spec"]["selector"]["matchLabels"],
            &template["metadata"]["labels"]
        ),
        "{name}: its selector does not pick its own pods"
    );
    let spec = &template["spec"];
    assert!(
        spec["restartPolicy"].is_null() || spec["restartPolicy"].as_str() == Some("Always"),
        "{name}: a Deployment's pods restart Always"
    );
    (d, container(spec, name))
}

/// The Service `name` (v1) that selects the pods of `template` and sends its port to their named port
/// `port`; returns the Service's port.
fn service(docs: &[(PathBuf, Value)], name: &str, template: &Value, port: &str) -> u64 {
    let s = object(docs, "Service", name);
    assert_eq!(s["apiVersion"].as_str(), Some("v1"), "{name}");
    assert!(
        selects(&s["spec"]["selector"], &template["metadata"]["labels"]),
        "Service {name} does not select its pods"
    );
    let ports = s["spec"]["ports"].as_sequence().unwrap();
    assert_eq!(ports.len(), 1, "Service {name}: one port");
    assert_eq!(
        ports[0]["targetPort"].as_str(),
        Some(port),
        "Service {name}"
    );
    let named: Vec<&str> = template["spec"]["containers"][0]["ports"]
        .as_sequence()
        .unwrap_or_else(|| panic!("{name}: its pods declare no port"))
        .iter()
        .filter_map(|p| p["name"].as_str())
        .collect();
    assert!(
        named.contains(&port),
        "{name}: no container port named {port}"
    );
    ports[0]["port"].as_u64().expect("a Service's port")
}

/// The container port named `port` of `p`.
fn container_port(p: &Pod, port: &str) -> u64 {
    p.container["ports"]
        .as_sequence()
        .unwrap()
        .iter()
        .find(|x| x["name"].as_str() == Some(port))
        .and_then(|x| x["containerPort"].as_u64())
        .unwrap_or_else(|| panic!("no container port named {port}"))
}

/// Kubernetes' expansion of a command argument or an env value: `$(VAR)` is the value of `VAR` when
/// it is among `vars`, and left as it is otherwise; `$$` is `$`.
fn expand(text: &str, vars: &[(String, String)]) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(k) = rest.find('$') {
        out.push_str(&rest[..k]);
        rest = &rest[k..];
        if let Some(after) = rest.strip_prefix("$$") {
            out.push('$');
            rest = after;
        } else if let Some((var, after)) = rest
            .strip_prefix("$(")
            .and_then(|r| r.split_once(')'))
            .filter(|(var, _)| vars.iter().any(|(v, _)| v == var))
        {
            out.push_str(&vars.iter().find(|(v, _)| v == var).unwrap().1);
            rest = after;
        } else {
            out.push('$');
            rest = &rest[1..];
        }
    }
    out.push_str(rest);
    out
}

/// The value of `key` in the Secret `name` (`stringData`, as the example Secret gives it).
fn secret(docs: &[(PathBuf, Value)], name: &str, key: &str) -> String {
    let s = object(docs, "Secret", name);
    str_of(&s["stringData"][key], &format!("Secret {name}'s {key}")).to_string()
}

/// The environment of `p` in the pod `pod_name`, as Kubernetes sets it: Secrets read from their
/// manifests, the downward API's metadata.name, each value expanded with the variables before it.
/// Every `$(VAR)` must name one of those.
fn environment(p: &Pod, docs: &[(PathBuf, Value)], pod_name: &str) -> Vec<(String, String)> {
    let mut vars: Vec<(String, String)> = Vec::new();
    for (var, from) in &p.env {
        let value = match from {
            Env::Value(v) => expand(v, &vars),
            Env::Secret { name, key } => secret(docs, name, key),
            Env::Field(f) => {
                assert_eq!(f, "metadata.name", "the only field these pods read");
                pod_name.to_string()
            }
        };
        assert!(
            !value.contains("$("),
            "{var}: a reference to a variable not defined before it: {value}"
        );
        vars.push((var.clone(), value));
    }
    vars
}

/// The command of `p` as the pod `pod_name` would run it, with every mount a folder under `root`
/// (a ConfigMap's keys written there as files, as Kubernetes mounts them), and its environment.
fn local_command(
    p: &Pod,
    docs: &[(PathBuf, Value)],
    pod_name: &str,
    root: &Path,
) -> (Vec<String>, Vec<(String, String)>) {
    let env = environment(p, docs, pod_name);
    let mut args: Vec<String> = p.command.iter().map(|a| expand(a, &env)).collect();
    for a in &args {
        assert!(
            !a.contains("$("),
            "an undefined variable in the command: {a}"
        );
    }
    for (path, source) in &p.mounts {
        let local = root.join(path.trim_start_matches('/'));
        std::fs::create_dir_all(&local).unwrap();
        if let Source::ConfigMap(name) = source {
            let map = object(docs, "ConfigMap", name)["data"]
                .as_mapping()
                .unwrap_or_else(|| panic!("ConfigMap {name}: no data"));
            for (key, value) in map {
                std::fs::write(
                    local.join(str_of(key, "a ConfigMap key")),
                    str_of(value, "a ConfigMap value"),
                )
                .unwrap();
            }
        }
        for a in &mut args {
            if a == path || a.starts_with(&format!("{path}/")) {
                *a = format!("{}{}", local.display(), &a[path.len()..]);
            }
        }
    }
    (args, env)
}

/// A name Kubernetes may give a pod of the Deployment `deployment`, as long as they come: the
/// ReplicaSet's name (the Deployment's and a pod-template hash of up to 10 characters) and 5 more.
fn pod_name(deployment: &str, k: usize) -> String {
    format!("{deployment}-6c9f7d8b4c-x2k9{k}")
}

/// Sets the value after `flag` in `args`.
fn set_flag(args: &mut [String], flag: &str, value: &str) {
    let k = args
        .iter()
        .position(|a| a == flag)
        .unwrap_or_else(|| panic!("no {flag} in {args:?}"));
    args[k + 1] = value.to_string();
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
        BTreeSet::from([
            "ConfigMap",
            "Deployment",
            "Job",
            "PersistentVolumeClaim",
            "Secret",
            "Service",
            "StatefulSet"
        ]),
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
        [(results.to_string(), Source::Claim("arena-results".into()))]
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
        "workers.sbatch",
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

/// The PostgreSQL of the contest's manifests: its Service's host and port, its user and its database.
struct Database {
    host: String,
    port: u64,
    user: String,
    name: String,
}

/// The env entry `var` of a container (a YAML mapping).
fn env_entry<'a>(c: &'a Value, var: &str) -> &'a Value {
    c["env"]
        .as_sequence()
        .unwrap()
        .iter()
        .find(|e| e["name"].as_str() == Some(var))
        .unwrap_or_else(|| panic!("no env {var}"))
}

/// contest-postgres.yaml: the official image, one replica, its data on a claim of the StatefulSet's
/// template, the password from the Secret, a Service in front.
fn postgres(docs: &[(PathBuf, Value)]) -> Database {
    let pg = object(docs, "StatefulSet", "arena-postgres");
    assert_eq!(pg["apiVersion"].as_str(), Some("apps/v1"));
    assert_eq!(pg["spec"]["replicas"].as_u64(), Some(1));
    let template = &pg["spec"]["template"];
    assert!(selects(
        &pg["spec"]["selector"]["matchLabels"],
        &template["metadata"]["labels"]
    ));
    let containers = template["spec"]["containers"].as_sequence().unwrap();
    assert_eq!(containers.len(), 1);
    let c = &containers[0];
    assert_eq!(c["image"].as_str(), Some("postgres:15"));
    let user = str_of(&env_entry(c, "POSTGRES_USER")["value"], "POSTGRES_USER");
    let name = str_of(&env_entry(c, "POSTGRES_DB")["value"], "POSTGRES_DB");
    let password = &env_entry(c, "POSTGRES_PASSWORD")["valueFrom"]["secretKeyRef"];
    assert_eq!(password["name"].as_str(), Some("arena-postgres"));
    assert_eq!(password["key"].as_str(), Some("password"));
    // The data: on a claim of the template (kept when the StatefulSet is deleted), PGDATA a folder
    // below its mount (a fresh volume may hold lost+found, which initdb refuses).
    let mounts = c["volumeMounts"].as_sequence().unwrap();
    assert_eq!(mounts.len(), 1);
    let mount = str_of(&mounts[0]["mountPath"], "mountPath");
    let claim = pg["spec"]["volumeClaimTemplates"]
        .as_sequence()
        .expect("volumeClaimTemplates")
        .iter()
        .find(|t| t["metadata"]["name"] == mounts[0]["name"])
        .expect("the data's mount is a claim of the StatefulSet's template");
    assert_eq!(
        claim["spec"]["accessModes"].as_sequence().unwrap(),
        &[Value::from("ReadWriteOnce")]
    );
    assert!(claim["spec"]["resources"]["requests"]["storage"].is_string());
    let pgdata = str_of(&env_entry(c, "PGDATA")["value"], "PGDATA");
    assert!(
        Path::new(pgdata).starts_with(mount) && pgdata.trim_end_matches('/') != mount,
        "PGDATA {pgdata} below {mount}"
    );
    // Ready when it takes connections for the arena's user and database.
    let probe: Vec<String> = c["readinessProbe"]["exec"]["command"]
        .as_sequence()
        .expect("an exec readiness probe")
        .iter()
        .map(|a| str_of(a, "a probe argument").to_string())
        .collect();
    assert_eq!(probe[0], "pg_isready");
    assert_eq!(flag(&probe, "-U"), Some(user));
    assert_eq!(flag(&probe, "-d"), Some(name));
    let ports = c["ports"].as_sequence().unwrap();
    assert_eq!(ports[0]["containerPort"].as_u64(), Some(5432));
    assert_eq!(pg["spec"]["serviceName"].as_str(), Some("arena-postgres"));
    let port = service(docs, "arena-postgres", template, "postgres");
    Database {
        host: "arena-postgres".into(),
        port,
        user: user.into(),
        name: name.into(),
    }
}

/// Sets `var` in `env`, which must have it.
fn set_var(env: &mut [(String, String)], var: &str, value: &str) {
    let k = env
        .iter()
        .position(|(v, _)| v == var)
        .unwrap_or_else(|| panic!("no {var} in {env:?}"));
    env[k].1 = value.to_string();
}

/// The value of `var` in `env`.
fn var<'a>(env: &'a [(String, String)], var: &str) -> &'a str {
    env.iter()
        .find(|(v, _)| v == var)
        .map(|(_, value)| value.as_str())
        .unwrap_or_else(|| panic!("no {var} in {env:?}"))
}

#[test]
fn the_contest_manifests_have_the_fields_of_their_kinds() {
    let docs = manifests();
    // Every object is the arena's.
    for (file, v) in &docs {
        assert_eq!(
            v["metadata"]["labels"]["app.kubernetes.io/name"].as_str(),
            Some("arena"),
            "{}",
            file.display()
        );
    }
    // The Secret: its password goes into the --db URL unescaped.
    let s = object(&docs, "Secret", "arena-postgres");
    assert_eq!(s["apiVersion"].as_str(), Some("v1"));
    assert_eq!(s["type"].as_str(), Some("Opaque"));
    let password = secret(&docs, "arena-postgres", "password");
    assert!(
        !password.is_empty()
            && password
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "-._~".contains(c)),
        "the example password is not URL-safe: {password}"
    );
    let db = postgres(&docs);

    // The server: one replica, replaced by Recreate (a second server of the contest is refused), plays
    // nothing itself, listens on the port its Service sends to, ready when /api/health answers.
    let (server, sp) = deployment(&docs, "arena-server");
    assert_eq!(server["spec"]["replicas"].as_u64(), Some(1));
    assert_eq!(
        server["spec"]["strategy"]["type"].as_str(),
        Some("Recreate")
    );
    let args = &sp.command;
    assert_eq!(&args[..2], ["arena", "serve"]);
    assert_eq!(flag(args, "--slots"), Some("0"));
    // The URL (with its password) comes from ARENA_DB, which the arena reads itself: not on the
    // command line, where `ps` shows it to every user of the node.
    assert_eq!(flag(args, "--db"), None, "{args:?}");
    let listen: std::net::SocketAddr = flag(args, "--listen").unwrap().parse().unwrap();
    assert!(listen.ip().is_unspecified(), "--listen {listen}");
    assert_eq!(u64::from(listen.port()), container_port(&sp, "http"));
    service(&docs, "arena-server", &server["spec"]["template"], "http");
    let ready = &sp.container["readinessProbe"]["httpGet"];
    assert_eq!(ready["path"].as_str(), Some("/api/health"));
    assert_eq!(ready["port"].as_str(), Some("http"));
    assert_eq!(sp.working_dir, "/arena");
    // The contest file: a key of a mounted ConfigMap.
    let contest = &args[2];
    let (mount, source) = sp
        .mounts
        .iter()
        .find(|(path, _)| contest.starts_with(&format!("{path}/")))
        .expect("the contest file is on a mount");
    let Source::ConfigMap(map) = source else {
        panic!("the contest file's mount is not a ConfigMap: {source:?}")
    };
    let key = &contest[mount.len() + 1..];
    assert!(
        object(&docs, "ConfigMap", map)["data"][key].is_string(),
        "ConfigMap {map} has no {key}"
    );
    // The data folder: the claim of its own file.
    let results = flag(args, "--results").unwrap();
    assert!(sp.mounts.contains(&(
        results.to_string(),
        Source::Claim("arena-contest-data".into())
    )));
    let pvc = object(&docs, "PersistentVolumeClaim", "arena-contest-data");
    assert_eq!(
        pvc["spec"]["accessModes"].as_sequence().unwrap(),
        &[Value::from("ReadWriteOnce")]
    );
    // The database's URL: the user, the database and the Service of contest-postgres.yaml, the
    // password of the Secret it read (every secretKeyRef is that one).
    let url = format!(
        "postgres://{}:{password}@{}:{}/{}",
        db.user, db.host, db.port, db.name
    );
    let server_env = environment(&sp, &docs, &pod_name("arena-server", 0));
    assert_eq!(var(&server_env, "ARENA_DB"), url);

    // The workers: each `arena worker --slots 1` named after its pod, on the same contest file,
    // database and image, its data folder the pod's own.
    let (workers, wp) = deployment(&docs, "arena-worker");
    assert!(workers["spec"]["replicas"].as_u64().unwrap() >= 1);
    let w = &wp.command;
    assert_eq!(&w[..3], ["arena", "worker", contest.as_str()]);
    assert_eq!(flag(w, "--slots"), Some("1"));
    assert_eq!(flag(w, "--db"), None, "{w:?}");
    assert_eq!(flag(w, "--name"), Some("$(POD_NAME)"));
    assert!(wp
        .env
        .contains(&("POD_NAME".into(), Env::Field("metadata.name".into()))));
    let worker_env = environment(&wp, &docs, &pod_name("arena-worker", 0));
    assert_eq!(var(&worker_env, "ARENA_DB"), url);
    assert_eq!(
        var(&worker_env, "POD_NAME"),
        pod_name("arena-worker", 0),
        "the downward API's pod name"
    );
    // The longest name a pod of the Deployment gets is a valid worker name (at most 32 characters).
    assert!(
        pod_name("arena-worker", 0).len() <= 32,
        "the worker Deployment's name is too long for its pods' names to be worker names"
    );
    assert!(wp.mounts.contains(&(mount.clone(), source.clone())));
    assert!(wp
        .mounts
        .contains(&(flag(w, "--results").unwrap().to_string(), Source::EmptyDir)));
    assert_eq!(wp.working_dir, "/arena");
    for p in [&sp, &wp] {
        for (name, from) in &p.env {
            if let Env::Secret { name: s, key } = from {
                assert_eq!(
                    (s.as_str(), key.as_str()),
                    ("arena-postgres", "password"),
                    "{name}"
                );
            }
        }
        // The image of the Jobs, with bubblewrap in it, and the sandbox's needs: an uploaded bot runs
        // in new namespaces with a /proc of its own, which an unprivileged pod cannot mount.
        assert_eq!(p.container["image"], sp.container["image"]);
        assert_eq!(
            p.container["securityContext"]["privileged"].as_bool(),
            Some(true)
        );
    }
    let shards = pod(object(&docs, "Job", "arena-shards"), "arena-shards");
    assert_eq!(shards.container["image"], sp.container["image"]);
}

/// The address (`host:port`) of a database that hangs up on every connection: a client fails at once
/// (sqlx retries a refused connection for 30 s, which is what a pod started before its database sees).
fn hanging_up_database() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    std::thread::spawn(move || {
        for connection in listener.incoming() {
            drop(connection);
        }
    });
    addr
}

/// `url` with the database's Service replaced by `addr` (`host:port`) here.
fn reached_at(url: &str, db: &Database, addr: &str) -> String {
    let service = format!("@{}:{}/", db.host, db.port);
    assert!(url.contains(&service), "{url} is not at {service}");
    url.replace(&service, &format!("@{addr}/"))
}

#[test]
fn the_contest_commands_get_past_every_flag_and_stop_at_the_database() {
    // The server's and the workers' commands, expanded as Kubernetes would (the Secret, the pod's
    // name) and run here with their mounts as folders, the database's Service replaced by one that hangs
    // up: each must accept its flags, load the contest file and the worker's name, and
    // fail where it connects to the database (exit status 1, where a refused flag is 2), its log
    // showing the URL with the password hidden.
    let docs = manifests();
    let db = postgres(&docs);
    let password = secret(&docs, "arena-postgres", "password");
    let tmp = tempfile::tempdir().unwrap();
    let hangs_up = hanging_up_database();
    let run = |deployment_name: &str, pod: &str| {
        let (_, p) = deployment(&docs, deployment_name);
        let (args, mut env) = local_command(&p, &docs, pod, &tmp.path().join(pod));
        assert!(!args.iter().any(|a| a.contains(&password)), "{args:?}");
        let url = reached_at(var(&env, "ARENA_DB"), &db, &hangs_up);
        set_var(&mut env, "ARENA_DB", &url);
        // A worker would wait for the database (`--wait-db`): not here.
        let out = clean(arena())
            .current_dir(repo())
            .args(&args[1..])
            .envs(env)
            .env("ARENA_WAIT_DB", "0")
            .output()
            .unwrap();
        (args, out)
    };
    for (deployment_name, pod) in [
        ("arena-server", pod_name("arena-server", 0)),
        ("arena-worker", pod_name("arena-worker", 0)),
        ("arena-worker", pod_name("arena-worker", 1)),
    ] {
        let (args, out) = run(deployment_name, &pod);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}\n{}", text(&out));
        let shown = format!(
            "opening the database postgres://{}:***@{hangs_up}/{}",
            db.user, db.name
        );
        assert!(err.contains(&shown), "{pod}: {err}");
        assert!(!err.contains(&password), "{pod}: the password in its log");
    }
    // The check tells a bad name from a good one: a name the worker refuses stops it before the
    // database.
    let (_, out) = run("arena-worker", &"w".repeat(33));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success()
            && err.contains("worker name")
            && !err.contains("opening the database"),
        "{err}"
    );
}

/// The `#SBATCH` options of a Slurm script.
fn sbatch_options(file: &str) -> Vec<String> {
    std::fs::read_to_string(repo().join("deploy/slurm").join(file))
        .unwrap()
        .lines()
        .filter_map(|l| l.strip_prefix("#SBATCH "))
        .map(|o| o.trim().to_string())
        .collect()
}

/// deploy/slurm/workers.sbatch as task 3 of the array job 4242 with 2 CPUs a task, on the contest file
/// `contest` and the database `db` (`None`: ARENA_DB unset), with `arena` as ARENA.
fn slurm_worker(arena: &Path, contest: &Path, db: Option<&str>, results: &Path) -> Command {
    let mut cmd = clean(Command::new("bash"));
    cmd.current_dir(repo())
        .arg(repo().join("deploy/slurm/workers.sbatch"))
        .arg(contest)
        .env("ARENA", arena)
        .env("ARENA_RESULTS", results)
        .env("SLURM_JOB_ID", "4245")
        .env("SLURM_ARRAY_JOB_ID", "4242")
        .env("SLURM_ARRAY_TASK_ID", "3")
        .env("SLURM_CPUS_PER_TASK", "2")
        // A worker would wait for a database out of reach (`--wait-db`): not in these tests.
        .env("ARENA_WAIT_DB", "0")
        .env_remove("ARENA_DB");
    if let Some(url) = db {
        cmd.env("ARENA_DB", url);
    }
    cmd
}

#[test]
fn the_slurm_workers_script_runs_arena_worker_named_after_its_task() {
    let options = sbatch_options("workers.sbatch");
    // SIGTERM to the batch shell (the worker: the script execs it) a while before the time limit, so
    // the worker gives its games back and exits 0 instead of being killed.
    let signal = options
        .iter()
        .find_map(|o| o.strip_prefix("--signal=B:TERM@"))
        .expect("#SBATCH --signal=B:TERM@<seconds>");
    assert!(signal.parse::<u32>().unwrap() >= 30, "{signal}");
    assert!(options.iter().any(|o| o.starts_with("--array=")));
    assert!(options.iter().any(|o| o.starts_with("--cpus-per-task=")));

    let tmp = tempfile::tempdir().unwrap();
    let contest = repo().join("configs/contest-connect4.toml");
    let results = tmp.path().join("results");
    // Its command line, word for word: a stand-in ARENA that prints its arguments, then ARENA_DB.
    let echo = tmp.path().join("echo-args");
    std::fs::write(
        &echo,
        "#!/bin/sh\nprintf '%s\\n' \"$@\"\nprintf 'ARENA_DB=%s\\n' \"$ARENA_DB\"\n",
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&echo, std::fs::Permissions::from_mode(0o755)).unwrap();
    let url = "postgres://arena:secret@db.example.org:5432/arena";
    let out = slurm_worker(&echo, &contest, Some(url), &results)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let mut args: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(String::from)
        .collect();
    // The worker reads the URL from its environment; the password is on no command line.
    assert_eq!(args.pop(), Some(format!("ARENA_DB={url}")));
    assert_eq!(&args[..2], ["worker", contest.to_str().unwrap()]);
    assert_eq!(flag(&args, "--db"), None, "{args:?}");
    assert!(!args.iter().any(|a| a.contains("secret")), "{args:?}");
    assert_eq!(flag(&args, "--name"), Some("slurm-4242-3"));
    assert_eq!(flag(&args, "--slots"), Some("2"));
    assert_eq!(flag(&args, "--results"), results.to_str());

    // Without ARENA_DB it says what to set, and starts nothing.
    let out = slurm_worker(&echo, &contest, None, &results)
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(text(&out).contains("set ARENA_DB"), "{}", text(&out));
    assert!(out.stdout.is_empty());

    // The real arena takes every flag and the name, and stops at the database (one that hangs up).
    let hangs_up = format!("postgres://arena:secret@{}/arena", hanging_up_database());
    let out = slurm_worker(
        Path::new(env!("CARGO_BIN_EXE_arena")),
        &contest,
        Some(&hangs_up),
        &results,
    )
    .output()
    .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        text(&out).contains("opening the database postgres://arena:***@127.0.0.1"),
        "{}",
        text(&out)
    );
}

/// A process of the test, killed when dropped (a failed test leaves nothing running).
struct Running(std::process::Child);

impl Running {
    /// SIGTERM, as Kubernetes sends a pod it deletes (and Slurm with --signal), then its exit status
    /// within `grace` (the pod's terminationGracePeriodSeconds).
    fn terminate(mut self, grace: std::time::Duration) -> std::process::ExitStatus {
        use nix::sys::signal::{kill, Signal};
        kill(
            nix::unistd::Pid::from_raw(self.0.id() as i32),
            Signal::SIGTERM,
        )
        .unwrap();
        let start = std::time::Instant::now();
        loop {
            if let Some(status) = self.0.try_wait().unwrap() {
                return status;
            }
            assert!(
                start.elapsed() < grace,
                "not stopped {grace:?} after SIGTERM"
            );
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A pod's terminationGracePeriodSeconds (Kubernetes' default, 30, when absent).
fn grace(deployment: &Value) -> std::time::Duration {
    std::time::Duration::from_secs(
        deployment["spec"]["template"]["spec"]["terminationGracePeriodSeconds"]
            .as_u64()
            .unwrap_or(30),
    )
}

/// The command of the README's `kubectl exec deploy/<deployment> -- sh -c '…'` line.
fn readme_exec(deployment: &str) -> String {
    let readme = std::fs::read_to_string(repo().join("deploy/kubernetes/README.md")).unwrap();
    let prefix = format!("kubectl exec deploy/{deployment} -- sh -c '");
    let line = readme
        .lines()
        .find(|l| l.starts_with(&prefix))
        .unwrap_or_else(|| panic!("no `{prefix}…'` line in deploy/kubernetes/README.md"));
    line[prefix.len()..]
        .strip_suffix('\'')
        .expect("the line ends with its command's quote")
        .to_string()
}

#[test]
fn the_contest_commands_serve_and_play_a_competition_on_postgres() {
    // The server's pod, two workers' pods and a Slurm worker, each running its deploy file's command
    // (expanded, its mounts as folders here) on one database; the organiser is added by the README's
    // `kubectl exec` line; a test competition is played by the workers alone.
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    // The server refuses to start where an upload cannot be sandboxed.
    let sandbox = Command::new("bwrap")
        .args(["--ro-bind", "/", "/", "true"])
        .status()
        .is_ok_and(|s| s.success());
    if !sandbox {
        eprintln!("skipped: bubblewrap cannot start a sandbox here (apt-get install bubblewrap)");
        return;
    }
    let name = format!("arena_deploy_{}", std::process::id());
    let Some((url, admin)) = fresh_postgres(&name) else {
        return;
    };
    let docs = manifests();
    let db = postgres(&docs);
    let tmp = tempfile::tempdir().unwrap();
    let log = |who: &str| std::fs::File::create(tmp.path().join(format!("{who}.log"))).unwrap();
    let logs = |who: &str| std::fs::read_to_string(tmp.path().join(format!("{who}.log"))).unwrap();

    let (server_deployment, sp) = deployment(&docs, "arena-server");
    let server_pod = pod_name("arena-server", 0);
    let root = tmp.path().join(&server_pod);
    let (mut args, mut env) = local_command(&sp, &docs, &server_pod, &root);
    reached_at(var(&env, "ARENA_DB"), &db, "here");
    set_var(&mut env, "ARENA_DB", &url);
    // The pod's own network: any free port here.
    set_flag(&mut args, "--listen", "127.0.0.1:0");
    let contest = PathBuf::from(&args[2]);
    let mut child = clean(arena())
        .current_dir(repo())
        .args(&args[1..])
        .envs(env)
        .stdout(Stdio::piped())
        .stderr(log("server"))
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let server = Running(child);
    let addr: std::net::SocketAddr = BufReader::new(stdout)
        .lines()
        .map_while(Result::ok)
        .find_map(|l| {
            l.strip_prefix("listening on http://")
                .map(|a| a.trim_end_matches('/').parse().unwrap())
        })
        .unwrap_or_else(|| panic!("the server did not start: {}", logs("server")));

    // The organiser: the README's line, in the server's pod (its environment has ARENA_DB).
    let line: Vec<String> = readme_exec("arena-server")
        .split(' ')
        .map(|word| {
            sp.mounts
                .iter()
                .find(|(path, _)| word == path || word.starts_with(&format!("{path}/")))
                .map_or(word.to_string(), |(path, _)| {
                    format!(
                        "{}{}",
                        root.join(path.trim_start_matches('/')).display(),
                        &word[path.len()..]
                    )
                })
        })
        .collect();
    let bin = Path::new(env!("CARGO_BIN_EXE_arena")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = clean(Command::new("sh"))
        .current_dir(repo())
        .arg("-c")
        .arg(line.join(" "))
        .env("PATH", path)
        .env("ARENA_DB", &url)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let token = String::from_utf8_lossy(&out.stdout)
        .lines()
        .last()
        .unwrap()
        .to_string();
    assert_eq!(token.len(), 64, "{}", text(&out));

    // Two worker pods and a Slurm task.
    let (worker_deployment, wp) = deployment(&docs, "arena-worker");
    let mut workers = Vec::new();
    let mut names = Vec::new();
    for k in 0..2 {
        let pod = pod_name("arena-worker", k);
        let (args, mut env) = local_command(&wp, &docs, &pod, &tmp.path().join(&pod));
        set_var(&mut env, "ARENA_DB", &url);
        assert_eq!(
            std::fs::read(&args[2]).unwrap(),
            std::fs::read(&contest).unwrap(),
            "the server's contest file"
        );
        let child = clean(arena())
            .current_dir(repo())
            .args(&args[1..])
            .envs(env)
            .stdout(Stdio::null())
            .stderr(log(&pod))
            .spawn()
            .unwrap();
        workers.push((pod.clone(), Running(child)));
        names.push(pod);
    }
    let slurm = slurm_worker(
        Path::new(env!("CARGO_BIN_EXE_arena")),
        &contest,
        Some(&url),
        &tmp.path().join("slurm"),
    )
    .stdout(Stdio::null())
    .stderr(log("slurm-4242-3"))
    .spawn()
    .unwrap();
    workers.push(("slurm-4242-3".to_string(), Running(slurm)));
    names.push("slurm-4242-3".to_string());

    let auth = format!("Bearer {token}");
    let call = |method: &str, path: &str, body: &str| {
        let a = arena::serve::client::request(
            addr,
            method,
            path,
            &[
                ("Authorization", auth.as_str()),
                ("Content-Type", "application/json"),
            ],
            body.as_bytes(),
        )
        .unwrap();
        assert!(a.status < 300, "{method} {path}: {} {}", a.status, a.text());
        a.json().unwrap()
    };
    let id = call("POST", "/api/competitions", r#"{"kind": "test"}"#)["id"]
        .as_i64()
        .unwrap();
    let start = std::time::Instant::now();
    let done = loop {
        let c = call("GET", &format!("/api/competitions/{id}"), "");
        if c["status"] == "finished" {
            break c;
        }
        assert!(
            start.elapsed() < std::time::Duration::from_secs(180),
            "competition {id} not finished: {c}\n{}",
            logs("server")
        );
        std::thread::sleep(std::time::Duration::from_millis(200));
    };
    assert!(done["games"].as_i64().unwrap() > 0, "{done}");
    // The competitions played (the one the contest's [schedule] starts with the server, then this
    // one: one at a time, oldest first) and their games.
    let mut games = 0;
    for c in call("GET", "/api/competitions", "").as_array().unwrap() {
        let c = call("GET", &format!("/api/competitions/{}", c["id"]), "");
        assert_eq!(c["status"], "finished", "{c}");
        games += c["games"].as_i64().unwrap();
    }
    // Played by the workers alone (the server has --slots 0), each under its pod's or task's name.
    let w = call("GET", "/api/workers", "");
    let played: Vec<(&str, i64)> = w["workers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| (w["name"].as_str().unwrap(), w["games"].as_i64().unwrap()))
        .collect();
    for n in &names {
        assert!(played.iter().any(|(p, _)| p == n), "{n} is not among {w}");
    }
    assert!(
        played
            .iter()
            .all(|(p, g)| names.iter().any(|n| n == p) || *g == 0),
        "a game played by another than the workers: {w}"
    );
    assert_eq!(played.iter().map(|(_, g)| g).sum::<i64>(), games, "{w}");
    assert!(logs("slurm-4242-3").contains("2 slot(s)"));

    // SIGTERM, as a deleted pod or a Slurm task near its time limit gets: each worker stops cleanly.
    for (who, worker) in workers {
        let status = worker.terminate(grace(worker_deployment));
        assert!(status.success(), "{who}: {status}\n{}", logs(&who));
        assert!(
            logs(&who).contains("stopped; its games in play went back to the queue"),
            "{}",
            logs(&who)
        );
    }
    let status = server.terminate(grace(server_deployment));
    assert!(status.success(), "{}", logs("server"));
    execute_postgres(&admin, &[format!("DROP DATABASE {name}")]);
}
