//! The match's identity: the fingerprint every record carries (its `match`
//! field), which `--resume`, the shards' shared folder and `tetrarch match
//! report` compare, and the naming of what differs between two of them.
//!
//! A fingerprint is the variant followed by `key=value` parts in a fixed
//! order:
//!
//! ```text
//! fourchess seed=1 engines=A,B openings=- plies=4 setup=true limits=tc:10+0.1;tc:10+0.1
//!   options=Hash:64;Hash:64 maxturns=0 resign=- draw=- sprt=0,10,0.05,0.05 book=-
//! ```
//!
//! The first parts (up to `setup`, and `tournament=` for a tournament) are
//! those of the runner before the shards came; the later ones name
//! everything else that changes the games or their statistics: each
//! engine's limits (time control, `st`, depth, nodes) and options, the turn
//! cap, the adjudication rules, the SPRT and a hash of the openings file's
//! text. What may differ between shards of one match (paths of the engines
//! and of the records, concurrency, the shard, `--games`) is not in it.
//! Values of the later parts escape ` %,;:=` as `%XX`.

use crate::config::Config;

/// The order of the keys after the variant. Parsing relies on it.
const KEYS: [&str; 13] = [
    "seed",
    "engines",
    "openings",
    "plies",
    "setup",
    "tournament",
    "limits",
    "options",
    "maxturns",
    "resign",
    "draw",
    "sprt",
    "book",
];

/// Escapes the characters that separate parts and values.
fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            ' ' | '%' | ',' | ';' | ':' | '=' => out.push_str(&format!("%{:02X}", c as u32)),
            c if c.is_control() => out.push_str(&format!("%{:02X}", c as u32 & 0xff)),
            c => out.push(c),
        }
    }
    out
}

/// Seconds as the shortest decimal (`10`, `0.1`).
fn secs(ms: u64) -> String {
    format!("{}", ms as f64 / 1000.0)
}

/// A 64-bit FNV-1a hash (the openings file's text in the fingerprint).
fn fnv64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// The fingerprint of the runner before shards (what records written by it
/// carry); `--resume` still continues such a file under this fingerprint.
pub fn legacy_fingerprint(cfg: &Config, variant: &str) -> String {
    let engines: Vec<&str> = cfg.engines.iter().map(|e| e.name.as_str()).collect();
    format!(
        "{variant} seed={} engines={} openings={} plies={} setup={}{}",
        cfg.seed,
        engines.join(","),
        cfg.openings.as_ref().map_or("-".to_string(), |p| p.display().to_string()),
        cfg.random_plies,
        cfg.random_setup,
        cfg.tournament.map_or(String::new(), |k| format!(" tournament={}", k.word()))
    )
}

/// The match fingerprint stored in every record. `maxturns` is the turn cap
/// in force (the game's default applied); `book` the openings file's text,
/// if there is one.
pub fn fingerprint(cfg: &Config, variant: &str, maxturns: u32, book: Option<&[u8]>) -> String {
    let limits: Vec<String> = cfg
        .engines
        .iter()
        .map(|e| {
            let mut v = Vec::new();
            if let Some(tc) = e.tc {
                let moves = if tc.moves > 0 { format!("{}/", tc.moves) } else { String::new() };
                v.push(format!("tc:{moves}{}+{}", secs(tc.base_ms), secs(tc.inc_ms)));
            }
            if let Some(st) = e.st_ms {
                v.push(format!("st:{}", secs(st)));
            }
            if let Some(d) = e.depth {
                v.push(format!("depth:{d}"));
            }
            if let Some(n) = e.nodes {
                v.push(format!("nodes:{n}"));
            }
            v.join(",")
        })
        .collect();
    let options: Vec<String> = cfg
        .engines
        .iter()
        .map(|e| e.options.iter().map(|(k, v)| format!("{}:{}", esc(k), esc(v))).collect::<Vec<_>>().join(","))
        .collect();
    let resign = cfg.resign.map_or("-".to_string(), |r| format!("{},{}", r.movecount, r.score));
    let draw = cfg.draw.map_or("-".to_string(), |d| format!("{},{},{}", d.movenumber, d.movecount, d.score));
    let sprt = cfg.sprt.map_or("-".to_string(), |s| format!("{},{},{},{}", s.elo0, s.elo1, s.alpha, s.beta));
    let book = book.map_or("-".to_string(), |b| format!("{:016x}", fnv64(b)));
    format!(
        "{} limits={} options={} maxturns={maxturns} resign={resign} draw={draw} sprt={sprt} book={book}",
        legacy_fingerprint(cfg, variant),
        limits.join(";"),
        options.join(";")
    )
}

