//! Position keys for the solver's table: two positions with the same key have the same
//! futures, so a position reached by another order of the same actions is searched once.
//!
//! At a quiet position (the open Main or End Phase: no prompt, chain, running effect or
//! pending trigger) the key names cards by what they are and where, never by instance id:
//! copies of a card in the same state are interchangeable (the engine's shuffles depend
//! only on what a player can tell apart), the hand, graveyard, banishment and Extra Deck
//! are sets (nothing reads their order but the opponent's hand, kept in order), the deck
//! is a sequence (the opponent's, which only loses its top cards in a turn, by its
//! cards' ids), and stamps only count as "this card has not moved since" where an End
//! Phase effect remembers a card. Any other position is keyed by all of its data.

use std::hash::{Hash, Hasher};

use crate::state::{
    CardId, CardInstance, Duel, Held, Location, OptKey, Player, PlayerState, Position,
};

#[cfg(feature = "pile-keys")]
mod kept;
#[cfg(feature = "pile-keys")]
use kept::Piles;
#[cfg(feature = "pile-keys")]
pub(crate) use kept::{pushed, removed};

/// A 128-bit position key (two independent 64-bit hashes of the same words): a
/// collision, which would make a search trust another position's result, is out of
/// reach at the table sizes the solver uses.
pub(crate) type Key = u128;

/// Collects the words of a key and hashes them twice.
#[derive(Default)]
struct Words {
    a: u64,
    b: u64,
}

impl Words {
    fn word(&mut self, w: u64) {
        // FxHash's step, and a multiply-xorshift step with other constants.
        self.a = (self.a.rotate_left(5) ^ w).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        let x = (self.b ^ w).wrapping_add(0x9E37_79B9_7F4A_7C15);
        let x = (x ^ (x >> 31)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        self.b = x ^ (x >> 29);
    }

    fn words(&mut self, words: [u64; 3]) {
        for w in words {
            self.word(w);
        }
    }

    fn key(&self) -> Key {
        (u128::from(self.a) << 64) | u128::from(self.b)
    }
}

impl Hasher for Words {
    fn finish(&self) -> u64 {
        self.a
    }

    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut buf = [0u8; 8];
            buf[..chunk.len()].copy_from_slice(chunk);
            self.word(u64::from_le_bytes(buf));
        }
        self.word(bytes.len() as u64);
    }

    fn write_u8(&mut self, i: u8) {
        self.word(u64::from(i));
    }

    fn write_u16(&mut self, i: u16) {
        self.word(u64::from(i));
    }

    fn write_u32(&mut self, i: u32) {
        self.word(u64::from(i));
    }

    fn write_u64(&mut self, i: u64) {
        self.word(i);
    }

    fn write_usize(&mut self, i: usize) {
        self.word(i as u64);
    }
}

/// The key of a position.
pub(crate) fn key(d: &Duel) -> Key {
    if quiet(d) { quiet_key(d) } else { full_key(d) }
}

/// No prompt, chain, running effect or trigger: the player acts on an open game state.
pub(crate) fn quiet(d: &Duel) -> bool {
    d.prompt.is_none()
        && d.chain.is_empty()
        && d.frames.is_empty()
        && d.triggers.is_empty()
        && d.trigger_build.is_none()
        && !d.resolving
}

/// Every field that decides what can still happen, ids and stamps included.
fn full_key(d: &Duel) -> Key {
    let mut w = Words::default();
    w.word(1);
    // Each card as a few words (what it is and its state, where, its stamp and what it
    // is equipped to) rather than its derived hash, field by field: the same data for
    // a fraction of the work.
    for c in &d.cards {
        let (a, b) = state_words(c);
        w.word(a);
        w.word(b);
        w.word(
            location_word(c.location)
                | u64::from(c.stamp) << 8
                | c.equipped_to.map_or(0, |m| 1 + u64::from(m.0)) << 40,
        );
    }
    (&d.players, &d.chain, &d.frames, &d.prompt).hash(&mut w);
    (
        &d.used_opt,
        &d.delayed,
        &d.restrictions,
        d.end_step,
        d.phase,
    )
        .hash(&mut w);
    (&d.triggers, &d.trigger_build, &d.watchers, d.last_happening).hash(&mut w);
    (d.resolving, d.outcome, &d.rng, d.turn).hash(&mut w);
    w.key()
}

/// A card as a pair of words: what it is and its state (no id, place or stamp), with
/// the once-per-turn uses of its own effects and, for an equip, the zone of its monster.
fn card_words(d: &Duel, id: CardId) -> (u64, u64) {
    let Some(c) = d.cards.get(id.index()) else {
        return (u64::MAX, u64::MAX);
    };
    let uses = opt_bits(d, id);
    let equip = c
        .equipped_to
        .and_then(|m| d.cards.get(m.index()))
        .map_or(0, |m| 1 + place(m));
    let (a, b) = state_words(c);
    (a, b ^ (uses << 24) ^ (equip << 56))
}

