//! UI text in Japanese (default) and English; the player's choice is persisted in localStorage.

use crate::storage;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Lang {
    #[default]
    Ja,
    En,
}

impl Lang {
    pub fn code(self) -> &'static str {
        match self {
            Lang::Ja => "ja",
            Lang::En => "en",
        }
    }

    pub fn from_code(code: &str) -> Option<Lang> {
        match code {
            "ja" => Some(Lang::Ja),
            "en" => Some(Lang::En),
            _ => None,
        }
    }

    pub fn other(self) -> Lang {
        match self {
            Lang::Ja => Lang::En,
            Lang::En => Lang::Ja,
        }
    }

    /// The saved choice, or Japanese when nothing (or garbage) is saved.
    pub fn load() -> Lang {
        storage::get(storage::KEY_LANG)
            .and_then(|code| Lang::from_code(&code))
            .unwrap_or_default()
    }

    pub fn save(self) {
        storage::set(storage::KEY_LANG, self.code());
    }

    /// Picks the text for this language.
    pub fn pick<'a>(self, ja: &'a str, en: &'a str) -> &'a str {
        match self {
            Lang::Ja => ja,
            Lang::En => en,
        }
    }
}

/// Every fixed label of the UI. Kept in one table so a missing translation is a compile error.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum T {
    /// The duel simulator's name, the title of its pages.
    Title,
    /// The whole app's name, the title of the home page.
    AppName,
    Games,
    DuelSimulator,
    DuelSimulatorBlurb,
    SelectDeck,
    Start,
    Recipe,
    Resume,
    NoSave,
    BattleLineBlurb,
    QuantumGomokuBlurb,
    Play,
    BattleLine,
    QuantumGomoku,
    BackHome,
    NotFound,
    UnknownDeck,
    NoCustomDeal,
    Summon,
    Set,
    Details,
    Activate,
    ActivateEffect,
    EndTurn,
    Confirm,
    Cancel,
    Close,
    Yes,
    No,
    MyLp,
    OpponentLp,
    Now,
    OpponentHand,
    OpponentDeck,
    FieldZone,
    Graveyard,
    Banished,
    ExtraDeck,
    Deck,
    Restart,
    Win,
    Lose,
    Empty,
    NoValidTarget,
    /// The source of a prompt asked by the rules rather than a card.
    GameRule,
    OpponentGraveyard,
    OpponentBanished,
    /// The marker on a monster that has an equip card attached.
    EquipMark,
    /// Shown while the End Phase waits for the player (a Quick-Play Spell could be activated).
    EndPhaseHint,
    DuelLog,
    SynchroSummon,
    /// Said of the Extra Deck pile while a Synchro Summon is possible.
    SynchroReady,
    /// The title of the dialog showing cards revealed from the deck.
    RevealedCards,
    Ok,
    CorruptSave,
    SaveRestored,
    Switch,
    CardDetails,
    Monsters,
    Spells,
    Traps,
    ExtraMonsters,
    CardsTotal,
    Starting,
    NotLegalNow,
    Pass,
    BlChooseMode,
    BlModeCpu,
    BlModePvp,
    BlSeed,
    BlClaimTiming,
    BlTimingStart,
    BlTimingAfter,
    BlTimingAny,
    BlRestart,
    BlNewGame,
    BlUndo,
    BlSortHand,
    BlClaim,
    BlClaimable,
    BlTroopDeck,
    BlTacticDeck,
    BlDiscard,
    BlPass,
    BlEndTurn,
    BlPlaceHere,
    BlHand,
    BlOpponentHand,
    BlGuileArea,
    BlPromptPlay,
    BlPromptDraw,
    BlPromptEnd,
    BlPromptScoutDraw,
    BlPromptScoutReturn,
    BlCpuThinking,
    BlCpuLast,
    BlPassDevice,
    BlContinue,
    BlYou,
    BlComputer,
    BlPlayer1,
    BlPlayer2,
    BlBreakthrough,
    BlEnvelopment,
    BlStalemate,
    BlClaimRefused,
    BlCounterexample,
    BlRefused,
    BlWins,
    BlDrewCard,
    BlClaimed,
    QgNewGame,
    QgBoardSize,
    QgWinLength,
    QgReset,
    QgDelete,
    QgUndo,
    QgExistingId,
    QgLoad,
    QgInvalidId,
    QgUnknownId,
    QgCorruptSave,
    QgResumed,
    QgLoaded,
    QgUrlIdIgnored,
    QgId,
    QgTurn,
    QgCurrentPlayer,
    QgStatus,
    QgWinner,
    QgNobody,
    QgPlaying,
    QgFinished,
    QgDraw,
    QgBlack,
    QgWhite,
    QgObsRemaining,
    QgObsUsed,
    QgNextStone,
    QgMoveLog,
    QgNoMoves,
    QgWinProbability,
    QgBlackLine,
    QgWhiteLine,
    QgBothLines,
    QgNoLine,
    QgExact,
    QgSamples,
    QgLastObservation,
    QgKeyboardHelp,
    QgBoard,
    QgRulesBlurb,
    /// The link to a game's rules page, and that page's title.
    Help,
}

