//! Moves: one move is one whole turn — a step, a slide, a hop chain or a
//! capture path — encoded as its path of squares (§5.9); generation on
//! bitboards (§5); make/unmake.
//!
//! Capture sequences are enumerated depth-first from every piece that has a
//! single jump. Captured pieces stay in the occupancy (they block and cannot
//! be landed on) and are kept in a `captured` set so they are never jumped
//! twice; with `QK_CapturedRemoval = immediate` they leave the occupancy at
//! once instead. The moving piece is lifted from its start square first.

use core::ops::{Deref, DerefMut};

use super::board::*;
use super::{CrownInCapture, Mode, QueensKings, State, KING, MAN, QUEEN};
use crate::bitboard::Bb192;
use crate::game::ActionList;
use smallvec::SmallVec;

/// Most squares in a path: the start square and one landing square per
/// captured piece. A capture takes only enemy pieces, each at most once, and
/// a seat has at most 18 pieces (§7.6.6), so at most 3 × 18 = 54 pieces are
/// enemies of the mover (free-for-all with `keep`): 55 squares.
pub const MAX_PATH: usize = 55;

/// What kind of turn a move is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// A step or a Queen's slide.
    Quiet,
    /// A teammate hop chain (§5.4).
    Hop,
    /// A capture sequence (§5.5).
    Capture,
}

/// One turn: the start square and every landing square (§5.9). Unused path
/// entries are always 0, so the derived equality and hash see the path only.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    len: u8,
    kind: u8,
    path: [u8; MAX_PATH],
}

impl Default for Move {
    fn default() -> Self {
        Move { len: 0, kind: 0, path: [0; MAX_PATH] }
    }
}

impl Move {
    /// A move of the given kind along `squares` (at least two).
    pub fn new(kind: MoveKind, squares: &[Sq]) -> Move {
        let mut m = Move { len: 0, kind: kind as u8, path: [0; MAX_PATH] };
        for &s in squares {
            m.push(s);
        }
        m
    }

    #[inline(always)]
    fn start(kind: MoveKind, from: Sq) -> Move {
        let mut m = Move { kind: kind as u8, ..Move::default() };
        m.path[0] = from as u8;
        m.len = 1;
        m
    }

    #[inline(always)]
    fn step(kind: MoveKind, from: Sq, to: Sq) -> Move {
        let mut m = Move::start(kind, from);
        m.path[1] = to as u8;
        m.len = 2;
        m
    }

    #[inline(always)]
    fn push(&mut self, s: Sq) {
        self.path[self.len as usize] = s as u8;
        self.len += 1;
    }

    #[inline(always)]
    fn pop(&mut self) {
        self.len -= 1;
        self.path[self.len as usize] = 0;
    }

    /// The kind of turn.
    #[inline(always)]
    pub fn kind(&self) -> MoveKind {
        match self.kind {
            0 => MoveKind::Quiet,
            1 => MoveKind::Hop,
            _ => MoveKind::Capture,
        }
    }

    /// Number of squares in the path.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether the path is empty (only the default move).
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The `i`-th square of the path.
    #[inline(always)]
    pub fn square(&self, i: usize) -> Sq {
        self.path[i] as Sq
    }

    /// The path's squares.
    pub fn squares(&self) -> impl Iterator<Item = Sq> + '_ {
        self.path[..self.len as usize].iter().map(|&s| s as Sq)
    }

    /// Start square.
    #[inline(always)]
    pub fn from(&self) -> Sq {
        self.path[0] as Sq
    }

    /// Final square.
    #[inline(always)]
    pub fn to(&self) -> Sq {
        self.path[self.len as usize - 1] as Sq
    }
}

/// Inline capacity of [`MoveList`].
pub const INLINE_MOVES: usize = 128;

/// The legal moves of a position. Flying Queens' capture paths and teammate
/// hop chains have no small provable bound on their number, so the list
/// grows onto the heap in the (rare) positions with more than
/// [`INLINE_MOVES`] moves; ordinary positions never allocate.
#[derive(Default, Clone, Debug)]
pub struct MoveList(SmallVec<[Move; INLINE_MOVES]>);

impl Deref for MoveList {
    type Target = [Move];
    #[inline(always)]
    fn deref(&self) -> &[Move] {
        &self.0
    }
}

