//! The best formation a side without wild cards can still reach, computed on bit masks without allocating (the playouts ask this millions of times).
//!
//! It answers what [`crate::formation::best_formation`] answers for such sides, and
//! also says how many of the added cards are not sure (not in the player's hand).
//! [`reach_side`] takes sides with wild morale cards too, by trying each troop a wild
//! card can stand for.

use crate::card::{Card, Color, Troop, TroopSet};
use crate::formation::{FormationKind, Strength};

/// The best reachable strength and how many of the cards it adds are unsure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Reach {
    pub strength: Strength,
    pub unsure: u8,
}

fn run_sum(start: u8, n: usize) -> u8 {
    (0..n as u8).map(|i| start + i).sum()
}

/// What a side's troops tell about the formations they can still make: the values
/// shown (as bits, value 1 the lowest), whether they are all different, the colours a
/// flush may still take (all of them for an empty side, none once two colours show),
/// and the value a phalanx would have to take.
pub(crate) struct Shape {
    pub values: u16,
    pub distinct: bool,
    pub colors: &'static [Color],
    pub one_value: Option<u8>,
}

impl Shape {
    pub(crate) fn of(troops: &[Troop]) -> Shape {
        let mut values = 0u16;
        let mut distinct = true;
        for t in troops {
            let bit = 1u16 << (t.value - 1);
            distinct &= values & bit == 0;
            values |= bit;
        }
        let one_color = troops
            .first()
            .map(|f| f.color)
            .filter(|c| troops.iter().all(|t| t.color == *c));
        let colors: &'static [Color] = match (troops.is_empty(), one_color) {
            (true, _) => &Color::ALL,
            (false, Some(c)) => &Color::ALL[c as usize..=c as usize],
            (false, None) => &[],
        };
        let one_value = troops
            .first()
            .map(|f| f.value)
            .filter(|v| troops.iter().all(|t| t.value == *v));
        Shape {
            values,
            distinct,
            colors,
            one_value,
        }
    }
}

/// The best formation of `troops` (fewer than `n`, no wilds) completed from
/// `available`; `sure` are the available cards the player holds.
pub(crate) fn reach(
    troops: &[Troop],
    n: usize,
    fog: bool,
    available: TroopSet,
    sure: TroopSet,
) -> Option<Reach> {
    let k = n.checked_sub(troops.len())?;
    if k == 0 && !troops.is_empty() {
        return Some(complete(troops, n, fog));
    }
    let base: u8 = troops.iter().map(|t| t.value).sum();
    let host = |kind| -> Option<Reach> {
        // The k highest values; among equal values the sure cards first.
        let mut need = k;
        let mut sum = base;
        let mut unsure = 0u8;
        for v in (1..=10u8).rev() {
            if need == 0 {
                break;
            }
            let s = sure.intersection(available).count_value(v).min(need);
            let all = available.count_value(v).min(need);
            sum += v * all as u8;
            unsure += (all - s) as u8;
            need -= all;
        }
        (need == 0).then_some(Reach {
            strength: Strength { kind, sum },
            unsure,
        })
    };
    if fog {
        return host(FormationKind::Host);
    }
    let Shape {
        values,
        distinct,
        colors,
        one_value,
    } = Shape::of(troops);
    let starts = run_starts(values, n);
    let runs = || {
        starts
            .clone()
            .rev()
            .map(|s| (s, (((1u16 << n) - 1) << (s - 1))))
    };

    // Wedge: the highest run per colour, the best colour.
    if distinct {
        let mut best: Option<Reach> = None;
        for &c in colors {
            let row = available.color_row(c);
            let sure_row = sure.color_row(c);
            for (start, run) in runs() {
                if values & !run != 0 {
                    continue;
                }
                let missing = run & !values;
                if missing & !row == 0 {
                    let r = Reach {
                        strength: Strength {
                            kind: FormationKind::Wedge,
                            sum: run_sum(start, n),
                        },
                        unsure: (missing & !sure_row).count_ones() as u8,
                    };
                    if best.is_none_or(|b| r.strength > b.strength) {
                        best = Some(r);
                    }
                    break;
                }
            }
            // The highest run: no other colour can do better.
            if best.is_some_and(|b| b.strength.sum == run_sum(*starts.end(), n)) {
                break;
            }
        }
        if best.is_some() {
            return best;
        }
    }
    // Phalanx: the highest value with enough cards.
    let (low, high) = match (troops.is_empty(), one_value) {
        (true, _) => (1, 10),
        (false, Some(v)) => (v, v),
        (false, None) => (1, 0),
    };
    for v in (low..=high).rev() {
        let all = available.count_value(v);
        if all >= k {
            let s = sure.intersection(available).count_value(v).min(k);
            return Some(Reach {
                strength: Strength {
                    kind: FormationKind::Phalanx,
                    sum: v * n as u8,
                },
                unsure: (k - s) as u8,
            });
        }
    }
    // Battalion: the colour whose k highest cards sum most.
    let mut best: Option<Reach> = None;
    for &c in colors {
        let row = available.color_row(c);
        if (row.count_ones() as usize) < k {
            continue;
        }
        let sure_row = sure.color_row(c);
        let (mut sum, mut unsure, mut need) = (base, 0u8, k);
        for v in (1..=10u8).rev() {
            if need == 0 {
                break;
            }
            if row & (1 << (v - 1)) != 0 {
                sum += v;
                unsure += u8::from(sure_row & (1 << (v - 1)) == 0);
                need -= 1;
            }
        }
        let r = Reach {
            strength: Strength {
                kind: FormationKind::Battalion,
                sum,
            },
            unsure,
        };
        if best.is_none_or(|b| r.strength > b.strength) {
            best = Some(r);
        }
    }
    if best.is_some() {
        return best;
    }
    // Skirmish line: the highest run whose missing values all have a card.
    if distinct {
        let avail_values = available.values() >> 1;
        let sure_values = sure.intersection(available).values() >> 1;
        for (start, run) in runs() {
            if values & !run != 0 {
                continue;
            }
            let missing = run & !values;
            if missing & !avail_values == 0 {
                return Some(Reach {
                    strength: Strength {
                        kind: FormationKind::SkirmishLine,
                        sum: run_sum(start, n),
                    },
                    unsure: (missing & !sure_values).count_ones() as u8,
                });
            }
        }
    }
    host(FormationKind::Host)
}

