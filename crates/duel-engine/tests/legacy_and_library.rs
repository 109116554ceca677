//! One scenario per card that `legacy-exodia-deck` and `library-exodia-deck` add, and the
//! rulings gaps fixed with them (End Phase Quick-Plays, the order of End Phase effects,
//! "if you did", Exodia against a deck-out). Each test names its section of
//! `shared/reference/ygo-rulings.md`.

mod common;

use common::*;
use duel_engine::{
    Command, Event, OrderOf, Outcome, Phase, Player, Position, Question, Reason, RuleError, Setup,
    Unmet,
};

#[test]
fn witch_of_the_black_forest_searches_a_monster_with_1500_or_less_def() {
    // 3 Witch of the Black Forest (legacy): from the field to the graveyard; DEF <= 1500
    // includes the Exodia pieces and excludes Royal Magical Library (DEF 2000).
    let mut d = Setup::new()
        .monster(WITCH)
        .hand([CATAPULT_TURTLE])
        .deck([LIBRARY, LEFT_LEG, SANGAN])
        .build()
        .expect("valid");
    d.apply(Command::SummonMonster {
        card: in_hand(&d, CATAPULT_TURTLE),
    })
    .expect("tribute summon");
    let offered: Vec<_> = candidates(&d).iter().filter_map(|c| c.code).collect();
    let mut expected = vec![LEFT_LEG, SANGAN];
    expected.sort_unstable();
    let mut offered_sorted = offered.clone();
    offered_sorted.sort_unstable();
    assert_eq!(offered_sorted, expected);
    choose(&mut d, &[LEFT_LEG]);
    assert_eq!(codes(&d, Player::You, "hand"), vec![LEFT_LEG]);
}

#[test]
fn legacy_sangan_triggers_every_time_and_finds_nothing_without_a_target() {
    // 3 Sangan (legacy): no once-per-turn limit; it activates even with no valid monster
    // in the deck (nothing is added). Dark Magician of Chaos has 2800 ATK.
    let mut d = Setup::new()
        .monster(SANGAN)
        .monster(SANGAN)
        .monster(CATAPULT_TURTLE)
        .deck([RIGHT_ARM, DMOC])
        .build()
        .expect("valid");
    let turtle = on_field(&d, CATAPULT_TURTLE);
    d.apply(Command::ActivateEffect { card: turtle })
        .expect("first tribute");
    choose(&mut d, &[SANGAN]);
    pass(&mut d);
    assert_eq!(codes(&d, Player::You, "hand"), vec![RIGHT_ARM]);
    d.apply(Command::ActivateEffect { card: turtle })
        .expect("legacy turtle: again");
    let events = d
        .apply(Command::Respond(duel_engine::Response::Cards(vec![
            on_field(&d, SANGAN),
        ])))
        .expect("second tribute");
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::Activated { card, .. } if *card == SANGAN))
    );
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::NoValidCards { card } if *card == SANGAN))
    );
    assert_eq!(codes(&d, Player::You, "hand"), vec![RIGHT_ARM]);
    assert_eq!(codes(&d, Player::You, "graveyard"), vec![SANGAN, SANGAN]);
}

#[test]
fn royal_magical_library_gets_a_counter_when_a_spell_resolves_not_when_it_is_activated() {
    // 3 Royal Magical Library: the counter comes when the Spell resolves.
    let mut d = Setup::new()
        .monster(LIBRARY)
        .hand([POT_OF_GREED, HAND_DESTRUCTION, FILLER, FILLER])
        .deck(fillers(8))
        .build()
        .expect("valid");
    let library = on_field(&d, LIBRARY);
    activate(&mut d, POT_OF_GREED);
    assert_eq!(d.view().chain.len(), 1);
    assert_eq!(d.instance(library).map(|c| c.counters), Some(0));
    pass(&mut d);
    assert_eq!(d.instance(library).map(|c| c.counters), Some(1));
    assert_eq!(
        d.view()
            .you
            .monsters
            .iter()
            .flatten()
            .find(|m| m.id == library)
            .map(|m| m.counters),
        Some(1),
        "the view shows the counter"
    );
}

