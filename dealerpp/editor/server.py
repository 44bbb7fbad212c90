"""``dealerpp lsp``: the language server, on pygls and lsprotocol.

The one module of the package that imports them (the optional extra
``lsp``). Documents are kept by ``editor.text``, not by pygls's workspace,
which splits lines where the protocol does not (at form feeds, ``\\x1c``,
``\\u2028``); positions are converted through offsets into the text in the
encoding the client negotiated (UTF-16 by default).

Diagnostics: every change marks its document; one worker thread checks the
marked documents one at a time, the most recently changed first, after a
short settling delay. Changes that arrive while a check runs are not
queued: the document is checked once more, with its latest text, when that
check ends, so a burst of typing costs one check more than the burst, not
one per keystroke. A result for a text that has changed since is dropped.
Each document's check is incremental (``editor.incremental``): only the
statements an edit touched are read again. The documents checked last keep
what that needs (``CHECKS_KEPT`` of them; closing a document drops its own),
so memory stays bounded however many are open. Those records are many
objects that live long: once the checks are done, the objects alive are
frozen (``gc.freeze``), so that the collector's full passes, which would
otherwise walk them all every few checks (about 150 ms on a 1,000-line
script), walk only what is new.

No handler lets an exception out: its own problems go to the client's log
(``window/logMessage``) and to standard error, never to standard output,
which carries the protocol alone.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import re
import sys
import traceback
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import suppress
from functools import wraps
from typing import Any, TypeVar

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol, lsp_method

from dealerpp import __version__
from dealerpp.diagnostics import Diagnostic, LineIndex
from dealerpp.editor import complete, fixes, hover
from dealerpp.editor.incremental import IncrementalCheck
from dealerpp.editor.outline import Outline
from dealerpp.editor.text import UTF8, UTF16, UTF32, Document
from dealerpp.lalr import Token

# Seconds a change waits before its check starts, so that the changes an
# editor sends together (a paste, a multi-cursor edit) are checked once.
SETTLE_SECONDS = 0.01
# Outlines (for hover, completion, ...) kept for the documents asked about last.
OUTLINES_KEPT = 4
# Incremental checks kept for the documents checked last.
CHECKS_KEPT = 8
# Checks between two full collections of everything, frozen objects too
# (what became a cycle of garbage after it was frozen is freed then).
CHECKS_BETWEEN_FULL_COLLECTIONS = 200
_WORD = re.compile(r"[A-Za-z0-9_]+|\S")
_SEVERITY = {"error": lsp.DiagnosticSeverity.Error, "warning": lsp.DiagnosticSeverity.Warning,
             "note": lsp.DiagnosticSeverity.Information}
_ENCODINGS = {lsp.PositionEncodingKind.Utf16: UTF16, lsp.PositionEncodingKind.Utf8: UTF8,
              lsp.PositionEncodingKind.Utf32: UTF32}
Handler = TypeVar("Handler", bound=Callable[..., Any])
logger = logging.getLogger(__name__)


class _Protocol(LanguageServerProtocol):
    """pygls's protocol with the text documents left to the server."""

    @lsp_method(lsp.TEXT_DOCUMENT_DID_OPEN)
    def lsp_text_document__did_open(self, params: lsp.DidOpenTextDocumentParams) -> Any:
        yield self.fm.features[lsp.TEXT_DOCUMENT_DID_OPEN], (params,), None

    @lsp_method(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: lsp.DidChangeTextDocumentParams) -> Any:
        yield self.fm.features[lsp.TEXT_DOCUMENT_DID_CHANGE], (params,), None

    @lsp_method(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def lsp_text_document__did_close(self, params: lsp.DidCloseTextDocumentParams) -> Any:
        yield self.fm.features[lsp.TEXT_DOCUMENT_DID_CLOSE], (params,), None


class DealerServer(LanguageServer):
    """The server: its open documents and the diagnostics worker."""

    def __init__(self) -> None:
        super().__init__("dealerpp", __version__, protocol_cls=_Protocol,
                         text_document_sync_kind=lsp.TextDocumentSyncKind.Incremental)
        self.documents: dict[str, Document] = {}
        self.encoding = UTF16
        self._outlines: dict[str, Outline] = {}  # the last asked about last
        self._marked: dict[str, None] = {}  # documents to check, oldest change first
        self._wake: asyncio.Event | None = None
        self._worker: asyncio.Task[None] | None = None
        self._checker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="check")
        # Touched by the checker's one thread only: the checks, the last used last.
        self._checks: dict[str, IncrementalCheck] = {}
        self._checks_done = 0

    # -- the client's log ---------------------------------------------------------

    def log(self, message: str, kind: lsp.MessageType = lsp.MessageType.Log) -> None:
        """A line for the client's log, and standard error."""
        print(f"dealerpp lsp: {message}", file=sys.stderr, flush=True)
        # With no client to tell (it went away), standard error has it.
        with suppress(Exception):
            self.window_log_message(lsp.LogMessageParams(type=kind, message=message))

    def report_server_error(self, error: Exception, source: Any) -> None:
        self.log(f"internal error ({type(error).__name__}: {error})", lsp.MessageType.Error)

    # -- documents ----------------------------------------------------------------

    def open(self, item: lsp.TextDocumentItem) -> None:
        self.documents[item.uri] = Document(item.uri, item.text, item.version, self.encoding,
                                            item.language_id)
        self.mark(item.uri)

    def change(self, params: lsp.DidChangeTextDocumentParams) -> None:
        document = self.documents.get(params.text_document.uri)
        if document is None:
            self.log(f"a change to {params.text_document.uri}, which is not open: ignored")
            return
        for change in params.content_changes:
            if isinstance(change, lsp.TextDocumentContentChangePartial):
                start = document.offset(change.range.start.line, change.range.start.character)
                end = document.offset(change.range.end.line, change.range.end.character)
                document.replace(start, end, change.text)
            else:
                document.set_text(change.text)
        document.version = params.text_document.version
        self.mark(document.uri)

    def close(self, uri: str) -> None:
        if self.documents.pop(uri, None) is not None:
            self._marked.pop(uri, None)
            self._outlines.pop(uri, None)
            self._checker.submit(self._checks.pop, uri, None)
            self.text_document_publish_diagnostics(
                lsp.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    # -- what features ask --------------------------------------------------------

    def outline(self, document: Document) -> Outline:
        """The outline of ``document``'s current text (the last few are kept)."""
        kept = self._outlines.get(document.uri)
        if kept is not None and kept.text is document.text:
            return kept
        made = Outline(document.text)
        self._outlines.pop(document.uri, None)
        self._outlines[document.uri] = made
        while len(self._outlines) > OUTLINES_KEPT:
            del self._outlines[next(iter(self._outlines))]
        return made

    def at(self, uri: str, position: lsp.Position) -> tuple[Document, Outline, int] | None:
        """The document, its outline and the offset of a position in it."""
        document = self.documents.get(uri)
        if document is None:
            return None
        offset = document.offset(position.line, position.character)
        return document, self.outline(document), offset

    def variable_at(self, uri: str,
                    position: lsp.Position) -> tuple[Document, Outline, str] | None:
        """The document, its outline and the variable named at a position."""
        found = self.at(uri, position)
        if found is None:
            return None
        document, outline, offset = found
        token = outline.token_at(offset)
        if token is None or token.type != "IDENT":
            return None
        return document, outline, str(token)

    def snippets(self) -> bool:
        """Whether the client takes snippets in completions."""
        try:
            item = self.client_capabilities.text_document.completion.completion_item  # type: ignore[union-attr]
            return bool(item.snippet_support)  # type: ignore[union-attr]
        except AttributeError:
            return False

    # -- diagnostics --------------------------------------------------------------

    def mark(self, uri: str) -> None:
        """``uri`` changed: check it soon."""
        self._marked.pop(uri, None)
        self._marked[uri] = None
        if self._wake is None:
            self._wake = asyncio.Event()
            self._worker = asyncio.get_running_loop().create_task(self._check_marked())
        self._wake.set()

    async def _check_marked(self) -> None:
        assert self._wake is not None
        loop = asyncio.get_running_loop()
        while True:
            await self._wake.wait()
            self._wake.clear()
            await asyncio.sleep(SETTLE_SECONDS)
            while self._marked:
                uri = next(reversed(self._marked))
                del self._marked[uri]
                document = self.documents.get(uri)
                if document is None:
                    continue
                text, version = document.text, document.version
                try:
                    found = await loop.run_in_executor(
                        self._checker, self.check_document, text, uri, document.language)
                except Exception as error:  # check_text never raises; this is a bug of ours
                    self.log(f"checking {uri} failed: {error!r}\n{traceback.format_exc()}",
                             lsp.MessageType.Error)
                    continue
                current = self.documents.get(uri)
                if current is not document or current.text is not text:
                    continue  # changed (and marked again), closed or opened again meanwhile
                self.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(
                    uri=uri, version=version, diagnostics=to_protocol(found, current, text)))
                self._checks_done += 1
            self.freeze_survivors()

    def freeze_survivors(self) -> None:
        """All checks done: what is alive now lives on (documents, records)
        and leaves the collector's passes; now and then it is all collected."""
        if self._checks_done >= CHECKS_BETWEEN_FULL_COLLECTIONS:
            self._checks_done = 0
            gc.unfreeze()
        gc.collect()
        gc.freeze()

    def check_document(self, text: str, uri: str, language: str) -> list[Diagnostic]:
        """check's diagnostics for the text of document ``uri`` (in the checker's thread)."""
        filename = filename_of(uri)
        dpp = True if language == "dealerpp" else None
        check, fresh = self._checks.pop(uri, None), IncrementalCheck(filename, dpp)
        if check is None or (check.filename, check.dpp) != (fresh.filename, fresh.dpp):
            check = fresh
        self._checks[uri] = check
        while len(self._checks) > CHECKS_KEPT:
            del self._checks[next(iter(self._checks))]
        return check.check(text)


