//! Scenario tests for the official rules: claims and proofs, tactics, environment, wins, Scout, replay.

mod common;
use battle_line::*;
use common::*;

/// P0 builds a red 8-9-10 wedge at flag 0 while P1 builds a green 1-2-3 wedge at flag 5.
fn two_wedges() -> Game {
    let mut g = scenario();
    for (mine, theirs) in [(10, 1), (9, 2), (8, 3)] {
        turn(&mut g, t(Red, mine), 0, Deck::Troop);
        turn(&mut g, t(Green, theirs), 5, Deck::Troop);
    }
    g
}

#[test]
fn an_unbeatable_formation_is_claimed_by_proof() {
    let mut g = two_wedges();
    assert_eq!(
        g.check_claim(0, Player::P0),
        Ok(Strength {
            kind: FormationKind::Wedge,
            sum: 27
        })
    );
    let events = ok(&mut g, Command::ClaimFlag { flag: 0 });
    assert_eq!(
        events,
        vec![Event::FlagClaimed {
            player: Player::P0,
            flag: 0
        }]
    );
    assert_eq!(g.flags()[0].owner, Some(Player::P0));
    refused(
        &mut g,
        Command::ClaimFlag { flag: 0 },
        RuleError::FlagClaimed { flag: 0 },
    );
}

#[test]
fn a_beatable_formation_is_refused_with_a_counterexample() {
    let mut g = two_wedges();
    play(&mut g, t(Red, 5), 1);
    end(&mut g, Deck::Troop);
    let err = g
        .apply(Command::ClaimFlag { flag: 5 })
        .expect_err("green 1-2-3 can be beaten");
    let RuleError::ClaimRefused {
        flag: 5,
        reason:
            ClaimRefusal::OpponentCanBeat {
                mine,
                theirs,
                cards,
            },
    } = err.clone()
    else {
        panic!("unexpected refusal {err:?}");
    };
    assert_eq!(
        mine,
        Strength {
            kind: FormationKind::Wedge,
            sum: 6
        }
    );
    assert!(theirs > mine);
    assert_eq!(cards.len(), 3);
    // The counterexample is real: unplayed cards that really form `theirs`.
    let unplayed = g.unplayed_troops();
    assert!(cards.iter().all(|c| unplayed.contains(*c)));
    let as_cards: Vec<Card> = cards.iter().map(|c| Card::Troop(*c)).collect();
    assert_eq!(
        best_formation(&as_cards, Judging::NORMAL, TroopSet::EMPTY).map(|c| c.strength),
        Some(theirs)
    );
    assert!(err.to_string().contains("could still beat"));
}

#[test]
fn complete_against_complete_the_stronger_formation_claims() {
    let mut g = scenario();
    // P0: blue 1-2-3 wedge (6) at flag 2; P1: yellow 5-6-7 wedge (18) at flag 2.
    for (mine, theirs) in [(1, 5), (2, 6), (3, 7)] {
        turn(&mut g, t(Blue, mine), 2, Deck::Troop);
        turn(&mut g, t(Yellow, theirs), 2, Deck::Troop);
    }
    let refusal = g.check_claim(2, Player::P0);
    assert!(
        matches!(refusal, Err(ClaimRefusal::OpponentStronger { .. })),
        "{refusal:?}"
    );
    assert!(g.check_claim(2, Player::P1).is_ok());
    play(&mut g, t(Red, 5), 3);
    end(&mut g, Deck::Troop);
    ok(&mut g, Command::ClaimFlag { flag: 2 });
    assert_eq!(g.flags()[2].owner, Some(Player::P1));
}

#[test]
fn equal_formations_go_to_the_side_completed_first() {
    let mut g = stacked(
        Settings::default(),
        &[
            t(Red, 4),
            t(Red, 5),
            t(Red, 6),
            t(Blue, 1),
            t(Blue, 2),
            t(Blue, 3),
            t(Blue, 9),
        ],
        &[
            t(Green, 4),
            t(Green, 5),
            t(Green, 6),
            t(Yellow, 1),
            t(Yellow, 2),
            t(Yellow, 3),
            t(Yellow, 9),
        ],
        &[],
        &[],
    );
    for v in [4, 5, 6] {
        turn(&mut g, t(Red, v), 0, Deck::Troop);
        turn(&mut g, t(Green, v), 0, Deck::Troop);
    }
    assert_eq!(
        g.check_claim(0, Player::P1),
        Err(ClaimRefusal::TieCompletedLater {
            strength: Strength {
                kind: FormationKind::Wedge,
                sum: 15
            }
        })
    );
    ok(&mut g, Command::ClaimFlag { flag: 0 });
}

