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
//! (`battle-line-bench calibrate-cut`, README *What was tried for hard*). The samples
//! also carry [`cut_features`], richer numbers of the position, and [`CutBlend`] is the
//! odds chance and the partner's blended (twenty-third round; neither played better).

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
        let between = |a: f64, b: f64| between_fits(deck, a, b);
        CutCalibration {
            flag_sharpness: between(hi.flag_sharpness, lo.flag_sharpness),
            game_temperature: between(hi.game_temperature, lo.game_temperature),
        }
    }
}

/// A blend of two chances of winning the game at a cut position: the odds evaluation's
/// corrected by [`CUT_CALIBRATION`] and the sparring partner's, each as a logit, weighted
/// and turned back into a chance: `σ(odds · logit g_odds + partner · logit g_partner)`.
/// Fitted by least log-loss (issue 23, twenty-third round) on the samples of
/// `battle-line-bench calibrate-cut 0 1200 sparring sparring` and `… playout-ways
/// sparring` together (even seeds, 9,352 samples; odd seeds held out: log-loss 0.5554
/// for the calibrated odds alone, 0.5450 for the partner's alone, 0.5372 blended), by a
/// logistic regression on the two logits computed from the CSV files' flag chances,
/// outside the bench, at each deck size apart; its constant term (0.06 and -0.02) is
/// left out, so the blend reads both seats alike. Not kept for a level: it played no
/// better than hard (README, twenty-third round).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CutBlend {
    pub odds: f64,
    pub partner: f64,
}

/// The blend fitted where the troop deck first holds at most 20 cards, and at most 10.
const CUT_BLEND_DECK_20: CutBlend = CutBlend {
    odds: 0.32,
    partner: 0.79,
};
const CUT_BLEND_DECK_10: CutBlend = CutBlend {
    odds: 0.65,
    partner: 0.39,
};

impl CutBlend {
    /// The blend for a troop deck of `deck` cards: each fit at its size and beyond, a
    /// straight line between (as [`CutCalibration::for_deck`]).
    pub fn for_deck(deck: usize) -> CutBlend {
        let (hi, lo) = (CUT_BLEND_DECK_20, CUT_BLEND_DECK_10);
        CutBlend {
            odds: between_fits(deck, hi.odds, lo.odds),
            partner: between_fits(deck, hi.partner, lo.partner),
        }
    }

    /// The blended chance that `me` wins `game` (not over), from what `me` may know.
    pub(crate) fn game_chance(&self, game: &Game, me: Player, params: Params) -> f64 {
        let odds = CUT_CALIBRATION.game_chance(&Seat::new(game, me, params).flag_chances());
        let partner = super::sparring::game_chance(game, me);
        let z = self.odds * logit(odds) + self.partner * logit(partner);
        1.0 / (1.0 + (-z).exp())
    }
}

/// `ln(p / (1 − p))`, with `p` kept within 10⁻⁴ of 0 and 1.
fn logit(p: f64) -> f64 {
    let p = p.clamp(1e-4, 1.0 - 1e-4);
    (p / (1.0 - p)).ln()
}

/// A number fitted where the troop deck first held at most 20 cards (`at_20`) and at
/// most 10 (`at_10`), for a deck of `deck` cards: each fit at its size and beyond, a
/// straight line between.
fn between_fits(deck: usize, at_20: f64, at_10: f64) -> f64 {
    let t = ((20.0 - deck as f64) / 10.0).clamp(0.0, 1.0);
    at_20 + t * (at_10 - at_20)
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
    /// What [`cut_features`] reads there from the seat.
    pub features: [f64; CUT_FEATURES],
}

/// How many numbers [`cut_features`] gives.
pub const CUT_FEATURES: usize = 20;

/// The names of [`cut_features`]' numbers, in order.
pub const CUT_FEATURE_NAMES: [&str; CUT_FEATURES] = [
    "logit_cal",
    "claimed",
    "expected_flags",
    "my_breakthrough",
    "their_breakthrough",
    "my_tactics",
    "their_tactics",
    "my_troop_values",
    "their_troop_values",
    "my_troops",
    "their_troops",
    "my_open_slots",
    "their_open_slots",
    "tactics_played",
    "my_leader",
    "their_leader",
    "leaders_played",
    "to_move",
    "deck",
    "sure_flags",
];

