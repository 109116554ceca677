//! One scenario per card and rule that `panda-exodia-deck` and `scientist-catapult-deck`
//! add: Synchro Summons and their triggers, Tokens, burn, revival and banishment, Last
//! Will, excavation, Treasure Panda and the draw spells. Each test names its section of
//! `shared/reference/ygo-rulings.md`.

mod common;

use common::*;
use duel_engine::{
    BadResponse, Command, Event, Location, MoveReason, Outcome, Player, Question, Reason, Response,
    RuleError, Setup, SummonKind, Unmet,
};

fn synchro_in_extra(d: &duel_engine::Duel, code: duel_engine::Code) -> duel_engine::CardId {
    ids_at(d, code, "extraDeck")[0]
}

#[test]
fn formula_synchron_is_synchro_summoned_from_a_tuner_and_one_non_tuner_and_may_draw() {
    // 0.3 / 4 Formula Synchron: a game action, no chain; exactly 1 Tuner + 1 non-Tuner;
    // the optional "when" draw does not miss its timing.
    let mut d = Setup::new()
        .monster(LUNAR_RABBIT)
        .monster(RIGHT_ARM)
        .extra([FORMULA_SYNCHRON])
        .deck(fillers(3))
        .build()
        .expect("valid");
    let synchro = synchro_in_extra(&d, FORMULA_SYNCHRON);
    assert!(
        d.legal_commands()
            .contains(&Command::SynchroSummon { card: synchro })
    );
    d.apply(Command::SynchroSummon { card: synchro })
        .expect("synchro summon");
    // Two materials, both needed: chosen without asking; then the position.
    answer(&mut d, "defense");
    let summoned = d
        .game_events()
        .iter()
        .find(|e| e.code == FORMULA_SYNCHRON)
        .expect("summoned");
    assert_eq!(summoned.summon, Some(SummonKind::Synchro));
    assert_eq!(summoned.from, Location::ExtraDeck);
    assert!(asks(&d, Question::UseTrigger));
    answer(&mut d, "yes");
    assert_eq!(count(&d, Player::You, "hand"), 1);
    let mut gy = vec![LUNAR_RABBIT, RIGHT_ARM];
    gy.sort_unstable();
    assert_eq!(codes(&d, Player::You, "graveyard"), gy);
    let formula = on_field(&d, FORMULA_SYNCHRON);
    assert_eq!(
        d.instance(formula)
            .and_then(|c| c.summoned)
            .map(|s| s.proper),
        Some(true),
        "a Synchro Summon is a proper summon"
    );
}

#[test]
fn formula_synchron_refuses_two_non_tuners() {
    // 4 Formula Synchron: exactly 1 Tuner + 1 non-Tuner; a Level 2 total from three
    // cards would not do anyway, and two non-Tuners are not Synchro Materials.
    let d = Setup::new()
        .monster(RIGHT_ARM)
        .monster(LEFT_ARM)
        .extra([FORMULA_SYNCHRON])
        .build()
        .expect("valid");
    assert_eq!(
        d.validate(&Command::SynchroSummon {
            card: synchro_in_extra(&d, FORMULA_SYNCHRON)
        }),
        Err(RuleError::Unmet(Unmet::NoValidCombination))
    );
}

