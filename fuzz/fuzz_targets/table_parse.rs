//! Any bytes as a calibration table file (`DIR/<variant>.json`, which the
//! engine reads for `UCI_Elo`; `tetrarch_tune::fuzzing::table_parse`):
//! refused without a panic, or a table that writes back unchanged and
//! whose interpolation is finite, in range and monotone.
#![no_main]
#![forbid(unsafe_code)]
#![warn(missing_docs)]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if data.len() <= 16384 {
        tetrarch_tune::fuzzing::table_parse(data);
    }
});
