//! PGN-style text of a game, for people (not a PGN any chess program reads:
//! the turn tokens are the games' own notation, and four-seat games number
//! their rounds of four turns).

use crate::record::GameRecord;
use crate::text::printable;

/// A civil date `YYYY.MM.DD` from seconds since 1970 (UTC).
pub fn date(secs: u64) -> String {
    // Howard Hinnant's days-to-civil.
    let z = (secs / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    format!("{:04}.{:02}.{:02}", if m <= 2 { y + 1 } else { y }, m, d)
}

fn tag(out: &mut String, k: &str, v: &str) {
    let v = printable(v);
    out.push_str(&format!("[{k} \"{}\"]\n", v.replace('\\', "\\\\").replace('"', "\\\"")));
}

/// The game as PGN-style text. `seat_names` are the colours of the seats
/// (`White`, `Red`, …); `two_sided` says whether a `1-0`-style result exists
/// (seat 1's side against the other).
pub fn write(r: &GameRecord, seat_names: &[&str], two_sided: bool) -> String {
    let mut out = String::new();
    tag(&mut out, "Event", "tetrarch match");
    tag(&mut out, "Site", "?");
    tag(&mut out, "Date", &date(r.started));
    tag(&mut out, "Round", &round_of(r));
    for (s, name) in r.seats.iter().enumerate() {
        tag(&mut out, seat_names.get(s).copied().unwrap_or("Seat"), name);
    }
    let result = if two_sided {
        if r.points[0] == 1.0 {
            "1-0"
        } else if r.points[0] == 0.0 {
            "0-1"
        } else {
            "1/2-1/2"
        }
    } else {
        "*"
    };
    tag(&mut out, "Result", result);
    tag(&mut out, "Variant", &r.variant);
    if let Some(f) = r.start.strip_prefix("fen ") {
        tag(&mut out, "FEN", f);
        tag(&mut out, "SetUp", "1");
    } else if r.start != "startpos" {
        tag(&mut out, "Start", &r.start);
    }
    tag(&mut out, "GameResult", &r.result);
    tag(&mut out, "Termination", &r.reason);
    tag(&mut out, "PlyCount", &r.turns.len().to_string());
    out.push('\n');
    let n = r.seats.len().max(1);
    let mut words: Vec<String> = Vec::new();
    for (i, t) in r.turns.iter().enumerate() {
        if i % n == 0 {
            words.push(format!("{}.", i / n + 1));
        }
        words.push(move_word(t));
        if i + 1 == r.opening_turns {
            words.push("{end of opening}".into());
        }
        if i >= r.opening_turns {
            let k = i - r.opening_turns;
            let score = match r.scores.get(k).copied().flatten() {
                // Any i32 (a record read by --resume may hold i32::MIN).
                Some(s) if s.unsigned_abs() >= 90_000 => {
                    format!("{}M{}", if s > 0 { "+" } else { "-" }, 100_000 - i64::from(s.unsigned_abs()))
                }
                Some(s) => format!("{:+.2}", s as f64 / 100.0),
                None => "-".into(),
            };
            if let Some(ms) = r.times_ms.get(k) {
                words.push(format!("{{{score} {:.3}s}}", *ms as f64 / 1000.0));
            }
        }
    }
    // A comment ends at the first `}`: none may come from the text.
    let comment = |t: &str| printable(t).replace('}', ")");
    words.push(format!("{{{}: {}}}", comment(&r.result), comment(&r.reason)));
    words.push(result.to_string());
    let mut line = String::new();
    for w in words {
        if !line.is_empty() && line.len() + 1 + w.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&w);
    }
    out.push_str(&line);
    out.push_str("\n\n");
    out
}

/// A turn of a record as a movetext word: printable, and without the
/// brackets and braces that delimit tags and comments (a legal turn has
/// none; a corrupt records file read by `--resume` may, and a wrapped line
/// starting with `[Event ` would read as a new game).
fn move_word(t: &str) -> String {
    printable(t).replace(['[', '{'], "(").replace([']', '}'], ")")
}

/// The `Round` tag of a record (`opening.game`, 1-based): it names the
/// game within its match.
pub fn round_of(r: &GameRecord) -> String {
    // Wide enough for any numbers a records file may hold.
    format!("{}.{}", u128::from(r.opening_index) + 1, u64::from(r.round) + 1)
}

