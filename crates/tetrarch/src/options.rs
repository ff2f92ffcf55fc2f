//! Engine options: the generic ones every variant has, the `setoption` line
//! grammar, and checking a value against an option's kind.

use tetrarch_core::eval::WeightsError;
use tetrarch_core::game::{OptionKind, OptionSpec, PositionError, SearchHints};
use tetrarch_search::{ParamSpec, SearchParams, Skill};

use crate::out::quote;
pub use tetrarch_core::options::{check_value, ValueError};

/// Why a file cannot be read by [`read_limited`].
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// Opening or reading failed.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// The path names a directory.
    #[error("it is a directory")]
    Directory,
    /// The file is longer than the limit.
    #[error("larger than {limit} bytes")]
    TooLarge {
        /// The limit, bytes.
        limit: u64,
    },
    /// The file is not UTF-8.
    #[error("not UTF-8 text")]
    NotUtf8,
}

/// Why a `setoption` line is refused; the text is the protocol's
/// `info string error: …` (docs/protocol.md).
#[derive(Debug, thiserror::Error)]
pub enum OptionError {
    /// The first word is not `name`.
    #[error("setoption: expected `name`, got {}", quote(.0))]
    ExpectedName(String),
    /// `setoption` alone.
    #[error("setoption: missing `name <id>`")]
    MissingName,
    /// `setoption name` without a name.
    #[error("setoption: missing option name")]
    MissingOptionName,
    /// The value does not fit the option.
    #[error("setoption: {0}")]
    Value(#[from] ValueError),
    /// `UCI_Variant` names no variant.
    #[error("setoption: unknown variant {} (known: {})", quote(.name), .known.join(", "))]
    UnknownVariant {
        /// The name given.
        name: String,
        /// Every variant.
        known: Vec<&'static str>,
    },
    /// A listed variant the game table lacks (a bug).
    #[error("setoption: variant not in the game table")]
    NotInGameTable,
    /// The new variant's session could not grow its table to `Hash`.
    #[error("setoption: UCI_Variant {variant}: {source}; the hash table has 1 MiB")]
    VariantHash {
        /// The new variant.
        variant: &'static str,
        /// Why the table could not be made.
        source: tetrarch_search::AllocError,
    },
    /// `Hash` above three quarters of the memory available.
    #[error("setoption: Hash {mb} MiB is more than this machine can give (about {available} MiB available)")]
    HashTooLarge {
        /// The size asked for, MiB.
        mb: usize,
        /// The memory available, MiB.
        available: usize,
    },
    /// The allocator refused the `Hash` table.
    #[error("setoption: Hash: {0}")]
    Hash(tetrarch_search::AllocError),
    /// No option of that name in this variant.
    #[error("setoption: unknown option {} for variant {variant}", quote(.name))]
    UnknownOption {
        /// The name given.
        name: String,
        /// The current variant.
        variant: &'static str,
    },
    /// A game option's index past the game's options (a bug).
    #[error("setoption: no such option")]
    NoSuchOption,
    /// The game refused a game option's value.
    #[error("setoption: option {name}: {source}")]
    Game {
        /// The option.
        name: &'static str,
        /// The game's reason.
        source: PositionError,
    },
    /// The `EvalFile` cannot be read.
    #[error("setoption: EvalFile: cannot read {}: {source}", quote(.path))]
    EvalFileRead {
        /// The path.
        path: String,
        /// The I/O error, a directory, or a file over the size limit.
        source: ReadError,
    },
    /// The `EvalFile` is no weights file of this variant.
    #[error("setoption: EvalFile {}: {source}", quote(.path))]
    EvalFile {
        /// The path.
        path: String,
        /// What does not fit: not a weights file, another variant's, a
        /// malformed line, a name the game does not have, ….
        source: WeightsError,
    },
}

/// The multi-player search strategies (`Strategy`, free-for-all variants only).
pub const STRATEGIES: &[&str] = &["paranoid", "brs", "maxn"];

/// The strategies of `variant`'s `Strategy` option, its default first (the
/// game's [`GameInfo::default_strategy`](crate::GameInfo::default_strategy)),
/// the others in the order of [`STRATEGIES`].
pub fn strategies(variant: &str) -> &'static [&'static str] {
    match default_strategy(variant) {
        "brs" => &["brs", "paranoid", "maxn"],
        "maxn" => &["maxn", "paranoid", "brs"],
        _ => STRATEGIES,
    }
}

