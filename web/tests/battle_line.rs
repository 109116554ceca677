//! Browser tests of the Battle Line page: tap to play and move, bot turns and levels, claims, pass-and-play, saves.
#![cfg(all(target_arch = "wasm32", feature = "battle-line"))]

use battle_line::bot::{Bot, Level, Thinker, Thought, move_seed};
use battle_line::{
    Card, ClaimRefusal, Command, Game, GameRecord, Phase, Player, RuleError, Settings, Tactic,
    Target,
};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web::battle_line::state::{
    BattleSave, KEY_LEVEL, KEY_SAVE, Mode, SAVE_VERSION, bot_line_until, card_id,
};
use web::battle_line::text;
use web::i18n::Lang;
use web::storage::KEY_LANG;

wasm_bindgen_test_configure!(run_in_browser);

mod common;
use common::{Mounted, clear_keys, preset, settle, sleep, storage};

/// Mounts the app at `hash` with a clean localStorage (Japanese UI) unless `save` is
/// given. The computer plays `easy` (fast and fixed) unless a test picks a level.
async fn mount(hash: &str, save: Option<&str>) -> Mounted {
    clear_keys(&[KEY_SAVE, KEY_LANG]);
    preset(&[(KEY_LEVEL, "easy")]);
    if let Some(json) = save {
        preset(&[(KEY_SAVE, json)]);
    }
    common::mount(hash).await
}

/// Picks `value` in the `<select>` matching `selector`, as a user would.
async fn choose(m: &Mounted, selector: &str, value: &str) {
    let select: web_sys::HtmlSelectElement = m.one(selector).dyn_into().expect("a select");
    select.set_value(value);
    select
        .dispatch_event(&web_sys::Event::new("change").expect("event"))
        .expect("dispatch");
    settle().await;
}

fn selected(m: &Mounted, selector: &str) -> String {
    m.one(selector)
        .dyn_into::<web_sys::HtmlSelectElement>()
        .expect("a select")
        .value()
}

impl Mounted {
    /// Waits (up to ~8 s) for the computer to finish its turn.
    async fn wait_for_my_turn(&self) {
        self.wait_for_my_turn_up_to(80).await;
    }

    /// Waits up to `polls` × 100 ms for the computer to finish its turn.
    async fn wait_for_my_turn_up_to(&self, polls: usize) {
        for _ in 0..polls {
            if self.has("[data-testid=hand]")
                && self.has("[data-testid=prompt]")
                && !self
                    .one("[data-testid=prompt]")
                    .text_content()
                    .unwrap_or_default()
                    .contains("コンピューター")
            {
                return;
            }
            sleep(100).await;
            settle().await;
        }
        panic!("the computer did not finish its turn");
    }
}

/// A save of a reachable position (bot against bot) where `wanted` holds on P0's turn.
fn fixture(mode: Mode, wanted: impl Fn(&Game) -> bool) -> (String, Game) {
    for seed in 1..40 {
        if let Some(record) = bot_line_until(seed, Settings::default(), 300, &wanted) {
            let game = Game::replay(&record).expect("replays");
            return (save_json(mode, record), game);
        }
    }
    panic!("no fixture position found");
}

fn save_json(mode: Mode, record: GameRecord) -> String {
    BattleSave {
        version: SAVE_VERSION,
        mode,
        record,
    }
    .to_json()
    .expect("json")
}

