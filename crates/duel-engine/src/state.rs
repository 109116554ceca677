//! The duel's plain-data state: card instances, zones, players, chain and running effects.

use std::rc::Rc;

use seeded_rng::Rng;
use serde::{Deserialize, Serialize};

use crate::card::Code;
use crate::command::{Command, Response};
use crate::effect::{Purpose, Reg, Restriction, Step, SummonKind};

/// Number of main monster zones and of spell & trap zones.
pub const ZONE_SLOTS: usize = 5;
/// Starting life points of each player.
pub const STARTING_LP: u32 = 8000;
/// Cards in the opening hand.
pub const OPENING_HAND: usize = 5;
/// Hand size limit checked at the end of the End Phase.
pub const HAND_LIMIT: usize = 6;

/// One card instance of this duel. Ids are shuffled at set-up, so an id says nothing
/// about which card it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct CardId(pub u16);

impl CardId {
    pub(crate) fn index(self) -> usize {
        usize::from(self.0)
    }
}

/// A player, seen from the simulator's user.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Player {
    You,
    Opponent,
}

impl Player {
    pub fn other(self) -> Player {
        match self {
            Player::You => Player::Opponent,
            Player::Opponent => Player::You,
        }
    }

    pub(crate) fn index(self) -> usize {
        match self {
            Player::You => 0,
            Player::Opponent => 1,
        }
    }

    /// Resolves a card's point of view (`you` = its controller) to a player.
    pub(crate) fn resolve(self, who: crate::effect::Who) -> Player {
        match who {
            crate::effect::Who::You => self,
            crate::effect::Who::Opponent => self.other(),
        }
    }
}

/// Phases of the first turn. The first player skips the Battle Phase, so Main Phase 2
/// never comes either.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    Draw,
    Standby,
    Main1,
    End,
}

/// Whether a card shows its face.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Face {
    Up,
    Down,
}

/// Battle position of a monster on the field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(test, derive(borsh::BorshSerialize))]
pub enum Position {
    Attack,
    Defense,
}

/// Where a card is. Zone names follow the specification (`mainMonsterZone`, ...).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", tag = "zone", content = "slot")]
pub enum Location {
    Deck,
    Hand,
    MainMonsterZone(u8),
    SpellTrapZone(u8),
    FieldZone,
    Graveyard,
    Banished,
    ExtraDeck,
    /// A Token that left the field: it is no longer anywhere.
    Vanished,
}

impl Location {
    pub fn is_field(self) -> bool {
        matches!(
            self,
            Location::MainMonsterZone(_) | Location::SpellTrapZone(_) | Location::FieldZone
        )
    }

    /// The zone's name as the specification spells it.
    pub fn zone_name(self) -> &'static str {
        match self {
            Location::Deck => "deck",
            Location::Hand => "hand",
            Location::MainMonsterZone(_) => "mainMonsterZone",
            Location::SpellTrapZone(_) => "spellTrapZone",
            Location::FieldZone => "fieldZone",
            Location::Graveyard => "graveyard",
            Location::Banished => "banished",
            Location::ExtraDeck => "extraDeck",
            Location::Vanished => "vanished",
        }
    }
}

/// How a monster on the field got there.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Summoned {
    pub kind: SummonKind,
    /// Summoned by its proper procedure (always true for Main Deck monsters). An Extra
    /// Deck monster that was not cannot be revived from the graveyard or banishment.
    pub proper: bool,
}

/// What a monster was when it last stood on the field ("last known information").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct LastKnown {
    pub atk: u16,
    pub level: u8,
}