/// What a position offers `me` beyond each flag's chance taken alone: the calibrated
/// game chance's logit, the flags claimed and the expected flags, the likeliest three
/// adjacent flags for each side, the hands (tactics, troops and their values, a leader),
/// the open slots each side must still fill, the tactics each side played, who moves,
/// the troop deck, and the flags each side is all but sure of. `p` is the seat's flag
/// chances by the odds evaluation. Both hands are read as they are: the whole position,
/// as a rollout's sampled deal or a recorded game holds it, not what `me` may see.
pub fn cut_features(game: &Game, me: Player, p: &[f64; 9]) -> [f64; CUT_FEATURES] {
    let other = me.opponent();
    let g = CUT_CALIBRATION.game_chance(p).clamp(1e-4, 1.0 - 1e-4);
    let claimed = |who: Player| game.flags().iter().filter(|f| f.owner == Some(who)).count() as f64;
    let window = |q: &dyn Fn(f64) -> f64| {
        (0..7)
            .map(|i| q(p[i]) * q(p[i + 1]) * q(p[i + 2]))
            .fold(0.0, f64::max)
    };
    let hand = |who: Player| {
        let cards = game.hand(who);
        let tactics = cards.iter().filter(|c| c.troop().is_none()).count() as f64;
        let troops: Vec<u8> = cards
            .iter()
            .filter_map(|c| c.troop())
            .map(|t| t.value)
            .collect();
        let leader = cards
            .iter()
            .any(|c| matches!(c, crate::card::Card::Tactic(t) if t.is_leader()));
        (
            tactics,
            troops.iter().map(|&v| f64::from(v)).sum::<f64>() / 10.0,
            troops.len() as f64,
            f64::from(u8::from(leader)),
        )
    };
    let open = |who: Player| {
        game.flags()
            .iter()
            .filter(|f| f.owner.is_none())
            .map(|f| f.capacity().saturating_sub(f.slots(who).len()))
            .sum::<usize>() as f64
    };
    let (mt, mv, mn, ml) = hand(me);
    let (tt, tv, tn, tl) = hand(other);
    let sure = p.iter().filter(|&&x| x > 0.99).count() as f64
        - p.iter().filter(|&&x| x < 0.01).count() as f64;
    [
        (g / (1.0 - g)).ln(),
        claimed(me) - claimed(other),
        p.iter().sum::<f64>() - 4.5,
        window(&|x| x),
        window(&|x| 1.0 - x),
        mt,
        tt,
        mv,
        tv,
        mn,
        tn,
        open(me),
        open(other),
        f64::from(game.tactics_played(me)) - f64::from(game.tactics_played(other)),
        ml,
        tl,
        f64::from(u8::from(game.leader_played(me)))
            - f64::from(u8::from(game.leader_played(other))),
        f64::from(u8::from(game.current() == me)),
        game.troop_deck_len() as f64 / 10.0,
        sure,
    ]
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
                    let odds = Seat::new(&game, seat, Params::default()).flag_chances();
                    out.push(CutSample {
                        seed,
                        seat,
                        threshold,
                        to_move: game.current() == seat,
                        odds,
                        partner: super::sparring::flag_chances(&game, seat),
                        result: winner.map_or(0.5, |w| f64::from(u8::from(w == seat))),
                        features: cut_features(&game, seat, &odds),
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
    fn the_blend_by_deck_is_each_fit_at_its_size_and_gives_chances() {
        assert_eq!(CutBlend::for_deck(25), CUT_BLEND_DECK_20);
        assert_eq!(CutBlend::for_deck(5), CUT_BLEND_DECK_10);
        let mid = CutBlend::for_deck(15);
        assert!((mid.odds - 0.485).abs() < 1e-12 && (mid.partner - 0.59).abs() < 1e-12);
        // At a game's start the blend is a chance from either seat.
        let game = Game::new(3, crate::game::Settings::default());
        let blend = CutBlend::for_deck(game.troop_deck_len());
        let g = Player::BOTH.map(|me| blend.game_chance(&game, me, Params::default()));
        assert!(g.iter().all(|x| (0.0..=1.0).contains(x)), "{g:?}");
        // A weight of 1 on one score alone gives that score back; logits stay finite.
        let sure = CutBlend {
            odds: 1.0,
            partner: 0.0,
        };
        assert!((1.0 / (1.0 + (-sure.odds * logit(0.8)).exp()) - 0.8).abs() < 1e-9);
        assert_eq!(logit(0.5), 0.0);
        assert!(logit(1.0).is_finite() && logit(0.0).is_finite());
    }

    #[test]
    fn the_cut_features_read_the_seat_and_its_opponent_the_other_way_round() {
        let game = Game::new(5, crate::game::Settings::default());
        let p = Seat::new(&game, Player::P0, Params::default()).flag_chances();
        let mine = cut_features(&game, Player::P0, &p);
        let q = Seat::new(&game, Player::P1, Params::default()).flag_chances();
        let theirs = cut_features(&game, Player::P1, &q);
        assert!(mine.iter().chain(&theirs).all(|x| x.is_finite()));
        let at = |name: &str| {
            CUT_FEATURE_NAMES
                .iter()
                .position(|n| *n == name)
                .expect("a feature")
        };
        // The hands as dealt: each seat's own tactics and troops are the other's "theirs".
        for (a, b) in [
            ("my_troops", "their_troops"),
            ("my_troop_values", "their_troop_values"),
        ] {
            assert_eq!(mine[at(a)], theirs[at(b)]);
        }
        assert_eq!(mine[at("to_move")] + theirs[at("to_move")], 1.0);
        assert_eq!(mine[at("claimed")], 0.0);
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
