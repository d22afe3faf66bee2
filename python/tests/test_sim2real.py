"""Tests of the Python package against the C library (make test-python).

Python and C must agree bit for bit: whole episodes stepped from Python are
compared byte for byte with the same episodes run by build/python_reference,
a plain C program on sim2real.h's own API, on both arms, both tasks, a
randomized simulator and a stand-in unit; a C-trained checkpoint acting from
Python scores what C's evaluation scores on the same episodes; a checkpoint
written from Python loads back in C bit for bit and goes through evaluation
and staged deployment. Gymnasium's checks pass where gymnasium is installed
(skipped with a message where not); the CleanRL-style example trains at smoke
size where PyTorch is. Bad input - every crash and silent wrap found by
probing the package - raises an exception carrying the library's message.

Environment: S2R_BUILD (default: the repository's build/) holds
libsim2real.so and python_reference; S2R_TEST_CHECKPOINT (default:
build/quick_python/01_pure_sim.ckpt, `01_the_gap --quick`) a reach policy of
the UR5e; S2R_TEST_LOGS (default: build/quick_python) the logs and results of
`12_sysid_from_logs --quick`.
"""
import contextlib
import copy
import ctypes
import io
import os
import pickle
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import unittest
import warnings

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.dirname(HERE))
BUILD = os.environ.get("S2R_BUILD", os.path.join(ROOT, "build"))
os.environ.setdefault("S2R_LIBRARY", os.path.join(BUILD, "libsim2real.so"))
REFERENCE = os.path.join(BUILD, "python_reference")
CHECKPOINT = os.environ.get("S2R_TEST_CHECKPOINT", os.path.join(BUILD, "quick_python", "01_pure_sim.ckpt"))
LOGS = os.environ.get("S2R_TEST_LOGS", os.path.join(BUILD, "quick_python"))   # 12_sysid_from_logs --quick's

import sim2real  # noqa: E402  (after the path and the library are set)
from sim2real import _lib  # noqa: E402

try:
    import torch
except ImportError:
    torch = None
GYMNASIUM = sim2real.env.gymnasium
NO_GYMNASIUM = "gymnasium 1.1 or later is not installed (not in Debian: pip install 'gymnasium>=1.1' into a venv " \
               "made with --system-site-packages, python/README.md): Gymnasium's checks not run"
NO_TORCH = "PyTorch is not installed (apt-get install python3-torch)"

SEED = 7
EPISODES = 2


def python_rollout(env, actions):
    """Episodes 0.. of SEED from Python, as bytes in the reference's layout."""
    out = []
    for i in range(actions.shape[0]):
        obs, info = env.reset(seed=SEED) if i == 0 else env.reset()
        assert info["s2r_episode"] == i
        out.append(obs.tobytes())
        done = False
        for a in actions[i]:
            if done:
                continue
            obs, reward, terminated, truncated, info = env.step(a)
            done = terminated or truncated
            out += [obs.tobytes(), np.float32(reward).tobytes(),
                    np.array([terminated, truncated, info.get("success", False)], np.int32).tobytes(),
                    np.float64(info["distance"]).tobytes()]
    return b"".join(out)


def c_rollout(robot, task, simulator, unit, actions, folder):
    path_in, path_out = os.path.join(folder, "actions.bin"), os.path.join(folder, "out.bin")
    actions.astype(np.float32).tofile(path_in)
    subprocess.run([REFERENCE, "rollout", robot, task, simulator, "-", str(unit), str(SEED), str(actions.shape[0]),
                    path_in, path_out], check=True, capture_output=True)
    with open(path_out, "rb") as f:
        return f.read()


class TestBitIdentical(unittest.TestCase):
    """Python's episodes are C's, byte for byte."""

    def setUp(self):
        self.folder = tempfile.mkdtemp(prefix="s2r_python_")

    def tearDown(self):
        shutil.rmtree(self.folder, ignore_errors=True)

    def check(self, robot, task, simulator, unit=2):
        env = sim2real.Env(robot, task, simulator, unit=unit if simulator == "unit" else None)
        rng = np.random.default_rng(hash((robot, task, simulator)) & 0xFFFF)
        # beyond [-1, 1] on purpose: both sides clip
        actions = rng.uniform(-1.2, 1.2, (EPISODES, env.episode_steps, env.act_dim)).astype(np.float32)
        mine = python_rollout(env, actions)
        theirs = c_rollout(robot, task, simulator, unit, actions, self.folder)
        env.close()
        self.assertGreater(len(theirs), 0)
        self.assertEqual(len(mine), len(theirs), "%s %s %s: episodes of different lengths" % (robot, task, simulator))
        self.assertTrue(mine == theirs, "%s %s %s: Python and C differ" % (robot, task, simulator))

    def test_arms_tasks_randomized_and_unit(self):
        for robot in ("ur5e", "panda"):
            for task in ("reach", "push"):
                for simulator in ("randomized", "unit"):
                    with self.subTest(robot=robot, task=task, simulator=simulator):
                        self.check(robot, task, simulator)

    def test_nominal(self):
        self.check("ur5e", "reach", "nominal")

    def test_reset_numbering(self):
        """reset(seed) is episode 0; options jump to an episode; the same seed repeats."""
        env = sim2real.Env("panda", "push", "randomized")
        first, _ = env.reset(seed=3)
        second, _ = env.reset()
        again, info = env.reset(seed=3, options={"episode": 1})
        self.assertEqual((info["s2r_seed"], info["s2r_episode"]), (3, 1))
        self.assertTrue(np.array_equal(second, again))
        self.assertFalse(np.array_equal(first, second))
        self.assertTrue(np.array_equal(first, env.reset(seed=3)[0]))


class TestBatched(unittest.TestCase):
    def test_vec_env_matches_single_envs_on_any_thread_count(self):
        n, steps = 3, 130   # past push's 125: the first episodes end and reset to the next ones
        rng = np.random.default_rng(11)
        actions = rng.uniform(-1, 1, (steps, n, 2)).astype(np.float32)
        results = []
        for threads in (1, 2):
            vec = sim2real.VecEnv(n, "ur5e", "push", "randomized", threads=threads, autoreset_mode="same_step")
            obs, _ = vec.reset(seed=SEED)
            trace = [obs]
            for t in range(steps):
                obs, rewards, terminated, truncated, info = vec.step(actions[t])
                trace += [obs, rewards]
            vec.close()
            results.append(np.concatenate([x.ravel() for x in trace]))
        self.assertTrue(np.array_equal(results[0], results[1]), "the thread count changed the numbers")
        singles = [sim2real.Env("ur5e", "push", "randomized") for _ in range(n)]
        for i, env in enumerate(singles):
            obs, _ = env.reset(seed=SEED, options={"episode": i})
            self.assertTrue(np.array_equal(obs, results[0][i * 20:(i + 1) * 20]))
            for t in range(10):
                obs, reward, _, _, _ = env.step(actions[t, i])
            offset = n * 20 + 9 * (n * 20 + n)   # after step 10's observations
            self.assertTrue(np.array_equal(obs, results[0][offset + i * 20:offset + (i + 1) * 20]))


@unittest.skipUnless(os.path.isfile(CHECKPOINT), "no checkpoint %s (make test-python trains one with "
                     "01_the_gap --quick)" % CHECKPOINT)
class TestPolicy(unittest.TestCase):
    EPISODES = 6

    def python_evaluate(self, env, act, start=None):
        """Successes, mean return and final distance of episodes 0.. of seed 1, summed in C's order."""
        successes, returns, distance = 0, 0.0, 0.0
        for i in range(self.EPISODES):
            obs, _ = env.reset(seed=1) if i == 0 else env.reset()
            if start:
                start()
            ret, done = 0.0, False
            while not done:
                obs, reward, terminated, truncated, info = env.step(act(obs))
                ret += reward
                done = terminated or truncated
            successes += info["success"]
            returns += ret
            distance += info["distance"]
        return successes, returns / self.EPISODES, distance / self.EPISODES

    def test_checkpoint_scores_as_in_c(self):
        policy = sim2real.Policy(CHECKPOINT)
        self.assertEqual((policy.robot, policy.task), ("ur5e", "reach"))
        for simulator in ("randomized", "unit"):
            env = sim2real.Env("ur5e", "reach", simulator, unit=1 if simulator == "unit" else None)
            successes, mean_return, mean_distance = self.python_evaluate(env, policy.act, policy.reset)
            c = env.evaluate(policy, self.EPISODES, seed=1)
            self.assertEqual(successes, c["successes"])
            self.assertEqual(mean_return, c["mean_return"])
            self.assertEqual(mean_distance, c["mean_distance"])
            line = subprocess.run([REFERENCE, "evaluate", "ur5e", "reach", simulator, "-", "1", "1",
                                   str(self.EPISODES), CHECKPOINT], check=True, capture_output=True, text=True).stdout
            self.assertEqual(line.split(), ["successes", str(successes), "of", str(self.EPISODES)])

    def test_scripted_controller_scores_as_in_c(self):
        env = sim2real.Env("panda", "push", "unit", unit=2)
        successes, mean_return, _ = self.python_evaluate(env, env.scripted_action)
        c = env.evaluate(None, self.EPISODES, seed=1)
        self.assertGreater(successes, 0)
        self.assertEqual((successes, mean_return), (c["successes"], c["mean_return"]))

    def test_sampled_actions_follow_the_seed(self):
        obs, _ = sim2real.Env("ur5e", "reach").reset(seed=1)
        a, b, c = sim2real.Policy(CHECKPOINT, seed=5), sim2real.Policy(CHECKPOINT, seed=5), sim2real.Policy(CHECKPOINT)
        draws = [a.act(obs, deterministic=False) for _ in range(3)]
        self.assertTrue(np.array_equal(np.array(draws), np.array([b.act(obs, deterministic=False) for _ in range(3)])))
        self.assertFalse(np.array_equal(draws[0], draws[1]))
        self.assertTrue(np.array_equal(c.act(obs), c.act(obs)))
        self.assertTrue(np.all(np.abs(draws) <= 1))

    def test_documented_layout(self):
        """read_checkpoint's weights, run in numpy as documented, act as the C policy does."""
        weights, policy = sim2real.read_checkpoint(CHECKPOINT), sim2real.Policy(CHECKPOINT)
        self.assertEqual((weights["obs_dim"], weights["act_dim"], weights["history"]), (33, 6, 0))
        env = sim2real.Env("ur5e", "reach", "randomized")
        obs, _ = env.reset(seed=1)
        for _ in range(env.episode_steps):
            action = policy.act(obs)
            np.testing.assert_allclose(sim2real.actor_mean(weights, obs), action, atol=1e-5)
            obs, _, _, _, _ = env.step(action)

    def test_sim_and_real(self):
        """evaluate_sim_and_real's numbers are the episodes Python steps itself - the nominal simulator's and
        units #2 and #3's, episodes 0.. of seed 5 - and its gap's interval is Newcombe's, computed here."""
        policy = sim2real.Policy(CHECKPOINT)
        r = sim2real.evaluate_sim_and_real(policy, episodes=self.EPISODES, seed=5, first_unit=2, units=2)
        sims = [("nominal", None)] + [("unit", u) for u in (2, 3)]
        counts = []
        for simulator, unit in sims:
            successes, returns, distance = 0, [], []
            env = sim2real.Env("ur5e", "reach", simulator, unit=unit)
            for i in range(self.EPISODES):
                obs, _ = env.reset(seed=5, options={"episode": i})
                total, done = 0.0, False
                while not done:
                    obs, reward, terminated, truncated, info = env.step(policy.act(obs))
                    total += reward
                    done = terminated or truncated
                successes += info["success"]
                returns.append(total)
                distance.append(info["distance"])
            counts.append((successes, returns, distance))
        real = [x for c in counts[1:] for x in c[1]], [x for c in counts[1:] for x in c[2]]
        self.assertEqual((r["sim"]["episodes"], r["real"]["episodes"]), (self.EPISODES, 2 * self.EPISODES))
        self.assertEqual((r["sim"]["successes"], r["real"]["successes"]), (counts[0][0], counts[1][0] + counts[2][0]))
        self.assertAlmostEqual(r["sim"]["mean_return"], np.mean(counts[0][1]), places=9)
        self.assertAlmostEqual(r["real"]["mean_return"], np.mean(real[0]), places=9)
        self.assertAlmostEqual(r["real"]["mean_distance"], np.mean(real[1]), places=12)
        k1, n1, k2, n2 = r["sim"]["successes"], self.EPISODES, r["real"]["successes"], 2 * self.EPISODES
        self.assertAlmostEqual(r["gap"][0], k1 / n1 - k2 / n2, places=12)
        np.testing.assert_allclose(r["gap"][1:], newcombe(k1, n1, k2, n2), atol=1e-12)


def wilson(k, n, z=1.96):
    """Wilson's score interval, as the header documents it (z = 1.96, clipped to [0, 1])."""
    p, denom = k / n, 1 + z * z / n
    centre, half = (p + z * z / (2 * n)) / denom, z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def newcombe(k1, n1, k2, n2):
    """Newcombe's hybrid score interval for p1 - p2 (method 10 of his 1998 paper), from Wilson's."""
    (l1, u1), (l2, u2), d = wilson(k1, n1), wilson(k2, n2), k1 / n1 - k2 / n2
    p1, p2 = k1 / n1, k2 / n2
    return d - np.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2), d + np.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)


class TestIdentify(unittest.TestCase):
    def test_quick_identification_feeds_a_randomized_env(self):
        """A unit identified in quick mode: the fit improves on the first guess, the verdict is the held-out
        error's band (good below 3 % of the motion, block above 5 %), the camera's offset is the unit's hidden
        one (the oracle, read by the C reference) within 2 mm, and the re-centred ranges load into an
        environment."""
        folder = tempfile.mkdtemp(prefix="s2r_python_")
        try:
            ranges = os.path.join(folder, "ranges.txt")
            r = sim2real.identify_unit("ur5e", "reach", 1, quick=True, ranges_out=ranges)
            self.assertEqual(r["verdict"], verdict_band(r["relative"], 0.03, 0.05))
            self.assertLess(r["relative"], r["relative_start"])
            self.assertEqual(set(r["params"]), set(r["identifiable"]))
            self.assertIn("kp", r["params"])
            truth = subprocess.run([REFERENCE, "truth", "ur5e", "1"], check=True, capture_output=True, text=True)
            truth = [float(x) for x in truth.stdout.split()]
            self.assertGreater(np.linalg.norm(truth), 0.005)   # the fleet's 1-3 cm: something to find
            np.testing.assert_allclose(r["camera_offset"], truth, atol=0.002)
            env = sim2real.Env("ur5e", "reach", "randomized", ranges=ranges)
            obs, _ = env.reset(seed=1)
            self.assertEqual(obs.shape, (33,))
        finally:
            shutil.rmtree(folder, ignore_errors=True)

    @unittest.skipUnless(os.path.isfile(os.path.join(LOGS, "12_ranges.txt")), "no %s/12_ranges.txt (make "
                         "test-python runs 12_sysid_from_logs --quick)" % LOGS)
    def test_from_logs_as_example_12(self):
        """From 12_sysid_from_logs --quick's four logs, the ranges and the identified simulator it wrote, byte for
        byte."""
        folder = tempfile.mkdtemp(prefix="s2r_python_")
        try:
            logs = [os.path.join(LOGS, "12_log_%d.csv" % i) for i in range(1, 5)]
            ranges, identified = os.path.join(folder, "ranges.txt"), os.path.join(folder, "identified.txt")
            r = sim2real.identify_logs(logs, "ur5e", quick=True, ranges_out=ranges, identified_out=identified)
            self.assertEqual(r["verdict"], verdict_band(r["relative"], 0.03, 0.05))
            self.assertLess(r["relative"], r["relative_start"])
            self.assertNotIn("camera_offset", r)
            for mine, theirs in ((ranges, "12_ranges.txt"), (identified, "12_identified.txt")):
                with open(mine, "rb") as a, open(os.path.join(LOGS, theirs), "rb") as b:
                    self.assertTrue(a.read() == b.read(), theirs)
        finally:
            shutil.rmtree(folder, ignore_errors=True)

    def test_bad_input(self):
        with self.assertRaisesRegex(ValueError, "unknown robot"):
            sim2real.identify_unit("kuka", "reach", 1, quick=True)
        with self.assertRaisesRegex(ValueError, "non-empty list"):
            sim2real.identify_logs("one.csv")
        with self.assertRaisesRegex(sim2real.Sim2RealError, "no_such_log.csv"):
            sim2real.identify_logs(["no_such_log.csv"], quick=True)
        with self.assertRaisesRegex(sim2real.Sim2RealError, "missing_ranges.txt"):
            sim2real.identify_unit("ur5e", "reach", 1, ranges="missing_ranges.txt", quick=True)


def verdict_band(relative, good, block):
    """The system-ID verdict the header documents for a held-out error (s2r_sysid_verdict)."""
    return "block" if not relative <= block else "good" if relative < good else "acceptable"


class TestReadme(unittest.TestCase):
    @unittest.skipUnless(os.path.isfile(CHECKPOINT), "no checkpoint %s" % CHECKPOINT)
    def test_first_program_runs(self):
        """python/README.md's first program, as printed there (on the checkpoint the tests use)."""
        with open(os.path.join(ROOT, "python", "README.md")) as f:
            text = f.read()
        code = text.split("## A first program")[1].split("```python")[1].split("```")[0]
        code = code.replace('"build/quick_python/01_pure_sim.ckpt"', repr(CHECKPOINT))
        cwd = os.getcwd()
        try:
            os.chdir(ROOT)
            with contextlib.redirect_stdout(io.StringIO()) as printed:
                exec(compile(code, "python/README.md", "exec"), {})
            self.assertIn("'gap'", printed.getvalue())
        finally:
            os.chdir(cwd)


class TestTorchExample(unittest.TestCase):
    def test_torch_load(self):
        """examples/torch_load.py: the equivalent PyTorch module acts as the C policy does, or a skip message."""
        if not os.path.isfile(CHECKPOINT):
            self.skipTest("no checkpoint %s" % CHECKPOINT)
        run = subprocess.run([sys.executable, os.path.join(ROOT, "python", "examples", "torch_load.py"), CHECKPOINT],
                             capture_output=True, text=True)
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        if "skipped" in run.stdout:
            self.skipTest(run.stdout.strip())
        self.assertIn("the module's actions are the C policy's", run.stdout)


