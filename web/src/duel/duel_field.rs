//! The 7-column field: `[field | M1..M5 | graveyard]` over `[extra deck | S1..S5 | deck]`, plus banished.

use duel_engine::view::{CardView as CardSeen, SideView};
use duel_engine::{Face, Position};
use yew::prelude::*;

use crate::ctx::use_ctx;
use crate::duel::card_view::{CardView, Pos};
use crate::i18n::T;

/// A pile whose content opens in a list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pile {
    Graveyard,
    Banished,
    Extra,
}

/// Where a clicked field card sits (decides which actions the menu offers).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldSlot {
    Monster(usize),
    SpellTrap(usize),
    Field,
}

#[derive(Debug, Properties, PartialEq, Clone)]
pub struct DuelFieldProps {
    pub side: SideView,
    pub on_open_pile: Callback<Pile>,
    pub on_select_card: Callback<(FieldSlot, CardSeen)>,
}

fn pos_of(card: &CardSeen) -> Option<Pos> {
    card.position.map(|p| match p {
        Position::Attack => Pos::Attack,
        Position::Defense => Pos::Defense,
    })
}

#[function_component(DuelField)]
pub fn duel_field(props: &DuelFieldProps) -> Html {
    let ctx = use_ctx();
    let side = &props.side;
    let slot = |zone: &'static str,
                label: String,
                kind: &'static str,
                slot: FieldSlot,
                card: Option<CardSeen>|
     -> Html {
        match card {
            None => html! {
                <div class={classes!("zone", kind, "zone-slot-empty")} data-testid={format!("zone-{zone}")}>
                    { label }
                </div>
            },
            Some(card) => {
                let on_select = props.on_select_card.clone();
                let on_click = Callback::from(move |()| on_select.emit((slot, card)));
                let code = if card.face == Face::Up {
                    card.code
                } else {
                    None
                };
                let on_monster_zone = matches!(slot, FieldSlot::Monster(_));
                html! {
                    <div class={classes!("zone", kind)} data-testid={format!("zone-{zone}")}>
                        if code.is_some() {
                            <CardView code={code} position={if on_monster_zone { pos_of(&card) } else { None }} on_click={Some(on_click)} />
                        } else {
                            // A face-down card stays a button so its actions are keyboard reachable,
                            // but carries no identity.
                            <button type="button" class="card-button" aria-label={format!("{label}: {}", ctx.lang.pick("裏側", "face-down"))}
                                onclick={on_click.reform(|_: MouseEvent| ())}>
                                <CardView code={None} position={if on_monster_zone { pos_of(&card) } else { None }} />
                            </button>
                        }
                    </div>
                }
            }
        }
    };
    let pile = |zone: &'static str,
                label: &'static str,
                count: usize,
                pile: Option<Pile>,
                back: bool|
     -> Html {
        let onclick = pile.map(|p| {
            let cb = props.on_open_pile.clone();
            Callback::from(move |_: MouseEvent| cb.emit(p))
        });
        let inner = html! {
            <>
                <span class="badge" data-testid={format!("count-{zone}")}>{ count }</span>
                if back && count > 0 {
                    <div data-testid="card-back" class="card-back"></div>
                }
                <span class={if back && count > 0 { "pile-label" } else { "zone-slot-empty" }}>{ label }</span>
            </>
        };
        match onclick {
            Some(onclick) => html! {
                <button type="button" class="zone zone-pile" data-testid={format!("zone-{zone}")} onclick={onclick}
                    aria-label={format!("{label} ({count})")}>
                    { inner }
                </button>
            },
            None => html! {
                <div class="zone zone-pile" data-testid={format!("zone-{zone}")} aria-label={format!("{label} ({count})")}>
                    { inner }
                </div>
            },
        }
    };
    html! {
        <>
            <div class="field" data-testid="duel-field">
                { slot("fieldZone", ctx.t(T::FieldZone).to_owned(), "zone-field", FieldSlot::Field, side.field_zone) }
                { for side.monsters.iter().enumerate().map(|(i, c)|
                    slot("mainMonsterZone", format!("M{}", i + 1), "zone-monster", FieldSlot::Monster(i), *c)) }
                { pile("graveyard", ctx.t(T::Graveyard), side.graveyard.len(), Some(Pile::Graveyard), false) }
                { pile("extraDeck", ctx.t(T::ExtraDeck), side.extra.len(), Some(Pile::Extra), true) }
                { for side.spell_trap.iter().enumerate().map(|(i, c)|
                    slot("spellTrapZone", format!("S{}", i + 1), "zone-spell", FieldSlot::SpellTrap(i), *c)) }
                { pile("deck", ctx.t(T::Deck), side.deck_count, None, true) }
            </div>
            <div class="btn-row">
                <button type="button" class="btn" data-testid="zone-banished"
                    onclick={{ let cb = props.on_open_pile.clone(); Callback::from(move |_: MouseEvent| cb.emit(Pile::Banished)) }}>
                    { format!("{} ({})", ctx.t(T::Banished), side.banished.len()) }
                </button>
            </div>
        </>
    }
}
