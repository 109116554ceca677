//! Fresh randomness from the operating system: game ids and unseeded observation seeds.
//!
//! Nothing here touches a seeded generator, so no number of ids or observation
//! results tells anything about the next ones.

use crate::error::Refusal;
use axum::http::StatusCode;
use quantum_gomoku::GameId;

fn unavailable(e: getrandom::Error) -> Refusal {
    Refusal::new(
        StatusCode::SERVICE_UNAVAILABLE,
        "ENTROPY_UNAVAILABLE",
        format!("the operating system's random source failed: {e}"),
    )
}

/// A version-4 game id from 122 bits of the OS's secure random source.
pub(crate) fn game_id() -> Result<GameId, Refusal> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(unavailable)?;
    Ok(GameId::from_random_bytes(bytes))
}

/// A 64-bit seed from the OS's secure random source.
pub(crate) fn seed() -> Result<u64, Refusal> {
    getrandom::u64().map_err(unavailable)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_seeds_differ_from_call_to_call() {
        let ids: std::collections::HashSet<_> =
            (0..64).map(|_| game_id().expect("OS rng")).collect();
        assert_eq!(ids.len(), 64);
        assert!(ids.iter().all(GameId::is_v4));
        assert_ne!(seed().expect("OS rng"), seed().expect("OS rng"));
    }
}
