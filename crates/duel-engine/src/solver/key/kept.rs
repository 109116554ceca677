//! Kept pile words (the `pile-keys` feature). Without them the quiet key reads every
//! card of the hand, graveyard, banishment, Extra Deck and deck at each position, with
//! a scan of the once-per-turn uses for each. Here each pile keeps the words the key
//! made of its cards ([`Pile::memo`]), shared with the copies of a position that share
//! the pile and brought up to date as a card moves in or out ([`pushed`], [`removed`]):
//! a key reads the cards again only of a pile changed some other way (a shuffle, the
//! stand-ins' copy) or never keyed.
//!
//! The kept words leave out the cards' once-per-turn uses, which change while a card
//! stays in its pile (an effect used from the hand or the graveyard): [`Piles`] adds
//! them from `used_opt` in one pass at each key. Nothing else the words read changes
//! while a card stays in its pile: the engine changes a card's state on the field or as
//! it moves (`relocate` takes it out of its pile before changing it and puts it in
//! after), a Set card flipped face-up by its activation is on the field (asserted), and
//! the stand-ins, which change codes in a copy, have the copy's piles forget their
//! memos. A debug build compares every memo it reads with words worked out afresh, and
//! every pile's words with those of the build without the feature.

use super::{Bag, PileKind, card_words, fresh_pile_words, opt_bits, placed, state_words};
use crate::state::{CardId, CardInstance, Duel, Location, OptKey, Pile, Player};

/// A pile's three words without its cards' uses: its memo when the cards are the ones
/// it was worked out for, else worked out (and kept) afresh.
fn pile_words(d: &Duel, pile: &Pile, kind: PileKind) -> [u64; 3] {
    if let Some((k, words)) = pile.memo().get()
        && k == kind as u8
    {
        debug_assert_eq!(
            words,
            fresh_pile_words(d, pile, kind, pile_card_words),
            "a card changed in its pile {pile:?}"
        );
        return words;
    }
    let words = fresh_pile_words(d, pile, kind, pile_card_words);
    pile.memo().set(Some((kind as u8, words)));
    words
}

/// A pile's memo once `card` (its state as it lands) is put on top at `at`: the memo
/// with the card's item ([`pile_words`]), or `None` (worked out afresh) for the
/// opponent's deck, keyed as a sequence of ids.
pub(crate) fn pushed(
    memo: (u8, [u64; 3]),
    card: &CardInstance,
    at: usize,
) -> Option<(u8, [u64; 3])> {
    let (kind, [n, x, y]) = memo;
    let (i, j) = pile_item(kind, card, at, true)?;
    Some((kind, [n + 1, x.wrapping_add(i), y.wrapping_add(j)]))
}

/// A pile's memo once `card` (its state in the pile) is taken from `at`, `top` if it was
/// the last card: as [`pushed`], and `None` for a sequence that loses a card below its
/// top (the places of the cards above change).
pub(crate) fn removed(
    memo: (u8, [u64; 3]),
    card: &CardInstance,
    at: usize,
    top: bool,
) -> Option<(u8, [u64; 3])> {
    let (kind, [n, x, y]) = memo;
    let (i, j) = pile_item(kind, card, at, top)?;
    Some((kind, [n - 1, x.wrapping_sub(i), y.wrapping_sub(j)]))
}

/// The two mixes `card` at `at` adds to a pile of the memo's `kind`: `None` for a kind
/// a card moving in or out does not update (the opponent's deck, keyed by ids, and a
/// sequence whose other cards' places change, `at_top` false).
fn pile_item(kind: u8, card: &CardInstance, at: usize, at_top: bool) -> Option<(u64, u64)> {
    let (a, b) = in_pile(card);
    if kind == PileKind::Set as u8 {
        Some(Bag::item(&[a, b]))
    } else if kind == PileKind::Sequence as u8 && at_top {
        Some(Bag::item(&[placed(a, at), b]))
    } else {
        None
    }
}

/// A card of a pile as a pair of words, from its state.
fn in_pile(c: &CardInstance) -> (u64, u64) {
    debug_assert!(c.equipped_to.is_none(), "a card in a pile is equipped");
    state_words(c)
}

/// A card of a pile as a pair of words ([`card_words`] without its once-per-turn uses;
/// a card off the field is equipped to nothing).
fn pile_card_words(d: &Duel, id: CardId) -> (u64, u64) {
    let Some(c) = d.cards.get(id.index()) else {
        return (u64::MAX, u64::MAX);
    };
    in_pile(c)
}

/// The piles' cards with once-per-turn uses of their own effects, as the changes their
/// uses make to their piles' words: at most a few cards have any, so the piles' words
/// are kept without them ([`pile_words`]) and mended here.
#[derive(Default)]
pub(super) struct Piles {
    /// Per player and pile ([`pile_index`]): what to add to the two sums.
    mend: [[(u64, u64); 5]; 2],
}

