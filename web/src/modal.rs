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
            // The dialog's controls, then the page's floating tools (undo, redo, the hint's
            // next step: `data-float`), in a ring.
            let mut items = focusables(root);
            if let Some(doc) = root.owner_document()
                && let Some(floats) = doc.document_element()
            {
                items.extend(all(&floats, "[data-float] button:not([disabled])"));
            }
            e.prevent_default();
            if items.is_empty() {
                return;
            }
            let n = items.len();
            let active = active_element();
            let at = items.iter().position(|i| Some(i) == active.as_ref());
            let next = match (at, e.shift_key()) {
                (Some(i), false) => (i + 1) % n,
                (Some(i), true) => (i + n - 1) % n,
                (None, false) => 0,
                (None, true) => n - 1,
            };
            let _ = items[next].focus();
        }
        _ => {}
    }
}

thread_local! {
    /// The last element that had the focus outside every dialog and menu: what opened
    /// the dialog that is open now, when its own opener (a menu entry) is gone.
    static OPENER: std::cell::RefCell<Option<HtmlElement>> = const { std::cell::RefCell::new(None) };
    static TRACKING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

fn in_popup(el: &Element) -> bool {
    el.closest("[role=dialog],[role=menu]")
        .ok()
        .flatten()
        .is_some()
}

/// Follows the focus on the whole page (once per page), so a dialog that closes can give
/// the focus back to what opened it.
pub fn track_focus() {
    if TRACKING.with(|t| t.replace(true)) {
        return;
    }
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let listener = wasm_bindgen::closure::Closure::<dyn Fn(FocusEvent)>::new(|e: FocusEvent| {
        if let Some(el) = e.target().and_then(|t| t.dyn_into::<HtmlElement>().ok())
            && !in_popup(&el)
        {
            OPENER.with(|o| *o.borrow_mut() = Some(el));
        }
    });
    let _ = doc.add_event_listener_with_callback("focusin", listener.as_ref().unchecked_ref());
    // One listener for the page's whole life.
    listener.forget();
}

/// Where the focus goes when a dialog closes: the element focused when it opened (in a
/// dialog below it, too), if it is still there and not in a menu; else what opened it (the card whose
/// menu led to it); else a copy of that card still on the page; else the first control
/// of the page's focus home (`data-focus-home`: the duel's hand).
fn return_target(before: Option<HtmlElement>) -> Option<HtmlElement> {
    let doc = web_sys::window()?.document()?;
    let usable = |e: &HtmlElement| e.is_connected() && Some(e) != doc.body().as_ref();
    let in_menu = |e: &HtmlElement| e.closest("[role=menu]").ok().flatten().is_some();
    if let Some(b) = before.filter(|b| usable(b) && !in_menu(b)) {
        return Some(b);
    }
    let opener = OPENER.with(|o| o.borrow().clone());
    if let Some(o) = opener.as_ref().filter(|o| usable(o)) {
        return Some(o.clone());
    }
    let card = opener
        .and_then(|o| o.get_attribute("data-card-id"))
        .and_then(|id| {
            doc.query_selector(&format!(
                "button[data-card-id='{id}']:not([disabled]):not([aria-hidden])"
            ))
            .ok()
            .flatten()
        });
    card.or_else(|| {
        doc.query_selector("[data-focus-home] button:not([disabled])")
            .ok()
            .flatten()
    })
    .and_then(|e| e.dyn_into::<HtmlElement>().ok())
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
                // Back to where the player was, or to what opened the dialog, once the page
                // has drawn what closed it (a card gone from the hand, say), unless another
                // dialog or menu took the focus meanwhile.
                let restore = move || {
                    let busy = active_element().is_some_and(|a| a.is_connected() && in_popup(&a));
                    if !busy && let Some(el) = return_target(before) {
                        let _ = el.focus();
                    }
                };
                if let Some(w) = web_sys::window() {
                    let f = wasm_bindgen::closure::Closure::once_into_js(restore);
                    let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(
                        f.unchecked_ref(),
                        0,
                    );
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
