//! What the last actions did, as at most two toasts (one per action, its first lines); the
//! phase is shown by the header and every message stays in the log.

use duel_engine::Event;
use yew::prelude::*;

use crate::i18n::{Lang, more_in_log};

/// At most this many toasts are on screen: the two latest actions.
pub const TOAST_MAX: usize = 2;
/// At most this many lines per toast; the rest are counted and left to the log.
pub const TOAST_LINES: usize = 3;

/// One action's messages as a toast.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Toast {
    pub id: u64,
    /// The duel state version the action produced (its toast expires with it).
    pub version: u64,
    pub lines: Vec<String>,
    /// Messages not shown here (the log has them).
    pub more: usize,
}

impl Toast {
    /// The toast of one action's events, or `None` when they only changed the phase
    /// (the header's phase shows that).
    pub fn from_events(
        id: u64,
        version: u64,
        events: &[Event],
        lang: duel_engine::Lang,
    ) -> Option<Toast> {
        let messages: Vec<String> = events
            .iter()
            .filter(|e| !matches!(e, Event::PhaseChanged { .. }))
            .map(|e| e.message(lang))
            .collect();
        if messages.is_empty() {
            return None;
        }
        let more = messages.len().saturating_sub(TOAST_LINES);
        Some(Toast {
            id,
            version,
            lines: messages.into_iter().take(TOAST_LINES).collect(),
            more,
        })
    }
}

/// Adds a toast, dropping the oldest beyond [`TOAST_MAX`].
pub fn push(toasts: &mut Vec<Toast>, toast: Toast) {
    toasts.push(toast);
    let extra = toasts.len().saturating_sub(TOAST_MAX);
    toasts.drain(..extra);
}

#[derive(Debug, Properties, PartialEq, Clone)]
pub struct ToastsProps {
    /// Oldest first (the newest sits nearest the field).
    pub toasts: Vec<Toast>,
    pub lang: Lang,
}

#[function_component(Toasts)]
pub fn toasts(props: &ToastsProps) -> Html {
    html! {
        <div class="toasts" role="status" aria-live="polite" data-testid="toasts">
            { for props.toasts.iter().map(|t| html! {
                <div class="toast" key={t.id} data-testid="toast">
                    { for t.lines.iter().map(|l| html! { <p class="toast-line" data-testid="toast-line">{ l.clone() }</p> }) }
                    if t.more > 0 {
                        <p class="toast-more">{ more_in_log(props.lang, t.more) }</p>
                    }
                </div>
            }) }
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use duel_engine::{Phase, Player};

    fn drew(n: u8) -> Event {
        Event::Drew {
            player: Player::You,
            count: n,
        }
    }

    #[test]
    fn phase_changes_make_no_toast_and_long_actions_are_cut_to_three_lines() {
        let phase = Event::PhaseChanged {
            phase: Phase::Main1,
        };
        assert_eq!(
            Toast::from_events(0, 1, std::slice::from_ref(&phase), duel_engine::Lang::Ja),
            None
        );
        let events = [phase, drew(1), drew(2), drew(3), drew(1), drew(2)];
        let toast = Toast::from_events(7, 4, &events, duel_engine::Lang::Ja).expect("a toast");
        assert_eq!(toast.lines.len(), TOAST_LINES);
        assert_eq!(toast.more, 2);
        assert_eq!((toast.id, toast.version), (7, 4));
    }

    #[test]
    fn at_most_two_toasts_stay_the_newest() {
        let mut toasts = Vec::new();
        for id in 0..5 {
            let t = Toast::from_events(id, id, &[drew(1)], duel_engine::Lang::En).expect("a toast");
            push(&mut toasts, t);
        }
        let ids: Vec<u64> = toasts.iter().map(|t| t.id).collect();
        assert_eq!(ids, [3, 4]);
    }
}
