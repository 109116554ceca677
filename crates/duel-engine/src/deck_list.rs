//! Decks of the player's own: a list of cards from the simulator's pool, the rules that
//! make it legal, and the goals it can play for.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::card::{CardDef, Code, Frame, card, catalog};
use crate::deck::{DeckDef, expand};
use crate::effect::RuleDef;
use crate::state::{Outcome, Reason};

/// The fewest cards a main deck holds.
pub const MAIN_MIN: usize = 40;
/// The most cards a main deck holds.
pub const MAIN_MAX: usize = 60;
/// The most cards an Extra Deck holds.
pub const EXTRA_MAX: usize = 15;
/// The most copies of one card in a deck (main and Extra together).
pub const COPIES_MAX: usize = 3;

/// A deck as a list of `(passcode, copies)`, main and Extra Deck, each passcode once,
/// in the order the cards were first added.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct DeckList {
    pub main: Vec<(Code, u8)>,
    pub extra: Vec<(Code, u8)>,
    /// The goal the player chose for a deck whose cards reach both (`None`: the first
    /// of [`DeckList::goals`]); see [`DeckList::goal`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub goal: Option<Reason>,
}

/// Something that makes a deck list illegal or unplayable here.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error, Serialize, Deserialize)]
pub enum DeckProblem {
    #[error("the main deck holds {0} cards, fewer than {MAIN_MIN}")]
    MainTooSmall(usize),
    #[error("the main deck holds {0} cards, more than {MAIN_MAX}")]
    MainTooLarge(usize),
    #[error("the Extra Deck holds {0} cards, more than {EXTRA_MAX}")]
    ExtraTooLarge(usize),
    #[error("card {code} is in the deck {copies} times, more than {COPIES_MAX}")]
    TooManyCopies { code: Code, copies: usize },
    #[error("card {0} is not one the simulator implements")]
    UnknownCard(Code),
    #[error("card {0} is an Extra Deck monster in the main deck")]
    ExtraMonsterInMain(Code),
    #[error("card {0} cannot go in the Extra Deck")]
    NotExtraCard(Code),
    #[error("the deck has no way to win: neither all five Exodia pieces nor a card that burns")]
    NoWayToWin,
}

/// Why a card cannot be added to a deck list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error, Serialize, Deserialize)]
pub enum AddError {
    #[error("card {0} is not one the simulator implements")]
    UnknownCard(Code),
    #[error("the deck already holds {COPIES_MAX} copies of card {0}")]
    TooManyCopies(Code),
    #[error("the {0} is full")]
    Full(Part),
}

/// The part of a deck a card goes to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Part {
    Main,
    Extra,
}

impl std::fmt::Display for Part {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Part::Main => "main deck",
            Part::Extra => "Extra Deck",
        })
    }
}

/// Whether a card goes to the Extra Deck (Fusion and Synchro monsters).
pub fn extra_deck_card(def: &CardDef) -> bool {
    matches!(def.frame, Frame::Fusion | Frame::Synchro)
}

/// Every card a deck may hold: the cards the simulator implements, by passcode. Tokens
/// are made by effects, never put in a deck.
pub fn pool() -> impl Iterator<Item = &'static CardDef> {
    catalog().iter().filter(|c| c.frame != Frame::Token)
}

impl From<&DeckDef> for DeckList {
    fn from(d: &DeckDef) -> DeckList {
        let mut list = DeckList::default();
        for code in d.main_codes() {
            list.put(Part::Main, code);
        }
        for code in d.extra_codes() {
            list.put(Part::Extra, code);
        }
        list
    }
}

impl DeckList {
    fn part(&self, part: Part) -> &Vec<(Code, u8)> {
        match part {
            Part::Main => &self.main,
            Part::Extra => &self.extra,
        }
    }

    fn part_mut(&mut self, part: Part) -> &mut Vec<(Code, u8)> {
        match part {
            Part::Main => &mut self.main,
            Part::Extra => &mut self.extra,
        }
    }

    /// One more copy of `code` in `part`, whatever the rules say (imports keep what the
    /// file holds, and [`DeckList::problems`] says what is wrong with it).
    pub(crate) fn put(&mut self, part: Part, code: Code) {
        let list = self.part_mut(part);
        match list.iter_mut().find(|(c, _)| *c == code) {
            Some((_, n)) => *n = n.saturating_add(1),
            None => list.push((code, 1)),
        }
    }

    /// Adds one copy of `code` to the part of the deck it belongs in (Fusion and Synchro
    /// monsters to the Extra Deck), unless the card is unknown, the deck already holds
    /// [`COPIES_MAX`] copies or that part is full. Nothing changes on an error.
    pub fn add(&mut self, code: Code) -> Result<Part, AddError> {
        let def = card(code)
            .filter(|c| c.frame != Frame::Token)
            .ok_or(AddError::UnknownCard(code))?;
        if self.copies(code) >= COPIES_MAX {
            return Err(AddError::TooManyCopies(code));
        }
        let part = if extra_deck_card(def) {
            Part::Extra
        } else {
            Part::Main
        };
        let max = match part {
            Part::Main => MAIN_MAX,
            Part::Extra => EXTRA_MAX,
        };
        if self.count(part) >= max {
            return Err(AddError::Full(part));
        }
        self.put(part, code);
        Ok(part)
    }

