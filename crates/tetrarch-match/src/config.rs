//! The command line, cutechess style: `--flag value…` where engine settings
//! are `key=value` words after `--engine` (one engine each) or `--each` (all
//! engines). clap parses it ([`MatchArgs`], each `key=value` word typed by
//! its value parser into an [`EngineSetting`]) and writes the help; the
//! checks across flags are here too ([`MatchArgs::into_config`]), so
//! everything is checked before any engine starts.

use std::path::PathBuf;
use std::str::FromStr;

use clap::{CommandFactory, FromArgMatches, Parser};

use crate::engine_config::{EngineConfig, EngineSetting, Proto, SettingError};
use crate::shard::Shard;
use crate::stats::Sprt;
use crate::tournament::Kind;

/// Resign adjudication: a side whose engines all report at least `score` cp
/// against it for `movecount` turns each in a row loses.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Resign {
    /// Turns of every seat in a row.
    pub movecount: u32,
    /// The threshold in centipawns: a report of `-score` or worse counts.
    pub score: i32,
}

/// Draw adjudication: from round `movenumber` on, when every seat's last
/// `movecount` scores are within ±`score` cp, the game is drawn.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DrawAdj {
    /// First round (one turn of every seat) where it may apply.
    pub movenumber: u32,
    /// Turns of every seat in a row.
    pub movecount: u32,
    /// The bound in centipawns: every score within `±score`.
    pub score: i32,
}

/// The whole match.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    /// `UCI_Variant`.
    pub variant: String,
    /// Total games (`None`: one opening's worth).
    pub games: Option<u32>,
    /// Games at once.
    pub concurrency: usize,
    /// Seed of everything random.
    pub seed: u64,
    /// Whether the seed was given.
    pub seed_given: bool,
    /// The engines, in command-line order.
    pub engines: Vec<EngineConfig>,
    /// Opening file.
    pub openings: Option<PathBuf>,
    /// Random turns played from the start (or after a file opening).
    pub random_plies: u32,
    /// Random set-ups for games with a set-up phase when no file is given.
    pub random_setup: bool,
    /// The SPRT of `--sprt` that stops the match once it decides (`None`:
    /// every game is played).
    pub sprt: Option<Sprt>,
    /// Resign adjudication.
    pub resign: Option<Resign>,
    /// Draw adjudication.
    pub draw: Option<DrawAdj>,
    /// Turn cap (`None`: the game's default; `Some(0)`: off).
    pub maxturns: Option<u32>,
    /// PGN-style output.
    pub pgnout: Option<PathBuf>,
    /// JSON Lines records.
    pub records: Option<PathBuf>,
    /// Time margin, ms.
    pub margin_ms: u64,
    /// Skip the games already in the records file.
    pub resume: bool,
    /// Longest wait for a `bestmove` when no clock limits it (depth/nodes), ms.
    pub max_wait_ms: u64,
    /// Log of every line to and from the engines.
    pub log: Option<PathBuf>,
    /// `--tournament`: any number of engines, in pairs (or groups of four
    /// in free-for-all); `--games` then counts the games of each group.
    pub tournament: Option<Kind>,
    /// `--shard K/N`: play only shard K's games (docs/distributed.md).
    pub shard: Option<Shard>,
    /// `--records-dir DIR`: the shards' shared folder; this shard's records
    /// go to `DIR/shard-K.jsonl` (set in [`Config::records`]) and, with
    /// `--sprt`, the SPRT runs over every shard's file there.
    pub records_dir: Option<PathBuf>,
}

/// One `KEY=VALUE` word of `--sprt`, `--resign` or `--draw` (the keys are
/// checked when the flag's words are put together).
#[derive(Clone, Debug, PartialEq)]
pub struct KeyValue {
    /// The text before the first `=`.
    pub key: String,
    /// The text after it (not yet parsed: it may hold more `=`).
    pub value: String,
}

impl FromStr for KeyValue {
    type Err = FlagError;
    fn from_str(w: &str) -> Result<KeyValue, FlagError> {
        let (k, v) = w.split_once('=').ok_or_else(|| FlagError::NotKeyValue(w.to_string()))?;
        Ok(KeyValue { key: k.to_string(), value: v.to_string() })
    }
}

/// Why the value of a flag (not an engine setting) is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FlagError {
    /// Not a number of the flag's kind.
    #[error("bad number `{0}`")]
    BadNumber(String),
    /// `--games 0`.
    #[error("--games must be at least 1")]
    NoGames,
    /// `--concurrency` out of 1..256.
    #[error("--concurrency must be 1..256")]
    Concurrency,
    /// `--max-wait` not a positive number of seconds.
    #[error("--max-wait must be positive")]
    MaxWait,
    /// `--tournament` of an unknown kind.
    #[error("--tournament {0}: use round-robin or gauntlet")]
    Tournament(String),
    /// A word of `--sprt`, `--resign` or `--draw` without `=`.
    #[error("`{0}` is not KEY=VALUE")]
    NotKeyValue(String),
}