#[wasm_bindgen_test]
async fn play_move_end_turn_and_earlier_cards_do_not_react() {
    let m = mount("#/battle-line?seed=7", None).await;
    assert!(
        m.one("[data-testid=seed]")
            .text_content()
            .unwrap_or_default()
            .contains('7')
    );
    m.click("[data-testid=mode-cpu]").await;
    assert_eq!(m.all("[data-testid=hand-card]").len(), 7);

    // Play: tap a hand card, then the slot.
    let card = m.card_ids("[data-testid=hand-card]")[0].clone();
    m.click(&format!("[data-testid=hand-card][data-card-id='{card}']"))
        .await;
    assert!(m.has("[data-testid=hand-card].bl-selected"));
    m.click("[data-testid=slot-0-0]").await;
    assert_eq!(
        m.card_ids("[data-testid=slot-0-0] [data-testid=card]"),
        vec![card.clone()]
    );
    assert_eq!(m.all("[data-testid=hand-card]").len(), 6);

    // Move this turn's card to another flag.
    m.click("[data-testid=slot-0-0] [data-testid=card]").await;
    m.click("[data-testid=slot-0-4]").await;
    assert!(
        m.card_ids("[data-testid=slot-0-0] [data-testid=card]")
            .is_empty()
    );
    assert_eq!(
        m.card_ids("[data-testid=slot-0-4] [data-testid=card]"),
        vec![card.clone()]
    );

    // Undo is offered inside the turn and the draw ends it.
    assert!(!m.disabled("[data-testid=undo]"));
    m.click("[data-testid=draw-troop]").await;
    m.wait_for_my_turn().await;
    assert!(
        m.has("[data-testid=bot-move]"),
        "the computer's move is shown"
    );
    assert_eq!(m.all("[data-testid=hand-card]").len(), 7);
    assert!(m.disabled("[data-testid=undo]"), "no undo across the draw");

    // The earlier card: tapping it selects nothing and it cannot be moved; it is not greyed.
    let earlier = format!("[data-testid=slot-0-4] [data-card-id='{card}']");
    m.click(&earlier).await;
    assert!(!m.has(".bl-selected"));
    assert!(!m.has(".bl-target"));
    assert!(!m.disabled(&earlier));
    m.click("[data-testid=slot-0-6]").await;
    assert_eq!(
        m.card_ids("[data-testid=slot-0-4] [data-testid=card]"),
        vec![card]
    );
    assert!(
        m.card_ids("[data-testid=slot-0-6] [data-testid=card]")
            .is_empty()
    );

    // The autosave holds the game.
    let saved = storage().get_item(KEY_SAVE).expect("get").expect("saved");
    assert!(BattleSave::load(&saved).is_some());
}

#[wasm_bindgen_test]
async fn undo_takes_back_the_card_played_this_turn() {
    let m = mount("#/battle-line?seed=11", None).await;
    m.click("[data-testid=mode-pvp]").await;
    m.click("[data-testid=hand-card]").await;
    m.click("[data-testid=slot-0-2]").await;
    assert_eq!(m.all("[data-testid=hand-card]").len(), 6);
    m.click("[data-testid=undo]").await;
    assert_eq!(m.all("[data-testid=hand-card]").len(), 7);
    assert!(
        m.all("[data-testid=slot-0-2] [data-testid=card]")
            .is_empty()
    );
}

#[wasm_bindgen_test]
async fn pass_and_play_hides_the_hand_between_turns() {
    let m = mount("#/battle-line?seed=3", None).await;
    m.click("[data-testid=mode-pvp]").await;
    let first_hand = m.card_ids("[data-testid=hand-card]");
    m.click("[data-testid=hand-card]").await;
    m.click("[data-testid=slot-0-1]").await;
    m.click("[data-testid=draw-troop]").await;
    assert!(m.has("[data-testid=pass-device]"));
    assert!(
        m.all("[data-testid=hand-card]").is_empty(),
        "no hand in the DOM"
    );
    assert!(!m.has("[data-testid=board]"));
    m.click("[data-testid=pass-device]").await;
    let second_hand = m.card_ids("[data-testid=hand-card]");
    assert_eq!(second_hand.len(), 7);
    assert!(
        second_hand.iter().all(|c| !first_hand.contains(c)),
        "P1's hand is shown"
    );
    // P1 sees their own slots at the bottom and plays into them.
    m.click("[data-testid=hand-card]").await;
    m.click("[data-testid=slot-1-3]").await;
    assert_eq!(m.all("[data-testid=slot-1-3] [data-testid=card]").len(), 1);
}

#[wasm_bindgen_test]
async fn a_provable_flag_is_marked_and_claimed() {
    let (save, game) = fixture(Mode::Cpu, |g| {
        g.phase() == Phase::Play && !g.provable_flags(Player::P0).is_empty()
    });
    let flag = game.provable_flags(Player::P0)[0];
    let m = mount("#/battle-line", Some(&save)).await;
    assert!(m.has("[data-testid=resume-notice]"));
    assert!(
        m.one(&format!("[data-testid=flag-{flag}]"))
            .get_attribute("class")
            .unwrap_or_default()
            .contains("claimable")
    );
    assert!(!m.disabled(&format!("[data-testid=claim-{flag}]")));
    m.click(&format!("[data-testid=claim-{flag}]")).await;
    assert_eq!(
        m.one(&format!("[data-testid=flag-{flag}]"))
            .get_attribute("data-owner")
            .as_deref(),
        Some("0")
    );
    assert!(m.has(&format!("[data-testid=owner-{flag}]")));
}

