//! Step messages (「《天使の施し》を発動します」, phase changes) shown as a stack of toasts.

use yew::prelude::*;

#[derive(Debug, Properties, PartialEq, Clone)]
pub struct ToastsProps {
    /// Oldest first (the newest sits at the bottom, nearest the field); the caller keeps only the recent ones.
    pub messages: Vec<(u64, String)>,
}

#[function_component(Toasts)]
pub fn toasts(props: &ToastsProps) -> Html {
    html! {
        <div class="toasts" role="log" aria-live="polite" data-testid="toasts">
            { for props.messages.iter().map(|(id, text)| html! {
                <div class="toast" key={*id} data-testid="toast">{ text.clone() }</div>
            }) }
        </div>
    }
}
