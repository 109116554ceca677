//! Keyboard play shared by the Battle Line and Quantum Gomoku pages: keys that press buttons, step through rows and change a select.

use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement, HtmlSelectElement, KeyboardEvent};

/// Whether the key was pressed alone (no Ctrl, Alt or Meta), so the browser's and the
/// system's own shortcuts keep working.
fn plain(e: &KeyboardEvent) -> bool {
    !(e.ctrl_key() || e.alt_key() || e.meta_key())
}

/// Enter or Space on a focused button presses it, once, on key-down. The page presses it
/// itself and cancels the browser's own activation (Enter on key-down, Space on key-up),
/// so that every key press takes one path whatever sent it: a keyboard, software that
/// sends key events, or a browser test (events made by a script never trigger the
/// browser's activation). A held key does not repeat: holding Enter does not play a whole
/// turn. Returns whether the key was taken.
pub fn press_focused_button(e: &KeyboardEvent) -> bool {
    let key = e.key();
    if !(key == "Enter" || key == " ") || !plain(e) || e.default_prevented() {
        return false;
    }
    let Some(button) = e
        .target()
        .and_then(|t| t.dyn_into::<HtmlElement>().ok())
        .filter(|el| el.tag_name().eq_ignore_ascii_case("button"))
    else {
        return false;
    };
    e.prevent_default();
    if !e.repeat() {
        // A disabled button ignores the click, as it ignores the key.
        button.click();
    }
    true
}

pub use crate::modal::all;

/// ArrowLeft / ArrowRight on one of a row of buttons (the elements under `root` matching
/// `selector`) move the focus to the previous / next one, stopping at the ends. Returns
/// whether the key was taken.
pub fn step_in_row(e: &KeyboardEvent, root: &Element, selector: &str) -> bool {
    let forward = match e.key().as_str() {
        "ArrowRight" => true,
        "ArrowLeft" => false,
        _ => return false,
    };
    let Some(from) = e.target().and_then(|t| t.dyn_into::<Element>().ok()) else {
        return false;
    };
    if !plain(e) || !from.matches(selector).unwrap_or(false) {
        return false;
    }
    let row = all(root, selector);
    let Some(at) = row.iter().position(|el| {
        let el: &Element = el;
        *el == from
    }) else {
        return false;
    };
    e.prevent_default();
    let next = if forward {
        (at + 1).min(row.len() - 1)
    } else {
        at.saturating_sub(1)
    };
    // An element that cannot take focus only leaves the focus where it was.
    let _ = row[next].focus();
    true
}

/// ArrowUp / ArrowDown / Home / End on a closed `<select>` choose the previous / next /
/// first / last option, on every system (some open the list instead) and for key events
/// sent by software. Returns the value chosen, `None` when the key is not one of these or
/// the choice did not change.
pub fn step_select(e: &KeyboardEvent) -> Option<String> {
    let select = e
        .target()
        .and_then(|t| t.dyn_into::<HtmlSelectElement>().ok())?;
    if !plain(e) {
        return None;
    }
    let count = i32::try_from(select.length()).ok()?;
    let at = select.selected_index();
    let next = match e.key().as_str() {
        "ArrowUp" => (at - 1).max(0),
        "ArrowDown" => (at + 1).min(count - 1),
        "Home" => 0,
        "End" => count - 1,
        _ => return None,
    };
    e.prevent_default();
    if next == at || next < 0 {
        return None;
    }
    select.set_selected_index(next);
    Some(select.value())
}

/// Whether the keyboard focus is nowhere useful: on the page's body, on an element that
/// left the document, or on a disabled control (the button just pressed that the new
/// position turned off).
pub fn focus_lost() -> bool {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return false;
    };
    match document.active_element() {
        None => true,
        Some(el) => {
            document.body().is_some_and(|b| {
                let b: &Element = &b;
                *b == el
            }) || !el.is_connected()
                || el.has_attribute("disabled")
        }
    }
}

/// Focuses the first element under `root` matching `selector` that is not disabled.
/// Returns whether one took the focus.
pub fn focus_first(root: &Element, selector: &str) -> bool {
    all(root, selector)
        .into_iter()
        .find(|el| !el.has_attribute("disabled"))
        .is_some_and(|el| el.focus().is_ok())
}
