"""Steps per second through Python against the same loop in C, on push.

    python3 python/bench_steps.py          (make bench runs it)

The same episodes are stepped three ways, each with the same actions (drawn
once; the episodes are bit-identical, as make test-python checks), on a
randomized UR5e push simulator:
  C        build/python_reference: the task's s2r_env stepped in a C loop
  Env      sim2real.Env, one environment, one step() per call
  VecEnv   sim2real.VecEnv of 8 environments on one thread, one step() for
           all eight (the same physics per environment step)
Each is timed PAIRS times, interleaved, and the ratio printed is the median
of the per-round ratios: seconds on a shared machine move, ratios less.
The goal for the vectorised form: within 1.5x of C per environment step.

Then the VecEnv's thread default: the same 8 environments stepped on one
thread (threads=1, the default) and on one per core (threads=0), with the
machine as it is and with one busy process per core beside them (each at
this process's priority, ended after the round): the default must not fall
under load as OpenMP's spinning threads do (they wait at every step's
barrier for a thread the busy processes keep off its core).
"""
import multiprocessing
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BUILD = os.environ.get("S2R_BUILD", os.path.join(ROOT, "build"))
os.environ.setdefault("S2R_LIBRARY", os.path.join(BUILD, "libsim2real.so"))
sys.path.insert(0, HERE)
import numpy as np  # noqa: E402
import sim2real  # noqa: E402

ROBOT, TASK, SIMULATOR = "ur5e", "push", "randomized"
EPISODES, ENVS, PAIRS, SEED = 16, 8, 5, 3


def c_steps_per_second(actions, folder):
    path_in, path_out = os.path.join(folder, "actions.bin"), os.path.join(folder, "out.bin")
    actions.tofile(path_in)
    line = subprocess.run([os.path.join(BUILD, "python_reference"), "rollout", ROBOT, TASK, SIMULATOR, "-", "1",
                           str(SEED), str(EPISODES), path_in, path_out], check=True, capture_output=True,
                          text=True).stdout.split()
    return int(line[1]) / float(line[3])


def env_steps_per_second(env, actions):
    steps, t0 = 0, time.perf_counter()
    for i in range(EPISODES):
        env.reset(seed=SEED, options={"episode": i})
        for a in actions[i]:
            _, _, terminated, truncated, _ = env.step(a)
            steps += 1
            if terminated or truncated:
                break
    return steps / (time.perf_counter() - t0)


def vec_steps_per_second(vec, actions):
    """The same episodes, ENVS at a time (environment k of round r runs episode r * ENVS + k)."""
    steps, t0 = 0, time.perf_counter()
    vec.reset(seed=SEED)
    for r in range(EPISODES // ENVS):
        for t in range(actions.shape[1]):
            vec.step(actions[r * ENVS:(r + 1) * ENVS, t])
            steps += ENVS
    return steps / (time.perf_counter() - t0)


def busy(seconds):
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass


def thread_default(actions):
    """VecEnv steps/s with threads=1 and threads=0, idle and beside one busy process per core."""
    vecs = {t: sim2real.VecEnv(ENVS, ROBOT, TASK, SIMULATOR, threads=t, autoreset_mode="same_step") for t in (1, 0)}
    rates = {(t, loaded): [] for t in vecs for loaded in (0, 1)}
    for _ in range(3):
        for loaded in (0, 1):
            load = [multiprocessing.Process(target=busy, args=(60,)) for _ in range(os.cpu_count() if loaded else 0)]
            [p.start() for p in load]
            for t, vec in vecs.items():
                rates[(t, loaded)].append(vec_steps_per_second(vec, actions))
            [p.terminate() for p in load]
            [p.join() for p in load]
    print("  VecEnv (%d) thread default, medians of 3 rounds (%d cores):" % (ENVS, os.cpu_count()))
    for t in vecs:
        print("    threads=%d%-14s %8.0f steps/s idle, %8.0f beside %d busy processes" % (
            t, " (the default)" if t == 1 else " (one per core)", np.median(rates[(t, 0)]), np.median(rates[(t, 1)]),
            os.cpu_count()))
        vecs[t].close()


def main():
    env = sim2real.Env(ROBOT, TASK, SIMULATOR)
    vec = sim2real.VecEnv(ENVS, ROBOT, TASK, SIMULATOR, threads=1, autoreset_mode="same_step")
    actions = np.random.default_rng(1).uniform(-1, 1, (EPISODES, env.episode_steps, env.act_dim)).astype(np.float32)
    rates = {"C": [], "Env": [], "VecEnv": []}
    with tempfile.TemporaryDirectory(prefix="s2r_bench_") as folder:
        for _ in range(PAIRS):
            rates["C"].append(c_steps_per_second(actions, folder))
            rates["Env"].append(env_steps_per_second(env, actions))
            rates["VecEnv"].append(vec_steps_per_second(vec, actions))
    c = np.array(rates["C"])
    print("bench_steps: %s %s, %s simulator, %d episodes, one thread (medians of %d rounds)"
          % (ROBOT, TASK, SIMULATOR, EPISODES, PAIRS))
    print("  C loop                %8.0f steps/s" % np.median(c))
    for name in ("Env", "VecEnv"):
        r = np.array(rates[name])
        label = "Python Env" if name == "Env" else "Python VecEnv (%d)" % ENVS
        print("  %-21s %8.0f steps/s, C is %.2fx as fast (rounds %.2f-%.2f)"
              % (label, np.median(r), np.median(c / r), (c / r).min(), (c / r).max()))
    env.close()
    vec.close()
    thread_default(actions)


if __name__ == "__main__":
    main()
