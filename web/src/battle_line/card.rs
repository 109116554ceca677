//! A Battle Line card drawn with CSS: a coloured troop with its value, or a named tactic.

use battle_line::{Card, Color};
use yew::prelude::*;

use super::state::card_id;
use super::text;
use crate::ctx::use_ctx;
use crate::i18n::Lang;

/// CSS class of a troop colour.
fn color_class(color: Color) -> &'static str {
    match color {
        Color::Red => "bl-red",
        Color::Orange => "bl-orange",
        Color::Yellow => "bl-yellow",
        Color::Green => "bl-green",
        Color::Blue => "bl-blue",
        Color::Purple => "bl-purple",
    }
}

/// Classes shared by every rendering of a card.
pub fn card_classes(card: Card, selected: bool) -> Classes {
    let kind = match card {
        Card::Troop(t) => color_class(t.color),
        Card::Tactic(_) => "bl-tactic",
    };
    classes!("bl-card", kind, selected.then_some("bl-selected"))
}

/// The symbol printed beside a troop's value: each colour has a shape of its own, so
/// colours are told apart without seeing colour (red and orange, blue and purple merge
/// under colour blindness) and on a touch screen, which never shows a title.
pub fn color_symbol(color: Color) -> &'static str {
    match color {
        Color::Red => "♥",
        Color::Orange => "▲",
        Color::Yellow => "●",
        Color::Green => "♣",
        Color::Blue => "■",
        Color::Purple => "◆",
    }
}

/// The face of a card: the colour's symbol and the value, or the tactic's name.
/// `compact` uses short names.
pub fn card_face(card: Card, compact: bool, lang: Lang) -> Html {
    match card {
        Card::Troop(t) => html! {
            <>
                <span class="bl-suit" data-testid="bl-suit" aria-hidden="true">{ color_symbol(t.color) }</span>
                <span class="sr-only">{ text::color(t.color, lang) }</span>
                <span class="bl-value">{ t.value }</span>
            </>
        },
        Card::Tactic(t) if compact => {
            html! { <span class="bl-name">{ text::tactic_short(t, lang) }</span> }
        }
        Card::Tactic(t) => html! { <span class="bl-name">{ text::tactic(t, lang) }</span> },
    }
}

#[derive(Debug, Properties, PartialEq, Clone)]
pub struct CardButtonProps {
    pub card: Card,
    /// `card` on the board, `hand-card` in the hand.
    pub testid: AttrValue,
    #[prop_or_default]
    pub selected: bool,
    #[prop_or_default]
    pub compact: bool,
    /// Whether Tab stops on it: on the table only the cards the player may pick now, so
    /// that Tab does not walk through every card played (they stay clickable, as tapping
    /// them says nothing happens).
    #[prop_or(true)]
    pub tabbable: bool,
    pub on_click: Callback<Card>,
}

/// A face-up card as a real button, so it is reachable by keyboard. Clicks that the
/// rules ignore (earlier cards) still reach the handler, which then does nothing:
/// the card looks the same as any other (seed 001: no greying).
#[function_component(CardButton)]
pub fn card_button(props: &CardButtonProps) -> Html {
    let lang = use_ctx().lang;
    let card = props.card;
    let onclick = {
        let on_click = props.on_click.clone();
        Callback::from(move |e: MouseEvent| {
            // The slot around the card must not treat the same click as "place here".
            e.stop_propagation();
            on_click.emit(card);
        })
    };
    html! {
        <button type="button"
            class={classes!(card_classes(card, props.selected), props.tabbable.then_some("bl-pickable"))}
            data-testid={props.testid.clone()} data-card-id={card_id(card)}
            title={text::card(card, lang)} aria-pressed={props.selected.to_string()}
            tabindex={(!props.tabbable).then_some("-1")} {onclick}>
            { card_face(card, props.compact, lang) }
        </button>
    }
}

/// A card shown for information only (discard list, counterexamples).
pub fn card_static(card: Card, testid: &'static str, lang: Lang) -> Html {
    html! {
        <span class={card_classes(card, false)} data-testid={testid}
            data-card-id={card_id(card)} title={text::card(card, lang)}>
            { card_face(card, true, lang) }
        </span>
    }
}
