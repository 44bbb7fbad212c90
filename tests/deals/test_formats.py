"""The registry of deal formats (``dealerpp.deals.formats``) is the one list:
``convert``'s choices and help, ``show``'s choices, detection, the bulk path
and docs/formats.md all follow it."""

from __future__ import annotations

import ast
import contextlib
import io
import re
import subprocess
import sys
from pathlib import Path

import pytest
from syrupy.assertion import SnapshotAssertion

from dealerpp import deals as deals_api
from dealerpp.cli import main
from dealerpp.deals import detect, formats
from dealerpp.deals.formats import giblib
from dealerpp.deals.model import Deal
from tests.conftest import PROJECT_ROOT

DOC = PROJECT_ROOT / "docs" / "formats.md"
DEALS_PACKAGE = PROJECT_ROOT / "dealerpp" / "deals"
FULL = Deal.from_pbn("N:5.76.AK97654.Q32 AK84.AKT3.Q.J965 T632.854.J.AK874 QJ97.QJ92.T832.T")


def run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(argv)
    return status, out.getvalue(), err.getvalue()


def offered_choices(argv: list[str]) -> list[str]:
    """The choices argparse lists when given a format that does not exist."""
    status, _, err = run(argv)
    assert status == 2
    match = re.search(r"invalid choice: .*\(choose from (.*)\)", err)
    assert match, err
    return [name.strip(" '") for name in match.group(1).split(",")]


@pytest.mark.parametrize("argv", [
    ["convert", "a.pbn", "b.pbn", "--from", "nonsense"],
    ["convert", "a.pbn", "b.pbn", "--to", "nonsense"],
    ["show", "a.pbn", "--from", "nonsense"],
], ids=["convert --from", "convert --to", "show --from"])
def test_format_choices_are_the_registry(argv: list[str]) -> None:
    assert offered_choices(argv) == list(formats.NAMES)


