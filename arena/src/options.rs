//! A bot's declared options (UGI `option name … type …` lines, as UCI defines them) and the check of a
//! config's options against them, run before the first game: a misspelled option, a value outside
//! `min..max` or not among a combo's `var`s stops the run with the bot, the option and the allowed
//! values, instead of being sent and silently ignored (which makes a sweep compare identical bots).

use std::time::{Duration, Instant};

use crate::config::ProtocolKind;
use crate::plan::{BotPlan, Plan};
use crate::process::{BotProcess, Transcript};
use crate::referee::GameEnv;

/// The type of a declared option, with its bounds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// An integer in `min..=max`.
    Spin { min: i64, max: i64 },
    /// `true` or `false`.
    Check,
    /// One of the listed values.
    Combo { vars: Vec<String> },
    /// Any text.
    String,
    /// No value (a command).
    Button,
}

/// One `option name … type …` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Declared {
    pub name: String,
    pub kind: OptionKind,
}

impl std::fmt::Display for Declared {
    /// `depth (spin 1..20)`, `tiebreak (combo first|random)`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.kind {
            OptionKind::Spin { min, max } => write!(f, "{} (spin {min}..{max})", self.name),
            OptionKind::Check => write!(f, "{} (check true|false)", self.name),
            OptionKind::Combo { vars } => write!(f, "{} (combo {})", self.name, vars.join("|")),
            OptionKind::String => write!(f, "{} (string)", self.name),
            OptionKind::Button => write!(f, "{} (button)", self.name),
        }
    }
}

/// Parses an `option` line: `option name <N> type <spin|check|combo|string|button> [default <D>]
/// [min <a>] [max <b>] [var <v>]…`; the name runs from `name` to `type` (UCI allows spaces in it).
/// `None` for any other line, or a declaration too broken to use (a spin without bounds is taken as
/// unbounded).
pub fn parse_declaration(line: &str) -> Option<Declared> {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.first() != Some(&"option") || words.get(1) != Some(&"name") {
        return None;
    }
    let ty = words.iter().position(|w| *w == "type")?;
    let name = words[2..ty].join(" ");
    if name.is_empty() {
        return None;
    }
    let rest = &words[ty + 1..];
    let value_of = |key: &str| -> Option<&str> {
        rest.iter()
            .position(|w| *w == key)
            .and_then(|i| rest.get(i + 1))
            .copied()
    };
    let kind = match *rest.first()? {
        "spin" => OptionKind::Spin {
            min: value_of("min")
                .and_then(|v| v.parse().ok())
                .unwrap_or(i64::MIN),
            max: value_of("max")
                .and_then(|v| v.parse().ok())
                .unwrap_or(i64::MAX),
        },
        "check" => OptionKind::Check,
        "combo" => OptionKind::Combo {
            vars: rest
                .iter()
                .enumerate()
                .filter(|(_, w)| **w == "var")
                .filter_map(|(i, _)| rest.get(i + 1).map(|v| v.to_string()))
                .collect(),
        },
        "string" => OptionKind::String,
        "button" => OptionKind::Button,
        _ => return None,
    };
    Some(Declared { name, kind })
}

