//! The engine's output: one shared, locked writer, flushed after every line.
//!
//! The protocol thread and the search thread both write through a clone of
//! the same [`Out`], so lines never interleave.

use std::io::Write;
use std::sync::{Arc, Mutex, MutexGuard};

/// A shared line writer. Cloning shares the same underlying writer.
#[derive(Clone)]
pub struct Out(Arc<Mutex<Box<dyn Write + Send>>>);

impl Out {
    /// Wraps any writer.
    pub fn new(w: impl Write + Send + 'static) -> Self {
        Out(Arc::new(Mutex::new(Box::new(w))))
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
