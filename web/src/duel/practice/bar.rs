//! The duel page's practice bar: undo and redo (buttons, Ctrl+Z and Ctrl+Shift+Z), a share link that replays the game, the hint and the "still winnable?" indicator.

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;
use yew::prelude::*;

use crate::ctx::use_ctx;
use crate::duel::practice::hint::HintPanel;
use crate::duel::state::{Action, DuelState};
use crate::i18n::Lang;
use crate::route::Route;

#[derive(Debug, Properties, Clone)]
pub struct PracticeProps {
    pub state: UseReducerHandle<DuelState>,
    /// The state's `version` when the parent rendered (it is bumped on every change of
    /// the duel or of the actions to redo).
    pub version: u64,
    /// Hears the hint's next step (see `HintProps::on_step`).
    #[prop_or_default]
    pub on_hint_step: Callback<Option<duel_engine::Command>>,
}

impl PartialEq for PracticeProps {
    /// By the version the props were made with: a handle reads the reducer's current
    /// state (an old handle too), so only a value copied at render time tells the old
    /// props from the new; and the handle's own comparison, of the whole duel, cost
    /// about 4 KB of wasm.
    fn eq(&self, other: &Self) -> bool {
        self.version == other.version
    }
}

/// 「同じ手札でやり直す」: the same deal again from the start.
pub fn retry_label(lang: Lang) -> &'static str {
    lang.pick("同じ手札でやり直す", "Retry this hand")
}

/// What a key press asks of the history: `Some(true)` redo, `Some(false)` undo.
pub fn history_key(key: &str, ctrl_or_meta: bool, shift: bool) -> Option<bool> {
    if !ctrl_or_meta {
        return None;
    }
    match key {
        "z" | "Z" => Some(shift),
        "y" | "Y" if !shift => Some(true),
        _ => None,
    }
}

/// The address that opens a share code on this site: the replay route's link (in the
/// bundle that has the replay page) made absolute from this page's address.
pub fn share_url(code: &str) -> String {
    let here = web_sys::window()
        .and_then(|w| w.location().href().ok())
        .unwrap_or_default();
    let link = Route::Replay {
        code: code.to_owned(),
    }
    .href();
    absolute(&here, &link)
}

/// A link as [`Route::href`] makes it (`#...`, `folder/#...` or `../folder/#...`) as an
/// absolute address, seen from the page at `here`: a hash replaces the page's hash; a
/// path is taken from the page's folder (its query dropped), `../` going up one folder.
pub fn absolute(here: &str, link: &str) -> String {
    let page = here.split('#').next().unwrap_or_default();
    if link.starts_with('#') {
        return format!("{page}{link}");
    }
    let path = page.split('?').next().unwrap_or_default();
    // Keep the origin ("https://host") out of reach of `../`.
    let origin_end = path
        .find("://")
        .and_then(|i| path[i + 3..].find('/').map(|j| i + 3 + j))
        .unwrap_or(path.len());
    let mut dir = path[..path.rfind('/').map_or(path.len(), |i| i + 1)].to_owned();
    let mut rest = link;
    while let Some(up) = rest.strip_prefix("../") {
        rest = up;
        let trimmed = dir.trim_end_matches('/');
        if trimmed.len() > origin_end {
            dir.truncate(trimmed.rfind('/').map_or(trimmed.len(), |i| i + 1));
        }
    }
    format!("{dir}{rest}")
}

/// A callback to be called at most once, from whichever of two paths comes first.
type Once = Rc<RefCell<Option<Box<dyn FnOnce(bool)>>>>;

