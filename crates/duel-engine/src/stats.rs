//! Deck statistics: how many seeded opening hands of a deck can be won this turn when the
//! deck order is known (an oracle), with a 95% interval, a histogram of the length of the
//! shortest winning line found for each hand (and how many of those are proved shortest),
//! the win rate of the hands holding each card, and the hands the search could not
//! decide. Each hand is solved alone, so the work can be split between threads or Web
//! Workers and tallied here.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::card::Code;
#[cfg(feature = "custom-decks")]
use crate::deal::Custom;
use crate::setup::SetupError;
use crate::solver::{Search, Shortest, minimize, order_for, shortest, solve_deep};
use crate::state::{Duel, Outcome, Player, Reason, Settings};

/// Bumped whenever a change to the rules or the solver can change what [`solve_hand`]
/// answers for a seed (the card data has its own fingerprint in [`engine_version`]).
pub const SOLVER_REVISION: u32 = 22;

/// What a stored result of [`solve_hand`] depends on besides its arguments: the crate's
/// version, [`SOLVER_REVISION`] and a fingerprint of the card data. A cache keyed by it
/// forgets results computed by another engine.
pub fn engine_version() -> String {
    format!(
        "duel-engine {} s{} data {:016x}",
        env!("CARGO_PKG_VERSION"),
        SOLVER_REVISION,
        crate::data::fingerprint()
    )
}

/// What the solver found for one opening hand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum HandResult {
    /// Won; the shortest line found has this many commands, and `proved`: no shorter
    /// line exists (see [`crate::solver::shortest`]).
    Won { commands: u16, proved: bool },
    /// Proved lost.
    Lost,
    /// The budget ran out first.
    Undecided,
}

impl HandResult {
    /// A short text: `w<commands>` (`w<commands>p` when proved shortest), `l` or `u`.
    pub fn code(self) -> String {
        match self {
            HandResult::Won { commands, proved } => {
                format!("w{commands}{}", if proved { "p" } else { "" })
            }
            HandResult::Lost => "l".to_owned(),
            HandResult::Undecided => "u".to_owned(),
        }
    }

    /// Reads [`HandResult::code`].
    pub fn from_code(code: &str) -> Option<HandResult> {
        match code {
            "l" => Some(HandResult::Lost),
            "u" => Some(HandResult::Undecided),
            _ => {
                let won = code.strip_prefix('w')?;
                let (digits, proved) = match won.strip_suffix('p') {
                    Some(digits) => (digits, true),
                    None => (won, false),
                };
                Some(HandResult::Won {
                    commands: digits.parse().ok()?,
                    proved,
                })
            }
        }
    }
}

/// The goal a deck plays for: the burn deck (whose main deck has no win pieces) wins by
/// LP 0, the others by Exodia.
pub fn goal_of(deck: &str) -> Result<Outcome, SetupError> {
    let d = crate::deck::deck(deck).ok_or_else(|| SetupError::UnknownDeck(deck.to_string()))?;
    let has_pieces = d.main_codes().into_iter().any(|code| {
        crate::card::card(code).is_some_and(|c| {
            c.rules
                .iter()
                .any(|r| matches!(r, crate::effect::RuleDef::WinWithAllInHand { .. }))
        })
    });
    Ok(if has_pieces {
        Outcome::Win(Reason::Exodia)
    } else {
        Outcome::Win(Reason::Lp0)
    })
}

/// The search budget the statistics give one opening hand ([`solver::solve_deep`]):
/// 10,000 guided playouts, with a depth-first search beside them and after them of up
/// to 800,000 positions (those that offer a choice), which only the hardest hands reach,
/// taking turns there with a search by deviations from the guide of up to 200,000.
/// Most hands are decided in tens of milliseconds natively, about 1% take one to fifteen
/// seconds; the hands it does not decide (at most 0.5% of any preset deck's) are
/// listed.
///
/// [`solver::solve_deep`]: crate::solver::solve_deep
pub const HAND_BUDGET: usize = 20_000;

