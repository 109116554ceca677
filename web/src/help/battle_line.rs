//! Battle Line's rules page.

use super::{Help, Section};

pub static HELP: Help = Help {
    intro: (
        "2人で9本のフラッグを奪い合うカードゲームです。フラッグの自分側に3枚ずつ部隊カードを並べ、相手より強い組み合わせを作ってフラッグを確保します。コンピューターと対戦するか、1台の端末を交代で使って2人で遊べます。",
        "Two players fight over nine flags. Each lays three troop cards on their side of a flag; the stronger formation wins the flag. Play the computer, or two people taking turns on one device.",
    ),
    sections: &[
        Section {
            title: ("カード", "The cards"),
            list: false,
            paragraphs: &[(
                "部隊カードは6色×1〜10の60枚。戦術カードは10枚で、部隊と別の山札になっています。手札は7枚です。",
                "60 troop cards: six colours, values 1 to 10. Ten tactics cards form a deck of their own. Each hand holds seven cards.",
            )],
        },
        Section {
            title: ("手番", "A turn"),
            list: true,
            paragraphs: &[
                (
                    "手札から1枚を出します：部隊カードはまだ3枚そろっていない自分側のフラッグへ、戦術カードはその種類に合う場所へ。",
                    "Play one card from your hand: a troop to your side of a flag that has fewer than three of your cards, a tactics card where its kind allows.",
                ),
                (
                    "部隊も戦術も出せないときはパスします。",
                    "If you cannot play anything, pass.",
                ),
                (
                    "どちらかの山札から1枚引いて手番を終えます（引く前なら、この手番に出したカードは置き直せます）。",
                    "Draw a card from either deck to end your turn (until you draw, the card played this turn can still be moved).",
                ),
                (
                    "フラッグの確保は、開始時の設定により手番の最初、カードを出した後、またはその両方で行えます。",
                    "Flags are claimed at the start of your turn, after playing, or both, as chosen when the game starts.",
                ),
            ],
        },
        Section {
            title: ("組み合わせの強さ（強い順）", "Formations, strongest first"),
            list: true,
            paragraphs: &[
                (
                    "ウェッジ：同じ色の連続した3つの数（例：赤の7・8・9）",
                    "Wedge: three consecutive values of one colour (red 7, 8, 9)",
                ),
                (
                    "ファランクス：同じ数3枚（例：5・5・5）",
                    "Phalanx: three of the same value (5, 5, 5)",
                ),
                ("バタリオン：同じ色3枚", "Battalion: three of one colour"),
                (
                    "スカーミッシュライン：色を問わず連続した3つの数",
                    "Skirmish line: three consecutive values of any colours",
                ),
                ("ホスト：それ以外", "Host: anything else"),
                (
                    "同じ種類なら数の合計が大きい方、それも同じなら先にそろえた方が勝ちます。",
                    "Between two formations of the same kind the higher total wins; if that ties too, whoever completed first wins.",
                ),
            ],
        },
        Section {
            title: ("フラッグの確保と勝利", "Claiming flags and winning"),
            list: true,
            paragraphs: &[
                (
                    "自分の3枚がそろい、相手がまだ見えていないカードでどう並べても勝てないと示せるとき、そのフラッグを確保できます。できないときは、相手が上回れるカードの例が表示されます。",
                    "You may claim a flag once your three cards are down and no cards the opponent could still get would beat them. When a claim is refused, the page shows cards that would beat you.",
                ),
                (
                    "5本のフラッグを確保する（包囲）か、隣り合う3本を確保する（突破）と勝ちです。",
                    "Win with any five flags (envelopment) or three adjacent flags (breakthrough).",
                ),
            ],
        },
        Section {
            title: ("戦術カード", "Tactics cards"),
            list: true,
            paragraphs: &[
                (
                    "士気：アレキサンダー・ダリウス（好きな色と数、1人1枚まで）、援軍騎兵（好きな色の8）、盾の兵（好きな色の1〜3）。",
                    "Morale: Alexander and Darius (any colour and value; one leader per player), Companion Cavalry (an 8 of any colour), Shield Bearers (a 1, 2 or 3 of any colour).",
                ),
                (
                    "環境：霧（そのフラッグは合計だけで比べる）、泥（そのフラッグは4枚ずつ必要）。",
                    "Environment: Fog (the flag is decided by totals only), Mud (four cards per side at that flag).",
                ),
                (
                    "謀略：偵察（3枚引いて2枚戻す）、配置転換（自分のカードを動かすか捨てる）、脱走（相手のカードを1枚捨てさせる）、裏切り（相手の部隊を自分の側へ）。",
                    "Guile: Scout (draw three, put two back), Redeploy (move or discard one of your cards), Deserter (discard one of the opponent's cards), Traitor (move an opponent's troop to your side).",
                ),
                (
                    "すでに相手より多く戦術カードを出しているときは、戦術カードを出せません。",
                    "You cannot play a tactics card while you have played more of them than your opponent.",
                ),
            ],
        },
    ],
    glossary: &[],
};
