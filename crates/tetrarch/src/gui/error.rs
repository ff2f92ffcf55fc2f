//! [`GuiError`]: why the GUI refuses a request (the `error` of its 400
//! answer) or cannot serve.

use super::http;
use crate::options::ValueError;
use crate::variants;
use tetrarch_core::handle::GameError;

/// Why the GUI refuses a request (the `error` of its 400 answer) or cannot
/// serve; the text is what the page shows (docs/gui.md).
#[derive(Debug, thiserror::Error)]
pub enum GuiError {
    /// No game has this variant.
    #[error("unknown variant `{name}` (known: {})", .known.join(", "))]
    UnknownVariant {
        /// The name given.
        name: String,
        /// Every variant.
        known: Vec<&'static str>,
    },
    /// A rule option the variant does not have (`/api/new`, listing the
    /// options it has).
    #[error("unknown option `{name}` for variant {variant} (options: {})", options_list(.options))]
    UnknownOption {
        /// The name given.
        name: String,
        /// The variant.
        variant: String,
        /// Its rule options.
        options: Vec<&'static str>,
    },
    /// An option's value does not fit its kind.
    #[error(transparent)]
    Value(#[from] ValueError),
    /// `Strategy` in a variant that is not a free-for-all.
    #[error("option Strategy: variant {variant} is not a free-for-all game")]
    NotFreeForAll {
        /// The variant.
        variant: String,
    },
    /// A player is neither `human`, `engine:<ms>` with 10..600000 ms nor
    /// `level:<k>` with 0..20.
    #[error("bad player `{0}`: expected human, engine:<ms> with 10..600000 ms, or level:<k> with 0..20")]
    BadPlayer(String),
    /// Not one player per seat.
    #[error("players: {given} given, variant {variant} has {seats} seats")]
    PlayerCount {
        /// Players given.
        given: usize,
        /// The variant.
        variant: &'static str,
        /// Its seats.
        seats: usize,
    },
    /// A clock that is not `<minutes>+<seconds>`.
    #[error("bad clock `{0}`: expected <minutes>+<seconds>, e.g. 5+3 or 0.5+0")]
    BadClock(String),
    /// A clock outside 0.1 s to 24 h, or an increment over 1 h.
    #[error("bad clock `{0}`: the base time must be 0.1 s to 24 h, the increment at most 1 h")]
    ClockRange(String),
    /// `start=fen` without a position string.
    #[error("start fen: the position string is empty")]
    EmptyFen,
    /// `start` other than `startpos`, `fen` or `setup`.
    #[error("unknown start `{0}` (startpos, fen or setup)")]
    UnknownStart(String),
    /// The game proposed no set-up for a seat.
    #[error("no set-up proposal")]
    NoProposal,
    /// A seat's set-up token (`setup<n>`) has spaces.
    #[error("set-up token of seat {seat}: no spaces allowed")]
    SetupTokenSpaces {
        /// The seat, from 1.
        seat: usize,
    },
    /// The set-up token of `/api/setup/place` has spaces.
    #[error("a set-up token has no spaces")]
    PlaceTokenSpaces,
    /// The game refused: a variant, option, start, turn, action, set-up
    /// or record the rules do not accept ([`GameError`]).
    #[error(transparent)]
    Game(#[from] GameError),
    /// The engine refused the game's `position` command: its
    /// `info string error: …` line.
    #[error("{0}")]
    Engine(String),
    /// The server could not start or keep its threads.
    #[error(transparent)]
    Serve(#[from] http::ServeError),
}

/// The rule options of [`GuiError::UnknownOption`]: `none`, or their names.
pub(super) fn options_list(options: &[&str]) -> String {
    if options.is_empty() {
        "none".to_string()
    } else {
        options.join(", ")
    }
}

impl GuiError {
    pub(super) fn unknown_variant(name: &str) -> Self {
        GuiError::UnknownVariant { name: name.into(), known: variants() }
    }
}
