//! Everything the GUI asks of the rules, generic over [`Game`] and run for
//! the variant chosen by name ([`crate::with_variant`]). The page never
//! applies a rule itself: it asks for the legal actions and sends turns back.

use tetrarch_core::game::{action_string, turn_done, ActionList, Game, Seat};
use tetrarch_core::turns::{parse_turn, play_turn, turn_string};
use tetrarch_core::view::{board_json, json_str};

use crate::GameVisitor;

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
        }
    }
}

fn start_position<G: Game>(variant: &str, start: &Start) -> Result<G, String> {
    let opts = G::default_options(variant);
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match start {
        Start::Startpos => Ok(G::startpos(&opts)),
        Start::Fen(s) => G::from_position_string(s, &opts).map_err(|e| format!("invalid position string: {e}")),
        Start::Setup(t) => {
            let t: Vec<&str> = t.iter().map(String::as_str).collect();
            G::from_setup(&t, &opts).map_err(|e| format!("invalid set-up: {e}"))
        }
    }));
    r.unwrap_or_else(|_| Err("invalid position (the parser failed)".into()))
}

/// A game replayed: start, current position, history keys.
struct Replayed<G: Game> {
    start: G,
    pos: G,
    history: Vec<u64>,
    /// The position before the last turn and that turn's actions.
    last: Option<(G, Vec<G::Action>)>,
}

fn replay<G: Game>(variant: &str, start: &Start, turns: &[String]) -> Result<Replayed<G>, String> {
    let s = start_position::<G>(variant, start)?;
    let mut pos = s.clone();
    let mut history = Vec::new();
    let mut last = None;
    for (i, t) in turns.iter().enumerate() {
        if let Some(o) = pos.outcome().or_else(|| pos.history_outcome(&history)) {
            return Err(format!("turn {} `{t}`: the game is over ({o})", i + 1));
        }
        let acts = parse_turn(&pos, t).map_err(|e| format!("turn {} `{t}`: {e}", i + 1))?;
        if pos.at_turn_start() {
            history.push(pos.key());
        }
        let before = pos.clone();
        play_turn(&mut pos, &acts);
        last = Some((before, acts));
    }
    Ok(Replayed { start: s, pos, history, last })
}

fn str_list(out: &mut String, items: &[String]) {
    out.push('[');
    for (i, s) in items.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        json_str(out, s);
    }
    out.push(']');
}

/// The position after `turns` as the JSON fields of the GUI state
/// (`board`, `position`, `to_move`, `result`, `text`, `last_cells`,
/// `legal_actions`), or why the turns cannot be played.
pub struct Snapshot<'a> {
    /// The start.
    pub start: &'a Start,
    /// The turns from it.
    pub turns: &'a [String],
}

/// What [`Snapshot`] finds.
pub struct SnapshotOut {
    /// JSON object fields (no braces).
    pub json: String,
    /// The seat to move (0-based).
    pub to_move: Seat,
    /// Whether the game is over.
    pub over: bool,
    /// The result (`win 1 3 checkmate`) when over.
    pub result: Option<String>,
}

impl GameVisitor for Snapshot<'_> {
    type Output = Result<SnapshotOut, String>;
    fn visit<G: Game>(self, variant: &'static str) -> Self::Output {
        let r = replay::<G>(variant, self.start, self.turns)?;
        let g = &r.pos;
        let outcome = g.outcome().or_else(|| g.history_outcome(&r.history));
        let mut list = G::Actions::default();
        if outcome.is_none() {
            g.legal_actions(&mut list);
        }
        let over = outcome.is_some() || list.is_empty();
        let mut j = String::new();
        j.push_str("\"board\":");
        j.push_str(&board_json(g, &r.history).unwrap_or_else(|| "null".into()));
        j.push_str(",\"position\":");
        json_str(&mut j, &g.position_string());
        j.push_str(",\"start_position\":");
        json_str(&mut j, &r.start.position_string());
        j.push_str(&format!(",\"to_move\":{},\"over\":{over},\"result\":", g.to_move() + 1));
        let result = outcome.map(|o| o.to_string()).or_else(|| over.then(|| "none (no legal action)".to_string()));
        match &result {
            Some(s) => json_str(&mut j, s),
            None => j.push_str("null"),
        }
        j.push_str(",\"text\":");
        json_str(&mut j, &g.render());
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
        j.push_str(",\"last_cells\":");
        str_list(&mut j, &cells);
        j.push_str(&format!(",\"legal_actions\":{}", list.len()));
        Ok(SnapshotOut { json: j, to_move: g.to_move(), over, result })
    }
}

