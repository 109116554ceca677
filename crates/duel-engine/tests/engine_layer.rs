//! The engine's second layer, one scenario per mechanism: game events from the one
//! movement primitive, controllers, registers and values, Special Summons and oaths,
//! trigger chains (mandatory, optional, simultaneous, missing the timing, caused by
//! costs), replacement effects, counters and equips. Each test names the section of
//! `shared/reference/ygo-rulings.md` it checks.

mod common;

use common::*;
use duel_engine::{
    Command, Duel, Location, MoveReason, OrderOf, Player, Position, Question, RuleError, Settings,
    Setup, SummonKind, Unmet,
};

fn settings_without_chain_window() -> Settings {
    Settings {
        chain_confirmation: false,
        ..Settings::default()
    }
}

#[test]
fn every_move_is_a_game_event_with_its_reason() {
    // 0.9: Graceful Charity's discard is a discard by an effect; the spell itself leaves
    // by rule once it has resolved.
    let mut d = duel(&[GRACEFUL_CHARITY, FILLER], &fillers(4));
    play(&mut d, GRACEFUL_CHARITY);
    let drawn: Vec<_> = d
        .game_events()
        .iter()
        .filter(|e| e.reason == MoveReason::Draw)
        .cloned()
        .collect();
    assert_eq!(drawn.len(), 3, "three draws, one event each");
    let played = d
        .game_events()
        .iter()
        .find(|e| e.reason == MoveReason::Play);
    assert!(
        played.is_some_and(|e| e.code == GRACEFUL_CHARITY && e.from == Location::Hand),
        "the spell was played from the hand to the field"
    );
    assert!(drawn.iter().all(|e| e.reason == MoveReason::Draw
        && e.from == Location::Deck
        && e.to == Location::Hand));
    assert!(
        drawn.windows(2).all(|w| w[0].seq == w[1].seq),
        "one step's moves happen together"
    );
    let hand = candidates(&d);
    let chosen: Vec<_> = hand.iter().take(2).filter_map(|c| c.code).collect();
    choose(&mut d, &chosen);
    let events = d.game_events();
    let discards: Vec<_> = events.iter().filter(|e| e.discard).collect();
    assert_eq!(discards.len(), 2);
    assert!(discards.iter().all(|e| e.reason == MoveReason::Effect
        && e.from == Location::Hand
        && e.to == Location::Graveyard));
    let spell = events
        .iter()
        .find(|e| e.code == GRACEFUL_CHARITY)
        .expect("the spell left the field");
    assert_eq!(spell.reason, MoveReason::Rule);
    assert!(matches!(spell.from, Location::SpellTrapZone(_)));
}

#[test]
fn the_journal_of_events_is_not_part_of_the_duel() {
    let mut d = duel(&[POT_OF_GREED], &fillers(4));
    play(&mut d, POT_OF_GREED);
    assert!(!d.events().is_empty());
    let json = serde_json::to_string(&d).expect("serializes");
    let back: Duel = serde_json::from_str(&json).expect("deserializes");
    assert!(back.events().is_empty(), "events are not saved");
    assert_eq!(back, d, "two duels in the same position are equal");
}

#[test]
fn monster_reborn_takes_a_monster_from_the_opponents_graveyard_under_your_control() {
    // 5 Monster Reborn: either graveyard; the owner stays the opponent.
    let mut d = Setup::new()
        .hand([MONSTER_REBORN])
        .opponent_graveyard([FLAMVELL_GUARD])
        .build()
        .expect("valid");
    activate(&mut d, MONSTER_REBORN);
    pass(&mut d);
    assert!(
        asks(&d, Question::Position),
        "0.3: the summoner picks the position"
    );
    answer(&mut d, "defense");
    let (id, c) = d
        .instances()
        .find(|(_, c)| c.code == FLAMVELL_GUARD && c.location.is_field())
        .expect("revived");
    assert_eq!(c.owner, Player::Opponent);
    assert_eq!(c.controller, Player::You);
    assert_eq!(c.position, Some(Position::Defense));
    assert_eq!(c.summoned.map(|s| s.kind), Some(SummonKind::Special));
    let v = d.view();
    assert!(v.you.monsters.iter().flatten().any(|m| m.id == id));
    assert!(v.opponent.graveyard.is_empty());
    check_invariants(&d);
}