#[test]
fn the_material_choice_must_add_up_to_the_synchro_level() {
    // 0.3: a Tuner plus non-Tuners whose Levels add up to the Synchro's Level.
    let mut d = Setup::new()
        .monster(LUNAR_RABBIT)
        .monster(TREASURE_PANDA)
        .monster(RIGHT_ARM)
        .monster(LEFT_ARM)
        .extra([STARDUST_CHARGE])
        .deck(fillers(3))
        .build()
        .expect("valid");
    d.apply(Command::SynchroSummon {
        card: synchro_in_extra(&d, STARDUST_CHARGE),
    })
    .expect("synchro summon");
    let pick = |d: &duel_engine::Duel, codes: &[duel_engine::Code]| {
        let mut pool = candidates(d);
        Command::Respond(Response::Cards(
            codes
                .iter()
                .map(|c| {
                    let k = pool
                        .iter()
                        .position(|x| x.code == Some(*c))
                        .expect("candidate");
                    pool.remove(k).id
                })
                .collect(),
        ))
    };
    // 1 + 4 = 5: not Level 6.
    assert_eq!(
        d.validate(&pick(&d, &[LUNAR_RABBIT, TREASURE_PANDA])),
        Err(RuleError::BadResponse(BadResponse::Synchro(
            duel_engine::SynchroMiss::Levels { need: 6, have: 5 }
        )))
    );
    // 1 + 4 + 1 = 6.
    choose(&mut d, &[LUNAR_RABBIT, TREASURE_PANDA, RIGHT_ARM]);
    answer(&mut d, "attack");
    answer(&mut d, "yes");
    assert_eq!(count(&d, Player::You, "hand"), 1);
    assert!(
        d.game_events()
            .iter()
            .all(|e| e.reason != MoveReason::Material || e.to == Location::Graveyard)
    );
}

#[test]
fn stardust_charge_warrior_draws_once_per_turn_by_name() {
    // 4 Stardust Charge Warrior: hard once per turn.
    let mut d = Setup::new()
        .monster(LUNAR_RABBIT)
        .monster(TREASURE_PANDA)
        .monster(RIGHT_ARM)
        .monster(LUNAR_RABBIT)
        .monster(TREASURE_PANDA)
        .extra([STARDUST_CHARGE, STARDUST_CHARGE])
        .deck(fillers(3))
        .build()
        .expect("valid");
    d.apply(Command::SynchroSummon {
        card: synchro_in_extra(&d, STARDUST_CHARGE),
    })
    .expect("first");
    choose(&mut d, &[LUNAR_RABBIT, TREASURE_PANDA, RIGHT_ARM]);
    answer(&mut d, "attack");
    answer(&mut d, "yes");
    assert_eq!(count(&d, Player::You, "hand"), 1);
    // The second one: Lunar Rabbit + Treasure Panda + Stardust? No: 1 + 4 + 6 is too
    // much; the remaining Rabbit and Panda make 5, so no second summon is possible here.
    assert!(
        d.validate(&Command::SynchroSummon {
            card: synchro_in_extra(&d, STARDUST_CHARGE)
        })
        .is_err()
    );
}

#[test]
fn hyper_librarian_draws_when_another_monster_is_synchro_summoned() {
    // 4 T.G. Hyper Librarian: mandatory, only while it is face-up on the field.
    let mut d = Setup::new()
        .monster(HYPER_LIBRARIAN)
        .monster(LUNAR_RABBIT)
        .monster(RIGHT_ARM)
        .extra([FORMULA_SYNCHRON])
        .deck(fillers(3))
        .build()
        .expect("valid");
    d.apply(Command::SynchroSummon {
        card: synchro_in_extra(&d, FORMULA_SYNCHRON),
    })
    .expect("synchro");
    choose(&mut d, &[LUNAR_RABBIT, RIGHT_ARM]);
    answer(&mut d, "attack");
    // Formula's optional draw is asked; the Librarian's mandatory one goes first.
    answer(&mut d, "yes");
    assert_eq!(count(&d, Player::You, "hand"), 2);
}

#[test]
fn hyper_librarians_mandatory_draw_decks_you_out() {
    // 0.7 / 4 T.G. Hyper Librarian: it draws even from an empty deck, and you lose.
    let mut d = Setup::new()
        .monster(HYPER_LIBRARIAN)
        .monster(LUNAR_RABBIT)
        .monster(RIGHT_ARM)
        .extra([FORMULA_SYNCHRON])
        .build()
        .expect("valid");
    d.apply(Command::SynchroSummon {
        card: synchro_in_extra(&d, FORMULA_SYNCHRON),
    })
    .expect("synchro");
    choose(&mut d, &[LUNAR_RABBIT, RIGHT_ARM]);
    answer(&mut d, "attack");
    // Formula Synchron cannot draw from an empty deck: only the Librarian triggers.
    assert_eq!(d.outcome(), Some(Outcome::Lose(Reason::DeckOut)));
}

