//! Browser tests of the duel page as a product: messages that do not pile up, motion and
//! its setting, protection against costly clicks, menus that offer only what can be done,
//! dialogs usable from the keyboard, the whole card on hover and long press, rules pages.
#![cfg(all(target_arch = "wasm32", feature = "duel"))]

use duel_engine::view::ChainLinkView;
use duel_engine::{CardId, Command, Duel, Player};
use test_seeds::{
    CHICKEN_GAME, GRACEFUL_CHARITY, HAND_DESTRUCTION, INTO_THE_VOID, SEED_CHICKEN_GAME,
    SEED_GRACEFUL_CHARITY, SEED_HAND_DESTRUCTION,
};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web::duel::board::effect_dialog::{EffectDialog, EffectDialogProps, ResponseCard};
use web::storage::{KEY_CONFIRM_END_TURN, KEY_DUEL_OWN_SAVE, KEY_DUEL_SAVE, KEY_LANG, KEY_MOTION};
use web_sys::{Element, HtmlElement, HtmlInputElement, KeyboardEvent, KeyboardEventInit};
use yew::prelude::*;

wasm_bindgen_test_configure!(run_in_browser);

mod common;
// Each test file uses a different subset of the seeds and scripts.
#[allow(dead_code)]
#[path = "common/seeds.rs"]
mod test_seeds;
use common::{Mounted, clear_keys, document, mount, mount_component, settle, sleep};

/// The app's style sheet, as the page links it: motion, pointer guards and stacking
/// live in CSS, so these tests need it (the test runner's page has none).
fn load_styles() {
    let doc = document();
    if doc.get_element_by_id("app-style").is_some() {
        return;
    }
    let style = doc.create_element("style").expect("style");
    style.set_id("app-style");
    style.set_text_content(Some(include_str!("../style.css")));
    doc.head()
        .expect("head")
        .append_child(&style)
        .expect("append");
}

fn reset_storage() {
    load_styles();
    clear_keys(&[
        KEY_DUEL_SAVE,
        KEY_DUEL_OWN_SAVE,
        KEY_LANG,
        KEY_MOTION,
        KEY_CONFIRM_END_TURN,
    ]);
    // The class follows the setting; a test that turned motion off must not leave it.
    if let Some(root) = document().document_element() {
        let _ = root.class_list().remove_1("motion-off");
    }
}

fn hand_card(code: u32) -> String {
    format!("[data-testid=zone-hand] [data-testid=card][data-card-id='{code}']")
}

/// The `data-testid` of the element that has the keyboard focus.
fn focused() -> String {
    document()
        .active_element()
        .and_then(|e| e.get_attribute("data-testid"))
        .unwrap_or_default()
}

fn press_key(target: &Element, key: &str, shift: bool) {
    let init = KeyboardEventInit::new();
    init.set_key(key);
    init.set_shift_key(shift);
    init.set_bubbles(true);
    init.set_cancelable(true);
    let event = KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).expect("event");
    target.dispatch_event(&event).expect("dispatch");
}

/// Sends a pointer event of the given kind (`mouse`, `touch`) to `target`.
fn pointer(target: &Element, kind: &str, pointer_type: &str) {
    let init = web_sys::PointerEventInit::new();
    init.set_pointer_type(pointer_type);
    init.set_bubbles(true);
    let event = web_sys::PointerEvent::new_with_event_init_dict(kind, &init).expect("event");
    target.dispatch_event(&event).expect("dispatch");
}

/// The running Web Animations of an element (`getAnimations()`, called by name).
fn animations(el: &Element) -> u32 {
    js_sys::Reflect::get(el, &"getAnimations".into())
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
        .and_then(|f| f.call0(el).ok())
        .map_or(0, |list| js_sys::Array::from(&list).length())
}

fn pointer_events(el: &Element) -> String {
    web_sys::window()
        .and_then(|w| w.get_computed_style(el).ok().flatten())
        .and_then(|s| s.get_property_value("pointer-events").ok())
        .unwrap_or_default()
}

