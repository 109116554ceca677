//! A modal showing one card large with its full text and stats.

use duel_engine::card::Code;
use yew::prelude::*;

use crate::ctx::use_ctx;
use crate::duel::board::card_view::{CardView, card_name, engine_lang, kind_line, stats_line};
use crate::i18n::T;
use crate::modal::use_dialog;

#[derive(Debug, Properties, PartialEq, Clone)]
pub struct CardDetailProps {
    pub code: Code,
    pub on_close: Callback<()>,
}

#[function_component(CardDetail)]
pub fn card_detail(props: &CardDetailProps) -> Html {
    let ctx = use_ctx();
    let on_close = props.on_close.reform(|_: MouseEvent| ());
    let (node, on_key) = use_dialog(Some(props.on_close.clone()));
    let def = duel_engine::card::card(props.code);
    html! {
        <div class="overlay">
            <div class="dialog" role="dialog" aria-modal="true" data-testid="card-detail"
                aria-label={format!("{}: {}", ctx.t(T::CardDetails), card_name(props.code, ctx.lang))}
                ref={node} onkeydown={on_key}>
                <h3>{ card_name(props.code, ctx.lang) }</h3>
                <div class="detail-card">
                    <CardView code={Some(props.code)} />
                    if let Some(def) = def {
                        <div>
                            <p><strong>{ kind_line(def, ctx.lang) }</strong></p>
                            if let Some(m) = &def.monster {
                                <p>{ stats_line(m, ctx.lang) }</p>
                            }
                            <p>{ def.text(engine_lang(ctx.lang)) }</p>
                            <p class="muted">{ format!("#{:08}", def.code) }</p>
                        </div>
                    }
                </div>
                <div class="dialog-actions">
                    <button type="button" class="btn" onclick={on_close} autofocus=true>{ ctx.t(T::Close) }</button>
                </div>
            </div>
        </div>
    }
}
