//! Battle Line online (`#/battle-line/online`): the lobby (public rooms, make a room,
//! join by id), the first-player game, and the table drawn from this seat's view only.
//!
//! The server referees: every click is a command sent with the room's version and an
//! idempotency key; the answer (or a refusal, which carries the current state) is
//! adopted at once, and the room's stream says when the other player changed it.

use battle_line::{Card, Command, Deck, Destination, Flag, Player, Target, command_card};
use wasm_bindgen::JsCast;
use yew::platform::spawn_local;
use yew::prelude::*;

use super::card::{CardButton, card_static};
use super::online::{
    self, Connection, Entered, ListedRoom, Refused, RoomCommand, RoomView, SeatView, StreamEvent,
    TableView,
};
use super::text;
use crate::ctx::{replace_route, use_ctx};
use crate::i18n::Lang;
use crate::route::Route;

#[derive(Debug, Properties, PartialEq, Clone)]
pub struct OnlinePageProps {
    /// The address's `room`, if any (validated here).
    pub room: Option<String>,
}

/// What the page shows.
#[derive(Debug, Clone, PartialEq)]
enum Screen {
    /// The lobby, with the join-by-id field filled in.
    Lobby { join_id: String },
    /// After a reload: this browser holds a seat of the room; go back to it?
    Resume { room: String },
    /// In a room, with this browser's seat token (none: watching).
    Room { room: String, token: Option<String> },
}

fn pick(lang: Lang, ja: &'static str, en: &'static str) -> &'static str {
    lang.pick(ja, en)
}

/// A refusal in the player's words.
fn refusal_text(r: &Refused, lang: Lang) -> String {
    let ja = lang == Lang::Ja;
    match r.code.as_str() {
        "ROOM_FULL" => pick(
            lang,
            "この部屋は満員です（2人とも着席済み）",
            "This room is full: both seats are taken",
        )
        .to_owned(),
        "ROOM_NOT_FOUND" => pick(
            lang,
            "その部屋はありません（閉じられたか、IDの誤り）",
            "There is no such room (closed, or a wrong id)",
        )
        .to_owned(),
        "INVALID_ROOM_ID" => pick(
            lang,
            "部屋IDは12文字の英数字です",
            "A room id is 12 letters and digits",
        )
        .to_owned(),
        "INVALID_NAME" => {
            if r.details.field.as_deref() == Some("name") {
                pick(
                    lang,
                    "部屋名は1〜16文字の文字・数字・_ です",
                    "The room name must be 1-16 letters, digits or _",
                )
                .to_owned()
            } else {
                pick(
                    lang,
                    "ニックネームは1〜16文字の文字・数字・_ です",
                    "The nickname must be 1-16 letters, digits or _",
                )
                .to_owned()
            }
        }
        "NOT_YOUR_TURN" => pick(lang, "相手の手番です", "It is the other player's turn").to_owned(),
        "CARD_TAKEN" => pick(
            lang,
            "そのカードは相手が選びました",
            "The other player picked that card",
        )
        .to_owned(),
        "ALREADY_PICKED" => {
            pick(lang, "カードはもう選びました", "You have picked your card").to_owned()
        }
        "NOT_THE_CHOOSER" => pick(
            lang,
            "先攻・後攻は大きいカードを引いた人が選びます",
            "The player with the higher card chooses",
        )
        .to_owned(),
        "STALE_VERSION" => pick(
            lang,
            "盤面が更新されていました。最新の状態を表示しています",
            "The table had changed: showing its current state",
        )
        .to_owned(),
        "ROOM_ABANDONED" => pick(
            lang,
            "相手が退出したため、この対局は終了しました",
            "A player left: this game is over",
        )
        .to_owned(),
        // The page offers only the legal commands of the state it shows, so this
        // is rare: the engine's reason, as the server words it.
        "RULE_REFUSED" if ja => format!("その手は今はできません（{}）", r.message),
        "RULE_REFUSED" => format!("That move is not allowed now ({})", r.message),
        "NETWORK" => pick(
            lang,
            "サーバーに届きませんでした。接続が戻ったら送り直します",
            "The server could not be reached; the move is sent again when the connection is back",
        )
        .to_owned(),
        _ if ja => format!("サーバーが断りました：{}", r.message),
        _ => format!("The server refused: {}", r.message),
    }
}

fn flag_no(flag: u8) -> u8 {
    flag + 1
}

