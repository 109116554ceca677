//! Runs heavy computations (win estimates, the computer's moves) in a Web Worker, so the page never waits for them.
//!
//! The worker runs the page's own wasm module: `bootstrap.js` (a wasm-bindgen snippet,
//! served next to the glue from the page's origin) is both a module the page imports and
//! the worker's script. The page starts it as a module worker and posts the glue's URL
//! and the compiled `WebAssembly.Module`; the worker imports the glue, instantiates the
//! module (no second download or compilation) and answers each job through
//! [`games_worker_run`]. No inline script and no `blob:` URL is involved, so a policy of
//! `script-src 'self' 'wasm-unsafe-eval'` allows it. A bundle gets all this only with the
//! `worker` cargo feature, which the games that need it turn on.
//!
//! A job is a [`Task`]: JSON in, JSON out, dispatched by its [`Task::KIND`] in `dispatch`
//! (one line per game). The page keeps one job in flight and queues the others; dropping
//! the [`Job`] handle removes a queued job and discards the answer of a running one, so an
//! effect that returns its handle as the destructor never sees a stale answer. If no worker
//! can start (module workers unsupported, or forbidden by a policy) or it dies, jobs run on
//! the page from a timer instead.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::fmt;

use serde::Serialize;
use serde::de::DeserializeOwned;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

/// A computation the worker can run.
pub trait Task: Serialize + DeserializeOwned {
    /// The name jobs of this task are dispatched by; unique across the app.
    const KIND: &'static str;
    /// What it answers.
    type Output: Serialize + DeserializeOwned;
    /// Runs it (in the worker, or on the page as the fallback).
    fn run(self) -> Result<Self::Output, String>;
}

/// A job's answer.
#[derive(Debug, Clone, PartialEq)]
pub struct Done<T> {
    /// What the task answered.
    pub value: T,
    /// How long it ran, in milliseconds, measured where it ran.
    pub ms: f64,
    /// Whether it ran in the worker (false: on the page, the fallback).
    pub in_worker: bool,
}

/// Why a job has no answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum JobError {
    /// The task refused its input.
    Refused(String),
    /// The answer could not be read (a bug: both sides are this crate).
    Garbled(String),
}

impl fmt::Display for JobError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JobError::Refused(why) => write!(f, "the job was refused: {why}"),
            JobError::Garbled(why) => write!(f, "the job's answer is unreadable: {why}"),
        }
    }
}

/// A job as posted to the worker: `[id, kind, body]`, a JS array, so the task's JSON
/// travels as it is (not escaped inside another JSON document).
#[derive(Debug, Clone, PartialEq)]
struct Request {
    id: u32,
    kind: String,
    body: String,
}

impl Request {
    fn to_js(&self) -> JsValue {
        js_sys::Array::of3(
            &self.id.into(),
            &JsValue::from_str(&self.kind),
            &JsValue::from_str(&self.body),
        )
        .into()
    }

    fn from_js(value: &JsValue) -> Option<Request> {
        let array: &js_sys::Array = value.dyn_ref()?;
        Some(Request {
            id: array.get(0).as_f64()? as u32,
            kind: array.get(1).as_string()?,
            body: array.get(2).as_string()?,
        })
    }
}

/// A job's reply: `[id, ms, inWorker, ok, payload]` (payload: the output's JSON, or why
/// it failed).
#[derive(Debug, Clone, PartialEq)]
struct Reply {
    id: u32,
    ms: f64,
    in_worker: bool,
    result: Result<String, String>,
}

impl Reply {
    fn to_js(&self) -> JsValue {
        let (ok, payload) = match &self.result {
            Ok(json) => (true, json),
            Err(why) => (false, why),
        };
        let out = js_sys::Array::of3(&self.id.into(), &self.ms.into(), &self.in_worker.into());
        out.push(&ok.into());
        out.push(&JsValue::from_str(payload));
        out.into()
    }

    fn from_js(value: &JsValue) -> Option<Reply> {
        let array: &js_sys::Array = value.dyn_ref()?;
        let payload = array.get(4).as_string()?;
        Some(Reply {
            id: array.get(0).as_f64()? as u32,
            ms: array.get(1).as_f64()?,
            in_worker: array.get(2).as_bool()?,
            result: if array.get(3).as_bool()? {
                Ok(payload)
            } else {
                Err(payload)
            },
        })
    }
}