/// Copies `text` to the clipboard; `done` hears whether it worked (a browser may refuse
/// without a user gesture or permission, or have no clipboard at all).
fn copy_text(text: &str, done: impl FnOnce(bool) + 'static) {
    let done: Once = Rc::new(RefCell::new(Some(Box::new(done))));
    let call = |ok: bool, done: &Once| {
        if let Some(f) = done.borrow_mut().take() {
            f(ok);
        }
    };
    let navigator = js_sys::Reflect::get(&js_sys::global(), &"navigator".into()).ok();
    let clipboard = navigator.and_then(|n| js_sys::Reflect::get(&n, &"clipboard".into()).ok());
    let promise = clipboard.and_then(|c| {
        let write: js_sys::Function = js_sys::Reflect::get(&c, &"writeText".into())
            .ok()?
            .dyn_into()
            .ok()?;
        let promise = write.call1(&c, &text.into()).ok()?;
        let then: js_sys::Function = js_sys::Reflect::get(&promise, &"then".into())
            .ok()?
            .dyn_into()
            .ok()?;
        Some((promise, then))
    });
    let Some((promise, then)) = promise else {
        call(false, &done);
        return;
    };
    let (ok, failed) = (done.clone(), done);
    let on_ok: wasm_bindgen::JsValue =
        Closure::once_into_js(move |_: wasm_bindgen::JsValue| call(true, &ok));
    let on_err: wasm_bindgen::JsValue =
        Closure::once_into_js(move |_: wasm_bindgen::JsValue| call(false, &failed));
    // Called through `then` itself so that each callback frees itself once it has run.
    let _ = then.call2(&promise, &on_ok, &on_err);
}

/// Undo and redo as two buttons (`<prefix>-undo`, `<prefix>-redo`): in the practice bar
/// and in every dialog the duel waits in, so a player an undo left in a choice can step
/// out of it by touch too. `on` hears `true` for redo.
pub fn history_buttons(
    lang: Lang,
    (can_undo, can_redo): (bool, bool),
    on: &Callback<bool>,
    prefix: &str,
) -> Html {
    html! {
        <>
            <button type="button" class="btn" data-testid={format!("{prefix}-undo")} disabled={!can_undo}
                onclick={on.reform(|_: MouseEvent| false)} title={lang.pick("元に戻す（Ctrl+Z）", "Undo (Ctrl+Z)")}>
                { lang.pick("↶ 元に戻す", "↶ Undo") }
            </button>
            <button type="button" class="btn" data-testid={format!("{prefix}-redo")} disabled={!can_redo}
                onclick={on.reform(|_: MouseEvent| true)} title={lang.pick("やり直す（Ctrl+Shift+Z）", "Redo (Ctrl+Shift+Z)")}>
                { lang.pick("↷ やり直す", "↷ Redo") }
            </button>
        </>
    }
}

impl DuelState {
    /// Whether there is an action to undo, and one to redo.
    pub fn history(&self) -> (bool, bool) {
        (
            self.duel.as_ref().is_some_and(|d| !d.log().is_empty()),
            !self.redo.is_empty(),
        )
    }
}

