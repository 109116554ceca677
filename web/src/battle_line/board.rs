//! The table: nine flags between both players' troop and tactic slots, the guile areas, decks and discard.

use std::rc::Rc;

use battle_line::{Card, Command, Deck, Game, Player, Tactic};
use yew::prelude::*;

use super::card::{CardButton, card_static};
use super::state::Place;
use super::text;
use crate::ctx::use_ctx;
use crate::i18n::T;

/// Everything the table components need, computed once per render from the game.
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    pub game: Game,
    /// The seat shown at the bottom.
    pub viewer: Player,
    /// Whether the viewer may act now.
    pub active: bool,
    pub selected: Option<Card>,
    /// Cards the engine lets the viewer select now (empty when not active).
    pub selectable: Vec<Card>,
    /// For the selected card: each legal command and where it sends the card.
    pub targets: Vec<(Place, Command)>,
    /// Flags the viewer could prove now.
    pub claimable: Vec<u8>,
}

impl Table {
    pub fn is_target(&self, place: Place) -> bool {
        self.targets.iter().any(|(p, _)| *p == place)
    }

    pub fn target(&self, place: Place) -> Option<Command> {
        self.targets
            .iter()
            .find(|(p, _)| *p == place)
            .map(|(_, c)| *c)
    }

    /// Whether the viewer picks a card on the table now (a guile tactic's step): the
    /// selectable cards are not all in their hand.
    pub fn picking_on_table(&self) -> bool {
        let hand = self.game.hand(self.viewer);
        self.selectable.iter().any(|c| !hand.contains(c))
    }

    /// Whether the viewer may press `claim-<flag>` now: their turn, a claim moment,
    /// the flag open and their side full. The engine then proves or refuses it.
    pub fn claim_enabled(&self, flag: u8) -> bool {
        let Some(f) = self.game.flags().get(usize::from(flag)) else {
            return false;
        };
        self.active
            && self.game.claim_allowed_now()
            && f.owner.is_none()
            && f.slots(self.viewer).len() >= f.capacity()
    }
}

