//! The project's browser front end: a hash-routed Yew app hosting the games.

pub mod app;
#[cfg(feature = "battle-line")]
pub mod battle_line;
#[cfg(feature = "duel")]
pub mod components;
#[cfg(feature = "duel")]
pub mod duel_state;
pub mod i18n;
#[cfg(feature = "quantum-gomoku")]
pub mod quantum_gomoku;
pub mod route;
pub mod save;
pub mod storage;
#[cfg(feature = "duel")]
pub mod test_seeds;

pub use app::App;
