//! The access token: drawn at start, and read from a request (`?token=`,
//! its cookie, `Authorization`). The `Host` and `Origin` checks are
//! `http.rs`'s ([`check_origin`](super::http::check_origin)).

use std::time::{SystemTime, UNIX_EPOCH};

use super::http::Request;

/// A fresh access token: 128 bits from the system's random source
/// (`/dev/urandom`; failing that, the random keys std's `RandomState`
/// draws from the system), as 32 hex digits.
pub fn new_token() -> String {
    use std::io::Read;
    let mut b = [0u8; 16];
    let ok = std::fs::File::open("/dev/urandom").and_then(|mut f| f.read_exact(&mut b)).is_ok();
    if !ok {
        use std::hash::{BuildHasher, Hasher};
        for (i, chunk) in b.chunks_mut(8).enumerate() {
            let mut h = std::collections::hash_map::RandomState::new().build_hasher();
            h.write_usize(i);
            h.write_u128(SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_nanos()));
            chunk.copy_from_slice(&h.finish().to_le_bytes());
        }
    }
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// The name of the cookie that carries the token (per port: cookies are
/// shared by every port of a host).
pub(super) fn cookie_name(port: u16) -> String {
    format!("tetrarch_token_{port}")
}

/// Equal, in a time that does not depend on where they differ.
pub(super) fn same(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// The token a request carries: `?token=` (the address `tetrarch gui`
/// prints), the cookie the page got with it, or `Authorization: token <t>`.
pub(super) fn token_given(req: &Request, port: u16) -> Vec<String> {
    let mut v: Vec<String> = req.params.iter().filter(|(k, _)| k == "token").map(|(_, t)| t.clone()).collect();
    let name = cookie_name(port);
    for (k, h) in &req.headers {
        if k == "cookie" {
            v.extend(
                h.split(';').filter_map(|c| c.trim().split_once('=')).filter(|(n, _)| *n == name).map(|(_, t)| t.to_string()),
            );
        } else if k == "authorization" {
            if let Some(t) = h.trim().strip_prefix("token ").or_else(|| h.trim().strip_prefix("Token ")) {
                v.push(t.trim().to_string());
            }
        }
    }
    v
}
