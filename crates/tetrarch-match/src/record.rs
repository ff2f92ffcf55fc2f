//! Game records: one JSON object per line (JSON Lines), appended and flushed
//! game by game; read back for `--resume` and checked by replaying the turns.

use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use tetrarch_core::game::TokenError;
use tetrarch_core::turns::{parse_turn, play_turn};

use crate::games::{with_variant, GameInfo, GameVisitor};
use crate::openings::{Opening, OpeningError};

/// How a game's result was decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Decided {
    /// By the game's rules (`outcome`, `history_outcome`).
    Rules,
    /// By the runner: turn cap, resign or draw by scores.
    Adjudication,
    /// A seat lost by misbehaving: illegal or malformed turn, crash, time.
    Forfeit,
}

impl Decided {
    /// The word in the record.
    pub fn word(self) -> &'static str {
        match self {
            Decided::Rules => "rules",
            Decided::Adjudication => "adjudication",
            Decided::Forfeit => "forfeit",
        }
    }
}

/// One finished game: one line of the records file. The fields are in the
/// order of the file's keys (docs/match.md, "Records").
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The match's fingerprint (variant, seed, engines, openings): `--resume`
    /// only continues the same match.
    #[serde(rename = "match")]
    pub match_id: String,
    /// Game number in the match (0-based; the schedule is a function of it).
    pub game: u64,
    /// Opening number (the pair or rotation group).
    pub opening_index: u64,
    /// Which game of its opening (0, 1 for a pair; the rotation in free-for-all).
    pub round: u32,
    /// The variant.
    pub variant: String,
    /// The start: `startpos`, `fen …`, `setup …`.
    pub start: String,
    /// How many of `turns` are the opening.
    pub opening_turns: usize,
    /// Engine name per seat (`p1` first).
    pub seats: Vec<String>,
    /// Engine index (command-line order) per seat.
    pub seat_engines: Vec<usize>,
    /// `win 1 3`, `draw`, or in free-for-all `ranks 1 3 2 4` (rank per seat).
    pub result: String,
    /// The rule's reason word or the runner's reason.
    pub reason: String,
    /// Rules, adjudication or forfeit.
    pub decided: Decided,
    /// The seat (0-based; 1-based `p` number in the file) that forfeited or
    /// was resigned for, if any.
    #[serde(default, serialize_with = "culprit_out", deserialize_with = "culprit_in")]
    pub culprit: Option<usize>,
    /// Points per seat: 1 win, ½ draw, 0 loss; free-for-all
    /// `(n - mean position) / (n - 1)`.
    pub points: Vec<f64>,
    /// Rank per seat (1 best; shared ranks for shared places).
    pub ranks: Vec<u32>,
    /// Every turn token from the start, the opening's included.
    pub turns: Vec<String>,
    /// Time of each game turn (after the opening), ms.
    pub times_ms: Vec<u64>,
    /// Last `info` score of each game turn, cp from the mover's side.
    pub scores: Vec<Option<i32>>,
    /// Seconds since 1970 when the game started.
    pub started: u64,
    /// Wall time of the game, ms.
    pub duration_ms: u64,
}

fn culprit_out<S: Serializer>(c: &Option<usize>, s: S) -> Result<S::Ok, S::Error> {
    c.map(|c| c as u64 + 1).serialize(s)
}

fn culprit_in<'de, D: Deserializer<'de>>(d: D) -> Result<Option<usize>, D::Error> {
    match Option::<u64>::deserialize(d)? {
        None => Ok(None),
        Some(0) => Err(serde::de::Error::custom("bad `culprit`: seats are numbered from 1")),
        Some(c) => usize::try_from(c - 1).map(Some).map_err(|_| serde::de::Error::custom("bad `culprit`")),
    }
}

/// Why a line is not a record.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    /// Not JSON, or not the record's fields and types.
    #[error("{0}")]
    Json(#[from] serde_json::Error),
    /// `seats`, `seat_engines`, `points` and `ranks` differ in length (or
    /// fewer than two seats).
    #[error("per-seat arrays of different lengths")]
    SeatArrays,
    /// `opening_turns` is more than the turns.
    #[error("opening_turns is more than the turns")]
    OpeningTurns,
}