def filename_of(uri: str) -> str:
    """The file name a ``file:`` URI names (check decides on .dpp by it), or the URI."""
    if not uri.startswith("file://"):
        return uri
    from urllib.parse import unquote

    path = unquote(uri[len("file://"):])
    return path[path.index("/"):] if "/" in path else path


def to_protocol(found: list[Diagnostic], document: Document,
                text: str) -> list[lsp.Diagnostic]:
    """check's diagnostics as the protocol's, over the word each points at."""
    lines = LineIndex(text)
    result = []
    for diagnostic in found:
        start, end = span_of(diagnostic, lines)
        message = diagnostic.message
        if diagnostic.hint:
            message += f"\nhint: {diagnostic.hint}"
        result.append(lsp.Diagnostic(
            range=protocol_range(document, start, end), message=message,
            severity=_SEVERITY.get(diagnostic.severity, lsp.DiagnosticSeverity.Information),
            code=diagnostic.code, source="dealerpp",
            related_information=related_to(diagnostic, document, lines)))
    return result


def related_to(diagnostic: Diagnostic, document: Document,
               lines: LineIndex) -> list[lsp.DiagnosticRelatedInformation] | None:
    """The other line a message names ("replaces the one on line 3"), as a
    place the editor can go to."""
    span = None if diagnostic.related_line is None else lines.line_span(diagnostic.related_line)
    if span is None:
        return None
    location = lsp.Location(uri=document.uri, range=protocol_range(document, *span))
    return [lsp.DiagnosticRelatedInformation(location=location,
                                             message=f"line {diagnostic.related_line}")]


