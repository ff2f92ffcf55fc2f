//! Static evaluation of Quattuor Reges. All weights are here.
//!
//! Terms (the side asked minus the other side):
//! - `material`: piece values ([`VALUE`], ordered by the capture table: the
//!   winning pieces and the King, whose loss freezes its suit, weigh most);
//!   a frozen piece (its King captured) counts [`FROZEN_PERCENT`] %;
//! - `advance`: Queens, Kings and Aces gain per rank towards the goal rank,
//!   and by how many turns of free running they are from it at their range
//!   ([`RACE`]; a piece moves once a turn);
//! - `reach`: a Q/K/A that can reach the goal rank in one action: a near
//!   win for the side to move (if its suit may still act), a threat the
//!   opponent must answer otherwise;
//! - `king`: a King that an enemy Ace or Jack can capture in one action;
//! - `free`: the side's best Q/K/A 2 to 4 turns of free running from the
//!   goal rank that no enemy piece able to capture it can meet in the
//!   turns the enemy gets before it arrives (one fewer when its own side is
//!   to move), counted as walking distance on the empty board ([`FREE`]);
//! - `tempo`: the race: the side whose fastest Q/K/A is fewer turns of free
//!   running from its goal rank, the side to move winning a tie, gets
//!   [`TEMPO`] (when that piece is at most 4 turns away).

use super::board::*;
use super::moves::Action;
use super::value::*;
use super::{side_of_piece, suit_of, value_of, Quattuor, CAPTURES, NONE, RANGE};
use crate::bitboard::Bb256;
use crate::eval::{EvalSink, Weights};

/// Piece values by value index (7 8 9 T J Q K A).
pub const VALUE: [i32; 8] = [150, 250, 200, 200, 300, 450, 700, 600];
/// A frozen piece counts this share of its value.
pub const FROZEN_PERCENT: i32 = 40;
/// A winning piece that the side to move can bring to the goal rank now.
pub const REACH_NOW: i32 = 3000;
/// A winning piece threatening to reach the goal rank next turn.
pub const REACH_THREAT: i32 = 350;
/// An own King that the opponent can capture in one action.
pub const KING_HANGING: i32 = 250;

/// A mobile Q, K or A this many turns of free running from the goal rank
/// (ranks left / range, rounded up; index 0 unused, 5 and more: 0).
pub const RACE: [i32; 5] = [0, 200, 150, 60, 20];

/// The side ahead in the race to the goal rank.
pub const TEMPO: i32 = 200;

/// A mobile Q, K or A this many turns of free running from the goal rank
/// that no enemy piece able to capture it is near enough to meet
/// (index 0 and 1 unused: the `reach` terms cover one turn).
pub const FREE: [i32; 5] = [0, 0, 500, 300, 150];

/// Per-rank advance bonus of a Q, K or A by ranks advanced (0..14).
const ADVANCE: [i32; 15] = [0, 2, 4, 6, 8, 10, 14, 18, 24, 32, 44, 60, 80, 100, 0];

crate::weights! {
    /// The weights of the Quattuor Reges evaluation.
    pub mod w for "quattuor" {
        VALUE: "material.value" [8] = super::VALUE;
        /// A frozen piece (its King captured).
        FROZEN: "material.frozen" [8] = super::FROZEN_VALUE;
        /// A Q, K or A by ranks advanced.
        ADVANCE: "advance.rank" [15] = super::ADVANCE;
        /// A mobile Q, K or A by turns of free running to the goal rank.
        RACE: "advance.race" [5] = super::RACE;
        REACH_NOW: "reach.now" = super::REACH_NOW;
        /// Per suit threatening, squared.
        REACH_THREAT: "reach.threat" = super::REACH_THREAT;
        KING_HANGING: "king.hanging" = -super::KING_HANGING;
        /// The fastest free runner by its turns to the goal rank.
        FREE: "free.turns" [5] = super::FREE;
        TEMPO: "tempo.race" = super::TEMPO;
    }
}

/// Frozen pieces' values by default: [`FROZEN_PERCENT`] % of [`VALUE`].
const FROZEN_VALUE: [i32; 8] = {
    let mut v = [0; 8];
    let mut i = 0;
    while i < 8 {
        v[i] = VALUE[i] * FROZEN_PERCENT / 100;
        i += 1;
    }
    v
};

