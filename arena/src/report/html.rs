//! `report.html`: one self-contained page of a results folder that a contest organiser can put on a
//! web server (after criterion's HTML report: static, data embedded, no framework, no network).
//!
//! The tables (standings with Elo and 95% intervals, crosstable, LOS, forfeits by kind, the SPRT's
//! state, the config) are written here as HTML from the same [`Report`] as the console text. The games
//! are embedded as JSON (`<script type="application/json" id="data">`), and their moves and board
//! pictures, position by position ([`crate::frames`], drawn by the games crate), as one compressed
//! block (`<script type="application/octet-stream" id="frames">`); the page's script
//! (`assets/report.js`) lists the games and draws an opened game's positions with the one board
//! renderer ([`crate::frames::BOARD_JS`]), which knows no rules. The browser test
//! (`arena/tests/report_browser.rs`) checks the pieces drawn against the `games` crate ply by ply. See
//! `docs/report.md`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use games::{GameSpec, Player, RecordFormat};
use serde::Serialize;

use super::{Report, ReportOptions};
use crate::record::{GameRecord, GameResult, Termination};
use crate::stats::elo::signed;
use crate::stats::sprt::{Sprt, SprtDecision};

const CSS: &str = include_str!("assets/report.css");
const JS: &str = include_str!("assets/report.js");

/// The page's file name in a results folder.
pub const FILE: &str = "report.html";

/// The Content-Security-Policy under which [`public_page_of`]'s page works when a server sends it: its
/// two inline scripts and its style sheet by their SHA-256 (CSP level 2 hash sources), no other
/// script or style, nothing loaded from anywhere, no form, not framed. (An SPRT match's LLR bar is
/// placed by a style attribute, which this policy drops; a contest plays no SPRT.)
pub fn content_security_policy() -> String {
    use base64::Engine;
    use sha2::Digest;
    let hash = |text: &str| {
        format!(
            "'sha256-{}'",
            base64::engine::general_purpose::STANDARD.encode(sha2::Sha256::digest(text))
        )
    };
    format!(
        "default-src 'none'; script-src {} {}; style-src {}; img-src data:; base-uri 'none'; \
         form-action 'none'; frame-ancestors 'none'",
        hash(crate::frames::BOARD_JS),
        hash(JS),
        hash(CSS)
    )
}

/// The alphabet of [`compact_ms`]: 64 characters, safe in JSON and HTML.
pub const ALPHABET: &[u8; 64] = b"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_";

/// Which record files of `arena export` are in `<dir>/export/` (the paths of
/// `arena export`), so the page links only to files that exist.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Exports {
    /// `export/<id>.sgf` for every game whose records have SGF (Dots).
    pub sgf: bool,
    /// `export/games.pgn`.
    pub pgn: bool,
    /// `export/games.pons`.
    pub pons: bool,
}

impl Exports {
    /// Looks in `<dir>/export/` for the files of `records`.
    pub fn find(dir: &Path, records: &[GameRecord]) -> Exports {
        let export = dir.join("export");
        let mut sgf = records
            .iter()
            .filter(|r| has(r, RecordFormat::Sgf))
            .peekable();
        Exports {
            sgf: sgf.peek().is_some()
                && sgf.all(|r| export.join(format!("{}.sgf", r.id)).is_file()),
            pgn: export.join("games.pgn").is_file(),
            pons: export.join("games.pons").is_file(),
        }
    }
}

/// Whether `format` applies to the records of `r`'s game ([`games::Game::RECORD_FORMATS`]).
/// Whether `r`'s game has its records in `format` (SGF for Dots, Pons's digits for Connect Four).
pub fn has(r: &GameRecord, format: RecordFormat) -> bool {
    format!("{} {}", r.game, r.variant)
        .parse::<GameSpec>()
        .is_ok_and(|s| s.record_formats().contains(&format))
}

/// What the page shows.
#[derive(Clone, Debug)]
pub struct Page<'a> {
    /// The tournament's name (the title).
    pub name: &'a str,
    /// Every recorded game, in `games.csv` order.
    pub records: &'a [GameRecord],
    /// The standings, ratings, crosstable and head-to-head over `records`.
    pub report: &'a Report,
    /// The text of the run's config (`<dir>/config.toml`), if the folder has it.
    pub config: Option<&'a str>,
    /// The export files there are, for the links.
    pub exports: Exports,
    /// Sections from other commands' files in the folder (bracket, Swiss rounds, accuracy analysis) and
    /// their navigation links ([`super::extras::sections`]).
    pub extras: (String, Vec<(&'static str, &'static str)>),
    /// The contest server's public page ([`public_page_of`]): no export links, and no advice to run
    /// commands on the server's machine.
    pub public: bool,
}

