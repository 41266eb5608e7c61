"""Independent PyTorch reference for the Go/Gorgonia pronoun-resolution transformer.

A small post-layer-norm transformer encoder ("Attention Is All You Need") with a
pronoun-resolution head, written out with explicit tensor math (no nn.MultiheadAttention /
nn.TransformerEncoderLayer) so the memory layout is unambiguous. Everything is float64,
seeded, and gradients come from torch autograd. All weight matrices are stored as
(in, out), so a linear layer is x @ W.

Run from the repository root (Debian python3-torch, hence /usr/bin/python3):

    /usr/bin/python3 model/testdata/reference.py

It writes model/testdata/reference.json: config, inputs, params, outputs (embedded,
attention, encoded, head_probs, loss) and grads (d loss / d param), every tensor as
{"shape": [...], "data": [flat row-major]}. A second, smaller case is under "cases".
"""
import json
import math
import os

import torch

torch.set_default_dtype(torch.float64)
EPS, NEG = 1e-5, -1e9


def init_params(V, D, F, L):
    """Seeded init: matrices/embedding ~ N(0, 0.5); gains 1 + N(0, 0.1); biases N(0, 0.1)."""
    mat = lambda *s: torch.randn(*s) * 0.5
    gain = lambda n: 1 + torch.randn(n) * 0.1
    bias = lambda n: torch.randn(n) * 0.1
    p = {"embedding": mat(V, D)}
    for l in range(L):
        e = f"encoder.{l}."
        for w in ("w_q", "w_k", "w_v", "w_o"):
            p[e + "attention." + w] = mat(D, D)
        p[e + "norm1.gain"], p[e + "norm1.bias"] = gain(D), bias(D)
        p[e + "ffn.w1"], p[e + "ffn.b1"] = mat(D, F), bias(F)
        p[e + "ffn.w2"], p[e + "ffn.b2"] = mat(F, D), bias(D)
        p[e + "norm2.gain"], p[e + "norm2.bias"] = gain(D), bias(D)
    p["head.w_q"], p["head.w_k"] = mat(D, D), mat(D, D)
    return {k: v.requires_grad_() for k, v in p.items()}


def layer_norm(x, g, b):
    """LN(x) = g * (x - mean) / sqrt(var + eps) + b over the last axis, biased variance."""
    mu = x.mean(-1, keepdim=True)
    var = ((x - mu) ** 2).mean(-1, keepdim=True)
    return g * (x - mu) / torch.sqrt(var + EPS) + b


def forward(p, ids, lengths, pron, ante, H, L):
    B, T = ids.shape
    D = p["embedding"].shape[1]
    dh = D // H
    # Embedding (scaled by sqrt(D)) + sinusoidal positional encoding (also at padding).
    t = torch.arange(T, dtype=torch.float64)[:, None]
    i2 = torch.arange(0, D, 2, dtype=torch.float64)  # the "2i" values
    ang = t / torch.pow(10000.0, i2 / D)              # (T, D/2)
    pe = torch.zeros(T, D)
    pe[:, 0::2], pe[:, 1::2] = torch.sin(ang), torch.cos(ang)
    X = p["embedding"][ids] * math.sqrt(D) + pe
    embedded = X
    # Key padding mask M[b, j]: 0 for real keys, -1e9 for padding; broadcast to (B,1,1,T).
    real = torch.arange(T)[None, :] < lengths[:, None]  # (B, T) bool
    M = torch.where(real, 0.0, NEG)
    attns = []
    for l in range(L):
        e = f"encoder.{l}."
        # Multi-head projections; head h owns feature columns [h*dh, (h+1)*dh).
        split = lambda Y: Y.view(B, T, H, dh).transpose(1, 2)  # (B,H,T,dh)
        Q = split(X @ p[e + "attention.w_q"])
        K = split(X @ p[e + "attention.w_k"])
        Vv = split(X @ p[e + "attention.w_v"])
        # Scaled dot-product attention: softmax(Q K^T / sqrt(dh) + M) V.
        S = Q @ K.transpose(-1, -2) / math.sqrt(dh) + M[:, None, None, :]
        A = torch.softmax(S, dim=-1)  # (B,H,T,T)
        attns.append(A)
        Z = (A @ Vv).transpose(1, 2).reshape(B, T, D)  # concat heads in head order
        O = Z @ p[e + "attention.w_o"]
        # Add & norm, position-wise feed-forward, add & norm.
        Y = layer_norm(X + O, p[e + "norm1.gain"], p[e + "norm1.bias"])
        Fo = torch.relu(Y @ p[e + "ffn.w1"] + p[e + "ffn.b1"]) @ p[e + "ffn.w2"] + p[e + "ffn.b2"]
        X = layer_norm(Y + Fo, p[e + "norm2.gain"], p[e + "norm2.bias"])
    # Resolution head: bilinear score of pronoun query vs every candidate key.
    bidx = torch.arange(B)
    q = X[bidx, pron] @ p["head.w_q"]          # (B, D)
    k = X @ p["head.w_k"]                      # (B, T, D)
    s = (k @ q[:, :, None]).squeeze(-1) / math.sqrt(D)  # (B, T)
    cand = real & (torch.arange(T)[None, :] != pron[:, None])
    s = s + torch.where(cand, 0.0, NEG)
    logp = torch.log_softmax(s, dim=-1)
    loss = -logp[bidx, ante].mean()
    out = dict(embedded=embedded, attention=torch.stack(attns), encoded=X,
               head_probs=torch.softmax(s, dim=-1), loss=loss)
    return out, real, cand


