//! The check of a config's options against a bot's declared ones (UGI `option name … type …` lines, as
//! UCI defines them, read as [`EngineOption`]s), run before the first game: a misspelled option, a
//! value outside `min..max` or not among a combo's `var`s stops the run with the bot, the option and the
//! allowed values, instead of being sent and silently ignored (which makes a sweep compare identical
//! bots).

use std::time::{Duration, Instant};

use crate::config::ProtocolKind;
use crate::game::process::{BotProcess, Transcript};
use crate::game::referee::GameEnv;
use crate::plan::{BotPlan, Plan};
use crate::protocol::{ugi, EngineOption, OptionKind};

/// Checks `bot`'s configured options against what it `declared`.
///
/// # Errors
/// The first option that is not declared (with the declared ones), or whose value its type refuses
/// (with the allowed values).
pub fn check(bot: &BotPlan, declared: &[EngineOption]) -> Result<(), String> {
    let all = || {
        if declared.is_empty() {
            "it declares none".to_string()
        } else {
            format!(
                "it declares {}",
                declared
                    .iter()
                    .map(EngineOption::summary)
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        }
    };
    for (name, value) in &bot.options {
        let Some(d) = declared.iter().find(|d| d.name == *name) else {
            let meant = closest(name, declared.iter().map(|d| d.name.as_str()))
                .map_or(String::new(), |m| format!("did you mean {m:?}? "));
            return Err(format!(
                "bot {:?}: option {name:?} is not an option of this bot; {meant}{}",
                bot.name,
                all()
            ));
        };
        let refused = match &d.kind {
            OptionKind::Spin { min, max, .. } => match value.parse::<i64>() {
                Ok(v) if (*min..=*max).contains(&v) => None,
                Ok(_) => Some(format!("outside {min}..{max}")),
                Err(_) => Some(format!("not an integer (spin {min}..{max})")),
            },
            OptionKind::Check { .. } => {
                (value != "true" && value != "false").then(|| "not true or false".to_string())
            }
            OptionKind::Combo { vars, .. } => (!vars.iter().any(|v| v == value))
                .then(|| format!("not one of {}", vars.join(", "))),
            OptionKind::String { .. } => None,
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

/// The name among `names` closest to `name`, the one a misspelling meant: the fewest single-character
/// edits ignoring case, at most a third of the name's length (at least 1), ties to the first. `None`
/// when no name is that close.
pub fn closest<'a>(name: &str, names: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let lower = name.to_lowercase();
    let most = (name.chars().count() / 3).max(1);
    names
        .into_iter()
        .map(|n| (edit_distance(&lower, &n.to_lowercase()), n))
        .filter(|&(d, _)| d <= most)
        .min_by_key(|&(d, _)| d)
        .map(|(_, n)| n)
}

/// The edit distance between `a` and `b`: the fewest characters inserted, deleted or replaced, or
/// neighbours swapped (Levenshtein's, with Damerau's swaps: `depht` is one edit from `depth`).
fn edit_distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    // Three rows of the table: two back (for swaps), one back, this one.
    let mut before: Vec<usize> = Vec::new();
    let mut last: Vec<usize> = (0..=b.len()).collect();
    for i in 1..=a.len() {
        let mut row = vec![i; b.len() + 1];
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            row[j] = (last[j] + 1).min(row[j - 1] + 1).min(last[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                row[j] = row[j].min(before[j - 2] + 1);
            }
        }
        before = std::mem::replace(&mut last, row);
    }
    last[b.len()]
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
    let mut seen: Vec<(&crate::plan::Launch, Option<Vec<EngineOption>>)> = Vec::new();
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

/// The options `bot` declares: starts it, says `ugi`, reads until `ugiok`, and ends it. A line that is
/// not a declaration the arena can use is skipped.
async fn declarations(bot: &BotPlan, env: &GameEnv) -> Result<Vec<EngineOption>, String> {
    // In the games' own jail: the same sandbox, the results folder covered as in a game.
    let jail = env.containment.jail(
        &bot.limits,
        bot.sandbox,
        &format!("options-{}", bot.name),
        env.work_root.as_deref(),
        env.hide.as_deref(),
    )?;
    let mut process = BotProcess::spawn(&bot.name, &bot.launch, None, Transcript::new(), jail)
        .map_err(|e| format!("could not start {}: {e}", bot.launch.program.display()))?;
    let deadline = Instant::now() + Duration::from_millis(bot.time_control.startup_ms);
    let result = async {
        process
            .send(ugi::UGI, deadline)
            .await
            .map_err(|e| e.to_string())?;
        let mut declared = Vec::new();
        loop {
            let line = process
                .read_line(deadline)
                .await
                .map_err(|e| format!("no ugiok: {e}"))?;
            if ugi::BotLine::read(&line) == ugi::BotLine::UgiOk {
                return Ok(declared);
            }
            declared.extend(line.parse::<EngineOption>().ok());
        }
    }
    .await;
    process
        .shutdown(Some(ugi::QUIT), Duration::from_millis(200))
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

    fn declared() -> Vec<EngineOption> {
        [
            "option name depth type spin default 4 min 1 max 20",
            "option name tiebreak type combo default first var first var random",
            "option name literal_sign type check default false",
            "option name Book File type string default <empty>",
            "option name Clear Hash type button",
        ]
        .iter()
        .map(|l| l.parse().unwrap())
        .collect()
    }

    #[test]
    fn a_misspelled_name_finds_the_name_meant() {
        let names = ["depth", "tiebreak", "literal_sign", "Book File", "seed"];
        assert_eq!(closest("depht", names), Some("depth"));
        assert_eq!(closest("Depth", names), Some("depth"));
        assert_eq!(closest("dept", names), Some("depth"));
        assert_eq!(closest("tie_break", names), Some("tiebreak"));
        assert_eq!(closest("BookFile", names), Some("Book File"));
        assert_eq!(closest("sed", names), Some("seed"));
        assert_eq!(closest("width", names), None);
        assert_eq!(closest("x", names), None);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("ab", "ba"), 1);
    }

    #[test]
    fn options_the_bot_would_ignore_or_refuse_are_errors_that_say_what_is_allowed() {
        let d = declared();
        assert_eq!(check(&bot("depth = 20, tiebreak = \"random\""), &d), Ok(()));
        let e = check(&bot("depht = 3"), &d).unwrap_err();
        assert!(
            e.starts_with("bot \"a\": option \"depht\" is not an option of this bot; did you mean \"depth\"? it declares depth (spin 1..20), tiebreak (combo first|random)"),
            "{e}"
        );
        // Nothing close: no guess.
        let e = check(&bot("width = 3"), &d).unwrap_err();
        assert!(
            e.starts_with("bot \"a\": option \"width\" is not an option of this bot; it declares"),
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
