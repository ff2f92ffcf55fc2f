//! Why a match did not run, or stopped ([`RunError`]).

use std::path::PathBuf;

use tetrarch_core::game::PositionError;

use crate::engine::{EngineStartError, HandshakeError, LogError};
use crate::games::UnknownVariant;
use crate::openings::OpeningsFileError;
use crate::record::{RecordsError, ReplayError};
use crate::shard::Shard;
use crate::shared::SharedError;

/// Why a match did not run, or stopped: bad input found before any game
/// (exit code 2) or a failure during the match (exit code 1, see
/// [`RunError::exit_code`]). The text is what `tetrarch match` prints after
/// `error: `.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// `--variant` names no game.
    #[error(transparent)]
    Variant(#[from] UnknownVariant),
    /// A rule option given two engines with different values.
    #[error("rule option {name} differs between the engines ({first} and {second})")]
    RuleOptionDiffers {
        /// The option.
        name: String,
        /// The first engine's value.
        first: String,
        /// Another engine's.
        second: String,
    },
    /// A rule option's value the game refuses.
    #[error("option {name}: {reason}")]
    RuleOption {
        /// The option.
        name: String,
        /// The game's refusal of the value.
        reason: PositionError,
    },
    /// Too few engines for a tournament of the variant.
    #[error(
        "a {variant} tournament needs at least {need} engines (got {got}){}",
        if *free_for_all { ": every game seats that many different engines" } else { "" }
    )]
    TournamentEngines {
        /// The variant.
        variant: &'static str,
        /// The engines a game seats.
        need: usize,
        /// The engines given.
        got: usize,
        /// Whether the game is free-for-all.
        free_for_all: bool,
    },
    /// Not two engines for a game of two sides.
    #[error("{variant} is played by two sides: give exactly two engines (got {got})")]
    TwoSides {
        /// The variant.
        variant: &'static str,
        /// The engines given.
        got: usize,
    },
    /// Neither 2 nor one engine per seat in free-for-all.
    #[error("{variant} is free-for-all with {seats} seats: give 2 or {seats} engines (got {got})")]
    FreeForAllEngines {
        /// The variant.
        variant: &'static str,
        /// Its seats.
        seats: usize,
        /// The engines given.
        got: usize,
    },
    /// `--sprt` in free-for-all.
    #[error("--sprt needs a game of two sides (not free-for-all)")]
    SprtFreeForAll,
    /// `--resign` in free-for-all.
    #[error("--resign needs a game of two sides (not free-for-all)")]
    ResignFreeForAll,
    /// A tournament's `--games` that is not whole rotations.
    #[error(
        "--games {per_group}: in a tournament --games counts the games of each {} and must be a multiple of {per_opening} ({})",
        if *free_for_all { "group of engines" } else { "pairing" },
        if *free_for_all { "every opening is played from every seat" } else { "every opening is played with the sides swapped" }
    )]
    TournamentGames {
        /// `--games`.
        per_group: u64,
        /// Games of one opening.
        per_opening: u64,
        /// Whether the game is free-for-all.
        free_for_all: bool,
    },
    /// The openings file.
    #[error(transparent)]
    Openings(#[from] OpeningsFileError),
    /// The records file cannot be read, opened or repaired.
    #[error(transparent)]
    Records(#[from] RecordsError),
    /// `--resume` on a file with a game of another match.
    #[error("--resume: {} holds game {game} of another match ({difference})", path.display())]
    ResumeOtherMatch {
        /// The records file.
        path: PathBuf,
        /// The game.
        game: u64,
        /// What differs, in words.
        difference: String,
    },
    /// `--resume` on a file with another shard's game.
    #[error("--resume: {} holds game {game}, which is shard {owner}'s, not this shard's ({shard})", path.display())]
    ResumeOtherShard {
        /// The records file.
        path: PathBuf,
        /// The game.
        game: u64,
        /// The shard whose game it is.
        owner: Shard,
        /// This shard.
        shard: Shard,
    },
    /// `--resume` on a record that does not replay.
    #[error("--resume: record of game {game}: {source}")]
    ResumeReplay {
        /// The game.
        game: u64,
        /// The first turn the rules refuse, or a start that is no position.
        source: ReplayError,
    },
    /// A records file with games, without `--resume`.
    #[error("records file {} exists: use --resume to continue it, or another file", path.display())]
    RecordsExist {
        /// The file.
        path: PathBuf,
    },
    /// The shards' shared folder.
    #[error(transparent)]
    Shared(#[from] SharedError),
    /// `--log`.
    #[error(transparent)]
    Log(#[from] LogError),
    /// An engine's program does not start.
    #[error(transparent)]
    EngineStart(#[from] EngineStartError),
    /// An engine fails its handshake (it rejects the variant or an option).
    #[error("engine {name} failed its start: {source}")]
    EngineHandshake {
        /// The engine's name.
        name: String,
        /// What went wrong: no `uciok` or `readyok` in time, the engine exited,
        /// a line too long, or the variant or an option refused.
        source: HandshakeError,
    },
    /// `--records-dir` cannot be made.
    #[error("records folder {}: {source}", dir.display())]
    RecordsDir {
        /// The folder.
        dir: PathBuf,
        /// The I/O error of making the folder.
        source: std::io::Error,
    },
    /// `--pgnout` cannot be opened.
    #[error("cannot open {}: {source}", path.display())]
    PgnOpen {
        /// The file.
        path: PathBuf,
        /// The I/O error of opening the file for appending.
        source: std::io::Error,
    },
    /// `--pgnout` cannot be read (`--resume`).
    #[error("cannot read {}: {source}", path.display())]
    PgnRead {
        /// The file.
        path: PathBuf,
        /// The I/O error of reading the file.
        source: std::io::Error,
    },
    /// `--pgnout` is not text (`--resume`).
    #[error("{}: not UTF-8 text, not a PGN file of this runner", path.display())]
    PgnNotText {
        /// The file.
        path: PathBuf,
    },
    /// `--pgnout` cannot be repaired (`--resume`).
    #[error("cannot repair {}: {source}", path.display())]
    PgnRepair {
        /// The file.
        path: PathBuf,
        /// The I/O error of cutting the file back to its whole games.
        source: std::io::Error,
    },
    /// A record could not be written during the match.
    #[error("cannot write the records: {0}")]
    WriteRecords(std::io::Error),
    /// A game's PGN text could not be written during the match.
    #[error("cannot write the PGN file: {0}")]
    WritePgn(std::io::Error),
    /// The runner was interrupted (SIGINT, SIGTERM, SIGHUP) while
    /// [`crate::play_games`] played: its games are not results.
    #[error("interrupted")]
    Interrupted,
}

impl RunError {
    /// The process exit code: 1 for a failure during the match (a file
    /// could not be written), 2 for bad input found before any game.
    pub fn exit_code(&self) -> i32 {
        match self {
            RunError::WriteRecords(_) | RunError::WritePgn(_) | RunError::Interrupted => 1,
            _ => 2,
        }
    }
}
