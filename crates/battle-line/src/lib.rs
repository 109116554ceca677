//! Battle Line rules engine: cards, formations, claims, turns, views and a computer opponent.

pub mod card;
pub mod formation;
