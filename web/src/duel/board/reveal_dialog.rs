//! The cards an effect revealed from the deck (Reasoning, Monster Gate) and a declared
//! Level, shown in a modal the player closes before play goes on.

use duel_engine::{Code, Event};
use yew::prelude::*;

use crate::duel::board::card_view::CardView;
use crate::i18n::{Lang, T, declared_level};
use crate::modal::use_dialog;

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

    /// A reveal not yet acknowledged, with a later one added to it.
    pub fn merge(shown: Option<Reveal>, later: Option<Reveal>) -> Option<Reveal> {
        match (shown, later) {
            (Some(mut shown), Some(later)) => {
                shown.cards.extend(later.cards);
                shown.level = later.level.or(shown.level);
                Some(shown)
            }
            (shown, later) => later.or(shown),
        }
    }
}

#[derive(Debug, Properties, PartialEq, Clone)]
pub struct RevealDialogProps {
    pub reveal: Reveal,
    pub lang: Lang,
    pub on_close: Callback<()>,
}

/// The dialog: the declared Level, the revealed cards and the OK that lets play go on
/// (Escape is the same OK).
#[function_component(RevealDialog)]
pub fn reveal_dialog(props: &RevealDialogProps) -> Html {
    let (node, on_key) = use_dialog(Some(props.on_close.clone()));
    let lang = props.lang;
    html! {
        <div class="overlay">
            <div class="dialog" role="dialog" aria-modal="true" data-testid="revealed-dialog"
                aria-labelledby="revealed-title" ref={node} onkeydown={on_key}>
                <h3 id="revealed-title">{ T::RevealedCards.text(lang) }</h3>
                if let Some(level) = props.reveal.level {
                    <p class="counter" data-testid="declared-level">{ declared_level(lang, level) }</p>
                }
                <div class="card-list">
                    { for props.reveal.cards.iter().map(|&code| html! { <CardView code={Some(code)} /> }) }
                </div>
                <div class="dialog-actions">
                    <button type="button" class="btn btn-primary" data-testid="btn-revealed-ok"
                        onclick={props.on_close.reform(|_: MouseEvent| ())} autofocus=true>
                        { T::Ok.text(lang) }
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
    fn a_later_reveal_adds_its_cards_until_the_dialog_is_closed() {
        let first = Reveal::from_events(&[revealed(&[FILLER])]);
        let later = Reveal::from_events(&[
            Event::LevelDeclared {
                player: Player::Opponent,
                level: 4,
            },
            revealed(&[SCIENTIST]),
        ]);
        assert_eq!(
            Reveal::merge(first.clone(), later.clone()),
            Some(Reveal {
                level: Some(4),
                cards: vec![FILLER, SCIENTIST],
            })
        );
        assert_eq!(Reveal::merge(first.clone(), None), first);
        assert_eq!(Reveal::merge(None, later.clone()), later);
        assert_eq!(Reveal::merge(None, None), None);
    }
}
