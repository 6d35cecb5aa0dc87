//! `arena probe`: does a bot executable behave? For people about to submit a bot, as CodeCup's test
//! competitions and cutechess's engine checks answer it.
//!
//! The probe is an ordinary gauntlet (the bot against a reference bot, `random` by default) run through
//! the same config → plan → referee path as `arena run`, so whatever the probe reports is what a
//! tournament would do with the bot. It then reads the games and their transcripts back and reports:
//! the handshake (UGI: `id name`, the declared options, how long `ugiok` took), each game's result and
//! ending, the bot's slowest move, and for every forfeit its reason and the end of its transcript.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::config::ProtocolKind;
use crate::game::process::Transcript;
use crate::protocol::{codecup, ugi};
use crate::record::GameRecord;

/// What to probe and how: the bot, the game, the opponent and the time control.
#[derive(Clone, Debug)]
pub struct ProbeOptions {
    /// The bot's name in the results (letters, digits, `.`, `_`, `-`). If it is the opponent's,
    /// [`run`] renames the bot when the name was derived ([`name_from_command`]) and refuses it when
    /// the user chose it ([`ProbeOptions::name_given`]).
    pub name: String,
    /// Whether the user chose [`ProbeOptions::name`] (`--name`) rather than the probe deriving it.
    pub name_given: bool,
    /// The executable: a path (with a `/`, relative to the working directory) or a name on `PATH`.
    pub command: String,
    /// Its arguments.
    pub args: Vec<String>,
    pub protocol: ProtocolKind,
    /// `setoption` settings, `(name, value)` (UGI only).
    pub options: Vec<(String, String)>,
    /// The `[game]` table: the game's name and the keys of its variant given.
    pub game: crate::config::GameConfig,
    /// Games to play, even (game pairs, the bot first in one game of each pair).
    pub games: u32,
    /// The reference bot to play against (a `builtin` name, e.g. `random`).
    pub opponent: String,
    /// Time for the whole game, ms.
    pub time_ms: u64,
    /// Increment per move, ms.
    pub inc_ms: u64,
    /// Hard cap per move, ms.
    pub max_move_ms: Option<u64>,
    /// Deadline for the handshake, ms.
    pub startup_ms: u64,
    /// The schedule's seed.
    pub seed: u64,
}

/// `s` as a TOML string literal (quoted, escaped).
fn quoted(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

/// The probe as a tournament config (TOML text, as a user would write it): tournament `probe-<name>`,
/// a gauntlet of the bot against `opponent`, one game at a time so timings are not shared with another
/// game.
pub fn config_text(o: &ProbeOptions) -> String {
    let mut t = String::new();
    let _ = writeln!(t, "name = {}", quoted(&format!("probe-{}", o.name)));
    let _ = writeln!(t, "format = \"gauntlet\"");
    let _ = writeln!(t, "games_per_pair = {}", o.games);
    let _ = writeln!(t, "seed = {}", o.seed);
    let _ = writeln!(t, "concurrency = 1");
    let _ = writeln!(t, "\n[game]\nname = {}", quoted(&o.game.name));
    for (key, value) in &o.game.keys {
        let _ = writeln!(t, "{} = {value}", quoted(key));
    }
    let _ = writeln!(
        t,
        "\n[time_control]\ntime_ms = {}\ninc_ms = {}\nstartup_ms = {}",
        o.time_ms, o.inc_ms, o.startup_ms
    );
    if let Some(m) = o.max_move_ms {
        let _ = writeln!(t, "max_move_ms = {m}");
    }
    let _ = writeln!(
        t,
        "\n[[bots]]\nname = {}\ncommand = {}",
        quoted(&o.name),
        quoted(&o.command)
    );
    let args: Vec<String> = o.args.iter().map(|a| quoted(a)).collect();
    let _ = writeln!(t, "args = [{}]", args.join(", "));
    if o.protocol == ProtocolKind::Codecup {
        let _ = writeln!(t, "protocol = \"codecup\"");
    }
    if !o.options.is_empty() {
        let _ = writeln!(t, "[bots.options]");
        for (k, v) in &o.options {
            let _ = writeln!(t, "{} = {}", quoted(k), quoted(v));
        }
    }
    let _ = writeln!(
        t,
        "\n[[bots]]\nname = {}\nbuiltin = {}",
        quoted(&o.opponent),
        quoted(&o.opponent)
    );
    t
}

/// A name for the bot from its command line: the file name of the first argument that is an existing
/// file (the script of `python3 bot.py`, the jar of `java -jar bot.jar`), else of the program, with every
/// character a tournament name does not allow replaced by `_` (`./target/release/my bot` → `my_bot`).
pub fn name_from_command(program: &str, args: &[String]) -> String {
    let source = args
        .iter()
        .find(|a| Path::new(a).is_file())
        .map_or(program, String::as_str);
    let base = Path::new(source)
        .file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_default();
    let name: String = base
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "._-".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    match name.trim_start_matches('.') {
        "" => "bot".into(),
        n => n.to_string(),
    }
}

/// One line of a game transcript (`logs/<id>.log`, see [`Transcript`]): ms since the game started,
/// direction (`>` to the bot, `<` from it) and the line as sent or received, for `bot`'s lines only
/// (`None` for the other bot's, for the marker of dropped lines and for anything unreadable).
fn transcript_line<'a>(line: &'a str, bot: &str) -> Option<(u64, char, &'a str)> {
    let (ms, rest) = line.trim_start().split_once(' ')?;
    let rest = rest.strip_prefix(bot)?.strip_prefix(' ')?;
    let mut chars = rest.chars();
    let dir = chars.next()?;
    let text = chars.as_str().strip_prefix(' ').unwrap_or("");
    Some((ms.parse().ok()?, dir, text))
}

