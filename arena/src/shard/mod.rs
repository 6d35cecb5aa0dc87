//! `arena run --shard auto`: which shard of a tournament this process plays, read from the scheduler
//! that started it, so one job description starts every shard.
//!
//! - A **Slurm job array** (`sbatch --array=0-3`) gives each task `SLURM_ARRAY_TASK_ID`,
//!   `SLURM_ARRAY_TASK_MIN`, `SLURM_ARRAY_TASK_MAX`, `SLURM_ARRAY_TASK_STEP` and `SLURM_ARRAY_TASK_COUNT`
//!   (sbatch(1), "OUTPUT ENVIRONMENT VARIABLES"). Task `id` plays shard `(id − min) / step + 1` of
//!   `count`; the array must be a range (`0-3`, `1-8:1`, `0-6:2`), not a list such as `1,3,8`.
//! - A **Kubernetes Indexed Job** (`completionMode: Indexed`) gives each pod `JOB_COMPLETION_INDEX`,
//!   0-based, and not the count (Kubernetes, "Jobs", "Completion mode"): pod `i` plays shard `i + 1` of
//!   the count given by `--shard-count N` or the config's `[shards] count = N`, which must equal the
//!   Job's `completions`.
//!
//! Shards split the schedule by whole game pairs ([`Shard`]). An SPRT match stays on one machine: its stop
//! rule reads every game pair as it finishes, so `--shard` is refused for it ([`SPRT_ON_ONE_MACHINE`]).
//!
//! The resolution is a pure function of an environment map ([`from_env`]), unit-tested case by case
//! without a scheduler:
//!
//! ```
//! use std::collections::HashMap;
//! use arena::plan::schedule::Shard;
//! use arena::shard::{from_env, Count, CountSource, Scheduler};
//!
//! let env: HashMap<String, String> = [("JOB_COMPLETION_INDEX", "2")]
//!     .map(|(k, v)| (k.to_string(), v.to_string()))
//!     .into();
//! let count = Count { value: 4, source: CountSource::Flag };
//! let found = from_env(&env, Some(count)).unwrap();
//! assert_eq!(found.shard, Shard { index: 3, count: 4 });
//! assert_eq!(found.scheduler, Some(Scheduler::Kubernetes));
//! ```

use std::collections::HashMap;
use std::fmt;

use crate::plan::schedule::Shard;
use crate::plan::Plan;

pub use crate::plan::SPRT_ON_ONE_MACHINE;

/// What `--shard` asks for: `K/N`, or `auto` (from the scheduler's environment).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShardRequest {
    /// `K/N`: part K of N.
    Fixed(Shard),
    /// `auto`: from a Slurm job array or a Kubernetes Indexed Job ([`from_env`]).
    Auto,
}

impl std::str::FromStr for ShardRequest {
    type Err = String;
    /// `auto`, or `K/N` with 1 ≤ K ≤ N.
    fn from_str(s: &str) -> Result<ShardRequest, String> {
        if s.trim() == "auto" {
            return Ok(ShardRequest::Auto);
        }
        s.parse::<Shard>()
            .map(ShardRequest::Fixed)
            .map_err(|e: String| {
                format!("{e}, or auto (from a Slurm job array or a Kubernetes Indexed Job)")
            })
    }
}

/// Where a shard count came from, to name it in errors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CountSource {
    /// `--shard-count N`.
    Flag,
    /// The config's `[shards] count = N`.
    Config,
}

impl fmt::Display for CountSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CountSource::Flag => "--shard-count",
            CountSource::Config => "the config's [shards] count",
        })
    }
}

/// A shard count given to the arena (not read from the scheduler).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Count {
    /// The number of shards.
    pub value: u32,
    /// Where it came from.
    pub source: CountSource,
}

/// The scheduler a shard was read from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scheduler {
    /// A Slurm job array.
    Slurm,
    /// A Kubernetes Indexed Job.
    Kubernetes,
}

