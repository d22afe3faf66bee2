"""The shared library (build/libsim2real.so, ``make python``) through ctypes.

Found at the first call, in this order: the path in the environment variable
S2R_LIBRARY; libsim2real.so beside this file (a copy installed with the
package); build/libsim2real.so of the source tree this package sits in; the
system's library path. A library of another version, or of another flat API,
than this package was written for is refused with both versions named; so is a
file that is no whole ELF library (a truncated copy, a build cut short):
dlopen maps a library's segments without comparing them with the file's
size, and the first page read past its end killed the process with SIGBUS,
so each segment and section is checked to lie inside the file first. A file
damaged without a change of size passes that check: `make python` writes the
library's SHA-256 beside it (libsim2real.so.sha256), and a library whose bytes
have another digest is refused before it is loaded, both digests named. A
library with no digest file beside it loads with a warning (it cannot be
checked); one found by name on the system's library path is not checked.
"""
import ctypes
import ctypes.util
import functools
import operator
import os
import stat
import struct
import threading
import warnings
import weakref

import numpy as np

VERSION = "0.1"       # SIM2REAL_VERSION this package expects
FLAT_API = 6          # S2R_FLAT_API_VERSION this package expects
ERROR_LEN = 512       # S2R_FLAT_ERROR_LEN
MAX_THREADS = 64      # S2R_FLAT_MAX_THREADS
UINT64_MAX = 2 ** 64 - 1
INT_MAX = 2 ** 31 - 1
# The checkpoint loader's bounds (s2r_flat_checkpoint_limits: S2R_HISTORY_MAX, S2R_MAX_HIDDEN_LAYERS,
# S2R_MLP_MAX_WIDTH, S2R_LOG_STD_MAX) as this package's reader knows them: a library that says otherwise is
# refused at load, so the reader (which needs no library) and the library's loader hold files to the same ones
CHECKPOINT_LIMITS = {"history_max": 8, "max_hidden": 4, "max_width": 256, "log_std_max": 40.0}

# s2r_result codes (sim2real.h, "Core")
OK = 0
ERR_INVALID_ARGUMENT = -1
ERR_IO = -4
ERR_CORRUPT = -5
ERR_PARSE = -6
ERR_STATE = -8
ERR_UNSUPPORTED = -9
ERR_INTERRUPTED = -10


class Sim2RealError(RuntimeError):
    """A call into the library failed: ``str(e)`` is the library's message,
    ``e.code`` the s2r_result code and ``e.code_name`` its name.

    Made from another of these (``type(e)(e)``: what gymnasium's AsyncVectorEnv raises in the main process for
    a worker's exception), it is that one again: its message, code and code name, not the message of a message."""

    def __init__(self, message, code=None, code_name=None):
        if isinstance(message, Sim2RealError):
            message, code, code_name = (str(message), message.code if code is None else code,
                                        message.code_name if code_name is None else code_name)
        super().__init__(message)
        self.code = code
        self.code_name = code_name

    def __reduce__(self):   # pickled (multiprocessing, AsyncVectorEnv's pipes) with its code and code_name
        return type(self), (str(self), self.code, self.code_name)


class InvalidArgumentError(Sim2RealError, ValueError):
    """Bad input: an unknown name, a NaN action, a malformed ranges file..."""


class LibraryMismatchError(Sim2RealError, ImportError):
    """The shared library cannot be used: not the version this package was written for, no sim2real library, or
    no whole one (a truncated or damaged file, refused before it is loaded)."""


class Step(ctypes.Structure):
    _fields_ = [("reward", ctypes.c_float), ("terminated", ctypes.c_int), ("truncated", ctypes.c_int),
                ("success", ctypes.c_int), ("diverged", ctypes.c_int), ("distance", ctypes.c_double)]


# The same as a numpy record, for arrays of them (the batched step).
STEP_DTYPE = np.dtype([(name, np.dtype(ctype)) for name, ctype in Step._fields_], align=True)
assert STEP_DTYPE.itemsize == ctypes.sizeof(Step)


