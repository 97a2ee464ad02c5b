"""Refusals, each with an HTTP status and a reason; the API answers them as {"error": reason}."""

from __future__ import annotations

from flask import Flask, Response, jsonify, request
from werkzeug.exceptions import HTTPException

from spellpress.core.play.errors import Conflict, Invalid

# A seat token the table does not know: a phone whose seat was lost (its storage cleared, or
# another table's). Said in words, as the phone shows it.
SEAT_LOST = "this phone has no seat at this table (any more): join it again with its code"


class ApiError(Exception):
    status = 400

    def __init__(self, message: str, headers: dict[str, str] | None = None):
        super().__init__(message)
        self.message, self.headers = message, headers or {}


class BadRequest(ApiError):
    status = 400


class Unauthorized(ApiError):
    status = 401

    def __init__(self, message: str):
        super().__init__(message, {"WWW-Authenticate": 'Bearer realm="spellpress"'})


class Forbidden(ApiError):
    status = 403


class NotFound(ApiError):
    status = 404


class Gone(ApiError):
    status = 410


class UnsupportedMediaType(ApiError):
    status = 415


class TooManyRequests(ApiError):
    status = 429

    def __init__(self, message: str, retry_after: int):
        super().__init__(message, {"Retry-After": str(retry_after)})


class Unavailable(ApiError):
    status = 503

    def __init__(self, message: str, retry_after: int):
        super().__init__(message, {"Retry-After": str(retry_after)})


def _answer(message: str, status: int, headers: dict[str, str] | None = None) -> Response:
    response = jsonify(error=message)
    response.status_code = status
    response.headers.update(headers or {})
    return response


def register(app: Flask) -> None:
    @app.errorhandler(ApiError)
    def api_error(err: ApiError) -> Response:
        return _answer(err.message, err.status, err.headers)

    @app.errorhandler(Invalid)
    def invalid(err: Invalid) -> Response:
        return _answer(str(err), 422)

    @app.errorhandler(Conflict)
    def conflict(err: Conflict) -> Response:
        return _answer(str(err), 409)

    @app.errorhandler(HTTPException)
    def http_error(err: HTTPException) -> Response | HTTPException:
        """JSON for the API (an oversized body, a wrong method...); Flask's own page elsewhere.
        (Flask hands an HTTPException without a code, a routing exception, to no handler.)"""
        if err.code is None or not request.path.startswith("/api/"):
            return err
        reasons = {413: f"the body is larger than {app.config['MAX_CONTENT_LENGTH']} bytes"}
        return _answer(reasons.get(err.code, err.description or err.name), err.code)
