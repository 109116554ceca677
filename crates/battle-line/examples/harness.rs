//! Plays the bot against a random legal player over many seeded games and reports the win rate.
//!
//! `cargo run --release -p battle-line --example harness -- [games]`

use battle_line::Player;
use battle_line::bot::{MatchResult, play_bot_vs_random};

fn main() {
    let games: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1000);
    let mut results = [[0u64; 3]; 2];
    for seed in 0..games {
        let seat = if seed % 2 == 0 {
            Player::P0
        } else {
            Player::P1
        };
        let r = play_bot_vs_random(seed, seat, 3000);
        let col = match r {
            MatchResult::BotWon => 0,
            MatchResult::RandomWon => 1,
            MatchResult::Unfinished => 2,
        };
        results[seat.index()][col] += 1;
    }
    for (seat, r) in results.iter().enumerate() {
        println!(
            "bot as P{seat}: won {}, lost {}, unfinished {}",
            r[0], r[1], r[2]
        );
    }
    let won = results[0][0] + results[1][0];
    println!(
        "bot win rate: {won}/{games} = {:.1}%",
        100.0 * won as f64 / games as f64
    );
}