class Eval(ctypes.Structure):
    _fields_ = [("episodes", ctypes.c_int), ("successes", ctypes.c_int), ("diverged", ctypes.c_int),
                ("success_rate", ctypes.c_double), ("success_lo", ctypes.c_double),
                ("success_hi", ctypes.c_double), ("mean_distance", ctypes.c_double),
                ("mean_return", ctypes.c_double)]

    def as_dict(self):
        return {name: getattr(self, name) for name, _ in self._fields_}


class Checkpoint(ctypes.Structure):
    """s2r_flat_checkpoint: what s2r_flat_policy_write needs beside the numbers."""
    _fields_ = [("obs_dim", ctypes.c_int), ("act_dim", ctypes.c_int), ("num_hidden", ctypes.c_int),
                ("hidden", ctypes.c_int * 4), ("privileged", ctypes.c_int), ("actor_activation", ctypes.c_int),
                ("critic_activation", ctypes.c_int), ("history", ctypes.c_int), ("robot", ctypes.c_char * 16),
                ("task", ctypes.c_char * 16), ("randomization", ctypes.c_uint64), ("norm_count", ctypes.c_double),
                ("norm_clip", ctypes.c_double)]


class Limits(ctypes.Structure):
    """s2r_flat_limits: the checkpoint loader's bounds."""
    _fields_ = [("history_max", ctypes.c_int), ("max_hidden", ctypes.c_int), ("max_width", ctypes.c_int),
                ("log_std_max", ctypes.c_double)]


class Sysid(ctypes.Structure):
    _fields_ = [("n_params", ctypes.c_int), ("name", (ctypes.c_char * 24) * 16), ("value", ctypes.c_double * 16),
                ("identifiable", ctypes.c_int * 16), ("sweeps", ctypes.c_int), ("relative_start", ctypes.c_double),
                ("relative", ctypes.c_double), ("verdict", ctypes.c_char * 16), ("camera_offset", ctypes.c_double * 3),
                ("object", ctypes.c_int), ("object_relative_start", ctypes.c_double),
                ("object_relative", ctypes.c_double), ("object_verdict", ctypes.c_char * 16)]


_P = ctypes.c_void_p
_I = ctypes.c_int
_U64 = ctypes.c_uint64
_S = ctypes.c_char_p
_SIGNATURES = {
    "s2r_flat_result_name": (_S, [_I]),
    "s2r_flat_env_create": (_I, [ctypes.POINTER(_P), _S, _S, _S, _S, _U64, _P, _P]),
    "s2r_flat_env_destroy": (None, [_P]),
    "s2r_flat_env_dims": (_I, [_P, _P, _P, _P, _P, _P, _P]),
    "s2r_flat_env_bounds": (_I, [_P, _P, _P, _P, _P, _P]),
    "s2r_flat_env_reset": (_I, [_P, _U64, _U64, _P, _P]),
    "s2r_flat_env_step": (_I, [_P, _P, _I, _P, _P, _P]),
    "s2r_flat_env_privileged": (_I, [_P, _P, _I, _P]),
    "s2r_flat_env_scripted_act": (_I, [_P, _P, _P, _P]),
    "s2r_flat_env_evaluate": (_I, [_P, _P, _I, _U64, _P, _P]),
    "s2r_flat_env_ranges": (_I, [_P, _S, _P, _P]),
    "s2r_flat_ranges_digest": (_I, [_S, _P, _P]),
    "s2r_flat_render_available": (_I, []),
    "s2r_flat_env_render": (_I, [_P, _I, _I, _P, _P]),
    "s2r_flat_reset_many": (_I, [_P, _I, _P, _P, _P, _I, _P]),
    "s2r_flat_step_many": (_I, [_P, _I, _P, _P, _P, _I, _P]),
    "s2r_flat_policy_load": (_I, [ctypes.POINTER(_P), _S, _U64, _P]),
    "s2r_flat_policy_destroy": (None, [_P]),
    "s2r_flat_policy_dims": (_I, [_P, _P, _P, _P, _P, _P, _P]),
    "s2r_flat_policy_write": (_I, [_S, _P, _P, _I, _P, _P, _P]),
    "s2r_flat_checkpoint_limits": (None, [_P]),
    "s2r_flat_policy_reset": (_I, [_P, _P]),
    "s2r_flat_policy_act": (_I, [_P, _P, _I, _P, _I, _P]),
    "s2r_flat_evaluate_sim_and_real": (_I, [_P, _S, _S, _I, _U64, _U64, _I, _P, _P, _P, _P]),
    "s2r_flat_identify_unit": (_I, [_S, _S, _U64, _S, _I, _S, _S, _P, _P]),
    "s2r_flat_identify_logs": (_I, [_S, _S, _P, _I, _S, _I, _S, _S, _P, _P]),
    "s2r_flat_interrupt_request": (None, []),
    "s2r_flat_interrupt_clear": (None, []),
    "s2r_flat_interrupt_requested": (_I, []),
    "s2r_flat_after_fork_child": (None, []),
    "s2r_flat_single_threaded": (_I, []),
}