/// The UGI handshake as one game's transcript shows it.
///
/// Lines are read as the referee reads them: split on whitespace, the first word deciding, so
/// `ugiok ` (a trailing space) is `ugiok` and `id  name  My Bot` names the bot `My Bot`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Handshake {
    /// The `id name` the bot gave (its words joined by single spaces; the last one if it gave several).
    pub id_name: Option<String>,
    /// The names of the options it declared, in order (the words between `name` and `type`).
    pub options: Vec<String>,
    /// From `ugi` sent to `ugiok` received, ms; `None` if it never came.
    pub ugiok_ms: Option<u64>,
}

impl Handshake {
    /// Reads `bot`'s handshake from a transcript (the text of `logs/<id>.log`); whatever is missing
    /// stays `None` or empty.
    pub fn read(transcript: &str, bot: &str) -> Handshake {
        let mut h = Handshake::default();
        let mut sent = None;
        for (ms, dir, text) in transcript.lines().filter_map(|l| transcript_line(l, bot)) {
            match dir {
                '>' if text.split_whitespace().next() == Some(ugi::UGI) => sent = Some(ms),
                '<' => match ugi::BotLine::read(text) {
                    ugi::BotLine::UgiOk => {
                        h.ugiok_ms = sent.map(|s| ms.saturating_sub(s));
                        break;
                    }
                    ugi::BotLine::IdName(name) if !name.is_empty() => h.id_name = Some(name),
                    ugi::BotLine::OptionName(name) => h.options.push(name),
                    _ => {}
                },
                _ => {}
            }
        }
        h
    }
}