struct DefaultStrategy;

impl crate::GameVisitor for DefaultStrategy {
    type Output = &'static str;
    fn visit<G: crate::GameInfo>(self, variant: &'static str) -> &'static str {
        G::default_strategy(variant)
    }
}

/// The `Strategy` of `variant` until `setoption` names one: its game's
/// [`GameInfo::default_strategy`](crate::GameInfo::default_strategy)
/// (`paranoid` for an unknown variant).
pub fn default_strategy(variant: &str) -> &'static str {
    crate::with_variant(variant, DefaultStrategy).unwrap_or(STRATEGIES[0])
}

/// `Skill Level` at full strength.
pub const SKILL_FULL: u8 = 20;

/// The largest `TurnCap`.
pub const TURN_CAP_MAX: i64 = 1_000_000;
/// The default `Hash` (MiB): a table of 4 M entries. At 16 MiB (1 M
/// entries) a teamchess search filled it within one move of 2 s (860 k
/// nodes/s; `hashfull 939` after 3.7 s, issue 23).
pub const DEFAULT_HASH_MB: usize = 64;

/// The default `Move Overhead` (ms): the time a search leaves unused for
/// what happens outside it (the GUI or runner writing `position` and `go`,
/// the engine reading and replaying them, starting the search thread,
/// printing `bestmove`, the other side reading it, and the scheduler on a
/// busy machine). Measured in issue 26: at `tc=1+0.01` with two games at
/// once, a search given 1 ms took 12 ms from `go` to `bestmove` at the
/// median and up to 98 ms while builds shared the two cores; with 10 ms the
/// clock ran down to the increment and such a delay went straight into the
/// runner's 100 ms margin (docs/reliability.md).
pub const DEFAULT_MOVE_OVERHEAD_MS: u64 = 100;

/// Settings that belong to the engine, not to a game: they survive a change
/// of variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// `Hash`, MiB.
    pub hash_mb: usize,
    /// `Threads`.
    pub threads: usize,
    /// `MultiPV`.
    pub multipv: usize,
    /// `Move Overhead`, ms.
    pub move_overhead_ms: u64,
    /// `Strategy` (one of [`STRATEGIES`]) once `setoption` set it, passed
    /// to the search as [`tetrarch_search::Config::strategy`]; until then
    /// `None`: each variant's [`default_strategy`].
    pub strategy: Option<&'static str>,
    /// `SetupSeed` (0: proposals vary with the clock).
    pub setup_seed: u64,
    /// `TurnCap`: once this many turns have been played since the
    /// `position` command's start, the game counts as drawn (`turncap`);
    /// 0 = off. A runner's adjudication, not a rule of any game.
    pub turn_cap: u32,
    /// `Ponder` (a check, default false). After `ugi` it decides whether
    /// `bestmove` names a `ponder` turn; after `uci` it has no effect.
    pub ponder: bool,
    /// The last handshake was `ugi` (not `uci`): `query result` answers in
    /// UGI's words in 2-seat variants, and `bestmove` carries `ponder` only
    /// when [`Settings::ponder`] is on.
    pub ugi: bool,
    /// The search parameters set by the hidden `setoption name
    /// Search_<Name>` (or by `TETRARCH_SEARCH_OFF`, [`search_off`]), by
    /// their names, over each game's defaults; each name at most once.
    pub search_params: Vec<(&'static str, i32)>,
    /// `Skill Level`, 0..=20 (20: full strength; docs/levels.md).
    pub skill_level: u8,
    /// `UCI_LimitStrength`: play at `UCI_Elo` (over `Skill Level`).
    pub limit_strength: bool,
    /// `UCI_Elo` once set; until then the lowest Elo of the variant's table.
    pub uci_elo: Option<i64>,
    /// `SkillSeed`: the random choices of a weakened search and of
    /// `--random` (0: a seed drawn when the engine starts).
    pub skill_seed: u64,
    /// `tetrarch --random`: every `go` plays a legal turn drawn uniformly
    /// (the anchor of the Elo scale, docs/levels.md).
    pub random: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            hash_mb: DEFAULT_HASH_MB,
            threads: 1,
            multipv: 1,
            move_overhead_ms: DEFAULT_MOVE_OVERHEAD_MS,
            strategy: None,
            setup_seed: 0,
            turn_cap: 0,
            ponder: false,
            ugi: false,
            search_params: Vec::new(),
            skill_level: SKILL_FULL,
            limit_strength: false,
            uci_elo: None,
            skill_seed: 0,
            random: false,
        }
    }
}

