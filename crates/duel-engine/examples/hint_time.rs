//! The hint's time on positions reached in play, not only on opening hands: for each
//! preset deck and seeded deal, the positions a quarter, half and three quarters of the
//! way along the solver's winning line (a player on a winning line), and the positions
//! after 3, 6 and 10 commands of a seeded random game (a player who strays: random
//! choices among the listed ones). Each is solved as the hint solves it: the solver at
//! the hint's first budget with the hint's playout seed, then, for a win, the search for
//! a shorter line with the positions the hint gives it (`stats::shorten_positions`: the
//! whole budget for a line of at most 30 commands, a twentieth of it for a longer one,
//! at most what solving left of the budget; `SHORTEN=<positions>`: that many for every
//! line). Prints, per deck, how many positions were won (and of those, how many with a
//! line proved shortest), proved lost and left undecided (on winning lines, after random
//! play), and the time per position (median, p95, p99, max); with `LIST=1`, a line per
//! won position as well.
//!
//! `cargo run --profile fast -p duel-engine --example duel-hint-time -- 60 20000`
//! (deals per deck, budget). With `CODES=<file>`, each position is also written to the
//! file as the question the page's hint job reads (`<deck> <budget>.<share code>`, a
//! line each, with the native answer), for `web/bench/duel-hint.mjs` to time the same
//! positions in the browser.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::Instant;

use duel_engine::analysis::playout_seed;
use duel_engine::replay::encode_game;
use duel_engine::solver::{Search, choices, order_for, shortest, solve, solve_watched};
use duel_engine::stats::{goal_of, shorten_positions};
use duel_engine::{Command, Duel, Outcome, Settings, decks};
use seeded_rng::Rng;

/// The positions of one deal to time: along the solver's winning line from the opening
/// (if it found one; `true`) and along a seeded random game (`false`), each as its
/// commands.
fn positions(deck: &str, seed: u64, goal: Outcome, budget: usize) -> Vec<(bool, Vec<Command>)> {
    let opening = Duel::with_settings(deck, seed, Settings::default()).unwrap();
    let mut out = Vec::new();
    if let Search::Found(line) = solve(&opening, goal, budget, playout_seed(seed, 0)).0 {
        for quarter in 1..=3 {
            out.push((true, line[..line.len() * quarter / 4].to_vec()));
        }
    }
    let mut rng = Rng::new(seed ^ 0x4_1e7);
    let mut d = opening;
    let mut played = Vec::new();
    for stop in [3, 6, 10] {
        while played.len() < stop && d.outcome().is_none() {
            let options = choices(&d);
            if options.is_empty() {
                break;
            }
            let cmd = options[rng.index(options.len())].clone();
            d.apply(cmd.clone()).unwrap();
            played.push(cmd);
        }
        if d.outcome().is_some() {
            break;
        }
        out.push((false, played.clone()));
    }
    out
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let deals: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(60);
    let budget: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(20_000);
    // The shorter-line search's positions: the hint's rule, or `SHORTEN` for every line.
    let shorten: Option<usize> = std::env::var("SHORTEN").ok().and_then(|s| s.parse().ok());
    // `LIST=1`: a line per won position (deck, seed, where it was reached, commands
    // played, the line's length as found and after the shorter-line search, proved, ms).
    let list = std::env::var_os("LIST").is_some();
    let mut codes = std::env::var("CODES")
        .ok()
        .map(|path| std::fs::File::create(path).expect("the CODES file can be written"));
    for deck in decks() {
        let Ok(goal) = goal_of(&deck.id) else {
            continue;
        };
        let (mut won, mut lost, mut proved) = (0, 0, 0);
        // Undecided positions along winning lines and along random games.
        let mut undecided = [0, 0];
        let mut times = Vec::new();
        for seed in 0..deals {
            for (on_line, commands) in positions(&deck.id, seed, goal, budget) {
                let mut d = Duel::with_settings(&deck.id, seed, Settings::default()).unwrap();
                for cmd in &commands {
                    d.apply(cmd.clone()).unwrap();
                }
                if d.outcome().is_some() {
                    continue;
                }
                let start = Instant::now();
                // How far the solver's progress got, as the page reads it: the search for
                // a shorter line gets at most the rest of the budget.
                let mut reached = 0.0;
                let seed_here = playout_seed(seed, commands.len());
                let answer = solve_watched(&d, goal, budget, seed_here, &mut |done| {
                    reached = done;
                    true
                })
                .0;
                if let Some(f) = codes.as_mut() {
                    use std::io::Write;
                    let code = encode_game(&deck.id, seed, Settings::default(), &commands);
                    let said = match &answer {
                        Search::Found(_) => "win",
                        Search::Impossible => "no-win",
                        _ => "undecided",
                    };
                    writeln!(f, "{} {budget}.{code} {said}", deck.id).expect("written");
                }
                match answer {
                    Search::Found(line) => {
                        let order = order_for(goal);
                        let found = line.len();
                        let rest = ((1.0 - reached) * budget as f64) as usize;
                        let positions =
                            shorten.unwrap_or(shorten_positions(budget, found).min(rest));
                        let best = shortest(&d, goal, line, positions, &order);
                        if list {
                            println!(
                                "  {} {seed} {} {} found {found} best {} proved {} ms {:.1}",
                                deck.id,
                                if on_line { "line" } else { "random" },
                                commands.len(),
                                best.line.len(),
                                best.proved,
                                start.elapsed().as_secs_f64() * 1000.0
                            );
                        }
                        won += 1;
                        proved += usize::from(best.proved);
                    }
                    Search::Impossible => lost += 1,
                    _ => undecided[usize::from(!on_line)] += 1,
                }
                times.push(start.elapsed().as_secs_f64() * 1000.0);
            }
        }
        times.sort_by(f64::total_cmp);
        let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
        println!(
            "{}: {} positions, won {won} ({proved} with a line proved shortest) / proved lost \
             {lost} / undecided {} ({} on winning lines, {} after random play); ms median \
             {:.1}, p95 {:.1}, p99 {:.1}, max {:.1}",
            deck.id,
            times.len(),
            undecided[0] + undecided[1],
            undecided[0],
            undecided[1],
            at(0.5),
            at(0.95),
            at(0.99),
            times.last().copied().unwrap_or(0.0)
        );
    }
}
