//! `tetrarch gui` as a process: the address it prints carries an access
//! token, and the server survives clients that would exhaust its threads
//! and file descriptors (issue 26).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

struct Server {
    child: Child,
    url: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `tetrarch gui --port 0 ARGS`, under the shell limits `ulimits` (e.g.
/// `ulimit -n 40;`).
fn start(ulimits: &str, args: &str) -> Server {
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!("{ulimits} exec \"$0\" gui --port 0 {args}"))
        .arg(env!("CARGO_BIN_EXE_tetrarch"))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start tetrarch gui");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    Server { child, url: line.trim().to_string() }
}

fn addr(url: &str) -> String {
    url.trim_start_matches("http://").split('/').next().unwrap().to_string()
}

/// One GET request; the status, or 0 when the connection gave no answer.
fn get(addr: &str, path: &str, extra: &str) -> u16 {
    let Ok(mut s) = TcpStream::connect(addr) else { return 0 };
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    let _ = s.write_all(format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\n{extra}\r\n").as_bytes());
    let mut out = String::new();
    let _ = s.read_to_string(&mut out);
    out.split(' ').nth(1).and_then(|c| c.parse().ok()).unwrap_or(0)
}

/// Issue 26, defect 9: the printed address carries a random token (as
/// Jupyter's does) and requests without it are refused; `--no-token` opts
/// out.
#[test]
fn the_printed_address_carries_the_token() {
    let s = start("", "");
    let (base, token) = s.url.split_once("/?token=").unwrap_or_else(|| panic!("no token in {:?}", s.url));
    assert!(token.len() == 32 && token.bytes().all(|b| b.is_ascii_hexdigit()), "{token}");
    let a = addr(base);
    assert_eq!(get(&a, "/api/state", ""), 403);
    assert_eq!(get(&a, "/", ""), 403);
    assert_eq!(get(&a, "/api/state?token=0000", ""), 403);
    assert_eq!(get(&a, &format!("/?token={token}"), ""), 200);
    assert_eq!(get(&a, "/api/state", &format!("Authorization: token {token}\r\n")), 200);
    let p = a.rsplit(':').next().unwrap();
    assert_eq!(get(&a, "/api/state", &format!("Cookie: tetrarch_token_{p}={token}\r\n")), 200);
    // Another server has another token.
    let s2 = start("", "");
    assert_ne!(s2.url.split_once("?token=").unwrap().1, token);
    let open = start("", "--no-token");
    assert!(!open.url.contains("token"), "{}", open.url);
    assert_eq!(get(&addr(&open.url), "/api/state", ""), 200);
}

/// CPU time (user + system, clock ticks) of a process.
fn cpu_ticks(pid: u32) -> u64 {
    let st = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let f: Vec<&str> = st.rsplit(')').next().unwrap_or("").split_whitespace().collect();
    f.get(11).and_then(|u| u.parse::<u64>().ok()).unwrap_or(0) + f.get(12).and_then(|s| s.parse::<u64>().ok()).unwrap_or(0)
}

/// Issue 26, defect 5: one thread per connection, no cap: a failed thread
/// start panicked and killed the server (75 idle connections under `ulimit
/// -v 400000`), and a failed `accept` (no file descriptors left) spun at
/// full CPU. Now a fixed pool answers, and `accept` backs off.
#[test]
fn idle_connections_neither_kill_the_server_nor_make_it_spin() {
    let s = start("ulimit -v 400000; ulimit -n 48;", "--no-token");
    let a = addr(&s.url);
    assert_eq!(get(&a, "/api/state", ""), 200);
    // More idle connections than the server has file descriptors.
    let idle: Vec<TcpStream> = (0..90).filter_map(|_| TcpStream::connect(&a).ok()).collect();
    std::thread::sleep(Duration::from_millis(300));
    let pid = s.child.id();
    let t0 = cpu_ticks(pid);
    let w = Instant::now();
    std::thread::sleep(Duration::from_millis(1500));
    let used = cpu_ticks(pid) - t0;
    let wall = w.elapsed();
    assert!(s.child.id() == pid && std::fs::metadata(format!("/proc/{pid}")).is_ok());
    // Spinning would be about 150 ticks (one core for 1.5 s).
    assert!(used < 40, "the server used {used} ticks of CPU in {wall:?} while out of file descriptors");
    drop(idle);
    // Once the clients are gone the server answers again.
    let deadline = Instant::now() + Duration::from_secs(15);
    let mut last = 0;
    while Instant::now() < deadline {
        last = get(&a, "/api/state", "");
        if last == 200 {
            break;
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    assert_eq!(last, 200, "the server did not recover");
}