#[test]
fn royal_magical_library_holds_at_most_three_counters_and_removes_them_to_draw() {
    // 3 Royal Magical Library: maximum 3; cost: remove 3, draw 1.
    let mut d = Setup::new()
        .monster(LIBRARY)
        .counters(3)
        .hand([POT_OF_GREED])
        .deck(fillers(5))
        .build()
        .expect("valid");
    let library = on_field(&d, LIBRARY);
    play(&mut d, POT_OF_GREED);
    assert_eq!(
        d.instance(library).map(|c| c.counters),
        Some(3),
        "capped at 3"
    );
    ignite(&mut d, library);
    assert_eq!(d.instance(library).map(|c| c.counters), Some(0));
    assert_eq!(count(&d, Player::You, "hand"), 3);
    assert_eq!(
        d.validate(&Command::ActivateEffect { card: library }),
        Err(RuleError::Unmet(Unmet::TooFewCounters { need: 3, have: 0 }))
    );
}

#[test]
fn a_chicken_game_ignition_gives_no_counter_but_its_activation_does() {
    // 3 Royal Magical Library: only the activation of a Spell Card counts.
    let mut d = Setup::new()
        .monster(LIBRARY)
        .hand([CHICKEN_GAME])
        .deck(fillers(3))
        .build()
        .expect("valid");
    let library = on_field(&d, LIBRARY);
    play(&mut d, CHICKEN_GAME);
    assert_eq!(d.instance(library).map(|c| c.counters), Some(1));
    let field = ids_at(&d, CHICKEN_GAME, "fieldZone")[0];
    d.apply(Command::ActivateEffect { card: field })
        .expect("ignition");
    d.apply(Command::Respond(duel_engine::Response::Option(0)))
        .expect("draw mode");
    assert_eq!(d.instance(library).map(|c| c.counters), Some(1));
}

#[test]
fn a_spell_that_summons_the_library_gives_it_no_counter() {
    // 3 Royal Magical Library: it must be face-up when the Spell is activated.
    let mut d = Setup::new()
        .hand([MONSTER_REBORN])
        .graveyard([LIBRARY])
        .build()
        .expect("valid");
    play(&mut d, MONSTER_REBORN);
    answer(&mut d, "defense");
    let library = on_field(&d, LIBRARY);
    assert_eq!(d.instance(library).map(|c| c.counters), Some(0));
}

#[test]
fn summoner_monk_turns_to_defense_when_normal_summoned() {
    // 3 Summoner Monk: mandatory "if Normal Summoned: change to Defense Position".
    let mut d = duel(&[SUMMONER_MONK], &fillers(2));
    d.apply(Command::SummonMonster {
        card: in_hand(&d, SUMMONER_MONK),
    })
    .expect("summon");
    pass(&mut d);
    let monk = on_field(&d, SUMMONER_MONK);
    assert_eq!(
        d.instance(monk).and_then(|c| c.position),
        Some(Position::Defense)
    );
}

#[test]
fn summoner_monk_discards_a_spell_to_special_summon_a_level_4_once_per_turn() {
    // 3 Summoner Monk: cost discard 1 Spell; Special Summon a Level 4 from the deck; soft
    // once per turn.
    let mut d = Setup::new()
        .monster(SUMMONER_MONK)
        .hand([POT_OF_GREED, TERRAFORMING, FILLER])
        .deck([LIBRARY, SANGAN, FILLER])
        .build()
        .expect("valid");
    let monk = on_field(&d, SUMMONER_MONK);
    d.apply(Command::ActivateEffect { card: monk })
        .expect("activation");
    let spells: Vec<_> = candidates(&d).iter().filter_map(|c| c.code).collect();
    assert!(
        !spells.contains(&FILLER),
        "only spells can be discarded for the cost"
    );
    choose(&mut d, &[POT_OF_GREED]);
    pass(&mut d);
    // Royal Magical Library is the only Level 4 monster in the deck.
    answer(&mut d, "defense");
    let library = on_field(&d, LIBRARY);
    assert_eq!(
        d.instance(library).and_then(|c| c.position),
        Some(Position::Defense)
    );
    assert_eq!(
        d.validate(&Command::ActivateEffect { card: monk }),
        Err(RuleError::OncePerTurn)
    );
}

