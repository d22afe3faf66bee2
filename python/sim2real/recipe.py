"""Steps of the recipe run whole in C: a policy measured in simulation and on
stand-in units (a row of the table), and system identification of a unit."""
import ctypes

from . import _lib
from .env import _encode


def evaluate_sim_and_real(policy, robot=None, task=None, episodes=100, seed=1, first_unit=1, units=3):
    """The two numbers of a row of the recipe's table: success in the nominal
    simulator and on stand-in units first_unit .. first_unit + units - 1
    (``episodes`` on each), each with its Wilson 95 % interval, and the gap
    with Newcombe's. robot and task default to what the policy was trained for.
    Returns {"sim": {...}, "real": {...}, "gap": (gap, lo, hi)}."""
    robot = robot or policy.robot
    task = task or policy.task
    sim, real = _lib.Eval(), _lib.Eval()
    gap = (ctypes.c_double * 3)()
    error = _lib.ErrorBuffer()
    error.check(_lib.library().s2r_flat_evaluate_sim_and_real(
        policy._live(), _encode(robot, "robot"), _encode(task, "task"), int(episodes), int(seed), int(first_unit),
        int(units), ctypes.addressof(sim), ctypes.addressof(real), ctypes.addressof(gap), error.ptr))
    return {"sim": sim.as_dict(), "real": real.as_dict(), "gap": tuple(gap)}


def identify_unit(robot, task, unit, ranges=None, quick=False, ranges_out=None, identified_out=None):
    """System identification of stand-in unit ``unit`` through its backend, as the recipe's table does it:
    excite, fit by coordinate descent, validate on held-out motion, calibrate the camera (and, for push,
    the object). ``ranges``: the training ranges to re-centre (a file; None: the task's defaults);
    ``quick``: the examples' --quick sizes (seconds, a rough fit), else the full ones (minutes). Writes the re-centred ranges to ``ranges_out``
    (for ``Env(..., "randomized", ranges=ranges_out)``) and the identified simulator to
    ``identified_out`` when given. Returns {"params": {name: value}, "identifiable": {name: bool},
    "verdict", "relative_start", "relative" (held-out error, fraction of the motion), "camera_offset"
    (m), "sweeps", and for push "object_verdict", "object_relative_start", "object_relative"}."""
    out = _lib.Sysid()
    error = _lib.ErrorBuffer()
    error.check(_lib.library().s2r_flat_identify_unit(_encode(robot, "robot"), _encode(task, "task"), int(unit),
                                                      _path(ranges), int(bool(quick)), _path(ranges_out),
                                                      _path(identified_out), ctypes.addressof(out), error.ptr))
    return _sysid_dict(out, camera=True)


def identify_logs(logs, robot="ur5e", mjcf=None, ranges=None, quick=False, ranges_out=None, identified_out=None):
    """System identification from an arm's logs alone (CSV: t, command_J, q_J; the header's "Trajectory files"),
    as examples/12_sysid_from_logs.c does it: every log but the last fitted, the last held out for the verdict.
    The model: ``robot``'s, or the MJCF file ``mjcf``. ``ranges``: the training ranges to re-centre (None: the
    defaults); ``quick``: 3 sweeps instead of 12. Writes and returns as identify_unit does, without the camera
    (logs hold joints only)."""
    if isinstance(logs, (str, bytes)) or not len(logs):
        raise ValueError("logs must be a non-empty list of CSV paths")
    paths = (ctypes.c_char_p * len(logs))(*[_encode(str(p), "log path") for p in logs])
    out = _lib.Sysid()
    error = _lib.ErrorBuffer()
    error.check(_lib.library().s2r_flat_identify_logs(_encode(robot, "robot"), _path(mjcf), ctypes.addressof(paths),
                                                      len(logs), _path(ranges), int(bool(quick)), _path(ranges_out),
                                                      _path(identified_out), ctypes.addressof(out), error.ptr))
    return _sysid_dict(out, camera=False)


def _path(p):
    return None if p is None else _encode(str(p), "path")


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
