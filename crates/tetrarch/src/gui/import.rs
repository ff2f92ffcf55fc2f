//! `POST /api/import`: a game pasted or uploaded as text, translated into
//! the parameters of `/api/new` ([`candidates`]), which checks them as it
//! checks any new game (variant, options, start, every turn). Four kinds of
//! text ([`Kind`]): a record line (`/api/record.jsonl`, the match runner's
//! records), a teamchess PGN4 (read by the game's own record reader), turn
//! tokens from the start position, or a position string. Nothing here
//! applies a rule: the record is read with serde_json, the PGN4 with
//! `Game::read_record`, and the rest is left to `new_game`.

use std::collections::BTreeMap;
use std::fmt;

use serde::Deserialize;

use super::error::GuiError;
use super::game_queries::Facts;
use super::http::Request;
use tetrarch_core::game::PositionError;
use tetrarch_core::handle::{AnyGame, Variant};

/// The longest text imported, in bytes (256 KiB: a PGN4 of a long game is
/// some 10 KB). The HTTP server refuses bodies over 1 MiB
/// ([`MAX_BODY`](super::http::MAX_BODY)); URL-encoding at most triples a
/// byte, so text up to this size always arrives.
pub(super) const MAX_TEXT: usize = 256 * 1024;

/// The variant whose record format PGN4 is.
pub(super) const PGN4_VARIANT: &str = "teamchess";

/// What the text is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    /// One JSON line as `/api/record.jsonl` writes it.
    Record,
    /// A teamchess PGN4 (chess.com's format).
    Pgn4,
    /// Turn tokens from the start position.
    Turns,
    /// A position string.
    Position,
}

impl Kind {
    /// The `kind` parameter (`None`: `auto`).
    fn parse(word: &str) -> Result<Option<Kind>, ImportError> {
        match word.trim() {
            "" | "auto" => Ok(None),
            "record" => Ok(Some(Kind::Record)),
            "pgn4" => Ok(Some(Kind::Pgn4)),
            "turns" => Ok(Some(Kind::Turns)),
            "position" => Ok(Some(Kind::Position)),
            w => Err(ImportError::UnknownKind(w.chars().take(40).collect())),
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Kind::Record => "record",
            Kind::Pgn4 => "PGN4",
            Kind::Turns => "turns",
            Kind::Position => "position",
        })
    }
}

