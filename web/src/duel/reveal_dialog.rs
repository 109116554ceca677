//! The cards an effect revealed from the deck (Reasoning, Monster Gate) and a declared
//! Level, shown in a modal the player closes before play goes on.

use std::rc::Rc;

use duel_engine::{Code, Event};
use yew::prelude::*;

use crate::ctx::use_ctx;
use crate::duel::card_view::CardView;
use crate::i18n::{T, declared_level};

/// What was revealed to the player and not yet acknowledged.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Reveal {
    /// The Level declared for the excavation (the last one, if several were).
    pub level: Option<u8>,
    /// Every revealed card, in the order they were turned over.
    pub cards: Vec<Code>,
}

impl Reveal {
    /// What a run of events revealed, if anything.
    pub fn from_events(events: &[Event]) -> Option<Reveal> {
        let mut out = Reveal::default();
        for e in events {
            match e {
                Event::Revealed { cards, .. } => out.cards.extend(cards),
                Event::LevelDeclared { level, .. } => out.level = Some(*level),
                _ => {}
            }
        }
        (out.level.is_some() || !out.cards.is_empty()).then_some(out)
    }
}

/// The reveal waiting to be acknowledged; the page's automatic passes can bring more
/// before the player closes it, and those are added to it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Reveals {
    pub shown: Option<Reveal>,
    /// The newest duel state version already looked at (an effect that runs again for
    /// the same version must not add its cards twice).
    announced: u64,
}

#[derive(Debug)]
pub enum RevealAction {
    /// The events of one duel state version.
    Events {
        version: u64,
        events: Vec<Event>,
    },
    Dismiss,
}

impl Reducible for Reveals {
    type Action = RevealAction;

    fn reduce(self: Rc<Self>, action: RevealAction) -> Rc<Self> {
        match action {
            RevealAction::Events { version, events } => {
                if version <= self.announced {
                    return self;
                }
                let shown = match (self.shown.clone(), Reveal::from_events(&events)) {
                    (Some(mut old), Some(new)) => {
                        old.cards.extend(new.cards);
                        old.level = new.level.or(old.level);
                        Some(old)
                    }
                    (old, new) => new.or(old),
                };
                Rc::new(Reveals {
                    shown,
                    announced: version,
                })
            }
            RevealAction::Dismiss => Rc::new(Reveals {
                shown: None,
                announced: self.announced,
            }),
        }
    }
}

#[derive(Debug, Properties, PartialEq, Clone)]
pub struct RevealDialogProps {
    pub reveal: Reveal,
    pub on_close: Callback<()>,
}

#[function_component(RevealDialog)]
pub fn reveal_dialog(props: &RevealDialogProps) -> Html {
    let ctx = use_ctx();
    let on_close = props.on_close.reform(|_: MouseEvent| ());
    html! {
        <div class="overlay">
            <div class="dialog" role="dialog" aria-modal="true" data-testid="revealed-dialog">
                <h3>{ ctx.t(T::RevealedCards) }</h3>
                if let Some(level) = props.reveal.level {
                    <p class="counter" data-testid="declared-level">{ declared_level(ctx.lang, level) }</p>
                }
                <div class="card-list">
                    { for props.reveal.cards.iter().map(|&code| html! { <CardView code={Some(code)} /> }) }
                </div>
                <div class="dialog-actions">
                    <button type="button" class="btn btn-primary" data-testid="btn-revealed-ok"
                        onclick={on_close} autofocus=true>
                        { ctx.t(T::Ok) }
                    </button>
                </div>
            </div>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use duel_engine::{Phase, Player};

    const REASONING: Code = 58577036;
    const SCIENTIST: Code = 34206604;
    const FILLER: Code = 27125110;

    fn revealed(cards: &[Code]) -> Event {
        Event::Revealed {
            player: Player::You,
            cards: cards.to_vec(),
        }
    }

    #[test]
    fn only_reveals_and_declarations_open_the_dialog() {
        let phase = Event::PhaseChanged {
            phase: Phase::Main1,
        };
        assert_eq!(Reveal::from_events(std::slice::from_ref(&phase)), None);
        let events = [
            Event::Resolving {
                card: REASONING,
                link: 1,
            },
            Event::LevelDeclared {
                player: Player::Opponent,
                level: 1,
            },
            revealed(&[FILLER, SCIENTIST]),
            phase,
        ];
        assert_eq!(
            Reveal::from_events(&events),
            Some(Reveal {
                level: Some(1),
                cards: vec![FILLER, SCIENTIST],
            })
        );
    }

    #[test]
    fn reveals_of_later_versions_add_up_until_dismissed_and_a_version_counts_once() {
        let state = Rc::new(Reveals::default()).reduce(RevealAction::Events {
            version: 3,
            events: vec![revealed(&[FILLER])],
        });
        let again = state.clone().reduce(RevealAction::Events {
            version: 3,
            events: vec![revealed(&[FILLER])],
        });
        assert_eq!(again, state, "the same version is not counted twice");
        let more = state.reduce(RevealAction::Events {
            version: 4,
            events: vec![revealed(&[SCIENTIST])],
        });
        assert_eq!(
            more.shown.as_ref().map(|r| r.cards.clone()),
            Some(vec![FILLER, SCIENTIST])
        );
        let quiet = more.reduce(RevealAction::Events {
            version: 5,
            events: Vec::new(),
        });
        assert!(quiet.shown.is_some(), "stays until the player closes it");
        let closed = quiet.reduce(RevealAction::Dismiss);
        assert_eq!(closed.shown, None);
    }
}
