//! [`Thinking`]: one line of the engine's search report, read from an
//! `info` line the in-process engine printed (with `MultiPV`, one per
//! line: [`Thinking::multipv`]); [`Thinking::cp`] reads its score as a
//! number for the score graph and the evaluation bar.

use serde::Serialize;

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
    pub(super) fn parse(line: &str) -> Option<Thinking> {
        let w: Vec<&str> = line.split(' ').collect();
        if w.first() != Some(&"info") || !w.contains(&"depth") {
            return None;
        }
        let mut t = Thinking { multipv: 1, ..Thinking::default() };
        let mut i = 1;
        while i < w.len() {
            match w[i] {
                "depth" => t.depth = w.get(i + 1).unwrap_or(&"").to_string(),
                "multipv" => t.multipv = w.get(i + 1).and_then(|k| k.parse().ok()).filter(|&k| k >= 1).unwrap_or(1),
                "score" => {
                    t.score = format!("{} {}", w.get(i + 1).unwrap_or(&""), w.get(i + 2).unwrap_or(&""));
                    i += 1;
                }
                "nodes" => t.nodes = w.get(i + 1).unwrap_or(&"").to_string(),
                "nps" => t.nps = w.get(i + 1).unwrap_or(&"").to_string(),
                "time" => t.time = w.get(i + 1).unwrap_or(&"").to_string(),
                "pv" => {
                    t.pv = w[i + 1..].join(" ");
                    break;
                }
                _ => {}
            }
            i += 1;
        }
        Some(t)
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

    #[test]
    fn multipv_lines_and_scores() {
        let a = Thinking::parse("info depth 5 seldepth 13 multipv 2 score cp -26 nodes 17 nps 3 time 44 pv f2f3 b7c7").unwrap();
        assert_eq!((a.multipv, a.depth.as_str(), a.cp(), a.pv.as_str()), (2, "5", Some(-26), "f2f3 b7c7"));
        let b = Thinking::parse("info depth 7 score mate 3 pv a1a2").unwrap();
        assert_eq!((b.multipv, b.cp()), (1, Some(MATE_CP - 3)));
        assert_eq!(Thinking::parse("info depth 7 score mate -2 pv a1a2").unwrap().cp(), Some(-MATE_CP + 2));
        assert_eq!(Thinking::parse("info depth 7 nodes 5").unwrap().cp(), None);
        assert!(Thinking::parse("info string hello").is_none());
        let mut lines = Vec::new();
        b.clone().into_lines(&mut lines);
        a.clone().into_lines(&mut lines);
        Thinking { multipv: 4, ..a.clone() }.into_lines(&mut lines); // a gap: dropped
        assert_eq!(lines.iter().map(|l| l.multipv).collect::<Vec<_>>(), vec![1, 2]);
        Thinking { multipv: 1, depth: "8".into(), ..b }.into_lines(&mut lines);
        assert_eq!(lines[0].depth, "8");
    }
}
