//! Tetrarch's core: bitboards, the game model, and the rules of every game.
//!
//! - [`bitboard`]: fixed-width bitboards sized per game.
//! - [`game`]: the [`game::Game`] trait the search and the protocol are
//!   generic over.
//! - [`eval`]: evaluation weights (one named table per game) and the sinks
//!   an evaluation sends its features to.
//! - [`turns`]: turn tokens and perft, built generically from actions.
//! - [`games`]: one module per game, each with the same shape (board, moves,
//!   notation, rules, evaluation, tests).
//! - [`view`]: a picture of a position for graphical front ends.
//! - [`handle`]: the typed game handle front ends hold ([`handle::Variant`],
//!   [`handle::AnyGame`]).
//! - [`options`]: checking option values.
//! - [`registry`]: the one list of games ([`registry::variants`],
//!   [`registry::with_variant`]) and their per-game facts
//!   ([`registry::GameInfo`]).
//! - `toy` (only with the cargo feature `toy`, which the crates' tests
//!   enable): the test game of the engine's and the search's tests, never
//!   a game of the registry.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod bitboard;
pub mod eval;
pub mod fuzzing;
pub mod game;
pub mod games;
pub mod handle;
pub mod options;
pub mod played;
pub mod ranks;
pub mod registry;
#[cfg(feature = "toy")]
pub mod toy;
pub mod turns;
pub mod view;
pub mod zobrist;
