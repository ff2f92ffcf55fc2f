//! What the GUI asks of a game, through the typed game handle
//! ([`AnyGame`]): the variant's facts, the position's fields of the state,
//! the legal actions with their cells, a line's cells and the set-up
//! board. The page never applies a rule itself: it asks for the legal
//! actions and sends turns back.

use serde::Serialize;

use crate::board_json::BoardJson;
use tetrarch_core::game::{OptionSpec, Seat};
use tetrarch_core::handle::{AnyGame, GameError, Variant};
use tetrarch_core::view::BoardView;
use tetrarch_core::zobrist::splitmix64;

use super::error::GuiError;
pub use tetrarch_core::handle::{OptionPairs, Start, ACTIONS_LISTED};
pub use tetrarch_core::options::default_value;

/// Facts about a variant.
#[derive(Clone, Debug)]
pub struct Facts {
    /// Number of seats.
    pub seats: usize,
    /// Colour names, seat 1 first.
    pub names: Vec<&'static str>,
    /// Whether it has a set-up choice (`go setup`).
    pub setup: bool,
    /// Whether it has a board description.
    pub board: bool,
    /// Whether it has a record format (`record`).
    pub record: bool,
    /// The side (team) of every seat.
    pub sides: Vec<usize>,
    /// Whether every seat plays for itself with more than two seats (the
    /// engine's `Strategy` option applies).
    pub ffa: bool,
    /// The rule options (`setoption`) the page offers: the variant's
    /// options but those that only change how turns are written.
    pub options: Vec<OptionSpec>,
}

impl Facts {
    /// The facts of `variant` (from its start position).
    pub fn of(variant: Variant) -> Facts {
        let g = AnyGame::startpos(variant);
        Facts {
            seats: g.seats(),
            names: (0..g.seats()).map(|s| g.seat_name(s)).collect(),
            setup: g.has_setup(),
            board: g.board().is_some(),
            record: g.has_record(),
            sides: (0..g.seats()).map(|s| g.side_of(s)).collect(),
            ffa: g.free_for_all(),
            options: g.rule_options(),
        }
    }
}

/// The position's fields of the GUI state (seats from 1).
#[derive(Clone, Debug, Serialize)]
pub struct Position {
    /// The board description (`None`: the game has none).
    pub board: Option<BoardJson>,
    position: String,
    start_position: String,
    to_move: Seat,
    over: bool,
    result: Option<String>,
    text: String,
    /// The cells of the last turn.
    last_cells: Vec<String>,
    /// How many actions the search would consider (not every legal one).
    legal_actions: usize,
}

/// The position of a game as the GUI state shows it ([`snapshot`]).
#[derive(Clone, Debug)]
pub struct SnapshotOut {
    /// The position's fields of the state.
    pub position: Position,
    /// The seat to move (0-based).
    pub to_move: Seat,
    /// Whether the game is over.
    pub over: bool,
    /// The result (`win 1 3 checkmate`) when over.
    pub result: Option<String>,
}

/// The fields of the GUI state for the position of `g` (`board`,
/// `position`, `to_move`, `result`, `text`, `last_cells`,
/// `legal_actions`); `time_loss`: the seat that lost on time (the game
/// ends there unless the rules ended it already).
pub fn snapshot(g: &AnyGame, time_loss: Option<Seat>) -> SnapshotOut {
    let mut outcome = g.outcome().map(|o| o.to_string());
    if let (None, Some(loser)) = (&outcome, time_loss) {
        let mut w = String::from("win");
        for s in (0..g.seats()).filter(|&s| g.side_of(s) != g.side_of(loser)) {
            w.push_str(&format!(" {}", s + 1));
        }
        outcome = Some(w + " time");
    }
    let legal_actions = if outcome.is_none() { g.search_action_count() } else { 0 };
    let over = outcome.is_some() || legal_actions == 0;
    let result = outcome.or_else(|| over.then(|| "none (no legal action)".to_string()));
    let position = Position {
        board: g.board().map(BoardJson::from),
        position: g.position_string(),
        start_position: g.start_position_string(),
        to_move: g.to_move() + 1,
        over,
        result: result.clone(),
        text: g.render(),
        last_cells: g.last_turn_cells(),
        legal_actions,
    };
    SnapshotOut { position, to_move: g.to_move(), over, result }
}

/// `/api/actions`.
#[derive(Serialize)]
struct ActionsOut<'a> {
    partial: bool,
    prefix: &'a [String],
    board: Option<BoardJson>,
    actions: Vec<ActionOut>,
    idle: Vec<Idle>,
}

/// Why a piece has no action (`/api/actions`, `idle`).
#[derive(Serialize)]
struct Idle {
    cell: String,
    reason: String,
}

/// One legal action of `/api/actions`.
#[derive(Serialize)]
struct ActionOut {
    token: String,
    cells: Vec<String>,
    ends_turn: bool,
    pass: bool,
}

