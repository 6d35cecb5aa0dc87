//! The frame of every page: the contest's navigation, the account's links, and the style sheet
//! (`/assets/site.css`: the pages load nothing from elsewhere, and nothing inline).

use axum::response::Html;
use maud::{html, Markup, DOCTYPE};

use crate::serve::web::Viewer;
use crate::stats::elo::signed;

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
                link rel="stylesheet" href="/assets/site.css";
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
        (Some(e), Some(l), Some(h)) if e.is_finite() => {
            format!("{} ({}, {})", signed(e, 1), signed(l, 0), signed(h, 0))
        }
        (Some(e), _, _) if e.is_finite() => signed(e, 1),
        _ => "—".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_reads_as_people_write_it() {
        assert_eq!(
            elo(Some(-0.04), Some(-0.2), Some(f64::INFINITY)),
            "0.0 (0, +∞)"
        );
        assert_eq!(
            elo(Some(12.345), Some(-180.6), Some(f64::NEG_INFINITY)),
            "+12.3 (-181, -∞)"
        );
        assert_eq!(elo(Some(-7.0), None, None), "-7.0");
        assert_eq!(elo(Some(f64::NAN), None, None), "—");
    }
}
