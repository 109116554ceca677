//! Browser tests of the deck lab's duels: an illegal deck's play button says why it is
//! disabled, a legal one opens a duel of that very list (undo and a reload included), and
//! a test hand is dealt exactly, won with the hint's line, shared as a link and opened
//! in a fresh context.
#![cfg(all(target_arch = "wasm32", feature = "duel", feature = "duel-analysis"))]

use duel_engine::replay::Shared;
use duel_engine::{CUSTOM_DECK_ID, DeckList};
use wasm_bindgen_test::*;
use web::duel::save::SaveFile;
use web::storage::{
    KEY_CHAIN_CONFIRM, KEY_DUEL_DECKS, KEY_DUEL_OWN_SAVE, KEY_DUEL_SAVE, KEY_DUEL_STATS_PREFIX,
    KEY_EXODIA_MID_EFFECT, KEY_LANG, KEY_VOID_COUNTS_ITSELF,
};

wasm_bindgen_test_configure!(run_in_browser);

mod common;
use common::{Mounted, clear_keys, clear_keys_where, mount, preset, storage};

const POT_OF_GREED: &str = "55144522";
const POT_OF_DUALITY: &str = "98645731";
/// The five Exodia pieces: the head and four limbs.
const EXODIA: [&str; 5] = ["33396948", "7902349", "70903634", "8124921", "44519536"];

fn reset() {
    clear_keys(&[
        KEY_DUEL_DECKS,
        KEY_DUEL_SAVE,
        KEY_DUEL_OWN_SAVE,
        KEY_CHAIN_CONFIRM,
        KEY_VOID_COUNTS_ITSELF,
        KEY_EXODIA_MID_EFFECT,
    ]);
    clear_keys_where(|k| k.starts_with(KEY_DUEL_STATS_PREFIX));
    preset(&[(KEY_LANG, "en")]);
}

fn saved() -> SaveFile {
    let text = storage()
        .get_item(KEY_DUEL_SAVE)
        .ok()
        .flatten()
        .expect("an autosave");
    SaveFile::from_text(&text).expect("a readable autosave")
}

impl Mounted {
    fn hand_codes(&self) -> Vec<String> {
        self.card_ids("[data-testid=zone-hand] [data-testid=card]")
    }

    fn pool_add(&self, code: &str) -> String {
        format!("[data-testid=lab-card][data-card-id=\"{code}\"] [data-testid=lab-add]")
    }

    fn deck_remove(&self, code: &str) -> String {
        format!("[data-testid=lab-deck-card][data-card-id=\"{code}\"] [data-testid=lab-remove]")
    }

    fn hand_pick(&self, code: &str) -> String {
        format!("[data-testid=lab-hand-pick][data-card-id=\"{code}\"]")
    }
}

/// The exodia-deck preset with a Pot of Greed fewer and a second Pot of Duality, as a
/// player edits it in the lab.
async fn edited_exodia(app: &Mounted) {
    app.click("[data-testid=lab-from-preset][data-deck=\"exodia-deck\"]")
        .await;
    app.click(&app.deck_remove(POT_OF_GREED)).await;
    app.click(&app.pool_add(POT_OF_DUALITY)).await;
    assert!(app.has("[data-testid=lab-legal]"));
}

