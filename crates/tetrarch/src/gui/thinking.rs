//! [`Thinking`]: the engine's last search report, read from the `info`
//! line the in-process engine printed.

use serde::Serialize;

/// The last search report (as the state's `thinking.info`).
#[derive(Clone, Debug, Default, Serialize)]
pub(super) struct Thinking {
    pub(super) depth: String,
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
        let mut t = Thinking::default();
        let mut i = 1;
        while i < w.len() {
            match w[i] {
                "depth" => t.depth = w.get(i + 1).unwrap_or(&"").to_string(),
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
}
