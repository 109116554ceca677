//! Quantum Gomoku's rules page.

use super::{Help, Section};

pub static HELP: Help = Help {
    intro: (
        "色が確率でしか決まっていない石を置き、「観測」して色を確定させて、同じ色を一列に並べることを目指す2人用のゲームです。標準は 15×15 の盤で3目並べです。",
        "A game for two in which a stone's colour is only a probability until someone observes the board; then every stone takes a colour, and a line of one colour wins. The default is a 15×15 board and lines of three.",
    ),
    sections: &[
        Section {
            title: ("石", "Stones"),
            list: true,
            paragraphs: &[
                (
                    "黒番の石は 90% と 70% の確率で黒になる石を交互に、白番の石は 10% と 30% の確率で黒になる石を交互に置きます。",
                    "Black places stones that are black with 90% and 70% probability in turn; White places stones that are black with 10% and 30% probability in turn.",
                ),
                (
                    "盤の石の濃さと数字が、その石が黒になる確率を表します。",
                    "A stone's shade and number show the chance that it turns out black.",
                ),
            ],
        },
        Section {
            title: ("観測", "Observing"),
            list: true,
            paragraphs: &[
                (
                    "石を置いた直後、そのプレイヤーは観測できます（1人5回まで）。観測すると盤のすべての石が確率に従って黒か白に決まります。",
                    "Right after placing a stone, that player may observe (five times per player). Every stone on the board then becomes black or white by its probability.",
                ),
                (
                    "決まった色で指定の数だけ一列（縦・横・斜め）に並べば、その色のプレイヤーの勝ちです。両方の色がそろったときは観測した人の勝ちです。",
                    "A line (across, down or diagonal) of the required length in one colour wins for that colour's player; if both colours make a line, the observer wins.",
                ),
                (
                    "どちらの列もできなければ、石はまた確率の状態に戻り、ゲームが続きます。直前の観測結果は盤に残して見せます。",
                    "If no line appears, the stones go back to being probabilities and play goes on; the last observation stays on show.",
                ),
                (
                    "「観測した場合の見込み」は、今観測したら黒・白それぞれの列ができる確率です。",
                    "\"If someone observed now\" gives the chances of a black line and of a white line for an observation now.",
                ),
            ],
        },
        Section {
            title: ("操作", "Controls"),
            list: true,
            paragraphs: &[
                (
                    "盤のマスを押すか、矢印キーでカーソルを動かして Enter で石を置きます。O キーで観測します。",
                    "Click a cell, or move the cursor with the arrow keys and press Enter, to place a stone; press O to observe.",
                ),
                (
                    "一手戻す・リセット・新しいゲーム（盤の大きさと並べる数を選べます）ができ、ゲームはこのブラウザに保存されます。コンピューターを黒か白の相手にできます。",
                    "Undo, reset or start a new game (with the board size and line length you choose); games are saved in this browser. The computer can play either colour.",
                ),
                (
                    "盤が埋まり、どちらも観測できなくなると引き分けです。",
                    "When the board is full and nobody can observe any more, the game is drawn.",
                ),
            ],
        },
    ],
    glossary: &[],
};
