//! Any bytes as what an engine prints, read and judged as the match runner
//! does (`tetrarch_match::fuzzing::engine_output`): lines capped, `info`
//! scores read, every `bestmove` checked on four games' start positions; no
//! panic, bounded memory, and no control character in what reaches the
//! terminal or the PGN.
#![no_main]
#![forbid(unsafe_code)]
#![warn(missing_docs)]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if data.len() <= 16384 {
        tetrarch_match::fuzzing::engine_output(data);
    }
});
