//! Browser tests: mount the whole app in headless Chromium and play through the duel UI.
#![cfg(all(target_arch = "wasm32", feature = "duel"))]

use test_seeds::{
    BROKEN_BAMBOO, CARD_OF_DEMISE, CHICKEN_GAME, DARK_FACTORY, GRACEFUL_CHARITY, HAND_DESTRUCTION,
    INTO_THE_VOID, LEFT_LEG, LIBRARY, LIBRARY_WIN, Move, ONE_DAY_OF_PEACE, RIGHT_ARM,
    SEED_CHICKEN_GAME, SEED_GRACEFUL_CHARITY, SEED_HAND_DESTRUCTION, SEED_LIBRARY,
    SEED_LIBRARY_WIN, SEED_SUMMONER_MONK, SUMMONER_MONK, UPSTART_GOBLIN, play_move,
};
use test_seeds::{
    CATAPULT_TURTLE, FIENDS_SANCTUARY, FORMULA_SYNCHRON, HYPER_LIBRARIAN, LUNAR_RABBIT,
    METAL_FIEND_TOKEN, PANDA_SYNCHRO_AT, PANDA_WIN, REASONING, RIGHT_LEG, SCIENTIST_WIN,
    SEED_FIENDS_SANCTUARY, SEED_PANDA_WIN, SEED_SCIENTIST_WIN, STARDUST_CHARGE, TREASURE_PANDA,
};
use test_seeds::{DARK_MAGICIAN_OF_CHAOS, SANGAN, WITCH, trigger_position};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web::duel::save::SaveFile;
use web::storage::{
    KEY_CHAIN_CONFIRM, KEY_DUEL_SAVE, KEY_EXODIA_MID_EFFECT, KEY_LANG, KEY_VOID_COUNTS_ITSELF,
};
use web_sys::{HtmlElement, HtmlSelectElement};
use yew::prelude::*;

wasm_bindgen_test_configure!(run_in_browser);

mod common;
// Each test file uses a different subset of the seeds and scripts.
#[allow(dead_code)]
#[path = "common/seeds.rs"]
mod test_seeds;
use common::{Mounted, clear_keys, mount, mount_component, settle, storage};

impl Mounted {
    fn hand_codes(&self) -> Vec<String> {
        self.card_ids("[data-testid=zone-hand] [data-testid=card]")
    }

    /// Makes one scripted move by clicking, as a player would (see `Move`). Cards the
    /// move revealed are acknowledged in their dialog; returns their passcodes.
    async fn play(&self, mv: Move) -> Vec<String> {
        match mv {
            Move::Activate(code) | Move::Summon(code) => {
                self.click(&hand_card(code)).await;
                let button = if matches!(mv, Move::Summon(_)) {
                    "btn-summon"
                } else {
                    "btn-activate"
                };
                self.click(&format!("[data-testid=card-menu] [data-testid={button}]"))
                    .await;
            }
            Move::Effect(code) => {
                self.click(&field_card(code)).await;
                self.click("[data-testid=field-menu] [data-testid=btn-activate-effect]")
                    .await;
            }
            Move::Synchro(code) => {
                self.click("[data-testid=zone-extraDeck]").await;
                self.click(&synchro_button(code)).await;
            }
            Move::Pick(codes) => {
                for code in codes {
                    self.click(&format!(
                        "[data-testid=effect-dialog] [data-testid=dialog-option][data-card-id='{code}'][aria-pressed=false]"
                    ))
                    .await;
                }
                self.click("[data-testid=dialog-confirm]").await;
            }
            Move::Option(key) => {
                self.click(&format!(
                    "[data-testid=effect-dialog] [data-testid=dialog-option][data-option='{key}']"
                ))
                .await;
            }
            Move::Pass => self.click("[data-testid=btn-pass]").await,
            Move::EndTurn => {
                self.click("[data-testid=btn-end-turn]").await;
                // While actions remain the page asks first (see `end_turn.rs`).
                if self.has("[data-testid=end-turn-confirm]") {
                    self.click("[data-testid=btn-end-turn-confirm]").await;
                }
            }
        }
        assert!(
            !self.has("[data-testid=feedback]"),
            "{mv:?} was refused: {}",
            self.text("[data-testid=feedback]")
        );
        let revealed = self.card_ids("[data-testid=revealed-dialog] [data-testid=card]");
        if self.has("[data-testid=revealed-dialog]") {
            self.click("[data-testid=btn-revealed-ok]").await;
        }
        revealed
    }

    /// Plays moves in order.
    async fn play_all(&self, moves: &[Move]) {
        for &mv in moves {
            self.play(mv).await;
        }
    }

    /// The card element in a monster or spell/trap zone by its printed name (`M1`, `S2`).
    fn slot_card(&self, slot: &str) -> web_sys::Element {
        self.one(&format!("[data-slot='{slot}'] [data-testid=card]"))
    }
}

/// The Synchro Summon button of a monster in the open Extra Deck list.
fn synchro_button(code: u32) -> String {
    format!("[data-testid=list-extraDeck] [data-testid=btn-synchro][data-card-id='{code}']")
}

fn hand_card(code: u32) -> String {
    format!("[data-testid=zone-hand] [data-testid=card][data-card-id='{code}']")
}

/// The first face-up copy on the field (field zone, M1..M5, S1..S5: the engine's order).
fn field_card(code: u32) -> String {
    format!("[data-testid=duel-field] [data-testid=card][data-card-id='{code}']")
}

fn has_class(e: &web_sys::Element, class: &str) -> bool {
    e.get_attribute("class")
        .unwrap_or_default()
        .split_whitespace()
        .any(|c| c == class)
}

fn reset_storage() {
    clear_keys(&[
        KEY_DUEL_SAVE,
        KEY_LANG,
        KEY_CHAIN_CONFIRM,
        KEY_VOID_COUNTS_ITSELF,
        KEY_EXODIA_MID_EFFECT,
    ]);
}

#[wasm_bindgen_test]
async fn home_starts_a_duel_with_an_opening_hand() {
    reset_storage();
    let app = mount("#/").await;
    let select = app.one("[data-testid=deck-select]");
    assert_eq!(
        select
            .dyn_ref::<HtmlSelectElement>()
            .expect("select")
            .value(),
        "exodia-deck"
    );
    assert!(app.disabled("[data-testid=btn-resume]"), "no save yet");
    assert_eq!(app.text("[data-testid=btn-start]"), "決闘開始");
    assert_eq!(app.text("[data-testid=btn-recipe]"), "デッキ確認");
    app.click("[data-testid=btn-start]").await;
    assert_eq!(app.hand_codes().len(), 5);
    assert_eq!(app.text("[data-testid=phase]"), "メインフェイズ");
    assert_eq!(app.text("[data-testid=lp-player]"), "8,000");
    assert_eq!(app.text("[data-testid=lp-opponent]"), "8,000");
    assert!(app.text("[data-testid=hand] h3").contains("手札 (5 枚)"));
    // The seed drawn from entropy was written into the address so a reload replays it.
    let hash = web_sys::window()
        .expect("w")
        .location()
        .hash()
        .expect("hash");
    assert!(hash.starts_with("#/simulator/exodia-deck?seed="), "{hash}");
    // ... and it is the seed of the game that was autosaved.
    let save = storage()
        .get_item(KEY_DUEL_SAVE)
        .expect("get")
        .expect("autosaved");
    let seed: u64 = hash
        .rsplit('=')
        .next()
        .expect("seed")
        .parse()
        .expect("a number");
    let save = SaveFile::from_text(&save).expect("a readable save");
    assert_eq!(save.seed, seed, "{save:?} vs {hash}");
    // The deck is a card back with a count and no identity.
    let deck = app.one("[data-testid=zone-deck]");
    assert!(
        deck.query_selector("[data-testid=card-back]")
            .expect("q")
            .is_some()
    );
    assert!(deck.query_selector("[data-card-id]").expect("q").is_none());
    assert_eq!(app.text("[data-testid=count-deck]"), "35");
}

