//! Browser tests of the duel's practice tools: undo/redo, share links, the hint, the deck statistics page and the point of no return.
#![cfg(all(target_arch = "wasm32", feature = "duel"))]

use duel_engine::analysis::{PointOfNoReturn, point_of_no_return};
use duel_engine::replay::Shared;
use duel_engine::stats::{HAND_BUDGET, HandResult, Tally, solve_hand};
use duel_engine::{Code, Command, Duel, Settings, decks};
use test_seeds::{
    INTO_THE_VOID, LOST_GAME_BUDGET, LostGame, SEED_GRACEFUL_CHARITY, SEED_LIBRARY_WIN, lost_game,
};
use wasm_bindgen_test::*;
use web::duel::pages::stats_page::{RunKey, Stored};
use web::duel::practice::jobs::{HINT_BUDGET, Hint, HintAnswer, NO_RETURN_BUDGET};
use web::duel::save::SaveFile;
use web::storage::{
    KEY_CHAIN_CONFIRM, KEY_DUEL_OWN_SAVE, KEY_DUEL_SAVE, KEY_DUEL_STATS_PREFIX, KEY_DUEL_WINNABLE,
    KEY_EXODIA_MID_EFFECT, KEY_LANG, KEY_VOID_COUNTS_ITSELF,
};

wasm_bindgen_test_configure!(run_in_browser);

mod common;
// Each test file uses a different subset of the seeds and scripts.
#[allow(dead_code)]
#[path = "common/seeds.rs"]
mod test_seeds;
use common::{Mounted, clear_keys, clear_keys_where, mount, preset, settle, sleep};

/// An opening hand of this deck that the hint's default budget answers with a win.
const HINT_WIN_DECK: &str = "exodia-deck";
const HINT_WIN_SEED: u64 = 10;
/// An opening hand that cannot win this turn (the search proves it within the budget).
const HINT_LOST_DECK: &str = "panda-exodia-deck";
const HINT_LOST_SEED: u64 = 4;
/// An opening hand the hint's first budget does not decide, so that its search runs
/// long enough to be cancelled (seed 0, used before, is now won at once).
const HINT_SLOW_DECK: &str = "exodia-deck";
const HINT_SLOW_SEED: u64 = 98;
/// The statistics run compared with the native computation: small, so it ends quickly,
/// yet holding won and proved lost hands (and, while the solver leaves some, undecided
/// ones).
const STATS_DECK: &str = "legacy-exodia-deck";
const STATS_HANDS: u32 = 20;
/// Hands of each deck for the table of win rates per card.
const CARD_HANDS: u32 = 6;
/// The deck and seed of `test_seeds::lost_game`.
const LOST_DECK: &str = "library-exodia-deck";

fn reset_storage() {
    clear_keys(&[
        KEY_DUEL_SAVE,
        KEY_DUEL_OWN_SAVE,
        KEY_LANG,
        KEY_CHAIN_CONFIRM,
        KEY_VOID_COUNTS_ITSELF,
        KEY_EXODIA_MID_EFFECT,
        KEY_DUEL_WINNABLE,
    ]);
    clear_keys_where(|k| k.starts_with(KEY_DUEL_STATS_PREFIX));
}

fn hand_card(code: u32) -> String {
    format!("[data-testid=zone-hand] [data-testid=card][data-card-id='{code}']")
}

/// Sends a key press with Ctrl (and Shift) to the window, as the keyboard would.
fn press_ctrl(key: &str, shift: bool) {
    let init = js_sys::Object::new();
    for (name, value) in [
        ("key", wasm_bindgen::JsValue::from_str(key)),
        ("ctrlKey", true.into()),
        ("shiftKey", shift.into()),
        ("bubbles", true.into()),
        ("cancelable", true.into()),
    ] {
        js_sys::Reflect::set(&init, &name.into(), &value).expect("set");
    }
    let make = js_sys::Function::new_with_args(
        "init",
        "window.dispatchEvent(new KeyboardEvent('keydown', init))",
    );
    make.call1(&wasm_bindgen::JsValue::NULL, &init)
        .expect("dispatch");
}

impl Mounted {
    fn hand_codes(&self) -> Vec<String> {
        self.card_ids("[data-testid=zone-hand] [data-testid=card]")
    }

    fn set_cards(&self) -> usize {
        self.all("[data-testid=zone-spellTrapZone] [data-testid=card]")
            .len()
    }

