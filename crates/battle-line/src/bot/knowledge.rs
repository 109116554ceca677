//! What one seat knows about the hidden cards, and random deals of them consistent with that knowledge.
//!
//! A seat sees its own hand, the table, the discards and how many cards of each kind
//! the other hand and the decks hold. From the public moves it also knows which cards
//! it put back on top of a deck with Scout (and so which of them the other player
//! drew afterwards). Everything else (the other hand, the deck order, the cards the
//! other player put back) is unknown, and [`Knowledge::sample`] deals those cards at
//! random. Nothing here reads a hidden card: the game is reduced to its public
//! skeleton first, and the log is read with the other player's returned cards masked.

use crate::card::{Card, Tactic, Troop, TroopSet};
use crate::game::{Command, Deck, Game, Player};
use seeded_rng::Rng;

/// One seat's knowledge of a game.
#[derive(Debug, Clone)]
pub(crate) struct Knowledge {
    pub me: Player,
    /// The game with every hidden place empty.
    pub skeleton: Game,
    other_troops: usize,
    other_tactics: usize,
    troop_deck: usize,
    tactic_deck: usize,
    /// Cards put back on top of each deck and not drawn since, bottom first: `Some`
    /// when this seat put it back, `None` when the other player did.
    troop_tops: Vec<Option<Troop>>,
    tactic_tops: Vec<Option<Tactic>>,
    /// Cards this seat knows the other player holds (drawn from its returned cards).
    known_other: Vec<Card>,
    /// The cards whose place is unknown: the other hand and the unknown deck cards.
    unseen_troops: Vec<Troop>,
    unseen_tactics: Vec<Tactic>,
    /// The weight of each troop (by [`troop_slot`]) for being in the other hand,
    /// from a model of that hand (`hand_model.rs`); `None`: every unseen troop alike.
    #[cfg(feature = "contenders")]
    hand_weights: Option<Box<[f64; 60]>>,
    /// The game as it really is, dealt every time: only the harness's measurement of
    /// what seeing every card is worth builds one ([`Knowledge::seeing`]).
    #[cfg(feature = "contenders")]
    truth: Option<Box<Game>>,
}

/// A command of the log as the seat saw it: the other player's returned card is masked.
enum Seen {
    Drew(Deck),
    Returned(Deck, Option<Card>),
    Played(Card),
    Other,
}

impl Knowledge {
    /// What `me` knows of `game`.
    pub fn of(game: &Game, me: Player) -> Knowledge {
        let other = me.opponent();
        let skeleton = game.public_skeleton(me);
        let view = game.view(me);
        let mut troop_tops: Vec<Option<Troop>> = Vec::new();
        let mut tactic_tops: Vec<Option<Tactic>> = Vec::new();
        let mut known_other: Vec<Card> = Vec::new();
        let mut mover = Player::P0;
        for &cmd in game.log() {
            let by = mover;
            let seen = match cmd {
                Command::DrawAndEndTurn { deck } | Command::ScoutDraw { deck } => Seen::Drew(deck),
                Command::ScoutReturn { card } => {
                    let deck = if card.troop().is_some() {
                        Deck::Troop
                    } else {
                        Deck::Tactic
                    };
                    Seen::Returned(deck, (by == me).then_some(card))
                }
                Command::PlayCard { card, .. } => Seen::Played(card),
                _ => Seen::Other,
            };
            if matches!(cmd, Command::DrawAndEndTurn { .. } | Command::EndTurn) {
                mover = mover.opponent();
            }
            match seen {
                Seen::Drew(Deck::Troop) => {
                    if let Some(Some(t)) = troop_tops.pop()
                        && by == other
                    {
                        known_other.push(Card::Troop(t));
                    }
                }
                Seen::Drew(Deck::Tactic) => {
                    if let Some(Some(t)) = tactic_tops.pop()
                        && by == other
                    {
                        known_other.push(Card::Tactic(t));
                    }
                }
                Seen::Returned(deck, card) => {
                    if by == other {
                        // The returned card may be one this seat knew of: forget them.
                        known_other.clear();
                    }
                    match (deck, card) {
                        (Deck::Troop, c) => troop_tops.push(c.and_then(Card::troop)),
                        (Deck::Tactic, c) => tactic_tops.push(c.and_then(Card::tactic)),
                    }
                }
                Seen::Played(card) if by == other => known_other.retain(|c| *c != card),
                Seen::Played(_) | Seen::Other => {}
            }
        }
        // Drop stale entries if the decks are shorter (they never should be).
        keep_top(view.troop_deck, &mut troop_tops);
        keep_top(view.tactic_deck, &mut tactic_tops);

        let mut placed = TroopSet::EMPTY;
        let mut placed_tactics: Vec<Tactic> = Vec::new();
        let mut note = |c: Card| match c {
            Card::Troop(t) => placed.insert(t),
            Card::Tactic(t) => placed_tactics.push(t),
        };
        view.hand.iter().copied().for_each(&mut note);
        for f in &view.flags {
            for p in Player::BOTH {
                f.slots(p).iter().copied().for_each(&mut note);
                f.tactic(p)
                    .iter()
                    .map(|t| Card::Tactic(*t))
                    .for_each(&mut note);
            }
        }
        view.field
            .iter()
            .flatten()
            .map(|t| Card::Tactic(*t))
            .for_each(&mut note);
        view.troop_discard
            .iter()
            .map(|t| Card::Troop(*t))
            .for_each(&mut note);
        view.tactic_discard
            .iter()
            .map(|t| Card::Tactic(*t))
            .for_each(&mut note);
        troop_tops
            .iter()
            .flatten()
            .map(|t| Card::Troop(*t))
            .for_each(&mut note);
        tactic_tops
            .iter()
            .flatten()
            .map(|t| Card::Tactic(*t))
            .for_each(&mut note);
        known_other.iter().copied().for_each(&mut note);
        let unseen_troops: Vec<Troop> = Troop::all().filter(|t| !placed.contains(*t)).collect();
        let unseen_tactics: Vec<Tactic> = Tactic::ALL
            .into_iter()
            .filter(|t| !placed_tactics.contains(t))
            .collect();
        Knowledge {
            me,
            skeleton,
            other_troops: view.opponent_hand.troops,
            other_tactics: view.opponent_hand.tactics,
            troop_deck: view.troop_deck,
            tactic_deck: view.tactic_deck,
            troop_tops,
            tactic_tops,
            known_other,
            unseen_troops,
            unseen_tactics,
            #[cfg(feature = "contenders")]
            hand_weights: None,
            #[cfg(feature = "contenders")]
            truth: None,
        }
    }

