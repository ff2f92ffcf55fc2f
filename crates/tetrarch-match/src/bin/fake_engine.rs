//! A fake engine for the runner's tests: a random mover that can misbehave.
//!
//! Arguments (`KEY=VALUE`):
//! - `mode=` what it does on `go` once `after=` good turns are played:
//!   `good` (a random legal turn), `crash` (exits), `hang` (never answers),
//!   `late` (answers after `delay=` ms, default 3000), `illegal` (a well-formed
//!   illegal turn), `garbage` (junk lines, then a malformed `bestmove`),
//!   `none` (`bestmove (none)`), `empty` (`bestmove` without a turn),
//!   `longline` (`lines=` MiB of text without a line end, default 3, then
//!   it hangs), `escape` (`bestmove` with terminal escape sequences),
//!   `stuck` (sleeps for ever without reading its input);
//!   and at start: `silent` (never `uciok`), `exit` (exits at once),
//!   `badoption` (rejects every `setoption` but the variant).
//! - `after=N`: good turns in each game before misbehaving (default 0);
//!   `after=LO-HI`: a random number in that range, drawn for every game.
//! - `score=CP`: the score of its `info` line (default 0).
//! - `seed=S`: seed of its random choices (default 1).
//! - `think=MS`: time a good turn takes (default 0).
//! - `proto=4pchess`: speak the 4pchess dialect (teamchess): `info … score
//!   N` with a bare score from Red/Yellow's side, answer
//!   `bestmove h2-h3` / `e10-e11=Q`, and treat a `go` with Tetrarch clock
//!   words (`wtime`, `p1time`) as a protocol error (answers a bad move).
//! - `pidfile=PATH`: append its process id to PATH at start.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

use std::io::{BufRead, Write};
use std::time::Duration;

use tetrarch_core::turns::legal_turns;
use tetrarch_match::games::{with_variant, GameInfo, GameVisitor};
use tetrarch_match::openings::Opening;

struct Legal<'a>(&'a str, bool);

impl GameVisitor for Legal<'_> {
    type Output = Option<Vec<String>>;
    fn visit<G: GameInfo>(self, variant: &'static str) -> Self::Output {
        let opts = G::default_options(variant);
        let o = Opening::parse_line(self.0).ok()?;
        let (g, _) = o.replay::<G>(&opts).ok()?;
        let mut opts4 = opts.clone();
        let dialect = self.1 && G::set_option(&mut opts4, "Notation", "fen4").is_ok();
        Some(
            legal_turns(&g)
                .into_iter()
                .map(|(tok, acts)| if dialect { g.dialect_turn(&opts4, &acts).unwrap_or(tok) } else { tok })
                .collect(),
        )
    }
}

