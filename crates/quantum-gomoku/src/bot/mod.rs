//! A computer opponent that chooses where to place and when to observe from win probabilities.
//!
//! The bot reads only what both players see: the stones with their probability
//! types, whose turn it is and the observation counters. It takes a
//! [`GameState`] and the [`GameOptions`], never a [`crate::Game`], so it cannot
//! reach the game's generator and the seed of the next collapse.
//!
//! # How it decides
//!
//! An observation after a placement wins for the observer with the chance
//! that its colour has a line (both colours count for the observer), loses
//! with the chance that only the other colour has one, and otherwise changes
//! nothing but the counter (which [`BotConfig::observation_cost`] charges).
//! So the bot weighs, for each cell it could place on, the value of observing
//! right away against the value of letting the opponent move, and looks three
//! placements deep (its own, every reply, its own next one), with an
//! observation decision after each; past the last one a position is worth
//! [`BotConfig::horizon_weight`] times "my line chance minus the opponent's".
//! Beyond the second placement only cells that complete a window of occupied
//! cells can change any chance (they are also where a completion is blocked),
//! so those few cells are searched in full.
//!
//! The chances inside the search come from one set of seeded random collapses
//! ("lanes") shared by every candidate, evaluated 64 collapses per machine
//! word: a stone is a bitmask over the lanes where it is black, a line is the
//! AND of its cells' masks. Sharing the collapses makes the differences
//! between candidates much less noisy than independent estimates would be.
//! Whether to observe after the chosen placement is then decided on the
//! engine's exact probability (sampled on crowded boards).
//!
//! Where the search sees no difference (early on, no line can be completed
//! within three placements, so every reply to a first stone looks alike), a
//! small shape term decides: the windows of `win_length` cells a placement
//! keeps open for the bot and those of the opponent it spoils.

use crate::bitboard::Geometry;
use crate::model::{Player, Position, ProbabilityType, Stone};
use crate::options::{GameOptions, OBSERVATIONS_PER_PLAYER, OptionsError};
use crate::probability::{ProbabilityConfig, WinProbability, win_probability_of};
use crate::state::{GameState, GameStatus};
use seeded_rng::Rng;
use serde::{Deserialize, Serialize};

/// How the bot plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Strategy {
    /// The three-ply search over win probabilities described in the module docs.
    Search,
    /// A one-ply baseline: places where an observation right after would be
    /// best for it (win minus loss chance; among equal cells, next to the most
    /// of its own stones), and observes when its chance to win is at least 1/2.
    Greedy,
}

/// Tuning of the bot. [`BotConfig::default`] is what the page and the
/// harness use.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct BotConfig {
    /// Search or the greedy baseline.
    pub strategy: Strategy,
    /// Random collapses shared by every candidate of the search (rounded up to
    /// a multiple of 64, between 64 and [`MAX_SAMPLES`]).
    pub samples: u32,
    /// Placements looked ahead (2 to [`MAX_DEPTH`]): the bot's, the
    /// opponent's reply, the bot's next, ...
    pub depth: usize,
    /// Chances evaluated per decision (each one a placement in the shared
    /// collapses) before the search stops deepening further placements; the
    /// placements are deepened best first, at least one always.
    pub budget: usize,
    /// Observe whenever the chance of winning at once is at least this,
    /// whatever waiting might bring.
    pub observe_at: f64,
    /// The value of a position that nobody observes, per unit of "my line
    /// chance minus the opponent's" (the horizon of the search).
    pub horizon_weight: f64,
    /// What a missed observation costs the observer besides the turn (one of
    /// their few observations), in the same units as a win (1) and a loss (-1).
    pub observation_cost: f64,
    /// How the probabilities behind the observation decision are computed
    /// (exact for few stones on lines, sampled otherwise).
    pub probability: ProbabilityConfig,
}

/// The largest number of shared collapses the search accepts.
pub const MAX_SAMPLES: u32 = 4096;
const MAX_WORDS: usize = MAX_SAMPLES as usize / 64;

impl Default for BotConfig {
    fn default() -> Self {
        BotConfig {
            strategy: Strategy::Search,
            samples: 1024,
            depth: 3,
            budget: 200_000,
            observe_at: 0.8,
            horizon_weight: 0.5,
            observation_cost: 0.1,
            probability: ProbabilityConfig {
                // 2^14 assignments take about a millisecond; above that the
                // 20,000 samples cost about the same and err by under 0.4%.
                exact_max_stones: 14,
                samples: 20_000,
                ..ProbabilityConfig::default()
            },
        }
    }
}

/// What the bot does on its turn to place.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Turn {
    /// Where it places.
    pub position: Position,
    /// Whether it observes right after placing.
    pub observe: bool,
    /// The chances of an observation right after the placement, from which
    /// `observe` was decided.
    pub after: WinProbability,
}

/// The bot's answer for one player.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum Decision {
    /// It is the player's turn to place.
    Place(Turn),
    /// The player placed the latest stone and observes now.
    Observe,
    /// The player placed the latest stone and lets the opponent move.
    Pass,
}

