//! Starting a duel: from a preset deck and a seed, or from an explicit position built
//! with [`Setup`] (scenario tests, puzzles).

use seeded_rng::Rng;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::card::{Code, card};
use crate::command::Command;
#[cfg(not(feature = "custom-decks"))]
use crate::deck::deck;
use crate::deck::opponent_deck;
use crate::effect::SummonKind;
use crate::error::RuleError;
use crate::state::{
    CardId, CardInstance, Duel, EndStep, Face, Journal, Location, OPENING_HAND, Phase, Player,
    PlayerState, Position, STARTING_LP, Settings, Summoned, ZONE_SLOTS,
};

/// Why a duel could not be set up.
#[derive(Debug, Clone, PartialEq, Eq, Error, Serialize, Deserialize)]
pub enum SetupError {
    #[error("there is no deck named {0:?}")]
    UnknownDeck(String),
    #[error("the deck {0:?} is not playable yet")]
    DeckNotPlayable(String),
    #[error("unknown card {0}")]
    UnknownCard(Code),
    #[error("more cards than a zone holds")]
    ZoneFull,
    #[error("too many cards")]
    TooManyCards,
    #[error("an equip card names monster {0}, which is not a face-up monster of the set-up")]
    NoSuchMonster(usize),
    #[error("card {0} cannot be placed there")]
    WrongPlace(Code),
    /// The problem says why (its own message is left out here, so that a page that
    /// only shows this error does not carry every problem's text).
    #[cfg(feature = "custom-decks")]
    #[error("the deck list cannot be played")]
    IllegalDeck(crate::deck_list::DeckProblem),
    #[cfg(feature = "custom-decks")]
    #[error("card {0} is not in the deck as many times as the opening asks")]
    NotInDeck(Code),
    #[cfg(feature = "custom-decks")]
    #[error("an opening hand holds at most {OPENING_HAND} cards, not {0}")]
    HandTooLarge(usize),
}

/// Why a recorded game could not be replayed.
#[derive(Debug, Clone, PartialEq, Eq, Error, Serialize, Deserialize)]
pub enum ReplayError {
    #[error(transparent)]
    Setup(#[from] SetupError),
    #[error("command {index} was refused: {error}")]
    Refused { index: usize, error: RuleError },
}

/// One card put somewhere at set-up (the slot of a field location is chosen when placed).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Placement {
    pub code: Code,
    pub owner: Player,
    pub location: Location,
    pub face: Face,
    pub position: Option<Position>,
}

impl Placement {
    fn new(code: Code, owner: Player, location: Location, face: Face) -> Placement {
        Placement {
            code,
            owner,
            location,
            face,
            position: None,
        }
    }
}

impl Duel {
    /// A new duel with a preset deck: both decks are shuffled with `seed`, both players
    /// draw 5, and the duel moves on to Main Phase 1.
    pub fn new(deck_id: &str, seed: u64) -> Result<Duel, SetupError> {
        Duel::with_settings(deck_id, seed, Settings::default())
    }

    /// [`Duel::new`] with non-default rule settings.
    pub fn with_settings(deck_id: &str, seed: u64, settings: Settings) -> Result<Duel, SetupError> {
        // With deck lists, one dealing path (a bundle that links both links it once).
        #[cfg(feature = "custom-decks")]
        {
            Duel::dealt(deck_id, None, seed, settings)
        }
        #[cfg(not(feature = "custom-decks"))]
        {
            let d = deck(deck_id).ok_or_else(|| SetupError::UnknownDeck(deck_id.to_string()))?;
            if !d.playable {
                return Err(SetupError::DeckNotPlayable(deck_id.to_string()));
            }
            let mut duel =
                Duel::shuffled(deck_id, &d.main_codes(), &d.extra_codes(), seed, settings)?;
            duel.open(OPENING_HAND, Phase::Main1);
            Ok(duel)
        }
    }

