//! A game of Quantum Gomoku: the rules, the command entry point, undo and saving.

use crate::bitboard::{Bits, Geometry};
use crate::id::{GameId, random_uuid};
use crate::model::{Player, Position, ProbabilityType, Stone};
use crate::options::{GameOptions, OBSERVATIONS_PER_PLAYER, OptionsError};
use crate::state::{Board, GameState, GameStatus};
use seeded_rng::Rng;
use serde::{Deserialize, Serialize};

/// Something a player (or the table) asks the game to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(
    tag = "type",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum Command {
    /// Place the next stone.
    Place {
        /// Who claims to move (must be the current player).
        player: Player,
        /// Where.
        position: Position,
    },
    /// Collapse every stone and check for lines.
    Observe {
        /// Who observes (must be the last mover).
        player: Player,
        /// Fixes the collapse; `None` draws a seed from the game's generator.
        seed: Option<u64>,
    },
    /// Start over with the same id and creation time.
    Reset,
    /// Take back the latest stone.
    Undo,
}

/// What a successful command did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum Event {
    /// A stone was placed (the game may have ended in a draw).
    Placed {
        /// The new stone's cell.
        position: Position,
        /// The new stone.
        stone: Stone,
    },
    /// An observation ran.
    Observed(ObservationResult),
    /// The game was reset.
    Reset,
    /// A stone was taken back.
    Undone(LogEntry),
}

/// One line of the move log.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase",
    deny_unknown_fields
)]
pub enum LogEntry {
    /// A stone was placed.
    Move {
        /// Who placed it.
        player: Player,
        /// Where.
        position: Position,
        /// Its type.
        probability_type: ProbabilityType,
        /// The turn number it got (`turnPlaced`).
        turn: u32,
    },
    /// An observation ran.
    Observation {
        /// Who observed.
        player: Player,
        /// `turnCount` at the time.
        turn: u32,
        /// The seed of the collapse, so it can be reproduced.
        seed: u64,
        /// The winner it produced, if any.
        winner: Option<Player>,
    },
}

/// The outcome of one observation, as the API returns it (`observationResult`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ObservationResult {
    /// A UUID v4 naming this observation.
    pub id: String,
    /// Who observed.
    pub observed_by: Player,
    /// `turnCount` when it ran.
    pub turn_executed: u32,
    /// The board with every stone's collapsed colour.
    pub result_board: Board,
    /// Whether some colour made a line.
    pub is_winning: bool,
    /// Who won, if anyone.
    pub winner: Option<Player>,
    /// The winner's line (the whole run, `winLength` or more cells), if any.
    pub winning_line: Option<Vec<Position>>,
}

/// Why a command was refused. A refused command changes nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    /// The position is off the board.
    #[error("position ({row}, {col}) is off the {size}x{size} board")]
    InvalidPosition {
        /// Requested row (may be negative when it came from JSON).
        row: i64,
        /// Requested column.
        col: i64,
        /// Board side.
        size: usize,
    },
    /// The cell already holds a stone.
    #[error("cell {0} already holds a stone")]
    CellOccupied(Position),
    /// It is the other player's turn.
    #[error("it is {expected}'s turn, not {got}'s")]
    OutOfTurn {
        /// Who is to move.
        expected: Player,
        /// Who tried.
        got: Player,
    },
    /// Only the player who placed the latest stone may observe.
    #[error("{player} may not observe now: only the player who placed the latest stone ({}) may", last_mover.map_or("nobody yet", Player::as_str))]
    ObsNotAllowed {
        /// Who tried.
        player: Player,
        /// Who placed the latest stone.
        last_mover: Option<Player>,
    },
    /// The player has used all their observations.
    #[error("{0} has no observations left")]
    ObsLimitExceeded(Player),
    /// The game is over (finished or drawn); only reset helps.
    #[error("the game is over ({0})")]
    GameOver(GameStatus),
    /// There is no stone to take back (new or reset game).
    #[error("there is no move to undo")]
    NothingToUndo,
    /// An observation came after the latest stone; taking the stone back would
    /// also hand back the observation, so it is refused.
    #[error("an observation followed the latest move, which cannot be undone")]
    UndoAfterObservation,
}

