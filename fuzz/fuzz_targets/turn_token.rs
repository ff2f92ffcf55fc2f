//! Any turn token (optionally after a position string and a newline): no
//! panic, the position unchanged, and what parses is legal.
#![no_main]
use libfuzzer_sys::fuzz_target;
use tetrarch_core::fuzzing::turn_token;
use tetrarch_core::games::teamchess::TeamChess;
use tetrarch_core::games::fourchess::FourChess;

fuzz_target!(|data: &[u8]| {
    if let Ok(s) = std::str::from_utf8(data) {
        turn_token::<FourChess>(s);
        turn_token::<TeamChess>(s);
    }
});
