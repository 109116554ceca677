//! Battle Line's card names, formations and refusal reasons in the UI's language (English is the engine's own wording).

use battle_line::bot::Level;
use battle_line::{
    Card, ClaimRefusal, ClaimTiming, Color, Deck, FormationKind, Phase, RuleError, Strength, Tactic,
};

use crate::i18n::Lang;

pub fn color(c: Color, lang: Lang) -> String {
    match lang {
        Lang::En => c.to_string(),
        Lang::Ja => color_ja(c).to_owned(),
    }
}

fn color_ja(c: Color) -> &'static str {
    match c {
        Color::Red => "赤",
        Color::Orange => "橙",
        Color::Yellow => "黄",
        Color::Green => "緑",
        Color::Blue => "青",
        Color::Purple => "紫",
    }
}

/// The computer's levels: 「やさしい」「ふつう」「つよい」「達人」.
pub fn level(l: Level, lang: Lang) -> &'static str {
    match l {
        Level::Easy => lang.pick("やさしい", "Easy"),
        Level::Normal => lang.pick("ふつう", "Normal"),
        Level::Hard => lang.pick("つよい", "Hard"),
        Level::Expert => lang.pick("達人", "Expert"),
    }
}

/// The button that makes the computer play the best move it has found so far.
pub fn move_now(lang: Lang) -> &'static str {
    lang.pick("すぐ決める", "Move now")
}

/// What "move now" does, as its tooltip.
pub fn move_now_hint(lang: Lang) -> &'static str {
    lang.pick(
        "考えるのをやめて、ここまでで一番よい手を選ばせます",
        "Stop the search and play the best move found so far",
    )
}

/// The label of the level control.
pub fn level_label(lang: Lang) -> &'static str {
    lang.pick("コンピューターの強さ", "Computer level")
}

/// Shown while the computer searches.
pub fn thinking(lang: Lang) -> &'static str {
    lang.pick("考え中", "Thinking")
}

pub fn tactic(t: Tactic, lang: Lang) -> String {
    match lang {
        Lang::En => t.to_string(),
        Lang::Ja => tactic_ja(t).to_owned(),
    }
}

fn tactic_ja(t: Tactic) -> &'static str {
    match t {
        Tactic::Alexander => "アレクサンダー",
        Tactic::Darius => "ダレイオス",
        Tactic::CompanionCavalry => "騎兵隊",
        Tactic::ShieldBearers => "盾兵",
        Tactic::Fog => "霧",
        Tactic::Mud => "泥沼",
        Tactic::Scout => "偵察",
        Tactic::Redeploy => "配置転換",
        Tactic::Deserter => "脱走",
        Tactic::Traitor => "裏切り",
    }
}

/// A short label for narrow board slots; the full name is in the title.
pub fn tactic_short(t: Tactic, lang: Lang) -> &'static str {
    match lang {
        Lang::En => match t {
            Tactic::Alexander => "Alex",
            Tactic::Darius => "Dar",
            Tactic::CompanionCavalry => "Cav 8",
            Tactic::ShieldBearers => "Shd 1-3",
            Tactic::Fog => "Fog",
            Tactic::Mud => "Mud",
            Tactic::Scout => "Sct",
            Tactic::Redeploy => "Rdp",
            Tactic::Deserter => "Des",
            Tactic::Traitor => "Trt",
        },
        Lang::Ja => match t {
            Tactic::Alexander => "アレク",
            Tactic::Darius => "ダレ",
            Tactic::CompanionCavalry => "騎兵8",
            Tactic::ShieldBearers => "盾1-3",
            Tactic::Fog => "霧",
            Tactic::Mud => "泥沼",
            Tactic::Scout => "偵察",
            Tactic::Redeploy => "転換",
            Tactic::Deserter => "脱走",
            Tactic::Traitor => "裏切",
        },
    }
}

/// A card's full name: "Green 5" / 「緑 5」, or the tactic's name.
pub fn card(c: Card, lang: Lang) -> String {
    match (c, lang) {
        (_, Lang::En) => c.to_string(),
        (Card::Troop(t), Lang::Ja) => format!("{} {}", color_ja(t.color), t.value),
        (Card::Tactic(t), Lang::Ja) => tactic_ja(t).to_owned(),
    }
}

pub fn formation(k: FormationKind, lang: Lang) -> String {
    match lang {
        Lang::En => k.to_string(),
        Lang::Ja => match k {
            FormationKind::Host => "ホスト（役なし）",
            FormationKind::SkirmishLine => "スカーミッシュライン（連番）",
            FormationKind::Battalion => "バタリオン（同色）",
            FormationKind::Phalanx => "ファランクス（同じ数）",
            FormationKind::Wedge => "ウェッジ（同色の連番）",
        }
        .to_owned(),
    }
}

pub fn strength(s: Strength, lang: Lang) -> String {
    match lang {
        Lang::En => s.to_string(),
        Lang::Ja => format!("{}・合計{}", formation(s.kind, lang), s.sum),
    }
}

