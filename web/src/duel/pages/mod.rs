//! The duel's pages, one file a route.
//!
//! Home (with the deck choice), the recipe, the simulator, a shared game's replay, the
//! deck statistics and the deck lab.

#[cfg(feature = "deck-lab")]
pub mod compare;
#[cfg(feature = "deck-lab")]
pub mod deck_lab;
pub mod home;
#[cfg(feature = "deck-lab")]
pub mod lab_play;
pub mod recipe;
pub mod replay_page;
pub mod simulator;
pub mod stats_page;
