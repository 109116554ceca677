//! Refusals in the API's error model `{ code, message, details? }`, whoever makes them.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use quantum_gomoku::service::{ApiError, ServiceError};

/// A refused request: its status and the JSON body the client gets.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Refusal {
    pub(crate) status: StatusCode,
    pub(crate) error: ApiError,
}

impl Refusal {
    pub(crate) fn new(status: StatusCode, code: &str, message: impl Into<String>) -> Refusal {
        Refusal {
            status,
            error: ApiError {
                code: code.to_owned(),
                message: message.into(),
                details: None,
            },
        }
    }

    pub(crate) fn with_details(mut self, details: serde_json::Value) -> Refusal {
        self.error.details = Some(details);
        self
    }

    /// The code a bare status gets when a layer below the handlers refused
    /// without saying why (timeouts, the connection limit, hyper's limits).
    pub(crate) fn code_for(status: StatusCode) -> &'static str {
        match status.as_u16() {
            400 => "INVALID_REQUEST",
            403 => "FORBIDDEN",
            404 => "NOT_FOUND",
            405 => "METHOD_NOT_ALLOWED",
            408 => "REQUEST_TIMEOUT",
            413 => "PAYLOAD_TOO_LARGE",
            414 => "URI_TOO_LONG",
            415 => "UNSUPPORTED_MEDIA_TYPE",
            416 => "RANGE_NOT_SATISFIABLE",
            429 => "RATE_LIMITED",
            431 => "HEADERS_TOO_LARGE",
            503 => "UNAVAILABLE",
            s if s >= 500 => "INTERNAL",
            _ => "REFUSED",
        }
    }
}

impl From<ServiceError> for Refusal {
    fn from(e: ServiceError) -> Refusal {
        Refusal {
            status: StatusCode::from_u16(e.http_status()).unwrap_or(StatusCode::BAD_REQUEST),
            error: e.to_api_error(),
        }
    }
}

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        let bytes = serde_json::to_vec(&self.error).unwrap_or_else(|_| {
            br#"{"code":"INTERNAL","message":"could not serialize the error"}"#.to_vec()
        });
        (
            self.status,
            [(
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            )],
            bytes,
        )
            .into_response()
    }
}
