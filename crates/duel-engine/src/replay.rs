//! Share codes: a whole game (deck, seed, rule settings, command log) in a short,
//! URL-safe string, and back. The bytes are a version, the deck's place in the preset
//! list (or, for a deck list of the player's own or a test hand, what was dealt), the
//! seed and the commands as small variable-length integers, written in base64url
//! without padding.

use serde::{Deserialize, Serialize};
use thiserror::Error;

#[cfg(feature = "custom-decks")]
use crate::card::Code;
use crate::command::{Command, Response};
#[cfg(feature = "custom-decks")]
use crate::deal::{CUSTOM_DECK_ID, Custom, Opening};
use crate::deck::decks;
#[cfg(feature = "custom-decks")]
use crate::deck_list::DeckList;
use crate::setup::ReplayError;
#[cfg(feature = "custom-decks")]
use crate::state::Reason;
use crate::state::{CardId, Duel, Settings};

/// The share code format; a code of another version is refused, not guessed at.
/// Version 2: the same bytes, but a command log replays with shuffles that depend only
/// on which cards are in the deck (version 1's logs would replay into other games).
const VERSION: u8 = 2;

/// Why a share code could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Error, Serialize, Deserialize)]
pub enum DecodeError {
    #[error("the code is not base64url")]
    NotBase64,
    #[error("the code ends too early")]
    Truncated,
    #[error("the code has format version {0}, this app reads version {VERSION}")]
    Version(u8),
    #[error("the code names deck number {0}, which does not exist")]
    UnknownDeck(u8),
    #[error("the code holds an unknown command tag {0}")]
    BadCommand(u8),
    #[error("a number in the code is too large")]
    Overflow,
}

/// Why a shared game could not be opened.
#[derive(Debug, Clone, PartialEq, Eq, Error, Serialize, Deserialize)]
pub enum ShareError {
    #[error(transparent)]
    Decode(#[from] DecodeError),
    #[error(transparent)]
    Replay(#[from] ReplayError),
}

/// A game as a share code carries it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shared {
    pub deck: String,
    pub seed: u64,
    pub settings: Settings,
    pub commands: Vec<Command>,
    /// The deck list of the player's own or the cards dealt on purpose, if any.
    #[cfg(feature = "custom-decks")]
    pub custom: Option<Custom>,
}

/// The deck byte of a code whose deal is not a preset deck shuffled: a flags byte
/// follows ([`HAS_LIST`], [`HAS_OPENING`], [`BURN_GOAL`]), then the preset's index unless the code
/// holds a list, then the list (entries of main, then of Extra Deck: a count, then each
/// passcode and its copies) and the opening (hand, then top cards: a count, then each
/// passcode).
#[cfg(feature = "custom-decks")]
const DEALT: u8 = 254;
#[cfg(feature = "custom-decks")]
const HAS_LIST: u8 = 1;
#[cfg(feature = "custom-decks")]
const HAS_OPENING: u8 = 2;
/// The list's player chose to play for a burn, where its cards reach Exodia too.
#[cfg(feature = "custom-decks")]
const BURN_GOAL: u8 = 4;

/// The base64url alphabet (RFC 4648, section 5).
const BASE64URL: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
/// The standard base64 alphabet (RFC 4648, section 4), which `ydke://` deck links use.
#[cfg(feature = "custom-decks")]
const BASE64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// `bytes` in base64 with `alphabet`, without padding. Written here: the `base64`
/// crate's generic engine weighed some 5 KB of the duel page's wasm for these few calls.
fn encode64(bytes: &[u8], alphabet: &[u8; 64]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | (u32::from(b) << (16 - 8 * i)));
        for i in 0..=chunk.len() {
            out.push(char::from(alphabet[(n >> (18 - 6 * i)) as usize & 63]));
        }
    }
    out
}

