//! The duel simulator's rules page and the glossary of the words its dialogs use.

use super::{Help, Section, Term};

pub static HELP: Help = Help {
    intro: (
        "ひとりで遊ぶデュエルです。用意されたデッキから5枚引いて始め、自分の最初のターンのうちに勝つことを目指します。相手は何もしません（8000 LP、手札5枚、通常モンスターだけのデッキ）。ターンを終えると、その挑戦は負けになります。",
        "A duel for one player. Pick one of the prepared decks, draw five cards and try to win before your first turn ends. The opponent does nothing (8000 LP, a five-card hand, a deck of plain monsters). Ending the turn without a win loses the attempt.",
    ),
    sections: &[
        Section {
            title: ("勝ち方", "How to win"),
            list: true,
            paragraphs: &[
                (
                    "エクゾディア：封印されしエクゾディアと4枚の手足、5枚すべてが手札にそろう（効果の処理が終わった時点で確かめます）。",
                    "Exodia: the five pieces (Exodia the Forbidden One and its four limbs) all in your hand, checked once an effect has finished.",
                ),
                (
                    "相手の LP を 0 にする（「科学者」と「カタパルト・タートル」のデッキなど）。",
                    "Bring the opponent's LP to 0 (the Scientist and Catapult Turtle deck, for one).",
                ),
                (
                    "次のどれかで負けます：ターンを終える、自分の LP が 0 になる、空のデッキから引こうとする。",
                    "You lose when you end the turn, when your LP reach 0, or when you must draw from an empty deck.",
                ),
            ],
        },
        Section {
            title: ("ターンの流れ", "The turn"),
            list: false,
            paragraphs: &[
                (
                    "ドローフェイズとスタンバイフェイズは自動で進み、メインフェイズで操作します。先攻1ターン目なのでバトルはありません。「ターン終了」を押すとエンドフェイズに入り、そこで速攻魔法を発動できるときは一度止まります。もう一度押すとターンが終わります。",
                    "The Draw and Standby Phases pass by themselves; you play in the Main Phase. There is no battle on the first turn. 「ターン終了」 (End turn) enters the End Phase; if a Quick-Play Spell could still be activated there, the page stops and says so, and pressing it again ends the turn.",
                ),
                (
                    "まだ行動できるのにターン終了を押すと、確認のダイアログが出ます（ホームの設定で出さないようにもできます）。",
                    "Pressing End turn while you can still act asks first (the home page's settings can turn the question off).",
                ),
            ],
        },
        Section {
            title: ("操作", "Controls"),
            list: true,
            paragraphs: &[
                (
                    "手札のカードを押すとメニューが開きます：モンスターは「召喚」「セット」、魔法は「発動」「セット」。できない操作は押せず、その理由が横に出ます。",
                    "A card in your hand opens a menu: Summon or Set for a monster, Activate or Set for a spell. An action that cannot be done now is greyed out with the reason beside it.",
                ),
                (
                    "フィールドのカードを押すと、そのカードでできること（起動効果の「効果発動」、セットしたカードの「発動」）と「詳細表示」が出ます。",
                    "A card on the field shows what it can do where it is (Activate effect for an ignition effect, Activate for a set card) and its details.",
                ),
                (
                    "墓地・除外・エクストラデッキは押すと一覧が開きます。シンクロ召喚はエクストラデッキの一覧から行います。",
                    "The graveyard, banished pile and Extra Deck open as lists; Synchro Summons start from the Extra Deck list.",
                ),
                (
                    "効果が選択を求めると、ダイアログが開きます。カードを選んで「確定」、または選択肢を押します。",
                    "When an effect needs a decision, a dialog opens: pick cards and Confirm, or press one of the choices.",
                ),
                (
                    "カードの上にマウスを置くかキーボードで選ぶと、カード全体が横に出ます。スマートフォンではカードを長押しすると詳細が開きます。",
                    "Rest the mouse on a card (or move the keyboard focus to it) to see the whole card beside it; on a phone, press and hold a card to open its details.",
                ),
                (
                    "キーボードだけでも遊べます：Tab で移動、Enter で押す、メニューは上下の矢印、Esc で閉じる。",
                    "Everything works from the keyboard: Tab moves, Enter presses, the arrow keys move in a menu and Escape closes it.",
                ),
                (
                    "対局は操作のたびに保存され、再読み込みやホームの「続きから」で再開できます。同じシードなら同じ山札になります。",
                    "The duel is saved after every action; reload the page or use Resume on the home page. The same seed always deals the same deck.",
                ),
            ],
        },
        Section {
            title: ("メッセージとログ", "Messages and the log"),
            list: false,
            paragraphs: &[(
                "直前の操作で起きたことが画面の隅に短く出ます（最大2件）。フェイズの移り変わりは上部の「フェイズ」に出ます。すべての出来事は下の「ログ」を開くと順に読めます。",
                "What the last action did shows briefly in a corner (two messages at most); the phase shows at the top. Open the Log below the hand to read every event in order.",
            )],
        },
    ],
    glossary: &[
        Term {
            term: ("チェーン", "Chain"),
            meaning: (
                "カードや効果の発動に、別の発動を続けて積み重ねたもの。積んだ順に「チェーン1」「チェーン2」…と数え、最後に積んだものから逆順に解決します。",
                "Activations stacked on one another. They are numbered in the order they were added (chain link 1, 2, …) and resolve in reverse: the last one added resolves first.",
            ),
        },
        Term {
            term: ("チェーンする", "Chain (to respond)"),
            meaning: (
                "発動に対して、速攻魔法などをさらに発動して重ねること。「チェーンしない」を選ぶと、積まれたものが解決されます。",
                "To activate something else (such as a Quick-Play Spell) on top of an activation. Choosing 「チェーンしない」 (don't chain) lets the chain resolve.",
            ),
        },
        Term {
            term: ("コスト", "Cost"),
            meaning: (
                "発動するために払うもの（LP を払う、手札を捨てる、カードを除外する、リリースするなど）。発動した時点で払い、効果が無効になっても戻りません。",
                "What you pay to activate (LP, discarding, banishing, Tributing, …). It is paid on activation and never given back, even if the effect does nothing.",
            ),
        },
        Term {
            term: ("誘発効果", "Trigger effect"),
            meaning: (
                "「〜したとき」「〜した場合」のように、何かが起きたことで発動する効果。チェーンの解決が終わってから、強制のものが先、任意のものは使うかどうかを聞かれます。同時に複数あると順番を選びます。",
                "An effect that starts because something happened (\"when …\", \"if …\"). It is activated after the current chain has resolved: mandatory ones first, optional ones only if you say yes; when several start at once you choose their order.",
            ),
        },
        Term {
            term: ("起動効果", "Ignition effect"),
            meaning: (
                "メインフェイズに自分で宣言して発動する効果（フィールドのカードのメニューの「効果発動」）。",
                "An effect you start yourself in your Main Phase (Activate effect in a field card's menu).",
            ),
        },
        Term {
            term: ("タイミングを逃す", "Missing the timing"),
            meaning: (
                "「〜したとき」と書かれた任意の誘発効果は、その出来事が最後に起きたことでなければ発動できません。たとえば効果の処理の途中で起き、そのあとに別の処理が続いた場合です。「〜した場合」の効果や強制の効果は逃しません。",
                "An optional \"when …\" trigger can only be activated if its event was the last thing that happened; if the event came in the middle of an effect that then did something else, the chance is gone. \"If …\" triggers and mandatory ones never miss it.",
            ),
        },
        Term {
            term: ("誓約", "Oath"),
            meaning: (
                "「このカードを発動するターン、自分は特殊召喚できない」のような、発動するための約束。特殊召喚をしたあとでは発動できず、発動したあとは特殊召喚を含む効果（シンクロ召喚も）が使えなくなります。",
                "A promise made to activate a card, such as \"you cannot Special Summon the turn you activate this\": it cannot be activated after a Special Summon, and afterwards nothing that would Special Summon (Synchro Summons included) can be activated.",
            ),
        },
        Term {
            term: ("1ターンに1度", "Once per turn"),
            meaning: (
                "そのカード1枚につき、または同じ名前のカード全体で、1ターンに1回しか使えない効果。",
                "An effect that can be used once per turn per copy of the card, or once for all cards of that name.",
            ),
        },
        Term {
            term: ("対象をとる", "Target"),
            meaning: (
                "発動するときにカードを選ぶこと。解決するまでにそのカードが移動していたら、効果はそのカードに及びません。",
                "Choosing cards when activating. If a chosen card has moved by the time the effect resolves, the effect no longer applies to it.",
            ),
        },
        Term {
            term: ("速攻魔法", "Quick-Play Spell"),
            meaning: (
                "チェーンして発動できる魔法。エンドフェイズにも手札から発動できます。",
                "A spell that can be chained to another activation, and also activated from the hand in the End Phase.",
            ),
        },
        Term {
            term: ("リリース", "Tribute"),
            meaning: (
                "自分のモンスターを墓地へ送ること。レベル5以上のモンスターの召喚や、コストに使います。トークンは墓地へ行かずに消えます。",
                "Sending your own monster to the graveyard, to Normal Summon a Level 5 or higher monster or as a cost. A Token vanishes instead of going to the graveyard.",
            ),
        },
        Term {
            term: ("シンクロ召喚", "Synchro Summon"),
            meaning: (
                "チューナー1体とチューナー以外のモンスターを墓地へ送り、レベルの合計が同じシンクロモンスターをエクストラデッキから特殊召喚すること。",
                "Sending one Tuner and any non-Tuner monsters from your field to the graveyard to Special Summon a Synchro monster of the same total Level from the Extra Deck.",
            ),
        },
        Term {
            term: ("魔力カウンター", "Spell Counter"),
            meaning: (
                "魔法が発動するたびに「王立魔法図書館」などに乗るしるし。取り除いて効果に使います。",
                "A marker placed on cards such as Royal Magical Library whenever a Spell is activated; removing them pays for its effect.",
            ),
        },
        Term {
            term: ("除外", "Banish"),
            meaning: (
                "カードをゲームから取り除くこと。除外されたカードは墓地とは別の場所に置かれます。",
                "Removing a card from play to a pile apart from the graveyard.",
            ),
        },
    ],
};
