"""sim2real from Python: the simulators, the stand-in real fleet and the
policies of sim2real.h through its shared library (``make python``).

    import sim2real
    env = sim2real.Env("ur5e", "push", "randomized")
    obs, info = env.reset(seed=1)
    obs, reward, terminated, truncated, info = env.step(env.action_space.sample())

Where gymnasium is installed, Env is a gymnasium.Env, VecEnv a
gymnasium.vector.VectorEnv, and every combination is registered:
gymnasium.make("sim2real/UR5eReachRandomized-v0"). See python/README.md.
"""
from ._lib import (FLAT_API, VERSION, InvalidArgumentError, LibraryMismatchError, Sim2RealError, library,
                   load_library)
from .checkpoint import actor_mean, read_checkpoint, write_checkpoint
from .env import Box, Env, VecEnv, register
from .policy import Policy
from .recipe import deploy_staged, evaluate_sim_and_real, identify_logs, identify_unit

__version__ = VERSION
__all__ = ["Env", "VecEnv", "Policy", "Box", "evaluate_sim_and_real", "identify_unit", "identify_logs",
           "deploy_staged", "read_checkpoint", "write_checkpoint", "actor_mean", "register", "Sim2RealError",
           "InvalidArgumentError", "LibraryMismatchError", "library", "load_library", "VERSION", "FLAT_API"]

ENV_IDS = register()   # the Gymnasium ids (registered where gymnasium is installed)
