//! Quantum Gomoku saves in localStorage: one entry per game id plus the id of the game shown last.

use quantum_gomoku::{Game, GameId, GameOptions, OptionsError};

use crate::storage;

/// The id of the game the page showed last, so a reload continues it.
pub const KEY_CURRENT: &str = "games.quantum-gomoku.current";

/// Who plays the other side (`human`, `computer-white`, `computer-black`), kept for the next visit.
pub const KEY_OPPONENT: &str = "games.quantum-gomoku.opponent";

/// The localStorage key of one game's save.
pub fn game_key(id: &str) -> String {
    format!("games.quantum-gomoku.game.{id}")
}

/// What was found under a game's key.
#[derive(Debug, Clone, PartialEq)]
pub enum Stored {
    Found(Box<Game>),
    Missing,
    /// Present but unreadable (or saved under another id); it has been removed.
    Discarded,
}

/// Parses what a player typed or the address holds: only UUID v4 ids are ours.
pub fn parse_v4(text: &str) -> Option<GameId> {
    GameId::parse(text.trim()).ok().filter(GameId::is_v4)
}

/// Reads the save of `id`. A save that does not load is removed so that it
/// cannot break the next start either.
pub fn load(id: &GameId) -> Stored {
    let key = game_key(&id.to_string());
    let Some(json) = storage::get(&key) else {
        return Stored::Missing;
    };
    match Game::from_json(&json) {
        // A save filed under another id would make delete remove the wrong entry.
        Ok(game) if game.id() == *id => Stored::Found(Box::new(game)),
        _ => {
            storage::remove(&key);
            Stored::Discarded
        }
    }
}

/// Saves `game` and remembers it as the current one. Returns whether both writes succeeded.
pub fn save(game: &Game) -> bool {
    let id = game.id().to_string();
    match game.to_json() {
        Ok(json) => storage::set(&game_key(&id), &json) && storage::set(KEY_CURRENT, &id),
        Err(_) => false,
    }
}

/// Removes a game's save (and the current-game pointer when it points at it).
pub fn delete(id: &GameId) {
    let id = id.to_string();
    storage::remove(&game_key(&id));
    if storage::get(KEY_CURRENT).as_deref() == Some(id.as_str()) {
        storage::remove(KEY_CURRENT);
    }
}

/// A seed from the browser's entropy (called from callbacks and effects only).
pub fn entropy_seed() -> u64 {
    // Math.random yields 52 random bits at most; two draws fill 64.
    let half = || (js_sys::Math::random() * 4_294_967_296.0) as u64 & 0xffff_ffff;
    (half() << 32) | half()
}

/// A fresh game with `options`, seeded from entropy and stamped with the browser's clock.
pub fn new_game(options: GameOptions) -> Result<Game, OptionsError> {
    let now = js_sys::Date::now();
    // Date.now() is a non-negative integer number of milliseconds on any sane clock;
    // a negative or NaN value saturates to 0 instead of failing.
    Game::new(options, entropy_seed(), now.max(0.0) as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_v4_ids_are_accepted() {
        assert!(parse_v4("0b5e4c1a-8f3d-4e2a-9c7b-1d2e3f405060").is_some());
        assert!(parse_v4(" 0b5e4c1a-8f3d-4e2a-9c7b-1d2e3f405060 ").is_some());
        // A valid UUID of version 1 is still not one of our ids.
        assert!(parse_v4("0b5e4c1a-8f3d-1e2a-9c7b-1d2e3f405060").is_none());
        assert!(parse_v4("not-a-uuid").is_none());
        assert!(parse_v4("").is_none());
    }

    #[test]
    fn keys_are_per_game() {
        assert_ne!(game_key("a"), game_key("b"));
        assert!(game_key("a").starts_with("games.quantum-gomoku."));
    }
}
