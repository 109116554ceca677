//! Seed 001: only cards played this turn may be moved; guile tactics are the exceptions.

mod common;
use battle_line::*;
use common::*;

/// P0 played Red 5 at flag 0 on turn 1; P1 played Green 1 at flag 5; P0 is to move.
fn after_one_round(tactics: &[Tactic], p0_draw: Deck) -> Game {
    let mut g = scenario_with(Settings::default(), tactics);
    turn(&mut g, t(Red, 5), 0, p0_draw);
    turn(&mut g, t(Green, 1), 5, Deck::Troop);
    g
}

#[test]
fn check_1_a_troop_played_this_turn_is_selectable_and_movable() {
    let mut g = scenario();
    play(&mut g, t(Red, 5), 0);
    assert!(g.selectable_cards().contains(&c(Red, 5)));
    let moves = g.commands_for_card(c(Red, 5));
    assert!(moves.contains(&Command::MoveCard {
        card: c(Red, 5),
        flag: 1
    }));
    assert!(
        !moves.contains(&Command::MoveCard {
            card: c(Red, 5),
            flag: 0
        }),
        "not to its own flag"
    );
    ok(
        &mut g,
        Command::MoveCard {
            card: c(Red, 5),
            flag: 1,
        },
    );
    assert_eq!(g.flags()[1].p0_slots, vec![c(Red, 5)]);
    assert!(g.flags()[0].p0_slots.is_empty());
    // Still this turn's card: it may move again before the turn ends.
    ok(
        &mut g,
        Command::MoveCard {
            card: c(Red, 5),
            flag: 2,
        },
    );
    assert_eq!(g.cards_played_this_turn(), &[c(Red, 5)]);
}

#[test]
fn check_2_a_troop_from_an_earlier_turn_does_not_respond() {
    let mut g = after_one_round(&[], Deck::Troop);
    assert!(
        g.cards_played_this_turn().is_empty(),
        "cleared at the end of the turn"
    );
    assert!(!g.selectable_cards().contains(&c(Red, 5)));
    play(&mut g, t(Red, 9), 3);
    assert!(!g.selectable_cards().contains(&c(Red, 5)));
    assert!(g.commands_for_card(c(Red, 5)).is_empty());
    refused(
        &mut g,
        Command::MoveCard {
            card: c(Red, 5),
            flag: 1,
        },
        RuleError::NotPlayedThisTurn { card: c(Red, 5) },
    );
}

#[test]
fn check_3_an_environment_tactic_played_this_turn_is_selectable() {
    let mut g = after_one_round(&[Tactic::Fog], Deck::Tactic);
    play(&mut g, Tactic::Fog, 2);
    assert!(g.selectable_cards().contains(&Card::Tactic(Tactic::Fog)));
    assert_eq!(g.flags()[2].p0_tactic, vec![Tactic::Fog]);
}

#[test]
fn check_4_an_environment_tactic_from_an_earlier_turn_does_not_respond() {
    let mut g = after_one_round(&[Tactic::Fog], Deck::Tactic);
    turn(&mut g, Tactic::Fog, 2, Deck::Troop);
    turn(&mut g, t(Green, 2), 5, Deck::Troop);
    assert!(!g.selectable_cards().contains(&Card::Tactic(Tactic::Fog)));
    play(&mut g, t(Red, 9), 3);
    assert!(!g.selectable_cards().contains(&Card::Tactic(Tactic::Fog)));
    refused(
        &mut g,
        Command::MoveCard {
            card: Card::Tactic(Tactic::Fog),
            flag: 4,
        },
        RuleError::NotPlayedThisTurn {
            card: Card::Tactic(Tactic::Fog),
        },
    );
}

/// P0 (with Redeploy drawn on turn 1) has played Redeploy on turn 2.
fn redeploy_active() -> Game {
    let mut g = after_one_round(&[Tactic::Redeploy], Deck::Tactic);
    play_field(&mut g, Tactic::Redeploy);
    g
}

#[test]
fn check_5_redeploy_makes_an_earlier_card_selectable() {
    let g = redeploy_active();
    assert_eq!(g.active_guile_tactic(), Some(Tactic::Redeploy));
    assert!(g.selectable_cards().contains(&c(Red, 5)));
}