def span_of(diagnostic: Diagnostic, lines: LineIndex) -> tuple[int, int]:
    """The offsets a diagnostic covers: the word (or character) at its column;
    its whole line when it has no column; the start of the text when it has
    no line."""
    if diagnostic.line is None:
        return 0, 0
    span = lines.line_span(diagnostic.line)
    if span is None:
        return len(lines.text), len(lines.text)
    line_start, line_end = span
    if diagnostic.column is None:
        return line_start, line_end
    start = min(line_start + max(diagnostic.column - 1, 0), line_end)
    found = _WORD.match(lines.text, start, line_end)
    return start, found.end() if found is not None else start


def protocol_range(document: Document, start: int, end: int) -> lsp.Range:
    start_line, start_character = document.position(start)
    end_line, end_character = document.position(end)
    return lsp.Range(start=lsp.Position(line=start_line, character=start_character),
                     end=lsp.Position(line=end_line, character=end_character))


def guarded(default: Any = None) -> Callable[[Handler], Handler]:
    """A handler that never lets an exception out: it is logged, and the
    client gets ``default``."""

    def wrap(handler: Handler) -> Handler:
        @wraps(handler)
        def guarded_handler(server: DealerServer, params: Any) -> Any:
            try:
                return handler(server, params)
            except Exception as error:
                server.log(f"{handler.__name__} failed ({type(error).__name__}: {error})\n"
                           f"{traceback.format_exc()}", lsp.MessageType.Error)
                return default

        return guarded_handler  # type: ignore[return-value]

    return wrap