#[test]
fn a_monster_you_control_but_do_not_own_goes_to_its_owners_graveyard() {
    // 0.3 / 5 Monster Reborn: leaving the field sends it to the owner's graveyard.
    let mut d = Setup::new()
        .hand([MONSTER_REBORN])
        .monster(CATAPULT_TURTLE)
        .opponent_graveyard([FLAMVELL_GUARD])
        .build()
        .expect("valid");
    play(&mut d, MONSTER_REBORN);
    answer(&mut d, "attack");
    d.apply(Command::ActivateEffect {
        card: on_field(&d, CATAPULT_TURTLE),
    })
    .expect("tribute for Catapult Turtle");
    choose(&mut d, &[FLAMVELL_GUARD]);
    pass(&mut d);
    assert_eq!(
        codes(&d, Player::Opponent, "graveyard"),
        vec![FLAMVELL_GUARD]
    );
    assert_eq!(d.lp(Player::Opponent), 8000 - 50, "half of 100 ATK");
    check_invariants(&d);
}

#[test]
fn catapult_turtle_deals_half_the_atk_the_monster_had_on_the_field() {
    // 5 Catapult Turtle: half the Tributed monster's ATK as it was on the field.
    let mut d = Setup::new()
        .monster(CATAPULT_TURTLE)
        .monster(DMOC)
        .build()
        .expect("valid");
    d.apply(Command::ActivateEffect {
        card: on_field(&d, CATAPULT_TURTLE),
    })
    .expect("activation");
    choose(&mut d, &[DMOC]);
    pass(&mut d);
    assert_eq!(d.lp(Player::Opponent), 8000 - 1400);
    // 5 Dark Magician of Chaos: banished instead of going to the graveyard.
    assert_eq!(codes(&d, Player::You, "banished"), vec![DMOC]);
    assert_eq!(count(&d, Player::You, "graveyard"), 0);
}

#[test]
fn magical_scientists_fusion_returns_to_the_extra_deck_in_the_end_phase() {
    // 5 Magical Scientist: "that monster" returns in the End Phase; it was not properly
    // summoned, so it cannot be revived.
    let mut d = Setup::new()
        .monster(SCIENTIST)
        .extra([CRIMSON_SUNBIRD])
        .hand([MONSTER_REBORN])
        .build()
        .expect("valid");
    let scientist = on_field(&d, SCIENTIST);
    ignite(&mut d, scientist);
    answer(&mut d, "attack");
    assert_eq!(d.lp(Player::You), 7000);
    let sunbird = on_field(&d, CRIMSON_SUNBIRD);
    assert_eq!(
        d.instance(sunbird)
            .and_then(|c| c.summoned)
            .map(|s| s.proper),
        Some(false)
    );
    d.apply(Command::EndTurn).expect("end turn");
    assert_eq!(codes(&d, Player::You, "extraDeck"), vec![CRIMSON_SUNBIRD]);
}

#[test]
fn a_scientist_fusion_tributed_before_the_end_phase_stays_in_the_graveyard() {
    // 5 Magical Scientist: Tributed, it goes to the graveyard; the End Phase effect finds
    // "that monster" gone and does nothing. Monster Reborn cannot revive it (0.3).
    let mut d = Setup::new()
        .monster(SCIENTIST)
        .monster(CATAPULT_TURTLE)
        .extra([CRIMSON_SUNBIRD])
        .hand([MONSTER_REBORN])
        .build()
        .expect("valid");
    let scientist = on_field(&d, SCIENTIST);
    ignite(&mut d, scientist);
    answer(&mut d, "attack");
    d.apply(Command::ActivateEffect {
        card: on_field(&d, CATAPULT_TURTLE),
    })
    .expect("catapult");
    choose(&mut d, &[CRIMSON_SUNBIRD]);
    pass(&mut d);
    assert_eq!(d.lp(Player::Opponent), 8000 - 1150);
    assert_eq!(codes(&d, Player::You, "graveyard"), vec![CRIMSON_SUNBIRD]);
    assert_eq!(
        d.validate(&Command::ActivateSpell {
            card: in_hand(&d, MONSTER_REBORN)
        }),
        Err(RuleError::Unmet(Unmet::NoValidCards)),
        "not properly summoned: it cannot be revived"
    );
    d.apply(Command::EndTurn).expect("end turn");
    assert_eq!(codes(&d, Player::You, "graveyard"), vec![CRIMSON_SUNBIRD]);
}