    /// Sets Into the Void from the hand (one action, one command).
    async fn set_into_the_void(&self) {
        self.click(&hand_card(INTO_THE_VOID)).await;
        self.click("[data-testid=card-menu] [data-testid=btn-set]")
            .await;
    }

    fn data_value(&self, selector: &str) -> f64 {
        self.attr(selector, "data-value")
            .parse()
            .unwrap_or_else(|_| panic!("{selector} has a numeric data-value"))
    }
}

#[wasm_bindgen_test]
async fn undo_and_redo_work_through_the_buttons_and_the_keys_and_across_a_reload() {
    reset_storage();
    let app = mount(&format!(
        "#/simulator/exodia-deck?seed={SEED_GRACEFUL_CHARITY}"
    ))
    .await;
    let opening = app.hand_codes();
    assert_eq!(opening.len(), 5);
    assert!(
        app.disabled("[data-testid=btn-undo]"),
        "nothing to undo yet"
    );
    assert!(
        app.disabled("[data-testid=btn-redo]"),
        "nothing to redo yet"
    );

    app.set_into_the_void().await;
    let after = app.hand_codes();
    assert_eq!((after.len(), app.set_cards()), (4, 1));

    // Buttons.
    app.click("[data-testid=btn-undo]").await;
    assert_eq!(app.hand_codes(), opening, "the exact opening hand is back");
    assert_eq!(app.set_cards(), 0);
    assert!(!app.disabled("[data-testid=btn-redo]"));
    app.click("[data-testid=btn-redo]").await;
    assert_eq!(app.hand_codes(), after);
    assert_eq!(app.set_cards(), 1);
    assert!(
        app.disabled("[data-testid=btn-redo]"),
        "redone, nothing left"
    );

    // Keys: Ctrl+Z undoes, Ctrl+Shift+Z redoes.
    press_ctrl("z", false);
    settle().await;
    assert_eq!(app.hand_codes(), opening);
    assert_eq!(app.set_cards(), 0);
    press_ctrl("Z", true);
    settle().await;
    assert_eq!(app.hand_codes(), after);
    assert_eq!(app.set_cards(), 1);

    // Undo, then "reload": the position and the action to redo are both kept.
    press_ctrl("z", false);
    settle().await;
    drop(app);
    let app = mount("#/simulator/exodia-deck").await;
    assert_eq!(app.hand_codes(), opening);
    assert!(
        !app.disabled("[data-testid=btn-redo]"),
        "the action to redo survived the reload"
    );
    app.click("[data-testid=btn-redo]").await;
    assert_eq!(app.hand_codes(), after);
    assert_eq!(app.set_cards(), 1);

    // A new action forgets what could be redone.
    app.click("[data-testid=btn-undo]").await;
    app.set_into_the_void().await;
    assert!(app.disabled("[data-testid=btn-redo]"));
}

#[wasm_bindgen_test]
async fn a_share_link_opens_the_same_position_and_continues_from_it() {
    reset_storage();
    let app = mount(&format!(
        "#/simulator/exodia-deck?seed={SEED_GRACEFUL_CHARITY}"
    ))
    .await;
    app.set_into_the_void().await;
    let hand = app.hand_codes();
    app.click("[data-testid=btn-share]").await;
    let url = app.attr("[data-testid=share-url]", "href");
    assert_eq!(url, app.text("[data-testid=share-url]"), "the URL is shown");
    let hash = url
        .split_once('#')
        .map(|(_, h)| format!("#{h}"))
        .expect("the URL carries the game in its hash");
    assert!(hash.starts_with("#/replay/"), "{hash}");
    assert!(url.len() < 200, "a short game has a short URL: {url}");

    // The code decodes to this very game.
    let code = hash.trim_start_matches("#/replay/");
    let shared = Shared::decode(code).expect("decodes");
    assert_eq!(
        (shared.deck.as_str(), shared.seed, shared.commands.len()),
        ("exodia-deck", SEED_GRACEFUL_CHARITY, 1)
    );
    drop(app);
    reset_storage();

    let replay = mount(&hash).await;
    assert!(replay.has("[data-testid=replay]"));
    assert_eq!(
        replay.attr("[data-testid=replay-position]", "data-value"),
        "1"
    );
    assert_eq!(replay.hand_codes(), hand, "the same position");
    assert_eq!(replay.set_cards(), 1);
    // Stepping back shows the deal, forward the shared point again.
    replay.click("[data-testid=replay-prev]").await;
    assert_eq!(replay.hand_codes().len(), 5);
    replay.click("[data-testid=replay-next]").await;
    assert_eq!(replay.hand_codes(), hand);
    assert!(
        !replay.all("[data-testid=replay-step]").is_empty(),
        "the log in words"
    );

    // Continuing plays on from the shared point (the page's own save: no "resumed" notice).
    replay.click("[data-testid=btn-replay-continue]").await;
    assert!(replay.has("[data-testid=btn-undo]"));
    assert!(
        !replay.has("[data-testid=resume-notice]"),
        "continuing a shared game resumes no stored game"
    );
    assert_eq!(replay.hand_codes(), hand);
    assert_eq!(replay.set_cards(), 1);
    replay.click("[data-testid=btn-undo]").await;
    assert_eq!(
        replay.hand_codes().len(),
        5,
        "the shared command can be undone"
    );
}