fn number<T: FromStr>(s: &str) -> Result<T, FlagError> {
    s.parse().map_err(|_| FlagError::BadNumber(s.to_string()))
}

fn games(s: &str) -> Result<u32, FlagError> {
    number(s).and_then(|n| if n == 0 { Err(FlagError::NoGames) } else { Ok(n) })
}

fn concurrency(s: &str) -> Result<usize, FlagError> {
    number(s).and_then(|n| if (1..=256).contains(&n) { Ok(n) } else { Err(FlagError::Concurrency) })
}

fn max_wait_ms(s: &str) -> Result<u64, FlagError> {
    number::<f64>(s).and_then(|s| if s > 0.0 && s < 1e6 { Ok((s * 1000.0) as u64) } else { Err(FlagError::MaxWait) })
}

fn tournament(s: &str) -> Result<Kind, FlagError> {
    Kind::parse(s).ok_or_else(|| FlagError::Tournament(s.to_string()))
}

/// What is wrong with one engine's settings as a whole.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EngineProblem {
    /// No `cmd=`.
    #[error("cmd=PATH is missing")]
    NoCmd,
    /// None of `tc=`, `st=`, `depth=`, `nodes=`.
    #[error("no limit: give tc=, st=, depth= or nodes=")]
    NoLimit,
    /// `tc=` and `st=`.
    #[error("tc= and st= together")]
    TcAndSt,
    /// `proto=4pchess` in another variant than teamchess.
    #[error("proto=4pchess plays only --variant teamchess")]
    FourPChessVariant,
}

/// Why the command line is refused.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// clap's own: an unknown flag, a missing or bad value (the value
    /// parsers' [`SettingError`] or [`FlagError`] is its source), or
    /// `--help` (kind `DisplayHelp`).
    #[error("{}", .0.render().to_string().trim_end().trim_start_matches("error: "))]
    Cli(#[from] clap::Error),
    /// A bad number in `--sprt`, `--resign` or `--draw`.
    #[error("{flag}: bad number `{value}`")]
    BadNumber {
        /// The flag.
        flag: &'static str,
        /// The text after the key's `=`, which does not parse as a number.
        value: String,
    },
    /// A key that `--sprt`, `--resign` or `--draw` does not take.
    #[error("{flag}: unknown key `{key}` (keys: {})", keys.join(", "))]
    UnknownKey {
        /// The flag.
        flag: &'static str,
        /// The key given.
        key: String,
        /// The keys it takes.
        keys: &'static [&'static str],
    },
    /// `--sprt` without elo0 < elo1.
    #[error("--sprt needs elo0 < elo1")]
    SprtElo,
    /// `--sprt` alpha or beta out of (0, 0.5).
    #[error("--sprt: alpha and beta must be in (0, 0.5)")]
    SprtRisk,
    /// `--resign twosided=false`.
    #[error("--resign: only twosided=true (the default) is supported")]
    ResignOneSided,
    /// `--resign` with a zero count or score.
    #[error("--resign: movecount and score must be positive")]
    ResignRange,
    /// `--draw` with a zero count or a negative score.
    #[error("--draw: movecount must be positive and score not negative")]
    DrawRange,
    /// `--openings order=…` or `format=…`.
    #[error("--openings: `{0}=` is not supported (openings are played in file order)")]
    OpeningsKey(String),
    /// A second file or an unknown word after `--openings`.
    #[error("--openings: unexpected `{0}`")]
    OpeningsWord(String),
    /// `--records` and `--records-dir`.
    #[error("--records and --records-dir together: a shard's records go to DIR/shard-K.jsonl")]
    RecordsAndDir,
    /// `--resume` without a records file.
    #[error("--resume needs --records FILE (or --records-dir DIR)")]
    ResumeWithoutRecords,
    /// `--sprt` over shards without the shared folder.
    #[error("--sprt with --shard needs --records-dir DIR: the SPRT must see every shard's games")]
    ShardedSprtWithoutDir,
    /// `--sprt` in a tournament.
    #[error("--sprt needs a match of two engines, not a --tournament")]
    SprtInTournament,
    /// One engine's settings (1-based engine number, and its name once known).
    #[error("engine {index}{}: {problem}", name.as_ref().map(|n| format!(" ({n})")).unwrap_or_default())]
    Engine {
        /// 1-based, in command-line order.
        index: usize,
        /// Its name, when the problem is not the missing `cmd=`.
        name: Option<String>,
        /// What is wrong.
        problem: EngineProblem,
    },
    /// Fewer than two `--engine`.
    #[error("need at least two --engine (got {0})")]
    TooFewEngines(usize),
}

