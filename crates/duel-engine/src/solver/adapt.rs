//! Nested rollout policy adaptation: playouts whose choices are drawn from a policy
//! that learns, from the best playout seen at each level, which moves the winning lines
//! take. A move is read by what a player can tell apart (the kind of command, the
//! passcodes it names, the mode chosen), so "activate Magical Stone Excavation before
//! Graceful Charity" learned in one playout carries over to every position where both
//! can be played. The guide's order stays the prior: a move the guide ranks `i`-th
//! starts with `i` times [`RANK_PRIOR`] in its logit.
//!
//! Each run from the start is of level 2: [`ITERATIONS`] runs of level 1, each of
//! [`ITERATIONS`] playouts, every level adapting its copy of the policy to the best
//! playout it has seen (Rosin's nested rollout policy adaptation). Only the guide's
//! preferred candidates are drawn from, as in the guided playouts; the depth-first
//! search that follows in [`super::solve_watched`] still tries everything.
//!
//! As a run's policy sharpens, its playouts take the same first moves again and again:
//! the positions of the last playouts are kept ([`Node`], [`Kept`]), and a playout goes
//! on from them for as long as it takes the moves one of them took, playing only the
//! rest. It draws the same numbers and makes the same choices as a playout that plays
//! every move, so every line and answer is the same, for half the instructions or less.

use std::cell::{OnceCell, RefCell};
use std::collections::VecDeque;
use std::rc::{Rc, Weak};

use rustc_hash::FxHashMap as HashMap;
use seeded_rng::Rng;

use crate::command::{Command, Response};
use crate::state::{CardId, Duel, Outcome, Player, PromptState};

use super::{Guide, Pool, choices, code_in};

/// The longest line a playout plays.
const LONGEST: usize = 300;
/// The logit given to the guide's rank: the `i`-th preferred candidate starts at
/// `i * RANK_PRIOR` (about the geometric 0.45 of the guided playouts).
const RANK_PRIOR: f64 = -0.8;
/// The learning step of an adaptation.
const ALPHA: f64 = 1.0;
/// Iterations of each level.
const ITERATIONS: usize = 30;
/// The level of each run from the start.
const LEVEL: u8 = 2;

/// Learned weights by move code, sorted by code (a few hundred codes at most): what a
/// run has learned, kept for the depth-first search's order ([`Learned`]). A run itself
/// reads and moves a [`RunWeights`].
#[derive(Debug, Clone, Default)]
struct Weights(Vec<(u64, f64)>);

impl Weights {
    fn get(&self, code: u64) -> f64 {
        self.0
            .binary_search_by_key(&code, |e| e.0)
            .map_or(0.0, |i| self.0[i].1)
    }

    /// The weights of `run`, whose slots are those of `slots`.
    fn of_run(run: &RunWeights, slots: &Slots) -> Weights {
        let mut list: Vec<(u64, f64)> = slots
            .codes
            .iter()
            .zip(&run.0)
            .map(|(&code, &w)| (code, w))
            .collect();
        list.sort_unstable_by_key(|e| e.0);
        Weights(list)
    }
}

/// The move codes a run has met, each given a slot (0, 1, 2, ... in the order met) when
/// a position's candidates are first listed: the run's weights are then read and moved
/// by slot, an index, instead of searched for by code at every decision.
#[derive(Debug, Default)]
struct Slots {
    of: HashMap<u64, u32>,
    codes: Vec<u64>,
}

impl Slots {
    fn slot(&mut self, code: u64) -> u32 {
        *self.of.entry(code).or_insert_with(|| {
            self.codes.push(code);
            u32::try_from(self.codes.len() - 1).unwrap_or(u32::MAX)
        })
    }
}

/// A run's weights by slot ([`Slots`]); a slot not yet moved weighs 0, as a code never
/// moved does in [`Weights`], and each weight is the same sum of the same moves.
#[derive(Debug, Clone, Default)]
struct RunWeights(Vec<f64>);

