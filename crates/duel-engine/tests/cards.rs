//! One scenario per card of `exodia-deck` (plus Toon World and Jar of Greed): where each
//! card ends up and what its effect did, following the official rulings.

mod common;

use common::*;
use duel_engine::{
    Command, Duel, Outcome, Player, PromptKind, Reason, Response, RuleError, Settings, Setup, Unmet,
};

#[test]
fn pot_of_greed_draws_two_and_goes_to_the_graveyard() {
    let mut d = duel(&[POT_OF_GREED], &fillers(5));
    play(&mut d, POT_OF_GREED);
    assert_eq!(count(&d, Player::You, "hand"), 2);
    assert_eq!(count(&d, Player::You, "deck"), 3);
    assert_eq!(codes(&d, Player::You, "graveyard"), vec![POT_OF_GREED]);
}

#[test]
fn pot_of_greed_needs_two_cards_in_the_deck() {
    let mut d = duel(&[POT_OF_GREED], &fillers(1));
    let card = in_hand(&d, POT_OF_GREED);
    let before = d.clone();
    assert_eq!(
        d.apply(Command::ActivateSpell { card }),
        Err(RuleError::Unmet(Unmet::DeckTooSmall { need: 2, have: 1 }))
    );
    assert_eq!(d, before);
}

#[test]
fn graceful_charity_draws_three_then_discards_two_chosen_cards() {
    let mut d = duel(
        &[GRACEFUL_CHARITY, FILLER],
        &[TOON_WORLD, JAR_OF_GREED, POT_OF_GREED, FILLER],
    );
    play(&mut d, GRACEFUL_CHARITY);
    let v = d.view();
    let prompt = v.prompt.expect("discard prompt");
    assert_eq!(prompt.source, Some(GRACEFUL_CHARITY));
    match prompt.kind {
        PromptKind::Cards {
            candidates,
            min,
            max,
            ..
        } => {
            assert_eq!((min, max), (2, 2));
            assert_eq!(candidates.len(), 4, "the drawn cards can be discarded too");
        }
        PromptKind::Choice { .. } => panic!("expected cards"),
    }
    choose(&mut d, &[TOON_WORLD, FILLER]);
    assert_eq!(codes(&d, Player::You, "hand"), {
        let mut v = vec![JAR_OF_GREED, POT_OF_GREED];
        v.sort_unstable();
        v
    });
    let mut gy = vec![GRACEFUL_CHARITY, TOON_WORLD, FILLER];
    gy.sort_unstable();
    assert_eq!(codes(&d, Player::You, "graveyard"), gy);
    assert_eq!(count(&d, Player::You, "deck"), 1);
}

#[test]
fn graceful_charity_exodia_is_checked_after_the_discard() {
    // Four pieces in hand, the fifth on top: after drawing, all five are in hand, but
    // the duel is decided only once the whole effect (draw, then discard) is done.
    let mut d = duel(
        &[GRACEFUL_CHARITY, EXODIA, RIGHT_ARM, LEFT_ARM, RIGHT_LEG],
        &[LEFT_LEG, FILLER, FILLER],
    );
    play(&mut d, GRACEFUL_CHARITY);
    assert_eq!(d.outcome(), None, "no win in the middle of the effect");
    choose(&mut d, &[FILLER, FILLER]);
    assert_eq!(d.outcome(), Some(Outcome::Win(Reason::Exodia)));
}

#[test]
fn graceful_charity_wins_before_the_discard_with_the_mid_effect_setting() {
    let mut d = Setup::new()
        .hand(vec![
            GRACEFUL_CHARITY,
            EXODIA,
            RIGHT_ARM,
            LEFT_ARM,
            RIGHT_LEG,
        ])
        .deck(vec![LEFT_LEG, FILLER, FILLER])
        .settings(Settings {
            exodia_wins_mid_effect: true,
            ..Settings::default()
        })
        .build()
        .expect("valid");
    play(&mut d, GRACEFUL_CHARITY);
    assert_eq!(d.outcome(), Some(Outcome::Win(Reason::Exodia)));
    assert!(
        d.view().prompt.is_none(),
        "no discard is asked after the win"
    );
}

