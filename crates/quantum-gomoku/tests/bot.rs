//! The computer opponent: public information only, deterministic per seed, and the right
//! move and observation on small boards where the best choice is known.

use quantum_gomoku::bot::{Bot, BotError, Decision};
use quantum_gomoku::{
    Command, Game, GameOptions, GameStatus, Player, Position, ProbabilityConfig, win_probability,
};

/// A game on a `size` board with win length `win`, the cells placed alternately from black.
fn game(seed: u64, size: usize, win: usize, cells: &[(usize, usize)]) -> Game {
    let mut g = Game::new(GameOptions::new(size, win), seed, 0).expect("valid options");
    for &(r, c) in cells {
        let player = g.state().current_player;
        g.apply(Command::Place {
            player,
            position: Position::new(r, c),
        })
        .expect("legal move");
    }
    g
}

fn decide(bot: &Bot, g: &Game, player: Player) -> Decision {
    bot.decide(g.state(), g.options(), player)
        .expect("the bot can decide")
}

#[test]
fn same_seed_and_state_give_the_same_decision() {
    let g = game(5, 9, 3, &[(4, 4), (4, 5), (3, 4), (2, 2), (5, 5)]);
    let a = Bot::new(11)
        .turn(g.state(), g.options())
        .expect("white to move");
    let b = Bot::new(11)
        .turn(g.state(), g.options())
        .expect("white to move");
    assert_eq!(a, b);
}

#[test]
fn the_hidden_generator_does_not_change_the_decision() {
    // Two games with the same stones and counters but different generators (so a
    // different seed for the next collapse, and different ids).
    let cells = [(4, 4), (4, 5), (3, 4), (2, 2), (5, 4), (6, 6)];
    let a = game(1, 9, 3, &cells);
    let b = game(2, 9, 3, &cells);
    assert_ne!(a.id(), b.id());
    let mut next_a = a.clone();
    let mut next_b = b.clone();
    let collapse = |g: &mut Game| {
        g.apply(Command::Observe {
            player: Player::White,
            seed: None,
        })
        .map(|e| format!("{e:?}"))
    };
    assert_ne!(
        collapse(&mut next_a).ok(),
        collapse(&mut next_b).ok(),
        "the pending collapses differ"
    );
    for seed in [3, 4, 5] {
        let bot = Bot::new(seed);
        assert_eq!(
            decide(&bot, &a, Player::Black),
            decide(&bot, &b, Player::Black),
            "seed {seed}"
        );
        assert_eq!(
            decide(&bot, &a, Player::White),
            decide(&bot, &b, Player::White),
            "seed {seed}"
        );
    }
}

#[test]
fn observes_at_once_when_its_exact_chance_to_win_is_high() {
    // Black holds a 3x3 block on a 9x9 board: its rows, columns and diagonals give
    // black a line with a chance above 0.9; white's stones are on no common line.
    let g = game(
        7,
        9,
        3,
        &[
            (0, 0),
            (8, 8),
            (0, 1),
            (8, 5),
            (0, 2),
            (8, 2),
            (1, 0),
            (5, 8),
            (1, 1),
            (2, 8),
            (1, 2),
            (6, 6),
            (2, 0),
            (4, 5),
            (2, 1),
            (6, 3),
            (2, 2),
        ],
    );
    let p = win_probability(&g, &ProbabilityConfig::default());
    assert!(
        p.wins(Player::Black, Player::Black) > 0.9,
        "exact chance {p:?}"
    );
    assert_eq!(decide(&Bot::new(1), &g, Player::Black), Decision::Observe);
}

#[test]
fn does_not_observe_without_a_chance() {
    // Two scattered stones: no line is possible, so observing only wastes one.
    let g = game(7, 7, 3, &[(0, 0), (6, 6)]);
    assert_eq!(decide(&Bot::new(1), &g, Player::White), Decision::Pass);
}

#[test]
fn completes_its_line_and_observes_when_the_opponent_threatens() {
    // 5x5: black has (2,0) P90 and (2,1) P70 with (2,2) free; white has two stones in
    // column 4, one placement away from a line of its own that it would observe.
    let g = game(9, 5, 3, &[(2, 0), (0, 4), (2, 1), (1, 4)]);
    match decide(&Bot::new(2), &g, Player::Black) {
        Decision::Place(turn) => {
            assert_eq!(turn.position, Position::new(2, 2), "{turn:?}");
            assert!(turn.observe, "0.9 * 0.7 * 0.9 = 0.567 now beats waiting");
            assert!((turn.after.black_line - 0.567).abs() < 1e-9, "{turn:?}");
        }
        other => panic!("black is to move: {other:?}"),
    }
}

