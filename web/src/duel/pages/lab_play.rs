//! The deck lab's way into a duel: play the edited deck (`lab-play`), or a test hand of
//! it (`lab-test-hand`: the opening hand picked with `lab-hand-pick`, optionally the
//! order of the top cards, the rest shuffled from the seed), and open its statistics
//! (`lab-stats`).
//!
//! The duel page is in another bundle: the lab writes the duel's autosave (which carries
//! the deck list and the test hand) and opens the duel page on it, which resumes it as
//! the page's own save. Undo, the hint and share links then work from that deal.

use duel_engine::card::Code;
use duel_engine::deck_list::DeckList;
use duel_engine::state::OPENING_HAND;
use duel_engine::{CUSTOM_DECK_ID, Custom, Opening};
use yew::prelude::*;

use crate::ctx::use_ctx;
use crate::duel::board::card_view::{card_name, engine_lang};
use crate::duel::board::end_turn::{Confirm, Question};
use crate::duel::pages::simulator::entropy_seed;
use crate::duel::save::SaveFile;
use crate::duel::state::{load_save, mark_own_save, new_game_settings, unfinished, write_save};
use crate::i18n::Lang;
use crate::route::{Bundle, Route};

/// The cards to deal on purpose that `list` can deal: each pick kept while the deck holds
/// another copy of it (the hand's picks first), at most [`OPENING_HAND`] in the hand. A
/// card taken out of the deck after it was picked drops out of the picks here.
pub fn fit(list: &DeckList, hand: &[Code], top: &[Code]) -> Opening {
    let mut opening = Opening::default();
    for &code in hand {
        if can_pick(list, &opening, code, true) {
            opening.hand.push(code);
        }
    }
    for &code in top {
        if can_pick(list, &opening, code, false) {
            opening.top.push(code);
        }
    }
    opening
}

/// Whether `opening` can take one more copy of `code` from `list` (in the hand when
/// `to_hand`, else on top of the deck).
pub fn can_pick(list: &DeckList, opening: &Opening, code: Code, to_hand: bool) -> bool {
    let held = list
        .main
        .iter()
        .find(|(c, _)| *c == code)
        .map_or(0, |&(_, n)| usize::from(n));
    let used = opening
        .hand
        .iter()
        .chain(&opening.top)
        .filter(|&&c| c == code)
        .count();
    used < held && (!to_hand || opening.hand.len() < OPENING_HAND)
}

/// The autosave of a new duel of `custom`, with a seed drawn now.
fn new_save(custom: Custom) -> SaveFile {
    SaveFile::new(
        CUSTOM_DECK_ID.to_owned(),
        entropy_seed(),
        new_game_settings(),
        Vec::new(),
    )
    .dealt(Some(custom))
}

/// Writes `save` as the duel's autosave (the page's own: no "resumed" notice) and opens
/// the duel page on it, in this build or in the duel bundle.
fn open_duel(save: &SaveFile, on_navigate: &Callback<Route>) {
    mark_own_save(&save.deck, save.seed);
    write_save(save);
    let route = Route::Simulator {
        deck: save.deck.clone(),
        seed: Some(save.seed),
    };
    if Bundle::Duel.compiled_in() {
        on_navigate.emit(route);
    } else if let Some(window) = web_sys::window() {
        // Without a window there is no page to leave.
        let _ = window.location().set_href(&route.href());
    }
}

/// The name of the deck of an unfinished autosave, for the question before replacing it.
fn save_name(save: &SaveFile, lang: Lang) -> String {
    if save.custom.is_some() {
        return lang.pick("自分のデッキ", "your own deck").to_owned();
    }
    duel_engine::deck(&save.deck)
        .map(|d| d.name(engine_lang(lang)).to_owned())
        .unwrap_or_else(|| save.deck.clone())
}

#[derive(Debug, Properties, PartialEq, Clone)]
pub struct LabPlayProps {
    pub list: DeckList,
    /// Whether the deck is legal (else the buttons say why they are disabled).
    pub legal: bool,
}