/// A legal command in words, for the list of what may be done now: a verb, then the
/// card, the flag or the deck it acts on (built by pushing pieces: one small function).
fn command_text(c: &Command, lang: Lang) -> String {
    let (verb, card, flag, deck): (&str, Option<Card>, Option<u8>, Option<Deck>) = match *c {
        Command::ClaimFlag { flag } => {
            (pick(lang, "旗を取る", "Claim flag"), None, Some(flag), None)
        }
        Command::PlayCard {
            card,
            target: Target::Flag { flag },
        } => (pick(lang, "出す", "Play"), Some(card), Some(flag), None),
        Command::PlayCard {
            card,
            target: Target::Field,
        } => (pick(lang, "使う", "Play"), Some(card), None, None),
        Command::MoveCard { card, flag } => {
            (pick(lang, "移す", "Move"), Some(card), Some(flag), None)
        }
        Command::ResolveRedeploy {
            card,
            to: Destination::Flag { flag },
        } => (
            pick(lang, "配置転換", "Redeploy"),
            Some(card),
            Some(flag),
            None,
        ),
        Command::ResolveRedeploy {
            card,
            to: Destination::Discard,
        } => (
            pick(lang, "配置転換：捨てる", "Redeploy: discard"),
            Some(card),
            None,
            None,
        ),
        Command::ResolveDeserter { card } => (
            pick(lang, "脱走：捨てさせる", "Deserter: discard"),
            Some(card),
            None,
            None,
        ),
        Command::ResolveTraitor { card, flag } => (
            pick(lang, "裏切り", "Traitor"),
            Some(Card::Troop(card)),
            Some(flag),
            None,
        ),
        Command::ScoutDraw { deck } => (
            pick(lang, "偵察：引く", "Scout: draw"),
            None,
            None,
            Some(deck),
        ),
        Command::ScoutReturn { card } => (
            pick(lang, "偵察：山に戻す", "Scout: put back"),
            Some(card),
            None,
            None,
        ),
        Command::Pass => (pick(lang, "パス", "Pass"), None, None, None),
        Command::DrawAndEndTurn { deck } => (
            pick(lang, "引いて手番終了", "Draw and end the turn"),
            None,
            None,
            Some(deck),
        ),
        Command::EndTurn => (pick(lang, "手番終了", "End the turn"), None, None, None),
        Command::SortHand { .. } => (
            pick(lang, "手札を並べる", "Sort the hand"),
            None,
            None,
            None,
        ),
    };
    let mut out = verb.to_owned();
    if let Some(card) = card {
        out.push(' ');
        out.push_str(&text::card(card, lang));
    }
    if let Some(flag) = flag {
        out.push_str(pick(lang, " → 旗", " → flag "));
        out.push(char::from(b'1' + flag.min(8)));
    }
    if let Some(deck) = deck {
        out.push_str(match deck {
            Deck::Troop => pick(lang, "（部隊）", " (troop)"),
            Deck::Tactic => pick(lang, "（戦術）", " (tactic)"),
        });
    }
    out
}

fn go(screen: &UseStateHandle<Screen>, next: Screen) {
    let route = match &next {
        Screen::Lobby { .. } => Route::BattleLineOnline { room: None },
        Screen::Resume { room } | Screen::Room { room, .. } => Route::BattleLineOnline {
            room: Some(room.clone()),
        },
    };
    replace_route(&route);
    screen.set(next);
}

fn input_value(e: &InputEvent) -> String {
    e.target()
        .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
        .map(|i| i.value())
        .unwrap_or_default()
}

#[function_component(OnlinePage)]
pub fn online_page(props: &OnlinePageProps) -> Html {
    let lang = use_ctx().lang;
    let api = use_memo((), |()| online::api_base());
    let screen = {
        let room = props.room.clone();
        use_state(move || match room.filter(|r| online::valid_room_id(r)) {
            Some(room) if online::saved_token(&room).is_some() => Screen::Resume { room },
            Some(room) => Screen::Lobby { join_id: room },
            None => Screen::Lobby {
                join_id: String::new(),
            },
        })
    };
    let Some(base) = (*api).clone() else {
        return html! {
            <section class="page" data-testid="bl-lobby">
                <h2>{ pick(lang, "オンライン対戦", "Play online") }</h2>
                <p role="status">{ pick(lang,
                    "オンライン対戦はゲームサーバーから開いたページでのみ遊べます。コンピューター戦と2人対戦はこのままで遊べます。",
                    "Online play needs the page opened from the game server. The computer and two players on one device work here as they are.") }</p>
                <a class="btn" href={Route::BattleLine.href()}>{ pick(lang, "バトルラインへ戻る", "Back to Battle Line") }</a>
            </section>
        };
    };
    match (*screen).clone() {
        Screen::Lobby { join_id } => html! {
            <Lobby base={base} join_id={join_id} on_enter={
                let screen = screen.clone();
                Callback::from(move |(room, token): (String, Option<String>)| go(&screen, Screen::Room { room, token }))
            } />
        },
        Screen::Resume { room } => {
            let on_resume = {
                let (screen, room) = (screen.clone(), room.clone());
                Callback::from(move |_: MouseEvent| {
                    let token = online::saved_token(&room);
                    go(
                        &screen,
                        Screen::Room {
                            room: room.clone(),
                            token,
                        },
                    );
                })
            };
            let on_lobby = {
                let screen = screen.clone();
                Callback::from(move |_: MouseEvent| {
                    go(
                        &screen,
                        Screen::Lobby {
                            join_id: String::new(),
                        },
                    )
                })
            };
            html! {
                <section class="page" data-testid="bl-resume">
                    <h2>{ pick(lang, "対局に戻りますか？", "Go back to your game?") }</h2>
                    <p>{ pick(lang, "このブラウザはこの部屋の席を持っています：", "This browser holds a seat in the room ") }<code>{ room }</code></p>
                    <button type="button" class="btn btn-primary" data-testid="bl-reconnect" onclick={on_resume}>
                        { pick(lang, "同じ席に戻る", "Rejoin my seat") }
                    </button>
                    <button type="button" class="btn" data-testid="bl-back-to-lobby" onclick={on_lobby}>
                        { pick(lang, "ロビーへ", "To the lobby") }
                    </button>
                </section>
            }
        }
        Screen::Room { room, token } => {
            let on_leave = {
                let screen = screen.clone();
                Callback::from(move |()| {
                    go(
                        &screen,
                        Screen::Lobby {
                            join_id: String::new(),
                        },
                    )
                })
            };
            let key = room.clone();
            html! { <RoomScreen {key} base={base} room={room} token={token} on_leave={on_leave} /> }
        }
    }
}

