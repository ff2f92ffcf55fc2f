//! Everything the GUI asks of the rules, generic over [`Game`] and run for
//! the variant chosen by name ([`crate::with_variant`]). The page never
//! applies a rule itself: it asks for the legal actions and sends turns back.

use serde::Serialize;

use crate::board_json::BoardJson;
use tetrarch_core::game::{action_string, turn_done, ActionList, Game, OptionKind, OptionSpec, Seat};
use tetrarch_core::turns::{parse_turn, play_turn, turn_string};
use tetrarch_core::view::BoardView;
use tetrarch_core::zobrist::splitmix64;

use super::error::GuiError;
use crate::options::check_value;
use crate::GameVisitor;

/// Rule options chosen for a game: (name as the game spells it, value).
pub type OptionPairs = [(String, String)];

/// The game's options for `variant` with `pairs` set on top of the
/// defaults; an unknown option or a bad value is an error.
fn options_of<G: Game>(variant: &str, pairs: &OptionPairs) -> Result<G::Options, GuiError> {
    let mut o = G::default_options(variant);
    let specs = G::option_specs(variant);
    for (name, value) in pairs {
        let spec = specs
            .iter()
            .find(|s| s.name.eq_ignore_ascii_case(name))
            .ok_or_else(|| GuiError::NoSuchOption { name: name.clone(), variant: variant.into() })?;
        let v = check_value(spec.name, &spec.kind, Some(value))?;
        G::set_option(&mut o, spec.name, &v).map_err(|source| GuiError::Option { name: spec.name, source })?;
    }
    Ok(o)
}

/// Checks rule options for a variant; returns them with the game's
/// spelling of each name and the canonical value, in the game's order.
pub struct CheckOptions<'a> {
    /// The options chosen.
    pub options: &'a OptionPairs,
}

impl GameVisitor for CheckOptions<'_> {
    type Output = Result<Vec<(String, String)>, GuiError>;
    fn visit<G: Game>(self, variant: &'static str) -> Self::Output {
        options_of::<G>(variant, self.options)?;
        let mut out = Vec::new();
        for spec in G::option_specs(variant) {
            if let Some((_, v)) = self.options.iter().rev().find(|(n, _)| n.eq_ignore_ascii_case(spec.name)) {
                // (options_of checked every value.)
                let v = check_value(spec.name, &spec.kind, Some(v))?;
                if v != default_value(&spec.kind) {
                    out.push((spec.name.to_string(), v));
                }
            }
        }
        Ok(out)
    }
}

/// The default value of an option kind, as `setoption` writes it.
pub fn default_value(kind: &OptionKind) -> String {
    match kind {
        OptionKind::Check(d) => d.to_string(),
        OptionKind::Spin { default, .. } => default.to_string(),
        OptionKind::Combo(v) => v.first().copied().unwrap_or("").to_string(),
    }
}

/// Whether setting `spec` away from its default only changes how the engine
/// writes turns (a dialect, e.g. teamchess `Notation`): such options are
/// not rule options and the GUI leaves them out.
fn changes_notation<G: Game>(variant: &str, spec: &OptionSpec) -> bool {
    let values: Vec<String> = match &spec.kind {
        OptionKind::Check(d) => vec![(!d).to_string()],
        OptionKind::Combo(v) => v.iter().skip(1).map(|s| s.to_string()).collect(),
        OptionKind::Spin { .. } => Vec::new(),
    };
    let g = G::startpos(&G::default_options(variant));
    let mut list = G::Actions::default();
    g.legal_actions(&mut list);
    let Some(&a) = list.first() else { return false };
    values.iter().any(|v| {
        let mut o = G::default_options(variant);
        G::set_option(&mut o, spec.name, v).is_ok() && g.dialect_turn(&o, &[a]).is_some()
    })
}

/// How a game starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// The start position.
    Startpos,
    /// A position string.
    Fen(String),
    /// One set-up token per seat.
    Setup(Vec<String>),
}

impl Start {
    /// The words after `position` (before `moves`).
    pub fn protocol(&self) -> String {
        match self {
            Start::Startpos => "startpos".into(),
            Start::Fen(s) => format!("fen {s}"),
            Start::Setup(t) => format!("setup {}", t.join(" ")),
        }
    }
}

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
    /// The rule options (`setoption`) the page offers.
    pub options: Vec<OptionSpec>,
}