/// The share of a hand's budget spent looking for a shorter line once one is found:
/// lines run to 20-45 commands, so the search only proves the shortest of very short
/// ones, and at the whole budget it took most of the time of a won hand (some 250 ms of
/// 270 ms at budget 20,000) for hardly a line proved (3 of 672 won hands).
pub const SHORTEN_SHARE: usize = 20;

/// The longest line a hint gives more than [`SHORTEN_SHARE`] to proving shortest: up to
/// its whole budget (what its solving left of it), see [`shorten_positions`].
pub const HINT_PROVABLE_LINE: usize = 30;

/// The positions the hint's search for a shorter line gets once it found a line of
/// `line` commands with a budget of `budget`: the whole budget for a line of at most
/// [`HINT_PROVABLE_LINE`] commands, a [`SHORTEN_SHARE`]th of it for a longer one (the
/// caller takes at most what solving left of the budget). The search proves short lines
/// within a few thousand positions and long ones hardly ever: on the 939 won positions
/// reached in play of `duel-hint-time -- 60 16000` (seeds 0-59 of each deck), 16,000
/// positions instead of 800 proved 13 more lines shortest among the 73 of at most 8
/// commands, 46 more among the 125 of 9-12, 33 among the 104 of 13-16, 17 among the 82
/// of 17-20, 53 among the 243 of 21-30 and 17 among the 312 longer ones, for some 0.02,
/// 0.15, 0.5, 1.3, 1.0 and 4.0 s of extra work a proof (in a run beside other work).
pub fn shorten_positions(budget: usize, line: usize) -> usize {
    if line <= HINT_PROVABLE_LINE {
        budget
    } else {
        budget / SHORTEN_SHARE
    }
}

/// The longest opening line [`solve_hand`] tries to prove shortest. At budget 20,000 the
/// one opening line ever proved (of 938 won hands over five decks) had 4 commands, none
/// of 14 or more was, and the search never found a line shorter than the minimized one
/// (0 of 153 won hands, seeds 0-59 of three decks) while taking 20-28 ms of each won
/// hand, as long as solving the hand itself for exodia-deck. Longer lines are only
/// minimized.
pub const PROVABLE_LINE: usize = 10;

/// Solves the opening hand of `deck` dealt by `seed` (deterministic: the same arguments
/// give the same answer on every machine).
pub fn solve_hand(
    deck: &str,
    seed: u64,
    settings: Settings,
    budget: usize,
) -> Result<HandResult, SetupError> {
    let goal = goal_of(deck)?;
    Ok(solve_duel(
        &Duel::with_settings(deck, seed, settings)?,
        goal,
        seed,
        budget,
    ))
}

/// The goal a duel [`Duel::dealt`] from `custom` plays for: a preset deck's (see
/// [`goal_of`]), or a deck list's own ([`DeckList::goal`](crate::deck_list::DeckList::goal):
/// the one the player chose when it can win both ways).
#[cfg(feature = "custom-decks")]
pub fn goal_of_dealt(deck: &str, custom: Option<&Custom>) -> Result<Outcome, SetupError> {
    match custom.and_then(|c| c.list.as_ref()) {
        Some(list) => list.goal().ok_or(SetupError::IllegalDeck(
            crate::deck_list::DeckProblem::NoWayToWin,
        )),
        None => goal_of(deck),
    }
}

/// [`solve_hand`] of the duel [`Duel::dealt`] from `custom`, played for `goal` (a deck
/// that can win both ways is solved for the goal the player chose).
#[cfg(feature = "custom-decks")]
pub fn solve_dealt_hand(
    deck: &str,
    custom: Option<&Custom>,
    goal: Outcome,
    seed: u64,
    settings: Settings,
    budget: usize,
) -> Result<HandResult, SetupError> {
    let duel = Duel::dealt(deck, custom, seed, settings)?;
    Ok(solve_duel(&duel, goal, seed, budget))
}

