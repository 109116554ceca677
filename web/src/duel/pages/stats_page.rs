//! The deck statistics page (`#/stats/<deck>`): the share of seeded opening hands that can be won this turn knowing the deck order, the same share among the hands holding each card, computed in Web Workers with a running estimate, and cached per deck, size, rules and engine.

use std::rc::Rc;

use duel_engine::stats::{HAND_BUDGET, Tally, engine_version};
use duel_engine::{Code, DeckList, Settings, card, deck, decks};
use web_sys::HtmlSelectElement;
use yew::prelude::*;

use crate::ctx::use_ctx;
use crate::duel::board::card_view::engine_lang;
use crate::duel::practice::hint::{fixed1, number_text, thousands};
use crate::duel::practice::jobs::{HandAnswer, Hands, dealt_deck, failure_text};
use crate::duel::state::new_game_settings;
use crate::i18n::T;
use crate::route::Route;
use crate::storage;
use crate::worker::{self, Job, Options};

/// The numbers of opening hands offered.
pub const HAND_CHOICES: [u32; 3] = [200, 1_000, 10_000];
pub const DEFAULT_HANDS: u32 = 1_000;
/// Hands per worker job: small enough for a smooth progress bar and a quick cancel,
/// large enough that messages cost nothing beside the solving.
pub const CHUNK: u32 = 20;
/// Undecided hands listed as links (the rest are counted).
const LISTED: usize = 60;
/// The form of the stored results: 2 since they count the hands holding each card (a
/// result stored before has no such counts and is computed again).
const STORED_FORM: u32 = 2;

/// What a run computes; everything its result depends on is in its cache key. Every hand
/// is solved with `stats::HAND_BUDGET` positions.
#[derive(Debug, Clone, PartialEq)]
pub struct RunKey {
    pub deck: String,
    pub hands: u32,
    pub settings: Settings,
}

impl RunKey {
    /// The localStorage key of this run's result: the form of the result, deck, number
    /// of hands, the budget per hand (which grows as the solver gets faster), rule
    /// settings and the engine's version (its card data and solver revision included).
    pub fn cache_key(&self) -> String {
        format!(
            "{}f{STORED_FORM}|{}|{}|{HAND_BUDGET}|{}|{}",
            storage::KEY_DUEL_STATS_PREFIX,
            self.deck,
            self.hands,
            self.settings.bits(),
            engine_version()
        )
    }

    /// The jobs of the run: consecutive seeds from 0, [`CHUNK`] at a time.
    pub fn jobs(&self) -> Vec<Hands> {
        (0..self.hands)
            .step_by(CHUNK as usize)
            .map(|first| Hands {
                deck: self.deck.clone(),
                settings: self.settings,
                budget: HAND_BUDGET as u32,
                first: u64::from(first),
                count: CHUNK.min(self.hands - first),
            })
            .collect()
    }
}

/// A finished run as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct Stored {
    pub tally: Tally,
    /// How long it took, in milliseconds.
    pub ms: f64,
}

impl Stored {
    /// `<whole milliseconds>;<the tally's text>` (no JSON code in the bundle for it).
    pub fn to_text(&self) -> String {
        format!(
            "{};{}",
            self.ms.max(0.0).round() as u64,
            self.tally.to_text()
        )
    }

    /// Reads [`Stored::to_text`]; `None` for anything else (a result stored by an older
    /// version is computed again).
    pub fn from_text(text: &str) -> Option<Stored> {
        let (ms, tally) = text.split_once(';')?;
        Some(Stored {
            ms: ms.parse::<u64>().ok()? as f64,
            tally: Tally::from_text(tally)?,
        })
    }
}

/// Where a run is.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Status {
    #[default]
    Idle,
    Running,
    Done,
    Cancelled,
    /// Shown from the cache.
    Cached,
    Failed(String),
}

/// The page's statistics so far.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Run {
    pub key: Option<RunKey>,
    pub status: Status,
    pub tally: Tally,
    pub ms: f64,
}

#[derive(Debug)]
pub enum RunAction {
    Start(RunKey),
    /// One job's answers (hands `first..`), `ms` after the start.
    Answers {
        first: u64,
        results: Vec<HandAnswer>,
        ms: f64,
    },
    Cancel,
    Failed(String),
    Show(RunKey, Option<Stored>),
}

impl Reducible for Run {
    type Action = RunAction;

