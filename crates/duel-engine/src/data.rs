//! The card and deck data, compiled in from `data/*.json` by `build.rs`.
//!
//! The build script parses the JSON files with the crate's own types (unknown fields
//! refused) and stores the values in borsh's binary form ([`codec`]); they are decoded
//! here on first use. The browser bundle so carries neither the JSON text nor serde's
//! visitors for the card language, which were most of its serde code. The JSON files
//! stay the one source of the data; the tests check that the decoded values equal what
//! the files say.

use std::sync::OnceLock;

use crate::card::{CardDef, Code};
use crate::deck::DeckFile;

mod codec;

static CATALOG: OnceLock<Vec<CardDef>> = OnceLock::new();
const CARDS: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/cards.bin"));
const DECKS_BIN: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/decks.bin"));
static DECKS: OnceLock<DeckFile> = OnceLock::new();

/// Decodes what `build.rs` stored with the same types. It cannot fail short of a
/// broken build (the tests decode it), and the panic does not format the error, which
/// would pull the error's formatting into the bundle.
fn decode<T: codec::Decode>(bytes: &[u8], what: &str) -> T {
    codec::from_slice(bytes).unwrap_or_else(|_| panic!("{what} compiled in by build.rs decodes"))
}

/// The catalogue decoded afresh, for the start-up benchmark (`examples/bench.rs`).
#[doc(hidden)]
pub fn decode_catalog() -> Vec<CardDef> {
    decode(CARDS, "data/cards.json")
}

/// Every card, sorted by passcode (`build.rs` sorts them).
pub(crate) fn catalog() -> &'static [CardDef] {
    CATALOG.get_or_init(|| decode(CARDS, "data/cards.json"))
}

/// The passcodes of [`catalog`], in its order.
pub(crate) fn codes() -> &'static [Code] {
    const CODES: &[Code] = include!(concat!(env!("OUT_DIR"), "/codes.rs"));
    CODES
}

/// The perfect hash of [`codes`] that `build.rs` found: a card's index in the catalogue
/// is `slots[(code * m) >> 24]` (255: no card), checked against its passcode.
pub(crate) fn slots() -> &'static (u32, [u8; 256]) {
    const SLOTS: (u32, [u8; 256]) = include!(concat!(env!("OUT_DIR"), "/slots.rs"));
    &SLOTS
}

/// `(alias, passcode)`: the other passcodes of cards (`CardDef::aliases` in the card
/// file), compiled in as a table so that only the deck-file importers carry them.
pub(crate) fn aliases() -> &'static [(Code, Code)] {
    const ALIASES: &[(Code, Code)] = include!(concat!(env!("OUT_DIR"), "/aliases.rs"));
    ALIASES
}

/// The passcodes of the cards with an effect that deals damage (`build.rs` reads them
/// from the card file), read by the deck lists' checks (`custom-decks`).
#[cfg(any(feature = "custom-decks", test))]
pub(crate) fn burners() -> &'static [Code] {
    const BURNERS: &[Code] = include!(concat!(env!("OUT_DIR"), "/burners.rs"));
    BURNERS
}

/// The preset decks and the opponent's deck.
pub(crate) fn decks() -> &'static DeckFile {
    DECKS.get_or_init(|| decode(DECKS_BIN, "data/decks.json"))
}
/// A fingerprint of the compiled-in cards and decks (FNV-1a over their bytes): it
/// changes whenever the data files do, so results cached by it go stale with them.
pub(crate) fn fingerprint() -> u64 {
    CARDS
        .iter()
        .chain(DECKS_BIN)
        .fold(0xcbf2_9ce4_8422_2325, |h, &b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::parse_catalog;
    use crate::deck::parse_decks;

    #[test]
    fn compiled_in_cards_are_the_card_file_sorted_by_passcode() {
        let mut cards = parse_catalog(include_str!("../data/cards.json")).expect("valid card file");
        cards.sort_by_key(|c| c.code);
        // Aliases are compiled into a table of their own.
        let mut aliases = Vec::new();
        for c in &mut cards {
            aliases.extend(c.aliases.drain(..).map(|a| (a, c.code)));
        }
        assert_eq!(catalog(), cards.as_slice());
        let sorted_codes: Vec<Code> = cards.iter().map(|c| c.code).collect();
        assert_eq!(
            codes(),
            sorted_codes.as_slice(),
            "the lookup table of passcodes"
        );
        assert_eq!(super::aliases(), aliases.as_slice());
        assert!(
            aliases.contains(&(83_764_718, 83_764_719)),
            "Monster Reborn"
        );
    }

    #[test]
    fn the_burners_table_lists_every_card_with_an_effect_that_deals_damage() {
        let burns = |c: &CardDef| {
            c.effects.iter().any(|e| {
                e.steps()
                    .any(|s| matches!(s, crate::effect::Step::Damage { .. }))
            })
        };
        let expected: Vec<Code> = catalog()
            .iter()
            .filter(|c| burns(c))
            .map(|c| c.code)
            .collect();
        assert_eq!(burners(), expected.as_slice());
        // Catapult Turtle and Toon Cannon Soldier.
        assert!(burners().contains(&95_727_991) && burners().contains(&79_875_176));
    }

    #[test]
    fn compiled_in_decks_are_the_deck_file() {
        let file = parse_decks(include_str!("../data/decks.json")).expect("valid deck file");
        assert_eq!(decks(), &file);
    }

    #[test]
    fn data_files_refuse_unknown_fields() {
        let card = r#"[{"code": 1, "name_en": "A", "name_ja": "A", "type": "spell",
            "frame": "spell", "sub": "normal", "text_ja": "", "text_en": "",
            "effects": [{"kind": "activation", "resolve": [{"draw": {"who": "you", "n": 1}}]}]}]"#;
        assert!(parse_catalog(card).is_ok());
        let extra_card_field = card.replace(r#""code": 1"#, r#""code": 1, "atk": 5"#);
        let extra_step_field = card.replace(r#""n": 1"#, r#""n": 1, "twice": true"#);
        for json in [extra_card_field, extra_step_field] {
            let err = parse_catalog(&json).expect_err("unknown field refused");
            assert!(err.to_string().contains("unknown field"), "{err}");
        }
        let deck = r#"{"opponent_deck": [], "decks": [], "sideboard": []}"#;
        let err = parse_decks(deck).expect_err("unknown field refused");
        assert!(err.to_string().contains("unknown field"), "{err}");
    }
}
