//! Computer opponents at four levels, and (with the `contenders` feature, `contenders.rs`) the
//! players and matches the harness measures them with.
//!
//! - `easy` is the original one-ply bot ([`Bot`]).
//! - `normal`, `hard` and `expert` search: they rank the legal moves with an evaluation
//!   built on exact completion odds and flag positions, then try the best few in random
//!   deals of the cards they cannot see, played out to the end by a fast policy
//!   ([`Thinker`]); they differ in how much they try.
//!
//! Every level reads only what its seat may know (its hand, the table, the discards,
//! the cards it put back with Scout, and counts), and is deterministic given its seed.
//! A [`Thinker`] does its work in small steps so a page can spread it over many frames;
//! the move does not depend on how the work was split, nor on whether it was carried
//! elsewhere in between ([`Snapshot`]). [`Thinker::move_now`] answers at once with the
//! best move found so far.

mod easy;
mod eval;
mod knowledge;
mod playout;
mod reach;
mod search;
mod ways;

// The harness's contenders and what only they use: the pages build without them.
#[cfg(feature = "contenders")]
mod contenders;
#[cfg(feature = "contenders")]
mod corrections;
#[cfg(feature = "contenders")]
mod cut_calibration;
#[cfg(feature = "contenders")]
mod endgame;
#[cfg(feature = "contenders")]
mod hand_model;
#[cfg(feature = "contenders")]
mod ismcts;
#[cfg(feature = "contenders")]
mod ladder;
#[cfg(feature = "contenders")]
mod reply_model;
#[cfg(feature = "contenders")]
mod sparring;
#[cfg(all(test, feature = "contenders"))]
mod twins;

#[cfg(feature = "contenders")]
pub(crate) use contenders::hard_8_900;
#[cfg(feature = "contenders")]
pub use contenders::{
    CUT_PARTNER_ROLLOUTS, Contender, WideChoices, choose_ranked, play_match, play_watched,
    seat_move_seed, wide_choices,
};
#[cfg(feature = "contenders")]
pub use corrections::dead_leader_share;
#[cfg(feature = "contenders")]
pub use cut_calibration::{
    CUT_CALIBRATION, CUT_FEATURE_NAMES, CUT_FEATURES, CutBlend, CutCalibration, CutSample,
    cut_features, cut_samples,
};
pub use easy::Bot;
#[cfg(feature = "contenders")]
pub use endgame::wins_knowing_every_card;
#[cfg(feature = "contenders")]
pub use hand_model::{Calibration, calibrate};
#[cfg(feature = "contenders")]
pub use ismcts::{CACHE_DEALS, REPLY_RANKS, ReplyRanks, SampledRanks, VOTE_BEST, reply_ranks};
#[cfg(feature = "contenders")]
pub use reply_model::{TableTimes, time_tables};
#[cfg(feature = "contenders")]
pub use sparring::Sparring;

use crate::game::{Command, Game, Player};
#[cfg(feature = "contenders")]
use search::Deals;
use search::{Config, Policy, Progress, Run, Search};
pub use search::{CutScore, Ranking, Replies};
use seeded_rng::Rng;
use serde::{Deserialize, Serialize};

/// The clock of the measurements that time parts of a search (`reply_ranks`,
/// `time_tables`), given by their caller (`std::time::Instant::now` natively): the
/// library never reads the time itself, since `Instant::now` panics in WebAssembly.
pub type Clock = fn() -> std::time::Instant;

/// Playouts run to the end of the game (a game has far fewer turns).
const FULL: usize = 200;

/// How strong the computer plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum Level {
    /// The original one-ply bot.
    Easy,
    /// A short search: 5 candidates, 60 playouts (well under 200 ms in a browser).
    #[default]
    Normal,
    /// A wider, longer search: 10 candidates, 1,800 rollouts, each played on until the
    /// troop deck runs low and scored there by the odds evaluation. The page plays each
    /// round's rollouts on all its workers (under 1 s a move in a browser, on one worker
    /// too). Until 2026-12-07 hard searched 8 candidates with 900 rollouts (the
    /// harness's `hard-low-odds-ways-20`) and expert what hard does now, which won a few
    /// points more against the sparring partner (+3.6 paired over 350 seeds, and more
    /// than hard's 62.2% over 1,000 seeds: see the crate's README).
    Hard,
    /// The hard search with twice its rollouts: 3,600 over 10 candidates (at most 3 s in
    /// a browser, which the page also enforces; it can be told to move now).
    Expert,
}

impl Level {
    pub const ALL: [Level; 4] = [Level::Easy, Level::Normal, Level::Hard, Level::Expert];

    /// A stable name for storage and addresses: `easy`, `normal`, `hard`, `expert`.
    pub fn code(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Normal => "normal",
            Level::Hard => "hard",
            Level::Expert => "expert",
        }
    }

    pub fn from_code(code: &str) -> Option<Level> {
        Level::ALL.into_iter().find(|l| l.code() == code)
    }

    pub(crate) fn config(self) -> Option<Config> {
        self.config_ranked(HARD_RANKING)
    }

    /// The level's search with its candidates ranked by `ranking` (normal always ranks
    /// by the odds evaluation).
    fn config_ranked(self, ranking: Ranking) -> Option<Config> {
        match self {
            Level::Easy => None,
            Level::Normal => Some(full_config(5, 60, Ranking::Odds)),
            Level::Hard => Some(low_config(
                full_config(10, 2 * HARD_ROLLOUTS, ranking),
                HARD_LOW_CARDS,
                CutScore::Odds,
                true,
            )),
            Level::Expert => Some(low_config(
                full_config(10, 4 * HARD_ROLLOUTS, ranking),
                HARD_LOW_CARDS,
                CutScore::Odds,
                true,
            )),
        }
    }
}

