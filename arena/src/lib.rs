//! The arena: runs bot executables against each other and records every game.
//!
//! Two-stage configuration ([`config`] → [`plan`]), a pure [`schedule`], one owner per bot process
//! ([`process`]), a [`referee`] that plays one game under the [`clock`], a [`pool`] that keeps
//! `concurrency` games running, and a [`tournament`] runner that appends each [`record`] to [`results`] and prints the [`standings`] ([`report`]: as text and as the
//! page `report.html`, every game replayable); [`probe`] runs one bot
//! through that path to tell whether it behaves, and [`replay`] shows a recorded game again; [`formats`]
//! writes game records for other programs (SGF, PGN, Pons's digit strings) and reads SGF, which [`openings`]
//! also takes as opening books. The `arena` binary is a thin command line over these.

/// `print!` to stdout through [`stdout::write`]: a closed pipe (`arena ratings results/x | head`)
/// drops the output from then on instead of panicking, and the command goes on; any other write
/// error is returned with `?` (into the caller's `anyhow::Result`).
#[macro_export]
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::stdout::write(::std::format_args!($($arg)*))?
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

/// `eprint!` through [`stderr::write`]: a stderr whose reader has gone (`arena run … 2>&1 | head -1`)
/// drops the diagnostic instead of panicking, and the command goes on. Never fails (see [`stderr`]).
#[macro_export]
macro_rules! err {
    ($($arg:tt)*) => {
        $crate::stderr::write(::std::format_args!($($arg)*))
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
pub mod clock;
pub mod config;
pub mod crosstable;
pub mod formats;
pub mod head_to_head;
pub mod openings;
pub mod options;
pub mod pairing;
pub mod plan;
pub mod play;
pub mod pool;
pub mod probe;
pub mod process;
pub mod record;
pub mod referee;
pub mod replay;
pub mod report;
pub mod results;
pub mod run;
pub mod sandbox;
pub mod schedule;
pub mod shard;
pub mod standings;
pub mod stats;
pub mod stderr;
pub mod stdout;
pub mod tournament;
pub mod tune;
