//! Quantum Gomoku in the browser: the page, its board and panels, on top of the `quantum-gomoku` engine.

pub mod board;
pub mod jobs;
pub mod online;
pub mod page;
pub mod panels;
pub mod state;
pub mod store;
pub mod text;
