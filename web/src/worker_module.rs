//! Entry point of the release's Web Worker modules (`web/release/duel-solver.html`,
//! `battle-line-ai.html`): modules only workers run.
//!
//! Such a module holds the library's exported job entry point (`gamesWorkerRun`) with the
//! jobs of the features it is built with (`duel-analysis`: the hint, the point of no
//! return and the statistics' hands; `battle-line`: the computer levels' searches) and
//! nothing of the app: no page is rendered, so the linker leaves every component out.
//! Built apart from the pages with the `release-worker` profile, its engine is optimized
//! for speed where the pages' bundles are optimized for size; the pages name it as their
//! workers' module (`web/release/link-worker.mjs`).

// Links the library, whose exported job entry point is all this module is for.
use web as _;

fn main() {}
