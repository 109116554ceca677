//! The duel's `Reducible`: wraps the engine's `Duel`; `reduce` only applies commands and records the last error.

use std::rc::Rc;

use duel_engine::Custom;
use duel_engine::command::Command;
use duel_engine::error::RuleError;
use duel_engine::event::Event;
use duel_engine::state::{Duel, Settings};
use yew::prelude::*;

use crate::duel::practice::history::{self, Deal, replay_logged};
use crate::duel::save::{SaveError, SaveFile};
use crate::storage;

/// What the UI tells the player about loading, beside the duel itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Notice {
    /// A stored save could not be read or replayed and was discarded.
    SaveDiscarded,
    /// The stored game was resumed.
    Resumed,
}

/// Why the duel could not start at all (bad deck id in the URL, unplayable deck).
#[derive(Debug, Clone, PartialEq)]
pub enum StartError {
    Setup(duel_engine::setup::SetupError),
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct DuelState {
    pub deck: String,
    pub seed: u64,
    pub settings: Settings,
    /// `None` until a seed is known (it is drawn in an effect) or when set-up failed.
    pub duel: Option<Duel>,
    /// The last refused command's reason, shown as feedback until the next accepted one.
    pub last_error: Option<RuleError>,
    pub start_error: Option<StartError>,
    /// Events of the last accepted command (and of the set-up), for toasts.
    pub events: Vec<Event>,
    /// Every event of the duel so far, in order (rebuilt when a save is resumed): the
    /// log shows all of them even when toasts drop the older ones of a long command.
    pub log: Rc<Vec<Event>>,
    /// Bumped on every change worth saving or announcing.
    pub version: u64,
    pub notice: Option<Notice>,
    /// Actions taken back by undo, the next one to redo last (see `history`); a new
    /// command forgets them.
    pub redo: Rc<Vec<Vec<Command>>>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// A new duel with this deck (or deck list and test hand), seed and rule settings.
    Start {
        deck: String,
        custom: Option<Custom>,
        seed: u64,
        settings: Settings,
    },
    /// Replay a saved game; a save that does not replay starts the same seed afresh.
    /// `announce`: say that a stored game was resumed (not when the page itself has just
    /// written that save: a new duel's drawn seed, a shared game continued).
    Resume { save: SaveFile, announce: bool },
    /// Apply one player command.
    Apply(Command),
    /// Apply a command the UI sends by itself, only if the state is still the one it was
    /// decided on (a repeated or late effect must not send it twice).
    ApplyAt { version: u64, command: Command },
    /// Forget the feedback message.
    DismissError,
    /// Report a save that could not even be read (it was removed by the caller).
    SaveDiscarded,
    /// Take back the last action (replayed from the deal, see `history`).
    Undo,
    /// Play the last action taken back again.
    Redo,
    /// The same deal (deck, seed, rule settings) again from its start.
    Retry,
}

impl DuelState {
    fn started(
        deck: String,
        custom: Option<Custom>,
        seed: u64,
        settings: Settings,
        notice: Option<Notice>,
        version: u64,
    ) -> DuelState {
        match Duel::dealt(&deck, custom.as_ref(), seed, settings) {
            Ok(duel) => {
                // The opening phase changes are reported once, as the first toasts.
                let events = duel.events().to_vec();
                DuelState {
                    deck,
                    seed,
                    settings,
                    duel: Some(duel),
                    log: Rc::new(events.clone()),
                    events,
                    version: version + 1,
                    notice,
                    ..DuelState::default()
                }
            }
            Err(e) => DuelState {
                deck,
                seed,
                settings,
                start_error: Some(StartError::Setup(e)),
                version: version + 1,
                notice,
                ..DuelState::default()
            },
        }
    }

    /// The deck list of the player's own and the test hand, when the deck lab dealt the
    /// duel (the engine's duel carries them).
    pub fn custom(&self) -> Option<&Custom> {
        self.duel.as_ref().and_then(Duel::custom)
    }

    /// What this duel was dealt from (replays and undo start from it).
    pub fn deal(&self) -> Deal<'_> {
        Deal {
            deck: &self.deck,
            custom: self.custom(),
            seed: self.seed,
            settings: self.settings,
        }
    }

    /// What to write to localStorage for this state, if there is a game.
    pub fn save_file(&self) -> Option<SaveFile> {
        // The engine keeps the command log itself; the save is that log.
        let duel = self.duel.as_ref()?;
        Some(
            SaveFile::new(
                self.deck.clone(),
                self.seed,
                self.settings,
                duel.log().to_vec(),
            )
            .dealt(duel.custom().cloned())
            .with_redo(self.redo.to_vec()),
        )
    }
}

