//! Drives the real `tetrarch` binary through standard input and output.
//! Every read has a timeout (a reader thread feeds a channel), so a hang
//! fails the test instead of blocking it.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

const T: Duration = Duration::from_secs(20);

struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    rx: Receiver<String>,
}

impl Engine {
    fn start() -> Engine {
        Engine::start_with(&[], &[])
    }

    /// Starts the binary with command-line `args` and environment `env`
    /// (`TETRARCH_VARIANT` is removed unless `env` sets it).
    fn start_with(args: &[&str], env: &[(&str, &str)]) -> Engine {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_tetrarch"));
        cmd.args(args).env_remove("TETRARCH_VARIANT");
        for (k, v) in env {
            cmd.env(k, v);
        }
        Engine::spawn(cmd)
    }

    /// The engine under an address-space limit (`ulimit -v`, KiB).
    fn start_limited(kib: u64) -> Engine {
        let mut c = Command::new("sh");
        c.arg("-c").arg(format!("ulimit -v {kib} && exec \"$0\"")).arg(env!("CARGO_BIN_EXE_tetrarch"));
        c.env_remove("TETRARCH_VARIANT");
        Engine::spawn(c)
    }

    fn spawn(mut cmd: Command) -> Engine {
        let mut child =
            cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::inherit()).spawn().expect("spawn tetrarch");
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Engine { child, stdin, rx }
    }

    fn send(&mut self, line: &str) {
        let s = self.stdin.as_mut().expect("stdin open");
        writeln!(s, "{line}").expect("write to engine");
        s.flush().unwrap();
    }

    /// The next line, or `None` after `d` without one.
    fn recv(&self, d: Duration) -> Option<String> {
        match self.rx.recv_timeout(d) {
            Ok(l) => Some(l),
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Lines up to and including the first one that satisfies `stop`.
    fn until(&self, stop: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + T;
        let mut v = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.recv(left) {
                Some(l) => {
                    let done = stop(&l);
                    v.push(l);
                    if done {
                        return v;
                    }
                }
                None => panic!("timed out (or the engine exited); got so far: {v:?}"),
            }
        }
    }

    /// Sends `line`, then `isready`, and returns what came before `readyok`.
    fn ask(&mut self, line: &str) -> Vec<String> {
        self.send(line);
        self.send("isready");
        let mut v = self.until(|l| l == "readyok");
        v.pop();
        v
    }

    fn one(&mut self, line: &str) -> String {
        let v = self.ask(line);
        assert_eq!(v.len(), 1, "{line}: {v:?}");
        v.into_iter().next().unwrap()
    }

    /// Nothing arrives for `d`.
    fn silent(&self, d: Duration) {
        if let Some(l) = self.recv(d) {
            panic!("unexpected output: {l}");
        }
    }

    /// Waits for the process to end; its exit status.
    /// Every line still to come from an engine that has exited.
    fn rest(&self) -> Vec<String> {
        let mut v = Vec::new();
        while let Some(l) = self.recv(Duration::from_millis(200)) {
            v.push(l);
        }
        v
    }

    fn wait_exit(&mut self, d: Duration) -> std::process::ExitStatus {
        let deadline = Instant::now() + d;
        loop {
            if let Some(s) = self.child.try_wait().unwrap() {
                return s;
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("the engine did not exit within {d:?}");
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn is_error(l: &str) -> bool {
    l.starts_with("info string error: ")
}

fn legal_moves(e: &mut Engine) -> Vec<String> {
    let l = e.one("moves");
    let mut w = l.split(' ');
    assert_eq!(w.next(), Some("moves"));
    w.map(str::to_owned).collect()
}

#[test]
fn handshake_and_options() {
    let mut e = Engine::start();
    e.send("uci");
    let v = e.until(|l| l == "uciok");
    assert!(v[0].starts_with("id name Tetrarch "), "{v:?}");
    assert!(v[1].starts_with("id author "), "{v:?}");
    for want in [
        "option name Hash type spin default 64 min 1 max 65536",
        "option name Threads type spin default 1 min 1 max 256",
        "option name MultiPV type spin default 1 min 1 max 256",
        "option name Move Overhead type spin default 100 min 0 max 5000",
        "option name Clear Hash type button",
        "option name FC_Layout type combo default A var A var B",
        "option name FC_LeapOwnPawns type check default false",
        "option name FC_NoProgressPlies type spin default 200 min 0 max 10000",
        "option name FC_RepetitionDraw type check default true",
    ] {
        assert!(v.iter().any(|l| l == want), "missing {want}: {v:?}");
    }
    let var = v.iter().find(|l| l.starts_with("option name UCI_Variant ")).expect("UCI_Variant");
    assert!(var.starts_with("option name UCI_Variant type combo default fourchess"), "{var}");
    assert!(var.split(" var ").any(|x| x == "fourchess"), "{var}");
    assert!(v.iter().all(|l| l.starts_with("id ") || l.starts_with("option name ") || l == "uciok"), "{v:?}");
    e.send("ugi");
    assert_eq!(e.until(|l| l == "ugiok").last().unwrap(), "ugiok");
    e.send("isready");
    assert_eq!(e.recv(T).unwrap(), "readyok");
}

#[test]
fn position_d_and_moves() {
    let mut e = Engine::start();
    assert!(e.ask("position startpos moves e2e3 b5c5").is_empty());
    let d = e.ask("d");
    assert!(d.iter().any(|l| l.starts_with("Position: ") && l.ends_with(" y - 0 1")), "{d:?}");
    assert!(d.iter().any(|l| l.starts_with("Key: ") && l.len() == 21), "{d:?}");
    assert!(d.contains(&"To move: p3 (Yellow)".to_string()), "{d:?}");
    assert!(d.contains(&"Legal turns: 12".to_string()), "{d:?}");
    let m = legal_moves(&mut e);
    assert_eq!(m.len(), 12);
    let mut sorted = m.clone();
    sorted.sort();
    assert_eq!(m, sorted);
    assert!(m.contains(&"e13e12".to_string()), "{m:?}");
    assert_eq!(e.one("query turn"), "response p3");
}

#[test]
fn crlf_and_blank_lines() {
    let mut e = Engine::start();
    e.send("position startpos moves e2e3\r");
    e.send("");
    e.send("   \t ");
    e.silent(Duration::from_millis(200));
    assert_eq!(e.one("query turn\r"), "response p2");
}

#[test]
fn malformed_lines_and_illegal_tokens_change_nothing() {
    let mut e = Engine::start();
    e.ask("position startpos moves e2e3 b5c5");
    let before = e.ask("d");
    for l in ["foo bar", "position", "position startpos extra", "go depth x", "go depth 0", "go depth", "query", "setoption name"]
    {
        let v = e.ask(l);
        assert_eq!(v.len(), 1, "{l}: {v:?}");
        assert!(is_error(&v[0]), "{l}: {v:?}");
    }
    // The third turn is illegal: one error naming the token and its index.
    let l = e.one("position startpos moves e2e3 b5c5 e2e4 n5m5");
    assert!(is_error(&l), "{l}");
    assert!(l.contains("e2e4") && l.contains('3') && l.contains("illegal"), "{l}");
    // A malformed token.
    let l = e.one("position startpos moves e2e3 zz9");
    assert!(is_error(&l) && l.contains("zz9") && l.contains("turn 2"), "{l}");
    // A bad position string.
    let l = e.one("position fen 8/8/8 w - 0 1");
    assert!(is_error(&l), "{l}");
    assert_eq!(e.ask("d"), before);
}

/// `searchmoves` restricts the answer and every pv to the listed turns; in
/// games of two actions a turn, whole turns: the second action too, and
/// ending the turn early (a one-action token). Every two-action turn listed
/// here shares its first action with an unlisted one the search would
/// otherwise be free to pick.
#[test]
fn searchmoves_restrict_whole_turns() {
    let mut e = Engine::start();
    let cases = [
        ("fourchess", "position startpos", vec!["d2d3"]),
        ("fourchess", "position startpos", vec!["j1i3", "k2k3"]),
        ("quattuor", "position startpos moves 0000", vec!["g10g8,j10j8", "0000"]),
        ("quattuor", "position startpos moves 0000", vec!["g10g8"]),
        ("quattuor", "position startpos moves 0000", vec!["g10g8,j10j8", "g10g8,j10i8"]),
        ("quadranj4", "position startpos", vec!["a10a9,a8a4"]),
        ("quadranj4", "position startpos", vec!["a10a9,a8a4", "a10a9,a8a5"]),
        ("quadranj", "position startpos", vec!["a1a2,a3a4", "a1a2,a3a5"]),
    ];
    for (variant, pos, allowed) in cases {
        e.ask(&format!("setoption name UCI_Variant value {variant}"));
        e.ask(pos);
        for depth in [1, 3] {
            let go = format!("go depth {depth} searchmoves {}", allowed.join(" "));
            e.send(&go);
            let v = e.until(|l| l.starts_with("bestmove"));
            let tok = v.last().unwrap().split(' ').nth(1).unwrap().to_string();
            assert!(allowed.contains(&tok.as_str()), "{variant} {go}: {v:?}");
            for l in v.iter().filter(|l| l.contains(" pv ")) {
                let first = l.split(" pv ").nth(1).unwrap().split(' ').next().unwrap();
                assert!(allowed.contains(&first), "{variant} {go}: {l}");
            }
        }
    }
}

#[test]
fn go_depth_gives_one_legal_bestmove() {
    let mut e = Engine::start();
    e.ask("position startpos moves e2e3");
    let legal = legal_moves(&mut e);
    e.send("go depth 2");
    let v = e.until(|l| l.starts_with("bestmove"));
    let best = v.last().unwrap();
    let tok = best.split(' ').nth(1).unwrap();
    assert!(legal.iter().any(|t| t == tok), "{best} not in {legal:?}");
    for l in &v[..v.len() - 1] {
        assert!(l.starts_with("info "), "{l}");
    }
    assert!(v.iter().any(|l| l.starts_with("info depth ") && l.contains(" pv ")), "{v:?}");
    // No second bestmove.
    let after = e.ask("d");
    assert!(!after.iter().any(|l| l.starts_with("bestmove")), "{after:?}");
}

#[test]
fn go_with_clocks() {
    let mut e = Engine::start();
    e.ask("position startpos moves e2e3 b5c5");
    e.send("go wtime 500 btime 500 p3time 300 p4time 300 p3inc 10");
    let v = e.until(|l| l.starts_with("bestmove"));
    assert!(!v.last().unwrap().contains("(none)"), "{v:?}");
}

#[test]
fn go_movetime_and_nodes() {
    let mut e = Engine::start();
    let t = Instant::now();
    e.send("go movetime 300");
    let v = e.until(|l| l.starts_with("bestmove"));
    assert!(t.elapsed() < Duration::from_secs(3), "{:?}", t.elapsed());
    assert!(!v.last().unwrap().contains("(none)"));
    e.send("go nodes 2000");
    let v = e.until(|l| l.starts_with("bestmove"));
    assert!(!v.last().unwrap().contains("(none)"));
}

#[test]
fn ponder_and_ponderhit() {
    let mut e = Engine::start();
    e.send("go ponder movetime 200");
    std::thread::sleep(Duration::from_millis(400));
    // Still pondering: no bestmove yet.
    e.send("isready");
    let v = e.until(|l| l == "readyok");
    assert!(!v.iter().any(|l| l.starts_with("bestmove")), "{v:?}");
    e.send("ponderhit");
    let v = e.until(|l| l.starts_with("bestmove"));
    assert!(!v.last().unwrap().contains("(none)"));
}

#[test]
fn go_infinite_then_stop() {
    let mut e = Engine::start();
    e.ask("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    // isready is answered during the search.
    e.send("isready");
    let v = e.until(|l| l == "readyok");
    assert!(!v.iter().any(|l| l.starts_with("bestmove")), "{v:?}");
    let t = Instant::now();
    e.send("stop");
    let v = e.until(|l| l.starts_with("bestmove"));
    assert!(t.elapsed() < Duration::from_secs(1), "bestmove took {:?}", t.elapsed());
    assert!(!v.last().unwrap().contains("(none)"));
    // Exactly one bestmove.
    e.send("stop");
    e.send("isready");
    let v = e.until(|l| l == "readyok");
    assert!(!v.iter().any(|l| l.starts_with("bestmove")), "{v:?}");
}

/// `quit` and the end of input stop a search, which prints its bestmove.
/// Exactly one bestmove, status 0.
#[test]
fn quit_and_end_of_input_during_a_search() {
    for (go, quit, wait) in [("go infinite", true, 2), ("go", false, 5), ("go infinite", false, 5), ("go depth 2", false, 20)] {
        let mut e = Engine::start();
        e.send(go);
        std::thread::sleep(Duration::from_millis(150));
        if quit {
            e.send("quit");
        } else {
            e.stdin = None; // close
        }
        let s = e.wait_exit(Duration::from_secs(wait));
        assert!(s.success(), "{go}: {s:?}");
        let v = e.rest();
        assert_eq!(v.iter().filter(|l| l.starts_with("bestmove ")).count(), 1, "{go}, quit {quit}: {v:?}");
    }
}

/// `quit` stops a running perft too (the spec: exit at once): it says so,
/// prints no total, and the process exits with status 0.
#[test]
fn quit_stops_a_perft() {
    let mut e = Engine::start();
    e.send("go perft 50");
    e.send("isready");
    e.until(|l| l == "readyok");
    e.send("quit");
    let s = e.wait_exit(Duration::from_secs(5));
    assert!(s.success(), "{s:?}");
    let v = e.rest();
    assert_eq!(v, ["info string perft stopped"], "{v:?}");
}

/// Issue 26, defect 3: the end of the input is `quit` (as in Stockfish),
/// also for a job that would end by itself only after ages: a deep perft,
/// a search with a huge time, node or clock limit. It is stopped, prints
/// what it must (one `bestmove`, or `perft stopped`), and the process exits
/// with status 0 at once instead of running on at full CPU.
#[test]
fn end_of_input_ends_a_long_job() {
    for go in [
        "go perft 50",
        "go movetime 18446744073709551615",
        "go nodes 18446744073709551615",
        "go wtime 9223372036854775807",
        "go depth 200",
    ] {
        let mut e = Engine::start();
        e.send(go);
        e.send("isready");
        e.until(|l| l == "readyok");
        std::thread::sleep(Duration::from_millis(100));
        e.stdin = None; // end of input
        let s = e.wait_exit(Duration::from_secs(5));
        assert!(s.success(), "{go}: {s:?}");
        let v = e.rest();
        if go.contains("perft") {
            assert_eq!(v, ["info string perft stopped"], "{go}: {v:?}");
        } else {
            assert_eq!(v.iter().filter(|l| l.starts_with("bestmove ")).count(), 1, "{go}: {v:?}");
            assert!(!v.iter().any(|l| l.contains("(none)")), "{go}: {v:?}");
        }
    }
}

/// Issue 26, defect 2: `go perft 50`, `position startpos`, `stop`,
/// `isready` wedged the engine (`position` waited for the perft, so `stop`
/// was never read). A state-changing command now stops a perft first, as it
/// stops a search, and then does its work.
#[test]
fn a_state_changing_command_stops_a_perft() {
    for cmd in ["position startpos moves e2e3", "setoption name Hash value 8", "ucinewgame", "go depth 1"] {
        let mut e = Engine::start();
        e.send("go perft 50");
        e.send(cmd);
        e.send("stop");
        e.send("isready");
        let v = e.until(|l| l == "readyok");
        assert_eq!(v.iter().filter(|l| *l == "info string perft stopped").count(), 1, "{cmd}: {v:?}");
        assert!(!v.iter().any(|l| is_error(l)), "{cmd}: {v:?}");
        if cmd.starts_with("position") {
            assert_eq!(e.ask("query turn"), ["response p2"], "{cmd}");
        }
    }
}

/// Issue 26, defect 1: `Hash 512` then a variant switch held both tables
/// (the new one was built before the old one was dropped): over 1 GB, and
/// under an address-space limit a panic (`transposition table allocation`,
/// exit 101). The old table is freed first now, and a table that cannot be
/// had is an error line while the engine goes on.
#[test]
fn a_variant_switch_does_not_hold_two_hash_tables() {
    // 950 MiB of address space: one 512 MiB table fits, two do not.
    let mut e = Engine::start_limited(950 * 1024);
    assert!(e.ask("setoption name Hash value 512").is_empty());
    assert!(e.ask("setoption name UCI_Variant value quattuor").is_empty());
    assert!(e.ask("setoption name UCI_Variant value fourchess").is_empty());
    // A table the allocator refuses: an error, and the engine still plays.
    let v = e.ask("setoption name Hash value 2000");
    assert!(v.len() == 1 && is_error(&v[0]) && v[0].contains("Hash"), "{v:?}");
    assert!(e.ask("setoption name UCI_Variant value quadranj").is_empty());
    e.send("go depth 1");
    let v = e.until(|l| l.starts_with("bestmove"));
    assert!(!v.last().unwrap().contains("(none)"), "{v:?}");
    assert!(e.child.try_wait().unwrap().is_none(), "the engine exited");
}

#[test]
fn eof_exits_zero() {
    let mut e = Engine::start();
    e.send("isready");
    assert_eq!(e.recv(T).unwrap(), "readyok");
    e.stdin = None; // close
    let s = e.wait_exit(Duration::from_secs(5));
    assert!(s.success(), "{s:?}");
}

#[test]
fn go_perft_divide() {
    let mut e = Engine::start();
    e.send("go perft 2");
    let v = e.until(|l| l.starts_with("Nodes searched: "));
    assert_eq!(v.len(), 14, "{v:?}");
    assert_eq!(v[12], "");
    assert_eq!(v[13], "Nodes searched: 144");
    let rows: Vec<&str> = v[..12].iter().map(String::as_str).collect();
    let mut sorted = rows.clone();
    sorted.sort();
    assert_eq!(rows, sorted);
    for r in &rows {
        assert!(r.ends_with(": 12"), "{r}");
    }
    e.send("go perft 3");
    let v = e.until(|l| l.starts_with("Nodes searched: "));
    assert_eq!(v.last().unwrap(), "Nodes searched: 1728");
}

#[test]
fn setoption_errors_and_success() {
    let mut e = Engine::start();
    for l in [
        "setoption name Hash value 0",
        "setoption name Hash value x",
        "setoption name Threads",
        "setoption name Nonsense value 3",
        "setoption name UCI_Variant value chess",
        "setoption name FC_Layout value C",
        "setoption name FC_NoProgressPlies value 10001",
        "setoption name FC_RepetitionDraw value maybe",
        "setoption name Strategy value maxn",
        // More than the machine has: refused before any allocation.
        "setoption name Hash value 65536",
    ] {
        let v = e.ask(l);
        assert_eq!(v.len(), 1, "{l}: {v:?}");
        assert!(is_error(&v[0]), "{l}: {v:?}");
    }
    for l in [
        "setoption name hash value 8",
        "setoption name Move Overhead value 50",
        "setoption name Clear Hash",
        "setoption name UCI_Variant value fourchess",
        "setoption name fc_layout value B",
    ] {
        assert!(e.ask(l).is_empty(), "{l}");
    }
    e.ask("position startpos");
    let d = e.ask("d");
    assert!(d.iter().any(|l| l.starts_with("Position: ") && l.contains("wRwNwBwQwKwBwNwR w - 0 1")), "{d:?}");
}

#[test]
fn queries() {
    let mut e = Engine::start();
    assert_eq!(e.one("query gameover"), "response false");
    assert_eq!(e.one("query result"), "response none");
    assert_eq!(e.one("query turn"), "response p1");
    // fourchess.md E5b: a stalemate draw.
    e.ask("position fen yK6bR/yPyP6/8/14/14/14/13rK/bK13/14/14/14/1rQ6/8/wK7 w y 0 1");
    assert_eq!(e.one("query gameover"), "response true");
    assert_eq!(e.one("query result"), "response draw stalemate");
    assert_eq!(e.one("moves"), "moves");
    e.send("go depth 3");
    assert_eq!(e.until(|l| l.starts_with("bestmove")).last().unwrap(), "bestmove (none)");
    assert!(is_error(&e.one("query nothing")));
}

#[test]
fn eval_prints_terms_and_total() {
    let mut e = Engine::start();
    let v = e.ask("eval");
    assert!(v.len() >= 2, "{v:?}");
    assert!(v.last().unwrap().starts_with("Total: "), "{v:?}");
}

#[test]
fn state_change_during_search_stops_it() {
    let mut e = Engine::start();
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    e.send("position startpos moves e2e3");
    e.send("query turn");
    let v = e.until(|l| l.starts_with("response"));
    assert_eq!(v.iter().filter(|l| l.starts_with("bestmove ")).count(), 1, "{v:?}");
    assert_eq!(v.last().unwrap(), "response p2");
}

fn cli(args: &[&str]) -> (bool, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_tetrarch")).args(args).output().expect("run tetrarch");
    (o.status.success(), String::from_utf8_lossy(&o.stdout).into_owned())
}

#[test]
fn cli_perft() {
    let (ok, s) = cli(&["perft", "fourchess", "3"]);
    assert!(ok, "{s}");
    assert!(s.lines().any(|l| l == "Nodes searched: 1728"), "{s}");
    assert!(s.contains("Nodes/second: "), "{s}");
    let (ok, s) = cli(&["perft", "fourchess", "3", "--bulk", "--divide"]);
    assert!(ok, "{s}");
    assert!(s.lines().any(|l| l == "e2e3: 144"), "{s}");
    assert!(s.lines().any(|l| l == "Nodes searched: 1728"), "{s}");
    // After two turns: bulk and plain counts agree, and agree with `go perft`.
    let total = |s: &str| s.lines().find(|l| l.starts_with("Nodes searched: ")).map(str::to_owned);
    let (ok1, a) = cli(&["perft", "fourchess", "3", "--moves", "e2e3", "b5c5"]);
    let (ok2, b) = cli(&["perft", "fourchess", "3", "--bulk", "--moves", "e2e3", "b5c5"]);
    assert!(ok1 && ok2 && total(&a).is_some() && total(&a) == total(&b), "{a}\n{b}");
    let mut e = Engine::start();
    e.ask("position startpos moves e2e3 b5c5");
    e.send("go perft 3");
    assert_eq!(e.until(|l| l.starts_with("Nodes searched: ")).last().cloned(), total(&a));
    let (ok, s) = cli(&["perft", "fourchess", "1", "--fen", "8/8/8/4bR9/14/14/4wB8rK/bK13/14/4yK9/14/8/8/3wK4 w - 0 1"]);
    assert!(ok && s.lines().any(|l| l == "Nodes searched: 5"), "{s}");
    let (ok, _) = cli(&["perft", "nochess", "1"]);
    assert!(!ok);
    let (ok, _) = cli(&["perft", "fourchess", "2", "--moves", "e2e5"]);
    assert!(!ok);
}

#[test]
fn cli_help() {
    for args in [&["--help"][..], &["perft", "--help"], &["bench", "--help"]] {
        let (ok, s) = cli(args);
        assert!(ok && s.contains("Usage"), "{args:?}: {s}");
    }
}

#[test]
fn cli_bench() {
    let (ok, s) = cli(&["bench", "--depth", "2"]);
    assert!(ok, "{s}");
    let last = s.lines().last().unwrap();
    let w: Vec<&str> = last.split(' ').collect();
    assert_eq!(w.len(), 4, "{last}");
    assert!(w[0].parse::<u64>().unwrap() > 0 && w[1] == "nodes" && w[2].parse::<u64>().is_ok() && w[3] == "nps", "{last}");
    // Deterministic.
    let (_, s2) = cli(&["bench", "--depth", "2"]);
    assert_eq!(s2.lines().last().unwrap().split(' ').next(), Some(w[0]));
}

#[test]
fn bench_command() {
    let mut e = Engine::start();
    e.send("bench depth 1");
    let v = e.until(|l| l.ends_with(" nps"));
    assert!(v.last().unwrap().contains(" nodes "), "{v:?}");
}

/// Quadranj §6.7 through `position … moves`: Red shuffles between two
/// arrangements while Blue keeps making new ones; Red's third recording of
/// the same arrangement loses (`arrangement`), and a later turn is refused.
#[test]
fn quadranj_arrangement_repetition_loses() {
    let mut e = Engine::start();
    e.ask("setoption name UCI_Variant value quadranj");
    let start = "position fen bK7/8/8/3bG4/3rG4/8/8/rK7 r 0 - rb 0/0 -/- 0 1 moves";
    let turns = "a1b1,d4c4 a8b8,d5e5 b1a1,c4d4 b8a8,e5f5 a1b1,d4c4 a8b8,f5g5 b1a1,c4d4 b8a8,g5h5 a1b1,d4c4 a8b8,h5h6";
    assert!(e.ask(&format!("{start} {turns}")).is_empty());
    assert_eq!(e.one("query result"), "response none");
    assert!(e.ask(&format!("{start} {turns} b1a1,c4d4")).is_empty());
    assert_eq!(e.one("query result"), "response win 2 arrangement");
    e.send("go depth 2");
    assert_eq!(e.until(|l| l.starts_with("bestmove")).last().unwrap(), "bestmove (none)");
    let before = e.ask("d");
    let l = e.one(&format!("{start} {turns} b1a1,c4d4 b8a8,h6h7"));
    assert!(is_error(&l) && l.contains("turn 12") && l.contains("game is over"), "{l}");
    assert_eq!(e.ask("d"), before);
    // The engine, to move with the losing shuffle available, plays another turn.
    assert!(e.ask(&format!("{start} {turns}")).is_empty());
    e.send("go depth 2");
    let best = e.until(|l| l.starts_with("bestmove")).last().unwrap().clone();
    let tok = best.strip_prefix("bestmove ").unwrap().to_string();
    assert!(e.ask(&format!("{start} {turns} {tok}")).is_empty(), "{tok}");
    assert_eq!(e.one("query result"), "response none", "{tok}");
}

#[test]
fn repetition_ends_the_game_and_later_turns_are_illegal() {
    let mut e = Engine::start();
    let round = "e1f3 a5c6 e14f12 n5l6 f3e1 c6a5 f12e14 l6n5";
    assert!(e.ask(&format!("position startpos moves {round} {round}")).is_empty());
    assert_eq!(e.one("query gameover"), "response true");
    assert_eq!(e.one("query result"), "response draw repetition");
    e.send("go depth 3");
    assert_eq!(e.until(|l| l.starts_with("bestmove")).last().unwrap(), "bestmove (none)");
    let before = e.ask("d");
    let l = e.one(&format!("position startpos moves {round} {round} e1f3"));
    assert!(is_error(&l) && l.contains("turn 17") && l.contains("`e1f3`") && l.contains("repetition"), "{l}");
    assert_eq!(e.ask("d"), before);
    // Without the rule the game goes on.
    e.ask("setoption name FC_RepetitionDraw value false");
    assert_eq!(e.one("query gameover"), "response false");
    assert!(e.ask(&format!("position startpos moves {round} {round} e1f3")).is_empty());
}

#[test]
fn teamchess_fen4_clock_letters_and_dialect() {
    let mut e = Engine::start();
    e.ask("setoption name UCI_Variant value teamchess");
    let d = e.ask("d");
    assert!(d.iter().any(|l| l.starts_with("FEN4: R-0,0,0,0-")), "{d:?}");
    e.send("go perft 2");
    assert_eq!(e.until(|l| l.starts_with("Nodes searched")).last().unwrap(), "Nodes searched: 395");
    e.send("go rtime 500 btime 500 ytime 500 gtime 500 rinc 5 ginc 5");
    let v = e.until(|l| l.starts_with("bestmove"));
    assert!(!v.last().unwrap().contains("(none)"), "{v:?}");
    // The 4pchess dialect: accepted on input, printed with Notation=fen4.
    e.ask("setoption name Notation value fen4");
    assert!(e.ask("position startpos moves h2-h4").is_empty());
    e.send("go depth 2");
    let v = e.until(|l| l.starts_with("bestmove"));
    assert!(v.last().unwrap().split(' ').nth(1).unwrap().contains('-'), "{v:?}");
}

#[test]
fn teamchess_record_is_pgn4_and_reads_back() {
    let mut e = Engine::start();
    e.ask("setoption name UCI_Variant value teamchess");
    e.ask("position startpos moves h2h4 b8c8 h13h11 m8l8");
    let text = e.ask("record");
    assert!(text.iter().any(|l| l == "[Variant \"Teams\"]"), "{text:?}");
    assert!(text.iter().any(|l| l == "1. h2-h4 .. b8-c8 .. h13-h11 .. m8-l8+"), "{text:?}");
    let path = std::env::temp_dir().join(format!("tetrarch-record-{}.pgn4", std::process::id()));
    std::fs::write(&path, text.join("\n")).unwrap();
    let (ok, out) = cli(&["record", "teamchess", path.to_str().unwrap()]);
    assert!(ok, "{out}");
    assert!(out.trim_end().ends_with(" moves h2h4 b8c8 h13h11 m8l8"), "{out}");
    // The printed command replays the game.
    assert!(e.ask(out.trim_end()).is_empty());
    // fourchess has no record format: an error, nothing changes.
    e.ask("setoption name UCI_Variant value fourchess");
    let v = e.ask("record");
    assert!(v.len() == 1 && is_error(&v[0]), "{v:?}");
    let (ok, _) = cli(&["record", "fourchess", path.to_str().unwrap()]);
    assert!(!ok);
    let _ = std::fs::remove_file(path);
}

const QR_RED: &str = "d7@m3,d8@c6,d9@j5,dT@p5,dJ@m5,dQ@g6,dK@d4,dA@j3,h7@e3,h8@n6,h9@h5,hT@b5,hJ@e5,hQ@j6,hK@m4,hA@h3";
const QR_BLACK: &str =
    "c7@e13,c8@n10,c9@h11,cT@b11,cJ@e11,cQ@j10,cK@m12,cA@h13,s7@m13,s8@c10,s9@j11,sT@p11,sJ@m11,sQ@g10,sK@d12,sA@j13";

#[test]
fn quattuor_setup_turns_and_errors() {
    let mut e = Engine::start();
    e.ask("setoption name UCI_Variant value quattuor");
    let start = e.ask("d");
    // The default set-ups given explicitly are the start position.
    assert!(e.ask(&format!("position setup {QR_RED} {QR_BLACK}")).is_empty());
    assert_eq!(e.ask("d"), start);
    // go setup answers a legal set-up for the seat asked, without moving.
    for seat in ["", " seat 1", " seat 2"] {
        let v = e.ask(&format!("go setup{seat}"));
        assert_eq!(v.len(), 1, "{v:?}");
        let tok = v[0].strip_prefix("bestsetup ").expect("bestsetup");
        assert_eq!(tok.split(',').count(), 16, "{tok}");
        let cmd =
            if seat == " seat 2" { format!("position setup {QR_RED} {tok}") } else { format!("position setup {tok} {QR_BLACK}") };
        assert!(e.ask(&cmd).is_empty(), "{cmd}");
    }
    e.ask("position startpos");
    assert_eq!(e.ask("d"), start);
    // Malformed set-up tokens: one error naming the side, nothing changed.
    for bad in [
        format!("position setup {} {QR_BLACK}", QR_RED.replace("d7@m3,", "")),
        format!("position setup {} {QR_BLACK}", QR_RED.replace("d8@c6", "d8@m3")),
        format!("position setup {} {QR_BLACK}", QR_RED.replace("d8@c6", "d8@c8")),
        format!("position setup {} {QR_BLACK}", QR_RED.replace("d7@m3,d8@c6", "d8@c6,d7@m3")),
        format!("position setup {QR_RED}"),
        format!("position setup {QR_RED} {QR_RED}"),
    ] {
        let v = e.ask(&bad);
        assert!(v.len() == 1 && is_error(&v[0]), "{bad}: {v:?}");
        assert_eq!(e.ask("d"), start, "{bad}");
    }
    // Red's first turn has one action; a second action is illegal.
    let v = e.ask("position startpos moves g6f8,j6j7");
    assert!(v.len() == 1 && is_error(&v[0]) && v[0].contains("turn 1"), "{v:?}");
    assert!(e.ask("position startpos moves g6f8 0000").is_empty());
    e.send("go depth 2");
    let v = e.until(|l| l.starts_with("bestmove"));
    let tok = v.last().unwrap().split(' ').nth(1).unwrap().to_string();
    assert!(e.ask(&format!("position startpos moves g6f8 0000 {tok}")).is_empty(), "{tok}");
    let r = e.ask("query turn");
    assert_eq!(r, ["response p2"]);
}

#[test]
fn queenskings_duel_and_free_for_all() {
    let mut e = Engine::start();
    e.ask("setoption name UCI_Variant value queenskings9-duel");
    // §11 example 1: the capture is compulsory.
    e.ask("position fen 13/13/4nm8/13/13/13/13/3nm9/2sm10/1nm11/13/13/10sm2 s sn 0 1");
    assert_eq!(e.ask("moves"), ["moves c5xe7"]);
    let v = e.ask("position fen 13/13/4nm8/13/13/13/13/3nm9/2sm10/1nm11/13/13/10sm2 s sn 0 1 moves k1l2");
    assert!(v.len() == 1 && is_error(&v[0]) && v[0].contains("k1l2"), "{v:?}");
    // §11 example 8: the last piece taken ends the game.
    e.ask("position fen 13/13/13/13/13/13/13/3nm9/2sm10/13/13/13/13 s sn 0 1 moves c5xe7");
    assert_eq!(e.ask("query result"), ["response win 1 elimination"]);
    e.send("go depth 3");
    assert_eq!(e.until(|l| l.starts_with("bestmove")).last().unwrap(), "bestmove (none)");
    // Free-for-all: a search answers with a legal move.
    e.ask("setoption name UCI_Variant value queenskings9");
    e.send("go depth 3");
    let v = e.until(|l| l.starts_with("bestmove"));
    let tok = v.last().unwrap().split(' ').nth(1).unwrap().to_string();
    assert!(e.ask(&format!("position startpos moves {tok}")).is_empty());
    assert_eq!(e.ask("query turn"), ["response p2"]);
    e.send("go perft 2");
    assert_eq!(e.until(|l| l.starts_with("Nodes searched")).last().unwrap(), "Nodes searched: 82");
    // A light square is not a square of the board.
    let v = e.ask("position startpos moves c1d1");
    assert!(v.len() == 1 && is_error(&v[0]), "{v:?}");
}

#[test]
fn cli_match_is_wired() {
    let (ok, out) = cli(&["match", "--help"]);
    assert!(ok && out.contains("--variant"), "{out}");
    // Bad input: a clear error and exit code 2 before any game.
    let o = Command::new(env!("CARGO_BIN_EXE_tetrarch")).args(["match", "--variant", "chess"]).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    // A real two-game match between two copies of this binary.
    let exe = env!("CARGO_BIN_EXE_tetrarch");
    let (ok, out) = cli(&[
        "match",
        "--variant",
        "queenskings9-duel",
        "--games",
        "2",
        "--seed",
        "7",
        "--engine",
        &format!("cmd={exe}"),
        "name=A",
        "depth=1",
        "--engine",
        &format!("cmd={exe}"),
        "name=B",
        "depth=1",
    ]);
    assert!(ok, "{out}");
    assert!(out.contains("Results of A vs B (2 games)"), "{out}");
}

#[test]
fn quadranj_perft_burglar_setup_and_search() {
    let mut e = Engine::start();
    e.ask("setoption name UCI_Variant value quadranj");
    e.send("go perft 1 actions");
    assert_eq!(e.until(|l| l.starts_with("Nodes searched")).last().unwrap(), "Nodes searched: 134");
    e.send("go perft 1");
    assert_eq!(e.until(|l| l.starts_with("Nodes searched")).last().unwrap(), "Nodes searched: 9076");
    let start = e.ask("d");
    // go setup proposes a burglar for the seat asked; position setup takes
    // one token per seat (`?` for an unknown one).
    let red = e.ask("go setup");
    let tok = red[0].strip_prefix("bestsetup ").expect("bestsetup").to_string();
    assert!(tok.contains(':'), "{tok}");
    assert!(e.ask(&format!("position setup {tok} ?")).is_empty());
    assert_ne!(e.ask("d"), start, "the burglar is part of the position");
    for bad in ["position setup h8:1 ?", "position setup d3:9 ?", "position setup ?", "position setup x ?"] {
        let before = e.ask("d");
        let v = e.ask(bad);
        assert!(v.len() == 1 && is_error(&v[0]), "{bad}: {v:?}");
        assert_eq!(e.ask("d"), before, "{bad}");
    }
    e.ask("position startpos");
    e.send("go depth 2");
    let v = e.until(|l| l.starts_with("bestmove"));
    let tok = v.last().unwrap().split(' ').nth(1).unwrap().to_string();
    assert!(tok.contains(','), "a turn of two actions: {tok}");
    assert!(e.ask(&format!("position startpos moves {tok}")).is_empty());
    assert_eq!(e.ask("query turn"), ["response p2"]);
}

#[test]
fn setup_seed_makes_go_setup_reproducible() {
    let mut e = Engine::start();
    e.ask("setoption name UCI_Variant value quattuor");
    let opts = e.ask("uci");
    assert!(opts.iter().any(|l| l.starts_with("option name SetupSeed type spin")), "{opts:?}");
    e.ask("setoption name SetupSeed value 42");
    let a = (e.ask("go setup"), e.ask("go setup"));
    assert_ne!(a.0, a.1, "proposals vary between calls");
    e.ask("ucinewgame");
    let b = (e.ask("go setup"), e.ask("go setup"));
    assert_eq!(a, b, "the same seed gives the same proposals");
    // Setting the seed restarts the proposals and leaves the position alone.
    e.ask("position startpos moves 0000");
    let before = e.ask("d");
    e.ask("setoption name SetupSeed value 42");
    assert_eq!(e.ask("d"), before);
    assert_eq!((e.ask("go setup"), e.ask("go setup")), a);
    // Only games with a choice before play know the option.
    e.ask("setoption name UCI_Variant value fourchess");
    let v = e.ask("setoption name SetupSeed value 1");
    assert!(v.len() == 1 && is_error(&v[0]), "{v:?}");
}

#[test]
fn stop_and_state_changing_commands_end_a_perft() {
    let mut e = Engine::start();
    e.send("go perft 9");
    // Answered while the perft runs.
    e.send("isready");
    e.until(|l| l == "readyok");
    let t = std::time::Instant::now();
    e.send("stop");
    let v = e.until(|l| l.starts_with("info string perft stopped"));
    assert!(t.elapsed() < std::time::Duration::from_secs(2), "{v:?}");
    // A command that changes the position stops a perft first.
    e.send("go perft 9");
    e.send("position startpos moves e2e3");
    e.send("isready");
    let v = e.until(|l| l == "readyok");
    assert!(v.iter().any(|l| l == "info string perft stopped"), "{v:?}");
    e.send("go perft 1");
    let v = e.until(|l| l.starts_with("Nodes searched"));
    assert_eq!(v.last().unwrap(), "Nodes searched: 12");
}

/// The words of a line.
fn words(l: &str) -> Vec<&str> {
    l.split_whitespace().collect()
}

/// The answer to `query …`: cutegames reads the first line of exactly two
/// words starting with `response` and waits for ever if none comes.
fn ugi_query(e: &mut Engine, q: &str) -> String {
    e.send(q);
    let l = e.until(|l| l.starts_with("response") || is_error(l)).pop().unwrap();
    let w = words(&l);
    assert_eq!((w.len(), w[0]), (2, "response"), "{q}: {l}");
    w[1].to_string()
}

/// One game driven exactly as cutegames (kz04px/cutegames, `play_game` with
/// `askturn`) drives a UGI engine: `ugi`, options, `isready`, `uginewgame`,
/// then every turn `position` + `query p1turn`, `isready`, `position` +
/// `query gameover`, `go p1time … p2time … p1inc … p2inc …` (or `go_args`)
/// answered by a `bestmove` of exactly two words; at the end `query result`
/// (and `query reason`). Returns the turns and the result word.
fn cutegames_game(e: &mut Engine, options: &[&str], go_args: &str) -> (Vec<String>, String, String) {
    e.send("ugi");
    let v = e.until(|l| l == "ugiok");
    assert!(v.iter().all(|l| l.starts_with("id ") || l.starts_with("option name ") || l == "ugiok"), "{v:?}");
    for o in options {
        e.send(o);
    }
    e.send("isready");
    let v = e.until(|l| l == "readyok");
    assert_eq!(v, vec!["readyok"], "the options are accepted");
    e.send("isready");
    e.until(|l| l == "readyok");
    e.send("uginewgame");
    e.send("position startpos");
    assert_eq!(ugi_query(e, "query p1turn"), "true");
    let mut turns: Vec<String> = Vec::new();
    let mut p1 = true;
    let position = |turns: &[String]| {
        if turns.is_empty() {
            "position startpos".to_string()
        } else {
            format!("position startpos moves {}", turns.join(" "))
        }
    };
    loop {
        e.send(&position(&turns));
        let is_p1 = ugi_query(e, "query p1turn") == "true";
        assert_eq!(is_p1, p1, "turns alternate in a 2-seat game");
        e.send("isready");
        e.until(|l| l == "readyok");
        e.send(&position(&turns));
        if ugi_query(e, "query gameover") == "true" {
            break;
        }
        e.send(&format!("go {go_args}"));
        let v = e.until(|l| l.starts_with("bestmove") || is_error(l));
        let w = words(v.last().unwrap());
        assert_eq!(w.len(), 2, "cutegames ignores a bestmove line of other than two words: {v:?}");
        assert_eq!(w[0], "bestmove", "{v:?}");
        assert_ne!(w[1], "(none)", "the game is not over: {v:?}");
        turns.push(w[1].to_string());
        p1 = !p1;
        assert!(turns.len() <= 200, "the game never ended");
    }
    e.send(&position(&turns));
    let result = ugi_query(e, "query result");
    let reason = ugi_query(e, "query reason");
    (turns, result, reason)
}

#[test]
fn cutegames_transcript_plays_a_game_to_its_result() {
    // Queens & Kings duel on 13x13 to a turn cap of 8, clocks as cutegames
    // sends them: a whole game, every answer in the two words it reads.
    let mut e = Engine::start_with(&["--variant", "queenskings9-duel"], &[]);
    let (turns, result, reason) = cutegames_game(
        &mut e,
        &["setoption name Hash value 8", "setoption name TurnCap value 8"],
        "p1time 2000 p2time 2000 p1inc 20 p2inc 20",
    );
    assert_eq!(turns.len(), 8, "{turns:?}");
    assert_eq!((result.as_str(), reason.as_str()), ("draw", "turncap"));
    // The same game under `uci`: the full form, `ponder` allowed again.
    e.send("uci");
    e.until(|l| l == "uciok");
    assert_eq!(e.one("query result"), "response draw turncap");
    // A game the rules end, in Quattuor Reges at depth 1 (its start has no
    // draw rule; a cap keeps the test short either way).
    let mut e = Engine::start_with(&["--variant", "quattuor"], &[]);
    let (turns, result, reason) = cutegames_game(&mut e, &["setoption name TurnCap value 40"], "depth 1");
    assert!(!turns.is_empty() && turns.len() <= 40, "{turns:?}");
    assert!(["p1win", "p2win", "draw"].contains(&result.as_str()), "{result}");
    assert_eq!(reason == "turncap", turns.len() == 40 && result == "draw", "{result} {reason} after {} turns", turns.len());
    e.send("quit");
    assert!(e.wait_exit(T).success());
}

#[test]
fn start_up_variant_from_the_command_line_or_the_environment() {
    let default_of = |e: &mut Engine| {
        e.send("uci");
        let v = e.until(|l| l == "uciok");
        let l = v.iter().find(|l| l.starts_with("option name UCI_Variant")).unwrap().clone();
        words(&l)[6].to_string()
    };
    let mut e = Engine::start_with(&["--variant", "teamchess"], &[]);
    assert_eq!(default_of(&mut e), "teamchess");
    // A 4pchess-style tool: no UCI_Variant, the dialect's notation and clocks.
    e.ask("setoption name Notation value fen4");
    assert!(e.ask("position startpos moves h2-h3").is_empty());
    assert_eq!(e.one("query turn"), "response p2");
    e.send("go rtime 1000 btime 1000 ytime 1000 gtime 1000 rinc 10 binc 10 yinc 10 ginc 10");
    let v = e.until(|l| l.starts_with("bestmove"));
    assert!(words(v.last().unwrap())[1].contains('-'), "{v:?}");
    // The environment variable, any case; the flag wins over it.
    let mut e = Engine::start_with(&[], &[("TETRARCH_VARIANT", "Quattuor")]);
    assert_eq!(default_of(&mut e), "quattuor");
    assert!(e.one("query turn").starts_with("response p"));
    let mut e = Engine::start_with(&["--variant", "quadranj"], &[("TETRARCH_VARIANT", "quattuor")]);
    assert_eq!(default_of(&mut e), "quadranj");
    // An empty variable is no choice.
    let mut e = Engine::start_with(&[], &[("TETRARCH_VARIANT", "")]);
    assert_eq!(default_of(&mut e), "fourchess");
    // Unknown: an error at start, listing the variants, before any protocol.
    for (args, env) in [(&["--variant", "chess"][..], &[][..]), (&[][..], &[("TETRARCH_VARIANT", "chess")][..])] {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_tetrarch"));
        cmd.args(args).env_remove("TETRARCH_VARIANT").stdin(Stdio::null());
        for (k, v) in env {
            cmd.env(k, v);
        }
        let o = cmd.output().unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?} {env:?}");
        assert!(o.stdout.is_empty());
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains("unknown variant `chess`") && err.contains("teamchess") && err.contains("quadranj4"), "{err}");
    }
    // Sub-commands take their own --variant.
    let o = Command::new(env!("CARGO_BIN_EXE_tetrarch")).args(["--variant", "quattuor", "bench"]).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("sub-command"));
}
