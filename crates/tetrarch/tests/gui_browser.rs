//! The GUI in a real browser: headless Chromium driven over WebDriver
//! (chromedriver; its JSON requests sent with `ureq`). For every
//! variant it loads the page, saves a screenshot of the start position,
//! plays human turns by clicking cells (and choice / End turn buttons),
//! checks the game through the API and waits for the engine's replies.
//!
//! Without `chromium` and `chromedriver` the test is skipped with a message,
//! except in CI (`CI=true`), where it fails. Screenshots go to
//! `target/gui-screenshots/`, or to `docs/screenshots/` with
//! `TETRARCH_SCREENSHOTS=docs`.

use std::io::{BufRead, BufReader};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Kills a child process of ours when dropped.
struct Kill(Child);
impl Drop for Kill {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn which(name: &str) -> Option<PathBuf> {
    which::which(name).ok()
}

/// One HTTP request (ureq); returns (status, body) whatever the status.
fn http(method: &str, host_port: &str, path: &str, body: &str, content_type: &str) -> (u16, String) {
    let agent: ureq::Agent =
        ureq::Agent::config_builder().http_status_as_error(false).timeout_global(Some(Duration::from_secs(60))).build().into();
    let url = format!("http://{host_port}{path}");
    let sent = match method {
        "GET" => agent.get(&url).call(),
        "DELETE" => agent.delete(&url).call(),
        "POST" => agent.post(&url).header("Content-Type", content_type).send(body),
        m => panic!("no {m} requests here"),
    };
    let mut resp = sent.unwrap_or_else(|e| panic!("{method} {url}: {e}"));
    let status = resp.status().as_u16();
    let text = resp.body_mut().with_config().limit(256 << 20).read_to_string().unwrap_or_else(|e| panic!("{method} {url}: {e}"));
    (status, text)
}

/// The string value after `"key":"` (JSON escapes of quotes only).
fn json_string(body: &str, key: &str) -> Option<String> {
    let pat = format!("\"{key}\":\"");
    let i = body.find(&pat)? + pat.len();
    let mut out = String::new();
    let mut chars = body[i..].chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => return Some(out),
            '\\' => match chars.next()? {
                'n' => out.push('\n'),
                'u' => {
                    let h: String = chars.by_ref().take(4).collect();
                    out.push(char::from_u32(u32::from_str_radix(&h, 16).ok()?).unwrap_or('?'));
                }
                c => out.push(c),
            },
            c => out.push(c),
        }
    }
    None
}

/// The strings of the array after `"key":[` (strings without escaped quotes).
fn json_strings(body: &str, key: &str) -> Vec<String> {
    let pat = format!("\"{key}\":[");
    let Some(i) = body.find(&pat) else { return vec![] };
    let rest = &body[i + pat.len()..];
    let mut out = Vec::new();
    let mut it = rest.split('"');
    // Alternating: outside, inside, outside, … until the closing bracket.
    while let Some(outside) = it.next() {
        if outside.contains(']') {
            break;
        }
        match it.next() {
            Some(inside) => out.push(inside.to_string()),
            None => break,
        }
    }
    out
}