_library = None


def _candidates():
    here = os.path.dirname(os.path.abspath(__file__))
    if os.environ.get("S2R_LIBRARY"):
        return [os.environ["S2R_LIBRARY"]]
    found = [os.path.join(here, "libsim2real.so"),
             os.path.join(os.path.dirname(os.path.dirname(here)), "build", "libsim2real.so")]
    system = ctypes.util.find_library("sim2real")
    return found + ([system] if system else [])


_ELF = {1: ("IIIII", "IIIIIIII", "IIIIIIIIII"),   # ELF32: header words after e_machine's, a program header, a
         2: ("IQQQI", "IIQQQQQQ", "IIQQQQIIQQ")}   # section header; ELF64 the same


def check_elf(path):
    """Refuse a file at ``path`` that is no whole ELF library, before dlopen maps it: its program headers (every
    segment dlopen maps), its section headers and each section with bytes in the file must lie inside the file.
    dlopen reads the first headers, maps the segments they name and touches them: a segment past the end of a
    truncated file is a page with no bytes behind it, and reading it is SIGBUS, the process killed, not an error
    (glibc does not compare the segments with the file's size). A file damaged without a change of size, or
    changed between this check and dlopen, is not caught here."""
    def refuse(why):
        raise LibraryMismatchError("%s is not a whole shared library (%s): a truncated or damaged file; build it "
                                   "again with `make python`" % (path, why))
    try:
        mode = os.stat(path).st_mode
        if not stat.S_ISREG(mode):   # before open: opening a FIFO waits for a writer
            raise LibraryMismatchError("%s is %s, not the sim2real library (a regular file): name the library "
                                       "itself (build/libsim2real.so, `make python`)"
                                       % (path, "a directory" if stat.S_ISDIR(mode) else
                                          "not a regular file (a pipe, device or socket)"))
        with open(path, "rb") as f:
            size = os.fstat(f.fileno()).st_size
            data = f.read(min(size, 1 << 20))   # the headers, and most sections; any others are read below

            def read(offset, n):
                if offset + n > size:
                    refuse("it is %d bytes; its headers need %d bytes at byte %d" % (size, n, offset))
                if offset + n <= len(data):
                    return data[offset:offset + n]
                f.seek(offset)
                return f.read(n)

            ident = read(0, 16)
            if ident[:4] != b"\x7fELF" or ident[4] not in _ELF or ident[5] not in (1, 2):
                refuse("no ELF header")
            order = "<" if ident[5] == 1 else ">"
            head, program, section = (order + x for x in _ELF[ident[4]])
            fields = struct.unpack(order + "HH" + head[1:], read(16, 4 + struct.calcsize(head)))
            phoff, shoff = fields[4], fields[5]
            tail = struct.unpack(order + "HHHHHH", read(16 + 4 + struct.calcsize(head), 12))
            phentsize, phnum, shentsize, shnum = tail[1], tail[2], tail[3], tail[4]
            for k in range(phnum):
                p = struct.unpack(program, read(phoff + k * phentsize, struct.calcsize(program)))
                offset, filesz = (p[2], p[5]) if ident[4] == 2 else (p[1], p[4])
                if filesz and offset + filesz > size:
                    refuse("it is %d bytes; segment %d ends at byte %d" % (size, k, offset + filesz))
            for k in range(shnum if shoff else 0):
                sh = struct.unpack(section, read(shoff + k * shentsize, struct.calcsize(section)))
                if sh[1] != 8 and sh[5] and sh[4] + sh[5] > size:   # 8: SHT_NOBITS (.bss), no bytes in the file
                    refuse("it is %d bytes; section %d ends at byte %d" % (size, k, sh[4] + sh[5]))
    except OSError as e:
        raise LibraryMismatchError("cannot read the sim2real library %s: %s" % (path, e)) from None
    except struct.error:
        refuse("malformed ELF headers")


