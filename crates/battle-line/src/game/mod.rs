//! The game state, the command set, and the rules that accept or refuse each command.

use crate::card::{Card, Tactic, TacticKind, Troop, TroopSet};
use crate::error::{ClaimRefusal, ReplayError, RuleError};
use crate::formation::{Judging, Strength, best_formation};
use seeded_rng::Rng;
use serde::{Deserialize, Serialize};

/// Number of flags between the players.
pub const FLAGS: u8 = 9;
/// Cards in a full hand.
pub const HAND_SIZE: usize = 7;
/// Every card of the game: 60 troops and 10 tactics.
pub const TOTAL_CARDS: usize = 70;

/// A seat at the table. `P0` moves first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Player {
    P0,
    P1,
}

impl Player {
    /// The other seat.
    pub fn opponent(self) -> Player {
        match self {
            Player::P0 => Player::P1,
            Player::P1 => Player::P0,
        }
    }

    /// 0 or 1, for indexing per-player arrays.
    pub fn index(self) -> usize {
        self as usize
    }

    /// Both seats.
    pub const BOTH: [Player; 2] = [Player::P0, Player::P1];
}

/// The two draw piles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Deck {
    Troop,
    Tactic,
}

/// When in a turn flags may be claimed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum ClaimTiming {
    /// Before playing a card (the common digital variant, and seed 001's).
    #[default]
    StartOfTurn,
    /// After playing a card, before drawing (the printed rule).
    AfterPlaying,
    /// Both before and after playing.
    Anytime,
}

/// Table options fixed when the game starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Settings {
    #[serde(default)]
    pub claim_timing: ClaimTiming,
}

/// How the game was won.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Victory {
    /// Three adjacent flags.
    Breakthrough,
    /// Any five flags.
    Envelopment,
}

/// Where a card from hand is played.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Target {
    /// Your troop slot (troops, morale tactics) or tactic slot (Fog, Mud) at a flag.
    Flag { flag: u8 },
    /// The guile area beside you (Scout, Redeploy, Deserter, Traitor).
    Field,
}

/// Where Redeploy sends a card.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Destination {
    Flag { flag: u8 },
    Discard,
}

/// Everything a player can do. Commands act for the player whose turn it is,
/// except `SortHand`, which names its player and is always allowed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Command {
    /// Claim a flag (with proof); see [`ClaimTiming`].
    ClaimFlag { flag: u8 },
    /// Play a card from hand.
    PlayCard { card: Card, target: Target },
    /// Seed 001: move a card played this turn to the same kind of slot at another flag.
    MoveCard { card: Card, flag: u8 },
    /// Redeploy: move one of your cards to another flag, or discard it.
    ResolveRedeploy { card: Card, to: Destination },
    /// Deserter: discard one of the opponent's cards.
    ResolveDeserter { card: Card },
    /// Traitor: take one of the opponent's troops to your side of `flag`.
    ResolveTraitor { card: Troop, flag: u8 },
    /// Scout: draw one of the three cards.
    ScoutDraw { deck: Deck },
    /// Scout: put a card from hand back on top of its deck.
    ScoutReturn { card: Card },
    /// Play nothing (only when no troop card can be played).
    Pass,
    /// Draw a card and end the turn.
    DrawAndEndTurn { deck: Deck },
    /// End the turn without drawing (after Scout or a pass, or when both decks are empty).
    EndTurn,
    /// Put a hand in order (troops by colour and value, then tactics).
    SortHand { player: Player },
}

/// The step of the turn the current player is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    /// Claim (at the start of the turn) and play one card, or pass.
    Play,
    /// A guile tactic was played; its one operation is pending.
    Guile { tactic: Tactic },
    /// Scout: `drawn` of the 3 cards drawn so far.
    ScoutDraw { drawn: u8 },
    /// Scout: `left` cards still to put back.
    ScoutReturn { left: u8 },
    /// The card is played: move this turn's card, claim (after playing), then draw and end.
    Finish { may_draw: bool },
    /// The game is won.
    GameOver { winner: Player, by: Victory },
    /// Neither player can ever act again (both passed in turn with no play and no
    /// claim possible): the game is drawn.
    Stalemate,
}

/// One flag and the cards at it.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Flag {
    /// P0's troop and morale cards, in the order played.
    pub p0_slots: Vec<Card>,
    /// P1's troop and morale cards.
    pub p1_slots: Vec<Card>,
    /// Fog/Mud played by P0 at this flag.
    pub p0_tactic: Vec<Tactic>,
    /// Fog/Mud played by P1 at this flag.
    pub p1_tactic: Vec<Tactic>,
    /// Who claimed it.
    pub owner: Option<Player>,
    /// When each side became complete (a game-wide counter); ties go to the smaller.
    pub completed_at: [Option<u32>; 2],
}

impl Flag {
    /// A player's troop slots.
    pub fn slots(&self, p: Player) -> &[Card] {
        match p {
            Player::P0 => &self.p0_slots,
            Player::P1 => &self.p1_slots,
        }
    }

    fn slots_mut(&mut self, p: Player) -> &mut Vec<Card> {
        match p {
            Player::P0 => &mut self.p0_slots,
            Player::P1 => &mut self.p1_slots,
        }
    }

    /// A player's tactic slot (Fog, Mud).
    pub fn tactic(&self, p: Player) -> &[Tactic] {
        match p {
            Player::P0 => &self.p0_tactic,
            Player::P1 => &self.p1_tactic,
        }
    }

    fn tactic_mut(&mut self, p: Player) -> &mut Vec<Tactic> {
        match p {
            Player::P0 => &mut self.p0_tactic,
            Player::P1 => &mut self.p1_tactic,
        }
    }

    /// Whether an environment tactic lies at this flag (on either side).
    pub fn has(&self, t: Tactic) -> bool {
        self.p0_tactic.contains(&t) || self.p1_tactic.contains(&t)
    }

    /// How this flag is judged now.
    pub fn judging(&self) -> Judging {
        Judging {
            cards: self.capacity(),
            fog: self.has(Tactic::Fog),
        }
    }

