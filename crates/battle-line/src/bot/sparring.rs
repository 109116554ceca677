//! The sparring partner: a probability bot of the kind the strongest public Battle Line engines use, for the harness to measure the levels against (it is not a level of the page).
//!
//! It does not search. From what its seat may know it computes, for every flag and
//! both sides, the odds of each formation the side can still reach ([`super::ladder`]:
//! exact for a side one card short, exact per kind otherwise) and from them the
//! chance of winning the flag; a complete side that can be proven wins (and one that
//! the other side can prove against loses) outright. Its cards come from its hand for
//! sure and from a random handful of the troops whose place it does not know (the
//! deck and the other hand together), as many as the side needs plus 8 (at most half
//! the deck); the other player's from the troops it is known to hold (drawn from cards
//! this seat put back with Scout) and a random handful of the same unknown troops as
//! large as its hidden hand plus its draws. Cards put back on the troop deck with
//! Scout go to the players in turn, this seat first. Each hand troop counts for one
//! started flag only (the flags nearest completion take the cards of their best
//! completion first), and an empty side, of either player, is a handful of the cards
//! that player may get as large as a side needs plus 8: counting the whole hand for
//! every flag made every card played look like a loss of options.
//!
//! Each flag is weighted by what it adds towards a win: one, plus the chance that
//! the other two flags of some three adjacent flags through it are won by the same
//! player (either player: a breakthrough made or stopped), plus the chance that
//! exactly four of the other eight flags are (an envelopment made or stopped). The
//! move played is the one that leaves the highest weighted sum of flag chances (the
//! expected flags won, by weight). Claims come first, as soon as they are provable.
//! Tactics are tried like troops (each guile card with each of its resolutions) and
//! played when they change the flags' chances by more than what spending a tactic
//! costs.

use super::knowledge::Knowledge;
use super::ladder::{Outlook, counted, done_first, first_to_complete, proved, win_chance};
use crate::card::{Card, Tactic, TacticKind, TroopSet};
use crate::formation::{Judging, best_formation};
use crate::game::{Command, Deck, Game, Phase, Player, Target};
use crate::odds::Supply;
use seeded_rng::Rng;
use std::collections::HashMap;

/// The deal of hidden cards that moves are applied on (only public places and this
/// seat's hand are read from it, so any deal gives the same answers).
const WORLD_SEED: u64 = 0x5EED_0023;

/// Knobs of the sparring partner.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Params {
    /// Draws a side counts on beyond the cards it still needs (at most the draws left);
    /// an empty side gets a handful of this many more than it needs. Measured against
    /// easy over 400 games: 2 won 60.8%, 5 77.2%, 8 83.2%, 12 79.2%, 30 58.5%.
    pub slack: usize,
    /// Weight of three adjacent flags (a breakthrough made or stopped).
    pub breakthrough: f64,
    /// Weight of the five-flag count (an envelopment made or stopped).
    pub envelopment: f64,
    /// What playing a morale card costs, in weighted flags.
    pub morale_cost: f64,
    /// What playing a leader costs on top (only one per player).
    pub leader_cost: f64,
    /// What playing an environment or guile tactic costs.
    pub tactic_cost: f64,
    /// What Scout is worth beyond keeping the position as it is.
    pub scout_value: f64,
    /// For two sides that both need two or more cards and may reach the same kind:
    /// the difference of their best sums that makes one a 73% favourite.
    pub sum_scale: f64,
    /// Draw a tactic when the hand holds none (otherwise troops only).
    pub keep_a_tactic: bool,
}

impl Default for Params {
    fn default() -> Params {
        Params {
            slack: 8,
            breakthrough: 1.0,
            envelopment: 1.0,
            morale_cost: 0.1,
            leader_cost: 0.2,
            tactic_cost: 0.1,
            scout_value: 0.05,
            sum_scale: 1.5,
            keep_a_tactic: true,
        }
    }
}

/// The probability-based sparring partner. It keeps no state between moves and uses
/// no randomness: the same position always gets the same command.
#[derive(Debug, Clone, Default)]
pub struct Sparring {
    params: Params,
}

impl Sparring {
    pub fn new() -> Sparring {
        Sparring::default()
    }

