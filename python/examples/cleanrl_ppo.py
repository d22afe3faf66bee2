"""PPO in PyTorch, CleanRL-style (one file, its ppo_continuous_action.py's
settings), on the randomized reach; the trained actor exported as a
sim2real checkpoint, checked against torch, and measured in the nominal
simulator and on stand-in units, each with its 95 % interval.

    python3 python/examples/cleanrl_ppo.py [--total-timesteps 200000] [--out DIR]
        [--robot ur5e] [--task reach] [--ranges FILE] [--compare CKPT] ...

Writes DIR/cleanrl_ppo.ckpt (loads wherever a C checkpoint does: Policy,
examples/06_staged_deployment --policy), DIR/cleanrl_ppo_ranges.txt (the
ranges it trained on, for --ranges beside it) and DIR/cleanrl_ppo_result.csv
(the measurement; with --compare, the C checkpoint's on the same episodes).
Needs PyTorch (Debian: python3-torch); without it, says so and stops.
"""
import argparse
import csv
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import numpy as np  # noqa: E402
import sim2real  # noqa: E402

try:
    import torch
    from torch import nn
    from torch.distributions.normal import Normal
except ImportError:
    print("cleanrl_ppo: skipped: PyTorch is not installed (apt-get install python3-torch)")
    sys.exit(0)


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--robot", default="ur5e")
    p.add_argument("--task", default="reach")
    p.add_argument("--ranges", default=None, help="ranges file to train on (default: the task's)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--total-timesteps", type=int, default=200000)
    p.add_argument("--num-envs", type=int, default=8)
    p.add_argument("--num-steps", type=int, default=256, help="steps per environment per rollout")
    p.add_argument("--learning-rate", type=float, default=3e-4)
    p.add_argument("--gamma", type=float, default=0.99)
    p.add_argument("--gae-lambda", type=float, default=0.95)
    p.add_argument("--num-minibatches", type=int, default=32)
    p.add_argument("--update-epochs", type=int, default=10)
    p.add_argument("--clip-coef", type=float, default=0.2)
    p.add_argument("--ent-coef", type=float, default=0.0)
    p.add_argument("--vf-coef", type=float, default=0.5)
    p.add_argument("--max-grad-norm", type=float, default=0.5)
    p.add_argument("--eval-episodes", type=int, default=100, help="per simulator and per unit")
    p.add_argument("--units", type=int, default=3, help="stand-in units #1 .. #units")
    p.add_argument("--compare", default=None, help="a C checkpoint to measure on the same episodes")
    p.add_argument("--threads", type=int, default=1, help="torch's and the environments' threads")
    p.add_argument("--out", default="out")
    return p.parse_args()


class RunningMeanStd:
    """Running mean and variance (parallel update), as Gymnasium's NormalizeObservation keeps them."""

    def __init__(self, shape=()):
        self.mean, self.var, self.count = np.zeros(shape), np.ones(shape), 1e-4

    def update(self, x):
        batch_mean, batch_var, n = x.mean(0), x.var(0), x.shape[0]
        delta, total = batch_mean - self.mean, self.count + n
        self.mean = self.mean + delta * n / total
        self.var = (self.var * self.count + batch_var * n + delta ** 2 * self.count * n / total) / total
        self.count = total


def layer_init(layer, std=np.sqrt(2), bias_const=0.0):
    torch.nn.init.orthogonal_(layer.weight, std)
    torch.nn.init.constant_(layer.bias, bias_const)
    return layer


class Agent(nn.Module):
    """CleanRL's: critic and actor mean 64-64 tanh MLPs, a state-independent log std."""

    def __init__(self, obs_dim, act_dim):
        super().__init__()
        self.critic = nn.Sequential(layer_init(nn.Linear(obs_dim, 64)), nn.Tanh(), layer_init(nn.Linear(64, 64)),
                                    nn.Tanh(), layer_init(nn.Linear(64, 1), std=1.0))
        self.actor_mean = nn.Sequential(layer_init(nn.Linear(obs_dim, 64)), nn.Tanh(), layer_init(nn.Linear(64, 64)),
                                        nn.Tanh(), layer_init(nn.Linear(64, act_dim), std=0.01))
        self.actor_logstd = nn.Parameter(torch.zeros(1, act_dim))

    def get_value(self, x):
        return self.critic(x)

    def get_action_and_value(self, x, action=None):
        mean = self.actor_mean(x)
        probs = Normal(mean, torch.exp(self.actor_logstd.expand_as(mean)))
        if action is None:
            action = probs.sample()
        return action, probs.log_prob(action).sum(1), probs.entropy().sum(1), self.critic(x)