/// The variant's facts.
pub struct FactsOf;
impl GameVisitor for FactsOf {
    type Output = Facts;
    fn visit<G: Game>(self, variant: &'static str) -> Facts {
        let opts = G::default_options(variant);
        let g = G::startpos(&opts);
        Facts {
            seats: g.seats(),
            names: (0..g.seats()).map(|s| g.seat_name(s)).collect(),
            setup: G::propose_setup(&opts, 0, 1).is_some(),
            board: g.board_view().is_some(),
            record: G::write_record(&g, &[]).is_some(),
            sides: (0..g.seats()).map(|s| g.side_of(s)).collect(),
            ffa: crate::session::is_free_for_all(&g),
            options: G::option_specs(variant).into_iter().filter(|s| !changes_notation::<G>(variant, s)).collect(),
        }
    }
}

fn start_position<G: Game>(opts: &G::Options, start: &Start) -> Result<G, GuiError> {
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match start {
        Start::Startpos => Ok(G::startpos(opts)),
        Start::Fen(s) => G::from_position_string(s, opts).map_err(GuiError::InvalidPosition),
        Start::Setup(t) => from_setup::<G>(t, opts),
    }));
    r.unwrap_or(Err(GuiError::PositionParserFailed))
}

fn from_setup<G: Game>(tokens: &[String], opts: &G::Options) -> Result<G, GuiError> {
    let t: Vec<&str> = tokens.iter().map(String::as_str).collect();
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| G::from_setup(&t, opts)));
    match r {
        Ok(r) => r.map_err(GuiError::InvalidSetup),
        Err(_) => Err(GuiError::SetupParserFailed),
    }
}

/// A game replayed: start, current position, history keys.
struct Replayed<G: Game> {
    start: G,
    pos: G,
    history: Vec<u64>,
    /// The position before the last turn and that turn's actions.
    last: Option<(G, Vec<G::Action>)>,
}

fn replay<G: Game>(variant: &str, options: &OptionPairs, start: &Start, turns: &[String]) -> Result<Replayed<G>, GuiError> {
    let opts = options_of::<G>(variant, options)?;
    let s = start_position::<G>(&opts, start)?;
    let mut pos = s.clone();
    let mut history = Vec::new();
    let mut last = None;
    for (i, t) in turns.iter().enumerate() {
        if let Some(outcome) = pos.outcome().or_else(|| pos.history_outcome(&history)) {
            return Err(GuiError::TurnAfterEnd { turn: i + 1, token: t.clone(), outcome });
        }
        let acts = parse_turn(&pos, t).map_err(|source| GuiError::Turn { turn: i + 1, token: t.clone(), source })?;
        if pos.at_turn_start() {
            history.push(pos.key());
        }
        let before = pos.clone();
        play_turn(&mut pos, &acts);
        last = Some((before, acts));
    }
    Ok(Replayed { start: s, pos, history, last })
}

/// The position after `turns` as the JSON fields of the GUI state
/// (`board`, `position`, `to_move`, `result`, `text`, `last_cells`,
/// `legal_actions`), or why the turns cannot be played.
pub struct Snapshot<'a> {
    /// The rule options.
    pub options: &'a OptionPairs,
    /// The start.
    pub start: &'a Start,
    /// The turns from it.
    pub turns: &'a [String],
    /// The seat that lost on time (the game ends there unless the rules
    /// ended it already).
    pub time_loss: Option<Seat>,
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

/// What [`Snapshot`] finds.
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

