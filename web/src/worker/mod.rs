//! Runs heavy computations (win estimates, the computer's moves, the duel's hint) in a Web
//! Worker, so the page never waits for them.
//!
//! The worker runs the page's own wasm module: `bootstrap.js` (a wasm-bindgen snippet,
//! served next to the glue from the page's origin) is both a module the page imports and
//! the worker's script. The page starts it as a module worker and posts the glue's URL
//! and the compiled `WebAssembly.Module`; the worker imports the glue, instantiates the
//! module (no second download or compilation) and answers each job through
//! [`games_worker_run`]. No inline script and no `blob:` URL is involved, so a policy of
//! `script-src 'self' 'wasm-unsafe-eval'` allows it. A page may name another bundle's
//! module for its workers instead (see `worker_module`). A bundle gets all this only
//! with the `worker` cargo feature, which the games that need it turn on.
//!
//! A job is a [`Task`]: text in (JSON unless the task says otherwise), text out,
//! dispatched by its [`Task::KIND`] through the app's list of its games' jobs
//! (`crate::jobs::dispatch`), so this module names no game. A task may report
//! how far it got with [`progress`]; the page hears it through [`run_with`]. Jobs queue in
//! order and run one at a time in the first worker; a job started with `spread` (one share
//! of a long computation, such as the duel's statistics) may also run in one of the
//! further workers, up to one per core ([`lanes`]). Dropping the [`Job`] handle removes a
//! queued job and discards the answer of a running one, so an effect that returns its
//! handle as the destructor never sees a stale answer; [`Job::abort`] also stops a running
//! one (its worker is ended, and the next job starts a fresh one). If no worker can start
//! (module workers unsupported, or forbidden by a policy) or one dies, jobs run on the
//! page from a timer instead, one at a time.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::fmt;
use std::rc::Rc;

use serde::Serialize;
use serde::de::DeserializeOwned;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

/// A computation the worker can run.
///
/// A task and its answer travel as text: JSON, unless the task writes its own (the duel's
/// hint does, in the share code's encoding, so the duel page links no JSON code). Only
/// the methods a bundle calls are linked into it.
pub trait Task: Serialize + DeserializeOwned {
    /// The name jobs of this task are dispatched by; unique across the app.
    const KIND: &'static str;
    /// What it answers.
    type Output: Serialize + DeserializeOwned;
    /// Runs it (in the worker, or on the page as the fallback).
    fn run(self) -> Result<Self::Output, String>;

