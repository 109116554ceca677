//! Engine throughput: random full games of each playable preset deck per second (legal
//! commands and prompt answers chosen by a seeded RNG; ending the turn only when nothing
//! else is left).
//!
//! `cargo run --profile fast -p duel-engine --example duel-engine-bench -- 2000`
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::Instant;

use duel_engine::{Command, Duel, PromptKind, Response, decks};
use seeded_rng::Rng;

fn random_game(deck: &str, seed: u64) -> (Duel, usize) {
    let mut d = Duel::new(deck, seed).unwrap();
    let mut rng = Rng::new(seed ^ 0x5eed);
    let mut commands = 0;
    while d.outcome().is_none() {
        let cmd = match d.view().prompt.map(|p| p.kind) {
            Some(PromptKind::Cards {
                candidates,
                min,
                max,
                ..
            }) => {
                let k = usize::from(min) + rng.index(usize::from(max - min) + 1);
                let mut pool: Vec<_> = candidates.iter().map(|c| c.id).collect();
                rng.shuffle(&mut pool);
                let cmd = Command::Respond(Response::Cards(pool[..k].to_vec()));
                if d.validate(&cmd).is_ok() {
                    cmd
                } else {
                    // A selection with a rule of its own (Synchro Materials, Treasure
                    // Panda's cost): one of the valid answers.
                    let valid = duel_engine::solver::choices(&d);
                    valid[rng.index(valid.len())].clone()
                }
            }
            Some(PromptKind::Choice { options, .. }) => {
                Command::Respond(Response::Option(options[rng.index(options.len())].value))
            }
            _ => {
                let all = d.legal_commands();
                let rest: Vec<_> = all
                    .iter()
                    .filter(|c| !matches!(c, Command::EndTurn | Command::AdvancePhase))
                    .cloned()
                    .collect();
                let pool = if rest.is_empty() { all } else { rest };
                pool[rng.index(pool.len())].clone()
            }
        };
        d.apply(cmd).unwrap();
        commands += 1;
    }
    (d, commands)
}

fn main() {
    let n: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(2000);
    for deck in decks().iter().filter(|d| d.playable) {
        // Warm up caches and the card catalogue.
        random_game(&deck.id, u64::MAX);
        let start = Instant::now();
        let mut commands = 0;
        let mut outcomes = std::collections::BTreeMap::new();
        for seed in 0..n {
            let (d, c) = random_game(&deck.id, seed);
            commands += c;
            *outcomes
                .entry(format!("{:?}", d.outcome().unwrap()))
                .or_insert(0) += 1;
        }
        let secs = start.elapsed().as_secs_f64();
        println!(
            "{}: {n} random games, {commands} commands in {secs:.2} s: {:.0} games/s, {:.0} commands/s",
            deck.id,
            n as f64 / secs,
            commands as f64 / secs
        );
        println!("  outcomes: {outcomes:?}");
    }
}
