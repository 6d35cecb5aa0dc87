//! The run's fingerprint: everything in a plan that changes how its games are played, written once into
//! the results folder (`fingerprint.toml`) and compared on every resume, shard merge and re-run, so one
//! results folder never mixes games played under two configs.
//!
//! It holds the game and variant, the seed, the openings (the book's lines by checksum, the random
//! plies), `max_plies`, the idle-bot rule, `noswap`, `reverse` and `[adjudication]` (when set), and for
//! every bot its command as written, working directory,
//! protocol, options, time control (startup and margin included), limits and sandbox. It leaves out what
//! does not change a game: the tournament's name, its format and `games_per_pair` (the schedule check
//! catches a changed schedule), `concurrency` and the rating `anchor`. The contents of a bot's executable
//! are not part of it: a rebuilt bot under the same command is the same bot to the arena.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{Context, Result};

use crate::plan::Plan;

/// The fingerprint's file in a results folder.
pub const FILE: &str = "fingerprint.toml";

/// A run's fingerprint: item name → its value as text, e.g. `bot.random.time_control` →
/// `10000+100 startup=5000 margin=0`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fingerprint {
    items: BTreeMap<String, String>,
}

impl Fingerprint {
    /// The fingerprint of `plan`.
    pub fn of(plan: &Plan) -> Fingerprint {
        let mut items = BTreeMap::new();
        let mut put = |k: String, v: String| {
            items.insert(k, v);
        };
        put("game".into(), plan.spec.to_string());
        put("seed".into(), plan.seed.to_string());
        put("opening_plies".into(), plan.opening_plies.to_string());
        put(
            "openings".into(),
            if plan.openings.is_empty() {
                "none".into()
            } else {
                // A line with setup dots (an SGF opening) is `setup | moves`; a plain line is its moves,
                // so fingerprints of books without setups stay as they were.
                let text: Vec<String> = plan
                    .openings
                    .iter()
                    .map(|o| match o.setup.is_empty() {
                        true => o.moves.join(" "),
                        false => format!("{} | {}", o.setup, o.moves.join(" ")),
                    })
                    .collect();
                format!(
                    "{} lines, fnv1a64 {:016x}, {:?} order",
                    plan.openings.len(),
                    fnv1a64(text.join("\n").as_bytes()),
                    plan.opening_order
                )
                .to_lowercase()
            },
        );
        put(
            "max_plies".into(),
            plan.max_plies.map_or("none".into(), |m| m.to_string()),
        );
        put("suspend_idle".into(), plan.suspend_idle.to_string());
        // Only when set: the fingerprints of folders recorded before `noswap` and `reverse` stay as they
        // were. The schedule check alone would miss a pair whose first game is recorded and whose
        // second is not (`noswap` changes only the second).
        if plan.sides != crate::plan::PairSides::default() {
            put("game_pairs".into(), plan.sides.words().into());
        }
        if plan.adjudication.is_on() {
            put("adjudication".into(), plan.adjudication.words());
        }
        for b in &plan.bots {
            let key = |item: &str| format!("bot.{}.{item}", b.name);
            put(key("command"), b.command.clone());
            put(
                key("dir"),
                b.launch
                    .dir
                    .as_ref()
                    .map_or("(the arena's)".into(), |d| d.display().to_string()),
            );
            put(key("protocol"), format!("{:?}", b.protocol).to_lowercase());
            put(
                key("options"),
                b.options
                    .iter()
                    .map(|(k, v)| format!("{k}={v}"))
                    .collect::<Vec<_>>()
                    .join(" "),
            );
            let tc = &b.time_control;
            put(
                key("time_control"),
                format!("{tc} startup={} margin={}", tc.startup_ms, tc.margin_ms),
            );
            put(key("limits"), b.limits.to_string());
            put(key("sandbox"), format!("{:?}", b.sandbox).to_lowercase());
        }
        Fingerprint { items }
    }