#[test]
fn graceful_charity_discarding_a_piece_does_not_win() {
    let mut d = duel(
        &[GRACEFUL_CHARITY, EXODIA, RIGHT_ARM, LEFT_ARM, RIGHT_LEG],
        &[LEFT_LEG, FILLER, FILLER],
    );
    play(&mut d, GRACEFUL_CHARITY);
    choose(&mut d, &[LEFT_LEG, FILLER]);
    assert_eq!(d.outcome(), None);
}

#[test]
fn upstart_goblin_draws_one_and_the_opponent_gains_1000() {
    let mut d = duel(&[UPSTART_GOBLIN; 3], &fillers(5));
    for _ in 0..3 {
        play(&mut d, UPSTART_GOBLIN);
    }
    assert_eq!(d.lp(Player::Opponent), 11000);
    assert_eq!(count(&d, Player::You, "hand"), 3);
    assert_eq!(count(&d, Player::You, "graveyard"), 3);
}

#[test]
fn upstart_goblin_drawing_the_last_piece_wins() {
    let mut d = duel(
        &[UPSTART_GOBLIN, EXODIA, RIGHT_ARM, LEFT_ARM, RIGHT_LEG],
        &[LEFT_LEG],
    );
    play(&mut d, UPSTART_GOBLIN);
    assert_eq!(d.outcome(), Some(Outcome::Win(Reason::Exodia)));
}

#[test]
fn one_day_of_peace_makes_both_players_draw_and_locks_damage() {
    let mut d = duel(&[ONE_DAY_OF_PEACE], &fillers(3));
    // Nothing can respond, so the chain resolves at once.
    let events = activate(&mut d, ONE_DAY_OF_PEACE);
    assert_eq!(count(&d, Player::You, "hand"), 1);
    assert_eq!(count(&d, Player::Opponent, "hand"), 6);
    let locks = events
        .iter()
        .filter(|e| matches!(e, duel_engine::Event::Restricted { .. }))
        .count();
    assert_eq!(locks, 2, "neither player takes damage");
}

#[test]
fn one_day_of_peace_needs_the_opponent_to_be_able_to_draw() {
    let d = Setup::new()
        .hand(vec![ONE_DAY_OF_PEACE])
        .deck(fillers(3))
        .opponent_cards(5, 0)
        .build()
        .expect("valid");
    let card = in_hand(&d, ONE_DAY_OF_PEACE);
    assert_eq!(
        d.validate(&Command::ActivateSpell { card }),
        Err(RuleError::Unmet(Unmet::OpponentDeckTooSmall {
            need: 1,
            have: 0
        }))
    );
}

#[test]
fn into_the_void_draws_one_and_discards_the_hand_in_the_end_phase() {
    let mut d = duel(&[INTO_THE_VOID, FILLER, FILLER], &fillers(3));
    play(&mut d, INTO_THE_VOID);
    assert_eq!(count(&d, Player::You, "hand"), 3);
    d.apply(Command::EndTurn).expect("end turn");
    assert_eq!(count(&d, Player::You, "hand"), 0);
    assert_eq!(count(&d, Player::You, "graveyard"), 4);
    assert_eq!(d.outcome(), Some(Outcome::Lose(Reason::TurnEnd)));
}

#[test]
fn into_the_void_counts_itself_by_default_and_not_with_the_strict_setting() {
    let hand = [INTO_THE_VOID, FILLER, FILLER];
    let d = duel(&hand, &fillers(3));
    assert!(
        d.validate(&Command::ActivateSpell {
            card: in_hand(&d, INTO_THE_VOID)
        })
        .is_ok()
    );
    let strict = Setup::new()
        .hand(hand.to_vec())
        .deck(fillers(3))
        .settings(Settings {
            into_the_void_counts_itself: false,
            ..Settings::default()
        })
        .build()
        .expect("valid");
    assert_eq!(
        strict.validate(&Command::ActivateSpell {
            card: in_hand(&strict, INTO_THE_VOID)
        }),
        Err(RuleError::Unmet(Unmet::HandTooSmall { need: 3, have: 2 }))
    );
}

