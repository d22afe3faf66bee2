"""A checkpoint's weights as numpy arrays, for loading them elsewhere (an
equivalent PyTorch nn.Module: python/examples/torch_load.py).

The layout (sim2real.h, "Checkpoints"; native byte order, little-endian on
x86 and ARM):

    uint32 header[32]   magic "S2RP", version (2), obs_dim, act_dim,
                        num_hidden, hidden[4], num_params, optimizer floats
                        (0: none), payload bytes, checksum lo/hi (FNV-1a 64
                        over the header with these two words zeroed, then
                        the payload), made_for, history, privileged,
                        randomization digest lo/hi, zeros
                        (version 1: 16 words, ending at history)
    float32 params[num_params]
        actor:  for each layer l: W_l [out][in] row-major (nn.Linear's
                weight), then b_l [out]; obs_dim -> hidden... -> act_dim,
                tanh after every hidden layer, the output linear
        log_std [act_dim]
        critic: the same, (obs_dim + privileged) -> hidden... -> 1
    float64 normalizer: count, clip, mean[obs_dim], var[obs_dim]
    (then, if saved, the optimizer's step count and moments)

The action for an observation x (float32 [obs_dim]; with frame history the
stacked observation, s2r_frame_history):

    z = clip((x - mean) / sqrt(var + 1e-8), -clip, clip)
    action = clip(actor(z), -1, 1)        # the mean; sampling adds exp(log_std) N(0, 1)

This reader checks the magic, the version and the sizes, not the checksum:
load through Policy (the C loader) to have the file validated in full.
"""
import numpy as np

HEADER_WORDS = {1: 16, 2: 32}
MAGIC = 0x50523253   # "S2RP" as a little-endian uint32


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


def read_checkpoint(path):
    """{"obs_dim", "act_dim", "hidden", "history", "privileged", "made_for", "actor": [(W, b)...], "log_std",
    "critic": [(W, b)...], "norm_mean", "norm_var", "norm_clip", "norm_count"} from a checkpoint file."""
    with open(path, "rb") as f:
        data = f.read()
    head = np.frombuffer(data[:8], np.uint32) if len(data) >= 8 else np.zeros(2, np.uint32)
    if head[0] != MAGIC or int(head[1]) not in HEADER_WORDS:
        raise ValueError("%s: not a sim2real checkpoint (magic %#x, version %d)" % (path, head[0], head[1]))
    words = HEADER_WORDS[int(head[1])]
    if len(data) < 4 * words:
        raise ValueError("%s: %d bytes, shorter than its header" % (path, len(data)))
    h = np.frombuffer(data[:4 * words], np.uint32)
    obs_dim, act_dim, num_hidden = int(h[2]), int(h[3]), int(h[4])
    hidden = [int(x) for x in h[5:5 + num_hidden]]
    num_params, payload = int(h[9]), int(h[11])
    privileged = int(h[16]) if words > 16 else 0
    if not 1 <= num_hidden <= 4 or len(data) != 4 * words + payload or payload < 4 * num_params + 8 * (2 + 2 * obs_dim):
        raise ValueError("%s: sizes do not add up (a damaged file?)" % path)
    params = np.frombuffer(data, np.float32, num_params, 4 * words)
    actor, offset = _layers(params, 0, [obs_dim] + hidden + [act_dim])
    log_std = params[offset:offset + act_dim]
    critic, offset = _layers(params, offset + act_dim, [obs_dim + privileged] + hidden + [1])
    if offset != num_params:
        raise ValueError("%s: %d parameters, the shape has %d" % (path, num_params, offset))
    norm = np.frombuffer(data, np.float64, 2 + 2 * obs_dim, 4 * words + 4 * num_params)
    return {"obs_dim": obs_dim, "act_dim": act_dim, "hidden": hidden, "made_for": int(h[14]),
            "history": int(h[15]), "privileged": privileged, "actor": actor, "log_std": log_std, "critic": critic,
            "norm_count": float(norm[0]), "norm_clip": float(norm[1]), "norm_mean": norm[2:2 + obs_dim],
            "norm_var": norm[2 + obs_dim:]}


def actor_mean(checkpoint, obs):
    """The deterministic action of read_checkpoint's weights for obs [obs_dim], in numpy (float64)."""
    c = checkpoint
    z = np.clip((np.asarray(obs, np.float64) - c["norm_mean"]) / np.sqrt(c["norm_var"] + 1e-8),
                -c["norm_clip"], c["norm_clip"])
    for k, (w, b) in enumerate(c["actor"]):
        z = w.astype(np.float64) @ z + b
        if k + 1 < len(c["actor"]):
            z = np.tanh(z)
    return np.clip(z, -1, 1)
