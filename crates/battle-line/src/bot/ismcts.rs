//! Information-set Monte Carlo tree search (single observer, after Cowling, Powley and Whitehouse, 2012): a tree over both players' plays near the root, shared by every deal of the hidden cards.
//!
//! The root's moves are the hard search's candidates (the legal moves ranked by the odds
//! evaluation, the best few kept; a guile card with its resolution). Each iteration deals
//! the cards the searching seat cannot see at random, consistently with what it knows
//! ([`Knowledge::sample`]), and walks down the tree in that deal:
//!
//! - at the root, every candidate is legal in every deal (the seat's own hand is known);
//! - below it, a node is a play (a card put on a flag or a guile card, keyed by the
//!   command and the player making it) chosen among the rollout policy's best few plays
//!   in the deal (by their worth without noise). A play that this deal's hand does not
//!   hold is simply not considered, and each child counts how often it was available, so
//!   its exploration term uses that count in place of the parent's visits (the
//!   availability counts of single-observer ISMCTS);
//! - the steps between two plays (the rest of a turn: claims, a guile card's
//!   resolution, the draw) are played by the rollout policy.
//!
//! One node is added per iteration (the first play in the policy's order not yet in the
//! tree), then the game is played on by the rollout policy and scored by the config's cut
//! score, exactly as hard's rollouts are, and every node on the path counts the score
//! from the seat of the player who made its move. The move played is the root's most
//! visited candidate. The search reads the game only through the seat's knowledge, and
//! its randomness comes from the seed alone, so the same position and seed give the
//! same move.

use super::knowledge::Knowledge;
use super::reply_model::{Outlooks, ReplyModel, plays_of};
use super::search::{Config, Progress, Search, cut_score, deal_rng};
use crate::game::{Command, Game, Phase, Player};
use seeded_rng::Rng;

/// The shape of the tree search; the rest (candidates, rollouts, their score) comes
/// from the hard level's [`Config`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Tree {
    /// Iterations: one deal, one walk down the tree and one rollout each.
    pub iterations: usize,
    /// Plays kept in the tree below the root's move (1: the other player's reply; 2: and
    /// the searching player's next play; ...).
    pub plies: usize,
    /// The plays considered at a node below the root: the rollout policy's best this
    /// many in the iteration's deal.
    pub breadth: usize,
    /// The exploration constant of the UCB rule.
    pub exploration: f64,
    /// How the root's candidates share the iterations: with `false`, by the UCB rule
    /// like every other node (`iterations` in all); with `true`, by hard's sequential
    /// halving (its rollouts per round from `Config::rollouts`, every candidate of a
    /// round walked down its own subtree in the same deals, the better half kept), so the
    /// luck of a deal cancels out between candidates as in hard, and the tree searches
    /// the replies below each of them.
    pub halving: bool,
    /// With `n` above 0, the first reply node below each root candidate (the other
    /// player's reply) takes its plays from the sparring partner's valuation of them,
    /// learned in the first `n` deals that reach the node ([`ReplyValues`]), instead
    /// of the policy's: the policy's plays ordered by that valuation, the best
    /// `breadth` kept. Deeper nodes keep the policy's.
    pub reply_valuations: usize,
    /// With `halving` and `p` above 0: when the last round leaves two candidates whose
    /// mean difference over that round's deals (paired: the same deals) is within one
    /// standard error of it, each is walked `p` percent of the round's rollouts more,
    /// in the same new deals, before the better is chosen (more rollouts only where the
    /// choice is within its noise).
    pub close_extra: usize,
    /// With `halving`: when the last round leaves two candidates within one standard
    /// error of each other (judged as for `close_extra`, on that round's deals; any
    /// extra rollouts are walked first but do not change the judgment), the one the
    /// sparring partner's valuation ([`super::Sparring::rank`]) rates higher is played:
    /// a second, independent opinion where the rollouts cannot tell them apart.
    pub close_partner: bool,
    /// With `Some(hand)`, the first reply node below each root candidate takes its plays
    /// from the partner's worths tabled once for that candidate ([`ReplyModel`], built in
    /// the first deal that reaches the node from its public parts, the root's unplayed
    /// troops counted so the candidates share their outlooks): the policy's plays
    /// ordered by the table, and with `hand` by the table and the deal's hand
    /// ([`ReplyModel::order_in`]), the best `breadth` kept.
    pub reply_model: Option<bool>,
}

/// One node: the move that leads to it and its statistics.
#[derive(Debug, Clone, PartialEq)]
struct Node {
    /// Who made the move (the root: the searching player).
    mover: Player,
    /// The move below the root, or the first command of a root candidate.
    command: Command,
    /// Iterations through this node.
    visits: u32,
    /// Iterations through the parent in which this move could be made.
    available: u32,
    /// Sum of the scores, each from `mover`'s seat.
    total: f64,
    children: Vec<usize>,
}

impl Node {
    fn new(mover: Player, command: Command) -> Node {
        Node {
            mover,
            command,
            visits: 0,
            available: 0,
            total: 0.0,
            children: Vec::new(),
        }
    }

    fn mean(&self) -> f64 {
        if self.visits == 0 {
            0.0
        } else {
            self.total / f64::from(self.visits)
        }
    }
}

/// At most this many commands are played by the policy between two plays of the tree
/// (a turn's end is a few: claims, a guile card's resolution, the draw).
const MAX_STEPS: usize = 48;

/// A tree search of one position.
#[derive(Debug, Clone)]
struct Ismcts {
    know: Knowledge,
    config: Config,
    tree: Tree,
    /// The root's candidates, in the ranking's order: node `i + 1` is candidate `i`.
    candidates: Vec<Vec<Command>>,
    /// Their ranking values (the score of a candidate that cannot be played in a deal,
    /// which never happens: the seat's own moves are the same in every deal).
    priors: Vec<f64>,
    /// Node 0 is the root.
    nodes: Vec<Node>,
    /// The partner's valuation learned at each candidate's first reply node (candidate
    /// `i`'s at `i`), with `Tree::reply_valuations` above 0.
    reply_values: Vec<ReplyValues>,
    /// Rollouts added by `Tree::close_extra`.
    extra_rollouts: usize,
    /// Choices left to the partner's valuation by `Tree::close_partner`.
    partner_breaks: usize,
    /// The tabled reply model of each candidate's first reply node, with
    /// `Tree::reply_model`, and the outlooks they share.
    reply_models: Vec<Option<ReplyModel>>,
    outlooks: Outlooks,
    /// The troops not on the table at the root (public: the same in every deal).
    root_unplayed: crate::card::TroopSet,
}

/// Whether the mean of the paired differences `diffs` is within one standard error of
/// 0 (never with fewer than two).
fn within_noise(diffs: &[f64]) -> bool {
    let n = diffs.len();
    if n < 2 {
        return false;
    }
    let mean = diffs.iter().sum::<f64>() / n as f64;
    let var = diffs.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
    mean.abs() < (var / n as f64).sqrt()
}

