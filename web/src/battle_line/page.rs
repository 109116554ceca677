//! The Battle Line page (`#/battle-line`): mode choice, the table, tap-to-play, the computer's turns and the autosave.
//!
//! The computer thinks in the Web Worker (`crate::worker`), so the page keeps answering
//! clicks and painting while it searches.

use std::rc::Rc;

use battle_line::bot::{Level, move_seed};
use battle_line::{
    Card, ClaimRefusal, ClaimTiming, Command, Deck, Phase, Player, Prompt, RuleError, Settings,
    Tactic, Target, Victory,
};
use yew::prelude::*;

use super::board::{Board, GuileField, Piles, Table, seat_name};
use super::card::card_static;
use super::computer::Thinking;
use super::hand::{Hand, OpponentHand};
use super::jobs::ComputerThink;
use super::state::{
    self, Action, BattleSave, BattleState, KEY_LEVEL, KEY_SAVE, Mode, Notice, Place, SAVE_VERSION,
};
use super::text;
use crate::ctx::{Ctx, use_ctx};
use crate::i18n::T;
use crate::keys;
use crate::storage;

/// The saved computer level, or `normal`.
fn saved_level() -> Level {
    storage::get(KEY_LEVEL)
        .and_then(|code| Level::from_code(&code))
        .unwrap_or_default()
}

/// The `seed` of the hash query (`#/battle-line?seed=42`); anything malformed is ignored.
pub fn seed_from_hash(hash: &str) -> Option<u64> {
    let (_, query) = hash.split_once('?')?;
    query
        .split('&')
        .filter_map(|pair| pair.split_once('='))
        .find(|(key, _)| *key == "seed")
        .and_then(|(_, value)| value.parse().ok())
}

fn address_seed() -> Option<u64> {
    let hash = web_sys::window()?.location().hash().ok()?;
    seed_from_hash(&hash)
}

/// A fresh seed from the browser (only ever called from an effect).
fn entropy_seed() -> u64 {
    let half = || (js_sys::Math::random() * 4_294_967_296.0) as u64;
    (half() << 32) | half()
}

