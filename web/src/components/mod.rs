//! UI components: pages (home, recipe, simulator) and the duel's widgets (all part of the
//! `duel` bundle, whose home page lists every game).

pub mod card_detail;
pub mod card_view;
pub mod duel_field;
pub mod duel_header;
pub mod effect_dialog;
pub mod game_over;
pub mod hands;
pub mod home;
pub mod pile_list;
pub mod recipe;
pub mod simulator;
pub mod toasts;
