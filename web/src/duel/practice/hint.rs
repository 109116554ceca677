//! The hint: "can this position still win this turn?", searched in the Web Worker knowing
//! the deck order, answered with a line of play the player can step through on the board.

use std::rc::Rc;

use duel_engine::{Command, Duel};
use yew::prelude::*;

use crate::ctx::use_ctx;
use crate::duel::practice::jobs::{
    HINT_BUDGET, HINT_BUDGET_MAX, HINT_DEEPER, Hint, HintAnswer, Words,
};
use crate::duel::practice::winnable::use_winnable;
use crate::duel::state::{Action, DuelState};
use crate::worker::{self, Options};

#[derive(Debug, Properties, Clone)]
pub struct HintProps {
    pub state: UseReducerHandle<DuelState>,
    /// The state's `version` when the parent rendered (it is bumped on every change of
    /// the duel or of the actions to redo).
    pub version: u64,
    /// Hears the line's next step while the game follows a winning line, `None`
    /// otherwise: the duel's dialogs mark the choice it suggests.
    #[prop_or_default]
    pub on_step: Callback<Option<Command>>,
}

impl PartialEq for HintProps {
    /// By the version the props were made with: a handle reads the reducer's current
    /// state (an old handle too), so only a value copied at render time tells the old
    /// props from the new; and the handle's own comparison, of the whole duel, cost
    /// about 4 KB of wasm.
    fn eq(&self, other: &Self) -> bool {
        self.version == other.version
    }
}

/// Where the hint is.
#[derive(Debug, Clone, PartialEq)]
enum Phase {
    Idle,
    Running {
        done: f64,
        budget: u32,
    },
    Cancelled,
    Answered {
        /// The commands of the position it answers for.
        base: Vec<Command>,
        answer: HintAnswer,
        /// A winning line in words (the worker describes it).
        words: Words,
        /// The winning line is proved shortest.
        shortest: bool,
        budget: u32,
        ms: f64,
    },
    /// The job failed, and why.
    Failed(String),
    /// No worker could start, and this page cannot run the hint itself.
    NoWorker,
}

/// How far the player has followed a winning line found at the position after `base`:
/// `Some((k, line))` when the game went from there through the line's first `k` steps,
/// with the line as it reads now; `None` when it went elsewhere (the hint no longer
/// applies). A step made by hand that does what the line's step does (another copy of
/// the named card, the named cards chosen in another order: `Duel::same_action`) counts,
/// and the rest of the line then names the copies the player used. `at_base` replays
/// that position, only when a step differs from the line's (a `dyn` function: the hint
/// and the "still winnable?" indicator share one copy of this code in the bundle).
pub fn follow(
    at_base: &dyn Fn() -> Option<Duel>,
    base: &[Command],
    line: &[Command],
    log: &[Command],
) -> Option<(usize, Vec<Command>)> {
    let since = log.strip_prefix(base)?;
    if line.starts_with(since) {
        return Some((since.len(), line.to_vec()));
    }
    let mut duel = at_base()?;
    let mut line = line.to_vec();
    for (k, cmd) in since.iter().enumerate() {
        let pairs = duel.same_action(line.get(k)?, cmd)?;
        let rest = duel_engine::swap_cards(&line[k..], &pairs);
        line.truncate(k);
        line.extend(rest);
        line[k] = cmd.clone();
        duel.apply(cmd.clone()).ok()?;
    }
    Some((since.len(), line))
}