    /// Reads `<dir>/fingerprint.toml`; `None` if the folder has none (a new folder, or one written before
    /// fingerprints existed).
    ///
    /// # Errors
    /// A file that cannot be read or parsed, with its path.
    pub fn load(dir: &Path) -> Result<Option<Fingerprint>> {
        let path = dir.join(FILE);
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
        };
        let items: BTreeMap<String, String> =
            toml::from_str(&text).with_context(|| format!("reading {}", path.display()))?;
        Ok(Some(Fingerprint { items }))
    }

    /// Writes `<dir>/fingerprint.toml` (through a temporary file and a rename).
    ///
    /// # Errors
    /// File-system errors, with the path.
    pub fn save(&self, dir: &Path) -> Result<()> {
        let path = dir.join(FILE);
        let partial = dir.join(format!("{FILE}.partial"));
        let mut text = String::from(
            "# What changes play in this run (written by arena; compared on every resume).\n",
        );
        text.push_str(&toml::to_string(&self.items).context("writing the fingerprint")?);
        std::fs::write(&partial, text).with_context(|| format!("writing {}", partial.display()))?;
        std::fs::rename(&partial, &path).with_context(|| format!("writing {}", path.display()))
    }

    /// What differs from `recorded` to `self`, one line each: `time control of bot a: 10000+100 … →
    /// 5000+100 …`, `bot c: added`. Empty when the two are equal.
    pub fn changes_from(&self, recorded: &Fingerprint) -> Vec<String> {
        let mut out = Vec::new();
        let keys: std::collections::BTreeSet<&String> =
            self.items.keys().chain(recorded.items.keys()).collect();
        for k in keys {
            match (recorded.items.get(k), self.items.get(k)) {
                (Some(a), Some(b)) if a == b => {}
                (Some(a), Some(b)) => out.push(format!("{}: {a} → {b}", describe(k))),
                (None, Some(b)) => out.push(format!("{}: (not recorded) → {b}", describe(k))),
                (Some(a), None) => out.push(format!("{}: {a} → (gone)", describe(k))),
                (None, None) => {}
            }
        }
        out
    }

    /// Adds (or replaces) an item: what a run plays beyond its plan, e.g. `arena tune`'s `tune.*` settings.
    pub fn insert(&mut self, key: impl Into<String>, value: impl Into<String>) {
        self.items.insert(key.into(), value.into());
    }

    /// The items, name → value.
    pub fn items(&self) -> &BTreeMap<String, String> {
        &self.items
    }
}

/// `bot.a.time_control` → `bot a's time_control`.
fn describe(key: &str) -> String {
    match key.strip_prefix("bot.").and_then(|r| r.rsplit_once('.')) {
        Some((bot, item)) => format!("bot {bot}'s {item}"),
        None => key.to_string(),
    }
}

