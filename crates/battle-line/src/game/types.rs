//! The table's vocabulary: players, decks, settings, commands, phases, flags, events, prompts.

use crate::card::{Card, Tactic, Troop};
use crate::formation::Judging;
use serde::{Deserialize, Serialize};

/// Number of flags between the players.
pub const FLAGS: u8 = 9;
/// Cards in a full hand.
pub const HAND_SIZE: usize = 7;
/// Every card of the game: 60 troops and 10 tactics.
pub const TOTAL_CARDS: usize = 70;

/// A seat at the table. `P0` moves first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Player {
    P0,
    P1,
}

impl Player {
    /// The other seat.
    pub fn opponent(self) -> Player {
        match self {
            Player::P0 => Player::P1,
            Player::P1 => Player::P0,
        }
    }

    /// 0 or 1, for indexing per-player arrays.
    pub fn index(self) -> usize {
        self as usize
    }

    /// Both seats.
    pub const BOTH: [Player; 2] = [Player::P0, Player::P1];
}

/// The two draw piles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Deck {
    Troop,
    Tactic,
}

/// When in a turn flags may be claimed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum ClaimTiming {
    /// Before playing a card (the common digital variant, and seed 001's).
    #[default]
    StartOfTurn,
    /// After playing a card, before drawing (the printed rule).
    AfterPlaying,
    /// Both before and after playing.
    Anytime,
}

/// Table options fixed when the game starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Settings {
    #[serde(default)]
    pub claim_timing: ClaimTiming,
}

/// How the game was won.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Victory {
    /// Three adjacent flags.
    Breakthrough,
    /// Any five flags.
    Envelopment,
}

/// Where a card from hand is played.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Target {
    /// Your troop slot (troops, morale tactics) or tactic slot (Fog, Mud) at a flag.
    Flag { flag: u8 },
    /// The guile area beside you (Scout, Redeploy, Deserter, Traitor).
    Field,
}

/// Where Redeploy sends a card.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Destination {
    Flag { flag: u8 },
    Discard,
}

/// Everything a player can do. Commands act for the player whose turn it is,
/// except `SortHand`, which names its player and is always allowed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Command {
    /// Claim a flag (with proof); see [`ClaimTiming`].
    ClaimFlag { flag: u8 },
    /// Play a card from hand.
    PlayCard { card: Card, target: Target },
    /// Seed 001: move a card played this turn to the same kind of slot at another flag.
    MoveCard { card: Card, flag: u8 },
    /// Redeploy: move one of your cards to another flag, or discard it.
    ResolveRedeploy { card: Card, to: Destination },
    /// Deserter: discard one of the opponent's cards.
    ResolveDeserter { card: Card },
    /// Traitor: take one of the opponent's troops to your side of `flag`.
    ResolveTraitor { card: Troop, flag: u8 },
    /// Scout: draw one of the three cards.
    ScoutDraw { deck: Deck },
    /// Scout: put a card from hand back on top of its deck.
    ScoutReturn { card: Card },
    /// Play nothing (only when no troop card can be played).
    Pass,
    /// Draw a card and end the turn.
    DrawAndEndTurn { deck: Deck },
    /// End the turn without drawing (after Scout or a pass, or when both decks are empty).
    EndTurn,
    /// Put a hand in order (troops by colour and value, then tactics).
    SortHand { player: Player },
}

impl Command {
    /// The operation of a guile tactic just played (Redeploy, Deserter or Traitor).
    pub fn resolves_guile(&self) -> bool {
        matches!(
            self,
            Command::ResolveRedeploy { .. }
                | Command::ResolveDeserter { .. }
                | Command::ResolveTraitor { .. }
        )
    }
}

/// The step of the turn the current player is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Phase {
    /// Claim (at the start of the turn) and play one card, or pass.
    Play,
    /// A guile tactic was played; its one operation is pending.
    Guile { tactic: Tactic },
    /// Scout: `drawn` of the 3 cards drawn so far.
    ScoutDraw { drawn: u8 },
    /// Scout: `left` cards still to put back.
    ScoutReturn { left: u8 },
    /// The card is played: move this turn's card, claim (after playing), then draw and end.
    Finish { may_draw: bool },
    /// The game is won.
    GameOver { winner: Player, by: Victory },
    /// Neither player can ever act again (both passed in turn with no play and no
    /// claim possible): the game is drawn.
    Stalemate,
}

