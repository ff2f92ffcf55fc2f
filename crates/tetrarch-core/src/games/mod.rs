//! The games. Each lives in its own module with the same shape.
pub mod fourchess;
