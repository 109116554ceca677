//! A bounded search for a line of play that reaches a wanted outcome (e.g. "can this
//! opening still win?"), used by tests, benchmarks and tools: searches of guided
//! playouts first (nested ones, then for Exodia adaptive ones: the `adapt` module), then
//! a depth-first search over every candidate with a table of the positions already
//! explored. The guidance ([`policy_for`]) only orders candidates, so a search
//! that runs out of candidates is a proof; it is read from the card data (which cards are
//! win pieces, which effects deal damage), never from passcodes.

mod adapt;
mod bound;
mod dominance;
pub(crate) mod key;
mod nested;
mod relax;

pub use relax::{Side as StandIn, stand_ins};

use std::cell::RefCell;
use std::rc::Rc;

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use seeded_rng::Rng;

use crate::card::{Code, Frame, catalog};
use crate::command::{Command, Response};
use crate::effect::{Amount, EffectKind, Purpose, Step, SummonKind, TriggerDef, TriggerOn};
use crate::state::{CardId, Duel, OptKey, Outcome, PromptState, Reason};

/// The result of a search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Search {
    /// Commands that lead from the given duel to the goal.
    Found(Vec<Command>),
    /// Every line was tried: the goal cannot be reached (a proof: nothing was left out).
    Impossible,
    /// The position budget ran out first, or some choices were too many to try.
    GaveUp,
    /// The caller stopped the search (its progress callback said so).
    Cancelled,
}

/// Candidate commands of a position, and whether they are all of them (a large card
/// selection is capped, and then a failed search proves nothing).
struct Candidates {
    commands: Vec<Command>,
    complete: bool,
}

/// How many answers to one card selection the search tries at most.
const SELECTION_CAP: usize = 256;

/// The room a position's list of candidates starts with: most positions have fewer, so
/// the list is allocated once instead of growing (each growth a copy).
const CANDIDATES_ROOM: usize = 16;

/// Candidate commands from a position, with interchangeable choices merged so the search
/// does not try copies one by one: the same command on two copies of a card in the same
/// place and state, or selections of the same cards by passcode. Ending the turn comes
/// last (it only helps if a Quick-Play can still win in the End Phase).
pub fn choices(d: &Duel) -> Vec<Command> {
    candidates(d).commands
}

fn candidates(d: &Duel) -> Candidates {
    let code_of = |id: CardId| d.instance(id).map(|c| c.code);
    if let Some(p) = &d.prompt {
        return match &p.state {
            PromptState::Cards {
                candidates,
                min,
                max,
                constraint,
                ..
            } => {
                let mut seen = HashSet::default();
                let mut commands = Vec::with_capacity(CANDIDATES_ROOM);
                let mut complete = true;
                let codes: Vec<Option<Code>> = candidates.iter().map(|&id| code_of(id)).collect();
                // Every choice below is of distinct candidates, as many as the prompt
                // allows: the duel would refuse it only for the constraint, tested here
                // with what it reads of the duel read once.
                let fits = d.constraint_test(constraint.as_ref(), p.source);
                let valid = |subset: &[CardId]| {
                    let ok = fits(subset);
                    debug_assert_eq!(
                        ok,
                        d.validate(&Command::Respond(Response::Cards(subset.to_vec())))
                            .is_ok(),
                        "{subset:?}"
                    );
                    ok
                };
                'sizes: for k in usize::from(*min)..=usize::from(*max) {
                    if let Some(picks) = code_picks(&codes, k, SELECTION_CAP) {
                        for pick in picks {
                            let subset: Vec<CardId> = pick.iter().map(|&i| candidates[i]).collect();
                            if valid(&subset) {
                                commands.push(Command::Respond(Response::Cards(subset)));
                            }
                            if commands.len() >= SELECTION_CAP {
                                complete = false;
                                break 'sizes;
                            }
                        }
                        continue;
                    }
                    let (subsets, all) = subsets(candidates, k, SELECTION_CAP);
                    complete &= all;
                    for subset in subsets {
                        let mut key: Vec<_> = subset.iter().map(|&id| code_of(id)).collect();
                        key.sort_unstable();
                        // A selection with a rule of its own (Synchro Materials) may
                        // refuse some subsets.
                        if seen.insert(key) && valid(&subset) {
                            commands.push(Command::Respond(Response::Cards(subset)));
                        }
                        if commands.len() >= SELECTION_CAP {
                            complete = false;
                            break 'sizes;
                        }
                    }
                }
                Candidates { commands, complete }
            }
            // Face-up Attack and Defense Position lead to the same futures when no
            // rule reads the position chosen: one of them is enough.
            PromptState::Position { .. } if !chosen_positions_matter() => Candidates {
                commands: vec![Command::Respond(Response::Option(0))],
                complete: true,
            },
            other => Candidates {
                commands: d
                    .prompt_options(other)
                    .into_iter()
                    .map(|v| Command::Respond(Response::Option(v)))
                    .collect(),
                complete: true,
            },
        };
    }
    if d.outcome().is_some() {
        return Candidates {
            commands: Vec::new(),
            complete: true,
        };
    }
    // A few dozen at most: a list beats a hash set here, and on the stack.
    let mut seen: smallvec::SmallVec<[_; CANDIDATES_ROOM]> = smallvec::SmallVec::new();
    let mut end = None;
    // The legal commands in `Duel::legal_commands`' order, a copy's commands left out where
    // an interchangeable copy's same command is already in (so never validated).
    let mut commands: Vec<Command> = Vec::with_capacity(CANDIDATES_ROOM);
    d.each_command(|c| {
        let (kind, card) = match c {
            Command::SummonMonster { card } => (0u8, *card),
            Command::SetMonster { card } => (1, *card),
            Command::SetSpellTrap { card } => (2, *card),
            Command::ActivateSpell { card } => (3, *card),
            Command::ActivateEffect { card } => (4, *card),
            Command::SynchroSummon { card } => (5, *card),
            Command::EndTurn | Command::AdvancePhase => {
                if end.is_none() && d.validate(c).is_ok() {
                    end = Some(Command::EndTurn);
                }
                return;
            }
            Command::PassChain | Command::Respond(_) => {
                if d.validate(c).is_ok() {
                    commands.push(c.clone());
                }
                return;
            }
        };
        let Some(inst) = d.instance(card) else {
            return;
        };
        // Copies are interchangeable where nothing tells them apart: the same place
        // and state, once-per-turn uses, and (for an equip) the same kind of monster.
        let used = d
            .used_opt
            .iter()
            .any(|k| matches!(k, OptKey::Card(id, _) if *id == card));
        let equipped = inst
            .equipped_to
            .and_then(|m| d.instance(m))
            .map(|m| (m.code, m.controller, m.kind_key()));
        let place = (inst.location.zone_name(), used, equipped);
        let what = (kind, inst.kind_key(), place);
        if seen.contains(&what) || d.validate(c).is_err() {
            return;
        }
        seen.push(what);
        commands.push(c.clone());
    });
    commands.extend(end);
    Candidates {
        commands,
        complete: true,
    }
}

/// Whether the battle position a player chooses for a Special Summon can change what
/// happens later in the turn. No condition or filter of the card data reads a battle
/// position (a filter reads only face-up or face-down), and the first turn has no
/// battle, so only a step that changes a monster's position can tell the two apart
/// (whether it changes anything, and so whether "if you did" holds). Such a step that
/// only runs when its own card is Normal Summoned, which is always in Attack Position,
/// does not depend on any choice (Summoner Monk); any other one makes positions matter.
/// Read from the catalogue once.
fn chosen_positions_matter() -> bool {
    static MATTER: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *MATTER.get_or_init(|| {
        fn changes<'a>(mut steps: impl Iterator<Item = &'a Step>) -> bool {
            steps.any(|s| match s {
                Step::ChangePosition { .. } => true,
                Step::AtEndPhase { steps } => changes(steps.iter()),
                _ => false,
            })
        }
        catalog().iter().flat_map(|c| &c.effects).any(|e| {
            let own_normal_summon = matches!(
                &e.trigger,
                Some(TriggerDef { on: TriggerOn::Summoned { how }, .. })
                    if !how.is_empty() && how.iter().all(|k| *k == SummonKind::Normal)
            );
            changes(e.steps()) && !own_normal_summon
        })
    })
}

/// The selections of `k` of cards with these `codes` that a player can tell apart (which
/// copy of a code is chosen changes nothing), each as the positions of the first copies of
/// its codes, in the order the subsets of positions would first show them (the order of
/// their positions); `None` when there are more than `cap` subsets of `k` in all, where
/// the caller lists the first `cap` subsets instead. The same choices, in the same order,
/// as keeping the first subset of each multiset of codes among all subsets, without
/// building every subset.
fn code_picks(codes: &[Option<Code>], k: usize, cap: usize) -> Option<Vec<Vec<usize>>> {
    // Whether C(n, k) <= cap, without overflow.
    let n = codes.len();
    let mut count = 1usize;
    for i in 0..k.min(n.saturating_sub(k)) {
        count = count.checked_mul(n - i)? / (i + 1);
        if count > cap {
            return None;
        }
    }
    if k > n {
        return Some(Vec::new());
    }
    // The positions of each code's copies (ascending), codes in the order of their
    // first copy: each position `i` is sorted as `first * n + i`, `first` the position
    // of its code's first copy (found once per position, not once per comparison).
    let mut positions: Vec<usize> = (0..n)
        .map(|i| {
            let first = codes[..i].iter().position(|c| *c == codes[i]).unwrap_or(i);
            first * n + i
        })
        .collect();
    positions.sort_unstable();
    let groups: Vec<&[usize]> = positions.chunk_by(|a, b| a / n == b / n).collect();
    // `left`: the copies in the groups from here on, so a branch that cannot take `k`
    // more stops at once, and one that needs no more takes none of the rest.
    fn go(
        groups: &[&[usize]],
        k: usize,
        left: usize,
        cur: &mut Vec<usize>,
        out: &mut Vec<Vec<usize>>,
    ) {
        if k == 0 {
            out.push(cur.clone());
            return;
        }
        if left < k {
            return;
        }
        let Some((at, rest)) = groups.split_first() else {
            return;
        };
        for take in 0..=k.min(at.len()) {
            cur.extend_from_slice(&at[..take]);
            go(rest, k - take, left - at.len(), cur, out);
            cur.truncate(cur.len() - take);
        }
    }
    // At most `count` (the number of subsets of `k`).
    let mut out = Vec::with_capacity(count);
    go(&groups, k, n, &mut Vec::with_capacity(k), &mut out);
    for pick in &mut out {
        for p in pick.iter_mut() {
            *p %= n;
        }
        pick.sort_unstable();
    }
    out.sort_unstable();
    Some(out)
}

