//! The duel autosave: deck id, seed and command log, replayed through the engine on load.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

/// Bumped whenever the command format changes; an older save is discarded, not migrated.
pub const SAVE_VERSION: u32 = 1;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SaveFile<C> {
    pub version: u32,
    pub deck: String,
    pub seed: u64,
    pub commands: Vec<C>,
}

/// Why a stored save could not be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SaveError {
    /// Not JSON of the right shape.
    Corrupt,
    /// Written by another version of the app.
    Outdated { found: u32 },
}

impl<C: Serialize + DeserializeOwned> SaveFile<C> {
    pub fn new(deck: String, seed: u64, commands: Vec<C>) -> Self {
        SaveFile {
            version: SAVE_VERSION,
            deck,
            seed,
            commands,
        }
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
        let save = SaveFile::new("exodia-deck".into(), 42, vec![Cmd::A, Cmd::B(3)]);
        let json = save.to_json().expect("serializable");
        assert_eq!(SaveFile::<Cmd>::from_json(&json), Ok(save));
    }

    #[test]
    fn garbage_and_old_saves_are_refused() {
        assert_eq!(
            SaveFile::<Cmd>::from_json("{not json"),
            Err(SaveError::Corrupt)
        );
        assert_eq!(SaveFile::<Cmd>::from_json("null"), Err(SaveError::Corrupt));
        assert_eq!(
            SaveFile::<Cmd>::from_json(r#"{"version":0,"deck":"x","seed":1,"commands":["Zzz"]}"#),
            Err(SaveError::Outdated { found: 0 })
        );
        assert_eq!(
            SaveFile::<Cmd>::from_json(r#"{"version":1,"deck":"x","seed":1,"commands":["Zzz"]}"#),
            Err(SaveError::Corrupt)
        );
    }
}
