//! General rules: seeding, opening, chains, tributes, deck-out, hand limit, prompts,
//! refusals and replay.

mod common;

use common::*;
use duel_engine::{
    Command, Duel, Event, Outcome, Phase, Player, PromptKind, Reason, Response, RuleError,
    Settings, Setup,
};

#[test]
fn the_same_seed_gives_the_same_shuffle_and_another_seed_does_not() {
    let a = Duel::new("exodia-deck", 7).expect("playable");
    let b = Duel::new("exodia-deck", 7).expect("playable");
    let c = Duel::new("exodia-deck", 8).expect("playable");
    assert_eq!(a, b);
    assert_eq!(a.view(), b.view());
    assert_eq!(codes(&a, Player::You, "hand").len(), 5);
    assert_ne!(a, c);
}

#[test]
fn a_new_duel_deals_five_each_and_stops_in_main_phase_1() {
    let d = Duel::new("exodia-deck", 3).expect("playable");
    let v = d.view();
    assert_eq!(v.phase, Phase::Main1);
    assert_eq!((v.you.hand.len(), v.you.deck_count), (5, 35));
    assert_eq!((v.opponent.hand.len(), v.opponent.deck_count), (5, 35));
    assert_eq!((v.you.lp, v.opponent.lp), (8000, 8000));
    let phases: Vec<_> = d
        .events()
        .iter()
        .filter_map(|e| match e {
            Event::PhaseChanged { phase } => Some(*phase),
            _ => None,
        })
        .collect();
    assert_eq!(phases, [Phase::Draw, Phase::Standby, Phase::Main1]);
    check_invariants(&d);
}

#[test]
fn unknown_decks_are_refused_and_every_preset_deck_plays() {
    assert!(matches!(
        Duel::new("no-such-deck", 1),
        Err(duel_engine::SetupError::UnknownDeck(_))
    ));
    for deck in duel_engine::decks() {
        assert!(deck.playable, "{} is playable", deck.id);
        let d = Duel::new(&deck.id, 1).expect("every preset deck starts");
        check_invariants(&d);
    }
}

#[test]
fn card_ids_do_not_reveal_which_card_they_are() {
    let ids: Vec<_> = (0..8)
        .map(|seed| {
            let d = Duel::new("exodia-deck", seed).expect("playable");
            d.instances()
                .find(|(_, c)| c.code == EXODIA)
                .expect("Exodia")
                .0
        })
        .collect();
    let distinct: std::collections::BTreeSet<_> = ids.iter().collect();
    assert!(distinct.len() > 4, "Exodia's id barely varies: {ids:?}");
}

#[test]
fn only_spell_speed_2_can_be_chained_and_the_chain_must_close_before_anything_else() {
    let mut d = duel(
        &[
            POT_OF_GREED,
            UPSTART_GOBLIN,
            HAND_DESTRUCTION,
            FILLER,
            FILLER,
        ],
        &fillers(8),
    );
    activate(&mut d, POT_OF_GREED);
    assert!(d.view().chain_window);
    let goblin = in_hand(&d, UPSTART_GOBLIN);
    assert_eq!(
        d.validate(&Command::ActivateSpell { card: goblin }),
        Err(RuleError::SpellSpeedTooLow)
    );
    assert_eq!(d.validate(&Command::EndTurn), Err(RuleError::ChainOpen));
    assert_eq!(
        d.validate(&Command::SetSpellTrap { card: goblin }),
        Err(RuleError::ChainOpen)
    );
    let legal = d.legal_commands();
    assert!(legal.contains(&Command::PassChain));
    assert!(legal.contains(&Command::ActivateSpell {
        card: in_hand(&d, HAND_DESTRUCTION)
    }));
    assert!(!legal.contains(&Command::ActivateSpell { card: goblin }));
}

#[test]
fn with_chain_confirmation_off_chains_resolve_at_once() {
    let mut d = Setup::new()
        .hand(vec![POT_OF_GREED, HAND_DESTRUCTION, FILLER, FILLER])
        .deck(fillers(6))
        .settings(Settings {
            chain_confirmation: false,
            ..Settings::default()
        })
        .build()
        .expect("valid");
    activate(&mut d, POT_OF_GREED);
    assert!(!d.view().chain_window);
    assert_eq!(codes(&d, Player::You, "graveyard"), vec![POT_OF_GREED]);
}

#[test]
fn no_pass_without_a_chain() {
    let d = duel(&[], &[]);
    assert_eq!(d.validate(&Command::PassChain), Err(RuleError::NoChain));
}

