//! A model of the other player's hidden hand from what it played and did not play.
//!
//! A player who held a troop that would have done much more for it than the troop it
//! played would usually have played that one. So at each of the other player's last
//! [`TURNS`] turns where it put a troop on a flag, every troop still unseen is valued
//! as that play would have been (the change of the other player's chance of winning
//! the game by the odds evaluation, `eval.rs`, at the flag where it does the most),
//! against the troop actually played. A troop worth `d` more than the one played had
//! chance `L = 2 / (1 + exp(beta * d))` (1 for a troop worth no more) of being passed
//! over if held; a troop in the hand now was held then with a chance `q` (a card was
//! drawn at the end of each turn since), so its weight is `1 - q + q * L`, multiplied
//! over the turns. Deals then take the other hand's unknown troops by weighted
//! sampling without replacement ([`super::knowledge::Knowledge::sample`]).
//!
//! Only what the searching seat saw is read: each past position is the game replayed
//! up to the play, reduced to that seat's public skeleton, with every troop it could
//! not see put in the troop deck (the other hand left empty), so the valuation is the
//! same whatever the hidden cards were.

use super::eval::{Params, Seat, flag_weights};
use super::knowledge::Knowledge;
use crate::card::{Card, Troop};
use crate::game::{Command, Game, Player, Target};

/// How many of the other player's last turns the model reads.
const TURNS: usize = 2;

/// Cards in a hand: a troop held now was held `k` turns back (k = 1 for the last
/// turn) with a chance of about `1 - k / HAND`, one card being drawn each turn.
const HAND: f64 = 7.0;

/// The weights of the 60 troops (by [`slot`]) for being in the other hand of `game`,
/// as `me` may know it, with sharpness `beta`; 1 for a troop the model says nothing
/// about.
pub(crate) fn hand_weights(game: &Game, me: Player, beta: f64) -> [f64; 60] {
    let mut weights = [1.0; 60];
    let other = me.opponent();
    let unseen: Vec<Troop> = Knowledge::of(game, me).unseen().iter_high_first().collect();
    for (back, index, played, flag) in other_troop_plays(game, other) {
        let mut record = game.record();
        record.log.truncate(index);
        let Ok(past) = Game::replay(&record) else {
            continue;
        };
        let Some(gains) = gains(&past, me, played, flag, &unseen) else {
            continue;
        };
        let held = 1.0 - (back + 1) as f64 / HAND;
        for (t, d) in gains {
            let passed_over = if d > 0.0 {
                2.0 / (1.0 + (beta * d).exp())
            } else {
                1.0
            };
            weights[slot(t)] *= 1.0 - held + held * passed_over;
        }
    }
    weights
}

/// A troop's place in [`hand_weights`].
pub(crate) use super::knowledge::troop_slot as slot;

/// The troops `other` put on a flag at its last [`TURNS`] turns (at most one a turn,
/// the latest turn first): how many turns back (0 for the last), the log index of the
/// play, the troop and the flag.
fn other_troop_plays(game: &Game, other: Player) -> Vec<(usize, usize, Troop, usize)> {
    let mut turns: Vec<Option<(usize, Troop, usize)>> = Vec::new();
    let mut mover = Player::P0;
    let mut current: Option<(usize, Troop, usize)> = None;
    for (i, &cmd) in game.log().iter().enumerate() {
        if mover == other
            && let Command::PlayCard {
                card: Card::Troop(t),
                target: Target::Flag { flag },
            } = cmd
        {
            current = Some((i, t, usize::from(flag)));
        }
        if matches!(cmd, Command::DrawAndEndTurn { .. } | Command::EndTurn) {
            if mover == other {
                turns.push(current.take());
            }
            mover = mover.opponent();
        }
    }
    turns
        .iter()
        .rev()
        .take(TURNS)
        .enumerate()
        .filter_map(|(back, play)| play.map(|(i, t, flag)| (back, i, t, flag)))
        .collect()
}

/// In `past` (the other player about to play `played` on `flag`), how much more each
/// troop of `unseen` would have raised the other player's chance of winning the game
/// than `played` did, at the flag where it does the most. `None` when the play cannot
/// be valued (the flag no longer open to it).
fn gains(
    past: &Game,
    me: Player,
    played: Troop,
    flag: usize,
    unseen: &[Troop],
) -> Option<Vec<(Troop, f64)>> {
    let other = me.opponent();
    let know = Knowledge::of(past, me);
    let mut world = know.skeleton.clone();
    let deck: Vec<Troop> = know.unseen().iter_high_first().collect();
    world.fill_hidden(other, Vec::new(), deck, Vec::new());
    let seat = Seat::new(&world, other, Params::default());
    let chances = seat.flag_chances();
    let swing = flag_weights(&chances);
    let unplayed = world.unplayed_troops();
    let open: Vec<usize> = world
        .flags()
        .iter()
        .enumerate()
        .filter(|(_, f)| f.owner.is_none() && f.slots(other).len() < f.capacity())
        .map(|(i, _)| i)
        .collect();
    if !open.contains(&flag) {
        return None;
    }
    let worth = |t: Troop, i: usize| {
        swing[i] * (seat.flag_chance_with(i, Card::Troop(t), unplayed) - chances[i])
    };
    let done = worth(played, flag);
    Some(
        unseen
            .iter()
            .map(|&t| {
                let best = open
                    .iter()
                    .map(|&i| worth(t, i))
                    .fold(f64::NEG_INFINITY, f64::max);
                (t, best - done)
            })
            .collect(),
    )
}