    /// Cards a side needs (and may hold): 3, or 4 with Mud.
    pub fn capacity(&self) -> usize {
        if self.has(Tactic::Mud) { 4 } else { 3 }
    }

    /// Whether a player may add a troop or morale card here.
    pub fn open_for(&self, p: Player) -> bool {
        self.owner.is_none() && self.slots(p).len() < self.capacity()
    }
}

/// What happened, for animations and logs. Drawn cards are not named, so events may be
/// shown to both players.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Event {
    FlagClaimed {
        player: Player,
        flag: u8,
    },
    CardPlayed {
        player: Player,
        card: Card,
        target: Target,
    },
    CardMoved {
        player: Player,
        card: Card,
        from: u8,
        to: u8,
    },
    CardDiscarded {
        card: Card,
        from: u8,
    },
    CardDrawn {
        player: Player,
        deck: Deck,
    },
    CardReturned {
        player: Player,
        deck: Deck,
    },
    Passed {
        player: Player,
    },
    HandSorted {
        player: Player,
    },
    TurnEnded {
        next: Player,
    },
    GameWon {
        player: Player,
        by: Victory,
    },
    Stalemate,
}

/// What the current player is asked to do (the UI's guide line).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Prompt {
    PlayCard,
    Redeploy,
    Deserter,
    Traitor,
    ScoutDraw { left: u8 },
    ScoutReturn { left: u8 },
    DrawCard,
    EndTurn,
    GameOver { winner: Player },
    Stalemate,
}

impl std::fmt::Display for Prompt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Prompt::PlayCard => f.write_str("Play a card from your hand (or claim a flag)"),
            Prompt::Redeploy => f.write_str("REDEPLOY: Select your card to move or discard"),
            Prompt::Deserter => f.write_str("DESERTER: Select an opponent's card to discard"),
            Prompt::Traitor => f.write_str("TRAITOR: Select an opponent's troop to take"),
            Prompt::ScoutDraw { left } => {
                write!(f, "SCOUT: Draw {left} more card(s) from either deck")
            }
            Prompt::ScoutReturn { left } => {
                write!(
                    f,
                    "SCOUT: Return {left} card(s) from your hand to the top of their decks"
                )
            }
            Prompt::DrawCard => f.write_str("Draw a card to end your turn"),
            Prompt::EndTurn => f.write_str("End your turn"),
            Prompt::GameOver { winner } => write!(f, "{winner:?} wins"),
            Prompt::Stalemate => {
                f.write_str("Stalemate: neither player can act, the game is drawn")
            }
        }
    }
}

/// A chosen deck order (instead of a shuffle), for tutorials, puzzles and tests.
/// The last element of each deck is its top card; hands are dealt from the troop
/// deck's top, alternating P0, P1.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Deal {
    pub troops: Vec<Troop>,
    pub tactics: Vec<Tactic>,
}

/// Why a [`Deal`] is not a valid pair of decks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum DealError {
    /// The troop deck must hold each of the 60 troops exactly once.
    TroopsNotComplete,
    /// The tactic deck must hold each of the 10 tactics exactly once.
    TacticsNotComplete,
}

impl std::fmt::Display for DealError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            DealError::TroopsNotComplete => {
                "the troop deck must hold each of the 60 troops exactly once"
            }
            DealError::TacticsNotComplete => {
                "the tactic deck must hold each of the 10 tactics exactly once"
            }
        })
    }
}

impl std::error::Error for DealError {}

impl Deal {
    fn check(&self) -> Result<(), DealError> {
        let mut troops = self.troops.clone();
        troops.sort();
        if troops != Troop::all().collect::<Vec<_>>() {
            return Err(DealError::TroopsNotComplete);
        }
        let mut tactics = self.tactics.clone();
        tactics.sort();
        if tactics != Tactic::ALL.to_vec() {
            return Err(DealError::TacticsNotComplete);
        }
        Ok(())
    }
}

/// What a save needs: the game is rebuilt by replaying the log from the seed (or the
/// chosen deal).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    pub seed: u64,
    #[serde(default)]
    pub settings: Settings,
    #[serde(default)]
    pub deal: Option<Deal>,
    #[serde(default)]
    pub log: Vec<Command>,
}

/// A game of Battle Line. Serializes the whole table (for debugging and the page's
/// state dumps); deserializing replays `seed` + `log`, so a tampered save cannot
/// produce an impossible position.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "GameRecord")]
pub struct Game {
    seed: u64,
    settings: Settings,
    /// Set when the decks were chosen rather than shuffled (kept for replays).
    deal: Option<Deal>,
    troop_deck: Vec<Troop>,
    tactic_deck: Vec<Tactic>,
    hands: [Vec<Card>; 2],
    flags: [Flag; 9],
    /// The guile tactics each player has played.
    field: [Vec<Tactic>; 2],
    troop_discard: Vec<Troop>,
    tactic_discard: Vec<Tactic>,
    current: Player,
    phase: Phase,
    #[serde(rename = "cardsPlayedThisTurn")]
    cards_played_this_turn: Vec<Card>,
    #[serde(rename = "activeGuileTactic")]
    active_guile_tactic: Option<Tactic>,
    tactics_played: [u8; 2],
    leader_played: [bool; 2],
    tick: u32,
    /// Consecutive passes by players who had nothing else they could do.
    stuck_passes: u8,
    log: Vec<Command>,
}

impl TryFrom<GameRecord> for Game {
    type Error = ReplayError;
    fn try_from(r: GameRecord) -> Result<Game, ReplayError> {
        Game::replay(&r)
    }
}

fn flag_index(flag: u8) -> Result<usize, RuleError> {
    if flag < FLAGS {
        Ok(usize::from(flag))
    } else {
        Err(RuleError::NoSuchFlag { flag })
    }
}

/// Where a card sits on the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Spot {
    Slot { flag: usize, owner: Player },
    TacticSlot { flag: usize, owner: Player },
    Field { owner: Player },
}

