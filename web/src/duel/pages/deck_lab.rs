//! The deck lab (`#/deck-lab`): build a deck of one's own from the simulator's cards
//! (searched by name in either language, filtered by kind), see plainly what makes it
//! illegal and which goal it plays for, keep it in localStorage by name, and import or
//! export it as `.ydk` text or a `ydke://` link.

use duel_engine::card::{CardDef, CardType, Code, card};
use duel_engine::deck_file::{self, DeckFileError, Imported, Section};
use duel_engine::deck_list::{
    AddError, COPIES_MAX, DeckList, DeckProblem, EXTRA_MAX, MAIN_MAX, MAIN_MIN, Part,
    extra_deck_card, pool,
};
use duel_engine::{Outcome, Reason, decks};
use web_sys::{HtmlInputElement, HtmlTextAreaElement};
use yew::prelude::*;

use crate::ctx::use_ctx;
use crate::duel::board::card_view::{card_name, engine_lang, frame_class};
use crate::duel::pages::compare::Compare;
use crate::duel::pages::lab_play::LabPlay;
use crate::duel::practice::jobs::custom_deck_id;
use crate::i18n::Lang;
use crate::storage;

/// The most decks kept by name.
pub const MAX_SAVED: usize = 50;
/// The longest deck name kept (in characters).
pub const MAX_NAME: usize = 40;

/// A kind of card the pool can be narrowed to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Kind {
    #[default]
    All,
    Monster,
    Spell,
    Trap,
    Extra,
}

impl Kind {
    const ALL: [Kind; 5] = [
        Kind::All,
        Kind::Monster,
        Kind::Spell,
        Kind::Trap,
        Kind::Extra,
    ];

    fn code(self) -> &'static str {
        match self {
            Kind::All => "all",
            Kind::Monster => "monster",
            Kind::Spell => "spell",
            Kind::Trap => "trap",
            Kind::Extra => "extra",
        }
    }

    fn label(self, lang: Lang) -> &'static str {
        match self {
            Kind::All => lang.pick("すべて", "All"),
            Kind::Monster => lang.pick("モンスター", "Monsters"),
            Kind::Spell => lang.pick("魔法", "Spells"),
            Kind::Trap => lang.pick("罠", "Traps"),
            Kind::Extra => lang.pick("エクストラ", "Extra Deck"),
        }
    }

    fn holds(self, def: &CardDef) -> bool {
        match self {
            Kind::All => true,
            Kind::Monster => def.card_type == CardType::Monster && !extra_deck_card(def),
            Kind::Spell => def.card_type == CardType::Spell,
            Kind::Trap => def.card_type == CardType::Trap,
            Kind::Extra => extra_deck_card(def),
        }
    }
}

/// Whether `def`'s name in either language holds `q`, a query already trimmed and
/// folded to lower case (an empty one holds every card). ASCII case folding is enough
/// for the card names, and the full Unicode tables would weigh some 20 KB of the bundle.
fn name_holds(def: &CardDef, q: &str) -> bool {
    q.is_empty() || def.name_en.to_ascii_lowercase().contains(q) || def.name_ja.contains(q)
}

/// The pool's cards of `kind` whose names hold `query` (surrounding spaces and the case
/// of Latin letters ignored), in passcode order.
pub fn search(query: &str, kind: Kind) -> Vec<&'static CardDef> {
    let q = query.trim().to_ascii_lowercase();
    pool()
        .filter(|d| kind.holds(d) && name_holds(d, &q))
        .collect()
}

