//! A computer opponent that chooses where to place and when to observe from win probabilities.
//!
//! The bot reads only what both players see: the stones with their probability
//! types, whose turn it is and the observation counters. It takes a
//! [`GameState`] and the [`GameOptions`], never a [`crate::Game`], so it cannot
//! reach the game's generator and the seed of the next collapse.
//!
//! # How it decides
//!
//! An observation after a placement wins for the observer with the chance
//! that its colour has a line (both colours count for the observer), loses
//! with the chance that only the other colour has one, and otherwise changes
//! nothing but the counter (which [`BotConfig::observation_cost`] charges).
//! So the bot weighs, for each cell it could place on, the value of observing
//! right away against the value of letting the opponent move, and looks three
//! placements deep (its own, every reply, its own next one), with an
//! observation decision after each; past the last one a position is worth
//! [`BotConfig::horizon_weight`] times "my line chance minus the opponent's".
//! Beyond the second placement only cells that complete a window of occupied
//! cells can change any chance (they are also where a completion is blocked),
//! so those few cells are searched in full.
//!
//! The chances inside the search come from one set of seeded random collapses
//! ("lanes") shared by every candidate, evaluated 64 collapses per machine
//! word: a stone is a bitmask over the lanes where it is black, a line is the
//! AND of its cells' masks. Sharing the collapses makes the differences
//! between candidates much less noisy than independent estimates would be.
//! Whether to observe after the chosen placement is then decided on the
//! engine's exact probability (sampled on crowded boards).
//!
//! Where the search sees no difference (early on, no line can be completed
//! within three placements, so every reply to a first stone looks alike), a
//! small shape term decides: the windows of `win_length` cells a placement
//! keeps open for the bot and those of the opponent it spoils.

mod lanes;
mod search;
mod table;

pub use search::MAX_DEPTH;

use crate::model::{Player, Position};
use crate::options::{GameOptions, OptionsError};
use crate::probability::{ProbabilityConfig, WinProbability, win_probability_of};
use crate::state::{GameState, GameStatus};
use seeded_rng::Rng;
use serde::{Deserialize, Serialize};

use search::{greedy, search};
use table::Table;
// What the unit tests at the end check.
#[cfg(test)]
use search::shape;
#[cfg(test)]
use table::Windows;

/// How the bot plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Strategy {
    /// The three-ply search over win probabilities described in the module docs.
    Search,
    /// A one-ply baseline: places where an observation right after would be
    /// best for it (win minus loss chance; among equal cells, next to the most
    /// of its own stones), and observes when its chance to win is at least 1/2.
    Greedy,
}

/// Tuning of the bot. [`BotConfig::default`] is what the page and the
/// harness use.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct BotConfig {
    /// Search or the greedy baseline.
    pub strategy: Strategy,
    /// Random collapses shared by every candidate of the search (rounded up to
    /// a multiple of 64, between 64 and [`MAX_SAMPLES`]).
    pub samples: u32,
    /// Placements looked ahead (2 to [`MAX_DEPTH`]): the bot's, the
    /// opponent's reply, the bot's next, ...
    pub depth: usize,
    /// Chances evaluated per decision (each one a placement in the shared
    /// collapses) before the search stops deepening further placements; the
    /// placements are deepened best first, at least one always.
    pub budget: usize,
    /// Observe whenever the chance of winning at once is at least this,
    /// whatever waiting might bring.
    pub observe_at: f64,
    /// The value of a position that nobody observes, per unit of "my line
    /// chance minus the opponent's" (the horizon of the search).
    pub horizon_weight: f64,
    /// What a missed observation costs the observer besides the turn (one of
    /// their few observations), in the same units as a win (1) and a loss (-1).
    pub observation_cost: f64,
    /// How the probabilities behind the observation decision are computed
    /// (exact for few stones on lines, sampled otherwise).
    pub probability: ProbabilityConfig,
}

/// The largest number of shared collapses the search accepts.
pub const MAX_SAMPLES: u32 = 4096;
const MAX_WORDS: usize = MAX_SAMPLES as usize / 64;

