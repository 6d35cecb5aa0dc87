//! The sections of `report.html` that other commands leave in a results folder: a knockout's bracket and
//! a Swiss's rounds (`bracket.txt`, `swiss.txt`, written by the run, [`crate::tournament::pairing`]) and the accuracy
//! analysis (`analysis.csv`, written by `arena analyze`, [`crate::analyze`]). Each is shown as it is in
//! the folder when the page is written; a file that is missing or unreadable leaves its section out.

use std::fmt::Write as _;
use std::path::Path;

/// The HTML sections for the files of `dir` that have one (empty when none has), and their navigation
/// links as `(anchor, title)`. `games` is the number of games the page shows: an analysis of another
/// number (games recorded since `arena analyze` ran) is shown with a warning that it is out of date.
pub fn sections(dir: &Path, games: usize) -> (String, Vec<(&'static str, &'static str)>) {
    let mut out = String::new();
    let mut nav = Vec::new();
    for (file, anchor, title) in [
        ("bracket.txt", "bracket", "Knockout bracket"),
        ("swiss.txt", "swiss", "Swiss rounds"),
    ] {
        if let Ok(text) = std::fs::read_to_string(dir.join(file)) {
            let _ = write!(
                out,
                "<section id=\"{anchor}\"><h2>{title}</h2><pre>{}</pre></section>",
                super::html::esc(text.trim_end())
            );
            nav.push((anchor, title));
        }
    }
    if let Some(table) = csv_table(&dir.join("analysis.csv")) {
        let analysed = csv::Reader::from_path(dir.join("analysis-games.csv"))
            .map(|mut r| r.records().count())
            .ok();
        let stale = if analysed == Some(games) {
            String::new()
        } else {
            format!(
                "<p class=\"warning\" id=\"analysis-stale\">This analysis covers {} games, the folder \
                 holds {games}: run <code>arena analyze</code> again.</p>",
                analysed.map_or("an unknown number of".to_string(), |n| n.to_string())
            )
        };
        let _ = write!(
            out,
            "<section id=\"analysis\"><h2>Accuracy</h2>{stale}<p>Every move of the solvable games judged by its \
             effect on the game-theoretic value (<code>arena analyze</code>): value-losing moves, wins and \
             draws thrown away, and moves left unsolved within the node cap (never guessed).</p>{table}\
             </section>"
        );
        nav.push(("analysis", "Accuracy"));
    }
    (out, nav)
}

/// A CSV file as an HTML table (header row first); `None` when it cannot be read or has no header.
fn csv_table(path: &Path) -> Option<String> {
    let mut reader = csv::Reader::from_path(path).ok()?;
    let header = reader.headers().ok()?.clone();
    let mut out = String::from("<table class=\"num\"><thead><tr>");
    for h in &header {
        let _ = write!(out, "<th>{}</th>", super::html::esc(h));
    }
    out.push_str("</tr></thead><tbody>");
    for row in reader.records() {
        let row = row.ok()?;
        out.push_str("<tr>");
        for cell in &row {
            let _ = write!(out, "<td>{}</td>", super::html::esc(cell));
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table>");
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_files_a_folder_has_become_sections_and_the_others_none() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(sections(dir.path(), 4), (String::new(), Vec::new()));
        std::fs::write(dir.path().join("bracket.txt"), "round 1: a <beats> b\n").unwrap();
        std::fs::write(
            dir.path().join("analysis.csv"),
            "bot,games,value_losing\nrandom,4,7\n",
        )
        .unwrap();
        std::fs::write(
            dir.path().join("analysis-games.csv"),
            "id,first\ng0001,random\ng0002,random\n",
        )
        .unwrap();
        let (html, nav) = sections(dir.path(), 2);
        assert!(!html.contains("analysis-stale"), "{html}");
        // Two more games recorded since the analysis: it is flagged.
        assert!(sections(dir.path(), 4)
            .0
            .contains("covers 2 games, the folder holds 4"));
        assert_eq!(
            nav,
            vec![("bracket", "Knockout bracket"), ("analysis", "Accuracy")]
        );
        assert!(
            html.contains("<pre>round 1: a &lt;beats&gt; b</pre>"),
            "{html}"
        );
        assert!(
            html.contains("<th>value_losing</th>")
                && html.contains("<td>random</td><td>4</td><td>7</td>"),
            "{html}"
        );
    }
}