#[wasm_bindgen_test]
async fn a_share_url_that_does_not_decode_or_replay_shows_a_notice_and_the_home_page() {
    reset_storage();
    let refused = Shared {
        deck: "exodia-deck".into(),
        seed: 1,
        settings: Settings::default(),
        commands: vec![Command::PassChain],
        custom: None,
    }
    .encode();
    for code in ["not*base64", "AQ", refused.as_str()] {
        let app = mount(&format!("#/replay/{code}")).await;
        assert!(app.has("[data-testid=share-error]"), "{code}: a notice");
        assert!(
            app.has("[data-testid=deck-select]"),
            "{code}: the home page is shown"
        );
        assert!(!app.has("[data-testid=duel-field]"), "{code}: no duel");
        assert!(!app.has("[data-testid=replay]"));
    }
}

#[wasm_bindgen_test]
async fn the_hint_wins_an_opening_hand_step_by_step_and_proves_a_short_line_shortest() {
    reset_storage();
    preset(&[(KEY_LANG, "en")]);
    let app = mount(&format!("#/simulator/{HINT_WIN_DECK}?seed={HINT_WIN_SEED}")).await;
    assert!(
        app.text("[data-testid=hint-oracle]")
            .contains("order of your deck"),
        "the hint says it knows the deck order"
    );
    app.click("[data-testid=btn-hint]").await;
    assert!(
        app.wait_for("[data-testid=hint-result]", 120).await,
        "the hint answers"
    );
    assert_eq!(app.attr("[data-testid=hint-result]", "data-result"), "win");
    assert_eq!(web::worker::runner(), web::worker::Runner::Worker);
    let steps = app.all("[data-testid=hint-step]").len();
    assert!(steps > 3, "the line is listed step by step");

    // Three steps before the end the hint is asked again: a line that short gets the
    // rest of the budget to be proved shortest, and the answer says it is.
    for played in 0..steps {
        if played + 3 == steps {
            app.click("[data-testid=btn-hint]").await;
            assert!(
                app.wait_for("[data-testid=hint-result]", 120).await,
                "the hint answers again"
            );
            assert_eq!(app.attr("[data-testid=hint-result]", "data-result"), "win");
            assert_eq!(
                app.attr("[data-testid=hint-result]", "data-shortest"),
                "true"
            );
            assert!(
                app.text("[data-testid=hint-result]")
                    .contains("(proved shortest)"),
                "the answer says the line is proved shortest"
            );
            let left = app.all("[data-testid=hint-step]").len();
            assert!(left <= 3, "no longer than the rest of the first line");
        }
        if app.has("[data-testid=revealed-dialog]") {
            app.click("[data-testid=btn-revealed-ok]").await;
        }
        if app.has("[data-testid=game-over]") {
            break;
        }
        assert!(
            app.has("[data-testid=btn-hint-next]"),
            "step {played} of {steps} can be played"
        );
        app.click("[data-testid=btn-hint-next]").await;
        assert!(!app.has("[data-testid=hint-stale]"), "still on the line");
    }
    assert!(app.has("[data-testid=game-over]"), "the line wins");
    assert!(
        !app.has("[data-testid=no-return]"),
        "a won duel has no point of no return to search"
    );
    assert!(
        app.all("[data-testid=hint-step]")
            .iter()
            .all(|s| s.get_attribute("data-done").as_deref() == Some("true")),
        "every step is marked done"
    );
}

/// A fresh duel of `deck` from `seed` whose opening hand got the hint's first answer.
async fn first_hint(deck: &str, seed: u64) -> Mounted {
    reset_storage();
    let app = mount(&format!("#/simulator/{deck}?seed={seed}")).await;
    app.click("[data-testid=btn-hint]").await;
    assert!(
        app.wait_for("[data-testid=hint-result]", 120).await,
        "the hint answers"
    );
    app
}