/// Flags as the board numbers them (⚑1 to ⚑9); the engine counts from 0.
fn flag_ja(flag: u8) -> String {
    format!("⚑{}", u16::from(flag) + 1)
}

fn deck_ja(deck: Deck) -> &'static str {
    match deck {
        Deck::Troop => "部隊カード",
        Deck::Tactic => "戦術カード",
    }
}

fn timing_ja(timing: ClaimTiming) -> &'static str {
    match timing {
        ClaimTiming::StartOfTurn => "手番の最初",
        ClaimTiming::AfterPlaying => "カードを出した後",
        ClaimTiming::Anytime => "カードを出す前か後",
    }
}

fn phase_ja(phase: Phase) -> String {
    match phase {
        Phase::Play => "カードを出す時".to_owned(),
        Phase::Guile { tactic } => format!("「{}」の処理中", tactic_ja(tactic)),
        Phase::ScoutDraw { .. } => "偵察でカードを引いている途中".to_owned(),
        Phase::ScoutReturn { .. } => "偵察でカードを戻している途中".to_owned(),
        Phase::Finish { .. } => "手番の終わり".to_owned(),
        Phase::GameOver { .. } => "ゲーム終了後".to_owned(),
        Phase::Stalemate => "引き分け後".to_owned(),
    }
}

pub fn claim_refusal(r: &ClaimRefusal, lang: Lang) -> String {
    if lang == Lang::En {
        return r.to_string();
    }
    match r {
        ClaimRefusal::Incomplete => "あなたの側の陣形が完成していません".to_owned(),
        ClaimRefusal::OpponentStronger { mine, theirs } => format!(
            "相手の{}があなたの{}に勝っています",
            strength(*theirs, lang),
            strength(*mine, lang)
        ),
        ClaimRefusal::TieCompletedLater { strength: s } => {
            format!("両者とも{}で、相手が先に完成させました", strength(*s, lang))
        }
        ClaimRefusal::OpponentCanBeat {
            mine,
            theirs,
            cards,
        } => {
            let list: Vec<String> = cards.iter().map(|t| card(Card::Troop(*t), lang)).collect();
            format!(
                "相手はまだあなたの{}に勝てます（{}で{}）",
                strength(*mine, lang),
                list.join("、"),
                strength(*theirs, lang)
            )
        }
    }
}

