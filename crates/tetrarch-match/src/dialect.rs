//! The 4pchess UCI dialect (`proto=4pchess`, `teamchess` only): how the
//! runner writes positions, clocks and reads scores for such an engine. Its
//! answers (`bestmove h2-h3`, `e10-e11=Q`) are read by the `teamchess` token
//! parser, which accepts that form.

use tetrarch_core::game::Seat;
use tetrarch_core::turns::{parse_turn, play_turn};

use crate::games::MatchGame;
use crate::openings::{Opening, Start};

/// The game's moves in the dialect, kept turn by turn.
pub struct DialectLine {
    /// `startpos` or `fen <FEN4>`.
    start: String,
    /// Every turn so far, in the dialect (`h2-h3`).
    turns: Vec<String>,
    /// The rule options with `Notation` = `fen4`.
    opts4: Option<Box<dyn std::any::Any>>,
}

fn fen4_opts<G: MatchGame>(opts: &G::Options) -> Result<G::Options, String> {
    let mut o = opts.clone();
    G::set_option(&mut o, "Notation", "fen4").map_err(|e| format!("proto=4pchess: {e}"))?;
    Ok(o)
}

impl DialectLine {
    /// The line of an opening: its start and its turns in the dialect.
    pub fn new<G: MatchGame>(opening: &Opening, opts: &G::Options) -> Result<DialectLine, String> {
        let opts4 = fen4_opts::<G>(opts)?;
        let mut g = opening.start_position::<G>(opts)?;
        let start = match opening.start {
            Start::Startpos => "startpos".to_string(),
            _ => {
                let fen4 = g
                    .alt_notations()
                    .into_iter()
                    .find(|(label, _)| *label == "FEN4")
                    .ok_or("proto=4pchess: this game has no FEN4")?;
                format!("fen {}", fen4.1)
            }
        };
        let mut line = DialectLine { start, turns: Vec::new(), opts4: Some(Box::new(opts4)) };
        for t in &opening.turns {
            let acts = parse_turn(&g, t).map_err(|e| format!("turn `{t}`: {e}"))?;
            line.push::<G>(&g, &acts);
            play_turn(&mut g, &acts);
        }
        Ok(line)
    }

    /// Adds the turn `acts` played from `before`.
    pub fn push<G: MatchGame>(&mut self, before: &G, acts: &[G::Action]) {
        let opts4 = self.opts4.as_ref().and_then(|o| o.downcast_ref::<G::Options>());
        let tok = opts4
            .and_then(|o| before.dialect_turn(o, acts))
            .unwrap_or_else(|| tetrarch_core::turns::turn_string(before, acts));
        self.turns.push(tok);
    }

    /// `position startpos moves h2-h3 …` / `position fen <FEN4> moves …`.
    pub fn position_command(&self) -> String {
        let mut s = format!("position {}", self.start);
        if !self.turns.is_empty() {
            s.push_str(" moves ");
            s.push_str(&self.turns.join(" "));
        }
        s
    }
}

/// The clock words of the dialect: `r b y g` are the four seats' colours.
pub const CLOCK_LETTERS: [&str; 4] = ["r", "b", "y", "g"];

/// A dialect score (from Red and Yellow's point of view) from the mover's
/// side.
pub fn score_for_mover(score: i32, mover: Seat) -> i32 {
    if mover % 2 == 0 {
        score
    } else {
        -score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tetrarch_core::game::Game;
    use tetrarch_core::games::teamchess::TeamChess;

    #[test]
    fn dialect_positions() {
        let opts = TeamChess::default_options("teamchess");
        let o = Opening { start: Start::Startpos, turns: vec!["h2h4".into(), "b8c8".into()] };
        let line = DialectLine::new::<TeamChess>(&o, &opts).unwrap();
        assert_eq!(line.position_command(), "position startpos moves h2-h4 b8-c8");
        let f = Opening {
            start: Start::Fen("3yK4/8/8/14/4rP9/14/13gK/bK13/14/14/14/8/8/4rK3 r - - 0 1".into()),
            turns: vec!["e10e11q".into()],
        };
        let line = DialectLine::new::<TeamChess>(&f, &opts).unwrap();
        let cmd = line.position_command();
        assert!(cmd.starts_with("position fen R-0,0,0,0-0,0,0,0-0,0,0,0-0,0,0,0-0-"), "{cmd}");
        assert!(cmd.ends_with(" moves e10-e11=Q"), "{cmd}");
        assert_eq!(score_for_mover(50, 1), -50);
        assert_eq!(score_for_mover(50, 2), 50);
    }
}
