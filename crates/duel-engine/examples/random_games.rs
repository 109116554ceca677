//! Plays random legal games and prints how they end (a quick look at the engine's health).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use duel_engine::{Command, Duel, PromptKind, Response};
use seeded_rng::Rng;

fn main() {
    let n: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1000);
    let mut tally = std::collections::BTreeMap::new();
    let mut steps = 0usize;
    for seed in 0..n {
        let mut d = Duel::new("exodia-deck", seed).unwrap();
        let mut rng = Rng::new(seed ^ 0xdead_beef);
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
                    Command::Respond(Response::Cards(pool[..k].to_vec()))
                }
                _ => {
                    let all = d.legal_commands();
                    let rest: Vec<_> = all
                        .iter()
                        .filter(|c| **c != Command::EndTurn)
                        .cloned()
                        .collect();
                    let pool = if rest.is_empty() { all } else { rest };
                    pool[rng.index(pool.len())].clone()
                }
            };
            d.apply(cmd).unwrap();
            steps += 1;
        }
        *tally
            .entry(format!("{:?}", d.outcome().unwrap()))
            .or_insert(0) += 1;
    }
    println!("{n} games, {steps} commands: {tally:?}");
}
