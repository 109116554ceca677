//! Formation judging: ranks a side of a flag, and finds the best way an incomplete side could still be completed.
//!
//! The claim proof asks "can the opponent still beat this?". Instead of trying every
//! combination of unseen cards, [`best_formation`] walks the formation kinds from the
//! strongest down and, inside a kind, the candidate formations from the highest sum
//! down; the first one the unseen cards can supply is the opponent's best possible
//! result. That is exact (a completion that beats the claim is found by the kind it
//! forms) and costs at most a few hundred set look-ups.

use crate::card::{Card, Color, Tactic, Troop, TroopSet};
use serde::{Deserialize, Serialize};
use std::fmt;

/// The formation kinds, weakest first so that the derived order ranks them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum FormationKind {
    /// Any cards.
    Host,
    /// Consecutive values.
    SkirmishLine,
    /// Same colour.
    Battalion,
    /// Same value.
    Phalanx,
    /// Same colour and consecutive values.
    Wedge,
}

impl fmt::Display for FormationKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FormationKind::Host => "host",
            FormationKind::SkirmishLine => "skirmish line",
            FormationKind::Battalion => "battalion",
            FormationKind::Phalanx => "phalanx",
            FormationKind::Wedge => "wedge",
        })
    }
}

/// How strong a complete side is: kind first, then the sum of values. Under Fog
/// every side counts as a host, so only the sum decides. Ties are broken outside
/// (the side completed first wins).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Strength {
    pub kind: FormationKind,
    pub sum: u8,
}

impl fmt::Display for Strength {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} totalling {}", self.kind, self.sum)
    }
}

/// The judging rules at one flag.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Judging {
    /// Cards in a complete side: 3, or 4 with Mud.
    pub cards: usize,
    /// Fog: the sum alone decides.
    pub fog: bool,
}

impl Judging {
    /// The ordinary rules: 3 cards, formations count.
    pub const NORMAL: Judging = Judging {
        cards: 3,
        fog: false,
    };
}

/// The best formation a side reaches, and which unseen troops it had to add.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Completion {
    pub strength: Strength,
    /// Troops taken from the available set to complete the side (empty for a complete side).
    pub added: Vec<Troop>,
}

/// The best formation `cards` can form under `rules`, completing it from `available`
/// when it has fewer cards than needed. A side with more cards than needed (Mud was
/// removed after 4 cards were down) is judged by its best subset of the right size.
/// Non-morale tactics in `cards` are ignored. `None`: the side cannot be completed.
pub fn best_formation(cards: &[Card], rules: Judging, available: TroopSet) -> Option<Completion> {
    best_by(cards, rules, available, None)
}

/// The best completion of `cards` whose cards meet `kind`'s condition (a wedge: one
/// colour, consecutive values; a phalanx: one value; a battalion: one colour; a
/// skirmish line: consecutive values; a host: any cards), completing it from
/// `available`. The strength reports `kind` even when the same cards would also
/// judge higher (a wedge is a battalion too). Under Fog only `Host` exists.
pub fn best_of_kind(
    cards: &[Card],
    rules: Judging,
    kind: FormationKind,
    available: TroopSet,
) -> Option<Completion> {
    best_by(cards, rules, available, Some(kind))
}

/// A side's troops and its wild morale tactics (Leaders, Companion Cavalry, Shield
/// Bearers); the other tactics do not count toward a formation.
pub(crate) fn troops_and_wilds(cards: &[Card]) -> (Vec<Troop>, Vec<Tactic>) {
    let mut troops = Vec::with_capacity(4);
    let mut wilds = Vec::with_capacity(3);
    for c in cards {
        match *c {
            Card::Troop(t) => troops.push(t),
            Card::Tactic(t) if t.wild_values().is_some() => wilds.push(t),
            Card::Tactic(_) => {}
        }
    }
    (troops, wilds)
}

