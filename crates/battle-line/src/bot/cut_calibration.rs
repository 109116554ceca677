//! The calibration of the cut rollouts' score (issue 23, nineteenth round).
//!
//! Hard's rollouts stop once the troop deck holds at most 20 cards and are scored by a
//! chance of winning the game: the flags' chances combined over the 512 ways the nine
//! flags can fall ([`super::eval::game_chance`]). That combination treats the flags as
//! independent although they draw from one pool, so its chances may be too flat or too
//! sharp. [`cut_samples`] records, in played games, what the cut score sees where the
//! troop deck first holds at most a given number of cards (each flag's chance from
//! both seats, by the odds evaluation and by the sparring partner) with the game's
//! result; [`CutCalibration`] is the two-number correction fitted to them
//! (`battle-line-bench calibrate-cut`, README *What was tried for hard*).

use super::Contender;
use super::eval::{Params, Seat, game_chance};
use crate::game::{Game, Phase, Player};

/// A correction of a chance of winning the game combined from flag chances: each
/// flag's chance `p` becomes `σ(flag_sharpness · logit p)` (= `pᵃ / (pᵃ + (1 − p)ᵃ)`)
/// before the 512 ways are counted, and the game chance `g` they give becomes
/// `σ(game_temperature · logit g)`. Sure chances (0 or 1) stay as they are; 1 and 1 is
/// no correction.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CutCalibration {
    pub flag_sharpness: f64,
    pub game_temperature: f64,
}

impl CutCalibration {
    /// No correction: the plain combination.
    pub const NONE: CutCalibration = CutCalibration {
        flag_sharpness: 1.0,
        game_temperature: 1.0,
    };

    /// The corrected chance of winning the game for flag chances `p`.
    pub fn game_chance(&self, p: &[f64; 9]) -> f64 {
        let mut q = *p;
        if self.flag_sharpness != 1.0 {
            for x in &mut q {
                *x = sharpen(*x, self.flag_sharpness);
            }
        }
        let g = game_chance(&q).clamp(0.0, 1.0);
        if self.game_temperature == 1.0 {
            g
        } else {
            sharpen(g, self.game_temperature)
        }
    }
}

/// `σ(a · logit p)`, exact at 0 and 1.
fn sharpen(p: f64, a: f64) -> f64 {
    if p <= 0.0 {
        0.0
    } else if p >= 1.0 {
        1.0
    } else {
        // `exp(a · ln(odds))` rather than `powf`: the page's bundle links `exp` and `ln`
        // already, while `powf`'s own code took it over its size budget (by 88 bytes).
        let x = (a * (p / (1.0 - p)).ln()).exp();
        x / (1.0 + x)
    }
}

/// The correction of hard's cut score (`CutScore::OddsCalibrated`, the harness's
/// `hard-cal`), fitted on 2026-12-06 by least log-loss (a grid of steps 0.1, then 0.01)
/// on the even seeds of `battle-line-bench calibrate-cut 0 1200` (the sparring partner
/// against itself, each seed from both seats; at the first positions of each game where
/// the troop deck holds at most 20 and at most 10 cards, the odds evaluation's flag
/// chances from each seat against that seat's result: 9,248 samples) and checked on
/// the odd seeds: log-loss 0.5577 plain, 0.5509 corrected (deck 20: 0.5930 and 0.5842;
/// deck 10: 0.5205 and 0.5159). The flags' chances are too sharp (0.64 < 1) and the
/// game chance they then give too flat (1.22 > 1): near-sure flags were less sure than
/// the odds said. To refit: run that command (`… calibrate-cut-csv FILE` refits saved
/// samples), and copy the pair it prints for both deck sizes together here.
pub const CUT_CALIBRATION: CutCalibration = CutCalibration {
    flag_sharpness: 0.64,
    game_temperature: 1.22,
};

/// The correction fitted at each deck size apart (the same samples and fit as
/// [`CUT_CALIBRATION`], README *What was tried for hard*, nineteenth round): where the
/// troop deck first holds at most 20 cards, (0.40, 1.30); at most 10, (0.79, 1.20). The
/// flags' chances are the more too sharp the more cards are still to come.
const CUT_CALIBRATION_DECK_20: CutCalibration = CutCalibration {
    flag_sharpness: 0.40,
    game_temperature: 1.30,
};
const CUT_CALIBRATION_DECK_10: CutCalibration = CutCalibration {
    flag_sharpness: 0.79,
    game_temperature: 1.20,
};

impl CutCalibration {
    /// The correction for a position whose troop deck holds `deck` cards: the pair
    /// fitted at 20 cards from 20 up, the one fitted at 10 from 10 down, in a straight
    /// line between (`CutScore::OddsCalibratedByDeck`, the harness's `hard-cal-deck`).
    pub fn for_deck(deck: usize) -> CutCalibration {
        let (hi, lo) = (CUT_CALIBRATION_DECK_20, CUT_CALIBRATION_DECK_10);
        let t = ((20.0 - deck as f64) / 10.0).clamp(0.0, 1.0);
        CutCalibration {
            flag_sharpness: hi.flag_sharpness + t * (lo.flag_sharpness - hi.flag_sharpness),
            game_temperature: hi.game_temperature + t * (lo.game_temperature - hi.game_temperature),
        }
    }
}

