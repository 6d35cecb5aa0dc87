//! The validated tournament plan (stage two of the config): everything the runner needs, checked once.

use std::path::{Path, PathBuf};

use games::{DotsStart, GameKind, GameSpec};

use crate::clock::TimeControl;
use crate::config::{BotConfig, Config, Format, ProtocolKind, TimeControlConfig};

/// A tournament ready to run. Built by [`Plan::new`]; passed explicitly, never global.
#[derive(Clone, Debug)]
pub struct Plan {
    /// Tournament name; the results folder is `results/<name>/`.
    pub name: String,
    /// The config file it came from.
    pub config_path: PathBuf,
    /// The game and variant.
    pub spec: GameSpec,
    pub format: Format,
    /// Games per pair of bots, even, ≥ 2.
    pub games_per_pair: u32,
    /// Random opening plies shared by both games of a game pair.
    pub opening_plies: u32,
    pub seed: u64,
    /// Games played at once, ≥ 1.
    pub concurrency: usize,
    /// Adjudication limit, plies.
    pub max_plies: Option<u32>,
    /// At least two, unique names.
    pub bots: Vec<BotPlan>,
}

/// One player of the plan.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotPlan {
    pub name: String,
    pub launch: Launch,
    pub protocol: ProtocolKind,
    /// `setoption` pairs in config order (name, value as text).
    pub options: Vec<(String, String)>,
    pub time_control: TimeControl,
}

/// How to start a bot's process.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Launch {
    /// The executable, resolved (a path that exists).
    pub program: PathBuf,
    pub args: Vec<String>,
    /// Working directory; `None` for the arena's own.
    pub dir: Option<PathBuf>,
}

/// A config that is well-formed TOML but cannot be played.
#[derive(Debug, thiserror::Error)]
#[error("{path}: {message}")]
pub struct PlanError {
    pub path: PathBuf,
    pub message: String,
}

impl Plan {
    /// Validates `config` (read from `config_path`). `self_exe` is the `arena` binary, which serves the
    /// `builtin` bots as `arena bot <name>`.
    ///
    /// # Errors
    /// A [`PlanError`] naming the problem: a bad name, an odd `games_per_pair`, fewer than two bots, a
    /// duplicate bot name, a bot with neither or both of `command` and `builtin`, an unknown builtin, an
    /// executable that does not exist, a time control without time, a game variant out of range,
    /// options or openings given to a CodeCup bot.
    pub fn new(config: &Config, config_path: &Path, self_exe: &Path) -> Result<Plan, PlanError> {
        let err = |message: String| PlanError {
            path: config_path.to_owned(),
            message,
        };
        if config.name.is_empty()
            || !config
                .name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "._-".contains(c))
            || config.name.starts_with('.')
        {
            return Err(err(format!(
                "name {:?} must be letters, digits, '.', '_' or '-' (it names the results folder)",
                config.name
            )));
        }
        if config.games_per_pair == 0 || !config.games_per_pair.is_multiple_of(2) {
            return Err(err(format!(
                "games_per_pair = {} must be even and at least 2 (games come in pairs)",
                config.games_per_pair
            )));
        }
        if config.concurrency == Some(0) {
            return Err(err("concurrency must be at least 1".into()));
        }
        if config.max_plies == Some(0) {
            return Err(err(
                "max_plies must be at least 1 (leave it out for no adjudication)".into(),
            ));
        }
        let spec = game_spec(config).map_err(|m| err(format!("[game]: {m}")))?;
        if config.bots.len() < 2 {
            return Err(err(format!(
                "a tournament needs at least two bots, found {}",
                config.bots.len()
            )));
        }
        let mut bots: Vec<BotPlan> = Vec::new();
        for bot in &config.bots {
            if bots.iter().any(|b| b.name == bot.name) {
                return Err(err(format!("two bots are named {:?}", bot.name)));
            }
            let plan = bot_plan(bot, config, self_exe)
                .map_err(|m| err(format!("bot {:?}: {m}", bot.name)))?;
            bots.push(plan);
        }
        let concurrency = config
            .concurrency
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
        Ok(Plan {
            name: config.name.clone(),
            config_path: config_path.to_owned(),
            spec,
            format: config.format,
            games_per_pair: config.games_per_pair,
            opening_plies: config.opening_plies,
            seed: config.seed,
            concurrency,
            max_plies: config.max_plies,
            bots,
        })
    }
}

