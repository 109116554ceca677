//! Property tests: random legal play from random seeds keeps the game consistent.

use battle_line::{
    Card, Color, Command, Deck, Destination, Game, Player, Settings, Tactic, Target, Troop,
};
use proptest::prelude::*;
use seeded_rng::Rng;

fn random_card(rng: &mut Rng) -> Card {
    let i = rng.index(70);
    if i < 60 {
        Card::Troop(Troop {
            color: Color::ALL[i / 10],
            value: (i % 10) as u8 + 1,
        })
    } else {
        Card::Tactic(Tactic::ALL[i - 60])
    }
}

/// Any command at all, legal or not, including out-of-range flags.
fn random_command(rng: &mut Rng) -> Command {
    let flag = rng.index(10) as u8;
    let deck = if rng.chance(0.5) {
        Deck::Troop
    } else {
        Deck::Tactic
    };
    let card = random_card(rng);
    match rng.index(10) {
        0 => Command::ClaimFlag { flag },
        1 => Command::PlayCard {
            card,
            target: if rng.chance(0.2) {
                Target::Field
            } else {
                Target::Flag { flag }
            },
        },
        2 => Command::MoveCard { card, flag },
        3 => Command::ResolveRedeploy {
            card,
            to: if rng.chance(0.3) {
                Destination::Discard
            } else {
                Destination::Flag { flag }
            },
        },
        4 => Command::ResolveDeserter { card },
        5 => match card {
            Card::Troop(t) => Command::ResolveTraitor { card: t, flag },
            Card::Tactic(_) => Command::Pass,
        },
        6 => Command::ScoutDraw { deck },
        7 => Command::ScoutReturn { card },
        8 => Command::DrawAndEndTurn { deck },
        _ => Command::EndTurn,
    }
}

fn frozen(g: &Game) -> Vec<(usize, battle_line::Flag)> {
    g.flags()
        .iter()
        .enumerate()
        .filter(|(_, f)| f.owner.is_some())
        .map(|(i, f)| (i, f.clone()))
        .collect()
}

fn play_random_game(seed: u64, timing: battle_line::ClaimTiming, steps: usize) {
    let mut g = Game::new(
        seed,
        Settings {
            claim_timing: timing,
        },
    );
    let mut rng = Rng::new(seed ^ 0x5eed);
    for _ in 0..steps {
        if g.is_over() {
            break;
        }
        // Anything not listed must be refused and change nothing.
        for _ in 0..3 {
            let cmd = random_command(&mut rng);
            let legal = g.legal_commands();
            if !legal.contains(&cmd) {
                let before = g.clone();
                assert!(
                    g.apply(cmd).is_err(),
                    "unlisted {cmd:?} was accepted in {:?}",
                    before.phase()
                );
                assert_eq!(g, before, "refused {cmd:?} changed the game");
            }
        }
        let legal = g.legal_commands();
        assert!(!legal.is_empty(), "no legal command in {:?}", g.phase());
        let before_frozen = frozen(&g);
        let cmd = legal[rng.index(legal.len())];
        if let Err(e) = g.apply(cmd) {
            panic!("listed {cmd:?} refused: {e}");
        }
        assert_eq!(g.card_count(), battle_line::TOTAL_CARDS);
        let after = frozen(&g);
        for (i, f) in before_frozen {
            assert!(
                after.iter().any(|(j, h)| *j == i && *h == f),
                "claimed flag {i} changed"
            );
        }
        for p in Player::BOTH {
            assert!(g.hand(p).len() <= 9);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn random_games_stay_consistent(seed in any::<u64>(), timing in 0usize..3) {
        let timing = [
            battle_line::ClaimTiming::StartOfTurn,
            battle_line::ClaimTiming::AfterPlaying,
            battle_line::ClaimTiming::Anytime,
        ][timing];
        play_random_game(seed, timing, 400);
    }

    #[test]
    fn replay_of_a_random_game_is_identical(seed in any::<u64>()) {
        let mut g = Game::new(seed, Settings::default());
        let mut rng = Rng::new(seed);
        for _ in 0..150 {
            let legal = g.legal_commands();
            if legal.is_empty() { break; }
            let cmd = legal[rng.index(legal.len())];
            prop_assert!(g.apply(cmd).is_ok());
        }
        let again = Game::replay(&g.record());
        prop_assert_eq!(again.as_ref(), Ok(&g));
        let json = serde_json::to_string(&g).expect("games serialize");
        let loaded: Game = serde_json::from_str(&json).expect("saved games load");
        prop_assert_eq!(loaded, g);
    }
}
