//! The player's hand, 「手札 (N 枚)」; a card opens a menu of what can be done with it, each
//! action enabled or explained by the engine.

use duel_engine::effect::EffectKind;
use duel_engine::view::CardView as CardSeen;
use duel_engine::{CardType, Code, Command, Face};
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement};
use yew::prelude::*;

use crate::ctx::use_ctx;
use crate::duel::board::card_view::{CardView, card_name};
use crate::i18n::{T, hand_title};

#[derive(Debug, Properties, PartialEq, Clone)]
pub struct HandsProps {
    pub cards: Vec<CardSeen>,
    /// Why a command would be refused now (`None` = it is legal), from the engine.
    pub on_check: Callback<Command, Option<String>>,
    pub on_apply: Callback<Command>,
    pub on_show_details: Callback<Code>,
}

/// One entry of a card menu: a command, its label and test id.
#[derive(Debug, Clone, PartialEq)]
pub struct MenuAction {
    pub command: Command,
    pub label: T,
    pub test_id: &'static str,
    /// Whether a player looking at this card expects the action here (a spell in hand can
    /// be activated, a face-up field spell cannot be activated again). An expected action
    /// is always listed, disabled with the engine's reason when refused; any other is
    /// listed only while the engine accepts it.
    pub expected: bool,
}

/// Where a card is when its menu opens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MenuPlace {
    Hand,
    /// A spell/trap zone or the field zone.
    SpellTrapZone,
    MonsterZone,
}

fn has_ignition(card: &CardSeen) -> bool {
    card.def()
        .is_some_and(|d| d.effects.iter().any(|e| e.kind == EffectKind::Ignition))
}

/// The actions a card's menu considers, in menu order.
pub fn menu_actions(place: MenuPlace, card: &CardSeen) -> Vec<MenuAction> {
    let id = card.id;
    let action = |command, label, test_id, expected| MenuAction {
        command,
        label,
        test_id,
        expected,
    };
    let activate = |expected| {
        action(
            Command::ActivateSpell { card: id },
            T::Activate,
            "btn-activate",
            expected,
        )
    };
    let effect = |expected| {
        action(
            Command::ActivateEffect { card: id },
            T::ActivateEffect,
            "btn-activate-effect",
            expected,
        )
    };
    let card_type = card.def().map(|d| d.card_type);
    match place {
        MenuPlace::Hand => match card_type {
            Some(CardType::Monster) => vec![
                action(
                    Command::SummonMonster { card: id },
                    T::Summon,
                    "btn-summon",
                    true,
                ),
                action(Command::SetMonster { card: id }, T::Set, "btn-set", true),
                effect(false),
            ],
            Some(CardType::Spell) => vec![
                activate(true),
                action(Command::SetSpellTrap { card: id }, T::Set, "btn-set", true),
            ],
            Some(CardType::Trap) => vec![
                action(Command::SetSpellTrap { card: id }, T::Set, "btn-set", true),
                activate(false),
            ],
            None => Vec::new(),
        },
        // A set card is activated; a face-up one only has its ignition effect, if any.
        MenuPlace::SpellTrapZone if card.face == Face::Down => vec![activate(true), effect(false)],
        MenuPlace::SpellTrapZone => vec![effect(has_ignition(card)), activate(false)],
        MenuPlace::MonsterZone => vec![effect(card.face == Face::Up && has_ignition(card))],
    }
}

/// The actions a menu shows: the expected ones and whatever else the engine accepts now,
/// each with the engine's refusal (if any).
pub fn shown_actions(
    actions: Vec<MenuAction>,
    on_check: &Callback<Command, Option<String>>,
) -> Vec<(MenuAction, Option<String>)> {
    actions
        .into_iter()
        .map(|a| {
            let refusal = on_check.emit(a.command.clone());
            (a, refusal)
        })
        .filter(|(a, refusal)| a.expected || refusal.is_none())
        .collect()
}