/// The likely mistake of a bot that timed out, named from what it printed in one game (its transcript,
/// `bot`'s lines): UCI's `uciok` for UGI's `ugiok`, a move before being asked or without `bestmove`,
/// nothing at all (output left in a buffer), or lines but never the one awaited. `None` when what it
/// printed suggests none (a bot that answered before and was only slow this time).
pub fn likely_mistake(transcript: &str, bot: &str, protocol: ProtocolKind) -> Option<String> {
    // The bot's lines, each with whether a request for a move (`go`, or for CodeCup anything the arena
    // sent) came before it; the arena's own notes (`[exited …]`) and blank lines left out.
    let mut asked = false;
    let mut said: Vec<(bool, &str)> = Vec::new();
    for (_, dir, text) in transcript.lines().filter_map(|l| transcript_line(l, bot)) {
        let first = text.split_whitespace().next();
        match dir {
            '>' => {
                asked |= match protocol {
                    ProtocolKind::Ugi => first == Some(ugi::GO),
                    ProtocolKind::Codecup => first != Some(codecup::QUIT),
                }
            }
            '<' if first.is_some() && !(text.starts_with('[') && text.ends_with(']')) => {
                said.push((asked, text.trim()));
            }
            _ => {}
        }
    }
    if said.is_empty() {
        return Some(
            "it printed nothing: does it flush stdout after each line? (Python: print(…, \
             flush=True); C: fflush(stdout); C++: std::endl or std::flush; Java: System.out.flush())"
                .into(),
        );
    }
    fn words(text: &str) -> Vec<&str> {
        text.split_whitespace().collect()
    }
    if protocol == ProtocolKind::Codecup {
        return said
            .iter()
            .find(|(_, t)| matches!(words(t)[0], "ugiok" | "uciok" | "bestmove"))
            .map(|(_, t)| {
                format!(
                    "it printed `{t}`, which is UGI, not CodeCup: leave out protocol = \"codecup\""
                )
            });
    }
    if said
        .iter()
        .any(|(_, t)| words(t)[0].eq_ignore_ascii_case("uciok"))
    {
        return Some(
            "it spoke UCI, not UGI: say `ugiok` (not `uciok`) after its `id` and `option` lines"
                .into(),
        );
    }
    // A move written in another protocol's way: `move 4`, `play 4`, or the move alone (a word of
    // letters, digits and `-` with a digit: `4`, `b2`, `5-7`).
    let bare_move = |w: &str| {
        w.chars().any(|c| c.is_ascii_digit())
            && w.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
    };
    let as_move = said.iter().find(|(_, t)| {
        let w = words(t);
        matches!(w[0], "move" | "play") && w.len() == 2 || (w.len() == 1 && bare_move(w[0]))
    });
    if let Some(&(after_go, t)) = as_move {
        let m = words(t).last().copied().unwrap_or_default();
        return Some(if after_go {
            format!("it printed `{t}`: a UGI bot answers `go` with `bestmove {m}`")
        } else {
            format!(
                "it printed `{t}` before being asked: a UGI bot answers only `go`, with `bestmove {m}`"
            )
        });
    }
    let handshake = Handshake::read(transcript, bot);
    if handshake.ugiok_ms.is_none() {
        return Some(format!(
            "it printed `{}` but never `ugiok`, which ends its answer to `ugi`",
            said[0].1
        ));
    }
    if !said
        .iter()
        .any(|(_, t)| ugi::BotLine::read(t) == ugi::BotLine::ReadyOk)
    {
        return Some("it never answered `isready` with `readyok`".into());
    }
    None
}

/// A bot's answer times in one game as its transcript shows them (see [`move_times`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveTimes {
    /// Answers found: UGI `bestmove` lines after a `go`, CodeCup replies (a forfeiting answer, e.g. an
    /// illegal move, included). Not the game's move count, which is the record's
    /// ([`GameRecord::moves_by`]).
    pub answered: u32,
    /// The slowest of those answers, ms (0 if none).
    pub slowest_ms: u64,
    /// The transcript dropped lines (it passed [`crate::game::process::MAX_TRANSCRIPT`]), so the answers in
    /// the dropped part are missing from `answered` and `slowest_ms`.
    pub partial: bool,
}

/// `bot`'s answer times in one game, read from its transcript: for UGI from each `go` to its
/// `bestmove`; for CodeCup from the arena's line (`Start` or the opponent's move) to the bot's reply.
///
/// Lines are read as the referee reads them: the first word decides (` bestmove 4` is an answer), and
/// a CodeCup bot's blank lines are skipped, as are the arena's own notes in brackets (`[exited with
/// status 3]`). No answer is timed across the marker of dropped lines.
pub fn move_times(transcript: &str, bot: &str, protocol: ProtocolKind) -> MoveTimes {
    let mut times = MoveTimes::default();
    let mut asked: Option<u64> = None;
    for line in transcript.lines() {
        if Transcript::dropped_lines(line).is_some() {
            times.partial = true;
            asked = None;
            continue;
        }
        let Some((ms, dir, text)) = transcript_line(line, bot) else {
            continue;
        };
        let first = text.split_whitespace().next();
        let answered = match (protocol, dir) {
            (ProtocolKind::Ugi, '>') => {
                if first == Some(ugi::GO) {
                    asked = Some(ms);
                }
                false
            }
            (ProtocolKind::Codecup, '>') => {
                if first != Some(codecup::QUIT) {
                    asked.get_or_insert(ms);
                }
                false
            }
            (_, '<') => {
                let note = text.starts_with('[') && text.ends_with(']');
                crate::protocol::is_answer(protocol, text) && !note
            }
            _ => false,
        };
        if answered {
            if let Some(t) = asked.take() {
                times.answered += 1;
                times.slowest_ms = times.slowest_ms.max(ms.saturating_sub(t));
            }
        }
    }
    times
}