#[function_component(BattleLinePage)]
pub fn battle_line_page() -> Html {
    let ctx = use_ctx();
    let state = use_reducer(BattleState::default);
    let selected = use_state(|| None::<Card>);
    let address_seed_used = use_mut_ref(|| false);
    let level = use_state(saved_level);
    // Whether the computer is thinking about its next command: work units done and
    // planned ((0, 0) before the first share is done).
    let thinking = use_state(|| None::<(usize, usize)>);
    let computer = use_memo((), |_| Thinking::default());
    let root = use_node_ref();
    // Whether the player last used the keyboard (rather than a pointer) on this page.
    let keyboard = use_mut_ref(|| false);

    {
        use_effect_with(*level, |level| {
            storage::set(KEY_LEVEL, level.code());
        });
    }

    // Read the autosave once. A save for another seed than the address asks for is left alone.
    {
        let dispatcher = state.dispatcher();
        use_effect_with((), move |_| {
            let wanted = address_seed();
            let (save, discarded) = match storage::get(KEY_SAVE) {
                None => (None, false),
                Some(json) => match BattleSave::load(&json) {
                    Some(loaded) if wanted.is_none_or(|s| s == loaded.0.record.seed) => {
                        (Some(Box::new(loaded)), false)
                    }
                    Some(_) => (None, false),
                    None => {
                        storage::remove(KEY_SAVE);
                        (None, true)
                    }
                },
            };
            dispatcher.dispatch(Action::Loaded { save, discarded });
        });
    }

    // Pick the next game's seed: the address's once, then browser entropy.
    {
        let dispatcher = state.dispatcher();
        let used = address_seed_used.clone();
        let needs_seed = state.loaded && state.seed.is_none() && state.game.is_none();
        use_effect_with(needs_seed, move |needs| {
            if *needs {
                let from_address = if *used.borrow() { None } else { address_seed() };
                *used.borrow_mut() = true;
                dispatcher.dispatch(Action::Seed(from_address.unwrap_or_else(entropy_seed)));
            }
        });
    }

    // Autosave after every accepted change.
    {
        let state = state.clone();
        use_effect_with(state.version, move |_| {
            if let (true, Some(mode), Some(game)) = (state.loaded, state.mode, &state.game) {
                let save = BattleSave {
                    version: SAVE_VERSION,
                    mode,
                    record: game.record(),
                };
                if let Some(json) = save.to_json() {
                    storage::set(KEY_SAVE, &json);
                }
            }
        });
    }

    // The computer's commands, thought out in the worker a share at a time. A newer
    // position (or level) drops the turn in progress, and with it its answers.
    {
        let state = state.clone();
        let thinking = thinking.clone();
        let computer = computer.clone();
        use_effect_with((state.version, *level), move |&(version, level)| {
            if let (Some(Mode::Cpu), Some(game)) = (state.mode, &state.game)
                && game.current() == Player::P1
                && !game.is_over()
            {
                let dispatcher = state.dispatcher();
                // Seeded from the game and the move number: a reload replays the same
                // choices.
                let seed = move_seed(game.seed(), game.log().len());
                let task = ComputerThink::new(game.clone(), level, seed, None);
                thinking.set(Some((0, 0)));
                let on_progress = {
                    let thinking = thinking.clone();
                    Callback::from(move |p: (usize, usize)| thinking.set(Some(p)))
                };
                let on_move = {
                    let thinking = thinking.clone();
                    Callback::from(move |command: Option<Command>| {
                        thinking.set(None);
                        if let Some(command) = command {
                            dispatcher.dispatch(Action::BotApply { version, command });
                        }
                    })
                };
                computer.start(task, on_progress, on_move);
            }
            move || {
                computer.stop();
                thinking.set(None);
            }
        });
    }

    // A selection never outlives the position it was made in.
    {
        let selected = selected.clone();
        use_effect_with(state.version, move |_| selected.set(None));
    }

    // Keyboard play: the focus goes where the player acts next. A card just selected sends
    // it to its first target; a button that the position removed or turned off (a card
    // played, a flag claimed, the computer's turn over) gives it to the next step of the
    // turn. Only for a player using the keyboard: a tap never moves the focus.
    {
        let root = root.clone();
        let keyboard = keyboard.clone();
        let next = next_focus(&state, *selected);
        let just_selected = selected.is_some();
        use_effect_with(
            // The seed too: a new game's mode buttons wait for it.
            (
                state.version,
                *selected,
                state.hand_hidden(),
                state.seed,
                next,
            ),
            move |(_, _, _, _, next)| {
                if !*keyboard.borrow() {
                    return;
                }
                let Some(root) = root.cast::<web_sys::Element>() else {
                    return;
                };
                if just_selected
                    && keys::focus_first(
                        &root,
                        ".bl-drop, .bl-deck.bl-target, [data-testid=discard].bl-target",
                    )
                {
                    return;
                }
                if keys::focus_lost()
                    && let Some(selector) = next
                {
                    keys::focus_first(&root, selector);
                }
            },
        );
    }

    let on_keydown = {
        let root = root.clone();
        let keyboard = keyboard.clone();
        let selected = selected.clone();
        Callback::from(move |e: KeyboardEvent| {
            *keyboard.borrow_mut() = true;
            let Some(root) = root.cast::<web_sys::Element>() else {
                return;
            };
            if e.key() == "Escape"
                && selected.is_some()
                && let Some(card) = keys::all(&root, ".bl-selected").into_iter().next()
            {
                // Back to the card, unselected, to choose again.
                e.prevent_default();
                let _ = card.focus();
                selected.set(None);
                return;
            }
            let _ = keys::step_in_row(&e, &root, "[data-testid=hand-card]")
                || keys::step_in_row(&e, &root, ".bl-drop")
                || keys::press_focused_button(&e);
        })
    };
    let on_pointerdown = {
        let keyboard = keyboard.clone();
        Callback::from(move |_: PointerEvent| *keyboard.borrow_mut() = false)
    };

    let Some(game) = state.game.clone() else {
        return html! {
            <section class="page bl-page" ref={root} onkeydown={on_keydown} onpointerdown={on_pointerdown}>
                { mode_choice(&ctx, &state, &level) }
            </section>
        };
    };
    let vs_cpu = state.mode == Some(Mode::Cpu);
    let header = header(&ctx, &state, &level);

    if state.hand_hidden() {
        let on_reveal = {
            let dispatcher = state.dispatcher();
            Callback::from(move |_: MouseEvent| dispatcher.dispatch(Action::Reveal))
        };
        let next = seat_name(|k| ctx.t(k), game.current(), false);
        // The table stays out of the DOM too: nothing of the next hand may show.
        return html! {
            <section class="page bl-page" ref={root} onkeydown={on_keydown} onpointerdown={on_pointerdown}>
                { header }
                <div class="bl-pass">
                    <h3>{ ctx.t(T::BlPassDevice) }</h3>
                    <p class="bl-pass-next">{ next }</p>
                    <button type="button" class="btn btn-primary" data-testid="pass-device" onclick={on_reveal}>
                        { ctx.t(T::BlContinue) }
                    </button>
                </div>
            </section>
        };
    }

    let viewer = state.viewer();
    let active = state.human_to_move();
    let selectable = if active {
        game.selectable_cards()
    } else {
        Vec::new()
    };
    let targets = match *selected {
        Some(card) if active => game
            .commands_for_card(card)
            .into_iter()
            .filter_map(|c| state::landing(c, game.current()).map(|p| (p, c)))
            .collect(),
        _ => Vec::new(),
    };
    let table = Rc::new(Table {
        claimable: game.provable_flags(viewer),
        game: game.clone(),
        viewer,
        active,
        selected: *selected,
        selectable,
        targets,
    });

    let apply = {
        let dispatcher = state.dispatcher();
        Callback::from(move |c: Command| dispatcher.dispatch(Action::Apply(c)))
    };
    let on_pick = {
        let table = table.clone();
        let selected = selected.clone();
        let apply = apply.clone();
        Callback::from(move |(place, card): (Place, Option<Card>)| {
            if table.selected.is_some()
                && let Some(command) = table.target(place)
            {
                selected.set(None);
                apply.emit(command);
                return;
            }
            // Cards the rules do not let the player pick (earlier turns) do nothing.
            if let Some(card) = card
                && table.selectable.contains(&card)
            {
                selected.set((table.selected != Some(card)).then_some(card));
            }
        })
    };
    let on_deck = {
        let table = table.clone();
        let selected = selected.clone();
        let apply = apply.clone();
        Callback::from(move |deck: Deck| {
            if let Some(command) = table.target(Place::Deck(deck)) {
                selected.set(None);
                apply.emit(command);
                return;
            }
            let found = table.game.legal_commands().into_iter().find(|c| {
                matches!(c, Command::ScoutDraw { deck: d } | Command::DrawAndEndTurn { deck: d } if *d == deck)
            });
            if let Some(command) = found {
                apply.emit(command);
            }
        })
    };
    let on_claim = apply.reform(|flag: u8| Command::ClaimFlag { flag });
    let on_sort = apply.reform(|player: Player| Command::SortHand { player });

    let legal = if active {
        game.legal_commands()
    } else {
        Vec::new()
    };
    let can_pass = legal.contains(&Command::Pass);
    let can_end = legal.contains(&Command::EndTurn);
    let on_pass = apply.reform(|_: MouseEvent| Command::Pass);
    let on_move_now = {
        let computer = computer.clone();
        Callback::from(move |_: MouseEvent| computer.move_now())
    };
    let on_end = apply.reform(|_: MouseEvent| Command::EndTurn);

    let guide = match game.phase() {
        Phase::Guile { .. } if active => html! {
            <p class="bl-guide bl-guile" data-testid="guile-guide">{ game.prompt().to_string() }</p>
        },
        _ if active => html! {
            <p class="bl-guide" data-testid="prompt">{ prompt_text(&ctx, game.prompt()) }</p>
        },
        _ if !game.is_over() && vs_cpu => html! {
            <p class="bl-guide" data-testid="prompt">
                { ctx.t(T::BlCpuThinking) }
                if let Some((done, total)) = *thinking {
                    <span class="bl-thinking" data-testid="bl-thinking" role="status">
                        { text::thinking(ctx.lang) }
                        if total > 0 {
                            <progress value={done.min(total).to_string()} max={total.to_string()}></progress>
                        } else {
                            <progress></progress>
                        }
                    </span>
                    <button type="button" class="btn" data-testid="bl-move-now" onclick={on_move_now}
                        title={text::move_now_hint(ctx.lang)}>
                        { text::move_now(ctx.lang) }
                    </button>
                }
            </p>
        },
        _ => Html::default(),
    };

    html! {
        <section class="page bl-page" ref={root} onkeydown={on_keydown} onpointerdown={on_pointerdown}>
            { header }
            { winner_banner(&ctx, &state) }
            { error_box(&ctx, &state) }
            { bot_summary(&ctx, &state) }
            { guide }
            <div class="bl-side">
                <OpponentHand table={table.clone()} />
                <GuileField table={table.clone()} seat={viewer.opponent()} on_pick={on_pick.clone()} />
            </div>
            <Board table={table.clone()} {vs_cpu} on_pick={on_pick.clone()} {on_claim} />
            <div class="bl-side">
                <GuileField table={table.clone()} seat={viewer} on_pick={on_pick.clone()} />
                <Piles table={table.clone()} {on_deck} on_pick={on_pick.clone()} />
            </div>
            if can_pass || can_end {
                <div class="btn-row">
                    if can_pass {
                        <button type="button" class="btn" data-testid="pass" onclick={on_pass}>{ ctx.t(T::BlPass) }</button>
                    }
                    if can_end {
                        <button type="button" class="btn btn-primary" data-testid="end-turn" onclick={on_end}>{ ctx.t(T::BlEndTurn) }</button>
                    }
                </div>
            }
            <Hand table={table} {on_pick} {on_sort} />
        </section>
    }
}