#[test]
fn toon_table_of_contents_adds_a_toon_card() {
    // 3 Toon Table of Contents: a card with "Toon" in its name.
    let mut d = duel(&[TOON_TABLE], &[FILLER, TOON_WORLD, TOON_TABLE, FILLER]);
    play(&mut d, TOON_TABLE);
    let offered: Vec<_> = candidates(&d).iter().filter_map(|c| c.code).collect();
    assert_eq!(offered.len(), 2);
    assert!(offered.contains(&TOON_WORLD) && offered.contains(&TOON_TABLE));
    choose(&mut d, &[TOON_WORLD]);
    assert_eq!(codes(&d, Player::You, "hand"), vec![TOON_WORLD]);
}

#[test]
fn toon_table_of_contents_needs_a_toon_card_in_the_deck() {
    // 0.4 / 3 Toon Table of Contents: the current text needs a valid card.
    let d = duel(&[TOON_TABLE], &fillers(3));
    assert_eq!(
        d.validate(&Command::ActivateSpell {
            card: in_hand(&d, TOON_TABLE)
        }),
        Err(RuleError::Unmet(Unmet::NoValidCards))
    );
}

#[test]
fn broken_bamboo_sword_equips_a_face_up_monster_and_enables_golden_bamboo_sword() {
    // 3 Broken Bamboo Sword and Golden Bamboo Sword.
    let mut d = Setup::new()
        .monster(FILLER)
        .hand([BROKEN_BAMBOO, GOLDEN_BAMBOO])
        .deck(fillers(4))
        .build()
        .expect("valid");
    assert_eq!(
        d.validate(&Command::ActivateSpell {
            card: in_hand(&d, GOLDEN_BAMBOO)
        }),
        Err(RuleError::Unmet(Unmet::NoValidCards)),
        "no Bamboo Sword yet"
    );
    play(&mut d, BROKEN_BAMBOO);
    let monster = on_field(&d, FILLER);
    let sword = ids_at(&d, BROKEN_BAMBOO, "spellTrapZone")[0];
    assert_eq!(d.instance(sword).and_then(|c| c.equipped_to), Some(monster));
    assert_eq!(
        d.view()
            .you
            .spell_trap
            .iter()
            .flatten()
            .find(|c| c.id == sword)
            .and_then(|c| c.equipped_to),
        Some(monster)
    );
    play(&mut d, GOLDEN_BAMBOO);
    assert_eq!(count(&d, Player::You, "hand"), 2);
    assert_eq!(codes(&d, Player::You, "graveyard"), vec![GOLDEN_BAMBOO]);
}

#[test]
fn broken_bamboo_sword_needs_a_face_up_monster() {
    // 3 Broken Bamboo Sword: a face-down monster cannot be equipped.
    let d = Setup::new()
        .set_monster(FILLER)
        .hand([BROKEN_BAMBOO])
        .build()
        .expect("valid");
    assert_eq!(
        d.validate(&Command::ActivateSpell {
            card: in_hand(&d, BROKEN_BAMBOO)
        }),
        Err(RuleError::Unmet(Unmet::NoValidCards))
    );
}

#[test]
fn a_quick_play_spell_can_be_activated_in_the_end_phase() {
    // 0.4: Quick-Play Spells can be activated in any phase of your turn.
    let mut d = Setup::new()
        .hand([HAND_DESTRUCTION, FILLER, FILLER])
        .deck(fillers(4))
        .build()
        .expect("valid");
    d.apply(Command::EndTurn).expect("to the End Phase");
    assert_eq!(d.phase(), Phase::End);
    assert_eq!(d.outcome(), None, "the turn waits for the player");
    let card = in_hand(&d, HAND_DESTRUCTION);
    assert!(
        d.legal_commands()
            .contains(&Command::ActivateSpell { card })
    );
    assert!(d.legal_commands().contains(&Command::EndTurn));
    d.apply(Command::ActivateSpell { card })
        .expect("activation");
    // Both other cards must go: the choice is forced.
    pass(&mut d);
    assert_eq!(count(&d, Player::You, "hand"), 2);
    // Nothing else can be activated: the End Phase goes on by itself and the turn ends.
    assert_eq!(d.outcome(), Some(Outcome::Lose(Reason::TurnEnd)));
}

