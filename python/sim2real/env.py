"""Environments: a task on an arm over a simulator or a stand-in real unit,
as a Gymnasium environment (``reset`` / ``step``, ``observation_space`` /
``action_space``, ``render``), and a batch of them stepped in one call
(``VecEnv``, a ``gymnasium.vector.VectorEnv``).

Episodes are numbered as C's evaluation numbers them: ``reset(seed=s)``
starts episode 0 of seed s (its start, target and randomized draw are
stream 0 of s), each later ``reset()`` the next episode, and
``options={"episode": i}`` jumps to episode i; ``info["s2r_seed"]`` and
``info["s2r_episode"]`` say which it is. As in Gymnasium, a first
``reset()`` without a seed draws a fresh one (reported the same way), so
unseeded environments differ. The same seeds and actions give bit-identical
observations and rewards to the same loop written in C.

Ownership and threads. Each object owns its C handle alone: a copy (``copy``,
``deepcopy``, ``pickle``) is a new environment made from the same arguments
and episode counters, with no episode running (a randomized one drawing
from the original's ranges, which the copy carries: its ranges file is not
read again, so an edit of it since changes nothing); a copy of a subclass is
of that subclass (made by Env.__init__ or VecEnv.__init__ with the original's
arguments, not by the subclass's own __init__) and carries the attributes its
user set (shared by copy.copy, copied by deepcopy and pickle). One thread at a time uses an
environment: a second one waits for the first (``close`` from another thread
waits for the step in progress). The environments of a ``VecEnv`` belong to
it: they share its lock, only the ``VecEnv`` closes them, and only it resets
and steps them (their own ``reset``, ``step`` and ``evaluate`` are refused:
they would put one environment out of step with the rest); what does not
move an episode (``render``, ``privileged``, ``scripted_action``, the
ranges) stays theirs.
"""
import ctypes
import os
import warnings

import numpy as np

from . import _lib
from ._lib import UINT64_MAX, encode as _encode, whole

try:   # a real gymnasium.Env where gymnasium is installed, the same interface without it
    import gymnasium
except ImportError:
    gymnasium = None
GYMNASIUM_MIN = "1.1"   # the first with gymnasium.vector.AutoresetMode, which VecEnv states
if gymnasium is not None:
    try:
        from gymnasium.vector import AutoresetMode
    except ImportError:   # said, not silent: the environments would quietly not be gymnasium's
        warnings.warn("gymnasium %s is older than %s (no gymnasium.vector.AutoresetMode): sim2real's environments "
                      "are not Gymnasium's here and no ids are registered; pip install 'gymnasium>=%s'"
                      % (getattr(gymnasium, "__version__", "(no version)"), GYMNASIUM_MIN, GYMNASIUM_MIN),
                      stacklevel=2)
        gymnasium = None
if gymnasium is not None:
    from gymnasium.spaces import Box
    from gymnasium.vector import VectorEnv as _VecEnvBase
    from gymnasium.vector.utils import batch_space
    _EnvBase = gymnasium.Env
    AUTORESET = {"next_step": AutoresetMode.NEXT_STEP, "same_step": AutoresetMode.SAME_STEP}
else:
    _EnvBase = _VecEnvBase = object
    AUTORESET = {"next_step": "NextStep", "same_step": "SameStep"}   # gymnasium.vector.AutoresetMode's values

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

    def batch_space(space, n):
        return Box(np.stack([space.low] * n), np.stack([space.high] * n), (n,) + space.shape, space.dtype)

ROBOTS = ("ur5e", "panda")
TASKS = ("reach", "push")
SIMULATORS = ("nominal", "randomized", "unit")
MAX_ENVS = 4096   # environments one VecEnv holds at most
# Rendering's memory. Each environment keeps its renderer (OSMesa context, MuJoCo's multisampled offscreen
# buffer, the read-back buffer) from its first render() on: measured about 48 bytes a pixel and 24 MB besides
# (215 MB at 2048 x 2048, 790 MB at 4096 x 4096). A VecEnv whose renderers would need more than
# RENDER_MEMORY_CAP bytes together is refused when it is made, naming the sizes (it would otherwise be found at
# its first render(), by the kernel's OOM killer). A module setting: raise it on a machine with the memory.
RENDER_BYTES_PER_PIXEL, RENDER_BYTES_BASE = 48, 24 << 20
RENDER_MEMORY_CAP = 4 << 30   # bytes, every renderer of one VecEnv together


def _render_bytes(width, height):
    """About what one environment's renderer holds at width x height px (bytes)."""
    return RENDER_BYTES_PER_PIXEL * width * height + RENDER_BYTES_BASE


def _check_render_memory(render_mode, sizes):
    """Refuse a VecEnv of renderers of ``sizes`` ((width, height) px, one per environment) that would need more
    than RENDER_MEMORY_CAP bytes together."""
    need = sum(_render_bytes(w, h) for w, h in sizes)
    if need > RENDER_MEMORY_CAP:
        shown = ", ".join("%d x %d" % wh for wh in sorted(set(sizes)))
        raise _lib.invalid("render_mode %r for %d environment%s of %s px: each keeps its own renderer (about %d bytes "
                           "a pixel), %.1f GiB together, more than sim2real.env.RENDER_MEMORY_CAP (%.1f GiB): render "
                           "fewer environments or smaller images, or raise the cap on a machine with the memory"
                           % (render_mode, len(sizes), "s" * (len(sizes) > 1), shown, RENDER_BYTES_PER_PIXEL,
                              need / 2 ** 30, RENDER_MEMORY_CAP / 2 ** 30))


