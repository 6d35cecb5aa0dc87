//! The arena: runs bot executables against each other and records every game.
//!
//! The modules, from the bottom up (imports point one way):
//! - **setup**: a [`config`] file is validated into a [`plan`], which holds the pure
//!   [`plan::schedule`] of games and the [`plan::openings`]; [`sandbox`] contains each bot, [`shard`]
//!   splits a run across machines;
//! - **one game** ([`game`]): one owner per bot process ([`game::process`]) speaking the words of the
//!   bot protocols ([`protocol`]), and a [`game::referee`] that plays one game under the
//!   [`game::clock`] into a [`record`];
//! - **many games**: the [`run`] layer owns a run's lifecycle and its [`run::pool`] of `concurrency`
//!   games; a [`tournament`] (round robin, gauntlet, SPRT, and Swiss or knockout by
//!   [`tournament::pairing`]), a tuning ([`tune`]) and [`play`] only schedule games into it, and
//!   [`results`] keeps them;
//! - **tables and pages**: [`standings`] (with the crosstable and head-to-head tables), [`stats`], the
//!   [`report`] (as text and as the page `report.html`, every game replayable), [`formats`] for other
//!   programs (SGF, PGN, Pons's digit strings);
//! - **around them**: [`probe`] runs one bot through that path to tell whether it behaves, [`replay`]
//!   shows a recorded game again, [`analyze`] and [`book`] use the games' solvers, [`bench`](mod@bench) measures,
//!   and `serve` is the contest server (the feature `server`, on by default). The `arena` binary is
//!   a thin command line over these.

/// `print!` to stdout through [`console::stdout::write`]: a closed pipe (`arena ratings results/x | head`)
/// drops the output from then on instead of panicking, and the command goes on; any other write
/// error is returned with `?` (into the caller's `anyhow::Result`).
#[macro_export]
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::console::stdout::write(::std::format_args!($($arg)*))?
    };
}

/// `println!` that returns the write's error with `?`, as [`out!`].
#[macro_export]
macro_rules! outln {
    () => {
        $crate::out!("\n")
    };
    ($($arg:tt)*) => {
        $crate::out!("{}\n", ::std::format_args!($($arg)*))
    };
}

/// `eprint!` through [`console::stderr::write`]: a stderr whose reader has gone (`arena run … 2>&1 | head -1`)
/// drops the diagnostic instead of panicking, and the command goes on. Never fails (see [`console::stderr`]).
#[macro_export]
macro_rules! err {
    ($($arg:tt)*) => {
        $crate::console::stderr::write(::std::format_args!($($arg)*))
    };
}

/// `eprintln!` that a closed stderr cannot stop, as [`err!`].
#[macro_export]
macro_rules! errln {
    () => {
        $crate::err!("\n")
    };
    ($($arg:tt)*) => {
        $crate::err!("{}\n", ::std::format_args!($($arg)*))
    };
}

pub mod analyze;
pub mod bench;
pub mod book;
pub mod config;
pub mod console;
pub mod formats;
pub mod frames;
pub mod game;
pub mod modules;
pub mod plan;
pub mod play;
pub mod probe;
pub mod protocol;
pub mod record;
pub mod referee_programs;
pub mod replay;
pub mod report;
pub mod results;
pub mod run;
pub mod sandbox;
#[cfg(feature = "server")]
pub mod serve;
pub mod shard;
pub mod standings;
pub mod stats;
pub mod tournament;
pub mod tune;

/// The module structure: imports point one way (setup → one game → many games → tables and report →
/// the command line), so no top-level module reaches, through `crate::` paths in its non-test code, a
/// module that reaches it back.
#[cfg(test)]
mod architecture {
    use std::collections::{BTreeMap, BTreeSet};
    use std::path::Path;

