//! Acceptance criteria for creating, reading, resetting and deleting games (QGM-001, 002, 030, 031).

mod common;

use common::*;
use quantum_gomoku::service::{GameService, ServiceError};
use quantum_gomoku::{GameId, GameOptions, GameStatus, OptionsError, Player};

#[test]
fn qgm_001_new_game_has_the_initial_values() {
    let mut s = GameService::new(1, 8);
    let created = s
        .create(test_id(1), GameOptions::default(), 0)
        .expect("default options are valid");
    let st = &created.game_state;
    assert_eq!(st.id, created.game_id);
    assert!(created.game_id.is_v4());
    assert_eq!(st.status, GameStatus::Playing);
    assert_eq!(st.current_player, Player::Black);
    assert_eq!(st.winner, None);
    assert_eq!(st.turn_count, 0);
    assert_eq!(st.black_observations_remaining, 5);
    assert_eq!(st.white_observations_remaining, 5);
    assert_eq!(st.last_mover, None);
    assert_eq!(st.created_at, "1970-01-01T00:00:00.000Z");
    assert_eq!(st.board.len(), 15);
    assert!(
        st.board
            .iter()
            .all(|row| row.len() == 15 && row.iter().all(Option::is_none))
    );
    let json = serde_json::to_value(&created).expect("plain data");
    let keys: Vec<_> = json["gameState"]
        .as_object()
        .expect("an object")
        .keys()
        .cloned()
        .collect();
    for k in [
        "id",
        "status",
        "currentPlayer",
        "winner",
        "board",
        "blackObservationsRemaining",
        "whiteObservationsRemaining",
        "turnCount",
        "createdAt",
        "lastMover",
    ] {
        assert!(keys.iter().any(|x| x == k), "missing {k}");
    }
    assert_eq!(
        keys.len(),
        10,
        "no fields beyond the specification's: {keys:?}"
    );
    assert_eq!(json["gameId"], json["gameState"]["id"]);
    assert_eq!(json["gameState"]["status"], "playing");
}

#[test]
fn qgm_001_new_game_options_are_validated() {
    let mut s = GameService::new(1, 8);
    let small = s
        .create(test_id(1), GameOptions::new(7, 4), 0)
        .expect("valid options");
    assert_eq!(small.game_state.board.len(), 7);
    for bad in [
        GameOptions::new(0, 3),
        GameOptions::new(15, 16),
        GameOptions::new(30, 5),
    ] {
        let err = s.create(test_id(2), bad, 0).expect_err("invalid options");
        assert_eq!((err.code(), err.http_status()), ("INVALID_OPTIONS", 400));
    }
    assert!(matches!(
        s.create(test_id(2), GameOptions::new(0, 3), 0),
        Err(ServiceError::InvalidOptions(OptionsError::BoardSize(0)))
    ));
    assert_eq!(s.len(), 1, "refused creations store nothing");
}

#[test]
fn qgm_002_get_returns_the_state_and_unknown_ids_are_not_found() {
    let (mut s, id) = service_with_game();
    let got = s.get(&id).expect("exists");
    assert_eq!(got.game_state.id.to_string(), id);
    let missing = GameId::parse("123e4567-e89b-42d3-a456-426614174000").expect("a valid v4 id");
    let err = s.get(&missing.to_string()).expect_err("not stored");
    assert_eq!((err.code(), err.http_status()), ("NOT_FOUND", 404));
    let err = s.get("not-a-uuid").expect_err("malformed");
    assert_eq!((err.code(), err.http_status()), ("INVALID_ID", 400));
    // A v1 id is well-formed, so it is looked up (and not found).
    assert_eq!(
        s.get("c232ab00-9414-11ec-b3c8-9f6bdeced846")
            .expect_err("absent")
            .code(),
        "NOT_FOUND"
    );
    assert_refused(&mut s, &id, "INVALID_ID", |s| {
        s.get("123e4567-e89b-62d3-a456-426614174000")
    });
}

#[test]
fn qgm_030_reset_keeps_id_and_created_at_and_restores_the_initial_state() {
    let (mut s, id) = service_with_game();
    let initial = s.get(&id).expect("exists").game_state;
    play(&mut s, &id, &[(7, 7), (7, 8), (0, 0)]);
    s.observe(&id, &obs(Player::Black, Some(1)))
        .expect("black just moved");
    let reset = s.reset(&id).expect("exists").game_state;
    assert_eq!(reset, initial);
    assert_eq!(s.game(&id).expect("exists").log(), &[]);
    assert!(s.game(&id).expect("exists").last_observation().is_none());
}

#[test]
fn qgm_030_reset_turns_a_finished_game_back_to_playing() {
    let (mut s, id) = service_with_game();
    play(&mut s, &id, &[(0, 0), (5, 5), (0, 1), (6, 6), (0, 2)]);
    let game = s.game(&id).expect("exists").clone();
    let seed = seed_where(&game, Player::Black, |r| r.winner.is_some());
    s.observe(&id, &obs(Player::Black, Some(seed)))
        .expect("allowed");
    assert_eq!(
        s.get(&id).expect("exists").game_state.status,
        GameStatus::Finished
    );
    let st = s.reset(&id).expect("exists").game_state;
    assert_eq!(st.status, GameStatus::Playing);
    assert_eq!(st.winner, None);
}

#[test]
fn qgm_031_delete_answers_success_and_the_game_is_gone() {
    let (mut s, id) = service_with_game();
    let res = s.delete(&id).expect("exists");
    assert!(res.success);
    assert_eq!(
        serde_json::to_value(res).expect("plain data"),
        serde_json::json!({"success": true})
    );
    assert_eq!(s.get(&id).expect_err("deleted").code(), "NOT_FOUND");
    assert_eq!(s.delete(&id).expect_err("deleted").code(), "NOT_FOUND");
    assert_eq!(
        s.delete("nope").expect_err("malformed").code(),
        "INVALID_ID"
    );
}