/// The computer's level (`data-testid="bl-level"`), saved in localStorage; a change
/// applies from the computer's next command.
fn level_select(ctx: &Ctx, level: &UseStateHandle<Level>) -> Html {
    let on_change = {
        let level = level.clone();
        Callback::from(move |e: Event| {
            if let Some(select) = e.target_dyn_into::<web_sys::HtmlSelectElement>()
                && let Some(l) = Level::from_code(&select.value())
            {
                level.set(l);
            }
        })
    };
    html! {
        <label class="bl-timing bl-level">
            { text::level_label(ctx.lang) }{ " " }
            <select data-testid="bl-level" onchange={on_change}>
                { for Level::ALL.into_iter().map(|l| html! {
                    <option value={l.code()} selected={l == **level}>{ text::level(l, ctx.lang) }</option>
                }) }
            </select>
        </label>
    }
}

/// Title, seed and the game buttons (undo, restart, new game).
fn header(ctx: &Ctx, state: &UseReducerHandle<BattleState>, level: &UseStateHandle<Level>) -> Html {
    let dispatch = |action: Action| {
        let dispatcher = state.dispatcher();
        Callback::from(move |_: MouseEvent| dispatcher.dispatch(action.clone()))
    };
    let mode = match state.mode {
        Some(Mode::Cpu) => ctx.t(T::BlModeCpu),
        Some(Mode::Pvp) => ctx.t(T::BlModePvp),
        None => "",
    };
    html! {
        <>
            <div class="bl-header">
                <h2>{ ctx.t(T::BattleLine) }</h2>
                <span class="muted" data-testid="seed">
                    { format!("{}: {}", ctx.t(T::BlSeed), state.seed.map(|s| s.to_string()).unwrap_or_default()) }
                </span>
                <span class="muted">{ mode }</span>
            </div>
            { notice(ctx, state) }
            if state.mode == Some(Mode::Cpu) {
                { level_select(ctx, level) }
            }
            if state.game.is_some() {
                <div class="btn-row">
                    <button type="button" class="btn" data-testid="undo" disabled={!state.can_undo()}
                        onclick={dispatch(Action::Undo)}>{ ctx.t(T::BlUndo) }</button>
                    <button type="button" class="btn" data-testid="restart"
                        onclick={dispatch(Action::Restart)}>{ ctx.t(T::BlRestart) }</button>
                    <button type="button" class="btn" data-testid="new-game"
                        onclick={dispatch(Action::NewGame)}>{ ctx.t(T::BlNewGame) }</button>
                </div>
            }
        </>
    }
}