/// Reads [`encode64`]'s text: `None` for a character outside the alphabet, a length no
/// encoding has (one character over a multiple of four) or unused low bits that are not
/// zero, as the `base64` crate refuses them.
fn decode64(text: &str, alphabet: &[u8; 64]) -> Option<Vec<u8>> {
    let digits: Vec<u32> = text
        .bytes()
        .map(|c| alphabet.iter().position(|&a| a == c).map(|p| p as u32))
        .collect::<Option<_>>()?;
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    for chunk in digits.chunks(4) {
        let bytes = chunk.len().checked_sub(1).filter(|&b| b > 0)?;
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &d)| n | (d << (18 - 6 * i)));
        if n & ((1u32 << (24 - 8 * bytes)) - 1) != 0 {
            return None;
        }
        out.extend((0..bytes).map(|i| (n >> (16 - 8 * i)) as u8));
    }
    Some(out)
}

/// base64url without padding.
pub(crate) fn to_base64url(bytes: &[u8]) -> String {
    encode64(bytes, BASE64URL)
}

/// Reads [`to_base64url`]'s text (padding refused, as the `base64` crate's
/// `URL_SAFE_NO_PAD` refuses it).
pub(crate) fn from_base64url(text: &str) -> Option<Vec<u8>> {
    decode64(text, BASE64URL)
}

/// Standard base64 with padding.
#[cfg(feature = "custom-decks")]
pub(crate) fn to_base64(bytes: &[u8]) -> String {
    let mut out = encode64(bytes, BASE64);
    while !out.len().is_multiple_of(4) {
        out.push('=');
    }
    out
}

/// Reads standard base64, with or without its padding.
#[cfg(feature = "custom-decks")]
pub(crate) fn from_base64(text: &str) -> Option<Vec<u8>> {
    let body = text.trim_end_matches('=');
    if text.len() - body.len() > 2 || (body.len() != text.len() && !text.len().is_multiple_of(4)) {
        return None;
    }
    decode64(body, BASE64)
}

impl Shared {
    /// The share code of this game.
    pub fn encode(&self) -> String {
        #[cfg(feature = "custom-decks")]
        return encode_dealt(
            &self.deck,
            self.custom.as_ref(),
            self.seed,
            self.settings,
            &self.commands,
        );
        #[cfg(not(feature = "custom-decks"))]
        encode_game(&self.deck, self.seed, self.settings, &self.commands)
    }

    /// Reads a share code (it does not check that the commands replay).
    pub fn decode(code: &str) -> Result<Shared, DecodeError> {
        let bytes = from_base64url(code.trim()).ok_or(DecodeError::NotBase64)?;
        let mut r = Reader {
            bytes: &bytes,
            at: 0,
        };
        let version = r.byte()?;
        if version != VERSION {
            return Err(DecodeError::Version(version));
        }
        #[cfg_attr(not(feature = "custom-decks"), allow(unused_mut))]
        let mut deck_index = r.byte()?;
        #[cfg(feature = "custom-decks")]
        let mut custom = None;
        #[cfg(feature = "custom-decks")]
        if deck_index == DEALT {
            let flags = r.byte()?;
            let mut dealt = Custom::default();
            if flags & HAS_LIST != 0 {
                dealt.list = Some(DeckList {
                    main: r.codes(true)?,
                    extra: r.codes(true)?,
                    goal: (flags & BURN_GOAL != 0).then_some(Reason::Lp0),
                });
            } else {
                deck_index = r.byte()?;
            }
            if flags & HAS_OPENING != 0 {
                dealt.opening = Opening {
                    hand: r.cards()?,
                    top: r.cards()?,
                };
            }
            custom = Some(dealt);
        }
        let preset = |i: u8| {
            decks()
                .get(usize::from(i))
                .map(|d| d.id.clone())
                .ok_or(DecodeError::UnknownDeck(i))
        };
        #[cfg(feature = "custom-decks")]
        let deck = if custom.as_ref().is_some_and(|c| c.list.is_some()) {
            CUSTOM_DECK_ID.to_owned()
        } else {
            preset(deck_index)?
        };
        #[cfg(not(feature = "custom-decks"))]
        let deck = preset(deck_index)?;
        let seed = r.varint()?;
        let settings = Settings::from_bits(r.byte()?);
        Ok(Shared {
            deck,
            seed,
            settings,
            commands: r.commands()?,
            #[cfg(feature = "custom-decks")]
            custom,
        })
    }

