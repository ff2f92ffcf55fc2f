//! The data file of `tetrarch datagen`: JSON Lines (docs/tuning.md).
//!
//! ```text
//! {"format":"tetrarch-datagen 1","variant":"teamchess","nodes":5000,"seed":1,"random_plies":8,"games":2000,"shard":null}
//! {"game":0,"pos":"<position string>","seat":1,"score":35,"result":[1.0,0.0,1.0,0.0]}
//! …
//! {"game":0,"end":"win 1 3 checkmate","turns":88,"positions":57}
//! {"game":1,"pos":…}
//! ```
//!
//! The first line says how the file was made. Then the games in order of
//! their number, each as its sample lines followed by one `end` line: a
//! game counts only once its `end` line is there, so a file cut anywhere
//! (Ctrl-C, a full disk, `kill -9`) still loads: the last, unfinished game
//! is left out, and `--resume` cuts it off and plays on from it.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// The format word of the header.
pub const FORMAT: &str = "tetrarch-datagen 1";

/// The first line: what made the file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Header {
    /// [`FORMAT`].
    pub format: String,
    /// The variant.
    pub variant: String,
    /// Node budget per turn.
    pub nodes: u64,
    /// The seed.
    pub seed: u64,
    /// Random turns after the start.
    pub random_plies: u32,
    /// Games asked for (this shard's share if sharded).
    pub games: u64,
    /// `K/N` when the games are one shard of N.
    #[serde(default)]
    pub shard: Option<String>,
}

/// One labelled position.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sample {
    /// The game's number.
    pub game: u64,
    /// The position string (the game's own notation; it parses back).
    pub pos: String,
    /// The seat to move (0-based).
    pub seat: usize,
    /// The search's score of the game position this sample settles (its
    /// quiescence line played), for the sample's seat to move's side.
    pub score: i32,
    /// The game's result per seat: 1 win, ½ draw, 0 loss for two sides;
    /// in free-for-all the place as points, `(n − place) / (n − 1)` with
    /// shared places averaged.
    pub result: Vec<f64>,
}

/// The line that closes a game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameEnd {
    /// The game's number.
    pub game: u64,
    /// How it ended (`win 1 3 checkmate`, `draw turncap`, …).
    pub end: String,
    /// Turns played (the opening's included).
    pub turns: u32,
    /// Samples written for it.
    pub positions: u32,
}

/// A line of the file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Line {
    /// The header.
    Header(Header),
    /// A game's end.
    End(GameEnd),
    /// A sample.
    Sample(Sample),
}

/// Why a data file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum DataError {
    /// The file cannot be opened or read.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What failed.
        source: std::io::Error,
    },
    /// The first line is not a header of this format.
    #[error("{path}: not a Tetrarch data file (no `{FORMAT}` header)")]
    NoHeader {
        /// The file.
        path: PathBuf,
    },
    /// A line in the middle of the file does not parse.
    #[error("{path} line {line}: {why}")]
    Bad {
        /// The file.
        path: PathBuf,
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        why: String,
    },
}

/// What a data file holds: its header, the samples of its finished games
/// (in file order), the finished games' numbers, and the byte length of the
/// part that ends with the last finished game (what `--resume` keeps).
#[derive(Debug)]
pub struct DataFile {
    /// The header.
    pub header: Header,
    /// Samples of finished games.
    pub samples: Vec<Sample>,
    /// Finished games, in file order.
    pub ends: Vec<GameEnd>,
    /// Bytes up to and including the last `end` line (or the header).
    pub complete_len: u64,
}

/// The longest line read (a position string is a few hundred bytes).
const MAX_LINE: usize = 1 << 20;

/// Reads a data file. Lines after the last `end` line (a game cut short)
/// are left out; a malformed line before it is an error.
pub fn read(path: &Path) -> Result<DataFile, DataError> {
    let io = |source| DataError::Io { path: path.to_path_buf(), source };
    let f = std::fs::File::open(path).map_err(io)?;
    let mut r = BufReader::new(f);
    let mut buf = Vec::new();
    let mut offset = 0u64;
    let mut header = None;
    let mut pending: Vec<Sample> = Vec::new();
    let mut samples = Vec::new();
    let mut ends = Vec::new();
    let mut complete_len = 0;
    let mut line_no = 0;
    // A malformed line is only an error if a finished game follows it.
    let mut bad: Option<(usize, String)> = None;
    loop {
        buf.clear();
        let n = (&mut r).take(MAX_LINE as u64 + 1).read_until(b'\n', &mut buf).map_err(io)?;
        if n == 0 {
            break;
        }
        line_no += 1;
        offset += n as u64;
        let complete = buf.last() == Some(&b'\n');
        if !complete && n > MAX_LINE {
            return Err(DataError::Bad { path: path.to_path_buf(), line: line_no, why: "line too long".into() });
        }
        let text = String::from_utf8_lossy(&buf);
        let parsed = if complete {
            serde_json::from_str::<Line>(text.trim_end()).map_err(|e| e.to_string())
        } else {
            Err("cut short".into())
        };
        match parsed {
            Ok(Line::Header(h)) if header.is_none() => {
                if h.format != FORMAT {
                    return Err(DataError::NoHeader { path: path.to_path_buf() });
                }
                header = Some(h);
                complete_len = offset;
            }
            _ if header.is_none() => return Err(DataError::NoHeader { path: path.to_path_buf() }),
            Ok(Line::Header(_)) => {
                bad.get_or_insert((line_no, "a second header".into()));
            }
            Ok(Line::Sample(s)) => pending.push(s),
            Ok(Line::End(e)) => {
                if let Some((line, why)) = bad.take() {
                    return Err(DataError::Bad { path: path.to_path_buf(), line, why });
                }
                if pending.iter().any(|s| s.game != e.game) || pending.len() != e.positions as usize {
                    return Err(DataError::Bad {
                        path: path.to_path_buf(),
                        line: line_no,
                        why: format!("game {}: its samples do not match its end line", e.game),
                    });
                }
                samples.append(&mut pending);
                ends.push(e);
                complete_len = offset;
            }
            Err(why) => {
                bad.get_or_insert((line_no, why));
            }
        }
    }
    let header = header.ok_or_else(|| DataError::NoHeader { path: path.to_path_buf() })?;
    Ok(DataFile { header, samples, ends, complete_len })
}

