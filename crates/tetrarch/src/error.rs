//! Why a protocol line or a `perft` / `bench` / `record` sub-command is
//! refused. The [`Display`](std::fmt::Display) of each [`CommandError`] is
//! the text of its `info string error: …` line, which docs/protocol.md
//! fixes; that of a [`PerftBenchError`] follows `error: ` on standard error.
//! The fields say what was wrong.
//!
//! [`PerftBenchError`] lives here rather than in [`crate::perft_bench`]
//! (which re-exports it) because [`CommandError::Bench`] wraps it: the
//! sessions return [`CommandError`] and `perft_bench` runs their searches,
//! so an error type in `perft_bench` made a module cycle (issue 39).

use tetrarch_core::game::{Outcome, PositionError, TokenError};
use tetrarch_core::turns::TURN_LIST_LIMIT;

use crate::go::GoError;
use crate::job::SpawnError;
use crate::options::OptionError;
use crate::out::quote;

/// An error of one protocol line.
#[derive(Debug, thiserror::Error)]
pub enum CommandError {
    /// A word after a command that takes none or fewer (`isready now`,
    /// `bench depth 2 x`, `query turn x`).
    #[error("{cmd}: unexpected {}", quote(.word))]
    Unexpected {
        /// The command.
        cmd: String,
        /// The first word too many.
        word: String,
    },
    /// A line whose first word is no command.
    #[error("unknown command {}", quote(.0))]
    UnknownCommand(String),
    /// `bench depth <n>` with `n` not a depth.
    #[error("bench: bad depth {}", quote(.0))]
    BenchDepth(String),
    /// `setoption`.
    #[error(transparent)]
    Option(#[from] OptionError),
    /// `go`.
    #[error(transparent)]
    Go(#[from] GoError),
    /// `position` without a start.
    #[error("position: expected `startpos`, `fen <position>` or `setup <tokens>`")]
    NoStart,
    /// `position` with a start other than `startpos`, `fen` or `setup`.
    #[error("position: expected `startpos`, `fen` or `setup`, not {}", quote(.0))]
    UnknownStart(String),
    /// A word after `position startpos` other than `moves`.
    #[error("position: unexpected {} after `startpos`", quote(.0))]
    AfterStartpos(String),
    /// `position fen` without a position string.
    #[error("position: `fen` needs a position string")]
    EmptyFen,
    /// The position string is wrong.
    #[error("position: invalid position string: {0}")]
    InvalidPosition(PositionError),
    /// The game's position parser panicked (the panic's text).
    #[error("position: invalid position string (parser failed: {0})")]
    PositionParserFailed(String),
    /// `position setup` without tokens.
    #[error("position: `setup` needs one token per seat")]
    EmptySetup,
    /// The set-up tokens are wrong.
    #[error("position: invalid set-up: {0}")]
    InvalidSetup(PositionError),
    /// A turn of `position … moves` is not a turn of its position.
    #[error("position: turn {turn} {}: {source}", quote(.token))]
    Turn {
        /// Its number in the command, from 1.
        turn: usize,
        /// The token.
        token: String,
        /// Why it is refused.
        source: TokenError,
    },
    /// A turn of `position … moves` after the end of the game.
    #[error("position: turn {turn} {}: illegal (the game is over: {outcome})", quote(.token))]
    AfterEnd {
        /// Its number in the command, from 1.
        turn: usize,
        /// The token.
        token: String,
        /// How the game ended.
        outcome: Outcome,
    },
    /// `moves` in a position with more turns than it lists.
    #[error("the position has more than {TURN_LIST_LIMIT} legal turns, too many to list (`go perft 1` counts them)")]
    TooManyTurns,
    /// `query` alone.
    #[error("query: expected gameover, result, reason, turn, p1turn or board")]
    NoQuery,
    /// `query <word>` with no such query.
    #[error("query: unknown query {}", quote(.0))]
    UnknownQuery(String),
    /// `query board` in a game without a board description.
    #[error("query board: variant {variant} has no board description")]
    NoBoard {
        /// The variant.
        variant: &'static str,
    },
    /// `record` in a game without a record format.
    #[error("record: variant {variant} has no record format")]
    NoRecordFormat {
        /// The variant.
        variant: &'static str,
    },
    /// The game could not write its record.
    #[error("record: {0}")]
    Record(PositionError),
    /// `go` could not start its thread.
    #[error(transparent)]
    Job(#[from] SpawnError),
    /// `bench`.
    #[error(transparent)]
    Bench(#[from] PerftBenchError),
}

/// Why `tetrarch perft`, `tetrarch bench` or `tetrarch record` cannot run
/// (the text follows `error: ` on standard error).
#[derive(Debug, thiserror::Error)]
pub enum PerftBenchError {
    /// No game has this variant.
    #[error("unknown variant {} (known: {})", quote(.name), .known.join(", "))]
    UnknownVariant {
        /// The name given.
        name: String,
        /// Every variant.
        known: Vec<&'static str>,
    },
    /// `--bulk` with `--actions`.
    #[error("--bulk and --actions cannot be combined")]
    BulkWithActions,
    /// `--fen` is wrong.
    #[error("invalid position string: {0}")]
    InvalidPosition(PositionError),
    /// A turn of `--moves` is not a turn of its position.
    #[error("turn {turn} {}: {source}", quote(.token))]
    Turn {
        /// Its place in `--moves`, from 1.
        turn: usize,
        /// The token.
        token: String,
        /// Why it is refused.
        source: TokenError,
    },
    /// The record file cannot be read.
    #[error("cannot read {}: {source}", quote(.path))]
    Read {
        /// The path.
        path: String,
        /// The I/O error of reading the file (not found, no permission, not UTF-8).
        source: std::io::Error,
    },
    /// The variant has no record format.
    #[error("variant {variant} has no record format")]
    NoRecordFormat {
        /// The variant.
        variant: &'static str,
    },
    /// The record is wrong.
    #[error(transparent)]
    Record(PositionError),
}

impl PerftBenchError {
    pub(crate) fn unknown_variant(name: &str) -> Self {
        PerftBenchError::UnknownVariant { name: name.into(), known: crate::variants() }
    }
}