DIGEST_SUFFIX = ".sha256"   # the Makefile's rule for build/libsim2real.so writes PATH.sha256 beside it


def check_digest(path):
    """Refuse the library at ``path`` if the digest file beside it (PATH.sha256: its SHA-256 in hex, as `make
    python` writes it) names another digest than the file's bytes have: a file damaged without a change of size
    (a bad copy, a disk error) passes check_elf, then crashed inside dlopen or a call, or loaded and gave wrong
    numbers. No digest file: a warning, and the library loads unchecked."""
    import hashlib
    try:
        mode = os.stat(path + DIGEST_SUFFIX).st_mode
        if not stat.S_ISREG(mode):   # before open: opening a FIFO waits for a writer
            raise LibraryMismatchError("%s is not a regular file (a directory, pipe, device or socket): the digest "
                                       "file `make python` writes is one line of hex; copy it with the library"
                                       % (path + DIGEST_SUFFIX))
        with open(path + DIGEST_SUFFIX, "rb") as f:
            recorded = f.read(4096).split()
    except FileNotFoundError:
        warnings.warn("%s has no digest file beside it (%s, which `make python` writes): it is loaded without a "
                      "check against damage; copy the digest with the library" % (path, os.path.basename(path) +
                                                                                   DIGEST_SUFFIX), stacklevel=4)
        return
    except OSError as e:
        raise LibraryMismatchError("cannot read the digest of the sim2real library, %s: %s"
                                   % (path + DIGEST_SUFFIX, e)) from None
    expected = recorded[0].decode("ascii", "replace").lower() if recorded else ""
    if len(expected) != 64 or any(c not in "0123456789abcdef" for c in expected):
        raise LibraryMismatchError("%s is no SHA-256 digest (64 hex digits): rebuild the library with `make python`, "
                                   "which writes it" % (path + DIGEST_SUFFIX))
    digest = hashlib.sha256()
    try:
        with open(path, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                digest.update(block)
    except OSError as e:
        raise LibraryMismatchError("cannot read the sim2real library %s: %s" % (path, e)) from None
    if digest.hexdigest() != expected:
        raise LibraryMismatchError("%s has SHA-256 %s, but %s says %s: the file is damaged or is another build "
                                   "than the one the digest was made for; rebuild it with `make python` (which "
                                   "writes both), or copy both again" % (path, digest.hexdigest(),
                                                                           os.path.basename(path) + DIGEST_SUFFIX,
                                                                           expected))


def load_library(path):
    """Load the library at ``path``, check its version, declare its functions."""
    if os.path.sep in path or os.path.exists(path):   # a path (a bare name is the system's, found by dlopen)
        check_elf(path)
        check_digest(path)
    try:   # global: MuJoCo's GL loader looks for OSMesa in the whole process (examples/s2r_render.h)
        lib = ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL)
    except OSError as e:
        raise LibraryMismatchError("cannot load the sim2real library %s: %s" % (path, e)) from None
    try:
        lib.s2r_flat_version.restype = ctypes.c_char_p
        lib.s2r_flat_api_version.restype = ctypes.c_int
        version = lib.s2r_flat_version().decode(errors="replace")
        api = lib.s2r_flat_api_version()
    except AttributeError:
        raise LibraryMismatchError("%s is not a sim2real library with the flat API (no s2r_flat_version); "
                                   "build it with `make python`" % path) from None
    if version != VERSION or api != FLAT_API:
        shown = version if version and version.isprintable() else repr(version)   # an empty one (a zeroed .rodata)
        raise LibraryMismatchError("%s is sim2real %s (flat API %d); this Python package is sim2real %s (flat API "
                                   "%d): rebuild the library from the same sources (`make python`)"
                                   % (path, shown, api, VERSION, FLAT_API))
    for name, (restype, argtypes) in _SIGNATURES.items():
        try:
            function = getattr(lib, name)
        except AttributeError:
            raise LibraryMismatchError("%s says it is sim2real %s (flat API %d) but has no %s, which this package "
                                       "calls: rebuild the library from the same sources (`make python`)"
                                       % (path, version, api, name)) from None
        function.restype = restype
        function.argtypes = argtypes
    limits = Limits()
    lib.s2r_flat_checkpoint_limits(ctypes.addressof(limits))
    differ = [(name, getattr(limits, name), value) for name, value in CHECKPOINT_LIMITS.items()
              if getattr(limits, name) != value]
    if differ:
        raise LibraryMismatchError("%s holds checkpoints to other bounds than this package: %s: rebuild the library "
                                   "from the same sources (`make python`)" % (path, ", ".join(
                                       "%s %s (this package: %s)" % d for d in differ)))
    return lib


