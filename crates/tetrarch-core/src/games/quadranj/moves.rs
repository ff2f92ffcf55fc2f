//! Actions: encoding, legal generation (§5) and make (§4, §5, then the end
//! checks of §6 in `rules`). Unmake restores the saved [`State`].

use super::board::{Sq, NO_SQ};
use super::cell::{self, EMPTY, T_GUARD, T_PILOT, T_ROYAL, WALL};
use super::{Burglar, Quadranj, State};
use crate::bitboard::Bb128;
use crate::game::ActionList;
use core::ops::{Deref, DerefMut};
use smallvec::SmallVec;

/// Action kinds.
pub(crate) mod kind {
    /// Slide, step or lone-pilot step: `a` → `b`.
    pub const MOVE: u8 = 1;
    /// Climb out of the single on `a` to `b`.
    pub const CLIMB_OUT: u8 = 2;
    /// Royal on `a` swaps with the unit on `b`.
    pub const SWAP: u8 = 3;
    /// Royal on `a` charges the unit on `b`.
    pub const CHARGE: u8 = 4;
    /// Lone pilot on `a` climbs into the empty blocker `b`; drive `c`
    /// (0 none, [`DRIVE_STEP`], [`DRIVE_STACK`]) to square `x`.
    pub const CLIMB_IN: u8 = 5;
    /// Stacking onto `a`; contributors in `y` (square + 1 per byte,
    /// ascending), `c` of them.
    pub const STACK: u8 = 6;
    /// Unstacking from `a`: `b` links in `y` (byte `j` = dir << 4 | count),
    /// exit in `c` (0 none, else link index i (1-based) | (dir + 1) << 4).
    pub const UNSTACK: u8 = 7;
    pub const DRIVE_STEP: u8 = 1;
    pub const DRIVE_STACK: u8 = 2;
}

/// One action (16 bytes). The crate-internal `kind` module gives the
/// meaning of the fields for each kind.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Action {
    pub(crate) kind: u8,
    pub(crate) a: u8,
    pub(crate) b: u8,
    pub(crate) c: u8,
    pub(crate) x: u32,
    pub(crate) y: u64,
}

impl Action {
    #[inline(always)]
    pub(crate) fn simple(k: u8, a: Sq, b: Sq) -> Action {
        Action { kind: k, a: a as u8, b: b as u8, c: 0, x: 0, y: 0 }
    }
    /// The kind (one of the crate-internal `kind` module's constants).
    pub fn kind(&self) -> u8 {
        self.kind
    }
    /// The contributors of a stacking action.
    pub(crate) fn contributors(&self) -> impl Iterator<Item = Sq> {
        let y = self.y;
        let n = self.c as usize;
        (0..n).map(move |i| ((y >> (8 * i)) & 0xFF) as Sq - 1)
    }
    /// The links of an unstacking action: (direction, count).
    pub(crate) fn links(&self) -> impl Iterator<Item = (usize, usize)> {
        let y = self.y;
        let n = self.b as usize;
        (0..n).map(move |i| {
            let v = (y >> (8 * i)) & 0xFF;
            ((v >> 4) as usize, (v & 15) as usize)
        })
    }
}

impl core::fmt::Debug for Action {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Action({},{},{},{},{},{:x})", self.kind, self.a, self.b, self.c, self.x, self.y)
    }
}

/// What `make` saves: the whole state before the action.
#[derive(Clone, Copy, Debug)]
pub struct Undo(pub(crate) State);

/// Inline capacity of [`ActionVec`].
pub const INLINE_ACTIONS: usize = 256;

/// The legal actions of a position. Stacking chooses any subset of up to 7
/// contributors and an unstacking cascade of an 8-high stack can follow
/// hundreds of thousands of chains (§8.5), so no small bound exists: the list
/// grows onto the heap in the rare positions with more than
/// `INLINE_ACTIONS` actions.
#[derive(Default, Clone, Debug)]
pub struct ActionVec(pub(crate) SmallVec<[Action; INLINE_ACTIONS]>);

