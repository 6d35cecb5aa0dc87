//! Statistics of match results: pure functions of counts, no I/O.
//!
//! - [`elo`]: trinomial (win/draw/loss) figures — Elo ± 95% error, nElo, LOS, draw ratio.
//! - [`pentanomial`]: the same figures from game pairs.
//! - [`sprt`]: the generalized SPRT of fishtest and fastchess.
//! - [`ratings`]: Bradley–Terry maximum-likelihood ratings of many bots with a first-move advantage,
//!   parametric bootstrap intervals and a LOS matrix.
//! - [`normal`]: erf, erfc and the normal distribution, which `std` lacks.
//!
//! ```
//! use arena::stats::elo::Wdl;
//! use arena::stats::pentanomial::Pentanomial;
//! use arena::stats::sprt::{Sprt, SprtDecision, SprtModel};
//!
//! let e = Wdl { wins: 136, draws: 111, losses: 96 }.elo().unwrap();
//! assert_eq!(e.to_string(), "+40.70 ± 30.43");
//!
//! let sprt = Sprt::new(-3.0, 1.0, 0.05, 0.05, SprtModel::Logistic).unwrap();
//! let pairs = Pentanomial { counts: [10789, 19328, 33806, 19402, 10543] };
//! assert_eq!(format!("{:.3}", sprt.llr(&pairs)), "2.131");
//! assert_eq!(sprt.decide(&pairs), SprtDecision::Continue);
//! ```

pub mod elo;
pub mod normal;
pub mod pentanomial;
pub mod ratings;
pub mod sprt;

pub use elo::{EloEstimate, Wdl};
pub use pentanomial::Pentanomial;
pub use ratings::{Anchor, RatedGame, Ratings};
pub use sprt::{Sprt, SprtDecision, SprtModel};
