//! Replays on the duel page, exactly through the engine from the deal: saved logs, undo and redo.
//!
//! A saved log is replayed with its events, and the page's automatic pass is decided here;
//! the reducer in `state` builds on these, and nothing here reads it.
//!
//! One undo takes back the player's last action: its last command and, before it, every
//! command whose position the page would have left by itself (an open chain where passing
//! is the only legal move, which the page answers without asking). Otherwise undoing the
//! page's automatic pass would land where the page passes again at once, and undo would
//! seem to do nothing. The commands taken back are kept, in order, as one action to redo.

use duel_engine::view::DuelView;
use duel_engine::{Command, Custom, Duel, Event, Settings};

/// What a duel is dealt from: a deck (a preset's id, or a deck list of one's own and a
/// test hand in `custom`), a seed and rule settings. Replays start from it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Deal<'a> {
    pub deck: &'a str,
    pub custom: Option<&'a Custom>,
    pub seed: u64,
    pub settings: Settings,
}

impl Deal<'_> {
    /// The duel at its start.
    pub fn start(&self) -> Result<Duel, duel_engine::SetupError> {
        Duel::dealt(self.deck, self.custom, self.seed, self.settings)
    }

    /// The duel after `commands`, or `None` when the deal or a command is refused (the
    /// same replay as a save's, so the duel page links one).
    pub fn replay(&self, commands: &[Command]) -> Option<Duel> {
        replay_logged(*self, commands).map(|(duel, _)| duel)
    }
}

/// Replays a saved game command by command, keeping every event for the log; `None`
/// when the deck cannot start or a command is refused (the save does not replay).
pub(crate) fn replay_logged(deal: Deal, commands: &[Command]) -> Option<(Duel, Vec<Event>)> {
    let mut duel = deal.start().ok()?;
    let mut log = duel.events().to_vec();
    for cmd in commands {
        log.extend(duel.apply(cmd.clone()).ok()?);
    }
    Some((duel, log))
}

/// Whether the page sends `PassChain` by itself: the chain is open but passing is the
/// only legal move, so asking would be a question with one answer.
pub fn passes_by_itself(view: &DuelView, legal: &[Command]) -> bool {
    view.chain_window && legal == [Command::PassChain]
}

/// A position rebuilt from the deal, with every event since (for the page's log).
#[derive(Debug, Clone, PartialEq)]
pub struct Rebuilt {
    pub duel: Duel,
    pub events: Vec<Event>,
}

/// Replays `commands` from the deal, keeping every event; `None` when the deck cannot
/// start or a command is refused.
pub fn rebuild(deal: Deal, commands: &[Command]) -> Option<Rebuilt> {
    replay_logged(deal, commands).map(|(duel, events)| Rebuilt { duel, events })
}

/// Whether the page leaves this position by itself (it sends `PassChain`).
fn passes_alone(duel: &Duel) -> bool {
    passes_by_itself(&duel.view(), &duel.legal_commands())
}

/// Takes back the last action of the game whose commands are `log`: the position before
/// it, and the commands taken back (to redo, in order). `None` when nothing was played
/// or the log does not replay.
pub fn undo(deal: Deal, log: &[Command]) -> Option<(Rebuilt, Vec<Command>)> {
    let mut keep = log.len().checked_sub(1)?;
    loop {
        let before = rebuild(deal, &log[..keep])?;
        if keep == 0 || !passes_alone(&before.duel) {
            return Some((before, log[keep..].to_vec()));
        }
        keep -= 1;
    }
}

