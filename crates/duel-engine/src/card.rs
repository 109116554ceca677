//! Card facts and the catalogue of every card the simulator knows, loaded from `data/cards.json`.

use serde::{Deserialize, Serialize};

use crate::effect::{EffectDef, RuleDef};

/// A card's passcode (the 8-digit number printed on real cards).
pub type Code = u32;

/// What kind of card this is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(test, derive(borsh::BorshSerialize))]
pub enum CardType {
    Monster,
    Spell,
    Trap,
}

/// The frame of a card, which is also how the UI colours it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(test, derive(borsh::BorshSerialize))]
pub enum Frame {
    Normal,
    Effect,
    Fusion,
    Synchro,
    Token,
    Spell,
    Trap,
}

/// The property of a spell or trap card.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(test, derive(borsh::BorshSerialize))]
pub enum SpellType {
    Normal,
    QuickPlay,
    Continuous,
    Field,
    Equip,
}

/// Monster stats; present exactly for monsters.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(test, derive(borsh::BorshSerialize))]
pub struct MonsterStats {
    pub attribute: String,
    pub race: String,
    pub level: u8,
    pub atk: u16,
    pub def: u16,
    #[serde(default)]
    pub tuner: bool,
    /// For Synchro monsters: how many non-Tuner materials it takes (1 Tuner always).
    #[serde(default)]
    pub synchro: Option<SynchroMaterials>,
}

/// The materials of a Synchro monster besides its one Tuner.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(test, derive(borsh::BorshSerialize))]
pub struct SynchroMaterials {
    pub non_tuners_min: u8,
    /// `None`: "1 or more".
    #[serde(default)]
    pub non_tuners_max: Option<u8>,
}

/// One card: facts plus behaviour (effects and rules), all data.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(test, derive(borsh::BorshSerialize))]
pub struct CardDef {
    pub code: Code,
    pub name_en: String,
    pub name_ja: String,
    #[serde(rename = "type")]
    pub card_type: CardType,
    pub frame: Frame,
    /// Spell/trap property; `None` for monsters.
    #[serde(default)]
    pub sub: Option<SpellType>,
    #[serde(default)]
    pub monster: Option<MonsterStats>,
    /// Our own short description of what the card does, in Japanese and English.
    pub text_ja: String,
    pub text_en: String,
    /// Activated effects (card activation of spells/traps, ignition and trigger effects).
    #[serde(default)]
    pub effects: Vec<EffectDef>,
    /// Rules that apply while the card is somewhere (victory conditions, continuous locks).
    #[serde(default)]
    pub rules: Vec<RuleDef>,
    /// Other passcodes deck files name this card by (alternate artworks, or the code
    /// other clients use): an imported deck maps them to this card. Compiled into a
    /// table of their own ([`by_passcode`] reads it), not into the catalogue every page
    /// decodes: in [`catalog`] this is empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(test, borsh(skip))]
    pub aliases: Vec<Code>,
}

impl CardDef {
    pub fn is_monster(&self) -> bool {
        self.card_type == CardType::Monster
    }

    pub fn is_spell(&self) -> bool {
        self.card_type == CardType::Spell
    }

    pub fn is_trap(&self) -> bool {
        self.card_type == CardType::Trap
    }

    pub fn is_field_spell(&self) -> bool {
        self.is_spell() && self.sub == Some(SpellType::Field)
    }

    /// Spell speed of the card's activation: quick-play spells and traps are 2.
    pub fn activation_speed(&self) -> u8 {
        match (self.card_type, self.sub) {
            (CardType::Trap, _) | (CardType::Spell, Some(SpellType::QuickPlay)) => 2,
            _ => 1,
        }
    }

    /// Whether the card leaves the field after its activation resolves.
    pub fn leaves_after_resolving(&self) -> bool {
        match self.card_type {
            CardType::Spell => matches!(self.sub, Some(SpellType::Normal | SpellType::QuickPlay)),
            CardType::Trap => true,
            CardType::Monster => false,
        }
    }

    /// Level of a monster (0 for spells and traps).
    pub fn level(&self) -> u8 {
        self.monster.as_ref().map_or(0, |m| m.level)
    }

    /// Tributes a Normal Summon or Set of this monster needs.
    pub fn tributes_needed(&self) -> usize {
        match self.level() {
            0..=4 => 0,
            5 | 6 => 1,
            _ => 2,
        }
    }

    /// Whether this monster lives in the Extra Deck.
    pub fn is_extra_deck(&self) -> bool {
        matches!(self.frame, Frame::Fusion | Frame::Synchro)
    }

    /// Whether this is an Effect Monster. Normal Monsters, Tokens and Fusion or Synchro
    /// monsters with no effect are not.
    pub fn is_effect_monster(&self) -> bool {
        match self.frame {
            Frame::Effect => true,
            Frame::Fusion | Frame::Synchro => !self.effects.is_empty() || !self.rules.is_empty(),
            _ => false,
        }
    }

