//! The viewer's own hand (tap to select, sortable) and the opponent's hidden hand as counts.

use std::rc::Rc;

use battle_line::{Card, Player};
use yew::prelude::*;

use super::board::Table;
use super::card::CardButton;
use super::state::Place;
use crate::ctx::use_ctx;
use crate::i18n::T;

#[derive(Debug, Properties, PartialEq, Clone)]
pub struct HandProps {
    pub table: Rc<Table>,
    pub on_pick: Callback<(Place, Option<Card>)>,
    pub on_sort: Callback<Player>,
}

#[function_component(Hand)]
pub fn hand(props: &HandProps) -> Html {
    let ctx = use_ctx();
    let table = &props.table;
    let viewer = table.viewer;
    let cards = table.game.hand(viewer).to_vec();
    let on_card = props.on_pick.reform(|card: Card| (Place::Hand, Some(card)));
    let on_sort = props.on_sort.reform(move |_: MouseEvent| viewer);
    html! {
        <section class="bl-hand" data-testid="hand" aria-label={ctx.t(T::BlHand)}>
            <div class="bl-hand-head">
                <h3>{ ctx.t(T::BlHand) }{ format!(" ({})", cards.len()) }</h3>
                <button type="button" class="btn" data-testid="sort-hand" onclick={on_sort}>
                    { ctx.t(T::BlSortHand) }
                </button>
            </div>
            <div class="bl-hand-cards">
                { for cards.into_iter().map(|card| html! {
                    <CardButton {card} testid="hand-card"
                        selected={table.selected == Some(card)} on_click={on_card.clone()} />
                }) }
            </div>
        </section>
    }
}

#[derive(Debug, Properties, PartialEq, Clone)]
pub struct OpponentHandProps {
    pub table: Rc<Table>,
}

/// Card backs only: troops and tactics have different backs, so their counts are public.
#[function_component(OpponentHand)]
pub fn opponent_hand(props: &OpponentHandProps) -> Html {
    let ctx = use_ctx();
    let view = props.table.game.view(props.table.viewer);
    let hidden = view.opponent_hand;
    html! {
        <div class="bl-opp-hand" data-testid="opponent-hand">
            <span class="bl-label">{ ctx.t(T::BlOpponentHand) }</span>
            { for (0..hidden.troops).map(|_| html! { <span class="bl-back bl-back-troop" aria-hidden="true"></span> }) }
            { for (0..hidden.tactics).map(|_| html! { <span class="bl-back bl-back-tactic" aria-hidden="true"></span> }) }
            // Said in words: a bare 「6 / 1」 does not say which count is which.
            <span class="bl-count" data-testid="opponent-hand-count">
                { format!("{}{} / {}{}", ctx.lang.pick("部隊 ", "troops "), hidden.troops, ctx.lang.pick("戦術 ", "tactics "), hidden.tactics) }
            </span>
        </div>
    }
}