#[test]
fn after_pot_of_duality_nothing_that_special_summons_can_be_activated() {
    // 0.3 (b): after the oath, cards whose resolution would Special Summon cannot be
    // activated, nor ignition effects that would.
    let mut d = Setup::new()
        .hand([POT_OF_DUALITY, MONSTER_REBORN])
        .deck(fillers(6))
        .graveyard([FILLER])
        .monster(SCIENTIST)
        .extra([CRIMSON_SUNBIRD])
        .build()
        .expect("valid");
    play(&mut d, POT_OF_DUALITY);
    let first = candidates(&d)[0].code.expect("visible");
    choose(&mut d, &[first]);
    assert_eq!(
        d.validate(&Command::ActivateSpell {
            card: in_hand(&d, MONSTER_REBORN)
        }),
        Err(RuleError::Unmet(Unmet::CannotSpecialSummon))
    );
    assert_eq!(
        d.validate(&Command::ActivateEffect {
            card: on_field(&d, SCIENTIST)
        }),
        Err(RuleError::Unmet(Unmet::CannotSpecialSummon))
    );
}

#[test]
fn card_of_demise_cannot_be_activated_after_a_special_summon() {
    // 0.3 (a): any Special Summon this turn, including one by an effect.
    let mut d = Setup::new()
        .hand([MONSTER_REBORN, CARD_OF_DEMISE])
        .deck(fillers(6))
        .graveyard([FILLER])
        .build()
        .expect("valid");
    play(&mut d, MONSTER_REBORN);
    answer(&mut d, "attack");
    assert_eq!(
        d.validate(&Command::ActivateSpell {
            card: in_hand(&d, CARD_OF_DEMISE)
        }),
        Err(RuleError::Unmet(Unmet::SpecialSummonedThisTurn))
    );
}

#[test]
fn a_tributed_sangan_searches_after_the_summon() {
    // 0.2 / 3 Sangan (legacy): a Tribute is sent from the field to the graveyard.
    let mut d = Setup::new()
        .monster(SANGAN)
        .hand([CATAPULT_TURTLE])
        .deck([RIGHT_ARM, FILLER])
        .build()
        .expect("valid");
    let events = d
        .apply(Command::SummonMonster {
            card: in_hand(&d, CATAPULT_TURTLE),
        })
        .expect("tribute summon");
    // The only monster is the Tribute, so the choice is forced; Sangan's trigger then
    // becomes chain link 1 and, nothing being able to respond, resolves.
    assert!(events.iter().any(|e| matches!(
        e,
        duel_engine::Event::Resolving { card, link: 1 } if *card == SANGAN
    )));
    assert_eq!(candidates(&d).len(), 2, "both monsters have ATK <= 1500");
    choose(&mut d, &[RIGHT_ARM]);
    assert_eq!(codes(&d, Player::You, "hand"), vec![RIGHT_ARM]);
    assert_eq!(codes(&d, Player::You, "graveyard"), vec![SANGAN]);
}

#[test]
fn a_discarded_sangan_does_not_trigger() {
    // 3 Sangan: only from the field; 0.9 discards come from the hand.
    let mut d = duel(
        &[GRACEFUL_CHARITY, SANGAN],
        &[FILLER, FILLER, FILLER, RIGHT_ARM],
    );
    play(&mut d, GRACEFUL_CHARITY);
    choose(&mut d, &[SANGAN, FILLER]);
    assert!(d.view().prompt.is_none(), "no trigger, no search");
    assert!(d.view().chain.is_empty());
    assert_eq!(count(&d, Player::You, "deck"), 1);
}

