"""An on-disk cache for the preprocessor, as ccache is for a C compiler.

The same shape{} text always compiles to the same list, and the same output
always gets the same checker findings. People run a script again and again
(new seeds, a changed action), so the second run looks both up instead of
compiling and checking again.

- Where: ``$DEALERPP_CACHE_DIR``, else ``$XDG_CACHE_HOME/dealerpp``, else
  ``~/.cache/dealerpp``. ``DEALERPP_CACHE=0`` turns the cache off.
- One JSON file per version of the code: its name holds a fingerprint of the
  package's own files (path, size, modification time), so an upgrade or an
  edit of the compiler never reads old results.
- JSON, never pickle; written to a temporary file and renamed. Any problem
  reading or writing it means no cache, never an error.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

MAX_ENTRIES = 20000
_PACKAGE = Path(__file__).resolve().parent.parent
_GRAMMARS = (_PACKAGE / "grammar", _PACKAGE.parent / "grammar")


def cache_dir() -> Path | None:
    if os.environ.get("DEALERPP_CACHE", "1") == "0":
        return None
    explicit = os.environ.get("DEALERPP_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "dealerpp"


def fingerprint() -> str:
    """A short hash of the code that produces cached results."""
    digest = hashlib.sha256()
    for folder in (_PACKAGE, *_GRAMMARS):
        if not folder.is_dir():
            continue
        for path in sorted(folder.rglob("*")):
            if path.suffix in (".py", ".lark", ".json"):  # code, grammars, parse tables
                stat = path.stat()
                digest.update(f"{path.relative_to(folder)}:{stat.st_size}:{stat.st_mtime_ns};"
                              .encode())
    return digest.hexdigest()[:16]


class ResultCache:
    """String keys to JSON values, loaded once and saved once."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.entries: dict[str, Any] = {}
        self.dirty = False
        if path is not None:
            try:
                loaded = json.loads(path.read_text(encoding="utf-8"))
                if isinstance(loaded, dict):
                    self.entries = loaded
            except (OSError, ValueError):
                pass

    @classmethod
    def open(cls) -> ResultCache:
        folder = cache_dir()
        return cls(None if folder is None else folder / f"results-{fingerprint()}.json")

    def get(self, kind: str, key: str) -> Any:
        return self.entries.get(_key(kind, key))

    def put(self, kind: str, key: str, value: Any) -> None:
        if self.path is None:
            return
        self.entries[_key(kind, key)] = value
        self.dirty = True

    def save(self) -> None:
        if self.path is None or not self.dirty:
            return
        if len(self.entries) > MAX_ENTRIES:  # keep the newer half
            keep = list(self.entries.items())[-MAX_ENTRIES // 2:]
            self.entries = dict(keep)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=".results-", suffix=".tmp")
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                json.dump(self.entries, handle, separators=(",", ":"))
            os.replace(tmp, self.path)
            self.dirty = False
        except OSError:
            pass


def _key(kind: str, key: str) -> str:
    if len(key) > 200:  # long texts (a whole script) are stored by their hash
        key = hashlib.sha256(key.encode("utf-8", errors="surrogateescape")).hexdigest()
    return f"{kind}:{key}"


_NO_CACHE = ResultCache(None)


def no_cache() -> ResultCache:
    return _NO_CACHE