/// The shard `--shard auto` found, and how.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resolved {
    /// The shard to play.
    pub shard: Shard,
    /// Where it was read; `None` for a fixed `--shard K/N`.
    pub scheduler: Option<Scheduler>,
    /// What it was read from, for the run's log, e.g. `SLURM_ARRAY_TASK_ID=1 of the Slurm job array
    /// 0-3`.
    pub from: String,
}

/// Why `--shard auto` found no shard in the environment.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AutoError {
    /// Neither scheduler's variables are set.
    #[error(
        "--shard auto reads the shard from a Slurm job array (SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_MIN, \
         SLURM_ARRAY_TASK_COUNT) or a Kubernetes Indexed Job (JOB_COMPLETION_INDEX), and neither is set{}; \
         outside a scheduler, pass --shard K/N",
        array_hint(.in_slurm_job)
    )]
    NoScheduler {
        /// `SLURM_JOB_ID` is set: a Slurm job, but not an array task.
        in_slurm_job: bool,
    },
    /// Both schedulers' variables are set: which one started us is unclear.
    #[error(
        "--shard auto found both a Slurm job array (SLURM_ARRAY_TASK_ID={slurm}) and a Kubernetes \
         Indexed Job (JOB_COMPLETION_INDEX={kubernetes}); pass --shard K/N"
    )]
    BothSchedulers {
        /// `SLURM_ARRAY_TASK_ID`.
        slurm: String,
        /// `JOB_COMPLETION_INDEX`.
        kubernetes: String,
    },
    /// A Slurm array task without one of the array's other variables.
    #[error("SLURM_ARRAY_TASK_ID is set but {var} is not (Slurm sets both in every array task)")]
    MissingSlurmVar {
        /// The variable that is missing.
        var: &'static str,
    },
    /// A variable that is not a whole number.
    #[error("{var}={value:?} is not a whole number")]
    NotANumber {
        /// The variable.
        var: &'static str,
        /// Its value.
        value: String,
    },
    /// A Slurm array that is not a range `MIN-MAX[:STEP]`.
    #[error(
        "the Slurm job array is not a range: from {min} to {max} in steps of {step} is not \
         SLURM_ARRAY_TASK_COUNT={count} tasks; submit the shards as --array=0-<N-1>"
    )]
    NotARange {
        /// `SLURM_ARRAY_TASK_MIN`.
        min: u64,
        /// `SLURM_ARRAY_TASK_MAX`.
        max: u64,
        /// `SLURM_ARRAY_TASK_STEP` (1 when unset).
        step: u64,
        /// `SLURM_ARRAY_TASK_COUNT`.
        count: u64,
    },
    /// A Slurm task id that is not one of the array's.
    #[error(
        "SLURM_ARRAY_TASK_ID={id} is not a task of the job array (from {min}, {count} tasks in steps \
         of {step})"
    )]
    OutsideArray {
        /// `SLURM_ARRAY_TASK_ID`.
        id: u64,
        /// `SLURM_ARRAY_TASK_MIN`.
        min: u64,
        /// `SLURM_ARRAY_TASK_STEP` (1 when unset).
        step: u64,
        /// `SLURM_ARRAY_TASK_COUNT`.
        count: u64,
    },
    /// A Slurm array whose size differs from the count given to the arena.
    #[error(
        "the Slurm job array has {array} tasks but {} says {}: submit --array=0-{} or change the count",
        .given.source,
        .given.value,
        .given.value.saturating_sub(1)
    )]
    CountMismatch {
        /// `SLURM_ARRAY_TASK_COUNT`.
        array: u64,
        /// The count given.
        given: Count,
    },
    /// A Kubernetes Indexed Job, and no count.
    #[error(
        "a Kubernetes Indexed Job gives each pod its index (JOB_COMPLETION_INDEX) but not the number \
         of shards: pass --shard-count N or set [shards] count = N in the config (N = the Job's \
         completions)"
    )]
    NoCount,
    /// A Kubernetes index at or past the count.
    #[error(
        "JOB_COMPLETION_INDEX={index} is not below the {} shards of {}: the Job's completions must \
         equal the shard count",
        .given.value,
        .given.source
    )]
    IndexOutOfRange {
        /// `JOB_COMPLETION_INDEX`.
        index: u64,
        /// The count given.
        given: Count,
    },
    /// A count of zero shards (from the scheduler or given), or more than `u32::MAX`.
    #[error(
        "{what} = {value}: a tournament is split into 1 to {} shards",
        u32::MAX
    )]
    BadCount {
        /// Where the count came from.
        what: String,
        /// The count.
        value: u64,
    },
}

