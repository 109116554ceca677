//! The 70 cards of Battle Line: troops, tactics, and a compact set of troops.

use serde::{Deserialize, Serialize};
use std::fmt;

/// The six troop colours.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Color {
    Red,
    Orange,
    Yellow,
    Green,
    Blue,
    Purple,
}

impl Color {
    /// All colours in a fixed order (the order of the bits in [`TroopSet`]).
    pub const ALL: [Color; 6] = [
        Color::Red,
        Color::Orange,
        Color::Yellow,
        Color::Green,
        Color::Blue,
        Color::Purple,
    ];

    pub(crate) fn index(self) -> usize {
        self as usize
    }
}

/// A troop card: a colour and a value from 1 to 10.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Troop {
    pub color: Color,
    pub value: u8,
}

impl Troop {
    /// A troop, or `None` when the value is outside 1..=10.
    pub fn new(color: Color, value: u8) -> Option<Troop> {
        (1..=10).contains(&value).then_some(Troop { color, value })
    }

    /// Position of this troop in a [`TroopSet`]; `None` for an invalid value.
    fn bit(self) -> Option<u32> {
        (1..=10)
            .contains(&self.value)
            .then(|| (self.color.index() * 10 + usize::from(self.value) - 1) as u32)
    }

    /// All 60 troops.
    pub fn all() -> impl Iterator<Item = Troop> {
        Color::ALL
            .into_iter()
            .flat_map(|color| (1..=10).map(move |value| Troop { color, value }))
    }
}

/// The ten tactics cards.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Tactic {
    Alexander,
    Darius,
    CompanionCavalry,
    ShieldBearers,
    Fog,
    Mud,
    Scout,
    Redeploy,
    Deserter,
    Traitor,
}

/// What a tactics card does, which decides where it may be played.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TacticKind {
    /// Played into a troop slot as a wild card.
    Morale,
    /// Played into the tactic slot of a flag.
    Environment,
    /// Played into the guile area (`field`), with a one-off effect.
    Guile,
}

impl Tactic {
    /// All tactics in a fixed order.
    pub const ALL: [Tactic; 10] = [
        Tactic::Alexander,
        Tactic::Darius,
        Tactic::CompanionCavalry,
        Tactic::ShieldBearers,
        Tactic::Fog,
        Tactic::Mud,
        Tactic::Scout,
        Tactic::Redeploy,
        Tactic::Deserter,
        Tactic::Traitor,
    ];

    /// The family of this tactic.
    pub fn kind(self) -> TacticKind {
        match self {
            Tactic::Alexander
            | Tactic::Darius
            | Tactic::CompanionCavalry
            | Tactic::ShieldBearers => TacticKind::Morale,
            Tactic::Fog | Tactic::Mud => TacticKind::Environment,
            Tactic::Scout | Tactic::Redeploy | Tactic::Deserter | Tactic::Traitor => {
                TacticKind::Guile
            }
        }
    }

    /// Alexander and Darius: a player may only ever play one of them.
    pub fn is_leader(self) -> bool {
        matches!(self, Tactic::Alexander | Tactic::Darius)
    }

    /// The values this card may take when a formation is judged (morale cards only).
    pub fn wild_values(self) -> Option<std::ops::RangeInclusive<u8>> {
        match self {
            Tactic::Alexander | Tactic::Darius => Some(1..=10),
            Tactic::CompanionCavalry => Some(8..=8),
            Tactic::ShieldBearers => Some(1..=3),
            _ => None,
        }
    }

    /// A one-line rules text for the card-info panel.
    pub fn rules_text(self) -> &'static str {
        match self {
            Tactic::Alexander | Tactic::Darius => {
                "Leader: any colour, any value, chosen when the flag is judged. One leader per player."
            }
            Tactic::CompanionCavalry => "Any colour, value 8, chosen when the flag is judged.",
            Tactic::ShieldBearers => "Any colour, value 1, 2 or 3, chosen when the flag is judged.",
            Tactic::Fog => {
                "This flag is decided by the sum of values only; formations do not count."
            }
            Tactic::Mud => "Both sides of this flag need 4 cards; formations are of 4 cards.",
            Tactic::Scout => {
                "Draw 3 cards from any mix of the decks, then put 2 cards from your hand back on top of their decks."
            }
            Tactic::Redeploy => {
                "Move one of your cards from an unclaimed flag to another unclaimed flag, or discard it."
            }
            Tactic::Deserter => "Discard one of your opponent's cards from an unclaimed flag.",
            Tactic::Traitor => {
                "Take one of your opponent's troop cards from an unclaimed flag and place it on your side of an unclaimed flag."
            }
        }
    }
}

/// Any card.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Card {
    Troop(Troop),
    Tactic(Tactic),
}

impl Card {
    /// The troop inside, if this is a troop card.
    pub fn troop(self) -> Option<Troop> {
        match self {
            Card::Troop(t) => Some(t),
            Card::Tactic(_) => None,
        }
    }

    /// The tactic inside, if this is a tactics card.
    pub fn tactic(self) -> Option<Tactic> {
        match self {
            Card::Tactic(t) => Some(t),
            Card::Troop(_) => None,
        }
    }

    /// A card that goes into a troop slot: a troop or a morale tactic.
    pub fn fits_troop_slot(self) -> bool {
        match self {
            Card::Troop(_) => true,
            Card::Tactic(t) => t.kind() == TacticKind::Morale,
        }
    }
}

