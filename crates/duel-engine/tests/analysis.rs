//! The point of no return on games built here from the solver's own lines: a game that
//! wins, one that stops while it can still win, one that never could, and one that
//! throws the win away in the middle and plays on before the turn ends. The binary
//! search's answer is checked against a solve of every position of the game.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use duel_engine::analysis::{PointOfNoReturn, playout_seed, point_of_no_return};
use duel_engine::solver::{Search, choices, solve};
use duel_engine::stats::goal_of;
use duel_engine::{Command, Duel, Settings};

/// What each solve of these tests may try (the hint's first budget).
const BUDGET: usize = 20_000;
const DECK: &str = "library-exodia-deck";

fn start(seed: u64) -> Duel {
    Duel::with_settings(DECK, seed, Settings::default()).expect("deals")
}

fn replay(seed: u64, commands: &[Command]) -> Duel {
    Duel::replay(DECK, seed, Settings::default(), commands).expect("replays")
}

/// What a solve of the position after `played` says, with the analysis' own playout seed.
fn solved(seed: u64, played: &[Command]) -> Search {
    let goal = goal_of(DECK).expect("a deck");
    solve(
        &replay(seed, played),
        goal,
        BUDGET,
        playout_seed(seed, played.len()),
    )
    .0
}

/// The first seed from 0 whose opening the solver wins, and its line.
fn winnable_opening() -> (u64, Vec<Command>) {
    let goal = goal_of(DECK).expect("a deck");
    (0..40)
        .find_map(|seed| match solve(&start(seed), goal, BUDGET, seed).0 {
            Search::Found(line) => Some((seed, line)),
            _ => None,
        })
        .expect("some opening of the first 40 wins")
}

/// Ends the turn from `d` (passing and answering the first way where asked) until the
/// duel is over, recording the commands.
fn end_the_turn(d: &mut Duel, commands: &mut Vec<Command>) {
    for _ in 0..50 {
        if d.outcome().is_some() {
            return;
        }
        let legal = d.legal_commands();
        let next = if legal.contains(&Command::EndTurn) {
            Command::EndTurn
        } else {
            choices(d).into_iter().next().expect("something to do")
        };
        d.apply(next.clone()).expect("legal");
        commands.push(next);
    }
    panic!("the turn does not end");
}

/// A game that follows a winning line from a winnable opening, then at action `fatal`
/// (at least the third) sets a card instead, which the solver proves loses, plays two
/// more actions and ends the turn. Built from the solver's answers, so it holds whatever
/// the deal is.
struct LostGame {
    seed: u64,
    commands: Vec<Command>,
    fatal: usize,
}

/// [`build_lost_game`], built once for all the tests.
fn lost_game() -> &'static LostGame {
    static GAME: std::sync::OnceLock<LostGame> = std::sync::OnceLock::new();
    GAME.get_or_init(build_lost_game)
}

fn build_lost_game() -> LostGame {
    let goal = goal_of(DECK).expect("a deck");
    let (seed, line) = winnable_opening();
    let mut d = start(seed);
    for (k, planned) in line.iter().enumerate() {
        if k >= 2 {
            let fatal = choices(&d).into_iter().find(|c| {
                let mut after = d.clone();
                matches!(c, Command::SetMonster { .. } | Command::SetSpellTrap { .. })
                    && c != planned
                    && after.apply(c.clone()).is_ok()
                    && solve(&after, goal, BUDGET, 1).0 == Search::Impossible
            });
            if let Some(fatal) = fatal {
                let mut commands = line[..k].to_vec();
                d.apply(fatal.clone()).expect("legal");
                commands.push(fatal);
                for _ in 0..2 {
                    let next = choices(&d).into_iter().find(|c| *c != Command::EndTurn);
                    if let Some(next) = next.filter(|_| d.outcome().is_none()) {
                        d.apply(next.clone()).expect("legal");
                        commands.push(next);
                    }
                }
                end_the_turn(&mut d, &mut commands);
                return LostGame {
                    seed,
                    commands,
                    fatal: k,
                };
            }
        }
        d.apply(planned.clone()).expect("the line replays");
    }
    panic!("no set card along the line loses");
}

