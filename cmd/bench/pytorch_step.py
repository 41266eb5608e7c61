"""The default config's training step in PyTorch on the CPU, for the side-by-side in cmd/bench.

Same architecture, sizes and batch as the Go model (model/, configs/default.json, whose values
--input carries): embedding * sqrt(d_model) + sinusoidal positions, post-norm encoder layers
(default: 3 of d_model 32, 2 heads, d_ff 64, ReLU), the resolution head (q from the pronoun's
vector, k from every word's, scaled, masked, log-softmax), cross-entropy plus attention
supervision (lambda * -log A[last layer, head 0][pronoun, antecedent]), both spread evenly over
the two candidates in rows whose deciding word was hidden ("other" >= 0), and Adam (the config's
learning rate, betas 0.9/0.98, eps 1e-9) after decoupled weight decay of the weights the spec's
"decay" names (train.embedding_decay: the token embedding), as train/adam.go. Matrices are stored
(in, out) so a linear layer is x @ W, as in model/testdata/reference.py, whose forward pass this
follows; layer norm is F.layer_norm (eps 1e-5, biased variance), the same function.

A step is: forward, loss, backward, weight decay and optimizer.step(), zero_grad(set_to_none=False)
and loss.item().

cmd/bench starts this script with the Go model's initial weights and its real training batches
(32 sentences, each batch padded to its longest sentence) in a JSON file, then talks to it over stdin/stdout so that
the Go and PyTorch steps are measured in alternating blocks in one run:

    -> {"cmd": "check"}        <- {"loss": ..., "attention_loss": ...} on batch 0, before any step
    -> {"cmd": "steps", "n": N} <- {"seconds": [...]} N steps, each timed
    -> {"cmd": "quit"}

Run it alone to time it without Go (it then makes random batches of the same shapes):

    /usr/bin/python3 cmd/bench/pytorch_step.py --threads 2 --dtype float64 --steps 300

It needs Debian's python3-torch and python3-numpy, with OpenBLAS:
apt-get install -y python3-torch python3-numpy libopenblas0
"""
import time

STARTED = time.perf_counter()  # the --train report counts from here, torch's import included

import argparse
import json
import math
import sys

import torch
import torch.nn.functional as F

NEG, EPS = -1e9, 1e-5


def positional_encoding(T, D, dtype):
    t = torch.arange(T, dtype=torch.float64)[:, None]
    i2 = torch.arange(0, D, 2, dtype=torch.float64)
    ang = t / torch.pow(10000.0, i2 / D)
    pe = torch.zeros(T, D, dtype=torch.float64)
    pe[:, 0::2], pe[:, 1::2] = torch.sin(ang), torch.cos(ang)
    return pe.to(dtype)


class Model:
    def __init__(self, params, cfg, T, dtype):
        self.p = {k: torch.tensor(v["data"], dtype=dtype).reshape(v["shape"]).requires_grad_()
                  for k, v in params.items()}
        self.D, self.H, self.L = cfg["d_model"], cfg["heads"], cfg["layers"]
        self.pe = positional_encoding(T, self.D, dtype)
        self.dtype = dtype

    def loss(self, ids, lengths, pron, ante, other, lam):
        s, supervised = self.scores(ids, lengths, pron)
        bidx = torch.arange(ids.shape[0])
        loss = nll(torch.log_softmax(s, dim=-1), ante, other)
        att = nll(torch.log_softmax(supervised[bidx, pron], dim=-1), ante, other)
        return loss + lam * att, loss, att

    def scores(self, ids, lengths, pron):
        """The resolution head's masked scores (B, T), and the supervised head's (B, T, T)."""
        p, D, H = self.p, self.D, self.H
        B, T = ids.shape
        dh = D // H
        X = p["embedding"][ids] * math.sqrt(D) + self.pe[:T]
        real = torch.arange(T)[None, :] < lengths[:, None]
        M = torch.where(real, 0.0, NEG).to(self.dtype)[:, None, None, :]
        supervised = None
        for l in range(self.L):
            e = f"encoder.{l}."
            split = lambda Y: Y.view(B, T, H, dh).transpose(1, 2)
            Q = split(X @ p[e + "attention.w_q"])
            K = split(X @ p[e + "attention.w_k"])
            V = split(X @ p[e + "attention.w_v"])
            S = Q @ K.transpose(-1, -2) / math.sqrt(dh) + M
            A = torch.softmax(S, dim=-1)
            if l == self.L - 1:
                supervised = S[:, 0]  # (B, T, T): the supervised head's masked, scaled scores
            Z = (A @ V).transpose(1, 2).reshape(B, T, D)
            Y = F.layer_norm(X + Z @ p[e + "attention.w_o"], (D,), p[e + "norm1.gain"], p[e + "norm1.bias"], EPS)
            Fo = torch.relu(Y @ p[e + "ffn.w1"] + p[e + "ffn.b1"]) @ p[e + "ffn.w2"] + p[e + "ffn.b2"]
            X = F.layer_norm(Y + Fo, (D,), p[e + "norm2.gain"], p[e + "norm2.bias"], EPS)
        bidx = torch.arange(B)
        q = X[bidx, pron] @ p["head.w_q"]
        k = X @ p["head.w_k"]
        s = (k @ q[:, :, None]).squeeze(-1) / math.sqrt(D)
        cand = real & (torch.arange(T)[None, :] != pron[:, None])
        return s + torch.where(cand, 0.0, NEG).to(self.dtype), supervised