async fn activate_from_hand(app: &Mounted, code: u32) {
    app.click(&hand_card(code)).await;
    app.click("[data-testid=card-menu] [data-testid=btn-activate]")
        .await;
}

/// A fresh duel where Graceful Charity was activated and its first two options chosen
/// to discard: it has resolved.
async fn graceful_charity_resolved() -> Mounted {
    reset_storage();
    let app = mount(&format!(
        "#/simulator/exodia-deck?seed={SEED_GRACEFUL_CHARITY}"
    ))
    .await;
    activate_from_hand(&app, GRACEFUL_CHARITY).await;
    for option in app
        .all("[data-testid=effect-dialog] [data-testid=dialog-option]")
        .iter()
        .take(2)
    {
        option.dyn_ref::<HtmlElement>().expect("button").click();
        settle().await;
    }
    app.click("[data-testid=dialog-confirm]").await;
    app
}

#[wasm_bindgen_test]
async fn one_toast_per_action_two_at_most_and_the_log_keeps_every_message() {
    let app = graceful_charity_resolved().await;
    let toasts = app.all("[data-testid=toast]");
    assert!((1..=2).contains(&toasts.len()), "{} toasts", toasts.len());
    let lines = app.all("[data-testid=toast-line]").len();
    assert!(
        lines <= 2 * 3,
        "each toast keeps to three lines, {lines} shown"
    );
    // Everything that happened is in the log, more than the toasts show.
    let log = app.all("[data-testid=log-entry]").len();
    assert!(log > lines, "log {log}, toast lines {lines}");
    // Toasts sit under the dialogs, never over them.
    let z = |selector: &str| -> i32 {
        let el = app.one(selector);
        web_sys::window()
            .and_then(|w| w.get_computed_style(&el).ok().flatten())
            .and_then(|s| s.get_property_value("z-index").ok())
            .and_then(|v| v.parse().ok())
            .unwrap_or(0)
    };
    app.click("[data-testid=zone-graveyard]").await;
    assert!(z("[data-testid=toasts]") < z(".overlay"));
}

#[wasm_bindgen_test]
async fn ending_the_turn_with_actions_left_asks_first_and_dont_ask_again_is_kept() {
    reset_storage();
    let app = mount(&format!("#/simulator/exodia-deck?seed={SEED_CHICKEN_GAME}")).await;
    app.click("[data-testid=btn-end-turn]").await;
    assert!(app.has("[data-testid=end-turn-confirm]"));
    assert!(!app.has("[data-testid=game-over]"), "nothing ended yet");
    // The safe answer is first and has the focus; ending the turn is last.
    let buttons: Vec<String> = app
        .all("[data-testid=end-turn-confirm] .dialog-actions button")
        .iter()
        .filter_map(|b| b.get_attribute("data-testid"))
        .collect();
    assert_eq!(buttons, ["btn-end-turn-cancel", "btn-end-turn-confirm"]);
    assert_eq!(focused(), "btn-end-turn-cancel");
    // Escape keeps playing.
    press_key(&app.one("[data-testid=end-turn-confirm]"), "Escape", false);
    settle().await;
    assert!(!app.has("[data-testid=end-turn-confirm]"));
    assert!(!app.has("[data-testid=game-over]"));

    // Asked again; this time "don't ask again" and end the turn.
    app.click("[data-testid=btn-end-turn]").await;
    app.click("[data-testid=end-turn-dont-ask]").await;
    assert!(
        app.one("[data-testid=end-turn-dont-ask]")
            .dyn_into::<HtmlInputElement>()
            .expect("checkbox")
            .checked()
    );
    app.click("[data-testid=btn-end-turn-confirm]").await;
    assert_eq!(
        app.attr("[data-testid=game-over]", "data-reason"),
        "turn-end"
    );
    assert_eq!(
        common::storage()
            .get_item(KEY_CONFIRM_END_TURN)
            .ok()
            .flatten()
            .as_deref(),
        Some("off")
    );
    drop(app);

    // The next duel ends the turn at once.
    clear_keys(&[KEY_DUEL_SAVE]);
    let app = mount(&format!("#/simulator/exodia-deck?seed={SEED_CHICKEN_GAME}")).await;
    app.click("[data-testid=btn-end-turn]").await;
    assert!(!app.has("[data-testid=end-turn-confirm]"));
    assert!(app.has("[data-testid=game-over]"));
}