#[wasm_bindgen_test]
async fn the_hint_proves_that_a_hopeless_opening_hand_cannot_win() {
    let app = first_hint(HINT_LOST_DECK, HINT_LOST_SEED).await;
    assert_eq!(
        app.attr("[data-testid=hint-result]", "data-result"),
        "no-win"
    );
    assert!(!app.has("[data-testid=hint-step]"), "no line to show");
    assert!(!app.has("[data-testid=btn-hint-next]"));
}

/// What the "still winnable?" indicator should say of the position after `commands` of
/// a preset deck's seeded duel: the hint's answer at the hint's first budget.
fn winnable_answer(deck: &str, seed: u64, commands: Vec<Command>) -> &'static str {
    let hint = Hint {
        deck: deck.to_owned(),
        custom: None,
        seed,
        settings: Settings::default(),
        commands,
        budget: HINT_BUDGET,
    };
    match hint
        .solve(&mut |_| true)
        .expect("the position replays")
        .answer
    {
        HintAnswer::Win(_) => "yes",
        HintAnswer::NoWin => "no",
        HintAnswer::Undecided => "unknown",
    }
}

/// The commands of the autosaved duel.
fn saved_commands() -> Vec<Command> {
    let text = web::storage::get(KEY_DUEL_SAVE).expect("the duel is autosaved");
    SaveFile::from_text(&text).expect("a valid save").commands
}

#[wasm_bindgen_test]
async fn the_winnable_indicator_is_off_by_default_and_once_on_answers_each_position_as_the_hint() {
    reset_storage();
    let deck = "exodia-deck";
    let app = mount(&format!("#/simulator/{deck}?seed={SEED_GRACEFUL_CHARITY}")).await;
    assert!(app.has("[data-testid=winnable-toggle]"));
    assert!(
        !app.has("[data-testid=winnable]"),
        "off by default: nothing is searched"
    );
    app.click("[data-testid=winnable-toggle]").await;
    assert_eq!(
        web::storage::get(KEY_DUEL_WINNABLE).as_deref(),
        Some("on"),
        "remembered"
    );
    let answered = |moves: usize| {
        format!("[data-testid=winnable][data-moves='{moves}']:not([data-state=thinking])")
    };
    assert!(
        app.wait_for(&answered(0), 120).await,
        "the opening hand is answered"
    );
    let opening = winnable_answer(deck, SEED_GRACEFUL_CHARITY, Vec::new());
    assert_eq!(app.attr("[data-testid=winnable]", "data-state"), opening);

    // A new action: the indicator answers for the new position.
    app.set_into_the_void().await;
    let commands = saved_commands();
    assert_eq!(commands.len(), 1, "setting a card is one command");
    assert!(
        app.wait_for(&answered(1), 120).await,
        "the new position is answered"
    );
    let now = app.attr("[data-testid=winnable]", "data-state");
    let fresh = winnable_answer(deck, SEED_GRACEFUL_CHARITY, commands);
    // The opening's winning line, if the action followed it, still wins without a search.
    assert!(
        now == fresh || (now == "yes" && opening == "yes" && fresh != "no"),
        "indicator {now}, the hint {fresh}"
    );

    // Turned off, it shows nothing again.
    app.click("[data-testid=winnable-toggle]").await;
    assert!(!app.has("[data-testid=winnable]"));
    assert_eq!(web::storage::get(KEY_DUEL_WINNABLE).as_deref(), Some("off"));
}

#[wasm_bindgen_test]
async fn the_winnable_indicator_remembered_on_says_a_lost_opening_can_no_longer_win() {
    reset_storage();
    preset(&[(KEY_DUEL_WINNABLE, "on")]);
    let app = mount(&format!(
        "#/simulator/{HINT_LOST_DECK}?seed={HINT_LOST_SEED}"
    ))
    .await;
    assert!(
        app.wait_for("[data-testid=winnable][data-state=no]", 120)
            .await,
        "the proved loss is shown"
    );
    assert_eq!(app.attr("[data-testid=winnable]", "data-moves"), "0");
    // Lost stays lost: the next action is answered at once, with no search.
    let duel =
        Duel::with_settings(HINT_LOST_DECK, HINT_LOST_SEED, Settings::default()).expect("deals");
    let legal = duel.legal_commands();
    let settable = duel
        .view()
        .you
        .hand
        .iter()
        .find(|c| {
            legal.contains(&Command::SetSpellTrap { card: c.id })
                || legal.contains(&Command::SetMonster { card: c.id })
        })
        .and_then(|c| c.code)
        .expect("a card of the opening hand can be set");
    app.click(&hand_card(settable)).await;
    app.click("[data-testid=card-menu] [data-testid=btn-set]")
        .await;
    assert_eq!(saved_commands().len(), 1);
    assert_eq!(app.attr("[data-testid=winnable]", "data-state"), "no");
    assert_eq!(app.attr("[data-testid=winnable]", "data-moves"), "1");
}

