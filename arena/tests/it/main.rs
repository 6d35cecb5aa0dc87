//! arena's integration tests, linked as one test binary (as ripgrep's `tests/` are): each former
//! `tests/<name>.rs` is the module `<name>` here, so `cargo test -p arena --test it <name>::` runs the
//! tests of one file. One binary links the arena library and its dependencies once instead of once a
//! file, which is most of the cold `cargo test --workspace` build (the 19 binaries alone took 914.6 s
//! wall, the whole workspace with one 638.6 s: docs/benchmarks.md and its git history).
//!
//! The tests run as threads of one process (two at a time on two cores, as each file's did before): a
//! test must not change what the process shares (its working directory, its environment, its signal
//! dispositions); they set those on the `Command`s they start instead.
//!
//! The browser tests (`report_browser`, `serve_browser`) stay binaries of their own: they need the
//! feature `browser` (arena/Cargo.toml).

// Shared with the browser tests, hence beside them rather than here.
#[path = "../common/mod.rs"]
mod common;

mod adjudication;
mod affinity;
mod analyze;
mod book;
mod closed_stderr;
mod closed_stdout;
mod comparing;
mod containment;
#[cfg(feature = "server")]
mod deploy;
mod forfeits;
mod formats;
mod integrity;
mod kalah;
mod match_cmd;
mod modules;
mod newcomer;
mod pairing;
mod play;
mod probe;
mod ratings;
mod referees;
mod reference_bots;
#[cfg(feature = "server")]
mod serve;
mod sgfout;
mod stats;
mod tournament;
mod tune;
