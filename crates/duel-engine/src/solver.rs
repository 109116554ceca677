//! A bounded search for a line of play that reaches a wanted outcome (e.g. "can this
//! opening still win?"), used by tests, benchmarks and tools: guided random playouts
//! first, then a depth-first search. The guidance ([`policy_for`]) is read from the card
//! data (which cards are win pieces, which effects deal damage), never from passcodes.

use std::collections::HashSet;

use seeded_rng::Rng;

use crate::card::{Code, Frame, catalog};
use crate::command::{Command, Response};
use crate::effect::{Amount, EffectKind, Purpose, RuleDef, Step};
use crate::state::{CardId, Duel, Outcome, Reason};
use crate::view::{PromptKind, Question};

/// The result of a search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Search {
    /// Commands that lead from the given duel to the goal.
    Found(Vec<Command>),
    /// Every line was tried: the goal cannot be reached.
    Impossible,
    /// The node budget ran out first.
    GaveUp,
}

/// Candidate commands from a position, with interchangeable choices (same card code,
/// same kind of command) merged so the search does not try copies one by one.
pub fn choices(d: &Duel) -> Vec<Command> {
    let view = d.view();
    let code_of = |id: CardId| d.instance(id).map(|c| c.code);
    if let Some(p) = view.prompt {
        return match p.kind {
            PromptKind::Choice { options, .. } => options
                .iter()
                .map(|o| Command::Respond(Response::Option(o.value)))
                .collect(),
            PromptKind::Cards {
                candidates,
                min,
                max,
                ..
            } => {
                let ids: Vec<CardId> = candidates.iter().map(|c| c.id).collect();
                let mut seen = HashSet::new();
                let mut out = Vec::new();
                for k in usize::from(min)..=usize::from(max) {
                    for subset in subsets(&ids, k) {
                        let mut key: Vec<_> = subset.iter().map(|&id| code_of(id)).collect();
                        key.sort_unstable();
                        let cmd = Command::Respond(Response::Cards(subset));
                        // A selection with a rule of its own (Synchro Materials) may
                        // refuse some subsets.
                        if seen.insert(key) && d.validate(&cmd).is_ok() {
                            out.push(cmd);
                        }
                        // Large selections (e.g. Magical Mallet with a big hand) are
                        // capped: the search is a helper, not a proof.
                        if out.len() >= 64 {
                            return out;
                        }
                    }
                }
                out
            }
        };
    }
    let mut seen = HashSet::new();
    d.legal_commands()
        .into_iter()
        .filter(|c| !matches!(c, Command::EndTurn | Command::AdvancePhase))
        .filter(|c| {
            let key = match c {
                Command::SummonMonster { card } => (0, code_of(*card)),
                Command::SetMonster { card } => (1, code_of(*card)),
                Command::SetSpellTrap { card } => (2, code_of(*card)),
                Command::ActivateSpell { card } => (3, code_of(*card)),
                Command::ActivateEffect { card } => (4, code_of(*card)),
                _ => (5, None),
            };
            seen.insert(key)
        })
        .collect()
}

fn subsets(ids: &[CardId], k: usize) -> Vec<Vec<CardId>> {
    let mut out = Vec::new();
    let mut cur = Vec::with_capacity(k);
    fn go(
        ids: &[CardId],
        k: usize,
        start: usize,
        cur: &mut Vec<CardId>,
        out: &mut Vec<Vec<CardId>>,
    ) {
        if cur.len() == k {
            out.push(cur.clone());
            return;
        }
        if out.len() >= 256 {
            return;
        }
        for i in start..ids.len() {
            cur.push(ids[i]);
            go(ids, k, i + 1, cur, out);
            cur.pop();
        }
    }
    go(ids, k, 0, &mut cur, &mut out);
    out
}

/// Searches for commands that end the duel with `goal`, trying at most `budget` positions.
pub fn search(start: &Duel, goal: Outcome, budget: usize) -> Search {
    search_with(start, goal, budget, &|_, c| c)
}

/// Puts a position's candidate commands in the order to try them (and may drop some).
pub type Policy<'a> = &'a dyn Fn(&Duel, Vec<Command>) -> Vec<Command>;

/// [`search`] with a policy that orders (and prunes) the candidates of each position.
pub fn search_with(start: &Duel, goal: Outcome, budget: usize, policy: Policy<'_>) -> Search {
    let mut visited: HashSet<u64> = HashSet::new();
    let mut path = Vec::new();
    let mut nodes = 0usize;
    let mut exhausted = true;
    let mut ctx = Ctx {
        goal,
        budget,
        policy,
        nodes: &mut nodes,
        visited: &mut visited,
        path: &mut path,
        exhausted: &mut exhausted,
    };
    if dfs(start, &mut ctx) {
        Search::Found(path)
    } else if exhausted {
        Search::Impossible
    } else {
        Search::GaveUp
    }
}

