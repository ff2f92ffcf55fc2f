//! The ladder without the match runner: its rungs and batches ([`plan`]),
//! the batches file (one [`BatchLine`] a batch, appended), and
//! [`run_ladder`], which plays the batches not yet in the file through a
//! callback, fits the Elos and writes the table.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use tetrarch_match::openings::mix;

use super::fit::{fit, PairGames};
use super::table::{Row, Rung, Step, Table};
use super::CalibrateError;
use crate::score::Score;

/// The rungs of a ladder of these levels: `random`, the levels, `full`.
pub fn rungs(levels: &[u8]) -> Vec<Rung> {
    let mut r = vec![Rung::Random];
    r.extend(levels.iter().map(|&k| Rung::Level(k)));
    r.push(Rung::Full);
    r
}

/// One batch of games: `pairs` game pairs of rung `a` (the lower) against
/// rung `b`, with the runner's seed `seed`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Batch {
    /// The lower rung (engine 0 of the games).
    pub a: Rung,
    /// The higher rung.
    pub b: Rung,
    /// Game pairs (same opening, seats swapped).
    pub pairs: u64,
    /// The runner's `--seed` for these games: a function of the ladder's
    /// seed, the two rungs and the round alone, so a batch plays the same
    /// openings whatever the other rungs are.
    pub seed: u64,
    /// 0 for the planned batch of these rungs; 1, 2, … for the top-ups
    /// ([`top_up`]), each with openings of its own.
    pub round: u32,
}

fn code(r: Rung) -> u64 {
    match r {
        Rung::Random => 0,
        Rung::Level(k) => 1 + k as u64,
        Rung::Full => 255,
    }
}

/// The batches of a ladder, in the order they are played: for every rung
/// from the second on, its games against the rung below (`pairs` pairs),
/// then, from the third on, against the rung two below (`pairs / 2`, at
/// least 1).
pub fn plan(levels: &[u8], pairs: u64, seed: u64) -> Vec<Batch> {
    let r = rungs(levels);
    let batch = |a: Rung, b: Rung, pairs: u64| Batch { a, b, pairs, seed: batch_seed(seed, a, b, 0), round: 0 };
    let mut out = Vec::new();
    for k in 1..r.len() {
        out.push(batch(r[k - 1], r[k], pairs));
        if k >= 2 {
            out.push(batch(r[k - 2], r[k], (pairs / 2).max(1)));
        }
    }
    out
}

/// The seed of the batch of rungs `a` and `b` in `round` (round 0 is the
/// planned batch, whose seed is the one ladders have always used).
fn batch_seed(seed: u64, a: Rung, b: Rung, round: u32) -> u64 {
    let s = mix(seed, code(a) << 8 | code(b));
    if round == 0 {
        s
    } else {
        mix(s, round as u64)
    }
}

/// The target a neighbour step is topped up to: its upper rung scores at
/// least [`TARGET_SCORE`] against the lower one over at least
/// [`TARGET_GAMES`] direct games, or the fitted difference's 95 % error
/// bar lies above 0 (docs/levels.md).
pub const TARGET_SCORE: f64 = 0.6;

/// See [`TARGET_SCORE`].
pub const TARGET_GAMES: u64 = 100;

/// Whether a neighbour step meets the target ([`TARGET_SCORE`]).
pub fn meets_target(s: &Step) -> bool {
    (s.score >= TARGET_SCORE && s.games >= TARGET_GAMES) || s.diff - s.error > 0.0
}