#[test]
fn simultaneous_mandatory_triggers_are_ordered_by_the_player() {
    // 0.5: both Tributes trigger; the player orders their chain links; the optional
    // "when" trigger of the summoned Dark Magician of Chaos is asked about and, the summon
    // being the last thing that happened, goes on the chain after them.
    let mut d = Setup::new()
        .monster(SANGAN)
        .monster(WITCH)
        .hand([DMOC])
        .graveyard([POT_OF_GREED])
        .deck([RIGHT_ARM, LEFT_ARM, FILLER])
        .build()
        .expect("valid");
    d.apply(Command::SummonMonster {
        card: in_hand(&d, DMOC),
    })
    .expect("tribute summon");
    assert!(asks(&d, Question::UseTrigger), "the optional trigger first");
    assert_eq!(
        d.view().prompt.and_then(|p| p.subject).and_then(|c| c.code),
        Some(DMOC)
    );
    answer(&mut d, "yes");
    assert!(asks(&d, Question::Order(OrderOf::Triggers)));
    // Witch becomes chain link 1, Sangan chain link 2.
    let witch = match d.view().prompt.expect("order").kind {
        duel_engine::PromptKind::Choice { options, .. } => options
            .iter()
            .find(|o| matches!(&o.meaning, duel_engine::Meaning::Card(c) if c.code == Some(WITCH)))
            .expect("Witch is listed")
            .key(),
        _ => panic!("order prompt"),
    };
    let events = d
        .apply(Command::Respond(duel_engine::Response::Option(
            option_value(&d, &witch),
        )))
        .expect("order");
    // The chain is built (DMoC's target, Pot of Greed, is forced) and, nothing being
    // able to respond, resolves last in, first out: DMoC adds Pot of Greed, then
    // Sangan searches, then Witch.
    let links: Vec<_> = events
        .iter()
        .filter_map(|e| match e {
            duel_engine::Event::Activated { card, link, .. } => Some((*link, *card)),
            _ => None,
        })
        .collect();
    assert_eq!(links, vec![(1, WITCH), (2, SANGAN), (3, DMOC)]);
    choose(&mut d, &[RIGHT_ARM]);
    choose(&mut d, &[LEFT_ARM]);
    let mut hand = vec![POT_OF_GREED, RIGHT_ARM, LEFT_ARM];
    hand.sort_unstable();
    assert_eq!(codes(&d, Player::You, "hand"), hand);
    check_invariants(&d);
}

#[test]
fn legacy_dark_magician_of_chaos_misses_the_timing_after_premature_burial() {
    // 5 Dark Magician of Chaos (legacy) and Premature Burial: the equip follows the
    // summon, so the summon is not the last thing that happened.
    let mut d = Setup::new()
        .hand([PREMATURE_BURIAL])
        .graveyard([DMOC, POT_OF_GREED])
        .build()
        .expect("valid");
    // The only monster in the graveyard is the forced target.
    activate(&mut d, PREMATURE_BURIAL);
    pass(&mut d);
    assert!(d.view().prompt.is_none(), "no trigger to ask about");
    assert!(
        d.events()
            .iter()
            .any(|e| matches!(e, duel_engine::Event::MissedTiming { card } if *card == DMOC))
    );
    let dmoc = on_field(&d, DMOC);
    let burial = ids_at(&d, PREMATURE_BURIAL, "spellTrapZone")[0];
    assert_eq!(d.instance(burial).and_then(|c| c.equipped_to), Some(dmoc));
    assert_eq!(d.lp(Player::You), 7200);
}

#[test]
fn legacy_dark_magician_of_chaos_revived_by_monster_reborn_does_not_miss_the_timing() {
    // 5 Dark Magician of Chaos: Monster Reborn's summon is the last thing it does.
    let mut d = Setup::new()
        .hand([MONSTER_REBORN])
        .graveyard([DMOC, POT_OF_GREED])
        .build()
        .expect("valid");
    activate(&mut d, MONSTER_REBORN);
    pass(&mut d);
    answer(&mut d, "attack");
    assert!(asks(&d, Question::UseTrigger));
    answer(&mut d, "yes");
    // Monster Reborn itself is in the graveyard now: two spells to choose from.
    choose(&mut d, &[POT_OF_GREED]);
    assert_eq!(codes(&d, Player::You, "hand"), vec![POT_OF_GREED]);
}

