//! A modal listing the cards of the graveyard, banished zone or extra deck; in the
//! Extra Deck each Synchro monster carries its Synchro Summon.

use duel_engine::card::Frame;
use duel_engine::view::CardView as CardSeen;
use duel_engine::{Code, Command};
use yew::prelude::*;

use crate::ctx::use_ctx;
use crate::duel::board::card_view::CardView;
use crate::i18n::T;
use crate::modal::use_dialog;

#[derive(Debug, Properties, PartialEq, Clone)]
pub struct PileListProps {
    pub title: AttrValue,
    /// `zone-<name>` of the pile, used as the list's test id suffix.
    pub zone: AttrValue,
    pub cards: Vec<CardSeen>,
    pub on_show_details: Callback<Code>,
    pub on_close: Callback<()>,
    /// For your Extra Deck: why a command would be refused now (`None` = legal), and how
    /// to apply it; each Synchro monster then gets a Synchro Summon button.
    #[prop_or_default]
    pub on_check: Option<Callback<Command, Option<String>>>,
    #[prop_or_default]
    pub on_apply: Option<Callback<Command>>,
}

#[function_component(PileList)]
pub fn pile_list(props: &PileListProps) -> Html {
    let ctx = use_ctx();
    let on_close = props.on_close.reform(|_: MouseEvent| ());
    let (node, on_key) = use_dialog(Some(props.on_close.clone()));
    // The Synchro Summon of one card: enabled exactly when the engine accepts it, with
    // the engine's reason otherwise; choosing it closes the list for the material dialog.
    let synchro = |c: &CardSeen| -> Option<Html> {
        let (on_check, on_apply) = (props.on_check.as_ref()?, props.on_apply.as_ref()?);
        let code = c.code?;
        if c.def()?.frame != Frame::Synchro {
            return None;
        }
        let cmd = Command::SynchroSummon { card: c.id };
        let refusal = on_check.emit(cmd.clone());
        let onclick = {
            let (on_apply, on_close) = (on_apply.clone(), props.on_close.clone());
            Callback::from(move |_: MouseEvent| {
                on_close.emit(());
                on_apply.emit(cmd.clone());
            })
        };
        Some(html! {
            <>
                <button type="button" class="btn" data-testid="btn-synchro" data-card-id={code.to_string()}
                    disabled={refusal.is_some()} onclick={onclick}>
                    { ctx.t(T::SynchroSummon) }
                </button>
                if let Some(reason) = refusal {
                    <span class="reason" data-testid="reason-btn-synchro">{ reason }</span>
                }
            </>
        })
    };
    html! {
        <div class="overlay">
            <div class="dialog" role="dialog" aria-modal="true" data-testid={format!("list-{}", props.zone)}
                aria-labelledby="pile-list-title" ref={node} onkeydown={on_key}>
                <h3 id="pile-list-title">{ format!("{} ({})", props.title, props.cards.len()) }</h3>
                if props.cards.is_empty() {
                    <p>{ ctx.t(T::Empty) }</p>
                }
                <div class="card-list">
                    { for props.cards.iter().map(|c| {
                        let on_click = c.code.map(|code| props.on_show_details.reform(move |()| code));
                        let card = html! { <CardView code={c.code} on_click={on_click} /> };
                        match synchro(c) {
                            Some(action) => html! { <div class="pile-item">{ card }{ action }</div> },
                            None => card,
                        }
                    }) }
                </div>
                <div class="dialog-actions">
                    <button type="button" class="btn" onclick={on_close} autofocus=true>{ ctx.t(T::Close) }</button>
                </div>
            </div>
        </div>
    }
}