    /// A duel of these main and Extra Deck cards with both decks shuffled by `seed`,
    /// before the opening hands are dealt.
    pub(crate) fn shuffled(
        deck_id: &str,
        main: &[Code],
        extra: &[Code],
        seed: u64,
        settings: Settings,
    ) -> Result<Duel, SetupError> {
        let mut placed: Vec<Placement> = main
            .iter()
            .map(|&c| Placement::new(c, Player::You, Location::Deck, Face::Down))
            .collect();
        placed.extend(
            extra
                .iter()
                .map(|&c| Placement::new(c, Player::You, Location::ExtraDeck, Face::Down)),
        );
        placed.extend(
            opponent_deck()
                .into_iter()
                .map(|c| Placement::new(c, Player::Opponent, Location::Deck, Face::Down)),
        );
        let (duel, _) = Duel::assemble(
            deck_id.to_string(),
            seed,
            settings,
            &placed,
            [STARTING_LP; 2],
            true,
        )?;
        Ok(duel)
    }

    /// Replays a recorded game: the same deck, seed, settings and commands give the
    /// same duel. Undo is a replay without the last command.
    pub fn replay(
        deck_id: &str,
        seed: u64,
        settings: Settings,
        log: &[Command],
    ) -> Result<Duel, ReplayError> {
        let mut duel = Duel::with_settings(deck_id, seed, settings)?;
        for (index, cmd) in log.iter().enumerate() {
            duel.apply(cmd.clone())
                .map_err(|error| ReplayError::Refused { index, error })?;
        }
        Ok(duel)
    }

    /// The same duel without its last command (nothing to undo: unchanged copy).
    pub fn undo(&self) -> Result<Duel, ReplayError> {
        let n = self.log.len().saturating_sub(1);
        #[cfg(feature = "custom-decks")]
        return Duel::replay_dealt(
            &self.deck_id,
            self.custom.as_deref(),
            self.seed,
            self.settings,
            &self.log[..n],
        );
        #[cfg(not(feature = "custom-decks"))]
        Duel::replay(&self.deck_id, self.seed, self.settings, &self.log[..n])
    }

    /// Builds a duel from explicit card placements; returns the id of each placement.
    fn assemble(
        deck_id: String,
        seed: u64,
        settings: Settings,
        placed: &[Placement],
        lp: [u32; 2],
        shuffle_decks: bool,
    ) -> Result<(Duel, Vec<CardId>), SetupError> {
        for p in placed {
            if card(p.code).is_none() {
                return Err(SetupError::UnknownCard(p.code));
            }
        }
        if placed.len() > usize::from(u16::MAX) {
            return Err(SetupError::TooManyCards);
        }
        let mut rng = Rng::new(seed);
        // Ids are handed out in a random order so that an id never tells which card it is.
        let mut order: Vec<usize> = (0..placed.len()).collect();
        rng.shuffle(&mut order);
        let mut id_of = vec![CardId(0); placed.len()];
        for (new_id, &i) in order.iter().enumerate() {
            id_of[i] = CardId(new_id as u16);
        }
        let mut duel = Duel {
            deck_id: deck_id.into(),
            seed,
            settings,
            cards: Vec::with_capacity(placed.len()),
            players: [PlayerState::new(), PlayerState::new()],
            phase: Phase::Draw,
            turn: 1,
            chain: Vec::new(),
            resolving: false,
            frames: Vec::new(),
            prompt: None,
            restrictions: Vec::new(),
            used_opt: Vec::new(),
            delayed: Vec::new(),
            end_step: EndStep::Open,
            triggers: Vec::new(),
            trigger_build: None,
            seq: 0,
            last_happening: 0,
            watchers: Vec::new(),
            rng,
            log: Vec::new(),
            outcome: None,
            journal: Journal::default(),
            #[cfg(feature = "custom-decks")]
            custom: None,
        };
        duel.players[0].lp = lp[0];
        duel.players[1].lp = lp[1];
        for &i in &order {
            let p = placed[i];
            duel.cards.push(CardInstance::new(p.code, p.owner, p.face));
        }
        // Placement order decides slots and pile order (decks: top first).
        for (i, p) in placed.iter().enumerate() {
            duel.place_initial(id_of[i], *p)?;
        }
        for p in [Player::You, Player::Opponent] {
            let deck = &mut duel.player_mut(p).deck;
            // Stored bottom first.
            deck.make_mut().reverse();
            if shuffle_decks {
                let mut d = std::mem::take(deck).to_vec();
                duel.rng.shuffle(&mut d);
                duel.player_mut(p).deck = d.into();
            }
        }
        Ok((duel, id_of))
    }

