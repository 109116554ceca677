//! The `easy` computer opponent: claims what it can, then picks the play that most improves a per-flag evaluation.
//!
//! The bot looks at the table only through what its seat may know: its own hand,
//! the cards on the table, and the set of troops it has not seen (deck and the other
//! hand together, without knowing which is where). It tries every legal play (and,
//! for guile tactics, every resolution), re-scores only the flags that play changed,
//! and keeps the best. Its own seeded RNG only breaks near-ties, so a bot with the
//! same seed makes the same moves.

use crate::card::{Card, Tactic, TacticKind, TroopSet};
use crate::formation::{Completion, FormationKind, Strength, best_formation};
use crate::game::{Command, Deck, Game, Phase, Player};
use seeded_rng::Rng;
use serde::{Deserialize, Serialize};

/// Discount per card a side still needs from the unseen pool (uncertain to arrive).
const UNSEEN_DISCOUNT: f64 = 0.72;
/// Discount per card a side still needs from the bot's own hand (sure, but costs a turn).
const HAND_DISCOUNT: f64 = 0.92;
/// Score of a flag that is won (or lost, negated).
const CLAIMED: f64 = 140.0;
/// Bonus for a flag one side can already prove.
const PROVABLE: f64 = 70.0;
/// What spending a tactic (and the tactic lead) costs before its effect is counted.
const TACTIC_COST: f64 = 9.0;
/// Extra cost of a leader: only one per game.
const LEADER_COST: f64 = 8.0;
/// Value of playing Scout (fresh choices, no board change).
const SCOUT_VALUE: f64 = 2.0;
/// Passing while a tactic could be played risks a stalemate (a drawn game) when the
/// opponent is locked by the tactic limit, so the bot plays rather than passes.
const PASS_COST: f64 = 60.0;

/// A seeded computer player.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bot {
    rng: Rng,
}

/// A number for a strength: any better kind outweighs any sum.
pub(crate) fn strength_value(s: Strength, cards: usize) -> f64 {
    let kind = match s.kind {
        FormationKind::Host => 0.0,
        FormationKind::SkirmishLine => 1.0,
        FormationKind::Battalion => 2.0,
        FormationKind::Phalanx => 3.0,
        FormationKind::Wedge => 4.0,
    };
    // Scale sums of 4-card sides (Mud) to the 3-card range.
    kind * 30.0 + f64::from(s.sum) * 3.0 / cards as f64
}

/// What one seat knows and needs to score flags.
struct Scorer {
    me: Player,
    /// Troops the bot could still place: its hand plus everything unseen.
    mine: TroopSet,
    hand: TroopSet,
    /// Troops the opponent could still place, as far as the bot knows.
    theirs: TroopSet,
}

impl Scorer {
    fn new(game: &Game, me: Player) -> Scorer {
        let hand: TroopSet = game.hand(me).iter().filter_map(|c| c.troop()).collect();
        let unseen = game.unseen_troops(me);
        let mut mine = unseen;
        for t in hand.iter_high_first() {
            mine.insert(t);
        }
        Scorer {
            me,
            mine,
            hand,
            theirs: unseen,
        }
    }

    fn potential(&self, c: Option<Completion>, cards: usize, hand: Option<TroopSet>) -> f64 {
        let Some(c) = c else { return 0.0 };
        let factor = c.added.iter().fold(1.0, |acc, t| {
            if hand.is_some_and(|h| h.contains(*t)) {
                acc * HAND_DISCOUNT
            } else {
                acc * UNSEEN_DISCOUNT
            }
        });
        strength_value(c.strength, cards) * factor
    }

    /// The bot's outlook at flag `i`: positive is good for the bot.
    fn flag(&self, game: &Game, i: usize) -> f64 {
        let f = &game.flags()[i];
        let opp = self.me.opponent();
        match f.owner {
            Some(p) if p == self.me => return CLAIMED,
            Some(_) => return -CLAIMED,
            None => {}
        }
        let rules = f.judging();
        let mine = self.potential(
            best_formation(f.slots(self.me), rules, self.mine),
            rules.cards,
            Some(self.hand),
        );
        let theirs = self.potential(
            best_formation(f.slots(opp), rules, self.theirs),
            rules.cards,
            None,
        );
        let mut score = mine - theirs;
        let flag = i as u8;
        if f.slots(self.me).len() >= rules.cards && game.check_claim(flag, self.me).is_ok() {
            score += PROVABLE;
        }
        if f.slots(opp).len() >= rules.cards && game.check_claim(flag, opp).is_ok() {
            score -= PROVABLE;
        }
        score
    }
}

impl Bot {
    /// A bot whose tie-breaks follow `seed`.
    pub fn new(seed: u64) -> Bot {
        Bot {
            rng: Rng::new(seed),
        }
    }