#[test]
fn a_librarian_used_as_material_does_not_draw() {
    // 4 T.G. Hyper Librarian: used as material, it is no longer on the field.
    let mut d = Setup::new()
        .monster(HYPER_LIBRARIAN)
        .monster(LUNAR_RABBIT)
        .extra([STARDUST_CHARGE])
        .deck(fillers(3))
        .build()
        .expect("valid");
    d.apply(Command::SynchroSummon {
        card: synchro_in_extra(&d, STARDUST_CHARGE),
    })
    .expect("synchro");
    answer(&mut d, "attack");
    answer(&mut d, "no");
    assert_eq!(count(&d, Player::You, "hand"), 0);
    assert_eq!(count(&d, Player::You, "deck"), 3);
}

#[test]
fn no_synchro_summon_after_the_oath_of_pot_of_duality() {
    // 0.3 (b): Synchro Summons are Special Summons.
    let mut d = Setup::new()
        .hand([POT_OF_DUALITY])
        .monster(LUNAR_RABBIT)
        .monster(RIGHT_ARM)
        .extra([FORMULA_SYNCHRON])
        .deck(fillers(5))
        .build()
        .expect("valid");
    play(&mut d, POT_OF_DUALITY);
    choose(&mut d, &[FILLER]);
    assert_eq!(
        d.validate(&Command::SynchroSummon {
            card: synchro_in_extra(&d, FORMULA_SYNCHRON)
        }),
        Err(RuleError::Unmet(Unmet::CannotSpecialSummon))
    );
}

#[test]
fn a_token_vanishes_when_it_leaves_the_field_and_triggers_nothing() {
    // 0.3 Tokens / 5 Fiend's Sanctuary, Last Will: a Tributed Token is never sent to the
    // graveyard, so Last Will does not see it.
    let mut d = Setup::new()
        .hand([FIENDS_SANCTUARY, LAST_WILL])
        .monster(CATAPULT_TURTLE)
        .deck([SANGAN, FILLER])
        .build()
        .expect("valid");
    play(&mut d, LAST_WILL);
    play(&mut d, FIENDS_SANCTUARY);
    answer(&mut d, "attack");
    let token = on_field(&d, METAL_FIEND_TOKEN);
    let card = d
        .view()
        .you
        .monsters
        .iter()
        .flatten()
        .find(|m| m.id == token)
        .copied();
    assert!(card.is_some_and(|c| c.code == Some(METAL_FIEND_TOKEN)));
    d.apply(Command::ActivateEffect {
        card: on_field(&d, CATAPULT_TURTLE),
    })
    .expect("catapult");
    choose(&mut d, &[METAL_FIEND_TOKEN]);
    pass(&mut d);
    assert_eq!(
        d.instance(token).map(|c| c.location),
        Some(Location::Vanished)
    );
    assert_eq!(d.lp(Player::Opponent), 8000, "half of 0 ATK");
    assert!(
        d.view().prompt.is_none(),
        "Last Will is not triggered by a Token"
    );
    let mut gy = vec![FIENDS_SANCTUARY, LAST_WILL];
    gy.sort_unstable();
    assert_eq!(codes(&d, Player::You, "graveyard"), gy);
    check_invariants(&d);
}

#[test]
fn a_token_can_be_synchro_material_and_white_elephants_gift_cost() {
    // 0.3 Tokens: Synchro Material; 3 White Elephant's Gift: a non-Effect monster.
    let mut d = Setup::new()
        .hand([FIENDS_SANCTUARY, FIENDS_SANCTUARY, WHITE_ELEPHANT])
        .monster(LUNAR_RABBIT)
        .extra([FORMULA_SYNCHRON])
        .deck(fillers(6))
        .build()
        .expect("valid");
    play(&mut d, FIENDS_SANCTUARY);
    answer(&mut d, "attack");
    play(&mut d, FIENDS_SANCTUARY);
    answer(&mut d, "defense");
    d.apply(Command::SynchroSummon {
        card: synchro_in_extra(&d, FORMULA_SYNCHRON),
    })
    .expect("token + tuner");
    choose(&mut d, &[LUNAR_RABBIT, METAL_FIEND_TOKEN]);
    answer(&mut d, "attack");
    answer(&mut d, "no");
    assert_eq!(ids_at(&d, METAL_FIEND_TOKEN, "mainMonsterZone").len(), 1);
    // Formula Synchron has an effect: only the Token can pay for White Elephant's Gift.
    activate(&mut d, WHITE_ELEPHANT);
    pass(&mut d);
    assert_eq!(count(&d, Player::You, "hand"), 2);
    assert!(ids_at(&d, METAL_FIEND_TOKEN, "mainMonsterZone").is_empty());
    check_invariants(&d);
}

