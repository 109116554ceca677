//! The effect language: conditions, steps, values and rules that card data is written in.
//!
//! Every chainable action is `CONDITIONS : ACTIVATION ; RESOLUTION`. Conditions decide
//! whether it may be activated; activation steps (costs, targets) run at once and are
//! never undone; resolution steps run when its chain link resolves. The set of steps
//! is closed: each is implemented once in `engine::steps`, and cards only combine them.
//! Steps remember what they chose or moved in registers ([`Reg`]) that later steps,
//! values ([`Amount`]) and delayed End Phase effects read.

use serde::{Deserialize, Serialize};

use crate::card::{CardType, Code, Frame, SpellType};
use crate::state::Position;

/// Who a step or condition is about, seen from the card's controller.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(test, derive(borsh::BorshSerialize))]
pub enum Who {
    You,
    Opponent,
}

/// How an effect is started.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(test, derive(borsh::BorshSerialize))]
pub enum EffectKind {
    /// Activating a spell or trap card itself.
    Activation,
    /// An ignition effect of a face-up card, started in your Main Phase.
    Ignition,
    /// A trigger effect: started by an event ([`TriggerDef`]), activated once the chain
    /// in which the event happened has resolved.
    Trigger,
}

/// Which once-per-turn limit an effect has.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(test, derive(borsh::BorshSerialize))]
pub enum OncePerTurn {
    /// "Once per turn": per copy of the card.
    Card,
    /// "You can only activate 1 `<name>` per turn": shared by every copy.
    Name,
}

/// How a monster was summoned (the "summon kind" of a game event).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(test, derive(borsh::BorshSerialize))]
pub enum SummonKind {
    /// A Normal Summon (a Tribute Summon is one too).
    Normal,
    /// A Special Summon by a card's effect.
    Special,
    /// A Synchro Summon (a Special Summon by the game's procedure).
    Synchro,
    /// A Fusion Summon (a Special Summon by the game's procedure).
    Fusion,
}

impl SummonKind {
    /// Whether a trigger waiting for `pattern` fires on a summon of this kind ("Special
    /// Summoned" covers Synchro and Fusion Summons).
    pub fn matches(self, pattern: SummonKind) -> bool {
        self == pattern
            || (pattern == SummonKind::Special
                && matches!(self, SummonKind::Synchro | SummonKind::Fusion))
    }
}

/// What starts a trigger effect.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[cfg_attr(test, derive(borsh::BorshSerialize))]
pub enum TriggerOn {
    /// This card was sent from the field to the graveyard (a discard or a mill from the
    /// deck does not count).
    SentFromFieldToGraveyard,
    /// This card was summoned in one of these ways.
    Summoned { how: Vec<SummonKind> },
    /// Another monster was Synchro Summoned while this card was face-up on the field.
    OtherSynchroSummoned,
    /// A monster was sent from its controller's Monster Zone to the graveyard (a Token
    /// vanishes and a banished card is not sent there, so neither counts). Armed only by
    /// a [`Step::Watch`] of the card (Last Will), once, for the rest of the turn.
    WatchedMonsterToGraveyard,
}

/// "When ..." or "If ...": only an optional "when" trigger can miss its timing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(test, derive(borsh::BorshSerialize))]
pub enum Timing {
    /// Activated only if its event was the last thing that happened.
    When,
    #[default]
    If,
}

/// The event side of a trigger effect.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(test, derive(borsh::BorshSerialize))]
pub struct TriggerDef {
    pub on: TriggerOn,
    /// "You can": the player is asked. Otherwise it is mandatory.
    #[serde(default)]
    pub optional: bool,
    #[serde(default)]
    pub timing: Timing,
}

