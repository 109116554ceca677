//! Battle Line in the browser: the page, its table and hand, the reducer, the computer's turn, the worker job and the texts.

pub mod board;
pub mod card;
pub mod computer;
pub mod hand;
pub mod jobs;
pub mod page;
pub mod state;
pub mod text;
