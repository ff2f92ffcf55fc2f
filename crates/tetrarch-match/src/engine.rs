//! An engine process: spawned from its configuration, talked to through a
//! writer thread (so a process that stops reading never blocks the runner)
//! and a reader thread that time-stamps every line it prints.
//!
//! Bounds: a line is at most [`MAX_LINE`] bytes (past it the reader stops
//! and reports [`Event::TooLong`]: the engine forfeits), and at most
//! [`QUEUE`] lines wait for the runner (the reader then waits, and so does
//! the engine writing), so an engine cannot grow the runner's memory.
//!
//! On Unix each engine runs in its own process group, and ending it kills
//! the whole group: an engine started through a shell script without
//! `exec`, or one that starts helpers, leaves nothing behind. The same
//! holds when the runner itself is interrupted
//! ([`crate::os::stop_engines_on_signals`]). The system calls are in
//! [`crate::os`]; elsewhere an engine is one process.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, SyncSender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::engine_config::EngineConfig;
use crate::os::{kill_group, own_process_group, register_group};

/// Why the log (`--log`) cannot be written.
#[derive(Debug, thiserror::Error)]
#[error("cannot create log {}: {source}", path.display())]
pub struct LogError {
    /// The file.
    pub path: std::path::PathBuf,
    /// What failed.
    pub source: std::io::Error,
}

/// Why an engine process did not start ([`EngineProc::spawn`]).
#[derive(Debug, thiserror::Error)]
pub enum EngineStartError {
    /// The program cannot be run.
    #[error("cannot start engine {name} (`{cmd}`): {source}")]
    Program {
        /// The engine's name.
        name: String,
        /// The program.
        cmd: String,
        /// What failed.
        source: std::io::Error,
    },
    /// The runner's thread that reads (`reader`) or writes (`writer`) the
    /// engine's lines.
    #[error("cannot start a {which} thread: {source}")]
    Thread {
        /// `reader` or `writer`.
        which: &'static str,
        /// What failed.
        source: std::io::Error,
    },
}

/// Why an engine failed its handshake (`uci` … `uciok`, options,
/// `isready` … `readyok`); `label` is the engine's `name#pid`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HandshakeError {
    /// No `uciok` in time.
    #[error("{label}: no uciok within {ms} ms")]
    NoUciOk {
        /// `name#pid`.
        label: String,
        /// The time it had.
        ms: u128,
    },
    /// The engine exited before `uciok`.
    #[error("{label}: the engine exited during the handshake")]
    ExitedInHandshake {
        /// `name#pid`.
        label: String,
    },
    /// No `readyok` in time.
    #[error("{label}: no readyok within {ms} ms")]
    NoReadyOk {
        /// `name#pid`.
        label: String,
        /// The time it had.
        ms: u128,
    },
    /// The engine exited (before `readyok`, or between games).
    #[error("{label}: the engine exited")]
    Exited {
        /// `name#pid`.
        label: String,
    },
    /// A line longer than [`MAX_LINE`].
    #[error("{label}: {}", WaitError::TooLong.reason(0))]
    TooLong {
        /// `name#pid`.
        label: String,
    },
    /// The engine refused the variant or an option (its `info string
    /// error` lines).
    #[error("{label}: {}", errors.join("; "))]
    Refused {
        /// `name#pid`.
        label: String,
        /// The lines.
        errors: Vec<String>,
    },
}

/// A shared log of every line to and from the engines (`--log`).
pub struct Log {
    file: Mutex<std::fs::File>,
    t0: Instant,
}

impl Log {
    /// A log writing to `path` (truncated).
    pub fn create(path: &std::path::Path) -> Result<Arc<Log>, LogError> {
        let file = std::fs::File::create(path).map_err(|source| LogError { path: path.to_path_buf(), source })?;
        Ok(Arc::new(Log { file: Mutex::new(file), t0: Instant::now() }))
    }
    fn line(&self, who: &str, dir: char, text: &str) {
        if let Ok(mut f) = self.file.lock() {
            let _ = writeln!(f, "{:>9} {who} {dir} {text}", self.t0.elapsed().as_millis());
        }
    }
}

/// The longest line an engine may print (1 MiB, line end included).
pub const MAX_LINE: usize = 1 << 20;

/// Lines read from an engine that may wait for the runner at once.
pub const QUEUE: usize = 256;

/// What the reader thread sends.
#[derive(Debug)]
pub enum Event {
    /// A line (without the line end) and when it arrived.
    Line(Instant, String),
    /// Standard output closed: the process ended.
    Eof,
    /// A line longer than [`MAX_LINE`]: nothing more is read.
    TooLong,
}

