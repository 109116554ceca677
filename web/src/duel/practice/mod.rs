//! The duel's practice tools: the practice bar (undo and redo, share, retry), the log's
//! rebuild for undo, the hint, the point of no return, and the worker jobs behind them.

pub mod bar;
pub mod hint;
pub mod history;
pub mod jobs;
pub mod no_return;