impl Game {
    /// A new game: both decks shuffled from `seed`, 7 troops dealt to each player.
    pub fn new(seed: u64, settings: Settings) -> Game {
        let mut rng = Rng::new(seed);
        let mut troop_deck: Vec<Troop> = Troop::all().collect();
        let mut tactic_deck: Vec<Tactic> = Tactic::ALL.to_vec();
        rng.shuffle(&mut troop_deck);
        rng.shuffle(&mut tactic_deck);
        Game::deal_from(seed, settings, None, troop_deck, tactic_deck)
    }

    /// A game with the decks in the given order instead of shuffled.
    pub fn with_deal(settings: Settings, deal: Deal) -> Result<Game, DealError> {
        deal.check()?;
        let (troops, tactics) = (deal.troops.clone(), deal.tactics.clone());
        Ok(Game::deal_from(0, settings, Some(deal), troops, tactics))
    }

    fn deal_from(
        seed: u64,
        settings: Settings,
        deal: Option<Deal>,
        mut troop_deck: Vec<Troop>,
        tactic_deck: Vec<Tactic>,
    ) -> Game {
        let mut hands: [Vec<Card>; 2] = [Vec::new(), Vec::new()];
        for _ in 0..HAND_SIZE {
            for hand in hands.iter_mut() {
                if let Some(t) = troop_deck.pop() {
                    hand.push(Card::Troop(t));
                }
            }
        }
        Game {
            seed,
            settings,
            deal,
            troop_deck,
            tactic_deck,
            hands,
            flags: Default::default(),
            field: [Vec::new(), Vec::new()],
            troop_discard: Vec::new(),
            tactic_discard: Vec::new(),
            current: Player::P0,
            phase: Phase::Play,
            cards_played_this_turn: Vec::new(),
            active_guile_tactic: None,
            tactics_played: [0, 0],
            leader_played: [false, false],
            tick: 0,
            stuck_passes: 0,
            log: Vec::new(),
        }
    }

    /// Rebuilds a game from its seed and command log.
    pub fn replay(record: &GameRecord) -> Result<Game, ReplayError> {
        let mut g = match &record.deal {
            None => Game::new(record.seed, record.settings),
            Some(deal) => {
                Game::with_deal(record.settings, deal.clone()).map_err(ReplayError::BadDeal)?
            }
        };
        for (index, cmd) in record.log.iter().enumerate() {
            g.apply(*cmd)
                .map_err(|error| ReplayError::Refused { index, error })?;
        }
        Ok(g)
    }

    /// The seed, settings and log: enough to rebuild this game.
    pub fn record(&self) -> GameRecord {
        GameRecord {
            seed: self.seed,
            settings: self.settings,
            deal: self.deal.clone(),
            log: self.log.clone(),
        }
    }

    /// The game as it was before the last command (replay minus the last command).
    pub fn undo(&self) -> Result<Game, ReplayError> {
        let mut record = self.record();
        if record.log.pop().is_none() {
            return Err(ReplayError::NothingToUndo);
        }
        Game::replay(&record)
    }

    /// This game as `viewer` may know it: the other hand, both decks, the log, the
    /// seed and any chosen deal are emptied. The computer player builds its guesses
    /// about the hidden cards on this, so nothing hidden can reach its search.
    pub(crate) fn public_skeleton(&self, viewer: Player) -> Game {
        let mut g = Game {
            seed: 0,
            deal: None,
            troop_deck: Vec::new(),
            tactic_deck: Vec::new(),
            log: Vec::new(),
            hands: [Vec::new(), Vec::new()],
            ..self.clone()
        };
        g.hands[viewer.index()] = self.hands[viewer.index()].clone();
        g
    }

    /// The decks in order (last = top), for tests of what may be known about them.
    #[cfg(test)]
    pub(crate) fn decks(&self) -> (&[Troop], &[Tactic]) {
        (&self.troop_deck, &self.tactic_deck)
    }

    /// Fills a skeleton's hidden places: `other`'s hand and the two decks (last = top).
    pub(crate) fn fill_hidden(
        &mut self,
        other: Player,
        hand: Vec<Card>,
        troop_deck: Vec<Troop>,
        tactic_deck: Vec<Tactic>,
    ) {
        self.hands[other.index()] = hand;
        self.troop_deck = troop_deck;
        self.tactic_deck = tactic_deck;
    }

    // ----- read access -----

    pub fn seed(&self) -> u64 {
        self.seed
    }
    pub fn settings(&self) -> Settings {
        self.settings
    }
    /// Whose turn it is.
    pub fn current(&self) -> Player {
        self.current
    }
    pub fn phase(&self) -> Phase {
        self.phase
    }
    pub fn flags(&self) -> &[Flag; 9] {
        &self.flags
    }
    /// A player's hand. The page must only show it to that player (see [`Game::view`]).
    pub fn hand(&self, p: Player) -> &[Card] {
        &self.hands[p.index()]
    }
    /// The guile tactics a player has played.
    pub fn field(&self, p: Player) -> &[Tactic] {
        &self.field[p.index()]
    }
    pub fn troop_discard(&self) -> &[Troop] {
        &self.troop_discard
    }
    pub fn tactic_discard(&self) -> &[Tactic] {
        &self.tactic_discard
    }
    pub fn troop_deck_len(&self) -> usize {
        self.troop_deck.len()
    }
    pub fn tactic_deck_len(&self) -> usize {
        self.tactic_deck.len()
    }
    pub fn cards_played_this_turn(&self) -> &[Card] {
        &self.cards_played_this_turn
    }
    pub fn active_guile_tactic(&self) -> Option<Tactic> {
        self.active_guile_tactic
    }
    /// Tactics (of any kind) a player has played.
    pub fn tactics_played(&self, p: Player) -> u8 {
        self.tactics_played[p.index()]
    }
    /// Whether a player has played a leader (Alexander or Darius); a second is refused.
    pub fn leader_played(&self, p: Player) -> bool {
        self.leader_played[p.index()]
    }
    pub fn log(&self) -> &[Command] {
        &self.log
    }
    /// Whether the game has ended (won or stalemate).
    pub fn is_over(&self) -> bool {
        matches!(self.phase, Phase::GameOver { .. } | Phase::Stalemate)
    }

