//! Seed 000 (zone architecture and placement commands): every acceptance scenario
//! (US1-1..US3-5), the edge cases and FR-001..FR-013, by id.

#[path = "../../crates/duel-engine/tests/common/mod.rs"]
mod common;

use common::*;
use duel_engine::{
    Command, Duel, Face, Location, Phase, Player, Position, RuleError, Setup, SpellType, card,
};

const HAND_DESTRUCTION_QP: duel_engine::Code = HAND_DESTRUCTION;

fn location(d: &Duel, id: duel_engine::CardId) -> Location {
    d.instances()
        .find(|(i, _)| *i == id)
        .expect("exists")
        .1
        .location
}

fn instance(d: &Duel, id: duel_engine::CardId) -> duel_engine::CardInstance {
    *d.instances().find(|(i, _)| *i == id).expect("exists").1
}

// ---------------------------------------------------------------- US1

#[test]
fn us1_1_a_new_game_has_empty_monster_spell_trap_and_field_zones() {
    let d = Duel::new("exodia-deck", 1).expect("playable");
    let v = d.view();
    assert!(v.you.monsters.iter().all(Option::is_none));
    assert!(v.you.spell_trap.iter().all(Option::is_none));
    assert!(v.you.field_zone.is_none());
    assert_eq!(v.you.monsters.len(), 5);
    assert_eq!(v.you.spell_trap.len(), 5);
}

#[test]
fn us1_2_chicken_game_goes_to_the_field_zone_not_a_spell_trap_zone() {
    let mut d = duel(&[CHICKEN_GAME], &[]);
    play(&mut d, CHICKEN_GAME);
    assert_eq!(codes(&d, Player::You, "fieldZone"), vec![CHICKEN_GAME]);
    assert!(codes(&d, Player::You, "spellTrapZone").is_empty());
}

#[test]
fn us1_3_a_normal_spell_sits_in_a_spell_trap_zone_until_it_resolves() {
    // With a quick-play in hand the chain waits, showing where the card is meanwhile.
    let mut d = duel(
        &[UPSTART_GOBLIN, HAND_DESTRUCTION_QP, FILLER, FILLER],
        &fillers(4),
    );
    let id = in_hand(&d, UPSTART_GOBLIN);
    activate(&mut d, UPSTART_GOBLIN);
    assert!(matches!(location(&d, id), Location::SpellTrapZone(_)));
    d.apply(Command::PassChain).expect("pass");
    assert_eq!(location(&d, id), Location::Graveyard);
}

#[test]
fn us1_4_toon_world_stays_in_the_spell_trap_zone() {
    let mut d = duel(&[TOON_WORLD], &[]);
    play(&mut d, TOON_WORLD);
    assert_eq!(codes(&d, Player::You, "spellTrapZone"), vec![TOON_WORLD]);
    assert!(codes(&d, Player::You, "fieldZone").is_empty());
}

// ---------------------------------------------------------------- US2

#[test]
fn us2_1_summon_places_face_up_attack_and_uses_the_normal_summon() {
    let mut d = duel(&[RIGHT_ARM], &[]);
    let id = in_hand(&d, RIGHT_ARM);
    d.apply(Command::SummonMonster { card: id })
        .expect("summon");
    let c = instance(&d, id);
    assert!(matches!(c.location, Location::MainMonsterZone(_)));
    assert_eq!((c.face, c.position), (Face::Up, Some(Position::Attack)));
    assert!(c.placed_this_turn);
    assert_eq!(d.view().you.normal_summon_used, 1);
}

#[test]
fn us2_2_a_second_summon_is_refused() {
    let mut d = duel(&[RIGHT_ARM, LEFT_ARM], &[]);
    d.apply(Command::SummonMonster {
        card: in_hand(&d, RIGHT_ARM),
    })
    .expect("first");
    let before = d.clone();
    assert_eq!(
        d.apply(Command::SummonMonster {
            card: in_hand(&d, LEFT_ARM)
        }),
        Err(RuleError::NoNormalSummonLeft)
    );
    assert_eq!(d, before);
}