/// The subsets of `k` of `ids` (at most `cap`), and whether that is all of them.
fn subsets(ids: &[CardId], k: usize, cap: usize) -> (Vec<Vec<CardId>>, bool) {
    fn go(
        ids: &[CardId],
        k: usize,
        start: usize,
        cur: &mut Vec<CardId>,
        out: &mut Vec<Vec<CardId>>,
        cap: usize,
    ) -> bool {
        if cur.len() == k {
            out.push(cur.clone());
            return true;
        }
        for i in start..ids.len() {
            if out.len() >= cap {
                return false;
            }
            cur.push(ids[i]);
            let all = go(ids, k, i + 1, cur, out, cap);
            cur.pop();
            if !all {
                return false;
            }
        }
        true
    }
    let mut out = Vec::new();
    let all = go(ids, k, 0, &mut Vec::with_capacity(k), &mut out, cap);
    (out, all)
}

/// Searches for commands that end the duel with `goal`, trying at most `budget`
/// positions, in the order the candidates come. (Throughout the solver, a budget of
/// positions counts those that offer a choice: following a prompt's only answer is free.)
pub fn search(start: &Duel, goal: Outcome, budget: usize) -> Search {
    search_with(start, goal, budget, &|_, c| c)
}

/// Puts a position's candidate commands in the order to try them. It must not drop any
/// command that could still reach the goal unless some line it keeps does at least as
/// well (see [`Guide`]), or a failed search proves nothing.
pub type Policy<'a> = &'a dyn Fn(&Duel, Vec<Command>) -> Vec<Command>;

/// [`search`] with a policy that orders the candidates of each position: a depth-first
/// search in the policy's order (lines of at most 1, 2, 4, 8 and 16 commands first, so
/// short wins come first, then every line), with a table of the positions already explored (keyed
/// so that other orders of the same actions and other copies of a card meet, see
/// [`position_key`]) and the admissible cuts of [`hopeless`].
pub fn search_with(start: &Duel, goal: Outcome, budget: usize, policy: Policy<'_>) -> Search {
    search_watched(start, goal, budget, policy, &mut |_| true)
}

/// [`search_with`] that reports the positions tried so far to `progress` every
/// [`PROGRESS_EVERY`] positions; the search stops (`Search::Cancelled`) when it returns
/// `false`.
pub fn search_watched(
    start: &Duel,
    goal: Outcome,
    budget: usize,
    policy: Policy<'_>,
    progress: &mut dyn FnMut(usize) -> bool,
) -> Search {
    // Short lines first (cheap: the table keeps what the shallow passes proved), then
    // the whole tree.
    deepening(
        start,
        goal,
        budget,
        policy,
        progress,
        &[1, 2, 4, 8, 16, MAX_LINE],
    )
}

/// The depth-first search of [`search_watched`], one pass per line length in `limits`.
fn deepening(
    start: &Duel,
    goal: Outcome,
    budget: usize,
    policy: Policy<'_>,
    progress: &mut dyn FnMut(usize) -> bool,
    limits: &[u16],
) -> Search {
    let start = &without_log(start);
    let mut ctx = Ctx::new(start, goal, budget, policy);
    for &limit in limits {
        let mut pass = Pass::new(start.clone(), limit);
        match pass.run(&mut ctx, progress) {
            PassState::Cancelled => return Search::Cancelled,
            PassState::Won => return Search::Found(ctx.path),
            PassState::Failed { cut: false } if !ctx.capped => return Search::Impossible,
            PassState::Paused => break,
            PassState::Failed { .. } if limit == MAX_LINE => break,
            PassState::Failed { .. } => {}
        }
    }
    Search::GaveUp
}

/// The longest line a search follows: far beyond any first turn (the longest wins
/// found are under 100 commands), so reaching it only guards against a rule loop.
const MAX_LINE: u16 = 1000;

/// The shortest line to the goal that a search finds, and whether it is proved the
/// shortest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shortest {
    pub line: Vec<Command>,
    /// No line of fewer commands reaches the goal (every shorter line was tried).
    pub proved: bool,
}

/// From a winning `line` (one that replays from `start` to `goal`), the shortest line
/// the solver can find: first every command that the win does not need is dropped, one
/// at a time, each shorter line checked by replaying it ([`minimize`]); then depth-first
/// passes of at most `budget` positions in all, each allowing one command less than the
/// best line so far: a line a pass finds becomes the best one, and a pass that finds
/// none proves the best line a shortest one. The passes share their table of refuted
/// positions (a position with no win within `n` commands has none within fewer). A
/// `line` that does not win is given back as it is, unproved.
///
/// Passes from the top instead of deepening from no command at all (2026-12-06): the
/// minimized line is often a shortest one already, which one pass then proves, and where
/// it is not, the first pass soon finds a shorter one in the guide's order. On the 939
/// won positions reached in play of `duel-hint-time -- 60 16000`, with the same
/// positions for each: 800 positions proved 173 lines shortest instead of 140, 4,000
/// positions 263 instead of 230 in 30% less time, 16,000 positions 352 instead of 314
/// in 22% less time, and the lines were 3-5% shorter in all; deepening proved 22 lines
/// that the passes from the top did not (its shortest far below the minimized line),
/// and the two never proved different lengths (both measured before the search for the
/// shortest line kept the Sets of Quick-Play Spells, `Dominance::for_shortest`).
pub fn shortest(
    start: &Duel,
    goal: Outcome,
    line: Vec<Command>,
    budget: usize,
    policy: Policy<'_>,
) -> Shortest {
    shortest_watched(start, goal, line, budget, policy, &mut |_| true)
}

/// [`shortest`] that reports the positions searched so far to `progress` every
/// [`PROGRESS_EVERY`] positions; when it returns `false` the search stops and the cut
/// line comes back unproved.
pub fn shortest_watched(
    start: &Duel,
    goal: Outcome,
    line: Vec<Command>,
    budget: usize,
    policy: Policy<'_>,
    progress: &mut dyn FnMut(usize) -> bool,
) -> Shortest {
    let line = minimize(start, goal, line);
    let unproved = |line| Shortest {
        line,
        proved: false,
    };
    if !wins(start, goal, &line) {
        return unproved(line);
    }
    let start = &without_log(start);
    let mut ctx = Ctx::new(start, goal, budget, policy);
    ctx.dominance = ctx.dominance.for_shortest(start);
    let mut line = line;
    loop {
        // No line of fewer commands than the best so far is known to win: search for one.
        let Some(limit) = line.len().checked_sub(1) else {
            return Shortest { line, proved: true };
        };
        ctx.path.clear();
        let limit = u16::try_from(limit).unwrap_or(u16::MAX);
        match Pass::new(start.clone(), limit).run(&mut ctx, progress) {
            PassState::Cancelled | PassState::Paused => return unproved(line),
            // A shorter line: the next pass looks below it.
            PassState::Won => line = std::mem::take(&mut ctx.path),
            PassState::Failed { .. } if ctx.capped || ctx.nodes >= ctx.budget => {
                return unproved(line);
            }
            // Every line of fewer commands was searched in full: this one is a shortest.
            PassState::Failed { .. } => return Shortest { line, proved: true },
        }
    }
}

/// How many of `line`'s commands, replayed from `start`, reach `goal` (`None`: they do
/// not reach it, or one is refused).
fn reaches(start: &Duel, goal: Outcome, line: &[Command]) -> Option<usize> {
    let mut d = start.clone();
    for (n, cmd) in line.iter().enumerate() {
        if d.outcome().is_some() {
            return (d.outcome() == Some(goal)).then_some(n);
        }
        d.apply(cmd.clone()).ok()?;
    }
    (d.outcome() == Some(goal)).then_some(line.len())
}

/// Whether `line` replays from `start` to `goal`, using every command.
fn wins(start: &Duel, goal: Outcome, line: &[Command]) -> bool {
    reaches(start, goal, line) == Some(line.len())
}

/// `line` without the commands the win does not need: each is left out in turn and kept
/// out when the rest still replays from `start` to `goal` (cut where the goal is reached),
/// until no single command can go. A guided playout's line carries detours a player
/// would not take. A line that does not win comes back unchanged.
pub fn minimize(start: &Duel, goal: Outcome, mut line: Vec<Command>) -> Vec<Command> {
    if !wins(start, goal, &line) {
        return line;
    }
    loop {
        let before = line.len();
        // The position after `line[..i]`, so each try replays only what follows.
        let mut prefix = start.clone();
        let mut i = 0;
        while i < line.len() {
            if let Some(n) = reaches(&prefix, goal, &line[i + 1..]) {
                line.remove(i);
                line.truncate(i + n);
            } else {
                if prefix.apply(line[i].clone()).is_err() {
                    // Cannot happen: the line replays; keep it as it is.
                    return line;
                }
                i += 1;
            }
        }
        if line.len() == before {
            return line;
        }
    }
}

/// Whether the admissible cuts the search uses call `d` lost for `goal` without
/// searching it: the first turn's End Phase with nothing left that could draw, search or
/// deal damage, or (for Exodia) a piece that no card left can bring to the hand, that
/// lies deeper in the deck than every draw left can reach, or more pieces in the
/// graveyard and banishment than the revivals left can bring back. Sound: it never calls a
/// winnable position lost (checked against an exhaustive search in the tests).
pub fn hopeless(d: &Duel, goal: Outcome) -> bool {
    bound::hopeless(d, goal, &bound::Facts::of(d))
}

/// Whether a depth-first search from `d` leaves out `cmd` there: a Set or a Normal
/// Summon that not playing does at least as well as, by what the duel's cards read, or
/// ending the turn when nothing could happen in the End Phase (see the `dominance` module).
/// Reads every card of the duel: a search reads them once.
pub fn dominated(d: &Duel, cmd: &Command) -> bool {
    dominance::Dominance::of(d).drops(d, cmd)
}

