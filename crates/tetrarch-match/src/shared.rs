//! The shards' shared folder (`--records-dir DIR`) and the SPRT over all
//! the shards' records in it; see docs/distributed.md and [`crate::shard`]
//! for which games a shard plays.
//!
//! With `--records-dir DIR` shard `K` writes
//! `DIR/shard-K.jsonl`. With `--sprt`, before it starts a new block it reads
//! what every `DIR/shard-*.jsonl` gained since its last look (only whole
//! lines: a line still being written is read next time) and computes the
//! SPRT over all the games there (each game number once). Once it decides,
//! the shard writes `DIR/sprt-decision.txt` (atomically, and only if no
//! shard did before: the first decision stands) and starts no new block;
//! the others find the file at their next block. No shard waits for
//! another.

use std::collections::{BTreeMap, HashSet};
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use crate::record::GameRecord;
use crate::shard::{is_shard_file, Shard};
use crate::stats::{Sprt, SprtState};
use crate::tally::Tally;

/// The file that says the SPRT over all shards has decided.
pub fn decision_file(dir: &Path) -> PathBuf {
    dir.join("sprt-decision.txt")
}

/// What went wrong with the shared folder.
#[derive(Debug, thiserror::Error)]
pub enum SharedError {
    /// The folder cannot be made or listed.
    #[error("records folder {}: {source}", dir.display())]
    Dir {
        /// The folder.
        dir: PathBuf,
        /// The I/O error of making or listing the folder.
        source: std::io::Error,
    },
    /// A file cannot be read.
    #[error("cannot read {}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// The I/O error of reading the file.
        source: std::io::Error,
    },
    /// A complete line that is not a record.
    #[error("{} line {line}: {source}", path.display())]
    BadLine {
        /// The file.
        path: PathBuf,
        /// 1-based line number.
        line: usize,
        /// What is wrong with the line (not JSON, or not a record).
        source: crate::record::RecordError,
    },
    /// A record of another match.
    #[error("{} holds game {game} of another match ({difference}); give this match a folder of its own", path.display())]
    Foreign {
        /// The file.
        path: PathBuf,
        /// Its game number.
        game: u64,
        /// What differs (`identity::difference`).
        difference: String,
    },
    /// The decision file of another match, or unreadable.
    #[error("{}: {msg}", path.display())]
    Decision {
        /// The file.
        path: PathBuf,
        /// What is wrong: not a decision file, another match's (and how its
        /// identity differs), or an unknown decision.
        msg: String,
    },
}

/// The SPRT's decision over all shards.
#[derive(Clone, Debug, PartialEq)]
pub struct Decision {
    /// H0 or H1.
    pub state: SprtState,
    /// How it was reached, in words (the decision file's second line).
    pub text: String,
}

/// The shards' records in the shared folder, read incrementally.
pub(crate) struct SharedFolder {
    dir: PathBuf,
    match_id: String,
    /// Per file: the offset after its last complete line read, and the
    /// lines before it.
    files: BTreeMap<PathBuf, (u64, usize)>,
    seen: HashSet<u64>,
    pub(crate) tally: Tally,
    warned: HashSet<String>,
    /// Warnings not yet shown.
    pub(crate) warnings: Vec<String>,
}

impl SharedFolder {
    /// Reads every shard file in the folder (none if it does not exist yet;
    /// the runner makes it once the engines have started): a file with a
    /// bad line or a record of another match, or a decision file of another
    /// match, is an error (before any game).
    pub(crate) fn open(dir: &Path, match_id: &str, tally: Tally) -> Result<SharedFolder, SharedError> {
        let mut s = SharedFolder {
            dir: dir.to_path_buf(),
            match_id: match_id.to_string(),
            files: BTreeMap::new(),
            seen: HashSet::new(),
            tally,
            warned: HashSet::new(),
            warnings: Vec::new(),
        };
        s.read(true)?;
        s.decision()?;
        Ok(s)
    }

