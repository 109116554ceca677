//! What happened: game events (every card move, as the rules see it) and the events the
//! UI shows as messages and animations, derived from them.

use serde::{Deserialize, Serialize};

use crate::card::Code;
use crate::effect::{Restriction, SummonKind};
use crate::state::{CardId, Location, Outcome, Phase, Player, Position};

/// Why a card moved.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MoveReason {
    /// Drawn from the deck.
    Draw,
    /// Paid as the cost of an activation.
    Cost,
    /// Moved by a resolving effect.
    Effect,
    /// Summoned (the summoned card itself).
    Summon,
    /// Set face-down on the field from the hand.
    Set,
    /// Tributed for a Tribute Summon.
    Tribute,
    /// Sent to the graveyard as Synchro Material.
    Material,
    /// Destroyed by an effect.
    Destroy,
    /// A rule of the game: a Normal or Quick-Play Spell leaving after resolving, a Field
    /// Spell replaced, an equip card without a monster, the hand size limit.
    Rule,
    /// A card played from the hand to the field to be activated or Set.
    Play,
}

/// One card move, recorded by the single movement primitive. Triggers and the UI's
/// move messages are derived from these.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameEvent {
    /// Moves that happen together (one step, one summon) share a number.
    pub seq: u32,
    pub card: CardId,
    pub code: Code,
    pub from: Location,
    pub to: Location,
    /// Controller before and after the move.
    pub from_player: Player,
    pub to_player: Player,
    pub reason: MoveReason,
    /// Sent from the hand as a discard (not just sent to the graveyard).
    pub discard: bool,
    /// Set when the move was a summon.
    pub summon: Option<SummonKind>,
    /// The card was face-up before the move.
    pub was_face_up: bool,
    /// The card whose effect, cost or rule moved it.
    pub by: Option<CardId>,
}

/// A card as a message may name it: `None` when the player may not know which card it is.
pub type Shown = Option<Code>;

/// One thing that happened, for messages and animations. Events never reveal hidden
/// cards: a card the player may not see is `None`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "event")]
pub enum Event {
    PhaseChanged {
        phase: Phase,
    },
    /// A card or effect was activated and became chain link `link`.
    Activated {
        player: Player,
        card: Code,
        kind: crate::effect::EffectKind,
        link: u8,
    },
    /// Chain link `link` starts resolving.
    Resolving {
        card: Code,
        link: u8,
    },
    ModeChosen {
        card: Code,
        effect: u8,
        mode: u8,
    },
    Drew {
        player: Player,
        count: u8,
    },
    /// Cards moved together from one zone to another (derived from game events).
    Moved {
        player: Player,
        from: Location,
        to: Location,
        reason: MoveReason,
        discard: bool,
        cards: Vec<Shown>,
    },
    Summoned {
        player: Player,
        card: Code,
        kind: SummonKind,
        position: Position,
    },
    MonsterSet {
        player: Player,
    },
    SpellTrapSet {
        player: Player,
    },
    Shuffled {
        player: Player,
    },
    Revealed {
        player: Player,
        cards: Vec<Code>,
    },
    LevelDeclared {
        player: Player,
        level: u8,
    },
    /// A Token left the field and vanished.
    Vanished {
        card: Code,
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
    Equipped {
        card: Code,
        to: Code,
    },
    CountersChanged {
        card: Code,
        counters: u8,
    },
    PositionChanged {
        card: Code,
        position: Position,
    },
    NoValidCards {
        card: Code,
    },
    Fizzled {
        card: Code,
    },
    /// An optional "when" trigger could not be activated: its event was not the last
    /// thing that happened.
    MissedTiming {
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
