//! The games. Each lives in its own module with the same shape.
pub mod chess4;
pub mod fourchess;
pub mod quadranj;
pub mod quattuor;
pub mod queenskings;
pub mod teamchess;