    /// Reads what the shard files gained. `strict`: a bad line or a foreign
    /// record is an error; else it is skipped with a warning (once).
    fn read(&mut self, strict: bool) -> Result<(), SharedError> {
        let list = match std::fs::read_dir(&self.dir) {
            Ok(l) => l,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
            Err(source) => return Err(SharedError::Dir { dir: self.dir.clone(), source }),
        };
        let mut paths: Vec<PathBuf> =
            list.filter_map(Result::ok).filter(|e| e.file_name().to_str().is_some_and(is_shard_file)).map(|e| e.path()).collect();
        paths.sort();
        for path in paths {
            if let Err(e) = self.read_file(&path, strict) {
                if strict {
                    return Err(e);
                }
                let msg = e.to_string();
                if self.warned.insert(msg.clone()) {
                    self.warnings.push(msg);
                }
            }
        }
        Ok(())
    }

    fn read_file(&mut self, path: &Path, strict: bool) -> Result<(), SharedError> {
        let rd = |source| SharedError::Read { path: path.to_path_buf(), source };
        let mut f = std::fs::File::open(path).map_err(rd)?;
        let len = f.metadata().map_err(rd)?.len();
        let (mut offset, mut lines) = self.files.get(path).copied().unwrap_or((0, 0));
        if len < offset {
            // Cut short (a torn last line removed by `--resume`): read it
            // again from the start; games already counted stay counted once.
            (offset, lines) = (0, 0);
        }
        f.seek(SeekFrom::Start(offset)).map_err(rd)?;
        let mut buf = Vec::new();
        f.read_to_end(&mut buf).map_err(rd)?;
        let Some(last) = buf.iter().rposition(|&b| b == b'\n') else {
            self.files.insert(path.to_path_buf(), (offset, lines));
            return Ok(());
        };
        let mut result = Ok(());
        for (i, line) in buf[..last].split(|&b| b == b'\n').enumerate() {
            let text = String::from_utf8_lossy(line);
            if text.trim().is_empty() {
                continue;
            }
            let rec = match GameRecord::from_json(&text) {
                Ok(r) => r,
                Err(source) => {
                    let line = lines + i + 1;
                    result = result.and(Err(SharedError::BadLine { path: path.to_path_buf(), line, source }));
                    if strict {
                        break;
                    }
                    continue;
                }
            };
            if rec.match_id != self.match_id {
                let difference = crate::identity::difference(&self.match_id, &rec.match_id);
                result = result.and(Err(SharedError::Foreign { path: path.to_path_buf(), game: rec.game, difference }));
                if strict {
                    break;
                }
                continue;
            }
            if self.seen.insert(rec.game) {
                self.tally.add(&rec);
            }
        }
        let count = buf[..last].iter().filter(|&&b| b == b'\n').count() + 1;
        self.files.insert(path.to_path_buf(), (offset + last as u64 + 1, lines + count));
        result
    }