#[wasm_bindgen_test]
async fn a_refused_claim_shows_the_counterexample() {
    let refusable = |g: &Game| {
        (0..9u8).find(|&f| {
            g.flags()[usize::from(f)].owner.is_none()
                && matches!(
                    g.check_claim(f, Player::P0),
                    Err(ClaimRefusal::OpponentCanBeat { .. })
                )
        })
    };
    let (save, game) = fixture(Mode::Cpu, |g| {
        g.phase() == Phase::Play && refusable(g).is_some()
    });
    let flag = refusable(&game).expect("a refusable flag");
    let m = mount("#/battle-line", Some(&save)).await;
    assert!(
        !m.one(&format!("[data-testid=flag-{flag}]"))
            .get_attribute("class")
            .unwrap_or_default()
            .contains("claimable")
    );
    m.click(&format!("[data-testid=claim-{flag}]")).await;
    assert!(m.has("[data-testid=rule-error]"));
    assert!(
        !m.all("[data-testid=counterexample] [data-testid=counter-card]")
            .is_empty()
    );
    assert_eq!(
        m.one(&format!("[data-testid=flag-{flag}]"))
            .get_attribute("data-owner"),
        None
    );
}

#[wasm_bindgen_test]
async fn refusals_and_card_names_follow_the_language() {
    let refusable = |g: &Game| {
        (0..9u8).find(|&f| {
            g.flags()[usize::from(f)].owner.is_none()
                && matches!(
                    g.check_claim(f, Player::P0),
                    Err(ClaimRefusal::OpponentCanBeat { .. })
                )
        })
    };
    let (save, game) = fixture(Mode::Cpu, |g| {
        g.phase() == Phase::Play && refusable(g).is_some()
    });
    let flag = refusable(&game).expect("a refusable flag");
    let error = game
        .clone()
        .apply(Command::ClaimFlag { flag })
        .expect_err("the engine refuses the claim");
    let first = match &error {
        RuleError::ClaimRefused {
            reason: ClaimRefusal::OpponentCanBeat { cards, .. },
            ..
        } => Card::Troop(*cards.first().expect("a counterexample card")),
        other => panic!("not a counterexample refusal: {other:?}"),
    };
    let m = mount("#/battle-line", Some(&save)).await;
    m.click(&format!("[data-testid=claim-{flag}]")).await;
    assert_eq!(
        m.text("[data-testid=rule-error-text]"),
        text::rule_error(&error, Lang::Ja)
    );
    let counter = format!(
        "[data-testid=counterexample] [data-testid=counter-card][data-card-id='{}']",
        card_id(first)
    );
    assert_eq!(m.attr(&counter, "title"), text::card(first, Lang::Ja));

    m.click("[data-testid=btn-lang]").await;
    assert_eq!(m.text("[data-testid=rule-error-text]"), error.to_string());
    assert_eq!(m.attr(&counter, "title"), first.to_string());
}

#[wasm_bindgen_test]
async fn the_winning_claim_shows_the_winner() {
    let winning = |g: &Game| {
        g.provable_flags(Player::P0).into_iter().find(|&f| {
            let mut next = g.clone();
            next.apply(Command::ClaimFlag { flag: f }).is_ok() && next.is_over()
        })
    };
    let (save, game) = fixture(Mode::Pvp, |g| {
        g.phase() == Phase::Play && winning(g).is_some()
    });
    let flag = winning(&game).expect("a winning claim");
    let m = mount("#/battle-line", Some(&save)).await;
    // A reload in pass-and-play hides the hand until the player confirms.
    assert!(m.all("[data-testid=hand-card]").is_empty());
    m.click("[data-testid=pass-device]").await;
    m.click(&format!("[data-testid=claim-{flag}]")).await;
    let text = m
        .one("[data-testid=winner]")
        .text_content()
        .unwrap_or_default();
    assert!(text.contains("プレイヤー1"), "{text}");
    assert!(text.contains("突破") || text.contains("包囲"), "{text}");
    m.click("[data-testid=winner-new-game]").await;
    assert!(m.has("[data-testid=mode-cpu]"));
}

