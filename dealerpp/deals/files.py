"""Deal files a deal at a time: ``read`` a path or an open file, ``loads``
content in memory, ``write`` a path (atomically) or a file, ``dumps`` into
content; ``read_source`` for any source the format modules take. Each
finds the format's module through the registry (:mod:`dealerpp.deals.formats`)
and imports only that one. :mod:`dealerpp.deals` offers these names.
"""

from __future__ import annotations

import errno
import io
import os
from collections.abc import Iterable, Iterator
from typing import IO, TYPE_CHECKING, Any, Union

from dealerpp.deals import formats
from dealerpp.deals.options import WriteOptions
from dealerpp.diagnostics import DppError

if TYPE_CHECKING:
    from dealerpp.deals.model import Deal
    from dealerpp.deals.options import ReadOptions, Source
_WRITE = WriteOptions()

File = Union[str, "os.PathLike[str]", IO[Any]]


def read(file: File, format: str | None = None, *, filename: str | None = None,
         first_board: int | None = None) -> Iterator[Deal]:
    """The deals of ``file`` (a path, or a file object open for reading),
    lazily. ``format`` is one of FORMATS; by default it comes from the
    file's extension or its content. A missing file raises
    FileNotFoundError now (a name is never read as deal text: that is
    ``loads``); a bad record, DppError naming it when it is reached.

    ``first_board``: number the boards from there, with dealer and
    vulnerability by the cycle (``convert --first-board``); a format that
    holds no board numbers is read with that numbering, since a .bhg hand
    starts with its board's dealer."""
    if isinstance(file, (bytes, bytearray, memoryview)):
        raise TypeError("deals.read takes a path or an open file; for content use deals.loads")
    refuse_not_a_file(file, "deals.read takes", writing=False)
    if isinstance(file, (str, os.PathLike)):
        file = existing_path(os.fspath(file))
    return read_source(file, format, filename=filename, first_board=first_board)


def loads(data: str | bytes, format: str | None = None, *, filename: str | None = None,
          first_board: int | None = None) -> list[Deal]:
    """The deals of ``data``, the content of a deal file (text, or bytes
    for any format). ``format`` as for ``read``; by default from the
    content."""
    if not isinstance(data, (str, bytes, bytearray, memoryview)):
        raise TypeError(f"deals.loads takes str or bytes, not {type(data).__name__}")
    content: str | bytes = data if isinstance(data, (str, bytes)) else bytes(data)
    if isinstance(content, str) and format is not None and formats.get(format).binary:
        content = content.encode("utf-8", "surrogateescape")
    return list(read_source(_as_content(content), format, filename=filename,
                            first_board=first_board))


def dumps(deals: Iterable[Deal], format: str,
          options: WriteOptions | None = None) -> str | bytes:
    """The deals in ``format``: bytes for a binary format, else text
    (``options``: the writer's, dealerpp.deals.options)."""
    found = formats.get(format)
    writer = found.load_writer()
    _refuse_one_deal(deals, "dumps")
    out = io.BytesIO()
    writer(deals, out, options or _WRITE)
    data = out.getvalue()
    return data if found.binary else data.decode("utf-8", "surrogateescape")


def write(file: File, deals: Iterable[Deal], format: str | None = None,
          options: WriteOptions | None = None) -> None:
    """Write ``deals`` to ``file`` (a path, or a file object open for
    writing) in ``format`` (by default from the name's extension). A path
    is written atomically, as the convert command writes: replaced whole
    once every deal is written, or left as it was. ``options``: the
    writer's (dealerpp.deals.options: an html page's title, a sealed .dlm)."""
    if isinstance(deals, (str, bytes, os.PathLike)) or hasattr(deals, "write"):
        raise TypeError("deals.write(file, deals, format=None): the file comes first")
    refuse_not_a_file(file, "deals.write takes", writing=True)
    if format is None:
        name = file if isinstance(file, (str, os.PathLike)) else getattr(file, "name", None)
        shown = os.fspath(name) if isinstance(name, (str, os.PathLike)) else None
        format = formats.from_extension(shown)
        if format is None:
            raise no_output_format(shown)
    writer = formats.get(format).load_writer()
    _refuse_one_deal(deals, "write")
    if isinstance(file, (str, os.PathLike)):
        from dealerpp.atomic import atomic_writer

        with atomic_writer(file) as out:
            writer(deals, out, options or _WRITE)
    else:
        writer(deals, file, options or _WRITE)


def refuse_not_a_file(file: object, takes: str, *, writing: bool) -> None:
    """TypeError, now, for what is neither a path nor a file open for
    reading (``writing``: for writing): it would fail later, deep in a
    reader or writer, as an AttributeError that names no argument."""
    if isinstance(file, (str, os.PathLike)) or hasattr(file, "write" if writing else "read"):
        return
    raise TypeError(f"{takes} a path or a file open for {'writing' if writing else 'reading'}, "
                    f"not {type(file).__name__}")