#[test]
fn us2_3_no_summon_outside_main_phase_1() {
    let mut d = Setup::new()
        .hand(vec![RIGHT_ARM])
        .phase(Phase::Standby)
        .build()
        .expect("valid");
    assert_eq!(d.phase(), Phase::Standby);
    let card = in_hand(&d, RIGHT_ARM);
    assert_eq!(
        d.validate(&Command::SummonMonster { card }),
        Err(RuleError::WrongPhase)
    );
    d.apply(Command::AdvancePhase).expect("to Main 1");
    assert!(d.apply(Command::SummonMonster { card }).is_ok());
}

#[test]
fn us2_4_no_summon_into_a_full_monster_zone() {
    let d = Setup::new()
        .hand(vec![RIGHT_ARM])
        .monster(FILLER)
        .monster(FILLER)
        .monster(FILLER)
        .monster(FILLER)
        .monster(FILLER)
        .build()
        .expect("valid");
    let card = in_hand(&d, RIGHT_ARM);
    assert_eq!(
        d.validate(&Command::SummonMonster { card }),
        Err(RuleError::ZoneFull)
    );
}

// ---------------------------------------------------------------- US3

#[test]
fn us3_1_set_monster_is_face_down_defense_and_uses_the_normal_summon() {
    let mut d = duel(&[RIGHT_ARM], &[]);
    let id = in_hand(&d, RIGHT_ARM);
    d.apply(Command::SetMonster { card: id }).expect("set");
    let c = instance(&d, id);
    assert!(matches!(c.location, Location::MainMonsterZone(_)));
    assert_eq!((c.face, c.position), (Face::Down, Some(Position::Defense)));
    assert_eq!(d.view().you.normal_summon_used, 1);
}

#[test]
fn us3_2_set_spells_go_face_down_to_spell_trap_zones_without_using_the_summon() {
    let mut d = duel(&[POT_OF_GREED, HAND_DESTRUCTION, TOON_WORLD], &[]);
    for code in [POT_OF_GREED, HAND_DESTRUCTION, TOON_WORLD] {
        let id = in_hand(&d, code);
        d.apply(Command::SetSpellTrap { card: id }).expect("set");
        let c = instance(&d, id);
        assert!(matches!(c.location, Location::SpellTrapZone(_)));
        assert_eq!(c.face, Face::Down);
        assert!(c.placed_this_turn);
    }
    assert_eq!(d.view().you.normal_summon_used, 0);
}

#[test]
fn us3_3_a_set_field_spell_goes_to_the_field_zone_and_replaces_the_old_one() {
    let mut d = duel(&[CHICKEN_GAME, CHICKEN_GAME], &[]);
    play(&mut d, CHICKEN_GAME);
    let id = in_hand(&d, CHICKEN_GAME);
    d.apply(Command::SetSpellTrap { card: id }).expect("set");
    assert_eq!(location(&d, id), Location::FieldZone);
    assert_eq!(instance(&d, id).face, Face::Down);
    assert_eq!(codes(&d, Player::You, "graveyard"), vec![CHICKEN_GAME]);
    assert_eq!(d.view().you.normal_summon_used, 0);
}

#[test]
fn us3_4_a_set_trap_goes_to_a_spell_trap_zone() {
    let mut d = duel(&[JAR_OF_GREED], &[]);
    let id = in_hand(&d, JAR_OF_GREED);
    d.apply(Command::SetSpellTrap { card: id }).expect("set");
    assert!(matches!(location(&d, id), Location::SpellTrapZone(_)));
    assert_eq!(d.view().you.normal_summon_used, 0);
}

#[test]
fn us3_5_no_set_into_a_full_spell_trap_zone() {
    let d = Setup::new()
        .hand(vec![POT_OF_GREED])
        .set_spell(JAR_OF_GREED)
        .set_spell(JAR_OF_GREED)
        .set_spell(JAR_OF_GREED)
        .set_spell(JAR_OF_GREED)
        .set_spell(JAR_OF_GREED)
        .build()
        .expect("valid");
    let card = in_hand(&d, POT_OF_GREED);
    assert_eq!(
        d.validate(&Command::SetSpellTrap { card }),
        Err(RuleError::ZoneFull)
    );
}

// ---------------------------------------------------------- edge cases

