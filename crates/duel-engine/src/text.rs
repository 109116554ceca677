//! Player-facing wording in Japanese (first) and English.

use crate::card::{Code, card};
use crate::effect::{EffectKind, Purpose, Restriction, SummonKind};
use crate::error::{BadResponse, RuleError, SynchroMiss, Unmet};
use crate::event::{Event, MoveReason, Shown};
use crate::state::{Location, OrderOf, Outcome, Phase, Player, Position, Reason};
use crate::view::{Meaning, Question};

/// The language of messages.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum Lang {
    #[default]
    Ja,
    En,
}

fn name(code: Code, lang: Lang) -> String {
    match (card(code), lang) {
        (Some(c), Lang::Ja) => format!("《{}》", c.name_ja),
        (Some(c), Lang::En) => format!("\"{}\"", c.name_en),
        (None, _) => format!("#{code}"),
    }
}

/// Card names for a message; cards the player may not know are counted instead.
fn shown_names(cards: &[Shown], lang: Lang) -> String {
    let sep = if lang == Lang::Ja { "、" } else { ", " };
    let mut parts: Vec<String> = cards.iter().flatten().map(|&c| name(c, lang)).collect();
    let hidden = cards.iter().filter(|c| c.is_none()).count();
    if hidden > 0 {
        parts.push(match lang {
            Lang::Ja => format!("カード{hidden}枚"),
            Lang::En => format!("{hidden} card(s)"),
        });
    }
    parts.join(sep)
}

fn chain_link(link: u8, lang: Lang) -> String {
    match lang {
        Lang::Ja => format!("チェーン{link}："),
        Lang::En => format!("Chain link {link}: "),
    }
}

fn position(p: Position, lang: Lang) -> &'static str {
    match (p, lang) {
        (Position::Attack, Lang::Ja) => "攻撃表示",
        (Position::Defense, Lang::Ja) => "守備表示",
        (Position::Attack, Lang::En) => "Attack Position",
        (Position::Defense, Lang::En) => "Defense Position",
    }
}

/// The phase's name as the header shows it.
pub fn phase(p: Phase, lang: Lang) -> &'static str {
    match (p, lang) {
        (Phase::Draw, Lang::Ja) => "ドローフェイズ",
        (Phase::Standby, Lang::Ja) => "スタンバイフェイズ",
        (Phase::Main1, Lang::Ja) => "メインフェイズ",
        (Phase::End, Lang::Ja) => "エンドフェイズ",
        (Phase::Draw, Lang::En) => "Draw Phase",
        (Phase::Standby, Lang::En) => "Standby Phase",
        (Phase::Main1, Lang::En) => "Main Phase 1",
        (Phase::End, Lang::En) => "End Phase",
    }
}

fn who(p: Player, lang: Lang) -> &'static str {
    match (p, lang) {
        (Player::You, Lang::Ja) => "自分",
        (Player::Opponent, Lang::Ja) => "相手",
        (Player::You, Lang::En) => "You",
        (Player::Opponent, Lang::En) => "The opponent",
    }
}

