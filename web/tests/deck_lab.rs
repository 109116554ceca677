//! Browser tests of the deck lab (`#/deck-lab`): building a deck from empty within the
//! rules, saving it by name across a reload, importing a `.ydk` with cards the simulator
//! does not have (pasted, chosen as a file or dropped), the goal of a deck that can win
//! both ways, and a corrupt save discarded with a notice.
#![cfg(all(target_arch = "wasm32", feature = "duel-analysis"))]

use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web::storage::{KEY_DUEL_DECKS, KEY_LANG};

wasm_bindgen_test_configure!(run_in_browser);

mod common;
use common::{Mounted, clear_keys, mount, preset, settle, storage};

const POT_OF_GREED: &str = "55144522";

fn reset() {
    clear_keys(&[KEY_DUEL_DECKS]);
    preset(&[(KEY_LANG, "en")]);
}

fn count(app: &Mounted, which: &str) -> String {
    app.attr(&format!("[data-testid=lab-count-{which}]"), "data-value")
}

#[wasm_bindgen_test]
async fn a_deck_built_from_empty_names_its_problems_keeps_the_copy_limit_and_survives_a_reload() {
    reset();
    let app = mount("#/deck-lab").await;
    assert!(app.has("[data-testid=deck-lab]"));
    app.click("[data-testid=lab-empty]").await;
    assert_eq!(count(&app, "main"), "0");
    let problems: Vec<String> = app
        .all("[data-testid=lab-problem]")
        .iter()
        .map(|p| p.text_content().unwrap_or_default())
        .collect();
    assert_eq!(problems.len(), 2, "{problems:?}");
    assert!(problems[0].contains("at least 40"), "{problems:?}");
    assert!(problems[1].contains("No way to win"), "{problems:?}");

    // The search narrows the pool; three copies go in, a fourth is refused with why.
    app.type_into("[data-testid=lab-search]", "pot of greed")
        .await;
    let pool = app.all("[data-testid=lab-card]");
    assert!(!pool.is_empty());
    assert!(pool.iter().all(|c| {
        c.text_content()
            .unwrap_or_default()
            .to_lowercase()
            .contains("pot of greed")
    }));
    let add =
        format!("[data-testid=lab-card][data-card-id=\"{POT_OF_GREED}\"] [data-testid=lab-add]");
    for _ in 0..3 {
        app.click(&add).await;
    }
    let row = format!("[data-testid=lab-deck-card][data-card-id=\"{POT_OF_GREED}\"]");
    assert_eq!(app.attr(&row, "data-count"), "3");
    app.click(&add).await;
    assert_eq!(app.attr(&row, "data-count"), "3");
    assert!(app.text("[data-testid=lab-notice]").contains("3 copies"));
    app.click(&format!("{row} [data-testid=lab-remove]")).await;
    assert_eq!(app.attr(&row, "data-count"), "2");
    assert_eq!(count(&app, "main"), "2");

    // A preset is a legal start; saved by name, it is there after a reload.
    app.click("[data-testid=lab-from-preset][data-deck=\"panda-exodia-deck\"]")
        .await;
    assert_eq!(count(&app, "main"), "40");
    assert_eq!(count(&app, "extra"), "5");
    assert!(app.has("[data-testid=lab-legal]"));
    assert!(!app.has("[data-testid=lab-problem]"));
    assert_eq!(app.attr("[data-testid=lab-goal]", "data-value"), "exodia");
    app.type_into("[data-testid=lab-name]", "  My panda\t")
        .await;
    app.click("[data-testid=lab-save]").await;
    drop(app);

    let app = mount("#/deck-lab").await;
    assert_eq!(count(&app, "main"), "0");
    app.click("[data-testid=lab-saved][data-name=\"My panda\"] [data-testid=lab-load]")
        .await;
    assert_eq!(count(&app, "main"), "40");
    assert_eq!(count(&app, "extra"), "5");
    assert_eq!(
        app.all("[data-testid=lab-deck-card]").len(),
        app.all("[data-testid=lab-deck-card]")
            .iter()
            .filter(|r| r.get_attribute("data-count").is_some())
            .count()
    );
    app.click("[data-testid=lab-saved][data-name=\"My panda\"] [data-testid=lab-delete]")
        .await;
    assert!(!app.has("[data-testid=lab-saved]"));
    assert_eq!(
        storage().get_item(KEY_DUEL_DECKS).ok().flatten().as_deref(),
        Some("")
    );
}

/// A deck whose cards reach both goals (exodia-deck with a Toon Cannon Soldier) offers
/// the choice; the chosen burn is kept with the saved deck.
#[wasm_bindgen_test]
async fn a_deck_that_can_win_both_ways_plays_for_the_goal_chosen_and_saves_it() {
    reset();
    let app = mount("#/deck-lab").await;
    app.click("[data-testid=lab-from-preset][data-deck=\"exodia-deck\"]")
        .await;
    assert!(!app.has("[data-testid=lab-goal-choice]"));
    app.click("[data-testid=lab-card][data-card-id=\"79875176\"] [data-testid=lab-add]")
        .await;
    assert!(app.has("[data-testid=lab-goal-choice]"));
    assert_eq!(app.attr("[data-testid=lab-goal]", "data-value"), "exodia");
    app.choose("[data-testid=lab-goal-choice]", "burn").await;
    assert_eq!(app.attr("[data-testid=lab-goal]", "data-value"), "burn");
    app.type_into("[data-testid=lab-name]", "both ways").await;
    app.click("[data-testid=lab-save]").await;
    drop(app);

    let app = mount("#/deck-lab").await;
    app.click("[data-testid=lab-saved][data-name=\"both ways\"] [data-testid=lab-load]")
        .await;
    assert_eq!(app.attr("[data-testid=lab-goal]", "data-value"), "burn");
    // Without the Cannon Soldier only Exodia is left, whatever was chosen.
    app.click("[data-testid=lab-deck-card][data-card-id=\"79875176\"] [data-testid=lab-remove]")
        .await;
    assert!(!app.has("[data-testid=lab-goal-choice]"));
    assert_eq!(app.attr("[data-testid=lab-goal]", "data-value"), "exodia");
}