#[wasm_bindgen_test]
async fn a_face_up_field_spell_offers_its_effect_only_and_its_destroy_mode_comes_last() {
    reset_storage();
    let app = mount(&format!("#/simulator/exodia-deck?seed={SEED_CHICKEN_GAME}")).await;
    activate_from_hand(&app, CHICKEN_GAME).await;
    app.click("[data-testid=zone-fieldZone] [data-testid=card]")
        .await;
    // No disabled 「発動」 with an explanation beside the one usable action.
    assert!(app.has("[data-testid=field-menu] [data-testid=btn-activate-effect]"));
    assert!(!app.has("[data-testid=field-menu] [data-testid=btn-activate]"));
    assert!(!app.has("[data-testid=field-menu] [data-testid=reason-btn-activate]"));
    assert_eq!(app.attr("[data-testid=field-menu]", "data-slot"), "F");
    // The menu took the focus, on its first entry; Escape closes it.
    assert_eq!(focused(), "btn-activate-effect");
    app.click("[data-testid=field-menu] [data-testid=btn-activate-effect]")
        .await;
    let options: Vec<String> = app
        .all("[data-testid=effect-dialog] [data-testid=dialog-option]")
        .iter()
        .filter_map(|o| o.text_content())
        .collect();
    assert_eq!(options.len(), 3);
    assert!(
        options.last().is_some_and(|o| o.contains("破壊")),
        "destroying the card itself is the last choice: {options:?}"
    );
}

#[wasm_bindgen_test]
async fn chain_responses_name_their_card_and_zone() {
    reset_storage();
    let duel = Duel::new("exodia-deck", SEED_HAND_DESTRUCTION).expect("playable deck");
    let view = duel.view();
    let quick = view
        .you
        .hand
        .iter()
        .find(|c| c.code == Some(HAND_DESTRUCTION))
        .expect("Hand Destruction in hand")
        .id;
    let link = ChainLinkView {
        number: 1,
        card: view.you.hand[0],
        player: Player::You,
    };
    let set_card = CardId(999);
    // A second copy of Hand Destruction in the hand: the same response, offered once.
    let copy = CardId(998);
    let props = EffectDialogProps {
        prompt: None,
        chain: vec![link],
        legal: vec![
            Command::ActivateSpell { card: quick },
            Command::ActivateSpell { card: copy },
            Command::ActivateSpell { card: set_card },
            Command::PassChain,
        ],
        on_check: Callback::from(|_| None),
        on_apply: Callback::noop(),
        on_look_up: Callback::from(move |id: CardId| {
            if id == quick || id == copy {
                ResponseCard {
                    code: Some(HAND_DESTRUCTION),
                    slot: None,
                }
            } else {
                ResponseCard {
                    code: None,
                    slot: Some("S2".to_owned()),
                }
            }
        }),
        // The hint names the other copy: the one button offered is its suggestion.
        hint: Some(Command::ActivateSpell { card: copy }),
    };
    let dialog = mount_component::<EffectDialog>(props).await;
    let options = dialog.all("[data-testid=dialog-option]");
    assert_eq!(options.len(), 2, "one button per distinct card");
    assert_eq!(
        focused(),
        "btn-pass",
        "Enter on the question chains nothing: 「チェーンしない」 has the focus"
    );
    assert_eq!(
        options[0].get_attribute("data-suggested").as_deref(),
        Some("true")
    );
    assert!(options[1].get_attribute("data-suggested").is_none());
    assert_eq!(
        options[0].get_attribute("data-card-id"),
        Some(HAND_DESTRUCTION.to_string())
    );
    assert_eq!(options[1].get_attribute("data-slot").as_deref(), Some("S2"));
    assert!(
        options[1].get_attribute("data-card-id").is_none(),
        "a set card stays unnamed"
    );
    assert!(
        options[1].text_content().unwrap_or_default().contains("S2"),
        "its label says where it is"
    );
    // The dialog has a name for assistive technology.
    let title_id = dialog.attr("[data-testid=effect-dialog]", "aria-labelledby");
    assert!(dialog.has(&format!("#{title_id}")));
}