/// A card in this duel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Hash)]
pub struct CardInstance {
    pub code: Code,
    pub owner: Player,
    /// Who controls it: the player on whose field it is (the owner when it is not on the
    /// field).
    pub controller: Player,
    pub location: Location,
    pub face: Face,
    /// Set exactly while the card is in a main monster zone.
    pub position: Option<Position>,
    /// Placed on the field this turn (quick-plays and traps set this turn cannot be activated).
    pub placed_this_turn: bool,
    /// How it was summoned, while it is on the field as a monster; kept in the graveyard
    /// and banishment for the properly-summoned rule.
    pub summoned: Option<Summoned>,
    /// Counters on it (Spell Counters); they go when it leaves the field.
    pub counters: u8,
    /// For an equip card: the monster it is equipped to.
    pub equipped_to: Option<CardId>,
    /// Bumped on every move: a card that moves is a new card for effects that chose it
    /// before ("that monster" means this stamp).
    pub stamp: u32,
    /// Its stats when it last left the field.
    pub last_known: Option<LastKnown>,
}

impl CardInstance {
    /// Everything that tells this card apart from another copy, without its id, where
    /// it is or its stamp: two cards with equal keys in the same place are
    /// interchangeable.
    pub(crate) fn kind_key(&self) -> impl Ord + std::hash::Hash + use<> {
        (
            self.code,
            self.owner == Player::You,
            self.face == Face::Up,
            self.position.map(|p| p == Position::Attack),
            self.placed_this_turn,
            self.summoned.map(|s| (s.kind as u8, s.proper)),
            self.counters,
            self.last_known.map(|l| (l.atk, l.level)),
        )
    }

    /// A card of `owner` that is nowhere yet (set-up or a new Token puts it somewhere).
    pub(crate) fn new(code: Code, owner: Player, face: Face) -> CardInstance {
        CardInstance {
            code,
            owner,
            controller: owner,
            location: Location::Deck,
            face,
            position: None,
            placed_this_turn: false,
            summoned: None,
            counters: 0,
            equipped_to: None,
            stamp: 0,
            last_known: None,
        }
    }
}

/// An ordered pile of cards (a deck, a hand, a graveyard, a banishment, an Extra Deck),
/// shared by the copies of a duel until one of them changes it. The solver copies
/// positions by the million and a move changes one or two piles, so a copy costs no
/// allocation for the piles it leaves alone (the opponent's nearly always).
///
/// With the `pile-keys` feature the pile also keeps what the solver's position key last
/// made of its cards (`Pile::memo`), shared with the cards and forgotten whenever they
/// change: a copy keys the piles it left alone for nothing. Equality, hashing and
/// serialization are those of the cards alone.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Pile(Rc<PileCards>);

/// A pile's cards: their ids alone without the `pile-keys` feature (the pages' bundles,
/// which carry nothing of the memo).
#[cfg(not(feature = "pile-keys"))]
type PileCards = Vec<CardId>;

#[cfg(feature = "pile-keys")]
use pile_memo::{PileCards, PileMemo};

/// A pile's cards from their ids (with no memo yet).
fn pile_cards(ids: Vec<CardId>) -> PileCards {
    #[cfg(feature = "pile-keys")]
    let ids = PileCards {
        ids,
        memo: PileMemo::default(),
    };
    ids
}

/// A pile's cards with the memo of their key (the `pile-keys` feature): compared,
/// hashed, printed and serialized as the ids alone.
#[cfg(feature = "pile-keys")]
mod pile_memo {
    use serde::{Deserialize, Serialize};

    use super::CardId;

    /// A pile's cards and the memo of their key.
    #[derive(Clone, Default)]
    pub(super) struct PileCards {
        pub(super) ids: Vec<CardId>,
        pub(super) memo: PileMemo,
    }

    /// What a pile's key is made of, worked out once for the cards the pile holds: a
    /// kind (how the key read them) and three words. Empty until the key sets it.
    pub(crate) type PileMemo = std::cell::Cell<Option<(u8, [u64; 3])>>;

    impl PileCards {
        /// The ids to change, the memo forgotten.
        pub(super) fn forget_memo(&mut self) -> &mut Vec<CardId> {
            self.memo.set(None);
            &mut self.ids
        }
    }

