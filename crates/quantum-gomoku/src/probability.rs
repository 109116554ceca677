//! Win probabilities: how likely each colour is to have a line if someone observed now.
//!
//! Few unobserved stones are enumerated exactly (every black/white assignment,
//! weighted by its probability); more are estimated by seeded Monte-Carlo
//! sampling. Both run on bitboards and allocate nothing per configuration.

use crate::bitboard::{Bits, Geometry};
use crate::game::Game;
use crate::model::Player;
use crate::state::GameState;
use seeded_rng::Rng;
use serde::{Deserialize, Serialize};

/// The largest number of unobserved stones enumerated exactly, whatever the
/// configuration says: 2^24 assignments already take about a second.
pub const EXACT_LIMIT: usize = 24;

/// How to compute win probabilities.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct ProbabilityConfig {
    /// Enumerate exactly when at most this many unobserved stones could be on
    /// a line (capped at [`EXACT_LIMIT`]); sample otherwise. The default, 17,
    /// is where 2^17 assignments cost about as much as 100,000 samples.
    pub exact_max_stones: usize,
    /// Monte-Carlo sample count (at least 1 is drawn).
    pub samples: u32,
    /// Seed of the sampler, so the same board gives the same estimate.
    pub seed: u64,
}

impl Default for ProbabilityConfig {
    fn default() -> Self {
        ProbabilityConfig {
            exact_max_stones: 17,
            samples: 100_000,
            seed: 0x5EED_0B5E_47A7_10A5,
        }
    }
}

/// How a [`WinProbability`] was obtained.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum ProbabilityMethod {
    /// Every assignment of the unobserved stones was weighed.
    Exact {
        /// Number of assignments (2^stones).
        configurations: u64,
    },
    /// Random collapses were counted.
    MonteCarlo {
        /// Number of collapses drawn.
        samples: u32,
    },
}

/// Chances of the outcomes of an observation made now. `black_line` and
/// `white_line` include `both`; `black_line + white_line - both + neither == 1`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WinProbability {
    /// Black has at least one line.
    pub black_line: f64,
    /// White has at least one line.
    pub white_line: f64,
    /// Both colours have a line (the observer would win).
    pub both: f64,
    /// Neither colour has a line (the board would go back to unobserved).
    pub neither: f64,
    /// Number of unobserved stones that could be part of a line (the others
    /// cannot change the outcome and are left out).
    pub stones: usize,
    /// Exact or sampled.
    pub method: ProbabilityMethod,
}

impl WinProbability {
    /// The chance that `player` wins if `observer` observes now: their own
    /// colour's line alone, plus both lines when they are the observer.
    pub fn wins(&self, player: Player, observer: Player) -> f64 {
        let own = match player {
            Player::Black => self.black_line,
            Player::White => self.white_line,
        };
        if player == observer {
            own
        } else {
            own - self.both
        }
    }

    fn from_weights(w: [f64; 4], stones: usize, method: ProbabilityMethod) -> WinProbability {
        let total: f64 = w.iter().sum();
        let norm = if total > 0.0 { 1.0 / total } else { 0.0 };
        WinProbability {
            black_line: (w[1] + w[3]) * norm,
            white_line: (w[2] + w[3]) * norm,
            both: w[3] * norm,
            neither: w[0] * norm,
            stones,
            method,
        }
    }
}

/// One unobserved stone, ready for sampling.
#[derive(Debug, Clone, Copy)]
struct Free {
    bit: usize,
    /// `P(black) * 2^32`: a uniform `u32` below it means black.
    threshold: u32,
    p_black: f64,
}

/// A board reduced to what sampling needs.
#[derive(Debug, Clone)]
struct Prepared {
    geometry: Geometry,
    occupied: Bits,
    fixed_black: Bits,
    free: Vec<Free>,
}