/// One flag and the cards at it.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct Flag {
    /// P0's troop and morale cards, in the order played.
    pub p0_slots: Vec<Card>,
    /// P1's troop and morale cards.
    pub p1_slots: Vec<Card>,
    /// Fog/Mud played by P0 at this flag.
    pub p0_tactic: Vec<Tactic>,
    /// Fog/Mud played by P1 at this flag.
    pub p1_tactic: Vec<Tactic>,
    /// Who claimed it.
    pub owner: Option<Player>,
    /// When each side became complete (a game-wide counter); ties go to the smaller.
    pub completed_at: [Option<u32>; 2],
}

impl Flag {
    /// A player's troop slots.
    pub fn slots(&self, p: Player) -> &[Card] {
        match p {
            Player::P0 => &self.p0_slots,
            Player::P1 => &self.p1_slots,
        }
    }

    pub(super) fn slots_mut(&mut self, p: Player) -> &mut Vec<Card> {
        match p {
            Player::P0 => &mut self.p0_slots,
            Player::P1 => &mut self.p1_slots,
        }
    }

    /// A player's tactic slot (Fog, Mud).
    pub fn tactic(&self, p: Player) -> &[Tactic] {
        match p {
            Player::P0 => &self.p0_tactic,
            Player::P1 => &self.p1_tactic,
        }
    }

    pub(super) fn tactic_mut(&mut self, p: Player) -> &mut Vec<Tactic> {
        match p {
            Player::P0 => &mut self.p0_tactic,
            Player::P1 => &mut self.p1_tactic,
        }
    }

    /// Whether an environment tactic lies at this flag (on either side).
    pub fn has(&self, t: Tactic) -> bool {
        self.p0_tactic.contains(&t) || self.p1_tactic.contains(&t)
    }

    /// How this flag is judged now.
    pub fn judging(&self) -> Judging {
        Judging {
            cards: self.capacity(),
            fog: self.has(Tactic::Fog),
        }
    }

    /// Cards a side needs (and may hold): 3, or 4 with Mud.
    pub fn capacity(&self) -> usize {
        if self.has(Tactic::Mud) { 4 } else { 3 }
    }

    /// Whether a player may add a troop or morale card here.
    pub fn open_for(&self, p: Player) -> bool {
        self.owner.is_none() && self.slots(p).len() < self.capacity()
    }
}

/// What happened, for animations and logs. Drawn cards are not named, so events may be
/// shown to both players.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Event {
    FlagClaimed {
        player: Player,
        flag: u8,
    },
    CardPlayed {
        player: Player,
        card: Card,
        target: Target,
    },
    CardMoved {
        player: Player,
        card: Card,
        from: u8,
        to: u8,
    },
    CardDiscarded {
        card: Card,
        from: u8,
    },
    CardDrawn {
        player: Player,
        deck: Deck,
    },
    CardReturned {
        player: Player,
        deck: Deck,
    },
    Passed {
        player: Player,
    },
    HandSorted {
        player: Player,
    },
    TurnEnded {
        next: Player,
    },
    GameWon {
        player: Player,
        by: Victory,
    },
    Stalemate,
}

/// What the current player is asked to do (the UI's guide line).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Prompt {
    PlayCard,
    Redeploy,
    Deserter,
    Traitor,
    ScoutDraw { left: u8 },
    ScoutReturn { left: u8 },
    DrawCard,
    EndTurn,
    GameOver { winner: Player },
    Stalemate,
}

impl std::fmt::Display for Prompt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Prompt::PlayCard => f.write_str("Play a card from your hand (or claim a flag)"),
            Prompt::Redeploy => f.write_str("REDEPLOY: Select your card to move or discard"),
            Prompt::Deserter => f.write_str("DESERTER: Select an opponent's card to discard"),
            Prompt::Traitor => f.write_str("TRAITOR: Select an opponent's troop to take"),
            Prompt::ScoutDraw { left } => {
                write!(f, "SCOUT: Draw {left} more card(s) from either deck")
            }
            Prompt::ScoutReturn { left } => {
                write!(
                    f,
                    "SCOUT: Return {left} card(s) from your hand to the top of their decks"
                )
            }
            Prompt::DrawCard => f.write_str("Draw a card to end your turn"),
            Prompt::EndTurn => f.write_str("End your turn"),
            Prompt::GameOver { winner } => write!(f, "{winner:?} wins"),
            Prompt::Stalemate => {
                f.write_str("Stalemate: neither player can act, the game is drawn")
            }
        }
    }
}

/// The card a command acts on, if any.
pub fn command_card(cmd: Command) -> Option<Card> {
    match cmd {
        Command::PlayCard { card, .. }
        | Command::MoveCard { card, .. }
        | Command::ResolveRedeploy { card, .. }
        | Command::ResolveDeserter { card }
        | Command::ScoutReturn { card } => Some(card),
        Command::ResolveTraitor { card, .. } => Some(Card::Troop(card)),
        _ => None,
    }
}
