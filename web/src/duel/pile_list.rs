//! A modal listing the cards of the graveyard, banished zone or extra deck.

use duel_engine::Code;
use duel_engine::view::CardView as CardSeen;
use yew::prelude::*;

use crate::ctx::use_ctx;
use crate::duel::card_view::CardView;
use crate::i18n::T;

#[derive(Debug, Properties, PartialEq, Clone)]
pub struct PileListProps {
    pub title: AttrValue,
    /// `zone-<name>` of the pile, used as the list's test id suffix.
    pub zone: AttrValue,
    pub cards: Vec<CardSeen>,
    pub on_show_details: Callback<Code>,
    pub on_close: Callback<()>,
}

#[function_component(PileList)]
pub fn pile_list(props: &PileListProps) -> Html {
    let ctx = use_ctx();
    let on_close = props.on_close.reform(|_: MouseEvent| ());
    html! {
        <div class="overlay">
            <div class="dialog" role="dialog" aria-modal="true" data-testid={format!("list-{}", props.zone)}>
                <h3>{ format!("{} ({})", props.title, props.cards.len()) }</h3>
                if props.cards.is_empty() {
                    <p>{ ctx.t(T::Empty) }</p>
                }
                <div class="card-list">
                    { for props.cards.iter().map(|c| {
                        let on_click = c.code.map(|code| props.on_show_details.reform(move |()| code));
                        html! { <CardView code={c.code} on_click={on_click} /> }
                    }) }
                </div>
                <div class="dialog-actions">
                    <button type="button" class="btn" onclick={on_close} autofocus=true>{ ctx.t(T::Close) }</button>
                </div>
            </div>
        </div>
    }
}
