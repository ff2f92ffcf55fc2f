//! The calibrated table of a variant (`DIR/<variant>.json`): the Elo of
//! every rung of the ladder, read by the engine for `UCI_Elo`
//! ([`Table::level_for_elo`]) and by the plot.
//!
//! The interpolation is over the *level curve*: the table's level rows
//! (level `k` at `x = k`) and its `full` row (at `x = 20`), in ladder
//! order, the random anchor left out. A measured curve can dip (a level a
//! little weaker than the one below it, within its error); the curve is
//! made monotone by taking the running maximum of the Elos in ladder
//! order, so a dip becomes a flat stretch, and on a flat stretch
//! [`Table::level_for_elo`] answers its lowest level. Both functions are
//! therefore deterministic and [`Table::level_for_elo`] is the inverse of
//! [`Table::elo_of_level`] wherever the curve rises.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The highest skill level a table row may name (`full` is level 20 on
/// the curve; the ladder's levels stop at 19).
pub const MAX_TABLE_LEVEL: u8 = 20;

/// The largest Elo (and error, and difference) a table may hold, either
/// way: far beyond any real ladder, and small enough that the
/// interpolation's arithmetic cannot overflow.
pub const MAX_ELO: f64 = 1e6;

/// The skill level of `full` on the level curve.
pub const FULL_LEVEL: f64 = 20.0;

/// A rung of the ladder: the uniform-random anchor, a skill level, or the
/// engine at full strength. Ordered as the ladder climbs: `Random` <
/// `Level(0)` < … < `Level(20)` < `Full`. In JSON: `"random"`, the level
/// as a number, `"full"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rung {
    /// `tetrarch --random`: a uniform-random player of legal turns, Elo 0.
    Random,
    /// The engine with `Skill Level` set to this level.
    Level(u8),
    /// The engine with no skill option.
    Full,
}

impl Rung {
    /// Its place on the level curve: the level, 20 for `full`, `None` for
    /// the random anchor.
    pub fn level(self) -> Option<f64> {
        match self {
            Rung::Random => None,
            Rung::Level(k) => Some(k as f64),
            Rung::Full => Some(FULL_LEVEL),
        }
    }
}

impl fmt::Display for Rung {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rung::Random => f.write_str("random"),
            Rung::Level(k) => write!(f, "L{k}"),
            Rung::Full => f.write_str("full"),
        }
    }
}

impl Serialize for Rung {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Rung::Random => s.serialize_str("random"),
            Rung::Level(k) => s.serialize_u8(*k),
            Rung::Full => s.serialize_str("full"),
        }
    }
}

impl<'de> Deserialize<'de> for Rung {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Rung, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = Rung;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "\"random\", a skill level 0..={MAX_TABLE_LEVEL} or \"full\"")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Rung, E> {
                match v {
                    "random" => Ok(Rung::Random),
                    "full" => Ok(Rung::Full),
                    _ => Err(E::invalid_value(serde::de::Unexpected::Str(v), &self)),
                }
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Rung, E> {
                match u8::try_from(v) {
                    Ok(k) if k <= MAX_TABLE_LEVEL => Ok(Rung::Level(k)),
                    _ => Err(E::invalid_value(serde::de::Unexpected::Unsigned(v), &self)),
                }
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Rung, E> {
                match u64::try_from(v) {
                    Ok(u) => self.visit_u64(u),
                    Err(_) => Err(E::invalid_value(serde::de::Unexpected::Signed(v), &self)),
                }
            }
        }
        d.deserialize_any(V)
    }
}

/// One rung's Elo.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// The rung.
    pub rung: Rung,
    /// Its Elo (the random anchor's is 0).
    pub elo: f64,
    /// The 95 % error of the Elo (1.96 σ; 0 for the anchor).
    pub error: f64,
    /// Games it played in the calibration.
    pub games: u64,
}

