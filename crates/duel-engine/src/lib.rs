//! The rules engine of a Yu-Gi-Oh! first-turn-kill solitaire.
//!
//! A duel is plain data ([`Duel`]): cards are data (`data/cards.json`), effects are
//! programs in a small closed step language ([`effect`]), and decisions the player must
//! make are stored prompts answered with [`Command::Respond`]. One entry point changes a
//! duel, [`Duel::apply`], which either applies a command fully or refuses it with a
//! [`RuleError`] and changes nothing. [`Duel::legal_commands`] lists what the player may
//! do; [`Duel::view`] is what they may see. Randomness comes from the seed the duel
//! carries, so a deck id, a seed and a command log replay a game exactly.
//!
//! Rulings follow the official rules where the original simulator simplified; see the
//! crate README for the choices made where rulings are uncertain.

pub mod analysis;
pub mod card;
pub mod command;
mod data;
#[cfg(feature = "custom-decks")]
mod deal;
pub mod deck;
#[cfg(feature = "custom-decks")]
pub mod deck_file;
#[cfg(feature = "custom-decks")]
pub mod deck_list;
pub mod effect;
mod engine;
pub mod error;
pub mod event;
pub mod replay;
pub mod setup;
pub mod solver;
pub mod state;
pub mod stats;
pub mod text;
pub mod view;

pub use card::{CardDef, CardType, Code, Frame, SpellType, card, catalog};
pub use command::{Command, Response};
#[doc(hidden)]
pub use data::decode_catalog;
#[cfg(feature = "custom-decks")]
pub use deal::{CUSTOM_DECK_ID, Custom, Opening};
pub use deck::{DeckDef, deck, decks};
#[cfg(feature = "custom-decks")]
pub use deck_list::{DeckList, DeckProblem};
pub use effect::SummonKind;
pub use error::{BadResponse, RuleError, SynchroMiss, Unmet};
pub use event::{Event, GameEvent, MoveReason};
pub use setup::{ReplayError, Setup, SetupError};
pub use state::{
    CardId, CardInstance, Duel, Face, LastKnown, Location, OrderOf, Outcome, Phase, Player,
    Position, Reason, Settings, Summoned, swap_cards,
};
pub use text::Lang;
pub use view::{
    CardView, ChainLinkView, ChoiceOption, DuelView, Meaning, PromptKind, PromptView, Question,
    SideView,
};