/// Why waiting for an answer failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WaitError {
    /// Nothing in time.
    Timeout,
    /// The process ended (or closed its output).
    Eof,
    /// The engine printed a line longer than [`MAX_LINE`].
    TooLong,
}

impl WaitError {
    /// The forfeit reason for an engine that failed this way while thinking.
    pub fn reason(&self, limit_ms: u64) -> String {
        match self {
            WaitError::Timeout => format!("time forfeit: no bestmove within {limit_ms} ms"),
            WaitError::Eof => "engine crashed (exited while thinking)".into(),
            WaitError::TooLong => format!("engine wrote a line longer than {} MiB", MAX_LINE >> 20),
        }
    }
}

/// One line read by [`read_line_capped`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineRead {
    /// A line (the last one of the input may lack its line end).
    Line,
    /// The end of the input, nothing read.
    Eof,
    /// More than `max` bytes without a line end; `buf` holds the first
    /// bytes, the rest of the line is still unread.
    TooLong,
}

/// Reads one line into `buf` (cleared first, line end kept), reading at
/// most `max` bytes of it: memory stays bounded whatever the input.
pub fn read_line_capped(r: &mut impl BufRead, buf: &mut Vec<u8>, max: usize) -> std::io::Result<LineRead> {
    buf.clear();
    loop {
        let avail = match r.fill_buf() {
            Ok(a) => a,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if avail.is_empty() {
            return Ok(if buf.is_empty() { LineRead::Eof } else { LineRead::Line });
        }
        let (take, done) = match avail.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (avail.len(), false),
        };
        if buf.len() + take > max {
            let room = max - buf.len();
            buf.extend_from_slice(&avail[..room]);
            r.consume(room);
            return Ok(LineRead::TooLong);
        }
        buf.extend_from_slice(&avail[..take]);
        r.consume(take);
        if done {
            return Ok(LineRead::Line);
        }
    }
}

/// A running engine.
pub struct EngineProc {
    child: Child,
    tx: Option<Sender<String>>,
    rx: Receiver<Event>,
    /// `name#pid`, for messages.
    pub label: String,
    log: Option<Arc<Log>>,
    /// Set once the process has ended or misbehaved: it is not used again.
    pub broken: bool,
    /// Its process group (its pid: on Unix it leads a group of its own).
    pgid: u32,
    /// The group was killed (never again: its id may be reused later).
    ended: bool,
    /// Games played by this process.
    pub games: u32,
}

impl EngineProc {
    /// Starts the program (no handshake yet).
    pub fn spawn(cfg: &EngineConfig, log: Option<Arc<Log>>) -> Result<EngineProc, EngineStartError> {
        let mut cmd = Command::new(&cfg.cmd);
        cmd.args(&cfg.args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null());
        // Its own process group (the group id is the child's pid), so that
        // ending the engine ends whatever it started too.
        own_process_group(&mut cmd);
        if let Some(d) = &cfg.dir {
            cmd.current_dir(d);
        }
        let mut child =
            cmd.spawn().map_err(|source| EngineStartError::Program { name: cfg.name.clone(), cmd: cfg.cmd.clone(), source })?;
        register_group(child.id());
        let label = format!("{}#{}", cfg.name, child.id());
        let stdout = child.stdout.take().expect("piped stdout");
        let mut stdin = child.stdin.take().expect("piped stdin");
        let (etx, rx): (SyncSender<Event>, _) = mpsc::sync_channel(QUEUE);
        let rlog = log.clone();
        let rlabel = label.clone();
        std::thread::Builder::new()
            .name(format!("read {label}"))
            .spawn(move || {
                let mut r = BufReader::new(stdout);
                let mut buf = Vec::new();
                loop {
                    match read_line_capped(&mut r, &mut buf, MAX_LINE) {
                        Ok(LineRead::Line) => {}
                        Ok(LineRead::TooLong) => {
                            if let Some(l) = &rlog {
                                l.line(&rlabel, '>', &format!("[a line longer than {MAX_LINE} bytes]"));
                            }
                            let _ = etx.send(Event::TooLong);
                            return;
                        }
                        Ok(LineRead::Eof) | Err(_) => break,
                    }
                    let now = Instant::now();
                    let s = String::from_utf8_lossy(&buf);
                    let s = s.trim_end_matches(['\n', '\r']).to_string();
                    if let Some(l) = &rlog {
                        l.line(&rlabel, '>', &s);
                    }
                    if etx.send(Event::Line(now, s)).is_err() {
                        break;
                    }
                }
                let _ = etx.send(Event::Eof);
            })
            .map_err(|source| EngineStartError::Thread { which: "reader", source })?;
        let (tx, wrx) = mpsc::channel::<String>();
        let wlog = log.clone();
        let wlabel = label.clone();
        std::thread::Builder::new()
            .name(format!("write {label}"))
            .spawn(move || {
                for line in wrx {
                    if let Some(l) = &wlog {
                        l.line(&wlabel, '<', &line);
                    }
                    if stdin.write_all(line.as_bytes()).and_then(|_| stdin.write_all(b"\n")).and_then(|_| stdin.flush()).is_err()
                    {
                        break; // the reader sees the end of the process
                    }
                }
            })
            .map_err(|source| EngineStartError::Thread { which: "writer", source })?;
        let pgid = child.id();
        Ok(EngineProc { child, tx: Some(tx), rx, label, log, broken: false, games: 0, pgid, ended: false })
    }

