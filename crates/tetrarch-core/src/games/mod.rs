//! The games. Each lives in its own module with the same shape.
pub mod cross_board;
pub mod fourchess;
pub mod quadranj;
pub mod quattuor;
pub mod queenskings;
pub mod teamchess;
