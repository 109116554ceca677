//! Asking before ending the turn while actions remain: ending the first turn ends the
//! attempt, so a stray click on 「ターン終了」 must not cost the duel.

use duel_engine::Command;
use web_sys::HtmlInputElement;
use yew::prelude::*;

use crate::ctx::use_ctx;
use crate::i18n::T;
use crate::modal::use_dialog;

/// Whether the player could still do something other than end the turn.
pub fn actions_remain(legal: &[Command]) -> bool {
    legal.iter().any(|c| {
        !matches!(
            c,
            Command::EndTurn | Command::PassChain | Command::AdvancePhase
        )
    })
}

#[derive(Debug, Properties, PartialEq, Clone)]
pub struct EndTurnConfirmProps {
    /// Ends the turn; `true` when the player asked not to be asked again.
    pub on_confirm: Callback<bool>,
    pub on_cancel: Callback<()>,
}

/// The question, with the safe answer first and focused, the turn's end last.
#[function_component(EndTurnConfirm)]
pub fn end_turn_confirm(props: &EndTurnConfirmProps) -> Html {
    let ctx = use_ctx();
    let (node, on_key) = use_dialog(Some(props.on_cancel.clone()));
    let dont_ask = use_state(|| false);
    let on_toggle = {
        let dont_ask = dont_ask.clone();
        Callback::from(move |e: Event| {
            if let Some(input) = e.target_dyn_into::<HtmlInputElement>() {
                dont_ask.set(input.checked());
            }
        })
    };
    let on_confirm = {
        let cb = props.on_confirm.clone();
        let dont_ask = dont_ask.clone();
        Callback::from(move |_: MouseEvent| cb.emit(*dont_ask))
    };
    html! {
        <div class="overlay">
            <div class="dialog dialog-small" role="dialog" aria-modal="true" data-testid="end-turn-confirm"
                aria-labelledby="end-turn-title" aria-describedby="end-turn-text" ref={node} onkeydown={on_key}>
                <h3 id="end-turn-title">{ ctx.lang.pick("ターンを終了しますか？", "End the turn?") }</h3>
                <p id="end-turn-text">{ ctx.lang.pick(
                    "まだ行える行動があります。1ターン目を終えると、この挑戦は終わります。",
                    "You can still act. Ending your first turn ends this attempt.",
                ) }</p>
                <label class="setting">
                    <input type="checkbox" data-testid="end-turn-dont-ask" checked={*dont_ask} onchange={on_toggle} />
                    { ctx.lang.pick(" 次からは確認しない（ホームの設定で戻せます）", " Don't ask again (the home page's settings bring it back)") }
                </label>
                <div class="dialog-actions">
                    <button type="button" class="btn btn-primary" data-testid="btn-end-turn-cancel" autofocus=true
                        onclick={props.on_cancel.reform(|_: MouseEvent| ())}>
                        { ctx.lang.pick("続ける", "Keep playing") }
                    </button>
                    <button type="button" class="btn btn-danger" data-testid="btn-end-turn-confirm" onclick={on_confirm}>
                        { ctx.t(T::EndTurn) }
                    </button>
                </div>
            </div>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use duel_engine::CardId;

    #[test]
    fn only_real_actions_count_as_remaining() {
        assert!(!actions_remain(&[Command::EndTurn]));
        assert!(!actions_remain(&[Command::EndTurn, Command::AdvancePhase]));
        assert!(actions_remain(&[
            Command::EndTurn,
            Command::ActivateSpell { card: CardId(4) }
        ]));
    }
}
