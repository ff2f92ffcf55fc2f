//! Game records: one JSON object per line (JSON Lines), appended and flushed
//! game by game; read back for `--resume` and checked by replaying the turns.

use std::io::Write;
use std::path::Path;

use tetrarch_core::turns::{parse_turn, play_turn};

use crate::games::GameInfo;
use crate::json::{self, num, str_array, str_lit, Json};
use crate::openings::Opening;

/// How a game's result was decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
    fn from_word(w: &str) -> Option<Decided> {
        match w {
            "rules" => Some(Decided::Rules),
            "adjudication" => Some(Decided::Adjudication),
            "forfeit" => Some(Decided::Forfeit),
            _ => None,
        }
    }
}

/// One finished game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// The match's fingerprint (variant, seed, engines, openings): `--resume`
    /// only continues the same match.
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
    /// Every turn token from the start, the opening's included.
    pub turns: Vec<String>,
    /// Time of each game turn (after the opening), ms.
    pub times_ms: Vec<u64>,
    /// Last `info` score of each game turn, cp from the mover's side.
    pub scores: Vec<Option<i32>>,
    /// `win 1 3`, `draw`, or in free-for-all `ranks 1 3 2 4` (rank per seat).
    pub result: String,
    /// The rule's reason word or the runner's reason.
    pub reason: String,
    /// Rules, adjudication or forfeit.
    pub decided: Decided,
    /// The seat (0-based; 1-based `p` number in the file) that forfeited or
    /// was resigned for, if any.
    pub culprit: Option<usize>,
    /// Points per seat: 1 win, ½ draw, 0 loss; free-for-all
    /// `(n - mean position) / (n - 1)`.
    pub points: Vec<f64>,
    /// Rank per seat (1 best; shared ranks for shared places).
    pub ranks: Vec<u32>,
    /// Seconds since 1970 when the game started.
    pub started: u64,
    /// Wall time of the game, ms.
    pub duration_ms: u64,
}

impl GameRecord {
    /// The record as one JSON line (no line end).
    pub fn to_json(&self) -> String {
        let scores: Vec<String> = self.scores.iter().map(|s| s.map_or("null".into(), |v| v.to_string())).collect();
        let times: Vec<String> = self.times_ms.iter().map(|t| t.to_string()).collect();
        let points: Vec<String> = self.points.iter().map(|p| num(*p)).collect();
        let ranks: Vec<String> = self.ranks.iter().map(|r| r.to_string()).collect();
        let se: Vec<String> = self.seat_engines.iter().map(|r| r.to_string()).collect();
        format!(
            "{{\"match\":{},\"game\":{},\"opening_index\":{},\"round\":{},\"variant\":{},\"start\":{},\"opening_turns\":{},\
             \"seats\":{},\"seat_engines\":[{}],\"result\":{},\"reason\":{},\"decided\":{},\"culprit\":{},\"points\":[{}],\"ranks\":[{}],\
             \"turns\":{},\"times_ms\":[{}],\"scores\":[{}],\"started\":{},\"duration_ms\":{}}}",
            str_lit(&self.match_id),
            self.game,
            self.opening_index,
            self.round,
            str_lit(&self.variant),
            str_lit(&self.start),
            self.opening_turns,
            str_array(&self.seats),
            se.join(","),
            str_lit(&self.result),
            str_lit(&self.reason),
            str_lit(self.decided.word()),
            self.culprit.map_or("null".to_string(), |s| (s + 1).to_string()),
            points.join(","),
            ranks.join(","),
            str_array(&self.turns),
            times.join(","),
            scores.join(","),
            self.started,
            self.duration_ms
        )
    }

