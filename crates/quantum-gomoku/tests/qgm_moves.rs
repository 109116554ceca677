//! Acceptance criteria for placing stones (QGM-010 to QGM-015).

mod common;

use common::*;
use quantum_gomoku::{Player, ProbabilityType};

#[test]
fn qgm_010_placing_on_an_empty_cell_puts_an_unobserved_stone_there() {
    let (mut s, id) = service_with_game();
    let st = s
        .place(&id, &mv(Player::Black, 7, 7))
        .expect("legal")
        .game_state;
    let stone = st.board[7][7].expect("a stone at (7,7)");
    assert_eq!(stone.placed_by, Player::Black);
    assert_eq!(stone.observed_color, None);
    assert_eq!(stone.turn_placed, 1);
    assert_eq!(st.stone_count(), 1);
    let json = serde_json::to_value(&st).expect("plain data");
    assert_eq!(
        json["board"][7][7],
        serde_json::json!({"placedBy":"BLACK","turnPlaced":1,"probabilityType":"P90","observedColor":null})
    );
    assert_eq!(json["board"][7][6], serde_json::Value::Null);
}

#[test]
fn qgm_011_placing_passes_the_turn_and_counts_it() {
    let (mut s, id) = service_with_game();
    let st = s
        .place(&id, &mv(Player::Black, 0, 0))
        .expect("legal")
        .game_state;
    assert_eq!(
        (st.current_player, st.turn_count, st.last_mover),
        (Player::White, 1, Some(Player::Black))
    );
    let st = s
        .place(&id, &mv(Player::White, 0, 1))
        .expect("legal")
        .game_state;
    assert_eq!(
        (st.current_player, st.turn_count, st.last_mover),
        (Player::Black, 2, Some(Player::White))
    );
}

#[test]
fn qgm_012_probability_types_rotate_per_player() {
    let (mut s, id) = service_with_game();
    let cells: Vec<(i64, i64)> = (0..8).map(|i| (i / 4, i % 4)).collect();
    let st = play(&mut s, &id, &cells);
    let types: Vec<_> = cells
        .iter()
        .map(|&(r, c)| {
            st.board[r as usize][c as usize]
                .expect("placed")
                .probability_type
        })
        .collect();
    use ProbabilityType::*;
    assert_eq!(types, vec![P90, P10, P70, P30, P90, P10, P70, P30]);
}

#[test]
fn qgm_013_occupied_off_board_and_out_of_turn_are_refused() {
    let (mut s, id) = service_with_game();
    play(&mut s, &id, &[(3, 3)]);
    let e = assert_refused(&mut s, &id, "CELL_OCCUPIED", |s| {
        s.place(&id, &mv(Player::White, 3, 3))
    });
    assert_eq!(e.http_status(), 400);
    let e = assert_refused(&mut s, &id, "INVALID_POSITION", |s| {
        s.place(&id, &mv(Player::White, 15, 0))
    });
    assert_eq!(e.http_status(), 400);
    let e = assert_refused(&mut s, &id, "OUT_OF_TURN", |s| {
        s.place(&id, &mv(Player::Black, 4, 4))
    });
    assert_eq!(e.http_status(), 409);
}

#[test]
fn qgm_013_cell_occupied_details_name_the_cell() {
    let (mut s, id) = service_with_game();
    play(&mut s, &id, &[(1, 2)]);
    let e = s
        .place(&id, &mv(Player::White, 1, 2))
        .expect_err("occupied");
    let body = serde_json::to_value(e.to_api_error()).expect("plain data");
    assert_eq!(body["details"], serde_json::json!({"row": 1, "col": 2}));
}

#[test]
fn qgm_014_a_player_id_other_than_the_current_player_is_out_of_turn() {
    let (mut s, id) = service_with_game();
    let e = assert_refused(&mut s, &id, "OUT_OF_TURN", |s| {
        s.place(&id, &mv(Player::White, 0, 0))
    });
    let body = serde_json::to_value(e.to_api_error()).expect("plain data");
    assert_eq!(body["details"]["currentPlayer"], "BLACK");
}

#[test]
fn qgm_015_off_board_positions_and_unknown_ids() {
    let (mut s, id) = service_with_game();
    for (r, c) in [
        (-1, 0),
        (0, -1),
        (15, 15),
        (0, 15),
        (i64::MAX, 0),
        (i64::MIN, 3),
    ] {
        assert_refused(&mut s, &id, "INVALID_POSITION", |s| {
            s.place(&id, &mv(Player::Black, r, c))
        });
    }
    let absent = "123e4567-e89b-42d3-a456-426614174000";
    assert_eq!(
        s.place(absent, &mv(Player::Black, 0, 0))
            .expect_err("absent")
            .code(),
        "NOT_FOUND"
    );
    assert_eq!(
        s.place("xyz", &mv(Player::Black, 0, 0))
            .expect_err("malformed")
            .code(),
        "INVALID_ID"
    );
}