#[derive(Debug, Properties, PartialEq, Clone)]
struct LobbyProps {
    base: String,
    join_id: String,
    /// A room entered: its id and this browser's seat token.
    on_enter: Callback<(String, Option<String>)>,
}

#[function_component(Lobby)]
fn lobby(props: &LobbyProps) -> Html {
    let lang = use_ctx().lang;
    let rooms = use_state(|| None::<Result<Vec<ListedRoom>, Refused>>);
    let name = use_state(String::new);
    let nickname = use_state(String::new);
    let private = use_state(|| false);
    let join_id = use_state(|| props.join_id.clone());
    let error = use_state(|| None::<Refused>);
    let busy = use_state(|| false);

    let refresh = {
        let (rooms, base) = (rooms.clone(), props.base.clone());
        Callback::from(move |()| {
            let (rooms, base) = (rooms.clone(), base.clone());
            spawn_local(async move { rooms.set(Some(online::list(&base).await)) });
        })
    };
    {
        let refresh = refresh.clone();
        use_effect_with((), move |()| refresh.emit(()));
    }
    let entered = {
        let (on_enter, error, busy) = (props.on_enter.clone(), error.clone(), busy.clone());
        move |result: Result<Entered, Refused>| {
            busy.set(false);
            match result {
                Ok(e) => on_enter.emit((e.room, Some(e.token))),
                Err(r) => error.set(Some(r)),
            }
        }
    };
    let join = {
        let (base, nickname, error, busy) = (
            props.base.clone(),
            nickname.clone(),
            error.clone(),
            busy.clone(),
        );
        let entered = entered.clone();
        Callback::from(move |room: String| {
            if !online::valid_room_id(&room) {
                error.set(Some(Refused::local("INVALID_ROOM_ID")));
                return;
            }
            busy.set(true);
            error.set(None);
            let (base, nickname, entered) = (base.clone(), (*nickname).clone(), entered.clone());
            spawn_local(async move { entered(online::join(&base, &room, &nickname).await) });
        })
    };
    let on_create = {
        let (base, name, nickname, private, error, busy) = (
            props.base.clone(),
            name.clone(),
            nickname.clone(),
            private.clone(),
            error.clone(),
            busy.clone(),
        );
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            busy.set(true);
            error.set(None);
            let (base, name, nickname, private) =
                (base.clone(), (*name).clone(), (*nickname).clone(), *private);
            let entered = entered.clone();
            spawn_local(
                async move { entered(online::create(&base, &name, &nickname, private).await) },
            );
        })
    };
    let on_join_id = {
        let (join, join_id) = (join.clone(), join_id.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            join.emit(join_id.trim().to_ascii_lowercase());
        })
    };
    let watch = {
        let on_enter = props.on_enter.clone();
        move |room: String| {
            let on_enter = on_enter.clone();
            Callback::from(move |_: MouseEvent| on_enter.emit((room.clone(), None)))
        }
    };
    let list = match &*rooms {
        None => html! { <p>{ pick(lang, "読み込み中…", "Loading…") }</p> },
        Some(Err(r)) => html! { <p role="alert">{ refusal_text(r, lang) }</p> },
        Some(Ok(list)) if list.is_empty() => {
            html! { <p>{ pick(lang, "公開中の部屋はありません", "No public rooms right now") }</p> }
        }
        Some(Ok(list)) => html! {
            <ul class="bl-rooms" style="list-style:none;padding:0">
                { for list.iter().map(|r| {
                    let on_join = { let (join, id) = (join.clone(), r.room_id.clone()); Callback::from(move |_: MouseEvent| join.emit(id.clone())) };
                    html! {
                        <li data-testid="bl-room" data-room-id={r.room_id.clone()} style="display:flex;gap:.5rem;align-items:center;flex-wrap:wrap;margin:.25rem 0">
                            <strong>{ r.name.clone() }</strong>
                            <span>{ format!("{}{}", pick(lang, "ホスト：", "host: "), r.host) }</span>
                            <span>{ format!("{}/2", r.seats) }</span>
                            if r.full {
                                <button type="button" class="btn" onclick={watch(r.room_id.clone())}>{ pick(lang, "観戦する", "Watch") }</button>
                            } else {
                                <button type="button" class="btn btn-primary" data-testid="bl-join" disabled={*busy} onclick={on_join}>{ pick(lang, "参加する", "Join") }</button>
                            }
                        </li>
                    }
                }) }
            </ul>
        },
    };
    let set = |h: &UseStateHandle<String>| {
        let h = h.clone();
        Callback::from(move |e: InputEvent| h.set(input_value(&e)))
    };
    html! {
        <section class="page" data-testid="bl-lobby">
            <h2>{ pick(lang, "バトルライン オンライン対戦", "Battle Line online") }</h2>
            if let Some(r) = &*error {
                if r.code == "ROOM_FULL" {
                    <p role="alert" data-testid="bl-room-full">{ refusal_text(r, lang) }</p>
                } else {
                    <p role="alert" data-testid="bl-error">{ refusal_text(r, lang) }</p>
                }
            }
            <label>{ pick(lang, "ニックネーム（1〜16文字）", "Nickname (1-16 characters)") }
                <input data-testid="bl-nickname" maxlength="16" value={(*nickname).clone()} oninput={set(&nickname)} />
            </label>
            <h3>{ pick(lang, "公開中の部屋", "Public rooms") }</h3>
            { list }
            <button type="button" class="btn" onclick={refresh.reform(|_: MouseEvent| ())}>{ pick(lang, "一覧を更新", "Refresh") }</button>
            <h3>{ pick(lang, "部屋を作る", "Make a room") }</h3>
            <form onsubmit={on_create}>
                <label>{ pick(lang, "部屋名（1〜16文字）", "Room name (1-16 characters)") }
                    <input data-testid="bl-room-name" maxlength="16" value={(*name).clone()} oninput={set(&name)} />
                </label>
                <label>
                    <input type="checkbox" data-testid="bl-private" checked={*private}
                        onchange={ let p = private.clone(); Callback::from(move |_: Event| p.set(!*p)) } />
                    { pick(lang, "非公開（IDを知る人だけ参加）", "Private (joined by id only)") }
                </label>
                <button type="submit" class="btn btn-primary" data-testid="bl-create-room" disabled={*busy}>{ pick(lang, "作成", "Create") }</button>
            </form>
            <h3>{ pick(lang, "IDで参加", "Join by id") }</h3>
            <form onsubmit={on_join_id}>
                <input data-testid="bl-join-id" maxlength="12" value={(*join_id).clone()} oninput={set(&join_id)}
                    aria-label={pick(lang, "部屋ID", "Room id")} />
                <button type="submit" class="btn" data-testid="bl-join-id-go" disabled={*busy}>{ pick(lang, "参加", "Join") }</button>
            </form>
            <p><a href={Route::BattleLine.href()}>{ pick(lang, "コンピューター戦・2人対戦へ", "Play the computer or two on one device") }</a></p>
        </section>
    }
}