def _action_array(action, shape, what="action"):
    """A float32 C-contiguous copy of a floating-point action of `shape`. A finite number beyond float32's range
    (a float64 1e39, say) is refused here, naming it: as float32 it would be Inf, which C would call "NaN or Inf"
    (NaN and Inf themselves are left to C's check, which names them). Always a copy, taken first: another thread
    writing the caller's array meanwhile cannot reach C, which would step some environments on the old values and
    refuse others. A masked array with masked entries is refused (its mask would be dropped)."""
    if isinstance(action, np.ma.MaskedArray) and np.ma.is_masked(action):
        raise ValueError("%s is a masked array with masked entries: give every value (np.ma.filled)" % what)
    a = np.array(action, copy=True)
    if a.dtype.kind != "f":
        raise TypeError("%s must be floating point (float32), got dtype %s" % (what, a.dtype))
    if a.shape != shape:
        raise ValueError("%s must have shape %s, got %s" % (what, shape, a.shape))
    with np.errstate(over="ignore"):
        out = np.ascontiguousarray(a, dtype=np.float32)
    beyond = np.argwhere(np.isfinite(a) & ~np.isfinite(out))
    if beyond.size:
        at = tuple(int(i) for i in beyond[0])
        batch = len(shape) == 2   # a VecEnv's actions [num_envs][act_dim]
        raise _lib.invalid("%s holds %g, beyond float32's range (+-%g, the type the library acts in); %s"
                           % ("environment %d: action" % at[0] if batch else what, a[at], np.finfo(np.float32).max,
                              "no environment was stepped or reset" if batch else "nothing was done"))
    return out


def _fresh_seed():
    """A seed drawn from the operating system's entropy, as Gymnasium seeds an unseeded environment."""
    return int(np.random.SeedSequence().generate_state(1, np.uint64)[0])


def _start(obj, base, seed, episode):
    """Gymnasium's seeding for an Env or a VecEnv: a seed given starts its episode 0 (obj._episode: the next
    episode to start); none before any draws a fresh one; ``episode`` (options') jumps there; np_random is
    seeded by the Gymnasium base class's reset, as Gymnasium's own environments do."""
    if seed is None and obj._seed is None:
        seed = _fresh_seed()
    if gymnasium is not None:
        base.reset(obj, seed=seed)
    if seed is not None:
        obj._seed, obj._episode = seed, 0
    if episode is not None:
        obj._episode = episode


def _episode_options(options):
    """options={"episode": i}: the episode to start (None: the next one)."""
    if options is None:
        return None
    if not isinstance(options, dict):
        raise TypeError("options must be a dict, got %r" % (options,))
    unknown = set(options) - {"episode"}
    if unknown:
        raise _lib.invalid("unknown reset option %s: the one option is \"episode\"" % ", ".join(map(repr, unknown)))
    return whole(options["episode"], 'options["episode"]', 0, UINT64_MAX) if "episode" in options else None


