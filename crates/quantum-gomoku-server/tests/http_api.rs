//! The API acceptance criteria over real HTTP: each test starts the server on a
//! free loopback port and talks to it with a minimal hand-written HTTP/1.1 client.

mod common;

use common::*;
use quantum_gomoku_server::ServerConfig;
use serde_json::{Value, json};
use std::path::PathBuf;

#[tokio::test]
async fn qgm_001_post_games_answers_201_with_the_initial_state() {
    let addr = server().await;
    // Exactly the seed's `curl -s -X POST .../games`: no body, no content type.
    let r = raw(addr, "POST", &format!("{API}/games"), &[], b"").await;
    assert_eq!(r.status, 201);
    let v = r.json();
    let st = &v["gameState"];
    assert_eq!(v["gameId"], st["id"]);
    assert_eq!(st["status"], "playing");
    assert_eq!(st["currentPlayer"], "BLACK");
    assert_eq!(st["winner"], Value::Null);
    assert_eq!(st["turnCount"], 0);
    assert_eq!(st["blackObservationsRemaining"], 5);
    assert_eq!(st["whiteObservationsRemaining"], 5);
    assert_eq!(st["lastMover"], Value::Null);
    assert_eq!(st["board"].as_array().map(Vec::len), Some(15));
    assert!(st["board"].as_array().expect("rows").iter().all(|row| {
        row.as_array()
            .is_some_and(|r| r.len() == 15 && r.iter().all(Value::is_null))
    }));
    assert!(
        st["createdAt"]
            .as_str()
            .is_some_and(|t| t.ends_with('Z') && t.len() == 24)
    );
}

#[tokio::test]
async fn qgm_001_post_games_accepts_options_and_refuses_nonsense() {
    let addr = server().await;
    let r = post_json(
        addr,
        &format!("{API}/games"),
        &json!({"boardSize": 9, "winLength": 5}),
    )
    .await;
    assert_eq!(r.status, 201);
    assert_eq!(
        r.json()["gameState"]["board"].as_array().map(Vec::len),
        Some(9)
    );
    let r = post_json(addr, &format!("{API}/games"), &json!({"boardSize": 0})).await;
    assert_error(&r, 400, "INVALID_OPTIONS");
    let r = post_json(
        addr,
        &format!("{API}/games"),
        &json!({"boardSize": 5, "winLength": 6}),
    )
    .await;
    assert_error(&r, 400, "INVALID_OPTIONS");
    let r = post_json(addr, &format!("{API}/games"), &json!({"size": 5})).await;
    assert_error(&r, 400, "INVALID_REQUEST");
}

#[tokio::test]
async fn qgm_002_get_answers_200_404_and_400() {
    let addr = server().await;
    let id = create(addr).await;
    let r = get(addr, &format!("{API}/games/{id}")).await;
    assert_eq!(r.status, 200);
    assert_eq!(r.json()["gameState"]["id"], id.as_str());
    assert_error(
        &get(
            addr,
            &format!("{API}/games/123e4567-e89b-42d3-a456-426614174000"),
        )
        .await,
        404,
        "NOT_FOUND",
    );
    assert_error(
        &get(addr, &format!("{API}/games/not-a-uuid")).await,
        400,
        "INVALID_ID",
    );
}

#[tokio::test]
async fn qgm_010_011_012_moves_place_stones_pass_turns_and_rotate_types() {
    let addr = server().await;
    let id = create(addr).await;
    let expected = [
        ("BLACK", "P90"),
        ("WHITE", "P10"),
        ("BLACK", "P70"),
        ("WHITE", "P30"),
    ];
    for (i, (player, ty)) in expected.iter().enumerate() {
        let r = place(addr, &id, player, 7, i as i64).await;
        assert_eq!(r.status, 200);
        let st = &r.json()["gameState"];
        let stone = &st["board"][7][i];
        assert_eq!(stone["placedBy"], *player);
        assert_eq!(stone["probabilityType"], *ty);
        assert_eq!(stone["observedColor"], Value::Null);
        assert_eq!(st["turnCount"], i + 1);
        assert_eq!(st["lastMover"], *player);
        assert_ne!(st["currentPlayer"], *player);
    }
}