impl Deref for ActionVec {
    type Target = [Action];
    #[inline(always)]
    fn deref(&self) -> &[Action] {
        &self.0
    }
}

impl DerefMut for ActionVec {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [Action] {
        &mut self.0
    }
}

impl ActionList<Action> for ActionVec {
    #[inline(always)]
    fn push(&mut self, a: Action) {
        self.0.push(a)
    }
    #[inline(always)]
    fn clear(&mut self) {
        self.0.clear()
    }
}

/// Sets shared by the generators of one position.
pub(crate) struct Ctx {
    pub me: usize,
    pub active: Bb128,
    /// Forbidden for a guard of the mover, and for its burglar (§2.6).
    pub fg: Bb128,
    pub fresh: Bb128,
    pub empty: Bb128,
    /// Squares a unit may end on: empty or an enemy lone pilot.
    pub land: Bb128,
    pub enemy_p: Bb128,
    /// Longest unstacking chain generated, in links (§5.12 allows any).
    pub max_links: usize,
}

/// Provisional (§5.9): the squares from which a fresh single may stack onto
/// `l` through an express lane: the neighbours of every S1 of a lane, i.e.
/// of every square of the runs of own columns of `l`'s height (≥ 2) that
/// start next to `l` along one of the 8 directions.
pub(crate) fn lane_reach(p: &Quadranj, l: Sq) -> Bb128 {
    let st = &p.st;
    let c = st.cell[l];
    let h = cell::height(c);
    let mut r = Bb128::EMPTY;
    if h < 2 {
        return r;
    }
    for d in 0..8 {
        let mut s = l;
        while let Some(t) = p.geo.step(s, d) {
            if st.cell[t] != c {
                break;
            }
            r |= p.geo.nbr8[t];
            s = t;
        }
    }
    r
}

impl Quadranj {
    pub(crate) fn ctx(&self) -> Ctx {
        self.ctx_links(usize::MAX)
    }

    pub(crate) fn ctx_links(&self, max_links: usize) -> Ctx {
        let st = &self.st;
        let me = st.to_move as usize;
        let active = self.active_keeps();
        let own = st.own[me];
        let empty = self.geo.all & !st.occ;
        let enemy_p = st.pilots & !own;
        Ctx {
            me,
            active,
            fg: active & !self.geo.keep[me],
            fresh: own & !st.marks,
            empty,
            land: empty | enemy_p,
            enemy_p,
            max_links,
        }
    }

    /// Whether a lone pilot of `seat` on `s` counts as its burglar (§2.6, §2.7).
    #[inline(always)]
    pub(crate) fn lone_is_burglar(&self, seat: usize, s: Sq) -> bool {
        match self.st.burglar[seat] {
            Burglar::Unknown => true,
            Burglar::Known { sq, level, .. } => sq as Sq == s && level == 0,
            Burglar::None => false,
        }
    }

    /// Whether the pilot of the single of `seat` on `s` counts as its burglar.
    #[inline(always)]
    pub(crate) fn single_is_burglar(&self, seat: usize, s: Sq) -> bool {
        match self.st.burglar[seat] {
            Burglar::Unknown => true,
            Burglar::Known { sq, level, .. } => sq as Sq == s && level == 1,
            Burglar::None => false,
        }
    }

    /// The squares forbidden for a lone pilot of the mover (burglar or not).
    #[inline(always)]
    fn pilot_forbidden(c: &Ctx, burglar: bool) -> Bb128 {
        if burglar {
            c.fg
        } else {
            c.active
        }
    }

    /// Every legal action (the game is not over).
    pub(crate) fn generate(&self, out: &mut ActionVec) {
        self.generate_with(out, usize::MAX);
    }

