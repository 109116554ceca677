//! Hash routes (`#/`, `#/recipe/<deck>`, `#/deck-lab`, `#/simulator/<deck>?seed=N`, `#/replay/<code>`, `#/stats/<deck>`, `#/quantum-gomoku?gameId=<uuid>`, `#/help/<game>`) that work on plain static hosting.

use std::fmt;

/// A page of the app. Parsing never fails: unknown paths become `NotFound`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Route {
    Home,
    Recipe {
        deck: String,
    },
    Simulator {
        deck: String,
        seed: Option<u64>,
    },
    /// A shared duel: `code` is the raw share code; the page decodes and replays it.
    Replay {
        code: String,
    },
    /// A deck's statistics; `hands` preselects the number of opening hands (ignored
    /// unless a positive number). Every hand is solved with `stats::HAND_BUDGET`: the
    /// `budget` parameter of older links is ignored, and such a link still opens the page.
    Stats {
        deck: String,
        hands: Option<u32>,
    },
    /// The deck lab: decks of the player's own.
    DeckLab,
    BattleLine,
    /// Battle Line online: the lobby, or the room `room` (the raw `room` query
    /// value; the page validates it).
    BattleLineOnline {
        room: Option<String>,
    },
    /// `game_id` is the raw `gameId` query value; the page validates it.
    QuantumGomoku {
        game_id: Option<String>,
    },
    /// A game's rules page.
    Help {
        topic: HelpTopic,
    },
    NotFound {
        path: String,
    },
}

/// The game a rules page explains.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HelpTopic {
    Duel,
    BattleLine,
    QuantumGomoku,
}

impl HelpTopic {
    pub const ALL: [HelpTopic; 3] = [
        HelpTopic::Duel,
        HelpTopic::BattleLine,
        HelpTopic::QuantumGomoku,
    ];

    /// Its name in `#/help/<name>`.
    pub fn slug(self) -> &'static str {
        match self {
            HelpTopic::Duel => "duel",
            HelpTopic::BattleLine => "battle-line",
            HelpTopic::QuantumGomoku => "quantum-gomoku",
        }
    }

    pub fn from_slug(slug: &str) -> Option<HelpTopic> {
        HelpTopic::ALL.into_iter().find(|t| t.slug() == slug)
    }

    /// The bundle of the game it explains (the page lives there).
    pub fn bundle(self) -> Bundle {
        match self {
            HelpTopic::Duel => Bundle::DuelAnalysis,
            HelpTopic::BattleLine => Bundle::BattleLine,
            HelpTopic::QuantumGomoku => Bundle::QuantumGomoku,
        }
    }
}

impl Route {
    /// Parses `location.hash` (with or without the leading `#`). A `seed` in the
    /// hash query wins over one in the page query (`location.search`), because the
    /// hash is what the app itself writes.
    pub fn parse(hash: &str, search: &str) -> Route {
        let hash = hash.strip_prefix('#').unwrap_or(hash);
        let (path, hash_query) = match hash.split_once('?') {
            Some((p, q)) => (p, q),
            None => (hash, ""),
        };
        let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
        match segments.as_slice() {
            [] => Route::Home,
            ["recipe", deck] => Route::Recipe {
                deck: (*deck).to_owned(),
            },
            ["simulator", deck] => Route::Simulator {
                deck: (*deck).to_owned(),
                seed: query_seed(hash_query).or_else(|| query_seed(search)),
            },
            ["replay", code] => Route::Replay {
                code: (*code).to_owned(),
            },
            ["stats", deck] => Route::Stats {
                deck: (*deck).to_owned(),
                hands: query_number(hash_query, "hands"),
            },
            ["battle-line"] => Route::BattleLine,
            ["battle-line", "online"] => Route::BattleLineOnline {
                room: query_param(hash_query, "room").map(str::to_owned),
            },
            ["deck-lab"] => Route::DeckLab,
            ["help", topic] => match HelpTopic::from_slug(topic) {
                Some(topic) => Route::Help { topic },
                None => Route::NotFound {
                    path: path.to_owned(),
                },
            },
            ["quantum-gomoku"] => Route::QuantumGomoku {
                game_id: query_param(hash_query, "gameId")
                    .or_else(|| query_param(search, "gameId"))
                    .map(str::to_owned),
            },
            _ => Route::NotFound {
                path: path.to_owned(),
            },
        }
    }