#[wasm_bindgen_test]
async fn redeploy_shows_the_guide_and_allows_earlier_cards() {
    let redeploy = Command::PlayCard {
        card: Card::Tactic(Tactic::Redeploy),
        target: Target::Field,
    };
    let (save, game) = fixture(Mode::Cpu, |g| g.legal_commands().contains(&redeploy));
    let mut after = game.clone();
    after.apply(redeploy).expect("redeploy is legal");
    // An earlier troop of mine that Redeploy may take (not at a claimed flag).
    let target = after
        .legal_commands()
        .into_iter()
        .find_map(|c| match c {
            Command::ResolveRedeploy {
                card: card @ Card::Troop(_),
                ..
            } => Some(card),
            _ => None,
        })
        .expect("a troop to redeploy");
    let id = card_id(target);
    let m = mount("#/battle-line", Some(&save)).await;
    m.click("[data-testid=hand-card][data-card-id=redeploy]")
        .await;
    m.click("[data-testid=field-0]").await;
    assert_eq!(
        m.one("[data-testid=guile-guide]")
            .text_content()
            .unwrap_or_default(),
        "REDEPLOY: Select your card to move or discard"
    );
    // The earlier card is selectable now; discarding it ends the operation.
    m.click(&format!("[data-testid^=slot-0-] [data-card-id='{id}']"))
        .await;
    assert!(m.has(".bl-selected"));
    m.click("[data-testid=discard]").await;
    assert!(!m.has("[data-testid=guile-guide]"));
    assert!(
        !m.card_ids("[data-testid^=slot-0-] [data-testid=card]")
            .contains(&id)
    );
}

#[wasm_bindgen_test]
async fn a_corrupt_save_is_discarded_with_a_notice() {
    let m = mount("#/battle-line", Some("{this is not a save")).await;
    assert!(m.has("[data-testid=save-notice]"));
    assert!(m.has("[data-testid=mode-cpu]"));
    assert_eq!(storage().get_item(KEY_SAVE).expect("get"), None);
    // A save whose log the engine refuses is discarded the same way.
    let bad = save_json(
        Mode::Cpu,
        GameRecord {
            log: vec![Command::ClaimFlag { flag: 0 }],
            ..Game::new(1, Settings::default()).record()
        },
    );
    let m2 = mount("#/battle-line", Some(&bad)).await;
    assert!(m2.has("[data-testid=save-notice]"));
    drop(m);
}

/// Plays the first hand card to flag 1 and draws a troop: the computer's turn starts.
async fn play_a_turn(m: &Mounted) {
    m.click("[data-testid=hand-card]").await;
    m.click("[data-testid=slot-0-0]").await;
    m.click("[data-testid=draw-troop]").await;
}

#[wasm_bindgen_test]
async fn the_computer_plays_at_each_level_and_the_level_is_remembered() {
    clear_keys(&[KEY_LEVEL]);
    let m = common::mount("#/battle-line?seed=5").await;
    assert_eq!(
        selected(&m, "[data-testid=bl-level]"),
        "normal",
        "the default"
    );
    assert_eq!(
        m.text("[data-testid=bl-level] option[value=hard]"),
        text::level(Level::Hard, Lang::Ja)
    );
    drop(m);
    for level in Level::ALL {
        clear_keys(&[KEY_SAVE]);
        let m = common::mount("#/battle-line?seed=5").await;
        choose(&m, "[data-testid=bl-level]", level.code()).await;
        assert_eq!(
            storage().get_item(KEY_LEVEL).expect("get").as_deref(),
            Some(level.code())
        );
        m.click("[data-testid=mode-cpu]").await;
        // The level stays visible (and changeable) during the game.
        assert_eq!(selected(&m, "[data-testid=bl-level]"), level.code());
        play_a_turn(&m).await;
        m.wait_for_my_turn_up_to(600).await;
        assert!(
            m.has("[data-testid=bot-move]"),
            "{level:?}: the computer moved"
        );
        assert_eq!(m.all("[data-testid=hand-card]").len(), 7);
        drop(m);
        // A new visit starts at the saved level.
        clear_keys(&[KEY_SAVE]);
        let again = common::mount("#/battle-line").await;
        assert_eq!(selected(&again, "[data-testid=bl-level]"), level.code());
    }
}

