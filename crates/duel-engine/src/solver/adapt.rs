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

use seeded_rng::Rng;

use crate::command::{Command, Response};
use crate::state::{CardId, Duel, Outcome, Player, PromptState};

use super::{Guide, choices, code_in};

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

/// Learned weights by move code, sorted by code: a few hundred codes at most, and a
/// sorted list costs the web app's wasm less code than a hash map of its own (349 bytes
/// gzip on the statistics bundle).
#[derive(Debug, Clone, Default)]
struct Weights(Vec<(u64, f64)>);

impl Weights {
    fn get(&self, code: u64) -> f64 {
        self.0
            .binary_search_by_key(&code, |e| e.0)
            .map_or(0.0, |i| self.0[i].1)
    }

    fn add(&mut self, code: u64, delta: f64) {
        match self.0.binary_search_by_key(&code, |e| e.0) {
            Ok(i) => self.0[i].1 += delta,
            Err(i) => self.0.insert(i, (code, delta)),
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

/// `e^x` from basic arithmetic only, so that native code and WebAssembly draw the same
/// moves (the platforms' `exp` may differ in the last bit). Accurate to a few parts in
/// 10^12 over the range the logits take.
fn exp(x: f64) -> f64 {
    let x = x.clamp(-700.0, 700.0);
    let n = (x * std::f64::consts::LOG2_E).round();
    let r = x - n * std::f64::consts::LN_2;
    // Taylor series of e^r for |r| <= ln 2 / 2.
    let mut term = 1.0;
    let mut sum = 1.0;
    for k in 1..=13 {
        term *= r / f64::from(k);
        sum += term;
    }
    // n is within -1010..=1010: 2^n as a float, split in two to stay normal.
    let half = (n / 2.0).trunc();
    let pow2 = |e: f64| f64::from_bits(((e as i64 + 1023) as u64) << 52);
    sum * pow2(half) * pow2(n - half)
}

/// One decision of a playout: the codes of the candidates drawn from and the one taken.
struct Decision {
    codes: Vec<u64>,
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

fn logits(w: &Weights, codes: &[u64]) -> Vec<f64> {
    codes
        .iter()
        .enumerate()
        .map(|(i, c)| i as f64 * RANK_PRIOR + w.get(*c))
        .collect()
}

/// Softmax probabilities of `logits`.
fn probabilities(logits: &[f64]) -> Vec<f64> {
    let mut p = logits.to_vec();
    softmax(&mut p);
    p
}

/// Turns logits into their softmax probabilities in place (no allocation on a path
/// taken at every step of every adaptive playout).
fn softmax(v: &mut [f64]) {
    let top = v.iter().copied().fold(f64::MIN, f64::max);
    for x in v.iter_mut() {
        *x = exp(*x - top);
    }
    let total: f64 = v.iter().sum();
    for x in v.iter_mut() {
        *x /= total;
    }
}

fn playout(
    start: &Duel,
    goal: Outcome,
    guide: Guide,
    w: &Weights,
    rng: &mut Rng,
    deck: usize,
) -> Played {
    let mut d = start.clone();
    let mut line = Vec::new();
    let mut steps = Vec::new();
    let mut score = super::nested::progress_of(&d, goal, deck);
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
                let mut p = logits(w, &codes);
                softmax(&mut p);
                let mut x = rng.next_f64();
                let mut chosen = p.len() - 1;
                for (i, pi) in p.iter().enumerate() {
                    if x < *pi {
                        chosen = i;
                        break;
                    }
                    x -= pi;
                }
                steps.push(Decision { codes, chosen });
                options.swap_remove(chosen)
            }
        };
        if !super::play(&mut d, &cmd) {
            break;
        }
        line.push(cmd);
        score = score.max(super::nested::progress_of(&d, goal, deck));
    }
    let won = d.outcome() == Some(goal);
    Played {
        line,
        won,
        score: if won { i64::MAX } else { score },
        steps,
    }
}

/// Moves the policy towards the decisions of `best`.
fn adapt(w: &mut Weights, best: &[Decision]) {
    let before = w.clone();
    for step in best {
        let p = probabilities(&logits(&before, &step.codes));
        w.add(step.codes[step.chosen], ALPHA);
        for (c, pi) in step.codes.iter().zip(p) {
            w.add(*c, -ALPHA * pi);
        }
    }
}

struct Run<'a> {
    start: &'a Duel,
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
    fn level(&mut self, level: u8, w: &mut Weights) -> Option<Played> {
        if level == 0 {
            if *self.spent >= self.playouts
                || (self.spent.is_multiple_of(8) && !(self.go)(*self.spent))
            {
                self.stopped = true;
                return None;
            }
            *self.spent += 1;
            return Some(playout(
                self.start, self.goal, self.guide, w, self.rng, self.deck,
            ));
        }
        let mut best: Option<Played> = None;
        for _ in 0..ITERATIONS {
            let Some(found) = self.level(level - 1, &mut w.clone()) else {
                break;
            };
            if found.won {
                return Some(found);
            }
            if best.as_ref().is_none_or(|b| found.score >= b.score) {
                best = Some(found);
            }
            if let Some(b) = &best {
                adapt(w, &b.steps);
            }
        }
        best
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
    /// Keeps `w` if its run's best playout scored higher than every run's before.
    fn offer(&mut self, score: i64, w: &Weights) {
        if self.best.as_ref().is_none_or(|(s, _)| score > *s) {
            self.best = Some((score, w.clone()));
        }
    }

    /// Keeps what `later` learned where its best run came further.
    pub(crate) fn merge(&mut self, later: Learned) {
        if let Some((score, w)) = later.best {
            self.offer(score, &w);
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
        start,
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
        let mut w = Weights::default();
        match run.level(LEVEL, &mut w) {
            Some(p) if p.won => return (Some(p.line), learned),
            Some(p) => learned.offer(p.score, &w),
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

    #[test]
    fn adapting_to_a_playout_makes_its_moves_likelier_and_the_others_less_likely() {
        let codes = vec![11, 22, 33];
        let mut w = Weights::default();
        let before = probabilities(&logits(&w, &codes));
        adapt(
            &mut w,
            &[Decision {
                codes: codes.clone(),
                chosen: 2,
            }],
        );
        let after = probabilities(&logits(&w, &codes));
        assert!(after[2] > before[2], "{before:?} -> {after:?}");
        assert!(
            after[0] < before[0] && after[1] < before[1],
            "{before:?} -> {after:?}"
        );
        // The guide's order is the prior: the first candidate starts likeliest.
        assert!(before[0] > before[1] && before[1] > before[2]);
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