    /// The legal actions with unstacking chains of at most `max_links`
    /// links (the game is not over).
    pub(crate) fn generate_with(&self, out: &mut ActionVec, max_links: usize) {
        let c = self.ctx_links(max_links);
        let st = &self.st;
        let g = self.geo;
        let me = c.me;
        let r = st.royal[me];
        if r != NO_SQ && c.fresh.has(r as Sq) {
            self.gen_royal(&c, r as Sq, out);
        }
        for s in c.fresh & st.guards {
            for d in 0..4 {
                let mut t = s;
                while let Some(u) = g.step(t, d) {
                    if c.fg.has(u) {
                        break;
                    }
                    if c.empty.has(u) {
                        out.push(Action::simple(kind::MOVE, s, u));
                        t = u;
                        continue;
                    }
                    if c.enemy_p.has(u) {
                        out.push(Action::simple(kind::MOVE, s, u));
                    }
                    break;
                }
            }
        }
        for s in c.fresh & st.cols {
            for t in g.nbr8[s] & c.land & !c.active {
                out.push(Action::simple(kind::MOVE, s, t));
            }
            let h = cell::height(st.cell[s]);
            if h == 1 {
                let f = Self::pilot_forbidden(&c, self.single_is_burglar(me, s));
                for t in g.nbr8[s] & c.land & !f {
                    out.push(Action::simple(kind::CLIMB_OUT, s, t));
                }
            } else {
                self.gen_unstack(&c, s, h, out);
            }
        }
        let own_cols = st.own[me] & st.cols;
        let mut lanes: [(Sq, Bb128); 16] = [(0, Bb128::EMPTY); 16];
        let mut nl = 0;
        for l in own_cols {
            if nl < 16 {
                lanes[nl] = (l, lane_reach(self, l));
                nl += 1;
            }
        }
        let lanes = &lanes[..nl];
        for s in c.fresh & st.pilots {
            let f = Self::pilot_forbidden(&c, self.lone_is_burglar(me, s));
            for t in g.nbr4[s] & c.land & !f {
                out.push(Action::simple(kind::MOVE, s, t));
            }
            self.gen_climb_in(&c, s, lanes, out);
        }
        // Stacking (§5.8, §5.9).
        let singles = c.fresh & own_cols & self.singles();
        for &(l, reach) in lanes {
            let cands = ((g.nbr8[l] & c.fresh & own_cols) | (reach & singles)) & !Bb128::from_cell(l);
            let mut list = [0u8; 16];
            let mut n = 0;
            for s in cands {
                list[n] = s as u8 + 1;
                n += 1;
            }
            if n == 0 {
                continue;
            }
            debug_assert!(n <= 8, "more contributors than pilots allow");
            for mask in 1u32..1 << n {
                let mut y = 0u64;
                let mut k = 0;
                for (i, &sq1) in list[..n].iter().enumerate() {
                    if mask >> i & 1 != 0 {
                        y |= (sq1 as u64) << (8 * k);
                        k += 1;
                    }
                }
                out.push(Action { kind: kind::STACK, a: l as u8, b: 0, c: k as u8, x: 0, y });
            }
        }
    }

    /// Columns of height 1.
    #[inline(always)]
    pub(crate) fn singles(&self) -> Bb128 {
        let mut b = Bb128::EMPTY;
        for s in self.st.cols {
            if cell::height(self.st.cell[s]) == 1 {
                b.set(s);
            }
        }
        b
    }

    fn gen_royal(&self, c: &Ctx, r: Sq, out: &mut ActionVec) {
        let g = self.geo;
        let st = &self.st;
        for d in 0..4 {
            let mut t = r;
            while let Some(u) = g.step(t, d) {
                if c.empty.has(u) {
                    out.push(Action::simple(kind::MOVE, r, u));
                    t = u;
                    continue;
                }
                if c.enemy_p.has(u) {
                    out.push(Action::simple(kind::MOVE, r, u));
                }
                break;
            }
        }
        // Swap (§5.10).
        for p in g.nbr8[r] & c.fresh {
            let code = st.cell[p];
            let ok = match cell::kind(code) {
                T_GUARD => !c.fg.has(r),
                T_PILOT => !Self::pilot_forbidden(c, self.lone_is_burglar(c.me, p)).has(r),
                3 => !c.active.has(r), // a single
                _ => false,
            };
            if ok {
                out.push(Action::simple(kind::SWAP, r, p));
            }
        }
        // Charge (§5.11).
        for d in 0..4 {
            if let Some(t) = self.charge_target(r, d) {
                out.push(Action::simple(kind::CHARGE, r, t));
            }
        }
    }

