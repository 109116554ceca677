//! For each playable preset deck: the share of seeded opening hands that can be won this
//! turn knowing the deck order (the solver's answer within its budget), and the time it
//! takes. Hands the budget does not decide are counted apart.
//!
//! `cargo run --profile fast -p duel-engine --example duel-win-rate -- 1000 4000`
//! (hands per deck, search budget in positions)
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::Instant;

use duel_engine::solver::{Search, solve};
use duel_engine::{Duel, Outcome, Reason, decks};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let hands: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(1000);
    let budget: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(4000);
    let only = args.get(3);
    for deck in decks().iter().filter(|d| d.playable) {
        if only.is_some_and(|o| *o != deck.id) {
            continue;
        }
        // The burn deck wins by LP 0; the others by Exodia.
        let goal = if deck.id.contains("catapult") {
            Outcome::Win(Reason::Lp0)
        } else {
            Outcome::Win(Reason::Exodia)
        };
        let (mut won, mut lost, mut open) = (0u64, 0u64, 0u64);
        let mut times = Vec::new();
        for seed in 0..hands {
            let d = Duel::new(&deck.id, seed).unwrap();
            let start = Instant::now();
            let (result, _) = solve(&d, goal, budget, seed);
            times.push(start.elapsed().as_secs_f64() * 1000.0);
            match result {
                Search::Found(_) => won += 1,
                Search::Impossible => lost += 1,
                Search::GaveUp => open += 1,
            }
        }
        times.sort_by(f64::total_cmp);
        let median = times[times.len() / 2];
        let p90 = times[times.len() * 9 / 10];
        println!(
            "{}: {won}/{hands} won ({:.1}%), {lost} proved lost, {open} undecided; solving time median {median:.1} ms, p90 {p90:.1} ms",
            deck.id,
            100.0 * won as f64 / hands as f64,
        );
    }
}
