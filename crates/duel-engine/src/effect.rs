//! The effect language: conditions, steps and rules that card data is written in.
//!
//! Every chainable action is `CONDITIONS : ACTIVATION ; RESOLUTION`. Conditions decide
//! whether it may be activated; activation steps (costs, targets) run at once and are
//! never undone; resolution steps run when its chain link resolves. The set of steps
//! is closed: each is implemented once in `engine::steps`, and cards only combine them.

use serde::{Deserialize, Serialize};

use crate::card::{CardType, Code, Frame, SpellType};

/// Who a step or condition is about, seen from the card's controller.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Who {
    You,
    Opponent,
}

/// How an effect is started.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EffectKind {
    /// Activating a spell or trap card itself.
    Activation,
    /// An ignition effect of a face-up card, started in your Main Phase.
    Ignition,
}

/// Which once-per-turn limit an effect has.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OncePerTurn {
    /// "Once per turn": per copy of the card.
    Card,
    /// "You can only activate 1 <name> per turn": shared by every copy.
    Name,
}

/// An activated effect of a card.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EffectDef {
    pub kind: EffectKind,
    #[serde(default)]
    pub once_per_turn: Option<OncePerTurn>,
    /// Nobody may chain to this activation (e.g. Chicken Game's ignition).
    #[serde(default)]
    pub no_responses: bool,
    #[serde(default)]
    pub conditions: Vec<Condition>,
    /// Costs and targets, done at activation.
    #[serde(default)]
    pub cost: Vec<Step>,
    /// What happens on resolution (for effects without modes).
    #[serde(default)]
    pub resolve: Vec<Step>,
    /// "Choose one of these" effects: the mode is picked at activation.
    #[serde(default)]
    pub modes: Vec<Mode>,
}

/// One choice of a modal effect.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Mode {
    pub label_ja: String,
    pub label_en: String,
    #[serde(default)]
    pub conditions: Vec<Condition>,
    pub resolve: Vec<Step>,
}

/// A named register of an effect's locals where chosen cards are kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reg {
    A,
    B,
    /// Targets chosen at activation; resolution only uses those still valid.
    Targets,
    /// Cards revealed from the top of the deck.
    Revealed,
}

/// Whether the activating card itself counts in a hand-size condition.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum SelfInHand {
    /// The card being activated counts (it is still in the hand when checked).
    #[default]
    Counts,
    /// Only the other cards count.
    Excluded,
    /// Decided by `Settings::into_the_void_counts_itself` (rulings disagree).
    BySetting,
}

/// A card filter. Every field that is set must match.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct Filter {
    #[serde(default, rename = "type")]
    pub card_type: Option<CardType>,
    #[serde(default)]
    pub frame: Option<Frame>,
    #[serde(default)]
    pub sub: Option<SpellType>,
    #[serde(default)]
    pub max_atk: Option<u16>,
    #[serde(default)]
    pub max_def: Option<u16>,
    #[serde(default)]
    pub level: Option<u8>,
    #[serde(default)]
    pub max_level: Option<u8>,
    #[serde(default)]
    pub name_contains_ja: Option<String>,
}

/// Where a step picks cards from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Source {
    Hand,
    Deck,
    Graveyard,
    MonsterZone,
    /// Cards held in a register, e.g. the revealed top 3 of the deck.
    Reg {
        reg: Reg,
    },
}

/// Where a step moves cards to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Dest {
    Hand,
    /// Discarded (from the hand, as a discard).
    Discard,
    /// Sent to the graveyard (not a discard).
    Graveyard,
    /// Put into the deck; a `ShuffleDeck` step usually follows.
    Deck,
    Banished,
}

/// How many cards a selection may take at most: a number, or `"all"` in the data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Max {
    N(u8),
    All,
}

// Written by hand: serde's untagged enums buffer their input, which costs the browser
// bundle more code than this visitor.
impl Serialize for Max {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Max::N(n) => s.serialize_u8(*n),
            Max::All => s.serialize_str("all"),
        }
    }
}

impl<'de> Deserialize<'de> for Max {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = Max;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a count from 0 to 255 or \"all\"")
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Max, E> {
                u8::try_from(v)
                    .map(Max::N)
                    .map_err(|_| E::invalid_value(serde::de::Unexpected::Unsigned(v), &self))
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Max, E> {
                if v == "all" {
                    Ok(Max::All)
                } else {
                    Err(E::invalid_value(serde::de::Unexpected::Str(v), &self))
                }
            }
        }
        d.deserialize_any(V)
    }
}