    fn reduce(self: Rc<Self>, action: RunAction) -> Rc<Self> {
        let mut next = (*self).clone();
        match action {
            RunAction::Start(key) => {
                next = Run {
                    key: Some(key),
                    status: Status::Running,
                    ..Run::default()
                };
            }
            RunAction::Answers { first, results, ms } => {
                if next.status != Status::Running {
                    return self;
                }
                for (i, (r, hand)) in (0u64..).zip(results) {
                    next.tally.add_hand(first + i, r, &hand);
                }
                next.ms = ms;
                let total = next.key.as_ref().map_or(0, |k| k.hands);
                if next.tally.hands >= total {
                    next.tally.undecided.sort_unstable();
                    next.status = Status::Done;
                }
            }
            RunAction::Cancel if next.status == Status::Running => {
                next.tally.undecided.sort_unstable();
                next.status = Status::Cancelled;
            }
            RunAction::Cancel => return self,
            RunAction::Failed(why) => next.status = Status::Failed(why),
            RunAction::Show(key, stored) => {
                next = match stored {
                    Some(s) => Run {
                        key: Some(key),
                        status: Status::Cached,
                        tally: s.tally,
                        ms: s.ms,
                    },
                    None => Run {
                        key: Some(key),
                        ..Run::default()
                    },
                };
            }
        }
        Rc::new(next)
    }
}

fn load(key: &RunKey) -> Option<Stored> {
    storage::get(&key.cache_key()).and_then(|text| Stored::from_text(&text))
}

fn now_ms() -> f64 {
    js_sys::Date::now()
}

/// One decimal without core's float formatting (see [`fixed1`]).
fn percent(x: f64) -> String {
    format!("{}%", fixed1(100.0 * x))
}

/// The deck list a statistics deck holds, when it is one of the player's own.
fn custom_list(deck: &str) -> Option<DeckList> {
    dealt_deck(deck).ok()?.1?.list
}

/// The distinct cards of a deck's main deck, in the recipe's order.
pub fn main_cards(deck_id: &str) -> Vec<Code> {
    let mut out: Vec<Code> = Vec::new();
    for (code, _) in deck(deck_id).map(|d| d.main.as_slice()).unwrap_or_default() {
        if !out.contains(code) {
            out.push(*code);
        }
    }
    out
}

#[derive(Debug, Properties, PartialEq, Clone)]
pub struct StatsProps {
    pub deck: String,
    #[prop_or_default]
    pub hands: Option<u32>,
}