/// A search of `width` candidates whose `rollouts` are played to the game's end by the
/// default policy. Hard was `full_config(8, 900, HARD_RANKING)` until 2026-12-03 (the
/// harness's `hard-full`); the `hard-ways…`, `hard-cut-…` and `hard-low-…` contenders
/// change that search, and the levels' own are `hard-low-odds-ways-20` of it.
fn full_config(width: usize, rollouts: usize, ranking: Ranking) -> Config {
    let policy = Policy::default();
    Config {
        width,
        rollouts,
        depth: FULL,
        params: policy.params,
        policy,
        playout: playout::Playout::default(),
        ranking,
        cut: CutScore::Odds,
        draw_rollouts: 0,
        replies: Replies::Policy,
        #[cfg(feature = "contenders")]
        deals: search::Deals::Uniform,
    }
}

/// Where hard's and expert's rollouts stop: once the troop deck holds at most this many
/// cards (after [`LOW_PLIES`] turns of each player). Against the sparring partner it won
/// 5.6-6.2 points more than rollouts played to the end, over 610 fresh seeds (README,
/// *What was tried for hard*, eighth and ninth rounds).
const HARD_LOW_CARDS: u8 = 20;

/// How hard and expert pick the candidates of their search: by the odds evaluation.
/// Ranked by the sparring partner's valuation instead (`Ranking::Partner`, the
/// harness's `hard-partner`), hard won 58.2% against the partner where this ranking
/// won 57.1% (225 seeds, no verdict of the sequential test; README, *What was tried
/// for hard*).
const HARD_RANKING: Ranking = Ranking::Odds;

/// A claim among `legal`: every level makes a claim it can prove before anything else.
pub(crate) fn claim_in(legal: &[Command]) -> Option<Command> {
    legal
        .iter()
        .find(|c| matches!(c, Command::ClaimFlag { .. }))
        .copied()
}

/// Where a [`Thinker`] stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Thought {
    /// Still searching: `done` of `total` work units finished.
    Thinking { done: usize, total: usize },
    /// The chosen command (`None` when the game is over).
    Done(Option<Command>),
}

/// The computer deciding one command, in resumable steps.
///
/// ```
/// use battle_line::{Game, Settings};
/// use battle_line::bot::{Level, Thinker, Thought};
/// let game = Game::new(7, Settings::default());
/// let mut thinker = Thinker::new(&game, Level::Normal, 42);
/// let command = loop {
///     // A page calls this once per frame with a small amount of work.
///     if let Thought::Done(command) = thinker.step(8) {
///         break command;
///     }
/// };
/// assert!(game.legal_commands().contains(&command.expect("a move")));
/// ```
#[derive(Debug, Clone)]
pub struct Thinker {
    state: State,
    /// What it was started with, so that a [`Snapshot`] is only resumed on its position.
    level: Level,
    seed: u64,
    ply: usize,
}

#[derive(Debug, Clone)]
enum State {
    Searching(Box<Search>),
    Done(Option<Command>),
}

impl Thinker {
    /// Starts deciding the next command of the player to move in `game`, at `level`.
    /// The same game position, level and seed always give the same command.
    pub fn new(game: &Game, level: Level, seed: u64) -> Thinker {
        let state = match level.config() {
            None => State::Done(Bot::new(seed).choose(game)),
            Some(config) => match Search::start(game, seed, config) {
                Progress::Searching(s) => State::Searching(s),
                Progress::Decided(c) => State::Done(c),
            },
        };
        Thinker {
            state,
            level,
            seed,
            ply: game.log().len(),
        }
    }

    /// What the thinker has done so far, as data (it serializes): a page can send it to
    /// a worker, which resumes it with [`Thinker::resume`], does some more work and sends
    /// it back. The move does not depend on how often that happens.
    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            level: self.level,
            seed: self.seed,
            ply: self.ply,
            work: match &self.state {
                State::Searching(s) => Work::Searching(Box::new(s.run().clone())),
                State::Done(c) => Work::Done(*c),
            },
        }
    }

    /// Carries on from `snapshot`, taken of a thinker started on `game` (the same
    /// position: its seed, level and move number must match).
    pub fn resume(game: &Game, snapshot: Snapshot) -> Result<Thinker, ResumeError> {
        let Snapshot {
            level,
            seed,
            ply,
            work,
        } = snapshot;
        if ply != game.log().len() || game.is_over() {
            return Err(ResumeError::OtherPosition);
        }
        let state = match (work, level.config()) {
            (Work::Done(c), _) => {
                if c.is_some_and(|c| !game.legal_commands().contains(&c)) {
                    return Err(ResumeError::Inconsistent);
                }
                State::Done(c)
            }
            (Work::Searching(run), Some(config)) => State::Searching(
                Search::resume(game, seed, config, *run).ok_or(ResumeError::Inconsistent)?,
            ),
            (Work::Searching(_), None) => return Err(ResumeError::Inconsistent),
        };
        Ok(Thinker {
            state,
            level,
            seed,
            ply,
        })
    }

    /// The best command found so far, at once (a legal one whenever the game is not
    /// over): the search's chosen one if it is done, otherwise the candidate with the
    /// best share of won playouts so far. Before the first playout (the ranking of the
    /// moves, one evaluation each, is finished if need be) it is the best-ranked move.
    pub fn move_now(self) -> Option<Command> {
        match self.state {
            State::Searching(s) => s.move_now(),
            State::Done(c) => c,
        }
    }

    /// Does up to `work` units (one unit is one playout, well under a millisecond
    /// natively) and says where the search stands.
    pub fn step(&mut self, work: usize) -> Thought {
        let state = std::mem::replace(&mut self.state, State::Done(None));
        self.state = match state {
            State::Searching(s) => match s.step(work) {
                Progress::Searching(s) => State::Searching(s),
                Progress::Decided(c) => State::Done(c),
            },
            done => done,
        };
        self.thought()
    }

    /// Rollouts left in the search's current round, which may be played apart and in
    /// any order: [`Thinker::rollout_values`] in other workers, then
    /// [`Thinker::absorb`] here. 0 while the moves are being ranked (a
    /// [`Thinker::step`] does that) or once the search is decided.
    pub fn round_left(&self) -> usize {
        match &self.state {
            State::Searching(s) => s.run().round_left(),
            State::Done(_) => 0,
        }
    }

    /// The values of rollouts `from..from + count` of the [`Thinker::round_left`] ones,
    /// as [`Thinker::step`] would play them (fewer past the round's end); the thinker
    /// is not changed. A thinker resumed from the same snapshot anywhere gives the same
    /// values.
    pub fn rollout_values(&self, from: usize, count: usize) -> Vec<f64> {
        match &self.state {
            State::Searching(s) => s.rollout_values(from, count),
            State::Done(_) => Vec::new(),
        }
    }

    /// Records the values of the next rollouts, in order (pieces of
    /// [`Thinker::rollout_values`] put back together): the thinker then stands where
    /// `step` would have left it, whatever worker played which piece, so the move is
    /// the one [`choose`] makes. More values than [`Thinker::round_left`], or one that
    /// is not a number, are refused and nothing changes.
    pub fn absorb(&mut self, values: &[f64]) -> Result<Thought, ResumeError> {
        if values.is_empty() {
            return Ok(self.thought());
        }
        let state = std::mem::replace(&mut self.state, State::Done(None));
        let (state, result) = match state {
            State::Searching(s) => match s.absorb(values) {
                Ok(Progress::Searching(s)) => (State::Searching(s), Ok(())),
                Ok(Progress::Decided(c)) => (State::Done(c), Ok(())),
                Err(s) => (State::Searching(s), Err(ResumeError::Inconsistent)),
            },
            done => (done, Err(ResumeError::Inconsistent)),
        };
        self.state = state;
        result.map(|()| self.thought())
    }

    /// Where the search stands, without doing any work.
    pub fn thought(&self) -> Thought {
        match &self.state {
            State::Searching(s) => {
                let (done, total) = s.progress();
                Thought::Thinking { done, total }
            }
            State::Done(c) => Thought::Done(*c),
        }
    }

    /// Finishes the search in one go.
    pub fn run(mut self) -> Option<Command> {
        loop {
            if let Thought::Done(c) = self.step(usize::MAX) {
                return c;
            }
        }
    }
}