/// [`reach`] of a complete side (`n` > 0 troops, nothing to add): the same answer without
/// looking for cards (the playouts judge complete sides often, as the cards that
/// complete a side are weighed and in every claim proof).
fn complete(troops: &[Troop], n: usize, fog: bool) -> Reach {
    let base: u8 = troops.iter().map(|t| t.value).sum();
    let strength = |kind, sum| Reach {
        strength: Strength { kind, sum },
        unsure: 0,
    };
    if fog {
        return strength(FormationKind::Host, base);
    }
    let Shape {
        values,
        distinct,
        colors,
        one_value,
    } = Shape::of(troops);
    // The values make a run: all different, from the lowest up without a gap.
    let low = values.trailing_zeros();
    let run = distinct && u32::from(values >> low) == (1u32 << n) - 1;
    let run_sum = run_sum(low as u8 + 1, n);
    if run && colors.len() == 1 {
        return strength(FormationKind::Wedge, run_sum);
    }
    if let Some(v) = one_value {
        return strength(FormationKind::Phalanx, v * n as u8);
    }
    if colors.len() == 1 {
        return strength(FormationKind::Battalion, base);
    }
    if run {
        return strength(FormationKind::SkirmishLine, run_sum);
    }
    strength(FormationKind::Host, base)
}

/// [`reach`] for any side of at most `n` cards (`cards` plus `extra`), wild morale
/// cards included: the best over the troops each wild card can stand for. Wild cards
/// may copy a troop already on the side, so a stand-in may repeat one. `None` when
/// the side holds more than `n` cards (the caller judges those by their best subset).
pub(crate) fn reach_side(
    cards: &[Card],
    extra: Option<Card>,
    n: usize,
    fog: bool,
    available: TroopSet,
    sure: TroopSet,
) -> Option<Option<Reach>> {
    let mut troops = [Troop {
        color: Color::Red,
        value: 1,
    }; 5];
    let mut len = 0;
    let mut wilds = [(0u8, 0u8); 5];
    let mut wild_len = 0;
    for card in cards.iter().chain(extra.iter()) {
        match card {
            Card::Troop(t) if len < troops.len() => {
                troops[len] = *t;
                len += 1;
            }
            Card::Tactic(t) => {
                if let Some(values) = t.wild_values()
                    && wild_len < wilds.len()
                {
                    wilds[wild_len] = (*values.start(), *values.end());
                    wild_len += 1;
                }
            }
            Card::Troop(_) => return None,
        }
    }
    if len + wild_len > n {
        return None;
    }
    Some(stand_in(
        &mut troops,
        len,
        &wilds[..wild_len],
        n,
        fog,
        available,
        sure,
    ))
}