#[test]
fn an_incomplete_side_cannot_claim() {
    let mut g = scenario();
    turn(&mut g, t(Red, 10), 0, Deck::Troop);
    turn(&mut g, t(Green, 1), 5, Deck::Troop);
    refused(
        &mut g,
        Command::ClaimFlag { flag: 0 },
        RuleError::ClaimRefused {
            flag: 0,
            reason: ClaimRefusal::Incomplete,
        },
    );
}

#[test]
fn claim_timing_after_playing() {
    let mut g = two_wedges_with(Settings {
        claim_timing: ClaimTiming::AfterPlaying,
    });
    refused(
        &mut g,
        Command::ClaimFlag { flag: 0 },
        RuleError::ClaimTiming {
            timing: ClaimTiming::AfterPlaying,
        },
    );
    play(&mut g, t(Red, 5), 1);
    ok(&mut g, Command::ClaimFlag { flag: 0 });
}

#[test]
fn claim_allowed_now_follows_the_timing_setting() {
    let cases = [
        (ClaimTiming::StartOfTurn, true, false),
        (ClaimTiming::AfterPlaying, false, true),
        (ClaimTiming::Anytime, true, true),
    ];
    for (claim_timing, before, after) in cases {
        let mut g = two_wedges_with(Settings { claim_timing });
        assert_eq!(
            g.claim_allowed_now(),
            before,
            "{claim_timing:?} before playing"
        );
        play(&mut g, t(Red, 5), 1);
        assert_eq!(
            g.claim_allowed_now(),
            after,
            "{claim_timing:?} after playing"
        );
        // The command agrees with the query.
        let claimed = g.clone().apply(Command::ClaimFlag { flag: 0 }).is_ok();
        assert_eq!(claimed, after);
    }
}

fn two_wedges_with(settings: Settings) -> Game {
    let mut g = scenario_with(settings, &[]);
    for (mine, theirs) in [(10, 1), (9, 2), (8, 3)] {
        turn(&mut g, t(Red, mine), 0, Deck::Troop);
        turn(&mut g, t(Green, theirs), 5, Deck::Troop);
    }
    g
}

#[test]
fn tactic_limit_and_one_leader_per_player() {
    let tactics = [Tactic::Alexander, Tactic::Fog, Tactic::Darius];
    let mut g = scenario_with(Settings::default(), &tactics);
    end_after(&mut g, t(Red, 5), 0, Deck::Tactic); // P0 draws Alexander
    end_after(&mut g, t(Green, 1), 5, Deck::Tactic); // P1 draws Fog
    turn(&mut g, Tactic::Alexander, 1, Deck::Tactic); // P0 draws Darius
    turn(&mut g, t(Green, 2), 5, Deck::Troop);
    // P0 has played one tactic, P1 none.
    refused(
        &mut g,
        Command::PlayCard {
            card: Card::Tactic(Tactic::Darius),
            target: Target::Flag { flag: 2 },
        },
        RuleError::TacticLimit,
    );
    assert!(!g.legal_commands().iter().any(|c| matches!(
        c,
        Command::PlayCard {
            card: Card::Tactic(_),
            ..
        }
    )));
    turn(&mut g, t(Red, 9), 2, Deck::Troop);
    turn(&mut g, Tactic::Fog, 6, Deck::Troop);
    // Even again, but Darius would be P0's second leader.
    refused(
        &mut g,
        Command::PlayCard {
            card: Card::Tactic(Tactic::Darius),
            target: Target::Flag { flag: 2 },
        },
        RuleError::SecondLeader,
    );
}

fn end_after(g: &mut Game, troop: Troop, flag: u8, deck: Deck) {
    turn(g, troop, flag, deck);
}