class TestSpaces(unittest.TestCase):
    def test_shapes_bounds_dtypes(self):
        for robot, task, obs_dim, act_dim in (("ur5e", "reach", 33, 6), ("panda", "reach", 37, 7),
                                              ("panda", "push", 20, 2)):
            env = sim2real.Env(robot, task)
            self.assertEqual(env.observation_space.shape, (obs_dim,))
            self.assertEqual(env.action_space.shape, (act_dim,))
            self.assertEqual(env.action_space.dtype, np.float32)
            self.assertTrue(np.all(env.action_space.low == -1) and np.all(env.action_space.high == 1))
            self.assertTrue(np.all(np.isinf(env.observation_space.high)))
            obs, _ = env.reset(seed=0)
            self.assertEqual((obs.dtype, obs.shape), (np.float32, (obs_dim,)))
            self.assertTrue(env.observation_space.contains(obs))

    def test_camera_calibration(self):
        """A calibration is subtracted from the perceived target: reach's target and target - flange move by
        -camera (UR5e: [18, 21) and [24, 27)), nothing else does."""
        camera = np.array([0.01, -0.02, 0.015])
        plain, _ = sim2real.Env("ur5e", "reach", "unit", unit=2).reset(seed=1)
        calibrated, _ = sim2real.Env("ur5e", "reach", "unit", unit=2, camera=camera).reset(seed=1)
        for k in (18, 24):
            np.testing.assert_allclose(calibrated[k:k + 3] - plain[k:k + 3], -camera, atol=1e-6)
        moved = np.flatnonzero(calibrated != plain)
        self.assertTrue(set(moved) <= set(range(18, 21)) | set(range(24, 27)), moved)
        with self.assertRaisesRegex(ValueError, "not finite"):
            sim2real.Env("ur5e", "reach", camera=[0, np.inf, 0])
        with self.assertRaisesRegex(ValueError, "not finite .as float32"):   # it read as 0.0 in the observation
            sim2real.Env("ur5e", "reach", camera=[1e308, 0, 0])
        with self.assertRaisesRegex(ValueError, "3 values"):
            sim2real.Env("ur5e", "reach", camera=[0, 0])

    def test_privileged(self):
        env = sim2real.Env("ur5e", "reach", "randomized")
        for made in (env, sim2real.Env("ur5e", "reach"), copy.copy(env)):   # zeros before: "every range's middle"
            with self.assertRaisesRegex(sim2real.Sim2RealError, "no episode yet: reset first.*S2R_ERR_STATE"):
                made.privileged()
        env.reset(seed=1)
        first = env.privileged()
        env.reset()
        self.assertEqual(first.shape, (env.privileged_dim,))
        self.assertFalse(np.array_equal(first, env.privileged()), "every episode draws its own parameters")



class TestBadInput(unittest.TestCase):
    def assertRaisesMessage(self, exception, words, f, *args, **kwargs):
        with self.assertRaises(exception) as caught:
            f(*args, **kwargs)
        for w in words:
            self.assertIn(w, str(caught.exception))

    def test_names(self):
        self.assertRaisesMessage(sim2real.InvalidArgumentError, ["unknown robot", "ur10"], sim2real.Env, "ur10")
        self.assertRaisesMessage(ValueError, ["unknown task", "pick"], sim2real.Env, "ur5e", "pick")
        self.assertRaisesMessage(ValueError, ["unknown simulator", "real"], sim2real.Env, "ur5e", "reach", "real")
        self.assertRaisesMessage(TypeError, ["robot"], sim2real.Env, 5)

    def test_ranges_files(self):
        folder = tempfile.mkdtemp(prefix="s2r_python_")
        try:
            bad = os.path.join(folder, "bad_ranges.txt")
            with open(bad, "w") as f:
                f.write("kp uniform 2 1\n")
            self.assertRaisesMessage(sim2real.Sim2RealError, ["bad_ranges.txt"], sim2real.Env, "ur5e", "reach",
                                     "randomized", ranges=bad)
            self.assertRaisesMessage(sim2real.Sim2RealError, ["missing.txt"], sim2real.Env, "ur5e", "reach",
                                     "randomized", ranges=os.path.join(folder, "missing.txt"))
            self.assertRaisesMessage(ValueError, ["randomized simulator"], sim2real.Env, "ur5e", "reach", "nominal",
                                     ranges=bad)
        finally:
            shutil.rmtree(folder, ignore_errors=True)

    def test_actions(self):
        env = sim2real.Env("ur5e", "reach")
        env.reset(seed=1)
        self.assertRaisesMessage(ValueError, ["shape (6,)"], env.step, np.zeros(5, np.float32))
        self.assertRaisesMessage(ValueError, ["shape (6,)"], env.step, np.zeros((1, 6), np.float32))
        self.assertRaisesMessage(TypeError, ["floating point"], env.step, np.zeros(6, np.int64))
        nan = np.zeros(6, np.float32)
        nan[2] = np.nan
        self.assertRaisesMessage(sim2real.InvalidArgumentError, ["NaN", "S2R_ERR_INVALID_ARGUMENT"], env.step, nan)
        huge = np.zeros(6)
        huge[4] = 1e39   # finite as a double, Inf as float32: was refused as "NaN or Inf"
        self.assertRaisesMessage(ValueError, ["action holds 1e+39, beyond float32's range", "nothing was done"],
                                 env.step, huge)
        self.assertRaisesMessage(ValueError, ["observation holds -1e+39, beyond float32's range"],
                                 env.scripted_action, np.full(env.obs_dim, -1e39))
        env.step(np.zeros(6))   # nothing was lost: the episode goes on (float64 is taken as float32)
        vec = sim2real.VecEnv(2)
        first, _ = vec.reset(seed=1)
        batch = np.zeros((2, 6))
        batch[1, 0] = 1e39
        self.assertRaisesMessage(ValueError, ["environment 1: action holds 1e+39, beyond float32's range",
                                              "no environment was stepped"], vec.step, batch)
        obs, *_ = vec.step(np.zeros((2, 6)))   # whole or not at all: the first step of both episodes
        single = sim2real.Env("ur5e", "reach")
        single.reset(seed=1, options={"episode": 1})
        self.assertTrue(np.array_equal(obs[1], single.step(np.zeros(6))[0]))

    def test_episode_order_and_closed(self):
        env = sim2real.Env("ur5e", "reach")
        self.assertRaisesMessage(sim2real.Sim2RealError, ["before reset", "S2R_ERR_STATE"], env.step, np.zeros(6))
        env.reset(seed=1)
        for _ in range(env.episode_steps):
            env.step(np.zeros(6, np.float32))
        self.assertRaisesMessage(sim2real.Sim2RealError, ["after the episode ended"], env.step, np.zeros(6))
        env.close()
        env.close()
        self.assertRaisesMessage(sim2real.Sim2RealError, ["closed"], env.reset)
        self.assertRaisesMessage(sim2real.Sim2RealError, ["closed"], env.step, np.zeros(6))
        vec = sim2real.VecEnv(2)
        vec.close()
        self.assertRaisesMessage(sim2real.Sim2RealError, ["closed"], vec.reset)

    def test_output_paths_replace_only_files(self):
        """Every file written (ranges, checkpoints, identification's outputs) replaces a regular file only: a FIFO,
        a symbolic link or a directory there is refused naming it and what it is, and left as it was; an empty
        path is refused (write_ranges("") returned None, writing nothing); identification refuses them before
        its work, not after."""
        import stat
        env = sim2real.Env("ur5e", "reach", "randomized")
        layers = [(np.zeros((4, 33), np.float32), np.zeros(4, np.float32)),
                  (np.zeros((6, 4), np.float32), np.zeros(6, np.float32))]
        for write in (env.write_ranges, lambda p: sim2real.write_checkpoint(p, layers, robot="ur5e", task="reach"),
                      lambda p: sim2real.identify_unit("ur5e", "reach", 1, quick=True, ranges_out=p),
                      lambda p: sim2real.identify_unit("ur5e", "reach", 1, quick=True, identified_out=p)):
            self.assertRaisesMessage(sim2real.InvalidArgumentError, ["empty path", "S2R_ERR_INVALID_ARGUMENT"], write,
                                     "")
        folder = tempfile.mkdtemp(prefix="s2r_python_")
        try:
            fifo, link, target = (os.path.join(folder, n) for n in ("fifo.txt", "link.txt", "target.txt"))
            os.mkfifo(fifo)
            with open(target, "w") as f:
                f.write("kept\n")
            os.symlink(target, link)
            for path, what, kind in ((fifo, "a FIFO", stat.S_ISFIFO), (link, "a symbolic link", stat.S_ISLNK),
                                     (folder, "a directory", stat.S_ISDIR)):
                for write in (env.write_ranges,
                              lambda p: sim2real.write_checkpoint(p, layers, robot="ur5e", task="reach"),
                              lambda p: sim2real.identify_unit("ur5e", "reach", 1, quick=True, ranges_out=p)):
                    self.assertRaisesMessage(sim2real.Sim2RealError, [path, what, "not a regular file",
                                                                      "S2R_ERR_IO"], write, path)
                    self.assertTrue(kind(os.lstat(path).st_mode), path)
            with open(target) as f:
                self.assertEqual(f.read(), "kept\n")
            self.assertEqual(sorted(os.listdir(folder)), ["fifo.txt", "link.txt", "target.txt"])   # no .tmp left
            env.write_ranges(target)   # a regular file is replaced
            with open(target) as f:
                self.assertIn("randomization ranges", f.readline())
        finally:
            shutil.rmtree(folder, ignore_errors=True)

    def test_checkpoints(self):
        corpus = os.path.join(ROOT, "tests", "fuzz", "corpus", "checkpoint")
        self.assertRaisesMessage(sim2real.Sim2RealError, ["no_such.ckpt"], sim2real.Policy, "no_such.ckpt")
        self.assertRaisesMessage(sim2real.Sim2RealError, ["truncated.ckpt", "S2R_ERR_CORRUPT"], sim2real.Policy,
                                 os.path.join(corpus, "truncated.ckpt"))
        self.assertRaisesMessage(ValueError, ["truncated.ckpt"], sim2real.read_checkpoint,
                                 os.path.join(corpus, "truncated.ckpt"))
        if os.path.isfile(CHECKPOINT):   # one weight's bytes damaged: refused by both readers, never NaN weights
            with open(CHECKPOINT, "rb") as f:
                damaged = bytearray(f.read())
            damaged[200:208] = b"\xff" * 8
            folder = tempfile.mkdtemp(prefix="s2r_python_")
            try:
                path = os.path.join(folder, "damaged.ckpt")
                with open(path, "wb") as f:
                    f.write(damaged)
                self.assertRaisesMessage(sim2real.Sim2RealError, ["checksum mismatch"], sim2real.Policy, path)
                self.assertRaisesMessage(ValueError, ["damaged.ckpt", "checksum mismatch"], sim2real.read_checkpoint, path)
            finally:
                shutil.rmtree(folder, ignore_errors=True)
            policy = sim2real.Policy(CHECKPOINT)
            self.assertRaisesMessage(ValueError, ["shape (33,)"], policy.act, np.zeros(20, np.float32))
            push = sim2real.Env("ur5e", "push")
            self.assertRaisesMessage(sim2real.Sim2RealError, ["33 observations", "push task"], push.evaluate, policy, 2)
            policy.close()
            self.assertRaisesMessage(sim2real.Sim2RealError, ["closed"], policy.act, np.zeros(33, np.float32))

    def test_flat_api_takes_null_everywhere(self):
        """Every function of sim2real_flat.h, called with NULL (or 0) for every argument, returns an error."""
        from sim2real import _lib
        lib = sim2real.library()
        error = _lib.ErrorBuffer()
        for name, (restype, argtypes) in _lib._SIGNATURES.items():
            if not argtypes:   # s2r_flat_render_available: nothing to pass
                continue
            args = [0 if t in (ctypes.c_int, ctypes.c_uint64) else None for t in argtypes]
            result = getattr(lib, name)(*args)
            if restype is ctypes.c_int:
                self.assertLess(result, 0, name)
                if argtypes[-1] is ctypes.c_void_p:   # and with an error buffer, a message
                    error.buffer.value = b""
                    self.assertLess(getattr(lib, name)(*(args[:-1] + [error.ptr])), 0, name)
                    self.assertNotEqual(error.buffer.value, b"", name)

    @unittest.skipUnless(shutil.which("cc"), "no C compiler to build a library of another version")
    def test_library_of_another_version_is_refused(self):
        folder = tempfile.mkdtemp(prefix="s2r_python_")
        try:
            source, lib = os.path.join(folder, "old.c"), os.path.join(folder, "libold.so")
            with open(source, "w") as f:
                f.write('const char* s2r_flat_version(void) { return "0.0"; }\n'
                        'int s2r_flat_api_version(void) { return 1; }\n')
            subprocess.run(["cc", "-shared", "-fPIC", source, "-o", lib], check=True)
            self.assertRaisesMessage(sim2real.LibraryMismatchError, ["sim2real 0.0", "sim2real " + sim2real.VERSION],
                                     sim2real.load_library, lib)
            with open(source, "w") as f:
                f.write("int something_else(void) { return 0; }\n")
            subprocess.run(["cc", "-shared", "-fPIC", source, "-o", lib + ".other"], check=True)
            self.assertRaisesMessage(ImportError, ["not a sim2real library"], sim2real.load_library, lib + ".other")
        finally:
            shutil.rmtree(folder, ignore_errors=True)


class TestSeeding(unittest.TestCase):
    """Gymnasium's seeding: a first reset without a seed draws a fresh one and says which; with it, C's episodes."""

    def test_unseeded_environments_differ_and_report_their_seed(self):
        a, b = sim2real.Env("ur5e", "reach", "randomized"), sim2real.Env("ur5e", "reach", "randomized")
        (obs_a, info_a), (obs_b, info_b) = a.reset(), b.reset()
        self.assertNotEqual(info_a["s2r_seed"], info_b["s2r_seed"])
        self.assertFalse(np.array_equal(obs_a, obs_b))
        self.assertEqual(info_a["s2r_episode"], 0)
        again, _ = sim2real.Env("ur5e", "reach", "randomized").reset(seed=info_a["s2r_seed"])
        self.assertTrue(np.array_equal(obs_a, again), "the reported seed reproduces the episode")
        self.assertEqual(a.reset()[1]["s2r_episode"], 1)   # later unseeded resets go on with that seed
        vec = sim2real.VecEnv(2, "ur5e", "reach", "randomized")
        _, info = vec.reset()
        self.assertNotEqual(int(info["s2r_seed"][0]), info_a["s2r_seed"])
        self.assertEqual(list(info["s2r_episode"]), [0, 1])

    def test_seed_bits_are_c_bits(self):
        """Seeds beyond 2**63 reach C whole: episode 0 of 2**64 - 1 is the C reference's."""
        folder = tempfile.mkdtemp(prefix="s2r_python_")
        try:
            env = sim2real.Env("ur5e", "reach", "randomized")
            obs, info = env.reset(seed=2 ** 64 - 1)
            self.assertEqual(int(info["s2r_seed"]), 2 ** 64 - 1)
            actions = np.zeros((1, env.episode_steps, env.act_dim), np.float32)
            actions.tofile(os.path.join(folder, "actions.bin"))
            subprocess.run([REFERENCE, "rollout", "ur5e", "reach", "randomized", "-", "1", str(2 ** 64 - 1), "1",
                            os.path.join(folder, "actions.bin"), os.path.join(folder, "out.bin")], check=True,
                           capture_output=True)
            self.assertEqual(np.fromfile(os.path.join(folder, "out.bin"), np.float32, env.obs_dim).tobytes(),
                             obs.tobytes())
        finally:
            shutil.rmtree(folder, ignore_errors=True)


class TestRender(unittest.TestCase):
    def test_rgb_array(self):
        """render_mode="rgb_array": an image of the scene that moves with the arm and changes nothing it shows;
        where the library has no renderer, the constructor says how to build one."""
        if not sim2real.library().s2r_flat_render_available():
            with self.assertRaisesRegex(sim2real.Sim2RealError, "libosmesa6-dev"):
                sim2real.Env("ur5e", "reach", render_mode="rgb_array")
            self.skipTest("the library was built without OSMesa: only the refusal checked")
        env = sim2real.Env("panda", "reach", "unit", unit=2, render_mode="rgb_array", width=160, height=120)
        plain = sim2real.Env("panda", "reach", "unit", unit=2)
        obs, _ = env.reset(seed=1)
        plain.reset(seed=1)
        first = env.render()
        self.assertEqual((first.shape, first.dtype), ((120, 160, 3), np.uint8))
        self.assertGreater(first.std(), 10)   # not blank
        for _ in range(10):
            obs, *_ = env.step(np.ones(7, np.float32))
            moved = env.render()
            mine, *_ = plain.step(np.ones(7, np.float32))
        self.assertTrue(np.array_equal(obs, mine), "rendering changed the episode")
        self.assertGreater(np.abs(moved.astype(int) - first).mean(), 0.1, "the arm moved, the image did not")
        self.assertIsNone(plain.render())   # no render_mode: None, as Gymnasium has it
        vec = sim2real.VecEnv(2, "panda", "reach", "unit", unit=2, render_mode="rgb_array", width=64, height=48)
        vec.reset(seed=1)
        frames = vec.render()   # as SyncVectorEnv renders: a tuple, one image each
        self.assertEqual((type(frames), len(frames), frames[1].shape), (tuple, 2, (48, 64, 3)))
        single = sim2real.Env("panda", "reach", "unit", unit=2, render_mode="rgb_array", width=64, height=48)
        for i in range(2):
            single.reset(seed=1, options={"episode": i})
            self.assertTrue(np.array_equal(frames[i], single.render()), "environment %d's own scene" % i)
        self.assertEqual(copy.copy(vec).render_mode, "rgb_array")
        self.assertIsNone(sim2real.VecEnv(2).render())
        with self.assertRaisesRegex(ValueError, "environment 1 has render_mode None, environment 0 'rgb_array'"):
            sim2real.VecEnv.of([sim2real.Env(render_mode="rgb_array", width=8, height=8), sim2real.Env()])
        with self.assertRaisesRegex(ValueError, "render_mode"):
            sim2real.Env("ur5e", "reach", render_mode="human")
        with self.assertRaisesRegex(ValueError, "width"):
            sim2real.Env("ur5e", "reach", render_mode="rgb_array", width=0)


