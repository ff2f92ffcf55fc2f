//! [`fuzz_request`]: one request answered from a fresh game, for the fuzz
//! target `gui_request` and its property test.

use super::http::{self, Request};
use super::player::Player;
use super::state::Gui;
use crate::options::Settings;

/// For the fuzz target `gui_request` and its property test: reads `data` as
/// an HTTP request and, if it parses, answers it from a fresh game of
/// `quattuor` whose seats are all human (requests that would start an
/// engine search are not answered: they cost time by design; an engine seat
/// is `engine…` or `level:<k>`). Every other `/api/` path is answered,
/// `/api/import` included (its `text` is any bytes of the body). Panics if a
/// request answered with an error changed the game. Returns the status.
pub fn fuzz_request(data: &[u8]) -> u16 {
    let req = match http::read_request(&mut std::io::Cursor::new(data)) {
        Ok(r) => r,
        Err(e) => {
            let status = e.status();
            assert!(matches!(status, 400 | 408 | 413 | 414 | 431 | 501) && !e.to_string().is_empty());
            return status;
        }
    };
    let _ = http::check_origin(&req, 8080);
    let engine = req.path == "/api/analyse"
        || req.path == "/api/hint"
        || req.path == "/api/pause"
        || req.params.iter().any(|(k, v)| k == "players" && (v.contains("engine") || v.contains("level")));
    if engine || !req.path.starts_with("/api/") {
        return 0;
    }
    let mut g = Gui::with_settings("quattuor", Settings { hash_mb: 1, ..Settings::default() });
    g.players = vec![Player::Human; g.facts.seats];
    let state = |g: &mut Gui| g.handle(&Request { method: "GET".into(), path: "/api/state".into(), ..Request::default() });
    let before = state(&mut g).body;
    let r = g.handle(&req);
    assert!((200..600).contains(&r.status));
    if r.status >= 400 {
        assert!(r.body.starts_with(b"{\"error\":"), "{}", String::from_utf8_lossy(&r.body));
        assert_eq!(state(&mut g).body, before, "an error changed the game: {req:?}");
    }
    r.status
}
