//! The duel page's widgets, named after the original app's components.
//!
//! The field (`DuelField`), the hands (`Hands`), cards and their details, the piles, the
//! dialogs (`EffectDialog`, reveal, end of turn, game over), the header, the log, toasts
//! and the cards' motion.

pub mod card_detail;
pub mod card_preview;
pub mod card_view;
pub mod duel_field;
pub mod duel_header;
pub mod duel_log;
pub mod effect_dialog;
pub mod end_turn;
pub mod field_menu;
pub mod game_over;
pub mod hands;
pub mod motion;
pub mod pile_list;
pub mod reveal_dialog;
pub mod toasts;