/// Places a stand-in troop for the first of `wilds` after `troops[..len]`, every way
/// that can matter, and keeps the best reach.
fn stand_in(
    troops: &mut [Troop; 5],
    len: usize,
    wilds: &[(u8, u8)],
    n: usize,
    fog: bool,
    available: TroopSet,
    sure: TroopSet,
) -> Option<Reach> {
    let Some((&(low, high), rest)) = wilds.split_first() else {
        return reach(&troops[..len], n, fog, available, sure);
    };
    // Under Fog only the sum counts: the highest value.
    let low = if fog { high } else { low };
    // A colour formation needs the troops' one colour; with mixed colours (or Fog) the
    // colour does not matter; an empty side may take any.
    let one = [if len == 0 {
        Color::Red
    } else {
        troops[0].color
    }];
    let colors: &[Color] = if len == 0 && !fog { &Color::ALL } else { &one };
    // Nothing beats the highest wedge through the troops' values with nothing unsure.
    let lowest = troops[..len].iter().map(|t| t.value).min().unwrap_or(10);
    let ceiling = Strength {
        kind: FormationKind::Wedge,
        sum: run_sum(lowest.min(11 - n as u8), n),
    };
    let mut best: Option<Reach> = None;
    for &color in colors {
        for value in (low..=high).rev() {
            troops[len] = Troop { color, value };
            if let Some(r) = stand_in(troops, len + 1, rest, n, fog, available, sure)
                && best.is_none_or(|b| {
                    r.strength > b.strength || r.strength == b.strength && r.unsure < b.unsure
                })
            {
                if !fog && r.strength >= ceiling && r.unsure == 0 {
                    return Some(r);
                }
                best = Some(r);
            }
        }
    }
    best
}

