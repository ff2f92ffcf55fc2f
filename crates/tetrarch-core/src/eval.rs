//! Evaluation weights, kept in one place per game, and the one way every
//! game's evaluation is written: as **features** (how often each weighted
//! pattern occurs) sent to an [`EvalSink`].
//!
//! A game declares its weights once with [`weights!`](crate::weights!): a name per weight
//! (`group.name`, where `group` is the term `eval` prints), its default, and
//! whether the tuner may change it. Tables (a weight per value of a computed
//! quantity, a piece-square table) are one entry with a length; their
//! entries are named `group.name.3`.
//!
//! The game's evaluation is one function, `eval_features(seat, sink)`, that
//! calls `sink.add(weight, count)` for every feature. The same function
//! serves three sinks:
//! - [`Dot`]: the value (`Σ weight × count`), what the search uses;
//! - [`FeatureList`]: the features themselves, what the tuner fits;
//! - [`Terms`]: the value per group, what `eval` prints.
//!
//! So the value is linear in the weights by construction, and the tuner's
//! model is exactly the engine's evaluation.
//!
//! A [`Weights`] value holds one set of weights for one variant. It is
//! written to and read from a small text file (`tetrarch tune` writes it,
//! `setoption name EvalFile` reads it); see [`Weights::to_text`].

use std::fmt::Write as _;

/// Where a game's evaluation sends its features.
pub trait EvalSink {
    /// Feature `weight` occurs `count` times (negative: counts against).
    fn add(&mut self, weight: usize, count: i32);
    /// Divides the value by `d` (> 0), once, after every feature: an
    /// evaluation that averages over several seats (Quadranj's "the seat
    /// minus the average of the others") counts in whole units and divides
    /// at the end.
    fn divide(&mut self, d: i32);
}

/// A sink that keeps nothing (for code that wants only what an evaluation
/// computes on the side).
pub struct Discard;

impl EvalSink for Discard {
    #[inline(always)]
    fn add(&mut self, _: usize, _: i32) {}
    #[inline(always)]
    fn divide(&mut self, _: i32) {}
}

/// The value of an evaluation under some weights.
pub struct Dot<'w> {
    w: &'w [i32],
    /// The sum so far.
    pub total: i32,
}

impl<'w> Dot<'w> {
    /// A sum over `w`, starting at 0.
    #[inline(always)]
    pub fn new(w: &'w Weights) -> Self {
        Dot { w: &w.values, total: 0 }
    }
}

impl EvalSink for Dot<'_> {
    #[inline(always)]
    fn add(&mut self, weight: usize, count: i32) {
        self.total += self.w[weight] * count;
    }
    #[inline(always)]
    fn divide(&mut self, d: i32) {
        self.total /= d;
    }
}

/// The features of an evaluation: (weight index, count), in the order the
/// evaluation sent them (an index may repeat), and the divisor of the value.
#[derive(Clone, Debug)]
pub struct FeatureList {
    /// (weight index, count).
    pub features: Vec<(u32, i32)>,
    /// The value is `Σ weight × count / divisor`.
    pub divisor: i32,
}

impl Default for FeatureList {
    fn default() -> Self {
        FeatureList { features: Vec::new(), divisor: 1 }
    }
}

impl EvalSink for FeatureList {
    fn add(&mut self, weight: usize, count: i32) {
        if count != 0 {
            self.features.push((weight as u32, count));
        }
    }
    fn divide(&mut self, d: i32) {
        self.divisor *= d;
    }
}

impl FeatureList {
    /// Empties the list for the next position.
    pub fn clear(&mut self) {
        self.features.clear();
        self.divisor = 1;
    }

    /// The features with repeated indices merged and zero counts dropped,
    /// sorted by index (the divisor is not applied).
    pub fn merged(&self) -> Vec<(u32, i32)> {
        let mut f = self.features.clone();
        f.sort_unstable_by_key(|f| f.0);
        let mut out: Vec<(u32, i32)> = Vec::with_capacity(f.len());
        for (i, c) in f {
            match out.last_mut() {
                Some(last) if last.0 == i => last.1 += c,
                _ => out.push((i, c)),
            }
        }
        out.retain(|f| f.1 != 0);
        out
    }
}