#[wasm_bindgen_test]
async fn dialogs_take_the_focus_keep_tab_inside_and_close_with_escape() {
    reset_storage();
    let app = mount(&format!(
        "#/simulator/exodia-deck?seed={SEED_GRACEFUL_CHARITY}"
    ))
    .await;
    let pile = app.one("[data-testid=zone-graveyard]");
    pile.dyn_ref::<HtmlElement>()
        .expect("button")
        .focus()
        .expect("focus");
    app.click("[data-testid=zone-graveyard]").await;
    let list = app.one("[data-testid=list-graveyard]");
    assert!(list.contains(document().active_element().as_ref().map(|e| e.as_ref())));
    // Tab from the last control comes back to the first (an empty graveyard: only Close).
    press_key(&list, "Tab", false);
    assert!(list.contains(document().active_element().as_ref().map(|e| e.as_ref())));
    press_key(&list, "Tab", true);
    assert!(list.contains(document().active_element().as_ref().map(|e| e.as_ref())));
    press_key(&list, "Escape", false);
    settle().await;
    assert!(!app.has("[data-testid=list-graveyard]"));
    assert_eq!(
        focused(),
        "zone-graveyard",
        "the focus went back to the pile"
    );

    // The hand's menu: opened from the keyboard it focuses its first entry; arrows move;
    // Escape closes it and gives the focus back to the card.
    app.click(&hand_card(GRACEFUL_CHARITY)).await;
    assert_eq!(focused(), "btn-activate");
    let menu = app.one("[data-testid=card-menu]");
    press_key(&menu, "ArrowDown", false);
    assert_eq!(focused(), "btn-set");
    press_key(&menu, "Escape", false);
    settle().await;
    assert!(!app.has("[data-testid=card-menu]"));
    assert_eq!(focused(), "card");
}

#[wasm_bindgen_test]
async fn cards_move_lp_count_and_the_motion_setting_stops_both() {
    reset_storage();
    let app = mount(&format!("#/simulator/exodia-deck?seed={SEED_CHICKEN_GAME}")).await;
    activate_from_hand(&app, CHICKEN_GAME).await;
    // The field spell glided from the hand to its zone.
    let field = app.one("[data-testid=zone-fieldZone] [data-testid=card]");
    assert!(animations(&field) > 0, "the card is moving");
    sleep(400).await;
    assert_eq!(animations(&field), 0, "and has arrived");

    // Paying 1000 LP: the LP count down, while the element tests and screen readers read
    // already holds the new value.
    app.click("[data-testid=zone-fieldZone] [data-testid=card]")
        .await;
    app.click("[data-testid=field-menu] [data-testid=btn-activate-effect]")
        .await;
    app.click("[data-testid=effect-dialog] [data-testid=dialog-option][data-option='0']")
        .await;
    assert_eq!(app.text("[data-testid=lp-player]"), "7,000");
    assert!(app.has(".lp-count"), "the count is running");
    // The card it drew is coming out of the deck (the others stayed where they were).
    let moving: Vec<u32> = app
        .all("[data-testid=zone-hand] [data-testid=card]")
        .iter()
        .map(animations)
        .collect();
    assert_eq!(moving.len(), 5);
    assert_eq!(moving.iter().filter(|&&n| n > 0).count(), 1, "{moving:?}");
    sleep(800).await;
    assert!(!app.has(".lp-count"), "the count has finished");
    drop(app);

    // Motion off: the page is marked and nothing moves or counts.
    reset_storage();
    let home = mount("#/").await;
    home.click("[data-testid=pref-motion]").await;
    let root = document().document_element().expect("html");
    assert!(root.class_list().contains("motion-off"));
    drop(home);
    clear_keys(&[KEY_DUEL_SAVE]);
    let app = mount(&format!("#/simulator/exodia-deck?seed={SEED_CHICKEN_GAME}")).await;
    activate_from_hand(&app, CHICKEN_GAME).await;
    let field = app.one("[data-testid=zone-fieldZone] [data-testid=card]");
    assert_eq!(animations(&field), 0);
    app.click("[data-testid=zone-fieldZone] [data-testid=card]")
        .await;
    app.click("[data-testid=field-menu] [data-testid=btn-activate-effect]")
        .await;
    app.click("[data-testid=effect-dialog] [data-testid=dialog-option][data-option='0']")
        .await;
    assert!(!app.has(".lp-count"));
    reset_storage();
}