/// A toast line for an event.
pub fn event(e: &Event, lang: Lang) -> String {
    let ja = lang == Lang::Ja;
    match e {
        Event::PhaseChanged { phase: p } => {
            if ja {
                format!("{} です", phase(*p, lang))
            } else {
                phase(*p, lang).to_string()
            }
        }
        Event::Activated {
            player,
            card,
            kind,
            link,
        } => {
            let head = chain_link(*link, lang);
            match (kind, ja) {
                (EffectKind::Activation, true) => {
                    format!(
                        "{head}{}が{}を発動します",
                        who(*player, lang),
                        name(*card, lang)
                    )
                }
                (EffectKind::Ignition, true) => format!(
                    "{head}{}が{}の効果を発動します",
                    who(*player, lang),
                    name(*card, lang)
                ),
                (EffectKind::Trigger, true) => {
                    format!("{head}{}の効果が発動します（誘発効果）", name(*card, lang))
                }
                (EffectKind::Activation, false) => {
                    format!(
                        "{head}{} activate(s) {}",
                        who(*player, lang),
                        name(*card, lang)
                    )
                }
                (EffectKind::Ignition, false) => format!(
                    "{head}{} activate(s) the effect of {}",
                    who(*player, lang),
                    name(*card, lang)
                ),
                (EffectKind::Trigger, false) => {
                    format!(
                        "{head}the trigger effect of {} activates",
                        name(*card, lang)
                    )
                }
            }
        }
        Event::Resolving { card, link } => {
            let head = chain_link(*link, lang);
            if ja {
                format!("{head}{}の効果を解決します", name(*card, lang))
            } else {
                format!("{head}resolving {}", name(*card, lang))
            }
        }
        Event::ModeChosen {
            card: c,
            effect,
            mode,
        } => {
            let label = card(*c)
                .and_then(|d| d.effects.get(usize::from(*effect)))
                .and_then(|e| e.modes.get(usize::from(*mode)))
                .map(|m| {
                    if ja {
                        m.label_ja.clone()
                    } else {
                        m.label_en.clone()
                    }
                })
                .unwrap_or_default();
            if ja {
                format!("{}：{}", name(*c, lang), label)
            } else {
                format!("{}: {}", name(*c, lang), label)
            }
        }
        Event::Drew { player, count } => {
            if ja {
                format!("{}はデッキから{}枚ドローします", who(*player, lang), count)
            } else {
                format!("{} draw(s) {} card(s)", who(*player, lang), count)
            }
        }
        Event::Moved {
            player,
            to,
            reason,
            discard,
            cards,
            ..
        } => moved(*player, *to, *reason, *discard, cards, lang),
        Event::Shuffled { player } => {
            if ja {
                format!("{}のデッキをシャッフルします", who(*player, lang))
            } else {
                format!("{}: deck shuffled", who(*player, lang))
            }
        }
        Event::Revealed { cards, .. } => {
            if ja {
                format!(
                    "デッキの上から{}をめくります",
                    shown_names(&cards.iter().map(|&c| Some(c)).collect::<Vec<_>>(), lang)
                )
            } else {
                format!(
                    "Revealed from the top of the deck: {}",
                    shown_names(&cards.iter().map(|&c| Some(c)).collect::<Vec<_>>(), lang)
                )
            }
        }
        Event::LpPaid { player, amount, lp } => {
            if ja {
                format!(
                    "{}は{}LPを払います（残り{}）",
                    who(*player, lang),
                    amount,
                    lp
                )
            } else {
                format!("{} pay(s) {} LP ({} left)", who(*player, lang), amount, lp)
            }
        }
        Event::LpGained { player, amount, lp } => {
            if ja {
                format!("{}は{}LP回復します（{}）", who(*player, lang), amount, lp)
            } else {
                format!("{} gain(s) {} LP ({})", who(*player, lang), amount, lp)
            }
        }
        Event::Damaged { player, amount, lp } => {
            if ja {
                format!("{}に{}ダメージ（残り{}）", who(*player, lang), amount, lp)
            } else {
                format!(
                    "{} take(s) {} damage ({} left)",
                    who(*player, lang),
                    amount,
                    lp
                )
            }
        }
        Event::DamagePrevented { player, amount } => {
            if ja {
                format!(
                    "{}への{}ダメージは無効になりました",
                    who(*player, lang),
                    amount
                )
            } else {
                format!(
                    "{} take(s) no damage ({} prevented)",
                    who(*player, lang),
                    amount
                )
            }
        }
        Event::Summoned {
            card,
            kind,
            position: pos,
            ..
        } => {
            let how = match (kind, ja) {
                (SummonKind::Normal, true) => "召喚",
                (SummonKind::Special, true) => "特殊召喚",
                (SummonKind::Synchro, true) => "シンクロ召喚",
                (SummonKind::Fusion, true) => "融合召喚",
                (SummonKind::Normal, false) => "Normal Summoned",
                (SummonKind::Special, false) => "Special Summoned",
                (SummonKind::Synchro, false) => "Synchro Summoned",
                (SummonKind::Fusion, false) => "Fusion Summoned",
            };
            if ja {
                format!(
                    "{}を{}で{}します",
                    name(*card, lang),
                    position(*pos, lang),
                    how
                )
            } else {
                format!("{} is {how} in {}", name(*card, lang), position(*pos, lang))
            }
        }
        Event::Equipped { card, to } => {
            if ja {
                format!("{}を{}に装備します", name(*card, lang), name(*to, lang))
            } else {
                format!("{} is equipped to {}", name(*card, lang), name(*to, lang))
            }
        }
        Event::CountersChanged { card, counters } => {
            if ja {
                format!("{}の魔力カウンター：{}個", name(*card, lang), counters)
            } else {
                format!("{}: {} Spell Counter(s)", name(*card, lang), counters)
            }
        }
        Event::PositionChanged {
            card,
            position: pos,
        } => {
            if ja {
                format!("{}を{}にします", name(*card, lang), position(*pos, lang))
            } else {
                format!("{} changes to {}", name(*card, lang), position(*pos, lang))
            }
        }
        Event::LevelDeclared { player, level } => {
            if ja {
                format!("{}はレベル{}を宣言します", who(*player, lang), level)
            } else {
                format!("{} declare(s) Level {}", who(*player, lang), level)
            }
        }
        Event::Vanished { card } => {
            if ja {
                format!("{}はフィールドを離れ、消滅します", name(*card, lang))
            } else {
                format!("{} leaves the field and vanishes", name(*card, lang))
            }
        }
        Event::MissedTiming { card } => {
            if ja {
                format!("{}の効果はタイミングを逃しました", name(*card, lang))
            } else {
                format!("{} missed the timing", name(*card, lang))
            }
        }
        Event::MonsterSet { player } => {
            if ja {
                format!("{}はモンスターをセットします", who(*player, lang))
            } else {
                format!("{} set(s) a monster", who(*player, lang))
            }
        }
        Event::SpellTrapSet { player } => {
            if ja {
                format!("{}はカードをセットします", who(*player, lang))
            } else {
                format!("{} set(s) a card", who(*player, lang))
            }
        }
        Event::NoValidCards { card } => {
            if ja {
                format!(
                    "{}：対象となるカードがないため、効果は適用されません",
                    name(*card, lang)
                )
            } else {
                format!("{}: no valid cards, nothing happens", name(*card, lang))
            }
        }
        Event::Fizzled { card } => {
            if ja {
                format!(
                    "{}：条件を満たさないため、効果は適用されません",
                    name(*card, lang)
                )
            } else {
                format!(
                    "{}: its condition no longer holds, nothing happens",
                    name(*card, lang)
                )
            }
        }
        Event::Restricted {
            player,
            restriction,
        } => restriction_text(*player, *restriction, lang),
        Event::EndPhaseEffect { card } => {
            if ja {
                format!("{}のエンドフェイズの効果を適用します", name(*card, lang))
            } else {
                format!("End Phase effect of {}", name(*card, lang))
            }
        }
        Event::GameOver { outcome } => self::outcome(*outcome, lang),
    }
}

