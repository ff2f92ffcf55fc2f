//! The command line, cutechess style: `--flag value…` where engine settings
//! are `key=value` words after `--engine` (one engine each) or `--each` (all
//! engines). Everything is checked here, before any engine starts.

use std::path::PathBuf;

use crate::shard::Shard;
use crate::stats::Sprt;
use crate::tc::{parse_st, parse_tc, TimeControl};
use crate::tournament::Kind;

/// One engine as configured.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct EngineConfig {
    /// Display name (unique in the match).
    pub name: String,
    /// The program.
    pub cmd: String,
    /// Its arguments (`arg=`, repeatable).
    pub args: Vec<String>,
    /// Working directory (`dir=`).
    pub dir: Option<PathBuf>,
    /// `setoption` pairs in order (`option.NAME=VALUE`).
    pub options: Vec<(String, String)>,
    /// Clock (`tc=`).
    pub tc: Option<TimeControl>,
    /// Fixed time per turn, ms (`st=`).
    pub st_ms: Option<u64>,
    /// Fixed depth (`depth=`).
    pub depth: Option<u32>,
    /// Fixed nodes (`nodes=`).
    pub nodes: Option<u64>,
    /// Start a fresh process for every game (`restart=on`); by default a
    /// process is kept between games and restarted only after it failed.
    pub restart: bool,
    /// The protocol dialect the engine speaks (`proto=`).
    pub proto: Proto,
}

/// The protocol an engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Proto {
    /// `shared/spec/protocol.md` (Tetrarch and engines like it).
    #[default]
    Tetrarch,
    /// The 4pchess UCI dialect (`teamchess` only): no `UCI_Variant`,
    /// `position startpos|fen <FEN4> moves h2-h3 …`, `go rtime … gtime …`,
    /// `bestmove h2-h3`, scores from Red/Yellow's point of view.
    FourPChess,
}

/// Resign adjudication: a side whose engines all report at least `score` cp
/// against it for `movecount` turns each in a row loses.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Resign {
    /// Turns of every seat in a row.
    pub movecount: u32,
    /// Centipawns.
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
    /// Centipawns.
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
    /// SPRT.
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

/// The usage text.
pub const USAGE: &str = "\
tetrarch match: engine-vs-engine matches (docs/match.md)

USAGE:
  tetrarch match --variant NAME --engine cmd=PATH [KEY=VALUE…] --engine cmd=PATH […] [OPTIONS]
  tetrarch match --tournament round-robin|gauntlet --variant NAME --engine … --engine … --engine … [OPTIONS]

