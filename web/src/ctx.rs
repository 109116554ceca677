//! What every page reads from the app shell: the language, navigation and the address bar.

use yew::prelude::*;

use crate::i18n::{Lang, T};
use crate::route::Route;

/// What every page may read: the language and a way to move to another route.
#[derive(Debug, Clone, PartialEq)]
pub struct Ctx {
    pub lang: Lang,
    pub on_navigate: Callback<Route>,
}

impl Ctx {
    pub fn t(&self, key: T) -> &'static str {
        key.text(self.lang)
    }
}

/// The route the browser currently shows.
pub fn current_route() -> Route {
    let Some(location) = web_sys::window().map(|w| w.location()) else {
        return Route::Home;
    };
    let hash = location.hash().unwrap_or_default();
    let search = location.search().unwrap_or_default();
    Route::parse(&hash, &search)
}

/// Rewrites the address bar without adding a history entry or firing `hashchange`
/// (used to record a freshly drawn seed so a reload replays the same game).
pub fn replace_route(route: &Route) {
    if let Some(window) = web_sys::window()
        && let Ok(history) = window.history()
    {
        // Failure only means the address bar keeps the old text; the game is unaffected.
        let _ = history.replace_state_with_url(
            &wasm_bindgen::JsValue::NULL,
            "",
            Some(&route.to_hash()),
        );
    }
}

/// The context every page component reads; the app always provides it.
#[hook]
pub fn use_ctx() -> Ctx {
    use_context::<Ctx>().unwrap_or_else(|| Ctx {
        lang: Lang::default(),
        on_navigate: Callback::noop(),
    })
}
