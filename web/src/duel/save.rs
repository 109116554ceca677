//! The duel autosave: deck (a preset's id, or a deck list of the player's own and a test
//! hand), seed, rule settings and command log (replayed through the engine on load), and
//! the actions taken back by undo.
//!
//! It is text in the share code's encoding (`duel_engine::replay`), so the duel page links
//! no JSON code for it: `3.<share code>` then `.<commands>` for each action to redo, the
//! next one to redo last. Base64url has no `.`, so the parts split cleanly.

use duel_engine::Custom;
use duel_engine::replay::{Shared, decode_commands, encode_commands, encode_dealt};
use duel_engine::{Command, Settings};

/// Bumped whenever the save's format changes; an older save is discarded, not migrated.
/// (Version 1 was JSON; version 2's command logs were played with shuffles that depended
/// on which copy of a card went back to the deck, and would replay into other games.)
pub const SAVE_VERSION: u32 = 3;

#[derive(Debug, Clone, PartialEq)]
pub struct SaveFile {
    pub deck: String,
    /// The deck list of the player's own and the cards dealt on purpose, if any (the deck
    /// lab's duels and test hands).
    pub custom: Option<Custom>,
    pub seed: u64,
    /// Rule settings the duel was started with (replay needs them).
    pub settings: Settings,
    pub commands: Vec<Command>,
    /// Actions taken back by undo, the next one to redo last (each action is the commands
    /// one undo removed).
    pub redo: Vec<Vec<Command>>,
}

/// Why a stored save could not be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SaveError {
    /// Not a save of the right shape.
    Corrupt,
    /// Written by another version of the app.
    Outdated { found: u32 },
}

impl SaveFile {
    pub fn new(deck: String, seed: u64, settings: Settings, commands: Vec<Command>) -> Self {
        SaveFile {
            deck,
            custom: None,
            seed,
            settings,
            commands,
            redo: Vec::new(),
        }
    }

    /// The same save of a duel dealt from `custom` (`Duel::dealt`).
    pub fn dealt(self, custom: Option<Custom>) -> Self {
        SaveFile { custom, ..self }
    }

    /// The same save with actions to redo.
    pub fn with_redo(self, redo: Vec<Vec<Command>>) -> Self {
        SaveFile { redo, ..self }
    }

    /// The save as stored.
    pub fn to_text(&self) -> String {
        let game = encode_dealt(
            &self.deck,
            self.custom.as_ref(),
            self.seed,
            self.settings,
            &self.commands,
        );
        let mut out = format!("{SAVE_VERSION}.{game}");
        for action in &self.redo {
            out.push('.');
            out.push_str(&encode_commands(action));
        }
        out
    }

    /// Reads a stored save. The version is checked first, so a save of another version
    /// reports `Outdated` (a JSON save of version 1 too) rather than `Corrupt`.
    pub fn from_text(text: &str) -> Result<Self, SaveError> {
        if text.trim_start().starts_with('{') {
            return Err(SaveError::Outdated { found: 1 });
        }
        let mut parts = text.split('.');
        let version: u32 = parts
            .next()
            .and_then(|v| v.parse().ok())
            .ok_or(SaveError::Corrupt)?;
        if version != SAVE_VERSION {
            return Err(SaveError::Outdated { found: version });
        }
        let game = parts
            .next()
            .and_then(|code| Shared::decode(code).ok())
            .ok_or(SaveError::Corrupt)?;
        let redo = parts
            .map(decode_commands)
            .collect::<Result<Vec<_>, _>>()
            .map_err(|_| SaveError::Corrupt)?;
        Ok(SaveFile {
            deck: game.deck,
            custom: game.custom,
            seed: game.seed,
            settings: game.settings,
            commands: game.commands,
            redo,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use duel_engine::state::CardId;
    use duel_engine::{Duel, Response};

    fn save() -> SaveFile {
        SaveFile::new(
            "library-exodia-deck".into(),
            42,
            Settings {
                chain_confirmation: false,
                ..Settings::default()
            },
            vec![
                Command::SummonMonster { card: CardId(4) },
                Command::Respond(Response::Cards(vec![CardId(1), CardId(9)])),
            ],
        )
    }

    #[test]
    fn round_trips() {
        let plain = save();
        let text = plain.to_text();
        assert!(text.starts_with("3."), "{text}");
        assert_eq!(SaveFile::from_text(&text), Ok(plain));
    }

    #[test]
    fn actions_to_redo_are_saved_in_order() {
        let with_redo = save().with_redo(vec![
            vec![Command::PassChain],
            vec![Command::AdvancePhase, Command::Respond(Response::Option(1))],
        ]);
        let text = with_redo.to_text();
        assert_eq!(text.matches('.').count(), 3, "{text}");
        assert_eq!(SaveFile::from_text(&text), Ok(with_redo));
    }

    #[test]
    fn a_played_game_round_trips_and_replays() {
        let mut duel = Duel::new("exodia-deck", 5).expect("deck");
        for _ in 0..6 {
            let Some(cmd) = duel.legal_commands().into_iter().next() else {
                break;
            };
            duel.apply(cmd).expect("legal");
        }
        let saved = SaveFile::new(
            "exodia-deck".into(),
            5,
            Settings::default(),
            duel.log().to_vec(),
        );
        let back = SaveFile::from_text(&saved.to_text()).expect("readable");
        let replayed =
            Duel::replay(&back.deck, back.seed, back.settings, &back.commands).expect("replays");
        assert_eq!(replayed, duel);
    }

    #[test]
    fn garbage_and_old_saves_are_refused() {
        for garbage in ["", "{not json", "3", "3.", "3.!!!", "x.AQA", "3.AQAB.!!"] {
            let got = SaveFile::from_text(garbage);
            assert!(got.is_err(), "{garbage:?} read as {got:?}");
        }
        assert_eq!(SaveFile::from_text("3.!!!"), Err(SaveError::Corrupt));
        let json_save = r#"{"version":1,"deck":"exodia-deck","seed":1,"commands":[]}"#;
        assert_eq!(
            SaveFile::from_text(json_save),
            Err(SaveError::Outdated { found: 1 })
        );
        // Version 2's logs were played with the old shuffles: refused, not replayed.
        let before = save().to_text().replacen("3.", "2.", 1);
        assert_eq!(
            SaveFile::from_text(&before),
            Err(SaveError::Outdated { found: 2 })
        );
        let later = save().to_text().replacen("3.", "4.", 1);
        assert_eq!(
            SaveFile::from_text(&later),
            Err(SaveError::Outdated { found: 4 })
        );
    }
}
