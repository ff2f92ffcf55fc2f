//! Unix: process groups, `killpg`, the signal thread, `getrusage`.

use std::os::unix::process::CommandExt;
use std::process::Command;
use std::sync::atomic::{AtomicI32, Ordering};

use nix::sys::resource::{getrusage, UsageWho};
use nix::sys::signal::{killpg, Signal};
use nix::unistd::Pid;

/// The process groups of the engines alive now, for
/// [`stop_engines_on_signals`]. 0 is a free slot.
static LIVE: [AtomicI32; 1024] = [const { AtomicI32::new(0) }; 1024];

/// Starts the command in a process group of its own (the group id is the
/// child's pid), so that ending the engine ends whatever it started too.
pub(crate) fn own_process_group(cmd: &mut Command) {
    cmd.process_group(0);
}

/// Remembers the live group `pgid` (a spawned engine's pid) for the signal
/// thread.
pub(crate) fn register_group(pgid: u32) {
    if let Ok(id) = i32::try_from(pgid) {
        // A full table (more than 1,024 engines at once) only loses the
        // clean-up on a signal.
        let _ = LIVE.iter().find(|s| s.compare_exchange(0, id, Ordering::SeqCst, Ordering::SeqCst).is_ok());
    }
}

fn unregister_group(pgid: u32) {
    if let Ok(id) = i32::try_from(pgid) {
        if let Some(s) = LIVE.iter().find(|s| s.load(Ordering::SeqCst) == id) {
            let _ = s.compare_exchange(id, 0, Ordering::SeqCst, Ordering::SeqCst);
        }
    }
}

/// Kills every process of the group `pgid` (an engine and whatever it
/// started); an empty group is not an error.
pub(crate) fn kill_group(pgid: u32) {
    unregister_group(pgid);
    if let Ok(id) = i32::try_from(pgid) {
        if id > 0 {
            let _ = killpg(Pid::from_raw(id), Signal::SIGKILL);
        }
    }
}

/// Stops the engines when the runner is interrupted (SIGINT, SIGTERM,
/// SIGHUP): engines lead process groups of their own, so a Ctrl-C at the
/// terminal or a `kill` of the runner does not reach them, and an engine
/// that does not stop at the end of its input would be left running. A
/// thread (the `signal-hook` crate's safe iterator: no code runs in the
/// handler itself) marks the runner interrupted, kills every live group,
/// then ends the process as the signal would have. Installed once, by the
/// match entry point.
pub fn stop_engines_on_signals() {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else { return };
        let _ = std::thread::Builder::new().name("signals".into()).spawn(move || {
            if let Some(sig) = signals.forever().next() {
                crate::interrupt::set_interrupted();
                for s in &LIVE {
                    let id = s.swap(0, Ordering::SeqCst);
                    if id > 0 {
                        let _ = killpg(Pid::from_raw(id), Signal::SIGKILL);
                    }
                }
                let _ = signal_hook::low_level::emulate_default_handler(sig);
                std::process::exit(128 + sig);
            }
        });
    });
}

/// CPU time of this process (all its threads, not the engines), seconds,
/// from `getrusage(RUSAGE_SELF)`.
pub fn cpu_seconds() -> Option<f64> {
    let u = getrusage(UsageWho::RUSAGE_SELF).ok()?;
    let secs = |t: nix::sys::time::TimeVal| t.tv_sec() as f64 + t.tv_usec() as f64 / 1e6;
    Some(secs(u.user_time()) + secs(u.system_time()))
}