#[test]
fn hand_destruction_sends_two_from_each_hand_then_each_draws_two() {
    let mut d = duel(
        &[HAND_DESTRUCTION, TOON_WORLD, JAR_OF_GREED, FILLER],
        &fillers(4),
    );
    play(&mut d, HAND_DESTRUCTION);
    choose(&mut d, &[TOON_WORLD, JAR_OF_GREED]);
    assert_eq!(count(&d, Player::You, "hand"), 3);
    assert_eq!(count(&d, Player::You, "graveyard"), 3);
    assert_eq!(
        count(&d, Player::Opponent, "graveyard"),
        2,
        "the opponent's cards go to their graveyard"
    );
    assert_eq!(count(&d, Player::Opponent, "hand"), 5);
    assert_eq!(count(&d, Player::Opponent, "deck"), 33);
}

#[test]
fn hand_destruction_needs_two_other_cards() {
    let d = duel(&[HAND_DESTRUCTION, FILLER], &fillers(4));
    assert_eq!(
        d.validate(&Command::ActivateSpell {
            card: in_hand(&d, HAND_DESTRUCTION)
        }),
        Err(RuleError::Unmet(Unmet::HandTooSmall { need: 2, have: 1 }))
    );
}

#[test]
fn hand_destruction_is_a_quick_play_that_chains_to_a_normal_spell() {
    let mut d = duel(
        &[POT_OF_GREED, HAND_DESTRUCTION, TOON_WORLD, FILLER, FILLER],
        &fillers(6),
    );
    activate(&mut d, POT_OF_GREED);
    let v = d.view();
    assert!(v.chain_window, "a quick-play in hand can respond");
    assert_eq!(v.chain.len(), 1);
    activate(&mut d, HAND_DESTRUCTION);
    // Hand Destruction (chain link 2) resolves first, while Pot of Greed waits.
    assert_eq!(d.view().chain.len(), 1);
    choose(&mut d, &[TOON_WORLD, FILLER]);
    assert!(d.view().chain.is_empty());
    // One card left + 2 drawn by Hand Destruction + 2 by Pot of Greed.
    assert_eq!(count(&d, Player::You, "hand"), 5);
    assert_eq!(count(&d, Player::You, "deck"), 2);
    let gy = codes(&d, Player::You, "graveyard");
    assert!(gy.contains(&POT_OF_GREED) && gy.contains(&HAND_DESTRUCTION));
}

#[test]
fn dark_factory_returns_two_normal_monsters_from_the_graveyard() {
    let mut d = Setup::new()
        .hand(vec![DARK_FACTORY])
        .graveyard(vec![RIGHT_ARM, LEFT_LEG, EXODIA])
        .deck(fillers(3))
        .build()
        .expect("valid");
    activate(&mut d, DARK_FACTORY);
    // Exodia is an effect monster: only the two limbs qualify, so the targets are forced.
    pass(&mut d);
    let mut hand = vec![RIGHT_ARM, LEFT_LEG];
    hand.sort_unstable();
    assert_eq!(codes(&d, Player::You, "hand"), hand);
    let mut gy = vec![EXODIA, DARK_FACTORY];
    gy.sort_unstable();
    assert_eq!(codes(&d, Player::You, "graveyard"), gy);
}

#[test]
fn dark_factory_needs_two_normal_monsters() {
    let d = Setup::new()
        .hand(vec![DARK_FACTORY])
        .graveyard(vec![RIGHT_ARM, EXODIA])
        .build()
        .expect("valid");
    assert_eq!(
        d.validate(&Command::ActivateSpell {
            card: in_hand(&d, DARK_FACTORY)
        }),
        Err(RuleError::Unmet(Unmet::NoValidCards))
    );
}

#[test]
fn dark_factory_targets_are_chosen_at_activation() {
    let mut d = Setup::new()
        .hand(vec![DARK_FACTORY])
        .graveyard(vec![RIGHT_ARM, LEFT_LEG, LEFT_ARM])
        .build()
        .expect("valid");
    activate(&mut d, DARK_FACTORY);
    assert!(
        d.view().prompt.is_some(),
        "three candidates: the player targets two"
    );
    assert!(
        d.view().chain.is_empty(),
        "targets come before the chain link"
    );
    choose(&mut d, &[RIGHT_ARM, LEFT_ARM]);
    pass(&mut d);
    let mut hand = vec![RIGHT_ARM, LEFT_ARM];
    hand.sort_unstable();
    assert_eq!(codes(&d, Player::You, "hand"), hand);
}