#[wasm_bindgen_test]
async fn the_chain_confirmation_choice_is_kept_and_saved_with_the_duel() {
    reset_storage();
    let app = mount("#/").await;
    let checkbox = app.one("[data-testid=chain-confirm]");
    assert!(
        checkbox
            .dyn_ref::<web_sys::HtmlInputElement>()
            .expect("input")
            .checked()
    );
    app.click("[data-testid=chain-confirm]").await;
    assert_eq!(
        storage()
            .get_item(KEY_CHAIN_CONFIRM)
            .expect("get")
            .as_deref(),
        Some("off")
    );
    app.click("[data-testid=btn-start]").await;
    let save = storage()
        .get_item(KEY_DUEL_SAVE)
        .expect("get")
        .expect("autosaved");
    let save = SaveFile::from_text(&save).expect("a readable save");
    assert!(!save.settings.chain_confirmation, "{save:?}");
}

/// The engine's Japanese refusal of Into the Void after Graceful Charity and Dark Factory
/// were set from the `SEED_GRACEFUL_CHARITY` hand, under `settings`.
fn into_the_void_refusal(settings: duel_engine::Settings) -> Option<String> {
    use duel_engine::{Command, Duel};
    let mut duel = Duel::with_settings("exodia-deck", SEED_GRACEFUL_CHARITY, settings).ok()?;
    let id_of = |duel: &Duel, code: u32| {
        duel.view()
            .you
            .hand
            .iter()
            .find(|c| c.code == Some(code))
            .map(|c| c.id)
    };
    for code in [GRACEFUL_CHARITY, DARK_FACTORY] {
        let card = id_of(&duel, code)?;
        duel.apply(Command::SetSpellTrap { card }).ok()?;
    }
    let void = id_of(&duel, INTO_THE_VOID)?;
    duel.validate(&Command::ActivateSpell { card: void })
        .err()
        .map(|e| e.message(duel_engine::text::Lang::Ja))
}

#[wasm_bindgen_test]
async fn the_strict_into_the_void_setting_reaches_the_engine() {
    reset_storage();
    let home = mount("#/").await;
    let checkbox = home.one("[data-testid=void-counts-itself]");
    assert!(
        checkbox
            .dyn_ref::<web_sys::HtmlInputElement>()
            .expect("input")
            .checked(),
        "counts itself by default"
    );
    assert!(
        !home
            .one("[data-testid=exodia-mid-effect]")
            .dyn_ref::<web_sys::HtmlInputElement>()
            .expect("input")
            .checked(),
        "Exodia waits for the effect by default"
    );
    home.click("[data-testid=void-counts-itself]").await;
    assert_eq!(
        storage()
            .get_item(KEY_VOID_COUNTS_ITSELF)
            .expect("get")
            .as_deref(),
        Some("off")
    );
    drop(home);

    let app = mount(&format!(
        "#/simulator/exodia-deck?seed={SEED_GRACEFUL_CHARITY}"
    ))
    .await;
    // Two sets leave Into the Void with 2 other cards in hand.
    for code in [GRACEFUL_CHARITY, DARK_FACTORY] {
        app.click(&hand_card(code)).await;
        app.click("[data-testid=card-menu] [data-testid=btn-set]")
            .await;
    }
    assert_eq!(app.hand_codes().len(), 3);
    app.click(&hand_card(INTO_THE_VOID)).await;
    assert!(app.disabled("[data-testid=card-menu] [data-testid=btn-activate]"));
    let strict = duel_engine::Settings {
        into_the_void_counts_itself: false,
        ..duel_engine::Settings::default()
    };
    let expected = into_the_void_refusal(strict).expect("the engine refuses it");
    assert_eq!(
        app.text("[data-testid=card-menu] [data-testid=reason-btn-activate]"),
        expected
    );
    // The same hand under the default ruling may activate it.
    assert_eq!(
        into_the_void_refusal(duel_engine::Settings::default()),
        None
    );
    let save = storage()
        .get_item(KEY_DUEL_SAVE)
        .expect("get")
        .expect("autosaved");
    let save = SaveFile::from_text(&save).expect("a readable save");
    assert!(!save.settings.into_the_void_counts_itself, "{save:?}");
}

#[wasm_bindgen_test]
async fn graceful_charity_draws_three_then_discards_two_through_the_dialog() {
    reset_storage();
    let app = mount(&format!(
        "#/simulator/exodia-deck?seed={SEED_GRACEFUL_CHARITY}"
    ))
    .await;
    // The opening phase changes make no toasts: the header shows the phase, the log
    // keeps them (Draw, Standby, Main).
    assert!(app.all("[data-testid=toast]").is_empty());
    assert_eq!(app.text("[data-testid=phase]"), "メインフェイズ");
    assert_eq!(app.all("[data-testid=log-entry]").len(), 3);
    assert!(app.has(&hand_card(GRACEFUL_CHARITY)));
    app.click(&hand_card(GRACEFUL_CHARITY)).await;
    assert!(app.has("[data-testid=card-menu]"));
    assert!(!app.disabled("[data-testid=card-menu] [data-testid=btn-activate]"));
    app.click("[data-testid=card-menu] [data-testid=btn-activate]")
        .await;

    // Nothing could be chained, so the chain was passed once and nothing was refused.
    assert!(!app.has("[data-testid=feedback]"), "no refused command");
    // Graceful Charity resolved its draw and now asks for 2 discards.
    assert!(
        app.has("[data-testid=effect-dialog]"),
        "the discard prompt is shown"
    );
    assert_eq!(app.text("[data-testid=dialog-counter]"), "選択中: 0 / 2枚");
    assert!(app.disabled("[data-testid=dialog-confirm]"));
    assert_eq!(app.hand_codes().len(), 7, "5 - 1 + 3 cards");
    let options = app.all("[data-testid=effect-dialog] [data-testid=dialog-option]");
    assert_eq!(options.len(), 7);
    for option in options.iter().take(2) {
        option.dyn_ref::<HtmlElement>().expect("button").click();
        settle().await;
    }
    assert_eq!(app.text("[data-testid=dialog-counter]"), "選択中: 2 / 2枚");
    assert!(!app.disabled("[data-testid=dialog-confirm]"));
    app.click("[data-testid=dialog-confirm]").await;

    assert!(!app.has("[data-testid=effect-dialog]"));
    assert_eq!(app.hand_codes().len(), 5);
    assert_eq!(
        app.text("[data-testid=count-graveyard]"),
        "3",
        "the spell and 2 discards"
    );
    assert_eq!(app.text("[data-testid=count-deck]"), "32");
    assert_eq!(app.text("[data-testid=lp-player]"), "8,000");
    // Toasts told the player what happened: one per action, two at most.
    let toasts = app.all("[data-testid=toast]").len();
    assert!((1..=2).contains(&toasts), "{toasts} toasts");
    // The graveyard list opens on click and shows Graceful Charity face-up.
    app.click("[data-testid=zone-graveyard]").await;
    assert!(app.has(&format!(
        "[data-testid=list-graveyard] [data-card-id='{GRACEFUL_CHARITY}']"
    )));
}