impl T {
    pub fn text(self, lang: Lang) -> &'static str {
        let (ja, en) = match self {
            T::Title => ("ワンターンキル シミュレーター", "One-Turn Kill Simulator"),
            T::AppName => ("ブラウザゲーム集", "Browser games"),
            T::Games => ("ゲーム一覧", "Games"),
            T::DuelSimulator => ("ワンターンキル シミュレーター", "One-Turn Kill Simulator"),
            T::DuelSimulatorBlurb => (
                "先攻1ターン目で勝利を目指す一人用デュエル。",
                "A one-player duel: win on your first turn.",
            ),
            T::SelectDeck => ("デッキを選択", "Choose a deck"),
            T::Start => ("決闘開始", "Start duel"),
            T::Recipe => ("デッキ確認", "Deck recipe"),
            T::Resume => ("続きから", "Resume"),
            T::NoSave => ("保存されたゲームはありません", "No saved game"),
            T::BattleLineBlurb => (
                "9本のフラッグを奪い合う2人用カードゲーム。コンピュータ対戦と交代プレイ。",
                "Two players fight over nine flags with troop formations. Play the computer or pass the device.",
            ),
            T::QuantumGomokuBlurb => (
                "確率で色が決まる石を置き、観測して3目並べを目指す。",
                "Place stones whose colour is only a probability, then observe to make a line of three.",
            ),
            T::Play => ("遊ぶ", "Play"),
            T::BattleLine => ("バトルライン", "Battle Line"),
            T::QuantumGomoku => ("量子五目並べ", "Quantum Gomoku"),
            T::BackHome => ("ホームへ戻る", "Back to home"),
            T::NotFound => ("ページが見つかりません", "Page not found"),
            T::UnknownDeck => ("そのデッキはありません", "There is no such deck"),
            T::NoCustomDeal => (
                "自分のデッキの決闘は、デッキ研究所の「このデッキで決闘」から始めます。",
                "A duel of a deck of your own starts from the deck lab's \"Play this deck\".",
            ),
            T::Summon => ("召喚", "Summon"),
            T::Set => ("セット", "Set"),
            T::Details => ("詳細表示", "Details"),
            T::Activate => ("発動", "Activate"),
            T::ActivateEffect => ("効果発動", "Activate effect"),
            T::EndTurn => ("ターン終了", "End turn"),
            T::Confirm => ("確定", "Confirm"),
            T::Cancel => ("キャンセル", "Cancel"),
            T::Close => ("閉じる", "Close"),
            T::Yes => ("はい", "Yes"),
            T::No => ("いいえ", "No"),
            T::MyLp => ("自分 LP", "Your LP"),
            T::OpponentLp => ("相手 LP", "Opponent LP"),
            T::Now => ("フェイズ", "Phase"),
            T::OpponentHand => ("相手の手札", "Opponent's hand"),
            T::OpponentDeck => ("相手のデッキ", "Opponent's deck"),
            T::FieldZone => ("フィールド", "Field"),
            T::Graveyard => ("墓地", "GY"),
            T::Banished => ("除外", "Banished"),
            T::ExtraDeck => ("EX", "EX"),
            T::Deck => ("デッキ", "Deck"),
            T::Restart => ("もう一度", "Play again"),
            T::Win => ("勝利", "You win"),
            T::Lose => ("敗北", "You lose"),
            T::Empty => ("カードはありません", "No cards"),
            T::NoValidTarget => (
                "対象にできるカードがないため、効果は適用されません",
                "No valid target: the effect does nothing",
            ),
            T::CorruptSave => (
                "保存データが壊れているか古いため破棄しました",
                "The saved game was corrupt or outdated and has been discarded",
            ),
            T::SaveRestored => ("保存されたゲームを再開しました", "Resumed the saved game"),
            T::Switch => ("English", "日本語"),
            T::CardDetails => ("カード詳細", "Card details"),
            T::Monsters => ("モンスター", "Monsters"),
            T::Spells => ("魔法", "Spells"),
            T::Traps => ("罠", "Traps"),
            T::ExtraMonsters => ("エクストラデッキ", "Extra deck"),
            T::CardsTotal => ("枚", " cards"),
            T::Starting => ("準備中…", "Preparing…"),
            T::NotLegalNow => ("今は行えません", "Not possible now"),
            T::Pass => ("チェーンしない", "Don't chain"),
            T::GameRule => ("ルール", "Game rule"),
            T::OpponentGraveyard => ("相手の墓地", "Opponent's GY"),
            T::OpponentBanished => ("相手の除外", "Opponent's banished"),
            T::EquipMark => ("装備", "Eq"),
            T::EndPhaseHint => (
                "エンドフェイズです。速攻魔法を発動できます。もう一度「ターン終了」を押すとターンを終えます。",
                "End Phase: you may still activate a Quick-Play Spell. Press End Turn again to end the turn.",
            ),
            T::DuelLog => ("ログ", "Log"),
            T::SynchroSummon => ("シンクロ召喚", "Synchro Summon"),
            T::SynchroReady => ("シンクロ召喚できます", "a Synchro Summon is possible"),
            T::RevealedCards => ("めくられたカード", "Revealed cards"),
            T::Ok => ("OK", "OK"),
            T::BlChooseMode => ("対戦方法を選んでください", "Choose how to play"),
            T::BlModeCpu => ("コンピューターと対戦", "Play the computer"),
            T::BlModePvp => ("二人で対戦（端末を交代）", "Pass and play (two players)"),
            T::BlSeed => ("シード", "Seed"),
            T::BlClaimTiming => ("フラッグ確保のタイミング", "When flags may be claimed"),
            T::BlTimingStart => ("手番の最初", "At the start of a turn"),
            T::BlTimingAfter => ("カードを出した後", "After playing a card"),
            T::BlTimingAny => ("いつでも（出す前と後）", "Before and after playing"),
            T::BlRestart => ("最初からやり直す", "Restart"),
            T::BlNewGame => ("新しいゲーム", "New game"),
            T::BlUndo => ("取り消す", "Undo"),
            T::BlSortHand => ("手札を並べ替え", "Sort hand"),
            T::BlClaim => ("確保", "Claim"),
            T::BlClaimable => ("確保可能", "claimable"),
            T::BlTroopDeck => ("部隊", "Troops"),
            T::BlTacticDeck => ("戦術", "Tactics"),
            T::BlDiscard => ("捨て札", "Discard"),
            T::BlPass => ("パス", "Pass"),
            T::BlEndTurn => ("ターン終了", "End turn"),
            T::BlPlaceHere => ("ここへ", "Here"),
            T::BlHand => ("あなたの手札", "Your hand"),
            T::BlOpponentHand => ("相手の手札", "Opponent's hand"),
            T::BlGuileArea => ("謀略", "Guile"),
            T::BlPromptPlay => (
                "手札のカードを選び、置く場所を選んでください（フラッグの確保もできます）",
                "Pick a card from your hand, then where it goes (or claim a flag)",
            ),
            T::BlPromptDraw => (
                "山札から1枚引いてターンを終えてください（このターンに出したカードはまだ動かせます）",
                "Draw a card to end your turn (this turn's card can still be moved)",
            ),
            T::BlPromptEnd => ("ターンを終えてください", "End your turn"),
            T::BlPromptScoutDraw => (
                "偵察: 山札から引いてください（好きな組み合わせで3枚）",
                "Scout: draw 3 cards from any mix of the decks",
            ),
            T::BlPromptScoutReturn => (
                "偵察: 手札のカードを選び、その山札をタップして戻してください（2枚）",
                "Scout: pick a card in your hand, then its deck, to put it back (2 cards)",
            ),
            T::BlCpuThinking => ("コンピューターの番です…", "The computer is playing…"),
            T::BlCpuLast => ("コンピューターの手", "The computer's last turn"),
            T::BlPassDevice => (
                "次のプレイヤーに端末を渡してください",
                "Pass the device to the next player",
            ),
            T::BlContinue => ("手札を見る", "Show my hand"),
            T::BlYou => ("あなた", "You"),
            T::BlComputer => ("コンピューター", "Computer"),
            T::BlPlayer1 => ("プレイヤー1", "Player 1"),
            T::BlPlayer2 => ("プレイヤー2", "Player 2"),
            T::BlBreakthrough => (
                "突破（隣り合う3本のフラッグ）",
                "breakthrough (three adjacent flags)",
            ),
            T::BlEnvelopment => ("包囲（5本のフラッグ）", "envelopment (five flags)"),
            T::BlStalemate => (
                "引き分け: どちらのプレイヤーも動けません",
                "Drawn: neither player can act",
            ),
            T::BlClaimRefused => (
                "このフラッグはまだ確保できません",
                "This flag cannot be claimed yet",
            ),
            T::BlCounterexample => (
                "相手はまだこのカードで上回れます:",
                "The opponent could still beat it with:",
            ),
            T::BlRefused => ("その操作はできません", "That is not possible"),
            T::BlWins => ("の勝利", "wins"),
            T::BlDrewCard => ("山札から1枚引いた", "drew a card"),
            T::BlClaimed => ("フラッグを確保", "claimed flag"),
            T::QgNewGame => ("新しいゲーム", "New game"),
            T::QgBoardSize => ("盤のサイズ", "Board size"),
            T::QgWinLength => ("勝ちに必要な連続数", "Stones in a row to win"),
            T::QgReset => ("リセット", "Reset"),
            T::QgDelete => ("削除", "Delete"),
            T::QgUndo => ("一手戻す", "Undo"),
            T::QgExistingId => ("既存のゲーム ID", "Existing game ID"),
            T::QgLoad => ("読み込む", "Load"),
            T::QgInvalidId => (
                "ゲーム ID は UUID v4 の形式で入力してください",
                "Enter the game ID as a UUID v4",
            ),
            T::QgUnknownId => (
                "その ID のゲームはこのブラウザに保存されていません",
                "No game with this ID is saved in this browser",
            ),
            T::QgCorruptSave => (
                "保存データが壊れていたため破棄しました",
                "A saved game was corrupt and has been discarded",
            ),
            T::QgResumed => ("保存されたゲームを再開しました", "Resumed the saved game"),
            T::QgLoaded => ("ゲームを読み込みました", "Game loaded"),
            T::QgUrlIdIgnored => (
                "URL の gameId のゲームが見つからないため使いませんでした",
                "The gameId in the address was not usable and has been ignored",
            ),
            T::QgId => ("ID", "ID"),
            T::QgTurn => ("手数", "Turn"),
            T::QgCurrentPlayer => ("手番", "To move"),
            T::QgStatus => ("状態", "Status"),
            T::QgWinner => ("勝者", "Winner"),
            T::QgNobody => ("なし", "none"),
            T::QgPlaying => ("対局中", "Playing"),
            T::QgFinished => ("終局", "Finished"),
            T::QgDraw => ("引き分け", "Draw"),
            T::QgBlack => ("黒", "Black"),
            T::QgWhite => ("白", "White"),
            T::QgObsRemaining => ("残り観測", "obs remaining"),
            T::QgObsUsed => ("使用済み観測", "obs used"),
            T::QgNextStone => ("次の石", "Next stone"),
            T::QgMoveLog => ("棋譜", "Move log"),
            T::QgNoMoves => ("まだ手はありません", "No moves yet"),
            T::QgWinProbability => ("観測した場合の見込み", "If someone observed now"),
            T::QgBlackLine => ("黒の列", "Black line"),
            T::QgWhiteLine => ("白の列", "White line"),
            T::QgBothLines => ("両方", "Both"),
            T::QgNoLine => ("どちらもなし", "Neither"),
            T::QgExact => ("全組み合わせで厳密に計算", "exact over all assignments"),
            T::QgSamples => ("回のランダム観測から推定", "random collapses (estimate)"),
            T::QgLastObservation => ("直前の観測結果", "Last observation"),
            T::QgKeyboardHelp => (
                "矢印キーでカーソル移動、Enter か Space で配置、O で観測",
                "Arrow keys move the cursor, Enter or Space places, O observes",
            ),
            T::QgBoard => ("盤面", "Board"),
            T::Help => ("遊び方とルール", "How to play"),
            T::QgRulesBlurb => (
                "石は黒になる確率を持ちます（黒 90%/70%、白 10%/30%）。自分が置いた直後に観測でき、観測で列がそろえば勝ち、そろわなければ石は未観測に戻ります。",
                "Each stone is black with some probability (Black plays 90%/70%, White 10%/30%). Right after your move you may observe: a line wins, otherwise every stone goes back to unobserved.",
            ),
        };
        lang.pick(ja, en)
    }
}

