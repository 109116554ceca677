//! Why a command was refused.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::Lang;

/// A condition of an activation that does not hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Error)]
pub enum Unmet {
    #[error("the deck has {have} cards; {need} are needed")]
    DeckTooSmall { need: u8, have: usize },
    #[error("the opponent's deck has {have} cards; {need} are needed")]
    OpponentDeckTooSmall { need: u8, have: usize },
    #[error("{have} cards in hand; at least {need} are needed")]
    HandTooSmall { need: u8, have: usize },
    #[error("the opponent has {have} cards in hand; at least {need} are needed")]
    OpponentHandTooSmall { need: u8, have: usize },
    #[error("{have} other cards in hand; at most {max} are allowed")]
    HandTooLarge { max: u8, have: usize },
    #[error("no valid card for this effect")]
    NoValidCards,
    #[error("not enough LP: {need} needed, {have} left")]
    LpTooLow { need: u32, have: u32 },
    #[error("you already Special Summoned this turn")]
    SpecialSummonedThisTurn,
    #[error("you cannot Special Summon this turn")]
    CannotSpecialSummon,
    #[error("no free Main Monster Zone")]
    NoFreeZone,
    #[error("{have} counters; {need} are needed")]
    TooFewCounters { need: u8, have: u8 },
    #[error("the card is no longer face-up on the field")]
    NotOnField,
    #[error("no valid combination of cards")]
    NoValidCombination,
}

/// Why a command was refused. The duel is unchanged.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize, Error)]
pub enum RuleError {
    #[error("the duel is over")]
    GameOver,
    #[error("answer the pending choice first")]
    PromptPending,
    #[error("there is no choice to answer")]
    NoPrompt,
    #[error("that answer does not fit the choice: {0}")]
    BadResponse(BadResponse),
    #[error("there is no such card")]
    NoSuchCard,
    #[error("that card is not in your hand")]
    NotInHand,
    #[error("that card is not a monster")]
    NotAMonster,
    #[error("that card is not a spell or trap")]
    NotASpellOrTrap,
    #[error("that card cannot be summoned this way")]
    CannotNormalSummon,
    #[error("that card is not a Synchro monster in your Extra Deck")]
    NotASynchro,
    #[error("only in Main Phase 1")]
    WrongPhase,
    #[error("you have no Normal Summon or Set left this turn")]
    NoNormalSummonLeft,
    #[error("the zone is full")]
    ZoneFull,
    #[error("not enough monsters to Tribute ({need} needed)")]
    NotEnoughTributes { need: usize },
    #[error("a chain is open: respond with a quick-play or pass")]
    ChainOpen,
    #[error("only spell speed 2 can be chained")]
    SpellSpeedTooLow,
    #[error("there is no chain to pass on")]
    NoChain,
    #[error("traps cannot be activated from the hand")]
    TrapFromHand,
    #[error("a quick-play spell or trap cannot be activated the turn it was set")]
    SetThisTurn,
    #[error("that card is not a face-down spell or trap you can activate")]
    NotActivatable,
    #[error("that card has no effect to activate")]
    NoEffect,
    #[error("once per turn: already used")]
    OncePerTurn,
    #[error("cannot be activated: {0}")]
    Unmet(Unmet),
}

/// A response that does not fit the prompt.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Error)]
pub enum BadResponse {
    #[error("choose between {min} and {max} cards")]
    WrongCount { min: u8, max: u8 },
    #[error("a chosen card is not among the candidates")]
    NotACandidate,
    #[error("a card was chosen twice")]
    Duplicate,
    #[error("these cards together do not fit the choice")]
    BadCombination,
    #[error("not valid Synchro Material: {0}")]
    Synchro(SynchroMiss),
    #[error("that option is not offered")]
    NoSuchOption,
    #[error("this choice wants cards, not an option (or the other way round)")]
    WrongKind,
}

/// What a chosen set of Synchro Material lacks (checked in this order).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Error)]
pub enum SynchroMiss {
    #[error("no Tuner among them; exactly 1 is needed")]
    NoTuner,
    #[error("{have} Tuners; exactly 1 is needed")]
    TooManyTuners { have: u8 },
    #[error("{have} non-Tuner monsters; at least {need} are needed")]
    TooFewNonTuners { need: u8, have: u8 },
    #[error("{have} non-Tuner monsters; at most {max} are allowed")]
    TooManyNonTuners { max: u8, have: u8 },
    #[error("their Levels add up to {have}; the Synchro Monster is Level {need}")]
    Levels { need: u8, have: u32 },
}

impl RuleError {
    /// The reason in the player's language.
    pub fn message(&self, lang: Lang) -> String {
        match lang {
            Lang::En => self.to_string(),
            Lang::Ja => crate::text::error_ja(self),
        }
    }
}