/// The command the tree search with `config` and `tree` picks for the player to move
/// in `game` (`None` when the game is over). Small decisions (claims, draws, Scout's
/// steps, a single legal move) are the hard search's.
pub(crate) fn choose(game: &Game, seed: u64, config: Config, tree: Tree) -> Option<Command> {
    let Some(mut search) = start(game, config, tree, seed) else {
        return decided(game, seed, config);
    };
    if tree.halving {
        return search.halve(seed);
    }
    for i in 0..tree.iterations {
        search.iterate(seed, i);
    }
    search.best()
}

/// The small decision the hard search makes at once in `game` (the same call as in
/// [`start`], which found nothing to search).
fn decided(game: &Game, seed: u64, config: Config) -> Option<Command> {
    match Search::start(game, seed, config) {
        Progress::Decided(c) => c,
        Progress::Searching(s) => {
            let ranked = s.into_ranked();
            ranked
                .candidates
                .first()
                .and_then(|(c, _)| c.first().copied())
                .or(ranked.fallback)
        }
    }
}

/// A tree search of `game` ready to iterate, or `None` when there is nothing to search
/// (a small decision, or at most one candidate).
fn start(game: &Game, config: Config, tree: Tree, seed: u64) -> Option<Ismcts> {
    let Progress::Searching(search) = Search::start(game, seed, config) else {
        return None;
    };
    let ranked = search.into_ranked();
    if ranked.candidates.len() <= 1 {
        return None;
    }
    let me = ranked.know.me;
    let mut nodes = vec![Node::new(me, Command::Pass)];
    let (candidates, priors): (Vec<Vec<Command>>, Vec<f64>) = ranked.candidates.into_iter().unzip();
    for (i, commands) in candidates.iter().enumerate() {
        let first = commands.first().copied().unwrap_or(Command::Pass);
        nodes.push(Node::new(me, first));
        nodes[0].children.push(i + 1);
    }
    let reply_values = vec![ReplyValues::default(); candidates.len()];
    let reply_models = vec![None; candidates.len()];
    // Read from a deal of the knowledge, not from the game: the set is public.
    let root_unplayed = ranked.know.sample(&mut Rng::new(0)).unplayed_troops();
    Some(Ismcts {
        know: ranked.know,
        config,
        tree,
        candidates,
        priors,
        nodes,
        reply_values,
        extra_rollouts: 0,
        partner_breaks: 0,
        reply_models,
        outlooks: Outlooks::default(),
        root_unplayed,
    })
}

impl Ismcts {
    /// Iteration `i`: a deal, a walk down the tree adding at most one node, a rollout,
    /// and the score counted on the path.
    fn iterate(&mut self, seed: u64, i: usize) {
        // The root: every candidate is available.
        let children = self.nodes[0].children.clone();
        for &c in &children {
            self.nodes[c].available += 1;
        }
        let pick = self.select(&children);
        self.descend(pick, deal_rng(seed, i));
    }

    /// Hard's sequential halving over the root's candidates: in each round every
    /// candidate still in the running is walked down its subtree in the round's deals
    /// (the same deals for all of them), then the better half by mean score is kept
    /// (equal means: the better ranked). Returns the last one's first command.
    fn halve(&mut self, seed: u64) -> Option<Command> {
        let mut alive: Vec<usize> = self.nodes[0].children.clone();
        let mut rounds_left = (usize::BITS - (alive.len() - 1).leading_zeros()) as usize;
        let mut deal_base = 0;
        while alive.len() > 1 && rounds_left > 0 {
            let per = (self.config.rollouts / rounds_left / alive.len()).max(1);
            let last_two = rounds_left == 1
                && alive.len() == 2
                && (self.tree.close_extra > 0 || self.tree.close_partner);
            // The paired differences of the last two candidates' scores, deal by deal.
            let mut diffs: Vec<f64> = Vec::new();
            for d in 0..per {
                let mut scores = [0.0; 2];
                for (k, &c) in alive.iter().enumerate() {
                    self.nodes[c].available += 1;
                    let v = self.descend(c, deal_rng(seed, deal_base + d));
                    if let Some(slot) = scores.get_mut(k) {
                        *slot = v;
                    }
                }
                if last_two {
                    diffs.push(scores[0] - scores[1]);
                }
            }
            let close = last_two && within_noise(&diffs);
            if close && self.tree.close_extra > 0 {
                let extra = (per * self.tree.close_extra / 100).max(1);
                self.extra_rollouts += extra * alive.len();
                for d in 0..extra {
                    for &c in &alive {
                        self.nodes[c].available += 1;
                        self.descend(c, deal_rng(seed, deal_base + per + d));
                    }
                }
                deal_base += extra;
            }
            if close && self.tree.close_partner {
                self.partner_breaks += 1;
                return self.partner_choice(&alive, seed);
            }
            let nodes = &self.nodes;
            alive.sort_by(|&a, &b| nodes[b].mean().total_cmp(&nodes[a].mean()));
            rounds_left -= 1;
            let keep = if rounds_left == 0 {
                1
            } else {
                alive.len().div_ceil(2)
            };
            alive.truncate(keep);
            deal_base += per;
        }
        alive
            .first()
            .and_then(|&c| self.candidates[c - 1].first().copied())
    }

    /// Of the root children `alive`, the first command of the one the sparring
    /// partner's valuation rates highest from the seat's knowledge (in the deal of the
    /// search's seed, as the ranking's; equal values, or a candidate it does not list:
    /// the better mean).
    fn partner_choice(&self, alive: &[usize], seed: u64) -> Option<Command> {
        let world = self.know.sample(&mut Rng::new(seed));
        let valued = super::Sparring::new().rank(&self.know, &world);
        let value = |c: usize| {
            valued
                .iter()
                .find(|(_, commands)| *commands == self.candidates[c - 1])
                .map_or(f64::NEG_INFINITY, |(v, _)| *v)
        };
        let nodes = &self.nodes;
        let best = alive.iter().copied().max_by(|&a, &b| {
            value(a)
                .total_cmp(&value(b))
                .then(nodes[a].mean().total_cmp(&nodes[b].mean()))
        })?;
        self.candidates[best - 1].first().copied()
    }

