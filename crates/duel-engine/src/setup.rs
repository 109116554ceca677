//! Starting a duel: from a preset deck and a seed, or from an explicit position (tests).

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::card::Code;
use crate::command::Command;
use crate::deck::{deck, opponent_deck};
use crate::error::RuleError;
use crate::state::{Duel, Face, Location, OPENING_HAND, Phase, Player, STARTING_LP, Settings};

/// Why a duel could not be set up.
#[derive(Debug, Clone, PartialEq, Eq, Error, Serialize, Deserialize)]
pub enum SetupError {
    #[error("there is no deck named {0:?}")]
    UnknownDeck(String),
    #[error("the deck {0:?} is not playable yet")]
    DeckNotPlayable(String),
    #[error("unknown card {0}")]
    UnknownCard(Code),
    #[error("more cards than a zone holds")]
    ZoneFull,
    #[error("too many cards")]
    TooManyCards,
}

/// Why a recorded game could not be replayed.
#[derive(Debug, Clone, PartialEq, Eq, Error, Serialize, Deserialize)]
pub enum ReplayError {
    #[error(transparent)]
    Setup(#[from] SetupError),
    #[error("command {index} was refused: {error}")]
    Refused { index: usize, error: RuleError },
}

impl Duel {
    /// A new duel with a preset deck: both decks are shuffled with `seed`, both players
    /// draw 5, and the duel moves on to Main Phase 1.
    pub fn new(deck_id: &str, seed: u64) -> Result<Duel, SetupError> {
        Duel::with_settings(deck_id, seed, Settings::default())
    }

    /// [`Duel::new`] with non-default rule settings.
    pub fn with_settings(deck_id: &str, seed: u64, settings: Settings) -> Result<Duel, SetupError> {
        let d = deck(deck_id).ok_or_else(|| SetupError::UnknownDeck(deck_id.to_string()))?;
        if !d.playable {
            return Err(SetupError::DeckNotPlayable(deck_id.to_string()));
        }
        let mut placed: Vec<(Code, Player, Location, Face)> = d
            .main_codes()
            .into_iter()
            .map(|c| (c, Player::You, Location::Deck, Face::Down))
            .collect();
        placed.extend(
            d.extra_codes()
                .into_iter()
                .map(|c| (c, Player::You, Location::ExtraDeck, Face::Down)),
        );
        placed.extend(
            opponent_deck()
                .into_iter()
                .map(|c| (c, Player::Opponent, Location::Deck, Face::Down)),
        );
        let mut duel = Duel::assemble(
            deck_id.to_string(),
            seed,
            settings,
            placed,
            [STARTING_LP; 2],
            true,
        )?;
        duel.open(OPENING_HAND, Phase::Main1);
        Ok(duel)
    }

    /// Replays a recorded game: the same deck, seed, settings and commands give the
    /// same duel. Undo is a replay without the last command.
    pub fn replay(
        deck_id: &str,
        seed: u64,
        settings: Settings,
        log: &[Command],
    ) -> Result<Duel, ReplayError> {
        let mut duel = Duel::with_settings(deck_id, seed, settings)?;
        for (index, cmd) in log.iter().enumerate() {
            duel.apply(cmd.clone())
                .map_err(|error| ReplayError::Refused { index, error })?;
        }
        Ok(duel)
    }

    /// The same duel without its last command (nothing to undo: unchanged copy).
    pub fn undo(&self) -> Result<Duel, ReplayError> {
        let n = self.log.len().saturating_sub(1);
        Duel::replay(&self.deck_id, self.seed, self.settings, &self.log[..n])
    }
}

/// An explicit starting position, for scenario tests and puzzles. Unchecked input:
/// [`Setup::build`] turns it into a duel or says why it cannot.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Setup {
    pub seed: u64,
    pub settings: Settings,
    /// Your hand.
    pub hand: Vec<Code>,
    /// Your deck, top card first.
    pub deck: Vec<Code>,
    pub graveyard: Vec<Code>,
    pub extra: Vec<Code>,
    /// Face-up Attack Position monsters.
    pub monsters: Vec<Code>,
    /// Face-down set spells/traps (placed before this turn unless `set_this_turn`).
    pub set_spells: Vec<Code>,
    pub set_this_turn: bool,
    /// Face-up spells on the field (a field spell goes to the field zone).
    pub face_up_spells: Vec<Code>,
    /// `[you, opponent]`; `None` means 8000 each.
    pub lp: Option<[u32; 2]>,
    /// Cards in the opponent's hand and deck (vanilla monsters); `None` means 5 and 35.
    pub opponent: Option<(usize, usize)>,
    /// The phase the duel stops in (`None`: Main Phase 1).
    pub phase: Option<Phase>,
}

impl Setup {
    /// A duel in Main Phase 1 with exactly these cards.
    pub fn build(self) -> Result<Duel, SetupError> {
        let mut placed = Vec::new();
        let mut add = |codes: &[Code], loc: Location, face: Face| {
            for &c in codes {
                placed.push((c, Player::You, loc, face));
            }
        };
        add(&self.hand, Location::Hand, Face::Up);
        add(&self.deck, Location::Deck, Face::Down);
        add(&self.graveyard, Location::Graveyard, Face::Up);
        add(&self.extra, Location::ExtraDeck, Face::Down);
        add(&self.monsters, Location::MainMonsterZone(0), Face::Up);
        add(&self.set_spells, Location::SpellTrapZone(0), Face::Down);
        add(&self.face_up_spells, Location::SpellTrapZone(0), Face::Up);
        let (opp_hand, opp_deck) = self.opponent.unwrap_or((5, 35));
        let filler = opponent_deck();
        for i in 0..opp_hand + opp_deck {
            let code = filler[i % filler.len()];
            let loc = if i < opp_hand {
                Location::Hand
            } else {
                Location::Deck
            };
            placed.push((code, Player::Opponent, loc, Face::Down));
        }
        let mut duel = Duel::assemble(
            "custom".to_string(),
            self.seed,
            self.settings,
            placed,
            self.lp.unwrap_or([STARTING_LP; 2]),
            false,
        )?;
        if self.set_this_turn {
            for c in &mut duel.cards {
                if c.face == Face::Down && c.location.is_field() {
                    c.placed_this_turn = true;
                }
            }
        }
        duel.open(0, self.phase.unwrap_or(Phase::Main1));
        Ok(duel)
    }
}
