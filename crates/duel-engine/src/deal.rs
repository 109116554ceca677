//! Duels dealt from what a preset deck and a seed do not say: a deck list of the
//! player's own, and cards dealt on purpose (a test hand and the cards on top of the
//! deck). The rest of the deck is shuffled by the seed as usual, so the same deal, seed
//! and commands replay the same game.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::card::Code;
use crate::command::Command;
use crate::deck::deck;
use crate::deck_list::DeckList;
use crate::setup::{ReplayError, SetupError};
use crate::state::{Duel, OPENING_HAND, Phase, Player, Settings};

/// The deck id of a duel of a deck list of the player's own.
pub const CUSTOM_DECK_ID: &str = "custom";

/// Cards dealt on purpose.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Opening {
    /// Cards of the opening hand (at most five; the others are dealt from the shuffled
    /// deck).
    pub hand: Vec<Code>,
    /// The cards on top of the deck once the hand is dealt, top first.
    pub top: Vec<Code>,
}

impl Opening {
    pub fn is_empty(&self) -> bool {
        self.hand.is_empty() && self.top.is_empty()
    }
}

/// `custom` unless it deals nothing a preset and a seed do not (no list, no opening):
/// such a deal is the preset's, and is dealt and encoded as one.
pub(crate) fn given(custom: Option<&Custom>) -> Option<&Custom> {
    // (Asked field by field: the whole comparison weighed more in the duel page's bundle.)
    custom.filter(|c| c.list.is_some() || !c.opening.is_empty())
}

/// What a duel is dealt from besides a preset deck and the seed.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Custom {
    /// The deck, when it is not a preset one.
    pub list: Option<DeckList>,
    pub opening: Opening,
}

impl Duel {
    /// A new duel of the preset `deck_id`, or of `custom`'s list when it has one (its id
    /// is then [`CUSTOM_DECK_ID`]), with `custom`'s opening dealt on purpose. Without
    /// `custom` (or with an empty one) this is [`Duel::with_settings`]. A list with a
    /// problem is refused with the first one, an opening that asks for cards the deck
    /// does not hold with [`SetupError::NotInDeck`].
    pub fn dealt(
        deck_id: &str,
        custom: Option<&Custom>,
        seed: u64,
        settings: Settings,
    ) -> Result<Duel, SetupError> {
        // One path for a preset and a list (the duel page's bundle links it once).
        let custom = given(custom);
        let (id, main, extra) = match custom.and_then(|c| c.list.as_ref()) {
            Some(list) => {
                if let Some(p) = list.first_problem() {
                    return Err(SetupError::IllegalDeck(p));
                }
                (CUSTOM_DECK_ID, list.main_codes(), list.extra_codes())
            }
            None => {
                let d = deck(deck_id).ok_or_else(|| SetupError::UnknownDeck(deck_id.into()))?;
                if !d.playable {
                    return Err(SetupError::DeckNotPlayable(deck_id.into()));
                }
                (deck_id, d.main_codes(), d.extra_codes())
            }
        };
        let mut duel = Duel::shuffled(id, &main, &extra, seed, settings)?;
        if let Some(custom) = custom {
            duel.stack(&custom.opening)?;
            duel.custom = Some(Arc::new(custom.clone()));
        }
        duel.open(OPENING_HAND, Phase::Main1);
        Ok(duel)
    }

    /// [`Duel::replay`] of a duel [`Duel::dealt`].
    pub fn replay_dealt(
        deck_id: &str,
        custom: Option<&Custom>,
        seed: u64,
        settings: Settings,
        log: &[Command],
    ) -> Result<Duel, ReplayError> {
        let mut duel = Duel::dealt(deck_id, custom, seed, settings)?;
        for (index, cmd) in log.iter().enumerate() {
            duel.apply(cmd.clone())
                .map_err(|error| ReplayError::Refused { index, error })?;
        }
        Ok(duel)
    }

    /// The deck list and opening this duel was dealt, if not a preset deck shuffled.
    pub fn custom(&self) -> Option<&Custom> {
        self.custom.as_deref()
    }

