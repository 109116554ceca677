//! The app's table of its games' worker jobs, which the worker asks in turn by a job's kind.
//!
//! A game with jobs writes them as [`crate::worker::Task`]s and a `jobs::dispatch` that runs
//! those of its kinds; this table names each game of the build once, so the worker itself
//! knows no game. The release duel page has no job of its own (its hint runs in the
//! duel-analysis bundle's module, see `worker::worker_module`).

use crate::worker::Dispatch;

/// Every game's jobs in this build.
pub(crate) const JOBS: &[Dispatch] = &[
    #[cfg(feature = "quantum-gomoku")]
    crate::quantum_gomoku::jobs::dispatch,
    #[cfg(feature = "battle-line")]
    crate::battle_line::jobs::dispatch,
    #[cfg(feature = "duel-analysis")]
    crate::duel::practice::jobs::dispatch,
];
