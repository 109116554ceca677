//! Deck recipe page: description and card list grouped by type; a card opens its details.

use duel_engine::card::{CardType, Code, card};
use duel_engine::deck::deck;
use yew::prelude::*;

use crate::ctx::use_ctx;
use crate::duel::board::card_detail::CardDetail;
use crate::duel::board::card_view::{card_name, engine_lang, frame_class};
use crate::i18n::T;
use crate::route::Route;

#[derive(Debug, Properties, PartialEq, Clone)]
pub struct RecipePageProps {
    pub deck: String,
}

#[function_component(RecipePage)]
pub fn recipe_page(props: &RecipePageProps) -> Html {
    let ctx = use_ctx();
    let detail = use_state(|| None::<Code>);
    let Some(def) = deck(&props.deck) else {
        return html! {
            <section class="page">
                <h2>{ ctx.t(T::UnknownDeck) }</h2>
                <a href="#/">{ ctx.t(T::BackHome) }</a>
            </section>
        };
    };
    let lang = engine_lang(ctx.lang);
    let group = |title: T, list: Vec<(Code, u8)>| -> Html {
        if list.is_empty() {
            return Html::default();
        }
        let total: u32 = list.iter().map(|(_, n)| u32::from(*n)).sum();
        html! {
            <section class="recipe-group">
                <h3>{ format!("{} ({}{})", ctx.t(title), total, ctx.t(T::CardsTotal)) }</h3>
                <ul class="recipe-list">
                    { for list.into_iter().map(|(code, n)| {
                        let detail = detail.clone();
                        let frame = card(code).map_or("frame-token", |d| frame_class(d.frame));
                        html! {
                            <li>
                                <button type="button" class={classes!("btn", "recipe-item", frame)}
                                    data-testid="recipe-card" data-card-id={code.to_string()}
                                    onclick={Callback::from(move |_: MouseEvent| detail.set(Some(code)))}>
                                    <span>{ card_name(code, ctx.lang) }</span>
                                    <span>{ format!("×{n}") }</span>
                                </button>
                            </li>
                        }
                    }) }
                </ul>
            </section>
        }
    };
    let of_type = |t: CardType| -> Vec<(Code, u8)> {
        def.main
            .iter()
            .copied()
            .filter(|(code, _)| card(*code).is_some_and(|c| c.card_type == t))
            .collect()
    };
    let on_start = {
        let nav = ctx.on_navigate.clone();
        let id = def.id.clone();
        Callback::from(move |_: MouseEvent| {
            crate::duel::state::clear_save();
            nav.emit(Route::Simulator {
                deck: id.clone(),
                seed: None,
            })
        })
    };
    let on_close = {
        let detail = detail.clone();
        Callback::from(move |()| detail.set(None))
    };
    html! {
        <section class="page recipe">
            <h2>{ def.name(lang) }</h2>
            <p>{ def.description(lang) }</p>
            <div class="btn-row">
                <a class="btn" href="#/">{ ctx.t(T::BackHome) }</a>
                <button type="button" class="btn btn-primary" data-testid="btn-start" onclick={on_start}>
                    { ctx.t(T::Start) }
                </button>
            </div>
            { group(T::Monsters, of_type(CardType::Monster)) }
            { group(T::Spells, of_type(CardType::Spell)) }
            { group(T::Traps, of_type(CardType::Trap)) }
            { group(T::ExtraMonsters, def.extra.clone()) }
            if let Some(code) = *detail {
                <CardDetail code={code} on_close={on_close} />
            }
        </section>
    }
}
