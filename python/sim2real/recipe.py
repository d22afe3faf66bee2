"""Steps of the recipe run whole in C: a policy measured in simulation and on
stand-in units (a row of the table), system identification of a unit or
from logs, and staged deployment of a checkpoint to the stand-in fleet.
Ctrl-C stops the evaluation and the identifications within about a second
(KeyboardInterrupt; no file written), and staged deployment's program."""
import csv
import ctypes
import glob
import math
import numbers
import os
import subprocess
import warnings

import numpy as np

from . import _lib
from ._lib import INT_MAX, UINT64_MAX, encode as _encode, whole


def evaluate_sim_and_real(policy, robot=None, task=None, episodes=100, seed=1, first_unit=1, units=3):
    """The two numbers of a row of the recipe's table: success in the nominal
    simulator and on stand-in units first_unit .. first_unit + units - 1
    (``episodes`` on each), each with its Wilson 95 % interval, and the gap
    with Newcombe's. robot and task default to what the policy was trained for.
    Ctrl-C stops it after the episodes under way (KeyboardInterrupt).
    Returns {"sim": {...}, "real": {...}, "gap": (gap, lo, hi)}."""
    from .policy import Policy
    if not isinstance(policy, Policy):   # was an AttributeError (None, a path)
        raise TypeError("policy must be a sim2real.Policy (sim2real.Policy(path) loads a checkpoint), got %r"
                        % (policy,))
    robot, task = _made_for(policy, robot, task)
    episodes, seed = whole(episodes, "episodes", 1, INT_MAX), whole(seed, "seed", 0, UINT64_MAX)
    first_unit, units = whole(first_unit, "first_unit", 0, UINT64_MAX), whole(units, "units", 1, 16)
    sim, real = _lib.Eval(), _lib.Eval()
    gap = (ctypes.c_double * 3)()
    error = _lib.ErrorBuffer()
    with _lib.entered(policy._lock):
        error.check(_lib.interruptible(
            _lib.library().s2r_flat_evaluate_sim_and_real, policy._live(), _encode(robot, "robot"), _encode(task, "task"), episodes, seed, first_unit, units,
            ctypes.addressof(sim), ctypes.addressof(real), ctypes.addressof(gap), error.ptr))
    return {"sim": sim.as_dict(), "real": real.as_dict(), "gap": tuple(gap)}


def _made_for(policy, robot, task):
    """robot and task, each defaulting to what ``policy``'s checkpoint records; a checkpoint that records none
    (written with robot or task unset: "unknown") is refused here, saying which to give, rather than in C as an
    unknown robot named "unknown"."""
    found = {"robot": robot or policy.robot, "task": task or policy.task}
    missing = [k for k, v in found.items() if v in ("", "unknown", b"", b"unknown")]
    if missing:
        raise _lib.invalid("the checkpoint %s records no %s: give %s=... (%s)"
                           % (policy.path, " or ".join(missing), "=..., ".join(missing),
                              "; ".join({"robot": "ur5e or panda", "task": "reach or push"}[k] for k in missing)))
    return found["robot"], found["task"]


def identify_unit(robot, task, unit, ranges=None, quick=False, ranges_out=None, identified_out=None):
    """System identification of stand-in unit ``unit`` through its backend, as the recipe's table does it:
    excite, fit by coordinate descent, validate on held-out motion, calibrate the camera (and, for push,
    the object). ``ranges``: the training ranges to re-centre (a file; None: the task's defaults);
    ``quick``: the examples' --quick sizes (seconds, a rough fit), else the full ones (minutes). Writes the
    re-centred ranges to ``ranges_out`` (for ``Env(..., "randomized", ranges=ranges_out)``) and the identified
    simulator to ``identified_out`` when given. Returns {"params": {name: value}, "identifiable": {name: bool},
    "verdict", "relative_start", "relative" (held-out error, fraction of the motion), "camera_offset"
    (m), "sweeps", and for push "object_verdict", "object_relative_start", "object_relative"}."""
    _two_outputs(ranges_out, identified_out)
    out = _lib.Sysid()
    error = _lib.ErrorBuffer()
    error.check(_lib.interruptible(_lib.library().s2r_flat_identify_unit, _encode(robot, "robot"),
                                   _encode(task, "task"), whole(unit, "unit", 0, UINT64_MAX), _path(ranges, "ranges"),
                                   _flag(quick, "quick"), _path(ranges_out, "ranges_out"), _path(identified_out, "identified_out"), ctypes.addressof(out),
                                   error.ptr))
    return _sysid_dict(out, camera=True)