#[function_component(HintPanel)]
pub fn hint_panel(props: &HintProps) -> Html {
    let ctx = use_ctx();
    let lang = ctx.lang;
    let state = &props.state;
    let phase = use_state(|| Phase::Idle);
    // Leaving the page stops a search still running.
    let job = worker::use_job_slot();
    let winnable = use_winnable(state, props.version);

    let ask = {
        let job = job.clone();
        let setter = phase.setter();
        let state = state.clone();
        Rc::new(move |budget: u32| {
            let Some(duel) = &state.duel else {
                return;
            };
            if let Some(old) = job.borrow_mut().take() {
                old.abort();
            }
            let task = Hint {
                deck: state.deck.clone(),
                custom: state.custom().cloned(),
                seed: state.seed,
                settings: state.settings,
                commands: duel.log().to_vec(),
                budget,
            };
            let base = task.commands.clone();
            setter.set(Phase::Running { done: 0.0, budget });
            let on_progress = {
                let setter = setter.clone();
                Rc::new(move |done: f64| setter.set(Phase::Running { done, budget }))
            };
            let setter = setter.clone();
            let running = worker::run_with(
                &task,
                Options {
                    spread: false,
                    progress: Some(on_progress),
                },
                move |answer| {
                    setter.set(match answer {
                        Ok(done) => Phase::Answered {
                            base,
                            answer: done.value.answer,
                            words: done.value.words,
                            shortest: done.value.shortest,
                            budget,
                            ms: done.ms,
                        },
                        // The release duel page runs its hint only in a worker on the
                        // duel-analysis module (see `worker::worker_module`).
                        Err(_) if worker::runner() == worker::Runner::Page => Phase::NoWorker,
                        Err(e) => Phase::Failed(e.to_string()),
                    });
                },
            );
            *job.borrow_mut() = Some(running);
        })
    };
    let on_ask = {
        let ask = ask.clone();
        Callback::from(move |_: MouseEvent| ask(HINT_BUDGET))
    };
    let on_cancel = {
        let job = job.clone();
        let setter = phase.setter();
        Callback::from(move |_: MouseEvent| {
            if let Some(running) = job.borrow_mut().take() {
                running.abort();
            }
            setter.set(Phase::Cancelled);
        })
    };

    let Some(duel) = &state.duel else {
        return html! {};
    };
    let log = duel.log();
    let running = matches!(*phase, Phase::Running { .. });
    let over = duel.outcome().is_some();

    // The line in words, read against the position it was found from (the worker
    // describes it in both languages).
    let steps: &[String] = match &*phase {
        Phase::Answered { words, .. } => words.pick(lang),
        _ => &[],
    };

    // How far the game has followed a winning line, and the line as it reads now (the
    // panel renders only when the duel or the hint changes: no memo needed).
    let progress = match &*phase {
        Phase::Answered {
            base,
            answer: HintAnswer::Win(line),
            ..
        } => follow(&|| state.deal().replay(base), base, line, log),
        _ => None,
    };
    let next_step = progress
        .as_ref()
        .and_then(|(k, line)| line.get(*k).cloned());
    {
        let on_step = props.on_step.clone();
        use_effect_with(next_step.clone(), move |next| on_step.emit(next.clone()));
    }

    let body = match &*phase {
        Phase::Idle => Html::default(),
        Phase::Running { done, budget } => html! {
            <div class="hint-running" role="status">
                <progress data-testid="hint-progress" max="1" value={number_text(*done)} data-value={number_text(*done)}></progress>
                <span class="muted">{ format!("{} {}", lang.pick("探索中… 上限", "Searching… up to"), thousands(*budget)) }{ lang.pick(" 局面", " positions") }</span>
                <button type="button" class="btn" data-testid="btn-hint-cancel" onclick={on_cancel}>
                    { lang.pick("中止", "Cancel") }
                </button>
            </div>
        },
        Phase::Cancelled => html! {
            <p class="muted" data-testid="hint-cancelled">{ lang.pick("探索を中止しました。", "The search was cancelled.") }</p>
        },
        Phase::NoWorker => html! {
            <p class="error" role="alert" data-testid="hint-error">{ lang.pick("このブラウザではヒントを使えません（Web Worker が必要です）。", "This browser cannot run the hint: it needs Web Workers.") }</p>
        },
        Phase::Failed(why) => html! {
            <p class="error" role="alert" data-testid="hint-error">{ format!("{}{why}", lang.pick("ヒントを求められませんでした：", "No hint: ")) }</p>
        },
        Phase::Answered {
            base,
            answer,
            shortest,
            budget,
            ms,
            ..
        } => {
            // A winning line stays good while the game follows it; any other answer
            // belongs to its position only.
            let stale = match answer {
                HintAnswer::Win(_) => progress.is_none(),
                _ => log != base.as_slice(),
            };
            let searched = format!(
                "{} {} {}, {} s",
                lang.pick("上限", "budget"),
                thousands(*budget),
                lang.pick("局面", "positions"),
                fixed1(ms / 1000.0)
            );
            let headline = match answer {
                HintAnswer::Win(line) => format!(
                    "{} {} {}{}",
                    lang.pick("勝てます：", "Yes, this turn:"),
                    line.len(),
                    lang.pick("手の勝ち筋", "commands"),
                    if *shortest {
                        lang.pick("（最短と証明済み）", " (proved shortest)")
                    } else {
                        ""
                    }
                ),
                HintAnswer::NoWin => lang
                    .pick(
                        "勝てません（すべての手順を調べて勝ち筋がないことを確かめました）",
                        "No: every line was tried and none wins (proved)",
                    )
                    .to_owned(),
                HintAnswer::Undecided => lang
                    .pick(
                        "探索の上限までに判定できませんでした",
                        "Not decided within the search budget",
                    )
                    .to_owned(),
            };
            let line_html = match answer {
                HintAnswer::Win(_) => {
                    let at = progress.as_ref().map(|(k, _)| *k);
                    let next = next_step.clone();
                    let on_next = {
                        let d = state.dispatcher();
                        Callback::from(move |_: MouseEvent| {
                            if let Some(cmd) = next.clone() {
                                d.dispatch(Action::Apply(cmd));
                            }
                        })
                    };
                    html! {
                        <>
                            <ol class="hint-steps">
                                { for steps.iter().enumerate().map(|(i, text)| {
                                    let done = at.is_some_and(|k| i < k);
                                    let current = at == Some(i);
                                    html! {
                                        <li data-testid="hint-step" data-done={done.to_string()} class={classes!(done.then_some("done"), current.then_some("current"))}
                                            aria-current={current.then_some("step")}>{ text }</li>
                                    }
                                }) }
                            </ol>
                            // The next step and its button stay above any dialog (see
                            // `.float-tools`): when the step is a choice, a dialog asks it.
                            if let Some(text) = at.and_then(|k| steps.get(k)) {
                                <div class="float-tools hint-next" data-float="" data-testid="hint-next">
                                    <span class="hint-next-text">{ lang.pick("次の手：", "Next: ") }{ text }</span>
                                    <button type="button" class="btn btn-primary" data-testid="btn-hint-next" onclick={on_next}>
                                        { lang.pick("次の手を盤面で進める", "Play the next step on the board") }
                                    </button>
                                </div>
                            }
                        </>
                    }
                }
                HintAnswer::Undecided if *budget < HINT_BUDGET_MAX && !stale => {
                    let ask = ask.clone();
                    let deeper = budget.saturating_mul(HINT_DEEPER).min(HINT_BUDGET_MAX);
                    html! {
                        <button type="button" class="btn" data-testid="btn-hint-deeper" onclick={Callback::from(move |_: MouseEvent| ask(deeper))}>
                            { format!("{} {} {}", lang.pick("もっと探す（上限", "Search longer (up to"), thousands(deeper), lang.pick("局面）", "positions)")) }
                        </button>
                    }
                }
                _ => Html::default(),
            };
            html! {
                <div class="hint-answer">
                    <p data-testid="hint-result" data-result={answer.key()} data-shortest={shortest.to_string()} class={classes!("hint-result", format!("hint-{}", answer.key()))}>
                        <strong>{ headline }</strong>{ " " }<span class="muted">{ format!("({searched})") }</span>
                    </p>
                    if stale {
                        <p class="notice" data-testid="hint-stale">
                            { lang.pick("この答えは前の局面のものです。もう一度ヒントを求めてください。", "This answer is for an earlier position: ask again.") }
                        </p>
                    }
                    { line_html }
                </div>
            }
        }
    };

    html! {
        <div class="hint" data-testid="hint-panel">
            <div class="btn-row">
                <button type="button" class="btn" data-testid="btn-hint" disabled={running || over} onclick={on_ask}>
                    { lang.pick("ヒント：このターンにまだ勝てる？", "Hint: can this turn still be won?") }
                </button>
            </div>
            <p class="muted hint-oracle" data-testid="hint-oracle">
                { lang.pick(
                    "ヒントはデッキの並び順を知った上で探します（実際の決闘では分からない情報を使います）。",
                    "The hint knows the order of your deck: it searches with information a real duel would not give you.",
                ) }
            </p>
            { body }
            { winnable }
        </div>
    }
}

