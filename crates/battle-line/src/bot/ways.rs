//! Every way a side of troops can still be completed, kind by kind, on bit masks: how
//! many handfuls of the available troops complete it into each formation kind, each
//! handful weighed by the chance that all its cards arrive (a card the player holds
//! surely, any other with a chance `p`), and the weighed total of their sums.
//!
//! With `p` = 1 and nothing sure, the weights are plain counts of the handfuls. The
//! playout policy turns them into a side's worth (`Playout::ways`): the chance of each
//! kind, best first, rather than only the best kind with a discount.

use crate::card::{Color, Troop, TroopSet};
use crate::formation::FormationKind;
use std::cell::Cell;

use super::reach::Shape;

/// The handfuls that complete a side, by the kind they make (indexed by
/// `FormationKind as usize`: host 0 up to wedge 4).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub(crate) struct Ways {
    /// The weighed number of handfuls of each kind.
    pub weight: [f64; 5],
    /// The weighed total of their formations' sums.
    pub sum: [f64; 5],
}

/// The sum over every `k`-handful of `s` sure cards (weight 1) and `u` others (weight
/// `p`, `pw[m]` = p^m) of the handful's weight: the elementary symmetric polynomial of
/// the weights.
#[inline(always)]
fn handfuls(k: usize, s: usize, u: usize, pw: &[f64; 6]) -> f64 {
    if s == 0 {
        // The one term j = 0 (1 * choose(u, k), exact, times p^k; added to -0.0, a
        // positive number or +0.0 as it is).
        return if k > u { 0.0 } else { choose(u, k) * pw[k] };
    }
    handfuls_with_sure(k, s, u, pw)
}

/// [`handfuls`] with `s` > 0.
#[inline(never)]
fn handfuls_with_sure(k: usize, s: usize, u: usize, pw: &[f64; 6]) -> f64 {
    if k > s + u {
        return 0.0;
    }
    // The terms j = 0..=min(k, s) with k - j <= u, added in that order from -0.0 (as
    // an iterator's sum adds them).
    let mut total = -0.0;
    for j in k.saturating_sub(u)..=k.min(s) {
        total += choose(s, j) * choose(u, k - j) * pw[k - j];
    }
    total
}

/// The largest `n` of [`CHOOSE`]: every troop.
const CHOOSE_N: usize = 60;

/// [`choose`]`(n, k)` for `n` up to [`CHOOSE_N`] and `k` up to 4, worked out once (the
/// same integers, so the same floats).
static CHOOSE: [[f64; 5]; CHOOSE_N + 1] = choose_table();

const fn choose_table() -> [[f64; 5]; CHOOSE_N + 1] {
    let mut table = [[0.0; 5]; CHOOSE_N + 1];
    let mut i = 0;
    while i <= CHOOSE_N {
        let n = i as u64;
        let (n1, n2, n3) = (
            n.saturating_sub(1),
            n.saturating_sub(2),
            n.saturating_sub(3),
        );
        table[i] = [
            1.0,
            n as f64,
            (n * n1 / 2) as f64,
            (n * n1 * n2 / 6) as f64,
            (n * n1 * n2 * n3 / 24) as f64,
        ];
        i += 1;
    }
    table
}

/// The binomial coefficient, exact in f64 for the small `k` of a side.
fn choose(n: usize, k: usize) -> f64 {
    if n <= CHOOSE_N && k < 5 {
        return CHOOSE[n][k];
    }
    choose_beyond_table(n, k)
}

/// [`choose`] beyond its table (never for a side's handfuls): kept out of line, so
/// that the loops over the table's values stay small.
#[cold]
#[inline(never)]
fn choose_beyond_table(n: usize, k: usize) -> f64 {
    let n = n as u64;
    let c = match k {
        0 => 1,
        1 => n,
        2 => n * n.saturating_sub(1) / 2,
        3 => n * n.saturating_sub(1) * n.saturating_sub(2) / 6,
        4 => n * n.saturating_sub(1) * n.saturating_sub(2) * n.saturating_sub(3) / 24,
        _ => {
            return (0..k as u64).fold(1.0, |acc, i| {
                acc * n.saturating_sub(i) as f64 / (i + 1) as f64
            });
        }
    };
    c as f64
}

