//! Home page: the list of games, with the duel simulator's deck choice, start, recipe and resume.

use duel_engine::deck::decks;
use web_sys::HtmlSelectElement;
use yew::prelude::*;

use crate::ctx::use_ctx;
use crate::duel::board::card_view::engine_lang;
use crate::duel::state::{
    RuleChoice, SaveCheck, check_save, clear_save, new_game_settings, set_rule_choice,
};
use crate::i18n::T;
use crate::prefs::Preferences;
use crate::route::{HelpTopic, Route};

#[function_component(Home)]
pub fn home() -> Html {
    let ctx = use_ctx();
    let lang = engine_lang(ctx.lang);
    let first = decks().first().map(|d| d.id.clone()).unwrap_or_default();
    let chosen = use_state(|| first);
    // Read once per mount: the save only changes while the simulator is shown.
    let save = use_memo((), |_| check_save());

    let on_change = {
        let chosen = chosen.clone();
        Callback::from(move |e: Event| {
            if let Some(select) = e.target_dyn_into::<HtmlSelectElement>() {
                chosen.set(select.value());
            }
        })
    };
    let on_start = {
        let chosen = chosen.clone();
        let nav = ctx.on_navigate.clone();
        Callback::from(move |_: MouseEvent| {
            // A new duel replaces the autosave; the simulator draws the seed.
            clear_save();
            nav.emit(Route::Simulator {
                deck: (*chosen).clone(),
                seed: None,
            });
        })
    };
    let on_recipe = {
        let chosen = chosen.clone();
        let nav = ctx.on_navigate.clone();
        Callback::from(move |_: MouseEvent| {
            nav.emit(Route::Recipe {
                deck: (*chosen).clone(),
            })
        })
    };
    let (resume_target, save_notice) = match &*save {
        SaveCheck::Found { deck, seed } => (
            Some(Route::Simulator {
                deck: deck.clone(),
                seed: Some(*seed),
            }),
            None,
        ),
        SaveCheck::None => (None, None),
        SaveCheck::Discarded => (None, Some(ctx.t(T::CorruptSave))),
    };
    let on_resume = {
        let nav = ctx.on_navigate.clone();
        let target = resume_target.clone();
        Callback::from(move |_: MouseEvent| {
            if let Some(route) = &target {
                nav.emit(route.clone());
            }
        })
    };
    // Preferences for new duels: a running duel keeps the settings it started with.
    let settings = use_state(new_game_settings);
    let rule_toggles = RuleChoice::ALL.map(|choice| {
        let checked = choice.get(&settings);
        let handle = settings.clone();
        let on_toggle = Callback::from(move |_: Event| {
            let mut next = *handle;
            let on = !choice.get(&next);
            choice.set(&mut next, on);
            set_rule_choice(choice, on);
            handle.set(next);
        });
        let (testid, ja, en) = match choice {
            RuleChoice::ChainConfirmation => (
                "chain-confirm",
                " チェーン確認（速攻魔法でチェーンできる時に確認する）",
                " Ask before a chain resolves (when a quick-play could be chained)",
            ),
            RuleChoice::IntoTheVoidCountsItself => (
                "void-counts-itself",
                " 「無の煉獄」は自身を手札の枚数に数える（オフ：他に3枚必要）",
                " Into the Void counts itself in the hand (off: 3 other cards needed)",
            ),
            RuleChoice::ExodiaWinsMidEffect => (
                "exodia-mid-effect",
                " エクゾディアは効果処理の途中でも勝利する（旧裁定：「天使の施し」の捨てる前）",
                " Exodia wins in the middle of an effect (old ruling: before Graceful Charity's discard)",
            ),
        };
        html! {
            <label class="setting" key={testid}>
                <input type="checkbox" data-testid={testid} checked={checked} onchange={on_toggle} />
                { ctx.lang.pick(ja, en) }
            </label>
        }
    });
    let chosen_def = decks().iter().find(|d| d.id == *chosen);

    html! {
        <section class="page home">
            <h2>{ ctx.t(T::Games) }</h2>
            <div class="games">
                <article class="game-tile">
                    <h3>{ ctx.t(T::DuelSimulator) }</h3>
                    <p>{ ctx.t(T::DuelSimulatorBlurb) }</p>
                    if let Some(text) = save_notice {
                        <p class="notice" role="status" data-testid="save-notice">{ text }</p>
                    }
                    <label for="deck-select">{ ctx.t(T::SelectDeck) }</label>
                    <div>
                        <select id="deck-select" data-testid="deck-select" onchange={on_change}>
                            { for decks().iter().map(|d| html! {
                                <option value={d.id.clone()} selected={d.id == *chosen}>
                                    { d.name(lang) }
                                </option>
                            }) }
                        </select>
                    </div>
                    if let Some(d) = chosen_def {
                        <p class="muted">{ d.description(lang) }</p>
                    }
                    { for rule_toggles }
                    <div class="btn-row">
                        <button type="button" class="btn btn-primary" data-testid="btn-start" onclick={on_start}>
                            { ctx.t(T::Start) }
                        </button>
                        <button type="button" class="btn" data-testid="btn-recipe" onclick={on_recipe}>
                            { ctx.t(T::Recipe) }
                        </button>
                        <a class="btn" data-testid="btn-stats" href={Route::Stats { deck: (*chosen).clone(), hands: None }.href()}>
                            { ctx.lang.pick("統計", "Statistics") }
                        </a>
                        <a class="btn" data-testid="btn-deck-lab" href={Route::DeckLab.href()}>
                            { ctx.lang.pick("デッキ研究所", "Deck lab") }
                        </a>
                        <button type="button" class="btn" data-testid="btn-resume" onclick={on_resume}
                            disabled={resume_target.is_none()}
                            title={resume_target.is_none().then(|| ctx.t(T::NoSave))}>
                            { ctx.t(T::Resume) }
                        </button>
                        <a class="btn" data-testid="help-duel" href={Route::Help { topic: HelpTopic::Duel }.href()}>{ ctx.t(T::Help) }</a>
                    </div>
                </article>
                <article class="game-tile">
                    <h3>{ ctx.t(T::BattleLine) }</h3>
                    <p>{ ctx.t(T::BattleLineBlurb) }</p>
                    <div class="btn-row">
                        <a class="btn btn-primary" data-testid="link-battle-line" href={Route::BattleLine.href()}>{ ctx.t(T::Play) }</a>
                        <a class="btn" data-testid="help-battle-line" href={Route::Help { topic: HelpTopic::BattleLine }.href()}>{ ctx.t(T::Help) }</a>
                    </div>
                </article>
                <article class="game-tile">
                    <h3>{ ctx.t(T::QuantumGomoku) }</h3>
                    <p>{ ctx.t(T::QuantumGomokuBlurb) }</p>
                    <div class="btn-row">
                        <a class="btn btn-primary" data-testid="link-quantum-gomoku" href={Route::QuantumGomoku { game_id: None }.href()}>{ ctx.t(T::Play) }</a>
                        <a class="btn" data-testid="help-quantum-gomoku" href={Route::Help { topic: HelpTopic::QuantumGomoku }.href()}>{ ctx.t(T::Help) }</a>
                    </div>
                </article>
            </div>
            <Preferences />
        </section>
    }
}