    /// The `#...` string that leads back to this route.
    pub fn to_hash(&self) -> String {
        format!("#{self}")
    }
}

impl fmt::Display for Route {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Route::Home => write!(f, "/"),
            Route::Recipe { deck } => write!(f, "/recipe/{deck}"),
            Route::Simulator { deck, seed: None } => write!(f, "/simulator/{deck}"),
            Route::Simulator {
                deck,
                seed: Some(seed),
            } => write!(f, "/simulator/{deck}?seed={seed}"),
            Route::Replay { code } => write!(f, "/replay/{code}"),
            Route::Stats { deck, hands: None } => write!(f, "/stats/{deck}"),
            Route::Stats {
                deck,
                hands: Some(hands),
            } => write!(f, "/stats/{deck}?hands={hands}"),
            Route::BattleLine => write!(f, "/battle-line"),
            Route::BattleLineOnline { room: None } => write!(f, "/battle-line/online"),
            Route::BattleLineOnline { room: Some(room) } => {
                write!(f, "/battle-line/online?room={room}")
            }
            Route::DeckLab => write!(f, "/deck-lab"),
            Route::QuantumGomoku { game_id: None } => write!(f, "/quantum-gomoku"),
            Route::QuantumGomoku { game_id: Some(id) } => write!(f, "/quantum-gomoku?gameId={id}"),
            Route::Help { topic } => write!(f, "/help/{}", topic.slug()),
            Route::NotFound { path } => write!(f, "{path}"),
        }
    }
}

/// The release bundle that hosts a route: home and the duel at the site's root, the
/// duel's replay and statistics pages and each other game in a folder of their own (one
/// wasm per bundle keeps every page small).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bundle {
    Duel,
    DuelAnalysis,
    DeckLab,
    BattleLine,
    BattleLineOnline,
    QuantumGomoku,
}

impl Bundle {
    /// The bundle's folder below the site's root.
    pub fn folder(self) -> &'static str {
        match self {
            Bundle::Duel => "",
            Bundle::DuelAnalysis => "duel-analysis/",
            Bundle::DeckLab => "deck-lab/",
            Bundle::BattleLine => "battle-line/",
            Bundle::BattleLineOnline => "battle-line-online/",
            Bundle::QuantumGomoku => "quantum-gomoku/",
        }
    }

    /// Whether this build contains the bundle's game.
    pub fn compiled_in(self) -> bool {
        match self {
            Bundle::Duel => cfg!(feature = "duel"),
            Bundle::DuelAnalysis => cfg!(feature = "duel-analysis"),
            Bundle::DeckLab => cfg!(feature = "deck-lab"),
            Bundle::BattleLine => cfg!(feature = "battle-line"),
            Bundle::BattleLineOnline => cfg!(feature = "battle-line-online"),
            Bundle::QuantumGomoku => cfg!(feature = "quantum-gomoku"),
        }
    }
}

impl Route {
    /// The bundle that shows this route (`None`: any bundle can say "not found").
    pub fn bundle(&self) -> Option<Bundle> {
        match self {
            Route::Home | Route::Recipe { .. } | Route::Simulator { .. } => Some(Bundle::Duel),
            Route::Replay { .. } | Route::Stats { .. } => Some(Bundle::DuelAnalysis),
            Route::DeckLab => Some(Bundle::DeckLab),
            Route::BattleLine => Some(Bundle::BattleLine),
            Route::BattleLineOnline { .. } => Some(Bundle::BattleLineOnline),
            Route::QuantumGomoku { .. } => Some(Bundle::QuantumGomoku),
            Route::Help { topic } => Some(topic.bundle()),
            Route::NotFound { .. } => None,
        }
    }

    /// A link to this route: its hash when this build shows it, otherwise the page of
    /// the bundle that does. A build with the duel sits at the root; the others one
    /// folder down.
    pub fn href(&self) -> String {
        self.href_with(&self.to_hash())
    }