#[wasm_bindgen_test]
async fn a_set_spell_is_a_card_back_without_identity_and_monsters_summon_in_attack() {
    reset_storage();
    let app = mount(&format!(
        "#/simulator/exodia-deck?seed={SEED_GRACEFUL_CHARITY}"
    ))
    .await;
    app.click(&hand_card(INTO_THE_VOID)).await;
    app.click("[data-testid=card-menu] [data-testid=btn-set]")
        .await;
    let set = app.all("[data-testid=zone-spellTrapZone] [data-testid=card]");
    assert_eq!(set.len(), 1);
    assert_eq!(set[0].get_attribute("data-face").as_deref(), Some("down"));
    assert!(set[0].get_attribute("data-card-id").is_none());
    assert!(
        set[0]
            .query_selector("[data-testid=card-back]")
            .expect("q")
            .is_some()
    );
    assert!(
        !app.root.inner_html().contains(&INTO_THE_VOID.to_string()),
        "the set card's passcode appears nowhere in the DOM"
    );

    app.click(&hand_card(LEFT_LEG)).await;
    assert!(app.has("[data-testid=card-menu] [data-testid=btn-summon]"));
    assert!(app.has("[data-testid=card-menu] [data-testid=btn-details]"));
    app.click("[data-testid=card-menu] [data-testid=btn-summon]")
        .await;
    let monster = app.one("[data-testid=zone-mainMonsterZone] [data-testid=card]");
    assert_eq!(
        monster.get_attribute("data-position").as_deref(),
        Some("attack")
    );
    assert_eq!(monster.get_attribute("data-face").as_deref(), Some("up"));
    assert_eq!(
        monster.get_attribute("data-card-id"),
        Some(LEFT_LEG.to_string())
    );
    // Dark Factory needs two normal monsters in the graveyard: the engine refuses it and
    // the menu shows its reason beside the disabled button.
    app.click(&hand_card(DARK_FACTORY)).await;
    assert!(app.disabled("[data-testid=card-menu] [data-testid=btn-activate]"));
    assert!(
        !app.text("[data-testid=card-menu] [data-testid=reason-btn-activate]")
            .is_empty()
    );

    assert!(!app.disabled("[data-testid=btn-end-turn]"));
    app.play(Move::EndTurn).await;
    assert!(app.has("[data-testid=game-over]"));
    let over = app.one("[data-testid=game-over]");
    assert_eq!(
        over.get_attribute("data-reason").as_deref(),
        Some("turn-end")
    );
    assert_eq!(over.get_attribute("data-result").as_deref(), Some("lose"));
}

#[wasm_bindgen_test]
async fn a_field_spell_ignition_asks_for_a_mode_and_pays_lp() {
    reset_storage();
    let app = mount(&format!("#/simulator/exodia-deck?seed={SEED_CHICKEN_GAME}")).await;
    app.click(&hand_card(CHICKEN_GAME)).await;
    app.click("[data-testid=card-menu] [data-testid=btn-activate]")
        .await;
    let field = app.one("[data-testid=zone-fieldZone] [data-testid=card]");
    assert_eq!(
        field.get_attribute("data-card-id"),
        Some(CHICKEN_GAME.to_string())
    );
    assert_eq!(app.hand_codes().len(), 4);

    // The field card opens its own menu; its ignition effect is legal now.
    app.click("[data-testid=zone-fieldZone] [data-testid=card]")
        .await;
    assert!(app.has("[data-testid=field-menu]"));
    assert!(!app.disabled("[data-testid=field-menu] [data-testid=btn-activate-effect]"));
    app.click("[data-testid=field-menu] [data-testid=btn-activate-effect]")
        .await;

    // Chicken Game's ignition is modal: the dialog lists the modes as options.
    let options = app.all("[data-testid=effect-dialog] [data-testid=dialog-option]");
    assert_eq!(options.len(), 3, "draw / destroy / opponent gains LP");
    let draw = options
        .iter()
        .find(|o| o.text_content().unwrap_or_default().contains("ドロー"))
        .expect("a draw mode");
    draw.dyn_ref::<HtmlElement>().expect("button").click();
    settle().await;

    assert!(!app.has("[data-testid=effect-dialog]"));
    assert_eq!(app.text("[data-testid=lp-player]"), "7,000");
    assert_eq!(app.hand_codes().len(), 5);
    // Once per turn: the engine now refuses it and the menu says why.
    app.click("[data-testid=zone-fieldZone] [data-testid=card]")
        .await;
    assert!(app.disabled("[data-testid=field-menu] [data-testid=btn-activate-effect]"));
    assert!(app.has("[data-testid=field-menu] [data-testid=reason-btn-activate-effect]"));
}

#[wasm_bindgen_test]
async fn a_set_monster_is_a_face_down_defense_card_back() {
    reset_storage();
    let app = mount(&format!(
        "#/simulator/exodia-deck?seed={SEED_GRACEFUL_CHARITY}"
    ))
    .await;
    app.click(&hand_card(LEFT_LEG)).await;
    app.click("[data-testid=card-menu] [data-testid=btn-set]")
        .await;
    let set = app.one("[data-testid=zone-mainMonsterZone] [data-testid=card]");
    assert_eq!(set.get_attribute("data-face").as_deref(), Some("down"));
    assert_eq!(
        set.get_attribute("data-position").as_deref(),
        Some("defense")
    );
    assert!(set.get_attribute("data-card-id").is_none());
    assert!(
        set.query_selector("[data-testid=card-back]")
            .expect("q")
            .is_some()
    );
    // A spell's menu offers Activate and Set, never Summon.
    app.click(&hand_card(GRACEFUL_CHARITY)).await;
    assert!(app.has("[data-testid=card-menu] [data-testid=btn-activate]"));
    assert!(
        !app.has("[data-testid=card-menu] [data-testid=btn-summon]"),
        "spells offer no Summon"
    );
}

#[wasm_bindgen_test]
async fn a_corrupt_save_shows_a_notice_and_the_game_still_starts() {
    reset_storage();
    storage()
        .set_item(KEY_DUEL_SAVE, "{this is not a save")
        .expect("set");
    let home = mount("#/").await;
    assert!(home.has("[data-testid=save-notice]"));
    assert!(home.disabled("[data-testid=btn-resume]"));
    drop(home);

    storage()
        .set_item(
            KEY_DUEL_SAVE,
            r#"{"version":1,"deck":"exodia-deck","seed":1,"commands":[{"cmd":"summon_monster","card":9999}]}"#,
        )
        .expect("set");
    let app = mount("#/simulator/exodia-deck?seed=1").await;
    assert!(
        app.has("[data-testid=save-notice]"),
        "a save that does not replay is discarded visibly"
    );
    assert_eq!(app.hand_codes().len(), 5);
}

#[wasm_bindgen_test]
async fn reload_resumes_the_autosaved_game() {
    reset_storage();
    let app = mount(&format!(
        "#/simulator/exodia-deck?seed={SEED_GRACEFUL_CHARITY}"
    ))
    .await;
    app.click(&hand_card(INTO_THE_VOID)).await;
    app.click("[data-testid=card-menu] [data-testid=btn-set]")
        .await;
    assert_eq!(app.hand_codes().len(), 4);
    drop(app);

    // "Reload": a fresh mount of the same page without a seed in the address.
    let app = mount("#/simulator/exodia-deck").await;
    assert!(app.has("[data-testid=resume-notice]"));
    assert_eq!(app.hand_codes().len(), 4);
    assert_eq!(
        app.all("[data-testid=zone-spellTrapZone] [data-testid=card]")
            .len(),
        1
    );
    drop(app);

    // Home offers to resume it.
    let home = mount("#/").await;
    assert!(!home.disabled("[data-testid=btn-resume]"));
    home.click("[data-testid=btn-resume]").await;
    assert_eq!(home.hand_codes().len(), 4);
}