impl DerefMut for MoveList {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [Move] {
        &mut self.0
    }
}

impl ActionList<Move> for MoveList {
    #[inline(always)]
    fn push(&mut self, a: Move) {
        self.0.push(a)
    }
    #[inline(always)]
    fn clear(&mut self) {
        self.0.clear()
    }
}

const ALL_DIRS: [usize; 4] = [NE, NW, SE, SW];

/// Whether a Queen on `s` has a single jump over a piece of `capt` given the
/// occupancy `occ`.
#[inline]
fn queen_can_capture(g: &Geo, capt: Bb192, s: Sq, occ: Bb192) -> bool {
    for d in ALL_DIRS {
        if let Some(b) = nearest(d, g.rays[d][s] & occ) {
            if capt.has(b) {
                let beyond = g.next[d][b];
                if beyond != NONE && !occ.has(beyond as Sq) {
                    return true;
                }
            }
        }
    }
    false
}

/// Slots of [`Seen`]: a power of two.
const SEEN_SLOTS: usize = 1 << 15;

/// Most capture states `Paths::Distinct` expands in one position (three
/// quarters of the set's slots, so probes stay short); past it the search's
/// list leaves the remaining capture states out.
pub const DISTINCT_CAPTURE_STATES: usize = SEEN_SLOTS / 4 * 3;

/// The capture states a [`Paths::Distinct`] listing has expanded: an
/// open-addressing set of 64-bit hashes of (start square, square, piece
/// type, pieces captured) with a fixed number of slots (256 KB, made only
/// for the rare positions that need it).
pub(crate) struct Seen {
    slots: Box<[u64]>,
    len: usize,
}

impl Seen {
    pub(crate) fn new() -> Seen {
        Seen { slots: vec![0; SEEN_SLOTS].into_boxed_slice(), len: 0 }
    }

    /// Adds `key` (never 0); `false` if it was there or the set is full.
    fn insert(&mut self, key: u64) -> bool {
        let mut i = (key >> 49) as usize & (SEEN_SLOTS - 1);
        loop {
            match self.slots[i] {
                0 if self.len >= DISTINCT_CAPTURE_STATES => return false,
                0 => {
                    self.slots[i] = key;
                    self.len += 1;
                    return true;
                }
                k if k == key => return false,
                _ => i = (i + 1) & (SEEN_SLOTS - 1),
            }
        }
    }
}

/// SplitMix64's finaliser: every input bit moves every output bit, so the
/// hash of a capture state has no systematic collisions (a square number
/// XORed into the captured set's bits would).
#[inline(always)]
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Which capture paths a listing writes.
pub(crate) enum Paths<'a> {
    /// Every path (the rules, perft, the protocol's lists).
    All,
    /// One path per distinct capture state: a state (where the piece stands,
    /// as what, having captured which pieces) is expanded once, so two paths
    /// that reach it (the same pieces taken in another order or with other
    /// landing squares) give one move, and at most
    /// [`DISTINCT_CAPTURE_STATES`] states are expanded. The paths left out
    /// end in positions the list already reaches; only past the bound are
    /// outcomes lost. For the search.
    Distinct(&'a mut Seen),
    /// Only the paths that follow this move's squares (legality of one move
    /// without listing the others).
    Follow(&'a Move),
    /// Every path, but the listing stops (incomplete) once the list holds
    /// more than this many moves.
    AtMost(usize),
}

/// Depth-first enumeration of capture sequences (§5.3, §5.5–5.7).
struct Capturer<'a> {
    g: &'static Geo,
    colour: usize,
    /// Pieces the mover may capture (before the move).
    enemy: Bb192,
    crown: CrownInCapture,
    free_landing: bool,
    immediate: bool,
    mv: Move,
    out: &'a mut MoveList,
    paths: Paths<'a>,
    /// Set when a [`Paths::AtMost`] listing went past its bound.
    stopped: bool,
}

