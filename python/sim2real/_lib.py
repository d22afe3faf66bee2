"""The shared library (build/libsim2real.so, ``make python``) through ctypes.

Found at the first call, in this order: the path in the environment variable
S2R_LIBRARY; libsim2real.so beside this file (a copy installed with the
package); build/libsim2real.so of the source tree this package sits in; the
system's library path. A library of another version, or of another flat API,
than this package was written for is refused with both versions named.
"""
import ctypes
import ctypes.util
import os

import numpy as np

VERSION = "0.1"       # SIM2REAL_VERSION this package expects
FLAT_API = 1          # S2R_FLAT_API_VERSION this package expects
ERROR_LEN = 256       # S2R_FLAT_ERROR_LEN

# s2r_result codes (sim2real.h, "Core")
OK = 0
ERR_INVALID_ARGUMENT = -1
ERR_IO = -4
ERR_CORRUPT = -5
ERR_PARSE = -6
ERR_STATE = -8
ERR_UNSUPPORTED = -9


class Sim2RealError(RuntimeError):
    """A call into the library failed: ``str(e)`` is the library's message,
    ``e.code`` the s2r_result code and ``e.code_name`` its name."""

    def __init__(self, message, code=None, code_name=None):
        super().__init__(message)
        self.code = code
        self.code_name = code_name


class InvalidArgumentError(Sim2RealError, ValueError):
    """Bad input: an unknown name, a NaN action, a malformed ranges file..."""


class LibraryMismatchError(Sim2RealError, ImportError):
    """The shared library is not the version this package was written for."""


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
    "s2r_flat_env_dims": (_I, [_P, _P, _P, _P, _P, _P]),
    "s2r_flat_env_bounds": (_I, [_P, _P, _P, _P, _P, _P]),
    "s2r_flat_env_reset": (_I, [_P, _U64, _U64, _P, _P]),
    "s2r_flat_env_step": (_I, [_P, _P, _I, _P, _P, _P]),
    "s2r_flat_env_privileged": (_I, [_P, _P, _I, _P]),
    "s2r_flat_env_scripted_act": (_I, [_P, _P, _P, _P]),
    "s2r_flat_env_evaluate": (_I, [_P, _P, _I, _U64, _P, _P]),
    "s2r_flat_reset_many": (_I, [_P, _I, _P, _P, _P, _I, _P]),
    "s2r_flat_step_many": (_I, [_P, _I, _P, _P, _P, _I, _P]),
    "s2r_flat_policy_load": (_I, [ctypes.POINTER(_P), _S, _U64, _P]),
    "s2r_flat_policy_destroy": (None, [_P]),
    "s2r_flat_policy_dims": (_I, [_P, _P, _P, _P, _P, _P, _P]),
    "s2r_flat_policy_reset": (_I, [_P, _P]),
    "s2r_flat_policy_act": (_I, [_P, _P, _I, _P, _I, _P]),
    "s2r_flat_evaluate_sim_and_real": (_I, [_P, _S, _S, _I, _U64, _U64, _I, _P, _P, _P, _P]),
    "s2r_flat_identify_unit": (_I, [_S, _S, _U64, _S, _I, _S, _S, _P, _P]),
    "s2r_flat_identify_logs": (_I, [_S, _S, _P, _I, _S, _I, _S, _S, _P, _P]),
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


def load_library(path):
    """Load the library at ``path``, check its version, declare its functions."""
    try:
        lib = ctypes.CDLL(path)
    except OSError as e:
        raise Sim2RealError("cannot load the sim2real library %s: %s" % (path, e)) from None
    try:
        lib.s2r_flat_version.restype = ctypes.c_char_p
        lib.s2r_flat_api_version.restype = ctypes.c_int
        version = lib.s2r_flat_version().decode()
        api = lib.s2r_flat_api_version()
    except AttributeError:
        raise LibraryMismatchError("%s is not a sim2real library with the flat API (no s2r_flat_version); "
                                   "build it with `make python`" % path) from None
    if version != VERSION or api != FLAT_API:
        raise LibraryMismatchError("%s is sim2real %s (flat API %d); this Python package is sim2real %s (flat API %d): "
                                   "rebuild the library from the same sources (`make python`)"
                                   % (path, version, api, VERSION, FLAT_API))
    for name, (restype, argtypes) in _SIGNATURES.items():
        function = getattr(lib, name)
        function.restype = restype
        function.argtypes = argtypes
    return lib


def library():
    """The library, loaded and checked at the first call."""
    global _library
    if _library is None:
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
        message = self.buffer.value.decode(errors="replace") or "no message"
        name = library().s2r_flat_result_name(code).decode()
        cls = InvalidArgumentError if code == ERR_INVALID_ARGUMENT else Sim2RealError
        raise cls("%s (%s)" % (message, name), code, name)


def pointer(array):
    """The address of a C-contiguous numpy array, for a `float*` or `uint64_t*`."""
    return array.ctypes.data