#[test]
fn burn_to_zero_wins_at_once() {
    // 0.7: LP 0 ends the duel as soon as it happens.
    let mut d = Setup::new()
        .monster(CATAPULT_TURTLE)
        .monster(DMOC)
        .lp(8000, 1400)
        .build()
        .expect("valid");
    d.apply(Command::ActivateEffect {
        card: on_field(&d, CATAPULT_TURTLE),
    })
    .expect("catapult");
    choose(&mut d, &[DMOC]);
    pass(&mut d);
    assert_eq!(d.outcome(), Some(Outcome::Win(Reason::Lp0)));
}

#[test]
fn one_day_of_peace_stops_burn() {
    // 2 One Day of Peace: no damage until the end of the opponent's next turn.
    let mut d = Setup::new()
        .hand([ONE_DAY_OF_PEACE])
        .monster(TOON_CANNON)
        .monster(FILLER)
        .deck(fillers(3))
        .build()
        .expect("valid");
    play(&mut d, ONE_DAY_OF_PEACE);
    d.apply(Command::ActivateEffect {
        card: on_field(&d, TOON_CANNON),
    })
    .expect("toon cannon");
    choose(&mut d, &[FILLER]);
    pass(&mut d);
    assert_eq!(d.lp(Player::Opponent), 8000);
}

#[test]
fn wonder_wand_adds_500_atk_that_catapult_turtle_counts() {
    // 3 Wonder Wand: +500 ATK; 5 Catapult Turtle: modifiers included.
    let mut d = Setup::new()
        .hand([WONDER_WAND])
        .monster(SCIENTIST)
        .monster(CATAPULT_TURTLE)
        .build()
        .expect("valid");
    activate(&mut d, WONDER_WAND);
    pass(&mut d);
    d.apply(Command::ActivateEffect {
        card: on_field(&d, CATAPULT_TURTLE),
    })
    .expect("catapult");
    choose(&mut d, &[SCIENTIST]);
    pass(&mut d);
    assert_eq!(d.lp(Player::Opponent), 8000 - 400, "(300 + 500) / 2");
    assert_eq!(count(&d, Player::You, "graveyard"), 2, "the wand followed");
}

#[test]
fn wonder_wand_sends_itself_and_its_witch_to_draw_two_and_the_witch_searches() {
    // 3 Wonder Wand: the cost sends the monster from the field (Witch triggers).
    let mut d = Setup::new()
        .monster(WITCH)
        .equip(WONDER_WAND, 0)
        .deck([FILLER, FILLER, LEFT_LEG, FILLER])
        .build()
        .expect("valid");
    let wand = ids_at(&d, WONDER_WAND, "spellTrapZone")[0];
    d.apply(Command::ActivateEffect { card: wand })
        .expect("wand");
    pass(&mut d);
    // Witch's trigger resolves after the draw: DEF <= 1500 from what is left.
    choose(&mut d, &[LEFT_LEG]);
    assert_eq!(count(&d, Player::You, "hand"), 3);
    assert!(ids_at(&d, LEFT_LEG, "hand").len() == 1);
}

#[test]
fn reload_shuffles_the_hand_in_and_draws_as_many() {
    // 3 Reload: needs another card in hand.
    let mut d = duel(&[RELOAD, FILLER, FILLER, FILLER], &[POT_OF_GREED; 5]);
    play(&mut d, RELOAD);
    assert_eq!(count(&d, Player::You, "hand"), 3);
    assert_eq!(count(&d, Player::You, "deck"), 5);
    let alone = duel(&[RELOAD], &fillers(3));
    assert_eq!(
        alone.validate(&Command::ActivateSpell {
            card: in_hand(&alone, RELOAD)
        }),
        Err(RuleError::Unmet(Unmet::HandTooSmall { need: 1, have: 0 }))
    );
}

