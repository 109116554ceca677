//! What the player may see of a duel: the only window the UI has into the engine.

use serde::{Deserialize, Serialize};

use crate::card::{CardDef, Code, card};
use crate::effect::Purpose;
use crate::state::{
    CardId, Duel, Face, Location, OrderOf, Outcome, Phase, Player, Position, PromptState, Settings,
    ZONE_SLOTS,
};

/// A card as the player sees it. `code` is `None` for face-down cards, the deck and the
/// opponent's hand, so their identity never reaches the UI.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct CardView {
    pub id: CardId,
    pub code: Option<Code>,
    pub face: Face,
    pub position: Option<Position>,
    /// Counters on the card (Spell Counters).
    pub counters: u8,
    /// For a face-up equip card: the monster it is equipped to.
    pub equipped_to: Option<CardId>,
}

impl CardView {
    /// The card's definition when its face is visible.
    pub fn def(&self) -> Option<&'static CardDef> {
        self.code.and_then(card)
    }
}

/// One player's side of the table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SideView {
    pub lp: u32,
    pub deck_count: usize,
    /// Visible for you; card backs (no codes) for the opponent.
    pub hand: Vec<CardView>,
    pub monsters: [Option<CardView>; ZONE_SLOTS],
    pub spell_trap: [Option<CardView>; ZONE_SLOTS],
    pub field_zone: Option<CardView>,
    pub graveyard: Vec<CardView>,
    pub banished: Vec<CardView>,
    /// Your own extra deck is known to you; the opponent's shows backs.
    pub extra: Vec<CardView>,
    pub normal_summon_used: u8,
    pub normal_summon_limit: u8,
}

/// A link of the chain.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChainLinkView {
    /// 1-based chain link number.
    pub number: usize,
    pub card: CardView,
    pub player: Player,
}

/// What a choice prompt asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Question {
    /// Choose one mode of a modal effect.
    Mode,
    /// Use this optional trigger effect?
    UseTrigger,
    /// Which of these comes next (a chain link of simultaneous triggers, or an End Phase
    /// effect)?
    Order(OrderOf),
    /// Special Summon in Attack or Defense Position?
    Position,
}

/// What one option of a choice means.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Meaning {
    Mode {
        label_ja: String,
        label_en: String,
    },
    Yes,
    No,
    Attack,
    Defense,
    /// A card of the list being put in order.
    Card(CardView),
}

/// One option of a choice prompt.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChoiceOption {
    /// The value to answer with: `Response::Option(value)`.
    pub value: u8,
    pub meaning: Meaning,
}

impl ChoiceOption {
    /// A stable name for the option (`yes`, `no`, `attack`, `defense`, or its position in
    /// the list), for tests and accessibility.
    pub fn key(&self) -> String {
        match self.meaning {
            Meaning::Yes => "yes".into(),
            Meaning::No => "no".into(),
            Meaning::Attack => "attack".into(),
            Meaning::Defense => "defense".into(),
            Meaning::Mode { .. } | Meaning::Card(_) => self.value.to_string(),
        }
    }

    /// The option's label in the player's language (card options show the card instead).
    pub fn label(&self, lang: crate::Lang) -> String {
        crate::text::choice(&self.meaning, lang)
    }
}

/// What the pending prompt asks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum PromptKind {
    /// Choose between `min` and `max` of the candidates (shown face-up to you).
    Cards {
        candidates: Vec<CardView>,
        min: u8,
        max: u8,
        purpose: Purpose,
    },
    /// Choose one option.
    Choice {
        question: Question,
        options: Vec<ChoiceOption>,
    },
}

/// A decision the duel waits for: the card that asks it (`None` for a rule of the game:
/// the hand size limit, the order of simultaneous effects) and the card it is about.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PromptView {
    pub source: Option<Code>,
    /// The card the question is about (the trigger to use, the monster to summon).
    pub subject: Option<CardView>,
    pub kind: PromptKind,
}

impl PromptView {
    /// The prompt's title in the player's language.
    pub fn title(&self, lang: crate::Lang) -> String {
        match &self.kind {
            PromptKind::Cards {
                min, max, purpose, ..
            } => crate::text::purpose(*purpose, *min, *max, self.source.is_none(), lang),
            PromptKind::Choice { question, .. } => crate::text::question(*question, lang).into(),
        }
    }
}

/// Everything the UI shows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DuelView {
    pub deck_id: String,
    pub seed: u64,
    pub settings: Settings,
    pub phase: Phase,
    pub turn: u32,
    pub you: SideView,
    pub opponent: SideView,
    pub chain: Vec<ChainLinkView>,
    /// The chain waits for you to chain a quick-play or pass.
    pub chain_window: bool,
    pub prompt: Option<PromptView>,
    pub outcome: Option<Outcome>,
    /// Number of commands played so far.
    pub moves: usize,
}

impl Duel {
    /// The duel as the player sees it.
    pub fn view(&self) -> DuelView {
        DuelView {
            deck_id: self.deck_id.to_string(),
            seed: self.seed,
            settings: self.settings,
            phase: self.phase,
            turn: self.turn,
            you: self.side_view(Player::You),
            opponent: self.side_view(Player::Opponent),
            chain: self
                .chain
                .iter()
                .enumerate()
                .map(|(i, l)| ChainLinkView {
                    number: i + 1,
                    card: self.card_view(l.card),
                    player: l.controller,
                })
                .collect(),
            chain_window: !self.chain.is_empty()
                && !self.resolving
                && self.prompt.is_none()
                && self.frames.is_empty(),
            prompt: self
                .prompt
                .as_ref()
                .map(|p| self.prompt_view(p.source, &p.state)),
            outcome: self.outcome,
            moves: self.log.len(),
        }
    }

