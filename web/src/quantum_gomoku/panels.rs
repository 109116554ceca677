//! Quantum Gomoku side panels: status bar with observation counters, last observation, win probability and move log.

use std::rc::Rc;

use quantum_gomoku::{
    GameView, LogEntry, ObservationView, Player, ProbabilityMethod, WinProbability,
};
use yew::prelude::*;

use crate::ctx::use_ctx;
use crate::i18n::T;

use super::text;

#[derive(Properties, PartialEq, Clone, Debug)]
pub struct StatusBarProps {
    pub view: Rc<GameView>,
}

#[function_component(StatusBar)]
pub fn status_bar(props: &StatusBarProps) -> Html {
    let ctx = use_ctx();
    let lang = ctx.lang;
    let v = &props.view;
    let winner = v.winner.map_or_else(
        || ctx.t(T::QgNobody).to_owned(),
        |w| text::player(lang, w).to_owned(),
    );
    let counter = |test_id: &'static str, who: Player, label: T, value: u8| {
        html! {
            <span class="qg-counter" data-testid={test_id} data-value={value.to_string()}>
                { format!("{} {}: {value}", text::player(lang, who), ctx.t(label)) }
            </span>
        }
    };
    html! {
        <div class="qg-status" role="status" data-testid="status-bar">
            <span data-testid="status-id" data-value={v.id.clone()}>
                { format!("{}: ", ctx.t(T::QgId)) }<code>{ v.id.clone() }</code>
            </span>
            <span data-testid="status-turn" data-value={v.turn_count.to_string()}>
                { format!("{}: {}", ctx.t(T::QgTurn), v.turn_count) }
            </span>
            <span data-testid="status-current" data-value={v.current_player.as_str()}>
                { format!("{}: {}", ctx.t(T::QgCurrentPlayer), text::player(lang, v.current_player)) }
            </span>
            <span data-testid="status-status" data-value={v.status.as_str()}>
                { format!("{}: {}", ctx.t(T::QgStatus), text::status(lang, v.status)) }
            </span>
            <span data-testid="status-winner" data-value={v.winner.map_or("", |w| w.as_str())}>
                { format!("{}: {winner}", ctx.t(T::QgWinner)) }
            </span>
            <span class="qg-counters">
                { counter("obs-remaining-black", Player::Black, T::QgObsRemaining, v.black.remaining) }
                { counter("obs-used-black", Player::Black, T::QgObsUsed, v.black.used) }
                { counter("obs-remaining-white", Player::White, T::QgObsRemaining, v.white.remaining) }
                { counter("obs-used-white", Player::White, T::QgObsUsed, v.white.used) }
            </span>
        </div>
    }
}

#[derive(Properties, PartialEq, Clone, Debug)]
pub struct ObservationSummaryProps {
    pub observation: ObservationView,
    /// The game's line length (to tell whether the losing colour made a line too).
    pub win_length: usize,
}

/// The explanation of an observation in words (see `text::observation`).
pub fn observation_text(lang: crate::i18n::Lang, o: &ObservationView, win_length: usize) -> String {
    let count = |p: Player| {
        o.colours
            .iter()
            .flatten()
            .filter(|c| **c == Some(p))
            .count()
    };
    let both = [Player::Black, Player::White]
        .into_iter()
        .all(|p| text::has_line(&o.colours, p, win_length));
    text::observation(
        lang,
        o.observed_by,
        o.winner,
        (count(Player::Black), count(Player::White)),
        both,
    )
}

/// What the latest observation produced, shown until the next stone.
#[function_component(ObservationSummary)]
pub fn observation_summary(props: &ObservationSummaryProps) -> Html {
    let ctx = use_ctx();
    let o = &props.observation;
    html! {
        <section class="qg-panel qg-observation" data-testid="observation-result"
            data-winner={o.winner.map(|w| w.as_str())}>
            <h3>{ ctx.t(T::QgLastObservation) }</h3>
            <p>{ observation_text(ctx.lang, o, props.win_length) }</p>
        </section>
    }
}