/// What a card is and its state, as two words.
fn state_words(c: &CardInstance) -> (u64, u64) {
    let a = u64::from(c.code)
        | u64::from(c.owner == Player::You) << 32
        | u64::from(c.controller == Player::You) << 33
        | u64::from(c.face == crate::state::Face::Up) << 34
        | match c.position {
            None => 0,
            Some(Position::Attack) => 1,
            Some(Position::Defense) => 2,
        } << 35
        | u64::from(c.placed_this_turn) << 37
        | c.summoned
            .map_or(0, |s| 1 + (s.kind as u64) * 2 + u64::from(s.proper))
            << 38
        | u64::from(c.counters) << 44
        | u64::from(c.location == Location::Vanished) << 52;
    let b = c
        .last_known
        .map_or(0, |l| 1 | u64::from(l.atk) << 1 | u64::from(l.level) << 17);
    (a, b)
}

/// A field card's zone as a small number (player, zone, slot); 0 off the field.
fn place(c: &CardInstance) -> u64 {
    let p = u64::from(c.controller == Player::You) * 16;
    p + match c.location {
        Location::MainMonsterZone(s) => 1 + u64::from(s),
        Location::SpellTrapZone(s) => 6 + u64::from(s),
        Location::FieldZone => 11,
        _ => 0,
    }
}

/// How a pile is keyed (and, with the `pile-keys` feature, as its memo records it).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum PileKind {
    /// A pile whose order nothing reads, as a multiset of its cards' words ([`Bag`]).
    Set = 1,
    /// A pile in its order, as the multiset of its cards' words with their places: what
    /// the sequence says, in a form a card put on or taken from the top updates.
    Sequence = 2,
    /// The opponent's deck, by its cards' ids in order ([`ids_of`]).
    Ids = 3,
}

/// A pile's three words in the key, worked out from its cards, `card` each card's pair
/// of words.
fn fresh_pile_words(
    d: &Duel,
    ids: &[CardId],
    kind: PileKind,
    card: impl Fn(&Duel, CardId) -> (u64, u64),
) -> [u64; 3] {
    match kind {
        PileKind::Set => {
            let mut bag = Bag::default();
            for &id in ids {
                let (a, b) = card(d, id);
                bag.add(&[a, b]);
            }
            bag.words()
        }
        PileKind::Sequence => {
            let mut bag = Bag::default();
            for (i, &id) in ids.iter().enumerate() {
                let (a, b) = card(d, id);
                bag.add(&[placed(a, i), b]);
            }
            bag.words()
        }
        PileKind::Ids => ids_of(ids),
    }
}

/// A card's first word with its place in a sequence, in the bits [`state_words`]
/// leaves free.
fn placed(a: u64, i: usize) -> u64 {
    debug_assert!(i < 1 << 11);
    a | (i as u64) << 53
}

/// The piles' words, without the `pile-keys` feature: each pile's worked out afresh at
/// every key, its cards' once-per-turn uses included. The feature's [`Piles`] (kept
/// words, mended with the uses) gives the same words.
#[cfg(not(feature = "pile-keys"))]
struct Piles;

#[cfg(not(feature = "pile-keys"))]
impl Piles {
    fn of(_: &Duel) -> Piles {
        Piles
    }

    /// The words of a pile (the player and the pile's place among the player's piles,
    /// which [`Piles`] with the feature mends by, go unused).
    fn words(
        &self,
        d: &Duel,
        _: Player,
        _: usize,
        pile: &crate::state::Pile,
        kind: PileKind,
    ) -> [u64; 3] {
        fresh_pile_words(d, pile, kind, card_words)
    }
}

/// The once-per-turn uses of a card's own effects, a bit per effect.
fn opt_bits(d: &Duel, id: CardId) -> u64 {
    let mut uses = 0u64;
    for k in &d.used_opt {
        if let OptKey::Card(card, effect) = k
            && *card == id
        {
            uses |= 1 << (effect % 32);
        }
    }
    uses
}

/// Items whose order does not count (a multiset), each a few words: their number and
/// the sums of two independent mixes of each item's words. Sums do not depend on the
/// order and need no sorting or allocation, which the key is computed too often for.
#[derive(Default)]
struct Bag {
    n: u64,
    x: u64,
    y: u64,
}

impl Bag {
    /// An item's two mixes.
    fn item(item: &[u64]) -> (u64, u64) {
        let mut m = Words::default();
        for &word in item {
            m.word(word);
        }
        (m.a, m.b)
    }

    fn add(&mut self, item: &[u64]) {
        let (a, b) = Bag::item(item);
        self.x = self.x.wrapping_add(a);
        self.y = self.y.wrapping_add(b);
        self.n += 1;
    }

    fn words(&self) -> [u64; 3] {
        [self.n, self.x, self.y]
    }

    fn into_words(self, w: &mut Words) {
        w.words(self.words());
    }
}

