//! The duel page's "still winnable?" indicator: when the player turns it on, each new
//! position is asked the hint's question in a Web Worker (knowing the deck order, as the
//! hint does) and the bar says whether the hand can still win this turn. Off by default,
//! remembered in localStorage. It never blocks a frame: the search runs in a worker, and
//! a new action drops the search still running for the old position.
//!
//! What is already known needs no search: a proved loss stays lost after any action (a
//! line from the later position would be a line from the earlier one), and a winning
//! line still wins while the game follows it (`hint::follow`).

use duel_engine::Command;
use yew::prelude::*;

use crate::ctx::use_ctx;
use crate::duel::practice::hint::follow;
use crate::duel::practice::jobs::{HINT_BUDGET, Hint, HintAnswer};
use crate::duel::state::DuelState;
use crate::storage;
use crate::worker::{self, Options};

/// Whether the indicator is on (off unless the player turned it on).
pub fn winnable_setting() -> bool {
    storage::get(storage::KEY_DUEL_WINNABLE).as_deref() == Some("on")
}

fn set_winnable(on: bool) {
    storage::set(storage::KEY_DUEL_WINNABLE, if on { "on" } else { "off" });
}

/// What is known of the position after `base` (its commands).
#[derive(Debug, Clone, PartialEq)]
pub enum Known {
    /// `line` wins from there.
    Yes {
        base: Vec<Command>,
        line: Vec<Command>,
    },
    /// No line wins from there (proved).
    No { base: Vec<Command> },
    /// The search ran out of budget there.
    Unknown { base: Vec<Command> },
}

impl Known {
    fn base(&self) -> &[Command] {
        match self {
            Known::Yes { base, .. } | Known::No { base } | Known::Unknown { base } => base,
        }
    }

    /// The `data-state` it is shown with.
    pub fn key(&self) -> &'static str {
        match self {
            Known::Yes { .. } => "yes",
            Known::No { .. } => "no",
            Known::Unknown { .. } => "unknown",
        }
    }

    /// What this says of the position after `log` without a search, if anything: a loss
    /// holds for every later position, a win while the game follows its line (the rest
    /// of the line then wins from `log`); an undecided answer only for its own position.
    /// `at_base` replays the position after `base` (`hint::follow` needs it only when a
    /// step was played with another copy than the line's).
    pub fn carried(
        &self,
        log: &[Command],
        at_base: &dyn Fn() -> Option<duel_engine::Duel>,
    ) -> Option<Known> {
        let base = log.to_vec();
        match self {
            Known::No { base: at } if log.starts_with(at) => Some(Known::No { base }),
            Known::Yes { base: at, line } => {
                let (k, line) = follow(at_base, at, line, log)?;
                Some(Known::Yes {
                    base,
                    line: line[k..].to_vec(),
                })
            }
            Known::Unknown { base: at } if at == log => Some(self.clone()),
            _ => None,
        }
    }
}

/// What the indicator shows.
#[derive(Debug, Clone, PartialEq)]
enum Shown {
    /// A search for the position after this many commands is running.
    Thinking(usize),
    Known(Known),
    /// No worker could run the search (the duel page runs none itself), or it failed.
    Failed,
}