/// The weighed total of the added cards' values over every `k`-handful of the cards
/// `counts` counts, from the weights of the handfuls holding a given sure card and a
/// given other one ([`Handfuls`]).
fn values_of(k: usize, counts: Counts, with_sure: f64, with_unsure: f64) -> f64 {
    if k == 0 {
        return 0.0;
    }
    counts.sure_values * with_sure + counts.unsure_values * with_unsure
}

/// The total of the values whose bits (bit v-1 = value v) are set.
fn values_total(mut mask: u16) -> f64 {
    let mut total = 0u32;
    while mask != 0 {
        total += mask.trailing_zeros() + 1;
        mask &= mask - 1;
    }
    f64::from(total)
}

/// The total of the `n` values from `start` up (an integer, so exact as a float).
fn run_sum(start: u8, n: usize) -> f64 {
    let (start, n) = (u32::from(start), n as u32);
    f64::from(n * start + n * (n - 1) / 2)
}

/// The troops a side may be completed from, counted once (for a whole move of the
/// playouts): the available cards, those the player holds (`sure`), the chance `p` of
/// each other card, their counts and value totals per colour and per value, and the
/// handfuls of the whole pool. A card being played is taken out on the fly
/// ([`ways_from`]'s `taken`) instead of counting the pool again.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Pool {
    available: TroopSet,
    sure: TroopSet,
    /// Powers of `p` (powi, as the chance of a handful is `p` to its unsure cards).
    pw: [f64; 6],
    /// Per colour: the sure cards, the others, and the totals of their values.
    color: [Counts; 6],
    /// The same over every colour.
    all: Counts,
    /// Per value (index 1..=10): the sure cards of that value, and all of it.
    value: [(u8, u8); 11],
    /// Per value (index 1..=10): the weight of a card of that value, the sure ones
    /// counting 1 and the others `p` (what a skirmish line's missing value weighs).
    by_value: [f64; 11],
    /// The whole pool's handfuls of `k` cards (`k` < `TABLE`), [`Handfuls`]: as it is
    /// (index 0), without one of its sure cards (1), without one of the others (2);
    /// each worked out when first asked for ([`UNKNOWN`] until then).
    handfuls: [[Cell<Handfuls>; TABLE]; 3],
}

/// Handfuls not worked out yet (a weight is never NaN).
const UNKNOWN: Handfuls = (f64::NAN, 0.0, 0.0);

/// [`handfuls_by_card`]`(k, s, u, pw)` kept in `cell`, worked out on the first call;
/// nothing (all zero) when a count is missing (a card taken from none).
fn kept_handfuls(
    cell: &Cell<Handfuls>,
    k: usize,
    s: Option<usize>,
    u: Option<usize>,
    pw: &[f64; 6],
) -> Handfuls {
    let kept = cell.get();
    if !kept.0.is_nan() {
        return kept;
    }
    let h = match (s, u) {
        (Some(s), Some(u)) => handfuls_by_card(k, s, u, pw),
        _ => (0.0, 0.0, 0.0),
    };
    cell.set(h);
    h
}

/// The handful sizes the pool's table holds (a side of up to 4 cards).
const TABLE: usize = 5;

/// Over every `k`-handful of a pool: the total weight, and the weight of the handfuls
/// holding a given sure card, then a given other card (the values' coefficients).
type Handfuls = (f64, f64, f64);

/// Sure and other cards and the totals of their values, see [`Pool`].
#[derive(Debug, Clone, Copy, PartialEq, Default)]
struct Counts {
    sure: usize,
    unsure: usize,
    sure_values: f64,
    unsure_values: f64,
}

impl Counts {
    /// Without a card of `value` (`sure`: one the player holds).
    fn without(mut self, sure: bool, value: u8) -> Counts {
        if sure {
            self.sure -= 1;
            self.sure_values -= f64::from(value);
        } else {
            self.unsure -= 1;
            self.unsure_values -= f64::from(value);
        }
        self
    }
}