/// How `--resume` repairs a PGN file written beside the records: keep its
/// first `keep` bytes (a torn last game, cut by a kill in mid-write, is
/// dropped) and append `append`, the text of every record whose game the
/// file lacks (the record is written first, so a kill between the two
/// writes left the game out of the PGN). `write` gives a record's text.
pub fn repair(text: &str, records: &[GameRecord], write: impl Fn(&GameRecord) -> String) -> (usize, String) {
    // Games start with an `[Event ` line.
    let mut starts: Vec<usize> =
        text.match_indices("[Event ").map(|(i, _)| i).filter(|&i| i == 0 || text.as_bytes()[i - 1] == b'\n').collect();
    if starts.first() != Some(&0) {
        starts.insert(0, 0);
    }
    let complete = |g: &str| {
        g.ends_with("\n\n")
            && g.trim_end().rsplit([' ', '\n']).next().is_some_and(|w| ["1-0", "0-1", "1/2-1/2", "*"].contains(&w))
    };
    let chunks: Vec<(usize, &str)> = starts
        .iter()
        .enumerate()
        .map(|(k, &a)| (a, &text[a..starts.get(k + 1).copied().unwrap_or(text.len())]))
        .filter(|(_, g)| !g.is_empty())
        .collect();
    // Torn games at the end (a kill in mid-write) are cut off.
    let mut keep = text.len();
    for &(a, g) in chunks.iter().rev() {
        if !g.starts_with("[Event ") || complete(g) {
            break;
        }
        keep = a;
    }
    let mut have = std::collections::HashSet::new();
    for &(_, g) in chunks.iter().filter(|(a, g)| *a < keep && g.starts_with("[Event ") && complete(g)) {
        if let Some(r) = g.lines().find_map(|l| l.strip_prefix("[Round \"").and_then(|l| l.strip_suffix("\"]"))) {
            have.insert(r.to_string());
        }
    }
    let mut missing: Vec<&GameRecord> = records.iter().filter(|r| !have.contains(&round_of(r))).collect();
    missing.sort_by_key(|r| r.game);
    missing.dedup_by_key(|r| round_of(r));
    let mut add: String = missing.into_iter().map(write).collect();
    if !add.is_empty() && keep > 0 && !text[..keep].ends_with('\n') {
        add.insert(0, '\n'); // a game starts on a line of its own
    }
    (keep, add)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Fuzzing (resume_records, twenty-seventh session) found a record
    /// whose turns held `[Event ...` and `{`: wrapped, a movetext line began
    /// with `[Event ` and the repair of the PGN read it as another game.
    /// Turns are written without brackets and braces.
    #[test]
    fn a_turn_never_opens_a_tag_or_a_comment() {
        let line = r#"{"match":"m","game":0,"opening_index":0,"round":0,"variant":"quattuor","start":"startpos","opening_turns":0,"seats":["A","B"],"seat_engines":[0,1],"result":"draw","reason":"x","decided":"adjudication","culprit":null,"points":[0.5,0.5],"ranks":[1,1],"turns":["a","[Event x]","{c}","xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx","[Event y"],"times_ms":[],"scores":[],"started":0,"duration_ms":0}"#;
        let r = crate::record::parse_records(line).unwrap().remove(0);
        let t = write(&r, &["Red", "Black"], true);
        let movetext = &t[t.find("\n\n").unwrap()..];
        assert!(!movetext.contains(['[', ']']), "{t}");
        assert!(movetext.contains("(Event x)") && movetext.contains("(c)") && movetext.contains("(Event y"), "{t}");
        // One game for the repair: nothing to add to its own text.
        assert_eq!(repair(&t, std::slice::from_ref(&r), |r| write(r, &["Red", "Black"], true)), (t.len(), String::new()));
    }

    /// Fuzzing (resume_records) found that a record read by `--resume`
    /// with a score of `i32::MIN` panicked the PGN writer (`abs` overflows).
    #[test]
    fn any_score_of_a_record_writes() {
        let line = r#"{"match":"m","game":0,"opening_index":0,"round":0,"variant":"quattuor","start":"startpos","opening_turns":0,"seats":["A","B"],"seat_engines":[0,1],"result":"draw","reason":"x","decided":"adjudication","culprit":null,"points":[0.5,0.5],"ranks":[1,1],"turns":["a","b","c"],"times_ms":[1,2,3],"scores":[-2147483648,2147483647,-100000],"started":0,"duration_ms":0}"#;
        let r = crate::record::parse_records(line).unwrap().remove(0);
        let t = write(&r, &["Red", "Black"], true);
        assert!(
            t.contains("{-M-2147383648 0.001s}") && t.contains("{+M-2147383647 0.002s}") && t.contains("{-M0 0.003s}"),
            "{t}"
        );
    }

    /// Fuzzing (resume_records) found that a record with the largest game
    /// numbers (`opening_index` 2^64-1) overflowed the `Round` tag.
    #[test]
    fn any_game_number_of_a_record_writes() {
        let line = r#"{"match":"m","game":18446744073709551615,"opening_index":18446744073709551615,"round":4294967295,"variant":"quattuor","start":"startpos","opening_turns":0,"seats":["A","B"],"seat_engines":[0,1],"result":"draw","reason":"x","decided":"adjudication","culprit":null,"points":[0.5,0.5],"ranks":[1,1],"turns":[],"times_ms":[],"scores":[],"started":0,"duration_ms":0}"#;
        let r = crate::record::parse_records(line).unwrap().remove(0);
        assert_eq!(round_of(&r), "18446744073709551616.4294967296");
        assert!(write(&r, &["Red", "Black"], true).contains("[Round \"18446744073709551616.4294967296\"]"));
    }

    #[test]
    fn dates() {
        assert_eq!(date(0), "1970.01.01");
        assert_eq!(date(951_782_400), "2000.02.29");
        assert_eq!(date(1_700_000_000), "2023.11.14");
    }
}
