//! The API's endpoints: [`Gui::handle`] dispatches a request to one
//! function per route; `/api/actions` is listed by an [`ActionsJob`]
//! outside the game's lock.

use std::time::{Instant, SystemTime, UNIX_EPOCH};

use serde::Serialize;

use super::game_queries::{actions_json, line_cells, propose, setup_place, snapshot, Facts, LineTurn, Position};
use super::http::{Request, Response};
use super::import;
use super::json::{to_json, variants_json};
use super::player::Player;
use super::scorer::Eval;
use super::state::{parse_options, Gui, Search};
use super::thinking::MAX_LINES;
use tetrarch_core::handle::{AnyGame, GameError, Variant};

impl Gui {
    /// `/api/actions`: what to list, or the error.
    pub(super) fn actions_job(&self, req: &Request) -> Result<ActionsJob, Response> {
        if self.time_loss.is_some() {
            return Err(Response::error(400, &format!("the game is over ({})", self.message)));
        }
        let prefix: Vec<String> =
            req.param("prefix").unwrap_or("").split(',').filter(|s| !s.is_empty()).map(str::to_owned).collect();
        Ok(ActionsJob { game: self.played.clone(), prefix })
    }

    /// Answers one API request, one function per route; a known path with
    /// the other method is 405.
    pub(super) fn handle(&mut self, req: &Request) -> Response {
        match (req.path.as_str(), req.method == "POST") {
            ("/api/state", false) => self.ok(),
            ("/api/board", false) => self.api_board(),
            ("/api/variants", false) => Response::json(200, variants_json()),
            ("/api/actions", false) => match self.actions_job(req) {
                Ok(job) => job.run(),
                Err(r) => r,
            },
            ("/api/setup", false) => self.api_setup(req),
            ("/api/setup/place", false) => self.api_setup_place(req),
            ("/api/record.jsonl", false) => self.api_record_jsonl(),
            ("/api/record.pgn4", false) => self.api_record_pgn4(),
            ("/api/new", true) => self.api_new(req),
            ("/api/play", true) => self.api_play(req),
            ("/api/undo", true) => self.api_undo(),
            ("/api/stop", true) => self.api_stop(),
            ("/api/pause", true) => self.api_pause(req),
            ("/api/players", true) => self.api_players(req),
            ("/api/analyse", true) => self.api_analyse(req),
            ("/api/hint", true) => self.api_hint(req),
            ("/api/at", false) => self.api_at(req),
            ("/api/cells", false) => self.api_cells(req),
            ("/api/branch", true) => self.api_branch(req),
            ("/api/rules", false) => api_rules(req.param("variant").unwrap_or(self.variant.name())),
            ("/api/import", true) => self.api_import(req),
            (
                "/api/state" | "/api/board" | "/api/variants" | "/api/actions" | "/api/setup" | "/api/setup/place"
                | "/api/record.jsonl" | "/api/record.pgn4" | "/api/at" | "/api/cells" | "/api/rules",
                true,
            )
            | (
                "/api/new" | "/api/play" | "/api/undo" | "/api/stop" | "/api/pause" | "/api/players" | "/api/analyse"
                | "/api/hint" | "/api/branch" | "/api/import",
                false,
            ) => Response::error(405, "method not allowed"),
            _ => Response::error(404, &format!("no such page `{}`", req.path)),
        }
    }

    /// The state, the answer of every change that succeeded.
    pub(super) fn ok(&self) -> Response {
        Response::json(200, self.state_json())
    }

    /// `GET /api/board`: the board description alone.
    pub(super) fn api_board(&self) -> Response {
        match &self.snap {
            Some(s) => Response::json(200, to_json(&s.position.board)),
            None => bad("no position"),
        }
    }

    /// `GET /api/setup`: the engine's proposal for a seat's set-up.
    pub(super) fn api_setup(&self, req: &Request) -> Response {
        let name = req.param("variant").unwrap_or(self.variant.name());
        let Some(seat) = seat_param(req) else { return bad("bad seat") };
        let seed = SystemTime::now().duration_since(UNIX_EPOCH).map_or(1, |d| d.as_nanos() as u64);
        match Variant::from_name(name).map(|v| (v, Facts::of(v))) {
            None => bad(format!("unknown variant `{name}`")),
            Some((_, f)) if seat >= f.seats => bad(format!("seat {} does not exist", seat + 1)),
            Some((variant, f)) => match parse_options(req, variant, &f).and_then(|(o, _)| {
                propose(variant, &o, seat, seed).ok_or_else(|| GameError::NoSetup { variant: variant.name() }.into())
            }) {
                Ok(token) => {
                    #[derive(Serialize)]
                    struct Proposal {
                        token: String,
                    }
                    Response::json(200, to_json(&Proposal { token }))
                }
                Err(e) => bad(e),
            },
        }
    }