/// An activated effect of a card.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(test, derive(borsh::BorshSerialize))]
pub struct EffectDef {
    pub kind: EffectKind,
    /// What starts it, for trigger effects.
    #[serde(default)]
    pub trigger: Option<TriggerDef>,
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

impl EffectDef {
    /// Every step of the effect, in every mode.
    pub fn steps(&self) -> impl Iterator<Item = &Step> {
        self.cost
            .iter()
            .chain(&self.resolve)
            .chain(self.modes.iter().flat_map(|m| m.resolve.iter()))
    }

    /// Whether resolving it would Special Summon: such effects cannot be activated while
    /// the player may not Special Summon (an oath, ruling 0.3 (b)). `card` is every effect
    /// of its card: a [`Step::Watch`] arms one of them (Last Will's summon from the deck),
    /// so what that effect will do counts too.
    pub fn special_summons(&self, card: &[EffectDef]) -> bool {
        // `card` is empty when looking into a watched effect: a watch armed by a watched
        // effect is followed one level only, so data that watches itself cannot loop.
        fn any(steps: &[Step], card: &[EffectDef]) -> bool {
            steps.iter().any(|s| match s {
                Step::SpecialSummon { .. } | Step::CreateToken { .. } => true,
                Step::AtEndPhase { steps } => any(steps, card),
                Step::Watch { effect } => card
                    .get(usize::from(*effect))
                    .is_some_and(|e| e.special_summons(&[])),
                _ => false,
            })
        }
        any(&self.cost, card)
            || any(&self.resolve, card)
            || self.modes.iter().any(|m| any(&m.resolve, card))
    }
}

/// One choice of a modal effect.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(test, derive(borsh::BorshSerialize))]
pub struct Mode {
    pub label_ja: String,
    pub label_en: String,
    #[serde(default)]
    pub conditions: Vec<Condition>,
    pub resolve: Vec<Step>,
}

/// A named register of an effect's locals where chosen or moved cards are kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(test, derive(borsh::BorshSerialize))]
pub enum Reg {
    A,
    B,
    C,
    /// Targets chosen at activation; resolution only uses those still valid.
    Targets,
    /// Cards revealed from the top of the deck.
    Revealed,
}

impl Reg {
    /// Every register, in the order of their slots in an effect's locals.
    pub const ALL: [Reg; 5] = [Reg::A, Reg::B, Reg::C, Reg::Targets, Reg::Revealed];
}

/// A number an effect uses: a constant, or computed from the cards in a register.
/// Written as a plain number, or as `{"count": "a"}`, `{"level": "a"}`,
/// `{"half_atk": "a"}` in the data.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(test, derive(borsh::BorshSerialize))]
pub enum Amount {
    Fixed(u32),
    /// How many cards the register holds (e.g. "draw that many").
    Count(Reg),
    /// The Level of the register's first card (its current Level, or the Level it last
    /// had on the field if it left).
    Level(Reg),
    /// Half the ATK (rounded down) the register's first monster had as it last stood on
    /// the field (Catapult Turtle).
    HalfAtk(Reg),
    /// The number declared earlier in this effect (Reasoning's Level).
    Declared,
}

impl From<u32> for Amount {
    fn from(n: u32) -> Self {
        Amount::Fixed(n)
    }
}

impl Serialize for Amount {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let (key, reg) = match *self {
            Amount::Fixed(n) => return s.serialize_u32(n),
            Amount::Declared => return s.serialize_str("declared"),
            Amount::Count(r) => ("count", r),
            Amount::Level(r) => ("level", r),
            Amount::HalfAtk(r) => ("half_atk", r),
        };
        let mut m = s.serialize_map(Some(1))?;
        m.serialize_entry(key, &reg)?;
        m.end()
    }
}