#[wasm_bindgen_test]
async fn a_first_hint_on_a_hand_it_cannot_decide_answers_undecided_within_a_second() {
    let app = first_hint(HINT_SLOW_DECK, HINT_SLOW_SEED).await;
    assert_eq!(
        app.attr("[data-testid=hint-result]", "data-result"),
        "undecided"
    );
    // "(budget 16,000 positions, 0.5 s)": the time the search took where it ran. Here
    // the budget runs out first; on a slower device the deadline (HINT_DEADLINE_MS,
    // whose stops `jobs::tests` checks natively) would.
    let text = app.text("[data-testid=hint-result]");
    let seconds: f64 = text
        .trim_end_matches([')', ' ', 's'])
        .rsplit(' ')
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("a time in {text:?}"));
    assert!(
        seconds < 1.0,
        "a first hint answers within a second: {text}"
    );
    assert!(
        app.has("[data-testid=btn-hint-deeper]"),
        "it offers a longer search, which has no deadline"
    );
}

#[wasm_bindgen_test]
async fn a_running_hint_can_be_cancelled() {
    reset_storage();
    let app = mount(&format!(
        "#/simulator/{HINT_SLOW_DECK}?seed={HINT_SLOW_SEED}"
    ))
    .await;
    app.click("[data-testid=btn-hint]").await;
    assert!(
        app.has("[data-testid=btn-hint-cancel]"),
        "a search in progress offers to cancel"
    );
    assert!(app.disabled("[data-testid=btn-hint]"));
    app.click("[data-testid=btn-hint-cancel]").await;
    assert!(app.has("[data-testid=hint-cancelled]"));
    assert!(
        !app.disabled("[data-testid=btn-hint]"),
        "a new hint may be asked"
    );
    sleep(500).await;
    settle().await;
    assert!(
        !app.has("[data-testid=hint-result]"),
        "no answer arrives after the cancel"
    );
}

#[wasm_bindgen_test]
async fn the_statistics_page_computes_in_workers_what_the_engine_computes_and_caches_it() {
    reset_storage();
    let hash = format!("#/stats/{STATS_DECK}?hands={STATS_HANDS}");
    let app = mount(&hash).await;
    assert!(
        !app.has("[data-testid=stats-budget]"),
        "no budget to choose: every hand gets stats::HAND_BUDGET"
    );
    let deck = app
        .one("[data-testid=stats-deck]")
        .dyn_into_select()
        .value();
    assert_eq!(deck, STATS_DECK);
    let hands = app
        .one("[data-testid=stats-hands]")
        .dyn_into_select()
        .value();
    assert_eq!(hands, STATS_HANDS.to_string());
    assert!(app.disabled("[data-testid=stats-cancel]"));
    app.click("[data-testid=stats-run]").await;
    assert!(
        app.wait_for("[data-testid=stats-done]", 240).await,
        "the run ends"
    );
    assert_eq!(web::worker::runner(), web::worker::Runner::Worker);
    assert_eq!(app.data_value("[data-testid=stats-progress]"), 1.0);

    // The same hands solved here, on the page, by the engine directly.
    let mut native = Tally::default();
    for seed in 0..u64::from(STATS_HANDS) {
        let r = solve_hand(STATS_DECK, seed, Settings::default(), HAND_BUDGET).expect("solves");
        native.add(seed, r);
    }
    assert!(
        native.won > 0 && native.lost > 0,
        "the sample holds won and lost hands: {native:?}"
    );
    let rate = app.data_value("[data-testid=stats-winrate]");
    assert!(
        (rate - native.win_rate()).abs() < 1e-12,
        "{rate} vs {native:?}"
    );
    assert_eq!(
        (
            app.text("[data-testid=stats-won]"),
            app.text("[data-testid=stats-lost]"),
            app.text("[data-testid=stats-undecided-count]"),
        ),
        (
            native.won.to_string(),
            native.lost.to_string(),
            native.undecided.len().to_string()
        )
    );
    let bars: Vec<(u16, u32)> = app
        .all("[data-testid=stats-bar]")
        .iter()
        .map(|b| {
            let get = |name: &str| b.get_attribute(name).unwrap_or_default();
            (
                get("data-length").parse().expect("length"),
                get("data-count").parse().expect("count"),
            )
        })
        .collect();
    let expected: Vec<(u16, u32)> = native.lengths.iter().map(|(&l, &c)| (l, c)).collect();
    assert_eq!(bars, expected, "the histogram of shortest wins");
    let listed: Vec<String> = app
        .all("[data-testid=stats-undecided-hand]")
        .iter()
        .filter_map(|a| a.get_attribute("href"))
        .collect();
    let expected: Vec<String> = native
        .undecided
        .iter()
        .map(|s| format!("#/simulator/{STATS_DECK}?seed={s}"))
        .collect();
    assert_eq!(listed, expected, "undecided hands open as duels");
    drop(app);

    // Opening the page again shows the stored result without computing.
    let app = mount(&hash).await;
    assert!(app.has("[data-testid=stats-cached]"));
    assert!((app.data_value("[data-testid=stats-winrate]") - native.win_rate()).abs() < 1e-12);
}