    pub fn winner(&self) -> Option<Player> {
        match self.phase {
            Phase::GameOver { winner, .. } => Some(winner),
            _ => None,
        }
    }

    /// Every card in every place; always [`TOTAL_CARDS`].
    pub fn card_count(&self) -> usize {
        self.troop_deck.len()
            + self.tactic_deck.len()
            + self.hands.iter().map(Vec::len).sum::<usize>()
            + self
                .flags
                .iter()
                .map(|f| {
                    f.p0_slots.len() + f.p1_slots.len() + f.p0_tactic.len() + f.p1_tactic.len()
                })
                .sum::<usize>()
            + self.field.iter().map(Vec::len).sum::<usize>()
            + self.troop_discard.len()
            + self.tactic_discard.len()
    }

    /// Troops not yet on the table: both decks and both hands. These are the cards
    /// a claim proof must hold against.
    pub fn unplayed_troops(&self) -> TroopSet {
        self.troop_deck
            .iter()
            .copied()
            .chain(self.hands.iter().flatten().filter_map(|c| c.troop()))
            .collect()
    }

    /// Troops `viewer` cannot see: the troop deck and the opponent's hand.
    pub fn unseen_troops(&self, viewer: Player) -> TroopSet {
        self.troop_deck
            .iter()
            .copied()
            .chain(
                self.hands[viewer.opponent().index()]
                    .iter()
                    .filter_map(|c| c.troop()),
            )
            .collect()
    }

    /// What the current player is asked to do.
    pub fn prompt(&self) -> Prompt {
        match self.phase {
            Phase::Play => Prompt::PlayCard,
            Phase::Guile {
                tactic: Tactic::Redeploy,
            } => Prompt::Redeploy,
            Phase::Guile {
                tactic: Tactic::Deserter,
            } => Prompt::Deserter,
            Phase::Guile { .. } => Prompt::Traitor,
            Phase::ScoutDraw { drawn } => Prompt::ScoutDraw {
                left: 3u8.saturating_sub(drawn),
            },
            Phase::ScoutReturn { left } => Prompt::ScoutReturn { left },
            Phase::Finish { may_draw } => {
                if may_draw && self.any_deck() {
                    Prompt::DrawCard
                } else {
                    Prompt::EndTurn
                }
            }
            Phase::GameOver { winner, .. } => Prompt::GameOver { winner },
            Phase::Stalemate => Prompt::Stalemate,
        }
    }

    fn any_deck(&self) -> bool {
        !self.troop_deck.is_empty() || !self.tactic_deck.is_empty()
    }

    fn deck_len(&self, deck: Deck) -> usize {
        match deck {
            Deck::Troop => self.troop_deck.len(),
            Deck::Tactic => self.tactic_deck.len(),
        }
    }

    fn locate(&self, card: Card) -> Option<Spot> {
        for (i, f) in self.flags.iter().enumerate() {
            for p in Player::BOTH {
                if f.slots(p).contains(&card) {
                    return Some(Spot::Slot { flag: i, owner: p });
                }
                if let Card::Tactic(t) = card
                    && f.tactic(p).contains(&t)
                {
                    return Some(Spot::TacticSlot { flag: i, owner: p });
                }
            }
        }
        if let Card::Tactic(t) = card {
            for p in Player::BOTH {
                if self.field[p.index()].contains(&t) {
                    return Some(Spot::Field { owner: p });
                }
            }
        }
        None
    }

    // ----- claims -----

    /// Whether `player` may claim `flag` now as far as the cards go (not checking
    /// whose turn it is). On success, the claimant's formation strength.
    pub fn check_claim(&self, flag: u8, player: Player) -> Result<Strength, ClaimRefusal> {
        let Ok(i) = flag_index(flag) else {
            return Err(ClaimRefusal::Incomplete);
        };
        let f = &self.flags[i];
        let rules = f.judging();
        let mine_cards = f.slots(player);
        if mine_cards.len() < rules.cards {
            return Err(ClaimRefusal::Incomplete);
        }
        let mine = best_formation(mine_cards, rules, TroopSet::EMPTY)
            .ok_or(ClaimRefusal::Incomplete)?
            .strength;
        let opp = player.opponent();
        let theirs_cards = f.slots(opp);
        if theirs_cards.len() >= rules.cards {
            let Some(theirs) =
                best_formation(theirs_cards, rules, TroopSet::EMPTY).map(|c| c.strength)
            else {
                return Ok(mine);
            };
            return if mine > theirs {
                Ok(mine)
            } else if mine < theirs {
                Err(ClaimRefusal::OpponentStronger { mine, theirs })
            } else {
                let me_at = f.completed_at[player.index()].unwrap_or(u32::MAX);
                let them_at = f.completed_at[opp.index()].unwrap_or(u32::MAX);
                if me_at < them_at {
                    Ok(mine)
                } else {
                    Err(ClaimRefusal::TieCompletedLater { strength: mine })
                }
            };
        }
        // The opponent is incomplete: they would complete later, so only a strictly
        // stronger completion beats us.
        match best_formation(theirs_cards, rules, self.unplayed_troops()) {
            Some(c) if c.strength > mine => Err(ClaimRefusal::OpponentCanBeat {
                mine,
                theirs: c.strength,
                cards: c.added,
            }),
            _ => Ok(mine),
        }
    }

    /// Unclaimed flags `player` could prove now (ignoring turn and timing).
    pub fn provable_flags(&self, player: Player) -> Vec<u8> {
        (0..FLAGS)
            .filter(|&f| {
                self.flags[usize::from(f)].owner.is_none() && self.check_claim(f, player).is_ok()
            })
            .collect()
    }