fn main() {
    let mut mode = "good".to_string();
    let mut after_range = (0u64, 0u64);
    let mut score = 0i64;
    let mut seed = 1u64;
    let mut delay = 3000u64;
    let mut think = 0u64;
    let mut dialect = false;
    let mut mib = 3u64;
    for a in std::env::args().skip(1) {
        let (k, v) = a.split_once('=').unwrap_or((a.as_str(), ""));
        match k {
            "mode" => mode = v.to_string(),
            "after" => {
                after_range = match v.split_once('-') {
                    Some((a, b)) => (a.parse().unwrap_or(0), b.parse().unwrap_or(0)),
                    None => (v.parse().unwrap_or(0), v.parse().unwrap_or(0)),
                }
            }
            "score" => score = v.parse().unwrap_or(0),
            "seed" => seed = v.parse().unwrap_or(1),
            "delay" => delay = v.parse().unwrap_or(3000),
            "think" => think = v.parse().unwrap_or(0),
            "proto" => dialect = v == "4pchess",
            "lines" => mib = v.parse().unwrap_or(3),
            "pidfile" => {
                if let Ok(mut f) = std::fs::OpenOptions::new().create(true).append(true).open(v) {
                    let _ = writeln!(f, "{}", std::process::id());
                }
            }
            _ => {}
        }
    }
    if mode == "exit" {
        std::process::exit(1);
    }
    let mut variant = if dialect { "teamchess" } else { "fourchess" }.to_string();
    let mut position = "startpos".to_string();
    let mut rng = tetrarch_match::openings::Rng(seed ^ (std::process::id() as u64) << 20);
    let mut draw_after = move || after_range.0 + rng.next_u64() % (after_range.1.saturating_sub(after_range.0) + 1);
    let mut after = draw_after();
    let mut gos = 0u64;
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    let mut say = |s: &str| {
        let _ = writeln!(out, "{s}");
        let _ = out.flush();
    };
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first().copied() {
            Some("uci") => {
                if mode == "silent" {
                    continue;
                }
                say("id name fake");
                say("id author the tests");
                say("uciok");
            }
            Some("isready") => say("readyok"),
            Some("setoption") => {
                if words.len() >= 5 && words[2].eq_ignore_ascii_case("UCI_Variant") {
                    variant = words[4].to_string();
                } else if mode == "badoption" {
                    say("info string error: setoption: unknown option");
                }
            }
            Some("position") => position = words[1..].join(" "),
            Some("ucinewgame") => {
                gos = 0;
                after = draw_after();
            }
            Some("quit") => return,
            Some("go") => {
                gos += 1;
                let misbehave = gos > after;
                let legal = with_variant(&variant, Legal(&position, dialect)).flatten().unwrap_or_default();
                if dialect && words.iter().any(|w| *w == "wtime" || *w == "p1time") {
                    say("bestmove a1-a2"); // not this dialect's clock words
                    continue;
                }
                let good = || {
                    if legal.is_empty() {
                        "(none)".to_string()
                    } else {
                        legal[(seed as usize + gos as usize * 7919) % legal.len()].clone()
                    }
                };
                if !misbehave || mode == "good" || mode == "badoption" {
                    if think > 0 {
                        std::thread::sleep(Duration::from_millis(think));
                    }
                    let t = good();
                    if dialect {
                        // 4pchess's form: a bare score, from Red/Yellow's side.
                        say(&format!("info depth 1 time 1 nodes 1 pv {t} score {score} nps 1"));
                    } else {
                        say(&format!("info depth 1 score cp {score} nodes 1 pv {t}"));
                    }
                    say(&format!("bestmove {t}"));
                    continue;
                }
                match mode.as_str() {
                    "crash" => std::process::exit(3),
                    "hang" => {}
                    "late" => {
                        std::thread::sleep(Duration::from_millis(delay));
                        say(&format!("bestmove {}", good()));
                    }
                    "illegal" => {
                        let t = if dialect {
                            "d1-d9"
                        } else if legal.iter().any(|t| t == "0000") {
                            "a1a1"
                        } else {
                            "0000"
                        };
                        say(&format!("bestmove {t}"));
                    }
                    "garbage" => {
                        for i in 0..50 {
                            say(&format!("\u{1}\u{7f}garbage {i} ÿÿ {{{{{{ bestmovex"));
                        }
                        say("info score cp banana");
                        say("bestmove \u{2}!!garbage!!");
                    }
                    "none" => say("bestmove (none)"),
                    "longline" => {
                        let chunk = vec![b'x'; 1 << 20];
                        let mut o = std::io::stdout();
                        for _ in 0..mib {
                            if o.write_all(&chunk).and_then(|_| o.flush()).is_err() {
                                return;
                            }
                        }
                        std::thread::sleep(Duration::from_secs(3600));
                    }
                    "escape" => say("bestmove \u{1b}[2J\u{1b}]0;pwned\u{7}\u{1b}[31mzz"),
                    "stuck" => loop {
                        std::thread::sleep(Duration::from_secs(3600));
                    },
                    "empty" => say("bestmove"),
                    _ => {}
                }
            }
            _ => {}
        }
    }
}
