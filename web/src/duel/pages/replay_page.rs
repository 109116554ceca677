//! A shared duel (`#/replay/<code>`): the game replayed from its share code to the same point, stepped back and forth with its actions in words, with its point of no return; a code that does not open shows why, over the home page.

use duel_engine::analysis::PointOfNoReturn;
use duel_engine::replay::{DecodeError, ShareError, Shared};
use duel_engine::{Duel, ReplayError, deck};
use yew::prelude::*;

use crate::ctx::use_ctx;
use crate::duel::board::card_view::{CardView, engine_lang};
use crate::duel::board::duel_field::DuelField;
use crate::duel::board::duel_header::DuelHeader;
use crate::duel::pages::home::Home;
use crate::duel::practice::jobs::{NO_RETURN_BUDGET, NoReturn, NoReturnReply};
use crate::duel::practice::no_return::{NoReturnPhase, no_return_view, use_no_return};
use crate::duel::save::SaveFile;
use crate::duel::state::{mark_own_save, write_save};
use crate::i18n::Lang;
use crate::route::Route;

#[derive(Debug, Properties, PartialEq, Clone)]
pub struct ReplayProps {
    pub code: String,
}

/// Opens a share code: the game it holds, checked to replay to its last command.
pub fn open(code: &str) -> Result<Shared, ShareError> {
    let shared = Shared::decode(code)?;
    shared.replay()?;
    Ok(shared)
}

/// Why a share code did not open, in the player's language.
pub fn why(e: &ShareError, lang: Lang) -> String {
    let ja = lang == Lang::Ja;
    match e {
        ShareError::Decode(d) if ja => match d {
            DecodeError::NotBase64 => "URLの共有コードが正しい形式ではありません".to_owned(),
            DecodeError::Truncated => "共有コードが途中で切れています".to_owned(),
            DecodeError::Version(v) => {
                format!("共有コードの形式（版{v}）はこのアプリでは読めません")
            }
            DecodeError::UnknownDeck(n) => format!("共有コードのデッキ（{n}番）がありません"),
            DecodeError::BadCommand(t) => format!("共有コードに不明な操作（{t}）があります"),
            DecodeError::Overflow => "共有コードの数値が大きすぎます".to_owned(),
        },
        ShareError::Replay(ReplayError::Refused { index, error }) => match lang {
            Lang::Ja => format!(
                "{}手目が再生できません：{}",
                index + 1,
                error.message(engine_lang(lang))
            ),
            Lang::En => format!(
                "action {} does not replay: {}",
                index + 1,
                error.message(engine_lang(lang))
            ),
        },
        ShareError::Replay(ReplayError::Setup(_)) if ja => "決闘を始められません".to_owned(),
        other => other.to_string(),
    }
}