/// What a depth-first search from `start` leaves out at the positions it meets, as a
/// test of a position and a command: [`dominated`]'s commands, and below a start before
/// the End Phase, activations in the End Phase (the Main Phase before it allows them).
pub fn dominance_from(start: &Duel) -> impl Fn(&Duel, &Command) -> bool + use<> {
    let rule = dominance::Dominance::of(start);
    move |d, cmd| rule.drops(d, cmd)
}

/// A key of everything that decides what can still happen, equal for positions that
/// differ only in which copy of a card is where or in orders nothing reads (see
/// the `key` module). The command log and the event journal do not matter.
pub fn position_key(d: &Duel) -> u128 {
    key::key(d)
}

/// What a depth-first search keeps from one pass to the next: the positions refuted so
/// far, the line to the position it is at, and the budget.
struct Ctx<'p> {
    goal: Outcome,
    budget: usize,
    policy: Policy<'p>,
    nodes: usize,
    /// The positions refuted so far (shared with a search by deviations beside it).
    failed: Refuted,
    path: Vec<Command>,
    /// Some selection had more answers than the search tries.
    capped: bool,
    /// The commands not playing does as well as (read from the duel's cards).
    dominance: dominance::Dominance,
    /// What the cuts read of the duel's cards as a whole.
    facts: bound::Facts,
    /// Positions decided, for the next copies.
    pool: Pool,
}

impl<'p> Ctx<'p> {
    fn new(start: &Duel, goal: Outcome, budget: usize, policy: Policy<'p>) -> Ctx<'p> {
        Ctx {
            dominance: dominance::Dominance::of(start),
            facts: bound::Facts::of(start),
            goal,
            budget,
            policy,
            nodes: 0,
            failed: Refuted::default(),
            path: Vec::new(),
            capped: false,
            pool: Pool::default(),
        }
    }
}

/// The positions refuted by the passes of a search, and by those of a search by
/// deviations from the same position in the same order beside it (which try the same
/// candidates): for each key, the most commands left with which no line from it reaches
/// the goal, and the most deviations (see [`Limit`]); `u16::MAX` in both, no line at all.
/// Shared by the searches' contexts: each reads what the other proved.
#[derive(Debug, Clone, Default)]
struct Refuted(Rc<RefCell<HashMap<key::Key, [u16; 2]>>>);

impl Refuted {
    /// Whether no line with `remaining` left of what `limit` counts reaches the goal:
    /// `Some(cut)`, `cut` when that is known only within a limit (some line was stopped
    /// by it, as it would be again), `None` when the table does not tell.
    fn refutes(&self, key: key::Key, limit: Limit, remaining: u16) -> Option<bool> {
        let left = self.0.borrow().get(&key)?[limit as usize];
        (left >= remaining).then_some(left != u16::MAX)
    }

    /// Records that no line with `remaining` left (`u16::MAX`: any line) reaches the goal.
    fn record(&self, key: key::Key, limit: Limit, remaining: u16) {
        let mut table = self.0.borrow_mut();
        let r = table.entry(key).or_default();
        if remaining == u16::MAX {
            *r = [u16::MAX; 2];
        } else {
            r[limit as usize] = r[limit as usize].max(remaining);
        }
    }

    /// The same entries (for tests).
    #[cfg(test)]
    fn entries(&self) -> HashMap<key::Key, [u16; 2]> {
        self.0.borrow().clone()
    }
}

/// A search's starting position without the log of the game so far and recording
/// nothing from here (no command log, no journal of events), which would be cloned at
/// every position for nothing.
fn without_log(start: &Duel) -> Duel {
    let mut start = start.clone();
    start.log.clear();
    start.journal = crate::state::Journal {
        off: true,
        ..crate::state::Journal::default()
    };
    start
}

/// How often (in positions or playouts) a watched search reports its progress.
pub const PROGRESS_EVERY: usize = 256;

/// Where a pass of the depth-first search stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PassState {
    /// A line to the goal: the context's path.
    Won,
    /// No line within the limit; `cut`: the limit stopped some line.
    Failed { cut: bool },
    /// The budget ran out; [`Pass::run`] with a larger budget goes on from here.
    Paused,
    /// The progress callback said stop.
    Cancelled,
}

/// A position whose candidates a pass is trying, one after another.
struct Trying {
    /// The position (taken by its last candidate, which needs no copy).
    here: Option<Duel>,
    /// The candidates still to try, the next one last.
    todo: Vec<Command>,
    key: Option<key::Key>,
    remaining: u16,
    /// Some line below was stopped by the limit.
    cut: bool,
    /// The next candidate is the position's first.
    first: bool,
}

/// What a pass's limit counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Limit {
    /// Every command of the line.
    Commands = 0,
    /// Only the commands that are not their position's first candidate (the guide's
    /// choice): a position with none left tries its first candidate alone.
    Deviations = 1,
}

/// One depth-first pass from a position, in the policy's order, with a limit on the
/// line's length: a table of the positions already refuted (keyed so that other orders
/// of the same actions and other copies of a card meet, see [`position_key`]) and the
/// admissible cuts of [`hopeless`]. Its stack is explicit, so a pass that ran out of
/// budget goes on later exactly where it stopped, as if the budget had been larger
/// from the start.
struct Pass {
    limit: Limit,
    stack: Vec<Trying>,
    /// The next position to enter, with the commands still allowed below it.
    next: Option<(Duel, u16)>,
    /// How the pass ended, once it has.
    ended: Option<PassState>,
}

impl Pass {
    /// A pass whose lines have at most `commands` commands.
    fn new(root: Duel, commands: u16) -> Pass {
        Pass::limited(root, commands, Limit::Commands)
    }

    /// A pass allowing `remaining` of what `limit` counts below the root.
    fn limited(root: Duel, remaining: u16, limit: Limit) -> Pass {
        Pass {
            limit,
            stack: Vec::new(),
            next: Some((root, remaining)),
            ended: None,
        }
    }

    /// Searches on until the root is decided, the budget runs out (`Paused`: call again
    /// with a larger `ctx.budget`) or `progress` says stop.
    fn run(&mut self, ctx: &mut Ctx<'_>, progress: &mut dyn FnMut(usize) -> bool) -> PassState {
        if let Some(ended) = self.ended {
            return ended;
        }
        let state = self.go_on(ctx, progress);
        if state != PassState::Paused {
            self.ended = Some(state);
        }
        state
    }

    fn go_on(&mut self, ctx: &mut Ctx<'_>, progress: &mut dyn FnMut(usize) -> bool) -> PassState {
        loop {
            let done = match self.next.take() {
                Some((d, remaining)) => match self.enter(d, remaining, ctx, progress) {
                    Some(PassState::Failed { cut }) => Some(cut),
                    Some(other) => return other,
                    None => None,
                },
                None => self.advance(ctx),
            };
            // A position was decided (failed): back to the one before it.
            if let Some(cut) = done {
                let Some(top) = self.stack.last_mut() else {
                    return PassState::Failed { cut };
                };
                top.cut |= cut;
                ctx.path.pop();
            }
        }
    }

    /// Enters a position: decided at once (`Some`), or a frame pushed (`None`).
    fn enter(
        &mut self,
        d: Duel,
        remaining: u16,
        ctx: &mut Ctx<'_>,
        progress: &mut dyn FnMut(usize) -> bool,
    ) -> Option<PassState> {
        if let Some(o) = d.outcome() {
            ctx.pool.give(d);
            return Some(if o == ctx.goal {
                PassState::Won
            } else {
                PassState::Failed { cut: false }
            });
        }
        // A line of deviations is not bounded by its limit: only the length guard stops it.
        let deviations = self.limit == Limit::Deviations;
        if (remaining == 0 && !deviations) || ctx.path.len() >= usize::from(MAX_LINE) {
            ctx.pool.give(d);
            return Some(PassState::Failed { cut: true });
        }
        if ctx.nodes >= ctx.budget {
            self.next = Some((d, remaining));
            return Some(PassState::Paused);
        }
        // Only quiet positions are keyed: a position within an activation (a prompt, a
        // chain, a running effect) is reached from the quiet one before it by one line
        // of answers, and no other order of actions meets it (measured: no position
        // within an activation was ever found in the table), so keying it would cost
        // for nothing.
        let key = key::quiet(&d).then(|| key::key(&d));
        // A refutation within a limit is a cut as the first one was: a position above
        // that counted it as a whole one would be recorded as lost whatever the limit.
        if let Some(key) = key
            && let Some(cut) = ctx.failed.refutes(key, self.limit, remaining)
        {
            ctx.pool.give(d);
            return Some(PassState::Failed { cut });
        }
        if bound::hopeless(&d, ctx.goal, &ctx.facts) {
            // Lost whatever the limit: the table keeps it, which saves the cut's work if
            // the position comes again.
            if let Some(key) = key {
                ctx.failed.record(key, self.limit, u16::MAX);
            }
            ctx.pool.give(d);
            return Some(PassState::Failed { cut: false });
        }
        let mut found = candidates(&d);
        ctx.capped |= !found.complete;
        if ctx.dominance.only_ending(&d) {
            // An End Phase whose activations the Main Phase before it allowed: no choice.
            found
                .commands
                .retain(|c| matches!(c, Command::EndTurn | Command::AdvancePhase));
        }
        let mut todo = (ctx.policy)(&d, found.commands);
        // A position counts against the budget when it offers a choice: one with a
        // single answer (a prompt with one option) costs no more than the move that led
        // to it. The commands left out as dominated count in that choice: a position
        // costs the same whether or not they are tried, so a budget buys about as much
        // time as before they were left out, and more proofs. (An End Phase that only
        // ends, above, costs nothing to try: it counts as no choice.)
        if todo.len() > 1 {
            ctx.nodes += 1;
            if ctx.nodes.is_multiple_of(PROGRESS_EVERY) && !progress(ctx.nodes) {
                return Some(PassState::Cancelled);
            }
        }
        todo.retain(|c| !ctx.dominance.drops(&d, c));
        let narrowed = deviations && remaining == 0 && todo.len() > 1;
        if narrowed {
            todo.truncate(1);
        }
        todo.reverse();
        self.stack.push(Trying {
            here: Some(d),
            todo,
            key,
            remaining,
            cut: narrowed,
            first: true,
        });
        None
    }