#[test]
fn pot_of_avarice_returns_five_monsters_fusions_to_the_extra_deck_then_draws_two() {
    // 3 Pot of Avarice: Extra Deck monsters go to the Extra Deck.
    let mut d = Setup::new()
        .hand([POT_OF_AVARICE])
        .graveyard([CRIMSON_SUNBIRD, FILLER, FILLER, FILLER, RIGHT_ARM])
        .deck(fillers(2))
        .build()
        .expect("valid");
    play(&mut d, POT_OF_AVARICE);
    assert_eq!(codes(&d, Player::You, "extraDeck"), vec![CRIMSON_SUNBIRD]);
    assert_eq!(count(&d, Player::You, "hand"), 2);
    assert_eq!(count(&d, Player::You, "deck"), 4);
    assert_eq!(codes(&d, Player::You, "graveyard"), vec![POT_OF_AVARICE]);
}

#[test]
fn dimension_fusion_returns_each_players_banished_monsters_to_their_own_field() {
    // 5 Dimension Fusion: as many as possible, both players, properly summoned only.
    let mut d = Setup::new()
        .hand([DIMENSION_FUSION])
        .banished([DMOC, CATAPULT_TURTLE])
        .opponent_banished([FLAMVELL_GUARD])
        .build()
        .expect("valid");
    play(&mut d, DIMENSION_FUSION);
    answer(&mut d, "attack");
    answer(&mut d, "defense");
    assert_eq!(d.lp(Player::You), 6000);
    assert_eq!(d.view().you.monsters.iter().flatten().count(), 2);
    assert_eq!(d.view().opponent.monsters.iter().flatten().count(), 1);
    // Dark Magician of Chaos returned: its optional "when" trigger has no spell to take
    // except Dimension Fusion itself.
    if asks(&d, Question::UseTrigger) {
        answer(&mut d, "yes");
    }
    assert_eq!(codes(&d, Player::You, "hand"), vec![DIMENSION_FUSION]);
    check_invariants(&d);
}

#[test]
fn last_will_summons_once_after_a_monster_goes_to_the_graveyard() {
    // 5 Last Will (legacy): after activation, the first monster sent from your field to
    // the graveyard lets you Special Summon 1 monster with ATK <= 1500 from the deck; once.
    let mut d = Setup::new()
        .hand([LAST_WILL])
        .monster(CATAPULT_TURTLE)
        .monster(FILLER)
        .monster(FILLER)
        .deck([SCIENTIST, DMOC])
        .build()
        .expect("valid");
    play(&mut d, LAST_WILL);
    let turtle = on_field(&d, CATAPULT_TURTLE);
    d.apply(Command::ActivateEffect { card: turtle })
        .expect("catapult");
    choose(&mut d, &[FILLER]);
    pass(&mut d);
    assert!(asks(&d, Question::UseTrigger));
    answer(&mut d, "yes");
    pass(&mut d);
    answer(&mut d, "attack");
    assert_eq!(ids_at(&d, SCIENTIST, "mainMonsterZone").len(), 1);
    // A second monster to the graveyard: nothing more.
    d.apply(Command::ActivateEffect { card: turtle })
        .expect("catapult again");
    choose(&mut d, &[FILLER]);
    pass(&mut d);
    assert!(d.view().prompt.is_none());
}

#[test]
fn a_banished_dark_magician_of_chaos_does_not_count_for_last_will() {
    // 5 Last Will: a card banished instead of going to the graveyard does not count.
    let mut d = Setup::new()
        .hand([LAST_WILL])
        .monster(CATAPULT_TURTLE)
        .monster(DMOC)
        .deck([SCIENTIST])
        .build()
        .expect("valid");
    play(&mut d, LAST_WILL);
    d.apply(Command::ActivateEffect {
        card: on_field(&d, CATAPULT_TURTLE),
    })
    .expect("catapult");
    choose(&mut d, &[DMOC]);
    pass(&mut d);
    assert!(d.view().prompt.is_none());
    assert_eq!(codes(&d, Player::You, "banished"), vec![DMOC]);
}