/// Checks `bot`'s configured options against what it `declared`.
///
/// # Errors
/// The first option that is not declared (with the declared ones), or whose value its type refuses
/// (with the allowed values).
pub fn check(bot: &BotPlan, declared: &[Declared]) -> Result<(), String> {
    let all = || {
        if declared.is_empty() {
            "it declares none".to_string()
        } else {
            format!(
                "it declares {}",
                declared
                    .iter()
                    .map(Declared::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        }
    };
    for (name, value) in &bot.options {
        let Some(d) = declared.iter().find(|d| d.name == *name) else {
            return Err(format!(
                "bot {:?}: option {name:?} is not an option of this bot; {}",
                bot.name,
                all()
            ));
        };
        let refused = match &d.kind {
            OptionKind::Spin { min, max } => match value.parse::<i64>() {
                Ok(v) if (*min..=*max).contains(&v) => None,
                Ok(_) => Some(format!("outside {min}..{max}")),
                Err(_) => Some(format!("not an integer (spin {min}..{max})")),
            },
            OptionKind::Check => {
                (value != "true" && value != "false").then(|| "not true or false".to_string())
            }
            OptionKind::Combo { vars } => (!vars.iter().any(|v| v == value))
                .then(|| format!("not one of {}", vars.join(", "))),
            OptionKind::String => None,
            OptionKind::Button => Some("a button takes no value".to_string()),
        };
        if let Some(why) = refused {
            return Err(format!(
                "bot {:?}: option {name} = {value:?} is {why}",
                bot.name
            ));
        }
    }
    Ok(())
}

/// Starts each UGI bot of `plan` that is given options, once per distinct command (a sweep's variants
/// share one), reads the options it declares in its handshake (`ugi` … `ugiok`, within its
/// `startup_ms`), and checks every variant's options against them. A bot whose handshake fails is not
/// judged here: it will forfeit its games, as it would without options. Returns one warning line per
/// such bot.
///
/// # Errors
/// The first option a bot does not declare or whose value it refuses ([`check`]).
pub async fn preflight(plan: &Plan, env: &GameEnv) -> Result<Vec<String>, String> {
    let mut warnings = Vec::new();
    let mut seen: Vec<(&crate::plan::Launch, Option<Vec<Declared>>)> = Vec::new();
    for bot in &plan.bots {
        if bot.protocol != ProtocolKind::Ugi || bot.options.is_empty() {
            continue;
        }
        let known = seen.iter().position(|(l, _)| **l == bot.launch);
        let declared = match known {
            Some(k) => seen[k].1.clone(),
            None => {
                let d = declarations(bot, env).await;
                if let Err(e) = &d {
                    warnings.push(format!(
                        "bot {:?}: its options could not be checked: {e}",
                        bot.name
                    ));
                }
                let d = d.ok();
                seen.push((&bot.launch, d.clone()));
                d
            }
        };
        if let Some(declared) = declared {
            check(bot, &declared)?;
        }
    }
    Ok(warnings)
}

/// The options `bot` declares: starts it, says `ugi`, reads until `ugiok`, and ends it.
async fn declarations(bot: &BotPlan, env: &GameEnv) -> Result<Vec<Declared>, String> {
    // In the games' own jail: the same sandbox, the results folder covered as in a game.
    let jail = env.containment.jail(
        bot,
        &format!("options-{}", bot.name),
        env.work_root.as_deref(),
        env.hide.as_deref(),
    )?;
    let mut process = BotProcess::spawn(&bot.name, &bot.launch, None, Transcript::new(), jail)
        .map_err(|e| format!("could not start {}: {e}", bot.launch.program.display()))?;
    let deadline = Instant::now() + Duration::from_millis(bot.time_control.startup_ms);
    let result = async {
        process
            .send("ugi", deadline)
            .await
            .map_err(|e| e.to_string())?;
        let mut declared = Vec::new();
        loop {
            let line = process
                .read_line(deadline)
                .await
                .map_err(|e| format!("no ugiok: {e}"))?;
            if line.split_whitespace().next() == Some("ugiok") {
                return Ok(declared);
            }
            declared.extend(parse_declaration(&line));
        }
    }
    .await;
    process
        .shutdown(Some("quit"), Duration::from_millis(200))
        .await;
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use std::path::Path;

    fn bot(options: &str) -> BotPlan {
        let text = format!(
            "name = \"t\"\n[game]\nname = \"connect4\"\n[time_control]\ntime_ms = 1000\n\
             [[bots]]\nname = \"a\"\nbuiltin = \"alphabeta\"\noptions = {{ {options} }}\n\
             [[bots]]\nname = \"b\"\nbuiltin = \"random\"\n"
        );
        let config = Config::parse(&text, Path::new("t.toml")).unwrap();
        let plan = Plan::new(&config, Path::new("t.toml"), Path::new("/bin/arena")).unwrap();
        plan.bots[0].clone()
    }

    fn declared() -> Vec<Declared> {
        [
            "option name depth type spin default 4 min 1 max 20",
            "option name tiebreak type combo default first var first var random",
            "option name literal_sign type check default false",
            "option name Book File type string default <empty>",
            "option name Clear Hash type button",
        ]
        .iter()
        .map(|l| parse_declaration(l).unwrap())
        .collect()
    }

    #[test]
    fn declarations_parse_as_uci_writes_them() {
        let d = declared();
        assert_eq!(d[0].kind, OptionKind::Spin { min: 1, max: 20 });
        assert_eq!(
            d[1].kind,
            OptionKind::Combo {
                vars: vec!["first".into(), "random".into()]
            }
        );
        assert_eq!(d[3].name, "Book File");
        assert_eq!(d[4].kind, OptionKind::Button);
        assert_eq!(parse_declaration("id name x"), None);
        assert_eq!(parse_declaration("option name x type colour"), None);
        assert_eq!(d[0].to_string(), "depth (spin 1..20)");
    }

    #[test]
    fn options_the_bot_would_ignore_or_refuse_are_errors_that_say_what_is_allowed() {
        let d = declared();
        assert_eq!(check(&bot("depth = 20, tiebreak = \"random\""), &d), Ok(()));
        let e = check(&bot("depht = 3"), &d).unwrap_err();
        assert!(
            e.starts_with("bot \"a\": option \"depht\" is not an option of this bot; it declares depth (spin 1..20), tiebreak (combo first|random)"),
            "{e}"
        );
        assert_eq!(
            check(&bot("depth = 21"), &d).unwrap_err(),
            "bot \"a\": option depth = \"21\" is outside 1..20"
        );
        assert_eq!(
            check(&bot("depth = 2.5"), &d).unwrap_err(),
            "bot \"a\": option depth = \"2.5\" is not an integer (spin 1..20)"
        );
        assert_eq!(
            check(&bot("tiebreak = \"last\""), &d).unwrap_err(),
            "bot \"a\": option tiebreak = \"last\" is not one of first, random"
        );
        assert_eq!(
            check(&bot("literal_sign = \"yes\""), &d).unwrap_err(),
            "bot \"a\": option literal_sign = \"yes\" is not true or false"
        );
        assert!(check(&bot("x = 1"), &[])
            .unwrap_err()
            .ends_with("it declares none"));
    }
}