#[test]
fn edge_full_spell_trap_zone_blocks_activation_but_not_field_spells() {
    let d = Setup::new()
        .hand(vec![POT_OF_GREED, CHICKEN_GAME])
        .deck(fillers(3))
        .set_spell(JAR_OF_GREED)
        .set_spell(JAR_OF_GREED)
        .set_spell(JAR_OF_GREED)
        .set_spell(JAR_OF_GREED)
        .set_spell(JAR_OF_GREED)
        .build()
        .expect("valid");
    assert_eq!(
        d.validate(&Command::ActivateSpell {
            card: in_hand(&d, POT_OF_GREED)
        }),
        Err(RuleError::ZoneFull)
    );
    assert!(
        d.validate(&Command::ActivateSpell {
            card: in_hand(&d, CHICKEN_GAME)
        })
        .is_ok()
    );
    assert!(
        d.validate(&Command::SetSpellTrap {
            card: in_hand(&d, CHICKEN_GAME)
        })
        .is_ok()
    );
}

#[test]
fn edge_spells_can_still_be_set_after_the_normal_summon_is_used() {
    let mut d = duel(&[RIGHT_ARM, POT_OF_GREED], &[]);
    d.apply(Command::SetMonster {
        card: in_hand(&d, RIGHT_ARM),
    })
    .expect("set monster");
    assert!(
        d.apply(Command::SetSpellTrap {
            card: in_hand(&d, POT_OF_GREED)
        })
        .is_ok()
    );
}

#[test]
fn edge_face_down_cards_hide_their_identity() {
    let mut d = duel(&[RIGHT_ARM, POT_OF_GREED], &fillers(3));
    d.apply(Command::SetMonster {
        card: in_hand(&d, RIGHT_ARM),
    })
    .expect("set");
    d.apply(Command::SetSpellTrap {
        card: in_hand(&d, POT_OF_GREED),
    })
    .expect("set");
    let v = d.view();
    let shown: Vec<_> = v
        .you
        .monsters
        .iter()
        .chain(v.you.spell_trap.iter())
        .flatten()
        .collect();
    assert_eq!(shown.len(), 2);
    assert!(
        shown
            .iter()
            .all(|c| c.code.is_none() && c.face == Face::Down)
    );
    check_invariants(&d);
}

#[test]
fn edge_a_quick_play_cannot_be_activated_the_turn_it_is_set_but_a_normal_spell_can() {
    let mut d = duel(
        &[HAND_DESTRUCTION, POT_OF_GREED, FILLER, FILLER],
        &fillers(6),
    );
    let qp = in_hand(&d, HAND_DESTRUCTION);
    let pot = in_hand(&d, POT_OF_GREED);
    d.apply(Command::SetSpellTrap { card: qp }).expect("set");
    d.apply(Command::SetSpellTrap { card: pot }).expect("set");
    assert_eq!(
        d.validate(&Command::ActivateSpell { card: qp }),
        Err(RuleError::SetThisTurn)
    );
    d.apply(Command::ActivateSpell { card: pot })
        .expect("a set normal spell can be activated");
    pass(&mut d);
    assert_eq!(location(&d, pot), Location::Graveyard);
}

#[test]
fn edge_a_quick_play_set_on_an_earlier_turn_can_be_activated() {
    let d = Setup::new()
        .set_spell(HAND_DESTRUCTION)
        .hand(vec![FILLER, FILLER])
        .deck(fillers(4))
        .build()
        .expect("valid");
    let id = ids_at(&d, HAND_DESTRUCTION, "spellTrapZone")[0];
    assert!(d.validate(&Command::ActivateSpell { card: id }).is_ok());
}

// ---------------------------------------------------------------- FR

#[test]
fn fr_001_002_003_zones_are_main_monster_spell_trap_and_field() {
    let names: Vec<&str> = [
        Location::Deck,
        Location::Hand,
        Location::MainMonsterZone(0),
        Location::SpellTrapZone(0),
        Location::FieldZone,
        Location::Graveyard,
        Location::Banished,
        Location::ExtraDeck,
    ]
    .iter()
    .map(|l| l.zone_name())
    .collect();
    assert_eq!(
        names,
        [
            "deck",
            "hand",
            "mainMonsterZone",
            "spellTrapZone",
            "fieldZone",
            "graveyard",
            "banished",
            "extraDeck"
        ]
    );
    assert!(!names.contains(&"field"));
}

#[test]
fn fr_004_normal_summon_limit_and_used_counters() {
    let mut d = duel(&[RIGHT_ARM], &[]);
    let v = d.view();
    assert_eq!(
        (v.you.normal_summon_limit, v.you.normal_summon_used),
        (1, 0)
    );
    d.apply(Command::SetMonster {
        card: in_hand(&d, RIGHT_ARM),
    })
    .expect("set");
    assert_eq!(d.view().you.normal_summon_used, 1);
}