    fn place_initial(&mut self, id: CardId, p: Placement) -> Result<(), SetupError> {
        let def = crate::engine::def_of(p.code);
        let ps = &mut self.players[p.owner.index()];
        let location = match p.location {
            Location::Deck => {
                ps.deck.push(id);
                Location::Deck
            }
            Location::Hand => {
                ps.hand.push(id);
                Location::Hand
            }
            Location::Graveyard => {
                ps.graveyard.push(id);
                Location::Graveyard
            }
            Location::Banished => {
                ps.banished.push(id);
                Location::Banished
            }
            Location::ExtraDeck => {
                if !def.is_extra_deck() {
                    return Err(SetupError::WrongPlace(p.code));
                }
                ps.extra.push(id);
                Location::ExtraDeck
            }
            Location::MainMonsterZone(_) => {
                if !def.is_monster() {
                    return Err(SetupError::WrongPlace(p.code));
                }
                let slot = ps
                    .monsters
                    .iter()
                    .position(Option::is_none)
                    .ok_or(SetupError::ZoneFull)?;
                ps.monsters[slot] = Some(id);
                Location::MainMonsterZone(slot as u8)
            }
            Location::Vanished => return Err(SetupError::WrongPlace(p.code)),
            Location::SpellTrapZone(_) | Location::FieldZone => {
                if def.is_monster() {
                    return Err(SetupError::WrongPlace(p.code));
                }
                if def.is_field_spell() {
                    if ps.field_zone.is_some() {
                        return Err(SetupError::ZoneFull);
                    }
                    ps.field_zone = Some(id);
                    Location::FieldZone
                } else {
                    let slot = ps
                        .spell_trap
                        .iter()
                        .position(Option::is_none)
                        .ok_or(SetupError::ZoneFull)?;
                    ps.spell_trap[slot] = Some(id);
                    Location::SpellTrapZone(slot as u8)
                }
            }
        };
        let c = &mut self.cards[id.index()];
        c.location = location;
        if matches!(location, Location::MainMonsterZone(_)) {
            c.position = p.position;
            if p.face == Face::Up {
                // Placed before this turn by an ordinary, proper summon.
                c.summoned = Some(Summoned {
                    kind: if def.is_extra_deck() {
                        SummonKind::Synchro
                    } else {
                        SummonKind::Normal
                    },
                    proper: true,
                });
            }
        }
        Ok(())
    }

    /// Deals the opening hands and moves through the Draw and Standby Phases up to
    /// `stop_at` (Main Phase 1 in play). The first player does not draw in the first
    /// Draw Phase.
    pub(crate) fn open(&mut self, opening_hand: usize, stop_at: Phase) {
        for p in [Player::You, Player::Opponent] {
            self.draw(p, opening_hand, None);
        }
        self.journal = Journal::default();
        for phase in [Phase::Draw, Phase::Standby, Phase::Main1] {
            self.enter(phase);
            if phase == stop_at {
                break;
            }
        }
        // Exodia in the opening hand wins at once.
        self.state_check();
    }
}

/// A monster placed by a [`Setup`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct MonsterSpec {
    code: Code,
    face: Face,
    position: Position,
    counters: u8,
}

/// A spell or trap placed by a [`Setup`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct SpellSpec {
    code: Code,
    face: Face,
    set_this_turn: bool,
    /// Index of the monster (in the order they were added) it is equipped to.
    equipped_to: Option<usize>,
}

