//! Property tests: random legal play from random seeds never panics, keeps every card in
//! exactly one place, `legal_commands` agrees with `apply`, and logs and share codes replay.

mod common;

use common::{check_invariants, real_cards};
use duel_engine::{CardId, Command, Duel, PromptKind, Response, Settings, decks};
use proptest::prelude::*;

/// Picks a random valid answer for the pending prompt, or a random legal command.
fn random_command(d: &Duel, pick: &mut impl FnMut(usize) -> usize) -> Option<Command> {
    let view = d.view();
    if let Some(PromptKind::Choice { options, .. }) = view.prompt.as_ref().map(|p| &p.kind) {
        return Some(Command::Respond(Response::Option(
            options[pick(options.len())].value,
        )));
    }
    if let Some(PromptKind::Cards {
        candidates,
        min,
        max,
        ..
    }) = view.prompt.map(|p| p.kind)
    {
        let n = usize::from(min) + pick(usize::from(max - min) + 1);
        let mut pool: Vec<CardId> = candidates.iter().map(|c| c.id).collect();
        let mut chosen = Vec::new();
        for _ in 0..n {
            chosen.push(pool.remove(pick(pool.len())));
        }
        let cmd = Command::Respond(Response::Cards(chosen));
        if d.validate(&cmd).is_ok() {
            return Some(cmd);
        }
        // The selection has a rule of its own (Synchro Materials, Treasure Panda's cost):
        // take one of the valid answers the solver lists.
        let valid = duel_engine::solver::choices(d);
        return valid.get(pick(valid.len())).cloned();
    }
    // Ending the turn ends the game, so it is picked rarely to play deeper.
    let all = d.legal_commands();
    let rest: Vec<Command> = all
        .iter()
        .filter(|c| **c != Command::EndTurn)
        .cloned()
        .collect();
    let legal = if rest.is_empty() || pick(25) == 0 {
        all
    } else {
        rest
    };
    if legal.is_empty() {
        return None;
    }
    Some(legal[pick(legal.len())].clone())
}

/// Commands that are probably illegal now, to check they are refused without change.
fn junk(d: &Duel, k: usize) -> Vec<Command> {
    let n = d.instances().count() as u16;
    let id = CardId((k as u16) % (n + 3));
    vec![
        Command::SummonMonster { card: id },
        Command::SetMonster { card: id },
        Command::SetSpellTrap { card: id },
        Command::ActivateSpell { card: id },
        Command::ActivateEffect { card: id },
        Command::PassChain,
        Command::EndTurn,
        Command::Respond(Response::Option(k as u8)),
        Command::Respond(Response::Cards(vec![id, id])),
        Command::Respond(Response::Cards(vec![])),
    ]
}

/// Every command `validate` accepts outside a prompt, found by trying each kind of
/// command on every card instance (either player's, wherever it is) and then the
/// commands that name no card: what `legal_commands` must list, in its order.
fn every_valid_command(d: &Duel) -> Vec<Command> {
    let mut out = Vec::new();
    for (card, _) in d.instances() {
        for cmd in [
            Command::SummonMonster { card },
            Command::SetMonster { card },
            Command::SetSpellTrap { card },
            Command::ActivateSpell { card },
            Command::ActivateEffect { card },
            Command::SynchroSummon { card },
        ] {
            if d.validate(&cmd).is_ok() {
                out.push(cmd);
            }
        }
    }
    for cmd in [Command::PassChain, Command::AdvancePhase, Command::EndTurn] {
        if d.validate(&cmd).is_ok() {
            out.push(cmd);
        }
    }
    out
}