    /// `GET /api/setup/place`: what a person needs to place a set-up.
    pub(super) fn api_setup_place(&self, req: &Request) -> Response {
        let name = req.param("variant").unwrap_or(self.variant.name());
        let Some(variant) = Variant::from_name_ignore_case(name) else {
            return bad(format!("unknown variant `{name}`"));
        };
        let Some(seat) = seat_param(req) else { return bad("bad seat") };
        let seed = SystemTime::now().duration_since(UNIX_EPOCH).map_or(1, |d| d.as_nanos() as u64);
        let facts = Facts::of(variant);
        let r = parse_options(req, variant, &facts).and_then(|(o, _)| {
            let token = req.param("token");
            setup_place(variant, &o, seat, token, seed)
        });
        match r {
            Ok(j) => Response::json(200, j),
            Err(e) => bad(e),
        }
    }

    /// `GET /api/record.jsonl`: the game as a download.
    pub(super) fn api_record_jsonl(&self) -> Response {
        let mut r = Response::json(200, self.record_jsonl());
        r.content_type = "application/x-ndjson; charset=utf-8";
        r.headers.push((
            "Content-Disposition".into(),
            format!("attachment; filename=\"tetrarch-{}-{}.jsonl\"", self.variant, self.game),
        ));
        r
    }

    /// `GET /api/record.pgn4`: the game in the variant's record format.
    pub(super) fn api_record_pgn4(&self) -> Response {
        match self.played.write_record() {
            Ok(text) => Response {
                status: 200,
                content_type: "text/plain; charset=utf-8",
                headers: vec![(
                    "Content-Disposition".into(),
                    format!("attachment; filename=\"tetrarch-{}-{}.pgn4\"", self.variant, self.game),
                )],
                body: text.into_bytes(),
            },
            Err(e) => bad(e),
        }
    }

    /// `POST /api/new`.
    pub(super) fn api_new(&mut self, req: &Request) -> Response {
        match self.new_game(req) {
            Ok(()) => {
                self.tick();
                self.ok()
            }
            Err(e) => bad(e),
        }
    }

    /// `POST /api/import`: a game given as text (a record line, a PGN4,
    /// turns or a position string), read as the `/api/new` request it
    /// amounts to; for `auto` text that may be turns or a position string,
    /// turns first. An error changes nothing.
    pub(super) fn api_import(&mut self, req: &Request) -> Response {
        let candidates = match import::candidates(req, self.variant.name()) {
            Ok(c) => c,
            Err(e) => return bad(e),
        };
        let mut errors = Vec::new();
        for c in candidates {
            match self.new_game(&c.request) {
                Ok(()) => {
                    let n = self.turns().len();
                    self.message = format!("imported ({}): {}, {n} turn{}", c.kind, self.variant, if n == 1 { "" } else { "s" });
                    self.tick();
                    return self.ok();
                }
                Err(e) => errors.push((c.kind, e)),
            }
        }
        bad(import::failed(errors))
    }

    /// `POST /api/play`: a person's turn.
    pub(super) fn api_play(&mut self, req: &Request) -> Response {
        let turn = req.param("turn").unwrap_or("").trim();
        if let Some(s) = &self.search {
            if s.seat.is_some() && !s.hint {
                return Response::error(409, "the engine is thinking: wait, or press Move now");
            }
        }
        let Some(to_move) = self.snap.as_ref().map(|s| s.to_move) else { return bad("no position") };
        if self.time_loss.is_some() {
            return bad(format!("the game is over ({})", self.message));
        }
        if self.players.get(to_move) != Some(&Player::Human) {
            return Response::error(409, "it is an engine seat's turn");
        }
        match self.played.check_turn(turn) {
            Ok(t) => {
                self.halt();
                if !self.clock_turn(to_move) {
                    return bad(format!("too late: {}", self.message));
                }
                self.played.play(&t).expect("a turn just checked");
                self.times_ms.push(None);
                self.scores.push(None);
                self.evals.push(Eval::Pending);
                self.message = format!("{} played {t}", self.facts.names.get(to_move).copied().unwrap_or("?"));
                self.refresh();
                self.tick();
                self.ok()
            }
            Err(e) => bad(e),
        }
    }

