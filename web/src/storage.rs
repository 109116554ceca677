//! Best-effort localStorage access: every failure (no window, storage disabled, quota) is swallowed.

/// Keys of everything the app keeps in localStorage.
pub const KEY_LANG: &str = "games.lang";
pub const KEY_DUEL_SAVE: &str = "games.duel.save";
/// `<deck>/<seed>` of a save the page wrote itself (loading it is no resumed game).
pub const KEY_DUEL_OWN_SAVE: &str = "games.duel.ownSave";
pub const KEY_CHAIN_CONFIRM: &str = "games.duel.chainConfirmation";
pub const KEY_VOID_COUNTS_ITSELF: &str = "games.duel.intoTheVoidCountsItself";
pub const KEY_EXODIA_MID_EFFECT: &str = "games.duel.exodiaWinsMidEffect";
/// Deck statistics are cached under this prefix plus their run's key.
pub const KEY_DUEL_STATS_PREFIX: &str = "games.duel.stats|";
/// The deck lab's decks kept by name (`<name>\t<ydke link>` lines).
pub const KEY_DUEL_DECKS: &str = "games.duel.decks";
pub const KEY_MOTION: &str = "games.motion";
pub const KEY_CONFIRM_END_TURN: &str = "games.duel.confirmEndTurn";
/// Whether the duel page checks after each action that a win is left (`on`; off else).
pub const KEY_DUEL_WINNABLE: &str = "games.duel.winnable";

fn local_storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

pub fn get(key: &str) -> Option<String> {
    local_storage()?.get_item(key).ok().flatten()
}

/// Returns whether the value was stored; a full or disabled storage is not an error worth a crash.
pub fn set(key: &str, value: &str) -> bool {
    local_storage().is_some_and(|s| s.set_item(key, value).is_ok())
}

pub fn remove(key: &str) {
    if let Some(s) = local_storage() {
        // Ignored: removing from a disabled storage has nothing left to do.
        let _ = s.remove_item(key);
    }
}
