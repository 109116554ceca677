//! Property tests: random command sequences never panic, refused commands change
//! nothing, and the game's invariants and state machine hold throughout.

use proptest::prelude::*;
use quantum_gomoku::service::{GameService, MoveRequest, ObservationRequest, RawPosition};
use quantum_gomoku::{
    Command, Game, GameId, GameOptions, GameState, GameStatus, OBSERVATIONS_PER_PLAYER, Player,
    Position, Stone,
};

fn player() -> impl Strategy<Value = Player> {
    prop_oneof![Just(Player::Black), Just(Player::White)]
}

/// Commands biased towards legal ones, with off-board cells mixed in.
fn command(size: usize) -> impl Strategy<Value = Command> {
    let cell = 0..size + 2;
    prop_oneof![
        6 => (player(), cell.clone(), cell).prop_map(|(player, row, col)| Command::Place {
            player,
            position: Position::new(row, col),
        }),
        2 => (player(), proptest::option::of(0u64..1000)).prop_map(|(player, seed)| Command::Observe { player, seed }),
        1 => Just(Command::Undo),
        1 => Just(Command::Reset),
    ]
}

fn stones(st: &GameState) -> Vec<(Position, Stone)> {
    st.stones()
        .map(|(p, s)| {
            (
                p,
                Stone {
                    observed_color: None,
                    ..*s
                },
            )
        })
        .collect()
}

fn check_invariants(g: &Game) {
    let st = g.state();
    assert!(st.black_observations_remaining <= OBSERVATIONS_PER_PLAYER);
    assert!(st.white_observations_remaining <= OBSERVATIONS_PER_PLAYER);
    assert_eq!(st.stone_count(), st.turn_count as usize);
    let expected = if st.turn_count.is_multiple_of(2) {
        Player::Black
    } else {
        Player::White
    };
    assert_eq!(st.current_player, expected);
    assert_eq!(st.winner.is_some(), st.status == GameStatus::Finished);
    assert_eq!(st.last_mover.is_none(), st.turn_count == 0);
    if st.status != GameStatus::Finished {
        assert!(st.stones().all(|(_, s)| s.observed_color.is_none()));
    }
    if st.status == GameStatus::Draw {
        assert!(st.is_full());
    }
}