/// Two neighbouring rungs of the ladder.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Step {
    /// The lower rung.
    pub lower: Rung,
    /// The rung above it.
    pub upper: Rung,
    /// Elo of `upper` − Elo of `lower` (from the fit of all the games).
    pub diff: f64,
    /// The 95 % error of the difference (1.96 σ, with the covariance).
    pub error: f64,
    /// The score of `upper` against `lower` in their direct games (0..=1).
    pub score: f64,
    /// Their direct games.
    pub games: u64,
}

/// A variant's calibrated table: `DIR/<variant>.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Table {
    /// The variant.
    pub variant: String,
    /// The reference: the `--each` words every rung was given (its
    /// limit, e.g. `nodes=20000`).
    pub reference: Vec<String>,
    /// The command line that made the table.
    pub command: String,
    /// The ladder's `--seed`.
    pub seed: u64,
    /// The rungs: `random`, the levels ascending, `full`.
    pub rows: Vec<Row>,
    /// Each pair of neighbouring rungs, in ladder order.
    pub neighbours: Vec<Step>,
}

/// Why a table file is refused.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum TableError {
    /// Not JSON, or not a table (a field missing or of the wrong type, a
    /// rung that is none).
    #[error("not a calibration table: {0}")]
    Json(String),
    /// Rows out of ladder order (or a rung twice).
    #[error("row {index}: `{rung}` after `{previous}` (rows go random, the levels ascending, full; each once)")]
    Unsorted {
        /// The row (0-based).
        index: usize,
        /// The rung before it.
        previous: Rung,
        /// Its rung.
        rung: Rung,
    },
    /// A number out of its range: an Elo, error or difference that is not
    /// finite or beyond ±[`MAX_ELO`], an error below 0, a score outside
    /// 0..=1.
    #[error("{what}: {value} (must be in {range})")]
    Number {
        /// Which number (`row 3 elo`, `neighbour 1 error`, …).
        what: String,
        /// Its value.
        value: f64,
        /// The range it must be in.
        range: &'static str,
    },
    /// A neighbour whose `upper` is not above its `lower`.
    #[error("neighbour {index}: `{upper}` is not above `{lower}`")]
    Step {
        /// The neighbour (0-based).
        index: usize,
        /// Its lower rung.
        lower: Rung,
        /// Its upper rung.
        upper: Rung,
    },
    /// No level row and no `full` row: nothing to interpolate.
    #[error("no level or full row")]
    NoLevels,
}

impl Table {
    /// Reads a table from its JSON text, with its checks: rows in ladder
    /// order (random, the levels ascending, full; each at most once),
    /// every number finite (Elos and errors within ±[`MAX_ELO`], errors
    /// at least 0, scores in 0..=1), at least one level or full row, every
    /// neighbour's `upper` above its `lower`.
    pub fn parse(text: &str) -> Result<Table, TableError> {
        let t: Table = serde_json::from_str(text).map_err(|e| TableError::Json(e.to_string()))?;
        // Each check is `(lowest, highest, its words)`.
        const ELO: (f64, f64, &str) = (-MAX_ELO, MAX_ELO, "±1e6");
        const ERROR: (f64, f64, &str) = (0.0, MAX_ELO, "0..=1e6");
        const SCORE: (f64, f64, &str) = (0.0, 1.0, "0..=1");
        let num = |what: String, value: f64, (lo, hi, range): (f64, f64, &'static str)| {
            // NaN is in no range.
            if (lo..=hi).contains(&value) {
                Ok(())
            } else {
                Err(TableError::Number { what, value, range })
            }
        };
        for (i, r) in t.rows.iter().enumerate() {
            if i > 0 && t.rows[i - 1].rung >= r.rung {
                return Err(TableError::Unsorted { index: i, previous: t.rows[i - 1].rung, rung: r.rung });
            }
            num(format!("row {i} elo"), r.elo, ELO)?;
            num(format!("row {i} error"), r.error, ERROR)?;
        }
        for (i, s) in t.neighbours.iter().enumerate() {
            if s.lower >= s.upper {
                return Err(TableError::Step { index: i, lower: s.lower, upper: s.upper });
            }
            num(format!("neighbour {i} diff"), s.diff, (-2.0 * MAX_ELO, 2.0 * MAX_ELO, "±2e6"))?;
            num(format!("neighbour {i} error"), s.error, ERROR)?;
            num(format!("neighbour {i} score"), s.score, SCORE)?;
        }
        if t.curve().is_empty() {
            return Err(TableError::NoLevels);
        }
        Ok(t)
    }