#[wasm_bindgen_test]
async fn a_card_gone_to_the_graveyard_flies_into_it() {
    // Graceful Charity resolves once two cards are chosen to discard, then goes to the
    // graveyard: a copy of its face (and of each discarded card) is on its way there,
    // outside the page's own elements.
    let app = graceful_charity_resolved().await;
    assert_eq!(app.text("[data-testid=count-graveyard]"), "3");
    let ghosts = document()
        .query_selector_all("[data-testid=card-ghost]")
        .expect("selector")
        .length();
    assert!(ghosts > 0, "a card flies into the graveyard");
    sleep(450).await;
    let ghosts = document()
        .query_selector_all("[data-testid=card-ghost]")
        .expect("selector")
        .length();
    assert_eq!(ghosts, 0, "and is gone once it has arrived");
}

#[wasm_bindgen_test]
async fn the_turn_buttons_and_new_dialogs_ignore_the_pointer_for_a_moment() {
    reset_storage();
    let app = mount(&format!("#/simulator/exodia-deck?seed={SEED_CHICKEN_GAME}")).await;
    sleep(450).await;
    let end_turn = app.one("[data-testid=btn-end-turn]");
    assert_eq!(pointer_events(&end_turn), "auto");
    activate_from_hand(&app, CHICKEN_GAME).await;
    // Right after an action, a double click's second press cannot end the turn...
    assert_eq!(
        pointer_events(&app.one("[data-testid=btn-end-turn]")),
        "none"
    );
    app.click("[data-testid=zone-fieldZone] [data-testid=card]")
        .await;
    // ... nor hit the menu that just opened under the pointer.
    assert_eq!(pointer_events(&app.one("[data-testid=field-menu]")), "none");
    sleep(450).await;
    assert_eq!(pointer_events(&app.one("[data-testid=field-menu]")), "auto");
    assert_eq!(
        pointer_events(&app.one("[data-testid=btn-end-turn]")),
        "auto"
    );
}

#[wasm_bindgen_test]
async fn the_whole_card_shows_on_hover_and_its_details_on_a_long_press() {
    reset_storage();
    let app = mount(&format!(
        "#/simulator/exodia-deck?seed={SEED_GRACEFUL_CHARITY}"
    ))
    .await;
    let card = app.one(&hand_card(GRACEFUL_CHARITY));
    pointer(&card, "pointerover", "mouse");
    settle().await;
    let preview = app.text("[data-testid=card-preview]");
    assert!(preview.contains("天使の施し"), "{preview}");
    assert!(preview.contains("3枚"), "the whole text: {preview}");
    pointer(&app.one("[data-testid=simulator]"), "pointerleave", "mouse");
    settle().await;
    assert!(!app.has("[data-testid=card-preview]"));

    // A finger resting on the card opens its details.
    pointer(&card, "pointerdown", "touch");
    sleep(650).await;
    settle().await;
    assert!(app.has("[data-testid=card-detail]"));
    // A short tap does not.
    app.click("[data-testid=card-detail] .dialog-actions button")
        .await;
    pointer(&card, "pointerdown", "touch");
    pointer(&card, "pointerup", "touch");
    sleep(650).await;
    assert!(!app.has("[data-testid=card-detail]"));
}

