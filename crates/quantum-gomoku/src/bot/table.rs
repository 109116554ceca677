//! The bot's validated view of the public state, and the board's winning windows.

use crate::bitboard::Geometry;
use crate::model::{Player, Position, ProbabilityType, Stone};
use crate::options::{GameOptions, OBSERVATIONS_PER_PLAYER};
use crate::state::{GameState, GameStatus};

use super::BotError;

/// A validated view of the public state.
#[derive(Debug, Clone, Copy)]
pub(super) struct Table<'a> {
    pub(super) state: &'a GameState,
    pub(super) n: usize,
    pub(super) win_length: usize,
    pub(super) geometry: Geometry,
}

impl<'a> Table<'a> {
    pub(super) fn new(state: &'a GameState, options: GameOptions) -> Result<Table<'a>, BotError> {
        let options = options.validate()?;
        let n = options.board_size;
        if state.board.len() != n || state.board.iter().any(|row| row.len() != n) {
            return Err(BotError::InvalidState(
                "board dimensions differ from the options",
            ));
        }
        if state.black_observations_remaining > OBSERVATIONS_PER_PLAYER
            || state.white_observations_remaining > OBSERVATIONS_PER_PLAYER
        {
            return Err(BotError::InvalidState(
                "observation counter above the maximum",
            ));
        }
        if u32::try_from(state.stone_count()).ok() != Some(state.turn_count) {
            // The stone types ahead follow from the turn number.
            return Err(BotError::InvalidState(
                "turnCount differs from the number of stones",
            ));
        }
        if state.status != GameStatus::Playing {
            return Err(BotError::GameOver(state.status));
        }
        if state.stones().any(|(_, s)| s.observed_color.is_some()) {
            return Err(BotError::InvalidState(
                "observed stones in a game that goes on",
            ));
        }
        Ok(Table {
            state,
            n,
            win_length: options.win_length,
            geometry: Geometry::new(n, options.win_length),
        })
    }

    pub(super) fn has_empty(&self) -> bool {
        !self.state.is_full()
    }

    pub(super) fn position(&self, cell: usize) -> Position {
        Position::new(cell / self.n, cell % self.n)
    }

    /// The type of the stone placed `ahead` placements from now (0: the
    /// current player's next one), by the rules' fixed rotation.
    pub(super) fn type_ahead(&self, ahead: u32) -> ProbabilityType {
        let turn = self.state.turn_count + ahead;
        let mover = if ahead.is_multiple_of(2) {
            self.state.current_player
        } else {
            self.state.current_player.opponent()
        };
        ProbabilityType::for_move(mover, turn / 2)
    }

    /// The state with the current player's next stone at `p` (for the
    /// observation decision after it).
    pub(super) fn with_stone(&self, p: Position, player: Player) -> GameState {
        let mut s = self.state.clone();
        if let Some(cell) = s.board.get_mut(p.row).and_then(|r| r.get_mut(p.col)) {
            *cell = Some(Stone {
                placed_by: player,
                turn_placed: s.turn_count + 1,
                probability_type: self.type_ahead(0),
                observed_color: None,
            });
        }
        s.turn_count += 1;
        s.current_player = player.opponent();
        s.last_mover = Some(player);
        s
    }
}

/// The winning lines of the board: for every cell, the windows of
/// `win_length` cells through it; and every window once.
#[derive(Debug)]
pub(super) struct Windows {
    /// `win_length - 1`: the other cells of a window through a given cell.
    pub(super) others: usize,
    /// Per cell, its windows' other cells, flattened (`others` per window).
    pub(super) through: Vec<Vec<u16>>,
    /// Every window's cells, flattened (`others + 1` per window).
    pub(super) all: Vec<u16>,
}

impl Windows {
    pub(super) fn new(n: usize, w: usize) -> Windows {
        let mut through = vec![Vec::new(); n * n];
        let mut all = Vec::new();
        let dirs: [(isize, isize); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];
        let (n_i, w_i) = (n as isize, w as isize);
        for r in 0..n_i {
            for c in 0..n_i {
                for (dr, dc) in dirs {
                    let (er, ec) = (r + dr * (w_i - 1), c + dc * (w_i - 1));
                    if er < 0 || er >= n_i || ec < 0 || ec >= n_i {
                        continue;
                    }
                    // n <= 19, so every cell index fits a u16.
                    let cells: Vec<u16> = (0..w_i)
                        .map(|k| ((r + dr * k) * n_i + (c + dc * k)) as u16)
                        .collect();
                    all.extend_from_slice(&cells);
                    for &x in &cells {
                        if let Some(list) = through.get_mut(usize::from(x)) {
                            list.extend(cells.iter().filter(|&&y| y != x));
                        }
                    }
                }
            }
        }
        Windows {
            others: w - 1,
            through,
            all,
        }
    }
}