    /// Whether the claim timing lets the current player claim at this step of the turn
    /// (whether a given flag is provable is [`Game::check_claim`]). The page uses it to
    /// offer claim attempts that the engine may then refuse with a counterexample.
    pub fn claim_allowed_now(&self) -> bool {
        matches!(
            (self.settings.claim_timing, self.phase),
            (ClaimTiming::StartOfTurn, Phase::Play)
                | (ClaimTiming::AfterPlaying, Phase::Finish { .. })
                | (ClaimTiming::Anytime, Phase::Play | Phase::Finish { .. })
        )
    }

    fn victory(&self, p: Player) -> Option<Victory> {
        let owned: Vec<bool> = self.flags.iter().map(|f| f.owner == Some(p)).collect();
        if owned.windows(3).any(|w| w.iter().all(|o| *o)) {
            Some(Victory::Breakthrough)
        } else if owned.iter().filter(|o| **o).count() >= 5 {
            Some(Victory::Envelopment)
        } else {
            None
        }
    }

    // ----- commands -----

    /// Applies a command for the current player. A refused command changes nothing.
    pub fn apply(&mut self, cmd: Command) -> Result<Vec<Event>, RuleError> {
        let events = self.step(cmd)?;
        self.log.push(cmd);
        Ok(events)
    }

    /// Every command only validates before it mutates, so an `Err` leaves `self` as it was.
    fn step(&mut self, cmd: Command) -> Result<Vec<Event>, RuleError> {
        if let Command::SortHand { player } = cmd {
            self.hands[player.index()].sort();
            return Ok(vec![Event::HandSorted { player }]);
        }
        if self.is_over() {
            return Err(RuleError::GameOver);
        }
        match cmd {
            Command::SortHand { .. } => Ok(Vec::new()),
            Command::ClaimFlag { flag } => self.claim(flag),
            Command::PlayCard { card, target } => self.play(card, target),
            Command::MoveCard { card, flag } => self.move_card(card, flag),
            Command::ResolveRedeploy { card, to } => self.redeploy(card, to),
            Command::ResolveDeserter { card } => self.desert(card),
            Command::ResolveTraitor { card, flag } => self.betray(card, flag),
            Command::ScoutDraw { deck } => self.scout_draw(deck),
            Command::ScoutReturn { card } => self.scout_return(card),
            Command::Pass => self.pass(),
            Command::DrawAndEndTurn { deck } => self.draw_and_end(deck),
            Command::EndTurn => self.end_turn_command(),
        }
    }

    fn wrong_phase(&self) -> RuleError {
        RuleError::WrongPhase { phase: self.phase }
    }

    fn claim(&mut self, flag: u8) -> Result<Vec<Event>, RuleError> {
        let i = flag_index(flag)?;
        if !self.claim_allowed_now() {
            return Err(match self.phase {
                Phase::Play | Phase::Finish { .. } => RuleError::ClaimTiming {
                    timing: self.settings.claim_timing,
                },
                _ => self.wrong_phase(),
            });
        }
        if self.flags[i].owner.is_some() {
            return Err(RuleError::FlagClaimed { flag });
        }
        let me = self.current;
        self.check_claim(flag, me)
            .map_err(|reason| RuleError::ClaimRefused { flag, reason })?;
        self.flags[i].owner = Some(me);
        self.stuck_passes = 0;
        let mut events = vec![Event::FlagClaimed { player: me, flag }];
        if let Some(by) = self.victory(me) {
            self.phase = Phase::GameOver { winner: me, by };
            self.active_guile_tactic = None;
            events.push(Event::GameWon { player: me, by });
        }
        Ok(events)
    }

    fn open_flag(&self, flag: u8) -> Result<usize, RuleError> {
        let i = flag_index(flag)?;
        if self.flags[i].owner.is_some() {
            return Err(RuleError::FlagClaimed { flag });
        }
        Ok(i)
    }

    fn open_slot(&self, flag: u8, p: Player) -> Result<usize, RuleError> {
        let i = self.open_flag(flag)?;
        if !self.flags[i].open_for(p) {
            return Err(RuleError::SlotFull { flag });
        }
        Ok(i)
    }

    fn may_play_tactic(&self, t: Tactic) -> Result<(), RuleError> {
        let me = self.current.index();
        if self.tactics_played[me] > self.tactics_played[1 - me] {
            return Err(RuleError::TacticLimit);
        }
        if t.is_leader() && self.leader_played[me] {
            return Err(RuleError::SecondLeader);
        }
        Ok(())
    }

    fn play(&mut self, card: Card, target: Target) -> Result<Vec<Event>, RuleError> {
        if self.phase != Phase::Play {
            return Err(self.wrong_phase());
        }
        let me = self.current;
        let pos = self.hands[me.index()]
            .iter()
            .position(|c| *c == card)
            .ok_or(RuleError::NotInHand { card })?;
        if let Card::Tactic(t) = card {
            self.may_play_tactic(t)?;
        }
        enum Place {
            Slot(usize),
            TacticSlot(usize),
            Field(Tactic),
        }
        let place = match (card, target) {
            (c, Target::Flag { flag }) if c.fits_troop_slot() => {
                Place::Slot(self.open_slot(flag, me)?)
            }
            (Card::Tactic(t), Target::Flag { flag }) if t.kind() == TacticKind::Environment => {
                Place::TacticSlot(self.open_flag(flag)?)
            }
            (Card::Tactic(t), Target::Field) if t.kind() == TacticKind::Guile => {
                if !self.guile_has_target(t) {
                    return Err(RuleError::NoTarget { tactic: t });
                }
                Place::Field(t)
            }
            _ => return Err(RuleError::WrongPlace { card }),
        };
        // Validation done: mutate.
        self.stuck_passes = 0;
        self.hands[me.index()].remove(pos);
        self.cards_played_this_turn.push(card);
        if let Card::Tactic(t) = card {
            self.tactics_played[me.index()] += 1;
            if t.is_leader() {
                self.leader_played[me.index()] = true;
            }
        }
        match place {
            Place::Slot(i) => {
                self.flags[i].slots_mut(me).push(card);
                self.refresh(i);
                self.phase = Phase::Finish { may_draw: true };
            }
            Place::TacticSlot(i) => {
                if let Card::Tactic(t) = card {
                    self.flags[i].tactic_mut(me).push(t);
                }
                self.refresh(i);
                self.phase = Phase::Finish { may_draw: true };
            }
            Place::Field(t) => {
                self.field[me.index()].push(t);
                if t == Tactic::Scout {
                    self.phase = Phase::ScoutDraw { drawn: 0 };
                } else {
                    self.active_guile_tactic = Some(t);
                    self.phase = Phase::Guile { tactic: t };
                }
            }
        }
        Ok(vec![Event::CardPlayed {
            player: me,
            card,
            target,
        }])
    }

