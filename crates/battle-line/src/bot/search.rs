//! Determinized search: candidate moves are tried in random deals of the hidden cards, played out by a fast policy, and compared by how often they win.
//!
//! The candidates are the legal moves ranked by a one-ply evaluation (a guile card
//! with each of its resolutions, the best three kept). Sequential halving spends the
//! rollouts: in each round every remaining candidate is tried in the same deals (so
//! the luck of a deal cancels out between them) and the worse half is dropped. A
//! rollout that stops before the game ends is scored by the evaluation. The work is a
//! fixed list of units (one ranking or one rollout each), done a few at a time by
//! [`Search::step`], so the result does not depend on how the work is sliced.

use super::eval::{Params, Seat, flag_weights, game_chance};
use super::knowledge::Knowledge;
use super::playout::Playout;
use crate::card::{Card, Tactic, TacticKind};
use crate::game::{Command, Deck, Game, Phase, Player, Target};
use seeded_rng::Rng;
use serde::{Deserialize, Serialize};

/// How hard one level searches.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Config {
    /// Candidates kept after the one-ply ranking (0: play the best-ranked one).
    pub width: usize,
    /// Rollouts over all candidates.
    pub rollouts: usize,
    /// Whole turns played after the bot's own turn before evaluating.
    pub depth: usize,
    pub params: Params,
    pub policy: Policy,
    pub playout: Playout,
    /// Which evaluation ranks the legal moves before the rollouts.
    pub ranking: Ranking,
    /// How a rollout that stops before the game ends is scored.
    pub cut: CutScore,
    /// Rollouts that choose the deck to draw from at the end of a turn, both decks
    /// tried in the same deals (0: the policy's rule decides, as in the rollouts).
    pub draw_rollouts: usize,
    /// How the other player's first play after the candidate is chosen in a rollout.
    pub replies: Replies,
    /// How the deals of the hidden cards are drawn: uniformly, by a model of the other
    /// hand, or (for measurement only) seeing cards no player can see.
    #[cfg(feature = "contenders")]
    pub deals: Deals,
}

/// How a contender's search deals the cards its seat cannot see (the levels always
/// deal them uniformly).
#[cfg(feature = "contenders")]
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Deals {
    /// Every unseen card alike.
    Uniform,
    /// The other hand's unknown troops weighted by the model of that hand
    /// (`hand_model.rs`) with this sharpness.
    Model(f64),
    /// The other hand as it really is, the decks' order unknown: what a perfect model
    /// of the other hand would deal, for measurement only.
    SeeHand,
    /// The game as it really is, every card known, for measurement only.
    SeeAll,
}

/// How a rollout chooses the other player's first play after the candidate (its reply,
/// in the rollout's deal of the hidden cards, drawn from the searching player's
/// knowledge): by the rollout policy as every other move, or among the policy's best
/// few plays (by their worth without noise) a stronger way.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Replies {
    /// The rollout policy's own choice.
    Policy,
    /// Each of the best `n` replies is played out in the same deal with the same random
    /// stream, and the candidate scores the lowest of those rollouts there: the other
    /// player answers with what is worst for the searching player.
    Worst(u8),
    /// Of the best `n` replies, the one the odds evaluation (`value`, from the other
    /// player's seat in the deal) rates highest for the other player, then one rollout.
    Odds(u8),
}

/// How a rollout cut before the end of the game (after `Config::depth` turns, or when
/// both players passed) is scored for the searching player: a chance of winning the
/// game from per-flag chances, combined over the 512 ways the nine flags can fall.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CutScore {
    /// The flags' chances of the odds evaluation (`eval.rs`), as the levels do.
    Odds,
    /// The sparring partner's flag chances (`Sparring::game_chance`).
    #[cfg(feature = "contenders")]
    Partner,
    /// The odds evaluation's flag chances, combined with the correction
    /// [`super::CUT_CALIBRATION`] fitted to games' results (`cut_calibration.rs`).
    #[cfg(feature = "contenders")]
    OddsCalibrated,
    /// The same with the correction fitted at the troop deck's size
    /// ([`super::CutCalibration::for_deck`]).
    #[cfg(feature = "contenders")]
    OddsCalibratedByDeck,
    /// The calibrated odds chance and the sparring partner's chance blended by weights
    /// fitted to games' results ([`super::CutBlend`]).
    #[cfg(feature = "contenders")]
    Blend,
}

