//! Browser entry point: mounts the app on <body>.

fn main() {
    yew::Renderer::<web::App>::new().render();
}