/// The top-up batches after a fitted table: one more batch of `pairs`
/// pairs on every neighbour step that does not meet the target and has
/// played fewer than `max_pairs` pairs directly (the last batch of a step
/// is cut to `max_pairs`). `played` is every batch so far (the rounds of a
/// step are counted there). Empty when every step meets the target or is
/// at its cap.
pub fn top_up(table: &Table, played: &[Batch], pairs: u64, max_pairs: u64, seed: u64) -> Vec<Batch> {
    let mut out = Vec::new();
    for s in table.neighbours.iter().filter(|s| !meets_target(s)) {
        let mine = || played.iter().filter(|b| b.a == s.lower && b.b == s.upper);
        let done: u64 = mine().map(|b| b.pairs).sum();
        if done >= max_pairs {
            continue;
        }
        let round = mine().map(|b| b.round).max().map_or(0, |r| r + 1);
        let (a, b) = (s.lower, s.upper);
        out.push(Batch { a, b, pairs: pairs.min(max_pairs - done), seed: batch_seed(seed, a, b, round), round });
    }
    out
}

/// One line of `<variant>.games.jsonl`: a batch's games.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BatchLine {
    /// The lower rung.
    pub a: Rung,
    /// The higher rung.
    pub b: Rung,
    /// Games `a` won.
    pub wins: u64,
    /// Games `a` lost.
    pub losses: u64,
    /// Draws.
    pub draws: u64,
    /// The runner's seed of the batch.
    pub seed: u64,
    /// The setup's words ([`Ladder::setup`]).
    pub setup: Vec<String>,
}

impl BatchLine {
    /// The games, from `a`'s side.
    pub fn score(&self) -> Score {
        Score { wins: self.wins, losses: self.losses, draws: self.draws }
    }
}

/// What fixes a ladder and its table.
#[derive(Clone, Debug, PartialEq)]
pub struct Ladder {
    /// The variant (it names the folder's files).
    pub variant: String,
    /// The skill levels, ascending.
    pub levels: Vec<u8>,
    /// Game pairs of neighbouring rungs.
    pub pairs: u64,
    /// The seed of the batches' seeds.
    pub seed: u64,
    /// The words that fix how the games are played (for `tetrarch
    /// calibrate`: [`setup_words`](super::setup_words)). Every line of the
    /// batches file carries them; a file with other words is refused. The
    /// levels are not among them: a ladder with more or fewer levels reuses
    /// the batches of the rungs it shares.
    pub setup: Vec<String>,
    /// The table's `reference` (the `--each` words).
    pub reference: Vec<String>,
    /// The table's `command`.
    pub command: String,
    /// `--top-up`: after the planned batches, play `pairs` more pairs at a
    /// time on every neighbour step that does not meet the target
    /// ([`meets_target`]), until it does or has played this many pairs
    /// directly. `None`: the planned batches only.
    pub top_up: Option<u64>,
}

/// The batches file of a variant in `dir`.
pub fn batches_path(dir: &Path, variant: &str) -> PathBuf {
    dir.join(format!("{variant}.games.jsonl"))
}

/// The table file of a variant in `dir`.
pub fn table_path(dir: &Path, variant: &str) -> PathBuf {
    dir.join(format!("{variant}.json"))
}

/// The whole lines of a batches file (none when there is no file), and
/// whether it ends in a part of a line (a kill while it was written).
pub fn read_batches(path: &Path) -> Result<(Vec<BatchLine>, bool), CalibrateError> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((Vec::new(), false)),
        Err(e) => return Err(CalibrateError::BadBatches { path: path.into(), reason: e.to_string() }),
    };
    let mut lines = Vec::new();
    let mut partial = false;
    for (i, l) in text.split_inclusive('\n').enumerate() {
        if !l.ends_with('\n') {
            partial = true;
            break;
        }
        if l.trim().is_empty() {
            continue;
        }
        let b = serde_json::from_str::<BatchLine>(l)
            .map_err(|e| CalibrateError::BadBatches { path: path.into(), reason: format!("line {}: {e}", i + 1) })?;
        lines.push(b);
    }
    Ok((lines, partial))
}

fn write_err(path: &Path) -> impl FnOnce(std::io::Error) -> CalibrateError + '_ {
    move |source| CalibrateError::Write { path: path.into(), source }
}