/// The one-ply evaluation that picks a searching level's candidates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Ranking {
    /// The chance of winning the game from the flags' completion odds (`eval.rs`), one
    /// move per work unit.
    Odds,
    /// The sparring partner's weighted flags expected after the move
    /// ([`super::Sparring`]), every move in one work unit.
    #[cfg(feature = "contenders")]
    Partner,
}

/// The bot's small decisions (draws, Scout's steps) and what tactics cost when the
/// moves are ranked.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Policy {
    pub params: Params,
    /// What a morale tactic costs to play (it is gone for later flags).
    pub morale_cost: f64,
    /// Extra cost of a leader (only one per player).
    pub leader_cost: f64,
    /// What an environment or guile tactic costs to play.
    pub tactic_cost: f64,
    /// Value of playing Scout (a wider choice of cards).
    pub scout_value: f64,
    /// The chance of drawing a tactic at the end of a turn when the hand holds none and
    /// the player is not behind on tactics played (behind, it always draws one).
    pub tactic_draw: f64,
}

impl Default for Policy {
    fn default() -> Policy {
        Policy {
            params: Params::default(),
            morale_cost: 0.02,
            leader_cost: 0.02,
            tactic_cost: 0.02,
            scout_value: 0.01,
            tactic_draw: 0.3,
        }
    }
}

/// The evaluation of a position for `me`: its chance of winning the game.
pub(crate) fn value(game: &Game, me: Player, params: Params) -> f64 {
    match game.phase() {
        Phase::GameOver { winner, .. } => return f64::from(u8::from(winner == me)),
        Phase::Stalemate => return 0.5,
        _ => {}
    }
    game_chance(&Seat::new(game, me, params).flag_chances())
}

impl Policy {
    /// What playing `card` costs beyond its effect on the flags.
    fn cost(&self, card: Card) -> f64 {
        match card {
            Card::Troop(_) => 0.0,
            Card::Tactic(t) if t.is_leader() => self.morale_cost + self.leader_cost,
            Card::Tactic(t) if t.kind() == TacticKind::Morale => self.morale_cost,
            Card::Tactic(_) => self.tactic_cost,
        }
    }

    /// The command the policy picks for the current player.
    pub fn command(&self, game: &Game, rng: &mut Rng) -> Option<Command> {
        let legal = game.legal_commands();
        if let Some(claim) = super::claim_in(&legal) {
            return Some(claim);
        }
        let me = game.current();
        let choice = match game.phase() {
            Phase::ScoutDraw { .. } => Some(Command::ScoutDraw {
                deck: if game.troop_deck_len() > 0 {
                    Deck::Troop
                } else {
                    Deck::Tactic
                },
            }),
            Phase::ScoutReturn { .. } => self
                .least_useful(game, me)
                .map(|card| Command::ScoutReturn { card }),
            Phase::Finish { .. } => Some(self.draw_choice(game, me, rng)),
            // Plays and guile steps are searched, not decided here.
            Phase::Play | Phase::Guile { .. } | Phase::GameOver { .. } | Phase::Stalemate => None,
        };
        choice.filter(|c| legal.contains(c)).or_else(|| {
            legal
                .iter()
                .copied()
                .find(|c| !matches!(c, Command::SortHand { .. } | Command::MoveCard { .. }))
        })
    }