fn notice(ctx: &Ctx, state: &BattleState) -> Html {
    match state.notice {
        Some(Notice::SaveDiscarded) => html! {
            <p class="notice" role="status" data-testid="save-notice">{ ctx.t(T::CorruptSave) }</p>
        },
        Some(Notice::Resumed) => html! {
            <p class="notice" role="status" data-testid="resume-notice">{ ctx.t(T::SaveRestored) }</p>
        },
        None => Html::default(),
    }
}

/// The start screen: seed, claim timing, the computer's level and the two modes.
fn mode_choice(
    ctx: &Ctx,
    state: &UseReducerHandle<BattleState>,
    level: &UseStateHandle<Level>,
) -> Html {
    let start = |mode: Mode| {
        let dispatcher = state.dispatcher();
        Callback::from(move |_: MouseEvent| dispatcher.dispatch(Action::Start(mode)))
    };
    let on_timing = {
        let dispatcher = state.dispatcher();
        Callback::from(move |e: Event| {
            let Some(select) = e.target_dyn_into::<web_sys::HtmlSelectElement>() else {
                return;
            };
            let claim_timing = match select.value().as_str() {
                "after" => ClaimTiming::AfterPlaying,
                "any" => ClaimTiming::Anytime,
                _ => ClaimTiming::StartOfTurn,
            };
            dispatcher.dispatch(Action::SetSettings(Settings { claim_timing }));
        })
    };
    let timing = state.settings.claim_timing;
    let ready = state.seed.is_some();
    html! {
        <>
            <div class="bl-header">
                <h2>{ ctx.t(T::BattleLine) }</h2>
                <span class="muted" data-testid="seed">
                    { format!("{}: {}", ctx.t(T::BlSeed), state.seed.map(|s| s.to_string()).unwrap_or_default()) }
                </span>
            </div>
            { notice(ctx, state) }
            <h3>{ ctx.t(T::BlChooseMode) }</h3>
            <label class="bl-timing">
                { ctx.t(T::BlClaimTiming) }{ " " }
                <select data-testid="claim-timing" onchange={on_timing}>
                    <option value="start" selected={timing == ClaimTiming::StartOfTurn}>{ ctx.t(T::BlTimingStart) }</option>
                    <option value="after" selected={timing == ClaimTiming::AfterPlaying}>{ ctx.t(T::BlTimingAfter) }</option>
                    <option value="any" selected={timing == ClaimTiming::Anytime}>{ ctx.t(T::BlTimingAny) }</option>
                </select>
            </label>
            { level_select(ctx, level) }
            <div class="btn-row">
                <button type="button" class="btn btn-primary" data-testid="mode-cpu" disabled={!ready}
                    onclick={start(Mode::Cpu)}>{ ctx.t(T::BlModeCpu) }</button>
                <button type="button" class="btn btn-primary" data-testid="mode-pvp" disabled={!ready}
                    onclick={start(Mode::Pvp)}>{ ctx.t(T::BlModePvp) }</button>
                // Online play only when the game server sent this page.
                if super::online::api_base().is_some() {
                    <a class="btn" data-testid="bl-online"
                        href={crate::route::Route::BattleLineOnline { room: None }.href()}>
                        { ctx.lang.pick("オンライン対戦", "Play online") }</a>
                }
            </div>
        </>
    }
}