/// Writes `text` to `path` atomically ([`crate::files::write_atomically`]).
pub(super) fn write_atomically(path: &Path, text: &str) -> Result<(), CalibrateError> {
    crate::files::write_atomically(path, text).map_err(write_err(path))
}

fn append_line(path: &Path, line: &BatchLine) -> Result<(), CalibrateError> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(write_err(dir))?;
    }
    let text = serde_json::to_string(line).unwrap_or_default() + "\n";
    let r = std::fs::OpenOptions::new().create(true).append(true).open(path).and_then(|mut f| {
        f.write_all(text.as_bytes())?;
        f.sync_data()
    });
    r.map_err(write_err(path))
}

/// What [`run_ladder`] reports after each batch it plays.
#[derive(Clone, Debug)]
pub struct BatchProgress<'a> {
    /// The batch.
    pub batch: &'a Batch,
    /// Its games from `a`'s side.
    pub score: Score,
    /// Batches done (this one included), of `total`.
    pub done: usize,
    /// Batches of the ladder.
    pub total: usize,
    /// Time of this session.
    pub elapsed: Duration,
}

/// The progress line of a batch: `3/13 L0 vs random: 14-2-4 (75.0 % for
/// L0) 0:01:23`; a top-up batch counts on past the plan's total with a
/// `+` (`14/13+ full vs L18: …`).
pub fn progress_line(p: &BatchProgress<'_>) -> String {
    let s = p.elapsed.as_secs();
    let up = p.score.flipped();
    format!(
        "{}/{}{} {} vs {}: {}-{}-{} ({:.1} % for {}) {}:{:02}:{:02}",
        p.done,
        p.total,
        if p.batch.round > 0 { "+" } else { "" },
        p.batch.b,
        p.batch.a,
        up.wins,
        up.losses,
        up.draws,
        up.percent(),
        p.batch.b,
        s / 3600,
        s / 60 % 60,
        s % 60
    )
}

fn round(x: f64, unit: f64) -> f64 {
    (x / unit).round() * unit
}

/// The table of a ladder from its batches' games.
fn table_of(ladder: &Ladder, results: &[(Batch, Score)]) -> Result<Table, CalibrateError> {
    let r = rungs(&ladder.levels);
    let idx = |x: Rung| r.iter().position(|&y| y == x).unwrap_or(0);
    let pairs: Vec<PairGames> = results
        .iter()
        .map(|(b, s)| PairGames { a: idx(b.a), b: idx(b.b), wins: s.wins, losses: s.losses, draws: s.draws })
        .collect();
    let f = fit(r.len(), &pairs)?;
    let rows = r
        .iter()
        .enumerate()
        .map(|(i, &rung)| Row {
            rung,
            elo: round(f.elo[i], 0.1),
            error: round(f.error(i), 0.1),
            games: results.iter().filter(|(b, _)| b.a == rung || b.b == rung).map(|(_, s)| s.games()).sum(),
        })
        .collect();
    let neighbours = (1..r.len())
        .map(|k| {
            let direct =
                results.iter().filter(|(b, _)| b.a == r[k - 1] && b.b == r[k]).fold(Score::default(), |mut t, (_, s)| {
                    t.add(&s.flipped());
                    t
                });
            Step {
                lower: r[k - 1],
                upper: r[k],
                diff: round(f.elo[k] - f.elo[k - 1], 0.1),
                error: round(f.diff_error(k, k - 1), 0.1),
                score: round(direct.percent() / 100.0, 0.0001),
                games: direct.games(),
            }
        })
        .collect();
    Ok(Table {
        variant: ladder.variant.clone(),
        reference: ladder.reference.clone(),
        command: ladder.command.clone(),
        seed: ladder.seed,
        rows,
        neighbours,
    })
}