    /// Removes one copy of `code` (from the main deck first); `false` when the deck holds
    /// none.
    pub fn remove(&mut self, code: Code) -> bool {
        for part in [Part::Main, Part::Extra] {
            let list = self.part_mut(part);
            if let Some(i) = list.iter().position(|(c, _)| *c == code) {
                if list[i].1 > 1 {
                    list[i].1 -= 1;
                } else {
                    list.remove(i);
                }
                return true;
            }
        }
        false
    }

    /// How many cards `part` holds.
    pub fn count(&self, part: Part) -> usize {
        self.part(part).iter().map(|&(_, n)| usize::from(n)).sum()
    }

    /// How many copies of `code` the deck holds, main and Extra together.
    pub fn copies(&self, code: Code) -> usize {
        self.main
            .iter()
            .chain(&self.extra)
            .filter(|(c, _)| *c == code)
            .map(|&(_, n)| usize::from(n))
            .sum()
    }

    /// Every main-deck card, one entry per copy, in list order.
    pub fn main_codes(&self) -> Vec<Code> {
        expand(&self.main)
    }

    /// Every Extra Deck card, one entry per copy.
    pub fn extra_codes(&self) -> Vec<Code> {
        expand(&self.extra)
    }

    /// What makes the deck illegal or unplayable, each problem once, in a fixed order:
    /// sizes, then cards by their place in the list. Empty for a deck that can be played.
    pub fn problems(&self) -> Vec<DeckProblem> {
        let mut out = Vec::new();
        self.each_problem(&mut |p| {
            out.push(p);
            true
        });
        out
    }

    /// The first of [`DeckList::problems`], found without looking for the others (what
    /// `Duel::dealt` refuses a list with).
    pub fn first_problem(&self) -> Option<DeckProblem> {
        let mut first = None;
        self.each_problem(&mut |p| {
            first = Some(p);
            false
        });
        first
    }

    /// Tells `found` each problem in [`DeckList::problems`]' order until it answers
    /// `false`. Plain loops and one callback type: the duel page's bundle links this for
    /// a shared deck list, and iterator chains weighed more there.
    fn each_problem(&self, found: &mut dyn FnMut(DeckProblem) -> bool) {
        let main = self.count(Part::Main);
        let extra = self.count(Part::Extra);
        let sizes = [
            (main < MAIN_MIN).then_some(DeckProblem::MainTooSmall(main)),
            (main > MAIN_MAX).then_some(DeckProblem::MainTooLarge(main)),
            (extra > EXTRA_MAX).then_some(DeckProblem::ExtraTooLarge(extra)),
        ];
        for p in sizes.into_iter().flatten() {
            if !found(p) {
                return;
            }
        }
        let entries = [(Part::Main, &self.main), (Part::Extra, &self.extra)];
        for (part, list) in entries {
            for (i, &(code, _)) in list.iter().enumerate() {
                let misplaced = match card(code).filter(|c| c.frame != Frame::Token) {
                    None => Some(DeckProblem::UnknownCard(code)),
                    Some(def) => match (part, extra_deck_card(def)) {
                        (Part::Main, true) => Some(DeckProblem::ExtraMonsterInMain(code)),
                        (Part::Extra, false) => Some(DeckProblem::NotExtraCard(code)),
                        _ => None,
                    },
                };
                if let Some(p) = misplaced
                    && !found(p)
                {
                    return;
                }
                // Each card's copies once: at its first entry, main deck first.
                let earlier = match part {
                    Part::Main => &self.main[..i],
                    Part::Extra => &self.main[..],
                };
                let seen = earlier.iter().any(|&(c, _)| c == code)
                    || (part == Part::Extra && self.extra[..i].iter().any(|&(c, _)| c == code));
                let copies = self.copies(code);
                if copies > COPIES_MAX
                    && !seen
                    && !found(DeckProblem::TooManyCopies { code, copies })
                {
                    return;
                }
            }
        }
        let (exodia, burns) = self.ways_to_win();
        if !exodia && !burns {
            found(DeckProblem::NoWayToWin);
        }
    }

    /// The goals the deck can play for, read from its cards: Exodia when it holds a card
    /// that wins with pieces in hand and all of those pieces; a burn (the opponent's LP
    /// to 0) when a main-deck or Extra Deck card has an effect that deals damage. Exodia
    /// comes first when both are possible.
    pub fn goals(&self) -> Vec<Outcome> {
        let (exodia, burns) = self.ways_to_win();
        let mut out = Vec::new();
        if exodia {
            out.push(Outcome::Win(Reason::Exodia));
        }
        if burns {
            out.push(Outcome::Win(Reason::Lp0));
        }
        out
    }