/// Which seat a player is, as the page names it.
pub fn seat_name(lang_t: impl Fn(T) -> &'static str, seat: Player, vs_cpu: bool) -> &'static str {
    match (seat, vs_cpu) {
        (Player::P0, true) => lang_t(T::BlYou),
        (Player::P1, true) => lang_t(T::BlComputer),
        (Player::P0, false) => lang_t(T::BlPlayer1),
        (Player::P1, false) => lang_t(T::BlPlayer2),
    }
}

#[derive(Debug, Properties, PartialEq, Clone)]
pub struct BoardProps {
    pub table: Rc<Table>,
    pub vs_cpu: bool,
    /// A tap on a place, with the card tapped if any.
    pub on_pick: Callback<(Place, Option<Card>)>,
    pub on_claim: Callback<u8>,
}

/// The nine flag columns, the opponent on top and the viewer at the bottom.
#[function_component(Board)]
pub fn board(props: &BoardProps) -> Html {
    let ctx = use_ctx();
    let table = &props.table;
    let me = table.viewer;
    let opp = me.opponent();
    let flags = table.game.flags();
    let row = |seat: Player, tactic: bool| -> Html {
        (0u8..9)
            .map(|i| {
                let f = &flags[usize::from(i)];
                let (place, cards, testid): (Place, Vec<Card>, String) = if tactic {
                    (
                        Place::TacticSlot { seat, flag: i },
                        f.tactic(seat).iter().map(|t| Card::Tactic(*t)).collect(),
                        format!("tactic-slot-{}-{i}", seat.index()),
                    )
                } else {
                    (
                        Place::Slot { seat, flag: i },
                        f.slots(seat).to_vec(),
                        format!("slot-{}-{i}", seat.index()),
                    )
                };
                let class = if tactic { "bl-tslot" } else { "bl-slot" };
                slot(table, place, cards, testid, class, &props.on_pick, &ctx)
            })
            .collect()
    };
    let flag_cells: Html = (0u8..9)
        .map(|i| {
            let f = &flags[usize::from(i)];
            let claimable = f.owner.is_none() && table.claimable.contains(&i);
            let on_claim = props.on_claim.reform(move |_: MouseEvent| i);
            let owner = f.owner.map(|p| seat_name(|k| ctx.t(k), p, props.vs_cpu));
            let env: Vec<&str> = [Tactic::Fog, Tactic::Mud]
                .into_iter()
                .filter(|t| f.has(*t))
                .map(|t| text::tactic_short(t, ctx.lang))
                .collect();
            html! {
                <div class={classes!("bl-flag", claimable.then_some("claimable"),
                        f.owner.map(|p| if p == me { "mine" } else { "theirs" }))}
                    data-testid={format!("flag-{i}")}
                    data-owner={f.owner.map(|p| p.index().to_string())}>
                    <span class="bl-flag-no" aria-hidden="true">{ "⚑" }{ i + 1 }</span>
                    if let Some(name) = owner {
                        <span class="bl-owner" data-testid={format!("owner-{i}")}>{ name }</span>
                    }
                    if claimable {
                        <span class="bl-claimable-mark" title={ctx.t(T::BlClaimable)}>{ "★" }</span>
                    }
                    if !env.is_empty() {
                        <span class="bl-env">{ env.join("+") }</span>
                    }
                    if f.owner.is_none() {
                        <button type="button" class="btn bl-claim" data-testid={format!("claim-{i}")}
                            disabled={!table.claim_enabled(i)} onclick={on_claim}>
                            { ctx.t(T::BlClaim) }
                        </button>
                    }
                </div>
            }
        })
        .collect();
    html! {
        <>
            // Shown on a phone only, where flags 8 and 9 start off-screen.
            <p class="bl-scroll-cue" data-testid="bl-scroll-cue">
                { ctx.lang.pick("← 表は横にスクロールできます（フラッグ1〜9）→", "← The table scrolls sideways (flags 1-9) →") }
            </p>
            <div class={classes!("bl-board", table.picking_on_table().then_some("bl-picking"))} data-testid="board">
                { row(opp, true) }
                { row(opp, false) }
                { flag_cells }
                { row(me, false) }
                { row(me, true) }
            </div>
        </>
    }
}

/// One side of one flag: a tap target holding that side's cards.
fn slot(
    table: &Table,
    place: Place,
    cards: Vec<Card>,
    testid: String,
    class: &'static str,
    on_pick: &Callback<(Place, Option<Card>)>,
    ctx: &crate::ctx::Ctx,
) -> Html {
    let target = table.is_target(place);
    let onclick = on_pick.reform(move |_: MouseEvent| (place, None));
    let on_card = on_pick.reform(move |card: Card| (place, Some(card)));
    let drop_label = match place {
        Place::Slot { flag, .. } | Place::TacticSlot { flag, .. } => {
            format!("{} ⚑{}", ctx.t(T::BlPlaceHere), flag + 1)
        }
        _ => ctx.t(T::BlPlaceHere).to_owned(),
    };
    html! {
        <div class={classes!(class, target.then_some("bl-target"))} data-testid={testid} {onclick}>
            { for cards.into_iter().map(|card| html! {
                <CardButton {card} testid="card" compact=true
                    selected={table.selected == Some(card)}
                    tabbable={table.selectable.contains(&card)} on_click={on_card.clone()} />
            }) }
            if target {
                // A real button so a keyboard can reach an empty target slot too; its
                // name says which flag, as the nine are read one after another.
                <button type="button" class="bl-drop" aria-label={drop_label}>{ ctx.t(T::BlPlaceHere) }</button>
            }
        </div>
    }
}

#[derive(Debug, Properties, PartialEq, Clone)]
pub struct FieldProps {
    pub table: Rc<Table>,
    pub seat: Player,
    pub on_pick: Callback<(Place, Option<Card>)>,
}

/// A player's guile area: the Scout/Redeploy/Deserter/Traitor cards they played.
#[function_component(GuileField)]
pub fn guile_field(props: &FieldProps) -> Html {
    let ctx = use_ctx();
    let place = Place::Field { seat: props.seat };
    let target = props.table.is_target(place);
    let onclick = props.on_pick.reform(move |_: MouseEvent| (place, None));
    let on_card = props.on_pick.reform(move |card: Card| (place, Some(card)));
    let cards = props.table.game.field(props.seat).to_vec();
    html! {
        <div class={classes!("bl-field", target.then_some("bl-target"))}
            data-testid={format!("field-{}", props.seat.index())} {onclick}>
            <span class="bl-label">{ ctx.t(T::BlGuileArea) }</span>
            { for cards.into_iter().map(|t| html! {
                <CardButton card={Card::Tactic(t)} testid="card" compact=true
                    tabbable={props.table.selectable.contains(&Card::Tactic(t))} on_click={on_card.clone()} />
            }) }
            if target {
                <button type="button" class="bl-drop">{ ctx.t(T::BlPlaceHere) }</button>
            }
        </div>
    }
}

#[derive(Debug, Properties, PartialEq, Clone)]
pub struct PilesProps {
    pub table: Rc<Table>,
    pub on_deck: Callback<Deck>,
    pub on_pick: Callback<(Place, Option<Card>)>,
}

/// Both decks (draw buttons with counts) and the shared discard pile, which can be opened.
#[function_component(Piles)]
pub fn piles(props: &PilesProps) -> Html {
    let ctx = use_ctx();
    let open = use_state(|| false);
    let table = &props.table;
    let game = &table.game;
    let legal = if table.active {
        game.legal_commands()
    } else {
        Vec::new()
    };
    let deck_usable = |deck: Deck| {
        table.is_target(Place::Deck(deck))
            || legal.iter().any(|c| {
                matches!(c, Command::ScoutDraw { deck: d } | Command::DrawAndEndTurn { deck: d } if *d == deck)
            })
    };
    let deck_button = |deck: Deck, testid: &'static str, label: T, count: usize| {
        let on_deck = props.on_deck.reform(move |_: MouseEvent| deck);
        let usable = deck_usable(deck);
        html! {
            <button type="button" class={classes!("btn", "bl-deck", usable.then_some("bl-target"))}
                data-testid={testid} disabled={!usable} onclick={on_deck}>
                { ctx.t(label) }{ " " }<span data-testid={format!("{testid}-count")}>{ count }</span>
            </button>
        }
    };
    let discard_target = table.is_target(Place::Discard);
    let on_discard = {
        let open = open.clone();
        let on_pick = props.on_pick.clone();
        Callback::from(move |_: MouseEvent| {
            if discard_target {
                on_pick.emit((Place::Discard, None));
            } else {
                open.set(!*open);
            }
        })
    };
    let discards: Vec<Card> = game
        .troop_discard()
        .iter()
        .map(|t| Card::Troop(*t))
        .chain(game.tactic_discard().iter().map(|t| Card::Tactic(*t)))
        .collect();
    html! {
        <div class="bl-piles">
            { deck_button(Deck::Troop, "draw-troop", T::BlTroopDeck, game.troop_deck_len()) }
            { deck_button(Deck::Tactic, "draw-tactic", T::BlTacticDeck, game.tactic_deck_len()) }
            <button type="button" class={classes!("btn", discard_target.then_some("bl-target"))}
                data-testid="discard" aria-expanded={open.to_string()} onclick={on_discard}>
                { ctx.t(T::BlDiscard) }{ format!(" ({})", discards.len()) }
            </button>
            if *open {
                <div class="bl-discard-list" data-testid="discard-list">
                    if discards.is_empty() {
                        <span class="muted">{ ctx.t(T::Empty) }</span>
                    }
                    { for discards.into_iter().map(|c| card_static(c, "discard-card", ctx.lang)) }
                </div>
            }
        </div>
    }
}