impl Settings {
    /// Whether `bestmove` may name a `ponder` turn: always after `uci` (and
    /// before any handshake), only with `Ponder` on after `ugi`, whose
    /// runners read exactly `bestmove <turn>`.
    pub fn ponder_in_bestmove(&self) -> bool {
        !self.ugi || self.ponder
    }

    /// Sets search parameter `name` (a [`ParamSpec::name`]) for every
    /// variant's searches; the value is checked by the caller.
    pub fn set_search_param(&mut self, name: &'static str, value: i32) {
        match self.search_params.iter_mut().find(|(n, _)| *n == name) {
            Some(p) => p.1 = value,
            None => self.search_params.push((name, value)),
        }
    }

    /// The strength a search of `variant` plays at: `UCI_Elo` through the
    /// variant's table when `UCI_LimitStrength` is on (and the variant has
    /// one), else `Skill Level`, with the variant's node budgets
    /// ([`crate::levels::scale`]); `None` at full strength. `start_seed` is
    /// the seed drawn at start-up, used while `SkillSeed` is 0.
    pub fn skill(&self, variant: &str, start_seed: u64) -> Option<Skill> {
        let seed = if self.skill_seed != 0 { self.skill_seed } else { start_seed };
        let level = match crate::levels::table(variant).filter(|_| self.limit_strength) {
            Some(t) => t.level_for_elo(self.uci_elo.unwrap_or(t.elo_range().0) as f64),
            None => f64::from(self.skill_level),
        };
        Skill::new(level, seed).map(|s| s.with_scale(crate::levels::scale(variant)))
    }

    /// The parameters of a search of game `G`: its defaults with
    /// [`Settings::search_params`] over them.
    pub fn search_params_for<G: SearchHints>(&self) -> SearchParams {
        search_params_for::<G>(&self.search_params)
    }
}

