//! Exact odds that a side of a flag can still be completed into a formation, for a seat that will receive a random handful of the cards it cannot see.
//!
//! The model: a seat holds some troops for sure (its hand) and will receive `draws`
//! of the `pool` troops it cannot see, every handful of that size equally likely.
//! That is exactly a seat's belief about its own future draws when the deck order and
//! the other hand are unknown to it (its draws are a uniform sample of the unseen
//! cards, whichever of them lie in the deck), and about the other seat's cards (its
//! hand plus its draws are a uniform sample of the unseen cards too).
//!
//! [`Supply::odds`] answers "can this side still become a wedge (or a phalanx, ...),
//! optionally with a sum above a given one?" exactly under that model, without
//! enumerating handfuls:
//! - wedges and skirmish lines: a pass over the values 1..10 that tracks which of the
//!   last values are present, counting handfuls by size with polynomials;
//! - phalanxes and battalions: the hypergeometric law of how many cards of one value
//!   (colour) arrive, multiplied across values (colours) when the side does not fix one;
//! - sums (battalion, host): a pass over the cards from the highest value down that
//!   stops once the side's best cards are known.
//!
//! The unit tests check every case against brute force over all handfuls of small pools.

use crate::card::{Card, Color, Tactic, Troop, TroopSet};
use crate::formation::{FormationKind, Judging, best_of_kind};

/// Largest pool the binomial table covers (there are 60 troops).
const MAX: usize = 61;

const fn binomials() -> [[f64; MAX]; MAX] {
    let mut t = [[0.0; MAX]; MAX];
    let mut n = 0;
    while n < MAX {
        t[n][0] = 1.0;
        let mut k = 1;
        while k <= n {
            t[n][k] = t[n - 1][k - 1] + if k < n { t[n - 1][k] } else { 0.0 };
            k += 1;
        }
        n += 1;
    }
    t
}

/// C(n, k) as a float; above 2^53 the last bits are rounded, far below what a
/// probability shows.
static BINOM: [[f64; MAX]; MAX] = binomials();

/// C(n, k); 0 outside the table or when k > n.
pub fn choose(n: usize, k: usize) -> f64 {
    if k > n || n >= MAX { 0.0 } else { BINOM[n][k] }
}

/// What a completion must reach: the card condition of `kind` and, when `above` is
/// set, a sum strictly greater than it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Goal {
    pub kind: FormationKind,
    pub above: Option<u8>,
}

impl Goal {
    /// Any formation of this kind.
    pub fn kind(kind: FormationKind) -> Goal {
        Goal { kind, above: None }
    }
}

/// Where one seat's cards for a side come from: a sure hand and a random handful of
/// the unseen pool.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Supply {
    /// Troops the seat holds for sure.
    pub hand: TroopSet,
    /// Troops the seat cannot see (cards also in `hand` are ignored here).
    pub pool: TroopSet,
    /// How many of the pool's troops the seat will receive (capped at the pool's size).
    pub draws: usize,
}

/// A polynomial in x: coefficient i = number of handfuls with i pool cards of a class.
/// Kept inline (a pool has at most 60 cards) so the counting allocates nothing.
#[derive(Clone, Copy)]
struct Poly {
    c: [f64; MAX],
    len: usize,
}

impl std::ops::Deref for Poly {
    type Target = [f64];
    fn deref(&self) -> &[f64] {
        &self.c[..self.len]
    }
}

impl FromIterator<f64> for Poly {
    fn from_iter<I: IntoIterator<Item = f64>>(iter: I) -> Poly {
        let mut p = Poly::constant(0.0);
        p.len = 0;
        for (slot, x) in p.c.iter_mut().zip(iter) {
            *slot = x;
            p.len += 1;
        }
        p
    }
}

impl Poly {
    fn constant(x: f64) -> Poly {
        let mut c = [0.0; MAX];
        c[0] = x;
        Poly { c, len: 1 }
    }