impl GameVisitor for Snapshot<'_> {
    type Output = Result<SnapshotOut, GuiError>;
    fn visit<G: Game>(self, variant: &'static str) -> Self::Output {
        let r = replay::<G>(variant, self.options, self.start, self.turns)?;
        let g = &r.pos;
        let mut outcome = g.outcome().or_else(|| g.history_outcome(&r.history)).map(|o| o.to_string());
        if let (None, Some(loser)) = (&outcome, self.time_loss) {
            let mut w = String::from("win");
            for s in (0..g.seats()).filter(|&s| g.side_of(s) != g.side_of(loser)) {
                w.push_str(&format!(" {}", s + 1));
            }
            outcome = Some(w + " time");
        }
        // The search's list, not every legal action: the same but for
        // Quadranj's unstacking chains of more than two links, of which a
        // tall stack has millions (a 434 MB list on every state change,
        // issue 26). A position with a legal action has one in it.
        let mut list = G::Actions::default();
        if outcome.is_none() {
            g.search_actions(&mut list);
        }
        let over = outcome.is_some() || list.is_empty();
        let result = outcome.or_else(|| over.then(|| "none (no legal action)".to_string()));
        let mut cells = Vec::new();
        if let Some((before, acts)) = &r.last {
            let mut p = before.clone();
            for &a in acts {
                if !p.is_pass(a) {
                    cells.extend(p.action_cells(a));
                }
                p.make(a);
            }
        }
        let position = Position {
            board: BoardJson::of(g, &r.history),
            position: g.position_string(),
            start_position: r.start.position_string(),
            to_move: g.to_move() + 1,
            over,
            result: result.clone(),
            text: g.render(),
            last_cells: cells,
            legal_actions: list.len(),
        };
        Ok(SnapshotOut { position, to_move: g.to_move(), over, result })
    }
}

/// The legal actions after the first actions `prefix` of the current turn,
/// as JSON: `{"prefix":[…],"board":…,"actions":[{"token","cells","ends_turn",
/// "pass"}…],"idle":[{"cell","reason"}…]}`; `idle` gives, for the cells of
/// the board where no listed action starts, the game's reason why what
/// stands there cannot act (`Presentation::idle_reason`), where it has one.
pub struct Actions<'a> {
    /// The rule options.
    pub options: &'a OptionPairs,
    /// The start.
    pub start: &'a Start,
    /// The turns played.
    pub turns: &'a [String],
    /// Actions of the current turn already chosen.
    pub prefix: &'a [String],
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

/// The most legal actions `/api/actions` lists in full.
pub const ACTIONS_LISTED: usize = 50_000;

impl GameVisitor for Actions<'_> {
    type Output = Result<String, GuiError>;
    fn visit<G: Game>(self, variant: &'static str) -> Self::Output {
        let r = replay::<G>(variant, self.options, self.start, self.turns)?;
        let mut g = r.pos;
        if g.outcome().or_else(|| g.history_outcome(&r.history)).is_some() {
            return Err(GuiError::GameOver);
        }
        let mut list = G::Actions::default();
        for (i, t) in self.prefix.iter().enumerate() {
            if i > 0 && turn_done(&g) {
                return Err(GuiError::ActionAfterTurn { index: i + 1, token: t.clone() });
            }
            let a = g.parse_action(t).map_err(|source| GuiError::Action { index: i + 1, token: t.clone(), source })?;
            if !g.is_legal(a) {
                return Err(GuiError::IllegalAction { index: i + 1, token: t.clone() });
            }
            g.make(a);
        }
        if !self.prefix.is_empty() && turn_done(&g) {
            return Err(GuiError::TurnOver);
        }
        list.clear();
        g.legal_actions(&mut list);
        // A Quadranj tall stack has millions of unstacking chains: past
        // ACTIONS_LISTED the page gets the search's list (the long chains
        // left out, `partial`), and such a chain can still be typed.
        let partial = list.len() > ACTIONS_LISTED;
        if partial {
            g.search_actions(&mut list);
        }
        let actions: Vec<ActionOut> = list
            .iter()
            .map(|&a| {
                let pass = g.is_pass(a);
                let ends_turn = pass || {
                    let mut p = g.clone();
                    p.make(a);
                    turn_done(&p)
                };
                let cells = if pass { Vec::new() } else { g.action_cells(a) };
                ActionOut { token: action_string(&g, a), cells, ends_turn, pass }
            })
            .collect();
        let board = BoardJson::of(&g, &r.history);
        let idle = idle_cells(&g, board.as_ref().map(|b| &b.view), &actions);
        let out = ActionsOut { partial, prefix: self.prefix, board, actions, idle };
        Ok(serde_json::to_string(&out).expect("the actions serialise"))
    }
}

