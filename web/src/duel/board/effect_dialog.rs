//! The engine's pending decision as a modal: card selection with a counter, a choice
//! (mode, use a trigger, order simultaneous effects, battle position), or a chain response.

use duel_engine::effect::Step;
use duel_engine::view::{ChainLinkView, ChoiceOption, Meaning, PromptKind, PromptView};
use duel_engine::{CardId, Code, Command, Response};
use yew::prelude::*;

use crate::ctx::use_ctx;
use crate::duel::board::card_view::{CardView, card_name, engine_lang};
use crate::i18n::{T, selected_counter};
use crate::modal::use_dialog;

/// One of your cards as a chain response names it: its passcode when you can see it,
/// and its zone (`S1`, `F`, ...) when it is on the field.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ResponseCard {
    pub code: Option<Code>,
    pub slot: Option<String>,
}

/// Whether a mode of the source card's effect destroys that card (Chicken Game's
/// 「このカードを破壊する」): such choices are listed last, away from the pointer.
pub fn destroys_its_card(source: Option<Code>, option: &ChoiceOption) -> bool {
    let Meaning::Mode { label_en, .. } = &option.meaning else {
        return false;
    };
    source
        .and_then(duel_engine::card::card)
        .into_iter()
        .flat_map(|def| def.effects.iter())
        .flat_map(|e| e.modes.iter())
        .filter(|m| m.label_en == *label_en)
        .any(|m| m.resolve.iter().any(|s| matches!(s, Step::DestroySelf)))
}

#[derive(Debug, Properties, PartialEq, Clone)]
pub struct EffectDialogProps {
    /// The pending prompt, if any; otherwise the dialog asks about the open chain.
    pub prompt: Option<PromptView>,
    pub chain: Vec<ChainLinkView>,
    /// Commands the engine accepts now (chain responses are among them).
    pub legal: Vec<Command>,
    pub on_check: Callback<Command, Option<String>>,
    pub on_apply: Callback<Command>,
    /// What the page may show of one of your cards (for chain responses).
    pub on_look_up: Callback<CardId, ResponseCard>,
    /// The hint's next step, when the game follows its line: the dialog marks the choice
    /// it suggests (`data-suggested`).
    #[prop_or_default]
    pub hint: Option<Command>,
}

/// Whether the hint suggests this choice: the same command, or a card among the cards
/// its answer chooses.
fn suggested(hint: Option<&Command>, cmd: &Command, card: Option<CardId>) -> bool {
    match (hint, card) {
        (Some(Command::Respond(Response::Cards(cards))), Some(c)) => cards.contains(&c),
        (Some(h), None) => h == cmd,
        _ => false,
    }
}