    /// The task as posted to the worker.
    fn to_wire(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Reads what [`Task::to_wire`] wrote.
    fn from_wire(text: &str) -> Result<Self, String> {
        serde_json::from_str(text).map_err(|e| e.to_string())
    }

    /// The answer as the worker posts it back.
    fn output_to_wire(output: &Self::Output) -> Result<String, String> {
        serde_json::to_string(output).map_err(|e| e.to_string())
    }

    /// Reads what [`Task::output_to_wire`] wrote.
    fn output_from_wire(text: &str) -> Result<Self::Output, String> {
        serde_json::from_str(text).map_err(|e| e.to_string())
    }
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

/// A job as posted to the worker: `[id, kind, body]`, a JS array, so the task's text
/// travels as it is (not escaped inside a JSON document).
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

/// A job's reply: `[id, ms, inWorker, ok, payload]` (payload: the output's text, or why
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
            Ok(text) => (true, text),
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

/// The job running in this thread (`RUNNING`): its id, when it started and when it last
/// reported progress ([`now`]'s milliseconds).
#[derive(Debug, Clone, Copy)]
struct JobClock {
    id: u32,
    start: f64,
    last: f64,
}

thread_local! {
    static RUNNING: RefCell<Option<JobClock>> = const { RefCell::new(None) };
}

/// How often a running job's progress reaches the page at most, in milliseconds.
const PROGRESS_MS: f64 = 100.0;

/// Reports how far the running task got (0..=1); called from [`Task::run`]. It reaches
/// the job's [`Options::progress`] at most every `PROGRESS_MS`; a job running on the
/// page (which is busy until the job ends) reports nothing.
pub fn progress(done: f64) {
    // Native builds (tests of the tasks) have no JavaScript to report to.
    if cfg!(not(target_arch = "wasm32")) || web_sys::window().is_some() {
        return;
    }
    let Some(id) = RUNNING.with(|r| {
        let mut running = r.borrow_mut();
        let running = running.as_mut()?;
        let t = now();
        (t - running.last >= PROGRESS_MS).then(|| {
            running.last = t;
            running.id
        })
    }) else {
        return;
    };
    let message = js_sys::Array::of2(&id.into(), &done.into());
    let global = js_sys::global();
    if let Ok(post) = js_sys::Reflect::get(&global, &"postMessage".into())
        && let Ok(post) = post.dyn_into::<js_sys::Function>()
    {
        // A lost report only leaves the progress bar where it was.
        let _ = post.call1(&global, &message);
    }
}

/// Milliseconds since the running job started, where it runs (in the worker, or on the
/// page as the fallback); `None` outside a job and in native builds, which have no clock
/// of the page's (so a task's native tests never depend on time).
pub fn elapsed_ms() -> Option<f64> {
    if cfg!(not(target_arch = "wasm32")) {
        return None;
    }
    RUNNING.with(|r| r.borrow().map(|running| now() - running.start))
}

/// A progress report posted by a running job: `[id, done]` (a reply has five items).
fn progress_from_js(value: &JsValue) -> Option<(u32, f64)> {
    let array: &js_sys::Array = value.dyn_ref()?;
    if array.length() != 2 {
        return None;
    }
    Some((array.get(0).as_f64()? as u32, array.get(1).as_f64()?))
}

/// Runs a task from its text and answers text (for the games' dispatch functions).
// The duel pages run no job of their own in the release (their jobs run in the duel
// solver's module, built with `duel-jobs`).
#[cfg(any(
    all(feature = "duel-analysis", feature = "duel-jobs"),
    feature = "battle-line",
    feature = "quantum-gomoku"
))]
pub(crate) fn run_wire<T: Task>(body: &str) -> Result<String, String> {
    T::output_to_wire(&T::from_wire(body)?.run()?)
}

