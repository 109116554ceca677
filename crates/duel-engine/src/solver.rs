//! A bounded depth-first search for a line of play that reaches a wanted outcome
//! (e.g. "can this opening still win?"), used by tests, benchmarks and hints.

use std::collections::HashSet;

use crate::command::{Command, Response};
use crate::state::{CardId, Duel, Outcome};
use crate::view::PromptKind;

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
