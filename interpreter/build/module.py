"""A game's generated module, linked into its Rules: the module's first part runs at load, and
each block's chunk is compiled when the block first runs (unmarshalled, when the cache holds
it compiled: the chunks a process compiled are added to the cache when it exits). ``Later``:
an expression checked with the rules and written as a function of the module."""
from __future__ import annotations

import atexit
import linecache
import marshal
import os
import threading

from ..loading.cachefile import locked
from .cache import _cache_dir, module_filename, read_module, write_module


class Later:
    """An expression checked now and written as a function of (st, env) with the module."""

    __slots__ = ("expr", "what", "name")

    def __init__(self, expr, what):
        self.expr, self.what, self.name = expr, what, None

    def __reduce__(self):  # kept with the checked rules (checked.py): its function's name is enough
        return _named, (self.what, self.name)


def _named(what, name) -> Later:
    item = Later(None, what)
    item.name = name
    return item


def assemble(first: str, chunks: list, filename: str) -> dict:
    """A game's module as the cache keeps it: the whole text (for tracebacks and reading), its
    first part compiled, and each chunk as (its first line, where its text begins and ends in
    the whole text, what it defines), given as (text, what it defines): for a block's chunk,
    how many functions the block's list holds; for a game function's, its name."""
    texts = [first]
    line, at = first.count("\n") + 2, len(first) + 1  # (parts are joined by a newline)
    placed = []
    for text, defines in chunks:
        placed.append((line, at, at + len(text), defines))
        texts.append(text)
        line += text.count("\n") + 1
        at += len(text) + 1
    source = "\n".join(texts)
    return {"source": source, "code": compile(first, filename, "exec"), "chunks": placed}


def link(r, decl, fnames, module: dict, key: str, namespace) -> None:
    """Run a game's module and put what it defines in its Rules: the blocks, the memo masks, and
    in place of each expression checked for later (a Later), the function written for it.

    The module's first part runs now; each block's chunk is compiled when the block first
    runs. Until then the block's list holds a stand-in (_Unloaded) that compiles the chunk,
    puts its statements in the list and runs the one asked for; a stand-in whose chunk the
    cache holds compiled (in "blobs") unmarshals it instead. The chunks this process compiles
    are added to the cache when it exits (keep_compiled), in one write: so a chunk is compiled
    by the first process that runs it and ends normally (a game touches the blocks it runs;
    check_game compiles them all)."""
    filename = module_filename(r)
    source = module["source"]
    chunks = module["chunks"]
    blobs = module.get("blobs") or [None] * len(chunks)
    folder = _cache_dir()
    # (the chunks compiled of this text, to add to this file: the same key may name another
    # folder's file, or, loaded by another path, a text whose comments differ)
    unkept = _UNKEPT.setdefault((folder, key, hash(source)), (source, {}))[1]
    ns = namespace(r, decl)
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    exec(module["code"], ns)
    r.module_source = source
    r.namespace = ns
    blocks = r.blocks = []
    for i, (line, a, b, defines) in enumerate(chunks):
        if type(defines) is str:  # a game function: its stand-in is its name's value until it is first called
            ns[defines] = _UnloadedFunction(ns, defines, (key, i), line, (source, a, b), filename, blobs[i], unkept)
            continue
        block = [None] * defines
        block[:] = [_Unloaded(block, ns, (key, i), line, (source, a, b), filename, blobs[i], unkept)] * defines
        blocks.append(block)
    r.memo_masks = ns["MEMO_MASKS"]
    r.memo_at = ns["MEMO_AT"]
    r.memo_near = frozenset(ns["MEMO_NEAR"])
    # a move of a kind of pieces, or into or out of a zone, that no memoised function and no
    # trigger reads marks nothing (primitives: nothing to forget or check after it; a zone's
    # keys are told only to forget memoised values, so an unread zone tells none either);
    # memoised functions and triggers are the only readers of these bits (vm._on_write)
    read = 0
    for mask in [*r.memo_masks.values(), *(t.mask for t in r.triggers)]:
        read |= mask
    r.kind_bits = {k: b & read for k, b in r.kind_bits.items()}
    for zd in r.zones.values():
        zd.bit &= read
        if not zd.bit:
            zd.touch = ()
    r.where_bit &= read
    r.face_bit &= read
    r.item_bits = {item: b & read for item, b in r.item_bits.items() if b & read}

    def fn(x):
        return ns[x.name] if isinstance(x, Later) else x

    for m in r.moves.values():
        m.params = [(a, fn(d)) for a, d in m.params]
        m.cond = fn(m.cond)
        m.enumerate = ns[m.enum_name]
    for t in r.triggers:
        t.params = [(a, fn(d)) for a, d in t.params]
        t.cond = fn(t.cond)
    for ev, lst in r.listeners.items():
        r.listeners[ev] = [(item, fn(cond), block) for item, cond, block in lst]
    r.item_conds = {k: fn(v) for k, v in r.item_conds.items()}
    hud = r.hud
    for part in ("players", "regions", "items"):
        hud[part] = {k: fn(v) for k, v in hud[part].items()}
    hud["zones"] = [(text, fn(f)) for text, f in hud["zones"]]
    for m in hud["meters"].values():
        m["value"], m["max"] = fn(m["value"]), fn(m["max"])
    hud["prompts"] = {k: [fn(x) for x in v] if isinstance(v, list) else v for k, v in hud["prompts"].items()}
    hud["region_line"] = fn(hud.get("region_line"))
    r.evaluate = fn(r.evaluate)
    r.team_decider = fn(r.team_decider)
    r.functions = {name: ns[f"f_{name}"] for name in fnames}


_COMPILED: dict = {}  # (module key, block) -> its chunk's code, kept for the process (loads again)
_LOADING = threading.RLock()  # (keep_compiled may run while a chunk is compiled: _compiled)


