//! Systems without Unix process groups and signals (Windows): an engine is
//! one process, ended with `Child::kill`; the runner installs no signal
//! handler and does not know its CPU time.

use std::process::Command;

/// No process groups here: the engine is started as it is.
pub(crate) fn own_process_group(_cmd: &mut Command) {}

/// Nothing to remember: no signal thread kills groups here.
pub(crate) fn register_group(_pgid: u32) {}

/// No group to kill: the caller kills the engine's own process.
pub(crate) fn kill_group(_pgid: u32) {}

/// No signal handling here: an interrupt ends the runner as it would any
/// program (and `interrupted()` stays false).
pub fn stop_engines_on_signals() {}

/// The runner's CPU time is not measured here.
pub fn cpu_seconds() -> Option<f64> {
    None
}