// Written by hand: an untagged enum would buffer its input, which costs the browser
// bundle more code than this visitor.
impl<'de> Deserialize<'de> for Amount {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Amount;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(
                    "a number, \"declared\" or one of {\"count\"|\"level\"|\"half_atk\": register}",
                )
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Amount, E> {
                if v == "declared" {
                    Ok(Amount::Declared)
                } else {
                    Err(E::invalid_value(serde::de::Unexpected::Str(v), &self))
                }
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Amount, E> {
                u32::try_from(v)
                    .map(Amount::Fixed)
                    .map_err(|_| E::invalid_value(serde::de::Unexpected::Unsigned(v), &self))
            }
            fn visit_map<M: serde::de::MapAccess<'de>>(self, mut m: M) -> Result<Amount, M::Error> {
                use serde::de::Error;
                let key: String = m
                    .next_key()?
                    .ok_or_else(|| M::Error::invalid_length(0, &self))?;
                let reg: Reg = m.next_value()?;
                let amount = match key.as_str() {
                    "count" => Amount::Count(reg),
                    "level" => Amount::Level(reg),
                    "half_atk" => Amount::HalfAtk(reg),
                    other => {
                        return Err(M::Error::unknown_field(
                            other,
                            &["count", "level", "half_atk"],
                        ));
                    }
                };
                if m.next_key::<String>()?.is_some() {
                    return Err(M::Error::invalid_length(2, &self));
                }
                Ok(amount)
            }
        }
        d.deserialize_any(V)
    }
}

/// Whether the activating card itself counts in a hand-size condition.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(test, derive(borsh::BorshSerialize))]
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
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default, Hash)]
#[serde(deny_unknown_fields)]
#[cfg_attr(test, derive(borsh::BorshSerialize))]
pub struct Filter {
    #[serde(default, rename = "type")]
    pub card_type: Option<CardType>,
    /// A monster (`true`) or a Spell/Trap (`false`).
    #[serde(default)]
    pub monster: Option<bool>,
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
    /// The Level equals a value computed when the filter is used.
    #[serde(default)]
    pub level_is: Option<Amount>,
    #[serde(default)]
    pub name_contains_ja: Option<String>,
    #[serde(default)]
    pub race: Option<String>,
    #[serde(default)]
    pub tuner: Option<bool>,
    /// An Effect Monster (`true`) or a monster without effects (`false`: Normal
    /// Monsters, Tokens, Fusion or Synchro monsters without effects).
    #[serde(default)]
    pub effect: Option<bool>,
    /// Face-up (`true`) or face-down (`false`).
    #[serde(default)]
    pub face_up: Option<bool>,
    /// The monster may be used as a Tribute ("cannot be Tributed" excludes it).
    #[serde(default)]
    pub tributable: Option<bool>,
    /// The monster could be Special Summoned from where it is now (an Extra Deck
    /// monster in the graveyard or banished must have been properly summoned).
    #[serde(default)]
    pub summonable: Option<bool>,
    /// A monster that can be Normal Summoned or Set (a Main Deck monster; not a Token,
    /// Fusion or Synchro monster).
    #[serde(default)]
    pub normal_summonable: Option<bool>,
}

/// Where a step picks cards from. Zones are the effect controller's unless they say so.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Hash)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[cfg_attr(test, derive(borsh::BorshSerialize))]
pub enum Source {
    Hand,
    Deck,
    Graveyard,
    Banished,
    ExtraDeck,
    MonsterZone,
    /// Your Spell & Trap Zones and Field Zone.
    SpellTrapZone,
    OpponentGraveyard,
    /// Both players' graveyards, yours first.
    EitherGraveyard,
    /// Both players' monster zones, yours first.
    EitherMonsterZone,
    /// Both players' banished cards, yours first.
    EitherBanished,
    /// The monster this card is equipped to.
    EquippedMonster,
    /// The card whose effect this is.
    This,
    /// Cards held in a register, e.g. the revealed top 3 of the deck.
    Reg {
        reg: Reg,
    },
}

