//! The engine's pending decision as a modal: card selection with a counter, a choice
//! (mode, use a trigger, order simultaneous effects, battle position), or a chain response.

use duel_engine::view::{ChainLinkView, Meaning, PromptKind, PromptView};
use duel_engine::{CardId, Command, Response};
use yew::prelude::*;

use crate::ctx::use_ctx;
use crate::duel::card_view::{CardView, card_name, engine_lang};
use crate::i18n::{T, selected_counter};

#[derive(Debug, Properties, PartialEq, Clone)]
pub struct EffectDialogProps {
    /// The pending prompt, if any; otherwise the dialog asks about the open chain.
    pub prompt: Option<PromptView>,
    pub chain: Vec<ChainLinkView>,
    /// Commands the engine accepts now (chain responses are among them).
    pub legal: Vec<Command>,
    pub on_check: Callback<Command, Option<String>>,
    pub on_apply: Callback<Command>,
    /// The visible name of one of your cards (for chain responses).
    pub on_look_up_name: Callback<CardId, String>,
}

#[function_component(EffectDialog)]
pub fn effect_dialog(props: &EffectDialogProps) -> Html {
    let ctx = use_ctx();
    let lang = engine_lang(ctx.lang);
    let chosen = use_state(Vec::<CardId>::new);
    // A new prompt starts with an empty selection.
    {
        let chosen = chosen.clone();
        use_effect_with(props.prompt.clone(), move |_| chosen.set(Vec::new()));
    }

    let body = match &props.prompt {
        Some(prompt) => {
            let source = html! {
                <>
                    <div class="source" data-testid="dialog-source">
                        { match prompt.source {
                            Some(code) => format!("《{}》", card_name(code, ctx.lang)),
                            None => ctx.t(T::GameRule).to_owned(),
                        } }
                    </div>
                    if let Some(subject) = prompt.subject {
                        <div class="subject" data-testid="dialog-subject"
                            data-card-id={subject.code.map(|c| c.to_string())}>
                            <CardView code={subject.code} />
                        </div>
                    }
                </>
            };
            match &prompt.kind {
                PromptKind::Cards {
                    candidates,
                    min,
                    max,
                    ..
                } => {
                    let answer = Command::Respond(Response::Cards((*chosen).clone()));
                    let refusal = props.on_check.emit(answer.clone());
                    let on_confirm = {
                        let cb = props.on_apply.clone();
                        Callback::from(move |_: MouseEvent| cb.emit(answer.clone()))
                    };
                    html! {
                        <>
                            { source }
                            <h3>{ prompt.title(lang) }</h3>
                            <div class="counter" data-testid="dialog-counter" aria-live="polite">
                                { selected_counter(ctx.lang, chosen.len(), usize::from(*min), usize::from(*max)) }
                            </div>
                            if candidates.is_empty() {
                                <p class="notice" data-testid="no-valid-target">{ ctx.t(T::NoValidTarget) }</p>
                            }
                            <div class="choices">
                                { for candidates.iter().map(|c| {
                                    let id = c.id;
                                    let is_chosen = chosen.contains(&id);
                                    let chosen = chosen.clone();
                                    let onclick = Callback::from(move |_: MouseEvent| {
                                        let mut next = (*chosen).clone();
                                        if let Some(i) = next.iter().position(|x| *x == id) {
                                            next.remove(i);
                                        } else {
                                            next.push(id);
                                        }
                                        chosen.set(next);
                                    });
                                    html! {
                                        <button type="button" class={classes!("choice", is_chosen.then_some("selected"))}
                                            data-testid="dialog-option" data-card-id={c.code.map(|x| x.to_string())}
                                            aria-pressed={is_chosen.to_string()} onclick={onclick}>
                                            <CardView code={c.code} selected={is_chosen} />
                                        </button>
                                    }
                                }) }
                            </div>
                            // Once something is chosen, a choice the engine refuses says why
                            // (a Synchro Material set whose Levels do not add up, ...).
                            if let Some(reason) = refusal.as_ref().filter(|_| !chosen.is_empty()) {
                                <p class="reason" role="status" data-testid="dialog-reason">{ reason.clone() }</p>
                            }
                            <div class="dialog-actions">
                                <button type="button" class="btn btn-primary" data-testid="dialog-confirm"
                                    disabled={refusal.is_some()} onclick={on_confirm}>
                                    { ctx.t(T::Confirm) }
                                </button>
                            </div>
                        </>
                    }
                }
                PromptKind::Choice { options, .. } => html! {
                    <>
                        { source }
                        <h3>{ prompt.title(lang) }</h3>
                        <div class="options">
                            { for options.iter().map(|o| {
                                let cmd = Command::Respond(Response::Option(o.value));
                                let refusal = props.on_check.emit(cmd.clone());
                                let cb = props.on_apply.clone();
                                let (card_id, face) = match &o.meaning {
                                    Meaning::Card(c) => (
                                        c.code.map(|x| x.to_string()),
                                        html! { <CardView code={c.code} /> },
                                    ),
                                    _ => (None, Html::default()),
                                };
                                html! {
                                    <button type="button" class="btn" data-testid="dialog-option"
                                        data-option={o.key()} data-card-id={card_id}
                                        disabled={refusal.is_some()}
                                        onclick={Callback::from(move |_: MouseEvent| cb.emit(cmd.clone()))}>
                                        { face }
                                        { o.label(lang) }
                                    </button>
                                }
                            }) }
                        </div>
                    </>
                },
            }
        }
        None => {
            // The chain is open: offer every legal activation as a response, or pass.
            let responses: Vec<Command> = props
                .legal
                .iter()
                .filter(|c| {
                    matches!(
                        c,
                        Command::ActivateSpell { .. } | Command::ActivateEffect { .. }
                    )
                })
                .cloned()
                .collect();
            let on_pass = {
                let cb = props.on_apply.clone();
                Callback::from(move |_: MouseEvent| cb.emit(Command::PassChain))
            };
            html! {
                <>
                    <h3>{ ctx.lang.pick("チェーンしますか？", "Chain a card?") }</h3>
                    <ol class="chain">
                        { for props.chain.iter().map(|l| html! {
                            <li>{ format!("{} {}: {}", ctx.lang.pick("チェーン", "Chain link"), l.number,
                                l.card.code.map(|c| card_name(c, ctx.lang)).unwrap_or_default()) }</li>
                        }) }
                    </ol>
                    <div class="options">
                        { for responses.into_iter().map(|cmd| {
                            let cb = props.on_apply.clone();
                            let label = response_label(&cmd, &props.on_look_up_name, ctx.lang);
                            let card = match &cmd {
                                Command::ActivateSpell { card } | Command::ActivateEffect { card } => {
                                    Some(card.0.to_string())
                                }
                                _ => None,
                            };
                            html! {
                                <button type="button" class="btn" data-testid="dialog-option"
                                    data-instance={card}
                                    onclick={Callback::from(move |_: MouseEvent| cb.emit(cmd.clone()))}>
                                    { label }
                                </button>
                            }
                        }) }
                    </div>
                    <div class="dialog-actions">
                        <button type="button" class="btn btn-primary" data-testid="btn-pass" onclick={on_pass}>
                            { ctx.t(T::Pass) }
                        </button>
                    </div>
                </>
            }
        }
    };

    html! {
        <div class="overlay">
            <div class="dialog" role="dialog" aria-modal="true" data-testid="effect-dialog">
                { body }
            </div>
        </div>
    }
}

/// 「《name》を発動」 / "Activate 《name》" for a chain response.
fn response_label(
    cmd: &Command,
    on_look_up_name: &Callback<CardId, String>,
    lang: crate::i18n::Lang,
) -> String {
    match cmd {
        Command::ActivateSpell { card } => {
            let name = on_look_up_name.emit(*card);
            lang.pick(
                &format!("《{name}》を発動"),
                &format!("Activate 《{name}》"),
            )
            .to_owned()
        }
        Command::ActivateEffect { card } => {
            let name = on_look_up_name.emit(*card);
            lang.pick(
                &format!("《{name}》の効果を発動"),
                &format!("Activate 《{name}》's effect"),
            )
            .to_owned()
        }
        _ => T::Activate.text(lang).to_owned(),
    }
}
