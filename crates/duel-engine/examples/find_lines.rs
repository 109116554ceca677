//! Searches seeds of a preset deck for lines of play reaching an outcome and prints them
//! as scripts (card codes, not ids) for the full-game tests.
//!
//! `cargo run --release -p duel-engine --example find_lines -- exodia-deck win 0 50`
//! `cargo run --release -p duel-engine --example find_lines -- exodia-deck deck-out 0 50`
//! `cargo run --release -p duel-engine --example find_lines -- scientist-catapult-deck burn 0 50`
#![allow(clippy::unwrap_used, clippy::expect_used)]

use duel_engine::effect::Purpose;
use duel_engine::solver::{Search, search_with};
use duel_engine::{Command, Duel, Outcome, PromptKind, Reason, Response};

/// Orders (and prunes) the commands worth trying in a position.
type Policy = fn(&Duel, Vec<Command>) -> Vec<Command>;

const PIECES: [u32; 5] = [33396948, 70903634, 7902349, 8124921, 44519536];
const CHICKEN_GAME: u32 = 67616300;

/// An Exodia player's instincts: never put pieces or vanilla monsters on the field, never
/// Set, keep pieces in hand, take pieces when adding cards, and pay Chicken Game only to
/// draw.
fn exodia_policy(d: &Duel, cmds: Vec<Command>) -> Vec<Command> {
    let code = |id| d.instance(id).map(|c| c.code).unwrap_or(0);
    let pieces =
        |ids: &[duel_engine::CardId]| ids.iter().filter(|&&id| PIECES.contains(&code(id))).count();
    let purpose = match d.view().prompt.map(|p| p.kind) {
        Some(PromptKind::Cards { purpose, .. }) => Some(purpose),
        _ => None,
    };
    let mut cmds: Vec<Command> = cmds
        .into_iter()
        .filter(|c| match c {
            Command::SummonMonster { card } => {
                let def = duel_engine::card(code(*card));
                def.is_some_and(|d| {
                    d.frame != duel_engine::Frame::Normal && !PIECES.contains(&d.code)
                })
            }
            Command::SetMonster { .. } | Command::SetSpellTrap { .. } => false,
            _ => true,
        })
        .filter(|c| {
            !(matches!(c, Command::Respond(Response::Option(i)) if *i != 0)
                && d.view()
                    .prompt
                    .is_some_and(|p| p.source == Some(CHICKEN_GAME)))
        })
        .collect();
    cmds.sort_by_key(|c| match (c, purpose) {
        (Command::Respond(Response::Cards(ids)), Some(Purpose::AddToHand | Purpose::Target)) => {
            -(pieces(ids) as i64)
        }
        (Command::Respond(Response::Cards(ids)), Some(_)) => pieces(ids) as i64,
        _ => 0,
    });
    cmds
}

const SCIENTIST: u32 = 34206604;
const CATAPULT: u32 = 95727991;
const TOON_CANNON: u32 = 79875176;

/// A burn player's instincts: keep Magical Scientist and Catapult Turtle on the field,
/// pay for the Scientist while it does not cost the duel, Tribute the strongest monster
/// to the turtle, never Set.
fn burn_policy(d: &Duel, cmds: Vec<Command>) -> Vec<Command> {
    let code = |id| d.instance(id).map(|c| c.code).unwrap_or(0);
    let atk = |id| duel_engine::card(code(id)).map_or(0, |c| i64::from(c.atk()));
    let engine = |id| [SCIENTIST, CATAPULT].contains(&code(id));
    let purpose = match d.view().prompt.map(|p| p.kind) {
        Some(PromptKind::Cards { purpose, .. }) => Some(purpose),
        _ => None,
    };
    let lp = d.view().you.lp;
    let mut cmds: Vec<Command> = cmds
        .into_iter()
        .filter(|c| match c {
            Command::SetMonster { .. } | Command::SetSpellTrap { .. } => false,
            Command::ActivateEffect { card } if code(*card) == SCIENTIST => lp > 1000,
            _ => true,
        })
        .collect();
    cmds.sort_by_key(|c| match (c, purpose) {
        (Command::Respond(Response::Cards(ids)), Some(Purpose::Tribute)) => {
            let keep: i64 = ids.iter().filter(|&&id| engine(id)).count() as i64 * 10_000;
            keep - ids.iter().map(|&id| atk(id)).sum::<i64>()
        }
        (Command::ActivateEffect { card }, _) if [CATAPULT, TOON_CANNON].contains(&code(*card)) => {
            -3
        }
        (Command::ActivateEffect { card }, _) if code(*card) == SCIENTIST => -2,
        (Command::SummonMonster { card }, _) if engine(*card) => -1,
        _ => 0,
    });
    cmds
}

