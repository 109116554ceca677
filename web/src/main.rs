//! Browser entry point: mounts the app on <body>.

fn main() {
    // The same module also runs in the app's Web Worker (src/worker/), which has no
    // window and only answers jobs.
    if web_sys::window().is_some() {
        yew::Renderer::<web::App>::new().render();
    }
}