@unittest.skipIf(GYMNASIUM is None, NO_GYMNASIUM)
class TestGymnasium(unittest.TestCase):
    def quiet(self):
        w = warnings.catch_warnings()
        w.__enter__()
        warnings.filterwarnings("ignore", message=".*Box observation space .*infinity")   # unbounded, as said
        self.addCleanup(w.__exit__)

    def test_async_vector_env_raises_our_error(self):
        """A worker's refusal reaches the main process as itself (its type, message and code name): it was a
        "TypeError: not enough arguments for format string" (gymnasium's logger formats the worker's traceback
        text with %, and our source lines hold % formats), our error never raised."""
        from gymnasium.vector import AsyncVectorEnv
        self.quiet()
        warnings.filterwarnings("ignore", message=".*(ERROR|WARN): ")   # gymnasium's log of the worker's error
        for what, call, words in (
                ("NaN action", lambda envs: envs.step(np.full((2, 6), np.nan, np.float32)), "action contains NaN"),
                ("reset option", lambda envs: envs.reset(options={"bogus": 1}), "unknown reset option 'bogus'"),
                ("evaluate", lambda envs: envs.call("evaluate", episodes=0), "episodes")):
            with self.subTest(what):
                envs = AsyncVectorEnv([lambda: sim2real.Env("ur5e", "reach")] * 2, context="fork")
                try:
                    envs.reset(seed=1)
                    with self.assertRaisesRegex(sim2real.InvalidArgumentError, words) as caught:
                        call(envs)
                    self.assertEqual(caught.exception.code_name, "S2R_ERR_INVALID_ARGUMENT")
                finally:
                    envs.close(terminate=True)

    def test_check_env_everywhere(self):
        """check_env on both arms, both tasks, nominal / randomized / unit, made from the registered ids
        (with the render check where the library renders)."""
        from gymnasium.utils.env_checker import check_env
        self.quiet()
        renders = bool(sim2real.library().s2r_flat_render_available())
        self.assertEqual(len(sim2real.ENV_IDS), 12)
        for name in sim2real.ENV_IDS:
            with self.subTest(name=name):
                env = GYMNASIUM.make(name, render_mode="rgb_array", width=64, height=48) if renders else \
                    GYMNASIUM.make(name)
                check_env(env.unwrapped, skip_render_check=not renders)
                self.assertIsInstance(env.unwrapped, sim2real.Env)
        unit = GYMNASIUM.make("sim2real/PandaPushUnit-v0", unit=3).unwrapped
        self.assertEqual((unit.robot, unit.task, unit.simulator, unit.unit), ("panda", "push", "unit", 3))

    def test_vector_env(self):
        """VecEnv is a gymnasium.vector.VectorEnv: batched spaces, its autoreset mode stated, and each step's
        info laid out as SyncVectorEnv lays out Env's (keys, masks, dtypes) in both modes; the vector wrappers
        take it, and RecordEpisodeStatistics' returns are the rewards summed here."""
        from gymnasium.vector import AutoresetMode, SyncVectorEnv
        from gymnasium.vector.utils import batch_space
        self.quiet()
        for mode, gym_mode in (("next_step", AutoresetMode.NEXT_STEP), ("same_step", AutoresetMode.SAME_STEP)):
            vec = sim2real.VecEnv(3, "ur5e", "push", "randomized", autoreset_mode=mode)
            self.assertIsInstance(vec, GYMNASIUM.vector.VectorEnv)
            self.assertEqual(vec.metadata["autoreset_mode"], gym_mode)
            self.assertEqual(vec.observation_space, batch_space(vec.single_observation_space, 3))
            self.assertEqual(vec.action_space, batch_space(vec.single_action_space, 3))
            sync = SyncVectorEnv([lambda: sim2real.Env("ur5e", "push", "randomized")] * 3, autoreset_mode=gym_mode)
            layouts = [[], []]
            for i, v in enumerate((vec, sync)):
                layouts[i].append(layout(v.reset(seed=1)[1]))
                for t in range(130):
                    a = np.random.default_rng(t).uniform(-1, 1, (3, 2)).astype(np.float32)
                    obs, rewards, terminated, truncated, info = v.step(a)
                    self.assertIn(obs, v.observation_space)
                    layouts[i].append((layout(info), tuple(terminated), tuple(truncated)))
            self.assertEqual(layouts[0], layouts[1], mode)
            stats = GYMNASIUM.wrappers.vector.RecordEpisodeStatistics(
                sim2real.VecEnv(2, "ur5e", "push", "randomized", autoreset_mode=mode))
            stats.reset(seed=4)
            total = np.zeros(2)
            for t in range(127):
                obs, rewards, terminated, truncated, info = stats.step(np.full((2, 2), 0.3, np.float32))
                total += rewards
                if "episode" in info:
                    np.testing.assert_allclose(info["episode"]["r"][info["_episode"]], total[info["_episode"]],
                                               rtol=1e-5)
                    break
            else:
                self.fail("no episode ended in 127 steps")
        wrapped = GYMNASIUM.wrappers.vector.NormalizeObservation(GYMNASIUM.wrappers.vector.ClipAction(
            sim2real.VecEnv(2, "ur5e", "reach", "randomized")))
        wrapped.reset(seed=1)
        wrapped.step(np.zeros((2, 6), np.float32))
        made = GYMNASIUM.make_vec("sim2real/UR5eReachNominal-v0", num_envs=2, vectorization_mode="sync")
        made.reset(seed=1)

    def test_make_vec_makes_a_vec_env(self):
        """make_vec's default for an id is its vector entry point, VecEnv: the same episodes as a VecEnv made
        directly, the id's kwargs and the caller's passed through, the spec recorded, no warning."""
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            made = GYMNASIUM.make_vec("sim2real/PandaPushUnit-v0", num_envs=3, unit=2, autoreset_mode="same_step")
        self.assertIsInstance(made, sim2real.VecEnv)
        self.assertEqual((made.num_envs, made.envs[0].robot, made.envs[0].task, made.envs[0].unit,
                          made.autoreset_mode), (3, "panda", "push", 2, "same_step"))
        self.assertEqual(made.spec.id, "sim2real/PandaPushUnit-v0")
        direct = sim2real.VecEnv(3, "panda", "push", "unit", unit=2, autoreset_mode="same_step")
        a, b = made.reset(seed=5)[0], direct.reset(seed=5)[0]
        for t in range(5):
            actions = np.full((3, 2), 0.1 * t, np.float32)
            a, b = made.step(actions)[0], direct.step(actions)[0]
        self.assertTrue(np.array_equal(a, b))
        sync = GYMNASIUM.make_vec("sim2real/PandaPushUnit-v0", num_envs=2, vectorization_mode="sync", unit=2)
        self.assertIsInstance(sync, GYMNASIUM.vector.SyncVectorEnv)
        if sim2real.library().s2r_flat_render_available():   # render_mode passes through, as to SyncVectorEnv
            frames = []
            for mode in ("vector_entry_point", "sync"):
                v = GYMNASIUM.make_vec("sim2real/UR5eReachNominal-v0", num_envs=2, vectorization_mode=mode,
                                       render_mode="rgb_array", width=32, height=24)
                v.reset(seed=1)
                frames.append(v.render())
                self.assertEqual(v.render_mode, "rgb_array")
            self.assertEqual(*[(type(f), len(f), f[0].shape, f[0].dtype) for f in frames])

    def test_unseeded_sync_vector_env_is_not_copies(self):
        from gymnasium.vector import SyncVectorEnv
        obs, _ = SyncVectorEnv([lambda: sim2real.Env("ur5e", "reach", "randomized")] * 3).reset()
        self.assertEqual(len({o.tobytes() for o in obs}), 3)


class TestOldGymnasium(unittest.TestCase):
    def test_before_autoreset_mode_is_said_and_left_aside(self):
        """A gymnasium older than 1.1 (no gymnasium.vector.AutoresetMode) made the import fall back silently to
        the duck-typed classes: now a warning says so and names the version needed (run everywhere, on a
        stand-in gymnasium package)."""
        folder = tempfile.mkdtemp(prefix="s2r_python_")
        self.addCleanup(shutil.rmtree, folder, True)
        os.makedirs(os.path.join(folder, "gymnasium", "vector"))
        with open(os.path.join(folder, "gymnasium", "__init__.py"), "w") as f:
            f.write("__version__ = '1.0.0'\nclass Env:\n    pass\n")
        with open(os.path.join(folder, "gymnasium", "vector", "__init__.py"), "w") as f:
            f.write("class VectorEnv:\n    pass\n")
        code = "\n".join(["import warnings", "warnings.simplefilter('always')", "import sim2real",
                          "print(sim2real.env.gymnasium, sim2real.Env.__mro__[1].__name__)"])
        run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             env=dict(os.environ, PYTHONPATH=folder + os.pathsep + os.path.dirname(HERE)))
        self.assertEqual((run.returncode, run.stdout.strip()), (0, "None object"), run.stderr[-2000:])
        self.assertIn("gymnasium 1.0.0 is older than 1.1", run.stderr)
        self.assertIn("pip install 'gymnasium>=1.1'", run.stderr)


def layout(info):
    """An info dict's keys, masks and dtypes (values aside)."""
    return {k: layout(v) if isinstance(v, dict) else (v.dtype.kind, tuple(v) if k.startswith("_") else v.shape)
            for k, v in info.items()}


class TestVecEnvModes(unittest.TestCase):
    def test_next_step_resets_on_the_step_after(self):
        """next_step: the step that ends an episode returns its last observation; the next one resets the
        environment to the next unused episode (reward 0, not done) and steps the others."""
        vec = sim2real.VecEnv(2, "ur5e", "reach", "randomized", autoreset_mode="next_step")
        single = sim2real.Env("ur5e", "reach", "randomized")
        obs, _ = vec.reset(seed=SEED)
        for t in range(single.episode_steps):
            obs, rewards, terminated, truncated, info = vec.step(np.zeros((2, 6), np.float32))
        self.assertTrue(truncated.all())
        self.assertEqual(set(info["_success"]), {True})
        last, _ = single.reset(seed=SEED, options={"episode": 1})
        for t in range(single.episode_steps):
            last, *_ = single.step(np.zeros(6, np.float32))
        self.assertTrue(np.array_equal(obs[1], last), "the last observation, not a reset one")
        obs, rewards, terminated, truncated, info = vec.step(np.ones((2, 6), np.float32))
        self.assertEqual((list(rewards), list(terminated), list(truncated)), ([0, 0], [False] * 2, [False] * 2))
        self.assertEqual(list(info["s2r_episode"]), [2, 3])
        self.assertTrue(np.array_equal(obs[0], single.reset(seed=SEED, options={"episode": 2})[0]))
        with self.assertRaisesRegex(ValueError, "autoreset_mode"):
            sim2real.VecEnv(2, autoreset_mode="sometimes")

    def test_last_episodes_of_a_seed(self):
        """Episodes 2**64 - 3 and 2**64 - 2 running, one left: same_step stepped both to their ends and then
        raised for want of a second episode to reset to, the step's results lost, the environments left ended;
        now a step that may need more episodes than are left is refused before anything moves. next_step
        ends them and refuses the resetting step, nothing moved."""
        last = 2 ** 64 - 3
        single = sim2real.Env("ur5e", "reach", "randomized")
        for mode in ("same_step", "next_step"):
            with self.subTest(mode=mode):
                vec = sim2real.VecEnv(2, "ur5e", "reach", "randomized", autoreset_mode=mode)
                obs, info = vec.reset(seed=SEED, options={"episode": last})
                self.assertEqual(list(info["s2r_episode"]), [last, last + 1])
                self.assertTrue(np.array_equal(obs[1], single.reset(seed=SEED, options={"episode": last + 1})[0]))
                if mode == "same_step":
                    with self.assertRaisesRegex(ValueError, "seed %d has 1 episode left before 2\\*\\*64 - 1, fewer "
                                                "than the 2 environments.*no environment was stepped" % SEED):
                        vec.step(np.zeros((2, 6), np.float32))
                    vec.reset(seed=SEED, options={"episode": last + 1})   # the last two: none left after them
                    self.assertRaisesRegex(ValueError, "0 episodes left", vec.step, np.zeros((2, 6), np.float32))
                    vec = sim2real.VecEnv(1, "ur5e", "reach", "randomized", autoreset_mode=mode)
                    vec.reset(seed=SEED, options={"episode": last + 1})   # one environment, one episode left
                    for t in range(single.episode_steps):
                        obs, rewards, terminated, truncated, info = vec.step(np.zeros((1, 6), np.float32))
                    self.assertEqual((bool(truncated[0]), list(info["s2r_episode"])), (True, [2 ** 64 - 1]))
                    self.assertRaisesRegex(ValueError, "0 episodes left", vec.step, np.zeros((1, 6), np.float32))
                    continue
                for t in range(single.episode_steps):
                    obs, rewards, terminated, truncated, info = vec.step(np.zeros((2, 6), np.float32))
                self.assertTrue(truncated.all())
                self.assertRaisesRegex(ValueError, "no episode after 2\\*\\*64 - 1", vec.step,
                                       np.zeros((2, 6), np.float32))
                self.assertTrue(vec._pending.all(), "the refused step changed what is pending")
                obs, info = vec.reset(seed=SEED)
                self.assertEqual(list(info["s2r_episode"]), [0, 1])


class TestInterruptedVecStep(unittest.TestCase):
    """A KeyboardInterrupt (Ctrl-C, or any exception a signal handler raises) landing inside VecEnv.step after its
    call into C left an environment whose episode had ended neither reset nor marked for reset: every later step
    was refused ("step before reset") until vec.reset(). Now the call is journaled and its bookkeeping done at
    the next step; the environments it ended are reset there."""

    class Interrupting:
        """The library, with an exception raised right before or right after chosen batched calls."""

        def __init__(self, lib, when):
            self._real, self.when, self.calls = lib, when, 0

        def __getattr__(self, name):
            return getattr(self._real, name)

        def _call(self, name, *args):
            self.calls += 1
            where = self.when(self.calls)
            if where == "before":
                raise KeyboardInterrupt
            code = getattr(self._real, name)(*args)
            if where == "after":
                raise KeyboardInterrupt
            return code

        def s2r_flat_step_many(self, *args):
            return self._call("s2r_flat_step_many", *args)

        def s2r_flat_reset_many(self, *args):
            return self._call("s2r_flat_reset_many", *args)

    def test_interrupt_before_or_after_each_call(self):
        for mode in ("next_step", "same_step"):
            for where in ("after", "before"):
                with self.subTest(mode=mode, where=where):
                    vec = sim2real.VecEnv(3, "ur5e", "reach", "randomized", autoreset_mode=mode)
                    vec.reset(seed=SEED)
                    vec._lib = self.Interrupting(vec._lib, lambda k: where if k % 7 in (0, 3) else None)
                    interrupts, episodes = 0, []
                    for t in range(3 * vec.episode_steps):
                        try:
                            obs, rewards, terminated, truncated, info = vec.step(np.zeros((3, 6), np.float32))
                        except KeyboardInterrupt:
                            interrupts += 1
                            continue
                        self.assertTrue(np.isfinite(obs).all())
                        if "s2r_episode" in info:
                            episodes += list(info["s2r_episode"][info["_s2r_episode"]])
                    self.assertGreater(interrupts, 10)
                    self.assertGreater(len(episodes), 0, "no environment was ever reset")
                    self.assertEqual(len(episodes), len(set(episodes)), "an episode handed out twice")
                    vec._lib = vec._lib._real
                    vec.step(np.zeros((3, 6), np.float32))

    def test_a_timer_interrupt_anywhere(self):
        """The attack's probe: a one-shot 0.5 .. 2.3 ms timer raising inside each step, wherever it lands."""
        import signal
        if not hasattr(signal, "setitimer"):
            self.skipTest("no setitimer")

        class Interrupt(Exception):
            pass
        armed = [False]

        def handler(*args):
            if armed[0]:
                armed[0] = False
                raise Interrupt()
        previous = signal.signal(signal.SIGALRM, handler)
        self.addCleanup(signal.signal, signal.SIGALRM, previous)
        for mode in ("same_step", "next_step"):
            vec = sim2real.VecEnv(4, "ur5e", "reach", "randomized", autoreset_mode=mode)
            vec.reset(seed=1)
            for k in range(1500):
                try:
                    try:
                        armed[0] = True
                        signal.setitimer(signal.ITIMER_REAL, 0.0005 + (k % 7) * 0.0003)
                        vec.step(np.full((4, 6), 0.5, np.float32))
                    finally:
                        armed[0] = False
                        signal.setitimer(signal.ITIMER_REAL, 0)
                except Interrupt:
                    pass


class TestSubclassCopies(unittest.TestCase):
    """copy, deepcopy and pickle of a subclass of Env, VecEnv or Policy returned the base class: an overridden
    step (reward shaping) and the attributes the user set were dropped without a word."""

    def test_env_subclass(self):
        copies = [("copy", copy.copy), ("deepcopy", copy.deepcopy), ("pickle", lambda x: pickle.loads(pickle.dumps(x)))]
        for simulator in ("nominal", "randomized"):
            env = Shaped("ur5e", "reach", simulator, scale=3.0)
            env.tag = ["mine"]
            env.reset(seed=SEED)
            expected = env.step(np.zeros(6, np.float32))[1]
            for name, make in copies:
                with self.subTest(simulator=simulator, copy=name):
                    c = make(env)
                    self.assertIs(type(c), Shaped)
                    self.assertEqual((c.tag, c.scale, c.ranges_digest() if simulator == "randomized" else 0),
                                     (["mine"], 3.0, env.ranges_digest() if simulator == "randomized" else 0))
                    self.assertEqual(c.tag is env.tag, name == "copy")   # copy.copy shares, the others copy
                    self.assertIsNot(c._handle, env._handle)
                    c.reset(seed=SEED)
                    self.assertEqual(c.step(np.zeros(6, np.float32))[1], expected)
                    c.close()
        plain = copy.copy(sim2real.Env("ur5e", "reach"))
        self.assertIs(type(plain), sim2real.Env)
        self.assertNotIn("tag", plain.__dict__)

    def test_vecenv_and_policy_subclass(self):
        envs = [Shaped("ur5e", "reach", scale=2.0), Shaped("ur5e", "reach", scale=5.0)]
        vec = CountingVec.of(envs)
        vec.note = "fleet"
        for c in (copy.deepcopy(vec), pickle.loads(pickle.dumps(vec))):
            self.assertIs(type(c), CountingVec)
            self.assertEqual((c.note, [type(e) for e in c.envs], [e.scale for e in c.envs]),
                             ("fleet", [Shaped, Shaped], [2.0, 5.0]))
            c.reset(seed=SEED)
            c.step(np.zeros((2, 6), np.float32))
            self.assertEqual(c.steps, 1)
            c.close()
        if not os.path.isfile(CHECKPOINT):
            self.skipTest("no checkpoint at %s" % CHECKPOINT)
        policy = Negated(CHECKPOINT)
        policy.label = "negated"
        for c in (copy.copy(policy), copy.deepcopy(policy), pickle.loads(pickle.dumps(policy))):
            self.assertIs(type(c), Negated)
            self.assertEqual(c.label, "negated")
            obs = np.zeros(c.obs_dim, np.float32)
            self.assertTrue(np.array_equal(c.act(obs), policy.act(obs)))
            self.assertTrue(np.array_equal(c.act(obs), -sim2real.Policy(CHECKPOINT).act(obs)))


    def test_an_empty_ranges_path_is_refused(self):
        """ranges="" was accepted (C reads it as no file) but copying the environment then failed: refused now,
        at construction, for every simulator and for a VecEnv."""
        for simulator in sim2real.env.SIMULATORS:
            for empty in ("", b""):
                with self.subTest(simulator=simulator, empty=empty):
                    self.assertRaisesRegex(ValueError, "names no file", sim2real.Env, "ur5e", "reach", simulator,
                                           ranges=empty)
        self.assertRaisesRegex(ValueError, "names no file", sim2real.VecEnv, 2, "ur5e", "reach", "randomized",
                               ranges="")


