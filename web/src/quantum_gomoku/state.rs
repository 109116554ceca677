//! The Quantum Gomoku `Reducible`: wraps the engine's `Game`; `reduce` only applies commands and records the last error.

use std::rc::Rc;

use quantum_gomoku::bot::Turn;
use quantum_gomoku::{Command, Game, GameStatus, OptionsError, Player, Position, RuleError};
use yew::prelude::*;

/// Who plays against whom: two people at this device, or one against the computer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Opponent {
    /// Both colours are played here (or through the server by two browsers).
    #[default]
    Human,
    /// The computer plays this colour.
    Computer(Player),
}

impl Opponent {
    /// Every choice, in the order the page lists them.
    pub const ALL: [Opponent; 3] = [
        Opponent::Human,
        Opponent::Computer(Player::White),
        Opponent::Computer(Player::Black),
    ];

    /// The value of the `qg-opponent` control and of the saved preference.
    pub const fn as_str(self) -> &'static str {
        match self {
            Opponent::Human => "human",
            Opponent::Computer(Player::White) => "computer-white",
            Opponent::Computer(Player::Black) => "computer-black",
        }
    }

    pub fn parse(text: &str) -> Option<Opponent> {
        Opponent::ALL.into_iter().find(|o| o.as_str() == text)
    }

    /// The computer's colour, if it plays.
    pub const fn computer(self) -> Option<Player> {
        match self {
            Opponent::Human => None,
            Opponent::Computer(p) => Some(p),
        }
    }
}

/// How the computer's latest turn was computed, for the page to show.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Thought {
    /// Milliseconds of thinking, measured where it ran.
    pub ms: f64,
    /// Whether it ran in the Web Worker (false: on the page, the fallback).
    pub in_worker: bool,
}

/// Undo as the player sees it: against the computer, back to the player's own previous
/// turn (the computer's stone and the player's before it, together or not at all).
fn undo(game: &Game, computer: Option<Player>) -> Result<Game, RuleError> {
    let mut next = game.clone();
    next.undo()?;
    if computer == Some(next.state().current_player) {
        next.undo()?;
    }
    Ok(next)
}

/// Whether [`Action::Apply`] of `Command::Undo` would be accepted.
pub fn can_undo(game: &Game, opponent: Opponent) -> bool {
    undo(game, opponent.computer()).is_ok()
}

/// Whether it is the computer's turn to place.
pub fn computer_to_move(game: &Game, opponent: Opponent) -> bool {
    let state = game.state();
    opponent.computer() == Some(state.current_player)
        && state.status == GameStatus::Playing
        && !state.is_full()
}

/// What the page tells the player about where the shown game came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Notice {
    /// A stored game could not be read and was removed.
    CorruptSave,
    /// The game saved last time was resumed.
    Resumed,
    /// A game was loaded by id.
    Loaded,
    /// The `gameId` of the address was malformed or unknown, so it was not used.
    UrlIdIgnored,
}

/// Why the last request of the player was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PageError {
    /// The engine refused the command (the game is unchanged).
    Rule(RuleError),
    /// The load box did not hold a UUID v4.
    InvalidId,
    /// No game with that id is saved in this browser.
    UnknownId,
    /// The save of that id was unreadable and has been removed.
    CorruptSave,
    /// The new-game options cannot make a game.
    Options(OptionsError),
    /// The computer could not choose a move (a bug; the game is unchanged).
    Computer(String),
    /// The API server refused a request of the online game, or could not be reached
    /// (its error code and message; the game is unchanged).
    Online { code: String, message: String },
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct QgState {
    /// `None` until the start-up effect has chosen or created a game.
    pub game: Option<Game>,
    pub last_error: Option<PageError>,
    pub notice: Option<Notice>,
    /// Bumped on every change of the game, so effects know when to save and
    /// recompute the win probability.
    pub version: u64,
    /// Who plays the other side.
    pub opponent: Opponent,
    /// The computer's latest turn, while it is the latest event.
    pub thought: Option<Thought>,
    /// The computer's observation just missed and it may observe again (it has
    /// observations left and the player has not moved): it decides before the player's
    /// turn opens, as a player at the board may observe again after a miss.
    pub observe_again: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// Show this game (new, resumed or loaded). It is built by the caller,
    /// which owns the clock and the entropy.
    Show {
        game: Box<Game>,
        notice: Option<Notice>,
    },
    /// Apply one engine command of the player at this device to the shown game
    /// (ignored when it is the computer's to give; undo goes back to the player's turn).
    Apply(Command),
    /// The player to move places here (the cell's click or Enter; ignored when it is
    /// the computer's turn).
    PlaceHere(Position),
    /// The computer's turn, computed for the game at `version` (ignored if the game
    /// changed since): its placement and, if it chose to, its observation.
    ComputerTurn {
        version: u64,
        turn: Turn,
        thought: Thought,
    },
    /// The computer's answer to "observe again?" after a miss, computed for `version`.
    ComputerObserve {
        version: u64,
        observe: bool,
        thought: Thought,
    },
    /// Choose who plays the other side.
    SetOpponent(Opponent),
    /// Record a refusal that did not come from the engine.
    Refuse(PageError),
    /// Forget the error and the notice.
    Dismiss,
}

