//! The duel simulator's pages (home with the deck choice, recipe, simulator), its widgets
//! (`DuelField`, `Hands`, `EffectDialog`, ...), the reducer around the engine and the
//! autosave format. The home page, which lists every game, belongs to the `duel` bundle;
//! the replay and statistics pages to the `duel-analysis` bundle (the module is built for
//! either feature, and each bundle's router links in only its own pages).

pub mod card_detail;
pub mod card_preview;
pub mod card_view;
#[cfg(feature = "duel-analysis")]
pub mod deck_lab;
pub mod duel_field;
pub mod duel_header;
pub mod duel_log;
pub mod effect_dialog;
pub mod end_turn;
pub mod field_menu;
pub mod game_over;
pub mod hands;
pub mod hint;
pub mod history;
pub mod home;
pub mod jobs;
pub mod motion;
pub mod no_return;
pub mod pile_list;
pub mod practice;
pub mod recipe;
pub mod replay_page;
pub mod reveal_dialog;
pub mod save;
pub mod simulator;
pub mod state;
pub mod stats_page;
pub mod test_seeds;
pub mod toasts;
