//! The duel header: deck name, phase, both players' LP, the opponent's hand and deck counts.

use duel_engine::view::DuelView;
use yew::prelude::*;

use crate::ctx::use_ctx;
use crate::duel::card_view::engine_lang;
use crate::i18n::T;

#[derive(Debug, Properties, PartialEq, Clone)]
pub struct DuelHeaderProps {
    pub view: DuelView,
}

/// LP as the reference shows it: `8,000`.
pub fn format_lp(lp: u32) -> String {
    let digits = lp.to_string();
    let mut out = String::new();
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

#[function_component(DuelHeader)]
pub fn duel_header(props: &DuelHeaderProps) -> Html {
    let ctx = use_ctx();
    let lang = engine_lang(ctx.lang);
    let v = &props.view;
    let deck_name =
        duel_engine::deck::deck(&v.deck_id).map_or(v.deck_id.as_str(), |d| d.name(lang));
    html! {
        <div class="duel-header">
            <h2>{ format!("Deck: {deck_name}") }</h2>
            <div class="stats">
                <span>{ format!("{}:", ctx.t(T::Now)) }</span>
                <span class="v" data-testid="phase">{ duel_engine::text::phase(v.phase, lang) }</span>
                <span>{ format!("{}:", ctx.t(T::MyLp)) }</span>
                <span class="v lp" data-testid="lp-player">{ format_lp(v.you.lp) }</span>
                <span>{ format!("{}:", ctx.t(T::OpponentLp)) }</span>
                <span class="v lp" data-testid="lp-opponent">{ format_lp(v.opponent.lp) }</span>
                <span>{ format!("{}:", ctx.t(T::OpponentHand)) }</span>
                <span class="v" data-testid="opponent-hand-count">{ v.opponent.hand.len() }</span>
                <span>{ format!("{}:", ctx.t(T::OpponentDeck)) }</span>
                <span class="v" data-testid="opponent-deck-count">{ v.opponent.deck_count }</span>
            </div>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::format_lp;

    #[test]
    fn lp_has_thousands_separators() {
        assert_eq!(format_lp(0), "0");
        assert_eq!(format_lp(800), "800");
        assert_eq!(format_lp(8000), "8,000");
        assert_eq!(format_lp(11000), "11,000");
        assert_eq!(format_lp(1_234_567), "1,234,567");
    }
}
