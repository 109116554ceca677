//! The Quantum Gomoku page (`#/quantum-gomoku`): start-up, saving, and the wiring of board, buttons and panels.

use std::rc::Rc;

use quantum_gomoku::{
    Command, DEFAULT_BOARD_SIZE, DEFAULT_WIN_LENGTH, Game, GameId, GameOptions, GameStatus,
    GameView, Player, Position, WinProbability,
};
use wasm_bindgen::JsCast;
use yew::platform::spawn_local;
use yew::prelude::*;

use crate::ctx::{replace_route, use_ctx};
use crate::i18n::T;
use crate::keys;
use crate::route::Route;
use crate::storage;
use crate::worker::{self, Done};

use super::board::Board;
use super::jobs::{ComputerObserve, ComputerTurn, Estimate, computer_seed};
use super::online::{self, Connection, OnlineGame, Seat, StreamEvent};
use super::panels::{MoveLog, ObservationSummary, ProbabilityPanel, StatusBar, observation_text};
use super::state::{
    Action, Notice, Opponent, PageError, QgState, Thought, can_undo, computer_to_move,
};
use super::store::{self, Stored};
use super::text;
use super::text::OnlineText;

/// The latest win estimate and the version of the game it belongs to.
#[derive(Debug, Clone, PartialEq)]
struct Estimated {
    version: u64,
    done: Done<WinProbability>,
}

#[derive(Properties, PartialEq, Clone, Debug)]
pub struct QuantumGomokuPageProps {
    /// The raw `gameId` of the address, if any.
    #[prop_or_default]
    pub game_id: Option<String>,
}

/// The game to show at start-up: the address's `gameId`, else the game shown
/// last; `None` when a new game is needed. Unusable saves are removed and noted.
fn startup_game(url_id: Option<&str>) -> (Option<Game>, Option<Notice>) {
    let mut notice = None;
    if let Some(text) = url_id {
        match store::parse_v4(text).map(|id| store::load(&id)) {
            Some(Stored::Found(game)) => return (Some(*game), Some(Notice::Loaded)),
            Some(Stored::Discarded) => notice = Some(Notice::CorruptSave),
            Some(Stored::Missing) | None => notice = Some(Notice::UrlIdIgnored),
        }
    }
    if let Some(current) = storage::get(store::KEY_CURRENT) {
        match store::parse_v4(&current).map(|id| store::load(&id)) {
            Some(Stored::Found(game)) => {
                return (Some(*game), notice.or(Some(Notice::Resumed)));
            }
            Some(Stored::Missing) => storage::remove(store::KEY_CURRENT),
            Some(Stored::Discarded) | None => {
                storage::remove(store::KEY_CURRENT);
                notice = Some(Notice::CorruptSave);
            }
        }
    }
    (None, notice)
}

/// Board size and win length as typed; anything unparsable becomes 0, which the engine refuses with a reason.
fn options_from(size: &str, win: &str) -> GameOptions {
    GameOptions::new(
        size.trim().parse().unwrap_or(0),
        win.trim().parse().unwrap_or(0),
    )
}

fn input_value(e: &Event) -> Option<String> {
    e.target()
        .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
        .map(|i| i.value())
}

/// A refusal of the online game, in the page's error model.
fn online_error(r: online::Refused) -> Action {
    Action::Refuse(PageError::Online {
        code: r.code,
        message: r.message,
    })
}

/// Shows a new game on this device (leaving online play), or says why it cannot be made.
fn show_local(state: &UseReducerHandle<QgState>, options: GameOptions, notice: Option<Notice>) {
    match store::new_game(options) {
        Ok(game) => state.dispatch(Action::Show {
            game: Box::new(game),
            notice,
        }),
        Err(e) => state.dispatch(Action::Refuse(PageError::Options(e))),
    }
}

/// Whether this browser has a save of game `id` (read without removing a bad one).
fn saved_here(id: &GameId) -> bool {
    storage::get(&store::game_key(&id.to_string())).is_some()
}

/// Everything the online mode's callbacks need, cloned into each.
#[derive(Clone)]
struct Online {
    /// The API's path, when the page's server has one.
    base: Option<String>,
    game: UseStateHandle<Option<OnlineGame>>,
    connection: UseStateHandle<Connection>,
    /// The online game's id as of the latest render, for answers that arrive later.
    current: Rc<std::cell::Cell<Option<GameId>>>,
}