def nll(logp, ante, other):
    """Mean negative log-likelihood of the antecedent; a row whose deciding word
    was hidden (other >= 0) spreads its target evenly over ante and other."""
    bidx = torch.arange(logp.shape[0])
    one = logp[bidx, ante]
    spread = 0.5 * (one + logp[bidx, other.clamp(min=0)])
    return -torch.where(other >= 0, spread, one).mean()


def load(args):
    dtype = {"float64": torch.float64, "float32": torch.float32}[args.dtype]
    if args.input:
        with open(args.input) as f:
            spec = json.load(f)
    else:  # standalone: default sizes, random weights and batches of the same shapes
        spec = random_spec(torch.Generator().manual_seed(1))
    cfg, tr = spec["config"], spec["train"]
    T = spec["seq_len"]
    model = Model(spec["params"], cfg, T, dtype)
    batches = [tuple(torch.tensor(b[k]) for k in ("ids", "lengths", "pronoun", "antecedent", "other"))
               for b in spec["batches"]]
    # Each batch is padded to its own longest sentence, as the Go side runs it; T is the longest of all.
    batches = [(ids.reshape(len(n), -1), n, p, a, o) for ids, n, p, a, o in batches]
    opt = torch.optim.Adam(list(model.p.values()), lr=tr["learning_rate"],
                           betas=(tr["beta1"], tr["beta2"]), eps=tr["adam_eps"])
    decay = [(model.p[name], rate) for name, rate in spec.get("decay", {}).items()]
    return model, batches, Optimiser(opt, decay), tr["attention_supervision"], spec


class Optimiser:
    """Adam with decoupled weight decay (AdamW) on the weights given a rate, as train/adam.go:
    w <- w - lr * rate * w with the step's learning rate (warm-up included), then the Adam step.
    torch.optim.AdamW does the same (param.mul_(1 - lr * weight_decay) before the Adam step);
    written out, the decay touches only the decayed weights, as in Go, and rounds as adam.go."""

    def __init__(self, adam, decay):
        self.adam, self.decay = adam, decay

    def set_lr(self, lr):
        for g in self.adam.param_groups:
            g["lr"] = lr

    def zero_grad(self, set_to_none):
        self.adam.zero_grad(set_to_none=set_to_none)

    def step(self):
        lr = self.adam.param_groups[0]["lr"]
        with torch.no_grad():
            for w, rate in self.decay:
                w.sub_(w * (lr * rate))
        self.adam.step()


def random_spec(g, V=315, D=32, H=2, FF=64, L=3, B=32, T=24):
    shapes = {"embedding": (V, D), "head.w_q": (D, D), "head.w_k": (D, D)}
    for l in range(L):
        e = f"encoder.{l}."
        shapes.update({e + "attention.w_q": (D, D), e + "attention.w_k": (D, D),
                       e + "attention.w_v": (D, D), e + "attention.w_o": (D, D),
                       e + "norm1.gain": (D,), e + "norm1.bias": (D,), e + "ffn.w1": (D, FF),
                       e + "ffn.b1": (FF,), e + "ffn.w2": (FF, D), e + "ffn.b2": (D,),
                       e + "norm2.gain": (D,), e + "norm2.bias": (D,)})
    params = {k: {"shape": list(s), "data": (torch.randn(*s, generator=g) / math.sqrt(s[0])).reshape(-1).tolist()}
              for k, s in shapes.items()}
    batches = []
    for _ in range(16):
        lengths = torch.randint(9, T + 1, (B,), generator=g)
        ids = torch.randint(2, V, (B, T), generator=g)
        ids[torch.arange(T)[None, :] >= lengths[:, None]] = 0
        pron = torch.stack([torch.randint(2, int(n), (1,), generator=g)[0] for n in lengths])
        ante = torch.stack([torch.randint(0, int(p), (1,), generator=g)[0] for p in pron])
        batches.append({"ids": ids.reshape(-1).tolist(), "lengths": lengths.tolist(),
                        "pronoun": pron.tolist(), "antecedent": ante.tolist(), "other": [-1] * B})
    return {"config": {"d_model": D, "heads": H, "layers": L}, "seq_len": T, "params": params,
            "batches": batches, "train": {"learning_rate": 0.002, "beta1": 0.9, "beta2": 0.98,
                                          "adam_eps": 1e-9, "attention_supervision": 1.0}}