    /// The hand card worth least (for Scout's return): the troop whose best flag gains
    /// least; tactics are kept unless the tactic limit locks them.
    fn least_useful(&self, game: &Game, me: Player) -> Option<Card> {
        let seat = Seat::new(game, me, self.params);
        let base = seat.flag_chances();
        let weights = flag_weights(&base);
        let unplayed = game.unplayed_troops();
        let locked = game.tactics_played(me) > game.tactics_played(me.opponent());
        let open: Vec<usize> = (0..9).filter(|&i| game.flags()[i].open_for(me)).collect();
        let worth = |card: Card| -> f64 {
            match card {
                Card::Troop(_) => open
                    .iter()
                    .map(|&i| (seat.flag_chance_with(i, card, unplayed) - base[i]) * weights[i])
                    .fold(-1.0, f64::max),
                Card::Tactic(t) if locked => {
                    if t.kind() == TacticKind::Morale {
                        0.01
                    } else {
                        0.005
                    }
                }
                Card::Tactic(Tactic::Alexander | Tactic::Darius) => 0.2,
                Card::Tactic(_) => 0.05,
            }
        };
        let mut hand: Vec<Card> = game.hand(me).to_vec();
        hand.sort();
        hand.into_iter()
            .map(|c| (worth(c), c))
            .min_by(|a, b| a.0.total_cmp(&b.0))
            .map(|(_, c)| c)
    }

    /// Draw a troop, or a tactic when the hand holds none (a tactic in hand keeps the
    /// opponent's tactic limit from locking the game) and troops are plenty.
    fn draw_choice(&self, game: &Game, me: Player, rng: &mut Rng) -> Command {
        let Phase::Finish { may_draw: true } = game.phase() else {
            return Command::EndTurn;
        };
        let hand = game.hand(me);
        let tactics = hand.iter().filter(|c| c.tactic().is_some()).count();
        let behind = game.tactics_played(me) < game.tactics_played(me.opponent());
        let want_tactic = tactics == 0 && (behind || rng.chance(self.tactic_draw));
        let deck = match (game.troop_deck_len() > 0, game.tactic_deck_len() > 0) {
            (true, true) if want_tactic => Deck::Tactic,
            (true, _) => Deck::Troop,
            (false, true) => Deck::Tactic,
            (false, false) => return Command::EndTurn,
        };
        Command::DrawAndEndTurn { deck }
    }
}

/// The draws a search with `config` compares at `world`'s end of turn: from the troop
/// deck, then from the tactic deck, when both are open to the player (`None`
/// otherwise, and when the config leaves draws to the policy).
fn draw_candidates(world: &Game, legal: &[Command], config: &Config) -> Option<Vec<Command>> {
    if config.draw_rollouts == 0 || !matches!(world.phase(), Phase::Finish { may_draw: true }) {
        return None;
    }
    let draws: Vec<Command> = [Deck::Troop, Deck::Tactic]
        .into_iter()
        .map(|deck| Command::DrawAndEndTurn { deck })
        .filter(|c| legal.contains(c))
        .collect();
    (draws.len() == 2).then_some(draws)
}

/// The config a search of `world` runs with: at the end of a turn, the draw's rollouts
/// over its two candidates.
fn draw_config(world: &Game, config: Config) -> Config {
    if config.draw_rollouts > 0 && matches!(world.phase(), Phase::Finish { may_draw: true }) {
        Config {
            rollouts: config.draw_rollouts,
            width: 2,
            ..config
        }
    } else {
        config
    }
}

/// One candidate decision: the command, or a guile card and its resolution.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Candidate {
    commands: Vec<Command>,
    #[serde(with = "bits")]
    prior: f64,
    #[serde(with = "bits")]
    total: f64,
    tries: u32,
}

impl Candidate {
    /// A candidate not tried yet, valued at `prior` until it is.
    fn new(commands: Vec<Command>, prior: f64) -> Candidate {
        Candidate {
            commands,
            prior,
            total: 0.0,
            tries: 0,
        }
    }

    fn mean(&self) -> f64 {
        if self.tries == 0 {
            self.prior
        } else {
            self.total / f64::from(self.tries)
        }
    }
}

/// Floats travel as their bits, so a search resumed elsewhere compares exactly the same
/// numbers (a decimal round trip could move the last digit and change a close call).
mod bits {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(value: &f64, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u64(value.to_bits())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
        u64::deserialize(d).map(f64::from_bits)
    }
}