impl RunWeights {
    fn get(&self, slot: u32) -> f64 {
        self.0.get(slot as usize).copied().unwrap_or(0.0)
    }

    fn add(&mut self, slot: u32, delta: f64) {
        let i = slot as usize;
        if i >= self.0.len() {
            self.0.resize(i + 1, 0.0);
        }
        if let Some(w) = self.0.get_mut(i) {
            *w += delta;
        }
    }
}

/// The code of a move: what it does as far as a player can tell, with no instance ids.
fn move_code(d: &Duel, cmd: &Command) -> u64 {
    // A word at a time, each step a bijection of the state (a rotation, an exclusive or
    // with the word, a product by an odd constant): stable across platforms, and two of
    // a run's few hundred codes meet about as rarely as under any 64-bit hash. The
    // weights depend on which moves share a code, not on the codes' values.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut mix = |w: u64| {
        h = (h.rotate_left(5) ^ w).wrapping_mul(0x517c_c1b7_2722_0a95);
    };
    let source = d
        .prompt
        .as_ref()
        .and_then(|p| p.source)
        .map_or(0, |id| u64::from(code_in(d, id)));
    let of = |id: &CardId| u64::from(code_in(d, *id));
    let head = match cmd {
        Command::SummonMonster { card } => [1, of(card), 0],
        Command::SetMonster { card } => [2, of(card), 0],
        Command::SetSpellTrap { card } => [3, of(card), 0],
        Command::ActivateSpell { card } => [4, of(card), 0],
        Command::ActivateEffect { card } => [5, of(card), 0],
        Command::SynchroSummon { card } => [6, of(card), 0],
        Command::PassChain => [7, 0, 0],
        Command::EndTurn | Command::AdvancePhase => [8, 0, 0],
        Command::Respond(Response::Option(v)) => [9, source, u64::from(*v)],
        Command::Respond(Response::Cards(_)) => {
            let purpose = match d.prompt.as_ref().map(|p| &p.state) {
                Some(PromptState::Cards { purpose, .. }) => *purpose as u64,
                _ => u64::MAX,
            };
            [10, source, purpose]
        }
    };
    head.into_iter().for_each(&mut mix);
    // The cards chosen, as a set of passcodes.
    if let Command::Respond(Response::Cards(ids)) = cmd {
        // A handful of cards: sorted on the stack.
        let mut few = [0u64; 8];
        if let Some(codes) = few.get_mut(..ids.len()) {
            for (slot, id) in codes.iter_mut().zip(ids) {
                *slot = of(id);
            }
            codes.sort_unstable();
            codes.iter().copied().for_each(&mut mix);
        } else {
            let mut codes: Vec<u64> = ids.iter().map(of).collect();
            codes.sort_unstable();
            codes.into_iter().for_each(&mut mix);
        }
    }
    h
}

/// 1 / k! for k = 0..=13.
const TAYLOR: [f64; 14] = {
    let mut c = [1.0; 14];
    let mut k = 1;
    while k < 14 {
        c[k] = c[k - 1] / k as f64;
        k += 1;
    }
    c
};

/// `e^x` from basic arithmetic only, so that native code and WebAssembly draw the same
/// moves (the platforms' `exp` may differ in the last bit). Accurate to a few parts in
/// 10^12 over the range the logits take.
fn exp(x: f64) -> f64 {
    let x = x.clamp(-700.0, 700.0);
    let n = (x * std::f64::consts::LOG2_E).round();
    let r = x - n * std::f64::consts::LN_2;
    // Taylor series of e^r for |r| <= ln 2 / 2, to the term in r^13, in Horner's form
    // (no division: it is on every candidate of every decision of every playout).
    let sum = TAYLOR.iter().rev().fold(0.0, |acc, c| acc * r + c);
    // n is within -1010..=1010: 2^n as a float, split in two to stay normal.
    let half = (n / 2.0).trunc();
    let pow2 = |e: f64| f64::from_bits(((e as i64 + 1023) as u64) << 52);
    sum * pow2(half) * pow2(n - half)
}