#[wasm_bindgen_test]
async fn lab_play_says_why_an_illegal_deck_cannot_play_and_plays_the_edited_list_with_undo_and_a_reload()
 {
    reset();
    let app = mount("#/deck-lab").await;
    app.click("[data-testid=lab-empty]").await;
    assert!(app.disabled("[data-testid=lab-play]"));
    assert!(
        app.text("[data-testid=lab-play-why]").contains("problems"),
        "the page says why the button is disabled"
    );
    assert!(app.disabled("[data-testid=lab-test-hand]"));

    edited_exodia(&app).await;
    assert!(!app.has("[data-testid=lab-play-why]"));
    assert!(!app.disabled("[data-testid=lab-play]"));
    let main: Vec<(String, String)> = app
        .all("[data-testid=lab-deck-card]")
        .iter()
        .map(|r| {
            (
                r.get_attribute("data-card-id").unwrap_or_default(),
                r.get_attribute("data-count").unwrap_or_default(),
            )
        })
        .collect();
    app.click("[data-testid=lab-play]").await;
    assert!(app.has("[data-testid=simulator]"), "the duel page opens");
    assert!(
        !app.has("[data-testid=resume-notice]"),
        "a new duel from the lab is no resumed game"
    );
    assert_eq!(app.hand_codes().len(), 5);

    // The autosave holds the very list edited.
    let save = saved();
    assert_eq!(save.deck, CUSTOM_DECK_ID);
    let list: DeckList = save.custom.clone().and_then(|c| c.list).expect("a list");
    let held: Vec<(String, String)> = list
        .main
        .iter()
        .chain(&list.extra)
        .map(|(c, n)| (c.to_string(), n.to_string()))
        .collect();
    assert_eq!(held, main);
    let preset = DeckList::from(duel_engine::deck("exodia-deck").expect("preset"));
    assert_eq!(list.copies(55_144_522) + 1, preset.copies(55_144_522));
    assert_eq!(list.copies(98_645_731), preset.copies(98_645_731) + 1);

    // One action, undone, and the game after a reload is the same deal.
    let hand = app.hand_codes();
    app.click("[data-testid=btn-end-turn]").await;
    if app.has("[data-testid=btn-end-turn-confirm]") {
        app.click("[data-testid=btn-end-turn-confirm]").await;
    }
    assert!(!app.disabled("[data-testid=btn-undo]"));
    app.click("[data-testid=btn-undo]").await;
    assert_eq!(app.hand_codes(), hand, "undo replays the same deal");
    let hash = web::ctx::current_route().to_hash();
    assert!(hash.starts_with("#/simulator/custom?seed="), "{hash}");
    drop(app);
    let again = mount(&hash).await;
    assert_eq!(again.hand_codes(), hand, "a reload resumes the same deal");
    assert_eq!(saved().custom.and_then(|c| c.list), Some(list));
}