fn best_by(
    cards: &[Card],
    rules: Judging,
    available: TroopSet,
    kind: Option<FormationKind>,
) -> Option<Completion> {
    let (troops, wilds) = troops_and_wilds(cards);
    let n = rules.cards;
    let total = troops.len() + wilds.len();
    if total < n {
        return complete(&troops, &wilds, n, rules.fog, available, kind);
    }
    // Judge every subset of exactly n cards; sides hold at most 4 cards so this is tiny.
    let mut best: Option<Completion> = None;
    let all: Vec<Card> = troops
        .iter()
        .map(|t| Card::Troop(*t))
        .chain(wilds.iter().map(|w| Card::Tactic(*w)))
        .collect();
    if all.len() > 16 {
        return None;
    }
    for mask in 0u32..(1 << all.len()) {
        if mask.count_ones() as usize != n {
            continue;
        }
        let sub_troops: Vec<Troop> = (0..all.len())
            .filter(|i| mask & (1 << i) != 0)
            .filter_map(|i| all[i].troop())
            .collect();
        let sub_wilds: Vec<Tactic> = (0..all.len())
            .filter(|i| mask & (1 << i) != 0)
            .filter_map(|i| all[i].tactic())
            .collect();
        if let Some(c) = complete(&sub_troops, &sub_wilds, n, rules.fog, TroopSet::EMPTY, kind)
            && best.as_ref().is_none_or(|b| c.strength > b.strength)
        {
            best = Some(c);
        }
    }
    best
}

fn wild_max(w: Tactic) -> u8 {
    w.wild_values().map_or(0, |r| *r.end())
}

fn wild_accepts(w: Tactic, v: u8) -> bool {
    w.wild_values().is_some_and(|r| r.contains(&v))
}

/// The `k` highest troops of `set` (optionally of one colour), or `None` if there are fewer.
fn top_k(set: TroopSet, k: usize, color: Option<Color>) -> Option<Vec<Troop>> {
    let picked: Vec<Troop> = set
        .iter_high_first()
        .filter(|t| color.is_none_or(|c| t.color == c))
        .take(k)
        .collect();
    (picked.len() == k).then_some(picked)
}

/// Assigns each wild to a distinct missing value it can stand for; every value left
/// must be supplied by `supply`. Returns the supplied troops.
fn fill(
    missing: &[u8],
    wilds: &[Tactic],
    supply: &dyn Fn(u8) -> Option<Troop>,
) -> Option<Vec<Troop>> {
    match wilds.split_first() {
        None => missing.iter().map(|v| supply(*v)).collect(),
        Some((w, rest)) => {
            for (i, v) in missing.iter().enumerate() {
                if wild_accepts(*w, *v) {
                    let mut left = missing.to_vec();
                    left.remove(i);
                    if let Some(found) = fill(&left, rest, supply) {
                        return Some(found);
                    }
                }
            }
            None
        }
    }
}

fn sum_of(troops: &[Troop]) -> u8 {
    troops.iter().map(|t| t.value).sum()
}

/// The best completion of exactly `n` cards from `troops`, `wilds` and `available`;
/// with `only`, the best one of that kind.
fn complete(
    troops: &[Troop],
    wilds: &[Tactic],
    n: usize,
    fog: bool,
    available: TroopSet,
    only: Option<FormationKind>,
) -> Option<Completion> {
    let have = troops.len() + wilds.len();
    if have > n {
        return None;
    }
    let k = n - have;
    let base = sum_of(troops) + wilds.iter().map(|w| wild_max(*w)).sum::<u8>();
    let host = |kind| {
        top_k(available, k, None).map(|added| Completion {
            strength: Strength {
                kind,
                sum: base + sum_of(&added),
            },
            added,
        })
    };
    if fog {
        return only
            .is_none_or(|k| k == FormationKind::Host)
            .then(|| host(FormationKind::Host))
            .flatten();
    }
    match only {
        None => wedge(troops, wilds, n, available)
            .or_else(|| phalanx(troops, wilds, k, n, available))
            .or_else(|| battalion(troops, k, base, available))
            .or_else(|| skirmish_line(troops, wilds, n, available))
            .or_else(|| host(FormationKind::Host)),
        Some(FormationKind::Wedge) => wedge(troops, wilds, n, available),
        Some(FormationKind::Phalanx) => phalanx(troops, wilds, k, n, available),
        Some(FormationKind::Battalion) => battalion(troops, k, base, available),
        Some(FormationKind::SkirmishLine) => skirmish_line(troops, wilds, n, available),
        Some(FormationKind::Host) => host(FormationKind::Host),
    }
}

/// Values `start..start+n` not shown by `troops`, or `None` if a troop lies outside
/// the run or two troops share a value.
fn missing_in_run(troops: &[Troop], start: u8, n: usize) -> Option<Vec<u8>> {
    let end = start + n as u8; // exclusive
    let mut seen = 0u16;
    for t in troops {
        if t.value < start || t.value >= end || seen & (1 << t.value) != 0 {
            return None;
        }
        seen |= 1 << t.value;
    }
    Some((start..end).filter(|v| seen & (1 << v) == 0).collect())
}