    /// `POST /api/undo`: takes back turns up to a person's (or one turn
    /// when every seat is an engine).
    pub(super) fn api_undo(&mut self) -> Response {
        if self.turns().is_empty() {
            return bad("nothing to undo");
        }
        let every_seat_an_engine = self.players.iter().all(|p| *p != Player::Human);
        loop {
            self.cut_to(self.turns().len() - 1);
            let to_move = self.snap.as_ref().map_or(0, |s| s.to_move);
            let human = self.players.get(to_move) == Some(&Player::Human);
            if self.turns().is_empty() || human || every_seat_an_engine {
                break;
            }
        }
        self.message = "undone".into();
        self.ok()
    }

    /// `POST /api/stop`: move now: the engine plays its best turn so far;
    /// an analysis ends.
    pub(super) fn api_stop(&mut self) -> Response {
        if self.search.is_some() {
            self.engine.handle_line("stop");
            self.tick();
        }
        self.ok()
    }

    /// `POST /api/pause`: pauses (or, with `paused=false`, resumes) the engines.
    pub(super) fn api_pause(&mut self, req: &Request) -> Response {
        self.paused = req.param("paused") != Some("false");
        if self.paused {
            self.halt();
        }
        self.version += 1;
        self.tick();
        self.ok()
    }

    /// `POST /api/players`: who plays each seat.
    pub(super) fn api_players(&mut self, req: &Request) -> Response {
        let p = req.param("players").unwrap_or("");
        match p.split(',').map(Player::parse).collect::<Result<Vec<_>, _>>() {
            Ok(v) if v.len() == self.facts.seats => {
                self.halt();
                self.players = v;
                self.version += 1;
                self.tick();
                self.ok()
            }
            Ok(v) => bad(format!("players: {} given, the game has {} seats", v.len(), self.facts.seats)),
            Err(e) => bad(e),
        }
    }

    /// `POST /api/analyse`: the engine analyses the position until stopped,
    /// showing its `multipv` best lines (1..=5, default 1).
    pub(super) fn api_analyse(&mut self, req: &Request) -> Response {
        let lines = match req.param("multipv").unwrap_or("1").parse::<usize>() {
            Ok(k) if (1..=MAX_LINES).contains(&k) => k,
            _ => return bad(format!("multipv: a number of lines from 1 to {MAX_LINES}")),
        };
        if self.snap.as_ref().is_some_and(|s| s.over) {
            return bad("the game is over");
        }
        self.halt();
        self.paused = true;
        if let Err(e) = self.position_for(None) {
            return bad(e);
        }
        self.set_skill(crate::options::SKILL_FULL);
        self.set_multipv(lines);
        self.new_report(self.mover().unwrap_or(0));
        self.search = Some(Search { seat: None, started: Instant::now(), turns: self.turns().len(), hint: false });
        self.send("go infinite");
        self.version += 1;
        self.ok()
    }

    /// `POST /api/hint`: the engine's best turn for the person to move
    /// (full strength, `ms` milliseconds, 100..=10,000, default 1,000),
    /// shown as the state's `hint`, not played.
    pub(super) fn api_hint(&mut self, req: &Request) -> Response {
        let ms = match req.param("ms").unwrap_or("1000").parse::<u64>() {
            Ok(ms) if (100..=10_000).contains(&ms) => ms,
            _ => return bad("ms: a time from 100 to 10000 milliseconds"),
        };
        let Some(seat) = self.mover() else { return bad("the game is over") };
        if self.players.get(seat) != Some(&Player::Human) {
            return Response::error(409, "a hint is for a person's turn");
        }
        if self.search.as_ref().is_some_and(|s| s.seat.is_some() && !s.hint) {
            return Response::error(409, "the engine is thinking");
        }
        self.halt();
        if let Err(e) = self.position_for(Some(seat)) {
            return bad(e);
        }
        self.set_skill(crate::options::SKILL_FULL);
        self.set_multipv(1);
        self.new_report(seat);
        self.hint = None;
        self.search = Some(Search { seat: Some(seat), started: Instant::now(), turns: self.turns().len(), hint: true });
        self.send(&format!("go movetime {ms}"));
        self.version += 1;
        self.ok()
    }

