//! New-game options (board size, win length) and their validation.

use serde::{Deserialize, Serialize};

/// The board side used when none is given (the specification's 15x15).
pub const DEFAULT_BOARD_SIZE: usize = 15;
/// The line length that wins when none is given (the specification's 3).
pub const DEFAULT_WIN_LENGTH: usize = 3;
/// The smallest board accepted: anything smaller has no room for a game.
pub const MIN_BOARD_SIZE: usize = 3;
/// The largest board accepted: 19x19 is the largest Go/Gomoku board, and the
/// bitboards used for fast sampling are sized for it.
pub const MAX_BOARD_SIZE: usize = 19;
/// The shortest winning line accepted: a single stone would make every
/// observation a win.
pub const MIN_WIN_LENGTH: usize = 2;
/// Observations each player may make per game.
pub const OBSERVATIONS_PER_PLAYER: u8 = 5;

/// Unchecked options for a new game, as a client sends them. Missing fields take
/// the defaults. Turn them into a game with [`crate::Game::new`], which
/// validates them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct GameOptions {
    /// Side length of the square board.
    pub board_size: usize,
    /// How many stones of one colour in a row win at an observation ("N or more").
    pub win_length: usize,
}

impl Default for GameOptions {
    fn default() -> Self {
        GameOptions {
            board_size: DEFAULT_BOARD_SIZE,
            win_length: DEFAULT_WIN_LENGTH,
        }
    }
}

/// Why a set of options cannot make a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum OptionsError {
    /// The board side is outside `MIN_BOARD_SIZE..=MAX_BOARD_SIZE`.
    #[error("board size {0} is outside {MIN_BOARD_SIZE}..={MAX_BOARD_SIZE}")]
    BoardSize(usize),
    /// The win length is below the minimum or longer than the board side.
    #[error(
        "win length {win_length} is outside {MIN_WIN_LENGTH}..={board_size} for a board of size {board_size}"
    )]
    WinLength {
        /// The requested win length.
        win_length: usize,
        /// The requested board side.
        board_size: usize,
    },
}

impl GameOptions {
    /// Options with the given board side and win length (not yet validated).
    pub const fn new(board_size: usize, win_length: usize) -> GameOptions {
        GameOptions {
            board_size,
            win_length,
        }
    }

    /// Checks that a game can be played with these options.
    pub fn validate(self) -> Result<GameOptions, OptionsError> {
        if !(MIN_BOARD_SIZE..=MAX_BOARD_SIZE).contains(&self.board_size) {
            return Err(OptionsError::BoardSize(self.board_size));
        }
        if !(MIN_WIN_LENGTH..=self.board_size).contains(&self.win_length) {
            return Err(OptionsError::WinLength {
                win_length: self.win_length,
                board_size: self.board_size,
            });
        }
        Ok(self)
    }

    /// Number of cells on the board.
    pub const fn cells(self) -> usize {
        self.board_size * self.board_size
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_fifteen_and_three() {
        assert_eq!(GameOptions::default(), GameOptions::new(15, 3));
        assert!(GameOptions::default().validate().is_ok());
    }

    #[test]
    fn nonsense_is_refused() {
        assert_eq!(
            GameOptions::new(0, 3).validate(),
            Err(OptionsError::BoardSize(0))
        );
        assert_eq!(
            GameOptions::new(20, 3).validate(),
            Err(OptionsError::BoardSize(20))
        );
        assert!(matches!(
            GameOptions::new(5, 6).validate(),
            Err(OptionsError::WinLength {
                win_length: 6,
                board_size: 5
            })
        ));
        assert!(GameOptions::new(5, 1).validate().is_err());
        assert!(GameOptions::new(19, 19).validate().is_ok());
    }

    #[test]
    fn missing_json_fields_take_defaults() {
        let o: GameOptions = serde_json::from_str(r#"{"winLength":5}"#).expect("valid json");
        assert_eq!(o, GameOptions::new(15, 5));
        assert!(serde_json::from_str::<GameOptions>(r#"{"size":5}"#).is_err());
    }
}