impl Prepared {
    /// `state`'s board must have the geometry's size (a `Game` guarantees it;
    /// the bot checks it before calling).
    fn new(geometry: Geometry, state: &GameState) -> Prepared {
        let mut occupied = Bits::default();
        let mut fixed_black = Bits::default();
        let mut free = Vec::new();
        for (pos, _) in state.stones() {
            occupied.set(geometry.index(pos.row, pos.col));
        }
        let relevant = geometry.on_runs(&occupied);
        for (pos, stone) in state.stones() {
            let bit = geometry.index(pos.row, pos.col);
            match stone.observed_color {
                Some(Player::Black) => fixed_black.set(bit),
                Some(Player::White) => {}
                // A stone on no run of occupied cells cannot be part of a
                // line whatever its colour: leaving it out keeps the result
                // exact and shrinks the enumeration.
                None if !Geometry::contains(&relevant, bit) => {}
                None => {
                    let p_black = stone.probability_type.black_probability();
                    // p is one of 0.1..0.9, so the product is inside u32.
                    let threshold = (p_black * 4_294_967_296.0).round() as u32;
                    free.push(Free {
                        bit,
                        threshold,
                        p_black,
                    });
                }
            }
        }
        Prepared {
            geometry,
            occupied,
            fixed_black,
            free,
        }
    }

    /// 0 = no line, 1 = black only, 2 = white only, 3 = both.
    #[inline]
    fn outcome(&self, black: &Bits) -> usize {
        let white = self.occupied.and_not(black);
        usize::from(self.geometry.has_line(black))
            | (usize::from(self.geometry.has_line(&white)) << 1)
    }

    fn sample(&self, samples: u32, seed: u64) -> [u64; 4] {
        let mut rng = Rng::new(seed);
        let mut counts = [0u64; 4];
        for _ in 0..samples {
            let mut black = self.fixed_black;
            // One 64-bit draw decides two stones (32 bits each).
            let mut pairs = self.free.chunks_exact(2);
            for pair in &mut pairs {
                let r = rng.next_u64();
                black.set_if(pair[0].bit, (r as u32) < pair[0].threshold);
                black.set_if(pair[1].bit, ((r >> 32) as u32) < pair[1].threshold);
            }
            if let [last] = pairs.remainder() {
                let r = rng.next_u64();
                black.set_if(last.bit, (r as u32) < last.threshold);
            }
            counts[self.outcome(&black)] += 1;
        }
        counts
    }

    /// Weights of every assignment of a group of free stones, indexed by the
    /// bitmask of the stones that are black.
    fn half_table(group: &[Free]) -> (Vec<Bits>, Vec<f64>) {
        let n = 1usize << group.len();
        let mut bits = vec![Bits::default(); n];
        let mut weights = vec![1.0f64; n];
        for mask in 0..n {
            for (i, f) in group.iter().enumerate() {
                if mask & (1 << i) != 0 {
                    bits[mask].set(f.bit);
                    weights[mask] *= f.p_black;
                } else {
                    weights[mask] *= 1.0 - f.p_black;
                }
            }
        }
        (bits, weights)
    }

    fn enumerate(&self) -> [f64; 4] {
        // Meet in the middle: two tables of 2^(n/2) rows instead of
        // recomputing n factors for each of the 2^n assignments.
        let (lo, hi) = self.free.split_at(self.free.len() / 2);
        let (lo_bits, lo_w) = Prepared::half_table(lo);
        let (hi_bits, hi_w) = Prepared::half_table(hi);
        let mut acc = [0.0f64; 4];
        for (hb, &hw) in hi_bits.iter().zip(&hi_w) {
            let base = self.fixed_black.or(hb);
            let mut part = [0.0f64; 4];
            for (lb, &lw) in lo_bits.iter().zip(&lo_w) {
                part[self.outcome(&base.or(lb))] += lw;
            }
            for (a, p) in acc.iter_mut().zip(part) {
                *a += p * hw;
            }
        }
        acc
    }
}

/// The chances of each outcome if someone observed `game` now.
///
/// Stones already observed (a finished game) keep their colour. Exact when
/// the unobserved stones are at most `config.exact_max_stones` (and
/// [`EXACT_LIMIT`]), otherwise `config.samples` seeded random collapses.
pub fn win_probability(game: &Game, config: &ProbabilityConfig) -> WinProbability {
    win_probability_of(*game.geometry(), game.state(), config)
}

