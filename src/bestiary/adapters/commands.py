"""The research commands of ``bestiary``: ``evaluate`` (and its leaderboard) and ``export``.

``cli.py`` registers them with ``register(app)``; nothing heavy is imported until a command
runs (the RL libraries only when a checkpoint is loaded).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

EXIT_BAD_INPUT = 2


def _fail(message: str) -> typer.Exit:
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(EXIT_BAD_INPUT)


def evaluate_command(
    policy: Annotated[
        str | None,
        typer.Argument(
            help="A bot name of the game, module:NAME (a policy or a bot factory), an SB3 "
            ".zip or a TorchScript .pt file."
        ),
    ] = None,
    game: Annotated[str, typer.Option(help="critters or wild.")] = "critters",
    variant: Annotated[str | None, typer.Option(help="A variant with a protocol (small).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the scores as JSON.")] = False,
    leaderboard: Annotated[
        bool, typer.Option("--leaderboard", help="Score every bot and released checkpoint.")
    ] = False,
    write: Annotated[
        Path | None, typer.Option(help="--leaderboard: write the page here, not to stdout.")
    ] = None,
    protocols: Annotated[
        bool, typer.Option("--protocols", help="Print every protocol as JSON and exit.")
    ] = False,
) -> None:
    """Score a policy on the fixed, versioned protocol of a game (win share, 95% interval)."""
    from bestiary.adapters import evaluate as ev
    from bestiary.core.errors import BadOption

    if protocols:
        typer.echo(json.dumps({k: p.as_json() for k, p in ev.protocols().items()}, indent=1))
        return
    if leaderboard:
        from bestiary.adapters.leaderboard import leaderboard as page

        text = page(echo=lambda line: typer.echo(line, err=True))
        if write is None:
            typer.echo(text, nl=False)
        else:
            write.write_text(text, encoding="utf-8")
            typer.echo(f"wrote {write}", err=True)
        return
    if policy is None:
        raise _fail("give a POLICY to score, or --leaderboard")
    try:
        proto = ev.protocol(game, variant)
        who = ev.contender(policy, proto)
        label = f"{who.name} on {proto.version}"
        with typer.progressbar(length=proto.games, label=label, file=sys.stderr) as bar:
            result = ev.evaluate(who, game, variant, progress=bar.update)
    except BadOption as err:
        raise _fail(str(err)) from None
    if as_json:
        typer.echo(json.dumps(result.as_json(), indent=1))
    else:
        typer.echo("\n".join(result.lines()))


export_app = typer.Typer(help="Export game records for research.", no_args_is_help=True)


@export_app.command("trajectories")
def export_trajectories_command(
    records: Annotated[
        list[Path] | None,
        typer.Argument(help="Record files (.jsonl) or folders of them (bestiary sim --out)."),
    ] = None,
    db: Annotated[
        str | None, typer.Option(help="A server store's database URL: its finished games.")
    ] = None,
    out: Annotated[Path, typer.Option(help="The file to write: .npz or .parquet.")] = Path(
        "trajectories.npz"
    ),
) -> None:
    """Records as (observation, action, reward, done, mask) steps, each seat's from its view."""
    from bestiary.adapters import trajectories as tj
    from bestiary.core.errors import BadOption

    if not records and db is None:
        raise _fail("give record files or folders, or --db URL")
    if out.suffix not in (".npz", ".parquet"):
        raise _fail(f"write trajectories to a .npz or .parquet file, not {out.name}")
    try:
        sources = list(tj.records_from_paths(records or []))
        if db is not None:
            sources += list(tj.records_from_store(db))
        data = tj.trajectories(sources)
        tj.save(data, out)
    except BadOption as err:
        raise _fail(str(err)) from None
    typer.echo(f"wrote {out}: {len(data)} steps of {len(data.headers)} games")


def register(app: typer.Typer) -> None:
    """Add the research commands to ``app``."""
    app.command("evaluate")(evaluate_command)
    app.add_typer(export_app, name="export")