/// What a prompt asks the player for, so the UI can title it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Purpose {
    Discard,
    SendToGraveyard,
    AddToHand,
    ShuffleIntoDeck,
    Target,
    Tribute,
}

/// A lasting restriction an effect puts on the duel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Restriction {
    /// The controller cannot Special Summon for the rest of this turn (an oath).
    NoSpecialSummon,
    /// `who` takes no damage. `until_opponent_turn_end` extends it through the next
    /// turn of the controller's opponent; otherwise it ends with this turn.
    NoDamage {
        who: Who,
        #[serde(default)]
        until_opponent_turn_end: bool,
    },
}

/// A condition that must hold to activate an effect (or to go on resolving it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Condition {
    /// `who` has at least `n` cards in the deck (so `n` draws can happen).
    DeckAtLeast { who: Who, n: u8 },
    /// `who` has at least `n` cards in hand.
    HandAtLeast {
        who: Who,
        n: u8,
        #[serde(default)]
        this_card: SelfInHand,
    },
    /// You have at most `n` cards in hand besides this card.
    HandAtMostOthers { n: u8 },
    /// Your deck holds enough cards to draw until your hand (without this card) has `n`.
    CanDrawUntil { hand: u8 },
    /// At least `n` cards matching `filter` are in `zone` (yours).
    Exists {
        zone: Source,
        #[serde(default)]
        filter: Filter,
        n: u8,
    },
    /// At least `n` cards matching `filter` in your hand besides this card.
    OthersInHand {
        #[serde(default)]
        filter: Filter,
        n: u8,
    },
    /// Your LP is at least `n` (paying exactly all of it is allowed).
    LpAtLeast { n: u32 },
    /// You have not Special Summoned this turn.
    NoSpecialSummonThisTurn,
}

/// One step of an effect. Implemented once each in the engine.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Step {
    /// `who` draws `n` cards. Drawing from an empty deck loses the duel.
    Draw {
        who: Who,
        n: u8,
    },
    /// You draw until you hold `hand` cards.
    DrawUntil {
        hand: u8,
    },
    /// You draw as many cards as the register holds.
    DrawCountOf {
        reg: Reg,
    },
    GainLp {
        who: Who,
        amount: u32,
    },
    /// A cost: you pay LP.
    PayLp {
        amount: u32,
    },
    /// Effect damage, unless a rule prevents it.
    Damage {
        who: Who,
        amount: u32,
    },
    /// You choose cards into a register (a prompt unless the choice is forced).
    Select {
        from: Source,
        #[serde(default)]
        filter: Filter,
        min: u8,
        max: Max,
        into: Reg,
        purpose: Purpose,
        /// Leave the activating card out of the candidates.
        #[serde(default)]
        exclude_self: bool,
    },
    /// The opponent chooses `n` cards from their own hand (the scarecrow picks at random
    /// from the duel's seeded RNG).
    OpponentSelectHand {
        n: u8,
        into: Reg,
    },
    /// Reveal the top `n` cards of your deck into a register (they stay in the deck).
    Excavate {
        n: u8,
        into: Reg,
    },
    /// Move the register's cards that are still where they were chosen to `to`.
    Move {
        reg: Reg,
        to: Dest,
    },
    /// Move `who`'s whole hand.
    MoveHand {
        who: Who,
        to: Dest,
    },
    /// Send this card from the field to the graveyard (destroy it).
    DestroySelf,
    /// Shuffle your deck.
    ShuffleDeck,
    /// Put a lasting restriction on the duel.
    Restrict {
        restriction: Restriction,
    },
    /// Do these steps in this turn's End Phase.
    AtEndPhase {
        steps: Vec<Step>,
    },
    /// Stop resolving (without error) unless the condition holds now.
    StopUnless {
        condition: Condition,
    },
}

/// A rule that applies without activation while the card is in the given place.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum RuleDef {
    /// Holding this card and all `pieces` in hand wins the duel.
    WinWithAllInHand { pieces: Vec<Code> },
    /// While this card is face-up on the field, the player with less LP takes no damage.
    LowerLpTakesNoDamage,
}
