//! The search's tunable numbers and feature switches as data
//! ([`SearchParams`]): every one has a name, a default, a range and a step
//! (for an SPSA tuner), listed by [`SearchParams::specs`], so that a tuner
//! and the protocol (`setoption name Search_<Name>`) read and set them by
//! name. The search reads them from plain fields, never by name.
//!
//! A game may override defaults by name through
//! [`SearchHints::SEARCH_PARAMS`](tetrarch_core::game::SearchHints::SEARCH_PARAMS)
//! ([`SearchParams::for_game`]); the game knows the names only, not the
//! search. `docs/search.md`, "Search parameters", lists them.

use tetrarch_core::game::SearchHints;

/// Why a parameter cannot be read or set; nothing is changed then.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParamError {
    /// No parameter has that name.
    #[error("unknown search parameter `{0}`")]
    Unknown(String),
    /// The value is outside the parameter's range.
    #[error("search parameter {name}: {value} is out of range {min}..{max}")]
    OutOfRange {
        /// The parameter.
        name: &'static str,
        /// The value given.
        value: i64,
        /// The lowest value.
        min: i32,
        /// The highest value.
        max: i32,
    },
    /// In the text form, a value that is not an integer.
    #[error("search parameter {name}: `{value}` is not an integer")]
    NotInteger {
        /// The parameter.
        name: &'static str,
        /// The value given.
        value: String,
    },
    /// In the text form, an item that is not `name=value`.
    #[error("`{0}` is not name=value")]
    Syntax(String),
}

/// One parameter: its name, its default (the search's own, before a game's
/// overrides), its range and a step for a tuner (the size of a change that
/// should show, OpenBench's `c_end`).
#[derive(Clone, Copy, Debug)]
pub struct ParamSpec {
    /// The name (`setoption name Search_<name>`; case-insensitive).
    pub name: &'static str,
    /// The search's default.
    pub default: i32,
    /// The lowest value.
    pub min: i32,
    /// The highest value.
    pub max: i32,
    /// A tuner's step.
    pub step: i32,
    /// A feature switch: 1 on, 0 off (`TETRARCH_SEARCH_OFF` names these).
    pub switch: bool,
    /// What it does.
    pub help: &'static str,
    get: fn(&SearchParams) -> i32,
    set: fn(&mut SearchParams, i32),
}

impl ParamSpec {
    /// This parameter's value in `p`.
    pub fn get(&self, p: &SearchParams) -> i32 {
        (self.get)(p)
    }
}

/// The value types a parameter field has.
trait Value: Copy {
    /// A switch (0 or 1).
    const SWITCH: bool;
    fn to_i32(self) -> i32;
    fn from_i32(v: i32) -> Self;
}

impl Value for i32 {
    const SWITCH: bool = false;
    fn to_i32(self) -> i32 {
        self
    }
    fn from_i32(v: i32) -> Self {
        v
    }
}

impl Value for bool {
    const SWITCH: bool = true;
    fn to_i32(self) -> i32 {
        i32::from(self)
    }
    fn from_i32(v: i32) -> Self {
        v != 0
    }
}