/// One decision of a playout: the codes of the candidates drawn from (shared with the
/// position they were drawn at) and the one taken.
struct Decision {
    slots: Rc<[u32]>,
    chosen: usize,
}

/// A playout's result: its commands, whether it won, its best progress on the way,
/// and its decisions (for adapting the policy to it).
struct Played {
    line: Vec<Command>,
    won: bool,
    score: i64,
    steps: Vec<Decision>,
}

/// The logits of the moves in `slots` under `w`, the guide's rank as the prior, into
/// `out`.
fn logits_into(w: &RunWeights, slots: &[u32], out: &mut Vec<f64>) {
    out.clear();
    out.extend(
        slots
            .iter()
            .enumerate()
            .map(|(i, s)| i as f64 * RANK_PRIOR + w.get(*s)),
    );
}

/// Turns logits into their softmax probabilities in place (no allocation on a path
/// taken at every step of every adaptive playout).
fn softmax(v: &mut [f64]) {
    let top = v.iter().copied().fold(f64::MIN, f64::max);
    for x in v.iter_mut() {
        *x = exp(*x - top);
    }
    let scale = 1.0 / v.iter().sum::<f64>();
    for x in v.iter_mut() {
        *x *= scale;
    }
}

/// The index drawn from the probabilities `p` (not empty) with one number of `rng`.
fn draw(p: &[f64], rng: &mut Rng) -> usize {
    let mut x = rng.next_f64();
    for (i, pi) in p.iter().enumerate() {
        if x < *pi {
            return i;
        }
        x -= pi;
    }
    p.len() - 1
}

/// A position a playout reached from the start, kept while one of the last playouts
/// ([`KEPT_MOVES`]) went through it, so that a later playout taking the same moves up to it
/// starts from it instead of playing them again. The policy changes between playouts, but
/// what it draws from does not: a position's candidates, the guide's preferred ones and
/// their codes, and the position each of them leads to, are functions of the position.
/// So a playout through kept positions draws the same numbers and makes the same
/// choices as one that plays every move: every line, score and answer is the same.
struct Node {
    duel: Duel,
    /// [`super::nested::progress_of`] the position.
    progress: i64,
    /// The guide's preferred candidates and their moves' slots, once a playout needed
    /// them.
    options: OnceCell<(Vec<Command>, Rc<[u32]>)>,
    /// The positions reached from here that a kept playout went on to: the option taken
    /// (`usize::MAX` for the end of the turn when nothing else was offered) and the position.
    next: RefCell<Vec<(usize, Weak<Node>)>>,
}

/// The most moves the kept playouts hold in all (a bound on the positions kept, so on
/// the memory they take): the last playouts are kept as long as their lines hold no
/// more. On three of legacy-exodia's hands won in 0.3-0.4 s (seeds 2, 4 and 11, solved
/// as the statistics do), the last 8 playouts held the first 58-75% of a playout's moves
/// and the whole solve took 5,772 M instructions; a bound of 4,096 moves 4,534 M (13.6
/// MB at the peak), 16,384 moves 4,237 M (37 MB), 65,536 moves 4,022 M (103 MB).
const KEPT_MOVES: usize = 16_384;

impl Node {
    fn new(duel: Duel, goal: Outcome, deck: usize) -> Node {
        Node {
            progress: super::nested::progress_of(&duel, goal, deck),
            duel,
            options: OnceCell::new(),
            next: RefCell::new(Vec::new()),
        }
    }

    fn options(&self, guide: Guide, slots: &mut Slots) -> &(Vec<Command>, Rc<[u32]>) {
        self.options.get_or_init(|| {
            let ordered = guide(&self.duel, choices(&self.duel));
            let mut options = ordered.commands;
            if ordered.preferred > 0 {
                options.truncate(ordered.preferred);
            }
            let moves: Rc<[u32]> = if options.len() > 1 {
                options
                    .iter()
                    .map(|c| slots.slot(move_code(&self.duel, c)))
                    .collect()
            } else {
                Rc::from([])
            };
            (options, moves)
        })
    }