/// The value per group of weights (the terms `eval` prints).
pub struct Terms<'w> {
    w: &'w Weights,
    /// (group, value) in the order of the table.
    pub groups: Vec<(&'static str, i32)>,
}

impl<'w> Terms<'w> {
    /// Every group of `w`'s table at 0.
    pub fn new(w: &'w Weights) -> Self {
        let mut groups: Vec<(&'static str, i32)> = Vec::new();
        for s in w.table.specs {
            if !groups.iter().any(|g| g.0 == s.group()) {
                groups.push((s.group(), 0));
            }
        }
        Terms { w, groups }
    }
}

impl EvalSink for Terms<'_> {
    fn add(&mut self, weight: usize, count: i32) {
        let group = self.w.table.spec_of(weight).group();
        let v = self.w.values[weight] * count;
        if let Some(g) = self.groups.iter_mut().find(|g| g.0 == group) {
            g.1 += v;
        }
    }
    fn divide(&mut self, d: i32) {
        for g in &mut self.groups {
            g.1 /= d;
        }
    }
}

/// One entry of a weight table: a single weight or a table of them.
#[derive(Clone, Copy, Debug)]
pub struct Spec {
    /// `group.name`; the group is the term `eval` prints.
    pub name: &'static str,
    /// Index of the first weight.
    pub index: usize,
    /// Number of weights (1 for a single weight).
    pub len: usize,
    /// Whether the tuner may change it (a rule value such as "a side
    /// without its King has lost" is not a guess to fit).
    pub tune: bool,
}

impl Spec {
    /// The group (the part of the name before the first `.`).
    pub fn group(&self) -> &'static str {
        self.name.split('.').next().unwrap_or(self.name)
    }
}

/// A game's weight table: what its weights are called and their defaults.
#[derive(Debug)]
pub struct Table {
    /// The game (for messages).
    pub game: &'static str,
    /// The entries, in index order.
    pub specs: &'static [Spec],
    /// Number of weights.
    pub len: usize,
    /// The compiled-in defaults, flat.
    pub defaults: fn() -> Vec<i32>,
}

impl Table {
    /// The entry holding weight `index`.
    pub fn spec_of(&self, index: usize) -> &Spec {
        let k = self.specs.partition_point(|s| s.index + s.len <= index);
        &self.specs[k.min(self.specs.len() - 1)]
    }

    /// The name of weight `index`: the entry's name, with `.k` for table
    /// entries.
    pub fn name_of(&self, index: usize) -> String {
        let s = self.spec_of(index);
        if s.len == 1 {
            s.name.to_string()
        } else {
            format!("{}.{}", s.name, index - s.index)
        }
    }

    /// Whether weight `index` may be tuned.
    pub fn tunable(&self, index: usize) -> bool {
        self.spec_of(index).tune
    }

    /// Every weight's name, in index order.
    pub fn names(&self) -> Vec<String> {
        (0..self.len).map(|i| self.name_of(i)).collect()
    }
}

/// One set of evaluation weights for one variant.
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    /// The variant these weights are for.
    pub variant: &'static str,
    /// The game's table.
    pub table: &'static Table,
    /// The values, flat, in the table's order.
    pub values: Vec<i32>,
}

impl PartialEq for Table {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self, other)
    }
}

/// The largest absolute value a weights file may give a weight.
pub const MAX_WEIGHT: i32 = 1_000_000;

