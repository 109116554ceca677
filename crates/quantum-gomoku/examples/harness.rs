//! Plays the search bot against a random player and against the greedy one-ply bot over
//! seeded games, from both colours, and reports win rates and decision times.
//!
//! `cargo run --profile fast -p quantum-gomoku --example quantum-gomoku-harness -- [games]`
//! (`games` per opponent and colour, default 1000). `--release` instead of `--profile fast`
//! runs the size-tuned profile the page ships with. Nothing is asserted: the figures go
//! into the crate's README. The search bot plays as the page's computer does: after a
//! missed observation it observes again for as long as `Bot::decide` says so (the rules
//! let the last mover observe while it has observations left), and every one of those
//! decisions is timed with its placements. A pair of rows plays greedy against greedy, to
//! show what moving first is worth by itself; a last pair plays the search bot observing
//! at most once per turn (as the page's computer did before), for comparison.

use quantum_gomoku::bot::{Bot, Decision};
use quantum_gomoku::{Command, Game, GameOptions, GameStatus, Player, Rng};
use std::time::{Duration, Instant};

/// Who plays one side.
#[derive(Debug, Clone, Copy)]
enum Agent {
    /// The search bot as the page plays it, observing again after a miss while
    /// `Bot::decide` says so (its decisions are timed).
    Search(Bot),
    /// The search bot observing at most once per turn.
    SearchObservingOnce(Bot),
    /// The greedy one-ply baseline.
    Greedy(Bot),
    /// Places on a uniformly random empty cell, then observes with probability 1/2
    /// when it may.
    Random,
}

/// One side's turn: a placement, and an observation if the agent wants one.
fn turn(game: &mut Game, agent: Agent, rng: &mut Rng, times: &mut Vec<Duration>) {
    let me = game.state().current_player;
    let (position, observe) = match agent {
        Agent::Search(bot) | Agent::SearchObservingOnce(bot) | Agent::Greedy(bot) => {
            let start = Instant::now();
            let turn = bot
                .turn(game.state(), game.options())
                .expect("the game is on and the board has room");
            if matches!(agent, Agent::Search(_)) {
                times.push(start.elapsed());
            }
            (turn.position, turn.observe)
        }
        Agent::Random => {
            let cells = game.legal_moves();
            (cells[rng.index(cells.len())], rng.chance(0.5))
        }
    };
    game.apply(Command::Place {
        player: me,
        position,
    })
    .expect("agents place on empty cells");
    if observe && game.observer() == Some(me) {
        game.apply(Command::Observe {
            player: me,
            seed: None,
        })
        .expect("the last mover may observe");
        if let Agent::Search(bot) = agent {
            let again = |game: &Game, times: &mut Vec<Duration>| {
                let start = Instant::now();
                let decision = bot.decide(game.state(), game.options(), me);
                times.push(start.elapsed());
                decision == Ok(Decision::Observe)
            };
            while game.state().status == GameStatus::Playing
                && game.observer() == Some(me)
                && again(game, times)
            {
                game.apply(Command::Observe {
                    player: me,
                    seed: None,
                })
                .expect("the last mover may observe");
            }
        }
    }
}

/// One game of the default options from `seed`; the winner, `None` for a draw.
fn play(seed: u64, black: Agent, white: Agent, times: &mut Vec<Duration>) -> Option<Player> {
    let mut game = Game::new(GameOptions::default(), seed, 0).expect("default options");
    let mut rng = Rng::new(seed ^ 0xA5A5_5A5A);
    while game.state().status == GameStatus::Playing {
        if game.state().is_full() {
            // Only the last mover may still observe; it does until the game ends.
            let Some(p) = game.observer() else { break };
            game.apply(Command::Observe {
                player: p,
                seed: None,
            })
            .expect("the last mover may observe");
            continue;
        }
        let agent = match game.state().current_player {
            Player::Black => black,
            Player::White => white,
        };
        turn(&mut game, agent, &mut rng, times);
    }
    game.state().winner
}

fn percentile(sorted: &[Duration], q: f64) -> f64 {
    let i = ((sorted.len().saturating_sub(1)) as f64 * q).round() as usize;
    sorted.get(i).map_or(0.0, |d| d.as_secs_f64() * 1e3)
}

fn main() {
    let games: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1000);
    let mut all_times = Vec::new();
    let mut decided_vs_greedy = (0u32, 0u32);
    for opponent in [
        "random",
        "greedy",
        "greedy (reference: greedy vs greedy)",
        "greedy (reference: observing at most once per turn)",
    ] {
        for colour in [Player::Black, Player::White] {
            let (mut won, mut lost, mut drawn) = (0u32, 0u32, 0u32);
            let started = Instant::now();
            for g in 0..games {
                // Seeds differ per game; the same seeds serve every opponent and colour.
                let seed = 1_000_000 + g;
                let player = match opponent {
                    "greedy (reference: greedy vs greedy)" => {
                        Agent::Greedy(Bot::greedy(seed.wrapping_mul(31)))
                    }
                    "greedy (reference: observing at most once per turn)" => {
                        Agent::SearchObservingOnce(Bot::new(seed.wrapping_mul(31)))
                    }
                    _ => Agent::Search(Bot::new(seed.wrapping_mul(31))),
                };
                let other = match opponent {
                    "random" => Agent::Random,
                    _ => Agent::Greedy(Bot::greedy(seed.wrapping_mul(17))),
                };
                let (black, white) = match colour {
                    Player::Black => (player, other),
                    Player::White => (other, player),
                };
                match play(seed, black, white, &mut all_times) {
                    Some(w) if w == colour => won += 1,
                    Some(_) => lost += 1,
                    None => drawn += 1,
                }
            }
            if opponent == "greedy" {
                decided_vs_greedy.0 += won;
                decided_vs_greedy.1 += won + lost;
            }
            let (who, how) = match opponent {
                "greedy (reference: greedy vs greedy)" => ("greedy", ""),
                "greedy (reference: observing at most once per turn)" => {
                    ("bot", ", observing at most once per turn")
                }
                _ => ("bot", ""),
            };
            println!(
                "{who} as {colour} vs {}{how}: won {won}, lost {lost}, drawn {drawn} of {games}: {:.1}% of decided games ({:.0} s)",
                opponent.split(' ').next().unwrap_or(opponent),
                100.0 * f64::from(won) / f64::from((won + lost).max(1)),
                started.elapsed().as_secs_f64(),
            );
        }
    }
    println!(
        "bot vs greedy, both colours: {:.1}% of decided games",
        100.0 * f64::from(decided_vs_greedy.0) / f64::from(decided_vs_greedy.1.max(1))
    );
    all_times.sort();
    let mean =
        all_times.iter().map(Duration::as_secs_f64).sum::<f64>() / all_times.len().max(1) as f64;
    println!(
        "bot decision time over {} decisions: mean {:.2} ms, median {:.2} ms, p95 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        all_times.len(),
        mean * 1e3,
        percentile(&all_times, 0.5),
        percentile(&all_times, 0.95),
        percentile(&all_times, 0.99),
        percentile(&all_times, 1.0),
    );
}
