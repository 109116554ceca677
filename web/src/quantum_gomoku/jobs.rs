//! Quantum Gomoku's worker jobs: the win estimate, the computer's turn and whether it
//! observes again after a miss.

use quantum_gomoku::bot::{Bot, Decision, Turn};
use quantum_gomoku::{
    Game, GameId, GameOptions, GameState, Player, ProbabilityConfig, WinProbability,
};
use serde::{Deserialize, Serialize};

use crate::worker::{Task, run_wire};

/// The win estimate of a game (exact for few stones on lines, 100,000 samples otherwise).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Estimate {
    pub game: Game,
}

impl Task for Estimate {
    const KIND: &'static str = "quantum-gomoku.estimate";
    type Output = WinProbability;

    fn run(self) -> Result<WinProbability, String> {
        Ok(self.game.win_probability(&ProbabilityConfig::default()))
    }
}

/// The computer's placement (and whether it observes after it) for the player to move.
/// It carries the public state only: the bot never sees the game's generator.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ComputerTurn {
    pub state: GameState,
    pub options: GameOptions,
    pub seed: u64,
}

impl ComputerTurn {
    /// The turn of the player to move in `game`, with the bot seeded by `seed`.
    pub fn of(game: &Game, seed: u64) -> ComputerTurn {
        ComputerTurn {
            state: game.state().clone(),
            options: game.options(),
            seed,
        }
    }
}

impl Task for ComputerTurn {
    const KIND: &'static str = "quantum-gomoku.turn";
    type Output = Turn;

    fn run(self) -> Result<Turn, String> {
        Bot::new(self.seed)
            .turn(&self.state, self.options)
            .map_err(|e| e.to_string())
    }
}

/// Whether the computer (`player`), whose observation just missed, observes again: the
/// bot's own rule for observing, read from the public state only.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ComputerObserve {
    pub state: GameState,
    pub options: GameOptions,
    pub seed: u64,
    pub player: Player,
}

impl ComputerObserve {
    /// The question for the player who placed the latest stone of `game`, if any.
    pub fn of(game: &Game, seed: u64) -> Option<ComputerObserve> {
        Some(ComputerObserve {
            state: game.state().clone(),
            options: game.options(),
            seed,
            player: game.state().last_mover?,
        })
    }
}

impl Task for ComputerObserve {
    const KIND: &'static str = "quantum-gomoku.observe";
    type Output = bool;

    fn run(self) -> Result<bool, String> {
        Bot::new(self.seed)
            .decide(&self.state, self.options, self.player)
            .map(|d| d == Decision::Observe)
            .map_err(|e| e.to_string())
    }
}

/// The computer's seed in a game: from the game's public id, so that a reloaded game
/// gets the same moves (FNV-1a over the id's text).
pub fn computer_seed(id: &GameId) -> u64 {
    id.to_string().bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Runs the job named `kind`, if it is one of this game's.
pub(crate) fn dispatch(kind: &str, body: &str) -> Option<Result<String, String>> {
    match kind {
        Estimate::KIND => Some(run_wire::<Estimate>(body)),
        ComputerTurn::KIND => Some(run_wire::<ComputerTurn>(body)),
        ComputerObserve::KIND => Some(run_wire::<ComputerObserve>(body)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quantum_gomoku::{Command, Position};

    /// A game after `moves` placements (black first), no observation.
    fn game_after(moves: &[(usize, usize)]) -> Game {
        let mut game = Game::new(GameOptions::default(), 11, 0).expect("default options");
        for &(row, col) in moves {
            let player = game.state().current_player;
            game.apply(Command::Place {
                player,
                position: Position::new(row, col),
            })
            .expect("legal");
        }
        game
    }

    #[test]
    fn observing_again_answers_what_the_bots_own_rule_decides() {
        let line = [(7, 7), (0, 0), (7, 8), (0, 14), (7, 9)];
        for n in 1..=line.len() {
            let game = game_after(&line[..n]);
            let task = ComputerObserve::of(&game, 5).expect("someone placed last");
            let player = task.player;
            let text = run_wire::<ComputerObserve>(&task.to_wire()).expect("answers");
            let answer = ComputerObserve::output_from_wire(&text).expect("readable");
            let decided = Bot::new(5)
                .decide(game.state(), game.options(), player)
                .expect("decides");
            assert_eq!(answer, decided == Decision::Observe, "after {n} stones");
        }
        // Before any stone nobody may observe.
        assert!(ComputerObserve::of(&game_after(&[]), 5).is_none());
    }
}