/// Why a weights file was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WeightsError {
    /// The first line is not the format's header.
    #[error("not a Tetrarch weights file (the first line must be `tetrarch-weights 1`)")]
    NotWeights,
    /// No `variant` line before the weights.
    #[error("line {line}: expected `variant <name>`")]
    NoVariant {
        /// 1-based line number.
        line: usize,
    },
    /// The file is for another variant.
    #[error("the file is for variant `{found}`, not `{expected}`")]
    WrongVariant {
        /// The variant in force.
        expected: String,
        /// The file's.
        found: String,
    },
    /// A line is not `name value`.
    #[error("line {line}: expected `<name> <value>`, found `{text}`")]
    Malformed {
        /// 1-based line number.
        line: usize,
        /// The line (shortened).
        text: String,
    },
    /// A name the game does not have.
    #[error("line {line}: unknown weight `{name}`")]
    Unknown {
        /// 1-based line number.
        line: usize,
        /// The name.
        name: String,
    },
    /// A weight given twice.
    #[error("line {line}: weight `{name}` given twice")]
    Duplicate {
        /// 1-based line number.
        line: usize,
        /// The name.
        name: String,
    },
    /// A value out of range.
    #[error("line {line}: value of `{name}` is not an integer within ±{MAX_WEIGHT}")]
    BadValue {
        /// 1-based line number.
        line: usize,
        /// The name.
        name: String,
    },
    /// Weights are missing (a truncated file).
    #[error("{count} weights missing (the first: `{first}`); the file is truncated or for another version")]
    Missing {
        /// How many.
        count: usize,
        /// The first missing name.
        first: String,
    },
    /// No `end` line (a truncated file).
    #[error("no `end` line: the file is truncated")]
    NoEnd,
    /// Text after `end`.
    #[error("line {line}: text after `end`")]
    AfterEnd {
        /// 1-based line number.
        line: usize,
    },
}

const HEADER: &str = "tetrarch-weights 1";

impl Weights {
    /// The table's defaults for `variant`.
    pub fn defaults(variant: &'static str, table: &'static Table) -> Self {
        Weights { variant, table, values: (table.defaults)() }
    }

    /// A tuned set committed beside a game's code (`include_str!` of a file
    /// `tetrarch tune` wrote), the game's compiled default. The file is the
    /// project's own, checked by each game's tests, so a bad one is a bug:
    /// it panics with the parser's message.
    pub fn committed(text: &str, variant: &'static str, table: &'static Table) -> Self {
        Weights::from_text(text, variant, table).unwrap_or_else(|e| panic!("the committed {variant} weights do not load: {e}"))
    }

    /// The same weights with some values replaced (`(name, value)`, names as
    /// in [`Table::name_of`]); unknown names are an error.
    pub fn with(mut self, changes: &[(&str, i32)]) -> Result<Self, WeightsError> {
        for (name, v) in changes {
            let i = (0..self.table.len)
                .find(|&i| self.table.name_of(i) == *name)
                .ok_or_else(|| WeightsError::Unknown { line: 0, name: name.to_string() })?;
            self.values[i] = *v;
        }
        Ok(self)
    }

    /// The file form: a header, the variant, one `name value` line per
    /// weight in table order, and `end`.
    pub fn to_text(&self) -> String {
        let mut s = format!("{HEADER}\nvariant {}\n", self.variant);
        for (i, v) in self.values.iter().enumerate() {
            let _ = writeln!(s, "{} {v}", self.table.name_of(i));
        }
        s.push_str("end\n");
        s
    }

    /// Reads the file form for `variant` of the game with `table`: every
    /// weight exactly once, nothing unknown, `end` last. Comments (`#`) and
    /// blank lines are allowed.
    pub fn from_text(text: &str, variant: &'static str, table: &'static Table) -> Result<Self, WeightsError> {
        let mut lines = text
            .lines()
            .enumerate()
            .map(|(n, l)| (n + 1, l.split('#').next().unwrap_or("").trim()))
            .filter(|(_, l)| !l.is_empty());
        match lines.next() {
            Some((_, l)) if l.split_whitespace().collect::<Vec<_>>().join(" ") == HEADER => {}
            _ => return Err(WeightsError::NotWeights),
        }
        match lines.next() {
            Some((line, l)) => {
                let w: Vec<&str> = l.split_whitespace().collect();
                match w[..] {
                    ["variant", v] if v == variant => {}
                    ["variant", v] => return Err(WeightsError::WrongVariant { expected: variant.into(), found: v.into() }),
                    _ => return Err(WeightsError::NoVariant { line }),
                }
            }
            None => return Err(WeightsError::NoVariant { line: 2 }),
        }
        let names = table.names();
        let mut values: Vec<Option<i32>> = vec![None; table.len];
        let mut ended = false;
        for (line, l) in lines {
            if ended {
                return Err(WeightsError::AfterEnd { line });
            }
            if l == "end" {
                ended = true;
                continue;
            }
            let w: Vec<&str> = l.split_whitespace().collect();
            let [name, value] = w[..] else {
                return Err(WeightsError::Malformed { line, text: l.chars().take(60).collect() });
            };
            let i = names
                .iter()
                .position(|n| n == name)
                .ok_or_else(|| WeightsError::Unknown { line, name: name.chars().take(60).collect() })?;
            let v = value
                .parse::<i32>()
                .ok()
                .filter(|v| v.abs() <= MAX_WEIGHT)
                .ok_or_else(|| WeightsError::BadValue { line, name: name.into() })?;
            if values[i].replace(v).is_some() {
                return Err(WeightsError::Duplicate { line, name: name.into() });
            }
        }
        if !ended {
            return Err(WeightsError::NoEnd);
        }
        let missing: Vec<usize> = (0..table.len).filter(|&i| values[i].is_none()).collect();
        if let Some(&first) = missing.first() {
            return Err(WeightsError::Missing { count: missing.len(), first: names[first].clone() });
        }
        Ok(Weights { variant, table, values: values.into_iter().map(|v| v.unwrap_or(0)).collect() })
    }
}

