//! The GUI's API without a browser or a socket: requests straight into
//! [`Gui::handle`].

use super::http::{url_decode, Request};
use super::*;

fn req(method: &str, path: &str, params: &[(&str, &str)]) -> Request {
    Request {
        method: method.into(),
        path: path.into(),
        params: params.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
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
    assert_eq!(g.turns, ["e2e3"]);
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
    assert_eq!((g.variant, g.turns.clone()), ("fourchess", vec!["e2e3".to_string()]));
    let (s, _) = call(&mut g, "POST", "/api/undo", &[]);
    assert_eq!(s, 200);
    assert!(g.turns.is_empty());
    let (s, _) = call(&mut g, "POST", "/api/undo", &[]);
    assert_eq!(s, 400);
    // Methods and paths.
    assert_eq!(call(&mut g, "GET", "/api/play", &[]).0, 405);
    assert_eq!(call(&mut g, "POST", "/api/state", &[]).0, 405);
    assert_eq!(call(&mut g, "GET", "/api/nothing", &[]).0, 404);
}

#[test]
fn multi_action_turns_set_up_and_records() {
    let mut g = Gui::new("quattuor");
    // A set-up: one token given, the other proposed by the engine.
    let red = with_variant("quattuor", Propose { seat: 0, seed: 5 }).flatten().unwrap();
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
    assert_eq!(g.turns.len(), 2);
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
    while g.turns.len() < 2 {
        assert!(t.elapsed() < Duration::from_secs(20), "no engine turns");
        std::thread::sleep(Duration::from_millis(20));
        g.tick();
    }
    assert!(g.state_json().contains("\"thinking\":"));
    // Pause stops the engines; analysis searches without playing.
    call(&mut g, "POST", "/api/pause", &[("paused", "true")]);
    let n = g.turns.len();
    let (s, b) = call(&mut g, "POST", "/api/analyse", &[]);
    assert_eq!(s, 200, "{b}");
    std::thread::sleep(Duration::from_millis(100));
    call(&mut g, "POST", "/api/stop", &[]);
    assert_eq!(g.turns.len(), n);
    assert!(g.search.is_none());
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
    for v in crate::variants() {
        if !with_variant(v, FactsOf).unwrap().board {
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
