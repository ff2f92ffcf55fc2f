//! `tetrarch match`: engine-vs-engine matches for the Tetrarch games, with
//! the core crate as referee (see `docs/match.md`).
//!
//! - [`config`]: the command line (cutechess style) and its checks;
//!   [`engine_config`]: one engine's settings (`--engine KEY=VALUE…`);
//! - [`engine`]: an engine process (reader/writer threads, deadlines);
//! - [`play`]: one game: clocks, referee, adjudication, result;
//! - [`runner`]: scheduling, concurrency, records, progress, final table;
//! - [`stats`]: Elo, error bars, LOS, pentanomial, SPRT;
//! - [`tournament`]: round-robins and gauntlets of any number of engines:
//!   the schedule, the tables, the Elo fit;
//! - [`record`], [`json`]: the JSON Lines records; [`pgn`]: PGN-style text;
//! - [`shard`]: `--shard K/N`; [`shared`]: the shards' shared folder
//!   (`--records-dir`) and their SPRT;
//!   [`report`]: `tetrarch match report`, one table over records files;
//!   [`identity`]: the match fingerprint the records carry;
//! - [`openings`]: opening files and generated openings; [`games`]: the
//!   variant dispatch; [`tc`]: time controls and clocks; [`text`]: engine
//!   text made safe for a terminal and a PGN file;
//! - [`os`]: process groups, signals and CPU time (Unix), and the portable
//!   fallback; [`interrupt`]: whether a signal interrupted the runner.
//!
//! The entry point is [`main_with_args`] (exit code 0, 1 for a failure during
//! the match, 2 for bad input found before the first game).

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod config;
pub mod dialect;
pub mod engine;
pub mod engine_config;
pub mod fuzzing;
pub mod games;
pub mod identity;
pub mod interrupt;
pub mod json;
pub mod openings;
pub mod os;
pub mod pgn;
pub mod play;
pub mod record;
pub mod report;
pub mod runner;
pub mod shard;
pub mod shared;
pub mod stats;
mod tally;
pub mod tc;
pub mod text;
pub mod tournament;

pub use config::{help, parse_args, Config, ConfigError, MatchArgs};
pub use record::{read_records, GameRecord};
pub use runner::{RunError, Summary};

/// Runs a match from a parsed configuration.
pub fn run(cfg: Config) -> Result<Summary, RunError> {
    let variant = games::check_variant(&cfg.variant)?;
    variant.visit(runner::RunVisitor(cfg))
}

/// Plays the games `0..games` of a match (`cfg.games`, default one
/// opening) without printing or writing anything, and returns their
/// records in game order: the entry for programs that drive the runner
/// (`tetrarch spsa`). Everything else is as in [`run`]: the checks before
/// the first game (engines start and take their options), `concurrency`
/// workers with their own engine processes, pairs with the sides swapped.
/// Game `g` plays opening `first_opening + g / k` of the seed (`k` games
/// of one opening), so successive calls can go on through the openings.
/// Ignores the records, PGN, resume, SPRT and shard settings. Returns
/// [`RunError::Interrupted`] when a signal stopped the runner (see
/// [`os::stop_engines_on_signals`]).
pub fn play_games(cfg: Config, first_opening: u64) -> Result<Vec<GameRecord>, RunError> {
    let variant = games::check_variant(&cfg.variant)?;
    variant.visit(runner::QuietVisitor { cfg, first_opening })
}

/// The `tetrarch match` sub-command: `args` are the words after `match`.
/// Returns the process exit code: 0 done, 1 failure during the match, 2 bad
/// input (reported before any game starts).
pub fn main_with_args(args: &[String]) -> i32 {
    if args.first().is_some_and(|a| a == "report") {
        return report::main_with_args(&args[1..]);
    }
    let cfg = match config::parse_args(args) {
        Ok(Some(c)) => c,
        Ok(None) => {
            print!("{}", help());
            return 0;
        }
        // clap's message ends with where to find the help.
        Err(e @ ConfigError::Cli(_)) => {
            eprintln!("error: {e}");
            return 2;
        }
        Err(e) => {
            eprintln!("error: {e}");
            eprintln!("(tetrarch match --help for the options)");
            return 2;
        }
    };
    os::stop_engines_on_signals();
    match run(cfg) {
        Ok(_) => 0,
        Err(e) => {
            eprintln!("error: {}", text::printable(&e.to_string()));
            e.exit_code()
        }
    }
}

/// Why a records file does not verify ([`verify_records`]).
#[derive(Debug, thiserror::Error)]
pub enum VerifyRecordsError {
    /// The file cannot be read, or a line is not a record.
    #[error(transparent)]
    Records(#[from] record::RecordsError),
    /// A record of a variant this runner does not know.
    #[error("unknown variant `{0}`")]
    Variant(String),
    /// A record that does not replay with the rules.
    #[error("game {game}: {source}")]
    Game {
        /// The game number.
        game: u64,
        /// The record's start or the first turn the rules refuse.
        source: record::ReplayError,
    },
}

/// Checks that every record of a records file replays legally under the
/// variant's default rules; returns the number of records.
pub fn verify_records(path: &std::path::Path) -> Result<usize, VerifyRecordsError> {
    let recs = read_records(path)?;
    for r in &recs {
        r.verify_default()
            .ok_or_else(|| VerifyRecordsError::Variant(r.variant.clone()))?
            .map_err(|source| VerifyRecordsError::Game { game: r.game, source })?;
    }
    Ok(recs.len())
}
