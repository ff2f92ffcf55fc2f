//! Any turn token (optionally after a position string and a newline), for
//! every game: no panic, the position unchanged, and what parses is legal.
#![no_main]
#![forbid(unsafe_code)]
#![warn(missing_docs)]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(s) = std::str::from_utf8(data) {
        tetrarch_core::fuzzing::every_game(tetrarch_core::fuzzing::Target::TurnToken, s);
    }
});