/// Why a records file cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum RecordsError {
    /// The file cannot be read.
    #[error("cannot read records {}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// The I/O error of reading the file.
        source: std::io::Error,
    },
    /// The file cannot be opened for appending, or repaired.
    #[error("cannot open records {}: {source}", path.display())]
    Open {
        /// The file.
        path: PathBuf,
        /// The I/O error of opening, or of cutting back a torn last line
        /// (`set_len`).
        source: std::io::Error,
    },
    /// A complete line that is not a record.
    #[error("{}line {line}: {source}", path.as_ref().map(|p| format!("records {} ", p.display())).unwrap_or_default())]
    Line {
        /// The file, when read from one.
        path: Option<PathBuf>,
        /// 1-based line number.
        line: usize,
        /// What is wrong with the line (not JSON, or not a record).
        source: RecordError,
    },
}

/// Why a record does not replay with the rules ([`GameRecord::verify`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    /// The start is not a position of the game.
    #[error(transparent)]
    Start(#[from] OpeningError),
    /// A turn after the end of the game (1-based turn number).
    #[error("turn {turn} `{token}` after the end of the game ({outcome})")]
    AfterEnd {
        /// 1-based.
        turn: usize,
        /// The turn as written.
        token: String,
        /// The end, as the protocol writes it.
        outcome: String,
    },
    /// A turn the rules refuse (1-based turn number).
    #[error("turn {turn} `{token}`: {reason}")]
    Turn {
        /// 1-based.
        turn: usize,
        /// The turn as written.
        token: String,
        /// The rules' refusal of the token (malformed or illegal).
        reason: TokenError,
    },
    /// `decided: rules`, but the rules do not end the game.
    #[error("result by the rules, but the game is not over")]
    NotOver,
    /// The rules end the game with another reason than the record's.
    #[error("the rules end the game with `{rules}`, the record says `{record}`")]
    OtherEnd {
        /// The end by the rules, as the protocol writes it.
        rules: String,
        /// The record's reason.
        record: String,
    },
}

impl GameRecord {
    /// The record as one JSON line (no line end), as the records file has it.
    pub fn to_json(&self) -> String {
        crate::json::to_line(self).expect("a record serializes")
    }

    /// Reads a record from one JSON line and checks that its per-seat arrays
    /// agree.
    pub fn from_json(line: &str) -> Result<GameRecord, RecordError> {
        let rec: GameRecord = serde_json::from_str(line)?;
        let seats = rec.seats.len();
        if seats < 2 || rec.seat_engines.len() != seats || rec.points.len() != seats || rec.ranks.len() != seats {
            return Err(RecordError::SeatArrays);
        }
        if rec.opening_turns > rec.turns.len() {
            return Err(RecordError::OpeningTurns);
        }
        Ok(rec)
    }

    /// Replays the record with the rules: the start is valid, every turn is
    /// legal, no turn follows the end of the game, and a result by the rules
    /// is the rules' result of the final position.
    pub fn verify<G: GameInfo>(&self, opts: &G::Options) -> Result<(), ReplayError> {
        let start = Opening::from_start_string(&self.start)?;
        let mut g = Opening { start, turns: vec![] }.start_position::<G>(opts)?;
        let mut history = Vec::new();
        for (i, t) in self.turns.iter().enumerate() {
            if let Some(o) = g.outcome().or_else(|| g.history_outcome(&history)) {
                return Err(ReplayError::AfterEnd { turn: i + 1, token: t.clone(), outcome: o.to_string() });
            }
            let acts = parse_turn(&g, t).map_err(|reason| ReplayError::Turn { turn: i + 1, token: t.clone(), reason })?;
            history.push(g.key());
            play_turn(&mut g, &acts);
        }
        if self.decided == Decided::Rules {
            let o = g.outcome().or_else(|| g.history_outcome(&history)).ok_or(ReplayError::NotOver)?;
            if o.reason != self.reason {
                return Err(ReplayError::OtherEnd { rules: o.to_string(), record: self.reason.clone() });
            }
        }
        Ok(())
    }

