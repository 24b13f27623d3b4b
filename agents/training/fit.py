"""Offline fitting with a gate: a network trained on a distillation dataset, judged on games it
never saw.

``fit(dataset, config)`` holds out whole games, trains an ``AZNet`` on the teacher's values and
visits (AdamW, a cosine schedule, early stopping on the held-out value error) and reports the
gate: by phase of the game, the network's held-out errors next to the teacher's own, and its
policy against the teacher's visits. ``save_model`` writes the weights as a file ``az:<file>``
and ``savanna train az --init`` read. The workflow: the AlphaZero guide; on Nim:
``tests/agents/test_distill.py``.
"""
import math
import time
from typing import NamedTuple

import numpy as np
import torch

from savanna.agents.models.az_checkpoint import load_checkpoint, network_contents, save_checkpoint
from savanna.agents.models.az_config import AZConfig
from savanna.agents.models.features import active_features
from savanna.agents.models.networks import AZNet
from savanna.agents.training.alphazero import az_loss
from savanna.agents.training.distill_config import teacher_settings
from savanna.agents.training.distill_dataset import Dataset
from savanna.agents.training.fit_config import FitConfig
from savanna.agents.training.targets import margins, prune_visits
from savanna.errors import clip

__all__ = ["FitConfig", "FitResult", "PHASES", "fit", "save_model"]

PHASES = ((0, 10), (10, 20), (20, 40), (40, 80), (80, 1 << 30))  # decision numbers


class FitResult(NamedTuple):
    net: torch.nn.Module
    game: object
    config: FitConfig
    data_config: dict
    report: dict        # the gate (see the module docstring)
    curve: list         # one dict per evaluation: step, seconds, train and held-out losses


class Batches:
    """Network inputs and targets for rows of a dataset, computed from its states."""

    def __init__(self, data: Dataset, outcome_weight, prune_policy=False):
        self.data = data
        self.game = data.game
        self.values = data.value_targets(outcome_weight)
        self.outcomes = data.outcomes().astype(np.float32)
        self.teacher_values = data.relative(data.root_value).astype(np.float32)
        self.margins = data.relative(margins(data.game_scores)[data.episode])
        self.prune = None
        if prune_policy:
            _, c, _, determinizations = teacher_settings(data.config.teacher)
            self.prune = (c, determinizations or 1)

    def inputs(self, rows):
        """``(obs uint8[n, O], mask bool[n, A], policy target float32[n, A])``."""
        d, game = self.data, self.game
        states, api = d.state[rows], game.unchecked  # checked once, when the dataset was read
        obs = api.observe(states, d.player[rows].astype(np.int64)).reshape(len(rows), -1)
        return obs, api.legal_mask(states), visit_policy(d, rows, game.num_actions, self.prune)


def visit_policy(data, rows, num_actions, prune=None):
    """float32[len(rows), A]: the teacher's visit distribution at each row; ``prune = (c,
    trees)``: of its visits pruned (``savanna.agents.training.targets.prune_visits``)."""
    lo, hi = data.child_start[rows], data.child_start[rows + 1]
    count = hi - lo
    owner = np.repeat(np.arange(len(rows)), count)
    flat = np.repeat(lo - np.cumsum(count) + count, count) + np.arange(count.sum())
    visits = data.child_visits[flat].astype(np.float32)
    if prune is not None:
        visits = prune_visits(visits, data.child_q[flat], owner, *prune).astype(np.float32)
    totals = np.bincount(owner, visits, len(rows))
    out = np.zeros((len(rows), num_actions), np.float32)
    out[owner, data.child_action[flat]] = visits / np.maximum(totals[owner], 1)
    return out


def split_games(data, share, rng):
    """``(train rows, held-out rows)``: whole games held out."""
    games = np.unique(data.episode)
    held = rng.choice(games, max(1, int(round(share * len(games)))), replace=False)
    is_held = np.isin(data.episode, held)
    return np.flatnonzero(~is_held), np.flatnonzero(is_held)