    /// The target of a charge from `r` in direction `d` (§5.11 items 1–3).
    pub(crate) fn charge_target(&self, r: Sq, d: usize) -> Option<Sq> {
        let g = self.geo;
        let st = &self.st;
        let me = cell::owner(st.cell[r]);
        let first = g.step(r, d)?;
        if st.occ.has(first) {
            return None;
        }
        let mut t = first;
        loop {
            t = g.step(t, d)?;
            if st.occ.has(t) {
                break;
            }
        }
        let code = st.cell[t];
        if !cell::is_unit(code) || cell::owner(code) == me {
            return None;
        }
        match cell::kind(code) {
            T_ROYAL | T_GUARD | 3 => {}
            _ => return None,
        }
        if !self.charge_before {
            let q = g.step(t, d)?;
            if st.occ.has(q) {
                return None;
            }
        }
        Some(t)
    }

    /// The push square of a charge from `r` onto `t` (§5.11 item 3).
    pub(crate) fn push_square(&self, r: Sq, t: Sq) -> Sq {
        let g = self.geo;
        let (fr, rr, ft, rt) = (g.file(r) as i32, g.rank(r) as i32, g.file(t) as i32, g.rank(t) as i32);
        let (df, dr) = ((ft - fr).signum(), (rt - rr).signum());
        let k = if self.charge_before { -1 } else { 1 };
        g.sq((ft + k * df) as usize, (rt + k * dr) as usize)
    }

    fn gen_climb_in(&self, c: &Ctx, p: Sq, lanes: &[(Sq, Bb128)], out: &mut ActionVec) {
        let g = self.geo;
        let walls = self.st.walls;
        let mut reach = g.nbr8[p] & walls;
        let mut frontier = reach;
        while frontier.any() {
            let mut nb = Bb128::EMPTY;
            for s in frontier {
                nb |= g.nbr8[s];
            }
            frontier = nb & walls & !reach;
            reach |= frontier;
        }
        let pb = Bb128::from_cell(p);
        for e in reach {
            out.push(Action { kind: kind::CLIMB_IN, a: p as u8, b: e as u8, c: 0, x: 0, y: 0 });
            if self.st.marks.has(e) {
                continue;
            }
            for t in g.nbr8[e] & (c.land | pb) & !c.active {
                out.push(Action { kind: kind::CLIMB_IN, a: p as u8, b: e as u8, c: kind::DRIVE_STEP, x: t as u32, y: 0 });
            }
            for &(l, lr) in lanes {
                if g.nbr8[e].has(l) || lr.has(e) {
                    out.push(Action { kind: kind::CLIMB_IN, a: p as u8, b: e as u8, c: kind::DRIVE_STACK, x: l as u32, y: 0 });
                }
            }
        }
    }

    /// Provisional (§5.12): every unstacking chain of the fresh stack on
    /// `x0`, with and without a pilot exit.
    fn gen_unstack(&self, c: &Ctx, x0: Sq, h: usize, out: &mut ActionVec) {
        let mut ch = Chain { sqs: [0; 10], ks: [0; 10], y: 0, n: 0, x0, h0: h };
        ch.sqs[0] = x0 as u8;
        ch.ks[0] = h as u8;
        let link_ok = c.land & !c.active;
        self.unstack_rec(c, link_ok, &mut ch, Bb128::from_cell(x0), out);
    }