def checkpoint_limits():
    """The checkpoint loader's bounds, from the library (s2r_flat_checkpoint_limits): {"history_max",
    "max_hidden", "max_width", "log_std_max"}."""
    limits = Limits()
    library().s2r_flat_checkpoint_limits(ctypes.addressof(limits))
    return {name: getattr(limits, name) for name, _ in Limits._fields_}


def library():
    """The library, loaded and checked at the first call."""
    global _library
    if _library is None:
        # The renderer is Mesa's llvmpipe (OSMesa), whose rasterizer threads fork does not copy: a child of a
        # process that had rendered (multiprocessing's fork start method, gymnasium's AsyncVectorEnv) waited for
        # them for ever at its first render. Rasterizing on the calling thread keeps a render fork-safe; a value
        # the user set stands.
        os.environ.setdefault("LP_NUM_THREADS", "0")
        candidates = _candidates()
        for path in candidates:
            if os.environ.get("S2R_LIBRARY") or os.path.isfile(path) or os.path.sep not in path:
                _library = load_library(path)
                break
        else:
            raise Sim2RealError("libsim2real.so not found (looked at %s): build it with `make python` in the "
                                "repository, or name it in S2R_LIBRARY" % ", ".join(candidates))
    return _library


class ErrorBuffer:
    """The `error` argument of every call, and the exception it becomes."""

    def __init__(self):
        self.buffer = ctypes.create_string_buffer(ERROR_LEN)
        self.ptr = ctypes.addressof(self.buffer)   # what the calls take

    def check(self, code):
        if code == OK:
            return
        raw = self.buffer.value
        message = raw.decode(errors="replace") or "no message"
        if len(raw) >= ERROR_LEN - 1:   # the library's buffer is full: its message (and the reason) may be cut
            message += "... (the library's message is cut at %d bytes)" % (ERROR_LEN - 1)
        name = library().s2r_flat_result_name(code).decode()
        # S2R_ERR_INTERRUPTED comes here only from a call on another thread than the main one, stopped with the
        # main thread's call by a Ctrl-C (the flag is the process's); the main thread's raises KeyboardInterrupt
        cls = InvalidArgumentError if code == ERR_INVALID_ARGUMENT else Sim2RealError
        raise cls("%s (%s)" % (message, name), code, name)


