//! Helpers shared by the acceptance tests: a service with one game, and move shortcuts.
#![allow(dead_code)] // each test file uses a different subset

use quantum_gomoku::service::{
    GameService, MoveRequest, ObservationRequest, RawPosition, ServiceError,
};
use quantum_gomoku::{Game, GameId, GameOptions, GameState, ObservationResult, Player, Position};

/// A service holding one default game; returns the service and the game id.
pub fn service_with_game() -> (GameService, String) {
    let mut s = GameService::new(2024, 16);
    let created = s
        .create(test_id(1), GameOptions::default(), 1_700_000_000_000)
        .expect("default options are valid");
    (s, created.game_id.to_string())
}

/// A distinct id per `n` (tests need no secure randomness).
pub fn test_id(n: u8) -> GameId {
    GameId::from_random_bytes([n; 16])
}

pub fn mv(player: Player, row: i64, col: i64) -> MoveRequest {
    MoveRequest {
        player_id: player,
        position: RawPosition { row, col },
    }
}

pub fn obs(player: Player, seed: Option<u64>) -> ObservationRequest {
    ObservationRequest {
        player_id: player,
        seed,
    }
}

/// Plays `cells` alternately starting with whoever is to move.
pub fn play(s: &mut GameService, id: &str, cells: &[(i64, i64)]) -> GameState {
    let mut last = s.get(id).expect("game exists").game_state;
    for &(r, c) in cells {
        let p = last.current_player;
        last = s.place(id, &mv(p, r, c)).expect("legal move").game_state;
    }
    last
}

/// Asserts that `f` is refused with `code` and leaves the game untouched.
pub fn assert_refused<T: std::fmt::Debug>(
    s: &mut GameService,
    id: &str,
    code: &str,
    f: impl FnOnce(&mut GameService) -> Result<T, ServiceError>,
) -> ServiceError {
    let before = s.game(id).ok().cloned();
    let err = f(s).expect_err("request should be refused");
    assert_eq!(err.code(), code, "{err}");
    assert_eq!(
        s.game(id).ok().cloned(),
        before,
        "a refused request changed the game"
    );
    err
}

/// The first seed below 100 000 whose observation by `player` satisfies `want`.
pub fn seed_where(game: &Game, player: Player, want: impl Fn(&ObservationResult) -> bool) -> u64 {
    (0..100_000u64)
        .find(|&seed| {
            let mut probe = game.clone();
            probe.observe(player, Some(seed)).is_ok_and(|r| want(&r))
        })
        .expect("some seed gives the wanted outcome")
}

/// Places stones on `cells` in turn, `first` moving first (engine API, no service).
pub fn place_in_turn(game: &mut Game, first: Player, cells: &[(usize, usize)]) {
    for (i, &(r, c)) in cells.iter().enumerate() {
        let p = if i % 2 == 0 { first } else { first.opponent() };
        game.place(p, Position::new(r, c)).expect("legal");
    }
}

/// Every cell of a 3x3 board, row by row.
pub const ALL_3X3: [(usize, usize); 9] = [
    (0, 0),
    (0, 1),
    (0, 2),
    (1, 0),
    (1, 1),
    (1, 2),
    (2, 0),
    (2, 1),
    (2, 2),
];
