"""The lab's example notebook runs top to bottom (examples/lab.ipynb)."""

from __future__ import annotations

from pathlib import Path

import nbformat
from nbclient import NotebookClient

NOTEBOOK = Path(__file__).resolve().parent.parent / "examples" / "lab.ipynb"


def test_the_example_notebook_runs() -> None:
    notebook = nbformat.read(NOTEBOOK, as_version=4)  # type: ignore[no-untyped-call]
    client = NotebookClient(
        notebook,
        timeout=600,
        kernel_name="python3",
        resources={"metadata": {"path": str(NOTEBOOK.parent)}},
    )
    client.execute()
    outputs = [o for cell in notebook.cells if cell.cell_type == "code" for o in cell.outputs]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    text = "".join(str(o.get("data", {}).get("text/plain", o.get("text", ""))) for o in outputs)
    assert "lab_bots:Builder" in text and "Nightfall ended" in text and "lead changes" in text
    # Its plots show: nothing forces a non-displaying backend (the paired plot and the report's
    # sweep figure both come out as images).
    images = [o for o in outputs if "image/png" in o.get("data", {})]
    assert len(images) >= 2
    source = "".join(cell.source for cell in notebook.cells)
    assert "Agg" not in source
