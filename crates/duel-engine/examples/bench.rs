//! Engine throughput: random full games of each playable preset deck per second (legal
//! commands and prompt answers chosen by a seeded RNG; ending the turn only when nothing
//! else is left). First, what loading the card data costs at start-up, then the
//! solver's depth-first search on three opening hands it cannot decide in 100,000
//! positions (so each spends exactly that many): positions per second.
//!
//! `cargo run --profile fast -p duel-engine --example duel-engine-bench -- 2000`
//!
//! With `search DECK SEED POSITIONS`, only the depth-first search of that opening hand,
//! once, for that many positions (or until it decides): what `valgrind --tool=callgrind`
//! counts the instructions of when a change is meant to make the search faster.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::Instant;

use duel_engine::card::parse_catalog;
use duel_engine::{Command, Duel, PromptKind, Response, decks};
use seeded_rng::Rng;

/// Start-up cost of the card catalogue: decoding what build.rs compiled in, against
/// parsing data/cards.json (what the game did at start-up before).
fn card_data_load() {
    let json = include_str!("../data/cards.json");
    let runs = 500u32;
    let start = Instant::now();
    for _ in 0..runs {
        std::hint::black_box(duel_engine::decode_catalog());
    }
    let decode = start.elapsed() / runs;
    let start = Instant::now();
    for _ in 0..runs {
        std::hint::black_box(parse_catalog(std::hint::black_box(json)).unwrap());
    }
    let parse = start.elapsed() / runs;
    println!(
        "card data: decoding the compiled-in catalogue {decode:?}, parsing data/cards.json {parse:?}"
    );
}

fn random_game(deck: &str, seed: u64) -> (Duel, usize) {
    let mut d = Duel::new(deck, seed).unwrap();
    let mut rng = Rng::new(seed ^ 0x5eed);
    let mut commands = 0;
    while d.outcome().is_none() {
        let cmd = match d.view().prompt.map(|p| p.kind) {
            Some(PromptKind::Cards {
                candidates,
                min,
                max,
                ..
            }) => {
                let k = usize::from(min) + rng.index(usize::from(max - min) + 1);
                let mut pool: Vec<_> = candidates.iter().map(|c| c.id).collect();
                rng.shuffle(&mut pool);
                let cmd = Command::Respond(Response::Cards(pool[..k].to_vec()));
                if d.validate(&cmd).is_ok() {
                    cmd
                } else {
                    // A selection with a rule of its own (Synchro Materials, Treasure
                    // Panda's cost): one of the valid answers.
                    let valid = duel_engine::solver::choices(&d);
                    valid[rng.index(valid.len())].clone()
                }
            }
            Some(PromptKind::Choice { options, .. }) => {
                Command::Respond(Response::Option(options[rng.index(options.len())].value))
            }
            _ => {
                let all = d.legal_commands();
                let rest: Vec<_> = all
                    .iter()
                    .filter(|c| !matches!(c, Command::EndTurn | Command::AdvancePhase))
                    .cloned()
                    .collect();
                let pool = if rest.is_empty() { all } else { rest };
                pool[rng.index(pool.len())].clone()
            }
        };
        d.apply(cmd).unwrap();
        commands += 1;
    }
    (d, commands)
}

/// The depth-first search's speed: 100,000 positions from each of three opening hands
/// that no line of those positions decides (searched even longer, they stay open), best
/// of three runs.
fn search_speed() {
    const POSITIONS: usize = 100_000;
    for (deck, seed) in [
        ("legacy-exodia-deck", 520),
        ("library-exodia-deck", 140),
        ("exodia-deck", 98),
    ] {
        let goal = duel_engine::stats::goal_of(deck).unwrap();
        let d = Duel::new(deck, seed).unwrap();
        let order = duel_engine::solver::order_for(goal);
        let mut best = f64::MAX;
        for _ in 0..3 {
            let start = Instant::now();
            let r = duel_engine::solver::search_with(&d, goal, POSITIONS, &order);
            best = best.min(start.elapsed().as_secs_f64());
            assert_eq!(r, duel_engine::solver::Search::GaveUp, "{deck} {seed}");
        }
        println!(
            "search: {deck} seed {seed}: {POSITIONS} positions in {best:.2} s, {:.0} positions/s",
            POSITIONS as f64 / best
        );
    }
}

/// One depth-first search of `deck`'s opening hand `seed` for `positions` positions.
fn one_search(deck: &str, seed: u64, positions: usize) {
    let goal = duel_engine::stats::goal_of(deck).unwrap();
    let d = Duel::new(deck, seed).unwrap();
    let order = duel_engine::solver::order_for(goal);
    let start = Instant::now();
    let r = duel_engine::solver::search_with(&d, goal, positions, &order);
    println!(
        "search: {deck} seed {seed}, {positions} positions: {} in {:.2} s",
        match r {
            duel_engine::solver::Search::Found(line) => format!("won in {} commands", line.len()),
            duel_engine::solver::Search::Impossible => "proved lost".to_string(),
            other => format!("{other:?}"),
        },
        start.elapsed().as_secs_f64()
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [mode, deck, seed, positions] = args.as_slice()
        && mode == "search"
    {
        one_search(deck, seed.parse().unwrap(), positions.parse().unwrap());
        return;
    }
    let n: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(2000);
    card_data_load();
    search_speed();
    for deck in decks().iter().filter(|d| d.playable) {
        // Warm up caches and the card catalogue.
        random_game(&deck.id, u64::MAX);
        let start = Instant::now();
        let mut commands = 0;
        let mut outcomes = std::collections::BTreeMap::new();
        for seed in 0..n {
            let (d, c) = random_game(&deck.id, seed);
            commands += c;
            *outcomes
                .entry(format!("{:?}", d.outcome().unwrap()))
                .or_insert(0) += 1;
        }
        let secs = start.elapsed().as_secs_f64();
        println!(
            "{}: {n} random games, {commands} commands in {secs:.2} s: {:.0} games/s, {:.0} commands/s",
            deck.id,
            n as f64 / secs,
            commands as f64 / secs
        );
        println!("  outcomes: {outcomes:?}");
    }
}