impl Default for BotConfig {
    fn default() -> Self {
        BotConfig {
            strategy: Strategy::Search,
            samples: 1024,
            depth: 3,
            budget: 200_000,
            observe_at: 0.8,
            horizon_weight: 0.5,
            observation_cost: 0.1,
            probability: ProbabilityConfig {
                // 2^14 assignments take about a millisecond; above that the
                // 20,000 samples cost about the same and err by under 0.4%.
                exact_max_stones: 14,
                samples: 20_000,
                ..ProbabilityConfig::default()
            },
        }
    }
}

/// What the bot does on its turn to place.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Turn {
    /// Where it places.
    pub position: Position,
    /// Whether it observes right after placing.
    pub observe: bool,
    /// The chances of an observation right after the placement, from which
    /// `observe` was decided.
    pub after: WinProbability,
}

/// The bot's answer for one player.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum Decision {
    /// It is the player's turn to place.
    Place(Turn),
    /// The player placed the latest stone and observes now.
    Observe,
    /// The player placed the latest stone and lets the opponent move.
    Pass,
}

/// Why the bot cannot decide. Nothing is changed either way: the bot only reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum BotError {
    /// The options cannot make a game.
    #[error("invalid options: {0}")]
    Options(#[from] OptionsError),
    /// The state contradicts the options or itself.
    #[error("inconsistent game state: {0}")]
    InvalidState(&'static str),
    /// The game is over.
    #[error("the game is over ({0})")]
    GameOver(GameStatus),
    /// The player may neither place nor observe now.
    #[error("{0} has nothing to decide now")]
    NothingToDecide(Player),
}

/// A computer player: a configuration and a seed. The same seed, state and
/// configuration always give the same decision.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bot {
    config: BotConfig,
    seed: u64,
}

impl Bot {
    /// The search bot with the default configuration.
    pub fn new(seed: u64) -> Bot {
        Bot::with_config(BotConfig::default(), seed)
    }

    /// The one-ply baseline (see [`Strategy::Greedy`]).
    pub fn greedy(seed: u64) -> Bot {
        Bot::with_config(
            BotConfig {
                strategy: Strategy::Greedy,
                ..BotConfig::default()
            },
            seed,
        )
    }

    /// A bot with any configuration.
    pub fn with_config(config: BotConfig, seed: u64) -> Bot {
        Bot { config, seed }
    }

    /// The configuration.
    pub fn config(&self) -> &BotConfig {
        &self.config
    }

    /// What `player` does now: place (with the decision to observe after it)
    /// when it is their turn; observe or pass when they placed the latest
    /// stone and may observe.
    pub fn decide(
        &self,
        state: &GameState,
        options: GameOptions,
        player: Player,
    ) -> Result<Decision, BotError> {
        let table = Table::new(state, options)?;
        if state.current_player == player && table.has_empty() {
            return Ok(Decision::Place(self.turn_on(&table)));
        }
        if state.last_mover == Some(player) && state.observations_remaining(player) > 0 {
            return Ok(if self.observe_now(&table, player) {
                Decision::Observe
            } else {
                Decision::Pass
            });
        }
        Err(BotError::NothingToDecide(player))
    }

    /// The current player's placement, and whether they observe after it.
    pub fn turn(&self, state: &GameState, options: GameOptions) -> Result<Turn, BotError> {
        let table = Table::new(state, options)?;
        if !table.has_empty() {
            return Err(BotError::NothingToDecide(state.current_player));
        }
        Ok(self.turn_on(&table))
    }

    fn rng(&self, table: &Table<'_>, salt: u64) -> Rng {
        // The turn number and counters vary the collapses from turn to turn;
        // nothing hidden goes in.
        let s = table.state;
        Rng::new(
            self.seed
                ^ u64::from(s.turn_count).wrapping_mul(0x9E37_79B9_7F4A_7C15)
                ^ (u64::from(s.black_observations_remaining) << 40)
                ^ (u64::from(s.white_observations_remaining) << 48)
                ^ salt.wrapping_mul(0xD1B5_4A32_D192_ED03),
        )
    }