/// What [`solve_hand`] answers for a dealt duel.
fn solve_duel(duel: &Duel, goal: Outcome, seed: u64, budget: usize) -> HandResult {
    match solve_deep(duel, goal, budget, seed).0 {
        Search::Found(line) => {
            // A second, smaller search looks for a shorter line, where it can succeed.
            let line = minimize(duel, goal, line);
            let best = if line.len() <= PROVABLE_LINE {
                shortest(duel, goal, line, budget / SHORTEN_SHARE, &order_for(goal))
            } else {
                Shortest {
                    line,
                    proved: false,
                }
            };
            HandResult::Won {
                commands: u16::try_from(best.line.len()).unwrap_or(u16::MAX),
                proved: best.proved,
            }
        }
        Search::Impossible => HandResult::Lost,
        Search::GaveUp | Search::Cancelled => HandResult::Undecided,
    }
}

/// The opening hand the duel of `seed` deals, as passcodes in hand order: the hand
/// [`solve_hand`] solves from (both start from `Duel::with_settings`).
pub fn opening_hand(deck: &str, seed: u64, settings: Settings) -> Result<Vec<Code>, SetupError> {
    let duel = Duel::with_settings(deck, seed, settings)?;
    Ok(duel
        .player(Player::You)
        .hand
        .iter()
        .filter_map(|&id| duel.instance(id).map(|c| c.code))
        .collect())
}

/// The 95% Wilson score interval of a share of `successes` in `n` trials (`(0, 1)` for no
/// trial).
pub fn wilson95(successes: u32, n: u32) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let n_f = f64::from(n);
    let p = f64::from(successes.min(n)) / n_f;
    let z = 1.959_963_984_540_054_f64;
    let denom = 1.0 + z * z / n_f;
    let centre = (p + z * z / (2.0 * n_f)) / denom;
    let half = z * (p * (1.0 - p) / n_f + z * z / (4.0 * n_f * n_f)).sqrt() / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// Two builds compared on the same seeds: the difference of their win rates (`a` minus
/// `b`) and its 95% interval, paired by seed (each seed's two hands come from the same
/// shuffle where the decks allow, so most seeds agree and the interval is far narrower
/// than two independent ones would give).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Paired {
    pub hands: u32,
    /// Seeds won by `a` only and by `b` only.
    pub a_only: u32,
    pub b_only: u32,
    pub difference: f64,
    pub low: f64,
    pub high: f64,
}

/// Compares two builds hand by hand: `won[i] = (a won seed i, b won seed i)`. The
/// interval is the normal one of the mean of the per-seed differences (`-1`, `0` or
/// `1`), with the sample variance; with no seed it is the whole range.
pub fn paired(won: &[(bool, bool)]) -> Paired {
    let n = won.len() as u32;
    let a_only = won.iter().filter(|&&(a, b)| a && !b).count() as u32;
    let b_only = won.iter().filter(|&&(a, b)| b && !a).count() as u32;
    if n == 0 {
        return Paired {
            hands: 0,
            a_only,
            b_only,
            difference: 0.0,
            low: -1.0,
            high: 1.0,
        };
    }
    let nf = f64::from(n);
    let mean = (f64::from(a_only) - f64::from(b_only)) / nf;
    // Each difference is -1, 0 or 1: the sum of squares is the number that differ.
    let squares = f64::from(a_only + b_only);
    let variance = if n > 1 {
        (squares - nf * mean * mean) / (nf - 1.0)
    } else {
        0.0
    };
    let half = 1.959_963_984_540_054 * (variance / nf).sqrt();
    Paired {
        hands: n,
        a_only,
        b_only,
        difference: mean,
        low: (mean - half).max(-1.0),
        high: (mean + half).min(1.0),
    }
}

/// How the opening hands that held one card did (a hand holding two copies counts once).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardTally {
    /// Hands whose opening hand held the card.
    pub hands: u32,
    /// Of those, the hands won (undecided ones count as not won).
    pub won: u32,
}