#[test]
fn blocks_the_only_cell_that_completes_the_opponents_line() {
    // 5x5: white's two stones in the corner of row 0 can only be completed on (0,2);
    // black's stones are on no common line. Black places there.
    let g = game(3, 5, 3, &[(4, 4), (0, 0), (4, 1), (0, 1)]);
    match decide(&Bot::new(4), &g, Player::Black) {
        Decision::Place(turn) => assert_eq!(turn.position, Position::new(0, 2), "{turn:?}"),
        other => panic!("black is to move: {other:?}"),
    }
}

#[test]
fn greedy_baseline_completes_its_line_and_observes_above_one_half() {
    let g = game(9, 5, 3, &[(2, 0), (0, 4), (2, 1), (4, 4)]);
    let turn = Bot::greedy(1)
        .turn(g.state(), g.options())
        .expect("black to move");
    assert_eq!(turn.position, Position::new(2, 2));
    assert!(turn.observe, "0.567 >= 1/2");
}

#[test]
fn first_stone_goes_to_the_centre() {
    let g = game(1, 15, 3, &[]);
    let turn = Bot::new(1)
        .turn(g.state(), g.options())
        .expect("black to move");
    assert_eq!(turn.position, Position::new(7, 7));
    assert!(!turn.observe);
}

#[test]
fn refuses_what_it_cannot_decide() {
    let bot = Bot::new(1);
    // At the start white neither places nor may observe.
    let fresh = game(1, 5, 3, &[]);
    assert_eq!(
        bot.decide(fresh.state(), fresh.options(), Player::White),
        Err(BotError::NothingToDecide(Player::White))
    );
    // A state that does not fit the options, and options that make no game.
    let g = game(1, 5, 3, &[(0, 0)]);
    assert!(matches!(
        bot.turn(g.state(), GameOptions::new(7, 3)),
        Err(BotError::InvalidState(_))
    ));
    assert!(matches!(
        bot.turn(g.state(), GameOptions::new(5, 9)),
        Err(BotError::Options(_))
    ));
    let mut forged = g.state().clone();
    forged.turn_count = u32::MAX;
    assert!(matches!(
        bot.turn(&forged, g.options()),
        Err(BotError::InvalidState(_))
    ));
    // A finished game: black's two stones on a 3x3 board with lines of 2, observed
    // with the first seed that gives black its line.
    let before = game(1, 3, 2, &[(0, 0), (2, 2), (0, 1)]);
    let over = (0..100)
        .map(|seed| {
            let mut g = before.clone();
            g.apply(Command::Observe {
                player: Player::Black,
                seed: Some(seed),
            })
            .expect("black may observe");
            g
        })
        .find(|g| g.state().status == GameStatus::Finished)
        .expect("a seed below 100 gives black a line (p = 0.63 each)");
    assert_eq!(
        bot.turn(over.state(), over.options()),
        Err(BotError::GameOver(GameStatus::Finished))
    );
}

#[test]
fn every_placement_is_on_an_empty_cell_through_a_whole_game() {
    // Search against greedy on a small board until the game ends: every command the
    // two bots produce is accepted.
    for seed in 0..6 {
        let mut g = Game::new(GameOptions::new(6, 3), seed, 0).expect("valid options");
        let bots = [Bot::new(seed), Bot::greedy(seed + 100)];
        while g.state().status == GameStatus::Playing && !g.state().is_full() {
            let me = g.state().current_player;
            let bot = bots[usize::from(me == Player::White)];
            let turn = bot.turn(g.state(), g.options()).expect("the game is on");
            g.apply(Command::Place {
                player: me,
                position: turn.position,
            })
            .expect("an empty cell");
            if turn.observe {
                g.apply(Command::Observe {
                    player: me,
                    seed: None,
                })
                .expect("the bot observes only when it may");
            }
        }
    }
}

#[test]
fn a_quiet_first_reply_spoils_a_window_of_the_opponents_stone() {
    // After one stone nothing can be completed within the search's horizon, so the
    // reply is chosen by shape: it goes where it shares a window of three with the
    // opponent's stone (same row, column or diagonal, at most two cells away) rather
    // than anywhere else near it.
    for seed in 0..8 {
        let g = game(seed, 15, 3, &[(7, 7)]);
        let turn = Bot::new(seed)
            .turn(g.state(), g.options())
            .expect("white to move");
        let (dr, dc) = (turn.position.row.abs_diff(7), turn.position.col.abs_diff(7));
        let on_a_line = dr == 0 || dc == 0 || dr == dc;
        assert!(on_a_line && dr.max(dc) <= 2, "seed {seed}: {turn:?}");
        assert!(!turn.observe, "seed {seed}");
    }
}