#[tokio::test]
async fn qgm_013_014_015_refused_moves_use_the_error_model_and_change_nothing() {
    let addr = server().await;
    let id = create(addr).await;
    assert_eq!(place(addr, &id, "BLACK", 3, 3).await.status, 200);
    let before = get(addr, &format!("{API}/games/{id}")).await.json();
    assert_error(&place(addr, &id, "WHITE", 3, 3).await, 400, "CELL_OCCUPIED");
    assert_error(
        &place(addr, &id, "WHITE", 15, 0).await,
        400,
        "INVALID_POSITION",
    );
    assert_error(
        &place(addr, &id, "WHITE", -1, 2).await,
        400,
        "INVALID_POSITION",
    );
    assert_error(&place(addr, &id, "BLACK", 4, 4).await, 409, "OUT_OF_TURN");
    assert_error(
        &place(addr, "123e4567-e89b-42d3-a456-426614174000", "BLACK", 0, 0).await,
        404,
        "NOT_FOUND",
    );
    assert_error(&place(addr, "123", "BLACK", 0, 0).await, 400, "INVALID_ID");
    assert_eq!(get(addr, &format!("{API}/games/{id}")).await.json(), before);
}

#[tokio::test]
async fn qgm_020_021_022_observations_over_http() {
    let addr = server().await;
    let id = create(addr).await;
    assert_error(
        &observe(addr, &id, "BLACK", None).await,
        409,
        "OBS_NOT_ALLOWED",
    );
    for (p, r, c) in [
        ("BLACK", 0, 0),
        ("WHITE", 5, 5),
        ("BLACK", 0, 1),
        ("WHITE", 6, 6),
        ("BLACK", 0, 2),
    ] {
        assert_eq!(place(addr, &id, p, r, c).await.status, 200);
    }
    assert_error(
        &observe(addr, &id, "WHITE", None).await,
        409,
        "OBS_NOT_ALLOWED",
    );
    // Observe with increasing seeds until the game ends or black runs out.
    let mut last = Value::Null;
    for seed in 0..5 {
        let r = observe(addr, &id, "BLACK", Some(seed)).await;
        assert_eq!(r.status, 200);
        last = r.json();
        let res = &last["observationResult"];
        for k in [
            "id",
            "observedBy",
            "turnExecuted",
            "resultBoard",
            "isWinning",
            "winner",
            "winningLine",
        ] {
            assert!(res.get(k).is_some(), "observationResult lacks {k}");
        }
        assert_eq!(last["gameState"]["blackObservationsRemaining"], 4 - seed);
        assert_eq!(last["gameState"]["whiteObservationsRemaining"], 5);
        if res["isWinning"] == true {
            assert_eq!(last["gameState"]["status"], "finished");
            assert_eq!(last["gameState"]["winner"], res["winner"]);
            assert!(res["winningLine"].as_array().is_some_and(|l| l.len() >= 3));
            assert_error(&observe(addr, &id, "BLACK", None).await, 409, "GAME_OVER");
            assert_error(&place(addr, &id, "WHITE", 9, 9).await, 409, "GAME_OVER");
            return;
        }
        assert_eq!(last["gameState"]["status"], "playing");
        assert!(
            last["gameState"]["board"][0][0]["observedColor"].is_null(),
            "QGM-023: colours withdrawn"
        );
    }
    assert_error(
        &observe(addr, &id, "BLACK", None).await,
        409,
        "OBS_LIMIT_EXCEEDED",
    );
    assert_eq!(last["gameState"]["blackObservationsRemaining"], 0);
}

#[tokio::test]
async fn qgm_023_the_seed_field_makes_observations_reproducible() {
    let addr = server().await;
    let a = create(addr).await;
    let b = create(addr).await;
    for id in [&a, &b] {
        for (p, r, c) in [
            ("BLACK", 0, 0),
            ("WHITE", 1, 1),
            ("BLACK", 2, 2),
            ("WHITE", 3, 3),
        ] {
            assert_eq!(place(addr, id, p, r, c).await.status, 200);
        }
    }
    let ra = observe(addr, &a, "WHITE", Some(4242)).await.json();
    let rb = observe(addr, &b, "WHITE", Some(4242)).await.json();
    assert_eq!(
        ra["observationResult"]["resultBoard"],
        rb["observationResult"]["resultBoard"]
    );
}

