//! Computer opponents at three levels, and the players and matches the harness measures them with.
//!
//! - `easy` is the original one-ply bot ([`Bot`]).
//! - `normal` and `hard` search: they rank the legal moves with an evaluation built on
//!   exact completion odds and flag positions, then try the best few in random deals of
//!   the cards they cannot see, played out to the end by a fast policy ([`Thinker`]).
//!
//! Every level reads only what its seat may know (its hand, the table, the discards,
//! the cards it put back with Scout, and counts), and is deterministic given its seed.
//! A [`Thinker`] does its work in small steps so a page can spread it over many frames;
//! the move does not depend on how the work was split.

mod easy;
mod eval;
mod knowledge;
mod ladder;
mod playout;
mod reach;
mod search;
mod sparring;

pub use easy::Bot;
pub use sparring::Sparring;

use crate::game::{Command, Game, Player, Settings};
use search::{Config, Policy, Progress, Search};
use seeded_rng::Rng;
use serde::{Deserialize, Serialize};

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
    /// A wider, longer search: 8 candidates, 900 playouts (under 1 s in a browser).
    Hard,
}

impl Level {
    pub const ALL: [Level; 3] = [Level::Easy, Level::Normal, Level::Hard];

    /// A stable name for storage and addresses: `easy`, `normal`, `hard`.
    pub fn code(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Normal => "normal",
            Level::Hard => "hard",
        }
    }

    pub fn from_code(code: &str) -> Option<Level> {
        Level::ALL.into_iter().find(|l| l.code() == code)
    }

    pub(crate) fn config(self) -> Option<Config> {
        let policy = Policy::default();
        match self {
            Level::Easy => None,
            Level::Normal => Some(Config {
                width: 5,
                rollouts: 60,
                depth: FULL,
                params: policy.params,
                policy,
                playout: playout::Playout::default(),
            }),
            Level::Hard => Some(Config {
                width: 8,
                rollouts: 900,
                depth: FULL,
                params: policy.params,
                policy,
                playout: playout::Playout::default(),
            }),
        }
    }
}

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
        Thinker { state }
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

/// A seat at a measured match: one of the levels or the random baseline.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Contender {
    Level(Level),
    Random,
    /// The probability-based sparring partner ([`Sparring`]).
    Sparring,
}

impl Contender {
    pub fn name(self) -> &'static str {
        match self {
            Contender::Level(l) => l.code(),
            Contender::Random => "random",
            Contender::Sparring => "sparring",
        }
    }

    /// The contender named `name` (a level's code, `random` or `sparring`).
    pub fn from_name(name: &str) -> Option<Contender> {
        match name {
            "random" => Some(Contender::Random),
            "sparring" => Some(Contender::Sparring),
            other => Level::from_code(other).map(Contender::Level),
        }
    }
}

/// Plays a whole game from `seed` between `seats[0]` (P0) and `seats[1]` (P1); each
/// decision of a level uses [`move_seed`] with its own salt. Returns the winner, or
/// `None` for a stalemate or a game stopped after `max_commands`.
pub fn play_match(seed: u64, seats: [Contender; 2], max_commands: usize) -> Option<Player> {
    let mut game = Game::new(seed, Settings::default());
    let mut random = RandomPlayer::new(seed ^ 0xABCD);
    for _ in 0..max_commands {
        if game.is_over() {
            break;
        }
        let seat = game.current();
        let cmd = match seats[seat.index()] {
            Contender::Level(level) => {
                let salt = seat.index() as u64 * 0x5851_F42D_4C95_7F2D;
                choose(&game, level, move_seed(seed ^ salt, game.log().len()))
            }
            Contender::Random => random.choose(&game),
            Contender::Sparring => Sparring::new().choose(&game),
        };
        let Some(cmd) = cmd else { break };
        if game.apply(cmd).is_err() {
            break;
        }
    }
    game.winner()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_level_returns_legal_commands_through_a_whole_game() {
        for level in Level::ALL {
            let mut game = Game::new(3, Settings::default());
            for ply in 0..400 {
                // The searching levels decide every seventh command (they are slow in
                // unoptimized test builds); the easy bot plays the rest.
                let chooser = if ply % 7 == 0 { level } else { Level::Easy };
                let Some(cmd) = choose(&game, chooser, ply) else {
                    break;
                };
                assert!(game.legal_commands().contains(&cmd), "{level:?}: {cmd:?}");
                game.apply(cmd).expect("legal");
            }
            assert!(game.is_over(), "{level:?} finished the game");
        }
    }

    #[test]
    fn the_move_does_not_depend_on_how_the_work_is_sliced() {
        let mut game = Game::new(21, Settings::default());
        for ply in 0..8 {
            let whole = choose(&game, Level::Normal, ply);
            let mut thinker = Thinker::new(&game, Level::Normal, ply);
            let sliced = loop {
                if let Thought::Done(c) = thinker.step(1 + (ply as usize % 3)) {
                    break c;
                }
            };
            assert_eq!(whole, sliced);
            game.apply(whole.expect("a move")).expect("legal");
        }
    }

    #[test]
    fn levels_have_stable_codes() {
        for level in Level::ALL {
            assert_eq!(Level::from_code(level.code()), Some(level));
        }
        assert_eq!(Level::from_code("expert"), None);
        assert_eq!(Level::default(), Level::Normal);
    }
}
