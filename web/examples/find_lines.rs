//! Searches seeds of a preset deck for games the page can play to an Exodia win and
//! prints them as click scripts (`web::duel::test_seeds::Move`), checked by replaying
//! them the page's way: `cargo run --release -p web --example find_lines -- <deck> [from] [to] [budget]`.

use duel_engine::effect::Purpose;
use duel_engine::solver::{Search, choices, search_with};
use duel_engine::{CardType, Command, Duel, Frame, Outcome, PromptKind, Reason, Response};
use web::duel::state::passes_by_itself;
use web::duel::test_seeds::{Move, play_script};

const PIECES: [u32; 5] = [33396948, 70903634, 7902349, 8124921, 44519536];
const CHICKEN_GAME: u32 = 67616300;
const WIN: Outcome = Outcome::Win(Reason::Exodia);

/// An Exodia player's instincts: summon only effect monsters, never Set, keep pieces in
/// hand, take pieces when adding cards, pay Chicken Game only to draw.
fn policy(d: &Duel, cmds: Vec<Command>) -> Vec<Command> {
    let code = |id| d.instance(id).map_or(0, |c| c.code);
    let pieces = |ids: &[duel_engine::CardId]| {
        ids.iter().filter(|&&id| PIECES.contains(&code(id))).count() as i64
    };
    let view = d.view();
    let purpose = match view.prompt.as_ref().map(|p| &p.kind) {
        Some(PromptKind::Cards { purpose, .. }) => Some(*purpose),
        _ => None,
    };
    let chicken = view
        .prompt
        .as_ref()
        .is_some_and(|p| p.source == Some(CHICKEN_GAME));
    let mut cmds: Vec<Command> = cmds
        .into_iter()
        .filter(|c| match c {
            Command::SummonMonster { card } => duel_engine::card(code(*card)).is_some_and(|def| {
                def.card_type == CardType::Monster
                    && def.frame == Frame::Effect
                    && !PIECES.contains(&def.code)
            }),
            Command::SetMonster { .. } | Command::SetSpellTrap { .. } => false,
            Command::Respond(Response::Option(i)) => !(chicken && *i != 0),
            _ => true,
        })
        .collect();
    cmds.sort_by_key(|c| match (c, purpose) {
        (Command::Respond(Response::Cards(ids)), Some(Purpose::AddToHand | Purpose::Target)) => {
            -pieces(ids)
        }
        (Command::Respond(Response::Cards(ids)), Some(_)) => pieces(ids),
        _ => 0,
    });
    cmds
}

/// Plays the policy with random tie-breaks until the duel ends.
fn rollout(start: &Duel, rng: &mut seeded_rng::Rng) -> (Duel, Vec<Command>) {
    let mut d = start.clone();
    let mut line = Vec::new();
    while d.outcome().is_none() && line.len() < 200 {
        let mut options = policy(&d, choices(&d));
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

/// The line as page moves; `None` when a command has no click (a Set card's activation).
fn moves(start: &Duel, line: &[Command]) -> Option<Vec<Move>> {
    let mut d = start.clone();
    let mut out = Vec::new();
    for cmd in line {
        let view = d.view();
        let code = |id| d.instance(id).map_or(0, |c| c.code);
        let leak = |v: Vec<u32>| -> &'static [u32] { Vec::leak(v) };
        let in_hand = |id| view.you.hand.iter().any(|c| c.id == id);
        let mv = match cmd {
            Command::ActivateSpell { card } if in_hand(*card) => Some(Move::Activate(code(*card))),
            Command::ActivateSpell { .. } | Command::SetMonster { .. } => return None,
            Command::SetSpellTrap { .. } | Command::AdvancePhase => return None,
            Command::ActivateEffect { card } => Some(Move::Effect(code(*card))),
            Command::SummonMonster { card } => Some(Move::Summon(code(*card))),
            Command::PassChain if passes_by_itself(&view, &d.legal_commands()) => None,
            Command::PassChain => Some(Move::Pass),
            Command::EndTurn => Some(Move::EndTurn),
            Command::Respond(Response::Cards(ids)) => {
                Some(Move::Pick(leak(ids.iter().map(|&id| code(id)).collect())))
            }
            Command::Respond(Response::Option(i)) => {
                let PromptKind::Choice { options, .. } = view.prompt.as_ref()?.kind.clone() else {
                    return None;
                };
                let key = options.iter().find(|o| o.value == *i)?.key();
                Some(Move::Option(Box::leak(key.into_boxed_str())))
            }
        };
        out.extend(mv);
        d.apply(cmd.clone()).ok()?;
    }
    Some(out)
}

fn print(deck: &str, seed: u64, script: &[Move]) {
    let name = |code: u32| duel_engine::card(code).map_or("?", |c| c.name_en.as_str());
    println!("{deck} seed {seed}: {} moves", script.len());
    for mv in script {
        let note = match mv {
            Move::Activate(c) | Move::Summon(c) | Move::Effect(c) => name(*c).to_string(),
            Move::Pick(cs) => cs.iter().map(|&c| name(c)).collect::<Vec<_>>().join(", "),
            _ => String::new(),
        };
        println!("    {mv:?}, // {note}");
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let deck = args.get(1).map_or("library-exodia-deck", String::as_str);
    let from: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(0);
    let to: u64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(20);
    let budget: usize = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(20_000);
    for seed in from..to {
        let Ok(d) = Duel::new(deck, seed) else {
            eprintln!("deck {deck} cannot be played");
            std::process::exit(1);
        };
        let mut rng = seeded_rng::Rng::new(seed);
        // The shortest of the rollouts that win, else a bounded depth-first search.
        let best = (0..budget / 40)
            .filter_map(|_| {
                let (end, line) = rollout(&d, &mut rng);
                (end.outcome() == Some(WIN)).then_some(line)
            })
            .filter_map(|line| moves(&d, &line))
            .min_by_key(Vec::len);
        let script = best.or_else(|| match search_with(&d, WIN, budget, &policy) {
            Search::Found(line) => moves(&d, &line),
            Search::Impossible | Search::GaveUp => None,
        });
        let Some(script) = script else {
            println!("{deck} seed {seed}: no line found");
            continue;
        };
        match play_script(deck, seed, &script) {
            Ok(end) if end.outcome() == Some(WIN) => print(deck, seed, &script),
            Ok(end) => println!("seed {seed}: the script ends {:?}", end.outcome()),
            Err(e) => println!("seed {seed}: the script does not replay: {e:?}"),
        }
    }
}