    /// Plays the top frame's next candidate (`None`), or, when it has tried them all,
    /// records its position as refuted and pops it (`Some(cut)`).
    fn advance(&mut self, ctx: &mut Ctx<'_>) -> Option<bool> {
        let top = self.stack.last_mut()?;
        if let Some(cmd) = top.todo.pop() {
            // The last candidate takes the position itself instead of a copy.
            let here = if top.todo.is_empty() {
                top.here.take()
            } else {
                top.here.as_ref().map(|d| ctx.pool.copy(d))
            };
            if let Some(mut next) = here {
                next.apply_valid(&cmd);
                ctx.path.push(cmd);
                let spent = match self.limit {
                    Limit::Commands => 1,
                    Limit::Deviations => u16::from(!top.first),
                };
                top.first = false;
                self.next = Some((next, top.remaining - spent));
                return None;
            }
        }
        let mut frame = self.stack.pop()?;
        if let Some(d) = frame.here.take() {
            ctx.pool.give(d);
        }
        if let Some(key) = frame.key {
            let remaining = if frame.cut { frame.remaining } else { u16::MAX };
            ctx.failed.record(key, self.limit, remaining);
        }
        Some(frame.cut)
    }
}

/// Candidates in the order a guide would try them: the first `preferred` are what a
/// player would normally consider; the rest are kept for proofs (a search that drops a
/// command proves nothing).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ordered {
    pub commands: Vec<Command>,
    pub preferred: usize,
}

/// Orders the candidate commands of a position, best first. Only commands that lose at
/// once may be dropped, or ones that not playing them does at least as well as (a
/// search that drops a command still proves a loss only if a line it keeps does all
/// that command could).
pub type Guide = fn(&Duel, Vec<Command>) -> Ordered;

/// The [`Policy`] of a goal's guide: its order, with nothing dropped but commands that
/// lose at once.
pub fn order_for(goal: Outcome) -> impl Fn(&Duel, Vec<Command>) -> Vec<Command> {
    let guide = policy_for(goal);
    move |d, c| guide(d, c).commands
}

/// The guidance for a goal: an Exodia player's instincts, or a burn player's.
pub fn policy_for(goal: Outcome) -> Guide {
    match goal.reason() {
        Reason::Lp0 => burn_policy,
        _ => exodia_policy,
    }
}

/// Cards named by a "win with all of these in hand" rule (read once).
pub(crate) fn win_pieces() -> &'static [Code] {
    static PIECES: std::sync::OnceLock<Vec<Code>> = std::sync::OnceLock::new();
    PIECES.get_or_init(|| {
        crate::engine::win_rules()
            .iter()
            .flat_map(|(card, pieces)| std::iter::once(*card).chain(pieces.iter().copied()))
            .collect()
    })
}

/// Positions the solver has done with, kept to become its next copies: a copy made in
/// one of them reuses the room of its lists (the card list, the running effects, the
/// once-per-turn marks, ...) instead of allocating new ones, and nothing is freed when
/// it is given back. Its piles are let go at once: a pile another position still holds
/// is changed in place only once nothing else holds it.
#[derive(Default)]
pub(crate) struct Pool {
    spare: Vec<Duel>,
    /// The empty pile the spares hold instead of their own.
    empty: crate::state::Pile,
}

/// The most positions a [`Pool`] keeps.
const POOLED: usize = 32;

impl Pool {
    /// A copy of `d`.
    pub(crate) fn copy(&mut self, d: &Duel) -> Duel {
        match self.spare.pop() {
            Some(mut spare) => {
                spare.copy_from(d);
                spare
            }
            None => d.clone(),
        }
    }

    /// Keeps `d` for a later copy.
    pub(crate) fn give(&mut self, mut d: Duel) {
        if self.spare.len() >= POOLED {
            return;
        }
        for p in &mut d.players {
            for pile in [
                &mut p.deck,
                &mut p.hand,
                &mut p.graveyard,
                &mut p.banished,
                &mut p.extra,
            ] {
                pile.clone_from(&self.empty);
            }
        }
        self.spare.push(d);
    }
}

pub(crate) fn code_in(d: &Duel, id: CardId) -> Code {
    d.instance(id).map_or(0, |c| c.code)
}

fn effect_steps(code: Code, kind: EffectKind) -> impl Iterator<Item = &'static Step> {
    crate::card::card(code)
        .into_iter()
        .flat_map(|c| c.effects.iter())
        .filter(move |e| e.kind == kind)
        .flat_map(|e| e.steps())
}

/// The LP an activation of this card's effect of `kind` costs.
fn lp_cost(code: Code, kind: EffectKind) -> u32 {
    effect_steps(code, kind)
        .map(|s| match s {
            Step::PayLp {
                amount: Amount::Fixed(n),
            } => *n,
            _ => 0,
        })
        .sum()
}

/// An activation whose LP cost takes all your LP: you lose at once.
fn loses_at_once(d: &Duel, c: &Command) -> bool {
    let lp = d.player(crate::state::Player::You).lp;
    match c {
        Command::ActivateEffect { card } => lp_cost(code_in(d, *card), EffectKind::Ignition) >= lp,
        Command::ActivateSpell { card } => lp_cost(code_in(d, *card), EffectKind::Activation) >= lp,
        _ => false,
    }
}

/// The purpose of the pending card selection, if any.
fn purpose(d: &Duel) -> Option<Purpose> {
    match &d.prompt.as_ref()?.state {
        PromptState::Cards { purpose, .. } => Some(*purpose),
        _ => None,
    }
}

/// Sorts candidates by `(demoted, score)` after dropping those that lose at once; equal
/// keys keep their listed order.
///
/// One copy for every policy (`key` is a trait object) and an unstable sort with the
/// position as the last key, which orders exactly as a stable sort by key would: the
/// stable sort's code, once per policy, weighed some 8 KB in the web app's wasm.
fn order(d: &Duel, cmds: Vec<Command>, key: &dyn Fn(&Command) -> (bool, i64)) -> Ordered {
    let mut keyed: Vec<((bool, i64, usize), Command)> = Vec::with_capacity(cmds.len());
    keyed.extend(
        cmds.into_iter()
            .filter(|c| !loses_at_once(d, c))
            .enumerate()
            .map(|(i, c)| {
                let (demoted, score) = key(&c);
                ((demoted, score, i), c)
            }),
    );
    keyed.sort_unstable_by_key(|(k, _)| *k);
    let preferred = keyed.iter().filter(|((demoted, _, _), _)| !demoted).count();
    Ordered {
        commands: keyed.into_iter().map(|(_, c)| c).collect(),
        preferred,
    }
}

/// Modes of the pending mode choice whose resolution draws (read from the prompt itself:
/// the policy runs at every position, where building a view would cost more than the
/// rest of it).
fn drawing_modes(d: &Duel) -> Vec<u8> {
    modes_where(d, |steps| {
        steps.iter().any(|s| matches!(s, Step::Draw { .. }))
    })
}

/// Modes of the pending mode choice whose resolution only makes the opponent gain LP
/// (Chicken Game's third mode).
fn gifting_modes(d: &Duel) -> Vec<u8> {
    modes_where(d, |steps| {
        !steps.is_empty()
            && steps.iter().all(|s| {
                matches!(
                    s,
                    Step::GainLp {
                        who: crate::effect::Who::Opponent,
                        ..
                    }
                )
            })
    })
}

/// The options of the pending mode choice whose mode's steps pass `test`.
fn modes_where(d: &Duel, test: impl Fn(&[Step]) -> bool) -> Vec<u8> {
    let Some(PromptState::Mode { card, options, .. }) = d.prompt.as_ref().map(|p| &p.state) else {
        return Vec::new();
    };
    let Some(def) = crate::card::card(code_in(d, *card)) else {
        return Vec::new();
    };
    options
        .iter()
        .copied()
        .filter(|&o| {
            def.effects.iter().any(|e| {
                e.modes
                    .get(usize::from(o))
                    .is_some_and(|m| test(&m.resolve))
            })
        })
        .collect()
}

/// An Exodia player's instincts: keep pieces and vanilla monsters off the field, take
/// pieces when adding cards and keep them when discarding (unless a card at hand can
/// bring them back from the graveyard, as the winning lines of Dark Factory decks do),
/// choose modes that draw, do not Set. (Demoted commands are still tried by the search.)
///
/// A mode that only makes the opponent gain LP is dropped: its activation paid a cost
/// and used the effect for nothing an Exodia player needs, so not activating at all
/// (which the search tries too) leaves at least as much to do. No condition reads the
/// opponent's LP or rewards having paid LP: the card data's only LP condition is "you
/// have at least N LP".
fn exodia_policy(d: &Duel, mut cmds: Vec<Command>) -> Ordered {
    let gifting = gifting_modes(d);
    if !gifting.is_empty() {
        cmds.retain(|c| !matches!(c, Command::Respond(Response::Option(v)) if gifting.contains(v)));
    }
    let pieces = win_pieces();
    let count = |ids: &[CardId]| {
        ids.iter()
            .filter(|&&id| pieces.contains(&code_in(d, id)))
            .count() as i64
    };
    let gain = |ids: &[CardId]| {
        ids.iter()
            .map(|&id| bound::hand_gain(code_in(d, id)))
            .sum::<i64>()
    };
    let drawing = drawing_modes(d);
    let purpose = purpose(d);
    // When discarding: the pieces worth keeping, those no card at hand can bring back
    // from the graveyard (read once per position, not once per candidate).
    let keep: Vec<Code> = match purpose {
        None | Some(Purpose::AddToHand | Purpose::Target) => Vec::new(),
        Some(_) => pieces
            .iter()
            .copied()
            .filter(|&p| !crate::card::card(p).is_some_and(|def| bound::back_from_grave(d, def)))
            .collect(),
    };
    order(d, cmds, &|c| match (c, purpose) {
        (Command::SetMonster { .. } | Command::SetSpellTrap { .. }, _) => (true, 0),
        (Command::SummonMonster { card }, _) => {
            let code = code_in(d, *card);
            let plain = crate::card::card(code)
                .is_none_or(|def| def.frame == Frame::Normal || pieces.contains(&code));
            (plain, 0)
        }
        (Command::Respond(Response::Option(v)), _) if !drawing.is_empty() => {
            (!drawing.contains(v), 0)
        }
        // Pieces first, then the cards that bring the most cards to the hand.
        (Command::Respond(Response::Cards(ids)), Some(Purpose::AddToHand | Purpose::Target)) => {
            (false, -count(ids) * 100 - gain(ids))
        }
        // Keep the pieces no card can bring back, then the cards that bring the most.
        (Command::Respond(Response::Cards(ids)), Some(_)) => {
            let lost = ids.iter().filter(|&&id| keep.contains(&code_in(d, id)));
            (false, lost.count() as i64 * 100 + gain(ids))
        }
        (Command::EndTurn, _) => (true, 1),
        _ => (false, 0),
    })
}