/// FNV-1a, 64 bits: a checksum that stays the same across Rust versions (std's hashers may not).
fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// Checks the fingerprint `now` of a run against the one recorded in `dir`, if the folder already holds
/// `what` (`games`, a tuning's `iterations`: `has`): without them there is nothing to mix, and the new
/// fingerprint replaces the old. Called by [`crate::run::Run::check_fingerprint`].
///
/// # Errors
/// The recorded fingerprint differs while `what` are recorded: the error lists every change and says to
/// use `--fresh`; or a file error.
pub fn check(now: &Fingerprint, dir: &Path, has: bool, what: &str) -> Result<()> {
    if !has {
        return Ok(());
    }
    if let Some(recorded) = Fingerprint::load(dir)? {
        let changes = now.changes_from(&recorded);
        anyhow::ensure!(
            changes.is_empty(),
            "{}: its {what} were played under another config; what changed:\n  {}\n\
             restore the config, or run with --fresh to start afresh (the old folder is kept)",
            dir.display(),
            changes.join("\n  ")
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;

    /// A two-bot plan with seed 3 unless `extra` sets another.
    fn plan(extra: &str, bot_b: &str) -> Plan {
        let extra = if extra.contains("seed") {
            extra.to_string()
        } else {
            format!("seed = 3\n{extra}")
        };
        let text = format!(
            "name = \"t\"\n{extra}\n[game]\nname = \"connect4\"\n[time_control]\ntime_ms = 1000\n\
             [[bots]]\nname = \"a\"\nbuiltin = \"random\"\n[[bots]]\nname = \"b\"\nbuiltin = \"random\"\n{bot_b}"
        );
        let config = Config::parse(&text, Path::new("t.toml")).unwrap();
        Plan::new(&config, Path::new("t.toml"), Path::new("/bin/arena")).unwrap()
    }

    #[test]
    fn every_change_that_alters_play_is_named() {
        let base = Fingerprint::of(&plan("", ""));
        assert!(base.changes_from(&base).is_empty());
        let cases = [
            (plan("seed = 4", ""), "seed: 3 → 4"),
            (
                plan("", "time_control = { time_ms = 500 }"),
                "bot b's time_control: 1000+0 startup=5000 margin=0 → 500+0 startup=5000 margin=0",
            ),
            (
                plan("", "options = { seed = 9 }"),
                "bot b's options:  → seed=9",
            ),
            (
                plan("", "limits = { memory_mb = 256 }"),
                "bot b's limits: memory 1024 MiB",
            ),
            (plan("[limits]\nprocesses = 64", ""), "bot a's limits:"),
            (
                plan("suspend_idle = false", ""),
                "suspend_idle: true → false",
            ),
            (plan("opening_plies = 2", ""), "opening_plies: 0 → 2"),
            (plan("max_plies = 30", ""), "max_plies: none → 30"),
            (
                plan("noswap = true", ""),
                "game_pairs: (not recorded) → noswap",
            ),
            (
                plan("[adjudication]\nresign_moves = 3\nresign_score = 600", ""),
                "adjudication: (not recorded) → resign 3 moves <= -600",
            ),
            (
                plan("reverse = true\nnoswap = true", ""),
                "game_pairs: (not recorded) → noswap reverse",
            ),
            (
                plan("", "args = [\"--x\"]"),
                "bot b's command: builtin random → builtin random --x",
            ),
        ];
        for (p, expected) in cases {
            let changes = Fingerprint::of(&p).changes_from(&base);
            assert!(
                changes.iter().any(|c| c.starts_with(expected)),
                "{expected:?} not in {changes:?}"
            );
        }
        // What does not change a game is not part of it.
        for same in [
            "concurrency = 1",
            "games_per_pair = 4",
            "anchor = \"a\"",
            "noswap = false",
        ] {
            assert_eq!(Fingerprint::of(&plan(same, "")), base, "{same}");
        }
    }

    #[test]
    fn it_survives_its_file() {
        let tmp = tempfile::tempdir().unwrap();
        let f = Fingerprint::of(&plan("", "limits = { memory_mb = 256 }"));
        assert_eq!(Fingerprint::load(tmp.path()).unwrap(), None);
        f.save(tmp.path()).unwrap();
        assert_eq!(Fingerprint::load(tmp.path()).unwrap(), Some(f.clone()));
        let p = Fingerprint::of(&plan("", "limits = { memory_mb = 256 }"));
        check(&p, tmp.path(), true, "games").unwrap();
        // Without games, any config may take the folder.
        let other = Fingerprint::of(&plan("seed = 8", ""));
        check(&other, tmp.path(), false, "games").unwrap();
        let e = check(&other, tmp.path(), true, "games")
            .unwrap_err()
            .to_string();
        assert!(e.contains("seed: 3 → 8") && e.contains("--fresh"), "{e}");
        assert!(e.contains("bot b's limits: memory 256 MiB"), "{e}");
    }
}