    /// The command for the player to move (`None` when the game is over).
    pub fn choose(&self, game: &Game) -> Option<Command> {
        if game.is_over() {
            return None;
        }
        let me = game.current();
        let know = Knowledge::of(game, me);
        let world = know.sample(&mut Rng::new(WORLD_SEED));
        let legal = world.legal_commands();
        if let Some(claim) = super::claim_in(&legal) {
            return Some(claim);
        }
        let mut table = Table::new(&know, &world, self.params);
        let pick = match world.phase() {
            Phase::Play => table.best_play(&world, &legal),
            Phase::Guile { .. } => table.best_resolution(&world, &legal),
            Phase::ScoutDraw { .. } => Some(Command::ScoutDraw {
                deck: if world.troop_deck_len() > 0 {
                    Deck::Troop
                } else {
                    Deck::Tactic
                },
            }),
            Phase::ScoutReturn { .. } => table
                .least_useful(&world)
                .map(|card| Command::ScoutReturn { card }),
            Phase::Finish { may_draw } => Some(self.draw(&world, me, may_draw)),
            Phase::GameOver { .. } | Phase::Stalemate => None,
        };
        pick.filter(|c| legal.contains(c)).or_else(|| {
            legal
                .iter()
                .copied()
                .find(|c| !matches!(c, Command::SortHand { .. } | Command::MoveCard { .. }))
        })
    }

    /// Every decision of the player to move in `world` (a deal of `know`) valued as
    /// this partner values it: the weighted flags it expects to win after it, tactics
    /// less their cost; a guile card with each of its resolutions. Empty outside the
    /// plays and guile steps. The search ranks its candidates with this.
    pub(crate) fn rank(&self, know: &Knowledge, world: &Game) -> Vec<(f64, Vec<Command>)> {
        let mut table = Table::new(know, world, self.params);
        let legal = world.legal_commands();
        let mut out = Vec::new();
        match world.phase() {
            Phase::Play => {
                let base = table.start(world);
                for &cmd in &legal {
                    match cmd {
                        Command::Pass => out.push((base, vec![cmd])),
                        Command::PlayCard {
                            card: card @ Card::Tactic(Tactic::Scout),
                            ..
                        } => {
                            out.push((base + self.params.scout_value - table.cost(card), vec![cmd]))
                        }
                        Command::PlayCard {
                            card,
                            target: Target::Field,
                        } => {
                            let mut g = world.clone();
                            if g.apply(cmd).is_err() {
                                continue;
                            }
                            let sure = table.sure;
                            for r in g.legal_commands() {
                                if !r.resolves_guile() {
                                    continue;
                                }
                                if let Some(v) = table.after(&g, &[r], sure) {
                                    out.push((v - table.cost(card), vec![cmd, r]));
                                }
                            }
                        }
                        Command::PlayCard { card, .. } => {
                            let sure = table.sure_without(card);
                            if let Some(v) = table.after(world, &[cmd], sure) {
                                out.push((v - table.cost(card), vec![cmd]));
                            }
                        }
                        _ => {}
                    }
                }
            }
            Phase::Guile { .. } => {
                table.start(world);
                let sure = table.sure;
                for &r in &legal {
                    if r.resolves_guile()
                        && let Some(v) = table.after(world, &[r], sure)
                    {
                        out.push((v, vec![r]));
                    }
                }
            }
            _ => {}
        }
        out
    }

    /// The end of a turn: a troop, or a tactic while the hand holds none.
    fn draw(&self, game: &Game, me: Player, may_draw: bool) -> Command {
        let troops = game.troop_deck_len() > 0;
        let tactics = game.tactic_deck_len() > 0;
        if !may_draw || !(troops || tactics) {
            return Command::EndTurn;
        }
        let holds_tactic = game.hand(me).iter().any(|c| c.tactic().is_some());
        let deck = if !troops || (tactics && self.params.keep_a_tactic && !holds_tactic) {
            Deck::Tactic
        } else {
            Deck::Troop
        };
        Command::DrawAndEndTurn { deck }
    }
}

