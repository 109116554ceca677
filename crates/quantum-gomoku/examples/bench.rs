//! Benchmark: collapses + win checks per second and the time of 100,000 samples.
//!
//! Run with `cargo run --profile fast -p quantum-gomoku --example quantum-gomoku-bench`
//! (or `--release`, which is tuned for size). No timing is asserted anywhere.

use quantum_gomoku::probability::sample_win_probability;
use quantum_gomoku::{Game, GameOptions, Player, Position, ProbabilityConfig, win_probability};
use std::hint::black_box;
use std::time::Instant;

/// A game with `n` stones spread over the centre of a 15x15 board.
fn board_with(n: usize) -> Game {
    let mut g = Game::new(GameOptions::default(), 1, 0).expect("default options are valid");
    let mut placed = 0;
    'outer: for r in 2..13 {
        for c in 2..13 {
            if placed == n {
                break 'outer;
            }
            let p = if placed % 2 == 0 {
                Player::Black
            } else {
                Player::White
            };
            g.place(p, Position::new(r, (c * 7 + r) % 11 + 2)).ok();
            placed = g.state().stone_count();
        }
    }
    g
}

fn time<T>(label: &str, runs: u32, mut f: impl FnMut() -> T) -> f64 {
    black_box(f()); // warm-up
    let start = Instant::now();
    for _ in 0..runs {
        black_box(f());
    }
    let per = start.elapsed().as_secs_f64() / f64::from(runs);
    let (value, unit) = if per < 1e-4 {
        (per * 1e6, "us")
    } else {
        (per * 1e3, "ms")
    };
    println!("{label:<58} {value:>9.2} {unit}");
    per
}

fn main() {
    for stones in [30, 60, 120] {
        let g = board_with(stones);
        let n = g.state().stone_count();
        let per = time(
            &format!("100,000 samples, {n} stones (15x15, win 3)"),
            10,
            || sample_win_probability(&g, 100_000, 42),
        );
        println!("{:<58} {:>9.2} M/s", "  collapses + win checks", 0.1 / per);
    }
    for stones in [16, 20] {
        let g = board_with(stones);
        let n = g.state().stone_count();
        let cfg = ProbabilityConfig {
            exact_max_stones: 20,
            ..ProbabilityConfig::default()
        };
        // Stones on no run of occupied cells are left out of the enumeration.
        let k = win_probability(&g, &cfg).stones;
        time(
            &format!("exact, {n} stones, {k} on runs (2^{k} assignments)"),
            3,
            || win_probability(&g, &cfg),
        );
    }
    let g = board_with(60);
    let mut seed = 0u64;
    let per = time("one Game::observe incl. clone (60 stones)", 20_000, || {
        let mut probe = g.clone();
        seed += 1;
        probe
            .observe(Player::White, Some(seed))
            .map(|r| r.is_winning)
    });
    println!("{:<58} {:>9.0} /s", "  observations", 1.0 / per);
}
