"""Checkpoints both ways: a checkpoint's weights as numpy arrays
(read_checkpoint; an equivalent PyTorch nn.Module: python/examples/
torch_load.py), and a checkpoint written from weights trained in Python
(write_checkpoint: numpy arrays, or a PyTorch MLP of the shape below), which
every program of the recipe then loads as one of its own.

The layout (sim2real.h, "Checkpoints"; native byte order, little-endian on
x86 and ARM):

    uint32 header[32]   magic "S2RP", version (2), obs_dim, act_dim,
                        num_hidden, hidden[4], num_params, optimizer floats
                        (0: none), payload bytes, checksum lo/hi (FNV-1a 64
                        over the header with these two words zeroed, then
                        the payload), made_for, history, privileged,
                        randomization digest lo/hi, activations (actor's |
                        critic's << 8: 0 tanh, 1 ReLU), zeros
                        (version 1: 16 words, ending at history)
    float32 params[num_params]
        actor:  for each layer l: W_l [out][in] row-major (nn.Linear's
                weight), then b_l [out]; obs_dim -> hidden... -> act_dim,
                the activation after every hidden layer, the output linear
        log_std [act_dim]
        critic: the same, (obs_dim + privileged) -> hidden... -> 1, the same
                hidden widths, its own activation
    float64 normalizer: count, clip, mean[obs_dim], var[obs_dim]
    (then, if saved, the optimizer's step count and moments)

The action for an observation x (float32 [obs_dim]; with frame history the
stacked observation, s2r_frame_history):

    z = clip((x - mean) / sqrt(var + 1e-8), -clip, clip)
    action = clip(actor(z), -1, 1)        # the mean; sampling adds exp(log_std) N(0, 1)

A PyTorch model of that shape: the actor a ``torch.nn.Sequential`` of
``nn.Linear`` layers with one activation (``nn.Tanh`` or ``nn.ReLU``) after
each but the last, 1..4 hidden layers of 1..256 units; the critic, if any,
the same kind of Sequential with the same hidden widths ending in one
output (without one, the critic is written as zeros: enough to act and
deploy, not to go on training with PPO in C).  Those exact classes: a
subclass (its own forward) or a module with forward hooks or pre-hooks
computes something else than the checkpoint would hold, and is refused.

read_checkpoint refuses what the C loader refuses, with its reasons: the
magic, the version, every header word's bounds (sizes, history 0..8 and a
stack the observation fits, made_for naming an arm and task, activations,
reserved words zero), the checksum, every weight finite, the normalizer (count
and clip finite and > 0, means finite, variances finite and >= 0) and log_std (each within
-40 .. 40, S2R_LOG_STD_MAX: beyond, exp(log_std) or its square leaves
float32's normal range, and past 88.7 a sampled action is infinite): a
damaged or edited file is refused, never read as NaN weights.
write_checkpoint refuses the same before writing, naming the argument and
its bound, with the bounds the library reports (s2r_flat_checkpoint_limits),
and writes through the library (s2r_policy_save's code, which runs the
loader's checks on what it writes), so the file is the library's own,
checksum included.
"""
import ctypes
import math
import numbers
import os

import numpy as np

from . import _lib
from ._lib import UINT64_MAX, encode as _encode, whole

HEADER_WORDS = {1: 16, 2: 32}
MAGIC = 0x50523253   # "S2RP" as a little-endian uint32
ACTIVATIONS = ("tanh", "relu")   # s2r_activation's order
# The loader's bounds (S2R_MLP_MAX_WIDTH, S2R_MAX_HIDDEN_LAYERS, S2R_HISTORY_MAX, S2R_LOG_STD_MAX): the library
# says its own (s2r_flat_checkpoint_limits), and one that says otherwise is refused at load
MAX_WIDTH = _lib.CHECKPOINT_LIMITS["max_width"]
MAX_HIDDEN = _lib.CHECKPOINT_LIMITS["max_hidden"]
HISTORY_MAX = _lib.CHECKPOINT_LIMITS["history_max"]
LOG_STD_MAX = _lib.CHECKPOINT_LIMITS["log_std_max"]
ROBOT_COUNT, TASK_COUNT = 3, 2   # S2R_ROBOT_COUNT (ur5e, panda, custom), S2R_TASK_COUNT: what made_for names


