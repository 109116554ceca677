//! The root component: the hash router, the top bar and the language switch.

use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;
use yew::prelude::*;

use crate::ctx::{Ctx, current_route, use_ctx};
#[cfg(feature = "duel")]
use crate::duel::pages::home::Home;
use crate::i18n::{Lang, T};
use crate::route::{HelpTopic, Route};

/// The title of a page, shown in the top bar and the browser tab: the game's name on
/// a game's pages, the app's name elsewhere.
pub fn page_title(route: &Route) -> T {
    match route {
        Route::Recipe { .. }
        | Route::Simulator { .. }
        | Route::Replay { .. }
        | Route::Stats { .. }
        | Route::DeckLab => T::Title,
        Route::BattleLine if cfg!(feature = "battle-line") => T::BattleLine,
        Route::BattleLineOnline { .. } if cfg!(feature = "battle-line-online") => T::BattleLine,
        Route::QuantumGomoku { .. } if cfg!(feature = "quantum-gomoku") => T::QuantumGomoku,
        Route::Help { topic } if topic.bundle().compiled_in() => match topic {
            HelpTopic::Duel => T::Title,
            HelpTopic::BattleLine => T::BattleLine,
            HelpTopic::QuantumGomoku => T::QuantumGomoku,
        },
        Route::Home
        | Route::BattleLine
        | Route::BattleLineOnline { .. }
        | Route::QuantumGomoku { .. }
        | Route::Help { .. }
        | Route::NotFound { .. } => T::AppName,
    }
}

/// The rules page a page links to: each game's pages lead to their game's.
pub fn help_topic(route: &Route) -> Option<HelpTopic> {
    match route {
        Route::Recipe { .. }
        | Route::Simulator { .. }
        | Route::Replay { .. }
        | Route::Stats { .. }
        | Route::DeckLab => Some(HelpTopic::Duel),
        Route::BattleLine | Route::BattleLineOnline { .. } => Some(HelpTopic::BattleLine),
        Route::QuantumGomoku { .. } => Some(HelpTopic::QuantumGomoku),
        Route::Home | Route::Help { .. } | Route::NotFound { .. } => None,
    }
}