fn run(options: GameOptions, seed: u64, commands: &[Command]) {
    let mut g = Game::new(options, seed, 0).expect("valid options");
    for &cmd in commands {
        let before = g.clone();
        let checked = g.check(cmd);
        match g.apply(cmd) {
            Err(e) => {
                assert_eq!(g, before, "refused {cmd:?} ({e}) changed the game");
                assert_eq!(checked, Err(e), "check and apply disagree");
            }
            Ok(_) => {
                assert_eq!(checked, Ok(()), "check refused what apply accepted");
                let (b, a) = (before.state(), g.state());
                match cmd {
                    Command::Place { .. } => {
                        let old = stones(b);
                        let new = stones(a);
                        assert_eq!(new.len(), old.len() + 1);
                        assert!(old.iter().all(|s| new.contains(s)), "a stone moved");
                        assert_eq!(b.status, GameStatus::Playing);
                        assert!(matches!(a.status, GameStatus::Playing | GameStatus::Draw));
                    }
                    Command::Observe { player, .. } => {
                        assert_eq!(stones(a), stones(b), "an observation moved a stone");
                        assert_eq!(
                            a.observations_remaining(player) + 1,
                            b.observations_remaining(player)
                        );
                        assert_eq!(
                            a.observations_remaining(player.opponent()),
                            b.observations_remaining(player.opponent())
                        );
                        assert_eq!(b.status, GameStatus::Playing);
                    }
                    Command::Undo => {
                        let old = stones(b);
                        let new = stones(a);
                        assert_eq!(new.len() + 1, old.len());
                        assert!(new.iter().all(|s| old.contains(s)), "a stone moved");
                        assert_eq!(
                            (b.status, a.status),
                            (GameStatus::Playing, GameStatus::Playing)
                        );
                    }
                    Command::Reset => {
                        assert_eq!(a.status, GameStatus::Playing);
                        assert_eq!((a.id, &a.created_at), (b.id, &b.created_at));
                        assert_eq!(a.stone_count(), 0);
                    }
                }
            }
        }
        check_invariants(&g);
    }
    let reloaded = Game::from_json(&g.to_json().expect("serializable")).expect("own saves load");
    assert_eq!(reloaded, g);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn random_commands_keep_invariants_on_a_small_board(
        seed in any::<u64>(),
        commands in proptest::collection::vec(command(4), 0..120),
    ) {
        run(GameOptions::new(4, 3), seed, &commands);
    }

    #[test]
    fn random_commands_keep_invariants_on_the_default_board(
        seed in any::<u64>(),
        commands in proptest::collection::vec(command(15), 0..80),
    ) {
        run(GameOptions::default(), seed, &commands);
    }

    #[test]
    fn legal_commands_apply_and_nothing_else_does(
        seed in any::<u64>(),
        commands in proptest::collection::vec(command(3), 0..40),
        probes in proptest::collection::vec(command(3), 1..20),
    ) {
        let mut g = Game::new(GameOptions::new(3, 3), seed, 0).expect("valid options");
        for cmd in commands {
            let _ = g.apply(cmd);
        }
        let legal = g.legal_commands();
        for &cmd in &legal {
            prop_assert!(g.clone().apply(cmd).is_ok(), "listed {:?} was refused", cmd);
        }
        for probe in probes {
            let listed = match probe {
                Command::Observe { player, .. } => legal.contains(&Command::Observe { player, seed: None }),
                other => legal.contains(&other),
            };
            prop_assert_eq!(g.clone().apply(probe).is_ok(), listed, "{:?}", probe);
        }
    }

    #[test]
    fn random_service_requests_never_panic(
        ops in proptest::collection::vec((0u8..7, player(), -2i64..17, -2i64..17, proptest::option::of(any::<u64>())), 0..60),
        junk in "\\PC{0,40}",
    ) {
        let mut s = GameService::new(5, 3);
        let mut ids = vec![s.create(GameId::from_random_bytes([0; 16]), GameOptions::default(), 0).expect("valid").game_id.to_string(), junk.clone()];
        for (op, p, row, col, seed) in ops {
            let id = ids[(row.unsigned_abs() as usize) % ids.len()].clone();
            let before = s.game(&id).ok().cloned();
            let result = match op {
                0 => s.place(&id, &MoveRequest { player_id: p, position: RawPosition { row, col } }).map(|_| ()),
                1 => s.observe(&id, &ObservationRequest { player_id: p, seed }).map(|_| ()),
                2 => s.get(&id).map(|_| ()),
                3 => s.reset(&id).map(|_| ()),
                4 => s.delete(&id).map(|_| ()),
                5 => s.create(GameId::from_random_bytes([ids.len() as u8; 16]), GameOptions::new(col.unsigned_abs() as usize, row.unsigned_abs() as usize), 0).map(|c| ids.push(c.game_id.to_string())),
                _ => s.place(&id, &MoveRequest { player_id: p, position: RawPosition { row, col } }).map(|_| ()),
            };
            if let Err(e) = result {
                prop_assert!(matches!(e.http_status(), 400 | 404 | 409));
                prop_assert!(!e.to_api_error().message.is_empty());
                if op != 5 {
                    prop_assert_eq!(s.game(&id).ok().cloned(), before);
                }
            }
            prop_assert!(s.len() <= s.max_games());
        }
    }

    #[test]
    fn arbitrary_json_never_panics_the_loader(text in "\\PC{0,200}") {
        let _ = Game::from_json(&text);
        let _ = quantum_gomoku::service::parse_body::<MoveRequest>(text.as_bytes());
    }
}