/// A [`Thinker`]'s work so far, to resume elsewhere ([`Thinker::snapshot`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Snapshot {
    level: Level,
    seed: u64,
    ply: usize,
    work: Work,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
enum Work {
    Searching(Box<Run>),
    Done(Option<Command>),
}

impl Snapshot {
    /// The level the thinker plays at.
    pub fn level(&self) -> Level {
        self.level
    }

    /// Work units done and planned, or `None` once decided.
    pub fn progress(&self) -> Option<(usize, usize)> {
        match &self.work {
            Work::Searching(run) => Some(run.progress()),
            Work::Done(_) => None,
        }
    }

    /// The rollouts left in the search's current round ([`Thinker::round_left`]).
    pub fn round_left(&self) -> usize {
        match &self.work {
            Work::Searching(run) => run.round_left(),
            Work::Done(_) => 0,
        }
    }
}

/// Why a [`Snapshot`] cannot be resumed on a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResumeError {
    /// It was taken at another move number, or the game is over.
    OtherPosition,
    /// It names a move this position does not allow, or its bookkeeping does not add up.
    Inconsistent,
}

impl std::fmt::Display for ResumeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            ResumeError::OtherPosition => "the search was started in another position",
            ResumeError::Inconsistent => "the search's record does not fit this position",
        })
    }
}

impl std::error::Error for ResumeError {}

/// The command `level` picks for the player to move (the whole search at once).
pub fn choose(game: &Game, level: Level, seed: u64) -> Option<Command> {
    Thinker::new(game, level, seed).run()
}

/// A bot seed for move number `ply` of a game seeded with `game_seed`: a fresh,
/// reproducible stream per decision, so a reloaded game replays the same moves.
pub fn move_seed(game_seed: u64, ply: usize) -> u64 {
    game_seed
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(ply as u64)
}

/// A player that picks uniformly among the legal commands (except sorting its hand):
/// the baseline the bot is measured against.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RandomPlayer {
    rng: Rng,
}

impl RandomPlayer {
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer {
            rng: Rng::new(seed),
        }
    }

    pub fn choose(&mut self, game: &Game) -> Option<Command> {
        let legal: Vec<Command> = game
            .legal_commands()
            .into_iter()
            .filter(|c| !matches!(c, Command::SortHand { .. }))
            .collect();
        (!legal.is_empty()).then(|| legal[self.rng.index(legal.len())])
    }
}

/// The result of one bot-versus-random game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MatchResult {
    BotWon,
    RandomWon,
    /// A stalemate, or stopped after the command limit without a winner.
    Unfinished,
}

/// Plays one game between the easy bot (in seat `bot_seat`) and a random player.
pub fn play_bot_vs_random(seed: u64, bot_seat: Player, max_commands: usize) -> MatchResult {
    let mut game = Game::new(seed, crate::game::Settings::default());
    let mut bot = Bot::new(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 1);
    let mut random = RandomPlayer::new(seed ^ 0xABCD);
    for _ in 0..max_commands {
        if game.is_over() {
            break;
        }
        let cmd = if game.current() == bot_seat {
            bot.choose(&game)
        } else {
            random.choose(&game)
        };
        let Some(cmd) = cmd else { break };
        if game.apply(cmd).is_err() {
            break;
        }
    }
    match game.winner() {
        Some(w) if w == bot_seat => MatchResult::BotWon,
        Some(_) => MatchResult::RandomWon,
        None => MatchResult::Unfinished,
    }
}

/// The rollouts of hard's search until 2026-12-07, and of the harness's variants of
/// it: the levels' searches are counted in them (hard twice, expert four times).
const HARD_ROLLOUTS: usize = 900;

