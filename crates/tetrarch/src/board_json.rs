//! The board description as JSON: a game's [`BoardView`] (which the core
//! crate's games build, knowing no JSON) with the position facts a front
//! end needs, serialised by `serde_json`. One line of it answers the
//! protocol's `query board`, and the `tetrarch gui` API embeds it
//! (`docs/protocol.md`, "Board description").

use serde::{Serialize, Serializer};
use tetrarch_core::game::{Game, GameResult, Seat};
use tetrarch_core::handle::BoardState;
use tetrarch_core::view::{BoardView, Mark, MarkKind, PieceView, Shape};

/// A board description ready to serialise: the view and what the game
/// says of the position.
#[derive(Clone, Debug)]
pub struct BoardJson {
    /// The picture.
    pub view: BoardView,
    /// The seat to move (0-based).
    pub to_move: Seat,
    /// Whether the position is at the start of a turn.
    pub turn_start: bool,
    /// The result (`win 1 3 checkmate`), if the game is over.
    pub result: Option<String>,
    /// The winning seats (0-based).
    pub winners: Vec<Seat>,
}

impl BoardJson {
    /// The description of `g`, given the keys of the earlier turn-start
    /// positions for the history rules; `None` when the game has no
    /// [`Presentation::board_view`](tetrarch_core::game::Presentation::board_view).
    pub fn of<G: Game>(g: &G, history: &[u64]) -> Option<BoardJson> {
        BoardState::of(g, history).map(BoardJson::from)
    }

    /// The one line of JSON.
    pub fn to_line(&self) -> String {
        serde_json::to_string(self).expect("a board description serialises")
    }
}

impl From<BoardState> for BoardJson {
    /// The description of a board the game handle gives.
    fn from(b: BoardState) -> BoardJson {
        let winners = match b.outcome.map(|o| o.result) {
            Some(GameResult::Win(w)) => w.iter().collect(),
            _ => Vec::new(),
        };
        BoardJson {
            view: b.view,
            to_move: b.to_move,
            turn_start: b.turn_start,
            result: b.outcome.map(|o| o.to_string()),
            winners,
        }
    }
}

/// The JSON board description of `g` (`query board`): [`BoardJson::of`] as
/// one line.
pub fn board_json<G: Game>(g: &G, history: &[u64]) -> Option<String> {
    BoardJson::of(g, history).map(|b| b.to_line())
}

/// A coordinate: rounded to 3 decimals, written without trailing zeros
/// (`2`, `0.866`).
struct Num(f32);

impl Serialize for Num {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let r = (self.0 * 1000.0).round() / 1000.0;
        let text = format!("{r:.3}");
        let text = text.trim_end_matches('0').trim_end_matches('.');
        match text.parse::<i64>() {
            Ok(i) => s.serialize_i64(i),
            // The shortest f64 that reads back as the 3-decimal text.
            Err(_) => s.serialize_f64(text.parse().unwrap_or(0.0)),
        }
    }
}

/// A seat as the JSON numbers it: from 1, `null` for none.
struct SeatNo(Option<Seat>);

impl Serialize for SeatNo {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Some(x) => s.serialize_u64(x as u64 + 1),
            None => s.serialize_none(),
        }
    }
}

#[derive(Serialize)]
struct Board<'a> {
    width: Num,
    height: Num,
    to_move: SeatNo,
    turn_start: bool,
    result: Option<&'a str>,
    winners: Vec<SeatNo>,
    seats: Vec<SeatOut<'a>>,
    cells: Vec<Cell<'a>>,
    reserves: Vec<Reserve<'a>>,
    notes: &'a [String],
}

#[derive(Serialize)]
struct SeatOut<'a> {
    seat: SeatNo,
    name: &'a str,
    colour: &'a str,
    active: bool,
}

#[derive(Serialize)]
struct Cell<'a> {
    name: &'a str,
    x: Num,
    y: Num,
    shape: &'static str,
    class: &'a str,
    /// Written only for decoration (`false`).
    #[serde(skip_serializing_if = "is_true")]
    playable: bool,
    pieces: Vec<Piece<'a>>,
    /// Written only when the cell has cues.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    marks: Vec<MarkOut<'a>>,
}

fn is_true(b: &bool) -> bool {
    *b
}

/// A cue on a cell (`{"kind":"pending-capture","seat":1,"text":…}`).
#[derive(Serialize)]
struct MarkOut<'a> {
    kind: &'static str,
    seat: SeatNo,
    text: &'a str,
}

fn mark_word(k: MarkKind) -> &'static str {
    match k {
        MarkKind::PendingCapture => "pending-capture",
    }
}

fn marks(m: &[Mark]) -> Vec<MarkOut<'_>> {
    m.iter().map(|m| MarkOut { kind: mark_word(m.kind), seat: SeatNo(m.seat), text: &m.text }).collect()
}