/// Why the bot cannot decide. Nothing is changed either way: the bot only reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum BotError {
    /// The options cannot make a game.
    #[error("invalid options: {0}")]
    Options(#[from] OptionsError),
    /// The state contradicts the options or itself.
    #[error("inconsistent game state: {0}")]
    InvalidState(&'static str),
    /// The game is over.
    #[error("the game is over ({0})")]
    GameOver(GameStatus),
    /// The player may neither place nor observe now.
    #[error("{0} has nothing to decide now")]
    NothingToDecide(Player),
}

/// A computer player: a configuration and a seed. The same seed, state and
/// configuration always give the same decision.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bot {
    config: BotConfig,
    seed: u64,
}

impl Bot {
    /// The search bot with the default configuration.
    pub fn new(seed: u64) -> Bot {
        Bot::with_config(BotConfig::default(), seed)
    }

    /// The one-ply baseline (see [`Strategy::Greedy`]).
    pub fn greedy(seed: u64) -> Bot {
        Bot::with_config(
            BotConfig {
                strategy: Strategy::Greedy,
                ..BotConfig::default()
            },
            seed,
        )
    }

    /// A bot with any configuration.
    pub fn with_config(config: BotConfig, seed: u64) -> Bot {
        Bot { config, seed }
    }

    /// The configuration.
    pub fn config(&self) -> &BotConfig {
        &self.config
    }

    /// What `player` does now: place (with the decision to observe after it)
    /// when it is their turn; observe or pass when they placed the latest
    /// stone and may observe.
    pub fn decide(
        &self,
        state: &GameState,
        options: GameOptions,
        player: Player,
    ) -> Result<Decision, BotError> {
        let table = Table::new(state, options)?;
        if state.current_player == player && table.has_empty() {
            return Ok(Decision::Place(self.turn_on(&table)));
        }
        if state.last_mover == Some(player) && state.observations_remaining(player) > 0 {
            return Ok(if self.observe_now(&table, player) {
                Decision::Observe
            } else {
                Decision::Pass
            });
        }
        Err(BotError::NothingToDecide(player))
    }

    /// The current player's placement, and whether they observe after it.
    pub fn turn(&self, state: &GameState, options: GameOptions) -> Result<Turn, BotError> {
        let table = Table::new(state, options)?;
        if !table.has_empty() {
            return Err(BotError::NothingToDecide(state.current_player));
        }
        Ok(self.turn_on(&table))
    }

    fn rng(&self, table: &Table<'_>, salt: u64) -> Rng {
        // The turn number and counters vary the collapses from turn to turn;
        // nothing hidden goes in.
        let s = table.state;
        Rng::new(
            self.seed
                ^ u64::from(s.turn_count).wrapping_mul(0x9E37_79B9_7F4A_7C15)
                ^ (u64::from(s.black_observations_remaining) << 40)
                ^ (u64::from(s.white_observations_remaining) << 48)
                ^ salt.wrapping_mul(0xD1B5_4A32_D192_ED03),
        )
    }

    fn turn_on(&self, table: &Table<'_>) -> Turn {
        let me = table.state.current_player;
        let mut rng = self.rng(table, 1);
        let plan = match self.config.strategy {
            Strategy::Search => search(table, &self.config, &mut rng),
            Strategy::Greedy => greedy(table, &self.config, &mut rng),
        };
        let after_state = table.with_stone(plan.position, me);
        let after = win_probability_of(table.geometry, &after_state, &self.config.probability);
        let can_observe = table.state.observations_remaining(me) > 0;
        let observe = can_observe
            && match self.config.strategy {
                Strategy::Search => {
                    self.worth_observing(&after, me, plan.wait, plan.wait_after_miss)
                }
                Strategy::Greedy => after.wins(me, me) >= 0.5,
            };
        Turn {
            position: plan.position,
            observe,
            after,
        }
    }

    /// Observing is worth it when the chance of winning at once is high
    /// enough, or when win minus loss, plus the game going on after a miss,
    /// is worth more than letting the opponent move.
    fn worth_observing(&self, p: &WinProbability, me: Player, wait: f64, after_miss: f64) -> bool {
        let win = p.wins(me, me);
        let loss = p.wins(me.opponent(), me);
        let neither = (1.0 - win - loss).max(0.0);
        win >= self.config.observe_at
            || win - loss + neither * (after_miss - self.config.observation_cost) > wait
    }

    /// Whether `player`, who placed the latest stone, observes now. The
    /// value of waiting is the opponent's best turn seen from their side.
    fn observe_now(&self, table: &Table<'_>, player: Player) -> bool {
        let p = win_probability_of(table.geometry, table.state, &self.config.probability);
        if self.config.strategy == Strategy::Greedy {
            return p.wins(player, player) >= 0.5;
        }
        if !table.has_empty() {
            // Nobody can place any more: only observing can still decide the game.
            return p.wins(player, player) > p.wins(player.opponent(), player);
        }
        let mut rng = self.rng(table, 2);
        let theirs = search(table, &self.config, &mut rng);
        let mut missed = table.state.clone();
        let left = missed.observations_remaining_mut(player);
        *left = left.saturating_sub(1);
        let missed_table = Table {
            state: &missed,
            ..*table
        };
        let theirs_after_miss = search(&missed_table, &self.config, &mut self.rng(table, 2));
        self.worth_observing(&p, player, -theirs.value, -theirs_after_miss.value)
    }
}