/// The turns of each player a `HardLow` rollout plays at least: those of the best cut
/// contender (`hard-cut-odds-ways-8`), so it differs only where the deck is still full.
const LOW_PLIES: u8 = 8;

/// `base` with its rollouts cut after `plies` turns of each player and scored by
/// `score`, and played by the ways policy if `ways`; scored by the partner, it keeps
/// `CUT_PARTNER_ROLLOUTS` of them (`hard-cut-…` is this of `hard_full_config`).
fn cut_config(base: Config, plies: u8, score: CutScore, ways: bool) -> Config {
    Config {
        depth: 2 * usize::from(plies),
        cut: score,
        rollouts: match score {
            #[cfg(feature = "contenders")]
            CutScore::Partner => CUT_PARTNER_ROLLOUTS,
            _ => base.rollouts,
        },
        playout: if ways { ways_playout() } else { base.playout },
        ..base
    }
}

/// `cut_config` of `base` after [`LOW_PLIES`] turns, its rollouts played on until the
/// troop deck holds at most `cards` cards (`hard-low-…` is this of
/// `hard_full_config`).
fn low_config(base: Config, cards: u8, score: CutScore, ways: bool) -> Config {
    let cut = cut_config(base, LOW_PLIES, score, ways);
    Config {
        playout: playout::Playout {
            low_deck: Some(usize::from(cards)),
            ..cut.playout
        },
        ..cut
    }
}

/// The rollout policy of `playout-ways` and `hard-ways`: sides worth every way to
/// complete them (`Playout::ways`).
fn ways_playout() -> playout::Playout {
    playout::Playout {
        ways: true,
        ..playout::Playout::default()
    }
}

// The tests always build with the contenders (the crate's dev-dependency on itself).
#[cfg(all(test, feature = "contenders"))]
mod tests {
    use super::contenders::{choose_with, replies_config};
    use super::*;
    use crate::game::Settings;

    /// A whole game from `seed` where `level` decides every `every`-th command (the
    /// searching levels are slow in unoptimized test builds) and the easy bot the rest;
    /// every command is checked against the legal ones. Returns the game's log.
    fn whole_game(level: Level, seed: u64, every: usize) -> Vec<Command> {
        let mut game = Game::new(seed, Settings::default());
        for ply in 0..400 {
            let chooser = if ply % every == 0 { level } else { Level::Easy };
            let Some(cmd) = choose(&game, chooser, move_seed(seed, ply)) else {
                break;
            };
            assert!(game.legal_commands().contains(&cmd), "{level:?}: {cmd:?}");
            game.apply(cmd).expect("legal");
        }
        assert!(game.is_over(), "{level:?} finished the game");
        game.log().to_vec()
    }

    #[test]
    fn every_level_plays_legal_commands_through_a_whole_game_and_the_same_again_from_its_seed() {
        for level in Level::ALL {
            // The expert's search is about twice the hard one's: it decides less often.
            let every = if level == Level::Expert { 15 } else { 7 };
            let first = whole_game(level, 3, every);
            assert_eq!(first, whole_game(level, 3, every), "{level:?}");
        }
    }

    /// Positions where the player to move has a real choice to search (a card to play),
    /// reached by the easy bot from `seed`.
    /// What a search of `game` answers when run `work` at a time, each slice resumed from
    /// the record the one before left (`None`: decided at once, nothing searched).
    fn answer_in_slices(
        game: &Game,
        seed: u64,
        config: Config,
        work: usize,
    ) -> Option<Option<Command>> {
        let Progress::Searching(search) = Search::start(game, seed, config) else {
            return None;
        };
        let mut run = search.run().clone();
        loop {
            let search = Search::resume(game, seed, config, run).expect("resumes");
            match search.step(work) {
                Progress::Decided(c) => return Some(c),
                Progress::Searching(s) => run = s.run().clone(),
            }
        }
    }

    fn searched_positions(seed: u64, count: usize) -> Vec<Game> {
        positions_where(seed, count, |game, ply| {
            ply % 9 == 4 && matches!(game.phase(), crate::game::Phase::Play)
        })
    }

    /// Up to `count` positions of a game of the easy bot against itself (at most 400
    /// plies) that `keep` says yes to, given the position and its ply.
    fn positions_where(seed: u64, count: usize, keep: impl Fn(&Game, usize) -> bool) -> Vec<Game> {
        let mut game = Game::new(seed, Settings::default());
        let mut found = Vec::new();
        let mut bot = Bot::new(seed);
        for ply in 0..400 {
            if found.len() == count || game.is_over() {
                break;
            }
            if keep(&game, ply) {
                found.push(game.clone());
            }
            let cmd = bot.choose(&game).expect("a move");
            game.apply(cmd).expect("legal");
        }
        found
    }

    #[test]
    fn expert_moves_now_with_a_legal_command_at_any_point_of_its_search() {
        for (i, game) in searched_positions(5, 2).into_iter().enumerate() {
            let legal = game.legal_commands();
            let mut thinker = Thinker::new(&game, Level::Expert, i as u64);
            // At the start (ranking not done), then after every slice of work.
            assert!(legal.contains(&thinker.clone().move_now().expect("a move")));
            let mut slices = 0;
            while let Thought::Thinking { .. } = thinker.step(400) {
                let now = thinker.clone().move_now().expect("a move");
                assert!(legal.contains(&now), "{now:?}");
                slices += 1;
            }
            assert!(
                slices >= 5,
                "the expert's search is long enough to interrupt"
            );
            let Thought::Done(chosen) = thinker.thought() else {
                unreachable!("the loop ends when the search is done")
            };
            assert_eq!(
                thinker.move_now(),
                chosen,
                "once done, moving now is the choice"
            );
        }
    }