/// Why a text cannot be imported (the `error` of the 400 answer; the game
/// does not change).
#[derive(Debug, thiserror::Error)]
pub(super) enum ImportError {
    /// Nothing but white space.
    #[error("import: the text is empty")]
    Empty,
    /// More than [`MAX_TEXT`] bytes.
    #[error("import: the text has {len} bytes, more than {max}: import one game")]
    TooLong {
        /// Its size.
        len: usize,
        /// The limit.
        max: usize,
    },
    /// A `kind` other than `auto`, `record`, `pgn4`, `turns`, `position`.
    #[error("import: unknown kind `{0}` (auto, record, pgn4, turns or position)")]
    UnknownKind(String),
    /// A records file of several games.
    #[error("record: the text has {0} lines: paste one game's line")]
    SeveralLines(usize),
    /// Not JSON, or not a record's fields (serde_json says where).
    #[error("record: {0}")]
    Json(#[from] serde_json::Error),
    /// A `start` other than `startpos`, `fen …`, `setup …`.
    #[error("record: bad start `{0}` (startpos, fen <position string> or setup <one token per seat>)")]
    BadStart(String),
    /// `setup` with another number of tokens than seats.
    #[error("record: start `setup` has {given} tokens, variant {variant} has {seats} seats")]
    SetupCount {
        /// Tokens given.
        given: usize,
        /// The variant.
        variant: &'static str,
        /// Its seats.
        seats: usize,
    },
    /// A turn of a record that is empty or has spaces inside.
    #[error("record: turn {turn} `{token}`: a turn token has no spaces and is not empty")]
    TurnToken {
        /// Its number, from 1.
        turn: usize,
        /// The token.
        token: String,
    },
    /// The PGN4 reader refused the text (its message names the move).
    #[error("{0}")]
    Pgn4(PositionError),
    /// The PGN4 variant has no record reader (a bug).
    #[error("PGN4: variant {PGN4_VARIANT} has no record reader")]
    NoPgn4Reader,
    /// `/api/new` refused the game the text describes.
    #[error("{kind}: {source}")]
    Rejected {
        /// What the text was read as.
        kind: Kind,
        /// Why `/api/new` refused it.
        source: Box<GuiError>,
    },
    /// `auto`: turns and a position string refused for the same reason
    /// (the players, the variant).
    #[error("{0}")]
    Both(Box<GuiError>),
    /// `auto`: the text is neither turns nor a position string.
    #[error("neither turns ({turns}) nor a position string ({position})")]
    Neither {
        /// Why it is not a turn list.
        turns: Box<GuiError>,
        /// Why it is not a position string.
        position: Box<GuiError>,
    },
}

/// One reading of the text: the `/api/new` request it amounts to.
pub(super) struct Candidate {
    /// What the text is read as.
    pub(super) kind: Kind,
    /// The parameters of `/api/new`.
    pub(super) request: Request,
}

/// The readings of an import request to try in order (the first that
/// `new_game` accepts is the game): one, or for `auto` text that is neither
/// a record nor a PGN4, turns then a position string. `current` is the
/// variant of the game shown (the default of `variant`).
pub(super) fn candidates(req: &Request, current: &'static str) -> Result<Vec<Candidate>, ImportError> {
    let text = req.param("text").unwrap_or("");
    if text.len() > MAX_TEXT {
        return Err(ImportError::TooLong { len: text.len(), max: MAX_TEXT });
    }
    // (A file may begin with a byte-order mark.)
    let text = text.trim_start_matches('\u{feff}').trim();
    if text.is_empty() {
        return Err(ImportError::Empty);
    }
    let kinds = match Kind::parse(req.param("kind").unwrap_or(""))? {
        Some(k) => vec![k],
        None => detect(text),
    };
    kinds.into_iter().map(|k| Ok(Candidate { kind: k, request: reading(req, text, k, current)? })).collect()
}

/// `auto`: what the text looks like.
fn detect(text: &str) -> Vec<Kind> {
    let first = text.split_whitespace().next().unwrap_or("");
    let digits = first.bytes().take_while(u8::is_ascii_digit).count();
    if text.starts_with('{') {
        vec![Kind::Record]
    } else if text.starts_with('[') || digits > 0 && first[digits..].starts_with('.') {
        vec![Kind::Pgn4]
    } else {
        vec![Kind::Turns, Kind::Position]
    }
}

/// A record line: what the GUI and the match runner write (other fields
/// are ignored).
#[derive(Deserialize)]
struct RecordLine {
    variant: String,
    start: String,
    turns: Vec<String>,
    #[serde(default)]
    options: Option<BTreeMap<String, String>>,
}

/// The `/api/new` request of the text read as `kind`.
fn reading(req: &Request, text: &str, kind: Kind, current: &'static str) -> Result<Request, ImportError> {
    let chosen = req.param("variant").filter(|v| !v.trim().is_empty()).map(str::trim);
    let mut p: Vec<(String, String)> = Vec::new();
    let variant: String = match kind {
        Kind::Turns | Kind::Position => {
            let variant = chosen.unwrap_or(current).to_string();
            // The rule options of the form, for that variant.
            p.extend(req.params.iter().filter(|(k, _)| k.starts_with("option.")).cloned());
            if kind == Kind::Turns {
                p.push(("moves".into(), text.split_whitespace().collect::<Vec<_>>().join(" ")));
            } else {
                p.push(("start".into(), "fen".into()));
                p.push(("fen".into(), text.into()));
            }
            variant
        }
        Kind::Record => {
            let lines = text.lines().filter(|l| !l.trim().is_empty()).count();
            if lines > 1 {
                return Err(ImportError::SeveralLines(lines));
            }
            let r: RecordLine = serde_json::from_str(text)?;
            for (i, t) in r.turns.iter().enumerate() {
                if t.is_empty() || t.contains(char::is_whitespace) {
                    return Err(ImportError::TurnToken { turn: i + 1, token: t.chars().take(60).collect() });
                }
            }
            for (k, v) in r.options.unwrap_or_default() {
                p.push((format!("option.{k}"), v));
            }
            let start = r.start.trim();
            match start.split_once(char::is_whitespace) {
                None if start == "startpos" => {}
                Some(("fen", fen)) => {
                    p.push(("start".into(), "fen".into()));
                    p.push(("fen".into(), fen.trim().into()));
                }
                Some(("setup", toks)) => {
                    let toks: Vec<&str> = toks.split_whitespace().collect();
                    if let Some(v) = Variant::from_name_ignore_case(&r.variant) {
                        let seats = Facts::of(v).seats;
                        if toks.len() != seats {
                            return Err(ImportError::SetupCount { given: toks.len(), variant: v.name(), seats });
                        }
                    }
                    p.push(("start".into(), "setup".into()));
                    for (i, t) in toks.iter().enumerate() {
                        p.push((format!("setup{}", i + 1), t.to_string()));
                    }
                }
                _ => return Err(ImportError::BadStart(start.chars().take(60).collect())),
            }
            p.push(("moves".into(), r.turns.join(" ")));
            r.variant
        }
        Kind::Pgn4 => {
            let game = Variant::from_name(PGN4_VARIANT).map(AnyGame::startpos).ok_or(ImportError::NoPgn4Reader)?;
            let startpos = game.position_string();
            let (start, turns) = game.read_record(text).ok_or(ImportError::NoPgn4Reader)?.map_err(ImportError::Pgn4)?;
            if start != startpos {
                p.push(("start".into(), "fen".into()));
                p.push(("fen".into(), start));
            }
            p.push(("moves".into(), turns.join(" ")));
            PGN4_VARIANT.to_string()
        }
    };
    p.push(("players".into(), players(req, chosen, &variant)));
    p.push(("variant".into(), variant));
    Ok(Request { method: "POST".into(), path: "/api/new".into(), params: p, headers: vec![] })
}

/// Who plays the imported game: the `players` given, if they were chosen
/// for its variant (no `variant` given, or the same); else every seat
/// `human`, so that a person can study the game.
fn players(req: &Request, chosen: Option<&str>, variant: &str) -> String {
    let given = req.param("players").filter(|p| !p.trim().is_empty());
    match given {
        Some(p) if chosen.is_none_or(|c| c.eq_ignore_ascii_case(variant)) => p.to_string(),
        _ => {
            let seats = Variant::from_name_ignore_case(variant).map_or(1, |v| Facts::of(v).seats);
            vec!["human"; seats].join(",")
        }
    }
}

/// Why every reading failed, from `new_game`'s errors (one per reading, in
/// order).
pub(super) fn failed(mut errors: Vec<(Kind, GuiError)>) -> ImportError {
    let last = errors.pop();
    match (errors.pop(), last) {
        (Some((Kind::Turns, turns)), Some((Kind::Position, position))) if turns.to_string() == position.to_string() => {
            ImportError::Both(Box::new(turns))
        }
        (Some((Kind::Turns, turns)), Some((Kind::Position, position))) => {
            ImportError::Neither { turns: Box::new(turns), position: Box::new(position) }
        }
        (_, Some((kind, source))) => ImportError::Rejected { kind, source: Box::new(source) },
        (_, None) => ImportError::Empty,
    }
}

#[cfg(test)]
mod tests {
    //! `/api/import` through [`Gui::handle`]: every kind of text replays to
    //! the position `/api/new` reaches with the same game given as its
    //! parameters (the PGN4s written by hand from the format's description,
    //! their moves translated into turn tokens by hand), and every refusal
    //! names the bad word and changes nothing.