#[test]
fn magical_stone_excavation_discards_two_and_returns_a_spell() {
    let mut d = Setup::new()
        .hand(vec![STONE_EXCAVATION, FILLER, TOON_WORLD, EXODIA])
        .graveyard(vec![POT_OF_GREED])
        .build()
        .expect("valid");
    activate(&mut d, STONE_EXCAVATION);
    choose(&mut d, &[FILLER, TOON_WORLD]);
    // The just-discarded Toon World may be targeted too.
    let targets: Vec<_> = candidates(&d).iter().filter_map(|c| c.code).collect();
    assert!(targets.contains(&TOON_WORLD) && targets.contains(&POT_OF_GREED));
    choose(&mut d, &[POT_OF_GREED]);
    pass(&mut d);
    let mut hand = vec![POT_OF_GREED, EXODIA];
    hand.sort_unstable();
    assert_eq!(codes(&d, Player::You, "hand"), hand);
}

#[test]
fn magical_stone_excavation_needs_a_spell_in_the_graveyard_first() {
    let d = duel(&[STONE_EXCAVATION, FILLER, TOON_WORLD], &[]);
    assert_eq!(
        d.validate(&Command::ActivateSpell {
            card: in_hand(&d, STONE_EXCAVATION)
        }),
        Err(RuleError::Unmet(Unmet::NoValidCards))
    );
}

#[test]
fn magical_mallet_shuffles_chosen_cards_back_and_draws_as_many() {
    let mut d = duel(
        &[MAGICAL_MALLET, FILLER, TOON_WORLD, EXODIA],
        &[RIGHT_ARM, LEFT_ARM],
    );
    play(&mut d, MAGICAL_MALLET);
    choose(&mut d, &[FILLER, TOON_WORLD]);
    assert_eq!(count(&d, Player::You, "hand"), 3);
    assert_eq!(count(&d, Player::You, "deck"), 2);
    assert!(codes(&d, Player::You, "hand").contains(&EXODIA));
}

#[test]
fn magical_mallet_needs_another_card_in_hand() {
    let d = duel(&[MAGICAL_MALLET], &fillers(3));
    assert!(matches!(
        d.validate(&Command::ActivateSpell {
            card: in_hand(&d, MAGICAL_MALLET)
        }),
        Err(RuleError::Unmet(Unmet::HandTooSmall { .. }))
    ));
}

#[test]
fn terraforming_adds_a_field_spell_from_the_deck() {
    let mut d = duel(&[TERRAFORMING], &[FILLER, CHICKEN_GAME, FILLER]);
    play(&mut d, TERRAFORMING);
    assert_eq!(codes(&d, Player::You, "hand"), vec![CHICKEN_GAME]);
    assert_eq!(count(&d, Player::You, "deck"), 2);
}

#[test]
fn terraforming_needs_a_field_spell_in_the_deck() {
    let d = duel(&[TERRAFORMING], &fillers(3));
    assert_eq!(
        d.validate(&Command::ActivateSpell {
            card: in_hand(&d, TERRAFORMING)
        }),
        Err(RuleError::Unmet(Unmet::NoValidCards))
    );
}

fn chicken_on_field(deck: &[duel_engine::Code]) -> Duel {
    let mut d = duel(&[CHICKEN_GAME], deck);
    play(&mut d, CHICKEN_GAME);
    d
}

#[test]
fn chicken_game_pays_1000_and_draws_once_per_turn() {
    let mut d = chicken_on_field(&fillers(3));
    assert_eq!(codes(&d, Player::You, "fieldZone"), vec![CHICKEN_GAME]);
    let card = ids_at(&d, CHICKEN_GAME, "fieldZone")[0];
    d.apply(Command::ActivateEffect { card }).expect("ignition");
    d.apply(Command::Respond(Response::Option(0)))
        .expect("draw mode");
    assert_eq!(d.lp(Player::You), 7000);
    assert_eq!(count(&d, Player::You, "hand"), 1);
    assert!(!d.view().chain_window, "nobody may respond to its ignition");
    assert_eq!(
        d.validate(&Command::ActivateEffect { card }),
        Err(RuleError::OncePerTurn)
    );
}