#[test]
fn fog_decides_by_sum_only() {
    // P0 wedge blue 1-2-3 (6) vs P1 yellow 5-6 + green 4: host of 15; Fog makes P1 stronger.
    let mut g = scenario_with(Settings::default(), &[Tactic::Fog]);
    turn(&mut g, t(Blue, 1), 3, Deck::Tactic);
    turn(&mut g, t(Yellow, 5), 3, Deck::Troop);
    turn(&mut g, t(Blue, 2), 3, Deck::Troop);
    turn(&mut g, t(Yellow, 6), 3, Deck::Troop);
    turn(&mut g, t(Blue, 3), 3, Deck::Troop);
    turn(&mut g, t(Green, 4), 3, Deck::Troop);
    assert!(
        g.check_claim(3, Player::P0).is_ok(),
        "a wedge beats a host without Fog"
    );
    turn(&mut g, Tactic::Fog, 3, Deck::Troop);
    assert_eq!(
        g.flags()[3].judging(),
        Judging {
            cards: 3,
            fog: true
        }
    );
    assert_eq!(
        g.check_claim(3, Player::P0),
        Err(ClaimRefusal::OpponentStronger {
            mine: Strength {
                kind: FormationKind::Host,
                sum: 6
            },
            theirs: Strength {
                kind: FormationKind::Host,
                sum: 15
            }
        })
    );
    ok(&mut g, Command::ClaimFlag { flag: 3 });
}

#[test]
fn mud_needs_four_cards_and_fog_with_mud_sums_four() {
    let mut g = scenario_with(Settings::default(), &[Tactic::Mud, Tactic::Fog]);
    turn(&mut g, t(Red, 5), 4, Deck::Tactic); // P0 draws Mud
    turn(&mut g, t(Green, 1), 4, Deck::Tactic); // P1 draws Fog
    turn(&mut g, Tactic::Mud, 4, Deck::Troop);
    assert_eq!(g.flags()[4].capacity(), 4);
    turn(&mut g, t(Green, 2), 4, Deck::Troop);
    turn(&mut g, t(Red, 9), 4, Deck::Troop);
    turn(&mut g, t(Green, 3), 4, Deck::Troop);
    assert_eq!(
        g.check_claim(4, Player::P1),
        Err(ClaimRefusal::Incomplete),
        "3 cards are not enough in Mud"
    );
    turn(&mut g, t(Red, 10), 4, Deck::Troop);
    assert_eq!(g.flags()[4].p0_slots.len(), 3);
    // A 4-card wedge (green 1-2-3-4) would beat P0's host, so no proof yet.
    let mut probe = g.clone();
    turn(&mut probe, t(Green, 4), 4, Deck::Troop);
    turn(&mut probe, t(Blue, 3), 4, Deck::Troop);
    ok(&mut probe, Command::ClaimFlag { flag: 4 });
    assert_eq!(probe.flags()[4].owner, Some(Player::P1));
    // With Fog as well, four-card sums decide: 5+9+10+3 = 27 beats 1+2+3+4.
    turn(&mut g, Tactic::Fog, 4, Deck::Troop);
    assert_eq!(
        g.flags()[4].judging(),
        Judging {
            cards: 4,
            fog: true
        }
    );
    turn(&mut g, t(Blue, 3), 4, Deck::Troop);
    turn(&mut g, t(Green, 4), 4, Deck::Troop);
    ok(&mut g, Command::ClaimFlag { flag: 4 });
    assert_eq!(g.flags()[4].owner, Some(Player::P0));
}

/// A deal where P0 receives the 8-9-10 of five colours and P1 low cards.
fn high_wedges_deal() -> Game {
    let p0_draws = [
        t(Green, 9),
        t(Green, 8),
        t(Orange, 10),
        t(Orange, 9),
        t(Orange, 8),
        t(Purple, 10),
        t(Purple, 9),
        t(Purple, 8),
    ];
    let p1_draws = [
        t(Orange, 1),
        t(Orange, 2),
        t(Orange, 3),
        t(Orange, 4),
        t(Purple, 1),
        t(Purple, 2),
        t(Purple, 3),
        t(Purple, 4),
    ];
    let draws: Vec<Troop> = p0_draws
        .iter()
        .zip(p1_draws.iter())
        .flat_map(|(a, b)| [*a, *b])
        .collect();
    stacked(
        Settings::default(),
        &[
            t(Red, 10),
            t(Red, 9),
            t(Red, 8),
            t(Blue, 10),
            t(Blue, 9),
            t(Blue, 8),
            t(Green, 10),
        ],
        &[
            t(Yellow, 1),
            t(Yellow, 2),
            t(Yellow, 3),
            t(Yellow, 4),
            t(Yellow, 5),
            t(Yellow, 6),
            t(Yellow, 7),
        ],
        &draws,
        &[],
    )
}