#[test]
fn check_6_redeploy_moves_an_earlier_card_to_another_slot() {
    let mut g = redeploy_active();
    ok(
        &mut g,
        Command::ResolveRedeploy {
            card: c(Red, 5),
            to: Destination::Flag { flag: 4 },
        },
    );
    assert_eq!(g.flags()[4].p0_slots, vec![c(Red, 5)]);
    assert!(g.flags()[0].p0_slots.is_empty());
    assert_eq!(
        g.active_guile_tactic(),
        None,
        "exactly one operation, then cleared"
    );
    refused(
        &mut g,
        Command::MoveCard {
            card: c(Red, 5),
            flag: 6,
        },
        RuleError::NotPlayedThisTurn { card: c(Red, 5) },
    );
}

/// Check 7 and edge case 5 state the same requirement: Redeploy may discard an earlier card.
fn redeploy_discards_an_earlier_card() {
    let mut g = redeploy_active();
    ok(
        &mut g,
        Command::ResolveRedeploy {
            card: c(Red, 5),
            to: Destination::Discard,
        },
    );
    assert_eq!(g.troop_discard(), &[t(Red, 5)]);
    assert!(g.flags()[0].p0_slots.is_empty());
    assert_eq!(g.card_count(), TOTAL_CARDS);
}

#[test]
fn check_7_redeploy_sends_an_earlier_card_to_the_discard() {
    redeploy_discards_an_earlier_card();
}

#[test]
fn check_8_redeploy_cannot_select_the_opponents_card() {
    let mut g = redeploy_active();
    assert!(!g.selectable_cards().contains(&c(Green, 1)));
    refused(
        &mut g,
        Command::ResolveRedeploy {
            card: c(Green, 1),
            to: Destination::Discard,
        },
        RuleError::NotYourCard { card: c(Green, 1) },
    );
}

#[test]
fn check_9_deserter_selects_the_opponents_earlier_card() {
    let mut g = after_one_round(&[Tactic::Deserter], Deck::Tactic);
    play_field(&mut g, Tactic::Deserter);
    assert_eq!(g.active_guile_tactic(), Some(Tactic::Deserter));
    assert!(g.selectable_cards().contains(&c(Green, 1)));
    assert!(
        !g.selectable_cards().contains(&c(Red, 5)),
        "Deserter targets the opponent only"
    );
    ok(&mut g, Command::ResolveDeserter { card: c(Green, 1) });
    assert_eq!(g.troop_discard(), &[t(Green, 1)]);
    assert_eq!(g.active_guile_tactic(), None);
}

#[test]
fn check_10_traitor_selects_the_opponents_earlier_troop() {
    let mut g = after_one_round(&[Tactic::Traitor], Deck::Tactic);
    play_field(&mut g, Tactic::Traitor);
    assert!(g.selectable_cards().contains(&c(Green, 1)));
    ok(
        &mut g,
        Command::ResolveTraitor {
            card: t(Green, 1),
            flag: 0,
        },
    );
    assert_eq!(g.flags()[0].p0_slots, vec![c(Red, 5), c(Green, 1)]);
    assert!(g.flags()[5].p1_slots.is_empty());
    assert_eq!(g.active_guile_tactic(), None);
}

#[test]
fn check_11_redeploy_shows_its_guide_message() {
    let g = redeploy_active();
    assert_eq!(g.prompt(), Prompt::Redeploy);
    assert_eq!(
        g.prompt().to_string(),
        "REDEPLOY: Select your card to move or discard"
    );
    assert_eq!(g.view(Player::P0).prompt, Prompt::Redeploy);
}

#[test]
fn edge_1_the_scout_card_itself_cannot_be_moved() {
    let mut g = after_one_round(&[Tactic::Scout], Deck::Tactic);
    play_field(&mut g, Tactic::Scout);
    assert_eq!(g.field(Player::P0), &[Tactic::Scout]);
    for _ in 0..3 {
        ok(&mut g, Command::ScoutDraw { deck: Deck::Troop });
    }
    let hand = g.hand(Player::P0).to_vec();
    ok(&mut g, Command::ScoutReturn { card: hand[0] });
    ok(&mut g, Command::ScoutReturn { card: hand[1] });
    assert!(
        g.cards_played_this_turn()
            .contains(&Card::Tactic(Tactic::Scout))
    );
    assert!(!g.selectable_cards().contains(&Card::Tactic(Tactic::Scout)));
    let scout = Card::Tactic(Tactic::Scout);
    refused(
        &mut g,
        Command::MoveCard {
            card: scout,
            flag: 1,
        },
        RuleError::NotOnBoard { card: scout },
    );
}