/// A `data:` address holding `text` (a `.ydk` file to download): the characters that
/// are not safe in an address percent-encoded, as UTF-8.
pub fn ydk_href(text: &str) -> String {
    let mut out = String::from("data:text/plain;charset=utf-8,");
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.!~*'()".contains(&b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// A deck name as a file name's stem: characters that are not safe in file names become
/// `_`; `deck` when nothing is left.
pub fn file_stem(name: &str) -> String {
    let stem: String = name
        .trim()
        .chars()
        .map(|c| {
            if c.is_control() || "\\/:*?\"<>|".contains(c) {
                '_'
            } else {
                c
            }
        })
        .collect();
    if stem.is_empty() {
        "deck".to_owned()
    } else {
        stem
    }
}

/// Saved decks: one line per deck, `<name>\t<ydke link>` (then `\tburn` for a deck that
/// can win both ways and plays for a burn), newest last.
pub fn saved_text(saved: &[(String, DeckList)]) -> String {
    saved
        .iter()
        .map(|(name, list)| {
            // The goal chosen for a deck that can win both ways follows its link.
            let goal = if list.goal == Some(Reason::Lp0) {
                "\tburn"
            } else {
                ""
            };
            format!("{name}\t{}{goal}\n", deck_file::write_ydke(list))
        })
        .collect()
}

/// Reads [`saved_text`]: the decks that read, and how many lines did not (a corrupt
/// entry is left out, never a crash).
pub fn read_saved(text: &str) -> (Vec<(String, DeckList)>, usize) {
    let mut out: Vec<(String, DeckList)> = Vec::new();
    let mut bad = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let read = line.split_once('\t').and_then(|(name, rest)| {
            let (link, goal) = rest.split_once('\t').unwrap_or((rest, ""));
            let mut list = deck_file::read_ydke(link).ok()?.list;
            list.goal = (goal == "burn").then_some(Reason::Lp0);
            let name = clean_name(name)?;
            Some((name, list))
        });
        match read {
            Some((name, list)) => {
                out.retain(|(n, _)| *n != name);
                out.push((name, list));
            }
            None => bad += 1,
        }
    }
    (out, bad)
}

/// A deck name as kept: tabs and line breaks become spaces, trimmed, at most
/// [`MAX_NAME`] characters; `None` when nothing is left.
pub fn clean_name(name: &str) -> Option<String> {
    let name: String = name
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect::<String>()
        .trim()
        .chars()
        .take(MAX_NAME)
        .collect();
    (!name.is_empty()).then_some(name)
}

fn load_saved() -> (Vec<(String, DeckList)>, usize) {
    let Some(text) = storage::get(storage::KEY_DUEL_DECKS) else {
        return (Vec::new(), 0);
    };
    let (saved, bad) = read_saved(&text);
    if bad > 0 {
        // The unreadable entries are dropped for good, and the player is told.
        storage::set(storage::KEY_DUEL_DECKS, &saved_text(&saved));
    }
    (saved, bad)
}

fn goal_text(goal: Outcome, lang: Lang) -> &'static str {
    match goal {
        Outcome::Win(Reason::Exodia) => lang.pick("エクゾディア", "Exodia"),
        _ => lang.pick("バーン（相手のLPを0に）", "Burn (the opponent's LP to 0)"),
    }
}

/// A problem said plainly, naming its card.
pub fn problem_text(p: DeckProblem, lang: Lang) -> String {
    let name = |code: Code| card_name(code, lang);
    match (p, lang) {
        (DeckProblem::MainTooSmall(n), Lang::Ja) => {
            format!("メインデッキが{n}枚です（{MAIN_MIN}枚以上必要）")
        }
        (DeckProblem::MainTooSmall(n), Lang::En) => {
            format!("The main deck holds {n} cards; it needs at least {MAIN_MIN}.")
        }
        (DeckProblem::MainTooLarge(n), Lang::Ja) => {
            format!("メインデッキが{n}枚です（{MAIN_MAX}枚まで）")
        }
        (DeckProblem::MainTooLarge(n), Lang::En) => {
            format!("The main deck holds {n} cards; at most {MAIN_MAX}.")
        }
        (DeckProblem::ExtraTooLarge(n), Lang::Ja) => {
            format!("エクストラデッキが{n}枚です（{EXTRA_MAX}枚まで）")
        }
        (DeckProblem::ExtraTooLarge(n), Lang::En) => {
            format!("The Extra Deck holds {n} cards; at most {EXTRA_MAX}.")
        }
        (DeckProblem::TooManyCopies { code, copies }, Lang::Ja) => {
            format!(
                "《{}》が{copies}枚あります（同名カードは{COPIES_MAX}枚まで）",
                name(code)
            )
        }
        (DeckProblem::TooManyCopies { code, copies }, Lang::En) => format!(
            "{} is in the deck {copies} times; at most {COPIES_MAX} copies of a card.",
            name(code)
        ),
        (DeckProblem::UnknownCard(code), Lang::Ja) => {
            format!("カード {code} はこのシミュレーターにありません")
        }
        (DeckProblem::UnknownCard(code), Lang::En) => {
            format!("Card {code} is not in this simulator.")
        }
        (DeckProblem::ExtraMonsterInMain(code), Lang::Ja) => {
            format!("《{}》はエクストラデッキのモンスターです", name(code))
        }
        (DeckProblem::ExtraMonsterInMain(code), Lang::En) => {
            format!("{} is an Extra Deck monster.", name(code))
        }
        (DeckProblem::NotExtraCard(code), Lang::Ja) => {
            format!("《{}》はエクストラデッキに入れられません", name(code))
        }
        (DeckProblem::NotExtraCard(code), Lang::En) => {
            format!("{} cannot go in the Extra Deck.", name(code))
        }
        (DeckProblem::NoWayToWin, Lang::Ja) => {
            "勝ち筋がありません（エクゾディア5種すべて、またはダメージを与えるカードが必要）".into()
        }
        (DeckProblem::NoWayToWin, Lang::En) => {
            "No way to win: it needs all five Exodia pieces or a card that deals damage.".into()
        }
    }
}

