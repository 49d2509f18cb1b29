"""Game rows as a pandas DataFrame (the ``lab`` extra: ``pip install 'bestiary[lab]'``).

pandas rather than polars: it is what designers' notebooks, plotting libraries and statsmodels
already take, and with pyarrow it writes the same Parquet file; the rows are small (one per
game), so polars' speed would not show.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd


def frame(rows: Sequence[dict[str, Any]]) -> pd.DataFrame:
    """One row per game, columns as in ``bestiary.sim.table``."""
    try:
        import pandas as pd
    except ModuleNotFoundError:
        raise ValueError("tables need pandas and pyarrow: pip install 'bestiary[lab]'") from None
    from bestiary.sim.table import columns

    data = pd.DataFrame(list(rows), columns=columns(rows))
    for column in data.columns:
        if column.startswith(("bot_", "score_")) and data[column].isna().any():
            # A narrower game in a sweep over players: its missing seats stay empty, not NaN text.
            data[column] = data[column].astype("Int64" if column.startswith("score_") else "string")
    return data