/// Renders a menu entry: enabled exactly when the engine accepts the command,
/// otherwise disabled with the engine's reason beside it. `menu` prefixes the reason's
/// id (two menus may be open at once) and, when set, makes the entry a `menuitem`.
pub fn menu_button(
    action: &MenuAction,
    refusal: Option<String>,
    lang: crate::i18n::Lang,
    menu: Option<&str>,
    on_apply: &Callback<Command>,
    after: &Callback<()>,
) -> Html {
    let cmd = action.command.clone();
    let on_apply = on_apply.clone();
    let after = after.clone();
    let onclick = Callback::from(move |_: MouseEvent| {
        after.emit(());
        on_apply.emit(cmd.clone());
    });
    let reason_id = format!("{}reason-{}", menu.unwrap_or(""), action.test_id);
    html! {
        <>
            <button type="button" class="btn" role={menu.map(|_| "menuitem")} data-testid={action.test_id}
                disabled={refusal.is_some()} onclick={onclick}
                aria-describedby={refusal.as_ref().map(|_| reason_id.clone())}>
                { action.label.text(lang) }
            </button>
            if let Some(reason) = refusal {
                <span class="reason" id={reason_id} data-testid={format!("reason-{}", action.test_id)}>{ reason }</span>
            }
        </>
    }
}

/// Up and Down move between a menu's entries, as in any menu.
pub fn menu_arrows(e: &KeyboardEvent) {
    let step: i32 = match e.key().as_str() {
        "ArrowDown" => 1,
        "ArrowUp" => -1,
        _ => return,
    };
    let Some(menu) = e
        .current_target()
        .and_then(|t| t.dyn_into::<Element>().ok())
    else {
        return;
    };
    let Ok(list) = menu.query_selector_all("button:not([disabled])") else {
        return;
    };
    let items: Vec<HtmlElement> = (0..list.length())
        .filter_map(|i| list.item(i))
        .filter_map(|n| n.dyn_into::<HtmlElement>().ok())
        .collect();
    if items.is_empty() {
        return;
    }
    e.prevent_default();
    let active = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.active_element());
    let at = items
        .iter()
        .position(|i| active.as_ref() == Some(i.as_ref()))
        .map_or(0, |p| p as i32);
    let len = items.len() as i32;
    let next = (at + step).rem_euclid(len) as usize;
    let _ = items[next].focus();
}