/// A burn player's instincts: summon the monsters whose effects burn or summon, activate
/// damage first, then the other effects, and Tribute the strongest monster that has no
/// effect of its own to use; do not Set.
fn burn_policy(d: &Duel, cmds: Vec<Command>) -> Ordered {
    let ignition = |id: CardId| {
        effect_steps(code_in(d, id), EffectKind::Ignition)
            .next()
            .is_some()
    };
    let burns = |id: CardId| {
        effect_steps(code_in(d, id), EffectKind::Ignition).any(|s| matches!(s, Step::Damage { .. }))
    };
    let atk = |id: CardId| crate::card::card(code_in(d, id)).map_or(0, |c| i64::from(c.atk()));
    let purpose = purpose(d);
    order(d, cmds, &|c| match (c, purpose) {
        (Command::SetMonster { .. } | Command::SetSpellTrap { .. }, _) => (true, 0),
        (Command::Respond(Response::Cards(ids)), Some(Purpose::Tribute)) => {
            let keep = ids.iter().filter(|&&id| ignition(id)).count() as i64 * 10_000;
            (false, keep - ids.iter().map(|&id| atk(id)).sum::<i64>())
        }
        (Command::ActivateEffect { card }, _) if burns(*card) => (false, -3),
        (Command::ActivateEffect { .. }, _) => (false, -2),
        (Command::SummonMonster { card }, _) if ignition(*card) => (false, -1),
        (Command::EndTurn, _) => (true, 1),
        _ => (false, 0),
    })
}

/// Plays the guide with random tie-breaks until the duel ends (at most 300 commands),
/// among the preferred candidates: the first is taken most often, later ones
/// geometrically less.
pub fn rollout(start: &Duel, rng: &mut Rng, guide: Guide) -> (Duel, Vec<Command>) {
    let mut d = start.clone();
    let mut line = Vec::new();
    while d.outcome().is_none() && line.len() < 300 {
        let cmd = guided_choice(&d, rng, guide);
        if d.apply(cmd.clone()).is_ok() {
            line.push(cmd);
        } else {
            break;
        }
    }
    (d, line)
}

/// One move of a playout: among the guide's preferred candidates (all of them when it
/// prefers none), the first most often and later ones geometrically less, sometimes
/// any at random; ending the turn when there is nothing else.
/// Plays a command the guided playouts chose: one of the listed choices, validated as
/// they were listed, or ending the turn when none was left, validated here. Whether it
/// was played.
pub(super) fn play(d: &mut Duel, cmd: &Command) -> bool {
    if *cmd == Command::EndTurn {
        return d.apply(Command::EndTurn).is_ok();
    }
    d.apply_valid(cmd);
    true
}

pub(crate) fn guided_choice(d: &Duel, rng: &mut Rng, guide: Guide) -> Command {
    let ordered = guide(d, choices(d));
    let mut options = ordered.commands;
    if ordered.preferred > 0 {
        options.truncate(ordered.preferred);
    }
    if options.is_empty() {
        options = vec![Command::EndTurn];
    }
    let mut i = 0;
    while i + 1 < options.len() && rng.chance(0.45) {
        i += 1;
    }
    if rng.chance(0.3) {
        i = rng.index(options.len());
    }
    options.swap_remove(i)
}

/// How a [`solve`] found its answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    Rollout,
    Search,
}

/// Looks for a line to `goal` knowing everything (the deck order included): nested and
/// adaptive searches of guided playouts (`budget / 2` playouts in all; a winning line comes
/// back [`minimize`]d) and a depth-first search of at most `budget` positions in the
/// guide's order. The answer is the one the search run after the playouts would give
/// (the playouts' line if they find one, otherwise the search's answer), but the search
/// runs beside them, so a loss it proves is known before the playouts are all spent.
/// Deterministic for a given `seed`.
pub fn solve(start: &Duel, goal: Outcome, budget: usize, seed: u64) -> (Search, Method) {
    solve_watched(start, goal, budget, seed, &mut |_| true)
}

/// [`solve`] that reports its work so far (playouts and positions) to `progress` every
/// [`PROGRESS_EVERY`] steps, as a share of the budget in 0..=1; it stops
/// (`Search::Cancelled`) when `progress` returns `false`.
///
/// The split, measured over 40 hands per deck (seeds 1000-1039) at budget 20,000: the
/// nested searches find nearly every win and the depth-first search the proofs of loss.
/// With `budget / 20` playouts (a tenth of them independent) and a search that first
/// tried lines of 1, 2, 4, 8 and 16 commands, 139 hands were won, 10 proved lost and 51
/// left undecided; one pass over every line length instead: 146/12/42; then
/// `budget / 5` playouts: 162/12/26, all of them in nested searches: 164/12/24 in less
/// time (`budget / 10`: 154/12/34; `budget / 3`: 165/12/23 in a fifth more time; a
/// search before the playouts, or more of it after them, found no more).
///
/// Later, over 200 hands of each of legacy-exodia, library-exodia and
/// scientist-catapult (seeds 0-199, budget 20,000; undecided hands and CPU time of the
/// three): a search of `budget / 2` positions left 34 + 32 + 25 undecided in 32.5 s;
/// twice the playouts 32 + 28 + 22 in 42.2 s; a search of `budget` positions
/// 28 + 28 + 19 in 42.7 s, of `2 * budget` 25 + 24 + 18 in 61.1 s; half the playouts
/// with a search of `budget` 36 + 31 + 26 in 42.1 s. Positions proving a loss are worth
/// more than playouts beyond `budget / 5`, and playouts below it cost wins: the search
/// has `budget` positions.
///
/// With the Exodia guide's order by what cards bring to the hand (revision 8), playouts
/// became worth more (seeds 0-199 of the same three decks; undecided and CPU time): `budget
/// / 5` playouts 19 + 29 + 18 (legacy and library in 31.8 s), `budget / 3` 19 + 26 + 16,
/// `budget / 2` 18 + 23 + 16 in 40.6 s, `budget` 18 + 22 in 58.7 s; for the same time,
/// `budget / 5` with a budget of 26,000 left 19 + 26 (37.6 s), `budget / 2` with 16,000
/// 18 + 26 + 17 (35.0 s). On seeds 200-399 `budget / 2` took legacy from 32 to 25 and
/// library from 21 to 17, for a fifth to a quarter more time: the playouts are `budget / 2`.
///
/// Revision 10 hands three quarters of an Exodia hand's playouts to adaptive searches
/// (`adapt`), which learn which moves the best lines take. Undecided hands of
/// legacy-exodia and library-exodia (budget 20,000): seeds 0-199, 17 + 23 in 41.4 s with
/// nested searches alone (and a budget of 27,000: 17 + 18 in 50.0 s) against 11 + 20 in
/// 54.1 s; seeds 200-399, 27 + 18 in 41.0 s against 17 + 17 in 49.7 s. Half the
/// playouts adaptive left 12 + 24 and 17 + 18; all of them (in runs of level 2 with 100
/// iterations) 12 + 41: the nested searches find the easier wins sooner. On
/// scientist-catapult the same split left 10 + 14 undecided where nested searches alone
/// left 13 + 11, in half as much time again: a burn keeps the nested searches only.
///
/// Since then the search runs beside the playouts (a pass that stops where its budget so
/// far ends and goes on later exactly there, `Pass`): `budget / 100` positions first,
/// then up to `budget / 2` in step with the playouts, then the rest. Every answer and
/// line stays the same; on the same 1,000 hands (seeds 0-199 of each deck, budget
/// 20,000) a proved loss took 1.4-2.6 times less time (exodia 158 → 69 ms on average,
/// legacy 158 → 86, library 250 → 138, panda 133 → 99, scientist 96 → 37) and a win 3-7
/// ms more (the search's share spent before the playouts find it); the mean time per
/// hand moved from 15.4 / 83.3 / 83.1 / 25.2 / 40.5 ms to 17.5 / 80.1 / 80.0 / 24.1 /
/// 39.4. The whole budget beside the playouts made losses 2.6-7 times faster but wins
/// 4-14 ms slower (the medians 1.5-3.5 ms higher); a head start of `budget / 20`, 10 ms
/// more on every win.
///
/// Revision 13 searches a burn with stand-ins beside it (`relax`: every Fusion Monster
/// of the Extra Deck the strongest, or the weakest, of its kind), where the choice of
/// Fusion Monster at each Magical Scientist no longer splits the tree. While the
/// playouts run, the search with the strongest stand-ins takes the place of the duel's
/// own (whose proofs of loss it gives sooner, and whose wins would wait for the playouts
/// anyway) and the one with the weakest gets a quarter of its positions; after them,
/// each gets the budget. On seeds 0-199 of scientist-catapult (budget 20,000) it left 0
/// hands undecided where revision 12 left 13 (8 proved lost, 5 won by a line found with
/// the weakest stand-ins), in 14.0 s instead of 16.6 s; run in step with the duel's own
/// search instead, as many decided but every win took longer (the median 13.6 → 20.8 ms,
/// p99 730 → 1,023 ms).
///
/// For the statistics' opening hands, [`solve_deep`] lets the search after the playouts
/// go on to forty times the budget (revision 16; twice at revision 15).
///
/// Since revision 19 the depth-first search after the playouts tries moves in the order
/// the adaptive playouts learned (the policy of the run whose best playout came
/// furthest, the guide's rank as its prior: `adapt::Learned`), starting again from the
/// top with what it refuted so far; the search by deviations deviates from that order.
/// The hands that get there are those the playouts did not win, and most of their time
/// went to wins that the search in the guide's order found late, under a first choice
/// it had to exhaust first. On the 104 hands of legacy-exodia-deck that took over 0.25 s
/// (seeds 0-999), solved by revisions 18 and 19 in turn on one core, the 79 wins took
/// 66.4 → 52.2 s (seed 172: 3.4 → 0.6 s, 987: 3.2 → 0.9 s, 782: 5.9 → 2.2 s) and the
/// proofs of loss the same 26.7 → 26.1 s; hands over 1 s 22 → 16, and seed 520, which
/// revision 18 left undecided at 12 s, was won in 1.3 s. Library-exodia's 90 slowest:
/// 80.7 → 76.8 s (seed 404 won instead of undecided). The learned order is kept only
/// once the playouts have run their course, so every win the playouts find is the
/// same; the lines the search finds changed on 2% of the hands, a command or two longer
/// on average.
pub fn solve_watched(
    start: &Duel,
    goal: Outcome,
    budget: usize,
    seed: u64,
    progress: &mut dyn FnMut(f64) -> bool,
) -> (Search, Method) {
    solve_searching(start, goal, budget, budget, false, seed, progress)
}