    /// This knowledge with what no player can see added, to measure what it is worth:
    /// the other hand as it is in `game`, and with `all` the decks' order too (every
    /// deal is then `game` itself).
    #[cfg(feature = "contenders")]
    pub fn seeing(mut self, game: &Game, all: bool) -> Knowledge {
        let hand = game.hand(self.me.opponent()).to_vec();
        self.unseen_troops
            .retain(|t| !hand.contains(&Card::Troop(*t)));
        self.unseen_tactics
            .retain(|t| !hand.contains(&Card::Tactic(*t)));
        self.known_other = hand;
        if all {
            self.truth = Some(Box::new(game.clone()));
        }
        self
    }

    /// This knowledge whose deals take the other hand's unknown troops by the weights
    /// of [`super::hand_model::hand_weights`] (read from `game` as this seat may know
    /// it, with sharpness `beta`) instead of uniformly.
    #[cfg(feature = "contenders")]
    pub fn with_hand_model(self, game: &Game, beta: f64) -> Knowledge {
        let weights = super::hand_model::hand_weights(game, self.me, beta);
        Knowledge {
            hand_weights: Some(Box::new(weights)),
            ..self
        }
    }

    /// The weights of the model of the other hand, if the deals follow one (only the
    /// harness's contenders build one).
    fn hand_weights(&self) -> Option<&[f64; 60]> {
        #[cfg(feature = "contenders")]
        return self.hand_weights.as_deref();
        #[cfg(not(feature = "contenders"))]
        None
    }

    /// A full game consistent with this knowledge: the unknown cards dealt at random.
    pub fn sample(&self, rng: &mut Rng) -> Game {
        #[cfg(feature = "contenders")]
        if let Some(truth) = &self.truth {
            return (**truth).clone();
        }
        let mut troops = self.unseen_troops.clone();
        let mut tactics = self.unseen_tactics.clone();
        rng.shuffle(&mut troops);
        rng.shuffle(&mut tactics);
        let known_troops = self
            .known_other
            .iter()
            .filter(|c| c.troop().is_some())
            .count();
        let known_tactics = self.known_other.len() - known_troops;
        let mut hand = self.known_other.clone();
        let take_t = self
            .other_troops
            .saturating_sub(known_troops)
            .min(troops.len());
        match self.hand_weights() {
            None => hand.extend(troops.drain(..take_t).map(Card::Troop)),
            Some(weights) => {
                // Weighted sampling without replacement, from the shuffled order.
                let weight = |t: &Troop| weights[troop_slot(*t)];
                for _ in 0..take_t {
                    let total: f64 = troops.iter().map(weight).sum();
                    let mut r = rng.next_f64() * total;
                    let mut pick = troops.len() - 1;
                    for (j, t) in troops.iter().enumerate() {
                        let w = weight(t);
                        if r < w {
                            pick = j;
                            break;
                        }
                        r -= w;
                    }
                    hand.push(Card::Troop(troops.remove(pick)));
                }
            }
        }
        let take_c = self
            .other_tactics
            .saturating_sub(known_tactics)
            .min(tactics.len());
        hand.extend(tactics.drain(..take_c).map(Card::Tactic));
        let troop_deck = stack(self.troop_deck, &self.troop_tops, troops);
        let tactic_deck = stack(self.tactic_deck, &self.tactic_tops, tactics);
        let mut game = self.skeleton.clone();
        game.fill_hidden(self.me.opponent(), hand, troop_deck, tactic_deck);
        game
    }
}

