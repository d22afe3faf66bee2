"""Environments: a task on an arm over a simulator or a stand-in real unit,
Gymnasium-style (``reset`` / ``step``, ``observation_space`` /
``action_space``), and a batch of them stepped in one call (``VecEnv``).

Episodes are numbered as C's evaluation numbers them: ``reset(seed=s)``
starts episode 0 of seed s (its start, target and randomized draw are
stream 0 of s), each later ``reset()`` the next episode, and
``options={"episode": i}`` jumps to episode i. Before any seed the seed is
0. The same seeds and actions give bit-identical observations and rewards to
the same loop written in C.
"""
import ctypes

import numpy as np

from . import _lib

try:   # a real gymnasium.Env where gymnasium is installed, the same interface without it
    import gymnasium
    from gymnasium.spaces import Box
    _EnvBase = gymnasium.Env
except ImportError:
    gymnasium = None
    _EnvBase = object

    class Box:
        """A box of R^n, as gymnasium.spaces.Box describes one: shape, low, high, dtype."""

        def __init__(self, low, high, shape, dtype=np.float32, seed=None):
            self.shape = tuple(shape)
            self.dtype = np.dtype(dtype)
            self.low = np.broadcast_to(np.asarray(low, dtype=self.dtype), self.shape).copy()
            self.high = np.broadcast_to(np.asarray(high, dtype=self.dtype), self.shape).copy()
            self._rng = np.random.default_rng(seed)

        def seed(self, seed=None):
            self._rng = np.random.default_rng(seed)
            return [seed]

        def sample(self):
            """Uniform where bounded, normal where not."""
            finite = np.isfinite(self.low) & np.isfinite(self.high)
            x = self._rng.standard_normal(self.shape)
            x[finite] = self._rng.uniform(self.low[finite], self.high[finite])
            return x.astype(self.dtype)

        def contains(self, x):
            x = np.asarray(x)
            return x.shape == self.shape and bool(np.all(x >= self.low) and np.all(x <= self.high))

        __contains__ = contains

        def __repr__(self):
            return "Box(%s, %s, %s, %s)" % (self.low.min(), self.high.max(), self.shape, self.dtype)


def _encode(name, what):
    if not isinstance(name, str):
        raise TypeError("%s must be a string, got %r" % (what, name))
    return name.encode()


def _action_array(action, shape, what="action"):
    """A float32 C-contiguous copy of a floating-point action of `shape`."""
    a = np.asarray(action)
    if a.dtype.kind != "f":
        raise TypeError("%s must be floating point (float32), got dtype %s" % (what, a.dtype))
    if a.shape != shape:
        raise ValueError("%s must have shape %s, got %s" % (what, shape, a.shape))
    return np.ascontiguousarray(a, dtype=np.float32)