/// Why the engine refused a command, in the UI's language.
pub fn rule_error(e: &RuleError, lang: Lang) -> String {
    if lang == Lang::En {
        return e.to_string();
    }
    let c = |x: &Card| card(*x, lang);
    match e {
        RuleError::GameOver => "ゲームは終了しています".to_owned(),
        RuleError::WrongPhase { phase } => format!("今はできません（{}）", phase_ja(*phase)),
        RuleError::NoSuchFlag { flag } => format!("{}の旗はありません", flag_ja(*flag)),
        RuleError::FlagClaimed { flag } => format!("{}はすでに獲得されています", flag_ja(*flag)),
        RuleError::NotInHand { card } => format!("{}は手札にありません", c(card)),
        RuleError::SlotFull { flag } => format!("{}のあなたの側はいっぱいです", flag_ja(*flag)),
        RuleError::WrongPlace { card } => format!("{}はそこに出せません", c(card)),
        RuleError::TacticLimit => "相手より多くの戦術カードを出しています".to_owned(),
        RuleError::SecondLeader => "リーダーはすでに出しています".to_owned(),
        RuleError::NoTarget { tactic } => format!("「{}」の対象がありません", tactic_ja(*tactic)),
        RuleError::NotPlayedThisTurn { card } => {
            format!("{}は前の手番に出したカードなので動かせません", c(card))
        }
        RuleError::NotOnBoard { card } => format!("{}は旗に置かれていません", c(card)),
        RuleError::NotYourCard { card } => format!("{}はあなたのカードではありません", c(card)),
        RuleError::NotOpponentsCard { card } => format!("{}は相手のカードではありません", c(card)),
        RuleError::NotATroop { card } => format!("{}は部隊カードではありません", c(card)),
        RuleError::SameFlag { flag } => format!("そのカードはすでに{}にあります", flag_ja(*flag)),
        RuleError::DeckEmpty { deck } => format!("{}の山札は空です", deck_ja(*deck)),
        RuleError::MustDraw => "手番を終えるにはカードを1枚引いてください".to_owned(),
        RuleError::TroopPlayable => "まだ部隊カードを出せます".to_owned(),
        RuleError::ClaimTiming { timing } => {
            format!("旗を獲得できるのは{}です", timing_ja(*timing))
        }
        RuleError::ClaimRefused { flag, reason } => format!(
            "{}は獲得できません：{}",
            flag_ja(*flag),
            claim_refusal(reason, lang)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use battle_line::{Player, Troop, Victory};

    /// Japanese text must be present and carry no English word from the engine's wording
    /// (digits, ⚑ and the ASCII of "1-3" are fine).
    fn assert_japanese(ja: &str, en: &str) {
        assert!(!ja.is_empty(), "no Japanese for {en}");
        assert_ne!(ja, en);
        assert!(
            !ja.chars().any(|ch| ch.is_ascii_alphabetic()),
            "English left in {ja:?} (for {en:?})"
        );
    }

    fn troop(color: Color, value: u8) -> Troop {
        Troop::new(color, value).expect("value in 1..=10")
    }

    #[test]
    fn every_colour_tactic_and_formation_has_a_japanese_name() {
        for c in Color::ALL {
            assert_japanese(&color(c, Lang::Ja), &color(c, Lang::En));
            let t = Card::Troop(troop(c, 5));
            assert_japanese(&card(t, Lang::Ja), &card(t, Lang::En));
        }
        assert_eq!(card(Card::Troop(troop(Color::Green, 5)), Lang::Ja), "緑 5");
        assert_eq!(
            card(Card::Troop(troop(Color::Green, 5)), Lang::En),
            "Green 5"
        );
        for t in Tactic::ALL {
            assert_japanese(&tactic(t, Lang::Ja), &tactic(t, Lang::En));
            assert_japanese(&card(Card::Tactic(t), Lang::Ja), &t.to_string());
            assert!(!tactic_short(t, Lang::Ja).is_empty());
            assert!(!tactic_short(t, Lang::En).is_empty());
        }
        for k in [
            FormationKind::Host,
            FormationKind::SkirmishLine,
            FormationKind::Battalion,
            FormationKind::Phalanx,
            FormationKind::Wedge,
        ] {
            assert_japanese(&formation(k, Lang::Ja), &formation(k, Lang::En));
        }
    }

    #[test]
    fn every_refusal_has_a_japanese_text_and_english_stays_the_engines() {
        let green5 = Card::Troop(troop(Color::Green, 5));
        let wedge = Strength {
            kind: FormationKind::Wedge,
            sum: 24,
        };
        let host = Strength {
            kind: FormationKind::Host,
            sum: 6,
        };
        let refusals = [
            ClaimRefusal::Incomplete,
            ClaimRefusal::OpponentStronger {
                mine: host,
                theirs: wedge,
            },
            ClaimRefusal::TieCompletedLater { strength: wedge },
            ClaimRefusal::OpponentCanBeat {
                mine: host,
                theirs: wedge,
                cards: vec![troop(Color::Red, 7), troop(Color::Red, 9)],
            },
        ];
        let phases = [
            Phase::Play,
            Phase::Guile {
                tactic: Tactic::Scout,
            },
            Phase::ScoutDraw { drawn: 1 },
            Phase::ScoutReturn { left: 2 },
            Phase::Finish { may_draw: true },
            Phase::GameOver {
                winner: Player::P0,
                by: Victory::Breakthrough,
            },
            Phase::Stalemate,
        ];
        let mut errors: Vec<RuleError> = vec![
            RuleError::GameOver,
            RuleError::NoSuchFlag { flag: 255 },
            RuleError::FlagClaimed { flag: 0 },
            RuleError::NotInHand { card: green5 },
            RuleError::SlotFull { flag: 8 },
            RuleError::WrongPlace {
                card: Card::Tactic(Tactic::Fog),
            },
            RuleError::TacticLimit,
            RuleError::SecondLeader,
            RuleError::NoTarget {
                tactic: Tactic::Deserter,
            },
            RuleError::NotPlayedThisTurn { card: green5 },
            RuleError::NotOnBoard { card: green5 },
            RuleError::NotYourCard { card: green5 },
            RuleError::NotOpponentsCard { card: green5 },
            RuleError::NotATroop {
                card: Card::Tactic(Tactic::Alexander),
            },
            RuleError::SameFlag { flag: 3 },
            RuleError::DeckEmpty { deck: Deck::Troop },
            RuleError::DeckEmpty { deck: Deck::Tactic },
            RuleError::MustDraw,
            RuleError::TroopPlayable,
        ];
        errors.extend(phases.map(|phase| RuleError::WrongPhase { phase }));
        errors.extend(
            [
                ClaimTiming::StartOfTurn,
                ClaimTiming::AfterPlaying,
                ClaimTiming::Anytime,
            ]
            .map(|timing| RuleError::ClaimTiming { timing }),
        );
        errors.extend(
            refusals
                .iter()
                .cloned()
                .map(|reason| RuleError::ClaimRefused { flag: 4, reason }),
        );
        for e in &errors {
            assert_eq!(rule_error(e, Lang::En), e.to_string());
            assert_japanese(&rule_error(e, Lang::Ja), &e.to_string());
        }
        for r in &refusals {
            assert_japanese(&claim_refusal(r, Lang::Ja), &r.to_string());
        }
        assert_eq!(
            rule_error(&RuleError::NotInHand { card: green5 }, Lang::Ja),
            "緑 5は手札にありません"
        );
        // The board numbers flags from 1.
        assert!(rule_error(&RuleError::FlagClaimed { flag: 0 }, Lang::Ja).contains("⚑1"));
    }
}