    /// The `crate::NAME` paths of `text` (code before its test module, `#[cfg(test)] mod …`, comments
    /// dropped), including the first name of each element of a `use crate::{a, b::{c, d}}` group.
    fn crate_paths(text: &str) -> BTreeSet<String> {
        let code = text.split("#[cfg(test)]\nmod ").next().unwrap_or("");
        let code: String = code
            .lines()
            .map(|l| l.split("//").next().unwrap_or(""))
            .collect::<Vec<_>>()
            .join("\n");
        let ident = |s: &str| -> String {
            s.trim_start()
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect()
        };
        let mut out = BTreeSet::new();
        for (i, _) in code.match_indices("crate::") {
            let before = code[..i].chars().next_back();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                continue;
            }
            let rest = &code[i + "crate::".len()..];
            if let Some(group) = rest.strip_prefix('{') {
                // The group's elements at its own depth: `a`, `b::{c, d}` → `a`, `b`.
                let (mut depth, mut start) = (0usize, 0usize);
                for (k, ch) in group.char_indices() {
                    match ch {
                        '{' => depth += 1,
                        '}' if depth == 0 => {
                            out.insert(ident(&group[start..k]));
                            break;
                        }
                        '}' => depth -= 1,
                        ',' if depth == 0 => {
                            out.insert(ident(&group[start..k]));
                            start = k + 1;
                        }
                        _ => {}
                    }
                }
                out.remove("");
            } else {
                let name = ident(rest);
                if !name.is_empty() {
                    out.insert(name);
                }
            }
        }
        out
    }

    fn visit(dir: &Path, src: &Path, edges: &mut BTreeMap<String, BTreeSet<String>>) {
        for entry in std::fs::read_dir(dir).unwrap().flatten() {
            let path = entry.path();
            let rel: Vec<String> = path
                .strip_prefix(src)
                .unwrap()
                .iter()
                .map(|c| c.to_string_lossy().into_owned())
                .collect();
            if path.is_dir() {
                if rel.len() > 1 && rel.last().is_some_and(|c| c == "tests") {
                    continue;
                }
                visit(&path, src, edges);
                continue;
            }
            let name = rel.last().unwrap();
            if !name.ends_with(".rs")
                || name == "tests.rs"
                || ["main.rs", "lib.rs", "bin"].contains(&rel[0].as_str())
            {
                continue;
            }
            let top = rel[0].trim_end_matches(".rs").to_string();
            let text = std::fs::read_to_string(&path).unwrap();
            let targets = edges.entry(top.clone()).or_default();
            targets.extend(crate_paths(&text).into_iter().filter(|t| *t != top));
        }
    }

    #[test]
    fn no_top_level_module_reaches_a_module_that_reaches_it_back() {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut edges = BTreeMap::new();
        visit(&src, &src, &mut edges);
        assert!(edges.len() > 20, "only {} modules found", edges.len());
        let reach = |from: &str| -> BTreeSet<String> {
            let mut seen = BTreeSet::new();
            let mut todo = vec![from.to_string()];
            while let Some(m) = todo.pop() {
                for next in edges.get(&m).into_iter().flatten() {
                    if seen.insert(next.clone()) {
                        todo.push(next.clone());
                    }
                }
            }
            seen
        };
        let mut cycles = Vec::new();
        for a in edges.keys() {
            for b in &edges[a] {
                if reach(b).contains(a) {
                    cycles.push(format!("{a} → {b} → … → {a}"));
                }
            }
        }
        assert!(
            cycles.is_empty(),
            "modules in a cycle:\n{}",
            cycles.join("\n")
        );
    }

    #[test]
    fn the_scan_finds_plain_and_grouped_paths_and_skips_tests_and_comments() {
        let text = "use crate::plan::Plan;\nuse crate::{referee::GameEnv, sandbox};\n\
                    use crate::{run::{Flow, Run}, schedule};\n\
                    // crate::report is only mentioned\nfn f() { crate::pool::x(); }\n\
                    #[cfg(test)]\nimpl X { fn y() { crate::stats::z(); } }\n\
                    #[cfg(test)]\nmod tests { use crate::tune; }\n";
        let found: Vec<String> = crate_paths(text).into_iter().collect();
        assert_eq!(
            found,
            ["plan", "pool", "referee", "run", "sandbox", "schedule", "stats"]
        );
    }
}
