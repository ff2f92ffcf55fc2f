//! The perft vectors of `tests/data/perft.txt` (the specs' tables) for every
//! game of the registry: `perft_vectors` runs the fast ones,
//! `perft_vectors_slow` (ignored) the deep ones.
#![forbid(unsafe_code)]

use tetrarch_core::registry::{with_variant, GameInfo, GameVisitor};
use tetrarch_core::turns::{perft, perft_actions, perft_bulk};

/// One line of the data file.
#[derive(Debug)]
struct Vector {
    line: usize,
    variant: String,
    options: Vec<(String, String)>,
    position: Option<String>,
    kind: String,
    depth: u32,
    nodes: u64,
    slow: bool,
}

/// Splits at whitespace, keeping a double-quoted field (a position string) whole.
fn fields(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = s.trim();
    while !rest.is_empty() {
        if let Some(q) = rest.strip_prefix('"') {
            let end = q.find('"').expect("a closing quote");
            out.push(q[..end].to_string());
            rest = q[end + 1..].trim_start();
        } else {
            let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            out.push(rest[..end].to_string());
            rest = rest[end..].trim_start();
        }
    }
    out
}

fn vectors() -> Vec<Vector> {
    let text = include_str!("data/perft.txt");
    let mut v = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split_once('#').map_or(raw, |(a, _)| a);
        if line.trim().is_empty() {
            continue;
        }
        let f = fields(line);
        assert!(f.len() == 6 || (f.len() == 7 && f[6] == "slow"), "perft.txt line {}: `{raw}`", i + 1);
        let options = if f[1] == "-" {
            Vec::new()
        } else {
            f[1].split(',')
                .map(|kv| {
                    let (k, v) = kv.split_once('=').expect("Name=Value");
                    (k.to_string(), v.to_string())
                })
                .collect()
        };
        v.push(Vector {
            line: i + 1,
            variant: f[0].clone(),
            options,
            position: (f[2] != "startpos").then(|| f[2].clone()),
            kind: f[3].clone(),
            depth: f[4].parse().expect("a depth"),
            nodes: f[5].parse().expect("a node count"),
            slow: f.len() == 7,
        });
    }
    v
}

struct Count<'a>(&'a Vector);

impl GameVisitor for Count<'_> {
    type Output = u64;
    fn visit<G: GameInfo>(self, variant: &'static str) -> u64 {
        let v = self.0;
        let mut opts = G::default_options(variant);
        for (k, val) in &v.options {
            G::set_option(&mut opts, k, val).unwrap_or_else(|e| panic!("line {}: {e}", v.line));
        }
        let mut g = match &v.position {
            None => G::startpos(&opts),
            Some(s) => G::from_position_string(s, &opts).unwrap_or_else(|e| panic!("line {}: {e}", v.line)),
        };
        match v.kind.as_str() {
            "turns" => perft(&mut g, v.depth),
            "actions" => perft_actions(&mut g, v.depth),
            "bulk" => {
                assert!(G::ONE_ACTION_PER_TURN, "line {}: bulk counting needs one action per turn", v.line);
                perft_bulk(&mut g, v.depth)
            }
            k => panic!("line {}: unknown kind `{k}`", v.line),
        }
    }
}

fn check(slow: bool) -> usize {
    let mut n = 0;
    for v in vectors().iter().filter(|v| v.slow == slow) {
        let got = with_variant(&v.variant, Count(v)).unwrap_or_else(|| panic!("line {}: unknown variant", v.line));
        assert_eq!(got, v.nodes, "perft.txt line {}: {v:?}", v.line);
        n += 1;
    }
    n
}

#[test]
fn perft_vectors() {
    assert!(check(false) >= 60);
}

#[test]
#[ignore]
fn perft_vectors_slow() {
    assert!(check(true) >= 9);
}

#[test]
fn every_registered_variant_has_vectors() {
    let v = vectors();
    for name in tetrarch_core::registry::variants() {
        assert!(v.iter().any(|x| x.variant == name), "no perft vector for {name}");
    }
}
