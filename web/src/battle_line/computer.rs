//! The computer's turn on the page: its search, sent to the Web Worker a share at a time, its progress, the 3-second cap and "move now".

use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;

use battle_line::Command;
use yew::Callback;
use yew::platform::spawn_local;
use yew::platform::time::sleep;

use super::jobs::ComputerThink;
use crate::worker;

/// Least time between two computer commands, so the human can follow its turn.
const BOT_DELAY_MS: f64 = 350.0;

/// The longest the computer thinks on the page: past it, the next share is not sent
/// and the best move found so far is played (the expert's search is planned to end
/// well before; a slow or busy device is cut short here).
pub const MAX_THINK_MS: f64 = 3000.0;

fn now_ms() -> f64 {
    js_sys::Date::now()
}

/// One computer turn being thought out: the latest share's task (with the search's
/// snapshot so far) and the job running the next share. Dropping it drops the job,
/// and with it its answer.
struct Turn {
    task: ComputerThink,
    job: Option<worker::Job>,
    started: f64,
    /// Tells this turn from a later one (a delayed answer must not reach the next).
    id: u64,
    /// The decision, once made, while the least delay runs out.
    decided: Option<Option<Command>>,
    /// Hears (done, total) work units after each share.
    on_progress: Callback<(usize, usize)>,
    /// Gets the chosen command, at the earliest [`BOT_DELAY_MS`] after the turn started.
    on_move: Callback<Option<Command>>,
}

/// The computer's turn in progress, if any: shared between the effect that starts it,
/// the worker's answers and the "move now" button.
#[derive(Clone, Default)]
pub struct Thinking(Rc<RefCell<Option<Turn>>>, Rc<std::cell::Cell<u64>>);

impl std::fmt::Debug for Thinking {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Thinking")
            .field("active", &self.active())
            .finish()
    }
}

impl PartialEq for Thinking {
    fn eq(&self, other: &Thinking) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl Thinking {
    /// Starts thinking about `task` (which has no snapshot yet); replaces any turn in
    /// progress.
    pub fn start(
        &self,
        task: ComputerThink,
        on_progress: Callback<(usize, usize)>,
        on_move: Callback<Option<Command>>,
    ) {
        let id = self.1.get().wrapping_add(1);
        self.1.set(id);
        *self.0.borrow_mut() = Some(Turn {
            task,
            job: None,
            started: now_ms(),
            id,
            decided: None,
            on_progress,
            on_move,
        });
        self.send();
    }

    /// Forgets the turn in progress (its answer is never heard).
    pub fn stop(&self) {
        // The job is dropped after the borrow ends: dropping it may release callbacks.
        let turn = self.0.borrow_mut().take();
        drop(turn);
    }

    /// Whether a turn is being thought out.
    pub fn active(&self) -> bool {
        self.0.borrow().is_some()
    }

    /// Plays the best move found so far now (see `Thinker::move_now`), or the decision
    /// if it is made: no wait for the worker or for the usual delay.
    pub fn move_now(&self) {
        let Some(turn) = self.0.borrow_mut().take() else {
            return;
        };
        let command = turn.decided.unwrap_or_else(|| turn.task.move_now());
        let on_move = turn.on_move.clone();
        drop(turn);
        on_move.emit(command);
    }

    /// Sends the next share of the search to the worker.
    fn send(&self) {
        let Some(task) = self.0.borrow().as_ref().map(|t| t.task.clone()) else {
            return;
        };
        let this = self.clone();
        let job = worker::run(&task, move |answer| this.heard(answer));
        if let Some(turn) = self.0.borrow_mut().as_mut() {
            turn.job = Some(job);
        }
    }

    /// A share's answer: send the next one, or play the decision (or, past the cap or
    /// should the worker fail, the best move so far).
    fn heard(&self, answer: Result<worker::Done<battle_line::bot::Snapshot>, worker::JobError>) {
        let mut slot = self.0.borrow_mut();
        let Some(turn) = slot.as_mut() else {
            return;
        };
        turn.job = None;
        let elapsed = now_ms() - turn.started;
        let going_on = match answer {
            Ok(done) => {
                let progress = done.value.progress();
                turn.task.snapshot = Some(done.value);
                progress.filter(|_| elapsed + done.ms < MAX_THINK_MS)
            }
            // Both sides are this crate, so only a bug gets here: the best move so far.
            Err(_) => None,
        };
        if let Some(progress) = going_on {
            let on_progress = turn.on_progress.clone();
            drop(slot);
            on_progress.emit(progress);
            self.send();
            return;
        }
        let command = turn.task.move_now();
        turn.decided = Some(command);
        let (id, wait) = (turn.id, (BOT_DELAY_MS - elapsed).max(0.0));
        drop(slot);
        let this = self.clone();
        spawn_local(async move {
            sleep(Duration::from_millis(wait as u64)).await;
            this.deliver(id);
        });
    }

    /// Plays turn `id`'s decision once its delay ran out, unless it was played already
    /// (move now) or the turn was dropped.
    fn deliver(&self, id: u64) {
        let turn = {
            let mut slot = self.0.borrow_mut();
            match slot.as_ref() {
                Some(t) if t.id == id && t.decided.is_some() => slot.take(),
                _ => None,
            }
        };
        if let Some(turn) = turn {
            let command = turn.decided.flatten();
            let on_move = turn.on_move.clone();
            drop(turn);
            on_move.emit(command);
        }
    }
}