    /// The next command for the player whose turn it is, or `None` when the game is over.
    pub fn choose(&mut self, game: &Game) -> Option<Command> {
        let legal = game.legal_commands();
        if legal.is_empty() {
            return None;
        }
        if let Some(claim) = super::claim_in(&legal) {
            return Some(claim);
        }
        let me = game.current();
        let choice = match game.phase() {
            Phase::Play | Phase::Guile { .. } => self.best_play(game, &legal),
            Phase::ScoutDraw { .. } => {
                let deck = if game.troop_deck_len() > 0 {
                    Deck::Troop
                } else {
                    Deck::Tactic
                };
                Some(Command::ScoutDraw { deck })
            }
            Phase::ScoutReturn { .. } => self
                .worst_card(game, me)
                .map(|card| Command::ScoutReturn { card }),
            Phase::Finish { .. } => Some(self.draw_choice(game, me)),
            Phase::GameOver { .. } | Phase::Stalemate => None,
        };
        // Whatever the heuristics pick, only a listed command is returned.
        choice.filter(|c| legal.contains(c)).or_else(|| {
            legal
                .iter()
                .copied()
                .find(|c| !matches!(c, Command::SortHand { .. }))
        })
    }

    fn noise(&mut self) -> f64 {
        self.rng.next_f64() * 1e-3
    }

    /// Sum of score changes over the flags that differ from `base_game`.
    fn delta(scorer: &Scorer, base_game: &Game, base: &[f64], g: &Game) -> f64 {
        (0..base.len())
            .filter(|&i| g.flags()[i] != base_game.flags()[i])
            .map(|i| scorer.flag(g, i) - base[i])
            .sum()
    }

    fn best_play(&mut self, game: &Game, legal: &[Command]) -> Option<Command> {
        let me = game.current();
        let scorer = Scorer::new(game, me);
        let base: Vec<f64> = (0..game.flags().len())
            .map(|i| scorer.flag(game, i))
            .collect();
        let mut best: Option<(f64, Command)> = None;
        for &cmd in legal {
            let cost = match cmd {
                Command::PlayCard {
                    card: Card::Tactic(t),
                    ..
                } => TACTIC_COST + if t.is_leader() { LEADER_COST } else { 0.0 },
                Command::PlayCard { .. } => 0.0,
                Command::Pass => PASS_COST,
                Command::ResolveRedeploy { .. }
                | Command::ResolveDeserter { .. }
                | Command::ResolveTraitor { .. } => 0.0,
                _ => continue,
            };
            let mut g = game.clone();
            if g.apply(cmd).is_err() {
                continue;
            }
            let gain = match g.phase() {
                Phase::Guile { .. } => g
                    .legal_commands()
                    .into_iter()
                    .filter(|c| !matches!(c, Command::SortHand { .. }))
                    .filter_map(|r| {
                        let mut g2 = g.clone();
                        g2.apply(r).ok()?;
                        Some(Self::delta(&scorer, game, &base, &g2))
                    })
                    .fold(f64::NEG_INFINITY, f64::max),
                Phase::ScoutDraw { .. } => SCOUT_VALUE,
                _ => Self::delta(&scorer, game, &base, &g),
            };
            let value = gain - cost + self.noise();
            if best.is_none_or(|(b, _)| value > b) {
                best = Some((value, cmd));
            }
        }
        best.map(|(_, c)| c)
    }

    /// The hand card the bot misses least (for Scout's return): low troops, then unplayable tactics.
    fn worst_card(&mut self, game: &Game, me: Player) -> Option<Card> {
        let ahead = game.tactics_played(me) > game.tactics_played(me.opponent());
        game.hand(me)
            .iter()
            .copied()
            .map(|c| {
                let keep = match c {
                    Card::Troop(t) => f64::from(t.value),
                    Card::Tactic(t) if ahead => {
                        2.0 + if t.kind() == TacticKind::Morale {
                            1.0
                        } else {
                            0.0
                        }
                    }
                    Card::Tactic(Tactic::Alexander | Tactic::Darius) => 11.0,
                    Card::Tactic(_) => 7.5,
                };
                (keep + self.noise(), c)
            })
            .min_by(|a, b| a.0.total_cmp(&b.0))
            .map(|(_, c)| c)
    }

    fn draw_choice(&mut self, game: &Game, me: Player) -> Command {
        let Phase::Finish { may_draw: true } = game.phase() else {
            return Command::EndTurn;
        };
        let tactics_in_hand = game
            .hand(me)
            .iter()
            .filter(|c| c.tactic().is_some())
            .count();
        // Holding one tactic keeps a way to lift the opponent's tactic limit (and so
        // avoid a stalemate); more than that crowds out troops.
        let behind = game.tactics_played(me) < game.tactics_played(me.opponent());
        let want_tactic = tactics_in_hand == 0 && (behind || self.rng.chance(0.2));
        let deck = match (game.troop_deck_len() > 0, game.tactic_deck_len() > 0) {
            (true, true) if want_tactic => Deck::Tactic,
            (true, _) => Deck::Troop,
            (false, true) => Deck::Tactic,
            (false, false) => return Command::EndTurn,
        };
        Command::DrawAndEndTurn { deck }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Settings;

    #[test]
    fn bot_only_returns_legal_commands_and_is_deterministic() {
        let mut a = Game::new(3, Settings::default());
        let mut b = a.clone();
        let mut bot_a = Bot::new(9);
        let mut bot_b = Bot::new(9);
        for _ in 0..200 {
            let Some(ca) = bot_a.choose(&a) else { break };
            let cb = bot_b.choose(&b);
            assert_eq!(Some(ca), cb);
            assert!(a.legal_commands().contains(&ca));
            assert!(a.apply(ca).is_ok());
            assert!(b.apply(ca).is_ok());
        }
    }
}