class Shaped(sim2real.Env):
    """A user's subclass: its own __init__ arguments and a shaped reward (module level, for pickle)."""

    def __init__(self, robot, task, simulator="nominal", scale=1.0):
        self.scale = scale   # before the base class's __init__
        super().__init__(robot, task, simulator)

    def step(self, action):
        obs, reward, terminated, truncated, info = super().step(action)
        return obs, reward * self.scale + 100.0, terminated, truncated, info


class CountingVec(sim2real.VecEnv):
    def step(self, actions):
        self.steps = getattr(self, "steps", 0) + 1
        return super().step(actions)


class Negated(sim2real.Policy):
    def act(self, obs, deterministic=True):
        return -super().act(obs, deterministic)


class TestRenderMemory(unittest.TestCase):
    """Each environment keeps its renderer (about 790 MB at 4096 x 4096): VecEnv(32, ..., 4096 x 4096) would have
    needed 25 GB at its first render(), found by the OOM killer. Refused when made now, naming the sizes."""

    def test_a_vecenv_past_the_cap_is_refused(self):
        with self.assertRaisesRegex(ValueError, "32 environments of 4096 x 4096 px.*24.8 GiB together.*"
                                    "RENDER_MEMORY_CAP .4.0 GiB"):
            sim2real.VecEnv(32, render_mode="rgb_array", width=4096, height=4096)
        if not sim2real.library().s2r_flat_render_available():
            self.skipTest("the library is built without the renderer")
        envs = [sim2real.Env(render_mode="rgb_array", width=4096, height=4096) for _ in range(6)]
        self.assertRaisesRegex(ValueError, "6 environments of 4096 x 4096", sim2real.VecEnv.of, envs)
        self.assertTrue(all(e._owner is None for e in envs), "a refused VecEnv.of took environments over")
        sim2real.VecEnv.of(envs[:4]).close()   # 3 GiB: within the cap
        sim2real.VecEnv(2, render_mode="rgb_array").close()


class TestRangesSizeBounds(unittest.TestCase):
    """Ranges files of absurd sizes (friction, kp, link_mass of 1e300; noise stds of 1e300; offsets of -1e300)
    were accepted, and episodes ran on garbage; refused now by the library's reader naming the file, line and
    bound. The figures' committed ranges files and the defaults still load, and draw what they drew."""

    def test_figures_and_defaults_load_absurd_sizes_refused(self):
        import glob
        figures = sorted(glob.glob(os.path.join(ROOT, "figures", "*ranges*.txt")))
        self.assertGreater(len(figures), 0)
        for path in figures:
            robot = "panda" if "panda" in os.path.basename(path) else "ur5e"
            env = sim2real.Env(robot, "push", "randomized", ranges=path)
            self.assertTrue(np.isfinite(env.reset(seed=SEED)[0]).all())
        default = sim2real.Env("ur5e", "push", "randomized")
        self.assertEqual(default.ranges_digest(), copy.copy(default).ranges_digest())
        folder = tempfile.mkdtemp(prefix="s2r_python_")
        self.addCleanup(shutil.rmtree, folder, True)
        path = os.path.join(folder, "absurd.txt")
        for line, says in [("friction fixed 1e300", "within \\+-1000 of the model's value"),
                           ("kp fixed 1e300", "within \\+-1000"), ("link_mass fixed 1e300", "within \\+-1000"),
                           ("qpos_noise fixed 1e300", "within \\+-3.14159"),
                           ("qpos_noise uniform 0 1e308", "within \\+-3.14159"),
                           ("target_noise fixed 1e300", "within \\+-10"),
                           ("qpos_bias fixed -1e300", "within \\+-6.28319"),
                           ("target_offset fixed -1e300 absolute", "within \\+-10"),
                           ("table_height fixed -1e300", "within \\+-10"), ("damping fixed 1e3 absolute", None)]:
            with open(path, "w") as f:
                f.write("# one line\n%s\n" % line)
            if says is None:   # 1e3 N m s/rad: large, not absurd
                sim2real.Env("ur5e", "push", "randomized", ranges=path).close()
                continue
            with self.subTest(line=line):
                with self.assertRaisesRegex(sim2real.Sim2RealError, "%s: line 2: .*%s" % (re.escape(path), says)):
                    sim2real.Env("ur5e", "push", "randomized", ranges=path)


class TestSmallerRefusals(unittest.TestCase):
    """What the second attack found besides: a string deterministic taken for True, a 0-d seed refused by
    VecEnv.reset, long paths whose reason was cut off with the library's message, render modes listed where the
    library cannot render, and a checkpoint that records no arm called an unknown robot "unknown"."""

    def test_deterministic_is_a_bool(self):
        if not os.path.isfile(CHECKPOINT):
            self.skipTest("no checkpoint at %s" % CHECKPOINT)
        policy = sim2real.Policy(CHECKPOINT)
        obs = np.zeros(policy.obs_dim, np.float32)
        for bad in ("False", 0, 1, None):
            self.assertRaisesRegex(TypeError, "deterministic must be True .* or False", policy.act, obs,
                                   deterministic=bad)
        self.assertTrue(np.array_equal(policy.act(obs, deterministic=np.bool_(True)), policy.act(obs)))

    def test_vecenv_seed_as_a_0d_array(self):
        vec = sim2real.VecEnv(2, "ur5e", "reach", "randomized")
        a, info = vec.reset(seed=np.array(5))
        self.assertEqual(list(info["s2r_seed"]), [5, 5])
        self.assertTrue(np.array_equal(a, vec.reset(seed=5)[0]))
        self.assertRaisesRegex(ValueError, "seed must be one number", vec.reset, seed=[1, 2])

    def test_long_paths_give_their_reason(self):
        folder = tempfile.mkdtemp(prefix="s2r_python_")
        self.addCleanup(shutil.rmtree, folder, True)
        env = sim2real.Env("ur5e", "reach", "randomized")
        name_max = os.pathconf(folder, "PC_NAME_MAX")
        path = os.path.join(folder, "n" * (name_max - 5))   # open() takes it; its NAME.PID-N.tmp does not
        with self.assertRaisesRegex(ValueError, "temporary NAME.%d-N.tmp.*more than the %d.*NAME_MAX"
                                    % (os.getpid(), name_max)):
            env.write_ranges(path)
        actor = [(np.zeros((4, env.obs_dim)), np.zeros(4)), (np.zeros((env.act_dim, 4)), np.zeros(env.act_dim))]
        self.assertRaisesRegex(ValueError, "NAME_MAX", sim2real.write_checkpoint, path, actor, robot="ur5e",
                               task="reach")
        self.assertRaisesRegex(ValueError, "a name in it is %d bytes.*NAME_MAX" % (name_max + 1), sim2real.Policy,
                               os.path.join(folder, "p" * (name_max + 1)))
        env.write_ranges(os.path.join(folder, "short.txt"))   # a name with room for its .tmp: written
        deep = os.path.join(folder, *["d" * 50] * 18, "missing.ckpt")   # about 930 bytes: the message is cut
        with self.assertRaisesRegex(sim2real.Sim2RealError, "the library's message is cut at %d bytes"
                                    % (_lib.ERROR_LEN - 1)):
            sim2real.Policy(deep)

    def test_render_modes_only_where_the_library_renders(self):
        renders = bool(sim2real.library().s2r_flat_render_available())
        env = sim2real.Env("ur5e", "reach")
        self.assertEqual(env.metadata["render_modes"], ["rgb_array"] if renders else [])
        self.assertEqual(sim2real.VecEnv(1).metadata["render_modes"], env.metadata["render_modes"])

    def test_a_checkpoint_without_arm_or_task(self):
        if not os.path.isfile(CHECKPOINT):
            self.skipTest("no checkpoint at %s" % CHECKPOINT)
        import struct
        from sim2real.checkpoint import _checksum
        with open(CHECKPOINT, "rb") as f:
            data = bytearray(f.read())
        struct.pack_into("<I", data, 4 * 14, 0)   # made_for 0: no arm, no task (a file from elsewhere)
        check = _checksum(bytes(data), 32)
        struct.pack_into("<II", data, 48, check & 0xFFFFFFFF, check >> 32)
        folder = tempfile.mkdtemp(prefix="s2r_python_")
        self.addCleanup(shutil.rmtree, folder, True)
        path = os.path.join(folder, "made_for_0.ckpt")
        with open(path, "wb") as f:
            f.write(data)
        policy = sim2real.Policy(path)
        if (policy.robot, policy.task) != ("unknown", "unknown"):
            self.skipTest("the checkpoint layout moved: %s %s" % (policy.robot, policy.task))
        self.assertRaisesRegex(ValueError, "records no robot or task: give robot=..., task=...",
                               sim2real.evaluate_sim_and_real, policy, episodes=1, units=1)
        self.assertRaisesRegex(ValueError, "records no task: give task=", sim2real.evaluate_sim_and_real, policy,
                               robot="ur5e", episodes=1, units=1)
        self.assertIn("sim", sim2real.evaluate_sim_and_real(policy, "ur5e", "reach", episodes=1, units=1))
        self.assertRaisesRegex(ValueError, "records no robot or task", sim2real.deploy_staged, path,
                               os.path.join(folder, "r.txt"), folder)