/// The weights of [`Handfuls`] for `k` cards of `s` sure and `u` other cards.
#[inline(always)]
fn handfuls_by_card(k: usize, s: usize, u: usize, pw: &[f64; 6]) -> Handfuls {
    let w = handfuls(k, s, u, pw);
    if k == 0 {
        return (w, 0.0, 0.0);
    }
    // Each card is in the handfuls of k - 1 others from the rest of the pool.
    let with_sure = if s > 0 {
        handfuls(k - 1, s - 1, u, pw)
    } else {
        0.0
    };
    let with_unsure = if u > 0 {
        pw[1] * handfuls(k - 1, s, u - 1, pw)
    } else {
        0.0
    };
    (w, with_sure, with_unsure)
}

impl Pool {
    /// The pool of `available` troops, `sure` of them held, each other one arriving
    /// with chance `p`.
    pub(crate) fn new(available: TroopSet, sure: TroopSet, p: f64) -> Pool {
        let sure = sure.intersection(available);
        let mut color = [Counts::default(); 6];
        let mut all = Counts::default();
        for c in Color::ALL {
            let row = available.color_row(c);
            let sure_row = sure.color_row(c);
            let counts = Counts {
                sure: sure_row.count_ones() as usize,
                unsure: (row & !sure_row).count_ones() as usize,
                sure_values: values_total(sure_row),
                unsure_values: values_total(row & !sure_row),
            };
            all.sure += counts.sure;
            all.unsure += counts.unsure;
            all.sure_values += counts.sure_values;
            all.unsure_values += counts.unsure_values;
            color[c as usize] = counts;
        }
        let mut value = [(0u8, 0u8); 11];
        for (v, counts) in value.iter_mut().enumerate().skip(1) {
            *counts = (
                sure.count_value(v as u8) as u8,
                available.count_value(v as u8) as u8,
            );
        }
        Pool::of_counts((available, sure, p), color, all, value)
    }

    /// The pool of this one's cards that are not sure, none of them sure, each
    /// arriving with chance `p`: `Pool::new(available less sure, nothing, p)`, with
    /// the counts taken from this pool's (the same integers, so the same numbers).
    pub(crate) fn others(&self, p: f64) -> Pool {
        let color = self.color.map(|c| Counts {
            sure: 0,
            unsure: c.unsure,
            sure_values: 0.0,
            unsure_values: c.unsure_values,
        });
        let all = Counts {
            sure: 0,
            unsure: self.all.unsure,
            sure_values: 0.0,
            unsure_values: self.all.unsure_values,
        };
        let value = self.value.map(|(s, a)| (0, a - s));
        let available = self.available.difference(self.sure);
        Pool::of_counts((available, TroopSet::EMPTY, p), color, all, value)
    }

    /// The pool of `available` troops, `sure` of them held, each other one arriving
    /// with chance `p`, from their counts per colour, in all and per value (sure,
    /// available).
    fn of_counts(
        (available, sure, p): (TroopSet, TroopSet, f64),
        color: [Counts; 6],
        all: Counts,
        value: [(u8, u8); 11],
    ) -> Pool {
        let pw: [f64; 6] = std::array::from_fn(|m| p.powi(m as i32));
        let mut by_value = [0.0f64; 11];
        for (w, &(s, a)) in by_value.iter_mut().zip(&value).skip(1) {
            *w = value_weight(usize::from(s), usize::from(a), pw[1]);
        }
        Pool {
            available,
            sure,
            pw,
            color,
            all,
            value,
            by_value,
            handfuls: std::array::from_fn(|_| std::array::from_fn(|_| Cell::new(UNKNOWN))),
        }
    }

    /// The available troops without `taken`.
    pub(crate) fn available(&self, taken: Option<Troop>) -> TroopSet {
        let mut a = self.available;
        if let Some(t) = taken {
            a.remove(t);
        }
        a
    }