    /// Queues a line for the engine (never blocks).
    pub fn send(&mut self, line: &str) {
        if let Some(tx) = &self.tx {
            if tx.send(line.to_string()).is_err() {
                self.broken = true;
            }
        }
    }

    /// Waits for a line that `want` accepts, passing every line to `seen`
    /// first, until `deadline`.
    pub fn wait_for(
        &mut self,
        deadline: Instant,
        mut seen: impl FnMut(&str),
        want: impl Fn(&str) -> bool,
    ) -> Result<(Instant, String), WaitError> {
        loop {
            let now = Instant::now();
            let left = deadline.saturating_duration_since(now);
            match self.rx.recv_timeout(left) {
                Ok(Event::Line(t, l)) => {
                    seen(&l);
                    if want(&l) {
                        return Ok((t, l));
                    }
                }
                Ok(Event::Eof) | Err(RecvTimeoutError::Disconnected) => {
                    self.broken = true;
                    return Err(WaitError::Eof);
                }
                Ok(Event::TooLong) => {
                    self.broken = true;
                    return Err(WaitError::TooLong);
                }
                Err(RecvTimeoutError::Timeout) => return Err(WaitError::Timeout),
            }
        }
    }

    /// Drops the lines printed so far; `Err` if the process has ended.
    pub fn drain(&mut self) -> Result<(), WaitError> {
        loop {
            match self.rx.try_recv() {
                Ok(Event::Line(..)) => {}
                Ok(Event::Eof) | Err(mpsc::TryRecvError::Disconnected) => {
                    self.broken = true;
                    return Err(WaitError::Eof);
                }
                Ok(Event::TooLong) => {
                    self.broken = true;
                    return Err(WaitError::TooLong);
                }
                Err(mpsc::TryRecvError::Empty) => return Ok(()),
            }
        }
    }

    /// `isready` … `readyok` within `timeout`; returns the error lines
    /// (`info string error…`) printed in between.
    pub fn sync(&mut self, timeout: Duration) -> Result<Vec<String>, HandshakeError> {
        self.send("isready");
        let mut errors = Vec::new();
        match self.wait_for(
            Instant::now() + timeout,
            |l| {
                if l.starts_with("info string error") {
                    errors.push(l.to_string())
                }
            },
            |l| l.trim() == "readyok",
        ) {
            Ok(_) => Ok(errors),
            Err(WaitError::Timeout) => Err(HandshakeError::NoReadyOk { label: self.label.clone(), ms: timeout.as_millis() }),
            Err(WaitError::Eof) => Err(HandshakeError::Exited { label: self.label.clone() }),
            Err(WaitError::TooLong) => Err(HandshakeError::TooLong { label: self.label.clone() }),
        }
    }

    /// The handshake: `uci` … `uciok`, the variant, the options, `isready`.
    /// An option the engine rejects (an `info string error` line) is an error.
    /// A 4pchess-dialect engine (`send_variant` false) is not told the
    /// variant: it only plays teamchess.
    pub fn init(
        &mut self,
        variant: &str,
        options: &[(String, String)],
        send_variant: bool,
        timeout: Duration,
    ) -> Result<(), HandshakeError> {
        self.send("uci");
        let label = self.label.clone();
        match self.wait_for(Instant::now() + timeout, |_| {}, |l| l.trim() == "uciok") {
            Ok(_) => {}
            Err(WaitError::Timeout) => return Err(HandshakeError::NoUciOk { label, ms: timeout.as_millis() }),
            Err(WaitError::Eof) => return Err(HandshakeError::ExitedInHandshake { label }),
            Err(WaitError::TooLong) => return Err(HandshakeError::TooLong { label }),
        }
        if send_variant {
            self.send(&format!("setoption name UCI_Variant value {variant}"));
        }
        for (k, v) in options {
            self.send(&format!("setoption name {k} value {v}"));
        }
        let errors = self.sync(timeout)?;
        if !errors.is_empty() {
            return Err(HandshakeError::Refused { label: self.label.clone(), errors });
        }
        Ok(())
    }