#[wasm_bindgen_test]
async fn a_statistics_run_can_be_cancelled_and_keeps_its_results_so_far() {
    reset_storage();
    let app = mount(&format!("#/stats/{STATS_DECK}?hands=1000")).await;
    app.click("[data-testid=stats-run]").await;
    assert!(!app.disabled("[data-testid=stats-cancel]"));
    assert!(app.disabled("[data-testid=stats-run]"));
    app.click("[data-testid=stats-cancel]").await;
    assert!(app.has("[data-testid=stats-cancelled]"));
    let progress = app.data_value("[data-testid=stats-progress]");
    assert!((0.0..1.0).contains(&progress), "{progress}");
    let won = app.data_value("[data-testid=stats-winrate]");
    assert!((0.0..=1.0).contains(&won));
    sleep(500).await;
    settle().await;
    assert_eq!(
        app.data_value("[data-testid=stats-progress]"),
        progress,
        "no answer is counted after the cancel"
    );
    assert!(!app.disabled("[data-testid=stats-run]"));
}

/// The passcodes of the opening hand of `seed`, read from the duel the engine deals (as
/// `stats::solve_hand` deals it).
fn opening(deck: &str, seed: u64) -> Vec<Code> {
    Duel::with_settings(deck, seed, Settings::default())
        .expect("deals")
        .view()
        .you
        .hand
        .iter()
        .filter_map(|c| c.code)
        .collect()
}

#[wasm_bindgen_test]
async fn the_statistics_page_of_every_deck_counts_the_hands_holding_each_card_as_the_engine_does() {
    reset_storage();
    for deck in decks().iter().filter(|d| d.playable) {
        // An address from before the budget was fixed still opens the page.
        let app = mount(&format!(
            "#/stats/{}?hands={CARD_HANDS}&budget=2000",
            deck.id
        ))
        .await;
        assert!(app.has("[data-testid=stats-page]"), "{}", deck.id);
        assert!(!app.has("[data-testid=stats-budget]"));
        app.click("[data-testid=stats-run]").await;
        assert!(
            app.wait_for("[data-testid=stats-done]", 240).await,
            "{}: the run ends",
            deck.id
        );

        // The same hands here, by the engine: its answers and the dealt hands' cards.
        let mut native = Tally::default();
        for seed in 0..u64::from(CARD_HANDS) {
            let r = solve_hand(&deck.id, seed, Settings::default(), HAND_BUDGET).expect("solves");
            native.add_hand(seed, r, &opening(&deck.id, seed));
        }
        let mut distinct: Vec<Code> = Vec::new();
        for code in deck.main_codes() {
            if !distinct.contains(&code) {
                distinct.push(code);
            }
        }
        let rows: Vec<(Code, u32, f64)> = app
            .all("[data-testid=stats-card-row]")
            .iter()
            .map(|row| {
                let get = |name: &str| row.get_attribute(name).unwrap_or_default();
                (
                    get("data-card-id").parse().expect("a passcode"),
                    get("data-hands").parse().expect("a count"),
                    get("data-rate").parse().expect("a rate"),
                )
            })
            .collect();
        assert_eq!(
            rows.iter().map(|r| r.0).collect::<Vec<_>>(),
            distinct,
            "{}: one row per distinct card of the main deck",
            deck.id
        );
        for (code, hands, rate) in rows {
            let c = native.cards.get(&code).copied().unwrap_or_default();
            assert_eq!(hands, c.hands, "{}: hands holding {code}", deck.id);
            let expected = if c.hands == 0 {
                0.0
            } else {
                f64::from(c.won) / f64::from(c.hands)
            };
            assert!(
                (rate - expected).abs() < 1e-12,
                "{}: win rate with {code}: {rate} vs {expected}",
                deck.id
            );
        }
        assert_eq!(
            app.data_value("[data-testid=stats-proved]"),
            f64::from(native.proved_total()),
            "{}: won hands whose line is proved shortest",
            deck.id
        );
        assert_eq!(
            app.data_value("[data-testid=stats-winrate]"),
            native.win_rate(),
            "{}",
            deck.id
        );
    }
}

