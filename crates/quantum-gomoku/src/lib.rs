//! Quantum Gomoku: a rules engine for five-in-a-row with probabilistic stones.
//!
//! Each stone is black with some probability (90, 70, 30 or 10 percent); an
//! observation collapses all of them at once and a line of `winLength` (default
//! 3) of one colour wins. The crate is pure Rust with no clock and no global
//! random source, so it runs natively and in `wasm32-unknown-unknown`:
//!
//! - [`Game`]: one game; [`Game::apply`] takes a [`Command`] and returns an
//!   [`Event`] or a [`RuleError`] (which changes nothing); [`Game::view`]
//!   gives what a UI draws; [`Game::to_json`]/[`Game::from_json`] save it.
//! - [`win_probability`]: the chance of each colour having a line if someone
//!   observed now (exact for few stones, seeded Monte-Carlo otherwise).
//! - [`service::GameService`]: a bounded in-memory store with the HTTP API's
//!   semantics and error model, used by the server crate.

mod bitboard;
pub mod bot;
mod game;
mod id;
mod model;
mod options;
pub mod probability;
pub mod service;
mod state;
mod view;

pub use game::{Command, Event, Game, LoadError, LogEntry, ObservationResult, RuleError, collapse};
pub use id::{GameId, InvalidId, iso8601_from_millis};
pub use model::{Player, Position, ProbabilityType, Stone};
pub use options::{
    DEFAULT_BOARD_SIZE, DEFAULT_WIN_LENGTH, GameOptions, MAX_BOARD_SIZE, MIN_BOARD_SIZE,
    MIN_WIN_LENGTH, OBSERVATIONS_PER_PLAYER, OptionsError,
};
pub use probability::{ProbabilityConfig, ProbabilityMethod, WinProbability, win_probability};
pub use seeded_rng::Rng;
pub use state::{Board, GameState, GameStatus};
pub use view::{CellView, GameView, ObservationView, ObserveButton, PlayerCounters, StoneView};