/// The `i`-th playable preset deck (cycling through them).
fn playable_deck(i: usize) -> String {
    let playable: Vec<&str> = decks()
        .iter()
        .filter(|d| d.playable)
        .map(|d| d.id.as_str())
        .collect();
    playable[i % playable.len()].to_string()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, .. ProptestConfig::default() })]

    #[test]
    fn random_legal_play_keeps_invariants(deck in 0usize..8, seed in any::<u64>(), choices in prop::collection::vec(any::<u32>(), 1..120)) {
        let deck = playable_deck(deck);
        let mut duel = Duel::new(&deck, seed).expect("playable deck");
        let cards = real_cards(&duel);
        check_invariants(&duel);
        let mut it = choices.into_iter();
        for step in 0.. {
            let Some(r) = it.next() else { break };
            let mut salt = 0usize;
            let mut pick = |n: usize| { salt = salt.wrapping_mul(31).wrapping_add(r as usize); if n == 0 { 0 } else { salt % n } };
            // Every listed command is accepted; everything else is refused unchanged.
            let legal = duel.legal_commands();
            for cmd in junk(&duel, step + r as usize) {
                let before = duel.clone();
                let mut probe = duel.clone();
                match probe.apply(cmd.clone()) {
                    Ok(_) => prop_assert!(legal.contains(&cmd) || matches!(cmd, Command::Respond(_)),
                        "accepted unlisted {:?}", cmd),
                    Err(_) => {
                        prop_assert!(!legal.contains(&cmd), "refused listed {:?}", cmd);
                        prop_assert_eq!(&probe, &before, "a refused command changed the duel");
                    }
                }
            }
            for cmd in &legal {
                let mut probe = duel.clone();
                prop_assert!(probe.apply(cmd.clone()).is_ok(), "listed {:?} refused", cmd);
            }
            let Some(cmd) = random_command(&duel, &mut pick) else { break };
            duel.apply(cmd).expect("random valid command accepted");
            check_invariants(&duel);
            prop_assert_eq!(real_cards(&duel), cards, "Tokens come and go; cards never do");
        }
    }

    /// `legal_commands` lists only the commands a card's kind, place and face allow
    /// before validating them: none it leaves out is valid, and the order is that of
    /// validating everything.
    #[test]
    fn legal_commands_are_every_command_validate_accepts(deck in 0usize..8, seed in any::<u64>(), choices in prop::collection::vec(any::<u32>(), 1..120)) {
        let deck = playable_deck(deck);
        let mut duel = Duel::new(&deck, seed).expect("playable deck");
        for r in choices {
            if duel.view().prompt.is_none() && duel.outcome().is_none() {
                prop_assert_eq!(duel.legal_commands(), every_valid_command(&duel));
            }
            let mut salt = 0usize;
            let mut pick = |n: usize| { salt = salt.wrapping_mul(31).wrapping_add(r as usize); if n == 0 { 0 } else { salt % n } };
            let Some(cmd) = random_command(&duel, &mut pick) else { break };
            duel.apply(cmd).expect("random valid command accepted");
        }
    }

    #[test]
    fn replaying_the_log_gives_the_same_duel(deck in 0usize..8, seed in any::<u64>(), choices in prop::collection::vec(any::<u32>(), 1..60)) {
        let mut duel = Duel::new(&playable_deck(deck), seed).expect("playable deck");
        for r in choices {
            let mut pick = |n: usize| if n == 0 { 0 } else { (r as usize) % n };
            let Some(cmd) = random_command(&duel, &mut pick) else { break };
            duel.apply(cmd).expect("valid");
        }
        let again = Duel::replay(duel.deck_id(), duel.seed(), duel.settings(), duel.log()).expect("replays");
        prop_assert_eq!(again, duel);
    }

    #[test]
    fn share_codes_round_trip(deck in 0usize..8, seed in any::<u64>(), rules in 0u8..8, choices in prop::collection::vec(any::<u32>(), 1..60)) {
        let settings = Settings {
            into_the_void_counts_itself: rules & 1 != 0,
            chain_confirmation: rules & 2 != 0,
            exodia_wins_mid_effect: rules & 4 != 0,
        };
        let mut duel = Duel::with_settings(&playable_deck(deck), seed, settings).expect("playable deck");
        for r in choices {
            let mut pick = |n: usize| if n == 0 { 0 } else { (r as usize) % n };
            let Some(cmd) = random_command(&duel, &mut pick) else { break };
            duel.apply(cmd).expect("valid");
        }
        let code = duel.share_code();
        prop_assert!(code.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'), "URL-safe");
        let back = Duel::from_share_code(&code).expect("the code replays");
        prop_assert_eq!(back, duel);
    }
}