    fn unstack_rec(&self, c: &Ctx, link_ok: Bb128, ch: &mut Chain, visited: Bb128, out: &mut ActionVec) {
        let g = self.geo;
        let last = ch.sqs[ch.n] as Sq;
        let avail = ch.ks[ch.n] as usize;
        for k in 1..avail {
            for d in 0..8 {
                let Some(t) = g.step(last, d) else { continue };
                if !link_ok.has(t) || visited.has(t) {
                    continue;
                }
                let n = ch.n + 1;
                ch.n = n;
                ch.sqs[n] = t as u8;
                ch.ks[n] = k as u8;
                let saved_y = ch.y;
                ch.y |= ((d as u64) << 4 | k as u64) << (8 * (n - 1));
                let base = Action { kind: kind::UNSTACK, a: ch.x0 as u8, b: n as u8, c: 0, x: 0, y: ch.y };
                out.push(base);
                let occ_after = visited.with(t);
                let bur = self.chain_burglar(ch);
                for i in 1..=n {
                    let fc = if i < n { ch.ks[i] - ch.ks[i + 1] } else { ch.ks[i] };
                    if fc != 1 {
                        continue;
                    }
                    let xi = ch.sqs[i] as Sq;
                    let is_b = match bur {
                        ChainBurglar::Any => true,
                        ChainBurglar::At(j) => j == i,
                        ChainBurglar::No => false,
                    };
                    let f = Self::pilot_forbidden(c, is_b);
                    for e in 0..8 {
                        let Some(dest) = g.step(xi, e) else { continue };
                        if c.land.has(dest) && !occ_after.has(dest) && !f.has(dest) {
                            out.push(Action { c: (i as u8) | ((e as u8 + 1) << 4), ..base });
                        }
                    }
                }
                if k >= 2 && n < c.max_links {
                    self.unstack_rec(c, link_ok, ch, occ_after, out);
                }
                ch.y = saved_y;
                ch.n = n - 1;
            }
        }
    }

    /// Where the mover's burglar ends after a chain: as the level-1 pilot of
    /// chain square `i`, anywhere (unknown burglar), or not in a position to
    /// exit.
    fn chain_burglar(&self, ch: &Chain) -> ChainBurglar {
        let me = self.st.to_move as usize;
        match self.st.burglar[me] {
            Burglar::Unknown => ChainBurglar::Any,
            Burglar::Known { sq, level, .. } if sq as Sq == ch.x0 && level > 0 => {
                let mut loc = 0;
                let mut lev = level as usize;
                let mut hh = ch.h0;
                for j in 1..=ch.n {
                    let k = ch.ks[j] as usize;
                    if loc == j - 1 && lev > hh - k {
                        loc = j;
                        lev -= hh - k;
                    }
                    hh = k;
                }
                if loc >= 1 && lev == 1 {
                    ChainBurglar::At(loc)
                } else {
                    ChainBurglar::No
                }
            }
            _ => ChainBurglar::No,
        }
    }

    /// Whether the mover (mid-turn) has any legal action (§6.3). Cheap
    /// sufficient tests first, the full generator otherwise.
    pub(crate) fn has_any_action(&self) -> bool {
        let c = self.ctx();
        let st = &self.st;
        let g = self.geo;
        let r = st.royal[c.me];
        if r != NO_SQ && c.fresh.has(r as Sq) && (g.nbr4[r as Sq] & c.land).any() {
            return true;
        }
        for s in c.fresh & st.cols {
            if (g.nbr8[s] & c.land & !c.active).any() {
                return true;
            }
        }
        for s in c.fresh & st.pilots {
            if (g.nbr4[s] & c.land & !c.active).any() || (g.nbr8[s] & st.walls).any() {
                return true;
            }
        }
        for s in c.fresh & st.guards {
            if (g.nbr4[s] & c.land & !c.fg).any() {
                return true;
            }
        }
        let mut l = ActionVec::default();
        self.generate(&mut l);
        !l.is_empty()
    }

    // ---- make ---------------------------------------------------------------