/// A count with thousands separators (20,000).
pub fn thousands(n: u32) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `x` with one decimal (`2.35` -> `"2.4"`, like `{:.1}` up to ties), by integer
/// arithmetic: `{:.1}` would link core's float formatting (about 10 KB of wasm) into the
/// duel bundle for this one figure. Negative, NaN and huge values show as `0.0` and the
/// largest `u64` tenth respectively (`as` saturates).
pub fn fixed1(x: f64) -> String {
    let tenths = (x * 10.0 + 0.5) as u64;
    format!("{}.{}", tenths / 10, tenths % 10)
}

/// A number as JavaScript writes it (`0.25`, `1`): Rust's `f64` formatting would link
/// core's float printing into the duel bundle for a progress bar's value.
pub fn number_text(x: f64) -> String {
    #[cfg(target_arch = "wasm32")]
    {
        js_sys::Number::from(x)
            .to_string_with_radix(10)
            .map(String::from)
            .unwrap_or_default()
    }
    // Native builds (unit tests) have no JavaScript; only the wasm build is size-bound.
    #[cfg(not(target_arch = "wasm32"))]
    {
        x.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_is_followed_while_the_game_goes_through_its_commands() {
        let base = vec![Command::PassChain];
        let line = vec![Command::EndTurn, Command::PassChain];
        let at = |log: &[Command]| follow(&|| None, &base, &line, log).map(|(k, _)| k);
        assert_eq!(at(&base), Some(0));
        assert_eq!(at(&[Command::PassChain, Command::EndTurn]), Some(1));
        assert_eq!(
            at(&[Command::PassChain, Command::EndTurn, Command::PassChain]),
            Some(2)
        );
        assert_eq!(
            at(&[Command::PassChain, Command::PassChain]),
            None,
            "went elsewhere"
        );
        assert_eq!(at(&[]), None, "taken back before the hint's position");
    }

    #[test]
    fn a_step_made_by_hand_with_another_copy_of_the_named_card_follows_the_line() {
        const POT_OF_GREED: u32 = 55144522;
        let start = || {
            duel_engine::Setup::new()
                .hand([POT_OF_GREED, POT_OF_GREED])
                .deck([27125110; 8])
                .build()
                .ok()
        };
        let duel = start().expect("valid");
        let pots: Vec<_> = duel.view().you.hand.iter().map(|c| c.id).collect();
        let play = |card| Command::ActivateSpell { card };
        let line = vec![play(pots[0]), play(pots[1])];
        // The player activated the other copy first: the line goes on with the copy left.
        assert_eq!(
            follow(&start, &[], &line, &[play(pots[1])]),
            Some((1, vec![play(pots[1]), play(pots[0])]))
        );
        assert_eq!(follow(&start, &[], &line, &[Command::EndTurn]), None);
    }

    #[test]
    fn counts_get_thousands_separators() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(20_000), "20,000");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }

    #[test]
    fn one_decimal_without_float_formatting() {
        assert_eq!(fixed1(0.0), "0.0");
        assert_eq!(fixed1(0.04), "0.0");
        assert_eq!(fixed1(0.06), "0.1");
        assert_eq!(fixed1(2.34), "2.3");
        assert_eq!(fixed1(12.0), "12.0");
        assert_eq!(fixed1(99.96), "100.0");
        assert_eq!(fixed1(-3.0), "0.0");
        assert_eq!(fixed1(f64::NAN), "0.0");
        for x in [0.26, 1.74, 3.27, 42.42, 1234.5678] {
            assert_eq!(fixed1(x), format!("{x:.1}"));
        }
    }
}