impl Capturer<'_> {
    #[inline(always)]
    fn emit(&mut self) {
        self.out.0.push(self.mv);
        if let Paths::AtMost(n) = self.paths {
            self.stopped |= self.out.len() > n;
        }
    }

    /// Whether to go on to the state of a piece of type `ty` on `s` having
    /// captured `captured` (`ty` 0 for a man crowned where the move ends).
    #[inline(always)]
    fn fresh(&mut self, s: Sq, ty: u8, captured: Bb192) -> bool {
        let Paths::Distinct(seen) = &mut self.paths else { return true };
        let mut h = mix((self.mv.path[0] as u64) | (s as u64) << 8 | (ty as u64) << 16);
        for w in captured.0 {
            h = mix(h ^ w);
        }
        seen.insert(h | 1)
    }

    /// Whether a jump may land on `s` next: always, but when following a
    /// move, only on that move's next square.
    #[inline(always)]
    fn wants(&self, s: Sq) -> bool {
        match self.paths {
            Paths::Follow(t) => self.mv.len < t.len && t.path[self.mv.len as usize] == s as u8,
            _ => true,
        }
    }

    /// Continues the capture of a piece of type `ty` standing on `s`; emits
    /// the path when no jump is left.
    fn extend(&mut self, s: Sq, ty: u8, captured: Bb192, occ: Bb192) {
        if self.stopped || !self.fresh(s, ty, captured) {
            return;
        }
        let any = if ty == QUEEN {
            self.queen_jumps(s, captured, occ)
        } else {
            let dirs: &[usize] = if ty == MAN { &FORWARD[self.colour] } else { &ALL_DIRS };
            let capt = self.enemy & !captured & occ;
            let empty = self.g.valid & !occ;
            let mut any = false;
            for &d in dirs {
                let mid = self.g.next[d][s];
                if mid == NONE || !capt.has(mid as Sq) {
                    continue;
                }
                let land = self.g.next[d][mid as Sq];
                if land == NONE || !empty.has(land as Sq) {
                    continue;
                }
                any = true;
                let (mid, land) = (mid as Sq, land as Sq);
                if !self.wants(land) {
                    continue;
                }
                let occ2 = if self.immediate { occ.and_not(Bb192::from_cell(mid)) } else { occ };
                self.mv.push(land);
                self.landed(land, ty, captured.with(mid), occ2);
                self.mv.pop();
            }
            any
        };
        if !any {
            self.emit();
        }
    }

    /// After a man's or King's jump onto `land`: crowning (§5.7), then on.
    #[inline(always)]
    fn landed(&mut self, land: Sq, ty: u8, captured: Bb192, occ: Bb192) {
        if ty == MAN {
            if let Some(new) = self.g.crown_at(self.colour, land) {
                match self.crown {
                    CrownInCapture::End => {
                        if self.fresh(land, 0, captured) {
                            self.emit();
                        }
                        return;
                    }
                    CrownInCapture::Continue => return self.extend(land, new, captured, occ),
                    CrownInCapture::Final => {}
                }
            }
        }
        self.extend(land, ty, captured, occ)
    }

    /// Every jump of a Queen on `s` with the landing rule (§5.6); returns
    /// whether there was one.
    fn queen_jumps(&mut self, s: Sq, captured: Bb192, occ: Bb192) -> bool {
        let g = self.g;
        let capt = self.enemy & !captured;
        let mut any = false;
        for d in ALL_DIRS {
            let Some(b) = nearest(d, g.rays[d][s] & occ) else { continue };
            if !capt.has(b) {
                continue;
            }
            let beyond = g.rays[d][b];
            let lands = match nearest(d, beyond & occ) {
                Some(x) => beyond.and_not(g.rays[d][x].with(x)),
                None => beyond,
            };
            if lands.is_empty() {
                continue;
            }
            any = true;
            let captured2 = captured.with(b);
            let occ2 = if self.immediate { occ.and_not(Bb192::from_cell(b)) } else { occ };
            let good = if self.free_landing {
                lands
            } else {
                let mut good = Bb192::EMPTY;
                for u in lands {
                    if queen_can_capture(g, self.enemy & !captured2, u, occ2) {
                        good.set(u);
                    }
                }
                if good.is_empty() {
                    // No landing square allows a further jump: any of them,
                    // and the move ends there.
                    for u in lands {
                        if self.wants(u) && self.fresh(u, QUEEN, captured2) {
                            self.mv.push(u);
                            self.emit();
                            self.mv.pop();
                        }
                    }
                    continue;
                }
                good
            };
            for u in good {
                if self.wants(u) {
                    self.mv.push(u);
                    self.extend(u, QUEEN, captured2, occ2);
                    self.mv.pop();
                }
            }
        }
        any
    }
}

