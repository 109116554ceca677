//! What every modal dialog does for keyboard users: focus moves in when it opens and back
//! where it was when it closes, Tab stays inside, Escape closes the ones that may be closed.

use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement};
use yew::prelude::*;

/// What can take the focus inside a dialog, in document order.
const FOCUSABLE: &str = "button:not([disabled]), a[href], input:not([disabled]), \
    select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex='-1'])";

fn focusables(root: &Element) -> Vec<HtmlElement> {
    all(root, FOCUSABLE)
}

/// The elements under `root` that match `selector`, in document order.
pub fn all(root: &Element, selector: &str) -> Vec<HtmlElement> {
    let Ok(list) = root.query_selector_all(selector) else {
        return Vec::new();
    };
    (0..list.length())
        .filter_map(|i| list.item(i))
        .filter_map(|n| n.dyn_into::<HtmlElement>().ok())
        .collect()
}

fn active_element() -> Option<HtmlElement> {
    web_sys::window()?
        .document()?
        .active_element()?
        .dyn_into::<HtmlElement>()
        .ok()
}

/// The element a dialog focuses when it opens: the one marked `autofocus` (the safe or
/// expected answer), else its first control, else the dialog itself.
fn initial_focus(root: &Element) -> Option<HtmlElement> {
    root.query_selector("[autofocus]:not([disabled])")
        .ok()
        .flatten()
        .and_then(|e| e.dyn_into::<HtmlElement>().ok())
        .or_else(|| focusables(root).into_iter().next())
        .or_else(|| root.clone().dyn_into::<HtmlElement>().ok())
}

/// Keeps Tab and Shift+Tab among the dialog's controls; Escape calls `on_close`.
pub fn trap_keys(root: &Element, e: &KeyboardEvent, on_close: Option<&Callback<()>>) {
    match e.key().as_str() {
        "Escape" => {
            if let Some(close) = on_close {
                e.prevent_default();
                e.stop_propagation();
                close.emit(());
            }
        }
        "Tab" => {
            let items = focusables(root);
            let (Some(first), Some(last)) = (items.first(), items.last()) else {
                e.prevent_default();
                return;
            };
            let active = active_element();
            let inside = active
                .as_ref()
                .is_some_and(|a| root.contains(Some(a.as_ref())));
            if e.shift_key() && (!inside || active.as_ref() == Some(first)) {
                e.prevent_default();
                let _ = last.focus();
            } else if !e.shift_key() && (!inside || active.as_ref() == Some(last)) {
                e.prevent_default();
                let _ = first.focus();
            }
        }
        _ => {}
    }
}

/// The focus handling of one dialog: put `node` on the element with `role="dialog"` and
/// the returned callback on its `onkeydown`. `on_close` (Escape) is `None` for questions
/// the rules need answered.
#[hook]
pub fn use_dialog(on_close: Option<Callback<()>>) -> (NodeRef, Callback<KeyboardEvent>) {
    let node = use_node_ref();
    {
        let node = node.clone();
        use_effect_with((), move |_| {
            let before = active_element();
            if let Some(target) = node.cast::<Element>().and_then(|r| initial_focus(&r)) {
                let _ = target.focus();
            }
            move || {
                // Back to where the player was, if it is still on the page.
                if let Some(el) = before.filter(|e| e.is_connected()) {
                    let _ = el.focus();
                }
            }
        });
    }
    let onkeydown = {
        let node = node.clone();
        Callback::from(move |e: KeyboardEvent| {
            if let Some(root) = node.cast::<Element>() {
                trap_keys(&root, &e, on_close.as_ref());
            }
        })
    };
    (node, onkeydown)
}
