//! A game of Battle Line: the table's state and what may be read of it.
//!
//! The rules live in the submodules, each an `impl Game` of one concern.

mod claims;
mod deal;
mod legal;
mod play;
mod tactics;
mod types;

pub use deal::{Deal, DealError, GameRecord};
pub use types::{
    ClaimTiming, Command, Deck, Destination, Event, FLAGS, Flag, HAND_SIZE, Phase, Player, Prompt,
    Settings, TOTAL_CARDS, Target, Victory, command_card,
};

use crate::card::{Card, Tactic, Troop, TroopSet};
use crate::error::RuleError;
use serde::{Deserialize, Serialize};

/// A game of Battle Line. Serializes the whole table (for debugging and the page's
/// state dumps); deserializing replays `seed` + `log`, so a tampered save cannot
/// produce an impossible position.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "GameRecord")]
pub struct Game {
    seed: u64,
    settings: Settings,
    /// Set when the decks were chosen rather than shuffled (kept for replays).
    deal: Option<Deal>,
    troop_deck: Vec<Troop>,
    tactic_deck: Vec<Tactic>,
    hands: [Vec<Card>; 2],
    flags: [Flag; 9],
    /// The guile tactics each player has played.
    field: [Vec<Tactic>; 2],
    troop_discard: Vec<Troop>,
    tactic_discard: Vec<Tactic>,
    current: Player,
    phase: Phase,
    #[serde(rename = "cardsPlayedThisTurn")]
    cards_played_this_turn: Vec<Card>,
    #[serde(rename = "activeGuileTactic")]
    active_guile_tactic: Option<Tactic>,
    tactics_played: [u8; 2],
    leader_played: [bool; 2],
    tick: u32,
    /// Consecutive passes by players who had nothing else they could do.
    stuck_passes: u8,
    log: Vec<Command>,
}

fn flag_index(flag: u8) -> Result<usize, RuleError> {
    if flag < FLAGS {
        Ok(usize::from(flag))
    } else {
        Err(RuleError::NoSuchFlag { flag })
    }
}

/// Where a card sits on the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Spot {
    Slot { flag: usize, owner: Player },
    TacticSlot { flag: usize, owner: Player },
    Field { owner: Player },
}

impl Game {
    pub fn seed(&self) -> u64 {
        self.seed
    }
    pub fn settings(&self) -> Settings {
        self.settings
    }
    /// Whose turn it is.
    pub fn current(&self) -> Player {
        self.current
    }
    pub fn phase(&self) -> Phase {
        self.phase
    }
    pub fn flags(&self) -> &[Flag; 9] {
        &self.flags
    }
    /// A player's hand. The page must only show it to that player (see [`Game::view`]).
    pub fn hand(&self, p: Player) -> &[Card] {
        &self.hands[p.index()]
    }
    /// The guile tactics a player has played.
    pub fn field(&self, p: Player) -> &[Tactic] {
        &self.field[p.index()]
    }
    pub fn troop_discard(&self) -> &[Troop] {
        &self.troop_discard
    }
    pub fn tactic_discard(&self) -> &[Tactic] {
        &self.tactic_discard
    }
    pub fn troop_deck_len(&self) -> usize {
        self.troop_deck.len()
    }
    pub fn tactic_deck_len(&self) -> usize {
        self.tactic_deck.len()
    }
    pub fn cards_played_this_turn(&self) -> &[Card] {
        &self.cards_played_this_turn
    }
    pub fn active_guile_tactic(&self) -> Option<Tactic> {
        self.active_guile_tactic
    }
    /// Tactics (of any kind) a player has played.
    pub fn tactics_played(&self, p: Player) -> u8 {
        self.tactics_played[p.index()]
    }
    /// Whether a player has played a leader (Alexander or Darius); a second is refused.
    pub fn leader_played(&self, p: Player) -> bool {
        self.leader_played[p.index()]
    }
    pub fn log(&self) -> &[Command] {
        &self.log
    }