    /// `self` times `factor * x^shift`.
    fn shifted(&self, shift: usize, factor: f64) -> Poly {
        let mut out = Poly::constant(0.0);
        out.len = (self.len + shift).min(MAX);
        for i in 0..self.len.min(MAX - shift.min(MAX)) {
            out.c[i + shift] = self.c[i] * factor;
        }
        out
    }
}

fn poly_mul(a: &[f64], b: &[f64]) -> Poly {
    let mut out = Poly::constant(0.0);
    out.len = (a.len() + b.len() - 1).min(MAX);
    for (i, x) in a.iter().enumerate() {
        if *x == 0.0 {
            continue;
        }
        for (j, y) in b.iter().enumerate().take(MAX - i) {
            out.c[i + j] += x * y;
        }
    }
    out
}

fn poly_add(a: &mut Poly, b: &[f64]) {
    a.len = a.len.max(b.len());
    for (x, y) in a.c.iter_mut().zip(b) {
        *x += y;
    }
}

/// (1 + x)^g: every subset of g cards.
fn all_subsets(g: usize) -> Poly {
    (0..=g).map(|i| choose(g, i)).collect()
}

/// (1 + x)^g - 1: the non-empty subsets of g cards.
fn nonempty_subsets(g: usize) -> Poly {
    let mut p = all_subsets(g);
    p.c[0] = 0.0;
    p
}

/// The troop of a colour and value (values are always 1..=10 here).
fn troop(color: Color, value: u8) -> Troop {
    Troop { color, value }
}

fn value_mask(troops: &[Troop]) -> Option<u16> {
    let mut mask = 0u16;
    for t in troops {
        if mask & (1 << t.value) != 0 {
            return None;
        }
        mask |= 1 << t.value;
    }
    Some(mask)
}

fn accepts(w: Tactic, v: u8) -> bool {
    w.wild_values().is_some_and(|r| r.contains(&v))
}

/// Whether the wilds can take distinct values among `free` (a value mask) so that
/// every value in `missing` is taken.
fn wilds_cover(wilds: &[Tactic], free: u16, missing: u16) -> bool {
    match wilds.split_first() {
        None => missing == 0,
        Some((w, rest)) => {
            // A wild with more wilds left than missing values may also stand for a
            // value that a card could fill; trying every free value covers that.
            (1..=10u8).any(|v| {
                free & (1 << v) != 0
                    && accepts(*w, v)
                    && wilds_cover(rest, free & !(1 << v), missing & !(1 << v))
            })
        }
    }
}

/// One value class of a run search: how many pool cards show the value, and whether
/// the value is present anyway (a card on the side or in hand).
#[derive(Debug, Clone, Copy, Default)]
struct ValueClass {
    pool: usize,
    present: bool,
}

/// Counts, by the number of pool cards drawn from `classes` (index = value 1..=10),
/// the handfuls with which some valid run of `n` values is formed: every value of
/// the run is on the side (`fixed`), present, or taken by a wild.
fn run_successes(
    classes: &[ValueClass; 11],
    n: usize,
    fixed: u16,
    wilds: &[Tactic],
    valid_start: &dyn Fn(u8) -> bool,
) -> Poly {
    // State: presence bits of the last n-1 values (bit 0 = the latest value).
    let keep = (1u16 << (n - 1)) - 1;
    let mut states: Vec<(u16, Poly)> = vec![(0, Poly::constant(1.0))];
    let mut success = Poly::constant(0.0);
    for v in 1..=10u8 {
        let c = classes[usize::from(v)];
        success = poly_mul(&success, &all_subsets(c.pool));
        let options: Vec<(u16, Poly)> = if c.present {
            vec![(1, all_subsets(c.pool))]
        } else {
            vec![(0, Poly::constant(1.0)), (1, nonempty_subsets(c.pool))]
        };
        let mut next: Vec<(u16, Poly)> = Vec::new();
        for (bits, poly) in &states {
            for (bit, factor) in &options {
                let shown = (bits << 1) | bit;
                let p = poly_mul(poly, factor);
                let start = i32::from(v) - n as i32 + 1;
                if start >= 1 && valid_start(start as u8) {
                    // Window values start..=v; bit i of `shown` is value v - i.
                    let mut present = 0u16;
                    let mut values = 0u16;
                    for i in 0..n {
                        let value = v - i as u8;
                        values |= 1 << value;
                        if shown & (1 << i) != 0 {
                            present |= 1 << value;
                        }
                    }
                    let free = values & !fixed;
                    let missing = free & !present;
                    if wilds_cover(wilds, free, missing) {
                        poly_add(&mut success, &p);
                        continue;
                    }
                }
                let key = shown & keep;
                match next.iter_mut().find(|(b, _)| *b == key) {
                    Some((_, q)) => poly_add(q, &p),
                    None => next.push((key, p)),
                }
            }
        }
        states = next;
    }
    success
}

