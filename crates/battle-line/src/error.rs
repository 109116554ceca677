//! Typed reasons why the engine refuses a command or a claim.

use crate::card::{Card, Tactic, Troop};
use crate::formation::Strength;
use crate::game::{ClaimTiming, Deck, Phase};
use serde::{Deserialize, Serialize};
use std::fmt;

/// Why a command was refused. A refused command changes nothing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum RuleError {
    /// The game has been won; only `SortHand` is still accepted.
    GameOver,
    /// The command does not fit the current step of the turn.
    WrongPhase { phase: Phase },
    /// Flags are numbered 0 to 8.
    NoSuchFlag { flag: u8 },
    /// Cards at a claimed flag are frozen and nothing may be added there.
    FlagClaimed { flag: u8 },
    /// The card is not in the current player's hand.
    NotInHand { card: Card },
    /// Your side of the flag already holds 3 cards (4 with Mud).
    SlotFull { flag: u8 },
    /// The card cannot go there (a troop into the guile area, Fog into a troop slot, ...).
    WrongPlace { card: Card },
    /// You have played more tactics than your opponent.
    TacticLimit,
    /// Each player may play only one leader (Alexander or Darius) per game.
    SecondLeader,
    /// The guile tactic would have nothing to act on.
    NoTarget { tactic: Tactic },
    /// Seed 001: only cards played this turn may be moved (outside a guile tactic).
    NotPlayedThisTurn { card: Card },
    /// The card is not in a troop or tactic slot of any flag (e.g. it lies in the guile area).
    NotOnBoard { card: Card },
    /// The card belongs to the opponent.
    NotYourCard { card: Card },
    /// The card belongs to you, but the effect targets the opponent's cards.
    NotOpponentsCard { card: Card },
    /// Traitor takes troop cards only.
    NotATroop { card: Card },
    /// A card must move to a different flag.
    SameFlag { flag: u8 },
    /// That deck has no cards left.
    DeckEmpty { deck: Deck },
    /// A card must be drawn before the turn can end.
    MustDraw,
    /// You may only pass when no troop card can be played.
    TroopPlayable,
    /// Flags are claimed at another moment of the turn under the chosen setting.
    ClaimTiming { timing: ClaimTiming },
    /// The claim is not proven; the refusal says why.
    ClaimRefused { flag: u8, reason: ClaimRefusal },
}

/// Why a flag cannot be claimed yet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum ClaimRefusal {
    /// Your side of the flag is not a complete formation.
    Incomplete,
    /// Both sides are complete and the opponent's formation is stronger.
    OpponentStronger { mine: Strength, theirs: Strength },
    /// Both formations are equal and the opponent completed theirs first.
    TieCompletedLater { strength: Strength },
    /// The opponent could still beat you: `cards`, not yet on the table, would give them `theirs`.
    OpponentCanBeat {
        mine: Strength,
        theirs: Strength,
        cards: Vec<Troop>,
    },
}

impl fmt::Display for ClaimRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClaimRefusal::Incomplete => f.write_str("your formation is not complete"),
            ClaimRefusal::OpponentStronger { mine, theirs } => {
                write!(f, "the opponent's {theirs} beats your {mine}")
            }
            ClaimRefusal::TieCompletedLater { strength } => {
                write!(
                    f,
                    "both sides have a {strength} and the opponent completed theirs first"
                )
            }
            ClaimRefusal::OpponentCanBeat {
                mine,
                theirs,
                cards,
            } => {
                let list: Vec<String> = cards.iter().map(ToString::to_string).collect();
                write!(
                    f,
                    "the opponent could still beat your {mine}: with {} they would have a {theirs}",
                    list.join(", ")
                )
            }
        }
    }
}

/// Flags are numbered 1 to 9 for players (the board shows ⚑1..⚑9); indices start at 0.
fn shown(flag: u8) -> u16 {
    u16::from(flag) + 1
}

impl fmt::Display for RuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RuleError::GameOver => f.write_str("the game is over"),
            RuleError::WrongPhase { phase } => write!(f, "not allowed now ({phase:?})"),
            RuleError::NoSuchFlag { flag } => write!(f, "there is no flag {}", shown(*flag)),
            RuleError::FlagClaimed { flag } => {
                write!(f, "flag {} is already claimed", shown(*flag))
            }
            RuleError::NotInHand { card } => write!(f, "{card} is not in your hand"),
            RuleError::SlotFull { flag } => write!(f, "your side of flag {} is full", shown(*flag)),
            RuleError::WrongPlace { card } => write!(f, "{card} cannot be played there"),
            RuleError::TacticLimit => {
                f.write_str("you have played more tactics than your opponent")
            }
            RuleError::SecondLeader => f.write_str("you have already played a leader"),
            RuleError::NoTarget { tactic } => write!(f, "{tactic} would have nothing to act on"),
            RuleError::NotPlayedThisTurn { card } => {
                write!(
                    f,
                    "{card} was played on an earlier turn and cannot be moved"
                )
            }
            RuleError::NotOnBoard { card } => write!(f, "{card} is not on a flag"),
            RuleError::NotYourCard { card } => write!(f, "{card} is not yours"),
            RuleError::NotOpponentsCard { card } => write!(f, "{card} is not your opponent's"),
            RuleError::NotATroop { card } => write!(f, "{card} is not a troop card"),
            RuleError::SameFlag { flag } => {
                write!(f, "the card is already at flag {}", shown(*flag))
            }
            RuleError::DeckEmpty { deck } => write!(f, "the {deck:?} deck is empty"),
            RuleError::MustDraw => f.write_str("draw a card to end your turn"),
            RuleError::TroopPlayable => f.write_str("you can still play a troop card"),
            RuleError::ClaimTiming { timing } => {
                write!(
                    f,
                    "flags are claimed at another moment of the turn ({timing:?})"
                )
            }
            RuleError::ClaimRefused { flag, reason } => {
                write!(f, "flag {} cannot be claimed: {reason}", shown(*flag))
            }
        }
    }
}

impl std::error::Error for RuleError {}

/// Why a recorded game could not be rebuilt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReplayError {
    /// Command number `index` of the log was refused.
    Refused { index: usize, error: RuleError },
    /// There is no command to undo.
    NothingToUndo,
    /// The recorded deck order is not a full set of cards.
    BadDeal(crate::game::DealError),
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::Refused { index, error } => {
                write!(f, "command {index} of the log was refused: {error}")
            }
            ReplayError::NothingToUndo => f.write_str("there is nothing to undo"),
            ReplayError::BadDeal(e) => write!(f, "the recorded deal is invalid: {e}"),
        }
    }
}

impl std::error::Error for ReplayError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_number_flags_as_the_board_does() {
        assert_eq!(
            RuleError::FlagClaimed { flag: 0 }.to_string(),
            "flag 1 is already claimed"
        );
        assert_eq!(
            RuleError::NoSuchFlag { flag: 255 }.to_string(),
            "there is no flag 256"
        );
    }
}