fn array_hint(in_slurm_job: &bool) -> &'static str {
    if *in_slurm_job {
        " (this Slurm job is not an array task: submit it with sbatch --array=0-<N-1>)"
    } else {
        ""
    }
}

/// The shard this process plays, read from the scheduler's variables in `env` (a snapshot of the
/// process environment: `std::env::vars().collect()`), with `count` the shard count given to the arena
/// (`--shard-count`, else the config's `[shards] count`), if any.
///
/// A Slurm array task plays shard `(SLURM_ARRAY_TASK_ID − SLURM_ARRAY_TASK_MIN) / SLURM_ARRAY_TASK_STEP
/// + 1` of `SLURM_ARRAY_TASK_COUNT` (which `count`, if given, must equal); a Kubernetes pod plays shard
/// `JOB_COMPLETION_INDEX + 1` of `count`.
///
/// # Errors
/// An [`AutoError`]: neither scheduler (or both), a Slurm variable missing or not a number, a task id
/// outside its array, an array that is not a range, an array whose size is not `count`; a Kubernetes pod
/// without a count or with an index at or past it; a count of zero.
pub fn from_env(
    env: &HashMap<String, String>,
    count: Option<Count>,
) -> Result<Resolved, AutoError> {
    if let Some(c) = count.filter(|c| c.value == 0) {
        return Err(AutoError::BadCount {
            what: c.source.to_string(),
            value: 0,
        });
    }
    let number = |var: &'static str| -> Result<Option<u64>, AutoError> {
        env.get(var)
            .map(|v| {
                v.trim().parse::<u64>().map_err(|_| AutoError::NotANumber {
                    var,
                    value: v.clone(),
                })
            })
            .transpose()
    };
    let slurm = env.get("SLURM_ARRAY_TASK_ID");
    let kubernetes = env.get("JOB_COMPLETION_INDEX");
    match (slurm, kubernetes) {
        (Some(s), Some(k)) => Err(AutoError::BothSchedulers {
            slurm: s.clone(),
            kubernetes: k.clone(),
        }),
        (None, None) => Err(AutoError::NoScheduler {
            in_slurm_job: env.contains_key("SLURM_JOB_ID"),
        }),
        (Some(_), None) => {
            let required = |var: &'static str| -> Result<u64, AutoError> {
                number(var)?.ok_or(AutoError::MissingSlurmVar { var })
            };
            let id = required("SLURM_ARRAY_TASK_ID")?;
            let min = required("SLURM_ARRAY_TASK_MIN")?;
            let tasks = required("SLURM_ARRAY_TASK_COUNT")?;
            // Older Slurm leaves STEP unset for a plain range; MAX is only a cross-check.
            let step = number("SLURM_ARRAY_TASK_STEP")?.unwrap_or(1).max(1);
            let max = number("SLURM_ARRAY_TASK_MAX")?;
            if tasks == 0 || tasks > u64::from(u32::MAX) {
                return Err(AutoError::BadCount {
                    what: "SLURM_ARRAY_TASK_COUNT".into(),
                    value: tasks,
                });
            }
            if let Some(max) = max {
                if max < min || (max - min) / step + 1 != tasks {
                    return Err(AutoError::NotARange {
                        min,
                        max,
                        step,
                        count: tasks,
                    });
                }
            }
            let offset = id.checked_sub(min).filter(|o| o % step == 0);
            let index =
                offset
                    .map(|o| o / step)
                    .filter(|&k| k < tasks)
                    .ok_or(AutoError::OutsideArray {
                        id,
                        min,
                        step,
                        count: tasks,
                    })?;
            if let Some(given) = count.filter(|c| u64::from(c.value) != tasks) {
                return Err(AutoError::CountMismatch {
                    array: tasks,
                    given,
                });
            }
            let range = match (max, step) {
                (Some(max), 1) => format!("{min}-{max}"),
                (Some(max), _) => format!("{min}-{max}:{step}"),
                (None, _) => format!("from {min}, {tasks} tasks"),
            };
            Ok(Resolved {
                shard: Shard {
                    index: index as u32 + 1,
                    count: tasks as u32,
                },
                scheduler: Some(Scheduler::Slurm),
                from: format!("SLURM_ARRAY_TASK_ID={id} of the Slurm job array {range}"),
            })
        }
        (None, Some(_)) => {
            let index = number("JOB_COMPLETION_INDEX")?.unwrap_or_default();
            let given = count.ok_or(AutoError::NoCount)?;
            if index >= u64::from(given.value) {
                return Err(AutoError::IndexOutOfRange { index, given });
            }
            Ok(Resolved {
                shard: Shard {
                    index: index as u32 + 1,
                    count: given.value,
                },
                scheduler: Some(Scheduler::Kubernetes),
                from: format!(
                    "JOB_COMPLETION_INDEX={index} of a Kubernetes Indexed Job, {} shards from {}",
                    given.value, given.source
                ),
            })
        }
    }
}

