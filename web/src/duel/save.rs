//! The duel autosave: deck id, seed and command log, replayed through the engine on load.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

/// Bumped whenever the command format changes; an older save is discarded, not migrated.
pub const SAVE_VERSION: u32 = 1;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[serde(bound(deserialize = "C: Deserialize<'de>, S: Deserialize<'de> + Default"))]
pub struct SaveFile<C, S> {
    pub version: u32,
    pub deck: String,
    pub seed: u64,
    /// Rule settings the duel was started with (replay needs them); absent = defaults.
    #[serde(default)]
    pub settings: S,
    pub commands: Vec<C>,
    /// Actions taken back by undo, the next one to redo last (each action is the commands
    /// one undo removed); absent = nothing to redo.
    #[serde(default = "Vec::new", skip_serializing_if = "Vec::is_empty")]
    pub redo: Vec<Vec<C>>,
}

/// Why a stored save could not be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SaveError {
    /// Not JSON of the right shape.
    Corrupt,
    /// Written by another version of the app.
    Outdated { found: u32 },
}

impl<C: Serialize + DeserializeOwned, S: Serialize + DeserializeOwned + Default> SaveFile<C, S> {
    pub fn new(deck: String, seed: u64, settings: S, commands: Vec<C>) -> Self {
        SaveFile {
            version: SAVE_VERSION,
            deck,
            seed,
            settings,
            commands,
            redo: Vec::new(),
        }
    }

    /// The same save with actions to redo.
    pub fn with_redo(self, redo: Vec<Vec<C>>) -> Self {
        SaveFile { redo, ..self }
    }

    pub fn to_json(&self) -> Option<String> {
        serde_json::to_string(self).ok()
    }

    /// Reads a stored save. The version is checked before the commands are decoded, so
    /// an old save reports `Outdated` even when its commands no longer parse.
    pub fn from_json(json: &str) -> Result<Self, SaveError> {
        #[derive(Deserialize)]
        struct Header {
            version: u32,
        }
        let header: Header = serde_json::from_str(json).map_err(|_| SaveError::Corrupt)?;
        if header.version != SAVE_VERSION {
            return Err(SaveError::Outdated {
                found: header.version,
            });
        }
        serde_json::from_str(json).map_err(|_| SaveError::Corrupt)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    enum Cmd {
        A,
        B(u8),
    }

    #[test]
    fn round_trips() {
        let save = SaveFile::new("exodia-deck".into(), 42, 7u8, vec![Cmd::A, Cmd::B(3)]);
        let json = save.to_json().expect("serializable");
        assert_eq!(SaveFile::<Cmd, u8>::from_json(&json), Ok(save));
        // Saves written before settings were recorded load with default settings.
        let old = r#"{"version":1,"deck":"d","seed":1,"commands":["A"]}"#;
        assert_eq!(
            SaveFile::<Cmd, u8>::from_json(old),
            Ok(SaveFile::new("d".into(), 1, 0u8, vec![Cmd::A]))
        );
    }

    #[test]
    fn actions_to_redo_are_saved_and_saves_without_them_still_load() {
        let save = SaveFile::new("d".into(), 3, 0u8, vec![Cmd::A])
            .with_redo(vec![vec![Cmd::B(1)], vec![Cmd::B(2), Cmd::A]]);
        let json = save.to_json().expect("serializable");
        assert!(json.contains("redo"), "{json}");
        assert_eq!(SaveFile::<Cmd, u8>::from_json(&json), Ok(save));
        let plain = SaveFile::new("d".into(), 3, 0u8, vec![Cmd::A]);
        let json = plain.to_json().expect("serializable");
        assert!(
            !json.contains("redo"),
            "nothing to redo, nothing written: {json}"
        );
        assert_eq!(SaveFile::<Cmd, u8>::from_json(&json), Ok(plain));
    }

    #[test]
    fn garbage_and_old_saves_are_refused() {
        assert_eq!(
            SaveFile::<Cmd, u8>::from_json("{not json"),
            Err(SaveError::Corrupt)
        );
        assert_eq!(
            SaveFile::<Cmd, u8>::from_json("null"),
            Err(SaveError::Corrupt)
        );
        assert_eq!(
            SaveFile::<Cmd, u8>::from_json(
                r#"{"version":0,"deck":"x","seed":1,"commands":["Zzz"]}"#
            ),
            Err(SaveError::Outdated { found: 0 })
        );
        assert_eq!(
            SaveFile::<Cmd, u8>::from_json(
                r#"{"version":1,"deck":"x","seed":1,"commands":["Zzz"]}"#
            ),
            Err(SaveError::Corrupt)
        );
    }
}