    impl std::ops::Deref for PileCards {
        type Target = Vec<CardId>;

        fn deref(&self) -> &Vec<CardId> {
            &self.ids
        }
    }

    impl std::fmt::Debug for PileCards {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            self.ids.fmt(f)
        }
    }

    impl PartialEq for PileCards {
        fn eq(&self, other: &PileCards) -> bool {
            self.ids == other.ids
        }
    }

    impl Eq for PileCards {}

    impl std::hash::Hash for PileCards {
        fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
            self.ids.hash(h);
        }
    }

    impl Serialize for PileCards {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            self.ids.serialize(s)
        }
    }

    impl<'de> Deserialize<'de> for PileCards {
        fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<PileCards, D::Error> {
            Vec::<CardId>::deserialize(d).map(super::pile_cards)
        }
    }
}

impl std::ops::Deref for Pile {
    type Target = [CardId];

    fn deref(&self) -> &[CardId] {
        &self.0
    }
}

impl From<Vec<CardId>> for Pile {
    fn from(ids: Vec<CardId>) -> Pile {
        Pile(Rc::new(pile_cards(ids)))
    }
}

impl<'a> IntoIterator for &'a Pile {
    type Item = &'a CardId;
    type IntoIter = std::slice::Iter<'a, CardId>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl Pile {
    /// The pile's own cards to change: copied first if another duel shares them, with
    /// room for a few more (a shared pile that grows would otherwise be copied to the
    /// size it has, then again to a larger one). The memo of their key is forgotten.
    pub(crate) fn make_mut(&mut self) -> &mut Vec<CardId> {
        if Rc::get_mut(&mut self.0).is_none() {
            let mut own = Vec::with_capacity(self.0.len() + PILE_ROOM);
            own.extend_from_slice(&self.0);
            self.0 = Rc::new(pile_cards(own));
        }
        let own = Rc::make_mut(&mut self.0);
        #[cfg(feature = "pile-keys")]
        let own = own.forget_memo();
        own
    }

    /// Puts a card on top (and forgets the memo of the key).
    pub(crate) fn push(&mut self, id: CardId) {
        self.make_mut().push(id);
    }

    /// Puts a card on top, as [`Pile::push`] (no memo to keep without the `pile-keys`
    /// feature).
    #[cfg(not(feature = "pile-keys"))]
    pub(crate) fn push_card(&mut self, id: CardId, _: &CardInstance) {
        self.push(id);
    }

    /// Takes a card out, wherever it is in the pile (nothing changes, and nothing is
    /// copied, if it is not there).
    #[cfg(not(feature = "pile-keys"))]
    pub(crate) fn remove_card(&mut self, id: CardId, _: &CardInstance) {
        if let Some(at) = self.iter().position(|&x| x == id) {
            self.make_mut().remove(at);
        }
    }

    /// Puts a card on top, `card` its state as it lands: the memo of the key, if the
    /// key had made one, is brought up to date rather than forgotten (a move changes a
    /// pile by a card or two; the key would otherwise read all of its cards again).
    #[cfg(feature = "pile-keys")]
    pub(crate) fn push_card(&mut self, id: CardId, card: &CardInstance) {
        let memo = self.0.memo.get();
        let at = self.len();
        self.make_mut().push(id);
        if let Some(memo) = memo {
            self.0.memo.set(crate::solver::key::pushed(memo, card, at));
        }
    }

    /// Takes a card out, `card` its state while it was in the pile (its memo is brought
    /// up to date as by [`Pile::push_card`]). Nothing changes if the card is not there.
    #[cfg(feature = "pile-keys")]
    pub(crate) fn remove_card(&mut self, id: CardId, card: &CardInstance) {
        let Some(at) = self.iter().position(|&x| x == id) else {
            return;
        };
        let memo = self.0.memo.get();
        let top = at + 1 == self.len();
        self.make_mut().remove(at);
        debug_assert!(!self.contains(&id), "{id:?} twice in a pile");
        if let Some(memo) = memo {
            self.0
                .memo
                .set(crate::solver::key::removed(memo, card, at, top));
        }
    }

