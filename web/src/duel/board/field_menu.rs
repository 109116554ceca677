//! The menu of a card on the field: what can be done with it where it is (an ignition
//! effect, activating a set card), each enabled or explained by the engine, and its details.

use duel_engine::view::CardView as CardSeen;
use duel_engine::{Code, Command};
use yew::prelude::*;

use crate::ctx::use_ctx;
use crate::duel::board::card_view::card_name;
use crate::duel::board::duel_field::FieldSlot;
use crate::duel::board::hands::{MenuPlace, menu_actions, menu_arrows, menu_button, shown_actions};
use crate::i18n::T;
use crate::modal::use_dialog;

#[derive(Debug, Properties, PartialEq, Clone)]
pub struct FieldMenuProps {
    pub slot: FieldSlot,
    pub card: CardSeen,
    pub on_check: Callback<Command, Option<String>>,
    pub on_apply: Callback<Command>,
    pub on_show_details: Callback<Code>,
    pub on_close: Callback<()>,
}

#[function_component(FieldMenu)]
pub fn field_menu(props: &FieldMenuProps) -> Html {
    let ctx = use_ctx();
    let lang = ctx.lang;
    let (node, on_key) = use_dialog(Some(props.on_close.clone()));
    let place = match props.slot {
        FieldSlot::Monster(_) => MenuPlace::MonsterZone,
        FieldSlot::SpellTrap(_) | FieldSlot::Field => MenuPlace::SpellTrapZone,
    };
    let actions = shown_actions(menu_actions(place, &props.card), &props.on_check);
    let on_show = {
        let close = props.on_close.clone();
        let show = props.on_show_details.clone();
        let code = props.card.code;
        Callback::from(move |_: MouseEvent| {
            close.emit(());
            if let Some(code) = code {
                show.emit(code);
            }
        })
    };
    let title = props.card.code.map_or_else(
        || {
            format!(
                "{}: {}",
                props.slot.name(),
                lang.pick("裏側のカード", "Face-down card")
            )
        },
        |c| card_name(c, lang),
    );
    let on_keys = Callback::from(move |e: KeyboardEvent| {
        menu_arrows(&e);
        on_key.emit(e);
    });
    html! {
        <div class="overlay">
            <div class="dialog dialog-small" role="dialog" aria-modal="true" data-testid="field-menu"
                data-slot={props.slot.name()} aria-labelledby="field-menu-title" ref={node} onkeydown={on_keys}>
                <h3 id="field-menu-title">{ title }</h3>
                if actions.is_empty() {
                    <p class="muted" data-testid="no-action">{ lang.pick("このカードで今できることはありません", "Nothing can be done with this card now") }</p>
                }
                <div class="options" role="menu" aria-labelledby="field-menu-title">
                    { for actions.iter().map(|(a, refusal)| menu_button(a, refusal.clone(), lang, Some("field-"), &props.on_apply, &props.on_close)) }
                    if props.card.code.is_some() {
                        <button type="button" class="btn" role="menuitem" data-testid="btn-details" onclick={on_show}>{ ctx.t(T::Details) }</button>
                    }
                </div>
                <div class="dialog-actions">
                    <button type="button" class="btn" data-testid="btn-close" onclick={props.on_close.reform(|_: MouseEvent| ())}>{ ctx.t(T::Close) }</button>
                </div>
            </div>
        </div>
    }
}