/// A validated view of the public state.
#[derive(Debug, Clone, Copy)]
struct Table<'a> {
    state: &'a GameState,
    n: usize,
    win_length: usize,
    geometry: Geometry,
}

impl<'a> Table<'a> {
    fn new(state: &'a GameState, options: GameOptions) -> Result<Table<'a>, BotError> {
        let options = options.validate()?;
        let n = options.board_size;
        if state.board.len() != n || state.board.iter().any(|row| row.len() != n) {
            return Err(BotError::InvalidState(
                "board dimensions differ from the options",
            ));
        }
        if state.black_observations_remaining > OBSERVATIONS_PER_PLAYER
            || state.white_observations_remaining > OBSERVATIONS_PER_PLAYER
        {
            return Err(BotError::InvalidState(
                "observation counter above the maximum",
            ));
        }
        if u32::try_from(state.stone_count()).ok() != Some(state.turn_count) {
            // The stone types ahead follow from the turn number.
            return Err(BotError::InvalidState(
                "turnCount differs from the number of stones",
            ));
        }
        if state.status != GameStatus::Playing {
            return Err(BotError::GameOver(state.status));
        }
        if state.stones().any(|(_, s)| s.observed_color.is_some()) {
            return Err(BotError::InvalidState(
                "observed stones in a game that goes on",
            ));
        }
        Ok(Table {
            state,
            n,
            win_length: options.win_length,
            geometry: Geometry::new(n, options.win_length),
        })
    }

    fn has_empty(&self) -> bool {
        !self.state.is_full()
    }

    fn position(&self, cell: usize) -> Position {
        Position::new(cell / self.n, cell % self.n)
    }

    /// The type of the stone placed `ahead` placements from now (0: the
    /// current player's next one), by the rules' fixed rotation.
    fn type_ahead(&self, ahead: u32) -> ProbabilityType {
        let turn = self.state.turn_count + ahead;
        let mover = if ahead.is_multiple_of(2) {
            self.state.current_player
        } else {
            self.state.current_player.opponent()
        };
        ProbabilityType::for_move(mover, turn / 2)
    }

    /// The state with the current player's next stone at `p` (for the
    /// observation decision after it).
    fn with_stone(&self, p: Position, player: Player) -> GameState {
        let mut s = self.state.clone();
        if let Some(cell) = s.board.get_mut(p.row).and_then(|r| r.get_mut(p.col)) {
            *cell = Some(Stone {
                placed_by: player,
                turn_placed: s.turn_count + 1,
                probability_type: self.type_ahead(0),
                observed_color: None,
            });
        }
        s.turn_count += 1;
        s.current_player = player.opponent();
        s.last_mover = Some(player);
        s
    }
}

/// The winning lines of the board: for every cell, the windows of
/// `win_length` cells through it; and every window once.
#[derive(Debug)]
struct Windows {
    /// `win_length - 1`: the other cells of a window through a given cell.
    others: usize,
    /// Per cell, its windows' other cells, flattened (`others` per window).
    through: Vec<Vec<u16>>,
    /// Every window's cells, flattened (`others + 1` per window).
    all: Vec<u16>,
}

impl Windows {
    fn new(n: usize, w: usize) -> Windows {
        let mut through = vec![Vec::new(); n * n];
        let mut all = Vec::new();
        let dirs: [(isize, isize); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];
        let (n_i, w_i) = (n as isize, w as isize);
        for r in 0..n_i {
            for c in 0..n_i {
                for (dr, dc) in dirs {
                    let (er, ec) = (r + dr * (w_i - 1), c + dc * (w_i - 1));
                    if er < 0 || er >= n_i || ec < 0 || ec >= n_i {
                        continue;
                    }
                    // n <= 19, so every cell index fits a u16.
                    let cells: Vec<u16> = (0..w_i)
                        .map(|k| ((r + dr * k) * n_i + (c + dc * k)) as u16)
                        .collect();
                    all.extend_from_slice(&cells);
                    for &x in &cells {
                        if let Some(list) = through.get_mut(usize::from(x)) {
                            list.extend(cells.iter().filter(|&&y| y != x));
                        }
                    }
                }
            }
        }
        Windows {
            others: w - 1,
            through,
            all,
        }
    }
}

/// Chances of the outcomes of an observation in the shared collapses.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
struct Odds {
    black: f64,
    white: f64,
    both: f64,
}

impl Odds {
    fn own(&self, p: Player) -> f64 {
        match p {
            Player::Black => self.black,
            Player::White => self.white,
        }
    }

    /// (win, loss, neither) if `observer` observed now.
    fn outcome(&self, observer: Player) -> (f64, f64, f64) {
        let win = self.own(observer);
        let loss = self.own(observer.opponent()) - self.both;
        (win, loss, (1.0 - win - loss).max(0.0))
    }

