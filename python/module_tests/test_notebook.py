"""The example notebook runs from top to bottom, as a researcher would run it."""

import os
import shutil

import nbclient
import nbformat

from conftest import SOURCE_DIR


def test_the_holes_notebook_runs(tmp_path):
    source = os.path.join(SOURCE_DIR, "python", "examples", "holes.ipynb")
    notebook = nbformat.read(source, as_version=4)
    shutil.copy(source, tmp_path)
    client = nbclient.NotebookClient(notebook, timeout=300, kernel_name="python3",
                                     resources={"metadata": {"path": str(tmp_path)}})
    client.execute()
    outputs = [output for cell in notebook.cells if cell.cell_type == "code" for output in cell.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    assert (tmp_path / "strip.svg").exists()
    images = [o for o in outputs if o.output_type == "display_data" and "image/png" in o.get("data", {})]
    assert len(images) >= 2  # the strip and the two timelines
