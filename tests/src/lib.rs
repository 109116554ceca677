//! End-to-end acceptance tests live in `tests/`, one file per specification, each test
//! named after the scenario id it proves (e.g. `us2_2_a_second_summon_is_refused`).
//! The duel helpers are shared with the engine's own scenario tests by path.