#[function_component(EffectDialog)]
pub fn effect_dialog(props: &EffectDialogProps) -> Html {
    let ctx = use_ctx();
    let lang = engine_lang(ctx.lang);
    let chosen = use_state(Vec::<CardId>::new);
    // The rules wait for an answer: Escape does not close this dialog.
    let (node, on_key) = use_dialog(None);
    // A new prompt starts with an empty selection.
    {
        let chosen = chosen.clone();
        use_effect_with(props.prompt.clone(), move |_| chosen.set(Vec::new()));
    }

    let hint_cmd = props.hint.as_ref();
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
                            <h3 id="effect-dialog-title">{ prompt.title(lang) }</h3>
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
                                    let hinted = suggested(hint_cmd, &Command::PassChain, Some(id));
                                    html! {
                                        <button type="button" class={classes!("choice", is_chosen.then_some("selected"))}
                                            data-testid="dialog-option" data-card-id={c.code.map(|x| x.to_string())}
                                            data-suggested={hinted.then_some("true")}
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
                PromptKind::Choice { options, .. } => {
                    // A choice that destroys the card's own card goes last (a partition:
                    // a sort would compile the standard library's sort into the bundle).
                    let (last, mut options): (Vec<&ChoiceOption>, Vec<&ChoiceOption>) = options
                        .iter()
                        .partition(|o| destroys_its_card(prompt.source, o));
                    options.extend(last);
                    html! {
                    <>
                        { source }
                        <h3 id="effect-dialog-title">{ prompt.title(lang) }</h3>
                        <div class="options">
                            { for options.into_iter().map(|o| {
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
                                let hinted = suggested(hint_cmd, &cmd, None);
                                html! {
                                    <button type="button" class="btn" data-testid="dialog-option"
                                        data-option={o.key()} data-card-id={card_id} data-suggested={hinted.then_some("true")}
                                        disabled={refusal.is_some()}
                                        onclick={Callback::from(move |_: MouseEvent| cb.emit(cmd.clone()))}>
                                        { face }
                                        { o.label(lang) }
                                    </button>
                                }
                            }) }
                        </div>
                    </>
                    }
                }
            }
        }
        None => {
            // The chain is open: offer every legal activation as a response, or pass; two
            // copies of a card in the hand would make two identical buttons: one is offered.
            let mut responses: Vec<(Command, ResponseCard)> = Vec::new();
            for cmd in &props.legal {
                let (Command::ActivateSpell { card } | Command::ActivateEffect { card }) = cmd
                else {
                    continue;
                };
                let seen = props.on_look_up.emit(*card);
                let same = |(c, s): &(Command, ResponseCard)| {
                    *s == seen
                        && seen.slot.is_none()
                        && std::mem::discriminant(c) == std::mem::discriminant(cmd)
                };
                if !responses.iter().any(same) {
                    responses.push((cmd.clone(), seen));
                }
            }
            let on_pass = {
                let cb = props.on_apply.clone();
                Callback::from(move |_: MouseEvent| cb.emit(Command::PassChain))
            };
            html! {
                <>
                    <h3 id="effect-dialog-title">{ ctx.lang.pick("チェーンしますか？", "Chain a card?") }</h3>
                    <ol class="chain">
                        { for props.chain.iter().map(|l| html! {
                            <li>{ format!("{} {}: {}", ctx.lang.pick("チェーン", "Chain link"), l.number,
                                l.card.code.map(|c| card_name(c, ctx.lang)).unwrap_or_default()) }</li>
                        }) }
                    </ol>
                    <div class="options">
                        { for responses.into_iter().map(|(cmd, seen)| {
                            let cb = props.on_apply.clone();
                            let label = response_label(&cmd, &seen, ctx.lang);
                            // A hint naming another copy of the same card suggests this one.
                            let hinted = hint_cmd.is_some_and(|h| match (h, &cmd) {
                                (Command::ActivateSpell { card: a }, Command::ActivateSpell { .. })
                                | (Command::ActivateEffect { card: a }, Command::ActivateEffect { .. }) => {
                                    props.on_look_up.emit(*a) == seen
                                }
                                _ => false,
                            });
                            html! {
                                <button type="button" class="btn" data-testid="dialog-option"
                                    data-card-id={seen.code.map(|c| c.to_string())} data-slot={seen.slot.clone()}
                                    data-suggested={hinted.then_some("true")}
                                    onclick={Callback::from(move |_: MouseEvent| cb.emit(cmd.clone()))}>
                                    { label }
                                </button>
                            }
                        }) }
                    </div>
                    <div class="dialog-actions">
                        // Enter on the question does the safe thing: nothing is chained.
                        <button type="button" class="btn btn-primary" data-testid="btn-pass" onclick={on_pass} autofocus=true
                            data-suggested={suggested(hint_cmd, &Command::PassChain, None).then_some("true")}>
                            { ctx.t(T::Pass) }
                        </button>
                    </div>
                </>
            }
        }
    };

    html! {
        <div class="overlay">
            <div class="dialog" role="dialog" aria-modal="true" data-testid="effect-dialog"
                aria-labelledby="effect-dialog-title" ref={node} onkeydown={on_key}>
                { body }
            </div>
        </div>
    }
}

/// 「《name》を発動」 / "Activate 《name》" for a chain response; a set card is named by
/// its zone (「S2の裏側のカード」).
fn response_label(cmd: &Command, seen: &ResponseCard, lang: crate::i18n::Lang) -> String {
    let name = match (seen.code, &seen.slot) {
        (Some(code), _) => card_name(code, lang),
        (None, Some(slot)) => lang
            .pick(
                &format!("{slot}の裏側のカード"),
                &format!("face-down card in {slot}"),
            )
            .to_owned(),
        (None, None) => lang.pick("裏側のカード", "face-down card").to_owned(),
    };
    match cmd {
        Command::ActivateSpell { .. } => lang
            .pick(
                &format!("《{name}》を発動"),
                &format!("Activate 《{name}》"),
            )
            .to_owned(),
        Command::ActivateEffect { .. } => lang
            .pick(
                &format!("《{name}》の効果を発動"),
                &format!("Activate 《{name}》's effect"),
            )
            .to_owned(),
        _ => T::Activate.text(lang).to_owned(),
    }
}