#[function_component(StatsPage)]
pub fn stats_page(props: &StatsProps) -> Html {
    let ctx = use_ctx();
    let lang = ctx.lang;
    let hands = use_state(|| props.hands.unwrap_or(DEFAULT_HANDS));
    let settings = use_memo((), |_| new_game_settings());
    let run = use_reducer(Run::default);
    let jobs = use_mut_ref(Vec::<Job>::new);
    let started = use_mut_ref(|| 0.0f64);
    let key = RunKey {
        deck: props.deck.clone(),
        hands: *hands,
        settings: *settings,
    };

    // A stored result for this deck and size is shown at once.
    {
        let run = run.clone();
        let jobs = jobs.clone();
        use_effect_with(key.clone(), move |key| {
            for job in jobs.borrow_mut().drain(..) {
                job.abort();
            }
            run.dispatch(RunAction::Show(key.clone(), load(key)));
        });
    }
    // Leaving the page stops the workers.
    {
        let jobs = jobs.clone();
        use_effect_with((), move |_| {
            move || {
                for job in jobs.borrow_mut().drain(..) {
                    job.abort();
                }
            }
        });
    }
    // A finished run is stored.
    {
        let run = run.clone();
        use_effect_with(run.status.clone(), move |status| {
            if *status == Status::Done
                && let Some(key) = &run.key
            {
                let stored = Stored {
                    tally: run.tally.clone(),
                    ms: run.ms,
                };
                // A full storage only means the next visit computes it again.
                storage::set(&key.cache_key(), &stored.to_text());
            }
        });
    }

    // A preset (its id) or a deck list of one's own (`jobs::custom_deck_id`); a list has
    // no preset to open its hands as duels from.
    let own = custom_list(&props.deck);
    let preset = deck(&props.deck).map(|d| d.id.clone());
    if preset.is_none() && own.is_none() {
        return html! {
            <section class="page">
                <h2>{ ctx.t(T::UnknownDeck) }</h2>
                <a href={Route::Home.href()}>{ ctx.t(T::BackHome) }</a>
            </section>
        };
    }

    let on_run = {
        let run = run.clone();
        let jobs = jobs.clone();
        let started = started.clone();
        let key = key.clone();
        Callback::from(move |_: MouseEvent| {
            for job in jobs.borrow_mut().drain(..) {
                job.abort();
            }
            *started.borrow_mut() = now_ms();
            run.dispatch(RunAction::Start(key.clone()));
            let mut queued = Vec::new();
            for task in key.jobs() {
                let dispatcher = run.dispatcher();
                let started = started.clone();
                let first = task.first;
                queued.push(worker::run_with(
                    &task,
                    Options {
                        spread: true,
                        progress: None,
                    },
                    move |answer| match answer {
                        Ok(done) => dispatcher.dispatch(RunAction::Answers {
                            first,
                            results: done.value,
                            ms: now_ms() - *started.borrow(),
                        }),
                        Err(e) => dispatcher.dispatch(RunAction::Failed(e.to_string())),
                    },
                ));
            }
            *jobs.borrow_mut() = queued;
        })
    };
    let on_cancel = {
        let run = run.clone();
        let jobs = jobs.clone();
        Callback::from(move |_: MouseEvent| {
            for job in jobs.borrow_mut().drain(..) {
                job.abort();
            }
            run.dispatch(RunAction::Cancel);
        })
    };
    let on_deck = {
        let nav = ctx.on_navigate.clone();
        let hands = props.hands;
        Callback::from(move |e: Event| {
            if let Some(select) = e.target_dyn_into::<HtmlSelectElement>() {
                nav.emit(Route::Stats {
                    deck: select.value(),
                    hands,
                });
            }
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

    let running = run.status == Status::Running;
    let tally = &run.tally;
    let total = run.key.as_ref().map_or(*hands, |k| k.hands);
    let done = if total == 0 {
        0.0
    } else {
        f64::from(tally.hands) / f64::from(total)
    };
    let rate = tally.win_rate();
    let (lo, hi) = tally.interval95();
    let undecided = tally.undecided.len() as u32;
    let cards = match &own {
        Some(list) => list.main.iter().map(|&(c, _)| c).collect(),
        None => main_cards(&props.deck),
    };
    let options = |choices: &[u32], extra: Option<u32>, chosen: u32| {
        let mut all: Vec<u32> = choices.to_vec();
        if let Some(x) = extra.filter(|x| !all.contains(x)) {
            all.push(x);
            all.sort_unstable();
        }
        all.into_iter()
            .map(|n| html! { <option value={n.to_string()} selected={n == chosen}>{ thousands(n) }</option> })
            .collect::<Html>()
    };
    let status = match &run.status {
        Status::Idle => Html::default(),
        Status::Running => html! { <span>{ lang.pick("計算中…", "Computing…") }</span> },
        Status::Done => {
            html! { <span data-testid="stats-done">{ lang.pick("完了", "Done") }</span> }
        }
        Status::Cancelled => {
            html! { <span data-testid="stats-cancelled">{ lang.pick("中止しました（ここまでの結果）", "Cancelled (results so far)") }</span> }
        }
        Status::Cached => {
            html! { <span data-testid="stats-cached">{ lang.pick("保存済みの結果", "Stored result") }</span> }
        }
        Status::Failed(why) => {
            html! { <span class="error" role="alert" data-testid="stats-error">{ failure_text(why, lang) }</span> }
        }
    };
    let longest = tally.lengths.values().copied().max().unwrap_or(0).max(1);
    let per_second = if run.ms > 0.0 {
        f64::from(tally.hands) / (run.ms / 1000.0)
    } else {
        0.0
    };

    html! {
        <section class="page stats-page" data-testid="stats-page">
            <h2>{ lang.pick("デッキの統計", "Deck statistics") }</h2>
            <p class="muted" data-testid="stats-oracle">
                { lang.pick(
                    "シード0から順に配った最初の手札のうち、このターンに勝てる手札の割合です。探索はデッキの並び順を知った上で行います（実際の決闘では分からない情報です）。どの手札も同じ上限まで探し、まれに判定できなかった手札は一覧にして、勝てない側に数えます。",
                    "The share of opening hands, dealt from seeds 0, 1, 2, ..., that can be won this turn. The search knows the order of the deck (information a real duel does not give). Every hand is searched up to the same budget; the rare hand it cannot decide is listed and counts as not won.",
                ) }
            </p>
            <div class="stats-form">
                <label>
                    { lang.pick("デッキ ", "Deck ") }
                    <select data-testid="stats-deck" onchange={on_deck} disabled={running}>
                        if own.is_some() {
                            <option value={props.deck.clone()} selected=true>{ lang.pick("自分のデッキ", "Your own deck") }</option>
                        }
                        { for decks().iter().map(|d| html! {
                            <option value={d.id.clone()} selected={d.id == props.deck}>{ d.name(engine_lang(lang)) }</option>
                        }) }
                    </select>
                </label>
                <label>
                    { lang.pick(" 手札の数 ", " Hands ") }
                    <select data-testid="stats-hands" onchange={on_hands} disabled={running}>
                        { options(&HAND_CHOICES, props.hands, *hands) }
                    </select>
                </label>
            </div>
            <div class="btn-row">
                <button type="button" class="btn btn-primary" data-testid="stats-run" disabled={running} onclick={on_run}>
                    { if run.status == Status::Cached { lang.pick("もう一度計算する", "Compute again") } else { lang.pick("計算する", "Compute") } }
                </button>
                <button type="button" class="btn" data-testid="stats-cancel" disabled={!running} onclick={on_cancel}>
                    { lang.pick("中止", "Cancel") }
                </button>
                if let Some(id) = &preset {
                    <a class="btn" href={Route::Simulator { deck: id.clone(), seed: None }.href()}>{ lang.pick("このデッキで決闘", "Duel with this deck") }</a>
                }
            </div>
            <div class="stats-progress-row">
                <progress data-testid="stats-progress" max="1" value={number_text(done)} data-value={number_text(done)}></progress>
                <span data-testid="stats-count">{ format!("{} / {}", thousands(tally.hands), thousands(total)) }</span>
                { " " }{ status }
            </div>
            <dl class="stats-figures">
                <dt>{ if undecided > 0 { lang.pick("勝率（判定できなかった手札を負けとした下限）", "Win rate (a lower bound: undecided hands count as lost)") } else { lang.pick("勝率", "Win rate") } }</dt>
                <dd>
                    // Before any hand is solved there is no rate, nor an interval around it.
                    <strong data-testid="stats-winrate" data-value={number_text(rate)}>
                        { if tally.hands > 0 { percent(rate) } else { "–".to_owned() } }
                    </strong>
                    if tally.hands > 0 {
                        <span class="muted" data-testid="stats-interval">{ format!(" (95%: {}–{})", percent(lo), percent(hi)) }</span>
                    }
                </dd>
                <dt>{ lang.pick("勝ち／負け確定／判定不能", "Won / proved lost / undecided") }</dt>
                <dd>
                    <span data-testid="stats-won">{ thousands(tally.won) }</span>{ " / " }
                    <span data-testid="stats-lost">{ thousands(tally.lost) }</span>{ " / " }
                    <span data-testid="stats-undecided-count">{ thousands(undecided) }</span>
                </dd>
                <dt>{ lang.pick("最短と証明できた勝ち筋", "Wins with a line proved shortest") }</dt>
                <dd data-testid="stats-proved" data-value={tally.proved_total().to_string()}>
                    { format!("{} / {}", thousands(tally.proved_total()), thousands(tally.won)) }
                </dd>
                <dt>{ lang.pick("時間", "Time") }</dt>
                <dd data-testid="stats-elapsed">{ format!("{} s ({} {})", fixed1(run.ms / 1000.0), thousands((per_second + 0.5) as u32), lang.pick("手札/秒", "hands/s")) }</dd>
            </dl>
            if !tally.lengths.is_empty() {
                <h3>{ lang.pick("最短の勝ち筋の長さ（操作の数）", "Length of the shortest winning line (commands)") }</h3>
                <p class="muted" data-testid="stats-histogram-note">
                    { lang.pick(
                        "手札ごとに見つかった最短の勝ち筋です。どの操作も省けないところまで縮め、同じ上限でより短い筋を探します。それより短い筋がないと証明できた手札は「証明済み」に数えます。",
                        "The shortest winning line found for each hand: cut until no command can be left out, then searched for a shorter one within the same budget. Hands where no shorter line can exist count as proved.",
                    ) }
                </p>
                <div class="stats-histogram" data-testid="stats-histogram">
                    { for tally.lengths.iter().map(|(len, count)| {
                        let proved = tally.proved.get(len).copied().unwrap_or(0);
                        html! {
                            <div class="stats-bar-row" data-testid="stats-bar" data-length={len.to_string()} data-count={count.to_string()} data-proved={proved.to_string()}>
                                <span class="stats-bar-label">{ len }</span>
                                <span class="stats-bar" style={format!("width: {}%", fixed1(100.0 * f64::from(*count) / f64::from(longest)))}></span>
                                <span class="stats-bar-count">
                                    { count }
                                    if proved > 0 {
                                        { format!(" ({} {proved})", lang.pick("証明済み", "proved")) }
                                    }
                                </span>
                            </div>
                        }
                    }) }
                </div>
            }
            if tally.hands > 0 {
                <h3 id="stats-cards-title">{ lang.pick("そのカードが最初の手札にあるときの勝率", "Win rate when the opening hand holds the card") }</h3>
                <p class="muted">
                    { lang.pick(
                        "メインデッキのカードごとに、最初の手札にそのカードがあった手札の数と、そのうち勝てた割合（95%区間）です。",
                        "For each card of the main deck: how many opening hands held it, and the share of those that could be won (with its 95% interval).",
                    ) }
                </p>
                // Scrolls sideways in its own frame on a phone; the frame takes the focus
                // so the keyboard can scroll it too.
                <div class="stats-cards-frame" tabindex="0" role="region" aria-labelledby="stats-cards-title">
                    <table class="stats-cards" data-testid="stats-cards">
                        <thead>
                            <tr>
                                <th scope="col">{ lang.pick("カード", "Card") }</th>
                                <th scope="col" class="num">{ lang.pick("手札", "Hands") }</th>
                                <th scope="col" class="num">{ lang.pick("勝率", "Win rate") }</th>
                                <th scope="col" class="num">{ "95%" }</th>
                            </tr>
                        </thead>
                        <tbody>
                            { for cards.iter().map(|code| {
                                let c = tally.cards.get(code).copied().unwrap_or_default();
                                let (lo, hi) = c.interval95();
                                let name = card(*code).map(|d| d.name(engine_lang(lang)).to_owned()).unwrap_or_else(|| code.to_string());
                                html! {
                                    // `data-rate`: the won share of those hands, 0 to 1, as
                                    // JavaScript writes a number (`0.25`; `0` when no hand
                                    // held the card), like `stats-winrate`'s `data-value`.
                                    <tr data-testid="stats-card-row" data-card-id={code.to_string()} data-hands={c.hands.to_string()} data-rate={number_text(c.win_rate())}>
                                        <th scope="row">{ name }</th>
                                        <td class="num">{ thousands(c.hands) }</td>
                                        <td class="num">{ if c.hands > 0 { percent(c.win_rate()) } else { "–".to_owned() } }</td>
                                        <td class="num muted">{ if c.hands > 0 { format!("{}–{}", percent(lo), percent(hi)) } else { "–".to_owned() } }</td>
                                    </tr>
                                }
                            }) }
                        </tbody>
                    </table>
                </div>
            }
            if !tally.undecided.is_empty() {
                <h3>{ lang.pick("判定できなかった手札（決闘として開けます）", "Hands not decided (open them as duels)") }</h3>
                <ul class="stats-undecided" data-testid="stats-undecided">
                    { for tally.undecided.iter().take(LISTED).map(|seed| {
                        let text = format!("{} {seed}", lang.pick("シード", "seed"));
                        match &preset {
                            Some(id) => html! {
                                <li><a data-testid="stats-undecided-hand" href={Route::Simulator { deck: id.clone(), seed: Some(*seed) }.href()}>{ text }</a></li>
                            },
                            None => html! { <li data-testid="stats-undecided-hand">{ text }</li> },
                        }
                    }) }
                </ul>
                if tally.undecided.len() > LISTED {
                    <p class="muted">{ format!("{} {} {}", lang.pick("ほか", "and"), thousands((tally.undecided.len() - LISTED) as u32), lang.pick("件", "more")) }</p>
                }
            }
            <p class="muted">{ format!("{}: {}", lang.pick("エンジン", "Engine"), engine_version()) }</p>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use duel_engine::stats::{HandResult, opening_hand, solve_hand};

    fn key(hands: u32) -> RunKey {
        RunKey {
            deck: "library-exodia-deck".into(),
            hands,
            settings: Settings::default(),
        }
    }

    #[test]
    fn the_cache_key_names_form_deck_size_budget_rules_and_engine() {
        let k = key(1000);
        let text = k.cache_key();
        let budget = format!("|{HAND_BUDGET}|");
        for part in [
            "|f2|",
            "library-exodia-deck",
            "|1000|",
            &budget,
            &engine_version(),
        ] {
            assert!(text.contains(part), "{text} lacks {part}");
        }
        assert!(text.starts_with(storage::KEY_DUEL_STATS_PREFIX));
        let strict = RunKey {
            settings: Settings {
                into_the_void_counts_itself: false,
                ..Settings::default()
            },
            ..k.clone()
        };
        assert_ne!(strict.cache_key(), text);
        assert_ne!(key(10_000).cache_key(), text);
    }

    #[test]
    fn the_card_table_lists_each_card_of_the_main_deck_once_in_recipe_order() {
        for d in decks() {
            let cards = main_cards(&d.id);
            let mut seen = std::collections::HashSet::new();
            let expected: Vec<Code> = d
                .main
                .iter()
                .map(|(code, _)| *code)
                .filter(|code| seen.insert(*code))
                .collect();
            assert_eq!(cards, expected, "{}", d.id);
            let mut sorted = cards.clone();
            sorted.sort_unstable();
            sorted.dedup();
            assert_eq!(sorted.len(), cards.len(), "{}: no card twice", d.id);
        }
        assert!(main_cards("no-such-deck").is_empty());
    }

    #[test]
    fn the_jobs_cover_every_seed_once() {
        let jobs = key(45).jobs();
        let seeds: Vec<u64> = jobs
            .iter()
            .flat_map(|j| j.first..j.first + u64::from(j.count))
            .collect();
        assert_eq!(seeds, (0..45).collect::<Vec<_>>());
        assert!(
            jobs.iter()
                .all(|j| j.count <= CHUNK && j.budget as usize == HAND_BUDGET)
        );
    }

    #[test]
    fn answers_arriving_in_any_order_tally_like_the_engine_seed_by_seed() {
        let k = key(45);
        let answers: Vec<(u64, Vec<HandAnswer>)> = k
            .jobs()
            .into_iter()
            .map(|j| {
                let first = j.first;
                (first, crate::worker::Task::run(j).expect("solves"))
            })
            .collect();
        let mut run = Rc::new(Run::default()).reduce(RunAction::Start(k.clone()));
        for (first, results) in answers.into_iter().rev() {
            assert_eq!(run.status, Status::Running);
            run = run.reduce(RunAction::Answers {
                first,
                results,
                ms: 5.0,
            });
        }
        assert_eq!(run.status, Status::Done);
        let mut expected = Tally::default();
        for seed in 0..45 {
            expected.add_hand(
                seed,
                solve_hand(&k.deck, seed, k.settings, HAND_BUDGET).expect("solves"),
                &opening_hand(&k.deck, seed, k.settings).expect("deals"),
            );
        }
        assert_eq!(run.tally, expected);
        assert_eq!(
            run.tally.cards.values().map(|c| c.hands).sum::<u32>() as usize,
            (0..45)
                .map(|seed| {
                    let mut hand = opening_hand(&k.deck, seed, k.settings).expect("deals");
                    hand.sort_unstable();
                    hand.dedup();
                    hand.len()
                })
                .sum::<usize>(),
            "each hand counted once per distinct card"
        );
        // Late answers after a cancel or a finish change nothing.
        let after = run.clone().reduce(RunAction::Answers {
            first: 0,
            results: vec![(HandResult::Lost, vec![1, 2, 3, 4, 5])],
            ms: 9.0,
        });
        assert_eq!(after, run);
    }

    #[test]
    fn a_cancelled_run_keeps_what_it_has() {
        let run = Rc::new(Run::default())
            .reduce(RunAction::Start(key(100)))
            .reduce(RunAction::Answers {
                first: 20,
                results: vec![
                    (HandResult::Undecided, vec![7, 8, 9, 10, 11]),
                    (
                        HandResult::Won {
                            commands: 9,
                            proved: false,
                        },
                        vec![7, 7, 12, 13, 14],
                    ),
                ],
                ms: 1.0,
            })
            .reduce(RunAction::Cancel);
        assert_eq!(run.status, Status::Cancelled);
        assert_eq!(
            (run.tally.hands, run.tally.won, run.tally.undecided.clone()),
            (2, 1, vec![20])
        );
        assert_eq!(
            run.tally.cards.get(&7),
            Some(&duel_engine::stats::CardTally { hands: 2, won: 1 })
        );
        let stored = Stored {
            tally: run.tally.clone(),
            ms: 1.0,
        };
        assert_eq!(Stored::from_text(&stored.to_text()), Some(stored));
        assert_eq!(Stored::from_text("{\"ms\":1.0}"), None);
    }
}
