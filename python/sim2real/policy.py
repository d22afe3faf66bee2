"""Policies from checkpoints (s2r_policy_save's files: the examples' *.ckpt,
or weights trained elsewhere and written with write_checkpoint), acting from
Python on numpy observations."""
import ctypes
import hashlib
import os

import numpy as np

from . import _lib
from ._lib import UINT64_MAX, encode as _encode, whole
from .env import _action_array


def _file_digest(path):
    return hashlib.sha256(_lib.read_regular(path)).hexdigest()


@_lib.short_tracebacks
class Policy:
    """A checkpoint's policy. ``act(obs)`` is its action in [-1, 1]^act_dim for
    one observation of its task: the mean (``deterministic=True``, as
    evaluation and deployment use it) or a sample from its Gaussian, drawn from
    the stream ``seed``. A policy with frame history (``history`` > 0) stacks
    its own past frames: call ``reset()`` at the start of every episode.
    One thread at a time acts (a second waits). A copy (copy, deepcopy,
    pickle) loads the same file again - refused if the file has changed since
    - with its sampled actions and frame history started afresh; a copy of a
    subclass is of that subclass (made by Policy.__init__, not its own), with
    the attributes its user set (copied as copy, deepcopy or pickle copies them)."""

    def __init__(self, path, seed=0):
        before = set(self.__dict__)   # a subclass's own attributes, set before this (copies carry them)
        self._handle = None
        self._lock = _lib.guard(self)
        lib = _lib.library()
        self._error = _lib.ErrorBuffer()
        seed = whole(seed, "seed", 0, UINT64_MAX)
        handle = ctypes.c_void_p()
        self._error.check(lib.s2r_flat_policy_load(ctypes.byref(handle), _lib.path_argument(path, "path"), seed,
                                                   self._error.ptr))
        self._handle, self._lib, self.path, self.seed = handle.value, lib, os.fsdecode(path), seed
        dims = [ctypes.c_int() for _ in range(3)]
        robot, task = ctypes.create_string_buffer(16), ctypes.create_string_buffer(16)
        self._error.check(lib.s2r_flat_policy_dims(self._handle, *[ctypes.addressof(d) for d in dims],
                                                   ctypes.addressof(robot), ctypes.addressof(task), self._error.ptr))
        self.obs_dim, self.act_dim, self.history = (d.value for d in dims)
        self.robot, self.task = robot.value.decode(), task.value.decode()
        self._digest = _file_digest(path)   # what a copy must find in the file again
        self._abspath = os.path.abspath(_encode(path, "path"))
        self._own_keys = _lib.own_keys(self, before)   # the rest of __dict__ is the user's: copies carry it

    def _live(self):
        if self._handle is None:
            raise _lib.Sim2RealError("the policy is closed")
        _lib.forked(self, "the policy")
        return self._handle

    def reset(self):
        """The start of an episode: forget the frame history."""
        with _lib.entered(self._lock):
            self._error.check(self._lib.s2r_flat_policy_reset(self._live(), self._error.ptr))

    def act(self, obs, deterministic=True):
        if not isinstance(deterministic, (bool, np.bool_)):   # "False" was truthy: the mean, not a sample
            raise TypeError("deterministic must be True (the mean) or False (a sample), got %r" % (deterministic,))
        o = _action_array(obs, (self.obs_dim,), "observation")
        action = np.empty(self.act_dim, np.float32)
        with _lib.entered(self._lock):
            self._error.check(self._lib.s2r_flat_policy_act(self._live(), _lib.pointer(o), self.obs_dim,
                                                            _lib.pointer(action), int(bool(deterministic)),
                                                            self._error.ptr))
        return action

    __call__ = act

    def close(self):
        """Free the C policy (waits for a call in progress on another thread); closing twice is fine."""
        _lib.release(self, "s2r_flat_policy_destroy")

    def __del__(self):
        self.close()

    def __reduce__(self):
        if getattr(self, "_handle", None) is None:
            raise _lib.Sim2RealError("a closed policy cannot be copied")
        return (_rebuild_policy, (self._abspath, self.seed, self._digest, None if type(self) is Policy else type(self)),
                _lib.user_state(self))

    def __repr__(self):
        return "Policy(%r: %s %s, obs %d, act %d, history %d)" % (self.path, self.robot, self.task, self.obs_dim,
                                                                   self.act_dim, self.history)


def _rebuild_policy(path, seed, digest, cls=None):
    """A Policy (of class ``cls``, a subclass, made by Policy.__init__; None: Policy) of the file at ``path``,
    refused if it no longer has ``digest``; the user's attributes come after (__reduce__'s state)."""
    try:
        now = _file_digest(path)
    except (OSError, _lib.Sim2RealError) as e:
        raise _lib.Sim2RealError("cannot copy the policy of %s: %s" % (os.fsdecode(path), e)) from None
    if now != digest:
        raise _lib.Sim2RealError("cannot copy the policy of %s: the file has changed since it was loaded"
                                 % os.fsdecode(path))
    return _lib.rebuilt(cls, Policy, path, seed)