    /// One iteration through root child `pick` in the deal `rng` draws first: a walk
    /// down its subtree adding at most one node, a rollout, and the score counted on the
    /// path (returned: the searching player's).
    fn descend(&mut self, pick: usize, mut rng: Rng) -> f64 {
        let me = self.know.me;
        let mut game = self.know.sample(&mut rng);
        let mut path = vec![0, pick];
        let applied = self.candidates[pick - 1]
            .iter()
            .all(|&cmd| game.apply(cmd).is_ok());
        if !applied {
            let prior = self.priors[pick - 1];
            self.back_up(&path, prior);
            return prior;
        }
        // A candidate's first visit is its expansion.
        let mut expanded = self.nodes[pick].visits == 0;
        let mut ended = 0;
        let mut depth = 0;
        while !expanded && depth < self.tree.plies {
            let Some(plays) = self.advance(&mut game, &mut rng, &mut ended) else {
                break;
            };
            let mover = game.current();
            let plays = if depth == 0 && mover != me && self.tree.reply_valuations > 0 {
                self.valued_replies(pick, &game)
            } else if depth == 0 && mover != me && self.tree.reply_model.is_some() {
                self.modelled_replies(pick, &game)
            } else {
                plays
            };
            let node = path[path.len() - 1];
            let mut available = Vec::with_capacity(plays.len());
            let mut untried = None;
            for &play in &plays {
                let found = self.nodes[node]
                    .children
                    .iter()
                    .copied()
                    .find(|&c| self.nodes[c].mover == mover && self.nodes[c].command == play);
                match found {
                    Some(c) => {
                        self.nodes[c].available += 1;
                        available.push(c);
                    }
                    None => untried = untried.or(Some(play)),
                }
            }
            let child = match untried {
                Some(play) => {
                    let mut fresh = Node::new(mover, play);
                    fresh.available = 1;
                    self.nodes.push(fresh);
                    let id = self.nodes.len() - 1;
                    self.nodes[node].children.push(id);
                    expanded = true;
                    id
                }
                None => self.select(&available),
            };
            path.push(child);
            depth += 1;
            if game.apply(self.nodes[child].command).is_err() {
                // Never expected: the plays are the policy's legal ones in this deal.
                break;
            }
        }
        // The rest as hard's rollouts: the root move's turn, then `depth` more turns.
        let turns = (self.config.depth + 1).saturating_sub(ended);
        self.config.playout.run(&mut game, turns, &mut rng);
        let v = cut_score(&self.config, &game, me);
        self.back_up(&path, v);
        v
    }

    /// The plays of the first reply node below root child `pick` in `game` (the other
    /// player to move): the policy's plays ordered by the partner's valuation learned
    /// at that node (learning from this deal first while it has seen fewer than
    /// `Tree::reply_valuations`), the best `Tree::breadth` kept.
    fn valued_replies(&mut self, pick: usize, game: &Game) -> Vec<Command> {
        let Some(cache) = self.reply_values.get_mut(pick - 1) else {
            return self.config.playout.best_plays(game, self.tree.breadth);
        };
        if cache.learned < self.tree.reply_valuations {
            cache.learn(game);
        }
        let plays = self.config.playout.best_plays(game, usize::MAX);
        let mut order = cache.order(&plays);
        order.truncate(self.tree.breadth);
        order
    }

    /// The plays of the first reply node below root child `pick` in `game` (the other
    /// player to move) ordered by the reply model tabled for that candidate (built
    /// here in the first deal that reaches it), the best `Tree::breadth` kept.
    fn modelled_replies(&mut self, pick: usize, game: &Game) -> Vec<Command> {
        let plays = self.config.playout.best_plays(game, usize::MAX);
        let hand = self.tree.reply_model == Some(true);
        if self.reply_models[pick - 1].is_none() {
            let unplayed = self.root_unplayed;
            let model = ReplyModel::of_pool(game, self.know.unseen(), unplayed, &mut self.outlooks);
            self.reply_models[pick - 1] = Some(model);
        }
        let Some(model) = &self.reply_models[pick - 1] else {
            return plays;
        };
        let mut order = if hand {
            model.order_in(game, &plays)
        } else {
            model.order(&plays)
        };
        order.truncate(self.tree.breadth);
        order
    }

    /// Counts score `v` (the searching player's) on every node of `path`, from the seat
    /// of the player who made its move.
    fn back_up(&mut self, path: &[usize], v: f64) {
        let me = self.know.me;
        for &n in path {
            let node = &mut self.nodes[n];
            node.visits += 1;
            node.total += if node.mover == me { v } else { 1.0 - v };
        }
    }

    /// The child to walk to among `children` (all available in this deal): one never
    /// visited first (in their order), otherwise the highest mean plus the exploration
    /// term over its availability count; ties go to the earlier one.
    fn select(&self, children: &[usize]) -> usize {
        let mut best: Option<(f64, usize)> = None;
        for &c in children {
            let node = &self.nodes[c];
            if node.visits == 0 {
                return c;
            }
            let n = f64::from(node.visits);
            let a = f64::from(node.available.max(1));
            let u = node.mean() + self.tree.exploration * (a.ln() / n).sqrt();
            if best.is_none_or(|(b, _)| u > b) {
                best = Some((u, c));
            }
        }
        best.map_or(children[0], |(_, c)| c)
    }

    /// Plays the policy's steps up to the next play of the tree: returns the player to
    /// move's best few plays by the policy there, or `None` when the game ended, both
    /// players passed in a row, or no such play came within [`MAX_STEPS`] commands.
    /// `ended` counts the turns that ended on the way.
    fn advance(&self, game: &mut Game, rng: &mut Rng, ended: &mut usize) -> Option<Vec<Command>> {
        let playout = &self.config.playout;
        let mut passes = 0;
        for _ in 0..MAX_STEPS {
            if game.is_over() || passes >= 2 {
                return None;
            }
            if game.phase() == Phase::Play {
                let plays = playout.best_plays(game, self.tree.breadth);
                if !plays.is_empty() {
                    return Some(plays);
                }
            }
            let who = game.current();
            let cmd = playout.command(game, rng)?;
            passes = match cmd {
                Command::Pass => passes + 1,
                Command::EndTurn => passes,
                _ => 0,
            };
            if game.apply(cmd).is_err() {
                return None;
            }
            if game.current() != who {
                *ended += 1;
            }
        }
        None
    }

    /// The root's most visited candidate (ties: the better mean, then the better ranked).
    fn best(&self) -> Option<Command> {
        let root = &self.nodes[0];
        let mut best: Option<usize> = None;
        for &c in &root.children {
            let better = best.is_none_or(|b| {
                let (n, m) = (&self.nodes[c], &self.nodes[b]);
                n.visits > m.visits || (n.visits == m.visits && n.mean() > m.mean())
            });
            if better {
                best = Some(c);
            }
        }
        best.and_then(|c| self.candidates[c - 1].first().copied())
    }
}