    /// Whether a guile tactic would have something to act on for the current player.
    fn guile_has_target(&self, t: Tactic) -> bool {
        let me = self.current;
        let opp = me.opponent();
        let open = |f: &&Flag| f.owner.is_none();
        match t {
            Tactic::Scout => self.any_deck(),
            Tactic::Redeploy => self
                .flags
                .iter()
                .filter(open)
                .any(|f| !f.slots(me).is_empty() || !f.tactic(me).is_empty()),
            Tactic::Deserter => self
                .flags
                .iter()
                .filter(open)
                .any(|f| !f.slots(opp).is_empty() || !f.tactic(opp).is_empty()),
            Tactic::Traitor => {
                self.flags
                    .iter()
                    .filter(open)
                    .any(|f| f.slots(opp).iter().any(|c| c.troop().is_some()))
                    && self.flags.iter().any(|f| f.open_for(me))
            }
            _ => false,
        }
    }

    /// Recomputes whether each side of flag `i` is complete. A side that just became
    /// complete gets the next tick; the player making the change is ticked last, so a
    /// side completed by the opponent's earlier play keeps its precedence.
    fn refresh(&mut self, i: usize) {
        let cap = self.flags[i].capacity();
        for p in [self.current.opponent(), self.current] {
            let complete = self.flags[i].slots(p).len() >= cap;
            let at = &mut self.flags[i].completed_at[p.index()];
            if !complete {
                *at = None;
            } else if at.is_none() {
                *at = Some(self.tick);
                self.tick += 1;
            }
        }
    }

    /// Removes a card from its flag spot (the caller has validated the spot).
    fn take_from(&mut self, spot: Spot, card: Card) {
        match (spot, card) {
            (Spot::Slot { flag, owner }, _) => {
                self.flags[flag].slots_mut(owner).retain(|c| *c != card)
            }
            (Spot::TacticSlot { flag, owner }, Card::Tactic(t)) => {
                self.flags[flag].tactic_mut(owner).retain(|x| *x != t)
            }
            _ => {}
        }
        if let Spot::Slot { flag, .. } | Spot::TacticSlot { flag, .. } = spot {
            self.refresh(flag);
        }
    }

    /// Puts a card at flag `i` on `owner`'s side, into the slot its kind uses.
    fn put_at(&mut self, i: usize, owner: Player, card: Card) {
        match card {
            Card::Tactic(t) if t.kind() == TacticKind::Environment => {
                self.flags[i].tactic_mut(owner).push(t)
            }
            _ => self.flags[i].slots_mut(owner).push(card),
        }
        self.refresh(i);
    }

    /// Checks that `card` may go to flag `flag` on `owner`'s side, coming from flag `from`.
    fn check_destination(
        &self,
        card: Card,
        flag: u8,
        from: usize,
        owner: Player,
    ) -> Result<usize, RuleError> {
        let i = flag_index(flag)?;
        if i == from {
            return Err(RuleError::SameFlag { flag });
        }
        if card.fits_troop_slot() {
            self.open_slot(flag, owner)
        } else {
            self.open_flag(flag)
        }
    }

    /// A card on `owner`'s side of an unclaimed flag: its spot and flag index.
    fn board_spot(&self, card: Card, owner: Player) -> Result<(Spot, usize), RuleError> {
        let spot = self.locate(card).ok_or(RuleError::NotOnBoard { card })?;
        let (flag, who) = match spot {
            Spot::Slot { flag, owner } | Spot::TacticSlot { flag, owner } => (flag, owner),
            Spot::Field { .. } => return Err(RuleError::NotOnBoard { card }),
        };
        if who != owner {
            return Err(if owner == self.current {
                RuleError::NotYourCard { card }
            } else {
                RuleError::NotOpponentsCard { card }
            });
        }
        if self.flags[flag].owner.is_some() {
            return Err(RuleError::FlagClaimed { flag: flag as u8 });
        }
        Ok((spot, flag))
    }

    fn move_card(&mut self, card: Card, flag: u8) -> Result<Vec<Event>, RuleError> {
        if !matches!(self.phase, Phase::Finish { .. }) {
            return Err(self.wrong_phase());
        }
        let me = self.current;
        let (spot, from) = self.board_spot(card, me)?;
        if !self.cards_played_this_turn.contains(&card) {
            return Err(RuleError::NotPlayedThisTurn { card });
        }
        let to = self.check_destination(card, flag, from, me)?;
        self.take_from(spot, card);
        self.put_at(to, me, card);
        Ok(vec![Event::CardMoved {
            player: me,
            card,
            from: from as u8,
            to: flag,
        }])
    }

    fn finish_guile(&mut self) {
        self.active_guile_tactic = None;
        self.phase = Phase::Finish { may_draw: true };
    }

    fn discard(&mut self, card: Card) {
        match card {
            Card::Troop(t) => self.troop_discard.push(t),
            Card::Tactic(t) => self.tactic_discard.push(t),
        }
    }