class TestOwnershipAndThreads(unittest.TestCase):
    """Each of these crashed the interpreter (SIGSEGV, SIGABRT, or physics corrupted) before."""

    def test_copies_own_their_handles(self):
        env = sim2real.Env("ur5e", "push", "randomized")
        env.reset(seed=2)
        for make in (copy.copy, copy.deepcopy, lambda e: pickle.loads(pickle.dumps(e))):
            twin = make(env)
            self.assertIsNot(twin._handle, env._handle)
            with self.assertRaisesRegex(sim2real.Sim2RealError, "before reset"):
                twin.step(np.zeros(2, np.float32))   # the running episode is not copied
            self.assertEqual(twin.reset()[1]["s2r_episode"], 1)   # the counters are
        twin = copy.copy(env)
        del env
        twin.reset(seed=1)
        twin.step(np.zeros(2, np.float32))
        if os.path.isfile(CHECKPOINT):
            policy = sim2real.Policy(CHECKPOINT)
            obs = np.zeros(33, np.float32)
            copies = [copy.copy(policy), copy.deepcopy(policy), pickle.loads(pickle.dumps(policy))]
            expected = policy.act(obs)
            del policy
            for c in copies:
                self.assertTrue(np.array_equal(c.act(obs), expected))
        vec = sim2real.VecEnv(2, "ur5e", "reach", "randomized", autoreset_mode="same_step")
        vec.reset(seed=3)
        twin = pickle.loads(pickle.dumps(vec))
        self.assertEqual((twin.num_envs, twin.autoreset_mode, twin.threads), (2, "same_step", 1))
        self.assertEqual(list(twin.reset()[1]["s2r_episode"]), [2, 3])
        closed = sim2real.Env()
        closed.close()
        with self.assertRaisesRegex(sim2real.Sim2RealError, "closed"):
            copy.copy(closed)

    def test_a_copy_draws_from_the_ranges_not_their_file_again(self):
        """copy, deepcopy and pickle of a randomized Env made from a ranges file read the file again: edited
        since, the copy silently drew from other ranges. Now the copy draws from the original's ranges (the same
        digest and episodes), and still names the file."""
        folder = tempfile.mkdtemp(prefix="s2r_python_")
        self.addCleanup(shutil.rmtree, folder, True)
        path = os.path.join(folder, "ranges.txt")
        sim2real.Env("ur5e", "push", "randomized").write_ranges(path)
        env = sim2real.Env("ur5e", "push", "randomized", ranges=path)
        digest, blob = env.ranges_digest(), pickle.dumps(env)
        vec_blob = pickle.dumps(sim2real.VecEnv(2, "ur5e", "push", "randomized", ranges=path))
        expected = env.reset(seed=5)[0]
        with open(path) as f:
            text = f.read()
        edited = re.sub(r"(?m)^(friction\s+uniform\s+)\S+ \S+", r"\g<1>0.1 0.2", text)
        self.assertNotEqual(edited, text)
        with open(path, "w") as f:
            f.write(edited)
        self.assertNotEqual(sim2real.Env("ur5e", "push", "randomized", ranges=path).ranges_digest(), digest)
        for make in (copy.copy, copy.deepcopy, lambda e: pickle.loads(blob)):
            twin = make(env)
            self.assertEqual(twin.ranges_digest(), digest)
            self.assertTrue(np.array_equal(twin.reset(seed=5)[0], expected))
            self.assertEqual(twin.ranges, path)
            self.assertEqual(pickle.loads(pickle.dumps(twin)).ranges_digest(), digest)
        self.assertEqual({e.ranges_digest() for e in pickle.loads(vec_blob).envs}, {digest})
        self.assertEqual(os.listdir(folder), ["ranges.txt"])

    def test_a_policy_file_changed_since_is_not_copied(self):
        if not os.path.isfile(CHECKPOINT):
            self.skipTest("no checkpoint %s" % CHECKPOINT)
        folder = tempfile.mkdtemp(prefix="s2r_python_")
        try:
            path = os.path.join(folder, "p.ckpt")
            shutil.copy(CHECKPOINT, path)
            policy = sim2real.Policy(path)
            with open(path, "ab") as f:
                f.write(b"x")
            with self.assertRaisesRegex(sim2real.Sim2RealError, "changed since"):
                copy.copy(policy)
            os.remove(path)
            os.mkfifo(path)   # a copy, or a reader, never waits on a FIFO for a writer
            with self.assertRaisesRegex(sim2real.Sim2RealError, "not a regular file"):
                copy.copy(policy)
            with self.assertRaisesRegex(sim2real.Sim2RealError, "not a regular file"):
                sim2real.read_checkpoint(path)
        finally:
            shutil.rmtree(folder, ignore_errors=True)

    def test_vec_env_members_are_its_own(self):
        vec = sim2real.VecEnv(2, "ur5e", "reach")
        vec.reset(seed=1)
        with self.assertRaisesRegex(sim2real.Sim2RealError, "belongs to a VecEnv"):
            vec.envs[0].close()
        with self.assertRaises(AttributeError):
            vec.envs.pop()
        del vec.envs[0]._handle   # even torn apart by hand: the VecEnv keeps its own copy of the handles
        vec.step(np.zeros((2, 6), np.float32))
        member = vec.envs[1]
        vec.close()
        with self.assertRaisesRegex(sim2real.Sim2RealError, "closed"):
            member.step(np.zeros(6, np.float32))
        a, b = sim2real.Env("ur5e", "push"), sim2real.Env("panda", "push")   # the same sizes
        with self.assertRaisesRegex(ValueError, "panda push, environment 0 ur5e push"):
            sim2real.VecEnv.of([a, b])
        handles = (ctypes.c_void_p * 2)(a._handle, b._handle)   # and the C side refuses them too
        error = _lib.ErrorBuffer()
        out = np.zeros(2, _lib.STEP_DTYPE)
        code = sim2real.library().s2r_flat_step_many(ctypes.addressof(handles), 2, _lib.pointer(np.zeros((2, 2),
                                                     np.float32)), _lib.pointer(np.zeros((2, 20), np.float32)),
                                                     _lib.pointer(out), 1, error.ptr)
        self.assertEqual(code, _lib.ERR_INVALID_ARGUMENT)
        self.assertIn(b"one arm and one task", error.buffer.value)
        c = sim2real.Env("ur5e", "push")
        sim2real.VecEnv.of([a, c])
        for bad, words in (([a], "in a VecEnv already"), ([c, c], "in a VecEnv already")):
            with self.assertRaisesRegex(ValueError, words):
                sim2real.VecEnv.of(bad)
        d = sim2real.Env("ur5e", "push")
        with self.assertRaisesRegex(ValueError, "given twice"):
            sim2real.VecEnv.of([d, d])

    def test_vec_env_members_move_only_with_it(self):
        """A VecEnv's environment took step, reset and evaluate of its own, putting it out of step with its VecEnv
        (a step ahead, an episode elsewhere): refused, naming it, while the VecEnv owns it; the VecEnv goes on
        as its twin that was never touched; what moves no episode still works; a copy is an Env of its own."""
        vec, twin = sim2real.VecEnv(2, "ur5e", "reach", "randomized"), sim2real.VecEnv(2, "ur5e", "reach", "randomized")
        vec.reset(seed=1)
        twin.reset(seed=1)
        zero = np.zeros((2, 6), np.float32)
        vec.step(zero)
        twin.step(zero)
        for what, call in (("step", lambda e: e.step(np.zeros(6, np.float32))), ("reset", lambda e: e.reset()),
                           ("reset", lambda e: e.reset(seed=3, options={"episode": 4})),
                           ("evaluate", lambda e: e.evaluate(episodes=1))):
            for i in (0, 1):
                with self.assertRaisesRegex(sim2real.Sim2RealError, "%s: this is environment %d of a VecEnv" % (what, i)):
                    call(vec.envs[i])
        got, want = vec.step(zero), twin.step(zero)
        self.assertTrue(np.array_equal(got[0], want[0]) and np.array_equal(got[1], want[1]))
        member = vec.envs[0]
        self.assertEqual(member.ranges_digest(), twin.envs[0].ranges_digest())
        self.assertEqual(member.privileged().shape, (member.privileged_dim,))
        alone = copy.copy(member)
        alone.reset(seed=1)
        alone.step(np.zeros(6, np.float32))
        self.assertEqual(alone.evaluate(episodes=1)["episodes"], 1)
        vec.close()
        with self.assertRaisesRegex(sim2real.Sim2RealError, "closed"):
            member.reset()

    def test_vec_env_step_is_whole_or_nothing(self):
        """A NaN action in one environment of a VecEnv used to step the ones before it, though the error said
        nothing was done: now refused naming the environment, none stepped or reset - the VecEnv goes on as its
        twin that never saw the NaN, in either autoreset mode and on the step that resets ended episodes; the
        C batch call refuses the same before it steps any."""
        for mode in ("next_step", "same_step"):
            vec, twin = (sim2real.VecEnv(3, "ur5e", "reach", "randomized", autoreset_mode=mode) for _ in range(2))
            vec.reset(seed=5)
            twin.reset(seed=5)
            zero = np.zeros((3, 6), np.float32)
            for step in range(vec.episode_steps + 1):   # the last: after the ends (next_step: the resetting step)
                for bad_row, bad in ((2, np.nan), (0, np.inf), (1, -np.nan)):
                    a = zero.copy()
                    a[bad_row, 3] = bad
                    with self.assertRaisesRegex(sim2real.InvalidArgumentError,
                                                "environment %d: action contains NaN or Inf; no environment" % bad_row):
                        vec.step(a)
                got, want = vec.step(zero), twin.step(zero)
                self.assertTrue(np.array_equal(got[0], want[0]), (mode, step))
                self.assertTrue(np.array_equal(got[1], want[1]))
                self.assertEqual(sorted(got[4]), sorted(want[4]))
                for key in ("s2r_episode", "distance"):
                    if key in want[4]:
                        self.assertTrue(np.array_equal(got[4][key], want[4][key]), (mode, step, key))
        envs, twins = ([sim2real.Env("ur5e", "push") for _ in range(3)] for _ in range(2))
        lib, error = sim2real.library(), _lib.ErrorBuffer()
        for e in envs[:2] + twins:
            e.reset(seed=2)

        def step_many(members, actions):
            handles = (ctypes.c_void_p * 3)(*[e._handle for e in members])
            obs, out = np.zeros((3, 20), np.float32), np.zeros(3, _lib.STEP_DTYPE)
            return lib.s2r_flat_step_many(ctypes.addressof(handles), 3, _lib.pointer(actions), _lib.pointer(obs),
                                          _lib.pointer(out), 1, error.ptr), obs

        actions = np.zeros((3, 2), np.float32)
        self.assertEqual(step_many(envs, actions)[0], _lib.ERR_STATE)   # environment 2 never reset
        self.assertIn(b"environment 2: step before reset", error.buffer.value)
        envs[2].reset(seed=2)
        actions[1, 0] = np.nan
        self.assertEqual(step_many(envs, actions)[0], _lib.ERR_INVALID_ARGUMENT)
        self.assertIn(b"environment 1: action contains NaN or Inf; no environment was stepped", error.buffer.value)
        actions[1, 0] = 0
        (code, got), (twin_code, want) = step_many(envs, actions), step_many(twins, actions)
        self.assertEqual((code, twin_code), (0, 0))
        self.assertTrue(np.array_equal(got, want))   # environments 0 and 1 were not stepped by the refused calls
        for e, t in zip(envs, twins):
            self.assertTrue(np.array_equal(e.step(actions[0])[0], t.step(actions[0])[0]))

    def test_threads_take_turns(self):
        """Four threads stepping one environment take turns: 120 zero actions in any order leave it where one
        thread's 120 do; a close from another thread waits for the step in progress, then every call says
        closed."""
        shared, alone = sim2real.Env("ur5e", "push", "randomized"), sim2real.Env("ur5e", "push", "randomized")
        shared.reset(seed=4)
        alone.reset(seed=4)
        zero, failures = np.zeros(2, np.float32), []

        def steps(env, n):
            try:
                for _ in range(n):
                    env.step(zero)
            except Exception as e:   # noqa: BLE001 (any exception is a failure here)
                failures.append(e)

        threads = [threading.Thread(target=steps, args=(shared, 30)) for _ in range(4)]
        [t.start() for t in threads]
        [t.join() for t in threads]
        steps(alone, 120)
        self.assertEqual(failures, [])
        self.assertTrue(np.array_equal(shared.step(zero)[0], alone.step(zero)[0]))
        shared.reset(seed=4)
        closed = []

        def until_closed():
            try:
                while True:
                    shared.step(zero) if not shared.step(zero)[2:4] == (False, False) else shared.reset()
            except sim2real.Sim2RealError as e:
                closed.append(str(e))

        threads = [threading.Thread(target=until_closed) for _ in range(3)]
        [t.start() for t in threads]
        shared.close()
        [t.join() for t in threads]
        self.assertEqual(set(closed), {"the environment is closed"})
        vec = sim2real.VecEnv(3, "ur5e", "push", threads=0)
        vec.reset(seed=1)
        threads = [threading.Thread(target=steps, args=(vec, 200)) for _ in range(2)]
        vec_zero = np.zeros((3, 2), np.float32)
        failures.clear()
        zero = vec_zero
        [t.start() for t in threads]
        vec.close()
        [t.join() for t in threads]
        self.assertEqual({str(f) for f in failures} - {"the environments are closed"}, set())

    def test_a_call_from_inside_a_call_is_refused(self):
        """A signal handler that closes the environment runs between two lines of a step, which still holds
        the handle: refused (a Sim2RealError where the signal landed), never freed under the step; the
        environment goes on."""
        import signal
        env = sim2real.Env("ur5e", "push", "randomized")
        env.reset(seed=1)
        with env._lock:   # what a handler run inside a call sees
            with self.assertRaisesRegex(sim2real.Sim2RealError, "inside a call on the same object"):
                env.close()
            with self.assertRaisesRegex(sim2real.Sim2RealError, "inside a call"):
                env.step(np.zeros(2, np.float32))
        if not hasattr(signal, "setitimer"):
            return
        outcomes = set()
        previous = signal.signal(signal.SIGALRM, lambda *_: env.close())
        try:
            signal.setitimer(signal.ITIMER_REAL, 0.001, 0.001)
            need_reset = False
            for _ in range(2000):
                try:
                    if need_reset:
                        env.reset()
                        need_reset = False
                    need_reset = any(env.step(np.zeros(2, np.float32))[2:4])
                except sim2real.Sim2RealError as e:   # where the handler's refusal landed: the loop starts over
                    if "closed" in str(e):
                        outcomes.add("closed")
                        break
                    outcomes.add("refused" if "inside a call" in str(e) else str(e))
                    need_reset = True
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
        self.assertTrue(outcomes <= {"closed", "refused"}, outcomes)

    def test_thread_counts_are_bounded(self):
        for threads in (100000, -1, 65):
            with self.assertRaisesRegex(ValueError, "threads must be 0 .. 64"):
                sim2real.VecEnv(2, threads=threads)
        for n, threads in ((3, 4), (2, 64), (1, 2)):   # more threads than environments: was accepted
            with self.assertRaisesRegex(ValueError, "threads %d for %d environment.*or 1 .. %d" % (threads, n, n)):
                sim2real.VecEnv(n, threads=threads)
        envs = [sim2real.Env() for _ in range(2)]
        with self.assertRaisesRegex(ValueError, "threads 3 for 2 environments"):
            sim2real.VecEnv.of(envs, threads=3)
        self.assertTrue(all(e._owner is None for e in envs), "refused, yet taken over")
        envs[0].reset(seed=1)   # still the caller's
        vec = sim2real.VecEnv.of(envs, threads=2)
        vec.reset(seed=1)
        vec.step(np.zeros((2, 6), np.float32))
        vec = sim2real.VecEnv(2, threads=0)   # one per core, at most one per environment
        vec.reset(seed=1)
        vec.step(np.zeros((2, 6), np.float32))
        code = "\n".join([
            "import numpy as np, sim2real",
            "vec = sim2real.VecEnv(2, threads=0)",
            "vec.reset(seed=1)",
            "vec.step(np.zeros((2, 6), np.float32))",
            "p = sim2real.Policy(%r)" % CHECKPOINT if os.path.isfile(CHECKPOINT) else "p = None",
            "r = p and sim2real.evaluate_sim_and_real(p, episodes=1, units=2)",
            "print('survived')"])
        run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             env=dict(os.environ, OMP_NUM_THREADS="100000",
                                      PYTHONPATH=os.path.dirname(HERE) + os.pathsep + os.environ.get("PYTHONPATH", "")))
        self.assertEqual((run.returncode, run.stdout.strip()), (0, "survived"), run.stderr[-2000:])


    def test_a_fork_after_threads_neither_hangs_nor_keeps_locks(self):
        """fork() (multiprocessing's default start method on Linux, gymnasium's AsyncVectorEnv) after the parent
        stepped a VecEnv on 2 threads: a child stepping a threads=2 VecEnv, new or inherited, waited for ever on
        OpenMP's threads, which fork does not copy; now it runs them on one thread, with the same results. A
        fork while another thread held an Env's lock left it held for ever in the child: an object that was
        idle is usable, one that was inside a call says so (its copy works)."""
        code = "\n".join([
            "import multiprocessing as mp, threading, time, copy, numpy as np, sim2real",
            "zero = np.zeros((4, 2), np.float32)",
            "v = sim2real.VecEnv(4, 'ur5e', 'push', 'randomized', threads=2); v.reset(seed=1)",
            "[v.step(zero) for _ in range(5)]",
            "w = sim2real.VecEnv(4, 'ur5e', 'push', 'randomized', threads=1); w.reset(seed=1)",
            "[w.step(zero) for _ in range(5)]",
            "expected = w.step(zero)[0]",
            "idle = sim2real.Env('panda', 'push', 'randomized')",
            "busy = sim2real.Env('panda', 'push', 'randomized'); busy.reset(seed=1)",
            "def child(q):",
            "    f = getattr(sim2real.library(), 's2r_flat_single_threaded', None)",
            "    out = [f and f()]",
            "    n = sim2real.VecEnv(4, 'ur5e', 'push', 'randomized', threads=2); n.reset(seed=1)",
            "    [n.step(zero) for _ in range(5)]",
            "    out.append(bool(np.array_equal(n.step(zero)[0], expected)))",
            "    out.append(bool(np.array_equal(v.step(zero)[0], expected)))",
            "    out.append(idle.reset(seed=2)[1]['s2r_episode'] == 0)",
            "    try: busy.step(np.zeros(2, np.float32)); out.append('stepped')",
            "    except sim2real.Sim2RealError as e: out.append('forked' in str(e))",
            "    out.append(copy.copy(busy).reset(seed=2)[1]['s2r_episode'] == 0)",
            "    busy.close()",
            "    q.put(out)",
            "ctx = mp.get_context('fork')",
            "held, go = threading.Event(), threading.Event()",
            "def hold():",   # a step in progress on another thread, as the library sees it
            "    with busy._lock:",
            "        held.set(); go.wait()",
            "th = threading.Thread(target=hold); th.start(); held.wait()",
            "q = ctx.Queue(); p = ctx.Process(target=child, args=(q,)); p.start()",
            "go.set(); th.join()",
            "p.join(60)",
            "if p.is_alive(): p.kill(); print('the child hangs')",
            "else: print(p.exitcode, q.get() if not q.empty() else None)"])
        run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                             env=dict(os.environ, PYTHONPATH=os.path.dirname(HERE) + os.pathsep +
                                      os.environ.get("PYTHONPATH", "")))
        self.assertEqual(run.stdout.strip(), "0 [1, True, True, True, True, True]", run.stderr[-2000:])


class TestSmallRefusals(unittest.TestCase):
    """Each was silent, or another exception than the one that says what was wrong."""

    def test_unit_on_a_simulator_is_refused(self):
        for simulator in ("nominal", "randomized"):   # unit= was ignored there, while ranges= is refused on nominal
            with self.assertRaisesRegex(ValueError, "unit 3 is for simulator \"unit\""):
                sim2real.Env("ur5e", "reach", simulator, unit=3)
            with self.assertRaisesRegex(ValueError, "unit 3 is for simulator"):
                sim2real.VecEnv(2, "ur5e", "reach", simulator, unit=3)
        env = sim2real.Env("ur5e", "reach", "randomized")
        self.assertEqual(copy.copy(env).simulator, "randomized")   # the copies' arguments are still taken
        self.assertEqual((sim2real.Env("ur5e", "reach", "unit").unit, copy.copy(sim2real.Env("ur5e", "reach", "unit",
                                                                                              unit=4)).unit), (1, 4))

    def test_evaluate_wants_a_policy(self):
        env = sim2real.Env()
        with self.assertRaisesRegex(TypeError, "policy must be a sim2real.Policy or None"):
            env.evaluate("x", 1)
        for policy in (None, CHECKPOINT):
            with self.assertRaisesRegex(TypeError, "policy must be a sim2real.Policy \(sim2real.Policy\(path\)"):
                sim2real.evaluate_sim_and_real(policy, episodes=1, units=1)

    def test_names_and_paths(self):
        env = sim2real.Env(b"ur5e", b"reach", b"nominal")
        self.assertEqual(repr(env), "Env('ur5e', 'reach', 'nominal')")
        vec = sim2real.VecEnv.of([sim2real.Env("ur5e", "reach", "unit", unit=2), sim2real.Env("ur5e", "reach")])
        self.assertEqual(repr(vec), "VecEnv.of([Env('ur5e', 'reach', 'unit', unit=2), Env('ur5e', 'reach', "
                                    "'nominal')], threads=1)")
        self.assertEqual(repr(sim2real.VecEnv(2)), "VecEnv(2 x Env('ur5e', 'reach', 'nominal'), threads=1)")
        member = vec.envs[0]
        vec.close()
        member.close()   # closed with its VecEnv: said "close the VecEnv"
        folder = tempfile.mkdtemp(prefix="s2r_python_")
        self.addCleanup(shutil.rmtree, folder, True)
        odd = os.path.join(os.fsencode(folder), b"r\xff.txt")   # not UTF-8: os.listdir gives a surrogate escape
        sim2real.Env("ur5e", "reach", "randomized").write_ranges(odd)
        name = os.path.join(folder, os.listdir(folder)[0])
        self.assertEqual(sim2real.Env("ur5e", "reach", "randomized", ranges=name).ranges_digest(),
                         sim2real.Env("ur5e", "reach", "randomized").ranges_digest())
        if os.path.isfile(CHECKPOINT):
            policy = sim2real.Policy(os.fsencode(CHECKPOINT))
            self.assertEqual(policy.path, CHECKPOINT)

    def test_errors_pickle_with_their_code(self):
        try:
            sim2real.Env("arm")
        except sim2real.Sim2RealError as e:
            error = e
        back = pickle.loads(pickle.dumps(error))
        self.assertEqual((type(back), str(back), back.code, back.code_name),
                         (type(error), str(error), error.code, error.code_name))
        self.assertEqual(back.code_name, "S2R_ERR_INVALID_ARGUMENT")


class TestErrorsAcrossProcesses(unittest.TestCase):
    """gymnasium's AsyncVectorEnv sends a worker's exception to the main process through a multiprocessing queue
    (pickled) and raises ``type(e)(e)`` there: our exceptions came back with their message but neither code nor
    code name (None: the message of an exception made from an exception). Done here as gymnasium does it, without
    gymnasium: each of our exception types, and a real worker's refusal."""

    TYPES = (sim2real.Sim2RealError, sim2real.InvalidArgumentError, sim2real.LibraryMismatchError)

    def same(self, back, error):
        self.assertEqual((type(back), str(back), back.code, back.code_name),
                         (type(error), str(error), error.code, error.code_name))

    def test_each_type_through_a_pickle_and_type_e_of_e(self):
        for cls in self.TYPES:
            for error in (cls("a message", -5, "S2R_ERR_CORRUPT"), cls("no code")):
                with self.subTest(cls=cls.__name__, code=error.code):
                    index, exctype, value = pickle.loads(pickle.dumps((3, type(error), error)))
                    self.same(value, error)
                    again = exctype(value)   # AsyncVectorEnv._raise_if_errors
                    self.same(again, error)
                    self.same(pickle.loads(pickle.dumps(again)), error)
                    self.same(copy.copy(again), error)
                    self.assertIsInstance(again, {sim2real.InvalidArgumentError: ValueError,
                                                  sim2real.LibraryMismatchError: ImportError}.get(cls, RuntimeError))
        self.assertEqual(sim2real.Sim2RealError(sim2real.Sim2RealError("m", -5, "S2R_ERR_CORRUPT"), -1).code, -1)

    @unittest.skipUnless(hasattr(os, "fork"), "no fork")
    def test_a_worker_s_refusal_reaches_the_main_process(self):
        import multiprocessing
        context = multiprocessing.get_context("fork")
        queue = context.Queue()

        def worker(queue):
            import traceback
            env = sim2real.Env("ur5e", "reach")
            env.reset(seed=1)
            for call in (lambda: env.step(np.full(6, np.nan, np.float32)), lambda: env.reset(seed=-1),
                         lambda: env.reset(options={"bogus": 1}), lambda: env.step(np.zeros(6, np.int32)),
                         lambda: env.step(np.zeros(5, np.float32)), lambda: env.evaluate(episodes=0)):
                try:
                    call()
                except Exception:   # noqa: BLE001 (what AsyncVectorEnv's worker does)
                    queue.put((0,) + sys.exc_info()[:2] + (traceback.format_exc(),))
            queue.put(None)

        process = context.Process(target=worker, args=(queue,))
        process.start()
        got = list(iter(lambda: queue.get(timeout=60), None))
        process.join(60)
        self.assertEqual([(t.__name__, getattr(e, "code_name", None)) for _, t, e, _ in got],
                         [("InvalidArgumentError", "S2R_ERR_INVALID_ARGUMENT")] * 3 + [("TypeError", None),
                          ("ValueError", None), ("InvalidArgumentError", "S2R_ERR_INVALID_ARGUMENT")])
        for index, exctype, value, trace in got:
            with self.subTest(error=str(value)):
                error = exctype(value)   # AsyncVectorEnv._raise_if_errors
                self.assertEqual((type(error), str(error), getattr(error, "code", None)),
                                 (type(value), str(value), getattr(value, "code", None)))
                # gymnasium.logger.error(trace) formats it with `trace % ()`: our source lines, % formats in
                # them, made that a TypeError and hid our error; the traceback now ends at the method called
                self.assertEqual(trace % (), trace)
                self.assertIn(str(value), trace)
                self.assertEqual(trace.count(os.path.dirname(sim2real.__file__)), 1, trace)   # the method's only
                self.assertIn("raise error.with_traceback(None)", trace)
        self.assertIn("NaN", str(got[0][2]))