/// Where a step moves cards to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(test, derive(borsh::BorshSerialize))]
pub enum Dest {
    Hand,
    /// Discarded (from the hand, as a discard).
    Discard,
    /// Sent to the graveyard (not a discard).
    Graveyard,
    /// Tributed (to the graveyard, as a Tribute).
    Tribute,
    /// Sent to the graveyard as Synchro Material.
    Material,
    /// Put into the deck (an Extra Deck monster goes to the Extra Deck); a `ShuffleDeck`
    /// step usually follows.
    Deck,
    Banished,
    /// Banished face-down (Treasure Panda's cost): nothing can return it.
    BanishedFaceDown,
}

/// How many cards a selection may take at most: a number, or `"all"` in the data.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(test, derive(borsh::BorshSerialize))]
pub enum Max {
    N(u8),
    All,
}

// Written by hand for the same reason as `Amount`.
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
#[cfg_attr(test, derive(borsh::BorshSerialize))]
pub enum Purpose {
    Discard,
    SendToGraveyard,
    AddToHand,
    ShuffleIntoDeck,
    Target,
    Tribute,
    SpecialSummon,
    Banish,
    SynchroMaterial,
}

/// The position a Special Summon uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(test, derive(borsh::BorshSerialize))]
pub enum SummonPosition {
    /// Face-up Attack or face-up Defense, as the player chooses (the default, ruling 0.3).
    #[default]
    Choose,
    Attack,
    Defense,
}

/// A lasting restriction an effect puts on the duel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[cfg_attr(test, derive(borsh::BorshSerialize))]
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

/// A rule a whole selection must satisfy (not each card alone).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Hash)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[cfg_attr(test, derive(borsh::BorshSerialize))]
pub enum Constraint {
    /// The number of chosen cards, N, must be the Level of some card matching `filter`
    /// in `zone` (Treasure Panda: banish N to summon a Level N Normal Monster).
    CountIsLevelOf { zone: Source, filter: Filter },
    /// Synchro Materials for the Synchro monster whose summon asks: one Tuner and the
    /// right number of non-Tuners, their Levels adding up to its Level.
    SynchroMaterials,
}

/// A condition that must hold to activate an effect (or to go on resolving it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Hash)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[cfg_attr(test, derive(borsh::BorshSerialize))]
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
    /// At least `n` cards matching `filter` are in `zone`.
    Exists {
        zone: Source,
        #[serde(default)]
        filter: Filter,
        n: u8,
    },
    /// Some card matching `filter` in `zone` could be Special Summoned to its owner's
    /// field now: its owner may Special Summon and has a free Main Monster Zone
    /// (Dimension Fusion, rulings 5.7 and 0.4: "cannot be activated unless it can
    /// resolve").
    OwnerCanSummon {
        zone: Source,
        #[serde(default)]
        filter: Filter,
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
    /// You have at least `n` free Main Monster Zones.
    FreeMonsterZones { n: u8 },
    /// This card holds at least `n` counters.
    CountersAtLeast { n: u8 },
    /// The register holds at least `n` cards still where they were put.
    Holds { reg: Reg, n: u8 },
    /// This card is still face-up on the field.
    ThisOnField,
    /// A selection of `min` to `max` cards matching `filter` from `from` exists that
    /// satisfies the constraint.
    CanSelect {
        from: Source,
        #[serde(default)]
        filter: Filter,
        min: u8,
        max: u8,
        constraint: Constraint,
    },
}

