//! `tetrarch match report FILE…`: one result table over any number of
//! records files (the shards of a match, a match and its resumed parts).
//!
//! The files must be of one match: every record's fingerprint (its `match`
//! field, [`crate::identity`]) the same, else the report names what
//! differs and stops. A game number seen twice (a shard run again, a file
//! copied) counts once: the first, in the order of the arguments (a
//! directory's and a pattern's files in name order); a copy that differs
//! from it is named in a note. The table is the match's own
//! ([`crate::runner`]), with games added in the order of their numbers.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::games::{format_of, Format, GameInfo, GameVisitor};
use crate::record::{read_records, GameRecord};
use crate::runner::Tally;
use crate::stats::Sprt;
use crate::tournament::{Kind, TournamentTally};

/// The usage text of `tetrarch match report`.
pub const USAGE: &str = "\
tetrarch match report: one result table over records files (docs/distributed.md)

USAGE:
  tetrarch match report [--json] [--sprt elo0=E0 elo1=E1 alpha=A beta=B] FILE|DIR|GLOB…

  FILE   a records file (--records, or a shard's DIR/shard-K.jsonl)
  DIR    every *.jsonl file in it
  GLOB   a pattern such as 'results/shard-*.jsonl' (for shells and schedulers that pass it on unexpanded)

The files must be of one match (variant, engines, limits, options, seed, openings, adjudication,
SPRT); a game found twice counts once. --json prints the figures as one JSON object.
--sprt gives the SPRT's bounds for records that do not carry them (written by an older runner).
";

/// Why there is no report.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// A bad command line.
    #[error("{0}")]
    Usage(String),
    /// A pattern that matches no file.
    #[error("no file matches `{0}`")]
    NoMatch(String),
    /// A malformed pattern.
    #[error("bad pattern `{pattern}`: {msg}")]
    Pattern {
        /// The pattern.
        pattern: String,
        /// Why.
        msg: String,
    },
    /// A directory that cannot be listed or holds no records file.
    #[error("{}: {msg}", dir.display())]
    Dir {
        /// The directory.
        dir: PathBuf,
        /// Why.
        msg: String,
    },
    /// A file that cannot be read or has a bad line.
    #[error("{0}")]
    Records(String),
    /// Nothing to count.
    #[error("no game records in {0}")]
    Empty(String),
    /// Records of two matches.
    #[error(
        "the files are from different matches: {} (game {ga}) and {} (game {gb}) differ in {difference}",
        a.display(),
        b.display()
    )]
    Mixed {
        /// A file of the first match.
        a: PathBuf,
        /// One of its games.
        ga: u64,
        /// A file of the other.
        b: PathBuf,
        /// One of its games.
        gb: u64,
        /// What differs, in words.
        difference: String,
    },
    /// A variant this runner does not know.
    #[error("unknown variant `{0}` in the records")]
    Variant(String),
}

/// A report over records files.
#[derive(Debug)]
pub struct Report {
    /// The match's fingerprint.
    pub match_id: String,
    /// The files read.
    pub files: Vec<PathBuf>,
    /// Records read (duplicates included).
    pub records: usize,
    /// Records of a game already counted.
    pub duplicates: usize,
    /// Duplicates that differ from the game counted, in words.
    pub conflicts: Vec<String>,
    /// Games counted.
    pub games: u64,
    /// Game numbers below the highest one that no file has.
    pub missing: Vec<u64>,
    /// The result table (the match's).
    pub table: Vec<String>,
    /// The same as JSON.
    pub json: serde_json::Value,
}

fn has_pattern(s: &str) -> bool {
    s.contains(['*', '?', '['])
}

