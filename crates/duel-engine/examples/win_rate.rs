//! For each preset deck: the share of seeded opening hands that can be won this turn
//! knowing the deck order (`stats::solve_hand` within its budget, the same computation
//! the statistics page runs), its 95% interval, and the solving time. Hands the budget
//! does not decide count as not won and are listed apart.
//!
//! `cargo run --profile fast -p duel-engine --example duel-win-rate -- 1000 4000`
//! (hands per deck, search budget in positions, optionally one deck id)
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::Instant;

use duel_engine::stats::{Tally, solve_hand};
use duel_engine::{Settings, decks};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let hands: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(1000);
    let budget: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(4000);
    let only = args.get(3);
    for deck in decks() {
        if only.is_some_and(|o| *o != deck.id) {
            continue;
        }
        let mut tally = Tally::default();
        let mut times = Vec::new();
        for seed in 0..hands {
            let start = Instant::now();
            let r = solve_hand(&deck.id, seed, Settings::default(), budget).unwrap();
            times.push(start.elapsed().as_secs_f64() * 1000.0);
            tally.add(seed, r);
        }
        times.sort_by(f64::total_cmp);
        let (lo, hi) = tally.interval95();
        println!(
            "{}: {}/{} won ({:.1}%, 95% interval {:.1}-{:.1}%), {} proved lost, {} undecided; solving time median {:.1} ms, p95 {:.1} ms",
            deck.id,
            tally.won,
            tally.hands,
            100.0 * tally.win_rate(),
            100.0 * lo,
            100.0 * hi,
            tally.lost,
            tally.undecided.len(),
            times[times.len() / 2],
            times[times.len() * 95 / 100],
        );
    }
}