def fit(data: Dataset, config: FitConfig, progress=True, write=print) -> FitResult:
    """Trains a network on ``data`` (see the module docstring)."""
    from tqdm.auto import tqdm

    cfg = config
    torch.set_num_threads(cfg.threads)
    torch.manual_seed(cfg.seed)
    rng = np.random.default_rng(cfg.seed)
    batches = Batches(data, cfg.outcome_weight, cfg.prune_policy)
    game = batches.game
    train, held = split_games(data, cfg.held_out, rng)
    if len(train) < cfg.batch_size:
        raise ValueError(f"the dataset has {len(train)} training positions, fewer than one "
                         f"batch of {cfg.batch_size}")
    if cfg.score_weight > 0 and not np.any(data.game_scores):
        raise ValueError(f"score_weight needs final scores, and the dataset of {game.name} "
                         "holds none (its game declares no scores); give score_weight=0")
    held_inputs = [batches.inputs(rows) for rows in np.array_split(
        held, max(1, len(held) // 8192))]
    net = AZNet.for_game(game, cfg.hidden)
    if cfg.init:
        net.load_state_dict(start_weights(cfg, game))
    model = ScoreHead(net, game.num_players) if cfg.score_weight > 0 else net
    optimizer = torch.optim.AdamW(model.parameters(), lr=cfg.lr, weight_decay=cfg.weight_decay)
    schedule = torch.optim.lr_scheduler.LambdaLR(
        optimizer, lambda step: 0.05 + 0.95 * 0.5 * (1 + math.cos(math.pi * min(
            step / cfg.steps, 1.0))))
    best, best_state, stale, curve = np.inf, None, 0, []
    started, sums = time.perf_counter(), {}
    bar = tqdm(total=cfg.steps, unit="step", desc=f"fit {game.name}", disable=not progress)
    with bar:
        for step in range(1, cfg.steps + 1):
            rows = rng.choice(train, cfg.batch_size)
            obs, mask, policy = batches.inputs(rows)
            model.train()
            loss, stats = az_loss(model, obs, mask, policy, batches.values[rows], 1.0,
                                  cfg.policy_weight)
            if model is not net:
                score_loss = model.loss(batches.margins[rows])
                loss = loss + cfg.score_weight * score_loss
                stats["score_loss"] = score_loss.item()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            schedule.step()
            bar.update()
            for key, value in stats.items():
                sums[key] = sums.get(key, 0.0) + value
            out_of_time = time.perf_counter() - started > 60 * cfg.minutes
            if step % cfg.eval_every and step < cfg.steps and not out_of_time:
                continue
            heldout = evaluate_value(net, batches, held, held_inputs)
            row = {"step": step, "seconds": round(time.perf_counter() - started, 1),
                   **{f"train_{k}": v / cfg.eval_every for k, v in sums.items()},
                   "heldout_value_mse": heldout}
            if model is not net:
                row["heldout_score_mse"] = model.error(held_inputs, batches.margins[held])
            sums = {}
            curve.append(row)
            bar.set_postfix(heldout=f"{heldout:.4f}")
            if heldout < best - 1e-5:
                best, stale = heldout, 0
                best_state = {k: v.detach().clone() for k, v in net.state_dict().items()}
            else:
                stale += 1
            if stale >= cfg.patience or out_of_time:
                break
    net.load_state_dict(best_state)
    net.eval()
    report = gate_report(net, batches, held, held_inputs)
    if model is not net:
        report["score_mse"] = model.error(held_inputs, batches.margins[held])
        report["score_variance"] = float(batches.margins[held].var())
    report.update(train_positions=int(len(train)), heldout_positions=int(len(held)),
                  steps=curve[-1]["step"], seconds=curve[-1]["seconds"])
    return FitResult(net, game, cfg, data.config.to_dict(), report, curve)


def start_weights(config, game):
    """The float32 weights of ``config.init``, checked to fit ``config.hidden``."""
    data = load_checkpoint(config.init, game)
    hidden = tuple(data["config"]["hidden"])
    if hidden != config.hidden:
        raise ValueError(f"{clip(config.init)} holds a network of hidden widths {hidden}, the "
                         f"fit's are {config.hidden}: give --hidden "
                         f"{','.join(map(str, hidden))}")
    return {k: v.float() for k, v in data["model"].items()}


class ScoreHead(torch.nn.Module):
    """``net`` with an auxiliary head on its trunk that predicts every seat's final score
    margin (relative seats; ``savanna.agents.training.targets.margins``), as KataGo and Suphx
    predict final results: one more signal per position in games where the outcome alone says
    little. It plays ``net``'s part in ``az_loss`` (``encode``, ``policy``, ``value``) and keeps the
    trunk's output for ``loss``; only ``net`` is saved."""

    def __init__(self, net, num_players):
        super().__init__()
        self.net, self.policy, self.value = net, net.policy, net.value
        self.head = torch.nn.Linear(net.value.in_features, num_players)
        self.hidden = None

    def encode(self, features):
        self.hidden = self.net.encode(features)
        return self.hidden

    def loss(self, margins):
        """The squared error of the head on the last ``encode``'s positions (mean over seats)."""
        return ((self.head(self.hidden) - torch.from_numpy(margins)) ** 2).mean()

    @torch.no_grad()
    def error(self, inputs, margins):
        """``loss`` over held-out input chunks, as a float."""
        self.eval()
        out = [self.head(self.encode(torch.from_numpy(active_features(obs)))).numpy()
               for obs, _, _ in inputs]
        return float(((np.concatenate(out) - margins) ** 2).mean())


@torch.no_grad()
def predict(net, inputs):
    """``(log-probabilities [n, A] with -inf at illegal actions, values [n, P])`` of held-out
    input chunks, concatenated."""
    logps, values = [], []
    for obs, mask, _ in inputs:
        logits, value = net.from_features(torch.from_numpy(active_features(obs)))
        logits = logits.masked_fill(~torch.from_numpy(mask), -math.inf)
        logps.append(torch.log_softmax(logits, dim=1).numpy())
        values.append(value.numpy())
    return np.concatenate(logps), np.concatenate(values)


def evaluate_value(net, batches, rows, inputs):
    """The mean over seats of the held-out squared error of the value against its target."""
    net.eval()
    _, values = predict(net, inputs)
    return float(((values - batches.values[rows]) ** 2).mean())


def gate_report(net, batches, rows, inputs):
    """The gate (see the module docstring): overall and by phase."""
    logp, values = predict(net, inputs)
    mask = np.concatenate([m for _, m, _ in inputs])
    policy = np.concatenate([p for _, _, p in inputs])
    legal = mask.sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        plogp = np.where(policy > 0, policy * np.log(policy), 0.0).sum(axis=1)
        kl_net = plogp - np.where(policy > 0, policy * logp, 0.0).sum(axis=1)
    kl_uniform = plogp + np.log(legal)
    agree = logp.argmax(axis=1) == policy.argmax(axis=1)
    target, outcome = batches.values[rows], batches.outcomes[rows]
    teacher = batches.teacher_values[rows]
    decision = batches.data.decision[rows]

    def summary(sel):
        return {"positions": int(sel.sum()),
                "value_mse_vs_target": _mse(values[sel], target[sel]),
                "value_mse_vs_outcome": _mse(values[sel], outcome[sel]),
                "teacher_mse_vs_outcome": _mse(teacher[sel], outcome[sel]),
                "value_corr_with_teacher": _corr(values[sel, 0], teacher[sel, 0]),
                "policy_kl": float(kl_net[sel].mean()),
                "uniform_kl": float(kl_uniform[sel].mean()),
                "teacher_move_agreement": float(agree[sel].mean())}

    phases = {}
    for lo, hi in PHASES:
        sel = (decision >= lo) & (decision < hi)
        if sel.any():
            phases[f"{lo}-{hi - 1}" if hi < 1 << 30 else f"{lo}+"] = summary(sel)
    return {"all": summary(np.ones(len(rows), bool)), "phases": phases}


def _mse(a, b):
    return float(((a - b) ** 2).mean())


def _corr(a, b):
    return float(np.corrcoef(a, b)[0, 1]) if a.std() > 0 and b.std() > 0 else float("nan")


def report_text(report):
    """The gate as a Markdown table."""
    columns = ("positions", "value_mse_vs_target", "value_mse_vs_outcome",
               "teacher_mse_vs_outcome", "value_corr_with_teacher", "policy_kl", "uniform_kl",
               "teacher_move_agreement")
    lines = ["| decisions | " + " | ".join(c.replace("_", " ") for c in columns) + " |",
             "|---" * (len(columns) + 1) + "|"]
    for name, row in [("all", report["all"]), *report["phases"].items()]:
        lines.append(f"| {name} | " + " | ".join(
            f"{row[c]:,}" if c == "positions" else f"{row[c]:.3f}" for c in columns) + " |")
    return "\n".join(lines)


def save_model(result: FitResult, path, half=True):
    """The fitted network as a weight-only AlphaZero checkpoint (``az:<path>`` plays it; ``half``
    stores the weights in float16, halving the file; they load back as float32)."""
    data_cfg = result.data_config
    config = AZConfig(game=data_cfg["game"], game_options=data_cfg["game_options"],
                      hidden=result.config.hidden, gumbel_scale=0.0,
                      rollout_weight=result.config.rollout_weight,
                      determinizations=result.config.determinizations,
                      expect_chance=result.config.expect_chance)
    model = {k: (v.half() if half and v.is_floating_point() else v)
             for k, v in result.net.state_dict().items()}
    save_checkpoint(network_contents(result.game, config, model, extra={
        "fit": result.config.to_dict(), "data": data_cfg, "report": result.report}), path)