/// [`win_probability`] on a public state whose board matches `geometry`.
pub(crate) fn win_probability_of(
    geometry: Geometry,
    state: &GameState,
    config: &ProbabilityConfig,
) -> WinProbability {
    let prepared = Prepared::new(geometry, state);
    let stones = prepared.free.len();
    if stones <= config.exact_max_stones.min(EXACT_LIMIT) {
        let acc = prepared.enumerate();
        WinProbability::from_weights(
            acc,
            stones,
            ProbabilityMethod::Exact {
                configurations: 1u64 << stones,
            },
        )
    } else {
        sample_prepared(&prepared, config.samples, config.seed)
    }
}

/// Monte-Carlo estimate with `samples` collapses (at least 1), whatever the
/// number of stones.
pub fn sample_win_probability(game: &Game, samples: u32, seed: u64) -> WinProbability {
    sample_prepared(
        &Prepared::new(*game.geometry(), game.state()),
        samples,
        seed,
    )
}

fn sample_prepared(prepared: &Prepared, samples: u32, seed: u64) -> WinProbability {
    let samples = samples.max(1);
    let counts = prepared.sample(samples, seed);
    let weights = counts.map(|c| c as f64);
    WinProbability::from_weights(
        weights,
        prepared.free.len(),
        ProbabilityMethod::MonteCarlo { samples },
    )
}

impl Game {
    /// Shortcut for [`win_probability`].
    pub fn win_probability(&self, config: &ProbabilityConfig) -> WinProbability {
        win_probability(self, config)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{GameOptions, Position};

    fn play(size: usize, win: usize, cells: &[(usize, usize)]) -> Game {
        let mut g = Game::new(GameOptions::new(size, win), 3, 0).expect("valid options");
        for (i, &(r, c)) in cells.iter().enumerate() {
            let p = if i % 2 == 0 {
                Player::Black
            } else {
                Player::White
            };
            g.place(p, Position::new(r, c)).expect("legal");
        }
        g
    }

    #[test]
    fn empty_board_has_no_line() {
        let g = play(15, 3, &[]);
        let p = win_probability(&g, &ProbabilityConfig::default());
        assert_eq!(p.neither, 1.0);
        assert_eq!(p.method, ProbabilityMethod::Exact { configurations: 1 });
    }

    #[test]
    fn three_in_a_row_by_hand() {
        // Black P90 at (0,0), white P10 at (1,0), black P70 at (0,1), white P30
        // at (1,1), black P90 at (0,2): black has a line iff the three top
        // stones are black: 0.9 * 0.7 * 0.9.
        let g = play(5, 3, &[(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)]);
        let p = win_probability(&g, &ProbabilityConfig::default());
        assert!((p.black_line - 0.9 * 0.7 * 0.9).abs() < 1e-12, "{p:?}");
        // White needs (0,0),(0,1),(0,2) white too: 0.1*0.3*0.1.
        assert!((p.white_line - 0.1 * 0.3 * 0.1).abs() < 1e-12, "{p:?}");
        assert_eq!(p.both, 0.0);
        let total = p.black_line + p.white_line - p.both + p.neither;
        assert!((total - 1.0).abs() < 1e-12);
    }

    #[test]
    fn sampling_is_seeded() {
        let g = play(9, 3, &[(4, 4), (4, 5), (5, 4), (5, 5), (3, 3), (6, 6)]);
        let a = sample_win_probability(&g, 5_000, 7);
        let b = sample_win_probability(&g, 5_000, 7);
        assert_eq!(a, b);
    }

    #[test]
    fn observer_takes_the_shared_outcome() {
        let p = WinProbability {
            black_line: 0.5,
            white_line: 0.3,
            both: 0.1,
            neither: 0.3,
            stones: 4,
            method: ProbabilityMethod::Exact { configurations: 16 },
        };
        assert!((p.wins(Player::Black, Player::Black) - 0.5).abs() < 1e-12);
        assert!((p.wins(Player::Black, Player::White) - 0.4).abs() < 1e-12);
    }
}