    fn redeploy(&mut self, card: Card, to: Destination) -> Result<Vec<Event>, RuleError> {
        if self.phase
            != (Phase::Guile {
                tactic: Tactic::Redeploy,
            })
        {
            return Err(self.wrong_phase());
        }
        let me = self.current;
        let (spot, from) = self.board_spot(card, me)?;
        let event = match to {
            Destination::Discard => {
                self.take_from(spot, card);
                self.discard(card);
                Event::CardDiscarded {
                    card,
                    from: from as u8,
                }
            }
            Destination::Flag { flag } => {
                let i = self.check_destination(card, flag, from, me)?;
                self.take_from(spot, card);
                self.put_at(i, me, card);
                Event::CardMoved {
                    player: me,
                    card,
                    from: from as u8,
                    to: flag,
                }
            }
        };
        self.finish_guile();
        Ok(vec![event])
    }

    fn desert(&mut self, card: Card) -> Result<Vec<Event>, RuleError> {
        if self.phase
            != (Phase::Guile {
                tactic: Tactic::Deserter,
            })
        {
            return Err(self.wrong_phase());
        }
        let (spot, from) = self.board_spot(card, self.current.opponent())?;
        self.take_from(spot, card);
        self.discard(card);
        self.finish_guile();
        Ok(vec![Event::CardDiscarded {
            card,
            from: from as u8,
        }])
    }

    fn betray(&mut self, troop: Troop, flag: u8) -> Result<Vec<Event>, RuleError> {
        if self.phase
            != (Phase::Guile {
                tactic: Tactic::Traitor,
            })
        {
            return Err(self.wrong_phase());
        }
        let me = self.current;
        let card = Card::Troop(troop);
        let (spot, from) = self.board_spot(card, me.opponent())?;
        // The stolen troop may return to the same flag, on the thief's side.
        let i = self.open_slot(flag, me)?;
        self.take_from(spot, card);
        self.put_at(i, me, card);
        self.finish_guile();
        Ok(vec![Event::CardMoved {
            player: me,
            card,
            from: from as u8,
            to: flag,
        }])
    }

    fn draw(&mut self, deck: Deck) -> Option<Card> {
        let me = self.current.index();
        let card = match deck {
            Deck::Troop => self.troop_deck.pop().map(Card::Troop),
            Deck::Tactic => self.tactic_deck.pop().map(Card::Tactic),
        }?;
        self.hands[me].push(card);
        Some(card)
    }

    fn scout_draw(&mut self, deck: Deck) -> Result<Vec<Event>, RuleError> {
        let Phase::ScoutDraw { drawn } = self.phase else {
            return Err(self.wrong_phase());
        };
        if self.draw(deck).is_none() {
            return Err(RuleError::DeckEmpty { deck });
        }
        let drawn = drawn + 1;
        // With d cards drawn, d-1 go back so the hand ends at its size before Scout.
        self.phase = if drawn >= 3 || !self.any_deck() {
            match drawn - 1 {
                0 => Phase::Finish { may_draw: false },
                left => Phase::ScoutReturn { left },
            }
        } else {
            Phase::ScoutDraw { drawn }
        };
        Ok(vec![Event::CardDrawn {
            player: self.current,
            deck,
        }])
    }

    fn scout_return(&mut self, card: Card) -> Result<Vec<Event>, RuleError> {
        let Phase::ScoutReturn { left } = self.phase else {
            return Err(self.wrong_phase());
        };
        let me = self.current;
        let pos = self.hands[me.index()]
            .iter()
            .position(|c| *c == card)
            .ok_or(RuleError::NotInHand { card })?;
        self.hands[me.index()].remove(pos);
        let deck = match card {
            Card::Troop(t) => {
                self.troop_deck.push(t);
                Deck::Troop
            }
            Card::Tactic(t) => {
                self.tactic_deck.push(t);
                Deck::Tactic
            }
        };
        self.phase = if left <= 1 {
            Phase::Finish { may_draw: false }
        } else {
            Phase::ScoutReturn { left: left - 1 }
        };
        Ok(vec![Event::CardReturned { player: me, deck }])
    }

    /// Whether the current player could play some troop card (the pass rule).
    pub fn troop_playable(&self) -> bool {
        let me = self.current;
        self.hands[me.index()]
            .iter()
            .any(|c| matches!(c, Card::Troop(_)))
            && self.flags.iter().any(|f| f.open_for(me))
    }

    fn pass(&mut self) -> Result<Vec<Event>, RuleError> {
        if self.phase != Phase::Play {
            return Err(self.wrong_phase());
        }
        if self.troop_playable() {
            return Err(RuleError::TroopPlayable);
        }
        let player = self.current;
        let stuck = self.provable_flags(player).is_empty()
            && self
                .legal_commands()
                .iter()
                .all(|c| matches!(c, Command::Pass | Command::SortHand { .. }));
        self.stuck_passes = if stuck {
            self.stuck_passes.saturating_add(1)
        } else {
            0
        };
        if self.stuck_passes >= 2 {
            // The position repeats forever: nothing the other player did since its own
            // stuck pass changed the table.
            self.phase = Phase::Stalemate;
            return Ok(vec![Event::Passed { player }, Event::Stalemate]);
        }
        self.phase = Phase::Finish { may_draw: false };
        Ok(vec![Event::Passed { player }])
    }

    fn draw_and_end(&mut self, deck: Deck) -> Result<Vec<Event>, RuleError> {
        if self.phase != (Phase::Finish { may_draw: true }) {
            return Err(self.wrong_phase());
        }
        if self.draw(deck).is_none() {
            return Err(RuleError::DeckEmpty { deck });
        }
        let player = self.current;
        let mut events = vec![Event::CardDrawn { player, deck }];
        events.push(self.end_turn());
        Ok(events)
    }

    fn end_turn_command(&mut self) -> Result<Vec<Event>, RuleError> {
        match self.phase {
            Phase::Finish { may_draw } if !may_draw || !self.any_deck() => {
                Ok(vec![self.end_turn()])
            }
            Phase::Finish { .. } => Err(RuleError::MustDraw),
            _ => Err(self.wrong_phase()),
        }
    }

