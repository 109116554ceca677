//! Searches seeds of a preset deck for games the page can play to a win (Exodia; LP 0
//! for the burn deck) and prints them as click scripts (`test_seeds::Move`, web/tests/common/seeds.rs),
//! checked by replaying them the page's way:
//! `cargo run --release -p web --example find_scripts -- <deck> [from] [to] [budget]`.

use duel_engine::solver::{Search, solve};
use duel_engine::{Command, Duel, Outcome, PromptKind, Reason, Response};
use test_seeds::{Move, play_script};
use web::duel::practice::history::passes_by_itself;

// The browser tests' click scripts, of which this example uses the moves and the player.
#[allow(dead_code)]
#[path = "../tests/common/seeds.rs"]
mod test_seeds;

/// How a deck wins: `scientist-catapult-deck` burns, the others assemble Exodia.
fn goal(deck: &str) -> Outcome {
    if deck == "scientist-catapult-deck" {
        Outcome::Win(Reason::Lp0)
    } else {
        Outcome::Win(Reason::Exodia)
    }
}

/// The line as page moves; `None` when a command has no click on the page yet (a Set
/// card's activation).
fn moves(start: &Duel, line: &[Command]) -> Option<Vec<Move>> {
    let mut d = start.clone();
    let mut out = Vec::new();
    for cmd in line {
        let view = d.view();
        let code = |id| d.instance(id).map_or(0, |c| c.code);
        let in_hand = |id| view.you.hand.iter().any(|c| c.id == id);
        let mv = match cmd {
            Command::ActivateSpell { card } if in_hand(*card) => Some(Move::Activate(code(*card))),
            Command::ActivateSpell { .. }
            | Command::SetMonster { .. }
            | Command::SetSpellTrap { .. }
            | Command::AdvancePhase => return None,
            Command::SynchroSummon { card } => Some(Move::Synchro(code(*card))),
            Command::ActivateEffect { card } => Some(Move::Effect(code(*card))),
            Command::SummonMonster { card } => Some(Move::Summon(code(*card))),
            Command::PassChain if passes_by_itself(&view, &d.legal_commands()) => None,
            Command::PassChain => Some(Move::Pass),
            Command::EndTurn => Some(Move::EndTurn),
            Command::Respond(Response::Cards(ids)) => {
                let codes: Vec<u32> = ids.iter().map(|&id| code(id)).collect();
                Some(Move::Pick(Vec::leak(codes)))
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
            Move::Activate(c) | Move::Summon(c) | Move::Effect(c) | Move::Synchro(c) => {
                name(*c).to_string()
            }
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
    let win = goal(deck);
    for seed in from..to {
        let Ok(d) = Duel::new(deck, seed) else {
            eprintln!("deck {deck} cannot be played");
            std::process::exit(1);
        };
        let script = match solve(&d, win, budget, seed) {
            (Search::Found(line), _) => moves(&d, &line),
            _ => None,
        };
        let Some(script) = script else {
            println!("{deck} seed {seed}: no line the page can click");
            continue;
        };
        match play_script(deck, seed, &script) {
            Ok(end) if end.outcome() == Some(win) => print(deck, seed, &script),
            Ok(end) => println!("seed {seed}: the script ends {:?}", end.outcome()),
            Err(e) => println!("seed {seed}: the script does not replay: {e:?}"),
        }
    }
}