#[function_component(ReplayPage)]
pub fn replay_page(props: &ReplayProps) -> Html {
    let ctx = use_ctx();
    let lang = ctx.lang;
    let opened = use_memo(props.code.clone(), |code| open(code));
    let total = opened.as_ref().as_ref().map_or(0, |s| s.commands.len());
    // Opens at the point the game was shared.
    let at = use_state(|| total);
    let position = use_memo((opened.clone(), *at), |(opened, at)| {
        let shared = opened.as_ref().as_ref().ok()?;
        Duel::replay_dealt(
            &shared.deck,
            shared.custom.as_ref(),
            shared.seed,
            shared.settings,
            &shared.commands[..(*at).min(shared.commands.len())],
        )
        .ok()
    });
    let steps = use_memo((opened.clone(), lang), |(opened, lang)| {
        let Ok(shared) = opened.as_ref() else {
            return Vec::new();
        };
        Duel::dealt(
            &shared.deck,
            shared.custom.as_ref(),
            shared.seed,
            shared.settings,
        )
        .map(|d| d.describe_line(&shared.commands, engine_lang(*lang)))
        .unwrap_or_default()
    });

    // The whole shared game's point of no return, searched in the worker.
    // (Not for a deck lab's game: the search replays preset decks only.)
    let game = opened
        .as_ref()
        .as_ref()
        .ok()
        .filter(|shared| shared.custom.is_none())
        .map(|shared| NoReturn {
            deck: shared.deck.clone(),
            custom: None,
            seed: shared.seed,
            settings: shared.settings,
            commands: shared.commands.clone(),
            budget: NO_RETURN_BUDGET,
        });
    let analysis = use_no_return(game.clone());
    let no_return_step = match &analysis {
        NoReturnPhase::Answered(NoReturnReply {
            point: PointOfNoReturn::NoReturn { step, .. },
            ..
        }) => Some(*step),
        _ => None,
    };

    let shared = match opened.as_ref() {
        Ok(shared) => shared,
        Err(e) => {
            return html! {
                <>
                    <p class="notice error" role="alert" data-testid="share-error">
                        { format!("{}{}", lang.pick("共有URLを開けませんでした：", "The shared game could not be opened: "), why(e, lang)) }
                    </p>
                    <Home />
                </>
            };
        }
    };
    // The arrow keys step back and forth, Home and End go to either end (not while typing).
    {
        let at = at.clone();
        use_effect_with((*at, total), move |&(now, total)| {
            let listener = wasm_bindgen::closure::Closure::<dyn Fn(KeyboardEvent)>::new(
                move |e: KeyboardEvent| {
                    let typing = e
                        .target()
                        .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok())
                        .is_some_and(|el| {
                            matches!(el.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT")
                        });
                    if typing || e.ctrl_key() || e.alt_key() || e.meta_key() {
                        return;
                    }
                    let to = match e.key().as_str() {
                        "ArrowLeft" => now.saturating_sub(1),
                        "ArrowRight" => (now + 1).min(total),
                        "Home" => 0,
                        "End" => total,
                        _ => return,
                    };
                    e.prevent_default();
                    at.set(to);
                },
            );
            let window = web_sys::window();
            if let Some(w) = &window {
                // Without the listener the buttons still step.
                let _ = w.add_event_listener_with_callback(
                    "keydown",
                    wasm_bindgen::JsCast::unchecked_ref(listener.as_ref()),
                );
            }
            move || {
                if let Some(w) = &window {
                    let _ = w.remove_event_listener_with_callback(
                        "keydown",
                        wasm_bindgen::JsCast::unchecked_ref(listener.as_ref()),
                    );
                }
                drop(listener);
            }
        });
    }
    let Some(duel) = position.as_ref() else {
        return html! {};
    };
    let view = duel.view();
    let go = |to: usize| {
        let at = at.clone();
        Callback::from(move |_: MouseEvent| at.set(to.min(total)))
    };
    let on_continue = {
        let nav = ctx.on_navigate.clone();
        let shared = shared.clone();
        let at = *at;
        Callback::from(move |_: MouseEvent| {
            // The shared game up to here becomes the autosave, which the duel page resumes
            // (as this page's own save: no "resumed" notice there).
            mark_own_save(&shared.deck, shared.seed);
            write_save(
                &SaveFile::new(
                    shared.deck.clone(),
                    shared.seed,
                    shared.settings,
                    shared.commands[..at.min(shared.commands.len())].to_vec(),
                )
                .dealt(shared.custom.clone()),
            );
            nav.emit(Route::Simulator {
                deck: shared.deck.clone(),
                seed: Some(shared.seed),
            });
        })
    };
    let deck_name = deck(&shared.deck)
        .map(|d| d.name(engine_lang(lang)).to_owned())
        .unwrap_or_default();
    let happened: Vec<String> = duel
        .events()
        .iter()
        .map(|e| e.message(engine_lang(lang)))
        .collect();

    html! {
        <section class="page replay" data-testid="replay">
            <h2>{ format!("{}{deck_name}", lang.pick("共有された決闘：", "Shared duel: ")) }</h2>
            <p class="muted">{ format!("{} {}", lang.pick("シード", "seed"), shared.seed) }</p>
            <div class="btn-row replay-controls" aria-label={lang.pick("手順の移動（←→キーでも動かせます）", "Step through (or use the ← → keys)")} role="group">
                <button type="button" class="btn" data-testid="replay-first" disabled={*at == 0} onclick={go(0)}>
                    { lang.pick("|◀ 最初", "|◀ First") }
                </button>
                <button type="button" class="btn" data-testid="replay-prev" disabled={*at == 0} onclick={go(at.saturating_sub(1))}>
                    { lang.pick("◀ 戻る", "◀ Back") }
                </button>
                <span class="replay-position" data-testid="replay-position" data-value={at.to_string()} data-total={total.to_string()}>
                    { format!("{} / {}", *at, total) }
                </span>
                <button type="button" class="btn" data-testid="replay-next" disabled={*at >= total} onclick={go(*at + 1)}>
                    { lang.pick("進む ▶", "Forward ▶") }
                </button>
                <button type="button" class="btn" data-testid="replay-last" disabled={*at >= total} onclick={go(total)}>
                    { lang.pick("最後 ▶|", "Last ▶|") }
                </button>
                <button type="button" class="btn btn-primary" data-testid="btn-replay-continue" onclick={on_continue}
                    title={lang.pick("この局面から自分で続けます（今の自動保存は置き換わります）", "Play on from here yourself (replaces the current autosave)")}>
                    { lang.pick("ここから続ける", "Play on from here") }
                </button>
            </div>
            <DuelHeader view={view.clone()} />
            <DuelField side={view.you.clone()} opponent={view.opponent.clone()} on_open_pile={Callback::noop()} on_select_card={Callback::noop()} />
            <div class="hand-cards" data-testid="zone-hand">
                { for view.you.hand.iter().map(|c| html! { <CardView key={c.id.0} code={c.code} /> }) }
            </div>
            if !happened.is_empty() {
                <ul class="replay-events" data-testid="replay-events" aria-live="polite">
                    { for happened.iter().map(|m| html! { <li>{ m }</li> }) }
                </ul>
            }
            if game.is_some() {
                { no_return_view(&analysis, lang, Some({ let at = at.clone(); Callback::from(move |step: usize| at.set(step.min(total))) })) }
            }
            <ol class="replay-steps">
                { for steps.iter().enumerate().map(|(i, text)| {
                    let current = i + 1 == *at;
                    let fatal = no_return_step == Some(i);
                    html! {
                        <li class={classes!(current.then_some("current"), (i + 1 > *at).then_some("later"), fatal.then_some("no-return-mark"))}
                            data-no-return={fatal.then_some("true")}>
                            <button type="button" class="link-button" data-testid="replay-step" aria-current={current.then_some("step")} onclick={go(i + 1)}>
                                { text }
                            </button>
                            if fatal {
                                <span class="no-return-badge">{ lang.pick(" ← 勝ち筋がなくなった手", " ← the point of no return") }</span>
                            }
                        </li>
                    }
                }) }
            </ol>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::duel::test_seeds::{SCIENTIST_WIN, SEED_SCIENTIST_WIN, play_script};
    use duel_engine::Settings;

    #[test]
    fn a_shared_game_opens_to_the_same_point() {
        let won = play_script("scientist-catapult-deck", SEED_SCIENTIST_WIN, SCIENTIST_WIN)
            .expect("wins");
        let shared = open(&won.share_code()).expect("opens");
        assert_eq!(shared.replay().expect("replays"), won);
    }

    #[test]
    fn codes_that_do_not_open_say_why_in_both_languages() {
        let bad = open("%%%").expect_err("not base64");
        assert_eq!(bad, ShareError::Decode(DecodeError::NotBase64));
        assert!(why(&bad, Lang::Ja).contains("形式"));
        assert_eq!(why(&bad, Lang::En), "the code is not base64url");
        let refused = Shared {
            deck: "exodia-deck".into(),
            seed: 3,
            settings: Settings::default(),
            commands: vec![
                duel_engine::Command::EndTurn,
                duel_engine::Command::PassChain,
            ],
            custom: None,
        };
        let e = open(&refused.encode()).expect_err("does not replay");
        assert!(
            why(&e, Lang::Ja).starts_with("2手目が再生できません"),
            "{}",
            why(&e, Lang::Ja)
        );
        assert!(why(&e, Lang::En).starts_with("action 2 does not replay"));
    }
}
