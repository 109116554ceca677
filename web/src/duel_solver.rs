//! Entry point of the duel solver's bundle, a module only Web Workers run.
//!
//! The bundle holds the duel's worker jobs (`gamesWorkerRun`, exported by the library's
//! `worker` module) and nothing of the app: no page is rendered, so the linker leaves
//! every component out. Built apart from the pages with the `release-worker` profile, its
//! engine is optimized for speed where the pages' bundles are optimized for size; the
//! duel, replay, statistics and deck lab pages name it as their workers' module
//! (`web/release/link-worker.mjs`).

// Links the library, whose exported job entry point is all this module is for.
use web as _;

fn main() {}
