//! Quantum Gomoku's worker jobs: the win estimate and the computer's turn.

use quantum_gomoku::bot::{Bot, Turn};
use quantum_gomoku::{Game, GameId, GameOptions, GameState, ProbabilityConfig, WinProbability};
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
        _ => None,
    }
}
