//! The game state exactly as the API shows it (`gameState`), and its board.

use crate::id::{GameId, iso8601_from_millis};
use crate::model::{Player, Position, Stone};
use crate::options::{GameOptions, OBSERVATIONS_PER_PLAYER};
use serde::{Deserialize, Serialize};
use std::fmt;

/// Where a game is in its life cycle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GameStatus {
    /// Moves and observations are allowed.
    Playing,
    /// An observation produced a line; `winner` is set.
    Finished,
    /// The board is full and no observation can happen any more.
    Draw,
}

impl GameStatus {
    /// The JSON spelling.
    pub const fn as_str(self) -> &'static str {
        match self {
            GameStatus::Playing => "playing",
            GameStatus::Finished => "finished",
            GameStatus::Draw => "draw",
        }
    }
}

impl fmt::Display for GameStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Rows of cells, each `None` (empty) or a stone: `board[row][col]`.
pub type Board = Vec<Vec<Option<Stone>>>;

/// The state of one game with the specification's field names.
///
/// Read it through [`crate::Game::state`]; only the game changes it, so its
/// invariants (one stone per turn, alternating players, counters within
/// bounds) hold.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct GameState {
    /// The game's UUID (v4 for games made here).
    pub id: GameId,
    /// Life-cycle status.
    pub status: GameStatus,
    /// Who places the next stone.
    pub current_player: Player,
    /// Set when an observation produced a line.
    pub winner: Option<Player>,
    /// The stones, `board[row][col]`.
    pub board: Board,
    /// Observations black may still make.
    pub black_observations_remaining: u8,
    /// Observations white may still make.
    pub white_observations_remaining: u8,
    /// Stones placed since the game started or was reset.
    pub turn_count: u32,
    /// Creation time, ISO-8601 UTC (kept across resets).
    pub created_at: String,
    /// Who placed the latest stone; only they may observe.
    pub last_mover: Option<Player>,
}

impl GameState {
    /// A fresh state: empty board, black to move, full observation counters.
    pub(crate) fn initial(id: GameId, created_at: String, options: GameOptions) -> GameState {
        GameState {
            id,
            status: GameStatus::Playing,
            current_player: Player::Black,
            winner: None,
            board: vec![vec![None; options.board_size]; options.board_size],
            black_observations_remaining: OBSERVATIONS_PER_PLAYER,
            white_observations_remaining: OBSERVATIONS_PER_PLAYER,
            turn_count: 0,
            created_at,
            last_mover: None,
        }
    }

    /// A fresh state stamped with Unix milliseconds.
    pub(crate) fn initial_at(id: GameId, created_at_ms: u64, options: GameOptions) -> GameState {
        GameState::initial(id, iso8601_from_millis(created_at_ms), options)
    }

    /// Observations `player` may still make.
    pub const fn observations_remaining(&self, player: Player) -> u8 {
        match player {
            Player::Black => self.black_observations_remaining,
            Player::White => self.white_observations_remaining,
        }
    }

    /// Observations `player` has made (the UI's `obs-used-*`).
    pub const fn observations_used(&self, player: Player) -> u8 {
        OBSERVATIONS_PER_PLAYER.saturating_sub(self.observations_remaining(player))
    }

    pub(crate) fn observations_remaining_mut(&mut self, player: Player) -> &mut u8 {
        match player {
            Player::Black => &mut self.black_observations_remaining,
            Player::White => &mut self.white_observations_remaining,
        }
    }

    /// The stone at `pos`, if the position is on the board and occupied.
    pub fn stone_at(&self, pos: Position) -> Option<&Stone> {
        self.board.get(pos.row)?.get(pos.col)?.as_ref()
    }

    /// Every stone with its position, row by row.
    pub fn stones(&self) -> impl Iterator<Item = (Position, &Stone)> {
        self.board.iter().enumerate().flat_map(|(r, row)| {
            row.iter()
                .enumerate()
                .filter_map(move |(c, cell)| cell.as_ref().map(|s| (Position::new(r, c), s)))
        })
    }

    /// Number of stones on the board.
    pub fn stone_count(&self) -> usize {
        self.board.iter().flatten().filter(|c| c.is_some()).count()
    }

    /// Whether every cell holds a stone.
    pub fn is_full(&self) -> bool {
        self.board.iter().flatten().all(Option::is_some)
    }
}