    /// The memo of the solver's key of these cards, shared by the copies that share
    /// them and emptied by [`Pile::make_mut`]. Sound only while no card's keyed state
    /// changes as long as it stays in the pile: the engine changes a card's state on the
    /// field or as it moves (out of one pile, into another), never in a pile.
    #[cfg(feature = "pile-keys")]
    pub(crate) fn memo(&self) -> &PileMemo {
        &self.0.memo
    }
}

/// The room a copied [`Pile`] gets for cards to come.
const PILE_ROOM: usize = 4;

/// One player's zones and per-turn counters.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Hash)]
pub struct PlayerState {
    pub lp: u32,
    /// Bottom first: the top card is the last element.
    pub deck: Pile,
    pub hand: Pile,
    pub monsters: [Option<CardId>; ZONE_SLOTS],
    pub spell_trap: [Option<CardId>; ZONE_SLOTS],
    pub field_zone: Option<CardId>,
    pub graveyard: Pile,
    pub banished: Pile,
    pub extra: Pile,
    pub normal_summon_limit: u8,
    pub normal_summon_used: u8,
    pub special_summoned_this_turn: bool,
    /// Tried to draw from an empty deck: loses at the next state check.
    pub drew_from_empty: bool,
}

impl PlayerState {
    /// The player's piles (deck, hand, graveyard, banishment, Extra Deck).
    #[cfg(feature = "pile-keys")]
    pub(crate) fn piles_mut(&mut self) -> [&mut Pile; 5] {
        [
            &mut self.deck,
            &mut self.hand,
            &mut self.graveyard,
            &mut self.banished,
            &mut self.extra,
        ]
    }

    pub(crate) fn new() -> Self {
        PlayerState {
            lp: STARTING_LP,
            deck: Pile::default(),
            hand: Pile::default(),
            monsters: [None; ZONE_SLOTS],
            spell_trap: [None; ZONE_SLOTS],
            field_zone: None,
            graveyard: Pile::default(),
            banished: Pile::default(),
            extra: Pile::default(),
            normal_summon_limit: 1,
            normal_summon_used: 0,
            special_summoned_this_turn: false,
            drew_from_empty: false,
        }
    }
}

/// Rules where official sources disagree, or where players like to choose.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// Into the Void counts itself toward its "3 or more cards in hand" (as the common
    /// simulators do). `false` requires 3 other cards, as some Japanese rulings say.
    pub into_the_void_counts_itself: bool,
    /// After each activation, stop and let the player chain a quick-play spell.
    /// Off: chains resolve at once and nothing can be chained.
    pub chain_confirmation: bool,
    /// Exodia wins as soon as the fifth piece reaches the hand, even in the middle of an
    /// effect (an old ruling: Graceful Charity would win before its discard). Off (the
    /// current practice): the hand is checked once the effect has finished.
    pub exodia_wins_mid_effect: bool,
}

impl Settings {
    /// The settings as three bits (Into the Void, chain confirmation, Exodia mid-effect),
    /// as share codes and other compact texts carry them.
    pub fn bits(self) -> u8 {
        u8::from(self.into_the_void_counts_itself)
            | u8::from(self.chain_confirmation) << 1
            | u8::from(self.exodia_wins_mid_effect) << 2
    }

    /// Reads [`Settings::bits`] (other bits are ignored).
    pub fn from_bits(bits: u8) -> Settings {
        Settings {
            into_the_void_counts_itself: bits & 1 != 0,
            chain_confirmation: bits & 2 != 0,
            exodia_wins_mid_effect: bits & 4 != 0,
        }
    }
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            into_the_void_counts_itself: true,
            chain_confirmation: true,
            exodia_wins_mid_effect: false,
        }
    }
}