impl ConfigError {
    /// The value parser's error behind a clap error for a bad engine setting.
    pub fn setting(&self) -> Option<&SettingError> {
        match self {
            ConfigError::Cli(e) => std::error::Error::source(e).and_then(|s| s.downcast_ref()),
            _ => None,
        }
    }
    /// The value parser's error behind a clap error for a bad flag value.
    pub fn flag(&self) -> Option<&FlagError> {
        match self {
            ConfigError::Cli(e) => std::error::Error::source(e).and_then(|s| s.downcast_ref()),
            _ => None,
        }
    }
}

/// `tetrarch match`: engine-vs-engine matches (docs/match.md).
///
/// Engine settings are KEY=VALUE words after --engine (that engine) or
/// --each (every engine; an engine's own words override them).
#[derive(Clone, Debug, Parser)]
#[command(
    name = "tetrarch match",
    bin_name = "tetrarch match",
    args_override_self = true,
    after_help = "Records of finished matches or shards: tetrarch match report [--json] FILE|DIR|GLOB… \
                  (tetrarch match report --help)."
)]
pub struct MatchArgs {
    /// UCI_Variant of every game.
    #[arg(long, value_name = "NAME", required = true)]
    pub variant: String,
    /// One engine: cmd=PATH [name=NAME] [arg=ARG]… [dir=DIR] [proto=tetrarch|4pchess] [option.NAME=VALUE]…
    /// [tc=[MOVES/]SECONDS[+INC]|inf] [st=SECONDS] [depth=N] [nodes=N] [restart=on|off]; at least two.
    /// proto=4pchess: that engine's UCI dialect, teamchess only.
    #[arg(long = "engine", id = "engine", value_name = "KEY=VALUE", num_args = 1.., action = clap::ArgAction::Append)]
    pub engine_settings: Vec<EngineSetting>,
    /// The settings of each `--engine`, in order (what [`MatchArgs::parse_from_args`]
    /// makes of `engine_settings`: clap's derive does not group a flag's
    /// occurrences).
    #[arg(skip)]
    pub engines: Vec<Vec<EngineSetting>>,
    /// Settings of every engine (the same keys as --engine), before each engine's own.
    #[arg(long, value_name = "KEY=VALUE", num_args = 1.., action = clap::ArgAction::Append)]
    pub each: Vec<EngineSetting>,
    /// Total games (default: one opening: 2, or 4 in free-for-all); in a tournament, games of each pairing
    /// (group), a multiple of 2 (of 4).
    #[arg(long, value_name = "N", value_parser = games)]
    pub games: Option<u32>,
    /// round-robin (every pair of engines; every four in free-for-all) or gauntlet (the first engine against
    /// each other): any number of engines.
    #[arg(long, value_name = "KIND", value_parser = tournament)]
    pub tournament: Option<Kind>,
    /// Games at once.
    #[arg(long, value_name = "N", default_value = "1", value_parser = concurrency)]
    pub concurrency: usize,
    /// Seed of random openings and set-ups (default: from the clock, printed).
    #[arg(long, value_name = "S", value_parser = number::<u64>)]
    pub seed: Option<u64>,
    /// Opening file, one opening per line: startpos | fen POS | setup T1 T2 | POS, each [moves T…]
    /// (also file=FILE).
    #[arg(long, value_name = "FILE", num_args = 1.., action = clap::ArgAction::Set)]
    pub openings: Option<Vec<String>>,
    /// Random legal turns after the start / the file's opening.
    #[arg(long, value_name = "N", default_value = "0", value_parser = number::<u32>)]
    pub random_plies: u32,
    /// Games with a set-up: use startpos instead of random set-ups.
    #[arg(long)]
    pub no_random_setup: bool,
    /// Stop when the SPRT decides (2 sides only): elo0=E0 elo1=E1 [alpha=0.05] [beta=0.05].
    #[arg(long, value_name = "KEY=VALUE", num_args = 1.., action = clap::ArgAction::Set)]
    pub sprt: Option<Vec<KeyValue>>,
    /// Adjudicate a loss by the engines' scores: [movecount=3] [score=600] (cp).
    #[arg(long, value_name = "KEY=VALUE", num_args = 1.., action = clap::ArgAction::Set)]
    pub resign: Option<Vec<KeyValue>>,
    /// Adjudicate a draw by the engines' scores: [movenumber=40] [movecount=8] [score=10] (cp).
    #[arg(long, value_name = "KEY=VALUE", num_args = 1.., action = clap::ArgAction::Set)]
    pub draw: Option<Vec<KeyValue>>,
    /// Turn cap: draw after N turns (0 off; default 400 in quattuor, else off).
    #[arg(long, alias = "maxmoves", value_name = "N", value_parser = number::<u32>)]
    pub maxturns: Option<u32>,
    /// Append PGN-style games.
    #[arg(long, value_name = "FILE")]
    pub pgnout: Option<PathBuf>,
    /// Append one JSON line per game.
    #[arg(long, value_name = "FILE")]
    pub records: Option<PathBuf>,
    /// Skip the games already in --records (or this shard's file in --records-dir).
    #[arg(long)]
    pub resume: bool,
    /// Play only shard K of N: whole game pairs, the union of the N shards is the match.
    #[arg(long, value_name = "K/N", value_parser = Shard::from_str)]
    pub shard: Option<Shard>,
    /// Shared folder of the shards: records to DIR/shard-K.jsonl; with --sprt, the SPRT runs over every
    /// shard's records there and stops all shards (docs/distributed.md).
    #[arg(long, value_name = "DIR")]
    pub records_dir: Option<PathBuf>,
    /// Extra time before a flag falls, ms.
    #[arg(long, value_name = "MS", default_value = "100", value_parser = number::<u64>)]
    pub margin: u64,
    /// Longest wait for bestmove without a clock, seconds.
    #[arg(long, value_name = "SECONDS", default_value = "60", value_parser = max_wait_ms)]
    pub max_wait: u64,
    /// Every line to and from the engines.
    #[arg(long, value_name = "FILE")]
    pub log: Option<PathBuf>,
}