/// The legal actions of `g` after the first actions `prefix` of the
/// current turn, as JSON: `{"prefix":[…],"board":…,"actions":[{"token",
/// "cells","ends_turn","pass"}…],"idle":[{"cell","reason"}…]}`; `idle`
/// gives, for the cells of the board where no listed action starts, the
/// game's reason why what stands there cannot act, where it has one.
pub fn actions_json(g: &AnyGame, prefix: &[String]) -> Result<String, GuiError> {
    let c = g.actions_after(prefix)?;
    let out = ActionsOut {
        partial: c.partial,
        prefix,
        board: c.board.map(BoardJson::from),
        actions: c
            .actions
            .into_iter()
            .map(|a| ActionOut { token: a.token, cells: a.cells, ends_turn: a.ends_turn, pass: a.pass })
            .collect(),
        idle: c.idle.into_iter().map(|(cell, reason)| Idle { cell, reason }).collect(),
    };
    Ok(serde_json::to_string(&out).expect("the actions serialise"))
}

/// One turn of a line's cells (`/api/cells`).
#[derive(Debug, Serialize)]
pub struct LineTurn {
    /// The turn's canonical token.
    pub token: String,
    /// The seat that plays it (from 1).
    pub seat: Seat,
    /// The cells of each of its actions (a pass has none).
    pub actions: Vec<Vec<String>>,
}

/// The cells of a line of turns played from `g` (a hint, an engine line),
/// for drawing it ([`GameOps::line_cells`](tetrarch_core::handle::GameOps::line_cells)).
pub fn line_cells(g: &AnyGame, line: &[String]) -> Result<Vec<LineTurn>, GuiError> {
    Ok(g.line_cells(line)?.into_iter().map(|t| LineTurn { token: t.token, seat: t.seat + 1, actions: t.actions }).collect())
}

/// The engine's proposal for a seat's set-up choice (`go setup`) under
/// the rule options `options` (`None`: the variant has no set-up).
pub fn propose(variant: Variant, options: &OptionPairs, seat: Seat, seed: u64) -> Option<String> {
    AnyGame::new(variant, options, &Start::Startpos).ok()?.propose_setup(seat, seed)
}

/// What a person needs to choose a seat's set-up on the board, found with
/// the game's own set-up functions (its proposals, and the handle started
/// from set-up tokens) and its board description, as JSON (see
/// `docs/gui.md`, `/api/setup/place`):
///
/// - `place`: the seat's set-up token puts pieces on cells, one
///   `<kind>@<cell>` entry per piece joined by `,` (Quattuor Reges): the
///   pieces in token order and the cells the game accepts for every
///   piece;
/// - `pick`: the token names one of the seat's pieces as `<cell>:<level>`
///   (Quadranj's burglar): every choice the game accepts;
/// - `token`: neither; the token is typed.
///
/// The token given (or, without one, the engine's proposal) is checked
/// first; the other seats get `?` where the game accepts it, else the
/// engine's proposals. `seat` is 0-based.
pub fn setup_place(
    variant: Variant,
    options: &OptionPairs,
    seat: Seat,
    token: Option<&str>,
    seed: u64,
) -> Result<String, GuiError> {
    let start = AnyGame::new(variant, options, &Start::Startpos)?;
    start.check_seat(seat)?;
    let n = start.seats();
    let propose = |s: Seat| start.propose_setup(s, splitmix64(seed ^ (s as u64 + 1)));
    let proposal = propose(seat).ok_or(GameError::NoSetup { variant: variant.name() })?;
    let own = match token.map(str::trim) {
        Some(t) if !t.is_empty() => t.to_string(),
        _ => proposal.clone(),
    };
    if own.contains(char::is_whitespace) {
        return Err(GuiError::PlaceTokenSpaces);
    }
    let from_setup = |toks: &[String]| AnyGame::new(variant, options, &Start::Setup(toks.to_vec()));
    // The other seats: `?` where the game accepts it (their choices are
    // secret), else the engine's proposals.
    let mut toks: Vec<String> = (0..n).map(|s| if s == seat { proposal.clone() } else { "?".into() }).collect();
    if from_setup(&toks).is_err() {
        for (s, t) in toks.iter_mut().enumerate() {
            if s != seat {
                *t = propose(s).unwrap_or_default();
            }
        }
    }
    toks[seat] = own.clone();
    let pos = from_setup(&toks)?;
    let mut out = PlaceOut {
        variant: variant.name(),
        seat: seat + 1,
        token: &own,
        mode: "token",
        board: None,
        pieces: vec![],
        cells: vec![],
        choices: vec![],
    };
    let Some(state) = pos.board() else { return Ok(to_line(&out)) };
    let mut view = state.view.clone();
    let board =
        |view: BoardView| BoardJson { view, to_move: state.to_move, turn_start: state.turn_start, result: None, winners: vec![] };
    let mine = own_pieces(&view, seat);
    let mut ok = |t: String| {
        toks[seat] = t;
        from_setup(&toks).is_ok()
    };
    if let Some(entries) = place_entries(&own, &mine) {
        out.cells = place_cells(&view, &entries, &mut ok);
        out.pieces = entries
            .into_iter()
            .map(|(kind, cell)| {
                let glyph = mine.iter().find(|m| m.kind == kind).map_or(String::new(), |m| m.glyph.clone());
                PlacePiece { kind, glyph, seat: seat + 1, cell }
            })
            .collect();
        for c in &mut view.cells {
            c.pieces.clear();
        }
        view.reserves.clear();
        view.notes.clear();
        out.mode = "place";
        out.board = Some(board(view));
        return Ok(to_line(&out));
    }
    // `pick`: the token names one of the seat's pieces as cell:level.
    let mut choices = Vec::new();
    if !own.contains(',') {
        for m in &mine {
            let token = format!("{}:{}", m.cell, m.level);
            if ok(token.clone()) {
                choices.push(Choice {
                    token,
                    cell: m.cell.clone(),
                    level: m.level,
                    kind: m.kind.clone(),
                    glyph: m.glyph.clone(),
                });
            }
        }
    }
    if choices.iter().any(|x| x.token == own) {
        out.mode = "pick";
        out.choices = choices;
    }
    out.board = Some(board(view));
    Ok(to_line(&out))
}

