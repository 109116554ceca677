//! The duel header: deck name, phase, both players' LP (with a short cue when they
//! change), the opponent's hand and deck counts.

use std::cell::RefCell;
use std::rc::Rc;

use duel_engine::view::DuelView;
use duel_engine::{Event, Player};
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;
use yew::prelude::*;

use crate::ctx::use_ctx;
use crate::duel::board::card_view::engine_lang;
use crate::i18n::T;
use crate::prefs::motion_enabled;

/// How long LP take to count to their new value.
const LP_COUNT_MS: f64 = 600.0;
/// One step of the count (about a frame).
const LP_STEP_MS: i32 = 16;

#[derive(Debug, Properties, PartialEq, Clone)]
pub struct DuelHeaderProps {
    pub view: DuelView,
    /// The last LP change, drawn beside the LP for a moment.
    #[prop_or_default]
    pub lp_cue: LpCue,
}

/// The net LP change of the last command that changed LP, per player; `key` changes with
/// each such command so its cue is drawn (and animated) afresh.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LpCue {
    pub key: u64,
    pub you: i64,
    pub opponent: i64,
}

impl LpCue {
    /// The net change of each player's LP over these events (payments, damage, gains);
    /// `None` when no LP changed.
    pub fn from_events(key: u64, events: &[Event]) -> Option<LpCue> {
        let mut cue = LpCue {
            key,
            ..LpCue::default()
        };
        for e in events {
            let (player, change) = match *e {
                Event::LpPaid { player, amount, .. } | Event::Damaged { player, amount, .. } => {
                    (player, -i64::from(amount))
                }
                Event::LpGained { player, amount, .. } => (player, i64::from(amount)),
                _ => continue,
            };
            match player {
                Player::You => cue.you += change,
                Player::Opponent => cue.opponent += change,
            }
        }
        (cue.you != 0 || cue.opponent != 0).then_some(cue)
    }
}

/// An LP change as the cue shows it: `-1,000`, `+500`.
pub fn format_lp_change(change: i64) -> String {
    let sign = if change < 0 { '-' } else { '+' };
    let size = u32::try_from(change.unsigned_abs()).unwrap_or(u32::MAX);
    format!("{sign}{}", format_lp(size))
}