#[wasm_bindgen_test]
async fn recipe_lists_cards_and_opens_details_and_language_switches() {
    reset_storage();
    let app = mount("#/recipe/exodia-deck").await;
    assert!(app.all("[data-testid=recipe-card]").len() >= 10);
    app.click(&format!(
        "[data-testid=recipe-card][data-card-id='{GRACEFUL_CHARITY}']"
    ))
    .await;
    assert!(app.text("[data-testid=card-detail]").contains("天使の施し"));
    app.click("[data-testid=btn-lang]").await;
    assert!(
        app.text("[data-testid=card-detail]")
            .contains("Graceful Charity")
    );
    assert_eq!(
        storage().get_item(KEY_LANG).expect("get").as_deref(),
        Some("en")
    );
}

#[wasm_bindgen_test]
async fn bad_routes_and_decks_do_not_crash() {
    reset_storage();
    let app = mount("#/simulator/no-such-deck?seed=abc").await;
    assert!(app.has("[data-testid=start-error]"));
    assert!(!app.has("[data-testid=start-deck-lab]"));
    drop(app);
    // A duel of one's own deck with nothing to deal it from points to the deck lab.
    let app = mount("#/simulator/custom").await;
    assert!(
        app.text("[data-testid=start-error]")
            .contains("デッキ研究所")
    );
    assert_eq!(
        app.attr("[data-testid=start-deck-lab]", "href"),
        "#/deck-lab"
    );
    drop(app);
    let app = mount("#/recipe/no-such-deck").await;
    assert!(app.text("main").contains("そのデッキはありません"));
    drop(app);
    let app = mount("#/what/is/this").await;
    assert!(app.text("main").contains("ページが見つかりません"));
}

#[wasm_bindgen_test]
async fn the_top_bar_and_tab_title_name_the_page() {
    reset_storage();
    let doc = common::document();
    let home = mount("#/").await;
    assert_eq!(home.text("[data-testid=brand]"), "ブラウザゲーム集");
    assert_eq!(doc.title(), "ブラウザゲーム集");
    home.click("[data-testid=btn-lang]").await;
    assert_eq!(home.text("[data-testid=brand]"), "Browser games");
    assert_eq!(doc.title(), "Browser games");
    drop(home);
    reset_storage();

    let duel = mount(&format!(
        "#/simulator/exodia-deck?seed={SEED_GRACEFUL_CHARITY}"
    ))
    .await;
    assert_eq!(
        duel.text("[data-testid=brand]"),
        "ワンターンキル シミュレーター"
    );
    assert_eq!(doc.title(), "ワンターンキル シミュレーター");
    drop(duel);

    if cfg!(feature = "battle-line") {
        let game = mount("#/battle-line").await;
        assert_eq!(game.text("[data-testid=brand]"), "バトルライン");
        assert_eq!(doc.title(), "バトルライン");
    }
    if cfg!(feature = "quantum-gomoku") {
        let game = mount("#/quantum-gomoku").await;
        assert_eq!(game.text("[data-testid=brand]"), "量子五目並べ");
        assert_eq!(doc.title(), "量子五目並べ");
    }
}

#[wasm_bindgen_test]
async fn a_spell_resolving_puts_a_counter_badge_on_royal_magical_library() {
    reset_storage();
    let app = mount(&format!(
        "#/simulator/library-exodia-deck?seed={SEED_LIBRARY}"
    ))
    .await;
    app.play(Move::Summon(LIBRARY)).await;
    let library = app.slot_card("M1");
    assert_eq!(
        library.get_attribute("data-card-id"),
        Some(LIBRARY.to_string())
    );
    assert_eq!(
        library.get_attribute("data-counters"),
        None,
        "no counters yet"
    );
    assert!(!app.has("[data-slot=M1] [data-testid=counter-badge]"));

    app.play(Move::Activate(UPSTART_GOBLIN)).await;
    assert_eq!(
        app.attr("[data-slot=M1] [data-testid=card]", "data-counters"),
        "1"
    );
    assert_eq!(app.text("[data-slot=M1] [data-testid=counter-badge]"), "1");
    assert_eq!(
        app.attr("[data-slot=M1] [data-testid=counter-badge]", "title"),
        "魔力カウンター：1個"
    );
    // Screen readers hear it in the card's own name.
    assert_eq!(
        app.text("[data-slot=M1] [data-testid=card] [data-testid=card-label]"),
        "王立魔法図書館（魔力カウンター：1個）"
    );
    // The engine's message about the counter reached the log.
    assert!(
        app.all("[data-testid=log-entry]")
            .iter()
            .any(|e| e.text_content().unwrap_or_default()
                == "《王立魔法図書館》の魔力カウンター：1個"),
        "the counter message is logged"
    );
    app.play(Move::Activate(BROKEN_BAMBOO)).await;
    assert_eq!(
        app.attr("[data-slot=M1] [data-testid=card]", "data-counters"),
        "2"
    );
    assert_eq!(app.text("[data-slot=M1] [data-testid=counter-badge]"), "2");
}

#[wasm_bindgen_test]
async fn an_equip_names_the_zone_of_its_monster_and_the_monster_shows_a_marker() {
    reset_storage();
    let app = mount(&format!(
        "#/simulator/library-exodia-deck?seed={SEED_LIBRARY}"
    ))
    .await;
    app.play(Move::Summon(LIBRARY)).await;
    assert!(!app.has("[data-testid=equip-marker]"));
    // Library is the only face-up monster: the target is taken without asking.
    app.play(Move::Activate(BROKEN_BAMBOO)).await;
    let sword = app.one(&format!(
        "[data-testid=zone-spellTrapZone] [data-testid=card][data-card-id='{BROKEN_BAMBOO}']"
    ));
    assert_eq!(
        sword.get_attribute("data-equipped-to").as_deref(),
        Some("M1")
    );
    let sword_slot = sword
        .closest("[data-slot]")
        .expect("q")
        .and_then(|z| z.get_attribute("data-slot"))
        .expect("the sword sits in a named zone");
    assert!(sword_slot.starts_with('S'), "{sword_slot}");
    assert_eq!(
        app.text(&format!(
            "[data-slot={sword_slot}] [data-testid=equip-target]"
        )),
        "→M1"
    );
    let marker = app.one("[data-slot=M1] [data-testid=equip-marker]");
    assert_eq!(
        marker.get_attribute("title").as_deref(),
        Some(format!("装備：《折れ竹光》（{sword_slot}）").as_str())
    );
    assert_eq!(marker.text_content().as_deref(), Some("装備"));
    assert_eq!(
        sword
            .query_selector("[data-testid=card-label]")
            .ok()
            .flatten()
            .and_then(|l| l.text_content())
            .as_deref(),
        Some("折れ竹光（M1のモンスターに装備）")
    );
    // The monster itself is not equipped to anything.
    assert_eq!(app.slot_card("M1").get_attribute("data-equipped-to"), None);
    // English names the equip in English.
    app.click("[data-testid=btn-lang]").await;
    assert_eq!(
        app.attr("[data-slot=M1] [data-testid=equip-marker]", "title"),
        format!("Equipped: \"Broken Bamboo Sword\" ({sword_slot})")
    );
}