/// Runs one job by its kind, with the game the app's list (`crate::jobs`) finds for it.
fn dispatch(kind: &str, body: &str) -> Result<String, String> {
    if let Some(answer) = crate::jobs::dispatch(kind, body) {
        return answer;
    }
    // The release duel page's hint runs in another bundle's module: only in a worker.
    Err(format!(
        "no task is called {kind} in this page's module (it may run in a Web Worker only)"
    ))
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
            RUNNING.with(|r| {
                *r.borrow_mut() = Some(JobClock {
                    id: req.id,
                    start,
                    last: start,
                })
            });
            let result = dispatch(&req.kind, &req.body);
            RUNNING.with(|r| *r.borrow_mut() = None);
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

/// The meta tag that names another bundle's module for the workers to run:
/// `<meta name="games-worker" content="<glue URL>" data-wasm="<wasm URL>">`.
const MODULE_META: &str = "meta[name=games-worker]";

/// The glue URL and the module (compiled, or the URL of its file) the workers run: the
/// page's own, unless the page names another bundle's in [`MODULE_META`]. In the release
/// the duel pages name the duel solver's module and the Battle Line page the
/// battle-line-ai module, built for speed (so the duel page does not carry the solver at
/// all); `scripts/dev` writes the tag, see `web/release/link-worker.mjs`.
fn worker_module() -> (String, JsValue) {
    named_module().unwrap_or_else(|| (GLUE_URL.with(Clone::clone), wasm_bindgen::module()))
}

/// The module [`MODULE_META`] names, as absolute URLs (the worker resolves relative ones
/// against its own script, not the page).
fn named_module() -> Option<(String, JsValue)> {
    let document = web_sys::window()?.document()?;
    let meta = document.query_selector(MODULE_META).ok()??;
    let base = document.base_uri().ok()??;
    let absolute = |attribute: &str| {
        let url = meta.get_attribute(attribute)?;
        web_sys::Url::new_with_base(&url, &base)
            .ok()
            .map(|u| u.href())
    };
    Some((
        absolute("content")?,
        JsValue::from_str(&absolute("data-wasm")?),
    ))
}

#[wasm_bindgen(module = "/src/worker/bootstrap.js")]
extern "C" {
    #[wasm_bindgen(catch)]
    fn spawn(glue_url: &str, wasm_module: &JsValue) -> Result<web_sys::Worker, JsValue>;
}

type Callback = Box<dyn FnOnce(Reply)>;
/// Hears a running job's progress (0..=1).
pub type Progress = Rc<dyn Fn(f64)>;

struct Queued {
    request: Request,
    spread: bool,
    done: Callback,
    progress: Option<Progress>,
}

/// A job being run: its request (run again on the page if its worker dies) and whom to
/// tell; both callbacks are `None` once its handle was dropped.
struct Running {
    request: Request,
    done: Option<Callback>,
    progress: Option<Progress>,
}

/// Where a job runs: one worker (started on first use, ended by [`Job::abort`]).
struct Lane {
    worker: Option<web_sys::Worker>,
    running: Option<Running>,
    // Made once per lane and given to each worker it starts: the browser calls them, and
    // one may be running when a job is aborted, so they are never dropped.
    on_message: Closure<dyn FnMut(web_sys::MessageEvent)>,
    on_error: Closure<dyn FnMut(web_sys::Event)>,
}

impl Lane {
    fn new(index: usize) -> Lane {
        let on_message =
            Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
                let data = e.data();
                if let Some((id, done)) = progress_from_js(&data) {
                    report(index, id, done);
                } else if let Some(reply) = Reply::from_js(&data) {
                    finish(index, reply);
                }
            });
        let on_error = Closure::<dyn FnMut(web_sys::Event)>::new(move |e: web_sys::Event| {
            e.prevent_default();
            worker_died(index);
        });
        Lane {
            worker: None,
            running: None,
            on_message,
            on_error,
        }
    }
}

/// Where jobs run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Runner {
    /// Nothing has asked for a job yet.
    NotStarted,
    /// In workers.
    Worker,
    /// On the page (no worker could start, or one died).
    Page,
}

struct Pool {
    runner: Runner,
    /// The first worker, then those that spread jobs may also use.
    lanes: Vec<Lane>,
    queue: VecDeque<Queued>,
    next_id: u32,
}

thread_local! {
    static POOL: RefCell<Pool> = const {
        RefCell::new(Pool {
            runner: Runner::NotStarted,
            lanes: Vec::new(),
            queue: VecDeque::new(),
            next_id: 1,
        })
    };
}

/// Where jobs run now.
pub fn runner() -> Runner {
    POOL.with(|p| p.borrow().runner)
}

/// The most workers the page starts, whatever the machine has.
const MAX_LANES: usize = 4;

/// How many workers spread jobs may use: one per core the browser reports, at most
/// `MAX_LANES` (and one when jobs run on the page).
pub fn lanes() -> usize {
    lanes_for(runner())
}

/// [`lanes`] for a known runner: the pool calls it while it holds its own borrow, where
/// asking [`runner`] again would borrow the pool twice.
fn lanes_for(runner: Runner) -> usize {
    if runner == Runner::Page {
        return 1;
    }
    let global = js_sys::global();
    let cores = js_sys::Reflect::get(&global, &"navigator".into())
        .and_then(|n| js_sys::Reflect::get(&n, &"hardwareConcurrency".into()))
        .ok()
        .and_then(|c| c.as_f64())
        .unwrap_or(1.0);
    (cores as usize).clamp(1, MAX_LANES)
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
                .map(|q| (Some(q.done), q.progress));
            let running = pool
                .lanes
                .iter_mut()
                .filter_map(|l| l.running.as_mut())
                .find(|r| r.request.id == id)
                .map(|r| (r.done.take(), r.progress.take()));
            (queued, running)
        });
    }
}