/// `won` of `hands` as a share (0 of none).
fn share(won: u32, hands: u32) -> f64 {
    if hands == 0 {
        0.0
    } else {
        f64::from(won) / f64::from(hands)
    }
}

impl CardTally {
    /// The share of those hands won (0 when no hand held the card).
    pub fn win_rate(&self) -> f64 {
        share(self.won, self.hands)
    }

    /// The 95% Wilson score interval of [`CardTally::win_rate`].
    pub fn interval95(&self) -> (f64, f64) {
        wilson95(self.won, self.hands)
    }
}

/// Results tallied so far.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    pub hands: u32,
    pub won: u32,
    pub lost: u32,
    /// Seeds of the hands the search could not decide.
    pub undecided: Vec<u64>,
    /// Number of wins by the length of the shortest line found, in commands.
    pub lengths: BTreeMap<u16, u32>,
    /// Of those, the wins whose line is proved the shortest, by length.
    #[serde(default)]
    pub proved: BTreeMap<u16, u32>,
    /// By passcode, the hands whose opening hand held the card (only hands added with
    /// [`Tally::add_hand`] are counted here).
    #[serde(default)]
    pub cards: BTreeMap<Code, CardTally>,
}

impl Tally {
    pub fn add(&mut self, seed: u64, r: HandResult) {
        self.hands += 1;
        match r {
            HandResult::Won { commands, proved } => {
                self.won += 1;
                *self.lengths.entry(commands).or_insert(0) += 1;
                if proved {
                    *self.proved.entry(commands).or_insert(0) += 1;
                }
            }
            HandResult::Lost => self.lost += 1,
            HandResult::Undecided => self.undecided.push(seed),
        }
    }

    /// [`Tally::add`], and the hand counted for each distinct card of its `opening` hand
    /// (see [`opening_hand`]).
    pub fn add_hand(&mut self, seed: u64, r: HandResult, opening: &[Code]) {
        self.add(seed, r);
        let won = matches!(r, HandResult::Won { .. });
        for (i, code) in opening.iter().enumerate() {
            if opening[..i].contains(code) {
                continue;
            }
            let card = self.cards.entry(*code).or_default();
            card.hands += 1;
            card.won += u32::from(won);
        }
    }

    /// The won hands whose line is proved the shortest.
    pub fn proved_total(&self) -> u32 {
        self.proved.values().sum()
    }

    /// The tally as a short text: `<hands> <won> <lost>;<undecided seeds>;<length>:<wins>:<proved>;<passcode>:<hands>:<won>`,
    /// lists comma-separated (a cache that links no JSON code can store it).
    pub fn to_text(&self) -> String {
        let join = |items: Vec<String>| items.join(",");
        let undecided = join(self.undecided.iter().map(u64::to_string).collect());
        let lengths = join(
            self.lengths
                .iter()
                .map(|(len, n)| format!("{len}:{n}:{}", self.proved.get(len).unwrap_or(&0)))
                .collect(),
        );
        let cards = join(
            self.cards
                .iter()
                .map(|(code, c)| format!("{code}:{}:{}", c.hands, c.won))
                .collect(),
        );
        format!(
            "{} {} {};{undecided};{lengths};{cards}",
            self.hands, self.won, self.lost
        )
    }

