//! The arena's own standard output and standard error, which a closed pipe cannot stop (behind the
//! [`out!`](crate::out), [`outln!`](crate::outln), [`err!`](crate::err) and [`errln!`](crate::errln)
//! macros).

pub mod stderr;
pub mod stdout;
