//! The sparring partner's odds: how strong one side of a flag can still end, from a sure hand and a random handful of the unseen troops, and from both sides the chance to win the flag.
//!
//! Strengths are ranked on a ladder (kind first, then sum: [`rank`]). A side that
//! needs one more card gets its exact distribution on the ladder: each unseen troop
//! is tried as the missing card, and the chance that the best of the drawn ones
//! reaches a rung is hypergeometric ("at least one of the g cards that reach it").
//! A side that needs two or more cards gets the exact chance of each formation kind
//! ([`crate::odds::Supply::odds`]) and, when it is asked whether it can beat a given
//! strength, the exact chance of that kind with a higher sum; the kinds are then
//! combined as independent events, except that a wedge is also a battalion and a
//! skirmish line (that part is an approximation, said where it is made). The two
//! sides of a flag are taken as independent of each other.

use crate::card::{Card, Color, Troop, TroopSet};
use crate::formation::{FormationKind, Judging, Strength, best_formation, best_of_kind};
use crate::game::Player;
use crate::odds::{Goal, Supply, choose};
use std::cell::OnceCell;

/// The formation kinds, weakest first: `KINDS[k as usize] == k`.
pub(crate) const KINDS: [FormationKind; 5] = [
    FormationKind::Host,
    FormationKind::SkirmishLine,
    FormationKind::Battalion,
    FormationKind::Phalanx,
    FormationKind::Wedge,
];

/// Sums run from 0 to 40 (four tens under Mud).
const SUMS: usize = 41;
/// Rungs of the ladder.
pub(crate) const RANKS: usize = KINDS.len() * SUMS;

/// A strength's rung: stronger strengths have higher rungs.
pub(crate) fn rank(s: Strength) -> usize {
    s.kind as usize * SUMS + usize::from(s.sum).min(SUMS - 1)
}

/// The strength of a complete side (`None` if it cannot be judged).
pub(crate) fn strength(side: &[Card], rules: Judging) -> Option<Strength> {
    best_formation(side, rules, TroopSet::EMPTY).map(|c| c.strength)
}

/// A flag already decided by a claim proof, from the side of `mine`: 1 when `mine` is
/// complete and nothing in `pool` lets `theirs` do better, 0 the other way round, `None`
/// when neither proof holds. Exact, as a claim is.
pub(crate) fn proved(
    mine: &[Card],
    theirs: &[Card],
    rules: Judging,
    pool: TroopSet,
) -> Option<f64> {
    let n = rules.cards;
    let beaten = |done: &[Card], open: &[Card]| {
        counted(done) >= n
            && counted(open) < n
            && strength(done, rules)
                .is_some_and(|s| best_formation(open, rules, pool).is_none_or(|c| c.strength <= s))
    };
    if beaten(mine, theirs) {
        Some(1.0)
    } else if beaten(theirs, mine) {
        Some(0.0)
    } else {
        None
    }
}

/// Between two complete sides of a flag: 1 when `me`'s side completed first (it wins
/// equal strengths), 0 when the other did; `None` unless both have completed.
pub(crate) fn done_first(completed_at: [Option<u32>; 2], me: Player) -> Option<f64> {
    let mine = completed_at[me.index()]?;
    let theirs = completed_at[me.opponent().index()]?;
    Some(f64::from(u8::from(mine < theirs)))
}

/// The chance that side `m` completes before side `t` where both are incomplete, from
/// the cards each still needs (the sparring partner's rule).
pub(crate) fn first_to_complete(m: &Outlook, t: &Outlook) -> f64 {
    match m.missing().cmp(&t.missing()) {
        std::cmp::Ordering::Less => 0.75,
        std::cmp::Ordering::Equal => 0.5,
        std::cmp::Ordering::Greater => 0.25,
    }
}

/// Troops and wild morale cards on a side (what counts toward its formation).
pub(crate) fn counted(side: &[Card]) -> usize {
    side.iter()
        .filter(|c| match c {
            Card::Troop(_) => true,
            Card::Tactic(t) => t.wild_values().is_some(),
        })
        .count()
}