    /// Reads [`Tally::to_text`]; `None` for anything else. A text written before the
    /// cards were counted (three parts, no `;<cards>`) reads with no card counts.
    pub fn from_text(text: &str) -> Option<Tally> {
        let mut parts = text.split(';');
        let mut counts = parts.next()?.split(' ').map(|n| n.parse::<u32>().ok());
        let (hands, won, lost) = (counts.next()??, counts.next()??, counts.next()??);
        let items = |part: &str| {
            part.split(',')
                .filter(|s| !s.is_empty())
                .map(str::to_owned)
                .collect::<Vec<_>>()
        };
        let undecided = items(parts.next()?)
            .iter()
            .map(|s| s.parse().ok())
            .collect::<Option<Vec<u64>>>()?;
        let mut tally = Tally {
            hands,
            won,
            lost,
            undecided,
            ..Tally::default()
        };
        for entry in items(parts.next()?) {
            let mut fields = entry.split(':').map(|n| n.parse::<u32>().ok());
            let len = u16::try_from(fields.next()??).ok()?;
            let (wins, proved) = (fields.next()??, fields.next()??);
            tally.lengths.insert(len, wins);
            if proved > 0 {
                tally.proved.insert(len, proved);
            }
            if fields.next().is_some() {
                return None;
            }
        }
        if let Some(cards) = parts.next() {
            for entry in items(cards) {
                let mut fields = entry.split(':').map(|n| n.parse::<u32>().ok());
                let (code, hands, won) = (fields.next()??, fields.next()??, fields.next()??);
                if won > hands || fields.next().is_some() {
                    return None;
                }
                tally.cards.insert(code, CardTally { hands, won });
            }
        }
        // A stored text is input like any other: its counts must add up.
        let consistent = u64::from(tally.won)
            + u64::from(tally.lost)
            + tally.undecided.len() as u64
            == u64::from(tally.hands)
            && tally.lengths.values().map(|&n| u64::from(n)).sum::<u64>() == u64::from(tally.won)
            && tally
                .proved
                .iter()
                .all(|(len, n)| tally.lengths.get(len).is_some_and(|all| n <= all))
            && tally.cards.values().all(|c| c.hands <= tally.hands);
        (consistent && parts.next().is_none() && counts.next().is_none()).then_some(tally)
    }

    /// The share of hands won so far (undecided hands count as not won: a lower bound).
    pub fn win_rate(&self) -> f64 {
        share(self.won, self.hands)
    }