def _checksum(data, words):
    """FNV-1a 64 of the header's `words` words with the checksum's two (12, 13) zeroed, then the payload: the
    library's s2r__ck_checksum."""
    h = 0xCBF29CE484222325
    for b in bytes(data[:48]) + bytes(8) + bytes(data[56:]):
        h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def _layers(params, offset, sizes):
    """[(W [out][in], b [out])] of an MLP of `sizes` starting at `offset`; the offset after it."""
    layers = []
    for n_in, n_out in zip(sizes[:-1], sizes[1:]):
        w = params[offset:offset + n_out * n_in].reshape(n_out, n_in)
        offset += n_out * n_in
        b = params[offset:offset + n_out]
        offset += n_out
        layers.append((w, b))
    return layers, offset


def _header_refusal(h, words, n):
    """Why the library's loader (s2r__ck_check) refuses header h [words] of a file of n bytes; None: it does not."""
    if any(int(x) for x in h[20:words]):
        return "reserved header word %d is not zero" % next(i for i in range(20, words) if h[i])
    activation = int(h[19]) if words > 16 else 0
    if activation > 0xFFFF or activation & 0xFF >= len(ACTIVATIONS) or activation >> 8 >= len(ACTIVATIONS):
        return "activation word %#x names no activation the library has (0 tanh, 1 ReLU)" % activation
    obs_dim, act_dim, num_hidden = int(h[2]), int(h[3]), int(h[4])
    privileged = int(h[16]) if words > 16 else 0
    hidden = [int(x) for x in h[5:5 + min(num_hidden, MAX_HIDDEN)]]
    sizes_fit = (1 <= num_hidden <= MAX_HIDDEN and all(1 <= x <= MAX_WIDTH for x in [obs_dim, act_dim] + hidden)
                 and int(h[5:9].max()) <= 0xFFFF and 0 <= privileged <= MAX_WIDTH - obs_dim)
    if sizes_fit:
        params = _mlp_params([obs_dim] + hidden + [act_dim]) + act_dim + _mlp_params([obs_dim + privileged] +
                                                                                    hidden + [1])
        num_params, opt = int(h[9]), int(h[10])
        payload = 4 * num_params + 8 * (2 + 2 * obs_dim) + (8 + 8 * opt if opt else 0)
        sizes_fit = num_params == params and opt <= num_params and int(h[11]) == payload
    if not sizes_fit:
        return "inconsistent sizes in the header"
    history, made_for = int(h[15]), int(h[14])
    if history > HISTORY_MAX:
        return "history word %d: a policy stacks 0..%d frames" % (history, HISTORY_MAX)
    stacked = obs_dim - act_dim * history
    if history and (stacked < history + 1 or stacked % (history + 1)):
        return "history word %d, but obs %d act %d is no stack of %d observations and %d actions" % (
            history, obs_dim, act_dim, history + 1, history)
    if made_for and ((made_for - 1) // 16 >= ROBOT_COUNT or (made_for - 1) % 16 >= TASK_COUNT):
        return "made_for word %d names no arm and task (0: not known, else s2r_made_for)" % made_for
    if n != 4 * words + int(h[11]):
        return "%d bytes, header says %d (truncated or padded)" % (n, 4 * words + int(h[11]))
    return None


def _mlp_params(sizes):
    return sum(n_out * n_in + n_out for n_in, n_out in zip(sizes[:-1], sizes[1:]))


def read_checkpoint(path):
    """{"obs_dim", "act_dim", "hidden", "history", "privileged", "made_for", "randomization" (the digest, 0: not
    known), "activation", "critic_activation" ("tanh" | "relu"), "actor": [(W, b)...], "log_std",
    "critic": [(W, b)...], "norm_mean", "norm_var", "norm_clip", "norm_count"} from a checkpoint file. A file
    the library's loader refuses is refused here too, with its reason (a ValueError)."""
    data = _lib.read_regular(path)
    name = os.fsdecode(path)
    head = np.frombuffer(data[:8], np.uint32) if len(data) >= 64 else np.zeros(2, np.uint32)
    if head[0] != MAGIC or int(head[1]) not in HEADER_WORDS:
        raise ValueError("%s: not a sim2real checkpoint (magic %#x, version %d)" % (name, head[0], head[1]))
    words = HEADER_WORDS[int(head[1])]
    if len(data) < 4 * words:
        raise ValueError("%s: %d bytes, shorter than its header" % (name, len(data)))
    h = np.zeros(32, np.uint32)
    h[:words] = np.frombuffer(data[:4 * words], np.uint32)
    why = _header_refusal(h, words, len(data))
    if why:
        raise ValueError("%s: %s" % (name, why))
    if _checksum(data, words) != int(h[13]) << 32 | int(h[12]):
        raise ValueError("%s: checksum mismatch (corrupt file)" % name)
    obs_dim, act_dim, num_hidden = int(h[2]), int(h[3]), int(h[4])
    hidden = [int(x) for x in h[5:5 + num_hidden]]
    num_params, opt, privileged, activation = int(h[9]), int(h[10]), int(h[16]), int(h[19])
    randomization = int(h[18]) << 32 | int(h[17])
    params = np.frombuffer(data, np.float32, num_params, 4 * words)
    actor, offset = _layers(params, 0, [obs_dim] + hidden + [act_dim])
    actor_end = offset
    log_std, weights = params[offset:offset + act_dim], np.delete(params, np.s_[offset:offset + act_dim])
    critic, offset = _layers(params, offset + act_dim, [obs_dim + privileged] + hidden + [1])
    norm = np.frombuffer(data, np.float64, 2 + 2 * obs_dim + (1 if opt else 0), 4 * words + 4 * num_params)
    count, clip, mean, var = norm[0], norm[1], norm[2:2 + obs_dim], norm[2 + obs_dim:2 + 2 * obs_dim]
    if not (np.isfinite(count) and np.isfinite(clip) and count > 0 and clip > 0):
        raise ValueError("%s: bad normalizer (count %g, clip %g: each must be finite and > 0)" % (name, count, clip))
    for what, values, ok in (("mean", mean, np.isfinite(mean)), ("variance", var, np.isfinite(var) & (var >= 0))):
        if not ok.all():
            i = int(np.flatnonzero(~ok)[0])
            raise ValueError("%s: bad normalizer: %s[%d] is %g (%s)" % (name, what, i, values[i], "not finite" if
                                                                       what == "mean" else "must be finite and >= 0"))
    bad = np.flatnonzero(~np.isfinite(weights))   # log_std apart: said below as such
    if bad.size:   # a NaN or Inf weight, the checksum made again: the C loader refuses it too
        at = int(bad[0]) + (act_dim if bad[0] >= actor_end else 0)   # its index among all the parameters
        raise ValueError("%s: parameter %d of %d is %g: every weight must be finite" % (name, at, num_params,
                                                                                      params[at]))
    bad = np.flatnonzero(~(np.abs(log_std.astype(np.float64)) <= LOG_STD_MAX))
    if bad.size:
        raise ValueError("%s: log_std[%d] is %g: each must be within -%g .. %g (S2R_LOG_STD_MAX)"
                         % (name, bad[0], log_std[bad[0]], LOG_STD_MAX, LOG_STD_MAX))
    if opt and not (0 <= norm[-1] < 2.0 ** 63 and norm[-1] == np.floor(norm[-1])):
        raise ValueError("%s: bad optimizer step count %g" % (name, norm[-1]))
    return {"obs_dim": obs_dim, "act_dim": act_dim, "hidden": hidden, "made_for": int(h[14]),
            "history": int(h[15]), "privileged": privileged, "randomization": randomization,
            "activation": ACTIVATIONS[activation & 0xFF], "critic_activation": ACTIVATIONS[activation >> 8],
            "actor": actor, "log_std": log_std, "critic": critic, "norm_count": float(count),
            "norm_clip": float(clip), "norm_mean": mean, "norm_var": var}


def actor_mean(checkpoint, obs):
    """The deterministic action of read_checkpoint's weights for obs [obs_dim], in numpy (float64)."""
    c = checkpoint
    z = np.clip((np.asarray(obs, np.float64) - c["norm_mean"]) / np.sqrt(c["norm_var"] + 1e-8),
                -c["norm_clip"], c["norm_clip"])
    relu = c.get("activation") == "relu"
    for k, (w, b) in enumerate(c["actor"]):
        z = w.astype(np.float64) @ z + b
        if k + 1 < len(c["actor"]):
            z = np.maximum(z, 0) if relu else np.tanh(z)
    return np.clip(z, -1, 1)


# --- Writing -------------------------------------------------------------------


def _floats(x, what, dtype=np.float32, shape=None):
    """x (numpy, a torch tensor, a list) as a C-contiguous array of `dtype`: float64 weights are rounded to
    float32, as the layout stores them; integers, non-finite numbers and float32 overflow are refused."""
    if hasattr(x, "detach"):   # a torch tensor or parameter
        x = x.detach().cpu().numpy()
    a = np.asarray(x)
    if a.dtype.kind not in "f":
        raise TypeError("%s must be floating point, got dtype %s" % (what, a.dtype))
    if shape is not None and a.size != int(np.prod(shape)):
        raise _lib.invalid("%s has %d numbers, the layout needs %s" % (what, a.size, "x".join(map(str, shape))))
    if not np.all(np.isfinite(a)):
        raise _lib.invalid("%s holds NaN or infinite numbers" % what)
    with np.errstate(over="ignore"):
        out = np.ascontiguousarray(a.reshape(shape) if shape is not None else a, dtype=dtype)
    if not np.all(np.isfinite(out)):
        raise _lib.invalid("%s holds numbers beyond float32's range (%g)" % (what, np.abs(a).max()))
    return out


def _log_std(x, act_dim, bound):
    """log_std [act_dim] as float32, each within -bound .. bound (the loader's S2R_LOG_STD_MAX): NaN, infinite
    and huge values are refused naming the bound."""
    raw = x.detach().cpu().numpy() if hasattr(x, "detach") else np.asarray(x)
    if raw.dtype.kind == "f" and raw.size == act_dim:
        bad = np.flatnonzero(~(np.abs(raw.astype(np.float64).ravel()) <= bound))
        if bad.size:
            raise _lib.invalid("log_std[%d] is %g: each must be within -%g .. %g (the library's S2R_LOG_STD_MAX: "
                               "beyond it the standard deviation exp(log_std) or the variance leaves float32's "
                               "normal range, and sampled actions become infinite)"
                               % (bad[0], raw.ravel()[bad[0]], bound, bound))
    return _floats(x, "log_std", shape=(act_dim,))


def _positive(value, what):
    """A normalizer's count or clip as a float, finite and > 0 (the loader refuses others)."""
    try:
        if isinstance(value, (bool, np.bool_, str, bytes)):
            raise TypeError
        v = float(value)
    except (TypeError, ValueError):
        raise TypeError("%s must be a number, got %r" % (what, value)) from None
    if not (math.isfinite(v) and v > 0):
        raise _lib.invalid("%s is %r: it must be finite and > 0" % (what, value))
    return v


def _activation_name(value, what):
    if value not in ACTIVATIONS:
        raise _lib.invalid("%s %r: \"tanh\" or \"relu\"" % (what, value))
    return value


def _no_hooks(module, what):
    """Refuse a module with forward hooks or pre-hooks (its own, or every module's: register_module_forward_hook):
    they change what it computes, and the checkpoint would hold the plain layer."""
    from torch.nn.modules import module as torch_module
    hooks = [kind for kind, registered in (
        ("forward hook", getattr(module, "_forward_hooks", None)),
        ("forward pre-hook", getattr(module, "_forward_pre_hooks", None)),
        ("global forward hook", getattr(torch_module, "_global_forward_hooks", None)),
        ("global forward pre-hook", getattr(torch_module, "_global_forward_pre_hooks", None))) if registered]
    if hooks:
        raise _lib.invalid("%s has a %s, which may change what it computes: the checkpoint would hold the plain "
                           "layer; remove it (the handle's remove()) before writing" % (what, hooks[0]))


def _torch_layers(net, what):
    """A torch.nn.Sequential of Linear layers with one Tanh or ReLU between each two: ([(W, b)...], activation);
    anything else is refused naming the layer."""
    import torch.nn as nn
    if type(net) is not nn.Sequential:   # a subclass may compute something else (its own forward)
        raise TypeError("%s must be a torch.nn.Sequential of Linear layers with Tanh or ReLU between them, got %s%s"
                        % (what, type(net).__name__, " (a subclass, with its own forward perhaps: the checkpoint "
                                                     "would hold what nn.Sequential computes)"
                           if isinstance(net, nn.Sequential) else ""))
    _no_hooks(net, what)
    modules = list(net)
    if not modules:
        _layer_count(modules, what)
    layers, activations = [], []
    for k, m in enumerate(modules):
        name = "%s layer %d (%s)" % (what, k, m)
        linear_next = len(layers) == len(activations)
        if type(m) in (nn.Linear, nn.Tanh, nn.ReLU):
            _no_hooks(m, name)
        elif isinstance(m, (nn.Linear, nn.Tanh, nn.ReLU)):
            raise _lib.invalid("%s: a subclass of %s, which may compute something else (its own forward): the "
                               "checkpoint holds what nn.Linear, nn.Tanh and nn.ReLU themselves compute; use those"
                               % (name, next(c.__name__ for c in (nn.Linear, nn.Tanh, nn.ReLU) if isinstance(m, c))))
        if type(m) is nn.Linear:
            if not linear_next:
                raise _lib.invalid("%s: two Linear layers without an activation between them (the layout has "
                                   "Tanh or ReLU after every hidden layer)" % name)
            if layers and m.in_features != layers[-1][0].shape[0]:
                raise _lib.invalid("%s takes %d inputs, the layer before gives %d" % (name, m.in_features,
                                                                                     layers[-1][0].shape[0]))
            bias = m.bias if m.bias is not None else np.zeros(m.out_features, np.float32)
            layers.append((_floats(m.weight, name + " weight"), _floats(bias, name + " bias")))
        elif type(m) in (nn.Tanh, nn.ReLU):
            if linear_next:
                raise _lib.invalid("%s: an activation %s (the layout has one after every hidden Linear layer, none "
                                   "after the output)" % (name, "first" if not layers else "after an activation"))
            activations.append("tanh" if type(m) is nn.Tanh else "relu")
        else:
            raise _lib.invalid("%s: the checkpoint holds Linear layers with Tanh or ReLU between them, not %s"
                               % (name, type(m).__name__))
    if not layers or len(activations) == len(layers):
        raise _lib.invalid("%s layer %d (%s): the output layer must be Linear (the library clips actions to "
                           "[-1, 1] itself)" % (what, len(modules) - 1, modules[-1] if modules else "none"))
    if len(set(activations)) > 1:
        k = [i for i, m in enumerate(modules) if isinstance(m, (nn.Tanh, nn.ReLU))][activations.index(activations[-1])]
        raise _lib.invalid("%s layer %d (%s): one activation for every hidden layer, this network mixes tanh and "
                           "ReLU" % (what, k, modules[k]))
    return layers, activations[0] if activations else None


def _network(net, what, activation):
    """[(W float32 [out][in], b float32 [out])...] and its activation, from numpy layers or a torch Sequential."""
    if hasattr(net, "parameters") and hasattr(net, "forward"):
        layers, found = _torch_layers(net, what)
        return layers, found or activation
    layers = []
    for k, layer in enumerate(net):
        try:
            w, b = layer
        except (TypeError, ValueError):
            raise TypeError("%s layer %d must be a pair (W [out][in], b [out])" % (what, k)) from None
        w = _floats(w, "%s layer %d W" % (what, k))
        if w.ndim != 2:
            raise _lib.invalid("%s layer %d W has shape %s, not [out][in]" % (what, k, w.shape))
        layers.append((w, _floats(b, "%s layer %d b" % (what, k), shape=(w.shape[0],))))
    return layers, activation


def _layer_count(layers, what):
    """Refuses a network of too few or too many Linear layers (an empty one too) before its shape is read."""
    if not 2 <= len(layers) <= MAX_HIDDEN + 1:
        raise _lib.invalid("%s has %d Linear layers: the layout holds 1..%d hidden layers and the output"
                           % (what, len(layers), MAX_HIDDEN))


def _hidden_of(layers, what, n_in, n_out):
    """The hidden widths of an MLP n_in -> ... -> n_out, checked layer by layer."""
    _layer_count(layers, what)
    width = n_in
    for k, (w, b) in enumerate(layers):
        if w.shape[1] != width:
            raise _lib.invalid("%s layer %d takes %d inputs, %s" % (what, k, w.shape[1], "the observation has %d"
                               % width if k == 0 else "the layer before gives %d" % width))
        if w.shape[0] > MAX_WIDTH:
            raise _lib.invalid("%s layer %d is %d wide: at most %d" % (what, k, w.shape[0], MAX_WIDTH))
        width = w.shape[0]
    if width != n_out:
        raise _lib.invalid("%s's last layer gives %d outputs, the layout needs %d" % (what, width, n_out))
    return [w.shape[0] for w, _ in layers[:-1]]


def _digest(trained_on):
    """The randomization digest a checkpoint records: of an Env's ranges, of a ranges file, or given."""
    from .env import Env
    if trained_on is None:
        return 0
    if isinstance(trained_on, Env):
        return trained_on.ranges_digest()
    if isinstance(trained_on, (str, bytes, os.PathLike)):
        digest, error = ctypes.c_uint64(), _lib.ErrorBuffer()
        path = _encode(trained_on, "trained_on")
        if not path:
            raise _lib.invalid("trained_on is an empty path: give the Env it was trained on, the ranges file's "
                               "path, or the digest")
        try:
            error.check(_lib.library().s2r_flat_ranges_digest(path, ctypes.addressof(digest), error.ptr))
        except _lib.Sim2RealError as e:   # a file that cannot be read or is no ranges file: bad input, named
            raise _lib.InvalidArgumentError("trained_on (the ranges file the policy was trained on): %s" % e, e.code,
                                            e.code_name) from None
        return digest.value
    if isinstance(trained_on, (bool, np.bool_)) or not isinstance(trained_on, (numbers.Integral, np.integer)):
        raise _lib.invalid("trained_on must be the Env the policy was trained on, its ranges file's path, or the "
                           "randomization digest (a whole number 0 .. 2**64 - 1, read_checkpoint's "
                           "\"randomization\"), got %r" % (trained_on,))
    return whole(trained_on, "trained_on (a digest)", 0, UINT64_MAX)


def write_checkpoint(path, actor, log_std=None, critic=None, obs_mean=None, obs_var=None, obs_count=1.0, obs_clip=None,
                     activation="tanh", critic_activation=None, robot=None, task=None, history=0, privileged=0,
                     trained_on=None):
    """Write a checkpoint the library loads as its own (Policy, evaluate_sim_and_real, deploy_staged, the C
    examples), through the library's writer.

    actor: a torch.nn.Sequential of the shape in this module's notes, or numpy layers [(W [out][in], b [out])...]
    obs_dim -> hidden... -> act_dim; critic: the same for (obs_dim + privileged) -> hidden... -> 1 (None: zeros);
    log_std [act_dim] (None: zeros). Weights may be float32 or float64 (rounded to float32, the layout's type).
    activation (numpy layers; a torch model says its own): "tanh" or "relu"; critic_activation: the critic's (None:
    the actor's). The normalizer: obs_mean, obs_var [obs_dim] (None: 0 and 1 - 1e-8, so that it divides by
    exactly 1), obs_count (> 0) and obs_clip (> 0; None: 10, the library's, or with no normalizer no clipping).
    robot, task: what it was
    trained for (default: trained_on's, when it is an Env); history: frames stacked. trained_on: the Env it was
    trained on, or the ranges file, or the digest (read_checkpoint's "randomization") - None writes "not known",
    which deploy_staged refuses."""
    from .env import Env
    if isinstance(trained_on, Env):
        robot, task = robot or trained_on.robot, task or trained_on.task
    if robot is None or task is None:
        raise _lib.invalid("write_checkpoint needs robot and task (what the policy was trained for), or "
                           "trained_on=env")
    limits = _lib.checkpoint_limits()
    history = whole(history, "history", 0, limits["history_max"])
    privileged = whole(privileged, "privileged", 0, limits["max_width"])
    layers, activation = _network(actor, "actor", activation)
    _layer_count(layers, "actor")
    obs_dim, act_dim = layers[0][0].shape[1], layers[-1][0].shape[0]
    hidden = _hidden_of(layers, "actor", obs_dim, act_dim)
    critic_activation = critic_activation or activation
    if critic is None:
        sizes = [obs_dim + privileged] + hidden + [1]
        critic_layers = [(np.zeros((o, i), np.float32), np.zeros(o, np.float32)) for i, o in zip(sizes, sizes[1:])]
    else:
        critic_layers, critic_activation = _network(critic, "critic", critic_activation)
        if _hidden_of(critic_layers, "critic", obs_dim + privileged, 1) != hidden:
            raise _lib.invalid("critic's hidden widths %s are not the actor's %s: the layout has one shape for both "
                               "networks" % (_hidden_of(critic_layers, "critic", obs_dim + privileged, 1), hidden))
    activations = [_activation_name(a, what) for a, what in ((activation, "activation"),
                                                             (critic_activation, "critic_activation"))]
    log_std = np.zeros(act_dim, np.float32) if log_std is None else _log_std(log_std, act_dim, limits["log_std_max"])
    no_normalizer = obs_mean is None and obs_var is None
    mean = np.zeros(obs_dim) if obs_mean is None else _floats(obs_mean, "obs_mean", np.float64, (obs_dim,))
    var = np.full(obs_dim, 1 - 1e-8) if obs_var is None else _floats(obs_var, "obs_var", np.float64, (obs_dim,))
    if (var < 0).any():
        i = int(np.flatnonzero(var < 0)[0])
        raise _lib.invalid("obs_var[%d] is %g: each variance must be finite and >= 0" % (i, var[i]))
    obs_count = _positive(obs_count, "obs_count (the observations the normalizer saw)")
    obs_clip = _positive(obs_clip, "obs_clip (normalized values are clipped to it)") if obs_clip is not None else \
        float(np.finfo(np.float32).max) if no_normalizer else 10.0
    params = np.concatenate([x.ravel() for w, b in layers for x in (w, b)] + [log_std] +
                            [x.ravel() for w, b in critic_layers for x in (w, b)]).astype(np.float32)
    c = _lib.Checkpoint(obs_dim=obs_dim, act_dim=act_dim, num_hidden=len(hidden), privileged=privileged,
                        actor_activation=ACTIVATIONS.index(activations[0]),
                        critic_activation=ACTIVATIONS.index(activations[1]), history=history,
                        robot=_encode(robot, "robot")[:15], task=_encode(task, "task")[:15],
                        randomization=_digest(trained_on), norm_count=obs_count, norm_clip=obs_clip)
    for k, width in enumerate(hidden):
        c.hidden[k] = width
    error = _lib.ErrorBuffer()
    target = _lib.path_argument(path, "path", temporary=True)   # a name too long for its .tmp: the reason, not cut
    error.check(_lib.library().s2r_flat_policy_write(target, ctypes.addressof(c), _lib.pointer(params),
                                                     len(params), _lib.pointer(mean), _lib.pointer(var), error.ptr))
    return {"obs_dim": obs_dim, "act_dim": act_dim, "hidden": hidden, "randomization": c.randomization}
