//! A bot's check and files: the check's score against each reference bot (public) with the likely
//! mistake behind a timeout (its author's), and for its author the check log of a version (the
//! probe's report of its check games and its stderr) and its stderr in a competition, each without
//! the server's own paths.

use std::path::Path as FsPath;

use crate::probe::ProbeReport;
use crate::serve::db::User;
use crate::serve::web::HttpError;
use crate::serve::App;

/// The bot `id` if `user` wrote it.
///
/// # Errors
/// No such bot (404), no account or another's (403).
pub async fn authored(
    app: &App,
    user: Option<&User>,
    id: i64,
) -> Result<crate::serve::db::Bot, HttpError> {
    let bot = crate::serve::web::bot_or_404(app, id).await?;
    match user {
        Some(u) if u.id == bot.owner => Ok(bot),
        _ => Err(HttpError::forbidden(
            "only the bot's author may read its transcripts and stderr",
        )),
    }
}

/// The end of the file at `path`: its last 64 KiB at most (read from there, not whole).
fn tail(path: &FsPath) -> String {
    use std::io::{Read, Seek, SeekFrom};
    const MAX: u64 = 64 * 1024;
    let Ok(mut file) = std::fs::File::open(path) else {
        return String::new();
    };
    let len = file.metadata().map_or(0, |m| m.len());
    let start = len.saturating_sub(MAX);
    let mut bytes = Vec::new();
    if file.seek(SeekFrom::Start(start)).is_err() || file.take(MAX).read_to_end(&mut bytes).is_err()
    {
        return String::new();
    }
    let text = String::from_utf8_lossy(&bytes);
    if start > 0 {
        format!("[… {start} bytes before …]\n{text}")
    } else {
        text.into_owned()
    }
}

/// The bot whose stderr the log file `name` (`<game>-<first|second>-<bot>.stderr`) holds: the name
/// after the side, whole (a bot named `beta` does not own `g1-first-alpha-beta.stderr`).
fn stderr_owner(name: &str) -> Option<&str> {
    let stem = name.strip_suffix(".stderr")?;
    ["-first-", "-second-"]
        .iter()
        .filter_map(|side| stem.find(side).map(|i| &stem[i + side.len()..]))
        .min_by_key(|owner| std::cmp::Reverse(owner.len()))
}

/// Every `<game>-<side>-<bot>.stderr` of `bot` in the results folder `dir`, each under a header.
pub fn stderr_of(dir: &FsPath, bot: &str) -> String {
    let mut files: Vec<_> = std::fs::read_dir(dir.join("logs"))
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| stderr_owner(n) == Some(bot))
        })
        .collect();
    files.sort();
    let mut out = String::new();
    // About 1 MiB at most, in game order: the files past it are counted, not shown.
    const TOTAL: usize = 1 << 20;
    let count = files.len();
    for (shown, f) in files.into_iter().enumerate() {
        if out.len() > TOTAL {
            out.push_str(&format!("[… {} more files not shown …]\n", count - shown));
            break;
        }
        let name = f
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        out.push_str(&format!("==== {name}\n{}\n", tail(&f)));
    }
    if out.is_empty() {
        out.push_str("(no stderr)\n");
    }
    out
}

/// The check log of version `number` of bot `id`: the probe's report of its games (handshake, each
/// game, every forfeit with its transcript's end) and the bot's stderr, for its author.
///
/// # Errors
/// Not the author (403), no such bot or version, a check not played yet.
pub async fn check_log_text(
    app: &App,
    user: Option<&User>,
    id: i64,
    number: i64,
) -> Result<String, HttpError> {
    let bot = authored(app, user, id).await?;
    let version = app
        .db
        .versions(id)
        .await?
        .into_iter()
        .find(|v| v.number == number)
        .ok_or_else(|| HttpError::not_found(format!("version {number} of {}", bot.name)))?;
    let report = version
        .checked_ms
        .and_then(|_| check_report(app, &bot.name, number, &version.manifest))
        .ok_or_else(|| HttpError::not_found("check log yet: the check has not been played"))?;
    let dir = &report.dir;
    Ok(format!(
        "check of {} v{number}: {}\n\n{}\n==== stderr\n{}",
        bot.name,
        version.check_detail,
        report.text(),
        stderr_of(dir, &bot.name)
    ))
    .map(|text| without_server_paths(app, &text))
}