def normalize(rms, obs):
    return np.clip((obs - rms.mean) / np.sqrt(rms.var + 1e-8), -10, 10).astype(np.float32)


def train(args, envs):
    agent = Agent(envs.obs_dim, envs.act_dim)
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.learning_rate, eps=1e-5)
    n, steps = args.num_envs, args.num_steps
    batch_size = n * steps
    minibatch_size = batch_size // args.num_minibatches
    obs_buf = torch.zeros((steps, n, envs.obs_dim))
    act_buf = torch.zeros((steps, n, envs.act_dim))
    logp_buf, rew_buf, done_buf, val_buf = (torch.zeros((steps, n)) for _ in range(4))
    obs_rms, ret_rms, returns = RunningMeanStd((envs.obs_dim,)), RunningMeanStd(), np.zeros(n)
    raw, _ = envs.reset(seed=args.seed)
    obs_rms.update(raw)
    next_obs, next_done = torch.tensor(normalize(obs_rms, raw)), torch.zeros(n)
    episode_returns, success, finished, start = np.zeros(n), [], [], time.time()
    updates = max(1, args.total_timesteps // batch_size)
    for update in range(1, updates + 1):
        optimizer.param_groups[0]["lr"] = (1.0 - (update - 1.0) / updates) * args.learning_rate
        for t in range(steps):
            obs_buf[t], done_buf[t] = next_obs, next_done
            with torch.no_grad():
                action, logp, _, value = agent.get_action_and_value(next_obs)
            val_buf[t], act_buf[t], logp_buf[t] = value.flatten(), action, logp
            raw, reward, terminated, truncated, info = envs.step(np.clip(action.numpy(), -1, 1))
            done = terminated | truncated
            episode_returns += reward
            returns = returns * args.gamma * (1 - done) + reward   # NormalizeReward's discounted return
            ret_rms.update(returns[:, None].reshape(-1))
            rew_buf[t] = torch.tensor(np.clip(reward / np.sqrt(ret_rms.var + 1e-8), -10, 10))
            if done.any():
                finished += list(episode_returns[done])
                success += list(info["final_info"]["success"][done])
                episode_returns[done] = 0
            obs_rms.update(raw)
            next_obs, next_done = torch.tensor(normalize(obs_rms, raw)), torch.tensor(done, dtype=torch.float32)
        with torch.no_grad():   # generalized advantage estimation
            next_value = agent.get_value(next_obs).reshape(1, -1)
            advantages, lastgaelam = torch.zeros_like(rew_buf), 0
            for t in reversed(range(steps)):
                nextnonterminal = 1.0 - (next_done if t == steps - 1 else done_buf[t + 1])
                nextvalues = next_value if t == steps - 1 else val_buf[t + 1]
                delta = rew_buf[t] + args.gamma * nextvalues * nextnonterminal - val_buf[t]
                advantages[t] = lastgaelam = delta + args.gamma * args.gae_lambda * nextnonterminal * lastgaelam
            returns_buf = advantages + val_buf
        b_obs, b_act = obs_buf.reshape(-1, envs.obs_dim), act_buf.reshape(-1, envs.act_dim)
        b_logp, b_adv, b_ret, b_val = (x.reshape(-1) for x in (logp_buf, advantages, returns_buf, val_buf))
        b_inds = np.arange(batch_size)
        for epoch in range(args.update_epochs):   # the clipped surrogate, minibatch by minibatch
            np.random.shuffle(b_inds)
            for first in range(0, batch_size, minibatch_size):
                mb = b_inds[first:first + minibatch_size]
                _, newlogp, entropy, newvalue = agent.get_action_and_value(b_obs[mb], b_act[mb])
                ratio = (newlogp - b_logp[mb]).exp()
                mb_adv = (b_adv[mb] - b_adv[mb].mean()) / (b_adv[mb].std() + 1e-8)
                pg_loss = torch.max(-mb_adv * ratio, -mb_adv * torch.clamp(ratio, 1 - args.clip_coef,
                                                                           1 + args.clip_coef)).mean()
                newvalue = newvalue.view(-1)
                v_clipped = b_val[mb] + torch.clamp(newvalue - b_val[mb], -args.clip_coef, args.clip_coef)
                v_loss = 0.5 * torch.max((newvalue - b_ret[mb]) ** 2, (v_clipped - b_ret[mb]) ** 2).mean()
                loss = pg_loss - args.ent_coef * entropy.mean() + v_loss * args.vf_coef
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm)
                optimizer.step()
        if update % 10 == 0 or update == updates:
            recent = slice(-10 * n, None)
            print("update %d/%d, %d steps, %.0f s: return %.1f, success %.2f (last %d episodes)" % (
                update, updates, update * batch_size, time.time() - start, np.mean(finished[recent] or [0]),
                np.mean(success[recent] or [0]), len(finished[recent])), flush=True)
    return agent, obs_rms