/// How well the model predicts the other hand, from positions of games of the
/// sparring partner against itself ([`calibrate`]).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Calibration {
    /// Positions looked at (a player to choose a card, after the first turns).
    pub positions: usize,
    /// Unseen troops weighed, and those of them in the other hand.
    pub troops: usize,
    pub held: usize,
    /// The mean weight of the troops in the other hand, and of the other unseen ones.
    pub held_weight: f64,
    pub other_weight: f64,
    /// The mean, over the troops in the other hand, of ln(weight / the position's mean
    /// weight of the unseen troops): above 0 the model's deals find the real hand more
    /// often than uniform deals, below 0 less often.
    pub log_ratio: f64,
}

/// [`Calibration`] of the model with sharpness `beta` over games of the sparring
/// partner against itself from seeds `0..games`, at every position where the player
/// to move chooses a card (the model read from that player's seat; its weights
/// compared with the real other hand, which only this check reads).
pub fn calibrate(games: u64, beta: f64) -> Calibration {
    let partner = super::Sparring::new();
    let mut c = Calibration::default();
    let (mut held_sum, mut other_sum) = (0.0, 0.0);
    for seed in 0..games {
        let mut game = Game::new(seed, crate::game::Settings::default());
        for _ in 0..400 {
            if game.is_over() {
                break;
            }
            if game.phase() == crate::game::Phase::Play && game.log().len() > 6 {
                let me = game.current();
                let weights = hand_weights(&game, me, beta);
                let hand = game.hand(me.opponent());
                let unseen: Vec<Troop> = Knowledge::of(&game, me)
                    .unseen()
                    .iter_high_first()
                    .collect();
                let mean = unseen.iter().map(|&t| weights[slot(t)]).sum::<f64>()
                    / unseen.len().max(1) as f64;
                c.positions += 1;
                for t in unseen {
                    let w = weights[slot(t)];
                    c.troops += 1;
                    if hand.contains(&Card::Troop(t)) {
                        c.held += 1;
                        held_sum += w;
                        c.log_ratio += (w / mean).ln();
                    } else {
                        other_sum += w;
                    }
                }
            }
            let Some(cmd) = partner.choose(&game) else {
                break;
            };
            if game.apply(cmd).is_err() {
                break;
            }
        }
    }
    let held = c.held.max(1) as f64;
    c.held_weight = held_sum / held;
    c.other_weight = other_sum / (c.troops - c.held).max(1) as f64;
    c.log_ratio /= held;
    c
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::twins::{random_deal, replay, twin};
    use crate::game::{Deal, Phase};
    use seeded_rng::Rng;

    /// Positions of games of the sparring partner against itself, from random deals,
    /// where the player to move chooses a card and no Scout was played (so that the
    /// undrawn cards are the bottom of each dealt deck), with their deal.
    fn positions(games: u64) -> Vec<(Deal, Game)> {
        let partner = crate::bot::Sparring::new();
        let mut out = Vec::new();
        for seed in 0..games {
            let deal = random_deal(seed);
            let mut game = replay(&deal, &[]);
            for _ in 0..300 {
                if game.is_over()
                    || game.tactics_played(Player::P0) + game.tactics_played(Player::P1) > 0
                {
                    break;
                }
                if game.phase() == Phase::Play {
                    out.push((deal.clone(), game.clone()));
                }
                let cmd = partner.choose(&game).expect("a move");
                game.apply(cmd).expect("legal");
            }
        }
        out
    }

    #[test]
    fn the_weights_are_the_same_whatever_the_hidden_cards() {
        let mut rng = Rng::new(7);
        let (mut differing, mut said) = (0, 0);
        for (deal, game) in positions(12).into_iter().step_by(2) {
            let me = game.current();
            let other_game = replay(&twin(&deal, &game, me, &mut rng), game.log());
            assert_eq!(other_game.view(me), game.view(me));
            if other_game.hand(me.opponent()) != game.hand(me.opponent()) {
                differing += 1;
            }
            let weights = hand_weights(&game, me, 40.0);
            assert_eq!(weights, hand_weights(&other_game, me, 40.0));
            assert!(weights.iter().all(|&w| w > 0.0 && w <= 1.0));
            if weights.iter().any(|&w| w < 0.9) {
                said += 1;
            }
        }
        assert!(differing > 5, "the twins hide other cards ({differing})");
        assert!(said > 5, "the model says something ({said})");
    }

    #[test]
    fn a_troop_worth_more_than_the_one_played_is_weighted_down_by_how_much() {
        // At P0's second turn, P1 has played one troop: the weights are that turn's.
        let mut checked = 0;
        for (_, game) in positions(8) {
            let other = Player::P1;
            let plays = other_troop_plays(&game, other);
            if game.current() != Player::P0 || plays.len() != 1 || game.log().len() > 6 {
                continue;
            }
            let (back, index, played, flag) = plays[0];
            assert_eq!(back, 0);
            let mut record = game.record();
            record.log.truncate(index);
            let past = Game::replay(&record).expect("replays");
            let unseen: Vec<Troop> = Knowledge::of(&game, Player::P0)
                .unseen()
                .iter_high_first()
                .collect();
            let gains = gains(&past, Player::P0, played, flag, &unseen).expect("valued");
            let weights = hand_weights(&game, Player::P0, 40.0);
            let held = 1.0 - 1.0 / HAND;
            for &(t, d) in &gains {
                let w = weights[slot(t)];
                if d <= 0.0 {
                    assert_eq!(w, 1.0, "{t:?} no better than {played:?}");
                } else {
                    assert!(w < 1.0 && w > 1.0 - held, "{t:?}: {w}");
                }
                for &(u, e) in &gains {
                    if e > d {
                        assert!(weights[slot(u)] <= w, "{u:?} worth more than {t:?}");
                    }
                }
            }
            assert!(
                gains.iter().any(|&(_, d)| d > 0.0),
                "some troop was a better play"
            );
            checked += 1;
        }
        assert!(checked > 0, "no position found");
    }
}
