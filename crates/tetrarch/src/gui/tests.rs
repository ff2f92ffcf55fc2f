//! The GUI's API without a browser or a socket: requests straight into
//! [`Gui::handle`].

use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::game_queries::{propose, setup_place, Facts, Start};
use super::http::{url_decode, Request, Response};
use super::scorer::Eval;
use super::server::{lock, route};
use super::state::{parse_options, Gui};
use super::*;
use crate::options::ValueError;
use crate::{variants, Engine, Out};
use tetrarch_core::handle::{GameError, Variant};

fn req(method: &str, path: &str, params: &[(&str, &str)]) -> Request {
    Request {
        method: method.into(),
        path: path.into(),
        params: params.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
        headers: vec![],
    }
}

fn call(g: &mut Gui, method: &str, path: &str, params: &[(&str, &str)]) -> (u16, String) {
    g.tick();
    let r = g.handle(&req(method, path, params));
    (r.status, String::from_utf8(r.body).unwrap())
}

fn humans(n: usize) -> String {
    vec!["human"; n].join(",")
}

#[test]
fn play_undo_and_errors_leave_the_game_unchanged() {
    let mut g = Gui::new("fourchess");
    let (s, b) = call(&mut g, "POST", "/api/new", &[("variant", "fourchess"), ("players", &humans(4))]);
    assert_eq!(s, 200, "{b}");
    let (s, b) = call(&mut g, "POST", "/api/play", &[("turn", "e2e3")]);
    assert_eq!(s, 200, "{b}");
    assert!(b.contains("\"turns\":[\"e2e3\"]"), "{b}");
    assert!(b.contains("\"last_cells\":[\"e2\",\"e3\"]"), "{b}");
    // Illegal and malformed turns: 400 with a message, nothing changes.
    for bad in ["e2e4", "zz", "", "e2e3,e3e4"] {
        let (s, b) = call(&mut g, "POST", "/api/play", &[("turn", bad)]);
        assert_eq!(s, 400, "{bad}: {b}");
        assert!(b.starts_with("{\"error\":"), "{b}");
    }
    assert_eq!(g.turns(), ["e2e3"]);
    // Unknown variant, malformed position string, bad players, bad start.
    for params in [
        vec![("variant", "chess")],
        vec![("variant", "fourchess"), ("start", "fen"), ("fen", "not a position")],
        vec![("variant", "fourchess"), ("start", "fen"), ("fen", "")],
        vec![("variant", "fourchess"), ("players", "human,human")],
        vec![("variant", "fourchess"), ("players", "human,robot,human,human")],
        vec![("variant", "fourchess"), ("start", "setup")],
        vec![("variant", "fourchess"), ("moves", "e2e3 e2e3")],
        vec![("variant", "fourchess"), ("start", "sideways")],
    ] {
        let (s, b) = call(&mut g, "POST", "/api/new", &params);
        assert_eq!(s, 400, "{params:?}: {b}");
    }
    assert_eq!((g.variant.name(), g.turns().to_vec()), ("fourchess", vec!["e2e3".to_string()]));
    let (s, _) = call(&mut g, "POST", "/api/undo", &[]);
    assert_eq!(s, 200);
    assert!(g.turns().is_empty());
    let (s, _) = call(&mut g, "POST", "/api/undo", &[]);
    assert_eq!(s, 400);
    // Methods and paths.
    assert_eq!(call(&mut g, "GET", "/api/play", &[]).0, 405);
    assert_eq!(call(&mut g, "POST", "/api/state", &[]).0, 405);
    assert_eq!(call(&mut g, "GET", "/api/nothing", &[]).0, 404);
}

/// A Quadranj position with an 8-high column has 4,040,056 legal actions:
/// the page gets the search's list (no chain longer than 2 links, marked
/// `partial`), and a longer chain can still be played by its token.
#[test]
fn huge_action_lists_are_cut_and_long_chains_typed() {
    let mut g = Gui::new("quadranj");
    let fen = "5bG2/7bK/5bGb8BbG/8/rGrBrB5/1r2BrGrB4/rK1r2BrB4/2rG5 b 0 - rb 0/0 b4:1/g6:6 4 3";
    let (s, b) =
        call(&mut g, "POST", "/api/new", &[("variant", "quadranj"), ("players", "human,human"), ("start", "fen"), ("fen", fen)]);
    assert_eq!(s, 200, "{b}");
    let (s, a) = call(&mut g, "GET", "/api/actions", &[]);
    assert_eq!(s, 200);
    assert!(a.starts_with("{\"partial\":true,"), "{}", &a[..80]);
    let n = a.matches("{\"token\":").count();
    assert!(n > 1000 && n < super::game_queries::ACTIONS_LISTED, "{n}");
    assert!(!a.contains("\"g6/3f5/2e4/1d4\""), "a 3-link chain is not listed");
    let (s, b) = call(&mut g, "GET", "/api/actions", &[("prefix", "g6/3f5/2e4/1d4")]);
    assert_eq!(s, 200, "{b}");
    assert!(b.starts_with("{\"partial\":false,"), "{}", &b[..80]);
}

#[test]
fn multi_action_turns_set_up_and_records() {
    let mut g = Gui::new("quattuor");
    // A set-up: one token given, the other proposed by the engine.
    let red = propose(Variant::from_name("quattuor").unwrap(), &[], 0, 5).unwrap();
    let (s, b) = call(
        &mut g,
        "POST",
        "/api/new",
        &[("variant", "quattuor"), ("players", "human,human"), ("start", "setup"), ("setup1", &red)],
    );
    assert_eq!(s, 200, "{b}");
    assert!(matches!(&g.start, Start::Setup(t) if t.len() == 2 && t[0] == red));
    // Turn 1 has one action; then a turn of two actions built by prefix.
    let (_, a) = call(&mut g, "GET", "/api/actions", &[]);
    let first = a.split("\"token\":\"").nth(1).unwrap().split('"').next().unwrap().to_string();
    assert_eq!(call(&mut g, "POST", "/api/play", &[("turn", &first)]).0, 200);
    let (_, a) = call(&mut g, "GET", "/api/actions", &[]);
    assert!(a.contains("\"pass\":true"), "0000 is a legal action");
    let act = a.split("{\"token\":\"").nth(2).unwrap().split('"').next().unwrap().to_string();
    let (s, a2) = call(&mut g, "GET", "/api/actions", &[("prefix", &act)]);
    assert_eq!(s, 200, "{a2}");
    assert!(a2.contains("\"prefix\":[\"") && a2.contains("\"ends_turn\":true"), "{a2}");
    assert_eq!(call(&mut g, "GET", "/api/actions", &[("prefix", "zz9")]).0, 400);
    // End the turn after one action: the token without `0000`.
    let (s, b) = call(&mut g, "POST", "/api/play", &[("turn", &act)]);
    assert_eq!(s, 200, "{b}");
    assert_eq!(g.turns().len(), 2);
    let rec = g.record_jsonl();
    assert!(rec.starts_with("{\"game\":") && rec.ends_with("}\n") && rec.contains("\"variant\":\"quattuor\""), "{rec}");
    assert!(rec.contains(&format!("\"turns\":[\"{first}\",\"{act}\"]")), "{rec}");
    // No record format for quattuor; PGN4 for teamchess.
    assert_eq!(call(&mut g, "GET", "/api/record.pgn4", &[]).0, 400);
    call(&mut g, "POST", "/api/new", &[("variant", "teamchess"), ("players", &humans(4))]);
    assert_eq!(call(&mut g, "POST", "/api/play", &[("turn", "h2h3")]).0, 200);
    let (s, pgn) = call(&mut g, "GET", "/api/record.pgn4", &[]);
    assert_eq!(s, 200, "{pgn}");
    assert!(pgn.contains("[Variant"), "{pgn}");
}

#[test]
fn the_engine_plays_its_seats() {
    let mut g = Gui::new("queenskings9-duel");
    let (s, b) = call(&mut g, "POST", "/api/new", &[("variant", "queenskings9-duel"), ("players", "engine:20,engine:20")]);
    assert_eq!(s, 200, "{b}");
    let t = Instant::now();
    while g.turns().len() < 2 {
        assert!(t.elapsed() < Duration::from_secs(20), "no engine turns");
        std::thread::sleep(Duration::from_millis(20));
        g.tick();
    }
    assert!(g.state_json().contains("\"thinking\":"));
    // Pause stops the engines; analysis searches without playing.
    call(&mut g, "POST", "/api/pause", &[("paused", "true")]);
    let n = g.turns().len();
    let (s, b) = call(&mut g, "POST", "/api/analyse", &[]);
    assert_eq!(s, 200, "{b}");
    std::thread::sleep(Duration::from_millis(100));
    call(&mut g, "POST", "/api/stop", &[]);
    assert_eq!(g.turns().len(), n);
    assert!(g.search.is_none());
}

