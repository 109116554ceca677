//! What happened while a command was applied, for messages and animations.

use serde::{Deserialize, Serialize};

use crate::card::Code;
use crate::effect::{Dest, Restriction};
use crate::state::{Outcome, Phase, Player};

/// One thing that happened. Events never reveal hidden cards: draws and cards
/// returned to the deck are counts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "event")]
pub enum Event {
    PhaseChanged {
        phase: Phase,
    },
    Activated {
        player: Player,
        card: Code,
        ignition: bool,
    },
    Resolving {
        card: Code,
    },
    ModeChosen {
        card: Code,
        mode: u8,
    },
    Drew {
        player: Player,
        count: u8,
    },
    Moved {
        player: Player,
        to: Dest,
        cards: Vec<Code>,
    },
    ReturnedToDeck {
        player: Player,
        count: u8,
    },
    Shuffled {
        player: Player,
    },
    Revealed {
        player: Player,
        cards: Vec<Code>,
    },
    LpPaid {
        player: Player,
        amount: u32,
        lp: u32,
    },
    LpGained {
        player: Player,
        amount: u32,
        lp: u32,
    },
    Damaged {
        player: Player,
        amount: u32,
        lp: u32,
    },
    DamagePrevented {
        player: Player,
        amount: u32,
    },
    Summoned {
        player: Player,
        card: Code,
    },
    MonsterSet {
        player: Player,
    },
    SpellTrapSet {
        player: Player,
    },
    FieldSpellReplaced {
        card: Code,
    },
    Destroyed {
        card: Code,
    },
    NoValidCards {
        card: Code,
    },
    Fizzled {
        card: Code,
    },
    Restricted {
        player: Player,
        restriction: Restriction,
    },
    EndPhaseEffect {
        card: Code,
    },
    GameOver {
        outcome: Outcome,
    },
}

impl Event {
    /// A one-line message for a toast, in the player's language.
    pub fn message(&self, lang: crate::Lang) -> String {
        crate::text::event(self, lang)
    }
}
