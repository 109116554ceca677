//! Nested Monte Carlo search for a winning line: from the current position each
//! candidate is tried with one guided playout, and the line follows the first move of
//! the best playout seen so far (won, or failing that the most promising: the most
//! Exodia pieces held, the deepest dig, the lowest opponent LP on the way). A long
//! first-turn line needs dozens of right choices in a row, which independent playouts
//! rarely make; following the best playout keeps the choices that worked and spends the
//! rest of the work on the ones after them.

use seeded_rng::Rng;

use crate::command::Command;
use crate::state::{Duel, Outcome, Player, Reason};

use super::{Guide, Pool, choices, guided_choice};

/// Candidates tried with a playout at each step at most (the guide's first ones).
const WIDTH: usize = 10;
/// The longest line a playout plays.
const LONGEST: usize = 300;

/// How far a position has come towards `goal`: Exodia pieces in hand, then cards dug
/// from the deck; for a burn, the damage done. Higher is better.
pub(super) fn progress_of(d: &Duel, goal: Outcome, deck_at_start: usize) -> i64 {
    let you = d.player(Player::You);
    match goal.reason() {
        Reason::Lp0 => 8_000 - i64::from(d.player(Player::Opponent).lp),
        _ => {
            let pieces = super::win_pieces();
            let held = you
                .hand
                .iter()
                .filter(|&&id| pieces.contains(&super::code_in(d, id)))
                .count() as i64;
            held * 1_000 + deck_at_start.saturating_sub(you.deck.len()) as i64
        }
    }
}

/// One guided playout from `d`, played on it: its commands, whether it won, and the
/// best progress seen on the way.
fn playout(
    d: &mut Duel,
    goal: Outcome,
    guide: Guide,
    rng: &mut Rng,
    deck_at_start: usize,
) -> (Vec<Command>, bool, i64) {
    let mut line = Vec::new();
    let mut best = progress_of(d, goal, deck_at_start);
    while d.outcome().is_none() && line.len() < LONGEST {
        let cmd = guided_choice(d, rng, guide);
        if !super::play(d, &cmd) {
            break;
        }
        line.push(cmd);
        best = best.max(progress_of(d, goal, deck_at_start));
    }
    (line, d.outcome() == Some(goal), best)
}

/// A level-1 nested search from `start` until `spent` reaches `playouts`; `Some(line)`
/// when it finds a line to `goal`. `spent` counts the playouts made; `go` is asked
/// every 8 playouts whether to go on.
pub(crate) fn search(
    start: &Duel,
    goal: Outcome,
    guide: Guide,
    rng: &mut Rng,
    playouts: usize,
    spent: &mut usize,
    go: &mut dyn FnMut(usize) -> bool,
) -> Option<Vec<Command>> {
    let deck_at_start = start.player(Player::You).deck.len();
    let mut d = start.clone();
    // The playouts' positions, one after the other in the same room.
    let mut pool = Pool::default();
    let mut line: Vec<Command> = Vec::new();
    // The best playout seen, as the commands still to play from `d`.
    let mut best: (i64, Vec<Command>) = (i64::MIN, Vec::new());
    while d.outcome().is_none() && line.len() < LONGEST {
        let ordered = guide(&d, choices(&d));
        let mut options = ordered.commands;
        if ordered.preferred > 0 {
            options.truncate(ordered.preferred);
        }
        options.truncate(WIDTH);
        // A forced move that the best playout already makes needs no playout of its own.
        if let [only] = options.as_slice()
            && best.1.first() == Some(only)
        {
            let next = best.1.remove(0);
            if d.apply(next.clone()).is_err() {
                return None;
            }
            line.push(next);
            continue;
        }
        for cmd in options {
            if *spent >= playouts || (spent.is_multiple_of(8) && !go(*spent)) {
                return None;
            }
            *spent += 1;
            let mut child = pool.copy(&d);
            if !super::play(&mut child, &cmd) {
                pool.give(child);
                continue;
            }
            let (rest, won, score) = playout(&mut child, goal, guide, rng, deck_at_start);
            pool.give(child);
            let score = if won { i64::MAX } else { score };
            if score > best.0 {
                let mut moves = vec![cmd];
                moves.extend(rest);
                best = (score, moves);
            }
            if won {
                line.extend(best.1);
                return Some(line);
            }
        }
        if best.1.is_empty() {
            return None;
        }
        let next = best.1.remove(0);
        if d.apply(next.clone()).is_err() {
            return None;
        }
        line.push(next);
    }
    (d.outcome() == Some(goal)).then_some(line)
}
