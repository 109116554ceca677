//! Entry point of the Battle Line computer's bundle, a module only Web Workers run.
//!
//! Like the duel solver's (`duel_solver.rs`): the library's exported job entry point
//! (`gamesWorkerRun`) with the Battle Line levels' searches, no page rendered, built with
//! the `release-worker` profile so the engine is optimized for speed; the Battle Line page
//! names it as its workers' module (`web/release/link-worker.mjs`).

// Links the library, whose exported job entry point is all this module is for.
use web as _;

fn main() {}