/// What a search has done so far, as plain data: with the position, the seed and the
/// level it was started with, [`Search::resume`] carries on exactly where it stopped.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct Run {
    /// Decisions still to rank, one unit of work each (a guile card first lists its
    /// resolutions as further decisions).
    unranked: Vec<Vec<Command>>,
    /// The first legal command, should no candidate survive.
    fallback: Option<Command>,
    candidates: Vec<Candidate>,
    /// Indices of the candidates still in the running, best first after each round.
    alive: Vec<usize>,
    /// Rollouts per candidate in the current round.
    per: usize,
    rounds_left: usize,
    /// Progress inside the round: deal index and candidate position.
    deal: usize,
    pos: usize,
    /// Deals used by earlier rounds (each round draws fresh ones).
    deal_base: usize,
    done: usize,
    total: usize,
}

impl Run {
    /// A run with nothing done yet: `unranked` decisions to rank, `candidates` already
    /// valued, `total` units of work planned so far.
    fn new(
        unranked: Vec<Vec<Command>>,
        fallback: Option<Command>,
        candidates: Vec<Candidate>,
        total: usize,
    ) -> Run {
        Run {
            unranked,
            fallback,
            candidates,
            alive: Vec::new(),
            per: 0,
            rounds_left: 0,
            deal: 0,
            pos: 0,
            deal_base: 0,
            done: 0,
            total,
        }
    }

    /// Work units done and planned.
    pub fn progress(&self) -> (usize, usize) {
        (self.done, self.total)
    }

    /// Rollouts left in the current round of the schedule (0 while moves are still
    /// being ranked, or once one candidate is left). Each depends only on its candidate
    /// and its deal, never on another's value, so they can be played apart (in other
    /// workers) and their values handed back in order ([`Search::absorb`]).
    pub fn round_left(&self) -> usize {
        let n = self.alive.len();
        if !self.unranked.is_empty() || n <= 1 {
            return 0;
        }
        (self.per * n).saturating_sub(self.deal * n + self.pos)
    }
}

/// A search in progress.
#[derive(Debug, Clone)]
pub(crate) struct Search {
    know: Knowledge,
    seed: u64,
    config: Config,
    /// A deal of the hidden cards used to rank the moves (only public parts and the
    /// unseen pool as a whole are read, which are the same in every deal).
    world: Game,
    run: Run,
}

/// What `me` knows of `game`, with the model of the other hand `config` asks for (only
/// the harness's contenders ask for one).
#[cfg_attr(not(feature = "contenders"), allow(unused_variables))]
fn knowledge(game: &Game, me: Player, config: &Config) -> Knowledge {
    let know = Knowledge::of(game, me);
    #[cfg(feature = "contenders")]
    return match config.deals {
        Deals::Uniform => know,
        Deals::Model(beta) => know.with_hand_model(game, beta),
        Deals::SeeHand => know.seeing(game, false),
        Deals::SeeAll => know.seeing(game, true),
    };
    #[cfg(not(feature = "contenders"))]
    know
}