/// A fingerprint split into its parts: `("variant", …)` first, then the
/// keys in order. `None` if it does not have that shape.
pub fn parts(fp: &str) -> Option<Vec<(&'static str, String)>> {
    let (variant, rest) = fp.split_once(' ')?;
    let mut out = vec![("variant", variant.to_string())];
    let rest = format!(" {rest}");
    let mut pos = 0;
    let mut from = 0; // index into KEYS of the next key allowed
    while pos < rest.len() {
        let k = (from..KEYS.len()).find(|&k| rest[pos..].starts_with(&format!(" {}=", KEYS[k])))?;
        let start = pos + KEYS[k].len() + 2;
        // The value runs to the earliest later key.
        let end = (k + 1..KEYS.len())
            .filter_map(|j| rest[start..].find(&format!(" {}=", KEYS[j])).map(|i| start + i))
            .min()
            .unwrap_or(rest.len());
        out.push((KEYS[k], rest[start..end].to_string()));
        pos = end;
        from = k + 1;
    }
    Some(out)
}

/// The value of `key` in a fingerprint (`None` if absent or unparsable).
pub fn part(fp: &str, key: &str) -> Option<String> {
    parts(fp)?.into_iter().find(|(k, _)| *k == key).map(|(_, v)| v)
}

fn describe(key: &str) -> &'static str {
    match key {
        "variant" => "variant",
        "seed" => "seed",
        "engines" => "engine names",
        "openings" => "openings file",
        "plies" => "random plies",
        "setup" => "random set-ups",
        "tournament" => "tournament kind",
        "limits" => "time control / limits",
        "options" => "engine options",
        "maxturns" => "turn cap",
        "resign" => "resign adjudication",
        "draw" => "draw adjudication",
        "sprt" => "SPRT",
        "book" => "openings file text",
        _ => "setting",
    }
}