/// Puts a default (a single value or an array) into a flat list.
pub trait PushDefault {
    /// Appends the values.
    fn push_to(&self, out: &mut Vec<i32>);
}

impl PushDefault for i32 {
    fn push_to(&self, out: &mut Vec<i32>) {
        out.push(*self);
    }
}

impl<const N: usize> PushDefault for [i32; N] {
    fn push_to(&self, out: &mut Vec<i32>) {
        out.extend_from_slice(self);
    }
}

/// Declares a game's weight table: a module `$m` with a `usize` constant per
/// entry (its index; a table's first index), `LEN`, `SPECS` and `TABLE`.
///
/// ```ignore
/// tetrarch_core::weights! {
///     pub mod w for "teamchess" {
///         PAWN: "material.pawn" = 100;
///         PST_KNIGHT: "pst.knight" [160] = super::PST_KNIGHT;
///         NO_KING: "king.none" fixed = -20_000;
///     }
/// }
/// ```
///
/// Defaults are expressions evaluated in the module (use `super::` for
/// items of the game's module); a table's default is an `[i32; N]`.
#[macro_export]
macro_rules! weights {
    (
        $(#[$meta:meta])*
        $vis:vis mod $m:ident for $game:literal {
            $( $(#[$im:meta])* $id:ident : $name:literal $([$len:expr])? $($fixed:ident)? = $def:expr ; )*
        }
    ) => {
        $(#[$meta])*
        #[allow(missing_docs, non_upper_case_globals)]
        $vis mod $m {
            #[allow(unused_imports)]
            use super::*;
            $crate::weights!(@idx 0usize; $( $id ($crate::weights!(@len $($len)?)) ),* );
            /// The entries of the table.
            pub static SPECS: &[$crate::eval::Spec] = &[
                $( $crate::eval::Spec {
                    name: $name,
                    index: $id,
                    len: $crate::weights!(@len $($len)?),
                    tune: $crate::weights!(@tune $($fixed)?),
                }, )*
            ];
            fn defaults() -> ::std::vec::Vec<i32> {
                let mut v = ::std::vec::Vec::with_capacity(LEN);
                $( $crate::eval::PushDefault::push_to(&$def, &mut v); )*
                assert_eq!(v.len(), LEN, "weight defaults of {}", $game);
                v
            }
            /// The table.
            pub static TABLE: $crate::eval::Table =
                $crate::eval::Table { game: $game, specs: SPECS, len: LEN, defaults };
        }
    };
    (@len) => { 1usize };
    (@len $len:expr) => { $len };
    (@tune) => { true };
    (@tune fixed) => { false };
    (@idx $off:expr; ) => {
        /// Number of weights.
        pub const LEN: usize = $off;
    };
    (@idx $off:expr; $id:ident ($len:expr) $(, $rid:ident ($rlen:expr))* ) => {
        pub const $id: usize = $off;
        $crate::weights!(@idx $id + $len; $( $rid ($rlen) ),* );
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    const TBL: [i32; 3] = [1, 2, 3];
    crate::weights! {
        mod w for "test" {
            A: "alpha.a" = 10;
            T: "beta.t" [3] = super::TBL;
            F: "alpha.f" fixed = -7;
        }
    }

    fn weights() -> Weights {
        Weights::defaults("test", &w::TABLE)
    }

    #[test]
    fn indices_names_and_defaults() {
        assert_eq!((w::A, w::T, w::F, w::LEN), (0, 1, 4, 5));
        let ws = weights();
        assert_eq!(ws.values, vec![10, 1, 2, 3, -7]);
        assert_eq!(w::TABLE.names(), vec!["alpha.a", "beta.t.0", "beta.t.1", "beta.t.2", "alpha.f"]);
        assert!(w::TABLE.tunable(2) && !w::TABLE.tunable(4));
    }

    #[test]
    fn sinks_agree() {
        let ws = weights();
        let feed = |s: &mut dyn EvalSink| {
            s.add(w::A, 2);
            s.add(w::T + 2, -1);
            s.add(w::F, 1);
            s.add(w::A, 1);
            s.divide(1);
        };
        let mut d = Dot::new(&ws);
        feed(&mut d);
        assert_eq!(d.total, 30 - 3 - 7);
        let mut t = Terms::new(&ws);
        feed(&mut t);
        assert_eq!(t.groups, vec![("alpha", 23), ("beta", -3)]);
        let mut f = FeatureList::default();
        feed(&mut f);
        assert_eq!(f.merged(), vec![(0, 3), (3, -1), (4, 1)]);
        // A divisor divides the value (rounding towards zero) and is kept
        // with the features.
        let mut d = Dot::new(&ws);
        d.add(w::A, 1);
        d.add(w::T, 1);
        d.divide(4);
        assert_eq!(d.total, 2);
        let mut f = FeatureList::default();
        f.add(w::A, 1);
        f.divide(2);
        f.divide(2);
        assert_eq!(f.divisor, 4);
    }

    #[test]
    fn text_round_trip() {
        let ws = weights().with(&[("beta.t.1", 42), ("alpha.a", -5)]).unwrap();
        let text = ws.to_text();
        let back = Weights::from_text(&text, "test", &w::TABLE).unwrap();
        assert_eq!(back, ws);
        assert_eq!(back.values, vec![-5, 1, 42, 3, -7]);
    }

    #[test]
    fn bad_files_are_refused() {
        let good = weights().to_text();
        let err = |t: &str| Weights::from_text(t, "test", &w::TABLE).unwrap_err();
        assert_eq!(err(""), WeightsError::NotWeights);
        assert_eq!(err("hello\n"), WeightsError::NotWeights);
        assert!(matches!(err(&good.replace("variant test", "variant other")), WeightsError::WrongVariant { .. }));
        // Truncated: cut anywhere before the end.
        let cut = &good[..good.len() - 4];
        assert_eq!(err(cut), WeightsError::NoEnd);
        let no_last = good.replace("alpha.f -7\n", "");
        assert!(matches!(err(&no_last), WeightsError::Missing { count: 1, .. }));
        assert!(matches!(err(&good.replace("alpha.a 10", "alpha.a ten")), WeightsError::BadValue { .. }));
        assert!(matches!(err(&good.replace("alpha.a 10", "alpha.a 99999999")), WeightsError::BadValue { .. }));
        assert!(matches!(err(&good.replace("alpha.a 10", "gamma 1")), WeightsError::Unknown { .. }));
        assert!(matches!(err(&good.replace("alpha.a 10", "alpha.a 1 2")), WeightsError::Malformed { .. }));
        assert!(matches!(err(&good.replace("beta.t.0 1", "alpha.a 1")), WeightsError::Duplicate { .. }));
        assert!(matches!(err(&format!("{good}alpha.a 1\n")), WeightsError::AfterEnd { .. }));
        // Comments and blank lines are fine.
        let commented = good.replace("variant test\n", "variant test\n\n# tuned\n");
        assert_eq!(Weights::from_text(&commented, "test", &w::TABLE).unwrap(), weights());
    }
}
