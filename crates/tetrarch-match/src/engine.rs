//! An engine process: spawned from its configuration, talked to through a
//! writer thread (so a process that stops reading never blocks the runner)
//! and a reader thread that time-stamps every line it prints.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::config::EngineConfig;

/// A shared log of every line to and from the engines (`--log`).
pub struct Log {
    file: Mutex<std::fs::File>,
    t0: Instant,
}

impl Log {
    /// A log writing to `path` (truncated).
    pub fn create(path: &std::path::Path) -> Result<Arc<Log>, String> {
        let file = std::fs::File::create(path).map_err(|e| format!("cannot create log {}: {e}", path.display()))?;
        Ok(Arc::new(Log { file: Mutex::new(file), t0: Instant::now() }))
    }
    fn line(&self, who: &str, dir: char, text: &str) {
        if let Ok(mut f) = self.file.lock() {
            let _ = writeln!(f, "{:>9} {who} {dir} {text}", self.t0.elapsed().as_millis());
        }
    }
}

/// What the reader thread sends.
#[derive(Debug)]
pub enum Event {
    /// A line (without the line end) and when it arrived.
    Line(Instant, String),
    /// Standard output closed: the process ended.
    Eof,
}

/// Why waiting for an answer failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WaitError {
    /// Nothing in time.
    Timeout,
    /// The process ended (or closed its output).
    Eof,
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
    /// Games played by this process.
    pub games: u32,
}

impl EngineProc {
    /// Starts the program (no handshake yet).
    pub fn spawn(cfg: &EngineConfig, log: Option<Arc<Log>>) -> Result<EngineProc, String> {
        let mut cmd = Command::new(&cfg.cmd);
        cmd.args(&cfg.args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null());
        if let Some(d) = &cfg.dir {
            cmd.current_dir(d);
        }
        let mut child = cmd.spawn().map_err(|e| format!("cannot start engine {} (`{}`): {e}", cfg.name, cfg.cmd))?;
        let label = format!("{}#{}", cfg.name, child.id());
        let stdout = child.stdout.take().expect("piped stdout");
        let mut stdin = child.stdin.take().expect("piped stdin");
        let (etx, rx) = mpsc::channel();
        let rlog = log.clone();
        let rlabel = label.clone();
        std::thread::Builder::new()
            .name(format!("read {label}"))
            .spawn(move || {
                let mut r = BufReader::new(stdout);
                let mut buf = Vec::new();
                loop {
                    buf.clear();
                    match r.read_until(b'\n', &mut buf) {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {}
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
            .map_err(|e| format!("cannot start a reader thread: {e}"))?;
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
                    if stdin.write_all(line.as_bytes()).and_then(|_| stdin.write_all(b"\n")).and_then(|_| stdin.flush()).is_err() {
                        break; // the reader sees the end of the process
                    }
                }
            })
            .map_err(|e| format!("cannot start a writer thread: {e}"))?;
        Ok(EngineProc { child, tx: Some(tx), rx, label, log, broken: false, games: 0 })
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
                Err(mpsc::TryRecvError::Empty) => return Ok(()),
            }
        }
    }

    /// `isready` … `readyok` within `timeout`; returns the error lines
    /// (`info string error…`) printed in between.
    pub fn sync(&mut self, timeout: Duration) -> Result<Vec<String>, String> {
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
            Err(WaitError::Timeout) => Err(format!("{}: no readyok within {} ms", self.label, timeout.as_millis())),
            Err(WaitError::Eof) => Err(format!("{}: the engine exited", self.label)),
        }
    }

    /// The handshake: `uci` … `uciok`, the variant, the options, `isready`.
    /// An option the engine rejects (an `info string error` line) is an error.
    /// A 4pchess-dialect engine (`send_variant` false) is not told the
    /// variant: it only plays teamchess.
    pub fn init(&mut self, variant: &str, options: &[(String, String)], send_variant: bool, timeout: Duration) -> Result<(), String> {
        self.send("uci");
        match self.wait_for(Instant::now() + timeout, |_| {}, |l| l.trim() == "uciok") {
            Ok(_) => {}
            Err(WaitError::Timeout) => return Err(format!("{}: no uciok within {} ms", self.label, timeout.as_millis())),
            Err(WaitError::Eof) => return Err(format!("{}: the engine exited during the handshake", self.label)),
        }
        if send_variant {
            self.send(&format!("setoption name UCI_Variant value {variant}"));
        }
        for (k, v) in options {
            self.send(&format!("setoption name {k} value {v}"));
        }
        let errors = self.sync(timeout)?;
        if !errors.is_empty() {
            return Err(format!("{}: {}", self.label, errors.join("; ")));
        }
        Ok(())
    }

    /// Ends the process: `quit`, a short wait, then kill.
    pub fn shutdown(&mut self) {
        self.send("quit");
        self.tx = None; // closes its standard input
        let until = Instant::now() + Duration::from_millis(300);
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        self.kill();
    }

    /// Kills the process at once.
    pub fn kill(&mut self) {
        self.tx = None;
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.broken = true;
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
}