/// The legal actions after the first actions `prefix` of the current turn,
/// as JSON: `{"prefix":[…],"board":…,"actions":[{"token","cells","ends_turn",
/// "pass"}…]}`.
pub struct Actions<'a> {
    /// The start.
    pub start: &'a Start,
    /// The turns played.
    pub turns: &'a [String],
    /// Actions of the current turn already chosen.
    pub prefix: &'a [String],
}

impl GameVisitor for Actions<'_> {
    type Output = Result<String, String>;
    fn visit<G: Game>(self, variant: &'static str) -> Self::Output {
        let r = replay::<G>(variant, self.start, self.turns)?;
        let mut g = r.pos;
        if g.outcome().or_else(|| g.history_outcome(&r.history)).is_some() {
            return Err("the game is over".into());
        }
        let mut list = G::Actions::default();
        for (i, t) in self.prefix.iter().enumerate() {
            if i > 0 && turn_done(&g) {
                return Err(format!("action {} `{t}`: the turn is already over", i + 1));
            }
            let a = g.parse_action(t).map_err(|e| format!("action {} `{t}`: {e}", i + 1))?;
            list.clear();
            g.legal_actions(&mut list);
            if !list.contains(&a) {
                return Err(format!("action {} `{t}`: illegal", i + 1));
            }
            g.make(a);
        }
        if !self.prefix.is_empty() && turn_done(&g) {
            return Err("the turn is already over".into());
        }
        list.clear();
        g.legal_actions(&mut list);
        let mut j = String::from("{\"prefix\":");
        str_list(&mut j, self.prefix);
        j.push_str(",\"board\":");
        j.push_str(&board_json(&g, &r.history).unwrap_or_else(|| "null".into()));
        j.push_str(",\"actions\":[");
        for (i, &a) in list.iter().enumerate() {
            if i > 0 {
                j.push(',');
            }
            let pass = g.is_pass(a);
            let ends = pass || {
                let mut p = g.clone();
                p.make(a);
                turn_done(&p)
            };
            j.push_str("{\"token\":");
            json_str(&mut j, &action_string(&g, a));
            j.push_str(",\"cells\":");
            str_list(&mut j, &if pass { Vec::new() } else { g.action_cells(a) });
            j.push_str(&format!(",\"ends_turn\":{ends},\"pass\":{pass}}}"));
        }
        j.push_str("]}");
        Ok(j)
    }
}

/// Checks a turn token against the position after `turns`; returns its
/// canonical token.
pub struct CheckTurn<'a> {
    /// The start.
    pub start: &'a Start,
    /// The turns played.
    pub turns: &'a [String],
    /// The turn to check.
    pub turn: &'a str,
}

impl GameVisitor for CheckTurn<'_> {
    type Output = Result<String, String>;
    fn visit<G: Game>(self, variant: &'static str) -> Self::Output {
        let r = replay::<G>(variant, self.start, self.turns)?;
        if let Some(o) = r.pos.outcome().or_else(|| r.pos.history_outcome(&r.history)) {
            return Err(format!("the game is over ({o})"));
        }
        let acts = parse_turn(&r.pos, self.turn).map_err(|e| format!("turn `{}`: {e}", self.turn))?;
        Ok(turn_string(&r.pos, &acts))
    }
}

/// The engine's proposal for a seat's set-up choice (`go setup`).
pub struct Propose {
    /// 0-based seat.
    pub seat: Seat,
    /// Varies the proposal.
    pub seed: u64,
}

impl GameVisitor for Propose {
    type Output = Option<String>;
    fn visit<G: Game>(self, variant: &'static str) -> Option<String> {
        G::propose_setup(&G::default_options(variant), self.seat, self.seed)
    }
}

/// The game in the variant's record format (PGN4 for `teamchess`).
pub struct Record<'a> {
    /// The start.
    pub start: &'a Start,
    /// The turns played.
    pub turns: &'a [String],
}

impl GameVisitor for Record<'_> {
    type Output = Result<String, String>;
    fn visit<G: Game>(self, variant: &'static str) -> Self::Output {
        let r = replay::<G>(variant, self.start, self.turns)?;
        match G::write_record(&r.start, self.turns) {
            None => Err(format!("variant {variant} has no record format")),
            Some(res) => res.map_err(|e| e.to_string()),
        }
    }
}
