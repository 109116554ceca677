//! The end of the game searched exactly (issue 23, twenty-fourth round): once the troop
//! deck runs low, the harness's `hard-endgame-…` deals the cards it cannot see a number
//! of times from its knowledge, as the search's rollouts do, and in each deal solves
//! every move it may make to the end with both players playing their best (a win or not
//! for the seat, by a depth-first search with a table of positions), then plays the
//! move that wins in the most deals. Where every move wins in the same number of deals,
//! or a deal is too large to solve within the budget, the hard level decides.
//!
//! Two reductions keep the trees small, neither of which changes a position's value:
//! a claim that can be made is made (a proved flag can only be lost by waiting: a guile
//! tactic may still take a card from it), and a card played this turn is not moved to
//! another flag afterwards (`MoveCard`: playing it there in the first place is the same
//! move, as claims wait for the next turn). The tests check both against a search over
//! every legal command.

use seeded_rng::Rng;
use std::collections::HashMap;

use super::knowledge::Knowledge;
use crate::game::{Command, Game, Player};

/// Deals solved for a decision.
const DEALS: usize = 8;

/// Positions a decision may visit in all (its deals and moves together) before it
/// gives up and leaves the move to the hard level. It gives up after the first deal
/// already when that deal took more than its share.
pub(crate) const BUDGET: u64 = 1_000_000;

/// The deepest line a solve follows (a game has far fewer commands left at its end).
const DEEPEST: usize = 400;

/// An exact search of games whose every card is known: whether `me` wins.
struct Solver {
    me: Player,
    left: u64,
    /// Solved positions by [`Game::position_key`]: whether `me` wins from there.
    table: HashMap<u64, bool>,
}

impl Solver {
    fn new(me: Player, budget: u64) -> Solver {
        Solver {
            me,
            left: budget,
            table: HashMap::new(),
        }
    }

    /// Whether `me` wins `game` with both players at their best (a stalemate is not a
    /// win); `None` once the budget is spent.
    fn wins(&mut self, game: &Game) -> Option<bool> {
        self.solve(game, 0)
    }

    fn solve(&mut self, game: &Game, depth: usize) -> Option<bool> {
        if game.is_over() {
            return Some(game.winner() == Some(self.me));
        }
        let key = game.position_key();
        if let Some(&known) = self.table.get(&key) {
            return Some(known);
        }
        if self.left == 0 || depth >= DEEPEST {
            return None;
        }
        self.left -= 1;
        // `me` to move: a win as soon as one move wins; the other player: a loss as
        // soon as one move stops every win.
        let mine = game.current() == self.me;
        let mut open = false;
        for m in moves(game) {
            let mut next = game.clone();
            if next.apply(m).is_err() {
                continue;
            }
            match self.solve(&next, depth + 1) {
                Some(v) if v == mine => {
                    self.table.insert(key, v);
                    return Some(v);
                }
                Some(_) => {}
                None if self.left == 0 => return None,
                None => open = true,
            }
        }
        if open {
            return None;
        }
        self.table.insert(key, !mine);
        Some(!mine)
    }
}

/// Whether `me` wins `game` with both players at their best, every card where `game`
/// has it (what no player knows: for measurements only), within `budget` positions;
/// `None` when the budget runs out (`battle-line-bench endgame`).
pub fn wins_knowing_every_card(game: &Game, me: Player, budget: u64) -> Option<bool> {
    Solver::new(me, budget).wins(game)
}

/// The commands a solve tries: every legal one but sorting the hand and moving this
/// turn's card, and only the first claim when one can be made (see the module's doc).
fn moves(game: &Game) -> Vec<Command> {
    let mut all = game.legal_commands();
    if let Some(claim) = all
        .iter()
        .find(|c| matches!(c, Command::ClaimFlag { .. }))
        .copied()
    {
        return vec![claim];
    }
    all.retain(|c| !matches!(c, Command::SortHand { .. } | Command::MoveCard { .. }));
    all
}