/// Appends lines to a data file, one finished game at a time (one write
/// per game, flushed).
pub struct Writer {
    file: std::fs::File,
}

impl Writer {
    /// A new file with `header` (an existing file is replaced).
    pub fn create(path: &Path, header: &Header) -> std::io::Result<Writer> {
        let mut file = std::fs::File::create(path)?;
        let mut line = serde_json::to_string(&Line::Header(header.clone())).map_err(std::io::Error::other)?;
        line.push('\n');
        file.write_all(line.as_bytes())?;
        file.flush()?;
        Ok(Writer { file })
    }

    /// An existing file cut to `len` bytes (what [`read`] found complete),
    /// to append to.
    pub fn resume(path: &Path, len: u64) -> std::io::Result<Writer> {
        let file = std::fs::OpenOptions::new().write(true).open(path)?;
        file.set_len(len)?;
        let mut file = file;
        use std::io::Seek;
        file.seek(std::io::SeekFrom::End(0))?;
        Ok(Writer { file })
    }

    /// Writes one game: its samples and its end line.
    pub fn game(&mut self, samples: &[Sample], end: &GameEnd) -> std::io::Result<()> {
        let mut text = String::new();
        for s in samples {
            text.push_str(&serde_json::to_string(&Line::Sample(s.clone())).map_err(std::io::Error::other)?);
            text.push('\n');
        }
        text.push_str(&serde_json::to_string(&Line::End(end.clone())).map_err(std::io::Error::other)?);
        text.push('\n');
        self.file.write_all(text.as_bytes())?;
        self.file.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header() -> Header {
        Header { format: FORMAT.into(), variant: "teamchess".into(), nodes: 100, seed: 1, random_plies: 2, games: 2, shard: None }
    }

    fn sample(game: u64) -> Sample {
        Sample { game, pos: "x y".into(), seat: 1, score: -5, result: vec![1.0, 0.0, 1.0, 0.0] }
    }

    #[test]
    fn a_file_cut_anywhere_loads_its_finished_games() {
        let dir = std::env::temp_dir().join(format!("tetrarch-data-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("d.jsonl");
        let mut w = Writer::create(&path, &header()).unwrap();
        w.game(&[sample(0), sample(0)], &GameEnd { game: 0, end: "win 1 3 checkmate".into(), turns: 9, positions: 2 }).unwrap();
        w.game(&[sample(1)], &GameEnd { game: 1, end: "draw stalemate".into(), turns: 9, positions: 1 }).unwrap();
        drop(w);
        let whole = std::fs::read(&path).unwrap();
        let after_first = {
            let d = read(&path).unwrap();
            assert_eq!(d.samples.len(), 3);
            assert_eq!(d.ends.len(), 2);
            assert_eq!(d.complete_len, whole.len() as u64);
            d.header.clone()
        };
        assert_eq!(after_first, header());
        // Cut at every byte: what loads is a prefix of whole games.
        for cut in 1..whole.len() {
            std::fs::write(&path, &whole[..cut]).unwrap();
            match read(&path) {
                Ok(d) => {
                    let games: Vec<u64> = d.ends.iter().map(|e| e.game).collect();
                    assert!(games.is_empty() || games == [0] || games == [0, 1], "{cut}: {games:?}");
                    let want = match games.len() {
                        0 => 0,
                        1 => 2,
                        _ => 3,
                    };
                    assert_eq!(d.samples.len(), want, "{cut}");
                    assert!(d.complete_len <= cut as u64);
                }
                // Only a cut inside the header fails.
                Err(DataError::NoHeader { .. }) => assert!(cut < whole.iter().position(|&b| b == b'\n').unwrap() + 1),
                Err(e) => panic!("{cut}: {e}"),
            }
        }
        // Resume: cut to the complete part and append.
        std::fs::write(&path, &whole[..whole.len() - 3]).unwrap();
        let d = read(&path).unwrap();
        assert_eq!(d.ends.len(), 1);
        let mut w = Writer::resume(&path, d.complete_len).unwrap();
        w.game(&[sample(1)], &GameEnd { game: 1, end: "draw stalemate".into(), turns: 9, positions: 1 }).unwrap();
        drop(w);
        assert_eq!(std::fs::read(&path).unwrap(), whole);
        // Garbage before a finished game is an error.
        let mut bad = whole.clone();
        let second_line = bad.iter().position(|&b| b == b'\n').unwrap() + 1;
        bad[second_line] = b'#';
        std::fs::write(&path, &bad).unwrap();
        assert!(matches!(read(&path), Err(DataError::Bad { line: 2, .. })));
        std::fs::write(&path, b"hello\n").unwrap();
        assert!(matches!(read(&path), Err(DataError::NoHeader { .. })));
        std::fs::remove_dir_all(&dir).ok();
    }
}
