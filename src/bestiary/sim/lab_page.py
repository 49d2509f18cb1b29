"""``bestiary lab``: the balance lab as a page on this computer (docs/lab.md).

It listens on 127.0.0.1 only and answers only requests addressed to 127.0.0.1 or localhost (a
web page elsewhere cannot reach it by a name that points here); it is its own small app, never
part of ``bestiary serve``. One run plays at a time, in a worker thread, with the same seeded
runner, ``--jobs`` and Ray backend as ``bestiary sim``.
"""

from __future__ import annotations

import itertools
import os
import threading
from importlib import resources
from typing import Any

from fastapi import FastAPI, Request
from fastapi.middleware.trustedhost import TrustedHostMiddleware
from fastapi.responses import HTMLResponse, JSONResponse, Response

from bestiary.core.agent import bot_entries
from bestiary.core.game import games
from bestiary.sim.lab_runs import LabRequest, LabRun, plan_run, play_run
from bestiary.sim.parallel import BACKENDS
from bestiary.sim.table import FORMATS

HOST = "127.0.0.1"
KEEP_RUNS = 20  # finished runs the page can still show and download
# The page's own files only; its figures arrive as data: URLs.
POLICY = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)
FILES = {"/": ("lab.html", "text/html"), "/lab.js": ("lab.js", "text/javascript")}
FILES["/lab.css"] = ("lab.css", "text/css")


def choices() -> dict[str, Any]:
    """What the page offers: each game's players, options and bots (with their parameters)."""
    return {
        "games": [
            {
                **{k: v for k, v in game.info.as_json().items() if k in _GAME_KEYS},
                "bots": [
                    {
                        "name": entry.name,
                        "description": entry.description,
                        "params": [p.as_json() for p in entry.params],
                    }
                    for entry in bot_entries(game.info.name)
                ],
            }
            for game in games()
        ],
        "backends": list(BACKENDS),
        "cores": os.cpu_count() or 1,
    }


_GAME_KEYS = ("name", "title", "min_players", "max_players", "options", "default_bot")


def _bad(sentence: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": sentence}, status_code=status)


def lab_app() -> FastAPI:
    """The page's app: its files, the choices, and runs (start, progress, report, downloads)."""
    app = FastAPI(docs_url=None, redoc_url=None, openapi_url=None)
    app.add_middleware(TrustedHostMiddleware, allowed_hosts=[HOST, "localhost"])
    runs: dict[int, LabRun] = {}
    numbers = itertools.count(1)
    guard = threading.Lock()

    @app.middleware("http")
    async def headers(request: Request, call_next: Any) -> Response:
        response: Response = await call_next(request)
        response.headers["Content-Security-Policy"] = POLICY
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Cache-Control"] = "no-store"
        return response

    for path, (name, kind) in FILES.items():
        text = resources.files("bestiary.sim").joinpath("web", name).read_text("utf-8")

        def serve(text: str = text, kind: str = kind) -> Response:
            return HTMLResponse(text, media_type=kind)

        app.add_api_route(path, serve, methods=["GET"])

    @app.get("/api/choices")
    def get_choices() -> dict[str, Any]:
        return choices()

    @app.post("/api/runs")
    async def start(request: Request) -> JSONResponse:
        # Only the page itself starts runs: JSON (which a page elsewhere cannot send here
        # without the browser asking first, and the lab never agrees) from its own origin.
        if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
            return _bad("runs are started with JSON from the lab's page", 415)
        origin = request.headers.get("origin")
        if origin is not None and origin != f"{request.url.scheme}://{request.url.netloc}":
            return _bad("runs are started from the lab's own page", 403)
        try:
            data = await request.json()
        except ValueError:
            return _bad("the page sent something that is not JSON")
        if not isinstance(data, dict):
            return _bad("the page sent something that is not a set of choices")
        with guard:
            if any(r.status()["state"] == "running" for r in runs.values()):
                return _bad("a run is still playing: wait for it to finish", 409)
            try:
                run, plan = plan_run(next(numbers), LabRequest.from_json(data))
            except ValueError as err:
                return _bad(str(err))
            runs[run.number] = run
            for old in sorted(runs)[:-KEEP_RUNS]:
                del runs[old]
        threading.Thread(target=play_run, args=(run, plan), daemon=True).start()
        return JSONResponse(run.status(), status_code=202)

    def find(number: int) -> LabRun | None:
        with guard:
            return runs.get(number)

    @app.get("/api/runs/{number}")
    def status(number: int) -> JSONResponse:
        run = find(number)
        if run is None:
            return _bad(f"no run {number} (the page keeps the last {KEEP_RUNS})", 404)
        return JSONResponse(run.status())

    @app.get("/api/runs/{number}/report")
    def report(number: int) -> JSONResponse:
        run = find(number)
        if run is None or run.status()["state"] != "done":
            return _bad(f"run {number} has no report (yet)", 404)
        return JSONResponse(run.report())

    @app.get("/api/runs/{number}/games{suffix}")
    def table(number: int, suffix: str) -> Response:
        run = find(number)
        if suffix not in FORMATS:
            return _bad("the games download as .csv or .parquet", 404)
        if run is None or run.status()["state"] != "done":
            return _bad(f"run {number} has no games to download (yet)", 404)
        kind = "text/csv" if suffix == ".csv" else "application/vnd.apache.parquet"
        return Response(
            run.table(suffix),
            media_type=kind,
            headers={"Content-Disposition": f'attachment; filename="games-{number}{suffix}"'},
        )

    return app


def run_lab(port: int) -> None:
    """Serve the page on 127.0.0.1:``port`` until interrupted."""
    import uvicorn

    uvicorn.run(lab_app(), host=HOST, port=port, log_level="warning")