    /// How much better `p`'s line chances are than the opponent's.
    fn edge(&self, p: Player) -> f64 {
        self.own(p) - self.own(p.opponent())
    }
}

/// The value, for the player who just placed, of the position after their
/// placement: observe now (when they may) or leave it to the opponent.
fn choose(
    odds: &Odds,
    mover: Player,
    can_observe: bool,
    wait: f64,
    after_miss: f64,
    cost: f64,
) -> f64 {
    if !can_observe {
        return wait;
    }
    let (win, loss, neither) = odds.outcome(mover);
    (win - loss + neither * (after_miss - cost)).max(wait)
}

/// The board in shared random collapses: for each cell, the lanes where it is
/// black and where it is white (both empty for an empty cell).
#[derive(Debug)]
struct Lanes {
    words: usize,
    occupied: Vec<bool>,
    black: Vec<u64>,
    white: Vec<u64>,
    /// Per placement of the search (0: the current player's next stone, 1:
    /// the reply, ...), where a stone of that placement's type would be black
    /// on each empty cell.
    black_if: Vec<Vec<u64>>,
    windows: Windows,
}

/// `P(black) * 2^16`: a uniform 16-bit draw below it means black. Sixteen
/// bits are plenty (0.9 becomes 0.899994) and give four draws per `u64`.
fn threshold(t: ProbabilityType) -> u32 {
    (t.black_probability() * 65_536.0).round() as u32
}

impl Lanes {
    fn new(table: &Table<'_>, samples: u32, depth: usize, rng: &mut Rng) -> Lanes {
        let depth = depth.clamp(1, MAX_DEPTH);
        let words = (samples.clamp(64, MAX_SAMPLES) as usize).div_ceil(64);
        let cells = table.n * table.n;
        let mut lanes = Lanes {
            words,
            occupied: vec![false; cells],
            black: vec![0; cells * words],
            white: vec![0; cells * words],
            black_if: vec![vec![0; cells * words]; depth],
            windows: Windows::new(table.n, table.win_length),
        };
        // The thresholds repeat every four placements (each player alternates
        // two types), so `depth` entries cover every placement searched.
        let plies: Vec<u32> = (0..depth as u32)
            .map(|k| threshold(table.type_ahead(k)))
            .collect();
        for cell in 0..cells {
            let stone = table
                .state
                .stone_at(table.position(cell))
                .map(|s| threshold(s.probability_type));
            lanes.occupied[cell] = stone.is_some();
            for word in 0..words {
                let mut bits = [0u64; MAX_DEPTH + 1];
                for quad in 0..16 {
                    let r = rng.next_u64();
                    for part in 0..4 {
                        let u = ((r >> (16 * part)) & 0xFFFF) as u32;
                        let bit = 1u64 << (quad * 4 + part);
                        if let Some(t) = stone {
                            bits[0] |= if u < t { bit } else { 0 };
                        } else {
                            for (k, &t) in plies.iter().enumerate() {
                                bits[k + 1] |= if u < t { bit } else { 0 };
                            }
                        }
                    }
                }
                let i = cell * words + word;
                if stone.is_some() {
                    lanes.black[i] = bits[0];
                    lanes.white[i] = !bits[0];
                } else {
                    for (k, plane) in lanes.black_if.iter_mut().enumerate() {
                        plane[i] = bits[k + 1];
                    }
                }
            }
        }
        lanes
    }

    fn place(&mut self, cell: usize, ply: usize) {
        let w = self.words;
        self.occupied[cell] = true;
        for i in cell * w..(cell + 1) * w {
            let b = self.black_if[ply][i];
            self.black[i] = b;
            self.white[i] = !b;
        }
    }

    fn remove(&mut self, cell: usize) {
        let w = self.words;
        self.occupied[cell] = false;
        self.black[cell * w..(cell + 1) * w].fill(0);
        self.white[cell * w..(cell + 1) * w].fill(0);
    }

    /// ORs into `hb`/`hw` the lanes where a black/white line runs through
    /// `cell`; false when no window through it is fully occupied (nothing
    /// changed).
    fn lines_through(&self, cell: usize, hb: &mut [u64], hw: &mut [u64]) -> bool {
        let w = self.words;
        let k = self.windows.others;
        let mut ab = [0u64; MAX_WORDS];
        let mut aw = [0u64; MAX_WORDS];
        let (ab, aw) = (&mut ab[..w], &mut aw[..w]);
        let mut any = false;
        for window in self.windows.through[cell].chunks_exact(k) {
            if !window.iter().all(|&o| self.occupied[usize::from(o)]) {
                continue;
            }
            any = true;
            ab.copy_from_slice(&self.black[cell * w..(cell + 1) * w]);
            aw.copy_from_slice(&self.white[cell * w..(cell + 1) * w]);
            self.or_line(window, ab, aw, hb, hw);
        }
        any
    }

    /// ANDs the masks of `window`'s cells into `ab`/`aw` (which hold the rest of the
    /// line) and ORs the lanes where the whole line is black/white into `hb`/`hw`.
    #[inline]
    fn or_line(
        &self,
        window: &[u16],
        ab: &mut [u64],
        aw: &mut [u64],
        hb: &mut [u64],
        hw: &mut [u64],
    ) {
        let w = self.words;
        for &o in window {
            let o = usize::from(o) * w;
            for i in 0..w {
                ab[i] &= self.black[o + i];
                aw[i] &= self.white[o + i];
            }
        }
        for i in 0..w {
            hb[i] |= ab[i];
            hw[i] |= aw[i];
        }
    }