#[derive(Debug, Properties, PartialEq, Clone)]
struct RoomProps {
    base: String,
    room: String,
    /// None: watching.
    token: Option<String>,
    on_leave: Callback<()>,
}

/// A command waiting for an answer, sent again with its key until one comes.
#[derive(Debug, Clone, PartialEq)]
struct Pending {
    version: u64,
    key: String,
    command: RoomCommand,
}

#[function_component(RoomScreen)]
fn room_screen(props: &RoomProps) -> Html {
    let lang = use_ctx().lang;
    let state = use_state(|| None::<(u64, RoomView)>);
    let connection = use_state(|| Connection::Reconnecting);
    let error = use_state(|| None::<Refused>);
    let selected = use_state(|| None::<Card>);
    let confirm = use_state(|| false);
    let pending = use_state(|| None::<Pending>);

    // Adopts a state of the room unless one at a later version is shown already: reads,
    // commands and the stream's reads run side by side, and their answers may come back
    // in any order (a read answered before a command applied can arrive after the
    // command's own answer). A handle reads the current state, whichever render made it.
    let adopt = {
        let state = state.clone();
        move |now: (u64, RoomView)| {
            if state.as_ref().is_none_or(|(shown, _)| *shown <= now.0) {
                state.set(Some(now));
            }
        }
    };

    // Reads this seat's view and adopts it if it is newer than the shown one.
    let load = {
        let (base, room, token, adopt, error) = (
            props.base.clone(),
            props.room.clone(),
            props.token.clone(),
            adopt.clone(),
            error.clone(),
        );
        Callback::from(move |()| {
            let (base, room, token, adopt, error) = (
                base.clone(),
                room.clone(),
                token.clone(),
                adopt.clone(),
                error.clone(),
            );
            spawn_local(async move {
                match online::fetch(&base, &room, token.as_deref()).await {
                    Ok(now) => adopt(now),
                    Err(r) => error.set(Some(r)),
                }
            });
        })
    };
    // Sends a command; any answer or refusal brings the room's current state.
    let send = {
        let (base, room, token) = (props.base.clone(), props.room.clone(), props.token.clone());
        let (adopt, error, selected, pending) = (
            adopt.clone(),
            error.clone(),
            selected.clone(),
            pending.clone(),
        );
        Callback::from(move |p: Pending| {
            let Some(token) = token.clone() else { return };
            let (base, room) = (base.clone(), room.clone());
            let (adopt, error, selected, pending) = (
                adopt.clone(),
                error.clone(),
                selected.clone(),
                pending.clone(),
            );
            pending.set(Some(p.clone()));
            spawn_local(async move {
                let answer = online::send(&base, &room, &token, p.version, &p.key, p.command).await;
                selected.set(None);
                match answer {
                    Ok(now) => {
                        pending.set(None);
                        error.set(None);
                        adopt(now);
                    }
                    // Kept: sent again with the same key when the stream is back.
                    Err(r) if r.code == "NETWORK" => error.set(Some(r)),
                    Err(r) => {
                        pending.set(None);
                        if let Some(now) = r.current() {
                            adopt(now);
                        }
                        error.set(Some(r));
                    }
                }
            });
        })
    };
    let act = {
        let (state, send, pending) = (state.clone(), send.clone(), pending.clone());
        Callback::from(move |command: RoomCommand| {
            // One command at a time: a click while one waits for its answer (the second
            // click of a double click) is dropped, not sent against the same version.
            if pending.is_some() {
                return;
            }
            let Some((version, _)) = &*state else { return };
            send.emit(Pending {
                version: *version,
                key: online::new_key(),
                command,
            });
        })
    };
    let play = act.reform(|command: Command| RoomCommand::Play { command });

    // The room's stream: a newer version means "read your view again".
    {
        let (base, room) = (props.base.clone(), props.room.clone());
        let (state, connection, load, pending, send, error) = (
            state.clone(),
            connection.clone(),
            load.clone(),
            pending.clone(),
            send.clone(),
            error.clone(),
        );
        let on_leave = props.on_leave.clone();
        use_effect_with(room.clone(), move |_| {
            let url_room = room.clone();
            let on_event = Callback::from(move |event: StreamEvent| match event {
                StreamEvent::Data(v) => {
                    if state.as_ref().is_none_or(|(shown, _)| *shown < v) {
                        load.emit(());
                    }
                }
                StreamEvent::Connection(c) => {
                    connection.set(c);
                    if c == Connection::Connected {
                        // Back: catch up, and send again what did not get an answer.
                        load.emit(());
                        if let Some(p) = (*pending).clone() {
                            send.emit(p);
                        }
                    }
                }
                StreamEvent::Deleted => {
                    online::forget_token(&room);
                    error.set(Some(Refused::local("ROOM_NOT_FOUND")));
                    on_leave.emit(());
                }
            });
            let stream = online::open_stream(&base, &url_room, on_event);
            move || drop(stream)
        });
    }

    let on_leave = {
        let (confirm, base, room, token, on_leave) = (
            confirm.clone(),
            props.base.clone(),
            props.room.clone(),
            props.token.clone(),
            props.on_leave.clone(),
        );
        Callback::from(move |_: MouseEvent| {
            confirm.set(false);
            let (base, room, token, on_leave) =
                (base.clone(), room.clone(), token.clone(), on_leave.clone());
            spawn_local(async move {
                if let Some(token) = token {
                    // Leaving a room that is gone already is still leaving.
                    let _ = online::leave(&base, &room, &token).await;
                    online::forget_token(&room);
                }
                on_leave.emit(());
            });
        })
    };

    let Some((_, view)) = (*state).clone() else {
        return html! {
            <section class="page" data-testid="bl-room">
                <p>{ pick(lang, "部屋を読み込み中…", "Loading the room…") }</p>
                if let Some(r) = &*error { <p role="alert" data-testid="bl-error">{ refusal_text(r, lang) }</p> }
            </section>
        };
    };
    let seated = props.token.is_some() && view.you.is_some();
    let nick = |i: usize| {
        view.nicknames[i]
            .clone()
            .unwrap_or_else(|| pick(lang, "（空席）", "(open)").to_owned())
    };
    let link = web_sys::window()
        .and_then(|w| {
            let l = w.location();
            Some(format!(
                "{}{}#/battle-line/online?room={}",
                l.origin().ok()?,
                l.pathname().ok()?,
                props.room
            ))
        })
        .unwrap_or_default();
    html! {
        <section class="page bl-online" data-testid="bl-table-online">
            <header style="display:flex;flex-wrap:wrap;gap:.75rem;align-items:center">
                <h2 style="margin:0">{ view.name.clone() }</h2>
                <span>{ pick(lang, "部屋ID ", "Room ") }<code data-testid="bl-room-id" data-value={props.room.clone()}>{ props.room.clone() }</code></span>
                <input readonly=true value={link} aria-label={pick(lang, "相手に送るリンク", "Link to send")} style="min-width:12rem;flex:1" />
                if view.seat != "pending" {
                    <span data-testid="bl-seat" data-value={view.seat.clone()}>{ seat_text(&view.seat, lang) }</span>
                }
                <span data-testid="bl-connection" data-state={connection.as_str()} aria-live="polite">{ connection_text(*connection, lang) }</span>
                if seated {
                    <button type="button" class="btn" data-testid="bl-leave" onclick={ let c = confirm.clone(); Callback::from(move |_: MouseEvent| c.set(true)) }>
                        { pick(lang, "対局をやめる", "Leave the game") }
                    </button>
                } else {
                    <button type="button" class="btn" onclick={ let l = props.on_leave.clone(); Callback::from(move |_: MouseEvent| l.emit(())) }>
                        { pick(lang, "ロビーへ", "To the lobby") }
                    </button>
                }
            </header>
            if *confirm {
                <div role="dialog" aria-modal="false" class="bl-confirm" style="margin:.5rem 0">
                    <p>{ pick(lang, "本当に退出しますか？対局中なら、この対局はここで終わります。", "Leave? During a game, the game ends here.") }</p>
                    <button type="button" class="btn btn-primary" data-testid="bl-leave-confirm" onclick={on_leave}>{ pick(lang, "退出する", "Leave") }</button>
                    <button type="button" class="btn" onclick={ let c = confirm.clone(); Callback::from(move |_: MouseEvent| c.set(false)) }>{ pick(lang, "続ける", "Stay") }</button>
                </div>
            }
            <p>{ format!("{} {} / {} {}", pick(lang, "ホスト", "Host"), nick(0), pick(lang, "ゲスト", "Guest"), nick(1)) }</p>
            if let Some(r) = &*error {
                <p role="alert" data-testid="rule-error"><span data-testid="rule-error-text">{ refusal_text(r, lang) }</span></p>
            }
            if pending.is_some() {
                <p role="status" data-testid="bl-pending">{ pick(lang, "送信中…", "Sending…") }</p>
            }
            { match view.stage.as_str() {
                "firstPlayer" | "choosing" => first_player(&view, seated, &act, lang),
                _ => match (&view.game, &view.table) {
                    (Some(v), _) => seat_table(v, &view, *selected, &selected, &play, lang),
                    (None, Some(t)) => watcher_table(t, lang),
                    (None, None) => html! {},
                },
            } }
        </section>
    }
}