/// The files the arguments name: a file as is, a directory's `*.jsonl`
/// files, a pattern's matches (each in name order); a file named twice is
/// read once.
pub fn expand(inputs: &[String]) -> Result<Vec<PathBuf>, ReportError> {
    let mut out: Vec<PathBuf> = Vec::new();
    let mut seen: std::collections::HashSet<PathBuf> = std::collections::HashSet::new();
    for input in inputs {
        let mut found: Vec<PathBuf> = Vec::new();
        let path = Path::new(input);
        if path.is_dir() {
            let list = std::fs::read_dir(path).map_err(|e| ReportError::Dir { dir: path.to_path_buf(), msg: e.to_string() })?;
            found =
                list.filter_map(Result::ok).map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "jsonl")).collect();
            found.sort();
            if found.is_empty() {
                return Err(ReportError::Dir { dir: path.to_path_buf(), msg: "no *.jsonl records file in it".into() });
            }
        } else if !path.exists() && has_pattern(input) {
            let paths = glob::glob(input).map_err(|e| ReportError::Pattern { pattern: input.clone(), msg: e.to_string() })?;
            for p in paths {
                found.push(p.map_err(|e| ReportError::Records(format!("{}: {}", e.path().display(), e.error())))?);
            }
            found.retain(|p| p.is_file());
            found.sort();
            if found.is_empty() {
                return Err(ReportError::NoMatch(input.clone()));
            }
        } else {
            found.push(path.to_path_buf());
        }
        for p in found {
            if seen.insert(p.canonicalize().unwrap_or_else(|_| p.clone())) {
                out.push(p);
            }
        }
    }
    Ok(out)
}

struct FormatOf;

impl GameVisitor for FormatOf {
    type Output = Format;
    fn visit<G: GameInfo>(self, variant: &'static str) -> Format {
        format_of(&G::startpos(&G::default_options(variant)))
    }
}

/// Parses the fingerprint's `sprt=` part (`elo0,elo1,alpha,beta`).
fn sprt_of(value: &str) -> Option<Sprt> {
    let v: Vec<f64> = value.split(',').map(|x| x.parse().ok()).collect::<Option<_>>()?;
    match v[..] {
        [elo0, elo1, alpha, beta] => Some(Sprt { elo0, elo1, alpha, beta }),
        _ => None,
    }
}

/// The engines' names, by command-line index: the fingerprint's list when
/// the records agree with it (a name may hold a comma), else from the
/// records' seats.
fn engine_names(match_id: &str, recs: &[&GameRecord]) -> Vec<String> {
    let listed: Option<Vec<String>> =
        crate::identity::part(match_id, "engines").map(|v| v.split(',').map(String::from).collect());
    let agrees =
        |names: &[String]| recs.iter().all(|r| r.seat_engines.iter().zip(&r.seats).all(|(&e, n)| names.get(e) == Some(n)));
    if let Some(names) = listed.filter(|n| agrees(n)) {
        return names;
    }
    let n = recs.iter().flat_map(|r| r.seat_engines.iter().copied()).max().map_or(0, |m| m + 1);
    let mut names: Vec<String> = (0..n).map(|e| format!("engine {}", e + 1)).collect();
    for r in recs {
        for (&e, name) in r.seat_engines.iter().zip(&r.seats) {
            names[e] = name.clone();
        }
    }
    names
}