#[tokio::test]
async fn qgm_030_031_reset_and_delete() {
    let addr = server().await;
    let id = create(addr).await;
    let initial = get(addr, &format!("{API}/games/{id}")).await.json();
    assert_eq!(place(addr, &id, "BLACK", 1, 1).await.status, 200);
    let r = raw(addr, "POST", &format!("{API}/games/{id}/reset"), &[], b"").await;
    assert_eq!(r.status, 200);
    assert_eq!(r.json(), initial);
    let r = raw(addr, "DELETE", &format!("{API}/games/{id}"), &[], b"").await;
    assert_eq!(r.status, 200);
    assert_eq!(r.json(), json!({"success": true}));
    assert_error(
        &get(addr, &format!("{API}/games/{id}")).await,
        404,
        "NOT_FOUND",
    );
    assert_error(
        &raw(addr, "DELETE", &format!("{API}/games/{id}"), &[], b"").await,
        404,
        "NOT_FOUND",
    );
    assert_error(
        &raw(addr, "POST", &format!("{API}/games/{id}/reset"), &[], b"").await,
        404,
        "NOT_FOUND",
    );
}

#[tokio::test]
async fn qgm_040_draw_over_http() {
    let addr = server().await;
    let r = post_json(
        addr,
        &format!("{API}/games"),
        &json!({"boardSize": 3, "winLength": 3}),
    )
    .await;
    let id = r.json()["gameId"].as_str().expect("an id").to_owned();
    assert_eq!(place(addr, &id, "BLACK", 0, 0).await.status, 200);
    for _ in 0..5 {
        assert_eq!(observe(addr, &id, "BLACK", None).await.status, 200);
    }
    assert_eq!(place(addr, &id, "WHITE", 2, 2).await.status, 200);
    for _ in 0..5 {
        assert_eq!(observe(addr, &id, "WHITE", None).await.status, 200);
    }
    let cells = [(0, 1), (0, 2), (1, 0), (1, 1), (1, 2), (2, 0), (2, 1)];
    let mut last = Value::Null;
    for (i, (r, c)) in cells.iter().enumerate() {
        let p = if i % 2 == 0 { "BLACK" } else { "WHITE" };
        let reply = place(addr, &id, p, *r, *c).await;
        assert_eq!(reply.status, 200);
        last = reply.json();
    }
    assert_eq!(last["gameState"]["status"], "draw");
    assert_eq!(last["gameState"]["winner"], Value::Null);
}

/// A named request: headers, body, and the status and code it must get.
type Case<'a> = (&'a str, &'a [(&'a str, &'a str)], &'a [u8], u16, &'a str);

#[tokio::test]
async fn malformed_requests_are_refused_in_the_error_model() {
    let addr = server().await;
    let id = create(addr).await;
    let moves = format!("{API}/games/{id}/moves");
    let ct = [("Content-Type", "application/json")];
    let bad = (400, "INVALID_REQUEST");
    let media = (415, "UNSUPPORTED_MEDIA_TYPE");
    let cases: [Case; 8] = [
        (
            "malformed JSON",
            &ct,
            b"{\"playerId\": \"BLACK\", ",
            bad.0,
            bad.1,
        ),
        (
            "wrong type",
            &ct,
            br#"{"playerId":"BLACK","position":{"row":"7","col":7}}"#,
            bad.0,
            bad.1,
        ),
        (
            "fraction",
            &ct,
            br#"{"playerId":"BLACK","position":{"row":7.5,"col":7}}"#,
            bad.0,
            bad.1,
        ),
        (
            "unknown player",
            &ct,
            br#"{"playerId":"RED","position":{"row":7,"col":7}}"#,
            bad.0,
            bad.1,
        ),
        (
            "unknown field",
            &ct,
            br#"{"playerId":"BLACK","position":{"row":7,"col":7},"cheat":true}"#,
            bad.0,
            bad.1,
        ),
        (
            "missing field",
            &ct,
            br#"{"playerId":"BLACK"}"#,
            bad.0,
            bad.1,
        ),
        (
            "missing content type",
            &[],
            br#"{"playerId":"BLACK","position":{"row":7,"col":7}}"#,
            media.0,
            media.1,
        ),
        (
            "wrong content type",
            &[("Content-Type", "text/plain")],
            br#"{"playerId":"BLACK","position":{"row":7,"col":7}}"#,
            media.0,
            media.1,
        ),
    ];
    for (name, headers, body, status, code) in cases {
        let r = raw(addr, "POST", &moves, headers, body).await;
        assert_eq!(r.status, status, "{name}");
        assert_error(&r, status, code);
    }
    let r = raw(
        addr,
        "POST",
        &format!("{API}/games/{id}/observations"),
        &ct,
        br#"{"playerId":"BLACK","seed":-1}"#,
    )
    .await;
    assert_error(&r, 400, "INVALID_REQUEST");
    let r = raw(
        addr,
        "POST",
        &format!("{API}/games/{id}/observations"),
        &ct,
        b"",
    )
    .await;
    assert_error(&r, 400, "INVALID_REQUEST");
    // Nothing was placed by any of them.
    assert_eq!(
        get(addr, &format!("{API}/games/{id}")).await.json()["gameState"]["turnCount"],
        0
    );
}

