//! What the runner asks of the operating system beyond `std`, in one place:
//! an engine's process group and killing it, stopping the engines on a
//! signal, the runner's own CPU time.
//!
//! - Unix (Linux, macOS, the BSDs; `unix.rs`): each engine leads a process
//!   group of its own (`process_group(0)`), ending an engine kills its whole
//!   group (`killpg` through the `nix` crate's safe wrapper), SIGINT, SIGTERM
//!   and SIGHUP kill every engine group first (`signal-hook`), the CPU time
//!   is `getrusage(RUSAGE_SELF)`.
//! - Elsewhere (Windows; `portable.rs`): no process groups (an engine is
//!   ended with `Child::kill`, a helper it started is not), no signal
//!   handling, no CPU time (the final table prints `?`).
//!
//! No other file of the workspace's non-test code uses `std::os::unix`,
//! `nix` or `signal-hook`. `RUSTFLAGS="--cfg tetrarch_portable_check"`
//! builds the portable side on Unix too, to check that it compiles.

#[cfg(all(unix, not(tetrarch_portable_check)))]
mod unix;
#[cfg(all(unix, not(tetrarch_portable_check)))]
use unix as imp;

#[cfg(any(not(unix), tetrarch_portable_check))]
mod portable;
#[cfg(any(not(unix), tetrarch_portable_check))]
use portable as imp;

pub use imp::{cpu_seconds, stop_engines_on_signals};
pub(crate) use imp::{kill_group, own_process_group, register_group};