/// The opponent's deck, by its cards' ids in order: in the first turn it only ever
/// loses its top cards to draws, so along one search its ids stand for its cards and
/// their states, and a quarter of the words of the cards' own.
fn ids_of(ids: &[CardId]) -> [u64; 3] {
    let mut w = Words::default();
    for four in ids.chunks(4) {
        let mut x = 0u64;
        for (i, id) in four.iter().enumerate() {
            x |= u64::from(id.0) << (16 * i);
        }
        w.word(x);
    }
    [ids.len() as u64, w.a, w.b]
}

fn player_words(d: &Duel, p: Player, ps: &PlayerState, piles: &Piles, w: &mut Words) {
    w.word(u64::from(ps.lp));
    w.word(
        u64::from(ps.normal_summon_limit)
            | u64::from(ps.normal_summon_used) << 8
            | u64::from(ps.special_summoned_this_turn) << 16
            | u64::from(ps.drew_from_empty) << 17,
    );
    let (deck, hand) = match p {
        Player::You => (PileKind::Sequence, PileKind::Set),
        // The opponent discards at random from its hand as it is ordered.
        Player::Opponent => (PileKind::Ids, PileKind::Sequence),
    };
    w.words(piles.words(d, p, 0, &ps.deck, deck));
    w.words(piles.words(d, p, 1, &ps.hand, hand));
    for slot in ps
        .monsters
        .iter()
        .chain(&ps.spell_trap)
        .chain([&ps.field_zone])
    {
        match slot {
            Some(id) => {
                let (a, b) = card_words(d, *id);
                w.word(a);
                w.word(b);
            }
            None => w.word(0),
        }
    }
    w.words(piles.words(d, p, 2, &ps.graveyard, PileKind::Set));
    w.words(piles.words(d, p, 3, &ps.banished, PileKind::Set));
    w.words(piles.words(d, p, 4, &ps.extra, PileKind::Set));
}

/// A card an End Phase effect or a watcher remembers: where it is and what it is, and
/// whether it has moved since it was remembered.
fn held_word(d: &Duel, h: &Held) -> u64 {
    let Some(c) = d.cards.get(h.id.index()) else {
        return u64::MAX;
    };
    let mut w = Words::default();
    let (a, b) = card_words(d, h.id);
    w.word(a);
    w.word(b);
    w.word(location_word(c.location) | u64::from(c.stamp == h.stamp) << 32);
    w.a
}

fn location_word(l: Location) -> u64 {
    match l {
        Location::Deck => 1,
        Location::Hand => 2,
        Location::MainMonsterZone(s) => 10 + u64::from(s),
        Location::SpellTrapZone(s) => 20 + u64::from(s),
        Location::FieldZone => 3,
        Location::Graveyard => 4,
        Location::Banished => 5,
        Location::ExtraDeck => 6,
        Location::Vanished => 7,
    }
}

fn quiet_key(d: &Duel) -> Key {
    let mut w = Words::default();
    w.word(2);
    let piles = Piles::of(d);
    for p in [Player::You, Player::Opponent] {
        player_words(d, p, d.player(p), &piles, &mut w);
    }
    (d.phase, d.end_step, d.turn, d.outcome, &d.rng).hash(&mut w);
    let mut names = Bag::default();
    for k in &d.used_opt {
        if let OptKey::Name(code) = k {
            names.add(&[u64::from(*code)]);
        }
    }
    names.into_words(&mut w);
    let mut restrictions = Bag::default();
    for r in &d.restrictions {
        let mut h = Words::default();
        r.hash(&mut h);
        restrictions.add(&[h.a]);
    }
    restrictions.into_words(&mut w);
    let mut delayed = Bag::default();
    for e in &d.delayed {
        let mut h = Words::default();
        h.word(held_word(
            d,
            &Held {
                id: e.source,
                stamp: d.cards.get(e.source.index()).map_or(0, |c| c.stamp),
            },
        ));
        (e.controller, &e.steps).hash(&mut h);
        for (reg, cards) in e.locals.regs.iter() {
            reg.hash(&mut h);
            let mut held = Bag::default();
            for c in cards {
                held.add(&[held_word(d, c)]);
            }
            held.into_words(&mut h);
        }
        (e.locals.did, e.locals.declared).hash(&mut h);
        let mut positions = Bag::default();
        for (id, pos) in &e.locals.positions {
            let stamp = d.cards.get(id.index()).map_or(0, |c| c.stamp);
            let held = held_word(d, &Held { id: *id, stamp });
            positions.add(&[held ^ u64::from(*pos == Position::Attack)]);
        }
        positions.into_words(&mut h);
        delayed.add(&[h.a]);
    }
    delayed.into_words(&mut w);
    let mut watchers = Bag::default();
    for x in &d.watchers {
        let stamp = d.cards.get(x.card.index()).map_or(0, |c| c.stamp);
        let mut h = Words::default();
        h.word(held_word(d, &Held { id: x.card, stamp }));
        (x.effect, x.controller, x.turn).hash(&mut h);
        watchers.add(&[h.a]);
    }
    watchers.into_words(&mut w);
    w.key()
}
