//! The point of no return of a duel that was not won, shown in the game-over dialog and
//! on the replay page: the first action after which the hand could no longer be won
//! (knowing the deck order), and a line that won from the position before it. Computed
//! in the Web Worker (the duel page's worker runs the duel-analysis module, which has the
//! solver), so no frame waits for it.

use std::rc::Rc;

use duel_engine::Duel;
use duel_engine::analysis::PointOfNoReturn;
use yew::prelude::*;

use crate::ctx::use_ctx;
use crate::duel::card_view::engine_lang;
use crate::duel::hint::number_text;
use crate::duel::jobs::NoReturn;
use crate::worker::{self, Options};

/// Where the search for a game's point of no return is.
#[derive(Debug, Clone, PartialEq)]
pub enum NoReturnPhase {
    /// Nothing asked.
    Idle,
    /// Searching; the share of the work done (an estimate).
    Thinking(f64),
    Answered(PointOfNoReturn),
    /// The job failed, and why.
    Failed(String),
    /// No worker could start, and this page cannot run the search itself.
    NoWorker,
}

/// Searches `game`'s point of no return in the worker whenever the game changes (none:
/// nothing is searched); a search still running when the game changes or the component
/// goes away is stopped.
#[hook]
pub fn use_no_return(game: Option<NoReturn>) -> NoReturnPhase {
    let phase = use_state(|| NoReturnPhase::Idle);
    {
        let setter = phase.setter();
        use_effect_with(game, move |game| {
            let job = game.as_ref().map(|task| {
                setter.set(NoReturnPhase::Thinking(0.0));
                let on_progress = {
                    let setter = setter.clone();
                    Rc::new(move |done: f64| setter.set(NoReturnPhase::Thinking(done)))
                };
                let setter = setter.clone();
                worker::run_with(
                    task,
                    Options {
                        spread: false,
                        progress: Some(on_progress),
                    },
                    move |answer| {
                        setter.set(match answer {
                            Ok(done) => NoReturnPhase::Answered(done.value),
                            // The release duel page runs the search only in a worker on
                            // the duel-analysis module (see `worker::worker_module`).
                            Err(_) if worker::runner() == worker::Runner::Page => {
                                NoReturnPhase::NoWorker
                            }
                            Err(e) => NoReturnPhase::Failed(e.to_string()),
                        })
                    },
                )
            });
            if job.is_none() {
                setter.set(NoReturnPhase::Idle);
            }
            move || {
                if let Some(job) = job {
                    job.abort();
                }
            }
        });
    }
    (*phase).clone()
}

#[derive(Debug, Properties, PartialEq, Clone)]
pub struct NoReturnProps {
    pub phase: NoReturnPhase,
    /// The game the phase answers for.
    pub game: NoReturn,
    /// Shows the position before the point of no return (the replay page has one).
    #[prop_or_default]
    pub on_show: Option<Callback<usize>>,
}

