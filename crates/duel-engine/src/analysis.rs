//! The point of no return of a game: the first action after which the hand could no
//! longer be won this turn, knowing the deck order, with a line that won from the
//! position before it ("learn from your mistakes").
//!
//! Lost is absorbing: a line from a later position, after the commands that lead there,
//! is a line from the earlier one, so once a position is proved lost every later one is
//! too, and once one can still win every earlier one can. The positions of a game are
//! therefore winnable up to some action and lost after it, and a binary search over the
//! log finds that action with O(log n) solves.

use serde::{Deserialize, Serialize};

use crate::command::Command;
use crate::setup::ReplayError;
use crate::solver::{Search, order_for, shortest_watched, solve_watched};
use crate::state::{Duel, Outcome, Settings};
use crate::stats::goal_of;

/// What [`point_of_no_return`] found for a game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum PointOfNoReturn {
    /// The game was won: nothing was thrown away.
    Won,
    /// The last position can still reach the goal (the game is not over).
    StillWinnable,
    /// The opening hand itself is proved lost: no action threw the win away.
    NeverWinnable,
    /// The position before action `step` (an index into the command log, from 0) can win
    /// with `line`; after that action no line wins (proved).
    NoReturn { step: usize, line: Vec<Command> },
    /// A search ran out of budget (or was stopped) before the answer was known.
    Undecided,
}

/// The seed of the solver's guided playouts at the position after `played` commands of
/// the game dealt by `seed`: the deal's seed moved on by the number of commands, so the
/// opening gets exactly the statistics' answer (`stats::solve_hand`) and every position
/// its own, repeatable one. The hint uses the same seeds, so both answer alike.
pub fn playout_seed(seed: u64, played: usize) -> u64 {
    seed.wrapping_add((played as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15))
}

/// Finds the point of no return of the game dealt by `deck`, `seed` and `settings` and
/// played with `commands`; each solve tries at most `budget` positions. Fails only when
/// the game does not replay.
pub fn point_of_no_return(
    deck: &str,
    seed: u64,
    settings: Settings,
    commands: &[Command],
    budget: usize,
) -> Result<PointOfNoReturn, ReplayError> {
    point_of_no_return_watched(deck, seed, settings, commands, budget, &mut |_| true)
}

/// [`point_of_no_return`] that reports the share of the work done (0..=1, an estimate:
/// the number of solves is known only at the end) to `progress`; when it returns `false`
/// the search stops and the answer is [`PointOfNoReturn::Undecided`].
pub fn point_of_no_return_watched(
    deck: &str,
    seed: u64,
    settings: Settings,
    commands: &[Command],
    budget: usize,
    progress: &mut dyn FnMut(f64) -> bool,
) -> Result<PointOfNoReturn, ReplayError> {
    let goal = goal_of(deck)?;
    // Every position of the game: a few dozen duels, and each is solved at most once.
    let mut positions = Vec::with_capacity(commands.len() + 1);
    let mut duel = Duel::with_settings(deck, seed, settings)?;
    positions.push(duel.clone());
    for (index, cmd) in commands.iter().enumerate() {
        duel.apply(cmd.clone())
            .map_err(|error| ReplayError::Refused { index, error })?;
        positions.push(duel.clone());
    }
    Ok(search_positions(
        &positions, commands, goal, seed, budget, progress,
    ))
}

/// What a solve said about one position.
enum Verdict {
    Wins(Vec<Command>),
    Lost,
    Unknown,
}

