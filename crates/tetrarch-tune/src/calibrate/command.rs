//! `tetrarch calibrate` itself: its arguments (`--levels` as
//! [`Levels`](super::Levels)),
//! the match runner's words for a batch, the printed table, and
//! [`calibrate_main`].

use std::fmt::Write as _;
use std::path::PathBuf;

use tetrarch_match::engine_config::EngineSetting;
use tetrarch_match::games::check_variant;
use tetrarch_match::{Config, ConfigError};

use super::ladder::{plan, progress_line, run_ladder, Batch, Ladder};
use super::levels::check_levels;
use super::plot::write_plot;
use super::table::{Rung, Table};
use super::{CalibrateError, RANDOM_ARG, SKILL_OPTION};
use crate::score::{score_of, Score};

/// What `tetrarch calibrate` was asked.
#[derive(Clone, Debug)]
pub struct CalibrateArgs {
    /// The variant.
    pub variant: String,
    /// The skill levels of the ladder, ascending.
    pub levels: Vec<u8>,
    /// Game pairs of neighbouring rungs.
    pub pairs: u64,
    /// `--engine` words (`cmd=…`, `arg=…`, `option.X=…`): the engine every
    /// rung runs (the binary fills in `cmd=<itself>` when none is given).
    pub engine: Vec<String>,
    /// `--each` words: the reference every rung is given (its limit, e.g.
    /// `nodes=20000`).
    pub each: Vec<String>,
    /// Games at once.
    pub concurrency: usize,
    /// The seed of the batches' openings.
    pub seed: u64,
    /// The output folder.
    pub out: PathBuf,
    /// An openings file for the runner.
    pub openings: Option<PathBuf>,
    /// Random turns after the start (or the file's opening).
    pub random_plies: u32,
    /// Turn cap (the runner's `--maxturns`).
    pub maxturns: Option<u32>,
    /// `--top-up PAIRS`: more pairs on the neighbour steps short of the
    /// target, up to this many a step ([`Ladder::top_up`]).
    pub top_up: Option<u64>,
    /// The command line, written into the table.
    pub command: String,
}

/// The words that fix how a ladder's games are played: the variant, the
/// pairs, the seed, the openings, the turn cap and the engine's and the
/// reference's words (not the levels, and not `--concurrency`, which
/// does not change the games). Every line of the batches file carries them.
pub fn setup_words(a: &CalibrateArgs) -> Vec<String> {
    let mut w: Vec<String> = vec!["--variant".into(), a.variant.clone()];
    w.extend(["--pairs".into(), a.pairs.to_string(), "--seed".into(), a.seed.to_string()]);
    w.extend(["--random-plies".into(), a.random_plies.to_string()]);
    if let Some(f) = &a.openings {
        w.extend(["--openings".into(), f.display().to_string()]);
    }
    if let Some(m) = a.maxturns {
        w.extend(["--maxturns".into(), m.to_string()]);
    }
    w.push("--engine".into());
    w.extend(a.engine.iter().cloned());
    w.push("--each".into());
    w.extend(a.each.iter().cloned());
    w
}

/// The engine words of a rung: `arg=--random` for the anchor,
/// `option.Skill Level=K` for a level, none for `full`; and its name.
fn rung_words(r: Rung) -> Vec<String> {
    let mut w = match r {
        Rung::Random => vec![format!("arg={RANDOM_ARG}")],
        Rung::Level(k) => vec![format!("option.{SKILL_OPTION}={k}")],
        Rung::Full => Vec::new(),
    };
    w.push(format!("name={r}"));
    w
}

/// The match runner's words for a batch: engine 0 is the lower rung.
pub fn batch_words(a: &CalibrateArgs, b: &Batch) -> Vec<String> {
    let mut w: Vec<String> = vec!["--variant".into(), a.variant.clone()];
    w.extend(["--games".into(), (2 * b.pairs).to_string()]);
    w.extend(["--random-plies".into(), a.random_plies.to_string()]);
    if let Some(f) = &a.openings {
        w.extend(["--openings".into(), f.display().to_string()]);
    }
    if let Some(m) = a.maxturns {
        w.extend(["--maxturns".into(), m.to_string()]);
    }
    for r in [b.a, b.b] {
        w.push("--engine".into());
        w.extend(a.engine.iter().cloned());
        w.extend(rung_words(r));
    }
    if !a.each.is_empty() {
        w.push("--each".into());
        w.extend(a.each.iter().cloned());
    }
    w.extend(["--concurrency".into(), a.concurrency.to_string(), "--seed".into(), b.seed.to_string()]);
    w
}