/// `me`'s chance of winning `game`: 1 or 0 once it is over (a stalemate a half),
/// otherwise the partner's chance of winning each flag as `me` sees it, combined over
/// the 512 ways the nine flags can fall (breakthrough or envelopment,
/// [`super::eval::game_chance`]). Only what `me` may know of `game` is read. The search
/// scores its cut rollouts with it (`CutScore::Partner`).
pub(crate) fn game_chance(game: &Game, me: Player) -> f64 {
    match game.phase() {
        Phase::GameOver { winner, .. } => return f64::from(u8::from(winner == me)),
        Phase::Stalemate => return 0.5,
        _ => {}
    }
    super::eval::game_chance(&flag_chances(game, me)).clamp(0.0, 1.0)
}

/// The partner's chance that `me` wins each flag of `game`, as `me` sees it (what
/// [`game_chance`] combines; the calibration of the cut score records them).
pub(crate) fn flag_chances(game: &Game, me: Player) -> [f64; 9] {
    let know = Knowledge::of(game, me);
    let mut table = Table::new(&know, game, Params::default());
    let sure = table.sure;
    table.chances(game, sure)
}

/// A side's cards and how it is judged: the key of the outlook caches.
type SideKey = (Vec<Card>, usize, bool);

/// One decision's view of the table: what the seat knows and the outlooks computed.
struct Table {
    me: Player,
    params: Params,
    /// Troops this seat will hold for sure: its hand and returned cards it will draw.
    sure: TroopSet,
    /// Troops the other player holds for sure.
    their_sure: TroopSet,
    /// Troops whose place this seat does not know.
    pool: TroopSet,
    /// Troops in the other hand this seat does not know.
    their_hidden: usize,
    /// Troops each player will still draw from the deck (besides known returned cards).
    my_draws: usize,
    their_draws: usize,
    mine: HashMap<(SideKey, TroopSet), Outlook>,
    theirs: HashMap<SideKey, Outlook>,
    weights: [f64; 9],
}

impl Table {
    fn new(know: &Knowledge, world: &Game, params: Params) -> Table {
        let me = know.me;
        let mut sure: TroopSet = world.hand(me).iter().filter_map(|c| c.troop()).collect();
        let mut their_sure = know.known_other_troops();
        // Returned cards are drawn in turn, this seat first (it decides in its turn).
        let mut assigned = [0usize; 2];
        for (i, top) in know.troop_tops().enumerate() {
            if let Some(t) = top {
                if i % 2 == 0 {
                    sure.insert(t);
                } else {
                    their_sure.insert(t);
                }
            }
            assigned[i % 2] += 1;
        }
        let deck = know.troop_deck();
        Table {
            me,
            params,
            sure,
            their_sure,
            pool: know.unseen(),
            their_hidden: know.other_unknown_troops(),
            my_draws: deck.div_ceil(2).saturating_sub(assigned[0]),
            their_draws: (deck / 2).saturating_sub(assigned[1]),
            mine: HashMap::new(),
            theirs: HashMap::new(),
            weights: [1.0; 9],
        }
    }

    /// What an empty side of a flag may become, for either player: a handful of the
    /// cards that player may get (its own hand among them), as large as the cards a
    /// side needs plus the slack. Counting the whole hand and every draw for each empty
    /// flag would make any card played look like a loss of options.
    fn empty_supply(&self, player: Player, rules: Judging) -> Supply {
        let own = if player == self.me {
            self.sure
        } else {
            self.their_sure
        };
        Supply {
            hand: TroopSet::EMPTY,
            pool: self.pool.union(own),
            draws: rules.cards + self.params.slack,
        }
    }

    fn my_supply(&self, side: &[Card], rules: Judging, sure: TroopSet) -> Supply {
        if side.is_empty() {
            return self.empty_supply(self.me, rules);
        }
        let missing = rules.cards.saturating_sub(counted(side));
        Supply {
            hand: sure,
            pool: self.pool,
            draws: self.my_draws.min(missing + self.params.slack),
        }
    }

    fn their_supply(&self, side: &[Card], rules: Judging) -> Supply {
        if side.is_empty() {
            return self.empty_supply(self.me.opponent(), rules);
        }
        let missing = rules.cards.saturating_sub(counted(side));
        Supply {
            hand: self.their_sure,
            pool: self.pool,
            draws: self.their_hidden + self.their_draws.min(missing + self.params.slack),
        }
    }

