//! The engine half of the UI criteria (QGM-016, QGM-025, QGM-026): what the view exposes.

mod common;

use common::*;
use quantum_gomoku::{Game, GameOptions, GameStatus, Player, Position};

fn game() -> Game {
    Game::new(GameOptions::default(), 99, 1_700_000_000_000).expect("valid options")
}

#[test]
fn qgm_016_unobserved_stones_carry_matching_probability_labels() {
    let mut g = game();
    let cells = [(0, 0), (1, 0), (0, 1), (1, 1)];
    for (i, &(r, c)) in cells.iter().enumerate() {
        let p = if i % 2 == 0 {
            Player::Black
        } else {
            Player::White
        };
        g.place(p, Position::new(r, c)).expect("legal");
    }
    let v = g.view();
    let expect = [
        ((0, 0), 90, "BLACK P90"),
        ((1, 0), 10, "WHITE P10"),
        ((0, 1), 70, "BLACK P70"),
        ((1, 1), 30, "WHITE P30"),
    ];
    for ((r, c), prob, aria) in expect {
        let s = v.cells[r][c].stone.as_ref().expect("a stone");
        assert_eq!(s.data_prob, prob);
        assert_eq!(
            s.label.as_deref(),
            Some(format!("{prob}%").as_str()),
            "text equals data-prob"
        );
        assert_eq!(s.aria_label, aria);
    }
}

#[test]
fn qgm_016_observed_stones_hide_the_probability_label() {
    let mut g = game();
    for (i, &(r, c)) in [(0, 0), (5, 5), (0, 1), (6, 6), (0, 2)].iter().enumerate() {
        let p = if i % 2 == 0 {
            Player::Black
        } else {
            Player::White
        };
        g.place(p, Position::new(r, c)).expect("legal");
    }
    let seed = seed_where(&g, Player::Black, |r| r.is_winning);
    g.observe(Player::Black, Some(seed)).expect("allowed");
    assert_eq!(g.state().status, GameStatus::Finished);
    let v = g.view();
    for cell in v.cells.iter().flatten() {
        if let Some(s) = &cell.stone {
            assert!(s.observed_color.is_some());
            assert_eq!(s.label, None);
        }
    }
    let obs = v.last_observation.expect("kept");
    assert_eq!(obs.winning_line.len(), 3);
    assert!(v.cells[0][0].in_winning_line && v.cells[0][2].in_winning_line);
    assert!(!v.cells[5][5].in_winning_line);
}

#[test]
fn qgm_025_observe_button_follows_the_rules() {
    let mut g = game();
    let b = g.view().observe;
    assert_eq!((b.label.as_str(), b.enabled), ("Observe (BLACK)", false));
    g.place(Player::Black, Position::new(7, 7)).expect("legal");
    let b = g.view().observe;
    assert_eq!((b.label.as_str(), b.enabled), ("Observe (BLACK)", true));
    g.place(Player::White, Position::new(7, 8)).expect("legal");
    let b = g.view().observe;
    assert_eq!((b.label.as_str(), b.enabled), ("Observe (WHITE)", true));
    for _ in 0..5 {
        g.observe(Player::White, None)
            .expect("two stones never win");
    }
    let b = g.view().observe;
    assert_eq!(
        (b.label.as_str(), b.enabled),
        ("Observe (WHITE)", false),
        "no observations left"
    );
    // The button agrees with the rules: enabled exactly when observing is accepted.
    for p in [Player::Black, Player::White] {
        let accepted = g
            .check(quantum_gomoku::Command::Observe {
                player: p,
                seed: None,
            })
            .is_ok();
        assert_eq!(
            accepted,
            g.view().observe.enabled && g.view().observe.player == p
        );
    }
}

#[test]
fn qgm_026_counters_show_used_and_remaining() {
    let mut g = game();
    g.place(Player::Black, Position::new(7, 7)).expect("legal");
    g.observe(Player::Black, None).expect("allowed");
    g.observe(Player::Black, None).expect("allowed");
    g.place(Player::White, Position::new(3, 3)).expect("legal");
    g.observe(Player::White, None).expect("allowed");
    let v = g.view();
    assert_eq!((v.black.used, v.black.remaining), (2, 3));
    assert_eq!((v.white.used, v.white.remaining), (1, 4));
    assert_eq!(g.state().observations_used(Player::Black), 2);
    g.reset();
    let v = g.view();
    assert_eq!(
        (
            v.black.used,
            v.black.remaining,
            v.white.used,
            v.white.remaining
        ),
        (0, 5, 0, 5)
    );
}
