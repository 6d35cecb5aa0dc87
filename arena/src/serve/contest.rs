//! The contest config (`arena serve CONTEST.toml`): an ordinary tournament config (`[competition]`,
//! without `name` and `[[bots]]`) that every competition is played under, the reference bots every
//! submission is checked against, the check, the schedule of test competitions and the upload caps.
//! docs/server.md documents every key; `configs/contest-connect4.toml` is an example.

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{bail, ensure, Context, Result};
use serde::Deserialize;

use crate::config::{BotConfig, Config, Format};
use crate::plan::Plan;

/// The whole contest file.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ContestConfig {
    /// The contest's name: its data folder is `<data root>/<name>/` (letters, digits, `-`, `_`).
    pub name: String,
    /// Whether anyone may create an account at `/register`; `false` (default): the organiser adds
    /// accounts (`arena serve CONTEST.toml --add-user NAME`).
    #[serde(default)]
    pub registration: bool,
    /// Whether the reference bots also play in every competition (default `true`, so a contest with
    /// one submission has games).
    #[serde(default = "yes")]
    pub references_play: bool,
    /// The seed of every competition's schedule: competition N uses `seed + N`.
    #[serde(default)]
    pub seed: u64,
    /// How a new version is checked.
    #[serde(default)]
    pub check: CheckConfig,
    /// When test competitions start by themselves.
    #[serde(default)]
    pub schedule: ScheduleConfig,
    /// Upload caps.
    #[serde(default)]
    pub upload: UploadConfig,
    /// How games are handed to workers.
    #[serde(default)]
    pub workers: WorkersConfig,
    /// The HTTP server's deadlines and caps.
    #[serde(default)]
    pub server: ServerConfig,
    /// How every competition is played: any key of a tournament config but `name`, `seed` and
    /// `[[bots]]` (game, format, time control, limits, sandbox, concurrency, …).
    pub competition: toml::Table,
    /// `[final]`: keys of `[competition]` the final plays otherwise (`games_per_pair`,
    /// `[final.time_control]`, `format`, …), each replacing the `[competition]` value whole; test
    /// competitions play `[competition]` alone.
    #[serde(default, rename = "final")]
    pub final_: toml::Table,
    /// The reference bots: `[[reference]]` tables, each a `[[bots]]` entry of a tournament config
    /// (usually `builtin = "…"`); relative paths resolve against the contest file's folder.
    #[serde(default)]
    pub reference: Vec<BotConfig>,
}

fn yes() -> bool {
    true
}

/// `[check]`: what a new version plays before it may enter competitions.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CheckConfig {
    /// Games against each reference bot (even: game pairs, the new version first in one of each).
    pub games: u32,
    /// The least share of the points (0 to 1) a new version must score against a reference bot, by
    /// the reference bot's name (`min_score = { random = 0.75 }`); a reference bot not named asks
    /// for none. Beside this, a version passes only when it forfeits no game.
    #[serde(default)]
    pub min_score: std::collections::BTreeMap<String, f64>,
}

impl Default for CheckConfig {
    fn default() -> CheckConfig {
        CheckConfig {
            games: 2,
            min_score: Default::default(),
        }
    }
}

/// `[schedule]`: test competitions that start by themselves.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScheduleConfig {
    /// Start a test competition this long after the last one was created (humantime: `"6h"`,
    /// `"30min"`), when none is scheduled or running; absent: only the organiser starts them.
    #[serde(default, with = "humantime_serde_opt")]
    pub test_every: Option<Duration>,
}

/// `[workers]`: how the game queue hands games to workers (the server's own slots and `arena worker`
/// processes).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WorkersConfig {
    /// A game claimed by a worker goes to another one when this long passes without the worker's
    /// heartbeat, s (at least 2). The heartbeat comes every quarter of it and renews the lease of
    /// every game the worker plays, so a game may last longer than its lease.
    #[serde(default = "lease_s")]
    pub lease_s: u64,
}

fn lease_s() -> u64 {
    30
}

impl Default for WorkersConfig {
    fn default() -> WorkersConfig {
        WorkersConfig { lease_s: lease_s() }
    }
}

impl WorkersConfig {
    /// The lease, ms.
    pub fn lease_ms(&self) -> i64 {
        (self.lease_s * 1000) as i64
    }
}