    /// The lanes where a black/white line exists anywhere.
    fn lines_all(&self) -> (Vec<u64>, Vec<u64>) {
        let w = self.words;
        let mut hb = vec![0u64; w];
        let mut hw = vec![0u64; w];
        let mut ab = vec![0u64; w];
        let mut aw = vec![0u64; w];
        for window in self.windows.all.chunks_exact(self.windows.others + 1) {
            if !window.iter().all(|&o| self.occupied[usize::from(o)]) {
                continue;
            }
            ab.fill(!0);
            aw.fill(!0);
            self.or_line(window, &mut ab, &mut aw, &mut hb, &mut hw);
        }
        (hb, hw)
    }

    fn odds(&self, hb: &[u64], hw: &[u64]) -> Odds {
        let (mut b, mut wh, mut both) = (0u32, 0u32, 0u32);
        for (x, y) in hb.iter().zip(hw) {
            b += x.count_ones();
            wh += y.count_ones();
            both += (x & y).count_ones();
        }
        let total = (self.words * 64) as f64;
        Odds {
            black: f64::from(b) / total,
            white: f64::from(wh) / total,
            both: f64::from(both) / total,
        }
    }

    /// The empty cells that would complete a window whose other cells are all
    /// occupied: the only placements that can change the chances at once.
    fn completions_all(&self) -> Vec<usize> {
        let mut out = Vec::new();
        let mut seen = vec![false; self.occupied.len()];
        for window in self.windows.all.chunks_exact(self.windows.others + 1) {
            let mut empty = window.iter().filter(|&&x| !self.occupied[usize::from(x)]);
            if let (Some(&e), None) = (empty.next(), empty.next()) {
                let e = usize::from(e);
                if !seen[e] {
                    seen[e] = true;
                    out.push(e);
                }
            }
        }
        out
    }

    /// [`Lanes::completions_all`] after stones were placed on `placed` (NONE
    /// is skipped), given the completions before them: those still empty, and
    /// the windows through the new stones. Marks `stamp` with `generation`.
    fn completions(
        &self,
        before: &[usize],
        placed: &[usize],
        out: &mut Vec<usize>,
        stamp: &mut [u32],
        generation: u32,
    ) {
        out.clear();
        for &e in before {
            if !self.occupied[e] && stamp[e] != generation {
                stamp[e] = generation;
                out.push(e);
            }
        }
        for &x in placed.iter().filter(|&&x| x != NONE) {
            for window in self.windows.through[x].chunks_exact(self.windows.others) {
                let mut empty = window.iter().filter(|&&y| !self.occupied[usize::from(y)]);
                if let (Some(&e), None) = (empty.next(), empty.next()) {
                    let e = usize::from(e);
                    if stamp[e] != generation {
                        stamp[e] = generation;
                        out.push(e);
                    }
                }
            }
        }
    }