    /// The goal the deck plays for (what the statistics and the hint solve for): the
    /// one the player chose when its cards reach it, otherwise the first of
    /// [`DeckList::goals`]; `None` when it reaches none.
    pub fn goal(&self) -> Option<Outcome> {
        let goals = self.goals();
        self.goal
            .map(Outcome::Win)
            .filter(|g| goals.contains(g))
            .or_else(|| goals.first().copied())
    }

    /// Whether the deck can win by Exodia, and by burn ([`DeckList::goals`]).
    fn ways_to_win(&self) -> (bool, bool) {
        let in_main = |code: Code| self.main.iter().any(|&(c, _)| c == code);
        let (mut exodia, mut burns) = (false, false);
        for list in [&self.main, &self.extra] {
            for &(code, _) in list {
                let Some(def) = card(code) else {
                    continue;
                };
                for rule in &def.rules {
                    if let RuleDef::WinWithAllInHand { pieces } = rule {
                        exodia |= in_main(def.code) && pieces.iter().all(|&p| in_main(p));
                    }
                }
                burns |= crate::data::burners().contains(&def.code);
            }
        }
        (exodia, burns)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deck::decks;

    #[test]
    fn every_preset_deck_is_a_legal_list_with_the_goal_its_cards_say() {
        for d in decks() {
            let list = DeckList::from(d);
            assert_eq!(list.problems(), vec![], "{}", d.id);
            assert_eq!(list.main_codes().len(), 40);
            let goal = crate::stats::goal_of(&d.id).expect("preset");
            assert_eq!(list.goals().first(), Some(&goal), "{}", d.id);
        }
    }

    #[test]
    fn an_empty_deck_is_too_small_and_has_no_way_to_win() {
        assert_eq!(
            DeckList::default().problems(),
            vec![DeckProblem::MainTooSmall(0), DeckProblem::NoWayToWin]
        );
    }

    #[test]
    fn adding_refuses_a_fourth_copy_an_unknown_card_and_a_full_deck_and_changes_nothing() {
        let pot = 55_144_522; // Pot of Greed
        let mut list = DeckList::default();
        for _ in 0..3 {
            assert_eq!(list.add(pot), Ok(Part::Main));
        }
        let before = list.clone();
        assert_eq!(list.add(pot), Err(AddError::TooManyCopies(pot)));
        assert_eq!(list.add(1), Err(AddError::UnknownCard(1)));
        assert_eq!(list, before);
        // Fill the main deck to 60 with three copies of twenty cards.
        let mut full = DeckList::default();
        for def in pool().filter(|c| !extra_deck_card(c)).take(20) {
            for _ in 0..3 {
                assert!(full.add(def.code).is_ok());
            }
        }
        assert_eq!(full.count(Part::Main), MAIN_MAX);
        let other = pool()
            .filter(|c| !extra_deck_card(c))
            .nth(20)
            .expect("more than 20 main-deck cards");
        let before = full.clone();
        assert_eq!(full.add(other.code), Err(AddError::Full(Part::Main)));
        assert_eq!(full, before);
    }

    #[test]
    fn fusion_and_synchro_monsters_go_to_the_extra_deck() {
        let mut list = DeckList::default();
        for def in pool() {
            let part = list.add(def.code);
            if extra_deck_card(def) {
                assert_eq!(part, Ok(Part::Extra), "{}", def.name_en);
            } else {
                assert_eq!(part, Ok(Part::Main), "{}", def.name_en);
            }
        }
        assert!(list.count(Part::Extra) > 0);
        assert!(list.problems().iter().all(|p| !matches!(
            p,
            DeckProblem::ExtraMonsterInMain(_) | DeckProblem::NotExtraCard(_)
        )));
    }

    #[test]
    fn each_rule_a_list_breaks_is_named() {
        let d = crate::deck::deck("panda-exodia-deck").expect("preset");
        let mut list = DeckList::from(d);
        let synchro = list.extra[0].0;
        list.main.push((synchro, 1));
        list.extra.push((55_144_522, 1));
        list.main.push((1, 2));
        list.main[0].1 = 4;
        let problems = list.problems();
        for p in [
            DeckProblem::TooManyCopies {
                code: list.main[0].0,
                copies: 4,
            },
            DeckProblem::ExtraMonsterInMain(synchro),
            DeckProblem::NotExtraCard(55_144_522),
            DeckProblem::UnknownCard(1),
            DeckProblem::TooManyCopies {
                code: synchro,
                copies: 4,
            },
        ] {
            assert!(problems.contains(&p), "{p:?} in {problems:?}");
        }
    }

    #[test]
    fn a_deck_without_a_piece_cannot_win_by_exodia() {
        let d = crate::deck::deck("exodia-deck").expect("preset");
        let mut list = DeckList::from(d);
        let head = list.main[0].0;
        assert!(list.remove(head));
        assert_eq!(list.copies(head), 0);
        assert!(!list.goals().contains(&Outcome::Win(Reason::Exodia)));
        assert!(list.problems().contains(&DeckProblem::NoWayToWin));
        assert!(list.problems().contains(&DeckProblem::MainTooSmall(39)));
    }
}