/// 「手札 (N 枚)」 / "Hand (N)".
pub fn hand_title(lang: Lang, n: usize) -> String {
    match lang {
        Lang::Ja => format!("手札 ({n} 枚)"),
        Lang::En => format!("Hand ({n})"),
    }
}

/// 「選択中: n / N枚」 / "Selected: n / N". `max` is shown as a range when it differs from `min`.
pub fn selected_counter(lang: Lang, n: usize, min: usize, max: usize) -> String {
    let need = if min == max {
        max.to_string()
    } else {
        format!("{min}-{max}")
    };
    match lang {
        Lang::Ja => format!("選択中: {n} / {need}枚"),
        Lang::En => format!("Selected: {n} / {need}"),
    }
}

/// 「魔力カウンター：N個」 / "Spell Counters: N", the label of a card's counter badge.
pub fn counters_label(lang: Lang, n: u8) -> String {
    match lang {
        Lang::Ja => format!("魔力カウンター：{n}個"),
        Lang::En => format!("Spell Counters: {n}"),
    }
}

/// 「装備：《A》（S1）」 / "Equipped: "A" (S1)", the title of a monster's equip marker;
/// `equips` are `(card name, zone)` pairs.
pub fn equipped_label(lang: Lang, equips: &[(String, String)]) -> String {
    let (head, sep) = match lang {
        Lang::Ja => ("装備：", "、"),
        Lang::En => ("Equipped: ", ", "),
    };
    let list: Vec<String> = equips
        .iter()
        .map(|(name, zone)| match lang {
            Lang::Ja => format!("《{name}》（{zone}）"),
            Lang::En => format!("\"{name}\" ({zone})"),
        })
        .collect();
    format!("{head}{}", list.join(sep))
}