#[test]
fn monster_gate_summons_the_first_normal_summonable_monster_and_mills_the_rest() {
    // 5 Monster Gate: the summon and the mill happen together, so a legacy Dark Magician
    // of Chaos does not miss its timing.
    let mut d = Setup::new()
        .hand([MONSTER_GATE])
        .monster(FILLER)
        .graveyard([POT_OF_GREED])
        .deck([POT_OF_GREED, TOON_WORLD, DMOC, FILLER])
        .build()
        .expect("valid");
    play(&mut d, MONSTER_GATE);
    answer(&mut d, "attack");
    assert!(asks(&d, Question::UseTrigger), "DMoC's trigger is offered");
    answer(&mut d, "yes");
    pass(&mut d);
    choose(&mut d, &[POT_OF_GREED]);
    assert_eq!(ids_at(&d, DMOC, "mainMonsterZone").len(), 1);
    assert_eq!(count(&d, Player::You, "deck"), 1);
    assert!(ids_at(&d, TOON_WORLD, "graveyard").len() == 1);
}

#[test]
fn reasoning_sends_the_monster_away_when_its_level_was_declared() {
    // 5 Reasoning: the scarecrow declares the Level most common in your deck (Level 1
    // here); the first monster is Level 1, so everything goes to the graveyard.
    let mut d = Setup::new()
        .hand([REASONING])
        .deck([POT_OF_GREED, FILLER, FILLER, CATAPULT_TURTLE])
        .build()
        .expect("valid");
    let card = in_hand(&d, REASONING);
    let events = d
        .apply(Command::ActivateSpell { card })
        .expect("activation");
    assert!(events.iter().any(|e| matches!(
        e,
        Event::LevelDeclared {
            player: Player::Opponent,
            level: 1
        }
    )));
    assert_eq!(d.view().you.monsters.iter().flatten().count(), 0);
    let mut gy = vec![REASONING, POT_OF_GREED, FILLER];
    gy.sort_unstable();
    assert_eq!(codes(&d, Player::You, "graveyard"), gy);
}

#[test]
fn reasoning_summons_the_monster_when_its_level_was_not_declared() {
    // 5 Reasoning: Catapult Turtle (Level 5) against a declared Level 1.
    let mut d = Setup::new()
        .hand([REASONING])
        .deck([POT_OF_GREED, CATAPULT_TURTLE, FILLER, FILLER])
        .build()
        .expect("valid");
    play(&mut d, REASONING);
    answer(&mut d, "defense");
    assert_eq!(ids_at(&d, CATAPULT_TURTLE, "mainMonsterZone").len(), 1);
    assert_eq!(codes(&d, Player::You, "graveyard"), {
        let mut v = vec![REASONING, POT_OF_GREED];
        v.sort_unstable();
        v
    });
}

#[test]
fn treasure_panda_banishes_spells_face_down_to_summon_a_normal_monster_of_that_level() {
    // 3 Treasure Panda: the number banished is the Level; face-down banished cards are
    // gone for good.
    let mut d = Setup::new()
        .monster(TREASURE_PANDA)
        .graveyard([POT_OF_GREED, UPSTART_GOBLIN, TOON_WORLD])
        .deck([LUNAR_RABBIT, FILLER])
        .build()
        .expect("valid");
    let panda = on_field(&d, TREASURE_PANDA);
    d.apply(Command::ActivateEffect { card: panda })
        .expect("panda");
    // Two spells would ask for a Level 2 Normal Monster: there is none.
    let mut pool = candidates(&d);
    let two: Vec<_> = pool.drain(..2).map(|c| c.id).collect();
    assert_eq!(
        d.validate(&Command::Respond(Response::Cards(two))),
        Err(RuleError::BadResponse(BadResponse::BadCombination))
    );
    choose(&mut d, &[POT_OF_GREED]);
    pass(&mut d);
    choose(&mut d, &[LUNAR_RABBIT]);
    answer(&mut d, "attack");
    assert_eq!(ids_at(&d, LUNAR_RABBIT, "mainMonsterZone").len(), 1);
    let banished = d.view().you.banished;
    assert_eq!(banished.len(), 1);
    assert_eq!(banished[0].code, None, "face-down: its identity is hidden");
}