/// The compiled-in weights.
pub static DEFAULT: std::sync::LazyLock<Weights> = std::sync::LazyLock::new(|| Weights::defaults("quattuor", &w::TABLE));

fn advanced(side: usize, s: Sq) -> usize {
    if side == 0 {
        rank(s)
    } else {
        14 - rank(s)
    }
}

/// Capture targets of an attacker of value `a` among the pieces of `enemy`.
fn targets(p: &Quattuor, enemy: usize, a: usize) -> Bb256 {
    let mut t = Bb256::EMPTY;
    for q in enemy * 16..enemy * 16 + 16 {
        let s = p.sq_of[q];
        if s != NONE && CAPTURES[a] >> value_of(q) & 1 != 0 {
            t.set(s as Sq);
        }
    }
    t
}

/// Whether the piece may act at the start of its side's next turn, as far
/// as freezing goes.
fn mobile(p: &Quattuor, pc: usize) -> bool {
    value_of(pc) == ACE || p.captured >> (suit_of(pc) * 8 + KING) & 1 == 0
}

/// Whether some mobile enemy piece that can capture the winning piece `pc`
/// is within `turns` of its own moves, plus one step, of it on the empty
/// board: near enough to meet it on its way (screened against +0 and +2
/// steps: no difference; docs/history/search-diary.md, "Eleventh session").
fn guarded(p: &Quattuor, pc: usize, turns: usize) -> bool {
    let (s, v) = (p.sq_of[pc] as Sq, value_of(pc));
    let enemy = 1 - side_of_piece(pc);
    (enemy * 16..enemy * 16 + 16).any(|q| {
        let qs = p.sq_of[q];
        qs != NONE
            && CAPTURES[value_of(q)] >> v & 1 != 0
            && mobile(p, q)
            && distance(qs as Sq, s) <= RANGE[value_of(q)] * turns as u32 + 1
    })
}

/// One side's features (material, advance, reach, king, free), counted
/// `sign` times.
fn side_features<S: EvalSink>(p: &Quattuor, side: usize, sign: i32, sink: &mut S) {
    let empty = EXISTS & !p.occupied();
    let to_move = p.side as usize == side;
    let mut threats = 0u32;
    let mut reach_now = false;
    let mut free_turns = usize::MAX;
    for pc in side * 16..side * 16 + 16 {
        let s = p.sq_of[pc];
        if s == NONE {
            continue;
        }
        let s = s as Sq;
        let v = value_of(pc);
        let mob = mobile(p, pc);
        sink.add(if mob { w::VALUE } else { w::FROZEN } + v, sign);
        if v >= QUEEN {
            sink.add(w::ADVANCE + advanced(side, s), sign);
            if mob {
                let turns = (14 - advanced(side, s)).div_ceil(RANGE[v] as usize);
                if turns < RACE.len() {
                    sink.add(w::RACE + turns, sign);
                }
                // The enemy moves `turns` times before the piece arrives, or
                // one time fewer if the piece's side moves first.
                if (2..FREE.len()).contains(&turns) && !guarded(p, pc, turns - to_move as usize) {
                    free_turns = free_turns.min(turns);
                }
            }
            if mob && advanced(side, s) >= 12 {
                let (e, c) = reach(s, RANGE[v], empty, targets(p, 1 - side, v));
                if ((e | c) & GOAL[side]).any() {
                    let may_now = to_move && p.moved >> suit_of(pc) & 1 == 0;
                    if may_now {
                        reach_now = true;
                    } else {
                        threats |= 1 << suit_of(pc);
                    }
                }
            }
        }
        if v == KING {
            // Enemy Aces and Jacks (with their King) that can take it: both
            // have range 2, so they stand next to the King or next to an
            // empty cell next to it (the capture path read backwards).
            const _: () = assert!(RANGE[ACE] == 2 && RANGE[JACK] == 2);
            let near = NBRS[s];
            let zone = near | nbrs(near & empty);
            for a in [ACE, JACK] {
                for es in [2 * (1 - side), 2 * (1 - side) + 1] {
                    let q = es * 8 + a;
                    let qs = p.sq_of[q];
                    if qs != NONE && zone.has(qs as Sq) && mobile(p, q) {
                        sink.add(w::KING_HANGING, sign);
                    }
                }
            }
        }
    }
    if reach_now {
        sink.add(w::REACH_NOW, sign);
    } else {
        let n = threats.count_ones() as i32;
        sink.add(w::REACH_THREAT, sign * n * n);
    }
    if free_turns < FREE.len() {
        // The fastest free runner (the weights fall with the turns).
        sink.add(w::FREE + free_turns, sign);
    }
}