fn moved(
    player: Player,
    to: Location,
    reason: MoveReason,
    discard: bool,
    cards: &[Shown],
    lang: Lang,
) -> String {
    let list = shown_names(cards, lang);
    let ja = lang == Lang::Ja;
    match to {
        Location::Hand if ja => format!("{list}を手札に加えます"),
        Location::Hand => format!("{list} added to the hand"),
        Location::Graveyard => match (reason, discard, ja) {
            (_, true, true) => format!("{}は{list}を捨てます", who(player, lang)),
            (_, true, false) => format!("{} discard(s) {list}", who(player, lang)),
            (MoveReason::Tribute, _, true) => format!("{list}をリリースします"),
            (MoveReason::Tribute, _, false) => format!("{list} Tributed"),
            (MoveReason::Material, _, true) => format!("{list}をシンクロ素材として墓地へ送ります"),
            (MoveReason::Material, _, false) => {
                format!("{list} sent to the graveyard as Synchro Material")
            }
            (MoveReason::Destroy, _, true) => format!("{list}を破壊します"),
            (MoveReason::Destroy, _, false) => format!("{list} destroyed"),
            (_, _, true) => format!("{list}を墓地へ送ります"),
            (_, _, false) => format!("{list} sent to the graveyard"),
        },
        Location::Deck if ja => format!("{list}をデッキに戻します"),
        Location::Deck => format!("{list} returned to the deck"),
        Location::ExtraDeck if ja => format!("{list}をエクストラデッキに戻します"),
        Location::ExtraDeck => format!("{list} returned to the Extra Deck"),
        Location::Banished if ja => format!("{list}を除外します"),
        Location::Banished => format!("{list} banished"),
        _ if ja => format!("{list}をフィールドに置きます"),
        _ => format!("{list} placed on the field"),
    }
}