/// The binary search over `positions` (`positions[i]` is the game after `commands[..i]`).
fn search_positions(
    positions: &[Duel],
    commands: &[Command],
    goal: Outcome,
    seed: u64,
    budget: usize,
    progress: &mut dyn FnMut(f64) -> bool,
) -> PointOfNoReturn {
    let n = commands.len();
    let Some(last) = positions.last() else {
        return PointOfNoReturn::Undecided;
    };
    // A win of another kind than the deck plays for (say LP 0 for an Exodia deck) is a
    // win too.
    if last.outcome() == Some(goal) || matches!(last.outcome(), Some(Outcome::Win(_))) {
        return PointOfNoReturn::Won;
    }
    // The last position, the first, then about log2(n) between them; a shortening search
    // at the end.
    let expected = 3 + usize::BITS.saturating_sub(n.leading_zeros()) as usize;
    let mut done = 0usize;
    let mut verdict = |at: usize, progress: &mut dyn FnMut(f64) -> bool| -> Verdict {
        let Some(position) = positions.get(at) else {
            return Verdict::Unknown;
        };
        let base = done;
        done += 1;
        let mut watch =
            |share: f64| progress(((base as f64 + share) / expected as f64).clamp(0.0, 1.0));
        match solve_watched(position, goal, budget, playout_seed(seed, at), &mut watch).0 {
            Search::Found(line) => Verdict::Wins(line),
            Search::Impossible => Verdict::Lost,
            Search::GaveUp | Search::Cancelled => Verdict::Unknown,
        }
    };
    // A finished game that was not won is lost without a search.
    if last.outcome().is_none() {
        match verdict(n, progress) {
            Verdict::Wins(_) => return PointOfNoReturn::StillWinnable,
            Verdict::Lost => {}
            Verdict::Unknown => return PointOfNoReturn::Undecided,
        }
    }
    if n == 0 {
        return PointOfNoReturn::NeverWinnable;
    }
    // `lo` can win with `line`, `hi` is lost.
    let (mut lo, mut line) = match verdict(0, progress) {
        Verdict::Wins(line) => (0, line),
        Verdict::Lost => return PointOfNoReturn::NeverWinnable,
        Verdict::Unknown => return PointOfNoReturn::Undecided,
    };
    let mut hi = n;
    follow(commands, &mut lo, &mut line, hi);
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        match verdict(mid, progress) {
            Verdict::Wins(found) => {
                lo = mid;
                line = found;
                follow(commands, &mut lo, &mut line, hi);
            }
            Verdict::Lost => hi = mid,
            Verdict::Unknown => return PointOfNoReturn::Undecided,
        }
    }
    let Some(before) = positions.get(lo) else {
        return PointOfNoReturn::Undecided;
    };
    // The line made as short as a search of the same budget can: fewer steps to read.
    let order = order_for(goal);
    let base = done as f64;
    let mut report = |nodes: usize| {
        let share = nodes as f64 / budget.max(1) as f64;
        progress(((base + share) / expected as f64).clamp(0.0, 1.0))
    };
    let line = shortest_watched(before, goal, line, budget, &order, &mut report).line;
    PointOfNoReturn::NoReturn { step: lo, line }
}

/// Moves `lo` along the game while it played the winning `line`'s next command: the rest
/// of the line still wins from there, so those positions need no search. Stops before
/// `hi`, which is lost.
fn follow(commands: &[Command], lo: &mut usize, line: &mut Vec<Command>, hi: usize) {
    let same = commands
        .get(*lo..hi)
        .unwrap_or_default()
        .iter()
        .zip(line.iter())
        .take_while(|(played, planned)| played == planned)
        .count();
    // `hi` is lost, so the game left the line before reaching it; the guard only keeps a
    // line that the game followed to its end from being emptied past `hi`.
    let same = same.min((hi - *lo).saturating_sub(1));
    *lo += same;
    line.drain(..same);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_playout_seed_of_the_opening_is_the_deals_seed() {
        assert_eq!(playout_seed(14, 0), 14);
        assert_ne!(playout_seed(14, 1), playout_seed(14, 2));
        assert_eq!(
            playout_seed(u64::MAX, 1),
            u64::MAX.wrapping_add(0x9e37_79b9_7f4a_7c15)
        );
    }

    #[test]
    fn following_a_line_stops_where_the_game_left_it_and_before_the_lost_position() {
        let a = Command::EndTurn;
        let b = Command::PassChain;
        let commands = vec![a.clone(), b.clone(), b.clone(), a.clone()];
        // The line plays a, b, a: the game followed its first two commands.
        let mut lo = 0;
        let mut line = vec![a.clone(), b.clone(), a.clone()];
        follow(&commands, &mut lo, &mut line, 4);
        assert_eq!((lo, line), (2, vec![a.clone()]));
        // Never up to the lost position itself.
        let mut lo = 0;
        let mut line = vec![a.clone(), b.clone(), b.clone(), a.clone()];
        follow(&commands, &mut lo, &mut line, 2);
        assert_eq!(lo, 1);
        assert_eq!(line, vec![b.clone(), b, a]);
    }

    #[test]
    fn a_game_that_does_not_replay_is_refused() {
        let refused = point_of_no_return(
            "exodia-deck",
            3,
            Settings::default(),
            &[Command::PassChain],
            100,
        );
        assert!(
            matches!(refused, Err(ReplayError::Refused { index: 0, .. })),
            "{refused:?}"
        );
        assert!(point_of_no_return("nope", 3, Settings::default(), &[], 100).is_err());
    }
}