#[test]
fn a_trigger_caused_by_a_cost_waits_for_the_chain_to_resolve() {
    // 0.5: a Sangan Tributed for Catapult Turtle triggers after the turtle's chain.
    let mut d = Setup::new()
        .monster(CATAPULT_TURTLE)
        .monster(SANGAN)
        .deck([RIGHT_ARM])
        .build()
        .expect("valid");
    d.apply(Command::ActivateEffect {
        card: on_field(&d, CATAPULT_TURTLE),
    })
    .expect("activation");
    let events = d
        .apply(Command::Respond(duel_engine::Response::Cards(vec![
            on_field(&d, SANGAN),
        ])))
        .expect("tribute Sangan");
    // The damage resolved first; then Sangan's trigger formed a new chain of its own.
    let damage = events
        .iter()
        .position(|e| matches!(e, duel_engine::Event::Damaged { .. }))
        .expect("damage dealt");
    let sangan = events
        .iter()
        .position(
            |e| matches!(e, duel_engine::Event::Activated { card, link: 1, .. } if *card == SANGAN),
        )
        .expect("Sangan's trigger activated as chain link 1");
    assert!(damage < sangan);
    assert_eq!(d.lp(Player::Opponent), 8000 - 500);
    assert_eq!(codes(&d, Player::You, "hand"), vec![RIGHT_ARM]);
}

#[test]
fn summoner_monk_cannot_be_tributed() {
    // 0.2 / 3 Summoner Monk: neither for a Tribute Summon nor as a cost.
    let d = Setup::new()
        .monster(SUMMONER_MONK)
        .monster(CATAPULT_TURTLE)
        .hand([DMOC])
        .build()
        .expect("valid");
    assert_eq!(
        d.validate(&Command::SummonMonster {
            card: in_hand(&d, DMOC)
        }),
        Err(RuleError::NotEnoughTributes { need: 2 })
    );
    let mut d = d;
    let events = d
        .apply(Command::ActivateEffect {
            card: on_field(&d, CATAPULT_TURTLE),
        })
        .expect("the turtle itself can be Tributed");
    // The turtle is the only monster that can be Tributed: the choice is forced.
    assert!(d.view().prompt.is_none());
    assert!(events.iter().any(|e| matches!(
        e,
        duel_engine::Event::Moved { reason: MoveReason::Tribute, cards, .. } if cards == &vec![Some(CATAPULT_TURTLE)]
    )));
    assert_eq!(
        ids_at(&d, SUMMONER_MONK, "mainMonsterZone").len(),
        1,
        "the monk stays"
    );
}

#[test]
fn an_equip_card_goes_to_the_graveyard_when_its_monster_leaves() {
    // 0.4 / 3 Broken Bamboo Sword: it goes to the graveyard if the monster leaves.
    let mut d = Setup::new()
        .monster(CATAPULT_TURTLE)
        .equip(BROKEN_BAMBOO, 0)
        .build()
        .expect("valid");
    d.apply(Command::ActivateEffect {
        card: on_field(&d, CATAPULT_TURTLE),
    })
    .expect("activation");
    pass(&mut d);
    let mut gy = vec![CATAPULT_TURTLE, BROKEN_BAMBOO];
    gy.sort_unstable();
    assert_eq!(codes(&d, Player::You, "graveyard"), gy);
    let sword = d
        .game_events()
        .iter()
        .find(|e| e.code == BROKEN_BAMBOO)
        .expect("the sword moved");
    assert_eq!(sword.reason, MoveReason::Rule);
}

