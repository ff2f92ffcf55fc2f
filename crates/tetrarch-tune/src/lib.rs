//! Self-play data and evaluation tuning for every Tetrarch game:
//! `tetrarch datagen` ([`datagen`]) plays games at a fixed node budget and
//! writes labelled quiet positions ([`data`]); `tetrarch tune` ([`tune`])
//! fits a game's evaluation weights to them and writes a weights file that
//! `setoption name EvalFile` loads; `tetrarch spsa` ([`spsa`]) tunes
//! engine options (search parameters) by games. See `docs/tuning.md`.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod calibrate;
pub mod data;
pub mod datagen;
mod files;
pub mod fuzzing;
pub mod score;
pub mod spsa;
pub mod tune;

use std::fmt;
use std::str::FromStr;

/// Shard `k` of `n` (1-based `k`): the games whose number is `k − 1`
/// modulo `n`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// 1-based index.
    pub k: u64,
    /// Number of shards.
    pub n: u64,
}

impl Shard {
    /// Whether game number `g` is this shard's.
    pub fn owns(self, g: u64) -> bool {
        g % self.n == self.k - 1
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

/// Why a `--shard` value is refused (the value as given).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ShardError {
    /// No `/`.
    #[error("shard `{0}` is not K/N")]
    Form(String),
    /// `K` is not a number.
    #[error("shard `{0}`: K is not a number")]
    K(String),
    /// `N` is not a number.
    #[error("shard `{0}`: N is not a number")]
    N(String),
    /// Not 1 ≤ K ≤ N.
    #[error("shard `{0}`: need 1 ≤ K ≤ N")]
    Range(String),
}

impl FromStr for Shard {
    type Err = ShardError;
    fn from_str(s: &str) -> Result<Self, ShardError> {
        let (k, n) = s.split_once('/').ok_or_else(|| ShardError::Form(s.to_string()))?;
        let k: u64 = k.trim().parse().map_err(|_| ShardError::K(s.to_string()))?;
        let n: u64 = n.trim().parse().map_err(|_| ShardError::N(s.to_string()))?;
        if n == 0 || k == 0 || k > n {
            return Err(ShardError::Range(s.to_string()));
        }
        Ok(Shard { k, n })
    }
}

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use tetrarch_core::eval::Weights;
use tetrarch_core::game::PositionError;
use tetrarch_match::games::{check_variant, GameInfo, GameVisitor, UnknownVariant};

pub use datagen::{DatagenArgs, DatagenError, DatagenSummary};

/// Why a weights file (`--weights`, `--start`) is refused.
#[derive(Debug, thiserror::Error)]
pub enum WeightsFileError {
    /// The file cannot be read.
    #[error("{}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// What failed.
        source: std::io::Error,
    },
    /// Not weights of the variant's table.
    #[error("{}: {source}", path.display())]
    Bad {
        /// The file.
        path: PathBuf,
        /// What does not fit: not a weights file, another variant's, a
        /// malformed line, a name the game does not have, ….
        source: tetrarch_core::eval::WeightsError,
    },
}

/// Reads a weights file for `variant` of game `G` (for `--weights`/`--start`).
pub fn read_weights<G: GameInfo>(variant: &'static str, path: &std::path::Path) -> Result<Weights, WeightsFileError> {
    let text = std::fs::read_to_string(path).map_err(|source| WeightsFileError::Read { path: path.to_path_buf(), source })?;
    Weights::from_text(&text, variant, G::default_weights(variant).table)
        .map_err(|source| WeightsFileError::Bad { path: path.to_path_buf(), source })
}