fn add_error_text(e: AddError, lang: Lang) -> String {
    match (e, lang) {
        (AddError::UnknownCard(code), Lang::Ja) => format!("カード {code} はありません"),
        (AddError::UnknownCard(code), Lang::En) => format!("There is no card {code}."),
        (AddError::TooManyCopies(code), Lang::Ja) => {
            format!(
                "《{}》はもう{COPIES_MAX}枚入っています",
                card_name(code, lang)
            )
        }
        (AddError::TooManyCopies(code), Lang::En) => format!(
            "The deck already holds {COPIES_MAX} copies of {}.",
            card_name(code, lang)
        ),
        (AddError::Full(Part::Main), Lang::Ja) => {
            format!("メインデッキは{MAIN_MAX}枚で満杯です")
        }
        (AddError::Full(Part::Main), Lang::En) => {
            format!("The main deck is full ({MAIN_MAX} cards).")
        }
        (AddError::Full(Part::Extra), Lang::Ja) => {
            format!("エクストラデッキは{EXTRA_MAX}枚で満杯です")
        }
        (AddError::Full(Part::Extra), Lang::En) => {
            format!("The Extra Deck is full ({EXTRA_MAX} cards).")
        }
    }
}

fn file_error_text(e: &DeckFileError, lang: Lang) -> String {
    match (e, lang) {
        (DeckFileError::BadLine { line, text }, Lang::Ja) => {
            format!("{line}行目を読めません：{text}")
        }
        (DeckFileError::NoSection(line), Lang::Ja) => {
            format!("{line}行目：#main などの見出しより前にカードがあります")
        }
        (DeckFileError::NotYdke, Lang::Ja) => "ydke:// で始まるリンクではありません".into(),
        (DeckFileError::BadBase64(_), Lang::Ja) => "ydke リンクの中身が壊れています".into(),
        (DeckFileError::Sections(_), Lang::Ja) => "ydke リンクの区切り（!）の数が違います".into(),
        (DeckFileError::Empty, Lang::Ja) => "カードが1枚もありません".into(),
        (other, Lang::En) => {
            let mut s = other.to_string();
            if let Some(first) = s.get(..1) {
                s = first.to_ascii_uppercase() + &s[1..];
            }
            s + "."
        }
    }
}

fn left_out_text(imported: &Imported, lang: Lang) -> Vec<String> {
    imported
        .left_out
        .iter()
        .map(|l| {
            let what = if l.unknown {
                lang.pick("未実装", "not implemented")
            } else {
                lang.pick("サイドデッキ", "side deck")
            };
            let section = match l.section {
                Section::Main => "#main",
                Section::Extra => "#extra",
                Section::Side => "!side",
            };
            let name = if l.unknown {
                l.code.to_string()
            } else {
                card_name(l.code, lang)
            };
            format!("{name} ×{} ({section}, {what})", l.copies)
        })
        .collect()
}

/// What the player sees after an action: what happened, or why it could not.
#[derive(Debug, Clone, PartialEq)]
enum Notice {
    Info(String),
    Error(String),
}

fn input_value(e: &InputEvent) -> String {
    e.target_unchecked_into::<HtmlInputElement>().value()
}