    /// Places `cell` for `ply` and leaves the stone on the board; writes the
    /// lines of `base` plus those through `cell` to `out` and returns their
    /// odds (`base_odds` when the stone completes no window).
    fn place_and_score(
        &mut self,
        cell: usize,
        ply: usize,
        base: (&[u64], &[u64], Odds),
        out: (&mut [u64], &mut [u64]),
    ) -> Odds {
        self.place(cell, ply);
        out.0.copy_from_slice(base.0);
        out.1.copy_from_slice(base.1);
        if self.lines_through(cell, out.0, out.1) {
            self.odds(out.0, out.1)
        } else {
            base.2
        }
    }
}

/// Empty cells within `radius` (Chebyshev) of a stone, marked in `near`.
fn mark_near(
    table: &Table<'_>,
    occupied: &[bool],
    around: usize,
    radius: usize,
    near: &mut [bool],
) {
    let n = table.n;
    let (r0, c0) = (around / n, around % n);
    for r in r0.saturating_sub(radius)..=(r0 + radius).min(n - 1) {
        for c in c0.saturating_sub(radius)..=(c0 + radius).min(n - 1) {
            let cell = r * n + c;
            if !occupied[cell] {
                near[cell] = true;
            }
        }
    }
}

/// The placement the search chose, and the values of waiting (not observing
/// after it) and of the game going on after a missed observation.
#[derive(Debug, Clone, Copy)]
struct Plan {
    position: Position,
    /// The value of the chosen placement with the best observation decision.
    value: f64,
    wait: f64,
    wait_after_miss: f64,
}

fn centre(table: &Table<'_>) -> Position {
    // The centre, or the empty cell nearest to it.
    let mid = (table.n / 2) as isize;
    (0..table.n * table.n)
        .map(|cell| table.position(cell))
        .filter(|&p| table.state.stone_at(p).is_none())
        .min_by_key(|p| {
            let (dr, dc) = (p.row as isize - mid, p.col as isize - mid);
            (dr.abs().max(dc.abs()), dr.abs() + dc.abs(), p.row, p.col)
        })
        .unwrap_or(Position::new(0, 0))
}

/// Candidate cells for the next placement: the empty cells near a stone
/// (shuffled by the seed so that equal candidates are chosen among fairly),
/// and one far cell, if any, standing for "a placement that changes nothing".
fn candidates(table: &Table<'_>, occupied: &[bool], rng: &mut Rng) -> (Vec<usize>, Option<usize>) {
    let cells = table.n * table.n;
    let radius = (table.win_length - 1).clamp(1, 2);
    let mut near = vec![false; cells];
    let mut reach = vec![false; cells];
    for cell in (0..cells).filter(|&c| occupied[c]) {
        mark_near(table, occupied, cell, radius, &mut near);
        mark_near(table, occupied, cell, table.win_length, &mut reach);
    }
    let mut out: Vec<usize> = (0..cells).filter(|&c| near[c]).collect();
    for i in (1..out.len()).rev() {
        out.swap(i, rng.index(i + 1));
    }
    let outside: Vec<usize> = (0..cells).filter(|&c| !occupied[c] && !reach[c]).collect();
    let far = (!outside.is_empty()).then(|| outside[rng.index(outside.len())]);
    (out, far)
}

/// The search (see the module docs).
///
/// The first two placements are tried on every candidate cell. Deeper, only
/// the cells that complete a window of occupied cells are tried, plus "a
/// placement that changes nothing": any other stone lies on no line yet, so
/// it changes no chance at once, and the completion cells are also where a
/// completion gets blocked.
fn search(table: &Table<'_>, config: &BotConfig, rng: &mut Rng) -> Plan {
    let me = table.state.current_player;
    let opp = me.opponent();
    let counts = [
        table.state.observations_remaining(me),
        table.state.observations_remaining(opp),
    ];
    if table.state.stone_count() == 0 {
        return Plan {
            position: centre(table),
            value: 0.0,
            wait: 0.0,
            wait_after_miss: 0.0,
        };
    }
    let depth = config.depth.clamp(2, MAX_DEPTH);
    let mut lanes = Lanes::new(table, config.samples, depth, rng);
    let (hb0, hw0) = lanes.lines_all();
    let words = lanes.words;
    let cells = table.n * table.n;
    let radius = (table.win_length - 1).clamp(1, 2);
    let (near_roots, far) = candidates(table, &lanes.occupied, rng);
    let roots: Vec<usize> = near_roots.iter().copied().chain(far).collect();
    let singles = lanes.completions_all();
    let mut deep = Deep {
        singles,
        me,
        last: depth - 1,
        horizon: config.horizon_weight,
        cost: config.observation_cost,
        words,
        levels: vec![0; (MAX_DEPTH + 1) * 2 * words],
        level_odds: vec![lanes.odds(&hb0, &hw0); MAX_DEPTH + 1],
        stamp: vec![0; cells],
        generation: 0,
        spent: 0,
    };
    deep.levels[..words].copy_from_slice(&hb0);
    deep.levels[words..2 * words].copy_from_slice(&hw0);

    // Placements one and two everywhere; the chances after them give a first
    // estimate (the horizon right after the reply) that orders the roots.
    let mut tree: Vec<Root> = Vec::with_capacity(roots.len());
    for &c in &roots {
        let odds = deep.place(&mut lanes, 0, c);
        let mut replies = vec![(NONE, odds)];
        // The near cells, with those that became near because of `c`; NONE
        // stands in for every far one.
        let mut near = vec![false; cells];
        for &d in &near_roots {
            near[d] = d != c;
        }
        mark_near(table, &lanes.occupied, c, radius, &mut near);
        for d in (0..cells).filter(|&d| near[d]) {
            let o = deep.place(&mut lanes, 1, d);
            lanes.remove(d);
            replies.push((d, o));
        }
        lanes.remove(c);
        tree.push(Root {
            cell: c,
            odds,
            replies,
        });
    }
    let first = |root: &Root| {
        let wait = -root
            .replies
            .iter()
            .map(|(_, o)| {
                let h = deep.horizon * o.edge(opp);
                choose(o, opp, counts[1] > 0, h, h, deep.cost)
            })
            .fold(f64::NEG_INFINITY, f64::max);
        choose(&root.odds, me, counts[0] > 0, wait, wait, deep.cost)
    };
    let mut order: Vec<(usize, f64)> = tree
        .iter()
        .enumerate()
        .map(|(i, r)| (i, first(r)))
        .collect();
    order.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    deep.spent = tree.iter().map(|r| r.replies.len()).sum();

    // Then each root in that order, every reply, and the deeper placements,
    // while the budget lasts.
    let mut best: Option<(usize, f64, f64, f64, f64)> = None;
    let owner: Vec<Option<bool>> = (0..cells)
        .map(|c| {
            table
                .state
                .stone_at(table.position(c))
                .map(|s| s.placed_by == me)
        })
        .collect();
    let mut placed = Vec::with_capacity(MAX_DEPTH);
    for &(i, _) in &order {
        if best.is_some() && deep.spent >= config.budget {
            break;
        }
        let root = &tree[i];
        let deeper = deep.last >= 2;
        deep.place(&mut lanes, 0, root.cell);
        placed.push(root.cell);
        let mut reply_values = |c: [u8; 2]| {
            let mut best_reply = f64::NEG_INFINITY;
            for &(d, odds) in &root.replies {
                if d == NONE {
                    deep.keep(1);
                } else {
                    deep.place(&mut lanes, 1, d);
                }
                placed.push(d);
                let v = deep.after(&mut lanes, 1, odds, &mut placed, c);
                placed.pop();
                if d != NONE {
                    lanes.remove(d);
                }
                best_reply = best_reply.max(v);
            }
            -best_reply
        };
        let wait = reply_values(counts);
        // After a missed observation I have one fewer; it only matters
        // when it was my last and I could observe again deeper down.
        let miss = if counts[0] == 1 && deeper {
            reply_values([0, counts[1]])
        } else {
            wait
        };
        placed.pop();
        lanes.remove(root.cell);
        let value = choose(&root.odds, me, counts[0] > 0, wait, miss, deep.cost);
        let ranked = value + SHAPE_WEIGHT * shape(&lanes.windows, &owner, root.cell);
        if best.is_none_or(|b| ranked > b.4) {
            best = Some((i, value, wait, miss, ranked));
        }
    }
    match best.and_then(|b| tree.get(b.0).map(|r| (r, b))) {
        Some((root, (_, value, wait, wait_after_miss, _))) => Plan {
            position: table.position(root.cell),
            value,
            wait,
            wait_after_miss,
        },
        None => Plan {
            position: centre(table),
            value: 0.0,
            wait: 0.0,
            wait_after_miss: 0.0,
        },
    }
}

/// How much a placement on `cell` does for `me` beyond the horizon of the
/// search: per window through it, the windows it keeps open for me (no
/// opposing stone; more the more of my stones they hold) and those of the
/// opponent it spoils (more the more of theirs). `owner` is per cell: `Some(true)`
/// for my stones, `Some(false)` for the opponent's, `None` for an empty cell.
fn shape(windows: &Windows, owner: &[Option<bool>], cell: usize) -> f64 {
    let mut score = 0;
    for window in windows.through[cell].chunks_exact(windows.others) {
        let (mut mine, mut theirs) = (0i32, 0i32);
        for &c in window {
            match owner.get(usize::from(c)).copied().flatten() {
                Some(true) => mine += 1,
                Some(false) => theirs += 1,
                None => {}
            }
        }
        if theirs == 0 {
            score += (mine + 1) * (mine + 1) - 1;
        } else if mine == 0 {
            score += theirs * theirs;
        }
    }
    f64::from(score)
}

/// The weight of [`shape`] in the choice of the first placement: small enough
/// to only decide between placements the search values (nearly) alike, which
/// it does in quiet positions where no line can be completed within its
/// horizon (a first reply, the first stones of a new group).
const SHAPE_WEIGHT: f64 = 0.002;

/// The deepest search accepted (placements looked ahead).
pub const MAX_DEPTH: usize = 5;

/// The state of the search below the first two placements.
#[derive(Debug)]
struct Deep {
    /// Completion cells of the board as it is.
    singles: Vec<usize>,
    me: Player,
    /// The index of the last placement searched (0 is the first).
    last: usize,
    horizon: f64,
    cost: f64,
    words: usize,
    /// Per placement index, the lanes with a black line and with a white
    /// line before that placement (`2 * words` each).
    levels: Vec<u64>,
    /// The odds of each level.
    level_odds: Vec<Odds>,
    stamp: Vec<u32>,
    generation: u32,
    spent: usize,
}

impl Deep {
    fn mover(&self, ply: usize) -> Player {
        if ply.is_multiple_of(2) {
            self.me
        } else {
            self.me.opponent()
        }
    }