def measure(name, policy, args):
    r = sim2real.evaluate_sim_and_real(policy, episodes=args.eval_episodes, seed=1, first_unit=1, units=args.units)
    print("%s: sim %.1f %% [%.1f, %.1f], units #1-#%d %.1f %% [%.1f, %.1f], gap %.1f [%.1f, %.1f]" % (
        name, 100 * r["sim"]["success_rate"], 100 * r["sim"]["success_lo"], 100 * r["sim"]["success_hi"], args.units,
        100 * r["real"]["success_rate"], 100 * r["real"]["success_lo"], 100 * r["real"]["success_hi"],
        *(100 * g for g in r["gap"])))
    return [name, r["sim"]["episodes"], r["sim"]["success_rate"], r["sim"]["success_lo"], r["sim"]["success_hi"],
            r["real"]["episodes"], r["real"]["success_rate"], r["real"]["success_lo"], r["real"]["success_hi"],
            *r["gap"]]


def main():
    args = parse_args()
    torch.manual_seed(args.seed)
    np.random.seed(args.seed)
    torch.set_num_threads(args.threads)
    os.makedirs(args.out, exist_ok=True)
    envs = sim2real.VecEnv(args.num_envs, args.robot, args.task, "randomized", ranges=args.ranges,
                           threads=min(args.threads, args.num_envs), autoreset_mode="same_step")
    start = time.time()
    agent, obs_rms = train(args, envs)
    print("trained %d steps in %.0f s" % (max(1, args.total_timesteps // (args.num_envs * args.num_steps)) *
                                          args.num_envs * args.num_steps, time.time() - start))
    path, ranges = (os.path.join(args.out, "cleanrl_ppo" + x) for x in (".ckpt", "_ranges.txt"))
    sim2real.write_checkpoint(path, agent.actor_mean, agent.actor_logstd, agent.critic, obs_rms.mean, obs_rms.var,
                              obs_rms.count, 10.0, trained_on=envs.envs[0])
    envs.envs[0].write_ranges(ranges)
    envs.close()
    policy = sim2real.Policy(path)
    env, worst = sim2real.Env(args.robot, args.task, "randomized", ranges=args.ranges), 0.0
    obs, _ = env.reset(seed=1)
    for _ in range(env.episode_steps):   # the C policy acts as the torch module does
        with torch.no_grad():
            mine = agent.actor_mean(torch.tensor(normalize(obs_rms, obs))).clamp(-1, 1).numpy()
        worst = max(worst, float(np.abs(mine - policy.act(obs)).max()))
        obs, _, terminated, truncated, _ = env.step(mine)
        if terminated or truncated:
            break
    print("wrote %s and %s; the C policy's actions are torch's within %.1e" % (path, ranges, worst))
    rows = [measure("cleanrl_ppo", policy, args)]
    if args.compare:
        rows.append(measure(os.path.basename(args.compare), sim2real.Policy(args.compare), args))
    with open(os.path.join(args.out, "cleanrl_ppo_result.csv"), "w", newline="") as f:
        out = csv.writer(f)
        out.writerow(["policy", "sim_episodes", "sim_success", "sim_lo", "sim_hi", "real_episodes", "real_success",
                      "real_lo", "real_hi", "gap", "gap_lo", "gap_hi"])
        out.writerows(rows)
    return 0 if worst < 1e-5 else 1


if __name__ == "__main__":
    sys.exit(main())
