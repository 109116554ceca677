//! The point of no return of a duel that was not won, shown in the game-over dialog and
//! on the replay page: the first action after which the hand could no longer be won
//! (knowing the deck order), and a line that won from the position before it. Computed
//! in the Web Worker (the duel page's worker runs the duel-analysis module, which has the
//! solver), so no frame waits for it.

use std::rc::Rc;

use duel_engine::analysis::PointOfNoReturn;
use yew::prelude::*;

use crate::duel::practice::hint::number_text;
use crate::duel::practice::jobs::{NoReturn, NoReturnReply};
use crate::i18n::Lang;
use crate::worker::{self, Options};

/// Where the search for a game's point of no return is.
#[derive(Debug, Clone, PartialEq)]
pub enum NoReturnPhase {
    /// Nothing asked.
    Idle,
    /// Searching; the share of the work done (an estimate).
    Thinking(f64),
    Answered(NoReturnReply),
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

/// The answer in words: `data-testid="no-return"` with `data-state` (`thinking`, `found`,
/// `never`, `won`, `still`, `undecided`, `error`) and, when found, `data-step` (the
/// index from 0 of the action in the game's log) and the winning line as
/// `no-return-line`. `on_show` (the replay page has it) shows the position before the
/// point of no return.
///
/// A plain function, not a component: the game-over dialog renders rarely, and a
/// component with a memo weighed about a kilobyte more in the duel bundle, whose size
/// budget is tight. The words come from the worker ([`NoReturnReply`]).
pub fn no_return_view(phase: &NoReturnPhase, lang: Lang, on_show: Option<Callback<usize>>) -> Html {
    let (state, body) = match phase {
        NoReturnPhase::Idle => return Html::default(),
        NoReturnPhase::Thinking(done) => (
            "thinking",
            html! {
                <p>
                    { lang.pick("勝ち筋がなくなった手を調べています…", "Looking for the action that threw the win away…") }
                    { " " }
                    <progress max="1" value={number_text(*done)}></progress>
                </p>
            },
        ),
        NoReturnPhase::Answered(NoReturnReply {
            point: PointOfNoReturn::NoReturn { step, line },
            words,
        }) => {
            let step = *step;
            // The fatal action and the line in words (the worker describes them: the
            // first step is the fatal action).
            let (fatal, steps) = words.pick(lang).split_first().unzip();
            let (ja, en) = (step + 1, line.len());
            let body = html! {
                <>
                    <p>
                        <strong>{ match lang {
                            Lang::Ja => format!("{ja}手目で勝ち筋がなくなりました："),
                            Lang::En => format!("The win slipped away at action {ja}: "),
                        } }</strong>
                        { fatal.cloned().unwrap_or_default() }
                    </p>
                    <p>{ match lang {
                        Lang::Ja => format!("その直前の局面からは、この{en}手で勝てました："),
                        Lang::En => format!("From the position just before it, these {en} steps won:"),
                    } }</p>
                    <ol data-testid="no-return-line">
                        { for steps.unwrap_or_default().iter().map(|text| html! { <li data-testid="no-return-step">{ text }</li> }) }
                    </ol>
                    if let Some(show) = on_show {
                        <button type="button" class="btn" data-testid="btn-no-return-show" onclick={show.reform(move |_: MouseEvent| step)}>
                            { lang.pick("その直前の局面を見る", "Show the position before it") }
                        </button>
                    }
                </>
            };
            ("found", body)
        }
        NoReturnPhase::Answered(answer) => {
            let (state, text) = match answer.point {
                PointOfNoReturn::NeverWinnable => (
                    "never",
                    lang.pick(
                        "最初の手札から勝ち筋はありませんでした（すべての手順を調べました）。",
                        "This hand could not be won from the start: every line was tried.",
                    ),
                ),
                PointOfNoReturn::Won => {
                    ("won", lang.pick("勝った決闘です。", "This duel was won."))
                }
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
                        "探索の上限までに判定できませんでした。",
                        "Not decided within the search budget.",
                    ),
                ),
            };
            (state, html! { <p>{ text }</p> })
        }
        NoReturnPhase::Failed(why) => (
            "error",
            html! { <p class="error" role="alert">{ why.clone() }</p> },
        ),
        NoReturnPhase::NoWorker => (
            "error",
            html! { <p class="error" role="alert">{ lang.pick("Web Worker が使えないため調べられません。", "This browser cannot search: it has no Web Workers.") }</p> },
        ),
    };
    let step = match phase {
        NoReturnPhase::Answered(NoReturnReply {
            point: PointOfNoReturn::NoReturn { step, .. },
            ..
        }) => Some(step.to_string()),
        _ => None,
    };
    html! {
        <section class="no-return" data-testid="no-return" data-state={state} data-step={step} aria-live="polite">
            <h4>{ lang.pick("勝ち筋がなくなった手（デッキの並び順を知った上で調べます）", "The point of no return (searched knowing the deck order)") }</h4>
            { body }
        </section>
    }
}
