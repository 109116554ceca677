//! Measures the computer levels: win rates against the easy bot and a random player over seeded games (each seed from both seats), and the time per decision.
//!
//! `cargo run --release -p battle-line --example harness -- [games] [level...] [--against easy,random] [--threads N] [--from SEED]`
//!
//! With no level named, `normal` and `hard` are measured (and `easy` against random).
//! Seeds `SEED .. SEED + games` are played (default from 0), so a long measurement can be
//! run in parts whose counts add up: `-- 250 hard --against easy --from 250` is the
//! second quarter of 1,000 seeds. The moves do not depend on the build profile (the
//! search counts rollouts, not time), so `--profile fast` plays the same games sooner;
//! only the decision times differ.

use battle_line::bot::{Contender, Level, RandomPlayer, choose, move_seed};
use battle_line::{Game, Phase, Player, Settings};
use std::time::Instant;

/// What one game gave: the winner (if any) and the measured level's decision times
/// (ms), all of them and those where it chose a card to play (the searched ones).
struct Outcome {
    winner: Option<Player>,
    times: Vec<f64>,
    plays: Vec<f64>,
}

fn play(seed: u64, seats: [Contender; 2], measured: Player) -> Outcome {
    let mut game = Game::new(seed, Settings::default());
    let mut random = RandomPlayer::new(seed ^ 0xABCD);
    let mut times = Vec::new();
    let mut plays = Vec::new();
    for _ in 0..3000 {
        if game.is_over() {
            break;
        }
        let seat = game.current();
        let start = Instant::now();
        let cmd = match seats[seat.index()] {
            Contender::Level(level) => {
                let salt = seat.index() as u64 * 0x5851_F42D_4C95_7F2D;
                choose(&game, level, move_seed(seed ^ salt, game.log().len()))
            }
            Contender::Random => random.choose(&game),
        };
        if seat == measured {
            let ms = start.elapsed().as_secs_f64() * 1e3;
            times.push(ms);
            if matches!(game.phase(), Phase::Play | Phase::Guile { .. }) {
                plays.push(ms);
            }
        }
        let Some(cmd) = cmd else { break };
        if game.apply(cmd).is_err() {
            break;
        }
    }
    Outcome {
        winner: game.winner(),
        times,
        plays,
    }
}

fn main() {
    let mut games = 1000u64;
    let mut from = 0u64;
    let mut levels: Vec<Level> = Vec::new();
    let mut against: Vec<Contender> = vec![Contender::Level(Level::Easy), Contender::Random];
    let mut threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--threads" {
            threads = args.next().and_then(|n| n.parse().ok()).unwrap_or(threads);
        } else if a == "--from" {
            from = args.next().and_then(|n| n.parse().ok()).unwrap_or(from);
        } else if a == "--against" {
            against = args
                .next()
                .unwrap_or_default()
                .split(',')
                .filter_map(|s| match s {
                    "random" => Some(Contender::Random),
                    other => Level::from_code(other).map(Contender::Level),
                })
                .collect();
        } else if let Some(level) = Level::from_code(&a) {
            levels.push(level);
        } else if let Ok(n) = a.parse() {
            games = n;
        } else {
            eprintln!("unknown argument {a}");
            std::process::exit(2);
        }
    }
    if levels.is_empty() {
        levels = vec![Level::Normal, Level::Hard];
    }
    println!(
        "| level | against | games | won | lost | drawn | win rate | won as P0 / as P1 | plays timed | plays: mean ms | p99 ms | max ms | all decisions: mean ms |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    for &level in &levels {
        for &opponent in &against {
            if opponent == Contender::Level(level) {
                continue;
            }
            let started = Instant::now();
            let results: Vec<(Player, Outcome)> = std::thread::scope(|scope| {
                let handles: Vec<_> = (0..threads)
                    .map(|t| {
                        scope.spawn(move || {
                            let mut out = Vec::new();
                            for seed in (from..from + games).filter(|s| *s as usize % threads == t)
                            {
                                for seat in Player::BOTH {
                                    let mut seats = [opponent; 2];
                                    seats[seat.index()] = Contender::Level(level);
                                    out.push((seat, play(seed, seats, seat)));
                                }
                            }
                            out
                        })
                    })
                    .collect();
                handles
                    .into_iter()
                    .flat_map(|h| h.join().unwrap_or_default())
                    .collect()
            });
            let mut won = [0u32; 2];
            let mut lost = 0;
            let mut drawn = 0;
            let mut times: Vec<f64> = Vec::new();
            let mut plays: Vec<f64> = Vec::new();
            for (seat, o) in &results {
                match o.winner {
                    Some(w) if w == *seat => won[seat.index()] += 1,
                    Some(_) => lost += 1,
                    None => drawn += 1,
                }
                times.extend(&o.times);
                plays.extend(&o.plays);
            }
            plays.sort_by(f64::total_cmp);
            let n = results.len();
            let mean = |xs: &[f64]| xs.iter().sum::<f64>() / xs.len().max(1) as f64;
            let p99 = plays.get(plays.len() * 99 / 100).copied().unwrap_or(0.0);
            let max = plays.last().copied().unwrap_or(0.0);
            let total_won = won[0] + won[1];
            println!(
                "| {} | {} | {n} | {total_won} | {lost} | {drawn} | {:.1}% | {} / {} | {} | {:.2} | {p99:.1} | {max:.1} | {:.2} |",
                level.code(),
                opponent.name(),
                100.0 * f64::from(total_won) / n as f64,
                won[0],
                won[1],
                plays.len(),
                mean(&plays),
                mean(&times),
            );
            eprintln!(
                "  ({} games, seeds {from}..{}, in {:.0} s)",
                n,
                from + games,
                started.elapsed().as_secs_f64()
            );
        }
    }
}
