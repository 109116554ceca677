//! The integration scenarios of the app we rebuild (its test suite's list in
//! `shared/reference/ygo-solitaire.md`), as scenarios of this engine.

mod common;

use common::*;
use duel_engine::{Command, Outcome, Player, Reason, Response, RuleError, Setup, Unmet};

#[test]
fn seven_pots_of_greed_leave_six_in_hand_none_in_the_deck_and_one_in_the_graveyard() {
    let mut d = duel(&[POT_OF_GREED; 5], &[POT_OF_GREED; 2]);
    play(&mut d, POT_OF_GREED);
    assert_eq!(count(&d, Player::You, "hand"), 6);
    assert_eq!(count(&d, Player::You, "deck"), 0);
    assert_eq!(count(&d, Player::You, "graveyard"), 1);
}

#[test]
fn three_upstart_goblins_raise_the_opponent_to_11000_lp() {
    let mut d = duel(&[UPSTART_GOBLIN; 3], &fillers(5));
    for _ in 0..3 {
        play(&mut d, UPSTART_GOBLIN);
    }
    assert_eq!(d.lp(Player::Opponent), 11000);
}

#[test]
fn graceful_charity_cannot_be_activated_with_two_cards_in_the_deck() {
    let d = duel(&[GRACEFUL_CHARITY], &fillers(2));
    assert_eq!(
        d.validate(&Command::ActivateSpell {
            card: in_hand(&d, GRACEFUL_CHARITY)
        }),
        Err(RuleError::Unmet(Unmet::DeckTooSmall { need: 3, have: 2 }))
    );
}

#[test]
fn upstart_goblin_drawing_the_last_piece_wins_with_exodia() {
    let mut d = duel(
        &[UPSTART_GOBLIN, EXODIA, RIGHT_ARM, LEFT_ARM, RIGHT_LEG],
        &[LEFT_LEG, FILLER],
    );
    play(&mut d, UPSTART_GOBLIN);
    assert_eq!(d.outcome(), Some(Outcome::Win(Reason::Exodia)));
}

#[test]
fn pot_of_greed_drawing_the_last_pieces_wins_with_exodia() {
    let mut d = duel(
        &[POT_OF_GREED, EXODIA, RIGHT_ARM, LEFT_ARM],
        &[RIGHT_LEG, LEFT_LEG, FILLER],
    );
    play(&mut d, POT_OF_GREED);
    assert_eq!(d.outcome(), Some(Outcome::Win(Reason::Exodia)));
}

#[test]
fn four_pieces_only_and_the_game_goes_on() {
    let mut d = duel(
        &[POT_OF_GREED, EXODIA, RIGHT_ARM],
        &[LEFT_ARM, RIGHT_LEG, FILLER],
    );
    play(&mut d, POT_OF_GREED);
    assert_eq!(d.outcome(), None);
}

#[test]
fn chicken_games_ignition_pays_1000_lp_and_draws_one() {
    let mut d = Setup::new()
        .face_up_spell(CHICKEN_GAME)
        .deck(fillers(3))
        .build()
        .expect("valid");
    let card = ids_at(&d, CHICKEN_GAME, "fieldZone")[0];
    d.apply(Command::ActivateEffect { card }).expect("ignition");
    d.apply(Command::Respond(Response::Option(0)))
        .expect("draw mode");
    assert_eq!(d.lp(Player::You), 7000);
    assert_eq!(count(&d, Player::You, "hand"), 1);
}

#[test]
fn terraforming_fetches_chicken_game() {
    let mut d = duel(&[TERRAFORMING], &[FILLER, CHICKEN_GAME, FILLER]);
    play(&mut d, TERRAFORMING);
    assert_eq!(codes(&d, Player::You, "hand"), vec![CHICKEN_GAME]);
}

#[test]
fn royal_magical_library_is_capped_at_three_counters() {
    let mut d = Setup::new()
        .monster(LIBRARY)
        .hand([POT_OF_GREED; 4])
        .deck(fillers(10))
        .build()
        .expect("valid");
    let library = on_field(&d, LIBRARY);
    for _ in 0..4 {
        play(&mut d, POT_OF_GREED);
    }
    assert_eq!(d.instance(library).map(|c| c.counters), Some(3));
}

#[test]
fn a_level_1_tuner_and_a_level_4_make_t_g_hyper_librarian() {
    let mut d = Setup::new()
        .monster(LUNAR_RABBIT)
        .monster(TREASURE_PANDA)
        .extra([HYPER_LIBRARIAN])
        .build()
        .expect("valid");
    let card = ids_at(&d, HYPER_LIBRARIAN, "extraDeck")[0];
    d.apply(Command::SynchroSummon { card }).expect("synchro");
    answer(&mut d, "attack");
    assert_eq!(ids_at(&d, HYPER_LIBRARIAN, "mainMonsterZone").len(), 1);
    let mut gy = vec![LUNAR_RABBIT, TREASURE_PANDA];
    gy.sort_unstable();
    assert_eq!(codes(&d, Player::You, "graveyard"), gy);
}