@_lib.short_tracebacks
class Env(_EnvBase):
    """One task over one backend.

    robot: "ur5e" | "panda"; task: "reach" | "push"; simulator: "nominal",
    "randomized" (every episode's physics, latency and sensing drawn from
    ``ranges``, a ranges file, or the task's default ranges) or "unit" (the
    stand-in real unit whose seed is ``unit``, 1 by default and refused for the
    simulators: hidden parameters, effects the
    simulator lacks). camera: None, or a camera calibration (x, y, z in m,
    subtracted from what the camera perceives), e.g. the offset identify_unit
    measured on that unit. render_mode "rgb_array": ``render()`` returns the
    scene as uint8 [height][width][3] (where the library is built with the
    renderer; elsewhere the constructor says how to build it)."""

    metadata = {"render_modes": ["rgb_array"], "render_fps": 25}

    def __init__(self, robot="ur5e", task="reach", simulator="nominal", ranges=None, unit=None, camera=None,
                 render_mode=None, width=480, height=360):
        before = set(self.__dict__)   # a subclass's own attributes, set before this (copies carry them)
        self._handle = None
        self._lock = _lib.guard(self)
        lib = _lib.library()
        self._error = _lib.ErrorBuffer()
        if render_mode not in (None, "rgb_array"):
            raise _lib.invalid("render_mode %r: None or \"rgb_array\"" % (render_mode,))
        width, height = whole(width, "width", 1, 4096), whole(height, "height", 1, 4096)
        if render_mode and not lib.s2r_flat_render_available():
            self._error.check(lib.s2r_flat_env_render(None, width, height, None, self._error.ptr))
        if unit is not None and simulator in ("nominal", "randomized", b"nominal", b"randomized"):   # was ignored
            raise _lib.invalid("unit %r is for simulator \"unit\" (a stand-in unit's seed); the %s simulator has "
                               "none" % (unit, simulator))
        if ranges is not None and not _encode(ranges, "ranges"):   # C reads "" as no file, a copy as the folder "."
            raise _lib.invalid("ranges %r names no file: give a ranges file's path, or None (the randomized "
                               "simulator's default ranges; the others take none)" % (ranges,))
        args = dict(robot=robot, task=task, simulator=simulator, unit=unit)
        unit = 1 if unit is None else whole(unit, "unit", 0, UINT64_MAX)   # unit 1 by default
        args = dict(args, unit=None if args["unit"] is None else unit,
                    ranges=None if ranges is None else os.path.abspath(_encode(ranges, "ranges")),   # for copies
                    camera=None if camera is None else tuple(float(x) for x in np.ravel(camera)),
                    render_mode=render_mode, width=width, height=height)
        camera_arg = None if camera is None else np.ascontiguousarray(camera, dtype=np.float64)
        if camera_arg is not None and camera_arg.shape != (3,):
            raise ValueError("camera must be 3 values (x, y, z in m), got shape %s" % (camera_arg.shape,))
        handle = ctypes.c_void_p()
        self._error.check(lib.s2r_flat_env_create(
            ctypes.byref(handle), _encode(robot, "robot"), _encode(task, "task"), _encode(simulator, "simulator"),
            None if ranges is None else _lib.path_argument(ranges, "ranges"), unit,
            None if camera_arg is None else _lib.pointer(camera_arg), self._error.ptr))
        self._handle, self._lib, self._args = handle.value, lib, args
        dims = [ctypes.c_int() for _ in range(4)]
        period = ctypes.c_double()
        self._error.check(lib.s2r_flat_env_dims(self._handle, *[ctypes.addressof(d) for d in dims],
                                                ctypes.addressof(period), self._error.ptr))
        self.obs_dim, self.act_dim, self.episode_steps, self.privileged_dim = (d.value for d in dims)
        self.control_period = period.value
        bounds = [np.empty(n, np.float32) for n in (self.obs_dim, self.obs_dim, self.act_dim, self.act_dim)]
        self._error.check(lib.s2r_flat_env_bounds(self._handle, *[_lib.pointer(b) for b in bounds], self._error.ptr))
        self.observation_space = Box(bounds[0], bounds[1], (self.obs_dim,), np.float32)
        self.action_space = Box(bounds[2], bounds[3], (self.act_dim,), np.float32)
        robot, task, simulator = (os.fsdecode(x) if isinstance(x, bytes) else x for x in (robot, task, simulator))
        self.robot, self.task, self.simulator, self.ranges, self.unit = robot, task, simulator, ranges, unit
        self.render_mode, self.width, self.height = render_mode, width, height
        self.metadata = {"render_modes": ["rgb_array"] if lib.s2r_flat_render_available() else [],   # check_env
                         "render_fps": round(1 / self.control_period)}   # makes one in each mode listed
        self._seed, self._episode = None, 0   # no seed yet: the first reset draws one
        self._owner = None                    # the VecEnv this environment belongs to
        self._step = _lib.Step()
        self._step_ptr = ctypes.addressof(self._step)
        self._own_keys = _lib.own_keys(self, before)   # the rest of __dict__ is the user's: copies carry it

    def _live(self):
        if self._handle is None:
            raise _lib.Sim2RealError("the environment is closed")
        _lib.forked(self, "the environment")
        return self._handle

    def _alone(self, what):
        """The handle, for a call that moves the episode (reset, step, evaluate): refused while a VecEnv owns
        this environment, whose episodes and pending resets it keeps for it."""
        handle = self._live()
        if self._owner is not None:
            index = next(i for i, e in enumerate(self._owner._envs) if e is self)
            raise _lib.Sim2RealError("%s: this is environment %d of a VecEnv, which keeps its episodes in step: use "
                                     "the VecEnv's reset and step, or an Env of its own (copy.copy(env) makes one) "
                                     "(S2R_ERR_STATE)" % (what, index), _lib.ERR_STATE, "S2R_ERR_STATE")
        return handle

    def reset(self, *, seed=None, options=None):
        """Start the next episode (or episode 0 of ``seed``, or ``options["episode"]``); returns (obs, info)."""
        seed = None if seed is None else whole(seed, "seed", 0, UINT64_MAX)
        episode = _episode_options(options)
        with _lib.entered(self._lock):
            handle = self._alone("reset")
            _start(self, _EnvBase, seed, episode)
            if self._episode > UINT64_MAX:
                raise _lib.invalid("seed %d has no episode after 2**64 - 1: reset with a seed" % self._seed)
            obs = np.empty(self.obs_dim, np.float32)
            self._error.check(self._lib.s2r_flat_env_reset(handle, self._seed, self._episode, _lib.pointer(obs),
                                                           self._error.ptr))
            info = {"s2r_seed": np.uint64(self._seed), "s2r_episode": np.uint64(self._episode)}   # numpy: 64 bits
            self._episode += 1
        return obs, info

    def step(self, action):
        """One action in [-1, 1]^act_dim (float, clipped); returns (obs, reward, terminated, truncated, info)."""
        a = _action_array(action, (self.act_dim,))
        obs = np.empty(self.obs_dim, np.float32)
        with _lib.entered(self._lock):
            self._error.check(self._lib.s2r_flat_env_step(self._alone("step"), _lib.pointer(a), self.act_dim,
                                                          _lib.pointer(obs), self._step_ptr, self._error.ptr))
            s = self._step
            info = {"distance": s.distance, "diverged": bool(s.diverged)}
            if s.terminated or s.truncated:
                info["success"] = info["is_success"] = bool(s.success)
            return obs, float(s.reward), bool(s.terminated), bool(s.truncated), info

    def render(self):
        """The scene now, uint8 [height][width][3] (render_mode "rgb_array"; None otherwise, as Gymnasium asks)."""
        if self.render_mode is None:
            return None
        rgb = np.empty((self.height, self.width, 3), np.uint8)
        with _lib.entered(self._lock):
            self._error.check(self._lib.s2r_flat_env_render(self._live(), self.width, self.height, _lib.pointer(rgb),
                                                            self._error.ptr))
        return rgb

    def privileged(self):
        """The episode's randomized parameters, each in units of its range (a simulator only; refused before the
        first reset, which draws them)."""
        out = np.empty(max(self.privileged_dim, 1), np.float32)
        with _lib.entered(self._lock):
            self._error.check(self._lib.s2r_flat_env_privileged(self._live(), _lib.pointer(out), self.privileged_dim,
                                                                self._error.ptr))
        return out

    def scripted_action(self, obs):
        """The task's scripted controller's action for ``obs`` (it starts afresh at every reset)."""
        o = _action_array(obs, (self.obs_dim,), "observation")
        action = np.empty(self.act_dim, np.float32)
        with _lib.entered(self._lock):
            self._error.check(self._lib.s2r_flat_env_scripted_act(self._live(), _lib.pointer(o), _lib.pointer(action),
                                                                  self._error.ptr))
        return action

    def evaluate(self, policy=None, episodes=100, seed=1):
        """C's own evaluation loop on this task: episodes 0 .. episodes-1 of ``seed`` with the policy's
        deterministic action (a Policy) or the scripted controller (None); a dict with successes,
        success_rate and its Wilson 95 % interval (success_lo, success_hi), mean_distance, mean_return.
        Ctrl-C stops it after the episode under way (KeyboardInterrupt; the environment is usable again)."""
        from .policy import Policy
        if policy is not None and not isinstance(policy, Policy):   # was an AttributeError
            raise TypeError("policy must be a sim2real.Policy or None (the scripted controller), got %r" % (policy,))
        episodes, seed = whole(episodes, "episodes", 1, _lib.INT_MAX), whole(seed, "seed", 0, UINT64_MAX)
        out = _lib.Eval()
        with _lib.entered(self._lock):
            handle = self._alone("evaluate")
            if policy is None:
                code = _lib.interruptible(self._lib.s2r_flat_env_evaluate, handle, None, episodes, seed,
                                          ctypes.addressof(out), self._error.ptr)
            else:
                with _lib.entered(policy._lock):
                    code = _lib.interruptible(self._lib.s2r_flat_env_evaluate, handle, policy._live(), episodes, seed,
                                              ctypes.addressof(out), self._error.ptr)
            self._error.check(code)
        return out.as_dict()

    def ranges_digest(self):
        """The digest of the ranges this simulator draws from (s2r_randomization_digest): what a checkpoint
        trained on it records (``write_checkpoint(..., trained_on=env)``). A unit has none."""
        digest = ctypes.c_uint64()
        with _lib.entered(self._lock):
            self._error.check(self._lib.s2r_flat_env_ranges(self._live(), None, ctypes.addressof(digest),
                                                            self._error.ptr))
        return digest.value

    def write_ranges(self, path):
        """Write the ranges this simulator draws from as a ranges file (s2r_randomization_write), e.g. the
        file ``deploy_staged`` checks a checkpoint trained on this environment against."""
        target = _lib.path_argument(path, "path", temporary=True)   # a name too long for its .tmp: the reason
        with _lib.entered(self._lock):
            self._error.check(self._lib.s2r_flat_env_ranges(self._live(), target, None, self._error.ptr))

    def close(self):
        """Free the C environment (waits for a call in progress on another thread); closing twice is fine. An
        environment of a VecEnv is closed with its VecEnv."""
        if getattr(self, "_owner", None) is not None:
            if self._owner._closed:   # closed with it already
                return
            raise _lib.Sim2RealError("this environment belongs to a VecEnv: close the VecEnv")
        self._destroy()

    def _destroy(self):
        _lib.release(self, "s2r_flat_env_destroy")

    def __del__(self):
        if getattr(self, "_owner", None) is None:   # a VecEnv's environments go with it
            self._destroy()

    def __reduce__(self):
        """copy, deepcopy and pickle: a new environment from the same arguments and episode counters (the
        running episode, if any, is not copied: reset the copy)."""
        if getattr(self, "_handle", None) is None:
            raise _lib.Sim2RealError("a closed environment cannot be copied")
        cls, state = (None if type(self) is Env else type(self)), _lib.user_state(self)
        if self._args["ranges"] is None:
            return _rebuild_env, (self._args, self._seed, self._episode, None, None, None, cls), state
        # the ranges this simulator draws from, not its file again: an edit of the file since would change the copy
        import tempfile
        folder = tempfile.mkdtemp(prefix="s2r_ranges_")
        try:
            path = os.path.join(folder, "ranges.txt")
            self.write_ranges(path)
            with open(path, "rb") as f:
                ranges = f.read()
        finally:
            import shutil
            shutil.rmtree(folder, ignore_errors=True)
        return (_rebuild_env, (self._args, self._seed, self._episode, ranges, self.ranges_digest(), self.ranges, cls),
                state)

    def __repr__(self):
        return "Env(%r, %r, %r%s)" % (self.robot, self.task, self.simulator,
                                      ", unit=%d" % self.unit if self.simulator == "unit" else "")


