//! `arena play`: a person plays a bot in the terminal.
//!
//! The person is seated as a bot like any other: `arena bot human` ([`bots::human::Human`]), whose
//! `input` and `output` options name this process's own stdin and stdout (`/proc/<pid>/fd/0` and `1`),
//! so whatever the person's terminal (or a script piping moves in) is, the game runs through the
//! tournament path unchanged: the referee checks every move, both clocks run, the bot is contained and
//! frozen while the person thinks, and the finished game is recorded in `results/play-<time>/games.csv`
//! (with `config.toml`, logs and the fingerprint) like a tournament game, so `arena replay`, `arena
//! export` and `arena ratings` read it.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{bail, Context, Result};
use games::Player;

use crate::config::Config;
use crate::plan::schedule::schedule;
use crate::plan::Plan;
use crate::record::GameRecord;
use crate::results::fingerprint::Fingerprint;
use crate::results::ResultsDir;
use crate::run::{ConfigCopy, Flow, Run, Setup};

/// What `arena play` was asked for.
#[derive(Clone, Debug)]
pub struct PlayOptions {
    /// The game and variant as a config's `[game]` table (`connect4 7 6`, `dots 20 20 cross`, a game
    /// module's file and variant: [`crate::config::GameConfig::from_words`]); the plan checks it.
    pub game: crate::config::GameConfig,
    /// The opponent: a built-in bot's name (`arena bot <name>`) or the path of a bot executable.
    pub opponent: String,
    /// Engine options sent to the opponent (`setoption`), as `NAME=VALUE`.
    pub options: Vec<String>,
    /// The person's side.
    pub side: Player,
    /// The opponent's clock: time for the game and increment per move, ms.
    pub bot_time_ms: u64,
    pub bot_inc_ms: u64,
    /// The person's clock, ms; `None`: no clock (each move may take up to an hour).
    pub your_time_ms: Option<u64>,
    pub your_inc_ms: u64,
    /// The seed sent to the bot (its `seed` option, if it declares one).
    pub seed: u64,
    /// Where the person's moves come from and the boards go (default: this process's stdin and stdout).
    pub input: PathBuf,
    pub output: PathBuf,
    /// The folder that holds the results folders (`results`).
    pub results_root: PathBuf,
}

/// The TOML text of the one-game tournament of `opts`, named `name`; `self_exe` is the arena binary
/// (the person's side is `arena bot human`).
fn config_text(opts: &PlayOptions, name: &str, self_exe: &Path) -> Result<String> {
    use toml::{Table, Value};
    let game: Table = match toml::Value::try_from(&opts.game) {
        Ok(toml::Value::Table(t)) => t,
        _ => Table::new(),
    };
    let mut bot_tc = Table::new();
    bot_tc.insert("time_ms".into(), (opts.bot_time_ms as i64).into());
    bot_tc.insert("inc_ms".into(), (opts.bot_inc_ms as i64).into());

    let mut you_tc = Table::new();
    match opts.your_time_ms {
        Some(ms) => {
            you_tc.insert("time_ms".into(), (ms as i64).into());
            you_tc.insert("inc_ms".into(), (opts.your_inc_ms as i64).into());
        }
        None => {
            you_tc.insert("max_move_ms".into(), 3_600_000i64.into());
        }
    }
    let mut you_options = Table::new();
    you_options.insert("input".into(), opts.input.display().to_string().into());
    you_options.insert("output".into(), opts.output.display().to_string().into());
    let mut you = Table::new();
    you.insert("name".into(), "you".into());
    you.insert("command".into(), self_exe.display().to_string().into());
    you.insert(
        "args".into(),
        Value::Array(vec!["bot".into(), "human".into()]),
    );
    // The person's side reads the person's terminal (or the arena's own stdin, by /proc): it is the
    // arena's own code and must see the arena's process, so it runs unsandboxed.
    you.insert("sandbox".into(), "none".into());
    you.insert("options".into(), Value::Table(you_options));
    you.insert("time_control".into(), Value::Table(you_tc));

    let mut bot = Table::new();
    let builtin = !opts.opponent.contains('/');
    if builtin {
        if !bots::cli::BOT_NAMES.contains(&opts.opponent.as_str()) {
            bail!(
                "--vs {}: not a built-in bot ({}) nor a path to an executable (a path holds a `/`, e.g. ./mybot)",
                opts.opponent,
                bots::cli::BOT_NAMES.join(", ")
            );
        }
        bot.insert("name".into(), opts.opponent.clone().into());
        bot.insert("builtin".into(), opts.opponent.clone().into());
    } else {
        let path = std::path::absolute(&opts.opponent)
            .with_context(|| format!("--vs {}", opts.opponent))?;
        let stem = path
            .file_stem()
            .map_or("bot".into(), |s| s.to_string_lossy().into_owned());
        let stem: String = stem
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || "._-".contains(c) {
                    c
                } else {
                    '-'
                }
            })
            .collect();
        bot.insert(
            "name".into(),
            if stem == "you" {
                "bot".into()
            } else {
                stem.into()
            },
        );
        bot.insert("command".into(), path.display().to_string().into());
    }
    let mut options = Table::new();
    for kv in &opts.options {
        let (k, v) = kv
            .split_once('=')
            .with_context(|| format!("--set expects NAME=VALUE, got {kv:?}"))?;
        let value = v
            .parse::<i64>()
            .map(Value::from)
            .or_else(|_| v.parse::<bool>().map(Value::from))
            .unwrap_or_else(|_| Value::from(v));
        options.insert(k.into(), value);
    }
    bot.insert("options".into(), Value::Table(options));

    let mut root = Table::new();
    root.insert("name".into(), name.into());
    root.insert("format".into(), "round-robin".into());
    root.insert("games_per_pair".into(), 2i64.into());
    root.insert("seed".into(), (opts.seed as i64).into());
    root.insert("concurrency".into(), 1i64.into());
    root.insert("game".into(), Value::Table(game));
    root.insert("time_control".into(), Value::Table(bot_tc));
    root.insert("bots".into(), Value::Array(vec![you.into(), bot.into()]));
    Ok(format!(
        "# Written by `arena play`: a person (\"you\", seated as `arena bot human`) against a bot.\n{}",
        toml::to_string(&root)?
    ))
}