impl RuleError {
    /// The API error code.
    pub const fn code(&self) -> &'static str {
        match self {
            RuleError::InvalidPosition { .. } => "INVALID_POSITION",
            RuleError::CellOccupied(_) => "CELL_OCCUPIED",
            RuleError::OutOfTurn { .. } => "OUT_OF_TURN",
            RuleError::ObsNotAllowed { .. } => "OBS_NOT_ALLOWED",
            RuleError::ObsLimitExceeded(_) => "OBS_LIMIT_EXCEEDED",
            RuleError::GameOver(_) => "GAME_OVER",
            RuleError::NothingToUndo => "NOTHING_TO_UNDO",
            RuleError::UndoAfterObservation => "UNDO_NOT_ALLOWED",
        }
    }

    /// The HTTP status the API answers with.
    pub const fn http_status(&self) -> u16 {
        match self {
            RuleError::InvalidPosition { .. } | RuleError::CellOccupied(_) => 400,
            _ => 409,
        }
    }
}

/// Why a saved game could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// Not JSON of the right shape.
    #[error("not a saved game: {0}")]
    Json(#[from] serde_json::Error),
    /// The options are invalid.
    #[error("invalid options: {0}")]
    Options(#[from] OptionsError),
    /// The fields contradict each other or the rules.
    #[error("inconsistent saved game: {0}")]
    Inconsistent(&'static str),
}

/// A game: options, the public state, the game's random generator, the move
/// log and the last observation.
///
/// All changes go through [`Game::apply`] (or the shortcuts [`Game::place`],
/// [`Game::observe`], [`Game::reset`], [`Game::undo`]); each either succeeds
/// or returns a [`RuleError`] and leaves the game exactly as it was.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "SavedGame", into = "SavedGame")]
pub struct Game {
    options: GameOptions,
    geometry: Geometry,
    state: GameState,
    rng: Rng,
    log: Vec<LogEntry>,
    last_observation: Option<ObservationResult>,
}

impl Game {
    /// A new game with a v4 id and observation seeds drawn from `seed`.
    /// `created_at_ms` is Unix milliseconds; `createdAt` shows it as ISO-8601 UTC.
    pub fn new(options: GameOptions, seed: u64, created_at_ms: u64) -> Result<Game, OptionsError> {
        let mut rng = Rng::new(seed);
        let id = GameId::random(&mut rng);
        Game::with_id(id, options, rng, created_at_ms)
    }

    /// A new game with a given id and generator (the service draws ids itself).
    pub fn with_id(
        id: GameId,
        options: GameOptions,
        rng: Rng,
        created_at_ms: u64,
    ) -> Result<Game, OptionsError> {
        let options = options.validate()?;
        Ok(Game {
            options,
            geometry: Geometry::new(options.board_size, options.win_length),
            state: GameState::initial_at(id, created_at_ms, options),
            rng,
            log: Vec::new(),
            last_observation: None,
        })
    }

    /// The public state (`gameState`).
    pub fn state(&self) -> &GameState {
        &self.state
    }

    /// The game id.
    pub fn id(&self) -> GameId {
        self.state.id
    }

    /// The validated options.
    pub fn options(&self) -> GameOptions {
        self.options
    }

    /// Moves and observations since the start or the last reset, oldest first.
    pub fn log(&self) -> &[LogEntry] {
        &self.log
    }

    /// The latest observation since the start or last reset, kept for display
    /// even after its colours were withdrawn from the board.
    pub fn last_observation(&self) -> Option<&ObservationResult> {
        self.last_observation.as_ref()
    }

    /// The type the current player's next stone will have.
    pub fn next_probability_type(&self) -> ProbabilityType {
        ProbabilityType::for_move(self.state.current_player, self.state.turn_count / 2)
    }

    pub(crate) fn geometry(&self) -> &Geometry {
        &self.geometry
    }

    /// Runs one command: the single entry point of the rules.
    pub fn apply(&mut self, command: Command) -> Result<Event, RuleError> {
        match command {
            Command::Place { player, position } => self.place(player, position),
            Command::Observe { player, seed } => self.observe(player, seed).map(Event::Observed),
            Command::Reset => {
                self.reset();
                Ok(Event::Reset)
            }
            Command::Undo => self.undo().map(Event::Undone),
        }
    }

    /// Whether `command` would be accepted now, without running it.
    pub fn check(&self, command: Command) -> Result<(), RuleError> {
        match command {
            Command::Place { player, position } => self.check_place(player, position),
            Command::Observe { player, .. } => self.check_observe(player),
            Command::Reset => Ok(()),
            Command::Undo => self.check_undo().map(|_| ()),
        }
    }

    /// The cells the current player may place on (empty while the game is over).
    pub fn legal_moves(&self) -> Vec<Position> {
        if self.state.status != GameStatus::Playing {
            return Vec::new();
        }
        self.empty_cells()
    }

    fn empty_cells(&self) -> Vec<Position> {
        let n = self.options.board_size;
        (0..n)
            .flat_map(|r| (0..n).map(move |c| Position::new(r, c)))
            .filter(|&p| self.state.stone_at(p).is_none())
            .collect()
    }

    /// Every command the rules accept now (with `seed: None` for observations),
    /// so a UI can enable exactly those buttons.
    pub fn legal_commands(&self) -> Vec<Command> {
        let mut out: Vec<Command> = self
            .legal_moves()
            .into_iter()
            .map(|position| Command::Place {
                player: self.state.current_player,
                position,
            })
            .collect();
        if let Some(player) = self.observer() {
            out.push(Command::Observe { player, seed: None });
        }
        if self.check_undo().is_ok() {
            out.push(Command::Undo);
        }
        out.push(Command::Reset);
        out
    }

    /// The player allowed to observe right now, if any.
    pub fn observer(&self) -> Option<Player> {
        let player = self.state.last_mover?;
        self.check_observe(player).ok().map(|()| player)
    }

    fn check_playing(&self) -> Result<(), RuleError> {
        match self.state.status {
            GameStatus::Playing => Ok(()),
            other => Err(RuleError::GameOver(other)),
        }
    }

    fn check_place(&self, player: Player, position: Position) -> Result<(), RuleError> {
        self.check_playing()?;
        if player != self.state.current_player {
            return Err(RuleError::OutOfTurn {
                expected: self.state.current_player,
                got: player,
            });
        }
        let size = self.options.board_size;
        if position.row >= size || position.col >= size {
            return Err(RuleError::InvalidPosition {
                row: i64::try_from(position.row).unwrap_or(i64::MAX),
                col: i64::try_from(position.col).unwrap_or(i64::MAX),
                size,
            });
        }
        if self.state.stone_at(position).is_some() {
            return Err(RuleError::CellOccupied(position));
        }
        Ok(())
    }

    /// Places the current player's next stone at `position`.
    pub fn place(&mut self, player: Player, position: Position) -> Result<Event, RuleError> {
        self.check_place(player, position)?;
        let turn = self.state.turn_count + 1;
        let stone = Stone {
            placed_by: player,
            turn_placed: turn,
            probability_type: self.next_probability_type(),
            observed_color: None,
        };
        // check_place proved the cell is on the board and empty.
        if let Some(cell) = self
            .state
            .board
            .get_mut(position.row)
            .and_then(|row| row.get_mut(position.col))
        {
            *cell = Some(stone);
        }
        self.state.turn_count = turn;
        self.state.current_player = player.opponent();
        self.state.last_mover = Some(player);
        self.log.push(LogEntry::Move {
            player,
            position,
            probability_type: stone.probability_type,
            turn,
        });
        self.update_draw();
        Ok(Event::Placed { position, stone })
    }

    fn check_observe(&self, player: Player) -> Result<(), RuleError> {
        self.check_playing()?;
        if self.state.last_mover != Some(player) {
            return Err(RuleError::ObsNotAllowed {
                player,
                last_mover: self.state.last_mover,
            });
        }
        if self.state.observations_remaining(player) == 0 {
            return Err(RuleError::ObsLimitExceeded(player));
        }
        Ok(())
    }

    /// Collapses every stone (seeded by `seed`, or by a seed drawn from the
    /// game's generator) and checks both colours for a line.
    ///
    /// A line of one colour wins for that colour's player; lines of both
    /// colours win for the observer. Without a line every stone goes back to
    /// unobserved and play continues; the result stays in
    /// [`Game::last_observation`].
    pub fn observe(
        &mut self,
        player: Player,
        seed: Option<u64>,
    ) -> Result<ObservationResult, RuleError> {
        self.check_observe(player)?;
        let seed = seed.unwrap_or_else(|| self.rng.next_u64());
        let id = random_uuid(&mut self.rng).hyphenated().to_string();
        let result_board = collapse(&self.state.board, seed);
        let (winner, winning_line) = self.judge(&result_board, player);

        let remaining = self.state.observations_remaining_mut(player);
        *remaining = remaining.saturating_sub(1);
        if let Some(w) = winner {
            self.state.status = GameStatus::Finished;
            self.state.winner = Some(w);
            self.state.board.clone_from(&result_board);
        } else {
            self.update_draw();
        }
        let result = ObservationResult {
            id,
            observed_by: player,
            turn_executed: self.state.turn_count,
            result_board,
            is_winning: winner.is_some(),
            winner,
            winning_line,
        };
        self.log.push(LogEntry::Observation {
            player,
            turn: self.state.turn_count,
            seed,
            winner,
        });
        self.last_observation = Some(result.clone());
        Ok(result)
    }

    /// Who wins a collapsed board observed by `observer`, and their line.
    fn judge(
        &self,
        collapsed: &Board,
        observer: Player,
    ) -> (Option<Player>, Option<Vec<Position>>) {
        let (black, white) = self.colour_bits(collapsed);
        let winner = match (
            self.geometry.has_line(&black),
            self.geometry.has_line(&white),
        ) {
            (true, true) => Some(observer),
            (true, false) => Some(Player::Black),
            (false, true) => Some(Player::White),
            (false, false) => None,
        };
        let line = winner.and_then(|w| find_line(collapsed, w, self.options.win_length));
        (winner, line)
    }

    fn colour_bits(&self, collapsed: &Board) -> (Bits, Bits) {
        let mut black = Bits::default();
        let mut white = Bits::default();
        for (r, row) in collapsed.iter().enumerate() {
            for (c, cell) in row.iter().enumerate() {
                match cell.and_then(|s| s.observed_color) {
                    Some(Player::Black) => black.set(self.geometry.index(r, c)),
                    Some(Player::White) => white.set(self.geometry.index(r, c)),
                    None => {}
                }
            }
        }
        (black, white)
    }

    /// Ends the game in a draw when the board is full and nobody can observe
    /// any more. The specification's condition (both players out of
    /// observations) is the common case; a full board whose last mover is out
    /// of observations is also final, because the opponent can neither place
    /// nor observe, so it is a draw too rather than a stuck game.
    fn update_draw(&mut self) {
        if self.state.status != GameStatus::Playing || !self.state.is_full() {
            return;
        }
        let stuck = match self.state.last_mover {
            Some(p) => self.state.observations_remaining(p) == 0,
            None => true,
        };
        if stuck {
            self.state.status = GameStatus::Draw;
        }
    }

    /// Starts over: empty board, full counters, black to move; the id, the
    /// creation time, the options and the generator's position are kept.
    pub fn reset(&mut self) {
        self.state = GameState::initial(self.state.id, self.state.created_at.clone(), self.options);
        self.log.clear();
        self.last_observation = None;
    }

    fn check_undo(&self) -> Result<(Player, Position, u32), RuleError> {
        match self.log.last() {
            None => Err(RuleError::NothingToUndo),
            Some(LogEntry::Observation { .. }) => Err(RuleError::UndoAfterObservation),
            Some(&LogEntry::Move {
                player,
                position,
                turn,
                ..
            }) => {
                // Only reset leaves a finished or drawn game (the state machine
                // of the specification), so undo does not.
                self.check_playing()?;
                // A log that disagrees with the board (only possible through
                // a hand-edited save) must not be acted upon.
                match self.state.stone_at(position) {
                    Some(s)
                        if s.placed_by == player
                            && s.turn_placed == turn
                            && turn == self.state.turn_count =>
                    {
                        Ok((player, position, turn))
                    }
                    _ => Err(RuleError::NothingToUndo),
                }
            }
        }
    }

    /// Takes back the latest stone (hot-seat play). Refused when nothing was
    /// placed since the start or reset, or when an observation followed the
    /// stone (undoing it would hand back an observation and allow re-rolls),
    /// and once the game is over (only reset leaves `finished`/`draw`).
    pub fn undo(&mut self) -> Result<LogEntry, RuleError> {
        let (player, position, turn) = self.check_undo()?;
        let entry = self.log.pop().ok_or(RuleError::NothingToUndo)?;
        if let Some(cell) = self
            .state
            .board
            .get_mut(position.row)
            .and_then(|row| row.get_mut(position.col))
        {
            *cell = None;
        }
        self.state.turn_count = turn - 1;
        self.state.current_player = player;
        self.state.last_mover = (self.state.turn_count > 0).then_some(player.opponent());
        Ok(entry)
    }

    /// The game as JSON (for localStorage); [`Game::from_json`] reads it back.
    pub fn to_json(&self) -> Result<String, serde_json::Error> {
        serde_json::to_string(self)
    }

    /// Reads a game saved by [`Game::to_json`], checking that it is consistent.
    pub fn from_json(json: &str) -> Result<Game, LoadError> {
        let saved: SavedGame = serde_json::from_str(json)?;
        Game::try_from(saved)
    }

    /// A copy of a game someone else keeps (a server), from what it publishes:
    /// the options, the public state and the last observation, checked as a
    /// save is. Its log holds the moves in turn order and the last observation
    /// (earlier ones are not in the public state, nor any seed) and its
    /// generator is a fixed one: such a copy is for showing the game, not for
    /// drawing its observations.
    pub fn from_public_state(
        options: GameOptions,
        state: GameState,
        last_observation: Option<ObservationResult>,
    ) -> Result<Game, LoadError> {
        let mut log: Vec<LogEntry> = state
            .stones()
            .map(|(position, stone)| LogEntry::Move {
                player: stone.placed_by,
                position,
                probability_type: stone.probability_type,
                turn: stone.turn_placed,
            })
            .collect();
        log.sort_by_key(|entry| match entry {
            LogEntry::Move { turn, .. } | LogEntry::Observation { turn, .. } => *turn,
        });
        // The last observation is known (its seed is not: the copy never replays it),
        // and it keeps the move before it from being undone, as in the original.
        if let Some(o) = &last_observation {
            log.push(LogEntry::Observation {
                player: o.observed_by,
                turn: o.turn_executed,
                seed: 0,
                winner: o.winner,
            });
        }
        Game::try_from(SavedGame {
            options,
            state,
            rng: Rng::new(0),
            log,
            last_observation,
        })
    }
}

/// Collapses every stone of `board` with a generator seeded by `seed`,
/// visiting stones row by row so the same seed and board give the same result.
pub fn collapse(board: &Board, seed: u64) -> Board {
    let mut rng = Rng::new(seed);
    board
        .iter()
        .map(|row| {
            row.iter()
                .map(|cell| {
                    cell.map(|mut s| {
                        let black = rng.chance(s.probability_type.black_probability());
                        s.observed_color = Some(if black { Player::Black } else { Player::White });
                        s
                    })
                })
                .collect()
        })
        .collect()
}

/// The first run (row by row; horizontal, vertical, diagonal, anti-diagonal)
/// of `colour` that is at least `win_length` long, whole.
fn find_line(board: &Board, colour: Player, win_length: usize) -> Option<Vec<Position>> {
    let size = board.len();
    let is = |r: isize, c: isize| -> bool {
        r >= 0
            && c >= 0
            && board
                .get(r as usize)
                .and_then(|row| row.get(c as usize))
                .and_then(|cell| cell.as_ref())
                .and_then(|s| s.observed_color)
                == Some(colour)
    };
    let dirs: [(isize, isize); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];
    for r in 0..size as isize {
        for c in 0..size as isize {
            if !is(r, c) {
                continue;
            }
            for (dr, dc) in dirs {
                // Only start at the first cell of a run.
                if is(r - dr, c - dc) {
                    continue;
                }
                let mut line = Vec::new();
                let (mut rr, mut cc) = (r, c);
                while is(rr, cc) {
                    line.push(Position::new(rr as usize, cc as usize));
                    rr += dr;
                    cc += dc;
                }
                if line.len() >= win_length {
                    return Some(line);
                }
            }
        }
    }
    None
}

/// The saved form of a game: plain data, checked by `TryFrom` on load.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct SavedGame {
    options: GameOptions,
    state: GameState,
    rng: Rng,
    log: Vec<LogEntry>,
    last_observation: Option<ObservationResult>,
}

impl From<Game> for SavedGame {
    fn from(g: Game) -> SavedGame {
        SavedGame {
            options: g.options,
            state: g.state,
            rng: g.rng,
            log: g.log,
            last_observation: g.last_observation,
        }
    }
}

impl TryFrom<SavedGame> for Game {
    type Error = LoadError;

    fn try_from(saved: SavedGame) -> Result<Game, LoadError> {
        use LoadError::Inconsistent as Bad;
        let options = saved.options.validate()?;
        let state = saved.state;
        let n = options.board_size;
        if state.board.len() != n || state.board.iter().any(|row| row.len() != n) {
            return Err(Bad("board dimensions differ from the options"));
        }
        if state.black_observations_remaining > OBSERVATIONS_PER_PLAYER
            || state.white_observations_remaining > OBSERVATIONS_PER_PLAYER
        {
            return Err(Bad("observation counter above the maximum"));
        }
        let count = state.stone_count();
        if u32::try_from(count).ok() != Some(state.turn_count) {
            return Err(Bad("turnCount differs from the number of stones"));
        }
        let expected_player = if state.turn_count.is_multiple_of(2) {
            Player::Black
        } else {
            Player::White
        };
        if state.current_player != expected_player {
            return Err(Bad("currentPlayer does not match turnCount"));
        }
        let expected_last = (state.turn_count > 0).then_some(expected_player.opponent());
        if state.last_mover != expected_last {
            return Err(Bad("lastMover does not match turnCount"));
        }
        let mut turns_seen = vec![false; count];
        let finished = state.status == GameStatus::Finished;
        for (_, stone) in state.stones() {
            let t = stone.turn_placed;
            let slot = usize::try_from(t)
                .ok()
                .and_then(|t| t.checked_sub(1))
                .and_then(|i| turns_seen.get_mut(i));
            match slot {
                Some(seen) if !*seen => *seen = true,
                _ => return Err(Bad("turnPlaced values are not 1..=turnCount, once each")),
            }
            let mover = if t % 2 == 1 {
                Player::Black
            } else {
                Player::White
            };
            if stone.placed_by != mover
                || stone.probability_type != ProbabilityType::for_move(mover, (t - 1) / 2)
            {
                return Err(Bad("a stone's owner or type does not match its turn"));
            }
            if stone.observed_color.is_some() != finished {
                return Err(Bad("stones are observed exactly when the game is finished"));
            }
        }
        if state.winner.is_some() != finished {
            return Err(Bad("winner is set exactly when the game is finished"));
        }
        let game = Game {
            options,
            geometry: Geometry::new(n, options.win_length),
            state,
            rng: saved.rng,
            log: saved.log,
            last_observation: saved.last_observation,
        };
        if game.state.status == GameStatus::Draw {
            let mut probe = game.clone();
            probe.state.status = GameStatus::Playing;
            probe.update_draw();
            if probe.state.status != GameStatus::Draw {
                return Err(Bad("draw status on a game that can go on"));
            }
        }
        Ok(game)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(size: usize, win: usize) -> Game {
        Game::new(GameOptions::new(size, win), 1, 0).expect("valid options")
    }

    #[test]
    fn place_alternates_and_rotates() {
        let mut g = game(15, 3);
        g.place(Player::Black, Position::new(0, 0)).expect("legal");
        g.place(Player::White, Position::new(0, 1)).expect("legal");
        g.place(Player::Black, Position::new(0, 2)).expect("legal");
        let types: Vec<_> = g
            .state()
            .stones()
            .map(|(_, s)| s.probability_type)
            .collect();
        assert_eq!(
            types,
            vec![
                ProbabilityType::P90,
                ProbabilityType::P10,
                ProbabilityType::P70
            ]
        );
        assert_eq!(g.state().current_player, Player::White);
        assert_eq!(g.next_probability_type(), ProbabilityType::P30);
    }

    #[test]
    fn find_line_returns_whole_run() {
        let stone = |c| {
            Some(Stone {
                placed_by: Player::Black,
                turn_placed: 1,
                probability_type: ProbabilityType::P90,
                observed_color: Some(c),
            })
        };
        let mut board: Board = vec![vec![None; 5]; 5];
        for cell in &mut board[2][..4] {
            *cell = stone(Player::White);
        }
        board[0][0] = stone(Player::Black);
        let line = find_line(&board, Player::White, 3).expect("a run of four");
        assert_eq!(line.len(), 4);
        assert_eq!(line[0], Position::new(2, 0));
        assert_eq!(find_line(&board, Player::Black, 3), None);
    }

    #[test]
    fn collapse_is_deterministic_per_seed() {
        let mut g = game(5, 3);
        for (i, p) in [(0, 0), (1, 1), (2, 2), (3, 3)].into_iter().enumerate() {
            let player = if i % 2 == 0 {
                Player::Black
            } else {
                Player::White
            };
            g.place(player, Position::new(p.0, p.1)).expect("legal");
        }
        assert_eq!(collapse(&g.state().board, 9), collapse(&g.state().board, 9));
    }

    #[test]
    fn undo_restores_the_previous_state_exactly() {
        let mut g = game(15, 3);
        g.place(Player::Black, Position::new(7, 7)).expect("legal");
        let before = g.clone();
        g.place(Player::White, Position::new(7, 8)).expect("legal");
        g.undo().expect("a move to undo");
        assert_eq!(g, before);
        g.undo().expect("a move to undo");
        assert_eq!(g.state().turn_count, 0);
        assert_eq!(g.state().last_mover, None);
        assert_eq!(g.undo(), Err(RuleError::NothingToUndo));
    }

    #[test]
    fn a_copy_from_the_public_state_shows_the_same_game_and_refuses_an_inconsistent_one() {
        let mut g = game(7, 3);
        g.place(Player::Black, Position::new(3, 3)).expect("legal");
        g.place(Player::White, Position::new(0, 1)).expect("legal");
        g.place(Player::Black, Position::new(3, 4)).expect("legal");
        g.observe(Player::Black, Some(5))
            .expect("black may observe");
        let copy = Game::from_public_state(
            g.options(),
            g.state().clone(),
            g.last_observation().cloned(),
        )
        .expect("consistent");
        assert_eq!(copy.state(), g.state());
        assert_eq!(copy.view(), g.view());
        let moves: Vec<u32> = copy
            .log()
            .iter()
            .map(|e| match e {
                LogEntry::Move { turn, .. } | LogEntry::Observation { turn, .. } => *turn,
            })
            .collect();
        assert_eq!(moves, [1, 2, 3, 3]);
        let mut bad = g.state().clone();
        bad.turn_count = 5;
        assert!(Game::from_public_state(g.options(), bad, None).is_err());
        assert!(Game::from_public_state(GameOptions::new(9, 3), g.state().clone(), None).is_err());
    }
}