/// The indicator's switch and answer, as the hint panel shows them under the hint (a hook
/// of the panel rather than a component of its own: 3,472 bytes gzip in the duel bundle
/// instead of 4,653). `version` is the state's version when the panel rendered.
#[hook]
pub fn use_winnable(state: &UseReducerHandle<DuelState>, version: u64) -> Html {
    let lang = use_ctx().lang;
    let on = use_state(winnable_setting);
    let shown = use_state(|| None::<Shown>);
    // The last answer, read by the effect below whatever render made it.
    let last = use_mut_ref(|| None::<Known>);
    // Leaving the page stops a search still running.
    let job = worker::use_job_slot();

    {
        let (state, shown, last, job) = (state.clone(), shown.clone(), last.clone(), job.clone());
        use_effect_with((version, *on), move |&(_, on)| {
            if let Some(old) = job.borrow_mut().take() {
                old.abort();
            }
            let log = match &state.duel {
                Some(duel) if on && duel.outcome().is_none() => duel.log().to_vec(),
                _ => {
                    shown.set(None);
                    return;
                }
            };
            let known = last
                .borrow()
                .as_ref()
                .and_then(|k| k.carried(&log, &|| state.deal().replay(k.base())));
            if let Some(known) = known {
                *last.borrow_mut() = Some(known.clone());
                shown.set(Some(Shown::Known(known)));
                return;
            }
            let task = Hint {
                deck: state.deck.clone(),
                custom: state.custom().cloned(),
                seed: state.seed,
                settings: state.settings,
                commands: log.clone(),
                budget: HINT_BUDGET,
            };
            shown.set(Some(Shown::Thinking(log.len())));
            let (shown, last_done) = (shown.clone(), last.clone());
            // Beside the hint's own searches, in any worker of the pool.
            let options = Options {
                spread: true,
                progress: None,
            };
            let running = worker::run_with(&task, options, move |answer| {
                let base = log;
                let known = match answer.map(|done| done.value.answer) {
                    Ok(HintAnswer::Win(line)) => Known::Yes { base, line },
                    Ok(HintAnswer::NoWin) => Known::No { base },
                    Ok(HintAnswer::Undecided) => Known::Unknown { base },
                    Err(_) => {
                        shown.set(Some(Shown::Failed));
                        return;
                    }
                };
                *last_done.borrow_mut() = Some(known.clone());
                shown.set(Some(Shown::Known(known)));
            });
            *job.borrow_mut() = Some(running);
        });
    }
    let on_toggle = crate::prefs::switch(&on, set_winnable);
    let indicator = (*shown).as_ref().map(|s| {
        let (key, moves, text) = match s {
            Shown::Thinking(moves) => ("thinking", Some(*moves), lang.pick("確認中…", "Checking…")),
            Shown::Known(k) => (
                k.key(),
                Some(k.base().len()),
                match k {
                    Known::Yes { .. } => lang.pick("まだ勝てる", "Still winnable"),
                    Known::No { .. } => {
                        lang.pick("もう勝てない（証明済み）", "No longer winnable (proved)")
                    }
                    Known::Unknown { .. } => lang.pick("判定できず", "Not decided"),
                },
            ),
            Shown::Failed => (
                "failed",
                None,
                lang.pick(
                    "確認できません（Web Worker が必要です）",
                    "Cannot check: it needs Web Workers",
                ),
            ),
        };
        html! {
            <span class={classes!("winnable", key)} data-testid="winnable"
                data-state={key} data-moves={moves.map(|m| m.to_string())}>{ text }</span>
        }
    });
    html! {
        <div class="winnable-row">
            <label class="setting">
                <input type="checkbox" data-testid="winnable-toggle" checked={*on} onchange={on_toggle} />
                { lang.pick(" 勝ち筋が残っているか毎手確認（デッキの順番を知った上で）", " After each action, check whether a win is left (knowing the deck order)") }
            </label>
            // Always there, so that a screen reader hears each new answer.
            <span role="status">{ for indicator }</span>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use duel_engine::CardId;

    fn set(card: u16) -> Command {
        Command::SetSpellTrap { card: CardId(card) }
    }

    #[test]
    fn a_proved_loss_holds_after_any_later_action_but_not_before_it() {
        let no = Known::No { base: vec![set(1)] };
        let later = [set(1), set(2), Command::EndTurn];
        assert_eq!(
            no.carried(&later, &|| None),
            Some(Known::No {
                base: later.to_vec()
            })
        );
        assert_eq!(no.carried(&[], &|| None), None, "undone: search again");
        assert_eq!(no.carried(&[set(3)], &|| None), None, "another branch");
    }

    #[test]
    fn a_winning_line_holds_while_the_game_follows_it_and_its_rest_is_kept() {
        let yes = Known::Yes {
            base: vec![set(1)],
            line: vec![set(2), set(3), Command::PassChain],
        };
        assert_eq!(
            yes.carried(&[set(1), set(2)], &|| None),
            Some(Known::Yes {
                base: vec![set(1), set(2)],
                line: vec![set(3), Command::PassChain],
            })
        );
        assert_eq!(
            yes.carried(&[set(1), set(4)], &|| None),
            None,
            "off the line (with no position to compare copies on)"
        );
    }

    #[test]
    fn an_undecided_answer_holds_for_its_own_position_only() {
        let unknown = Known::Unknown { base: vec![set(1)] };
        assert_eq!(unknown.carried(&[set(1)], &|| None), Some(unknown.clone()));
        assert_eq!(unknown.carried(&[set(1), set(2)], &|| None), None);
    }
}
