//! The computer's turn on the page: its search, sent to the Web Worker a share at a time, its progress, the 3-second cap and "move now".

use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;

use battle_line::Command;
use yew::Callback;
use yew::platform::spawn_local;
use yew::platform::time::sleep;

use super::jobs::{ComputerThink, SHARE, Thought};
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
/// snapshot so far) and the jobs running the next share, or the pieces of a round's
/// rollouts spread over the workers. Dropping it drops the jobs, and with them their
/// answers.
struct Turn {
    task: ComputerThink,
    jobs: Vec<worker::Job>,
    /// The pieces' answers so far (empty until in: a piece has at least one value), in
    /// the pieces' order, and the longest one's time.
    pieces: Vec<String>,
    slowest_ms: f64,
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
            jobs: Vec::new(),
            pieces: Vec::new(),
            slowest_ms: 0.0,
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

    /// Sends the next share of the search to the worker, or, once the moves are ranked
    /// and several workers run, the next batch of the round's rollouts in pieces, one
    /// per worker (the share after them records their values in order, so the move is
    /// the same either way).
    fn send(&self) {
        let Some((mut task, id)) = self.0.borrow().as_ref().map(|t| (t.task.clone(), t.id)) else {
            return;
        };
        let cut = if task.values.is_empty() {
            task.pieces(worker::lanes())
        } else {
            Vec::new()
        };
        let spread = !cut.is_empty();
        // One call for shares and pieces alike: each call site of `run_with` is a copy of
        // its code in the bundle.
        let jobs: Vec<worker::Job> = (cut.iter().copied().map(Some))
            .chain((!spread).then_some(None))
            .enumerate()
            .map(|(piece, range)| {
                task.piece = range;
                let this = self.clone();
                let options = worker::Options {
                    spread,
                    ..Default::default()
                };
                worker::run_with(&task, options, move |answer| this.heard(id, piece, answer))
            })
            .collect();
        if let Some(turn) = self.0.borrow_mut().as_mut() {
            turn.pieces = vec![String::new(); cut.len()];
            turn.jobs = jobs;
        }
    }

    /// An answer of turn `id`'s job (`piece`: which piece of a batch, if it is one).
    /// A piece is kept until every piece is in, then their values go to the worker
    /// with the next share. A share's snapshot: send the next one, or play the decision
    /// (or, past the cap or should the worker fail, the best move so far).
    fn heard(
        &self,
        id: u64,
        piece: usize,
        answer: Result<worker::Done<Thought>, worker::JobError>,
    ) {
        let mut slot = self.0.borrow_mut();
        let Some(turn) = slot.as_mut().filter(|t| t.id == id) else {
            return;
        };
        let elapsed = now_ms() - turn.started;
        let going_on = match answer {
            Ok(worker::Done {
                value: Thought::Values(values),
                ms,
                ..
            }) => {
                turn.slowest_ms = turn.slowest_ms.max(ms);
                if let Some(p) = turn.pieces.get_mut(piece) {
                    *p = values;
                }
                if turn.pieces.iter().any(String::is_empty) {
                    return;
                }
                // Every piece is in: the next share records them, in order, and no more.
                turn.task.values = turn.pieces.join(" ");
                turn.task.work = 0;
                let finished = std::mem::take(&mut turn.jobs);
                drop(slot);
                drop(finished);
                self.send();
                return;
            }
            Ok(worker::Done {
                value: Thought::Snapshot(snapshot),
                ms,
                ..
            }) => {
                let progress = snapshot.progress();
                let next = ms.max(std::mem::take(&mut turn.slowest_ms));
                turn.task.snapshot = Some(snapshot);
                turn.task.values.clear();
                turn.task.work = SHARE;
                progress.filter(|_| elapsed + next < MAX_THINK_MS)
            }
            // A worker died during a round played in pieces, and the page's own copy of the
            // jobs, which ran its job instead, plays no pieces (see `ComputerThink`): the
            // page carries on from the last snapshot in shares, to the same move.
            Err(_)
                if worker::runner() == worker::Runner::Page
                    && !(turn.pieces.is_empty() && turn.task.values.is_empty()) =>
            {
                turn.pieces.clear();
                turn.task.values.clear();
                turn.task.work = SHARE;
                turn.task.snapshot.as_ref().and_then(|s| s.progress())
            }
            // Both sides are this crate, so only a bug gets here: the best move so far.
            Err(_) => None,
        };
        let finished = std::mem::take(&mut turn.jobs);
        if let Some(progress) = going_on {
            let on_progress = turn.on_progress.clone();
            drop(slot);
            drop(finished);
            on_progress.emit(progress);
            self.send();
            return;
        }
        let command = turn.task.move_now();
        turn.decided = Some(command);
        let (id, wait) = (turn.id, (BOT_DELAY_MS - elapsed).max(0.0));
        drop(slot);
        drop(finished);
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
