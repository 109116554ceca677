//! The 7-column field: `[field | M1..M5 | graveyard]` over `[extra deck | S1..S5 | deck]`,
//! with counters and equips drawn on their cards, plus both players' other piles.

use duel_engine::view::{CardView as CardSeen, SideView};
use duel_engine::{CardId, Code, Face, Position};
use yew::prelude::*;

use crate::ctx::use_ctx;
use crate::duel::board::card_view::{CardView, Pos, card_name, frame_class};
use crate::i18n::{T, card_with_notes, counters_label, equipped_label, equipped_to_label};

/// A pile whose content opens in a list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pile {
    Graveyard,
    Banished,
    Extra,
    OpponentGraveyard,
    OpponentBanished,
}

impl Pile {
    /// The pile's name in test ids: `zone-<name>` opens it, `list-<name>` is the list.
    pub fn zone(self) -> &'static str {
        match self {
            Pile::Graveyard => "graveyard",
            Pile::Banished => "banished",
            Pile::Extra => "extraDeck",
            Pile::OpponentGraveyard => "opponent-graveyard",
            Pile::OpponentBanished => "opponent-banished",
        }
    }
}

/// Where a clicked field card sits (decides which actions the menu offers).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldSlot {
    Monster(usize),
    SpellTrap(usize),
    Field,
}

impl FieldSlot {
    /// The name the field prints on the slot (`M1`..`M5`, `S1`..`S5`), also used by
    /// `data-slot` and `data-equipped-to`.
    pub fn name(self) -> String {
        match self {
            FieldSlot::Monster(i) => format!("M{}", i + 1),
            FieldSlot::SpellTrap(i) => format!("S{}", i + 1),
            FieldSlot::Field => "F".to_owned(),
        }
    }
}

/// The monster zone a card sits in on this side, if it is one of its monsters.
pub fn monster_slot(side: &SideView, id: CardId) -> Option<FieldSlot> {
    side.monsters
        .iter()
        .position(|c| c.is_some_and(|c| c.id == id))
        .map(FieldSlot::Monster)
}

/// The face-up equip cards attached to `monster`: their names and zones.
pub fn equips_of(
    side: &SideView,
    monster: CardId,
    lang: crate::i18n::Lang,
) -> Vec<(String, String)> {
    side.spell_trap
        .iter()
        .enumerate()
        .filter_map(|(i, c)| {
            let c = c.as_ref()?;
            (c.equipped_to == Some(monster)).then(|| {
                let name = c.code.map(|code| card_name(code, lang)).unwrap_or_default();
                (name, FieldSlot::SpellTrap(i).name())
            })
        })
        .collect()
}

#[derive(Debug, Properties, PartialEq, Clone)]
pub struct DuelFieldProps {
    pub side: SideView,
    /// The opponent's side: only its piles are drawn (its field stays empty in a solitaire).
    pub opponent: SideView,
    pub on_open_pile: Callback<Pile>,
    pub on_select_card: Callback<(FieldSlot, CardSeen)>,
    /// A Synchro Summon is possible now: the Extra Deck pile says so.
    #[prop_or_default]
    pub synchro_ready: bool,
}

