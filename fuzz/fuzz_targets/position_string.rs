//! Any text given to every game's position-string parser: no panic; what
//! parses prints canonically and parses back to the same position.
#![no_main]
#![forbid(unsafe_code)]
#![warn(missing_docs)]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(s) = std::str::from_utf8(data) {
        tetrarch_core::fuzzing::every_game(tetrarch_core::fuzzing::Target::PositionString, s);
    }
});
