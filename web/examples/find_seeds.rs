//! Prints seeds whose opening hand holds a given card: `cargo run -p web --example find_seeds -- <deck> <code> [count]`.

use duel_engine::Duel;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let deck = args.first().map_or("exodia-deck", String::as_str);
    let Some(code) = args.get(1).and_then(|c| c.parse::<u32>().ok()) else {
        eprintln!("usage: find_seeds <deck-id> <passcode> [count]");
        std::process::exit(2);
    };
    let want: usize = args.get(2).and_then(|n| n.parse().ok()).unwrap_or(5);
    let mut found = 0;
    for seed in 0..100_000u64 {
        let Ok(duel) = Duel::new(deck, seed) else {
            eprintln!("deck {deck} cannot be played");
            std::process::exit(1);
        };
        let view = duel.view();
        let hand: Vec<u32> = view.you.hand.iter().filter_map(|c| c.code).collect();
        if view.outcome.is_none() && hand.contains(&code) {
            println!("seed {seed}: hand {hand:?}");
            found += 1;
            if found == want {
                break;
            }
        }
    }
}