/// What differs between two fingerprints, in words: `seed 1 vs 2; time
/// control / limits of engine 2: tc:10+0.1 vs tc:5+0.05`. Empty if equal.
pub fn difference(a: &str, b: &str) -> String {
    if a == b {
        return String::new();
    }
    let (Some(pa), Some(pb)) = (parts(a), parts(b)) else {
        return format!("match `{a}` vs `{b}`");
    };
    let names = pa.iter().find(|(k, _)| *k == "engines").map(|(_, v)| v.split(',').map(String::from).collect::<Vec<_>>());
    let mut out = Vec::new();
    for key in std::iter::once("variant").chain(KEYS) {
        let va = pa.iter().find(|(k, _)| *k == key).map(|(_, v)| v.as_str());
        let vb = pb.iter().find(|(k, _)| *k == key).map(|(_, v)| v.as_str());
        if va == vb {
            continue;
        }
        let show = |v: Option<&str>| match v {
            None if key == "tournament" => "none (a plain match)".to_string(),
            None => "not recorded (records of an older runner)".to_string(),
            Some("") => "none".to_string(),
            Some(v) => v.to_string(),
        };
        // Per-engine parts: name the engine.
        if let (Some(x), Some(y), "limits" | "options") = (va, vb, key) {
            let (xs, ys): (Vec<&str>, Vec<&str>) = (x.split(';').collect(), y.split(';').collect());
            if xs.len() == ys.len() {
                for (e, (p, q)) in xs.iter().zip(&ys).enumerate() {
                    if p != q {
                        let who = names.as_ref().and_then(|n| n.get(e)).map_or(String::new(), |n| format!(" ({n})"));
                        let none = |s: &str| if s.is_empty() { "none".to_string() } else { s.to_string() };
                        out.push(format!("{} of engine {}{who}: {} vs {}", describe(key), e + 1, none(p), none(q)));
                    }
                }
                continue;
            }
        }
        out.push(format!("{}: {} vs {}", describe(key), show(va), show(vb)));
    }
    if out.is_empty() {
        format!("match `{a}` vs `{b}`")
    } else {
        out.join("; ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::parse_args;

    fn cfg(line: &str) -> Config {
        let args: Vec<String> = line.split_whitespace().map(String::from).collect();
        parse_args(&args).unwrap().unwrap()
    }

    #[test]
    fn fingerprint_parts_round_trip() {
        let c = cfg("--variant fourchess --seed 3 --random-plies 4 --engine cmd=/a name=A tc=40/60+0.6 option.Hash=64 \
                     --engine cmd=/b name=B depth=3 --sprt elo0=0 elo1=10");
        let fp = fingerprint(&c, "fourchess", 0, None);
        assert!(fp.starts_with(&legacy_fingerprint(&c, "fourchess")), "{fp}");
        let p = parts(&fp).unwrap();
        let keys: Vec<&str> = p.iter().map(|x| x.0).collect();
        assert_eq!(
            keys,
            [
                "variant", "seed", "engines", "openings", "plies", "setup", "limits", "options", "maxturns", "resign", "draw",
                "sprt", "book"
            ]
        );
        assert_eq!(part(&fp, "limits").unwrap(), "tc:40/60+0.6;depth:3");
        assert_eq!(part(&fp, "options").unwrap(), "Hash:64;");
        assert_eq!(part(&fp, "sprt").unwrap(), "0,10,0.05,0.05");
        // The paths of the engines are not part of the match.
        let d =
            cfg("--variant fourchess --seed 3 --random-plies 4 --engine cmd=/elsewhere/a name=A tc=40/60+0.6 option.Hash=64 \
                     --engine cmd=/b name=B depth=3 --sprt elo0=0 elo1=10 --concurrency 4");
        assert_eq!(fingerprint(&d, "fourchess", 0, None), fp);
        // A name with a space and an openings path with one still parse.
        let e = cfg(
            "--variant fourchess --seed 3 --engine cmd=/a name=A depth=1 --engine cmd=/b name=B depth=1 --openings my_book.txt",
        );
        let mut e2 = e.clone();
        e2.engines[0].name = "new engine".into();
        e2.openings = Some("my book.txt".into());
        let fp2 = fingerprint(&e2, "fourchess", 0, Some(b"startpos\n"));
        assert_eq!(part(&fp2, "engines").unwrap(), "new engine,B");
        assert_eq!(part(&fp2, "openings").unwrap(), "my book.txt");
        assert_eq!(part(&fp2, "book").unwrap().len(), 16);
    }

    #[test]
    fn differences_are_named() {
        let a = cfg("--variant quattuor --seed 1 --engine cmd=/a name=A tc=10+0.1 --engine cmd=/b name=B tc=10+0.1");
        let fa = fingerprint(&a, "quattuor", 400, None);
        assert_eq!(difference(&fa, &fa), "");
        let mut b = a.clone();
        b.seed = 2;
        assert_eq!(difference(&fa, &fingerprint(&b, "quattuor", 400, None)), "seed: 1 vs 2");
        let b = cfg("--variant quattuor --seed 1 --engine cmd=/a name=A tc=10+0.1 --engine cmd=/b name=B tc=5+0.05");
        assert_eq!(
            difference(&fa, &fingerprint(&b, "quattuor", 400, None)),
            "time control / limits of engine 2 (B): tc:10+0.1 vs tc:5+0.05"
        );
        let b = cfg("--variant quattuor --seed 1 --engine cmd=/a name=A tc=10+0.1 --engine cmd=/b name=C tc=10+0.1");
        assert_eq!(difference(&fa, &fingerprint(&b, "quattuor", 400, None)), "engine names: A,B vs A,C");
        assert_eq!(
            difference(&fa, &fingerprint(&a, "quattuor", 400, Some(b"startpos\n"))),
            format!("openings file text: - vs {:016x}", fnv64(b"startpos\n"))
        );
        // A record of the runner before shards: the later parts are missing.
        let d = difference(&legacy_fingerprint(&a, "quattuor"), &fa);
        assert!(d.contains("time control / limits: not recorded"), "{d}");
        assert_eq!(difference("x", "y"), "match `x` vs `y`");
    }
}