/// 「M1のモンスターに装備」 / "equipped to M1", said of an equip card.
pub fn equipped_to_label(lang: Lang, zone: &str) -> String {
    match lang {
        Lang::Ja => format!("{zone}のモンスターに装備"),
        Lang::En => format!("equipped to {zone}"),
    }
}

/// A card's accessible name with what sits on it: 「王立魔法図書館（魔力カウンター：1個）」.
pub fn card_with_notes(lang: Lang, name: &str, notes: &[String]) -> String {
    match lang {
        Lang::Ja => format!("{name}（{}）", notes.join("、")),
        Lang::En => format!("{name} ({})", notes.join("; ")),
    }
}

/// 「宣言されたレベル：N」 / "Declared Level: N" (Reasoning's declaration).
pub fn declared_level(lang: Lang, level: u8) -> String {
    match lang {
        Lang::Ja => format!("宣言されたレベル：{level}"),
        Lang::En => format!("Declared Level: {level}"),
    }
}

/// 「…ほか N 件（ログ）」 / "… N more (in the log)", under a shortened toast.
pub fn more_in_log(lang: Lang, n: usize) -> String {
    match lang {
        Lang::Ja => format!("…ほか {n} 件（ログ）"),
        Lang::En => format!("… {n} more (in the log)"),
    }
}