/// Where the keyboard focus goes when the position took it away: the next step of the
/// player's turn, as a CSS selector under the page (the first match not disabled).
/// `None` while the computer or the other player is to move.
fn next_focus(state: &BattleState, selected: Option<Card>) -> Option<String> {
    let Some(game) = &state.game else {
        return Some("[data-testid=mode-cpu]".to_owned());
    };
    if game.is_over() {
        return Some("[data-testid=winner-new-game]".to_owned());
    }
    if state.hand_hidden() {
        return Some("[data-testid=pass-device]".to_owned());
    }
    if !state.human_to_move() || selected.is_some() {
        return None;
    }
    let hand_card = "[data-testid=hand-card]".to_owned();
    Some(match game.prompt() {
        Prompt::DrawCard | Prompt::ScoutDraw { .. } => {
            "[data-testid=draw-troop], [data-testid=draw-tactic]".to_owned()
        }
        Prompt::EndTurn => "[data-testid=end-turn]".to_owned(),
        // Nothing left to play: passing is the move.
        Prompt::PlayCard if game.legal_commands().contains(&Command::Pass) => {
            "[data-testid=pass]".to_owned()
        }
        // A guile tactic takes a card on the table: the first one it may take.
        Prompt::Redeploy | Prompt::Deserter | Prompt::Traitor => {
            let hand = game.hand(game.current());
            game.selectable_cards()
                .into_iter()
                .find(|c| !hand.contains(c))
                .map_or(hand_card, |c| {
                    format!(
                        "[data-testid=board] [data-testid=card][data-card-id='{}']",
                        state::card_id(c)
                    )
                })
        }
        _ => hand_card,
    })
}

