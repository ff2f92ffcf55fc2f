//! The engine's output: one shared, locked writer, flushed after every line,
//! and, for a front end in the same process, the same search reports and
//! answers as typed events ([`EngineEvent`], [`Out::buffer_with_events`]).
//!
//! The protocol thread and the search thread both write through a clone of
//! the same [`Out`], so lines never interleave.

use std::io::Write;
use std::sync::{Arc, Mutex, MutexGuard};

use tetrarch_search::Score;

/// One report of a running search: what its `info depth …` line says,
/// typed (scores from the side to move's view, or the dialect's).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchReport {
    /// Completed depth, in actions.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// The line's rank (1 = the best; `MultiPV`).
    pub multipv: usize,
    /// The line's score.
    pub score: Score,
    /// Nodes so far.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Table fill, per mille.
    pub hashfull: u32,
    /// Time so far, ms.
    pub time_ms: u64,
    /// The line's turn tokens.
    pub pv: Vec<String>,
}

/// A score as the protocol writes it: `cp 34`, `mate -3`.
pub fn score_text(s: Score) -> String {
    match s {
        Score::Cp(x) => format!("cp {x}"),
        Score::Mate(n) => format!("mate {n}"),
    }
}

/// What the engine tells a front end besides text: search reports and the
/// answer of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineEvent {
    /// A search report (an `info depth …` line).
    Report(SearchReport),
    /// The answer of a search (its `bestmove` line): the turn, `None` for
    /// `(none)`.
    BestMove(Option<String>),
}

/// The events an [`Out::buffer_with_events`] output received, oldest first.
#[derive(Clone, Default)]
pub struct Events(Arc<Mutex<Vec<EngineEvent>>>);

impl Events {
    /// Takes every event so far.
    pub fn take(&self) -> Vec<EngineEvent> {
        std::mem::take(&mut *self.0.lock().unwrap_or_else(|e| e.into_inner()))
    }
}

/// A shared line writer. Cloning shares the same underlying writer (and
/// event list, if it has one).
#[derive(Clone)]
pub struct Out(Arc<Mutex<Box<dyn Write + Send>>>, Option<Events>);

impl Out {
    /// Wraps any writer.
    pub fn new(w: impl Write + Send + 'static) -> Self {
        Out(Arc::new(Mutex::new(Box::new(w))), None)
    }

    /// An in-memory output that also keeps the typed events (the GUI's
    /// in-process engines read reports and answers from them, the log from
    /// the lines).
    pub fn buffer_with_events() -> (Out, Captured, Events) {
        let (mut out, cap) = Out::buffer();
        let events = Events::default();
        out.1 = Some(events.clone());
        (out, cap, events)
    }

    /// Whether this output keeps events (else [`Out::event`] does nothing).
    pub fn wants_events(&self) -> bool {
        self.1.is_some()
    }

    /// Keeps an event, if this output keeps events.
    pub fn event(&self, e: EngineEvent) {
        if let Some(ev) = &self.1 {
            ev.0.lock().unwrap_or_else(|e| e.into_inner()).push(e);
        }
    }

    /// Standard output.
    pub fn stdout() -> Self {
        Out::new(std::io::stdout())
    }

    /// An in-memory output and a handle to read what was written (for tests
    /// and fuzz targets).
    pub fn buffer() -> (Out, Captured) {
        let buf = Captured(Arc::new(Mutex::new(Vec::new())));
        (Out::new(buf.clone()), buf)
    }

    fn lock(&self) -> MutexGuard<'_, Box<dyn Write + Send>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Writes one line and flushes. Write errors (a closed pipe) are ignored:
    /// the engine keeps its state and the next `quit` or EOF ends it.
    pub fn line(&self, s: impl AsRef<str>) {
        let mut w = self.lock();
        let _ = w.write_all(s.as_ref().as_bytes());
        let _ = w.write_all(b"\n");
        let _ = w.flush();
    }

    /// Writes several lines under one lock (a `d` board, a divide), flushing
    /// after each.
    pub fn lines<I, S>(&self, lines: I)
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let mut w = self.lock();
        for s in lines {
            let _ = w.write_all(s.as_ref().as_bytes());
            let _ = w.write_all(b"\n");
            let _ = w.flush();
        }
    }

    /// `info string error: <why>`.
    pub fn error(&self, why: impl AsRef<str>) {
        self.line(format!("info string error: {}", why.as_ref()));
    }
}

/// The bytes an [`Out::buffer`] output received.
#[derive(Clone, Default)]
pub struct Captured(Arc<Mutex<Vec<u8>>>);

impl Captured {
    /// Takes every complete line written so far.
    pub fn take_lines(&self) -> Vec<String> {
        let mut v = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let text = String::from_utf8_lossy(&v).into_owned();
        let cut = text.rfind('\n').map(|i| i + 1).unwrap_or(0);
        let lines = text[..cut].lines().map(str::to_owned).collect();
        let rest = text.as_bytes()[cut..].to_vec();
        *v = rest;
        lines
    }
}

impl Write for Captured {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

pub use tetrarch_core::options::quote;