/// The parameters of a search of game `G`: its defaults
/// ([`SearchParams::for_game`]) with `set` over them (names and values as
/// `setoption` checked them: a refused one would be a bug, and is left out).
pub fn search_params_for<G: SearchHints>(set: &[(&'static str, i32)]) -> SearchParams {
    let mut p = SearchParams::for_game::<G>();
    for &(n, v) in set {
        let r = p.set(n, i64::from(v));
        debug_assert!(r.is_ok(), "{r:?}");
    }
    p
}

/// The prefix of the hidden options that set search parameters
/// (`setoption name Search_FutMargin value 200`; docs/protocol.md).
pub const SEARCH_PARAM_PREFIX: &str = "Search_";

/// The search parameter a hidden option name (`Search_<Name>`, any case)
/// sets, if any.
pub fn search_param(option: &str) -> Option<&'static ParamSpec> {
    let n = SEARCH_PARAM_PREFIX.len();
    let head = option.get(..n)?;
    if !head.eq_ignore_ascii_case(SEARCH_PARAM_PREFIX) {
        return None;
    }
    SearchParams::spec(&option[n..])
}

/// The environment variable of the A/B matches: its comma-separated words
/// name search switches to turn off (docs/search.md, "Search parameters").
pub const SEARCH_OFF_ENV: &str = "TETRARCH_SEARCH_OFF";

/// The settings `TETRARCH_SEARCH_OFF=<text>` stands for: each word (any
/// case) a switch ([`ParamSpec::switch`]) set to 0, as `setoption name
/// Search_<word> value 0` would. Returns those and the words that name no
/// switch (ignored, as they always were; the binary warns).
pub fn search_off(text: &str) -> (Vec<(&'static str, i32)>, Vec<String>) {
    let mut off = Vec::new();
    let mut unknown = Vec::new();
    for w in text.split(',').map(str::trim).filter(|w| !w.is_empty()) {
        match SearchParams::specs().iter().find(|s| s.switch && s.name.eq_ignore_ascii_case(w)) {
            Some(s) if !off.iter().any(|&(n, _)| n == s.name) => off.push((s.name, 0)),
            Some(_) => {}
            None => unknown.push(w.to_string()),
        }
    }
    (off, unknown)
}

/// The generic options (besides `UCI_Variant`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Generic {
    /// `Hash`.
    Hash,
    /// `Threads`.
    Threads,
    /// `MultiPV`.
    MultiPv,
    /// `Move Overhead`.
    MoveOverhead,
    /// `Clear Hash`.
    ClearHash,
    /// `Strategy`.
    Strategy,
    /// `SetupSeed`: seeds `go setup` proposals (0: from the clock).
    SetupSeed,
    /// `TurnCap`: a draw by the runner's turn cap (0: off).
    TurnCap,
    /// `Skill Level`: 0..=20, 20 the full engine (docs/levels.md).
    SkillLevel,
    /// `UCI_LimitStrength`: play at `UCI_Elo`.
    LimitStrength,
    /// `UCI_Elo`: the strength on the variant's calibrated scale (only in
    /// variants with a table).
    UciElo,
    /// `SkillSeed`: the random choices of a weakened search (0: drawn at
    /// start-up).
    SkillSeed,
}

impl Generic {
    /// Every generic option, in the order `uci` lists them.
    pub const ALL: [Generic; 12] = [
        Generic::Hash,
        Generic::Threads,
        Generic::MultiPv,
        Generic::MoveOverhead,
        Generic::ClearHash,
        Generic::Strategy,
        Generic::SetupSeed,
        Generic::TurnCap,
        Generic::SkillLevel,
        Generic::LimitStrength,
        Generic::UciElo,
        Generic::SkillSeed,
    ];

    /// Whether `variant` has the option: `Strategy` only in free-for-all
    /// variants (`ffa`), `SetupSeed` only where there is a set-up
    /// (`setup`), `UCI_LimitStrength` and `UCI_Elo` only where a
    /// calibrated table gives the scale.
    pub fn offered(self, variant: &str, ffa: bool, setup: bool) -> bool {
        match self {
            Generic::Strategy => ffa,
            Generic::SetupSeed => setup,
            Generic::LimitStrength | Generic::UciElo => crate::levels::table(variant).is_some(),
            _ => true,
        }
    }

    /// The option's name.
    pub fn name(self) -> &'static str {
        match self {
            Generic::Hash => "Hash",
            Generic::Threads => "Threads",
            Generic::MultiPv => "MultiPV",
            Generic::MoveOverhead => "Move Overhead",
            Generic::ClearHash => "Clear Hash",
            Generic::Strategy => "Strategy",
            Generic::SetupSeed => "SetupSeed",
            Generic::TurnCap => "TurnCap",
            Generic::SkillLevel => "Skill Level",
            Generic::LimitStrength => "UCI_LimitStrength",
            Generic::UciElo => "UCI_Elo",
            Generic::SkillSeed => "SkillSeed",
        }
    }

    /// The option's kind in `variant` (`None` for the button); only
    /// `Strategy`'s default and `UCI_Elo`'s range (the variant's table; a
    /// single value 0 where there is none) depend on the variant.
    pub fn kind(self, variant: &str) -> Option<OptionKind> {
        Some(match self {
            Generic::Hash => OptionKind::Spin { default: DEFAULT_HASH_MB as i64, min: 1, max: 65536 },
            Generic::Threads => OptionKind::Spin { default: 1, min: 1, max: 256 },
            Generic::MultiPv => OptionKind::Spin { default: 1, min: 1, max: 256 },
            Generic::MoveOverhead => OptionKind::Spin { default: DEFAULT_MOVE_OVERHEAD_MS as i64, min: 0, max: 5000 },
            Generic::ClearHash => return None,
            Generic::Strategy => OptionKind::Combo(strategies(variant)),
            Generic::SetupSeed => OptionKind::Spin { default: 0, min: 0, max: 2_147_483_647 },
            Generic::TurnCap => OptionKind::Spin { default: 0, min: 0, max: TURN_CAP_MAX },
            Generic::SkillLevel => OptionKind::Spin { default: i64::from(SKILL_FULL), min: 0, max: i64::from(SKILL_FULL) },
            Generic::LimitStrength => OptionKind::Check(false),
            Generic::UciElo => {
                let (min, max) = crate::levels::table(variant).map_or((0, 0), |t| t.elo_range());
                OptionKind::Spin { default: min, min, max }
            }
            Generic::SkillSeed => OptionKind::Spin { default: 0, min: 0, max: 2_147_483_647 },
        })
    }
}

