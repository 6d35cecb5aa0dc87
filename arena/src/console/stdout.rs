//! Standard output that a closed pipe cannot stop: the writes behind [`out!`](crate::out) and
//! [`outln!`](crate::outln).
//!
//! When whoever reads the arena's output stops reading (`arena ratings results/x | head -3`), the
//! next write fails with a broken pipe (Rust ignores SIGPIPE). `println!` would panic there; these
//! writes instead note that stdout is gone and drop everything written to it from then on, so the
//! command still does all its work (every config of `arena run a.toml b.toml`, the files of `arena
//! merge`, the verdict of `arena probe`) and exits with its own status. Any other write error is
//! returned.

use std::io::{ErrorKind, Write};
use std::sync::atomic::{AtomicBool, Ordering};

static CLOSED: AtomicBool = AtomicBool::new(false);

/// Writes `args` to stdout, unless a write already found it closed.
///
/// # Errors
/// A write error other than a broken pipe (which is noted, and from then on every write is dropped).
pub fn write(args: std::fmt::Arguments<'_>) -> std::io::Result<()> {
    if CLOSED.load(Ordering::Relaxed) {
        return Ok(());
    }
    let mut out = std::io::stdout().lock();
    match out.write_fmt(args).and_then(|()| out.flush()) {
        Err(e) if e.kind() == ErrorKind::BrokenPipe => {
            CLOSED.store(true, Ordering::Relaxed);
            Ok(())
        }
        r => r,
    }
}