#[tokio::test]
async fn oversized_bodies_are_400_in_the_error_model() {
    let addr = start(ServerConfig {
        body_limit: 1024,
        ..test_config()
    })
    .await
    .addr;
    let id = create(addr).await;
    let padding = " ".repeat(4096);
    let body = format!("{{\"playerId\":\"BLACK\",{padding}\"position\":{{\"row\":1,\"col\":1}}}}");
    let r = raw(
        addr,
        "POST",
        &format!("{API}/games/{id}/moves"),
        &[("Content-Type", "application/json")],
        body.as_bytes(),
    )
    .await;
    assert_error(&r, 400, "INVALID_REQUEST");
    // The server keeps serving.
    assert_eq!(get(addr, &format!("{API}/games/{id}")).await.status, 200);
}

#[tokio::test]
async fn unknown_routes_and_methods_answer_in_the_error_model() {
    let addr = server().await;
    assert_error(
        &get(addr, &format!("{API}/nothing")).await,
        404,
        "NOT_FOUND",
    );
    assert_error(
        &raw(addr, "PUT", &format!("{API}/games"), &[], b"").await,
        405,
        "METHOD_NOT_ALLOWED",
    );
    assert_error(&get(addr, "/").await, 404, "NOT_FOUND");
}

#[tokio::test]
async fn the_game_store_is_bounded() {
    let addr = start(ServerConfig {
        max_games: 2,
        ..test_config()
    })
    .await
    .addr;
    let first = create(addr).await;
    create(addr).await;
    create(addr).await;
    assert_error(
        &get(addr, &format!("{API}/games/{first}")).await,
        404,
        "NOT_FOUND",
    );
}

#[tokio::test]
async fn static_files_are_served_at_the_root() {
    let dir: PathBuf = std::env::temp_dir().join(format!("qg-static-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("pkg")).expect("temp dir");
    std::fs::write(dir.join("index.html"), "<html>qg</html>").expect("write");
    std::fs::write(dir.join("pkg/app.wasm"), b"\0asm").expect("write");
    let addr = start(ServerConfig {
        static_dir: Some(dir.clone()),
        ..test_config()
    })
    .await
    .addr;
    let r = get(addr, "/?gameId=123e4567-e89b-42d3-a456-426614174000").await;
    assert_eq!(r.status, 200);
    // The page, with the tag that tells it the API is on its origin.
    let page = format!("<html>qg</html>{}", quantum_gomoku_server::API_META);
    assert_eq!(r.body, page.as_bytes());
    let r = get(addr, "/pkg/app.wasm").await;
    assert_eq!(r.status, 200);
    assert!(
        r.headers
            .to_ascii_lowercase()
            .contains("content-type: application/wasm")
    );
    assert_error(&get(addr, "/../Cargo.toml").await, 404, "NOT_FOUND");
    assert_error(&get(addr, "/missing.js").await, 404, "NOT_FOUND");
    // The API still wins over the directory.
    assert_eq!(
        raw(addr, "POST", &format!("{API}/games"), &[], b"")
            .await
            .status,
        201
    );
    let _ = std::fs::remove_dir_all(&dir);
}
