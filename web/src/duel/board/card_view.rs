//! One card drawn with HTML/CSS only: a type-coloured face, or a card back that carries no identity.

use duel_engine::card::{CardDef, CardType, Code, Frame, SpellType};
use yew::prelude::*;

use crate::ctx::use_ctx;
use crate::i18n::Lang;

/// Battle position of a card on the monster zone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pos {
    Attack,
    Defense,
}

#[derive(Debug, Properties, PartialEq, Clone)]
pub struct CardViewProps {
    /// The passcode when the player may see the card; `None` draws a card back.
    pub code: Option<Code>,
    /// Only for cards on the monster zone.
    #[prop_or_default]
    pub position: Option<Pos>,
    #[prop_or_default]
    pub selected: bool,
    /// Makes the card a real `<button>` (keyboard reachable); `None` keeps it a plain box.
    #[prop_or_default]
    pub on_click: Option<Callback<()>>,
    #[prop_or_default]
    pub disabled: bool,
    /// Accessible label override (e.g. "select for discard").
    #[prop_or_default]
    pub label: Option<AttrValue>,
    /// Counters on the card; written as `data-counters` only when there are some.
    #[prop_or_default]
    pub counters: u8,
    /// For an equip card: the zone of the monster it is attached to (`M1`..`M5`),
    /// written as `data-equipped-to`.
    #[prop_or_default]
    pub equipped_to: Option<AttrValue>,
    /// For a card that opens a menu: whether it is open (`aria-expanded`, with
    /// `aria-haspopup`); such a card is not a toggle, so it carries no `aria-pressed`.
    #[prop_or_default]
    pub expanded: Option<bool>,
}

/// CSS class of the frame colour of a card.
pub fn frame_class(frame: Frame) -> &'static str {
    match frame {
        Frame::Normal => "frame-normal",
        Frame::Effect => "frame-effect",
        Frame::Fusion => "frame-fusion",
        Frame::Synchro => "frame-synchro",
        Frame::Token => "frame-token",
        Frame::Spell => "frame-spell",
        Frame::Trap => "frame-trap",
    }
}

/// A monster's type (race) as the player's language prints it; the data holds English.
pub fn race_name(race: &str, lang: Lang) -> &str {
    if lang == Lang::En {
        return race;
    }
    match race {
        "Aqua" => "水族",
        "Beast" => "獣族",
        "Dragon" => "ドラゴン族",
        "Fiend" => "悪魔族",
        "Machine" => "機械族",
        "Sea Serpent" => "海竜族",
        "Spellcaster" => "魔法使い族",
        "Warrior" => "戦士族",
        "Winged Beast" => "鳥獣族",
        "Zombie" => "アンデット族",
        other => other,
    }
}

/// A monster's Attribute as the player's language prints it (「闇属性」, "DARK").
pub fn attribute_name(attribute: &str, lang: Lang) -> &str {
    if lang == Lang::En {
        return attribute;
    }
    match attribute {
        "DARK" => "闇属性",
        "EARTH" => "地属性",
        "FIRE" => "炎属性",
        "LIGHT" => "光属性",
        "WATER" => "水属性",
        "WIND" => "風属性",
        other => other,
    }
}

/// A monster's stats in one line: 「闇属性 / Lv8 / ATK 2800 / DEF 2600」.
pub fn stats_line(m: &duel_engine::card::MonsterStats, lang: Lang) -> String {
    format!(
        "{} / Lv{} / ATK {} / DEF {}",
        attribute_name(&m.attribute, lang),
        m.level,
        m.atk,
        m.def
    )
}

/// A short type line: 「魔法・速攻」, 「魔法使い族 / 通常 / チューナー」, ...
pub fn kind_line(def: &CardDef, lang: Lang) -> String {
    match def.card_type {
        CardType::Monster => {
            let frame = match def.frame {
                Frame::Normal => lang.pick("通常", "Normal"),
                Frame::Effect => lang.pick("効果", "Effect"),
                Frame::Fusion => lang.pick("融合", "Fusion"),
                Frame::Synchro => lang.pick("シンクロ", "Synchro"),
                Frame::Token => lang.pick("トークン", "Token"),
                Frame::Spell | Frame::Trap => "",
            };
            let race = def
                .monster
                .as_ref()
                .map_or("", |m| race_name(&m.race, lang));
            let tuner = if def.is_tuner() {
                lang.pick(" / チューナー", " / Tuner")
            } else {
                ""
            };
            format!("{race} / {frame}{tuner}")
        }
        CardType::Spell | CardType::Trap => {
            let base = if def.is_spell() {
                lang.pick("魔法", "Spell")
            } else {
                lang.pick("罠", "Trap")
            };
            let sub = match def.sub {
                Some(SpellType::Normal) | None => lang.pick("通常", "Normal"),
                Some(SpellType::QuickPlay) => lang.pick("速攻", "Quick-Play"),
                Some(SpellType::Continuous) => lang.pick("永続", "Continuous"),
                Some(SpellType::Field) => lang.pick("フィールド", "Field"),
                Some(SpellType::Equip) => lang.pick("装備", "Equip"),
            };
            format!("{base}・{sub}")
        }
    }
}

