//! The app's list of its games' worker jobs, which the worker asks by a job's kind.
//!
//! A game with jobs writes them as [`crate::worker::Task`]s and a `jobs::dispatch` that runs
//! those of its kinds; this list names each game of the build once, so the worker itself
//! knows no game. The release duel page has no job of its own (its hint runs in the duel
//! solver's module, see `worker::worker_module`); the deck lab has the duel's statistics
//! jobs, to compare two builds, for when no worker can start.

/// Runs the job named `kind` from its text with the first game of this build that has it;
/// `None` if none has. A list of calls rather than an array of function pointers: the
/// calls inline, the array cost the quantum-gomoku bundle some 260 bytes gzip.
pub(crate) fn dispatch(kind: &str, body: &str) -> Option<Result<String, String>> {
    #[cfg(feature = "quantum-gomoku")]
    if let Some(answer) = crate::quantum_gomoku::jobs::dispatch(kind, body) {
        return Some(answer);
    }
    #[cfg(feature = "battle-line")]
    if let Some(answer) = crate::battle_line::jobs::dispatch(kind, body) {
        return Some(answer);
    }
    #[cfg(all(
        feature = "duel-jobs",
        any(feature = "duel-analysis", feature = "deck-lab")
    ))]
    if let Some(answer) = crate::duel::practice::jobs::dispatch(kind, body) {
        return Some(answer);
    }
    let _ = (kind, body);
    None
}