    use serde_json::Value;

    use super::super::http::Request;
    use super::super::state::Gui;
    use super::MAX_TEXT;

    const CAPTURE_PGN4: &str = include_str!("../../tests/data/import/teams-capture.pgn4");
    /// Its moves as turn tokens, translated by hand (`Bf1xb5` is the
    /// capture of a pawn, `Ba6xBb5` of the bishop).
    const CAPTURE_TURNS: &str = "e2e3 b9c9 h13h12 m9l9 f1b5 a6b5 i13i11 m10l10 j1i3";
    const OLD_LAYOUT_PGN4: &str = include_str!("../../tests/data/import/teams-old-layout.pgn4");
    /// Its moves by hand: `b6-c6` is legal only because Blue's Queen, not
    /// its King, stands on a7 (in chess.com's layout f2-f3 pins that pawn);
    /// `Qg1xQa7+` and `Ka8xQa7` are captures.
    const OLD_LAYOUT_TURNS: &str = "f2f3 b6c6 h13h12 m8l8 g1a7 a8a7";

    fn call(g: &mut Gui, method: &str, path: &str, params: &[(&str, &str)]) -> (u16, Value) {
        g.tick();
        let req = Request {
            method: method.into(),
            path: path.into(),
            params: params.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
            headers: vec![],
        };
        let r = g.handle(&req);
        let body = String::from_utf8(r.body).unwrap();
        (r.status, serde_json::from_str(&body).unwrap_or_else(|e| panic!("{e}: {body}")))
    }

