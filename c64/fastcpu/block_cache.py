"""Compiled blocks kept for every CPU of the process and, on disk, for the next process.

Translating a block (BlockBuilder's source, then Python's compile) costs about as
much as running it a few hundred times: a search of ryg3's spends half its time
there when every block is new.  The compiled code depends only on what the
translator was given -- the block's instructions, the memory configuration's
view, the D flag, whether code runs in zero page or on the stack page, which
vectors the block watches, the trap routines' direct versions it holds inline --
and on the translator itself, so those make the key
(`translation_key`), and the translator's own source files are part of it
(`CORE_VERSION`): a changed translator never finds an old block.

On disk the blocks are one file per translator version in the per-user cache
folder (platformdirs.user_cache_dir, `ryg64/blocks`; RYG64_BLOCK_CACHE names
another folder, or `off`).  It is read once, when the first block is looked for,
and written back, merged with what other processes added meanwhile, when the
process ends (or `forget()` is called).  A file that is not ours -- another
user's, another format, cut short, a damaged entry -- is ignored, entry by entry
where it can be: each entry carries its own checksum and is checked when used.
"""

import atexit
import hashlib
import importlib.util
import marshal
import os
import pathlib
import stat
import sys
import tempfile
import types
import zlib

from c64.fastcpu.compiler import CELL_NAMES, forget_compiled

ENV_FOLDER = "RYG64_BLOCK_CACHE"

MAGIC = b"RYG64 compiled 6502 blocks 1\n"

# More entries than this and the file starts afresh with this process's own blocks
# (a block is about 3 KB: the file stays within about 12 MB; all the bundled programs
# together make far fewer).
MAX_ENTRIES = 4000

# A file larger than this is not read.
MAX_FILE_BYTES = 32 << 20


def _core_version():
    """A digest of the translator's sources and of the Python that compiles them."""
    digest = hashlib.sha256(importlib.util.MAGIC_NUMBER + sys.version.encode())
    here = pathlib.Path(__file__).resolve().parent
    try:
        for path in sorted(here.glob("*.py")) + [here.parent / "cpu.py"]:
            digest.update(path.name.encode() + b"\0" + path.read_bytes())
    except OSError:
        return None                   # (sources not readable as files: no disk cache)
    return digest.hexdigest()[:24]


CORE_VERSION = _core_version()


def translation_key(view, insns, decimal, low_code, watched, inlined=()):
    """The digest (bytes) of everything a block's translation depends on: see the module
    docstring.  `watched`: the addresses of the chained JMP (vector)s whose vector the
    block watches like code; `inlined`: (address, key) of each trap routine whose direct
    version the block holds inline (FastCPU.set_fast_trap)."""
    parts = [view.signature, decimal, low_code, tuple(watched), tuple(inlined)]
    parts.extend((insn.addr, insn.op, insn.operand, insn.fixed, insn.chain, insn.ret, insn.skip,
                  insn.cycles, insn.extra) for insn in insns)
    # (marshal version 2 writes no back-references: equal parts, equal bytes.)
    return hashlib.blake2b(marshal.dumps(parts, 2), digest_size=20).digest()


def default_folder(env=None):
    """$RYG64_BLOCK_CACHE (None if it says `off`), else the per-user cache folder, else None."""
    env = os.environ if env is None else env
    value = env.get(ENV_FOLDER)
    if value:
        return None if value.lower() == "off" else value
    try:
        from platformdirs import user_cache_dir
    except ImportError:
        return None
    return os.path.join(user_cache_dir("ryg64", appauthor=False), "blocks")


def _pack(code):
    data = marshal.dumps(code)
    return zlib.crc32(data).to_bytes(4, "little") + data


_CELLS = frozenset(CELL_NAMES)


def _unpack(entry):
    """The code object of a stored entry, or None if it is damaged or not a block."""
    if not isinstance(entry, bytes) or len(entry) < 5:
        return None
    data = entry[4:]
    if zlib.crc32(data).to_bytes(4, "little") != entry[:4]:
        return None
    try:
        code = marshal.loads(data)
    except (ValueError, EOFError, TypeError):
        return None
    if (not isinstance(code, types.CodeType) or code.co_name != "blk"
            or not _CELLS.issuperset(code.co_freevars)):
        return None
    return code


_DEFAULT = object()


