//! Containment of bot processes: resource limits, the process tree's end with the game, the idle bot's
//! suspension, and an optional bubblewrap sandbox.

pub mod limits;

pub use limits::{LimitHit, Limits};