def no_output_format(name: str | None) -> DppError:
    """The error for an output whose name says no format (a typo'd
    extension: the hint names the extensions it is close to)."""
    # ('<stdout>': Python's name for a stream with no file's name)
    hint = (f"{name} is a stream's name, which says no format" if name and name[0] == "<"
            and name[-1] == ">" else formats.extension_hint(name))
    return DppError("cannot tell the output format from the name; give format", filename=name,
                    hint=hint, output=True)


def _refuse_one_deal(deals: object, name: str) -> None:
    """TypeError for one Deal where deals are asked for: iterated, it gives
    its four hands, and the writer would fail on the first one."""
    from dealerpp.deals.model import Deal  # loaded already: the writer uses it

    if isinstance(deals, Deal):
        raise TypeError(f"deals.{name} takes deals (an iterable of Deal); for one deal: [deal]")


def read_source(source: Source, format: str | None = None, *, filename: str | None = None,
                first_board: int | None = None, options: ReadOptions | None = None
                ) -> Iterator[Deal]:
    """``read`` for any source the format modules take: a path, a file
    object, or the content itself (bytes, or a str that holds a newline or
    names no file; see dealerpp.deals._io). ``options``: the reader's
    (dealerpp.deals.options), ``first_board`` in them when given."""
    from dealerpp.deals import detect
    from dealerpp.deals._io import sync_text_layer
    from dealerpp.deals.options import ReadOptions

    if not sync_text_layer(source):
        from dealerpp.deals._io import source_name

        # (read whole: only the text layer knows where its text stands)
        filename = source_name(source, filename)
        source = io.StringIO(source.read())  # type: ignore[union-attr]
    given = source
    if format is None:
        format, source = detect.detect(source, filename)
        if format is None:
            return iter(())
    options = options or ReadOptions()
    if first_board is not None:
        options = options._replace(first_board=first_board)
    found = formats.get(format)
    if found.binary:
        deals = found.load_reader()(source, filename, options)
    else:
        text_source, opened = detect.as_utf8(source)  # a text saved as UTF-16 reads as its UTF-8
        # (a UTF-16 text's twin is not counted: its bytes are not the file's)
        if opened is None and _is_stream(text_source) and not detect.is_utf8_twin(text_source):
            from dealerpp.deals._io import source_name
            from dealerpp.deals.byte_offsets import CountedStream

            # its bytes counted as read: an error's line and column find their byte
            filename = source_name(text_source, filename)
            text_source = CountedStream(text_source)  # type: ignore[arg-type]
        deals = found.load_reader()(text_source, filename, options)
        # a UTF-16 text is read from bytes of its own, not the file's: no byte then
        deals = _with_bytes(deals, text_source) if opened is None else _closing(deals, opened)
    if getattr(given, "buffer", None) is not None:
        deals = _keeping(deals, given)
    return deals


def _is_stream(source: Source) -> bool:
    """Whether ``source`` is a binary stream not counted yet (not a path,
    content, or a text stream without bytes under it)."""
    from dealerpp.deals._io import is_path
    from dealerpp.deals.byte_offsets import CountedStream

    return (not isinstance(source, (str, bytes, bytearray, memoryview, io.TextIOBase,
                                    CountedStream))
            and not is_path(source))


def _keeping(deals: Iterator[Deal], text_file: object) -> Iterator[Deal]:
    """``deals``, read from the binary file under ``text_file`` (a file
    opened in text mode), with ``text_file`` kept while they are: dropped by
    the caller (``deals.read(open(path))``), it would be collected and close
    the binary file under the reader."""
    yield from deals
    del text_file  # (held until here: the reason for this generator)


def _with_bytes(deals: Iterator[Deal], source: Source) -> Iterator[Deal]:
    """``deals``, an error of a text reader placed by its line and column
    given the byte they stand for in the source's bytes as well, where they
    are at hand (a path's, bytes, a stream's kept by a CountedStream)."""
    try:
        yield from deals
    except DppError as error:
        if error.byte is not None or error.output or error.line is None:
            raise
        from dealerpp.deals.byte_offsets import byte_offsets

        offsets = byte_offsets(source)
        byte = None if offsets is None else offsets.offset(error.line, error.column)
        if byte is None:
            raise
        raise error.replace(byte=byte) from None


def _closing(deals: Iterator[Deal], handle: IO[bytes]) -> Iterator[Deal]:
    """``deals``, then ``handle`` closed (also when they are not all read)."""
    with handle:
        yield from deals


def existing_path(path: str) -> _Path:
    """``path``, known to be a file that exists (FileNotFoundError, or
    IsADirectoryError, now, not when the first deal is asked for)."""
    if os.path.isdir(path):
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), path)
    if not os.path.exists(path):
        raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), path)
    return _Path(path)


class _Path(os.PathLike[str]):
    """A path the readers take as a path whatever it looks like (a name
    without a folder or a known extension, such as a FIFO's)."""

    __slots__ = ("path",)

    def __init__(self, path: str) -> None:
        self.path = path

    def __fspath__(self) -> str:
        return self.path


def _as_content(data: str | bytes) -> str | bytes:
    """Content the readers never take for a file name: a str that might
    look like one (no newline) gets a final newline."""
    if isinstance(data, str) and "\n" not in data and data:
        return data + "\n"
    return data