class TestDamagedLibrary(unittest.TestCase):
    """A truncated copy of the shared library (a build cut short, a copy that ran out of disk) killed the
    interpreter with SIGBUS at the first call: dlopen maps the segments the ELF headers name without comparing
    them with the file's size, and the first page touched past the end has no bytes behind it. Now the headers
    are checked against the file first: a clear LibraryMismatchError (an ImportError), and the process lives."""

    def test_a_truncated_library_is_an_error_not_a_crash(self):
        folder = tempfile.mkdtemp(prefix="s2r_python_")
        self.addCleanup(shutil.rmtree, folder, True)
        with open(os.environ["S2R_LIBRARY"], "rb") as f:
            whole = f.read()
        code = "\n".join(["import sim2real", "try:", "    sim2real.Env('ur5e', 'reach')",
                          "except ImportError as e:",
                          "    print(type(e).__name__, isinstance(e, sim2real.Sim2RealError), e)"])
        for size in (0, 63, 100, 4096, len(whole) // 2, len(whole) - 4096, len(whole) - 1):
            path = os.path.join(folder, "libsim2real%d.so" % size)
            with open(path, "wb") as f:
                f.write(whole[:size])
            with self.subTest(size=size):
                run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                                     env=dict(os.environ, S2R_LIBRARY=path, PYTHONPATH=os.path.dirname(HERE)))
                self.assertEqual(run.returncode, 0, "killed by signal %d" % -run.returncode if run.returncode < 0
                                 else run.stderr[-2000:])
                self.assertRegex(run.stdout, "^LibraryMismatchError True %s is not a whole shared library \\(.*"
                                 "\\): a truncated or damaged file" % re.escape(path))
        path = os.path.join(folder, "text.so")
        with open(path, "w") as f:
            f.write("not a library at all, but long enough to hold an ELF header's sixty-four bytes.....\n")
        with self.assertRaisesRegex(ImportError, "text.so is not a whole shared library \\(no ELF header\\)"):
            sim2real.load_library(path)
        os.mkfifo(os.path.join(folder, "fifo.so"))   # refused before it is opened (an open would wait)
        with self.assertRaisesRegex(ImportError, "fifo.so is not a regular file \\(a pipe, device or socket\\), "
                                    "not the sim2real library"):
            sim2real.load_library(os.path.join(folder, "fifo.so"))
        with self.assertRaisesRegex(ImportError, "%s is a directory, not the sim2real library" % re.escape(folder)):
            sim2real.load_library(folder)   # was "a truncated or damaged file"
        path = os.path.join(folder, "whole.so")   # the same bytes, whole: loaded
        with open(path, "wb") as f:
            f.write(whole)
        _lib.check_elf(path)

    def test_a_damaged_library_of_the_same_size_is_refused_by_its_digest(self):
        """A library damaged without a change of size (zeroed .text, a random corruption) passed the ELF check and
        crashed in dlopen or a call, or loaded and worked wrongly. make python writes its SHA-256 beside it; a
        mismatch is refused before dlopen, naming both digests; no digest file: a warning, and it loads."""
        import hashlib
        library = os.environ["S2R_LIBRARY"]
        self.assertTrue(os.path.isfile(library + ".sha256"), "make python writes the digest beside the library")
        with open(library, "rb") as f:
            whole = f.read()
        with open(library + ".sha256") as f:
            self.assertEqual(f.read().split()[0], hashlib.sha256(whole).hexdigest())
        folder = tempfile.mkdtemp(prefix="s2r_python_")
        self.addCleanup(shutil.rmtree, folder, True)
        damaged = bytearray(whole)
        damaged[len(whole) // 3:len(whole) // 3 + 256] = bytes(256)
        path = os.path.join(folder, "libsim2real.so")
        with open(path, "wb") as f:
            f.write(damaged)
        shutil.copy(library + ".sha256", path + ".sha256")
        code = "\n".join(["import sim2real", "try:", "    sim2real.Env('ur5e', 'reach')", "except ImportError as e:",
                          "    print(type(e).__name__, e)"])
        run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                             env=dict(os.environ, S2R_LIBRARY=path, PYTHONPATH=os.path.dirname(HERE)))
        self.assertEqual(run.returncode, 0, run.stderr[-2000:])
        self.assertIn("LibraryMismatchError %s has SHA-256 %s, but libsim2real.so.sha256 says %s"
                      % (path, hashlib.sha256(damaged).hexdigest(), hashlib.sha256(whole).hexdigest()), run.stdout)
        with open(path, "wb") as f:   # whole again, its digest removed: loads, with a warning
            f.write(whole)
        os.remove(path + ".sha256")
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            _lib.check_digest(path)
        self.assertIn("no digest file beside it", str(seen[0].message))
        with open(path + ".sha256", "w") as f:
            f.write("not a digest\n")
        self.assertRaisesRegex(ImportError, "is no SHA-256 digest", _lib.check_digest, path)

    def test_a_library_missing_a_function_is_a_mismatch(self):
        """One of the right version without a function the package calls raised a raw AttributeError."""
        folder = tempfile.mkdtemp(prefix="s2r_python_")
        self.addCleanup(shutil.rmtree, folder, True)
        source, path = os.path.join(folder, "fake.c"), os.path.join(folder, "libfake.so")
        with open(source, "w") as f:
            f.write('const char* s2r_flat_version(void) { return "%s"; }\n'
                    'int s2r_flat_api_version(void) { return %d; }\n' % (_lib.VERSION, _lib.FLAT_API))
        build = subprocess.run(["cc", "-shared", "-fPIC", source, "-o", path], capture_output=True, text=True)
        if build.returncode != 0:
            self.skipTest("no C compiler: %s" % build.stderr[-300:])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")   # no digest beside it
            with self.assertRaisesRegex(_lib.LibraryMismatchError, "libfake.so says it is sim2real %s \\(flat API "
                                        "%d\\) but has no s2r_flat_result_name"
                                        % (re.escape(_lib.VERSION), _lib.FLAT_API)):
                sim2real.load_library(path)


class TestCtrlC(unittest.TestCase):
    """SIGINT during a long call was served only when the call ended (minutes later), its result lost: now the
    library's stop flag is raised, the call stops within about a second, KeyboardInterrupt is raised, and the
    object (and the next call: the flag lowered) works again.

    SIGINTERRUPT: each child installs Python's KeyboardInterrupt handler itself. A process started in the
    background by a non-interactive shell (make test run with `&`, nohup) inherits SIGINT ignored, and Python
    then installs no handler at all: the signal the test sends would be ignored and the call run to its end."""

    CHILD = "\n".join([
        "import signal, sys, time, sim2real",
        "signal.signal(signal.SIGINT, signal.default_int_handler)   # see SIGINTERRUPT",
        "env = sim2real.Env('ur5e', 'reach')",
        "policy = sim2real.Policy(sys.argv[2]) if sys.argv[1] == 'sim_and_real' else None",
        "long = {'evaluate': lambda: env.evaluate(episodes=10 ** 6),",
        "        'sim_and_real': lambda: sim2real.evaluate_sim_and_real(policy, episodes=10 ** 6, units=2),",
        "        'identify': lambda: sim2real.identify_unit('ur5e', 'reach', 1)}[sys.argv[1]]",
        "print('started', flush=True)",
        "try:",
        "    long()",
        "except KeyboardInterrupt:",
        "    print('stopped', time.monotonic(), flush=True)",
        "    print('again', env.evaluate(episodes=3, seed=4), flush=True)",
        "    raise",
        "print('not stopped', flush=True)"])

    def interrupted(self, what):
        """The child's output and stderr after one SIGINT a second into `what`; its stop within 5 s."""
        import signal
        import time
        child = subprocess.Popen([sys.executable, "-c", self.CHILD, what, CHECKPOINT], stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True,
                                 env=dict(os.environ, PYTHONPATH=os.path.dirname(HERE) + os.pathsep +
                                          os.environ.get("PYTHONPATH", "")))
        try:
            self.assertEqual(child.stdout.readline().strip(), "started")
            time.sleep(1.0)   # well inside the call: minutes of work if nothing stops it
            sent = time.monotonic()
            child.send_signal(signal.SIGINT)
            out, err = child.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            child.kill()
            out, err = child.communicate()
            self.fail("%s: still running 20 s after SIGINT: %s" % (what, err[-1000:]))
        lines = dict(line.split(" ", 1) for line in out.splitlines() if " " in line)
        self.assertIn("stopped", lines, (what, out, err[-2000:]))
        self.assertLess(float(lines["stopped"]) - sent, 5.0, what)
        self.assertNotEqual(child.returncode, 0)
        self.assertIn("KeyboardInterrupt", err)
        return lines

    def test_sigint_stops_a_long_call(self):
        expected = repr(sim2real.Env("ur5e", "reach").evaluate(episodes=3, seed=4))
        cases = ["evaluate", "identify"] + (["sim_and_real"] if os.path.isfile(CHECKPOINT) else [])
        for what in cases:
            lines = self.interrupted(what)
            self.assertEqual(lines["again"], expected, what)   # usable again, all three episodes: the flag lowered
        self.assertEqual(sim2real.library().s2r_flat_interrupt_requested(), 0)
        results = []   # off the main thread, which no signal reaches, the call is made directly
        worker = threading.Thread(target=lambda: results.append(repr(sim2real.Env("ur5e", "reach").evaluate(
            episodes=3, seed=4))))
        worker.start()
        worker.join()
        self.assertEqual(results, [expected])

    EARLY = "\n".join([
        "import os, signal, threading, time, sim2real",
        "signal.signal(signal.SIGINT, signal.default_int_handler)   # as the test runner's own (SIGINTERRUPT)",
        "env, fresh = sim2real.Env('ur5e', 'push'), sim2real.Env('ur5e', 'push')",
        "for k in range(60):",
        "    kick = threading.Thread(target=lambda d=0.0005 * (k % 10): (time.sleep(d), os.kill(os.getpid(), signal.SIGINT)))",
        "    try:",
        "        kick.start()",
        "        env.evaluate(episodes=2000, seed=1)",
        "    except KeyboardInterrupt:",
        "        pass",
        "    while kick.is_alive():",
        "        try:",
        "            kick.join()",
        "        except KeyboardInterrupt:",
        "            pass",
        "    calls = [t for t in threading.enumerate() if t.name == 'sim2real call']",
        "    for t in calls:",
        "        for _ in range(100):   # one Thread.start() gave up on may not have begun: it ends when it does",
        "            try:",
        "                t.join(1.0)   # one that has set its result may still be ending; an orphan runs on",
        "                break",
        "            except RuntimeError:   # 'cannot join thread before it is started'",
        "                time.sleep(0.01)",
        "    if any(t.is_alive() for t in calls):",
        "        print('orphan', k, flush=True)",
        "        os._exit(3)",
        "print('same', repr(env.evaluate(episodes=3, seed=1)) == repr(fresh.evaluate(episodes=3, seed=1)), flush=True)"])

    def test_sigint_at_the_start_leaves_no_call_running(self):
        """A Ctrl-C landing inside Thread.start() (the first milliseconds) raised KeyboardInterrupt while the C
        call went on in its worker: the object freed or reset under it (SIGSEGV, SIGABRT), results wrong."""
        child = subprocess.run([sys.executable, "-c", self.EARLY], capture_output=True, text=True, timeout=300,
                               env=dict(os.environ, PYTHONPATH=os.path.dirname(HERE) + os.pathsep +
                                        os.environ.get("PYTHONPATH", "")))
        self.assertEqual(child.returncode, 0, (child.stdout, child.stderr[-2000:]))
        self.assertIn("same True", child.stdout, child.stderr[-2000:])


class TestRangeChecks(unittest.TestCase):
    """Every integer reaching C is checked whole and in range, every string free of NUL: before, ctypes wrapped
    -3 to unit 2**64 - 3, 2**64 + 1 to 1, cut 2.7 to 2, and C read 'ur5e\\0panda' as 'ur5e'."""

    def test_integers(self):
        env = sim2real.Env("ur5e", "reach", "randomized")
        for call, words in ((lambda: env.reset(seed=2 ** 64), "seed must be 0 .. 2\\*\\*64 - 1"),
                            (lambda: env.reset(seed=-1), "seed must be"),
                            (lambda: env.reset(options={"episode": -1}), "episode"),
                            (lambda: env.reset(options={"episode": 2 ** 64}), "episode"),
                            (lambda: env.reset(options={"episodes": 1}), "unknown reset option"),
                            (lambda: sim2real.Env("ur5e", "reach", "unit", unit=-3), "unit must be"),
                            (lambda: sim2real.Env("ur5e", "reach", "unit", unit=2 ** 64 + 1), "unit must be"),
                            (lambda: env.evaluate(None, episodes=2 ** 32 + 1), "episodes must be 1 .. 2"),
                            (lambda: env.evaluate(None, episodes=-1), "episodes must be"),
                            (lambda: sim2real.VecEnv(0), "num_envs"),
                            (lambda: sim2real.VecEnv(2).reset(seed=[1, 2]), "one number"),
                            (lambda: sim2real.identify_unit("ur5e", "reach", -1, quick=True), "unit must be"),
                            (lambda: sim2real.Policy("x.ckpt", seed=2 ** 64), "seed must be")):
            with self.assertRaisesRegex(sim2real.InvalidArgumentError, words):
                call()
        for call in (lambda: sim2real.Env("ur5e", "reach", "unit", unit=2.7), lambda: env.reset(seed=1.0),
                     lambda: env.reset(seed=True), lambda: env.evaluate(None, episodes=2.5)):
            with self.assertRaisesRegex(TypeError, "whole number"):
                call()
        env.reset(seed=np.uint64(2 ** 64 - 1), options={"episode": np.int64(3)})   # numpy integers are fine
        if os.path.isfile(CHECKPOINT):
            p = sim2real.Policy(CHECKPOINT)
            for kwargs, words in ((dict(episodes=2 ** 32 + 1), "episodes"), (dict(units=17), "units"),
                                  (dict(first_unit=-1), "first_unit"), (dict(first_unit=2 ** 64 - 1, units=2), "past")):
                with self.assertRaisesRegex(ValueError, words):
                    sim2real.evaluate_sim_and_real(p, **kwargs)

    def test_nul_bytes(self):
        calls = [lambda: sim2real.Env("ur5e\0panda"), lambda: sim2real.Env("ur5e", "reach\0x"),
                 lambda: sim2real.Env("ur5e", "reach", "randomized", ranges="r.txt\0x"),
                 lambda: sim2real.Policy("pol.ckpt\0x"), lambda: sim2real.Policy(b"pol.ckpt\0x"),
                 lambda: sim2real.identify_logs(["a.csv\0b"]),
                 lambda: sim2real.identify_unit("ur5e", "reach", 1, ranges_out="o\0x"),
                 lambda: sim2real.Env().write_ranges("r\0.txt"),
                 lambda: sim2real.write_checkpoint("p\0.ckpt", [(np.zeros((4, 33)), np.zeros(4)),
                                                                (np.zeros((6, 4)), np.zeros(6))], robot="ur5e",
                                                   task="reach")]
        for call in calls:
            with self.assertRaisesRegex(sim2real.InvalidArgumentError, "NUL byte"):
                call()


class TestUnitSeesNominal(unittest.TestCase):
    def test_only_the_nominal_model_reaches_python(self):
        """On a stand-in unit the Env's kinematics are the nominal model's - the flange it reports is the
        nominal arm's forward kinematics of the joints it measured (computed by the C reference from the
        embedded MJCF) -, its scripted controller acts as on the nominal simulator, and the unit's drawn
        parameters are refused (privileged) or unknown (its ranges): only what the documented oracle calls say
        (success and distance, from ground truth) comes from the hidden model."""
        folder = tempfile.mkdtemp(prefix="s2r_python_")
        try:
            for robot in ("ur5e", "panda"):
                unit, nominal = sim2real.Env(robot, "reach", "unit", unit=5), sim2real.Env(robot, "reach")
                n = (unit.obs_dim - 9) // 4
                obs, _ = unit.reset(seed=1)
                rows = [obs]
                for t in range(20):
                    obs, *_ = unit.step(np.full(n, 0.5 if t < 10 else -0.8, np.float32))
                    rows.append(obs)
                rows = np.array(rows)
                rows[:, :n].astype(np.float32).tofile(os.path.join(folder, "q.bin"))
                subprocess.run([REFERENCE, "fk", robot, os.path.join(folder, "q.bin"), os.path.join(folder, "fk.bin")],
                               check=True, capture_output=True)
                fk = np.fromfile(os.path.join(folder, "fk.bin"), np.float64).reshape(-1, 3)
                np.testing.assert_allclose(rows[:, 3 * n + 3:3 * n + 6], fk, atol=2e-6)
                nominal.reset(seed=1)
                for o in rows[:3]:
                    self.assertTrue(np.array_equal(unit.scripted_action(o), nominal.scripted_action(o)))
                self.assertEqual(unit.privileged_dim, 0)
                with self.assertRaisesRegex(sim2real.Sim2RealError, "hidden"):
                    unit.privileged()
                with self.assertRaisesRegex(sim2real.Sim2RealError, "no ranges"):
                    unit.ranges_digest()
                self.assertEqual(set(unit.step(np.zeros(n, np.float32))[4]), {"distance", "diverged"})
                hidden = [k for k in vars(unit) if "hidden" in k or "oracle" in k or "truth" in k]
                self.assertEqual(hidden, [])
        finally:
            shutil.rmtree(folder, ignore_errors=True)


def mlp(rng, sizes, dtype=np.float32):
    return [(rng.standard_normal((o, i)).astype(dtype) * 0.3, rng.standard_normal(o).astype(dtype) * 0.1)
            for i, o in zip(sizes, sizes[1:])]


def loaded_back(path, folder, num_params, obs_dim):
    """What C's loader holds after loading `path` (the reference's dump): params, count, clip, mean, var, words,
    digest."""
    out = os.path.join(folder, "dump.bin")
    subprocess.run([REFERENCE, "checkpoint", path, out], check=True, capture_output=True)
    with open(out, "rb") as f:
        data = f.read()
    params = np.frombuffer(data, np.float32, num_params)
    norm = np.frombuffer(data, np.float64, 2 + 2 * obs_dim, 4 * num_params)
    words = np.frombuffer(data, np.int32, 5, 4 * num_params + 8 * (2 + 2 * obs_dim))
    digest = int(np.frombuffer(data, np.uint64, 1, len(data) - 8)[0])
    return params, norm[0], norm[1], norm[2:2 + obs_dim], norm[2 + obs_dim:], list(words), digest