#[function_component(LabPlay)]
pub fn lab_play(props: &LabPlayProps) -> Html {
    let ctx = use_ctx();
    let lang = ctx.lang;
    let hand = use_state(Vec::<Code>::new);
    let top = use_state(Vec::<Code>::new);
    // A duel waiting for the player to agree to replace an unfinished one.
    let pending = use_state(|| None::<(SaveFile, String)>);
    let opening = fit(&props.list, &hand, &top);

    let start = {
        let pending = pending.clone();
        let nav = ctx.on_navigate.clone();
        move |custom: Custom| {
            let pending = pending.clone();
            let nav = nav.clone();
            Callback::from(move |_: MouseEvent| {
                let save = new_save(custom.clone());
                match load_save() {
                    Ok(Some(old)) if unfinished(&old) => {
                        let name = save_name(&old, lang);
                        pending.set(Some((save, name)));
                    }
                    _ => open_duel(&save, &nav),
                }
            })
        }
    };
    let on_play = start(Custom {
        list: Some(props.list.clone()),
        opening: Opening::default(),
    });
    let on_test_hand = start(Custom {
        list: Some(props.list.clone()),
        opening: opening.clone(),
    });
    let pick = |code: Code, to_hand: bool| {
        let hand = hand.clone();
        let top = top.clone();
        let opening = opening.clone();
        Callback::from(move |_: MouseEvent| {
            let (state, picks) = if to_hand {
                (&hand, &opening.hand)
            } else {
                (&top, &opening.top)
            };
            let mut next = picks.clone();
            next.push(code);
            state.set(next);
        })
    };
    let unpick = |at: usize, from_hand: bool| {
        let hand = hand.clone();
        let top = top.clone();
        let opening = opening.clone();
        Callback::from(move |_: MouseEvent| {
            let (state, picks) = if from_hand {
                (&hand, &opening.hand)
            } else {
                (&top, &opening.top)
            };
            let mut next = picks.clone();
            if at < next.len() {
                next.remove(at);
            }
            state.set(next);
        })
    };

    let why_not = (!props.legal).then(|| {
        lang.pick(
            "デッキの問題を直すと決闘できます（上の一覧）",
            "Fix the deck's problems (listed above) to play it.",
        )
    });
    let hand_why = if props.legal && opening.hand.is_empty() {
        Some(lang.pick(
            "手札に入れるカードを選んでください",
            "Pick the cards of the opening hand.",
        ))
    } else {
        why_not
    };
    let picked = |codes: &[Code], from_hand: bool, test_id: &'static str| -> Html {
        html! {
            <ol class="lab-picked">
                { for codes.iter().enumerate().map(|(i, &code)| {
                    let label = card_name(code, lang);
                    html! {
                        <li data-testid={test_id} data-card-id={code.to_string()}>
                            <span class="lab-name">{ label.clone() }</span>
                            <button type="button" class="btn"
                                aria-label={format!("{} {}", lang.pick("外す:", "Take out:"), label)}
                                onclick={unpick(i, from_hand)}>{ "−" }</button>
                        </li>
                    }
                }) }
            </ol>
        }
    };

    html! {
        <section class="lab-play" aria-labelledby="lab-play-title">
            <h3 id="lab-play-title">{ lang.pick("決闘する", "Play") }</h3>
            <div class="lab-save">
                <button type="button" class="btn btn-primary" data-testid="lab-play" disabled={!props.legal}
                    aria-describedby={why_not.map(|_| "lab-play-why")} onclick={on_play}>
                    { lang.pick("このデッキで決闘", "Duel with this deck") }
                </button>
                <a class="btn" data-testid="lab-stats"
                    href={Route::Stats { deck: stats_deck(&props.list), hands: None }.href()}>
                    { lang.pick("このデッキの統計", "This deck's statistics") }
                </a>
            </div>
            if let Some(why) = why_not {
                <p class="lab-why" id="lab-play-why" data-testid="lab-play-why">{ why }</p>
            }
            <h4>{ lang.pick("テスト手札", "Test hand") }</h4>
            <p>{ match lang {
                Lang::Ja => format!("初手{OPENING_HAND}枚までを選び、必要ならデッキの上のカードの順も決めます。残りはシードでシャッフルされます。"),
                Lang::En => format!("Pick up to {OPENING_HAND} cards of the opening hand and, if you like, the cards on top of the deck in order. The rest is shuffled from the seed."),
            } }</p>
            <ul class="lab-deck-list">
                { for props.list.main.iter().map(|&(code, _)| {
                    let label = card_name(code, lang);
                    html! {
                        <li class="lab-row lab-pick-row">
                            <span class="lab-name">{ label.clone() }</span>
                            <button type="button" class="btn" data-testid="lab-hand-pick" data-card-id={code.to_string()}
                                disabled={!can_pick(&props.list, &opening, code, true)}
                                aria-label={format!("{} {}", lang.pick("手札に:", "To the hand:"), label)}
                                onclick={pick(code, true)}>{ lang.pick("手札", "Hand") }</button>
                            <button type="button" class="btn" data-testid="lab-top-pick" data-card-id={code.to_string()}
                                disabled={!can_pick(&props.list, &opening, code, false)}
                                aria-label={format!("{} {}", lang.pick("デッキの上に:", "On top of the deck:"), label)}
                                onclick={pick(code, false)}>{ lang.pick("上", "Top") }</button>
                        </li>
                    }
                }) }
            </ul>
            <p>{ lang.pick("手札", "Hand") }{ format!(" ({}/{OPENING_HAND})", opening.hand.len()) }</p>
            { picked(&opening.hand, true, "lab-hand-card") }
            if !opening.top.is_empty() {
                <p>{ lang.pick("デッキの上（上から順に）", "Top of the deck (top first)") }</p>
                { picked(&opening.top, false, "lab-top-card") }
            }
            <button type="button" class="btn btn-primary" data-testid="lab-test-hand"
                disabled={hand_why.is_some()} aria-describedby={hand_why.map(|_| "lab-test-hand-why")}
                onclick={on_test_hand}>
                { lang.pick("この手札で決闘", "Duel with this hand") }
            </button>
            if let Some(why) = hand_why {
                <p class="lab-why" id="lab-test-hand-why">{ why }</p>
            }
            if let Some((save, name)) = (*pending).clone() {
                <Confirm question={Question::DropSave(name)}
                    on_cancel={{ let p = pending.clone(); Callback::from(move |()| p.set(None)) }}
                    on_confirm={{
                        let p = pending.clone();
                        let nav = ctx.on_navigate.clone();
                        Callback::from(move |_: bool| {
                            p.set(None);
                            open_duel(&save, &nav);
                        })
                    }} />
            }
        </section>
    }
}