    /// [`Route::href`] keeping a given `#...` (with its query, e.g. a seed) as it is.
    pub fn href_with(&self, hash: &str) -> String {
        match self.bundle() {
            Some(bundle) if !bundle.compiled_in() => {
                let root = if cfg!(feature = "duel") { "" } else { "../" };
                format!("{root}{}{hash}", bundle.folder())
            }
            _ => hash.to_string(),
        }
    }
}

/// The `seed` parameter of a query string, if present and a valid u64.
/// A malformed seed is ignored (the page then draws a fresh one) rather than an error.
fn query_seed(query: &str) -> Option<u64> {
    query
        .trim_start_matches('?')
        .split('&')
        .filter_map(|pair| pair.split_once('='))
        .find(|(key, _)| *key == "seed")
        .and_then(|(_, value)| value.parse().ok())
}

/// A positive number `key` in a query string; anything else is ignored.
fn query_number(query: &str, key: &str) -> Option<u32> {
    query_param(query, key)
        .and_then(|v| v.parse().ok())
        .filter(|&n| n > 0)
}

/// The value of `key` in a query string (`a=1&b=2`, with or without `?`), if present and non-empty.
fn query_param<'a>(query: &'a str, key: &str) -> Option<&'a str> {
    query
        .trim_start_matches('?')
        .split('&')
        .filter_map(|pair| pair.split_once('='))
        .find(|(k, v)| *k == key && !v.is_empty())
        .map(|(_, v)| v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_stay_in_this_bundle_when_it_has_the_game() {
        // Native tests build every game in, as development and browser tests do.
        assert_eq!(Route::BattleLine.href(), "#/battle-line");
        assert_eq!(Route::Home.href(), "#/");
        assert_eq!(Bundle::BattleLine.folder(), "battle-line/");
        assert_eq!(Bundle::BattleLineOnline.folder(), "battle-line-online/");
        assert_eq!(
            Route::Replay {
                code: "AQAB".into()
            }
            .bundle(),
            Some(Bundle::DuelAnalysis)
        );
        assert_eq!(
            Route::Stats {
                deck: "exodia-deck".into(),
                hands: None,
            }
            .href(),
            "#/stats/exodia-deck"
        );
        assert_eq!(
            Route::QuantumGomoku { game_id: None }.bundle(),
            Some(Bundle::QuantumGomoku)
        );
        assert_eq!(Route::NotFound { path: "x".into() }.bundle(), None);
    }

    #[test]
    fn parses_every_route() {
        assert_eq!(Route::parse("", ""), Route::Home);
        assert_eq!(Route::parse("#/", ""), Route::Home);
        assert_eq!(
            Route::parse("#/recipe/exodia-deck", ""),
            Route::Recipe {
                deck: "exodia-deck".into()
            }
        );
        assert_eq!(
            Route::parse("#/simulator/exodia-deck?seed=42", ""),
            Route::Simulator {
                deck: "exodia-deck".into(),
                seed: Some(42)
            }
        );
        assert_eq!(Route::parse("#/battle-line", ""), Route::BattleLine);
        assert_eq!(
            Route::parse("#/battle-line/online", ""),
            Route::BattleLineOnline { room: None }
        );
        let room = Route::parse("#/battle-line/online?room=0123456789ab", "");
        assert_eq!(
            room,
            Route::BattleLineOnline {
                room: Some("0123456789ab".to_owned())
            }
        );
        assert_eq!(room.to_hash(), "#/battle-line/online?room=0123456789ab");
        assert_eq!(
            Route::parse("#/quantum-gomoku", ""),
            Route::QuantumGomoku { game_id: None }
        );
        assert_eq!(
            Route::parse("#/quantum-gomoku?gameId=abc", "?gameId=zzz"),
            Route::QuantumGomoku {
                game_id: Some("abc".into())
            }
        );
        assert_eq!(
            Route::parse("#/quantum-gomoku", "?gameId=zzz&x=1"),
            Route::QuantumGomoku {
                game_id: Some("zzz".into())
            }
        );
    }

    #[test]
    fn each_rules_page_lives_in_its_games_bundle() {
        for topic in HelpTopic::ALL {
            assert_eq!(HelpTopic::from_slug(topic.slug()), Some(topic));
            let route = Route::parse(&format!("#/help/{}", topic.slug()), "");
            assert_eq!(route, Route::Help { topic });
            assert_eq!(route.bundle(), Some(topic.bundle()));
        }
        assert_eq!(
            Route::parse("#/help/chess", ""),
            Route::NotFound {
                path: "/help/chess".into()
            }
        );
    }

    #[test]
    fn seed_comes_from_hash_then_page_query() {
        let from_page = Route::parse("#/simulator/d", "?x=1&seed=7");
        assert_eq!(
            from_page,
            Route::Simulator {
                deck: "d".into(),
                seed: Some(7)
            }
        );
        let hash_wins = Route::parse("#/simulator/d?seed=9", "?seed=7");
        assert_eq!(
            hash_wins,
            Route::Simulator {
                deck: "d".into(),
                seed: Some(9)
            }
        );
    }

    #[test]
    fn bad_input_never_panics() {
        assert_eq!(
            Route::parse("#/simulator/d?seed=-1", ""),
            Route::Simulator {
                deck: "d".into(),
                seed: None
            }
        );
        assert_eq!(
            Route::parse("#/simulator/d?seed=99999999999999999999999", ""),
            Route::Simulator {
                deck: "d".into(),
                seed: None
            }
        );
        assert_eq!(
            Route::parse("#/a/b/c", ""),
            Route::NotFound {
                path: "/a/b/c".into()
            }
        );
    }

    #[test]
    fn replay_and_statistics_routes_parse_and_ignore_bad_numbers() {
        assert_eq!(
            Route::parse("#/replay/AQAB-_x", ""),
            Route::Replay {
                code: "AQAB-_x".into()
            }
        );
        assert_eq!(
            Route::parse("#/stats/exodia-deck?hands=20", ""),
            Route::Stats {
                deck: "exodia-deck".into(),
                hands: Some(20),
            }
        );
        assert_eq!(
            Route::parse("#/stats/exodia-deck?hands=0", ""),
            Route::Stats {
                deck: "exodia-deck".into(),
                hands: None,
            }
        );
        // Links from before every hand had the same budget still open the page.
        for old in [
            "#/stats/exodia-deck?hands=20&budget=300",
            "#/stats/exodia-deck?budget=300&hands=20",
        ] {
            assert_eq!(
                Route::parse(old, ""),
                Route::Stats {
                    deck: "exodia-deck".into(),
                    hands: Some(20),
                },
                "{old}"
            );
        }
        assert_eq!(
            Route::parse("#/stats/exodia-deck?budget=x", ""),
            Route::Stats {
                deck: "exodia-deck".into(),
                hands: None,
            }
        );
        assert_eq!(
            Route::parse("#/replay", ""),
            Route::NotFound {
                path: "/replay".into()
            }
        );
    }

    #[test]
    fn display_round_trips() {
        for route in [
            Route::Home,
            Route::Recipe { deck: "x".into() },
            Route::Simulator {
                deck: "x".into(),
                seed: Some(u64::MAX),
            },
            Route::Simulator {
                deck: "x".into(),
                seed: None,
            },
            Route::BattleLine,
            Route::DeckLab,
            Route::Replay {
                code: "AQAB".into(),
            },
            Route::Stats {
                deck: "x".into(),
                hands: None,
            },
            Route::Stats {
                deck: "x".into(),
                hands: Some(1000),
            },
            Route::QuantumGomoku { game_id: None },
            Route::QuantumGomoku {
                game_id: Some("0b5e4c1a-8f3d-4e2a-9c7b-1d2e3f405060".into()),
            },
            Route::Help {
                topic: HelpTopic::Duel,
            },
            Route::Help {
                topic: HelpTopic::QuantumGomoku,
            },
        ] {
            assert_eq!(Route::parse(&route.to_hash(), ""), route);
        }
    }
}
