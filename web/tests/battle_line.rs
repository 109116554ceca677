//! Browser tests of the Battle Line page: tap to play and move, bot turns, claims, pass-and-play, saves.
#![cfg(all(target_arch = "wasm32", feature = "battle-line"))]

use battle_line::{
    Card, ClaimRefusal, Command, Game, GameRecord, Phase, Player, RuleError, Settings, Tactic,
    Target,
};
use wasm_bindgen_test::*;
use web::battle_line::state::{
    BattleSave, KEY_LEVEL, KEY_SAVE, Mode, SAVE_VERSION, bot_line_until, card_id,
};
use web::battle_line::text;
use web::i18n::Lang;
use web::storage::KEY_LANG;

wasm_bindgen_test_configure!(run_in_browser);

mod common;
use common::{
    Mounted, clear_keys, focused, focused_testid, preset, press_focused, settle, sleep, storage,
    tab_to,
};

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
    // Each troop carries its colour's symbol as text (not its colour alone), and its
    // colour's name for screen readers.
    for card in m.all("[data-testid=hand-card]") {
        let id = card.get_attribute("data-card-id").unwrap_or_default();
        let Some((colour, _)) = id.split_once('-').filter(|(c, v)| {
            v.parse::<u8>().is_ok()
                && ["red", "orange", "yellow", "green", "blue", "purple"].contains(c)
        }) else {
            continue;
        };
        let symbol = card
            .query_selector("[data-testid=bl-suit]")
            .ok()
            .flatten()
            .and_then(|s| s.text_content())
            .unwrap_or_default();
        assert!(!symbol.trim().is_empty(), "{id} shows no symbol");
        let named = card.text_content().unwrap_or_default();
        let ja = ["赤", "橙", "黄", "緑", "青", "紫"];
        let i = ["red", "orange", "yellow", "green", "blue", "purple"]
            .iter()
            .position(|c| *c == colour)
            .expect("a colour");
        assert!(named.contains(ja[i]), "{id}: {named}");
    }

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
    m.wait_for_my_turn(80).await;
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
async fn deserter_marks_exactly_the_cards_it_may_pick_on_the_table() {
    let deserter = Command::PlayCard {
        card: Card::Tactic(Tactic::Deserter),
        target: Target::Field,
    };
    let (save, game) = fixture(Mode::Cpu, |g| g.legal_commands().contains(&deserter));
    let mut after = game.clone();
    after.apply(deserter).expect("deserter is legal");
    let mut picks: Vec<String> = after
        .legal_commands()
        .into_iter()
        .filter_map(|c| match c {
            Command::ResolveDeserter { card } => Some(card_id(card)),
            _ => None,
        })
        .collect();
    picks.sort();
    assert!(!picks.is_empty(), "Deserter has a card to take");
    let m = mount("#/battle-line", Some(&save)).await;
    assert!(!m.has("[data-testid=board].bl-picking"));
    m.click("[data-testid=hand-card][data-card-id=deserter]")
        .await;
    m.click("[data-testid=field-0]").await;
    // The board widens its columns on a phone for these 44 px targets (web/battle-line.css).
    assert!(m.has("[data-testid=board].bl-picking"));
    let mut marked = m.card_ids("[data-testid=board] .bl-pickable");
    marked.sort();
    assert_eq!(marked, picks);
    m.click(&format!(
        "[data-testid=board] [data-card-id='{}']",
        picks[0]
    ))
    .await;
    m.click("[data-testid=discard]").await;
    assert!(!m.has("[data-testid=guile-guide]"));
    assert!(!m.has("[data-testid=board].bl-picking"));
    assert!(m.all("[data-testid=board] .bl-pickable").is_empty());
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

impl Mounted {
    /// Waits (up to 30 s) for the game to end or for the computer to finish its turn.
    async fn wait_for_my_turn_or_the_end(&self) {
        for _ in 0..300 {
            if self.has("[data-testid=winner]") {
                return;
            }
            if self.has("[data-testid=hand]")
                && self.has("[data-testid=prompt]")
                && !self.text("[data-testid=prompt]").contains("コンピューター")
            {
                return;
            }
            sleep(100).await;
            settle().await;
        }
        panic!("the computer did not finish its turn");
    }
}

/// Whether a `data-card-id` names a troop (`red-7`) rather than a tactic (`alexander`).
fn is_troop(id: &str) -> bool {
    id.rsplit('-')
        .next()
        .is_some_and(|v| v.parse::<u8>().is_ok())
}

#[wasm_bindgen_test]
async fn battle_line_is_playable_by_keyboard_alone() {
    let m = mount("#/battle-line?seed=5", None).await;
    tab_to(&m.one("[data-testid=mode-cpu]"));
    press_focused("Enter").await;
    // The game starts with the focus on the hand.
    assert_eq!(focused_testid(), "hand-card");

    // Escape takes back a selection and leaves the focus on the card.
    press_focused("Enter").await;
    assert!(m.has("[data-testid=hand-card].bl-selected"));
    assert!(
        focused().class_list().contains("bl-drop"),
        "focus on a target"
    );
    press_focused("Escape").await;
    assert!(!m.has(".bl-selected"));
    assert_eq!(focused_testid(), "hand-card");

    let mut turns = 0;
    while !m.has("[data-testid=winner]") {
        turns += 1;
        assert!(turns < 60, "the game did not end");
        // Claim every flag marked as provable (a claim can end the game).
        while let Some(flag) = (0..9).find(|i| {
            m.has(&format!("[data-testid=flag-{i}].claimable"))
                && m.has(&format!("[data-testid=claim-{i}]:not([disabled])"))
        }) {
            tab_to(&m.one(&format!("[data-testid=claim-{flag}]")));
            press_focused("Enter").await;
            assert_eq!(
                m.attr(&format!("[data-testid=flag-{flag}]"), "data-owner"),
                "0"
            );
            if m.has("[data-testid=winner]") {
                break;
            }
            assert!(
                ["hand-card", "pass"].contains(&focused_testid().as_str()),
                "back to the hand after a claim, not to {:?}",
                focused_testid()
            );
        }
        if m.has("[data-testid=winner]") {
            break;
        }
        // The table's cards that cannot be picked now are no Tab stops.
        assert!(
            m.all("[data-testid=board] [data-testid=card]:not([tabindex='-1'])")
                .is_empty(),
            "no table card to pick at the start of the turn"
        );
        if focused_testid() == "pass" {
            press_focused("Enter").await;
        } else {
            // The turn starts on the first card of the hand; the arrows reach a troop.
            assert_eq!(focused_testid(), "hand-card");
            let hand = m.card_ids("[data-testid=hand-card]");
            let troop = hand
                .iter()
                .position(|id| is_troop(id))
                .expect("a troop in hand (the test draws troops only)");
            for _ in 0..troop {
                press_focused("ArrowRight").await;
            }
            let card = focused().get_attribute("data-card-id").unwrap_or_default();
            assert_eq!(card, hand[troop]);
            press_focused("Enter").await;
            // Selected: the focus is on the first flag it may go to; the arrows pick another.
            assert!(
                focused().class_list().contains("bl-drop"),
                "focus on a target"
            );
            let targets = m.all(".bl-drop").len();
            for _ in 0..(turns % targets) {
                press_focused("ArrowRight").await;
            }
            press_focused(" ").await;
            let placed = format!("[data-testid^=slot-0-] [data-card-id='{card}']");
            assert!(m.has(&placed), "{card} is on the table");
            // This turn's card may still move: it is a Tab stop until the turn ends.
            assert_ne!(m.attr(&placed, "tabindex"), "-1");
            // Then the draw, which ends the turn.
            assert!(
                ["draw-troop", "draw-tactic", "end-turn"].contains(&focused_testid().as_str()),
                "the focus went to the draw, not to {:?}",
                focused_testid()
            );
            press_focused("Enter").await;
        }
        m.wait_for_my_turn_or_the_end().await;
    }
    // The end: the winner's banner has the focus on its new-game button, which leads
    // back to the choice of mode.
    assert_eq!(focused_testid(), "winner-new-game");
    press_focused("Enter").await;
    assert_eq!(focused_testid(), "mode-cpu");
}
