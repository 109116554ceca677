//! Helpers the browser test files share: mount the app at a hash, prepare localStorage, query, click and settle.
// Each test file (its own crate) uses a different subset of these helpers.
#![allow(dead_code)]

use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement};
use yew::BaseComponent;

/// One mounted app (or single component) in its own <div>, destroyed at the end of the test.
pub struct Mounted {
    pub root: Element,
    destroy: Option<Box<dyn FnOnce()>>,
}

impl Drop for Mounted {
    fn drop(&mut self) {
        if let Some(destroy) = self.destroy.take() {
            destroy();
        }
        self.root.remove();
    }
}

pub fn window() -> web_sys::Window {
    web_sys::window().expect("a window")
}

pub fn document() -> web_sys::Document {
    window().document().expect("a document")
}

pub fn storage() -> web_sys::Storage {
    window()
        .local_storage()
        .ok()
        .flatten()
        .expect("localStorage")
}

/// Removes the given localStorage keys.
pub fn clear_keys(keys: &[&str]) {
    let s = storage();
    for key in keys {
        s.remove_item(key).expect("remove");
    }
}

/// Removes every localStorage key for which `doomed` holds (for games that keep one
/// key per saved game).
pub fn clear_keys_where(doomed: impl Fn(&str) -> bool) {
    let s = storage();
    let n = s.length().expect("length");
    let keys: Vec<String> = (0..n)
        .filter_map(|i| s.key(i).ok().flatten())
        .filter(|k| doomed(k))
        .collect();
    for k in keys {
        s.remove_item(&k).expect("remove");
    }
}

/// Stores each `(key, value)` in localStorage.
pub fn preset(entries: &[(&str, &str)]) {
    let s = storage();
    for (key, value) in entries {
        s.set_item(key, value).expect("store");
    }
}

pub async fn sleep(ms: i32) {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        window()
            .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms)
            .expect("setTimeout");
    });
    wasm_bindgen_futures::JsFuture::from(promise)
        .await
        .expect("timer");
}

/// Waits for Yew to render, for effects to run and for their dispatches to settle.
pub async fn settle() {
    for _ in 0..4 {
        yew::scheduler::flush().await;
        sleep(10).await;
    }
}

fn new_root() -> Element {
    let root = document().create_element("div").expect("div");
    document()
        .body()
        .expect("body")
        .append_child(&root)
        .expect("append");
    root
}

/// Mounts the app at `hash` with localStorage as it is (callers prepare it first).
pub async fn mount(hash: &str) -> Mounted {
    window().location().set_hash(hash).expect("set hash");
    mount_component::<web::App>(()).await
}

/// Mounts one component with its props (for widgets whose inputs no page reaches).
pub async fn mount_component<C: BaseComponent>(props: C::Properties) -> Mounted {
    let root = new_root();
    let handle = yew::Renderer::<C>::with_root_and_props(root.clone(), props).render();
    let mounted = Mounted {
        root,
        destroy: Some(Box::new(move || handle.destroy())),
    };
    settle().await;
    mounted
}

impl Mounted {
    pub fn all(&self, selector: &str) -> Vec<Element> {
        let list = self.root.query_selector_all(selector).expect("selector");
        (0..list.length())
            .filter_map(|i| list.item(i))
            .filter_map(|n| n.dyn_into::<Element>().ok())
            .collect()
    }

    pub fn one(&self, selector: &str) -> Element {
        self.root
            .query_selector(selector)
            .expect("selector")
            .unwrap_or_else(|| panic!("nothing matches {selector}"))
    }

    pub fn has(&self, selector: &str) -> bool {
        self.root
            .query_selector(selector)
            .expect("selector")
            .is_some()
    }

    pub fn text(&self, selector: &str) -> String {
        self.one(selector).text_content().unwrap_or_default()
    }

    pub fn attr(&self, selector: &str, name: &str) -> String {
        self.one(selector).get_attribute(name).unwrap_or_default()
    }

    pub fn disabled(&self, selector: &str) -> bool {
        self.one(selector).has_attribute("disabled")
    }

    /// The `data-card-id` of every element matching `selector`, in document order.
    pub fn card_ids(&self, selector: &str) -> Vec<String> {
        self.all(selector)
            .iter()
            .filter_map(|e| e.get_attribute("data-card-id"))
            .collect()
    }

    pub async fn click(&self, selector: &str) {
        self.one(selector)
            .dyn_ref::<HtmlElement>()
            .expect("an HTML element")
            .click();
        settle().await;
    }

    /// Waits (up to `seconds`) until `selector` matches; whether it did.
    pub async fn wait_for(&self, selector: &str, seconds: u32) -> bool {
        for _ in 0..seconds * 20 {
            if self.has(selector) {
                return true;
            }
            sleep(50).await;
            settle().await;
        }
        self.has(selector)
    }