/// The display name of a passcode (the passcode itself if the catalogue lacks it).
pub fn card_name(code: Code, lang: Lang) -> String {
    duel_engine::card::card(code)
        .map(|d| d.name(engine_lang(lang)).to_owned())
        .unwrap_or_else(|| code.to_string())
}

/// The engine keeps its own language enum for card texts.
pub fn engine_lang(lang: Lang) -> duel_engine::Lang {
    match lang {
        Lang::Ja => duel_engine::Lang::Ja,
        Lang::En => duel_engine::Lang::En,
    }
}

/// A page-unique number for each card's description element.
fn next_desc_id() -> u32 {
    thread_local! {
        static NEXT: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
    }
    NEXT.with(|n| {
        let id = n.get();
        n.set(id.wrapping_add(1));
        id
    })
}

#[function_component(CardView)]
pub fn card_view(props: &CardViewProps) -> Html {
    let ctx = use_ctx();
    let desc_id = use_state(next_desc_id);
    let position = props.position.map(|p| match p {
        Pos::Attack => "attack",
        Pos::Defense => "defense",
    });
    let pos_class = (props.position == Some(Pos::Defense)).then_some("pos-defense");
    let onclick = props
        .on_click
        .clone()
        .map(|cb| Callback::from(move |_: MouseEvent| cb.emit(())));

    let Some(code) = props.code else {
        // Face-down: nothing but the back is rendered, so the DOM cannot leak the card.
        let aria = props
            .label
            .clone()
            .unwrap_or_else(|| AttrValue::from(ctx.lang.pick("裏側のカード", "Face-down card")));
        return html! {
            <div data-testid="card" data-face="down" data-position={position} class={classes!("card-slot", pos_class)} aria-label={aria}>
                <div data-testid="card-back" class={classes!("card-back", pos_class)}></div>
            </div>
        };
    };

    let Some(def) = duel_engine::card::card(code) else {
        return html! {
            <div data-testid="card" data-face="up" data-card-id={code.to_string()} class="card">
                <span class="name">{ code }</span>
            </div>
        };
    };
    let lang = engine_lang(ctx.lang);
    let name = def.name(lang).to_owned();
    // The card's name is its accessible name; the rest of the face is its description
    // (`aria-describedby`), kept out of the name.
    let desc_id = format!("card-desc-{}", *desc_id);
    let body = html! {
        <>
            if let Some(label) = props.label.clone() {
                // The label already holds the name, with the card's notes.
                <span class="name" aria-hidden="true">{ name.clone() }</span>
                <span class="sr-only" data-testid="card-label">{ label }</span>
            } else {
                <span class="name">{ name.clone() }</span>
            }
            <span class="card-desc" id={desc_id.clone()} aria-hidden="true">
            {
                if let Some(m) = &def.monster {
                    {
                        let stars = "★".repeat(usize::from(m.level));
                        html! { <span class="stars" aria-label={format!("Lv{}", m.level)}>{ stars }</span> }
                    }
                } else {
                    Html::default()
                }
            }
            <span class="kind">{ kind_line(def, ctx.lang) }</span>
            <span class="text">{ def.text(lang) }</span>
            {
                if let Some(m) = &def.monster {
                    html! { <span class="atkdef">{ format!("ATK {} / DEF {}", m.atk, m.def) }</span> }
                } else {
                    Html::default()
                }
            }
            </span>
        </>
    };
    let class = classes!(
        "card",
        frame_class(def.frame),
        pos_class,
        props.selected.then_some("selected")
    );
    // The card is named by its content: the name it shows (or, with notes about counters,
    // equips or what a choice does, a screen-reader-only label holding the name and the
    // notes); the rest of the face is aria-hidden. No aria-label, so the accessible name
    // never differs from the text the button shows.
    let counters = (props.counters > 0).then(|| props.counters.to_string());
    let equipped_to = props.equipped_to.clone();
    // A Token is no card: it vanishes when it leaves the field, so the page tells it apart.
    let token = (def.frame == Frame::Token).then_some("true");
    let (pressed, haspopup, expanded) = match props.expanded {
        Some(open) => (None, Some("menu"), Some(open.to_string())),
        None => (Some(props.selected.to_string()), None, None),
    };
    match onclick {
        Some(onclick) => html! {
            <button type="button" data-testid="card" data-face="up" data-card-id={code.to_string()}
                data-position={position} data-counters={counters} data-equipped-to={equipped_to}
                data-token={token} class={class} onclick={onclick} disabled={props.disabled}
                aria-pressed={pressed} aria-haspopup={haspopup} aria-expanded={expanded}
                aria-describedby={desc_id.clone()}>
                { body }
            </button>
        },
        None => html! {
            <div data-testid="card" data-face="up" data-card-id={code.to_string()} data-position={position}
                data-counters={counters} data-equipped-to={equipped_to} data-token={token} class={class}
                aria-describedby={desc_id}>
                { body }
            </div>
        },
    }
}
