//! The Quantum Gomoku `Reducible`: wraps the engine's `Game`; `reduce` only applies commands and records the last error.

use std::rc::Rc;

use quantum_gomoku::{Command, Game, OptionsError, RuleError};
use yew::prelude::*;

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
}

#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// Show this game (new, resumed or loaded). It is built by the caller,
    /// which owns the clock and the entropy.
    Show {
        game: Box<Game>,
        notice: Option<Notice>,
    },
    /// Apply one engine command to the shown game.
    Apply(Command),
    /// Record a refusal that did not come from the engine.
    Refuse(PageError),
    /// Forget the error and the notice.
    Dismiss,
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
            }),
            Action::Apply(command) => {
                let Some(game) = &self.game else {
                    return self;
                };
                let mut next = game.clone();
                match next.apply(command) {
                    Ok(_) => Rc::new(QgState {
                        game: Some(next),
                        last_error: None,
                        notice: None,
                        version: self.version + 1,
                    }),
                    Err(e) => Rc::new(QgState {
                        last_error: Some(PageError::Rule(e)),
                        ..(*self).clone()
                    }),
                }
            }
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
    use quantum_gomoku::{GameOptions, Player, Position};

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

    #[test]
    fn commands_before_a_game_exists_are_ignored() {
        let state = Rc::new(QgState::default()).reduce(Action::Apply(Command::Undo));
        assert_eq!(*state, QgState::default());
    }
}
