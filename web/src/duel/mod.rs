//! The duel simulator in the browser, its folders grouped by role.
//!
//! `pages/` one file a route, `board/` the widgets named after the original's components
//! (`DuelField`, `Hands`, `EffectDialog`, ...), `practice/` the practice tools (undo and
//! redo, share, the hint, the point of no return and their worker jobs); at the top the
//! reducer around the engine (`state`) and the autosave format (`save`). The home page,
//! which lists every game, belongs to the `duel` bundle; the replay and statistics pages
//! to the `duel-analysis` bundle (the module is built for either feature, and each
//! bundle's router links in only its own pages).

pub mod board;
pub mod pages;
pub mod practice;
pub mod save;
pub mod state;

// The browser tests' seeds and click scripts live with those tests (web/tests/common/);
// the unit tests that replay them, and the seeds' own checks, include them here.
#[cfg(test)]
#[path = "../../tests/common/seeds.rs"]
pub mod test_seeds;