ENGINE KEYS (after --engine, or --each for every engine):
  cmd=PATH  arg=ARG (repeatable)  dir=DIR  name=NAME  option.NAME=VALUE
  proto=tetrarch|4pchess (4pchess: that engine's UCI dialect, teamchess only)
  tc=[MOVES/]SECONDS[+INC] | tc=inf   st=SECONDS   depth=N   nodes=N   restart=on|off

OPTIONS:
  --variant NAME            UCI_Variant of every game (required)
  --games N                 total games (default: one opening: 2, or 4 in free-for-all);
                            in a tournament, games of each pairing (group), a multiple of 2 (of 4)
  --tournament KIND         round-robin (every pair of engines; every four in free-for-all) or
                            gauntlet (the first engine against each other): any number of engines
  --concurrency N           games at once (default 1)
  --seed S                  seed of random openings and set-ups (default: from the clock, printed)
  --openings FILE           one opening per line: startpos | fen POS | setup T1 T2 | POS, each [moves T…]
  --random-plies N          random legal turns after the start / the file's opening
  --no-random-setup         games with a set-up: use startpos instead of random set-ups
  --sprt elo0=E0 elo1=E1 alpha=A beta=B     stop when the SPRT decides (2 sides only)
  --resign movecount=N score=CP             adjudicate a loss by the engines' scores
  --draw movenumber=N movecount=N score=CP  adjudicate a draw by the engines' scores
  --maxturns N              turn cap: draw after N turns (0 off; default 400 in quattuor, else off)
  --pgnout FILE             append PGN-style games
  --records FILE            append one JSON line per game
  --resume                  skip the games already in --records (or this shard's file in --records-dir)
  --shard K/N               play only shard K of N: whole game pairs, the union of the N shards is the match
  --records-dir DIR         shared folder of the shards: records to DIR/shard-K.jsonl; with --sprt, the SPRT
                            runs over every shard's records there and stops all shards (docs/distributed.md)
  --margin MS               extra time before a flag falls (default 100)
  --max-wait SECONDS        longest wait for bestmove without a clock (default 60)
  --log FILE                every line to and from the engines
  -h, --help                this text

  tetrarch match report [--json] FILE|DIR|GLOB…   one result table over records files (shards)
";

fn num<T: std::str::FromStr>(flag: &str, v: &str) -> Result<T, String> {
    v.parse().map_err(|_| format!("{flag}: bad number `{v}`"))
}

fn apply_engine_kv(e: &mut EngineConfig, kv: &str, seen_name: &mut bool) -> Result<(), String> {
    let (k, v) = kv.split_once('=').ok_or_else(|| format!("engine setting `{kv}` is not KEY=VALUE"))?;
    match k {
        "cmd" => {
            if v.is_empty() {
                return Err("cmd= is empty".into());
            }
            e.cmd = v.to_string()
        }
        "name" => {
            if v.is_empty() {
                return Err("name= is empty".into());
            }
            e.name = v.to_string();
            *seen_name = true;
        }
        "arg" => e.args.push(v.to_string()),
        "proto" => {
            e.proto = match v {
                "tetrarch" | "uci" => Proto::Tetrarch,
                "4pchess" => Proto::FourPChess,
                _ => return Err(format!("proto={v}: use tetrarch or 4pchess")),
            }
        }
        "dir" => e.dir = Some(PathBuf::from(v)),
        "tc" => e.tc = parse_tc(v)?,
        "st" => e.st_ms = Some(parse_st(v)?),
        "depth" => e.depth = Some(num::<u32>("depth=", v).and_then(|d| if d == 0 { Err("depth=0".into()) } else { Ok(d) })?),
        "nodes" => e.nodes = Some(num::<u64>("nodes=", v).and_then(|n| if n == 0 { Err("nodes=0".into()) } else { Ok(n) })?),
        "restart" => {
            e.restart = match v {
                "on" => true,
                "off" | "auto" => false,
                _ => return Err(format!("restart={v}: use on or off")),
            }
        }
        _ if k.starts_with("option.") && k.len() > 7 => {
            let name = &k[7..];
            if name.eq_ignore_ascii_case("UCI_Variant") {
                return Err("option.UCI_Variant: the variant is set with --variant".into());
            }
            if let Some(o) = e.options.iter_mut().find(|o| o.0.eq_ignore_ascii_case(name)) {
                o.1 = v.to_string();
            } else {
                e.options.push((name.to_string(), v.to_string()));
            }
        }
        _ => {
            return Err(format!(
                "unknown engine setting `{k}` (cmd, name, arg, dir, proto, option.NAME, tc, st, depth, nodes, restart)"
            ))
        }
    }
    Ok(())
}

fn kv_map<'a>(flag: &str, words: &'a [String], keys: &[&str]) -> Result<Vec<(&'a str, &'a str)>, String> {
    let mut out = Vec::new();
    for w in words {
        let (k, v) = w.split_once('=').ok_or_else(|| format!("{flag}: `{w}` is not KEY=VALUE"))?;
        if !keys.contains(&k) {
            return Err(format!("{flag}: unknown key `{k}` (keys: {})", keys.join(", ")));
        }
        out.push((k, v));
    }
    Ok(out)
}

/// Parses the arguments (without the program / sub-command name).
/// `Ok(None)` for `--help`.
pub fn parse_args(args: &[String]) -> Result<Option<Config>, String> {
    let mut cfg = Config {
        variant: String::new(),
        games: None,
        concurrency: 1,
        seed: 0,
        seed_given: false,
        engines: Vec::new(),
        openings: None,
        random_plies: 0,
        random_setup: true,
        sprt: None,
        resign: None,
        draw: None,
        maxturns: None,
        pgnout: None,
        records: None,
        margin_ms: 100,
        resume: false,
        max_wait_ms: 60_000,
        log: None,
        tournament: None,
        shard: None,
        records_dir: None,
    };
    let mut engine_words: Vec<Vec<String>> = Vec::new();
    let mut each_words: Vec<String> = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let flag = args[i].as_str();
        i += 1;
        // The words up to the next flag.
        let mut words = Vec::new();
        while i < args.len() && !(args[i].starts_with("--") || args[i] == "-h") {
            words.push(args[i].clone());
            i += 1;
        }
        let one = |words: &[String]| -> Result<String, String> {
            match words {
                [w] => Ok(w.clone()),
                [] => Err(format!("{flag} needs a value")),
                _ => Err(format!("{flag} takes one value, got {}", words.join(" "))),
            }
        };
        let none = |words: &[String]| -> Result<(), String> {
            if words.is_empty() {
                Ok(())
            } else {
                Err(format!("{flag} takes no value, got {}", words.join(" ")))
            }
        };
        match flag {
            "-h" | "--help" => return Ok(None),
            "--variant" => cfg.variant = one(&words)?,
            "--games" => {
                let n: u32 = num(flag, &one(&words)?)?;
                if n == 0 {
                    return Err("--games must be at least 1".into());
                }
                cfg.games = Some(n);
            }
            "--concurrency" => {
                let n: usize = num(flag, &one(&words)?)?;
                if n == 0 || n > 256 {
                    return Err("--concurrency must be 1..256".into());
                }
                cfg.concurrency = n;
            }
            "--seed" => {
                cfg.seed = num(flag, &one(&words)?)?;
                cfg.seed_given = true;
            }
            "--engine" => {
                if words.is_empty() {
                    return Err("--engine needs cmd=PATH and other KEY=VALUE settings".into());
                }
                engine_words.push(words);
            }
            "--each" => {
                if words.is_empty() {
                    return Err("--each needs KEY=VALUE settings".into());
                }
                each_words.extend(words);
            }
            "--openings" => {
                let mut file = None;
                for w in &words {
                    match w.split_once('=') {
                        Some(("file", f)) => file = Some(f.to_string()),
                        Some((k, _)) if k == "order" || k == "format" => {
                            return Err(format!("--openings: `{k}=` is not supported (openings are played in file order)"))
                        }
                        _ if file.is_none() => file = Some(w.clone()),
                        _ => return Err(format!("--openings: unexpected `{w}`")),
                    }
                }
                cfg.openings = Some(PathBuf::from(file.ok_or("--openings needs a FILE")?));
            }
            "--random-plies" => cfg.random_plies = num(flag, &one(&words)?)?,
            "--no-random-setup" => {
                none(&words)?;
                cfg.random_setup = false;
            }
            "--sprt" => {
                let kv = kv_map(flag, &words, &["elo0", "elo1", "alpha", "beta"])?;
                let mut s = Sprt { elo0: f64::NAN, elo1: f64::NAN, alpha: 0.05, beta: 0.05 };
                for (k, v) in kv {
                    let x: f64 = num(flag, v)?;
                    match k {
                        "elo0" => s.elo0 = x,
                        "elo1" => s.elo1 = x,
                        "alpha" => s.alpha = x,
                        _ => s.beta = x,
                    }
                }
                if !(s.elo0.is_finite() && s.elo1.is_finite()) || s.elo1 <= s.elo0 {
                    return Err("--sprt needs elo0 < elo1".into());
                }
                if !(s.alpha > 0.0 && s.alpha < 0.5 && s.beta > 0.0 && s.beta < 0.5) {
                    return Err("--sprt: alpha and beta must be in (0, 0.5)".into());
                }
                cfg.sprt = Some(s);
            }
            "--resign" => {
                let kv = kv_map(flag, &words, &["movecount", "score", "twosided"])?;
                let mut r = Resign { movecount: 3, score: 600 };
                for (k, v) in kv {
                    match k {
                        "movecount" => r.movecount = num(flag, v)?,
                        "score" => r.score = num(flag, v)?,
                        _ => {
                            if v != "true" {
                                return Err("--resign: only twosided=true (the default) is supported".into());
                            }
                        }
                    }
                }
                if r.movecount == 0 || r.score <= 0 {
                    return Err("--resign: movecount and score must be positive".into());
                }
                cfg.resign = Some(r);
            }
            "--draw" => {
                let kv = kv_map(flag, &words, &["movenumber", "movecount", "score"])?;
                let mut d = DrawAdj { movenumber: 40, movecount: 8, score: 10 };
                for (k, v) in kv {
                    match k {
                        "movenumber" => d.movenumber = num(flag, v)?,
                        "movecount" => d.movecount = num(flag, v)?,
                        _ => d.score = num(flag, v)?,
                    }
                }
                if d.movecount == 0 || d.score < 0 {
                    return Err("--draw: movecount must be positive and score not negative".into());
                }
                cfg.draw = Some(d);
            }
            "--maxturns" | "--maxmoves" => cfg.maxturns = Some(num(flag, &one(&words)?)?),
            "--pgnout" => cfg.pgnout = Some(PathBuf::from(one(&words)?)),
            "--records" => cfg.records = Some(PathBuf::from(one(&words)?)),
            "--log" => cfg.log = Some(PathBuf::from(one(&words)?)),
            "--margin" => cfg.margin_ms = num(flag, &one(&words)?)?,
            "--max-wait" => {
                let s: f64 = num(flag, &one(&words)?)?;
                if !(s > 0.0 && s < 1e6) {
                    return Err("--max-wait must be positive".into());
                }
                cfg.max_wait_ms = (s * 1000.0) as u64;
            }
            "--resume" => {
                none(&words)?;
                cfg.resume = true;
            }
            "--shard" => cfg.shard = Some(one(&words)?.parse::<Shard>().map_err(|e| e.to_string())?),
            "--records-dir" => cfg.records_dir = Some(PathBuf::from(one(&words)?)),
            "--tournament" => {
                let w = one(&words)?;
                cfg.tournament = Some(Kind::parse(&w).ok_or_else(|| format!("--tournament {w}: use round-robin or gauntlet"))?);
            }
            _ if !flag.starts_with('-') => return Err(format!("unexpected `{flag}` (settings follow a --flag)")),
            _ => return Err(format!("unknown option `{flag}` (see --help)")),
        }
    }
    if cfg.variant.is_empty() {
        return Err("--variant is required".into());
    }
    if let Some(dir) = &cfg.records_dir {
        if cfg.records.is_some() {
            return Err("--records and --records-dir together: a shard's records go to DIR/shard-K.jsonl".into());
        }
        cfg.records = Some(crate::shard::shard_file(dir, cfg.shard.unwrap_or(Shard::WHOLE)));
    }
    if cfg.resume && cfg.records.is_none() {
        return Err("--resume needs --records FILE (or --records-dir DIR)".into());
    }
    if cfg.shard.is_some_and(|s| s.n > 1) && cfg.sprt.is_some() && cfg.records_dir.is_none() {
        return Err("--sprt with --shard needs --records-dir DIR: the SPRT must see every shard's games".into());
    }
    if cfg.tournament.is_some() && cfg.sprt.is_some() {
        return Err("--sprt needs a match of two engines, not a --tournament".into());
    }
    // Engines: --each first, then the engine's own words override.
    for (k, words) in engine_words.iter().enumerate() {
        let mut e = EngineConfig::default();
        let mut named = false;
        for w in each_words.iter().chain(words.iter()) {
            apply_engine_kv(&mut e, w, &mut named).map_err(|m| format!("engine {}: {m}", k + 1))?;
        }
        if e.cmd.is_empty() {
            return Err(format!("engine {}: cmd=PATH is missing", k + 1));
        }
        if !named {
            e.name = std::path::Path::new(&e.cmd)
                .file_name()
                .map(|f| f.to_string_lossy().into_owned())
                .unwrap_or_else(|| e.cmd.clone());
        }
        if e.tc.is_none() && e.st_ms.is_none() && e.depth.is_none() && e.nodes.is_none() {
            return Err(format!("engine {} ({}): no limit: give tc=, st=, depth= or nodes=", k + 1, e.name));
        }
        if e.tc.is_some() && e.st_ms.is_some() {
            return Err(format!("engine {} ({}): tc= and st= together", k + 1, e.name));
        }
        if e.proto == Proto::FourPChess && cfg.variant != "teamchess" {
            return Err(format!("engine {} ({}): proto=4pchess plays only --variant teamchess", k + 1, e.name));
        }
        cfg.engines.push(e);
    }
    if cfg.engines.len() < 2 {
        return Err(format!("need at least two --engine (got {})", cfg.engines.len()));
    }
    // Unique names: a second `tetrarch` becomes `tetrarch-2`.
    for k in 1..cfg.engines.len() {
        let base = cfg.engines[k].name.clone();
        let mut n = 2;
        while cfg.engines[..k].iter().any(|e| e.name == cfg.engines[k].name) {
            cfg.engines[k].name = format!("{base}-{n}");
            n += 1;
        }
    }
    if !cfg.seed_given {
        cfg.seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64 % 1_000_000_000)
            .unwrap_or(1);
    }
    Ok(Some(cfg))
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn same_names_made_unique() {
        let c = parse_args(&args("--variant quattuor --each cmd=/x/tetrarch depth=1 --engine --engine")).unwrap_err();
        assert!(c.contains("--engine needs"), "{c}");
        let c = parse_args(&args("--variant quattuor --each cmd=/x/tetrarch depth=1 --engine arg=1 --engine arg=2"))
            .unwrap()
            .unwrap();
        assert_eq!(c.engines[0].name, "tetrarch");
        assert_eq!(c.engines[1].name, "tetrarch-2");
    }

    #[test]
    fn errors() {
        for (line, want) in [
            ("--engine cmd=a depth=1 --engine cmd=b depth=1", "--variant is required"),
            ("--variant x --engine cmd=a depth=1", "at least two"),
            ("--variant x --engine cmd=a --engine cmd=b depth=1", "no limit"),
            ("--variant x --engine cmd=a tc=abc --engine cmd=b depth=1", "bad time"),
            ("--variant x --engine cmd=a depth=1 foo=1 --engine cmd=b depth=1", "unknown engine setting"),
            ("--variant x --engine name=a depth=1 --engine cmd=b depth=1", "cmd=PATH is missing"),
            ("--variant x --engine cmd=a depth=1 --engine cmd=b depth=1 --games 0", "at least 1"),
            ("--variant x --engine cmd=a depth=1 --engine cmd=b depth=1 --sprt elo0=5 elo1=1", "elo0 < elo1"),
            ("--variant x --engine cmd=a depth=1 --engine cmd=b depth=1 --bogus", "unknown option"),
            ("--variant x --engine cmd=a depth=1 --engine cmd=b depth=1 --resume", "--resume needs"),
            ("--variant x --engine cmd=a st=0 --engine cmd=b depth=1", "positive"),
            ("--variant x y --engine cmd=a depth=1 --engine cmd=b depth=1", "one value"),
            ("--variant x --engine cmd=a depth=1 --engine cmd=b depth=1 --tournament swiss", "round-robin or gauntlet"),
            ("--variant x --engine cmd=a depth=1 --engine cmd=b depth=1 --tournament", "needs a value"),
            (
                "--variant x --engine cmd=a depth=1 --engine cmd=b depth=1 --tournament gauntlet --sprt elo0=0 elo1=5",
                "not a --tournament",
            ),
        ] {
            let e = parse_args(&args(line)).unwrap_err();
            assert!(e.contains(want), "{line}: {e}");
        }
        assert_eq!(parse_args(&args("--help")).unwrap(), None);
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
            ("--shard", "needs a value"),
            ("--records-dir d --records r.jsonl", "together"),
            ("--shard 1/2 --sprt elo0=0 elo1=5", "needs --records-dir"),
        ] {
            let e = parse_args(&args(&format!("{base} {extra}"))).unwrap_err();
            assert!(e.contains(want), "{extra}: {e}");
        }
    }
}