    /// Types `text` into the field `selector` as a player would (an `input` event).
    pub async fn type_into(&self, selector: &str, text: &str) {
        let el = self.one(selector);
        if let Some(input) = el.dyn_ref::<web_sys::HtmlInputElement>() {
            input.set_value(text);
        } else if let Some(area) = el.dyn_ref::<web_sys::HtmlTextAreaElement>() {
            area.set_value(text);
        }
        let init = web_sys::EventInit::new();
        init.set_bubbles(true);
        let event = web_sys::Event::new_with_event_init_dict("input", &init).expect("event");
        el.dispatch_event(&event).expect("dispatch");
        settle().await;
    }

    /// Picks `value` in the select `selector`, as a player would (a `change` event).
    pub async fn choose(&self, selector: &str, value: &str) {
        let el = self.one(selector);
        el.dyn_ref::<web_sys::HtmlSelectElement>()
            .expect("a select")
            .set_value(value);
        let init = web_sys::EventInit::new();
        init.set_bubbles(true);
        let change = web_sys::Event::new_with_event_init_dict("change", &init).expect("event");
        el.dispatch_event(&change).expect("dispatch");
        settle().await;
    }
}

/// Long tasks (over 50 ms) of the page's main thread while it is alive.
pub struct LongTasks {
    observer: web_sys::PerformanceObserver,
    seen: std::rc::Rc<std::cell::RefCell<Vec<f64>>>,
    _callback: wasm_bindgen::closure::Closure<dyn FnMut(web_sys::PerformanceObserverEntryList)>,
}

impl LongTasks {
    pub fn watch() -> LongTasks {
        let seen = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
        let sink = seen.clone();
        let callback = wasm_bindgen::closure::Closure::<
            dyn FnMut(web_sys::PerformanceObserverEntryList),
        >::new(move |list: web_sys::PerformanceObserverEntryList| {
            for entry in list.get_entries().iter() {
                if let Ok(e) = entry.dyn_into::<web_sys::PerformanceEntry>() {
                    sink.borrow_mut().push(e.duration());
                }
            }
        });
        let observer = web_sys::PerformanceObserver::new(callback.as_ref().unchecked_ref())
            .expect("PerformanceObserver");
        let init = web_sys::PerformanceObserverInit::new(&js_sys::Array::of1(&"longtask".into()));
        observer.observe(&init);
        LongTasks {
            observer,
            seen,
            _callback: callback,
        }
    }

    pub fn durations(&self) -> Vec<f64> {
        // Entries still queued in the observer count too.
        for entry in self.observer.take_records().iter() {
            if let Ok(e) = entry.dyn_into::<web_sys::PerformanceEntry>() {
                self.seen.borrow_mut().push(e.duration());
            }
        }
        self.seen.borrow().clone()
    }

    /// The tasks seen so far that took more than `ms`.
    pub fn over(&self, ms: f64) -> Vec<f64> {
        self.durations().into_iter().filter(|&d| d > ms).collect()
    }
}

impl Drop for LongTasks {
    fn drop(&mut self) {
        self.observer.disconnect();
    }
}

impl Mounted {
    /// Battle Line against the computer: waits up to `polls` × 100 ms for the computer to
    /// finish its turn (the hand shows and the guide no longer names the computer).
    pub async fn wait_for_my_turn(&self, polls: usize) {
        for _ in 0..polls {
            if self.has("[data-testid=hand]")
                && self.has("[data-testid=prompt]")
                && !self
                    .one("[data-testid=prompt]")
                    .text_content()
                    .unwrap_or_default()
                    .contains("コンピューター")
            {
                return;
            }
            sleep(100).await;
            settle().await;
        }
        panic!("the computer did not finish its turn");
    }
}

/// The element that has the keyboard focus (the body when none has).
pub fn focused() -> Element {
    document().active_element().expect("an active element")
}

/// The `data-testid` of the element that has the keyboard focus ("" when it has none).
pub fn focused_testid() -> String {
    focused().get_attribute("data-testid").unwrap_or_default()
}

/// Tab to `el`: asserts that the keyboard can reach it (in the tab order, not disabled),
/// then focuses it.
pub fn tab_to(el: &Element) {
    let html = el.dyn_ref::<HtmlElement>().expect("an HTML element");
    assert!(
        html.tab_index() >= 0,
        "not in the tab order: {}",
        el.outer_html()
    );
    assert!(
        !el.has_attribute("disabled"),
        "disabled: {}",
        el.outer_html()
    );
    html.focus().expect("focus");
    assert_eq!(&focused(), el, "took the focus");
}

/// A key pressed on `target` (a keydown that bubbles and can be cancelled, as a keyboard
/// sends it), then the page settles.
pub async fn press(target: &Element, key: &str) {
    let init = web_sys::KeyboardEventInit::new();
    init.set_key(key);
    init.set_bubbles(true);
    init.set_cancelable(true);
    let event =
        web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).expect("event");
    target.dispatch_event(&event).expect("dispatch");
    settle().await;
}

/// A key pressed on whatever has the focus.
pub async fn press_focused(key: &str) {
    press(&focused(), key).await;
}