    fn turn_on(&self, table: &Table<'_>) -> Turn {
        let me = table.state.current_player;
        let mut rng = self.rng(table, 1);
        let plan = match self.config.strategy {
            Strategy::Search => search(table, &self.config, &mut rng),
            Strategy::Greedy => greedy(table, &self.config, &mut rng),
        };
        let after_state = table.with_stone(plan.position, me);
        let after = win_probability_of(table.geometry, &after_state, &self.config.probability);
        let can_observe = table.state.observations_remaining(me) > 0;
        let observe = can_observe
            && match self.config.strategy {
                Strategy::Search => {
                    self.worth_observing(&after, me, plan.wait, plan.wait_after_miss)
                }
                Strategy::Greedy => after.wins(me, me) >= 0.5,
            };
        Turn {
            position: plan.position,
            observe,
            after,
        }
    }

    /// Observing is worth it when the chance of winning at once is high
    /// enough, or when win minus loss, plus the game going on after a miss,
    /// is worth more than letting the opponent move.
    fn worth_observing(&self, p: &WinProbability, me: Player, wait: f64, after_miss: f64) -> bool {
        let win = p.wins(me, me);
        let loss = p.wins(me.opponent(), me);
        let neither = (1.0 - win - loss).max(0.0);
        win >= self.config.observe_at
            || win - loss + neither * (after_miss - self.config.observation_cost) > wait
    }

    /// Whether `player`, who placed the latest stone, observes now. The
    /// value of waiting is the opponent's best turn seen from their side.
    fn observe_now(&self, table: &Table<'_>, player: Player) -> bool {
        let p = win_probability_of(table.geometry, table.state, &self.config.probability);
        if self.config.strategy == Strategy::Greedy {
            return p.wins(player, player) >= 0.5;
        }
        if !table.has_empty() {
            // Nobody can place any more: only observing can still decide the game.
            return p.wins(player, player) > p.wins(player.opponent(), player);
        }
        let mut rng = self.rng(table, 2);
        let theirs = search(table, &self.config, &mut rng);
        let mut missed = table.state.clone();
        let left = missed.observations_remaining_mut(player);
        *left = left.saturating_sub(1);
        let missed_table = Table {
            state: &missed,
            ..*table
        };
        let theirs_after_miss = search(&missed_table, &self.config, &mut self.rng(table, 2));
        self.worth_observing(&p, player, -theirs.value, -theirs_after_miss.value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_cover_each_line_once() {
        // 5x5, win 3: 3 windows per row and column, 9 per diagonal direction.
        let w = Windows::new(5, 3);
        assert_eq!(w.all.len() / 3, 5 * 3 * 2 + 9 * 2);
        // The centre lies on 3 windows in each of the four directions.
        assert_eq!(w.through[12].len() / 2, 12);
        // A corner lies on one window per direction except the anti-diagonal.
        assert_eq!(w.through[0].len() / 2, 3);
    }

    #[test]
    fn shape_counts_the_windows_a_cell_opens_for_me_and_spoils_for_the_opponent() {
        // 5x5, win 3. The opponent's pair on (0,0), (0,1); my stone on (4,2).
        let w = Windows::new(5, 3);
        let mut owner = vec![None; 25];
        owner[0] = Some(false);
        owner[1] = Some(false);
        owner[22] = Some(true);
        let at = |owner: &[Option<bool>], r: usize, c: usize| shape(&w, owner, r * 5 + c);
        // (0,2) spoils the pair's only window (two of theirs: 4) and one more of
        // (0,1)'s (one: 1).
        assert_eq!(at(&owner, 0, 2), 5.0);
        // (4,3) extends my stone in two windows of row 4 (one of mine each: 3 + 3).
        assert_eq!(at(&owner, 4, 3), 6.0);
        // (2,4) shares one window with my stone (the anti-diagonal to (4,2)).
        assert_eq!(at(&owner, 2, 4), 3.0);
        // (3,4) shares a window with no stone: nothing.
        assert_eq!(at(&owner, 3, 4), 0.0);
        // A window holding stones of both sides counts for neither: with my stone
        // on (0,3), (0,2) still spoils the pair (4), the window (0,1)-(0,3) is dead
        // and (0,2)-(0,4) is open for me (3).
        owner[3] = Some(true);
        assert_eq!(at(&owner, 0, 2), 7.0);
    }
}