#[derive(Serialize)]
struct Reserve<'a> {
    seat: SeatNo,
    label: &'a str,
    pieces: Vec<Piece<'a>>,
}

#[derive(Serialize)]
struct Piece<'a> {
    glyph: &'a str,
    kind: &'a str,
    seat: SeatNo,
    /// Written only for a piece that already acted this turn (why).
    #[serde(skip_serializing_if = "Option::is_none")]
    acted: Option<&'a str>,
}

fn pieces(p: &[PieceView]) -> Vec<Piece<'_>> {
    p.iter().map(|p| Piece { glyph: &p.glyph, kind: &p.kind, seat: SeatNo(p.seat), acted: p.acted.as_deref() }).collect()
}

fn shape_word(s: Shape) -> &'static str {
    match s {
        Shape::Square => "square",
        Shape::Hex => "hex",
    }
}

impl Serialize for BoardJson {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let v = &self.view;
        Board {
            width: Num(v.width),
            height: Num(v.height),
            to_move: SeatNo(Some(self.to_move)),
            turn_start: self.turn_start,
            result: self.result.as_deref(),
            winners: self.winners.iter().map(|&w| SeatNo(Some(w))).collect(),
            seats: v
                .seats
                .iter()
                .enumerate()
                .map(|(i, x)| SeatOut { seat: SeatNo(Some(i)), name: x.name, colour: x.colour, active: x.active })
                .collect(),
            cells: v
                .cells
                .iter()
                .map(|c| Cell {
                    name: &c.name,
                    x: Num(c.x),
                    y: Num(c.y),
                    shape: shape_word(c.shape),
                    class: c.class,
                    playable: c.playable,
                    pieces: pieces(&c.pieces),
                    marks: marks(&c.marks),
                })
                .collect(),
            reserves: v
                .reserves
                .iter()
                .map(|r| Reserve { seat: SeatNo(r.seat), label: r.label, pieces: pieces(&r.pieces) })
                .collect(),
            notes: &v.notes,
        }
        .serialize(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_escapes() {
        let n = |x: f32| serde_json::to_string(&Num(x)).unwrap();
        assert_eq!([n(0.8660254), n(2.0), n(-0.0), n(10.5), n(0.001), n(12.9999)], ["0.866", "2", "0", "10.5", "0.001", "13"]);
        let view = BoardView {
            width: 1.0,
            height: 0.866,
            cells: vec![],
            seats: vec![],
            reserves: vec![],
            notes: vec!["a\"b\\c\n".into()],
        };
        let b = BoardJson { view, to_move: 1, turn_start: true, result: None, winners: vec![0, 2] };
        assert_eq!(
            b.to_line(),
            r#"{"width":1,"height":0.866,"to_move":2,"turn_start":true,"result":null,"winners":[1,3],"seats":[],"cells":[],"reserves":[],"notes":["a\"b\\c\n"]}"#
        );
    }

    /// The cues are written only where a game set them: `acted` on a piece
    /// that acted this turn, `marks` on a cell with a pending capture; a
    /// plain piece and cell keep the fields they had before.
    #[test]
    fn cues_only_where_set() {
        use tetrarch_core::view::CellView;
        let cell = |name: &str, pieces: Vec<PieceView>, marks: Vec<Mark>| CellView {
            name: name.into(),
            x: 0.5,
            y: 0.5,
            shape: Shape::Square,
            class: "light",
            playable: true,
            pieces,
            marks,
        };
        let pale = PieceView { acted: Some("moved this turn".into()), ..PieceView::new("B", "blocker", Some(0)) };
        let mark = Mark { kind: MarkKind::PendingCapture, seat: Some(1), text: "at the end of Blue's next turn".into() };
        let view = BoardView {
            width: 2.0,
            height: 1.0,
            cells: vec![cell("a1", vec![pale], vec![mark]), cell("b1", vec![PieceView::new("G", "guard", Some(1))], vec![])],
            ..BoardView::default()
        };
        let line = BoardJson { view, to_move: 0, turn_start: false, result: None, winners: vec![] }.to_line();
        let v: serde_json::Value = serde_json::from_str(&line).unwrap();
        let a1 = &v["cells"][0];
        assert_eq!(a1["pieces"][0]["acted"], "moved this turn");
        assert_eq!(
            a1["marks"],
            serde_json::json!([{"kind": "pending-capture", "seat": 2, "text": "at the end of Blue's next turn"}])
        );
        let b1 = v["cells"][1].as_object().unwrap();
        assert!(!b1.contains_key("marks"), "{line}");
        assert!(!b1["pieces"][0].as_object().unwrap().contains_key("acted"), "{line}");
    }
}