#[test]
fn the_card_that_asks_names_each_prompt() {
    // Each prompt states its own source: a card's effect names the card; the hand size
    // limit is a rule of the game (0.8).
    let mut d = Setup::new()
        .hand([POT_OF_GREED, FILLER, FILLER, FILLER, FILLER, CHICKEN_GAME])
        .deck(fillers(3))
        .settings(settings_without_chain_window())
        .build()
        .expect("valid");
    play(&mut d, POT_OF_GREED);
    d.apply(Command::EndTurn).expect("end turn");
    let p = d.view().prompt.expect("hand size limit");
    assert_eq!(p.source, None, "asked by the rules, not by a card");
    assert!(p.title(duel_engine::Lang::Ja).contains("手札の上限"));
}

#[test]
fn after_pot_of_duality_last_will_cannot_be_activated() {
    // 0.3 (b): "While you cannot Special Summon, you also cannot activate cards or
    // effects whose resolution would Special Summon (Monster Reborn, Scientist, Last
    // Will, ...)". Last Will's own resolution only arms its summon from the deck (a
    // watch): what that watch will do counts. A card that summons nothing is accepted.
    let mut d = Setup::new()
        .hand([POT_OF_DUALITY, LAST_WILL, POT_OF_GREED])
        .deck(fillers(6))
        .monster(CATAPULT_TURTLE)
        .monster(FILLER)
        .build()
        .expect("valid");
    assert_eq!(
        d.validate(&Command::ActivateSpell {
            card: in_hand(&d, LAST_WILL)
        }),
        Ok(()),
        "before the oath Last Will can be activated"
    );
    play(&mut d, POT_OF_DUALITY);
    let first = candidates(&d)[0].code.expect("visible");
    choose(&mut d, &[first]);
    assert_eq!(
        d.validate(&Command::ActivateSpell {
            card: in_hand(&d, LAST_WILL)
        }),
        Err(RuleError::Unmet(Unmet::CannotSpecialSummon))
    );
    assert_eq!(
        d.validate(&Command::ActivateSpell {
            card: in_hand(&d, POT_OF_GREED)
        }),
        Ok(()),
        "a card that summons nothing is still accepted"
    );
    assert!(
        !d.legal_commands().contains(&Command::ActivateSpell {
            card: in_hand(&d, LAST_WILL)
        }),
        "the legal commands agree"
    );
}

#[test]
fn the_same_action_by_another_copy_or_in_another_order_is_recognised() {
    // A hint names cards, not copies: choosing the named cards in another order, or
    // another copy of a card in the same pile, is the same action; a copy elsewhere, or
    // another card, is not.
    let d = Setup::new()
        .hand([POT_OF_GREED, POT_OF_GREED, GRACEFUL_CHARITY, FILLER])
        .deck(fillers(6))
        .build()
        .expect("valid");
    let pots = ids_at(&d, POT_OF_GREED, "hand");
    let charity = in_hand(&d, GRACEFUL_CHARITY);
    let play = |card| Command::ActivateSpell { card };
    assert_eq!(d.same_action(&play(pots[0]), &play(pots[0])), Some(vec![]));
    assert_eq!(
        d.same_action(&play(pots[0]), &play(pots[1])),
        Some(vec![(pots[0], pots[1])])
    );
    assert_eq!(d.same_action(&play(pots[0]), &play(charity)), None);
    assert_eq!(
        d.same_action(&play(pots[0]), &Command::SetSpellTrap { card: pots[1] }),
        None
    );
    let cards = |v: Vec<duel_engine::CardId>| Command::Respond(duel_engine::Response::Cards(v));
    let filler = in_hand(&d, FILLER);
    assert_eq!(
        d.same_action(&cards(vec![pots[0], filler]), &cards(vec![filler, pots[0]])),
        Some(vec![])
    );
    assert_eq!(
        d.same_action(&cards(vec![pots[0], filler]), &cards(vec![filler, pots[1]])),
        Some(vec![(pots[0], pots[1])])
    );
    assert_eq!(
        d.same_action(&cards(vec![pots[0], filler]), &cards(vec![charity, filler])),
        None
    );
    // The rest of a line follows the copy the player used.
    let rest = duel_engine::swap_cards(&[play(pots[1]), play(charity)], &[(pots[0], pots[1])]);
    assert_eq!(rest, vec![play(pots[0]), play(charity)]);
}