fn seat_text(seat: &str, lang: Lang) -> &'static str {
    match seat {
        "P0" => pick(lang, "あなたは先攻です", "You move first"),
        "P1" => pick(lang, "あなたは後攻です", "You move second"),
        _ => pick(lang, "観戦中", "Watching"),
    }
}

fn connection_text(c: Connection, lang: Lang) -> &'static str {
    match c {
        Connection::Connected => pick(lang, "接続中", "Connected"),
        Connection::Reconnecting => pick(lang, "再接続中…", "Reconnecting…"),
        Connection::Offline => pick(lang, "オフライン", "Offline"),
    }
}

/// The first-player game: three face-down cards, then the winner's choice.
fn first_player(view: &RoomView, seated: bool, act: &Callback<RoomCommand>, lang: Lang) -> Html {
    let Some(first) = &view.first else {
        return html! {};
    };
    let me = match view.you.as_deref() {
        Some("host") => Some(0),
        Some("guest") => Some(1),
        _ => None,
    };
    let mine = me.and_then(|i| first.picks[i]);
    let waiting_guest = view.nicknames[1].is_none();
    html! {
        <div data-testid="bl-first">
            <h3>{ pick(lang, "先攻決め：裏向きのカードを1枚選んでください。大きい数を引いた人が先攻・後攻を選びます。",
                "Who goes first: pick one face-down card. The higher card chooses to go first or second.") }</h3>
            if waiting_guest {
                <p role="status">{ pick(lang, "相手の参加を待っています。部屋IDかリンクを送ってください。", "Waiting for the other player: send them the room id or the link.") }</p>
            }
            <div style="display:flex;gap:.5rem">
                { for (0..3u8).map(|i| {
                    let value = first.cards[usize::from(i)];
                    let taken = first.picks.contains(&Some(i));
                    let disabled = !seated || mine.is_some() || taken || view.stage != "firstPlayer";
                    let label = match value {
                        Some(v) => v.to_string(),
                        None if first.picks[0] == Some(i) => pick(lang, "ホストが選択", "host's").to_owned(),
                        None if first.picks[1] == Some(i) => pick(lang, "ゲストが選択", "guest's").to_owned(),
                        None => "?".to_owned(),
                    };
                    let onclick = act.reform(move |_: MouseEvent| RoomCommand::PickCard { index: i });
                    html! {
                        <button type="button" class="btn bl-first-card" data-testid="bl-first-card" data-index={i.to_string()}
                            data-value={value.map(|v| v.to_string()).unwrap_or_default()} {disabled} {onclick}
                            style="min-width:3.5rem;min-height:4.5rem">{ label }</button>
                    }
                }) }
            </div>
            if let (Some(winner), Some(i)) = (first.winner.as_deref(), me) {
                if (winner == "host") == (i == 0) {
                    <p>{ pick(lang, "あなたの勝ちです。先攻・後攻を選んでください：", "You won: choose your turn order:") }</p>
                    <button type="button" class="btn btn-primary" data-testid="bl-go-first"
                        onclick={act.reform(|_: MouseEvent| RoomCommand::ChooseOrder { first: true })}>{ pick(lang, "先攻", "Go first") }</button>
                    <button type="button" class="btn" data-testid="bl-go-second"
                        onclick={act.reform(|_: MouseEvent| RoomCommand::ChooseOrder { first: false })}>{ pick(lang, "後攻", "Go second") }</button>
                } else {
                    <p role="status">{ pick(lang, "相手が先攻・後攻を選んでいます…", "The other player is choosing the order…") }</p>
                }
            }
        </div>
    }
}