#[test]
fn treasure_panda_needs_a_matching_normal_monster() {
    // 3 Treasure Panda: some N with a Level N Normal Monster in the deck.
    let d = Setup::new()
        .monster(TREASURE_PANDA)
        .graveyard([POT_OF_GREED])
        .deck([CATAPULT_TURTLE])
        .build()
        .expect("valid");
    assert_eq!(
        d.validate(&Command::ActivateEffect {
            card: on_field(&d, TREASURE_PANDA)
        }),
        Err(RuleError::Unmet(Unmet::NoValidCombination))
    );
}

#[test]
fn last_will_ignores_a_monster_that_goes_to_the_opponents_graveyard() {
    // 5.8 Last Will: "a monster sent from your side of the field to your GY". A monster
    // you control but the opponent owns (revived from their graveyard) goes to their
    // graveyard when Tributed: nothing is offered, and the watch stays armed for the
    // first monster of yours that goes to your graveyard.
    let mut d = Setup::new()
        .hand([LAST_WILL, MONSTER_REBORN])
        .monster(CATAPULT_TURTLE)
        .monster(FILLER)
        .opponent_graveyard([FLAMVELL_GUARD])
        .deck([SCIENTIST, DMOC])
        .build()
        .expect("valid");
    play(&mut d, LAST_WILL);
    activate(&mut d, MONSTER_REBORN);
    if d.view()
        .prompt
        .is_some_and(|p| matches!(p.kind, duel_engine::PromptKind::Cards { .. }))
    {
        choose(&mut d, &[FLAMVELL_GUARD]);
    }
    pass(&mut d);
    answer(&mut d, "attack");
    let revived = d
        .instances()
        .find(|(_, c)| c.code == FLAMVELL_GUARD && c.location.is_field())
        .map(|(id, c)| (id, c.owner, c.controller, c.location.zone_name()))
        .expect("the revived monster");
    assert_eq!(
        (revived.1, revived.2, revived.3),
        (Player::Opponent, Player::You, "mainMonsterZone")
    );
    let turtle = on_field(&d, CATAPULT_TURTLE);
    d.apply(Command::ActivateEffect { card: turtle })
        .expect("catapult");
    choose(&mut d, &[FLAMVELL_GUARD]);
    pass(&mut d);
    assert_eq!(
        codes(&d, Player::Opponent, "graveyard"),
        vec![FLAMVELL_GUARD]
    );
    assert!(
        d.view().prompt.is_none(),
        "Last Will is not offered for a monster sent to the opponent's graveyard"
    );
    assert_eq!(count(&d, Player::You, "deck"), 2, "nothing summoned");
    // Your own monster to your graveyard: the watch fires now.
    d.apply(Command::ActivateEffect { card: turtle })
        .expect("catapult again");
    choose(&mut d, &[FILLER]);
    pass(&mut d);
    assert!(asks(&d, Question::UseTrigger), "Last Will is offered now");
    answer(&mut d, "yes");
    pass(&mut d);
    answer(&mut d, "attack");
    assert_eq!(ids_at(&d, SCIENTIST, "mainMonsterZone").len(), 1);
    check_invariants(&d);
}

