//! A search or perft running on its own thread, and the flags the protocol
//! thread uses to steer it.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

/// Flags shared between the protocol thread and a running job.
#[derive(Default, Debug)]
pub struct Flags {
    /// `stop` (or `quit`, the end of the input, or a state-changing
    /// command): end now and print `bestmove` (a perft prints `info string
    /// perft stopped`). Never reset.
    pub stop: AtomicBool,
    /// Ends the pondering phase of a `go ponder` search (set by `stop` and
    /// by `ponderhit`).
    pub ponder_stop: AtomicBool,
    /// `ponderhit` arrived: after the pondering phase, search for real.
    pub hit: AtomicBool,
}

impl Flags {
    /// Whether `stop` arrived.
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Acquire)
    }
    /// Whether `ponderhit` arrived.
    pub fn hit(&self) -> bool {
        self.hit.load(Ordering::Acquire)
    }
    /// Waits (polling every millisecond) until `done` holds.
    pub fn wait_until(&self, done: impl Fn(&Flags) -> bool) {
        while !done(self) {
            std::thread::sleep(Duration::from_millis(1));
        }
    }
}

/// What a job does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JobKind {
    /// A search that ends by itself (depth, nodes, time).
    Search,
    /// A search that only `stop` ends (`go infinite`).
    Infinite,
    /// `go ponder` before `ponderhit`; after it, a normal search (or an
    /// infinite one when `infinite` was given too).
    Ponder {
        /// `go ponder infinite`.
        then_infinite: bool,
    },
    /// `go perft`: ends by itself or, like a search, when stopped.
    Perft,
}

/// The job's thread could not be started.
#[derive(Debug, thiserror::Error)]
#[error("cannot start the search thread: {0}")]
pub struct SpawnError(#[source] pub std::io::Error);

/// A running job.
pub struct Job {
    handle: JoinHandle<()>,
    flags: Arc<Flags>,
    kind: JobKind,
}

impl Job {
    /// Starts `f` on a thread with a large stack.
    pub fn spawn(kind: JobKind, flags: Arc<Flags>, f: impl FnOnce() + Send + 'static) -> Result<Job, SpawnError> {
        let handle =
            std::thread::Builder::new().name("tetrarch-search".into()).stack_size(256 << 20).spawn(f).map_err(SpawnError)?;
        Ok(Job { handle, flags, kind })
    }

    /// Asks the job to end (a search prints its `bestmove`, a perft
    /// `info string perft stopped`).
    pub fn stop(&self) {
        self.flags.stop.store(true, Ordering::Release);
        self.flags.ponder_stop.store(true, Ordering::Release);
    }

    /// `ponderhit`: a pondering search goes on as a normal one.
    pub fn ponderhit(&mut self) {
        self.flags.hit.store(true, Ordering::Release);
        self.flags.ponder_stop.store(true, Ordering::Release);
        if let JobKind::Ponder { then_infinite } = self.kind {
            self.kind = if then_infinite { JobKind::Infinite } else { JobKind::Search };
        }
    }

    /// Whether only `stop` ends the job.
    pub fn is_open(&self) -> bool {
        matches!(self.kind, JobKind::Infinite | JobKind::Ponder { .. })
    }

    /// Whether the thread has ended.
    pub fn is_finished(&self) -> bool {
        self.handle.is_finished()
    }

    /// Waits for the thread (it has printed everything it had to).
    pub fn join(self) {
        let _ = self.handle.join();
    }
}
