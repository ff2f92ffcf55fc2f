//! [`Thinking`]: one line of the engine's search report, from the typed
//! report the in-process engine sends ([`SearchReport`]; with `MultiPV`,
//! one per line: [`Thinking::multipv`]); [`Thinking::cp`] reads its score
//! as a number for the score graph and the evaluation bar.

use serde::Serialize;

use crate::out::{score_text, SearchReport};

/// A mate score as centipawns (`mate 3` → 10,000 − 3): beyond any
/// evaluation, nearer mates larger.
pub(super) const MATE_CP: i64 = 10_000;

/// One line of the last search report (the state's `thinking.info` is
/// the best, `thinking.lines` all of them).
#[derive(Clone, Debug, Default, Serialize)]
pub(super) struct Thinking {
    /// The line's rank (1 = the best; 1 without `MultiPV`).
    pub(super) multipv: usize,
    pub(super) depth: String,
    /// `cp 34` or `mate -3`, from the view of the seat to move.
    pub(super) score: String,
    pub(super) nodes: String,
    pub(super) nps: String,
    pub(super) time: String,
    pub(super) pv: String,
}

impl Thinking {
    /// The line of a search report the engine sent as an event.
    pub(super) fn of(r: &SearchReport) -> Thinking {
        Thinking {
            multipv: r.multipv.max(1),
            depth: r.depth.to_string(),
            score: score_text(r.score),
            nodes: r.nodes.to_string(),
            nps: r.nps.to_string(),
            time: r.time_ms.to_string(),
            pv: r.pv.join(" "),
        }
    }

    /// The score in centipawns from the view of the seat to move (a mate
    /// in n: ±([`MATE_CP`] − n)); `None` if the line has no score.
    pub(super) fn cp(&self) -> Option<i64> {
        let (kind, v) = self.score.split_once(' ')?;
        let v: i64 = v.trim().parse().ok()?;
        match kind {
            "cp" => Some(v),
            "mate" if v > 0 => Some(MATE_CP - v),
            "mate" => Some(-MATE_CP - v),
            _ => None,
        }
    }

    /// Takes `self` into `lines` at its rank (a line of a higher rank
    /// than one past the last is dropped: the engine prints them in order).
    pub(super) fn into_lines(self, lines: &mut Vec<Thinking>) {
        let k = self.multipv - 1;
        if k < lines.len() {
            lines[k] = self;
        } else if k == lines.len() && k < MAX_LINES {
            lines.push(self);
        }
    }
}

/// The most lines the page asks for (`MultiPV` of an analysis, 1..=5).
pub(super) const MAX_LINES: usize = 5;

#[cfg(test)]
mod tests {
    use super::*;
    use tetrarch_search::Score;

    fn report(multipv: usize, depth: u32, score: Score, pv: &[&str]) -> SearchReport {
        let pv = pv.iter().map(|t| t.to_string()).collect();
        SearchReport { depth, seldepth: depth + 6, multipv, score, nodes: 17, nps: 3, hashfull: 0, time_ms: 44, pv }
    }

    #[test]
    fn multipv_lines_and_scores() {
        let a = Thinking::of(&report(2, 5, Score::Cp(-26), &["f2f3", "b7c7"]));
        assert_eq!((a.multipv, a.depth.as_str(), a.cp(), a.pv.as_str()), (2, "5", Some(-26), "f2f3 b7c7"));
        assert_eq!((a.score.as_str(), a.nodes.as_str(), a.nps.as_str(), a.time.as_str()), ("cp -26", "17", "3", "44"));
        let b = Thinking::of(&report(1, 7, Score::Mate(3), &["a1a2"]));
        assert_eq!((b.multipv, b.cp()), (1, Some(MATE_CP - 3)));
        assert_eq!(Thinking::of(&report(1, 7, Score::Mate(-2), &["a1a2"])).cp(), Some(-MATE_CP + 2));
        assert_eq!(Thinking::of(&report(0, 7, Score::Cp(1), &[])).multipv, 1, "a rank of 0 reads as the best");
        assert_eq!(Thinking { score: String::new(), ..b.clone() }.cp(), None);
        let mut lines = Vec::new();
        b.clone().into_lines(&mut lines);
        a.clone().into_lines(&mut lines);
        Thinking { multipv: 4, ..a.clone() }.into_lines(&mut lines); // a gap: dropped
        assert_eq!(lines.iter().map(|l| l.multipv).collect::<Vec<_>>(), vec![1, 2]);
        Thinking { multipv: 1, depth: "8".into(), ..b }.into_lines(&mut lines);
        assert_eq!(lines[0].depth, "8");
    }
}
