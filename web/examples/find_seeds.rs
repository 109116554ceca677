//! Prints seeds whose opening hand holds given cards:
//! `cargo run -p web --example find_seeds -- <deck> <code>[,<code>...] [count]`.
//! A code listed twice must be there twice; `-<code>` must not be in the hand.

use duel_engine::Duel;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let deck = args.first().map_or("exodia-deck", String::as_str);
    let spec: Vec<&str> = args.get(1).map_or(Vec::new(), |s| s.split(',').collect());
    let wanted: Option<Vec<u32>> = spec
        .iter()
        .filter(|c| !c.starts_with('-'))
        .map(|c| c.parse().ok())
        .collect();
    let unwanted: Option<Vec<u32>> = spec
        .iter()
        .filter_map(|c| c.strip_prefix('-'))
        .map(|c| c.parse().ok())
        .collect();
    let (Some(wanted), Some(unwanted)) = (wanted, unwanted) else {
        eprintln!("usage: find_seeds <deck-id> <passcode>[,<passcode>|,-<passcode>...] [count]");
        std::process::exit(2);
    };
    if wanted.is_empty() {
        eprintln!("usage: find_seeds <deck-id> <passcode>[,<passcode>|,-<passcode>...] [count]");
        std::process::exit(2);
    }
    let want: usize = args.get(2).and_then(|n| n.parse().ok()).unwrap_or(5);
    let mut found = 0;
    for seed in 0..100_000u64 {
        let Ok(duel) = Duel::new(deck, seed) else {
            eprintln!("deck {deck} cannot be played");
            std::process::exit(1);
        };
        let view = duel.view();
        let mut hand: Vec<u32> = view.you.hand.iter().filter_map(|c| c.code).collect();
        let shown = hand.clone();
        let has_all = wanted.iter().all(|code| {
            let at = hand.iter().position(|c| c == code);
            at.map(|i| hand.swap_remove(i)).is_some()
        });
        let has_none = !shown.iter().any(|c| unwanted.contains(c));
        if view.outcome.is_none() && has_all && has_none {
            println!("seed {seed}: hand {shown:?}");
            found += 1;
            if found == want {
                break;
            }
        }
    }
}
