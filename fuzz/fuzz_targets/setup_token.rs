//! Any set-up tokens (`position setup <p1> … <pN>`, whitespace-separated),
//! for every game: no panic; what parses gives a position whose string
//! parses back to the same position.
#![no_main]
#![forbid(unsafe_code)]
#![warn(missing_docs)]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(s) = std::str::from_utf8(data) {
        tetrarch_core::fuzzing::every_game(tetrarch_core::fuzzing::Target::SetupTokens, s);
    }
});