impl Online {
    /// Takes part in the server's game `id`: its open seat, either colour of a game
    /// without seats, or watching. A game the server does not have is `Err`.
    fn join(&self, state: &UseReducerHandle<QgState>, id: GameId, on_missing: Action) {
        let Some(base) = self.base.clone() else {
            state.dispatch(on_missing);
            return;
        };
        let this = self.clone();
        let state = state.clone();
        spawn_local(async move {
            match online::join(&base, id).await {
                Ok(game) => this.enter(&state, game),
                Err(_) => state.dispatch(on_missing),
            }
        });
    }

    /// Creates a game on the server with this browser as black.
    fn create(&self, state: &UseReducerHandle<QgState>, options: GameOptions) {
        let Some(base) = self.base.clone() else {
            return;
        };
        if let Err(e) = options.validate() {
            state.dispatch(Action::Refuse(PageError::Options(e)));
            return;
        }
        let this = self.clone();
        let state = state.clone();
        spawn_local(async move {
            match online::create(&base, options).await {
                Ok(game) => this.enter(&state, game),
                Err(r) => state.dispatch(online_error(r)),
            }
        });
    }

    fn enter(&self, state: &UseReducerHandle<QgState>, game: OnlineGame) {
        // Both colours are people at their browsers: no computer plays online.
        state.dispatch(Action::SetOpponent(Opponent::Human));
        self.current.set(Some(game.id));
        self.connection.set(Connection::Reconnecting);
        self.game.set(Some(game));
    }

    /// Leaves online play for a new game on this device, if `id` is still the one shown.
    fn leave(&self, state: &UseReducerHandle<QgState>, id: GameId, options: GameOptions) {
        if self.current.get() != Some(id) {
            return;
        }
        self.current.set(None);
        self.game.set(None);
        show_local(state, options, None);
    }

    /// Sends `what` for the shown online game; refusals are shown as errors.
    fn send(&self, state: &UseReducerHandle<QgState>, game: &OnlineGame, what: online::Request) {
        let Some(base) = self.base.clone() else {
            return;
        };
        let (this, state, game) = (self.clone(), state.clone(), game.clone());
        let options = state.game.as_ref().map(Game::options);
        spawn_local(async move {
            match online::send(&base, &game, what).await {
                Ok(()) if what == online::Request::Delete => {
                    online::forget_seat(&game.id);
                    this.leave(&state, game.id, options.unwrap_or_default());
                }
                Ok(()) => {}
                Err(r) => state.dispatch(online_error(r)),
            }
        });
    }
}

/// Whether the online player may act as `player` now; else the refusal to show.
fn may_act(game: &OnlineGame, player: Player) -> Result<(), Action> {
    match game.seat {
        Seat::Open => Ok(()),
        Seat::Player(p) if p == player => Ok(()),
        Seat::Player(_) => Err(online_error(online::Refused {
            code: "NOT_YOUR_TURN".to_owned(),
            message: String::new(),
        })),
        Seat::Watching => Err(online_error(online::Refused {
            code: "WATCHING".to_owned(),
            message: String::new(),
        })),
    }
}

