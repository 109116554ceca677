//! The duel's pages, one file a route.
//!
//! Home (with the deck choice), the recipe, the simulator, a shared game's replay and the
//! deck statistics.

pub mod home;
pub mod recipe;
pub mod replay_page;
pub mod simulator;
pub mod stats_page;