#[wasm_bindgen_test]
async fn summoner_monk_turns_to_defense_and_the_position_dialog_summons_in_defense() {
    reset_storage();
    let app = mount(&format!(
        "#/simulator/library-exodia-deck?seed={SEED_SUMMONER_MONK}"
    ))
    .await;
    app.play(Move::Summon(SUMMONER_MONK)).await;
    // Its mandatory trigger turned it to Defense Position: face-up, drawn rotated.
    let monk = app.slot_card("M1");
    assert_eq!(
        monk.get_attribute("data-card-id"),
        Some(SUMMONER_MONK.to_string())
    );
    assert_eq!(monk.get_attribute("data-face").as_deref(), Some("up"));
    assert_eq!(
        monk.get_attribute("data-position").as_deref(),
        Some("defense")
    );
    assert!(has_class(&monk, "pos-defense"));
    // The trigger's chain link named the card, in order, in the log.
    let log: Vec<String> = app
        .all("[data-testid=log-entry]")
        .iter()
        .filter_map(|t| t.text_content())
        .collect();
    let activated = log
        .iter()
        .position(|t| t == "チェーン1：《召喚僧サモンプリースト》の効果が発動します（誘発効果）");
    let resolved = log
        .iter()
        .position(|t| t == "チェーン1：《召喚僧サモンプリースト》の効果を解決します");
    assert!(
        matches!((activated, resolved), (Some(a), Some(r)) if a < r),
        "{log:?}"
    );

    app.play(Move::Effect(SUMMONER_MONK)).await;
    app.play(Move::Pick(&[ONE_DAY_OF_PEACE])).await;
    app.play(Move::Pick(&[LIBRARY])).await;
    // The Special Summon asks for the battle position, showing the monster.
    assert_eq!(app.text("[data-testid=effect-dialog] h3"), "表示形式を選ぶ");
    assert_eq!(
        app.attr("[data-testid=dialog-subject]", "data-card-id"),
        LIBRARY.to_string()
    );
    let keys: Vec<String> = app
        .all("[data-testid=effect-dialog] [data-testid=dialog-option]")
        .iter()
        .filter_map(|o| o.get_attribute("data-option"))
        .collect();
    assert_eq!(keys, ["attack", "defense"]);
    app.play(Move::Option("defense")).await;
    assert!(!app.has("[data-testid=effect-dialog]"));
    let library = app.slot_card("M2");
    assert_eq!(
        library.get_attribute("data-card-id"),
        Some(LIBRARY.to_string())
    );
    assert_eq!(library.get_attribute("data-face").as_deref(), Some("up"));
    assert_eq!(
        library.get_attribute("data-position").as_deref(),
        Some("defense")
    );
    assert!(has_class(&library, "pos-defense"));
}

#[wasm_bindgen_test]
async fn the_opponents_graveyard_opens_after_hand_destruction_and_banished_piles_open_too() {
    reset_storage();
    let app = mount(&format!(
        "#/simulator/exodia-deck?seed={SEED_HAND_DESTRUCTION}"
    ))
    .await;
    assert_eq!(app.text("[data-testid=count-opponent-graveyard]"), "0");
    assert_eq!(app.text("[data-testid=count-opponent-banished]"), "0");
    app.play(Move::Activate(HAND_DESTRUCTION)).await;
    app.play(Move::Pick(&[ONE_DAY_OF_PEACE, CARD_OF_DEMISE]))
        .await;
    assert_eq!(app.text("[data-testid=count-opponent-graveyard]"), "2");
    assert_eq!(app.text("[data-testid=count-graveyard]"), "3");

    app.click("[data-testid=zone-opponent-graveyard]").await;
    let list = app.all("[data-testid=list-opponent-graveyard] [data-testid=card]");
    assert_eq!(list.len(), 2);
    for card in &list {
        assert_eq!(card.get_attribute("data-face").as_deref(), Some("up"));
        assert!(
            card.get_attribute("data-card-id").is_some(),
            "public cards show their face"
        );
    }
    assert!(
        app.text("[data-testid=list-opponent-graveyard] h3")
            .contains("相手の墓地")
    );
    app.click("[data-testid=list-opponent-graveyard] .dialog-actions .btn")
        .await;
    assert!(!app.has("[data-testid=list-opponent-graveyard]"));

    app.click("[data-testid=zone-opponent-banished]").await;
    assert!(app.has("[data-testid=list-opponent-banished]"));
    assert!(
        app.all("[data-testid=list-opponent-banished] [data-testid=card]")
            .is_empty()
    );
    app.click("[data-testid=list-opponent-banished] .dialog-actions .btn")
        .await;
    app.click("[data-testid=zone-banished]").await;
    assert!(app.has("[data-testid=list-banished]"));
}

#[wasm_bindgen_test]
async fn ending_the_turn_with_a_quick_play_in_hand_stops_in_the_end_phase() {
    reset_storage();
    let app = mount(&format!(
        "#/simulator/exodia-deck?seed={SEED_HAND_DESTRUCTION}"
    ))
    .await;
    assert!(!app.has("[data-testid=end-phase-hint]"));
    app.play(Move::EndTurn).await;
    assert_eq!(app.text("[data-testid=phase]"), "エンドフェイズ");
    assert!(
        !app.has("[data-testid=game-over]"),
        "the turn is not over yet"
    );
    assert!(app.has("[data-testid=end-phase-hint]"));
    assert!(!app.disabled("[data-testid=btn-end-turn]"));
    // Hand Destruction may still be activated; a monster may not be summoned any more.
    app.click(&hand_card(HAND_DESTRUCTION)).await;
    assert!(!app.disabled("[data-testid=card-menu] [data-testid=btn-activate]"));
    app.click(&hand_card(RIGHT_ARM)).await;
    assert!(app.disabled("[data-testid=card-menu] [data-testid=btn-summon]"));
    assert_eq!(
        app.text("[data-testid=card-menu] [data-testid=reason-btn-summon]"),
        "メインフェイズではありません"
    );
    app.click(&hand_card(RIGHT_ARM)).await;
    // Pressing it again ends the turn.
    app.play(Move::EndTurn).await;
    let over = app.one("[data-testid=game-over]");
    assert_eq!(
        over.get_attribute("data-reason").as_deref(),
        Some("turn-end")
    );
}

#[wasm_bindgen_test]
async fn two_into_the_void_ask_the_order_of_their_end_phase_effects() {
    reset_storage();
    let app = mount(&format!(
        "#/simulator/library-exodia-deck?seed={SEED_LIBRARY}"
    ))
    .await;
    app.play_all(&[
        Move::Summon(LIBRARY),
        Move::Activate(UPSTART_GOBLIN),
        Move::Activate(BROKEN_BAMBOO),
        Move::Activate(INTO_THE_VOID),
        Move::Activate(INTO_THE_VOID),
    ])
    .await;
    assert_eq!(
        app.attr("[data-slot=M1] [data-testid=card]", "data-counters"),
        "3",
        "at most 3"
    );
    app.play(Move::EndTurn).await;
    assert_eq!(
        app.text("[data-testid=effect-dialog] h3"),
        "エンドフェイズの効果：次に適用するものを選ぶ"
    );
    assert_eq!(app.text("[data-testid=dialog-source]"), "ルール");
    let options = app.all("[data-testid=effect-dialog] [data-testid=dialog-option]");
    let keys: Vec<String> = options
        .iter()
        .filter_map(|o| o.get_attribute("data-option"))
        .collect();
    assert_eq!(keys, ["0", "1"]);
    for o in &options {
        assert_eq!(
            o.get_attribute("data-card-id"),
            Some(INTO_THE_VOID.to_string())
        );
    }
    app.play(Move::Option("0")).await;
    let over = app.one("[data-testid=game-over]");
    assert_eq!(
        over.get_attribute("data-reason").as_deref(),
        Some("turn-end")
    );
}

