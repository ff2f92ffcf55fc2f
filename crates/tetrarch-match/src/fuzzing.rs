//! The runner's fuzz targets (`fuzz/fuzz_targets/engine_output.rs`,
//! `resume_records.rs`) call these; each panics when an invariant breaks.

use std::io::BufReader;
use tetrarch_core::game::{Notation, Rules};

use tetrarch_core::games::{fourchess::FourChess, quadranj::Quadranj, quattuor::Quattuor, queenskings::QueensKings};
use tetrarch_core::turns::{parse_turn, play_turn, turn_string};

use crate::engine::{info_depth, info_score, read_line_capped, LineRead, WaitError};
use crate::games::GameInfo;
use crate::play::bestmove_turn;
use crate::record::{parse_records, GameRecord};
use crate::text::printable;

fn no_control(s: &str) -> bool {
    !s.chars().any(char::is_control)
}

/// A `bestmove` line judged on `pos`: a turn is legal and replays, a
/// forfeit reason is short and printable.
fn judge<G: GameInfo>(pos: &G, line: &str) {
    match bestmove_turn(pos, line) {
        Ok(acts) => {
            let tok = turn_string(pos, &acts);
            assert_eq!(parse_turn(pos, &tok).as_deref(), Ok(&acts[..]), "{tok}");
            let mut g = pos.clone();
            play_turn(&mut g, &acts);
        }
        Err(why) => {
            let why = why.to_string();
            assert!(no_control(&why), "{why:?}");
            assert!(why.chars().count() < 400, "{why}");
        }
    }
}

/// `data` as an engine's output, read as the runner reads it (lines capped
/// at `max` bytes, here small so the fuzzer reaches the cap), every line
/// scored (`info … score`), and every `bestmove` judged on the start
/// positions of four games: nothing panics, memory stays within the cap,
/// what reaches the terminal or the PGN has no control character.
pub fn engine_output(data: &[u8]) {
    let max = 512;
    thread_local! {
        // The start positions, made once (a fuzz target runs millions of inputs).
        static POS: (FourChess, Quadranj, QueensKings, Option<Quattuor>) = {
            let qo = Quattuor::default_options("quattuor");
            let s = |seat| Quattuor::propose_setup(&qo, seat, 1).unwrap_or_default();
            (
                FourChess::startpos(&FourChess::default_options("fourchess")),
                Quadranj::startpos(&Quadranj::default_options("quadranj")),
                QueensKings::startpos(&QueensKings::default_options("queenskings9-duel")),
                Quattuor::from_setup(&[&s(0), &s(1)], &qo).ok(),
            )
        };
    }
    POS.with(|(fc, qj, qk, qr)| read_engine_output(data, max, fc, qj, qk, qr.as_ref()));
}

fn read_engine_output(data: &[u8], max: usize, fc: &FourChess, qj: &Quadranj, qk: &QueensKings, qr: Option<&Quattuor>) {
    // A small buffer: lines cross its edges.
    let mut r = BufReader::with_capacity(16, data);
    let mut buf = Vec::new();
    loop {
        let got = read_line_capped(&mut r, &mut buf, max).expect("reading bytes does not fail");
        assert!(buf.len() <= max);
        match got {
            LineRead::Eof => break,
            LineRead::TooLong => {
                assert_eq!(buf.len(), max);
                assert!(no_control(&WaitError::TooLong.reason(0)));
                break;
            }
            LineRead::Line => {}
        }
        let s = String::from_utf8_lossy(&buf);
        let l = s.trim_end_matches(['\n', '\r']);
        if let Some(v) = info_score(l) {
            assert!((-100_000..=100_000).contains(&v), "{v}");
            let _ = crate::dialect::score_for_mover(v, 3);
        }
        let _ = info_depth(l);
        assert!(no_control(&printable(l)));
        if l.split_whitespace().next() == Some("bestmove") {
            judge(fc, l);
            judge(qj, l);
            judge(qk, l);
            if let Some(q) = qr {
                judge(q, l);
            }
        }
    }
}

/// `data` as a records file read by `--resume`, and as the PGN file beside
/// it: records parse (or not) without panicking, write back to the same
/// record, replay with the rules without panicking; their PGN text has no
/// control character; the PGN repair keeps a prefix of the file on a
/// character boundary and, run again on its result, changes nothing.
pub fn resume_records(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let recs = match parse_records(text) {
        Ok(r) => r,
        Err(e) => {
            assert!(!e.to_string().is_empty());
            Vec::new()
        }
    };
    let names = ["White", "Black", "Yellow", "Red"];
    for r in &recs {
        let again = GameRecord::from_json(&r.to_json()).expect("a record reads back");
        assert_eq!(again.to_json(), r.to_json());
        let pgn = crate::pgn::write(r, &names, true);
        assert!(!pgn.chars().any(|c| c.is_control() && c != '\n'), "{pgn:?}");
        let _ = r.verify_default();
    }
    let write = |r: &GameRecord| crate::pgn::write(r, &names, true);
    let (keep, add) = crate::pgn::repair(text, &recs, write);
    assert!(keep <= text.len() && text.is_char_boundary(keep));
    let repaired = format!("{}{add}", &text[..keep]);
    let (keep2, add2) = crate::pgn::repair(&repaired, &recs, write);
    assert_eq!((keep2, add2.as_str()), (repaired.len(), ""), "repair is not stable");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_output_examples() {
        engine_output(b"info depth 3 score cp 12 pv e2e3\nbestmove e2e3\nbestmove \x1b[2J\nbestmove\n");
        engine_output(&[b'x'; 2000]);
        engine_output(b"bestmove d2b3d3b4c4+c2,a1b1\r\ninfo score mate -3\n");
    }

    #[test]
    fn resume_records_examples() {
        resume_records(b"");
        resume_records(b"{\"game\":1}\n[Event \"x\"]\n");
        resume_records(b"[Event \"tetrarch match\"]\n[Round \"1.1\"]\n\n1. e2e3 1-0\n\n[Event \"tor");
        // Found by the fuzzer (twenty-seventh session): a record whose turns
        // include a string that starts like a PGN tag.
        resume_records(include_bytes!("../tests/data/resume-tag-in-turns.txt"));
    }
}
