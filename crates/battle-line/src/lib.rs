//! Battle Line rules engine: cards, formations, claims, turns, views and a computer opponent.

pub mod card;
pub mod error;
pub mod formation;
pub mod game;
pub mod odds;
pub mod view;

pub use card::{Card, Color, Tactic, TacticKind, Troop, TroopSet};
pub use error::{ClaimRefusal, ReplayError, RuleError};
pub use formation::{Completion, FormationKind, Judging, Strength, best_formation, best_of_kind};
pub use game::{
    ClaimTiming, Command, Deal, DealError, Deck, Destination, Event, FLAGS, Flag, Game, GameRecord,
    HAND_SIZE, Phase, Player, Prompt, Settings, TOTAL_CARDS, Target, Victory, command_card,
};
pub use view::{HiddenHand, PlayerView, TableView};
pub mod bot;