/// Why the duel ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Reason {
    /// All five Exodia pieces in hand.
    Exodia,
    /// A player's LP reached 0.
    Lp0,
    /// A player had to draw from an empty deck.
    DeckOut,
    /// The first turn ended without a win.
    TurnEnd,
}

/// How the duel ended for the simulator's user.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    Win(Reason),
    Lose(Reason),
    Draw(Reason),
}

impl Outcome {
    pub fn reason(self) -> Reason {
        match self {
            Outcome::Win(r) | Outcome::Lose(r) | Outcome::Draw(r) => r,
        }
    }
}

/// Once-per-turn bookkeeping.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub(crate) enum OptKey {
    /// A soft limit: this copy's effect number `effect`.
    Card(CardId, u8),
    /// A hard limit: every copy of the name.
    Name(Code),
}

/// A restriction in force, with the player it was resolved against.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Hash)]
pub(crate) struct ActiveRestriction {
    pub controller: Player,
    pub restriction: Restriction,
    /// The last turn it applies in.
    pub until_turn: u32,
}

/// An effect waiting for this turn's End Phase, with the registers of the effect that
/// set it up ("that monster").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Hash)]
pub(crate) struct Delayed {
    pub source: CardId,
    pub controller: Player,
    pub steps: Program,
    pub locals: Locals,
}

/// The steps a frame runs: a card's own effect (the card data, never copied) or a
/// program the rules build (a tribute, the hand size limit), shared by the copies.
#[derive(Debug, Clone)]
pub(crate) enum Program {
    Card(&'static [Step]),
    Rules(Rc<[Step]>),
}

impl std::ops::Deref for Program {
    type Target = [Step];

    fn deref(&self) -> &[Step] {
        match self {
            Program::Card(steps) => steps,
            Program::Rules(steps) => steps,
        }
    }
}

impl From<Vec<Step>> for Program {
    fn from(steps: Vec<Step>) -> Program {
        Program::Rules(steps.into())
    }
}

impl PartialEq for Program {
    fn eq(&self, other: &Program) -> bool {
        **self == **other
    }
}

impl Eq for Program {}

impl std::hash::Hash for Program {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        (**self).hash(h);
    }
}

impl Serialize for Program {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        Serialize::serialize(&**self, s)
    }
}

impl<'de> Deserialize<'de> for Program {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Program, D::Error> {
        <Vec<Step> as Deserialize>::deserialize(d).map(Program::from)
    }
}

/// A card held in a register: the card and its stamp when it was put there. It counts
/// only while the card has not moved since.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Hash)]
pub(crate) struct Held {
    pub id: CardId,
    pub stamp: u32,
}

/// An effect's memory while it runs: registers of cards, whether the last step fully
/// happened, and positions chosen for a Special Summon.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, Hash)]
pub(crate) struct Locals {
    pub regs: Regs,
    pub did: bool,
    pub positions: Vec<(CardId, Position)>,
    /// A number declared during the effect (Reasoning's Level).
    pub declared: Option<u32>,
    /// The event number of the last step's moves (for a step made "together" with it).
    pub last_seq: Option<u32>,
}

/// An effect's registers, a slot per [`Reg`], each shared by the copies of a duel until
/// the effect sets it again (a copy allocates nothing for them).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, Hash)]
pub(crate) struct Regs([Option<Rc<[Held]>>; Reg::ALL.len()]);

impl Regs {
    /// The cards put in `reg`, if the effect has set it.
    pub fn get(&self, reg: &Reg) -> Option<&[Held]> {
        self.0.get(*reg as usize)?.as_deref()
    }

    pub fn insert(&mut self, reg: Reg, held: impl Into<Rc<[Held]>>) {
        if let Some(slot) = self.0.get_mut(reg as usize) {
            *slot = Some(held.into());
        }
    }

    /// The registers set, in the order of [`Reg::ALL`].
    pub fn iter(&self) -> impl Iterator<Item = (Reg, &[Held])> {
        Reg::ALL
            .iter()
            .zip(&self.0)
            .filter_map(|(&reg, held)| Some((reg, held.as_deref()?)))
    }
}