fn restriction_text(player: Player, r: Restriction, lang: Lang) -> String {
    let ja = lang == Lang::Ja;
    match r {
        Restriction::NoSpecialSummon => {
            if ja {
                format!("このターン、{}は特殊召喚できません", who(player, lang))
            } else {
                format!("{} cannot Special Summon this turn", who(player, lang))
            }
        }
        Restriction::NoDamage {
            who: w,
            until_opponent_turn_end,
        } => {
            let target = player.resolve(w);
            match (ja, until_opponent_turn_end) {
                (true, true) => format!(
                    "次の相手ターン終了時まで、{}はダメージを受けません",
                    who(target, lang)
                ),
                (true, false) => format!("このターン、{}はダメージを受けません", who(target, lang)),
                (false, true) => format!(
                    "{} take(s) no damage until the end of the opponent's next turn",
                    who(target, lang)
                ),
                (false, false) => format!("{} take(s) no damage this turn", who(target, lang)),
            }
        }
    }
}

/// The game-over line.
pub fn outcome(o: Outcome, lang: Lang) -> String {
    let reason = match (o.reason(), lang) {
        (Reason::Exodia, Lang::Ja) => "エクゾディアの5パーツが手札に揃いました",
        // Whose LP or deck: the opponent's when you win, yours when you lose, both on a draw.
        (Reason::Lp0, Lang::Ja) => match o {
            Outcome::Win(_) => "相手のLPが0になりました",
            Outcome::Lose(_) => "あなたのLPが0になりました",
            Outcome::Draw(_) => "お互いのLPが0になりました",
        },
        (Reason::DeckOut, Lang::Ja) => match o {
            Outcome::Win(_) => "相手がデッキからドローできませんでした",
            Outcome::Lose(_) => "あなたがデッキからドローできませんでした",
            Outcome::Draw(_) => "デッキからドローできませんでした",
        },
        (Reason::TurnEnd, Lang::Ja) => "1ターン目が終了しました",
        (Reason::Exodia, Lang::En) => "all five Exodia pieces are in hand",
        (Reason::Lp0, Lang::En) => match o {
            Outcome::Win(_) => "the opponent's LP reached 0",
            Outcome::Lose(_) => "your LP reached 0",
            Outcome::Draw(_) => "both players' LP reached 0",
        },
        (Reason::DeckOut, Lang::En) => match o {
            Outcome::Win(_) => "the opponent could not draw",
            Outcome::Lose(_) => "you could not draw",
            Outcome::Draw(_) => "a player could not draw",
        },
        (Reason::TurnEnd, Lang::En) => "the first turn ended",
    };
    match (o, lang) {
        (Outcome::Win(_), Lang::Ja) => format!("勝利！ {reason}"),
        (Outcome::Lose(_), Lang::Ja) => format!("敗北… {reason}"),
        (Outcome::Draw(_), Lang::Ja) => format!("引き分け：{reason}"),
        (Outcome::Win(_), Lang::En) => format!("You win: {reason}"),
        (Outcome::Lose(_), Lang::En) => format!("You lose: {reason}"),
        (Outcome::Draw(_), Lang::En) => format!("Draw: {reason}"),
    }
}