fn game_spec(config: &Config) -> Result<GameSpec, String> {
    let g = &config.game;
    let kind: GameKind = g.name.parse().map_err(|e| format!("{e}"))?;
    let start: Option<DotsStart> = g
        .start
        .as_deref()
        .map(str::parse)
        .transpose()
        .map_err(|e| format!("{e}"))?;
    GameSpec::new(kind, g.width, g.height, g.k, start).map_err(|e| e.to_string())
}

fn time_control(tc: &TimeControlConfig) -> Result<TimeControl, String> {
    if tc.time_ms.is_none() && tc.max_move_ms.is_none() {
        return Err("a time control needs time_ms (per game) or max_move_ms (per move)".into());
    }
    if tc.time_ms == Some(0) || tc.max_move_ms == Some(0) {
        return Err("time_ms and max_move_ms must be positive".into());
    }
    if tc.startup_ms == 0 {
        return Err("startup_ms must be positive".into());
    }
    Ok(TimeControl {
        time_ms: tc.time_ms,
        inc_ms: tc.inc_ms,
        max_move_ms: tc.max_move_ms,
        startup_ms: tc.startup_ms,
        margin_ms: tc.margin_ms,
    })
}

fn bot_plan(bot: &BotConfig, config: &Config, self_exe: &Path) -> Result<BotPlan, String> {
    if bot.name.is_empty()
        || bot
            .name
            .chars()
            .any(|c| c.is_whitespace() || c == ',' || c == '/')
    {
        return Err("a bot name must be non-empty, without spaces, commas or '/'".into());
    }
    let launch = match (&bot.command, &bot.builtin) {
        (Some(_), Some(_)) => return Err("give either command or builtin, not both".into()),
        (None, None) => {
            return Err("give command (an executable) or builtin (a reference bot)".into())
        }
        (None, Some(name)) => {
            if !bots::cli::BOT_NAMES.contains(&name.as_str()) {
                return Err(format!(
                    "unknown builtin {name:?}; known: {}",
                    bots::cli::BOT_NAMES.join(", ")
                ));
            }
            let args = ["bot".to_string(), name.clone()]
                .into_iter()
                .chain(bot.args.iter().cloned())
                .collect();
            Launch {
                program: self_exe.to_owned(),
                args,
                dir: bot.dir.clone(),
            }
        }
        (Some(command), None) => Launch {
            program: resolve_command(command, bot.dir.as_deref())?,
            args: bot.args.clone(),
            dir: bot.dir.clone(),
        },
    };
    if let Some(dir) = &launch.dir {
        if !dir.is_dir() {
            return Err(format!("dir {} is not a directory", dir.display()));
        }
    }
    let mut options = Vec::new();
    for (name, value) in &bot.options {
        let text = match value {
            toml::Value::String(s) => s.clone(),
            toml::Value::Integer(i) => i.to_string(),
            toml::Value::Float(f) => f.to_string(),
            toml::Value::Boolean(b) => b.to_string(),
            other => {
                return Err(format!(
                    "option {name}: a {} is not an option value",
                    other.type_str()
                ))
            }
        };
        options.push((name.clone(), text));
    }
    if bot.protocol == ProtocolKind::Codecup {
        if !options.is_empty() {
            return Err("the codecup protocol has no options; pass settings as args".into());
        }
        if config.opening_plies > 0 {
            return Err(
                "the codecup protocol cannot be given a random opening (opening_plies > 0)".into(),
            );
        }
    }
    let time_control = time_control(bot.time_control.as_ref().unwrap_or(&config.time_control))
        .map_err(|m| format!("time control: {m}"))?;
    Ok(BotPlan {
        name: bot.name.clone(),
        launch,
        protocol: bot.protocol,
        options,
        time_control,
    })
}