/// What one side of a flag may still become.
#[derive(Debug, Clone)]
pub(crate) enum Outlook {
    /// Complete: judged as it is (`None`: a side that cannot be judged, never seen).
    Done(Option<Strength>),
    /// One card missing: `surv[r]` = P(the side ends at rung `r` or higher); the rest
    /// of the mass is "never completed".
    Exact(Box<[f64; RANKS]>),
    /// Two or more cards missing.
    Kinds(Box<Kinds>),
}

/// A side that needs two or more cards: each kind's exact chance, and what is needed
/// to ask for a kind above a sum.
#[derive(Debug, Clone)]
pub(crate) struct Kinds {
    /// P(the side can be completed as kind `k`, any sum), by `k as usize`.
    pub p: [f64; 5],
    /// The best sum kind `k` can reach with every card it might get (0: none).
    pub best: [u8; 5],
    side: Vec<Card>,
    rules: Judging,
    supply: Supply,
    pub missing: usize,
    /// Each kind's median best sum, computed on first use.
    medians: [OnceCell<u8>; 5],
}

impl Outlook {
    /// The outlook of `side` under `rules` for a seat whose cards come from `supply`.
    pub fn of(side: &[Card], rules: Judging, supply: Supply) -> Outlook {
        let n = rules.cards;
        let count = counted(side);
        if count >= n {
            return Outlook::Done(strength(side, rules));
        }
        if count + 1 == n {
            return Outlook::Exact(exact_one(side, rules, supply));
        }
        let all = supply.hand.union(supply.pool);
        let mut p = [0.0; 5];
        let mut best = [0u8; 5];
        for kind in KINDS {
            if rules.fog && kind != FormationKind::Host {
                continue;
            }
            let Some(c) = best_of_kind(side, rules, kind, all) else {
                continue;
            };
            best[kind as usize] = c.strength.sum;
            p[kind as usize] = supply.odds(side, rules, Goal::kind(kind));
        }
        Outlook::Kinds(Box::new(Kinds {
            p,
            best,
            side: side.to_vec(),
            rules,
            supply,
            missing: n - count,
            medians: Default::default(),
        }))
    }

    /// Cards still needed.
    pub fn missing(&self) -> usize {
        match self {
            Outlook::Done(_) => 0,
            Outlook::Exact(_) => 1,
            Outlook::Kinds(k) => k.missing,
        }
    }

    /// P(the side ends strictly stronger than `s`).
    pub fn beat(&self, s: Strength) -> f64 {
        match self {
            Outlook::Done(t) => f64::from(u8::from(t.is_some_and(|t| t > s))),
            Outlook::Exact(surv) => surv.get(rank(s) + 1).copied().unwrap_or(0.0),
            Outlook::Kinds(k) => k.beat(s),
        }
    }
}

/// The exact ladder of a side one card short: every card that may come is tried.
fn exact_one(side: &[Card], rules: Judging, supply: Supply) -> Box<[f64; RANKS]> {
    let pool = supply.pool.difference(supply.hand);
    let u = pool.len();
    let d = supply.draws.min(u);
    let mut cards: Vec<Card> = side.to_vec();
    let slot = cards.len();
    cards.push(Card::Troop(Troop {
        color: Color::Red,
        value: 1,
    }));
    let mut with = |t: Troop| -> Option<usize> {
        cards[slot] = Card::Troop(t);
        strength(&cards, rules).map(rank)
    };
    let mut sure: Option<usize> = None;
    for t in supply.hand.iter_high_first() {
        sure = sure.max(with(t));
    }
    let mut counts = [0usize; RANKS];
    for t in pool.iter_high_first() {
        if let Some(r) = with(t) {
            counts[r] += 1;
        }
    }
    let total = choose(u, d);
    let mut surv = Box::new([0.0; RANKS]);
    let mut good = 0;
    for r in (0..RANKS).rev() {
        good += counts[r];
        surv[r] = if sure.is_some_and(|s| s >= r) {
            1.0
        } else if good == 0 || total == 0.0 {
            0.0
        } else {
            // P(at least one of the `good` cards among the d drawn).
            1.0 - choose(u - good, d) / total
        };
    }
    surv
}