def identify_logs(logs, robot="ur5e", mjcf=None, ranges=None, quick=False, ranges_out=None, identified_out=None):
    """System identification from an arm's logs alone (CSV: t, command_J, q_J; sim2real_logs.h's "Trajectory files"),
    as examples/12_sysid_from_logs.c does it: every log but the last fitted, the last held out for the verdict.
    The model: ``robot``'s, or the MJCF file ``mjcf``. ``ranges``: the training ranges to re-centre (None: the
    defaults); ``quick``: 3 sweeps instead of 12. Writes and returns as identify_unit does, without the camera
    (logs hold joints only), and "held_out": whether a log was held out. One log only is fitted and judged on
    itself, which flatters the verdict: said in a warning; a held-out log with the same motion as a fitted one is
    refused (ValueError), as 12 refuses it."""
    if isinstance(logs, (str, bytes, os.PathLike)) or not len(logs):
        raise ValueError("logs must be a non-empty list of CSV paths")
    _two_outputs(ranges_out, identified_out)
    if len(logs) == 1:
        warnings.warn("identify_logs: one log only - it is fitted and the verdict judges the fitted data "
                      "(flattering); give two or more, the last held out", stacklevel=2)
    paths = (ctypes.c_char_p * len(logs))(*[_encode(p, "log path") for p in logs])
    out = _lib.Sysid()
    error = _lib.ErrorBuffer()
    error.check(_lib.interruptible(_lib.library().s2r_flat_identify_logs, _encode(robot, "robot"), _path(mjcf, "mjcf"),
                                   ctypes.addressof(paths), len(logs), _path(ranges, "ranges"), _flag(quick, "quick"),
                                   _path(ranges_out, "ranges_out"), _path(identified_out, "identified_out"), ctypes.addressof(out), error.ptr))
    result = _sysid_dict(out, camera=False)
    result["held_out"] = len(logs) > 1
    return result


def _path(p, what):
    """A path, or None for none; an empty one is refused (Env refuses it too: not a way to say none)."""
    if p is None:
        return None
    if isinstance(p, (str, bytes)) and not p:
        raise _lib.invalid("%s is an empty path: give None for none, or a file" % what)
    return _encode(p, what)


def _flag(value, what):
    """A yes or no: True, False (numpy's too), or 0 and 1; anything else is refused (the string "no" is true)."""
    if isinstance(value, (bool, np.bool_)) or (isinstance(value, numbers.Integral) and value in (0, 1)):
        return int(bool(value))
    raise TypeError("%s must be True or False, got %r" % (what, value))


def _two_outputs(ranges_out, identified_out):
    """Refuse one file named for both outputs: the second would overwrite the first."""
    if ranges_out is not None and identified_out is not None and \
            os.path.realpath(os.fsdecode(_encode(ranges_out, "ranges_out"))) == \
            os.path.realpath(os.fsdecode(_encode(identified_out, "identified_out"))):
        raise ValueError("ranges_out and identified_out name one file (%s): the identified simulator would overwrite "
                         "the re-centred ranges; give two paths" % os.fsdecode(_encode(ranges_out, "ranges_out")))


def _sysid_dict(out, camera):
    names = [out.name[i].value.decode() for i in range(out.n_params)]
    r = {"params": {n: out.value[i] for i, n in enumerate(names)},
         "identifiable": {n: bool(out.identifiable[i]) for i, n in enumerate(names)},
         "verdict": out.verdict.decode(), "relative_start": out.relative_start, "relative": out.relative,
         "sweeps": out.sweeps}
    if camera:
        r["camera_offset"] = tuple(out.camera_offset)
    if out.object:
        r.update(object_verdict=out.object_verdict.decode(), object_relative_start=out.object_relative_start,
                 object_relative=out.object_relative)
    return r


