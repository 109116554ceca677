//! Test helpers for the searches that deal what a seat cannot see: games replayed from
//! a chosen deal, and "twins" of a position that differ only in its hidden cards.

use seeded_rng::Rng;

use crate::card::{Card, Tactic, Troop};
use crate::game::{Command, Deal, Game, GameRecord, Player, Settings};

/// Both decks shuffled by a generator seeded with `seed`.
pub(crate) fn random_deal(seed: u64) -> Deal {
    let mut rng = Rng::new(seed);
    let mut troops: Vec<Troop> = Troop::all().collect();
    let mut tactics: Vec<Tactic> = Tactic::ALL.to_vec();
    rng.shuffle(&mut troops);
    rng.shuffle(&mut tactics);
    Deal { troops, tactics }
}

/// The game of `deal` after `log`.
pub(crate) fn replay(deal: &Deal, log: &[Command]) -> Game {
    Game::replay(&GameRecord {
        seed: 0,
        settings: Settings::default(),
        deal: Some(deal.clone()),
        log: log.to_vec(),
    })
    .expect("the same moves replay")
}

/// `deal` with the troops `me` cannot see in `game` (the other hand's and the undrawn
/// part of the troop deck) shuffled among their places. The game of the twin deal after
/// the same moves shows `me` the same position when no Scout was played (the undrawn
/// troops are then the bottom of the dealt deck).
pub(crate) fn twin(deal: &Deal, game: &Game, me: Player, rng: &mut Rng) -> Deal {
    let other = game.hand(me.opponent());
    let mut troops = deal.troops.clone();
    let hidden: Vec<usize> = (0..troops.len())
        .filter(|&i| i < game.troop_deck_len() || other.contains(&Card::Troop(troops[i])))
        .collect();
    let mut cards: Vec<Troop> = hidden.iter().map(|&i| troops[i]).collect();
    rng.shuffle(&mut cards);
    for (&i, t) in hidden.iter().zip(cards) {
        troops[i] = t;
    }
    Deal {
        troops,
        tactics: deal.tactics.clone(),
    }
}