/// Plays the probe: validates [`config_text`] as any config is validated (a missing executable, an
/// unknown game or opponent is an error here), runs it afresh into `<results_root>/probe-<name>/` (an
/// earlier probe's folder is moved aside, never deleted) and keeps the config there as `config.toml`.
///
/// The bot and the opponent need different names. When `o.name` is the opponent's and was derived
/// from the command (`arena probe -- target/release/random`), the bot plays as `<name>-probed` instead,
/// and the report says so ([`ProbeReport::renamed_from`]).
///
/// # Errors
/// An odd number of games; a `--name` the user chose equal to the opponent's (choose another); a config
/// the plan refuses; a results folder that cannot be written or is in use.
pub async fn run(
    o: &ProbeOptions,
    self_exe: &Path,
    results_root: &Path,
    progress_bar: bool,
) -> anyhow::Result<ProbeReport> {
    anyhow::ensure!(
        o.games >= 2 && o.games.is_multiple_of(2),
        "--games {} must be even and at least 2 (game pairs: the bot moves first in one of each)",
        o.games
    );
    let (o, renamed_from) = distinct_name(o)?;
    let o = &o;
    let text = config_text(o);
    let source = Path::new("arena probe");
    let config = crate::config::Config::parse(&text, source)?;
    let plan = crate::plan::Plan::new(&config, source, self_exe)?;
    let opts = crate::tournament::RunOptions {
        results_root: results_root.to_path_buf(),
        fresh: true,
        progress_bar,
        // Kept in the folder as its config; its relative paths resolve against the working directory
        // (the folder of the "file" `arena probe`), as the plan resolved them.
        derived_config: Some(text.clone()),
        ..crate::tournament::RunOptions::default()
    };
    let summary = crate::tournament::run(std::sync::Arc::new(plan), &opts).await?;
    let games = crate::results::ResultsDir {
        path: summary.dir.clone(),
    }
    .read_games()?;
    Ok(ProbeReport {
        bot: o.name.clone(),
        renamed_from,
        protocol: o.protocol,
        games,
        dir: summary.dir,
        interrupted: summary.interrupted,
    })
}

/// `o` with a name distinct from the opponent's (see [`run`]), and the name it replaced if any.
///
/// # Errors
/// `o.name` is the opponent's and the user chose it.
fn distinct_name(o: &ProbeOptions) -> anyhow::Result<(ProbeOptions, Option<String>)> {
    let mut o = o.clone();
    if o.name != o.opponent {
        return Ok((o, None));
    }
    anyhow::ensure!(
        !o.name_given,
        "--name {:?} is also the opponent's name (--opponent {:?}): choose another --name",
        o.name,
        o.opponent
    );
    let name = format!("{}-probed", o.name);
    let old = std::mem::replace(&mut o.name, name);
    Ok((o, Some(old)))
}

/// What the probe found.
#[derive(Clone, Debug)]
pub struct ProbeReport {
    /// The bot's name in the games.
    pub bot: String,
    /// The name it was given, when that was the opponent's too and the probe renamed it (see [`run`]).
    pub renamed_from: Option<String>,
    pub protocol: ProtocolKind,
    /// Every game played, in schedule order.
    pub games: Vec<GameRecord>,
    /// The results folder (its `logs/` holds each game's transcript and the bot's stderr).
    pub dir: PathBuf,
    /// Ctrl-C or SIGTERM stopped the probe before its last game.
    pub interrupted: bool,
}

impl ProbeReport {
    /// The games the bot lost by forfeit.
    pub fn forfeits(&self) -> Vec<&GameRecord> {
        self.games
            .iter()
            .filter(|g| {
                g.termination.is_forfeit() && g.detail.starts_with(&format!("{}: ", self.bot))
            })
            .collect()
    }