impl MatchArgs {
    /// Parses the arguments (without the program / sub-command name).
    pub fn parse_from_args(args: &[String]) -> Result<MatchArgs, clap::Error> {
        let argv = std::iter::once("tetrarch match").chain(args.iter().map(String::as_str));
        let m = MatchArgs::command().try_get_matches_from(argv)?;
        let mut a = MatchArgs::from_arg_matches(&m)?;
        a.engines = match m.get_occurrences::<EngineSetting>("engine") {
            Some(o) => o.map(|words| words.cloned().collect()).collect(),
            None => Vec::new(),
        };
        Ok(a)
    }
}

/// The help text (generated by clap from [`MatchArgs`]).
pub fn help() -> String {
    MatchArgs::command().render_help().to_string()
}

fn key_values<'a>(
    flag: &'static str,
    kvs: &'a [KeyValue],
    keys: &'static [&'static str],
) -> Result<Vec<(&'a str, &'a str)>, ConfigError> {
    kvs.iter()
        .map(|kv| {
            if keys.contains(&kv.key.as_str()) {
                Ok((kv.key.as_str(), kv.value.as_str()))
            } else {
                Err(ConfigError::UnknownKey { flag, key: kv.key.clone(), keys })
            }
        })
        .collect()
}

fn flag_number<T: FromStr>(flag: &'static str, v: &str) -> Result<T, ConfigError> {
    v.parse().map_err(|_| ConfigError::BadNumber { flag, value: v.to_string() })
}

/// `--openings FILE` or `--openings file=FILE`: the file.
fn openings_file(words: &[String]) -> Result<Option<PathBuf>, ConfigError> {
    let mut file = None;
    for w in words {
        match w.split_once('=') {
            Some(("file", f)) => file = Some(f.to_string()),
            Some((k, _)) if k == "order" || k == "format" => return Err(ConfigError::OpeningsKey(k.to_string())),
            _ if file.is_none() => file = Some(w.clone()),
            _ => return Err(ConfigError::OpeningsWord(w.clone())),
        }
    }
    Ok(file.map(PathBuf::from))
}

/// `--sprt elo0=E0 elo1=E1 [alpha=0.05] [beta=0.05]`.
fn sprt(kvs: &[KeyValue]) -> Result<Sprt, ConfigError> {
    let mut s = Sprt { elo0: f64::NAN, elo1: f64::NAN, alpha: 0.05, beta: 0.05 };
    for (k, v) in key_values("--sprt", kvs, &["elo0", "elo1", "alpha", "beta"])? {
        let x: f64 = flag_number("--sprt", v)?;
        match k {
            "elo0" => s.elo0 = x,
            "elo1" => s.elo1 = x,
            "alpha" => s.alpha = x,
            _ => s.beta = x,
        }
    }
    if !(s.elo0.is_finite() && s.elo1.is_finite()) || s.elo1 <= s.elo0 {
        return Err(ConfigError::SprtElo);
    }
    if !(s.alpha > 0.0 && s.alpha < 0.5 && s.beta > 0.0 && s.beta < 0.5) {
        return Err(ConfigError::SprtRisk);
    }
    Ok(s)
}

