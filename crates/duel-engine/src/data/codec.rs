//! The binary form of the card and deck data: borsh's layout, read and written by hand.
//!
//! The layout is borsh's (fields in declaration order, an enum as its variant's index in
//! one byte then its fields, integers little-endian, a `bool` or an `Option`'s tag as
//! one byte 0 or 1, a `Vec` or a `String` as a `u32` length then its items or UTF-8
//! bytes); the tests check that borsh's own serializer writes the same bytes. It is
//! written here rather than derived because borsh's readers report errors as
//! `std::io::Error`s holding a message, which pulls `<str as Debug>::fmt`, character
//! escaping and Unicode tables into the browser bundle through the error's vtable. Here
//! an error is a one-byte [`Error`], and nothing formats it.
//!
//! `build.rs` includes this file too (`#[path]`), to write the data with [`Encode`]:
//! the crate's data is then read and written by one declaration per type (`structs!`,
//! `enums!` below), and borsh is a dev-dependency only.

// The crate itself only decodes; writing is for build.rs and the tests.
#![cfg_attr(not(test), allow(dead_code))]

use crate::card::{CardDef, CardType, Frame, MonsterStats, SpellType, SynchroMaterials};
use crate::deck::{DeckDef, DeckFile};
use crate::effect::{
    Amount, Condition, Constraint, Dest, EffectDef, EffectKind, Filter, Max, Mode, OncePerTurn,
    Purpose, Reg, Restriction, RuleDef, SelfInHand, Source, Step, SummonKind, SummonPosition,
    Timing, TriggerDef, TriggerOn, Who,
};
use crate::state::Position;

/// Why bytes are not the value asked for. No `Display`: the one reader of the data
/// panics without formatting it (the data is compiled in and decoded by the tests).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Error {
    /// The bytes end inside a value.
    Truncated,
    /// A `bool` byte other than 0 or 1.
    BadBool,
    /// An `Option` tag other than 0 or 1.
    BadOption,
    /// An enum's variant index past its last variant.
    BadVariant,
    /// A string that is not UTF-8.
    BadUtf8,
    /// Bytes left over after the value.
    TrailingBytes,
}

/// A value read from the front of a byte slice, which is advanced past it.
pub(crate) trait Decode: Sized {
    fn decode(input: &mut &[u8]) -> Result<Self, Error>;
}

/// A value written in the form [`Decode`] reads.
pub(crate) trait Encode {
    fn encode(&self, out: &mut Vec<u8>);
}

/// Reads a whole value: bytes left over are an error.
pub(crate) fn from_slice<T: Decode>(mut input: &[u8]) -> Result<T, Error> {
    let value = T::decode(&mut input)?;
    if input.is_empty() {
        Ok(value)
    } else {
        Err(Error::TrailingBytes)
    }
}

pub(crate) fn to_vec<T: Encode>(value: &T) -> Vec<u8> {
    let mut out = Vec::new();
    value.encode(&mut out);
    out
}

fn take<'a>(input: &mut &'a [u8], n: usize) -> Result<&'a [u8], Error> {
    let (head, rest) = input.split_at_checked(n).ok_or(Error::Truncated)?;
    *input = rest;
    Ok(head)
}

