//! Searches seeds of a preset deck for lines of play reaching an outcome and prints them
//! as scripts (card codes, not ids) for the full-game tests.
//!
//! `cargo run --release -p duel-engine --example find_lines -- exodia-deck win 0 50`
//! `cargo run --release -p duel-engine --example find_lines -- exodia-deck deck-out 0 50`
//! `cargo run --release -p duel-engine --example find_lines -- scientist-catapult-deck burn 0 50`
//!
//! Each line found also gives the length of the share code of the won game.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use duel_engine::solver::{Method, Search, solve};
use duel_engine::{Command, Duel, Outcome, Reason, Response};

fn script(start: &Duel, line: &[Command]) -> Vec<String> {
    let mut d = start.clone();
    let mut out = Vec::new();
    for cmd in line {
        let code = |id| d.instance(id).map(|c| c.code).unwrap_or(0);
        out.push(match cmd {
            Command::ActivateSpell { card } => format!("Activate({})", code(*card)),
            Command::ActivateEffect { card } => format!("Effect({})", code(*card)),
            Command::SummonMonster { card } => format!("Summon({})", code(*card)),
            Command::SynchroSummon { card } => format!("Synchro({})", code(*card)),
            Command::SetMonster { card } => format!("SetMonster({})", code(*card)),
            Command::SetSpellTrap { card } => format!("SetSpell({})", code(*card)),
            Command::PassChain => "Pass".to_string(),
            Command::EndTurn | Command::AdvancePhase => "EndTurn".to_string(),
            Command::Respond(Response::Option(i)) => format!("Option({i})"),
            Command::Respond(Response::Cards(ids)) => {
                let codes: Vec<String> = ids.iter().map(|&id| code(id).to_string()).collect();
                format!("Pick(&[{}])", codes.join(", "))
            }
        });
        d.apply(cmd.clone()).unwrap();
    }
    out
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let deck = args.get(1).map_or("exodia-deck", String::as_str);
    let goal = match args.get(2).map(String::as_str) {
        Some("deck-out") => Outcome::Lose(Reason::DeckOut),
        Some("burn") => Outcome::Win(Reason::Lp0),
        _ => Outcome::Win(Reason::Exodia),
    };
    let from: u64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(0);
    let to: u64 = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(20);
    let budget: usize = args.get(5).and_then(|s| s.parse().ok()).unwrap_or(20_000);
    for seed in from..to {
        let d = Duel::new(deck, seed).unwrap();
        match solve(&d, goal, budget, seed) {
            (Search::Found(line), how) => {
                let how = if how == Method::Rollout {
                    " (rollout)"
                } else {
                    ""
                };
                let mut won = d.clone();
                for cmd in &line {
                    won.apply(cmd.clone()).unwrap();
                }
                // The share link is this code after the site's address and `#/replay/`.
                println!(
                    "seed {seed}: {} commands{how}, share code {} characters",
                    line.len(),
                    won.share_code().len()
                );
                println!("  {}", script(&d, &line).join(", "));
            }
            (Search::Impossible, _) => println!("seed {seed}: impossible"),
            (Search::GaveUp | Search::Cancelled, _) => println!("seed {seed}: gave up"),
        }
    }
}