/// Where the sparring partner's real plays stand among the plays the tree considers:
/// the rollout policy's plays ranked by their worth without noise (`Playout::best_plays`
/// of the hard level's policy), from games of the partner against another player
/// ([`reply_ranks`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ReplyRanks {
    /// The partner's plays looked at: a card put on a flag or into the guile area, or a
    /// pass, where the policy would choose a play.
    pub plays: usize,
    /// `by_rank[r]`: plays that were the policy's `r + 1`-th best; the last entry counts
    /// those ranked lower still.
    pub by_rank: [usize; REPLY_RANKS],
    /// Plays the policy never makes there (Fog, Mud, Scout, Redeploy; a guile or morale
    /// card it turns down; a pass): no node of the tree can hold them.
    pub not_policy: usize,
    /// The policy's plays summed over those positions (their mean: how many there are
    /// to choose from).
    pub choices: usize,
    /// The same plays by their rank among the partner's legal moves as hard ranks its
    /// own candidates (the odds evaluation one ply deep, from the partner's seat; a guile
    /// card by its best resolution); the last entry counts those ranked lower still.
    pub by_odds_rank: [usize; REPLY_RANKS],
    /// Plays that ranking does not list (a position it decides at once).
    pub not_odds: usize,
    /// The same plays in deals the other seat samples (its knowledge and a random deal
    /// of what it cannot see, as its searches deal them), ranked by the partner's own
    /// valuation and by the policy there ([`SampledRanks`]).
    pub sampled: SampledRanks,
    /// The time the partner's valuation took over all those deals (the cost a tree
    /// would pay for it at a reply node, per position: this over `sampled.positions`).
    pub valuation_time: std::time::Duration,
    /// The time the tabled model (`ReplyModel::of`) took to build, once a position.
    pub model_time: std::time::Duration,
    /// The time it took to order the plays of all the sampled deals.
    pub model_order_time: std::time::Duration,
}

/// Where the partner's real play stands in deals of the hidden cards that the other
/// seat (the one that would search) samples: the partner's own valuation of its plays
/// (`partner_order`: `Sparring::rank` from the partner's seat in the deal, so on its
/// sampled hand), and the rollout policy's plays in the same deals. A real play whose
/// card the sampled hand does not hold is in neither list in that deal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SampledRanks {
    /// Deals looked at: the positions times the deals of each.
    pub deals: usize,
    /// Deals in which the real play could be made (the sampled hand holds its card).
    pub held: usize,
    /// `by_value[r]`: deals in which the real play was the valuation's `r + 1`-th best;
    /// the last entry counts those ranked lower still.
    pub by_value: [usize; REPLY_RANKS],
    /// The same by the rollout policy's rank (`Playout::best_plays`) in the same deals.
    pub by_policy: [usize; REPLY_RANKS],
    /// Positions looked at.
    pub positions: usize,
    /// `by_votes[r]`: positions at which the real play was the `r + 1`-th play by votes
    /// over the position's deals (a vote from each deal in whose best [`VOTE_BEST`] by
    /// the valuation the play stands; equal votes: the lower summed rank first); the last
    /// entry counts those ranked lower still or never voted for.
    pub by_votes: [usize; REPLY_RANKS],
    /// `by_real_value[r]`: positions at which the real play was the `r + 1`-th best by
    /// the valuation in the real deal (the partner's own view: its ceiling).
    pub by_real_value: [usize; REPLY_RANKS],
    /// `by_cached[j][r]`: deals in which the real play was the `r + 1`-th of the
    /// policy's plays ordered by the valuation learned in [`CACHE_DEALS`]`[j]` other
    /// deals (`ReplyValues`: what a tree pays for once per reply node).
    pub by_cached: [[usize; REPLY_RANKS]; CACHE_DEALS.len()],
    /// `by_model[r]`: deals in which the real play was the `r + 1`-th of the deal's plays
    /// ordered by the partner's worths tabled once for the position from its public
    /// parts (`ReplyModel`: what a tree can afford once per candidate).
    pub by_model: [usize; REPLY_RANKS],
    /// The same by the table alone, the deal's hand not looked at (`ReplyModel::order`).
    pub by_table: [usize; REPLY_RANKS],
}

/// The plays of a deal's valuation that get a vote in [`SampledRanks::by_votes`].
pub const VOTE_BEST: usize = 4;

impl SampledRanks {
    /// Deals in which the real play was among the valuation's best `n`.
    pub fn within_value(&self, n: usize) -> usize {
        best_of(&self.by_value, n)
    }

    /// Deals in which the real play was among the policy's best `n`.
    pub fn within_policy(&self, n: usize) -> usize {
        best_of(&self.by_policy, n)
    }

    /// Positions at which the real play was among the best `n` by votes.
    pub fn within_votes(&self, n: usize) -> usize {
        best_of(&self.by_votes, n)
    }

    /// Positions at which the real play was among the valuation's best `n` in the real
    /// deal.
    pub fn within_real_value(&self, n: usize) -> usize {
        best_of(&self.by_real_value, n)
    }

    /// Deals in which the real play was among the best `n` by the valuation learned in
    /// [`CACHE_DEALS`]`[j]` other deals (0 for a `j` out of range).
    pub fn within_cached(&self, j: usize, n: usize) -> usize {
        self.by_cached.get(j).map_or(0, |ranks| best_of(ranks, n))
    }

    /// Deals in which the real play was among the table's best `n`, the hand not looked at.
    pub fn within_table(&self, n: usize) -> usize {
        best_of(&self.by_table, n)
    }

    /// Deals in which the real play was among the tabled model's best `n`.
    pub fn within_model(&self, n: usize) -> usize {
        best_of(&self.by_model, n)
    }

    fn add(&mut self, other: &SampledRanks) {
        self.deals += other.deals;
        self.held += other.held;
        self.positions += other.positions;
        for r in 0..REPLY_RANKS {
            self.by_value[r] += other.by_value[r];
            self.by_policy[r] += other.by_policy[r];
            self.by_votes[r] += other.by_votes[r];
            self.by_real_value[r] += other.by_real_value[r];
            self.by_model[r] += other.by_model[r];
            self.by_table[r] += other.by_table[r];
            for j in 0..CACHE_DEALS.len() {
                self.by_cached[j][r] += other.by_cached[j][r];
            }
        }
    }
}

/// The plays of the player to move in `world` (a whole deal) valued by the sparring
/// partner from that player's seat (`Sparring::rank`, reading only what that seat may
/// know of `world`): each first command once, at its best value, best first (equal
/// values in the order the valuation lists them). Empty outside the plays.
fn partner_values(world: &Game) -> Vec<(Command, f64)> {
    if world.is_over() {
        return Vec::new();
    }
    let know = Knowledge::of(world, world.current());
    let mut ranked = super::Sparring::new().rank(&know, world);
    // Stable: equal values keep the valuation's order.
    ranked.sort_by(|a, b| b.0.total_cmp(&a.0));
    let mut firsts: Vec<(Command, f64)> = Vec::with_capacity(ranked.len());
    for (v, commands) in ranked {
        if let Some(&first) = commands.first()
            && !firsts.iter().any(|(c, _)| *c == first)
        {
            firsts.push((first, v));
        }
    }
    firsts
}

/// [`partner_values`]' plays, best first.
pub(crate) fn partner_order(world: &Game) -> Vec<Command> {
    partner_values(world).into_iter().map(|(c, _)| c).collect()
}

/// The partner's valuation of the other player's plays at one reply node, learned in a
/// few deals (each costs a valuation of about 5 ms) and merged: each play keeps its
/// mean shortfall from the best play of the deals it was valued in (a play can only be
/// valued in a deal whose hand holds its card).
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct ReplyValues {
    /// Deals learned from.
    learned: usize,
    /// Each play valued: its summed shortfall and the deals it was valued in.
    values: Vec<(Command, f64, u32)>,
}