/// The lost game of `test_seeds::lost_game` and what the engine finds for it.
fn lost_game_and_its_answer() -> (LostGame, usize, Vec<String>) {
    let game = lost_game(LOST_GAME_BUDGET).expect("builds");
    let answer = point_of_no_return(
        LOST_DECK,
        SEED_LIBRARY_WIN,
        Settings::default(),
        &game.commands,
        NO_RETURN_BUDGET as usize,
    )
    .expect("replays");
    let PointOfNoReturn::NoReturn { step, line } = answer else {
        panic!("the lost game has a point of no return: {answer:?}");
    };
    assert_eq!(step, game.fatal, "the set that loses");
    let before = Duel::replay(
        LOST_DECK,
        SEED_LIBRARY_WIN,
        Settings::default(),
        &game.commands[..step],
    )
    .expect("replays");
    let words = before.describe_line(&line, duel_engine::Lang::Ja);
    (game, step, words)
}

impl Mounted {
    /// The texts of the point of no return's winning line.
    fn no_return_steps(&self) -> Vec<String> {
        self.all("[data-testid=no-return-line] [data-testid=no-return-step]")
            .iter()
            .map(|li| li.text_content().unwrap_or_default())
            .collect()
    }
}

#[wasm_bindgen_test]
async fn the_replay_page_marks_the_action_that_threw_the_win_away_and_the_line_that_won_before_it()
{
    reset_storage();
    let (game, step, words) = lost_game_and_its_answer();
    let code = Shared {
        deck: LOST_DECK.into(),
        seed: SEED_LIBRARY_WIN,
        settings: Settings::default(),
        commands: game.commands.clone(),
        custom: None,
    }
    .encode();
    let app = mount(&format!("#/replay/{code}")).await;
    // Searched in the worker: the page shows it is thinking until the answer comes, which
    // the solver may already have given by the first render after mounting.
    let state = app.attr("[data-testid=no-return]", "data-state");
    assert!(
        state == "thinking" || state == "found",
        "the search is under way or done: {state}"
    );
    assert!(
        app.wait_for("[data-testid=no-return][data-state=found]", 240)
            .await,
        "the search answers"
    );
    assert_eq!(web::worker::runner(), web::worker::Runner::Worker);
    assert_eq!(
        app.attr("[data-testid=no-return]", "data-step"),
        step.to_string()
    );
    assert_eq!(app.no_return_steps(), words, "the engine's line, in words");
    // The step is marked in the game's log, and the position before it can be shown.
    let steps = app.all(".replay-steps li");
    let marked: Vec<usize> = steps
        .iter()
        .enumerate()
        .filter(|(_, li)| li.get_attribute("data-no-return").as_deref() == Some("true"))
        .map(|(i, _)| i)
        .collect();
    assert_eq!(marked, vec![step]);
    app.click("[data-testid=btn-no-return-show]").await;
    assert_eq!(
        app.attr("[data-testid=replay-position]", "data-value"),
        step.to_string()
    );
}