#[wasm_bindgen_test]
async fn library_exodia_deck_plays_to_an_exodia_win_by_clicking() {
    reset_storage();
    let app = mount(&format!(
        "#/simulator/library-exodia-deck?seed={SEED_LIBRARY_WIN}"
    ))
    .await;
    // The same game runs natively beside the page: after every move the page shows the
    // engine's hand and LP, and its log holds every event so far, in order.
    let mut duel = test_seeds::start("library-exodia-deck", SEED_LIBRARY_WIN).expect("starts");
    let mut events = duel.events().to_vec();
    let lp = |n: u32| web::duel::board::duel_header::format_lp(n);
    for (i, &mv) in LIBRARY_WIN.iter().enumerate() {
        app.play(mv).await;
        events.extend(play_move(&mut duel, mv).unwrap_or_else(|e| panic!("move {i}: {e}")));
        let view = duel.view();
        if view.outcome.is_none() {
            let hand: Vec<String> = view
                .you
                .hand
                .iter()
                .filter_map(|c| c.code.map(|x| x.to_string()))
                .collect();
            assert_eq!(app.hand_codes(), hand, "hand after move {i} ({mv:?})");
        }
        assert_eq!(
            app.text("[data-testid=lp-player]"),
            lp(view.you.lp),
            "move {i}"
        );
    }
    let over = app.one("[data-testid=game-over]");
    assert_eq!(over.get_attribute("data-reason").as_deref(), Some("exodia"));
    assert_eq!(over.get_attribute("data-result").as_deref(), Some("win"));
    let logged: Vec<String> = app
        .all("[data-testid=log-entry]")
        .iter()
        .filter_map(|e| e.text_content())
        .collect();
    let expected: Vec<String> = events
        .iter()
        .map(|e| e.message(duel_engine::text::Lang::Ja))
        .collect();
    assert_eq!(logged, expected);
    assert!(
        logged.iter().any(|m| m.starts_with("チェーン1：")),
        "chain links are logged with their number"
    );
}

/// The passcodes an event list revealed from the deck, in order.
fn revealed_codes(events: &[duel_engine::Event]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match e {
            duel_engine::Event::Revealed { cards, .. } => Some(cards),
            _ => None,
        })
        .flatten()
        .map(|c| c.to_string())
        .collect()
}

#[wasm_bindgen_test]
async fn every_deck_can_be_chosen_and_the_recipes_list_the_extra_deck() {
    reset_storage();
    let home = mount("#/").await;
    assert!(
        !home.text("main").contains("未実装"),
        "no deck is announced as unplayable"
    );
    let decks = duel_engine::deck::decks();
    assert_eq!(decks.len(), 5);
    for deck in decks {
        let select = home.one("[data-testid=deck-select]");
        let select = select.dyn_ref::<HtmlSelectElement>().expect("select");
        select.set_value(&deck.id);
        let change = web_sys::Event::new("change").expect("event");
        select.dispatch_event(&change).expect("dispatch");
        settle().await;
        assert_eq!(select.value(), deck.id);
        assert!(!home.disabled("[data-testid=btn-start]"), "{}", deck.id);
    }
    // The last one is the burn deck: it starts.
    home.click("[data-testid=btn-start]").await;
    assert_eq!(home.hand_codes().len(), 5);
    assert_eq!(home.text("[data-testid=count-extraDeck]"), "9");
    drop(home);

    let recipe = mount("#/recipe/panda-exodia-deck").await;
    let listed = recipe.card_ids("[data-testid=recipe-card]");
    for code in [FORMULA_SYNCHRON, HYPER_LIBRARIAN, STARDUST_CHARGE] {
        assert!(listed.contains(&code.to_string()), "{code} in {listed:?}");
    }
    assert!(recipe.text("main").contains("エクストラデッキ (5枚)"));
}

#[wasm_bindgen_test]
async fn a_synchro_summon_by_clicking_refuses_a_wrong_material_set_then_asks_the_position() {
    use duel_engine::{Command, PromptKind, Response};
    reset_storage();
    let app = mount(&format!(
        "#/simulator/panda-exodia-deck?seed={SEED_PANDA_WIN}"
    ))
    .await;
    // Nothing on the field: every Synchro Summon is refused, with the engine's reason.
    assert_eq!(
        app.attr("[data-testid=zone-extraDeck]", "data-ready"),
        "",
        "no Synchro Summon yet"
    );
    app.click("[data-testid=zone-extraDeck]").await;
    let buttons = app.all("[data-testid=list-extraDeck] [data-testid=btn-synchro]");
    assert_eq!(
        buttons.len(),
        5,
        "3 Formula Synchron, the Librarian, Stardust"
    );
    assert!(buttons.iter().all(|b| b.has_attribute("disabled")));
    let reasons = app.all("[data-testid=list-extraDeck] [data-testid=reason-btn-synchro]");
    assert_eq!(reasons.len(), 5);
    let mut duel = test_seeds::start("panda-exodia-deck", SEED_PANDA_WIN).expect("starts");
    let stardust = |duel: &duel_engine::Duel| {
        duel.view()
            .you
            .extra
            .iter()
            .find(|c| c.code == Some(STARDUST_CHARGE))
            .map(|c| c.id)
            .expect("in the Extra Deck")
    };
    let why = duel
        .validate(&Command::SynchroSummon {
            card: stardust(&duel),
        })
        .expect_err("no materials")
        .message(duel_engine::Lang::Ja);
    for reason in &reasons {
        assert_eq!(reason.text_content().as_deref(), Some(why.as_str()));
    }
    app.click("[data-testid=list-extraDeck] .dialog-actions .btn")
        .await;

    // Play up to the Synchro Summon, the engine alongside.
    for (i, &mv) in PANDA_WIN[..PANDA_SYNCHRO_AT].iter().enumerate() {
        app.play(mv).await;
        play_move(&mut duel, mv).unwrap_or_else(|e| panic!("move {i}: {e}"));
    }
    // Treasure Panda, Lunar Rabbit Omajinai (the Tuner) and Right Leg are on the field.
    assert_eq!(
        app.attr("[data-testid=zone-extraDeck]", "data-ready"),
        "true"
    );
    app.click("[data-testid=zone-extraDeck]").await;
    let legal = duel.legal_commands();
    for b in app.all("[data-testid=list-extraDeck] [data-testid=btn-synchro]") {
        let code: u32 = b
            .get_attribute("data-card-id")
            .and_then(|c| c.parse().ok())
            .expect("a passcode");
        let offered = duel.view().you.extra.iter().any(|c| {
            c.code == Some(code) && legal.contains(&Command::SynchroSummon { card: c.id })
        });
        assert_eq!(!b.has_attribute("disabled"), offered, "{code}");
    }
    assert_eq!(app.text(&synchro_button(STARDUST_CHARGE)), "シンクロ召喚");
    app.click(&synchro_button(STARDUST_CHARGE)).await;
    duel.apply(Command::SynchroSummon {
        card: stardust(&duel),
    })
    .expect("legal");
    assert!(!app.has("[data-testid=list-extraDeck]"), "the list closed");
    assert_eq!(
        app.text("[data-testid=dialog-source]"),
        "《スターダスト・チャージ・ウォリアー》"
    );
    assert!(
        app.text("[data-testid=effect-dialog] h3")
            .starts_with("シンクロ素材"),
        "{}",
        app.text("[data-testid=effect-dialog] h3")
    );
    let option = |code: u32| {
        format!("[data-testid=effect-dialog] [data-testid=dialog-option][data-card-id='{code}']")
    };
    // Treasure Panda and Right Leg: Level 5 and no Tuner. Refused, and the dialog says why.
    app.click(&option(TREASURE_PANDA)).await;
    app.click(&option(RIGHT_LEG)).await;
    assert!(app.disabled("[data-testid=dialog-confirm]"));
    let ids = |codes: &[u32]| {
        let view = duel.view();
        let Some(PromptKind::Cards { candidates, .. }) = view.prompt.map(|p| p.kind) else {
            panic!("the material prompt");
        };
        codes
            .iter()
            .map(|&code| {
                candidates
                    .iter()
                    .find(|c| c.code == Some(code))
                    .expect("a candidate")
                    .id
            })
            .collect::<Vec<_>>()
    };
    let refusal = duel
        .validate(&Command::Respond(Response::Cards(ids(&[
            TREASURE_PANDA,
            RIGHT_LEG,
        ]))))
        .expect_err("no Tuner")
        .message(duel_engine::Lang::Ja);
    assert_eq!(app.text("[data-testid=dialog-reason]"), refusal);
    assert!(
        refusal.contains("チューナーがいません"),
        "the reason says what is missing: {refusal}"
    );
    // The material dialog says which monster is the Tuner, in Japanese.
    let rabbit = app.text(&option(LUNAR_RABBIT));
    assert!(
        rabbit.contains("チューナー") && rabbit.contains("魔法使い族"),
        "{rabbit}"
    );
    assert!(!app.text(&option(TREASURE_PANDA)).contains("チューナー"));
    // With the Tuner the Levels add up to 6: accepted.
    app.click(&option(LUNAR_RABBIT)).await;
    assert!(!app.has("[data-testid=dialog-reason]"));
    assert!(!app.disabled("[data-testid=dialog-confirm]"));
    app.click("[data-testid=dialog-confirm]").await;
    assert!(!app.has("[data-testid=feedback]"));
    // Then the battle position of the Synchro monster.
    assert_eq!(app.text("[data-testid=effect-dialog] h3"), "表示形式を選ぶ");
    assert_eq!(
        app.attr("[data-testid=dialog-subject]", "data-card-id"),
        STARDUST_CHARGE.to_string()
    );
    play_move(&mut duel, PANDA_WIN[PANDA_SYNCHRO_AT + 1]).expect("the materials");
    assert_eq!(
        app.text("[data-testid=count-graveyard]"),
        duel.view().you.graveyard.len().to_string()
    );
    for (i, &mv) in PANDA_WIN.iter().enumerate().skip(PANDA_SYNCHRO_AT + 2) {
        app.play(mv).await;
        play_move(&mut duel, mv).unwrap_or_else(|e| panic!("move {i}: {e}"));
    }
    assert!(
        app.all("[data-testid=zone-mainMonsterZone] [data-testid=card]")
            .iter()
            .any(|c| c.get_attribute("data-card-id") == Some(STARDUST_CHARGE.to_string())),
        "Stardust Charge Warrior stands on the field"
    );
    let over = app.one("[data-testid=game-over]");
    assert_eq!(over.get_attribute("data-reason").as_deref(), Some("exodia"));
    assert_eq!(over.get_attribute("data-result").as_deref(), Some("win"));
}