    /// [`GameRecord::verify`] under the default rules of the record's
    /// variant (`None`: no game of the registry has it).
    pub fn verify_default(&self) -> Option<Result<(), ReplayError>> {
        struct Verify<'a>(&'a GameRecord);
        impl GameVisitor for Verify<'_> {
            type Output = Result<(), ReplayError>;
            fn visit<G: GameInfo>(self, variant: &'static str) -> Self::Output {
                self.0.verify::<G>(&G::default_options(variant))
            }
        }
        with_variant(&self.variant, Verify(self))
    }
}

/// Reads a records file. A last line without its line end (a write that
/// was interrupted) is ignored; any other bad line is an error.
pub fn read_records(path: &Path) -> Result<Vec<GameRecord>, RecordsError> {
    let text = std::fs::read_to_string(path).map_err(|source| RecordsError::Read { path: path.to_path_buf(), source })?;
    parse_records(&text).map_err(|e| match e {
        RecordsError::Line { line, source, .. } => RecordsError::Line { path: Some(path.to_path_buf()), line, source },
        e => e,
    })
}

/// The records of a records file's text (see [`read_records`]); an error
/// names the line.
pub fn parse_records(text: &str) -> Result<Vec<GameRecord>, RecordsError> {
    let complete = text.ends_with('\n');
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match GameRecord::from_json(line) {
            Ok(r) => out.push(r),
            Err(_) if i + 1 == lines.len() && !complete => {}
            Err(source) => return Err(RecordsError::Line { path: None, line: i + 1, source }),
        }
    }
    Ok(out)
}

/// An append-only records file, flushed after every game.
pub struct RecordWriter {
    file: std::fs::File,
}

