//! Browser entry point: mounts the app on <body>.

fn main() {
    // The same module also runs in the app's Web Worker (src/worker/), which has no
    // window and only answers jobs.
    if let Some(window) = web_sys::window() {
        // web/bench/timing.mjs splits the start-up here: before, fetching and compiling
        // the module; after, the first render.
        if let Some(perf) = window.performance() {
            let _ = perf.mark("app-main");
        }
        web::prefs::apply_motion_class();
        yew::Renderer::<web::App>::new().render();
        if let Some(perf) = window.performance() {
            let _ = perf.mark("app-rendered");
        }
        // Deferred: nothing may compete with the page's first paint.
        web::offline::set_up();
    }
}