    /// The position `cmd` (option `taken`) leads to: a kept one, or played now (`None`
    /// when the duel refuses it).
    fn after(
        &self,
        taken: usize,
        cmd: &Command,
        goal: Outcome,
        deck: usize,
        played: &mut usize,
        pool: &mut Pool,
    ) -> Option<Rc<Node>> {
        let mut next = self.next.borrow_mut();
        if let Some(node) = next
            .iter()
            .find(|(t, _)| *t == taken)
            .and_then(|(_, n)| n.upgrade())
        {
            return Some(node);
        }
        let mut d = pool.copy(&self.duel);
        *played += 1;
        if !super::play(&mut d, cmd) {
            pool.give(d);
            return None;
        }
        let node = Rc::new(Node::new(d, goal, deck));
        next.retain(|(_, n)| n.strong_count() > 0);
        next.push((taken, Rc::downgrade(&node)));
        Some(node)
    }
}

/// The positions of the last playouts, from the start.
struct Kept {
    start: Rc<Node>,
    slots: Slots,
    paths: VecDeque<Vec<Rc<Node>>>,
    /// The moves of the kept paths, in all.
    moves: usize,
    /// Moves played (positions made) so far, the others were kept ones.
    played: usize,
    /// The positions of the paths let go, for the next ones.
    pool: Pool,
    /// The moves of the last playout: room for the next one's lists, which would
    /// otherwise grow push by push (4% of the instructions).
    room: usize,
}

impl Kept {
    fn new(start: &Duel, goal: Outcome, deck: usize) -> Kept {
        Kept {
            start: Rc::new(Node::new(start.clone(), goal, deck)),
            slots: Slots::default(),
            paths: VecDeque::new(),
            moves: 0,
            played: 0,
            pool: Pool::default(),
            room: 0,
        }
    }

    fn keep(&mut self, path: Vec<Rc<Node>>) {
        self.moves += path.len();
        self.paths.push_back(path);
        while self.moves > KEPT_MOVES
            && let Some(old) = self.paths.pop_front()
        {
            self.moves -= old.len();
            // A position no newer path goes through is done with.
            for node in old {
                if let Ok(node) = Rc::try_unwrap(node) {
                    self.pool.give(node.duel);
                }
            }
        }
    }
}

fn playout(
    kept: &mut Kept,
    goal: Outcome,
    guide: Guide,
    w: &RunWeights,
    rng: &mut Rng,
    deck: usize,
    scratch: &mut Vec<f64>,
) -> Played {
    let mut node = Rc::clone(&kept.start);
    let mut path = Vec::with_capacity(kept.room + 1);
    let mut line = Vec::with_capacity(kept.room);
    let mut steps = Vec::with_capacity(kept.room);
    let mut score = node.progress;
    while node.duel.outcome().is_none() && line.len() < LONGEST {
        let (options, moves) = node.options(guide, &mut kept.slots);
        let (taken, cmd) = match options.len() {
            0 => (usize::MAX, Command::EndTurn),
            1 => (0, options[0].clone()),
            _ => {
                logits_into(w, moves, scratch);
                softmax(scratch);
                let chosen = draw(scratch, rng);
                steps.push(Decision {
                    slots: Rc::clone(moves),
                    chosen,
                });
                (chosen, options[chosen].clone())
            }
        };
        let Some(next) = node.after(taken, &cmd, goal, deck, &mut kept.played, &mut kept.pool)
        else {
            break;
        };
        line.push(cmd);
        score = score.max(next.progress);
        path.push(std::mem::replace(&mut node, next));
    }
    path.push(node.clone());
    let won = node.duel.outcome() == Some(goal);
    kept.room = line.len();
    kept.keep(path);
    Played {
        line,
        won,
        score: if won { i64::MAX } else { score },
        steps,
    }
}

