//! Preset decks (data/decks.json) and the scarecrow opponent's deck.

use serde::{Deserialize, Serialize};

use crate::card::Code;

/// A preset deck the player can pick.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(test, derive(borsh::BorshSerialize))]
pub struct DeckDef {
    pub id: String,
    pub name_ja: String,
    pub name_en: String,
    pub description_ja: String,
    pub description_en: String,
    /// Whether every card of the deck has its effects implemented, so it can be played.
    pub playable: bool,
    /// `(passcode, copies)` of the main deck.
    pub main: Vec<(Code, u8)>,
    /// `(passcode, copies)` of the extra deck.
    pub extra: Vec<(Code, u8)>,
}

impl DeckDef {
    /// The name in the requested language.
    pub fn name(&self, lang: crate::Lang) -> &str {
        match lang {
            crate::Lang::Ja => &self.name_ja,
            crate::Lang::En => &self.name_en,
        }
    }

    /// The description in the requested language.
    pub fn description(&self, lang: crate::Lang) -> &str {
        match lang {
            crate::Lang::Ja => &self.description_ja,
            crate::Lang::En => &self.description_en,
        }
    }

    /// Every main-deck card, one entry per copy, in list order.
    pub fn main_codes(&self) -> Vec<Code> {
        expand(&self.main)
    }

    /// Every extra-deck card, one entry per copy.
    pub fn extra_codes(&self) -> Vec<Code> {
        expand(&self.extra)
    }
}

pub(crate) fn expand(list: &[(Code, u8)]) -> Vec<Code> {
    list.iter()
        .flat_map(|&(code, n)| std::iter::repeat_n(code, usize::from(n)))
        .collect()
}

/// The contents of a deck file such as `data/decks.json` (unknown fields are refused).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(test, derive(borsh::BorshSerialize))]
pub struct DeckFile {
    /// The scarecrow opponent's 40 cards: vanilla monsters, so anything that reaches
    /// their graveyard (Hand Destruction) is a plain, effect-less card.
    pub opponent_deck: Vec<(Code, u8)>,
    pub decks: Vec<DeckDef>,
}

/// Parses a deck file. The game does not parse at run time: `build.rs` reads
/// `data/decks.json` with this function and compiles the decks in.
pub fn parse_decks(json: &str) -> Result<DeckFile, serde_json::Error> {
    serde_json::from_str(json)
}

fn file() -> &'static DeckFile {
    crate::data::decks()
}

/// Every preset deck, in display order.
pub fn decks() -> &'static [DeckDef] {
    &file().decks
}

/// A preset deck by id.
pub fn deck(id: &str) -> Option<&'static DeckDef> {
    decks().iter().find(|d| d.id == id)
}

/// The opponent's deck list (passcodes, one per copy).
pub fn opponent_deck() -> Vec<Code> {
    expand(&file().opponent_deck)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::card;

    #[test]
    fn every_deck_loads_with_40_known_cards() {
        assert_eq!(decks().len(), 5);
        for d in decks() {
            assert_eq!(d.main_codes().len(), 40, "{} main deck size", d.id);
            for code in d.main_codes().into_iter().chain(d.extra_codes()) {
                assert!(card(code).is_some(), "{}: unknown card {code}", d.id);
            }
        }
        assert_eq!(opponent_deck().len(), 40);
        for code in opponent_deck() {
            let c = card(code).expect("opponent card is known");
            assert!(c.effects.is_empty() && c.rules.is_empty());
        }
    }

    #[test]
    fn every_deck_is_playable_and_its_cards_have_behaviour() {
        use crate::card::Frame;
        for d in decks() {
            assert!(d.playable, "{} is playable", d.id);
            for code in d.main_codes().into_iter().chain(d.extra_codes()) {
                let c = card(code).expect("known");
                let has_behaviour = !c.effects.is_empty() || !c.rules.is_empty();
                // Normal Monsters and Fusion Monsters without effects have nothing to do.
                let plain = matches!(c.frame, Frame::Normal | Frame::Fusion);
                assert!(
                    has_behaviour || plain,
                    "{}: {} has no behaviour",
                    d.id,
                    c.name_en
                );
            }
        }
    }
}
