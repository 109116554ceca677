//! The player's commands: the only way to change a duel.

use serde::{Deserialize, Serialize};

use crate::state::CardId;

/// Something the player does. Illegal commands are refused with a [`crate::RuleError`]
/// and change nothing.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "cmd")]
pub enum Command {
    /// Normal Summon a monster from the hand in face-up Attack Position.
    SummonMonster { card: CardId },
    /// Normal Set a monster from the hand in face-down Defense Position.
    SetMonster { card: CardId },
    /// Set a spell or trap from the hand face-down (field spells to the field zone).
    SetSpellTrap { card: CardId },
    /// Activate a spell or trap card, from the hand or face-down on the field.
    ActivateSpell { card: CardId },
    /// Activate the ignition effect of a face-up card you control.
    ActivateEffect { card: CardId },
    /// Synchro Summon a monster from your Extra Deck (the materials are chosen next).
    SynchroSummon { card: CardId },
    /// Decline to chain: the chain starts resolving.
    PassChain,
    /// Move on to the next phase (Draw -> Standby -> Main 1 -> End). The duel starts in
    /// Main Phase 1, so in play this is the same as `EndTurn`.
    AdvancePhase,
    /// Go to the End Phase and end the turn.
    EndTurn,
    /// Answer the pending prompt.
    Respond(Response),
}

/// An answer to a prompt.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "answer", content = "value")]
pub enum Response {
    /// The chosen cards of a card selection.
    Cards(Vec<CardId>),
    /// The chosen option (an index among the prompt's options).
    Option(u8),
}
