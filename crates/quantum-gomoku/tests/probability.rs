//! Win probabilities: exact enumeration against sampling, and against hand computation.

use quantum_gomoku::probability::sample_win_probability;
use quantum_gomoku::{
    Game, GameOptions, Player, Position, ProbabilityConfig, ProbabilityMethod, win_probability,
};

fn game(size: usize, win: usize, cells: &[(usize, usize)]) -> Game {
    let mut g = Game::new(GameOptions::new(size, win), 8, 0).expect("valid options");
    for (i, &(r, c)) in cells.iter().enumerate() {
        let p = if i % 2 == 0 {
            Player::Black
        } else {
            Player::White
        };
        g.place(p, Position::new(r, c)).expect("legal");
    }
    g
}

#[test]
fn exact_and_sampled_agree_on_a_small_board() {
    // 12 stones packed on a 5x5 board: lines of both colours are likely.
    let cells = [
        (1, 1),
        (1, 2),
        (2, 2),
        (2, 1),
        (3, 3),
        (1, 3),
        (2, 3),
        (3, 1),
        (3, 2),
        (0, 0),
        (0, 2),
        (4, 4),
    ];
    let g = game(5, 3, &cells);
    let exact = win_probability(&g, &ProbabilityConfig::default());
    assert_eq!(
        exact.method,
        ProbabilityMethod::Exact {
            configurations: 1 << 12
        }
    );
    let sampled = sample_win_probability(&g, 100_000, 12345);
    assert_eq!(
        sampled.method,
        ProbabilityMethod::MonteCarlo { samples: 100_000 }
    );
    // Four standard errors of a proportion with n = 100 000 is at most 0.0064.
    for (name, e, s) in [
        ("black", exact.black_line, sampled.black_line),
        ("white", exact.white_line, sampled.white_line),
        ("both", exact.both, sampled.both),
        ("neither", exact.neither, sampled.neither),
    ] {
        assert!((e - s).abs() < 0.0064, "{name}: exact {e} sampled {s}");
    }
    assert!(
        exact.both > 0.01 && exact.neither > 0.01,
        "a board where every outcome is possible: {exact:?}"
    );
    let total = exact.black_line + exact.white_line - exact.both + exact.neither;
    assert!((total - 1.0).abs() < 1e-9);
}

#[test]
fn many_stones_switch_to_sampling_with_the_configured_count() {
    let cells: Vec<_> = (0..30).map(|i| (i / 6, i % 6)).collect();
    let g = game(15, 3, &cells);
    let cfg = ProbabilityConfig {
        samples: 100_000,
        ..ProbabilityConfig::default()
    };
    let p = win_probability(&g, &cfg);
    assert_eq!(p.method, ProbabilityMethod::MonteCarlo { samples: 100_000 });
    assert_eq!(p.stones, 30);
    assert_eq!(
        p,
        win_probability(&g, &cfg),
        "seeded: same board, same estimate"
    );
}

#[test]
fn a_finished_game_counts_its_observed_colours_as_certain() {
    let mut g = game(5, 3, &[(0, 0), (4, 4), (0, 1), (4, 3), (0, 2)]);
    let seed = (0..10_000)
        .find(|&s| {
            g.clone()
                .observe(Player::Black, Some(s))
                .is_ok_and(|r| r.winner == Some(Player::Black))
        })
        .expect("a winning seed exists");
    g.observe(Player::Black, Some(seed)).expect("allowed");
    let p = win_probability(&g, &ProbabilityConfig::default());
    assert_eq!(p.stones, 0);
    assert_eq!(p.black_line, 1.0);
}

#[test]
fn win_chances_depend_on_the_observer_only_through_ties() {
    let cells = [(0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)];
    let p = win_probability(&game(5, 3, &cells), &ProbabilityConfig::default());
    let sum_b =
        p.wins(Player::Black, Player::Black) + p.wins(Player::White, Player::Black) + p.neither;
    let sum_w =
        p.wins(Player::Black, Player::White) + p.wins(Player::White, Player::White) + p.neither;
    assert!((sum_b - 1.0).abs() < 1e-9 && (sum_w - 1.0).abs() < 1e-9);
    assert!(p.wins(Player::White, Player::White) > p.wins(Player::White, Player::Black));
}
