//! Standard error that a closed pipe cannot stop: the writes behind [`err!`](crate::err) and
//! [`errln!`](crate::errln), for the arena's own diagnostics (progress lines, warnings, the final
//! `arena: error: …`).
//!
//! `eprintln!` panics when a write fails, and a write to a pipe whose reader has gone fails with a
//! broken pipe (Rust ignores SIGPIPE): `arena run configs/smoke.toml 2>&1 | head -1` stopped at the
//! first game with exit status 101. These writes instead note that stderr is gone and drop everything
//! written to it from then on, so the command does all its work and exits with its own status, as
//! [`stdout`](crate::console::stdout) does for the output. (A closed descriptor, `2>&-`, needs nothing: Rust's
//! runtime opens /dev/null in its place before `main`.)
//!
//! Unlike stdout's writes they never fail: a diagnostic that cannot be written (a full disk under
//! `2>log` too) has nowhere else to be reported, and the command's work and exit status matter more
//! than its progress lines.

use std::io::{ErrorKind, Write};
use std::sync::atomic::{AtomicBool, Ordering};

static CLOSED: AtomicBool = AtomicBool::new(false);

/// Writes `args` to stderr, unless a write already found it closed; a failed write is dropped (a broken
/// pipe also drops every later one).
pub fn write(args: std::fmt::Arguments<'_>) {
    if CLOSED.load(Ordering::Relaxed) {
        return;
    }
    if let Err(e) = std::io::stderr().lock().write_fmt(args) {
        if e.kind() == ErrorKind::BrokenPipe {
            CLOSED.store(true, Ordering::Relaxed);
        }
    }
}