/// P0 builds wedges at `flags` in order (claiming whatever it can at the start of each
/// turn); P1 plays its lowest troop wherever there is room. Returns the win events.
fn build_wedges(g: &mut Game, flags: &[u8]) -> Vec<Event> {
    let colours = [Red, Blue, Green, Orange, Purple];
    let mut plan: Vec<(Troop, u8)> = Vec::new();
    for (i, &flag) in flags.iter().enumerate() {
        for v in [10, 9, 8] {
            plan.push((t(colours[i], v), flag));
        }
    }
    let mut won = Vec::new();
    for (troop, flag) in plan.into_iter().chain(std::iter::once((t(Red, 1), 99))) {
        for claim in g
            .legal_commands()
            .into_iter()
            .filter(|c| matches!(c, Command::ClaimFlag { .. }))
        {
            won.extend(
                ok(g, claim)
                    .into_iter()
                    .filter(|e| matches!(e, Event::GameWon { .. })),
            );
            if g.is_over() {
                return won;
            }
        }
        if flag == 99 {
            break;
        }
        turn(g, troop, flag, Deck::Troop);
        let mut hand: Vec<Troop> = g
            .hand(Player::P1)
            .iter()
            .filter_map(|c| c.troop())
            .collect();
        hand.sort_by_key(|x| x.value);
        let open = (0..FLAGS)
            .rev()
            .find(|&f| g.flags()[usize::from(f)].open_for(Player::P1))
            .expect("room for P1");
        turn(g, hand[0], open, Deck::Troop);
    }
    won
}

#[test]
fn three_adjacent_flags_win_by_breakthrough() {
    let mut g = high_wedges_deal();
    let won = build_wedges(&mut g, &[0, 1, 2]);
    assert_eq!(
        won,
        vec![Event::GameWon {
            player: Player::P0,
            by: Victory::Breakthrough
        }]
    );
    assert_eq!(g.winner(), Some(Player::P0));
    refused(
        &mut g,
        Command::DrawAndEndTurn { deck: Deck::Troop },
        RuleError::GameOver,
    );
    assert!(g.legal_commands().is_empty());
}

#[test]
fn five_flags_win_by_envelopment() {
    let mut g = high_wedges_deal();
    let won = build_wedges(&mut g, &[0, 2, 4, 6, 8]);
    assert_eq!(
        won,
        vec![Event::GameWon {
            player: Player::P0,
            by: Victory::Envelopment
        }]
    );
}

#[test]
fn scout_draws_three_and_returns_two_to_the_top_of_their_decks() {
    let mut g = scenario_with(Settings::default(), &[Tactic::Scout]);
    turn(&mut g, t(Red, 5), 0, Deck::Tactic);
    turn(&mut g, t(Green, 1), 5, Deck::Troop);
    play_field(&mut g, Tactic::Scout);
    assert_eq!(g.prompt(), Prompt::ScoutDraw { left: 3 });
    ok(&mut g, Command::ScoutDraw { deck: Deck::Troop });
    ok(&mut g, Command::ScoutDraw { deck: Deck::Tactic });
    ok(&mut g, Command::ScoutDraw { deck: Deck::Troop });
    assert_eq!(g.hand(Player::P0).len(), 9);
    assert_eq!(g.prompt(), Prompt::ScoutReturn { left: 2 });
    refused(
        &mut g,
        Command::ScoutDraw { deck: Deck::Troop },
        RuleError::WrongPhase {
            phase: Phase::ScoutReturn { left: 2 },
        },
    );
    let tactic = g
        .hand(Player::P0)
        .iter()
        .copied()
        .find(|c| c.tactic().is_some())
        .expect("drew a tactic");
    ok(&mut g, Command::ScoutReturn { card: tactic });
    ok(&mut g, Command::ScoutReturn { card: c(Red, 10) });
    assert_eq!(g.hand(Player::P0).len(), 7);
    assert_eq!(g.phase(), Phase::Finish { may_draw: false });
    refused(
        &mut g,
        Command::DrawAndEndTurn { deck: Deck::Troop },
        RuleError::WrongPhase {
            phase: Phase::Finish { may_draw: false },
        },
    );
    ok(&mut g, Command::EndTurn);
    // P1 draws the returned cards from the tops of the decks.
    play(&mut g, t(Green, 2), 5);
    end(&mut g, Deck::Troop);
    assert!(g.hand(Player::P1).contains(&c(Red, 10)));
    assert_eq!(g.tactics_played(Player::P0), 1);
}

#[test]
fn pass_is_refused_while_a_troop_can_be_played() {
    let mut g = scenario();
    refused(&mut g, Command::Pass, RuleError::TroopPlayable);
    refused(
        &mut g,
        Command::EndTurn,
        RuleError::WrongPhase { phase: Phase::Play },
    );
    play(&mut g, t(Red, 5), 0);
    refused(&mut g, Command::EndTurn, RuleError::MustDraw);
    refused(
        &mut g,
        Command::PlayCard {
            card: c(Red, 9),
            target: Target::Flag { flag: 1 },
        },
        RuleError::WrongPhase {
            phase: Phase::Finish { may_draw: true },
        },
    );
}