    /// Replays the shared game.
    pub fn replay(&self) -> Result<Duel, ReplayError> {
        #[cfg(feature = "custom-decks")]
        return Duel::replay_dealt(
            &self.deck,
            self.custom.as_ref(),
            self.seed,
            self.settings,
            &self.commands,
        );
        #[cfg(not(feature = "custom-decks"))]
        Duel::replay(&self.deck, self.seed, self.settings, &self.commands)
    }
}

/// The share code of a game given by its parts, so a caller that holds them (a duel, a
/// save, a hint) need not copy its command log into a [`Shared`] first. A deck id
/// that is not a preset is written as deck 255, which [`Shared::decode`] refuses with
/// [`DecodeError::UnknownDeck`]: the code never opens another deck's game.
pub fn encode_game(deck: &str, seed: u64, settings: Settings, commands: &[Command]) -> String {
    finish(vec![VERSION, preset_index(deck)], seed, settings, commands)
}

/// The place of a preset deck in the list (255 for any other id).
fn preset_index(deck: &str) -> u8 {
    decks()
        .iter()
        .position(|d| d.id == deck)
        .map_or(u8::MAX, |i| i as u8)
}

/// The seed, settings and commands after a code's deck, and the whole in base64url.
fn finish(mut out: Vec<u8>, seed: u64, settings: Settings, commands: &[Command]) -> String {
    put(&mut out, seed);
    out.push(settings.bits());
    for cmd in commands {
        put_command(&mut out, cmd);
    }
    to_base64url(&out)
}

/// [`encode_game`] of a game [`Duel::dealt`] from `custom`.
#[cfg(feature = "custom-decks")]
pub fn encode_dealt(
    deck: &str,
    custom: Option<&Custom>,
    seed: u64,
    settings: Settings,
    commands: &[Command],
) -> String {
    let mut out = vec![VERSION];
    let index = preset_index(deck);
    match crate::deal::given(custom) {
        None => out.push(index),
        Some(c) => {
            out.push(DEALT);
            let opening = !c.opening.is_empty();
            let burn = c.list.as_ref().is_some_and(|l| l.goal == Some(Reason::Lp0));
            out.push(
                u8::from(c.list.is_some()) * HAS_LIST
                    + u8::from(opening) * HAS_OPENING
                    + u8::from(burn) * BURN_GOAL,
            );
            match &c.list {
                Some(list) => {
                    for e in [&list.main, &list.extra] {
                        put_codes(&mut out, e.len(), &mut e.iter().map(|&(c, n)| (c, Some(n))));
                    }
                }
                None => out.push(index),
            }
            if opening {
                for codes in [&c.opening.hand, &c.opening.top] {
                    put_codes(&mut out, codes.len(), &mut codes.iter().map(|&c| (c, None)));
                }
            }
        }
    }
    finish(out, seed, settings, commands)
}

/// A list of commands alone, in the share code's encoding (base64url of the commands'
/// bytes, empty for none): the duel page's save keeps the actions to redo this way.
pub fn encode_commands(commands: &[Command]) -> String {
    let mut out = Vec::new();
    for cmd in commands {
        put_command(&mut out, cmd);
    }
    to_base64url(&out)
}

/// Reads what [`encode_commands`] wrote.
pub fn decode_commands(code: &str) -> Result<Vec<Command>, DecodeError> {
    let bytes = from_base64url(code.trim()).ok_or(DecodeError::NotBase64)?;
    Reader {
        bytes: &bytes,
        at: 0,
    }
    .commands()
}

impl Duel {
    /// This game as a share code.
    pub fn share_code(&self) -> String {
        #[cfg(feature = "custom-decks")]
        return encode_dealt(
            &self.deck_id,
            self.custom(),
            self.seed,
            self.settings,
            &self.log,
        );
        #[cfg(not(feature = "custom-decks"))]
        encode_game(&self.deck_id, self.seed, self.settings, &self.log)
    }