/// An explicit starting position, for scenario tests and puzzles, said in one
/// expression:
///
/// ```
/// use duel_engine::{Setup, Phase};
/// let duel = Setup::new()
///     .hand([55144522])              // Pot of Greed
///     .deck([27125110, 27125110])    // top first
///     .monster(70791313).counters(2) // Royal Magical Library with 2 counters
///     .set_monster(26202165)         // Sangan, face-down Defense
///     .equip(41587307, 0)            // Broken Bamboo Sword on the first monster
///     .opponent_graveyard([27125110])
///     .build()
///     .expect("a valid position");
/// assert_eq!(duel.phase(), Phase::Main1);
/// ```
///
/// Unchecked input: [`Setup::build`] turns it into a duel or says why it cannot.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Setup {
    seed: u64,
    settings: Settings,
    hand: Vec<Code>,
    deck: Vec<Code>,
    graveyard: Vec<Code>,
    banished: Vec<Code>,
    extra: Vec<Code>,
    monsters: Vec<MonsterSpec>,
    spells: Vec<SpellSpec>,
    opponent_graveyard: Vec<Code>,
    opponent_banished: Vec<Code>,
    lp: Option<[u32; 2]>,
    opponent: Option<(usize, usize)>,
    phase: Option<Phase>,
}

impl Setup {
    /// An empty position in Main Phase 1: 8000 LP each, the opponent with 5 cards in
    /// hand and 35 in the deck.
    pub fn new() -> Setup {
        Setup::default()
    }

    pub fn seed(mut self, seed: u64) -> Setup {
        self.seed = seed;
        self
    }

    pub fn settings(mut self, settings: Settings) -> Setup {
        self.settings = settings;
        self
    }

    /// Cards in your hand.
    pub fn hand(mut self, codes: impl IntoIterator<Item = Code>) -> Setup {
        self.hand.extend(codes);
        self
    }

    /// Your deck, top card first.
    pub fn deck(mut self, codes: impl IntoIterator<Item = Code>) -> Setup {
        self.deck.extend(codes);
        self
    }

    pub fn graveyard(mut self, codes: impl IntoIterator<Item = Code>) -> Setup {
        self.graveyard.extend(codes);
        self
    }

    /// Your face-up banished cards.
    pub fn banished(mut self, codes: impl IntoIterator<Item = Code>) -> Setup {
        self.banished.extend(codes);
        self
    }

    pub fn extra(mut self, codes: impl IntoIterator<Item = Code>) -> Setup {
        self.extra.extend(codes);
        self
    }

    fn push_monster(mut self, code: Code, face: Face, position: Position) -> Setup {
        self.monsters.push(MonsterSpec {
            code,
            face,
            position,
            counters: 0,
        });
        self
    }

    /// A face-up Attack Position monster you control (summoned before this turn).
    pub fn monster(self, code: Code) -> Setup {
        self.push_monster(code, Face::Up, Position::Attack)
    }

    /// A face-up Defense Position monster you control.
    pub fn defense_monster(self, code: Code) -> Setup {
        self.push_monster(code, Face::Up, Position::Defense)
    }

    /// A face-down Defense Position monster you control.
    pub fn set_monster(self, code: Code) -> Setup {
        self.push_monster(code, Face::Down, Position::Defense)
    }

    /// Counters on the monster added last.
    pub fn counters(mut self, n: u8) -> Setup {
        if let Some(m) = self.monsters.last_mut() {
            m.counters = n;
        }
        self
    }

    fn push_spell(mut self, code: Code, face: Face, set_this_turn: bool) -> Setup {
        self.spells.push(SpellSpec {
            code,
            face,
            set_this_turn,
            equipped_to: None,
        });
        self
    }

    /// A face-down spell or trap Set before this turn.
    pub fn set_spell(self, code: Code) -> Setup {
        self.push_spell(code, Face::Down, false)
    }

    /// A face-down spell or trap Set this turn (a Quick-Play Spell or Trap Set this turn
    /// cannot be activated).
    pub fn set_spell_this_turn(self, code: Code) -> Setup {
        self.push_spell(code, Face::Down, true)
    }

    /// A face-up spell on the field (a Field Spell goes to the Field Zone).
    pub fn face_up_spell(self, code: Code) -> Setup {
        self.push_spell(code, Face::Up, false)
    }