    /// Ends the process: `quit`, a short wait, then kill; whatever is left
    /// of its process group is killed either way.
    pub fn shutdown(&mut self) {
        self.send("quit");
        self.tx = None; // closes its standard input
        let until = Instant::now() + Duration::from_millis(300);
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                self.end_group();
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        self.kill();
    }

    /// Kills the process and its process group at once.
    pub fn kill(&mut self) {
        self.tx = None;
        self.end_group();
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.broken = true;
    }

    /// Kills what is left of the process group, once.
    fn end_group(&mut self) {
        if !self.ended {
            self.ended = true;
            kill_group(self.pgid);
        }
    }

    /// The log, if any.
    pub fn log(&self) -> Option<&Arc<Log>> {
        self.log.as_ref()
    }
}

impl Drop for EngineProc {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            if self.broken {
                self.kill();
            } else {
                self.shutdown();
            }
        } else {
            self.end_group();
        }
    }
}

/// A parsed `info` line's score, from the mover's side, mate scores mapped to
/// ±(100000 − n).
pub fn info_score(line: &str) -> Option<i32> {
    let w: Vec<&str> = line.split_whitespace().collect();
    if w.first() != Some(&"info") || w.get(1) == Some(&"string") {
        return None;
    }
    if w.iter().any(|x| *x == "lowerbound" || *x == "upperbound") {
        return None;
    }
    let i = w.iter().position(|x| *x == "score")?;
    match (w.get(i + 1), w.get(i + 2)) {
        (Some(&"cp"), Some(v)) => v.parse::<i32>().ok().map(|v| v.clamp(-99_000, 99_000)),
        (Some(&"mate"), Some(v)) => v.parse::<i32>().ok().map(|n| {
            let n = n.clamp(-1000, 1000);
            if n > 0 {
                100_000 - n
            } else {
                -100_000 - n
            }
        }),
        _ => None,
    }
}

/// The depth of an `info` line.
pub fn info_depth(line: &str) -> Option<u32> {
    let w: Vec<&str> = line.split_whitespace().collect();
    let i = w.iter().position(|x| *x == "depth")?;
    w.get(i + 1)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores() {
        assert_eq!(info_score("info depth 3 score cp -42 nodes 10 pv a"), Some(-42));
        assert_eq!(info_score("info depth 3 score mate 2 pv a"), Some(99_998));
        assert_eq!(info_score("info depth 3 score mate -1"), Some(-99_999));
        assert_eq!(info_score("info depth 3 score cp 10 lowerbound"), None);
        assert_eq!(info_score("info string score cp 5"), None);
        assert_eq!(info_score("bestmove a"), None);
        assert_eq!(info_score("info depth 3 score cp x"), None);
        assert_eq!(info_depth("info depth 7 seldepth 9"), Some(7));
    }

    /// The handshake's errors read as they did when they were strings.
    #[test]
    fn handshake_error_text() {
        let label = "A#12".to_string();
        assert_eq!(HandshakeError::NoUciOk { label: label.clone(), ms: 10_000 }.to_string(), "A#12: no uciok within 10000 ms");
        assert_eq!(HandshakeError::TooLong { label: label.clone() }.to_string(), "A#12: engine wrote a line longer than 1 MiB");
        let refused = HandshakeError::Refused { label, errors: vec!["info string error a".into(), "info string error b".into()] };
        assert_eq!(refused.to_string(), "A#12: info string error a; info string error b");
    }

    #[test]
    fn a_program_that_does_not_exist_does_not_start() {
        let cfg = EngineConfig { name: "X".into(), cmd: "/nonexistent/engine".into(), ..EngineConfig::default() };
        let e = EngineProc::spawn(&cfg, None).err().expect("no such program");
        assert!(matches!(&e, EngineStartError::Program { name, .. } if name == "X"), "{e}");
        assert!(e.to_string().starts_with("cannot start engine X (`/nonexistent/engine`): "), "{e}");
    }
}