    /// The likely mistake behind the first game the bot lost on time ([`likely_mistake`]), if any.
    pub fn first_timeout_mistake(&self) -> Option<String> {
        self.forfeits()
            .into_iter()
            .find(|g| g.termination == crate::record::Termination::Timeout)
            .and_then(|g| likely_mistake(&self.transcript(g), &self.bot, self.protocol))
    }

    fn transcript(&self, game: &GameRecord) -> String {
        std::fs::read_to_string(self.dir.join("logs").join(format!("{}.log", game.id)))
            .unwrap_or_default()
    }

    /// The report for the console: handshake, one line per game, the forfeits with the end of their
    /// transcripts, and a verdict.
    pub fn text(&self) -> String {
        let mut out = String::new();
        if let Some(old) = &self.renamed_from {
            let _ = writeln!(
                out,
                "name: {} ({old:?} is the opponent's name too; --name chooses another)",
                self.bot
            );
        }
        if self.protocol == ProtocolKind::Ugi {
            if let Some(first) = self.games.first() {
                let h = Handshake::read(&self.transcript(first), &self.bot);
                let _ = writeln!(
                    out,
                    "handshake: id name {}; {} option(s){}; ugiok {}",
                    h.id_name.as_deref().unwrap_or("(none)"),
                    h.options.len(),
                    if h.options.is_empty() {
                        String::new()
                    } else {
                        format!(" ({})", h.options.join(", "))
                    },
                    h.ugiok_ms
                        .map_or("never came".to_string(), |ms| format!("after {ms} ms")),
                );
            }
        }
        let (mut won, mut drew, mut lost) = (0, 0, 0);
        for g in self.games.iter().filter(|g| g.termination.counts()) {
            let side = usize::from(g.first != self.bot);
            let player = if side == 0 {
                games::Player::First
            } else {
                games::Player::Second
            };
            let points = g.result.points(player);
            let verdict = match points {
                p if p > 0.75 => {
                    won += 1;
                    "won"
                }
                p if p < 0.25 => {
                    lost += 1;
                    "lost"
                }
                _ => {
                    drew += 1;
                    "drew"
                }
            };
            let moves = g.moves_by(player);
            let slowest = slowest_move(
                &move_times(&self.transcript(g), &self.bot, self.protocol),
                moves,
            );
            let _ = writeln!(
                out,
                "{}  {:<6}  {:<4}  {:<11}  {:>3} plies  {:>6} ms used, {moves} moves, slowest {slowest}{}",
                g.id,
                if side == 0 { "first" } else { "second" },
                verdict,
                g.termination.as_str(),
                g.plies,
                g.time_ms[side],
                if g.detail.is_empty() {
                    String::new()
                } else {
                    format!("  ({})", g.detail)
                },
            );
        }
        let forfeits = self.forfeits();
        for g in forfeits.iter().take(SHOWN_FORFEITS) {
            let log = self.dir.join("logs").join(format!("{}.log", g.id));
            let _ = writeln!(out, "\n{} {}: {}", g.id, g.termination.as_str(), g.detail);
            // A timeout says least: what the bot did print tells why.
            let hint = (g.termination == crate::record::Termination::Timeout)
                .then(|| likely_mistake(&self.transcript(g), &self.bot, self.protocol))
                .flatten();
            if let Some(hint) = hint {
                let _ = writeln!(out, "likely: {hint}");
            }
            tail(&mut out, &log, &self.transcript(g), 12);
            let side = if g.first == self.bot {
                "first"
            } else {
                "second"
            };
            let stderr = self
                .dir
                .join("logs")
                .join(format!("{}-{side}-{}.stderr", g.id, self.bot));
            if let Ok(text) = std::fs::read_to_string(&stderr) {
                tail(&mut out, &stderr, &text, 8);
            }
        }
        if forfeits.len() > SHOWN_FORFEITS {
            let _ = writeln!(
                out,
                "\n({} more forfeits: see {})",
                forfeits.len() - SHOWN_FORFEITS,
                self.dir.join("games.csv").display()
            );
        }
        let _ = writeln!(
            out,
            "\n{} games: {won} won, {drew} drawn, {lost} lost; {} forfeit(s) by {}",
            self.games.len(),
            forfeits.len(),
            self.bot
        );
        if forfeits.is_empty() {
            let _ = writeln!(
                out,
                "verdict: {} behaves (no forfeit); transcripts and stderr in {}",
                self.bot,
                self.dir.join("logs").display()
            );
        } else {
            let _ = writeln!(
                out,
                "verdict: {} MISBEHAVES: it forfeited {} of {} games (see above)",
                self.bot,
                forfeits.len(),
                self.games.len()
            );
        }
        out
    }
}