class _Unloaded:
    """The stand-in for the statements of a block not compiled yet (see link)."""

    __slots__ = ("block", "ns", "key", "line", "text", "filename", "blob", "unkept")

    def __init__(self, block, ns, key, line, text, filename, blob=None, unkept=None):
        # (text: the module's text and where the chunk begins and ends in it; blob: the chunk
        # compiled, marshalled, when the cache holds it; unkept: where a chunk compiled is noted
        # to be kept, keep_compiled)
        self.block, self.ns, self.key, self.line, self.text, self.filename = block, ns, key, line, text, filename
        self.blob, self.unkept = blob, unkept

    def load(self) -> list:
        """The block's statements, compiled now if they are not yet (one thread at a time: a
        chunk defines a statement, then sets its attributes, which another thread must not
        find missing)."""
        if self.block[0] is self:
            with _LOADING:
                if self.block[0] is self:
                    _run_chunk(self)
                    self.block[:] = self.ns[f"B_{self.key[1]}"]
        return self.block

    def __call__(self, st, fr):
        return self.load()[fr[1]](st, fr)


class _UnloadedFunction:
    """The stand-in for a game function not compiled yet (see link): called, it compiles its
    chunk, which defines the function under its name, where the generated code finds it from
    then on, and calls it."""

    __slots__ = ("ns", "name", "key", "line", "text", "filename", "blob", "unkept")

    def __init__(self, ns, name, key, line, text, filename, blob=None, unkept=None):
        self.ns, self.name, self.key, self.line, self.text, self.filename = ns, name, key, line, text, filename
        self.blob, self.unkept = blob, unkept

    def load(self):
        """The function, compiled now if it is not yet."""
        f = self.ns[self.name]
        if f is self:
            with _LOADING:
                f = self.ns[self.name]
                if f is self:
                    _run_chunk(self)
                    f = self.ns[self.name]
        return f

    def __call__(self, *args):
        return self.load()(*args)


def _run_chunk(stand_in) -> None:
    """Run a stand-in's chunk in its namespace: unmarshalled from the cache's bytes, or compiled
    (and noted, to be kept in the cache: keep_compiled)."""
    key = stand_in.key
    if stand_in.blob is not None:
        code = _COMPILED.get(key) or marshal.loads(stand_in.blob)
    else:
        code = _compiled(key, stand_in.line, stand_in.text, stand_in.filename)
        if stand_in.unkept is not None:
            stand_in.unkept[key[1]] = code
    exec(code, stand_in.ns)


_UNKEPT: dict = {}  # (cache folder, module key, hash of its text) -> (the text, {chunk number: code compiled})


def keep_compiled() -> int:
    """Add the chunks this process compiled to the cache files of their modules: at exit, and
    when many are held (_compiled). One write per module, however many chunks, under a lock
    on the file (processes ending together each add theirs); a file that is gone, holds
    another text, or holds the chunks already, is left alone. Returns the number of chunks
    added. A write that fails loses nothing but time: the chunks are compiled again when they
    next run. (Not kept: what a process ended by os._exit compiled, e.g. a forked pool's
    worker, nor one killed.)"""
    if not _LOADING.acquire(timeout=10):  # (a thread stuck compiling: leave the cache as it is)
        return 0
    try:
        added = 0
        for (folder, key, _), (source, codes) in list(_UNKEPT.items()):
            if codes:
                try:
                    added += _keep(folder, key, source, codes)
                except Exception:  # (an unreadable file, a full disk: never a failure at exit)
                    pass
                codes.clear()
        return added
    finally:
        _LOADING.release()


def _keep(folder: str, key: str, source: str, codes: dict) -> int:
    with locked(os.path.join(folder, key + ".lock")):
        data = read_module(key, folder)
        if data is None or data["source"] != source:
            return 0
        chunks = data["chunks"]
        blobs = list(data.get("blobs") or [None] * len(chunks))
        if len(blobs) != len(chunks):
            return 0
        new = 0
        for i, code in codes.items():
            if 0 <= i < len(blobs) and blobs[i] is None:
                blobs[i] = marshal.dumps(code)
                new += 1
        if new:
            write_module(key, {**data, "blobs": blobs}, folder)
        return new


def _forked() -> None:
    """In a forked child: a lock of its own (another thread of the parent may have held it),
    and none of the parent's chunks to keep (the parent keeps them)."""
    global _LOADING
    _LOADING = threading.RLock()
    for _, codes in _UNKEPT.values():
        codes.clear()


atexit.register(keep_compiled)  # (nothing to do, nothing done: a process that compiled no chunk)
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forked)


def _compiled(key, line: int, text: tuple, filename: str):
    """A chunk's code (text: the module's text, where the chunk begins and ends in it), its
    lines where the chunk is in the module's text; kept for the process: the same game loaded
    again compiles it once."""
    code = _COMPILED.get(key)
    if code is None:
        if len(_COMPILED) > 50_000:  # (many games in one process: start again)
            _COMPILED.clear()
            keep_compiled()  # (and let go of those held to be kept)
        source, a, b = text
        try:
            code = compile(source[a:b], filename, "exec")
        except SyntaxError as exc:  # (a fault of the code generator: named at its line of the module)
            exc.lineno = (exc.lineno or 1) + line - 1
            if exc.end_lineno:
                exc.end_lineno += line - 1
            raise
        code = _COMPILED[key] = _at_line(code, line - 1)
    return code


def _at_line(code, shift: int):
    """code (and the functions inside it) with its line numbers moved down by shift."""
    consts = tuple(_at_line(c, shift) if isinstance(c, type(code)) else c for c in code.co_consts)
    return code.replace(co_firstlineno=code.co_firstlineno + shift, co_consts=consts)