#[wasm_bindgen_test]
async fn the_game_over_dialog_of_a_lost_duel_shows_its_point_of_no_return_and_a_live_duel_does_not()
{
    reset_storage();
    let (game, step, words) = lost_game_and_its_answer();
    // The duel just before the player ends the turn, as an autosave.
    let save = SaveFile::new(
        LOST_DECK.into(),
        SEED_LIBRARY_WIN,
        Settings::default(),
        game.commands[..game.ending].to_vec(),
    );
    preset(&[(KEY_DUEL_SAVE, &save.to_text())]);
    let app = mount(&format!("#/simulator/{LOST_DECK}?seed={SEED_LIBRARY_WIN}")).await;
    assert!(!app.has("[data-testid=game-over]"));
    assert!(
        !app.has("[data-testid=no-return]"),
        "nothing is told about a duel still being played"
    );
    for _ in 0..5 {
        if app.has("[data-testid=game-over]") {
            break;
        }
        app.click("[data-testid=btn-end-turn]").await;
        if app.has("[data-testid=end-turn-confirm]") {
            app.click("[data-testid=btn-end-turn-confirm]").await;
        }
    }
    assert_eq!(app.attr("[data-testid=game-over]", "data-result"), "lose");
    // Searched in the worker, which may already have answered by the render after the
    // last click: the dialog is thinking or done, never empty.
    let state = app.attr(
        "[data-testid=game-over] [data-testid=no-return]",
        "data-state",
    );
    assert!(
        state == "thinking" || state == "found",
        "the search is under way or done: {state}"
    );
    assert!(
        app.wait_for(
            "[data-testid=game-over] [data-testid=no-return][data-state=found]",
            240
        )
        .await,
        "the search answers"
    );
    assert_eq!(
        app.attr(
            "[data-testid=game-over] [data-testid=no-return]",
            "data-step"
        ),
        step.to_string()
    );
    assert_eq!(app.no_return_steps(), words);
}

/// The page's `<select>` elements.
trait AsSelect {
    fn dyn_into_select(self) -> web_sys::HtmlSelectElement;
}

impl AsSelect for web_sys::Element {
    fn dyn_into_select(self) -> web_sys::HtmlSelectElement {
        use wasm_bindgen::JsCast;
        self.dyn_into().expect("a <select>")
    }
}

/// The app's style sheets as the duel-analysis bundle links them, for the length of one
/// test (the runner's page has none; other tests click without them).
struct Styles(web_sys::Element);

impl Styles {
    fn load() -> Styles {
        let doc = common::document();
        let style = doc.create_element("style").expect("style");
        style.set_text_content(Some(concat!(
            include_str!("../style.css"),
            include_str!("../duel-analysis.css")
        )));
        doc.head()
            .expect("head")
            .append_child(&style)
            .expect("append");
        Styles(style)
    }
}

impl Drop for Styles {
    fn drop(&mut self) {
        self.0.remove();
    }
}

#[wasm_bindgen_test]
async fn the_histogram_draws_each_bar_as_long_as_its_count_and_before_a_run_no_rate() {
    reset_storage();
    let _styles = Styles::load();
    let hash = format!("#/stats/{STATS_DECK}?hands=200");
    // Before any hand is solved there is no win rate, nor an interval around it.
    let app = mount(&hash).await;
    assert_eq!(app.text("[data-testid=stats-winrate]").trim(), "–");
    assert!(!app.has("[data-testid=stats-interval]"));
    drop(app);

    // A stored run with wins of three lengths (4, 2 and 1 hands).
    let mut tally = Tally::default();
    for (seed, commands) in [
        (0, 12),
        (1, 12),
        (2, 12),
        (3, 12),
        (4, 15),
        (5, 15),
        (6, 20),
    ] {
        tally.add(
            seed,
            HandResult::Won {
                commands,
                proved: false,
            },
        );
    }
    tally.add(7, HandResult::Lost);
    let key = RunKey {
        deck: STATS_DECK.into(),
        hands: 200,
        settings: Settings::default(),
    };
    preset(&[(&key.cache_key(), &Stored { tally, ms: 1000.0 }.to_text())]);
    let app = mount(&hash).await;
    assert!(app.has("[data-testid=stats-cached]"));
    assert!(app.has("[data-testid=stats-interval]"));
    let bars: Vec<(f64, f64, f64, f64)> = app
        .all("[data-testid=stats-bar]")
        .iter()
        .map(|row| {
            let count: f64 = row
                .get_attribute("data-count")
                .and_then(|c| c.parse().ok())
                .expect("count");
            let rect = |sel: &str| {
                row.query_selector(sel)
                    .ok()
                    .flatten()
                    .expect(sel)
                    .get_bounding_client_rect()
            };
            let (bar, label) = (rect(".stats-bar"), rect(".stats-bar-count"));
            (count, bar.width(), bar.right(), label.left())
        })
        .collect();
    assert_eq!(
        bars.iter().map(|b| b.0).collect::<Vec<_>>(),
        [4.0, 2.0, 1.0]
    );
    let longest = bars[0].1;
    assert!(longest > 100.0, "the longest bar is drawn: {longest} px");
    for (count, width, right, count_left) in &bars {
        let expected = longest * count / 4.0;
        assert!(
            (width - expected).abs() <= 2.0,
            "a bar of {count} is {width} px, {expected} px expected"
        );
        assert!(count_left >= right, "the count stands apart from its bar");
    }
}