#[wasm_bindgen_test]
async fn the_header_names_the_phase_in_japanese() {
    reset_storage();
    let app = mount(&format!(
        "#/simulator/exodia-deck?seed={SEED_GRACEFUL_CHARITY}"
    ))
    .await;
    let header = app.text(".duel-header .stats");
    assert!(header.starts_with("フェイズ:"), "{header}");
    assert!(!header.contains("Now"), "{header}");
}

#[wasm_bindgen_test]
async fn every_game_links_to_its_rules_page_in_both_languages() {
    reset_storage();
    let app = mount(&format!(
        "#/simulator/exodia-deck?seed={SEED_GRACEFUL_CHARITY}"
    ))
    .await;
    assert_eq!(app.attr("[data-testid=link-help]", "href"), "#/help/duel");
    drop(app);
    for (route, topic) in [
        ("#/battle-line", "battle-line"),
        ("#/quantum-gomoku", "quantum-gomoku"),
    ] {
        let page = mount(route).await;
        assert_eq!(
            page.attr("[data-testid=link-help]", "href"),
            format!("#/help/{topic}")
        );
        drop(page);
    }
    let help = mount("#/help/duel").await;
    assert_eq!(help.attr("[data-testid=help]", "data-topic"), "duel");
    let terms: Vec<String> = help
        .all("[data-testid=glossary-term]")
        .iter()
        .filter_map(|t| t.text_content())
        .collect();
    for term in ["チェーン", "コスト", "誘発効果", "タイミングを逃す", "誓約"]
    {
        assert!(terms.iter().any(|t| t == term), "{term} in {terms:?}");
    }
    help.click("[data-testid=btn-lang]").await;
    let terms: Vec<String> = help
        .all("[data-testid=glossary-term]")
        .iter()
        .filter_map(|t| t.text_content())
        .collect();
    assert!(terms.iter().any(|t| t == "Missing the timing"), "{terms:?}");
    assert_eq!(help.text("[data-testid=brand]"), "One-Turn Kill Simulator");
    drop(help);
    clear_keys(&[KEY_LANG]);
    let bl = mount("#/help/battle-line").await;
    assert!(bl.text("[data-testid=help]").contains("ウェッジ"));
    drop(bl);
    let qg = mount("#/help/quantum-gomoku").await;
    assert!(qg.text("[data-testid=help]").contains("観測"));
}

/// The codes of the hand's cards, in order.
fn hand_codes(app: &Mounted) -> Vec<String> {
    app.card_ids("[data-testid=zone-hand] [data-testid=card]")
}

/// Whether a tap at the middle of `el` lands on it (nothing, such as a dialog's overlay,
/// lies over it).
fn tappable(el: &Element) -> bool {
    let r = el.get_bounding_client_rect();
    let (x, y) = (r.left() + r.width() / 2.0, r.top() + r.height() / 2.0);
    r.width() > 0.0
        && document()
            .element_from_point(x as f32, y as f32)
            .is_some_and(|hit| el.contains(Some(&hit)))
}

#[wasm_bindgen_test]
async fn the_focus_goes_back_to_what_opened_a_dialog() {
    reset_storage();
    let app = mount(&format!(
        "#/simulator/exodia-deck?seed={SEED_GRACEFUL_CHARITY}"
    ))
    .await;
    // A hand card opens its menu, the menu's 「詳細」 the card's details: the menu is gone
    // when the details close, so the focus goes back to the card that opened it.
    let card = app.one(&hand_card(INTO_THE_VOID));
    card.dyn_ref::<HtmlElement>()
        .expect("button")
        .focus()
        .expect("focus");
    app.click(&hand_card(INTO_THE_VOID)).await;
    app.click("[data-testid=card-menu] [data-testid=btn-details]")
        .await;
    let detail = app.one("[data-testid=card-detail]");
    assert!(detail.contains(document().active_element().as_ref().map(|e| e.as_ref())));
    press_key(&detail, "Escape", false);
    settle().await;
    assert!(!app.has("[data-testid=card-detail]"));
    assert_eq!(
        document().active_element().as_ref(),
        Some(&app.one(&hand_card(INTO_THE_VOID))),
        "back on the card whose menu opened the details, not on <body>"
    );

    // A card that leaves the hand (Graceful Charity, played): once its dialog is answered
    // the focus lands in the hand again, never on <body>.
    let charity = app.one(&hand_card(GRACEFUL_CHARITY));
    charity
        .dyn_ref::<HtmlElement>()
        .expect("button")
        .focus()
        .expect("focus");
    activate_from_hand(&app, GRACEFUL_CHARITY).await;
    for option in app
        .all("[data-testid=effect-dialog] [data-testid=dialog-option]")
        .iter()
        .take(2)
    {
        option.dyn_ref::<HtmlElement>().expect("button").click();
        settle().await;
    }
    app.click("[data-testid=dialog-confirm]").await;
    assert!(!app.has("[data-testid=effect-dialog]"));
    let now = document().active_element().expect("focus");
    assert!(
        app.one("[data-testid=zone-hand]").contains(Some(&now)),
        "the focus is in the hand: {}",
        now.outer_html()
    );
}