fn fingerprint(d: &Duel) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    // The visible position plus everything hidden (deck order via the instances and
    // the RNG) identifies a position; the log does not matter.
    serde_json::to_string(&(
        (&d.cards, &d.players, &d.chain, &d.frames, &d.prompt),
        (
            &d.used_opt,
            &d.delayed,
            &d.restrictions,
            &d.end_step,
            &d.phase,
        ),
        (&d.triggers, &d.trigger_build, d.last_happening),
        &d.rng,
    ))
    .unwrap_or_default()
    .hash(&mut h);
    h.finish()
}

struct Ctx<'a, 'p> {
    goal: Outcome,
    budget: usize,
    policy: Policy<'p>,
    nodes: &'a mut usize,
    visited: &'a mut HashSet<u64>,
    path: &'a mut Vec<Command>,
    exhausted: &'a mut bool,
}

fn dfs(d: &Duel, ctx: &mut Ctx<'_, '_>) -> bool {
    if let Some(o) = d.outcome() {
        return o == ctx.goal;
    }
    if *ctx.nodes >= ctx.budget {
        *ctx.exhausted = false;
        return false;
    }
    *ctx.nodes += 1;
    if !ctx.visited.insert(fingerprint(d)) {
        return false;
    }
    let mut options = (ctx.policy)(d, choices(d));
    if options.is_empty() {
        // Nothing left but ending the turn.
        options = vec![Command::EndTurn];
    }
    for cmd in options {
        let mut next = d.clone();
        if next.apply(cmd.clone()).is_err() {
            continue;
        }
        ctx.path.push(cmd);
        if dfs(&next, ctx) {
            return true;
        }
        ctx.path.pop();
    }
    false
}

/// Orders (and prunes) the candidate commands of a position, best first.
pub type Guide = fn(&Duel, Vec<Command>) -> Vec<Command>;

/// The guidance for a goal: an Exodia player's instincts, or a burn player's.
pub fn policy_for(goal: Outcome) -> Guide {
    match goal.reason() {
        Reason::Lp0 => burn_policy,
        _ => exodia_policy,
    }
}

/// Cards named by a "win with all of these in hand" rule.
fn win_pieces() -> Vec<Code> {
    let mut out = Vec::new();
    for c in catalog() {
        for r in &c.rules {
            if let RuleDef::WinWithAllInHand { pieces } = r {
                out.push(c.code);
                out.extend(pieces);
            }
        }
    }
    out
}

fn code_in(d: &Duel, id: CardId) -> Code {
    d.instance(id).map_or(0, |c| c.code)
}

fn effect_steps(code: Code, kind: EffectKind) -> Vec<&'static Step> {
    crate::card::card(code)
        .into_iter()
        .flat_map(|c| c.effects.iter())
        .filter(|e| e.kind == kind)
        .flat_map(|e| e.steps())
        .collect()
}

/// The LP an activation of this card's effect of `kind` costs.
fn lp_cost(code: Code, kind: EffectKind) -> u32 {
    effect_steps(code, kind)
        .into_iter()
        .map(|s| match s {
            Step::PayLp {
                amount: Amount::Fixed(n),
            } => *n,
            _ => 0,
        })
        .sum()
}

/// Commands a guide drops everywhere: Sets (a face-down card does nothing on turn 1) and
/// activations whose LP cost would bring you to 0.
fn worth_trying(d: &Duel, c: &Command) -> bool {
    let lp = d.view().you.lp;
    match c {
        Command::SetMonster { .. } | Command::SetSpellTrap { .. } => false,
        Command::ActivateEffect { card } => lp_cost(code_in(d, *card), EffectKind::Ignition) < lp,
        Command::ActivateSpell { card } => lp_cost(code_in(d, *card), EffectKind::Activation) < lp,
        _ => true,
    }
}

/// The purpose of the pending card selection, if any.
fn purpose(d: &Duel) -> Option<Purpose> {
    match d.view().prompt.map(|p| p.kind) {
        Some(PromptKind::Cards { purpose, .. }) => Some(purpose),
        _ => None,
    }
}