    /// P(this seat wins flag `i` of `g`), counting on `sure` for its side there.
    fn chance(&mut self, g: &Game, i: usize, sure: TroopSet) -> f64 {
        let f = &g.flags()[i];
        if let Some(owner) = f.owner {
            return f64::from(u8::from(owner == self.me));
        }
        let them = self.me.opponent();
        let rules = f.judging();
        let (mine, theirs) = (f.slots(self.me), f.slots(them));
        let unplayed = g.unplayed_troops();
        // Claim proofs are exact: nothing unplayed lets the other side do better.
        if let Some(p) = proved(mine, theirs, rules, unplayed) {
            return p;
        }
        let done_tie = done_first(f.completed_at, self.me).unwrap_or(0.5);
        let sum_scale = self.params.sum_scale;
        let their_key = (theirs.to_vec(), rules.cards, rules.fog);
        if !self.theirs.contains_key(&their_key) {
            let o = Outlook::of(theirs, rules, self.their_supply(theirs, rules));
            self.theirs.insert(their_key.clone(), o);
        }
        // An empty side does not depend on which hand card is played.
        let my_sure = if mine.is_empty() { self.sure } else { sure };
        let my_key = ((mine.to_vec(), rules.cards, rules.fog), my_sure);
        if !self.mine.contains_key(&my_key) {
            let o = Outlook::of(mine, rules, self.my_supply(mine, rules, my_sure));
            self.mine.insert(my_key.clone(), o);
        }
        let (Some(my_outlook), Some(their_outlook)) =
            (self.mine.get(&my_key), self.theirs.get(&their_key))
        else {
            return 0.5;
        };
        let tie = first_to_complete(my_outlook, their_outlook);
        win_chance(my_outlook, their_outlook, tie, done_tie, sum_scale)
    }

    /// P(this seat wins each flag of `g`) when it holds `sure`: each hand troop counts
    /// for one started flag only ([`Table::allocate`]).
    fn chances(&mut self, g: &Game, sure: TroopSet) -> [f64; 9] {
        let alloc = self.allocate(g, sure);
        let mut p = [0.0; 9];
        for (i, x) in p.iter_mut().enumerate() {
            *x = self.chance(g, i, alloc[i]);
        }
        p
    }

    /// The sure troops each flag may count on. The started flags nearest completion
    /// first take the hand troops their best possible completion uses; the troops no
    /// started flag takes count for every flag. Without this, one good card in hand
    /// would count for every flag it fits, and weak cards would be spread over many
    /// flags in the hope of it.
    fn allocate(&self, g: &Game, sure: TroopSet) -> [TroopSet; 9] {
        let me = self.me;
        let mut started: Vec<(usize, usize)> = g
            .flags()
            .iter()
            .enumerate()
            .filter(|(_, f)| f.owner.is_none() && !f.slots(me).is_empty())
            .filter_map(|(i, f)| {
                let missing = f.capacity().checked_sub(counted(f.slots(me)))?;
                (missing > 0).then_some((missing, i))
            })
            .collect();
        started.sort_unstable();
        let mut left = sure;
        let mut out = [TroopSet::EMPTY; 9];
        for (_, i) in started {
            let f = &g.flags()[i];
            if let Some(c) = best_formation(f.slots(me), f.judging(), left.union(self.pool)) {
                for t in c.added {
                    if left.contains(t) {
                        left.remove(t);
                        out[i].insert(t);
                    }
                }
            }
        }
        for set in &mut out {
            *set = set.union(left);
        }
        out
    }

    /// The weighted flags this seat expects to win in `g`.
    fn value(&mut self, g: &Game, sure: TroopSet) -> f64 {
        let p = self.chances(g, sure);
        p.iter().zip(&self.weights).map(|(p, w)| p * w).sum()
    }

    /// Sets the flags' weights from the position as it is; returns its value.
    fn start(&mut self, world: &Game) -> f64 {
        let p = self.chances(world, self.sure);
        self.weights = weights(&p, self.params);
        p.iter().zip(&self.weights).map(|(p, w)| p * w).sum()
    }