/// `[server]`: the HTTP server's deadlines and caps (arena/src/serve/web/listen.rs), against clients
/// that hold connections open (slowloris) or come from behind a proxy.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ServerConfig {
    /// A request's head (and an idle keep-alive connection's next one) must arrive within this, s.
    #[serde(default = "header_timeout_s")]
    pub header_timeout_s: u64,
    /// A request's body may not pause longer than this, and a request must be read and answered
    /// within it, s.
    #[serde(default = "body_timeout_s")]
    pub body_timeout_s: u64,
    /// A connection is closed this long after it opened, however busy, s.
    #[serde(default = "connection_timeout_s")]
    pub connection_timeout_s: u64,
    /// Connections open at once; more wait to be accepted.
    #[serde(default = "max_connections")]
    pub max_connections: usize,
    /// Connections open at once from one address; more are closed at once (not counted when
    /// `behind_proxy`).
    #[serde(default = "max_connections_per_address")]
    pub max_connections_per_address: usize,
    /// The server is reached through a reverse proxy on its own machine: a client's address is the
    /// last of `X-Forwarded-For`, and `X-Forwarded-Proto: https` makes cookies `Secure`.
    #[serde(default)]
    pub behind_proxy: bool,
    /// Login attempts on one account at once, then one every `login_account_every_s`.
    #[serde(default = "login_account_burst")]
    pub login_account_burst: u32,
    /// See `login_account_burst`, s.
    #[serde(default = "login_account_every_s")]
    pub login_account_every_s: u64,
    /// Login and registration attempts from one address at once (a classroom behind one NAT address
    /// shares them), then one every `login_address_every_s`.
    #[serde(default = "login_address_burst")]
    pub login_address_burst: u32,
    /// See `login_address_burst`, s.
    #[serde(default = "login_address_every_s")]
    pub login_address_every_s: u64,
}

fn header_timeout_s() -> u64 {
    10
}
fn body_timeout_s() -> u64 {
    120
}
fn connection_timeout_s() -> u64 {
    600
}
fn max_connections() -> usize {
    1024
}
fn max_connections_per_address() -> usize {
    64
}
fn login_account_burst() -> u32 {
    5
}
fn login_account_every_s() -> u64 {
    60
}
fn login_address_burst() -> u32 {
    20
}
fn login_address_every_s() -> u64 {
    6
}

impl Default for ServerConfig {
    fn default() -> ServerConfig {
        ServerConfig {
            header_timeout_s: header_timeout_s(),
            body_timeout_s: body_timeout_s(),
            connection_timeout_s: connection_timeout_s(),
            max_connections: max_connections(),
            max_connections_per_address: max_connections_per_address(),
            behind_proxy: false,
            login_account_burst: login_account_burst(),
            login_account_every_s: login_account_every_s(),
            login_address_burst: login_address_burst(),
            login_address_every_s: login_address_every_s(),
        }
    }
}

/// `[upload]`: caps of one upload, and of a participant's uploads together.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UploadConfig {
    /// The largest upload, MiB.
    pub max_mb: u64,
    /// The largest unpacked archive, MiB.
    pub max_unpacked_mb: u64,
    /// The most files in an archive.
    pub max_files: usize,
    /// Uploads a participant may make in any hour (the organiser: any number).
    #[serde(default = "per_hour")]
    pub per_hour: u64,
    /// Bytes a participant's versions may take together, MiB (each upload's size, summed over every
    /// version kept; the organiser: any).
    #[serde(default = "max_stored_mb")]
    pub max_stored_mb: u64,
}

fn per_hour() -> u64 {
    12
}
fn max_stored_mb() -> u64 {
    200
}

impl UploadConfig {
    /// The caps in bytes and entries, as [`crate::serve::upload::store`] takes them.
    pub fn limits(&self) -> crate::serve::upload::Limits {
        crate::serve::upload::Limits {
            max_upload_bytes: self.max_mb << 20,
            max_unpacked_bytes: self.max_unpacked_mb << 20,
            max_files: self.max_files,
        }
    }
}

impl Default for UploadConfig {
    fn default() -> UploadConfig {
        UploadConfig {
            max_mb: 20,
            max_unpacked_mb: 200,
            max_files: 10_000,
            per_hour: per_hour(),
            max_stored_mb: max_stored_mb(),
        }
    }
}