    /// Captures an enemy lone pilot on `t` if there is one (§5.0 item 2).
    #[inline(always)]
    fn capture_pilot(&mut self, t: Sq) -> bool {
        let code = self.st.cell[t];
        if cell::is_unit(code) && cell::kind(code) == T_PILOT {
            let o = cell::owner(code);
            let me = self.st.to_move as usize;
            debug_assert_ne!(o, me);
            self.st.tally[me] += 1;
            if let Burglar::Known { sq, level: 0, .. } = self.st.burglar[o] {
                if sq as Sq == t {
                    self.st.burglar[o] = Burglar::None;
                }
            }
            self.set(t, EMPTY);
            true
        } else {
            false
        }
    }

    /// Moves the burglar of `seat` standing on `from` (any level) to `to`.
    #[inline(always)]
    fn move_burglar(&mut self, seat: usize, from: Sq, to: Sq) {
        if let Burglar::Known { sq, level, revealed } = self.st.burglar[seat] {
            if sq as Sq == from {
                self.st.burglar[seat] = Burglar::Known { sq: to as u8, level, revealed };
            }
        }
    }

    /// Sets the burglar of `seat` found at (`from`, `from_level`) to
    /// (`to`, `to_level`).
    #[inline(always)]
    fn relevel_burglar(&mut self, seat: usize, from: Sq, from_level: u8, to: Sq, to_level: u8) {
        if let Burglar::Known { sq, level, revealed } = self.st.burglar[seat] {
            if sq as Sq == from && level == from_level {
                self.st.burglar[seat] = Burglar::Known { sq: to as u8, level: to_level, revealed };
            }
        }
    }

    /// Puts the column on `c` on top of the column on `l` (§5.8).
    fn stack_onto(&mut self, me: usize, l: Sq, c: Sq) {
        let hl = cell::height(self.st.cell[l]);
        let hc = cell::height(self.st.cell[c]);
        if let Burglar::Known { sq, level, revealed } = self.st.burglar[me] {
            if sq as Sq == c {
                self.st.burglar[me] = Burglar::Known { sq: l as u8, level: level + hl as u8, revealed };
            }
        }
        self.set(c, EMPTY);
        self.set(l, cell::column(me, hl + hc));
    }

    /// A royal charge (§5.11): the royal pushes the unit on `sb` one square on,
    /// or captures it where it may not stand; whether it captured.
    fn charge(&mut self, me: usize, sa: Sq, sb: Sq, marks: &mut Bb128) -> bool {
        let mut captured = false;
        let q = self.push_square(sa, sb);
        let ct = self.st.cell[sb];
        let ts = cell::owner(ct);
        let active = self.active_keeps();
        let allowed = match cell::kind(ct) {
            T_ROYAL => true,
            T_GUARD => !(active & !self.geo.keep[ts]).has(q),
            _ => !active.has(q),
        };
        let royal = self.st.cell[sa];
        self.set(sa, EMPTY);
        self.set(sb, EMPTY);
        if allowed {
            self.set(q, ct);
            self.move_burglar(ts, sb, q);
        } else {
            self.st.tally[me] += cell::value2(ct);
            captured = true;
            if let Burglar::Known { sq, .. } = self.st.burglar[ts] {
                if sq as Sq == sb {
                    self.st.burglar[ts] = Burglar::None;
                }
            }
        }
        self.set(sb, royal);
        marks.set(sb);
        captured
    }

    /// Climbing in (§5.5), then the drive (§5.6) if the action has one;
    /// whether it captured.
    fn climb_in(&mut self, me: usize, a: Action, marks: &mut Bb128) -> bool {
        let (sa, sb) = (a.a as Sq, a.b as Sq);
        let mut captured = false;
        self.set(sa, EMPTY);
        self.set(sb, cell::column(me, 1));
        self.relevel_burglar(me, sa, 0, sb, 1);
        let t = a.x as Sq;
        match a.c {
            kind::DRIVE_STEP => {
                captured |= self.capture_pilot(t);
                self.set(sb, EMPTY);
                self.set(t, cell::column(me, 1));
                self.move_burglar(me, sb, t);
                marks.set(t);
            }
            kind::DRIVE_STACK => {
                self.stack_onto(me, t, sb);
                marks.set(t);
            }
            _ => marks.set(sb),
        }
        captured
    }