/// `text` with the contest's data folder (as given and as an absolute path) left out of every path
/// in it: `checks/alice-v1/logs/g1.log` instead of `/srv/arena/results/c/checks/…`. A bot's stderr
/// (a traceback names its script) and the probe's report name files by their path on the server.
pub fn without_server_paths(app: &App, text: &str) -> String {
    let mut roots = vec![app.data.root.display().to_string()];
    if let Ok(absolute) = std::fs::canonicalize(&app.data.root) {
        roots.push(absolute.display().to_string());
    }
    // The longest first: the absolute path may contain the one given.
    roots.sort_by_key(|r| std::cmp::Reverse(r.len()));
    let mut text = text.to_string();
    for root in roots.iter().filter(|r| !r.is_empty() && r.as_str() != ".") {
        text = strip_root(&text, root);
    }
    text
}

/// `text` with `root` left out where it is a whole path: `root/x` becomes `x`, and `root` itself
/// (followed by the end, a space, a quote, `:` or `)`) becomes `.`; `root4/x` or `root.db` (another
/// folder beside it) is left as it is.
fn strip_root(text: &str, root: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(root) {
        out.push_str(&rest[..at]);
        let after = &rest[at + root.len()..];
        match after.chars().next() {
            Some('/') => rest = &after[1..],
            None | Some(' ' | '\n' | '\t' | '"' | '\'' | ':' | ')' | ',') => {
                out.push('.');
                rest = after;
            }
            Some(_) => {
                out.push_str(root);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// A version's check as the bot's page shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckSummary {
    /// One row per reference bot, in the contest file's order.
    pub rows: Vec<crate::serve::runner::checks::Score>,
    /// What the bot likely did wrong, from what it printed in its first game lost on time
    /// ([`crate::probe::ProbeReport::first_timeout_mistake`], as `arena probe` says it); for its
    /// author only.
    pub likely_mistake: Option<String>,
}

/// The check of version `number` of `bot` (whose manifest is `manifest`) as the probe reports it,
/// read from its results folder; `None` while it has not been played.
fn check_report(app: &App, bot: &str, number: i64, manifest: &str) -> Option<ProbeReport> {
    let dir = app.data.check(bot, number);
    let games = crate::results::read_games_live(&dir.join("games.csv")).ok()?;
    let protocol = toml::from_str::<crate::serve::upload::Manifest>(manifest)
        .map_or(crate::config::ProtocolKind::Ugi, |m| m.protocol);
    Some(ProbeReport {
        bot: bot.to_string(),
        renamed_from: None,
        protocol,
        games,
        dir,
        interrupted: false,
    })
}

/// The check of version `number` of `bot` (whose manifest is `manifest`); `None` while it has not
/// been played.
pub fn check_summary(app: &App, bot: &str, number: i64, manifest: &str) -> Option<CheckSummary> {
    let report = check_report(app, bot, number, manifest)?;
    Some(CheckSummary {
        rows: crate::serve::runner::checks::scores(&report, &app.contest.reference_names()),
        likely_mistake: report.first_timeout_mistake(),
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_data_folder_leaves_whole_paths_only() {
        use super::strip_root;
        let root = "/srv/results/c";
        assert_eq!(
            strip_root(
                "the end of /srv/results/c/checks/a-v1/logs/g1.log:\nin /srv/results/c: ok",
                root
            ),
            "the end of checks/a-v1/logs/g1.log:\nin .: ok"
        );
        // Another contest or file beside it is not this folder.
        assert_eq!(
            strip_root("/srv/results/c4test/x and /srv/results/c.sqlite", root),
            "/srv/results/c4test/x and /srv/results/c.sqlite"
        );
    }

    #[test]
    fn a_stderr_file_belongs_to_the_whole_name_after_its_side() {
        use super::stderr_owner;
        assert_eq!(
            stderr_owner("g0003-first-alpha-beta.stderr"),
            Some("alpha-beta")
        );
        assert_eq!(stderr_owner("g0003-second-beta.stderr"), Some("beta"));
        assert_eq!(
            stderr_owner("g0003-first-x-second-y.stderr"),
            Some("x-second-y")
        );
        assert_eq!(stderr_owner("g0003.log"), None);
    }
}