/// Plays one game of a person against `opts.opponent` and records it; returns the record and its
/// results folder.
///
/// # Errors
/// An unknown bot, bad options, a results folder that cannot be written, a machine that cannot contain
/// the bot; a bot that misbehaves is not an error (it forfeits, as in a tournament).
pub async fn play(opts: &PlayOptions) -> Result<(GameRecord, PathBuf)> {
    let self_exe = std::env::current_exe().context("finding the arena executable")?;
    let stamp = humantime::format_rfc3339_seconds(std::time::SystemTime::now())
        .to_string()
        .replace([':', 'T'], "-")
        .trim_end_matches('Z')
        .to_string();
    // A folder of its own per game, even for two games started in the same second.
    let (name, dir) = (1..)
        .map(|k| {
            let name = if k == 1 {
                format!("play-{stamp}")
            } else {
                format!("play-{stamp}-{k}")
            };
            let dir = ResultsDir::new(&opts.results_root, &name);
            (name, dir)
        })
        .find(|(_, dir)| !dir.path.exists())
        .expect("some suffix is free");
    let config_path = dir.path.join(crate::results::recorded::CONFIG);
    let mut run = Run::open(Setup {
        results_root: opts.results_root.clone(),
        folder: name.clone(),
        config: ConfigCopy::Derived {
            text: config_text(opts, &name, &self_exe)?,
            origin: config_path.clone(),
        },
        fresh: false,
        quiet: false,
        logs: true,
        containment: None,
        stop: None,
        watch: None,
        player: None,
        pgnout: None,
        affinity: None,
        sgfout: None,
    })?;
    run.record_config()?;
    let config = Config::load(&config_path)?;
    let mut plan = Plan::new(&config, &config_path, &self_exe)?;
    // `arena bot human` is the arena's own code, trusted as a built-in bot is (no warning for its
    // `sandbox = "none"`).
    plan.bots[0].builtin = true;
    // The game pair's game with the person on the asked side (the person is bot 0).
    let game = schedule(&plan)
        .into_iter()
        .find(|g| (g.first == 0) == (opts.side == Player::First))
        .context("the schedule of one game pair has both sides")?;
    let env = run.env(&plan, &Fingerprint::of(&plan)).await?;
    let mut record = None;
    run.play(Arc::new(plan), env, vec![game], "games", |r| {
        record = Some(r);
        Ok(Flow::Continue)
    })
    .await?;
    let record = record.context("stopped before the game ended: nothing recorded")?;
    dir.appender()?.append(&record)?;
    Ok((record, dir.path))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(opponent: &str) -> PlayOptions {
        PlayOptions {
            game: crate::config::GameConfig::from_words("connect4 7 6").unwrap(),
            opponent: opponent.into(),
            options: vec!["depth=2".into()],
            side: Player::First,
            bot_time_ms: 10_000,
            bot_inc_ms: 100,
            your_time_ms: None,
            your_inc_ms: 0,
            seed: 1,
            input: "/dev/stdin".into(),
            output: "/dev/stdout".into(),
            results_root: "results".into(),
        }
    }

    #[test]
    fn the_config_is_a_valid_plan_with_the_person_first() {
        let dir = std::env::temp_dir().join(format!("arena-play-unit-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("config.toml");
        let exe = Path::new("/usr/bin/true");
        std::fs::write(
            &path,
            config_text(&options("minimax"), "play-x", exe).unwrap(),
        )
        .unwrap();
        let config = Config::load(&path).unwrap();
        let plan = Plan::new(&config, &path, exe).unwrap();
        assert_eq!(plan.bots[0].name, "you");
        assert_eq!(plan.bots[1].name, "minimax");
        assert_eq!(plan.bots[0].time_control.time_ms, None);
        assert_eq!(plan.bots[1].time_control.time_ms, Some(10_000));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn an_unknown_bot_is_refused_with_the_known_names() {
        let err = config_text(&options("minmax"), "p", Path::new("/x"))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("not a built-in bot") && err.contains("minimax"),
            "{err}"
        );
    }
}