    /// The 95% Wilson score interval of the win rate.
    pub fn interval95(&self) -> (f64, f64) {
        wilson95(self.won, self.hands)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_paired_comparison_counts_the_seeds_that_differ_and_bounds_the_difference() {
        // 100 seeds: 30 both won, 10 only a, 4 only b, the rest both lost.
        let mut won = vec![(true, true); 30];
        won.extend(vec![(true, false); 10]);
        won.extend(vec![(false, true); 4]);
        won.extend(vec![(false, false); 56]);
        let p = paired(&won);
        assert_eq!((p.hands, p.a_only, p.b_only), (100, 10, 4));
        assert!((p.difference - 0.06).abs() < 1e-12);
        // Variance (14 - 100 * 0.0036) / 99; half-width 1.96 * sqrt(var / 100).
        let half = 1.959_963_984_540_054 * ((14.0 - 0.36) / 99.0 / 100.0f64).sqrt();
        assert!((p.low - (0.06 - half)).abs() < 1e-12 && (p.high - (0.06 + half)).abs() < 1e-12);
        // Identical builds: no difference, no width.
        let same = paired(&[(true, true); 20]);
        assert_eq!((same.difference, same.low, same.high), (0.0, 0.0, 0.0));
        assert_eq!(paired(&[]).low, -1.0);
    }

    #[cfg(feature = "custom-decks")]
    #[test]
    fn the_statistics_of_a_deck_list_equal_those_of_the_same_preset() {
        for d in crate::deck::decks() {
            let custom = Custom {
                list: Some(crate::deck_list::DeckList::from(d)),
                opening: crate::deal::Opening::default(),
            };
            let goal = goal_of_dealt(crate::deal::CUSTOM_DECK_ID, Some(&custom)).expect("goal");
            assert_eq!(goal, goal_of(&d.id).expect("preset"));
            for seed in 0..4 {
                let preset = solve_hand(&d.id, seed, Settings::default(), 400).expect("solves");
                let mine = solve_dealt_hand(
                    crate::deal::CUSTOM_DECK_ID,
                    Some(&custom),
                    goal,
                    seed,
                    Settings::default(),
                    400,
                )
                .expect("solves");
                assert_eq!(mine, preset, "{} seed {seed}", d.id);
            }
        }
    }

    #[test]
    fn the_burn_deck_plays_for_lp_0_and_the_others_for_exodia() {
        assert_eq!(
            goal_of("scientist-catapult-deck"),
            Ok(Outcome::Win(Reason::Lp0))
        );
        for deck in ["exodia-deck", "panda-exodia-deck"] {
            assert_eq!(goal_of(deck), Ok(Outcome::Win(Reason::Exodia)));
        }
        assert!(goal_of("nope").is_err());
    }

    #[test]
    fn the_tally_counts_and_bounds_the_win_rate() {
        let mut t = Tally::default();
        for seed in 0..100 {
            let r = if seed % 4 == 0 {
                HandResult::Won {
                    commands: 20,
                    proved: seed % 8 == 0,
                }
            } else if seed % 4 == 1 {
                HandResult::Undecided
            } else {
                HandResult::Lost
            };
            t.add(seed, r);
        }
        assert_eq!(
            (t.hands, t.won, t.lost, t.undecided.len()),
            (100, 25, 50, 25)
        );
        assert!((t.win_rate() - 0.25).abs() < 1e-12);
        let (lo, hi) = t.interval95();
        // The Wilson interval for 25/100: about 0.176 to 0.343.
        assert!(
            (lo - 0.1754).abs() < 0.002 && (hi - 0.3430).abs() < 0.002,
            "{lo} {hi}"
        );
        assert_eq!(t.lengths.get(&20), Some(&25));
        assert_eq!(t.proved.get(&20), Some(&13));
    }

    #[test]
    fn hand_results_and_tallies_round_trip_through_their_texts() {
        let results = [
            HandResult::Won {
                commands: 31,
                proved: false,
            },
            HandResult::Won {
                commands: 7,
                proved: true,
            },
            HandResult::Lost,
            HandResult::Undecided,
        ];
        let mut t = Tally::default();
        for (seed, r) in results.into_iter().enumerate() {
            assert_eq!(HandResult::from_code(&r.code()), Some(r));
            t.add(seed as u64 + 40, r);
        }
        assert_eq!(Tally::from_text(&t.to_text()), Some(t.clone()));
        assert_eq!(
            Tally::from_text(&Tally::default().to_text()),
            Some(Tally::default())
        );
        for bad in ["", "w", "wp", "w-1", "x", "l2"] {
            assert_eq!(HandResult::from_code(bad), None, "{bad:?}");
        }
        for bad in [
            "",
            "1 2",
            "1 2 3",
            "1 2 3;x;",
            "1 2 3;;7:1",
            "1 2 3;;;",
            "{\"hands\":1}",
        ] {
            assert_eq!(Tally::from_text(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn hands_added_with_their_opening_count_once_per_distinct_card() {
        let mut t = Tally::default();
        let won = HandResult::Won {
            commands: 9,
            proved: true,
        };
        // Two copies of card 1 in one hand count as one hand holding it.
        t.add_hand(0, won, &[1, 1, 2, 3, 4]);
        t.add_hand(1, HandResult::Lost, &[1, 2, 5, 6, 7]);
        t.add_hand(2, HandResult::Undecided, &[2, 8, 8, 8, 9]);
        t.add(3, won);
        assert_eq!((t.hands, t.won, t.lost), (4, 2, 1));
        assert_eq!(t.proved_total(), 2);
        assert_eq!(t.cards.get(&1), Some(&CardTally { hands: 2, won: 1 }));
        assert_eq!(t.cards.get(&2), Some(&CardTally { hands: 3, won: 1 }));
        assert_eq!(t.cards.get(&8), Some(&CardTally { hands: 1, won: 0 }));
        assert_eq!(t.cards.get(&3), Some(&CardTally { hands: 1, won: 1 }));
        assert_eq!(t.cards.get(&10), None, "no hand held it");
        assert!((t.cards[&2].win_rate() - 1.0 / 3.0).abs() < 1e-12);
        assert_eq!(CardTally::default().win_rate(), 0.0);
        assert_eq!(CardTally::default().interval95(), (0.0, 1.0));
        assert_eq!(t.cards[&2].interval95(), wilson95(1, 3));
        assert_eq!(t.interval95(), wilson95(2, 4));
    }

    #[test]
    fn tallies_with_card_counts_round_trip_and_old_texts_still_read() {
        let mut t = Tally::default();
        t.add_hand(
            5,
            HandResult::Won {
                commands: 12,
                proved: false,
            },
            &[55144522, 70368879, 33396948, 1, 2],
        );
        t.add_hand(6, HandResult::Undecided, &[55144522, 3, 4, 5, 6]);
        let text = t.to_text();
        assert!(
            text.ends_with(
                ";1:1:1,2:1:1,3:1:0,4:1:0,5:1:0,6:1:0,33396948:1:1,55144522:2:1,70368879:1:1"
            ),
            "{text}"
        );
        assert_eq!(Tally::from_text(&text), Some(t.clone()));
        // A text stored before the card counts existed.
        let old = Tally::from_text("3 1 1;7;12:1:1").expect("reads");
        assert_eq!((old.hands, old.won, old.lost), (3, 1, 1));
        assert_eq!(old.undecided, vec![7]);
        assert_eq!(old.proved_total(), 1);
        assert!(old.cards.is_empty());
        assert!(Tally::from_text("1 1 0;;4:1:0;7:1:1").is_some());
        for bad in [
            "1 1 0;;4:1:0;7:1",
            "1 1 0;;4:1:0;7:1:2",
            "1 1 0;;4:1:0;7:2:1",
            "1 1 0;;4:1:0;7:1:1:0",
            "1 1 0;;4:1:0;x:1:1",
            "1 1 0;;4:1:0;-7:1:1",
            "1 1 0;;4:1:0;7:1:1;",
            "1 1 0;;4:1:0:9;",
            "1 1 0;;4:1:2;",
            "1 1 0;;;",
            "2 1 0;;4:1:0;",
        ] {
            assert_eq!(Tally::from_text(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn the_opening_hand_is_the_hand_the_solved_duel_starts_from() {
        let settings = Settings::default();
        for seed in 0..5 {
            let hand = opening_hand("exodia-deck", seed, settings).expect("deals");
            assert_eq!(hand.len(), 5);
            let duel = Duel::with_settings("exodia-deck", seed, settings).expect("deals");
            let seen: Vec<Code> = duel.view().you.hand.iter().filter_map(|c| c.code).collect();
            assert_eq!(hand, seen, "seed {seed}");
            let main = crate::deck::deck("exodia-deck")
                .expect("a deck")
                .main_codes();
            assert!(hand.iter().all(|c| main.contains(c)));
        }
        assert!(opening_hand("nope", 0, settings).is_err());
    }

    #[test]
    fn the_engine_version_names_the_crate_the_solver_and_the_data() {
        let v = engine_version();
        assert!(
            v.starts_with(concat!("duel-engine ", env!("CARGO_PKG_VERSION"))),
            "{v}"
        );
        assert!(v.contains(&format!(" s{SOLVER_REVISION} ")), "{v}");
        assert_eq!(v, engine_version(), "stable from call to call");
        assert_ne!(
            crate::data::fingerprint(),
            0xcbf2_9ce4_8422_2325,
            "the data is hashed"
        );
    }

    #[test]
    fn solving_a_hand_is_deterministic() {
        let a = solve_hand("library-exodia-deck", 14, Settings::default(), 400);
        let b = solve_hand("library-exodia-deck", 14, Settings::default(), 400);
        assert_eq!(a, b);
        assert!(a.is_ok());
    }
}
