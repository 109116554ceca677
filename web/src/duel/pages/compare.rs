//! Two builds compared on the same seeds, in the deck lab (each a preset's id or a deck
//! list of one's own, `jobs::custom_deck_id`): both win rates, their difference with
//! its 95% interval paired by seed (`stats::paired`), and for each card the win rate of
//! the hands that held it, for either deck. Solved in the deck lab's Web Workers with the
//! statistics' job.

use std::rc::Rc;

use duel_engine::stats::{HAND_BUDGET, HandResult, Tally, paired};
use duel_engine::{Code, Settings, card, deck};
use web_sys::HtmlSelectElement;
use yew::prelude::*;

use crate::ctx::use_ctx;
use crate::duel::board::card_view::engine_lang;
use crate::duel::pages::stats_page::{CHUNK, DEFAULT_HANDS};
use crate::duel::practice::hint::{fixed1, number_text, thousands};
use crate::duel::practice::jobs::{HandAnswer, Hands, dealt_deck, failure_text};
use crate::duel::state::new_game_settings;
use crate::i18n::Lang;
use crate::worker::{self, Job, Options};

/// The numbers of opening hands offered (fewer than the statistics page's first: two
/// decks are solved).
pub const HAND_CHOICES: [u32; 4] = [20, 200, 1_000, 10_000];

/// Both decks' results so far: a tally each, and each seed's win (for the pairing).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Compared {
    pub hands: u32,
    pub running: bool,
    pub tally: [Tally; 2],
    pub won: [Vec<Option<bool>>; 2],
    pub failed: Option<String>,
}

#[derive(Debug)]
pub enum CompareAction {
    Start(u32),
    Answers {
        side: usize,
        first: u64,
        results: Vec<HandAnswer>,
    },
    Stop,
    Failed(String),
}

impl Compared {
    /// The seeds both decks have answered, as `(a won, b won)`.
    pub fn pairs(&self) -> Vec<(bool, bool)> {
        self.won[0]
            .iter()
            .zip(&self.won[1])
            .filter_map(|(a, b)| Some(((*a)?, (*b)?)))
            .collect()
    }
}

impl Reducible for Compared {
    type Action = CompareAction;

    fn reduce(self: Rc<Self>, action: CompareAction) -> Rc<Self> {
        let mut next = (*self).clone();
        match action {
            CompareAction::Start(hands) => {
                next = Compared {
                    hands,
                    running: true,
                    won: [vec![None; hands as usize], vec![None; hands as usize]],
                    ..Compared::default()
                };
            }
            CompareAction::Answers {
                side,
                first,
                results,
            } => {
                if !next.running {
                    return self;
                }
                for (i, (r, hand)) in (0u64..).zip(results) {
                    let seed = first + i;
                    next.tally[side].add_hand(seed, r, &hand);
                    if let Some(slot) = next.won[side].get_mut(seed as usize) {
                        *slot = Some(matches!(r, HandResult::Won { .. }));
                    }
                }
                if next.tally.iter().all(|t| t.hands >= next.hands) {
                    next.running = false;
                }
            }
            CompareAction::Stop => next.running = false,
            CompareAction::Failed(why) => {
                next.running = false;
                next.failed = Some(why);
            }
        }
        Rc::new(next)
    }
}

/// The jobs of one deck: seeds from 0, [`CHUNK`] at a time.
fn jobs(deck: &str, hands: u32, settings: Settings) -> Vec<Hands> {
    (0..hands)
        .step_by(CHUNK as usize)
        .map(|first| Hands {
            deck: deck.to_owned(),
            settings,
            budget: HAND_BUDGET as u32,
            first: u64::from(first),
            count: CHUNK.min(hands - first),
        })
        .collect()
}