#[test]
fn a_game_that_sets_away_its_win_and_plays_on_has_its_point_of_no_return_at_that_set() {
    let goal = goal_of(DECK).expect("a deck");
    let game = lost_game();
    let end = replay(game.seed, &game.commands);
    assert!(end.outcome().is_some_and(|o| o != goal), "the game is lost");
    assert!(
        game.commands.len() > game.fatal + 2,
        "the game goes on after the fatal action"
    );
    let answer = point_of_no_return(DECK, game.seed, Settings::default(), &game.commands, BUDGET)
        .expect("replays");
    let PointOfNoReturn::NoReturn { step, line } = answer else {
        panic!("a point of no return: {answer:?}");
    };
    assert_eq!(step, game.fatal, "seed {}: {:?}", game.seed, game.commands);
    // The line wins from the position before that action.
    let mut d = replay(game.seed, &game.commands[..step]);
    for cmd in &line {
        d.apply(cmd.clone()).expect("the line replays");
    }
    assert_eq!(d.outcome(), Some(goal));
}

#[test]
fn the_binary_search_agrees_with_a_solve_of_every_position() {
    let game = lost_game();
    let answer = point_of_no_return(DECK, game.seed, Settings::default(), &game.commands, BUDGET)
        .expect("replays");
    let PointOfNoReturn::NoReturn { step, line } = answer else {
        panic!("a point of no return: {answer:?}");
    };
    // The answer's line wins from the position before the point of no return.
    let mut before = replay(game.seed, &game.commands[..step]);
    for cmd in line {
        before.apply(cmd).expect("the line replays");
    }
    assert_eq!(before.outcome(), Some(goal_of(DECK).expect("a deck")));
    for i in 0..=game.commands.len() {
        let verdict = solved(game.seed, &game.commands[..i]);
        if i <= step {
            // Winnable: never proved lost (a solve of its own may still not find the win
            // within the budget; the answer's line proves the last of them won).
            assert_ne!(
                verdict,
                Search::Impossible,
                "position {i} (before the point of no return {step}) is not lost"
            );
        } else {
            assert_eq!(
                verdict,
                Search::Impossible,
                "position {i} (after the point of no return {step}) is lost"
            );
        }
    }
}

#[test]
fn a_won_game_and_a_game_still_on_its_winning_line_have_no_point_of_no_return() {
    let (seed, line) = winnable_opening();
    let won = point_of_no_return(DECK, seed, Settings::default(), &line, BUDGET);
    assert_eq!(won, Ok(PointOfNoReturn::Won));
    let half = &line[..line.len() / 2];
    let going = point_of_no_return(DECK, seed, Settings::default(), half, BUDGET);
    assert_eq!(going, Ok(PointOfNoReturn::StillWinnable));
    let fresh = point_of_no_return(DECK, seed, Settings::default(), &[], BUDGET);
    assert_eq!(fresh, Ok(PointOfNoReturn::StillWinnable));
}

#[test]
fn a_lost_game_from_an_opening_proved_lost_was_never_winnable() {
    // A deck whose openings are often proved lost within the budget.
    let deck = "panda-exodia-deck";
    let goal = goal_of(deck).expect("a deck");
    let deal = |seed| Duel::with_settings(deck, seed, Settings::default()).expect("deals");
    let seed = (0..40)
        .find(|&seed| solve(&deal(seed), goal, BUDGET, seed).0 == Search::Impossible)
        .expect("some opening of the first 40 is proved lost");
    let mut d = deal(seed);
    let mut commands = Vec::new();
    end_the_turn(&mut d, &mut commands);
    let answer = point_of_no_return(deck, seed, Settings::default(), &commands, BUDGET);
    assert_eq!(answer, Ok(PointOfNoReturn::NeverWinnable));
    // Not even a command played: a lost opening that has not ended yet.
    let answer = point_of_no_return(deck, seed, Settings::default(), &[], BUDGET);
    assert_eq!(answer, Ok(PointOfNoReturn::NeverWinnable));
}

#[test]
fn a_budget_too_small_to_decide_says_undecided() {
    let game = lost_game();
    let answer = point_of_no_return(DECK, game.seed, Settings::default(), &game.commands, 1);
    assert_eq!(answer, Ok(PointOfNoReturn::Undecided));
}

#[test]
fn a_stopped_search_says_undecided() {
    let game = lost_game();
    let mut calls = 0;
    let answer = duel_engine::analysis::point_of_no_return_watched(
        DECK,
        game.seed,
        Settings::default(),
        &game.commands,
        BUDGET,
        &mut |share| {
            assert!((0.0..=1.0).contains(&share), "{share}");
            calls += 1;
            false
        },
    );
    assert_eq!(answer, Ok(PointOfNoReturn::Undecided));
    assert!(calls > 0);
}
