//! Saving/loading games as JSON (for localStorage), undo and the move log.

mod common;

use common::{ALL_3X3, place_in_turn};

use quantum_gomoku::{
    Command, Game, GameOptions, GameStatus, LoadError, LogEntry, Player, Position, ProbabilityType,
    RuleError,
};

fn played() -> Game {
    let mut g = Game::new(GameOptions::new(9, 4), 42, 1_000).expect("valid options");
    place_in_turn(&mut g, Player::Black, &[(4, 4), (4, 5), (5, 4), (5, 5)]);
    g.observe(Player::White, Some(3)).expect("white just moved");
    g
}

#[test]
fn a_saved_game_loads_back_identically_and_continues_identically() {
    let mut g = played();
    let json = g.to_json().expect("serializable");
    let mut back = Game::from_json(&json).expect("loads");
    assert_eq!(back, g);
    // The generator travels too: the next unseeded observation matches.
    g.place(Player::Black, Position::new(0, 0)).expect("legal");
    back.place(Player::Black, Position::new(0, 0))
        .expect("legal");
    assert_eq!(
        g.observe(Player::Black, None),
        back.observe(Player::Black, None)
    );
}

#[test]
fn tampered_saves_are_refused_not_trusted() {
    let json: serde_json::Value =
        serde_json::from_str(&played().to_json().expect("serializable")).expect("json");
    let tamper = |f: &dyn Fn(&mut serde_json::Value)| {
        let mut v = json.clone();
        f(&mut v);
        Game::from_json(&v.to_string())
    };
    assert!(matches!(
        tamper(&|v| v["state"]["turnCount"] = 7.into()),
        Err(LoadError::Inconsistent(_))
    ));
    assert!(matches!(
        tamper(&|v| v["state"]["blackObservationsRemaining"] = 9.into()),
        Err(LoadError::Inconsistent(_))
    ));
    assert!(matches!(
        tamper(&|v| v["options"]["boardSize"] = 10.into()),
        Err(LoadError::Inconsistent(_))
    ));
    assert!(matches!(
        tamper(&|v| v["options"]["boardSize"] = 0.into()),
        Err(LoadError::Options(_))
    ));
    assert!(matches!(
        tamper(&|v| v["state"]["status"] = "finished".into()),
        Err(LoadError::Inconsistent(_))
    ));
    assert!(matches!(
        tamper(&|v| v["state"]["board"][4][4]["probabilityType"] = "P10".into()),
        Err(LoadError::Inconsistent(_))
    ));
    assert!(matches!(
        tamper(&|v| v["state"]["id"] = "nope".into()),
        Err(LoadError::Json(_))
    ));
    assert!(matches!(
        tamper(&|v| v["extra"] = 1.into()),
        Err(LoadError::Json(_))
    ));
    assert!(matches!(Game::from_json("{"), Err(LoadError::Json(_))));
}

#[test]
fn the_log_records_moves_and_observations_in_order() {
    let g = played();
    let log = g.log();
    assert_eq!(log.len(), 5);
    assert_eq!(
        log[0],
        LogEntry::Move {
            player: Player::Black,
            position: Position::new(4, 4),
            probability_type: ProbabilityType::P90,
            turn: 1
        }
    );
    assert!(matches!(
        log[4],
        LogEntry::Observation {
            player: Player::White,
            turn: 4,
            seed: 3,
            ..
        }
    ));
    let json = serde_json::to_value(log[0]).expect("plain data");
    assert_eq!(json["kind"], "move");
    assert_eq!(json["probabilityType"], "P90");
}

#[test]
fn undo_is_refused_after_an_observation_and_allowed_after_the_next_move() {
    let mut g = played();
    let before = g.clone();
    assert_eq!(g.undo(), Err(RuleError::UndoAfterObservation));
    assert_eq!(g, before);
    g.place(Player::Black, Position::new(0, 0)).expect("legal");
    let entry = g.undo().expect("a move to undo");
    assert!(matches!(entry, LogEntry::Move { position, .. } if position == Position::new(0, 0)));
    assert_eq!(g, before);
    assert!(g.view().can_undo == g.check(Command::Undo).is_ok());
}

#[test]
fn undo_is_refused_once_the_game_is_over() {
    let mut g = Game::new(GameOptions::new(3, 3), 1, 0).expect("valid options");
    place_in_turn(&mut g, Player::Black, &ALL_3X3[..1]);
    for _ in 0..5 {
        g.observe(Player::Black, None)
            .expect("one stone never wins");
    }
    place_in_turn(&mut g, Player::White, &ALL_3X3[1..]);
    assert_eq!(g.state().status, GameStatus::Draw);
    assert_eq!(g.undo(), Err(RuleError::GameOver(GameStatus::Draw)));
}

#[test]
fn games_made_from_the_same_seed_are_identical() {
    let a = Game::new(GameOptions::default(), 7, 5).expect("valid");
    let b = Game::new(GameOptions::default(), 7, 5).expect("valid");
    assert_eq!(a, b);
    assert_ne!(
        a.id(),
        Game::new(GameOptions::default(), 8, 5).expect("valid").id()
    );
}
