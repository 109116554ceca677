//! The whole card beside a face-up card the pointer rests on (or the keyboard focus is
//! on): the face on the page is too small for its text. On touch screens a long press
//! opens the card's details instead.

use duel_engine::card::Code;
use wasm_bindgen::JsCast;
use web_sys::Element;
use yew::prelude::*;

use crate::ctx::use_ctx;
use crate::duel::board::card_view::{card_name, engine_lang, frame_class, kind_line, stats_line};
use crate::duel::board::motion::px;

/// How long a finger rests on a card before its details open.
pub const LONG_PRESS_MS: i32 = 500;
/// The preview's size, to keep it inside the window.
const PREVIEW_W: f64 = 260.0;
const PREVIEW_H: f64 = 240.0;

/// A card to preview and the place of its face on the screen (viewport coordinates).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Preview {
    pub code: Code,
    pub left: f64,
    pub top: f64,
    pub right: f64,
}

/// The face-up card an event happened on, with its passcode (face-down cards carry none).
pub fn card_under(e: &Event) -> Option<(Element, Code)> {
    let target = e.target()?.dyn_into::<Element>().ok()?;
    let card = target.closest("[data-testid=card][data-card-id]").ok()??;
    let code = card.get_attribute("data-card-id")?.parse().ok()?;
    Some((card, code))
}

/// The preview of the face-up card an event happened on.
pub fn preview_of(e: &Event) -> Option<Preview> {
    let (card, code) = card_under(e)?;
    let r = card.get_bounding_client_rect();
    Some(Preview {
        code,
        left: r.left(),
        top: r.top(),
        right: r.right(),
    })
}

/// Where the preview goes: right of the card if it fits, else left of it, kept inside
/// the window.
pub fn placement(p: &Preview, window_w: f64, window_h: f64) -> (f64, f64) {
    let gap = 10.0;
    let left = if p.right + gap + PREVIEW_W <= window_w {
        p.right + gap
    } else {
        (p.left - gap - PREVIEW_W).max(4.0)
    };
    let top = p.top.min(window_h - PREVIEW_H - 4.0).max(4.0);
    (left, top)
}

#[derive(Debug, Properties, PartialEq, Clone)]
pub struct CardPreviewProps {
    pub preview: Preview,
}

#[function_component(CardPreview)]
pub fn card_preview(props: &CardPreviewProps) -> Html {
    let ctx = use_ctx();
    let Some(def) = duel_engine::card::card(props.preview.code) else {
        return Html::default();
    };
    let (w, h) = web_sys::window()
        .map(|w| {
            (
                w.inner_width()
                    .ok()
                    .and_then(|v| v.as_f64())
                    .unwrap_or(1280.0),
                w.inner_height()
                    .ok()
                    .and_then(|v| v.as_f64())
                    .unwrap_or(900.0),
            )
        })
        .unwrap_or((1280.0, 900.0));
    let (left, top) = placement(&props.preview, w, h);
    let lang = engine_lang(ctx.lang);
    html! {
        <aside class={classes!("card-preview", frame_class(def.frame))} data-testid="card-preview"
            aria-hidden="true" style={format!("left:{};top:{}", px(left), px(top))}>
            <p class="preview-name">{ card_name(def.code, ctx.lang) }</p>
            <p class="preview-kind">{ kind_line(def, ctx.lang) }</p>
            if let Some(m) = &def.monster {
                <p class="preview-stats">{ stats_line(m, ctx.lang) }</p>
            }
            <p class="preview-text">{ def.text(lang) }</p>
        </aside>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_preview_sits_beside_the_card_and_inside_the_window() {
        let card = Preview {
            code: 1,
            left: 100.0,
            top: 300.0,
            right: 178.0,
        };
        assert_eq!(placement(&card, 1280.0, 900.0), (188.0, 300.0));
        let at_the_right = Preview {
            left: 1150.0,
            right: 1228.0,
            ..card
        };
        assert_eq!(
            placement(&at_the_right, 1280.0, 900.0),
            (1150.0 - 10.0 - PREVIEW_W, 300.0)
        );
        let low = Preview { top: 850.0, ..card };
        assert_eq!(placement(&low, 1280.0, 900.0).1, 900.0 - PREVIEW_H - 4.0);
        // A phone: beside a card at the left edge there is room on its right...
        let left_edge = Preview {
            left: 20.0,
            right: 64.0,
            ..card
        };
        assert_eq!(placement(&left_edge, 375.0, 812.0).0, 74.0);
        // ... but a window barely wider than the preview has room on neither side, so it
        // stays at the window's left edge.
        let narrow = Preview {
            left: 40.0,
            right: 84.0,
            ..card
        };
        assert_eq!(placement(&narrow, PREVIEW_W + 80.0, 812.0).0, 4.0);
    }
}