/// One step of an effect. Implemented once each in the engine.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Hash)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[cfg_attr(test, derive(borsh::BorshSerialize))]
pub enum Step {
    /// `who` draws `n` cards. Drawing from an empty deck loses the duel.
    Draw {
        who: Who,
        n: Amount,
    },
    /// You draw until you hold `hand` cards.
    DrawUntil {
        hand: u8,
    },
    GainLp {
        who: Who,
        amount: Amount,
    },
    /// A cost: you pay LP.
    PayLp {
        amount: Amount,
    },
    /// Effect damage, unless a rule prevents it.
    Damage {
        who: Who,
        amount: Amount,
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
        /// A rule the whole selection must satisfy.
        #[serde(default)]
        constraint: Option<Constraint>,
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
    /// Reveal cards from the top of your deck until one matches `filter`: it goes into
    /// `found`, the cards above it into `rest` (they all stay in the deck until moved).
    ExcavateUntil {
        filter: Filter,
        found: Reg,
        rest: Reg,
    },
    /// Moves the register's cards that match `filter` into `into` (leaving the others).
    Split {
        reg: Reg,
        filter: Filter,
        into: Reg,
    },
    /// The opponent declares a Level from 1 to 12 (the scarecrow names the Level most
    /// common among the monsters left in your Main Deck, the lowest on a tie).
    OpponentDeclaresLevel,
    /// Move the register's cards that are still where they were put to `to`; the
    /// register then holds the cards that moved, where they are now.
    Move {
        reg: Reg,
        to: Dest,
    },
    /// Move `who`'s whole hand (remembered in `into`, if given).
    MoveHand {
        who: Who,
        to: Dest,
        #[serde(default)]
        into: Option<Reg>,
    },
    /// Destroy this card (it goes to the graveyard).
    DestroySelf,
    /// Shuffle your deck.
    ShuffleDeck,
    /// Special Summon the register's cards to your field; the register then holds the
    /// summoned monsters.
    SpecialSummon {
        reg: Reg,
        #[serde(default)]
        position: SummonPosition,
        /// Each card goes to its owner's field (Dimension Fusion: each player summons
        /// their own); otherwise to yours.
        #[serde(default)]
        owners_field: bool,
        /// At the same time as the previous step (Monster Gate: summon and send the rest
        /// to the graveyard together).
        #[serde(default)]
        together: bool,
    },
    /// Special Summon a Token with this passcode to your field.
    CreateToken {
        code: Code,
        #[serde(default)]
        position: SummonPosition,
    },
    /// Equip this card to the register's first monster, if it is still a face-up
    /// monster on the field (otherwise the equip card is sent to the graveyard when
    /// its activation finishes).
    Equip {
        reg: Reg,
    },
    /// A cost: remove `n` counters from this card.
    RemoveCounters {
        n: u8,
    },
    /// Change this monster to the given battle position (if it is still face-up on the field).
    ChangePosition {
        to: Position,
    },
    /// Put a lasting restriction on the duel.
    Restrict {
        restriction: Restriction,
    },
    /// Do these steps in this turn's End Phase; they see this effect's registers as
    /// they are now.
    AtEndPhase {
        steps: Vec<Step>,
    },
    /// Stop resolving (without error) unless the condition holds now.
    StopUnless {
        condition: Condition,
    },
    /// "If you did" / "then": stop unless the previous step fully happened (all its
    /// draws were made, all its cards moved, its LP paid).
    IfYouDid,
    /// "Otherwise": stop if the previous step fully happened (Monster Gate: a monster
    /// that could not be summoned goes to the graveyard).
    UnlessYouDid,
    /// Arm this card's trigger effect number `effect` for the rest of the turn: the first
    /// time its event happens it triggers, once (Last Will).
    Watch {
        effect: u8,
    },
}

/// A rule that applies without activation while the card is in the given place.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[cfg_attr(test, derive(borsh::BorshSerialize))]
pub enum RuleDef {
    /// Holding this card and all `pieces` in hand wins the duel.
    WinWithAllInHand { pieces: Vec<Code> },
    /// While this card is face-up on the field, the player with less LP takes no damage.
    LowerLpTakesNoDamage,
    /// While this card is face-up on the field, each Spell Card activated (while it was
    /// face-up) places a counter on it when that Spell resolves, up to `max`.
    SpellCounters { max: u8 },
    /// This monster cannot be Tributed (neither for a Tribute Summon nor as a cost).
    CannotBeTributed,
    /// If this face-up card would leave the field, it is banished instead (a
    /// replacement effect: it never reaches the graveyard).
    BanishedWhenLeavingField,
    /// An equip card: the equipped monster gains `atk`.
    EquipAtkBonus { atk: u16 },
}
