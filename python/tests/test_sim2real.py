"""Tests of the Python package against the C library (make test-python).

Python and C must agree bit for bit: whole episodes stepped from Python are
compared byte for byte with the same episodes run by build/python_reference,
a plain C program on sim2real.h's own API, on both arms, both tasks, a
randomized simulator and a stand-in unit; a C-trained checkpoint acting from
Python scores what C's evaluation scores on the same episodes. Bad input
raises an exception carrying the library's message.

Environment: S2R_BUILD (default: the repository's build/) holds
libsim2real.so and python_reference; S2R_TEST_CHECKPOINT (default:
build/quick_python/01_pure_sim.ckpt, `01_the_gap --quick`) a reach policy of
the UR5e; S2R_TEST_LOGS (default: build/quick_python) the logs and results of
`12_sysid_from_logs --quick`.
"""
import contextlib
import ctypes
import io
import os
import shutil
import subprocess
import sys
import tempfile
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

SEED = 7
EPISODES = 2


def python_rollout(env, actions):
    """Episodes 0.. of SEED from Python, as bytes in the reference's layout."""
    out = []
    for i in range(actions.shape[0]):
        obs, info = env.reset(seed=SEED) if i == 0 else env.reset()
        assert info["episode"] == i
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
        env = sim2real.Env(robot, task, simulator, unit=unit)
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
        self.assertEqual(info["episode"], 1)
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
            vec = sim2real.VecEnv(n, "ur5e", "push", "randomized", threads=threads)
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
            env = sim2real.Env("ur5e", "reach", simulator, unit=1)
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
        r = sim2real.evaluate_sim_and_real(sim2real.Policy(CHECKPOINT), episodes=4, units=2)
        self.assertEqual((r["sim"]["episodes"], r["real"]["episodes"]), (4, 8))
        self.assertLessEqual(r["gap"][1], r["gap"][0])
        self.assertLessEqual(r["gap"][0], r["gap"][2])


class TestIdentify(unittest.TestCase):
    def test_quick_identification_feeds_a_randomized_env(self):
        """A unit identified in quick mode: the fit improves on the first guess, the camera's offset is measured
        within the fleet's 1-3 cm (give or take), and the re-centred ranges load into an environment."""
        folder = tempfile.mkdtemp(prefix="s2r_python_")
        try:
            ranges = os.path.join(folder, "ranges.txt")
            r = sim2real.identify_unit("ur5e", "reach", 1, quick=True, ranges_out=ranges)
            self.assertIn(r["verdict"], ("good", "acceptable", "block"))
            self.assertLess(r["relative"], r["relative_start"])
            self.assertEqual(set(r["params"]), set(r["identifiable"]))
            self.assertIn("kp", r["params"])
            self.assertTrue(0.005 < np.linalg.norm(r["camera_offset"]) < 0.04, r["camera_offset"])
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
            self.assertIn(r["verdict"], ("good", "acceptable", "block"))
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
        with self.assertRaisesRegex(ValueError, "3 values"):
            sim2real.Env("ur5e", "reach", camera=[0, 0])

    def test_privileged(self):
        env = sim2real.Env("ur5e", "reach", "randomized")
        env.reset(seed=1)
        first = env.privileged()
        env.reset()
        self.assertEqual(first.shape, (env.privileged_dim,))
        self.assertFalse(np.array_equal(first, env.privileged()), "every episode draws its own parameters")

    @unittest.skipIf(sim2real.env.gymnasium is None, "gymnasium is not installed: check_env not run")
    def test_gymnasium_check_env(self):
        from gymnasium.utils.env_checker import check_env
        for task in ("reach", "push"):
            with warnings.catch_warnings():   # the observations are unbounded, as the spaces say
                warnings.filterwarnings("ignore", message=".*Box observation space m.* infinity")
                check_env(sim2real.Env("ur5e", task, "randomized"), skip_render_check=True)


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
        env.step(np.zeros(6))   # nothing was lost: the episode goes on (float64 is taken as float32)

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

    def test_checkpoints(self):
        corpus = os.path.join(ROOT, "tests", "fuzz", "corpus", "checkpoint")
        self.assertRaisesMessage(sim2real.Sim2RealError, ["no_such.ckpt"], sim2real.Policy, "no_such.ckpt")
        self.assertRaisesMessage(sim2real.Sim2RealError, ["truncated.ckpt", "S2R_ERR_CORRUPT"], sim2real.Policy,
                                 os.path.join(corpus, "truncated.ckpt"))
        self.assertRaisesMessage(ValueError, ["truncated.ckpt"], sim2real.read_checkpoint,
                                 os.path.join(corpus, "truncated.ckpt"))
        if os.path.isfile(CHECKPOINT):
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


if __name__ == "__main__":
    result = unittest.main(exit=False, verbosity=1).result
    failed = len(result.failures) + len(result.errors) + len(result.unexpectedSuccesses)
    skipped = len(result.skipped)
    print("python: %d passed, %d failed, %d skipped" % (result.testsRun - failed - skipped, failed, skipped))
    for test, reason in result.skipped:
        print("skipped %s: %s" % (test.id(), reason))
    sys.exit(1 if failed else 0)