/// Each engine seat plays at its own level: the engine is set to it
/// before the seat's search (its `setoption` lines in the log), and
/// analysis goes back to full strength.
#[test]
fn engine_seats_play_at_their_levels() {
    let mut g = Gui::new("queenskings9-duel");
    let (s, b) = call(&mut g, "POST", "/api/new", &[("variant", "queenskings9-duel"), ("players", "level:0,level:7")]);
    assert_eq!(s, 200, "{b}");
    assert!(b.contains("\"players\":[\"level:0\",\"level:7\"]"), "{b}");
    let t = Instant::now();
    while g.turns().len() < 4 {
        assert!(t.elapsed() < Duration::from_secs(20), "no engine turns: {:?}", g.log);
        std::thread::sleep(Duration::from_millis(20));
        g.tick();
    }
    let sets: Vec<&String> = g.log.iter().filter(|l| l.starts_with("setoption name Skill Level")).collect();
    assert!(sets.len() >= 4, "{sets:?}");
    assert_eq!(sets[0], "setoption name Skill Level value 0");
    assert_eq!(sets[1], "setoption name Skill Level value 7");
    call(&mut g, "POST", "/api/pause", &[("paused", "true")]);
    assert_eq!(call(&mut g, "POST", "/api/analyse", &[]).0, 200);
    assert_eq!(g.engine.settings().skill_level, crate::options::SKILL_FULL);
    call(&mut g, "POST", "/api/stop", &[]);
    for bad in ["level:21", "level:-1", "level:x", "level:"] {
        let (s, b) = call(&mut g, "POST", "/api/players", &[("players", &format!("human,{bad}"))]);
        assert_eq!(s, 400, "{bad}: {b}");
    }
    assert_eq!(g.players, vec![Player::Level(0), Player::Level(7)]);
}

/// `/api/variants` names the levels of every variant, with Elos where a
/// table exists.
#[test]
fn variants_name_their_levels() {
    let mut g = Gui::new("fourchess");
    let (_, b) = call(&mut g, "GET", "/api/variants", &[]);
    for v in tetrarch_core::registry::variants() {
        let at = b.find(&format!("{{\"name\":\"{v}\",")).expect(v);
        let rest = &b[at..];
        let levels = &rest[rest.find("\"levels\":[").expect("levels")..];
        assert!(levels.starts_with("\"levels\":[{\"name\":\"Beginner\",\"level\":0"), "{v}: {levels}");
        let has_elo = levels[..levels.find(']').unwrap()].contains("\"elo\":");
        assert_eq!(has_elo, crate::levels::table(v).is_some(), "{v}");
    }
}

#[test]
fn setup_proposals_and_variants() {
    let mut g = Gui::new("fourchess");
    let (s, b) = call(&mut g, "GET", "/api/variants", &[]);
    assert_eq!(s, 200);
    assert!(b.contains("{\"name\":\"quattuor\",\"seats\":2,\"setup\":true,\"board\":true"), "{b}");
    let (s, b) = call(&mut g, "GET", "/api/setup", &[("variant", "quattuor"), ("seat", "2")]);
    assert_eq!(s, 200, "{b}");
    assert!(b.starts_with("{\"token\":\"c7@"), "{b}");
    assert_eq!(call(&mut g, "GET", "/api/setup", &[("variant", "fourchess")]).0, 400);
    assert_eq!(call(&mut g, "GET", "/api/setup", &[("variant", "quattuor"), ("seat", "3")]).0, 400);
    assert_eq!(call(&mut g, "GET", "/api/setup", &[("variant", "nope")]).0, 400);
    let (s, b) = call(&mut g, "GET", "/api/board", &[]);
    assert_eq!(s, 200);
    assert!(b.starts_with("{\"width\":14,") && b.ends_with('}'), "{b}");
}

#[test]
fn url_decoding() {
    assert_eq!(url_decode("a%2Cb+c%40"), "a,b c@");
    assert_eq!(url_decode("%zz%4"), "%zz%4");
}

#[test]
fn query_board_in_the_protocol() {
    for v in Variant::all() {
        if !Facts::of(v).board {
            let out = crate::run_script(&format!("setoption name UCI_Variant value {v}\nquery board"));
            assert!(out[0].contains("has no board description"), "{v}: {out:?}");
            continue;
        }
        let out = crate::run_script(&format!("setoption name UCI_Variant value {v}\nquery board\nquery boardx"));
        assert!(out[0].starts_with("response {\"width\":") && out[0].ends_with("]}"), "{v}: {}", out[0]);
        assert!(out[0].contains("\"to_move\":1,\"turn_start\":true,\"result\":null"), "{v}");
        assert_eq!(out[1], "info string error: query: unknown query `boardx`");
    }
}

/// The string values of `"key":"…"` in `body`, in order.
fn strings_of(body: &str, key: &str) -> Vec<String> {
    let pat = format!("\"{key}\":\"");
    body.split(&pat).skip(1).map(|s| s[..s.find('"').unwrap()].to_string()).collect()
}

/// The strings of the last array `"key":[…]` (no escapes inside).
fn list_of(body: &str, key: &str) -> Vec<String> {
    let pat = format!("\"{key}\":[");
    let Some(i) = body.rfind(&pat) else { return vec![] };
    let rest = &body[i + pat.len()..];
    let inner = &rest[..rest.find(']').unwrap()];
    inner.split(',').filter(|s| !s.is_empty()).map(|s| s.trim_matches('"').to_string()).collect()
}

#[test]
fn setup_by_placing_pieces() {
    let mut g = Gui::new("quattuor");
    // What Red places, and where: its 16 pieces and its 99 cells (ranks 1-6).
    let (s, b) = call(&mut g, "GET", "/api/setup/place", &[("variant", "quattuor"), ("seat", "1")]);
    assert_eq!(s, 200, "{b}");
    assert!(b.contains("\"mode\":\"place\""), "{b}");
    let kinds = strings_of(&b, "kind");
    assert_eq!(kinds.len(), 16, "{b}");
    assert_eq!(kinds[0], "d7");
    assert_eq!(kinds[15], "hA");
    let cells = list_of(&b, "cells");
    assert_eq!(cells.len(), 99, "{cells:?}");
    assert!(cells.contains(&"a1".to_string()) && cells.contains(&"p6".to_string()));
    assert!(!cells.iter().any(|c| c.ends_with('7') || c.ends_with("10")), "{cells:?}");
    // The board to place on is empty.
    assert!(!b[b.find("\"board\":").unwrap()..b.find("\"pieces\":").unwrap()].contains("\"kind\""), "{b}");
    // Black's cells are ranks 10-15.
    let (s, b2) = call(&mut g, "GET", "/api/setup/place", &[("variant", "quattuor"), ("seat", "2")]);
    assert_eq!(s, 200, "{b2}");
    let black = list_of(&b2, "cells");
    assert_eq!(black.len(), 99);
    assert!(black.contains(&"q15".to_string()) && !black.contains(&"a1".to_string()));

    // The person's placement: the pieces in the order given on the first
    // 16 cells. The server checks it and echoes it back.
    let token: Vec<String> = kinds.iter().zip(&cells).map(|(k, c)| format!("{k}@{c}")).collect();
    let token = token.join(",");
    let (s, b) = call(&mut g, "GET", "/api/setup/place", &[("variant", "quattuor"), ("seat", "1"), ("token", &token)]);
    assert_eq!(s, 200, "{b}");
    assert_eq!(strings_of(&b, "cell"), cells[..16].to_vec());
    // Bad placements: a cell outside the territory, a cell used twice, the
    // wrong order, too few pieces: a clear error, nothing changes.
    let outside = token.replacen(&format!("@{}", cells[0]), "@a8", 1);
    let twice = token.replacen(&format!("@{}", cells[1]), &format!("@{}", cells[0]), 1);
    let order = {
        let mut e: Vec<&str> = token.split(',').collect();
        e.swap(0, 1);
        e.join(",")
    };
    let short = token.split(',').take(15).collect::<Vec<_>>().join(",");
    for bad in [&outside, &twice, &order, &short, &"d7@a1 x".to_string()] {
        match setup_place(Variant::from_name("quattuor").unwrap(), &[], 0, Some(bad), 1) {
            Err(GuiError::PlaceTokenSpaces) => assert!(bad.contains(' ')),
            Err(GuiError::Game(GameError::InvalidSetup(_))) => assert!(!bad.contains(' ')),
            other => panic!("{bad}: {other:?}"),
        }
        let (s, b) = call(&mut g, "GET", "/api/setup/place", &[("variant", "quattuor"), ("seat", "1"), ("token", bad)]);
        assert_eq!(s, 400, "{bad}: {b}");
        assert!(b.contains("set-up"), "{b}");
        let v = g.version;
        let (s, b) = call(
            &mut g,
            "POST",
            "/api/new",
            &[("variant", "quattuor"), ("players", "human,human"), ("start", "setup"), ("setup1", bad)],
        );
        assert_eq!(s, 400, "{bad}: {b}");
        assert_eq!((g.start.clone(), g.version), (Start::Startpos, v));
    }
    // The game starts from the placement; Black's set-up by the engine.
    let (s, b) = call(
        &mut g,
        "POST",
        "/api/new",
        &[("variant", "quattuor"), ("players", "human,human"), ("start", "setup"), ("setup1", &token)],
    );
    assert_eq!(s, 200, "{b}");
    assert!(matches!(&g.start, Start::Setup(t) if t[0] == token), "{:?}", g.start);
    // Quadranj's burglar: pick one of the seat's pilots (cell:level).
    let (s, b) = call(&mut g, "GET", "/api/setup/place", &[("variant", "quadranj"), ("seat", "1")]);
    assert_eq!(s, 200, "{b}");
    assert!(b.contains("\"mode\":\"pick\""), "{b}");
    let choices = strings_of(&b, "token")[1..].to_vec();
    assert!(choices.contains(&"b3:1".to_string()) && choices.contains(&"b3:2".to_string()), "{choices:?}");
    assert_eq!(choices.len(), 8, "{choices:?}");
    assert!(!choices.contains(&"a1:1".to_string()), "the royal is no pilot");
    let (s, b) = call(
        &mut g,
        "POST",
        "/api/new",
        &[("variant", "quadranj"), ("players", "human,human"), ("start", "setup"), ("setup1", "b3:2")],
    );
    assert_eq!(s, 200, "{b}");
    let (s, b) = call(&mut g, "GET", "/api/setup/place", &[("variant", "quadranj"), ("seat", "1"), ("token", "a1:1")]);
    assert_eq!(s, 400, "{b}");
    // No set-up, no such seat.
    assert_eq!(call(&mut g, "GET", "/api/setup/place", &[("variant", "fourchess")]).0, 400);
    assert_eq!(call(&mut g, "GET", "/api/setup/place", &[("variant", "quattuor"), ("seat", "3")]).0, 400);
    assert_eq!(call(&mut g, "GET", "/api/setup/place", &[("variant", "quattuor"), ("seat", "x")]).0, 400);
}