impl Job {
    /// Cancels the job and, if it is running in a worker, stops it there: the worker is
    /// ended and the next job starts a fresh one. (A job running on the page cannot be
    /// stopped; its answer is discarded.)
    pub fn abort(self) {
        let id = self.id;
        let _released = POOL.with(|p| {
            let mut pool = p.borrow_mut();
            let lane = pool
                .lanes
                .iter_mut()
                .find(|l| l.running.as_ref().is_some_and(|r| r.request.id == id))?;
            if let Some(worker) = lane.worker.take() {
                worker.terminate();
            }
            // A job waiting for its timer on the page then finds itself gone and is skipped.
            lane.running.take()
        });
        drop(self);
        pump();
    }
}

/// The slot of the one job a component runs at a time (a new one aborts the old as it
/// takes the slot); whatever it holds when the component leaves the page is aborted.
#[yew::hook]
pub fn use_job_slot() -> Rc<RefCell<Option<Job>>> {
    let slot = yew::use_mut_ref(|| None::<Job>);
    {
        let slot = slot.clone();
        yew::use_effect_with((), move |_| {
            move || {
                if let Some(running) = slot.borrow_mut().take() {
                    running.abort();
                }
            }
        });
    }
    slot
}

/// How a job is run.
#[derive(Default)]
pub struct Options {
    /// The job is one share of a computation split into many: it may run in any worker,
    /// beside other jobs. Otherwise it runs in the first worker, after the jobs queued
    /// before it.
    pub spread: bool,
    /// Hears the job's [`progress`] reports.
    pub progress: Option<Progress>,
}

impl fmt::Debug for Options {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Options")
            .field("spread", &self.spread)
            .field("progress", &self.progress.is_some())
            .finish()
    }
}

/// Queues `task`; `done` gets its answer unless the returned [`Job`] is dropped first.
pub fn run<T: Task>(
    task: &T,
    done: impl FnOnce(Result<Done<T::Output>, JobError>) + 'static,
) -> Job {
    run_with(task, Options::default(), done)
}

