//! [`GuiError`]: why the GUI refuses a request (the `error` of its 400
//! answer) or cannot serve.

use super::http;
use crate::options::ValueError;
use crate::variants;
use tetrarch_core::game::{Outcome, PositionError, TokenError};

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
    /// A listed variant the game table lacks (a bug).
    #[error("unknown variant")]
    NotInGameTable,
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
    /// A rule option the game does not have (checked by the rules).
    #[error("unknown option `{name}` for variant {variant}")]
    NoSuchOption {
        /// The name given.
        name: String,
        /// The variant.
        variant: String,
    },
    /// An option's value does not fit its kind.
    #[error(transparent)]
    Value(#[from] ValueError),
    /// The game refused an option's value.
    #[error("option {name}: {source}")]
    Option {
        /// The option.
        name: &'static str,
        /// The game's reason.
        source: PositionError,
    },
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
    /// A set-up in a game without one.
    #[error("variant {variant} has no set-up")]
    NoSetup {
        /// The variant.
        variant: String,
    },
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
    /// A seat past the variant's seats.
    #[error("seat {seat} does not exist (variant {variant} has {seats})")]
    NoSuchSeat {
        /// The seat, from 1.
        seat: usize,
        /// The variant.
        variant: &'static str,
        /// Its seats.
        seats: usize,
    },
    /// The position string is wrong.
    #[error("invalid position string: {0}")]
    InvalidPosition(PositionError),
    /// The game's position parser panicked.
    #[error("invalid position (the parser failed)")]
    PositionParserFailed,
    /// The set-up tokens are wrong.
    #[error("invalid set-up: {0}")]
    InvalidSetup(PositionError),
    /// The game's set-up parser panicked.
    #[error("invalid set-up (the parser failed)")]
    SetupParserFailed,
    /// A turn of the game after its end.
    #[error("turn {turn} `{token}`: the game is over ({outcome})")]
    TurnAfterEnd {
        /// Its number, from 1.
        turn: usize,
        /// The token.
        token: String,
        /// How the game ended.
        outcome: Outcome,
    },
    /// A turn of the game is not a turn of its position.
    #[error("turn {turn} `{token}`: {source}")]
    Turn {
        /// Its number, from 1.
        turn: usize,
        /// The token.
        token: String,
        /// Why it is refused.
        source: TokenError,
    },
    /// The turn played is not a turn of the position.
    #[error("turn `{token}`: {source}")]
    BadTurn {
        /// The token.
        token: String,
        /// Why it is refused.
        source: TokenError,
    },
    /// A turn played after the end of the game.
    #[error("the game is over ({0})")]
    Over(Outcome),
    /// Actions listed after the end of the game.
    #[error("the game is over")]
    GameOver,
    /// An action of the `prefix` after the turn's last action.
    #[error("action {index} `{token}`: the turn is already over")]
    ActionAfterTurn {
        /// Its place in the prefix, from 1.
        index: usize,
        /// The token.
        token: String,
    },
    /// An action of the `prefix` that does not parse.
    #[error("action {index} `{token}`: {source}")]
    Action {
        /// Its place in the prefix, from 1.
        index: usize,
        /// The token.
        token: String,
        /// Why it is refused.
        source: TokenError,
    },
    /// An action of the `prefix` that is not legal.
    #[error("action {index} `{token}`: illegal")]
    IllegalAction {
        /// Its place in the prefix, from 1.
        index: usize,
        /// The token.
        token: String,
    },
    /// The `prefix` is a whole turn.
    #[error("the turn is already over")]
    TurnOver,
    /// The variant has no record format.
    #[error("variant {variant} has no record format")]
    NoRecordFormat {
        /// The variant.
        variant: &'static str,
    },
    /// The game could not write its record.
    #[error(transparent)]
    Record(PositionError),
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