impl Kinds {
    /// P(the side ends strictly stronger than `s`). Exact when only one kind can do
    /// it (e.g. `s` a wedge); otherwise the kinds that can are combined as independent
    /// events, a wedge being left out where a battalion of any sum is counted (every
    /// wedge is one).
    pub fn beat(&self, s: Strength) -> f64 {
        let k = s.kind as usize;
        let mut events: Vec<(usize, f64)> = ((k + 1)..5)
            .filter(|&i| self.p[i] > 0.0)
            .map(|i| (i, self.p[i]))
            .collect();
        if self.p[k] > 0.0 && self.best[k] > s.sum {
            let goal = Goal {
                kind: s.kind,
                above: Some(s.sum),
            };
            events.push((k, self.supply.odds(&self.side, self.rules, goal)));
        }
        let battalion = FormationKind::Battalion as usize;
        if k < battalion && events.iter().any(|e| e.0 == battalion) {
            events.retain(|e| e.0 != FormationKind::Wedge as usize);
        }
        1.0 - events.iter().map(|e| 1.0 - e.1).product::<f64>()
    }

    /// The median best sum of kind `k` when the side reaches it: the smallest sum `s`
    /// with P(kind `k` above `s`) under half of P(kind `k`), by bisection on exact odds.
    fn median(&self, k: usize) -> u8 {
        *self.medians[k].get_or_init(|| {
            let half = self.p[k] / 2.0;
            let (mut lo, mut hi) = (0u8, self.best[k]);
            while lo < hi {
                let mid = lo + (hi - lo) / 2;
                let goal = Goal {
                    kind: KINDS[k],
                    above: Some(mid),
                };
                if self.supply.odds(&self.side, self.rules, goal) < half {
                    hi = mid;
                } else {
                    lo = mid + 1;
                }
            }
            lo
        })
    }

    /// P(the best kind reached is at least kind `k`), for each `k`: the same
    /// combination as [`Kinds::beat`] with every sum allowed.
    fn at_least(&self) -> [f64; 5] {
        let [h, sk, b, ph, w] = self.p;
        let mut out = [
            h,
            1.0 - (1.0 - b) * (1.0 - ph) * (1.0 - (sk - w).max(0.0)),
            1.0 - (1.0 - b) * (1.0 - ph),
            1.0 - (1.0 - w) * (1.0 - ph),
            w,
        ];
        for i in (0..4).rev() {
            out[i] = out[i].max(out[i + 1]);
        }
        out
    }
}

/// P(a side with ladder `surv` ends exactly at rung `r`).
fn mass(surv: &[f64; RANKS], r: usize) -> f64 {
    surv[r] - surv.get(r + 1).copied().unwrap_or(0.0)
}