    #[test]
    fn a_search_carried_through_serialized_snapshots_chooses_the_same_move() {
        for (i, game) in searched_positions(8, 2).into_iter().enumerate() {
            let seed = 100 + i as u64;
            let whole = choose(&game, Level::Hard, seed);
            let mut snapshot = Thinker::new(&game, Level::Hard, seed).snapshot();
            let resumed = loop {
                let json = serde_json::to_string(&snapshot).expect("serializes");
                let back: Snapshot = serde_json::from_str(&json).expect("deserializes");
                assert_eq!(back, snapshot, "a snapshot survives its JSON round trip");
                let mut thinker = Thinker::resume(&game, back).expect("same position");
                if let Thought::Done(c) = thinker.step(97) {
                    break c;
                }
                snapshot = thinker.snapshot();
            };
            assert_eq!(resumed, whole);
        }
    }

    /// What `level` chooses when every round's rollouts are cut into `pieces` pieces,
    /// each played by a thinker resumed from the snapshot (last piece first, as a slow
    /// worker's answer may come last) and put back together in order. Counts the
    /// rollouts played apart.
    fn choose_in_pieces(
        game: &Game,
        level: Level,
        seed: u64,
        pieces: usize,
    ) -> (Option<Command>, usize) {
        let mut thinker = Thinker::new(game, level, seed);
        let mut apart = 0;
        loop {
            let left = thinker.round_left();
            if left == 0 {
                if let Thought::Done(c) = thinker.step(50) {
                    return (c, apart);
                }
                continue;
            }
            let size = left.min(500).div_ceil(pieces);
            let snapshot = thinker.snapshot();
            let mut values: Vec<Vec<f64>> = (0..pieces)
                .rev()
                .map(|p| {
                    let elsewhere = Thinker::resume(game, snapshot.clone()).expect("resumes");
                    elsewhere.rollout_values(p * size, size)
                })
                .collect();
            values.reverse();
            let values = values.concat();
            apart += values.len();
            assert_eq!(
                values.len(),
                left.min(pieces * size),
                "the pieces cover the slice"
            );
            if let Thought::Done(c) = thinker.absorb(&values).expect("in order, in the round") {
                return (c, apart);
            }
        }
    }

    #[test]
    fn rollouts_played_apart_and_put_back_in_order_choose_the_move_played_in_one_place() {
        for (i, game) in searched_positions(4, 3).into_iter().enumerate() {
            for (level, pieces) in [(Level::Hard, 2), (Level::Hard, 3), (Level::Expert, 4)] {
                let seed = 40 + i as u64;
                let (chosen, apart) = choose_in_pieces(&game, level, seed, pieces);
                assert_eq!(
                    chosen,
                    choose(&game, level, seed),
                    "position {i}, {level:?}"
                );
                assert!(apart > 1000, "{level:?} played {apart} rollouts apart");
            }
        }
    }

    #[test]
    fn values_past_the_round_or_not_numbers_are_refused_and_change_nothing() {
        let game = &searched_positions(4, 1)[0];
        let mut thinker = Thinker::new(game, Level::Hard, 3);
        assert_eq!(thinker.round_left(), 0, "the moves are ranked first");
        // Ranked one move a step; bounded, should the search decide without a round.
        for _ in 0..1000 {
            if thinker.round_left() > 0 {
                break;
            }
            thinker.step(1);
        }
        let left = thinker.round_left();
        assert_eq!(thinker.snapshot().round_left(), left);
        let before = thinker.snapshot();
        let too_many = vec![0.5; left + 1];
        assert_eq!(thinker.absorb(&too_many), Err(ResumeError::Inconsistent));
        assert_eq!(
            thinker.absorb(&[0.5, f64::NAN]),
            Err(ResumeError::Inconsistent)
        );
        assert_eq!(thinker.snapshot(), before, "nothing recorded");
        assert_eq!(
            thinker.rollout_values(left, 10),
            Vec::<f64>::new(),
            "past the round"
        );
        let last = thinker.rollout_values(left - 1, 10);
        assert_eq!(last.len(), 1, "a piece stops at the round's end");
    }

    /// Positions at the end of a turn where both decks can be drawn from.
    fn draw_positions(seed: u64, count: usize) -> Vec<Game> {
        positions_where(seed, count, |game, _| {
            let open = game.troop_deck_len() > 0 && game.tactic_deck_len() > 0;
            open && matches!(game.phase(), crate::game::Phase::Finish { may_draw: true })
        })
    }

    #[test]
    fn hard_draws_searches_the_draw_and_answers_the_same_whole_or_in_slices() {
        let hard = hard_8_900();
        let config = Config {
            draw_rollouts: 40,
            ..hard
        };
        let mut searched = 0;
        for (i, game) in draw_positions(3, 6).into_iter().enumerate() {
            let seed = 7 + i as u64;
            let whole = choose_with(&game, config, seed).expect("a draw");
            assert!(matches!(whole, Command::DrawAndEndTurn { .. }), "{whole:?}");
            assert!(game.legal_commands().contains(&whole));
            assert_eq!(choose_with(&game, config, seed), Some(whole), "same seed");
            // Searched (both decks tried in rollouts), not decided by the rule at once,
            // and a search resumed from its record after every slice answers the same.
            let Some(sliced) = answer_in_slices(&game, seed, config, 7) else {
                panic!("position {i}: the draw was not searched");
            };
            searched += 1;
            assert_eq!(sliced, Some(whole), "position {i}");
        }
        assert!(searched >= 4, "only {searched} positions");
        // A level that leaves the draw to its rule decides it at once.
        let game = &draw_positions(3, 1)[0];
        assert!(matches!(
            Search::start(game, 1, hard),
            Progress::Decided(Some(Command::DrawAndEndTurn { .. }))
        ));
    }