fn prompt_text(ctx: &Ctx, prompt: Prompt) -> String {
    match prompt {
        Prompt::PlayCard => ctx.t(T::BlPromptPlay).to_owned(),
        Prompt::DrawCard => ctx.t(T::BlPromptDraw).to_owned(),
        Prompt::EndTurn => ctx.t(T::BlPromptEnd).to_owned(),
        Prompt::ScoutDraw { left } => format!("{} ({left})", ctx.t(T::BlPromptScoutDraw)),
        Prompt::ScoutReturn { left } => format!("{} ({left})", ctx.t(T::BlPromptScoutReturn)),
        // Guile prompts keep the engine's exact wording (seed 001's guide strings).
        other => other.to_string(),
    }
}

fn winner_banner(ctx: &Ctx, state: &UseReducerHandle<BattleState>) -> Html {
    let Some(game) = &state.game else {
        return Html::default();
    };
    let vs_cpu = state.mode == Some(Mode::Cpu);
    let text = match game.phase() {
        Phase::GameOver { winner, by } => {
            let who = seat_name(|k| ctx.t(k), winner, vs_cpu);
            let why = match by {
                Victory::Breakthrough => ctx.t(T::BlBreakthrough),
                Victory::Envelopment => ctx.t(T::BlEnvelopment),
            };
            format!("{who} {} — {why}", ctx.t(T::BlWins))
        }
        Phase::Stalemate => ctx.t(T::BlStalemate).to_owned(),
        _ => return Html::default(),
    };
    let on_new = {
        let dispatcher = state.dispatcher();
        Callback::from(move |_: MouseEvent| dispatcher.dispatch(Action::NewGame))
    };
    html! {
        <div class="bl-winner" data-testid="winner" role="status">
            <strong>{ text }</strong>
            <button type="button" class="btn btn-primary" data-testid="winner-new-game" onclick={on_new}>
                { ctx.t(T::BlNewGame) }
            </button>
        </div>
    }
}