/// Finds an executable as a shell would: a name with a `/` is a path (relative to `dir` if given), any
/// other name is looked up on `PATH`.
fn resolve_command(command: &str, dir: Option<&Path>) -> Result<PathBuf, String> {
    let is_executable = |p: &Path| {
        use std::os::unix::fs::PermissionsExt;
        p.is_file()
            && p.metadata()
                .map(|m| m.permissions().mode() & 0o111 != 0)
                .unwrap_or(false)
    };
    if command.contains('/') {
        let path = match dir {
            Some(d) if Path::new(command).is_relative() => d.join(command),
            _ => PathBuf::from(command),
        };
        return if is_executable(&path) {
            Ok(PathBuf::from(command))
        } else if path.exists() {
            Err(format!(
                "command {} is not an executable file",
                path.display()
            ))
        } else {
            Err(format!("command {} does not exist", path.display()))
        };
    }
    let path_var = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path_var)
        .map(|d| d.join(command))
        .find(|p| is_executable(p))
        .ok_or_else(|| format!("command {command:?} was not found on PATH"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(extra: &str, bots: &str) -> Config {
        let text = format!(
            "name = \"t\"\n{extra}\n[game]\nname = \"connect4\"\n[time_control]\ntime_ms = 1000\n{bots}"
        );
        Config::parse(&text, Path::new("t.toml")).unwrap()
    }

    const TWO: &str = "[[bots]]\nname = \"a\"\nbuiltin = \"random\"\n[[bots]]\nname = \"b\"\nbuiltin = \"random\"\n";

    fn plan_err(extra: &str, bots: &str) -> String {
        Plan::new(
            &config(extra, bots),
            Path::new("t.toml"),
            Path::new("/bin/arena"),
        )
        .unwrap_err()
        .to_string()
    }

    #[test]
    fn builtins_start_the_arena_itself() {
        let plan = Plan::new(&config("", TWO), Path::new("t.toml"), Path::new("/x/arena")).unwrap();
        assert_eq!(plan.bots[0].launch.program, PathBuf::from("/x/arena"));
        assert_eq!(plan.bots[0].launch.args, vec!["bot", "random"]);
        assert_eq!(
            plan.spec,
            GameSpec::Connect4 {
                width: 7,
                height: 6
            }
        );
    }

    #[test]
    fn broken_plans_say_what_is_wrong() {
        assert!(plan_err("games_per_pair = 3", TWO).contains("must be even"));
        assert!(
            plan_err("", "[[bots]]\nname = \"a\"\nbuiltin = \"random\"\n")
                .contains("at least two bots")
        );
        assert!(plan_err("", &TWO.replace("\"b\"", "\"a\"")).contains("two bots are named \"a\""));
        assert!(plan_err(
            "",
            &TWO.replace(
                "builtin = \"random\"\n[[",
                "command = \"./no/such/bot\"\n[["
            )
        )
        .contains("does not exist"));
        assert!(plan_err(
            "",
            &TWO.replace(
                "builtin = \"random\"\n[[",
                "command = \"no-such-bot-anywhere\"\n[["
            )
        )
        .contains("not found on PATH"));
        assert!(
            plan_err("", &TWO.replace("\"random\"\n[[", "\"stockfish\"\n[["))
                .contains("unknown builtin")
        );
        let mut c = config("", TWO);
        c.name = "../x".into();
        let e = Plan::new(&c, Path::new("t.toml"), Path::new("/bin/arena"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("results folder"), "{e}");
        assert!(plan_err(
            "opening_plies = 2",
            &TWO.replace(
                "builtin = \"random\"\n[[",
                "builtin = \"random\"\nprotocol = \"codecup\"\n[["
            )
        )
        .contains("codecup"));
    }
}
