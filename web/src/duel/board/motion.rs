//! Cards moving on the duel page: after each action every card glides (about 300 ms)
//! from where it was to where it is now, drawn cards come out of the deck and cards going
//! to a pile fly into it. Off when the player or the system turns motion off.
//!
//! The DOM carries no card ids (a face-down card must not be told apart): where each card
//! is drawn follows from the view itself (hand position, zone name, pile), so the page's
//! own layout is enough to find it again.

use std::cell::RefCell;
use std::rc::Rc;

use duel_engine::CardId;
use duel_engine::view::DuelView;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Element, HtmlElement};
use yew::prelude::*;

use crate::prefs::motion_enabled;

/// How long a card takes to move, as in the original app.
pub const MOVE_MS: f64 = 300.0;

/// Where the page draws a card.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Place {
    /// Its own element (hand, field zones), by a selector inside the duel page.
    Card(String),
    /// A pile that shows only a count (graveyard, banished, Extra Deck).
    Pile(&'static str),
}

/// The deck: cards come from here when they appear without having been anywhere shown.
pub const DECK: &str = "[data-testid=zone-deck]";

/// Where every card the player can follow is drawn, from the view.
pub fn places(view: &DuelView) -> Vec<(CardId, Place)> {
    let mut out = Vec::new();
    let you = &view.you;
    for (i, c) in you.hand.iter().enumerate() {
        out.push((
            c.id,
            Place::Card(format!(
                "[data-testid=zone-hand] > .hand-slot:nth-child({}) [data-testid=card]",
                i + 1
            )),
        ));
    }
    let zone = |slot: String| {
        Place::Card(format!(
            "[data-testid=duel-field] [data-slot={slot}] [data-testid=card]"
        ))
    };
    for (i, c) in you.monsters.iter().enumerate() {
        if let Some(c) = c {
            out.push((c.id, zone(format!("M{}", i + 1))));
        }
    }
    for (i, c) in you.spell_trap.iter().enumerate() {
        if let Some(c) = c {
            out.push((c.id, zone(format!("S{}", i + 1))));
        }
    }
    if let Some(c) = you.field_zone {
        out.push((c.id, zone("F".to_owned())));
    }
    let piles = [
        (&you.graveyard, "[data-testid=zone-graveyard]"),
        (&you.banished, "[data-testid=zone-banished]"),
        (&you.extra, "[data-testid=zone-extraDeck]"),
        (
            &view.opponent.graveyard,
            "[data-testid=zone-opponent-graveyard]",
        ),
        (
            &view.opponent.banished,
            "[data-testid=zone-opponent-banished]",
        ),
    ];
    for (cards, selector) in piles {
        out.extend(cards.iter().map(|c| (c.id, Place::Pile(selector))));
    }
    out
}

/// A rectangle in page coordinates (so scrolling between two actions does not count as
/// a move).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Rect {
    x: f64,
    y: f64,
    w: f64,
    h: f64,
}

fn rect_of(el: &Element) -> Rect {
    let r = el.get_bounding_client_rect();
    let (sx, sy) = web_sys::window()
        .map(|w| (w.scroll_x().unwrap_or(0.0), w.scroll_y().unwrap_or(0.0)))
        .unwrap_or((0.0, 0.0));
    Rect {
        x: r.left() + sx,
        y: r.top() + sy,
        w: r.width(),
        h: r.height(),
    }
}

/// Where a card was after the last action: its rectangle and, for a card drawn on its
/// own, a copy of its element to fly into a pile if it goes there next.
#[derive(Debug)]
struct Seen {
    rect: Rect,
    copy: Option<Element>,
}

/// Runs the Web Animations API on `el` (its `animate` method, called by name because
/// web-sys marks it unstable). Returns the animation, if the browser made one.
fn animate(el: &Element, frames: &[&[(&str, String)]], ms: f64) -> Option<JsValue> {
    let keyframes = js_sys::Array::new();
    for frame in frames {
        let obj = js_sys::Object::new();
        for (k, v) in *frame {
            js_sys::Reflect::set(&obj, &JsValue::from_str(k), &JsValue::from_str(v)).ok()?;
        }
        keyframes.push(&obj);
    }
    let options = js_sys::Object::new();
    js_sys::Reflect::set(&options, &"duration".into(), &ms.into()).ok()?;
    js_sys::Reflect::set(&options, &"easing".into(), &"ease-out".into()).ok()?;
    let f = js_sys::Reflect::get(el, &"animate".into())
        .ok()?
        .dyn_into::<js_sys::Function>()
        .ok()?;
    f.call2(el, &keyframes, &options).ok()
}

/// The element's own transform (a Defense Position card is turned), which a move must
/// end on.
fn own_transform(el: &Element) -> String {
    web_sys::window()
        .and_then(|w| w.get_computed_style(el).ok().flatten())
        .and_then(|s| s.get_property_value("transform").ok())
        .filter(|t| !t.is_empty())
        .unwrap_or_else(|| "none".to_owned())
}

/// A length in whole CSS pixels (`12.6` -> `"13px"`). Formatting the `f64` itself would
/// link core's float printing (about 10 KB of wasm) into the duel bundle.
pub fn px(x: f64) -> String {
    // `as` saturates: NaN is 0, and no page is 2^63 pixels wide.
    format!("{}px", x.round() as i64)
}