/// The answer in words: `data-testid="no-return"` with `data-state` (`thinking`, `found`,
/// `never`, `won`, `still`, `undecided`, `error`) and, when found, `data-step` (the
/// index from 0 of the action in the game's log) and the winning line as
/// `no-return-line`.
#[function_component(NoReturnView)]
pub fn no_return_view(props: &NoReturnProps) -> Html {
    let ctx = use_ctx();
    let lang = ctx.lang;
    // The fatal action and the line in words, read against the position before it (once
    // per answer and language).
    let words = use_memo(
        (props.phase.clone(), lang, props.game.clone()),
        |(phase, lang, game)| {
            let NoReturnPhase::Answered(PointOfNoReturn::NoReturn { step, line }) = phase else {
                return (String::new(), Vec::new());
            };
            let before = game.commands.get(..*step).unwrap_or_default();
            let Ok(duel) = Duel::replay(&game.deck, game.seed, game.settings, before) else {
                return (String::new(), Vec::new());
            };
            let lang = engine_lang(*lang);
            let fatal = game
                .commands
                .get(*step)
                .map(|cmd| duel.describe(cmd, lang))
                .unwrap_or_default();
            (fatal, duel.describe_line(line, lang))
        },
    );
    let (state, body) = match &props.phase {
        NoReturnPhase::Idle => return Html::default(),
        NoReturnPhase::Thinking(done) => (
            "thinking",
            html! {
                <p>
                    { lang.pick("勝ち筋がなくなった手を調べています…", "Looking for the action that threw the win away…") }
                    { " " }
                    <progress max="1" value={number_text(*done)} data-testid="no-return-progress"></progress>
                </p>
            },
        ),
        NoReturnPhase::Answered(PointOfNoReturn::NoReturn { step, line }) => {
            let (fatal, steps) = &*words;
            let on_show = props.on_show.clone().map(|show| {
                let step = *step;
                Callback::from(move |_: MouseEvent| show.emit(step))
            });
            (
                "found",
                html! {
                    <>
                        <p>
                            <strong>{ match lang {
                                crate::i18n::Lang::Ja => format!("{}手目で勝ち筋がなくなりました：", step + 1),
                                crate::i18n::Lang::En => format!("The win slipped away at action {}: ", step + 1),
                            } }</strong>
                            <span data-testid="no-return-action">{ fatal.clone() }</span>
                        </p>
                        <p>{ match lang {
                            crate::i18n::Lang::Ja => format!("その直前の局面からは、この{}手で勝てました：", line.len()),
                            crate::i18n::Lang::En => format!("From the position just before it, these {} steps won:", line.len()),
                        } }</p>
                        <ol class="no-return-line" data-testid="no-return-line">
                            { for steps.iter().map(|text| html! { <li data-testid="no-return-step">{ text }</li> }) }
                        </ol>
                        if let Some(on_show) = on_show {
                            <button type="button" class="btn" data-testid="btn-no-return-show" onclick={on_show}>
                                { lang.pick("その直前の局面を見る", "Show the position before it") }
                            </button>
                        }
                    </>
                },
            )
        }
        NoReturnPhase::Answered(answer) => {
            let (state, text) = match answer {
                PointOfNoReturn::NeverWinnable => (
                    "never",
                    lang.pick(
                        "最初の手札から勝ち筋はありませんでした（すべての手順を調べて確かめました）。",
                        "This hand could not be won from the start: every line was tried.",
                    ),
                ),
                PointOfNoReturn::Won => (
                    "won",
                    lang.pick("この決闘は勝っています。", "This duel was won."),
                ),
                PointOfNoReturn::StillWinnable => (
                    "still",
                    lang.pick(
                        "最後の局面からまだ勝てます。",
                        "The last position can still be won.",
                    ),
                ),
                _ => (
                    "undecided",
                    lang.pick(
                        "探索の上限までに判定できませんでした。勝ち筋がなくなった手は分かりません。",
                        "Not decided within the search budget: the action that threw the win away is unknown.",
                    ),
                ),
            };
            (state, html! { <p>{ text }</p> })
        }
        NoReturnPhase::Failed(why) => (
            "error",
            html! { <p class="error" role="alert">{ format!("{}{why}", lang.pick("調べられませんでした：", "Could not search: ")) }</p> },
        ),
        NoReturnPhase::NoWorker => (
            "error",
            html! { <p class="error" role="alert">{ lang.pick("このブラウザでは調べられません（Web Worker が必要です）。", "This browser cannot run the search: it needs Web Workers.") }</p> },
        ),
    };
    let step = match &props.phase {
        NoReturnPhase::Answered(PointOfNoReturn::NoReturn { step, .. }) => Some(step.to_string()),
        _ => None,
    };
    html! {
        <section class="no-return" data-testid="no-return" data-state={state} data-step={step} aria-live="polite">
            <h4>{ lang.pick("勝ち筋がなくなった手", "The point of no return") }</h4>
            <p class="muted">{ lang.pick("デッキの並び順を知った上で調べます。", "Searched knowing the order of the deck.") }</p>
            { body }
        </section>
    }
}