#[test]
fn edge_2_an_environment_tactic_played_this_turn_moves_to_another_flag() {
    let mut g = after_one_round(&[Tactic::Mud], Deck::Tactic);
    play(&mut g, Tactic::Mud, 2);
    ok(
        &mut g,
        Command::MoveCard {
            card: Card::Tactic(Tactic::Mud),
            flag: 3,
        },
    );
    assert!(g.flags()[2].p0_tactic.is_empty());
    assert_eq!(g.flags()[3].p0_tactic, vec![Tactic::Mud]);
    assert_eq!(g.flags()[3].capacity(), 4);
}

#[test]
fn edge_3_redeploy_moves_an_earlier_troop() {
    let mut g = redeploy_active();
    assert!(
        g.commands_for_card(c(Red, 5))
            .contains(&Command::ResolveRedeploy {
                card: c(Red, 5),
                to: Destination::Flag { flag: 8 }
            })
    );
    ok(
        &mut g,
        Command::ResolveRedeploy {
            card: c(Red, 5),
            to: Destination::Flag { flag: 8 },
        },
    );
    assert_eq!(g.flags()[8].p0_slots, vec![c(Red, 5)]);
}

/// Under the one-card-per-turn rule the only card played in a Redeploy turn is
/// Redeploy itself; Redeploy's targets do not depend on `cardsPlayedThisTurn`, so a
/// card's being new or old never hides it. The Redeploy card lies in the guile area
/// and is not a target.
#[test]
fn edge_4_redeploy_targets_do_not_depend_on_when_a_card_was_played() {
    let mut g = redeploy_active();
    assert_eq!(
        g.cards_played_this_turn(),
        &[Card::Tactic(Tactic::Redeploy)]
    );
    let selectable = g.selectable_cards();
    assert!(selectable.contains(&c(Red, 5)), "earlier card");
    assert!(
        !selectable.contains(&Card::Tactic(Tactic::Redeploy)),
        "the Redeploy card lies in the field"
    );
    ok(
        &mut g,
        Command::ResolveRedeploy {
            card: c(Red, 5),
            to: Destination::Flag { flag: 1 },
        },
    );
    assert_eq!(g.flags()[1].p0_slots, vec![c(Red, 5)]);
}

#[test]
fn edge_5_redeploy_sends_an_earlier_card_to_the_discard() {
    redeploy_discards_an_earlier_card();
}

#[test]
fn edge_6_redeploy_cannot_select_the_opponents_card() {
    let mut g = redeploy_active();
    assert!(g.commands_for_card(c(Green, 1)).is_empty());
    refused(
        &mut g,
        Command::ResolveRedeploy {
            card: c(Green, 1),
            to: Destination::Flag { flag: 2 },
        },
        RuleError::NotYourCard { card: c(Green, 1) },
    );
}

#[test]
fn edge_7_redeploy_cannot_select_a_card_at_a_claimed_flag() {
    let mut g = scenario_with(Settings::default(), &[Tactic::Redeploy]);
    turn(&mut g, t(Red, 10), 0, Deck::Troop);
    turn(&mut g, t(Green, 1), 5, Deck::Troop);
    turn(&mut g, t(Red, 9), 0, Deck::Troop);
    turn(&mut g, t(Green, 2), 5, Deck::Troop);
    turn(&mut g, t(Red, 8), 0, Deck::Tactic);
    turn(&mut g, t(Green, 3), 5, Deck::Troop);
    ok(&mut g, Command::ClaimFlag { flag: 0 });
    play(&mut g, t(Red, 5), 1);
    end(&mut g, Deck::Troop);
    turn(&mut g, t(Green, 4), 6, Deck::Troop);
    play_field(&mut g, Tactic::Redeploy);
    let selectable = g.selectable_cards();
    assert!(
        !selectable.contains(&c(Red, 10)),
        "claimed flags are frozen"
    );
    assert!(selectable.contains(&c(Red, 5)));
    refused(
        &mut g,
        Command::ResolveRedeploy {
            card: c(Red, 10),
            to: Destination::Flag { flag: 2 },
        },
        RuleError::FlagClaimed { flag: 0 },
    );
}