def pointer(array):
    """The address of a C-contiguous numpy array, for a `float*` or `uint64_t*`."""
    return array.ctypes.data


_guarded = weakref.WeakSet()   # every object with a lock of guard's, for the child of a fork


def guard(owner):
    """The lock of ``owner``, an object that owns a C handle: one thread at a time (a second waits). Used through
    ``entered``; its context-manager calls are C's, so a signal cannot land between taking it and holding it."""
    _guarded.add(owner)
    return threading.RLock()


def _after_fork_child():
    """In the child of a fork (multiprocessing's default start method on Linux, gymnasium's AsyncVectorEnv):
    OpenMP's threads did not survive it, so the library runs on one thread from now on if the parent ran a call
    on several (s2r_flat_after_fork_child; a VecEnv's threads change nothing in its results); and the thread
    that held an object's lock at the fork is not here to release it, so every lock is made again (the
    environments of a VecEnv still share one). An object that was inside a call on another thread at the fork
    is half-way through that call here: it is marked, and refuses every call but close and copy (``forked``)."""
    if _library is not None:
        _library.s2r_flat_after_fork_child()
    fresh = {}
    for owner in list(_guarded):
        old = owner.__dict__.get("_lock")
        if old is None:
            continue
        if id(old) not in fresh:
            held = not old.acquire(blocking=False)
            if not held:
                old.release()
            fresh[id(old)] = (old, threading.RLock(), held)
        _, owner._lock, held = fresh[id(old)]
        if held:
            owner._forked_mid_call = True


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_child)


def forked(owner, what):
    """Refuse a call on ``owner`` if it was inside a call on another thread when this process was forked."""
    if getattr(owner, "_forked_mid_call", False):
        raise Sim2RealError("%s was inside a call on another thread when this process was forked, so here it is "
                            "half-way through that call: make a new one in this process (copy.copy of it does), "
                            "or fork while no other thread uses it (S2R_ERR_STATE)" % what, ERR_STATE,
                            "S2R_ERR_STATE")


def entered(lock):
    """``lock``, refused when this thread holds it already: a call from inside a call on the same object - a
    signal handler run between two lines of a step, say, closing the environment the step still uses."""
    if lock._is_owned():
        raise Sim2RealError("called from inside a call on the same object (a signal handler?): call it after "
                            "that call returns")
    return lock


def interruptible(function, *args):
    """``function(*args)``, a long call into the library (an evaluation, an identification), run so that Ctrl-C
    stops it. Python runs its SIGINT handler only between calls, never inside one: on the main thread (the one
    signals reach) the call runs on a worker thread while this one waits; when the handler raises
    (KeyboardInterrupt), the library is asked to stop (s2r_flat_interrupt_request: its loops return
    S2R_ERR_INTERRUPTED within about a second), the worker is waited for (a second Ctrl-C meanwhile waits too:
    the call still uses its arguments), the flag is lowered for the next call and the exception goes on. On any
    other thread the call is made directly. The caller holds the object's lock throughout, so the object is
    free again once the exception is raised."""
    if threading.current_thread() is not threading.main_thread():
        return function(*args)
    outcome, done = [], threading.Event()   # an Event, not Thread.join: a join interrupted by the handler can
    # mark a thread still running as ended (Python 3.11's bpo-45274 repair releases its lock), and then a second
    # call would use the object under the first
    gate, began, cancelled = threading.Lock(), [False], [False]   # a Ctrl-C can land inside Thread.start(): the
    # worker then runs the call only if it began before the caller gave up, and the caller waits for it if it did

    def run():
        with gate:
            if cancelled[0]:
                done.set()
                return
            began[0] = True
        try:
            outcome.append((True, function(*args)))
        except BaseException as e:   # noqa: BLE001 (raised again on the caller's thread)
            outcome.append((False, e))
        finally:
            done.set()

    try:
        threading.Thread(target=run, name="sim2real call", daemon=True).start()
        while not done.wait(0.05):   # a timed wait: the handler runs between two of them
            pass
    except BaseException:
        while True:   # a second Ctrl-C here is the first one's: it changes nothing
            try:
                with gate:
                    cancelled[0] = True
                    running = began[0]
                break
            except BaseException:   # noqa: BLE001
                pass
        if running:
            library().s2r_flat_interrupt_request()
            while not done.is_set():
                try:
                    done.wait(0.05)
                except BaseException:   # noqa: BLE001 (the first exception is the one raised)
                    pass
            library().s2r_flat_interrupt_clear()
        raise
    done, value = outcome[0]
    if not done:
        raise value
    return value