/// Plays an action taken back by [`undo`] again from `duel`; the events of its commands,
/// or `None` (and `duel` unchanged) when one of them is refused.
pub fn redo(duel: &mut Duel, action: &[Command]) -> Option<Vec<Event>> {
    let mut next = duel.clone();
    let mut events = Vec::new();
    for cmd in action {
        events.extend(next.apply(cmd.clone()).ok()?);
    }
    *duel = next;
    Some(events)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::duel::test_seeds::{LIBRARY_WIN, SEED_LIBRARY_WIN, play_script};
    use duel_engine::decks;

    fn preset(deck: &str, seed: u64, settings: Settings) -> Deal<'_> {
        Deal {
            deck,
            custom: None,
            seed,
            settings,
        }
    }

    /// A small xorshift generator: which random legal commands a test game takes.
    struct Rng(u64);

    impl Rng {
        fn new(seed: u64) -> Rng {
            Rng(seed | 1)
        }

        fn index(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n as u64) as usize
        }
    }

    /// A random game of `deck` as the page plays it: random legal commands (answers
    /// among the solver's candidates), with the page's automatic passes.
    fn random_game(deck: &str, seed: u64, moves: usize) -> Duel {
        let mut duel = Duel::with_settings(deck, seed, Settings::default()).expect("deck");
        let mut rng = Rng::new(seed ^ 0x5eed);
        for _ in 0..moves {
            if duel.outcome().is_some() {
                break;
            }
            if passes_alone(&duel) {
                duel.apply(Command::PassChain).expect("the page's pass");
                continue;
            }
            let choices = duel_engine::solver::choices(&duel);
            if choices.is_empty() {
                break;
            }
            let cmd = choices[rng.index(choices.len())].clone();
            duel.apply(cmd).expect("a candidate applies");
        }
        duel
    }

    #[test]
    fn undo_then_redo_of_every_action_gives_back_the_same_game_on_every_deck() {
        for (i, deck) in decks().iter().enumerate() {
            for game in 0..4u64 {
                let seed = 1000 * i as u64 + game;
                let end = random_game(&deck.id, seed, 40);
                let settings = Settings::default();
                // Undo everything, one action at a time, keeping what to redo.
                let mut positions = vec![end.clone()];
                let mut log = end.log().to_vec();
                let mut to_redo = Vec::new();
                while let Some((before, action)) = undo(preset(&deck.id, seed, settings), &log) {
                    assert!(!action.is_empty());
                    assert_eq!(before.duel.log(), &log[..log.len() - action.len()]);
                    assert!(
                        before.duel.log().is_empty() || !passes_alone(&before.duel),
                        "{}: undo never stops where the page passes by itself",
                        deck.id
                    );
                    log = before.duel.log().to_vec();
                    positions.push(before.duel);
                    to_redo.push(action);
                }
                assert!(log.is_empty(), "{}: everything undone", deck.id);
                // Redo everything: each action lands on the position it was taken from.
                positions.pop();
                let mut duel = Duel::with_settings(&deck.id, seed, settings).expect("deck");
                while let Some(action) = to_redo.pop() {
                    redo(&mut duel, &action).expect("the action replays");
                    assert_eq!(Some(&duel), positions.pop().as_ref(), "{}", deck.id);
                }
                assert_eq!(duel, end);
            }
        }
    }

    #[test]
    fn undo_saved_and_reloaded_then_redone_gives_back_the_same_game_on_every_deck() {
        use crate::duel::save::SaveFile;
        use crate::duel::state::{Action, DuelState};
        use std::rc::Rc;
        use yew::Reducible;
        for (i, deck) in decks().iter().enumerate() {
            for game in 0..3u64 {
                let seed = 7000 + 100 * i as u64 + game;
                let end = random_game(&deck.id, seed, 40);
                let mut state = Rc::new(DuelState::default()).reduce(Action::Start {
                    deck: deck.id.clone(),
                    custom: None,
                    seed,
                    settings: Settings::default(),
                });
                for cmd in end.log() {
                    state = state.reduce(Action::Apply(cmd.clone()));
                    assert!(state.last_error.is_none(), "{}", deck.id);
                }
                let played = state.clone();
                let undos = 1 + (seed % 4) as usize;
                for _ in 0..undos {
                    state = state.reduce(Action::Undo);
                }
                // The save format (what a reload reads) carries the position and the redo stack.
                let json = state.save_file().expect("a save").to_text();
                let back = SaveFile::from_text(&json).expect("readable");
                let mut resumed = Rc::new(DuelState::default()).reduce(Action::Resume {
                    save: back,
                    announce: true,
                });
                assert_eq!(resumed.duel, state.duel, "{}: same position", deck.id);
                assert_eq!(resumed.redo, state.redo, "{}: same redo stack", deck.id);
                for _ in 0..state.redo.len() {
                    resumed = resumed.reduce(Action::Redo);
                }
                assert_eq!(resumed.duel, played.duel, "{}: redone to the end", deck.id);
                assert_eq!(resumed.duel.as_ref(), Some(&end), "{}", deck.id);
            }
        }
    }

    #[test]
    fn one_undo_takes_back_an_action_and_the_automatic_passes_after_it() {
        let won = play_script("library-exodia-deck", SEED_LIBRARY_WIN, LIBRARY_WIN).expect("wins");
        let log = won.log();
        let (before, action) = undo(
            preset("library-exodia-deck", SEED_LIBRARY_WIN, Settings::default()),
            log,
        )
        .expect("undone");
        assert_eq!(before.duel.outcome(), None, "the win is taken back");
        assert!(!passes_alone(&before.duel));
        assert_eq!(action, log[log.len() - action.len()..].to_vec());
        // The events rebuilt are those of a replay from the deal.
        let mut replay =
            Duel::with_settings("library-exodia-deck", SEED_LIBRARY_WIN, Settings::default())
                .expect("deck");
        let mut events = replay.events().to_vec();
        for cmd in before.duel.log() {
            events.extend(replay.apply(cmd.clone()).expect("replays"));
        }
        assert_eq!(before.events, events);
    }

    #[test]
    fn undo_and_redo_through_the_reducer_survive_a_reload() {
        use crate::duel::state::{Action, DuelState};
        use std::rc::Rc;
        use yew::Reducible;
        let mut state = Rc::new(DuelState::default()).reduce(Action::Start {
            deck: "library-exodia-deck".into(),
            custom: None,
            seed: SEED_LIBRARY_WIN,
            settings: Settings::default(),
        });
        let won = play_script("library-exodia-deck", SEED_LIBRARY_WIN, LIBRARY_WIN).expect("wins");
        for cmd in &won.log()[..12] {
            state = state.reduce(Action::Apply(cmd.clone()));
            assert!(state.last_error.is_none());
        }
        let played = state.clone();
        state = state.reduce(Action::Undo).reduce(Action::Undo);
        assert_eq!(state.redo.len(), 2);
        let undone = state.duel.clone().expect("a duel");
        assert!(undone.log().len() < 12);
        assert!(state.events.is_empty(), "an undo announces nothing");
        // Reload: the save keeps the actions to redo.
        let save = state.save_file().expect("a save");
        let json = save.to_text();
        let back = crate::duel::save::SaveFile::from_text(&json).expect("readable");
        let mut resumed = Rc::new(DuelState::default()).reduce(Action::Resume {
            save: back,
            announce: true,
        });
        assert_eq!(resumed.duel.as_ref(), Some(&undone));
        assert_eq!(resumed.redo, state.redo);
        resumed = resumed.reduce(Action::Redo).reduce(Action::Redo);
        assert_eq!(resumed.duel, played.duel);
        assert_eq!(
            resumed.log, played.log,
            "the log is the same as if never undone"
        );
        assert!(resumed.redo.is_empty());
        // Nothing left to redo: unchanged. A new action forgets what could be redone.
        let same = resumed.clone().reduce(Action::Redo);
        assert_eq!(same.duel, resumed.duel);
        let undone_once = resumed.reduce(Action::Undo);
        assert_eq!(undone_once.redo.len(), 1);
        let next = won.log()[undone_once.duel.as_ref().expect("duel").log().len()].clone();
        let replayed = undone_once.reduce(Action::Apply(next));
        assert!(replayed.redo.is_empty());
    }

    #[test]
    fn nothing_to_undo_at_the_deal_and_a_bad_log_is_refused() {
        assert!(undo(preset("exodia-deck", 1, Settings::default()), &[]).is_none());
        assert!(
            undo(
                preset("exodia-deck", 1, Settings::default()),
                &[Command::PassChain, Command::EndTurn]
            )
            .is_none()
        );
        let mut duel = Duel::new("exodia-deck", 1).expect("deck");
        let before = duel.clone();
        assert!(redo(&mut duel, &[Command::EndTurn, Command::PassChain]).is_none());
        assert_eq!(duel, before, "a refused redo changes nothing");
    }
}