impl Reducible for DuelState {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        match action {
            Action::Start {
                deck,
                custom,
                seed,
                settings,
            } => Rc::new(DuelState::started(
                deck,
                custom,
                seed,
                settings,
                self.notice,
                self.version,
            )),
            Action::Resume { save, announce } => {
                match replay_logged(save_deal(&save), &save.commands) {
                    Some((duel, log)) => Rc::new(DuelState {
                        deck: save.deck,
                        seed: save.seed,
                        settings: save.settings,
                        duel: Some(duel),
                        log: Rc::new(log),
                        version: self.version + 1,
                        notice: announce.then_some(Notice::Resumed),
                        redo: Rc::new(save.redo),
                        ..DuelState::default()
                    }),
                    None => Rc::new(DuelState::started(
                        save.deck,
                        save.custom,
                        save.seed,
                        save.settings,
                        Some(Notice::SaveDiscarded),
                        self.version,
                    )),
                }
            }
            Action::ApplyAt { version, command } => {
                if version == self.version {
                    self.reduce(Action::Apply(command))
                } else {
                    self
                }
            }
            Action::Apply(cmd) => {
                let Some(duel) = &self.duel else {
                    return self;
                };
                let mut next = duel.clone();
                match next.apply(cmd) {
                    Ok(events) => Rc::new(DuelState {
                        log: Rc::new(self.log.iter().chain(&events).cloned().collect()),
                        deck: self.deck.clone(),
                        seed: self.seed,
                        settings: self.settings,
                        duel: Some(next),
                        last_error: None,
                        start_error: None,
                        events,
                        version: self.version + 1,
                        notice: None,
                        redo: Rc::default(),
                    }),
                    Err(error) => Rc::new(DuelState {
                        last_error: Some(error),
                        events: Vec::new(),
                        ..(*self).clone()
                    }),
                }
            }
            Action::Retry => Rc::new(DuelState::started(
                self.deck.clone(),
                self.custom().cloned(),
                self.seed,
                self.settings,
                None,
                self.version,
            )),
            Action::DismissError => Rc::new(DuelState {
                last_error: None,
                ..(*self).clone()
            }),
            Action::SaveDiscarded => Rc::new(DuelState {
                notice: Some(Notice::SaveDiscarded),
                ..(*self).clone()
            }),
            Action::Undo => {
                let Some(duel) = &self.duel else {
                    return self;
                };
                let Some((before, action)) = history::undo(self.deal(), duel.log()) else {
                    return self;
                };
                let mut redo = self.redo.to_vec();
                redo.push(action);
                Rc::new(DuelState {
                    duel: Some(before.duel),
                    log: Rc::new(before.events),
                    events: Vec::new(),
                    last_error: None,
                    version: self.version + 1,
                    notice: None,
                    redo: Rc::new(redo),
                    ..(*self).clone()
                })
            }
            Action::Redo => {
                let (Some(duel), Some(action)) = (&self.duel, self.redo.last()) else {
                    return self;
                };
                let mut next = duel.clone();
                let mut redo = self.redo.to_vec();
                redo.pop();
                // An action that no longer replays (cannot happen: it was taken back from
                // this very position) is forgotten rather than kept to fail again.
                let events = history::redo(&mut next, action).unwrap_or_default();
                Rc::new(DuelState {
                    log: Rc::new(self.log.iter().chain(&events).cloned().collect()),
                    duel: Some(next),
                    events,
                    last_error: None,
                    version: self.version + 1,
                    notice: None,
                    redo: Rc::new(redo),
                    ..(*self).clone()
                })
            }
        }
    }
}

/// What a save's duel was dealt from.
fn save_deal(save: &SaveFile) -> Deal<'_> {
    Deal {
        deck: &save.deck,
        custom: save.custom.as_ref(),
        seed: save.seed,
        settings: save.settings,
    }
}

/// What localStorage holds for the duel.
#[derive(Debug, Clone, PartialEq)]
pub enum SaveCheck {
    None,
    Found {
        deck: String,
        seed: u64,
    },
    /// Something unreadable was there; it has been removed.
    Discarded,
}

/// Reads the stored save. An unreadable one is removed at once so it cannot trouble
/// the next load either.
pub fn load_save() -> Result<Option<SaveFile>, SaveError> {
    let Some(json) = storage::get(storage::KEY_DUEL_SAVE) else {
        return Ok(None);
    };
    match SaveFile::from_text(&json) {
        Ok(save) => Ok(Some(save)),
        Err(e) => {
            clear_save();
            Err(e)
        }
    }
}