    /// The whole pool's handfuls of `k` (< `TABLE`) cards, as it is (`variant` 0),
    /// without one of its sure cards (1) or without one of the others (2).
    fn handfuls_of(&self, variant: usize, k: usize) -> Handfuls {
        let (cell, counts) = (&self.handfuls[variant][k], self.all);
        let (s, u) = (Some(counts.sure), Some(counts.unsure));
        let (s, u) = match variant {
            0 => (s, u),
            1 => (counts.sure.checked_sub(1), u),
            _ => (s, counts.unsure.checked_sub(1)),
        };
        kept_handfuls(cell, k, s, u, &self.pw)
    }
}

/// Every way `troops` (at most `n`, no wild cards) can be completed to `n` cards from
/// `available`, by kind; `sure` are the available cards the player holds (weight 1),
/// the others weigh `p`. Under Fog every handful is a host. `Ways::default()` when the
/// side holds more than `n` troops.
#[cfg(test)]
pub(crate) fn ways(
    troops: &[Troop],
    n: usize,
    fog: bool,
    available: TroopSet,
    sure: TroopSet,
    p: f64,
) -> Ways {
    ways_from(troops, n, fog, &Pool::new(available, sure, p), None)
}

/// The weight of the cards of one value: `s` sure ones of its `a` count 1, the others `p`.
fn value_weight(s: usize, a: usize, p: f64) -> f64 {
    s as f64 + (a - s) as f64 * p
}