def convert_help(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("COLUMNS", "100")  # argparse wraps to the terminal
    status, out, _ = run(["convert", "--help"])
    assert status == 0
    return out


def test_convert_help_lists_every_format(monkeypatch: pytest.MonkeyPatch) -> None:
    lines = convert_help(monkeypatch).splitlines()
    for fmt in formats.FORMATS:
        row = next((line for line in lines if line.split()[:1] == [fmt.name]), None)
        assert row is not None, fmt.name
        assert fmt.description in row
        assert row.split()[1:1 + len(fmt.extensions)] == list(fmt.extensions)
        assert ("*" in row.split()) is fmt.fast


def test_convert_help_snapshot(monkeypatch: pytest.MonkeyPatch,
                               snapshot: SnapshotAssertion) -> None:
    assert convert_help(monkeypatch) == snapshot


def documented_rows() -> list[tuple[str, tuple[str, ...], bool, str]]:
    """(name, extensions, bulk, description) of each row of the doc's table
    of formats (the one after its marker comment; other tables, such as the
    keys of a format, are not it)."""
    rows = []
    text = DOC.read_text(encoding="utf-8")
    table = text[text.index("<!-- the rows follow dealerpp/deals/formats/__init__.py"):].split("\n\n")[0]
    for line in table.splitlines():
        if line.startswith("| `"):
            name, extensions, bulk, description = (c.strip() for c in line.strip("|").split("|"))
            rows.append((name.strip("`"), tuple(re.findall(r"`([^`]+)`", extensions)),
                         bulk == "yes", description))
    return rows


def test_every_format_is_documented_as_registered() -> None:
    assert documented_rows() == [(f.name, f.extensions, f.fast, f.description)
                                 for f in formats.FORMATS]


def written(fmt: str) -> bytes:
    """A file of two deals as the format's own writer makes it."""
    deal = Deal(FULL.masks, tricks=giblib.tricks_of_text("88887777A9A977778888", 13)) if fmt == "giblib" \
        else FULL
    out = io.BytesIO()
    deals_api.write(out, [deal, deal], fmt)
    return out.getvalue()


@pytest.mark.parametrize("fmt", formats.NAMES)
def test_each_format_is_claimed_by_its_own_sniffer_alone(fmt: str) -> None:
    head = detect.sniffed(written(fmt))
    assert head is not None
    claims = [f.name for f in formats.FORMATS
              if f.binary == head.binary and f.sniff is not None and f.sniff(head)]
    assert claims == [fmt]
    assert detect.from_content(written(fmt)) == fmt


@pytest.mark.parametrize("fmt", formats.NAMES)
def test_each_extension_names_its_format(fmt: str) -> None:
    for extension in formats.BY_NAME[fmt].extensions:
        assert formats.from_extension(f"dir.x/Deals{extension.upper()}") == fmt
        assert detect.detect(b"", f"deals{extension}")[0] == fmt
    assert formats.from_extension("deals.txt") is None


def test_fast_pairs_are_the_formats_with_a_codec() -> None:
    from dealerpp.deals.bulk.codecs import CODECS

    assert set(CODECS) == set(formats.FAST) == {"deals", "hex", "giblib", "pbn", "oneline",
                                                "bri", "dge", "ber", "lin", "compact",
                                                "listing", "bhg", "dx", "printall", "csv",
                                                "html"}
    for src in formats.NAMES:
        for dst in formats.NAMES:
            expected = src != dst and src in CODECS and dst in CODECS
            assert formats.is_fast_pair(src, dst) is expected


def test_importing_the_registry_loads_neither_the_model_nor_numpy() -> None:
    # the model: its front and each of its parts
    model = ", ".join(repr(f"dealerpp.deals.{name}")
                      for name in ("model", "seat", "cards", "hand", "calls", "deal", "play"))
    code = ("import sys, dealerpp.deals.formats; print(sorted(m for m in sys.modules "
            f"if m in ('numpy', {model}, 'argparse', 'dataclasses')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=PROJECT_ROOT, timeout=60, check=True)
    assert done.stdout.strip() == "[]"



@pytest.mark.parametrize(("src", "dst", "expected"), [
    ("giblib", "oneline", {"giblib", "oneline", "_dealer_output"}),
    ("hex", "bri", {"hex", "bri", "_machines"}),
    ("oneline", "compact", {"oneline", "compact", "_dealer_output"}),
])
def test_a_conversion_imports_only_the_formats_it_uses(src: str, dst: str,
                                                      expected: set[str]) -> None:
    data = deals_api.dumps([FULL], src)
    code = ("import sys; from dealerpp import deals; "
            f"deals.dumps(list(deals.loads({data!r}, {src!r})), {dst!r}); "
            "print(*sorted(m.removeprefix('dealerpp.deals.formats.') for m in sys.modules "
            "if m.startswith('dealerpp.deals.formats.')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=PROJECT_ROOT, timeout=60, check=True)
    assert set(done.stdout.split()) == expected

def imported_modules(path: Path) -> set[str]:
    """Every module a file imports, at its top or inside functions."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


@pytest.mark.parametrize("path", sorted(DEALS_PACKAGE.rglob("*.py")),
                         ids=lambda p: str(p.relative_to(DEALS_PACKAGE)))
def test_deals_imports_no_command_script_or_shape_code(path: Path) -> None:
    """Layers: the deal library stands below the CLI and beside the script
    and shape compilers (deal files know nothing of either)."""
    for module in imported_modules(path):
        assert not module.startswith(("dealerpp.cli", "dealerpp.script", "dealerpp.shapes")), module


FORMATS_DIR = Path(formats.__file__).parent


def test_each_format_is_the_module_of_its_name_and_each_module_a_format() -> None:
    modules = {path.stem for path in FORMATS_DIR.glob("*.py") if not path.name.startswith("_")}
    packages = {path.parent.name for path in FORMATS_DIR.glob("*/__init__.py")}
    assert modules | packages == set(formats.NAMES)


@pytest.mark.parametrize("fmt", formats.FORMATS, ids=lambda f: f.name)
def test_a_format_module_has_what_its_entry_says(fmt: formats.DealFormat) -> None:
    module = fmt.module()
    assert module.__name__ == f"dealerpp.deals.formats.{fmt.name}"
    assert callable(module.read)
    assert callable(getattr(module, "write", None)) is fmt.writable
    assert not hasattr(module, "bulk_codec")  # the bulk table names the codecs


@pytest.mark.parametrize("fmt", formats.FORMATS, ids=lambda f: f.name)
def test_the_bulk_table_has_a_codec_for_each_fast_format(fmt: formats.DealFormat) -> None:
    from dealerpp.deals.bulk.codecs import CODECS, made

    if fmt.bulk:
        assert made(fmt.name).name == fmt.name
        assert CODECS[fmt.name].name == fmt.name
    else:
        with pytest.raises(KeyError):
            made(fmt.name)
        with pytest.raises(KeyError):
            CODECS[fmt.name]


@pytest.mark.parametrize("fmt", formats.FORMATS, ids=lambda f: f.name)
def test_every_reader_and_writer_keeps_the_one_contract(fmt: formats.DealFormat) -> None:
    """read(source, filename=None, options=READ) and
    write(deals, target, options=WRITE), typed as dealerpp.deals.options says."""
    import inspect

    from dealerpp.deals.options import READ, WRITE

    module = fmt.module()
    read = inspect.signature(module.read)
    assert [(p.name, p.default) for p in read.parameters.values()] == [
        ("source", inspect.Parameter.empty), ("filename", None), ("options", READ)]
    assert [str(p.annotation) for p in read.parameters.values()] == [
        "Source", "str | None", "ReadOptions"]
    write = inspect.signature(module.write)
    assert [(p.name, p.default) for p in write.parameters.values()] == [
        ("deals", inspect.Parameter.empty), ("target", inspect.Parameter.empty),
        ("options", WRITE)]
    assert str(write.parameters["options"].annotation) == "WriteOptions"


def test_the_bulk_path_names_no_format() -> None:
    """PBN's and giblib's ways are hooks on their codecs (bulk/hooks.py):
    the chunked converter and the per-deal adapter test for no format name."""
    for name in ("stream.py", "fallback.py"):
        text = (PROJECT_ROOT / "dealerpp" / "deals" / "bulk" / name).read_text(encoding="utf-8")
        assert not re.search(r"""["'](pbn|giblib|hex|oneline|deals)["']""", text), name
        assert "PbnCodec" not in text, name