    /// `GET /api/at?turn=k`: the position after the game's first `k` turns
    /// (browsing; the game does not change).
    pub(super) fn api_at(&self, req: &Request) -> Response {
        let k = match turn_param(req, self.turns().len()) {
            Ok(k) => k,
            Err(r) => return r,
        };
        let time_loss = if k == self.turns().len() { self.time_loss } else { None };
        let s = snapshot(&self.played.at(k), time_loss);
        #[derive(Serialize)]
        struct At<'a> {
            turn: usize,
            #[serde(flatten)]
            position: &'a Position,
        }
        Response::json(200, to_json(&At { turn: k, position: &s.position }))
    }

    /// `GET /api/cells?line=t1 t2 …&turn=k`: the cells of a line of turns
    /// played after the game's first `k` turns (default: all), to draw a
    /// hint or an engine line.
    pub(super) fn api_cells(&self, req: &Request) -> Response {
        let k = match turn_param(req, self.turns().len()) {
            Ok(k) => k,
            Err(r) => return r,
        };
        let line: Vec<String> = req.param("line").unwrap_or("").split_whitespace().take(64).map(str::to_owned).collect();
        if line.is_empty() {
            return bad("line: no turn given");
        }
        match line_cells(&self.played.at(k), &line) {
            Ok(turns) => {
                #[derive(Serialize)]
                struct Cells {
                    turns: Vec<LineTurn>,
                }
                Response::json(200, to_json(&Cells { turns }))
            }
            Err(e) => bad(e),
        }
    }

    /// `POST /api/branch?turn=k`: the game goes on from the position after
    /// its first `k` turns (a new line: the later turns are dropped).
    pub(super) fn api_branch(&mut self, req: &Request) -> Response {
        let k = match turn_param(req, self.turns().len()) {
            Ok(k) => k,
            Err(r) => return r,
        };
        let dropped = self.turns().len() - k;
        if dropped == 0 {
            return bad("that is the game's last position: nothing to drop");
        }
        self.cut_to(k);
        self.message = format!("a new line from turn {k}: {dropped} later turn{} dropped", if dropped == 1 { "" } else { "s" });
        self.ok()
    }
}

/// `GET /api/rules?variant=V`: the game's page (Markdown text), which
/// the game names ([`GameInfo::rules_page`](tetrarch_core::game::GameInfo::rules_page)).
fn api_rules(variant: &str) -> Response {
    let page = Variant::from_name(variant).map(|v| AnyGame::startpos(v).rules_page()).filter(|p| !p.is_empty());
    match page {
        Some(text) => Response {
            status: 200,
            content_type: "text/markdown; charset=utf-8",
            headers: vec![],
            body: text.as_bytes().to_vec(),
        },
        None => bad(format!("no rules page for `{variant}`")),
    }
}

/// The `turn` parameter: a number of turns from 0 to `len` (default `len`).
fn turn_param(req: &Request, len: usize) -> Result<usize, Response> {
    match req.param("turn").map(str::parse::<usize>) {
        None => Ok(len),
        Some(Ok(k)) if k <= len => Ok(k),
        _ => Err(bad(format!("turn: a number of turns from 0 to {len}"))),
    }
}

/// A 400 answer.
pub(super) fn bad(msg: impl std::fmt::Display) -> Response {
    Response::error(400, &msg.to_string())
}

/// The `seat` parameter (from 1; default 1) as a 0-based seat.
pub(super) fn seat_param(req: &Request) -> Option<usize> {
    match req.param("seat").unwrap_or("1").parse::<usize>() {
        Ok(s) if s >= 1 => Some(s - 1),
        _ => None,
    }
}

/// What `/api/actions` needs, copied out of the game so that the listing
/// runs without its lock.
pub(crate) struct ActionsJob {
    game: AnyGame,
    prefix: Vec<String>,
}

impl ActionsJob {
    pub(super) fn run(&self) -> Response {
        match actions_json(&self.game, &self.prefix) {
            Ok(j) => Response::json(200, j),
            Err(e) => bad(e),
        }
    }
}