/// Why `--shard` cannot be used on a plan.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ShardError {
    /// The plan is an SPRT match ([`SPRT_ON_ONE_MACHINE`]).
    #[error("{SPRT_ON_ONE_MACHINE}; run it without --shard")]
    Sprt,
    /// `--shard-count` with `--shard K/N`.
    #[error(
        "--shard-count goes with --shard auto; --shard {index}/{count} already says the count"
    )]
    CountWithFixed {
        /// K.
        index: u32,
        /// N.
        count: u32,
    },
    /// `--shard auto` found no shard.
    #[error(transparent)]
    Auto(#[from] AutoError),
}

/// The shard of `plan` that `request` (`--shard`, with `count_flag` from `--shard-count`) asks for,
/// reading the scheduler's variables in `env` for `auto` (see [`from_env`]; the flag's count comes
/// before the config's `[shards] count`). `None` without a request. A fixed `K/N` ignores `[shards]`.
///
/// # Errors
/// A [`ShardError`]: an SPRT plan (checked first, so the refusal is the same on every machine),
/// `--shard-count` with `K/N`, or why `auto` found no shard.
pub fn for_plan(
    request: Option<ShardRequest>,
    count_flag: Option<u32>,
    plan: &Plan,
    env: &HashMap<String, String>,
) -> Result<Option<Resolved>, ShardError> {
    let Some(request) = request else {
        return Ok(None);
    };
    if plan.sprt.is_some() {
        return Err(ShardError::Sprt);
    }
    match request {
        ShardRequest::Fixed(shard) if count_flag.is_some() => Err(ShardError::CountWithFixed {
            index: shard.index,
            count: shard.count,
        }),
        ShardRequest::Fixed(shard) => Ok(Some(Resolved {
            shard,
            scheduler: None,
            from: format!("--shard {}/{}", shard.index, shard.count),
        })),
        ShardRequest::Auto => {
            let count = count_flag
                .map(|value| Count {
                    value,
                    source: CountSource::Flag,
                })
                .or_else(|| {
                    plan.shard_count.map(|value| Count {
                        value,
                        source: CountSource::Config,
                    })
                });
            Ok(Some(from_env(env, count)?))
        }
    }
}

#[cfg(test)]
mod tests;
