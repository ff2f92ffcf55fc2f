//! `tetrarch gui`: a page to play and analyse every variant in a browser,
//! served on 127.0.0.1 by a tiny HTTP server ([`http`]) with everything
//! embedded in the binary. The server is the referee: it keeps the game
//! (start and turn tokens), asks the rules for legal actions ([`rules`]) and
//! drives an in-process [`Engine`] through the protocol for the engine seats
//! and for analysis. `docs/gui.md` describes the HTTP API.

pub mod http;
pub mod rules;
#[cfg(test)]
mod tests;

use std::net::TcpListener;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use tetrarch_core::view::json_str;

/// Writes `items` as JSON strings separated by commas (the brackets are the
/// caller's).
fn json_str_items<S: AsRef<str>>(j: &mut String, items: impl Iterator<Item = S>) {
    for (i, s) in items.enumerate() {
        if i > 0 {
            j.push(',');
        }
        json_str(j, s.as_ref());
    }
}

use crate::out::Captured;
use crate::{variants, with_variant, Engine, Out};
use http::{Request, Response};
use rules::{Actions, CheckTurn, Facts, FactsOf, Propose, Record, Snapshot, Start};

const INDEX_HTML: &str = include_str!("index.html");
const APP_JS: &str = include_str!("app.js");
const STYLE_CSS: &str = include_str!("style.css");

/// Who plays a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    /// A person clicking on the page.
    Human,
    /// The engine, with this much time per turn (ms).
    Engine(u64),
}

impl Player {
    fn parse(s: &str) -> Result<Player, String> {
        match s {
            "human" => Ok(Player::Human),
            "engine" => Ok(Player::Engine(1000)),
            _ => match s.strip_prefix("engine:").map(str::parse::<u64>) {
                Some(Ok(ms)) if (10..=600_000).contains(&ms) => Ok(Player::Engine(ms)),
                _ => Err(format!("bad player `{s}`: expected human or engine:<ms> with 10..600000 ms")),
            },
        }
    }
    fn word(self) -> String {
        match self {
            Player::Human => "human".into(),
            Player::Engine(ms) => format!("engine:{ms}"),
        }
    }
}

/// The last search report.
#[derive(Clone, Debug, Default)]
struct Thinking {
    depth: String,
    score: String,
    nodes: String,
    nps: String,
    time: String,
    pv: String,
}

impl Thinking {
    fn parse(line: &str) -> Option<Thinking> {
        let w: Vec<&str> = line.split(' ').collect();
        if w.first() != Some(&"info") || !w.contains(&"depth") {
            return None;
        }
        let mut t = Thinking::default();
        let mut i = 1;
        while i < w.len() {
            match w[i] {
                "depth" => t.depth = w.get(i + 1).unwrap_or(&"").to_string(),
                "score" => {
                    t.score = format!("{} {}", w.get(i + 1).unwrap_or(&""), w.get(i + 2).unwrap_or(&""));
                    i += 1;
                }
                "nodes" => t.nodes = w.get(i + 1).unwrap_or(&"").to_string(),
                "nps" => t.nps = w.get(i + 1).unwrap_or(&"").to_string(),
                "time" => t.time = w.get(i + 1).unwrap_or(&"").to_string(),
                "pv" => {
                    t.pv = w[i + 1..].join(" ");
                    break;
                }
                _ => {}
            }
            i += 1;
        }
        Some(t)
    }
    fn json(&self) -> String {
        let mut s = String::from("{");
        for (i, (k, v)) in [
            ("depth", &self.depth),
            ("score", &self.score),
            ("nodes", &self.nodes),
            ("nps", &self.nps),
            ("time", &self.time),
            ("pv", &self.pv),
        ]
        .iter()
        .enumerate()
        {
            if i > 0 {
                s.push(',');
            }
            json_str(&mut s, k);
            s.push(':');
            json_str(&mut s, v);
        }
        s.push('}');
        s
    }
}

/// A running engine search.
struct Search {
    /// The seat it plays for (`None`: analysis only).
    seat: Option<usize>,
    started: Instant,
    /// Number of turns when it started (a reply to an older position is void).
    turns: usize,
}

