//! Asking before a costly action: ending the turn while actions remain (ending the first
//! turn ends the attempt, so a stray click on 「ターン終了」 must not cost the duel), or
//! dropping an unfinished duel for another one.

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

/// What is asked.
#[derive(Debug, Clone, PartialEq)]
pub enum Question {
    /// 「ターン終了」 while actions remain (offers "don't ask again").
    EndTurn,
    /// A link to another duel while this deck's duel (named) is unfinished in the autosave.
    DropSave(String),
}

#[derive(Debug, Properties, PartialEq, Clone)]
pub struct ConfirmProps {
    pub question: Question,
    /// Does it; `true` when the player asked not to be asked again.
    pub on_confirm: Callback<bool>,
    pub on_cancel: Callback<()>,
}

/// A question before a costly action, with the safe answer first and focused, the costly
/// one last. Test ids: `<id>-confirm` (the dialog), `btn-<id>-cancel`, `btn-<id>-confirm`
/// (and `end-turn-dont-ask`), with `<id>` `end-turn` or `drop-save`.
#[function_component(Confirm)]
pub fn confirm(props: &ConfirmProps) -> Html {
    let ctx = use_ctx();
    let lang = ctx.lang;
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
    // Test ids and element ids: `[dialog, title, text, cancel, confirm]`, written out.
    let (ids, title, text, cancel, confirm) = match &props.question {
        Question::EndTurn => (
            [
                "end-turn-confirm",
                "end-turn-title",
                "end-turn-text",
                "btn-end-turn-cancel",
                "btn-end-turn-confirm",
            ],
            lang.pick("ターンを終了しますか？", "End the turn?"),
            lang.pick(
                "まだ行える行動があります。1ターン目を終えると、この挑戦は終わります。",
                "You can still act. Ending your first turn ends this attempt.",
            )
            .to_owned(),
            lang.pick("続ける", "Keep playing"),
            T::EndTurn.text(lang),
        ),
        Question::DropSave(deck) => (
            [
                "drop-save-confirm",
                "drop-save-title",
                "drop-save-text",
                "btn-drop-save-cancel",
                "btn-drop-save-confirm",
            ],
            lang.pick("続きのデュエルがあります", "An unfinished duel is saved"),
            format!(
                "{}{deck}{}",
                lang.pick("「", "Your duel with "),
                lang.pick(
                    "」のデュエルが途中です。このリンクのデュエルを始めると、その続きは消えます。",
                    " is not over. Starting this link's duel drops it.",
                )
            ),
            lang.pick("続きを再開する", "Resume that duel"),
            lang.pick("このデュエルを始める", "Start this duel"),
        ),
    };
    html! {
        <div class="overlay">
            <div class="dialog dialog-small" role="dialog" aria-modal="true" data-testid={ids[0]}
                aria-labelledby={ids[1]} aria-describedby={ids[2]} ref={node} onkeydown={on_key}>
                <h3 id={ids[1]}>{ title }</h3>
                <p id={ids[2]}>{ text }</p>
                if props.question == Question::EndTurn {
                    <label class="setting">
                        <input type="checkbox" data-testid="end-turn-dont-ask" checked={*dont_ask} onchange={on_toggle} />
                        { lang.pick(" 次からは確認しない（ホームの設定で戻せます）", " Don't ask again (the home page's settings bring it back)") }
                    </label>
                }
                <div class="dialog-actions">
                    <button type="button" class="btn btn-primary" data-testid={ids[3]} autofocus=true
                        onclick={props.on_cancel.reform(|_: MouseEvent| ())}>
                        { cancel }
                    </button>
                    <button type="button" class="btn btn-danger" data-testid={ids[4]} onclick={on_confirm}>
                        { confirm }
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