/// Whether an `--engine`/`--each` word sets what the ladder sets for each
/// rung: a skill option, `UCI_LimitStrength`, `UCI_Elo`, or the random
/// player's argument.
fn is_rung_word(w: &str) -> bool {
    match w.parse::<EngineSetting>() {
        Ok(EngineSetting::Option(name, _)) => {
            [SKILL_OPTION, "UCI_LimitStrength", "UCI_Elo"].iter().any(|o| o.eq_ignore_ascii_case(&name))
        }
        Ok(EngineSetting::Arg(arg)) => arg == RANDOM_ARG,
        _ => false,
    }
}

/// The table as printed: one line a rung (its Elo ± the 95 % error, its
/// games, its score against the rung below in their direct games).
pub fn table_text(t: &Table) -> String {
    let mut s = format!("{}: Elo (uniform random = 0) ± 95 % error; reference `{}`\n", t.variant, t.reference.join(" "));
    let _ = writeln!(s, "{:<8} {:>8} {:>7} {:>7}  score vs the rung below", "rung", "Elo", "±", "games");
    for r in &t.rows {
        let below = t.neighbours.iter().find(|n| n.upper == r.rung);
        let vs = match below {
            Some(n) => format!("{:.1} % vs {} ({} games; {:+.1} ± {:.1})", 100.0 * n.score, n.lower, n.games, n.diff, n.error),
            None => "anchor".to_string(),
        };
        let _ = writeln!(s, "{:<8} {:>8.1} {:>7.1} {:>7}  {vs}", r.rung.to_string(), r.elo, r.error, r.games);
    }
    s
}

/// `tetrarch calibrate`: checks the arguments and the games' settings of
/// every batch (nothing is played or written when they are refused), then
/// runs or continues the ladder in `--out`, playing each batch with the
/// match runner; writes the table, prints it to `say` and regenerates the
/// plot of every table in the folder.
pub fn calibrate_main(a: &CalibrateArgs, say: &mut dyn FnMut(&str)) -> Result<Table, CalibrateError> {
    check_variant(&a.variant)?;
    check_levels(&a.levels)?;
    if a.pairs == 0 || u32::try_from(2 * a.pairs).is_err() {
        return Err(CalibrateError::Zero("--pairs"));
    }
    if a.top_up == Some(0) {
        return Err(CalibrateError::Zero("--top-up"));
    }
    if let Some(w) = a.engine.iter().chain(&a.each).find(|w| is_rung_word(w)) {
        return Err(CalibrateError::RungWord(w.clone()));
    }
    // Every batch's words through the runner's checks before any game;
    // `play` makes them again (the same words, so the same answer).
    let config = |b: &Batch| -> Result<Config, CalibrateError> {
        match tetrarch_match::parse_args(&batch_words(a, b)) {
            Ok(Some(c)) => Ok(c),
            // `--help` among the words: clap in `tetrarch calibrate` takes
            // it first, so this is a word the runner does not run with.
            Ok(None) => Err(CalibrateError::Match(ConfigError::TooFewEngines(0))),
            Err(e) => Err(CalibrateError::Match(e)),
        }
    };
    for b in plan(&a.levels, a.pairs, a.seed) {
        config(&b)?;
    }
    let ladder = Ladder {
        variant: a.variant.clone(),
        levels: a.levels.clone(),
        pairs: a.pairs,
        seed: a.seed,
        setup: setup_words(a),
        reference: a.each.clone(),
        command: a.command.clone(),
        top_up: a.top_up,
    };
    tetrarch_match::os::stop_engines_on_signals();
    let mut play = |b: &Batch| -> Result<Score, CalibrateError> {
        let records = tetrarch_match::play_games(config(b)?, 0)?;
        Ok(score_of(&records))
    };
    let table = run_ladder(&a.out, &ladder, &mut play, &mut |p| say(&progress_line(p)))?;
    say(table_text(&table).trim_end());
    let (plot, skipped) = write_plot(&a.out)?;
    for (path, why) in skipped {
        say(&format!("{} is not a table, left out of the plot: {why}", path.display()));
    }
    say(&format!("wrote {} and {}", super::table_path(&a.out, &a.variant).display(), plot.display()));
    Ok(table)
}