pub fn check_save() -> SaveCheck {
    match load_save() {
        Ok(Some(save)) => SaveCheck::Found {
            deck: save.deck,
            seed: save.seed,
        },
        Ok(None) => SaveCheck::None,
        Err(_) => SaveCheck::Discarded,
    }
}

pub fn write_save(save: &SaveFile) {
    storage::set(storage::KEY_DUEL_SAVE, &save.to_text());
}

pub fn clear_save() {
    storage::remove(storage::KEY_DUEL_SAVE);
}

fn own_save_text(deck: &str, seed: u64) -> String {
    format!("{deck}/{seed}")
}

/// Marks the save of this duel as written by the page itself (a new duel whose seed was
/// just drawn, a shared game continued from the replay page): loading it next is not a
/// resumed game. Kept in localStorage, as the replay page is another bundle.
pub fn mark_own_save(deck: &str, seed: u64) {
    storage::set(storage::KEY_DUEL_OWN_SAVE, &own_save_text(deck, seed));
}

/// Whether the next load of this save resumes a stored game (the mark is used once).
pub fn announce_resume(deck: &str, seed: u64) -> bool {
    let own = storage::get(storage::KEY_DUEL_OWN_SAVE);
    storage::remove(storage::KEY_DUEL_OWN_SAVE);
    own.as_deref() != Some(own_save_text(deck, seed).as_str())
}

/// Whether a save holds a duel worth asking about before it is replaced: some action was
/// taken and the duel is not over.
pub fn unfinished(save: &SaveFile) -> bool {
    !save.commands.is_empty()
        && replay_logged(save_deal(save), &save.commands)
            .is_some_and(|(d, _)| d.outcome().is_none())
}

/// A rule setting the player chooses on the home page for new duels; each is one
/// `duel_engine::Settings` flag kept in localStorage under its own key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RuleChoice {
    ChainConfirmation,
    IntoTheVoidCountsItself,
    ExodiaWinsMidEffect,
}

impl RuleChoice {
    pub const ALL: [RuleChoice; 3] = [
        RuleChoice::ChainConfirmation,
        RuleChoice::IntoTheVoidCountsItself,
        RuleChoice::ExodiaWinsMidEffect,
    ];

    pub fn storage_key(self) -> &'static str {
        match self {
            RuleChoice::ChainConfirmation => storage::KEY_CHAIN_CONFIRM,
            RuleChoice::IntoTheVoidCountsItself => storage::KEY_VOID_COUNTS_ITSELF,
            RuleChoice::ExodiaWinsMidEffect => storage::KEY_EXODIA_MID_EFFECT,
        }
    }

    pub fn get(self, settings: &Settings) -> bool {
        match self {
            RuleChoice::ChainConfirmation => settings.chain_confirmation,
            RuleChoice::IntoTheVoidCountsItself => settings.into_the_void_counts_itself,
            RuleChoice::ExodiaWinsMidEffect => settings.exodia_wins_mid_effect,
        }
    }

    pub fn set(self, settings: &mut Settings, on: bool) {
        match self {
            RuleChoice::ChainConfirmation => settings.chain_confirmation = on,
            RuleChoice::IntoTheVoidCountsItself => settings.into_the_void_counts_itself = on,
            RuleChoice::ExodiaWinsMidEffect => settings.exodia_wins_mid_effect = on,
        }
    }
}

/// Applies stored preferences (`"on"` / `"off"`) to the defaults; anything else, or
/// nothing, keeps the engine's default for that rule.
pub fn settings_from_prefs(pref: impl Fn(&str) -> Option<String>) -> Settings {
    let mut settings = Settings::default();
    for choice in RuleChoice::ALL {
        match pref(choice.storage_key()).as_deref() {
            Some("on") => choice.set(&mut settings, true),
            Some("off") => choice.set(&mut settings, false),
            _ => {}
        }
    }
    settings
}

/// The rule settings for the next new duel: the defaults, with the player's choices
/// (kept in localStorage) applied.
pub fn new_game_settings() -> Settings {
    settings_from_prefs(storage::get)
}