fn run_sum(start: u8, n: usize) -> u8 {
    (0..n as u8).map(|i| start + i).sum()
}

fn wedge(troops: &[Troop], wilds: &[Tactic], n: usize, available: TroopSet) -> Option<Completion> {
    let mut best: Option<Completion> = None;
    for color in Color::ALL {
        if troops.iter().any(|t| t.color != color) {
            continue;
        }
        // Highest run first: the first feasible run is this colour's best.
        for start in (1..=(11 - n as u8)).rev() {
            let Some(missing) = missing_in_run(troops, start, n) else {
                continue;
            };
            let supply = |v| {
                let t = Troop { color, value: v };
                available.contains(t).then_some(t)
            };
            if let Some(added) = fill(&missing, wilds, &supply) {
                let strength = Strength {
                    kind: FormationKind::Wedge,
                    sum: run_sum(start, n),
                };
                if best.as_ref().is_none_or(|b| strength > b.strength) {
                    best = Some(Completion { strength, added });
                }
                break;
            }
        }
    }
    best
}

fn phalanx(
    troops: &[Troop],
    wilds: &[Tactic],
    k: usize,
    n: usize,
    available: TroopSet,
) -> Option<Completion> {
    for v in (1..=10u8).rev() {
        if troops.iter().any(|t| t.value != v) || wilds.iter().any(|w| !wild_accepts(*w, v)) {
            continue;
        }
        let added: Vec<Troop> = available
            .iter_high_first()
            .filter(|t| t.value == v)
            .take(k)
            .collect();
        if added.len() == k {
            return Some(Completion {
                strength: Strength {
                    kind: FormationKind::Phalanx,
                    sum: v * n as u8,
                },
                added,
            });
        }
    }
    None
}

fn battalion(troops: &[Troop], k: usize, base: u8, available: TroopSet) -> Option<Completion> {
    let mut best: Option<Completion> = None;
    for color in Color::ALL {
        if troops.iter().any(|t| t.color != color) {
            continue;
        }
        if let Some(added) = top_k(available, k, Some(color)) {
            let strength = Strength {
                kind: FormationKind::Battalion,
                sum: base + sum_of(&added),
            };
            if best.as_ref().is_none_or(|b| strength > b.strength) {
                best = Some(Completion { strength, added });
            }
        }
    }
    best
}