/// Glides `el` from `from` to where it is now.
fn glide(el: &Element, from: Rect, to: Rect) {
    let (dx, dy) = (from.x - to.x, from.y - to.y);
    if dx.abs() < 1.0 && dy.abs() < 1.0 {
        return;
    }
    let base = own_transform(el);
    let start = if base == "none" {
        format!("translate({}, {})", px(dx), px(dy))
    } else {
        format!("translate({}, {}) {base}", px(dx), px(dy))
    };
    animate(
        el,
        &[&[("transform", start)], &[("transform", base)]],
        MOVE_MS,
    );
}

/// Flies a copy of a card that left the page's own elements into the pile at `to`.
fn fly_into(copy: &Element, from: Rect, to: Rect) {
    let Some(body) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.body())
    else {
        return;
    };
    let Ok(ghost) = copy.clone_node_with_deep(true) else {
        return;
    };
    let Ok(ghost) = ghost.dyn_into::<HtmlElement>() else {
        return;
    };
    let (sx, sy) = web_sys::window()
        .map(|w| (w.scroll_x().unwrap_or(0.0), w.scroll_y().unwrap_or(0.0)))
        .unwrap_or((0.0, 0.0));
    let style = ghost.style();
    for (k, v) in [
        ("position", "fixed".to_owned()),
        ("left", px(from.x - sx)),
        ("top", px(from.y - sy)),
        ("width", px(from.w)),
        ("height", px(from.h)),
        ("margin", "0".to_owned()),
        ("z-index", "45".to_owned()),
        ("pointer-events", "none".to_owned()),
    ] {
        let _ = style.set_property(k, &v);
    }
    let _ = ghost.set_attribute("aria-hidden", "true");
    let _ = ghost.set_attribute("data-testid", "card-ghost");
    let _ = ghost.class_list().add_1("card-ghost");
    if body.append_child(&ghost).is_err() {
        return;
    }
    let dx = to.x + to.w / 2.0 - (from.x + from.w / 2.0);
    let dy = to.y + to.h / 2.0 - (from.y + from.h / 2.0);
    animate(
        &ghost,
        &[
            &[
                ("transform", "none".to_owned()),
                ("opacity", "1".to_owned()),
            ],
            &[
                (
                    "transform",
                    format!("translate({}, {}) scale(.6)", px(dx), px(dy)),
                ),
                ("opacity", "0.2".to_owned()),
            ],
        ],
        MOVE_MS,
    );
    // Removed a little after the flight, whether or not the animation ran.
    if let Some(window) = web_sys::window() {
        let done = wasm_bindgen::closure::Closure::once_into_js(move || ghost.remove());
        let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(
            done.unchecked_ref(),
            (MOVE_MS + 50.0) as i32,
        );
    }
}

/// Where a card was seen last time, if it was.
fn was(before: &[(CardId, Seen)], id: CardId) -> Option<&Seen> {
    before.iter().find(|(i, _)| *i == id).map(|(_, s)| s)
}

fn find(root: &Element, selector: &str) -> Option<Element> {
    root.query_selector(selector).ok().flatten()
}

/// Moves the cards of the duel page rooted at `root` after each new `view`.
#[hook]
pub fn use_card_motion(root: NodeRef, view: Option<Rc<DuelView>>, version: u64) {
    // A list rather than a map: some dozens of cards, and no hash table code in the bundle.
    let seen = use_mut_ref(Vec::<(CardId, Seen)>::new);
    use_effect_with(version, move |_| {
        if let (Some(root), Some(view)) = (root.cast::<Element>(), view) {
            update(&root, &view, &seen, motion_enabled());
        }
    });
}

fn update(root: &Element, view: &DuelView, seen: &Rc<RefCell<Vec<(CardId, Seen)>>>, moving: bool) {
    let mut before = seen.borrow_mut();
    let first = before.is_empty();
    let deck = find(root, DECK).map(|d| rect_of(&d));
    let mut after = Vec::new();
    for (id, place) in places(view) {
        match place {
            Place::Card(selector) => {
                let Some(el) = find(root, &selector) else {
                    continue;
                };
                let rect = rect_of(&el);
                if moving && !first {
                    match was(&before, id) {
                        Some(was) if was.rect != rect => glide(&el, was.rect, rect),
                        Some(_) => {}
                        // Not shown anywhere before: it comes out of the deck.
                        None => {
                            if let Some(deck) = deck {
                                glide(&el, deck, rect);
                            }
                        }
                    }
                }
                let copy = el
                    .clone_node_with_deep(true)
                    .ok()
                    .and_then(|n| n.dyn_into::<Element>().ok());
                after.push((id, Seen { rect, copy }));
            }
            Place::Pile(selector) => {
                let Some(pile) = find(root, selector) else {
                    continue;
                };
                let rect = rect_of(&pile);
                if moving
                    && let Some(Seen {
                        rect: from,
                        copy: Some(copy),
                    }) = was(&before, id)
                {
                    fly_into(copy, *from, rect);
                }
                after.push((id, Seen { rect, copy: None }));
            }
        }
    }
    *before = after;
}

#[cfg(test)]
mod tests {
    use super::px;

    #[test]
    fn lengths_are_whole_pixels_rounded_to_the_nearest() {
        assert_eq!(px(12.6), "13px");
        assert_eq!(px(-3.4), "-3px");
        assert_eq!(px(0.0), "0px");
        assert_eq!(px(f64::NAN), "0px");
    }
}