#[wasm_bindgen_test]
async fn a_test_hand_is_dealt_exactly_won_with_the_hints_line_and_opens_as_a_shared_link() {
    reset();
    let app = mount("#/deck-lab").await;
    edited_exodia(&app).await;
    // Four pieces and Pot of Duality in hand, the last piece on top of the deck.
    for code in [EXODIA[0], EXODIA[1], EXODIA[2], EXODIA[3], POT_OF_DUALITY] {
        app.click(&app.hand_pick(code)).await;
    }
    assert_eq!(app.card_ids("[data-testid=lab-hand-card]").len(), 5);
    assert!(
        app.disabled(&app.hand_pick(POT_OF_DUALITY)),
        "a full hand takes no more cards"
    );
    app.click(&format!(
        "[data-testid=lab-top-pick][data-card-id=\"{}\"]",
        EXODIA[4]
    ))
    .await;
    assert_eq!(app.card_ids("[data-testid=lab-top-card]"), vec![EXODIA[4]]);
    // Each piece is in the deck once: the fifth cannot be picked again.
    assert!(app.disabled(&app.hand_pick(EXODIA[4])));
    app.click("[data-testid=lab-test-hand]").await;
    assert!(app.has("[data-testid=simulator]"));
    let mut hand = app.hand_codes();
    hand.sort();
    let mut chosen: Vec<String> = [EXODIA[0], EXODIA[1], EXODIA[2], EXODIA[3], POT_OF_DUALITY]
        .iter()
        .map(|c| c.to_string())
        .collect();
    chosen.sort();
    assert_eq!(hand, chosen, "exactly the chosen hand");

    // The hint finds the win; its steps play to it.
    app.click("[data-testid=btn-hint]").await;
    assert!(app.wait_for("[data-testid=hint-result]", 120).await);
    assert_eq!(app.attr("[data-testid=hint-result]", "data-result"), "win");
    let steps = app.all("[data-testid=hint-step]").len();
    assert!(steps > 0);
    for _ in 0..steps {
        if app.has("[data-testid=revealed-dialog]") {
            app.click("[data-testid=btn-revealed-ok]").await;
        }
        if app.has("[data-testid=game-over]") {
            break;
        }
        app.click("[data-testid=btn-hint-next]").await;
    }
    assert!(app.has("[data-testid=game-over]"));
    assert_eq!(app.attr("[data-testid=game-over]", "data-result"), "win");
    assert_eq!(app.attr("[data-testid=game-over]", "data-reason"), "exodia");
    // Undo takes the win back, within the same deal.
    app.click("[data-testid=btn-undo]").await;
    assert!(!app.has("[data-testid=game-over]"));
    app.click("[data-testid=btn-redo]").await;
    assert!(app.has("[data-testid=game-over]"));

    // Shared: the link carries the deck list and the test hand.
    app.click("[data-testid=btn-share]").await;
    let url = app.attr("[data-testid=share-url]", "href");
    let hash = url
        .split_once('#')
        .map(|(_, h)| format!("#{h}"))
        .expect("the URL carries the game in its hash");
    let code = hash.trim_start_matches("#/replay/");
    let shared = Shared::decode(code).expect("decodes");
    let custom = shared.custom.clone().expect("the deal");
    assert_eq!(
        custom.opening.top,
        vec![EXODIA[4].parse::<u32>().expect("code")]
    );
    assert_eq!(custom.opening.hand.len(), 5);
    assert!(custom.list.is_some());
    let won_log = shared.commands.len();
    drop(app);

    // A fresh context: nothing stored; the link opens the game at its end, won.
    clear_keys(&[KEY_DUEL_DECKS, KEY_DUEL_SAVE, KEY_DUEL_OWN_SAVE]);
    let replay = mount(&hash).await;
    assert!(replay.has("[data-testid=replay]"));
    assert_eq!(
        replay.attr("[data-testid=replay-position]", "data-value"),
        won_log.to_string()
    );
    replay.click("[data-testid=replay-first]").await;
    let mut opened = replay.hand_codes();
    opened.sort();
    assert_eq!(opened, chosen, "the shared deal has the test hand");
    // Continuing plays the shared deal on the duel page.
    replay.click("[data-testid=btn-replay-continue]").await;
    assert!(replay.has("[data-testid=simulator]"));
    let mut resumed = replay.hand_codes();
    resumed.sort();
    assert_eq!(resumed, chosen);
    assert_eq!(saved().custom, Some(custom));
}

/// Hands of the statistics run of the edited list.
const STATS_HANDS: u32 = 4;
/// Hands of each build in the comparison (the smallest choice of the lab's).
const COMPARED_HANDS: u32 = 20;

/// Whether each of the first `n` seeds' hands of `deck` (a statistics deck) is won, as
/// the engine solves it.
fn wins(deck: &str, n: u32) -> Vec<bool> {
    use duel_engine::stats::{HAND_BUDGET, HandResult, goal_of_dealt, solve_dealt_hand};
    let (id, custom) = web::duel::practice::jobs::dealt_deck(deck).expect("a deck");
    let goal = goal_of_dealt(id, custom.as_ref()).expect("a goal");
    (0..u64::from(n))
        .map(|seed| {
            let r = solve_dealt_hand(
                id,
                custom.as_ref(),
                goal,
                seed,
                duel_engine::Settings::default(),
                HAND_BUDGET,
            )
            .expect("solves");
            matches!(r, HandResult::Won { .. })
        })
        .collect()
}

/// The statistics deck of a `lab-stats` link (`#/stats/<deck>`).
fn stats_deck(href: &str) -> String {
    href.split_once("#/stats/")
        .map(|(_, d)| d.to_owned())
        .expect("a statistics link")
}