/// `/api/setup/place` (docs/gui.md).
#[derive(Serialize)]
struct PlaceOut<'a> {
    variant: &'a str,
    seat: usize,
    token: &'a str,
    mode: &'static str,
    board: Option<BoardJson>,
    pieces: Vec<PlacePiece>,
    cells: Vec<String>,
    choices: Vec<Choice>,
}

/// A piece to place (`place`; seat from 1).
#[derive(Serialize)]
struct PlacePiece {
    kind: String,
    glyph: String,
    seat: usize,
    cell: String,
}

/// A piece to pick (`pick`).
#[derive(Serialize)]
struct Choice {
    token: String,
    cell: String,
    level: usize,
    kind: String,
    glyph: String,
}

fn to_line<T: Serialize>(v: &T) -> String {
    serde_json::to_string(v).expect("the set-up serialises")
}

/// One of the seat's pieces on the set-up board.
struct Mine {
    cell: String,
    /// From 1 at the bottom.
    level: usize,
    kind: String,
    glyph: String,
    /// Whether it stands in a stack.
    stacked: bool,
}

/// The seat's pieces on the board.
fn own_pieces(view: &BoardView, seat: Seat) -> Vec<Mine> {
    let mut mine = Vec::new();
    for c in &view.cells {
        for (i, p) in c.pieces.iter().enumerate() {
            if p.seat == Some(seat) {
                let (cell, kind, glyph) = (c.name.clone(), p.kind.clone(), p.glyph.clone());
                mine.push(Mine { cell, level: i + 1, kind, glyph, stacked: c.pieces.len() > 1 });
            }
        }
    }
    mine
}

/// `place`: the token's entries (kind, cell) when it is exactly the seat's
/// pieces as `kind@cell` (and none stands in a stack).
fn place_entries(own: &str, mine: &[Mine]) -> Option<Vec<(String, String)>> {
    let entries: Vec<(String, String)> =
        own.split(',').map(|e| e.split_once('@').map(|(k, c)| (k.to_string(), c.to_string()))).collect::<Option<_>>()?;
    let mut a: Vec<(&str, &str)> = entries.iter().map(|(k, c)| (k.as_str(), c.as_str())).collect();
    let mut b: Vec<(&str, &str)> = mine.iter().map(|m| (m.kind.as_str(), m.cell.as_str())).collect();
    a.sort_unstable();
    b.sort_unstable();
    let tall = mine.iter().any(|m| m.stacked);
    (!tall && !a.is_empty() && a == b).then_some(entries)
}

/// The cells every piece may stand on (moving it there, or swapping it with
/// the own piece already there), by the set-up check `ok`.
fn place_cells(view: &BoardView, entries: &[(String, String)], ok: &mut impl FnMut(String) -> bool) -> Vec<String> {
    let join = |e: &[(String, String)]| e.iter().map(|(k, c)| format!("{k}@{c}")).collect::<Vec<_>>().join(",");
    let mut cells = Vec::new();
    for c in view.cells.iter().filter(|c| c.playable) {
        // (The first piece rules out most cells at once.)
        let all = (0..entries.len()).all(|i| {
            let mut e = entries.to_vec();
            if let Some(k) = e.iter().position(|x| x.1 == c.name) {
                let ci = e[i].1.clone();
                e[k].1 = ci;
            }
            e[i].1 = c.name.clone();
            ok(join(&e))
        });
        if all {
            cells.push(c.name.clone());
        }
    }
    cells
}