macro_rules! integers {
    ($($t:ty),*) => {$(
        impl Decode for $t {
            fn decode(input: &mut &[u8]) -> Result<Self, Error> {
                let (bytes, rest) = input.split_first_chunk().ok_or(Error::Truncated)?;
                *input = rest;
                Ok(<$t>::from_le_bytes(*bytes))
            }
        }

        impl Encode for $t {
            fn encode(&self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
        }
    )*};
}

integers!(u8, u16, u32);

impl Decode for bool {
    fn decode(input: &mut &[u8]) -> Result<Self, Error> {
        match u8::decode(input)? {
            0 => Ok(false),
            1 => Ok(true),
            _ => Err(Error::BadBool),
        }
    }
}

impl Encode for bool {
    fn encode(&self, out: &mut Vec<u8>) {
        u8::from(*self).encode(out);
    }
}

/// A length as stored (borsh's `u32`).
fn decode_len(input: &mut &[u8]) -> Result<usize, Error> {
    // Lossless: usize is at least 32 bits on every target the crate builds for.
    u32::decode(input).map(|n| n as usize)
}

fn encode_len(len: usize, out: &mut Vec<u8>) {
    // build.rs writes a few kilobytes; borsh refuses longer lengths too.
    let len = u32::try_from(len).unwrap_or_else(|_| panic!("a length fits in a u32"));
    len.encode(out);
}

impl Decode for String {
    fn decode(input: &mut &[u8]) -> Result<Self, Error> {
        let len = decode_len(input)?;
        let bytes = take(input, len)?;
        std::str::from_utf8(bytes)
            .map(str::to_owned)
            .map_err(|_| Error::BadUtf8)
    }
}

impl Encode for String {
    fn encode(&self, out: &mut Vec<u8>) {
        encode_len(self.len(), out);
        out.extend_from_slice(self.as_bytes());
    }
}

impl<T: Decode> Decode for Vec<T> {
    fn decode(input: &mut &[u8]) -> Result<Self, Error> {
        let len = decode_len(input)?;
        // Every item takes at least a byte: a length past the bytes left fails when they
        // run out, having reserved no more than they could hold.
        let mut items = Vec::with_capacity(len.min(input.len()));
        for _ in 0..len {
            items.push(T::decode(input)?);
        }
        Ok(items)
    }
}

impl<T: Encode> Encode for Vec<T> {
    fn encode(&self, out: &mut Vec<u8>) {
        encode_len(self.len(), out);
        for item in self {
            item.encode(out);
        }
    }
}

impl<T: Decode> Decode for Option<T> {
    fn decode(input: &mut &[u8]) -> Result<Self, Error> {
        match u8::decode(input)? {
            0 => Ok(None),
            1 => T::decode(input).map(Some),
            _ => Err(Error::BadOption),
        }
    }
}

impl<T: Encode> Encode for Option<T> {
    fn encode(&self, out: &mut Vec<u8>) {
        match self {
            None => 0u8.encode(out),
            Some(value) => {
                1u8.encode(out);
                value.encode(out);
            }
        }
    }
}

impl<A: Decode, B: Decode> Decode for (A, B) {
    fn decode(input: &mut &[u8]) -> Result<Self, Error> {
        Ok((A::decode(input)?, B::decode(input)?))
    }
}

impl<A: Encode, B: Encode> Encode for (A, B) {
    fn encode(&self, out: &mut Vec<u8>) {
        self.0.encode(out);
        self.1.encode(out);
    }
}

/// Structs, each as `Name { field, ... }` with every field in declaration order (the
/// order borsh stores them in; a struct literal names them all, so one left out does
/// not compile), then `; skip field, ...` for fields not stored (`Default` when read).
macro_rules! structs {
    ($($t:ident { $($f:ident),* $(; skip $($skip:ident),*)? })*) => {$(
        impl Decode for $t {
            fn decode(input: &mut &[u8]) -> Result<Self, Error> {
                // A struct expression evaluates its fields in the order written.
                Ok(Self {
                    $($f: Decode::decode(input)?,)*
                    $($($skip: Default::default(),)*)?
                })
            }
        }

        impl Encode for $t {
            fn encode(&self, out: &mut Vec<u8>) {
                $(self.$f.encode(out);)*
            }
        }
    )*};
}

/// Enums, each as `Name { Variant, Variant(field), Variant { field, ... }, ... }` with
/// every variant in declaration order (its index there is the byte borsh stores) and
/// every field in order. The writer's `match` is exhaustive, so a variant left out does
/// not compile; the tests check the order against borsh.
macro_rules! enums {
    ($($t:ident { $($v:ident $(($($p:ident),*))? $({ $($f:ident),* })?),* $(,)? })*) => {$(
        impl Decode for $t {
            fn decode(input: &mut &[u8]) -> Result<Self, Error> {
                // The variants' indices, counted by the compiler.
                enum Tag { $($v),* }
                let tag = u8::decode(input)?;
                $(if tag == Tag::$v as u8 {
                    return Ok(Self::$v
                        $(($({ let $p = Decode::decode(input)?; $p }),*))?
                        $({ $($f: Decode::decode(input)?),* })?);
                })*
                Err(Error::BadVariant)
            }
        }

        impl Encode for $t {
            fn encode(&self, out: &mut Vec<u8>) {
                enum Tag { $($v),* }
                match self {
                    $(Self::$v $(($($p),*))? $({ $($f),* })? => {
                        (Tag::$v as u8).encode(out);
                        $($($p.encode(out);)*)?
                        $($($f.encode(out);)*)?
                    })*
                }
            }
        }
    )*};
}

structs! {
    CardDef {
        code, name_en, name_ja, card_type, frame, sub, monster, text_ja, text_en, effects,
        rules; skip aliases
    }
    MonsterStats { attribute, race, level, atk, def, tuner, synchro }
    SynchroMaterials { non_tuners_min, non_tuners_max }
    DeckDef { id, name_ja, name_en, description_ja, description_en, playable, main, extra }
    DeckFile { opponent_deck, decks }
    TriggerDef { on, optional, timing }
    EffectDef { kind, trigger, once_per_turn, no_responses, conditions, cost, resolve, modes }
    Mode { label_ja, label_en, conditions, resolve }
    Filter {
        card_type, monster, frame, sub, max_atk, max_def, level, max_level, level_is,
        name_contains_ja, race, tuner, effect, face_up, tributable, summonable,
        normal_summonable
    }
}

enums! {
    CardType { Monster, Spell, Trap }
    Frame { Normal, Effect, Fusion, Synchro, Token, Spell, Trap }
    SpellType { Normal, QuickPlay, Continuous, Field, Equip }
    Position { Attack, Defense }
    Who { You, Opponent }
    EffectKind { Activation, Ignition, Trigger }
    OncePerTurn { Card, Name }
    SummonKind { Normal, Special, Synchro, Fusion }
    TriggerOn {
        SentFromFieldToGraveyard, Summoned { how }, OtherSynchroSummoned,
        WatchedMonsterToGraveyard,
    }
    Timing { When, If }
    Reg { A, B, C, Targets, Revealed }
    Amount { Fixed(n), Count(reg), Level(reg), HalfAtk(reg), Declared }
    SelfInHand { Counts, Excluded, BySetting }
    Source {
        Hand, Deck, Graveyard, Banished, ExtraDeck, MonsterZone, SpellTrapZone,
        OpponentGraveyard, EitherGraveyard, EitherMonsterZone, EitherBanished,
        EquippedMonster, This, Reg { reg },
    }
    Dest { Hand, Discard, Graveyard, Tribute, Material, Deck, Banished, BanishedFaceDown }
    Max { N(n), All }
    Purpose {
        Discard, SendToGraveyard, AddToHand, ShuffleIntoDeck, Target, Tribute, SpecialSummon,
        Banish, SynchroMaterial,
    }
    SummonPosition { Choose, Attack, Defense }
    Restriction { NoSpecialSummon, NoDamage { who, until_opponent_turn_end } }
    Constraint { CountIsLevelOf { zone, filter }, SynchroMaterials }
    Condition {
        DeckAtLeast { who, n }, HandAtLeast { who, n, this_card }, HandAtMostOthers { n },
        CanDrawUntil { hand }, Exists { zone, filter, n }, OwnerCanSummon { zone, filter },
        OthersInHand { filter, n }, LpAtLeast { n }, NoSpecialSummonThisTurn,
        FreeMonsterZones { n }, CountersAtLeast { n }, Holds { reg, n }, ThisOnField,
        CanSelect { from, filter, min, max, constraint },
    }
    Step {
        Draw { who, n }, DrawUntil { hand }, GainLp { who, amount }, PayLp { amount },
        Damage { who, amount },
        Select { from, filter, min, max, into, purpose, exclude_self, constraint },
        OpponentSelectHand { n, into }, Excavate { n, into },
        ExcavateUntil { filter, found, rest }, Split { reg, filter, into },
        OpponentDeclaresLevel, Move { reg, to }, MoveHand { who, to, into }, DestroySelf,
        ShuffleDeck, SpecialSummon { reg, position, owners_field, together },
        CreateToken { code, position }, Equip { reg }, RemoveCounters { n },
        ChangePosition { to }, Restrict { restriction }, AtEndPhase { steps },
        StopUnless { condition }, IfYouDid, UnlessYouDid, Watch { effect },
    }
    RuleDef {
        WinWithAllInHand { pieces }, LowerLpTakesNoDamage, SpellCounters { max },
        CannotBeTributed, BanishedWhenLeavingField, EquipAtkBonus { atk },
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::data::{CARDS, DECKS_BIN, catalog, decks};

    /// Reads a `T` from the front of `bytes`: the value and how many bytes it took.
    fn decode_front<T: Decode>(bytes: &[u8]) -> Result<(T, usize), Error> {
        let mut input = bytes;
        let value = T::decode(&mut input)?;
        Ok((value, bytes.len() - input.len()))
    }

    /// Whatever `T` is read from the front of `bytes`, borsh writes it back as exactly the
    /// bytes it was read from (each value has one form, so this pins every field's place).
    fn borsh_writes_back<T: Decode + borsh::BorshSerialize + std::fmt::Debug>(bytes: &[u8]) {
        if let Ok((value, used)) = decode_front::<T>(bytes) {
            let written = borsh::to_vec(&value).expect("borsh writes to a Vec");
            assert_eq!(written, &bytes[..used], "{value:?}");
        }
    }

    #[test]
    fn the_compiled_in_data_is_what_borsh_writes() {
        let cards = catalog().to_vec();
        let borsh_cards = borsh::to_vec(&cards).expect("borsh writes to a Vec");
        assert_eq!(borsh_cards, CARDS);
        assert_eq!(to_vec(&cards), CARDS);
        let borsh_decks = borsh::to_vec(decks()).expect("borsh writes to a Vec");
        assert_eq!(borsh_decks, DECKS_BIN);
        assert_eq!(to_vec(decks()), DECKS_BIN);
    }

    #[test]
    fn what_borsh_writes_of_the_catalogue_and_decks_decodes_to_equal_values() {
        // From the JSON files, not from the decoded data: the aliases borsh skips come
        // back empty, as the catalogue keeps them.
        let mut cards = crate::card::parse_catalog(include_str!("../../data/cards.json"))
            .expect("valid card file");
        cards.sort_by_key(|c| c.code);
        let bytes = borsh::to_vec(&cards).expect("borsh writes to a Vec");
        for card in &mut cards {
            card.aliases.clear();
        }
        assert_eq!(from_slice::<Vec<CardDef>>(&bytes), Ok(cards));
        let file = crate::deck::parse_decks(include_str!("../../data/decks.json"))
            .expect("valid deck file");
        let bytes = borsh::to_vec(&file).expect("borsh writes to a Vec");
        assert_eq!(from_slice::<DeckFile>(&bytes), Ok(file));
    }

    /// Reads each variant index of `T` with zeros after it (every field's first form):
    /// indices `0..n` read a variant that borsh writes with the same index, the others
    /// are refused. (That `n` is the number of variants, the writer's exhaustive `match`
    /// sees to.)
    fn variants<T: Decode + borsh::BorshSerialize + std::fmt::Debug>() {
        let mut n = 0;
        for tag in 0..=u8::MAX {
            let mut bytes = vec![tag];
            bytes.resize(256, 0);
            match decode_front::<T>(&bytes) {
                Ok(_) => {
                    assert_eq!(usize::from(tag), n, "the variants are numbered from 0");
                    borsh_writes_back::<T>(&bytes);
                    n += 1;
                }
                Err(e) => assert_eq!(e, Error::BadVariant),
            }
        }
        assert!(n > 0);
    }

    #[test]
    fn every_enum_numbers_its_variants_as_borsh_does() {
        variants::<CardType>();
        variants::<Frame>();
        variants::<SpellType>();
        variants::<Position>();
        variants::<Who>();
        variants::<EffectKind>();
        variants::<OncePerTurn>();
        variants::<SummonKind>();
        variants::<TriggerOn>();
        variants::<Timing>();
        variants::<Reg>();
        variants::<Amount>();
        variants::<SelfInHand>();
        variants::<Source>();
        variants::<Dest>();
        variants::<Max>();
        variants::<Purpose>();
        variants::<SummonPosition>();
        variants::<Restriction>();
        variants::<Constraint>();
        variants::<Condition>();
        variants::<Step>();
        variants::<RuleDef>();
    }

    #[test]
    fn malformed_bytes_get_their_error() {
        assert_eq!(from_slice::<bool>(&[2]), Err(Error::BadBool));
        assert_eq!(from_slice::<Option<u8>>(&[2, 0]), Err(Error::BadOption));
        assert_eq!(from_slice::<Who>(&[2]), Err(Error::BadVariant));
        assert_eq!(
            from_slice::<String>(&[1, 0, 0, 0, 0xff]),
            Err(Error::BadUtf8)
        );
        assert_eq!(from_slice::<u16>(&[1]), Err(Error::Truncated));
        assert_eq!(from_slice::<u8>(&[1, 0]), Err(Error::TrailingBytes));
        // A length past the end is refused without reserving that much.
        assert_eq!(
            from_slice::<Vec<Step>>(&[0xff, 0xff, 0xff, 0xff]),
            Err(Error::Truncated)
        );
        let mut longer = CARDS.to_vec();
        longer.push(0);
        assert_eq!(
            from_slice::<Vec<CardDef>>(&longer),
            Err(Error::TrailingBytes)
        );
    }

    #[test]
    fn the_compiled_in_data_cut_short_is_truncated() {
        for len in 0..DECKS_BIN.len() {
            assert_eq!(
                from_slice::<DeckFile>(&DECKS_BIN[..len]),
                Err(Error::Truncated),
                "{len}"
            );
        }
        // Every byte of the catalogue's first cards, then a sample of the rest.
        for len in (0..600).chain((600..CARDS.len()).step_by(97)) {
            assert_eq!(
                from_slice::<Vec<CardDef>>(&CARDS[..len]),
                Err(Error::Truncated),
                "{len}"
            );
        }
    }

    /// The position of the first byte where two encodings differ.
    fn first_difference(a: &[u8], b: &[u8]) -> usize {
        a.iter()
            .zip(b)
            .position(|(x, y)| x != y)
            .expect("the encodings differ")
    }

    #[test]
    fn a_bad_byte_inside_the_data_gets_its_error() {
        // The first card's frame, found as the byte that changes with it.
        let mut cards = catalog().to_vec();
        let original = to_vec(&cards);
        cards[0].frame = if cards[0].frame == Frame::Trap {
            Frame::Spell
        } else {
            Frame::Trap
        };
        let at = first_difference(&original, &to_vec(&cards));
        let mut bytes = original.clone();
        bytes[at] = 7;
        assert_eq!(from_slice::<Vec<CardDef>>(&bytes), Err(Error::BadVariant));

        // The first deck's `playable`.
        let mut file = decks().clone();
        let original = to_vec(&file);
        file.decks[0].playable = !file.decks[0].playable;
        let at = first_difference(&original, &to_vec(&file));
        let mut bytes = original.clone();
        bytes[at] = 2;
        assert_eq!(from_slice::<DeckFile>(&bytes), Err(Error::BadBool));
    }

    /// Bytes biased to 0 and 1 (empty lists, first variants, `None`, `false`, short
    /// lengths), so that reads go deep into the types before they fail.
    fn bytes() -> impl Strategy<Value = Vec<u8>> {
        let byte = prop_oneof![4 => Just(0u8), 2 => Just(1u8), 1 => 2u8..30, 1 => any::<u8>()];
        prop::collection::vec(byte, 0..400)
    }

    proptest! {
        #[test]
        fn any_bytes_decode_or_fail_without_panicking(bytes in bytes()) {
            let _ = from_slice::<Vec<CardDef>>(&bytes);
            let _ = from_slice::<DeckFile>(&bytes);
            borsh_writes_back::<CardDef>(&bytes);
            borsh_writes_back::<DeckDef>(&bytes);
            borsh_writes_back::<EffectDef>(&bytes);
            borsh_writes_back::<Step>(&bytes);
            borsh_writes_back::<Condition>(&bytes);
            borsh_writes_back::<Filter>(&bytes);
            borsh_writes_back::<RuleDef>(&bytes);
        }

        #[test]
        fn the_compiled_in_catalogue_with_one_byte_changed_decodes_or_fails(
            at in 0..CARDS.len(),
            byte in any::<u8>(),
        ) {
            let mut bytes = CARDS.to_vec();
            bytes[at] = byte;
            let _ = from_slice::<Vec<CardDef>>(&bytes);
            borsh_writes_back::<Vec<CardDef>>(&bytes);
        }
    }
}
