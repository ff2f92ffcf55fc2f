//! Any bytes as the records file `--resume` reads, and as the PGN file
//! beside it (`tetrarch_match::fuzzing::resume_records`): records parse or
//! are refused without a panic, write back unchanged, replay with the rules;
//! the PGN repair is a prefix cut plus appended games, and stable.
#![no_main]
#![forbid(unsafe_code)]
#![warn(missing_docs)]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if data.len() <= 16384 {
        tetrarch_match::fuzzing::resume_records(data);
    }
});