/// A Quadranj position where Red's royal on d5 can charge the Blue column
/// on h5 only if the charged unit lands before the target (the square
/// beyond is off the board).
const CHARGE: &str = "bK7/8/8/3rK3bB/8/rG7/8/7X r 1 a3 rb 0/0 -/? 1 1";

#[test]
fn rule_options_apply_to_the_referee_and_the_engine() {
    let mut g = Gui::new("quadranj");
    let (_, v) = call(&mut g, "GET", "/api/variants", &[]);
    assert!(
        v.contains("{\"name\":\"QJ_ChargeLanding\",\"type\":\"combo\",\"default\":\"beyond\",\"vars\":[\"beyond\",\"before\"],\"engine\":false}"),
        "{v}"
    );
    assert!(v.contains("{\"name\":\"FC_LeapOwnPawns\",\"type\":\"check\",\"default\":\"false\",\"engine\":false}"), "{v}");
    // Strategy for the free-for-all variants only; teamchess's Notation (a
    // dialect, not a rule) is not offered.
    let q4 = &v[v.find("{\"name\":\"quadranj4\"").unwrap()..];
    assert!(q4[..q4.find("]}").unwrap() + 2].contains("\"name\":\"Strategy\""), "{q4}");
    let qk = &v[v.find("{\"name\":\"queenskings-teams\"").unwrap()..];
    assert!(!qk[..qk.find("]}").unwrap()].contains("Strategy"), "{qk}");
    assert!(!v.contains("\"Notation\""), "{v}");

    let new = |g: &mut Gui, landing: Option<&str>| {
        let mut p = vec![("variant", "quadranj"), ("players", "human,human"), ("start", "fen"), ("fen", CHARGE)];
        if let Some(l) = landing {
            p.push(("option.QJ_ChargeLanding", l));
        }
        call(g, "POST", "/api/new", &p)
    };
    let (s, b) = new(&mut g, None);
    assert_eq!(s, 200, "{b}");
    let (_, a) = call(&mut g, "GET", "/api/actions", &[]);
    assert!(!a.contains("d5@h5"), "{a}");
    assert_eq!(call(&mut g, "POST", "/api/play", &[("turn", "d5@h5")]).0, 400);
    let (s, b) = new(&mut g, Some("before"));
    assert_eq!(s, 200, "{b}");
    assert!(b.contains("\"options\":{\"QJ_ChargeLanding\":\"before\"}"), "{b}");
    let (_, a) = call(&mut g, "GET", "/api/actions", &[]);
    assert!(a.contains("\"token\":\"d5@h5\""), "{a}");
    // The engine plays under the same options.
    g.position_for(Some(0)).unwrap();
    g.engine.handle_line("moves");
    let moves = g.cap.take_lines().join("\n");
    assert!(moves.contains("d5@h5"), "{moves}");
    let (s, b) = call(&mut g, "POST", "/api/play", &[("turn", "d5@h5")]);
    assert_eq!(s, 200, "{b}");
    assert!(g.record_jsonl().contains("\"options\":{\"QJ_ChargeLanding\":\"before\"}"));
    // A new game with the defaults resets the engine's option too.
    new(&mut g, None);
    g.position_for(Some(0)).unwrap();
    g.engine.handle_line("moves");
    assert!(!g.cap.take_lines().join("\n").contains("d5@h5"));

    // Bad options: a clear error, nothing changes.
    let v0 = g.version;
    let unknown = |e: &GuiError, o: &str| matches!(e, GuiError::UnknownOption { name, .. } if name == o);
    let not_listed = |e: &GuiError, o: &str| match e {
        GuiError::Value(ValueError::NotListed { name, .. }) => name == o,
        GuiError::Game(GameError::Value(ValueError::NotListed { name, .. })) => name == o,
        _ => false,
    };
    type Why<'a> = &'a dyn Fn(&GuiError) -> bool;
    let checks: [(Vec<(&str, &str)>, Why); 6] = [
        (vec![("variant", "quadranj"), ("option.QJ_ChargeLanding", "sideways")], &|e| not_listed(e, "QJ_ChargeLanding")),
        (vec![("variant", "quadranj"), ("option.QJ_Nope", "1")], &|e| unknown(e, "QJ_Nope")),
        (vec![("variant", "quadranj"), ("option.Strategy", "brs")], &|e| matches!(e, GuiError::NotFreeForAll { .. })),
        (vec![("variant", "quadranj4"), ("option.Strategy", "best")], &|e| not_listed(e, "Strategy")),
        (vec![("variant", "teamchess"), ("option.Notation", "fen4")], &|e| unknown(e, "Notation")),
        (vec![("variant", "fourchess"), ("option.FC_NoProgressPlies", "-3")], &|e| {
            matches!(e, GuiError::Game(GameError::Value(ValueError::OutOfRange { min: 0, max: 10000, .. })))
        }),
    ];
    for (p, why) in checks {
        let r = req("POST", "/api/new", &p);
        let variant = Variant::from_name(p[0].1).unwrap();
        let e = parse_options(&r, variant, &Facts::of(variant)).unwrap_err();
        assert!(why(&e), "{p:?}: {e:?}");
        let (s, b) = call(&mut g, "POST", "/api/new", &p);
        assert_eq!(s, 400, "{p:?}: {b}");
        assert!(b.contains("option"), "{b}");
    }
    assert_eq!((g.variant.name(), g.version), ("quadranj", v0));
    // Strategy goes to the engine of a free-for-all game.
    let (s, b) = call(
        &mut g,
        "POST",
        "/api/new",
        &[("variant", "quadranj4"), ("players", "human,human,human,human"), ("option.Strategy", "MAXN")],
    );
    assert_eq!(s, 200, "{b}");
    assert!(b.contains("\"options\":{\"Strategy\":\"maxn\"}"), "{b}");
    g.position_for(None).unwrap();
    assert_eq!(g.engine.settings().strategy, Some("maxn"));
    // Without the option, the variant's own default (brs in quadranj4).
    let (s, b) = call(&mut g, "POST", "/api/new", &[("variant", "quadranj4"), ("players", "human,human,human,human")]);
    assert_eq!(s, 200, "{b}");
    g.position_for(None).unwrap();
    assert_eq!(g.engine.settings().strategy, Some("brs"));
}