/// One game in the page's JSON (short keys: a contest has thousands); its moves and pictures are in the
/// compressed block, at the same index.
#[derive(Serialize)]
struct GameJson<'a> {
    /// Id.
    i: &'a str,
    /// Round, game pair.
    r: u32,
    p: u32,
    /// Index into `variants`.
    v: usize,
    /// Indices into `bots` of the first and second player.
    a: usize,
    b: usize,
    /// Result (`1-0`), termination word, detail.
    res: String,
    t: &'a str,
    d: &'a str,
    /// Plies.
    n: u32,
    /// The score of [first, second] where the game keeps one (Dots' captures, Kalah's stores).
    s: Option<[u32; 2]>,
    /// ms per ply after the opening, as [`compact_ms`] writes them.
    ms: String,
    /// Opening plies.
    o: usize,
    /// Setup dots ([`games::Setup`]'s text), empty for none.
    su: String,
    /// Time controls of [first, second].
    tc: [&'a str; 2],
    /// When it ended (RFC 3339).
    dt: &'a str,
    /// Record formats beyond PGN whose files the viewer links (`sgf`, `pons`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    x: Vec<&'static str>,
}

/// One game in the compressed block: its moves (`m`, in the game's notation) and its pictures (`f`,
/// [`crate::frames::compact`]), as JSON text.
fn view_json(r: &GameRecord, out: &mut String) {
    out.push_str("{\"m\":");
    out.push_str(&serde_json::to_string(&r.moves).unwrap_or_else(|_| "[]".into()));
    out.push_str(",\"f\":");
    crate::frames::compact::write(&crate::frames::replay(r), out);
    out.push('}');
}

#[derive(Serialize)]
struct DataJson<'a> {
    name: &'a str,
    bots: Vec<&'a str>,
    /// `dots 39 32 cross`: the game and variant of each `v`.
    variants: Vec<String>,
    exports: Exports,
    games: Vec<GameJson<'a>>,
}

/// Move times (ms) as one string the page decodes: each number in base 32, most significant digit first,
/// every digit but the last from the upper half of [`ALPHABET`] and the last from the lower half, so the
/// numbers need no separator (`5` → `5`, `1000` → `_8`): one character up to 31 ms, two up to 1,023 ms,
/// three up to 32,767 ms.
pub fn compact_ms(ms: &[u64]) -> String {
    let mut out = String::with_capacity(ms.len() * 2);
    let mut digits = Vec::new();
    for &v in ms {
        digits.clear();
        let mut v = v;
        loop {
            digits.push((v % 32) as usize);
            v /= 32;
            if v == 0 {
                break;
            }
        }
        for (k, &d) in digits.iter().enumerate().rev() {
            let half = if k == 0 { 0 } else { 32 };
            out.push(ALPHABET[half + d] as char);
        }
    }
    out
}

/// HTML-escapes text for element content and attribute values.
pub(crate) fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// A signed Elo figure as the console writes it ([`signed`]): `+12.3`, `-4.0`, `0.0` (never `-0.0`),
/// `+∞` and `-∞` for the open end of an interval.
fn elo(x: f64) -> String {
    signed(x, 1)
}