/// `--resign [movecount=3] [score=600] [twosided=true]`.
fn resign(kvs: &[KeyValue]) -> Result<Resign, ConfigError> {
    let mut r = Resign { movecount: 3, score: 600 };
    for (k, v) in key_values("--resign", kvs, &["movecount", "score", "twosided"])? {
        match k {
            "movecount" => r.movecount = flag_number("--resign", v)?,
            "score" => r.score = flag_number("--resign", v)?,
            _ if v != "true" => return Err(ConfigError::ResignOneSided),
            _ => {}
        }
    }
    if r.movecount == 0 || r.score <= 0 {
        return Err(ConfigError::ResignRange);
    }
    Ok(r)
}

/// `--draw [movenumber=40] [movecount=8] [score=10]`.
fn draw(kvs: &[KeyValue]) -> Result<DrawAdj, ConfigError> {
    let mut d = DrawAdj { movenumber: 40, movecount: 8, score: 10 };
    for (k, v) in key_values("--draw", kvs, &["movenumber", "movecount", "score"])? {
        match k {
            "movenumber" => d.movenumber = flag_number("--draw", v)?,
            "movecount" => d.movecount = flag_number("--draw", v)?,
            _ => d.score = flag_number("--draw", v)?,
        }
    }
    if d.movecount == 0 || d.score < 0 {
        return Err(ConfigError::DrawRange);
    }
    Ok(d)
}

/// The records file (a shard's file in `--records-dir`) and the checks of
/// `--resume`, `--shard` and `--tournament` against it and `--sprt`.
fn check_records_and_shards(cfg: &mut Config) -> Result<(), ConfigError> {
    if let Some(dir) = &cfg.records_dir {
        if cfg.records.is_some() {
            return Err(ConfigError::RecordsAndDir);
        }
        cfg.records = Some(crate::shard::shard_file(dir, cfg.shard.unwrap_or(Shard::WHOLE)));
    }
    if cfg.resume && cfg.records.is_none() {
        return Err(ConfigError::ResumeWithoutRecords);
    }
    if cfg.shard.is_some_and(|s| s.n > 1) && cfg.sprt.is_some() && cfg.records_dir.is_none() {
        return Err(ConfigError::ShardedSprtWithoutDir);
    }
    if cfg.tournament.is_some() && cfg.sprt.is_some() {
        return Err(ConfigError::SprtInTournament);
    }
    Ok(())
}

/// One engine: `--each` first, then its own words override; its name
/// from its program when not given; checked as a whole. `k` is 0-based.
fn engine(k: usize, each: &[EngineSetting], own: &[EngineSetting], variant: &str) -> Result<EngineConfig, ConfigError> {
    let mut e = EngineConfig::default();
    for s in each.iter().chain(own) {
        e.apply(s);
    }
    let problem = |e: &EngineConfig, problem| ConfigError::Engine { index: k + 1, name: Some(e.name.clone()), problem };
    if e.cmd.is_empty() {
        return Err(ConfigError::Engine { index: k + 1, name: None, problem: EngineProblem::NoCmd });
    }
    if e.name.is_empty() {
        e.name =
            std::path::Path::new(&e.cmd).file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_else(|| e.cmd.clone());
    }
    if e.tc.is_none() && e.st_ms.is_none() && e.depth.is_none() && e.nodes.is_none() {
        return Err(problem(&e, EngineProblem::NoLimit));
    }
    if e.tc.is_some() && e.st_ms.is_some() {
        return Err(problem(&e, EngineProblem::TcAndSt));
    }
    if e.proto == Proto::FourPChess && variant != "teamchess" {
        return Err(problem(&e, EngineProblem::FourPChessVariant));
    }
    Ok(e)
}

/// Unique names: a second `tetrarch` becomes `tetrarch-2`.
fn make_names_unique(engines: &mut [EngineConfig]) {
    for k in 1..engines.len() {
        let base = engines[k].name.clone();
        let mut n = 2;
        while engines[..k].iter().any(|e| e.name == engines[k].name) {
            engines[k].name = format!("{base}-{n}");
            n += 1;
        }
    }
}

impl MatchArgs {
    /// The match the flags describe, after the checks across flags and
    /// engines. The seed, when not given, is taken from the clock.
    pub fn into_config(self) -> Result<Config, ConfigError> {
        // 1. The flags as they are.
        let mut cfg = Config {
            variant: self.variant,
            games: self.games,
            concurrency: self.concurrency,
            seed: self.seed.unwrap_or(0),
            seed_given: self.seed.is_some(),
            engines: Vec::new(),
            openings: None,
            random_plies: self.random_plies,
            random_setup: !self.no_random_setup,
            sprt: None,
            resign: None,
            draw: None,
            maxturns: self.maxturns,
            pgnout: self.pgnout,
            records: self.records,
            margin_ms: self.margin,
            resume: self.resume,
            max_wait_ms: self.max_wait,
            log: self.log,
            tournament: self.tournament,
            shard: self.shard,
            records_dir: self.records_dir,
        };
        // 2. The flags of KEY=VALUE words.
        if let Some(words) = &self.openings {
            cfg.openings = openings_file(words)?;
        }
        cfg.sprt = self.sprt.as_deref().map(sprt).transpose()?;
        cfg.resign = self.resign.as_deref().map(resign).transpose()?;
        cfg.draw = self.draw.as_deref().map(draw).transpose()?;
        // 3. The checks across flags.
        check_records_and_shards(&mut cfg)?;
        // 4. The engines.
        for (k, own) in self.engines.iter().enumerate() {
            cfg.engines.push(engine(k, &self.each, own, &cfg.variant)?);
        }
        if cfg.engines.len() < 2 {
            return Err(ConfigError::TooFewEngines(cfg.engines.len()));
        }
        make_names_unique(&mut cfg.engines);
        // 5. The seed.
        if !cfg.seed_given {
            cfg.seed = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_nanos() as u64 % 1_000_000_000)
                .unwrap_or(1);
        }
        Ok(cfg)
    }
}