    /// Reads a record from its JSON object.
    pub fn from_json(v: &Json) -> Result<GameRecord, String> {
        let s = |k: &str| v.get(k).and_then(Json::as_str).map(String::from).ok_or_else(|| format!("missing string `{k}`"));
        let n = |k: &str| v.get(k).and_then(Json::as_u64).ok_or_else(|| format!("missing number `{k}`"));
        let arr = |k: &str| v.get(k).and_then(Json::as_arr).ok_or_else(|| format!("missing array `{k}`"));
        let strs = |k: &str| -> Result<Vec<String>, String> {
            arr(k)?.iter().map(|x| x.as_str().map(String::from).ok_or_else(|| format!("`{k}`: not a string"))).collect()
        };
        let nums = |k: &str| -> Result<Vec<u64>, String> {
            arr(k)?.iter().map(|x| x.as_u64().ok_or_else(|| format!("`{k}`: not a count"))).collect()
        };
        let rec = GameRecord {
            match_id: s("match")?,
            game: n("game")?,
            opening_index: n("opening_index")?,
            round: n("round")? as u32,
            variant: s("variant")?,
            start: s("start")?,
            opening_turns: n("opening_turns")? as usize,
            seats: strs("seats")?,
            seat_engines: nums("seat_engines")?.into_iter().map(|x| x as usize).collect(),
            turns: strs("turns")?,
            times_ms: nums("times_ms")?,
            scores: arr("scores")?
                .iter()
                .map(|x| match x {
                    Json::Null => Ok(None),
                    Json::Num(f) if f.fract() == 0.0 => Ok(Some(*f as i32)),
                    _ => Err("`scores`: not a number or null".to_string()),
                })
                .collect::<Result<_, _>>()?,
            result: s("result")?,
            reason: s("reason")?,
            decided: Decided::from_word(&s("decided")?).ok_or("bad `decided`")?,
            culprit: match v.get("culprit") {
                None | Some(Json::Null) => None,
                Some(x) => Some(x.as_u64().filter(|&c| c >= 1).ok_or("bad `culprit`")? as usize - 1),
            },
            points: arr("points")?.iter().map(|x| x.as_f64().ok_or("`points`: not a number")).collect::<Result<_, _>>()?,
            ranks: nums("ranks")?.into_iter().map(|x| x as u32).collect(),
            started: n("started")?,
            duration_ms: n("duration_ms")?,
        };
        let seats = rec.seats.len();
        if seats < 2 || rec.seat_engines.len() != seats || rec.points.len() != seats || rec.ranks.len() != seats {
            return Err("per-seat arrays of different lengths".into());
        }
        if rec.opening_turns > rec.turns.len() {
            return Err("opening_turns is more than the turns".into());
        }
        Ok(rec)
    }

    /// Replays the record with the rules: the start is valid, every turn is
    /// legal, no turn follows the end of the game, and a result by the rules
    /// is the rules' result of the final position.
    pub fn verify<G: GameInfo>(&self, opts: &G::Options) -> Result<(), String> {
        let start = Opening::from_start_string(&self.start)?;
        let mut g = Opening { start, turns: vec![] }.start_position::<G>(opts)?;
        let mut history = Vec::new();
        for (i, t) in self.turns.iter().enumerate() {
            if let Some(o) = g.outcome().or_else(|| g.history_outcome(&history)) {
                return Err(format!("turn {} `{t}` after the end of the game ({o})", i + 1));
            }
            let acts = parse_turn(&g, t).map_err(|e| format!("turn {} `{t}`: {e}", i + 1))?;
            history.push(g.key());
            play_turn(&mut g, &acts);
        }
        if self.decided == Decided::Rules {
            let o = g.outcome().or_else(|| g.history_outcome(&history)).ok_or("result by the rules, but the game is not over")?;
            if o.reason != self.reason {
                return Err(format!("the rules end the game with `{o}`, the record says `{}`", self.reason));
            }
        }
        Ok(())
    }
}

/// Reads a records file. A last line without its line end (a write that
/// was interrupted) is ignored; any other bad line is an error.
pub fn read_records(path: &Path) -> Result<Vec<GameRecord>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read records {}: {e}", path.display()))?;
    parse_records(&text).map_err(|e| format!("records {} {e}", path.display()))
}

/// The records of a records file's text (see [`read_records`]); an error
/// names the line.
pub fn parse_records(text: &str) -> Result<Vec<GameRecord>, String> {
    let complete = text.ends_with('\n');
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let r = json::parse(line).and_then(|v| GameRecord::from_json(&v));
        match r {
            Ok(r) => out.push(r),
            Err(_) if i + 1 == lines.len() && !complete => {}
            Err(e) => return Err(format!("line {}: {e}", i + 1)),
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
    pub fn open(path: &Path) -> Result<RecordWriter, String> {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| format!("cannot open records {}: {e}", path.display()))?;
        let text = std::fs::read(path).unwrap_or_default();
        if !text.is_empty() && !text.ends_with(b"\n") {
            let cut = text.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
            file.set_len(cut as u64).map_err(|e| format!("cannot repair records {}: {e}", path.display()))?;
        }
        Ok(RecordWriter { file })
    }
    /// Appends one record and flushes; nothing once the runner was
    /// interrupted (its engines were killed: the game did not end).
    pub fn write(&mut self, r: &GameRecord) -> std::io::Result<()> {
        if crate::engine::interrupted() {
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
        let back = GameRecord::from_json(&json::parse(&line).unwrap()).unwrap();
        assert_eq!(back, r);
        // `0000` is not legal for the second seat at the start.
        assert!(back.verify::<FourChess>(&opts).is_err());
        let mut ok = r.clone();
        ok.turns.truncate(1);
        ok.verify::<FourChess>(&opts).unwrap();
        ok.decided = Decided::Rules;
        assert!(ok.verify::<FourChess>(&opts).is_err());
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
