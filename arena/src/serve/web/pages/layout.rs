//! The frame of every page: the contest's navigation, the account's links, and the style sheet
//! (inline: the pages load nothing from elsewhere).

use axum::response::Html;
use maud::{html, Markup, DOCTYPE};

use crate::serve::web::Viewer;

const STYLE: &str = "body{font:15px/1.45 system-ui,sans-serif;margin:0;color:#222;background:#fafafa}\
header{background:#234;color:#fff;padding:.6em 1.2em;display:flex;gap:1.2em;align-items:center;flex-wrap:wrap}\
header a{color:#fff;text-decoration:none}header .me{margin-left:auto}\
header form{display:inline}header button{background:none;border:1px solid #fff;color:#fff;cursor:pointer}\
main{padding:1em 1.2em;max-width:72em}table{border-collapse:collapse;margin:.6em 0}\
td,th{border:1px solid #ccc;padding:.2em .6em;text-align:left}th{background:#eee}\
td.n{text-align:right}.error{color:#a00;font-weight:bold}.passed{color:#070}.failed{color:#a00}\
.pending{color:#777}form.inline{display:inline}pre{background:#fff;border:1px solid #ccc;padding:.6em;overflow:auto}\
label{display:block;margin:.4em 0}input[type=text],input[type=password]{width:18em}\
.first{color:#1f5fbf}.second{color:#c8322b}\
.viewer{display:flex;gap:20px;align-items:flex-start;flex-wrap:wrap}#board{flex:1 1 520px;max-width:760px}\
#board svg,.live-game .board svg{width:100%;height:auto;display:block}.viewer .side{flex:0 1 340px;min-width:240px}\
.controls button{font-size:16px;min-width:40px}#ply{width:100%;margin:8px 0}\
#moves{max-height:420px;overflow-y:auto;font:12px/1.6 ui-monospace,monospace;border:1px solid #ddd;background:#fff;padding:4px}\
#moves span{display:inline-block;min-width:80px;padding:0 4px;cursor:pointer;border-radius:3px}#moves span.op{opacity:.6}\
#moves span.cur{background:#ffe58a}\
#live{display:flex;flex-wrap:wrap;gap:16px}.live-game{flex:1 1 340px;max-width:520px;background:#fff;border:1px solid #ccc;padding:.6em}\
.live-game h2{margin:0 0 .3em;font-size:1.1em}.live-game .side{margin:.1em 0}.live-game .to-move{font-weight:bold}\
.live-game .clock{font-family:ui-monospace,monospace;background:#eee;padding:0 .3em;border-radius:3px}\
.live-game .turn{color:#070}.swatch{display:inline-block;width:.8em;height:.8em;border-radius:50%}";

/// The page `title` with `body`, as `viewer` sees it; `refresh_s`: reload every so many seconds
/// (a competition or a check in progress).
pub fn page_refreshing(
    title: &str,
    viewer: &Viewer,
    body: Markup,
    refresh_s: Option<u32>,
) -> Html<String> {
    let markup = html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                @if let Some(s) = refresh_s { meta http-equiv="refresh" content=(s); }
                title { (title) " — arena" }
                style { (maud::PreEscaped(STYLE)) }
            }
            body {
                header {
                    a href="/" { strong { "arena" } }
                    a href="/" { "Competitions" }
                    a href="/bots" { "Bots" }
                    @if viewer.user.is_some() { a href="/bots/new" { "Upload" } }
                    span.me {
                        @if let Some(u) = &viewer.user {
                            (u.name) @if u.admin { " (organiser)" } " "
                            form method="post" action="/logout" {
                                input type="hidden" name="csrf" value=(viewer.csrf.clone().unwrap_or_default());
                                button type="submit" { "Log out" }
                            }
                        } @else {
                            a href="/login" { "Log in" }
                        }
                    }
                }
                main {
                    h1 { (title) }
                    (body)
                }
            }
        }
    };
    Html(markup.into_string())
}

/// [`page_refreshing`] without the reload.
pub fn page(title: &str, viewer: &Viewer, body: Markup) -> Html<String> {
    page_refreshing(title, viewer, body, None)
}

/// A time in ms since the epoch as `YYYY-MM-DD HH:MM:SS` UTC.
pub fn when(ms: i64) -> String {
    let t = std::time::UNIX_EPOCH + std::time::Duration::from_millis(ms.max(0) as u64);
    humantime::format_rfc3339_seconds(t)
        .to_string()
        .replace('T', " ")
        .trim_end_matches('Z')
        .to_string()
}

/// An Elo figure with its interval: `+12.3 (−40.1, +60.2)`; `—` before the first game.
pub fn elo(e: Option<f64>, low: Option<f64>, high: Option<f64>) -> String {
    match (e, low, high) {
        (Some(e), Some(l), Some(h)) if e.is_finite() => format!("{e:+.1} ({l:+.0}, {h:+.0})"),
        (Some(e), _, _) if e.is_finite() => format!("{e:+.1}"),
        _ => "—".into(),
    }
}