fn script(start: &Duel, line: &[Command]) -> Vec<String> {
    let mut d = start.clone();
    let mut out = Vec::new();
    for cmd in line {
        let code = |id| d.instance(id).map(|c| c.code).unwrap_or(0);
        out.push(match cmd {
            Command::ActivateSpell { card } => format!("Activate({})", code(*card)),
            Command::ActivateEffect { card } => format!("Effect({})", code(*card)),
            Command::SummonMonster { card } => format!("Summon({})", code(*card)),
            Command::SynchroSummon { card } => format!("Synchro({})", code(*card)),
            Command::SetMonster { card } => format!("SetMonster({})", code(*card)),
            Command::SetSpellTrap { card } => format!("SetSpell({})", code(*card)),
            Command::PassChain => "Pass".to_string(),
            Command::EndTurn | Command::AdvancePhase => "EndTurn".to_string(),
            Command::Respond(Response::Option(i)) => format!("Option({i})"),
            Command::Respond(Response::Cards(ids)) => {
                let codes: Vec<String> = ids.iter().map(|&id| code(id).to_string()).collect();
                format!("Pick(&[{}])", codes.join(", "))
            }
        });
        d.apply(cmd.clone()).unwrap();
    }
    out
}

/// Plays the policy with random tie-breaks until the duel ends; the first choice is
/// taken most often, later ones geometrically less.
fn rollout(start: &Duel, rng: &mut seeded_rng::Rng, policy: Policy) -> (Duel, Vec<Command>) {
    let mut d = start.clone();
    let mut line = Vec::new();
    while d.outcome().is_none() && line.len() < 200 {
        let mut options = policy(&d, duel_engine::solver::choices(&d));
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
        }
    }
    (d, line)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let deck = args.get(1).map_or("exodia-deck", String::as_str);
    let goal = match args.get(2).map(String::as_str) {
        Some("deck-out") => Outcome::Lose(Reason::DeckOut),
        Some("burn") => Outcome::Win(Reason::Lp0),
        _ => Outcome::Win(Reason::Exodia),
    };
    let from: u64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(0);
    let to: u64 = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(20);
    let budget: usize = args.get(5).and_then(|s| s.parse().ok()).unwrap_or(20_000);
    let policy: Policy = if goal.reason() == Reason::Lp0 {
        burn_policy
    } else {
        exodia_policy
    };
    for seed in from..to {
        let d = Duel::new(deck, seed).unwrap();
        let mut rng = seeded_rng::Rng::new(seed);
        let hit = (0..budget / 40).find_map(|_| {
            let (end, line) = rollout(&d, &mut rng, policy);
            (end.outcome() == Some(goal)).then_some(line)
        });
        if let Some(line) = hit {
            println!("seed {seed}: {} commands (rollout)", line.len());
            println!("  {}", script(&d, &line).join(", "));
            continue;
        }
        match search_with(&d, goal, budget, &policy) {
            Search::Found(line) => {
                println!("seed {seed}: {} commands", line.len());
                println!("  {}", script(&d, &line).join(", "));
            }
            Search::Impossible => println!("seed {seed}: impossible"),
            Search::GaveUp => println!("seed {seed}: gave up"),
        }
    }
}