/// What the sparring partner and the harness's searches read of a seat's knowledge.
#[cfg(feature = "contenders")]
impl Knowledge {
    /// The troops whose place this seat does not know (the other hand and the unknown
    /// deck cards).
    pub fn unseen(&self) -> TroopSet {
        self.unseen_troops.iter().copied().collect()
    }

    /// Troops this seat knows the other player holds (drawn from its returned cards).
    pub fn known_other_troops(&self) -> TroopSet {
        self.known_other.iter().filter_map(|c| c.troop()).collect()
    }

    /// How many troops the other hand holds that this seat does not know.
    pub fn other_unknown_troops(&self) -> usize {
        self.other_troops
            .saturating_sub(self.known_other_troops().len())
    }

    /// The troop deck's size.
    pub fn troop_deck(&self) -> usize {
        self.troop_deck
    }

    /// The troops on top of the troop deck, top first: `Some` when this seat put the
    /// card back with Scout, `None` when the other player did.
    pub fn troop_tops(&self) -> impl Iterator<Item = Option<Troop>> + '_ {
        self.troop_tops.iter().rev().copied()
    }
}

/// A troop's place (0-59, by colour then value) in a table of the 60 troops, such as
/// the weights of a model of the other hand.
pub(crate) fn troop_slot(t: Troop) -> usize {
    (t.color.index() * 10 + usize::from(t.value).saturating_sub(1)).min(59)
}

/// Drops the oldest entries beyond `len` (never needed: a deck holds its returned cards).
fn keep_top<T>(len: usize, tops: &mut Vec<T>) {
    let extra = tops.len().saturating_sub(len);
    tops.drain(..extra);
}

