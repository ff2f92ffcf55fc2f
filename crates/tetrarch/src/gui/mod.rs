//! `tetrarch gui`: a page to play and analyse every variant in a browser,
//! served on 127.0.0.1 by a tiny HTTP server ([`http`]) with everything
//! embedded in the binary. The server is the referee: it keeps the game
//! as the core's typed handle ([`AnyGame`](tetrarch_core::handle::AnyGame):
//! the start, the turns played, the position), asks it for legal actions
//! ([`game_queries`]) and drives an in-process [`Engine`](crate::Engine)
//! through the protocol for the engine seats and for analysis.
//! `docs/gui.md` describes the HTTP API.
//!
//! - `server.rs`: [`bind`] and [`serve`] (the game behind a lock and its
//!   ticker thread), and `route`: every request checked (`Host`, `Origin`,
//!   method, token) and answered with a page file or the API;
//! - `http.rs`: the bounded HTTP server (listener, worker threads, request
//!   parsing and its limits, responses, the `Host` and `Origin` checks);
//! - `auth.rs`: the access token ([`new_token`]) and where a request
//!   carries it (`?token=`, cookie, `Authorization`);
//! - `routes.rs`: the API's endpoints, one function per route (playing,
//!   hints, analysis, browsing and branching), and the `/api/actions`
//!   listing run outside the lock;
//! - `import.rs`: `/api/import`'s text (a record line, a PGN4, turns, a
//!   position string) read as the `/api/new` request it amounts to;
//! - `state.rs`: the game the page plays (`Gui`): a new game from
//!   `/api/new`'s parameters, the clocks charged and run out;
//! - `engine.rs`: the engine bridge (options, `position`, `go`, its output
//!   taken in, its turns played);
//! - `thinking.rs`: the engine's last search report, read from its `info`
//!   lines (one per line with `MultiPV`);
//! - `scorer.rs`: the score graph's quick searches, by a second small
//!   engine, of the turns no engine seat scored;
//! - `json.rs`: the serde types of the answers (state, record, variants);
//! - `game_queries.rs`: the questions asked of the game's handle, as the
//!   page's JSON (the variant's facts, snapshot, legal actions, set-ups);
//! - `player.rs`, `clock.rs`: [`Player`] and [`Clock`], as requests spell
//!   them;
//! - `error.rs`: [`GuiError`], why a request is refused or the server does
//!   not start;
//! - `fuzz.rs`: [`fuzz_request`], for the fuzz target `gui_request`.

mod auth;
mod clock;
mod engine;
mod error;
mod fuzz;
pub mod game_queries;
pub mod http;
mod import;
mod json;
mod player;
mod routes;
mod scorer;
mod server;
mod state;
#[cfg(test)]
mod tests;
mod thinking;

pub use auth::new_token;
pub use clock::Clock;
pub use error::GuiError;
pub use fuzz::fuzz_request;
pub use player::Player;
pub use server::{bind, serve};