/// A link of the chain: an activation waiting to resolve.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Hash)]
pub struct ChainLink {
    pub card: CardId,
    pub controller: Player,
    /// Index into the card's `effects`.
    pub effect: u8,
    /// Chosen mode for modal effects.
    pub mode: Option<u8>,
    pub speed: u8,
    pub no_responses: bool,
    /// The activation of a Spell Card (not an effect of one): counts for Spell Counters.
    pub spell_card: bool,
    /// Cards with Spell Counters that were face-up when this Spell was activated.
    pub(crate) witnesses: Vec<Held>,
    pub(crate) locals: Locals,
}

/// What a running program is doing, so the engine knows what comes after it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Hash)]
pub(crate) enum FrameKind {
    /// Costs and targets of an activation; the link joins the chain when they are done.
    Activation(ChainLink),
    /// Resolution of the top chain link.
    Resolution(ChainLink),
    /// Tributes of a Tribute Summon; the monster is placed when they are done.
    Tribute { card: CardId, set: bool },
    /// An End Phase effect.
    EndPhase,
    /// Discarding down to the hand limit.
    HandLimit,
    /// A Synchro Summon: materials, then the monster.
    Synchro { card: CardId },
}

/// A running step program with its program counter.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Hash)]
pub(crate) struct Frame {
    pub kind: FrameKind,
    pub source: CardId,
    pub controller: Player,
    pub steps: Program,
    pub pc: usize,
    pub locals: Locals,
}

/// What an order prompt puts in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Hash)]
pub enum OrderOf {
    /// Simultaneous trigger effects: the one chosen becomes the next chain link.
    Triggers,
    /// "During the End Phase" effects: the one chosen applies next.
    EndPhase,
}

/// A decision the engine waits for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Hash)]
pub(crate) enum PromptState {
    /// Choose between `min` and `max` of the candidates into a register.
    Cards {
        /// Shared by the copies of the duel (the solver copies a position for each
        /// answer it tries).
        candidates: Pile,
        min: u8,
        max: u8,
        purpose: Purpose,
        into: Reg,
        constraint: Option<crate::effect::Constraint>,
    },
    /// Choose one mode of effect `effect` of `card` (indices into its modes).
    Mode {
        card: CardId,
        effect: u8,
        options: Vec<u8>,
    },
    /// Use an optional trigger effect of `card`? (yes / no)
    UseTrigger { card: CardId },
    /// Which of these comes next?
    Order { of: OrderOf, items: Vec<CardId> },
    /// Special Summon `card` in Attack or Defense Position?
    Position { card: CardId },
}

/// A pending decision and the card that asks it (`None`: a rule of the game, such as
/// the hand size limit or the order of simultaneous effects).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Hash)]
pub(crate) struct Prompt {
    pub source: Option<CardId>,
    pub state: PromptState,
}

/// A trigger effect whose event happened, waiting for the chain to close.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Hash)]
pub(crate) struct PendingTrigger {
    pub card: CardId,
    /// The card's stamp just after the event: it must not have moved since.
    pub stamp: u32,
    pub effect: u8,
    /// Sequence number of the event (for missing the timing).
    pub seq: u32,
    pub controller: Player,
}

/// A card's trigger effect armed until its event happens once, this turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Hash)]
pub(crate) struct Watcher {
    pub card: CardId,
    pub effect: u8,
    pub controller: Player,
    pub turn: u32,
}

/// Triggers being put on a new chain: optional ones are asked about, simultaneous ones
/// ordered, then each is activated.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, Hash)]
pub(crate) struct TriggerBuild {
    /// Optional triggers not yet asked about.
    pub ask: Vec<PendingTrigger>,
    pub mandatory: Vec<PendingTrigger>,
    /// Optional triggers the player chose to use.
    pub optional: Vec<PendingTrigger>,
    /// In chain-link order, ready to be activated.
    pub ready: Vec<PendingTrigger>,
}