    #[test]
    fn a_snapshot_is_refused_on_another_position() {
        let games = searched_positions(8, 2);
        let snapshot = Thinker::new(&games[0], Level::Hard, 1).snapshot();
        assert_eq!(
            Thinker::resume(&games[1], snapshot.clone()).err(),
            Some(ResumeError::OtherPosition)
        );
        // A record whose bookkeeping does not add up is refused, not trusted.
        let mut thinker = Thinker::new(&games[0], Level::Hard, 1);
        thinker.step(200);
        let mut json: serde_json::Value =
            serde_json::to_value(thinker.snapshot()).expect("serializes");
        json["work"]["Searching"]["alive"] = serde_json::json!([0, 99]);
        let garbled: Snapshot = serde_json::from_value(json).expect("still a snapshot");
        assert_eq!(
            Thinker::resume(&games[0], garbled).err(),
            Some(ResumeError::Inconsistent)
        );
    }

    #[test]
    fn hard_partner_takes_its_candidates_from_the_partners_valuation() {
        let mut compared = 0;
        for seed in [11, 12] {
            for game in searched_positions(seed, 8) {
                // Without rollouts the search plays its best-ranked candidate: the
                // partner's own choice.
                let config = Config {
                    rollouts: 0,
                    ..Level::Hard
                        .config_ranked(Ranking::Partner)
                        .expect("a search")
                };
                let mut progress = Search::start(&game, seed, config);
                let chosen = loop {
                    match progress {
                        Progress::Decided(c) => break c,
                        Progress::Searching(s) => progress = s.step(usize::MAX),
                    }
                };
                assert_eq!(chosen, Sparring::new().choose(&game), "seed {seed}");
                compared += 1;
            }
        }
        assert!(compared >= 10, "only {compared} positions");
        // Both rankings give a legal move with the whole search.
        let game = &searched_positions(11, 1)[0];
        for ranking in [Ranking::Odds, Ranking::Partner] {
            let c = choose_ranked(game, Level::Hard, ranking, 3);
            assert!(game.legal_commands().contains(&c.expect("a move")));
        }
    }

    #[test]
    fn the_harness_variants_base_is_the_measured_hard_low_odds_ways_20() {
        // The README's figures for hard until 2026-12-07 and for its variants were
        // measured with the contender `hard-low-odds-ways-20`; the search the variants
        // are built on must be that one, move for move.
        let low = Contender::from_name("hard-low-odds-ways-20").expect("named");
        let mut random = RandomPlayer::new(0);
        for (i, game) in searched_positions(21, 3).iter().enumerate() {
            let seed = 40 + i as u64;
            let base = choose_with(game, hard_8_900(), seat_move_seed(game, seed));
            assert!(game.legal_commands().contains(&base.expect("a move")));
            assert_eq!(base, low.choose(game, seed, &mut random), "position {i}");
        }
    }

    #[test]
    fn hard_is_the_search_expert_played_until_2026_12_07_and_expert_has_twice_its_rollouts() {
        let hard = Level::Hard.config().expect("hard searches");
        let expert = Level::Expert.config().expect("expert searches");
        // Expert until 2026-12-07, measured against the sparring partner as `expert`.
        let before = low_config(
            full_config(10, 1800, HARD_RANKING),
            20,
            CutScore::Odds,
            true,
        );
        assert_eq!(hard, before);
        assert_eq!(
            Config {
                rollouts: 2 * hard.rollouts,
                ..hard
            },
            expert
        );
    }