/// The game's reasons why the pieces on the board's cells where no action
/// of `actions` starts cannot act (a person clicked one: the page shows it).
fn idle_cells<G: Game>(g: &G, view: Option<&BoardView>, actions: &[ActionOut]) -> Vec<Idle> {
    let Some(view) = view else { return Vec::new() };
    let starts: std::collections::HashSet<&str> = actions.iter().filter_map(|a| a.cells.first().map(String::as_str)).collect();
    view.cells
        .iter()
        .filter(|c| !c.pieces.is_empty() && !starts.contains(c.name.as_str()))
        .filter_map(|c| g.idle_reason(&c.name).map(|reason| Idle { cell: c.name.clone(), reason }))
        .collect()
}

/// Checks a turn token against the position after `turns`; returns its
/// canonical token.
pub struct CheckTurn<'a> {
    /// The rule options.
    pub options: &'a OptionPairs,
    /// The start.
    pub start: &'a Start,
    /// The turns played.
    pub turns: &'a [String],
    /// The turn to check.
    pub turn: &'a str,
}

impl GameVisitor for CheckTurn<'_> {
    type Output = Result<String, GuiError>;
    fn visit<G: Game>(self, variant: &'static str) -> Self::Output {
        let r = replay::<G>(variant, self.options, self.start, self.turns)?;
        if let Some(o) = r.pos.outcome().or_else(|| r.pos.history_outcome(&r.history)) {
            return Err(GuiError::Over(o));
        }
        let acts = parse_turn(&r.pos, self.turn).map_err(|source| GuiError::BadTurn { token: self.turn.into(), source })?;
        Ok(turn_string(&r.pos, &acts))
    }
}

/// The seat to move after `turns` (`None`: the game is over there).
pub struct Mover<'a> {
    /// The rule options.
    pub options: &'a OptionPairs,
    /// The start.
    pub start: &'a Start,
    /// The turns played.
    pub turns: &'a [String],
}

impl GameVisitor for Mover<'_> {
    type Output = Result<Option<Seat>, GuiError>;
    fn visit<G: Game>(self, variant: &'static str) -> Self::Output {
        let r = replay::<G>(variant, self.options, self.start, self.turns)?;
        let over = r.pos.outcome().or_else(|| r.pos.history_outcome(&r.history)).is_some();
        Ok((!over).then(|| r.pos.to_move()))
    }
}

/// The cells of a line of turns played after `turns` (a hint, an engine
/// line), for drawing it: per turn its seat and the cells of each of its
/// actions. The line stops at its first token that is not a legal turn
/// there (an engine line can run past the end of the game); no legal
/// first turn is an error.
pub struct LineCells<'a> {
    /// The rule options.
    pub options: &'a OptionPairs,
    /// The start.
    pub start: &'a Start,
    /// The turns played.
    pub turns: &'a [String],
    /// The line's turn tokens.
    pub line: &'a [String],
}

/// One turn of [`LineCells`]'s answer.
#[derive(Debug, Serialize)]
pub struct LineTurn {
    /// The turn's canonical token.
    pub token: String,
    /// The seat that plays it (from 1).
    pub seat: Seat,
    /// The cells of each of its actions (a pass has none).
    pub actions: Vec<Vec<String>>,
}

impl GameVisitor for LineCells<'_> {
    type Output = Result<Vec<LineTurn>, GuiError>;
    fn visit<G: Game>(self, variant: &'static str) -> Self::Output {
        let r = replay::<G>(variant, self.options, self.start, self.turns)?;
        let mut pos = r.pos;
        let mut out = Vec::new();
        for t in self.line {
            if pos.outcome().is_some() {
                break;
            }
            let acts = match parse_turn(&pos, t) {
                Ok(a) => a,
                Err(source) if out.is_empty() => return Err(GuiError::BadTurn { token: t.clone(), source }),
                Err(_) => break,
            };
            let (token, seat) = (turn_string(&pos, &acts), pos.to_move() + 1);
            let mut actions = Vec::new();
            for &a in &acts {
                actions.push(if pos.is_pass(a) { Vec::new() } else { pos.action_cells(a) });
                pos.make(a);
            }
            out.push(LineTurn { token, seat, actions });
        }
        Ok(out)
    }
}

/// The engine's proposal for a seat's set-up choice (`go setup`).
pub struct Propose<'a> {
    /// The rule options.
    pub options: &'a OptionPairs,
    /// 0-based seat.
    pub seat: Seat,
    /// Varies the proposal.
    pub seed: u64,
}