#[function_component(PracticeBar)]
pub fn practice_bar(props: &PracticeProps) -> Html {
    let ctx = use_ctx();
    let lang = ctx.lang;
    let state = &props.state;
    // The share link of one state version (later moves make it stale), and whether the
    // clipboard took it.
    let shared = use_state(|| None::<(u64, String, Option<bool>)>);

    // Ctrl+Z / Ctrl+Shift+Z (and Ctrl+Y), except while typing in a field.
    {
        let dispatcher = state.dispatcher();
        use_effect_with((), move |_| {
            let listener = Closure::<dyn Fn(KeyboardEvent)>::new(move |e: KeyboardEvent| {
                let typing = e
                    .target()
                    .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                    .is_some_and(|el| {
                        matches!(el.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT")
                    });
                let Some(redo) = history_key(&e.key(), e.ctrl_key() || e.meta_key(), e.shift_key())
                else {
                    return;
                };
                if typing {
                    return;
                }
                e.prevent_default();
                dispatcher.dispatch(if redo { Action::Redo } else { Action::Undo });
            });
            let window = web_sys::window();
            if let Some(w) = &window {
                // Without the listener the buttons still work.
                let _ = w
                    .add_event_listener_with_callback("keydown", listener.as_ref().unchecked_ref());
            }
            move || {
                if let Some(w) = &window {
                    let _ = w.remove_event_listener_with_callback(
                        "keydown",
                        listener.as_ref().unchecked_ref(),
                    );
                }
                drop(listener);
            }
        });
    }

    let Some(duel) = &state.duel else {
        return html! {};
    };
    let on_history = {
        let d = state.dispatcher();
        Callback::from(move |redo: bool| d.dispatch(if redo { Action::Redo } else { Action::Undo }))
    };
    let on_retry = {
        let d = state.dispatcher();
        Callback::from(move |_: MouseEvent| d.dispatch(Action::Retry))
    };
    let on_share = {
        let shared = shared.clone();
        let code = duel.share_code();
        let version = state.version;
        Callback::from(move |_: MouseEvent| {
            let url = share_url(&code);
            shared.set(Some((version, url.clone(), None)));
            let shared = shared.clone();
            let copied = url.clone();
            copy_text(&copied, move |ok| {
                shared.set(Some((version, url, Some(ok))))
            });
        })
    };
    let share_html = (*shared)
        .clone()
        .filter(|(v, _, _)| *v == state.version)
        .map(|(_, url, copied)| {
            let status = match copied {
                Some(true) => lang.pick("URLをコピーしました。", "The address was copied."),
                Some(false) => lang.pick(
                    "コピーできませんでした。下のURLを選んでコピーしてください。",
                    "It could not be copied: select the address below and copy it.",
                ),
                None => "",
            };
            html! {
                <div class="share" role="status">
                    <span class="muted" data-testid="share-status">{ status }</span>
                    <a data-testid="share-url" class="share-url" href={url.clone()}>{ url }</a>
                </div>
            }
        });

    html! {
        <section class="practice" data-testid="practice-bar" aria-label={lang.pick("練習ツール", "Practice tools")}>
            <div class="btn-row">
                // Above any dialog too (see `.float-tools` in style.css): a player an undo
                // left in a choice can step out of it by touch.
                <span class="float-tools history-tools" data-float="">
                    { history_buttons(lang, state.history(), &on_history, "btn") }
                </span>
                <button type="button" class="btn" data-testid="btn-retry-hand" onclick={on_retry}>
                    { retry_label(lang) }
                </button>
                <button type="button" class="btn" data-testid="btn-share" onclick={on_share}>
                    { lang.pick("共有URL", "Share link") }
                </button>
                <a class="btn" data-testid="link-stats" href={Route::Stats { deck: state.deck.clone(), hands: None }.href()}>
                    { lang.pick("デッキの統計", "Deck statistics") }
                </a>
            </div>
            { for share_html }
            <HintPanel state={state.clone()} version={props.version} on_step={props.on_hint_step.clone()} />
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ctrl_z_undoes_and_ctrl_shift_z_or_ctrl_y_redoes() {
        assert_eq!(history_key("z", true, false), Some(false));
        assert_eq!(history_key("Z", true, true), Some(true));
        assert_eq!(history_key("y", true, false), Some(true));
        assert_eq!(history_key("z", false, false), None, "a plain z is typing");
        assert_eq!(history_key("x", true, false), None);
    }

    #[test]
    fn links_of_other_bundles_become_absolute_from_the_page_folder() {
        let here = "https://example.org/games/index.html?seed=3#/simulator/exodia-deck";
        assert_eq!(
            absolute(here, "#/replay/AQAB"),
            "https://example.org/games/index.html?seed=3#/replay/AQAB"
        );
        assert_eq!(
            absolute(here, "duel-analysis/#/replay/AQAB"),
            "https://example.org/games/duel-analysis/#/replay/AQAB"
        );
        assert_eq!(
            absolute("https://example.org/games/battle-line/#/x", "../#/"),
            "https://example.org/games/#/"
        );
        assert_eq!(
            absolute("http://127.0.0.1:8080/#/", "../../duel-analysis/#/"),
            "http://127.0.0.1:8080/duel-analysis/#/",
            "never above the site's root"
        );
    }
}