#[function_component(QuantumGomokuPage)]
pub fn quantum_gomoku_page(props: &QuantumGomokuPageProps) -> Html {
    let ctx = use_ctx();
    let lang = ctx.lang;
    let state = use_reducer(QgState::default);
    let cursor = use_state(|| Position::new(DEFAULT_BOARD_SIZE / 2, DEFAULT_BOARD_SIZE / 2));
    let estimate = use_state(|| None::<Estimated>);
    let size_text = use_state(|| DEFAULT_BOARD_SIZE.to_string());
    let win_text = use_state(|| DEFAULT_WIN_LENGTH.to_string());
    let id_input = use_node_ref();
    // Online play: only when the server that sent the page has the API (no request otherwise).
    let api = use_memo((), |()| online::api_base());
    let online_game = use_state(|| None::<OnlineGame>);
    let connection = use_state(|| Connection::Reconnecting);
    let current = use_memo((), |()| Rc::new(std::cell::Cell::new(None::<GameId>)));
    let online = Online {
        base: (*api).clone(),
        game: online_game.clone(),
        connection: connection.clone(),
        current: Rc::clone(&current),
    };

    // The opponent chosen last time.
    {
        let state = state.clone();
        use_effect_with((), move |()| {
            if let Some(o) = storage::get(store::KEY_OPPONENT).and_then(|v| Opponent::parse(&v)) {
                state.dispatch(Action::SetOpponent(o));
            }
        });
    }

    // Start-up: storage, the clock and entropy are read here, never in the reducer.
    {
        let state = state.clone();
        let online = online.clone();
        use_effect_with(props.game_id.clone(), move |url_id| {
            // The page writes the shown game's id into the address itself; when
            // that comes back as a route change there is nothing to load.
            let shown = state.game.as_ref().map(Game::id);
            let url_game = url_id.as_deref().and_then(store::parse_v4);
            if shown.is_some() && url_game == shown {
                return;
            }
            let start_local = {
                let state = state.clone();
                let url_id = url_id.clone();
                move || {
                    let (found, notice) = startup_game(url_id.as_deref());
                    match found {
                        Some(game) => state.dispatch(Action::Show {
                            game: Box::new(game),
                            notice,
                        }),
                        None => show_local(&state, GameOptions::default(), notice),
                    }
                }
            };
            // An id this browser has no save of may be a game on the page's server.
            match url_game.filter(|id| online.base.is_some() && !saved_here(id)) {
                Some(id) => {
                    let state2 = state.clone();
                    let online2 = online.clone();
                    let base = online.base.clone().unwrap_or_default();
                    spawn_local(async move {
                        match online::join(&base, id).await {
                            Ok(game) => online2.enter(&state2, game),
                            Err(_) => start_local(),
                        }
                    });
                }
                None => start_local(),
            }
        });
    }

    // The online game's live stream: every accepted command on the server (this
    // browser's or the other's) arrives here and replaces the shown game.
    {
        let state = state.clone();
        let online = online.clone();
        use_effect_with((*online_game).clone().map(|g| g.id), move |id| {
            let stream = id.and_then(|id| {
                let base = online.base.clone()?;
                let on_event = {
                    let online = online.clone();
                    let state = state.clone();
                    Callback::from(move |event: StreamEvent| match event {
                        StreamEvent::Data(game) => {
                            state.dispatch(Action::Show { game, notice: None })
                        }
                        StreamEvent::Connection(c) => online.connection.set(c),
                        StreamEvent::Deleted => {
                            online::forget_seat(&id);
                            let options = state.game.as_ref().map(Game::options);
                            online.leave(&state, id, options.unwrap_or_default());
                            state.dispatch(online_error(online::Refused {
                                code: "DELETED".to_owned(),
                                message: String::new(),
                            }));
                        }
                    })
                };
                online::open_stream(&base, id, on_event)
            });
            move || drop(stream)
        });
    }

    // Every change is saved under the game's id, and the address names the
    // game so that it can be bookmarked or reloaded.
    {
        let state = state.clone();
        let online_now = online_game.is_some();
        use_effect_with(state.version, move |_| {
            if let Some(game) = &state.game {
                // An online game is kept by the server; its copy here is not saved.
                if !online_now {
                    store::save(game);
                }
                replace_route(&Route::QuantumGomoku {
                    game_id: Some(game.id().to_string()),
                });
            }
        });
    }

    // The win-probability estimate follows the board. It is computed in the Web Worker
    // (src/worker/), so a slow one (many stones, 100,000 samples) never holds the page;
    // a newer board drops the job of an older one.
    {
        let game = state.game.clone();
        let estimate = estimate.clone();
        let version = state.version;
        use_effect_with(state.version, move |_| {
            let job = game.map(|game| {
                worker::run(&Estimate { game }, move |answer| {
                    // A refused estimate is a bug; the panel keeps the previous figures.
                    if let Ok(done) = answer {
                        estimate.set(Some(Estimated { version, done }));
                    }
                })
            });
            move || drop(job)
        });
    }

    // The computer's turn: it thinks in the worker, then its placement (and observation)
    // goes through the reducer, which drops it if the game changed in the meantime. After
    // a missed observation it is asked, in the worker too, whether to observe again.
    {
        let game = state.game.clone();
        let dispatcher = state.dispatcher();
        let version = state.version;
        let opponent = state.opponent;
        let observe_again = state.observe_again;
        use_effect_with((state.version, state.opponent, observe_again), move |_| {
            let refuse = {
                let dispatcher = dispatcher.clone();
                move |e: worker::JobError| {
                    dispatcher.dispatch(Action::Refuse(PageError::Computer(e.to_string())))
                }
            };
            let job = game.and_then(|game| {
                let seed = computer_seed(&game.id());
                if computer_to_move(&game, opponent) {
                    let task = ComputerTurn::of(&game, seed);
                    Some(worker::run(&task, move |answer| match answer {
                        Ok(done) => dispatcher.dispatch(Action::ComputerTurn {
                            version,
                            thought: thought_of(&done),
                            turn: done.value,
                        }),
                        Err(e) => refuse(e),
                    }))
                } else if observe_again {
                    let task = ComputerObserve::of(&game, seed)?;
                    Some(worker::run(&task, move |answer| match answer {
                        Ok(done) => dispatcher.dispatch(Action::ComputerObserve {
                            version,
                            thought: thought_of(&done),
                            observe: done.value,
                        }),
                        Err(e) => refuse(e),
                    }))
                } else {
                    None
                }
            });
            move || drop(job)
        });
    }

    // The same callbacks from render to render, so unchanged cells skip re-rendering.
    let on_place = {
        let dispatcher = state.dispatcher();
        let state = state.clone();
        let online = online.clone();
        // Online, a placement depends on the shown game and the seat; locally it does not.
        let deps = (*online_game).clone().map(|g| (g, state.version));
        use_callback(deps, move |position: Position, deps| match deps {
            None => dispatcher.dispatch(Action::PlaceHere(position)),
            Some((game, _)) => {
                let Some(shown) = &state.game else { return };
                let player = shown.state().current_player;
                let command = Command::Place { player, position };
                match may_act(game, player).and_then(|()| {
                    shown
                        .check(command)
                        .map_err(|e| Action::Refuse(PageError::Rule(e)))
                }) {
                    Ok(()) => online.send(&state, game, online::Request::Place(player, position)),
                    Err(refusal) => dispatcher.dispatch(refusal),
                }
            }
        })
    };
    let on_move_cursor = {
        let setter = cursor.setter();
        use_callback((), move |p: Position, ()| setter.set(p))
    };

    let Some(game) = &state.game else {
        return html! {
            <section class="page qg-page">
                <h2>{ ctx.t(T::QuantumGomoku) }</h2>
                if let Some(error) = &state.last_error {
                    <p class="error" role="alert" data-testid="qg-error">{ text::error(lang, error) }</p>
                } else {
                    <p>{ ctx.t(T::Starting) }</p>
                }
            </section>
        };
    };
    // Shared by the components that draw it, not copied into each (225 cells).
    let view: Rc<GameView> = Rc::new(game.view());
    let cursor_pos = Position::new(
        cursor.row.min(view.board_size.saturating_sub(1)),
        cursor.col.min(view.board_size.saturating_sub(1)),
    );
    let show_observation = view
        .last_observation
        .as_ref()
        .is_some_and(|o| o.turn_executed == view.turn_count);
    let opponent = state.opponent;
    let computer = opponent.computer();
    let thinking = state.computer_thinking();
    let online_now = (*online_game).clone();
    let seat = online_now.as_ref().map(|g| g.seat);
    // Against the computer the page offers only the player's own moves; online, only the seat's.
    let observe_enabled = view.observe.enabled
        && computer != Some(view.observe.player)
        && seat.is_none_or(|s| s.acts_for(view.observe.player));
    // Online the server keeps the game, and it has no undo.
    let undo_enabled = online_now.is_none() && can_undo(game, opponent);
    let my_turn_online = seat.is_none_or(|s| s.acts_for(view.current_player));
    let current_estimate = estimate.as_ref().map(|e| e.done.value);
    let estimate_busy = estimate.as_ref().is_none_or(|e| e.version != state.version);
    let estimate_where = estimate.as_ref().map(|e| (e.done.ms, e.done.in_worker));

    let on_observe = {
        let state = state.clone();
        let player = view.observe.player;
        // No seed: the engine draws it from the game's own generator, so a
        // saved game replays the same collapse.
        let online = online.clone();
        let online_now = online_now.clone();
        Callback::from(move |()| match &online_now {
            None => state.dispatch(Action::Apply(Command::Observe { player, seed: None })),
            Some(game) => {
                let check = state
                    .game
                    .as_ref()
                    .map_or(Ok(()), |g| g.check(Command::Observe { player, seed: None }));
                match may_act(game, player)
                    .and_then(|()| check.map_err(|e| Action::Refuse(PageError::Rule(e))))
                {
                    Ok(()) => online.send(&state, game, online::Request::Observe(player)),
                    Err(refusal) => state.dispatch(refusal),
                }
            }
        })
    };
    let on_observe_click = {
        let on_observe = on_observe.clone();
        Callback::from(move |_: MouseEvent| on_observe.emit(()))
    };
    let on_undo = {
        let state = state.clone();
        Callback::from(move |_: MouseEvent| state.dispatch(Action::Apply(Command::Undo)))
    };
    let on_reset = {
        let state = state.clone();
        let online = online.clone();
        let online_now = online_now.clone();
        Callback::from(move |_: MouseEvent| match &online_now {
            None => state.dispatch(Action::Apply(Command::Reset)),
            Some(game) if game.seat == Seat::Watching => state.dispatch(
                may_act(game, Player::Black)
                    .err()
                    .unwrap_or(Action::Dismiss),
            ),
            Some(game) => online.send(&state, game, online::Request::Reset),
        })
    };
    // Online, a new game is a new online game (the link changes); locally, a new local one.
    let on_new_game = {
        let state = state.clone();
        let size_text = size_text.clone();
        let win_text = win_text.clone();
        let online = online.clone();
        let online_now = online_now.is_some();
        Callback::from(move |_: MouseEvent| {
            let options = options_from(&size_text, &win_text);
            if online_now {
                online.create(&state, options);
            } else {
                show_local(&state, options, None);
            }
        })
    };
    let on_online = {
        let state = state.clone();
        let size_text = size_text.clone();
        let win_text = win_text.clone();
        let online = online.clone();
        Callback::from(move |_: MouseEvent| {
            online.create(&state, options_from(&size_text, &win_text));
        })
    };
    let on_leave_online = {
        let state = state.clone();
        let online = online.clone();
        let online_now = online_now.clone();
        let options = game.options();
        Callback::from(move |_: MouseEvent| {
            if let Some(game) = &online_now {
                online.leave(&state, game.id, options);
            }
        })
    };
    let on_delete = {
        let state = state.clone();
        let id = game.id();
        let options = game.options();
        let online = online.clone();
        let online_now = online_now.clone();
        Callback::from(move |_: MouseEvent| match &online_now {
            None => {
                store::delete(&id);
                show_local(&state, options, None);
            }
            Some(game) if game.seat == Seat::Watching => state.dispatch(
                may_act(game, Player::Black)
                    .err()
                    .unwrap_or(Action::Dismiss),
            ),
            Some(game) => online.send(&state, game, online::Request::Delete),
        })
    };
    let on_load = {
        let state = state.clone();
        let id_input = id_input.clone();
        let online = online.clone();
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let typed = id_input
                .cast::<web_sys::HtmlInputElement>()
                .map(|i| i.value())
                .unwrap_or_default();
            let Some(id) = store::parse_v4(&typed) else {
                state.dispatch(Action::Refuse(PageError::InvalidId));
                return;
            };
            match store::load(&id) {
                // Not saved here: the page's server may have it.
                Stored::Missing => {
                    online.join(&state, id, Action::Refuse(PageError::UnknownId));
                }
                Stored::Discarded => state.dispatch(Action::Refuse(PageError::CorruptSave)),
                Stored::Found(game) => {
                    // A game saved here is played here.
                    if online.current.get().is_some() {
                        online.current.set(None);
                        online.game.set(None);
                    }
                    state.dispatch(Action::Show {
                        game,
                        notice: Some(Notice::Loaded),
                    });
                }
            }
        })
    };
    let on_size_input = {
        let size_text = size_text.clone();
        Callback::from(move |e: InputEvent| {
            if let Some(v) = input_value(&e) {
                size_text.set(v);
            }
        })
    };
    let on_win_input = {
        let win_text = win_text.clone();
        Callback::from(move |e: InputEvent| {
            if let Some(v) = input_value(&e) {
                win_text.set(v);
            }
        })
    };
    let choose_opponent = {
        let state = state.clone();
        Callback::from(move |value: String| {
            if let Some(o) = Opponent::parse(&value) {
                storage::set(store::KEY_OPPONENT, o.as_str());
                state.dispatch(Action::SetOpponent(o));
            }
        })
    };
    let on_opponent = {
        let choose = choose_opponent.clone();
        Callback::from(move |e: Event| {
            if let Some(s) = e.target_dyn_into::<web_sys::HtmlSelectElement>() {
                choose.emit(s.value());
            }
        })
    };
    let on_opponent_key = Callback::from(move |e: KeyboardEvent| {
        if let Some(value) = keys::step_select(&e) {
            choose_opponent.emit(value);
        }
    });
    // Enter and Space press the page's buttons (see `keys`); the board takes its own keys first.
    let on_keydown = Callback::from(|e: KeyboardEvent| {
        keys::press_focused_button(&e);
    });
    let on_dismiss = {
        let state = state.clone();
        Callback::from(move |_: MouseEvent| state.dispatch(Action::Dismiss))
    };

    let notice = state.notice.map(|n| match n {
        Notice::CorruptSave => T::QgCorruptSave,
        Notice::Resumed => T::QgResumed,
        Notice::Loaded => T::QgLoaded,
        Notice::UrlIdIgnored => T::QgUrlIdIgnored,
    });
    let load_error = state.last_error.as_ref().filter(|e| {
        matches!(
            e,
            PageError::InvalidId | PageError::UnknownId | PageError::CorruptSave
        )
    });
    let play_error = state.last_error.as_ref().filter(|e| {
        matches!(
            e,
            PageError::Rule(_)
                | PageError::Options(_)
                | PageError::Computer(_)
                | PageError::Online { .. }
        )
    });
    let next = view.next_probability_type;

    html! {
        <section class="page qg-page" onkeydown={on_keydown}>
            <h2>{ ctx.t(T::QuantumGomoku) }</h2>
            <p class="qg-muted">{ ctx.t(T::QgRulesBlurb) }</p>
            if let Some(key) = notice {
                <p class="notice" data-testid="qg-notice" data-notice={format!("{:?}", state.notice)}>
                    { ctx.t(key) }
                    <button type="button" class="btn qg-dismiss" onclick={on_dismiss.clone()}
                        aria-label={ctx.t(T::Close)}>{ "×" }</button>
                </p>
            }
            <StatusBar view={view.clone()} />
            // The end of the game is announced, with the observation that decided it.
            if view.status != GameStatus::Playing {
                <div class="qg-winner" role="alert" data-testid="qg-winner"
                    data-winner={view.winner.map(|w| w.as_str())}>
                    <strong>{ text::result(lang, view.winner) }</strong>
                    if let Some(o) = view.last_observation.as_ref().filter(|o| o.winner.is_some()) {
                        <span>{ observation_text(lang, o, view.win_length) }</span>
                    }
                </div>
            }
            <div class="qg-layout">
                <div class="qg-main">
                    <div class="btn-row qg-actions">
                        <label class="qg-opponent">
                            { text::opponent_label(lang) }{ " " }
                            <select data-testid="qg-opponent" onchange={on_opponent} onkeydown={on_opponent_key}
                                disabled={online_now.is_some()}>
                                { for Opponent::ALL.into_iter().map(|o| html! {
                                    <option value={o.as_str()} selected={o == opponent}>
                                        { text::opponent(lang, o) }
                                    </option>
                                }) }
                            </select>
                        </label>
                    </div>
                    <div class="btn-row qg-actions">
                        <button type="button" class="btn btn-primary" data-testid="observe"
                            disabled={!observe_enabled} onclick={on_observe_click}>
                            { view.observe.label.clone() }
                        </button>
                        <button type="button" class="btn" data-testid="undo"
                            disabled={!undo_enabled} onclick={on_undo}>
                            { ctx.t(T::QgUndo) }
                        </button>
                        <span class="qg-next" data-testid="next-stone" data-prob={next.percent().to_string()}>
                            { format!("{}: {} {}%", ctx.t(T::QgNextStone), text::player(lang, view.current_player), next.percent()) }
                        </span>
                    </div>
                    // Styled here rather than in quantum-gomoku.css, which every bundle links:
                    // one line kept for the computer's status, so the board does not move.
                    <p class="qg-muted qg-computer" style="min-height: 1.4em; margin: 4px 0"
                        data-testid="qg-computer" aria-live="polite"
                        data-thinking={thinking.to_string()}
                        data-ms={state.thought.map(|t| format!("{:.1}", t.ms))}
                        data-worker={state.thought.map(|t| t.in_worker.to_string())}>
                        if thinking {
                            <span class="qg-thinking" data-testid="qg-thinking">
                                { text::thinking(lang, view.current_player) }
                            </span>
                        } else if let Some(t) = state.thought {
                            { text::thought(lang, t.ms, t.in_worker) }
                        }
                    </p>
                    if let Some(error) = play_error {
                        <p class="error" role="alert" data-testid="qg-error">
                            { text::error(lang, error) }
                            <button type="button" class="btn qg-dismiss" onclick={on_dismiss.clone()}
                                aria-label={ctx.t(T::Close)}>{ "×" }</button>
                        </p>
                    }
                    <Board
                        view={view.clone()}
                        locked={thinking || !my_turn_online}
                        show_observation={show_observation}
                        cursor={cursor_pos}
                        on_place={on_place}
                        on_move_cursor={on_move_cursor}
                        on_observe={on_observe}
                    />
                    <p class="qg-muted qg-help">{ ctx.t(T::QgKeyboardHelp) }</p>
                    if let Some(o) = view.last_observation.clone().filter(|_| show_observation) {
                        <ObservationSummary observation={o} win_length={view.win_length} />
                    }
                </div>
                <aside class="qg-side">
                    if api.is_some() {
                        <section class="qg-panel qg-online" aria-labelledby="qg-online-title">
                            <h3 id="qg-online-title">{ text::online(lang, OnlineText::Title) }</h3>
                            if let Some(og) = &online_now {
                                <p data-testid="qg-seat" data-value={og.seat.as_str(view.current_player)}>
                                    { text::seat(lang, og.seat) }
                                </p>
                                <p class="qg-muted" data-testid="qg-connection"
                                    data-state={connection.as_str()} aria-live="polite">
                                    { text::connection(lang, *connection) }
                                </p>
                                <label class="qg-online-link">
                                    { text::online(lang, OnlineText::Link) }
                                    <input type="text" readonly=true data-testid="qg-online-link"
                                        value={online::share_link(&og.id).unwrap_or_default()} />
                                </label>
                                <button type="button" class="btn" data-testid="qg-leave-online"
                                    onclick={on_leave_online}>
                                    { text::online(lang, OnlineText::Leave) }
                                </button>
                            } else {
                                <p class="qg-muted">{ text::online(lang, OnlineText::Blurb) }</p>
                                <button type="button" class="btn btn-primary" data-testid="qg-online"
                                    onclick={on_online}>
                                    { text::online(lang, OnlineText::Start) }
                                </button>
                            }
                        </section>
                    }
                    <ProbabilityPanel estimate={current_estimate} busy={estimate_busy}
                        timing={estimate_where} />
                    <section class="qg-panel qg-manage">
                        <div class="qg-new">
                            <label>
                                { ctx.t(T::QgBoardSize) }
                                <input type="number" min="3" max="19" data-testid="board-size"
                                    value={(*size_text).clone()} oninput={on_size_input} />
                            </label>
                            <label>
                                { ctx.t(T::QgWinLength) }
                                <input type="number" min="2" max="19" data-testid="win-length"
                                    value={(*win_text).clone()} oninput={on_win_input} />
                            </label>
                            <button type="button" class="btn btn-primary" data-testid="new-game" onclick={on_new_game}>
                                { ctx.t(T::QgNewGame) }
                            </button>
                        </div>
                        <div class="btn-row">
                            <button type="button" class="btn" data-testid="reset-game" onclick={on_reset}>
                                { ctx.t(T::QgReset) }
                            </button>
                            <button type="button" class="btn" data-testid="delete-game" onclick={on_delete}>
                                { ctx.t(T::QgDelete) }
                            </button>
                        </div>
                        <form class="qg-load" onsubmit={on_load}>
                            <label for="existing_id">{ ctx.t(T::QgExistingId) }</label>
                            <input id="existing_id" type="text" ref={id_input} autocomplete="off"
                                spellcheck="false" placeholder="xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx" />
                            <button type="submit" class="btn" data-testid="load-game">{ ctx.t(T::QgLoad) }</button>
                        </form>
                        if let Some(error) = load_error {
                            <p class="error" role="alert" data-testid="load-error">{ text::error(lang, error) }</p>
                        }
                    </section>
                    <MoveLog entries={game.log().to_vec()} />
                </aside>
            </div>
        </section>
    }
}

/// How a job of the computer's ran, for the page to show.
fn thought_of<T>(done: &worker::Done<T>) -> Thought {
    Thought {
        ms: done.ms,
        in_worker: done.in_worker,
    }
}