impl GameVisitor for Propose<'_> {
    type Output = Option<String>;
    fn visit<G: Game>(self, variant: &'static str) -> Option<String> {
        let opts = options_of::<G>(variant, self.options).ok()?;
        G::propose_setup(&opts, self.seat, self.seed)
    }
}

/// What a person needs to choose a seat's set-up on the board, found with
/// the game's own set-up functions (`propose_setup`, `from_setup`) and its
/// board description, as JSON (see `docs/gui.md`, `/api/setup/place`):
///
/// - `place`: the seat's set-up token puts pieces on cells, one
///   `<kind>@<cell>` entry per piece joined by `,` (Quattuor Reges): the
///   pieces in token order and the cells `from_setup` accepts for every
///   piece;
/// - `pick`: the token names one of the seat's pieces as `<cell>:<level>`
///   (Quadranj's burglar): every choice `from_setup` accepts;
/// - `token`: neither; the token is typed.
///
/// The token given (or, without one, the engine's proposal) is checked
/// with `from_setup` first; the other seats get `?` where the game accepts
/// it, else the engine's proposals.
pub struct SetupPlace<'a> {
    /// The rule options.
    pub options: &'a OptionPairs,
    /// 0-based seat.
    pub seat: Seat,
    /// The seat's token to show, if any.
    pub token: Option<&'a str>,
    /// Varies the proposals.
    pub seed: u64,
}

impl GameVisitor for SetupPlace<'_> {
    type Output = Result<String, GuiError>;
    fn visit<G: Game>(self, variant: &'static str) -> Self::Output {
        let opts = options_of::<G>(variant, self.options)?;
        let n = G::startpos(&opts).seats();
        let seat = self.seat;
        if seat >= n {
            return Err(GuiError::NoSuchSeat { seat: seat + 1, variant, seats: n });
        }
        let propose = |s: Seat| G::propose_setup(&opts, s, splitmix64(self.seed ^ (s as u64 + 1)));
        let proposal = propose(seat).ok_or_else(|| GuiError::NoSetup { variant: variant.into() })?;
        let own = match self.token.map(str::trim) {
            Some(t) if !t.is_empty() => t.to_string(),
            _ => proposal.clone(),
        };
        if own.contains(char::is_whitespace) {
            return Err(GuiError::PlaceTokenSpaces);
        }
        // The other seats: `?` where the game accepts it (their choices are
        // secret), else the engine's proposals.
        let mut toks: Vec<String> = (0..n).map(|s| if s == seat { proposal.clone() } else { "?".into() }).collect();
        if from_setup::<G>(&toks, &opts).is_err() {
            for (s, t) in toks.iter_mut().enumerate() {
                if s != seat {
                    *t = propose(s).unwrap_or_default();
                }
            }
        }
        toks[seat] = own.clone();
        let pos = from_setup::<G>(&toks, &opts)?;
        let mut out = PlaceOut {
            variant,
            seat: seat + 1,
            token: &own,
            mode: "token",
            board: None,
            pieces: vec![],
            cells: vec![],
            choices: vec![],
        };
        let Some(mut view) = pos.board_view() else { return Ok(to_line(&out)) };
        let board = |view: BoardView| BoardJson {
            view,
            to_move: pos.to_move(),
            turn_start: pos.at_turn_start(),
            result: None,
            winners: vec![],
        };
        let mine = own_pieces(&view, seat);
        let mut ok = |t: String| {
            toks[seat] = t;
            from_setup::<G>(&toks, &opts).is_ok()
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

/// The game in the variant's record format (PGN4 for `teamchess`).
pub struct Record<'a> {
    /// The rule options.
    pub options: &'a OptionPairs,
    /// The start.
    pub start: &'a Start,
    /// The turns played.
    pub turns: &'a [String],
}

impl GameVisitor for Record<'_> {
    type Output = Result<String, GuiError>;
    fn visit<G: Game>(self, variant: &'static str) -> Self::Output {
        let r = replay::<G>(variant, self.options, self.start, self.turns)?;
        match G::write_record(&r.start, self.turns) {
            None => Err(GuiError::NoRecordFormat { variant }),
            Some(res) => res.map_err(GuiError::Record),
        }
    }
}
