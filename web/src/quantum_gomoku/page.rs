//! The Quantum Gomoku page (`#/quantum-gomoku`): start-up, saving, and the wiring of board, buttons and panels.

use std::rc::Rc;

use quantum_gomoku::{
    Command, DEFAULT_BOARD_SIZE, DEFAULT_WIN_LENGTH, Game, GameOptions, GameStatus, GameView,
    Position, WinProbability,
};
use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::ctx::{replace_route, use_ctx};
use crate::i18n::T;
use crate::keys;
use crate::route::Route;
use crate::storage;
use crate::worker::{self, Done};

use super::board::Board;
use super::jobs::{ComputerObserve, ComputerTurn, Estimate, computer_seed};
use super::panels::{MoveLog, ObservationSummary, ProbabilityPanel, StatusBar, observation_text};
use super::state::{
    Action, Notice, Opponent, PageError, QgState, Thought, can_undo, computer_to_move,
};
use super::store::{self, Stored};
use super::text;

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
        use_effect_with(props.game_id.clone(), move |url_id| {
            // The page writes the shown game's id into the address itself; when
            // that comes back as a route change there is nothing to load.
            let shown = state.game.as_ref().map(Game::id);
            if shown.is_some() && url_id.as_deref().and_then(store::parse_v4) == shown {
                return;
            }
            let (found, notice) = startup_game(url_id.as_deref());
            let game = match found {
                Some(game) => Ok(game),
                None => store::new_game(GameOptions::default()),
            };
            match game {
                Ok(game) => state.dispatch(Action::Show {
                    game: Box::new(game),
                    notice,
                }),
                Err(e) => state.dispatch(Action::Refuse(PageError::Options(e))),
            }
        });
    }

    // Every change is saved under the game's id, and the address names the
    // game so that it can be bookmarked or reloaded.
    {
        let state = state.clone();
        use_effect_with(state.version, move |_| {
            if let Some(game) = &state.game {
                store::save(game);
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
        use_callback((), move |position: Position, ()| {
            dispatcher.dispatch(Action::PlaceHere(position));
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
    // Against the computer the page offers only the player's own moves.
    let observe_enabled = view.observe.enabled && computer != Some(view.observe.player);
    let undo_enabled = can_undo(game, opponent);
    let current_estimate = estimate.as_ref().map(|e| e.done.value);
    let estimate_busy = estimate.as_ref().is_none_or(|e| e.version != state.version);
    let estimate_where = estimate.as_ref().map(|e| (e.done.ms, e.done.in_worker));

    let on_observe = {
        let state = state.clone();
        let player = view.observe.player;
        // No seed: the engine draws it from the game's own generator, so a
        // saved game replays the same collapse.
        Callback::from(move |()| {
            state.dispatch(Action::Apply(Command::Observe { player, seed: None }));
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
        Callback::from(move |_: MouseEvent| state.dispatch(Action::Apply(Command::Reset)))
    };
    let on_new_game = {
        let state = state.clone();
        let size_text = size_text.clone();
        let win_text = win_text.clone();
        Callback::from(move |_: MouseEvent| {
            match store::new_game(options_from(&size_text, &win_text)) {
                Ok(game) => state.dispatch(Action::Show {
                    game: Box::new(game),
                    notice: None,
                }),
                Err(e) => state.dispatch(Action::Refuse(PageError::Options(e))),
            }
        })
    };
    let on_delete = {
        let state = state.clone();
        let id = game.id();
        let options = game.options();
        Callback::from(move |_: MouseEvent| {
            store::delete(&id);
            match store::new_game(options) {
                Ok(game) => state.dispatch(Action::Show {
                    game: Box::new(game),
                    notice: None,
                }),
                Err(e) => state.dispatch(Action::Refuse(PageError::Options(e))),
            }
        })
    };
    let on_load = {
        let state = state.clone();
        let id_input = id_input.clone();
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let typed = id_input
                .cast::<web_sys::HtmlInputElement>()
                .map(|i| i.value())
                .unwrap_or_default();
            let action = match store::parse_v4(&typed).map(|id| store::load(&id)) {
                None => Action::Refuse(PageError::InvalidId),
                Some(Stored::Missing) => Action::Refuse(PageError::UnknownId),
                Some(Stored::Discarded) => Action::Refuse(PageError::CorruptSave),
                Some(Stored::Found(game)) => Action::Show {
                    game,
                    notice: Some(Notice::Loaded),
                },
            };
            state.dispatch(action);
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
            PageError::Rule(_) | PageError::Options(_) | PageError::Computer(_)
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
                            <select data-testid="qg-opponent" onchange={on_opponent} onkeydown={on_opponent_key}>
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
                        locked={thinking}
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