/// [`ways`] from a pool counted beforehand, without the card `taken` (being played;
/// nothing changes if it is not in the pool).
pub(crate) fn ways_from(
    troops: &[Troop],
    n: usize,
    fog: bool,
    pool: &Pool,
    taken: Option<Troop>,
) -> Ways {
    let mut out = Ways::default();
    let Some(k) = n.checked_sub(troops.len()) else {
        return out;
    };
    let taken = taken.filter(|t| pool.available.contains(*t));
    let taken_sure = taken.is_some_and(|t| pool.sure.contains(t));
    let (mut available, mut sure, pw) = (pool.available, pool.sure, &pool.pw);
    let mut all = pool.all;
    if let Some(t) = taken {
        available.remove(t);
        sure.remove(t);
        all = all.without(taken_sure, t.value);
    }
    // The counts of colour `c` and value `v` without the card taken.
    let color_counts = |c: Color| match taken {
        Some(t) if t.color == c => pool.color[c as usize].without(taken_sure, t.value),
        _ => pool.color[c as usize],
    };
    let value_counts = |v: u8| {
        let (s, a) = pool.value[v as usize];
        match taken {
            Some(t) if t.value == v => {
                (usize::from(s) - usize::from(taken_sure), usize::from(a) - 1)
            }
            _ => (usize::from(s), usize::from(a)),
        }
    };
    let base: f64 = troops.iter().map(|t| f64::from(t.value)).sum();
    // Which of the pool's kept handfuls apply: with nothing taken, or without a sure
    // card or another one.
    let variant = match (taken, taken_sure) {
        (None, _) => 0,
        (Some(_), true) => 1,
        (Some(_), false) => 2,
    };
    // The whole pool: every handful, whatever its kind.
    let (all_w, with_sure, with_unsure) = if k < TABLE {
        pool.handfuls_of(variant, k)
    } else {
        handfuls_by_card(k, all.sure, all.unsure, pw)
    };
    let all_v = if k == 0 {
        0.0
    } else {
        all.sure_values * with_sure + all.unsure_values * with_unsure
    };
    let host = FormationKind::Host as usize;
    if fog {
        out.weight[host] = all_w;
        out.sum[host] = base * all_w + all_v;
        return out;
    }
    let Shape {
        values,
        distinct,
        colors,
        one_value,
    } = Shape::of(troops);
    // The runs that hold every value shown (none unless the values are distinct): they
    // start at most at the lowest value and at least n - 1 below the highest, lowest
    // start first.
    let starts = if distinct {
        super::reach::run_starts(values, n)
    } else {
        std::ops::RangeInclusive::new(1, 0)
    };
    let runs = || {
        starts
            .clone()
            .map(move |s| (s, ((1u16 << n) - 1) << (s - 1)))
    };
    let wedge = FormationKind::Wedge as usize;
    // Wedges: one handful per colour and run; kept per colour (battalions include
    // them) and per run (skirmish lines include them).
    let mut wedge_color = [(0.0f64, 0.0f64); 6];
    let mut wedge_run = [0.0f64; 11];
    // The starts of the runs (bit s - 1 for start s).
    let start_bits: u16 = runs().fold(0, |bits, (start, _)| bits | 1 << (start - 1));
    for &c in colors {
        let row = available.color_row(c);
        let sure_row = sure.color_row(c);
        // The runs whose every value is shown or available in the colour (bit s - 1
        // for start s), lowest start first: the others make no wedge.
        let have = row | values;
        let mut fits = start_bits;
        for i in 0..n {
            fits &= have >> i;
        }
        while fits != 0 {
            let start = fits.trailing_zeros() as u8 + 1;
            fits &= fits - 1;
            let run = ((1u16 << n) - 1) << (start - 1);
            let missing = run & !values;
            let w = pw[(missing & !sure_row).count_ones() as usize];
            let total = w * run_sum(start, n);
            out.weight[wedge] += w;
            out.sum[wedge] += total;
            wedge_color[c as usize].0 += w;
            wedge_color[c as usize].1 += total;
            wedge_run[start as usize] += w;
        }
    }
    // Phalanxes: k of the available cards of the one value.
    let phalanx = FormationKind::Phalanx as usize;
    let (low, high) = match (troops.is_empty(), one_value) {
        (true, _) => (1, 10),
        (false, Some(v)) => (v, v),
        (false, None) => (1, 0),
    };
    for v in low..=high {
        let (s, a) = value_counts(v);
        let w = handfuls(k, s, a - s, pw);
        out.weight[phalanx] += w;
        out.sum[phalanx] += w * f64::from(v) * n as f64;
    }
    // Battalions: k of the colour's available cards, less its wedges.
    let battalion = FormationKind::Battalion as usize;
    for &c in colors {
        let counts = color_counts(c);
        let (w, with_sure, with_unsure) = handfuls_by_card(k, counts.sure, counts.unsure, pw);
        let v = values_of(k, counts, with_sure, with_unsure);
        let (ww, wv) = wedge_color[c as usize];
        out.weight[battalion] += w - ww;
        out.sum[battalion] += base * w + v - wv;
    }
    // Skirmish lines: a card of each missing value of a run, less the run's wedges.
    let skirmish = FormationKind::SkirmishLine as usize;
    let mut by_value = [0.0f64; 11];
    if distinct {
        by_value = pool.by_value;
        if let Some(t) = taken {
            let (s, a) = value_counts(t.value);
            by_value[t.value as usize] = value_weight(s, a, pw[1]);
        }
    }
    for (start, run) in runs() {
        let mut missing = run & !values;
        let mut w = 1.0;
        while missing != 0 {
            w *= by_value[missing.trailing_zeros() as usize + 1];
            missing &= missing - 1;
        }
        let w = w - wedge_run[start as usize];
        out.weight[skirmish] += w;
        out.sum[skirmish] += w * run_sum(start, n);
    }
    // Hosts: every other handful.
    let others_w: f64 = out.weight[1..].iter().sum();
    let others_v: f64 = out.sum[1..].iter().sum();
    out.weight[host] = all_w - others_w;
    out.sum[host] = base * all_w + all_v - others_v;
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::Card;
    use crate::formation::{Judging, best_formation};
    use seeded_rng::Rng;

    /// Every `k`-handful of `pool`, by brute force.
    fn each_handful(
        pool: &[Troop],
        k: usize,
        from: usize,
        taken: &mut Vec<Troop>,
        f: &mut impl FnMut(&[Troop]),
    ) {
        if taken.len() == k {
            f(taken);
            return;
        }
        for i in from..pool.len() {
            taken.push(pool[i]);
            each_handful(pool, k, i + 1, taken, f);
            taken.pop();
        }
    }

    fn brute_force(
        troops: &[Troop],
        rules: Judging,
        available: TroopSet,
        sure: TroopSet,
        p: f64,
    ) -> Ways {
        let pool: Vec<Troop> = available.iter_high_first().collect();
        let mut out = Ways::default();
        let k = rules.cards - troops.len();
        each_handful(&pool, k, 0, &mut Vec::new(), &mut |hand| {
            let side: Vec<Card> = troops.iter().chain(hand).map(|t| Card::Troop(*t)).collect();
            let s = best_formation(&side, rules, TroopSet::EMPTY)
                .expect("a complete side")
                .strength;
            let w = hand
                .iter()
                .map(|t| if sure.contains(*t) { 1.0 } else { p })
                .product::<f64>();
            out.weight[s.kind as usize] += w;
            out.sum[s.kind as usize] += w * f64::from(s.sum);
        });
        out
    }

    #[test]
    fn ways_match_brute_force_on_small_pools() {
        let mut rng = Rng::new(2323);
        let mut by_kind = [0usize; 5];
        for case in 0..3_000 {
            let mut deck: Vec<Troop> = Troop::all().collect();
            // Small pools of few colours and values, so every kind turns up.
            let colors = 1 + rng.index(3);
            let low = 1 + rng.index(6) as u8;
            deck.retain(|t| (t.color as usize) < colors && (low..low + 5).contains(&t.value));
            rng.shuffle(&mut deck);
            let rules = crate::bot::reach::tests::random_rules(&mut rng);
            let on_side = rng.index(rules.cards + 1).min(deck.len());
            let troops: Vec<Troop> = deck.drain(..on_side).collect();
            let pool = rng.index(deck.len() + 1).min(10);
            let avail: TroopSet = deck.drain(..pool).collect();
            let sure: TroopSet = avail
                .iter_high_first()
                .filter(|_| rng.chance(0.3))
                .collect();
            let p = if case % 3 == 0 { 1.0 } else { rng.next_f64() };
            let got = ways(&troops, rules.cards, rules.fog, avail, sure, p);
            let expected = brute_force(&troops, rules, avail, sure, p);
            for (kind, seen) in by_kind.iter_mut().enumerate() {
                if expected.weight[kind] > 0.0 {
                    *seen += 1;
                }
                assert!(
                    (got.weight[kind] - expected.weight[kind]).abs() < 1e-9
                        && (got.sum[kind] - expected.sum[kind]).abs() < 1e-7,
                    "{troops:?} {rules:?} {avail:?} sure {sure:?} p {p}: kind {kind}: {got:?} vs {expected:?}"
                );
            }
        }
        // Every kind was checked many times.
        assert!(by_kind.iter().all(|&c| c > 100), "{by_kind:?}");
    }

    #[test]
    fn a_pool_counted_once_gives_the_same_ways_as_counting_it_without_the_card_taken() {
        let mut rng = Rng::new(2324);
        let (mut taken_sure, mut taken_other, mut not_in_pool) = (0, 0, 0);
        for case in 0..3_000 {
            let mut deck: Vec<Troop> = Troop::all().collect();
            rng.shuffle(&mut deck);
            let rules = crate::bot::reach::tests::random_rules(&mut rng);
            let on_side = rng.index(rules.cards + 1);
            let troops: Vec<Troop> = deck.drain(..on_side).collect();
            // Pools as large as the playouts' (the whole unseen part of the deck).
            let pool_len = rng.index(deck.len() + 1);
            let avail: TroopSet = deck[..pool_len].iter().copied().collect();
            let sure: TroopSet = avail
                .iter_high_first()
                .filter(|_| rng.chance(0.15))
                .collect();
            let p = if case % 3 == 0 { 1.0 } else { rng.next_f64() };
            let pool = Pool::new(avail, sure, p);
            // No card taken: as counted from the sets.
            assert_eq!(
                ways_from(&troops, rules.cards, rules.fog, &pool, None),
                ways(&troops, rules.cards, rules.fog, avail, sure, p)
            );
            // A card of the pool (held or not) or one outside it taken: the same ways,
            // to the last bit, as counting the pool without it.
            let t = deck[rng.index(deck.len())];
            match (avail.contains(t), sure.contains(t)) {
                (true, true) => taken_sure += 1,
                (true, false) => taken_other += 1,
                (false, _) => not_in_pool += 1,
            }
            let (mut a, mut s) = (avail, sure);
            a.remove(t);
            s.remove(t);
            assert_eq!(pool.available(Some(t)), a);
            assert_eq!(
                ways_from(&troops, rules.cards, rules.fog, &pool, Some(t)),
                ways(&troops, rules.cards, rules.fog, a, s, p),
                "{troops:?} {rules:?} taken {t:?} from {avail:?}, sure {sure:?}, p {p}"
            );
        }
        assert!(
            taken_sure > 100 && taken_other > 100 && not_in_pool > 100,
            "{taken_sure} {taken_other} {not_in_pool}"
        );
    }

    #[test]
    fn handfuls_are_the_iterators_sum_to_the_last_bit() {
        // The sum as it was first written: the terms in order, added by `sum`.
        let by_iterator = |k: usize, s: usize, u: usize, pw: &[f64; 6]| -> f64 {
            if k > s + u {
                return 0.0;
            }
            (0..=k.min(s))
                .filter(|&j| k - j <= u)
                .map(|j| choose(s, j) * choose(u, k - j) * pw[k - j])
                .sum()
        };
        let mut rng = Rng::new(2325);
        for case in 0..2_000 {
            let p = std::hint::black_box(if case % 5 == 0 { 1.0 } else { rng.next_f64() });
            let pw: [f64; 6] = std::array::from_fn(|m| p.powi(m as i32));
            for k in 0..5 {
                for s in 0..8 {
                    for u in 0..12 {
                        assert_eq!(
                            handfuls(k, s, u, &pw).to_bits(),
                            by_iterator(k, s, u, &pw).to_bits(),
                            "k {k} s {s} u {u} p {p}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn the_others_of_a_pool_are_the_pool_of_its_unsure_cards() {
        let mut rng = Rng::new(2326);
        for _ in 0..3_000 {
            let mut deck: Vec<Troop> = Troop::all().collect();
            rng.shuffle(&mut deck);
            let avail: TroopSet = deck.drain(..rng.index(61)).collect();
            let sure: TroopSet = avail
                .iter_high_first()
                .filter(|_| rng.chance(0.2))
                .collect();
            let (p, q) = (rng.next_f64(), rng.next_f64());
            // Compared as printed, so to the last bit (and NaN, a handful not worked
            // out yet, as itself).
            assert_eq!(
                format!("{:?}", Pool::new(avail, sure, p).others(q)),
                format!(
                    "{:?}",
                    Pool::new(avail.difference(sure), TroopSet::EMPTY, q)
                )
            );
        }
    }

    #[test]
    fn with_certain_cards_the_weights_are_counts() {
        let t = |color, value| Troop { color, value };
        // Red 8 and 9 on the side; red 10, red 7, blue 10 and green 9 available.
        let troops = [t(Color::Red, 8), t(Color::Red, 9)];
        let avail: TroopSet = [
            t(Color::Red, 10),
            t(Color::Red, 7),
            t(Color::Blue, 10),
            t(Color::Green, 9),
        ]
        .into_iter()
        .collect();
        let w = ways(&troops, 3, false, avail, TroopSet::EMPTY, 1.0);
        // Two wedges (7-8-9, 8-9-10), a skirmish line (blue 10), a host (green 9).
        assert_eq!(w.weight, [1.0, 1.0, 0.0, 0.0, 2.0]);
        assert_eq!(w.sum, [26.0, 27.0, 0.0, 0.0, 24.0 + 27.0]);
    }
}