/// Reads `files` and builds the report; `sprt` overrides the records' SPRT.
pub fn build(files: &[PathBuf], sprt: Option<Sprt>) -> Result<Report, ReportError> {
    let mut counted: BTreeMap<u64, (GameRecord, usize)> = BTreeMap::new();
    let mut records = 0;
    let mut duplicates = 0;
    let mut conflicts = Vec::new();
    let mut first: Option<(String, usize, u64)> = None;
    for (i, path) in files.iter().enumerate() {
        for r in read_records(path).map_err(|e| ReportError::Records(e.to_string()))? {
            records += 1;
            match &first {
                None => first = Some((r.match_id.clone(), i, r.game)),
                Some((mid, fi, fg)) if *mid != r.match_id => {
                    return Err(ReportError::Mixed {
                        a: files[*fi].clone(),
                        ga: *fg,
                        b: path.clone(),
                        gb: r.game,
                        difference: crate::identity::difference(mid, &r.match_id),
                    })
                }
                Some(_) => {}
            }
            match counted.get(&r.game) {
                Some((kept, ki)) => {
                    duplicates += 1;
                    if kept.turns != r.turns || kept.result != r.result || kept.reason != r.reason {
                        conflicts.push(format!(
                            "game {} differs between {} ({}, {}) and {} ({}, {}): the first is counted",
                            r.game,
                            files[*ki].display(),
                            kept.result,
                            kept.reason,
                            path.display(),
                            r.result,
                            r.reason
                        ));
                    }
                }
                None => {
                    counted.insert(r.game, (r, i));
                }
            }
        }
    }
    let Some((match_id, _, _)) = first else {
        let names: Vec<String> = files.iter().map(|p| p.display().to_string()).collect();
        return Err(ReportError::Empty(names.join(", ")));
    };
    let recs: Vec<&GameRecord> = counted.values().map(|(r, _)| r).collect();
    let variant = recs[0].variant.clone();
    let fmt = crate::games::with_variant(&variant, FormatOf).ok_or_else(|| ReportError::Variant(variant.clone()))?;
    let names = engine_names(&match_id, &recs);
    let kind = crate::identity::part(&match_id, "tournament").and_then(|k| Kind::parse(&k));
    let tour = kind.map(|k| TournamentTally::new(k, names.clone(), fmt == Format::FreeForAll));
    let mut tally = Tally::new(fmt, names, tour);
    for r in &recs {
        tally.add(r);
    }
    let sprt = sprt.or_else(|| crate::identity::part(&match_id, "sprt").and_then(|s| sprt_of(&s)));
    let sprt = sprt.filter(|_| kind.is_none() && fmt != Format::FreeForAll);
    let last = *counted.keys().next_back().unwrap_or(&0);
    let missing: Vec<u64> = (0..last).filter(|g| !counted.contains_key(g)).collect();
    let games = tally.games;
    let mut table = vec![format!(
        "Report over {} file{} ({}): {records} records, {duplicates} duplicate{} ignored, {games} games (numbers 0-{last}, {})",
        files.len(),
        if files.len() == 1 { "" } else { "s" },
        files.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", "),
        if duplicates == 1 { "" } else { "s" },
        match missing.len() {
            0 => "none missing".to_string(),
            n => format!(
                "{n} missing: {}{}",
                missing.iter().take(10).map(|g| g.to_string()).collect::<Vec<_>>().join(", "),
                if n > 10 { ", …" } else { "" }
            ),
        }
    )];
    table.push(format!("Match: {match_id}"));
    table.extend(tally.table(sprt.as_ref()));
    let mut json = tally.to_json(sprt.as_ref());
    if let Some(obj) = json.as_object_mut() {
        obj.insert("match".into(), serde_json::json!(match_id));
        obj.insert("variant".into(), serde_json::json!(variant));
        obj.insert("files".into(), serde_json::json!(files.iter().map(|p| p.display().to_string()).collect::<Vec<_>>()));
        obj.insert("records".into(), serde_json::json!(records));
        obj.insert("duplicates".into(), serde_json::json!(duplicates));
        obj.insert("conflicts".into(), serde_json::json!(conflicts));
        obj.insert("last_game".into(), serde_json::json!(last));
        obj.insert("missing".into(), serde_json::json!(missing));
    }
    Ok(Report { match_id, files: files.to_vec(), records, duplicates, conflicts, games, missing, table, json })
}

/// Parses `--sprt elo0=… elo1=… [alpha=…] [beta=…]`.
fn parse_sprt(words: &[String]) -> Result<Sprt, ReportError> {
    let mut s = Sprt { elo0: f64::NAN, elo1: f64::NAN, alpha: 0.05, beta: 0.05 };
    for w in words {
        let (k, v) = w.split_once('=').ok_or_else(|| ReportError::Usage(format!("--sprt: `{w}` is not KEY=VALUE")))?;
        let x: f64 = v.parse().map_err(|_| ReportError::Usage(format!("--sprt: bad number `{v}`")))?;
        match k {
            "elo0" => s.elo0 = x,
            "elo1" => s.elo1 = x,
            "alpha" => s.alpha = x,
            "beta" => s.beta = x,
            _ => return Err(ReportError::Usage(format!("--sprt: unknown key `{k}` (elo0, elo1, alpha, beta)"))),
        }
    }
    if !(s.elo0.is_finite() && s.elo1.is_finite()) || s.elo1 <= s.elo0 {
        return Err(ReportError::Usage("--sprt needs elo0 < elo1".into()));
    }
    if !(s.alpha > 0.0 && s.alpha < 0.5 && s.beta > 0.0 && s.beta < 0.5) {
        return Err(ReportError::Usage("--sprt: alpha and beta must be in (0, 0.5)".into()));
    }
    Ok(s)
}