#[function_component(Hands)]
pub fn hands(props: &HandsProps) -> Html {
    let ctx = use_ctx();
    let open = use_state(|| None::<duel_engine::CardId>);
    let menu_ref = use_node_ref();
    let close = {
        let open = open.clone();
        Callback::from(move |()| open.set(None))
    };
    // Keyboard users land on the menu's first usable entry when it opens.
    {
        let menu_ref = menu_ref.clone();
        use_effect_with(*open, move |open| {
            if open.is_some()
                && let Some(menu) = menu_ref.cast::<Element>()
            {
                // On a phone the menu may open below the screen's edge: bring all of it,
                // its last entry (詳細) too, into view.
                let bottom = menu.get_bounding_client_rect().bottom();
                let height = web_sys::window()
                    .and_then(|w| w.inner_height().ok())
                    .and_then(|h| h.as_f64())
                    .unwrap_or(bottom);
                if bottom > height {
                    menu.scroll_into_view_with_bool(false);
                }
                if let Ok(Some(first)) = menu.query_selector("button:not([disabled])")
                    && let Ok(first) = first.dyn_into::<HtmlElement>()
                {
                    let _ = first.focus();
                }
            }
        });
    }
    html! {
        <section class="hand" data-testid="hand" data-focus-home="" aria-labelledby="hand-title">
            <h3 id="hand-title">{ hand_title(ctx.lang, props.cards.len()) }</h3>
            <div class="hand-cards" data-testid="zone-hand">
                { for props.cards.iter().map(|card| {
                    let id = card.id;
                    let toggle = {
                        let open = open.clone();
                        Callback::from(move |()| open.set(if *open == Some(id) { None } else { Some(id) }))
                    };
                    let is_open = *open == Some(id);
                    let on_show_details = {
                        let cb = props.on_show_details.clone();
                        let close = close.clone();
                        let code = card.code;
                        Callback::from(move |_: MouseEvent| {
                            close.emit(());
                            if let Some(code) = code {
                                cb.emit(code);
                            }
                        })
                    };
                    // Escape closes the menu and gives the focus back to its card.
                    let on_key = {
                        let close = close.clone();
                        Callback::from(move |e: KeyboardEvent| {
                            if e.key() == "Escape" {
                                if let Some(card) = e
                                    .current_target()
                                    .and_then(|t| t.dyn_into::<Element>().ok())
                                    .and_then(|m| m.parent_element())
                                    .and_then(|slot| slot.query_selector("[data-testid=card]").ok().flatten())
                                    .and_then(|c| c.dyn_into::<HtmlElement>().ok())
                                {
                                    let _ = card.focus();
                                }
                                close.emit(());
                            } else {
                                menu_arrows(&e);
                            }
                        })
                    };
                    let menu_label = card.code.map(|c| card_name(c, ctx.lang)).unwrap_or_default();
                    html! {
                        <div class="hand-slot" key={id.0}>
                            <CardView code={card.code} on_click={Some(toggle)} selected={is_open} expanded={Some(is_open)} />
                            if is_open {
                                <div class="menu" role="menu" aria-label={menu_label} data-testid="card-menu" onkeydown={on_key} ref={menu_ref.clone()}>
                                    { for shown_actions(menu_actions(MenuPlace::Hand, card), &props.on_check)
                                        .into_iter()
                                        .map(|(a, refusal)| menu_button(&a, refusal, ctx.lang, Some("hand-"), &props.on_apply, &close)) }
                                    <button type="button" class="btn" role="menuitem" data-testid="btn-details" onclick={on_show_details}>
                                        { ctx.t(T::Details) }
                                    </button>
                                </div>
                            }
                        </div>
                    }
                }) }
            </div>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use duel_engine::CardId;

    const CHICKEN_GAME: Code = 67616300;
    const GRACEFUL_CHARITY: Code = 79571449;

    fn seen(code: Code, face: Face) -> CardSeen {
        CardSeen {
            id: CardId(3),
            code: (face == Face::Up).then_some(code),
            face,
            position: None,
            counters: 0,
            equipped_to: None,
        }
    }

    fn expected(place: MenuPlace, card: &CardSeen) -> Vec<&'static str> {
        menu_actions(place, card)
            .into_iter()
            .filter(|a| a.expected)
            .map(|a| a.test_id)
            .collect()
    }

    #[test]
    fn a_face_up_field_spell_expects_only_its_effect_and_a_set_card_its_activation() {
        let field = seen(CHICKEN_GAME, Face::Up);
        assert_eq!(
            expected(MenuPlace::SpellTrapZone, &field),
            ["btn-activate-effect"]
        );
        let charity = seen(GRACEFUL_CHARITY, Face::Up);
        // A face-up Normal Spell on the field has no ignition effect: nothing is expected.
        assert!(expected(MenuPlace::SpellTrapZone, &charity).is_empty());
        let set = seen(GRACEFUL_CHARITY, Face::Down);
        assert_eq!(expected(MenuPlace::SpellTrapZone, &set), ["btn-activate"]);
        assert_eq!(
            expected(MenuPlace::Hand, &charity),
            ["btn-activate", "btn-set"]
        );
    }

    #[test]
    fn unexpected_actions_are_shown_only_when_legal_and_expected_ones_always() {
        let field = seen(CHICKEN_GAME, Face::Up);
        let refuse_all = Callback::from(|_: Command| Some("no".to_owned()));
        let shown: Vec<_> =
            shown_actions(menu_actions(MenuPlace::SpellTrapZone, &field), &refuse_all)
                .into_iter()
                .map(|(a, r)| (a.test_id, r.is_some()))
                .collect();
        assert_eq!(shown, [("btn-activate-effect", true)]);
        let accept_all = Callback::from(|_: Command| None);
        let shown: Vec<_> =
            shown_actions(menu_actions(MenuPlace::SpellTrapZone, &field), &accept_all)
                .into_iter()
                .map(|(a, _)| a.test_id)
                .collect();
        assert_eq!(shown, ["btn-activate-effect", "btn-activate"]);
    }
}