/// Why `tetrarch tune` stopped.
#[derive(Debug, thiserror::Error)]
pub enum TuneError {
    /// `--variant` names no game.
    #[error(transparent)]
    Variant(#[from] UnknownVariant),
    /// The weights to start from (`--start`).
    #[error(transparent)]
    Weights(#[from] WeightsFileError),
    /// A data file that cannot be read.
    #[error(transparent)]
    Data(#[from] data::DataError),
    /// A data file of another variant.
    #[error("{}: data of variant `{found}`, not `{variant}`", path.display())]
    OtherVariant {
        /// The file.
        path: PathBuf,
        /// Its variant.
        found: String,
        /// The variant tuned.
        variant: &'static str,
    },
    /// A data file whose first position the game refuses.
    #[error("{}: {reason}", path.display())]
    Position {
        /// The file.
        path: PathBuf,
        /// The game's refusal of that position string.
        reason: PositionError,
    },
    /// A sample of a data file that is not a position and result.
    #[error("{}: {source}", path.display())]
    Sample {
        /// The file.
        path: PathBuf,
        /// What is wrong with the sample: a position the game refuses, or a
        /// result that does not fit its seats.
        source: tune::SampleError,
    },
    /// Data files without a position.
    #[error("no positions in the data files")]
    NoPositions,
    /// The weights file cannot be written.
    #[error("{}: {source}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// What failed.
        source: std::io::Error,
    },
}

struct DatagenVisit<'a>(&'a DatagenArgs, Option<&'a std::path::Path>);

impl GameVisitor for DatagenVisit<'_> {
    type Output = Result<DatagenSummary, DatagenError>;
    fn visit<G: GameInfo>(self, variant: &'static str) -> Self::Output {
        let mut args = self.0.clone();
        if let Some(p) = self.1 {
            args.weights = Some(Arc::new(read_weights::<G>(variant, p)?));
        }
        datagen::run::<G>(variant, &args)
    }
}

/// `tetrarch datagen`: plays the games and writes the file; `weights`, a
/// weights file to play with.
pub fn datagen_main(args: &DatagenArgs, weights: Option<&std::path::Path>) -> Result<DatagenSummary, DatagenError> {
    check_variant(&args.variant)?.visit(DatagenVisit(args, weights))
}

/// What `tetrarch tune` was asked.
#[derive(Clone, Debug)]
pub struct TuneArgs {
    /// The variant.
    pub variant: String,
    /// Data files of that variant.
    pub data: Vec<PathBuf>,
    /// The weights file to write.
    pub out: PathBuf,
    /// Weights to start from: a file, or `hand` for the table's hand-set
    /// values (default: the compiled-in weights).
    pub start: Option<PathBuf>,
    /// The fit's settings.
    pub fit: tune::FitArgs,
    /// The command line, written into the weights file as a comment.
    pub command: String,
}

struct TuneVisit<'a>(&'a TuneArgs, &'a mut dyn FnMut(&str));

impl GameVisitor for TuneVisit<'_> {
    type Output = Result<(), TuneError>;
    fn visit<G: GameInfo>(self, variant: &'static str) -> Self::Output {
        let TuneVisit(args, say) = self;
        let opts = G::default_options(variant);
        let start = match &args.start {
            Some(p) if p.as_os_str() == "hand" => {
                let d = G::default_weights(variant);
                Weights::defaults(d.variant, d.table)
            }
            Some(p) => read_weights::<G>(variant, p)?,
            None => G::default_weights(variant).clone(),
        };
        let t = Instant::now();
        let mut rows = Vec::new();
        let mut held_out = Vec::new();
        let mut free_for_all = None;
        for (fi, path) in args.data.iter().enumerate() {
            let d = data::read(path)?;
            if d.header.variant != variant {
                return Err(TuneError::OtherVariant { path: path.clone(), found: d.header.variant.clone(), variant });
            }
            let ffa = match d.samples.first() {
                Some(s) => {
                    let p = G::from_position_string(&s.pos, &opts)
                        .map_err(|reason| TuneError::Position { path: path.clone(), reason })?;
                    tetrarch_match::games::format_of(&p) == tetrarch_match::games::Format::FreeForAll
                }
                None => continue,
            };
            free_for_all.get_or_insert(ffa);
            let file_rows =
                tune::rows_of::<G>(&d.samples, &opts, ffa).map_err(|source| TuneError::Sample { path: path.clone(), source })?;
            for (game, row) in file_rows {
                held_out.push(tune::is_held_out(game ^ d.header.seed.rotate_left(17) ^ (fi as u64) << 48));
                rows.push(row);
            }
        }
        if rows.is_empty() {
            return Err(TuneError::NoPositions);
        }
        let data = tune::Dataset { rows, held_out, free_for_all: free_for_all.unwrap_or(false) };
        let n_held = data.held_out.iter().filter(|h| **h).count();
        say(&format!(
            "tune {variant}: {} positions ({} held out), {} weights ({} tunable), features in {:.1} s",
            data.rows.len(),
            n_held,
            start.values.len(),
            (0..start.values.len()).filter(|&i| start.table.tunable(i)).count(),
            t.elapsed().as_secs_f64()
        ));
        let mut last = Instant::now();
        let mut best = (f64::INFINITY, 0u32);
        let (k, fitted) = tune::fit(&data, &start, &args.fit, &mut |k, e| {
            if e.held_out < best.0 {
                best = (e.held_out, e.epoch);
            }
            if e.epoch == 0 {
                say(&format!("K = {k:.6} (σ(K·eval)); start: train loss {:.6}, held-out loss {:.6}", e.train, e.held_out));
            } else {
                say(&format!(
                    "epoch {}: train loss {:.6}, held-out loss {:.6} ({:.1} s)",
                    e.epoch,
                    e.train,
                    e.held_out,
                    last.elapsed().as_secs_f64()
                ));
            }
            last = Instant::now();
        });
        say(&format!("kept the weights of epoch {} (lowest held-out loss, {:.6})", best.1, best.0));
        let mut text =
            format!("# {}\n# K = {k:.6}; the weights of epoch {} (held-out loss {:.6})\n", args.command, best.1, best.0);
        let body = fitted.to_text();
        // The header line first, then the comments, then the rest.
        let (first, rest) = body.split_once('\n').unwrap_or((&body, ""));
        text = format!("{first}\n{text}{rest}");
        std::fs::write(&args.out, text).map_err(|source| TuneError::Write { path: args.out.clone(), source })?;
        let changed: Vec<String> = (0..start.values.len())
            .filter(|&i| start.values[i] != fitted.values[i])
            .take(12)
            .map(|i| format!("{} {}→{}", start.table.name_of(i), start.values[i], fitted.values[i]))
            .collect();
        say(&format!("wrote {} ({} in all); first changes: {}", args.out.display(), fitted.values.len(), changed.join(", ")));
        Ok(())
    }
}