fn b64decode(s: &str) -> Vec<u8> {
    let val = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        } as u32)
    };
    let mut out = Vec::new();
    let (mut acc, mut bits) = (0u32, 0);
    for &c in s.as_bytes() {
        let Some(v) = val(c) else { continue };
        acc = acc << 6 | v;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    out
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

struct Driver {
    addr: String,
    session: String,
}

impl Driver {
    fn call(&self, method: &str, path: &str, body: &str) -> String {
        let (status, text) = http(method, &self.addr, &format!("/session/{}{path}", self.session), body, "application/json");
        assert_eq!(status, 200, "WebDriver {method} {path}: {text}");
        text
    }
    fn script(&self, js: &str) -> String {
        let body = format!("{{\"script\":{},\"args\":[]}}", json_lit(js));
        self.call("POST", "/execute/sync", &body)
    }
    fn find(&self, css: &str) -> Option<String> {
        let body = format!("{{\"using\":\"css selector\",\"value\":{}}}", json_lit(css));
        let (status, text) = http("POST", &self.addr, &format!("/session/{}/element", self.session), &body, "application/json");
        (status == 200).then(|| json_string(&text, "element-6066-11e4-a52e-4f735466cecf")).flatten()
    }
    /// Clicks the element; when the page redrew it between finding and
    /// clicking (a stale element), finds it again.
    fn click(&self, css: &str) {
        for _ in 0..20 {
            let el = wait_for(&format!("element {css}"), || self.find(css));
            let path = format!("/session/{}/element/{el}/click", self.session);
            let (status, text) = http("POST", &self.addr, &path, "{}", "application/json");
            if status == 200 {
                return;
            }
            assert!(text.contains("stale element"), "WebDriver click {css}: {text}");
            std::thread::sleep(Duration::from_millis(50));
        }
        panic!("{css} kept going stale");
    }
    /// Whether the page is in its set-up mode (`body.placing`).
    fn placing(&self) -> bool {
        self.script("return document.body.classList.contains('placing');").contains("\"value\":true")
    }
    fn text(&self, css: &str) -> String {
        let js = format!("var e=document.querySelector({});return e?e.textContent:'';", json_lit(css));
        json_string(&self.script(&js), "value").unwrap_or_default()
    }
}

fn json_lit(s: &str) -> String {
    let mut o = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            '\n' => o.push_str("\\n"),
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

fn wait_for<T>(what: &str, mut f: impl FnMut() -> Option<T>) -> T {
    let t = Instant::now();
    loop {
        if let Some(x) = f() {
            return x;
        }
        assert!(t.elapsed() < Duration::from_secs(30), "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

struct Gui {
    addr: String,
    /// The access token of the printed address.
    token: String,
}

impl Gui {
    /// `path` with the access token.
    fn authorised(&self, path: &str) -> String {
        format!("{path}{}token={}", if path.contains('?') { '&' } else { '?' }, self.token)
    }
    fn get(&self, path: &str) -> String {
        let (s, b) = http("GET", &self.addr, &self.authorised(path), "", "text/plain");
        assert_eq!(s, 200, "GET {path}: {b}");
        b
    }
    fn post(&self, path: &str, form: &str) -> (u16, String) {
        http("POST", &self.addr, &self.authorised(path), form, "application/x-www-form-urlencoded")
    }
    fn turns(&self) -> Vec<String> {
        json_strings(&self.get("/api/state"), "turns")
    }
}

fn enc(s: &str) -> String {
    s.bytes()
        .map(|b| if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) { (b as char).to_string() } else { format!("%{b:02X}") })
        .collect()
}

/// Plays one human turn by clicking: the first legal action with cells, then
/// (in a turn of several actions) `End turn`. Returns the turn token.
fn click_turn(d: &Driver, gui: &Gui) -> String {
    let mut prefix: Vec<String> = Vec::new();
    loop {
        // Wait until the page shows the actions of this prefix.
        wait_for("the page to offer actions", || {
            let n = d.script("return document.querySelectorAll('.hl-from').length;");
            (!n.contains("\"value\":0")).then_some(())
        });
        let acts = gui.get(&format!("/api/actions?prefix={}", enc(&prefix.join(","))));
        let list = &acts[acts.find("\"actions\":").unwrap()..];
        // The first action with cells.
        let i = list.find("{\"token\":").unwrap();
        let mut k = i;
        let (tok, cells) = loop {
            let item = &list[k..];
            let tok = json_string(item, "token").unwrap();
            let cells = json_strings(item, "cells");
            if !cells.is_empty() {
                break (tok, cells);
            }
            k += 1 + list[k + 1..].find("{\"token\":").expect("an action with cells");
        };
        let from = cells[0].clone();
        let to = cells.iter().rev().find(|c| **c != from).cloned().unwrap_or(from.clone());
        d.click(&format!("[data-cell=\"{from}\"]"));
        wait_for("the selection", || {
            (!d.script("return document.querySelectorAll('.hl-sel').length;").contains("\"value\":0")).then_some(())
        });
        d.click(&format!("[data-cell=\"{to}\"]"));
        std::thread::sleep(Duration::from_millis(100));
        let choice = d.script(&format!(
            "var b=[...document.querySelectorAll('#choices button')].find(b=>b.textContent==={});if(b){{b.click();return true;}}return false;",
            json_lit(&tok)
        ));
        let _ = choice;
        prefix.push(tok);
        let item = &list[k..];
        let ends = item[..item.find('}').unwrap()].contains("\"ends_turn\":true");
        if ends {
            return prefix.join(",");
        }
        // A turn of several actions: end it here where the game allows
        // (`End turn`), else click the next action.
        std::thread::sleep(Duration::from_millis(300));
        if let Some(end) = d.find("#endturn") {
            d.call("POST", &format!("/element/{end}/click"), "{}");
            return prefix.join(",");
        }
    }
}

/// Sets the New game form's variant (the seats are rebuilt: seat 1 human,
/// the others engines), its clock and the start (set-up choices).
fn form(d: &Driver, variant: &str, clock_min: &str) {
    d.script(&format!(
        "var s=document.getElementById('variant');s.value={};s.dispatchEvent(new Event('change'));\
         document.getElementById('clockmin').value={};document.getElementById('clockinc').value='0';\
         var k=document.getElementById('startkind');k.value='setup';k.dispatchEvent(new Event('change'));return true;",
        json_lit(variant),
        json_lit(clock_min)
    ));
}

/// Quattuor Reges: Red's 16 pieces placed by clicking cells (one taken back
/// and placed again), the game started from that set-up with a clock shown
/// counting down, a human turn and the engine's answer on its clock; then
/// Quadranj's burglar picked by clicking a pilot.
fn place_setup_and_clock(d: &Driver, gui: &Gui, url: &str, shots: &Path) {
    d.call("POST", "/url", &format!("{{\"url\":{}}}", json_lit(url)));
    wait_for("the board", || d.find("[data-cell]"));
    form(d, "quattuor", "0.5");
    d.click("#place0");
    wait_for("the palette", || d.find("#palette button"));
    // The page says what is being set up, not the previous game's state:
    // the header and the status line name the new game and the seat, the
    // previous game's panels are dimmed under a label, its controls off.
    let status = "New quattuor game — Red places its pieces (0 of 16 placed)";
    wait_for("the set-up status", || d.text("#message").contains(status).then_some(()));
    assert!(d.text("#headline").contains(status), "{}", d.text("#headline"));
    assert!(d.placing());
    assert!(d.text("#prevlabel").starts_with("Previous game: "), "{}", d.text("#prevlabel"));
    assert!(d.text("#setupinfo").contains("placing now"), "{}", d.text("#setupinfo"));
    assert!(d.script("return document.getElementById('undobtn').disabled;").contains("\"value\":true"));
    let info = gui.get("/api/setup/place?variant=quattuor&seat=1");
    let kinds: Vec<String> = info.split("\"kind\":\"").skip(1).map(|s| s[..s.find('"').unwrap()].to_string()).collect();
    assert_eq!(kinds.len(), 16, "{info}");
    let cells = {
        let i = info.rfind("\"cells\":[").unwrap() + 9;
        let inner = &info[i..i + info[i..].find(']').unwrap()];
        inner.split(',').map(|c| c.trim_matches('"').to_string()).collect::<Vec<_>>()
    };
    assert_eq!(cells.len(), 99);
    // Rank 2 and 3 (a2.. and a3..), then take the first piece back and put
    // it on another cell.
    let mut mine: Vec<String> = cells.iter().filter(|c| c.ends_with('2') || c.ends_with('3')).take(17).cloned().collect();
    for (i, c) in mine[..16].iter().enumerate() {
        if i == 10 {
            wait_for("10 pieces placed", || d.text("#message").contains("(10 of 16 placed)").then_some(()));
            let png = json_string(&d.call("GET", "/screenshot", ""), "value").unwrap();
            std::fs::write(shots.join("quattuor-setup.png"), b64decode(&png)).unwrap();
        }
        d.click(&format!("[data-cell=\"{c}\"]"));
    }
    wait_for("every piece placed", || d.text("#palette").contains("every piece is placed").then_some(()));
    d.click(&format!("[data-cell=\"{}\"]", mine[0]));
    wait_for("a piece back in the palette", || d.find("#palette button.p.sel"));
    d.click(&format!("[data-cell=\"{}\"]", mine[16]));
    mine.swap(0, 16);
    let token: Vec<String> = kinds.iter().zip(&mine).map(|(k, c)| format!("{k}@{c}")).collect();
    let token = token.join(",");
    d.click("#placedone");
    let st = wait_for("the game from the set-up", || {
        let st = gui.get("/api/state");
        json_string(&st, "start").is_some_and(|s| s.starts_with(&format!("setup {token} "))).then_some(st)
    });
    assert!(st.contains("\"players\":[\"human\",\"engine:1000\"]"), "{st}");
    // The new game's own header and panels are back.
    wait_for("the new game's header", || d.text("#headline").starts_with("quattuor · game ").then_some(()));
    assert!(!d.placing());
    assert!(!d.text("#message").contains("New quattuor game"), "{}", d.text("#message"));
    assert!(d.script("return document.getElementById('prevlabel').hidden;").contains("\"value\":true"));
    assert!(st.contains("\"clock\":{\"base_ms\":30000,\"inc_ms\":0,"), "{st}");
    // The clocks on the page: Red's runs.
    let shown = wait_for("the clocks", || {
        let t = d.text("#clock1.running");
        t.contains("Red").then_some(t)
    });
    assert!(d.text("#clock2").contains("0:30.0"), "{}", d.text("#clocks"));
    std::thread::sleep(Duration::from_millis(400));
    let later = d.text("#clock1");
    assert!(later != shown && later.contains("0:2"), "{shown} → {later}");
    // A human turn, and the engine answers on its clock.
    let tok = click_turn(d, gui);
    let st = wait_for("the engine's answer", || {
        let st = gui.get("/api/state");
        (json_strings(&st, "turns").len() >= 2).then_some(st)
    });
    assert_eq!(json_strings(&st, "turns")[0], tok);
    assert!(st.contains("> go wtime "), "{st}");
    assert!(!st.contains("\"flagged\":1") && !st.contains("\"flagged\":2"), "{st}");
    wait_for("the record on the page", || (d.text("#record").len() > 4).then_some(()));
    let png = json_string(&d.call("GET", "/screenshot", ""), "value").unwrap();
    std::fs::write(shots.join("quattuor-clock.png"), b64decode(&png)).unwrap();

    // Quadranj: the burglar is one of Red's pilots, chosen by a click.
    // Cancel goes back to the game (quattuor) as it was.
    form(d, "quadranj", "0");
    d.click("#place0");
    wait_for("the pick bar", || d.text("#placebar").contains("choose it").then_some(()));
    let status = "New quadranj game — Red chooses one of its pieces (none chosen yet)";
    wait_for("the pick status", || d.text("#message").contains(status).then_some(()));
    assert!(d.text("#headline").contains(status), "{}", d.text("#headline"));
    d.click("#placecancel");
    wait_for("the game's header again", || d.text("#headline").starts_with("quattuor · game ").then_some(()));
    assert!(!d.placing());
    assert!(!d.text("#message").contains("New quadranj game"), "{}", d.text("#message"));
    d.click("#place0");
    wait_for("the pick bar", || d.text("#placebar").contains("choose it").then_some(()));
    d.click("[data-cell=\"d2\"]");
    wait_for("the choice", || d.text("#placebar").contains("(d2:1)").then_some(()));
    assert!(d.text("#message").contains("(d2:1 chosen)"), "{}", d.text("#message"));
    d.click("#placedone");
    wait_for("the game with the burglar", || {
        let st = gui.get("/api/state");
        (json_string(&st, "start").as_deref() == Some("setup d2:1 ?")
            || json_string(&st, "start").is_some_and(|s| s.starts_with("setup d2:1 ")))
        .then_some(())
    });
}

/// Starts the GUI server (the real binary); returns it (killed when
/// dropped), the API with the access token, and the printed address.
fn start_server() -> (Kill, Gui, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tetrarch"))
        .args(["gui", "--port", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start tetrarch gui");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let server = Kill(child);
    // The address carries the access token; the page keeps it in a cookie.
    let url = line.trim().to_string();
    assert!(url.starts_with("http://127.0.0.1:"), "printed {url:?}");
    let (base, token) = url.split_once("/?token=").unwrap_or_else(|| panic!("no token in {url:?}"));
    let gui = Gui { addr: base.trim_start_matches("http://").to_string(), token: token.to_string() };
    (server, gui, url)
}

/// Starts chromedriver and a headless Chromium session with a fresh
/// profile; returns chromedriver (killed when dropped), the session and the
/// profile directory.
fn start_browser(chromium: &Path, driver_bin: &Path) -> (Kill, Driver, PathBuf) {
    let port = free_port();
    let driver = Kill(
        Command::new(driver_bin)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromedriver"),
    );
    let addr = format!("127.0.0.1:{port}");
    wait_for("chromedriver", || TcpStream::connect(&addr).ok().map(|_| ()));
    let profile = std::env::temp_dir().join(format!("tetrarch-gui-test-{}", std::process::id()));
    let args = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-dev-shm-usage",
        "--window-size=1400,950",
    ];
    let mut arg_list: Vec<String> = args.iter().map(|a| json_lit(a)).collect();
    arg_list.push(json_lit(&format!("--user-data-dir={}", profile.display())));
    let caps = format!(
        "{{\"capabilities\":{{\"alwaysMatch\":{{\"goog:chromeOptions\":{{\"binary\":{},\"args\":[{}]}}}}}}}}",
        json_lit(&chromium.display().to_string()),
        arg_list.join(",")
    );
    let (status, body) = http("POST", &addr, "/session", &caps, "application/json");
    assert_eq!(status, 200, "new session: {body}");
    let d = Driver { addr: addr.clone(), session: json_string(&body, "sessionId").expect("session id") };
    (driver, d, profile)
}

/// Where the screenshots go (`TETRARCH_SCREENSHOTS=docs`: docs/screenshots).
fn screenshots_dir() -> PathBuf {
    let shots = match std::env::var("TETRARCH_SCREENSHOTS").as_deref() {
        Ok("docs") => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/screenshots"),
        _ => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/gui-screenshots"),
    };
    std::fs::create_dir_all(&shots).unwrap();
    shots
}

/// The variants `/api/variants` lists.
fn variant_names(gui: &Gui) -> Vec<String> {
    let v = gui.get("/api/variants");
    // Variants have seats (their options have names too).
    v.split("{\"name\":\"")
        .skip(1)
        .filter(|s| s[s.find('"').unwrap()..].starts_with("\",\"seats\":"))
        .map(|s| s[..s.find('"').unwrap()].to_string())
        .collect()
}

/// The seats of variant `v` by `/api/variants`.
fn seats_of(gui: &Gui, v: &str) -> usize {
    let all = gui.get("/api/variants");
    let i = all.find(&format!("{{\"name\":\"{v}\"")).unwrap();
    let s = &all[i..];
    let j = s.find("\"seats\":").unwrap() + 8;
    s[j..j + 1].parse::<usize>().unwrap()
}

/// A game of `v` with the person on seat 1 and engines elsewhere: a
/// screenshot of the start, then a round or two of a clicked turn and the
/// engines' replies, each shown in the page's record.
fn play_variant(d: &Driver, gui: &Gui, url: &str, shots: &Path, v: &str) {
    let seats = seats_of(gui, v);
    let players: Vec<&str> = (0..seats).map(|i| if i == 0 { "human" } else { "engine:100" }).collect();
    let (s, b) = gui.post("/api/new", &format!("variant={v}&players={}", enc(&players.join(","))));
    assert_eq!(s, 200, "{v}: {b}");
    d.call("POST", "/url", &format!("{{\"url\":{}}}", json_lit(url)));
    wait_for("the board", || d.find("[data-cell]"));
    // The start position, as the README shows it.
    wait_for("the legal actions", || {
        (!d.script("return document.querySelectorAll('.hl-from').length;").contains("\"value\":0")).then_some(())
    });
    let png = json_string(&d.call("GET", "/screenshot", ""), "value").unwrap();
    std::fs::write(shots.join(format!("{v}.png")), b64decode(&png)).unwrap();

    let rounds = if ["fourchess", "quattuor", "queenskings9-duel", "quadranj"].contains(&v) { 2 } else { 1 };
    for round in 0..rounds {
        let before = gui.turns();
        let tok = click_turn(d, gui);
        // The engine (the server's rules) took the turn ...
        let after = wait_for("the human turn", || {
            let t = gui.turns();
            (t.len() > before.len()).then_some(t)
        });
        assert_eq!(after[before.len()], tok, "{v}: round {round}");
        // ... and the engine seats answered until the human is to move.
        let t = wait_for("the engine replies", || {
            let st = gui.get("/api/state");
            let to_move = st.split("\"to_move\":").last().and_then(|s| s[..1].parse::<usize>().ok());
            let over = st.contains("\"over\":true");
            (over || to_move == Some(1) && json_strings(&st, "turns").len() >= before.len() + seats)
                .then(|| json_strings(&st, "turns"))
        });
        assert!(t.len() > before.len(), "{v}: {t:?}");
        // The page shows the record.
        wait_for("the record on the page", || {
            let n = d.script("return document.querySelectorAll('#record li').length;");
            n.contains(&format!("\"value\":{}", t.len())).then_some(())
        });
    }
}

/// A level chosen on the page by its name reaches the engine: the seat is
/// `level:0`, the engine is set to `Skill Level 0` before its search (the
/// log) and the game goes on; the form shows each level's Elo where the
/// variant has a table.
fn a_level_chosen_on_the_page_plays(d: &Driver, gui: &Gui, url: &str, shots: &Path) {
    d.call("POST", "/url", &format!("{{\"url\":{}}}", json_lit(url)));
    wait_for("the board", || d.find("[data-cell]"));
    d.script(
        "var s=document.getElementById('variant');s.value='queenskings9-duel';s.dispatchEvent(new Event('change'));\
         var k=document.getElementById('startkind');k.value='startpos';k.dispatchEvent(new Event('change'));return true;",
    );
    let names = d.script("return Array.from(document.getElementById('ptype1').options).map(o => o.text).join('|');");
    for n in ["human", "Beginner", "Casual", "Club", "Strong", "Strongest", "engine, full strength"] {
        assert!(names.contains(n), "{n}: {names}");
    }
    // The person picks Beginner for the second seat by its name.
    d.script(
        "var p=document.getElementById('ptype1');\
         p.value=Array.from(p.options).find(o => o.text.startsWith('Beginner')).value;\
         p.dispatchEvent(new Event('change'));return true;",
    );
    assert!(d.script("return document.getElementById('pmsbox1').hidden;").contains("true"));
    d.click("#newbtn");
    let st = wait_for("the new game", || {
        let st = gui.get("/api/state");
        st.contains("\"players\":[\"human\",\"level:0\"]").then_some(st)
    });
    assert!(st.contains("queenskings9-duel"), "{st}");
    let tok = click_turn(d, gui);
    let turns = wait_for("the level's reply", || {
        let t = gui.turns();
        (t.len() >= 2).then_some(t)
    });
    assert_eq!(turns[0], tok);
    let log = gui.get("/api/state");
    assert!(log.contains("setoption name Skill Level value 0"), "{log}");
    wait_for("the reply on the page", || {
        let n = d.script("return document.querySelectorAll('#record li').length;");
        n.contains(&format!("\"value\":{}", turns.len())).then_some(())
    });
    let png = json_string(&d.call("GET", "/screenshot", ""), "value").unwrap();
    std::fs::write(shots.join("levels.png"), b64decode(&png)).unwrap();
}

/// Bad input on the page: an illegal turn gives a clear message and
/// changes nothing.
fn illegal_turn_is_refused(d: &Driver, gui: &Gui, url: &str) {
    let (s, b) = gui.post("/api/new", "variant=fourchess&players=human,engine:100,engine:100,engine:100");
    assert_eq!(s, 200, "{b}");
    d.call("POST", "/url", &format!("{{\"url\":{}}}", json_lit(url)));
    let t0 = Instant::now();
    while d.find("[data-cell]").is_none() {
        if t0.elapsed() > Duration::from_secs(20) {
            panic!("no board: {}", d.script("return document.body.innerText.slice(0,800) + ' | ' + location.href;"));
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let input = wait_for("the token input", || d.find("#turninput"));
    d.call("POST", &format!("/element/{input}/value"), "{\"text\":\"e2e5\"}");
    d.click("#turnbtn");
    let msg = wait_for("the error message", || {
        let m = d.text("#message");
        m.contains("illegal").then_some(m)
    });
    assert!(msg.contains("e2e5"), "{msg}");
    assert!(gui.turns().is_empty());
}

/// The number `d`'s script returned.
fn number(d: &Driver, js: &str) -> i64 {
    let r = d.script(js);
    r.split("\"value\":").nth(1).and_then(|v| v.trim_end_matches('}').trim().parse().ok()).unwrap_or(-1)
}

fn screenshot(d: &Driver, path: &Path) {
    let png = json_string(&d.call("GET", "/screenshot", ""), "value").unwrap();
    std::fs::write(path, b64decode(&png)).unwrap();
}

/// Studying a game on the page: a hint draws a legal turn of the person's
/// seat and plays nothing; an analysis with three lines shows three
/// distinct lines with scores; the score graph has a point per turn and a
/// click on one shows that position; browsing back and forward (keys)
/// shows the same position strings as the API; "Play from here" starts a
/// new line; the rules are one click away.
fn study_a_game(d: &Driver, gui: &Gui, url: &str, shots: &Path) {
    let moves = "e2e3 b7c7 g13g12 m8l8";
    let (s, b) =
        gui.post("/api/new", &format!("variant=teamchess&players={}&moves={}", enc("human,human,human,human"), enc(moves)));
    assert_eq!(s, 200, "{b}");
    d.call("POST", "/url", &format!("{{\"url\":{}}}", json_lit(url)));
    wait_for("the board", || d.find("[data-cell]"));
    // The score graph: one point per turn once the quick searches are done.
    wait_for("a graph point per turn", || {
        (number(d, "return document.querySelectorAll('#graph circle.gpt').length;") == 4).then_some(())
    });
    // Hint: arrows on the board, a legal turn of Red's, nothing played.
    d.click("#hintbtn");
    wait_for("the hint's arrows", || d.find("#board [data-arrows=hint]"));
    let st = gui.get("/api/state");
    let hint = st.split("\"hint\":{").nth(1).and_then(|h| json_string(&format!("{{{h}"), "turn")).expect("a hint");
    let acts = gui.get("/api/actions");
    assert!(acts.contains(&format!("\"token\":\"{hint}\"")), "{hint} is not among {acts}");
    assert_eq!(gui.turns().join(" "), moves, "a hint plays nothing");
    assert!(st.contains("\"seat\":1,\"turn\""), "the hint is Red's: {st}");
    screenshot(d, &shots.join("hint.png"));
    // Analysis with three lines.
    d.script("document.getElementById('multipv').value='3';return true;");
    d.click("#analysebtn");
    let lines = wait_for("three analysis lines", || {
        let t = d.script("return Array.from(document.querySelectorAll('#lines li')).map(l => l.textContent).join('|');");
        let t = json_string(&t, "value").unwrap_or_default();
        let v: Vec<String> = t.split('|').filter(|x| !x.is_empty()).map(str::to_owned).collect();
        (v.len() == 3).then_some(v)
    });
    let firsts: std::collections::HashSet<String> = lines.iter().map(|l| l.split(' ').nth(1).unwrap_or("").to_string()).collect();
    assert_eq!(firsts.len(), 3, "three distinct first turns: {lines:?}");
    for l in &lines {
        let score = l.split(' ').next().unwrap_or("");
        assert!(score.starts_with(['+', '-', '#']), "a score first: {l}");
    }
    // Hovering a line draws it.
    d.script("document.querySelector('#lines li').dispatchEvent(new MouseEvent('mouseenter'));return true;");
    wait_for("the line's arrows", || d.find("#board [data-arrows=line]"));
    screenshot(d, &shots.join("analysis.png"));
    d.click("#stopbtn");
    // A click on the graph's second point shows the position after turn 2.
    let at = |k: usize| json_string(&gui.get(&format!("/api/at?turn={k}")), "position").unwrap();
    let shown = || json_string(&d.script("return document.getElementById('posstring').value;"), "value").unwrap();
    d.click("#graph circle.gpt[data-turn='2']");
    wait_for("the position after turn 2", || (shown() == at(2)).then_some(()));
    assert!(d.script("return document.getElementById('browsenote').hidden;").contains("false"));
    screenshot(d, &shots.join("graph.png"));
    let key = |k: &str| {
        d.script(&format!("document.dispatchEvent(new KeyboardEvent('keydown',{{key:'{k}'}}));return true;"));
    };
    key("ArrowLeft");
    wait_for("turn 1", || (shown() == at(1)).then_some(()));
    key("Home");
    wait_for("turn 0", || (shown() == at(0)).then_some(()));
    key("ArrowRight");
    key("ArrowRight");
    wait_for("turn 2 again", || (shown() == at(2)).then_some(()));
    assert_eq!(gui.turns().join(" "), moves, "browsing changes nothing");
    key("End");
    let live = json_string(&gui.get("/api/state"), "position").unwrap();
    wait_for("the game's position", || (shown() == live).then_some(()));
    // Play from here: a new line from turn 2.
    d.click("#graph circle.gpt[data-turn='2']");
    wait_for("the position after turn 2", || (shown() == at(2)).then_some(()));
    d.script("window.confirm = () => true;return true;");
    d.click("#branchbtn");
    wait_for("the new line", || (gui.turns().len() == 2).then_some(()));
    assert!(json_string(&gui.get("/api/state"), "message").unwrap().contains("new line from turn 2"));
    // The rules, one click away.
    d.click("#rulesbtn");
    wait_for("the rules", || d.text("#rulestext").contains("Teams").then_some(()));
    d.script("document.getElementById('rulesdlg').close();return true;");
    // High-visibility colours: Red's King takes the palette's first colour,
    // and its own again when switched off.
    let king = || {
        let js = "var c=document.querySelector('[data-piece-cell=\"h1\"] circle.piece');return c?c.getAttribute('fill'):'';";
        json_string(&d.script(js), "value").unwrap_or_default()
    };
    let own = king();
    assert!(!own.is_empty() && own != "#E69F00", "{own}");
    d.click("#hivisbox");
    wait_for("the high-visibility colours", || (king() == "#E69F00").then_some(()));
    screenshot(d, &shots.join("hivis.png"));
    d.click("#hivisbox");
    wait_for("the seats' own colours", || (king() == own).then_some(()));
}

#[test]
fn browser_plays_every_variant() {
    let ci = std::env::var("CI").is_ok_and(|v| v == "true");
    let chromium = which("chromium").or_else(|| which("chromium-browser"));
    let driver_bin = which("chromedriver");
    let (Some(chromium), Some(driver_bin)) = (chromium, driver_bin) else {
        assert!(!ci, "CI=true but chromium or chromedriver is missing (.ci/run installs them)");
        eprintln!(
            "SKIPPED browser_plays_every_variant: chromium and chromedriver not found (apt-get install chromium chromium-driver)"
        );
        return;
    };

    let (_server, gui, url) = start_server();
    // Without the token nothing is served.
    assert_eq!(http("GET", &gui.addr, "/api/state", "", "text/plain").0, 403);
    let (_driver, d, profile) = start_browser(&chromium, &driver_bin);
    let shots = screenshots_dir();

    let variants = variant_names(&gui);
    assert!(variants.len() >= 9, "{variants:?}");
    for v in &variants {
        play_variant(&d, &gui, &url, &shots, v);
    }
    place_setup_and_clock(&d, &gui, &url, &shots);
    a_level_chosen_on_the_page_plays(&d, &gui, &url, &shots);
    illegal_turn_is_refused(&d, &gui, &url);
    study_a_game(&d, &gui, &url, &shots);
    import_a_game(&d, &gui, &url, &shots);
    cues_on_the_board(&d, &gui, &url, &shots);

    d.call("DELETE", "", "");
    let _ = std::fs::remove_dir_all(&profile);
}

/// The value of the page's input or textarea `id`.
fn input_value(d: &Driver, id: &str) -> String {
    json_string(&d.script(&format!("return document.getElementById({}).value;", json_lit(id))), "value").unwrap_or_default()
}

/// `"version":N` of a state.
/// The Import section: a turn list and a PGN4 pasted, a PGN4 file chosen
/// (read by the page's FileReader), each shown as the position `/api/new`
/// reaches with the same turns given as tokens (translated by hand); a
/// broken PGN4 shows its bad move in the status line and changes nothing.
fn import_a_game(d: &Driver, gui: &Gui, url: &str, shots: &Path) {
    const CAPTURE_PGN4: &str = include_str!("data/import/teams-capture.pgn4");
    const CAPTURE_TURNS: &str = "e2e3 b9c9 h13h12 m9l9 f1b5 a6b5 i13i11 m10l10 j1i3";
    const OLD_LAYOUT_TURNS: &str = "f2f3 b6c6 h13h12 m8l8 g1a7 a8a7";
    let old_layout = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/import/teams-old-layout.pgn4");
    let fen4 = std::fs::read_to_string(&old_layout).unwrap();
    let fen4 = fen4.split("[StartFen4 \"").nth(1).unwrap().split('"').next().unwrap().to_string();
    // The expected positions, by /api/new.
    let humans = enc("human,human,human,human");
    let position_after = |form: String| {
        let (s, b) = gui.post("/api/new", &form);
        assert_eq!(s, 200, "{form}: {b}");
        json_string(&b, "position").unwrap()
    };
    let turns = "e2e3 b7c7 h13h12 m8l8";
    let after_turns = position_after(format!("variant=fourchess&players={humans}&moves={}", enc(turns)));
    let after_pgn4 = position_after(format!("variant=teamchess&players={humans}&moves={}", enc(CAPTURE_TURNS)));
    let after_file = position_after(format!(
        "variant=teamchess&players={humans}&start=fen&fen={}&moves={}",
        enc(&fen4),
        enc(OLD_LAYOUT_TURNS)
    ));
    // A quattuor game on the page; the form set to fourchess, every seat
    // human (the seats the page sends with a turn list).
    let (s, b) = gui.post("/api/new", "variant=quattuor&players=human,human");
    assert_eq!(s, 200, "{b}");
    d.call("POST", "/url", &format!("{{\"url\":{}}}", json_lit(url)));
    wait_for("the board", || d.find("[data-cell]"));
    d.script(
        "var s=document.getElementById('variant');s.value='fourchess';s.dispatchEvent(new Event('change'));\
         for (var i=0;i<4;i++){var p=document.getElementById('ptype'+i);p.value='human';p.dispatchEvent(new Event('change'));}\
         return true;",
    );
    let import = |text: &str| {
        d.script(&format!("document.getElementById('importtext').value={};return true;", json_lit(text)));
        d.click("#importbtn");
    };
    let shown = |what: &str, pos: &str| {
        wait_for(what, || (input_value(d, "posstring") == pos).then_some(()));
    };
    // A turn list (kind auto).
    import(turns);
    shown("the imported turns", &after_turns);
    let st = gui.get("/api/state");
    assert!(
        st.contains("\"variant\":\"fourchess\"") && st.contains("\"players\":[\"human\",\"human\",\"human\",\"human\"]"),
        "{st}"
    );
    assert!(d.text("#message").starts_with("imported (turns)"), "{}", d.text("#message"));
    // A PGN4 pasted: teamchess, every seat human.
    import(CAPTURE_PGN4);
    shown("the imported PGN4", &after_pgn4);
    assert!(d.text("#message").starts_with("imported (PGN4): teamchess, 9 turns"), "{}", d.text("#message"));
    assert_eq!(input_value(d, "variant"), "teamchess");
    wait_for("the record on the page", || {
        d.script("return document.querySelectorAll('#record li').length;").contains("\"value\":9").then_some(())
    });
    let png = json_string(&d.call("GET", "/screenshot", ""), "value").unwrap();
    std::fs::write(shots.join("import.png"), b64decode(&png)).unwrap();
    // A record line (the game's own download), pasted after another game
    // began: the same position again.
    let record = gui.get("/api/record.jsonl");
    let (s, b) = gui.post("/api/new", "variant=quattuor&players=human,human");
    assert_eq!(s, 200, "{b}");
    shown("the other game", &json_string(&b, "position").unwrap());
    import(record.trim());
    shown("the imported record", &after_pgn4);
    assert!(d.text("#message").starts_with("imported (record)"), "{}", d.text("#message"));
    // A PGN4 file (the older layout, by its StartFen4 tag), read by the page.
    let file = wait_for("the file input", || d.find("#importfile"));
    d.call("POST", &format!("/element/{file}/value"), &format!("{{\"text\":{}}}", json_lit(&old_layout.display().to_string())));
    wait_for("the file in the box", || input_value(d, "importtext").contains("[StartFen4 ").then_some(()));
    d.click("#importbtn");
    shown("the imported file", &after_file);
    // A broken PGN4: the bad move in the status line, nothing changed.
    let before = gui.get("/api/state");
    import("1. e2-e3 .. b9-c9 .. h13-h12 .. m9-l9\n2. Bf1xb6");
    let msg = wait_for("the import error", || {
        let m = d.text("#message");
        m.contains("Bf1xb6").then_some(m)
    });
    assert!(msg.contains("move 5"), "{msg}");
    assert!(d.script("return document.getElementById('message').className;").contains("error"));
    assert_eq!(input_value(d, "posstring"), after_file);
    // (The version may move meanwhile: the score graph's quick searches
    // fill in the imported turns; the game and its turns stay.)
    let after = gui.get("/api/state");
    let game = |st: &str| st.split("\"game\":").nth(1).and_then(|g| g.split(',').next()).map(str::to_owned);
    assert_eq!(game(&after), game(&before));
    assert_eq!(json_strings(&after, "turns"), json_strings(&before, "turns"));
    assert_eq!(json_string(&after, "position").unwrap(), after_file);
}

/// The engine's cues on the board (issue 42, docs/gui.md "What the board
/// shows"): a Quadranj game from a position where Blue's single on c4
/// stands between Red's guards shows the pending capture on c4 and nowhere
/// else; after Red's first action (royal a1 to b1) the royal is pale, the
/// other pieces are not, and clicking it says why it has no action.
fn cues_on_the_board(d: &Driver, gui: &Gui, url: &str, shots: &Path) {
    let fen = "8/bK7/8/8/1rGbBrG4/8/7rG/rK7 r 0 - rb 0/0 ?/? 0 6";
    let (s, b) = gui.post("/api/new", &format!("variant=quadranj&players=human,human&start=fen&fen={}", enc(fen)));
    assert_eq!(s, 200, "{b}");
    d.call("POST", "/url", &format!("{{\"url\":{}}}", json_lit(url)));
    wait_for("the pending capture on c4", || d.find("[data-cell=\"c4\"].mark-pending-capture"));
    assert!(d.find("[data-mark-cell=\"c4\"].ring-pending-capture").is_some(), "no ring on c4");
    let n = d.script("return document.querySelectorAll('.mark-pending-capture').length;");
    assert!(n.contains("\"value\":1"), "marks: {n}");
    let tip = d.text("[data-mark-cell=\"c4\"] title");
    assert!(tip.contains("Red"), "{tip}");
    wait_for("the legal actions", || {
        (!d.script("return document.querySelectorAll('.hl-from').length;").contains("\"value\":0")).then_some(())
    });
    assert!(d.find(".acted").is_none(), "nothing acted at the turn start");
    let png = json_string(&d.call("GET", "/screenshot", ""), "value").unwrap();
    std::fs::write(shots.join("cues-quadranj.png"), b64decode(&png)).unwrap();

    // Red's first action: the royal slides a1 to b1.
    d.click("[data-cell=\"a1\"]");
    wait_for("the selection", || d.find(".hl-sel"));
    d.click("[data-cell=\"b1\"]");
    wait_for("the moved royal pale", || d.find("[data-piece-cell=\"b1\"].acted"));
    for other in ["c4", "b4", "d4", "h2", "a7"] {
        assert!(d.find(&format!("[data-piece-cell=\"{other}\"].acted")).is_none(), "{other} is pale");
    }
    assert!(d.text("[data-piece-cell=\"b1\"].acted title").contains("moved this turn"));
    // Clicking it tells why it has no action (the engine's reason).
    d.click("[data-cell=\"b1\"]");
    let msg = wait_for("the reason", || {
        let m = d.text("#message");
        m.contains("moved this turn").then_some(m)
    });
    assert!(d.script("return document.getElementById('message').className;").contains("cue"), "{msg}");
    let png = json_string(&d.call("GET", "/screenshot", ""), "value").unwrap();
    std::fs::write(shots.join("cues-pale.png"), b64decode(&png)).unwrap();
    // The turn is still Red's, one action in.
    assert!(gui.turns().is_empty());
}