    /// What playing `card` costs beyond its effect on the flags.
    fn cost(&self, card: Card) -> f64 {
        match card {
            Card::Troop(_) => 0.0,
            Card::Tactic(t) if t.is_leader() => self.params.morale_cost + self.params.leader_cost,
            Card::Tactic(t) if t.kind() == TacticKind::Morale => self.params.morale_cost,
            Card::Tactic(_) => self.params.tactic_cost,
        }
    }

    /// The hand's troops for sure, without the troop `card` (if it is one).
    fn sure_without(&self, card: Card) -> TroopSet {
        let mut sure = self.sure;
        if let Card::Troop(t) = card {
            sure.remove(t);
        }
        sure
    }

    /// The value of `world` after `commands` (`None` if one is refused).
    fn after(&mut self, world: &Game, commands: &[Command], sure: TroopSet) -> Option<f64> {
        let mut g = world.clone();
        for &c in commands {
            g.apply(c).ok()?;
        }
        Some(self.value(&g, sure))
    }

    /// The play (or pass) that leaves the most weighted flags, tactics less their cost.
    fn best_play(&mut self, world: &Game, legal: &[Command]) -> Option<Command> {
        let base = self.start(world);
        let mut best: Option<(f64, Command)> = None;
        for &cmd in legal {
            let score = match cmd {
                Command::Pass => Some(base),
                Command::PlayCard {
                    card: card @ Card::Tactic(Tactic::Scout),
                    ..
                } => Some(base + self.params.scout_value - self.cost(card)),
                Command::PlayCard {
                    card,
                    target: Target::Field,
                } => self
                    .best_guile(world, cmd)
                    .map(|(v, _)| v - self.cost(card)),
                Command::PlayCard { card, .. } => {
                    let sure = self.sure_without(card);
                    self.after(world, &[cmd], sure).map(|v| v - self.cost(card))
                }
                _ => None,
            };
            if let Some(s) = score
                && best.is_none_or(|(b, _)| s > b)
            {
                best = Some((s, cmd));
            }
        }
        best.map(|(_, c)| c)
    }

    /// A guile card's best resolution and the value it leaves.
    fn best_guile(&mut self, world: &Game, play: Command) -> Option<(f64, Command)> {
        let mut g = world.clone();
        g.apply(play).ok()?;
        let sure = self.sure;
        let mut best: Option<(f64, Command)> = None;
        for r in g.legal_commands() {
            if !r.resolves_guile() {
                continue;
            }
            if let Some(v) = self.after(&g, &[r], sure)
                && best.is_none_or(|(b, _)| v > b)
            {
                best = Some((v, r));
            }
        }
        best
    }

    /// The pending guile tactic's best resolution.
    fn best_resolution(&mut self, world: &Game, legal: &[Command]) -> Option<Command> {
        self.start(world);
        let sure = self.sure;
        let mut best: Option<(f64, Command)> = None;
        for &r in legal {
            if !r.resolves_guile() {
                continue;
            }
            if let Some(v) = self.after(world, &[r], sure)
                && best.is_none_or(|(b, _)| v > b)
            {
                best = Some((v, r));
            }
        }
        best.map(|(_, c)| c)
    }

    /// The hand card worth least (Scout's return): a troop is worth what the flags
    /// lose without it; a tactic a fixed amount (less once the tactic limit locks it).
    fn least_useful(&mut self, world: &Game) -> Option<Card> {
        let base = self.start(world);
        let me = self.me;
        let locked = world.tactics_played(me) > world.tactics_played(me.opponent());
        let mut hand: Vec<Card> = world.hand(me).to_vec();
        hand.sort();
        let mut worst: Option<(f64, Card)> = None;
        for card in hand {
            let worth = match card {
                Card::Troop(_) => {
                    let sure = self.sure_without(card);
                    base - self.value(world, sure)
                }
                Card::Tactic(t) => {
                    let keep = if t.is_leader() {
                        0.6
                    } else if t.kind() == TacticKind::Morale {
                        0.4
                    } else {
                        0.25
                    };
                    if locked { keep / 4.0 } else { keep }
                }
            };
            if worst.is_none_or(|(w, _)| worth < w) {
                worst = Some((worth, card));
            }
        }
        worst.map(|(_, c)| c)
    }
}