#[wasm_bindgen_test]
async fn a_token_is_drawn_as_a_token_and_vanishes_when_tributed() {
    reset_storage();
    let app = mount(&format!(
        "#/simulator/scientist-catapult-deck?seed={SEED_FIENDS_SANCTUARY}"
    ))
    .await;
    app.play(Move::Activate(FIENDS_SANCTUARY)).await;
    app.play(Move::Option("defense")).await;
    let token = app.slot_card("M1");
    assert_eq!(token.get_attribute("data-token").as_deref(), Some("true"));
    assert_eq!(
        token.get_attribute("data-card-id"),
        Some(METAL_FIEND_TOKEN.to_string())
    );
    assert!(has_class(&token, "frame-token"));
    assert_eq!(
        token.get_attribute("data-position").as_deref(),
        Some("defense")
    );
    // Real cards are not marked.
    assert!(
        app.all("[data-testid=zone-hand] [data-testid=card]")
            .iter()
            .all(|c| !c.has_attribute("data-token"))
    );
    assert_eq!(
        app.text("[data-testid=count-graveyard]"),
        "1",
        "Fiend's Sanctuary"
    );

    // Catapult Turtle Tributes it: the Token vanishes instead of going to the graveyard.
    app.play(Move::Summon(CATAPULT_TURTLE)).await;
    assert!(!app.has("[data-token]"));
    assert_eq!(
        app.slot_card("M1").get_attribute("data-card-id"),
        Some(CATAPULT_TURTLE.to_string())
    );
    assert_eq!(app.text("[data-testid=count-graveyard]"), "1");
    let logged: Vec<String> = app
        .all("[data-testid=log-entry]")
        .iter()
        .filter_map(|e| e.text_content())
        .collect();
    assert!(
        logged
            .iter()
            .any(|m| m == "《メタルデビル・トークン》はフィールドを離れ、消滅します"),
        "{logged:?}"
    );
}

#[wasm_bindgen_test]
async fn reasonings_declared_level_and_revealed_cards_are_shown_before_play_goes_on() {
    reset_storage();
    let app = mount(&format!(
        "#/simulator/scientist-catapult-deck?seed={SEED_SCIENTIST_WIN}"
    ))
    .await;
    let mut duel =
        test_seeds::start("scientist-catapult-deck", SEED_SCIENTIST_WIN).expect("starts");
    assert_eq!(SCIENTIST_WIN[0], Move::Activate(REASONING));
    let events = play_move(&mut duel, SCIENTIST_WIN[0]).expect("Reasoning");
    let level = events
        .iter()
        .find_map(|e| match e {
            duel_engine::Event::LevelDeclared { level, .. } => Some(*level),
            _ => None,
        })
        .expect("a Level is declared");

    app.click(&hand_card(REASONING)).await;
    app.click("[data-testid=card-menu] [data-testid=btn-activate]")
        .await;
    assert!(app.has("[data-testid=revealed-dialog]"));
    assert_eq!(
        app.text("[data-testid=revealed-dialog] h3"),
        "めくられたカード"
    );
    assert_eq!(
        app.text("[data-testid=declared-level]"),
        format!("宣言されたレベル：{level}")
    );
    assert_eq!(
        app.card_ids("[data-testid=revealed-dialog] [data-testid=card]"),
        revealed_codes(&events)
    );
    // The summoned monster's position waits until the player has seen the cards.
    assert!(!app.has("[data-testid=effect-dialog]"));
    assert!(
        app.one("[data-testid=btn-revealed-ok]")
            .has_attribute("autofocus"),
        "the keyboard lands on OK"
    );
    app.click("[data-testid=btn-revealed-ok]").await;
    assert!(!app.has("[data-testid=revealed-dialog]"));
    assert_eq!(app.text("[data-testid=effect-dialog] h3"), "表示形式を選ぶ");
    // In English too.
    app.click("[data-testid=btn-lang]").await;
    assert_eq!(
        app.text("[data-testid=effect-dialog] h3"),
        "Choose the battle position"
    );
}

