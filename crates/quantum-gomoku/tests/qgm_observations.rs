//! Acceptance criteria for observations, wins and draws (QGM-020 to QGM-024, QGM-040).

mod common;

use common::*;
use quantum_gomoku::{Game, GameOptions, GameStatus, Player, Position};

/// Black's row 0 against white's row 2: both colours can make a line.
const DUEL: [(i64, i64); 6] = [(0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)];

#[test]
fn qgm_020_observing_uses_one_of_the_observers_counter_only() {
    let (mut s, id) = service_with_game();
    play(&mut s, &id, &[(7, 7)]);
    let r = s
        .observe(&id, &obs(Player::Black, Some(3)))
        .expect("black just moved");
    assert_eq!(r.game_state.black_observations_remaining, 4);
    assert_eq!(r.game_state.white_observations_remaining, 5);
    play(&mut s, &id, &[(9, 9)]);
    let r = s
        .observe(&id, &obs(Player::White, None))
        .expect("white just moved");
    assert_eq!(r.game_state.black_observations_remaining, 4);
    assert_eq!(r.game_state.white_observations_remaining, 4);
}

#[test]
fn qgm_021_only_the_last_mover_may_observe() {
    let (mut s, id) = service_with_game();
    // Nobody has moved yet.
    assert_refused(&mut s, &id, "OBS_NOT_ALLOWED", |s| {
        s.observe(&id, &obs(Player::Black, None))
    });
    play(&mut s, &id, &[(7, 7)]);
    let e = assert_refused(&mut s, &id, "OBS_NOT_ALLOWED", |s| {
        s.observe(&id, &obs(Player::White, None))
    });
    assert_eq!(e.http_status(), 409);
    play(&mut s, &id, &[(7, 8)]);
    assert_refused(&mut s, &id, "OBS_NOT_ALLOWED", |s| {
        s.observe(&id, &obs(Player::Black, None))
    });
    assert!(s.observe(&id, &obs(Player::White, None)).is_ok());
}

#[test]
fn qgm_022_a_line_finishes_the_game_for_its_colour() {
    let (mut s, id) = service_with_game();
    play(&mut s, &id, &DUEL);
    let game = s.game(&id).expect("exists").clone();
    // White observes, but only black has a line: black wins.
    let seed = seed_where(&game, Player::White, |r| r.winner == Some(Player::Black));
    let r = s
        .observe(&id, &obs(Player::White, Some(seed)))
        .expect("white just moved");
    let res = &r.observation_result;
    assert!(res.is_winning);
    assert_eq!(res.observed_by, Player::White);
    assert_eq!(res.turn_executed, 6);
    let line = res.winning_line.as_ref().expect("a winning line");
    assert_eq!(
        line,
        &vec![
            Position::new(0, 0),
            Position::new(0, 1),
            Position::new(0, 2)
        ]
    );
    assert_eq!(r.game_state.status, GameStatus::Finished);
    assert_eq!(r.game_state.winner, Some(Player::Black));
    // A finished game keeps the collapsed colours and refuses further play.
    assert!(
        r.game_state
            .stones()
            .all(|(_, st)| st.observed_color.is_some())
    );
    assert_eq!(r.game_state.board, res.result_board);
    assert_refused(&mut s, &id, "GAME_OVER", |s| {
        s.place(&id, &mv(Player::Black, 9, 9))
    });
    assert_refused(&mut s, &id, "GAME_OVER", |s| {
        s.observe(&id, &obs(Player::White, None))
    });
}

#[test]
fn qgm_022_both_colours_at_once_win_for_the_observer() {
    let (mut s, id) = service_with_game();
    play(&mut s, &id, &DUEL);
    let game = s.game(&id).expect("exists").clone();
    let both = |r: &quantum_gomoku::ObservationResult| {
        let cols: Vec<_> = [(0, 0), (0, 1), (0, 2), (2, 0), (2, 1), (2, 2)]
            .iter()
            .map(|&(row, col)| r.result_board[row][col].and_then(|st| st.observed_color))
            .collect();
        cols[..3].iter().all(|c| *c == Some(Player::Black))
            && cols[3..].iter().all(|c| *c == Some(Player::White))
    };
    let seed = seed_where(&game, Player::White, both);
    let r = s
        .observe(&id, &obs(Player::White, Some(seed)))
        .expect("white just moved");
    assert_eq!(r.game_state.winner, Some(Player::White));
    assert_eq!(r.observation_result.winner, Some(Player::White));
    let line = r.observation_result.winning_line.expect("a line");
    assert!(
        line.iter().all(|p| p.row == 2),
        "the line shown is the winner's: {line:?}"
    );
}