def build() -> DealerServer:
    """The server with every feature registered."""
    server = DealerServer()

    @server.feature(lsp.INITIALIZED)
    @guarded()
    def initialized(server: DealerServer, params: lsp.InitializedParams) -> None:
        chosen = server.server_capabilities.position_encoding or lsp.PositionEncodingKind.Utf16
        server.encoding = _ENCODINGS.get(chosen, UTF16)  # type: ignore[call-overload]

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    @guarded()
    def did_open(server: DealerServer, params: lsp.DidOpenTextDocumentParams) -> None:
        server.open(params.text_document)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    @guarded()
    def did_change(server: DealerServer, params: lsp.DidChangeTextDocumentParams) -> None:
        server.change(params)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    @guarded()
    def did_close(server: DealerServer, params: lsp.DidCloseTextDocumentParams) -> None:
        server.close(params.text_document.uri)

    register_features(server)
    return server


# -- features beyond diagnostics ------------------------------------------------------

_ITEM_KINDS = {complete.KEYWORD: lsp.CompletionItemKind.Keyword,
               complete.FUNCTION: lsp.CompletionItemKind.Function,
               complete.VARIABLE: lsp.CompletionItemKind.Variable,
               complete.VALUE: lsp.CompletionItemKind.EnumMember,
               complete.SNIPPET: lsp.CompletionItemKind.Snippet}
_SYMBOL_KINDS = {"assignment": lsp.SymbolKind.Variable, "condition": lsp.SymbolKind.Event,
                 "action": lsp.SymbolKind.Function}


