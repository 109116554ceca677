//! For each preset deck: the share of seeded opening hands that can be won this turn
//! knowing the deck order (`stats::solve_hand` within its budget, the same computation
//! the statistics page runs), its 95% interval, and the solving time (median, p95, p99,
//! max). Hands the budget does not decide count as not won and are listed apart; they
//! spend all of it (`budget / 2` guided playouts, then the statistics' longer search,
//! `solver::solve_deep`), and the mean time they took is given, as
//! `web/bench/duel-stats.mjs` gives it in the browser. A second line
//! gives the histogram of the shortest win found per hand (and how many are proved
//! shortest) and the time the won hands took, the search for a shorter line included.
//!
//! `cargo run --profile fast -p duel-engine --example duel-win-rate -- 1000 4000`
//! (hands per deck, search budget in positions, optionally one deck id). With
//! `HANDS=<file>` each hand's answer and time are also written to the file, a line
//! each (deck, seed, result code as `HandResult::code`, milliseconds), so two versions
//! can be compared hand by hand. With `SEEDS=<seed>,<seed>,...` only those seeds are
//! solved (the hands count is then ignored): slow hands timed again, one build after
//! another.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::Instant;

use duel_engine::stats::{HandResult, Tally, solve_hand};
use duel_engine::{Settings, decks};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let hands: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(1000);
    let budget: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(4000);
    let only = args.get(3);
    let seeds: Vec<u64> = match std::env::var("SEEDS") {
        Ok(list) => list
            .split(',')
            .map(|s| {
                s.trim()
                    .parse()
                    .expect("SEEDS holds seeds separated by commas")
            })
            .collect(),
        Err(_) => (0..hands).collect(),
    };
    let mut hands_out = std::env::var("HANDS")
        .ok()
        .map(|path| std::fs::File::create(path).expect("the HANDS file can be written"));
    for deck in decks() {
        if only.is_some_and(|o| *o != deck.id) {
            continue;
        }
        let mut tally = Tally::default();
        let mut times = Vec::new();
        let mut undecided_ms = 0.0;
        let mut won_ms = 0.0;
        for &seed in &seeds {
            let start = Instant::now();
            let r = solve_hand(&deck.id, seed, Settings::default(), budget).unwrap();
            let ms = start.elapsed().as_secs_f64() * 1000.0;
            times.push(ms);
            if let Some(f) = hands_out.as_mut() {
                use std::io::Write;
                writeln!(f, "{} {seed} {} {ms:.1}", deck.id, r.code()).expect("written");
            }
            match r {
                HandResult::Undecided => undecided_ms += ms,
                HandResult::Won { .. } => won_ms += ms,
                HandResult::Lost => {}
            }
            tally.add(seed, r);
        }
        times.sort_by(f64::total_cmp);
        let (lo, hi) = tally.interval95();
        println!(
            "{}: {}/{} won ({:.1}%, 95% interval {:.1}-{:.1}%), {} proved lost, {} undecided; solving time median {:.1} ms, p95 {:.1} ms, p99 {:.1} ms, max {:.1} ms; {:.0} ms per undecided hand",
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
            times[times.len() * 99 / 100],
            times[times.len() - 1],
            undecided_ms / tally.undecided.len().max(1) as f64,
        );
        let lengths: Vec<String> = tally
            .lengths
            .iter()
            .map(|(len, n)| format!("{len}:{n}/{}", tally.proved.get(len).unwrap_or(&0)))
            .collect();
        println!(
            "  shortest win found, commands:hands/proved shortest: {}; won hands took {:.0} ms in all ({:.1} ms each)",
            lengths.join(" "),
            won_ms,
            won_ms / f64::from(tally.won.max(1)),
        );
    }
}