/// Moves the policy towards the decisions of `best`. Every step's probabilities are
/// those of the policy before the move, so they are all worked out first (into `moves`,
/// with `scratch` for each step's), then added in the steps' order.
fn adapt(
    w: &mut RunWeights,
    best: &[Decision],
    scratch: &mut Vec<f64>,
    moves: &mut Vec<(u32, f64)>,
) {
    moves.clear();
    for step in best {
        logits_into(w, &step.slots, scratch);
        softmax(scratch);
        moves.push((step.slots[step.chosen], ALPHA));
        moves.extend(
            step.slots
                .iter()
                .zip(scratch.iter())
                .map(|(s, pi)| (*s, -ALPHA * pi)),
        );
    }
    for &(slot, delta) in moves.iter() {
        w.add(slot, delta);
    }
}

struct Run<'a> {
    kept: Kept,
    /// Room for a decision's probabilities and an adaptation's moves, reused.
    scratch: Vec<f64>,
    moves: Vec<(u32, f64)>,
    goal: Outcome,
    guide: Guide,
    rng: &'a mut Rng,
    deck: usize,
    playouts: usize,
    spent: &'a mut usize,
    go: &'a mut dyn FnMut(usize) -> bool,
    stopped: bool,
}

impl Run<'_> {
    /// A run of `level` whose policy starts as `w` and is adapted in place to the best
    /// playout it sees (so the caller of the top level keeps what the run learned).
    fn level(&mut self, level: u8, w: &mut RunWeights) -> Option<Played> {
        let mut best: Option<Played> = None;
        for _ in 0..ITERATIONS {
            // A playout reads the policy and leaves it as it is: no copy of it.
            let found = if level <= 1 {
                self.playout(w)
            } else {
                self.level(level - 1, &mut w.clone())
            };
            let Some(found) = found else {
                break;
            };
            if found.won {
                return Some(found);
            }
            if best.as_ref().is_none_or(|b| found.score >= b.score) {
                best = Some(found);
            }
            if let Some(b) = &best {
                adapt(w, &b.steps, &mut self.scratch, &mut self.moves);
            }
        }
        best
    }

    /// One playout under `w`, if the budget and `go` allow it.
    fn playout(&mut self, w: &RunWeights) -> Option<Played> {
        if *self.spent >= self.playouts || (self.spent.is_multiple_of(8) && !(self.go)(*self.spent))
        {
            self.stopped = true;
            return None;
        }
        *self.spent += 1;
        Some(playout(
            &mut self.kept,
            self.goal,
            self.guide,
            w,
            self.rng,
            self.deck,
            &mut self.scratch,
        ))
    }
}

/// What the adaptive searches of a hand have learned: the policy of the run whose best
/// playout came furthest (the first such run), with that playout's score. The
/// depth-first search that follows them tries moves in its order ([`Learned::order`]).
#[derive(Debug, Clone, Default)]
pub(crate) struct Learned {
    best: Option<(i64, Weights)>,
}

impl Learned {
    /// Keeps the weights `w` gives if its run's best playout scored higher than every
    /// run's before.
    fn offer(&mut self, score: i64, w: impl FnOnce() -> Weights) {
        if self.best.as_ref().is_none_or(|(s, _)| score > *s) {
            self.best = Some((score, w()));
        }
    }

    /// Keeps what `later` learned where its best run came further.
    pub(crate) fn merge(&mut self, later: Learned) {
        if let Some((score, w)) = later.best {
            self.offer(score, || w);
        }
    }

    /// Whether some run has been learned from.
    pub(crate) fn any(&self) -> bool {
        self.best.is_some()
    }

    /// `ordered` (the guide's order of every candidate of `d`) sorted by the learned
    /// policy's logits, the guide's rank as the prior as in the playouts (a stable sort:
    /// equal logits keep the guide's order). Only the order changes, so a search in it
    /// still tries every candidate.
    pub(crate) fn order(&self, d: &Duel, ordered: Vec<Command>) -> Vec<Command> {
        let Some((_, w)) = &self.best else {
            return ordered;
        };
        let mut keyed: Vec<(f64, Command)> = ordered
            .into_iter()
            .enumerate()
            .map(|(i, c)| (i as f64 * RANK_PRIOR + w.get(move_code(d, &c)), c))
            .collect();
        keyed.sort_by(|a, b| b.0.total_cmp(&a.0));
        keyed.into_iter().map(|(_, c)| c).collect()
    }
}