/// Turns of free running the side's fastest mobile Q, K or A needs to reach
/// its goal rank (`usize::MAX` if it has none).
fn race_turns(p: &Quattuor, side: usize) -> usize {
    (side * 16..side * 16 + 16)
        .filter(|&pc| p.sq_of[pc] != NONE && value_of(pc) >= QUEEN && mobile(p, pc))
        .map(|pc| (14 - advanced(side, p.sq_of[pc] as Sq)).div_ceil(RANGE[value_of(pc)] as usize))
        .min()
        .unwrap_or(usize::MAX)
}

/// The `tempo` feature for `seat`: +1 when its side leads the race, −1
/// when the other does, 0 when neither fastest runner is within 4 turns.
fn tempo(p: &Quattuor, seat: usize) -> i32 {
    let mover = p.side as usize;
    let (tm, to) = (race_turns(p, mover), race_turns(p, 1 - mover));
    if tm.min(to) > 4 {
        return 0;
    }
    let leader = if tm <= to { mover } else { 1 - mover };
    if leader == seat {
        1
    } else {
        -1
    }
}

/// The evaluation for `seat` (its side minus the other), as features.
pub fn features<S: EvalSink>(p: &Quattuor, seat: usize, sink: &mut S) {
    side_features(p, seat, 1, sink);
    side_features(p, 1 - seat, -1, sink);
    sink.add(w::TEMPO, tempo(p, seat));
}

/// Whether the action lands on an enemy Base or (7 to Jack) the goal rank.
fn lands_special(p: &Quattuor, a: Action) -> bool {
    let s = p.side as usize;
    let v = p.piece_at(a.from()).map_or(0, value_of);
    !a.retreat() && (BASES_BB[1 - s].has(a.to()) || (v <= JACK && GOAL[s].has(a.to())))
}

/// Captures, reaching the goal rank with a winning piece, and rescues that
/// matter most: a landing can have hundreds of rescue variants (§11 E7), so
/// only rescues of a King or an Ace (one rescue, or both of two) count, which keeps quiescence narrow.
pub fn is_tactical(p: &Quattuor, a: Action) -> bool {
    if a.is_pass() {
        return false;
    }
    if p.board[a.to()] != 0 {
        return true;
    }
    if a.has_rescue() {
        return match (a.rescue(0), a.rescue(1)) {
            (Some(x), Some(y)) => value_of(x) >= KING && value_of(y) >= KING,
            (Some(x), None) | (None, Some(x)) => value_of(x) >= KING,
            _ => false,
        };
    }
    let s = p.side as usize;
    p.piece_at(a.from()).is_some_and(|pc| value_of(pc) >= QUEEN && GOAL[s].has(a.to()) && side_of_piece(pc) == s)
}

/// Move ordering: winning reaches, then captures by victim value (cheap
/// attacker first), rescues, quiet moves, `0000` last.
pub fn order_hint(p: &Quattuor, a: Action) -> i32 {
    if a.is_pass() {
        return -1000;
    }
    let Some(mover) = p.piece_at(a.from()) else {
        return 0;
    };
    let s = p.side as usize;
    let v = value_of(mover);
    let mut h = 0;
    if v >= QUEEN && GOAL[s].has(a.to()) && !a.retreat() {
        return 1_000_000;
    }
    if let Some(victim) = p.piece_at(a.to()) {
        h += 16 * VALUE[value_of(victim)] - VALUE[v] / 10;
        if a.retreat() {
            h += VALUE[v];
        }
    }
    if lands_special(p, a) {
        h -= VALUE[v];
        for b in 0..2 {
            if let Some(r) = a.rescue(b) {
                h += 8 * VALUE[value_of(r)];
            }
        }
    }
    h
}
