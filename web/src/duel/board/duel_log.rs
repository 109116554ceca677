//! The duel's log: every message of the duel in order, so nothing is lost when one action
//! brings more messages than the toasts show at once.

use std::rc::Rc;

use duel_engine::event::Event;
use yew::prelude::*;

use crate::ctx::use_ctx;
use crate::duel::board::card_view::engine_lang;
use crate::i18n::log_title;

#[derive(Debug, Properties, Clone)]
pub struct DuelLogProps {
    pub events: Rc<Vec<Event>>,
}

/// The duel's state builds a new log whenever an event is added, so the same log is the
/// same list: comparing the lists event by event would cost a render's worth of work
/// and some 1.2 KB of the duel page's wasm.
impl PartialEq for DuelLogProps {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.events, &other.events)
    }
}

#[function_component(DuelLog)]
pub fn duel_log(props: &DuelLogProps) -> Html {
    let ctx = use_ctx();
    let lang = engine_lang(ctx.lang);
    html! {
        <details class="duel-log" data-testid="duel-log">
            <summary>{ log_title(ctx.lang, props.events.len()) }</summary>
            <ol class="log-list">
                { for props.events.iter().map(|e| html! {
                    <li data-testid="log-entry">{ e.message(lang) }</li>
                }) }
            </ol>
        </details>
    }
}