/// Each flag's weight from the chances `p` that this seat wins each flag: one, plus
/// (for each player) the best chance that the other two flags of three adjacent ones
/// through it are that player's, plus the chance that exactly four of the other
/// eight are.
pub(crate) fn weights(p: &[f64; 9], params: Params) -> [f64; 9] {
    let q: Vec<f64> = p.iter().map(|x| 1.0 - x).collect();
    let mut w = [1.0; 9];
    for (i, wi) in w.iter_mut().enumerate() {
        let mut adjacent = [0.0f64; 2];
        for start in i.saturating_sub(2)..=i.min(6) {
            for (a, probs) in adjacent.iter_mut().zip([&p[..], &q[..]]) {
                let others: f64 = (start..start + 3)
                    .filter(|&j| j != i)
                    .map(|j| probs[j])
                    .product();
                *a = a.max(others);
            }
        }
        let mut four = [0.0; 2];
        for (f, probs) in four.iter_mut().zip([&p[..], &q[..]]) {
            // The distribution of how many of the other flags the player wins.
            let mut dist = [0.0f64; 9];
            dist[0] = 1.0;
            for (j, &x) in probs.iter().enumerate() {
                if j == i {
                    continue;
                }
                for k in (0..9).rev() {
                    dist[k] = dist[k] * (1.0 - x) + if k > 0 { dist[k - 1] * x } else { 0.0 };
                }
            }
            *f = dist[4];
        }
        *wi += params.breakthrough * (adjacent[0] + adjacent[1])
            + params.envelopment * (four[0] + four[1]);
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Settings;

    #[test]
    fn a_flag_between_two_likely_flags_weighs_more() {
        let params = Params::default();
        let p = [0.5, 0.5, 0.5, 0.9, 0.5, 0.9, 0.5, 0.5, 0.5];
        let w = weights(&p, params);
        assert!(w[4] > w[0] + 0.3, "{w:?}");
        // The other player's two likely flags make the one between them urgent too.
        let q = [0.5, 0.5, 0.5, 0.1, 0.5, 0.1, 0.5, 0.5, 0.5];
        assert!((weights(&q, params)[4] - w[4]).abs() < 1e-12);
        // Four flags won elsewhere: every open flag is worth an envelopment.
        let four = [1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.5, 0.0];
        let w4 = weights(&four, params);
        assert!(w4[7] > 1.9, "{w4:?}");
    }

    #[test]
    fn plays_legal_commands_through_whole_games_the_same_way_twice() {
        let bot = Sparring::new();
        for seed in [1u64, 2] {
            let mut games = [
                Game::new(seed, Settings::default()),
                Game::new(seed, Settings::default()),
            ];
            for _ in 0..400 {
                if games[0].is_over() {
                    break;
                }
                let cmd = bot.choose(&games[0]).expect("a move while the game is on");
                assert!(games[0].legal_commands().contains(&cmd), "{cmd:?}");
                assert_eq!(
                    bot.choose(&games[1]),
                    Some(cmd),
                    "the same position, the same move"
                );
                for g in &mut games {
                    g.apply(cmd).expect("legal");
                }
            }
            assert!(games[0].is_over(), "seed {seed}: the game ends");
        }
    }

    #[test]
    fn claims_a_provable_flag_first() {
        // Play on until the partner can prove a flag: it claims before anything else.
        let bot = Sparring::new();
        let mut game = Game::new(11, Settings::default());
        let mut claimed = 0;
        for _ in 0..400 {
            if game.is_over() {
                break;
            }
            let provable =
                game.claim_allowed_now() && !game.provable_flags(game.current()).is_empty();
            let cmd = bot.choose(&game).expect("a move");
            if provable {
                assert!(matches!(cmd, Command::ClaimFlag { .. }), "{cmd:?}");
                claimed += 1;
            }
            game.apply(cmd).expect("legal");
        }
        assert!(claimed >= 3, "claims made: {claimed}");
    }
}
