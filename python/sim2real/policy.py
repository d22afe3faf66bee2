"""Policies trained in C (s2r_policy_save's checkpoints, the examples' *.ckpt),
acting from Python on numpy observations."""
import ctypes

import numpy as np

from . import _lib
from .env import _action_array, _encode


class Policy:
    """A checkpoint's policy. ``act(obs)`` is its action in [-1, 1]^act_dim for
    one observation of its task: the mean (``deterministic=True``, as
    evaluation and deployment use it) or a sample from its Gaussian, drawn from
    the stream ``seed``. A policy with frame history (``history`` > 0) stacks
    its own past frames: call ``reset()`` at the start of every episode."""

    def __init__(self, path, seed=0):
        lib = _lib.library()
        self._error = _lib.ErrorBuffer()
        self._handle = None
        handle = ctypes.c_void_p()
        self._error.check(lib.s2r_flat_policy_load(ctypes.byref(handle), _encode(str(path), "path"), int(seed),
                                                   self._error.ptr))
        self._handle, self._lib, self.path = handle.value, lib, str(path)
        dims = [ctypes.c_int() for _ in range(3)]
        robot, task = ctypes.create_string_buffer(16), ctypes.create_string_buffer(16)
        self._error.check(lib.s2r_flat_policy_dims(self._handle, *[ctypes.addressof(d) for d in dims],
                                                   ctypes.addressof(robot), ctypes.addressof(task), self._error.ptr))
        self.obs_dim, self.act_dim, self.history = (d.value for d in dims)
        self.robot, self.task = robot.value.decode(), task.value.decode()

    def _live(self):
        if self._handle is None:
            raise _lib.Sim2RealError("the policy is closed")
        return self._handle

    def reset(self):
        """The start of an episode: forget the frame history."""
        self._error.check(self._lib.s2r_flat_policy_reset(self._live(), self._error.ptr))

    def act(self, obs, deterministic=True):
        o = _action_array(obs, (self.obs_dim,), "observation")
        action = np.empty(self.act_dim, np.float32)
        self._error.check(self._lib.s2r_flat_policy_act(self._live(), _lib.pointer(o), self.obs_dim,
                                                        _lib.pointer(action), int(bool(deterministic)),
                                                        self._error.ptr))
        return action

    __call__ = act

    def close(self):
        if getattr(self, "_handle", None) is not None:
            self._lib.s2r_flat_policy_destroy(self._handle)
            self._handle = None

    def __del__(self):
        self.close()

    def __repr__(self):
        return "Policy(%r: %s %s, obs %d, act %d, history %d)" % (self.path, self.robot, self.task, self.obs_dim,
                                                                   self.act_dim, self.history)