    /// Places `cell` as placement `ply` and records the lines after it as
    /// the level of `ply + 1`.
    fn place(&mut self, lanes: &mut Lanes, ply: usize, cell: usize) -> Odds {
        let w = self.words;
        let (before, after) = self.levels.split_at_mut((ply + 1) * 2 * w);
        let base = &before[ply * 2 * w..];
        let (hb, hw) = after.split_at_mut(w);
        let odds = lanes.place_and_score(
            cell,
            ply,
            (&base[..w], &base[w..2 * w], self.level_odds[ply]),
            (hb, &mut hw[..w]),
        );
        self.level_odds[ply + 1] = odds;
        odds
    }

    /// "A placement that changes nothing" as placement `ply`.
    fn keep(&mut self, ply: usize) {
        let w = self.words;
        self.levels
            .copy_within(ply * 2 * w..(ply + 1) * 2 * w, (ply + 1) * 2 * w);
        self.level_odds[ply + 1] = self.level_odds[ply];
    }

    /// The value, for the mover of placement `ply`, of the position after it
    /// (`odds`): observe or leave it to the other player, whose best next
    /// placement is searched unless `ply` is the last. `counts` are the
    /// observations left, mine first.
    fn after(
        &mut self,
        lanes: &mut Lanes,
        ply: usize,
        odds: Odds,
        placed: &mut Vec<usize>,
        counts: [u8; 2],
    ) -> f64 {
        let mover = self.mover(ply);
        let side = ply % 2;
        let can = counts[side] > 0;
        if ply >= self.last {
            let h = self.horizon * odds.edge(mover);
            return choose(&odds, mover, can, h, h, self.cost);
        }
        let wait = -self.best(lanes, ply + 1, placed, counts);
        let miss = if counts[side] == 1 && ply + 2 <= self.last {
            let mut fewer = counts;
            fewer[side] = 0;
            -self.best(lanes, ply + 1, placed, fewer)
        } else {
            wait
        };
        choose(&odds, mover, can, wait, miss, self.cost)
    }

