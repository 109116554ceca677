//! Battle Line in the browser: the page, its table and hand, the reducer, the computer's
//! turn, the worker job and the texts; and the online lobby and table (their own bundle,
//! `battle-line-online`).

#[cfg(feature = "battle-line")]
pub mod board;
pub mod card;
#[cfg(feature = "battle-line")]
pub mod computer;
#[cfg(feature = "battle-line")]
pub mod hand;
#[cfg(feature = "battle-line")]
pub mod jobs;
pub mod online;
#[cfg(feature = "battle-line-online")]
pub mod online_page;
#[cfg(feature = "battle-line")]
pub mod page;
// The online bundle reads only its `card_id`.
pub mod state;
pub mod text;
