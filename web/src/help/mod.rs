//! The rules pages (`#/help/<game>`), one per game in Japanese and English, written in our
//! own words; the duel's also has a glossary of the words its dialogs use. Each game's text
//! is compiled into that game's bundle only; the duel's lives with its replay and
//! statistics pages (`duel-analysis`), which keeps it out of the duel page's first load.

#[cfg(feature = "battle-line")]
mod battle_line;
#[cfg(feature = "duel-analysis")]
mod duel;
#[cfg(feature = "quantum-gomoku")]
mod quantum_gomoku;

use yew::prelude::*;

use crate::ctx::use_ctx;
use crate::i18n::{Lang, T};
use crate::route::{HelpTopic, Route};

/// A text in both languages.
pub type Text = (&'static str, &'static str);

/// One part of a rules page: a heading and its paragraphs or list items.
#[derive(Debug)]
pub struct Section {
    pub title: Text,
    pub paragraphs: &'static [Text],
    /// Shown as a list rather than paragraphs.
    pub list: bool,
}

/// A word of the glossary and what it means.
#[derive(Debug)]
pub struct Term {
    pub term: Text,
    pub meaning: Text,
}

/// Everything a rules page says.
#[derive(Debug)]
pub struct Help {
    pub intro: Text,
    pub sections: &'static [Section],
    pub glossary: &'static [Term],
}

/// The page of a topic whose game this build holds.
fn help_of(topic: HelpTopic) -> Option<&'static Help> {
    match topic {
        #[cfg(feature = "duel-analysis")]
        HelpTopic::Duel => Some(&duel::HELP),
        #[cfg(feature = "battle-line")]
        HelpTopic::BattleLine => Some(&battle_line::HELP),
        #[cfg(feature = "quantum-gomoku")]
        HelpTopic::QuantumGomoku => Some(&quantum_gomoku::HELP),
        #[allow(unreachable_patterns)]
        _ => None,
    }
}

/// The game page a rules page leads back to.
fn game_route(topic: HelpTopic) -> Route {
    match topic {
        HelpTopic::Duel => Route::Home,
        HelpTopic::BattleLine => Route::BattleLine,
        HelpTopic::QuantumGomoku => Route::QuantumGomoku { game_id: None },
    }
}

fn game_title(topic: HelpTopic) -> T {
    match topic {
        HelpTopic::Duel => T::Title,
        HelpTopic::BattleLine => T::BattleLine,
        HelpTopic::QuantumGomoku => T::QuantumGomoku,
    }
}

fn pick(lang: Lang, text: Text) -> &'static str {
    lang.pick(text.0, text.1)
}

#[derive(Debug, Properties, PartialEq, Clone)]
pub struct HelpPageProps {
    pub topic: HelpTopic,
}

#[function_component(HelpPage)]
pub fn help_page(props: &HelpPageProps) -> Html {
    let ctx = use_ctx();
    let lang = ctx.lang;
    let back = html! {
        <a class="btn" href={game_route(props.topic).href()} data-testid="help-back">
            { lang.pick("ゲームへ戻る", "Back to the game") }
        </a>
    };
    let Some(help) = help_of(props.topic) else {
        return html! { <section class="page">{ back }</section> };
    };
    html! {
        <article class="page help" data-testid="help" data-topic={props.topic.slug()} lang={lang.code()}>
            <h2>{ format!("{} — {}", ctx.t(T::Help), ctx.t(game_title(props.topic))) }</h2>
            <p class="help-intro">{ pick(lang, help.intro) }</p>
            <nav class="btn-row" aria-label={lang.pick("このページの項目", "On this page")}>
                { back.clone() }
                { for help.sections.iter().enumerate().map(|(i, s)| html! {
                    <a class="btn btn-link" href={format!("#/help/{}", props.topic.slug())}
                        onclick={jump_to(format!("help-{i}"))}>{ pick(lang, s.title) }</a>
                }) }
                if !help.glossary.is_empty() {
                    <a class="btn btn-link" href={format!("#/help/{}", props.topic.slug())}
                        onclick={jump_to("help-glossary".to_owned())}>{ lang.pick("用語集", "Glossary") }</a>
                }
            </nav>
            { for help.sections.iter().enumerate().map(|(i, s)| html! {
                <section class="help-section" id={format!("help-{i}")} aria-labelledby={format!("help-{i}-title")}>
                    <h3 id={format!("help-{i}-title")}>{ pick(lang, s.title) }</h3>
                    if s.list {
                        <ul>{ for s.paragraphs.iter().map(|p| html! { <li>{ pick(lang, *p) }</li> }) }</ul>
                    } else {
                        { for s.paragraphs.iter().map(|p| html! { <p>{ pick(lang, *p) }</p> }) }
                    }
                </section>
            }) }
            if !help.glossary.is_empty() {
                <section class="help-section" id="help-glossary" aria-labelledby="help-glossary-title" data-testid="glossary">
                    <h3 id="help-glossary-title">{ lang.pick("用語集", "Glossary") }</h3>
                    <dl class="glossary">
                        { for help.glossary.iter().map(|t| html! {
                            <>
                                <dt data-testid="glossary-term">{ pick(lang, t.term) }</dt>
                                <dd>{ pick(lang, t.meaning) }</dd>
                            </>
                        }) }
                    </dl>
                </section>
            }
            <div class="btn-row">{ back }</div>
        </article>
    }
}

/// Scrolls to a part of the page without touching the hash (the hash is the route).
fn jump_to(id: String) -> Callback<MouseEvent> {
    Callback::from(move |e: MouseEvent| {
        e.prevent_default();
        if let Some(el) = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.get_element_by_id(&id))
        {
            el.scroll_into_view();
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_compiled_game_has_a_page_with_text_in_both_languages() {
        for topic in HelpTopic::ALL {
            let Some(help) = help_of(topic) else {
                assert!(!topic.bundle().compiled_in(), "{topic:?} has no rules page");
                continue;
            };
            let texts = std::iter::once(help.intro)
                .chain(
                    help.sections
                        .iter()
                        .flat_map(|s| std::iter::once(s.title).chain(s.paragraphs.iter().copied())),
                )
                .chain(help.glossary.iter().flat_map(|t| [t.term, t.meaning]));
            for (ja, en) in texts {
                assert!(
                    !ja.trim().is_empty() && !en.trim().is_empty(),
                    "{topic:?}: {ja} / {en}"
                );
                assert_ne!(ja, en, "{topic:?}: untranslated {en}");
            }
        }
    }

    #[cfg(feature = "duel-analysis")]
    #[test]
    fn the_duel_glossary_explains_the_words_of_its_dialogs() {
        let terms: Vec<&str> = duel::HELP.glossary.iter().map(|t| t.term.1).collect();
        for word in [
            "Chain",
            "Cost",
            "Trigger effect",
            "Missing the timing",
            "Oath",
        ] {
            assert!(
                terms.iter().any(|t| t.starts_with(word)),
                "{word} is not in {terms:?}"
            );
        }
    }
}