    fn end_turn(&mut self) -> Event {
        self.cards_played_this_turn.clear();
        self.active_guile_tactic = None;
        self.current = self.current.opponent();
        self.phase = Phase::Play;
        Event::TurnEnded { next: self.current }
    }

    // ----- queries for the UI -----

    /// Every command the current player may issue now (claims only when provable).
    /// `SortHand` is listed for the current player only, though it is always accepted.
    pub fn legal_commands(&self) -> Vec<Command> {
        let mut out = Vec::new();
        if self.is_over() {
            return out;
        }
        let me = self.current;
        let opp = me.opponent();
        out.push(Command::SortHand { player: me });
        if self.claim_allowed_now() {
            out.extend(
                self.provable_flags(me)
                    .into_iter()
                    .map(|flag| Command::ClaimFlag { flag }),
            );
        }
        let open_flags: Vec<u8> = (0..FLAGS)
            .filter(|&f| self.flags[usize::from(f)].owner.is_none())
            .collect();
        let slot_flags: Vec<u8> = (0..FLAGS)
            .filter(|&f| self.flags[usize::from(f)].open_for(me))
            .collect();
        let decks = [Deck::Troop, Deck::Tactic];
        match self.phase {
            Phase::Play => {
                let mut hand = self.hands[me.index()].clone();
                hand.sort();
                hand.dedup();
                for card in hand {
                    if let Card::Tactic(t) = card
                        && self.may_play_tactic(t).is_err()
                    {
                        continue;
                    }
                    match card {
                        c if c.fits_troop_slot() => {
                            out.extend(slot_flags.iter().map(|&flag| Command::PlayCard {
                                card,
                                target: Target::Flag { flag },
                            }))
                        }
                        Card::Tactic(t) if t.kind() == TacticKind::Environment => {
                            out.extend(open_flags.iter().map(|&flag| Command::PlayCard {
                                card,
                                target: Target::Flag { flag },
                            }))
                        }
                        Card::Tactic(t) => {
                            if self.guile_has_target(t) {
                                out.push(Command::PlayCard {
                                    card,
                                    target: Target::Field,
                                });
                            }
                        }
                        Card::Troop(_) => {}
                    }
                }
                if !self.troop_playable() {
                    out.push(Command::Pass);
                }
            }
            Phase::Guile { tactic } => {
                let side = if tactic == Tactic::Redeploy { me } else { opp };
                for &flag in &open_flags {
                    let f = &self.flags[usize::from(flag)];
                    let cards: Vec<Card> = f
                        .slots(side)
                        .iter()
                        .copied()
                        .chain(f.tactic(side).iter().map(|t| Card::Tactic(*t)))
                        .collect();
                    for card in cards {
                        match tactic {
                            Tactic::Redeploy => {
                                out.push(Command::ResolveRedeploy {
                                    card,
                                    to: Destination::Discard,
                                });
                                let dests = if card.fits_troop_slot() {
                                    &slot_flags
                                } else {
                                    &open_flags
                                };
                                out.extend(dests.iter().filter(|&&d| d != flag).map(|&d| {
                                    Command::ResolveRedeploy {
                                        card,
                                        to: Destination::Flag { flag: d },
                                    }
                                }));
                            }
                            Tactic::Deserter => out.push(Command::ResolveDeserter { card }),
                            _ => {
                                if let Card::Troop(t) = card {
                                    out.extend(
                                        slot_flags
                                            .iter()
                                            .map(|&d| Command::ResolveTraitor { card: t, flag: d }),
                                    );
                                }
                            }
                        }
                    }
                }
            }
            Phase::ScoutDraw { .. } => {
                out.extend(
                    decks
                        .into_iter()
                        .filter(|d| self.deck_len(*d) > 0)
                        .map(|deck| Command::ScoutDraw { deck }),
                );
            }
            Phase::ScoutReturn { .. } => {
                out.extend(
                    self.hands[me.index()]
                        .iter()
                        .map(|&card| Command::ScoutReturn { card }),
                );
            }
            Phase::Finish { may_draw } => {
                for &card in &self.cards_played_this_turn {
                    let Ok((_, from)) = self.board_spot(card, me) else {
                        continue;
                    };
                    let dests = if card.fits_troop_slot() {
                        &slot_flags
                    } else {
                        &open_flags
                    };
                    out.extend(
                        dests
                            .iter()
                            .filter(|&&d| usize::from(d) != from)
                            .map(|&flag| Command::MoveCard { card, flag }),
                    );
                }
                if may_draw && self.any_deck() {
                    out.extend(
                        decks
                            .into_iter()
                            .filter(|d| self.deck_len(*d) > 0)
                            .map(|deck| Command::DrawAndEndTurn { deck }),
                    );
                } else {
                    out.push(Command::EndTurn);
                }
            }
            Phase::GameOver { .. } | Phase::Stalemate => {}
        }
        out
    }

    /// The legal commands that act on `card` (play it, move it, or target it): what
    /// the page highlights as valid targets once the card is selected.
    pub fn commands_for_card(&self, card: Card) -> Vec<Command> {
        self.legal_commands()
            .into_iter()
            .filter(|c| command_card(*c) == Some(card))
            .collect()
    }

    /// Cards the current player may select now. Cards played on earlier turns are not
    /// selectable unless a guile tactic targets them (seed 001).
    pub fn selectable_cards(&self) -> Vec<Card> {
        let mut cards: Vec<Card> = self
            .legal_commands()
            .into_iter()
            .filter_map(command_card)
            .collect();
        cards.sort();
        cards.dedup();
        cards
    }
}

/// The card a command acts on, if any.
pub fn command_card(cmd: Command) -> Option<Card> {
    match cmd {
        Command::PlayCard { card, .. }
        | Command::MoveCard { card, .. }
        | Command::ResolveRedeploy { card, .. }
        | Command::ResolveDeserter { card }
        | Command::ScoutReturn { card } => Some(card),
        Command::ResolveTraitor { card, .. } => Some(Card::Troop(card)),
        _ => None,
    }
}