    /// A card as seen by the player: hidden when face-down, in a deck, or in the
    /// opponent's hand or extra deck.
    pub fn card_view(&self, id: CardId) -> CardView {
        let c = &self.cards[id.index()];
        let hidden = c.face == Face::Down
            || c.location == Location::Deck
            || (c.owner == Player::Opponent
                && matches!(c.location, Location::Hand | Location::ExtraDeck));
        let visible_extra = c.owner == Player::You && c.location == Location::ExtraDeck;
        let shown = !hidden || visible_extra;
        CardView {
            id,
            code: shown.then_some(c.code),
            face: if visible_extra { Face::Up } else { c.face },
            position: c.position,
            counters: if shown { c.counters } else { 0 },
            equipped_to: if shown { c.equipped_to } else { None },
        }
    }

    /// A card shown face-up to the player because an effect lets them look at it.
    fn revealed_view(&self, id: CardId) -> CardView {
        let c = &self.cards[id.index()];
        CardView {
            id,
            code: Some(c.code),
            face: Face::Up,
            position: c.position,
            counters: c.counters,
            equipped_to: c.equipped_to,
        }
    }

    fn side_view(&self, p: Player) -> SideView {
        let ps = self.player(p);
        let list = |v: &[CardId]| v.iter().map(|&id| self.card_view(id)).collect();
        SideView {
            lp: ps.lp,
            deck_count: ps.deck.len(),
            hand: list(&ps.hand),
            monsters: ps.monsters.map(|s| s.map(|id| self.card_view(id))),
            spell_trap: ps.spell_trap.map(|s| s.map(|id| self.card_view(id))),
            field_zone: ps.field_zone.map(|id| self.card_view(id)),
            graveyard: list(&ps.graveyard),
            banished: list(&ps.banished),
            extra: list(&ps.extra),
            normal_summon_used: ps.normal_summon_used,
            normal_summon_limit: ps.normal_summon_limit,
        }
    }

    fn prompt_view(&self, src: Option<CardId>, p: &PromptState) -> PromptView {
        let source = src.map(|id| self.cards[id.index()].code);
        let option = |value: u8, meaning| ChoiceOption { value, meaning };
        let (subject, kind) = match p {
            PromptState::Cards {
                candidates,
                min,
                max,
                purpose,
                ..
            } => (
                None,
                PromptKind::Cards {
                    candidates: candidates
                        .iter()
                        .map(|&id| self.revealed_view(id))
                        .collect(),
                    min: *min,
                    max: *max,
                    purpose: *purpose,
                },
            ),
            PromptState::Mode {
                card: c,
                effect,
                options,
            } => {
                let modes = card(self.cards[c.index()].code)
                    .and_then(|d| d.effects.get(usize::from(*effect)))
                    .map(|e| e.modes.as_slice())
                    .unwrap_or_default();
                let options = options
                    .iter()
                    .filter_map(|&i| {
                        modes.get(usize::from(i)).map(|m| {
                            option(
                                i,
                                Meaning::Mode {
                                    label_ja: m.label_ja.clone(),
                                    label_en: m.label_en.clone(),
                                },
                            )
                        })
                    })
                    .collect();
                (
                    None,
                    PromptKind::Choice {
                        question: Question::Mode,
                        options,
                    },
                )
            }
            PromptState::UseTrigger { card } => (
                Some(self.card_view(*card)),
                PromptKind::Choice {
                    question: Question::UseTrigger,
                    options: vec![option(0, Meaning::Yes), option(1, Meaning::No)],
                },
            ),
            PromptState::Position { card } => (
                Some(self.revealed_view(*card)),
                PromptKind::Choice {
                    question: Question::Position,
                    options: vec![option(0, Meaning::Attack), option(1, Meaning::Defense)],
                },
            ),
            PromptState::Order { of, items } => (
                None,
                PromptKind::Choice {
                    question: Question::Order(*of),
                    options: items
                        .iter()
                        .enumerate()
                        .map(|(i, &id)| option(i as u8, Meaning::Card(self.revealed_view(id))))
                        .collect(),
                },
            ),
        };
        PromptView {
            source,
            subject,
            kind,
        }
    }

    /// The commands played so far, in order.
    pub fn log(&self) -> &[crate::Command] {
        &self.log
    }

    pub fn seed(&self) -> u64 {
        self.seed
    }

    pub fn deck_id(&self) -> &str {
        &self.deck_id
    }

    pub fn settings(&self) -> Settings {
        self.settings
    }

    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// Events of the last command (or of the opening, for a new duel).
    pub fn events(&self) -> &[crate::Event] {
        &self.journal.events
    }

    /// Every card move of the last command, as the rules recorded it.
    pub fn game_events(&self) -> &[crate::event::GameEvent] {
        &self.journal.moves
    }

    /// Every card instance (the whole truth, for tests and tools; the UI uses `view`).
    pub fn instances(&self) -> impl Iterator<Item = (CardId, &crate::CardInstance)> {
        self.cards
            .iter()
            .enumerate()
            .map(|(i, c)| (CardId(i as u16), c))
    }

    /// LP of a player.
    pub fn lp(&self, p: Player) -> u32 {
        self.player(p).lp
    }
}