/// The largest weights file `EvalFile` reads.
pub const EVAL_FILE_LIMIT: u64 = 4 << 20;

/// Reads a text file of at most `limit` bytes (a longer one is an error,
/// so a wrong path cannot make the engine read without end).
pub fn read_limited(path: &str, limit: u64) -> Result<String, ReadError> {
    use std::io::Read;
    let f = std::fs::File::open(path)?;
    if f.metadata().is_ok_and(|m| m.is_dir()) {
        return Err(ReadError::Directory);
    }
    let mut buf = Vec::new();
    f.take(limit + 1).read_to_end(&mut buf)?;
    if buf.len() as u64 > limit {
        return Err(ReadError::TooLarge { limit });
    }
    String::from_utf8(buf).map_err(|_| ReadError::NotUtf8)
}

/// The `option …` line of an option.
pub fn option_line(name: &str, kind: Option<&OptionKind>) -> String {
    match kind {
        None => format!("option name {name} type button"),
        Some(OptionKind::Check(d)) => format!("option name {name} type check default {d}"),
        Some(OptionKind::Spin { default, min, max }) => {
            format!("option name {name} type spin default {default} min {min} max {max}")
        }
        Some(OptionKind::Combo(vals)) => {
            let mut s = format!("option name {name} type combo default {}", vals.first().copied().unwrap_or(""));
            for v in vals.iter() {
                s.push_str(" var ");
                s.push_str(v);
            }
            s
        }
    }
}

/// The `option …` line of a game option.
pub fn spec_line(spec: &OptionSpec) -> String {
    option_line(spec.name, Some(&spec.kind))
}

/// Splits `setoption name <id…> [value <x…>]` (the words after `setoption`)
/// into the name and the value, each with single spaces.
pub fn parse_setoption(args: &[&str]) -> Result<(String, Option<String>), OptionError> {
    match args.first() {
        Some(w) if w.eq_ignore_ascii_case("name") => {}
        Some(w) => return Err(OptionError::ExpectedName(w.to_string())),
        None => return Err(OptionError::MissingName),
    }
    let rest = &args[1..];
    // The first `value` after at least one word of the name.
    let vpos = rest.iter().skip(1).position(|w| w.eq_ignore_ascii_case("value")).map(|i| i + 1);
    let (name, value) = match vpos {
        Some(i) => (&rest[..i], Some(&rest[i + 1..])),
        None => (rest, None),
    };
    if name.is_empty() {
        return Err(OptionError::MissingOptionName);
    }
    Ok((name.join(" "), value.map(|v| v.join(" "))))
}