/// A statistics deck's name: a preset's, or "your deck" with its letter.
fn deck_name(id: &str, letter: &str, lang: Lang) -> String {
    match deck(id) {
        Some(d) => format!("{letter}: {}", d.name(engine_lang(lang))),
        None => format!("{letter}: {}", lang.pick("自分のデッキ", "your own deck")),
    }
}

/// One decimal of a percentage, without core's float formatting (which [`fixed1`] leaves
/// out, for numbers from 0 up), with its sign for a difference below 0.
pub fn percent(x: f64) -> String {
    let sign = if x <= -0.0005 { "−" } else { "" };
    format!("{sign}{}%", fixed1(100.0 * x.abs()))
}

/// The distinct main-deck cards of both decks, `a`'s first.
fn cards_of(decks: &[String; 2]) -> Vec<Code> {
    let mut out: Vec<Code> = Vec::new();
    for id in decks {
        let codes: Vec<Code> = match dealt_deck(id) {
            Ok((_, Some(c))) => c.list.map(|l| l.main_codes()).unwrap_or_default(),
            _ => deck(id).map(|d| d.main_codes()).unwrap_or_default(),
        };
        for code in codes {
            if !out.contains(&code) {
                out.push(code);
            }
        }
    }
    out
}

#[derive(Debug, Properties, PartialEq, Clone)]
pub struct CompareProps {
    /// The two decks, `a` then `b`.
    pub decks: [String; 2],
    #[prop_or_default]
    pub hands: Option<u32>,
}