#[derive(Properties, PartialEq, Clone, Debug)]
pub struct ProbabilityPanelProps {
    /// `None` while the first estimate has not been computed yet.
    pub estimate: Option<WinProbability>,
    /// Whether the figures shown belong to an older board (a newer estimate is on its way).
    #[prop_or_default]
    pub busy: bool,
    /// How long the estimate shown took, and whether it ran in the worker.
    #[prop_or_default]
    pub timing: Option<(f64, bool)>,
}

#[function_component(ProbabilityPanel)]
pub fn probability_panel(props: &ProbabilityPanelProps) -> Html {
    let ctx = use_ctx();
    let busy = props.busy.to_string();
    let ms = props.timing.map(|(ms, _)| format!("{ms:.1}"));
    let in_worker = props.timing.map(|(_, w)| w.to_string());
    let Some(p) = props.estimate else {
        return html! {
            <section class="qg-panel" data-testid="win-probability" aria-busy={busy}>
                <h3>{ ctx.t(T::QgWinProbability) }</h3>
                <p>{ ctx.t(T::Starting) }</p>
            </section>
        };
    };
    let row = |test_id: &'static str, label: T, value: f64, class: &'static str| {
        let pct = text::percent(value);
        html! {
            <div class={classes!("qg-prob-row", class)} data-testid={test_id}>
                <span class="qg-prob-label">{ ctx.t(label) }</span>
                <span class="qg-prob-bar" aria-hidden="true">
                    <span style={format!("width: {:.1}%", (value * 100.0).clamp(0.0, 100.0))} />
                </span>
                <span class="qg-prob-value">{ pct }</span>
            </div>
        }
    };
    let method = match (p.method, ctx.lang) {
        (ProbabilityMethod::Exact { configurations }, crate::i18n::Lang::Ja) => format!(
            "{}（{} 通り）",
            ctx.t(T::QgExact),
            text::grouped(configurations)
        ),
        (ProbabilityMethod::Exact { configurations }, crate::i18n::Lang::En) => format!(
            "{} ({} {})",
            ctx.t(T::QgExact),
            text::grouped(configurations),
            if configurations == 1 {
                "assignment"
            } else {
                "assignments"
            }
        ),
        (ProbabilityMethod::MonteCarlo { samples }, _) => {
            format!(
                "{} {}",
                text::grouped(u64::from(samples)),
                ctx.t(T::QgSamples)
            )
        }
    };
    let samples = match p.method {
        ProbabilityMethod::Exact { configurations } => configurations,
        ProbabilityMethod::MonteCarlo { samples } => u64::from(samples),
    };
    html! {
        // Figures of an older board stay readable, dimmed, until the new ones arrive.
        <section class="qg-panel" style={props.busy.then_some("opacity: .6")}
            data-testid="win-probability" aria-busy={busy} data-ms={ms} data-worker={in_worker}>
            <h3>{ ctx.t(T::QgWinProbability) }</h3>
            { row("prob-black", T::QgBlackLine, p.black_line, "black") }
            { row("prob-white", T::QgWhiteLine, p.white_line, "white") }
            { row("prob-both", T::QgBothLines, p.both, "both") }
            { row("prob-neither", T::QgNoLine, p.neither, "neither") }
            <p class="qg-muted" data-testid="prob-samples" data-value={samples.to_string()}>{ method }</p>
        </section>
    }
}

#[derive(Properties, PartialEq, Clone, Debug)]
pub struct MoveLogProps {
    pub entries: Vec<LogEntry>,
}

#[function_component(MoveLog)]
pub fn move_log(props: &MoveLogProps) -> Html {
    let ctx = use_ctx();
    html! {
        <section class="qg-panel qg-log" data-testid="move-log">
            <h3>{ ctx.t(T::QgMoveLog) }</h3>
            if props.entries.is_empty() {
                <p class="qg-muted">{ ctx.t(T::QgNoMoves) }</p>
            } else {
                <ol>
                    { for props.entries.iter().map(|e| html! {
                        <li data-testid="log-entry">{ text::log_entry(ctx.lang, e) }</li>
                    }) }
                </ol>
            }
        </section>
    }
}
