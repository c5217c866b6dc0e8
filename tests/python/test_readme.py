"""Every Python example in the docs runs as written: the README's package example, the Python
package's README and the module docstring (a doctest)."""

import doctest
import os
import pathlib
import re

import batchgen

ROOT = pathlib.Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
PACKAGE_README = ROOT / "src" / "python" / "README.md"


def python_blocks(page):
    """The ```python blocks of a Markdown page, in order."""
    return re.findall(r"^```python\n(.*?)^```", page.read_text(), re.S | re.M)


def run_block(block, name, monkeypatch):
    """Run one block from the clone's root (where the docs say to run them); its globals."""
    monkeypatch.chdir(ROOT)
    scope = {}
    exec(compile(block, name, "exec"), scope)
    return scope


def test_the_readme_python_example_runs(monkeypatch):
    examples = [b for b in python_blocks(README) if b.startswith("import batchgen")]
    assert len(examples) == 1, "the README has one batchgen example"
    scope = run_block(examples[0], "README.md", monkeypatch)
    level = scope["level"]
    assert level.metrics["solution_length"] >= 180
    assert level.connection_list.shape == (2, 32, 32)


def test_every_example_of_the_package_readme_runs(monkeypatch):
    blocks = python_blocks(PACKAGE_README)
    assert blocks, "src/python/README.md shows at least one example"
    for k, block in enumerate(blocks):
        assert block.lstrip().startswith("import "), (
            f"src/python/README.md example {k} does not start with its imports:\n{block}"
        )
        scope = run_block(block, f"src/python/README.md example {k}", monkeypatch)
        if "level" in scope:
            level = scope["level"]
            assert level.mask is not None
            assert level.metrics["solution_length"] >= 1


def test_every_code_fence_of_the_package_readme_is_closed():
    # A fence closed on a line with text after it leaves the rest of the page as code.
    fences = [
        line for line in PACKAGE_README.read_text().splitlines() if line.lstrip().startswith("```")
    ]
    assert len(fences) % 2 == 0, fences
    for opening, closing in zip(fences[::2], fences[1::2]):
        assert closing.strip() == "```", f"a fence is closed by {closing!r} (opened {opening!r})"


def test_the_module_docstring_example_runs(monkeypatch):
    monkeypatch.chdir(ROOT)
    finder = doctest.DocTestFinder(recurse=False)
    tests = finder.find(batchgen, "batchgen", globs={})
    assert tests and tests[0].examples, "the module docstring has an example"
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for t in tests:
        runner.run(t)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} docstring lines failed"
    assert result.attempted >= 4
    assert os.getcwd() == str(ROOT)