#[test]
fn the_player_orders_simultaneous_end_phase_effects() {
    // 0.8: several "during the End Phase" effects apply in the order the player chooses.
    let mut d = Setup::new()
        .monster(SCIENTIST)
        .extra([CRIMSON_SUNBIRD])
        .hand([INTO_THE_VOID, FILLER, FILLER])
        .deck(fillers(4))
        .build()
        .expect("valid");
    play(&mut d, INTO_THE_VOID);
    let scientist = on_field(&d, SCIENTIST);
    ignite(&mut d, scientist);
    answer(&mut d, "attack");
    d.apply(Command::EndTurn).expect("end turn");
    assert!(asks(&d, Question::Order(OrderOf::EndPhase)));
    let p = d.view().prompt.expect("order prompt");
    assert_eq!(p.source, None);
    // The Scientist's return first, then Into the Void's discard.
    let scientist_first = match p.kind {
        duel_engine::PromptKind::Choice { options, .. } => options
            .iter()
            .find(|o| matches!(&o.meaning, duel_engine::Meaning::Card(c) if c.code == Some(SCIENTIST)))
            .expect("listed")
            .key(),
        _ => panic!("order"),
    };
    answer(&mut d, &scientist_first);
    assert_eq!(codes(&d, Player::You, "extraDeck"), vec![CRIMSON_SUNBIRD]);
    assert_eq!(count(&d, Player::You, "hand"), 0);
    assert_eq!(d.outcome(), Some(Outcome::Lose(Reason::TurnEnd)));
}

#[test]
fn upstart_goblin_gives_lp_only_if_its_draw_happened() {
    // 2 Upstart Goblin: the opponent gains 1000 LP only if the draw succeeded. Hand
    // Destruction chained to it draws the last cards first.
    let mut d = Setup::new()
        .hand([UPSTART_GOBLIN, HAND_DESTRUCTION, FILLER, FILLER])
        .deck(fillers(2))
        .build()
        .expect("valid");
    activate(&mut d, UPSTART_GOBLIN);
    d.apply(Command::ActivateSpell {
        card: in_hand(&d, HAND_DESTRUCTION),
    })
    .expect("chain Hand Destruction");
    pass(&mut d);
    assert_eq!(d.lp(Player::Opponent), 8000, "no draw, no LP");
    assert_eq!(d.outcome(), Some(Outcome::Lose(Reason::DeckOut)));
}

#[test]
fn a_deck_out_decides_before_exodia_in_the_same_check() {
    // 0.7: Graceful Charity draws the fifth piece, then cannot draw the rest. The failed
    // draw loses before the hand is checked (a documented choice, see the README).
    let mut d = Setup::new()
        .hand([
            GRACEFUL_CHARITY,
            HAND_DESTRUCTION,
            EXODIA,
            RIGHT_ARM,
            LEFT_ARM,
            RIGHT_LEG,
            FILLER,
            FILLER,
        ])
        .deck([FILLER, FILLER, LEFT_LEG])
        .build()
        .expect("valid");
    activate(&mut d, GRACEFUL_CHARITY);
    d.apply(Command::ActivateSpell {
        card: in_hand(&d, HAND_DESTRUCTION),
    })
    .expect("chain Hand Destruction");
    pass(&mut d);
    choose(&mut d, &[FILLER, FILLER]);
    assert_eq!(d.outcome(), Some(Outcome::Lose(Reason::DeckOut)));
    assert_eq!(
        ids_at(&d, LEFT_LEG, "hand").len(),
        1,
        "the fifth piece was drawn"
    );
}

#[test]
fn the_mode_prompt_shows_the_modes_of_the_effect_being_activated() {
    // Each prompt states its own source (Chicken Game's ignition, not another card's).
    let mut d = Setup::new()
        .face_up_spell(CHICKEN_GAME)
        .hand([GRACEFUL_CHARITY])
        .deck(fillers(3))
        .build()
        .expect("valid");
    let field = ids_at(&d, CHICKEN_GAME, "fieldZone")[0];
    d.apply(Command::ActivateEffect { card: field })
        .expect("ignition");
    let p = d.view().prompt.expect("mode prompt");
    assert_eq!(p.source, Some(CHICKEN_GAME));
    match p.kind {
        duel_engine::PromptKind::Choice { question, options } => {
            assert_eq!(question, Question::Mode);
            assert_eq!(options.len(), 3);
            assert_eq!(options[0].label(duel_engine::Lang::En), "Draw 1 card");
        }
        _ => panic!("mode prompt"),
    }
}
