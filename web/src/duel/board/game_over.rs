//! The end-of-duel dialog: result, reason, restart, and after a duel that was not won its
//! point of no return (`no_return`).

use duel_engine::state::{Outcome, Reason};
use yew::prelude::*;

use crate::ctx::use_ctx;
use crate::duel::board::card_view::engine_lang;
use crate::duel::practice::bar::retry_label;
use crate::duel::practice::jobs::NoReturn;
use crate::duel::practice::no_return::{no_return_view, use_no_return};
use crate::i18n::T;
use crate::modal::use_dialog;

#[derive(Debug, Properties, PartialEq, Clone)]
pub struct GameOverProps {
    pub outcome: Outcome,
    /// The game, when its point of no return is to be searched (a duel not won).
    #[prop_or_default]
    pub analysis: Option<NoReturn>,
    pub on_restart: Callback<()>,
    /// The same deal again (`btn-retry-hand`).
    #[prop_or_default]
    pub on_retry: Callback<()>,
    pub on_close: Callback<()>,
}

/// The `data-reason` value of a reason (the same spelling as the engine's serde names).
pub fn reason_attr(reason: Reason) -> &'static str {
    match reason {
        Reason::Exodia => "exodia",
        Reason::Lp0 => "lp0",
        Reason::DeckOut => "deck-out",
        Reason::TurnEnd => "turn-end",
    }
}

#[function_component(GameOver)]
pub fn game_over(props: &GameOverProps) -> Html {
    let ctx = use_ctx();
    let (result, title) = match props.outcome {
        Outcome::Win(_) => ("win", ctx.t(T::Win)),
        Outcome::Lose(_) => ("lose", ctx.t(T::Lose)),
        Outcome::Draw(_) => ("draw", ctx.lang.pick("引き分け", "Draw")),
    };
    let on_restart = props.on_restart.reform(|_: MouseEvent| ());
    let on_close = props.on_close.reform(|_: MouseEvent| ());
    let (node, on_key) = use_dialog(Some(props.on_close.clone()));
    let analysis = use_no_return(props.analysis.clone());
    html! {
        <div class="overlay">
            <div class="dialog dialog-small" role="dialog" aria-modal="true" data-testid="game-over"
                data-reason={reason_attr(props.outcome.reason())} data-result={result}
                aria-labelledby="game-over-title" ref={node} onkeydown={on_key}>
                <h3 id="game-over-title">{ title }</h3>
                <p>{ duel_engine::text::outcome(props.outcome, engine_lang(ctx.lang)) }</p>
                if props.analysis.is_some() {
                    { no_return_view(&analysis, ctx.lang, None) }
                }
                <div class="dialog-actions">
                    <button type="button" class="btn" onclick={on_close}>{ ctx.t(T::Close) }</button>
                    <button type="button" class="btn" data-testid="btn-retry-hand" onclick={props.on_retry.reform(|_: MouseEvent| ())}>
                        { retry_label(ctx.lang) }
                    </button>
                    <button type="button" class="btn btn-primary" data-testid="btn-restart" onclick={on_restart} autofocus=true>
                        { ctx.t(T::Restart) }
                    </button>
                </div>
            </div>
        </div>
    }
}
