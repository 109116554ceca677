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
    Some(Ismcts {
        know: ranked.know,
        config,
        tree,
        candidates,
        priors,
        nodes,
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
            for d in 0..per {
                for &c in &alive {
                    self.nodes[c].available += 1;
                    self.descend(c, deal_rng(seed, deal_base + d));
                }
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

    /// One iteration through root child `pick` in the deal `rng` draws first: a walk
    /// down its subtree adding at most one node, a rollout, and the score counted on the
    /// path.
    fn descend(&mut self, pick: usize, mut rng: Rng) {
        let me = self.know.me;
        let mut game = self.know.sample(&mut rng);
        let mut path = vec![0, pick];
        let applied = self.candidates[pick - 1]
            .iter()
            .all(|&cmd| game.apply(cmd).is_ok());
        if !applied {
            let prior = self.priors[pick - 1];
            self.back_up(&path, prior);
            return;
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
}

/// Ranks [`ReplyRanks::by_rank`] tells apart (the last: this one or lower).
pub const REPLY_RANKS: usize = 9;

impl ReplyRanks {
    /// The plays that were among the policy's best `n` (with `n` of [`REPLY_RANKS`] or
    /// more: every play the policy makes).
    pub fn within(&self, n: usize) -> usize {
        self.by_rank[..n.min(REPLY_RANKS)].iter().sum()
    }

    /// The same among the odds ranking's best `n`.
    pub fn within_odds(&self, n: usize) -> usize {
        self.by_odds_rank[..n.min(REPLY_RANKS)].iter().sum()
    }
}

/// [`ReplyRanks`] over games from seeds `seeds` between the sparring partner and
/// `other`, the partner in each seat in turn, as the harness plays them: at every
/// command of the partner in the play phase where the policy would choose a play (no
/// claim first), the partner's command is looked up among the policy's plays for the
/// partner in the real position (its real hand: the deal of a tree search that happens
/// to match it, the best case for the tree). A check only: it reads the partner's hand.
pub fn reply_ranks(seeds: std::ops::Range<u64>, other: super::Contender) -> ReplyRanks {
    let hard = super::Level::Hard.config().expect("hard searches");
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
                    Some(i) => r.by_rank[i.min(REPLY_RANKS - 1)] += 1,
                    None => r.not_policy += 1,
                }
                match odds_rank(game, seed, every, cmd) {
                    Some(i) => r.by_odds_rank[i.min(REPLY_RANKS - 1)] += 1,
                    None => r.not_odds += 1,
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
            ..Level::Hard.config().expect("hard searches")
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
        let r = reply_ranks(0..1, crate::bot::Contender::Level(Level::Easy));
        assert!(r.plays > 20, "two whole games of plays: {r:?}");
        assert_eq!(r.within(REPLY_RANKS) + r.not_policy, r.plays, "{r:?}");
        assert!(r.choices >= r.plays - r.not_policy, "{r:?}");
        assert!(r.within(1) > 0 && r.within(1) <= r.within(4), "{r:?}");
        assert_eq!(r.within_odds(REPLY_RANKS) + r.not_odds, r.plays, "{r:?}");
        assert!(r.within_odds(1) > 0, "{r:?}");
        assert_eq!(
            r,
            reply_ranks(0..1, crate::bot::Contender::Level(Level::Easy))
        );
    }
}