def tensor_json(x):
    x = x.detach()
    return {"shape": list(x.shape), "data": x.reshape(-1).tolist()}


def run_case(seed, V, D, H, F, L, lengths, pron, ante):
    torch.manual_seed(seed)
    B, T = len(lengths), max(lengths)
    p = init_params(V, D, F, L)
    lengths, pron, ante = (torch.tensor(v) for v in (lengths, pron, ante))
    ids = torch.randint(2, V, (B, T))
    ids[torch.arange(T)[None, :] >= lengths[:, None]] = 0  # padding token id 0
    out, real, cand = forward(p, ids, lengths, pron, ante, H, L)
    out["loss"].backward()
    # Sanity checks.
    A, hp = out["attention"].detach(), out["head_probs"].detach()
    assert torch.allclose(A.sum(-1), torch.ones(()), atol=1e-12)
    assert (A.masked_select(~real[None, :, None, None, :].expand_as(A)) == 0).all()
    assert (hp[~cand] == 0).all() and torch.allclose(hp.sum(-1), torch.ones(()), atol=1e-12)
    assert math.isfinite(out["loss"].item())
    assert all(torch.isfinite(v.grad).all() for v in p.values())
    return {
        "config": {"vocab_size": V, "d_model": D, "heads": H, "d_ff": F, "layers": L,
                   "max_len": T, "dtype": "float64"},
        "layer_norm_eps": EPS,
        "inputs": {"ids": ids.tolist(), "lengths": lengths.tolist(),
                   "pronoun": pron.tolist(), "antecedent": ante.tolist()},
        "params": {k: tensor_json(v) for k, v in p.items()},
        "outputs": {k: (v.item() if k == "loss" else tensor_json(v)) for k, v in out.items()},
        "grads": {k: tensor_json(v.grad) for k, v in p.items()},
    }


if __name__ == "__main__":
    ref = run_case(seed=0, V=13, D=8, H=2, F=12, L=2, lengths=[7, 5, 3],
                   pron=[6, 2, 1], ante=[1, 4, 0])
    ref["cases"] = {"small": run_case(seed=1, V=7, D=4, H=2, F=6, L=1, lengths=[4, 3],
                                      pron=[3, 0], ante=[0, 2])}
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "reference.json")
    with open(path, "w") as f:
        json.dump(ref, f, separators=(",", ":"))
        f.write("\n")
    print(f"wrote {path}: loss={ref['outputs']['loss']!r} "
          f"small loss={ref['cases']['small']['outputs']['loss']!r}")