#[test]
fn drawing_from_an_empty_deck_loses_after_the_effect() {
    // Hand Destruction chained to Pot of Greed leaves one card for Pot's two draws.
    let mut d = duel(
        &[POT_OF_GREED, HAND_DESTRUCTION, FILLER, FILLER, FILLER],
        &fillers(3),
    );
    activate(&mut d, POT_OF_GREED);
    activate(&mut d, HAND_DESTRUCTION);
    choose(&mut d, &[FILLER, FILLER]);
    assert_eq!(d.outcome(), Some(Outcome::Lose(Reason::DeckOut)));
    assert!(d.legal_commands().is_empty());
    assert_eq!(d.validate(&Command::EndTurn), Err(RuleError::GameOver));
}

#[test]
fn tribute_summons_ask_for_tributes_which_go_to_the_graveyard() {
    let mut d = Setup::new()
        .hand(vec![CATAPULT_TURTLE, DMOC])
        .monster(FILLER)
        .monster(RIGHT_ARM)
        .build()
        .expect("valid");
    let turtle = in_hand(&d, CATAPULT_TURTLE);
    d.apply(Command::SummonMonster { card: turtle })
        .expect("tribute summon");
    match d.view().prompt.expect("tribute prompt").kind {
        PromptKind::Cards {
            candidates,
            min,
            max,
            ..
        } => {
            assert_eq!((min, max, candidates.len()), (1, 1, 2));
        }
        PromptKind::Choice { .. } => panic!("cards expected"),
    }
    choose(&mut d, &[FILLER]);
    assert_eq!(codes(&d, Player::You, "graveyard"), vec![FILLER]);
    let mut field = vec![CATAPULT_TURTLE, RIGHT_ARM];
    field.sort_unstable();
    assert_eq!(codes(&d, Player::You, "mainMonsterZone"), field);
}

#[test]
fn tribute_summons_need_enough_monsters() {
    let d = Setup::new()
        .hand(vec![DMOC])
        .monster(FILLER)
        .build()
        .expect("valid");
    assert_eq!(
        d.validate(&Command::SummonMonster {
            card: in_hand(&d, DMOC)
        }),
        Err(RuleError::NotEnoughTributes { need: 2 })
    );
}

#[test]
fn the_end_phase_discards_down_to_six_then_the_turn_ends() {
    let mut d = duel(&fillers(8), &[]);
    d.apply(Command::EndTurn).expect("end");
    assert_eq!(d.phase(), Phase::End);
    match d.view().prompt.expect("hand limit").kind {
        PromptKind::Cards { min, max, .. } => assert_eq!((min, max), (2, 2)),
        PromptKind::Choice { .. } => panic!("cards expected"),
    }
    choose(&mut d, &[FILLER, FILLER]);
    assert_eq!(count(&d, Player::You, "hand"), 6);
    assert_eq!(d.outcome(), Some(Outcome::Lose(Reason::TurnEnd)));
}

#[test]
fn bad_answers_are_refused_and_the_prompt_stays() {
    let mut d = duel(&[GRACEFUL_CHARITY, FILLER], &fillers(4));
    play(&mut d, GRACEFUL_CHARITY);
    let before = d.clone();
    let cands = candidates(&d);
    let other = in_hand(&d, FILLER);
    let tries = [
        Command::Respond(Response::Cards(vec![cands[0].id])),
        Command::Respond(Response::Cards(vec![cands[0].id, cands[0].id])),
        Command::Respond(Response::Cards(vec![cands[0].id, duel_engine::CardId(999)])),
        Command::Respond(Response::Option(0)),
        Command::EndTurn,
        Command::SummonMonster { card: other },
    ];
    for cmd in tries {
        assert!(d.apply(cmd.clone()).is_err(), "{cmd:?} accepted");
        assert_eq!(d, before, "{cmd:?} changed the duel");
    }
    assert!(d.view().prompt.is_some());
}

#[test]
fn a_response_without_a_prompt_is_refused() {
    let mut d = duel(&[], &[]);
    assert_eq!(
        d.apply(Command::Respond(Response::Option(0))),
        Err(RuleError::NoPrompt)
    );
}

#[test]
fn undo_replays_all_but_the_last_command() {
    let mut d = Duel::new("exodia-deck", 11).expect("playable");
    let start = d.clone();
    let cmd = d
        .legal_commands()
        .into_iter()
        .find(|c| *c != Command::EndTurn && *c != Command::AdvancePhase);
    let Some(cmd) = cmd else { return };
    d.apply(cmd).expect("legal");
    let undone = d.undo().expect("replays");
    assert_eq!(undone, start);
}

#[test]
fn the_opponent_hand_and_deck_stay_hidden_in_views_and_events() {
    let mut d = duel(&[HAND_DESTRUCTION, FILLER, FILLER, FILLER], &fillers(4));
    play(&mut d, HAND_DESTRUCTION);
    choose(&mut d, &[FILLER, FILLER]);
    let v = d.view();
    assert!(v.opponent.hand.iter().all(|c| c.code.is_none()));
    // Cards that reached the opponent's graveyard are public.
    assert!(v.opponent.graveyard.iter().all(|c| c.code.is_some()));
    check_invariants(&d);
}