class BlockCache:
    """Digest -> compiled block, for the process, backed by a file in `folder` (None: the
    process only; by default default_folder(), looked up when first needed)."""

    def __init__(self, folder=_DEFAULT):
        self._folder = folder
        self._codes = {}        # digest -> code object
        self._stored = None     # digest -> packed entry, as read from the file (None: not read yet)
        self._new = {}          # digest -> packed entry not yet written
        self.hits = self.misses = 0

    @property
    def folder(self):
        if self._folder is _DEFAULT:
            self._folder = default_folder()
        return self._folder

    @folder.setter
    def folder(self, folder):
        """Use another folder (None: none) from now on; what was read is forgotten."""
        self.forget()
        self._folder = folder

    @property
    def path(self):
        if self.folder is None or CORE_VERSION is None:
            return None
        return os.path.join(self.folder, "blocks-%s.bin" % CORE_VERSION)

    def get(self, digest):
        code = self._codes.get(digest)
        if code is None:
            if self._stored is None:
                self._stored = self._read()
            entry = self._stored.get(digest)
            if entry is not None:
                code = _unpack(entry)
                if code is None:
                    del self._stored[digest]          # damaged: translated again
                else:
                    self._codes[digest] = code
        if code is None:
            self.misses += 1
        else:
            self.hits += 1
        return code

    def put(self, digest, code):
        self._codes[digest] = code
        if self.path is not None:
            self._new[digest] = _pack(code)

    def _read(self):
        """The entries of the file, or {} if there is none or it is not ours."""
        path = self.path
        if path is None:
            return {}
        # (O_NONBLOCK: a FIFO in its place is not waited on; only a regular file is read.)
        flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0)
        try:
            fd = os.open(path, flags)
        except OSError:
            return {}
        try:
            with os.fdopen(fd, "rb") as stream:
                info = os.fstat(fd)
                if (not stat.S_ISREG(info.st_mode) or info.st_size > MAX_FILE_BYTES
                        or (hasattr(os, "getuid") and info.st_uid != os.getuid())):
                    return {}
                data = stream.read(MAX_FILE_BYTES + 1)
        except OSError:
            return {}
        if not data.startswith(MAGIC):
            return {}
        try:
            entries = marshal.loads(data[len(MAGIC):])
        except (ValueError, EOFError, TypeError):
            return {}
        if not isinstance(entries, dict):
            return {}
        return entries

    def save(self):
        """Write the blocks made since the last save to the file, merged with what is there
        now (other processes may have added theirs).  Quietly does nothing where the folder
        cannot be written."""
        path = self.path
        if path is None or not self._new:
            return
        entries = self._read()
        entries = {d: e for d, e in entries.items() if isinstance(d, bytes) and isinstance(e, bytes)}
        if len(entries) + len(self._new) > MAX_ENTRIES:
            entries = {}
        entries.update(self._new)
        try:
            os.makedirs(self.folder, mode=0o700, exist_ok=True)
            fd, temporary = tempfile.mkstemp(dir=self.folder, prefix=".blocks-", suffix=".tmp")
            try:
                with os.fdopen(fd, "wb") as stream:
                    stream.write(MAGIC + marshal.dumps(entries))
                os.replace(temporary, path)
            except BaseException:
                os.unlink(temporary)
                raise
        except OSError:
            return
        if self._stored is not None:
            self._stored.update(self._new)
        self._new = {}
        self._remove_old_versions()

    def _remove_old_versions(self):
        """Files of other translator versions are never read again."""
        try:
            names = os.listdir(self.folder)
        except OSError:
            return
        mine = os.path.basename(self.path)
        for name in names:
            if name.startswith("blocks-") and name.endswith(".bin") and name != mine:
                try:
                    os.unlink(os.path.join(self.folder, name))
                except OSError:
                    pass

    def forget(self):
        """Save, then forget everything read or made, as a new process starts: the next
        look-up reads the file again."""
        self.save()
        self._codes = {}
        self._stored = None
        self.hits = self.misses = 0


BLOCKS = BlockCache()
atexit.register(BLOCKS.save)


def as_new_process():
    """Forget all compiled code, as a new process starts without any: compile_block's
    cache, and BLOCKS (saved first; its file is read again when a block is next looked
    for).  tests/bench/bench_kinds.py times runs so."""
    forget_compiled()
    BLOCKS.forget()