impl QueensKings {
    /// Men, Kings and Queens of `colour` that have a single jump.
    #[inline]
    fn jumpers(&self, c: usize) -> (Bb192, Bb192, Bb192) {
        let st = &self.st;
        let own = st.by_colour[c];
        let enemy = self.enemy_pieces(c) & self.geo.inner;
        let empty = self.geo.valid & !st.occ;
        let men = own & st.by_type[MAN as usize];
        let kings = own & st.by_type[KING as usize];
        let mut cm = Bb192::EMPTY;
        let mut ck = Bb192::EMPTY;
        if enemy.is_empty() {
            return (cm, ck, Bb192::EMPTY);
        }
        for d in ALL_DIRS {
            let sh = SHIFT[d];
            let from = enemy.shift(-sh) & empty.shift(-2 * sh);
            if FORWARD[c][0] == d || FORWARD[c][1] == d {
                cm |= from & men;
            }
            ck |= from & kings;
        }
        let mut cq = Bb192::EMPTY;
        for s in own & st.by_type[QUEEN as usize] {
            if queen_can_capture(self.geo, enemy, s, st.occ) {
                cq.set(s);
            }
        }
        (cm, ck, cq)
    }

    /// Whether `colour` has a legal move (§5.8), whoever is to move.
    pub(crate) fn has_any_move(&self, c: usize) -> bool {
        let st = &self.st;
        let own = st.by_colour[c];
        if own.is_empty() {
            return false;
        }
        let empty = self.geo.valid & !st.occ;
        let men = own & st.by_type[MAN as usize];
        let kq = own & !st.by_type[MAN as usize];
        for d in FORWARD[c] {
            if (men.shift(SHIFT[d]) & empty).any() {
                return true;
            }
        }
        for d in ALL_DIRS {
            if (kq.shift(SHIFT[d]) & empty).any() {
                return true;
            }
        }
        let (cm, ck, cq) = self.jumpers(c);
        if (cm | ck | cq).any() {
            return true;
        }
        if self.rules.mode == Mode::Teams {
            let partner = st.by_colour[c ^ 2];
            for d in ALL_DIRS {
                let sh = SHIFT[d];
                let movers = if FORWARD[c].contains(&d) { own } else { kq };
                if ((movers.shift(sh) & partner).shift(sh) & empty).any() {
                    return true;
                }
            }
        }
        false
    }

    /// Every legal move of `colour` (§5.8), ignoring whether the game is over.
    pub(crate) fn generate(&self, c: usize, out: &mut MoveList) {
        self.generate_with(c, out, Paths::All);
    }

    /// The legal moves of `colour`, with the capture paths `paths` selects;
    /// `false` if a [`Paths::AtMost`] listing stopped at its bound.
    pub(crate) fn generate_with(&self, c: usize, out: &mut MoveList, paths: Paths<'_>) -> bool {
        let st = &self.st;
        let g = self.geo;
        let own = st.by_colour[c];
        let (cm, ck, cq) = self.jumpers(c);
        if (cm | ck | cq).any() {
            let only = match paths {
                Paths::Follow(t) if !t.is_empty() => Some(t.from()),
                _ => None,
            };
            let mut cap = Capturer {
                g,
                colour: c,
                enemy: self.enemy_pieces(c),
                crown: self.rules.crown,
                free_landing: self.rules.queen_landing_free,
                immediate: self.rules.immediate_removal,
                mv: Move::default(),
                out,
                paths,
                stopped: false,
            };
            for (set, ty) in [(cm, MAN), (ck, KING), (cq, QUEEN)] {
                for s in set {
                    if only.is_some_and(|o| o != s) {
                        continue;
                    }
                    cap.mv = Move::start(MoveKind::Capture, s);
                    cap.extend(s, ty, Bb192::EMPTY, st.occ.and_not(Bb192::from_cell(s)));
                }
            }
            return !cap.stopped;
        }
        let empty = g.valid & !st.occ;
        let men = own & st.by_type[MAN as usize];
        let kings = own & st.by_type[KING as usize];
        let queens = own & st.by_type[QUEEN as usize];
        for d in FORWARD[c] {
            let sh = SHIFT[d];
            for to in men.shift(sh) & empty {
                out.0.push(Move::step(MoveKind::Quiet, (to as i32 - sh) as Sq, to));
            }
        }
        if kings.any() {
            for d in ALL_DIRS {
                let sh = SHIFT[d];
                for to in kings.shift(sh) & empty {
                    out.0.push(Move::step(MoveKind::Quiet, (to as i32 - sh) as Sq, to));
                }
            }
        }
        for from in queens {
            for d in ALL_DIRS {
                let ray = g.rays[d][from];
                let targets = match nearest(d, ray & st.occ) {
                    Some(b) => ray.and_not(g.rays[d][b].with(b)),
                    None => ray,
                };
                for to in targets {
                    out.0.push(Move::step(MoveKind::Quiet, from, to));
                }
            }
        }
        if self.rules.mode == Mode::Teams {
            let partner = st.by_colour[c ^ 2];
            if partner.any() {
                for from in own {
                    let ty = self.type_at(from);
                    let mut mv = Move::start(MoveKind::Hop, from);
                    self.hops(c, ty, from, Bb192::from_cell(from), partner, empty, &mut mv, out);
                }
            }
        }
        true
    }

