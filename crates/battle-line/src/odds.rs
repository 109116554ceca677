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

/// Polynomials in x, coefficient i = number of handfuls with i pool cards of a class.
type Poly = Vec<f64>;

fn poly_mul(a: &[f64], b: &[f64]) -> Poly {
    let mut out = vec![0.0; a.len() + b.len() - 1];
    for (i, x) in a.iter().enumerate() {
        if *x == 0.0 {
            continue;
        }
        for (j, y) in b.iter().enumerate() {
            out[i + j] += x * y;
        }
    }
    out
}

fn poly_add(a: &mut Poly, b: &[f64]) {
    if a.len() < b.len() {
        a.resize(b.len(), 0.0);
    }
    for (x, y) in a.iter_mut().zip(b) {
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
    p[0] = 0.0;
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
    let mut states: Vec<(u16, Poly)> = vec![(0, vec![1.0])];
    let mut success: Poly = vec![0.0];
    for v in 1..=10u8 {
        let c = classes[usize::from(v)];
        success = poly_mul(&success, &all_subsets(c.pool));
        let options: Vec<(u16, Poly)> = if c.present {
            vec![(1, all_subsets(c.pool))]
        } else {
            vec![(0, vec![1.0]), (1, nonempty_subsets(c.pool))]
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

/// Counts, by the number of pool cards drawn from one class (cards listed from the
/// highest value down, `true` = in the pool, `false` = sure), the handfuls whose
/// best `k` cards exist and, with `need_above`, sum to more than it.
fn top_sum_successes(cards: &[(u8, bool)], k: usize, need_above: Option<i32>) -> Poly {
    let pool_total = cards.iter().filter(|(_, pool)| *pool).count();
    if k == 0 {
        let ok = need_above.is_none_or(|a| a < 0);
        return if ok {
            all_subsets(pool_total)
        } else {
            vec![0.0]
        };
    }
    // State: (cards taken so far < k, their sum) -> polynomial.
    let mut states: Vec<(usize, i32, Poly)> = vec![(0, 0, vec![1.0])];
    let mut success: Poly = vec![0.0];
    let mut pool_seen = 0;
    for &(value, in_pool) in cards {
        if in_pool {
            pool_seen += 1;
        }
        let rest = pool_total - pool_seen;
        let mut next: Vec<(usize, i32, Poly)> = Vec::new();
        let mut push = |taken: usize, sum: i32, p: Poly, next: &mut Vec<(usize, i32, Poly)>| {
            if taken == k {
                if need_above.is_none_or(|a| sum > a) {
                    poly_add(&mut success, &poly_mul(&p, &all_subsets(rest)));
                }
                return;
            }
            match next.iter_mut().find(|(t, s, _)| *t == taken && *s == sum) {
                Some((_, _, q)) => poly_add(q, &p),
                None => next.push((taken, sum, p)),
            }
        };
        for (taken, sum, poly) in &states {
            let with = (taken + 1, sum + i32::from(value));
            if in_pool {
                push(*taken, *sum, poly.clone(), &mut next);
                let mut shifted = vec![0.0];
                shifted.extend_from_slice(poly);
                push(with.0, with.1, shifted, &mut next);
            } else {
                push(with.0, with.1, poly.clone(), &mut next);
            }
        }
        states = next;
    }
    success
}

impl Supply {
    /// The probability that `side` can be completed, from the hand and the drawn
    /// cards, into a formation meeting `goal` under `rules`. A complete side is judged
    /// as it is (1 or 0). Morale tactics on the side are wild; other tactics are ignored.
    pub fn odds(&self, side: &[Card], rules: Judging, goal: Goal) -> f64 {
        let hand = self.hand;
        let mut pool = self.pool;
        for t in hand.iter_high_first() {
            pool.remove(t);
        }
        let mut troops = Vec::with_capacity(4);
        let mut wilds = Vec::with_capacity(3);
        for c in side {
            match *c {
                Card::Troop(t) => troops.push(t),
                Card::Tactic(t) if t.wild_values().is_some() => wilds.push(t),
                Card::Tactic(_) => {}
            }
        }
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
            let mut fail: Poly = vec![1.0];
            let mut used = 0;
            for (s, g) in classes {
                let mut f = all_subsets(*g);
                for (x, y) in f.iter_mut().zip(s) {
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
                    for v in 1..=10u8 {
                        if fixed & (1 << v) != 0 {
                            classes[usize::from(v)].present = true;
                        }
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
                            c.present = hand.contains(troop(color, v)) || fixed & (1 << v) != 0;
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
                        let g = pool.iter_high_first().filter(|t| t.value == v).count();
                        let h = hand.iter_high_first().filter(|t| t.value == v).count();
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
                        let cards: Vec<(u8, bool)> = (1..=10u8)
                            .rev()
                            .filter_map(|v| {
                                let t = troop(color, v);
                                if hand.contains(t) {
                                    Some((v, false))
                                } else {
                                    pool.contains(t).then_some((v, true))
                                }
                            })
                            .collect();
                        let g = cards.iter().filter(|(_, p)| *p).count();
                        (top_sum_successes(&cards, k, need), g)
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
                let need = i32::from(above) - i32::from(base);
                // Only the highest cards can make a sum; a hand card beats any pool
                // card of a lower value, so the order covers both.
                let mut cards: Vec<(u8, bool)> = Vec::with_capacity(60);
                for v in (1..=10u8).rev() {
                    for color in Color::ALL {
                        let t = troop(color, v);
                        if hand.contains(t) {
                            cards.push((v, false));
                        } else if pool.contains(t) {
                            cards.push((v, true));
                        }
                    }
                }
                from_successes(&top_sum_successes(&cards, k, Some(need)), u)
            }
        }
    }

    /// P(at least `t` of `g` particular pool cards are among the draws).
    pub fn at_least(&self, t: usize, g: usize) -> f64 {
        let u = self.pool.len();
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