class TestCheckpointWriter(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.mkdtemp(prefix="s2r_python_")
        self.addCleanup(shutil.rmtree, self.folder, True)

    def test_round_trip_bit_for_bit(self):
        """Weights written from numpy are, loaded back by C, the same bits: float32 as given, float64 rounded to
        float32 once; the normalizer, activations, history, arm, task and digest as given. C then acts as the
        documented formula does."""
        rng = np.random.default_rng(3)
        env = sim2real.Env("panda", "push", "randomized")
        for dtype, activation in ((np.float32, "tanh"), (np.float64, "relu")):
            actor, critic = mlp(rng, [20 * 3 + 2 * 2, 48, 32, 2], dtype), mlp(rng, [64 + 5, 48, 32, 1], dtype)
            log_std = rng.standard_normal(2).astype(dtype)
            mean, var = rng.standard_normal(64), rng.uniform(0.1, 3, 64)
            path = os.path.join(self.folder, "p.ckpt")
            sim2real.write_checkpoint(path, actor, log_std, critic, mean, var, obs_count=1234.5, obs_clip=7.5,
                                      activation=activation, critic_activation="relu", history=2, privileged=5,
                                      trained_on=env)
            expected = np.concatenate([x.ravel() for w, b in actor for x in (w, b)] + [log_std.ravel()] +
                                      [x.ravel() for w, b in critic for x in (w, b)]).astype(np.float32)
            params, count, clip, m, v, words, digest = loaded_back(path, self.folder, len(expected), 64)
            self.assertEqual(params.tobytes(), expected.tobytes(), dtype)
            self.assertEqual((count, clip, m.tobytes(), v.tobytes()), (1234.5, 7.5, mean.tobytes(), var.tobytes()))
            self.assertEqual(words, [1 * 16 + 1 + 1, 2, 5, ("tanh", "relu").index(activation), 1])   # made_for
            self.assertEqual(digest, env.ranges_digest())
            back = sim2real.read_checkpoint(path)
            self.assertEqual((back["activation"], back["randomization"], back["history"]), (activation, digest, 2))
            policy = sim2real.Policy(path)
            self.assertEqual((policy.robot, policy.task, policy.history, policy.obs_dim), ("panda", "push", 2, 20))
        obs = rng.standard_normal(33).astype(np.float32)
        for activation in ("tanh", "relu"):
            path = os.path.join(self.folder, activation + ".ckpt")
            sim2real.write_checkpoint(path, mlp(rng, [33, 64, 64, 6]), activation=activation,
                                      obs_mean=rng.standard_normal(33), obs_var=rng.uniform(0.5, 2, 33),
                                      robot="ur5e", task="reach")
            np.testing.assert_allclose(sim2real.Policy(path).act(obs),
                                       sim2real.actor_mean(sim2real.read_checkpoint(path), obs), atol=1e-5)
        path = os.path.join(self.folder, "plain.ckpt")   # no normalizer given: the observation as it is
        layers = mlp(rng, [33, 16, 6])
        sim2real.write_checkpoint(path, layers, robot="ur5e", task="reach")
        w0, b0, w1, b1 = layers[0][0], layers[0][1], layers[1][0], layers[1][1]
        np.testing.assert_allclose(sim2real.Policy(path).act(obs * 20),
                                   np.clip(w1 @ np.tanh(w0 @ (obs * 20) + b0) + b1, -1, 1), atol=1e-5)

    @unittest.skipUnless(os.path.isfile(CHECKPOINT), "no checkpoint %s" % CHECKPOINT)
    def test_a_c_checkpoint_rewritten_is_the_same_policy(self):
        """A checkpoint trained in C, read and written back from Python: C's loader holds the same numbers, bit
        for bit, arm, task and digest included."""
        w = sim2real.read_checkpoint(CHECKPOINT)
        path = os.path.join(self.folder, "again.ckpt")
        sim2real.write_checkpoint(path, w["actor"], w["log_std"], w["critic"], w["norm_mean"], w["norm_var"],
                                  w["norm_count"], w["norm_clip"], robot="ur5e", task="reach",
                                  trained_on=w["randomization"])
        n = sum(a.size + b.size for a, b in w["actor"] + w["critic"]) + w["act_dim"]
        mine, theirs = ([x.tobytes() if hasattr(x, "tobytes") else x for x in loaded_back(p, self.folder, n, 33)]
                        for p in (path, CHECKPOINT))
        self.assertEqual(mine, theirs)

    def test_bad_weights(self):
        rng = np.random.default_rng(4)
        good = mlp(rng, [33, 8, 6])
        path = os.path.join(self.folder, "bad.ckpt")
        nan = [(good[0][0].copy(), good[0][1]), good[1]]
        nan[0][0][1, 2] = np.nan
        for kwargs, error, words in (
                (dict(actor=nan), ValueError, "actor layer 0 W holds NaN"),
                (dict(actor=[(good[0][0].astype(np.int32), good[0][1]), good[1]]), TypeError, "actor layer 0 W must be "
                                                                                             "floating point"),
                (dict(actor=[(good[0][0] * 1e39, good[0][1]), good[1]]), ValueError, "beyond float32"),
                (dict(actor=[good[0], (np.zeros((6, 9), np.float32), good[1][1])]), ValueError,
                 "actor layer 1 takes 9 inputs, the layer before gives 8"),
                (dict(actor=[(np.zeros((300, 33)), np.zeros(300)), (np.zeros((6, 300)), np.zeros(6))]), ValueError,
                 "actor layer 0 is 300 wide: at most 256"),
                (dict(actor=mlp(rng, [33, 8, 8, 8, 8, 8, 6])), ValueError, "1..4 hidden layers"),
                (dict(log_std=np.zeros(5)), ValueError, "log_std has 5 numbers"),
                (dict(critic=mlp(rng, [33, 9, 1])), ValueError, "not the actor's"),
                (dict(obs_var=-np.ones(33)), ValueError, "obs_var\\[0\\] is -1: each variance must be finite and >= 0"),
                (dict(obs_count=0), ValueError, "obs_count .* is 0: it must be finite and > 0"),
                (dict(task="push"), ValueError, "the ur5e push task"),
                (dict(robot=None), ValueError, "needs robot and task"),
                (dict(activation="sigmoid"), ValueError, "tanh\" or \"relu"),
                (dict(actor=[]), ValueError, "actor has 0 Linear layers"),   # was IndexError
                (dict(actor=[good[1]]), ValueError, "actor has 1 Linear layers"),
                (dict(critic=[]), ValueError, "critic has 0 Linear layers"),
                (dict(trained_on=os.path.join(self.folder, "missing.txt")), ValueError,
                 "trained_on \\(the ranges file the policy was trained on\\): cannot open .*missing.txt"),
                (dict(trained_on=""), ValueError, "trained_on is an empty path"),
                (dict(trained_on=3.5), ValueError, "trained_on must be the Env .* its ranges file's path, or the "
                                                   "randomization digest .* got 3.5"),
                (dict(trained_on={"digest": 1}), ValueError, "trained_on must be the Env"),
                (dict(trained_on=True), ValueError, "trained_on must be the Env"),
                (dict(trained_on=-1), ValueError, "trained_on \\(a digest\\) must be 0 .. 2\\*\\*64 - 1")):
            args = dict(actor=good, robot="ur5e", task="reach")
            args.update(kwargs)
            with self.subTest(kwargs=list(kwargs)):
                with self.assertRaisesRegex(error, words):
                    sim2real.write_checkpoint(path, **args)
                self.assertFalse(os.path.exists(path), "a refused checkpoint left a file")


class TestCheckpointBounds(unittest.TestCase):
    """write_checkpoint wrote log_std = 1e3 (a policy whose sampled actions are infinite: exp(1e3) overflows), and
    left NaN counts and clips to a message naming neither: now the loader's bounds, read from the library
    (s2r_flat_checkpoint_limits, S2R_LOG_STD_MAX), refuse them first, naming the argument and the bound; the
    library's own writer refuses the same (s2r_policy_save runs the loader's checks), and so does the loader."""

    def setUp(self):
        self.folder = tempfile.mkdtemp(prefix="s2r_python_")
        self.addCleanup(shutil.rmtree, self.folder, True)
        self.path = os.path.join(self.folder, "p.ckpt")
        self.good = mlp(np.random.default_rng(5), [33, 8, 6])

    def write(self, **kwargs):
        return sim2real.write_checkpoint(self.path, self.good, robot="ur5e", task="reach", **kwargs)

    def test_the_bounds_are_the_library_s(self):
        from sim2real import checkpoint
        self.assertEqual(_lib.checkpoint_limits(), {"history_max": 8, "max_hidden": 4, "max_width": 256,
                                                     "log_std_max": 40.0})
        self.assertEqual((checkpoint.HISTORY_MAX, checkpoint.MAX_HIDDEN, checkpoint.MAX_WIDTH, checkpoint.LOG_STD_MAX),
                         tuple(_lib.checkpoint_limits().values()))

    def test_absurd_values_refused_naming_the_bound(self):
        for value, says in ((1e3, "log_std\\[2\\] is 1000"), (-1e3, "log_std\\[2\\] is -1000"),
                            (np.nan, "log_std\\[2\\] is nan"), (np.inf, "log_std\\[2\\] is inf"),
                            (1e300, "log_std\\[2\\] is 1e\\+300"), (40.5, "log_std\\[2\\] is 40.5")):
            log_std = np.zeros(6)
            log_std[2] = value
            with self.subTest(log_std=value):
                with self.assertRaisesRegex(ValueError, says + ": each must be within -40 .. 40 .*S2R_LOG_STD_MAX"):
                    self.write(log_std=log_std)
                self.assertFalse(os.path.exists(self.path))
        for kwargs, says in ((dict(obs_count=np.nan), "obs_count .* is nan: it must be finite and > 0"),
                             (dict(obs_count=np.inf), "obs_count .* is inf: it must be finite and > 0"),
                             (dict(obs_count=-1e300), "obs_count .* is -1e\\+300: it must be finite and > 0"),
                             (dict(obs_clip=np.nan), "obs_clip .* is nan: it must be finite and > 0"),
                             (dict(obs_clip=0.0), "obs_clip .* is 0.0: it must be finite and > 0"),
                             (dict(obs_var=np.r_[np.ones(32), -1e-3]), "obs_var\\[32\\] is -0.001"),
                             (dict(obs_mean=np.r_[np.ones(32), np.inf]), "obs_mean holds NaN or infinite"),
                             (dict(history=9), "history must be 0 .. 8, got 9")):
            with self.subTest(**{k: str(v)[:20] for k, v in kwargs.items()}):
                with self.assertRaisesRegex(ValueError, says):
                    self.write(**kwargs)
                self.assertFalse(os.path.exists(self.path))
        with self.assertRaisesRegex(TypeError, "obs_count .* must be a number"):
            self.write(obs_count="many")
        self.write(log_std=np.r_[np.full(3, -40.0), np.full(3, 40.0)], obs_count=1e300, obs_clip=1e300)
        back = sim2real.read_checkpoint(self.path)
        self.assertEqual(back["log_std"].tolist(), [-40.0] * 3 + [40.0] * 3)
        sim2real.Policy(self.path).act(np.zeros(33, np.float32), deterministic=False)

    def test_the_library_refuses_them_too(self):
        """With the Python check out of the way (a package that believed in a larger bound), the library's writer
        refuses the file its loader would refuse, with the loader's reason, and writes nothing."""
        limits = _lib.checkpoint_limits()
        wider = dict(limits, log_std_max=1e9)
        original = _lib.checkpoint_limits
        _lib.checkpoint_limits = lambda: wider
        try:
            with self.assertRaisesRegex(sim2real.InvalidArgumentError, "log_std\\[0\\] is 1000: each must be "
                                        "within -40 .. 40 \\(S2R_LOG_STD_MAX\\) \\(not saved: s2r_policy_load would "
                                        "refuse it\\)"):
                self.write(log_std=np.full(6, 1e3))
        finally:
            _lib.checkpoint_limits = original
        self.assertFalse(os.path.exists(self.path))

    def test_the_reader_and_the_loader_refuse_a_forged_log_std(self):
        from sim2real.checkpoint import _checksum
        self.write()
        with open(self.path, "rb") as f:
            data = bytearray(f.read())
        at = 128 + 4 * (33 * 8 + 8 + 8 * 6 + 6) + 4 * 4   # log_std[4], after the actor's weights
        for value in (1e3, -np.inf, np.nan):
            data[at:at + 4] = np.float32(value).tobytes()
            data[48:56] = np.uint64(_checksum(data, 32)).tobytes()
            with open(self.path, "wb") as f:
                f.write(data)
            with self.subTest(value=value):
                with self.assertRaisesRegex(sim2real.Sim2RealError, "log_std\\[4\\] is .*within -40 .. 40"):
                    sim2real.Policy(self.path)
                with self.assertRaisesRegex(ValueError, "log_std\\[4\\] is .*within -40 .. 40"):
                    sim2real.read_checkpoint(self.path)


class TestForgedHeaders(unittest.TestCase):
    """A checkpoint edited and sealed again (the checksum recomputed): the library's loader and read_checkpoint
    refuse the same files, each saying why. A history word of 9 .. 2**32 - 1 loaded as history 0 (while
    read_checkpoint reported the word), 1 .. 8 on an observation no stack fits gave "no memory for N frames",
    a negative variance loaded and failed only at act; read_checkpoint read what the loader refuses, or failed
    with numpy's reshape errors."""

    def setUp(self):
        self.folder = tempfile.mkdtemp(prefix="s2r_python_")
        self.addCleanup(shutil.rmtree, self.folder, True)
        rng = np.random.default_rng(0)
        self.path = os.path.join(self.folder, "base.ckpt")
        sim2real.write_checkpoint(self.path, mlp(rng, [33, 16, 6]), robot="ur5e", task="reach")
        with open(self.path, "rb") as f:
            self.data = f.read()

    def forge(self, words=None, at=None, value=None):
        from sim2real.checkpoint import _checksum
        b = bytearray(self.data)
        for k, v in (words or {}).items():
            b[4 * k:4 * k + 4] = np.uint32(v & 0xFFFFFFFF).tobytes()
        if at is not None:
            b[at:at + 8] = np.float64(value).tobytes()
        b[48:56] = np.uint64(_checksum(b, 32)).tobytes()
        path = os.path.join(self.folder, "forged%d.ckpt" % len(os.listdir(self.folder)))
        with open(path, "wb") as f:
            f.write(b)
        return path

    def test_both_refuse_the_same_files(self):
        norm = 128 + 4 * int(np.frombuffer(self.data[36:40], np.uint32)[0])   # count, clip, mean[33], var[33]
        for name, path, words in (
                ("history 9", self.forge({15: 9}), "history word 9: a policy stacks 0..8 frames"),
                ("history 2**32 - 1", self.forge({15: 2 ** 32 - 1}), "history word 4294967295"),
                ("history 1 on obs 33 act 6", self.forge({15: 1}), "history word 1, but obs 33 act 6 is no stack"),
                ("made_for 99", self.forge({14: 99}), "made_for word 99 names no arm and task"),
                ("2 layers word with a high bit", self.forge({4: 0x101}), "inconsistent sizes"),
                ("optimizer floats", self.forge({10: 5}), "inconsistent sizes"),
                ("count 0", self.forge(at=norm, value=0.0), "bad normalizer"),
                ("clip NaN", self.forge(at=norm + 8, value=np.nan), "bad normalizer"),
                ("mean[3] NaN", self.forge(at=norm + 16 + 8 * 3, value=np.nan), "mean\[3\] is nan"),
                ("variance[0] -1", self.forge(at=norm + 16 + 8 * 33, value=-1.0),
                 "variance\[0\] is -1 \(must be finite and >= 0\)"),
                ("variance[32] inf", self.forge(at=norm + 16 + 8 * 65, value=np.inf), "variance\[32\] is inf")):
            with self.subTest(name):
                with self.assertRaisesRegex(sim2real.Sim2RealError, words):
                    sim2real.Policy(path)
                with self.assertRaisesRegex(ValueError, words):
                    sim2real.read_checkpoint(path)
        for name, path in (("unchanged", self.forge()), ("made_for panda push", self.forge({14: 1 * 16 + 1 + 1})),
                           ("variance 0", self.forge(at=norm + 16 + 8 * 33, value=0.0))):
            with self.subTest(name):
                sim2real.Policy(path).act(np.zeros(33, np.float32))
                sim2real.read_checkpoint(path)


@unittest.skipIf(torch is None, NO_TORCH)
class TestTorchWriter(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.mkdtemp(prefix="s2r_python_")
        self.addCleanup(shutil.rmtree, self.folder, True)
        torch.manual_seed(0)

    def test_cleanrl_agent_acts_as_in_torch(self):
        """A CleanRL-shaped actor and critic, float32 and float64, with a normalizer: the C policy acts as the
        torch module does on normalized observations."""
        nn = torch.nn
        for dtype in (torch.float32, torch.float64):
            actor, critic = (nn.Sequential(nn.Linear(33, 64), nn.Tanh(), nn.Linear(64, 64), nn.Tanh(),
                                           nn.Linear(64, out)).to(dtype) for out in (6, 1))
            log_std = nn.Parameter(torch.zeros(1, 6, dtype=dtype))
            mean, var = np.random.default_rng(1).standard_normal(33), np.random.default_rng(2).uniform(0.2, 2, 33)
            path = os.path.join(self.folder, "agent.ckpt")
            sim2real.write_checkpoint(path, actor, log_std, critic, mean, var, robot="ur5e", task="reach")
            policy = sim2real.Policy(path)
            env = sim2real.Env("ur5e", "reach", "randomized")
            obs, _ = env.reset(seed=2)
            for _ in range(10):
                z = np.clip((obs - mean) / np.sqrt(var + 1e-8), -10, 10).astype(np.float32)
                with torch.no_grad():
                    mine = actor(torch.tensor(z, dtype=dtype)).clamp(-1, 1).numpy()
                np.testing.assert_allclose(policy.act(obs), mine, atol=1e-5)
                obs, *_ = env.step(policy.act(obs))
            relu = nn.Sequential(nn.Linear(33, 32), nn.ReLU(), nn.Linear(32, 6))
            sim2real.write_checkpoint(path, relu, robot="ur5e", task="reach")
            self.assertEqual(sim2real.read_checkpoint(path)["activation"], "relu")

    def test_other_shapes_name_the_layer(self):
        nn = torch.nn
        good = [nn.Linear(33, 16), nn.Tanh(), nn.Linear(16, 6)]
        for net, words in ((nn.Sequential(nn.Linear(33, 16), nn.Tanh(), nn.LayerNorm(16), nn.Linear(16, 6)),
                            "actor layer 2 \\(LayerNorm.*Linear layers with Tanh or ReLU"),
                           (nn.Sequential(*good, nn.Tanh()), "actor layer 3 \\(Tanh\\(\\)\\): an activation after an "
                                                              "activation|output layer must be Linear"),
                           (nn.Sequential(nn.Linear(33, 16), nn.Linear(16, 6)), "actor layer 1 .*two Linear layers"),
                           (nn.Sequential(nn.Linear(33, 16), nn.Tanh(), nn.Linear(16, 8), nn.ReLU(), nn.Linear(8, 6)),
                            "actor layer 3 \\(ReLU.*mixes tanh and ReLU"),
                           (nn.Sequential(nn.Linear(33, 512), nn.Tanh(), nn.Linear(512, 6)),
                            "actor layer 0 is 512 wide"),
                           (nn.Sequential(nn.Linear(20, 16), nn.Tanh(), nn.Linear(16, 6)), "obs 20 act 6, but the ur5e "
                                                                                            "reach task")):
            with self.subTest(net=str(net)):
                with self.assertRaisesRegex(ValueError, words):
                    sim2real.write_checkpoint(os.path.join(self.folder, "x.ckpt"), net, robot="ur5e", task="reach")
        with self.assertRaisesRegex(TypeError, "torch.nn.Sequential"):
            sim2real.write_checkpoint(os.path.join(self.folder, "x.ckpt"), nn.Linear(33, 6), robot="ur5e", task="reach")
        critic = nn.Sequential(nn.Linear(33, 32), nn.Tanh(), nn.Linear(32, 1))
        with self.assertRaisesRegex(ValueError, "critic's hidden widths \\[32\\] are not the actor's \\[16\\]"):
            sim2real.write_checkpoint(os.path.join(self.folder, "x.ckpt"), nn.Sequential(*good), critic=critic,
                                      robot="ur5e", task="reach")

    def test_layers_that_compute_something_else_are_refused(self):
        """A subclass of Tanh or Linear with its own forward, a Sequential subclass, a forward hook or pre-hook
        (its own or every module's): each was written as the plain layer, the C policy 0.5-1.1 off the torch
        module's, with no error. Refused, naming the layer."""
        nn = torch.nn

        class Doubled(nn.Tanh):
            def forward(self, x):
                return 2 * torch.tanh(x)

        class Tripled(nn.Linear):
            def forward(self, x):
                return super().forward(x) * 3

        class Reversed(nn.Sequential):
            def forward(self, x):
                return -super().forward(x)

        def plain():
            return nn.Sequential(nn.Linear(33, 16), nn.Tanh(), nn.Linear(16, 6))

        hooked, pre_hooked, hooked_all = plain(), plain(), plain()
        hooked[0].register_forward_hook(lambda module, inputs, output: output * 0)
        pre_hooked[2].register_forward_pre_hook(lambda module, inputs: (inputs[0] * 2,))
        hooked_all.register_forward_hook(lambda module, inputs, output: -output)
        path = os.path.join(self.folder, "x.ckpt")
        for net, error, words in (
                (nn.Sequential(nn.Linear(33, 16), Doubled(), nn.Linear(16, 6)), ValueError,
                 "actor layer 1 \(Doubled\(\)\): a subclass of Tanh"),
                (nn.Sequential(nn.Linear(33, 16), nn.Tanh(), Tripled(16, 6)), ValueError,
                 "actor layer 2 \(Tripled.*a subclass of Linear"),
                (Reversed(*plain()), TypeError, "got Reversed \(a subclass"),
                (hooked, ValueError, "actor layer 0 \(Linear.* has a forward hook"),
                (pre_hooked, ValueError, "actor layer 2 \(Linear.* has a forward pre-hook"),
                (hooked_all, ValueError, "^actor has a forward hook")):
            with self.subTest(net=str(net)):
                with self.assertRaisesRegex(error, words):
                    sim2real.write_checkpoint(path, net, robot="ur5e", task="reach")
                self.assertFalse(os.path.exists(path))
        handle = torch.nn.modules.module.register_module_forward_hook(lambda module, inputs, output: output)
        try:
            with self.assertRaisesRegex(ValueError, "global forward hook"):
                sim2real.write_checkpoint(path, plain(), robot="ur5e", task="reach")
        finally:
            handle.remove()
        sim2real.write_checkpoint(path, plain(), robot="ur5e", task="reach")   # the plain layers still are


class TestPipeline(unittest.TestCase):
    """A Python-written checkpoint through the pipeline: identify a unit and write its ranges, train (here:
    weights given) on them, evaluate on sim and units, deploy by path."""

    def setUp(self):
        self.folder = tempfile.mkdtemp(prefix="s2r_python_")
        self.addCleanup(shutil.rmtree, self.folder, True)

    def deploy_both_ways(self, checkpoint, ranges, robot="ur5e", task="reach"):
        """deploy_staged by path, and 06 on the same files named as 02's in a folder of their own: the same log
        and timeline, byte for byte."""
        by_path = sim2real.deploy_staged(checkpoint, ranges, os.path.join(self.folder, "by_path"), quick=True)
        folder = os.path.join(self.folder, "by_folder")
        os.makedirs(folder)
        prefix = "02_push_" if task == "push" else "02_"
        shutil.copy(checkpoint, os.path.join(folder, prefix + "dr.ckpt"))
        shutil.copy(ranges, os.path.join(folder, prefix + "ranges.txt"))
        subprocess.run([os.path.join(BUILD, "06_staged_deployment"), "--quick", "--robot", robot, "--task", task,
                        "--out", folder], check=True, capture_output=True)
        for name in ("06_timeline.csv", "06_deployment_log.jsonl"):
            with open(os.path.join(self.folder, "by_path", name), "rb") as a:
                with open(os.path.join(folder, name), "rb") as b:
                    self.assertTrue(a.read() == b.read(), name)
        return by_path

    @unittest.skipUnless(os.path.isfile(CHECKPOINT) and os.path.isfile(os.path.join(BUILD, "06_staged_deployment")),
                         "no checkpoint %s or no build/06_staged_deployment" % CHECKPOINT)
    def test_export_evaluate_deploy(self):
        ranges = os.path.join(self.folder, "unit1_ranges.txt")
        sim2real.identify_unit("ur5e", "reach", 1, quick=True, ranges_out=ranges)
        env = sim2real.Env("ur5e", "reach", "randomized", ranges=ranges)
        w = sim2real.read_checkpoint(CHECKPOINT)
        path = os.path.join(self.folder, "mine.ckpt")
        sim2real.write_checkpoint(path, w["actor"], w["log_std"], w["critic"], w["norm_mean"], w["norm_var"],
                                  w["norm_count"], w["norm_clip"], trained_on=env)
        mine, theirs = sim2real.Policy(path), sim2real.Policy(CHECKPOINT)
        a, b = (sim2real.evaluate_sim_and_real(p, episodes=3, units=2) for p in (mine, theirs))
        self.assertEqual(a, b)   # the same weights: the same row of the table
        line = subprocess.run([REFERENCE, "evaluate", "ur5e", "reach", "unit", "-", "1", "1", "3", path], check=True,
                              capture_output=True, text=True).stdout
        on_unit = sim2real.Env("ur5e", "reach", "unit", unit=1).evaluate(mine, 3, seed=1)
        self.assertEqual(line.split(), ["successes", str(on_unit["successes"]), "of", "3"])
        result = self.deploy_both_ways(path, ranges)
        self.assertEqual(result["timeline"][0]["stage"], "sim_regression")
        self.assertIn(result["stage"], ("rolled_back", "autonomous"))
        unknown = os.path.join(self.folder, "unknown.ckpt")
        sim2real.write_checkpoint(unknown, w["actor"], robot="ur5e", task="reach")
        with self.assertRaisesRegex(sim2real.Sim2RealError, "records no randomization digest"):
            sim2real.deploy_staged(unknown, ranges, os.path.join(self.folder, "refused1"), quick=True)
        other = os.path.join(self.folder, "defaults.txt")
        sim2real.Env("ur5e", "reach", "randomized").write_ranges(other)
        with self.assertRaisesRegex(sim2real.Sim2RealError, "was not trained on the ranges"):
            sim2real.deploy_staged(path, other, os.path.join(self.folder, "refused2"), quick=True)
        with self.assertRaisesRegex(sim2real.Sim2RealError, "trained for the ur5e reach task, not the panda"):
            sim2real.deploy_staged(path, ranges, os.path.join(self.folder, "refused3"), robot="panda", quick=True)
        for refused in ("refused1", "refused2", "refused3"):   # nothing deployed, nothing logged, no empty folder left
            self.assertFalse(os.path.exists(os.path.join(self.folder, refused)), refused)
        for timeout in (-1, 0, float("nan"), float("inf")):   # -1 was subprocess.TimeoutExpired
            with self.assertRaisesRegex(ValueError, "timeout must be None \\(no limit\\) or a number of seconds > 0"):
                sim2real.deploy_staged(path, ranges, os.path.join(self.folder, "refused4"), quick=True, timeout=timeout)
        with self.assertRaisesRegex(TypeError, "timeout must be a number of seconds or None"):
            sim2real.deploy_staged(path, ranges, os.path.join(self.folder, "refused4"), quick=True, timeout="10")
        self.assertFalse(os.path.exists(os.path.join(self.folder, "refused4")), "refused, yet 06 ran")


class TestCarelessUse(unittest.TestCase):
    """Found by using the package as a careless or hostile user would; each was a hang, a wrong result or an
    unclear error."""

    def setUp(self):
        self.folder = tempfile.mkdtemp(prefix="s2r_python_")
        self.addCleanup(shutil.rmtree, self.folder, True)

    @unittest.skipUnless(hasattr(os, "fork") and sim2real.library().s2r_flat_render_available(), "no fork or render")
    def test_render_in_a_fork_after_the_parent_rendered(self):
        """llvmpipe's rasterizer threads are not copied by fork: a child of a process that had rendered waited for
        them for ever at its first render (multiprocessing's fork start method, AsyncVectorEnv)."""
        code = "\n".join([
            "import os, time, sim2real",
            "e = sim2real.Env('ur5e', 'push', 'nominal', render_mode='rgb_array', width=64, height=48); e.reset(seed=1)",
            "first = e.render()",
            "pid = os.fork()",
            "if pid == 0:",
            "    ok = (e.render() == first).all() and sim2real.Env('ur5e', 'reach', render_mode='rgb_array', width=32,"
            " height=24).render() is not None",
            "    os._exit(0 if ok else 3)",
            "for _ in range(300):",
            "    done, status = os.waitpid(pid, os.WNOHANG)",
            "    if done: print('child', os.waitstatus_to_exitcode(status)); break",
            "    time.sleep(0.1)",
            "else:",
            "    os.kill(pid, 9); print('the child hangs')"])
        env = dict(os.environ, PYTHONPATH=os.path.dirname(HERE) + os.pathsep + os.environ.get("PYTHONPATH", ""))
        env.pop("LP_NUM_THREADS", None)
        run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env)
        self.assertEqual(run.stdout.strip(), "child 0", run.stderr[-2000:])

    def test_a_digest_file_that_is_a_fifo(self):
        """The library's digest file (PATH.sha256) was opened unchecked: a FIFO there blocked the first use for
        ever."""
        lib = os.path.join(self.folder, "libsim2real.so")
        shutil.copy(_lib.library()._name, lib)
        os.mkfifo(lib + ".sha256")
        env = dict(os.environ, S2R_LIBRARY=lib,
                   PYTHONPATH=os.path.dirname(HERE) + os.pathsep + os.environ.get("PYTHONPATH", ""))
        run = subprocess.run([sys.executable, "-c", "import sim2real; sim2real.Env()"], capture_output=True,
                             text=True, timeout=60, env=env)
        self.assertIn("is not a regular file", run.stderr)
        self.assertIn("LibraryMismatchError", run.stderr)

    @unittest.skipUnless(os.path.isfile(os.path.join(BUILD, "06_staged_deployment")), "no build/06_staged_deployment")
    def test_deploy_staged_with_names_as_bytes(self):
        """robot and task as bytes (taken everywhere else) chose the reach run's files: a push deployment returned
        the timeline of a reach run in the same folder."""
        rng = np.random.default_rng(0)
        push = sim2real.Env("ur5e", "push", "randomized")
        ranges, checkpoint = os.path.join(self.folder, "push_ranges.txt"), os.path.join(self.folder, "push.ckpt")
        push.write_ranges(ranges)
        sim2real.write_checkpoint(checkpoint, [(rng.standard_normal((o, i)).astype(np.float32) * 0.1,
                                                np.zeros(o, np.float32))
                                               for i, o in ((push.obs_dim, 16), (16, push.act_dim))], trained_on=push)
        with open(os.path.join(self.folder, "06_timeline.csv"), "w") as f:   # a reach run's, beside it
            f.write("seq,stage,verdict,next,n,value,lo,hi,alarm_unit\n1,sim_regression,PASS,shadow,1,1,1,1,0\n")
        result = sim2real.deploy_staged(checkpoint, ranges, self.folder, robot=b"ur5e", task=b"push", quick=True)
        self.assertTrue(result["log"].endswith("06_push_deployment_log.jsonl"), result["log"])
        self.assertNotEqual(result["timeline"][0]["next"], "shadow")   # not the reach run's row
        self.assertTrue(all(os.path.basename(f).startswith("06_push_") for f in result["files"]), result["files"])

    def test_actions_are_copied_before_c_reads_them(self):
        """A float32 C-contiguous action went to C uncopied: another thread writing it meanwhile stepped some of a
        VecEnv's environments on the old values while C refused the others."""
        from sim2real.env import _action_array
        mine = np.zeros((2, 3), np.float32)
        taken = _action_array(mine, (2, 3), "actions")
        mine[:] = np.nan
        self.assertTrue(np.isfinite(taken).all())
        with self.assertRaisesRegex(ValueError, "masked array with masked entries"):
            _action_array(np.ma.masked_array(np.zeros(3, np.float32), [0, 1, 0]), (3,))

    @unittest.skipUnless(os.path.isfile(CHECKPOINT), "no checkpoint %s" % CHECKPOINT)
    def test_a_checkpoint_with_a_nan_weight_is_refused_by_both_loaders(self):
        import struct
        from sim2real.checkpoint import _checksum
        with open(CHECKPOINT, "rb") as f:
            data = bytearray(f.read())
        words = 32   # the header's, as read_checkpoint reads them
        for bad in (float("nan"), float("inf")):
            edited = bytearray(data)
            struct.pack_into("<f", edited, 4 * words + 4 * 3, bad)   # the actor's fourth weight
            check = _checksum(bytes(edited), words)
            struct.pack_into("<II", edited, 48, check & 0xFFFFFFFF, check >> 32)
            path = os.path.join(self.folder, "bad.ckpt")
            with open(path, "wb") as f:
                f.write(edited)
            with self.assertRaisesRegex(ValueError, "parameter 3 of [0-9]+ is (nan|inf): every weight must be finite"):
                sim2real.read_checkpoint(path)
            with self.assertRaisesRegex(sim2real.Sim2RealError, "parameter 3 of [0-9]+ is (nan|inf)"):
                sim2real.Policy(path)

    @unittest.skipUnless(os.path.isfile(os.path.join(LOGS, "12_log_1.csv")), "no %s/12_log_1.csv" % LOGS)
    def test_identify_logs_says_what_was_held_out(self):
        """One log gave "good" with nothing held out, and a held-out log that is a fitted one was taken."""
        log = os.path.join(LOGS, "12_log_1.csv")
        with self.assertWarnsRegex(UserWarning, "one log only"):
            result = sim2real.identify_logs([log], quick=True)
        self.assertFalse(result["held_out"])
        with self.assertRaisesRegex(ValueError, "holds the same motion as the fitted"):
            sim2real.identify_logs([log, log], quick=True)
        with self.assertRaisesRegex(ValueError, "name one file"):
            sim2real.identify_logs([log], quick=True, ranges_out=os.path.join(self.folder, "a.txt"),
                                   identified_out=os.path.join(self.folder, ".", "a.txt"))

    def test_quick_is_a_yes_or_no(self):
        """quick went through bool(): quick="no" ran the quick sizes."""
        for bad in ("no", "False", 2, None):
            with self.assertRaisesRegex(TypeError, "quick must be True or False"):
                sim2real.identify_unit("ur5e", "reach", 1, quick=bad)

    def test_an_empty_path_is_no_way_to_say_none(self):
        """identify_unit(ranges="") meant the defaults where Env(ranges="") is refused."""
        with self.assertRaisesRegex(ValueError, "ranges is an empty path: give None for none"):
            sim2real.identify_unit("ur5e", "reach", 1, ranges="", quick=True)
        with self.assertRaisesRegex(ValueError, "mjcf is an empty path"):
            sim2real.identify_logs(["a.csv"], mjcf=b"", quick=True)

    def test_an_empty_ranges_file_is_refused(self):
        """An emptied or truncated-to-comments ranges file meant the default ranges, unsaid."""
        path = os.path.join(self.folder, "empty.txt")
        with open(path, "w") as f:
            f.write("# ranges\n\n")
        with self.assertRaisesRegex(sim2real.Sim2RealError, "names no range \\(empty, or comments only\\)"):
            sim2real.Env("ur5e", "reach", "randomized", ranges=path)

    def test_a_vecenv_of_environments_reset_on_their_own(self):
        """VecEnv.of over Envs each reset alone stepped with no episodes of its own, then raised a raw TypeError at
        the first episode's end."""
        envs = [sim2real.Env("ur5e", "reach") for _ in range(2)]
        for e in envs:
            e.reset(seed=3)
        vec = sim2real.VecEnv.of(envs)
        with self.assertRaisesRegex(sim2real.Sim2RealError, "step before reset: reset the VecEnv first"):
            vec.step(np.zeros((2, vec.act_dim), np.float32))
        vec.reset(seed=3)
        vec.step(np.zeros((2, vec.act_dim), np.float32))


class TestCleanRLExample(unittest.TestCase):
    def test_smoke_run_exports_evaluates_deploys(self):
        """examples/cleanrl_ppo.py at smoke size: trains, exports (the C policy acts as torch within 1e-5, or
        the run fails), measures; its checkpoint and ranges then go through staged deployment by path."""
        folder = tempfile.mkdtemp(prefix="s2r_python_")
        self.addCleanup(shutil.rmtree, folder, True)
        run = subprocess.run([sys.executable, os.path.join(ROOT, "python", "examples", "cleanrl_ppo.py"),
                              "--total-timesteps", "1024", "--num-envs", "4", "--num-steps", "64", "--update-epochs",
                              "2", "--num-minibatches", "4", "--eval-episodes", "2", "--units", "2", "--out", folder],
                             capture_output=True, text=True)
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        if "skipped" in run.stdout:
            self.skipTest(run.stdout.strip())
        self.assertIn("the C policy's actions are torch's within", run.stdout)
        with open(os.path.join(folder, "cleanrl_ppo_result.csv")) as f:
            rows = f.read().splitlines()
        self.assertEqual((len(rows), rows[1].split(",")[:2], rows[1].split(",")[5]), (2, ["cleanrl_ppo", "2"], "4"))
        checkpoint, ranges = os.path.join(folder, "cleanrl_ppo.ckpt"), os.path.join(folder, "cleanrl_ppo_ranges.txt")
        self.assertEqual(sim2real.read_checkpoint(checkpoint)["randomization"],
                         sim2real.Env("ur5e", "reach", "randomized").ranges_digest())
        if os.path.isfile(os.path.join(BUILD, "06_staged_deployment")):
            result = sim2real.deploy_staged(checkpoint, ranges, os.path.join(folder, "deploy"), quick=True)
            self.assertEqual(result["timeline"][0]["stage"], "sim_regression")


if __name__ == "__main__":
    result = unittest.main(exit=False, verbosity=1).result
    failed = len(result.failures) + len(result.errors) + len(result.unexpectedSuccesses)
    skipped = len(result.skipped)
    print("python: %d passed, %d failed, %d skipped" % (result.testsRun - failed - skipped, failed, skipped))
    for test, reason in result.skipped:
        print("skipped %s: %s" % (test.id(), reason))
    sys.exit(1 if failed else 0)