#[function_component(DeckLab)]
pub fn deck_lab() -> Html {
    let ctx = use_ctx();
    let lang = ctx.lang;
    let list = use_state(DeckList::default);
    let query = use_state(String::new);
    let kind = use_state(Kind::default);
    let name = use_state(String::new);
    let import = use_state(String::new);
    let left_out = use_state(Vec::<String>::new);
    // Read once: the decks kept, and how many entries could not be read (removed).
    let first = use_memo((), |_| load_saved());
    let notice = use_state(|| {
        let bad = first.1;
        (bad > 0).then(|| {
            Notice::Error(match lang {
                Lang::Ja => format!("読めない保存デッキ{bad}件を削除しました"),
                Lang::En => format!("{bad} saved deck(s) could not be read and were removed."),
            })
        })
    });
    let saved = use_state(|| first.0.clone());
    let compare_with = use_state(String::new);
    let on_compare_with = {
        let compare_with = compare_with.clone();
        Callback::from(move |e: Event| {
            if let Some(select) = e.target_dyn_into::<web_sys::HtmlSelectElement>() {
                compare_with.set(select.value());
            }
        })
    };

    let add = |code: Code| {
        let list = list.clone();
        let notice = notice.clone();
        Callback::from(move |_: MouseEvent| {
            let mut next = (*list).clone();
            match next.add(code) {
                Ok(_) => {
                    list.set(next);
                    notice.set(None);
                }
                Err(e) => notice.set(Some(Notice::Error(add_error_text(e, lang)))),
            }
        })
    };
    let remove = |code: Code| {
        let list = list.clone();
        Callback::from(move |_: MouseEvent| {
            let mut next = (*list).clone();
            if next.remove(code) {
                list.set(next);
            }
        })
    };
    // A deck whose cards reach both goals plays for the one chosen here.
    let on_goal = {
        let list = list.clone();
        Callback::from(move |e: Event| {
            if let Some(select) = e.target_dyn_into::<web_sys::HtmlSelectElement>() {
                let mut next = (*list).clone();
                next.goal = Some(if select.value() == "burn" {
                    Reason::Lp0
                } else {
                    Reason::Exodia
                });
                list.set(next);
            }
        })
    };
    let start_from = |preset: Option<&'static str>| {
        let list = list.clone();
        let name = name.clone();
        let left_out = left_out.clone();
        let notice = notice.clone();
        Callback::from(move |_: MouseEvent| {
            let def = preset.and_then(duel_engine::deck);
            list.set(def.map(DeckList::from).unwrap_or_default());
            name.set(
                def.map(|d| d.name(engine_lang(lang)).to_owned())
                    .unwrap_or_default(),
            );
            left_out.set(Vec::new());
            notice.set(None);
        })
    };
    // Reads a deck file's text (pasted, chosen or dropped) into the lab.
    let import_text = {
        let list = list.clone();
        let import = import.clone();
        let left_out = left_out.clone();
        let notice = notice.clone();
        Callback::from(move |text: String| {
            match deck_file::read(&text) {
                Ok(imported) => {
                    left_out.set(left_out_text(&imported, lang));
                    let n = imported.list.count(Part::Main) + imported.list.count(Part::Extra);
                    list.set(imported.list);
                    notice.set(Some(Notice::Info(match lang {
                        Lang::Ja => format!("{n}枚を読み込みました"),
                        Lang::En => format!("{n} cards read."),
                    })));
                }
                Err(e) => notice.set(Some(Notice::Error(file_error_text(&e, lang)))),
            }
            import.set(text);
        })
    };
    let on_import = {
        let import = import.clone();
        let import_text = import_text.clone();
        Callback::from(move |_: MouseEvent| import_text.emit((*import).clone()))
    };
    // A file's text is read off the page's thread; one that does not read as text says so.
    let read_file = {
        let notice = notice.clone();
        let import_text = import_text.clone();
        move |file: web_sys::File| {
            let notice = notice.clone();
            let import_text = import_text.clone();
            wasm_bindgen_futures::spawn_local(async move {
                match wasm_bindgen_futures::JsFuture::from(file.text()).await {
                    Ok(text) => import_text.emit(text.as_string().unwrap_or_default()),
                    Err(_) => notice.set(Some(Notice::Error(
                        lang.pick("ファイルを読めませんでした", "The file could not be read.")
                            .into(),
                    ))),
                }
            });
        }
    };
    let on_file = {
        let read_file = read_file.clone();
        Callback::from(move |e: Event| {
            let input = e.target_unchecked_into::<HtmlInputElement>();
            if let Some(file) = input.files().and_then(|f| f.get(0)) {
                read_file(file);
            }
            // The same file chosen again is read again.
            input.set_value("");
        })
    };
    // A dropped file, or dropped text (a ydke:// link dragged from another page).
    let on_drop = {
        let import_text = import_text.clone();
        Callback::from(move |e: DragEvent| {
            e.prevent_default();
            let Some(data) = e.data_transfer() else {
                return;
            };
            if let Some(file) = data.files().and_then(|f| f.get(0)) {
                read_file(file);
            } else if let Ok(text) = data.get_data("text/plain")
                && !text.is_empty()
            {
                import_text.emit(text);
            }
        })
    };
    let on_drag_over = Callback::from(|e: DragEvent| e.prevent_default());
    let on_save = {
        let list = list.clone();
        let name = name.clone();
        let saved = saved.clone();
        let notice = notice.clone();
        Callback::from(move |_: MouseEvent| {
            let Some(clean) = clean_name(&name) else {
                notice.set(Some(Notice::Error(
                    lang.pick("デッキ名を入力してください", "Give the deck a name.")
                        .into(),
                )));
                return;
            };
            let mut next: Vec<(String, DeckList)> =
                saved.iter().filter(|(n, _)| *n != clean).cloned().collect();
            if next.len() >= MAX_SAVED {
                notice.set(Some(Notice::Error(match lang {
                    Lang::Ja => format!("保存できるのは{MAX_SAVED}個までです"),
                    Lang::En => format!("At most {MAX_SAVED} decks can be kept."),
                })));
                return;
            }
            next.push((clean.clone(), (*list).clone()));
            if storage::set(storage::KEY_DUEL_DECKS, &saved_text(&next)) {
                saved.set(next);
                notice.set(Some(Notice::Info(match lang {
                    Lang::Ja => format!("「{clean}」を保存しました"),
                    Lang::En => format!("Saved \u{201c}{clean}\u{201d}."),
                })));
            } else {
                notice.set(Some(Notice::Error(
                    lang.pick(
                        "保存できませんでした（ブラウザの保存領域が使えません）",
                        "Could not save: the browser's storage is not available.",
                    )
                    .into(),
                )));
            }
        })
    };
    let load = |deck_name: String| {
        let list = list.clone();
        let name = name.clone();
        let saved = saved.clone();
        let notice = notice.clone();
        Callback::from(move |_: MouseEvent| {
            if let Some((_, l)) = saved.iter().find(|(n, _)| *n == deck_name) {
                list.set(l.clone());
                name.set(deck_name.clone());
                notice.set(None);
            }
        })
    };
    let delete = |deck_name: String| {
        let saved = saved.clone();
        Callback::from(move |_: MouseEvent| {
            let next: Vec<(String, DeckList)> = saved
                .iter()
                .filter(|(n, _)| *n != deck_name)
                .cloned()
                .collect();
            storage::set(storage::KEY_DUEL_DECKS, &saved_text(&next));
            saved.set(next);
        })
    };

    let problems = list.problems();
    // The deck B of the comparison: a saved deck's list or a preset (its id).
    let other = if let Some(n) = compare_with.strip_prefix("saved:") {
        saved
            .iter()
            .find(|(name, _)| name == n)
            .map(|(_, l)| custom_deck_id(l))
    } else {
        duel_engine::deck(&compare_with).map(|d| d.id.clone())
    };
    let goals = list.goals();
    let found = search(&query, *kind);
    let deck_rows = |part: Part| -> Html {
        let entries = match part {
            Part::Main => &list.main,
            Part::Extra => &list.extra,
        };
        html! {
            <ul class="lab-deck-list">
                { for entries.iter().map(|&(code, n)| {
                    let frame = card(code).map_or("frame-token", |d| frame_class(d.frame));
                    let label = card_name(code, lang);
                    html! {
                        <li class={classes!("lab-row", frame)} data-testid="lab-deck-card"
                            data-card-id={code.to_string()} data-count={n.to_string()}>
                            <span class="lab-name">{ label.clone() }</span>
                            <span class="lab-count">{ format!("×{n}") }</span>
                            <button type="button" class="btn" data-testid="lab-remove"
                                aria-label={format!("{} {}", lang.pick("1枚減らす:", "Remove one:"), label)}
                                onclick={remove(code)}>{ "−" }</button>
                            <button type="button" class="btn" data-testid="lab-add"
                                aria-label={format!("{} {}", lang.pick("1枚増やす:", "Add one:"), label)}
                                onclick={add(code)}>{ "+" }</button>
                        </li>
                    }
                }) }
            </ul>
        }
    };
    let main_count = list.count(Part::Main);
    let extra_count = list.count(Part::Extra);
    let export_text = deck_file::write_ydk(&list);
    let export_link = deck_file::write_ydke(&list);

    html! {
        <section class="page deck-lab" data-testid="deck-lab">
            <h2>{ lang.pick("デッキ研究所", "Deck lab") }</h2>
            <p>{ lang.pick(
                "シミュレーターのカードから自分のデッキを組み、保存・読み込み・書き出しができます。",
                "Build a deck of your own from the simulator's cards; save, import and export it.",
            ) }</p>
            <div class="lab-start" role="group" aria-label={lang.pick("デッキの出発点", "Start from")}>
                <button type="button" class="btn" data-testid="lab-empty" onclick={start_from(None)}>
                    { lang.pick("空のデッキ", "Empty deck") }
                </button>
                { for decks().iter().map(|d| html! {
                    <button type="button" class="btn" data-testid="lab-from-preset" data-deck={d.id.clone()}
                        onclick={start_from(Some(d.id.as_str()))}>
                        { d.name(engine_lang(lang)) }
                    </button>
                }) }
            </div>
            if let Some(n) = &*notice {
                { match n {
                    Notice::Info(t) => html! { <p class="lab-notice" role="status" data-testid="lab-notice">{ t.clone() }</p> },
                    Notice::Error(t) => html! { <p class="lab-notice error" role="alert" data-testid="lab-notice">{ t.clone() }</p> },
                } }
            }
            <div class="lab-columns">
                <section class="lab-pool" aria-labelledby="lab-pool-title">
                    <h3 id="lab-pool-title">{ lang.pick("カード一覧", "Card pool") }</h3>
                    <label class="lab-field">
                        { lang.pick("カード名で検索", "Search by name") }
                        <input type="search" data-testid="lab-search" value={(*query).clone()}
                            oninput={{ let query = query.clone(); Callback::from(move |e: InputEvent| query.set(input_value(&e))) }} />
                    </label>
                    <div class="lab-kinds" role="group" aria-label={lang.pick("種類", "Kind")}>
                        { for Kind::ALL.iter().map(|&k| {
                            let kind_state = kind.clone();
                            html! {
                                <button type="button" class={classes!("btn", (k == *kind).then_some("btn-primary"))}
                                    data-testid="lab-kind" data-kind={k.code()} aria-pressed={(k == *kind).to_string()}
                                    onclick={Callback::from(move |_: MouseEvent| kind_state.set(k))}>
                                    { k.label(lang) }
                                </button>
                            }
                        }) }
                    </div>
                    <ul class="lab-pool-list">
                        { for found.iter().map(|def| {
                            let label = card_name(def.code, lang);
                            let held = list.copies(def.code);
                            html! {
                                <li class={classes!("lab-row", frame_class(def.frame))} data-testid="lab-card"
                                    data-card-id={def.code.to_string()}>
                                    <span class="lab-name">{ label.clone() }</span>
                                    <span class="lab-count">{ if held > 0 { format!("×{held}") } else { String::new() } }</span>
                                    <button type="button" class="btn" data-testid="lab-add"
                                        aria-label={format!("{} {}", lang.pick("デッキに入れる:", "Add to the deck:"), label)}
                                        onclick={add(def.code)}>{ "+" }</button>
                                </li>
                            }
                        }) }
                    </ul>
                    if found.is_empty() {
                        <p>{ lang.pick("該当するカードはありません", "No card matches.") }</p>
                    }
                </section>
                <section class="lab-deck" aria-labelledby="lab-deck-title">
                    <h3 id="lab-deck-title">{ lang.pick("デッキ", "Deck") }</h3>
                    <p>
                        { lang.pick("メイン", "Main") }{ " " }
                        <strong data-testid="lab-count-main" data-value={main_count.to_string()}>
                            { format!("{main_count} / {MAIN_MIN}–{MAIN_MAX}") }
                        </strong>
                        { " · " }{ lang.pick("エクストラ", "Extra") }{ " " }
                        <strong data-testid="lab-count-extra" data-value={extra_count.to_string()}>
                            { format!("{extra_count} / {EXTRA_MAX}") }
                        </strong>
                    </p>
                    <p data-testid="lab-goal" data-value={list.goal().map_or("none", |g| match g {
                        Outcome::Win(Reason::Exodia) => "exodia",
                        _ => "burn",
                    })}>
                        { lang.pick("勝ち筋: ", "Goal: ") }
                        if goals.len() > 1 {
                            <select data-testid="lab-goal-choice" onchange={on_goal}
                                aria-label={lang.pick("どちらの勝ち筋で決闘するか", "The goal to play for")}>
                                { for goals.iter().map(|&g| {
                                    let value = if g == Outcome::Win(Reason::Exodia) { "exodia" } else { "burn" };
                                    html! {
                                        <option value={value} selected={list.goal() == Some(g)}>{ goal_text(g, lang) }</option>
                                    }
                                }) }
                            </select>
                        } else if goals.is_empty() {
                            { lang.pick("なし", "none") }
                        } else {
                            { goals.iter().map(|&g| goal_text(g, lang)).collect::<String>() }
                        }
                    </p>
                    if problems.is_empty() {
                        <p class="lab-ok" data-testid="lab-legal">{ lang.pick("このデッキで決闘できます", "This deck can be played.") }</p>
                    } else {
                        <ul class="lab-problems" aria-label={lang.pick("デッキの問題", "Problems")}>
                            { for problems.iter().map(|&p| html! {
                                <li data-testid="lab-problem">{ problem_text(p, lang) }</li>
                            }) }
                        </ul>
                    }
                    { deck_rows(Part::Main) }
                    if extra_count > 0 {
                        <h4>{ lang.pick("エクストラデッキ", "Extra Deck") }</h4>
                        { deck_rows(Part::Extra) }
                    }
                    <div class="lab-save">
                        <label class="lab-field">
                            { lang.pick("デッキ名", "Deck name") }
                            <input type="text" data-testid="lab-name" maxlength={MAX_NAME.to_string()} value={(*name).clone()}
                                oninput={{ let name = name.clone(); Callback::from(move |e: InputEvent| name.set(input_value(&e))) }} />
                        </label>
                        <button type="button" class="btn btn-primary" data-testid="lab-save" onclick={on_save}>
                            { lang.pick("保存", "Save") }
                        </button>
                    </div>
                    if !saved.is_empty() {
                        <h4>{ lang.pick("保存したデッキ", "Saved decks") }</h4>
                        <ul class="lab-saved">
                            { for saved.iter().map(|(n, _)| html! {
                                <li data-testid="lab-saved" data-name={n.clone()}>
                                    <button type="button" class="btn" data-testid="lab-load" onclick={load(n.clone())}>
                                        { n.clone() }
                                    </button>
                                    <button type="button" class="btn" data-testid="lab-delete"
                                        aria-label={format!("{} {n}", lang.pick("削除:", "Delete:"))} onclick={delete(n.clone())}>
                                        { lang.pick("削除", "Delete") }
                                    </button>
                                </li>
                            }) }
                        </ul>
                    }
                </section>
            </div>
            <LabPlay list={(*list).clone()} legal={problems.is_empty()} />
            <section class="lab-compare" aria-labelledby="lab-compare-title">
                <h3 id="lab-compare-title">{ lang.pick("ビルドを比べる", "Compare builds") }</h3>
                <label class="lab-field">
                    { lang.pick("今のデッキ（A）と比べるデッキ（B）", "Compare this deck (A) with (B)") }
                    <select data-testid="lab-compare-with" onchange={on_compare_with}>
                        <option value="" selected={compare_with.is_empty()}>{ lang.pick("選んでください", "Choose a deck") }</option>
                        { for saved.iter().map(|(n, _)| html! {
                            <option value={format!("saved:{n}")} selected={*compare_with == format!("saved:{n}")}>{ n.clone() }</option>
                        }) }
                        { for decks().iter().map(|d| html! {
                            <option value={d.id.clone()} selected={*compare_with == d.id}>{ d.name(engine_lang(lang)) }</option>
                        }) }
                    </select>
                </label>
                { match (problems.is_empty(), other) {
                    (false, _) => html! { <p class="lab-why">{ lang.pick("デッキの問題を直すと比べられます", "Fix the deck's problems to compare it.") }</p> },
                    (true, Some(b)) => {
                        let a = custom_deck_id(&list);
                        let key = format!("{a}~{b}");
                        html! { <Compare key={key} decks={[a, b]} /> }
                    }
                    (true, None) => Html::default(),
                } }
            </section>
            <section class="lab-files" aria-labelledby="lab-files-title">
                <h3 id="lab-files-title">{ lang.pick("読み込み・書き出し", "Import and export") }</h3>
                <label class="lab-field">
                    { lang.pick(
                        ".ydk の中身か ydke:// リンクを貼り付け（ファイルをここにドロップしても読み込めます）",
                        "Paste .ydk text or a ydke:// link (or drop a file here)",
                    ) }
                    <textarea data-testid="lab-import" rows="6" value={(*import).clone()}
                        ondrop={on_drop} ondragover={on_drag_over}
                        oninput={{ let import = import.clone(); Callback::from(move |e: InputEvent| {
                            import.set(e.target_unchecked_into::<HtmlTextAreaElement>().value())
                        }) }} />
                </label>
                <button type="button" class="btn" data-testid="lab-import-go" onclick={on_import}>
                    { lang.pick("読み込む", "Import") }
                </button>
                <label class="lab-field">
                    { lang.pick(".ydk ファイルを選ぶ", "Choose a .ydk file") }
                    <input type="file" accept=".ydk,text/plain" data-testid="lab-import-file" onchange={on_file} />
                </label>
                if !left_out.is_empty() {
                    <p>{ lang.pick("入れなかったカード:", "Cards left out:") }</p>
                    <ul class="lab-left-out">
                        { for left_out.iter().map(|t| html! { <li data-testid="lab-left-out">{ t.clone() }</li> }) }
                    </ul>
                }
                <h4>{ ".ydk" }</h4>
                <pre class="lab-export" data-testid="lab-export" tabindex="0">{ export_text.clone() }</pre>
                <a class="btn" data-testid="lab-export-file" href={ydk_href(&export_text)}
                    download={format!("{}.ydk", file_stem(&name))}>
                    { lang.pick(".ydk ファイルに保存", "Save as a .ydk file") }
                </a>
                <label class="lab-field">
                    { "ydke://" }
                    <input type="text" readonly=true data-testid="lab-export-ydke" value={export_link} />
                </label>
            </section>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn saved_decks_round_trip_and_corrupt_lines_are_counted_and_left_out() {
        let exodia = DeckList::from(duel_engine::deck("exodia-deck").expect("preset"));
        let panda = DeckList::from(duel_engine::deck("panda-exodia-deck").expect("preset"));
        // A deck that can win both ways, played for a burn: the choice is kept.
        let mut both = exodia.clone();
        assert!(both.add(79_875_176).is_ok());
        both.goal = Some(Reason::Lp0);
        let saved = vec![
            ("mine".to_owned(), exodia),
            ("パンダ".to_owned(), panda),
            ("both".to_owned(), both),
        ];
        let text = saved_text(&saved);
        assert_eq!(read_saved(&text), (saved.clone(), 0));
        let broken = format!("{text}no tab here\nname\tydke://%%%!!!\n");
        assert_eq!(read_saved(&broken), (saved, 2));
    }

    #[test]
    fn the_export_file_address_holds_the_ydk_text_and_its_name_is_safe() {
        let text = "#main\n55144522\n!side\n";
        assert_eq!(
            ydk_href(text),
            "data:text/plain;charset=utf-8,%23main%0A55144522%0A!side%0A"
        );
        assert_eq!(ydk_href("é"), "data:text/plain;charset=utf-8,%C3%A9");
        assert_eq!(file_stem(" my/deck: 1 "), "my_deck_ 1");
        assert_eq!(file_stem("  "), "deck");
        assert_eq!(file_stem("パンダ"), "パンダ");
    }

    #[test]
    fn names_are_cleaned_and_cut() {
        assert_eq!(clean_name("  a\tb\n "), Some("a b".to_owned()));
        assert_eq!(clean_name(" \t "), None);
        assert_eq!(
            clean_name(&"x".repeat(100)).map(|n| n.len()),
            Some(MAX_NAME)
        );
    }

    #[test]
    fn the_search_finds_cards_by_either_name_and_kind() {
        let pot = search("pot of greed", Kind::All);
        assert!(pot.iter().any(|d| d.code == 55_144_522));
        assert!(
            search("強欲な壺", Kind::Spell)
                .iter()
                .any(|d| d.code == 55_144_522)
        );
        assert!(search("pot of greed", Kind::Monster).is_empty());
        assert!(search("", Kind::Extra).iter().all(|d| extra_deck_card(d)));
        assert_eq!(search("", Kind::All).len(), pool().count());
    }
}