    #[test]
    fn contenders_are_named_and_found_by_name() {
        let names = [
            "easy",
            "normal",
            "hard",
            "expert",
            "random",
            "sparring",
            "playout",
            "playout-ways",
            "hard-full",
            "hard-draws",
            "hard-cal",
            "hard-cal-deck",
            "hard-blend",
            "hard-live-draws",
            "hard-spread",
            "hard-tactic-draws-0",
            "hard-tactic-draws-100",
            "hard-replies-worst-2",
            "hard-replies-worst-3",
            "hard-replies-worst-4",
            "hard-replies-odds-2",
            "hard-replies-odds-3",
            "hard-replies-odds-4",
            "hard-model-20",
            "hard-model-40",
            "hard-model-80",
            "hard-is-1-c10",
            "hard-is-1-c25",
            "hard-is-1-c50",
            "hard-is-2-c10",
            "hard-is-2-c25",
            "hard-is-2-c50",
            "hard-is-3-c10",
            "hard-is-3-c25",
            "hard-is-3-c50",
            "hard-is-sh-1-c25",
            "hard-is-sh-2-c10",
            "hard-is-sh-2-c25",
            "hard-is-sh-3-c50",
            "hard-is-sh-2-c25-partner-replies-1",
            "hard-is-sh-2-c25-partner-replies-2",
            "hard-is-sh-2-c25-partner-replies-4",
            "hard-is-sh-2-c25-partner-table",
            "hard-is-sh-2-c25-partner-model",
            "hard-close-25",
            "hard-close-50",
            "hard-close-100",
            "hard-close-partner",
            "hard-partner-cut",
            "hard-endgame-2",
            "hard-endgame-4",
            "hard-endgame-8",
            "hard-wide-16",
            "hard-wide-24",
            "hard-wide-40",
            "expert-wide-16",
            "expert-wide-24",
            "expert-wide-40",
            "hard-ways",
            "hard-ways-900",
            "hard-cut-4",
            "hard-cut-8",
            "hard-cut-16",
            "hard-cut-odds-4",
            "hard-cut-odds-8",
            "hard-cut-odds-16",
            "hard-cut-ways-8",
            "hard-cut-odds-ways-4",
            "hard-cut-odds-ways-8",
            "hard-cut-odds-ways-16",
            "hard-low-12",
            "hard-low-20",
            "hard-low-28",
            "hard-low-ways-20",
            "hard-low-odds-20",
            "hard-low-odds-ways-12",
            "hard-low-odds-ways-20",
            "hard-low-odds-ways-28",
            "hard-odds",
            "hard-partner",
            "expert-odds",
            "expert-partner",
        ];
        for name in names {
            let c = Contender::from_name(name).expect(name);
            assert_eq!(c.name(), name);
        }
        // Every contender has a name of its own, which finds it.
        let all = Contender::all();
        for c in &all {
            assert_eq!(Contender::from_name(c.name()), Some(*c), "{c:?}");
        }
        let mut names_of_all: Vec<&str> = all.iter().map(|c| c.name()).collect();
        names_of_all.sort_unstable();
        names_of_all.dedup();
        assert_eq!(names_of_all.len(), all.len(), "a name given twice");
        assert_eq!(Contender::from_name("hard-uniform"), None);
        assert_eq!(Contender::from_name("hard-tactic-draws-30"), None);
        assert_eq!(Contender::from_name("hard-replies-worst-5"), None);
        assert_eq!(Contender::from_name("hard-replies-3"), None);
        assert_eq!(Contender::from_name("hard-replies-best-3"), None);
        assert_eq!(Contender::from_name("hard-replies-odds-"), None);
        assert_eq!(Contender::from_name("hard-cut-5"), None);
        assert_eq!(Contender::from_name("hard-cut-"), None);
        assert_eq!(Contender::from_name("hard-cut-ways-odds-8"), None);
        assert_eq!(Contender::from_name("hard-cut-odds-ways-"), None);
        assert_eq!(Contender::from_name("hard-low-8"), None);
        assert_eq!(Contender::from_name("hard-low-"), None);
        assert_eq!(Contender::from_name("hard-low-ways-odds-20"), None);
        assert_eq!(Contender::from_name("hard-low-odds-ways-"), None);
        assert_eq!(Contender::from_name("hard-low-odds-ways-20-8"), None);
        assert_eq!(Contender::from_name("hard-low"), None);
        assert_eq!(Contender::from_name("hard-model-30"), None);
        assert_eq!(Contender::from_name("hard-wide-18"), None);
        assert_eq!(Contender::from_name("easy-wide-16"), None);
        assert_eq!(Contender::from_name("hard-wide-"), None);
        assert_eq!(Contender::from_name("hard-model-"), None);
        assert_eq!(Contender::from_name("hard-model"), None);
        assert_eq!(Contender::from_name("hard-is"), None);
        assert_eq!(Contender::from_name("hard-is-2"), None);
        assert_eq!(Contender::from_name("hard-is-4-c25"), None);
        assert_eq!(Contender::from_name("hard-is-2-c30"), None);
        assert_eq!(Contender::from_name("hard-is-2-c025"), None);
        assert_eq!(Contender::from_name("hard-is-c25-2"), None);
        assert_eq!(Contender::from_name("hard-is-sh-2"), None);
        assert_eq!(Contender::from_name("hard-is-sh-sh-2-c25"), None);
        assert_eq!(
            Contender::from_name("hard-is-sh-2-c25-partner-replies-3"),
            None
        );
        assert_eq!(Contender::from_name("hard-close-30"), None);
        assert_eq!(Contender::from_name("hard-close-"), None);
        assert_eq!(
            Contender::from_name("hard-is-sh-2-c25-partner-replies-"),
            None
        );
    }

    #[test]
    fn the_playout_contender_plays_legal_moves_through_a_whole_game() {
        // The policy as it is, and the one whose sides count every way to complete them.
        for (policy, seed) in [(Contender::Playout, 4), (Contender::PlayoutWays, 5)] {
            contenders_game(seed, policy.name(), |_, game| {
                if game.current() == Player::P0 {
                    policy
                } else {
                    Contender::Sparring
                }
            });
        }
    }

    /// A game from `seed` played to its end, `seat` naming who decides each command (by
    /// its index in the game and the game before it), every command checked legal;
    /// `what` names the game in a failure.
    fn contenders_game(seed: u64, what: &str, seat: impl Fn(usize, &Game) -> Contender) -> Game {
        let mut game = Game::new(seed, Settings::default());
        let mut random = RandomPlayer::new(seed);
        for ply in 0..600 {
            let Some(cmd) = seat(ply, &game).choose(&game, seed, &mut random) else {
                break;
            };
            assert!(game.legal_commands().contains(&cmd), "{what}: {cmd:?}");
            game.apply(cmd).expect("legal");
        }
        assert!(game.is_over(), "{what} finished the game");
        game
    }

    /// Seats for [`contenders_game`]: `search` decides every 5th command (searches are slow in
    /// unoptimized test builds), `other` the rest.
    fn every_fifth(search: Contender, other: Contender) -> impl Fn(usize, &Game) -> Contender {
        move |ply, _| if ply % 5 == 0 { search } else { other }
    }

    /// A game played to its end by the easy bot from `seed`.
    fn finished_game(seed: u64) -> Game {
        let mut game = Game::new(seed, Settings::default());
        let mut bot = Bot::new(seed);
        for _ in 0..3000 {
            let Some(cmd) = bot.choose(&game) else { break };
            game.apply(cmd).expect("legal");
        }
        assert!(game.is_over());
        game
    }

    #[test]
    fn a_cut_rollouts_score_is_a_chance_and_exact_once_the_game_is_over() {
        let hard = Level::Hard.config().expect("hard searches");
        let scores = [
            CutScore::Odds,
            CutScore::Partner,
            CutScore::OddsCalibrated,
            CutScore::OddsCalibratedByDeck,
            CutScore::Blend,
        ];
        let score = |cut, game: &Game, me| search::cut_score(&Config { cut, ..hard }, game, me);
        let mut scored = 0;
        for seed in [21, 22] {
            for game in searched_positions(seed, 6) {
                for me in Player::BOTH {
                    for cut in scores {
                        let v = score(cut, &game, me);
                        assert!((0.0..=1.0).contains(&v), "{cut:?}: {v}");
                    }
                    scored += 1;
                }
            }
        }
        assert!(scored >= 20, "only {scored} positions");
        for seed in [23, 24] {
            let game = finished_game(seed);
            let winner = game.winner().expect("a winner");
            assert_eq!(sparring::game_chance(&game, winner), 1.0);
            assert_eq!(sparring::game_chance(&game, winner.opponent()), 0.0);
            for cut in scores {
                assert_eq!(score(cut, &game, winner), 1.0, "{cut:?}");
                assert_eq!(score(cut, &game, winner.opponent()), 0.0, "{cut:?}");
            }
        }
    }