#[test]
fn chicken_game_offers_destroy_and_gift_modes() {
    let mut d = chicken_on_field(&fillers(3));
    let card = ids_at(&d, CHICKEN_GAME, "fieldZone")[0];
    d.apply(Command::ActivateEffect { card }).expect("ignition");
    match d.view().prompt.expect("mode prompt").kind {
        PromptKind::Choice { options, .. } => assert_eq!(options.len(), 3),
        PromptKind::Cards { .. } => panic!("expected modes"),
    }
    d.apply(Command::Respond(Response::Option(2)))
        .expect("gift");
    assert_eq!(d.lp(Player::Opponent), 9000);

    let mut d = chicken_on_field(&fillers(3));
    let card = ids_at(&d, CHICKEN_GAME, "fieldZone")[0];
    d.apply(Command::ActivateEffect { card }).expect("ignition");
    d.apply(Command::Respond(Response::Option(1)))
        .expect("destroy");
    assert_eq!(codes(&d, Player::You, "graveyard"), vec![CHICKEN_GAME]);
}

#[test]
fn chicken_game_draw_mode_needs_a_card_in_the_deck() {
    let mut d = chicken_on_field(&[]);
    let card = ids_at(&d, CHICKEN_GAME, "fieldZone")[0];
    d.apply(Command::ActivateEffect { card }).expect("ignition");
    match d.view().prompt.expect("mode prompt").kind {
        PromptKind::Choice { options, .. } => assert!(options.iter().all(|o| o.value != 0)),
        PromptKind::Cards { .. } => panic!("expected modes"),
    }
    assert!(d.apply(Command::Respond(Response::Option(0))).is_err());
}

#[test]
fn chicken_game_can_pay_down_to_exactly_zero_and_lose() {
    let mut d = Setup::new()
        .face_up_spell(CHICKEN_GAME)
        .deck(fillers(2))
        .lp(1000, 8000)
        .build()
        .expect("valid");
    let card = ids_at(&d, CHICKEN_GAME, "fieldZone")[0];
    d.apply(Command::ActivateEffect { card })
        .expect("1000 LP is enough");
    d.apply(Command::Respond(Response::Option(0)))
        .expect("draw");
    assert_eq!(d.outcome(), Some(Outcome::Lose(Reason::Lp0)));
}

#[test]
fn a_new_chicken_game_replaces_the_old_one_with_a_fresh_use() {
    let mut d = duel(&[CHICKEN_GAME, CHICKEN_GAME], &fillers(4));
    play(&mut d, CHICKEN_GAME);
    let first = ids_at(&d, CHICKEN_GAME, "fieldZone")[0];
    d.apply(Command::ActivateEffect { card: first })
        .expect("ignition");
    d.apply(Command::Respond(Response::Option(0)))
        .expect("draw");
    play(&mut d, CHICKEN_GAME);
    assert_eq!(codes(&d, Player::You, "graveyard"), vec![CHICKEN_GAME]);
    let second = ids_at(&d, CHICKEN_GAME, "fieldZone")[0];
    assert_ne!(first, second);
    assert!(
        d.validate(&Command::ActivateEffect { card: second })
            .is_ok()
    );
}

#[test]
fn pot_of_duality_reveals_three_adds_one_and_forbids_special_summons() {
    let mut d = duel(
        &[POT_OF_DUALITY, POT_OF_DUALITY],
        &[EXODIA, TOON_WORLD, FILLER, FILLER, FILLER],
    );
    play(&mut d, POT_OF_DUALITY);
    let seen: Vec<_> = candidates(&d).iter().filter_map(|c| c.code).collect();
    assert_eq!(seen.len(), 3);
    choose(&mut d, &[EXODIA]);
    assert!(codes(&d, Player::You, "hand").contains(&EXODIA));
    assert_eq!(count(&d, Player::You, "deck"), 4);
    assert_eq!(
        d.validate(&Command::ActivateSpell {
            card: in_hand(&d, POT_OF_DUALITY)
        }),
        Err(RuleError::OncePerTurn),
        "only one Pot of Duality per turn"
    );
}