    /// The game a share code describes, replayed to its last command.
    pub fn from_share_code(code: &str) -> Result<Duel, ShareError> {
        Ok(Shared::decode(code)?.replay()?)
    }
}

/// Appends a count, then each passcode and, when given, its copies (what
/// [`Reader::codes`] reads).
#[cfg(feature = "custom-decks")]
fn put_codes(out: &mut Vec<u8>, n: usize, codes: &mut dyn Iterator<Item = (Code, Option<u8>)>) {
    put(out, n as u64);
    for (code, copies) in codes {
        put(out, u64::from(code));
        out.extend(copies);
    }
}

/// Appends `n` as a LEB128 variable-length integer.
fn put(out: &mut Vec<u8>, mut n: u64) {
    loop {
        let low = (n & 0x7f) as u8;
        n >>= 7;
        if n == 0 {
            out.push(low);
            return;
        }
        out.push(low | 0x80);
    }
}

fn put_command(out: &mut Vec<u8>, cmd: &Command) {
    let (tag, card) = match cmd {
        Command::SummonMonster { card } => (0, Some(card)),
        Command::SetMonster { card } => (1, Some(card)),
        Command::SetSpellTrap { card } => (2, Some(card)),
        Command::ActivateSpell { card } => (3, Some(card)),
        Command::ActivateEffect { card } => (4, Some(card)),
        Command::SynchroSummon { card } => (5, Some(card)),
        Command::PassChain => (6, None),
        Command::AdvancePhase => (7, None),
        Command::EndTurn => (8, None),
        Command::Respond(Response::Option(v)) => {
            out.push(9);
            out.push(*v);
            return;
        }
        Command::Respond(Response::Cards(ids)) => {
            out.push(10);
            put(out, ids.len() as u64);
            for id in ids {
                put(out, u64::from(id.0));
            }
            return;
        }
    };
    out.push(tag);
    if let Some(card) = card {
        put(out, u64::from(card.0));
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn done(&self) -> bool {
        self.at >= self.bytes.len()
    }

    fn byte(&mut self) -> Result<u8, DecodeError> {
        let b = *self.bytes.get(self.at).ok_or(DecodeError::Truncated)?;
        self.at += 1;
        Ok(b)
    }

    #[cfg(feature = "custom-decks")]
    /// A count, then that many passcodes, each followed by its copies when `copies`
    /// (one each otherwise). A count larger than the bytes left could hold is refused
    /// before anything is allocated.
    fn codes(&mut self, copies: bool) -> Result<Vec<(Code, u8)>, DecodeError> {
        let n = self.varint()?;
        if n > self.bytes.len().saturating_sub(self.at) as u64 {
            return Err(DecodeError::Truncated);
        }
        let mut out = Vec::new();
        for _ in 0..n {
            let code = Code::try_from(self.varint()?).map_err(|_| DecodeError::Overflow)?;
            out.push((code, if copies { self.byte()? } else { 1 }));
        }
        Ok(out)
    }

    /// [`Reader::codes`] of single cards.
    #[cfg(feature = "custom-decks")]
    fn cards(&mut self) -> Result<Vec<Code>, DecodeError> {
        Ok(self.codes(false)?.into_iter().map(|(c, _)| c).collect())
    }

    fn varint(&mut self) -> Result<u64, DecodeError> {
        let mut n = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            n |= u64::from(b & 0x7f)
                .checked_shl(shift)
                .ok_or(DecodeError::Overflow)?;
            if b & 0x80 == 0 {
                return Ok(n);
            }
        }
        Err(DecodeError::Overflow)
    }

    fn card(&mut self) -> Result<CardId, DecodeError> {
        u16::try_from(self.varint()?)
            .map(CardId)
            .map_err(|_| DecodeError::Overflow)
    }

    /// The commands up to the end of the bytes.
    fn commands(&mut self) -> Result<Vec<Command>, DecodeError> {
        let mut commands = Vec::new();
        while !self.done() {
            commands.push(self.command()?);
        }
        Ok(commands)
    }

    fn command(&mut self) -> Result<Command, DecodeError> {
        let tag = self.byte()?;
        Ok(match tag {
            0 => Command::SummonMonster { card: self.card()? },
            1 => Command::SetMonster { card: self.card()? },
            2 => Command::SetSpellTrap { card: self.card()? },
            3 => Command::ActivateSpell { card: self.card()? },
            4 => Command::ActivateEffect { card: self.card()? },
            5 => Command::SynchroSummon { card: self.card()? },
            6 => Command::PassChain,
            7 => Command::AdvancePhase,
            8 => Command::EndTurn,
            9 => Command::Respond(Response::Option(self.byte()?)),
            10 => {
                let n = self.varint()?;
                // A selection never holds more cards than a duel has.
                if n > u64::from(u16::MAX) {
                    return Err(DecodeError::Overflow);
                }
                let mut ids = Vec::new();
                for _ in 0..n {
                    ids.push(self.card()?);
                }
                Command::Respond(Response::Cards(ids))
            }
            other => return Err(DecodeError::BadCommand(other)),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::Engine;
    use base64::engine::general_purpose::URL_SAFE_NO_PAD;

    #[test]
    fn a_game_round_trips_through_its_share_code() {
        let mut d = Duel::new("exodia-deck", 9).expect("deck");
        for cmd in d.legal_commands().into_iter().take(1) {
            d.apply(cmd).expect("legal");
        }
        let code = d.share_code();
        let back = Duel::from_share_code(&code).expect("replays");
        assert_eq!(back, d);
    }

    #[test]
    fn command_lists_round_trip_and_bad_ones_are_refused() {
        let commands = vec![
            Command::SummonMonster { card: CardId(3) },
            Command::Respond(Response::Cards(vec![CardId(1), CardId(300)])),
            Command::Respond(Response::Option(2)),
            Command::PassChain,
        ];
        assert_eq!(decode_commands(&encode_commands(&commands)), Ok(commands));
        assert_eq!(encode_commands(&[]), "");
        assert_eq!(decode_commands(""), Ok(Vec::new()));
        assert_eq!(decode_commands("!!"), Err(DecodeError::NotBase64));
        let bad_tag = URL_SAFE_NO_PAD.encode([6u8, 77]);
        assert_eq!(decode_commands(&bad_tag), Err(DecodeError::BadCommand(77)));
        let cut = URL_SAFE_NO_PAD.encode([0u8]);
        assert_eq!(decode_commands(&cut), Err(DecodeError::Truncated));
    }

    #[test]
    fn a_game_of_an_unknown_deck_encodes_to_a_code_that_is_refused() {
        let code = encode_game("no-such-deck", 5, Settings::default(), &[]);
        assert_eq!(
            Shared::decode(&code),
            Err(DecodeError::UnknownDeck(u8::MAX))
        );
    }

    #[test]
    fn bad_codes_are_refused_with_a_reason() {
        assert_eq!(Shared::decode("!!!"), Err(DecodeError::NotBase64));
        assert_eq!(Shared::decode(""), Err(DecodeError::Truncated));
        let wrong_version = URL_SAFE_NO_PAD.encode([9u8, 0, 1, 0]);
        assert_eq!(Shared::decode(&wrong_version), Err(DecodeError::Version(9)));
        let no_deck = URL_SAFE_NO_PAD.encode([VERSION, 200, 1, 0]);
        assert_eq!(Shared::decode(&no_deck), Err(DecodeError::UnknownDeck(200)));
        let bad_tag = URL_SAFE_NO_PAD.encode([VERSION, 0, 1, 0, 77]);
        assert_eq!(Shared::decode(&bad_tag), Err(DecodeError::BadCommand(77)));
        let long = URL_SAFE_NO_PAD.encode([
            VERSION, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01,
        ]);
        assert_eq!(Shared::decode(&long), Err(DecodeError::Overflow));
    }

    #[test]
    fn a_code_whose_commands_do_not_replay_is_refused() {
        let shared = Shared {
            deck: "exodia-deck".into(),
            seed: 1,
            settings: Settings::default(),
            commands: vec![Command::PassChain],
            #[cfg(feature = "custom-decks")]
            custom: None,
        };
        assert!(matches!(
            Duel::from_share_code(&shared.encode()),
            Err(ShareError::Replay(ReplayError::Refused { index: 0, .. }))
        ));
    }
}

#[cfg(all(test, feature = "custom-decks"))]
mod dealt {
    use super::*;
    use crate::solver::{policy_for, rollout};
    use crate::state::{Outcome, Reason};

    fn custom_list() -> Custom {
        let mut list = DeckList::from(crate::deck::deck("exodia-deck").expect("preset"));
        assert!(list.remove(55_144_522));
        assert!(list.add(98_645_731).is_ok());
        Custom {
            list: Some(list),
            opening: Opening {
                hand: vec![33_396_948, 98_645_731],
                top: vec![70_368_879],
            },
        }
    }

    #[test]
    fn a_game_of_a_custom_deck_or_a_test_hand_round_trips_through_its_share_code() {
        let test_hand = Custom {
            list: None,
            opening: Opening {
                hand: vec![55_144_522],
                top: vec![],
            },
        };
        for (deck, custom) in [
            (CUSTOM_DECK_ID, custom_list()),
            ("exodia-deck", test_hand),
            (
                "panda-exodia-deck",
                Custom {
                    list: Some(DeckList::from(
                        crate::deck::deck("panda-exodia-deck").expect("preset"),
                    )),
                    opening: Opening::default(),
                },
            ),
        ] {
            let start = Duel::dealt(deck, Some(&custom), 11, Settings::default()).expect("deals");
            let goal = Outcome::Win(Reason::Exodia);
            let (end, _) = rollout(&start, &mut seeded_rng::Rng::new(5), policy_for(goal));
            let code = end.share_code();
            let shared = Shared::decode(&code).expect("decodes");
            assert_eq!(shared.custom.as_ref(), Some(&custom));
            assert_eq!(shared.deck, end.deck_id());
            assert_eq!(shared.commands, end.log);
            let back = Duel::from_share_code(&code).expect("replays");
            assert!(back == end, "{deck}");
            assert_eq!(shared.encode(), code);
        }
    }

    /// A list that reaches both goals (exodia-deck with a Toon Cannon Soldier) plays for
    /// Exodia unless the player chose the burn, and the share code and the statistics'
    /// deck id carry that choice.
    #[test]
    fn a_chosen_burn_goal_travels_in_the_share_code_and_decides_the_goal() {
        let mut list = DeckList::from(crate::deck::deck("exodia-deck").expect("preset"));
        assert!(list.add(79_875_176).is_ok());
        let (exodia, burn) = (Outcome::Win(Reason::Exodia), Outcome::Win(Reason::Lp0));
        assert_eq!(list.goals(), vec![exodia, burn]);
        assert_eq!(list.goal(), Some(exodia));
        for chosen in [None, Some(Reason::Exodia), Some(Reason::Lp0)] {
            list.goal = chosen;
            let custom = Custom {
                list: Some(list.clone()),
                opening: Opening::default(),
            };
            let code = encode_dealt(CUSTOM_DECK_ID, Some(&custom), 4, Settings::default(), &[]);
            let shared = Shared::decode(&code).expect("decodes");
            let back = shared
                .custom
                .as_ref()
                .and_then(|c| c.list.as_ref())
                .expect("a list");
            let expected = if chosen == Some(Reason::Lp0) {
                burn
            } else {
                exodia
            };
            assert_eq!(back.goal(), Some(expected));
            assert_eq!(
                crate::stats::goal_of_dealt(CUSTOM_DECK_ID, shared.custom.as_ref()),
                Ok(expected)
            );
        }
        // A choice the cards do not reach is not the goal.
        let mut exodia_only = DeckList::from(crate::deck::deck("exodia-deck").expect("preset"));
        exodia_only.goal = Some(Reason::Lp0);
        assert_eq!(exodia_only.goal(), Some(exodia));
    }

    #[test]
    fn a_preset_game_keeps_its_short_code() {
        let d = Duel::new("exodia-deck", 3).expect("deals");
        let code = d.share_code();
        assert_eq!(
            code,
            encode_game("exodia-deck", 3, Settings::default(), &[])
        );
        assert_eq!(Shared::decode(&code).expect("decodes").custom, None);
    }

    #[test]
    fn a_cut_or_forged_dealt_code_is_refused_without_allocating() {
        let d = Duel::dealt(CUSTOM_DECK_ID, Some(&custom_list()), 2, Settings::default())
            .expect("deals");
        let code = d.share_code();
        let bytes = from_base64url(&code).expect("base64url");
        for cut in 2..bytes.len() - 2 {
            assert!(
                Shared::decode(&to_base64url(&bytes[..cut])).is_err(),
                "cut at {cut}"
            );
        }
        // A list that claims a billion entries.
        let forged = to_base64url(&[VERSION, DEALT, HAS_LIST, 0x80, 0x94, 0xeb, 0xdc, 0x03]);
        assert_eq!(Shared::decode(&forged), Err(DecodeError::Truncated));
        // A test hand of a preset that does not exist.
        let forged = to_base64url(&[VERSION, DEALT, 0, 9, 1, 0]);
        assert_eq!(Shared::decode(&forged), Err(DecodeError::UnknownDeck(9)));
    }
}

#[cfg(test)]
mod base64url {
    use super::{from_base64url, to_base64url};
    use base64::Engine;
    use base64::engine::general_purpose::URL_SAFE_NO_PAD;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn encodes_and_decodes_as_the_base64_crate(bytes in proptest::collection::vec(any::<u8>(), 0..80)) {
            let ours = to_base64url(&bytes);
            prop_assert_eq!(&ours, &URL_SAFE_NO_PAD.encode(&bytes));
            prop_assert_eq!(from_base64url(&ours), Some(bytes));
        }

        #[test]
        fn refuses_what_the_base64_crate_refuses(text in "[A-Za-z0-9_=+/ !-]{0,12}") {
            prop_assert_eq!(from_base64url(&text), URL_SAFE_NO_PAD.decode(&text).ok());
        }
    }

    #[test]
    fn leftover_bits_and_lengths() {
        for text in [
            "", "A", "AA", "AB", "AAA", "AAB", "AAAA", "AAAAA", "QQ", "QR", "=", "AA==",
        ] {
            assert_eq!(
                from_base64url(text),
                URL_SAFE_NO_PAD.decode(text).ok(),
                "{text:?}"
            );
        }
    }

    /// The standard alphabet with padding, which deck links use.
    #[cfg(feature = "custom-decks")]
    mod padded {
        use super::super::{from_base64, to_base64};
        use base64::Engine;
        use base64::engine::general_purpose::{STANDARD, STANDARD_NO_PAD};
        use proptest::prelude::*;

        proptest! {
            #[test]
            fn encodes_and_decodes_as_the_base64_crate(bytes in proptest::collection::vec(any::<u8>(), 0..80)) {
                let ours = to_base64(&bytes);
                prop_assert_eq!(&ours, &STANDARD.encode(&bytes));
                prop_assert_eq!(from_base64(&ours), Some(bytes.clone()));
                prop_assert_eq!(from_base64(&STANDARD_NO_PAD.encode(&bytes)), Some(bytes));
            }

            #[test]
            fn reads_what_the_base64_crate_reads_with_or_without_padding(text in "[A-Za-z0-9_=+/ !-]{0,12}") {
                let theirs = STANDARD.decode(&text).ok().or_else(|| STANDARD_NO_PAD.decode(&text).ok());
                prop_assert_eq!(from_base64(&text), theirs);
            }
        }
    }
}