/// [`solve`] whose depth-first search, after the playouts, goes on to `SEARCH_AFTER *
/// budget` positions (forty times as many): the statistics' answer for an opening hand.
///
/// Only a hand that the playouts did not win and the first `budget / 2` positions did not
/// decide gets there, so the other hands take no more time. The hands that get there are
/// few (about 1% over the five decks) and most of them are decided by a longer search:
/// of the 63 hands that twice the budget left undecided (seeds 0-999 of each deck, budget
/// 20,000), fifty times the budget decided 51 (33 won, 18 proved lost), within 1-7 s
/// natively where they were decided, 10-21 s for the 12 it did not; twenty-five times
/// decided the same hands but one (library-exodia seed 68, proved lost at 6.3 s).
/// Revision 16 takes forty: every deck then has at most 0.5% of its hands undecided.
///
/// Since revision 17 that search takes turns, `budget` positions each, with a search by
/// deviations from the guide ([`search_deviating`], up to `DEVIATING_AFTER = 10` times
/// the budget), and the two share their table of refuted positions. Nearly all the
/// hard hands' wins were found by the depth-first search, which reaches a line that
/// leaves the guide's choice near the start only after every line below that choice;
/// the search by deviations tries the lines that leave it at fewest positions first.
/// Of the 12 hands revision 16 left undecided (seeds 0-999), it won 5 (panda-exodia
/// seeds 809, 975 and 976 within 0.4 s, after 2,700-6,400 positions of its own;
/// library-exodia 750 in 0.6 s; exodia-deck 126 in 2 s); the 7 left are undecided as
/// before. Its cap bounds what a proof of loss and an undecided hand pay for it:
/// without one, the 60 hands of legacy-exodia and library-exodia that took over 0.7 s
/// took 11% more time in all (107.6 → 119.0 s), their 4 undecided ones 8.4-8.7 s
/// instead of 4.7-5.1 s (with the cap 5.6-6.1 s). With it, those two decks' 1,000 hands
/// each took 190.3 s of CPU instead of 213.9 s.
///
/// Revision 15 went on to twice the budget. With the Exodia cut's count
/// of the draws left (revision 14) those positions prove more. Over 1,000 hands of each
/// deck (seeds 0-999, budget 20,000) it left 63 hands undecided where a search of
/// `budget` left 90 (exodia 4 → 3, legacy 33 → 25, library 33 → 23, panda 7 → 6,
/// scientist 13 → 6), each of the hands that get there taking some 0.3-0.4 s more
/// natively. Fewer playouts for the same time (a third of the budget, and twice its
/// positions after them) left 70, but exodia-deck's wins need the playouts (4 → 6); two
/// fifths and one and a half times the budget left 83. The hint keeps [`solve_watched`]:
/// on positions reached in play (`duel-hint-time -- 60 16000`) the longer search decided
/// 6 of 29 undecided ones, for p99 times up to a fifth longer (exodia 1.28 → 1.52 s).
pub fn solve_deep(start: &Duel, goal: Outcome, budget: usize, seed: u64) -> (Search, Method) {
    let positions = budget.saturating_mul(SEARCH_AFTER);
    solve_searching(start, goal, budget, positions, true, seed, &mut |_| true)
}

/// [`solve_watched`] whose depth-first search goes on to `positions` after the playouts,
/// taking turns with a search by deviations when `deep`.
fn solve_searching(
    start: &Duel,
    goal: Outcome,
    budget: usize,
    positions: usize,
    deep: bool,
    seed: u64,
    progress: &mut dyn FnMut(f64) -> bool,
) -> (Search, Method) {
    let start = &without_log(start);
    let guide = policy_for(goal);
    let mut rng = Rng::new(seed);
    let playouts = budget / 2;
    // For Exodia, the nested searches get the first quarter of the playouts and the
    // adaptive ones the rest; a burn is left to the nested searches (see above).
    let nested_playouts = match goal.reason() {
        Reason::Lp0 => playouts,
        _ => playouts / 4,
    };
    // The depth-first search runs beside the playouts: a head start, then as much of
    // its budget as the playouts have of theirs, then the rest. It is the same search as
    // one run after the playouts (a pass that stops goes on where it stopped), and the
    // playouts are the same, so every answer is the one the search after the playouts
    // gives, line for line; but a loss it proves no longer waits for every playout. A
    // win it finds waits for them still: a playout's line, when they find one, is the
    // shorter one to show.
    // The guide's order, until the adaptive playouts have learned one (see below).
    let learned = RefCell::new(adapt::Learned::default());
    let order = |d: &Duel, c: Vec<Command>| learned.borrow().order(d, guide(d, c).commands);
    let mut beside = Beside::new(start, goal, &order);
    let mut learning = adapt::Learned::default();
    let head = budget / SEARCH_HEAD_START;
    // Work reported: the playouts' share and the search's, half each.
    let share = |spent: usize, nodes: usize| {
        (spent as f64 / playouts.max(1) as f64 + nodes as f64 / positions.max(1) as f64) / 2.0
    };
    let mut spent = 0;
    let mut cancelled = false;
    let report = |spent| move |n| share(spent, n);
    if let Some(decided) = beside.run(start, head, false, &mut |n| progress(report(0)(n))) {
        return (decided, Method::Search);
    }
    while spent < playouts && !cancelled {
        let mut go = |done: usize| {
            let on = progress(share(done, beside.nodes()));
            cancelled |= !on;
            on
        };
        let before = spent;
        let found = if spent < nested_playouts {
            nested::search(
                start,
                goal,
                guide,
                &mut rng,
                nested_playouts,
                &mut spent,
                &mut go,
            )
        } else {
            let (line, learned) =
                adapt::search(start, goal, guide, &mut rng, playouts, &mut spent, &mut go);
            learning.merge(learned);
            line
        };
        if let Some(line) = found {
            return (Search::Found(minimize(start, goal, line)), Method::Rollout);
        }
        if spent == before || cancelled {
            break;
        }
        let to = head + (budget / SEARCH_BESIDE - head) * spent / playouts.max(1);
        if let Some(decided) = beside.run(start, to, false, &mut |n| progress(report(spent)(n))) {
            return (decided, Method::Search);
        }
    }
    if cancelled {
        return (Search::Cancelled, Method::Rollout);
    }
    // The rest of the search tries moves in the order the adaptive playouts learned:
    // the duel's own search starts again from the top in it (what it refuted so far
    // stays refuted), and the search by deviations deviates from it. On the slow wins
    // of legacy-exodia-deck the search in the learned order finds its line several
    // times sooner than in the guide's (README, issue 21).
    if learning.any() {
        *learned.borrow_mut() = learning;
        beside.restart_own(start);
    }
    if deep {
        // The search by deviations takes turns with the duel's own search, as many
        // positions each (see `solve_deep`), until it has had `most` or the duel's own
        // search all of its `positions`.
        let most = budget.saturating_mul(DEVIATING_AFTER);
        let refuted = beside
            .own()
            .map(|s| s.ctx.failed.clone())
            .unwrap_or_default();
        let mut deviating = Deviating::sharing(start, goal, &order, refuted);
        let mut to = beside.nodes();
        while to < positions && beside.searched.is_none() {
            to = to.saturating_add(budget).min(positions);
            if let Some(decided) = beside.run(start, to, true, &mut |n| progress(report(spent)(n)))
            {
                return (decided, Method::Search);
            }
            if beside.searched.is_some() {
                break;
            }
            if deviating.ctx.nodes >= most {
                continue;
            }
            let turn = deviating.ctx.nodes.saturating_add(budget).min(most);
            // Its turn reports the share the duel's own search has reached.
            match deviating.run(turn, &mut |_| progress(report(spent)(to))) {
                Some(Search::Found(line)) => {
                    return (Search::Found(minimize(start, goal, line)), Method::Search);
                }
                Some(Search::GaveUp) | None => {}
                Some(decided) => return (decided, Method::Search),
            }
        }
    }
    let decided = beside.run(start, positions, true, &mut |n| progress(report(spent)(n)));
    let found = beside.searched.map(Search::Found);
    (found.or(decided).unwrap_or(Search::GaveUp), Method::Search)
}

/// A search by deviations from the guide ([`search_deviating`]): passes of the
/// depth-first search that allow 1, 2, 3, ... commands other than their position's first
/// candidate, sharing one table (a position that failed with `k` deviations left fails
/// with fewer). Like [`Pass`], it stops at its budget and goes on later where it stopped.
struct Deviating<'p> {
    ctx: Ctx<'p>,
    pass: Pass,
    allowed: u16,
    start: Duel,
}