pub fn set_rule_choice(choice: RuleChoice, on: bool) {
    storage::set(choice.storage_key(), if on { "on" } else { "off" });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_preferences_override_only_their_own_rule() {
        assert_eq!(settings_from_prefs(|_| None), Settings::default());
        let strict = settings_from_prefs(|key| {
            (key == storage::KEY_VOID_COUNTS_ITSELF).then(|| "off".to_string())
        });
        assert!(!strict.into_the_void_counts_itself);
        assert!(strict.chain_confirmation);
        assert!(!strict.exodia_wins_mid_effect);
        let all_flipped = settings_from_prefs(|key| {
            let default_on = RuleChoice::ALL
                .into_iter()
                .find(|c| c.storage_key() == key)
                .is_some_and(|c| c.get(&Settings::default()));
            Some(if default_on { "off" } else { "on" }.to_string())
        });
        for choice in RuleChoice::ALL {
            assert_ne!(
                choice.get(&all_flipped),
                choice.get(&Settings::default()),
                "{choice:?}"
            );
        }
        // Garbage keeps the default rather than guessing.
        assert_eq!(
            settings_from_prefs(|_| Some("maybe".into())),
            Settings::default()
        );
    }

    #[test]
    fn the_log_keeps_every_event_and_a_resumed_game_rebuilds_it() {
        let start = Rc::new(DuelState::default()).reduce(Action::Start {
            deck: "exodia-deck".into(),
            custom: None,
            seed: 1,
            settings: Settings::default(),
        });
        let opening = start.log.len();
        assert!(opening > 0, "the opening phases are logged");
        let duel = start.duel.as_ref().expect("started");
        let card = duel.view().you.hand[0].id;
        let played = start
            .clone()
            .reduce(Action::Apply(Command::SetMonster { card }));
        let played = if played.last_error.is_some() {
            start
                .clone()
                .reduce(Action::Apply(Command::SetSpellTrap { card }))
        } else {
            played
        };
        assert!(played.last_error.is_none());
        assert!(!played.events.is_empty());
        assert_eq!(played.log.len(), opening + played.events.len());
        assert_eq!(played.log[opening..], played.events[..]);

        let save = played.save_file().expect("a game to save");
        let resumed = Rc::new(DuelState::default()).reduce(Action::Resume {
            save: save.clone(),
            announce: true,
        });
        assert_eq!(resumed.notice, Some(Notice::Resumed));
        let continued = Rc::new(DuelState::default()).reduce(Action::Resume {
            save,
            announce: false,
        });
        assert_eq!(
            continued.notice, None,
            "the page's own save is no resumed game"
        );
        assert_eq!(resumed.log, played.log);
        assert_eq!(resumed.duel, played.duel);
    }

    #[test]
    fn a_deck_lab_deal_is_saved_resumed_undone_and_retried_with_its_list_and_test_hand() {
        use duel_engine::{CUSTOM_DECK_ID, Code, DeckList, Opening};
        let mut list = DeckList::from(duel_engine::deck("exodia-deck").expect("preset"));
        // A Pot of Greed fewer, a second Pot of Duality: a list no preset holds.
        assert!(list.remove(55_144_522));
        assert!(list.add(98_645_731).is_ok());
        let hand: Vec<Code> = vec![33_396_948, 98_645_731];
        let custom = Custom {
            list: Some(list),
            opening: Opening {
                hand: hand.clone(),
                top: vec![98_645_731],
            },
        };
        let start = Rc::new(DuelState::default()).reduce(Action::Start {
            deck: CUSTOM_DECK_ID.into(),
            custom: Some(custom.clone()),
            seed: 9,
            settings: Settings::default(),
        });
        let duel = start.duel.as_ref().expect("dealt");
        let dealt: Vec<Code> = duel.view().you.hand.iter().filter_map(|c| c.code).collect();
        assert_eq!(dealt[..2], hand[..], "the test hand is dealt");
        // Play some legal action, then save, reload and undo it.
        let cmd = duel
            .legal_commands()
            .into_iter()
            .find(|c| !matches!(c, Command::EndTurn))
            .expect("an action");
        let played = start.clone().reduce(Action::Apply(cmd));
        assert!(played.last_error.is_none());
        let text = played.save_file().expect("a save").to_text();
        let back = SaveFile::from_text(&text).expect("readable");
        assert_eq!(
            back.custom.as_ref(),
            Some(&custom),
            "the save carries the deal"
        );
        let resumed = Rc::new(DuelState::default()).reduce(Action::Resume {
            save: back,
            announce: false,
        });
        assert_eq!(resumed.duel, played.duel);
        let undone = resumed.reduce(Action::Undo);
        assert_eq!(undone.duel, start.duel, "undo replays from the same deal");
        let retried = played.reduce(Action::Retry);
        assert_eq!(retried.duel, start.duel, "the same deal again");
        assert_eq!(retried.custom(), Some(&custom));
    }
}
