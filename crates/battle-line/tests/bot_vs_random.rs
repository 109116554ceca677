//! Behaviour check: the bot beats a random legal player in the clear majority of games.

use battle_line::Player;
use battle_line::bot::{MatchResult, play_bot_vs_random};

#[test]
fn bot_wins_the_clear_majority_against_random_play() {
    let mut wins = 0;
    let games = 30;
    for seed in 0..games {
        let seat = if seed % 2 == 0 {
            Player::P0
        } else {
            Player::P1
        };
        if play_bot_vs_random(seed, seat, 3000) == MatchResult::BotWon {
            wins += 1;
        }
    }
    assert!(wins * 10 >= games * 8, "bot won only {wins} of {games}");
}