/// For each kind, the chance an exact ladder ends as that kind and its mean sum.
fn by_kind(surv: &[f64; RANKS]) -> [(f64, u8); 5] {
    let mut out = [(0.0, 0u8); 5];
    for (k, o) in out.iter_mut().enumerate() {
        let mut m = 0.0;
        let mut weighted = 0.0;
        for sum in 0..SUMS {
            let x = mass(surv, k * SUMS + sum);
            m += x;
            weighted += x * sum as f64;
        }
        if m > 1e-12 {
            *o = (m, (weighted / m).round() as u8);
        }
    }
    out
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// P(side `mine` ends stronger than side `theirs`). `tie`: the chance that `mine`
/// completes first (it wins equal strengths) when both are still incomplete; a
/// complete side always completed first, and two complete sides use `done_tie`
/// (1 or 0, from the flag's record). `sum_scale`: for two sides that both need two
/// or more cards and reach the same kind, the difference of their median sums that
/// makes one a 73% favourite.
pub(crate) fn win_chance(
    mine: &Outlook,
    theirs: &Outlook,
    tie: f64,
    done_tie: f64,
    sum_scale: f64,
) -> f64 {
    match (mine, theirs) {
        (Outlook::Done(a), Outlook::Done(b)) => match a.cmp(b) {
            std::cmp::Ordering::Greater => 1.0,
            std::cmp::Ordering::Less => 0.0,
            std::cmp::Ordering::Equal => done_tie,
        },
        (Outlook::Done(a), other) => match a {
            Some(a) => 1.0 - other.beat(*a),
            None => 0.0,
        },
        (other, Outlook::Done(b)) => match b {
            Some(b) => other.beat(*b),
            None => 1.0,
        },
        (Outlook::Exact(m), Outlook::Exact(t)) => {
            let mut p = 0.0;
            for r in 0..RANKS {
                let pm = mass(m, r);
                if pm == 0.0 {
                    continue;
                }
                // Below rung r (never completed included), or equal and first.
                p += pm * ((1.0 - t[r]) + mass(t, r) * tie);
            }
            p
        }
        (Outlook::Exact(m), Outlook::Kinds(t)) => {
            // Each kind of the exact side at its mean sum; it needs one card, so it
            // takes ties.
            by_kind(m)
                .iter()
                .enumerate()
                .filter(|(_, (x, _))| *x > 0.0)
                .map(|(k, (x, sum))| {
                    x * (1.0
                        - t.beat(Strength {
                            kind: KINDS[k],
                            sum: *sum,
                        }))
                })
                .sum()
        }
        (Outlook::Kinds(m), Outlook::Exact(t)) => {
            let never = 1.0 - t[0];
            let completes = m.at_least()[0];
            by_kind(t)
                .iter()
                .enumerate()
                .filter(|(_, (x, _))| *x > 0.0)
                .map(|(k, (x, sum))| {
                    x * m.beat(Strength {
                        kind: KINDS[k],
                        sum: *sum,
                    })
                })
                .sum::<f64>()
                + never * completes
        }
        (Outlook::Kinds(m), Outlook::Kinds(t)) => {
            // P(best kind = k); index 5: never completed.
            let q = |o: &Kinds| {
                let a = o.at_least();
                let mut q = [0.0; 6];
                for k in 0..5 {
                    q[k] = a[k] - if k < 4 { a[k + 1] } else { 0.0 };
                }
                q[5] = 1.0 - a[0];
                q
            };
            let (qm, qt) = (q(m), q(t));
            let tempo = 4.0 * (tie - 0.5);
            let mut p = qm[..5].iter().sum::<f64>() * qt[5];
            for (a, qa) in qm.iter().enumerate().take(5) {
                for (b, qb) in qt.iter().enumerate().take(5) {
                    let pair = qa * qb;
                    if pair == 0.0 {
                        continue;
                    }
                    p += pair
                        * match a.cmp(&b) {
                            std::cmp::Ordering::Greater => 1.0,
                            std::cmp::Ordering::Less => 0.0,
                            std::cmp::Ordering::Equal => sigmoid(
                                (f64::from(m.median(a)) - f64::from(t.median(a))) / sum_scale
                                    + tempo,
                            ),
                        };
                }
            }
            p
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::Color::*;
    use crate::card::Tactic;
    use seeded_rng::Rng;

    fn t(color: Color, value: u8) -> Troop {
        Troop { color, value }
    }

    /// Every handful of `d` cards of `pool`.
    fn handfuls(pool: &[Troop], d: usize) -> Vec<TroopSet> {
        let n = pool.len();
        (0u32..(1 << n))
            .filter(|m| m.count_ones() as usize == d.min(n))
            .map(|m| {
                (0..n)
                    .filter(|i| m & (1 << i) != 0)
                    .map(|i| pool[i])
                    .collect()
            })
            .collect()
    }

    /// The reference: the best strength of `side` with every handful, equally likely.
    fn brute_ladder(
        side: &[Card],
        rules: Judging,
        hand: TroopSet,
        pool: &[Troop],
        d: usize,
    ) -> Vec<(Option<Strength>, f64)> {
        let all = handfuls(pool, d);
        let w = 1.0 / all.len() as f64;
        all.iter()
            .map(|drawn| {
                let avail = hand.union(*drawn);
                (best_formation(side, rules, avail).map(|c| c.strength), w)
            })
            .collect()
    }

    const MUD: Judging = Judging {
        cards: 4,
        fog: false,
    };
    const FOG: Judging = Judging {
        cards: 3,
        fog: true,
    };

    /// A random small situation: a side, a sure hand and a pool concentrated on few
    /// colours and values so that formations are likely.
    fn situation(
        rng: &mut Rng,
        missing: usize,
    ) -> (Vec<Card>, Judging, TroopSet, Vec<Troop>, usize) {
        let rules = match rng.index(4) {
            0 => MUD,
            1 => FOG,
            _ => Judging::NORMAL,
        };
        situation_under(rng, missing, rules)
    }

    fn situation_under(
        rng: &mut Rng,
        missing: usize,
        rules: Judging,
    ) -> (Vec<Card>, Judging, TroopSet, Vec<Troop>, usize) {
        let mut deck: Vec<Troop> = Troop::all()
            .filter(|x| x.color <= Yellow && (3..=9).contains(&x.value))
            .collect();
        rng.shuffle(&mut deck);
        let on_side = rules.cards - missing;
        let mut side: Vec<Card> = Vec::new();
        if on_side > 0 && rng.chance(0.2) {
            let wild = [
                Tactic::Alexander,
                Tactic::CompanionCavalry,
                Tactic::ShieldBearers,
            ];
            side.push(Card::Tactic(wild[rng.index(3)]));
        }
        while side.len() < on_side {
            side.push(Card::Troop(deck.pop().expect("cards")));
        }
        let hand: TroopSet = deck.drain(..rng.index(3)).collect();
        let pool: Vec<Troop> = deck.drain(..6 + rng.index(7)).collect();
        let d = rng.index(6);
        (side, rules, hand, pool, d)
    }

    #[test]
    fn one_card_short_ladders_match_brute_force() {
        let mut rng = Rng::new(23);
        let mut uncertain = 0;
        for _ in 0..400 {
            let (side, rules, hand, pool, d) = situation(&mut rng, 1);
            let supply = Supply {
                hand,
                pool: pool.iter().copied().collect(),
                draws: d,
            };
            let Outlook::Exact(surv) = Outlook::of(&side, rules, supply) else {
                panic!("one card short is exact");
            };
            let brute = brute_ladder(&side, rules, hand, &pool, d);
            for r in 0..RANKS {
                let reference: f64 = brute
                    .iter()
                    .filter(|(s, _)| s.is_some_and(|s| rank(s) >= r))
                    .map(|(_, w)| w)
                    .sum();
                assert!(
                    (surv[r] - reference).abs() < 1e-9,
                    "{side:?} {rules:?} rung {r}: {} vs brute force {reference}",
                    surv[r]
                );
                if reference > 1e-9 && reference < 1.0 - 1e-9 {
                    uncertain += 1;
                }
            }
        }
        assert!(uncertain > 500, "only {uncertain} uncertain rungs");
    }

    #[test]
    fn flag_chances_of_sides_one_card_short_match_brute_force() {
        // Two independent seats: mine draws from its pool, theirs from its own.
        let mut rng = Rng::new(7);
        let mut uncertain = 0;
        for case in 0..150 {
            let (mine, rules, my_hand, my_pool, my_d) = situation(&mut rng, 1);
            let (theirs, _, their_hand, their_pool, their_d) = situation_under(&mut rng, 1, rules);
            // The other side must not hold my cards: shift its colours out of the way.
            let shift = |c: Card| match c {
                Card::Troop(x) => Card::Troop(t(
                    match x.color {
                        Red => Green,
                        Orange => Blue,
                        _ => Purple,
                    },
                    x.value,
                )),
                other => other,
            };
            let theirs: Vec<Card> = theirs.into_iter().map(shift).collect();
            let _ = their_hand;
            let their_pool: Vec<Troop> = their_pool
                .into_iter()
                .filter_map(|x| shift(Card::Troop(x)).troop())
                .filter(|x| !theirs.contains(&Card::Troop(*x)))
                .collect();
            let supply = |hand, pool: &[Troop], d| Supply {
                hand,
                pool: pool.iter().copied().collect(),
                draws: d,
            };
            let om = Outlook::of(&mine, rules, supply(my_hand, &my_pool, my_d));
            let ot = Outlook::of(
                &theirs,
                rules,
                supply(TroopSet::EMPTY, &their_pool, their_d),
            );
            let tie = (case % 3) as f64 / 2.0;
            let exact = win_chance(&om, &ot, tie, 0.0, 3.0);
            let a = brute_ladder(&mine, rules, my_hand, &my_pool, my_d);
            let b = brute_ladder(&theirs, rules, TroopSet::EMPTY, &their_pool, their_d);
            let mut reference = 0.0;
            for (sa, wa) in &a {
                for (sb, wb) in &b {
                    let won = match (sa, sb) {
                        (Some(x), Some(y)) if x > y => 1.0,
                        (Some(x), Some(y)) if x == y => tie,
                        (Some(_), None) => 1.0,
                        _ => 0.0,
                    };
                    reference += wa * wb * won;
                }
            }
            assert!(
                (exact - reference).abs() < 1e-9,
                "{mine:?} vs {theirs:?} {rules:?}: {exact} vs brute force {reference}"
            );
            if reference > 1e-9 && reference < 1.0 - 1e-9 {
                uncertain += 1;
            }
        }
        assert!(uncertain > 40, "only {uncertain} uncertain cases");
    }

    #[test]
    fn beating_a_complete_side_matches_brute_force_where_one_kind_can() {
        // Against a wedge only a higher wedge wins: one kind, asked exactly.
        let mut rng = Rng::new(99);
        let mut uncertain = 0;
        for _ in 0..300 {
            let (side, rules, hand, pool, d) = situation(&mut rng, 2);
            if rules.fog || !side.iter().any(|c| c.troop().is_some()) {
                continue;
            }
            let supply = Supply {
                hand,
                pool: pool.iter().copied().collect(),
                draws: d,
            };
            let o = Outlook::of(&side, rules, supply);
            let brute = brute_ladder(&side, rules, hand, &pool, d);
            for target in [
                Strength {
                    kind: FormationKind::Wedge,
                    sum: 12 + rng.index(12) as u8,
                },
                Strength {
                    kind: FormationKind::Wedge,
                    sum: 6,
                },
            ] {
                let reference: f64 = brute
                    .iter()
                    .filter(|(s, _)| s.is_some_and(|s| s > target))
                    .map(|(_, w)| w)
                    .sum();
                let p = o.beat(target);
                assert!(
                    (p - reference).abs() < 1e-9,
                    "{side:?} {rules:?} vs {target:?}: {p} vs brute force {reference}"
                );
                if reference > 1e-9 && reference < 1.0 - 1e-9 {
                    uncertain += 1;
                }
            }
        }
        assert!(uncertain > 20, "only {uncertain} uncertain cases");
    }

    #[test]
    fn combined_kinds_stay_within_the_bounds_of_a_union() {
        // Where several kinds can beat the target, the estimate lies between the most
        // likely single way and the sum of them all, and close to brute force.
        let mut rng = Rng::new(5);
        let mut worst: f64 = 0.0;
        let mut total = 0.0;
        let mut cases = 0;
        for _ in 0..300 {
            let (side, rules, hand, pool, d) = situation(&mut rng, 2);
            let supply = Supply {
                hand,
                pool: pool.iter().copied().collect(),
                draws: d,
            };
            let o = Outlook::of(&side, rules, supply);
            let Outlook::Kinds(k) = &o else {
                panic!("two cards short uses the kinds");
            };
            let brute = brute_ladder(&side, rules, hand, &pool, d);
            let kind = KINDS[rng.index(4)];
            let target = Strength {
                kind,
                sum: 10 + rng.index(10) as u8,
            };
            let p = o.beat(target);
            let higher: Vec<f64> = ((target.kind as usize + 1)..5).map(|i| k.p[i]).collect();
            let lower = higher.iter().copied().fold(0.0, f64::max);
            assert!(p >= lower - 1e-9 && p <= 1.0 + 1e-9, "{p} below {lower}");
            let reference: f64 = brute
                .iter()
                .filter(|(s, _)| s.is_some_and(|s| s > target))
                .map(|(_, w)| w)
                .sum();
            worst = worst.max((p - reference).abs());
            total += (p - reference).abs();
            cases += 1;
        }
        assert!(cases > 100);
        // The independence approximation on these small pools: 0.14 at worst, 0.004 on
        // average.
        let mean = total / f64::from(cases);
        assert!(
            worst < 0.2 && mean < 0.01,
            "worst difference {worst}, mean {mean}"
        );
    }

    #[test]
    fn ranks_order_strengths_as_the_rules_do() {
        let mut all: Vec<Strength> = Vec::new();
        for kind in KINDS {
            for sum in [6u8, 19, 27, 40] {
                all.push(Strength { kind, sum });
            }
        }
        for a in &all {
            for b in &all {
                assert_eq!(a.cmp(b), rank(*a).cmp(&rank(*b)), "{a:?} {b:?}");
            }
        }
    }
}