#[test]
fn card_of_demise_draws_to_three_and_sends_the_hand_away_in_the_end_phase() {
    let mut d = duel(&[CARD_OF_DEMISE, FILLER], &fillers(5));
    play(&mut d, CARD_OF_DEMISE);
    assert_eq!(count(&d, Player::You, "hand"), 3);
    d.apply(Command::EndTurn).expect("end");
    assert_eq!(count(&d, Player::You, "hand"), 0);
    assert_eq!(count(&d, Player::You, "graveyard"), 4);
}

#[test]
fn card_of_demise_needs_at_most_two_other_cards_and_is_once_per_turn() {
    let d = duel(&[CARD_OF_DEMISE, FILLER, FILLER, FILLER], &fillers(5));
    assert_eq!(
        d.validate(&Command::ActivateSpell {
            card: in_hand(&d, CARD_OF_DEMISE)
        }),
        Err(RuleError::Unmet(Unmet::HandTooLarge { max: 2, have: 3 }))
    );
    let mut d = duel(&[CARD_OF_DEMISE, CARD_OF_DEMISE], &fillers(5));
    play(&mut d, CARD_OF_DEMISE);
    assert_eq!(
        d.validate(&Command::ActivateSpell {
            card: in_hand(&d, CARD_OF_DEMISE)
        }),
        Err(RuleError::OncePerTurn)
    );
}

#[test]
fn toon_world_costs_1000_and_stays_on_the_field() {
    let mut d = duel(&[TOON_WORLD], &[]);
    play(&mut d, TOON_WORLD);
    assert_eq!(d.lp(Player::You), 7000);
    assert_eq!(codes(&d, Player::You, "spellTrapZone"), vec![TOON_WORLD]);
    let poor = Setup::new()
        .hand(vec![TOON_WORLD])
        .lp(999, 8000)
        .build()
        .expect("valid");
    assert_eq!(
        poor.validate(&Command::ActivateSpell {
            card: in_hand(&poor, TOON_WORLD)
        }),
        Err(RuleError::Unmet(Unmet::LpTooLow {
            need: 1000,
            have: 999
        }))
    );
}

#[test]
fn jar_of_greed_cannot_be_activated_from_the_hand_or_the_turn_it_is_set() {
    let mut d = duel(&[JAR_OF_GREED], &fillers(2));
    let card = in_hand(&d, JAR_OF_GREED);
    assert_eq!(
        d.validate(&Command::ActivateSpell { card }),
        Err(RuleError::TrapFromHand)
    );
    d.apply(Command::SetSpellTrap { card }).expect("set");
    assert_eq!(
        d.validate(&Command::ActivateSpell { card }),
        Err(RuleError::SetThisTurn)
    );
}

#[test]
fn jar_of_greed_set_earlier_draws_one() {
    let mut d = Setup::new()
        .set_spell(JAR_OF_GREED)
        .deck(fillers(2))
        .build()
        .expect("valid");
    let card = ids_at(&d, JAR_OF_GREED, "spellTrapZone")[0];
    d.apply(Command::ActivateSpell { card })
        .expect("activation");
    pass(&mut d);
    assert_eq!(count(&d, Player::You, "hand"), 1);
    assert_eq!(codes(&d, Player::You, "graveyard"), vec![JAR_OF_GREED]);
}

#[test]
fn exodia_in_the_opening_hand_wins_at_once() {
    let d = duel(&PIECES, &fillers(3));
    assert_eq!(d.outcome(), Some(Outcome::Win(Reason::Exodia)));
    assert!(d.legal_commands().is_empty());
}

#[test]
fn four_pieces_do_not_win() {
    let d = duel(&PIECES[..4], &fillers(3));
    assert_eq!(d.outcome(), None);
}

#[test]
fn the_forbidden_limbs_are_normal_monsters_exodia_is_an_effect_monster() {
    use duel_engine::{Frame, card};
    assert_eq!(card(EXODIA).expect("known").frame, Frame::Effect);
    for code in &PIECES[1..] {
        assert_eq!(card(*code).expect("known").frame, Frame::Normal);
    }
}