/// A fresh stream for deal `i` of a search seeded with `seed`.
pub(crate) fn deal_rng(seed: u64, i: usize) -> Rng {
    Rng::new(seed ^ (i as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

/// A search's ranked candidates, handed over by [`Search::into_ranked`].
#[cfg(feature = "contenders")]
#[derive(Debug, Clone)]
pub(crate) struct Ranked {
    /// What the searching seat knows.
    pub know: Knowledge,
    /// The candidates kept, best-ranked first: their commands and ranking values.
    pub candidates: Vec<(Vec<Command>, f64)>,
    /// The first legal command, should no candidate be kept.
    pub fallback: Option<Command>,
}

/// The outcome of creating or advancing a search.
#[derive(Debug, Clone)]
pub(crate) enum Progress {
    Searching(Box<Search>),
    Decided(Option<Command>),
}

impl Search {
    /// Starts deciding `game`'s next command for the player to move. Small decisions
    /// (claims, draws, Scout's steps) are decided at once by the policy; the rest is
    /// left to [`Search::step`].
    pub fn start(game: &Game, seed: u64, config: Config) -> Progress {
        if game.is_over() {
            return Progress::Decided(None);
        }
        let me = game.current();
        let know = knowledge(game, me, &config);
        let mut rng = Rng::new(seed);
        let world = know.sample(&mut rng);
        let legal = world.legal_commands();
        if let Some(claim) = super::claim_in(&legal) {
            return Progress::Decided(Some(claim));
        }
        if let Some(draws) = draw_candidates(&world, &legal, &config) {
            let mut search = Box::new(Search {
                know,
                seed,
                config: draw_config(&world, config),
                world,
                run: Run::new(
                    Vec::new(),
                    draws.first().copied(),
                    draws
                        .iter()
                        .map(|&c| Candidate::new(vec![c], 0.0))
                        .collect(),
                    0,
                ),
            });
            search.plan();
            return Progress::Searching(search);
        }
        if !matches!(world.phase(), Phase::Play | Phase::Guile { .. }) {
            return Progress::Decided(config.policy.command(&world, &mut rng));
        }
        let listed: Vec<Command> = legal
            .into_iter()
            .filter(|c| !matches!(c, Command::SortHand { .. } | Command::MoveCard { .. }))
            .collect();
        if listed.len() <= 1 {
            return Progress::Decided(listed.first().copied());
        }
        let fallback = listed.first().copied();
        let mut unranked: Vec<Vec<Command>> = listed.into_iter().map(|c| vec![c]).collect();
        // Ranked from the end, so the listed order breaks ties.
        unranked.reverse();
        let total = unranked.len() + config.rollouts;
        let ranked = match config.ranking {
            Ranking::Odds => Vec::new(),
            #[cfg(feature = "contenders")]
            Ranking::Partner => super::Sparring::new().rank(&know, &world),
        };
        let mut search = Box::new(Search {
            know,
            seed,
            config,
            world,
            run: Run::new(unranked, fallback, Vec::new(), total),
        });
        if !ranked.is_empty() {
            let listed = search.run.unranked.len();
            search.run.unranked.clear();
            search.run.candidates = ranked
                .into_iter()
                .map(|(prior, commands)| Candidate::new(commands, prior))
                .collect();
            // The ranking is one unit of work, done.
            search.run.done = 1;
            search.run.total = search.run.total + 1 - listed;
            search.plan();
        }
        Progress::Searching(search)
    }

    /// What the search has done so far, as data for [`Search::resume`].
    pub fn run(&self) -> &Run {
        &self.run
    }

    /// Carries on a search of `game`'s next command started with `seed` and `config`
    /// from what `run` says it had done. `None` when `run` cannot come from such a
    /// search (an index out of range, or a move this position does not allow).
    pub fn resume(game: &Game, seed: u64, config: Config, run: Run) -> Option<Box<Search>> {
        if game.is_over() {
            return None;
        }
        let know = knowledge(game, game.current(), &config);
        let world = know.sample(&mut Rng::new(seed));
        let legal = world.legal_commands();
        let allowed = |commands: &[Command]| commands.first().is_some_and(|c| legal.contains(c));
        let n = run.candidates.len();
        let mut seen = vec![false; n];
        let distinct = run
            .alive
            .iter()
            .all(|&i| i < n && !std::mem::replace(&mut seen[i], true));
        let consistent = distinct
            && (run.alive.len() <= 1 || (run.pos < run.alive.len() && run.per >= 1))
            && run.done <= run.total
            && run.unranked.iter().all(|c| allowed(c))
            && run.candidates.iter().all(|c| allowed(&c.commands))
            && run.fallback.is_none_or(|c| legal.contains(&c));
        consistent.then(|| {
            Box::new(Search {
                know,
                seed,
                config: draw_config(&world, config),
                world,
                run,
            })
        })
    }

    /// The best move found so far, at once: the ranking is finished first if it is not
    /// (one evaluation per legal move), then the candidate with the best share of won
    /// rollouts among those still in the running (its ranking value before any rollout).
    pub fn move_now(mut self: Box<Self>) -> Option<Command> {
        while let Some(commands) = self.run.unranked.pop() {
            self.rank(commands);
            self.run.done += 1;
            if self.run.unranked.is_empty() {
                self.plan();
            }
        }
        let cands = &self.run.candidates;
        // Best first; among equals the earlier one (the better ranked).
        let best = self
            .run
            .alive
            .iter()
            .copied()
            .reduce(|a, b| {
                if cands[b].mean() > cands[a].mean() {
                    b
                } else {
                    a
                }
            })
            .or((!cands.is_empty()).then_some(0));
        best.and_then(|i| cands[i].commands.first().copied())
            .or(self.run.fallback)
    }

    /// The ranking finished (one evaluation per legal move, as [`Search::move_now`] does)
    /// and handed over for another search of the same position: the seat's knowledge,
    /// the candidates kept (each a command, or a guile card and its resolution, with its
    /// ranking value), best-ranked first, and the first legal command.
    #[cfg(feature = "contenders")]
    pub fn into_ranked(mut self: Box<Self>) -> Ranked {
        while let Some(commands) = self.run.unranked.pop() {
            self.rank(commands);
            self.run.done += 1;
            if self.run.unranked.is_empty() {
                self.plan();
            }
        }
        let Search { know, run, .. } = *self;
        Ranked {
            know,
            candidates: run
                .candidates
                .into_iter()
                .map(|c| (c.commands, c.prior))
                .collect(),
            fallback: run.fallback,
        }
    }

    /// All moves ranked: keep the best few and plan the rollouts.
    fn plan(&mut self) {
        self.run
            .candidates
            .sort_by(|a, b| b.prior.total_cmp(&a.prior));
        // At most the best three resolutions of each guile card.
        let mut seen: Vec<(Command, usize)> = Vec::new();
        self.run.candidates.retain(|c| {
            if c.commands.len() < 2 {
                return true;
            }
            match seen.iter_mut().find(|(first, _)| *first == c.commands[0]) {
                Some((_, n)) if *n >= 3 => false,
                Some((_, n)) => {
                    *n += 1;
                    true
                }
                None => {
                    seen.push((c.commands[0], 1));
                    true
                }
            }
        });
        let width = if self.config.rollouts == 0 {
            1
        } else {
            self.config.width.max(1)
        };
        self.run.candidates.truncate(width);
        self.run.alive = (0..self.run.candidates.len()).collect();
        let n = self.run.alive.len();
        self.run.rounds_left = if n > 1 {
            (usize::BITS - (n - 1).leading_zeros()) as usize
        } else {
            0
        };
        self.run.per = self.round_size(n);
        self.run.total = self.run.done + self.planned();
    }

    /// Rollouts per candidate for a round with `alive` candidates.
    fn round_size(&self, alive: usize) -> usize {
        let rounds = self.run.rounds_left.max(1);
        (self.config.rollouts / rounds / alive.max(1)).max(1)
    }

    /// Total rollouts of the whole schedule.
    fn planned(&self) -> usize {
        let mut alive = self.run.alive.len();
        let mut total = 0;
        let mut left = self.run.rounds_left;
        while alive > 1 && left > 0 {
            let per = (self.config.rollouts / left / alive).max(1);
            total += per * alive;
            alive = alive.div_ceil(2);
            left -= 1;
        }
        total
    }

    /// Work units done and planned.
    pub fn progress(&self) -> (usize, usize) {
        (self.run.done, self.run.total)
    }

    /// Ranks one decision by its one-ply value. A guile card is not valued by itself:
    /// its resolutions are queued as decisions of their own.
    fn rank(&mut self, commands: Vec<Command>) {
        let me = self.world.current();
        let policy = &self.config.policy;
        let params = self.config.params;
        let mut g = self.world.clone();
        let mut prior = 0.0;
        for &cmd in &commands {
            if let Command::PlayCard { card, .. } = cmd {
                prior -= policy.cost(card);
            }
        }
        match commands.as_slice() {
            [
                Command::PlayCard {
                    card: Card::Tactic(Tactic::Scout),
                    ..
                },
            ] => prior += value(&g, me, params) + policy.scout_value,
            [
                play @ Command::PlayCard {
                    target: Target::Field,
                    ..
                },
            ] => {
                if g.apply(*play).is_err() {
                    return;
                }
                for r in g.legal_commands() {
                    if r.resolves_guile() {
                        self.run.unranked.push(vec![*play, r]);
                        self.run.total += 1;
                    }
                }
                return;
            }
            _ => {
                for &cmd in &commands {
                    if g.apply(cmd).is_err() {
                        return;
                    }
                }
                prior += value(&g, me, params);
            }
        }
        self.run.candidates.push(Candidate::new(commands, prior));
    }

    /// Does up to `work` rollouts. `Decided` once the schedule is complete.
    pub fn step(mut self: Box<Self>, work: usize) -> Progress {
        for _ in 0..work {
            if let Some(commands) = self.run.unranked.pop() {
                self.rank(commands);
                self.run.done += 1;
                if self.run.unranked.is_empty() {
                    self.plan();
                }
                continue;
            }
            if self.run.alive.len() <= 1 {
                break;
            }
            let index = self.run.alive[self.run.pos];
            let v = self.rollout(index, self.run.deal_base + self.run.deal);
            self.record(v);
        }
        self.settled()
    }

    /// The values of the rollouts `from..from + count` of those left in the current
    /// round ([`Run::round_left`]), in the order [`Search::step`] plays them; fewer when
    /// the round ends first. Nothing is recorded: [`Search::absorb`] does that.
    pub fn rollout_values(&self, from: usize, count: usize) -> Vec<f64> {
        let left = self.run.round_left();
        let n = self.run.alive.len();
        let start = self.run.deal * n + self.run.pos;
        (from.min(left)..from.saturating_add(count).min(left))
            .map(|k| {
                let k = start + k;
                self.rollout(self.run.alive[k % n], self.run.deal_base + k / n)
            })
            .collect()
    }

    /// Records `values`, the next rollouts' values in the order [`Search::step`] plays
    /// them (from [`Search::rollout_values`], wherever it ran): the search then stands
    /// exactly where `step` would have left it. Refused, with nothing recorded, when
    /// there are more values than the round has rollouts left or one is not a number.
    pub fn absorb(mut self: Box<Self>, values: &[f64]) -> Result<Progress, Box<Search>> {
        if values.len() > self.run.round_left() || values.iter().any(|v| !v.is_finite()) {
            return Err(self);
        }
        for &v in values {
            self.record(v);
        }
        Ok(self.settled())
    }

    /// Adds the next rollout's value to its candidate and moves the schedule on.
    fn record(&mut self, v: f64) {
        let index = self.run.alive[self.run.pos];
        let c = &mut self.run.candidates[index];
        c.total += v;
        c.tries += 1;
        self.run.done += 1;
        self.run.pos += 1;
        if self.run.pos == self.run.alive.len() {
            self.run.pos = 0;
            self.run.deal += 1;
            if self.run.deal == self.run.per {
                self.end_round();
            }
        }
    }

    /// `Decided` once the schedule is complete, otherwise still searching.
    fn settled(self: Box<Self>) -> Progress {
        if self.run.unranked.is_empty() && self.run.alive.len() <= 1 {
            let best = self.run.alive.first().copied().unwrap_or(0);
            let chosen = self
                .run
                .candidates
                .get(best)
                .and_then(|c| c.commands.first().copied());
            return Progress::Decided(chosen.or(self.run.fallback));
        }
        Progress::Searching(self)
    }

    fn end_round(&mut self) {
        let cands = &self.run.candidates;
        // Stable sort: equal means keep the one-ply order.
        self.run
            .alive
            .sort_by(|&a, &b| cands[b].mean().total_cmp(&cands[a].mean()));
        self.run.rounds_left = self.run.rounds_left.saturating_sub(1);
        let keep = if self.run.rounds_left == 0 {
            1
        } else {
            self.run.alive.len().div_ceil(2)
        };
        self.run.alive.truncate(keep);
        self.run.deal_base += self.run.per;
        self.run.deal = 0;
        self.run.pos = 0;
        self.run.per = self.round_size(self.run.alive.len());
    }

    /// Plays candidate `index` in deal `deal` and returns the bot's evaluation.
    fn rollout(&self, index: usize, deal: usize) -> f64 {
        let me = self.know.me;
        let mut rng = deal_rng(self.seed, deal);
        let mut game = self.know.sample(&mut rng);
        for &cmd in &self.run.candidates[index].commands {
            if game.apply(cmd).is_err() {
                return self.run.candidates[index].prior;
            }
        }
        let n = match self.config.replies {
            Replies::Policy => 0,
            Replies::Worst(n) | Replies::Odds(n) => usize::from(n),
        };
        if n == 0 {
            // The rest of this turn, then `depth` more turns.
            self.config
                .playout
                .run(&mut game, self.config.depth + 1, &mut rng);
            return self.score(&game);
        }
        // The rest of this turn by the policy, then the other player's claims: its
        // play is the reply searched.
        let playout = &self.config.playout;
        let mut replies = Vec::new();
        for _ in 0..MAX_TURN_COMMANDS {
            if game.is_over() {
                break;
            }
            if game.current() != me {
                replies = playout.best_plays(&game, n);
                if !replies.is_empty() || game.phase() != Phase::Play {
                    break;
                }
            }
            let Some(cmd) = playout.command(&game, &mut rng) else {
                break;
            };
            let passed = cmd == Command::Pass && game.current() != me;
            if game.apply(cmd).is_err() || passed {
                break;
            }
        }
        // The other player's turn, then `depth` turns after the bot's (as without
        // replies searched: the bot's turn has ended).
        let turns = self.config.depth;
        match self.config.replies {
            Replies::Worst(_) if !replies.is_empty() => replies
                .iter()
                .map(|&reply| {
                    let (mut g, mut r) = (game.clone(), rng.clone());
                    if g.apply(reply).is_ok() {
                        playout.run(&mut g, turns, &mut r);
                    }
                    self.score(&g)
                })
                .fold(f64::INFINITY, f64::min),
            Replies::Odds(_) if !replies.is_empty() => {
                let opp = me.opponent();
                let mut best: Option<(f64, Game)> = None;
                for &reply in &replies {
                    let mut g = game.clone();
                    if g.apply(reply).is_err() {
                        continue;
                    }
                    // A guile card with the policy's resolution (one step); a reply
                    // it cannot resolve is not considered.
                    if matches!(g.phase(), Phase::Guile { .. })
                        && playout
                            .command(&g, &mut rng)
                            .is_none_or(|c| g.apply(c).is_err())
                    {
                        continue;
                    }
                    let v = value(&g, opp, self.config.params);
                    if best.as_ref().is_none_or(|(b, _)| v > *b) {
                        best = Some((v, g));
                    }
                }
                if let Some((_, g)) = best {
                    game = g;
                }
                playout.run(&mut game, turns, &mut rng);
                self.score(&game)
            }
            _ => {
                playout.run(&mut game, turns, &mut rng);
                self.score(&game)
            }
        }
    }

    /// A rollout's end scored for the searching player by the config's cut score.
    fn score(&self, game: &Game) -> f64 {
        cut_score(&self.config, game, self.know.me)
    }
}

/// A rollout's end scored for `me` by `config`'s cut score (exact once the game is over).
pub(crate) fn cut_score(config: &Config, game: &Game, me: Player) -> f64 {
    match config.cut {
        CutScore::Odds => value(game, me, config.params),
        #[cfg(feature = "contenders")]
        CutScore::Partner => super::sparring::game_chance(game, me),
        #[cfg(feature = "contenders")]
        CutScore::OddsCalibrated | CutScore::OddsCalibratedByDeck | CutScore::Blend => {
            match game.phase() {
                Phase::GameOver { winner, .. } => f64::from(u8::from(winner == me)),
                Phase::Stalemate => 0.5,
                _ => {
                    let deck = game.troop_deck_len();
                    let odds = |correction: super::CutCalibration| {
                        correction.game_chance(&Seat::new(game, me, config.params).flag_chances())
                    };
                    match config.cut {
                        CutScore::Blend => {
                            super::CutBlend::for_deck(deck).game_chance(game, me, config.params)
                        }
                        CutScore::OddsCalibratedByDeck => {
                            odds(super::CutCalibration::for_deck(deck))
                        }
                        _ => odds(super::CUT_CALIBRATION),
                    }
                }
            }
        }
    }
}

/// At most this many commands are played to reach the other player's reply in a
/// rollout (the rest of a turn is a few: a draw, Scout's steps, a claim or two).
const MAX_TURN_COMMANDS: usize = 24;
