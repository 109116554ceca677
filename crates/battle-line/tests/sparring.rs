//! The sparring partner plays a tactic when it changes a flag's outcome, and plays whole games legally and reproducibly.

mod common;

use battle_line::bot::{Contender, Level, Sparring, play_match};
use battle_line::*;
use common::*;

/// P0 starts flag 0 with two tens and draws Fog; P1 completes a wedge 2-3-4 there,
/// which P0 can never beat by formation. Under Fog the tens win on their sum.
#[test]
fn plays_fog_where_it_turns_a_lost_flag_into_a_won_one() {
    let mut g = stacked(
        Settings::default(),
        &[
            t(Blue, 10),
            t(Green, 10),
            t(Yellow, 5),
            t(Orange, 5),
            t(Purple, 6),
            t(Yellow, 7),
            t(Orange, 8),
        ],
        &[
            t(Red, 2),
            t(Red, 3),
            t(Red, 4),
            t(Green, 5),
            t(Blue, 5),
            t(Purple, 9),
            t(Yellow, 9),
        ],
        &[],
        &[Tactic::Fog],
    );
    turn(&mut g, t(Blue, 10), 0, Deck::Tactic);
    turn(&mut g, t(Red, 2), 0, Deck::Troop);
    turn(&mut g, t(Green, 10), 0, Deck::Troop);
    turn(&mut g, t(Red, 3), 0, Deck::Troop);
    turn(&mut g, t(Yellow, 5), 3, Deck::Troop);
    turn(&mut g, t(Red, 4), 0, Deck::Troop);
    assert!(g.hand(Player::P0).contains(&Card::Tactic(Tactic::Fog)));
    assert!(
        g.check_claim(0, Player::P1).is_ok(),
        "without Fog the wedge is proven"
    );
    let fog = Command::PlayCard {
        card: Card::Tactic(Tactic::Fog),
        target: Target::Flag { flag: 0 },
    };
    assert_eq!(Sparring::new().choose(&g), Some(fog));
    g.apply(fog).expect("legal");
    assert!(g.check_claim(0, Player::P1).is_err(), "under Fog it is not");
}

#[test]
fn plays_whole_games_legally_and_the_same_way_from_the_same_seed() {
    for seed in 0..3 {
        let seats = [Contender::Sparring, Contender::Level(Level::Easy)];
        let first = play_match(seed, seats, 3000);
        assert!(first.is_some(), "seed {seed}: the game is won by someone");
        assert_eq!(first, play_match(seed, seats, 3000), "seed {seed}");
    }
}
