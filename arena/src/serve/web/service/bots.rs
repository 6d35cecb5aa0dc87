//! A bot's files for its author: the check log of a version (the probe's report of its check games
//! and its stderr) and its stderr in a competition.

use std::path::Path as FsPath;

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
    let dir = app.data.check(&bot.name, number);
    if version.checked_ms.is_none() || !dir.exists() {
        return Err(HttpError::not_found(
            "check log yet: the check has not been played",
        ));
    }
    let games = crate::results::read_games_live(&dir.join("games.csv"))?;
    let manifest: crate::serve::upload::Manifest =
        toml::from_str(&version.manifest).map_err(anyhow::Error::from)?;
    let report = crate::probe::ProbeReport {
        bot: bot.name.clone(),
        renamed_from: None,
        protocol: manifest.protocol,
        games,
        dir: dir.clone(),
        interrupted: false,
    };
    Ok(format!(
        "check of {} v{number}: {}\n\n{}\n==== stderr\n{}",
        bot.name,
        version.check_detail,
        report.text(),
        stderr_of(&dir, &bot.name)
    ))
}

#[cfg(test)]
mod tests {
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