#[wasm_bindgen_test]
async fn the_page_answers_while_the_computer_thinks() {
    clear_keys(&[KEY_SAVE, KEY_LANG]);
    preset(&[(KEY_LEVEL, "hard")]);
    let m = common::mount("#/battle-line?seed=8").await;
    m.click("[data-testid=mode-cpu]").await;
    play_a_turn(&m).await;
    // The search runs in slices: its progress shows, and between slices the page
    // handles a click and repaints (the language switch) while the search goes on.
    for _ in 0..100 {
        if m.has("[data-testid=bl-thinking]") {
            break;
        }
        sleep(20).await;
    }
    assert!(m.text("[data-testid=bl-thinking]").contains("考え中"));
    m.click("[data-testid=btn-lang]").await;
    assert!(
        m.text("[data-testid=bl-thinking]").contains("Thinking"),
        "the page re-rendered in English before the computer finished"
    );
    let before: f64 = m
        .attr("[data-testid=bl-thinking] progress", "value")
        .parse()
        .unwrap_or(0.0);
    for _ in 0..600 {
        if !m.has("[data-testid=bl-thinking]") {
            break;
        }
        let now: f64 = m
            .attr("[data-testid=bl-thinking] progress", "value")
            .parse()
            .unwrap_or(0.0);
        if now > before {
            break;
        }
        sleep(20).await;
    }
    // Either the progress moved on or the search finished: it was not stopped by the click.
    m.click("[data-testid=btn-lang]").await;
    m.wait_for_my_turn_up_to(600).await;
    assert!(m.has("[data-testid=bot-move]"));
}

/// Positions where the player to move must choose a card (easy bot against itself).
fn play_positions(count: usize) -> Vec<Game> {
    let mut out = Vec::new();
    for seed in 0..200u64 {
        let mut game = Game::new(seed, Settings::default());
        let mut bot = Bot::new(seed);
        for ply in 0..400 {
            if game.is_over() || out.len() >= count {
                break;
            }
            if game.phase() == Phase::Play && ply % 11 == 3 {
                out.push(game.clone());
            }
            let Some(cmd) = bot.choose(&game) else { break };
            game.apply(cmd).expect("legal");
        }
        if out.len() >= count {
            break;
        }
    }
    out
}

/// Measures each level's decision time in this browser, spread over 8 ms slices as the
/// page does, and prints mean, p99 and max (figures for the README; run it with
/// `--release` and `--nocapture`). Times are reported, not asserted.
#[wasm_bindgen_test]
async fn computer_decision_times_in_the_browser() {
    let count = if cfg!(debug_assertions) { 3 } else { 60 };
    let positions = play_positions(count);
    assert_eq!(positions.len(), count);
    for level in Level::ALL {
        let mut times = Vec::new();
        let mut longest_slice: f64 = 0.0;
        for (i, game) in positions.iter().enumerate() {
            let mut thinker = Thinker::new(game, level, move_seed(i as u64, game.log().len()));
            let mut spent = 0.0;
            let command = loop {
                let slice = js_sys::Date::now();
                let thought = loop {
                    let t = thinker.step(1);
                    if matches!(t, Thought::Done(_)) || js_sys::Date::now() - slice >= 8.0 {
                        break t;
                    }
                };
                let took = js_sys::Date::now() - slice;
                spent += took;
                longest_slice = longest_slice.max(took);
                if let Thought::Done(c) = thought {
                    break c;
                }
                sleep(0).await;
            };
            let command = command.expect("a move");
            assert!(
                game.legal_commands().contains(&command),
                "{level:?}: {command:?}"
            );
            times.push(spent);
        }
        times.sort_by(f64::total_cmp);
        let mean = times.iter().sum::<f64>() / times.len() as f64;
        let p99 = times[(times.len() * 99 / 100).min(times.len() - 1)];
        let max = times[times.len() - 1];
        console_log!(
            "battle line {}: {} decisions, mean {mean:.1} ms, p99 {p99:.1} ms, max {max:.1} ms, longest slice {longest_slice:.1} ms",
            level.code(),
            times.len()
        );
    }
}