#[test]
fn clocks_run_out() {
    let mut g = Gui::new("quattuor");
    // Bad clocks: nothing changes.
    for (bad, range) in [("abc", false), ("-1+0", false), ("0.0001", true), ("5+x", false), ("2000", true)] {
        match Clock::parse(bad) {
            Err(GuiError::ClockRange(c)) if range => assert_eq!(c, bad),
            Err(GuiError::BadClock(c)) if !range => assert_eq!(c, bad),
            other => panic!("{bad}: {other:?}"),
        }
        let (s, b) = call(&mut g, "POST", "/api/new", &[("variant", "quattuor"), ("clock", bad)]);
        assert_eq!(s, 400, "{bad}: {b}");
        assert!(b.contains("clock"), "{b}");
    }
    assert!(g.clock.is_none());
    // 1.2 s for each seat, 0.2 s a turn.
    let (s, b) = call(&mut g, "POST", "/api/new", &[("variant", "quattuor"), ("players", "human,human"), ("clock", "0.02+0.2")]);
    assert_eq!(s, 200, "{b}");
    assert!(b.contains("\"clock\":{\"base_ms\":1200,\"inc_ms\":200,\"left\":["), "{b}");
    assert!(b.contains("\"running\":1,\"flagged\":null}"), "{b}");
    let (_, a) = call(&mut g, "GET", "/api/actions", &[]);
    let first = strings_of(&a, "token")[0].clone();
    let (s, b) = call(&mut g, "POST", "/api/play", &[("turn", &first)]);
    assert_eq!(s, 200, "{b}");
    assert!(g.remaining[0] > 200 && g.remaining[0] <= 1400, "{:?}", g.remaining);
    assert!(b.contains("\"running\":2"), "{b}");
    // Black does not move: its clock runs out and the game ends.
    std::thread::sleep(Duration::from_millis(1300));
    let (_, b) = call(&mut g, "GET", "/api/state", &[]);
    assert!(b.contains("\"over\":true,\"result\":\"win 1 time\""), "{b}");
    assert!(b.contains("\"running\":null,\"flagged\":2}"), "{b}");
    assert!(b.contains("Black lost on time"), "{b}");
    let (s, b) = call(&mut g, "POST", "/api/play", &[("turn", "0000")]);
    assert_eq!(s, 400, "{b}");
    assert_eq!(call(&mut g, "GET", "/api/actions", &[]).0, 400);
    assert_eq!(g.turns().len(), 1);
    let rec = g.record_jsonl();
    assert!(rec.contains("\"result\":\"win 1\",\"reason\":\"time\",\"decided\":\"forfeit\",\"culprit\":2"), "{rec}");
    assert!(rec.contains("\"clock\":\"0.02+0.2\""), "{rec}");
    // The clock does not run on while the state is read again.
    let left = g.clock_left(0);
    std::thread::sleep(Duration::from_millis(30));
    assert_eq!(g.clock_left(0), left);
    // Undo takes the turn back with the clocks as they were.
    let (s, b) = call(&mut g, "POST", "/api/undo", &[]);
    assert_eq!(s, 200, "{b}");
    assert!(b.contains("\"over\":false") && b.contains("\"flagged\":null"), "{b}");
    assert_eq!(g.remaining, vec![1200, 1200]);

    // Four seats in two teams: Red (p1) runs out, Blue and Green win.
    let (s, b) = call(&mut g, "POST", "/api/new", &[("variant", "fourchess"), ("players", &humans(4)), ("clock", "0.002")]);
    assert_eq!(s, 200, "{b}");
    std::thread::sleep(Duration::from_millis(200));
    let (_, b) = call(&mut g, "GET", "/api/state", &[]);
    assert!(b.contains("\"result\":\"win 2 4 time\""), "{b}");

    // Engine seats get their clocks instead of a movetime.
    let (s, b) = call(
        &mut g,
        "POST",
        "/api/new",
        &[("variant", "queenskings9-duel"), ("players", "engine:20,engine:20"), ("clock", "0.1+0.1")],
    );
    assert_eq!(s, 200, "{b}");
    let t = Instant::now();
    while g.turns().len() < 2 {
        assert!(t.elapsed() < Duration::from_secs(20), "no engine turns: {}", g.state_json());
        std::thread::sleep(Duration::from_millis(20));
        g.tick();
    }
    let gos: Vec<&String> = g.log.iter().filter(|l| l.starts_with("> go")).collect();
    let w: Vec<&str> = gos[0].split(' ').collect();
    let wtime: i64 = w[3].parse().unwrap();
    assert!(w[2] == "wtime" && (4000..=6000).contains(&wtime), "{gos:?}");
    assert!(gos[0].ends_with(" btime 6000 winc 100 binc 100"), "{gos:?}");
    assert!(gos[1].starts_with("> go wtime ") && !gos.iter().any(|l| l.contains("movetime")), "{gos:?}");
    assert!(g.remaining[0] < 6100 && g.remaining[0] > 0, "{:?}", g.remaining);
    assert!(g.time_loss.is_none());
    // Four seats: p1time … p4time.
    let (s, _) = call(
        &mut g,
        "POST",
        "/api/new",
        &[("variant", "fourchess"), ("players", "engine:20,human,human,human"), ("clock", "0.1+0")],
    );
    assert_eq!(s, 200);
    let go = g.log.iter().rev().find(|l| l.starts_with("> go")).unwrap().clone();
    assert!(go.starts_with("> go p1time ") && go.contains(" p4time ") && go.ends_with(" p4inc 0"), "{go}");
    call(&mut g, "POST", "/api/pause", &[("paused", "true")]);
}

fn with_headers(method: &str, path: &str, params: &[(&str, &str)], headers: &[(&str, &str)]) -> Request {
    let mut r = req(method, path, params);
    r.headers = headers.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    r
}

#[test]
fn host_and_origin_checks() {
    let gui = Mutex::new(Gui::new("fourchess"));
    let port = 4321;
    call(&mut lock(&gui), "POST", "/api/new", &[("variant", "fourchess"), ("players", &humans(4))]);
    let v0 = lock(&gui).version;
    // Requests addressed to another host name (DNS rebinding) or without a
    // Host header: 403 with a JSON error, nothing changes.
    for host in [None, Some("evil.example:4321"), Some("127.0.0.1:80"), Some("127.0.0.1"), Some("localhost.evil:4321")] {
        let h: Vec<(&str, &str)> = host.iter().map(|h| ("host", *h)).collect();
        let why = match host {
            None => http::Forbidden::NoHost,
            Some(h) => http::Forbidden::Host { host: h.into(), port },
        };
        for (m, path, params) in [
            ("GET", "/", vec![]),
            ("GET", "/api/state", vec![]),
            ("POST", "/api/play", vec![("turn", "e2e3")]),
            ("POST", "/api/new", vec![("variant", "quattuor")]),
        ] {
            let req = with_headers(m, path, &params, &h);
            assert_eq!(http::check_origin(&req, port), Err(why.clone()), "{host:?} {m} {path}");
            let r = route(&gui, &req, port, None);
            assert_eq!(r.status, 403, "{host:?} {m} {path}");
            let body = String::from_utf8(r.body).unwrap();
            assert!(body.starts_with("{\"error\":\"forbidden: "), "{body}");
        }
    }
    // Cross-origin POSTs: 403.
    for origin in ["http://evil.example", "null", "https://127.0.0.1:4321", "http://127.0.0.1:4322"] {
        let h = [("host", "127.0.0.1:4321"), ("origin", origin)];
        let req = with_headers("POST", "/api/play", &[("turn", "e2e3")], &h);
        assert_eq!(http::check_origin(&req, port), Err(http::Forbidden::CrossOrigin(origin.into())));
        let r = route(&gui, &req, port, None);
        assert_eq!(r.status, 403, "{origin}");
        assert!(String::from_utf8(r.body).unwrap().contains("cross-origin"));
    }
    assert_eq!(lock(&gui).version, v0);
    assert!(lock(&gui).turns().is_empty());
    // This server's names are fine, with or without a same-origin Origin.
    for host in ["127.0.0.1:4321", "localhost:4321", "LOCALHOST:4321", "[::1]:4321"] {
        let r = route(&gui, &with_headers("GET", "/api/state", &[], &[("host", host)]), port, None);
        assert_eq!(r.status, 200, "{host}");
    }
    let h = [("host", "localhost:4321"), ("origin", "http://localhost:4321")];
    let r = route(&gui, &with_headers("POST", "/api/play", &[("turn", "e2e3")], &h), port, None);
    assert_eq!(r.status, 200);
    let r = route(&gui, &with_headers("POST", "/api/undo", &[], &[("host", "127.0.0.1:4321")]), port, None);
    assert_eq!(r.status, 200);
    // A cross-origin GET with a good Host only reads.
    let h = [("host", "127.0.0.1:4321"), ("origin", "http://evil.example")];
    assert_eq!(route(&gui, &with_headers("GET", "/api/state", &[], &h), port, None).status, 200);
}

