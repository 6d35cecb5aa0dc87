//! Reference engines and the protocol loop.