/// Counts, by the number of pool cards drawn, the handfuls whose best `k` cards exist
/// and, with `need_above`, sum to more than it. `classes` lists the values from the
/// highest down: (value, pool cards of that value, sure cards of that value).
fn top_sum_successes(classes: &[(u8, usize, usize)], k: usize, need_above: Option<i32>) -> Poly {
    let pool_total: usize = classes.iter().map(|c| c.1).sum();
    if k == 0 {
        return if need_above.is_none_or(|a| a < 0) {
            all_subsets(pool_total)
        } else {
            Poly::constant(0.0)
        };
    }
    // State: (cards taken so far, fewer than k; their sum) -> polynomial.
    let mut states: Vec<(usize, i32, Poly)> = vec![(0, 0, Poly::constant(1.0))];
    let mut success = Poly::constant(0.0);
    let mut pool_seen = 0;
    for &(value, g, h) in classes {
        pool_seen += g;
        let rest = all_subsets(pool_total - pool_seen);
        let mut next: Vec<(usize, i32, Poly)> = Vec::new();
        for (taken, sum, poly) in &states {
            for x in 0..=g {
                let p = poly.shifted(x, choose(g, x));
                let now = taken + h + x;
                if now >= k {
                    // The best k cards are known: the rest of the pool no longer matters.
                    let total = sum + i32::from(value) * (k - taken) as i32;
                    if need_above.is_none_or(|a| total > a) {
                        poly_add(&mut success, &poly_mul(&p, &rest));
                    }
                    continue;
                }
                let total = sum + i32::from(value) * (h + x) as i32;
                match next.iter_mut().find(|(t, s, _)| *t == now && *s == total) {
                    Some((_, _, q)) => poly_add(q, &p),
                    None => next.push((now, total, p)),
                }
            }
        }
        states = next;
    }
    success
}

/// P(every card of some set is drawn), by inclusion and exclusion over the sets.
/// `p_all(m)` is the chance that m given cards are all drawn.
fn any_set_drawn(sets: &[TroopSet], p_all: &dyn Fn(usize) -> f64) -> f64 {
    let sets = minimal(sets);
    if sets.iter().any(|s| s.is_empty()) {
        return 1.0;
    }
    let mut total = 0.0;
    for mask in 1u32..(1 << sets.len()) {
        let mut union = TroopSet::EMPTY;
        for (i, s) in sets.iter().enumerate() {
            if mask & (1 << i) != 0 {
                union = union.union(*s);
            }
        }
        let sign = if mask.count_ones() % 2 == 1 {
            1.0
        } else {
            -1.0
        };
        total += sign * p_all(union.len());
    }
    total
}

/// The sets that contain no other set of the list (their union of events is the same).
fn minimal<T: Copy + PartialEq + SubsetOf>(sets: &[T]) -> Vec<T> {
    let mut out: Vec<T> = Vec::new();
    for (i, s) in sets.iter().enumerate() {
        let redundant = sets
            .iter()
            .enumerate()
            .any(|(j, o)| j != i && o.subset_of(*s) && (o != s || j < i));
        if !redundant {
            out.push(*s);
        }
    }
    out
}