/// A pile's place in [`Piles::mend`] (the opponent's deck, keyed by ids, has none).
fn pile_index(l: Location) -> Option<usize> {
    match l {
        Location::Deck => Some(0),
        Location::Hand => Some(1),
        Location::Graveyard => Some(2),
        Location::Banished => Some(3),
        Location::ExtraDeck => Some(4),
        _ => None,
    }
}

impl Piles {
    pub(super) fn of(d: &Duel) -> Piles {
        let mut piles = Piles::default();
        for (i, k) in d.used_opt.iter().enumerate() {
            let OptKey::Card(id, _) = *k else { continue };
            // Each card once, with all of its uses.
            if d.used_opt[..i]
                .iter()
                .any(|k| matches!(k, OptKey::Card(c, _) if *c == id))
            {
                continue;
            }
            let Some(c) = d.cards.get(id.index()) else {
                continue;
            };
            let Some(slot) = pile_index(c.location) else {
                continue;
            };
            let ps = d.player(c.controller);
            let (pile, kind) = match (c.location, c.controller) {
                (Location::Deck, Player::Opponent) => continue,
                (Location::Deck, Player::You) => (&ps.deck, PileKind::Sequence),
                (Location::Hand, Player::You) => (&ps.hand, PileKind::Set),
                (Location::Hand, Player::Opponent) => (&ps.hand, PileKind::Sequence),
                (Location::Graveyard, _) => (&ps.graveyard, PileKind::Set),
                (Location::Banished, _) => (&ps.banished, PileKind::Set),
                _ => (&ps.extra, PileKind::Set),
            };
            let (mut a, b) = pile_card_words(d, id);
            if kind == PileKind::Sequence {
                let Some(at) = pile.iter().position(|&x| x == id) else {
                    debug_assert!(false, "{id:?} is not in its pile");
                    continue;
                };
                a = placed(a, at);
            }
            debug_assert!(pile.contains(&id), "{id:?} is not in its pile");
            let bits = opt_bits(d, id);
            let (was, now) = (Bag::item(&[a, b]), Bag::item(&[a, b ^ (bits << 24)]));
            let m = &mut piles.mend[c.controller.index()][slot];
            m.0 = m.0.wrapping_add(now.0.wrapping_sub(was.0));
            m.1 = m.1.wrapping_add(now.1.wrapping_sub(was.1));
        }
        piles
    }

    /// The words of a player's pile with its cards' uses, `slot` its place among the
    /// player's piles ([`pile_index`]).
    pub(super) fn words(
        &self,
        d: &Duel,
        p: Player,
        slot: usize,
        pile: &Pile,
        kind: PileKind,
    ) -> [u64; 3] {
        let (x, y) = self.mend[p.index()][slot];
        let [n, a, b] = pile_words(d, pile, kind);
        let words = [n, a.wrapping_add(x), b.wrapping_add(y)];
        debug_assert_eq!(
            words,
            fresh_pile_words(d, pile, kind, card_words),
            "{p:?}'s pile {pile:?} keyed unlike the build without kept words"
        );
        words
    }
}

#[cfg(test)]
mod tests {
    use super::super::{key, quiet};
    use crate::command::Command;
    use crate::state::{Duel, Pile, Settings};
    use seeded_rng::Rng;

    /// The duel with every pile copied afresh: no memo of the key.
    fn without_memos(d: &Duel) -> Duel {
        let mut fresh = d.clone();
        for ps in &mut fresh.players {
            for pile in ps.piles_mut() {
                *pile = Pile::from(pile.to_vec());
            }
        }
        fresh
    }

    /// The piles' memos, kept with the cards and shared by the copies as the search
    /// shares them, key every position as piles keyed afresh do: along random lines of
    /// every deck, a copy is keyed after each move from a keyed position, and the
    /// position it was copied from still keys as before.
    #[test]
    fn kept_pile_words_key_positions_as_piles_keyed_afresh() {
        let mut quiet_keys = 0;
        for deck in crate::decks() {
            for seed in 0..100 {
                let Ok(mut d) = Duel::with_settings(&deck.id, seed, Settings::default()) else {
                    panic!("deck {} does not start", deck.id);
                };
                d.journal.off = true;
                let mut rng = Rng::new(seed);
                for _ in 0..200 {
                    if d.outcome.is_some() {
                        break;
                    }
                    // Mostly lines that go on playing rather than end the turn.
                    let mut options = crate::solver::choices(&d);
                    let ending =
                        |c: &Command| matches!(c, Command::EndTurn | Command::AdvancePhase);
                    if options.iter().any(|c| !ending(c)) && rng.index(10) > 0 {
                        options.retain(|c| !ending(c));
                    }
                    if options.is_empty() {
                        break;
                    }
                    let before = key(&d);
                    let mut next = d.clone();
                    next.apply_valid(&options[rng.index(options.len())]);
                    assert_eq!(key(&next), key(&without_memos(&next)), "{} {seed}", deck.id);
                    assert_eq!(key(&d), before, "{} {seed}: the copy changed it", deck.id);
                    quiet_keys += usize::from(quiet(&next));
                    d = next;
                }
            }
        }
        assert!(quiet_keys > 3_000, "{quiet_keys} quiet positions");
    }
}