/// 「ログ (N件)」 / "Log (N)".
pub fn log_title(lang: Lang, n: usize) -> String {
    match lang {
        Lang::Ja => format!("{} ({n}件)", T::DuelLog.text(lang)),
        Lang::En => format!("{} ({n})", T::DuelLog.text(lang)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_and_garbage_is_rejected() {
        for lang in [Lang::Ja, Lang::En] {
            assert_eq!(Lang::from_code(lang.code()), Some(lang));
            assert_eq!(lang.other().other(), lang);
        }
        assert_eq!(Lang::from_code("xx"), None);
    }

    #[test]
    fn counters_match_the_reference_labels() {
        assert_eq!(hand_title(Lang::Ja, 5), "手札 (5 枚)");
        assert_eq!(selected_counter(Lang::Ja, 0, 2, 2), "選択中: 0 / 2枚");
        assert_eq!(selected_counter(Lang::En, 1, 1, 3), "Selected: 1 / 1-3");
        assert_eq!(counters_label(Lang::Ja, 2), "魔力カウンター：2個");
        assert_eq!(log_title(Lang::Ja, 12), "ログ (12件)");
        assert_eq!(declared_level(Lang::Ja, 4), "宣言されたレベル：4");
        assert_eq!(declared_level(Lang::En, 4), "Declared Level: 4");
    }

    #[test]
    fn a_card_label_lists_what_sits_on_it() {
        let notes = [
            counters_label(Lang::Ja, 1),
            equipped_to_label(Lang::Ja, "M2"),
        ];
        assert_eq!(
            card_with_notes(Lang::Ja, "王立魔法図書館", &notes),
            "王立魔法図書館（魔力カウンター：1個、M2のモンスターに装備）"
        );
        let notes = [counters_label(Lang::En, 3)];
        assert_eq!(
            card_with_notes(Lang::En, "Royal Magical Library", &notes),
            "Royal Magical Library (Spell Counters: 3)"
        );
    }

    #[test]
    fn equip_labels_name_each_card_and_its_zone() {
        let two = [
            ("折れ竹光".to_string(), "S1".to_string()),
            ("黄金色の竹光".to_string(), "S3".to_string()),
        ];
        assert_eq!(
            equipped_label(Lang::Ja, &two),
            "装備：《折れ竹光》（S1）、《黄金色の竹光》（S3）"
        );
        let one = [("Broken Bamboo Sword".to_string(), "S2".to_string())];
        assert_eq!(
            equipped_label(Lang::En, &one),
            "Equipped: \"Broken Bamboo Sword\" (S2)"
        );
    }
}