/// The lowest values of the runs of `n` cards (values 1 to 10) that hold every value in
/// the mask `values` (bit `v - 1` for value `v`): they start at most at the lowest value
/// shown and at least `n - 1` below the highest (every run when none is shown).
pub(crate) fn run_starts(values: u16, n: usize) -> std::ops::RangeInclusive<u8> {
    let top = 11 - n as u8;
    if values == 0 {
        return 1..=top;
    }
    let low = values.trailing_zeros() as u8 + 1;
    let high = 16 - values.leading_zeros() as u8;
    (high + 1).saturating_sub(n as u8).max(1)..=low.min(top)
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::card::Card;
    use crate::formation::{Judging, best_formation};
    use seeded_rng::Rng;

    /// Mud, Fog or the ordinary rules (the ordinary ones more often).
    pub(in crate::bot) fn random_rules(rng: &mut Rng) -> Judging {
        match rng.index(5) {
            0 => Judging {
                cards: 4,
                fog: false,
            },
            1 => Judging {
                cards: 3,
                fog: true,
            },
            _ => Judging::NORMAL,
        }
    }

    /// All troops shuffled, and rules from [`random_rules`].
    fn shuffled_deck_and_rules(rng: &mut Rng) -> (Vec<Troop>, Judging) {
        let mut deck: Vec<Troop> = Troop::all().collect();
        rng.shuffle(&mut deck);
        let rules = random_rules(rng);
        (deck, rules)
    }

    #[test]
    fn reach_matches_best_formation_on_random_sides() {
        let mut rng = Rng::new(77);
        for _ in 0..20_000 {
            let (mut deck, rules) = shuffled_deck_and_rules(&mut rng);
            let on_side = rng.index(rules.cards);
            let troops: Vec<Troop> = deck.drain(..on_side).collect();
            let avail: TroopSet = deck.drain(..rng.index(40)).collect();
            let sure: TroopSet = avail
                .iter_high_first()
                .filter(|_| rng.chance(0.2))
                .collect();
            let side: Vec<Card> = troops.iter().map(|t| Card::Troop(*t)).collect();
            let expected = best_formation(&side, rules, avail);
            let got = reach(&troops, rules.cards, rules.fog, avail, sure);
            assert_eq!(
                got.map(|r| r.strength),
                expected.as_ref().map(|c| c.strength),
                "{troops:?} {rules:?} {avail:?}"
            );
            if let (Some(r), Some(c)) = (got, expected) {
                let unsure = c.added.iter().filter(|t| !sure.contains(**t)).count();
                assert!(
                    usize::from(r.unsure) <= unsure,
                    "{troops:?}: {r:?} vs {c:?}"
                );
                assert!(usize::from(r.unsure) <= c.added.len());
            }
        }
    }

    #[test]
    fn reach_of_complete_sides_matches_best_formation() {
        let mut rng = Rng::new(79);
        let mut kinds = [0usize; 5];
        for case in 0..20_000 {
            let (mut deck, rules) = shuffled_deck_and_rules(&mut rng);
            // Few colours and values often, so that every kind turns up.
            let low = 1 + rng.index(7) as u8;
            match case % 4 {
                0 => deck.retain(|t| (t.color as usize) < 2 && (low..low + 4).contains(&t.value)),
                1 => deck.retain(|t| (low..low + 2).contains(&t.value)),
                _ => {}
            }
            if deck.len() < rules.cards {
                continue;
            }
            let troops: Vec<Troop> = deck.drain(..rules.cards).collect();
            let avail: TroopSet = deck.drain(..rng.index(deck.len() + 1)).collect();
            let side: Vec<Card> = troops.iter().map(|t| Card::Troop(*t)).collect();
            let expected = best_formation(&side, rules, avail).map(|c| c.strength);
            let got = reach(&troops, rules.cards, rules.fog, avail, avail);
            assert_eq!(got.map(|r| r.strength), expected, "{troops:?} {rules:?}");
            assert_eq!(got.map(|r| r.unsure), Some(0));
            if let Some(s) = expected {
                kinds[s.kind as usize] += 1;
            }
        }
        assert!(kinds.iter().all(|&c| c > 100), "{kinds:?}");
    }

    #[test]
    fn reach_side_with_wild_cards_matches_best_formation() {
        use crate::card::Tactic;
        let wild = [
            Tactic::Alexander,
            Tactic::CompanionCavalry,
            Tactic::ShieldBearers,
        ];
        let mut rng = Rng::new(78);
        for _ in 0..20_000 {
            let (mut deck, rules) = shuffled_deck_and_rules(&mut rng);
            // Up to a full side, with up to three wild cards (one of each kind).
            let wilds = rng.index(4).min(rules.cards);
            let on_side = rng.index(rules.cards - wilds + 1);
            let mut side: Vec<Card> = deck.drain(..on_side).map(Card::Troop).collect();
            let mut kinds = wild;
            rng.shuffle(&mut kinds);
            side.extend(kinds[..wilds].iter().map(|t| Card::Tactic(*t)));
            rng.shuffle(&mut side);
            let avail: TroopSet = deck.drain(..rng.index(40)).collect();
            let sure: TroopSet = avail
                .iter_high_first()
                .filter(|_| rng.chance(0.2))
                .collect();
            let expected = best_formation(&side, rules, avail).map(|c| c.strength);
            // The last card may come as the card being added.
            let (cards, extra) = match side.split_last() {
                Some((last, rest)) if rng.chance(0.5) => (rest, Some(*last)),
                _ => (&side[..], None),
            };
            let got = reach_side(cards, extra, rules.cards, rules.fog, avail, sure)
                .expect("at most n cards");
            assert_eq!(
                got.map(|r| r.strength),
                expected,
                "{side:?} {rules:?} {avail:?}"
            );
        }
        // More cards than the flag judges are left to the caller.
        let four: Vec<Card> = Troop::all().take(4).map(Card::Troop).collect();
        assert_eq!(
            reach_side(&four, None, 3, false, TroopSet::EMPTY, TroopSet::EMPTY),
            None
        );
    }
}