    /// A hash of everything that decides how the game can go on from here, for a
    /// search's table of positions: the decks in order, the hands as sets, the flags,
    /// the guile tactics played, whose turn and its step, the tactics counts and the
    /// passes in a row. Not the log, the discards (the complement of the rest), the seed
    /// or the counter that stamps completed sides (only the stamps' order matters, and
    /// a later stamp is later whatever the counter reads).
    #[cfg(feature = "contenders")]
    pub(crate) fn position_key(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.troop_deck.hash(&mut h);
        self.tactic_deck.hash(&mut h);
        for hand in &self.hands {
            let mut sorted = hand.clone();
            sorted.sort_unstable();
            sorted.hash(&mut h);
        }
        self.flags.hash(&mut h);
        self.field.hash(&mut h);
        self.current.hash(&mut h);
        self.phase.hash(&mut h);
        self.cards_played_this_turn.hash(&mut h);
        self.active_guile_tactic.hash(&mut h);
        self.tactics_played.hash(&mut h);
        self.leader_played.hash(&mut h);
        self.stuck_passes.hash(&mut h);
        h.finish()
    }

    /// Whether the game has ended (won or stalemate).
    pub fn is_over(&self) -> bool {
        matches!(self.phase, Phase::GameOver { .. } | Phase::Stalemate)
    }

    pub fn winner(&self) -> Option<Player> {
        match self.phase {
            Phase::GameOver { winner, .. } => Some(winner),
            _ => None,
        }
    }

    /// Every card in every place; always [`TOTAL_CARDS`].
    pub fn card_count(&self) -> usize {
        self.troop_deck.len()
            + self.tactic_deck.len()
            + self.hands.iter().map(Vec::len).sum::<usize>()
            + self
                .flags
                .iter()
                .map(|f| {
                    f.p0_slots.len() + f.p1_slots.len() + f.p0_tactic.len() + f.p1_tactic.len()
                })
                .sum::<usize>()
            + self.field.iter().map(Vec::len).sum::<usize>()
            + self.troop_discard.len()
            + self.tactic_discard.len()
    }

    /// Troops not yet on the table: both decks and both hands. These are the cards
    /// a claim proof must hold against.
    pub fn unplayed_troops(&self) -> TroopSet {
        self.troop_deck
            .iter()
            .copied()
            .chain(self.hands.iter().flatten().filter_map(|c| c.troop()))
            .collect()
    }

    /// Troops `viewer` cannot see: the troop deck and the opponent's hand.
    pub fn unseen_troops(&self, viewer: Player) -> TroopSet {
        self.troop_deck
            .iter()
            .copied()
            .chain(
                self.hands[viewer.opponent().index()]
                    .iter()
                    .filter_map(|c| c.troop()),
            )
            .collect()
    }

    /// What the current player is asked to do.
    pub fn prompt(&self) -> Prompt {
        match self.phase {
            Phase::Play => Prompt::PlayCard,
            Phase::Guile {
                tactic: Tactic::Redeploy,
            } => Prompt::Redeploy,
            Phase::Guile {
                tactic: Tactic::Deserter,
            } => Prompt::Deserter,
            Phase::Guile { .. } => Prompt::Traitor,
            Phase::ScoutDraw { drawn } => Prompt::ScoutDraw {
                left: 3u8.saturating_sub(drawn),
            },
            Phase::ScoutReturn { left } => Prompt::ScoutReturn { left },
            Phase::Finish { may_draw } => {
                if may_draw && self.any_deck() {
                    Prompt::DrawCard
                } else {
                    Prompt::EndTurn
                }
            }
            Phase::GameOver { winner, .. } => Prompt::GameOver { winner },
            Phase::Stalemate => Prompt::Stalemate,
        }
    }

    fn any_deck(&self) -> bool {
        !self.troop_deck.is_empty() || !self.tactic_deck.is_empty()
    }

    fn deck_len(&self, deck: Deck) -> usize {
        match deck {
            Deck::Troop => self.troop_deck.len(),
            Deck::Tactic => self.tactic_deck.len(),
        }
    }

    fn locate(&self, card: Card) -> Option<Spot> {
        for (i, f) in self.flags.iter().enumerate() {
            for p in Player::BOTH {
                if f.slots(p).contains(&card) {
                    return Some(Spot::Slot { flag: i, owner: p });
                }
                if let Card::Tactic(t) = card
                    && f.tactic(p).contains(&t)
                {
                    return Some(Spot::TacticSlot { flag: i, owner: p });
                }
            }
        }
        if let Card::Tactic(t) = card {
            for p in Player::BOTH {
                if self.field[p.index()].contains(&t) {
                    return Some(Spot::Field { owner: p });
                }
            }
        }
        None
    }
}