#[wasm_bindgen_test]
async fn undo_and_redo_stay_reachable_while_a_dialog_is_open() {
    reset_storage();
    let app = mount(&format!(
        "#/simulator/exodia-deck?seed={SEED_GRACEFUL_CHARITY}"
    ))
    .await;
    activate_from_hand(&app, GRACEFUL_CHARITY).await;
    // Graceful Charity waits for its discards in a dialog over the page.
    assert!(app.has("[data-testid=effect-dialog]"));
    let undo = app.one("[data-testid=btn-undo]");
    assert!(!undo.has_attribute("disabled"));
    assert!(
        tappable(&undo),
        "a tap reaches 「元に戻す」 above the dialog"
    );
    // The keyboard reaches it too: Tab from the dialog's last control.
    let dialog = app.one("[data-testid=effect-dialog]");
    app.one("[data-testid=dialog-confirm]")
        .dyn_ref::<HtmlElement>()
        .expect("button")
        .focus()
        .ok();
    for _ in 0..12 {
        if focused() == "btn-undo" {
            break;
        }
        press_key(&dialog, "Tab", false);
    }
    assert_eq!(
        focused(),
        "btn-undo",
        "Tab cycles through the dialog and undo"
    );
    app.click("[data-testid=btn-undo]").await;
    assert!(
        !app.has("[data-testid=effect-dialog]"),
        "the activation was taken back"
    );
    assert!(hand_codes(&app).contains(&GRACEFUL_CHARITY.to_string()));

    // Redo leads back into the choice; undo is reachable again from there.
    let redo = app.one("[data-testid=btn-redo]");
    assert!(tappable(&redo));
    app.click("[data-testid=btn-redo]").await;
    assert!(
        app.has("[data-testid=effect-dialog]"),
        "back in the discard choice"
    );
    let undo = app.one("[data-testid=btn-undo]");
    assert!(!undo.has_attribute("disabled"));
    assert!(tappable(&undo), "still above the dialog");
    assert!(
        !tappable(&app.one("[data-testid=phase]")),
        "the rest of the page stays under the dialog"
    );
}

#[wasm_bindgen_test]
async fn retry_this_hand_deals_the_same_cards_on_the_page_and_after_the_duel() {
    reset_storage();
    let app = mount(&format!(
        "#/simulator/exodia-deck?seed={SEED_GRACEFUL_CHARITY}"
    ))
    .await;
    let dealt = hand_codes(&app);
    assert_eq!(dealt.len(), 5);
    app.click(&hand_card(INTO_THE_VOID)).await;
    app.click("[data-testid=card-menu] [data-testid=btn-set]")
        .await;
    assert_eq!(hand_codes(&app).len(), 4);
    app.click("[data-testid=practice-bar] [data-testid=btn-retry-hand]")
        .await;
    assert_eq!(hand_codes(&app), dealt, "the same deal, from its start");
    assert!(app.disabled("[data-testid=btn-undo]"), "nothing played yet");
    assert!(
        app.all("[data-testid=zone-spellTrapZone] [data-testid=card]")
            .is_empty()
    );

    // The game-over dialog offers the same deal too (besides a new one).
    app.click("[data-testid=btn-end-turn]").await;
    app.click("[data-testid=btn-end-turn-confirm]").await;
    assert!(app.has("[data-testid=game-over]"));
    app.click("[data-testid=game-over] [data-testid=btn-retry-hand]")
        .await;
    assert!(!app.has("[data-testid=game-over]"));
    assert_eq!(hand_codes(&app), dealt);
    assert!(
        window_hash().contains(&format!("seed={SEED_GRACEFUL_CHARITY}")),
        "the address keeps the seed"
    );
}