#[function_component(App)]
pub fn app() -> Html {
    let route = use_state(current_route);
    let lang = use_state(Lang::load);

    // Follow the address bar (links, back/forward, hand-edited hashes).
    {
        let route = route.clone();
        use_effect_with((), move |_| {
            crate::modal::track_focus();
            let listener = Closure::<dyn Fn()>::new(move || route.set(current_route()));
            let window = web_sys::window();
            if let Some(w) = &window {
                // Failing to listen leaves in-app navigation working; nothing to report.
                let _ = w.add_event_listener_with_callback(
                    "hashchange",
                    listener.as_ref().unchecked_ref(),
                );
            }
            move || {
                if let Some(w) = &window {
                    let _ = w.remove_event_listener_with_callback(
                        "hashchange",
                        listener.as_ref().unchecked_ref(),
                    );
                }
                drop(listener);
            }
        });
    }

    let on_navigate = {
        let route = route.clone();
        Callback::from(move |next: Route| {
            if let Some(window) = web_sys::window() {
                // Setting the hash records history; the listener then sees the same route.
                let _ = window.location().set_hash(&next.to_string());
            }
            route.set(next);
        })
    };

    let on_toggle_lang = {
        let lang = lang.clone();
        Callback::from(move |_: MouseEvent| {
            let next = lang.other();
            next.save();
            lang.set(next);
        })
    };

    let title = page_title(&route);
    // Keep <html lang> and the tab title in step with the page and the chosen language.
    use_effect_with((*lang, title), |(lang, title)| {
        if let Some(doc) = web_sys::window().and_then(|w| w.document()) {
            if let Some(root) = doc.document_element() {
                let _ = root.set_attribute("lang", lang.code());
            }
            doc.set_title(title.text(*lang));
        }
    });

    let ctx = Ctx {
        lang: *lang,
        on_navigate,
    };

    let page = match (*route).clone() {
        #[cfg(feature = "duel")]
        Route::Home => html! { <Home /> },
        #[cfg(feature = "duel")]
        Route::Recipe { deck } => {
            html! { <crate::duel::pages::recipe::RecipePage deck={deck} /> }
        }
        #[cfg(feature = "duel")]
        Route::Simulator { deck, seed } => {
            let key = format!("{deck}/{seed:?}");
            html! { <crate::duel::pages::simulator::Simulator key={key} deck={deck} seed={seed} /> }
        }
        #[cfg(feature = "duel-analysis")]
        Route::Replay { code } => {
            let key = code.clone();
            html! { <crate::duel::pages::replay_page::ReplayPage key={key} code={code} /> }
        }
        #[cfg(feature = "duel-analysis")]
        Route::Stats { deck, hands } => {
            let key = format!("{deck}/{hands:?}");
            html! { <crate::duel::pages::stats_page::StatsPage key={key} deck={deck} hands={hands} /> }
        }
        #[cfg(feature = "deck-lab")]
        Route::DeckLab => html! { <crate::duel::pages::deck_lab::DeckLab /> },
        #[cfg(feature = "battle-line")]
        Route::BattleLine => html! { <crate::battle_line::page::BattleLinePage /> },
        #[cfg(feature = "battle-line-online")]
        Route::BattleLineOnline { room } => {
            html! { <crate::battle_line::online_page::OnlinePage room={room} /> }
        }
        #[cfg(feature = "quantum-gomoku")]
        Route::QuantumGomoku { game_id } => {
            html! { <crate::quantum_gomoku::page::QuantumGomokuPage game_id={game_id} /> }
        }
        Route::Help { topic } if topic.bundle().compiled_in() => {
            html! { <crate::help::HelpPage topic={topic} /> }
        }
        Route::NotFound { .. } => html! {
            <section class="page">
                <h2>{ ctx.t(T::NotFound) }</h2>
                <a href={Route::Home.href()}>{ ctx.t(T::BackHome) }</a>
            </section>
        },
        // A game of another release bundle: go to its page, keeping the hash's query.
        #[allow(unreachable_patterns)]
        other => {
            let hash = web_sys::window()
                .and_then(|w| w.location().hash().ok())
                .unwrap_or_else(|| other.to_hash());
            html! { <Elsewhere href={other.href_with(&hash)} /> }
        }
    };

    html! {
        <ContextProvider<Ctx> context={ctx.clone()}>
            <header class="topbar">
                <h1 class="brand-title"><a class="brand" href={Route::Home.href()} data-testid="brand">{ ctx.t(title) }</a></h1>
                <nav class="topbar-links">
                    if let Some(topic) = help_topic(&route) {
                        <a class="btn" href={Route::Help { topic }.href()} data-testid="link-help">{ ctx.t(T::Help) }</a>
                    }
                    <button type="button" class="btn btn-lang" data-testid="btn-lang" onclick={on_toggle_lang}>
                        { ctx.t(T::Switch) }
                    </button>
                </nav>
            </header>
            <main class="main">{ page }</main>
        </ContextProvider<Ctx>>
    }
}

#[derive(Properties, PartialEq, Clone)]
struct ElsewhereProps {
    href: String,
}

/// Moves to the release bundle that holds a route (each game has its own page there).
#[function_component(Elsewhere)]
fn elsewhere(props: &ElsewhereProps) -> Html {
    let ctx = use_ctx();
    use_effect_with(props.href.clone(), |href| {
        if let Some(window) = web_sys::window() {
            // Replacing keeps the back button pointing at the page the player came from.
            let _ = window.location().replace(href);
        }
    });
    html! {
        <section class="page">
            <a href={props.href.clone()}>{ ctx.t(T::Play) }</a>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_pages_carry_their_game_name_and_the_rest_the_apps() {
        assert_eq!(page_title(&Route::Home), T::AppName);
        assert_eq!(
            page_title(&Route::NotFound { path: "x".into() }),
            T::AppName
        );
        let duel = Route::Simulator {
            deck: "exodia-deck".into(),
            seed: Some(1),
        };
        assert_eq!(page_title(&duel), T::Title);
        assert_eq!(
            page_title(&Route::Recipe {
                deck: "exodia-deck".into()
            }),
            T::Title
        );
        let battle_line = page_title(&Route::BattleLine);
        let gomoku = page_title(&Route::QuantumGomoku { game_id: None });
        if cfg!(feature = "battle-line") {
            assert_eq!(battle_line, T::BattleLine);
        } else {
            assert_eq!(battle_line, T::AppName);
        }
        if cfg!(feature = "quantum-gomoku") {
            assert_eq!(gomoku, T::QuantumGomoku);
        } else {
            assert_eq!(gomoku, T::AppName);
        }
    }
}