#[test]
fn qgm_023_without_a_line_every_stone_is_unobserved_again() {
    let (mut s, id) = service_with_game();
    play(&mut s, &id, &DUEL);
    let game = s.game(&id).expect("exists").clone();
    let seed = seed_where(&game, Player::White, |r| !r.is_winning);
    let before = s.get(&id).expect("exists").game_state;
    let r = s
        .observe(&id, &obs(Player::White, Some(seed)))
        .expect("white just moved");
    assert!(!r.observation_result.is_winning);
    assert_eq!(r.observation_result.winner, None);
    assert_eq!(r.observation_result.winning_line, None);
    assert!(
        r.observation_result
            .result_board
            .iter()
            .flatten()
            .flatten()
            .all(|st| st.observed_color.is_some())
    );
    assert_eq!(r.game_state.status, GameStatus::Playing);
    assert!(
        r.game_state
            .stones()
            .all(|(_, st)| st.observed_color.is_none())
    );
    assert_eq!(
        r.game_state.board, before.board,
        "stones stay where they are"
    );
    // The result stays viewable after the colours are withdrawn.
    let kept = s.game(&id).expect("exists").last_observation().cloned();
    assert_eq!(kept, Some(r.observation_result));
}

#[test]
fn qgm_023_the_same_seed_and_board_give_the_same_collapse() {
    let (mut s, id) = service_with_game();
    play(&mut s, &id, &DUEL);
    let a = s
        .clone()
        .observe(&id, &obs(Player::White, Some(77)))
        .expect("allowed");
    let b = s
        .clone()
        .observe(&id, &obs(Player::White, Some(77)))
        .expect("allowed");
    assert_eq!(
        a.observation_result.result_board,
        b.observation_result.result_board
    );
    assert_eq!(a.game_state, b.game_state);
}

#[test]
fn qgm_024_observations_run_out_after_five() {
    let (mut s, id) = service_with_game();
    play(&mut s, &id, &[(7, 7)]);
    for left in (0..5).rev() {
        let r = s
            .observe(&id, &obs(Player::Black, None))
            .expect("a lone stone cannot win");
        assert_eq!(r.game_state.black_observations_remaining, left);
    }
    let e = assert_refused(&mut s, &id, "OBS_LIMIT_EXCEEDED", |s| {
        s.observe(&id, &obs(Player::Black, None))
    });
    assert_eq!(e.http_status(), 409);
    play(&mut s, &id, &[(0, 0), (14, 14)]);
    assert_refused(&mut s, &id, "OBS_LIMIT_EXCEEDED", |s| {
        s.observe(&id, &obs(Player::Black, Some(1)))
    });
}

#[test]
fn qgm_040_full_board_with_no_observations_left_is_a_draw() {
    let (mut s, id) = service_with_game();
    // Spend all observations while a line is impossible (two stones apart).
    play(&mut s, &id, &[(0, 0)]);
    for _ in 0..5 {
        s.observe(&id, &obs(Player::Black, None)).expect("allowed");
    }
    play(&mut s, &id, &[(14, 14)]);
    for _ in 0..5 {
        s.observe(&id, &obs(Player::White, None)).expect("allowed");
    }
    let rest: Vec<(i64, i64)> = (0..15)
        .flat_map(|r| (0..15).map(move |c| (r, c)))
        .filter(|&p| p != (0, 0) && p != (14, 14))
        .collect();
    let (last, most) = rest.split_last().expect("223 cells");
    let st = play(&mut s, &id, most);
    assert_eq!(st.status, GameStatus::Playing, "one cell is still empty");
    let st = play(&mut s, &id, &[*last]);
    assert_eq!(st.status, GameStatus::Draw);
    assert_eq!(st.winner, None);
    assert_eq!(st.turn_count, 225);
    assert_refused(&mut s, &id, "GAME_OVER", |s| {
        s.observe(&id, &obs(Player::Black, None))
    });
    let json = serde_json::to_value(&st).expect("plain data");
    assert_eq!(json["status"], "draw");
}

#[test]
fn qgm_040_a_full_board_whose_last_mover_cannot_observe_is_a_draw_too() {
    // 3x3, win length 3: black fills the board last (5 stones against 4).
    let mut g = Game::new(GameOptions::new(3, 3), 11, 0).expect("valid options");
    place_in_turn(&mut g, Player::Black, &ALL_3X3[..1]);
    for _ in 0..5 {
        g.observe(Player::Black, None)
            .expect("one stone never wins");
    }
    place_in_turn(&mut g, Player::White, &ALL_3X3[1..]);
    // White still has 5 observations but can never observe: a draw, not a stuck game.
    assert_eq!(g.state().white_observations_remaining, 5);
    assert_eq!(g.state().status, GameStatus::Draw);
}

#[test]
fn qgm_040_a_full_board_stays_playing_while_the_last_mover_may_observe() {
    let mut g = Game::new(GameOptions::new(3, 3), 11, 0).expect("valid options");
    place_in_turn(&mut g, Player::Black, &ALL_3X3);
    assert_eq!(g.state().status, GameStatus::Playing);
    assert_eq!(g.observer(), Some(Player::Black));
    // Keep observing until a win or black runs out; either way the game ends.
    while g.state().status == GameStatus::Playing {
        g.observe(Player::Black, None).expect("black may observe");
    }
    assert!(matches!(
        g.state().status,
        GameStatus::Finished | GameStatus::Draw
    ));
}