/// The whole page.
pub fn render(page: &Page) -> String {
    let mut body = String::new();
    let records = page.records;
    let spec = records
        .first()
        .map(|r| {
            let text = format!("{} {}", r.game, r.variant);
            text.parse::<games::GameSpec>()
                .map_or(text, |s| crate::modules::title(&s))
        })
        .unwrap_or_default();
    let _ = write!(
        body,
        "<header><h1>{}</h1><p class=\"sub\">{} — {} games</p></header>",
        esc(page.name),
        esc(&spec),
        records.len()
    );
    body.push_str("<nav><a href=\"#standings\">Standings</a> <a href=\"#crosstable\">Crosstable</a> \
                   <a href=\"#forfeits\">Forfeits</a> <a href=\"#config\">Config</a> <a href=\"#games\">Games</a>");
    for (anchor, title) in &page.extras.1 {
        let _ = write!(body, " <a href=\"#{anchor}\">{title}</a>");
    }
    body.push_str("</nav>");
    standings_html(&mut body, page);
    crosstable_html(&mut body, page.report);
    head_to_head_html(&mut body, page.report);
    body.push_str(&page.extras.0);
    forfeits_html(&mut body, records);
    config_html(&mut body, page);
    exports_html(&mut body, page);
    body.push_str(
        "<section id=\"games\"><h2>Games</h2>\
         <div class=\"filter\"><input id=\"filter\" type=\"search\" placeholder=\"filter: id, bot, result, termination\"> \
         <span id=\"count\"></span> <button id=\"prev-page\">‹</button> <span id=\"page\"></span> \
         <button id=\"next-page\">›</button></div>\
         <table id=\"game-list\" class=\"list\"><thead><tr><th>id</th><th>round</th><th>first</th><th>second</th>\
         <th>result</th><th>ending</th><th>plies</th><th>score</th><th>date</th></tr></thead><tbody></tbody></table>\
         </section>\
         <section id=\"viewer\" hidden><h2 id=\"viewer-title\"></h2><p id=\"viewer-info\"></p>\
         <div class=\"viewer\"><div id=\"board\"></div><div class=\"side\">\
         <div class=\"controls\"><button id=\"first\" title=\"first (Home)\">|◀</button>\
         <button id=\"prev\" title=\"previous (←)\">◀</button><button id=\"next\" title=\"next (→)\">▶</button>\
         <button id=\"last\" title=\"last (End)\">▶|</button> <span id=\"ply-label\"></span></div>\
         <input id=\"ply\" type=\"range\" min=\"0\" max=\"0\" value=\"0\">\
         <p id=\"move-info\"></p><p id=\"score\"></p><div id=\"moves\"></div><p id=\"links\"></p></div></div></section>",
    );

    let (data, views) = data_json(page);
    // JSON inside <script>: no `<` at all, so no `</script>` or `<!--` can end or confuse the element.
    let data = serde_json::to_string(&data)
        .unwrap_or_else(|_| "{}".into())
        .replace('<', "\\u003c");
    // Base64 has no `<` either.
    let frames = views;
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{title} — arena report</title><style>{CSS}</style></head>\n<body>{body}\n\
         <script type=\"application/json\" id=\"data\">{data}</script>\n\
         <script type=\"application/octet-stream\" id=\"frames\">{frames}</script>\n\
         <script>{BOARD}</script>\n<script>{JS}</script>\n</body></html>\n",
        title = esc(page.name),
        BOARD = crate::frames::BOARD_JS,
    )
}

/// The page's game data, and the compressed block: one line a game in the same order, its JSON
/// ([`view_json`]) gzip'd and base64'd, so that the page decodes only the games opened.
fn data_json<'a>(page: &Page<'a>) -> (DataJson<'a>, String) {
    let mut bots: Vec<&str> = page
        .report
        .standings
        .iter()
        .map(|s| s.bot.as_str())
        .collect();
    let mut variants: Vec<String> = Vec::new();
    let mut games = Vec::with_capacity(page.records.len());
    // The list in id order (the schedule's), not in the order the games ended (games.csv's).
    let mut records: Vec<&'a GameRecord> = page.records.iter().collect();
    records.sort_by(|a, b| (a.id.len(), &a.id).cmp(&(b.id.len(), &b.id)));
    let views = pictures(&records);
    for r in records {
        let mut bot = |name: &'a str| match bots.iter().position(|b| *b == name) {
            Some(k) => k,
            None => {
                bots.push(name);
                bots.len() - 1
            }
        };
        let (a, b) = (bot(&r.first), bot(&r.second));
        let spec = format!("{} {}", r.game, r.variant);
        let v = match variants.iter().position(|s| *s == spec) {
            Some(k) => k,
            None => {
                variants.push(spec);
                variants.len() - 1
            }
        };
        let x = [(RecordFormat::Sgf, "sgf"), (RecordFormat::Pons, "pons")]
            .into_iter()
            .filter(|&(f, _)| has(r, f))
            .map(|(_, name)| name)
            .collect();
        games.push(GameJson {
            i: &r.id,
            r: r.round,
            p: r.pair,
            v,
            a,
            b,
            res: r.result.to_string(),
            t: r.termination.as_str(),
            d: &r.detail,
            n: r.plies,
            s: r.score,
            ms: compact_ms(&r.move_ms),
            o: r.opening.len(),
            su: r.setup.to_string(),
            tc: [&r.time_control[0], &r.time_control[1]],
            dt: &r.date,
            x,
        });
    }
    (
        DataJson {
            name: page.name,
            bots,
            variants,
            exports: page.exports,
            games,
        },
        views,
    )
}