/// `tetrarch tune`: fits the weights and writes the file; progress lines
/// go to `say`.
pub fn tune_main(args: &TuneArgs, say: &mut dyn FnMut(&str)) -> Result<(), TuneError> {
    check_variant(&args.variant)?.visit(TuneVisit(args, say))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards() {
        assert_eq!("2/3".parse::<Shard>(), Ok(Shard { k: 2, n: 3 }));
        assert_eq!("3".parse::<Shard>(), Err(ShardError::Form("3".into())));
        assert_eq!("x/3".parse::<Shard>(), Err(ShardError::K("x/3".into())));
        assert_eq!("1/x".parse::<Shard>(), Err(ShardError::N("1/x".into())));
        assert_eq!("4/3".parse::<Shard>(), Err(ShardError::Range("4/3".into())));
        assert_eq!("0/3".parse::<Shard>().unwrap_err().to_string(), "shard `0/3`: need 1 ≤ K ≤ N");
    }

    #[test]
    fn an_unknown_variant_is_named_with_the_known_ones() {
        let args = TuneArgs {
            variant: "toy".into(),
            data: Vec::new(),
            out: PathBuf::from("/nonexistent/w.txt"),
            start: None,
            fit: tune::FitArgs::default(),
            command: String::new(),
        };
        let e = tune_main(&args, &mut |_| {}).unwrap_err();
        assert!(matches!(&e, TuneError::Variant(UnknownVariant(v)) if v == "toy"), "{e}");
        assert!(e.to_string().starts_with("unknown variant `toy` (known: "), "{e}");
    }
}