/// A deck of `len` cards (last = top): the known tops above, random cards elsewhere.
fn stack<T: Copy>(len: usize, tops: &[Option<T>], mut random: Vec<T>) -> Vec<T> {
    let below = len.saturating_sub(tops.len());
    let mut deck: Vec<T> = Vec::with_capacity(len);
    deck.extend(random.drain(..below.min(random.len())));
    for top in tops {
        match top {
            Some(card) => deck.push(*card),
            None => {
                if let Some(card) = random.pop() {
                    deck.push(card);
                }
            }
        }
    }
    deck
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Settings;

    /// Plays random legal commands until `stop` holds.
    fn advance(game: &mut Game, stop: impl Fn(&Game) -> bool) {
        let mut random = crate::bot::RandomPlayer::new(game.log().len() as u64 ^ game.seed());
        for _ in 0..500 {
            if stop(game) || game.is_over() {
                return;
            }
            let cmd = random.choose(game).expect("a command");
            game.apply(cmd).expect("legal");
        }
    }

    #[test]
    fn samples_keep_every_public_fact_and_all_seventy_cards() {
        let mut game = Game::new(12, Settings::default());
        advance(&mut game, |g| {
            g.log().len() > 40 && g.current() == Player::P1
        });
        let k = Knowledge::of(&game, Player::P1);
        let mut rng = Rng::new(5);
        for _ in 0..20 {
            let s = k.sample(&mut rng);
            assert_eq!(s.card_count(), 70);
            assert_eq!(s.hand(Player::P1), game.hand(Player::P1));
            assert_eq!(s.flags(), game.flags());
            assert_eq!(s.troop_deck_len(), game.troop_deck_len());
            assert_eq!(s.tactic_deck_len(), game.tactic_deck_len());
            assert_eq!(
                s.view(Player::P1).opponent_hand,
                game.view(Player::P1).opponent_hand
            );
            assert_eq!(s.legal_commands(), game.legal_commands());
        }
    }

    #[test]
    fn weighted_deals_follow_the_hand_weights() {
        let mut game = Game::new(14, Settings::default());
        advance(&mut game, |g| {
            g.log().len() > 30 && g.current() == Player::P0 && g.phase() == crate::game::Phase::Play
        });
        let mut k = Knowledge::of(&game, Player::P0);
        let unseen: Vec<Troop> = k.unseen().iter_high_first().collect();
        assert!(k.other_unknown_troops() > 1 && unseen.len() > 20);
        let (never, often) = (unseen[0], unseen[1]);
        let mut weights = [1.0; 60];
        weights[troop_slot(never)] = 0.0;
        weights[troop_slot(often)] = 1000.0;
        k.hand_weights = Some(Box::new(weights));
        let other = Player::P1;
        let mut rng = Rng::new(3);
        let mut held = 0;
        for _ in 0..100 {
            let s = k.sample(&mut rng);
            assert_eq!(s.card_count(), 70);
            assert_eq!(s.hand(Player::P0), game.hand(Player::P0));
            assert_eq!(
                s.view(Player::P0).opponent_hand,
                game.view(Player::P0).opponent_hand
            );
            assert!(!s.hand(other).contains(&Card::Troop(never)));
            assert!(s.decks().0.contains(&never));
            held += usize::from(s.hand(other).contains(&Card::Troop(often)));
        }
        // Uniformly it would be held about other_unknown_troops / unseen of the time.
        assert!(held >= 95, "{held}");
        // The same stream deals the same cards.
        let (a, b) = (k.sample(&mut Rng::new(9)), k.sample(&mut Rng::new(9)));
        assert_eq!(a.hand(other), b.hand(other));
        assert_eq!(a.decks(), b.decks());
    }

    #[cfg(feature = "contenders")]
    #[test]
    fn deals_that_see_the_other_hand_hold_it_and_deals_that_see_all_are_the_game() {
        let mut game = Game::new(21, Settings::default());
        advance(&mut game, |g| {
            g.log().len() > 30 && g.current() == Player::P0 && g.phase() == crate::game::Phase::Play
        });
        let other = Player::P1;
        let sorted = |cards: &[Card]| {
            let mut v = cards.to_vec();
            v.sort_by_key(|c| format!("{c:?}"));
            v
        };
        let real = sorted(game.hand(other));
        let hand = Knowledge::of(&game, Player::P0).seeing(&game, false);
        let mut rng = Rng::new(4);
        let mut decks = Vec::new();
        for _ in 0..10 {
            let s = hand.sample(&mut rng);
            assert_eq!(s.card_count(), 70);
            assert_eq!(sorted(s.hand(other)), real);
            assert_eq!(s.hand(Player::P0), game.hand(Player::P0));
            assert_eq!(s.legal_commands(), game.legal_commands());
            decks.push(s.decks().0.to_vec());
        }
        // The decks' order is still dealt at random.
        assert!(decks.iter().any(|d| *d != decks[0]));
        let all = Knowledge::of(&game, Player::P0).seeing(&game, true);
        for _ in 0..3 {
            let s = all.sample(&mut rng);
            assert_eq!(s.hand(other), game.hand(other));
            assert_eq!(s.decks(), game.decks());
        }
    }

    #[test]
    fn cards_returned_by_scout_stay_known_and_the_others_are_masked() {
        // Find a game where P0 plays Scout, then look at it from both seats.
        for seed in 0..400 {
            let mut game = Game::new(seed, Settings::default());
            let scout = Command::PlayCard {
                card: Card::Tactic(Tactic::Scout),
                target: crate::game::Target::Field,
            };
            advance(&mut game, |g| g.legal_commands().contains(&scout));
            if !game.legal_commands().contains(&scout) {
                continue;
            }
            let me = game.current();
            game.apply(scout).expect("scout");
            advance(&mut game, |g| {
                !matches!(
                    g.phase(),
                    crate::game::Phase::ScoutDraw { .. } | crate::game::Phase::ScoutReturn { .. }
                )
            });
            let returned: Vec<Card> = game
                .log()
                .iter()
                .filter_map(|c| match c {
                    Command::ScoutReturn { card } => Some(*card),
                    _ => None,
                })
                .collect();
            assert_eq!(returned.len(), 2);
            let mine = Knowledge::of(&game, me);
            let mut rng = Rng::new(1);
            for _ in 0..10 {
                let s = mine.sample(&mut rng);
                // The returned cards are back on top, in the order they went back.
                let (mut troops, mut tactics) = (s.decks().0.to_vec(), s.decks().1.to_vec());
                for card in returned.iter().rev() {
                    let deck_top = match card {
                        Card::Troop(_) => troops.pop().map(Card::Troop),
                        Card::Tactic(_) => tactics.pop().map(Card::Tactic),
                    };
                    assert_eq!(deck_top, Some(*card));
                }
            }
            // The other seat does not know them: its samples vary the deck tops.
            let theirs = Knowledge::of(&game, me.opponent());
            let masked: Vec<bool> = theirs
                .troop_tops
                .iter()
                .map(Option::is_none)
                .chain(theirs.tactic_tops.iter().map(Option::is_none))
                .collect();
            assert_eq!(masked, vec![true, true]);
            return;
        }
        panic!("no game with a Scout found");
    }
}
