//! Game and observation ids (version-4 UUIDs) and timestamps.

use seeded_rng::Rng;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::str::FromStr;
use uuid::{Builder, Uuid, Variant};

/// A game id: an RFC 4122 UUID of version 1 to 5 in its hyphenated form.
///
/// New ids are version 4. Where an id is the only thing guarding a game (the
/// HTTP server), it must come from the operating system's secure random source
/// through [`GameId::from_random_bytes`]; the engine itself has no such source
/// (`wasm32-unknown-unknown` lacks one), so [`GameId::random`] draws from a seeded
/// generator and suits only ids that guard nothing (a game kept in one browser).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GameId(Uuid);

/// Why a string is not a game id (the API's `INVALID_ID`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a hyphenated UUID of version 1 to 5")]
pub struct InvalidId(pub String);

impl GameId {
    /// A fresh version-4 id drawn from `rng`: predictable by anyone who learns
    /// the generator's state, so never for an id that guards anything.
    pub fn random(rng: &mut Rng) -> GameId {
        GameId(random_uuid(rng))
    }

    /// A version-4 id from 16 bytes of a secure random source (122 of the bits
    /// are kept; the others mark the version and variant).
    pub fn from_random_bytes(bytes: [u8; 16]) -> GameId {
        GameId(Builder::from_random_bytes(bytes).into_uuid())
    }

    /// Parses the hyphenated form (either case) of a UUID v1 to v5 with the
    /// RFC 4122 variant, which is what the API's `INVALID_ID` check accepts.
    pub fn parse(text: &str) -> Result<GameId, InvalidId> {
        let invalid = || InvalidId(text.to_owned());
        // `Uuid::parse_str` also takes the braced, URN and simple forms; the
        // API speaks only the hyphenated one.
        if text.len() != 36 {
            return Err(invalid());
        }
        let uuid = Uuid::parse_str(text).map_err(|_| invalid())?;
        let version_ok = matches!(uuid.get_version_num(), 1..=5);
        if !version_ok || uuid.get_variant() != Variant::RFC4122 {
            return Err(invalid());
        }
        Ok(GameId(uuid))
    }

    /// The underlying UUID.
    pub const fn as_uuid(&self) -> &Uuid {
        &self.0
    }

    /// Whether this is a version-4 UUID (what the UI's load box accepts).
    pub fn is_v4(&self) -> bool {
        self.0.get_version_num() == 4
    }
}

/// A version-4 UUID from 16 bytes of `rng`.
pub(crate) fn random_uuid(rng: &mut Rng) -> Uuid {
    let mut bytes = [0u8; 16];
    bytes[..8].copy_from_slice(&rng.next_u64().to_le_bytes());
    bytes[8..].copy_from_slice(&rng.next_u64().to_le_bytes());
    Builder::from_random_bytes(bytes).into_uuid()
}

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0.hyphenated(), f)
    }
}

impl FromStr for GameId {
    type Err = InvalidId;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        GameId::parse(s)
    }
}

impl Serialize for GameId {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for GameId {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        GameId::parse(&text).map_err(serde::de::Error::custom)
    }
}

/// Formats Unix milliseconds as an ISO-8601 UTC timestamp such as
/// `2024-05-01T12:34:56.789Z`, the form JavaScript's `Date.toISOString` gives.
///
/// The engine has no clock: callers pass the time (the server reads the system
/// clock, the page `Date.now()`).
pub fn iso8601_from_millis(millis: u64) -> String {
    let secs = millis / 1000;
    let ms = millis % 1000;
    let days = secs / 86_400;
    let rem = secs % 86_400;
    let (year, month, day) = civil_from_days(days);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{ms:03}Z",
        rem / 3600,
        (rem % 3600) / 60,
        rem % 60
    )
}

/// Converts days since 1970-01-01 to a proleptic Gregorian (year, month, day),
/// using the era arithmetic of Howard Hinnant's `civil_from_days`.
fn civil_from_days(days: u64) -> (u64, u64, u64) {
    let z = days + 719_468;
    let era = z / 146_097;
    let doe = z % 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + u64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_ids_are_v4_and_reproducible() {
        let a = GameId::random(&mut Rng::new(5));
        let b = GameId::random(&mut Rng::new(5));
        assert_eq!(a, b);
        assert!(a.is_v4());
        assert_eq!(GameId::parse(&a.to_string()), Ok(a));
    }

    #[test]
    fn ids_from_random_bytes_keep_the_bytes_and_are_v4() {
        let id = GameId::from_random_bytes([0xff; 16]);
        assert!(id.is_v4());
        assert_eq!(id.to_string(), "ffffffff-ffff-4fff-bfff-ffffffffffff");
        assert_eq!(GameId::parse(&id.to_string()), Ok(id));
    }

    #[test]
    fn parse_accepts_versions_one_to_five_only() {
        for v in 1..=5 {
            let text = format!("123e4567-e89b-{v}2d3-a456-426614174000");
            assert!(GameId::parse(&text).is_ok(), "{text}");
        }
        assert!(GameId::parse("123e4567-e89b-62d3-a456-426614174000").is_err());
        assert!(GameId::parse("123e4567-e89b-02d3-a456-426614174000").is_err());
        // Wrong variant nibble.
        assert!(GameId::parse("123e4567-e89b-42d3-c456-426614174000").is_err());
        assert!(GameId::parse("123e4567e89b42d3a456426614174000").is_err());
        assert!(GameId::parse("not-a-uuid").is_err());
        assert!(GameId::parse("").is_err());
        assert!(GameId::parse("123E4567-E89B-42D3-A456-426614174000").is_ok());
    }

    #[test]
    fn timestamps_format_like_javascript() {
        assert_eq!(iso8601_from_millis(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(
            iso8601_from_millis(951_782_400_000),
            "2000-02-29T00:00:00.000Z"
        );
        assert_eq!(
            iso8601_from_millis(1_714_566_896_789),
            "2024-05-01T12:34:56.789Z"
        );
    }
}
