//! Any sequence of protocol lines: the engine never panics or hangs, and a
//! bad line leaves its state alone (`tetrarch::run_script` skips only the
//! commands that are slow by design: deep perft, unbounded searches, bench).
#![no_main]
#![forbid(unsafe_code)]
#![warn(missing_docs)]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(s) = std::str::from_utf8(data) {
        if s.len() <= 4096 {
            let _ = tetrarch::run_script(s);
        }
    }
});
