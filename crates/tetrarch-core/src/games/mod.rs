//! The games. Each lives in its own module with the same shape.
pub mod chess4;
pub mod fourchess;
pub mod queenskings;
pub mod quattuor;
pub mod teamchess;
pub mod quadranj;