    /// Whether the monster is a Tuner.
    pub fn is_tuner(&self) -> bool {
        self.monster.as_ref().is_some_and(|m| m.tuner)
    }

    /// Printed ATK of a monster (0 for spells and traps).
    pub fn atk(&self) -> u16 {
        self.monster.as_ref().map_or(0, |m| m.atk)
    }

    /// Whether one of the card's rules matches.
    pub fn has_rule(&self, f: impl Fn(&RuleDef) -> bool) -> bool {
        self.rules.iter().any(f)
    }

    /// The most Spell Counters the card can hold, if it takes them.
    pub fn spell_counter_max(&self) -> Option<u8> {
        self.rules.iter().find_map(|r| match r {
            RuleDef::SpellCounters { max } => Some(*max),
            _ => None,
        })
    }

    /// Whether the card has an effect of this kind.
    pub fn has_effect(&self, kind: crate::effect::EffectKind) -> bool {
        self.effects.iter().any(|e| e.kind == kind)
    }

    /// The name in the requested language.
    pub fn name(&self, lang: crate::Lang) -> &str {
        match lang {
            crate::Lang::Ja => &self.name_ja,
            crate::Lang::En => &self.name_en,
        }
    }

    /// The card's description in the requested language.
    pub fn text(&self, lang: crate::Lang) -> &str {
        match lang {
            crate::Lang::Ja => &self.text_ja,
            crate::Lang::En => &self.text_en,
        }
    }
}

/// Parses a card file such as `data/cards.json` (unknown fields are refused). The game
/// does not parse at run time: `build.rs` reads the file with this function and compiles
/// the cards in; the data tests use it to check the file and the compiled-in copy.
pub fn parse_catalog(json: &str) -> Result<Vec<CardDef>, serde_json::Error> {
    serde_json::from_str(json)
}

/// Every card the simulator knows, sorted by passcode.
pub fn catalog() -> &'static [CardDef] {
    crate::data::catalog()
}

/// Looks a card up by passcode.
pub fn card(code: Code) -> Option<&'static CardDef> {
    let i = index(code)?;
    catalog().get(i)
}

/// A card's place in [`catalog`], by the perfect hash of the passcodes `build.rs` wrote.
pub(crate) fn index(code: Code) -> Option<usize> {
    let (m, slots) = crate::data::slots();
    let i = usize::from(slots[(code.wrapping_mul(*m) >> 24) as usize]);
    (crate::data::codes().get(i) == Some(&code)).then_some(i)
}

/// Looks a card up by any passcode a deck file may name it by: its own, or one of its
/// [`CardDef::aliases`].
pub fn by_passcode(code: Code) -> Option<&'static CardDef> {
    card(code).or_else(|| {
        let (_, own) = crate::data::aliases()
            .iter()
            .find(|(alias, _)| *alias == code)?;
        card(*own)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_card_loads_and_codes_are_unique() {
        let cards = parse_catalog(include_str!("../data/cards.json")).expect("valid card file");
        assert!(cards.len() >= 53, "only {} cards", cards.len());
        let mut codes: Vec<Code> = cards.iter().map(|c| c.code).collect();
        codes.sort_unstable();
        codes.dedup();
        assert_eq!(codes.len(), cards.len(), "duplicate passcodes");
    }

    #[test]
    fn monsters_have_stats_and_spells_have_a_property() {
        for c in catalog() {
            match c.card_type {
                CardType::Monster => {
                    assert!(c.monster.is_some(), "{} lacks stats", c.name_en);
                    assert!(
                        c.sub.is_none(),
                        "{} is a monster with a spell property",
                        c.name_en
                    );
                }
                CardType::Spell | CardType::Trap => {
                    assert!(c.monster.is_none(), "{} has monster stats", c.name_en);
                    assert!(c.sub.is_some(), "{} lacks its property", c.name_en);
                }
            }
        }
    }

    #[test]
    fn lookup_by_code() {
        let pot = card(55144522).expect("Pot of Greed is in the catalogue");
        assert_eq!(pot.name_ja, "強欲な壺");
        assert!(card(1).is_none());
    }

    #[test]
    fn tribute_counts_follow_level() {
        let mk = |level| CardDef {
            monster: Some(MonsterStats {
                attribute: "DARK".into(),
                race: "Fiend".into(),
                level,
                atk: 0,
                def: 0,
                tuner: false,
                synchro: None,
            }),
            ..card(33396948).expect("Exodia").clone()
        };
        assert_eq!(mk(4).tributes_needed(), 0);
        assert_eq!(mk(5).tributes_needed(), 1);
        assert_eq!(mk(6).tributes_needed(), 1);
        assert_eq!(mk(7).tributes_needed(), 2);
    }
}