/// Where the End Phase is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Hash)]
pub(crate) enum EndStep {
    /// The player may still activate Quick-Play Spells; `EndTurn` moves on.
    Open,
    /// Applying "during the End Phase" effects.
    Delayed,
    HandLimit,
    Done,
}

/// What happened during the last command, for the UI. Not part of the duel's equality:
/// two duels in the same position are equal however they got there.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub(crate) struct Journal {
    pub events: Vec<crate::event::Event>,
    pub moves: Vec<crate::event::GameEvent>,
    /// Nothing is recorded, in the journal or the command log: a solver's copies, which
    /// nobody shows, run faster without them.
    pub off: bool,
}

impl PartialEq for Journal {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

/// The whole duel. Plain data: cloning it is a snapshot.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Duel {
    /// Shared by the copies of a duel (a copy allocates nothing for it).
    pub(crate) deck_id: Rc<str>,
    pub(crate) seed: u64,
    pub(crate) settings: Settings,
    pub(crate) cards: Vec<CardInstance>,
    pub(crate) players: [PlayerState; 2],
    pub(crate) phase: Phase,
    pub(crate) turn: u32,
    pub(crate) chain: Vec<ChainLink>,
    /// The chain is resolving (no more responses).
    pub(crate) resolving: bool,
    pub(crate) frames: Vec<Frame>,
    pub(crate) prompt: Option<Prompt>,
    pub(crate) restrictions: Vec<ActiveRestriction>,
    pub(crate) used_opt: Vec<OptKey>,
    pub(crate) delayed: Vec<Delayed>,
    pub(crate) end_step: EndStep,
    /// Trigger effects whose events happened, waiting for the chain to close.
    pub(crate) triggers: Vec<PendingTrigger>,
    pub(crate) trigger_build: Option<TriggerBuild>,
    /// Sequence number of the last game event.
    pub(crate) seq: u32,
    /// Sequence number of the last thing that happened (what "when" triggers check).
    pub(crate) last_happening: u32,
    /// Trigger effects armed for the rest of the turn by a [`crate::effect::Step::Watch`].
    pub(crate) watchers: Vec<Watcher>,
    pub(crate) rng: Rng,
    pub(crate) log: Vec<Command>,
    pub(crate) outcome: Option<Outcome>,
    #[serde(skip)]
    pub(crate) journal: Journal,
    /// A deck list of the player's own or cards dealt on purpose (`None`: a preset deck
    /// shuffled by the seed, as `deck_id` and `seed` say). Shared, not copied, by the
    /// solver's copies.
    #[cfg(feature = "custom-decks")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) custom: Option<std::sync::Arc<crate::deal::Custom>>,
}

impl Duel {
    pub(crate) fn player(&self, p: Player) -> &PlayerState {
        &self.players[p.index()]
    }

    pub(crate) fn player_mut(&mut self, p: Player) -> &mut PlayerState {
        &mut self.players[p.index()]
    }

    /// The instance behind an id, if it exists.
    pub fn instance(&self, id: CardId) -> Option<&CardInstance> {
        self.cards.get(id.index())
    }