macro_rules! params {
    ($( $field:ident: $ty:ty = $name:literal, $default:literal, $min:literal..=$max:literal, $step:literal, $help:literal; )+) => {
        /// Every tunable number and feature switch of the search, by field
        /// (the search reads these) and by name ([`SearchParams::specs`]).
        /// `Default` is the search's own defaults; a searcher starts from
        /// its game's ([`SearchParams::for_game`]).
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub struct SearchParams {
            $( #[doc = $help] pub $field: $ty, )+
        }

        impl Default for SearchParams {
            fn default() -> Self {
                SearchParams { $( $field: <$ty as Value>::from_i32($default), )+ }
            }
        }

        static SPECS: &[ParamSpec] = &[
            $( ParamSpec {
                name: $name,
                default: $default,
                min: $min,
                max: $max,
                step: $step,
                switch: <$ty as Value>::SWITCH,
                help: $help,
                get: |p| Value::to_i32(p.$field),
                set: |p, v| p.$field = <$ty as Value>::from_i32(v),
            }, )+
        ];
    };
}

params! {
    // Feature switches (1 on, 0 off), the words of `TETRARCH_SEARCH_OFF`.
    ext: bool = "Ext", 1, 0..=1, 1, "Switch: the check extension.";
    null: bool = "Null", 1, 0..=1, 1, "Switch: the null move.";
    lmr: bool = "Lmr", 1, 0..=1, 1, "Switch: logarithmic late move reductions (off: one action from the 4th quiet action).";
    evade: bool = "Evade", 1, 0..=1, 1, "Switch: in check in quiescence, every action and no stand pat.";
    qtt: bool = "Qtt", 1, 0..=1, 1, "Switch: the transposition table in quiescence.";
    fut: bool = "Fut", 1, 0..=1, 1, "Switch: futility pruning.";
    lmp: bool = "Lmp", 1, 0..=1, 1, "Switch: late-move pruning.";
    forced: bool = "Forced", 1, 0..=1, 1, "Switch: no stand pat in quiescence where every action is tactical.";
    cm: bool = "Cm", 1, 0..=1, 1, "Switch: the counter-move.";
    lmp_chk: bool = "LmpChk", 1, 0..=1, 1, "Switch: late-move pruning keeps the quiet actions that give check.";
    tm: bool = "Tm", 1, 0..=1, 1, "Switch: time by the best action's stability (off: the soft limit unscaled).";
    rfp: bool = "Rfp", 0, 0..=1, 1, "Switch: reverse futility pruning (a non-PV node whose static value stands RfpMargin x depth above beta is cut).";
    iir: bool = "Iir", 0, 0..=1, 1, "Switch: internal iterative reduction (a node from IirDepth with no action from the table is searched one ply less).";
    cap_hist: bool = "CapHist", 0, 0..=1, 1, "Switch: capture history (tactical actions also ordered by how each side's did before).";
    cont: bool = "Cont", 0, 0..=1, 1, "Switch: continuation history (quiet actions also ordered by what followed the actions one and two plies back).";
    improving: bool = "Improving", 0, 0..=1, 1, "Switch: the improving flag (the side to move's static value against its own at its last turn on the path) sets reverse futility's margin (RfpImp less when improving) and late-move pruning's count (LmpWorse percent of it when not).";
    probcut: bool = "ProbCut", 0, 0..=1, 1, "Switch: ProbCut (a non-PV node from ProbCutDepth is cut where a tactical action reaches beta + ProbCutMargin in quiescence and then searched ProbCutRed plies shallower).";
    // Tunable numbers.
    asp_depth: i32 = "AspDepth", 4, 1..=64, 1, "Aspiration windows from this depth.";
    asp_delta: i32 = "AspDelta", 30, 1..=1000, 5, "Aspiration window: half its first width (doubled on each fail).";
    asp_max: i32 = "AspMax", 600, 1..=10000, 50, "Aspiration window: a side goes to infinity once the width passes this.";
    null_depth: i32 = "NullDepth", 3, 1..=64, 1, "Null move from this depth.";
    null_base: i32 = "NullBase", 2, 0..=16, 1, "Null move reduction: NullBase + depth / NullDiv.";
    null_div: i32 = "NullDiv", 4, 1..=64, 1, "Null move reduction: NullBase + depth / NullDiv.";
    null_margin: i32 = "NullMargin", 0, 0..=1000, 10, "Null move only where the static value is at least beta + NullMargin.";
    fut_margin: i32 = "FutMargin", 250, 0..=2000, 25, "Futility margin at depth 1.";
    lmp_d1: i32 = "LmpD1", 6, 0..=255, 1, "Late-move pruning: quiet actions searched at depth 1.";
    lmp_d2: i32 = "LmpD2", 10, 0..=255, 1, "Late-move pruning: quiet actions searched at depth 2.";
    lmp_d3: i32 = "LmpD3", 16, 0..=255, 1, "Late-move pruning: quiet actions searched at depth 3.";
    lmp_deep: i32 = "LmpDeep", 0, 0..=64, 1, "Late-move pruning past depth 3 up to this depth (0: off): 3 + depth^2 x LmpDeepMul / 100 quiet actions.";
    lmp_deep_mul: i32 = "LmpDeepMul", 100, 10..=1000, 10, "Late-move pruning past depth 3: 3 + depth^2 x LmpDeepMul / 100 quiet actions.";
    rfp_depth: i32 = "RfpDepth", 5, 1..=64, 1, "Reverse futility pruning up to this depth.";
    rfp_margin: i32 = "RfpMargin", 120, 0..=2000, 10, "Reverse futility pruning: the margin per depth.";
    rfp_imp: i32 = "RfpImp", 50, 0..=1000, 10, "Reverse futility pruning: the margin this much smaller where the side is improving (with Improving on).";
    lmp_worse: i32 = "LmpWorse", 66, 10..=100, 5, "Late-move pruning: the count this percent of its own where the side is not improving (with Improving on).";
    iir_depth: i32 = "IirDepth", 4, 2..=64, 1, "Internal iterative reduction from this depth.";
    probcut_depth: i32 = "ProbCutDepth", 5, 2..=64, 1, "ProbCut from this depth.";
    probcut_margin: i32 = "ProbCutMargin", 200, 0..=2000, 10, "ProbCut: how far above beta a tactical action must reach.";
    probcut_red: i32 = "ProbCutRed", 4, 2..=16, 1, "ProbCut: the verifying search is this many plies shallower than the node.";
    lmr_base: i32 = "LmrBase", 75, -200..=400, 10, "Late move reduction: LmrBase/100 + ln(depth) ln(n) / (LmrDiv/100).";
    lmr_div: i32 = "LmrDiv", 200, 50..=1000, 15, "Late move reduction: LmrBase/100 + ln(depth) ln(n) / (LmrDiv/100).";
    lmr_depth: i32 = "LmrDepth", 3, 1..=64, 1, "Late move reductions from this depth.";
    lmr_hist: i32 = "LmrHist", 8192, 0..=16384, 512, "Late move reduction: one less above this history, one more below minus it.";
    cap_hist_div: i32 = "CapHistDiv", 2, 1..=64, 1, "Capture history: its entry (bounded by 16384) divided by this is added to a tactical action's order hint.";
    hist_bonus_max: i32 = "HistBonusMax", 400, 1..=512, 25, "History bonus: min(depth^2, HistBonusMax) x 32.";
    qs_max: i32 = "QsMax", 8, 1..=64, 1, "Quiescence plies at most (half of it in max^n).";
    qs_evade: i32 = "QsEvade", 2, 0..=64, 1, "Quiescence evades checks (every action) in its first this many plies.";
    maxn_scale: i32 = "MaxnScale", 300, 10..=3000, 25, "Max^n: a seat's evaluation to its share, logistic with this scale.";
    tm_soft: i32 = "TmSoft", 60, 10..=200, 5, "Time: no new iteration past this percentage of the soft limit (scaled by stability).";
    tm_changed: i32 = "TmChanged", 180, 10..=500, 10, "Time: the scale (percent) right after the best action changed.";
    tm_unsettled: i32 = "TmUnsettled", 120, 10..=500, 10, "Time: the scale (percent) when the best action held for 0 or 1 iterations.";
    tm_settled: i32 = "TmSettled", 80, 10..=500, 10, "Time: the scale (percent) when the best action held for 4 iterations or more.";
    tm_inc: i32 = "TmInc", 75, 0..=200, 5, "Time: the share (percent) of the increment in the soft limit.";
    tm_hard: i32 = "TmHard", 25, 1..=100, 5, "Time: the hard limit's share (percent) of the time left (plus the increment).";
}

impl SearchParams {
    /// Every parameter, switches first.
    pub fn specs() -> &'static [ParamSpec] {
        SPECS
    }

    /// The parameter called `name` (case-insensitive).
    pub fn spec(name: &str) -> Option<&'static ParamSpec> {
        SPECS.iter().find(|s| s.name.eq_ignore_ascii_case(name))
    }

    /// The defaults for game `G`: the search's, with the game's
    /// [`SearchHints::SEARCH_PARAMS`] over them.
    ///
    /// # Panics
    /// If the game's table names an unknown parameter or an out-of-range
    /// value (a bug in the game's table, which is fixed at compile time).
    pub fn for_game<G: SearchHints>() -> SearchParams {
        let mut p = SearchParams::default();
        if let Err(e) = p.set_all(G::SEARCH_PARAMS.iter().map(|&(n, v)| (n, i64::from(v)))) {
            panic!("the game's SEARCH_PARAMS: {e}");
        }
        p
    }

    /// The value of the parameter `name` (case-insensitive).
    pub fn get(&self, name: &str) -> Result<i32, ParamError> {
        Self::spec(name).map(|s| s.get(self)).ok_or_else(|| ParamError::Unknown(name.into()))
    }

    /// Sets the parameter `name` (case-insensitive); an unknown name or a
    /// value out of its range is an error and changes nothing.
    pub fn set(&mut self, name: &str, value: i64) -> Result<(), ParamError> {
        let s = Self::spec(name).ok_or_else(|| ParamError::Unknown(name.into()))?;
        if value < i64::from(s.min) || value > i64::from(s.max) {
            return Err(ParamError::OutOfRange { name: s.name, value, min: s.min, max: s.max });
        }
        (s.set)(self, value as i32);
        Ok(())
    }

    /// Sets every `(name, value)`, or none of them if one is refused.
    pub fn set_all<'n>(&mut self, values: impl IntoIterator<Item = (&'n str, i64)>) -> Result<(), ParamError> {
        let mut p = self.clone();
        for (n, v) in values {
            p.set(n, v)?;
        }
        *self = p;
        Ok(())
    }

    /// The text form: `Name=value`, one a line, every parameter.
    pub fn to_text(&self) -> String {
        SPECS.iter().map(|s| format!("{}={}\n", s.name, s.get(self))).collect()
    }

    /// Sets the parameters of a text form: `Name=value` items separated by
    /// white space or commas (what [`SearchParams::to_text`] writes, or a
    /// part of it); all or none.
    pub fn set_text(&mut self, text: &str) -> Result<(), ParamError> {
        let mut items = Vec::new();
        for item in text.split(|c: char| c.is_whitespace() || c == ',').filter(|w| !w.is_empty()) {
            let (n, v) = item.split_once('=').ok_or_else(|| ParamError::Syntax(item.into()))?;
            let s = Self::spec(n.trim()).ok_or_else(|| ParamError::Unknown(n.trim().into()))?;
            let v = v.trim().parse::<i64>().map_err(|_| ParamError::NotInteger { name: s.name, value: v.into() })?;
            items.push((s.name, v));
        }
        self.set_all(items)
    }

    /// The late move reduction table, `[depth * 64 + move number]` (both
    /// capped at 63): `LmrBase/100 + ln(depth) ln(n) / (LmrDiv/100)`,
    /// truncated, at least 0.
    pub(crate) fn lmr_table(&self) -> Vec<u8> {
        let base = f64::from(self.lmr_base) / 100.0;
        let div = f64::from(self.lmr_div) / 100.0;
        let mut t = vec![0u8; 64 * 64];
        for d in 1..64 {
            for i in 1..64 {
                let r = base + (d as f64).ln() * (i as f64).ln() / div;
                t[d * 64 + i] = r.max(0.0) as u8;
            }
        }
        t
    }

    /// Late-move pruning's limits by depth (0 to 3): quiet actions searched.
    pub(crate) fn lmp_limits(&self) -> [usize; 4] {
        [0, self.lmp_d1 as usize, self.lmp_d2 as usize, self.lmp_d3 as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_defaults_in_range() {
        let p = SearchParams::default();
        for (i, s) in SPECS.iter().enumerate() {
            assert!(s.min <= s.default && s.default <= s.max, "{}", s.name);
            assert_eq!(s.get(&p), s.default, "{}", s.name);
            assert!(s.step > 0, "{}", s.name);
            assert_eq!(s.switch, i < 17, "{}: the switches come first", s.name);
            // Every switch is on by default but Rfp, screened and rejected
            // at its first margins, and Iir, CapHist, Cont, Improving and
            // ProbCut, screened and not kept (docs/search.md).
            let off = ["Rfp", "Iir", "CapHist", "Cont", "Improving", "ProbCut"].contains(&s.name);
            assert!(!s.switch || (s.min, s.max, s.default) == (0, 1, i32::from(!off)), "{}", s.name);
            assert!(SPECS[..i].iter().all(|t| !t.name.eq_ignore_ascii_case(s.name)), "{} twice", s.name);
        }
    }

    /// The table the search used before the parameters (constants 0.75 and 2.0).
    #[test]
    fn default_lmr_table_is_the_old_one() {
        let t = SearchParams::default().lmr_table();
        for d in 1..64 {
            for i in 1..64 {
                let r = 0.75 + (d as f64).ln() * (i as f64).ln() / 2.0;
                assert_eq!(t[d * 64 + i], r.max(0.0) as u8);
            }
        }
        assert_eq!(SearchParams::default().lmp_limits(), [0, 6, 10, 16]);
    }

    #[test]
    fn round_trip_by_name() {
        let mut p = SearchParams::default();
        for s in SearchParams::specs() {
            for v in [s.min, s.max, s.default] {
                p.set(&s.name.to_ascii_lowercase(), i64::from(v)).unwrap();
                assert_eq!(p.get(s.name).unwrap(), v);
                assert_eq!(p.get(&s.name.to_ascii_uppercase()).unwrap(), v);
            }
        }
        assert_eq!(p, SearchParams::default());
        p.set("FutMargin", 300).unwrap();
        p.set("Null", 0).unwrap();
        assert_eq!((p.fut_margin, p.null), (300, false));
        let mut q = SearchParams::default();
        q.set_text(&p.to_text()).unwrap();
        assert_eq!(p, q);
    }

    #[test]
    fn refusals_change_nothing() {
        let mut p = SearchParams::default();
        assert_eq!(p.set("Nope", 1), Err(ParamError::Unknown("Nope".into())));
        assert_eq!(p.get("Nope"), Err(ParamError::Unknown("Nope".into())));
        assert_eq!(p.set("FutMargin", 2001), Err(ParamError::OutOfRange { name: "FutMargin", value: 2001, min: 0, max: 2000 }));
        assert_eq!(p.set("Null", 2).unwrap_err().to_string(), "search parameter Null: 2 is out of range 0..1");
        assert_eq!(p.set("Lmr", -1).unwrap_err().to_string(), "search parameter Lmr: -1 is out of range 0..1");
        assert!(p.set("AspDelta", i64::from(i32::MAX) + 1).is_err());
        assert!(p.set_all([("FutMargin", 100), ("LmpD1", 999)]).is_err());
        assert!(p.set_text("FutMargin=100 LmpD1=x").is_err());
        assert!(p.set_text("FutMargin=100, nope=3").is_err());
        assert_eq!(p.set_text("FutMargin 100"), Err(ParamError::Syntax("FutMargin".into())));
        assert_eq!(p, SearchParams::default());
        p.set_text("FutMargin=100, lmpd1=3\nNull=0").unwrap();
        assert_eq!((p.fut_margin, p.lmp_d1, p.null), (100, 3, false));
    }
}