def _program(name):
    """An example program: in S2R_EXAMPLES, else beside the library (the source tree's build/)."""
    folder = os.environ.get("S2R_EXAMPLES") or os.path.dirname(os.path.abspath(_lib.library()._name))
    path = os.path.join(folder, name)
    if not os.access(path, os.X_OK):
        raise _lib.Sim2RealError("%s not found: build the examples (make) in the repository, or name their folder "
                                 "in S2R_EXAMPLES" % path)
    return path


def deploy_staged(checkpoint, ranges, out, robot=None, task=None, quick=False, seed=1, real_seed=1, threads=1,
                  timeout=None):
    """Staged deployment of the checkpoint at ``checkpoint`` (by its path, wherever it was trained) to the
    stand-in fleet, as examples/06_staged_deployment.c runs it (``--policy CHECKPOINT --ranges RANGES``):
    commissioning, sim regression, system ID of the lab unit, shadow, tethered, constrained, canary,
    autonomous, each gate deciding on measured statistics. ``ranges``: the ranges file it was trained on
    (``Env.write_ranges``, or identify_unit's ``ranges_out``); a checkpoint that records no randomization
    digest, or another one's, is refused before any unit moves. robot, task default to what the checkpoint
    was trained for; ``out``: the folder for 06's files; ``quick``: its smoke sizes. Returns {"stage": where the
    policy ended ("autonomous", or "rolled_back"), "timeline": [{"seq", "stage", "verdict", "next", "n", "value",
    "lo", "hi", "alarm_unit"}...], "log": the JSON-lines deployment log, "output": what 06 printed}; a refusal or
    failure is a Sim2RealError with 06's message. timeout: seconds (> 0) before 06 is stopped
    (subprocess.TimeoutExpired), or None for no limit."""
    from .policy import Policy
    if timeout is not None:   # checked before anything runs: subprocess would take -1 as "already expired"
        if isinstance(timeout, (bool, np.bool_)) or not isinstance(timeout, numbers.Real):
            raise TypeError("timeout must be a number of seconds or None, got %r" % (timeout,))
        if not (math.isfinite(timeout) and timeout > 0):
            raise _lib.invalid("timeout must be None (no limit) or a number of seconds > 0, got %r" % (timeout,))
    checkpoint, ranges, out = (_encode(p, what).decode(errors="surrogateescape")
                               for p, what in ((checkpoint, "checkpoint"), (ranges, "ranges"), (out, "out")))
    if robot is None or task is None:
        made_for = Policy(checkpoint)
        try:
            robot, task = _made_for(made_for, robot, task)
        finally:
            made_for.close()
    robot, task = (_encode(x, what).decode() for x, what in ((robot, "robot"), (task, "task")))   # bytes as str
    args = [_program("06_staged_deployment"), "--policy", checkpoint, "--ranges", ranges, "--out", out,
            "--robot", robot, "--task", task,
            "--seed", str(whole(seed, "seed", 0, UINT64_MAX)), "--real-seed", str(whole(real_seed, "real_seed", 1,
                                                                                         UINT64_MAX - 64)),
            "--threads", str(whole(threads, "threads", 1, _lib.MAX_THREADS))] + (["--quick"] if _flag(quick, "quick") else [])
    run = subprocess.run(args, capture_output=True, text=True, timeout=timeout)
    if run.returncode != 0:
        lines = [line for line in run.stderr.splitlines() if line.strip()] or ["exit status %d" % run.returncode]
        raise _lib.Sim2RealError("staged deployment of %s: %s" % (checkpoint, lines[-1]), run.returncode)
    prefix = "06_push_" if task == "push" else "06_"
    timeline_path, log = (os.path.join(out, prefix + name) for name in ("timeline.csv", "deployment_log.jsonl"))
    with open(timeline_path, newline="") as f:
        timeline = [{k: (v if k in ("stage", "verdict", "next") else float(v) if k in ("value", "lo", "hi")
                         else int(v)) for k, v in row.items()} for row in csv.DictReader(f)]
    files = [f for f in glob.glob(os.path.join(out, prefix + "*"))   # a reach run's: not a push run's beside it
             if task == "push" or not os.path.basename(f).startswith("06_push_")]
    return {"stage": timeline[-1]["next"] if timeline else "sim_regression", "timeline": timeline, "log": log,
            "output": run.stdout, "files": sorted(files)}