/// What the cut score sees at one recorded position, from one seat, and how the game
/// ended for that seat.
#[derive(Debug, Clone)]
pub struct CutSample {
    /// The game's seed.
    pub seed: u64,
    /// The seat the chances are seen from and the result is for.
    pub seat: Player,
    /// The deck size asked for: the position is the game's first where the troop deck
    /// held at most this many cards.
    pub threshold: usize,
    /// Whether the seat was the player to move there.
    pub to_move: bool,
    /// Each flag's chance for the seat by the odds evaluation (hard's `CutScore::Odds`).
    pub odds: [f64; 9],
    /// Each flag's chance for the seat by the sparring partner (`CutScore::Partner`).
    pub partner: [f64; 9],
    /// 1 if the seat won the game, 0 if it lost, ½ for a stalemate or an unfinished game.
    pub result: f64,
}

/// Plays each seed of `seeds` twice between `a` and `b` (`a` as P0, then as P1) and
/// records, for each deck size of `thresholds`, the first position of the game where
/// the troop deck held at most that many cards (if the game was not over), from both
/// seats.
pub fn cut_samples(
    seeds: std::ops::Range<u64>,
    a: Contender,
    b: Contender,
    thresholds: &[usize],
) -> Vec<CutSample> {
    let mut out = Vec::new();
    for seed in seeds {
        for seats in [[a, b], [b, a]] {
            let mut seen: Vec<(usize, Game)> = Vec::new();
            let end = super::play_watched(seed, seats, 2000, |game, _, _| {
                for &t in thresholds {
                    if game.troop_deck_len() <= t
                        && !game.is_over()
                        && seen.iter().all(|(s, _)| *s != t)
                    {
                        seen.push((t, game.clone()));
                    }
                }
            });
            let winner = match end.phase() {
                Phase::GameOver { winner, .. } => Some(winner),
                _ => None,
            };
            for (threshold, game) in seen {
                for seat in Player::BOTH {
                    out.push(CutSample {
                        seed,
                        seat,
                        threshold,
                        to_move: game.current() == seat,
                        odds: Seat::new(&game, seat, Params::default()).flag_chances(),
                        partner: super::sparring::flag_chances(&game, seat),
                        result: winner.map_or(0.5, |w| f64::from(u8::from(w == seat))),
                    });
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_correction_by_deck_is_each_fit_at_its_size_and_in_between_a_straight_line() {
        assert_eq!(CutCalibration::for_deck(30), CUT_CALIBRATION_DECK_20);
        assert_eq!(CutCalibration::for_deck(20), CUT_CALIBRATION_DECK_20);
        assert_eq!(CutCalibration::for_deck(10), CUT_CALIBRATION_DECK_10);
        assert_eq!(CutCalibration::for_deck(0), CUT_CALIBRATION_DECK_10);
        let mid = CutCalibration::for_deck(15);
        assert!((mid.flag_sharpness - 0.595).abs() < 1e-12);
        assert!((mid.game_temperature - 1.25).abs() < 1e-12);
    }

    #[test]
    fn no_correction_is_the_plain_combination_and_sure_chances_stay_sure() {
        let p = [0.3, 0.7, 0.5, 0.9, 0.1, 0.6, 0.4, 0.55, 0.45];
        assert_eq!(CutCalibration::NONE.game_chance(&p), game_chance(&p));
        let sharp = CutCalibration {
            flag_sharpness: 1.7,
            game_temperature: 0.8,
        };
        let g = sharp.game_chance(&p);
        assert!((0.0..=1.0).contains(&g));
        assert_eq!(sharp.game_chance(&[1.0; 9]), 1.0);
        assert_eq!(sharp.game_chance(&[0.0; 9]), 0.0);
        assert!((sharp.game_chance(&[0.5; 9]) - 0.5).abs() < 1e-12);
        assert!((sharpen(0.8, 2.0) - 0.64 / (0.64 + 0.04)).abs() < 1e-12);
    }

    #[test]
    fn samples_are_chances_from_both_seats_with_the_games_result() {
        let s = cut_samples(0..1, Contender::Sparring, Contender::Sparring, &[20]);
        assert!(!s.is_empty() && s.len().is_multiple_of(2));
        for x in &s {
            assert!(
                x.odds
                    .iter()
                    .chain(&x.partner)
                    .all(|p| (0.0..=1.0).contains(p))
            );
            assert!([0.0, 0.5, 1.0].contains(&x.result));
        }
        for pair in s.chunks(2) {
            assert_ne!(pair[0].seat, pair[1].seat);
            assert_ne!(pair[0].to_move, pair[1].to_move);
        }
    }
}