impl From<Troop> for Card {
    fn from(t: Troop) -> Card {
        Card::Troop(t)
    }
}

impl From<Tactic> for Card {
    fn from(t: Tactic) -> Card {
        Card::Tactic(t)
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

impl fmt::Display for Troop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.color, self.value)
    }
}

impl fmt::Display for Tactic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = match self {
            Tactic::CompanionCavalry => "Companion Cavalry",
            Tactic::ShieldBearers => "Shield Bearers",
            other => return fmt::Debug::fmt(other, f),
        };
        f.write_str(name)
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Card::Troop(t) => t.fmt(f),
            Card::Tactic(t) => t.fmt(f),
        }
    }
}

/// A set of troop cards as 60 bits, so the claim search can test membership in O(1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct TroopSet(u64);

impl TroopSet {
    /// The empty set.
    pub const EMPTY: TroopSet = TroopSet(0);

    /// Adds a troop (troops with invalid values are ignored).
    pub fn insert(&mut self, t: Troop) {
        if let Some(b) = t.bit() {
            self.0 |= 1 << b;
        }
    }

    /// Removes a troop.
    pub fn remove(&mut self, t: Troop) {
        if let Some(b) = t.bit() {
            self.0 &= !(1 << b);
        }
    }

    /// Whether the troop is in the set.
    pub fn contains(self, t: Troop) -> bool {
        t.bit().is_some_and(|b| self.0 & (1 << b) != 0)
    }

    /// Number of troops in the set.
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set is empty.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The troops in either set.
    pub fn union(self, other: TroopSet) -> TroopSet {
        TroopSet(self.0 | other.0)
    }

    /// The troops of `self` that are not in `other`.
    pub fn difference(self, other: TroopSet) -> TroopSet {
        TroopSet(self.0 & !other.0)
    }

    /// The ten bits of `color`'s troops (bit v-1 = value v).
    pub fn color_row(self, color: Color) -> u16 {
        ((self.0 >> (color.index() * 10)) & 0x3FF) as u16
    }

    /// How many troops of `color` the set holds.
    pub fn count_color(self, color: Color) -> usize {
        ((self.0 >> (color.index() * 10)) & 0x3FF).count_ones() as usize
    }

    /// How many troops of `value` the set holds.
    pub fn count_value(self, value: u8) -> usize {
        if !(1..=10).contains(&value) {
            return 0;
        }
        // One bit per colour, ten bits apart.
        const EVERY_TENTH: u64 = 1 | 1 << 10 | 1 << 20 | 1 << 30 | 1 << 40 | 1 << 50;
        (self.0 & (EVERY_TENTH << (value - 1))).count_ones() as usize
    }

    /// The values the set shows, as bits 1..=10 of a mask.
    pub fn values(self) -> u16 {
        (1..=10u8).fold(0, |m, v| {
            if self.count_value(v) > 0 {
                m | 1 << v
            } else {
                m
            }
        })
    }

    /// The troops in both sets.
    pub fn intersection(self, other: TroopSet) -> TroopSet {
        TroopSet(self.0 & other.0)
    }

    /// The troops, highest value first (then by colour), which is the order the
    /// searches want when they look for the largest sums.
    pub fn iter_high_first(self) -> impl Iterator<Item = Troop> {
        (1..=10u8).rev().flat_map(move |value| {
            Color::ALL
                .into_iter()
                .map(move |color| Troop { color, value })
                .filter(move |t| self.contains(*t))
        })
    }
}

impl FromIterator<Troop> for TroopSet {
    fn from_iter<I: IntoIterator<Item = Troop>>(iter: I) -> Self {
        let mut s = TroopSet::EMPTY;
        for t in iter {
            s.insert(t);
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sixty_distinct_troops_fit_in_the_set() {
        let all: TroopSet = Troop::all().collect();
        assert_eq!(all.len(), 60);
        assert_eq!(all.iter_high_first().count(), 60);
        assert_eq!(all.iter_high_first().next().map(|t| t.value), Some(10));
    }

    #[test]
    fn counts_by_colour_and_value() {
        let s: TroopSet = [
            Troop {
                color: Color::Red,
                value: 10,
            },
            Troop {
                color: Color::Purple,
                value: 10,
            },
            Troop {
                color: Color::Purple,
                value: 1,
            },
        ]
        .into_iter()
        .collect();
        assert_eq!(s.count_color(Color::Purple), 2);
        assert_eq!(s.count_color(Color::Blue), 0);
        assert_eq!(s.count_value(10), 2);
        assert_eq!(s.count_value(1), 1);
        assert_eq!(s.count_value(11), 0);
        assert_eq!(s.values(), 1 << 10 | 1 << 1);
    }

    #[test]
    fn invalid_values_are_rejected() {
        assert_eq!(Troop::new(Color::Red, 0), None);
        assert_eq!(Troop::new(Color::Red, 11), None);
        let mut s = TroopSet::EMPTY;
        s.insert(Troop {
            color: Color::Red,
            value: 11,
        });
        assert!(s.is_empty());
    }

    #[test]
    fn tactic_kinds() {
        assert_eq!(Tactic::Alexander.kind(), TacticKind::Morale);
        assert_eq!(Tactic::Mud.kind(), TacticKind::Environment);
        assert_eq!(Tactic::Traitor.kind(), TacticKind::Guile);
        assert!(Card::from(Tactic::ShieldBearers).fits_troop_slot());
        assert!(!Card::from(Tactic::Fog).fits_troop_slot());
    }
}