/// The move of the player to move in `game` that wins in the most of [`DEALS`] deals of
/// the cards it cannot see, each deal solved to the end; `None` when the troop deck holds
/// more than `cards` cards, when there is no choice (or a claim to make), when every
/// move wins in as many deals, or when the deals are too large to solve within `budget`
/// positions ([`BUDGET`] in the harness). `prefer` breaks ties among the best moves:
/// the first of them it returns.
pub(crate) fn choose(
    game: &Game,
    (cards, budget): (usize, u64),
    seed: u64,
    prefer: impl FnOnce() -> Option<Command>,
) -> Option<Command> {
    if game.is_over() || game.troop_deck_len() > cards {
        return None;
    }
    let root = moves(game);
    if root.len() < 2 {
        return None;
    }
    let me = game.current();
    let knowledge = Knowledge::of(game, me);
    let mut rng = Rng::new(seed ^ 0x00E1_D6A4_E5D0_0D1E);
    let mut solver = Solver::new(me, budget);
    let mut won = vec![0usize; root.len()];
    for dealt in 0..DEALS {
        if dealt == 1 && (budget - solver.left) * DEALS as u64 > budget {
            return None;
        }
        let deal = knowledge.sample(&mut rng);
        for (m, w) in root.iter().zip(&mut won) {
            let mut next = deal.clone();
            if next.apply(*m).is_err() {
                continue;
            }
            if solver.wins(&next)? {
                *w += 1;
            }
        }
    }
    let best = *won.iter().max()?;
    if won.iter().all(|&w| w == best) {
        return None;
    }
    let tied: Vec<Command> = root
        .iter()
        .zip(&won)
        .filter(|(_, w)| **w == best)
        .map(|(m, _)| *m)
        .collect();
    if tied.len() > 1
        && let Some(p) = prefer()
        && tied.contains(&p)
    {
        return Some(p);
    }
    tied.first().copied()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::Sparring;
    use crate::bot::twins::{random_deal, replay, twin};
    use crate::card::Tactic;
    use crate::game::{Deal, Phase};

    /// Positions of the partner's games against itself from random deals, once the
    /// troop deck holds at most `cards` cards, with their deal; with `unscouted`, only
    /// until Scout is played (the undrawn troops are then the bottom of the dealt deck).
    fn late_positions(
        games: std::ops::Range<u64>,
        cards: usize,
        unscouted: bool,
    ) -> Vec<(Deal, Game)> {
        let partner = Sparring::new();
        let mut out = Vec::new();
        for seed in games {
            let deal = random_deal(seed);
            let mut game = replay(&deal, &[]);
            for _ in 0..400 {
                let scouted = Player::BOTH
                    .iter()
                    .any(|&p| game.field(p).contains(&Tactic::Scout));
                if game.is_over() || unscouted && scouted {
                    break;
                }
                if game.troop_deck_len() <= cards && game.phase() == Phase::Play {
                    out.push((deal.clone(), game.clone()));
                }
                let cmd = partner.choose(&game).expect("a move");
                game.apply(cmd).expect("legal");
            }
        }
        out
    }

    /// Plain minimax over every legal command but sorting the hand and moving a card
    /// moved already (which would go on for ever; moving it twice is moving it once to
    /// the second flag): no table, no other reduction.
    fn plain(game: &Game, me: Player, nodes: &mut u64) -> Option<bool> {
        if game.is_over() {
            return Some(game.winner() == Some(me));
        }
        if *nodes == 0 {
            return None;
        }
        *nodes -= 1;
        let mine = game.current() == me;
        let mut open = false;
        for m in game.legal_commands() {
            let moved_again = matches!(m, Command::MoveCard { .. })
                && matches!(game.log().last(), Some(Command::MoveCard { .. }));
            if moved_again || matches!(m, Command::SortHand { .. }) {
                continue;
            }
            let mut next = game.clone();
            next.apply(m).expect("legal");
            match plain(&next, me, nodes) {
                Some(v) if v == mine => return Some(v),
                Some(_) => {}
                None => open = true,
            }
        }
        if open { None } else { Some(!mine) }
    }

    #[test]
    fn the_solver_agrees_with_a_plain_search_of_every_command() {
        let (mut compared, mut won) = (0, 0);
        for (_, game) in late_positions(0..40, 1, false) {
            let me = game.current();
            let Some(expected) = plain(&game, me, &mut 200_000) else {
                continue;
            };
            let mut solver = Solver::new(me, 1_000_000);
            assert_eq!(solver.wins(&game), Some(expected), "{game:?}");
            // And for the other player, who does not win wherever `me` does.
            let mut other = Solver::new(me.opponent(), 1_000_000);
            if expected {
                assert_eq!(other.wins(&game), Some(false));
            }
            compared += 1;
            won += usize::from(expected);
        }
        assert!(compared >= 40, "enough positions compared ({compared})");
        assert!(
            won > 5 && won + 5 < compared,
            "both answers met ({won} of {compared})"
        );
    }

    #[test]
    fn a_spent_budget_answers_nothing_instead_of_a_guess() {
        let (_, game) = late_positions(0..10, 6, false)
            .into_iter()
            .next()
            .expect("a late position");
        let mut solver = Solver::new(game.current(), 3);
        assert_eq!(solver.wins(&game), None);
        assert_eq!(solver.left, 0);
    }

    #[test]
    fn the_choice_is_the_same_whatever_the_cards_it_cannot_see() {
        let mut rng = Rng::new(11);
        let (mut differing, mut chosen) = (0, 0);
        for (deal, game) in late_positions(0..120, 2, true) {
            // Where the search chooses a move (most late positions are decided, every
            // move winning or losing alike, and left to hard).
            let Some(cmd) = choose(&game, (2, 200_000), 5, || None) else {
                continue;
            };
            assert!(game.legal_commands().contains(&cmd));
            let me = game.current();
            let other_game = replay(&twin(&deal, &game, me, &mut rng), game.log());
            assert_eq!(other_game.view(me), game.view(me));
            if other_game.hand(me.opponent()) != game.hand(me.opponent()) {
                differing += 1;
            }
            assert_eq!(choose(&other_game, (2, 200_000), 5, || None), Some(cmd));
            chosen += 1;
            if chosen == 6 {
                break;
            }
        }
        assert!(chosen >= 4, "the search chooses moves ({chosen})");
        assert!(differing >= 2, "the twins hide other cards ({differing})");
    }
}