/// Memory the system can still give, in MiB (`MemAvailable` of
/// `/proc/meminfo`), where the system says.
pub fn available_mib() -> Option<usize> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn setoption_grammar() {
        assert_eq!(parse_setoption(&["name", "Hash", "value", "32"]).unwrap(), ("Hash".into(), Some("32".into())));
        assert_eq!(
            parse_setoption(&["name", "Move", "Overhead", "value", "5"]).unwrap(),
            ("Move Overhead".into(), Some("5".into()))
        );
        assert_eq!(parse_setoption(&["name", "Clear", "Hash"]).unwrap(), ("Clear Hash".into(), None));
        assert_eq!(parse_setoption(&["name", "value"]).unwrap(), ("value".into(), None));
        assert!(matches!(parse_setoption(&[]), Err(OptionError::MissingName)));
        assert!(matches!(parse_setoption(&["name"]), Err(OptionError::MissingOptionName)));
        assert!(matches!(parse_setoption(&["Hash", "value", "3"]), Err(OptionError::ExpectedName(w)) if w == "Hash"));
    }

    #[test]
    fn values() {
        let spin = OptionKind::Spin { default: 1, min: 1, max: 10 };
        assert_eq!(check_value("x", &spin, Some("10")).unwrap(), "10");
        let range = |v: &str| ValueError::OutOfRange { name: "x".into(), value: v.into(), min: 1, max: 10 };
        assert_eq!(check_value("x", &spin, Some("11")), Err(range("11")));
        assert_eq!(check_value("x", &spin, Some("0")), Err(range("0")));
        assert_eq!(check_value("x", &spin, Some("a")), Err(ValueError::NotInteger { name: "x".into(), value: "a".into() }));
        assert_eq!(check_value("x", &spin, None), Err(ValueError::Missing { name: "x".into() }));
        assert_eq!(check_value("x", &spin, Some("")), Err(ValueError::Missing { name: "x".into() }));
        assert_eq!(check_value("x", &OptionKind::Check(false), Some("TRUE")).unwrap(), "true");
        assert_eq!(
            check_value("x", &OptionKind::Check(false), Some("yes")),
            Err(ValueError::NotBool { name: "x".into(), value: "yes".into() })
        );
        assert_eq!(check_value("x", &OptionKind::Combo(STRATEGIES), Some("BRS")).unwrap(), "brs");
        assert_eq!(
            check_value("x", &OptionKind::Combo(STRATEGIES), Some("best")),
            Err(ValueError::NotListed { name: "x".into(), value: "best".into(), vars: STRATEGIES })
        );
    }

    /// `setoption`'s wording (docs/protocol.md) is the value's with a prefix.
    #[test]
    fn option_error_text() {
        let spin = OptionKind::Spin { default: 1, min: 1, max: 10 };
        let e = check_value("Hash", &spin, Some("11")).unwrap_err();
        assert_eq!(e.to_string(), "option Hash: `11` is out of range 1..10");
        assert_eq!(OptionError::from(e).to_string(), "setoption: option Hash: `11` is out of range 1..10");
    }

    #[test]
    fn lines() {
        assert_eq!(
            option_line("Hash", Generic::Hash.kind("fourchess").as_ref()),
            "option name Hash type spin default 64 min 1 max 65536"
        );
        assert_eq!(option_line("Clear Hash", None), "option name Clear Hash type button");
        let line = |v| option_line("Strategy", Generic::Strategy.kind(v).as_ref());
        assert_eq!(line("queenskings9"), "option name Strategy type combo default paranoid var paranoid var brs var maxn");
        assert_eq!(line("quadranj4"), "option name Strategy type combo default brs var brs var paranoid var maxn");
        for v in ["queenskings", "queenskings9", "quadranj4"] {
            let mut all = strategies(v).to_vec();
            all.sort_unstable();
            let mut listed = STRATEGIES.to_vec();
            listed.sort_unstable();
            assert_eq!(all, listed, "{v} offers every strategy");
        }
    }
}