/// The last refused command; a refused claim lists the counterexample cards.
fn error_box(ctx: &Ctx, state: &UseReducerHandle<BattleState>) -> Html {
    let Some(error) = &state.last_error else {
        return Html::default();
    };
    let on_close = {
        let dispatcher = state.dispatcher();
        Callback::from(move |_: MouseEvent| dispatcher.dispatch(Action::DismissError))
    };
    let (title, cards) = match error {
        RuleError::ClaimRefused { reason, .. } => {
            let cards = match reason {
                ClaimRefusal::OpponentCanBeat { cards, .. } => cards.clone(),
                _ => Vec::new(),
            };
            (ctx.t(T::BlClaimRefused), cards)
        }
        _ => (ctx.t(T::BlRefused), Vec::new()),
    };
    html! {
        <div class="error" role="alert" data-testid="rule-error">
            <strong>{ title }</strong>{ " " }<span data-testid="rule-error-text">{ text::rule_error(error, ctx.lang) }</span>
            if !cards.is_empty() {
                <div class="bl-counter" data-testid="counterexample">
                    <span>{ ctx.t(T::BlCounterexample) }</span>
                    { for cards.into_iter().map(|t| card_static(Card::Troop(t), "counter-card", ctx.lang)) }
                </div>
            }
            <button type="button" class="btn" onclick={on_close}>{ ctx.t(T::Close) }</button>
        </div>
    }
}

/// What the computer did in its latest turn.
fn bot_summary(ctx: &Ctx, state: &BattleState) -> Html {
    if state.mode != Some(Mode::Cpu) || state.bot_turn.is_empty() {
        return Html::default();
    }
    let items: Vec<String> = state
        .bot_turn
        .iter()
        .filter_map(|c| describe(ctx, *c))
        .collect();
    html! {
        <p class="bl-bot" data-testid="bot-move">
            <strong>{ ctx.t(T::BlCpuLast) }{ ": " }</strong>{ items.join(" · ") }
        </p>
    }
}

/// A short public description of a command (drawn cards are not named).
fn describe(ctx: &Ctx, command: Command) -> Option<String> {
    let name = |card: Card| text::card(card, ctx.lang);
    let guile = |tactic: Tactic| text::tactic(tactic, ctx.lang);
    Some(match command {
        Command::PlayCard {
            card,
            target: Target::Flag { flag },
        } => format!("{} → ⚑{}", name(card), flag + 1),
        Command::PlayCard { card, .. } => name(card),
        Command::MoveCard { card, flag } => format!("{} → ⚑{}", name(card), flag + 1),
        Command::ResolveRedeploy { card, .. } => {
            format!("{}: {}", guile(Tactic::Redeploy), name(card))
        }
        Command::ResolveDeserter { card } => format!("{}: {}", guile(Tactic::Deserter), name(card)),
        Command::ResolveTraitor { card, flag } => {
            format!(
                "{}: {} → ⚑{}",
                guile(Tactic::Traitor),
                name(Card::Troop(card)),
                flag + 1
            )
        }
        Command::ClaimFlag { flag } => format!("{} ⚑{}", ctx.t(T::BlClaimed), flag + 1),
        Command::DrawAndEndTurn { .. } | Command::ScoutDraw { .. } => {
            ctx.t(T::BlDrewCard).to_owned()
        }
        Command::Pass => ctx.t(T::BlPass).to_owned(),
        Command::ScoutReturn { .. } | Command::EndTurn | Command::SortHand { .. } => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::seed_from_hash;

    #[test]
    fn seeds_come_from_the_hash_query_only_when_valid() {
        assert_eq!(seed_from_hash("#/battle-line?seed=42"), Some(42));
        assert_eq!(seed_from_hash("#/battle-line?x=1&seed=7"), Some(7));
        assert_eq!(seed_from_hash("#/battle-line"), None);
        assert_eq!(seed_from_hash("#/battle-line?seed=-3"), None);
        assert_eq!(seed_from_hash("#/battle-line?seed="), None);
    }
}