impl<'p> Deviating<'p> {
    fn new(start: &Duel, goal: Outcome, order: Policy<'p>) -> Deviating<'p> {
        Deviating::sharing(start, goal, order, Refuted::default())
    }

    /// A search by deviations that shares `refuted` with a search of the same position
    /// in the same order.
    fn sharing(start: &Duel, goal: Outcome, order: Policy<'p>, refuted: Refuted) -> Deviating<'p> {
        let start = without_log(start);
        Deviating {
            ctx: Ctx {
                failed: refuted,
                ..Ctx::new(&start, goal, 0, order)
            },
            pass: Pass::limited(start.clone(), 1, Limit::Deviations),
            allowed: 1,
            start,
        }
    }

    /// Searches on until `to` positions in all: `Some` when that decides the duel (a
    /// line, or a pass that no limit stopped: a proof of loss), `None` when the budget
    /// ran out first.
    fn run(&mut self, to: usize, progress: &mut dyn FnMut(usize) -> bool) -> Option<Search> {
        self.ctx.budget = to;
        loop {
            match self.pass.run(&mut self.ctx, progress) {
                PassState::Won => return Some(Search::Found(self.ctx.path.clone())),
                PassState::Cancelled => return Some(Search::Cancelled),
                PassState::Failed { cut: false } if !self.ctx.capped => {
                    return Some(Search::Impossible);
                }
                PassState::Failed { cut: true } if self.allowed < MAX_LINE => {
                    self.allowed += 1;
                    self.pass = Pass::limited(self.start.clone(), self.allowed, Limit::Deviations);
                }
                PassState::Paused => return None,
                // Searched to the end without a proof (a capped selection).
                PassState::Failed { .. } => return Some(Search::GaveUp),
            }
        }
    }
}

/// A depth-first search of at most `budget` positions in `policy`'s order that tries
/// the lines leaving that order at fewest positions first: passes allowing one
/// deviation (a command other than its position's first candidate), then two, and so on
/// ([`solve_deep`] runs it beside its own search). A win that needs a different choice
/// near the start, which a plain depth-first search only reaches after every line below
/// the guide's first choice there, comes within a few passes. A pass that no limit
/// stopped searched every line: its failure is a proof of loss.
pub fn search_deviating(start: &Duel, goal: Outcome, budget: usize, policy: Policy<'_>) -> Search {
    Deviating::new(start, goal, policy)
        .run(budget, &mut |_| true)
        .unwrap_or(Search::GaveUp)
}

/// The depth-first searches [`solve_watched`] runs beside its playouts: the search of
/// the duel itself and, for a burn whose Extra Deck has stand-ins, those of [`relax`].
struct Beside<'p> {
    /// The duel's own search first.
    searches: Vec<Searching<'p>>,
    /// The duel's own search's line, once it has found one.
    searched: Option<Vec<Command>>,
}

/// One depth-first search, of the duel itself (`stand_ins: None`) or with stand-ins.
struct Searching<'p> {
    stand_ins: Option<relax::Side>,
    ctx: Ctx<'p>,
    pass: Pass,
}

impl<'p> Beside<'p> {
    /// The duel's own search.
    fn own(&self) -> Option<&Searching<'p>> {
        self.searches.iter().find(|s| s.stand_ins.is_none())
    }

    /// Starts the duel's own search again from `start` (its table of refuted positions
    /// kept), for an order that has changed; not once it has found a line.
    fn restart_own(&mut self, start: &Duel) {
        if self.searched.is_some() {
            return;
        }
        if let Some(s) = self.searches.iter_mut().find(|s| s.stand_ins.is_none()) {
            s.pass = Pass::new(start.clone(), MAX_LINE);
            s.ctx.path.clear();
        }
    }

    /// The positions of the search that has tried the most.
    fn nodes(&self) -> usize {
        self.searches.iter().map(|s| s.ctx.nodes).max().unwrap_or(0)
    }

    fn new(start: &Duel, goal: Outcome, order: Policy<'p>) -> Beside<'p> {
        // Where the search with the strongest stand-ins fails, every line fails; a line
        // that wins with the weakest wins here.
        let mut searches = Vec::new();
        for stand_ins in [
            None,
            Some(relax::Side::Strongest),
            Some(relax::Side::Weakest),
        ] {
            let d = match stand_ins {
                None => Some(start.clone()),
                Some(side) => relax::stand_ins(start, goal, side),
            };
            if let Some(d) = d {
                searches.push(Searching {
                    stand_ins,
                    ctx: Ctx::new(&d, goal, 0, order),
                    pass: Pass::new(d, MAX_LINE),
                });
            }
        }
        Beside {
            searches,
            searched: None,
        }
    }

    /// Searches on until each search has tried `to` positions (the one with the weakest
    /// stand-ins a share of them until the `last` call): `Some` when that decides the
    /// duel (a loss proved, a line with the weakest stand-ins, the caller's stop). A line
    /// the duel's own search finds is kept in `searched`, for the caller to weigh against
    /// the playouts'. Before the `last` call, the search with the strongest stand-ins,
    /// while it runs, stands in for the duel's own: its proofs of loss are the same on a
    /// far smaller tree, and a line the duel's own search finds would wait for the
    /// playouts anyway. The searches with stand-ins go first, being the cheaper; one that
    /// can no longer decide anything (a line with the strongest, a failure with the
    /// weakest) is dropped.
    fn run(
        &mut self,
        start: &Duel,
        to: usize,
        last: bool,
        report: &mut dyn FnMut(usize) -> bool,
    ) -> Option<Search> {
        let proving = self
            .searches
            .iter()
            .any(|s| s.stand_ins == Some(relax::Side::Strongest));
        for i in (0..self.searches.len()).rev() {
            if self.searched.is_some() {
                return None;
            }
            let s = &mut self.searches[i];
            if s.stand_ins.is_none() && proving && !last {
                continue;
            }
            s.ctx.budget = match s.stand_ins {
                Some(relax::Side::Weakest) if !last => to / RELAXED_SHARE,
                _ => to,
            };
            let state = s.pass.run(&mut s.ctx, report);
            match (s.stand_ins, state) {
                (_, PassState::Paused) => continue,
                (_, PassState::Cancelled) => return Some(Search::Cancelled),
                (None | Some(relax::Side::Strongest), PassState::Failed { cut: false })
                    if !s.ctx.capped =>
                {
                    return Some(Search::Impossible);
                }
                (None, PassState::Won) => self.searched = Some(std::mem::take(&mut s.ctx.path)),
                (Some(relax::Side::Weakest), PassState::Won) => {
                    let mut line = std::mem::take(&mut s.ctx.path);
                    let goal = s.ctx.goal;
                    if let Some(n) = reaches(start, goal, &line) {
                        line.truncate(n);
                        return Some(Search::Found(minimize(start, goal, line)));
                    }
                }
                // Searched to the end without a proof (a capped selection, or the longest
                // line): only what comes next can still decide.
                _ => {}
            }
            // The duel's own search stays (a pass that ended answers the same again).
            if s.stand_ins.is_some() {
                self.searches.remove(i);
            }
        }
        None
    }
}

/// Beside the playouts the search with the weakest stand-ins gets this share of the
/// positions the others have; after them, as many.
const RELAXED_SHARE: usize = 4;

/// The depth-first search's head start in [`solve_watched`]: this share of its budget
/// before the first playout.
const SEARCH_HEAD_START: usize = 100;

/// The share of the budget the depth-first search spends beside the playouts: it has
/// searched `budget / SEARCH_BESIDE` positions when they are done.
const SEARCH_BESIDE: usize = 2;

/// After the playouts, [`solve_deep`]'s depth-first search goes on to `SEARCH_AFTER *
/// budget` positions.
const SEARCH_AFTER: usize = 40;

