//! Any bytes as an HTTP request to `tetrarch gui`: the request parser and
//! the API never panic, every error is a JSON `{"error":…}`, and a request
//! answered with an error leaves the game unchanged
//! (`tetrarch::gui::fuzz_request`).
#![no_main]
#![forbid(unsafe_code)]
#![warn(missing_docs)]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if data.len() <= 4096 {
        tetrarch::gui::fuzz_request(data);
    }
});