    /// Hop chains (§5.4) of a piece of type `ty` now on `s`.
    #[allow(clippy::too_many_arguments)]
    fn hops(&self, c: usize, ty: u8, s: Sq, visited: Bb192, partner: Bb192, empty: Bb192, mv: &mut Move, out: &mut MoveList) {
        let g = self.geo;
        let dirs: &[usize] = if ty == MAN { &FORWARD[c] } else { &ALL_DIRS };
        for &d in dirs {
            let mid = g.next[d][s];
            if mid == NONE || !partner.has(mid as Sq) {
                continue;
            }
            let land = g.next[d][mid as Sq];
            if land == NONE || !empty.has(land as Sq) || visited.has(land as Sq) {
                continue;
            }
            let land = land as Sq;
            mv.push(land);
            out.0.push(*mv);
            if !(ty == MAN && g.crown_at(c, land).is_some()) {
                self.hops(c, ty, land, visited.with(land), partner, empty, mv, out);
            }
            mv.pop();
        }
    }

    /// Plays a legal move, then the end-of-turn procedure (§6.2).
    pub(crate) fn make_move(&mut self, m: Move) -> State {
        let undo = self.st;
        let c = self.st.to_move as usize;
        let g = self.geo;
        let from = m.from();
        let to = m.to();
        let ty = self.type_at(from);
        self.remove(c, ty, from);
        let capture = m.kind() == MoveKind::Capture;
        if capture {
            for i in 1..m.len() {
                let (a, b) = (m.square(i - 1), m.square(i));
                let d = direction(a, b);
                let mut x = g.next[d][a] as Sq;
                while !self.st.occ.has(x) && x != b {
                    x = g.next[d][x] as Sq;
                }
                debug_assert!(x != b, "no piece between {} and {}", g.name(a), g.name(b));
                let (cc, ct) = (self.colour_at(x), self.type_at(x));
                self.remove(cc, ct, x);
            }
        }
        let mut nty = ty;
        if ty == MAN {
            if capture && self.rules.crown == CrownInCapture::Final {
                if let Some(t) = g.crown_at(c, to) {
                    nty = t;
                }
            } else {
                for i in 1..m.len() {
                    if let Some(t) = g.crown_at(c, m.square(i)) {
                        nty = t;
                        break;
                    }
                }
            }
        }
        self.put(c, nty, to);
        self.st.counter = if capture || ty == MAN { 0 } else { self.st.counter + 1 };
        self.st.turn += 1;
        self.end_of_turn(c);
        undo
    }

    /// The key from scratch.
    pub(crate) fn compute_key(&self) -> u64 {
        let mut k = super::keys::TO_MOVE[self.st.to_move as usize];
        for c in 0..4 {
            if self.st.in_game >> c & 1 != 0 {
                k ^= super::keys::IN_GAME[c];
            }
            for ty in 0..3 {
                for s in self.st.by_colour[c] & self.st.by_type[ty] {
                    k ^= super::keys::piece(c, ty, s);
                }
            }
        }
        k
    }
}