impl ReplyValues {
    /// Values the plays of the player to move in `world` and merges them in.
    fn learn(&mut self, world: &Game) {
        self.learned += 1;
        let valued = partner_values(world);
        let Some(&(_, best)) = valued.first() else {
            return;
        };
        for (play, v) in valued {
            let short = v - best;
            match self.values.iter_mut().find(|(c, ..)| *c == play) {
                Some(entry) => {
                    entry.1 += short;
                    entry.2 += 1;
                }
                None => self.values.push((play, short, 1)),
            }
        }
    }

    /// `plays` ordered by their merged value: the valued ones first, best first (equal
    /// values in `plays`' order), then the others in `plays`' order.
    fn order(&self, plays: &[Command]) -> Vec<Command> {
        let mut valued: Vec<(f64, Command)> = Vec::new();
        let mut rest: Vec<Command> = Vec::new();
        for &play in plays {
            match self.values.iter().find(|(c, ..)| *c == play) {
                Some(&(_, sum, n)) => valued.push((sum / f64::from(n.max(1)), play)),
                None => rest.push(play),
            }
        }
        valued.sort_by(|a, b| b.0.total_cmp(&a.0));
        valued.into_iter().map(|(_, c)| c).chain(rest).collect()
    }
}

/// The numbers of learning deals [`SampledRanks::by_cached`] tries.
pub const CACHE_DEALS: [usize; 2] = [1, 2];

/// [`SampledRanks`] of one position: the partner's real play `cmd` in `game` (the
/// partner to move) ranked in `deals` deals that the other seat samples from its
/// knowledge (seeded by `seed`), by [`partner_order`] and by `playout`'s best plays;
/// and by votes over those deals, and by the valuation in the real deal. Also returns
/// the time the valuation took in the sampled deals.
fn sampled_ranks(
    game: &Game,
    cmd: Command,
    deals: usize,
    seed: u64,
    playout: &super::playout::Playout,
    clock: super::Clock,
) -> (SampledRanks, [std::time::Duration; 3]) {
    let mut spent = std::time::Duration::ZERO;
    let mut ordering = std::time::Duration::ZERO;
    let searcher = game.current().opponent();
    let know = Knowledge::of(game, searcher);
    let mut r = SampledRanks {
        positions: 1,
        ..SampledRanks::default()
    };
    let rank_of = |order: &[Command]| order.iter().position(|&c| c == cmd);
    // The caches learn in deals of their own, after the deals ranked.
    let caches: Vec<ReplyValues> = CACHE_DEALS
        .iter()
        .map(|&k| {
            let mut cache = ReplyValues::default();
            for d in 0..k {
                cache.learn(&know.sample(&mut deal_rng(seed, deals + d)));
            }
            cache
        })
        .collect();
    // The tabled model, from the first deal's public parts, for the troops the searcher
    // does not see.
    let start = clock();
    let model = (deals > 0).then(|| {
        let first = know.sample(&mut deal_rng(seed, 0));
        ReplyModel::of(&first, know.unseen(), &mut Outlooks::default())
    });
    let built = start.elapsed();
    // (play, votes, summed rank)
    let mut votes: Vec<(Command, usize, usize)> = Vec::new();
    for d in 0..deals {
        let world = know.sample(&mut deal_rng(seed, d));
        if let Some(model) = &model {
            let plays = plays_of(&world);
            let start = clock();
            let order = model.order_in(&world, &plays);
            ordering += start.elapsed();
            if let Some(i) = rank_of(&model.order(&plays)) {
                count_rank(&mut r.by_table, i);
            }
            if let Some(i) = rank_of(&order) {
                count_rank(&mut r.by_model, i);
            }
        }
        r.deals += 1;
        if world.legal_commands().contains(&cmd) {
            r.held += 1;
        }
        let start = clock();
        let order = partner_order(&world);
        spent += start.elapsed();
        if let Some(i) = rank_of(&order) {
            count_rank(&mut r.by_value, i);
        }
        let plays = playout.best_plays(&world, usize::MAX);
        if let Some(i) = rank_of(&plays) {
            count_rank(&mut r.by_policy, i);
        }
        for (j, cache) in caches.iter().enumerate() {
            if let Some(i) = rank_of(&cache.order(&plays)) {
                count_rank(&mut r.by_cached[j], i);
            }
        }
        for (i, &play) in order.iter().take(VOTE_BEST).enumerate() {
            match votes.iter_mut().find(|(c, ..)| *c == play) {
                Some(v) => {
                    v.1 += 1;
                    v.2 += i;
                }
                None => votes.push((play, 1, i)),
            }
        }
    }
    votes.sort_by(|a, b| b.1.cmp(&a.1).then(a.2.cmp(&b.2)));
    let voted = votes.iter().position(|(c, ..)| *c == cmd);
    count_rank(&mut r.by_votes, voted.unwrap_or(REPLY_RANKS));
    let real = rank_of(&partner_order(game));
    count_rank(&mut r.by_real_value, real.unwrap_or(REPLY_RANKS));
    (r, [spent, built, ordering])
}

/// Ranks [`ReplyRanks::by_rank`] tells apart (the last: this one or lower).
pub const REPLY_RANKS: usize = 9;

/// How many of the counts by rank `ranks` fall within the best `n` (all of them from
/// [`REPLY_RANKS`] on).
fn best_of(ranks: &[usize; REPLY_RANKS], n: usize) -> usize {
    ranks[..n.min(REPLY_RANKS)].iter().sum()
}

/// Counts one play ranked `rank` (from 0) in `ranks`: the last entry takes every rank
/// from [`REPLY_RANKS`]` - 1` on.
fn count_rank(ranks: &mut [usize; REPLY_RANKS], rank: usize) {
    ranks[rank.min(REPLY_RANKS - 1)] += 1;
}

impl ReplyRanks {
    /// The plays that were among the policy's best `n` (with `n` of [`REPLY_RANKS`] or
    /// more: every play the policy makes).
    pub fn within(&self, n: usize) -> usize {
        best_of(&self.by_rank, n)
    }

    /// The same among the odds ranking's best `n`.
    pub fn within_odds(&self, n: usize) -> usize {
        best_of(&self.by_odds_rank, n)
    }
}