def _rebuild_env(args, seed, episode, ranges=None, digest=None, shown=None, cls=None):
    """An Env of ``args`` (of class ``cls``, a subclass of Env, made by Env.__init__; None: Env); with ``ranges``
    (a ranges file's bytes), drawing from those rather than from the file ``args`` names (which may have changed
    since), refused if they are not the ranges of ``digest``. The user's attributes come after (__reduce__'s
    state: copy and pickle set them in __dict__)."""
    if ranges is None:
        env = _lib.rebuilt(cls, Env, **args)
    else:
        import shutil
        import tempfile
        folder = tempfile.mkdtemp(prefix="s2r_ranges_")
        try:
            path = os.path.join(folder, "ranges.txt")
            with open(path, "wb") as f:
                f.write(ranges)
            env = _lib.rebuilt(cls, Env, **dict(args, ranges=path))
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        if env.ranges_digest() != digest:
            env.close()
            raise _lib.Sim2RealError("cannot copy the environment: its ranges, written and read again, have another "
                                     "digest (%#x, not %#x)" % (env.ranges_digest(), digest))
        env.ranges, env._args = shown, args   # the file it was made from, as the original says
    env._seed, env._episode = seed, episode
    return env


@_lib.short_tracebacks
class VecEnv(_VecEnvBase):
    """``num_envs`` environments of one kind, reset and stepped in one call,
    ``threads`` at a time in C (1, the default: one thread, which holds its
    speed on a loaded machine; 0: one per core, at most one per environment;
    at most 64, and more than there are environments is refused). They
    share one sequence of episodes: ``reset(seed=s)`` gives environment i
    episode i of s, and each environment whose episode ends is reset to the
    next unused episode (in environment order).
    When, ``autoreset_mode`` says (``metadata["autoreset_mode"]``), as
    Gymnasium's vector environments have it: "next_step" (the default,
    Gymnasium's): the step that ends an episode returns its last observation,
    and the next ``step`` resets that environment instead of stepping it
    (reward 0, not terminated, its action unused); "same_step": the step
    that ends it resets it too, the last observation in
    ``info["final_obs"][i]`` and the last step's info in
    ``info["final_info"]`` (so a step is refused, before anything moves,
    when the seed has fewer episodes left before 2**64 - 1 than there are
    environments: any of them may end and need one). Infos are Gymnasium's:
    arrays with ``_key`` masks. A step or reset that an exception cuts short
    (Ctrl-C's KeyboardInterrupt, a signal handler's) after C has moved the
    environments loses its results but not its bookkeeping: the
    environments whose episodes it ended are reset at the next step (as in
    next_step mode: reward 0, not done), no episode is handed out twice.
    On units, every environment is a copy of the same unit;
    ``VecEnv.of(envs)`` batches environments made apart (units of a fleet,
    say) of one arm and task. render_mode "rgb_array" (and width, height)
    as Env's: ``render()`` returns a tuple of every environment's image, as
    SyncVectorEnv's does (``of``: the environments' own render_mode, one for
    all). Where gymnasium is installed it is a ``gymnasium.vector.VectorEnv``
    (batched spaces; the vector wrappers take it)."""

    metadata = {"autoreset_mode": AUTORESET["next_step"], "render_modes": ["rgb_array"]}
    render_mode = None
    closed = False

    def __init__(self, num_envs, robot="ur5e", task="reach", simulator="nominal", ranges=None, unit=None, threads=1,
                 camera=None, autoreset_mode="next_step", render_mode=None, width=480, height=360, envs=None):
        before = set(self.__dict__)   # a subclass's own attributes, set before this (copies carry them)
        self._closed = True   # until the environments are made
        self._lock = _lib.guard(self)
        self.threads = whole(threads, "threads", 0, _lib.MAX_THREADS)
        if autoreset_mode not in AUTORESET:
            raise _lib.invalid("autoreset_mode %r: \"next_step\" or \"same_step\"" % (autoreset_mode,))
        self.autoreset_mode = autoreset_mode
        n = whole(num_envs, "num_envs", 1, MAX_ENVS) if envs is None else len(envs)
        if 1 <= n < self.threads:   # before any environment is made or taken over
            raise _lib.invalid("threads %d for %d environment%s: each runs on one thread at a time, so 0 (one per "
                               "core, at most one per environment) or 1 .. %d" % (self.threads, n, "s" * (n > 1), n))
        if envs is None:
            if render_mode is not None:   # before n environments are made
                _check_render_memory(render_mode, [(whole(width, "width", 1, 4096), whole(height, "height", 1, 4096))]
                                     * n)
            envs = [Env(robot, task, simulator, ranges, unit, camera, render_mode, width, height) for _ in range(n)]
        self._adopt(list(envs))
        first = self._envs[0]
        self.render_mode = first.render_mode
        self.metadata = {"autoreset_mode": AUTORESET[autoreset_mode],
                         "render_modes": list(first.metadata["render_modes"]),
                         "render_fps": first.metadata["render_fps"]}
        self.num_envs = len(self._envs)
        self.obs_dim, self.act_dim, self.episode_steps = first.obs_dim, first.act_dim, first.episode_steps
        self.single_observation_space, self.single_action_space = first.observation_space, first.action_space
        self.observation_space = batch_space(first.observation_space, self.num_envs)
        self.action_space = batch_space(first.action_space, self.num_envs)
        self._handles = (ctypes.c_void_p * self.num_envs)(*[e._handle for e in self._envs])
        self._steps = np.zeros(self.num_envs, _lib.STEP_DTYPE)   # s2r_flat_step [num_envs]
        self._error = _lib.ErrorBuffer()
        self._lib = first._lib
        self._seed, self._episode = None, 0
        self._pending = np.zeros(self.num_envs, bool)   # ended, to reset at the next step (next_step mode)
        self._inflight = None   # a reset or step in C whose bookkeeping is not done yet (_settle)
        self._closed = False
        self._own_keys = _lib.own_keys(self, before)   # the rest of __dict__ is the user's: copies carry it

    @classmethod
    def of(cls, envs, threads=1, autoreset_mode="next_step"):
        """A VecEnv of environments made apart (``Env`` objects of one arm and task, open, each in no other
        VecEnv), which it takes over: they are closed with it."""
        return cls(None, threads=threads, autoreset_mode=autoreset_mode, envs=list(envs))

    def _adopt(self, envs):
        if not 1 <= len(envs) <= MAX_ENVS:
            raise _lib.invalid("a VecEnv holds 1 .. %d environments, got %d" % (MAX_ENVS, len(envs)))
        for i, e in enumerate(envs):
            if not isinstance(e, Env):
                raise TypeError("environment %d is not a sim2real.Env: %r" % (i, e))
            if e._handle is None or e._owner is not None or any(e is f for f in envs[:i]):
                raise _lib.invalid("environment %d is %s" % (i, "closed" if e._handle is None else "in a VecEnv already"
                                                           if e._owner is not None else "given twice"))
            if (e.robot, e.task) != (envs[0].robot, envs[0].task):
                raise _lib.invalid("environment %d is %s %s, environment 0 %s %s: a VecEnv is one arm and one task"
                                   % (i, e.robot, e.task, envs[0].robot, envs[0].task))
            if e.render_mode != envs[0].render_mode:
                raise _lib.invalid("environment %d has render_mode %r, environment 0 %r: a VecEnv renders all its "
                                   "environments or none" % (i, e.render_mode, envs[0].render_mode))
        if envs[0].render_mode is not None:   # each keeps its renderer: bounded before any is made
            _check_render_memory(envs[0].render_mode, [(e.width, e.height) for e in envs])
        for e in envs:   # from here on, theirs is the VecEnv's lock, and only the VecEnv frees them
            with _lib.entered(e._lock):
                e._owner, e._lock = self, self._lock
        self._envs = tuple(envs)

    @property
    def envs(self):
        """The environments (a tuple: they stay the VecEnv's)."""
        return self._envs

    def _live(self):
        if self._closed:
            raise _lib.Sim2RealError("the environments are closed")
        _lib.forked(self, "the VecEnv")
        return ctypes.addressof(self._handles)

    def _reset_some(self, which, obs):
        """Reset environments `which` (indices) to the next episodes, into obs[which]; their episode numbers.
        Exception-safe (``_settle``): the episodes are counted before the call (given back if C refuses it), and
        the call is journaled with its observations prefilled with NaN, so an exception landing anywhere here
        (a Ctrl-C between two lines) leaves the environments as they are in C."""
        n = len(which)
        if self._episode + n - 1 > UINT64_MAX:
            raise _lib.invalid("seed %d has no episode after 2**64 - 1: reset with a seed" % self._seed)
        handles = (ctypes.c_void_p * n)(*[self._handles[i] for i in which])
        seeds = np.full(n, self._seed, np.uint64)
        first = self._episode
        episodes = np.arange(first, first + n, dtype=np.uint64)
        out = np.full((n, self.obs_dim), np.nan, np.float32)   # finite once C has reset them (_settle)
        which = np.asarray(which, np.intp)
        self._episode = first + n   # before the call: an interrupt after it must not hand these episodes out again
        self._inflight = ("reset", which, out)
        code = self._lib.s2r_flat_reset_many(ctypes.addressof(handles), n, _lib.pointer(seeds),
                                             _lib.pointer(episodes), _lib.pointer(out), self.threads,
                                             self._error.ptr)
        self._pending[which[np.isfinite(out).all(axis=1)]] = False   # those C reset (all, unless it failed)
        self._inflight = None
        if code != _lib.OK:
            self._episode = first   # as before: a failed reset hands out its episodes again
            self._error.check(code)
        obs[which] = out
        return episodes

    def _settle(self):
        """The bookkeeping of a reset or step that an exception (a Ctrl-C, a signal handler's) cut short after
        its call into C, done now from what C wrote: the environments a cut-short step ended are marked for reset
        (the next step resets them, as in next_step mode), those a cut-short reset reset are no longer pending.
        Called under the lock before every reset and step; journaled calls are ``_inflight``."""
        inflight, self._inflight = self._inflight, None
        if inflight is None:
            return
        kind, which, out = inflight
        if kind == "reset":
            self._pending[which[np.isfinite(out).all(axis=1)]] = False   # those C reset (none: it never ran)
        else:   # a step: out is its s2r_flat_step records, zeroed before the call
            self._pending[which] |= (out["terminated"] != 0) | (out["truncated"] != 0)

    def reset(self, *, seed=None, options=None):
        """Environment i to episode i of ``seed`` (or of the running seed's next episodes, or, with
        options={"episode": e}, to episode e + i); returns (obs [num_envs, obs_dim], info)."""
        if seed is not None and np.ndim(seed) != 0:   # one number (a 0-d array too, as Env.reset takes)
            raise _lib.invalid("seed must be one number: the environments share its episodes (environment i "
                               "takes episode i)")
        seed = None if seed is None else whole(seed, "seed", 0, UINT64_MAX)
        episode = _episode_options(options)
        with _lib.entered(self._lock):
            self._live()
            self._inflight = None   # every environment is reset here: nothing cut short matters any more
            _start(self, _VecEnvBase, seed, episode)
            obs = np.empty((self.num_envs, self.obs_dim), np.float32)
            episodes = self._reset_some(list(range(self.num_envs)), obs)
            self._pending[:] = False
        return obs, _masked({}, np.ones(self.num_envs, bool), s2r_seed=np.full(self.num_envs, self._seed, np.uint64),
                            s2r_episode=episodes)

    def _step_some(self, which, a, obs):
        """Step environments `which` (indices; None: all) with their rows of a, into obs; their s2r_flat_step.
        Exception-safe (``_settle``): the records are zeroed and the call journaled before it, and the
        environments it ended are marked pending (``self._pending``) before it returns, so an exception landing
        anywhere from here on never leaves an ended episode unmarked."""
        if which is None:
            handles, n, acts, steps = self._live(), self.num_envs, a, self._steps
            index = np.arange(self.num_envs)
        else:
            n = len(which)
            array = (ctypes.c_void_p * n)(*[self._handles[i] for i in which])
            handles, acts, steps = ctypes.addressof(array), np.ascontiguousarray(a[which]), np.zeros(n, _lib.STEP_DTYPE)
            index = np.asarray(which, np.intp)
        out = obs if which is None else np.empty((n, self.obs_dim), np.float32)
        steps["terminated"], steps["truncated"] = 0, 0   # none ended, until C says so (_settle reads them)
        self._inflight = ("step", index, steps)
        code = self._lib.s2r_flat_step_many(handles, n, _lib.pointer(acts), _lib.pointer(out), _lib.pointer(steps),
                                            self.threads, self._error.ptr)
        self._pending[index] = (steps["terminated"] != 0) | (steps["truncated"] != 0)   # zero where none moved
        self._inflight = None
        self._error.check(code)
        if which is not None:
            obs[which] = out
        return steps

    def step(self, actions):
        """actions [num_envs, act_dim] -> obs [num_envs, obs_dim], rewards, terminated, truncated [num_envs], info.
        Whole or not at all: a NaN or Inf in any row (the unused rows of environments being reset too) is refused,
        naming the environment, before any environment is stepped or reset."""
        a = _action_array(actions, (self.num_envs, self.act_dim), "actions")
        bad = np.flatnonzero(~np.isfinite(a).all(axis=1))
        if bad.size:   # before anything moves: a batch is stepped whole or not at all
            raise _lib.invalid("environment %d: action contains NaN or Inf; no environment was stepped or reset"
                               % bad[0])
        obs = np.empty((self.num_envs, self.obs_dim), np.float32)
        with _lib.entered(self._lock):
            self._live()
            if self._seed is None:   # VecEnv.of over environments reset on their own: the batch has no episodes
                raise _lib.Sim2RealError("step before reset: reset the VecEnv first (environments reset on their own "
                                         "before VecEnv.of are not its episodes); no environment was stepped or "
                                         "reset", _lib.ERR_STATE, "S2R_ERR_STATE")
            self._settle()   # a step or reset an exception cut short: its bookkeeping done now
            if self._pending.any():   # next_step: those that ended are reset instead of stepped
                return self._step_after_ends(a, obs)
            left = UINT64_MAX + 1 - self._episode
            if self.autoreset_mode == "same_step" and left < self.num_envs:   # any may end (diverge, fall)
                raise _lib.invalid("seed %d has %d episode%s left before 2**64 - 1, fewer than the %d environments "
                                   "that this step may end and reset (same_step): reset with a seed; no environment "
                                   "was stepped or reset" % (self._seed, left, "s" * (left != 1), self.num_envs))
            s = self._step_some(None, a, obs)
            rewards = s["reward"].astype(np.float32)
            terminated, truncated = s["terminated"].astype(bool), s["truncated"].astype(bool)
            done = terminated | truncated
            success, diverged = s["success"].astype(bool), s["diverged"].astype(bool)
            info = {}   # as gymnasium.vector.SyncVectorEnv arranges Env's infos
            if self.autoreset_mode == "next_step":
                _masked(info, np.ones(self.num_envs, bool), distance=s["distance"], diverged=diverged)
                _masked(info, done, success=success, is_success=success)   # _step_some marked them pending
                return obs, rewards, terminated, truncated, info
            _masked(info, ~done, distance=s["distance"], diverged=diverged)
            if done.any():
                final = _masked({}, done, distance=s["distance"], diverged=diverged, success=success,
                                is_success=success)
                final_obs = np.full(self.num_envs, None, object)
                for i in np.flatnonzero(done):
                    final_obs[i] = obs[i].copy()
                which = list(np.flatnonzero(done))
                episodes = np.zeros(self.num_envs, np.uint64)
                episodes[which] = self._reset_some(which, obs)
                info.update(final_obs=final_obs, _final_obs=done.copy(), final_info=final, _final_info=done.copy())
                _masked(info, done, s2r_seed=np.full(self.num_envs, self._seed, np.uint64), s2r_episode=episodes)
        return obs, rewards, terminated, truncated, info

    def _step_after_ends(self, a, obs):
        """next_step mode, some environments ended at the last step: reset those, step the others."""
        was = self._pending.copy()   # _reset_some and _step_some keep self._pending as they go
        reset, stepped = list(np.flatnonzero(was)), list(np.flatnonzero(~was))
        episodes = np.zeros(self.num_envs, np.uint64)
        episodes[reset] = self._reset_some(reset, obs)
        rewards, distance = np.zeros(self.num_envs, np.float32), np.zeros(self.num_envs)
        terminated, truncated, diverged, success = (np.zeros(self.num_envs, bool) for _ in range(4))
        if stepped:
            s = self._step_some(stepped, a, obs)
            rewards[stepped], terminated[stepped], truncated[stepped] = s["reward"], s["terminated"], s["truncated"]
            distance[stepped], diverged[stepped], success[stepped] = s["distance"], s["diverged"], s["success"]
        done = terminated | truncated
        info = {}
        _masked(info, ~was, distance=distance, diverged=diverged)
        _masked(info, done, success=success, is_success=success)
        _masked(info, was, s2r_seed=np.full(self.num_envs, self._seed, np.uint64), s2r_episode=episodes)
        return obs, rewards, terminated, truncated, info

    def render(self):
        """Every environment's scene now, a tuple of uint8 [height][width][3] (render_mode "rgb_array"; None
        otherwise), as SyncVectorEnv renders."""
        if self.render_mode is None:
            return None
        self._live()
        return tuple(e.render() for e in self._envs)   # each takes the lock the environments share

    def close(self, **kwargs):
        """Free every environment (waits for a call in progress on another thread); closing twice is fine."""
        if getattr(self, "_closed", True):
            return
        with _lib.entered(self._lock):
            if self._closed:
                return
            for handle, e in zip(self._handles, self._envs):   # its own copy of the handles: members may be torn
                self._lib.s2r_flat_env_destroy(handle)
                e._handle = None
            self._closed = True
        self.closed = True

    def __del__(self):
        self.close()

    def __reduce__(self):
        """copy, deepcopy and pickle: new environments from the same arguments and counters (no episode running:
        reset the copy)."""
        if getattr(self, "_closed", True):
            raise _lib.Sim2RealError("closed environments cannot be copied")
        members = [e.__reduce__() for e in self._envs]
        return (_rebuild_vec, ([m[1] for m in members], self.threads, self.autoreset_mode, self._seed, self._episode,
                               None if type(self) is VecEnv else type(self), [m[2] for m in members]),
                _lib.user_state(self))

    def __repr__(self):
        envs = getattr(self, "_envs", None) or (None,)
        shown = [repr(e) for e in envs]
        if len(set(shown)) > 1:   # VecEnv.of environments of other simulators or units: each as it is
            return "VecEnv.of([%s], threads=%d)" % (", ".join(shown), getattr(self, "threads", 0))
        return "VecEnv(%d x %s, threads=%d)" % (getattr(self, "num_envs", 0), shown[0], getattr(self, "threads", 0))