/// The title of a card-selection prompt (`rule`: asked by the hand size limit).
pub fn purpose(p: Purpose, min: u8, max: u8, rule: bool, lang: Lang) -> String {
    let n = if min == max {
        format!("{min}")
    } else if lang == Lang::Ja {
        format!("{min}〜{max}")
    } else {
        format!("{min}-{max}")
    };
    let title = match (p, lang) {
        (Purpose::Discard, Lang::Ja) => format!("手札を{n}枚捨てる"),
        (Purpose::SendToGraveyard, Lang::Ja) => format!("墓地へ送るカードを{n}枚選ぶ"),
        (Purpose::AddToHand, Lang::Ja) => format!("手札に加えるカードを{n}枚選ぶ"),
        (Purpose::ShuffleIntoDeck, Lang::Ja) => format!("デッキに戻すカードを{n}枚選ぶ"),
        (Purpose::Target, Lang::Ja) => format!("対象を{n}枚選ぶ"),
        (Purpose::Tribute, Lang::Ja) => format!("リリースするモンスターを{n}体選ぶ"),
        (Purpose::SpecialSummon, Lang::Ja) => format!("特殊召喚するモンスターを{n}体選ぶ"),
        (Purpose::Banish, Lang::Ja) => format!("除外するカードを{n}枚選ぶ"),
        (Purpose::SynchroMaterial, Lang::Ja) => {
            "シンクロ素材にするモンスターを選ぶ（チューナー1体＋それ以外、レベルの合計が一致）"
                .to_string()
        }
        (Purpose::SynchroMaterial, Lang::En) => {
            "Choose the Synchro Materials (1 Tuner and non-Tuners whose Levels add up to the Synchro's)"
                .to_string()
        }
        (Purpose::Discard, Lang::En) => format!("Discard {n} card(s)"),
        (Purpose::SendToGraveyard, Lang::En) => {
            format!("Choose {n} card(s) to send to the graveyard")
        }
        (Purpose::AddToHand, Lang::En) => format!("Choose {n} card(s) to add to your hand"),
        (Purpose::ShuffleIntoDeck, Lang::En) => {
            format!("Choose {n} card(s) to shuffle into the deck")
        }
        (Purpose::Target, Lang::En) => format!("Choose {n} target(s)"),
        (Purpose::Tribute, Lang::En) => format!("Choose {n} monster(s) to Tribute"),
        (Purpose::SpecialSummon, Lang::En) => format!("Choose {n} monster(s) to Special Summon"),
        (Purpose::Banish, Lang::En) => format!("Choose {n} card(s) to banish"),
    };
    match (rule, lang) {
        (true, Lang::Ja) => format!("手札の上限（6枚）：{title}"),
        (true, Lang::En) => format!("Hand size limit (6): {title}"),
        (false, _) => title,
    }
}

/// Title of a choice prompt.
pub fn question(q: Question, lang: Lang) -> &'static str {
    match (q, lang) {
        (Question::Mode, Lang::Ja) => "効果を1つ選ぶ",
        (Question::UseTrigger, Lang::Ja) => "効果を発動しますか？",
        (Question::Order(OrderOf::Triggers), Lang::Ja) => {
            "同時に発動する効果：次のチェーンに乗せるものを選ぶ"
        }
        (Question::Order(OrderOf::EndPhase), Lang::Ja) => {
            "エンドフェイズの効果：次に適用するものを選ぶ"
        }
        (Question::Position, Lang::Ja) => "表示形式を選ぶ",
        (Question::Mode, Lang::En) => "Choose one effect",
        (Question::UseTrigger, Lang::En) => "Activate this effect?",
        (Question::Order(OrderOf::Triggers), Lang::En) => {
            "Simultaneous effects: choose the next chain link"
        }
        (Question::Order(OrderOf::EndPhase), Lang::En) => {
            "End Phase effects: choose the one that applies next"
        }
        (Question::Position, Lang::En) => "Choose the battle position",
    }
}

/// The label of a choice option.
pub fn choice(m: &Meaning, lang: Lang) -> String {
    match (m, lang) {
        (Meaning::Mode { label_ja, .. }, Lang::Ja) => label_ja.clone(),
        (Meaning::Mode { label_en, .. }, Lang::En) => label_en.clone(),
        (Meaning::Yes, Lang::Ja) => "発動する".into(),
        (Meaning::No, Lang::Ja) => "発動しない".into(),
        (Meaning::Attack, Lang::Ja) => "攻撃表示".into(),
        (Meaning::Defense, Lang::Ja) => "守備表示".into(),
        (Meaning::Yes, Lang::En) => "Activate".into(),
        (Meaning::No, Lang::En) => "Do not activate".into(),
        (Meaning::Attack, Lang::En) => "Attack Position".into(),
        (Meaning::Defense, Lang::En) => "Defense Position".into(),
        (Meaning::Card(c), _) => c.code.map_or_else(String::new, |code| name(code, lang)),
    }
}