/// Parses the arguments (without the program / sub-command name).
/// `Ok(None)` for `--help` (the text is [`help`]).
pub fn parse_args(args: &[String]) -> Result<Option<Config>, ConfigError> {
    match MatchArgs::parse_from_args(args) {
        Ok(a) => a.into_config().map(Some),
        Err(e) if e.kind() == clap::error::ErrorKind::DisplayHelp => Ok(None),
        Err(e) => Err(ConfigError::Cli(e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tc::TcError;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn full_command_line() {
        let c = parse_args(&args(
            "--variant fourchess --games 10 --concurrency 2 --seed 7 \
             --engine cmd=/bin/a name=A option.Hash=64 tc=40/60+0.6 \
             --engine cmd=/bin/b depth=3 --each option.Threads=1 option.Hash=16 \
             --sprt elo0=0 elo1=10 alpha=0.05 beta=0.05 --resign movecount=3 score=600 \
             --draw movenumber=40 movecount=8 score=10 --maxturns 300 --records r.jsonl --margin 50 --resume",
        ))
        .unwrap()
        .unwrap();
        assert_eq!(c.variant, "fourchess");
        assert_eq!(c.games, Some(10));
        assert_eq!(c.seed, 7);
        assert_eq!(c.engines[0].name, "A");
        assert_eq!(c.engines[0].options, vec![("Threads".into(), "1".into()), ("Hash".into(), "64".into())]);
        assert_eq!(c.engines[0].tc.unwrap().moves, 40);
        assert_eq!(c.engines[1].name, "b");
        assert_eq!(c.engines[1].depth, Some(3));
        assert_eq!(c.engines[1].options[1], ("Hash".into(), "16".into()));
        assert_eq!(c.sprt.unwrap().elo1, 10.0);
        assert_eq!(c.resign, Some(Resign { movecount: 3, score: 600 }));
        assert_eq!(c.draw.unwrap().movenumber, 40);
        assert_eq!(c.maxturns, Some(300));
        assert_eq!(c.margin_ms, 50);
        assert!(c.resume);
    }

    fn err(line: &str) -> ConfigError {
        parse_args(&args(line)).unwrap_err()
    }

    fn cli_kind(e: &ConfigError) -> Option<clap::error::ErrorKind> {
        match e {
            ConfigError::Cli(c) => Some(c.kind()),
            _ => None,
        }
    }

    #[test]
    fn same_names_made_unique() {
        let e = err("--variant quattuor --each cmd=/x/tetrarch depth=1 --engine --engine");
        assert!(
            cli_kind(&e).is_some_and(|k| k == clap::error::ErrorKind::InvalidValue) && e.to_string().contains("--engine"),
            "{e}"
        );
        let c = parse_args(&args("--variant quattuor --each cmd=/x/tetrarch depth=1 --engine arg=1 --engine arg=2"))
            .unwrap()
            .unwrap();
        assert_eq!(c.engines[0].name, "tetrarch");
        assert_eq!(c.engines[1].name, "tetrarch-2");
    }

    #[test]
    fn engine_settings_are_typed() {
        let ok = |w: &str| w.parse::<EngineSetting>().unwrap();
        assert_eq!(ok("cmd=/bin/a=b"), EngineSetting::Cmd("/bin/a=b".into()));
        assert_eq!(ok("option.Hash=64"), EngineSetting::Option("Hash".into(), "64".into()));
        assert_eq!(ok("proto=4pchess"), EngineSetting::Proto(Proto::FourPChess));
        assert_eq!(ok("tc=inf"), EngineSetting::Tc(None));
        assert_eq!(ok("st=0.5"), EngineSetting::St(500));
        assert_eq!(ok("restart=auto"), EngineSetting::Restart(false));
        let bad = |w: &str| w.parse::<EngineSetting>().unwrap_err();
        assert_eq!(bad("foo"), SettingError::NotKeyValue("foo".into()));
        assert_eq!(bad("foo=1"), SettingError::UnknownKey("foo".into()));
        assert_eq!(bad("option.=1"), SettingError::UnknownKey("option.".into()));
        assert_eq!(bad("name="), SettingError::Empty { key: "name" });
        assert_eq!(bad("option.uci_variant=x"), SettingError::UciVariant);
        assert!(matches!(bad("depth=0"), SettingError::BadValue { key: "depth", .. }));
        assert!(matches!(bad("nodes=x"), SettingError::BadValue { key: "nodes", .. }));
        assert!(matches!(bad("proto=xboard"), SettingError::BadValue { key: "proto", .. }));
        assert!(matches!(bad("restart=maybe"), SettingError::BadValue { key: "restart", .. }));
        assert!(matches!(bad("tc=abc"), SettingError::Time { key: "tc", reason: TcError::BadSeconds { what: "time", .. } }));
        assert!(matches!(bad("st=0"), SettingError::Time { key: "st", reason: TcError::ZeroSt(_) }));
        // The same through clap: the setting's error is the source, the
        // message names the flag and the reason.
        let e = err("--variant x --engine cmd=a depth=1 foo=1 --engine cmd=b depth=1");
        assert_eq!(e.setting(), Some(&SettingError::UnknownKey("foo".into())));
        assert!(e.to_string().contains("--engine") && e.to_string().contains("unknown engine setting `foo`"), "{e}");
    }

    /// An option whose name has a space (`Skill Level`, as `tetrarch
    /// calibrate` sets it) is one word on the command line and reaches the
    /// engine as `setoption name Skill Level value 5`: the name is all
    /// between `option.` and the first `=`.
    #[test]
    fn an_option_name_may_hold_spaces() {
        assert_eq!("option.Skill Level=5".parse::<EngineSetting>(), Ok(EngineSetting::Option("Skill Level".into(), "5".into())));
        let words: Vec<String> =
            ["--variant", "x", "--engine", "cmd=a", "option.Skill Level=5", "--engine", "cmd=b", "--each", "nodes=10"]
                .iter()
                .map(|w| w.to_string())
                .collect();
        let c = parse_args(&words).unwrap().unwrap();
        assert_eq!(c.engines[0].options, vec![("Skill Level".into(), "5".into())]);
        assert!(c.engines[1].options.is_empty());
    }

    #[test]
    fn errors() {
        use clap::error::ErrorKind;
        let base = "--variant x --engine cmd=a depth=1 --engine cmd=b depth=1";
        let e = err("--engine cmd=a depth=1 --engine cmd=b depth=1");
        assert_eq!(cli_kind(&e), Some(ErrorKind::MissingRequiredArgument));
        assert!(e.to_string().contains("--variant"), "{e}");
        assert!(matches!(err("--variant x --engine cmd=a depth=1"), ConfigError::TooFewEngines(1)));
        let e = err("--variant x --engine cmd=a --engine cmd=b depth=1");
        assert!(matches!(&e, ConfigError::Engine { index: 1, problem: EngineProblem::NoLimit, .. }), "{e}");
        assert!(e.to_string().contains("no limit"), "{e}");
        let e = err("--variant x --engine cmd=a tc=abc --engine cmd=b depth=1");
        assert!(matches!(e.setting(), Some(SettingError::Time { key: "tc", .. })), "{e}");
        let e = err("--variant x --engine name=a depth=1 --engine cmd=b depth=1");
        assert!(matches!(e, ConfigError::Engine { index: 1, name: None, problem: EngineProblem::NoCmd }), "{e}");
        assert_eq!(err(&format!("{base} --games 0")).flag(), Some(&FlagError::NoGames));
        assert_eq!(err(&format!("{base} --games x")).flag(), Some(&FlagError::BadNumber("x".into())));
        assert_eq!(err(&format!("{base} --concurrency 300")).flag(), Some(&FlagError::Concurrency));
        assert_eq!(err(&format!("{base} --max-wait 0")).flag(), Some(&FlagError::MaxWait));
        assert!(matches!(err(&format!("{base} --sprt elo0=5 elo1=1")), ConfigError::SprtElo));
        assert!(matches!(err(&format!("{base} --sprt elo0=0 elo1=5 alpha=0.6")), ConfigError::SprtRisk));
        assert!(matches!(err(&format!("{base} --sprt elo0=0 elo1=x")), ConfigError::BadNumber { flag: "--sprt", .. }));
        assert!(matches!(err(&format!("{base} --sprt elo0=0 gamma=5")), ConfigError::UnknownKey { flag: "--sprt", .. }));
        assert!(matches!(err(&format!("{base} --resign twosided=false")), ConfigError::ResignOneSided));
        assert!(matches!(err(&format!("{base} --resign score=0")), ConfigError::ResignRange));
        assert!(matches!(err(&format!("{base} --draw movecount=0")), ConfigError::DrawRange));
        assert!(matches!(err(&format!("{base} --openings order=random f")), ConfigError::OpeningsKey(k) if k == "order"));
        assert!(matches!(err(&format!("{base} --openings a b")), ConfigError::OpeningsWord(w) if w == "b"));
        assert_eq!(cli_kind(&err(&format!("{base} --bogus"))), Some(ErrorKind::UnknownArgument));
        assert!(matches!(err(&format!("{base} --resume")), ConfigError::ResumeWithoutRecords));
        let e = err("--variant x --engine cmd=a st=0 --engine cmd=b depth=1");
        assert!(matches!(e.setting(), Some(SettingError::Time { key: "st", reason: TcError::ZeroSt(_) })), "{e}");
        // A second value of a one-value flag.
        assert_eq!(cli_kind(&err(&format!("{base} --variant x y"))), Some(ErrorKind::UnknownArgument));
        assert_eq!(err(&format!("{base} --tournament swiss")).flag(), Some(&FlagError::Tournament("swiss".into())));
        assert!(err(&format!("{base} --tournament swiss")).to_string().contains("round-robin or gauntlet"));
        assert_eq!(cli_kind(&err(&format!("{base} --tournament"))), Some(ErrorKind::InvalidValue));
        assert!(matches!(err(&format!("{base} --tournament gauntlet --sprt elo0=0 elo1=5")), ConfigError::SprtInTournament));
        let e = err("--variant x --engine cmd=a depth=1 proto=4pchess --engine cmd=b depth=1");
        assert!(matches!(e, ConfigError::Engine { index: 1, problem: EngineProblem::FourPChessVariant, .. }), "{e}");
        let e = err("--variant x --engine cmd=a depth=1 st=1 tc=1 --engine cmd=b depth=1");
        assert!(matches!(e, ConfigError::Engine { index: 1, problem: EngineProblem::TcAndSt, .. }), "{e}");
        assert_eq!(parse_args(&args("--help")).unwrap(), None);
        assert_eq!(parse_args(&args(&format!("{base} -h"))).unwrap(), None);
        // Defaults, a flag given twice (the last counts), the old spelling.
        let c = parse_args(&args(&format!("{base} --variant y --maxmoves 9 --openings file=o.txt"))).unwrap().unwrap();
        assert_eq!((c.variant.as_str(), c.maxturns, c.concurrency, c.margin_ms, c.max_wait_ms), ("y", Some(9), 1, 100, 60_000));
        assert_eq!(c.openings, Some(PathBuf::from("o.txt")));
        assert!(c.random_setup && !c.seed_given && c.sprt.is_none() && c.records.is_none());
        let c = parse_args(&args(&format!("{base} --openings a --openings b --sprt elo0=0 elo1=5 --sprt elo0=1 elo1=3")))
            .unwrap()
            .unwrap();
        assert_eq!((c.openings, c.sprt.map(|s| s.elo0)), (Some(PathBuf::from("b")), Some(1.0)));
        let help = help();
        for flag in ["--variant", "--engine", "--each", "--sprt", "--records-dir", "--max-wait", "option.NAME=VALUE", "report"] {
            assert!(help.contains(flag), "{flag}: {help}");
        }
    }

    #[test]
    fn shards_and_the_shared_folder() {
        let base = "--variant quattuor --engine cmd=a depth=1 --engine cmd=b depth=1";
        let c = parse_args(&args(&format!("{base} --shard 2/3 --records-dir /tmp/x"))).unwrap().unwrap();
        assert_eq!(c.shard, Some(Shard { k: 2, n: 3 }));
        assert_eq!(c.records, Some(PathBuf::from("/tmp/x/shard-2.jsonl")));
        let c = parse_args(&args(&format!("{base} --records-dir d --resume"))).unwrap().unwrap();
        assert_eq!(c.records, Some(PathBuf::from("d/shard-1.jsonl")));
        let c = parse_args(&args(&format!("{base} --shard 1/1 --sprt elo0=0 elo1=5"))).unwrap().unwrap();
        assert_eq!(c.shard, Some(Shard::WHOLE));
        for (extra, want) in [
            ("--shard 0/3", "need 1 ≤ K ≤ N"),
            ("--shard 4/3", "need 1 ≤ K ≤ N"),
            ("--shard 3", "not K/N"),
            ("--shard", "a value is required for '--shard <K/N>'"),
            ("--records-dir d --records r.jsonl", "together"),
            ("--shard 1/2 --sprt elo0=0 elo1=5", "needs --records-dir"),
        ] {
            let e = parse_args(&args(&format!("{base} {extra}"))).unwrap_err();
            assert!(e.to_string().contains(want), "{extra}: {e}");
        }
    }
}
