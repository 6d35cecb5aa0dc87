use std::path::Path;

use super::*;
use crate::config::Config;

fn env(vars: &[(&str, &str)]) -> HashMap<String, String> {
    vars.iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// The variables of task `id` of `sbatch --array=<min>-<max>[:<step>]`, as Slurm sets them.
fn slurm(id: u64, min: u64, max: u64, step: u64) -> HashMap<String, String> {
    let count = (max - min) / step + 1;
    env(&[
        ("SLURM_JOB_ID", "77"),
        ("SLURM_ARRAY_JOB_ID", "76"),
        ("SLURM_ARRAY_TASK_ID", &id.to_string()),
        ("SLURM_ARRAY_TASK_MIN", &min.to_string()),
        ("SLURM_ARRAY_TASK_MAX", &max.to_string()),
        ("SLURM_ARRAY_TASK_STEP", &step.to_string()),
        ("SLURM_ARRAY_TASK_COUNT", &count.to_string()),
    ])
}

fn flag(value: u32) -> Option<Count> {
    Some(Count {
        value,
        source: CountSource::Flag,
    })
}

fn shard(index: u32, count: u32) -> Shard {
    Shard { index, count }
}

#[test]
fn each_task_of_a_slurm_array_plays_its_own_shard() {
    let found: Vec<Shard> = (0..4)
        .map(|id| from_env(&slurm(id, 0, 3, 1), None).unwrap().shard)
        .collect();
    assert_eq!(found, (1..=4).map(|k| shard(k, 4)).collect::<Vec<_>>());
    let r = from_env(&slurm(1, 0, 3, 1), None).unwrap();
    assert_eq!(r.scheduler, Some(Scheduler::Slurm));
    assert_eq!(r.from, "SLURM_ARRAY_TASK_ID=1 of the Slurm job array 0-3");
}

#[test]
fn a_slurm_array_may_start_anywhere_and_step() {
    assert_eq!(
        from_env(&slurm(1, 1, 4, 1), None).unwrap().shard,
        shard(1, 4)
    );
    assert_eq!(
        from_env(&slurm(4, 1, 4, 1), None).unwrap().shard,
        shard(4, 4)
    );
    // --array=0-6:2 is tasks 0, 2, 4, 6.
    assert_eq!(
        from_env(&slurm(4, 0, 6, 2), None).unwrap().shard,
        shard(3, 4)
    );
    assert_eq!(
        from_env(&slurm(3, 0, 6, 2), None),
        Err(AutoError::OutsideArray {
            id: 3,
            min: 0,
            step: 2,
            count: 4
        })
    );
}

#[test]
fn a_slurm_array_without_step_or_max_counts_from_its_min() {
    let e = env(&[
        ("SLURM_ARRAY_TASK_ID", "12"),
        ("SLURM_ARRAY_TASK_MIN", "10"),
        ("SLURM_ARRAY_TASK_COUNT", "3"),
    ]);
    let r = from_env(&e, None).unwrap();
    assert_eq!(r.shard, shard(3, 3));
    assert_eq!(
        r.from,
        "SLURM_ARRAY_TASK_ID=12 of the Slurm job array from 10, 3 tasks"
    );
}

#[test]
fn a_slurm_task_id_outside_the_array_is_refused() {
    for id in [4, 100] {
        assert_eq!(
            from_env(&slurm(id, 0, 3, 1), None),
            Err(AutoError::OutsideArray {
                id,
                min: 0,
                step: 1,
                count: 4
            })
        );
    }
    // Below the minimum.
    let mut e = slurm(5, 5, 8, 1);
    e.insert("SLURM_ARRAY_TASK_ID".into(), "4".into());
    assert!(matches!(
        from_env(&e, None),
        Err(AutoError::OutsideArray { id: 4, min: 5, .. })
    ));
}

#[test]
fn a_slurm_array_that_is_a_list_is_refused() {
    // sbatch --array=1,3,8: min 1, max 8, three tasks.
    let e = env(&[
        ("SLURM_ARRAY_TASK_ID", "3"),
        ("SLURM_ARRAY_TASK_MIN", "1"),
        ("SLURM_ARRAY_TASK_MAX", "8"),
        ("SLURM_ARRAY_TASK_STEP", "1"),
        ("SLURM_ARRAY_TASK_COUNT", "3"),
    ]);
    let err = from_env(&e, None).unwrap_err();
    assert!(matches!(err, AutoError::NotARange { min: 1, max: 8, .. }));
    assert!(err.to_string().contains("--array=0-<N-1>"), "{err}");
}

#[test]
fn a_slurm_task_without_min_or_count_names_the_variable() {
    for missing in ["SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_COUNT"] {
        let mut e = slurm(1, 0, 3, 1);
        e.remove(missing);
        assert_eq!(
            from_env(&e, None),
            Err(AutoError::MissingSlurmVar { var: missing })
        );
    }
}

#[test]
fn a_variable_that_is_not_a_number_is_named() {
    let mut e = slurm(1, 0, 3, 1);
    e.insert("SLURM_ARRAY_TASK_ID".into(), "one".into());
    assert_eq!(
        from_env(&e, None),
        Err(AutoError::NotANumber {
            var: "SLURM_ARRAY_TASK_ID",
            value: "one".into()
        })
    );
    let e = env(&[("JOB_COMPLETION_INDEX", "-1")]);
    assert!(matches!(
        from_env(&e, flag(4)),
        Err(AutoError::NotANumber {
            var: "JOB_COMPLETION_INDEX",
            ..
        })
    ));
}

#[test]
fn a_slurm_array_must_match_a_given_count() {
    assert_eq!(
        from_env(&slurm(2, 0, 3, 1), flag(4)).unwrap().shard,
        shard(3, 4)
    );
    let err = from_env(&slurm(2, 0, 3, 1), flag(8)).unwrap_err();
    assert_eq!(
        err,
        AutoError::CountMismatch {
            array: 4,
            given: flag(8).unwrap()
        }
    );
    assert_eq!(
        err.to_string(),
        "the Slurm job array has 4 tasks but --shard-count says 8: submit --array=0-7 or change the count"
    );
}

#[test]
fn each_pod_of_an_indexed_job_plays_its_own_shard() {
    let found: Vec<Shard> = (0..3)
        .map(|i| {
            from_env(&env(&[("JOB_COMPLETION_INDEX", &i.to_string())]), flag(3))
                .unwrap()
                .shard
        })
        .collect();
    assert_eq!(found, vec![shard(1, 3), shard(2, 3), shard(3, 3)]);
    let config = Some(Count {
        value: 3,
        source: CountSource::Config,
    });
    let r = from_env(&env(&[("JOB_COMPLETION_INDEX", "0")]), config).unwrap();
    assert_eq!(r.scheduler, Some(Scheduler::Kubernetes));
    assert_eq!(
        r.from,
        "JOB_COMPLETION_INDEX=0 of a Kubernetes Indexed Job, 3 shards from the config's [shards] count"
    );
}

#[test]
fn an_indexed_job_without_a_count_is_refused() {
    let err = from_env(&env(&[("JOB_COMPLETION_INDEX", "0")]), None).unwrap_err();
    assert_eq!(err, AutoError::NoCount);
    assert!(err.to_string().contains("--shard-count N"), "{err}");
    assert!(err.to_string().contains("[shards] count = N"), "{err}");
}

#[test]
fn an_index_at_or_past_the_count_is_refused() {
    let err = from_env(&env(&[("JOB_COMPLETION_INDEX", "4")]), flag(4)).unwrap_err();
    assert_eq!(
        err,
        AutoError::IndexOutOfRange {
            index: 4,
            given: flag(4).unwrap()
        }
    );
}

#[test]
fn neither_scheduler_is_a_clear_error() {
    let err = from_env(&env(&[("HOME", "/root")]), flag(4)).unwrap_err();
    assert_eq!(
        err,
        AutoError::NoScheduler {
            in_slurm_job: false
        }
    );
    let text = err.to_string();
    for needed in ["SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX", "--shard K/N"] {
        assert!(text.contains(needed), "{text}");
    }
    // A Slurm job that is not an array task says so.
    let err = from_env(&env(&[("SLURM_JOB_ID", "5")]), None).unwrap_err();
    assert!(err.to_string().contains("not an array task"), "{err}");
}

#[test]
fn both_schedulers_at_once_are_refused() {
    let mut e = slurm(0, 0, 1, 1);
    e.insert("JOB_COMPLETION_INDEX".into(), "0".into());
    assert!(matches!(
        from_env(&e, flag(2)),
        Err(AutoError::BothSchedulers { .. })
    ));
}

#[test]
fn a_count_of_zero_is_refused() {
    assert!(matches!(
        from_env(&env(&[("JOB_COMPLETION_INDEX", "0")]), flag(0)),
        Err(AutoError::BadCount { value: 0, .. })
    ));
    let mut e = slurm(0, 0, 0, 1);
    e.insert("SLURM_ARRAY_TASK_COUNT".into(), "0".into());
    e.remove("SLURM_ARRAY_TASK_MAX");
    assert!(matches!(
        from_env(&e, None),
        Err(AutoError::BadCount { value: 0, .. })
    ));
}

#[test]
fn the_flag_parses_auto_and_k_of_n() {
    assert_eq!("auto".parse(), Ok(ShardRequest::Auto));
    assert_eq!("2/3".parse(), Ok(ShardRequest::Fixed(shard(2, 3))));
    let err = "0/3".parse::<ShardRequest>().unwrap_err();
    assert!(err.contains("or auto"), "{err}");
    assert!("automatic".parse::<ShardRequest>().is_err());
}

/// A two-bot Connect Four plan with `extra` config lines.
fn plan(extra: &str) -> Plan {
    let text = format!(
        "name = \"t\"\n{extra}\n[game]\nname = \"connect4\"\n[time_control]\ntime_ms = 1000\n\
         [[bots]]\nname = \"a\"\nbuiltin = \"random\"\n[[bots]]\nname = \"b\"\nbuiltin = \"random\"\n"
    );
    let config = Config::parse(&text, Path::new("t.toml")).unwrap();
    Plan::new(&config, Path::new("t.toml"), Path::new("/bin/arena")).unwrap()
}

#[test]
fn an_sprt_match_refuses_every_shard_request() {
    let sprt = plan("format = \"sprt\"\n[sprt]\nmax_pairs = 10");
    let k8s = env(&[("JOB_COMPLETION_INDEX", "0")]);
    for request in [ShardRequest::Auto, ShardRequest::Fixed(shard(1, 2))] {
        assert_eq!(
            for_plan(Some(request), None, &sprt, &k8s),
            Err(ShardError::Sprt)
        );
    }
    // Refused before the environment is read: the same error outside a scheduler.
    assert_eq!(
        for_plan(Some(ShardRequest::Auto), None, &sprt, &HashMap::new()),
        Err(ShardError::Sprt)
    );
    assert!(ShardError::Sprt
        .to_string()
        .contains("stays on one machine"));
    assert_eq!(for_plan(None, None, &sprt, &k8s), Ok(None));
}

#[test]
fn the_flag_count_comes_before_the_config_count() {
    let p = plan("[shards]\ncount = 3");
    assert_eq!(p.shard_count, Some(3));
    let pod = env(&[("JOB_COMPLETION_INDEX", "2")]);
    let r = for_plan(Some(ShardRequest::Auto), None, &p, &pod)
        .unwrap()
        .unwrap();
    assert_eq!(r.shard, shard(3, 3));
    let r = for_plan(Some(ShardRequest::Auto), Some(5), &p, &pod)
        .unwrap()
        .unwrap();
    assert_eq!(r.shard, shard(3, 5));
    // Without either, a pod has no count.
    assert_eq!(
        for_plan(Some(ShardRequest::Auto), None, &plan(""), &pod),
        Err(ShardError::Auto(AutoError::NoCount))
    );
    // A Slurm array of another size than the config's count.
    assert!(matches!(
        for_plan(Some(ShardRequest::Auto), None, &p, &slurm(0, 0, 3, 1)),
        Err(ShardError::Auto(AutoError::CountMismatch { array: 4, .. }))
    ));
}

#[test]
fn a_fixed_shard_ignores_the_environment_but_not_a_count_flag() {
    let p = plan("[shards]\ncount = 3");
    let r = for_plan(
        Some(ShardRequest::Fixed(shard(2, 2))),
        None,
        &p,
        &slurm(0, 0, 3, 1),
    )
    .unwrap()
    .unwrap();
    assert_eq!((r.shard, r.scheduler), (shard(2, 2), None));
    assert_eq!(
        for_plan(
            Some(ShardRequest::Fixed(shard(2, 2))),
            Some(2),
            &p,
            &HashMap::new()
        ),
        Err(ShardError::CountWithFixed { index: 2, count: 2 })
    );
}

#[test]
fn a_config_count_of_zero_or_with_sprt_is_refused() {
    let text = |extra: &str| {
        format!(
            "name = \"t\"\n{extra}\n[game]\nname = \"connect4\"\n[time_control]\ntime_ms = 1000\n\
             [[bots]]\nname = \"a\"\nbuiltin = \"random\"\n[[bots]]\nname = \"b\"\nbuiltin = \"random\"\n"
        )
    };
    for (extra, needed) in [
        ("[shards]\ncount = 0", "at least 1 shard"),
        (
            "format = \"sprt\"\n[sprt]\nmax_pairs = 10\n[shards]\ncount = 2",
            "stays on one machine",
        ),
    ] {
        let config = Config::parse(&text(extra), Path::new("t.toml")).unwrap();
        let err = Plan::new(&config, Path::new("t.toml"), Path::new("/bin/arena")).unwrap_err();
        assert!(err.to_string().contains(needed), "{err}");
    }
}