fn unmet_ja(u: &Unmet) -> String {
    match *u {
        Unmet::DeckTooSmall { need, have } => {
            format!("デッキが足りません（{need}枚必要、残り{have}枚）")
        }
        Unmet::OpponentDeckTooSmall { need, have } => {
            format!("相手のデッキが足りません（{need}枚必要、残り{have}枚）")
        }
        Unmet::HandTooSmall { need, have } => {
            format!("手札が足りません（{need}枚以上必要、{have}枚）")
        }
        Unmet::OpponentHandTooSmall { need, have } => {
            format!("相手の手札が足りません（{need}枚以上必要、{have}枚）")
        }
        Unmet::HandTooLarge { max, have } => {
            format!("手札が多すぎます（他に{max}枚以下、{have}枚）")
        }
        Unmet::NoValidCards => "対象となるカードがありません".into(),
        Unmet::LpTooLow { need, have } => format!("LPが足りません（{need}必要、残り{have}）"),
        Unmet::SpecialSummonedThisTurn => "このターン既に特殊召喚しています".into(),
        Unmet::CannotSpecialSummon => "このターンは特殊召喚できません".into(),
        Unmet::NoFreeZone => "モンスターゾーンに空きがありません".into(),
        Unmet::TooFewCounters { need, have } => {
            format!("カウンターが足りません（{need}個必要、{have}個）")
        }
        Unmet::NotOnField => "カードがフィールドに表側表示で存在しません".into(),
        Unmet::NoValidCombination => "条件を満たすカードの組み合わせがありません".into(),
    }
}

fn synchro_miss_ja(m: &SynchroMiss) -> String {
    match *m {
        SynchroMiss::NoTuner => "チューナーがいません（チューナー1体が必要です）".into(),
        SynchroMiss::TooManyTuners { have } => {
            format!("チューナーが{have}体います（チューナーは1体だけです）")
        }
        SynchroMiss::TooFewNonTuners { need, have } => {
            format!("チューナー以外のモンスターが足りません（{need}体以上必要、{have}体）")
        }
        SynchroMiss::TooManyNonTuners { max, have } => {
            format!("チューナー以外のモンスターが多すぎます（{max}体まで、{have}体）")
        }
        SynchroMiss::Levels { need, have } => {
            format!("レベルの合計が{have}です（シンクロモンスターのレベルは{need}）")
        }
    }
}

/// Japanese wording of a refusal.
pub fn error_ja(e: &RuleError) -> String {
    match e {
        RuleError::GameOver => "デュエルは終了しています".into(),
        RuleError::PromptPending => "先に選択を完了してください".into(),
        RuleError::NoPrompt => "選択待ちではありません".into(),
        RuleError::BadResponse(b) => match b {
            BadResponse::WrongCount { min, max } if min == max => format!("{min}枚選んでください"),
            BadResponse::WrongCount { min, max } => format!("{min}〜{max}枚選んでください"),
            BadResponse::NotACandidate => "選べないカードが含まれています".into(),
            BadResponse::Duplicate => "同じカードを2回選んでいます".into(),
            BadResponse::BadCombination => "その組み合わせでは条件を満たしません".into(),
            BadResponse::Synchro(m) => synchro_miss_ja(m),
            BadResponse::NoSuchOption => "その選択肢はありません".into(),
            BadResponse::WrongKind => "選択の種類が違います".into(),
        },
        RuleError::NoSuchCard => "そのカードはありません".into(),
        RuleError::NotInHand => "そのカードは手札にありません".into(),
        RuleError::NotAMonster => "モンスターカードではありません".into(),
        RuleError::NotASpellOrTrap => "魔法・罠カードではありません".into(),
        RuleError::CannotNormalSummon => "このカードは通常召喚できません".into(),
        RuleError::NotASynchro => "エクストラデッキのシンクロモンスターではありません".into(),
        RuleError::WrongPhase => "メインフェイズではありません".into(),
        RuleError::NoNormalSummonLeft => "召喚権がありません".into(),
        RuleError::ZoneFull => "ゾーンが満杯です".into(),
        RuleError::NotEnoughTributes { need } => {
            format!("リリースするモンスターが足りません（{need}体必要）")
        }
        RuleError::ChainOpen => {
            "チェーンの確認中です（速攻魔法で応じるか、チェーンしないを選んでください）".into()
        }
        RuleError::SpellSpeedTooLow => {
            "チェーンできるのはスペルスピード2以上のカードだけです".into()
        }
        RuleError::NoChain => "チェーンはありません".into(),
        RuleError::TrapFromHand => "罠カードは手札から発動できません".into(),
        RuleError::SetThisTurn => "セットしたターンには発動できません".into(),
        RuleError::NotActivatable => "発動できるカードではありません".into(),
        RuleError::NoEffect => "発動できる効果がありません".into(),
        RuleError::OncePerTurn => "このターンは既に発動しています（1ターンに1度）".into(),
        RuleError::Unmet(u) => format!("発動条件を満たしていません：{}", unmet_ja(u)),
    }
}

