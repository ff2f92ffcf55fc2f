//! Whether the runner was interrupted (SIGINT, SIGTERM, SIGHUP; see
//! [`crate::os::stop_engines_on_signals`]). Once it is, no record is
//! written: a game whose engines the signal killed is not a forfeit.

use std::sync::atomic::{AtomicBool, Ordering};

/// Set on a signal.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Whether the runner was interrupted (SIGINT, SIGTERM, SIGHUP).
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// Marks the runner interrupted (the signal thread, before it kills the
/// engines).
#[cfg_attr(any(not(unix), tetrarch_portable_check), allow(dead_code))]
pub(crate) fn set_interrupted() {
    INTERRUPTED.store(true, Ordering::SeqCst);
}