/// [`ReplyRanks`] over games from seeds `seeds` between the sparring partner and
/// `other`, the partner in each seat in turn, as the harness plays them: at every
/// command of the partner in the play phase where the policy would choose a play (no
/// claim first), the partner's command is looked up among the policy's plays for the
/// partner in the real position (its real hand: the deal of a tree search that happens
/// to match it, the best case for the tree). With `deals` above 0, the same plays are
/// also ranked in that many deals the other seat samples ([`ReplyRanks::sampled`]). A
/// check only: it reads the partner's hand.
pub fn reply_ranks(
    seeds: std::ops::Range<u64>,
    other: super::Contender,
    deals: usize,
    clock: super::Clock,
) -> ReplyRanks {
    let hard = crate::bot::hard_8_900();
    let playout = hard.playout;
    let every = Config {
        width: usize::MAX,
        ..hard
    };
    let mut r = ReplyRanks::default();
    for seed in seeds {
        for partner in Player::BOTH {
            let mut seats = [other; 2];
            seats[partner.index()] = super::Contender::Sparring;
            super::play_watched(seed, seats, 3000, |game, seat, cmd| {
                if seat != partner || matches!(cmd, Command::ClaimFlag { .. }) {
                    return;
                }
                let plays = playout.best_plays(game, usize::MAX);
                if plays.is_empty() {
                    return;
                }
                r.plays += 1;
                r.choices += plays.len();
                match plays.iter().position(|&p| p == cmd) {
                    Some(i) => count_rank(&mut r.by_rank, i),
                    None => r.not_policy += 1,
                }
                match odds_rank(game, seed, every, cmd) {
                    Some(i) => count_rank(&mut r.by_odds_rank, i),
                    None => r.not_odds += 1,
                }
                if deals > 0 {
                    let deal_seed = super::move_seed(seed ^ 0x0DEA_15EE, game.log().len());
                    let (s, [spent, built, ordering]) =
                        sampled_ranks(game, cmd, deals, deal_seed, &playout, clock);
                    r.valuation_time += spent;
                    r.model_time += built;
                    r.model_order_time += ordering;
                    r.sampled.add(&s);
                }
            });
        }
    }
    r
}