/// The compressed block of `records`: one line a game, in their order, each its [`view_json`]
/// gzip'd and base64'd. The games are independent, so the block is built on every core
/// (`std::thread::available_parallelism`), each thread a contiguous share: at contest size (10,000
/// full 39×32 Dots games) the pictures are most of the report's time (docs/benchmarks.md).
fn pictures(records: &[&GameRecord]) -> String {
    let line = |r: &GameRecord, out: &mut String| {
        let mut json = String::new();
        view_json(r, &mut json);
        out.push_str(&crate::frames::embed(&json));
        out.push('\n');
    };
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let share = records.len().div_ceil(threads.max(1)).max(64);
    if records.len() <= share {
        let mut out = String::new();
        records.iter().for_each(|r| line(r, &mut out));
        return out;
    }
    std::thread::scope(|scope| {
        let parts: Vec<_> = records
            .chunks(share)
            .map(|part| {
                scope.spawn(move || {
                    let mut out = String::new();
                    part.iter().for_each(|r| line(r, &mut out));
                    out
                })
            })
            .collect();
        parts
            .into_iter()
            .map(|p| p.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    })
}

fn standings_html(out: &mut String, page: &Page) {
    let rows = &page.report.standings;
    let dots = rows.iter().any(|s| s.capture_diff.is_some());
    out.push_str(
        "<section id=\"standings\"><h2>Standings</h2><table class=\"num\"><thead><tr><th>#</th><th>bot</th>\
         <th>games</th><th>points</th><th>score</th><th>+</th><th>=</th><th>−</th><th>Elo</th><th>95% interval</th>",
    );
    for kind in Termination::FORFEITS {
        let _ = write!(out, "<th title=\"forfeits: {kind}\">{kind}</th>");
    }
    if dots {
        out.push_str("<th title=\"own score minus the opponents' (Dots: captured dots; Kalah: seeds in the stores)\">score ±</th>");
    }
    out.push_str("<th>ms/move</th></tr></thead><tbody>");
    for s in rows {
        // `*`: a bound, not a rating (the bot won or lost every point), as the console marks it.
        let (e, interval) = match s.rating {
            Some(r) => (
                format!("{}{}", elo(r.elo), if r.bound.is_some() { "*" } else { "" }),
                format!("{} to {}", elo(r.low), elo(r.high)),
            ),
            None => ("".into(), "".into()),
        };
        let _ = write!(
            out,
            "<tr><td>{}</td><td class=\"bot\">{}</td><td>{}</td><td>{}</td><td>{:.1}%</td><td>{}</td><td>{}</td>\
             <td>{}</td><td>{e}</td><td>{interval}</td>",
            s.rank,
            esc(&s.bot),
            s.games,
            s.points,
            s.score_pct(),
            s.wins,
            s.draws,
            s.losses
        );
        for f in s.forfeits {
            let _ = write!(
                out,
                "<td>{}</td>",
                if f == 0 { String::new() } else { f.to_string() }
            );
        }
        if dots {
            let _ = write!(
                out,
                "<td>{}</td>",
                s.capture_diff.map(|d| format!("{d:+}")).unwrap_or_default()
            );
        }
        let _ = write!(
            out,
            "<td>{}</td></tr>",
            s.ms_per_move()
                .map(|m| format!("{m:.1}"))
                .unwrap_or_default()
        );
    }
    out.push_str("</tbody></table>");
    for note in rows.iter().filter_map(crate::standings::bound_note) {
        let _ = write!(out, "<p class=\"note\">* {}</p>", esc(&note));
    }
    if let Some(note) = &page.report.anchor_note {
        let _ = write!(out, "<p class=\"note\">{}</p>", esc(note));
    }
    if let Some((_, r)) = &page.report.ratings {
        let _ = write!(
            out,
            "<p>Elo by maximum likelihood over all games, 95% intervals by parametric bootstrap (see \
             docs/statistics.md). First-move advantage {} Elo (95%: {} to {}).</p>",
            elo(r.first_move_elo),
            elo(r.first_move_interval95.0),
            elo(r.first_move_interval95.1)
        );
    }
    out.push_str("</section>");
}

fn crosstable_html(out: &mut String, report: &Report) {
    let t = &report.crosstable;
    out.push_str("<section id=\"crosstable\"><h2>Crosstable</h2><p>Points/games of the row's bot against the column's.</p>\
                  <table class=\"num cross\"><thead><tr><th>bot</th>");
    for k in 1..=t.bots.len() {
        let _ = write!(out, "<th>{k}</th>");
    }
    out.push_str("</tr></thead><tbody>");
    for (i, bot) in t.bots.iter().enumerate() {
        let _ = write!(out, "<tr><td class=\"bot\">{} {}</td>", i + 1, esc(bot));
        for j in 0..t.bots.len() {
            if i == j {
                out.push_str("<td class=\"diag\"></td>");
            } else if t.games[i][j] == 0 {
                out.push_str("<td></td>");
            } else {
                let _ = write!(out, "<td>{}/{}</td>", t.points[i][j], t.games[i][j]);
            }
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table>");
    if let Some((rated, r)) = &report.ratings {
        if rated.len() > 2 {
            let order: Vec<usize> = report
                .standings
                .iter()
                .filter_map(|s| rated.iter().position(|n| *n == s.bot))
                .collect();
            out.push_str("<h3>Likelihood of superiority</h3><p>LOS, %: how likely the row's bot is stronger than the column's.</p>\
                          <table class=\"num cross\"><thead><tr><th>bot</th>");
            for k in 1..=order.len() {
                let _ = write!(out, "<th>{k}</th>");
            }
            out.push_str("</tr></thead><tbody>");
            for (k, &i) in order.iter().enumerate() {
                let _ = write!(
                    out,
                    "<tr><td class=\"bot\">{} {}</td>",
                    k + 1,
                    esc(&rated[i])
                );
                for &j in &order {
                    if i == j {
                        out.push_str("<td class=\"diag\"></td>");
                    } else {
                        let _ = write!(out, "<td>{:.0}</td>", 100.0 * r.los[i][j]);
                    }
                }
                out.push_str("</tr>");
            }
            out.push_str("</tbody></table>");
        }
    }
    out.push_str("</section>");
}

fn head_to_head_html(out: &mut String, report: &Report) {
    let Some(h) = &report.head_to_head else {
        return;
    };
    out.push_str("<section id=\"head-to-head\"><h2>Head to head</h2>");
    if let Some(s) = &report.sprt {
        sprt_html(out, s, h);
    }
    let _ = write!(
        out,
        "<pre>{}</pre></section>",
        esc(&h.report(report.sprt.as_ref()).to_string())
    );
}

/// The SPRT's state: its hypotheses, the LLR against its bounds and the decision so far.
fn sprt_html(out: &mut String, s: &Sprt, h: &crate::standings::head_to_head::HeadToHead) {
    let (lower, upper) = s.bounds();
    let detail = s.llr_detail(&h.pentanomial);
    let llr = detail.value;
    let decision = match s.decide_llr(llr) {
        SprtDecision::AcceptH1 => format!(
            "H1 accepted: {} is stronger than {} (elo = elo1)",
            h.bot, h.opponent
        ),
        SprtDecision::AcceptH0 => format!(
            "H0 accepted: {} is not stronger than {} by elo1 (elo = elo0)",
            h.bot, h.opponent
        ),
        SprtDecision::Continue => "no decision yet".to_string(),
    };
    // Where the LLR stands between the bounds, 0–100 %, for the bar.
    let at = if upper > lower {
        (100.0 * (llr - lower) / (upper - lower)).clamp(0.0, 100.0)
    } else {
        50.0
    };
    let _ = write!(
        out,
        "<div id=\"sprt\"><h3>SPRT</h3><p>H0: elo = {} against H1: elo = {} ({:?} Elo), α = {}, β = {}; \
         {} complete game pairs.</p><p class=\"llr\">LLR <b>{llr:.2}</b> (bounds {lower:.2}, {upper:.2}): \
         <b>{}</b></p>{}<div class=\"llrbar\"><span style=\"left:{at:.1}%\"></span></div></div>",
        s.elo0,
        s.elo1,
        s.model,
        s.alpha,
        s.beta,
        h.pentanomial.pairs(),
        esc(&decision),
        detail
            .note()
            .map_or(String::new(), |n| format!("<p class=\"note\">{}</p>", esc(&n)))
    );
}

/// The most games listed per forfeit kind (the game list's filter finds the rest).
const FORFEITS_LISTED: usize = 200;

fn forfeits_html(out: &mut String, records: &[GameRecord]) {
    out.push_str("<section id=\"forfeits\"><h2>Forfeits</h2>");
    let total = records
        .iter()
        .filter(|r| r.termination.is_forfeit())
        .count();
    if total == 0 {
        out.push_str("<p>No game was lost by forfeit.</p></section>");
        return;
    }
    out.push_str("<table class=\"num\"><thead><tr><th>kind</th><th>games</th></tr></thead><tbody>");
    for kind in Termination::FORFEITS {
        let n = records.iter().filter(|r| r.termination == kind).count();
        let _ = write!(out, "<tr><td>{kind}</td><td>{n}</td></tr>");
    }
    out.push_str("</tbody></table>");
    for kind in Termination::FORFEITS {
        let games: Vec<&GameRecord> = records.iter().filter(|r| r.termination == kind).collect();
        if games.is_empty() {
            continue;
        }
        let _ = write!(
            out,
            "<h3>{kind} ({})</h3><table class=\"list\"><thead><tr><th>game</th><th>forfeited by</th>\
             <th>against</th><th>detail</th></tr></thead><tbody>",
            games.len()
        );
        for r in games.iter().take(FORFEITS_LISTED) {
            let (loser, winner) = match forfeited_by(r) {
                Some(Player::Second) => (&r.second, &r.first),
                _ => (&r.first, &r.second),
            };
            let _ = write!(
                out,
                "<tr><td><a href=\"#{id}\">{id}</a></td><td class=\"bot\">{}</td><td class=\"bot\">{}</td><td>{}</td></tr>",
                esc(loser),
                esc(winner),
                esc(&r.detail),
                id = esc(&r.id)
            );
        }
        out.push_str("</tbody></table>");
        if games.len() > FORFEITS_LISTED {
            let _ = write!(
                out,
                "<p>… and {} more: filter the games by “{kind}”.</p>",
                games.len() - FORFEITS_LISTED
            );
        }
    }
    out.push_str("</section>");
}

fn config_html(out: &mut String, page: &Page) {
    out.push_str("<section id=\"config\"><h2>Config</h2>");
    // The time controls played, from the games themselves.
    let mut tcs: Vec<String> = Vec::new();
    for r in page.records {
        for (k, tc) in r.time_control.iter().enumerate() {
            if tc.is_empty() {
                continue;
            }
            let bot = if k == 0 { &r.first } else { &r.second };
            let line = format!("{bot}: {tc}");
            if !tcs.contains(&line) {
                tcs.push(line);
            }
        }
    }
    let Some(text) = page.config else {
        out.push_str("<p>The folder has no config.toml.</p>");
        if !tcs.is_empty() {
            let _ = write!(
                out,
                "<p>Time controls (ms, budget+increment): {}</p>",
                esc(&tcs.join("; "))
            );
        }
        out.push_str("</section>");
        return;
    };
    out.push_str("<table class=\"kv\"><tbody>");
    match text.parse::<toml::Table>() {
        Ok(table) => {
            for (key, value) in &table {
                if key == "bots" {
                    continue;
                }
                config_rows(out, key, value);
            }
            if let Some(bots) = table.get("bots").and_then(|b| b.as_array()) {
                for bot in bots.iter().filter_map(|b| b.as_table()) {
                    let name = bot.get("name").and_then(|n| n.as_str()).unwrap_or("?");
                    let rest: Vec<String> = bot
                        .iter()
                        .filter(|(k, _)| *k != "name")
                        .map(|(k, v)| format!("{k} = {v}"))
                        .collect();
                    let _ = write!(
                        out,
                        "<tr><th>bot {}</th><td>{}</td></tr>",
                        esc(name),
                        esc(&rest.join(", "))
                    );
                }
            }
        }
        Err(e) => {
            let _ = write!(
                out,
                "<tr><td>config.toml does not parse: {}</td></tr>",
                esc(&e.to_string())
            );
        }
    }
    if !tcs.is_empty() {
        let _ = write!(
            out,
            "<tr><th>time controls played</th><td>{} (ms: budget+increment)</td></tr>",
            esc(&tcs.join("; "))
        );
    }
    let _ = write!(
        out,
        "</tbody></table><details><summary>config.toml</summary><pre>{}</pre></details></section>",
        esc(text)
    );
}

/// One row per key of a top-level table (`time_control.inc_ms`), one for a plain value.
fn config_rows(out: &mut String, key: &str, value: &toml::Value) {
    match value {
        toml::Value::Table(t) => {
            for (k, v) in t {
                config_rows(out, &format!("{key}.{k}"), v);
            }
        }
        v => {
            let _ = write!(
                out,
                "<tr><th>{}</th><td>{}</td></tr>",
                esc(key),
                esc(&v.to_string())
            );
        }
    }
}

fn exports_html(out: &mut String, page: &Page) {
    if page.public {
        return;
    }
    let e = page.exports;
    let dots = page.records.iter().any(|r| has(r, RecordFormat::Sgf));
    let c4 = page.records.iter().any(|r| has(r, RecordFormat::Pons));
    out.push_str("<section id=\"records\"><h2>Game records</h2><p>");
    if e.pgn {
        out.push_str(
            "<a href=\"export/games.pgn\">games.pgn</a> (every game, for Ordo and BayesElo) ",
        );
    }
    if e.pons {
        out.push_str(
            "<a href=\"export/games.pons\">games.pons</a> (Connect Four, Pons's digit strings) ",
        );
    }
    if e.sgf {
        out.push_str("SGF of each game: the link under its board. ");
    }
    let mut missing = Vec::new();
    if !e.pgn {
        missing.push("pgn");
    }
    if dots && !e.sgf {
        missing.push("sgf");
    }
    if c4 && !e.pons {
        missing.push("pons");
    }
    if !missing.is_empty() {
        let _ = write!(
            out,
            "Not exported yet: {} (<code>arena export &lt;this folder&gt; --format {}</code> writes them into export/, \
             then <code>arena report</code> links them).",
            missing.join(", "),
            missing.join("|")
        );
    }
    out.push_str("</p></section>");
}

/// Writes `<dir>/report.html` for the tournament `name` from its `records` and their `report`,
/// reading the config copy `<dir>/config.toml` (when there is one) and looking for the files of
/// `arena export` in `<dir>/export/`. Returns the page's path.
///
/// # Errors
/// The page cannot be written (with its path).
pub fn write(dir: &Path, name: &str, records: &[GameRecord], report: &Report) -> Result<PathBuf> {
    let path = dir.join(FILE);
    // Through a temporary file and a rename: a web server never serves half a page.
    let tmp = dir.join(format!(".{FILE}.tmp"));
    std::fs::write(&tmp, page_of(dir, name, records, report))
        .with_context(|| format!("writing {}", tmp.display()))?;
    std::fs::rename(&tmp, &path).with_context(|| format!("writing {}", path.display()))?;
    Ok(path)
}

/// The text of the page [`write()`] writes (the contest server serves it without writing it).
pub fn page_of(dir: &Path, name: &str, records: &[GameRecord], report: &Report) -> String {
    let config = std::fs::read_to_string(dir.join(crate::results::recorded::CONFIG)).ok();
    render(&Page {
        name,
        records,
        report,
        config: config.as_deref(),
        exports: Exports::find(dir, records),
        extras: super::extras::sections(dir, records.len()),
        public: false,
    })
}

/// The page of a contest server's competition in `dir`, for the public: as [`page_of`] but without
/// the config copy (its paths are the server's), the export links and the advice to run `arena
/// export`. The caller strips what only a bot's author may read from `records`' details.
pub fn public_page_of(dir: &Path, name: &str, records: &[GameRecord], report: &Report) -> String {
    render(&Page {
        name,
        records,
        report,
        config: None,
        exports: Exports::default(),
        extras: super::extras::sections(dir, records.len()),
        public: true,
    })
}

/// `arena report <dir>`: the page of a results folder from its `games.csv` and its config copy, rated as
/// `arena run` rated it (the config's `anchor`; the SPRT of a `format = "sprt"` match). Returns the
/// page's path and the number of games.
///
/// # Errors
/// A folder without `games.csv`, an unreadable one, or a page that cannot be written.
pub fn report_results(dir: &Path) -> Result<(PathBuf, usize)> {
    let records = crate::results::ResultsDir {
        path: dir.to_path_buf(),
    }
    .read_existing_games()?;
    let config = crate::results::recorded::config(dir);
    // As the run reported: its bots, anchor, SPRT and tie-breaks; the tables too (standings.csv,
    // crosstable.csv, los.csv), as the run wrote them.
    let names = ReportOptions::recorded_names(dir, &records);
    let opts = ReportOptions::recorded(dir, &names);
    let report = Report::new(&names, &records, &opts)?;
    report.write(dir)?;
    let name = config.as_ref().map_or_else(
        || {
            dir.file_name().map_or_else(
                || dir.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            )
        },
        |c| c.name.clone(),
    );
    let path = write(dir, &name, &records, &report)?;
    Ok((path, records.len()))
}

/// The side that forfeited a game lost by forfeit (a forfeit is a loss: the loser); `None` for a game
/// that did not end by forfeit.
pub fn forfeited_by(r: &GameRecord) -> Option<Player> {
    r.termination.is_forfeit().then_some(match r.result {
        GameResult::FirstWins => Player::Second,
        _ => Player::First,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compact_ms_needs_no_separator() {
        assert_eq!(compact_ms(&[5, 1000, 0, 31, 32, 40_000]), "5_80vx0xDy0");
    }

    /// The data of `html`'s `<script id="data">`.
    fn data_of(html: &str) -> serde_json::Value {
        let start = html.find("id=\"data\">").unwrap() + "id=\"data\">".len();
        let end = start + html[start..].find("</script>").unwrap();
        serde_json::from_str(&html[start..end]).unwrap()
    }

    fn page_html(records: &[GameRecord]) -> String {
        let report = Report::new(&[], records, &ReportOptions::default()).unwrap();
        render(&Page {
            name: "t",
            records,
            report: &report,
            config: None,
            exports: Exports::default(),
            extras: Default::default(),
            public: false,
        })
    }

    /// The standings as the console shows them: a bot that won or lost every point has its rating
    /// marked `*` and explained, the open end of its interval is `+∞` or `-∞` (not `n/a`), and a rating
    /// that rounds to zero has no sign.
    #[test]
    fn the_standings_mark_unbounded_ratings_and_print_no_negative_zero() {
        let mut records = Vec::new();
        for k in 0..4 {
            let mut g = GameRecord::example("top", "mid", GameResult::FirstWins);
            g.id = format!("g{:04}", k + 1);
            records.push(g);
        }
        // mid beats low with either colour.
        for (k, (first, second, result)) in [
            ("mid", "low", GameResult::FirstWins),
            ("low", "mid", GameResult::SecondWins),
        ]
        .into_iter()
        .enumerate()
        {
            let mut g = GameRecord::example(first, second, result);
            g.id = format!("g{:04}", k + 5);
            records.push(g);
        }
        let html = page_html(&records);
        let standings =
            &html[html.find("id=\"standings\"").unwrap()..html.find("id=\"crosstable\"").unwrap()];
        assert!(!standings.contains("n/a"), "{standings}");
        assert!(standings.contains("+∞"), "{standings}");
        assert!(standings.contains("-∞"), "{standings}");
        assert!(!standings.contains("-0.0<"), "{standings}");
        let top = &standings[standings.find("<td class=\"bot\">top</td>").unwrap()..];
        let top = &top[..top.find("</tr>").unwrap()];
        assert!(top.contains("*</td>"), "{top}");
        assert!(standings.contains("top won every point"), "{standings}");
        assert!(standings.contains("low lost every point"), "{standings}");
        // Equal bots: both at 0, unsigned.
        let even = [
            GameRecord::example("a", "b", GameResult::FirstWins),
            GameRecord {
                id: "g2".into(),
                ..GameRecord::example("b", "a", GameResult::FirstWins)
            },
        ];
        let html = page_html(&even);
        let standings =
            &html[html.find("id=\"standings\"").unwrap()..html.find("id=\"crosstable\"").unwrap()];
        assert!(!standings.contains("-0.0"), "{standings}");
        assert!(!standings.contains("+0.0"), "{standings}");
    }

    /// The game list is in id order, whatever order the games ended in.
    #[test]
    fn the_games_are_listed_by_id() {
        let ids = ["g0003", "g0001", "g0010", "g0002"];
        let records: Vec<GameRecord> = ids
            .iter()
            .map(|id| GameRecord {
                id: (*id).into(),
                ..GameRecord::example("a", "b", GameResult::FirstWins)
            })
            .collect();
        let data = data_of(&page_html(&records));
        let listed: Vec<&str> = data["games"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["i"].as_str().unwrap())
            .collect();
        assert_eq!(listed, ["g0001", "g0002", "g0003", "g0010"]);
    }

    #[test]
    fn the_page_embeds_its_data_without_a_closing_tag_and_escapes_names() {
        let mut g = GameRecord::example("<b>", "x</script>", GameResult::FirstWins);
        g.moves = words("4 4 4");
        g.plies = 3;
        g.termination = Termination::Timeout;
        g.detail = "x</script><script>alert(1)</script>".into();
        let records = vec![g];
        let report = Report::new(&[], &records, &ReportOptions::default()).unwrap();
        let html = render(&Page {
            name: "t<1>",
            records: &records,
            report: &report,
            config: Some("name = \"t\"\n[time_control]\ntime_ms = 1000\n"),
            exports: Exports::default(),
            extras: Default::default(),
            public: false,
        });
        assert_eq!(
            html.matches("</script>").count(),
            4,
            "only the four script elements close"
        );
        assert!(html.contains("<h1>t&lt;1&gt;</h1>"));
        assert!(html.contains("time_control.time_ms"));
        assert!(html.contains("<h3>timeout (1)</h3>"));
        // The data parses back to the game.
        let start = html.find("id=\"data\">").unwrap() + "id=\"data\">".len();
        let end = start + html[start..].find("</script>").unwrap();
        let data: serde_json::Value = serde_json::from_str(&html[start..end]).unwrap();
        assert_eq!(data["games"][0]["n"], 3);
        assert_eq!(data["games"][0]["d"], "x</script><script>alert(1)</script>");
        fn words(s: &str) -> Vec<String> {
            s.split_whitespace().map(String::from).collect()
        }
    }
}
