"""The README's Python example runs as written."""

import pathlib
import re

README = pathlib.Path(__file__).resolve().parents[2] / "README.md"


def test_the_readme_python_example_runs():
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), re.S)
    examples = [b for b in blocks if b.startswith("import batchgen")]
    assert len(examples) == 1, "the README has one batchgen example"
    scope = {}
    exec(compile(examples[0], "README.md", "exec"), scope)
    level = scope["level"]
    assert level.metrics["solution_length"] >= 180
    assert level.connection_list.shape == (2, 32, 32)