impl RecordWriter {
    /// Opens (creates) `path` for appending. A last line without its end (a
    /// write that was interrupted) is cut off first.
    pub fn open(path: &Path) -> Result<RecordWriter, RecordsError> {
        let open = |source| RecordsError::Open { path: path.to_path_buf(), source };
        let file = std::fs::OpenOptions::new().create(true).append(true).open(path).map_err(open)?;
        let text = std::fs::read(path).unwrap_or_default();
        if !text.is_empty() && !text.ends_with(b"\n") {
            let cut = text.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
            file.set_len(cut as u64).map_err(open)?;
        }
        Ok(RecordWriter { file })
    }
    /// Appends one record and flushes; nothing once the runner was
    /// interrupted (its engines were killed: the game did not end).
    pub fn write(&mut self, r: &GameRecord) -> std::io::Result<()> {
        if crate::interrupt::interrupted() {
            return Ok(());
        }
        let mut line = r.to_json();
        line.push('\n');
        self.file.write_all(line.as_bytes())?;
        self.file.flush()?;
        self.file.sync_data()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tetrarch_core::game::Rules;
    use tetrarch_core::games::fourchess::FourChess;

    fn sample() -> GameRecord {
        GameRecord {
            match_id: "m \"1\"".into(),
            game: 3,
            opening_index: 1,
            round: 1,
            variant: "fourchess".into(),
            start: "startpos".into(),
            opening_turns: 0,
            seats: vec!["a".into(), "b\\".into(), "a".into(), "b\\".into()],
            seat_engines: vec![0, 1, 0, 1],
            turns: vec![],
            times_ms: vec![],
            scores: vec![],
            result: "draw".into(),
            reason: "turn cap".into(),
            decided: Decided::Adjudication,
            culprit: Some(2),
            points: vec![0.5; 4],
            ranks: vec![1; 4],
            started: 1_700_000_000,
            duration_ms: 1234,
        }
    }

    #[test]
    fn json_round_trip_and_replay() {
        let opts = FourChess::default_options("fourchess");
        let g = FourChess::startpos(&opts);
        let turns = tetrarch_core::turns::legal_turns(&g);
        let mut r = sample();
        r.turns = vec![turns[0].0.clone(), "0000".into()];
        r.opening_turns = 1;
        r.times_ms = vec![12];
        r.scores = vec![Some(-5)];
        let line = r.to_json();
        let back = GameRecord::from_json(&line).unwrap();
        assert_eq!(back, r);
        // `0000` is not legal for the second seat at the start.
        let e = back.verify::<FourChess>(&opts).unwrap_err();
        assert!(matches!(&e, ReplayError::Turn { turn: 2, token, .. } if token == "0000"), "{e}");
        let mut ok = r.clone();
        ok.turns.truncate(1);
        ok.verify::<FourChess>(&opts).unwrap();
        ok.decided = Decided::Rules;
        assert_eq!(ok.verify::<FourChess>(&opts), Err(ReplayError::NotOver));
        assert_eq!(ReplayError::NotOver.to_string(), "result by the rules, but the game is not over");
    }

    /// The bytes the hand-written writer before serde wrote for this record
    /// (docs/match.md pins the keys' order and the numbers' form).
    #[test]
    fn same_bytes_as_before() {
        let mut r = sample();
        r.seats[2] = "a\u{2028}".into();
        r.points = vec![1.0, 0.5, 0.0, 1.0 / 3.0];
        r.scores = vec![Some(-5), None];
        let line = r#"{"match":"m \"1\"","game":3,"opening_index":1,"round":1,"variant":"fourchess","start":"startpos","opening_turns":0,"seats":["a","b\\","a\u2028","b\\"],"seat_engines":[0,1,0,1],"result":"draw","reason":"turn cap","decided":"adjudication","culprit":3,"points":[1,0.5,0,0.3333333333333333],"ranks":[1,1,1,1],"turns":[],"times_ms":[],"scores":[-5,null],"started":1700000000,"duration_ms":1234}"#;
        assert_eq!(r.to_json(), line);
        assert_eq!(GameRecord::from_json(line).unwrap(), r);
        // `culprit` may be left out; unknown keys are skipped.
        let loose = line.replace(r#""culprit":3,"#, r#""extra":[1,{"a":null}],"#);
        assert_eq!(GameRecord::from_json(&loose).unwrap().culprit, None);
        for (bad, want) in [
            (line.replace(r#""culprit":3"#, r#""culprit":0"#), "culprit"),
            (line.replace(r#""game":3,"#, ""), "missing field `game`"),
            (line.replace(r#""game":3"#, r#""game":-3"#), "invalid value"),
            (line.replace(r#""decided":"adjudication""#, r#""decided":"luck""#), "unknown variant `luck`"),
        ] {
            let e = GameRecord::from_json(&bad).unwrap_err();
            assert!(matches!(e, RecordError::Json(_)) && e.to_string().contains(want), "{bad}: {e}");
        }
        let short = line.replace(r#""ranks":[1,1,1,1]"#, r#""ranks":[1,1,1]"#);
        assert!(matches!(GameRecord::from_json(&short), Err(RecordError::SeatArrays)));
        let e = parse_records(&format!("{line}\n\n{short}\n")).unwrap_err();
        assert!(matches!(e, RecordsError::Line { line: 3, source: RecordError::SeatArrays, .. }), "{e}");
        assert_eq!(e.to_string(), "line 3: per-seat arrays of different lengths");
    }

    #[test]
    fn file_with_a_torn_last_line() {
        let dir = std::env::temp_dir().join(format!("tm-rec-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("r.jsonl");
        let _ = std::fs::remove_file(&p);
        let mut w = RecordWriter::open(&p).unwrap();
        w.write(&sample()).unwrap();
        drop(w);
        let mut text = std::fs::read_to_string(&p).unwrap();
        text.push_str("{\"match\":\"m\",\"ga");
        std::fs::write(&p, &text).unwrap();
        assert_eq!(read_records(&p).unwrap().len(), 1);
        let mut w = RecordWriter::open(&p).unwrap();
        w.write(&sample()).unwrap();
        drop(w);
        // The torn line was cut off.
        assert_eq!(read_records(&p).unwrap().len(), 2);
        std::fs::write(&p, "garbage\n{}\n").unwrap();
        assert!(read_records(&p).is_err());
        std::fs::write(&p, "").unwrap();
        assert!(read_records(&p).unwrap().is_empty());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
