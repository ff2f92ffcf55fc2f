//! A picture of a position for graphical front ends: the cells of the board
//! with their place and colour class, the seats with their colours, and what
//! stands on each cell (a list, bottom first, so stacks are covered).
//!
//! A game describes its board once in its `view` module
//! ([`crate::game::Presentation::board_view`]); the `tetrarch` crate's `board_json`
//! turns it into the one line of JSON of the protocol's `query board` and
//! of the `tetrarch gui` API (`docs/protocol.md`, "Board description").
//! Nothing here knows a rule or JSON.
//!
//! Cues: a game may also say what its rules are about to do, from the
//! position's own state (never a rule written in a front end): a piece that
//! already acted this turn carries [`PieceView::acted`] (drawn pale), and a
//! cell carries [`CellView::marks`] such as a pending capture. Both are
//! empty by default, so a game without cues sets nothing.

/// The outline of a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// A 1 × 1 square.
    Square,
    /// A pointy-top hexagon 1 wide (rows of a hex board are √3/2 apart).
    Hex,
}

/// One piece (or one layer of a stack).
#[derive(Clone, Debug, PartialEq)]
pub struct PieceView {
    /// Short text to draw (`♚`, `A♦`, `K`); may be empty for a plain disc.
    pub glyph: String,
    /// The game's code of the piece (`wK`, `dA`, `sm`), for tooltips.
    pub kind: String,
    /// The owner (a seat index, `game::Seat`), `None` for a neutral piece
    /// (an empty blocker).
    pub seat: Option<usize>,
    /// `Some(why)` when the piece has already acted this turn and so cannot
    /// act again (`moved this turn`): front ends draw it pale and show the
    /// text. `None` (the default of [`PieceView::new`]) otherwise.
    pub acted: Option<String>,
}

impl PieceView {
    /// A piece of `seat` (not marked as having acted).
    pub fn new(glyph: impl Into<String>, kind: impl Into<String>, seat: Option<usize>) -> Self {
        PieceView { glyph: glyph.into(), kind: kind.into(), seat, acted: None }
    }
}

/// What a [`Mark`] on a cell announces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MarkKind {
    /// What stands on the cell is captured when a later turn ends if the
    /// position still calls for it then (Quadranj's custodian capture,
    /// which happens at the end of the capturer's turn).
    PendingCapture,
}

/// A cue on one cell: something the rules will do there, as the position
/// already knows it.
#[derive(Clone, Debug, PartialEq)]
pub struct Mark {
    /// What kind of cue.
    pub kind: MarkKind,
    /// The seat it concerns (for a pending capture: the capturer), if any.
    pub seat: Option<usize>,
    /// A sentence for a person (`captured at the end of Red's next turn`).
    pub text: String,
}

/// One cell of the board.
#[derive(Clone, Debug, PartialEq)]
pub struct CellView {
    /// The square name used in tokens (`e2`, `k12`).
    pub name: String,
    /// Centre, in board units: x to the right, y up, as seat 1 sees the board.
    pub x: f32,
    /// See [`CellView::x`].
    pub y: f32,
    /// Outline.
    pub shape: Shape,
    /// Colour class: `light`, `dark`, `base`, `goal`, `neutral`, `keep`,
    /// `centre`, `edge`, … (front ends map unknown classes to a default).
    pub class: &'static str,
    /// Whether a piece can ever stand here (false for decoration such as
    /// the light squares of a checkers board).
    pub playable: bool,
    /// What stands on the cell, bottom first (empty: nothing).
    pub pieces: Vec<PieceView>,
    /// Cues on the cell (empty: none), see [`Mark`].
    pub marks: Vec<Mark>,
}

/// One seat.
#[derive(Clone, Debug, PartialEq)]
pub struct SeatView {
    /// The colour name (`White`, `Red`).
    pub name: &'static str,
    /// A CSS colour to draw its pieces with (`#d32f2f`).
    pub colour: &'static str,
    /// Whether the seat is still playing (false for an eliminated seat).
    pub active: bool,
}

/// Pieces off the board (captured pieces that may come back, a hand).
#[derive(Clone, Debug, PartialEq)]
pub struct ReserveView {
    /// Whose they are (`None`: nobody's).
    pub seat: Option<usize>,
    /// What they are (`captured`).
    pub label: &'static str,
    /// The pieces.
    pub pieces: Vec<PieceView>,
}

/// The picture of one position.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct BoardView {
    /// Extent of the board in board units (cells lie within
    /// `0..width` × `0..height`).
    pub width: f32,
    /// See [`BoardView::width`].
    pub height: f32,
    /// Every cell.
    pub cells: Vec<CellView>,
    /// Every seat, `p1` first.
    pub seats: Vec<SeatView>,
    /// Pieces off the board.
    pub reserves: Vec<ReserveView>,
    /// Short facts about the position a person should see (`suits moved:
    /// d`, `inert: Yellow`).
    pub notes: Vec<String>,
}

/// The square names in an action token, in order: every lowercase letter
/// followed by decimal digits (`e5xg7xe9` → `e5 g7 e9`, `b10a11q` →
/// `b10 a11`). The default of [`crate::game::Presentation::action_cells`].
pub fn token_cells(token: &str) -> Vec<String> {
    let b = token.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let starts = b[i].is_ascii_lowercase() && i + 1 < b.len() && b[i + 1].is_ascii_digit();
        if starts {
            let mut j = i + 1;
            while j < b.len() && b[j].is_ascii_digit() {
                j += 1;
            }
            out.push(token[i..j].to_string());
            i = j;
        } else {
            i += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_of_tokens() {
        assert_eq!(token_cells("e2e3"), ["e2", "e3"]);
        assert_eq!(token_cells("b10a11q"), ["b10", "a11"]);
        assert_eq!(token_cells("e5xg7xe9"), ["e5", "g7", "e9"]);
        assert_eq!(token_cells("c3xd3"), ["c3", "d3"]);
        assert_eq!(token_cells("a8/2b8/1c8.c8^d8"), ["a8", "b8", "c8", "c8", "d8"]);
        assert_eq!(token_cells("0000"), Vec::<String>::new());
    }
}