#[test]
fn refused_plays_say_why() {
    let mut g = scenario();
    refused(
        &mut g,
        Command::PlayCard {
            card: c(Green, 1),
            target: Target::Flag { flag: 0 },
        },
        RuleError::NotInHand { card: c(Green, 1) },
    );
    refused(
        &mut g,
        Command::PlayCard {
            card: c(Red, 5),
            target: Target::Flag { flag: 9 },
        },
        RuleError::NoSuchFlag { flag: 9 },
    );
    refused(
        &mut g,
        Command::PlayCard {
            card: c(Red, 5),
            target: Target::Field,
        },
        RuleError::WrongPlace { card: c(Red, 5) },
    );
    for v in [10, 9, 8] {
        turn(&mut g, t(Red, v), 0, Deck::Troop);
        turn(&mut g, t(Green, v - 7), 5, Deck::Troop);
    }
    refused(
        &mut g,
        Command::PlayCard {
            card: c(Red, 5),
            target: Target::Flag { flag: 0 },
        },
        RuleError::SlotFull { flag: 0 },
    );
    assert!(RuleError::SlotFull { flag: 0 }.to_string().contains("full"));
}

#[test]
fn traitor_takes_troops_only_and_deserter_removes_mud() {
    let mut g = scenario_with(
        Settings::default(),
        &[
            Tactic::Mud,
            Tactic::Alexander,
            Tactic::Traitor,
            Tactic::Deserter,
        ],
    );
    turn(&mut g, t(Red, 5), 0, Deck::Tactic); // P0: Mud
    turn(&mut g, t(Green, 1), 5, Deck::Tactic); // P1: Alexander
    turn(&mut g, Tactic::Mud, 0, Deck::Tactic); // P0: Traitor
    turn(&mut g, Tactic::Alexander, 5, Deck::Tactic); // P1: Deserter
    play_field(&mut g, Tactic::Traitor);
    let alexander = Card::Tactic(Tactic::Alexander);
    assert!(!g.selectable_cards().contains(&alexander));
    refused(
        &mut g,
        Command::ResolveTraitor {
            card: t(Green, 1),
            flag: 9,
        },
        RuleError::NoSuchFlag { flag: 9 },
    );
    ok(
        &mut g,
        Command::ResolveTraitor {
            card: t(Green, 1),
            flag: 0,
        },
    );
    end(&mut g, Deck::Troop);
    play_field(&mut g, Tactic::Deserter);
    assert!(g.selectable_cards().contains(&Card::Tactic(Tactic::Mud)));
    ok(
        &mut g,
        Command::ResolveDeserter {
            card: Card::Tactic(Tactic::Mud),
        },
    );
    assert_eq!(g.flags()[0].capacity(), 3);
    assert_eq!(g.tactic_discard(), &[Tactic::Mud]);
}

#[test]
fn replay_and_undo_rebuild_the_same_game() {
    let mut g = Game::new(77, Settings::default());
    let mut bot = bot::Bot::new(1);
    for _ in 0..60 {
        let Some(cmd) = bot.choose(&g) else { break };
        ok(&mut g, cmd);
    }
    assert_eq!(Game::replay(&g.record()), Ok(g.clone()));
    assert_eq!(
        Game::new(77, Settings::default()),
        Game::new(77, Settings::default())
    );
    let undone = g.undo().expect("a command to undo");
    assert_eq!(undone.log(), &g.log()[..g.log().len() - 1]);
    let mut redo = undone.clone();
    ok(&mut redo, *g.log().last().expect("non-empty log"));
    assert_eq!(redo, g);
    assert_eq!(
        Game::new(1, Settings::default()).undo(),
        Err(ReplayError::NothingToUndo)
    );
    // Saves load by replay; a forged log is refused.
    let json = serde_json::to_string(&g).expect("serializes");
    assert!(
        json.contains("p0_slots")
            && json.contains("cardsPlayedThisTurn")
            && json.contains("activeGuileTactic")
    );
    let loaded: Game = serde_json::from_str(&json).expect("loads");
    assert_eq!(loaded, g);
    let mut record = g.record();
    record.log.insert(0, Command::EndTurn);
    assert!(matches!(
        Game::replay(&record),
        Err(ReplayError::Refused { index: 0, .. })
    ));
}