fn skirmish_line(
    troops: &[Troop],
    wilds: &[Tactic],
    n: usize,
    available: TroopSet,
) -> Option<Completion> {
    for start in (1..=(11 - n as u8)).rev() {
        let Some(missing) = missing_in_run(troops, start, n) else {
            continue;
        };
        let supply = |v| available.iter_high_first().find(|t| t.value == v);
        if let Some(added) = fill(&missing, wilds, &supply) {
            return Some(Completion {
                strength: Strength {
                    kind: FormationKind::SkirmishLine,
                    sum: run_sum(start, n),
                },
                added,
            });
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::Color::*;

    fn t(color: Color, value: u8) -> Card {
        Card::Troop(Troop { color, value })
    }

    fn judge(cards: &[Card], rules: Judging) -> Option<Strength> {
        best_formation(cards, rules, TroopSet::EMPTY).map(|c| c.strength)
    }

    fn s(kind: FormationKind, sum: u8) -> Option<Strength> {
        Some(Strength { kind, sum })
    }

    use FormationKind::*;
    const MUD: Judging = Judging {
        cards: 4,
        fog: false,
    };
    const FOG: Judging = Judging {
        cards: 3,
        fog: true,
    };

    #[test]
    fn formation_ranking_table() {
        let a = Card::Tactic(Tactic::Alexander);
        let cav = Card::Tactic(Tactic::CompanionCavalry);
        let sb = Card::Tactic(Tactic::ShieldBearers);
        let cases: Vec<(Vec<Card>, Judging, Option<Strength>)> = vec![
            (
                vec![t(Red, 1), t(Red, 2), t(Red, 3)],
                Judging::NORMAL,
                s(Wedge, 6),
            ),
            (
                vec![t(Red, 10), t(Red, 8), t(Red, 9)],
                Judging::NORMAL,
                s(Wedge, 27),
            ),
            (
                vec![t(Red, 7), t(Blue, 7), t(Green, 7)],
                Judging::NORMAL,
                s(Phalanx, 21),
            ),
            (
                vec![t(Red, 1), t(Red, 5), t(Red, 9)],
                Judging::NORMAL,
                s(Battalion, 15),
            ),
            (
                vec![t(Red, 4), t(Blue, 5), t(Red, 6)],
                Judging::NORMAL,
                s(SkirmishLine, 15),
            ),
            (
                vec![t(Red, 4), t(Blue, 5), t(Red, 7)],
                Judging::NORMAL,
                s(Host, 16),
            ),
            (vec![t(Red, 1), t(Blue, 2)], Judging::NORMAL, None),
            // Wild cards take their best value.
            (
                vec![t(Red, 9), t(Red, 10), a],
                Judging::NORMAL,
                s(Wedge, 27),
            ),
            (vec![t(Red, 1), t(Red, 3), a], Judging::NORMAL, s(Wedge, 6)),
            (
                vec![t(Red, 9), t(Red, 10), cav],
                Judging::NORMAL,
                s(Wedge, 27),
            ),
            (vec![t(Red, 1), t(Red, 2), sb], Judging::NORMAL, s(Wedge, 6)),
            (
                vec![t(Blue, 3), t(Green, 3), sb],
                Judging::NORMAL,
                s(Phalanx, 9),
            ),
            (
                vec![t(Blue, 8), t(Green, 8), cav],
                Judging::NORMAL,
                s(Phalanx, 24),
            ),
            (
                vec![t(Blue, 1), t(Blue, 6), cav],
                Judging::NORMAL,
                s(Battalion, 15),
            ),
            (vec![a, cav, sb], Judging::NORMAL, s(Battalion, 21)),
            (
                vec![t(Red, 5), t(Blue, 9), sb],
                Judging::NORMAL,
                s(Host, 17),
            ),
            // Mud: four cards.
            (
                vec![t(Red, 1), t(Red, 2), t(Red, 3), t(Red, 4)],
                MUD,
                s(Wedge, 10),
            ),
            (
                vec![t(Red, 1), t(Blue, 1), t(Green, 1), t(Purple, 1)],
                MUD,
                s(Phalanx, 4),
            ),
            (vec![t(Red, 1), t(Red, 2), t(Red, 3)], MUD, None),
            // Fog: sum only.
            (vec![t(Red, 1), t(Red, 2), t(Red, 3)], FOG, s(Host, 6)),
            (vec![t(Red, 9), t(Blue, 2), a], FOG, s(Host, 21)),
            // Fog + Mud: four-card sum.
            (
                vec![t(Red, 9), t(Blue, 2), t(Red, 3), t(Red, 4)],
                Judging {
                    cards: 4,
                    fog: true,
                },
                s(Host, 18),
            ),
            // Mud removed with 4 cards down: the best 3 count.
            (
                vec![t(Red, 1), t(Red, 9), t(Red, 10), t(Red, 8)],
                Judging::NORMAL,
                s(Wedge, 27),
            ),
        ];
        for (cards, rules, expected) in cases {
            assert_eq!(judge(&cards, rules), expected, "{cards:?} under {rules:?}");
        }
    }

    #[test]
    fn kinds_outrank_sums() {
        let wedge = Strength {
            kind: Wedge,
            sum: 6,
        };
        let phalanx = Strength {
            kind: Phalanx,
            sum: 30,
        };
        assert!(wedge > phalanx);
        assert!(
            Strength {
                kind: Host,
                sum: 27
            } < Strength {
                kind: SkirmishLine,
                sum: 6
            }
        );
        assert!(
            Strength {
                kind: Battalion,
                sum: 20
            } > Strength {
                kind: Battalion,
                sum: 19
            }
        );
    }

    #[test]
    fn completion_uses_available_cards_and_reports_them() {
        let available: TroopSet = [
            Troop {
                color: Blue,
                value: 5,
            },
            Troop {
                color: Red,
                value: 6,
            },
        ]
        .into_iter()
        .collect();
        let c = best_formation(&[t(Red, 4), t(Red, 5)], Judging::NORMAL, available)
            .expect("completable");
        assert_eq!(
            c.strength,
            Strength {
                kind: Wedge,
                sum: 15
            }
        );
        assert_eq!(
            c.added,
            vec![Troop {
                color: Red,
                value: 6
            }]
        );
        assert!(best_formation(&[t(Red, 4), t(Red, 5)], MUD, available).is_some());
        assert!(best_formation(&[t(Red, 4)], MUD, available).is_none());
    }
}