#[test]
fn host_check_over_a_socket() {
    use std::io::{Read, Write};
    let (listener, url) = bind(0).unwrap();
    let addr = url.trim_start_matches("http://").trim_end_matches('/').to_string();
    std::thread::spawn(move || serve(listener, "fourchess", None));
    let ask = |head: &str| {
        let mut s = std::net::TcpStream::connect(&addr).unwrap();
        s.write_all(head.as_bytes()).unwrap();
        let mut out = String::new();
        s.read_to_string(&mut out).unwrap();
        out
    };
    let ok = ask(&format!("GET /api/state HTTP/1.1\r\nHost: {addr}\r\n\r\n"));
    assert!(ok.starts_with("HTTP/1.1 200 OK"), "{ok}");
    let bad = ask("GET /api/state HTTP/1.1\r\nHost: rebind.example\r\n\r\n");
    assert!(bad.starts_with("HTTP/1.1 403 Forbidden") && bad.contains("{\"error\":\"forbidden: Host"), "{bad}");
    let body = "turn=e2e3";
    let cross = ask(&format!(
        "POST /api/play HTTP/1.1\r\nHost: {addr}\r\nOrigin: http://evil.example\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    ));
    assert!(cross.starts_with("HTTP/1.1 403"), "{cross}");
    let st = ask(&format!("GET /api/state HTTP/1.1\r\nHost: {addr}\r\n\r\n"));
    assert!(st.contains("\"turns\":[]"), "{st}");
}

/// Bytes `head` then `fill` for ever (up to `max`), counting what was read.
struct Endless {
    head: Vec<u8>,
    fill: u8,
    read: usize,
    max: usize,
}

impl std::io::Read for Endless {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = buf.len().min(self.max - self.read);
        for (i, b) in buf[..n].iter_mut().enumerate() {
            *b = self.head.get(self.read + i).copied().unwrap_or(self.fill);
        }
        self.read += n;
        Ok(n)
    }
}

/// Issue 26, defect 4: an endless header or request line grew the server
/// without bound (a 200 MB line: 228 MB). Lines and the head are limited
/// while they are read: 414 / 431, and no more than the limit is read.
#[test]
fn an_endless_line_or_head_is_cut_off_while_read() {
    use http::RequestError;
    let cases: [(&[u8], u8, Option<u16>); 3] = [
        (b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1:1\r\nX-Long: ", b'a', Some(431)),
        (b"GET /", b'a', Some(414)),
        (b"GET / HTTP/1.1\r\n", b'\n', None), // blank lines end the head: not endless
    ];
    for (head, fill, want) in cases {
        let mut r = Endless { head: head.to_vec(), fill, read: 0, max: 64 << 20 };
        let got = http::read_request(&mut r);
        let Some(want) = want else {
            assert!(got.is_ok(), "{got:?}");
            continue;
        };
        let e = got.expect_err("an endless line");
        let line = if want == 414 { RequestError::LongRequestLine } else { RequestError::LongHeaderLine };
        assert!(std::mem::discriminant(&e) == std::mem::discriminant(&line), "{e:?}");
        assert_eq!(e.status(), want);
        assert!(r.read <= http::MAX_HEAD + (64 << 10), "read {} bytes of an endless line", r.read);
    }
    // Many short header lines: the head is limited too.
    let mut r = Endless { head: b"GET / HTTP/1.1\r\n".to_vec(), fill: 0, read: 0, max: 64 << 20 };
    r.head.extend(std::iter::repeat_n(&b"X-A: b\r\n"[..], 20_000).flatten());
    let e = http::read_request(&mut r).expect_err("a huge head");
    assert!(matches!(e, RequestError::LongHead), "{e:?}");
    assert_eq!(e.status(), 431);
    assert!(r.read <= 2 * http::MAX_HEAD, "read {}", r.read);
}

/// Issue 25: the head is parsed by `httparse`. Framing the server cannot
/// read is refused rather than guessed: a chunked body (501), two different
/// `Content-Length`s (400), more header fields than [`http::MAX_HEADERS`]
/// (431), a request line without a version (400).
#[test]
fn framing_the_server_cannot_read_is_refused() {
    use http::RequestError;
    let read = |t: &str| http::read_request(&mut t.as_bytes()).map(|r| r.params);
    let refused = |t: &str| read(t).map_err(|e| (e.status(), e)).expect_err(t);
    let chunked = refused("POST /api/play HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n9\r\nturn=e2e3\r\n0\r\n\r\n");
    assert!(matches!(chunked, (501, RequestError::TransferEncoding)), "{chunked:?}");
    let two = refused("POST /api/play HTTP/1.1\r\nContent-Length: 9\r\nContent-Length: 3\r\n\r\nturn=e2e3");
    assert!(matches!(two, (400, RequestError::TwoContentLengths)), "{two:?}");
    let many: String = (0..=http::MAX_HEADERS).map(|i| format!("X-{i}: a\r\n")).collect();
    let many = refused(&format!("GET / HTTP/1.1\r\n{many}\r\n"));
    assert!(matches!(many, (431, RequestError::TooManyHeaders)), "{many:?}");
    let no_version = refused("GET /\r\n\r\n");
    assert!(matches!(no_version, (400, RequestError::Malformed(_))), "{no_version:?}");
    let ok = read("\r\nPOST /api/play?a=1 HTTP/1.1\r\nContent-Length: 9\r\nContent-Length: 9\r\n\r\nturn=e2e3");
    assert_eq!(ok.unwrap(), vec![("a".into(), "1".into()), ("turn".into(), "e2e3".into())]);
}

/// A socket to `addr` and the response to `text` (or what came before the
/// server closed).
fn exchange(addr: &str, text: &[u8]) -> String {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    s.write_all(text).unwrap();
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    String::from_utf8_lossy(&out).into_owned()
}

/// Issue 26, defect 5: the timeout was per read, so a client sending a byte
/// every few seconds held a thread for ever; and every connection had a
/// thread of its own. A whole request must now arrive in time (408), and a
/// fixed pool answers (a full queue: 503 at once).
#[test]
fn a_trickling_client_is_cut_off_and_workers_are_bounded() {
    use std::io::{Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    let limits = http::Limits {
        workers: 2,
        queue: 2,
        request_timeout: Duration::from_millis(800),
        write_timeout: Duration::from_millis(800),
    };
    std::thread::spawn(move || http::serve_with(listener, limits, |_| Response::json(200, "{}".into())));
    // A byte every 100 ms, for up to 6 s: cut off after about 0.8 s.
    let mut s = std::net::TcpStream::connect(&addr).unwrap();
    s.set_read_timeout(Some(Duration::from_millis(50))).unwrap();
    let t = Instant::now();
    let mut got = Vec::new();
    let head = b"GET /x HTTP/1.1\r\nX-Slow: ";
    let mut i = 0;
    while t.elapsed() < Duration::from_secs(6) {
        let b = head.get(i).copied().unwrap_or(b'a');
        i += 1;
        if s.write_all(&[b]).is_err() {
            break;
        }
        let mut buf = [0u8; 4096];
        match s.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => got.extend_from_slice(&buf[..n]),
            Err(_) => {}
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let got = String::from_utf8_lossy(&got);
    assert!(got.starts_with("HTTP/1.1 408"), "after {:?}: {got:?}", t.elapsed());
    assert!(t.elapsed() < Duration::from_secs(4), "{:?}", t.elapsed());
    // Idle connections take the two workers and fill the queue of two:
    // the next ones are turned away at once (no thread for each).
    let idle: Vec<_> = (0..6)
        .map(|_| {
            let c = std::net::TcpStream::connect(&addr).unwrap();
            std::thread::sleep(Duration::from_millis(30));
            c
        })
        .collect();
    std::thread::sleep(Duration::from_millis(100));
    let t1 = Instant::now();
    let busy = exchange(&addr, b"GET /x HTTP/1.1\r\n\r\n");
    assert!(busy.starts_with("HTTP/1.1 503"), "{busy:?}");
    assert!(t1.elapsed() < Duration::from_millis(500), "{:?}", t1.elapsed());
    drop(idle);
    // Once they are gone (closed, or timed out), requests are answered.
    std::thread::sleep(Duration::from_millis(1000));
    let ok = exchange(&addr, b"GET /x HTTP/1.1\r\n\r\n");
    assert!(ok.starts_with("HTTP/1.1 200"), "{ok:?}");
}

/// Issue 26, defect 9: `HEAD` returned a body; no response said that other
/// pages may not frame the GUI.
#[test]
fn head_has_no_body_and_framing_is_refused() {
    let (listener, url) = bind(0).unwrap();
    let addr = url.trim_start_matches("http://").trim_end_matches('/').to_string();
    std::thread::spawn(move || serve(listener, "fourchess", None));
    for path in ["/", "/api/state"] {
        let get = exchange(&addr, format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\n\r\n").as_bytes());
        let head = exchange(&addr, format!("HEAD {path} HTTP/1.1\r\nHost: {addr}\r\n\r\n").as_bytes());
        let (get_head, body) = get.split_once("\r\n\r\n").unwrap();
        assert!(get.starts_with("HTTP/1.1 200") && !body.is_empty(), "{get}");
        assert!(head.starts_with("HTTP/1.1 200") && head.ends_with("\r\n\r\n"), "{head:?}");
        let len = |h: &str| h.lines().find(|l| l.starts_with("Content-Length:")).map(str::to_owned);
        assert_eq!(len(&head), len(get_head));
        for h in [&head[..], get_head] {
            assert!(h.contains("\r\nX-Frame-Options: DENY\r\n"), "{h}");
            assert!(h.contains("\r\nContent-Security-Policy: frame-ancestors 'none'\r\n"), "{h}");
        }
    }
    // Methods the server does not know change nothing.
    let put = exchange(&addr, format!("PUT /api/new HTTP/1.1\r\nHost: {addr}\r\n\r\n").as_bytes());
    assert!(put.starts_with("HTTP/1.1 405"), "{put}");
}

/// Issue 26, defect 9: without a token any local user or program could
/// drive the GUI. With one, a request must carry it (`?token=`, the cookie
/// the page gets with it, or `Authorization: token …`); else 403.
#[test]
fn the_access_token_is_required() {
    let gui = Mutex::new(Gui::new("fourchess"));
    let port = 4321;
    let host = [("host", "127.0.0.1:4321")];
    let t = Some("0123abcd");
    let r = route(&gui, &with_headers("GET", "/", &[], &host), port, t);
    assert_eq!(r.status, 403);
    let r = route(&gui, &with_headers("GET", "/api/state", &[("token", "wrong")], &host), port, t);
    assert_eq!(r.status, 403);
    let r = route(&gui, &with_headers("POST", "/api/play", &[("turn", "e2e3")], &host), port, t);
    assert_eq!(r.status, 403);
    assert!(lock(&gui).turns().is_empty());
    // The printed address: the page, and a cookie for the page's requests.
    let r = route(&gui, &with_headers("GET", "/", &[("token", "0123abcd")], &host), port, t);
    assert_eq!(r.status, 200);
    let cookie = r.headers.iter().find(|(k, _)| k == "Set-Cookie").map(|(_, v)| v.clone()).unwrap();
    assert!(
        cookie.starts_with("tetrarch_token_4321=0123abcd;") && cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"),
        "{cookie}"
    );
    let h = [("host", "127.0.0.1:4321"), ("cookie", "other=1; tetrarch_token_4321=0123abcd")];
    let r = route(&gui, &with_headers("POST", "/api/play", &[("turn", "e2e3")], &h), port, t);
    assert_eq!(r.status, 200);
    let h = [("host", "127.0.0.1:4321"), ("authorization", "token 0123abcd")];
    assert_eq!(route(&gui, &with_headers("GET", "/api/state", &[], &h), port, t).status, 200);
    // A cookie of another port's server is not this one's.
    let h = [("host", "127.0.0.1:4321"), ("cookie", "tetrarch_token_4322=0123abcd")];
    assert_eq!(route(&gui, &with_headers("GET", "/api/state", &[], &h), port, t).status, 403);
    assert_eq!(new_token().len(), 32);
    assert_ne!(new_token(), new_token());
}

/// Issue 26, defect 9: every state change listed all legal actions under
/// the game's lock: a tall Quadranj stack has 5.2 million (a 434 MB peak).
/// The state now counts the search's actions (no chain of more than two
/// links); `/api/actions` lists outside the lock.
#[test]
fn a_tall_stack_does_not_list_millions_of_actions_on_a_state_change() {
    let mut g = Gui::new("quadranj");
    let moves = "d2b3d3b4c4+c2,a1b1 f5g5e6e7f7+g6,f8f7";
    let (s, b) = call(&mut g, "POST", "/api/new", &[("variant", "quadranj"), ("players", "human,human"), ("moves", moves)]);
    assert_eq!(s, 200, "{b}");
    let n: usize =
        b.split("\"legal_actions\":").nth(1).and_then(|r| r.split([',', '}']).next()).and_then(|v| v.parse().ok()).unwrap();
    assert!(n > 0 && n < game_queries::ACTIONS_LISTED, "legal_actions {n}");
}

/// The fuzz target's checks ([`fuzz_request`]) on requests built from
/// fragments of real ones: no panic, errors as JSON, and an error leaves
/// the game as it was.
mod requests {
    use super::fuzz_request;
    use proptest::prelude::*;

    const LINES: [&str; 8] = [
        "GET /api/state HTTP/1.1",
        "POST /api/play HTTP/1.1",
        "POST /api/new?variant=quadranj HTTP/1.1",
        "GET /api/actions?prefix=%zz,a1 HTTP/1.1",
        "POST /api/undo HTTP/1.1",
        "GET /api/setup/place?variant=quattuor&seat=9 HTTP/1.1",
        "POST /api/players HTTP/1.1",
        "BREW /../etc HTTP/1.1",
    ];
    const HEADERS: [&str; 6] = [
        "Host: 127.0.0.1:8080",
        "Host: evil.example",
        "Origin: http://evil.example",
        "Content-Type: application/x-www-form-urlencoded",
        "Content-Length: 12",
        "Content-Length: nope",
    ];
    const BODIES: [&str; 7] = [
        "turn=d7d8",
        "turn=%E2%82%AC,0000",
        "players=human,human&start=setup&setup1=junk",
        "start=fen&fen=17/16+r+-+-+1",
        "variant=nope",
        "clock=5%2B3&option.QJ_ChargeLanding=sideways",
        "",
    ];

    #[test]
    fn crafted() {
        assert_eq!(fuzz_request(b""), 400);
        assert_eq!(fuzz_request(b"GET /api/state HTTP/1.1\r\n\r\n"), 200);
        assert_eq!(fuzz_request(b"POST /api/play HTTP/1.1\r\nContent-Length: 9\r\n\r\nturn=zz99"), 400);
        assert_eq!(fuzz_request(b"POST /api/new HTTP/1.1\r\nContent-Length: 12\r\n\r\nvariant=nope"), 400);
        assert_eq!(fuzz_request(b"POST /api/play HTTP/1.1\r\nContent-Length: 99999999\r\n\r\n"), 413);
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 64, .. ProptestConfig::default() })]
        #[test]
        fn assembled(l in 0..LINES.len(), hs in proptest::collection::vec(0..HEADERS.len(), 0..4),
                     b in 0..BODIES.len(), junk in proptest::collection::vec(any::<u8>(), 0..16)) {
            let mut r = String::from(LINES[l]);
            r.push_str("\r\n");
            for h in hs {
                r.push_str(HEADERS[h]);
                r.push_str("\r\n");
            }
            r.push_str("\r\n");
            r.push_str(BODIES[b]);
            let mut bytes = r.into_bytes();
            bytes.extend_from_slice(&junk);
            fuzz_request(&bytes);
        }
    }
}

/// Issue 25: every variant `uci` announces in `UCI_Variant` is accepted by
/// every tool — `tetrarch match --variant`, `bench --variant`, `perft`, the
/// GUI and the fuzz targets' dispatch — and each of them lists exactly the
/// announced variants, in the same order: they all read the core registry.
/// (Here in the GUI's tests because its API is private to the module.)
#[test]
fn every_announced_variant_is_accepted_by_every_tool() {
    use crate::perft_bench::{bench, perft_cli, PerftArgs, PerftBenchError};
    use tetrarch_core::fuzzing::Target;
    let (out, cap) = Out::buffer();
    let mut e = Engine::new(out);
    e.handle_line("uci");
    let lines = cap.take_lines();
    let combo = lines.iter().find(|l| l.starts_with("option name UCI_Variant type combo ")).expect("UCI_Variant");
    let announced: Vec<&str> = combo.split(" var ").skip(1).collect();
    // The unit tests' toy game is announced too (only in this test build).
    let games = tetrarch_core::registry::variants();
    assert_eq!(announced.iter().filter(|v| **v != "toy").collect::<Vec<_>>(), games.iter().collect::<Vec<_>>());
    assert!(games.len() >= 11 && games[0] == crate::DEFAULT_VARIANT, "{games:?}");

    // The match runner: its list, and `--variant` as `run` checks it.
    assert_eq!(tetrarch_match::games::variants(), games);
    for &v in &games {
        let args: Vec<String> = ["--variant", v, "--engine", "cmd=a", "depth=1", "--engine", "cmd=b", "depth=1"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let cfg = tetrarch_match::parse_args(&args).unwrap().unwrap();
        assert_eq!(tetrarch_match::games::check_variant(&cfg.variant).map(|x| x.name()), Ok(v));
    }
    assert!(tetrarch_match::games::check_variant("toy").is_err());

    // `bench --variant` and `perft`.
    for &v in &games {
        let (out, cap) = Out::buffer();
        assert!(bench(Some(1), Some(v), &[], &out).is_ok_and(|n| n > 0), "bench {v}");
        assert!(cap.take_lines().iter().any(|l| l.starts_with(&format!("bench {v} startpos: depth 1 "))), "bench {v}");
        let (out, cap) = Out::buffer();
        let args = PerftArgs { variant: v.to_string(), depth: 1, ..PerftArgs::default() };
        assert!(matches!(perft_cli(&args, &out), Ok(())), "perft {v}");
        assert!(cap.take_lines().iter().any(|l| l.starts_with("Nodes searched: ")), "perft {v}");
    }
    let unknown = bench(Some(1), Some("chess"), &[], &Out::buffer().0);
    assert!(matches!(unknown, Err(PerftBenchError::UnknownVariant { name, known }) if name == "chess" && known == variants()));

    // The GUI: `/api/variants` lists the registry's variants (the toy game
    // that `uci` announces in this build is no game of the registry's, so
    // the page cannot play it), and a page starts in each.
    let mut g = Gui::new(crate::DEFAULT_VARIANT);
    let (s, b) = call(&mut g, "GET", "/api/variants", &[]);
    assert_eq!(s, 200, "{b}");
    let listed: Vec<&str> =
        b.split("{\"name\":\"").skip(1).filter_map(|s| s.split_once("\",\"seats\":").map(|(n, _)| n)).collect();
    assert_eq!(listed, games);
    for &v in &games {
        assert_eq!(Gui::new(v).variant.name(), v);
    }

    // The fuzz targets' dispatch runs every variant.
    for t in [Target::PositionString, Target::TurnToken, Target::SetupTokens] {
        assert_eq!(tetrarch_core::fuzzing::every_game(t, ""), games, "{t:?}");
    }
}

/// Ticks `g` until `done` holds (at most 30 s).
fn tick_until(g: &mut Gui, what: &str, mut done: impl FnMut(&Gui) -> bool) {
    let t = Instant::now();
    while !done(g) {
        assert!(t.elapsed() < Duration::from_secs(30), "timed out waiting for {what}: {:?}", g.log);
        std::thread::sleep(Duration::from_millis(10));
        g.tick();
    }
}

/// A hint is the engine's best turn for the person to move: shown in the
/// state, legal, and not played; refused where it makes no sense, with the
/// game unchanged.
#[test]
fn a_hint_shows_a_legal_turn_and_plays_nothing() {
    let mut g = Gui::new("queenskings9-duel");
    call(&mut g, "POST", "/api/new", &[("variant", "queenskings9-duel"), ("players", &humans(2))]);
    for bad in ["0", "99", "x", "20000"] {
        let before = g.state_json();
        let (s, b) = call(&mut g, "POST", "/api/hint", &[("ms", bad)]);
        assert_eq!(s, 400, "{bad}: {b}");
        assert_eq!(g.state_json(), before);
    }
    let (s, b) = call(&mut g, "POST", "/api/hint", &[("ms", "150")]);
    assert_eq!(s, 200, "{b}");
    tick_until(&mut g, "the hint", |g| g.state_json().contains("\"hint\":{\"seat\":1,"));
    assert!(g.turns().is_empty(), "a hint plays nothing: {:?}", g.turns());
    let hint = g.hint.clone().expect("a hint").turn;
    // It is a legal turn: the person can play it.
    assert_eq!(call(&mut g, "POST", "/api/play", &[("turn", &hint)]).0, 200);
    assert_eq!(g.turns(), vec![hint]);
    assert!(g.state_json().contains("\"hint\":null"), "an old hint is not shown");
    // Not on an engine seat's turn.
    call(&mut g, "POST", "/api/players", &[("players", "human,engine:50")]);
    call(&mut g, "POST", "/api/pause", &[("paused", "true")]);
    assert_eq!(call(&mut g, "POST", "/api/hint", &[]).0, 409);
    assert_eq!(call(&mut g, "GET", "/api/hint", &[]).0, 405);
}

/// `/api/analyse?multipv=3`: three lines, best first, each with a score
/// and its own first turn; bad counts are refused and change nothing.
#[test]
fn analysis_shows_the_lines_asked_for() {
    let mut g = Gui::new("teamchess");
    call(&mut g, "POST", "/api/new", &[("variant", "teamchess"), ("players", &humans(4))]);
    for bad in ["0", "6", "x", ""] {
        let before = g.state_json();
        assert_eq!(call(&mut g, "POST", "/api/analyse", &[("multipv", bad)]).0, 400, "{bad}");
        assert_eq!(g.state_json(), before);
    }
    assert_eq!(call(&mut g, "POST", "/api/analyse", &[("multipv", "3")]).0, 200);
    tick_until(&mut g, "three lines at depth 3", |g| {
        g.lines.len() == 3 && g.lines.iter().all(|l| l.depth.parse::<u32>().unwrap_or(0) >= 3)
    });
    call(&mut g, "POST", "/api/stop", &[]);
    let firsts: std::collections::HashSet<&str> = g.lines.iter().map(|l| l.pv.split(' ').next().unwrap_or("")).collect();
    assert_eq!(firsts.len(), 3, "{:?}", g.lines);
    assert!(g.lines.iter().all(|l| l.cp().is_some()), "{:?}", g.lines);
    assert!(g.lines[0].cp() >= g.lines[2].cp(), "best first: {:?}", g.lines);
    let st = g.state_json();
    assert!(st.contains("\"lines\":[{\"multipv\":1,"), "{st}");
    assert!(st.contains("\"view\":1"), "Red's view: {st}");
    // A seat's search goes back to one line.
    call(&mut g, "POST", "/api/players", &[("players", "human,engine:30,human,human")]);
    call(&mut g, "POST", "/api/pause", &[("paused", "false")]);
    call(&mut g, "POST", "/api/play", &[("turn", "h2h3")]);
    tick_until(&mut g, "Blue's reply", |g| g.turns().len() == 2);
    assert_eq!(g.engine.settings().multipv, 1);
}

/// Browsing: `/api/at` is the position a game with only the first k turns
/// has (asked of a new game, another path); `/api/cells` draws a line;
/// `/api/branch` cuts the game there, its clocks as they were; bad turns
/// are refused and change nothing.
#[test]
fn browse_draw_a_line_and_branch() {
    let moves = ["e2e3", "b7c7", "g13g12", "m8l8", "h2h3"];
    let mut g = Gui::new("teamchess");
    let (s, b) = call(
        &mut g,
        "POST",
        "/api/new",
        &[("variant", "teamchess"), ("players", &humans(4)), ("moves", &moves.join(" ")), ("clock", "5+0")],
    );
    assert_eq!(s, 200, "{b}");
    let position_of = |body: &str| body.split("\"position\":\"").nth(1).and_then(|s| s.split('"').next()).unwrap().to_string();
    for k in 0..=moves.len() {
        let (s, at) = call(&mut g, "GET", "/api/at", &[("turn", &k.to_string())]);
        assert_eq!(s, 200, "{at}");
        assert!(at.starts_with(&format!("{{\"turn\":{k},")), "{at}");
        let mut other = Gui::new("teamchess");
        let (_, fresh) = call(
            &mut other,
            "POST",
            "/api/new",
            &[("variant", "teamchess"), ("players", &humans(4)), ("moves", &moves[..k].join(" "))],
        );
        assert_eq!(position_of(&at), position_of(&fresh), "after {k} turns");
    }
    let (v0, t0) = (g.version, g.turns().to_vec());
    for bad in ["6", "-1", "x"] {
        assert_eq!(call(&mut g, "GET", "/api/at", &[("turn", bad)]).0, 400, "{bad}");
        assert_eq!(call(&mut g, "POST", "/api/branch", &[("turn", bad)]).0, 400, "{bad}");
    }
    assert_eq!(call(&mut g, "POST", "/api/branch", &[("turn", "5")]).0, 400, "nothing to drop");
    assert_eq!(call(&mut g, "GET", "/api/cells", &[("line", "zz9 b7c7")]).0, 400);
    assert_eq!(call(&mut g, "GET", "/api/cells", &[]).0, 400);
    assert_eq!((g.version, g.turns()), (v0, &t0[..]), "refused requests change nothing");
    // The line from the position after 4 turns: Red's h2h3 then Blue's.
    let (s, cells) = call(&mut g, "GET", "/api/cells", &[("turn", "4"), ("line", "h2h3 a8d5 i13i12")]);
    assert_eq!(s, 200, "{cells}");
    assert!(
        cells.starts_with(
            "{\"turns\":[{\"token\":\"h2h3\",\"seat\":1,\"actions\":[[\"h2\",\"h3\"]]},{\"token\":\"a8d5\",\"seat\":2,"
        ),
        "{cells}"
    );
    // A line that runs into an illegal turn stops there.
    let (_, cut) = call(&mut g, "GET", "/api/cells", &[("turn", "4"), ("line", "h2h3 zz9 e1e2")]);
    assert_eq!(cut.matches("\"token\"").count(), 1, "{cut}");
    // Branch: the game goes on from turn 2, the clocks as they were then.
    let hist = g.clock_hist.clone();
    let (s, b) = call(&mut g, "POST", "/api/branch", &[("turn", "2")]);
    assert_eq!(s, 200, "{b}");
    assert_eq!(g.turns(), moves[..2].to_vec());
    assert_eq!((g.evals.len(), g.scores.len(), g.times_ms.len()), (2, 2, 2));
    assert_eq!(g.remaining, hist[2]);
    assert!(g.message.contains("new line from turn 2: 3 later turns dropped"), "{}", g.message);
}

/// The score graph: every turn gets a point, from the view of the seat
/// to move after it (a person's turns by the quick searches) or of the
/// engine seat that played it (its own search).
#[test]
fn the_score_graph_scores_every_turn() {
    let mut g = Gui::new("teamchess");
    g.scorer.on = true;
    call(&mut g, "POST", "/api/new", &[("variant", "teamchess"), ("players", &humans(4)), ("moves", "e2e3 b7c7 g13g12")]);
    tick_until(&mut g, "three points", |g| g.evals.iter().all(|e| matches!(e, Eval::Known(_))));
    let seats: Vec<usize> = g.evals.iter().map(|e| if let Eval::Known(p) = e { p.seat } else { 0 }).collect();
    assert_eq!(seats, vec![2, 3, 4], "the seat to move after each turn");
    call(&mut g, "POST", "/api/players", &[("players", "human,human,human,engine:50")]);
    tick_until(&mut g, "Green's turn", |g| g.turns().len() == 4);
    assert!(matches!(&g.evals[3], Eval::Known(p) if p.seat == 4), "Green's own search: {:?}", g.evals[3]);
    assert!(g.state_json().contains("\"evals\":[{\"seat\":2,"), "{}", g.state_json());
    assert_eq!(call(&mut g, "POST", "/api/undo", &[]).0, 200);
    assert_eq!(g.evals.len(), g.turns().len());
}

/// Every variant's Rules button has a page to show.
#[test]
fn every_variant_has_a_rules_page() {
    let mut g = Gui::new("fourchess");
    for v in variants().into_iter().filter(|v| *v != "toy") {
        let (s, text) = call(&mut g, "GET", "/api/rules", &[("variant", v)]);
        assert_eq!(s, 200, "{v}");
        assert!(text.starts_with("# ") && text.len() > 1000, "{v}: {}", &text[..80.min(text.len())]);
    }
    assert_eq!(call(&mut g, "GET", "/api/rules", &[("variant", "nochess")]).0, 400);
}

/// The cells of a board description (JSON) whose `marks` hold `kind`, with
/// the mark's seat.
fn marked_cells(board: &serde_json::Value, kind: &str) -> Vec<(String, u64)> {
    let mut out = Vec::new();
    for c in board["cells"].as_array().unwrap() {
        for m in c.get("marks").and_then(|m| m.as_array()).into_iter().flatten() {
            if m["kind"] == kind {
                out.push((c["name"].as_str().unwrap().to_string(), m["seat"].as_u64().unwrap()));
            }
        }
    }
    out
}

/// The cells of a board description with a piece that acted this turn.
fn acted_cells(board: &serde_json::Value) -> Vec<String> {
    let cells = board["cells"].as_array().unwrap();
    let acted = |c: &&serde_json::Value| c["pieces"].as_array().unwrap().iter().any(|p| p.get("acted").is_some());
    cells.iter().filter(acted).map(|c| c["name"].as_str().unwrap().to_string()).collect()
}

/// Issue 42 item 6: the state's board carries Quadranj's pending capture
/// on the enclosed cell (Red captures at the end of its turn), the actions
/// answer during a turn carries the board after its first action with the
/// moved piece marked, and the reason why that piece has no action; the
/// protocol's `query board` carries the same marks.
#[test]
fn board_cues_in_the_state_and_actions() {
    let mut g = Gui::new("quadranj");
    let fen = "bK7/8/8/8/1rG1rG4/2bB5/7rG/rK7 b 0 - rb 0/0 ?/? 0 5";
    let (s, b) =
        call(&mut g, "POST", "/api/new", &[("variant", "quadranj"), ("players", "human,human"), ("start", "fen"), ("fen", fen)]);
    assert_eq!(s, 200, "{b}");
    let st: serde_json::Value = serde_json::from_str(&b).unwrap();
    assert_eq!(marked_cells(&st["board"], "pending-capture"), vec![]);
    // Blue steps between Red's guards.
    let (s, b) = call(&mut g, "POST", "/api/play", &[("turn", "c3c4,a8a7")]);
    assert_eq!(s, 200, "{b}");
    let (_, b) = call(&mut g, "GET", "/api/state", &[]);
    let st: serde_json::Value = serde_json::from_str(&b).unwrap();
    assert_eq!(marked_cells(&st["board"], "pending-capture"), vec![("c4".to_string(), 1)]);
    let c4 = st["board"]["cells"].as_array().unwrap().iter().find(|c| c["name"] == "c4").unwrap();
    assert!(c4["marks"][0]["text"].as_str().unwrap().contains("Red"), "{c4}");
    assert_eq!(acted_cells(&st["board"]), Vec::<String>::new());
    // Red's first action: the royal on b1 is pale, and says why it is idle.
    let (s, a) = call(&mut g, "GET", "/api/actions", &[("prefix", "a1b1")]);
    assert_eq!(s, 200, "{a}");
    let acts: serde_json::Value = serde_json::from_str(&a).unwrap();
    assert_eq!(acted_cells(&acts["board"]), ["b1"]);
    let idle = acts["idle"].as_array().unwrap();
    let b1 = idle.iter().find(|x| x["cell"] == "b1").unwrap_or_else(|| panic!("no reason for b1: {idle:?}"));
    assert!(b1["reason"].as_str().unwrap().contains("moved this turn"), "{b1}");
    // Cells where an action starts get no reason.
    let starts: Vec<&str> = acts["actions"].as_array().unwrap().iter().filter_map(|x| x["cells"][0].as_str()).collect();
    assert!(starts.contains(&"h2") && !idle.iter().any(|x| x["cell"] == "h2"), "{idle:?}");
    // The protocol answers the same marks.
    let out =
        crate::run_script(&format!("setoption name UCI_Variant value quadranj\nposition fen {fen} moves c3c4,a8a7\nquery board"));
    let line = out.iter().find(|l| l.starts_with("response ")).unwrap();
    let board: serde_json::Value = serde_json::from_str(&line["response ".len()..]).unwrap();
    assert_eq!(marked_cells(&board, "pending-capture"), vec![("c4".to_string(), 1)]);
}