fn flag_row(flag: &Flag, i: u8, me: Player, render_me: Html, lang: Lang) -> Html {
    let other = me.opponent();
    let owner = match flag.owner {
        Some(p) if p == me => pick(lang, "自分", "yours"),
        Some(_) => pick(lang, "相手", "theirs"),
        None => "",
    };
    html! {
        <li data-testid={format!("flag-{i}")} style="display:grid;grid-template-columns:1fr auto 1fr;gap:.25rem;align-items:center;border-bottom:1px solid #8884;padding:.25rem 0">
            <div data-testid={format!("slot-{}-{i}", other.index())} style="display:flex;gap:.15rem;flex-wrap:wrap;justify-content:flex-end">
                { for flag.slots(other).iter().map(|c| card_static(*c, "card", lang)) }
                { for flag.tactic(other).iter().map(|t| card_static(Card::Tactic(*t), "card", lang)) }
            </div>
            <strong data-testid={format!("owner-{i}")} data-value={owner}>{ format!("{} {}", flag_no(i), owner) }</strong>
            { render_me }
        </li>
    }
}

/// The table from this seat's view: the other hand as counts, the flags, this hand.
fn seat_table(
    v: &SeatView,
    room: &RoomView,
    selected: Option<Card>,
    select: &UseStateHandle<Option<Card>>,
    play: &Callback<Command>,
    lang: Lang,
) -> Html {
    let me = v.viewer;
    let my_turn = v.current == me && room.stage == "playing";
    let targets: Vec<Command> = selected
        .map(|card| {
            v.legal
                .iter()
                .copied()
                .filter(|c| command_card(*c) == Some(card))
                .collect()
        })
        .unwrap_or_default();
    let flag_target = |flag: u8| {
        targets.iter().copied().find(|c| {
            matches!(c, Command::PlayCard { target: Target::Flag { flag: f }, .. }
                | Command::MoveCard { flag: f, .. }
                | Command::ResolveRedeploy { to: Destination::Flag { flag: f }, .. }
                | Command::ResolveTraitor { flag: f, .. } if *f == flag)
        })
    };
    let simple = |c: &Command| {
        matches!(
            c,
            Command::DrawAndEndTurn { .. }
                | Command::EndTurn
                | Command::Pass
                | Command::ClaimFlag { .. }
        )
    };
    // Commands without a place on the table (guile steps, scout, a card's other uses).
    let others: Vec<Command> = v
        .legal
        .iter()
        .copied()
        .filter(|c| !simple(c) && !matches!(c, Command::SortHand { .. }))
        .filter(|c| {
            command_card(*c).is_none_or(|card| Some(card) == selected || !v.hand.contains(&card))
        })
        .filter(|c| {
            !matches!(
                c,
                Command::PlayCard {
                    target: Target::Flag { .. },
                    ..
                }
            )
        })
        .collect();
    let button = |c: Command, testid: String, label: String| {
        html! { <button type="button" class="btn" data-testid={testid} onclick={play.reform(move |_: MouseEvent| c)}>{ label }</button> }
    };
    let status = match (v.winner, my_turn) {
        (Some(w), _) if w == me => pick(lang, "あなたの勝ちです！", "You win!"),
        (Some(_), _) => pick(lang, "相手の勝ちです", "The other player wins"),
        (None, _) if room.stage == "abandoned" => pick(
            lang,
            "相手が退出しました。対局は終了です",
            "A player left: the game is over",
        ),
        (None, true) => pick(lang, "あなたの番です", "Your turn"),
        (None, false) => pick(lang, "相手の番です…", "The other player's turn…"),
    };
    html! {
        <div data-testid="board">
            <p role="status" data-testid="prompt"
                data-value={if v.winner.is_some() || room.stage == "abandoned" { "over" } else if my_turn { "mine" } else { "theirs" }}>
                { status }</p>
            if let Some(w) = v.winner {
                <p data-testid="winner" data-value={if w == Player::P0 { "P0" } else { "P1" }}>{ status }</p>
            }
            <div data-testid="opponent-hand">
                <span data-testid="opponent-hand-count">{ format!("{}{} / {}{}", pick(lang, "相手の手札 部隊 ", "their hand: troops "), v.opponent_hand.troops, pick(lang, "戦術 ", "tactics "), v.opponent_hand.tactics) }</span>
                { format!(" · {}{} / {}{}", pick(lang, "山札 部隊 ", "decks: troops "), v.troop_deck, pick(lang, "戦術 ", "tactics "), v.tactic_deck) }
                if !room.seen.is_empty() {
                    <span>{ pick(lang, " 見たカード：", " seen: ") }</span>
                    { for room.seen.iter().map(|c| card_static(*c, "seen-card", lang)) }
                }
            </div>
            <ol style="list-style:none;padding:0;margin:.5rem 0">
                { for v.flags.iter().zip(0u8..).map(|(flag, i)| {
                    let target = flag_target(i);
                    let onclick = target.map(|c| play.reform(move |_: MouseEvent| c));
                    let mine = html! {
                        <div data-testid={format!("slot-{}-{i}", me.index())} style="display:flex;gap:.15rem;flex-wrap:wrap;align-items:center">
                            { for flag.slots(me).iter().map(|c| card_static(*c, "card", lang)) }
                            { for flag.tactic(me).iter().map(|t| card_static(Card::Tactic(*t), "card", lang)) }
                            if let Some(onclick) = onclick {
                                <button type="button" class="btn btn-primary" data-testid={format!("place-{i}")} {onclick}>{ pick(lang, "ここへ", "Here") }</button>
                            }
                            if my_turn && v.legal.contains(&Command::ClaimFlag { flag: i }) {
                                { button(Command::ClaimFlag { flag: i }, format!("claim-{i}"), pick(lang, "取る", "Claim").to_owned()) }
                            }
                        </div>
                    };
                    flag_row(flag, i, me, mine, lang)
                }) }
            </ol>
            <section data-testid="hand" aria-label={pick(lang, "あなたの手札", "Your hand")}>
                <h3>{ pick(lang, "あなたの手札", "Your hand") }</h3>
                <div style="display:flex;gap:.25rem;flex-wrap:wrap">
                    { for v.hand.iter().map(|card| {
                        let card = *card;
                        let select = select.clone();
                        html! { <CardButton {card} testid="hand-card" selected={selected == Some(card)}
                            on_click={Callback::from(move |c: Card| select.set(if *select == Some(c) { None } else { Some(c) }))} /> }
                    }) }
                </div>
            </section>
            if my_turn {
                <div style="display:flex;gap:.5rem;flex-wrap:wrap;margin-top:.5rem">
                    if v.legal.contains(&Command::DrawAndEndTurn { deck: Deck::Troop }) {
                        { button(Command::DrawAndEndTurn { deck: Deck::Troop }, "draw-troop".into(), command_text(&Command::DrawAndEndTurn { deck: Deck::Troop }, lang)) }
                    }
                    if v.legal.contains(&Command::DrawAndEndTurn { deck: Deck::Tactic }) {
                        { button(Command::DrawAndEndTurn { deck: Deck::Tactic }, "draw-tactic".into(), command_text(&Command::DrawAndEndTurn { deck: Deck::Tactic }, lang)) }
                    }
                    if v.legal.contains(&Command::EndTurn) {
                        { button(Command::EndTurn, "end-turn".into(), command_text(&Command::EndTurn, lang)) }
                    }
                    if v.legal.contains(&Command::Pass) {
                        { button(Command::Pass, "pass".into(), command_text(&Command::Pass, lang)) }
                    }
                    { for others.iter().map(|c| button(*c, "bl-command".into(), command_text(c, lang))) }
                </div>
            }
        </div>
    }
}

/// The table as a watcher sees it: no hand at all.
fn watcher_table(t: &TableView, lang: Lang) -> Html {
    html! {
        <div data-testid="board">
            <p>{ format!("{}{} / {}{}", pick(lang, "手札（先攻）", "hands: first "), t.hands[0].troops + t.hands[0].tactics, pick(lang, "（後攻）", "second "), t.hands[1].troops + t.hands[1].tactics) }</p>
            <ol style="list-style:none;padding:0">
                { for t.flags.iter().zip(0u8..).map(|(flag, i)| {
                    let p0 = html! {
                        <div data-testid={format!("slot-0-{i}")} style="display:flex;gap:.15rem;flex-wrap:wrap">
                            { for flag.slots(Player::P0).iter().map(|c| card_static(*c, "card", lang)) }
                        </div>
                    };
                    flag_row(flag, i, Player::P0, p0, lang)
                }) }
            </ol>
        </div>
    }
}