    /// Puts the opening's cards where it asks, before the opening hands are drawn: its
    /// hand on top, then as many cards as the hand lacks from the shuffled rest, then its
    /// top cards. Of several copies, the one nearest the top is taken, so the rest keeps
    /// the seed's order.
    fn stack(&mut self, opening: &Opening) -> Result<(), SetupError> {
        if opening.hand.len() > OPENING_HAND {
            return Err(SetupError::HandTooLarge(opening.hand.len()));
        }
        // Top first from here on (the deck is stored bottom first).
        let mut rest: Vec<_> = self
            .player(Player::You)
            .deck
            .iter()
            .rev()
            .copied()
            .collect();
        // The hand's cards, then the top's, each the copy nearest the top.
        let mut order = Vec::with_capacity(rest.len());
        for &code in opening.hand.iter().chain(&opening.top) {
            let at = rest
                .iter()
                .position(|&id| self.instance(id).is_some_and(|c| c.code == code))
                .ok_or(SetupError::NotInDeck(code))?;
            order.push(rest.remove(at));
        }
        let top = order.split_off(opening.hand.len());
        let filler = (OPENING_HAND - order.len()).min(rest.len());
        order.extend(rest.drain(..filler));
        order.extend(top);
        order.extend(rest);
        order.reverse();
        self.player_mut(Player::You).deck = order.into();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deck::decks;

    fn hand_codes(d: &Duel) -> Vec<Code> {
        d.player(Player::You)
            .hand
            .iter()
            .filter_map(|&id| d.instance(id).map(|c| c.code))
            .collect()
    }

    fn top_codes(d: &Duel, n: usize) -> Vec<Code> {
        d.player(Player::You)
            .deck
            .iter()
            .rev()
            .take(n)
            .filter_map(|&id| d.instance(id).map(|c| c.code))
            .collect()
    }

    #[test]
    fn a_preset_list_deals_the_same_game_as_the_preset() {
        for d in decks() {
            let custom = Custom {
                list: Some(DeckList::from(d)),
                opening: Opening::default(),
            };
            for seed in 0..5 {
                let mine =
                    Duel::dealt(&d.id, Some(&custom), seed, Settings::default()).expect("deals");
                let preset = Duel::with_settings(&d.id, seed, Settings::default()).expect("deals");
                assert_eq!(mine.players, preset.players, "{} seed {seed}", d.id);
                assert_eq!(&*mine.deck_id, CUSTOM_DECK_ID);
                assert_eq!(
                    crate::solver::position_key(&mine),
                    crate::solver::position_key(&preset)
                );
            }
        }
    }

    #[test]
    fn a_chosen_hand_and_top_cards_are_dealt_exactly() {
        let reborn = 83_764_719;
        let catapult = 95_727_991;
        let opening = Opening {
            hand: vec![catapult, catapult, reborn],
            top: vec![catapult, 55_144_522],
        };
        let custom = Custom {
            list: None,
            opening: opening.clone(),
        };
        for seed in 0..20 {
            let d = Duel::dealt(
                "scientist-catapult-deck",
                Some(&custom),
                seed,
                Settings::default(),
            )
            .expect("deals");
            let hand = hand_codes(&d);
            assert_eq!(hand[..3], opening.hand[..], "seed {seed}");
            assert_eq!(hand.len(), 5);
            assert_eq!(top_codes(&d, 2), opening.top, "seed {seed}");
            assert_eq!(d.custom(), Some(&custom));
            // The other two hand cards come from the seed's shuffle.
            assert_eq!(d.player(Player::You).deck.len(), 35);
        }
    }

    #[test]
    fn an_opening_the_deck_cannot_deal_is_refused() {
        let ask = |hand: Vec<Code>, top: Vec<Code>| {
            Duel::dealt(
                "exodia-deck",
                Some(&Custom {
                    list: None,
                    opening: Opening { hand, top },
                }),
                1,
                Settings::default(),
            )
            .map(|_| ())
        };
        let pot = 55_144_522;
        assert_eq!(ask(vec![pot; 4], vec![]), Err(SetupError::NotInDeck(pot)));
        assert_eq!(
            ask(vec![pot; 3], vec![pot]),
            Err(SetupError::NotInDeck(pot))
        );
        assert_eq!(ask(vec![pot; 6], vec![]), Err(SetupError::HandTooLarge(6)));
        assert_eq!(ask(vec![1], vec![]), Err(SetupError::NotInDeck(1)));
        assert_eq!(ask(vec![pot; 3], vec![]), Ok(()));
    }

    #[test]
    fn an_illegal_list_is_refused_with_its_first_problem() {
        let custom = Custom {
            list: Some(DeckList::default()),
            opening: Opening::default(),
        };
        assert_eq!(
            Duel::dealt("exodia-deck", Some(&custom), 1, Settings::default()).map(|_| ()),
            Err(SetupError::IllegalDeck(
                crate::deck_list::DeckProblem::MainTooSmall(0)
            ))
        );
    }

    #[test]
    fn a_dealt_duel_undoes_and_replays_into_the_same_game() {
        let exodia = crate::deck::deck("exodia-deck").expect("preset");
        let mut list = DeckList::from(exodia);
        // A Pot of Greed fewer, a second Pot of Duality.
        assert!(list.remove(55_144_522));
        assert_eq!(list.add(98_645_731), Ok(crate::deck_list::Part::Main));
        assert_eq!(list.problems(), vec![]);
        let custom = Custom {
            list: Some(list),
            opening: Opening {
                hand: vec![33_396_948],
                top: vec![],
            },
        };
        let start = Duel::dealt("ignored", Some(&custom), 7, Settings::default()).expect("deals");
        let goal = crate::state::Outcome::Win(crate::state::Reason::Exodia);
        let (_, line) = crate::solver::rollout(
            &start,
            &mut seeded_rng::Rng::new(3),
            crate::solver::policy_for(goal),
        );
        assert!(!line.is_empty());
        let end = Duel::replay_dealt(CUSTOM_DECK_ID, Some(&custom), 7, Settings::default(), &line)
            .expect("replays");
        let mut played = start.clone();
        for cmd in &line {
            played.apply(cmd.clone()).expect("plays");
        }
        assert!(end == played);
        let back = played.undo().expect("undoes");
        let again = Duel::replay_dealt(
            CUSTOM_DECK_ID,
            Some(&custom),
            7,
            Settings::default(),
            &line[..line.len() - 1],
        )
        .expect("replays");
        assert!(back == again);
        assert_eq!(back.custom(), Some(&custom));
    }
}