#[function_component(Compare)]
pub fn compare(props: &CompareProps) -> Html {
    let ctx = use_ctx();
    let lang = ctx.lang;
    let hands = use_state(|| props.hands.unwrap_or(DEFAULT_HANDS));
    let run = use_reducer(Compared::default);
    let queued = use_mut_ref(Vec::<Job>::new);
    let started = use_mut_ref(|| 0.0f64);
    let elapsed = use_state(|| 0.0f64);
    // Leaving the page stops the workers.
    {
        let queued = queued.clone();
        use_effect_with((), move |_| {
            move || {
                for job in queued.borrow_mut().drain(..) {
                    job.abort();
                }
            }
        });
    }
    // The time of a finished run.
    {
        let started = started.clone();
        let elapsed = elapsed.clone();
        use_effect_with(run.running, move |running| {
            if !running && *started.borrow() > 0.0 {
                elapsed.set(js_sys::Date::now() - *started.borrow());
            }
        });
    }
    let readable = props.decks.iter().all(|d| dealt_deck(d).is_ok());
    let on_run = {
        let run = run.clone();
        let queued = queued.clone();
        let started = started.clone();
        let decks = props.decks.clone();
        let n = *hands;
        Callback::from(move |_: MouseEvent| {
            for job in queued.borrow_mut().drain(..) {
                job.abort();
            }
            *started.borrow_mut() = js_sys::Date::now();
            run.dispatch(CompareAction::Start(n));
            let settings = new_game_settings();
            let mut all = Vec::new();
            // The two decks' jobs alternate, so both estimates grow together.
            let per_deck = [jobs(&decks[0], n, settings), jobs(&decks[1], n, settings)];
            for (a, b) in per_deck[0].iter().zip(&per_deck[1]) {
                for (side, task) in [(0, a), (1, b)] {
                    let d = run.dispatcher();
                    let first = task.first;
                    all.push(worker::run_with(
                        task,
                        Options {
                            spread: true,
                            progress: None,
                        },
                        move |answer| match answer {
                            Ok(done) => d.dispatch(CompareAction::Answers {
                                side,
                                first,
                                results: done.value,
                            }),
                            Err(e) => d.dispatch(CompareAction::Failed(e.to_string())),
                        },
                    ));
                }
            }
            *queued.borrow_mut() = all;
        })
    };
    let on_cancel = {
        let run = run.clone();
        let queued = queued.clone();
        Callback::from(move |_: MouseEvent| {
            for job in queued.borrow_mut().drain(..) {
                job.abort();
            }
            run.dispatch(CompareAction::Stop);
        })
    };
    let on_hands = {
        let hands = hands.clone();
        Callback::from(move |e: Event| {
            if let Some(n) = e
                .target_dyn_into::<HtmlSelectElement>()
                .and_then(|s| s.value().parse().ok())
            {
                hands.set(n);
            }
        })
    };

    let pairs = run.pairs();
    let diff = paired(&pairs);
    let done = !run.running && run.hands > 0 && pairs.len() as u32 == run.hands;
    let names = [
        deck_name(&props.decks[0], "A", lang),
        deck_name(&props.decks[1], "B", lang),
    ];
    let cards = use_memo(props.decks.clone(), cards_of);
    let side = |i: usize| {
        let t = &run.tally[i];
        let (lo, hi) = t.interval95();
        html! {
            <div class="compare-side">
                <h3>{ names[i].clone() }</h3>
                <p>
                    { lang.pick("勝率 ", "Win rate ") }
                    <strong data-testid={if i == 0 { "compare-winrate-a" } else { "compare-winrate-b" }}
                        data-value={number_text(t.win_rate())} data-hands={t.hands.to_string()}>
                        { if t.hands > 0 { percent(t.win_rate()) } else { "–".to_owned() } }
                    </strong>
                    if t.hands > 0 {
                        <span class="muted">{ format!(" (95%: {}–{}; {} / {})", percent(lo), percent(hi), thousands(t.won), thousands(t.hands)) }</span>
                    }
                </p>
            </div>
        }
    };

    html! {
        <div class="compare" data-testid="compare-page">
            <p class="muted">
                { lang.pick(
                    "同じシードで配った最初の手札を、2つのデッキでそれぞれ解きます（デッキの並び順を知った上での探索）。差の95%区間はシードごとの対で求めます。",
                    "Both decks' opening hands are dealt from the same seeds and solved (knowing the deck order). The 95% interval of the difference pairs the two hands of each seed.",
                ) }
            </p>
            if !readable {
                <p class="error" role="alert" data-testid="compare-error">{ lang.pick("デッキを読めません", "A deck could not be read.") }</p>
            }
            <div class="stats-form">
                <label>
                    { lang.pick("手札の数 ", "Hands ") }
                    <select data-testid="compare-hands" onchange={on_hands} disabled={run.running}>
                        { for HAND_CHOICES.iter().copied().chain(props.hands.filter(|h| !HAND_CHOICES.contains(h))).map(|n| html! {
                            <option value={n.to_string()} selected={n == *hands}>{ thousands(n) }</option>
                        }) }
                    </select>
                </label>
            </div>
            <div class="btn-row">
                <button type="button" class="btn btn-primary" data-testid="compare-run" disabled={run.running || !readable} onclick={on_run}>
                    { lang.pick("計算する", "Compute") }
                </button>
                <button type="button" class="btn" data-testid="compare-cancel" disabled={!run.running} onclick={on_cancel}>
                    { lang.pick("中止", "Cancel") }
                </button>
            </div>
            <p>
                <span data-testid="compare-count">{ format!("{} / {}", thousands(pairs.len() as u32), thousands(run.hands)) }</span>
                if done {
                    { " " }<span data-testid="compare-done">{ lang.pick("完了", "Done") }</span>
                    { format!(" ({} s)", fixed1(*elapsed / 1000.0)) }
                }
                if let Some(why) = &run.failed {
                    { " " }<span class="error" role="alert" data-testid="compare-failed">{ failure_text(why, lang) }</span>
                }
            </p>
            <div class="compare-sides">{ side(0) }{ side(1) }</div>
            if diff.hands > 0 {
                <p>
                    { lang.pick("差（A−B）: ", "Difference (A − B): ") }
                    <strong data-testid="compare-difference" data-value={number_text(diff.difference)}
                        data-low={number_text(diff.low)} data-high={number_text(diff.high)}
                        data-a-only={diff.a_only.to_string()} data-b-only={diff.b_only.to_string()}>
                        { format!("{} (95%: {} – {})", percent(diff.difference), percent(diff.low), percent(diff.high)) }
                    </strong>
                    <span class="muted">{ match lang {
                        Lang::Ja => format!("　Aだけ勝ち {}、Bだけ勝ち {}（{} シード）", diff.a_only, diff.b_only, diff.hands),
                        Lang::En => format!(" A alone won {}, B alone {} (of {} seeds)", diff.a_only, diff.b_only, diff.hands),
                    } }</span>
                </p>
                <h3 id="compare-cards-title">{ lang.pick("そのカードが最初の手札にあるときの勝率", "Win rate when the opening hand holds the card") }</h3>
                <div class="stats-cards-frame" tabindex="0" role="region" aria-labelledby="compare-cards-title">
                    <table class="stats-cards" data-testid="compare-cards">
                        <thead>
                            <tr>
                                <th scope="col">{ lang.pick("カード", "Card") }</th>
                                <th scope="col" class="num">{ "A" }</th>
                                <th scope="col" class="num">{ "B" }</th>
                            </tr>
                        </thead>
                        <tbody>
                            { for cards.iter().map(|code| {
                                let [a, b] = [0, 1].map(|i| run.tally[i].cards.get(code).copied().unwrap_or_default());
                                let cell = |c: duel_engine::stats::CardTally| if c.hands > 0 {
                                    format!("{} ({})", percent(c.win_rate()), thousands(c.hands))
                                } else {
                                    "–".to_owned()
                                };
                                let name = card(*code).map(|d| d.name(engine_lang(lang)).to_owned()).unwrap_or_else(|| code.to_string());
                                html! {
                                    <tr data-testid="compare-card-row" data-card-id={code.to_string()}
                                        data-hands-a={a.hands.to_string()} data-rate-a={number_text(a.win_rate())}
                                        data-hands-b={b.hands.to_string()} data-rate-b={number_text(b.win_rate())}>
                                        <th scope="row">{ name }</th>
                                        <td class="num">{ cell(a) }</td>
                                        <td class="num">{ cell(b) }</td>
                                    </tr>
                                }
                            }) }
                        </tbody>
                    </table>
                </div>
            }
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_difference_below_zero_keeps_its_sign() {
        assert_eq!(percent(-0.065), "−6.5%");
        assert_eq!(percent(0.905), "90.5%");
        assert_eq!(percent(0.0), "0.0%");
        assert_eq!(percent(-0.0001), "0.0%");
    }

    #[test]
    fn answers_pair_by_seed_whatever_order_they_come_in() {
        let won = HandResult::Won {
            commands: 3,
            proved: false,
        };
        let mut run = Rc::new(Compared::default()).reduce(CompareAction::Start(3));
        run = run.reduce(CompareAction::Answers {
            side: 1,
            first: 1,
            results: vec![(HandResult::Lost, vec![1]), (won, vec![2])],
        });
        assert!(run.pairs().is_empty(), "deck A has answered nothing yet");
        run = run.reduce(CompareAction::Answers {
            side: 0,
            first: 0,
            results: vec![(won, vec![1]), (won, vec![1]), (won, vec![2])],
        });
        assert_eq!(run.pairs(), vec![(true, false), (true, true)]);
        assert!(run.running, "B's seed 0 is still out");
        run = run.reduce(CompareAction::Answers {
            side: 1,
            first: 0,
            results: vec![(HandResult::Lost, vec![1])],
        });
        assert!(!run.running);
        assert_eq!(
            run.pairs(),
            vec![(true, false), (true, false), (true, true)]
        );
        let d = paired(&run.pairs());
        assert_eq!((d.a_only, d.b_only), (2, 0));
        assert_eq!(run.tally[0].cards.get(&1).map(|c| c.hands), Some(2));
    }
}