/// LP as the reference shows it: `8,000`.
pub fn format_lp(lp: u32) -> String {
    let digits = lp.to_string();
    let mut out = String::new();
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// The LP shown on the way from `from` to `to` after `elapsed` of `LP_COUNT_MS`
/// milliseconds (fast at first, slowing down at the end).
pub fn lp_between(from: u32, to: u32, elapsed: f64) -> u32 {
    let t = (elapsed / LP_COUNT_MS).clamp(0.0, 1.0);
    let eased = 1.0 - (1.0 - t) * (1.0 - t);
    let value = f64::from(from) + (f64::from(to) - f64::from(from)) * eased;
    // Within [from, to] by construction; the rounding stays inside too.
    value.round().clamp(0.0, f64::from(u32::MAX)) as u32
}

#[derive(Debug, Properties, PartialEq, Clone)]
pub struct LpValueProps {
    pub value: u32,
    pub test_id: AttrValue,
}

/// A player's LP. When they change it counts to the new value; the element with the test
/// id (and what screen readers read) always holds the new value, and the counting figure
/// is drawn over it for the eye only.
#[function_component(LpValue)]
pub fn lp_value(props: &LpValueProps) -> Html {
    let shown = use_state(|| props.value);
    let timer = use_mut_ref(|| None::<(i32, Closure<dyn FnMut()>)>);
    {
        let shown = shown.clone();
        let timer = timer.clone();
        use_effect_with(props.value, move |&to| {
            stop(&timer);
            let from = *shown;
            if from != to && motion_enabled() {
                let start = js_sys::Date::now();
                let tick = {
                    let timer = timer.clone();
                    Closure::<dyn FnMut()>::new(move || {
                        let elapsed = js_sys::Date::now() - start;
                        shown.set(lp_between(from, to, elapsed));
                        if elapsed >= LP_COUNT_MS {
                            // The closure is running: stop the interval, keep the closure.
                            if let Some((id, _)) = timer.borrow().as_ref()
                                && let Some(window) = web_sys::window()
                            {
                                window.clear_interval_with_handle(*id);
                            }
                        }
                    })
                };
                if let Some(window) = web_sys::window()
                    && let Ok(id) = window.set_interval_with_callback_and_timeout_and_arguments_0(
                        tick.as_ref().unchecked_ref(),
                        LP_STEP_MS,
                    )
                {
                    *timer.borrow_mut() = Some((id, tick));
                }
            } else {
                shown.set(to);
            }
            move || stop(&timer)
        });
    }
    let counting = *shown != props.value;
    html! {
        <span class="lp-box">
            <span class={classes!("lp", counting.then_some("lp-hidden"))} data-testid={props.test_id.clone()}>
                { format_lp(props.value) }
            </span>
            if counting {
                <span class="lp lp-count" aria-hidden="true">{ format_lp(*shown) }</span>
            }
        </span>
    }
}

/// A running LP count: the interval's id and the closure it calls.
type CountTimer = Rc<RefCell<Option<(i32, Closure<dyn FnMut()>)>>>;

/// Clears a count's interval and drops its closure (never called from the closure).
fn stop(timer: &CountTimer) {
    if let Some((id, _closure)) = timer.borrow_mut().take()
        && let Some(window) = web_sys::window()
    {
        window.clear_interval_with_handle(id);
    }
}

#[function_component(DuelHeader)]
pub fn duel_header(props: &DuelHeaderProps) -> Html {
    let ctx = use_ctx();
    let lang = engine_lang(ctx.lang);
    let v = &props.view;
    let deck_name =
        duel_engine::deck::deck(&v.deck_id).map_or(v.deck_id.as_str(), |d| d.name(lang));
    let cue = props.lp_cue;
    // Keyed by the change, so a new change restarts the fade; the LP itself is read aloud
    // by its own cell, so the cue is for the eye only.
    let delta = |who: &str, change: i64| {
        (change != 0).then(|| {
            let class = if change < 0 { "lp-delta lp-down" } else { "lp-delta lp-up" };
            html! {
                <span key={cue.key} class={class} data-testid={format!("lp-change-{who}")} aria-hidden="true">
                    { format_lp_change(change) }
                </span>
            }
        })
    };
    // The cue sits in its own element: a keyed node appearing beside the LP would make Yew
    // rebuild the LP's component and lose its count.
    html! {
        <div class="duel-header">
            <h2>{ format!("{}: {deck_name}", ctx.t(T::Deck)) }</h2>
            <div class="stats">
                <span>{ format!("{}:", ctx.t(T::Now)) }</span>
                // Keyed by the phase: each change draws it afresh with a short highlight, in
                // place of a message.
                <span class="v phase" key={format!("{:?}", v.phase)} data-testid="phase" role="status">{ duel_engine::text::phase(v.phase, lang) }</span>
                <span>{ format!("{}:", ctx.t(T::MyLp)) }</span>
                <span class="v"><LpValue value={v.you.lp} test_id="lp-player" /><span class="lp-cue">{ for delta("player", cue.you) }</span></span>
                <span>{ format!("{}:", ctx.t(T::OpponentLp)) }</span>
                <span class="v"><LpValue value={v.opponent.lp} test_id="lp-opponent" /><span class="lp-cue">{ for delta("opponent", cue.opponent) }</span></span>
                <span>{ format!("{}:", ctx.t(T::OpponentHand)) }</span>
                <span class="v" data-testid="opponent-hand-count">{ v.opponent.hand.len() }</span>
                <span>{ format!("{}:", ctx.t(T::OpponentDeck)) }</span>
                <span class="v" data-testid="opponent-deck-count">{ v.opponent.deck_count }</span>
            </div>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lp_cue_nets_each_players_payments_damage_and_gains() {
        let events = [
            Event::LpPaid {
                player: Player::You,
                amount: 1000,
                lp: 7000,
            },
            Event::Damaged {
                player: Player::Opponent,
                amount: 1200,
                lp: 6800,
            },
            Event::LpGained {
                player: Player::You,
                amount: 500,
                lp: 7500,
            },
            Event::Drew {
                player: Player::You,
                count: 1,
            },
        ];
        assert_eq!(
            LpCue::from_events(9, &events),
            Some(LpCue {
                key: 9,
                you: -500,
                opponent: -1200,
            })
        );
        let none = [Event::Drew {
            player: Player::You,
            count: 2,
        }];
        assert_eq!(LpCue::from_events(9, &none), None);
        assert_eq!(format_lp_change(-1200), "-1,200");
        assert_eq!(format_lp_change(500), "+500");
    }

    #[test]
    fn lp_count_from_the_old_value_to_the_new_one_and_stop_there() {
        assert_eq!(lp_between(8000, 7000, 0.0), 8000);
        assert_eq!(lp_between(8000, 7000, LP_COUNT_MS), 7000);
        assert_eq!(lp_between(8000, 7000, LP_COUNT_MS * 4.0), 7000);
        let mid = lp_between(8000, 7000, LP_COUNT_MS / 2.0);
        assert!((7000..8000).contains(&mid), "{mid}");
        assert_eq!(lp_between(0, 500, LP_COUNT_MS), 500);
    }

    #[test]
    fn lp_has_thousands_separators() {
        assert_eq!(format_lp(0), "0");
        assert_eq!(format_lp(800), "800");
        assert_eq!(format_lp(8000), "8,000");
        assert_eq!(format_lp(11000), "11,000");
        assert_eq!(format_lp(1_234_567), "1,234,567");
    }
}