/// Set inclusion, for [`minimal`].
trait SubsetOf {
    fn subset_of(self, other: Self) -> bool;
}

impl SubsetOf for TroopSet {
    fn subset_of(self, other: TroopSet) -> bool {
        self.difference(other).is_empty()
    }
}

impl SubsetOf for u16 {
    fn subset_of(self, other: u16) -> bool {
        self & !other == 0
    }
}

/// The values a run must still get from cards, for every run of `n` values that holds
/// the side's values (`fixed`) and passes `valid`, and every way the wilds can take
/// values in it. Each entry is a value mask.
fn run_needs(n: usize, fixed: u16, wilds: &[Tactic], valid: &dyn Fn(u8) -> bool) -> Vec<u16> {
    let mut out = Vec::new();
    for start in 1..=(11 - n as u8) {
        if !valid(start) {
            continue;
        }
        let run: u16 = (0..n as u8).map(|i| 1u16 << (start + i)).sum();
        assign_wilds(wilds, run & !fixed, &mut out);
    }
    out
}

/// Every way to give each wild a distinct value of `free` it accepts; pushes the
/// values left for cards.
fn assign_wilds(wilds: &[Tactic], free: u16, out: &mut Vec<u16>) {
    match wilds.split_first() {
        None => out.push(free),
        Some((w, rest)) => {
            for v in 1..=10u8 {
                if free & (1 << v) != 0 && accepts(*w, v) {
                    assign_wilds(rest, free & !(1 << v), out);
                }
            }
        }
    }
}

