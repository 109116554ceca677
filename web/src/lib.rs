//! The project's browser front end: a hash-routed Yew app hosting the games.

// Lets the test-only modules included from web/tests/ (the duel's seeds) name this crate
// as the browser tests do.
#[cfg(test)]
extern crate self as web;

pub mod app;
#[cfg(any(feature = "battle-line", feature = "battle-line-online"))]
pub mod battle_line;
pub mod ctx;
#[cfg(any(feature = "duel", feature = "duel-analysis", feature = "deck-lab"))]
pub mod duel;
pub mod help;
pub mod i18n;
#[cfg(feature = "worker")]
mod jobs;
#[cfg(any(feature = "battle-line", feature = "quantum-gomoku"))]
pub mod keys;
#[cfg(any(
    feature = "quantum-gomoku",
    feature = "battle-line",
    feature = "battle-line-online"
))]
pub mod live;
pub mod modal;
pub mod offline;
pub mod prefs;
#[cfg(feature = "quantum-gomoku")]
pub mod quantum_gomoku;
pub mod route;
pub mod storage;
#[cfg(feature = "worker")]
pub mod worker;

pub use app::App;