/// [`run`] with [`Options`]: spread over several workers, or heard while it runs.
pub fn run_with<T: Task>(
    task: &T,
    options: Options,
    done: impl FnOnce(Result<Done<T::Output>, JobError>) + 'static,
) -> Job {
    let body = task.to_wire();
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
            spread: options.spread,
            progress: options.progress,
            done: Box::new(move |reply: Reply| {
                let answer = match reply.result {
                    Ok(text) => T::output_from_wire(&text)
                        .map(|value| Done {
                            value,
                            ms: reply.ms,
                            in_worker: reply.in_worker,
                        })
                        .map_err(JobError::Garbled),
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

/// Gives lane `index` a worker if it has none; false when none can start (from then
/// on jobs run on the page).
fn ensure_worker(pool: &mut Pool, index: usize) -> bool {
    while pool.lanes.len() <= index {
        let next = pool.lanes.len();
        pool.lanes.push(Lane::new(next));
    }
    if pool.runner == Runner::Page {
        return false;
    }
    let lane = &mut pool.lanes[index];
    if lane.worker.is_some() {
        return true;
    }
    let (glue_url, wasm_module) = worker_module();
    let Ok(worker) = spawn(&glue_url, &wasm_module) else {
        pool.runner = Runner::Page;
        return false;
    };
    worker.set_onmessage(Some(lane.on_message.as_ref().unchecked_ref()));
    worker.set_onerror(Some(lane.on_error.as_ref().unchecked_ref()));
    lane.worker = Some(worker);
    pool.runner = Runner::Worker;
    true
}

/// The lane a queued job may start in now: the first for any job, the others only for
/// spread jobs; on the page, one job at a time.
fn free_lane(pool: &Pool, spread: bool) -> Option<usize> {
    let usable = if spread && pool.runner != Runner::Page {
        lanes_for(pool.runner)
    } else {
        1
    };
    if pool.runner == Runner::Page && pool.lanes.iter().any(|l| l.running.is_some()) {
        return None;
    }
    (0..usable).find(|&i| pool.lanes.get(i).is_none_or(|l| l.running.is_none()))
}

/// Starts every queued job that has a free lane, in queue order.
fn pump() {
    let mut page_jobs = Vec::new();
    POOL.with(|p| {
        let mut pool = p.borrow_mut();
        let mut i = 0;
        while i < pool.queue.len() {
            let Some(index) = free_lane(&pool, pool.queue[i].spread) else {
                i += 1;
                continue;
            };
            let Some(next) = pool.queue.remove(i) else {
                break;
            };
            let sent = ensure_worker(&mut pool, index)
                && pool.lanes[index]
                    .worker
                    .as_ref()
                    .is_some_and(|w| w.post_message(&next.request.to_js()).is_ok());
            if !sent {
                page_jobs.push((index, next.request.clone()));
            }
            pool.lanes[index].running = Some(Running {
                request: next.request,
                done: Some(next.done),
                progress: next.progress,
            });
        }
    });
    for (index, request) in page_jobs {
        run_on_page(index, request);
    }
}

/// Runs a job on the page from a zero-delay timer (after the current event and paint),
/// unless it was aborted in the meantime.
fn run_on_page(lane: usize, request: Request) {
    let task = Closure::once_into_js(move || {
        let still_wanted = POOL.with(|p| {
            p.borrow()
                .lanes
                .get(lane)
                .and_then(|l| l.running.as_ref())
                .is_some_and(|r| r.request.id == request.id)
        });
        if still_wanted {
            finish(lane, run_request(&request.to_js()));
        }
    });
    let scheduled = web_sys::window().is_some_and(|w| {
        w.set_timeout_with_callback_and_timeout_and_arguments_0(task.unchecked_ref(), 0)
            .is_ok()
    });
    if !scheduled {
        finish_failed(lane, "no timer to run the job on");
    }
}

/// Passes a running job's progress report on.
fn report(lane: usize, id: u32, done: f64) {
    let progress = POOL.with(|p| {
        p.borrow()
            .lanes
            .get(lane)
            .and_then(|l| l.running.as_ref())
            .filter(|r| r.request.id == id)
            .and_then(|r| r.progress.clone())
    });
    if let Some(progress) = progress {
        progress(done);
    }
}

/// Delivers a reply to the job running in `lane` and starts the next ones.
fn finish(lane: usize, reply: Reply) {
    let done = POOL.with(|p| {
        let mut pool = p.borrow_mut();
        let lane = pool.lanes.get_mut(lane)?;
        match lane.running.take() {
            Some(running) if running.request.id == reply.id => running.done,
            other => {
                // Not the running job's answer (one from a worker ended by an abort).
                lane.running = other;
                None
            }
        }
    });
    if let Some(done) = done {
        done(reply);
    }
    pump();
}

fn finish_failed(lane: usize, why: &str) {
    let id = POOL.with(|p| {
        p.borrow()
            .lanes
            .get(lane)
            .and_then(|l| l.running.as_ref())
            .map(|r| r.request.id)
    });
    if let Some(id) = id {
        finish(
            lane,
            Reply {
                id,
                ms: 0.0,
                in_worker: false,
                result: Err(why.to_owned()),
            },
        );
    }
}

/// A worker failed to start or crashed: from now on jobs run on the page, starting
/// with the one it was running.
fn worker_died(lane: usize) {
    let retry = POOL.with(|p| {
        let mut pool = p.borrow_mut();
        pool.runner = Runner::Page;
        let lane = pool.lanes.get_mut(lane)?;
        if let Some(worker) = lane.worker.take() {
            worker.terminate();
        }
        lane.running.as_ref().map(|r| r.request.clone())
    });
    if let Some(request) = retry {
        run_on_page(lane, request);
    }
}