    /// The decision file's decision, if there is one (of this match).
    pub(crate) fn decision(&self) -> Result<Option<Decision>, SharedError> {
        let path = decision_file(&self.dir);
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(source) => return Err(SharedError::Read { path, source }),
        };
        let mut lines = text.lines();
        let bad = |msg: String| SharedError::Decision { path: path.clone(), msg };
        let id = lines
            .next()
            .and_then(|l| l.strip_prefix("match "))
            .ok_or_else(|| bad("not a decision file of tetrarch match".into()))?;
        if id != self.match_id {
            return Err(bad(format!(
                "the decision of another match ({}); give this match a folder of its own",
                crate::identity::difference(&self.match_id, id)
            )));
        }
        let text = lines.next().unwrap_or("").to_string();
        let state = if text.starts_with("H1") {
            SprtState::H1
        } else if text.starts_with("H0") {
            SprtState::H0
        } else {
            return Err(bad(format!("unknown decision `{text}`")));
        };
        Ok(Some(Decision { state, text }))
    }

    /// Before a new block: the decision file, else the SPRT over every
    /// shard's games read so far (and the file written when it decides).
    pub(crate) fn check(&mut self, sprt: &Sprt, shard: Shard) -> Option<Decision> {
        match self.decision() {
            Ok(Some(d)) => return Some(d),
            Ok(None) => {}
            Err(e) => {
                let msg = e.to_string();
                if self.warned.insert(msg.clone()) {
                    self.warnings.push(msg);
                }
            }
        }
        let _ = self.read(false);
        let llr = self.tally.llr(sprt);
        let state = sprt.state(llr);
        if state == SprtState::Continue {
            return None;
        }
        let text = format!(
            "{} accepted: LLR {llr:.2} [{:.2}, {:.2}] over {} games of all shards (seen by shard {shard})",
            if state == SprtState::H1 { "H1" } else { "H0" },
            sprt.lower(),
            sprt.upper(),
            self.tally.games
        );
        match self.write_decision(&text, shard) {
            Ok(true) => {}
            // Another shard decided first: its decision stands.
            Ok(false) => {
                if let Ok(Some(d)) = self.decision() {
                    return Some(d);
                }
            }
            Err(e) => {
                let msg =
                    format!("cannot write {}: {e} (the other shards decide by themselves)", decision_file(&self.dir).display());
                if self.warned.insert(msg.clone()) {
                    self.warnings.push(msg);
                }
            }
        }
        Some(Decision { state, text })
    }

    /// Writes the decision file unless it exists (the first decision
    /// stands): a whole temporary file, then a hard link to the final name,
    /// which fails if that exists (atomic on local filesystems and NFS).
    /// `Ok(false)` if another shard's file was there first.
    fn write_decision(&self, text: &str, shard: Shard) -> std::io::Result<bool> {
        let tmp = self.dir.join(format!(".sprt-decision.{}.{}.tmp", shard.k, std::process::id()));
        std::fs::write(&tmp, format!("match {}\n{text}\n", self.match_id))?;
        let r = match std::fs::hard_link(&tmp, decision_file(&self.dir)) {
            Ok(()) => Ok(true),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(false),
            // A filesystem without hard links: replace (both decisions hold).
            Err(_) => std::fs::rename(&tmp, decision_file(&self.dir)).map(|_| true),
        };
        let _ = std::fs::remove_file(&tmp);
        r
    }

    /// Reads what the shard files gained (bad lines and records of other
    /// matches are skipped with a warning).
    pub(crate) fn refresh(&mut self) {
        let _ = self.read(false);
    }

    /// Games of all shards read so far and the SPRT's LLR over them.
    pub(crate) fn state(&self, sprt: &Sprt) -> (u64, f64) {
        (self.tally.games, self.tally.llr(sprt))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Format;
    use crate::shard::shard_file;

    fn record(game: u64, mid: &str, a_points: f64) -> GameRecord {
        let round = (game % 2) as u32;
        let seat_engines = if round == 0 { vec![0, 1] } else { vec![1, 0] };
        let a = seat_engines.iter().position(|&e| e == 0).unwrap();
        let mut points = vec![1.0 - a_points; 2];
        points[a] = a_points;
        GameRecord {
            match_id: mid.into(),
            game,
            opening_index: game / 2,
            round,
            variant: "quattuor".into(),
            start: "startpos".into(),
            opening_turns: 0,
            seats: seat_engines.iter().map(|&e| ["A", "B"][e].to_string()).collect(),
            seat_engines,
            turns: vec![],
            times_ms: vec![],
            scores: vec![],
            result: "draw".into(),
            reason: "test".into(),
            decided: crate::record::Decided::Adjudication,
            culprit: None,
            points,
            ranks: vec![1, 1],
            started: 0,
            duration_ms: 0,
        }
    }

    fn tally() -> Tally {
        Tally::new(Format::Duel, vec!["A".into(), "B".into()], None)
    }

    #[test]
    fn the_shared_folder_reads_whole_lines_once_and_refuses_other_matches() {
        let dir = std::env::temp_dir().join(format!("tm-shared-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        // A folder not made yet: nothing to read, and it is not made.
        let s = SharedFolder::open(&dir, "m", tally()).unwrap();
        assert_eq!(s.tally.games, 0);
        assert!(!dir.exists());
        let line = |g: u64, p: f64| format!("{}\n", record(g, "m", p).to_json());
        // Shard 1 has games 0, 1 and half of game 4's line; shard 2 games 2, 3.
        std::fs::create_dir_all(&dir).unwrap();
        let f1 = shard_file(&dir, Shard { k: 1, n: 2 });
        let f2 = shard_file(&dir, Shard { k: 2, n: 2 });
        let torn = line(4, 1.0);
        std::fs::write(&f1, format!("{}{}{}", line(0, 1.0), line(1, 0.5), &torn[..20])).unwrap();
        std::fs::write(&f2, format!("{}{}", line(2, 1.0), line(3, 1.0))).unwrap();
        std::fs::write(dir.join("notes.txt"), "not a shard file").unwrap();
        let mut s = SharedFolder::open(&dir, "m", tally()).unwrap();
        assert_eq!(s.tally.games, 4);
        // The rest of the torn line arrives, and a copy of game 2 (a shard
        // run twice) in a third file: counted once.
        let mut text = std::fs::read_to_string(&f1).unwrap();
        text.push_str(&torn[20..]);
        std::fs::write(&f1, &text).unwrap();
        std::fs::write(dir.join("shard-3.jsonl"), line(2, 1.0)).unwrap();
        let sprt = Sprt { elo0: 0.0, elo1: 10.0, alpha: 0.05, beta: 0.05 };
        assert_eq!(s.check(&sprt, Shard { k: 1, n: 2 }), None);
        assert_eq!(s.tally.games, 5);
        assert!(s.warnings.is_empty(), "{:?}", s.warnings);
        // A file cut short (a torn line cut off) is read again from the start.
        std::fs::write(&f2, line(2, 1.0)).unwrap();
        let _ = s.check(&sprt, Shard { k: 1, n: 2 });
        assert_eq!(s.tally.games, 5);
        // A record of another match during the run: skipped with a warning;
        // at the start: an error.
        std::fs::write(dir.join("shard-4.jsonl"), format!("{}{}", line(6, 1.0), record(7, "other", 1.0).to_json() + "\n"))
            .unwrap();
        let _ = s.check(&sprt, Shard { k: 1, n: 2 });
        assert_eq!(s.tally.games, 6);
        assert_eq!(s.warnings.len(), 1, "{:?}", s.warnings);
        assert!(s.warnings[0].contains("another match"), "{:?}", s.warnings);
        let e = SharedFolder::open(&dir, "m", tally()).err().unwrap();
        assert!(matches!(e, SharedError::Foreign { game: 7, .. }), "{e}");
        std::fs::write(dir.join("shard-4.jsonl"), "{not json\n").unwrap();
        let e = SharedFolder::open(&dir, "m", tally()).err().unwrap();
        assert!(matches!(e, SharedError::BadLine { line: 1, .. }), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_decision_is_written_once_and_read_by_the_others() {
        let dir = std::env::temp_dir().join(format!("tm-decide-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        // 40 pairs, A won 30 and drew 10 (pair scores 2 and 1): H1 at elo1=10.
        let mut text = String::new();
        for p in 0..40u64 {
            let a = if p % 4 == 0 { 0.5 } else { 1.0 };
            text.push_str(&format!("{}\n{}\n", record(2 * p, "m", a).to_json(), record(2 * p + 1, "m", a).to_json()));
        }
        std::fs::write(shard_file(&dir, Shard { k: 2, n: 3 }), &text).unwrap();
        let sprt = Sprt { elo0: 0.0, elo1: 10.0, alpha: 0.05, beta: 0.05 };
        let mut s = SharedFolder::open(&dir, "m", tally()).unwrap();
        let d = s.check(&sprt, Shard { k: 2, n: 3 }).unwrap();
        assert_eq!(d.state, SprtState::H1);
        assert!(d.text.contains("over 80 games"), "{}", d.text);
        // Another shard that has not read the games yet finds the file; one
        // that reaches a decision too keeps the first.
        let mut other = SharedFolder::open(&dir, "m", tally()).unwrap();
        assert_eq!(other.decision().unwrap(), Some(d.clone()));
        assert!(!other.write_decision("H0 accepted: a later one", Shard { k: 3, n: 3 }).unwrap());
        assert_eq!(other.check(&sprt, Shard { k: 3, n: 3 }), Some(d.clone()));
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 2, "temporary files left");
        // The folder of another match is refused, decision file included.
        std::fs::remove_file(shard_file(&dir, Shard { k: 2, n: 3 })).unwrap();
        let e = SharedFolder::open(&dir, "other", tally()).err().unwrap();
        assert!(e.to_string().contains("another match"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