class Env(_EnvBase):
    """One task over one backend.

    robot: "ur5e" | "panda"; task: "reach" | "push"; simulator: "nominal",
    "randomized" (every episode's physics, latency and sensing drawn from
    ``ranges``, a ranges file, or the task's default ranges) or "unit" (the
    stand-in real unit whose seed is ``unit``: hidden parameters, effects the
    simulator lacks). camera: None, or a camera calibration (x, y, z in m,
    subtracted from what the camera perceives), e.g. the offset identify_unit
    measured on that unit."""

    metadata = {"render_modes": []}
    render_mode = None

    def __init__(self, robot="ur5e", task="reach", simulator="nominal", ranges=None, unit=1, camera=None):
        lib = _lib.library()
        self._error = _lib.ErrorBuffer()
        self._handle = None
        handle = ctypes.c_void_p()
        ranges_arg = None if ranges is None else _encode(str(ranges), "ranges")
        camera_arg = None if camera is None else np.ascontiguousarray(camera, dtype=np.float64)
        if camera_arg is not None and camera_arg.shape != (3,):
            raise ValueError("camera must be 3 values (x, y, z in m), got shape %s" % (camera_arg.shape,))
        self._error.check(lib.s2r_flat_env_create(ctypes.byref(handle), _encode(robot, "robot"), _encode(task, "task"),
                                                  _encode(simulator, "simulator"), ranges_arg, int(unit),
                                                  None if camera_arg is None else _lib.pointer(camera_arg),
                                                  self._error.ptr))
        self._handle = handle.value
        self._lib = lib
        dims = [ctypes.c_int() for _ in range(4)]
        self._error.check(lib.s2r_flat_env_dims(self._handle, *[ctypes.addressof(d) for d in dims], self._error.ptr))
        self.obs_dim, self.act_dim, self.episode_steps, self.privileged_dim = (d.value for d in dims)
        bounds = [np.empty(n, np.float32) for n in (self.obs_dim, self.obs_dim, self.act_dim, self.act_dim)]
        self._error.check(lib.s2r_flat_env_bounds(self._handle, *[_lib.pointer(b) for b in bounds], self._error.ptr))
        self.observation_space = Box(bounds[0], bounds[1], (self.obs_dim,), np.float32)
        self.action_space = Box(bounds[2], bounds[3], (self.act_dim,), np.float32)
        self.robot, self.task, self.simulator, self.ranges, self.unit = robot, task, simulator, ranges, unit
        self._seed, self._episode = 0, 0
        self._step = _lib.Step()
        self._step_ptr = ctypes.addressof(self._step)

    def _live(self):
        if self._handle is None:
            raise _lib.Sim2RealError("the environment is closed")
        return self._handle

    def reset(self, *, seed=None, options=None):
        """Start the next episode (or episode 0 of ``seed``, or ``options["episode"]``); returns (obs, info)."""
        handle = self._live()
        if gymnasium is not None:
            super().reset(seed=seed)
        if seed is not None:
            self._seed, self._episode = int(seed), 0
        if options and "episode" in options:
            self._episode = int(options["episode"])
        obs = np.empty(self.obs_dim, np.float32)
        self._error.check(self._lib.s2r_flat_env_reset(handle, self._seed, self._episode, _lib.pointer(obs),
                                                       self._error.ptr))
        info = {"seed": self._seed, "episode": self._episode}
        self._episode += 1
        return obs, info

    def step(self, action):
        """One action in [-1, 1]^act_dim (float, clipped); returns (obs, reward, terminated, truncated, info)."""
        handle = self._live()
        a = _action_array(action, (self.act_dim,))
        obs = np.empty(self.obs_dim, np.float32)
        self._error.check(self._lib.s2r_flat_env_step(handle, _lib.pointer(a), self.act_dim, _lib.pointer(obs),
                                                      self._step_ptr, self._error.ptr))
        s = self._step
        info = {"distance": s.distance, "diverged": bool(s.diverged)}
        if s.terminated or s.truncated:
            info["success"] = info["is_success"] = bool(s.success)
        return obs, float(s.reward), bool(s.terminated), bool(s.truncated), info

    def privileged(self):
        """The episode's randomized parameters, each in units of its range (a simulator only)."""
        out = np.empty(max(self.privileged_dim, 1), np.float32)
        self._error.check(self._lib.s2r_flat_env_privileged(self._live(), _lib.pointer(out), self.privileged_dim,
                                                            self._error.ptr))
        return out

    def scripted_action(self, obs):
        """The task's scripted controller's action for ``obs`` (it starts afresh at every reset)."""
        o = _action_array(obs, (self.obs_dim,), "observation")
        action = np.empty(self.act_dim, np.float32)
        self._error.check(self._lib.s2r_flat_env_scripted_act(self._live(), _lib.pointer(o), _lib.pointer(action),
                                                              self._error.ptr))
        return action

    def evaluate(self, policy=None, episodes=100, seed=1):
        """C's own evaluation loop on this task: episodes 0 .. episodes-1 of ``seed`` with the policy's
        deterministic action (a Policy) or the scripted controller (None); a dict with successes,
        success_rate and its Wilson 95 % interval (success_lo, success_hi), mean_distance, mean_return."""
        out = _lib.Eval()
        handle = None if policy is None else policy._live()
        self._error.check(self._lib.s2r_flat_env_evaluate(self._live(), handle, int(episodes), int(seed),
                                                          ctypes.addressof(out), self._error.ptr))
        return out.as_dict()

    def close(self):
        if getattr(self, "_handle", None) is not None:
            self._lib.s2r_flat_env_destroy(self._handle)
            self._handle = None

    def __del__(self):
        self.close()

    def __repr__(self):
        return "Env(%r, %r, %r%s)" % (self.robot, self.task, self.simulator,
                                      ", unit=%d" % self.unit if self.simulator == "unit" else "")


