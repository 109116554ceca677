//! The deal, the record a game is rebuilt from, replay and undo.
//!
//! Decks are shuffled from a seed or chosen; the computer fills a public skeleton of a game
//! with its guesses.

use crate::card::{Card, Tactic, Troop};
use crate::error::ReplayError;
use seeded_rng::Rng;
use serde::{Deserialize, Serialize};

use super::{Command, Game, HAND_SIZE, Phase, Player, Settings};

/// A chosen deck order (instead of a shuffle), for tutorials, puzzles and tests.
/// The last element of each deck is its top card; hands are dealt from the troop
/// deck's top, alternating P0, P1.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Deal {
    pub troops: Vec<Troop>,
    pub tactics: Vec<Tactic>,
}

/// Why a [`Deal`] is not a valid pair of decks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum DealError {
    /// The troop deck must hold each of the 60 troops exactly once.
    TroopsNotComplete,
    /// The tactic deck must hold each of the 10 tactics exactly once.
    TacticsNotComplete,
}

impl std::fmt::Display for DealError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            DealError::TroopsNotComplete => {
                "the troop deck must hold each of the 60 troops exactly once"
            }
            DealError::TacticsNotComplete => {
                "the tactic deck must hold each of the 10 tactics exactly once"
            }
        })
    }
}

impl std::error::Error for DealError {}

impl Deal {
    fn check(&self) -> Result<(), DealError> {
        let mut troops = self.troops.clone();
        troops.sort();
        if troops != Troop::all().collect::<Vec<_>>() {
            return Err(DealError::TroopsNotComplete);
        }
        let mut tactics = self.tactics.clone();
        tactics.sort();
        if tactics != Tactic::ALL.to_vec() {
            return Err(DealError::TacticsNotComplete);
        }
        Ok(())
    }
}

/// What a save needs: the game is rebuilt by replaying the log from the seed (or the
/// chosen deal).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    pub seed: u64,
    #[serde(default)]
    pub settings: Settings,
    #[serde(default)]
    pub deal: Option<Deal>,
    #[serde(default)]
    pub log: Vec<Command>,
}

impl TryFrom<GameRecord> for Game {
    type Error = ReplayError;
    fn try_from(r: GameRecord) -> Result<Game, ReplayError> {
        Game::replay(&r)
    }
}

impl Game {
    /// A new game: both decks shuffled from `seed`, 7 troops dealt to each player.
    pub fn new(seed: u64, settings: Settings) -> Game {
        let mut rng = Rng::new(seed);
        let mut troop_deck: Vec<Troop> = Troop::all().collect();
        let mut tactic_deck: Vec<Tactic> = Tactic::ALL.to_vec();
        rng.shuffle(&mut troop_deck);
        rng.shuffle(&mut tactic_deck);
        Game::deal_from(seed, settings, None, troop_deck, tactic_deck)
    }

    /// A game with the decks in the given order instead of shuffled.
    pub fn with_deal(settings: Settings, deal: Deal) -> Result<Game, DealError> {
        deal.check()?;
        let (troops, tactics) = (deal.troops.clone(), deal.tactics.clone());
        Ok(Game::deal_from(0, settings, Some(deal), troops, tactics))
    }

    fn deal_from(
        seed: u64,
        settings: Settings,
        deal: Option<Deal>,
        mut troop_deck: Vec<Troop>,
        tactic_deck: Vec<Tactic>,
    ) -> Game {
        let mut hands: [Vec<Card>; 2] = [Vec::new(), Vec::new()];
        for _ in 0..HAND_SIZE {
            for hand in hands.iter_mut() {
                if let Some(t) = troop_deck.pop() {
                    hand.push(Card::Troop(t));
                }
            }
        }
        Game {
            seed,
            settings,
            deal,
            troop_deck,
            tactic_deck,
            hands,
            flags: Default::default(),
            field: [Vec::new(), Vec::new()],
            troop_discard: Vec::new(),
            tactic_discard: Vec::new(),
            current: Player::P0,
            phase: Phase::Play,
            cards_played_this_turn: Vec::new(),
            active_guile_tactic: None,
            tactics_played: [0, 0],
            leader_played: [false, false],
            tick: 0,
            stuck_passes: 0,
            log: Vec::new(),
        }
    }

    /// Rebuilds a game from its seed and command log.
    pub fn replay(record: &GameRecord) -> Result<Game, ReplayError> {
        let mut g = match &record.deal {
            None => Game::new(record.seed, record.settings),
            Some(deal) => {
                Game::with_deal(record.settings, deal.clone()).map_err(ReplayError::BadDeal)?
            }
        };
        for (index, cmd) in record.log.iter().enumerate() {
            g.apply(*cmd)
                .map_err(|error| ReplayError::Refused { index, error })?;
        }
        Ok(g)
    }

    /// The seed, settings and log: enough to rebuild this game.
    pub fn record(&self) -> GameRecord {
        GameRecord {
            seed: self.seed,
            settings: self.settings,
            deal: self.deal.clone(),
            log: self.log.clone(),
        }
    }

    /// The game as it was before the last command (replay minus the last command).
    pub fn undo(&self) -> Result<Game, ReplayError> {
        let mut record = self.record();
        if record.log.pop().is_none() {
            return Err(ReplayError::NothingToUndo);
        }
        Game::replay(&record)
    }

    /// This game as `viewer` may know it: the other hand, both decks, the log, the
    /// seed and any chosen deal are emptied. The computer player builds its guesses
    /// about the hidden cards on this, so nothing hidden can reach its search.
    pub(crate) fn public_skeleton(&self, viewer: Player) -> Game {
        let mut g = Game {
            seed: 0,
            deal: None,
            troop_deck: Vec::new(),
            tactic_deck: Vec::new(),
            log: Vec::new(),
            hands: [Vec::new(), Vec::new()],
            ..self.clone()
        };
        g.hands[viewer.index()] = self.hands[viewer.index()].clone();
        g
    }

    /// The decks in order (last = top), for tests of what may be known about them.
    #[cfg(test)]
    pub(crate) fn decks(&self) -> (&[Troop], &[Tactic]) {
        (&self.troop_deck, &self.tactic_deck)
    }

    /// Gives flag `i` to `owner` without a claim, for tests of evaluations.
    #[cfg(test)]
    pub(crate) fn set_flag_owner_for_tests(&mut self, i: usize, owner: Player) {
        self.flags[i].owner = Some(owner);
    }

    /// Fills a skeleton's hidden places: `other`'s hand and the two decks (last = top).
    pub(crate) fn fill_hidden(
        &mut self,
        other: Player,
        hand: Vec<Card>,
        troop_deck: Vec<Troop>,
        tactic_deck: Vec<Tactic>,
    ) {
        self.hands[other.index()] = hand;
        self.troop_deck = troop_deck;
        self.tactic_deck = tactic_deck;
    }
}
