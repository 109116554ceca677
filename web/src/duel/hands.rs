//! The player's hand, 「手札 (N 枚)」; a card opens a menu whose actions the engine enables or explains.

use duel_engine::view::CardView as CardSeen;
use duel_engine::{CardType, Code, Command};
use yew::prelude::*;

use crate::ctx::use_ctx;
use crate::duel::card_view::CardView;
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
}

/// Renders a menu entry: enabled exactly when the engine accepts the command,
/// otherwise disabled with the engine's reason underneath.
pub fn menu_button(
    action: &MenuAction,
    lang: crate::i18n::Lang,
    on_check: &Callback<Command, Option<String>>,
    on_apply: &Callback<Command>,
    after: &Callback<()>,
) -> Html {
    let refusal = on_check.emit(action.command.clone());
    let cmd = action.command.clone();
    let on_apply = on_apply.clone();
    let after = after.clone();
    let onclick = Callback::from(move |_: MouseEvent| {
        after.emit(());
        on_apply.emit(cmd.clone());
    });
    html! {
        <>
            <button type="button" class="btn" role="menuitem" data-testid={action.test_id}
                disabled={refusal.is_some()} onclick={onclick}>
                { action.label.text(lang) }
            </button>
            if let Some(reason) = refusal {
                <span class="reason" data-testid={format!("reason-{}", action.test_id)}>{ reason }</span>
            }
        </>
    }
}

#[function_component(Hands)]
pub fn hands(props: &HandsProps) -> Html {
    let ctx = use_ctx();
    let open = use_state(|| None::<duel_engine::CardId>);
    let close = {
        let open = open.clone();
        Callback::from(move |()| open.set(None))
    };
    html! {
        <section class="hand" data-testid="hand">
            <h3>{ hand_title(ctx.lang, props.cards.len()) }</h3>
            <div class="hand-cards" data-testid="zone-hand">
                { for props.cards.iter().map(|card| {
                    let id = card.id;
                    let toggle = {
                        let open = open.clone();
                        Callback::from(move |()| open.set(if *open == Some(id) { None } else { Some(id) }))
                    };
                    let is_open = *open == Some(id);
                    let def = card.def();
                    // Which buttons a card shows depends on its printed type only; whether each
                    // is enabled is the engine's answer.
                    let actions: Vec<MenuAction> = match def.map(|d| d.card_type) {
                        Some(CardType::Monster) => vec![
                            MenuAction { command: Command::SummonMonster { card: id }, label: T::Summon, test_id: "btn-summon" },
                            MenuAction { command: Command::SetMonster { card: id }, label: T::Set, test_id: "btn-set" },
                        ],
                        Some(CardType::Spell | CardType::Trap) => vec![
                            MenuAction { command: Command::ActivateSpell { card: id }, label: T::Activate, test_id: "btn-activate" },
                            MenuAction { command: Command::SetSpellTrap { card: id }, label: T::Set, test_id: "btn-set" },
                        ],
                        None => Vec::new(),
                    };
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
                    // Escape closes the menu, as in any popup menu.
                    let on_key = {
                        let close = close.clone();
                        Callback::from(move |e: KeyboardEvent| {
                            if e.key() == "Escape" {
                                close.emit(());
                            }
                        })
                    };
                    html! {
                        <div class="hand-slot" key={id.0}>
                            <CardView code={card.code} on_click={Some(toggle)} selected={is_open} />
                            if is_open {
                                <div class="menu" role="menu" data-testid="card-menu" onkeydown={on_key}>
                                    { for actions.iter().map(|a| menu_button(a, ctx.lang, &props.on_check, &props.on_apply, &close)) }
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