/// An Exodia player's instincts: never put pieces or vanilla monsters on the field, keep
/// pieces in hand, take pieces when adding cards, choose modes that draw, use triggers.
fn exodia_policy(d: &Duel, cmds: Vec<Command>) -> Vec<Command> {
    let pieces = win_pieces();
    let count = |ids: &[CardId]| {
        ids.iter()
            .filter(|&&id| pieces.contains(&code_in(d, id)))
            .count() as i64
    };
    let prompt = d.view().prompt;
    let drawing_modes: Vec<u8> = match prompt.as_ref().map(|p| &p.kind) {
        Some(PromptKind::Choice {
            question: Question::Mode,
            options,
        }) => options
            .iter()
            .filter(|o| {
                let source = prompt.as_ref().and_then(|p| p.source);
                source.and_then(crate::card::card).is_some_and(|c| {
                    c.effects.iter().any(|e| {
                        e.modes.get(usize::from(o.value)).is_some_and(|m| {
                            m.resolve.iter().any(|s| matches!(s, Step::Draw { .. }))
                        })
                    })
                })
            })
            .map(|o| o.value)
            .collect(),
        _ => Vec::new(),
    };
    let purpose = purpose(d);
    let mut cmds: Vec<Command> = cmds
        .into_iter()
        .filter(|c| worth_trying(d, c))
        .filter(|c| match c {
            Command::SummonMonster { card } => {
                let code = code_in(d, *card);
                crate::card::card(code)
                    .is_some_and(|def| def.frame != Frame::Normal && !pieces.contains(&code))
            }
            Command::Respond(Response::Option(v)) if !drawing_modes.is_empty() => {
                drawing_modes.contains(v)
            }
            _ => true,
        })
        .collect();
    cmds.sort_by_key(|c| match (c, purpose) {
        (Command::Respond(Response::Cards(ids)), Some(Purpose::AddToHand | Purpose::Target)) => {
            -count(ids)
        }
        (Command::Respond(Response::Cards(ids)), Some(_)) => count(ids),
        _ => 0,
    });
    cmds
}

/// A burn player's instincts: summon the monsters whose effects burn or summon, activate
/// damage first, then summoners while their LP cost does not end the duel, and Tribute
/// the strongest monster that has no effect of its own to use.
fn burn_policy(d: &Duel, cmds: Vec<Command>) -> Vec<Command> {
    let ignition = |id: CardId| !effect_steps(code_in(d, id), EffectKind::Ignition).is_empty();
    let burns = |id: CardId| {
        effect_steps(code_in(d, id), EffectKind::Ignition)
            .iter()
            .any(|s| matches!(s, Step::Damage { .. }))
    };
    let atk = |id: CardId| crate::card::card(code_in(d, id)).map_or(0, |c| i64::from(c.atk()));
    let purpose = purpose(d);
    let mut cmds: Vec<Command> = cmds.into_iter().filter(|c| worth_trying(d, c)).collect();
    cmds.sort_by_key(|c| match (c, purpose) {
        (Command::Respond(Response::Cards(ids)), Some(Purpose::Tribute)) => {
            let keep = ids.iter().filter(|&&id| ignition(id)).count() as i64 * 10_000;
            keep - ids.iter().map(|&id| atk(id)).sum::<i64>()
        }
        (Command::ActivateEffect { card }, _) if burns(*card) => -3,
        (Command::ActivateEffect { .. }, _) => -2,
        (Command::SummonMonster { card }, _) if ignition(*card) => -1,
        _ => 0,
    });
    cmds
}

/// Plays the guide with random tie-breaks until the duel ends (at most 300 commands);
/// the first choice is taken most often, later ones geometrically less.
pub fn rollout(start: &Duel, rng: &mut Rng, guide: Guide) -> (Duel, Vec<Command>) {
    let mut d = start.clone();
    let mut line = Vec::new();
    while d.outcome().is_none() && line.len() < 300 {
        let mut options = guide(&d, choices(&d));
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
        let cmd = options.swap_remove(i);
        if d.apply(cmd.clone()).is_ok() {
            line.push(cmd);
        } else {
            break;
        }
    }
    (d, line)
}

/// How a [`solve`] found its answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    Rollout,
    Search,
}

/// Looks for a line to `goal` knowing everything (the deck order included): guided
/// playouts first (`budget / 40` of them), then a guided depth-first search of at most
/// `budget` positions. Deterministic for a given `seed`.
pub fn solve(start: &Duel, goal: Outcome, budget: usize, seed: u64) -> (Search, Method) {
    let guide = policy_for(goal);
    let mut rng = Rng::new(seed);
    for _ in 0..budget / 40 {
        let (end, line) = rollout(start, &mut rng, guide);
        if end.outcome() == Some(goal) {
            return (Search::Found(line), Method::Rollout);
        }
    }
    (search_with(start, goal, budget, &guide), Method::Search)
}
