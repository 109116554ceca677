//! The duel page: loads or starts a duel, autosaves after every action, and lays out field, hand and dialogs.

use std::rc::Rc;

use duel_engine::view::CardView as CardSeen;
use duel_engine::{CardId, Code, Command, Outcome, Phase};
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;
use yew::prelude::*;

use crate::ctx::{replace_route, use_ctx};
use crate::duel::board::card_detail::CardDetail;
use crate::duel::board::card_preview::{
    CardPreview, LONG_PRESS_MS, Preview, card_under, preview_of,
};
use crate::duel::board::card_view::engine_lang;
use crate::duel::board::duel_field::{DuelField, FieldSlot, Pile, monster_slot};
use crate::duel::board::duel_header::{DuelHeader, LpCue};
use crate::duel::board::duel_log::DuelLog;
use crate::duel::board::effect_dialog::{EffectDialog, ResponseCard};
use crate::duel::board::end_turn::{Confirm, Question, actions_remain};
use crate::duel::board::field_menu::FieldMenu;
use crate::duel::board::game_over::GameOver;
use crate::duel::board::hands::{Hands, MenuAction, menu_button};
use crate::duel::board::motion::use_card_motion;
use crate::duel::board::pile_list::PileList;
use crate::duel::board::reveal_dialog::{Reveal, RevealDialog};
use crate::duel::board::toasts::{self, Toast, Toasts};
use crate::duel::practice::bar::PracticeBar;
use crate::duel::practice::history::passes_by_itself;
use crate::duel::practice::jobs::{NO_RETURN_BUDGET, NoReturn};
use crate::duel::save::SaveFile;
use crate::duel::state::{
    Action, DuelState, Notice, StartError, announce_resume, clear_save, load_save, mark_own_save,
    new_game_settings, unfinished, write_save,
};
use crate::i18n::T;
use crate::prefs;
use crate::route::Route;

#[derive(Debug, Properties, PartialEq, Clone)]
pub struct SimulatorProps {
    pub deck: String,
    pub seed: Option<u64>,
}

/// A seed from the browser's entropy. Only called from effects and event handlers,
/// never from a reducer, so every game stays replayable from its recorded seed.
pub fn entropy_seed() -> u64 {
    // Math.random has 52 random bits; two draws fill 64.
    let half = || (js_sys::Math::random() * 4_294_967_296.0) as u64 & 0xffff_ffff;
    (half() << 32) | half()
}

/// How long a toast stays, in milliseconds.
const TOAST_MS: i32 = 3500;

/// What the page announces of the duel's events beside the duel itself: toasts, the
/// revealed cards waiting to be acknowledged, the last LP change.
#[derive(Debug, Clone, PartialEq, Default)]
struct Announced {
    /// At most [`toasts::TOAST_MAX`], oldest first.
    items: Vec<Toast>,
    /// The newest state version already announced: an effect that fires again for the
    /// same version must not repeat its toasts or reveal its cards twice.
    announced: u64,
    /// Cards revealed since the player last closed the reveal dialog (the page's
    /// automatic passes can bring more before they do).
    reveal: Option<Reveal>,
    lp_cue: LpCue,
}

enum AnnounceAction {
    /// The events of one duel state version, as a toast, reveal and LP change.
    Push {
        version: u64,
        toast: Option<Toast>,
        reveal: Option<Reveal>,
        lp_cue: Option<LpCue>,
    },
    /// Drop the toast of one state version (after it has been shown long enough).
    Expire { version: u64 },
    /// The player has seen the revealed cards.
    DismissReveal,
}

impl Reducible for Announced {
    type Action = AnnounceAction;

    fn reduce(self: Rc<Self>, action: AnnounceAction) -> Rc<Self> {
        let mut next = (*self).clone();
        match action {
            AnnounceAction::Push {
                version,
                toast,
                reveal,
                lp_cue,
            } => {
                if version <= next.announced {
                    return self;
                }
                next.announced = version;
                if let Some(toast) = toast {
                    toasts::push(&mut next.items, toast);
                }
                next.reveal = Reveal::merge(next.reveal, reveal);
                next.lp_cue = lp_cue.unwrap_or(next.lp_cue);
            }
            AnnounceAction::Expire { version } => next.items.retain(|t| t.version != version),
            AnnounceAction::DismissReveal => next.reveal = None,
        }
        Rc::new(next)
    }
}

