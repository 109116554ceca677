//! Offline play: release builds register the site's service worker (dist/sw.js, written by
//! `web/pwa/build-sw.mjs`); development builds remove any left by a release served earlier
//! on the same address, so `trunk serve` always shows the code being worked on.

use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::prelude::JsValue;

/// The service worker's address from this bundle's page: the site root holds it, and
/// the other games' bundles sit one folder below (see `Route::href`).
pub fn script_url() -> &'static str {
    if cfg!(feature = "duel") {
        "sw.js"
    } else {
        "../sw.js"
    }
}

/// How long after start-up the service worker is registered: its install downloads every
/// bundle, which must not compete with the page's first paint.
const REGISTER_AFTER_MS: i32 = 1500;

/// Registers the service worker (release) or removes stale ones (debug) a moment after
/// start-up. Best effort: without service workers (an insecure origin, some private
/// windows) the app just works online.
pub fn set_up() {
    let Some(window) = web_sys::window() else {
        return;
    };
    let later = Closure::once_into_js(set_up_now);
    let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(
        later.unchecked_ref(),
        REGISTER_AFTER_MS,
    );
}

fn set_up_now() {
    let Some(container) = web_sys::window().map(|w| w.navigator().service_worker()) else {
        return;
    };
    // Accessing `navigator.serviceWorker` throws nothing in wasm-bindgen, but on an
    // insecure origin it is undefined: check before calling into it.
    if JsValue::from(container.clone()).is_undefined() {
        return;
    }
    // The closures live as long as the page: they run once, at most, when the promise settles.
    let ignore = Closure::<dyn FnMut(JsValue)>::new(|_: JsValue| {});
    if cfg!(debug_assertions) {
        let unregister_all = Closure::<dyn FnMut(JsValue)>::new(|list: JsValue| {
            for reg in js_sys::Array::from(&list).iter() {
                if let Ok(reg) = reg.dyn_into::<web_sys::ServiceWorkerRegistration>() {
                    // The promise only says whether it worked; a later load retries.
                    let _ = reg.unregister();
                }
            }
        });
        let _ = container
            .get_registrations()
            .then(&unregister_all)
            .catch(&ignore);
        unregister_all.forget();
    } else {
        // A failed registration (no sw.js, e.g. `trunk serve --release`) changes nothing.
        let _ = container.register(script_url()).catch(&ignore);
    }
    ignore.forget();
}