def _masked(info, mask, **values):
    """Each value [num_envs] into info where mask holds (0 elsewhere), with its mask as "_key"; nothing when the
    mask is empty - the layout of a Gymnasium vector environment's info."""
    if mask.any():
        for key, v in values.items():
            info[key] = np.where(mask, v, np.zeros((), v.dtype))
            info["_" + key] = mask.copy()
    return info


def _rebuild_vec(members, threads, autoreset_mode, seed, episode, cls=None, states=None):
    """A VecEnv (of class ``cls``, a subclass, made by VecEnv.__init__; None: VecEnv) of the environments
    ``members`` rebuild (_rebuild_env's arguments), with their users' attributes ``states``."""
    envs = [_rebuild_env(*m) for m in members]
    for env, state in zip(envs, states or ()):
        if state:
            env.__dict__.update(state)
    vec = _lib.rebuilt(cls, VecEnv, None, threads=threads, autoreset_mode=autoreset_mode, envs=envs)
    vec._seed, vec._episode = seed, episode
    return vec


def register():
    """Register every arm, task and simulator with Gymnasium as ``sim2real/{Arm}{Task}{Simulator}-v0``, e.g.
    ``gymnasium.make("sim2real/UR5eReachRandomized-v0")`` or ``("sim2real/PandaPushUnit-v0", unit=3)``; done at
    import where gymnasium is installed. Each id's vector entry point is VecEnv, so ``gymnasium.make_vec(id,
    num_envs)`` steps its environments in one call in C (``vectorization_mode="sync"`` or ``"async"``: Gymnasium's
    own, over Env). Returns the ids."""
    ids = []
    for robot in ROBOTS:
        for task in TASKS:
            for simulator in SIMULATORS:
                name = "sim2real/%s%s%s-v0" % ({"ur5e": "UR5e", "panda": "Panda"}[robot], task.capitalize(),
                                               simulator.capitalize())
                if gymnasium is not None and name not in gymnasium.registry:
                    gymnasium.register(id=name, entry_point="sim2real.env:Env",
                                       vector_entry_point="sim2real.env:VecEnv",
                                       kwargs=dict(robot=robot, task=task, simulator=simulator))
                ids.append(name)
    return ids