/// Runs `f` once after `ms` milliseconds (best effort: without a window nothing happens).
fn after(ms: i32, f: impl FnOnce() + 'static) {
    if let Some(window) = web_sys::window() {
        let cb = Closure::once_into_js(f);
        let _ =
            window.set_timeout_with_callback_and_timeout_and_arguments_0(cb.unchecked_ref(), ms);
    }
}

/// Starts a new duel of `deck` (with a seed drawn from the browser when the route has
/// none, written into the address so a reload replays the same game). A deck list of the
/// player's own has no preset to start from: its duels come from the deck lab's save.
fn start_new(state: &UseReducerHandle<DuelState>, deck: &str, seed: Option<u64>) {
    let seed = seed.unwrap_or_else(|| {
        let drawn = entropy_seed();
        // The address now names the seed, so the page opens again for it: the autosave
        // it then finds is this new duel, not a resumed one.
        mark_own_save(deck, drawn);
        drawn
    });
    replace_route(&Route::Simulator {
        deck: deck.to_owned(),
        seed: Some(seed),
    });
    state.dispatch(Action::Start {
        deck: deck.to_owned(),
        custom: None,
        seed,
        settings: new_game_settings(),
    });
}

#[function_component(Simulator)]
pub fn simulator(props: &SimulatorProps) -> Html {
    let ctx = use_ctx();
    let lang = ctx.lang;
    let state = use_reducer(DuelState::default);
    let announced = use_reducer(Announced::default);
    let detail = use_state(|| None::<Code>);
    let pile = use_state(|| None::<Pile>);
    let field_menu = use_state(|| None::<(FieldSlot, CardSeen)>);
    let over_closed = use_state(|| false);
    let confirm_end = use_state(|| false);
    let preview = use_state(|| None::<Preview>);
    // A running long press: its timer, and whether it fired (then the context menu the
    // browser may bring is refused).
    let long_press = use_mut_ref(|| (None::<i32>, false));
    let page_ref = use_node_ref();

    // An unfinished duel in the autosave that this route's duel would replace: the page
    // asks first.
    let pending = use_state(|| None::<SaveFile>);
    // Load the autosave or start a new duel, once per route.
    {
        let state = state.clone();
        let pending = pending.clone();
        use_effect_with(
            (props.deck.clone(), props.seed),
            move |(deck, seed)| match load_save() {
                Ok(Some(save)) if save.deck == *deck && seed.is_none_or(|s| s == save.seed) => {
                    replace_route(&Route::Simulator {
                        deck: deck.clone(),
                        seed: Some(save.seed),
                    });
                    let announce = announce_resume(&save.deck, save.seed);
                    state.dispatch(Action::Resume { save, announce });
                }
                Ok(Some(save)) if unfinished(&save) => pending.set(Some(save)),
                Ok(_) => start_new(&state, deck, *seed),
                Err(_) => {
                    state.dispatch(Action::SaveDiscarded);
                    start_new(&state, deck, *seed);
                }
            },
        );
    }

    // Autosave after every accepted command (and after the start).
    {
        let state = state.clone();
        use_effect_with(state.version, move |_| {
            if let Some(save) = state.save_file() {
                write_save(&save);
            }
        });
    }

    // The last command's messages become a toast (the log keeps them all); revealed cards
    // wait in a dialog; LP changes get a short cue in the header.
    {
        let state = state.clone();
        let announced = announced.clone();
        use_effect_with(state.version, move |_| {
            if !state.events.is_empty() {
                let version = state.version;
                announced.dispatch(AnnounceAction::Push {
                    version,
                    toast: Toast::from_events(version, version, &state.events, engine_lang(lang)),
                    reveal: Reveal::from_events(&state.events),
                    lp_cue: LpCue::from_events(version, &state.events),
                });
                let announced = announced.clone();
                after(TOAST_MS, move || {
                    announced.dispatch(AnnounceAction::Expire { version })
                });
            }
        });
    }

    // An undo out of a finished duel brings its game-over dialog back for the next end.
    {
        let over_closed = over_closed.clone();
        let over = state.duel.as_ref().is_some_and(|d| d.outcome().is_some());
        use_effect_with(over, move |over| {
            if !over {
                over_closed.set(false);
            }
        });
    }

    let view = state.duel.as_ref().map(|d| d.view());
    use_card_motion(page_ref.clone(), view.clone().map(Rc::new), state.version);
    let legal: Vec<Command> = state
        .duel
        .as_ref()
        .map(|d| d.legal_commands())
        .unwrap_or_default();

    // When the chain is open but nothing can be chained, passing is the only legal move:
    // send it rather than asking a question with one answer.
    {
        let state = state.clone();
        let only_pass = view.as_ref().is_some_and(|v| passes_by_itself(v, &legal));
        use_effect_with((state.version, only_pass), move |(version, only_pass)| {
            if *only_pass {
                state.dispatch(Action::ApplyAt {
                    version: *version,
                    command: Command::PassChain,
                });
            }
        });
    }

    let on_apply = {
        let state = state.clone();
        Callback::from(move |cmd: Command| state.dispatch(Action::Apply(cmd)))
    };
    let on_check = {
        let state = state.clone();
        let legal = legal.clone();
        Callback::from(move |cmd: Command| -> Option<String> {
            let duel = state.duel.as_ref()?;
            let verdict = duel.validate(&cmd);
            let listed = matches!(cmd, Command::Respond(_)) || legal.contains(&cmd);
            match verdict {
                Err(e) => Some(e.message(engine_lang(lang))),
                Ok(()) if listed => None,
                Ok(()) => Some(T::NotLegalNow.text(lang).to_owned()),
            }
        })
    };
    let on_show_details = {
        let detail = detail.clone();
        Callback::from(move |code: Code| detail.set(Some(code)))
    };
    let on_retry = {
        let d = state.dispatcher();
        Callback::from(move |()| d.dispatch(Action::Retry))
    };
    // The hint's next step, while the game follows its line (marked in the dialogs).
    let hint_step = use_state(|| None::<Command>);
    let on_hint_step = {
        let setter = hint_step.setter();
        Callback::from(move |step| setter.set(step))
    };
    let on_restart = {
        let state = state.clone();
        let deck = props.deck.clone();
        // A new shuffle of the same deck list and test hand.
        let custom = state.custom().cloned();
        let over_closed = over_closed.clone();
        Callback::from(move |()| {
            clear_save();
            let seed = entropy_seed();
            replace_route(&Route::Simulator {
                deck: deck.clone(),
                seed: Some(seed),
            });
            over_closed.set(false);
            state.dispatch(Action::Start {
                deck: deck.clone(),
                custom: custom.clone(),
                seed,
                settings: new_game_settings(),
            });
        })
    };

    if let Some(save) = &*pending {
        // Keeping the saved duel opens its own address; starting this one drops it.
        let on_keep = {
            let nav = ctx.on_navigate.clone();
            let route = Route::Simulator {
                deck: save.deck.clone(),
                seed: Some(save.seed),
            };
            Callback::from(move |_: bool| nav.emit(route.clone()))
        };
        let on_drop = {
            let state = state.clone();
            let pending = pending.clone();
            let (deck, seed) = (props.deck.clone(), props.seed);
            Callback::from(move |_: bool| {
                clear_save();
                pending.set(None);
                start_new(&state, &deck, seed);
            })
        };
        let deck_name = duel_engine::deck::deck(&save.deck)
            .map(|d| d.name(engine_lang(lang)).to_owned())
            .unwrap_or_else(|| save.deck.clone());
        return html! {
            <section class="page">
                <Confirm question={Question::DropSave(deck_name)}
                    on_cancel={on_keep.reform(|()| false)} on_confirm={on_drop} />
            </section>
        };
    }
    if let Some(StartError::Setup(err)) = &state.start_error {
        // `#/simulator/custom` with no deck list of one's own to deal (no autosave, no
        // share code): say where such a duel starts.
        let custom = props.deck == duel_engine::CUSTOM_DECK_ID;
        return html! {
            <section class="page">
                <h2>{ ctx.t(T::UnknownDeck) }</h2>
                if custom {
                    <p class="error" role="alert" data-testid="start-error">{ ctx.t(T::NoCustomDeal) }</p>
                    <a href={Route::DeckLab.href()} data-testid="start-deck-lab">{ ctx.lang.pick("デッキ研究所へ", "To the deck lab") }</a>
                    { " · " }
                } else {
                    <p class="error" role="alert" data-testid="start-error">{ err.to_string() }</p>
                }
                <a href="#/">{ ctx.t(T::BackHome) }</a>
            </section>
        };
    }
    let Some(view) = view else {
        return html! { <section class="page"><p>{ ctx.t(T::Starting) }</p></section> };
    };

    let notice = state.notice.map(|n| match n {
        Notice::SaveDiscarded => html! { <p class="notice" role="status" data-testid="save-notice">{ ctx.t(T::CorruptSave) }</p> },
        Notice::Resumed => html! { <p class="notice" role="status" data-testid="resume-notice">{ ctx.t(T::SaveRestored) }</p> },
    });
    let feedback = state.last_error.as_ref().map(|e| {
        let state = state.clone();
        html! {
            <p class="error" role="alert" data-testid="feedback">
                { format!("{}: {}", ctx.t(T::NotLegalNow), e.message(engine_lang(lang))) }
                { " " }
                <button type="button" class="btn" onclick={Callback::from(move |_: MouseEvent| state.dispatch(Action::DismissError))}>
                    { ctx.t(T::Close) }
                </button>
            </p>
        }
    });

    let on_open_pile = {
        let pile = pile.clone();
        Callback::from(move |p: Pile| pile.set(Some(p)))
    };
    let on_select_card = {
        let field_menu = field_menu.clone();
        Callback::from(move |sel: (FieldSlot, CardSeen)| field_menu.set(Some(sel)))
    };
    let on_look_up = {
        let state = state.clone();
        Callback::from(move |id: CardId| {
            let Some(duel) = state.duel.as_ref() else {
                return ResponseCard::default();
            };
            let you = duel.view().you;
            let slot = if you.field_zone.is_some_and(|c| c.id == id) {
                Some(FieldSlot::Field)
            } else if let Some(i) = you
                .spell_trap
                .iter()
                .position(|c| c.is_some_and(|c| c.id == id))
            {
                Some(FieldSlot::SpellTrap(i))
            } else {
                monster_slot(&you, id)
            };
            ResponseCard {
                code: duel.card_view(id).code,
                slot: slot.map(FieldSlot::name),
            }
        })
    };

    // 「ターン終了」 asks first while something else could still be done (ending the
    // first turn ends the attempt), unless the player turned the question off.
    let end_turn = MenuAction {
        command: Command::EndTurn,
        label: T::EndTurn,
        test_id: "btn-end-turn",
        expected: true,
    };
    let on_end_turn = {
        let on_apply = on_apply.clone();
        let confirm_end = confirm_end.clone();
        let ask = actions_remain(&legal) && prefs::confirm_end_turn();
        Callback::from(move |cmd: Command| {
            if ask {
                confirm_end.set(true);
            } else {
                on_apply.emit(cmd);
            }
        })
    };
    let end_turn_confirm = (*confirm_end).then(|| {
        let on_cancel = {
            let confirm_end = confirm_end.clone();
            Callback::from(move |()| confirm_end.set(false))
        };
        let on_confirm = {
            let confirm_end = confirm_end.clone();
            let on_apply = on_apply.clone();
            Callback::from(move |dont_ask: bool| {
                if dont_ask {
                    prefs::set_confirm_end_turn(false);
                }
                confirm_end.set(false);
                on_apply.emit(Command::EndTurn);
            })
        };
        html! {
            <Confirm question={Question::EndTurn}
                on_confirm={on_confirm} on_cancel={on_cancel} />
        }
    });

    let field_menu_html = (*field_menu).map(|(slot, card)| {
        let close = {
            let field_menu = field_menu.clone();
            Callback::from(move |()| field_menu.set(None))
        };
        html! {
            <FieldMenu slot={slot} card={card} on_check={on_check.clone()} on_apply={on_apply.clone()}
                on_show_details={on_show_details.clone()} on_close={close} />
        }
    });

    // The whole card beside the one the mouse rests on or the keyboard focuses; a long
    // press on a touch screen opens its details.
    let on_pointer_over = {
        let preview = preview.clone();
        Callback::from(move |e: PointerEvent| {
            if e.pointer_type() == "mouse" {
                let next = preview_of(&e);
                if *preview != next {
                    preview.set(next);
                }
            }
        })
    };
    let on_pointer_leave = {
        let preview = preview.clone();
        Callback::from(move |_: PointerEvent| preview.set(None))
    };
    let on_focus_in = {
        let preview = preview.clone();
        Callback::from(move |e: FocusEvent| {
            let keyboard = e
                .target()
                .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                .is_some_and(|t| t.matches(":focus-visible").unwrap_or(false));
            preview.set(if keyboard { preview_of(&e) } else { None });
        })
    };
    let cancel_press = {
        let long_press = long_press.clone();
        move || {
            if let Some(id) = long_press.borrow_mut().0.take()
                && let Some(window) = web_sys::window()
            {
                window.clear_timeout_with_handle(id);
            }
        }
    };
    let on_pointer_down = {
        let long_press = long_press.clone();
        let detail = detail.clone();
        let cancel_press = cancel_press.clone();
        Callback::from(move |e: PointerEvent| {
            cancel_press();
            long_press.borrow_mut().1 = false;
            if e.pointer_type() != "touch" {
                return;
            }
            let Some((_, code)) = card_under(&e) else {
                return;
            };
            let fired = {
                let long_press = long_press.clone();
                let detail = detail.clone();
                Closure::once_into_js(move || {
                    *long_press.borrow_mut() = (None, true);
                    detail.set(Some(code));
                })
            };
            if let Some(window) = web_sys::window()
                && let Ok(id) = window.set_timeout_with_callback_and_timeout_and_arguments_0(
                    fired.unchecked_ref(),
                    LONG_PRESS_MS,
                )
            {
                long_press.borrow_mut().0 = Some(id);
            }
        })
    };
    let on_pointer_end = {
        let cancel_press = cancel_press.clone();
        Callback::from(move |_: PointerEvent| cancel_press())
    };
    // A long press may bring the browser's context menu: not over a card it opened.
    let on_context_menu = {
        let long_press = long_press.clone();
        Callback::from(move |e: MouseEvent| {
            if long_press.borrow().1 {
                e.prevent_default();
            }
        })
    };

    let pile_html = (*pile).map(|p| {
        let (title, cards) = match p {
            Pile::Graveyard => (ctx.t(T::Graveyard), view.you.graveyard.clone()),
            Pile::Banished => (ctx.t(T::Banished), view.you.banished.clone()),
            Pile::Extra => (ctx.t(T::ExtraMonsters), view.you.extra.clone()),
            Pile::OpponentGraveyard => (ctx.t(T::OpponentGraveyard), view.opponent.graveyard.clone()),
            Pile::OpponentBanished => (ctx.t(T::OpponentBanished), view.opponent.banished.clone()),
        };
        let on_close = {
            let pile = pile.clone();
            Callback::from(move |()| pile.set(None))
        };
        // Your Extra Deck offers its Synchro Summons.
        let (check, apply) = if p == Pile::Extra {
            (Some(on_check.clone()), Some(on_apply.clone()))
        } else {
            (None, None)
        };
        html! { <PileList title={title} zone={p.zone()} cards={cards} on_show_details={on_show_details.clone()} on_close={on_close}
            on_check={check} on_apply={apply} /> }
    });

    // EndTurn stopped in the End Phase because a Quick-Play Spell could still be activated.
    let end_phase_open = view.phase == Phase::End
        && view.outcome.is_none()
        && view.prompt.is_none()
        && view.chain.is_empty();
    let show_effect_dialog = view.outcome.is_none()
        && announced.reveal.is_none()
        && (view.prompt.is_some()
            || (view.chain_window && legal.iter().any(|c| *c != Command::PassChain)));

    // A duel that was not won gets its point of no return in the game-over dialog: the
    // duel is over, so what the search tells of the deck is no longer hidden.
    // (Not for a deck lab's duel: the search replays preset decks only.)
    let lost = view
        .outcome
        .filter(|o| !matches!(o, Outcome::Win(_)) && state.custom().is_none())
        .and(state.duel.as_ref())
        .map(|duel| NoReturn {
            deck: state.deck.clone(),
            custom: None,
            seed: state.seed,
            settings: state.settings,
            commands: duel.log().to_vec(),
            budget: NO_RETURN_BUDGET,
        });

    // The turn's buttons sit above the field, away from the hand's menus: a menu closing
    // must not leave the pointer on 「ターン終了」. They also ignore the pointer for a
    // moment after each action (see `.arming` in style.css), so a double click that
    // played a card does not end the turn too.
    let arming = if state.version % 2 == 0 {
        "arming-a"
    } else {
        "arming-b"
    };
    // Optional parts are single nodes (`unwrap_or_default`), never `{ for .. }`: Yew
    // matches unkeyed children from the end, so a child that comes and goes would rebuild
    // every element before it (losing the focus, the card positions and the LP count).
    html! {
        <section class="page simulator" data-testid="simulator" ref={page_ref}
            onpointerover={on_pointer_over} onpointerleave={on_pointer_leave} onfocusin={on_focus_in}
            onpointerdown={on_pointer_down} onpointerup={on_pointer_end.clone()} onpointercancel={on_pointer_end.clone()}
            onpointermove={{ let end = on_pointer_end.clone(); Callback::from(move |e: PointerEvent| if e.pointer_type() == "touch" && (e.movement_x().abs() + e.movement_y().abs()) > 8 { end.emit(e) }) }}
            oncontextmenu={on_context_menu}>
            <Toasts toasts={announced.items.clone()} lang={lang} />
            <DuelHeader view={view.clone()} lp_cue={announced.lp_cue} />
            <div class={classes!("actions", "turn-actions", arming)}>
                { menu_button(&end_turn, on_check.emit(Command::EndTurn), lang, None, &on_end_turn, &Callback::noop()) }
                if view.outcome.is_some() && *over_closed {
                    <button type="button" class="btn btn-primary" data-testid="btn-restart" onclick={on_restart.reform(|_: MouseEvent| ())}>
                        { ctx.t(T::Restart) }
                    </button>
                }
                <a class="btn" href="#/" data-testid="link-home">{ ctx.t(T::BackHome) }</a>
            </div>
            { notice.unwrap_or_default() }
            <div class="feedback">{ feedback.unwrap_or_default() }</div>
            <DuelField side={view.you.clone()} opponent={view.opponent.clone()} on_open_pile={on_open_pile} on_select_card={on_select_card}
                synchro_ready={legal.iter().any(|c| matches!(c, Command::SynchroSummon { .. }))} />
            if end_phase_open {
                <p class="notice" role="status" data-testid="end-phase-hint">{ ctx.t(T::EndPhaseHint) }</p>
            }
            <Hands cards={view.you.hand.clone()} on_check={on_check.clone()} on_apply={on_apply.clone()} on_show_details={on_show_details.clone()} />
            <PracticeBar state={state.clone()} version={state.version} on_hint_step={on_hint_step} />
            <DuelLog events={state.log.clone()} />
            if show_effect_dialog {
                // Keyed by the state version: a new question starts with nothing selected,
                // even when it looks like the previous one.
                <EffectDialog key={state.version} prompt={view.prompt.clone()} chain={view.chain.clone()} legal={legal.clone()}
                    on_check={on_check.clone()} on_apply={on_apply.clone()} on_look_up={on_look_up}
                    hint={(*hint_step).clone()} />
            }
            if let Some(outcome) = view.outcome.filter(|_| !*over_closed) {
                <GameOver outcome={outcome} analysis={lost.clone()} on_restart={on_restart.clone()} on_retry={on_retry}
                    on_close={{ let c = over_closed.clone(); Callback::from(move |()| c.set(true)) }} />
            }
            { field_menu_html.unwrap_or_default() }
            { pile_html.unwrap_or_default() }
            if let Some(reveal) = &announced.reveal {
                <RevealDialog reveal={reveal.clone()} lang={lang}
                    on_close={{ let t = announced.clone(); Callback::from(move |()| t.dispatch(AnnounceAction::DismissReveal)) }} />
            }
            { end_turn_confirm.unwrap_or_default() }
            if let Some(p) = *preview {
                <CardPreview preview={p} />
            }
            if let Some(code) = *detail {
                <CardDetail code={code} on_close={{ let d = detail.clone(); Callback::from(move |()| d.set(None)) }} />
            }
        </section>
    }
}