def steps(model, batches, opt, lam, n, start):
    times = []
    for i in range(n):
        ids, lengths, pron, ante, other = batches[(start + i) % len(batches)]
        t0 = time.perf_counter()
        total, _, _ = model.loss(ids, lengths, pron, ante, other, lam)
        opt.zero_grad(set_to_none=False)
        total.backward()
        opt.step()
        total.item()
        times.append(time.perf_counter() - t0)
    return times


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--threads", type=int, default=2, help="torch.set_num_threads (default 2)")
    ap.add_argument("--dtype", default="float64", choices=["float64", "float32"])
    ap.add_argument("--input", help="JSON with the Go model's weights and batches (from cmd/bench)")
    ap.add_argument("--serve", action="store_true", help="take commands on stdin (cmd/bench)")
    ap.add_argument("--steps", type=int, default=300, help="standalone: steps to time")
    ap.add_argument("--train", type=float, metavar="ACCURACY",
                    help="train on the spec's epochs until validation accuracy reaches ACCURACY (cmd/bench)")
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    torch.set_num_interop_threads(1)
    torch.manual_seed(1)
    model, batches, opt, lam, spec = load(args)
    done = 0
    hello = {"torch": torch.__version__, "threads": torch.get_num_threads(), "dtype": args.dtype,
             "blas": blas_name()}
    if args.train:
        print(json.dumps(hello), flush=True)
        train_to_accuracy(model, spec, opt, lam, args.train)
        return
    if not args.serve:
        steps(model, batches, opt, lam, 20, 0)  # warm-up
        t = sorted(steps(model, batches, opt, lam, args.steps, 20))
        print(json.dumps(dict(hello, median_ms=1e3 * t[len(t) // 2], steps=args.steps)))
        return
    print(json.dumps(hello), flush=True)
    for line in sys.stdin:
        cmd = json.loads(line)
        if cmd["cmd"] == "quit":
            break
        if cmd["cmd"] == "check":
            ids, lengths, pron, ante, other = batches[0]
            with torch.no_grad():
                total, loss, att = model.loss(ids, lengths, pron, ante, other, lam)
            print(json.dumps({"objective": total.item(), "loss": loss.item(), "attention_loss": att.item()}), flush=True)
        elif cmd["cmd"] == "steps":
            t = steps(model, batches, opt, lam, cmd["n"], done)
            done += cmd["n"]
            print(json.dumps({"seconds": t}), flush=True)


def as_batch(b):
    """A spec batch as tensors, ids (B, T) with T its own longest sentence."""
    ids, n, p, a, o = (torch.tensor(b[k]) for k in ("ids", "lengths", "pronoun", "antecedent", "other"))
    return ids.reshape(len(n), -1), n, p, a, o


def train_to_accuracy(model, spec, opt, lam, target):
    """Train on spec["epochs"] (the Go run's batches, epoch by epoch, noun dropout applied) with the Go run's learning
    rate schedule (linear warm-up, then constant), and after every epoch print the validation
    accuracy and the seconds since this script started; stop at target."""
    tr = spec["train"]
    lr, warmup = tr["learning_rate"], int(tr["warmup_steps"])
    val = [(as_batch(b), b["real"][0]) for b in spec["validation"]]
    step = 0
    for epoch, batches in enumerate(spec["epochs"], 1):
        for b in batches:
            opt.set_lr(lr * (step + 1) / warmup if step < warmup else lr)
            total, _, _ = model.loss(*as_batch(b), lam)
            opt.zero_grad(set_to_none=False)
            total.backward()
            opt.step()
            step += 1
        acc = accuracy(model, val)
        print(json.dumps({"epoch": epoch, "seconds": time.perf_counter() - STARTED, "validation_accuracy": acc}), flush=True)
        if acc >= target:
            break


def accuracy(model, val):
    """Share of real rows whose highest-scoring word is the antecedent (train/evaluate.go)."""
    right = total = 0
    with torch.no_grad():
        for (ids, n, p, a, _), real in val:
            s, _ = model.scores(ids, n, p)
            right += int((s.argmax(dim=-1)[:real] == a[:real]).sum())
            total += real
    return right / max(total, 1)


def blas_name():
    """Which BLAS PyTorch runs on: the library libblas.so.3 resolved to in this process (Debian's
    alternatives), threadpoolctl's report when it is installed, and the build's BLAS_INFO from
    torch.__config__.show() ("generic" on Debian: whatever libblas.so.3 is)."""
    parts = [loaded_blas()]
    try:
        import threadpoolctl
        for d in threadpoolctl.threadpool_info():
            if d.get("user_api") == "blas":
                parts.append("threadpoolctl: %s %s, %s threads" % (d.get("internal_api"), d.get("version"), d.get("num_threads")))
    except ImportError:
        pass
    for item in torch.__config__.show().replace(",", "\n").split("\n"):
        if "BLAS_INFO" in item and "LAPACK" not in item:
            parts.append("build " + item[item.index("BLAS_INFO"):].strip())
    return "; ".join(parts)


def loaded_blas():
    try:
        with open("/proc/self/maps") as f:
            libs = {l.split()[-1] for l in f if ".so" in l}
        for name in ("openblas", "blis", "mkl", "libblas.so"):
            hit = sorted(l for l in libs if name in l)
            if hit:
                return hit[0]
    except OSError:
        pass
    return "unknown"


if __name__ == "__main__":
    main()
