//! Self-play data and evaluation tuning for every Tetrarch game:
//! `tetrarch datagen` ([`datagen`]) plays games at a fixed node budget and
//! writes labelled quiet positions ([`data`]); `tetrarch tune` ([`tune`])
//! fits a game's evaluation weights to them and writes a weights file that
//! `setoption name EvalFile` loads. See `docs/tuning.md`.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod data;
pub mod datagen;
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

impl FromStr for Shard {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let (k, n) = s.split_once('/').ok_or_else(|| format!("shard `{s}` is not K/N"))?;
        let k: u64 = k.trim().parse().map_err(|_| format!("shard `{s}`: K is not a number"))?;
        let n: u64 = n.trim().parse().map_err(|_| format!("shard `{s}`: N is not a number"))?;
        if n == 0 || k == 0 || k > n {
            return Err(format!("shard `{s}`: need 1 ≤ K ≤ N"));
        }
        Ok(Shard { k, n })
    }
}

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use tetrarch_core::eval::Weights;
use tetrarch_match::games::{with_variant, GameInfo, GameVisitor};

pub use datagen::{DatagenArgs, DatagenError, DatagenSummary};

/// Reads a weights file for `variant` of game `G` (for `--weights`/`--start`).
pub fn read_weights<G: GameInfo>(variant: &'static str, path: &std::path::Path) -> Result<Weights, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    Weights::from_text(&text, variant, G::default_weights(variant).table).map_err(|e| format!("{}: {e}", path.display()))
}

struct DatagenVisit<'a>(&'a DatagenArgs, Option<&'a std::path::Path>);

impl GameVisitor for DatagenVisit<'_> {
    type Output = Result<DatagenSummary, DatagenError>;
    fn visit<G: GameInfo>(self, variant: &'static str) -> Self::Output {
        let mut args = self.0.clone();
        if let Some(p) = self.1 {
            args.weights = Some(Arc::new(read_weights::<G>(variant, p).map_err(DatagenError::Args)?));
        }
        datagen::run::<G>(variant, &args)
    }
}

/// `tetrarch datagen`: plays the games and writes the file; `weights`, a
/// weights file to play with.
pub fn datagen_main(args: &DatagenArgs, weights: Option<&std::path::Path>) -> Result<DatagenSummary, DatagenError> {
    with_variant(&args.variant, DatagenVisit(args, weights)).unwrap_or_else(|| {
        Err(DatagenError::Args(format!(
            "unknown variant `{}` (known: {})",
            args.variant,
            tetrarch_match::games::variants().join(", ")
        )))
    })
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
    type Output = Result<(), String>;
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
            let d = data::read(path).map_err(|e| e.to_string())?;
            if d.header.variant != variant {
                return Err(format!("{}: data of variant `{}`, not `{variant}`", path.display(), d.header.variant));
            }
            let ffa = match d.samples.first() {
                Some(s) => {
                    let p = G::from_position_string(&s.pos, &opts).map_err(|e| format!("{}: {e}", path.display()))?;
                    tetrarch_match::games::format_of(&p) == tetrarch_match::games::Format::FreeForAll
                }
                None => continue,
            };
            free_for_all.get_or_insert(ffa);
            for (game, row) in tune::rows_of::<G>(&d.samples, &opts, ffa).map_err(|e| format!("{}: {e}", path.display()))? {
                held_out.push(tune::is_held_out(game ^ d.header.seed.rotate_left(17) ^ (fi as u64) << 48));
                rows.push(row);
            }
        }
        if rows.is_empty() {
            return Err("no positions in the data files".into());
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
        std::fs::write(&args.out, text).map_err(|e| format!("{}: {e}", args.out.display()))?;
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
pub fn tune_main(args: &TuneArgs, say: &mut dyn FnMut(&str)) -> Result<(), String> {
    with_variant(&args.variant, TuneVisit(args, say)).unwrap_or_else(|| {
        Err(format!("unknown variant `{}` (known: {})", args.variant, tetrarch_match::games::variants().join(", ")))
    })
}