/// The slowest-move figure of a game line: `35 ms` when the transcript holds all of the bot's `moves`
/// (from the game record), else saying that it covers only the moves the transcript kept.
fn slowest_move(times: &MoveTimes, moves: u32) -> String {
    if times.answered == 0 && moves > 0 {
        "unknown (no move in the transcript)".to_string()
    } else if times.partial || times.answered < moves {
        format!(
            "{} ms (of the {} move{} in the transcript)",
            times.slowest_ms,
            times.answered,
            if times.answered == 1 { "" } else { "s" }
        )
    } else {
        format!("{} ms", times.slowest_ms)
    }
}

/// Forfeits shown with their transcripts; the others are counted.
const SHOWN_FORFEITS: usize = 3;

/// Appends the last `n` lines of `text` (the file `path`) to `out`, indented.
fn tail(out: &mut String, path: &Path, text: &str, n: usize) {
    let lines: Vec<&str> = text.lines().collect();
    let _ = writeln!(out, "the end of {}:", path.display());
    for line in &lines[lines.len().saturating_sub(n)..] {
        let _ = writeln!(out, "  {line}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const UGI: &str = "      0 me > ugi
      0 random > ugi
      3 me < id name My Bot 1.0
      3 me < option name depth type spin default 4 min 1 max 9
      4 me < option name seed type spin default 0 min 0 max 100
      9 me < ugiok
     10 me > isready
     11 me < readyok
     12 me > position startpos
     12 me > go p1time 1000 p2time 1000
     15 me < info depth 1 score 0 nodes 7
     40 me < bestmove 4
     41 random > go p1time 972 p2time 1000
     42 random < bestmove 3
     43 me > position startpos moves 4 3
     43 me > go p1time 972 p2time 999
     50 me < bestmove 5
";

    #[test]
    fn the_handshake_and_move_times_are_read_from_a_ugi_transcript() {
        let h = Handshake::read(UGI, "me");
        assert_eq!(h.id_name.as_deref(), Some("My Bot 1.0"));
        assert_eq!(h.options, ["depth", "seed"]);
        assert_eq!(h.ugiok_ms, Some(9));
        let times = |answered, slowest_ms| MoveTimes {
            answered,
            slowest_ms,
            partial: false,
        };
        assert_eq!(move_times(UGI, "me", ProtocolKind::Ugi), times(2, 28));
        assert_eq!(move_times(UGI, "random", ProtocolKind::Ugi), times(1, 1));
        // A bot that never answers `ugi`.
        assert_eq!(Handshake::read("      0 me > ugi\n", "me").ugiok_ms, None);
    }

    #[test]
    fn the_likely_mistake_is_named_from_what_the_bot_printed() {
        let hint = |t: &str| likely_mistake(t, "me", ProtocolKind::Ugi).unwrap_or_default();
        let ugi = "      0 me > ugi\n";
        assert!(hint(&format!(
            "{ugi}      3 me < id name X\n      3 me < uciok\n"
        ))
        .starts_with("it spoke UCI, not UGI"));
        assert!(hint(ugi).starts_with("it printed nothing: does it flush stdout"));
        // The arena's own notes are not the bot's lines.
        assert!(hint(&format!("{ugi}      9 me < [exited with status 1]\n"))
            .starts_with("it printed nothing"));
        assert_eq!(
            hint(&format!("      0 me < move 4\n{ugi}")),
            "it printed `move 4` before being asked: a UGI bot answers only `go`, with `bestmove 4`"
        );
        assert_eq!(
            hint(&format!("{ugi}      1 me < 4\n")),
            "it printed `4` before being asked: a UGI bot answers only `go`, with `bestmove 4`"
        );
        // A word that is no move is not taken for one.
        assert_eq!(
            hint(&format!("{ugi}      1 me < hello\n")),
            "it printed `hello` but never `ugiok`, which ends its answer to `ugi`"
        );
        assert_eq!(
            hint(&format!("{ugi}      1 me < id name X\n")),
            "it printed `id name X` but never `ugiok`, which ends its answer to `ugi`"
        );
        assert_eq!(
            hint(&format!("{ugi}      1 me < ugiok\n      2 me > isready\n")),
            "it never answered `isready` with `readyok`"
        );
        let asked =
            "      1 me < ugiok\n      2 me > isready\n      3 me < readyok\n      4 me > go\n";
        assert_eq!(
            hint(&format!("{ugi}{asked}      9 me < move 4\n")),
            "it printed `move 4`: a UGI bot answers `go` with `bestmove 4`"
        );
        // A bot that answered before and was slow this time: no guess.
        let slow = format!(
            "{ugi}{asked}      9 me < bestmove 4\n     10 me > go\n     11 me < info depth 3\n"
        );
        assert_eq!(likely_mistake(&slow, "me", ProtocolKind::Ugi), None);
        assert_eq!(
            likely_mistake(
                "      0 me > Start\n      1 me < bestmove 4\n",
                "me",
                ProtocolKind::Codecup
            )
            .unwrap(),
            "it printed `bestmove 4`, which is UGI, not CodeCup: leave out protocol = \"codecup\""
        );
    }

    #[test]
    fn codecup_move_times_run_from_the_arena_line_to_the_reply() {
        let t = "      0 me > Start\n     30 me < 4\n     31 me > 3\n     90 me < 5\n     91 me > Quit\n";
        let times = move_times(t, "me", ProtocolKind::Codecup);
        assert_eq!((times.answered, times.slowest_ms), (2, 59));
        // Blank lines are not replies (the referee skips them), nor are the arena's notes.
        let t = "      0 me > Start\n     10 me < \n     20 me <  \n     30 me <  4 \n     31 me > 3\n     \
                 40 me < [exited with status 3]\n";
        let times = move_times(t, "me", ProtocolKind::Codecup);
        assert_eq!((times.answered, times.slowest_ms), (1, 30));
    }

    /// Lines the referee accepts: it splits them on whitespace and the first word decides.
    const LENIENT: &str = "      0 me > ugi
      3 me < id  name   Lenient   Bot
      3 me <  option name my depth  type spin default 4 min 1 max 9
      4 me < option  name seed type spin default 0 min 0 max 100
      7 me < ugiokay
      9 me < ugiok\x20
     10 me > isready
     11 me < readyok
     12 me > position startpos
     12 me > go p1time 1000 p2time 1000
     40 me <  bestmove 4
     43 me > position startpos moves 4 3
     43 me > go p1time 972 p2time 999
     44 me < bestmoves
     50 me < \tbestmove\t5 ponder 6
";

    #[test]
    fn lenient_lines_are_read_as_the_referee_reads_them() {
        let h = Handshake::read(LENIENT, "me");
        assert_eq!(h.id_name.as_deref(), Some("Lenient Bot"));
        assert_eq!(h.options, ["my depth", "seed"]);
        assert_eq!(h.ugiok_ms, Some(9));
        let times = move_times(LENIENT, "me", ProtocolKind::Ugi);
        assert_eq!((times.answered, times.slowest_ms), (2, 28));
        // `id name` without a name names nothing.
        let h = Handshake::read(
            "      0 me > ugi\n      1 me < id name \n      2 me < ugiok\n",
            "me",
        );
        assert_eq!(h.id_name, None);
        assert_eq!(h.ugiok_ms, Some(2));
    }

    #[test]
    fn answers_are_not_timed_across_dropped_lines() {
        // A `go` in the head and a `bestmove` in the tail belong to different moves.
        let t = "      0 me > go
      5 me < bestmove 1
      6 me > go
[4000 lines dropped here: the transcript keeps its first 524288 and last 524288 bytes]
  90000 me < bestmove 7
  90001 me > go
  90021 me < bestmove 8
";
        let times = move_times(t, "me", ProtocolKind::Ugi);
        assert_eq!(
            times,
            MoveTimes {
                answered: 2,
                slowest_ms: 20,
                partial: true
            }
        );
        assert_eq!(
            slowest_move(&times, 100),
            "20 ms (of the 2 moves in the transcript)"
        );
    }

    #[test]
    fn the_slowest_move_says_when_the_transcript_misses_moves() {
        let times = |answered, partial| MoveTimes {
            answered,
            slowest_ms: 35,
            partial,
        };
        assert_eq!(slowest_move(&times(10, false), 10), "35 ms");
        // An illegal last answer is an answer but not a move of the record.
        assert_eq!(slowest_move(&times(11, false), 10), "35 ms");
        assert_eq!(
            slowest_move(&times(1, true), 10),
            "35 ms (of the 1 move in the transcript)"
        );
        assert_eq!(
            slowest_move(&times(7, false), 10),
            "35 ms (of the 7 moves in the transcript)"
        );
        let none = MoveTimes::default();
        assert_eq!(slowest_move(&none, 0), "0 ms");
        assert_eq!(
            slowest_move(&none, 3),
            "unknown (no move in the transcript)"
        );
    }

    #[test]
    fn names_come_from_the_command_file_name() {
        assert_eq!(name_from_command("./target/release/my bot", &[]), "my_bot");
        assert_eq!(name_from_command("python3", &[]), "python3");
        assert_eq!(name_from_command(".hidden", &[]), "hidden");
        assert_eq!(name_from_command("/", &[]), "bot");
        // An interpreter's script names the bot; flags and missing files do not.
        let script = env!("CARGO_MANIFEST_DIR").to_string() + "/Cargo.toml";
        let args = ["-u".to_string(), script, "x".into()];
        assert_eq!(name_from_command("python3", &args), "Cargo.toml");
        assert_eq!(name_from_command("python3", &args[2..]), "python3");
    }

    fn options() -> ProbeOptions {
        ProbeOptions {
            name: "my-bot".into(),
            name_given: false,
            command: "./bots/my \"bot\"".into(),
            args: vec!["--level".into(), "3".into()],
            protocol: ProtocolKind::Ugi,
            options: vec![("depth".into(), "5".into())],
            game: crate::config::GameConfig::from_words("dots 20 20 cross").unwrap(),
            games: 4,
            opponent: "random".into(),
            time_ms: 10_000,
            inc_ms: 100,
            max_move_ms: Some(500),
            startup_ms: 5000,
            seed: 7,
        }
    }

    #[test]
    fn a_name_equal_to_the_opponents_is_replaced_if_derived_and_refused_if_chosen() {
        let mut o = options();
        // Distinct names are kept.
        assert_eq!(distinct_name(&o).unwrap().1, None);
        // `arena probe -- ./bots/random`: the derived name is the opponent's.
        o.command = "./bots/random".into();
        o.args = vec![];
        o.name = name_from_command(&o.command, &o.args);
        o.opponent = "random".into();
        let (renamed, old) = distinct_name(&o).unwrap();
        assert_eq!(renamed.name, "random-probed");
        assert_eq!(old.as_deref(), Some("random"));
        let c = crate::config::Config::parse(&config_text(&renamed), Path::new("p.toml")).unwrap();
        assert_eq!(c.bots[0].name, "random-probed");
        assert_eq!(c.bots[1].name, "random");
        // `--name random`: the user chose it, even when it is also the derived name.
        o.name_given = true;
        let e = distinct_name(&o).unwrap_err().to_string();
        assert!(e.contains("choose another --name"), "{e}");
        assert!(e.contains("\"random\""), "{e}");
    }

    #[test]
    fn the_config_text_is_a_valid_gauntlet_config() {
        let o = options();
        let c = crate::config::Config::parse(&config_text(&o), Path::new("probe.toml")).unwrap();
        assert_eq!(c.name, "probe-my-bot");
        assert_eq!(c.format, crate::config::Format::Gauntlet);
        assert_eq!(c.games_per_pair, Some(4));
        assert_eq!(c.bots[0].command.as_deref(), Some("./bots/my \"bot\""));
        assert_eq!(c.bots[0].args, ["--level", "3"]);
        assert_eq!(
            c.bots[0].options.get("depth"),
            Some(&toml::Value::String("5".into()))
        );
        assert_eq!(c.bots[1].builtin.as_deref(), Some("random"));
        assert_eq!(c.game.keys["width"], toml::Value::Integer(20));
        assert_eq!(c.game.keys["start"], toml::Value::String("cross".into()));
        assert_eq!(c.time_control.max_move_ms, Some(500));
    }
}