#[test]
fn fr_005_cards_carry_battle_position_and_placed_this_turn() {
    let mut d = duel(&[RIGHT_ARM], &[]);
    let id = in_hand(&d, RIGHT_ARM);
    let c = instance(&d, id);
    assert_eq!((c.position, c.placed_this_turn), (None, false));
    d.apply(Command::SummonMonster { card: id })
        .expect("summon");
    let c = instance(&d, id);
    assert_eq!(
        (c.position, c.placed_this_turn),
        (Some(Position::Attack), true)
    );
}

#[test]
fn fr_006_007_summon_command_and_its_conditions() {
    let mut d = duel(&[RIGHT_ARM, POT_OF_GREED], &[]);
    assert_eq!(
        d.validate(&Command::SummonMonster {
            card: in_hand(&d, POT_OF_GREED)
        }),
        Err(RuleError::NotAMonster)
    );
    d.apply(Command::SummonMonster {
        card: in_hand(&d, RIGHT_ARM),
    })
    .expect("summon");
    assert_eq!(codes(&d, Player::You, "mainMonsterZone"), vec![RIGHT_ARM]);
}

#[test]
fn fr_008_009_set_monster_command_and_its_conditions() {
    let mut d = duel(&[RIGHT_ARM, LEFT_ARM], &[]);
    d.apply(Command::SetMonster {
        card: in_hand(&d, RIGHT_ARM),
    })
    .expect("set");
    assert_eq!(
        d.validate(&Command::SetMonster {
            card: in_hand(&d, LEFT_ARM)
        }),
        Err(RuleError::NoNormalSummonLeft)
    );
}

#[test]
fn fr_010_011_set_spell_trap_picks_the_zone_by_card_property() {
    let mut d = duel(&[CHICKEN_GAME, POT_OF_GREED], &[]);
    d.apply(Command::SetSpellTrap {
        card: in_hand(&d, CHICKEN_GAME),
    })
    .expect("set field");
    d.apply(Command::SetSpellTrap {
        card: in_hand(&d, POT_OF_GREED),
    })
    .expect("set normal");
    assert_eq!(codes(&d, Player::You, "fieldZone"), vec![CHICKEN_GAME]);
    assert_eq!(codes(&d, Player::You, "spellTrapZone"), vec![POT_OF_GREED]);
    assert_eq!(
        d.validate(&Command::SetSpellTrap {
            card: in_hand_or(&d, RIGHT_ARM)
        }),
        Err(RuleError::NoSuchCard)
    );
}

fn in_hand_or(d: &Duel, code: duel_engine::Code) -> duel_engine::CardId {
    ids_at(d, code, "hand")
        .first()
        .copied()
        .unwrap_or(duel_engine::CardId(999))
}

#[test]
fn fr_012_activated_field_spells_go_to_the_field_zone() {
    assert_eq!(
        card(CHICKEN_GAME).expect("known").sub,
        Some(SpellType::Field)
    );
    let mut d = duel(&[CHICKEN_GAME], &[]);
    play(&mut d, CHICKEN_GAME);
    assert_eq!(codes(&d, Player::You, "fieldZone"), vec![CHICKEN_GAME]);
}

#[test]
fn fr_012_2_set_quick_play_cannot_be_activated_the_same_turn() {
    let mut d = duel(&[HAND_DESTRUCTION, FILLER, FILLER], &fillers(4));
    let id = in_hand(&d, HAND_DESTRUCTION);
    d.apply(Command::SetSpellTrap { card: id }).expect("set");
    assert_eq!(
        d.validate(&Command::ActivateSpell { card: id }),
        Err(RuleError::SetThisTurn)
    );
}

#[test]
fn fr_013_a_new_field_spell_sends_the_old_one_to_the_graveyard() {
    let mut d = duel(&[CHICKEN_GAME, CHICKEN_GAME], &[]);
    play(&mut d, CHICKEN_GAME);
    play(&mut d, CHICKEN_GAME);
    assert_eq!(count(&d, Player::You, "fieldZone"), 1);
    assert_eq!(codes(&d, Player::You, "graveyard"), vec![CHICKEN_GAME]);
}