    /// `/api/new` with these parameters (must succeed): the state.
    fn new_game(g: &mut Gui, params: &[(&str, &str)]) -> Value {
        let (s, b) = call(g, "POST", "/api/new", params);
        assert_eq!(s, 200, "{params:?}: {b}");
        b
    }

    fn import(g: &mut Gui, params: &[(&str, &str)]) -> (u16, Value) {
        call(g, "POST", "/api/import", params)
    }

    fn str_of<'a>(v: &'a Value, key: &str) -> &'a str {
        v[key].as_str().unwrap_or_else(|| panic!("no `{key}` in {v}"))
    }

    /// What an import must not change.
    fn fingerprint(g: &Gui) -> (u64, u64, &'static str, Vec<String>, Vec<String>, bool) {
        let players = g.players.iter().map(|p| p.word()).collect();
        (g.version, g.game, g.variant.name(), g.turns().to_vec(), players, g.paused)
    }

    /// The refusal of `params`: a 400 whose message contains every one of
    /// `words`, the game unchanged.
    fn refused(g: &mut Gui, params: &[(&str, &str)], words: &[&str]) -> String {
        let before = fingerprint(g);
        let state_before = call(g, "GET", "/api/state", &[]).1;
        let (s, b) = import(g, params);
        assert_eq!(s, 400, "{params:?}: {b}");
        let msg = str_of(&b, "error").to_string();
        for w in words {
            assert!(msg.contains(w), "{params:?}: `{w}` not in {msg:?}");
        }
        assert_eq!(fingerprint(g), before, "{params:?} changed the game");
        let state_after = call(g, "GET", "/api/state", &[]).1;
        for key in ["position", "start", "options", "players", "turns", "message"] {
            assert_eq!(state_after[key], state_before[key], "{params:?} changed `{key}`");
        }
        msg
    }

    #[test]
    fn turns_replay_from_the_start_of_the_variant_chosen() {
        let mut g = Gui::new("teamchess");
        let turns = "e2e3 b7c7 h13h12 m8l8";
        let expected = new_game(&mut g, &[("variant", "fourchess"), ("players", "human,human,human,human"), ("moves", turns)]);
        new_game(&mut g, &[("variant", "teamchess"), ("players", "human,human,human,human")]);
        // The variant named; spaces and new lines between the tokens.
        let (s, b) = import(&mut g, &[("text", "\u{feff}e2e3  b7c7\r\nh13h12\tm8l8\n"), ("variant", "fourchess")]);
        assert_eq!(s, 200, "{b}");
        assert_eq!(str_of(&b, "variant"), "fourchess");
        assert_eq!(str_of(&b, "position"), str_of(&expected, "position"));
        assert_ne!(str_of(&b, "position"), str_of(&b, "start_position"));
        assert_eq!(b["turns"], serde_json::json!(["e2e3", "b7c7", "h13h12", "m8l8"]));
        assert_eq!(str_of(&b, "start"), "startpos");
        // Every seat human by default.
        assert_eq!(b["players"], serde_json::json!(["human", "human", "human", "human"]));
        assert!(str_of(&b, "message").starts_with("imported (turns)"), "{b}");
        // Without `variant`: the current game's; `kind=turns` explicitly;
        // the page's seats.
        let (s, b) = import(&mut g, &[("text", "e2e3"), ("kind", "turns"), ("players", "human,engine:500,human,human")]);
        assert_eq!(s, 200, "{b}");
        assert_eq!((str_of(&b, "variant"), b["turns"].clone()), ("fourchess", serde_json::json!(["e2e3"])));
        assert_eq!(b["players"], serde_json::json!(["human", "engine:500", "human", "human"]));
        assert!(g.turns() == ["e2e3"]);
    }

    #[test]
    fn a_position_string_starts_the_game_there() {
        let mut g = Gui::new("fourchess");
        let there = new_game(&mut g, &[("variant", "quattuor"), ("players", "human,human"), ("start", "setup")]);
        let pos = str_of(&there, "position").to_string();
        new_game(&mut g, &[("variant", "fourchess"), ("players", "human,human,human,human"), ("moves", "e2e3")]);
        // `auto`: not turns of quattuor, so a position string.
        let (s, b) = import(&mut g, &[("text", &format!("  {pos}\n")), ("variant", "quattuor")]);
        assert_eq!(s, 200, "{b}");
        assert_eq!((str_of(&b, "variant"), str_of(&b, "position")), ("quattuor", pos.as_str()));
        assert_eq!(str_of(&b, "start"), format!("fen {pos}"));
        assert_eq!(b["turns"], serde_json::json!([]));
        assert!(str_of(&b, "message").starts_with("imported (position)"), "{b}");
        let (s, b) = import(&mut g, &[("text", &pos), ("kind", "position")]);
        assert_eq!((s, str_of(&b, "position")), (200, pos.as_str()));
    }

    #[test]
    fn a_record_line_of_a_played_game_replays_to_its_position() {
        let mut g = Gui::new("fourchess");
        // A game with a rule option (layout B) and turns played one by one.
        new_game(&mut g, &[("variant", "fourchess"), ("players", "human,human,human,human"), ("option.FC_Layout", "B")]);
        for t in ["e2e3", "b7c7", "h13h12", "m8l8", "f1c4"] {
            let (s, b) = call(&mut g, "POST", "/api/play", &[("turn", t)]);
            assert_eq!(s, 200, "{t}: {b}");
        }
        let played = call(&mut g, "GET", "/api/state", &[]).1;
        let line = String::from_utf8(g.handle(&Request { path: "/api/record.jsonl".into(), ..Request::default() }).body).unwrap();
        assert!(line.ends_with('\n') && line.contains("\"FC_Layout\":\"B\""), "{line}");
        // The layout matters: the same turns from layout A end elsewhere.
        let a = new_game(&mut g, &[("variant", "fourchess"), ("moves", "e2e3 b7c7 h13h12 m8l8")]);
        new_game(&mut g, &[("variant", "quattuor"), ("players", "human,human")]);
        let (s, b) = import(&mut g, &[("text", &line), ("variant", "quattuor"), ("players", "human,human")]);
        assert_eq!(s, 200, "{b}");
        assert_eq!(str_of(&b, "position"), str_of(&played, "position"));
        assert_ne!(str_of(&b, "position"), str_of(&a, "position"));
        assert_eq!(b["turns"], played["turns"]);
        assert_eq!(b["options"], serde_json::json!({"FC_Layout": "B"}));
        // The seats chosen for quattuor do not apply: every seat human.
        assert_eq!(b["players"], serde_json::json!(["human", "human", "human", "human"]));
        assert!(str_of(&b, "message").starts_with("imported (record)"), "{b}");
    }

    #[test]
    fn a_set_up_record_and_a_match_runner_line_replay() {
        let mut g = Gui::new("quattuor");
        let played = new_game(&mut g, &[("variant", "quattuor"), ("players", "human,human"), ("start", "setup")]);
        let line = String::from_utf8(g.handle(&Request { path: "/api/record.jsonl".into(), ..Request::default() }).body).unwrap();
        let start = str_of(&played, "start").to_string();
        assert!(start.starts_with("setup "), "{start}");
        new_game(&mut g, &[("variant", "fourchess")]);
        let (s, b) = import(&mut g, &[("text", &line), ("kind", "record")]);
        assert_eq!(s, 200, "{b}");
        assert_eq!((str_of(&b, "start"), str_of(&b, "position")), (start.as_str(), str_of(&played, "position")));
        // The match runner's line: other fields, no `options`.
        let runner = serde_json::json!({"match": "ab12", "game": 3, "opening_index": 1, "round": 0,
            "variant": "fourchess", "start": "startpos", "opening_turns": 2, "seats": ["a", "b", "a", "b"],
            "seat_engines": [0, 1, 0, 1], "result": "draw", "reason": "noprogress", "decided": "adjudication",
            "culprit": null, "points": [0.5, 0.5, 0.5, 0.5], "ranks": [1, 1, 1, 1],
            "turns": ["e2e3", "b7c7", "h13h12"], "times_ms": [1], "scores": [null], "started": 0, "duration_ms": 5});
        let expected = new_game(&mut g, &[("variant", "fourchess"), ("moves", "e2e3 b7c7 h13h12")]);
        new_game(&mut g, &[("variant", "quattuor")]);
        let (s, b) = import(&mut g, &[("text", &runner.to_string())]);
        assert_eq!(s, 200, "{b}");
        assert_eq!(str_of(&b, "position"), str_of(&expected, "position"));
    }

    #[test]
    fn pgn4_in_both_layouts_replays_to_the_tokens_by_hand() {
        let mut g = Gui::new("fourchess");
        let four = "human,human,human,human";
        let expected = new_game(&mut g, &[("variant", "teamchess"), ("players", four), ("moves", CAPTURE_TURNS)]);
        new_game(&mut g, &[("variant", "fourchess"), ("players", four)]);
        // `auto` (a tag first) and `pgn4`; `variant` does not matter.
        for kind in ["auto", "pgn4"] {
            let (s, b) = import(&mut g, &[("text", CAPTURE_PGN4), ("kind", kind), ("variant", "fourchess")]);
            assert_eq!(s, 200, "{kind}: {b}");
            assert_eq!(str_of(&b, "variant"), "teamchess");
            assert_eq!(str_of(&b, "start"), "startpos");
            assert_eq!(str_of(&b, "position"), str_of(&expected, "position"));
            assert_eq!(b["turns"].as_array().unwrap().len(), 9);
            assert!(str_of(&b, "message").starts_with("imported (PGN4)"), "{b}");
        }
        // The movetext alone (a move number first) is PGN4 too.
        let movetext = &CAPTURE_PGN4[CAPTURE_PGN4.find("1. ").unwrap()..];
        let (s, b) = import(&mut g, &[("text", movetext)]);
        assert_eq!((s, str_of(&b, "position")), (200, str_of(&expected, "position")), "{b}");

        // The older layout (Blue's King and Queen swapped, Green's too):
        // its StartFen4 tag is the start.
        let fen4 = OLD_LAYOUT_PGN4.split("[StartFen4 \"").nth(1).unwrap().split('"').next().unwrap();
        let expected =
            new_game(&mut g, &[("variant", "teamchess"), ("start", "fen"), ("fen", fen4), ("moves", OLD_LAYOUT_TURNS)]);
        new_game(&mut g, &[("variant", "fourchess"), ("players", four)]);
        let (s, b) = import(&mut g, &[("text", OLD_LAYOUT_PGN4)]);
        assert_eq!(s, 200, "{b}");
        assert_eq!(str_of(&b, "position"), str_of(&expected, "position"));
        assert!(str_of(&b, "start").starts_with("fen "), "{b}");
        assert_eq!(str_of(&b, "start_position"), str_of(&expected, "start_position"));
        // Without the tag the same moves are read in chess.com's layout,
        // where Blue's b6 pawn is pinned: refused at that move.
        let untagged: String = OLD_LAYOUT_PGN4.lines().filter(|l| !l.starts_with("[StartFen4")).collect::<Vec<_>>().join("\n");
        refused(&mut g, &[("text", &untagged)], &["move 2", "`b6-c6`"]);
    }

    #[test]
    fn broken_texts_are_refused_naming_the_bad_word_and_change_nothing() {
        let mut g = Gui::new("fourchess");
        new_game(&mut g, &[("variant", "fourchess"), ("players", "human,engine:300,human,human"), ("moves", "e2e3")]);
        // (The engine, to move, waits.)
        assert_eq!(call(&mut g, "POST", "/api/pause", &[("paused", "true")]).0, 200);
        let rec = |variant: &str, start: &str, turns: &[&str]| {
            serde_json::json!({"variant": variant, "start": start, "turns": turns, "options": {}}).to_string()
        };
        // Record lines.
        refused(&mut g, &[("text", &rec("chess", "startpos", &[]))], &["record:", "unknown variant `chess`"]);
        refused(&mut g, &[("text", &rec("fourchess", "sideways", &[]))], &["record:", "`sideways`"]);
        refused(&mut g, &[("text", &rec("fourchess", "fen not-a-position", &[]))], &["record:", "invalid position"]);
        refused(&mut g, &[("text", &rec("quattuor", "setup only-one", &[]))], &["1 tokens", "2 seats"]);
        refused(&mut g, &[("text", &rec("fourchess", "startpos", &["e2e3", "b7c7", "e3e9"]))], &["turn 3", "`e3e9`"]);
        refused(&mut g, &[("text", &rec("fourchess", "startpos", &["e2e3", "b7 c7"]))], &["turn 2", "`b7 c7`"]);
        refused(
            &mut g,
            &[("text", r#"{"variant":"fourchess","start":"startpos","turns":[],"options":{"FC_Layout":"C"}}"#)],
            &["FC_Layout", "C"],
        );
        refused(&mut g, &[("text", r#"{"variant":"fourchess","start":"startpos""#)], &["record:", "EOF"]);
        refused(&mut g, &[("text", r#"{"variant":"fourchess","turns":[]}"#)], &["record:", "missing field `start`"]);
        let two = format!("{}\n{}", rec("fourchess", "startpos", &[]), rec("fourchess", "startpos", &[]));
        refused(&mut g, &[("text", &two)], &["2 lines"]);
        // PGN4: the first bad move.
        refused(&mut g, &[("text", "1. e2-e3 .. b9-c9 .. h13-h12 .. m9-l9\n2. Bf1xb6")], &["move 5", "`Bf1xb6`"]);
        refused(&mut g, &[("text", "[Variant \"Teams\"]\n[Red]\n1. e2-e3")], &["bad tag", "[Red]"]);
        refused(&mut g, &[("text", "[StartFen4 \"R-junk\"]\n1. e2-e3"), ("kind", "pgn4")], &["StartFen4"]);
        // Turns and position strings.
        refused(&mut g, &[("text", "e2e3 b7c7 e3e9"), ("kind", "turns")], &["turns:", "turn 3", "`e3e9`"]);
        refused(&mut g, &[("text", "e2e3"), ("kind", "turns"), ("variant", "chess")], &["unknown variant `chess`"]);
        refused(&mut g, &[("text", "e2e3 nonsense 7"), ("kind", "position")], &["position:", "invalid position string"]);
        let both = refused(&mut g, &[("text", "e2e3 b7c7 zz9")], &["neither", "turn 3", "`zz9`", "position string"]);
        assert!(both.contains("invalid position string"), "{both}");
        // The request itself.
        refused(&mut g, &[("text", " \n ")], &["empty"]);
        refused(&mut g, &[], &["empty"]);
        refused(&mut g, &[("text", "e2e3"), ("kind", "sgf")], &["unknown kind `sgf`"]);
        let msg = refused(&mut g, &[("text", "e2e3"), ("players", "human,human")], &["players: 2 given"]);
        assert!(!msg.contains("neither"), "one reason, said once: {msg}");
        refused(&mut g, &[("text", "e2e3"), ("players", "human,robot,human,human")], &["`robot`"]);
        let long = "e2e3 ".repeat(MAX_TEXT / 5 + 1);
        refused(&mut g, &[("text", &long)], &["more than 262144"]);
        assert_eq!(g.turns(), ["e2e3"]);
        // Only POST.
        assert_eq!(call(&mut g, "GET", "/api/import", &[("text", "e2e3")]).0, 405);
    }

    /// The fuzz target's entry reaches the route (a fresh quattuor game,
    /// every seat human): a text it accepts, one it refuses (the harness
    /// checks that the refusal changed nothing), the wrong method.
    #[test]
    fn the_fuzz_harness_reaches_the_import() {
        use super::super::fuzz_request;
        let mut g = Gui::new("quattuor");
        let pos = str_of(&call(&mut g, "GET", "/api/state", &[]).1, "position").to_string();
        let form = |text: &str| {
            let enc: String = text
                .bytes()
                .map(|b| if b.is_ascii_alphanumeric() { (b as char).to_string() } else { format!("%{b:02X}") })
                .collect();
            format!("text={enc}&kind=position")
        };
        let post = |body: String| format!("POST /api/import HTTP/1.1\r\nContent-Length: {}\r\n\r\n{body}", body.len());
        assert_eq!(fuzz_request(post(form(&pos)).as_bytes()), 200);
        assert_eq!(fuzz_request(post(form("zz9 9")).as_bytes()), 400);
        assert_eq!(fuzz_request(post("text=%7B%22variant%22%3A".into()).as_bytes()), 400);
        assert_eq!(fuzz_request(b"GET /api/import?text=e2e3 HTTP/1.1\r\n\r\n"), 405);
        // The target's seeds (fuzz/seeds/gui_request/) are imports it accepts.
        for seed in [
            &include_bytes!("../../../../fuzz/seeds/gui_request/import-turns")[..],
            include_bytes!("../../../../fuzz/seeds/gui_request/import-position"),
            include_bytes!("../../../../fuzz/seeds/gui_request/import-record"),
            include_bytes!("../../../../fuzz/seeds/gui_request/import-pgn4"),
        ] {
            assert_eq!(fuzz_request(seed), 200, "{}", String::from_utf8_lossy(seed));
        }
    }
}