/// In words, where two setups differ: the words between their common
/// beginning and end, with the word before (usually the flag).
pub(super) fn setup_difference(old: &[String], new: &[String]) -> String {
    let p = old.iter().zip(new).take_while(|(a, b)| a == b).count();
    let s = old[p..].iter().rev().zip(new[p..].iter().rev()).take_while(|(a, b)| a == b).count();
    let part = |w: &[String]| w[p.saturating_sub(1)..w.len() - s].join(" ");
    format!("`{}` there, `{}` now", part(old), part(new))
}

/// Runs (or continues) a ladder in `dir`: the batches already in the
/// batches file (`<variant>.games.jsonl`, of the same setup) are kept,
/// the others are played with `play` (which returns the games from the
/// batch's `a` side) and appended one line each, `progress` hearing of
/// each; then the Elos are fitted and the table is written
/// (`<variant>.json`, replaced atomically) and returned.
///
/// A file with lines of another setup is refused before anything is
/// played or written. A part of a line at the end of the file (a kill
/// while it was written) is cut off. Lines of batches this ladder does not
/// have (other levels) stay in the file and are not used.
pub fn run_ladder(
    dir: &Path,
    ladder: &Ladder,
    play: &mut dyn FnMut(&Batch) -> Result<Score, CalibrateError>,
    progress: &mut dyn FnMut(&BatchProgress<'_>),
) -> Result<Table, CalibrateError> {
    let v = &ladder.variant;
    if v.is_empty() || v.starts_with('.') || v.contains(['/', '\\']) {
        return Err(CalibrateError::VariantName(v.clone()));
    }
    if ladder.pairs == 0 {
        return Err(CalibrateError::Zero("--pairs"));
    }
    super::levels::check_levels(&ladder.levels)?;
    let path = batches_path(dir, v);
    let (lines, partial) = read_batches(&path)?;
    if let Some(other) = lines.iter().find(|l| l.setup != ladder.setup) {
        return Err(CalibrateError::OtherSetup { path, difference: setup_difference(&other.setup, &ladder.setup) });
    }
    if partial {
        let keep: String = lines.iter().map(|l| serde_json::to_string(l).unwrap_or_default() + "\n").collect();
        write_atomically(&path, &keep)?;
    }
    let planned = plan(&ladder.levels, ladder.pairs, ladder.seed);
    let total = planned.len();
    let session = Instant::now();
    let mut results: Vec<(Batch, Score)> = Vec::with_capacity(total);
    let mut play_or_find = |b: &Batch, results: &mut Vec<(Batch, Score)>| -> Result<(), CalibrateError> {
        let found = lines.iter().find(|l| l.a == b.a && l.b == b.b && l.seed == b.seed);
        // A batch found in the file counts the pairs it played (a top-up
        // batch cut to an earlier, smaller cap has fewer than `b`).
        let mut b = *b;
        let score = match found {
            Some(l) => {
                b.pairs = l.score().games().div_ceil(2);
                l.score()
            }
            None => {
                let score = play(&b)?;
                let line = BatchLine {
                    a: b.a,
                    b: b.b,
                    wins: score.wins,
                    losses: score.losses,
                    draws: score.draws,
                    seed: b.seed,
                    setup: ladder.setup.clone(),
                };
                append_line(&path, &line)?;
                let done = results.len() + 1;
                progress(&BatchProgress { batch: &b, score, done, total, elapsed: session.elapsed() });
                score
            }
        };
        results.push((b, score));
        Ok(())
    };
    for b in &planned {
        play_or_find(b, &mut results)?;
    }
    if let Some(max_pairs) = ladder.top_up {
        loop {
            let played: Vec<Batch> = results.iter().map(|(b, _)| *b).collect();
            let more = top_up(&table_of(ladder, &results)?, &played, ladder.pairs, max_pairs, ladder.seed);
            if more.is_empty() {
                break;
            }
            for b in &more {
                play_or_find(b, &mut results)?;
            }
        }
    }
    let table = table_of(ladder, &results)?;
    write_atomically(&table_path(dir, v), &table.to_json())?;
    Ok(table)
}