    /// A face-up Equip Spell equipped to the `monster`-th monster added (from 0).
    pub fn equip(mut self, code: Code, monster: usize) -> Setup {
        self.spells.push(SpellSpec {
            code,
            face: Face::Up,
            set_this_turn: false,
            equipped_to: Some(monster),
        });
        self
    }

    pub fn opponent_graveyard(mut self, codes: impl IntoIterator<Item = Code>) -> Setup {
        self.opponent_graveyard.extend(codes);
        self
    }

    pub fn opponent_banished(mut self, codes: impl IntoIterator<Item = Code>) -> Setup {
        self.opponent_banished.extend(codes);
        self
    }

    pub fn lp(mut self, you: u32, opponent: u32) -> Setup {
        self.lp = Some([you, opponent]);
        self
    }

    /// How many (vanilla) cards the opponent has in hand and in the deck.
    pub fn opponent_cards(mut self, hand: usize, deck: usize) -> Setup {
        self.opponent = Some((hand, deck));
        self
    }

    /// The phase the duel stops in (default: Main Phase 1).
    pub fn phase(mut self, phase: Phase) -> Setup {
        self.phase = Some(phase);
        self
    }

    /// A duel in the chosen phase with exactly these cards.
    pub fn build(self) -> Result<Duel, SetupError> {
        let mut placed = Vec::new();
        let mut add = |codes: &[Code], owner: Player, loc: Location, face: Face| {
            for &c in codes {
                placed.push(Placement::new(c, owner, loc, face));
            }
        };
        add(&self.hand, Player::You, Location::Hand, Face::Up);
        add(&self.deck, Player::You, Location::Deck, Face::Down);
        add(&self.graveyard, Player::You, Location::Graveyard, Face::Up);
        add(&self.banished, Player::You, Location::Banished, Face::Up);
        add(&self.extra, Player::You, Location::ExtraDeck, Face::Down);
        add(
            &self.opponent_graveyard,
            Player::Opponent,
            Location::Graveyard,
            Face::Up,
        );
        add(
            &self.opponent_banished,
            Player::Opponent,
            Location::Banished,
            Face::Up,
        );
        let first_monster = placed.len();
        for m in &self.monsters {
            placed.push(Placement {
                position: Some(m.position),
                ..Placement::new(m.code, Player::You, Location::MainMonsterZone(0), m.face)
            });
        }
        let first_spell = placed.len();
        for s in &self.spells {
            placed.push(Placement::new(
                s.code,
                Player::You,
                Location::SpellTrapZone(0),
                s.face,
            ));
        }
        if self.monsters.len() > ZONE_SLOTS {
            return Err(SetupError::ZoneFull);
        }
        let (opp_hand, opp_deck) = self.opponent.unwrap_or((5, 35));
        let filler = opponent_deck();
        for i in 0..opp_hand + opp_deck {
            let code = filler[i % filler.len()];
            let loc = if i < opp_hand {
                Location::Hand
            } else {
                Location::Deck
            };
            placed.push(Placement::new(code, Player::Opponent, loc, Face::Down));
        }
        let (mut duel, ids) = Duel::assemble(
            "custom".to_string(),
            self.seed,
            self.settings,
            &placed,
            self.lp.unwrap_or([STARTING_LP; 2]),
            false,
        )?;
        for (i, m) in self.monsters.iter().enumerate() {
            duel.cards[ids[first_monster + i].index()].counters = m.counters;
        }
        for (i, s) in self.spells.iter().enumerate() {
            let id = ids[first_spell + i];
            duel.cards[id.index()].placed_this_turn = s.set_this_turn;
            if let Some(m) = s.equipped_to {
                let target = self
                    .monsters
                    .get(m)
                    .filter(|spec| spec.face == Face::Up)
                    .map(|_| ids[first_monster + m])
                    .ok_or(SetupError::NoSuchMonster(m))?;
                duel.cards[id.index()].equipped_to = Some(target);
            }
        }
        duel.open(0, self.phase.unwrap_or(Phase::Main1));
        Ok(duel)
    }
}