def release(owner, destroy):
    """Free owner's C handle (owner._handle) with the library's function named `destroy`, once: waits for a call
    in progress on another thread; a second release does nothing."""
    if getattr(owner, "_handle", None) is None:
        return
    with entered(owner._lock):
        if owner._handle is not None:
            getattr(library(), destroy)(owner._handle)
            owner._handle = None


# What a base class's reset or a fork sets on an object later, not the user's: a copy starts these afresh
_NOT_CARRIED = frozenset(("_np_random", "_np_random_seed", "_forked_mid_call", "closed"))


def own_keys(obj, before):
    """The attributes the package's __init__ set on ``obj`` (those in its __dict__ now and not in ``before``, the
    keys it had before __init__ ran: a subclass's own, set before its super().__init__ call)."""
    return frozenset(obj.__dict__).difference(before) | {"_own_keys"}


def user_state(obj):
    """The attributes of ``obj`` a copy carries: those its user (or a subclass) set, not the package's (which
    a copy makes afresh: handles, locks, buffers). None when there are none."""
    own = obj.__dict__.get("_own_keys", frozenset())
    state = {k: v for k, v in obj.__dict__.items() if k not in own and k not in _NOT_CARRIED}
    return state or None


def rebuilt(cls, base, *args, **kwargs):
    """A new object of ``cls`` (a subclass of ``base``; None: ``base``) made by ``base.__init__(*args,
    **kwargs)``, the original's arguments, rather than by cls's own __init__, whose arguments may be others."""
    if cls is None or cls is base:
        return base(*args, **kwargs)
    if not (isinstance(cls, type) and issubclass(cls, base)):
        raise TypeError("cannot rebuild a %s as %r: not a subclass of it" % (base.__name__, cls))
    obj = cls.__new__(cls)
    base.__init__(obj, *args, **kwargs)
    return obj


def read_regular(path, limit=512 * 1024 * 1024):
    """A whole regular file's bytes (at most `limit`, the library's cap on checkpoints); a FIFO, a directory or
    a device is refused before it is opened (reading a FIFO would wait for a writer)."""
    import stat
    info = os.stat(path)
    if not stat.S_ISREG(info.st_mode):
        raise Sim2RealError("%s is not a regular file (a directory, pipe, device or socket)" % os.fsdecode(path))
    if info.st_size > limit:
        raise Sim2RealError("%s is %d bytes, more than %d" % (os.fsdecode(path), info.st_size, limit))
    with open(path, "rb") as f:
        return f.read(limit + 1)


_PACKAGE = os.path.dirname(os.path.abspath(__file__))


def short_tracebacks(cls):
    """Make the public methods of ``cls`` raise the package's own refusals (a Sim2RealError, or a TypeError or
    ValueError raised in this package's code) with a traceback that ends at the method called: the package's
    frames are left out, the caller's stay, the message and codes are the same. gymnasium's AsyncVectorEnv logs
    a worker's traceback as text through ``msg % ()`` (gymnasium.logger.error): a line of ours with a % format
    in it - nearly every refusal's - made that a "TypeError: not enough arguments for format string" in the
    main process, our error never raised there."""
    for name, method in list(vars(cls).items()):
        if name.startswith("_") or not callable(method) or isinstance(method, (type, classmethod, staticmethod)):
            continue
        setattr(cls, name, _short(method))
    return cls


