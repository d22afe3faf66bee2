"""A policy trained in C, loaded into an equivalent PyTorch nn.Module.

    python3 python/examples/torch_load.py [CHECKPOINT]

(default: build/quick_python/01_pure_sim.ckpt, which `make test-python` or
`./build/01_the_gap --quick --out build/quick_python` writes). The layout it
reads is documented in python/sim2real/checkpoint.py. Where PyTorch
(Debian: python3-torch) is not installed it says so and stops; where the
shared library is built (`make python`) it also checks the module's actions
against the C policy's on one episode.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import numpy as np  # noqa: E402
import sim2real  # noqa: E402

try:
    import torch
    from torch import nn
except ImportError:
    print("torch_load: skipped: PyTorch is not installed (apt-get install python3-torch)")
    sys.exit(0)


class SimToRealActor(nn.Module):
    """The checkpoint's observation normalizer and actor: obs -> action in [-1, 1]."""

    def __init__(self, weights):
        super().__init__()
        self.register_buffer("mean", torch.tensor(weights["norm_mean"], dtype=torch.float32))
        self.register_buffer("std", torch.tensor(np.sqrt(weights["norm_var"] + 1e-8), dtype=torch.float32))
        self.clip = weights["norm_clip"]
        layers = []
        for k, (w, b) in enumerate(weights["actor"]):
            linear = nn.Linear(w.shape[1], w.shape[0])   # W is [out][in], nn.Linear's own layout
            with torch.no_grad():
                linear.weight.copy_(torch.from_numpy(w.copy()))
                linear.bias.copy_(torch.from_numpy(b.copy()))
            layers.append(linear)
            if k + 1 < len(weights["actor"]):
                layers.append(nn.Tanh())
        self.actor = nn.Sequential(*layers)
        self.log_std = nn.Parameter(torch.from_numpy(weights["log_std"].copy()))

    def forward(self, obs):
        z = torch.clamp((obs - self.mean) / self.std, -self.clip, self.clip)
        return torch.clamp(self.actor(z), -1.0, 1.0)


def main():
    root = os.path.dirname(os.path.dirname(HERE))
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "build", "quick_python", "01_pure_sim.ckpt")
    if not os.path.isfile(path):
        print("torch_load: no checkpoint %s: run ./build/01_the_gap --quick --out build/quick_python" % path)
        return 1
    weights = sim2real.read_checkpoint(path)
    module = SimToRealActor(weights)
    print(module)
    try:
        policy = sim2real.Policy(path)
    except sim2real.Sim2RealError as e:
        print("torch_load: the module is built; not compared with the C policy: %s" % e)
        return 0
    robot, task = policy.robot if policy.robot != "unknown" else "ur5e", policy.task if policy.task != "unknown" else "reach"
    env = sim2real.Env(robot, task, "randomized")
    obs, _ = env.reset(seed=1)
    worst, done = 0.0, False
    while not done:
        action = policy.act(obs)
        with torch.no_grad():
            mine = module(torch.from_numpy(obs)).numpy()
        worst = max(worst, float(np.abs(mine - action).max()))
        obs, _, terminated, truncated, _ = env.step(action)
        done = terminated or truncated
    print("one %s %s episode: the module's actions are the C policy's within %.1e" % (robot, task, worst))
    return 0 if worst < 1e-5 else 1


if __name__ == "__main__":
    sys.exit(main())