    /// Makes this duel a copy of `from` (as `from.clone()` would be) in the room its own
    /// lists already have: the solver's positions it has done with become the next
    /// ones without a round of the allocator (`solver::Pool`).
    pub(crate) fn copy_from(&mut self, from: &Duel) {
        // Every field by name, so a new one cannot be left out.
        let Duel {
            deck_id,
            seed,
            settings,
            cards,
            players,
            phase,
            turn,
            chain,
            resolving,
            frames,
            prompt,
            restrictions,
            used_opt,
            delayed,
            end_step,
            triggers,
            trigger_build,
            seq,
            last_happening,
            watchers,
            rng,
            log,
            outcome,
            journal,
            #[cfg(feature = "custom-decks")]
            custom,
        } = from;
        self.deck_id.clone_from(deck_id);
        self.seed = *seed;
        self.settings.clone_from(settings);
        self.cards.clone_from(cards);
        self.players.clone_from(players);
        self.phase.clone_from(phase);
        self.turn = *turn;
        self.chain.clone_from(chain);
        self.resolving = *resolving;
        self.frames.clone_from(frames);
        self.prompt.clone_from(prompt);
        self.restrictions.clone_from(restrictions);
        self.used_opt.clone_from(used_opt);
        self.delayed.clone_from(delayed);
        self.end_step.clone_from(end_step);
        self.triggers.clone_from(triggers);
        self.trigger_build.clone_from(trigger_build);
        self.seq = *seq;
        self.last_happening = *last_happening;
        self.watchers.clone_from(watchers);
        self.rng.clone_from(rng);
        self.log.clone_from(log);
        self.outcome.clone_from(outcome);
        self.journal.clone_from(journal);
        #[cfg(feature = "custom-decks")]
        self.custom.clone_from(custom);
    }
}

impl Duel {
    /// Whether two copies are the same to the player here: equal in every respect
    /// ([`CardInstance::kind_key`]) and in the same unordered pile (hand, graveyard,
    /// banishment, Extra Deck). Deck cards are never interchangeable (the order of the
    /// deck is what draws read), nor field cards (each zone is a place of its own).
    fn interchangeable(&self, a: CardId, b: CardId) -> bool {
        let (Some(x), Some(y)) = (self.instance(a), self.instance(b)) else {
            return false;
        };
        a == b
            || (x.location == y.location
                && matches!(
                    x.location,
                    Location::Hand | Location::Graveyard | Location::Banished | Location::ExtraDeck
                )
                && x.equipped_to.is_none()
                && y.equipped_to.is_none()
                && x.kind_key() == y.kind_key())
    }

    /// Whether `b` does here what `a` does: the same command, or one naming another copy
    /// of the same card in the same pile, or an answer choosing the same cards in another
    /// order (or other copies of them). Returns the renaming that turns `a`'s cards into
    /// `b`'s (pairs `(a's card, b's card)`, only where they differ), to be applied, as
    /// swaps, to the commands that were to follow `a`; `None` when they differ.
    pub fn same_action(&self, a: &Command, b: &Command) -> Option<Vec<(CardId, CardId)>> {
        if a == b {
            return Some(Vec::new());
        }
        match (a, b) {
            (Command::Respond(Response::Cards(x)), Command::Respond(Response::Cards(y))) => {
                if x.len() != y.len() {
                    return None;
                }
                // Cards chosen by both first, then the rest paired copy by copy.
                let mut left: Vec<CardId> = y.iter().copied().filter(|c| !x.contains(c)).collect();
                let mut pairs = Vec::new();
                for &c in x.iter().filter(|c| !y.contains(c)) {
                    let i = left.iter().position(|&d| self.interchangeable(c, d))?;
                    pairs.push((c, left.swap_remove(i)));
                }
                Some(pairs)
            }
            _ => {
                let (ca, cb) = (a.card()?, b.card()?);
                (a.map_cards(|_| cb) == *b && self.interchangeable(ca, cb)).then(|| vec![(ca, cb)])
            }
        }
    }
}

/// Renames cards in commands by swaps (each pair `(a, b)`: `a` becomes `b` and `b`
/// becomes `a`), as [`Duel::same_action`] returns them.
pub fn swap_cards(commands: &[Command], pairs: &[(CardId, CardId)]) -> Vec<Command> {
    commands
        .iter()
        .map(|cmd| {
            cmd.map_cards(|c| {
                pairs.iter().fold(c, |c, &(a, b)| {
                    if c == a {
                        b
                    } else if c == b {
                        a
                    } else {
                        c
                    }
                })
            })
        })
        .collect()
}