#[wasm_bindgen_test]
async fn scientist_catapult_deck_burns_the_opponent_to_zero_by_clicking() {
    reset_storage();
    let app = mount(&format!(
        "#/simulator/scientist-catapult-deck?seed={SEED_SCIENTIST_WIN}"
    ))
    .await;
    let mut duel =
        test_seeds::start("scientist-catapult-deck", SEED_SCIENTIST_WIN).expect("starts");
    let lp = |n: u32| web::duel::board::duel_header::format_lp(n);
    let mut burns = 0;
    for (i, &mv) in SCIENTIST_WIN.iter().enumerate() {
        let revealed = app.play(mv).await;
        let events = play_move(&mut duel, mv).unwrap_or_else(|e| panic!("move {i}: {e}"));
        assert_eq!(
            revealed,
            revealed_codes(&events),
            "revealed by move {i} ({mv:?})"
        );
        let view = duel.view();
        assert_eq!(
            app.text("[data-testid=lp-player]"),
            lp(view.you.lp),
            "move {i}"
        );
        assert_eq!(
            app.text("[data-testid=lp-opponent]"),
            lp(view.opponent.lp),
            "move {i}"
        );
        // Burn shows as a drop beside the opponent's LP.
        let damage: u32 = events
            .iter()
            .filter_map(|e| match e {
                duel_engine::Event::Damaged {
                    player: duel_engine::Player::Opponent,
                    amount,
                    ..
                } => Some(*amount),
                _ => None,
            })
            .sum();
        if damage > 0 {
            burns += 1;
            assert_eq!(
                app.text("[data-testid=lp-change-opponent]"),
                web::duel::board::duel_header::format_lp_change(-i64::from(damage)),
                "move {i}"
            );
        }
    }
    assert!(burns >= 5, "{burns} Catapult Turtle shots");
    assert_eq!(app.text("[data-testid=lp-opponent]"), "0");
    let over = app.one("[data-testid=game-over]");
    assert_eq!(over.get_attribute("data-reason").as_deref(), Some("lp0"));
    assert_eq!(over.get_attribute("data-result").as_deref(), Some("win"));
    assert!(
        app.text("[data-testid=game-over]")
            .contains("相手のLPが0になりました"),
        "the message says whose LP reached 0"
    );
    // The Extra Deck still opens once the game-over dialog is closed, and lists what is
    // left of the Fusion monsters.
    app.click("[data-testid=game-over] .dialog-actions .btn")
        .await;
    app.click("[data-testid=zone-extraDeck]").await;
    let left: Vec<String> = duel
        .view()
        .you
        .extra
        .iter()
        .filter_map(|c| c.code.map(|x| x.to_string()))
        .collect();
    assert!(left.len() < 9, "Fusion monsters were used");
    assert_eq!(
        app.card_ids("[data-testid=list-extraDeck] [data-testid=card]"),
        left
    );
    assert!(
        !app.has("[data-testid=list-extraDeck] [data-testid=btn-synchro]"),
        "Fusion monsters offer no Synchro Summon"
    );
}

#[derive(Properties, PartialEq)]
struct DialogHarnessProps {
    duel: duel_engine::Duel,
}

/// The effect dialog over a duel no preset deck deals: it answers the engine's prompts
/// the way the page does and shows every message and any refusal.
#[function_component(DialogHarness)]
fn dialog_harness(props: &DialogHarnessProps) -> Html {
    use duel_engine::Command;
    use web::duel::board::effect_dialog::EffectDialog;
    let duel = use_state(|| props.duel.clone());
    let messages = use_state(Vec::<String>::new);
    let refused = use_state(|| None::<String>);
    let view = duel.view();
    let on_apply = {
        let (duel, messages, refused) = (duel.clone(), messages.clone(), refused.clone());
        Callback::from(move |cmd: Command| {
            let mut next = (*duel).clone();
            match next.apply(cmd) {
                Ok(events) => {
                    let mut all = (*messages).clone();
                    all.extend(events.iter().map(|e| e.message(duel_engine::Lang::Ja)));
                    messages.set(all);
                    duel.set(next);
                }
                Err(e) => refused.set(Some(e.to_string())),
            }
        })
    };
    let on_check = {
        let duel = duel.clone();
        Callback::from(move |cmd: Command| duel.validate(&cmd).err().map(|e| e.to_string()))
    };
    html! {
        <div>
            if let Some(prompt) = view.prompt.clone() {
                <EffectDialog key={duel.log().len()} prompt={Some(prompt)} chain={view.chain.clone()}
                    legal={duel.legal_commands()} on_check={on_check} on_apply={on_apply}
                    on_look_up={Callback::from(|_| web::duel::board::effect_dialog::ResponseCard::default())} />
            }
            <span data-testid="hand-size">{ view.you.hand.len() }</span>
            <ol>{ for messages.iter().map(|m| html! { <li data-testid="message">{ m.clone() }</li> }) }</ol>
            if let Some(r) = &*refused {
                <p data-testid="refused">{ r.clone() }</p>
            }
        </div>
    }
}

#[wasm_bindgen_test]
async fn the_dialog_asks_yes_no_for_an_optional_trigger_and_the_order_of_simultaneous_ones() {
    use duel_engine::Command;
    reset_storage();
    let mut duel = trigger_position().expect("valid setup");
    let dmoc = duel.view().you.hand[0].id;
    // Summoning it Tributes Sangan and Witch: three triggers at once.
    duel.apply(Command::SummonMonster { card: dmoc })
        .expect("two Tributes on the field");
    let app = mount_component::<DialogHarness>(DialogHarnessProps { duel }).await;

    assert_eq!(
        app.text("[data-testid=effect-dialog] h3"),
        "効果を発動しますか？"
    );
    assert_eq!(
        app.text("[data-testid=dialog-source]"),
        "《混沌の黒魔術師》"
    );
    assert_eq!(
        app.attr("[data-testid=dialog-subject]", "data-card-id"),
        DARK_MAGICIAN_OF_CHAOS.to_string()
    );
    let options: Vec<(String, String)> = app
        .all("[data-testid=dialog-option]")
        .iter()
        .map(|o| {
            (
                o.get_attribute("data-option").unwrap_or_default(),
                o.text_content().unwrap_or_default(),
            )
        })
        .collect();
    assert_eq!(
        options,
        [
            ("yes".to_string(), "発動する".to_string()),
            ("no".to_string(), "発動しない".to_string())
        ]
    );
    app.play(Move::Option("yes")).await;

    // The rules ask which of Sangan's and Witch's triggers goes first; options are cards.
    assert_eq!(
        app.text("[data-testid=effect-dialog] h3"),
        "同時に発動する効果：次のチェーンに乗せるものを選ぶ"
    );
    assert_eq!(app.text("[data-testid=dialog-source]"), "ルール");
    let mut cards = app.card_ids("[data-testid=dialog-option]");
    cards.sort();
    let mut expected = vec![SANGAN.to_string(), WITCH.to_string()];
    expected.sort();
    assert_eq!(cards, expected);
    app.click(&format!(
        "[data-testid=dialog-option][data-card-id='{WITCH}']"
    ))
    .await;
    assert!(!app.has("[data-testid=refused]"));

    // Chain link 1 is the Witch, as chosen; both searches then ask for a card.
    let messages: Vec<String> = app
        .all("[data-testid=message]")
        .iter()
        .filter_map(|m| m.text_content())
        .collect();
    assert_eq!(
        messages.first().map(String::as_str),
        Some("チェーン1：《黒き森のウィッチ》の効果が発動します（誘発効果）"),
        "{messages:?}"
    );
    assert_eq!(
        messages.get(1).map(String::as_str),
        Some("チェーン2：《クリッター》の効果が発動します（誘発効果）")
    );
    for _ in 0..2 {
        assert_eq!(
            app.text("[data-testid=effect-dialog] h3"),
            "手札に加えるカードを1枚選ぶ"
        );
        app.click("[data-testid=dialog-option][aria-pressed=false]")
            .await;
        app.click("[data-testid=dialog-confirm]").await;
    }
    assert!(!app.has("[data-testid=effect-dialog]"));
    assert!(!app.has("[data-testid=refused]"));
    assert_eq!(
        app.text("[data-testid=hand-size]"),
        "3",
        "Pot of Greed and two searches"
    );
}