    /// The table as pretty JSON (fields in the structs' order), ending
    /// with a newline.
    pub fn to_json(&self) -> String {
        // A table of finite numbers always serialises (the derive writes
        // no map with non-string keys).
        serde_json::to_string_pretty(self).unwrap_or_default() + "\n"
    }

    /// The level curve: `(level, Elo)` of the level rows and `full` (at
    /// 20), in ladder order, the Elos replaced by their running maximum.
    pub fn curve(&self) -> Vec<(f64, f64)> {
        let mut out: Vec<(f64, f64)> = Vec::new();
        let mut max = f64::NEG_INFINITY;
        for r in &self.rows {
            if let Some(x) = r.rung.level() {
                max = max.max(r.elo);
                out.push((x, max));
            }
        }
        out
    }

    /// The skill level (fractional, 0.0..=20.0, full = 20.0) whose Elo,
    /// interpolated linearly between the table's level rows (random
    /// excluded; full counts as level 20), is `elo`; clamped to the lowest
    /// level / 20.0. The curve is the running maximum of the rows' Elos
    /// (see the module's docs): on a flat stretch the lowest level that
    /// reaches `elo` is the answer. A NaN `elo` gives the lowest level.
    pub fn level_for_elo(&self, elo: f64) -> f64 {
        let c = self.curve();
        let Some(&(x0, e0)) = c.first() else { return FULL_LEVEL };
        if elo.is_nan() || elo <= e0 {
            return x0;
        }
        for w in c.windows(2) {
            let ((xa, ea), (xb, eb)) = (w[0], w[1]);
            if elo <= eb {
                // ea < elo <= eb, so eb > ea.
                return (xa + (xb - xa) * (elo - ea) / (eb - ea)).clamp(xa, xb);
            }
        }
        FULL_LEVEL
    }

    /// The Elo of a (fractional) skill level, interpolated the same way:
    /// linearly on the level curve, clamped to its ends (below the lowest
    /// level its Elo, above the highest level row the highest Elo). A NaN
    /// level gives the lowest level's Elo.
    pub fn elo_of_level(&self, level: f64) -> f64 {
        let c = self.curve();
        let Some(&(x0, e0)) = c.first() else { return 0.0 };
        if level.is_nan() || level <= x0 {
            return e0;
        }
        for w in c.windows(2) {
            let ((xa, ea), (xb, eb)) = (w[0], w[1]);
            if level <= xb {
                return if xb > xa { (ea + (eb - ea) * (level - xa) / (xb - xa)).clamp(ea, eb) } else { eb };
            }
        }
        c[c.len() - 1].1
    }

    /// The UCI_Elo range: (lowest level's Elo rounded down, full's Elo
    /// rounded up), both read on the level curve (so a `full` below a level
    /// gives that level's Elo, and the range is never reversed). Rounded
    /// outwards, so that the range's ends are the curve's ends: its lowest
    /// value plays the lowest level and its highest the full engine (a
    /// `full` of 1671.4 rounded to 1671 would play level 19.99).
    pub fn elo_range(&self) -> (i64, i64) {
        let c = self.curve();
        match (c.first(), c.last()) {
            (Some(a), Some(b)) => (a.1.floor() as i64, b.1.ceil() as i64),
            _ => (0, 0),
        }
    }
}