#[wasm_bindgen_test]
async fn an_imported_ydk_lists_the_cards_left_out_and_the_export_holds_what_was_kept() {
    reset();
    let app = mount("#/deck-lab").await;
    // Monster Reborn by its other passcode, an unknown card, a side-deck card.
    let ydk = "#created by a test\n#main\n83764718\n55144522\n12345678\n#extra\n!side\n55144522\n";
    app.type_into("[data-testid=lab-import]", ydk).await;
    app.click("[data-testid=lab-import-go]").await;
    assert!(app.has("[data-testid=lab-deck-card][data-card-id=\"83764719\"]"));
    assert_eq!(count(&app, "main"), "2");
    let left: Vec<String> = app
        .all("[data-testid=lab-left-out]")
        .iter()
        .map(|l| l.text_content().unwrap_or_default())
        .collect();
    assert_eq!(left.len(), 2, "{left:?}");
    assert!(left[0].contains("12345678") && left[0].contains("not implemented"));
    assert!(left[1].contains("side deck"));
    let export = app.text("[data-testid=lab-export]");
    assert!(
        export.contains("#main\n83764719\n55144522\n#extra\n!side"),
        "{export}"
    );

    // A file that is not one says why and keeps the deck.
    app.type_into("[data-testid=lab-import]", "#main\nnot a passcode\n")
        .await;
    app.click("[data-testid=lab-import-go]").await;
    assert!(app.text("[data-testid=lab-notice]").contains("Line 2"));
    assert_eq!(count(&app, "main"), "2");
}

/// A `.ydk` file chosen with the file input, or dropped on the import box, is read like
/// pasted text; the export offers the list as a `.ydk` file named after the deck.
#[wasm_bindgen_test]
async fn a_ydk_file_is_read_when_chosen_or_dropped_and_the_export_is_a_file() {
    reset();
    let app = mount("#/deck-lab").await;
    let ydk = format!("#main\n{}\n#extra\n!side\n", [POT_OF_GREED; 40].join("\n"));
    let file = || {
        let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(&ydk));
        web_sys::File::new_with_str_sequence(&parts, "mine.ydk").expect("a file")
    };
    let transfer = || {
        let data = web_sys::DataTransfer::new().expect("a DataTransfer");
        data.items().add_with_file(&file()).expect("added");
        data
    };

    // Chosen with the file input.
    let input: web_sys::HtmlInputElement = app
        .one("[data-testid=lab-import-file]")
        .dyn_into()
        .expect("an input");
    input.set_files(transfer().files().as_ref());
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    let change = web_sys::Event::new_with_event_init_dict("change", &init).expect("event");
    input.dispatch_event(&change).expect("dispatch");
    assert!(app.wait_for("[data-testid=lab-deck-card]", 5).await);
    // Read as it is, with the copies over the limit said as a problem.
    let row = format!("[data-testid=lab-deck-card][data-card-id=\"{POT_OF_GREED}\"]");
    assert_eq!(app.attr(&row, "data-count"), "40");
    assert!(app.has("[data-testid=lab-problem]"));

    // Dropped on the import box, after starting from empty.
    app.click("[data-testid=lab-empty]").await;
    assert!(!app.has("[data-testid=lab-deck-card]"));
    let drop = web_sys::DragEventInit::new();
    drop.set_bubbles(true);
    drop.set_cancelable(true);
    drop.set_data_transfer(Some(&transfer()));
    let event = web_sys::DragEvent::new_with_event_init_dict("drop", &drop).expect("event");
    app.one("[data-testid=lab-import]")
        .dispatch_event(&event)
        .expect("dispatch");
    assert!(app.wait_for("[data-testid=lab-deck-card]", 5).await);
    assert_eq!(app.attr(&row, "data-count"), "40");
    assert!(
        event.default_prevented(),
        "the browser does not open the file itself"
    );

    // The export as a file: the list's .ydk text, named after the deck.
    app.type_into("[data-testid=lab-name]", "mine").await;
    let link = app.one("[data-testid=lab-export-file]");
    assert_eq!(link.get_attribute("download").as_deref(), Some("mine.ydk"));
    let href = link.get_attribute("href").unwrap_or_default();
    let body = href
        .strip_prefix("data:text/plain;charset=utf-8,")
        .expect("a data address");
    let text = js_sys::decode_uri_component(body)
        .ok()
        .and_then(|t| t.as_string())
        .unwrap_or_default();
    assert_eq!(text, app.text("[data-testid=lab-export]"));
}

#[wasm_bindgen_test]
async fn a_corrupt_saved_deck_is_removed_with_a_notice_and_the_others_kept() {
    reset();
    let good = duel_engine::deck_file::write_ydke(&duel_engine::DeckList::from(
        duel_engine::deck("exodia-deck").expect("preset"),
    ));
    preset(&[(KEY_DUEL_DECKS, &format!("kept\t{good}\ngarbage line\n"))]);
    let app = mount("#/deck-lab").await;
    settle().await;
    assert!(
        app.text("[data-testid=lab-notice]")
            .contains("could not be read")
    );
    assert_eq!(app.all("[data-testid=lab-saved]").len(), 1);
    assert_eq!(
        storage().get_item(KEY_DUEL_DECKS).ok().flatten(),
        Some(format!("kept\t{good}\n"))
    );
}
