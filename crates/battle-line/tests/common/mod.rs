//! Helpers for scenario tests: stacked decks and short-hand commands.
#![allow(dead_code)]

use battle_line::*;

pub use battle_line::Color::*;

pub fn t(color: Color, value: u8) -> Troop {
    Troop { color, value }
}

pub fn c(color: Color, value: u8) -> Card {
    Card::Troop(t(color, value))
}

/// A game whose hands are `p0` and `p1`, whose troop draws come in the order of
/// `draws` (P0 draws `draws[0]`, then P1 `draws[1]`, ... if both draw troops), and
/// whose tactic deck yields `tactics` first.
pub fn stacked(
    settings: Settings,
    p0: &[Troop],
    p1: &[Troop],
    draws: &[Troop],
    tactics: &[Tactic],
) -> Game {
    assert_eq!((p0.len(), p1.len()), (7, 7), "hands are 7 cards");
    let mut top_first: Vec<Troop> = Vec::new();
    for i in 0..7 {
        top_first.push(p0[i]);
        top_first.push(p1[i]);
    }
    top_first.extend_from_slice(draws);
    for x in Troop::all() {
        if !top_first.contains(&x) {
            top_first.push(x);
        }
    }
    top_first.reverse();
    let mut tac: Vec<Tactic> = tactics.to_vec();
    for x in Tactic::ALL {
        if !tac.contains(&x) {
            tac.push(x);
        }
    }
    tac.reverse();
    Game::with_deal(
        settings,
        Deal {
            troops: top_first,
            tactics: tac,
        },
    )
    .expect("a full deal")
}

/// The standard scenario: P0 holds the red and blue high cards, P1 greens and yellows.
pub fn scenario() -> Game {
    scenario_with(Settings::default(), &[])
}

pub fn scenario_with(settings: Settings, tactics: &[Tactic]) -> Game {
    stacked(
        settings,
        &[
            t(Red, 10),
            t(Red, 9),
            t(Red, 8),
            t(Red, 5),
            t(Blue, 1),
            t(Blue, 2),
            t(Blue, 3),
        ],
        &[
            t(Green, 1),
            t(Green, 2),
            t(Green, 3),
            t(Green, 4),
            t(Yellow, 5),
            t(Yellow, 6),
            t(Yellow, 7),
        ],
        &[
            t(Orange, 1),
            t(Purple, 1),
            t(Orange, 2),
            t(Purple, 2),
            t(Orange, 3),
            t(Purple, 3),
            t(Orange, 4),
            t(Purple, 4),
        ],
        tactics,
    )
}

pub fn ok(g: &mut Game, cmd: Command) -> Vec<Event> {
    g.apply(cmd)
        .unwrap_or_else(|e| panic!("{cmd:?} refused: {e}"))
}

pub fn play(g: &mut Game, card: impl Into<Card>, flag: u8) {
    ok(
        g,
        Command::PlayCard {
            card: card.into(),
            target: Target::Flag { flag },
        },
    );
}

pub fn play_field(g: &mut Game, tactic: Tactic) {
    ok(
        g,
        Command::PlayCard {
            card: Card::Tactic(tactic),
            target: Target::Field,
        },
    );
}

pub fn end(g: &mut Game, deck: Deck) {
    ok(g, Command::DrawAndEndTurn { deck });
}

/// Plays `card` at `flag` and draws from `deck`.
pub fn turn(g: &mut Game, card: impl Into<Card>, flag: u8, deck: Deck) {
    play(g, card, flag);
    end(g, deck);
}

/// Asserts that a command is refused with `expected` and leaves the game unchanged.
pub fn refused(g: &mut Game, cmd: Command, expected: RuleError) {
    let before = g.clone();
    assert_eq!(g.apply(cmd), Err(expected), "{cmd:?}");
    assert_eq!(*g, before, "a refused {cmd:?} changed the game");
}