impl crate::state::Duel {
    /// A command in words, as the log and the hint show it ("《強欲な壺》を発動").
    /// Answers are read against the prompt pending now (say it before applying it).
    pub fn describe(&self, cmd: &crate::command::Command, lang: Lang) -> String {
        use crate::command::{Command, Response};
        let ja = lang == Lang::Ja;
        let card = |id: crate::state::CardId| {
            self.instance(id)
                .map_or_else(|| "?".to_string(), |c| name(c.code, lang))
        };
        match cmd {
            Command::SummonMonster { card: c } if ja => format!("{}を召喚", card(*c)),
            Command::SummonMonster { card: c } => format!("Summon {}", card(*c)),
            Command::SetMonster { card: c } if ja => format!("{}をセット", card(*c)),
            Command::SetMonster { card: c } => format!("Set {}", card(*c)),
            Command::SetSpellTrap { card: c } if ja => format!("{}をセット", card(*c)),
            Command::SetSpellTrap { card: c } => format!("Set {}", card(*c)),
            Command::ActivateSpell { card: c } if ja => format!("{}を発動", card(*c)),
            Command::ActivateSpell { card: c } => format!("Activate {}", card(*c)),
            Command::ActivateEffect { card: c } if ja => format!("{}の効果を発動", card(*c)),
            Command::ActivateEffect { card: c } => format!("Activate the effect of {}", card(*c)),
            Command::SynchroSummon { card: c } if ja => format!("{}をシンクロ召喚", card(*c)),
            Command::SynchroSummon { card: c } => format!("Synchro Summon {}", card(*c)),
            Command::PassChain if ja => "チェーンしない".to_string(),
            Command::PassChain => "Do not chain".to_string(),
            Command::AdvancePhase | Command::EndTurn if ja => "ターン終了".to_string(),
            Command::AdvancePhase | Command::EndTurn => "End the turn".to_string(),
            Command::Respond(Response::Cards(ids)) => {
                let list = shown_names(
                    &ids.iter()
                        .map(|&id| self.instance(id).map(|c| c.code))
                        .collect::<Vec<_>>(),
                    lang,
                );
                if ja {
                    format!("{list}を選ぶ")
                } else {
                    format!("Choose {list}")
                }
            }
            Command::Respond(Response::Option(v)) => {
                let label = self.view().prompt.and_then(|p| match p.kind {
                    crate::view::PromptKind::Choice { options, .. } => options
                        .into_iter()
                        .find(|o| o.value == *v)
                        .map(|o| o.label(lang)),
                    crate::view::PromptKind::Cards { .. } => None,
                });
                let label = label.unwrap_or_else(|| v.to_string());
                if ja {
                    format!("「{label}」を選ぶ")
                } else {
                    format!("Choose \"{label}\"")
                }
            }
        }
    }

    /// A line of commands from this position in words (each one read against the position
    /// it is played in); stops at the first command that does not apply.
    pub fn describe_line(&self, line: &[crate::command::Command], lang: Lang) -> Vec<String> {
        let mut d = self.clone();
        let mut out = Vec::with_capacity(line.len());
        for cmd in line {
            out.push(d.describe(cmd, lang));
            if d.apply(cmd.clone()).is_err() {
                break;
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_lp_ending_says_whose_lp_reached_zero() {
        let win = outcome(Outcome::Win(Reason::Lp0), Lang::Ja);
        assert!(win.contains("相手のLPが0"), "{win}");
        let lose = outcome(Outcome::Lose(Reason::Lp0), Lang::En);
        assert!(lose.contains("your LP reached 0"), "{lose}");
        let out = outcome(Outcome::Lose(Reason::DeckOut), Lang::Ja);
        assert!(out.contains("あなたが"), "{out}");
    }
}
