//! The duel's practice tools and the worker jobs behind them.
//!
//! The practice bar (undo and redo, share, retry), the replays undo rests on, the hint, the
//! "still winnable?" indicator, the point of no return, and the jobs the worker runs for
//! them.

pub mod bar;
pub mod hint;
pub mod history;
pub mod jobs;
pub mod no_return;
pub mod winnable;