/// `tetrarch match report ARGS`: prints the report; exit code 0, or 2
/// (with the reason on standard error) for bad input.
pub fn main_with_args(args: &[String]) -> i32 {
    let mut json = false;
    let mut sprt = None;
    let mut inputs = Vec::new();
    let mut i = 0;
    let parsed: Result<(), ReportError> = (|| {
        while i < args.len() {
            let a = &args[i];
            i += 1;
            match a.as_str() {
                "-h" | "--help" => return Err(ReportError::Usage(String::new())),
                "--json" => json = true,
                "--sprt" => {
                    let start = i;
                    while i < args.len() && args[i].contains('=') && !args[i].starts_with("--") {
                        i += 1;
                    }
                    sprt = Some(parse_sprt(&args[start..i])?);
                }
                "--" => {
                    inputs.extend(args[i..].iter().cloned());
                    i = args.len();
                }
                f if f.starts_with("--") => return Err(ReportError::Usage(format!("unknown option `{f}` (see --help)"))),
                _ => inputs.push(a.clone()),
            }
        }
        if inputs.is_empty() {
            return Err(ReportError::Usage("give records files (FILE, DIR or GLOB)".into()));
        }
        Ok(())
    })();
    match parsed {
        Err(ReportError::Usage(m)) if m.is_empty() => {
            print!("{USAGE}");
            return 0;
        }
        Err(e) => {
            eprintln!("error: {e}");
            eprintln!("(tetrarch match report --help)");
            return 2;
        }
        Ok(()) => {}
    }
    let report = match expand(&inputs).and_then(|files| build(&files, sprt)) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    for c in &report.conflicts {
        eprintln!("note: {c}");
    }
    if json {
        println!("{}", serde_json::to_string_pretty(&report.json).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}")));
    } else {
        for l in &report.table {
            println!("{l}");
        }
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sprt_part_and_flag() {
        assert_eq!(sprt_of("0,10,0.05,0.1"), Some(Sprt { elo0: 0.0, elo1: 10.0, alpha: 0.05, beta: 0.1 }));
        assert_eq!(sprt_of("-"), None);
        assert_eq!(sprt_of("0,10"), None);
        let w = |s: &str| s.split_whitespace().map(String::from).collect::<Vec<_>>();
        assert_eq!(parse_sprt(&w("elo0=0 elo1=5")).unwrap().elo1, 5.0);
        assert!(parse_sprt(&w("elo0=5 elo1=0")).is_err());
        assert!(parse_sprt(&w("elo0=0 elo1=5 gamma=1")).is_err());
    }

    #[test]
    fn patterns_and_directories() {
        let dir = std::env::temp_dir().join(format!("tm-report-expand-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        for f in ["shard-2.jsonl", "shard-1.jsonl", "notes.txt"] {
            std::fs::write(dir.join(f), "").unwrap();
        }
        let d = dir.display().to_string();
        let want = vec![dir.join("shard-1.jsonl"), dir.join("shard-2.jsonl")];
        assert_eq!(expand(std::slice::from_ref(&d)).unwrap(), want);
        assert_eq!(expand(&[format!("{d}/shard-*.jsonl")]).unwrap(), want);
        // Named twice: read once.
        assert_eq!(expand(&[format!("{d}/shard-1.jsonl"), format!("{d}/shard-?.jsonl")]).unwrap(), want);
        assert!(matches!(expand(&[format!("{d}/none-*.jsonl")]), Err(ReportError::NoMatch(_))));
        assert!(matches!(expand(&[format!("{d}/[")]), Err(ReportError::Pattern { .. })));
        std::fs::remove_file(dir.join("shard-1.jsonl")).unwrap();
        std::fs::remove_file(dir.join("shard-2.jsonl")).unwrap();
        assert!(matches!(expand(&[d]), Err(ReportError::Dir { .. })));
        // A missing plain file is found when it is read.
        let e = build(&expand(&[format!("{}/nothing.jsonl", dir.display())]).unwrap(), None).unwrap_err();
        assert!(e.to_string().contains("cannot read"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