impl Supply {
    /// The probability that `side` can be completed, from the hand and the drawn
    /// cards, into a formation meeting `goal` under `rules`. A complete side is judged
    /// as it is (1 or 0). Morale tactics on the side are wild; other tactics are ignored.
    pub fn odds(&self, side: &[Card], rules: Judging, goal: Goal) -> f64 {
        let hand = self.hand;
        let pool = self.pool.difference(hand);
        let (troops, wilds) = crate::formation::troops_and_wilds(side);
        let n = rules.cards;
        let beats = |sum: u8| goal.above.is_none_or(|a| sum > a);
        if troops.len() + wilds.len() >= n {
            return f64::from(u8::from(
                best_of_kind(side, rules, goal.kind, TroopSet::EMPTY)
                    .is_some_and(|c| beats(c.strength.sum)),
            ));
        }
        if rules.fog && goal.kind != FormationKind::Host {
            return 0.0;
        }
        let k = n - troops.len() - wilds.len();
        let u = pool.len();
        let d = self.draws.min(u);
        let total = choose(u, d);
        // P(success) from a success polynomial over a class of `g` pool cards.
        let from_successes = |s: &[f64], g: usize| -> f64 {
            s.iter()
                .enumerate()
                .map(|(j, c)| c * choose(u - g, d.saturating_sub(j)) * f64::from(u8::from(j <= d)))
                .sum::<f64>()
                / total
        };
        // P(success) when classes (disjoint card sets) succeed independently of each
        // other's cards: 1 - P(every class fails).
        let from_classes = |classes: &[(Poly, usize)]| -> f64 {
            let mut fail = Poly::constant(1.0);
            let mut used = 0;
            for (s, g) in classes {
                let mut f = all_subsets(*g);
                for (x, y) in f.c.iter_mut().zip(s.iter()) {
                    *x -= y;
                }
                fail = poly_mul(&fail, &f);
                used += g;
            }
            fail = poly_mul(&fail, &all_subsets(u - used));
            1.0 - fail.get(d).copied().unwrap_or(0.0) / total
        };
        let base = troops.iter().map(|t| t.value).sum::<u8>()
            + wilds
                .iter()
                .map(|w| w.wild_values().map_or(0, |r| *r.end()))
                .sum::<u8>();
        let colors: Vec<Color> = match troops.first() {
            Some(first) if troops.iter().all(|t| t.color == first.color) => vec![first.color],
            Some(_) => Vec::new(),
            None => Color::ALL.to_vec(),
        };
        match goal.kind {
            FormationKind::Wedge | FormationKind::SkirmishLine => {
                let Some(fixed) = value_mask(&troops) else {
                    return 0.0;
                };
                let valid = |start: u8| {
                    let run: u16 = (0..n as u8).map(|i| 1u16 << (start + i)).sum();
                    fixed & !run == 0
                        && start as usize + n <= 11
                        && beats((0..n as u8).map(|i| start + i).sum())
                };
                if let Some(first) = troops.first() {
                    // A troop fixes the runs: few enough to add and subtract their chances.
                    let needs = run_needs(n, fixed, &wilds, &valid);
                    let p_all = |m: usize| {
                        if m > d {
                            0.0
                        } else {
                            choose(u - m, d - m) / total
                        }
                    };
                    if goal.kind == FormationKind::Wedge {
                        if colors.is_empty() {
                            return 0.0;
                        }
                        let sets: Vec<TroopSet> = needs
                            .iter()
                            .filter_map(|&values| {
                                let mut set = TroopSet::EMPTY;
                                for v in 1..=10u8 {
                                    let t = troop(first.color, v);
                                    if values & (1 << v) == 0 || hand.contains(t) {
                                        continue;
                                    }
                                    if !pool.contains(t) {
                                        return None;
                                    }
                                    set.insert(t);
                                }
                                Some(set)
                            })
                            .collect();
                        return any_set_drawn(&sets, &p_all);
                    }
                    let in_hand = hand.values();
                    let mut in_pool = [0usize; 11];
                    for (v, n) in in_pool.iter_mut().enumerate() {
                        *n = pool.count_value(v as u8);
                    }
                    let wanted: Vec<u16> = needs
                        .iter()
                        .map(|v| v & !in_hand)
                        .filter(|v| (1..=10).all(|x| v & (1 << x) == 0 || in_pool[x] > 0))
                        .collect();
                    let wanted = minimal(&wanted);
                    if wanted.contains(&0) {
                        return 1.0;
                    }
                    // P(a card of every value in `values` is drawn).
                    let all_present = |values: u16| -> f64 {
                        let vs: Vec<usize> = (1..=10).filter(|x| values & (1 << x) != 0).collect();
                        (0u32..(1 << vs.len()))
                            .map(|m| {
                                let missing: usize = (0..vs.len())
                                    .filter(|i| m & (1 << i) != 0)
                                    .map(|i| in_pool[vs[i]])
                                    .sum();
                                let sign = if m.count_ones() % 2 == 0 { 1.0 } else { -1.0 };
                                sign * choose(u - missing, d)
                            })
                            .sum::<f64>()
                            / total
                    };
                    return (1u32..(1 << wanted.len()))
                        .map(|m| {
                            let union = (0..wanted.len())
                                .filter(|i| m & (1 << i) != 0)
                                .fold(0u16, |acc, i| acc | wanted[i]);
                            let sign = if m.count_ones() % 2 == 1 { 1.0 } else { -1.0 };
                            sign * all_present(union)
                        })
                        .sum();
                }
                if goal.kind == FormationKind::SkirmishLine {
                    let mut classes = [ValueClass::default(); 11];
                    let mut g = 0;
                    for t in pool.iter_high_first() {
                        classes[usize::from(t.value)].pool += 1;
                        g += 1;
                    }
                    for t in hand.iter_high_first() {
                        classes[usize::from(t.value)].present = true;
                    }
                    return from_successes(&run_successes(&classes, n, fixed, &wilds, &valid), g);
                }
                let per_color: Vec<(Poly, usize)> = colors
                    .iter()
                    .map(|&color| {
                        let mut classes = [ValueClass::default(); 11];
                        let mut g = 0;
                        for v in 1..=10u8 {
                            let c = &mut classes[usize::from(v)];
                            if pool.contains(troop(color, v)) {
                                c.pool = 1;
                                g += 1;
                            }
                            c.present = hand.contains(troop(color, v));
                        }
                        (run_successes(&classes, n, fixed, &wilds, &valid), g)
                    })
                    .collect();
                match per_color.as_slice() {
                    [] => 0.0,
                    [(s, g)] => from_successes(s, *g),
                    many => from_classes(many),
                }
            }
            FormationKind::Phalanx if !troops.is_empty() => {
                let v = troops[0].value;
                if troops.iter().any(|t| t.value != v)
                    || wilds.iter().any(|w| !accepts(*w, v))
                    || !beats(v * n as u8)
                {
                    return 0.0;
                }
                let g = pool.count_value(v);
                let h = hand.count_value(v);
                self.at_least(k.saturating_sub(h), g)
            }
            FormationKind::Battalion if goal.above.is_none() && !troops.is_empty() => {
                let Some(&color) = colors.first() else {
                    return 0.0;
                };
                let g = pool.count_color(color);
                let h = hand.count_color(color);
                self.at_least(k.saturating_sub(h), g)
            }
            FormationKind::Phalanx => {
                let values: Vec<u8> = match troops.first() {
                    Some(first) if troops.iter().all(|t| t.value == first.value) => {
                        vec![first.value]
                    }
                    Some(_) => Vec::new(),
                    None => (1..=10).collect(),
                };
                let per_value: Vec<(Poly, usize)> = values
                    .into_iter()
                    .filter(|&v| wilds.iter().all(|w| accepts(*w, v)) && beats(v * n as u8))
                    .map(|v| {
                        let g = pool.count_value(v);
                        let h = hand.count_value(v);
                        let t = k.saturating_sub(h);
                        let s: Poly = (0..=g)
                            .map(|x| if x >= t { choose(g, x) } else { 0.0 })
                            .collect();
                        (s, g)
                    })
                    .collect();
                match per_value.as_slice() {
                    [] => 0.0,
                    [(s, g)] => from_successes(s, *g),
                    many => from_classes(many),
                }
            }
            FormationKind::Battalion => {
                let need = goal.above.map(|a| i32::from(a) - i32::from(base));
                let per_color: Vec<(Poly, usize)> = colors
                    .iter()
                    .map(|&color| {
                        let classes: Vec<(u8, usize, usize)> = (1..=10u8)
                            .rev()
                            .map(|v| {
                                let t = troop(color, v);
                                (
                                    v,
                                    usize::from(pool.contains(t)),
                                    usize::from(hand.contains(t)),
                                )
                            })
                            .filter(|c| c.1 + c.2 > 0)
                            .collect();
                        let g = classes.iter().map(|c| c.1).sum();
                        (top_sum_successes(&classes, k, need), g)
                    })
                    .collect();
                match per_color.as_slice() {
                    [] => 0.0,
                    [(s, g)] => from_successes(s, *g),
                    many => from_classes(many),
                }
            }
            FormationKind::Host => {
                let Some(above) = goal.above else {
                    return f64::from(u8::from(hand.len() + d >= k));
                };
                let mut classes = [(0u8, 0usize, 0usize); 10];
                for (i, c) in classes.iter_mut().enumerate() {
                    c.0 = 10 - i as u8;
                }
                for c in classes.iter_mut() {
                    c.1 = pool.count_value(c.0);
                    c.2 = hand.count_value(c.0);
                }
                let need = i32::from(above) - i32::from(base);
                from_successes(&top_sum_successes(&classes, k, Some(need)), u)
            }
        }
    }