/// 「枚」 / " cards" after a pile's count, for screen readers.
fn cards_word(lang: crate::i18n::Lang) -> &'static str {
    lang.pick("枚", " cards")
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
    let lang = ctx.lang;
    let side = &props.side;
    let slot = |zone: &'static str,
                kind: &'static str,
                slot: FieldSlot,
                card: Option<CardSeen>|
     -> Html {
        let label = match slot {
            FieldSlot::Field => ctx.t(T::FieldZone).to_owned(),
            _ => slot.name(),
        };
        let Some(card) = card else {
            return html! {
                <div class={classes!("zone", kind, "zone-slot-empty")} data-testid={format!("zone-{zone}")}
                    data-slot={slot.name()}>
                    { label }
                </div>
            };
        };
        let on_select = props.on_select_card.clone();
        let on_click = Callback::from(move |()| on_select.emit((slot, card)));
        let code = if card.face == Face::Up {
            card.code
        } else {
            None
        };
        let on_monster_zone = matches!(slot, FieldSlot::Monster(_));
        let position = if on_monster_zone { pos_of(&card) } else { None };
        // An equip names the monster's zone; the monster carries a marker naming its equips.
        let equipped_to = card
            .equipped_to
            .and_then(|id| monster_slot(side, id))
            .map(|s| AttrValue::from(s.name()));
        let equips = if on_monster_zone && code.is_some() {
            equips_of(side, card.id, lang)
        } else {
            Vec::new()
        };
        // The badges are drawn for the eye (with a title for the mouse); the card's own
        // accessible name says the same for screen readers and keyboard users.
        let mut notes = Vec::new();
        let counters = (card.counters > 0).then(|| {
            let text = counters_label(lang, card.counters);
            notes.push(text.clone());
            html! {
                <span class="counter-badge" data-testid="counter-badge" title={text} aria-hidden="true">
                    { card.counters }
                </span>
            }
        });
        let equip_marker = (!equips.is_empty()).then(|| {
            let text = equipped_label(lang, &equips);
            notes.push(text.clone());
            html! {
                <span class="equip-marker" data-testid="equip-marker" title={text} aria-hidden="true">
                    { ctx.t(T::EquipMark) }
                </span>
            }
        });
        if let Some(to) = &equipped_to {
            notes.push(equipped_to_label(lang, to));
        }
        let card_label = code
            .filter(|_| !notes.is_empty())
            .map(|c| AttrValue::from(card_with_notes(lang, &card_name(c, lang), &notes)));
        let equip_target = equipped_to.clone().map(|to| {
            html! { <span class="equip-target" data-testid="equip-target" aria-hidden="true">{ format!("→{to}") }</span> }
        });
        html! {
            <div class={classes!("zone", kind)} data-testid={format!("zone-{zone}")} data-slot={slot.name()}>
                if code.is_some() {
                    <CardView code={code} position={position} on_click={Some(on_click)}
                        counters={card.counters} equipped_to={equipped_to} label={card_label} />
                } else {
                    // A face-down card stays a button so its actions are keyboard reachable,
                    // but carries no identity.
                    <button type="button" class="card-button" aria-label={format!("{label}: {}", lang.pick("裏側", "face-down"))}
                        onclick={on_click.reform(|_: MouseEvent| ())}>
                        <CardView code={None} position={position} />
                    </button>
                }
                { counters.unwrap_or_default() }
                { equip_marker.unwrap_or_default() }
                { equip_target.unwrap_or_default() }
            </div>
        }
    };
    // A pile's name is its visible text (label, then count) with the words only a screen
    // reader needs: 「墓地 3枚」, "GY 3 cards: a Synchro Summon is possible".
    // A face-up pile (the graveyard) shows its top card, named for screen readers too.
    let pile = |pile: Pile,
                label: &'static str,
                count: usize,
                open: bool,
                back: bool,
                top: Option<Code>|
     -> Html {
        let zone = pile.zone();
        let ready = pile == Pile::Extra && props.synchro_ready;
        let top = top.and_then(duel_engine::card::card);
        let covered = (back && count > 0) || top.is_some();
        let inner = html! {
            <>
                if back && count > 0 {
                    <div data-testid="card-back" class="card-back" aria-hidden="true"></div>
                }
                if let Some(def) = top {
                    <span class={classes!("pile-top", frame_class(def.frame))} data-testid="pile-top"
                        data-top-card={def.code.to_string()} aria-hidden="true">
                        { card_name(def.code, lang) }
                    </span>
                }
                <span class={if covered { "pile-label" } else { "zone-slot-empty" }}>{ label }</span>
                <span class="badge" data-testid={format!("count-{zone}")}>{ count }</span>
                <span class="sr-only">
                    { cards_word(lang) }
                    if let Some(def) = top {
                        { format!("{}{}", lang.pick("、一番上：", ", top: "), card_name(def.code, lang)) }
                    }
                    if ready {
                        { format!(": {}", ctx.t(T::SynchroReady)) }
                    }
                </span>
            </>
        };
        if open {
            let cb = props.on_open_pile.clone();
            html! {
                <button type="button" class={classes!("zone", "zone-pile", ready.then_some("pile-ready"))}
                    data-testid={format!("zone-{zone}")} data-ready={ready.then_some("true")}
                    onclick={Callback::from(move |_: MouseEvent| cb.emit(pile))}
                    title={ready.then(|| ctx.t(T::SynchroReady))}>
                    { inner }
                </button>
            }
        } else {
            html! {
                <div class="zone zone-pile" data-testid={format!("zone-{zone}")}>
                    { inner }
                </div>
            }
        }
    };
    // The piles outside the 7 columns open from a row of buttons with their counts.
    let pile_button = |pile: Pile, label: &'static str, count: usize| -> Html {
        let zone = pile.zone();
        let cb = props.on_open_pile.clone();
        html! {
            <button type="button" class="btn pile-button" data-testid={format!("zone-{zone}")}
                onclick={Callback::from(move |_: MouseEvent| cb.emit(pile))}>
                { label }
                <span class="pile-count" data-testid={format!("count-{zone}")}>{ count }</span>
                <span class="sr-only">{ cards_word(lang) }</span>
            </button>
        }
    };
    html! {
        <>
            <div class="btn-row pile-row" data-testid="opponent-piles">
                { pile_button(Pile::OpponentGraveyard, ctx.t(T::OpponentGraveyard), props.opponent.graveyard.len()) }
                { pile_button(Pile::OpponentBanished, ctx.t(T::OpponentBanished), props.opponent.banished.len()) }
            </div>
            <div class="field" data-testid="duel-field" role="group" aria-label={ctx.t(T::FieldZone)}>
                { slot("fieldZone", "zone-field", FieldSlot::Field, side.field_zone) }
                { for side.monsters.iter().enumerate().map(|(i, c)|
                    slot("mainMonsterZone", "zone-monster", FieldSlot::Monster(i), *c)) }
                { pile(Pile::Graveyard, ctx.t(T::Graveyard), side.graveyard.len(), true, false,
                    side.graveyard.last().and_then(|c| c.code)) }
                { pile(Pile::Extra, ctx.t(T::ExtraDeck), side.extra.len(), true, true, None) }
                { for side.spell_trap.iter().enumerate().map(|(i, c)|
                    slot("spellTrapZone", "zone-spell", FieldSlot::SpellTrap(i), *c)) }
                <div class="zone zone-pile" data-testid="zone-deck">
                    if side.deck_count > 0 {
                        <div data-testid="card-back" class="card-back" aria-hidden="true"></div>
                    }
                    <span class={if side.deck_count > 0 { "pile-label" } else { "zone-slot-empty" }}>{ ctx.t(T::Deck) }</span>
                    <span class="badge" data-testid="count-deck">{ side.deck_count }</span>
                    <span class="sr-only">{ cards_word(lang) }</span>
                </div>
            </div>
            <div class="btn-row pile-row">
                { pile_button(Pile::Banished, ctx.t(T::Banished), side.banished.len()) }
            </div>
        </>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use duel_engine::{Duel, Setup};

    const LIBRARY: u32 = 70791313;
    const BROKEN_BAMBOO: u32 = 41587307;
    const SANGAN: u32 = 26202165;

    #[test]
    fn slot_names_match_the_labels_printed_on_the_field() {
        assert_eq!(FieldSlot::Monster(0).name(), "M1");
        assert_eq!(FieldSlot::Monster(4).name(), "M5");
        assert_eq!(FieldSlot::SpellTrap(2).name(), "S3");
        assert_eq!(Pile::OpponentGraveyard.zone(), "opponent-graveyard");
    }

    #[test]
    fn an_equip_names_its_monster_zone_and_the_monster_lists_its_equips() {
        let duel: Duel = Setup::new()
            .monster(SANGAN)
            .monster(LIBRARY)
            .equip(BROKEN_BAMBOO, 1)
            .build()
            .expect("valid setup");
        let side = duel.view().you;
        let library = side.monsters[1].expect("Library in M2");
        let sword = side.spell_trap[0].expect("the sword in S1");
        assert_eq!(
            sword.equipped_to.and_then(|id| monster_slot(&side, id)),
            Some(FieldSlot::Monster(1))
        );
        assert_eq!(
            equips_of(&side, library.id, crate::i18n::Lang::Ja),
            vec![("折れ竹光".to_string(), "S1".to_string())]
        );
    }
}