/// Runs a task from its JSON and answers JSON (for the games' dispatch functions).
pub(crate) fn run_json<T: Task>(body: &str) -> Result<String, String> {
    let task: T = serde_json::from_str(body).map_err(|e| e.to_string())?;
    let output = task.run()?;
    serde_json::to_string(&output).map_err(|e| e.to_string())
}

/// Runs one job by its kind: every game with jobs adds one line here.
fn dispatch(kind: &str, body: &str) -> Result<String, String> {
    #[cfg(feature = "quantum-gomoku")]
    if let Some(answer) = crate::quantum_gomoku::jobs::dispatch(kind, body) {
        return answer;
    }
    #[cfg(feature = "battle-line")]
    if let Some(answer) = crate::battle_line::jobs::dispatch(kind, body) {
        return answer;
    }
    let _ = body;
    Err(format!("no task is called {kind}"))
}

fn now() -> f64 {
    // `performance` exists on the page and in workers alike.
    js_sys::Reflect::get(&js_sys::global(), &"performance".into())
        .ok()
        .and_then(|p| {
            let now: js_sys::Function = js_sys::Reflect::get(&p, &"now".into())
                .ok()?
                .dyn_into()
                .ok()?;
            now.call0(&p).ok()?.as_f64()
        })
        .unwrap_or_else(js_sys::Date::now)
}

fn run_request(request: &JsValue) -> Reply {
    let start = now();
    let in_worker = web_sys::window().is_none();
    match Request::from_js(request) {
        Some(req) => {
            let result = dispatch(&req.kind, &req.body);
            Reply {
                id: req.id,
                ms: now() - start,
                in_worker,
                result,
            }
        }
        None => Reply {
            id: 0,
            ms: 0.0,
            in_worker,
            result: Err("not a job".to_owned()),
        },
    }
}

/// The worker's entry point (called by `bootstrap.js`): one job in, its reply out.
#[wasm_bindgen(js_name = gamesWorkerRun)]
pub fn games_worker_run(request: JsValue) -> JsValue {
    run_request(&request).to_js()
}

#[wasm_bindgen]
extern "C" {
    /// The URL of the wasm-bindgen glue this module was loaded by.
    #[wasm_bindgen(thread_local_v2, js_namespace = ["import", "meta"], js_name = url)]
    static GLUE_URL: String;
}

#[wasm_bindgen(module = "/src/worker/bootstrap.js")]
extern "C" {
    #[wasm_bindgen(catch)]
    fn spawn(glue_url: &str, wasm_module: &JsValue) -> Result<web_sys::Worker, JsValue>;
}

type Callback = Box<dyn FnOnce(Reply)>;

struct Queued {
    request: Request,
    done: Callback,
}

/// Where jobs run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Runner {
    /// Nothing has asked for a job yet.
    NotStarted,
    /// In the worker.
    Worker,
    /// On the page (no worker could start, or it died).
    Page,
}

struct Pool {
    runner: Runner,
    worker: Option<web_sys::Worker>,
    queue: VecDeque<Queued>,
    /// The running job; its callback is `None` once its handle was dropped.
    in_flight: Option<(Request, Option<Callback>)>,
    next_id: u32,
    // Kept alive as long as the worker: the browser calls them.
    _on_message: Option<Closure<dyn FnMut(web_sys::MessageEvent)>>,
    _on_error: Option<Closure<dyn FnMut(web_sys::Event)>>,
}

thread_local! {
    static POOL: RefCell<Pool> = const {
        RefCell::new(Pool {
            runner: Runner::NotStarted,
            worker: None,
            queue: VecDeque::new(),
            in_flight: None,
            next_id: 1,
            _on_message: None,
            _on_error: None,
        })
    };
}

/// Where jobs run now.
pub fn runner() -> Runner {
    POOL.with(|p| p.borrow().runner)
}

/// A job handed to [`run`]. Dropping it cancels the job: a queued one is removed, a
/// running one's answer is discarded.
#[derive(Debug)]
#[must_use = "dropping the handle cancels the job"]
pub struct Job {
    id: u32,
}

impl Drop for Job {
    fn drop(&mut self) {
        let id = self.id;
        // Dropped callbacks may own Yew handles: let them go after the borrow ends.
        let _released = POOL.with(|p| {
            let mut pool = p.borrow_mut();
            let queued = pool
                .queue
                .iter()
                .position(|q| q.request.id == id)
                .and_then(|i| pool.queue.remove(i))
                .map(|q| q.done);
            let running = match &mut pool.in_flight {
                Some((running, done)) if running.id == id => done.take(),
                _ => None,
            };
            (queued, running)
        });
    }
}