def register_features(server: DealerServer) -> None:
    """Hover, completion, definition, references, symbols and quick fixes."""

    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    @guarded()
    def on_hover(server: DealerServer, params: lsp.HoverParams) -> lsp.Hover | None:
        found = server.at(params.text_document.uri, params.position)
        if found is None:
            return None
        document, outline, offset = found
        about = hover.hover(outline, offset)
        if about is None:
            return None
        text, start, end = about
        return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=text),
                         range=protocol_range(document, start, end))

    @server.feature(lsp.TEXT_DOCUMENT_COMPLETION,
                    lsp.CompletionOptions(trigger_characters=["(", ","]))
    @guarded()
    def on_completion(server: DealerServer,
                      params: lsp.CompletionParams) -> lsp.CompletionList | None:
        found = server.at(params.text_document.uri, params.position)
        if found is None:
            return None
        document, outline, offset = found
        word_start, items = complete.completions(outline, offset)
        where = protocol_range(document, word_start, offset)
        snippets = server.snippets()
        return lsp.CompletionList(is_incomplete=False, items=[
            completion_item(item, where, snippets) for item in items])

    @server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
    @guarded()
    def on_definition(server: DealerServer,
                      params: lsp.DefinitionParams) -> list[lsp.Location] | None:
        found = server.variable_at(params.text_document.uri, params.position)
        if found is None:
            return None
        document, outline, name = found
        statement = outline.definition_of(name)
        if statement is None or statement.name is None:
            return None
        return [location(document, statement.name)]

    @server.feature(lsp.TEXT_DOCUMENT_REFERENCES)
    @guarded()
    def on_references(server: DealerServer,
                      params: lsp.ReferenceParams) -> list[lsp.Location] | None:
        found = server.variable_at(params.text_document.uri, params.position)
        if found is None:
            return None
        document, outline, name = found
        tokens = list(outline.uses.get(name, []))
        if params.context.include_declaration:
            tokens += [s.name for s in outline.definitions.get(name, []) if s.name is not None]
        tokens.sort(key=lambda t: t.start_pos or 0)
        return [location(document, t) for t in tokens]

    @server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    @guarded()
    def on_symbols(server: DealerServer,
                   params: lsp.DocumentSymbolParams) -> list[lsp.DocumentSymbol] | None:
        document = server.documents.get(params.text_document.uri)
        if document is None:
            return None
        outline = server.outline(document)
        symbols = []
        for statement in outline.statements:
            kind = _SYMBOL_KINDS.get(statement.kind)
            if kind is None:
                continue
            name_token = statement.name or statement.first
            symbols.append(lsp.DocumentSymbol(
                name=str(statement.name) if statement.name else statement.kind, kind=kind,
                detail=outline.statement_text(statement, 80).replace("\n", " "),
                range=protocol_range(document, statement.start, statement.end),
                selection_range=protocol_range(document, name_token.start_pos or 0,
                                               name_token.end_pos or 0)))
        return symbols

    @server.feature(lsp.TEXT_DOCUMENT_CODE_ACTION,
                    lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.QuickFix]))
    @guarded()
    def on_code_action(server: DealerServer,
                       params: lsp.CodeActionParams) -> list[lsp.CodeAction] | None:
        document = server.documents.get(params.text_document.uri)
        if document is None:
            return None
        outline = server.outline(document)
        actions = []
        for diagnostic in params.context.diagnostics:
            if diagnostic.source != "dealerpp":
                continue
            start = document.offset(diagnostic.range.start.line,
                                    diagnostic.range.start.character)
            code = diagnostic.code if isinstance(diagnostic.code, str) else None
            for fix in fixes.fixes_at(outline, start, code):
                edits = [lsp.TextEdit(range=protocol_range(document, low, high), new_text=new)
                         for low, high, new in fix.edits]
                actions.append(lsp.CodeAction(
                    title=fix.title, kind=lsp.CodeActionKind.QuickFix,
                    diagnostics=[diagnostic], is_preferred=fix.preferred,
                    edit=lsp.WorkspaceEdit(changes={document.uri: edits})))
        return actions


def completion_item(item: complete.Item, where: lsp.Range, snippets: bool) -> lsp.CompletionItem:
    text = item.insert or item.label
    if item.snippet and not snippets:
        # Without snippets a call is left open, for the seat to be typed.
        text = complete.SHAPE_PLAIN if item.kind == complete.SNIPPET else text.split("$1")[0]
    return lsp.CompletionItem(
        label=item.label, kind=_ITEM_KINDS.get(item.kind), detail=item.detail,
        text_edit=lsp.TextEdit(range=where, new_text=text),
        insert_text_format=(lsp.InsertTextFormat.Snippet if item.snippet and snippets
                            else lsp.InsertTextFormat.PlainText))


def location(document: Document, token: Token) -> lsp.Location:
    return lsp.Location(uri=document.uri, range=protocol_range(
        document, token.start_pos or 0, token.end_pos or 0))


def serve(stdin: Any, stdout: Any) -> None:
    """Answer a client on ``stdin``/``stdout`` (binary streams) until it exits."""
    server = build()
    server.start_io(stdin, stdout)
