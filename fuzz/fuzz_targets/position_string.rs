//! Any text given to a position-string parser: no panic; what parses prints
//! canonically and parses back to the same position.
#![no_main]
use libfuzzer_sys::fuzz_target;
use tetrarch_core::fuzzing::position_string;
use tetrarch_core::games::teamchess::TeamChess;
use tetrarch_core::games::fourchess::FourChess;

fuzz_target!(|data: &[u8]| {
    if let Ok(s) = std::str::from_utf8(data) {
        position_string::<FourChess>(s);
        position_string::<TeamChess>(s);
    }
});