class VecEnv:
    """``num_envs`` environments of one kind, reset and stepped in one call,
    ``threads`` at a time in C (0: all cores). They share one sequence of
    episodes: ``reset(seed=s)`` gives environment i episode i of s, and each
    environment whose episode ends is reset in the same ``step`` to the next
    unused episode (in environment order), its last observation kept in
    ``info["final_obs"][i]``. On units, every environment is a copy of the
    same unit."""

    def __init__(self, num_envs, robot="ur5e", task="reach", simulator="nominal", ranges=None, unit=1, threads=0,
                 camera=None):
        if int(num_envs) < 1:
            raise ValueError("num_envs must be at least 1, got %r" % (num_envs,))
        self.envs = [Env(robot, task, simulator, ranges, unit, camera) for _ in range(int(num_envs))]
        first = self.envs[0]
        self.num_envs, self.threads = int(num_envs), int(threads)
        self.obs_dim, self.act_dim, self.episode_steps = first.obs_dim, first.act_dim, first.episode_steps
        self.single_observation_space, self.single_action_space = first.observation_space, first.action_space
        self._handles = (ctypes.c_void_p * self.num_envs)(*[e._handle for e in self.envs])
        self._steps = np.zeros(self.num_envs, _lib.STEP_DTYPE)   # s2r_flat_step [num_envs]
        self._error = _lib.ErrorBuffer()
        self._lib = first._lib
        self._seed, self._next = 0, 0
        self._closed = False

    def _live(self):
        if self._closed:
            raise _lib.Sim2RealError("the environments are closed")
        return ctypes.addressof(self._handles)

    def _reset_some(self, which, obs):
        """Reset environments `which` (indices) to the next episodes, into obs[which]."""
        n = len(which)
        handles = (ctypes.c_void_p * n)(*[self._handles[i] for i in which])
        seeds = np.full(n, self._seed, np.uint64)
        episodes = np.arange(self._next, self._next + n, dtype=np.uint64)
        out = np.empty((n, self.obs_dim), np.float32)
        self._error.check(self._lib.s2r_flat_reset_many(ctypes.addressof(handles), n, _lib.pointer(seeds),
                                                        _lib.pointer(episodes), _lib.pointer(out), self.threads,
                                                        self._error.ptr))
        self._next += n
        obs[which] = out

    def reset(self, *, seed=None, options=None):
        self._live()
        if seed is not None:
            self._seed, self._next = int(seed), 0
        obs = np.empty((self.num_envs, self.obs_dim), np.float32)
        self._reset_some(list(range(self.num_envs)), obs)
        return obs, {}

    def step(self, actions):
        """actions [num_envs, act_dim] -> obs [num_envs, obs_dim], rewards, terminated, truncated [num_envs], info."""
        handles = self._live()
        a = _action_array(actions, (self.num_envs, self.act_dim), "actions")
        obs = np.empty((self.num_envs, self.obs_dim), np.float32)
        self._error.check(self._lib.s2r_flat_step_many(handles, self.num_envs, _lib.pointer(a), _lib.pointer(obs),
                                                       _lib.pointer(self._steps), self.threads, self._error.ptr))
        s = self._steps
        rewards = s["reward"].astype(np.float32)
        terminated, truncated = s["terminated"].astype(bool), s["truncated"].astype(bool)
        done = terminated | truncated
        info = {"distance": s["distance"].copy(), "success": s["success"].astype(bool) & done}
        if done.any():
            info["final_obs"] = obs.copy()
            self._reset_some(list(np.flatnonzero(done)), obs)
        return obs, rewards, terminated, truncated, info

    def close(self):
        if not self._closed:
            for e in self.envs:
                e.close()
            self._closed = True

    def __del__(self):
        if hasattr(self, "_closed"):
            self.close()