#[wasm_bindgen_test]
async fn lab_stats_runs_on_the_edited_list_and_two_builds_compare_on_the_same_seeds() {
    reset();
    let app = mount("#/deck-lab").await;
    edited_exodia(&app).await;
    let edited = stats_deck(&app.attr("[data-testid=lab-stats]", "href"));
    // Saved, then the preset it came from compared with it.
    app.type_into("[data-testid=lab-name]", "edited").await;
    app.click("[data-testid=lab-save]").await;
    app.click("[data-testid=lab-from-preset][data-deck=\"exodia-deck\"]")
        .await;
    let preset = stats_deck(&app.attr("[data-testid=lab-stats]", "href"));
    assert!(
        !app.has("[data-testid=compare-page]"),
        "no deck B chosen yet"
    );
    app.choose("[data-testid=lab-compare-with]", "saved:edited")
        .await;
    assert!(app.has("[data-testid=compare-page]"));
    app.choose("[data-testid=compare-hands]", &COMPARED_HANDS.to_string())
        .await;
    app.click("[data-testid=compare-run]").await;
    assert!(app.wait_for("[data-testid=compare-done]", 240).await);
    let a = wins(&preset, COMPARED_HANDS);
    let b = wins(&edited, COMPARED_HANDS);
    let hands = COMPARED_HANDS.to_string();
    assert_eq!(
        app.attr("[data-testid=compare-winrate-a]", "data-hands"),
        hands
    );
    assert_eq!(
        app.attr("[data-testid=compare-winrate-b]", "data-hands"),
        hands
    );
    let rate = |sel: &str| {
        app.attr(sel, "data-value")
            .parse::<f64>()
            .expect("a number")
    };
    let won = |w: &[bool]| w.iter().filter(|x| **x).count() as f64;
    let n = f64::from(COMPARED_HANDS);
    assert!((rate("[data-testid=compare-winrate-a]") * n - won(&a)).abs() < 1e-6);
    assert!((rate("[data-testid=compare-winrate-b]") * n - won(&b)).abs() < 1e-6);
    let pairs: Vec<(bool, bool)> = a.iter().copied().zip(b.iter().copied()).collect();
    let expected = duel_engine::stats::paired(&pairs);
    let diff = "[data-testid=compare-difference]";
    assert_eq!(app.attr(diff, "data-a-only"), expected.a_only.to_string());
    assert_eq!(app.attr(diff, "data-b-only"), expected.b_only.to_string());
    assert!((rate(diff) - expected.difference).abs() < 1e-9);
    assert!(
        app.text(diff)
            .starts_with(&web::duel::pages::compare::percent(expected.difference)),
        "the difference is shown with its sign: {}",
        app.text(diff)
    );
    // A card of either deck has its row, with how many of each deck's hands held it.
    let rows = app.all("[data-testid=compare-card-row]");
    assert!(
        rows.iter()
            .any(|r| r.get_attribute("data-card-id").as_deref() == Some(POT_OF_GREED))
    );
    assert!(rows.iter().all(|r| {
        ["data-hands-a", "data-hands-b"].iter().all(|k| {
            r.get_attribute(k)
                .and_then(|v| v.parse::<u32>().ok())
                .is_some_and(|h| h <= COMPARED_HANDS)
        })
    }));
    drop(app);

    // The statistics page runs on the edited list in the workers, as the engine solves it.
    let page = mount(&format!("#/stats/{edited}?hands={STATS_HANDS}")).await;
    assert!(page.has("[data-testid=stats-page]"));
    page.click("[data-testid=stats-run]").await;
    assert!(page.wait_for("[data-testid=stats-done]", 240).await);
    let expected = wins(&edited, STATS_HANDS).iter().filter(|w| **w).count();
    assert_eq!(page.text("[data-testid=stats-won]"), expected.to_string());
}