/// The game the page shows, and the engine.
struct Gui {
    variant: &'static str,
    facts: Facts,
    start: Start,
    turns: Vec<String>,
    times_ms: Vec<Option<u64>>,
    scores: Vec<Option<String>>,
    players: Vec<Player>,
    paused: bool,
    engine: Engine,
    cap: Captured,
    /// The variant the engine was last set to.
    engine_variant: &'static str,
    search: Option<Search>,
    thinking: Option<Thinking>,
    log: Vec<String>,
    log_dropped: usize,
    message: String,
    game: u64,
    version: u64,
    started: SystemTime,
    /// The cached snapshot of the current position.
    snap: Option<rules::SnapshotOut>,
}

fn now_secs(t: SystemTime) -> u64 {
    t.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

impl Gui {
    fn new(variant: &'static str) -> Gui {
        let (out, cap) = Out::buffer();
        let engine = Engine::with_variant(out, variant).expect("a known variant");
        let facts = with_variant(variant, FactsOf).expect("a known variant");
        let players = vec![Player::Human; facts.seats]
            .into_iter()
            .enumerate()
            .map(|(i, p)| if i == 0 { p } else { Player::Engine(1000) })
            .collect();
        let mut g = Gui {
            variant,
            facts,
            start: Start::Startpos,
            turns: vec![],
            times_ms: vec![],
            scores: vec![],
            players,
            paused: false,
            engine,
            cap,
            engine_variant: variant,
            search: None,
            thinking: None,
            log: vec![],
            log_dropped: 0,
            message: String::new(),
            game: 1,
            version: 0,
            started: SystemTime::now(),
            snap: None,
        };
        g.refresh();
        g
    }

    /// Recomputes the snapshot after a change.
    fn refresh(&mut self) {
        self.version += 1;
        self.snap = with_variant(self.variant, Snapshot { start: &self.start, turns: &self.turns }).and_then(Result::ok);
    }

    fn log_line(&mut self, l: String) {
        self.log.push(l);
        if self.log.len() > 400 {
            self.log.remove(0);
            self.log_dropped += 1;
        }
    }

    /// Sends one protocol line to the engine; returns the error lines it
    /// printed at once.
    fn send(&mut self, line: &str) -> Vec<String> {
        self.engine.handle_line(line);
        let mut errs = Vec::new();
        for l in self.cap.take_lines() {
            if l.starts_with("info string error") {
                errs.push(l.clone());
            }
            self.absorb(l, false);
        }
        errs
    }

    /// Takes in one engine line (`bestmove` only when `play` is set).
    fn absorb(&mut self, l: String, play: bool) {
        if let Some(t) = Thinking::parse(&l) {
            self.thinking = Some(t);
            self.version += 1;
        }
        if let Some(rest) = l.strip_prefix("bestmove ") {
            let tok = rest.split(' ').next().unwrap_or("").to_string();
            if play {
                self.engine_reply(tok);
            }
        }
        if !l.starts_with("info depth") {
            self.log_line(l);
        }
    }

    /// Stops a running search and forgets its answer.
    fn halt(&mut self) {
        if self.search.take().is_some() {
            self.send("stop");
            self.version += 1;
        }
    }

    /// The engine's `bestmove` for the running search.
    fn engine_reply(&mut self, tok: String) {
        let Some(s) = self.search.take() else { return };
        self.version += 1;
        let Some(seat) = s.seat else { return };
        if s.turns != self.turns.len() || tok == "(none)" {
            return;
        }
        match with_variant(self.variant, CheckTurn { start: &self.start, turns: &self.turns, turn: &tok }) {
            Some(Ok(t)) => {
                self.turns.push(t);
                self.times_ms.push(Some(s.started.elapsed().as_millis() as u64));
                self.scores.push(self.thinking.as_ref().map(|t| t.score.clone()));
                self.message = format!("{} played {tok}", self.facts.names.get(seat).copied().unwrap_or("?"));
                self.refresh();
            }
            Some(Err(e)) => {
                self.paused = true;
                self.message = format!("the engine answered an illegal turn: {e}; engines paused");
            }
            None => {}
        }
    }

    /// The `position` command for the engine playing `seat` (a seat does
    /// not learn the other seats' secret set-up choices where the game
    /// accepts `?` for them).
    fn position_for(&mut self, seat: Option<usize>) -> Result<(), String> {
        if self.engine_variant != self.variant {
            self.send(&format!("setoption name UCI_Variant value {}", self.variant));
            self.engine_variant = self.variant;
        }
        let moves = if self.turns.is_empty() { String::new() } else { format!(" moves {}", self.turns.join(" ")) };
        if let (Start::Setup(toks), Some(seat)) = (&self.start, seat) {
            let masked: Vec<&str> =
                toks.iter().enumerate().map(|(i, t)| if i == seat { t.as_str() } else { "?" }).collect();
            if self.send(&format!("position setup {}{moves}", masked.join(" "))).is_empty() {
                return Ok(());
            }
        }
        let errs = self.send(&format!("position {}{moves}", self.start.protocol()));
        match errs.first() {
            None => Ok(()),
            Some(e) => Err(e.clone()),
        }
    }

    /// Drains the engine's output and starts the next engine turn.
    fn tick(&mut self) {
        for l in self.cap.take_lines() {
            self.absorb(l, true);
        }
        if self.search.is_some() || self.paused {
            return;
        }
        let Some(snap) = &self.snap else { return };
        if snap.over {
            return;
        }
        let seat = snap.to_move;
        if let Some(Player::Engine(ms)) = self.players.get(seat).copied() {
            if let Err(e) = self.position_for(Some(seat)) {
                self.paused = true;
                self.message = format!("engine: {e}");
                return;
            }
            self.thinking = None;
            self.search = Some(Search { seat: Some(seat), started: Instant::now(), turns: self.turns.len() });
            self.send(&format!("go movetime {ms}"));
            self.version += 1;
        }
    }

    fn state_json(&self) -> String {
        let mut j = String::from("{");
        j.push_str(&format!("\"game\":{},\"version\":{},\"variant\":", self.game, self.version));
        json_str(&mut j, self.variant);
        j.push_str(",\"start\":");
        json_str(&mut j, &self.start.protocol());
        j.push_str(",\"seat_names\":[");
        json_str_items(&mut j, self.facts.names.iter());
        j.push_str("],\"players\":[");
        json_str_items(&mut j, self.players.iter().map(|p| p.word()));
        j.push_str("],\"turns\":[");
        json_str_items(&mut j, self.turns.iter());
        j.push_str(&format!(
            "],\"paused\":{},\"has_record\":{},\"has_setup\":{},",
            self.paused, self.facts.record, self.facts.setup
        ));
        match &self.snap {
            Some(s) => j.push_str(&s.json),
            None => j.push_str("\"board\":null"),
        }
        j.push_str(",\"thinking\":");
        match (&self.search, &self.thinking) {
            (Some(s), t) => {
                j.push_str(&format!(
                    "{{\"seat\":{},\"analysis\":{},\"info\":{}}}",
                    s.seat.map_or("null".into(), |x| (x + 1).to_string()),
                    s.seat.is_none(),
                    t.as_ref().map_or("null".into(), Thinking::json)
                ));
            }
            (None, Some(t)) => j.push_str(&format!("{{\"seat\":null,\"done\":true,\"info\":{}}}", t.json())),
            (None, None) => j.push_str("null"),
        }
        j.push_str(",\"message\":");
        json_str(&mut j, &self.message);
        j.push_str(&format!(",\"log_start\":{},\"log\":[", self.log_dropped));
        json_str_items(&mut j, self.log.iter());
        j.push_str("]}");
        j
    }

    /// The game as one JSON line, like the match runner's records.
    fn record_jsonl(&self) -> String {
        let mut j = String::from("{\"game\":");
        j.push_str(&self.game.to_string());
        j.push_str(",\"variant\":");
        json_str(&mut j, self.variant);
        j.push_str(",\"start\":");
        json_str(&mut j, &self.start.protocol());
        j.push_str(",\"seats\":[");
        json_str_items(&mut j, self.players.iter().map(|p| p.word()));
        j.push_str("],\"turns\":[");
        json_str_items(&mut j, self.turns.iter());
        j.push_str("],\"times_ms\":[");
        for (i, t) in self.times_ms.iter().enumerate() {
            if i > 0 {
                j.push(',');
            }
            j.push_str(&t.map_or("null".into(), |x| x.to_string()));
        }
        j.push_str("],\"scores\":[");
        for (i, s) in self.scores.iter().enumerate() {
            if i > 0 {
                j.push(',');
            }
            match s.as_deref().and_then(|s| s.strip_prefix("cp ")).and_then(|x| x.parse::<i64>().ok()) {
                Some(x) => j.push_str(&x.to_string()),
                None => j.push_str("null"),
            }
        }
        let (result, reason) = match self.snap.as_ref().and_then(|s| s.result.clone()) {
            Some(r) => {
                let mut w: Vec<&str> = r.split(' ').collect();
                let reason = w.pop().unwrap_or("").to_string();
                (w.join(" "), reason)
            }
            None => ("none".to_string(), String::new()),
        };
        j.push_str("],\"result\":");
        json_str(&mut j, &result);
        j.push_str(",\"reason\":");
        json_str(&mut j, &reason);
        j.push_str(",\"decided\":");
        j.push_str(if result == "none" { "null" } else { "\"rules\"" });
        j.push_str(&format!(
            ",\"started\":{},\"duration_ms\":{}}}\n",
            now_secs(self.started),
            self.started.elapsed().map_or(0, |d| d.as_millis())
        ));
        j
    }

    fn new_game(&mut self, req: &Request) -> Result<(), String> {
        let all = variants();
        let name = req.param("variant").unwrap_or(self.variant);
        let variant = *all
            .iter()
            .find(|v| v.eq_ignore_ascii_case(name))
            .ok_or_else(|| format!("unknown variant `{name}` (known: {})", all.join(", ")))?;
        let facts = with_variant(variant, FactsOf).ok_or("unknown variant")?;
        let players = match req.param("players").filter(|p| !p.is_empty()) {
            Some(p) => {
                let v = p.split(',').map(Player::parse).collect::<Result<Vec<_>, _>>()?;
                if v.len() != facts.seats {
                    return Err(format!("players: {} given, variant {variant} has {} seats", v.len(), facts.seats));
                }
                v
            }
            None if variant == self.variant => self.players.clone(),
            None => (0..facts.seats).map(|i| if i == 0 { Player::Human } else { Player::Engine(1000) }).collect(),
        };
        let start = match req.param("start").unwrap_or("startpos") {
            "startpos" | "" => Start::Startpos,
            "fen" => {
                let s = req.param("fen").unwrap_or("").trim();
                if s.is_empty() {
                    return Err("start fen: the position string is empty".into());
                }
                Start::Fen(s.split_whitespace().collect::<Vec<_>>().join(" "))
            }
            "setup" => {
                if !facts.setup {
                    return Err(format!("variant {variant} has no set-up"));
                }
                let mut toks = Vec::new();
                for seat in 0..facts.seats {
                    let t = req.param(&format!("setup{}", seat + 1)).unwrap_or("").trim().to_string();
                    if t.is_empty() {
                        let seed = SystemTime::now().duration_since(UNIX_EPOCH).map_or(7, |d| d.as_nanos() as u64)
                            ^ (seat as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
                        toks.push(with_variant(variant, Propose { seat, seed }).flatten().ok_or("no set-up proposal")?);
                    } else if t.contains(char::is_whitespace) {
                        return Err(format!("set-up token of seat {}: no spaces allowed", seat + 1));
                    } else {
                        toks.push(t);
                    }
                }
                Start::Setup(toks)
            }
            s => return Err(format!("unknown start `{s}` (startpos, fen or setup)")),
        };
        let moves: Vec<String> = req.param("moves").unwrap_or("").split_whitespace().map(str::to_owned).collect();
        // Check everything before changing anything.
        with_variant(variant, Snapshot { start: &start, turns: &moves }).ok_or("unknown variant")??;
        self.halt();
        self.variant = variant;
        self.facts = facts;
        self.players = players;
        self.start = start;
        self.turns = moves;
        self.times_ms = vec![None; self.turns.len()];
        self.scores = vec![None; self.turns.len()];
        self.thinking = None;
        self.paused = false;
        self.game += 1;
        self.started = SystemTime::now();
        self.send("ucinewgame");
        self.message = format!("new game: {variant}");
        self.refresh();
        Ok(())
    }

    fn handle(&mut self, req: &Request) -> Response {
        let post = req.method == "POST";
        let ok = |g: &Gui| Response::json(200, g.state_json());
        let bad = |msg: String| Response::error(400, &msg);
        match (req.path.as_str(), post) {
            ("/api/state", false) => ok(self),
            ("/api/board", false) => match self.snap.as_ref().map(|s| s.json.clone()) {
                Some(j) => {
                    let b = j.strip_prefix("\"board\":").and_then(|r| r.split(",\"position\":").next()).unwrap_or("null");
                    Response::json(200, b.to_string())
                }
                None => bad("no position".into()),
            },
            ("/api/variants", false) => {
                let mut j = String::from("{\"variants\":[");
                for (i, v) in variants().iter().enumerate() {
                    let f = with_variant(v, FactsOf).expect("known");
                    if i > 0 {
                        j.push(',');
                    }
                    j.push_str("{\"name\":");
                    json_str(&mut j, v);
                    j.push_str(&format!(
                        ",\"seats\":{},\"setup\":{},\"board\":{},\"record\":{},\"seat_names\":[",
                        f.seats, f.setup, f.board, f.record
                    ));
                    for (k, n) in f.names.iter().enumerate() {
                        if k > 0 {
                            j.push(',');
                        }
                        json_str(&mut j, n);
                    }
                    j.push_str("]}");
                }
                j.push_str("]}");
                Response::json(200, j)
            }
            ("/api/actions", false) => {
                let prefix: Vec<String> =
                    req.param("prefix").unwrap_or("").split(',').filter(|s| !s.is_empty()).map(str::to_owned).collect();
                match with_variant(self.variant, Actions { start: &self.start, turns: &self.turns, prefix: &prefix }) {
                    Some(Ok(j)) => Response::json(200, j),
                    Some(Err(e)) => bad(e),
                    None => bad("unknown variant".into()),
                }
            }
            ("/api/setup", false) => {
                let variant = req.param("variant").unwrap_or(self.variant);
                let seat = match req.param("seat").unwrap_or("1").parse::<usize>() {
                    Ok(s) if s >= 1 => s - 1,
                    _ => return bad("bad seat".into()),
                };
                let seed = SystemTime::now().duration_since(UNIX_EPOCH).map_or(1, |d| d.as_nanos() as u64);
                match with_variant(variant, FactsOf) {
                    None => bad(format!("unknown variant `{variant}`")),
                    Some(f) if seat >= f.seats => bad(format!("seat {} does not exist", seat + 1)),
                    Some(_) => match with_variant(variant, Propose { seat, seed }).flatten() {
                        Some(t) => {
                            let mut j = String::from("{\"token\":");
                            json_str(&mut j, &t);
                            j.push('}');
                            Response::json(200, j)
                        }
                        None => bad(format!("variant {variant} has no set-up")),
                    },
                }
            }
            ("/api/record.jsonl", false) => {
                let mut r = Response::json(200, self.record_jsonl());
                r.content_type = "application/x-ndjson; charset=utf-8";
                r.headers.push((
                    "Content-Disposition".into(),
                    format!("attachment; filename=\"tetrarch-{}-{}.jsonl\"", self.variant, self.game),
                ));
                r
            }
            ("/api/record.pgn4", false) => {
                match with_variant(self.variant, Record { start: &self.start, turns: &self.turns }) {
                    Some(Ok(text)) => Response {
                        status: 200,
                        content_type: "text/plain; charset=utf-8",
                        headers: vec![(
                            "Content-Disposition".into(),
                            format!("attachment; filename=\"tetrarch-{}-{}.pgn4\"", self.variant, self.game),
                        )],
                        body: text.into_bytes(),
                    },
                    Some(Err(e)) => bad(e),
                    None => bad("unknown variant".into()),
                }
            }
            ("/api/new", true) => match self.new_game(req) {
                Ok(()) => {
                    self.tick();
                    ok(self)
                }
                Err(e) => bad(e),
            },
            ("/api/play", true) => {
                let turn = req.param("turn").unwrap_or("").trim();
                if let Some(s) = &self.search {
                    if s.seat.is_some() {
                        return Response::error(409, "the engine is thinking: wait, or press Move now");
                    }
                }
                let Some(to_move) = self.snap.as_ref().map(|s| s.to_move) else { return bad("no position".into()) };
                if self.players.get(to_move) != Some(&Player::Human) {
                    return Response::error(409, "it is an engine seat's turn");
                }
                match with_variant(self.variant, CheckTurn { start: &self.start, turns: &self.turns, turn }) {
                    Some(Ok(t)) => {
                        self.halt();
                        self.turns.push(t.clone());
                        self.times_ms.push(None);
                        self.scores.push(None);
                        self.message = format!("{} played {t}", self.facts.names.get(to_move).copied().unwrap_or("?"));
                        self.refresh();
                        self.tick();
                        ok(self)
                    }
                    Some(Err(e)) => bad(e),
                    None => bad("unknown variant".into()),
                }
            }
            ("/api/undo", true) => {
                if self.turns.is_empty() {
                    return bad("nothing to undo".into());
                }
                self.halt();
                loop {
                    self.turns.pop();
                    self.times_ms.pop();
                    self.scores.pop();
                    self.refresh();
                    let to_move = self.snap.as_ref().map_or(0, |s| s.to_move);
                    let human = self.players.get(to_move) == Some(&Player::Human);
                    if self.turns.is_empty() || human || self.players.iter().all(|p| *p != Player::Human) {
                        break;
                    }
                }
                // After an undo the engines wait, so that the person can play.
                self.paused = self.players.iter().all(|p| *p != Player::Human);
                self.message = "undone".into();
                ok(self)
            }
            ("/api/stop", true) => {
                // Move now: the engine plays its best turn so far; an analysis ends.
                if self.search.is_some() {
                    self.engine.handle_line("stop");
                    self.tick();
                }
                ok(self)
            }
            ("/api/pause", true) => {
                self.paused = req.param("paused") != Some("false");
                if self.paused {
                    self.halt();
                }
                self.version += 1;
                self.tick();
                ok(self)
            }
            ("/api/players", true) => {
                let p = req.param("players").unwrap_or("");
                match p.split(',').map(Player::parse).collect::<Result<Vec<_>, _>>() {
                    Ok(v) if v.len() == self.facts.seats => {
                        self.halt();
                        self.players = v;
                        self.version += 1;
                        self.tick();
                        ok(self)
                    }
                    Ok(v) => bad(format!("players: {} given, the game has {} seats", v.len(), self.facts.seats)),
                    Err(e) => bad(e),
                }
            }
            ("/api/analyse", true) => {
                if self.snap.as_ref().is_some_and(|s| s.over) {
                    return bad("the game is over".into());
                }
                self.halt();
                self.paused = true;
                if let Err(e) = self.position_for(None) {
                    return bad(e);
                }
                self.thinking = None;
                self.search = Some(Search { seat: None, started: Instant::now(), turns: self.turns.len() });
                self.send("go infinite");
                self.version += 1;
                ok(self)
            }
            (
                "/api/state" | "/api/board" | "/api/variants" | "/api/actions" | "/api/setup" | "/api/record.jsonl"
                | "/api/record.pgn4",
                true,
            )
            | ("/api/new" | "/api/play" | "/api/undo" | "/api/stop" | "/api/pause" | "/api/players" | "/api/analyse", false) => {
                Response::error(405, "method not allowed")
            }
            _ => Response::error(404, &format!("no such page `{}`", req.path)),
        }
    }
}

fn lock(m: &Mutex<Gui>) -> MutexGuard<'_, Gui> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Answers one request (static files, or the API under the lock).
fn route(gui: &Mutex<Gui>, req: &Request) -> Response {
    match (req.method.as_str(), req.path.as_str()) {
        ("GET", "/" | "/index.html") => Response::file("text/html; charset=utf-8", INDEX_HTML),
        ("GET", "/app.js") => Response::file("text/javascript; charset=utf-8", APP_JS),
        ("GET", "/style.css") => Response::file("text/css; charset=utf-8", STYLE_CSS),
        ("GET", "/favicon.ico") => Response { status: 404, content_type: "text/plain", headers: vec![], body: vec![] },
        (_, p) if p.starts_with("/api/") => {
            let mut g = lock(gui);
            g.tick();
            g.handle(req)
        }
        _ => Response::error(404, &format!("no such page `{}`", req.path)),
    }
}

/// Binds 127.0.0.1:`port` (0: any free port) and returns the listener and
/// its URL.
pub fn bind(port: u16) -> std::io::Result<(TcpListener, String)> {
    let listener = TcpListener::bind(("127.0.0.1", port))?;
    let url = format!("http://127.0.0.1:{}/", listener.local_addr()?.port());
    Ok((listener, url))
}

/// Serves the GUI on `listener` for ever, starting with `variant`.
pub fn serve(listener: TcpListener, variant: &str) -> Result<(), String> {
    let all = variants();
    let variant = *all
        .iter()
        .find(|v| v.eq_ignore_ascii_case(variant))
        .ok_or_else(|| format!("unknown variant `{variant}` (known: {})", all.join(", ")))?;
    let gui = Arc::new(Mutex::new(Gui::new(variant)));
    // The ticker: engine replies are taken in even when no page asks.
    let g2 = Arc::clone(&gui);
    std::thread::spawn(move || loop {
        std::thread::sleep(Duration::from_millis(50));
        lock(&g2).tick();
    });
    http::serve(listener, move |req| route(&gui, req));
    Ok(())
}