/// Queues `task`; `done` gets its answer unless the returned [`Job`] is dropped first.
pub fn run<T: Task>(
    task: &T,
    done: impl FnOnce(Result<Done<T::Output>, JobError>) + 'static,
) -> Job {
    let body = serde_json::to_string(task).unwrap_or_default();
    let id = POOL.with(|p| {
        let mut pool = p.borrow_mut();
        let id = pool.next_id;
        pool.next_id = pool.next_id.wrapping_add(1).max(1);
        let request = Request {
            id,
            kind: T::KIND.to_owned(),
            body,
        };
        pool.queue.push_back(Queued {
            request,
            done: Box::new(move |reply: Reply| {
                let answer = match reply.result {
                    Ok(json) => serde_json::from_str(&json)
                        .map(|value| Done {
                            value,
                            ms: reply.ms,
                            in_worker: reply.in_worker,
                        })
                        .map_err(|e| JobError::Garbled(e.to_string())),
                    Err(why) => Err(JobError::Refused(why)),
                };
                done(answer);
            }),
        });
        id
    });
    pump();
    Job { id }
}

/// Starts the worker on first use; `Page` when it cannot.
fn ensure_started(pool: &mut Pool) {
    if pool.runner != Runner::NotStarted {
        return;
    }
    let glue_url = GLUE_URL.with(Clone::clone);
    let Ok(worker) = spawn(&glue_url, &wasm_bindgen::module()) else {
        pool.runner = Runner::Page;
        return;
    };
    let on_message =
        Closure::<dyn FnMut(web_sys::MessageEvent)>::new(|e: web_sys::MessageEvent| {
            if let Some(reply) = Reply::from_js(&e.data()) {
                finish(reply);
            }
        });
    let on_error = Closure::<dyn FnMut(web_sys::Event)>::new(|e: web_sys::Event| {
        e.prevent_default();
        worker_died();
    });
    worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    pool.worker = Some(worker);
    pool._on_message = Some(on_message);
    pool._on_error = Some(on_error);
    pool.runner = Runner::Worker;
}

/// Sends the next queued job when none is running.
fn pump() {
    let page_job = POOL.with(|p| {
        let mut pool = p.borrow_mut();
        if pool.in_flight.is_some() {
            return None;
        }
        let next = pool.queue.pop_front()?;
        ensure_started(&mut pool);
        let sent = pool
            .worker
            .as_ref()
            .is_some_and(|w| w.post_message(&next.request.to_js()).is_ok());
        let request = next.request.clone();
        pool.in_flight = Some((next.request, Some(next.done)));
        (!sent).then_some(request)
    });
    if let Some(request) = page_job {
        run_on_page(request);
    }
}

/// Runs a job on the page from a zero-delay timer (after the current event and paint).
fn run_on_page(request: Request) {
    let task = Closure::once_into_js(move || finish(run_request(&request.to_js())));
    let scheduled = web_sys::window().is_some_and(|w| {
        w.set_timeout_with_callback_and_timeout_and_arguments_0(task.unchecked_ref(), 0)
            .is_ok()
    });
    if !scheduled {
        finish_failed("no timer to run the job on");
    }
}

/// Delivers a reply to the running job and starts the next one.
fn finish(reply: Reply) {
    let done = POOL.with(|p| {
        let mut pool = p.borrow_mut();
        match pool.in_flight.take() {
            Some((request, done)) if request.id == reply.id => done,
            other => {
                // Not the running job's answer (cannot happen: one at a time).
                pool.in_flight = other;
                None
            }
        }
    });
    if let Some(done) = done {
        done(reply);
    }
    pump();
}

fn finish_failed(why: &str) {
    let id = POOL.with(|p| p.borrow().in_flight.as_ref().map(|f| f.0.id));
    if let Some(id) = id {
        finish(Reply {
            id,
            ms: 0.0,
            in_worker: false,
            result: Err(why.to_owned()),
        });
    }
}

/// The worker failed to start or crashed: from now on jobs run on the page, starting
/// with the one that was running.
fn worker_died() {
    let retry = POOL.with(|p| {
        let mut pool = p.borrow_mut();
        if let Some(worker) = pool.worker.take() {
            worker.terminate();
        }
        pool.runner = Runner::Page;
        pool.in_flight.as_ref().map(|f| f.0.clone())
    });
    if let Some(request) = retry {
        run_on_page(request);
    }
}