    /// Unstacking (§5.12): the chain's links, then the climb-out at its
    /// end if the action has one; whether it captured.
    fn unstack(&mut self, me: usize, a: Action, marks: &mut Bb128) -> bool {
        let sa = a.a as Sq;
        let mut captured = false;
        let mut sqs = [0u8; 10];
        let mut cur = sa;
        sqs[0] = cur as u8;
        let mut hh = cell::height(self.st.cell[cur]);
        marks.set(cur);
        for (j, (d, k)) in a.links().enumerate() {
            let t = self.geo.step[cur][d] as Sq;
            captured |= self.capture_pilot(t);
            self.set(cur, cell::column(me, hh - k));
            self.set(t, cell::column(me, k));
            if let Burglar::Known { sq, level, revealed } = self.st.burglar[me] {
                if sq as Sq == cur && level as usize > hh - k {
                    self.st.burglar[me] = Burglar::Known { sq: t as u8, level: level - (hh - k) as u8, revealed };
                }
            }
            marks.set(t);
            cur = t;
            hh = k;
            sqs[j + 1] = t as u8;
        }
        if a.c != 0 {
            let xi = sqs[(a.c & 15) as usize] as Sq;
            let dest = self.geo.step[xi][((a.c >> 4) - 1) as usize] as Sq;
            captured |= self.capture_pilot(dest);
            self.set(xi, WALL);
            self.set(dest, cell::unit(me, T_PILOT));
            self.relevel_burglar(me, xi, 1, dest, 0);
            marks.set(dest);
        }
        captured
    }

    /// Plays one action and then the end checks (§6.1, §6.3, §6.4).
    pub(crate) fn make_action(&mut self, a: Action) {
        let me = self.st.to_move as usize;
        let first = self.st.index == 0;
        self.st.quiet += 1;
        let mut cap = false;
        let mut marks = Bb128::EMPTY;
        let (sa, sb) = (a.a as Sq, a.b as Sq);
        match a.kind {
            kind::MOVE => {
                cap |= self.capture_pilot(sb);
                let code = self.st.cell[sa];
                self.set(sa, EMPTY);
                self.set(sb, code);
                self.move_burglar(me, sa, sb);
                marks.set(sb);
            }
            kind::CLIMB_OUT => {
                cap |= self.capture_pilot(sb);
                self.set(sa, WALL);
                self.set(sb, cell::unit(me, T_PILOT));
                self.relevel_burglar(me, sa, 1, sb, 0);
                marks.set(sb);
            }
            kind::SWAP => {
                let (ca, cb) = (self.st.cell[sa], self.st.cell[sb]);
                self.set(sa, cb);
                self.set(sb, ca);
                self.move_burglar(me, sb, sa);
                marks.set(sa);
                marks.set(sb);
            }
            kind::CHARGE => cap |= self.charge(me, sa, sb, &mut marks),
            kind::CLIMB_IN => cap |= self.climb_in(me, a, &mut marks),
            kind::STACK => {
                for s in a.contributors() {
                    self.stack_onto(me, sa, s);
                }
                marks.set(sa);
            }
            kind::UNSTACK => cap |= self.unstack(me, a, &mut marks),
            _ => unreachable!("invalid action"),
        }
        if cap {
            self.st.quiet = 0;
        }
        self.after_action(me, first, marks);
    }
}

enum ChainBurglar {
    Any,
    At(usize),
    No,
}

struct Chain {
    sqs: [u8; 10],
    ks: [u8; 10],
    y: u64,
    n: usize,
    x0: Sq,
    h0: usize,
}
