//! Any text given to the PGN4 reader: no panic; what reads writes back and
//! reads again to the same turns.
#![no_main]
#![forbid(unsafe_code)]
#![warn(missing_docs)]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(s) = std::str::from_utf8(data) {
        tetrarch_core::fuzzing::pgn4(s);
    }
});
