//! The best formation a side without wild cards can still reach, computed on bit masks without allocating (the playouts ask this millions of times).
//!
//! It answers what [`crate::formation::best_formation`] answers for such sides, and
//! also says how many of the added cards are not sure (not in the player's hand).

use crate::card::{Color, Troop, TroopSet};
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
    let colors: &[Color] = match (troops.is_empty(), one_color) {
        (true, _) => &Color::ALL,
        (false, Some(c)) => &Color::ALL[c as usize..=c as usize],
        (false, None) => &[],
    };
    let one_value = troops
        .first()
        .map(|f| f.value)
        .filter(|v| troops.iter().all(|t| t.value == *v));
    let runs = || {
        (1..=(11 - n as u8))
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
        }
        if best.is_some() {
            return best;
        }
    }
    // Phalanx: the highest value with enough cards.
    let phalanx_values: Vec<u8> = match (troops.is_empty(), one_value) {
        (true, _) => (1..=10).rev().collect(),
        (false, Some(v)) => vec![v],
        (false, None) => Vec::new(),
    };
    for v in phalanx_values {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::Card;
    use crate::formation::{Judging, best_formation};
    use seeded_rng::Rng;

    #[test]
    fn reach_matches_best_formation_on_random_sides() {
        let mut rng = Rng::new(77);
        let all: Vec<Troop> = Troop::all().collect();
        for _ in 0..20_000 {
            let mut deck = all.clone();
            rng.shuffle(&mut deck);
            let rules = match rng.index(5) {
                0 => Judging {
                    cards: 4,
                    fog: false,
                },
                1 => Judging {
                    cards: 3,
                    fog: true,
                },
                _ => Judging::NORMAL,
            };
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
}