/// Beside it, [`solve_deep`]'s search by deviations gets up to `DEVIATING_AFTER * budget`
/// positions.
const DEVIATING_AFTER: usize = 10;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::Settings;

    /// The selections told apart by their codes, built from the codes' copies, are the
    /// first subset of each multiset of codes among all subsets, in the same order: what
    /// the search tried before it built them directly (random piles of up to 12 cards
    /// with up to 5 codes, every size).
    #[test]
    fn code_picks_are_the_first_subset_of_each_multiset_of_codes() {
        let mut rng = Rng::new(7);
        for _ in 0..2_000 {
            let n = rng.index(13);
            let kinds = 1 + rng.index(5);
            let codes: Vec<Option<Code>> = (0..n).map(|_| Some(rng.index(kinds) as Code)).collect();
            let ids: Vec<CardId> = (0..n).map(|i| CardId(i as u16)).collect();
            for k in 0..=n + 1 {
                let (all, complete) = subsets(&ids, k, usize::MAX);
                assert!(complete);
                let mut seen = HashSet::default();
                let expected: Vec<Vec<usize>> = all
                    .iter()
                    .map(|s| s.iter().map(|id| id.index()).collect::<Vec<_>>())
                    .filter(|s| {
                        let mut key: Vec<_> = s.iter().map(|&i| codes[i]).collect();
                        key.sort_unstable();
                        seen.insert(key)
                    })
                    .collect();
                assert_eq!(
                    code_picks(&codes, k, usize::MAX),
                    Some(expected),
                    "{codes:?}, {k}"
                );
            }
        }
        // More subsets than the cap: the caller lists the first ones itself.
        let codes = vec![Some(1); 12];
        assert_eq!(code_picks(&codes, 4, 256), None);
        assert_eq!(code_picks(&codes, 2, 256).map(|p| p.len()), Some(1));
    }

    /// Graceful Charity's discard with two pieces in hand: the pieces are kept (their
    /// discard comes last), unless Dark Factory of Mass Production is in hand to bring
    /// them back, when discarding them costs nothing (the discards then rank only by what
    /// the discarded cards bring to the hand).
    #[test]
    fn pieces_are_kept_when_discarding_unless_a_card_at_hand_brings_them_back() {
        let (charity, right_arm, left_arm, pot) = (79_571_449, 70_903_634, 7_902_349, 55_144_522);
        let (factory, upstart) = (90_928_333, 70_368_879);
        let discard = |fifth: Code| {
            let mut d = crate::Setup::new()
                .hand([charity, right_arm, left_arm, pot, fifth])
                .deck([upstart, 33_782_437, 93_946_239, 67_616_300, 74_519_184])
                .build()
                .expect("builds");
            let activate = d
                .legal_commands()
                .into_iter()
                .find(|c| matches!(c, Command::ActivateSpell { card } if code_in(&d, *card) == charity))
                .expect("Graceful Charity can be activated");
            d.apply(activate).expect("activates");
            while purpose(&d).is_none() {
                d.apply(Command::PassChain).expect("the chain resolves");
            }
            let listed = choices(&d);
            let ordered = exodia_policy(&d, listed.clone()).commands;
            let pieces = |c: &Command| match c {
                Command::Respond(Response::Cards(ids)) => ids
                    .iter()
                    .filter(|&&id| [right_arm, left_arm].contains(&code_in(&d, id)))
                    .count(),
                _ => 0,
            };
            // With the pieces out of it, the discards rank by what the discarded
            // cards bring to the hand, least first (equal ones as listed).
            let gain = |c: &Command| match c {
                Command::Respond(Response::Cards(ids)) => ids
                    .iter()
                    .map(|&id| bound::hand_gain(code_in(&d, id)))
                    .sum::<i64>(),
                _ => 0,
            };
            let mut by_gain = listed.clone();
            by_gain.sort_by_key(gain);
            (
                by_gain,
                ordered.iter().map(pieces).collect::<Vec<_>>(),
                ordered,
            )
        };
        let (_, without, _) = discard(upstart);
        assert_eq!(without.last(), Some(&2), "{without:?}");
        assert!(without.windows(2).all(|w| w[0] <= w[1]), "{without:?}");
        let (by_gain, with, ordered) = discard(factory);
        assert!(with.contains(&2));
        assert_eq!(ordered, by_gain, "the pieces weigh nothing in the order");
    }

    /// A position the table refutes only within a limit is a cut when met again, so
    /// that no position above it is recorded as lost whatever the limit (which a
    /// deeper pass would trust); one refuted outright is not.
    #[test]
    fn a_refutation_within_a_limit_is_met_again_as_a_cut() {
        let Ok(start) = Duel::with_settings("exodia-deck", 3, Settings::default()) else {
            panic!("exodia-deck does not start");
        };
        let start = without_log(&start);
        let goal = Outcome::Win(Reason::Exodia);
        let order = order_for(goal);
        let key = key::key(&start);
        for (limit, recorded, asked, cut) in [
            (Limit::Commands, 5, 3, true),
            (Limit::Deviations, 2, 2, true),
            (Limit::Commands, u16::MAX, 3, false),
            (Limit::Deviations, u16::MAX, 7, false),
        ] {
            let mut ctx = Ctx::new(&start, goal, 1_000, &order);
            ctx.failed.record(key, limit, recorded);
            let state = Pass::limited(start.clone(), asked, limit).run(&mut ctx, &mut |_| true);
            assert_eq!(
                state,
                PassState::Failed { cut },
                "{limit:?} {recorded} {asked}"
            );
            assert_eq!(ctx.nodes, 0, "{limit:?}: answered from the table");
        }
        // A limited refutation says nothing of more commands left, nor of the other
        // kind of limit.
        let table = Refuted::default();
        table.record(key, Limit::Commands, 5);
        assert_eq!(table.refutes(key, Limit::Commands, 6), None);
        assert_eq!(table.refutes(key, Limit::Deviations, 1), None);
        assert_eq!(table.refutes(key, Limit::Commands, 5), Some(true));
    }

    /// A search by deviations that runs out of budget and goes on answers as one given
    /// the whole budget at once (the same positions, table and answer), and wins the
    /// hands a plain depth-first search of 800,000 positions does not.
    #[test]
    fn a_search_by_deviations_resumed_in_slices_answers_as_one_run() {
        for (deck, seed, budget, expected) in [
            ("panda-exodia-deck", 975, 60_000, Some(true)),
            ("library-exodia-deck", 750, 60_000, Some(true)),
            ("exodia-deck", 98, 3_000, None),
        ] {
            let Ok(start) = Duel::with_settings(deck, seed, Settings::default()) else {
                panic!("{deck} does not start");
            };
            let goal = crate::stats::goal_of(deck).unwrap_or(Outcome::Win(Reason::Exodia));
            let order = order_for(goal);
            let mut whole = Deviating::new(&start, goal, &order);
            let at_once = whole.run(budget, &mut |_| true);
            let mut sliced = Deviating::new(&start, goal, &order);
            let mut slices = 0;
            let in_slices = loop {
                slices += 1;
                let to = (sliced.ctx.budget + 97).min(budget);
                let decided = sliced.run(to, &mut |_| true);
                if decided.is_some() || to == budget {
                    break decided;
                }
            };
            assert!(slices > 3, "{deck} {seed}: decided too soon to test");
            assert_eq!(in_slices, at_once, "{deck} {seed}");
            assert_eq!(sliced.allowed, whole.allowed, "{deck} {seed}");
            // The two wins a plain depth-first search of 800,000 positions misses, and a
            // hand that the budget leaves undecided.
            let won = at_once.as_ref().map(|s| matches!(s, Search::Found(_)));
            assert_eq!(won, expected, "{deck} {seed}");
            assert_eq!(sliced.ctx.nodes, whole.ctx.nodes, "{deck} {seed}");
            assert_eq!(sliced.ctx.failed.entries(), whole.ctx.failed.entries());
            if let Some(Search::Found(line)) = at_once {
                assert!(wins(&start, goal, &line), "{deck} {seed}: the line wins");
            }
        }
    }

    /// A pass that runs out of budget and goes on goes exactly as one given the whole
    /// budget at once: the same positions in the same order, to the same answer (a proof
    /// of loss, a win, or the budget spent).
    #[test]
    fn a_pass_resumed_in_slices_searches_as_one_run_with_the_whole_budget() {
        for (deck, seed, budget) in [
            ("legacy-exodia-deck", 7, 20_000),
            ("legacy-exodia-deck", 31, 200_000),
            ("exodia-deck", 98, 3_000),
            ("scientist-catapult-deck", 0, 200_000),
            ("scientist-catapult-deck", 23, 200_000),
        ] {
            let Ok(start) = Duel::with_settings(deck, seed, Settings::default()) else {
                panic!("{deck} does not start");
            };
            let start = without_log(&start);
            let goal = crate::stats::goal_of(deck).unwrap_or(Outcome::Win(Reason::Exodia));
            let order = order_for(goal);
            let mut whole = Ctx::new(&start, goal, budget, &order);
            let at_once = Pass::new(start.clone(), MAX_LINE).run(&mut whole, &mut |_| true);
            let mut sliced = Ctx::new(&start, goal, 0, &order);
            let mut pass = Pass::new(start, MAX_LINE);
            let mut slices = 0;
            let in_slices = loop {
                sliced.budget = (sliced.budget + 97).min(budget);
                slices += 1;
                let state = pass.run(&mut sliced, &mut |_| true);
                if state != PassState::Paused || sliced.budget == budget {
                    break state;
                }
            };
            assert!(slices > 3, "{deck} {seed}: decided too soon to test");
            assert_eq!(in_slices, at_once, "{deck} {seed}");
            assert_eq!(sliced.nodes, whole.nodes, "{deck} {seed}");
            assert_eq!(sliced.path, whole.path, "{deck} {seed}");
            assert_eq!(sliced.failed.entries(), whole.failed.entries());
            // Once it has ended, a pass keeps its answer.
            assert_eq!(pass.run(&mut sliced, &mut |_| true), in_slices);
        }
    }

    /// A position copied into a spare one (a position the solver has done with, from
    /// another deck, game or moment, with lists of other lengths) is the position a
    /// clone is, the command log included, and plays on as a clone does, leaving the
    /// original as it was (piles shared with it are copied before they change): at
    /// every step of guided lines of every deck.
    #[test]
    fn a_position_copied_into_a_spare_one_is_a_clone_and_plays_as_one() {
        let mut pool = Pool::default();
        let mut copies = 0;
        for (deck, seed, start, line) in guided_lines(4) {
            let mut d = start.clone();
            for (i, cmd) in line.iter().enumerate() {
                let before = d.clone();
                let mut copy = pool.copy(&d);
                assert!(copy == d, "{deck} seed {seed} step {i}: the copy differs");
                assert_eq!(key::key(&copy), key::key(&d));
                let mut clone = d.clone();
                for c in &line[i..] {
                    assert_eq!(
                        copy.apply(c.clone()).is_ok(),
                        clone.apply(c.clone()).is_ok()
                    );
                    assert!(copy == clone, "{deck} seed {seed} step {i}: parted");
                }
                assert!(
                    d == before,
                    "{deck} seed {seed} step {i}: the original moved"
                );
                pool.give(copy);
                pool.give(clone);
                copies += 1;
                assert!(d.apply(cmd.clone()).is_ok());
            }
        }
        assert!(copies > 100, "only {copies} copies tried");
    }

    /// For seeds `0..seeds` of every deck: the deck, the seed, the opening position and
    /// a guided line from it toward the deck's goal.
    fn guided_lines(seeds: u64) -> Vec<(String, u64, Duel, Vec<Command>)> {
        let mut lines = Vec::new();
        for deck in crate::decks() {
            for seed in 0..seeds {
                let Ok(start) = Duel::with_settings(&deck.id, seed, Settings::default()) else {
                    panic!("deck {} does not start", deck.id);
                };
                let goal = crate::stats::goal_of(&deck.id).unwrap_or(Outcome::Win(Reason::Exodia));
                let (_, line) = rollout(&start, &mut Rng::new(seed), policy_for(goal));
                lines.push((deck.id.to_string(), seed, start, line));
            }
        }
        lines
    }

    /// The solver's copies record nothing, yet play the same game: along guided lines of
    /// every deck, a copy without its record reaches the same position (the full key,
    /// ids and stamps included) and outcome as the recorded duel, after every command.
    #[test]
    fn a_copy_that_records_nothing_plays_the_same_game() {
        for (deck, seed, start, line) in guided_lines(6) {
            let mut recorded = start.clone();
            let mut quiet = without_log(&start);
            for cmd in line {
                let events = recorded.apply(cmd.clone());
                let silent = quiet.apply(cmd);
                assert_eq!(events.is_ok(), silent.is_ok());
                assert_eq!(silent.as_ref().map(Vec::len).unwrap_or(0), 0);
                assert_eq!(recorded.outcome(), quiet.outcome());
                // The journal takes no part in a duel's equality; the log does.
                let mut unlogged = recorded.clone();
                unlogged.log.clear();
                assert!(unlogged == quiet, "{deck} seed {seed} parted");
                assert_eq!(key::key(&recorded), key::key(&quiet));
            }
            assert!(quiet.log.is_empty());
        }
    }
}