mod humantime_serde_opt {
    use serde::{Deserialize, Deserializer};
    use std::time::Duration;

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Duration>, D::Error> {
        let text: Option<String> = Option::deserialize(d)?;
        text.map(|t| humantime::parse_duration(&t).map_err(serde::de::Error::custom))
            .transpose()
    }
}

/// Whether `name` may name a bot or a contest: 1–32 letters, digits, `-` or `_`.
pub fn valid_name(name: &str) -> bool {
    (1..=32).contains(&name.len())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// A loaded contest: its config, its file and its executable for builtin bots.
#[derive(Clone, Debug)]
pub struct Contest {
    pub config: ContestConfig,
    /// The contest file, absolute: relative paths of `[[reference]]` resolve against its folder.
    pub path: PathBuf,
    /// The arena executable that builtin bots are started from.
    pub exe: PathBuf,
}

impl Contest {
    /// Reads and validates `path`: a competition of the reference bots alone must plan, and so must a
    /// check.
    ///
    /// # Errors
    /// A file that cannot be read or parsed, a bad name, a `[competition]` key the arena does not
    /// know or cannot play, a reference bot that does not plan, a format a contest cannot use.
    pub fn load(path: &Path, exe: &Path) -> Result<Contest> {
        let text =
            std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        let config: ContestConfig =
            toml::from_str(&text).with_context(|| format!("{}", path.display()))?;
        ensure!(
            valid_name(&config.name),
            "{}: name {:?}: use 1–32 letters, digits, - or _",
            path.display(),
            config.name
        );
        for (table, keys) in [
            ("competition", &config.competition),
            ("final", &config.final_),
        ] {
            for key in ["name", "bots", "seed", "sprt", "tune"] {
                ensure!(
                    !keys.contains_key(key),
                    "{}: [{table}] cannot set `{key}` (the server names, seeds and fills each competition)",
                    path.display()
                );
            }
            ensure!(
                !keys.contains_key("affinity"),
                "{}: [{table}] cannot set `affinity`: the games are played by workers, which do not pin \
                 bots to CPUs (run fewer slots a machine instead)",
                path.display()
            );
        }
        ensure!(
            !config.final_.contains_key("game"),
            "{}: [final] cannot set `game`: the final plays the game the bots were checked at",
            path.display()
        );
        ensure!(
            config.workers.lease_s >= 2,
            "{}: [workers] lease_s = {}: use at least 2 (seconds)",
            path.display(),
            config.workers.lease_s
        );
        let server = &config.server;
        ensure!(
            [
                server.header_timeout_s,
                server.body_timeout_s,
                server.connection_timeout_s
            ]
            .iter()
            .all(|t| (1..=86_400).contains(t)),
            "{}: [server]: every timeout must be 1 to 86400 s",
            path.display()
        );
        ensure!(
            (1..=100_000).contains(&server.max_connections)
                && (1..=100_000).contains(&server.max_connections_per_address),
            "{}: [server]: max_connections and max_connections_per_address must be 1 to 100000",
            path.display()
        );
        ensure!(
            (1..=100_000).contains(&server.login_account_burst)
                && (1..=100_000).contains(&server.login_address_burst)
                && (1..=86_400).contains(&server.login_account_every_s)
                && (1..=86_400).contains(&server.login_address_every_s),
            "{}: [server]: login_account_burst and login_address_burst must be 1 to 100000, \
             login_account_every_s and login_address_every_s 1 to 86400 s",
            path.display()
        );
        ensure!(
            config.check.games >= 2 && config.check.games.is_multiple_of(2),
            "{}: [check] games = {}: use an even number, at least 2 (game pairs)",
            path.display(),
            config.check.games
        );
        ensure!(
            !config.reference.is_empty(),
            "{}: no [[reference]] bot: every submission is checked against them",
            path.display()
        );
        for (name, share) in &config.check.min_score {
            ensure!(
                config.reference.iter().any(|r| &r.name == name),
                "{}: [check] min_score names {name:?}, which is no reference bot",
                path.display()
            );
            ensure!(
                (0.0..=1.0).contains(share),
                "{}: [check] min_score for {name:?} is {share}: a share of the points, 0 to 1",
                path.display()
            );
        }
        for bot in &config.reference {
            ensure!(
                valid_name(&bot.name),
                "{}: reference bot {:?}: use 1–32 letters, digits, - or _",
                path.display(),
                bot.name
            );
        }
        let contest = Contest {
            config,
            path: std::path::absolute(path)?,
            exe: exe.to_path_buf(),
        };
        // A competition of two stand-ins for participants' bots (copies of the first reference bot
        // under other names), and the reference bots when they play.
        let sample_bots: Vec<BotConfig> = ["sample-a", "sample-b"]
            .into_iter()
            .map(|name| BotConfig {
                name: name.into(),
                ..contest.config.reference[0].clone()
            })
            .collect();
        // The final's own table only when it has one (else it plays `[competition]`, planned once).
        let tables = [("competition", false), ("final", true)];
        let tables = &tables[..if contest.config.final_.is_empty() {
            1
        } else {
            2
        }];
        for &(table, is_final) in tables {
            let sample = contest.competition(0, is_final, sample_bots.clone())?;
            ensure!(
                sample.sandbox != Some(crate::config::SandboxKind::None),
                "{}: [{table}] sandbox = \"none\": a contest runs other people's uploads, which must be \
                 isolated from each other and from the server",
                path.display()
            );
            if matches!(sample.format, Format::Sprt | Format::Tune) {
                bail!(
                    "{}: [{table}] format {:?}: a contest plays round-robin, gauntlet, Swiss or knockout competitions",
                    path.display(),
                    sample.format
                );
            }
            contest
                .plan(&sample)
                .with_context(|| format!("{}: [{table}]", path.display()))?;
        }
        let mut sample = contest.config.reference[0].clone();
        sample.name = "check-sample".into();
        contest.plan(&contest.check("check-sample", sample)?)?;
        Ok(contest)
    }

    /// The reference bots that enter every competition: all of them with `references_play`, none
    /// without.
    pub fn playing_references(&self) -> Vec<String> {
        if self.config.references_play {
            self.reference_names()
        } else {
            Vec::new()
        }
    }

    /// The reference bots' names, in file order.
    pub fn reference_names(&self) -> Vec<String> {
        self.config
            .reference
            .iter()
            .map(|b| b.name.clone())
            .collect()
    }

    /// The config of competition `id` among `bots` (its text is [`Config::to_toml`] of it); the
    /// final's (`is_final`) with `[final]`'s keys in place of `[competition]`'s.
    ///
    /// # Errors
    /// A `[competition]` table that is not a tournament config.
    pub fn competition(&self, id: i64, is_final: bool, mut bots: Vec<BotConfig>) -> Result<Config> {
        if self.config.references_play {
            let mut all = self.config.reference.clone();
            all.append(&mut bots);
            bots = all;
        }
        let overrides = is_final.then_some(&self.config.final_);
        self.config_with(
            &format!("competition-{id}"),
            self.config.seed + id as u64,
            bots,
            overrides,
        )
    }

    /// The config of the check named `name` (`<bot>-v<N>`): `candidate` against each reference bot,
    /// `[check] games` each, as a gauntlet under the competitions' game, time control, limits and
    /// isolation.
    ///
    /// # Errors
    /// As [`Contest::competition`].
    pub fn check(&self, name: &str, candidate: BotConfig) -> Result<Config> {
        let mut bots = vec![candidate];
        bots.extend(self.config.reference.iter().cloned());
        let mut config = self.config_of(name, self.config.seed, bots)?;
        config.format = Format::Gauntlet;
        config.games_per_pair = Some(self.config.check.games);
        config.rounds = None;
        config.knockout = None;
        config.cycles = None;
        Ok(config)
    }

    fn config_of(&self, name: &str, seed: u64, bots: Vec<BotConfig>) -> Result<Config> {
        self.config_with(name, seed, bots, None)
    }

    /// The config `name` of `[competition]` with `overrides`' keys put in whole (the final's).
    fn config_with(
        &self,
        name: &str,
        seed: u64,
        bots: Vec<BotConfig>,
        overrides: Option<&toml::Table>,
    ) -> Result<Config> {
        let mut table = self.config.competition.clone();
        for (key, value) in overrides.into_iter().flatten() {
            table.insert(key.clone(), value.clone());
        }
        table.insert("name".into(), name.into());
        table.insert("seed".into(), toml::Value::Integer(seed as i64));
        table.insert(
            "bots".into(),
            toml::Value::try_from(&bots).context("the bots of a competition")?,
        );
        let text = toml::to_string(&table).context("a competition's config")?;
        Config::parse(&text, &self.path).map_err(|e| {
            // The line and column would point into the text made here, not into the contest file.
            let why = match e {
                crate::config::ConfigError::Parse { message, .. } => message,
                e => e.to_string(),
            };
            anyhow::anyhow!("{}: [competition]: {why}", self.path.display())
        })
    }

    /// The plan of `config` (from [`Contest::competition`] or [`Contest::check`]): relative paths
    /// resolve against the contest file's folder.
    ///
    /// # Errors
    /// A config that does not plan (a builtin bot that does not exist, a bad time control, …).
    pub fn plan(&self, config: &Config) -> Result<Plan> {
        Plan::new(config, &self.path, &self.exe)
            .map_err(|e| anyhow::anyhow!("{}: {e}", config.name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exe() -> PathBuf {
        PathBuf::from("/usr/bin/arena")
    }

    #[test]
    fn every_contest_file_of_the_repository_loads_and_plans() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../configs");
        let mut seen = 0;
        for entry in std::fs::read_dir(&root).unwrap().flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with("contest-") && name.ends_with(".toml") {
                let contest = Contest::load(&entry.path(), &exe()).unwrap();
                let config = contest.competition(1, false, Vec::new()).unwrap();
                assert_eq!(config.name, "competition-1");
                assert!(
                    contest.plan(&config).unwrap().bots.len() >= 2
                        || !contest.config.references_play
                );
                seen += 1;
            }
        }
        assert!(seen >= 1);
    }

    fn refused(text: &str) -> String {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c.toml");
        std::fs::write(&path, text).unwrap();
        format!("{:#}", Contest::load(&path, &exe()).unwrap_err())
    }

    #[test]
    fn a_contest_that_cannot_run_is_refused_with_the_reason() {
        let with = |extra: &str| {
            format!(
                "[competition]\n{extra}[competition.game]\nname = \"connect4\"\n\
                 [competition.time_control]\ntime_ms = 1000\n"
            )
        };
        let game = with("");
        let random = "[[reference]]\nname = \"random\"\nbuiltin = \"random\"\n";
        let ok = format!("name = \"c\"\n{game}{random}");
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c.toml");
        std::fs::write(&path, &ok).unwrap();
        assert!(Contest::load(&path, &exe()).is_ok());
        for (text, says) in [
            (format!("name = \"c\"\n{game}"), "no [[reference]] bot"),
            (format!("name = \"a b\"\n{game}{random}"), "letters, digits"),
            (
                format!("name = \"c\"\n{}{random}", with("seed = 3\n")),
                "cannot set `seed`",
            ),
            (
                format!("name = \"c\"\n[check]\ngames = 3\n{game}{random}"),
                "even number",
            ),
            (
                format!("name = \"c\"\n{}{random}", with("affinity = true\n")),
                "cannot set `affinity`",
            ),
            (
                format!("name = \"c\"\n{}{random}", with("format = \"sprt\"\n")),
                "a contest plays round-robin",
            ),
            (
                format!("name = \"c\"\nspeed = 1\n{game}{random}"),
                "unknown field `speed`",
            ),
            (
                format!("name = \"c\"\n{game}{random}")
                    .replace("builtin = \"random\"", "builtin = \"nope\""),
                "nope",
            ),
            (
                format!("name = \"c\"\n[schedule]\ntest_every = \"soon\"\n{game}{random}"),
                "soon",
            ),
            (
                format!("name = \"c\"\n[server]\nheader_timeout_s = 0\n{game}{random}"),
                "every timeout must be 1 to 86400 s",
            ),
            (
                format!("name = \"c\"\n[server]\nlogin_address_burst = 0\n{game}{random}"),
                "login_account_burst and login_address_burst must be 1 to 100000",
            ),
        ] {
            let e = refused(&text);
            assert!(e.contains(says), "{says:?} not in {e:?}\n{text}");
        }
    }
}