/// Where `cmd` stands among the moves of the player to move in `game` as the search
/// with `config` ranks them (each first command once, at its best rank); `None` when
/// the search decides at once or does not list it.
fn odds_rank(game: &Game, seed: u64, config: Config, cmd: Command) -> Option<usize> {
    let Progress::Searching(search) = Search::start(game, seed, config) else {
        return None;
    };
    let mut firsts: Vec<Command> = Vec::new();
    for (commands, _) in search.into_ranked().candidates {
        if let Some(&first) = commands.first()
            && !firsts.contains(&first)
        {
            firsts.push(first);
        }
    }
    firsts.iter().position(|&c| c == cmd)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::{Bot, Level};
    use crate::game::Settings;

    /// Positions with a card to play, from a game of the easy bot against itself.
    fn positions(seed: u64, count: usize) -> Vec<Game> {
        let mut game = Game::new(seed, Settings::default());
        let mut bot = Bot::new(seed);
        let mut found = Vec::new();
        for ply in 0..400 {
            if found.len() == count || game.is_over() {
                break;
            }
            if ply % 9 == 4 && game.phase() == Phase::Play {
                found.push(game.clone());
            }
            let cmd = bot.choose(&game).expect("a move");
            game.apply(cmd).expect("legal");
        }
        found
    }

    fn small_tree(plies: usize, halving: bool) -> Tree {
        Tree {
            iterations: 120,
            plies,
            breadth: 3,
            exploration: 0.25,
            halving,
            reply_valuations: 0,
            close_extra: 0,
            close_partner: false,
            reply_model: None,
        }
    }

    /// A search of `game` grown by `tree`'s iterations, or by sequential halving over
    /// `rollouts` (per round) with `halving`, and the move it chose.
    fn grown(
        game: &Game,
        config: Config,
        tree: Tree,
        seed: u64,
    ) -> Option<(Ismcts, Option<Command>)> {
        let mut search = start(game, config, tree, seed)?;
        let best = if tree.halving {
            search.halve(seed)
        } else {
            for it in 0..tree.iterations {
                search.iterate(seed, it);
            }
            search.best()
        };
        Some((search, best))
    }

    /// Hard's search with a shorter halving schedule: these tests run in unoptimized
    /// builds too.
    fn short_hard() -> Config {
        Config {
            rollouts: 120,
            ..crate::bot::hard_8_900()
        }
    }

    #[test]
    fn the_trees_counts_add_up_and_stay_within_its_plies() {
        let config = short_hard();
        let mut searched = 0;
        for (i, game) in positions(41, 4).into_iter().enumerate() {
            for (plies, halving) in [(1, false), (2, false), (2, true)] {
                let tree = small_tree(plies, halving);
                let seed = 70 + i as u64;
                let Some((search, best)) = grown(&game, config, tree, seed) else {
                    continue;
                };
                searched += 1;
                let nodes = &search.nodes;
                let root_visits: u32 = nodes[0].children.iter().map(|&c| nodes[c].visits).sum();
                assert_eq!(nodes[0].visits, root_visits, "one candidate an iteration");
                if !halving {
                    assert_eq!(nodes[0].visits as usize, tree.iterations);
                }
                // One node added per iteration at most (the root's candidates exist
                // from the start).
                let iterations = nodes[0].visits as usize;
                assert!(nodes.len() <= 1 + search.candidates.len() + iterations);
                let mut below_root = false;
                let mut stack: Vec<(usize, usize)> = vec![(0, 0)];
                while let Some((n, depth)) = stack.pop() {
                    let node = &nodes[n];
                    assert!(depth <= plies + 1, "depth {depth} over {plies} plies");
                    // Scores are chances (the evaluation's may pass 0 or 1 by a rounding).
                    let within = -1e-9..=f64::from(node.visits) + 1e-9;
                    assert!(
                        within.contains(&node.total),
                        "node {n}: {} over {} visits ({plies}, {halving})",
                        node.total,
                        node.visits
                    );
                    let through: u32 = node.children.iter().map(|&c| nodes[c].visits).sum();
                    // Every visit but the one that added a node, or ended the walk,
                    // goes on to a child; never more than the node's own.
                    assert!(through <= node.visits, "node {n}");
                    for &c in &node.children {
                        assert!(nodes[c].available >= nodes[c].visits, "node {c}");
                        assert!(nodes[c].available <= node.visits, "node {c}");
                        if depth >= 1 {
                            below_root = true;
                        }
                        stack.push((c, depth + 1));
                    }
                }
                assert!(below_root, "the other player's replies are in the tree");
                // Each candidate is tried: every root child at least once.
                assert!(nodes[0].children.iter().all(|&c| nodes[c].visits > 0));
                let best = best.expect("a move");
                assert!(game.legal_commands().contains(&best));
                if halving {
                    // The survivor has the most visits: it was in every round.
                    let most = nodes[0].children.iter().map(|&c| nodes[c].visits).max();
                    let survivor = nodes[0]
                        .children
                        .iter()
                        .copied()
                        .filter(|&c| Some(nodes[c].visits) == most)
                        .any(|c| search.candidates[c - 1].first() == Some(&best));
                    assert!(survivor, "{best:?}");
                }
            }
        }
        assert!(searched >= 8, "only {searched} searches");
    }

    #[test]
    fn the_paired_noise_test_asks_for_more_only_within_one_standard_error() {
        assert!(!within_noise(&[]));
        assert!(!within_noise(&[0.1]));
        // Mean 0.1, standard error 0.1 / sqrt(4) = 0.05: apart.
        assert!(!within_noise(&[0.2, 0.0, 0.2, 0.0]));
        // Mean 0.025, standard error about 0.16: within.
        assert!(within_noise(&[0.4, -0.3, 0.3, -0.3]));
        // No spread at all: nothing more to learn.
        assert!(!within_noise(&[0.0, 0.0, 0.0]));
    }

    #[test]
    fn the_halving_root_without_plies_plays_hards_moves_and_extra_rollouts_only_when_close() {
        let hard = short_hard();
        let mut extra = 0;
        let mut searched = 0;
        for (i, game) in positions(45, 6).into_iter().enumerate() {
            let seed = 90 + i as u64;
            let plain = Tree {
                close_extra: 0,
                close_partner: false,
                ..small_tree(0, true)
            };
            let hard_move = super::super::contenders::choose_with(&game, hard, seed);
            assert_eq!(choose(&game, seed, hard, plain), hard_move, "position {i}");
            let close = Tree {
                close_extra: 100,
                ..plain
            };
            let Some((search, best)) = grown(&game, hard, close, seed) else {
                continue;
            };
            searched += 1;
            assert!(game.legal_commands().contains(&best.expect("a move")));
            let Some((base, _)) = grown(&game, hard, plain, seed) else {
                panic!("position {i}: searched once, not twice");
            };
            let visits = |s: &Ismcts| s.nodes[0].visits as usize;
            assert_eq!(base.extra_rollouts, 0);
            assert_eq!(visits(&search), visits(&base) + search.extra_rollouts);
            if search.extra_rollouts == 0 {
                assert_eq!(best, hard_move, "position {i}: nothing added, hard's move");
            }
            extra += usize::from(search.extra_rollouts > 0);
        }
        assert!(searched >= 3, "only {searched} searches");
        assert!(extra >= 1, "no close choice in {searched} searches");
    }

    #[test]
    fn a_close_last_choice_goes_to_the_partners_valuation_and_any_other_is_hards() {
        let hard = short_hard();
        let plain = small_tree(0, true);
        let partner = Tree {
            close_partner: true,
            ..plain
        };
        let (mut searched, mut broken) = (0, 0);
        for (i, game) in positions(45, 6).into_iter().enumerate() {
            let seed = 90 + i as u64;
            let Some((search, best)) = grown(&game, hard, partner, seed) else {
                continue;
            };
            searched += 1;
            let best = best.expect("a move");
            assert!(game.legal_commands().contains(&best), "position {i}");
            let hard_move = super::super::contenders::choose_with(&game, hard, seed);
            if search.partner_breaks == 0 {
                assert_eq!(
                    Some(best),
                    hard_move,
                    "position {i}: not close, hard's move"
                );
                continue;
            }
            broken += 1;
            // The two left were the two best by mean after the last round; the move is
            // the one of them the partner values higher.
            let world = search.know.sample(&mut Rng::new(seed));
            let valued = super::super::Sparring::new().rank(&search.know, &world);
            let mut root: Vec<usize> = search.nodes[0].children.clone();
            root.sort_by(|&a, &b| search.nodes[b].visits.cmp(&search.nodes[a].visits));
            let value = |c: usize| {
                valued
                    .iter()
                    .find(|(_, commands)| *commands == search.candidates[c - 1])
                    .map_or(f64::NEG_INFINITY, |(v, _)| *v)
            };
            let (a, b) = (root[0], root[1]);
            let preferred = if value(b) > value(a) { b } else { a };
            if value(a) != value(b) {
                assert_eq!(
                    search.candidates[preferred - 1].first().copied(),
                    Some(best),
                    "position {i}"
                );
            }
        }
        assert!(searched >= 3, "only {searched} searches");
        assert!(broken >= 1, "no close choice in {searched} searches");
    }

    #[test]
    fn valued_reply_nodes_learn_once_per_deal_up_to_their_count_and_keep_the_trees_counts() {
        let config = short_hard();
        let mut searched = 0;
        let mut learned_twice = false;
        for (i, game) in positions(44, 3).into_iter().enumerate() {
            let tree = Tree {
                reply_valuations: 2,
                ..small_tree(2, true)
            };
            let seed = 80 + i as u64;
            let Some((search, best)) = grown(&game, config, tree, seed) else {
                continue;
            };
            searched += 1;
            assert!(game.legal_commands().contains(&best.expect("a move")));
            let me = search.know.me;
            for (c, values) in search.reply_values.iter().enumerate() {
                let node = &search.nodes[c + 1];
                // Each candidate walked past its move learned from at most 2 deals, and
                // from as many as walked on to its reply (its first visit expands it).
                assert!(values.learned <= 2, "candidate {c}: {}", values.learned);
                let replies: u32 = node.children.iter().map(|&n| search.nodes[n].visits).sum();
                assert!(values.learned as u32 <= replies.min(2), "candidate {c}");
                learned_twice |= values.learned == 2;
                // Its reply nodes are the other player's, at most `breadth` of them per
                // deal (more over several deals).
                for &n in &node.children {
                    assert_ne!(search.nodes[n].mover, me);
                }
            }
            assert_eq!(
                grown(&game, config, tree, seed).map(|(s, b)| (s.nodes, b)),
                Some((search.nodes.clone(), best)),
                "the same tree again from the seed"
            );
        }
        assert!(searched >= 2, "only {searched} searches");
        assert!(learned_twice, "some reply node learned from its 2 deals");
    }

    #[test]
    fn the_same_position_and_seed_give_the_same_tree() {
        let config = short_hard();
        let game = &positions(42, 2)[1];
        for halving in [false, true] {
            let tree = small_tree(2, halving);
            let grow = |seed: u64| {
                grown(game, config, tree, seed)
                    .map(|(search, best)| (search.nodes, best))
                    .expect("a search")
            };
            assert_eq!(grow(5), grow(5));
            assert_ne!(grow(5).0, grow(6).0, "the seed changes the deals");
        }
    }

    #[test]
    fn the_partners_plays_are_counted_once_each_by_their_rank_among_the_policys() {
        let easy = crate::bot::Contender::Level(Level::Easy);
        let r = reply_ranks(0..1, easy, 2, std::time::Instant::now);
        assert!(r.plays > 20, "two whole games of plays: {r:?}");
        assert_eq!(r.within(REPLY_RANKS) + r.not_policy, r.plays, "{r:?}");
        assert!(r.choices >= r.plays - r.not_policy, "{r:?}");
        assert!(r.within(1) > 0 && r.within(1) <= r.within(4), "{r:?}");
        assert_eq!(r.within_odds(REPLY_RANKS) + r.not_odds, r.plays, "{r:?}");
        assert!(r.within_odds(1) > 0, "{r:?}");
        // Every play also ranked in two sampled deals, and once in the real one.
        let s = r.sampled;
        assert_eq!(s.positions, r.plays, "{s:?}");
        assert_eq!(s.deals, 2 * r.plays, "{s:?}");
        assert!(s.within_value(REPLY_RANKS) <= s.held, "{s:?}");
        assert!(s.within_policy(REPLY_RANKS) <= s.held, "{s:?}");
        assert_eq!(s.within_votes(REPLY_RANKS), s.positions, "{s:?}");
        assert_eq!(s.within_real_value(REPLY_RANKS), s.positions, "{s:?}");
        assert!(s.held > 0 && s.held < s.deals, "{s:?}");
        for j in 0..CACHE_DEALS.len() {
            assert!(s.within_cached(j, REPLY_RANKS) <= s.held, "{s:?}");
        }
        // The tabled model orders every play of a deal: the real one wherever it is held.
        assert_eq!(s.within_model(REPLY_RANKS), s.held, "{s:?}");
        assert_eq!(s.within_table(REPLY_RANKS), s.held, "{s:?}");
        let again = reply_ranks(0..1, easy, 2, std::time::Instant::now);
        let timeless = |r: ReplyRanks| ReplyRanks {
            valuation_time: std::time::Duration::ZERO,
            model_time: std::time::Duration::ZERO,
            model_order_time: std::time::Duration::ZERO,
            ..r
        };
        assert_eq!(timeless(r), timeless(again));
        // Without deals, nothing is sampled.
        let unsampled = reply_ranks(0..1, easy, 0, std::time::Instant::now);
        assert_eq!(unsampled.sampled, SampledRanks::default());
        assert_eq!(unsampled.plays, r.plays);
    }

    #[test]
    fn the_partners_valuation_in_its_own_position_puts_its_play_first() {
        let easy = crate::bot::Contender::Level(Level::Easy);
        let partner = crate::bot::Sparring::new();
        let mut looked = 0;
        crate::bot::play_watched(
            2,
            [crate::bot::Contender::Sparring, easy],
            3000,
            |game, seat, cmd| {
                if seat != Player::P0
                    || game.phase() != Phase::Play
                    || matches!(cmd, Command::ClaimFlag { .. })
                {
                    return;
                }
                looked += 1;
                let order = partner_order(game);
                assert_eq!(order.first(), Some(&cmd), "{:?}", partner.choose(game));
                // Each play once.
                for (i, c) in order.iter().enumerate() {
                    assert!(!order[..i].contains(c), "{c:?} twice");
                }
            },
        );
        assert!(looked > 10, "{looked} plays");
    }

    #[test]
    fn learned_reply_values_order_the_valued_plays_first_by_their_mean_shortfall() {
        let game = &positions(43, 3)[2];
        let me = game.current();
        let know = Knowledge::of(game, me.opponent());
        let hard = crate::bot::hard_8_900();
        let mut cache = ReplyValues::default();
        let first = know.sample(&mut deal_rng(3, 0));
        cache.learn(&first);
        assert_eq!(cache.learned, 1);
        // In the deal learned from, the policy's plays come in the valuation's order
        // (equal values in the policy's order), each valued by its shortfall from the
        // deal's best play.
        let plays = hard.playout.best_plays(&first, usize::MAX);
        let valued = partner_values(&first);
        let best = valued.first().map(|&(_, v)| v).expect("plays valued");
        let value = |c: &Command| {
            valued
                .iter()
                .find(|(v, _)| v == c)
                .map(|&(_, v)| v - best)
                .expect("every policy play is valued in its own deal")
        };
        let ordered = cache.order(&plays);
        assert_eq!(ordered.len(), plays.len(), "every play once");
        assert!(plays.iter().all(|c| ordered.contains(c)));
        for pair in ordered.windows(2) {
            let (a, b) = (value(&pair[0]), value(&pair[1]));
            assert!(a >= b, "{pair:?}: {a} then {b}");
            if a == b {
                let at = |c: &Command| plays.iter().position(|p| p == c);
                assert!(at(&pair[0]) < at(&pair[1]), "ties in the policy's order");
            }
        }
        for &(play, sum, n) in &cache.values {
            assert_eq!(n, 1);
            let v = valued.iter().find(|(c, _)| *c == play).map(|&(_, v)| v);
            assert_eq!(Some(sum), v.map(|v| v - best));
        }
        // Another deal: the plays valued before come first, the rest after in the
        // policy's order.
        let second = know.sample(&mut deal_rng(3, 1));
        let plays = hard.playout.best_plays(&second, usize::MAX);
        let ordered = cache.order(&plays);
        let valued = |c: &Command| cache.values.iter().any(|(v, ..)| v == c);
        let split = ordered
            .iter()
            .position(|c| !valued(c))
            .unwrap_or(ordered.len());
        assert!(ordered[split..].iter().all(|c| !valued(c)));
        let rest: Vec<Command> = plays.iter().copied().filter(|c| !valued(c)).collect();
        assert_eq!(ordered[split..], rest[..]);
        // Learning a second deal averages the shortfalls: never above 0, the best 0.
        cache.learn(&second);
        assert_eq!(cache.learned, 2);
        assert!(
            cache
                .values
                .iter()
                .all(|&(_, sum, n)| n >= 1 && sum <= 1e-12)
        );
        assert!(cache.values.iter().any(|&(_, sum, _)| sum.abs() < 1e-12));
    }

    #[test]
    fn sampled_deals_rank_a_play_only_where_its_card_is_held_and_the_same_way_from_a_seed() {
        let hard = crate::bot::hard_8_900();
        let mut looked = 0;
        crate::bot::play_watched(
            4,
            [
                crate::bot::Contender::Level(Level::Easy),
                crate::bot::Contender::Sparring,
            ],
            3000,
            |game, seat, cmd| {
                if seat != Player::P1 || game.phase() != Phase::Play || game.log().len() % 3 != 0 {
                    return;
                }
                looked += 1;
                let (r, _) = sampled_ranks(game, cmd, 6, 9, &hard.playout, std::time::Instant::now);
                assert_eq!((r.deals, r.positions), (6, 1));
                assert!(r.within_value(REPLY_RANKS) <= r.held, "{r:?}");
                assert!(r.within_policy(REPLY_RANKS) <= r.held, "{r:?}");
                assert_eq!(r.within_votes(REPLY_RANKS), 1);
                assert_eq!(r.within_real_value(REPLY_RANKS), 1);
                for j in 0..CACHE_DEALS.len() {
                    assert!(r.within_cached(j, REPLY_RANKS) <= r.held, "{r:?}");
                }
                // The tabled model orders every play of a deal (not a claim).
                let play = matches!(cmd, Command::PlayCard { .. } | Command::Pass);
                let expected = if play { r.held } else { 0 };
                assert_eq!(r.within_model(REPLY_RANKS), expected, "{r:?}");
                assert_eq!(r.within_table(REPLY_RANKS), expected, "{r:?}");
                assert_eq!(
                    r,
                    sampled_ranks(game, cmd, 6, 9, &hard.playout, std::time::Instant::now).0
                );
            },
        );
        assert!(looked > 5, "{looked} plays");
    }
}