/// The statistics route's deck for a deck list: `custom.<share code of the list>`.
pub fn stats_deck(list: &DeckList) -> String {
    crate::duel::practice::jobs::custom_deck_id(list)
}

#[cfg(test)]
mod tests {
    use super::*;

    const POT_OF_GREED: Code = 55_144_522;
    const EXODIA: Code = 33_396_948;

    fn exodia() -> DeckList {
        DeckList::from(duel_engine::deck("exodia-deck").expect("preset"))
    }

    #[test]
    fn picks_respect_the_copies_in_the_deck_and_the_hand_size() {
        let list = exodia();
        let copies = list.copies(POT_OF_GREED);
        assert!(copies >= 1);
        // One copy more than the deck holds, in the hand and on top: the extra is dropped.
        let asked = vec![POT_OF_GREED; copies + 1];
        let got = fit(&list, &asked, &[POT_OF_GREED]);
        assert_eq!(got.hand, vec![POT_OF_GREED; copies]);
        assert!(got.top.is_empty(), "no copy left for the top");
        assert!(!can_pick(&list, &got, POT_OF_GREED, true));
        assert!(!can_pick(&list, &got, POT_OF_GREED, false));
        // A card the deck does not hold cannot be picked.
        assert!(!can_pick(&list, &Opening::default(), 1, true));
        // At most a full opening hand; the top takes what is left.
        let many: Vec<Code> = list.main_codes();
        let got = fit(&list, &many, &[EXODIA]);
        assert_eq!(got.hand.len(), OPENING_HAND);
        assert!(!can_pick(&list, &got, EXODIA, true), "the hand is full");
        // A card taken out of the deck drops out of the picks.
        let mut smaller = list.clone();
        assert!(smaller.remove(EXODIA));
        let got = fit(&smaller, &[EXODIA], &[EXODIA]);
        assert!(got.hand.is_empty() && got.top.is_empty(), "{got:?}");
    }

    #[test]
    fn every_opening_the_picker_allows_is_dealt_exactly() {
        let list = exodia();
        let hand = [EXODIA, POT_OF_GREED, POT_OF_GREED];
        let opening = fit(&list, &hand, &[POT_OF_GREED]);
        let custom = Custom {
            list: Some(list),
            opening: opening.clone(),
        };
        let duel = duel_engine::Duel::dealt(
            CUSTOM_DECK_ID,
            Some(&custom),
            3,
            duel_engine::Settings::default(),
        )
        .expect("deals");
        let view = duel.view();
        let dealt: Vec<Code> = view.you.hand.iter().filter_map(|c| c.code).collect();
        assert_eq!(dealt[..opening.hand.len()], opening.hand[..]);
        assert_eq!(dealt.len(), OPENING_HAND);
    }
}
