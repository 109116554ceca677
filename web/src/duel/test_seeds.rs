//! Seeds the browser tests rely on, with the opening hands they were chosen for
//! (found with `cargo run -p web --example find_seeds`; checked natively below).

/// exodia-deck: the opening hand holds Graceful Charity, Into the Void, Dark Factory,
/// Card of Demise and Left Leg of the Forbidden One, and no quick-play spell.
pub const SEED_GRACEFUL_CHARITY: u64 = 1;

/// exodia-deck: the opening hand holds Chicken Game (a field spell with a modal ignition).
pub const SEED_CHICKEN_GAME: u64 = 2;

pub const GRACEFUL_CHARITY: u32 = 79571449;
pub const CHICKEN_GAME: u32 = 67616300;
pub const INTO_THE_VOID: u32 = 93946239;
pub const LEFT_LEG: u32 = 44519536;
pub const DARK_FACTORY: u32 = 90928333;

#[cfg(test)]
mod tests {
    use super::*;
    use duel_engine::{Command, Duel};

    #[test]
    fn chicken_game_seed_has_chicken_game() {
        let duel = Duel::new("exodia-deck", SEED_CHICKEN_GAME).expect("playable deck");
        let view = duel.view();
        assert!(view.outcome.is_none());
        assert!(view.you.hand.iter().any(|c| c.code == Some(CHICKEN_GAME)));
    }

    #[test]
    fn graceful_charity_seed_has_the_cards_the_browser_tests_use() {
        let duel = Duel::new("exodia-deck", SEED_GRACEFUL_CHARITY).expect("playable deck");
        let view = duel.view();
        let hand: Vec<u32> = view.you.hand.iter().filter_map(|c| c.code).collect();
        for code in [GRACEFUL_CHARITY, INTO_THE_VOID, LEFT_LEG, DARK_FACTORY] {
            assert!(hand.contains(&code), "{code} missing from {hand:?}");
        }
        // Activating Graceful Charity must be legal and lead to the discard prompt once the
        // chain is passed: that is the path the browser test clicks through.
        let gc = view
            .you
            .hand
            .iter()
            .find(|c| c.code == Some(GRACEFUL_CHARITY))
            .map(|c| c.id)
            .expect("in hand");
        let mut duel = duel;
        duel.apply(Command::ActivateSpell { card: gc })
            .expect("Graceful Charity can be activated");
        if duel.view().chain_window {
            assert_eq!(duel.legal_commands(), vec![Command::PassChain]);
            duel.apply(Command::PassChain).expect("pass");
        }
        let view = duel.view();
        assert!(view.prompt.is_some(), "discard prompt expected");
        assert_eq!(view.you.hand.len(), 7);
    }
}