    /// The best value for the mover of placement `ply` among the completion
    /// cells and "a placement that changes nothing".
    fn best(
        &mut self,
        lanes: &mut Lanes,
        ply: usize,
        placed: &mut Vec<usize>,
        counts: [u8; 2],
    ) -> f64 {
        let unchanged = self.level_odds[ply];
        self.keep(ply);
        placed.push(NONE);
        let mut best = self.after(lanes, ply, unchanged, placed, counts);
        placed.pop();
        self.generation += 1;
        let mut options = Vec::new();
        lanes.completions(
            &self.singles,
            placed,
            &mut options,
            &mut self.stamp,
            self.generation,
        );
        self.spent += options.len() + 1;
        for e in options {
            let odds = self.place(lanes, ply, e);
            placed.push(e);
            best = best.max(self.after(lanes, ply, odds, placed, counts));
            placed.pop();
            lanes.remove(e);
        }
        best
    }
}

/// A reply that changes nothing near the stones (a far cell).
const NONE: usize = usize::MAX;

/// One candidate of the first placement with the chances after it and after
/// each reply.
#[derive(Debug)]
struct Root {
    cell: usize,
    odds: Odds,
    replies: Vec<(usize, Odds)>,
}

/// The one-ply baseline (see [`Strategy::Greedy`]).
fn greedy(table: &Table<'_>, config: &BotConfig, rng: &mut Rng) -> Plan {
    let me = table.state.current_player;
    let mut lanes = Lanes::new(table, config.samples, 1, rng);
    let (hb0, hw0) = lanes.lines_all();
    let words = lanes.words;
    let (mut hb, mut hw) = (vec![0u64; words], vec![0u64; words]);
    let n = table.n;
    let mut cells: Vec<usize> = (0..n * n).filter(|&c| !lanes.occupied[c]).collect();
    for i in (1..cells.len()).rev() {
        cells.swap(i, rng.index(i + 1));
    }
    let own_neighbours = |cell: usize| {
        let (r0, c0) = (cell / n, cell % n);
        let mut count = 0u32;
        for r in r0.saturating_sub(1)..=(r0 + 1).min(n - 1) {
            for c in c0.saturating_sub(1)..=(c0 + 1).min(n - 1) {
                if table
                    .state
                    .stone_at(Position::new(r, c))
                    .is_some_and(|s| s.placed_by == me)
                {
                    count += 1;
                }
            }
        }
        count
    };
    let base = lanes.odds(&hb0, &hw0);
    let mut best = (f64::NEG_INFINITY, 0u32, cells.first().copied().unwrap_or(0));
    for &c in &cells {
        let odds = lanes.place_and_score(c, 0, (&hb0, &hw0, base), (&mut hb, &mut hw));
        lanes.remove(c);
        let (win, loss, _) = odds.outcome(me);
        let score = win - loss;
        let key = (score, own_neighbours(c));
        if key.0 > best.0 + 1e-12 || ((key.0 - best.0).abs() <= 1e-12 && key.1 > best.1) {
            best = (key.0, key.1, c);
        }
    }
    Plan {
        position: table.position(best.2),
        value: best.0,
        wait: 0.0,
        wait_after_miss: 0.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_cover_each_line_once() {
        // 5x5, win 3: 3 windows per row and column, 9 per diagonal direction.
        let w = Windows::new(5, 3);
        assert_eq!(w.all.len() / 3, 5 * 3 * 2 + 9 * 2);
        // The centre lies on 3 windows in each of the four directions.
        assert_eq!(w.through[12].len() / 2, 12);
        // A corner lies on one window per direction except the anti-diagonal.
        assert_eq!(w.through[0].len() / 2, 3);
    }

    #[test]
    fn shape_counts_the_windows_a_cell_opens_for_me_and_spoils_for_the_opponent() {
        // 5x5, win 3. The opponent's pair on (0,0), (0,1); my stone on (4,2).
        let w = Windows::new(5, 3);
        let mut owner = vec![None; 25];
        owner[0] = Some(false);
        owner[1] = Some(false);
        owner[22] = Some(true);
        let at = |owner: &[Option<bool>], r: usize, c: usize| shape(&w, owner, r * 5 + c);
        // (0,2) spoils the pair's only window (two of theirs: 4) and one more of
        // (0,1)'s (one: 1).
        assert_eq!(at(&owner, 0, 2), 5.0);
        // (4,3) extends my stone in two windows of row 4 (one of mine each: 3 + 3).
        assert_eq!(at(&owner, 4, 3), 6.0);
        // (2,4) shares one window with my stone (the anti-diagonal to (4,2)).
        assert_eq!(at(&owner, 2, 4), 3.0);
        // (3,4) shares a window with no stone: nothing.
        assert_eq!(at(&owner, 3, 4), 0.0);
        // A window holding stones of both sides counts for neither: with my stone
        // on (0,3), (0,2) still spoils the pair (4), the window (0,1)-(0,3) is dead
        // and (0,2)-(0,4) is open for me (3).
        owner[3] = Some(true);
        assert_eq!(at(&owner, 0, 2), 7.0);
    }
}