    /// P(at least `t` of `g` particular pool cards are among the draws).
    pub fn at_least(&self, t: usize, g: usize) -> f64 {
        let u = self.pool.difference(self.hand).len();
        let d = self.draws.min(u);
        let total = choose(u, d);
        (t..=g.min(d))
            .map(|x| choose(g, x) * choose(u - g, d - x))
            .sum::<f64>()
            / total
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::Color::*;
    use FormationKind::*;
    use seeded_rng::Rng;

    fn t(color: Color, value: u8) -> Troop {
        Troop { color, value }
    }

    /// Every handful of `d` cards of `pool`, as sets.
    fn handfuls(pool: &[Troop], d: usize) -> Vec<TroopSet> {
        let mut out = Vec::new();
        let n = pool.len();
        for mask in 0u32..(1 << n) {
            if mask.count_ones() as usize == d {
                out.push(
                    (0..n)
                        .filter(|i| mask & (1 << i) != 0)
                        .map(|i| pool[i])
                        .collect(),
                );
            }
        }
        out
    }

    /// The reference: count the handfuls with which the formation exists.
    fn brute(
        side: &[Card],
        rules: Judging,
        goal: Goal,
        hand: TroopSet,
        pool: &[Troop],
        d: usize,
    ) -> f64 {
        let all = handfuls(pool, d.min(pool.len()));
        let good = all
            .iter()
            .filter(|drawn| {
                let mut avail = hand;
                for x in drawn.iter_high_first() {
                    avail.insert(x);
                }
                best_of_kind(side, rules, goal.kind, avail)
                    .is_some_and(|c| goal.above.is_none_or(|a| c.strength.sum > a))
            })
            .count();
        good as f64 / all.len() as f64
    }

    /// Compares with brute force; returns whether the odds were strictly between 0 and 1.
    fn check(
        side: &[Card],
        rules: Judging,
        goal: Goal,
        hand: &[Troop],
        pool: &[Troop],
        d: usize,
    ) -> bool {
        let supply = Supply {
            hand: hand.iter().copied().collect(),
            pool: pool.iter().copied().collect(),
            draws: d,
        };
        let exact = supply.odds(side, rules, goal);
        let reference = brute(side, rules, goal, supply.hand, pool, d);
        assert!(
            (exact - reference).abs() < 1e-9,
            "{side:?} {rules:?} {goal:?} hand {hand:?} pool {pool:?} d {d}: {exact} vs brute force {reference}"
        );
        exact > 1e-9 && exact < 1.0 - 1e-9
    }

    const MUD: Judging = Judging {
        cards: 4,
        fog: false,
    };
    const FOG: Judging = Judging {
        cards: 3,
        fog: true,
    };

    #[test]
    fn binomials_match_pascal() {
        assert_eq!(choose(5, 2), 10.0);
        assert_eq!(choose(60, 1), 60.0);
        assert_eq!(choose(3, 4), 0.0);
        assert_eq!(choose(0, 0), 1.0);
        assert!((choose(52, 5) - 2_598_960.0).abs() < 1e-6);
    }

    #[test]
    fn one_missing_card_matches_the_hypergeometric_formula() {
        // Red 5 and 6 need Red 4 or Red 7: 2 good cards in a pool of 10, 3 draws.
        let pool: Vec<Troop> = [t(Red, 4), t(Red, 7)]
            .into_iter()
            .chain((1..=8).map(|v| t(Blue, v)))
            .collect();
        let supply = Supply {
            hand: TroopSet::EMPTY,
            pool: pool.iter().copied().collect(),
            draws: 3,
        };
        let side = [Card::Troop(t(Red, 5)), Card::Troop(t(Red, 6))];
        let p = supply.odds(&side, Judging::NORMAL, Goal::kind(Wedge));
        let expected = 1.0 - choose(8, 3) / choose(10, 3);
        assert!((p - expected).abs() < 1e-12, "{p} vs {expected}");
        // Either card from the hand makes it sure.
        let sure = Supply {
            hand: [t(Red, 7)].into_iter().collect(),
            ..supply
        };
        assert_eq!(sure.odds(&side, Judging::NORMAL, Goal::kind(Wedge)), 1.0);
        // Only the 7 gives a sum above 15.
        let high = supply.odds(
            &side,
            Judging::NORMAL,
            Goal {
                kind: Wedge,
                above: Some(15),
            },
        );
        assert!((high - 3.0 / 10.0).abs() < 1e-12);
    }

    #[test]
    fn hand_picked_cases_match_brute_force() {
        let r = |v| Card::Troop(t(Red, v));
        let b = |v| Card::Troop(t(Blue, v));
        let alex = Card::Tactic(Tactic::Alexander);
        let cav = Card::Tactic(Tactic::CompanionCavalry);
        let shield = Card::Tactic(Tactic::ShieldBearers);
        let pool = [
            t(Red, 3),
            t(Red, 4),
            t(Red, 7),
            t(Blue, 5),
            t(Blue, 6),
            t(Green, 5),
            t(Green, 8),
            t(Yellow, 4),
            t(Yellow, 6),
            t(Purple, 9),
            t(Red, 9),
        ];
        let hand = [t(Orange, 6), t(Red, 8)];
        let sides: Vec<Vec<Card>> = vec![
            vec![],
            vec![r(5)],
            vec![r(5), r(6)],
            vec![r(5), b(5)],
            vec![alex],
            vec![r(6), alex],
            vec![cav, shield],
            vec![b(5), shield],
            vec![r(2), r(9)],
        ];
        let mut uncertain = [0; 5];
        for side in &sides {
            for rules in [Judging::NORMAL, MUD, FOG] {
                for (i, kind) in [Wedge, Phalanx, Battalion, SkirmishLine, Host]
                    .into_iter()
                    .enumerate()
                {
                    for above in [None, Some(12), Some(18), Some(24)] {
                        for d in [0, 2, 4] {
                            if check(side, rules, Goal { kind, above }, &hand, &pool, d) {
                                uncertain[i] += 1;
                            }
                        }
                    }
                }
            }
        }
        // Each kind was tested on cases that are neither sure nor impossible.
        assert!(uncertain.iter().all(|&n| n >= 10), "{uncertain:?}");
    }

    #[test]
    fn random_small_pools_match_brute_force() {
        let mut rng = Rng::new(2024);
        let all: Vec<Troop> = Troop::all().collect();
        let wild = [
            Tactic::Alexander,
            Tactic::CompanionCavalry,
            Tactic::ShieldBearers,
        ];
        let mut uncertain = 0;
        for _ in 0..1000 {
            // Cards concentrated on few colours and values so formations are likely.
            let mut deck: Vec<Troop> = all
                .iter()
                .copied()
                .filter(|x| x.color <= Yellow && x.value >= 3 && x.value <= 9)
                .collect();
            rng.shuffle(&mut deck);
            let rules = match rng.index(4) {
                0 => MUD,
                1 => FOG,
                _ => Judging::NORMAL,
            };
            let on_side = rng.index(rules.cards);
            let mut side: Vec<Card> = deck.drain(..on_side).map(Card::Troop).collect();
            if rng.chance(0.25) && side.len() < rules.cards - 1 {
                side.push(Card::Tactic(wild[rng.index(3)]));
            }
            let hand: Vec<Troop> = deck.drain(..rng.index(3)).collect();
            let pool: Vec<Troop> = deck.drain(..6 + rng.index(6)).collect();
            let d = rng.index(5);
            let kind = [Wedge, Phalanx, Battalion, SkirmishLine, Host][rng.index(5)];
            let above = rng.chance(0.5).then(|| 6 + rng.index(20) as u8);
            if check(&side, rules, Goal { kind, above }, &hand, &pool, d) {
                uncertain += 1;
            }
        }
        assert!(uncertain >= 100, "only {uncertain} uncertain cases");
    }

    #[test]
    fn at_least_is_the_hypergeometric_tail() {
        let supply = Supply {
            hand: TroopSet::EMPTY,
            pool: Troop::all().take(20).collect(),
            draws: 5,
        };
        let p = supply.at_least(2, 4);
        let expected: f64 = (2..=4)
            .map(|x| choose(4, x) * choose(16, 5 - x))
            .sum::<f64>()
            / choose(20, 5);
        assert!((p - expected).abs() < 1e-12);
        assert!((supply.at_least(0, 4) - 1.0).abs() < 1e-12);
    }
}
