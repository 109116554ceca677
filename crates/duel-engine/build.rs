//! Compiles `data/cards.json` and `data/decks.json` into the crate.
//!
//! The files are read with the crate's own types (the modules below are its sources),
//! so they are checked exactly as the crate defines them: an unknown field or a bad
//! value fails the build with serde's message. The values are stored in borsh's binary
//! form (fields in order, enum variants by index), written by `src/data/codec.rs`, for
//! `src/data.rs` to decode at start-up, without the JSON parser and serde's per-type
//! visitors.

// The modules are compiled here for their data types only.
#![allow(dead_code)]

use std::error::Error;
use std::path::Path;
use std::{env, fs};

#[path = "src/card.rs"]
mod card;
#[path = "src/data/codec.rs"]
mod codec;
#[path = "src/deck.rs"]
mod deck;
#[path = "src/effect.rs"]
mod effect;

/// Stand-ins for the items of the crate that the data modules name besides each other.
/// `Position` must match `state::Position`, variants in the same order (the codec
/// stores the index; the data tests compare the decoded cards with the JSON).
mod state {
    use serde::{Deserialize, Serialize};

    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum Position {
        Attack,
        Defense,
    }
}

/// The loaders `card::catalog` and `deck::decks` call (never called here).
mod data {
    use crate::card::CardDef;
    use crate::deck::DeckFile;

    static EMPTY: DeckFile = DeckFile {
        opponent_deck: Vec::new(),
        decks: Vec::new(),
    };

    pub(crate) fn catalog() -> &'static [CardDef] {
        &[]
    }

    pub(crate) fn decks() -> &'static DeckFile {
        &EMPTY
    }

    pub(crate) fn aliases() -> &'static [(u32, u32)] {
        &[]
    }

    pub(crate) fn codes() -> &'static [u32] {
        &[]
    }

    pub(crate) fn slots() -> &'static (u32, [u8; 256]) {
        &(1, [255; 256])
    }
}

/// `crate::Lang`, which the data types' name and text accessors take.
#[derive(Debug, Clone, Copy)]
pub enum Lang {
    Ja,
    En,
}

fn main() -> Result<(), Box<dyn Error>> {
    for path in [
        "data/cards.json",
        "data/decks.json",
        "src/card.rs",
        "src/deck.rs",
        "src/effect.rs",
        "src/data/codec.rs",
    ] {
        println!("cargo::rerun-if-changed={path}");
    }
    let dir = env::var("CARGO_MANIFEST_DIR")?;
    let out = env::var("OUT_DIR")?;
    let read = |name: &str| fs::read_to_string(Path::new(&dir).join(name));

    let mut cards = card::parse_catalog(&read("data/cards.json")?)
        .map_err(|e| format!("data/cards.json: {e}"))?;
    // `card::card` looks passcodes up by binary search.
    cards.sort_by_key(|c| c.code);
    let decks = deck::parse_decks(&read("data/decks.json")?)
        .map_err(|e| format!("data/decks.json: {e}"))?;

    fs::write(Path::new(&out).join("cards.bin"), codec::to_vec(&cards))?;
    // The passcodes alone, in the same order: what `card::card` searches (a few hundred
    // bytes to search, where the definitions are a few hundred bytes each).
    let codes: Vec<String> = cards.iter().map(|c| c.code.to_string()).collect();
    fs::write(
        Path::new(&out).join("codes.rs"),
        format!("&[{}]", codes.join(", ")),
    )?;
    // A perfect hash of the passcodes, for `card::card`: the first multiplier whose
    // top 8 bits of `code * m` give every card a slot of its own, and the slots' card
    // indices (255: none). A lookup is one multiplication and one comparison where a
    // binary search took six unpredictable ones, on a path every rule check takes.
    if cards.len() >= 255 {
        return Err("the passcode table holds at most 254 cards: widen its entries".into());
    }
    let slot_of = |code: u32, m: u32| (code.wrapping_mul(m) >> 24) as usize;
    let m = (0u32..)
        .map(|k| k.wrapping_mul(0x9E37_79B9) | 1)
        .take(1_000_000)
        .find(|&m| {
            let mut seen = [false; 256];
            cards
                .iter()
                .all(|c| !std::mem::replace(&mut seen[slot_of(c.code, m)], true))
        })
        .ok_or("no perfect hash of the passcodes found")?;
    let mut slots = [255u8; 256];
    for (i, c) in cards.iter().enumerate() {
        slots[slot_of(c.code, m)] = i as u8;
    }
    let slots: Vec<String> = slots.iter().map(u8::to_string).collect();
    fs::write(
        Path::new(&out).join("slots.rs"),
        format!("({m}, [{}])", slots.join(", ")),
    )?;
    // `(alias, passcode)` pairs, for the importers of deck files only.
    let aliases: Vec<String> = cards
        .iter()
        .flat_map(|c| c.aliases.iter().map(move |a| format!("({a}, {})", c.code)))
        .collect();
    fs::write(
        Path::new(&out).join("aliases.rs"),
        format!("&[{}]", aliases.join(", ")),
    )?;
    // The cards with an effect that deals damage, for a deck list's "can it burn?"
    // (`DeckList::goals`): a table, so the duel page's bundle walks no effects for it.
    let burners: Vec<String> = cards
        .iter()
        .filter(|c| {
            c.effects
                .iter()
                .any(|e| e.steps().any(|s| matches!(s, effect::Step::Damage { .. })))
        })
        .map(|c| c.code.to_string())
        .collect();
    fs::write(
        Path::new(&out).join("burners.rs"),
        format!("&[{}]", burners.join(", ")),
    )?;
    fs::write(Path::new(&out).join("decks.bin"), codec::to_vec(&decks))?;
    Ok(())
}