    #[test]
    fn a_won_flag_raises_the_partners_cut_score() {
        // The same position with one more open flag given to a player: its chance of
        // winning the game does not fall, the other player's does not rise.
        let mut compared = 0;
        for game in searched_positions(25, 6) {
            let me = game.current();
            let Some(open) = game.flags().iter().position(|f| f.owner.is_none()) else {
                continue;
            };
            let mut won = game.clone();
            won.set_flag_owner_for_tests(open, me);
            if won.is_over() {
                continue;
            }
            let (before, after) = (
                sparring::game_chance(&game, me),
                sparring::game_chance(&won, me),
            );
            assert!(after >= before - 1e-12, "{before} -> {after}");
            compared += 1;
        }
        assert!(compared >= 3, "only {compared} positions");
    }

    #[test]
    fn hard_cut_plays_legal_moves_the_same_way_from_the_same_seed() {
        for (i, game) in searched_positions(26, 3).into_iter().enumerate() {
            let legal = game.legal_commands();
            for name in [
                "hard-cut-8",
                "hard-cut-odds-8",
                "hard-cut-odds-ways-8",
                "hard-low-20",
                "hard-low-odds-ways-20",
            ] {
                let c = Contender::from_name(name).expect(name);
                let first = c.choose(&game, i as u64, &mut RandomPlayer::new(0));
                assert!(legal.contains(&first.expect("a move")), "{name}");
                let again = c.choose(&game, i as u64, &mut RandomPlayer::new(1));
                assert_eq!(first, again, "{name}");
            }
        }
    }

    #[test]
    fn hard_cut_plays_a_whole_game_legally() {
        let cut = Contender::from_name("hard-cut-odds-4").expect("named");
        contenders_game(
            27,
            "hard-cut-odds-4",
            every_fifth(cut, Contender::Level(Level::Easy)),
        );
    }

    #[test]
    fn hard_low_plays_a_whole_game_legally() {
        let low = Contender::from_name("hard-low-odds-ways-28").expect("named");
        contenders_game(
            28,
            "hard-low-odds-ways-28",
            every_fifth(low, Contender::Level(Level::Easy)),
        );
    }

    /// The named contender, every fifth decision of a game against the partner, plays the
    /// same legal game again from the same seed (`contenders_game` checks each move).
    fn assert_plays_the_same_again(name: &str, seed: u64) {
        let contender = Contender::from_name(name).expect(name);
        let play = || {
            contenders_game(seed, name, every_fifth(contender, Contender::Sparring))
                .log()
                .to_vec()
        };
        assert_eq!(play(), play(), "{name}");
    }

    #[test]
    fn hard_wide_plays_whole_games_legally_and_the_same_again_from_its_seed() {
        assert_plays_the_same_again("hard-wide-24", 31);
    }

    #[test]
    fn hard_replies_plays_whole_games_legally_and_the_same_again_from_its_seed() {
        assert_plays_the_same_again("hard-replies-worst-3", 29);
        assert_plays_the_same_again("hard-replies-odds-4", 30);
    }

    #[test]
    fn hard_model_plays_whole_games_legally_and_the_same_again_from_its_seed() {
        assert_plays_the_same_again("hard-model-40", 32);
    }

    #[test]
    fn hard_is_plays_whole_games_legally_and_the_same_again_from_its_seed() {
        // The replies alone, and the deepest tree the harness names.
        assert_plays_the_same_again("hard-is-1-c25", 34);
        assert_plays_the_same_again("hard-is-3-c10", 35);
        assert_plays_the_same_again("hard-is-sh-2-c25", 36);
        assert_plays_the_same_again("hard-is-sh-2-c25-partner-replies-2", 37);
        assert_plays_the_same_again("hard-close-100", 38);
        assert_plays_the_same_again("hard-is-sh-2-c25-partner-model", 39);
    }

    #[test]
    fn hard_model_answers_the_same_whole_or_in_slices() {
        let hard = hard_8_900();
        let config = Config {
            deals: search::Deals::Model(40.0),
            ..hard
        };
        for (i, game) in searched_positions(33, 2).into_iter().enumerate() {
            let seed = 60 + i as u64;
            let whole = choose_with(&game, config, seed);
            assert!(game.legal_commands().contains(&whole.expect("a move")));
            let Some(sliced) = answer_in_slices(&game, seed, config, 13) else {
                panic!("position {i}: nothing searched");
            };
            assert_eq!(sliced, whole, "position {i}");
        }
    }

    #[test]
    fn hard_replies_answers_the_same_whole_or_in_slices() {
        for (i, game) in searched_positions(31, 2).into_iter().enumerate() {
            let seed = 50 + i as u64;
            for replies in [Replies::Worst(3), Replies::Odds(4)] {
                let config = replies_config(replies);
                assert_eq!(config.replies, replies);
                let whole = choose_with(&game, config, seed);
                assert!(game.legal_commands().contains(&whole.expect("a move")));
                let Some(sliced) = answer_in_slices(&game, seed, config, 13) else {
                    panic!("position {i}: nothing searched");
                };
                assert_eq!(sliced, whole, "position {i}, {replies:?}");
            }
        }
    }

    #[test]
    fn levels_have_stable_codes() {
        for level in Level::ALL {
            assert_eq!(Level::from_code(level.code()), Some(level));
        }
        assert_eq!(Level::from_code("expert"), Some(Level::Expert));
        assert_eq!(Level::from_code("master"), None);
        assert_eq!(Level::default(), Level::Normal);
    }
}