impl QgState {
    fn changed(&self, game: Game, thought: Option<Thought>) -> Rc<QgState> {
        Rc::new(QgState {
            game: Some(game),
            last_error: None,
            notice: None,
            version: self.version + 1,
            opponent: self.opponent,
            thought,
            observe_again: false,
        })
    }

    /// [`QgState::changed`] after the computer (`player`) observed: if it missed and may
    /// observe again, it is asked first.
    fn observed_by_computer(&self, game: Game, player: Player, thought: Thought) -> Rc<QgState> {
        let state = game.state();
        let again = state.status == GameStatus::Playing
            && state.last_mover == Some(player)
            && state.observations_remaining(player) > 0;
        let mut next = self.changed(game, Some(thought));
        Rc::make_mut(&mut next).observe_again = again;
        next
    }

    /// Whether the computer is deciding something: its turn, or observing again.
    pub fn computer_thinking(&self) -> bool {
        self.game
            .as_ref()
            .is_some_and(|g| computer_to_move(g, self.opponent) || self.observe_again)
    }
}

impl Reducible for QgState {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        match action {
            Action::Show { game, notice } => Rc::new(QgState {
                game: Some(*game),
                last_error: None,
                notice,
                version: self.version + 1,
                opponent: self.opponent,
                thought: None,
                observe_again: false,
            }),
            Action::Apply(command) => {
                let Some(game) = &self.game else {
                    return self;
                };
                let computer = self.opponent.computer();
                let commanded = match command {
                    Command::Place { player, .. } | Command::Observe { player, .. } => Some(player),
                    Command::Reset | Command::Undo => None,
                };
                if commanded.is_some() && commanded == computer {
                    return self;
                }
                let next = match command {
                    Command::Undo => undo(game, computer),
                    other => {
                        let mut next = game.clone();
                        next.apply(other).map(|_| next)
                    }
                };
                match next {
                    Ok(next) => self.changed(next, None),
                    Err(e) => Rc::new(QgState {
                        last_error: Some(PageError::Rule(e)),
                        ..(*self).clone()
                    }),
                }
            }
            Action::PlaceHere(position) => match &self.game {
                Some(game) => {
                    let player = game.state().current_player;
                    self.reduce(Action::Apply(Command::Place { player, position }))
                }
                None => self,
            },
            Action::ComputerTurn {
                version,
                turn,
                thought,
            } => {
                let Some(game) = self.game.as_ref().filter(|_| version == self.version) else {
                    return self;
                };
                let player = game.state().current_player;
                let mut next = game.clone();
                let placed = next.apply(Command::Place {
                    player,
                    position: turn.position,
                });
                let observed = match placed {
                    Ok(_) if turn.observe => next
                        .apply(Command::Observe { player, seed: None })
                        .map(|_| ()),
                    other => other.map(|_| ()),
                };
                match observed {
                    Ok(()) if turn.observe => self.observed_by_computer(next, player, thought),
                    Ok(()) => self.changed(next, Some(thought)),
                    Err(e) => Rc::new(QgState {
                        last_error: Some(PageError::Computer(e.to_string())),
                        ..(*self).clone()
                    }),
                }
            }
            Action::ComputerObserve {
                version,
                observe,
                thought,
            } => {
                let Some(game) = self
                    .game
                    .as_ref()
                    .filter(|_| version == self.version && self.observe_again)
                else {
                    return self;
                };
                let Some(player) = game.state().last_mover else {
                    return self;
                };
                if !observe {
                    return Rc::new(QgState {
                        observe_again: false,
                        ..(*self).clone()
                    });
                }
                let mut next = game.clone();
                match next.apply(Command::Observe { player, seed: None }) {
                    Ok(_) => self.observed_by_computer(next, player, thought),
                    Err(e) => Rc::new(QgState {
                        last_error: Some(PageError::Computer(e.to_string())),
                        observe_again: false,
                        ..(*self).clone()
                    }),
                }
            }
            Action::SetOpponent(opponent) => Rc::new(QgState {
                opponent,
                // A new opponent does not inherit the old one's chance to observe again.
                observe_again: false,
                ..(*self).clone()
            }),
            Action::Refuse(error) => Rc::new(QgState {
                last_error: Some(error),
                ..(*self).clone()
            }),
            Action::Dismiss => Rc::new(QgState {
                last_error: None,
                notice: None,
                ..(*self).clone()
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quantum_gomoku::GameOptions;

    fn shown() -> Rc<QgState> {
        let game = Game::new(GameOptions::default(), 7, 0).expect("default options are valid");
        Rc::new(QgState::default()).reduce(Action::Show {
            game: Box::new(game),
            notice: None,
        })
    }

    #[test]
    fn accepted_commands_bump_the_version_and_refusals_keep_the_game() {
        let place = Command::Place {
            player: Player::Black,
            position: Position::new(1, 1),
        };
        let after = shown().reduce(Action::Apply(place));
        assert_eq!(after.version, 2);
        assert_eq!(after.game.as_ref().map(|g| g.state().turn_count), Some(1));
        let refused = after.clone().reduce(Action::Apply(Command::Place {
            player: Player::White,
            position: Position::new(1, 1),
        }));
        assert_eq!(refused.version, 2);
        assert_eq!(refused.game, after.game);
        assert!(matches!(
            refused.last_error,
            Some(PageError::Rule(RuleError::CellOccupied(_)))
        ));
    }

    fn place(player: Player, row: usize, col: usize) -> Action {
        Action::Apply(Command::Place {
            player,
            position: Position::new(row, col),
        })
    }

    fn computer_turn(version: u64, row: usize, col: usize, observe: bool) -> Action {
        let game = Game::new(GameOptions::default(), 7, 0).expect("default options are valid");
        Action::ComputerTurn {
            version,
            turn: Turn {
                position: Position::new(row, col),
                observe,
                after: game.win_probability(&Default::default()),
            },
            thought: Thought {
                ms: 12.0,
                in_worker: true,
            },
        }
    }

    #[test]
    fn against_the_computer_its_colour_cannot_be_played_from_the_page() {
        let state = shown().reduce(Action::SetOpponent(Opponent::Computer(Player::Black)));
        let ignored = state.clone().reduce(place(Player::Black, 0, 0));
        assert_eq!(ignored, state);
    }

    #[test]
    fn the_computers_turn_places_and_observes_unless_the_game_moved_on() {
        let state = shown()
            .reduce(Action::SetOpponent(Opponent::Computer(Player::White)))
            .reduce(place(Player::Black, 7, 7));
        // An answer computed for an older version of the game is dropped.
        let stale = state
            .clone()
            .reduce(computer_turn(state.version - 1, 7, 8, true));
        assert_eq!(stale, state);
        let after = state
            .clone()
            .reduce(computer_turn(state.version, 7, 8, true));
        let game = after.game.as_ref().expect("a game");
        assert_eq!(game.state().turn_count, 2);
        assert_eq!(game.state().white_observations_remaining, 4);
        assert_eq!(after.thought.map(|t| t.in_worker), Some(true));
        // The next move of the player clears the computer's thought.
        let next = after.clone().reduce(place(Player::Black, 0, 0));
        assert_eq!(next.thought, None);
        assert!(!next.observe_again);
    }

    fn computer_observe(version: u64, observe: bool) -> Action {
        Action::ComputerObserve {
            version,
            observe,
            thought: Thought {
                ms: 3.0,
                in_worker: true,
            },
        }
    }

    #[test]
    fn after_a_missed_observation_the_computer_may_observe_again_before_the_player_moves() {
        let state = shown()
            .reduce(Action::SetOpponent(Opponent::Computer(Player::White)))
            .reduce(place(Player::Black, 7, 7));
        // Two stones cannot make a line: the observation misses.
        let missed = state
            .clone()
            .reduce(computer_turn(state.version, 7, 8, true));
        let game = missed.game.as_ref().expect("a game");
        assert_eq!(game.state().white_observations_remaining, 4);
        assert!(missed.observe_again);
        assert!(
            missed.computer_thinking(),
            "the player waits for the computer"
        );
        // It observes again: one more observation used, and it may go on.
        let again = missed
            .clone()
            .reduce(computer_observe(missed.version, true));
        let game = again.game.as_ref().expect("a game");
        assert_eq!(game.state().white_observations_remaining, 3);
        assert!(again.observe_again);
        // An answer for an older version is dropped; "no" opens the player's turn.
        assert_eq!(
            again.clone().reduce(computer_observe(missed.version, true)),
            again
        );
        let done = again.clone().reduce(computer_observe(again.version, false));
        assert!(!done.observe_again);
        assert!(!done.computer_thinking());
        assert_eq!(done.game, again.game);
        // A placement without an observation leaves nothing to decide.
        let quiet = shown()
            .reduce(Action::SetOpponent(Opponent::Computer(Player::White)))
            .reduce(place(Player::Black, 7, 7));
        let quiet = quiet
            .clone()
            .reduce(computer_turn(quiet.version, 7, 8, false));
        assert!(!quiet.observe_again);
    }

    #[test]
    fn undo_against_the_computer_takes_back_its_stone_and_the_players() {
        let state = shown()
            .reduce(Action::SetOpponent(Opponent::Computer(Player::White)))
            .reduce(place(Player::Black, 7, 7));
        let state = state
            .clone()
            .reduce(computer_turn(state.version, 7, 8, false));
        let state = state.reduce(place(Player::Black, 6, 6));
        let state = state
            .clone()
            .reduce(computer_turn(state.version, 5, 5, false));
        let undone = state.reduce(Action::Apply(Command::Undo));
        let game = undone.game.as_ref().expect("a game");
        assert_eq!(game.state().turn_count, 2);
        assert_eq!(game.state().current_player, Player::Black);
        // Back to the start, then nothing is left to take back.
        let undone = undone.reduce(Action::Apply(Command::Undo));
        let first = undone.game.as_ref().expect("a game");
        assert_eq!(first.state().turn_count, 0);
        assert!(!can_undo(first, undone.opponent));
    }

    #[test]
    fn undo_against_the_computer_is_refused_whole_after_an_observation() {
        // The player observed before the computer's stone: taking back only the
        // computer's stone would hand it the same move again, so nothing is undone.
        let state = shown()
            .reduce(Action::SetOpponent(Opponent::Computer(Player::White)))
            .reduce(place(Player::Black, 7, 7))
            .reduce(Action::Apply(Command::Observe {
                player: Player::Black,
                seed: Some(1),
            }));
        let state = state
            .clone()
            .reduce(computer_turn(state.version, 7, 8, false));
        let refused = state.clone().reduce(Action::Apply(Command::Undo));
        assert_eq!(refused.game, state.game);
        assert!(matches!(
            refused.last_error,
            Some(PageError::Rule(RuleError::UndoAfterObservation))
        ));
    }

    #[test]
    fn opponent_values_round_trip() {
        for o in Opponent::ALL {
            assert_eq!(Opponent::parse(o.as_str()), Some(o));
        }
        assert_eq!(Opponent::parse("computer"), None);
    }

    #[test]
    fn commands_before_a_game_exists_are_ignored() {
        let state = Rc::new(QgState::default()).reduce(Action::Apply(Command::Undo));
        assert_eq!(*state, QgState::default());
    }
}
