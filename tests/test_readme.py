"""The README's Python examples run as written."""

from __future__ import annotations

import doctest
import re

from tests.conftest import PROJECT_ROOT


def test_readme_examples() -> None:
    result = doctest.testfile(str(PROJECT_ROOT / "README.md"), module_relative=False,
                              optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted >= 5


def test_every_file_the_readme_shows_is_the_file_in_the_repo() -> None:
    """A block introduced by "(`examples/NAME`):" is that file, byte for byte."""
    readme = (PROJECT_ROOT / "README.md").read_text()
    shown = re.findall(r"\(`([\w./-]+)`\):\n\n```[^\n]*\n(.*?)```", readme, re.DOTALL)
    assert shown, "the README shows no file any more: drop this test or mend the pattern"
    for name, text in shown:
        assert (PROJECT_ROOT / name).read_text() == text, f"README's copy of {name} differs"


def test_every_path_the_readme_names_exists() -> None:
    readme = (PROJECT_ROOT / "README.md").read_text()
    for name in re.findall(r"\b((?:examples|docs|bench|tests|grammar|dealerpp)/[\w./-]*\w)", readme):
        assert (PROJECT_ROOT / name).exists(), f"the README names {name}, which does not exist"


def test_every_page_of_the_docs_is_named_by_the_readme() -> None:
    """A new user finds every page from the README (the library's tour too)."""
    readme = (PROJECT_ROOT / "README.md").read_text()
    for page in sorted((PROJECT_ROOT / "docs").glob("*.md")):
        assert f"docs/{page.name}" in readme, f"the README does not name docs/{page.name}"


# Debian's root gets no /usr/games on its PATH; the README's commands are
# typed with only the virtual environment's bin put in front, as it says.
ROOTS_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"


def _tour_commands() -> list[tuple[str, str]]:
    """Each `$ command` of the README's shell blocks, with the output shown under it."""
    readme = (PROJECT_ROOT / "README.md").read_text()
    commands = []
    for block in re.findall(r"```sh\n(.*?)```", readme, re.DOTALL):
        for command, shown in re.findall(r"^\$ (.*)\n((?:(?!\$ ).*\n)*)", block, re.MULTILINE):
            commands.append((command.partition("  #")[0].strip(), shown.rstrip("\n") + "\n"))
    return commands


def test_the_tour_runs_as_typed_on_roots_path() -> None:
    import subprocess
    import sys
    from pathlib import Path

    if not Path("/usr/games/dealer").exists():
        import pytest

        pytest.skip("dealer is not installed (apt-get install dealer)")
    commands = _tour_commands()
    assert len(commands) >= 6, "the tour has no commands any more: mend the pattern"
    path = f"{Path(sys.executable).parent}:{ROOTS_PATH}"
    checker = doctest.OutputChecker()
    for command, shown in commands:
        done = subprocess.run(["bash", "-c", command], cwd=PROJECT_ROOT, env={"PATH": path},
                              stdin=subprocess.DEVNULL, capture_output=True, text=True,
                              timeout=120, check=False)
        assert done.returncode != 127 and "command not found" not in done.stderr, command
        if shown.strip():  # (an error's message comes after any output)
            assert checker.check_output(shown, done.stdout + done.stderr,
                                        doctest.ELLIPSIS), (command, done.stdout + done.stderr)
        else:
            assert done.returncode == 0, (command, done.stderr)


# Words that name the project's working papers, not anything a user has.
INTERNAL = re.compile(r"seed[- ]?00\d|/work/|shared/(?:spec|seeds|corpus)|\.\./shared")


def test_no_doc_help_or_source_names_internal_things() -> None:
    import subprocess
    import sys

    texts = {str(path.relative_to(PROJECT_ROOT)): path.read_text()
             for path in [PROJECT_ROOT / "README.md", *(PROJECT_ROOT / "docs").glob("*.md")]}
    for command in ([], ["expand"], ["run"], ["check"], ["convert"], ["show"]):
        done = subprocess.run([sys.executable, "-m", "dealerpp", *command, "--help"],
                              capture_output=True, text=True, timeout=60, check=False)
        texts[f"dealerpp {' '.join(command)} --help"] = done.stdout
    for path in [*(PROJECT_ROOT / "dealerpp").rglob("*.py"), *(PROJECT_ROOT / "tools").rglob("*.py")]:
        texts[str(path.relative_to(PROJECT_ROOT))] = path.read_text(encoding="utf-8")
    named = {name: INTERNAL.findall(text) for name, text in texts.items()}
    assert {name: found for name, found in named.items() if found} == {}