def _short(method):
    @functools.wraps(method)
    def call(*args, **kwargs):
        try:
            return method(*args, **kwargs)
        except (Sim2RealError, TypeError, ValueError) as error:
            tb = error.__traceback__
            while tb.tb_next is not None:
                tb = tb.tb_next
            if os.path.dirname(os.path.abspath(tb.tb_frame.f_code.co_filename)) != _PACKAGE:
                raise   # raised elsewhere (numpy, ctypes, a bug): the whole traceback
            raise error.with_traceback(None)   # the package's own frames left out: _lib.short_tracebacks
    return call


def invalid(message):
    """Bad input found before the library is called: the exception the library's own refusals raise."""
    return InvalidArgumentError("%s (S2R_ERR_INVALID_ARGUMENT)" % message, ERR_INVALID_ARGUMENT,
                                "S2R_ERR_INVALID_ARGUMENT")


def whole(value, what, lo, hi):
    """``value`` as a Python int in lo .. hi: ctypes would wrap -3 to 2**64 - 3 and cut 2.7 to 2, so a number
    that is not a whole number in range (a float, a bool, -1 for an unsigned count) is refused here."""
    if isinstance(value, (bool, np.bool_)):
        raise TypeError("%s must be a whole number, got %r" % (what, value))
    try:
        v = operator.index(value)
    except TypeError:
        raise TypeError("%s must be a whole number, got %r" % (what, value)) from None
    if not lo <= v <= hi:
        raise invalid("%s must be %s .. %s, got %d" % (what, lo, "2**64 - 1" if hi == UINT64_MAX else
                                                      "2**31 - 1" if hi == INT_MAX else hi, v))
    return v


def path_argument(path, what, temporary=False):
    """``path`` for a `const char*` (as encode), refused with the reason when a name in it is longer than the
    file system takes (NAME_MAX, 255 bytes on Linux's), or the whole is longer than PATH_MAX: the library's
    message would say only "cannot open" or "cannot create", its reason cut at the error buffer's end
    (ERROR_LEN) by the path itself. ``temporary``: the library writes the file through NAME.PID-N.tmp beside it and renames that,
    so the name must leave room for that suffix too."""
    data = encode(path, what)
    folder, name = os.path.split(data)
    try:
        name_max = os.pathconf(folder or b".", "PC_NAME_MAX")
        path_max = os.pathconf(folder or b".", "PC_PATH_MAX")
    except (OSError, ValueError):   # the folder is not there (the library says so) or the system does not say
        name_max, path_max = 255, 4096
    longest = max(data.split(os.sep.encode()), key=len)
    if len(longest) > name_max:
        raise invalid("%s: a name in it is %d bytes (%r...), more than the %d this file system takes (NAME_MAX)"
                      % (what, len(longest), longest[:40].decode(errors="replace"), name_max))
    suffix = len(".%d-0.tmp" % os.getpid())
    if temporary and len(name) + suffix > name_max:
        raise invalid("%s: its name is %d bytes; the file is written through a temporary NAME.%d-N.tmp beside it, "
                      "at least %d bytes, more than the %d this file system takes (NAME_MAX): a shorter name"
                      % (what, len(name), os.getpid(), len(name) + suffix, name_max))
    if len(data) >= path_max:
        raise invalid("%s is %d bytes, more than the %d this system takes (PATH_MAX)" % (what, len(data), path_max - 1))
    return data


def encode(text, what):
    """A string (or path) for a `const char*`: refused with a NUL inside, which C would read as its end."""
    if isinstance(text, os.PathLike):
        text = os.fspath(text)
    if isinstance(text, bytes):
        data = text
    elif isinstance(text, str):
        data = os.fsencode(text)   # a name with a surrogate escape (os.listdir of non-UTF-8 bytes): its bytes
    else:
        raise TypeError("%s must be a string, got %r" % (what, text))
    if b"\0" in data:
        raise invalid("%s %r holds a NUL byte, which would cut it short" % (what, text))
    return data