/// Runs adaptive searches from `start` until one finds a line to `goal` or `spent`
/// reaches `playouts`; `go` is asked every 8 playouts whether to go on. Also gives
/// back what the runs that did not win learned.
pub(crate) fn search(
    start: &Duel,
    goal: Outcome,
    guide: Guide,
    rng: &mut Rng,
    playouts: usize,
    spent: &mut usize,
    go: &mut dyn FnMut(usize) -> bool,
) -> (Option<Vec<Command>>, Learned) {
    let deck = start.player(Player::You).deck.len();
    let mut run = Run {
        kept: Kept::new(start, goal, deck),
        scratch: Vec::new(),
        moves: Vec::new(),
        goal,
        guide,
        rng,
        deck,
        playouts,
        spent,
        go,
        stopped: false,
    };
    let mut learned = Learned::default();
    while !run.stopped {
        let mut w = RunWeights::default();
        match run.level(LEVEL, &mut w) {
            Some(p) if p.won => return (Some(p.line), learned),
            Some(p) => learned.offer(p.score, || Weights::of_run(&w, &run.kept.slots)),
            None => break,
        }
    }
    (None, learned)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::{Reason, Settings};

    #[test]
    fn exp_matches_the_platform_within_rounding() {
        for i in -400..=400 {
            let x = f64::from(i) / 13.0;
            let (a, b) = (exp(x), x.exp());
            assert!((a - b).abs() <= b * 1e-12, "{x}: {a} against {b}");
        }
    }

    /// Softmax probabilities of the moves in `slots` under `w`.
    fn probabilities(w: &RunWeights, slots: &[u32]) -> Vec<f64> {
        let mut p = Vec::new();
        logits_into(w, slots, &mut p);
        softmax(&mut p);
        p
    }

    #[test]
    fn adapting_to_a_playout_makes_its_moves_likelier_and_the_others_less_likely() {
        let slots = vec![0, 1, 2];
        let mut w = RunWeights::default();
        let before = probabilities(&w, &slots);
        adapt(
            &mut w,
            &[Decision {
                slots: Rc::from(slots.as_slice()),
                chosen: 2,
            }],
            &mut Vec::new(),
            &mut Vec::new(),
        );
        let after = probabilities(&w, &slots);
        assert!(after[2] > before[2], "{before:?} -> {after:?}");
        assert!(
            after[0] < before[0] && after[1] < before[1],
            "{before:?} -> {after:?}"
        );
        // The guide's order is the prior: the first candidate starts likeliest.
        assert!(before[0] > before[1] && before[1] > before[2]);
    }

    /// The reference the runs are checked against: weights kept by move code and moved
    /// one step at a time from a copy of them, as runs did before they had slots.
    fn add_by_code(w: &mut Weights, code: u64, delta: f64) {
        match w.0.binary_search_by_key(&code, |e| e.0) {
            Ok(i) => w.0[i].1 += delta,
            Err(i) => w.0.insert(i, (code, delta)),
        }
    }

    fn probabilities_by_code(w: &Weights, codes: &[u64]) -> Vec<f64> {
        let mut p: Vec<f64> = codes
            .iter()
            .enumerate()
            .map(|(i, c)| i as f64 * RANK_PRIOR + w.get(*c))
            .collect();
        softmax(&mut p);
        p
    }

    fn adapt_by_code(w: &mut Weights, best: &[(Vec<u64>, usize)]) {
        let before = w.clone();
        for (codes, chosen) in best {
            let p = probabilities_by_code(&before, codes);
            add_by_code(w, codes[*chosen], ALPHA);
            for (c, pi) in codes.iter().zip(p) {
                add_by_code(w, *c, -ALPHA * pi);
            }
        }
    }

    /// A reference playout: every move played from the start on one copy of the duel,
    /// the policy read by move code.
    struct Afresh {
        line: Vec<Command>,
        won: bool,
        score: i64,
        decisions: Vec<(Vec<u64>, usize)>,
    }

    fn playout_afresh(
        start: &Duel,
        goal: Outcome,
        guide: Guide,
        w: &Weights,
        rng: &mut Rng,
        deck: usize,
    ) -> Afresh {
        let mut d = start.clone();
        let mut line = Vec::new();
        let mut decisions = Vec::new();
        let mut score = super::super::nested::progress_of(&d, goal, deck);
        while d.outcome().is_none() && line.len() < LONGEST {
            let ordered = guide(&d, choices(&d));
            let mut options = ordered.commands;
            if ordered.preferred > 0 {
                options.truncate(ordered.preferred);
            }
            let cmd = match options.len() {
                0 => Command::EndTurn,
                1 => options.remove(0),
                _ => {
                    let codes: Vec<u64> = options.iter().map(|c| move_code(&d, c)).collect();
                    let chosen = draw(&probabilities_by_code(w, &codes), rng);
                    decisions.push((codes, chosen));
                    options.swap_remove(chosen)
                }
            };
            if !super::super::play(&mut d, &cmd) {
                break;
            }
            line.push(cmd);
            score = score.max(super::super::nested::progress_of(&d, goal, deck));
        }
        let won = d.outcome() == Some(goal);
        Afresh {
            line,
            won,
            score: if won { i64::MAX } else { score },
            decisions,
        }
    }

    /// Playouts through the kept positions of the last ones, the policy read and moved
    /// by slot, are the playouts that play every move afresh under a policy kept by move
    /// code: the same draws, moves, decisions and scores, under a policy that changes
    /// between them as a run changes it, and in the end the same weights, on hands of
    /// every Exodia deck.
    #[test]
    fn playouts_through_kept_positions_play_as_playouts_played_afresh() {
        let (mut moves, mut played) = (0, 0);
        for deck in [
            "exodia-deck",
            "legacy-exodia-deck",
            "library-exodia-deck",
            "panda-exodia-deck",
        ] {
            for seed in 0..4 {
                let start = super::super::without_log(
                    &Duel::with_settings(deck, seed, Settings::default()).expect("a preset deck"),
                );
                let goal = Outcome::Win(Reason::Exodia);
                let guide = super::super::policy_for(goal);
                let cards = start.player(Player::You).deck.len();
                let mut kept = Kept::new(&start, goal, cards);
                let (mut rng, mut fresh_rng) = (Rng::new(seed), Rng::new(seed));
                let (mut w, mut by_code) = (RunWeights::default(), Weights::default());
                let mut best: Option<(Played, Afresh)> = None;
                for _ in 0..60 {
                    let a = playout(&mut kept, goal, guide, &w, &mut rng, cards, &mut Vec::new());
                    let b = playout_afresh(&start, goal, guide, &by_code, &mut fresh_rng, cards);
                    assert_eq!(a.line, b.line, "{deck} seed {seed}");
                    assert_eq!((a.won, a.score), (b.won, b.score), "{deck} seed {seed}");
                    let decisions: Vec<(Vec<u64>, usize)> = a
                        .steps
                        .iter()
                        .map(|s| {
                            let codes = s.slots.iter().map(|&i| kept.slots.codes[i as usize]);
                            (codes.collect(), s.chosen)
                        })
                        .collect();
                    assert_eq!(decisions, b.decisions, "{deck} seed {seed}");
                    moves += a.line.len();
                    if best.as_ref().is_none_or(|(x, _)| a.score >= x.score) {
                        best = Some((a, b));
                    }
                    if let Some((x, y)) = &best {
                        adapt(&mut w, &x.steps, &mut Vec::new(), &mut Vec::new());
                        adapt_by_code(&mut by_code, &y.decisions);
                    }
                }
                let learned = Weights::of_run(&w, &kept.slots);
                // Codes a run met but never moved weigh 0 in both.
                let moved: Vec<(u64, f64)> =
                    learned.0.iter().copied().filter(|e| e.1 != 0.0).collect();
                let reference: Vec<(u64, f64)> =
                    by_code.0.iter().copied().filter(|e| e.1 != 0.0).collect();
                assert_eq!(moved, reference, "{deck} seed {seed}");
                played += kept.played;
            }
        }
        // Most moves came from kept positions.
        assert!(2 * played < moves, "{played} of {moves} moves played");
    }

    /// What adaptive runs that did not win have learned orders a search's candidates:
    /// every candidate of the guide's order is kept, once, sorted by the learned
    /// logits (the guide's order where they tie), the same from the same seed; and
    /// before any run has been learned from, the order is the guide's.
    #[test]
    fn a_learned_order_keeps_every_candidate_sorted_by_the_learned_logits() {
        let goal = Outcome::Win(Reason::Exodia);
        let guide = super::super::policy_for(goal);
        let mut checked = 0;
        for seed in 0..6 {
            let start = Duel::with_settings("legacy-exodia-deck", seed, Settings::default())
                .expect("deals");
            let learn = || {
                let mut spent = 0;
                search(
                    &start,
                    goal,
                    guide,
                    &mut Rng::new(seed),
                    300,
                    &mut spent,
                    &mut |_| true,
                )
            };
            let (won, learned) = learn();
            if won.is_some() {
                continue;
            }
            assert!(
                learned.any(),
                "seed {seed}: a run that did not win is learned from"
            );
            let again = learn().1;
            // The positions along a guided playout of the hand.
            let (_, line) = super::super::rollout(
                &start,
                &mut Rng::new(seed + 100),
                super::super::policy_for(goal),
            );
            let mut d = start.clone();
            for cmd in line {
                let ordered = guide(&d, choices(&d)).commands;
                assert_eq!(Learned::default().order(&d, ordered.clone()), ordered);
                let mine = learned.order(&d, ordered.clone());
                assert_eq!(mine, again.order(&d, ordered.clone()), "seed {seed}");
                assert_eq!(mine.len(), ordered.len());
                let rank = |c: &Command| ordered.iter().position(|o| o == c).expect("kept");
                let logit = |c: &Command| {
                    let w = learned.best.as_ref().map(|b| &b.1).expect("learned");
                    rank(c) as f64 * RANK_PRIOR + w.get(move_code(&d, c))
                };
                for pair in mine.windows(2) {
                    let (a, b) = (logit(&pair[0]), logit(&pair[1]));
                    assert!(
                        a > b || (a == b && rank(&pair[0]) < rank(&pair[1])),
                        "seed {seed}: {pair:?}"
                    );
                    checked += 1;
                }
                if d.apply(cmd).is_err() {
                    break;
                }
            }
        }
        assert!(checked > 100, "only {checked} pairs compared");
    }

    /// Hands of each Exodia deck: what an adaptive search finds replays to the goal,
    /// and the same seed finds the same line.
    #[test]
    fn an_adaptive_search_finds_lines_that_win_and_the_same_ones_from_the_same_seed() {
        let goal = Outcome::Win(Reason::Exodia);
        let mut found = 0;
        for deck in ["exodia-deck", "library-exodia-deck", "panda-exodia-deck"] {
            for seed in 0..3 {
                let start = Duel::with_settings(deck, seed, Settings::default()).expect("deals");
                let run = || {
                    let mut spent = 0;
                    search(
                        &start,
                        goal,
                        super::super::policy_for(goal),
                        &mut Rng::new(seed),
                        2_000,
                        &mut spent,
                        &mut |_| true,
                    )
                    .0
                };
                let line = run();
                assert_eq!(line, run(), "{deck} seed {seed}");
                if let Some(line) = line {
                    assert!(
                        super::super::wins(&start, goal, &line),
                        "{deck} seed {seed}"
                    );
                    found += 1;
                }
            }
        }
        assert!(found >= 5, "only {found} of 9 hands won");
    }
}