fn window_hash() -> String {
    common::window().location().hash().unwrap_or_default()
}

#[wasm_bindgen_test]
async fn a_new_duel_shows_no_resume_notice_and_a_reload_does() {
    reset_storage();
    let home = mount("#/").await;
    home.click("[data-testid=btn-start]").await;
    // The page writes the drawn seed into the address, which opens the page again.
    sleep(200).await;
    settle().await;
    assert_eq!(hand_codes(&home).len(), 5);
    assert!(window_hash().contains("seed="));
    assert!(
        !home.has("[data-testid=resume-notice]"),
        "a brand-new duel is not a resumed one"
    );
    let hash = window_hash();
    drop(home);
    // A reload of that address really resumes the autosave: now the notice shows.
    let again = mount(&hash).await;
    assert_eq!(hand_codes(&again).len(), 5);
    assert!(again.has("[data-testid=resume-notice]"));
}

#[wasm_bindgen_test]
async fn a_link_to_another_duel_asks_before_dropping_an_unfinished_one() {
    reset_storage();
    let app = mount(&format!(
        "#/simulator/exodia-deck?seed={SEED_GRACEFUL_CHARITY}"
    ))
    .await;
    app.click(&hand_card(INTO_THE_VOID)).await;
    app.click("[data-testid=card-menu] [data-testid=btn-set]")
        .await;
    drop(app);
    // Another seed's link: the unfinished duel is not dropped silently.
    let other = mount("#/simulator/exodia-deck?seed=2").await;
    assert!(other.has("[data-testid=drop-save-confirm]"));
    assert_eq!(
        focused(),
        "btn-drop-save-cancel",
        "keeping it is the safe answer"
    );
    assert!(
        common::storage()
            .get_item(KEY_DUEL_SAVE)
            .ok()
            .flatten()
            .is_some(),
        "nothing dropped yet"
    );
    // Keeping it opens the saved duel, as it was.
    other.click("[data-testid=btn-drop-save-cancel]").await;
    sleep(100).await;
    settle().await;
    assert!(window_hash().contains(&format!("seed={SEED_GRACEFUL_CHARITY}")));
    assert_eq!(hand_codes(&other).len(), 4);
    drop(other);
    // Asked again, this time the link's duel starts and the old one is gone.
    let other = mount("#/simulator/exodia-deck?seed=2").await;
    other.click("[data-testid=btn-drop-save-confirm]").await;
    assert!(!other.has("[data-testid=drop-save-confirm]"));
    assert_eq!(hand_codes(&other).len(), 5);
    assert!(window_hash().contains("seed=2"));
}

#[wasm_bindgen_test]
async fn the_graveyard_shows_its_top_card() {
    reset_storage();
    let app = mount(&format!(
        "#/simulator/exodia-deck?seed={SEED_GRACEFUL_CHARITY}"
    ))
    .await;
    assert!(!app.has("[data-testid=pile-top]"), "an empty graveyard");
    drop(app);
    // Graceful Charity discards two cards, then goes to the graveyard itself: on top.
    let app = graceful_charity_resolved().await;
    assert_eq!(
        app.attr(
            "[data-testid=zone-graveyard] [data-testid=pile-top]",
            "data-top-card"
        ),
        GRACEFUL_CHARITY.to_string()
    );
    assert!(
        app.text("[data-testid=zone-graveyard]")
            .contains("天使の施し")
    );
}