#[test]
fn dimension_fusion_needs_a_free_zone_for_a_banished_monster() {
    // 5.7 Dimension Fusion ("at least one player can Special Summon at least one of
    // their face-up banished monsters") and 0.4 ("Special Summon with no free zone"
    // cannot be activated): with your five Main Monster Zones full and only your own
    // monster banished it is refused, and no LP are paid.
    let full = || {
        Setup::new()
            .hand([DIMENSION_FUSION])
            .monster(FILLER)
            .monster(FILLER)
            .monster(FILLER)
            .monster(FILLER)
            .monster(FILLER)
            .banished([DMOC])
    };
    let mut d = full().build().expect("valid");
    let card = in_hand(&d, DIMENSION_FUSION);
    assert_eq!(
        d.validate(&Command::ActivateSpell { card }),
        Err(RuleError::Unmet(Unmet::NoFreeZone))
    );
    assert_eq!(
        d.apply(Command::ActivateSpell { card }),
        Err(RuleError::Unmet(Unmet::NoFreeZone))
    );
    assert_eq!(d.lp(Player::You), 8000, "nothing paid");
    assert_eq!(codes(&d, Player::You, "hand"), vec![DIMENSION_FUSION]);
    assert!(
        !d.legal_commands()
            .contains(&Command::ActivateSpell { card })
    );
    // The opponent's banished monster has a free zone on their side: it can be activated.
    let d = full()
        .opponent_banished([FLAMVELL_GUARD])
        .build()
        .expect("valid");
    assert_eq!(
        d.validate(&Command::ActivateSpell {
            card: in_hand(&d, DIMENSION_FUSION)
        }),
        Ok(())
    );
    // Nothing banished at all: no valid card.
    let d = Setup::new()
        .hand([DIMENSION_FUSION])
        .build()
        .expect("valid");
    assert_eq!(
        d.validate(&Command::ActivateSpell {
            card: in_hand(&d, DIMENSION_FUSION)
        }),
        Err(RuleError::Unmet(Unmet::NoValidCards))
    );
}

#[test]
fn a_wrong_synchro_material_set_says_what_is_missing() {
    // 0.3 / 4 Synchro Summons: 1 Tuner + the right number of non-Tuners whose Levels add
    // up to the Synchro monster's. A refused set names what it lacks.
    use duel_engine::SynchroMiss;
    let mut d = Setup::new()
        .monster(LUNAR_RABBIT)
        .monster(RIGHT_ARM)
        .monster(LEFT_ARM)
        .monster(SANGAN)
        .extra([FORMULA_SYNCHRON])
        .deck(fillers(3))
        .build()
        .expect("valid");
    let synchro = synchro_in_extra(&d, FORMULA_SYNCHRON);
    d.apply(Command::SynchroSummon { card: synchro })
        .expect("a valid set exists");
    let id = |code| {
        candidates(&d)
            .iter()
            .find(|c| c.code == Some(code))
            .map(|c| c.id)
            .expect("candidate")
    };
    let refused =
        |ids: Vec<duel_engine::CardId>| d.validate(&Command::Respond(Response::Cards(ids)));
    let miss = |m| Err(RuleError::BadResponse(BadResponse::Synchro(m)));
    assert_eq!(
        refused(vec![id(RIGHT_ARM), id(LEFT_ARM)]),
        miss(SynchroMiss::NoTuner)
    );
    assert_eq!(
        refused(vec![id(LUNAR_RABBIT), id(RIGHT_ARM), id(LEFT_ARM)]),
        miss(SynchroMiss::TooManyNonTuners { max: 1, have: 2 })
    );
    // Sangan is Level 3: with the Level 1 Tuner that makes 4, not 2.
    assert_eq!(
        refused(vec![id(LUNAR_RABBIT), id(SANGAN)]),
        miss(SynchroMiss::Levels { need: 2, have: 4 })
    );
    // Two Level 1 monsters make Level 2: the set fits; the message of a refused set
    // reads in both languages.
    assert_eq!(refused(vec![id(LUNAR_RABBIT), id(RIGHT_ARM)]), Ok(()));
    let levels = RuleError::BadResponse(BadResponse::Synchro(SynchroMiss::Levels {
        need: 2,
        have: 5,
    }));
    assert!(
        levels
            .message(duel_engine::Lang::Ja)
            .contains("レベルの合計が5")
    );
    assert!(
        levels
            .message(duel_engine::Lang::En)
            .contains("add up to 5")
    );
    let no_tuner = RuleError::BadResponse(BadResponse::Synchro(SynchroMiss::NoTuner));
    assert!(
        no_tuner
            .message(duel_engine::Lang::Ja)
            .contains("チューナー")
    );
}
