"""Texel tuning of a variant document's evaluation: a linear feature model fitted to game results.

The evaluation (`hordes.engine.evaluate.Evaluator`) is, per position and from White's view,

    taper(T_mg, T_eg) + taper(X_mg, X_eg) + R

where T is the piece-square sum (material and every table term), X the per-node extras (royal
shelter and danger, ..., mop-up), R what is left (tempo, campmate threat) and `taper` blends
middlegame and endgame by the phase (the middlegame material on the board). T, R and X without
mop-up are linear in the tuned
numbers, apart from the rounding of mobility terms to whole units. So each position is reduced once
to its base components and their derivatives, one column per parameter: piece values analytically
(White's minus Black's count of the kind), every evaluation weight by a finite difference of the
Evaluator itself (so terms added to `PAIR_TERMS` / `SCALAR_TERMS` later are tuned without code
here). The phase is the one non-linear part — piece values decide both a position's phase and the
phase bounds — and is computed exactly from the piece counts. Mop-up and the siege are the other:
they apply only for the side whose lead (T_eg, so the piece values) reaches `mop_up_margin`. Each
position keeps their ungated counts for either side as ahead (`Evaluator.mop_up_parts`), and the
model gates them by its own T_eg, as the Evaluator does (the Jacobian holds the gate fixed). The model
reproduces the Evaluator exactly at the document's numbers; elsewhere within the rounding of
mobility terms (half a unit per piece). `hordes tune` measures that against the tuned document's own
Evaluator. A weight whose slope changes between one and two finite-difference steps (a threshold) is
marked non-linear and left as it is, as is `mop_up_margin` while mop-up is on.

The fit: K of the sigmoid first (golden-section search on the document's numbers), then
Levenberg-Marquardt on the mean squared error between result and sigmoid(K * eval).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from hordes.core.position import Board
from hordes.core.rules import Variant
from hordes.engine import eval_params as evmod
from hordes.engine.evaluate import Evaluator, pack, unpack
from hordes.errors import HordesError

Array = npt.NDArray[np.float64]
STEP = 1000  # finite-difference step of the weights: mobility rounding errors shrink to ~1/1000
LIMIT = 100000  # every number of a document lies within ±100000
MIN_SUPPORT = 20  # a parameter that changes fewer positions' scores than this is not tuned
COMPONENTS = 5  # T_mg, T_eg, X_mg, X_eg, R
NONLINEAR_TOLERANCE = 0.05  # slope difference allowed for rounding (half a unit per piece / STEP)


# ----- parameters ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Param:
    """One tunable number: a piece value part (`N.mg`), a weight part (`centre.eg`) or a scalar."""

    kind: str  # "value", "pair" or "scalar"
    key: str  # piece letter or evaluation term
    part: int  # 0 middlegame, 1 endgame (scalars: 0)

    @property
    def name(self) -> str:
        if self.kind == "scalar":
            return self.key
        return f"{self.key}.{'mg' if self.part == 0 else 'eg'}"


def all_params(variant: Variant) -> list[Param]:
    """Every tunable number of a variant: the values of its non-royal pieces, then the weights the
    evaluation module exposes (read at run time, so new terms are included)."""
    out = [Param("value", p.letter, part) for p in variant.pieces if not p.royal for part in (0, 1)]
    out += [Param("pair", term, part) for term in evmod.PAIR_TERMS for part in (0, 1)]
    out += [Param("scalar", term, 0) for term in evmod.SCALAR_TERMS]
    return out


def select_params(variant: Variant, spec: str | None) -> list[Param]:
    """`--params`: comma-separated `all`, `values`, `weights`, piece letters (`Q` = both values),
    terms (`centre` = both parts), or single numbers (`Q.mg`, `centre.eg`, `tempo`)."""
    every = all_params(variant)
    if spec is None or not spec.strip():
        spec = "all"
    chosen: set[Param] = set()
    letters = {p.letter for p in variant.pieces}
    for raw in spec.split(","):
        token = raw.strip()
        if not token:
            continue
        if token == "all":  # the values and every weight that is linear in them
            found = [p for p in every if p.key not in evmod.MATERIAL_GATED]
        elif token == "values":
            found = [p for p in every if p.kind == "value"]
        elif token in ("weights", "evaluation"):
            found = [p for p in every if p.kind != "value"]
        elif token == "plan":
            found = [p for p in every if p.key in evmod.PLAN_TERMS]
        else:
            found = [p for p in every if token in (p.key, p.name)]
            if not found and token in letters:
                raise HordesError(f"--params: {token} is a royal piece; its value is not tuned")
        if not found:
            known = ", ".join(["all", "values", "weights", "plan", *dict.fromkeys(p.key for p in every)])
            raise HordesError(f"--params: unknown parameter {token!r} (known: {known}; or e.g. N.mg)")
        chosen.update(found)
    gated = sorted({p.key for p in chosen if p.key in evmod.MATERIAL_GATED})
    if gated and any(p.kind == "value" for p in chosen):
        raise HordesError(
            f"--params: {gated[0]} depends on the material balance, so it cannot be fitted together "
            "with piece values; tune it in a separate run (e.g. --params " + gated[0] + ")"
        )
    return [p for p in every if p in chosen]


def current_values(variant: Variant, params: Sequence[Param]) -> list[int]:
    """The document's numbers for `params` (defaults where the document is silent)."""
    ep = evmod.parse_params(variant)
    pieces = {p.letter: p for p in variant.pieces}
    out = []
    for p in params:
        if p.kind == "value":
            piece = pieces[p.key]
            out.append(piece.value_mg if p.part == 0 else piece.value_eg)
            continue
        value: Any = getattr(ep, p.key, None)
        if value is None:  # a term EvalParams does not carry: the document's entry or the default
            value = (variant.evaluation or {}).get(p.key, {**evmod.PAIR_TERMS, **evmod.SCALAR_TERMS}[p.key])
        if p.kind == "pair":
            out.append(int(value) if isinstance(value, int) else int(value[p.part]))
        else:
            out.append(int(value))
    return out


def overrides_for(
    params: Sequence[Param], values: Sequence[float], base: Mapping[str, Any]
) -> dict[str, Any]:
    """Evaluation overrides (`Evaluator(variant, overrides)`) setting the weight parameters."""
    out: dict[str, Any] = dict(base)
    for p, v in zip(params, values, strict=True):
        if p.kind == "pair":
            pair = list(out[p.key])
            pair[p.part] = round(v)
            out[p.key] = pair
        elif p.kind == "scalar":
            out[p.key] = round(v)
    return out


# ----- features --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class FeatureTask:
    variant: str  # name or document path (see positions.variant_spec)
    fens: tuple[str, ...]
    document: str | None = None  # else: the text of a document to take the numbers from (a tuned
    base: str | None = None  # child of `variant`, found relative to this directory)


@dataclass
class Features:
    """Per-position base components and derivatives, for every parameter of `all_params`."""

    base: Array  # (n, 5): T_mg, T_eg, X_mg, X_eg, R at the document's numbers, X without mop-up
    deriv: Array  # (n, P, 5): d component / d parameter
    phase_counts: Array  # (n, kinds): pieces of each kind on the board (both colours)
    white: Array  # (n,): Evaluator's score from White's view, for checks
    nonlinear: npt.NDArray[np.bool_]  # (P,): a second step gave another slope (thresholds, ...)
    mop_up: Array  # (n, 2, 2): ungated (mop-up steps, siege count), White-positive, with White or Black ahead

    @staticmethod
    def concat(parts: Sequence[Features]) -> Features:
        return Features(
            np.concatenate([p.base for p in parts]),
            np.concatenate([p.deriv for p in parts]),
            np.concatenate([p.phase_counts for p in parts]),
            np.concatenate([p.white for p in parts]),
            np.logical_or.reduce([p.nonlinear for p in parts]),
            np.concatenate([p.mop_up for p in parts]),
        )


def components(ev: Evaluator, board: Board) -> tuple[int, int, int, int, int, int]:
    """(T_mg, T_eg, X_mg, X_eg, R, white score) of a position under one Evaluator."""
    packed = ev.packed(board)
    ph, tmg, teg = unpack(packed)
    # The extras with the phase forced to each end (the material fields stay: mop-up reads them).
    xmg = ev.extras(board, pack(ev.phase_hi, tmg, teg))
    xeg = ev.extras(board, pack(0, tmg, teg))
    score = ev.evaluate(board)
    white = score if board.side == 0 else -score
    rest = (
        white
        - taper_int(tmg, teg, ph, ev.phase_hi, ev.phase_lo)
        - taper_int(xmg, xeg, ph, ev.phase_hi, ev.phase_lo)
    )
    return tmg, teg, xmg, xeg, rest, white


def taper_int(mg: int, eg: int, ph: int, hi: int, lo: int) -> int:
    if ph >= hi:
        return mg
    if ph <= lo:
        return eg
    return (mg * (ph - lo) + eg * (hi - ph)) // (hi - lo)


def feature_chunk(task: FeatureTask) -> Features:
    """Features of some positions (runs on a worker)."""
    from hordes.tune.positions import resolve_variant

    variant = resolve_variant(task.variant)
    if task.document is not None:
        from hordes.variants import REGISTRY

        base_dir = Path(task.base or ".")
        variant = REGISTRY.parse(task.document, str(base_dir / "tuned.md"), base_dir)
    params = all_params(variant)
    values = current_values(variant, params)
    real_ev = Evaluator(variant)
    doc = {k: list(getattr(real_ev.params, k)) for k in evmod.PAIR_TERMS if hasattr(real_ev.params, k)}
    doc.update({k: getattr(real_ev.params, k) for k in evmod.SCALAR_TERMS if hasattr(real_ev.params, k)})
    # The components leave mop-up and the siege out: the model adds them, gated by the lead at its
    # own numbers.
    doc["mop_up"] = [0, 0]
    doc["siege"] = [0, 0]
    gated = real_ev.use_mop_up or real_ev.use_siege
    base_ev = Evaluator(variant, doc) if gated else real_ev
    steps = [float(STEP if values[i] + 2 * STEP <= LIMIT else -STEP) for i in range(len(params))]
    # Two evaluators per weight, one and two steps away: a slope that differs between them (by more
    # than the rounding of mobility terms) marks a term that is not linear in its weight.
    bumped: list[tuple[Evaluator, Evaluator] | None] = []
    for i, p in enumerate(params):
        if p.kind == "value" or p.key in evmod.MATERIAL_GATED:  # analytic, or in the model
            bumped.append(None)
            continue
        bumped.append(
            (
                Evaluator(variant, overrides_for([p], [values[i] + steps[i]], doc)),
                Evaluator(variant, overrides_for([p], [values[i] + 2 * steps[i]], doc)),
            )
        )
    nonlinear = np.zeros(len(params), dtype=np.bool_)
    kinds = len(variant.pieces)
    index = {p.letter: k for k, p in enumerate(variant.pieces)}
    n = len(task.fens)
    base = np.zeros((n, COMPONENTS))
    deriv = np.zeros((n, len(params), COMPONENTS))
    counts = np.zeros((n, kinds))
    white = np.zeros(n)
    mop_up = np.zeros((n, 2, 2))
    for row, fen in enumerate(task.fens):
        board = Board(variant, fen)
        comp0 = components(base_ev, board)
        base[row] = comp0[:COMPONENTS]
        score = real_ev.evaluate(board)
        white[row] = score if board.side == 0 else -score
        mop_up[row] = real_ev.mop_up_parts(board)
        signed = [0] * kinds
        for code in board.mailbox:
            if code >= 0:
                counts[row, code >> 1] += 1
                signed[code >> 1] += 1 if code & 1 == 0 else -1
        for j, p in enumerate(params):
            evs = bumped[j]
            if evs is None:
                if p.kind == "value":
                    deriv[row, j, p.part] = signed[index[p.key]]  # material: T_mg or T_eg
                continue
            one = components(evs[0], board)
            two = components(evs[1], board)
            for c in range(COMPONENTS):
                slope = (one[c] - comp0[c]) / steps[j]
                deriv[row, j, c] = slope
                if abs((two[c] - comp0[c]) / (2 * steps[j]) - slope) > NONLINEAR_TOLERANCE:
                    nonlinear[j] = True
    # The margin is a threshold: with mop-up or the siege on, the scores jump where a lead crosses it.
    if gated and np.any(mop_up):
        nonlinear[[j for j, p in enumerate(params) if p.key == "mop_up_margin"]] = True
    return Features(base, deriv, counts, white, nonlinear, mop_up)


def extract_features(
    variant_spec: str,
    fens: Sequence[str],
    workers: int = 1,
    ray: str | None = None,
    chunk: int = 400,
    document: str | None = None,
    base: Path | None = None,
) -> Features:
    """Features of every position, in chunks on workers; with `document` (a tuned child's text,
    `base` its directory) at that document's numbers instead of the variant's."""
    from hordes.selfplay.workers import run_tasks

    where = str(base) if base is not None else None
    tasks = [
        FeatureTask(variant_spec, tuple(fens[i : i + chunk]), document, where)
        for i in range(0, len(fens), chunk)
    ]
    parts: dict[int, Features] = dict(run_tasks(feature_chunk, tasks, workers, ray))
    if not parts:
        raise HordesError("no positions to compute features of")
    return Features.concat([parts[i] for i in range(len(tasks))])


# ----- the model -------------------------------------------------------------------------------------
class Model:
    """Evaluation of every position as a function of all parameters (`all_params` order)."""

    def __init__(self, variant: Variant, features: Features) -> None:
        from hordes.core.fen import parse_fen

        self.params = all_params(variant)
        self.theta0 = np.array(current_values(variant, self.params), dtype=np.float64)
        self.f = features
        self.pawn_unit = Evaluator(variant).pawn_unit
        # Phase: middlegame values of the kinds that are neither pawns nor royal.
        phase_kinds = [k for k, p in enumerate(variant.pieces) if not (p.pawn or p.royal)]
        where = {(p.key, p.part): i for i, p in enumerate(self.params) if p.kind == "value"}
        self.phase_idx = np.array([where[(variant.pieces[k].letter, 0)] for k in phase_kinds], dtype=np.intp)
        self.phase_counts = features.phase_counts[:, phase_kinds]
        start = np.zeros(len(variant.pieces))
        for code in parse_fen(variant, variant.start_fen).board:
            if code >= 0:
                start[code >> 1] += 1
        self.start_counts = start[phase_kinds]
        names = {p.name: i for i, p in enumerate(self.params)}
        # The gated terms' weights, (mop-up, siege) for the middlegame and for the endgame.
        self.gated_mg = np.array([names["mop_up.mg"], names["siege.mg"]], dtype=np.intp)
        self.gated_eg = np.array([names["mop_up.eg"], names["siege.eg"]], dtype=np.intp)
        self.margin_idx = names["mop_up_margin"]

    def __len__(self) -> int:
        return len(self.f.white)

    def phase(self, theta: Array, exact: bool) -> tuple[Array, float, float]:
        v = np.maximum(theta[self.phase_idx], 0.0)
        if exact:
            v = np.round(v)
            start = round(float(self.start_counts @ v))
            return self.phase_counts @ v, float(max(1, start * 85 // 100)), float(start * 20 // 100)
        start_f = float(self.start_counts @ v)
        return self.phase_counts @ v, max(1.0, 0.85 * start_f), 0.2 * start_f

    def _components(self, theta: Array) -> Array:
        return np.asarray(self.f.base + np.einsum("npc,p->nc", self.f.deriv, theta - self.theta0))

    def mop_up_steps(self, theta: Array, comp: Array | None = None) -> Array:
        """Per position, the (mop-up steps, siege count), White-positive, that the Evaluator applies
        at `theta`: those of the side whose lead reaches mop_up_margin (as `Evaluator.extras`: the
        endgame field of the piece-square sum, `>=`, White's when the lead is positive), else none."""
        if comp is None:
            comp = self._components(theta)
        lead = np.round(comp[:, 1])[:, None]  # a whole number in the Evaluator; here within rounding
        side = np.where(lead > 0, self.f.mop_up[:, 0], self.f.mop_up[:, 1])
        return np.asarray(np.where(np.abs(lead) >= theta[self.margin_idx], side, 0.0))

    def evaluate(self, theta: Array, exact: bool = True, steps: Array | None = None) -> Array:
        """Scores from White's view: with the Evaluator's integer tapering (`exact`), or smooth.
        `steps`: the gated mop-up steps and siege counts to use (default: gated at `theta`)."""
        comp = self._components(theta)
        if steps is None:
            steps = self.mop_up_steps(theta, comp)
        # Mop-up and the siege are extras: tapered (and floored) together with them.
        comp[:, 2] += steps @ theta[self.gated_mg]
        comp[:, 3] += steps @ theta[self.gated_eg]
        ph, hi, lo = self.phase(theta, exact)
        if exact:
            out = (
                _taper_floor(comp[:, 0], comp[:, 1], ph, hi, lo)
                + _taper_floor(comp[:, 2], comp[:, 3], ph, hi, lo)
                + comp[:, 4]
            )
        else:
            t = np.clip((ph - lo) / max(hi - lo, 1e-9), 0.0, 1.0)
            out = t * (comp[:, 0] + comp[:, 2]) + (1 - t) * (comp[:, 1] + comp[:, 3]) + comp[:, 4]
        return np.asarray(out, dtype=np.float64)

    def jacobian(self, theta: Array, tuned: Sequence[int]) -> Array:
        """d score / d parameter for the tuned parameters (smooth model, unit steps; the gate of
        mop-up and the siege held as it is at `theta`)."""
        steps = self.mop_up_steps(theta)
        e0 = self.evaluate(theta, exact=False, steps=steps)
        out = np.empty((len(e0), len(tuned)))
        for col, j in enumerate(tuned):
            t = theta.copy()
            t[j] += 1.0
            out[:, col] = self.evaluate(t, exact=False, steps=steps) - e0
        return out


def _taper_floor(mg: Array, eg: Array, ph: Array, hi: float, lo: float) -> Array:
    span = max(hi - lo, 1.0)
    mid = np.floor((mg * (ph - lo) + eg * (hi - ph)) / span)
    return np.where(ph >= hi, mg, np.where(ph <= lo, eg, mid))


def sigmoid(x: Array) -> Array:
    return np.asarray(0.5 * (1.0 + np.tanh(0.5 * x)), dtype=np.float64)


def mse(results: Array, scores: Array, k: float) -> float:
    return float(np.mean((results - sigmoid(k * scores)) ** 2))


def fit_k(results: Array, scores: Array) -> float:
    """The K minimising the error of sigmoid(K * score) (golden-section search on log10 K)."""
    lo, hi = -7.0, 0.0
    g = (math.sqrt(5) - 1) / 2

    def err(x: float) -> float:
        return mse(results, scores, 10.0**x)

    a, b = hi - g * (hi - lo), lo + g * (hi - lo)
    fa, fb = err(a), err(b)
    for _ in range(80):
        if fa < fb:
            hi, b, fb = b, a, fa
            a = hi - g * (hi - lo)
            fa = err(a)
        else:
            lo, a, fa = a, b, fb
            b = lo + g * (hi - lo)
            fb = err(b)
    return float(10.0 ** ((lo + hi) / 2))


# ----- fitting ---------------------------------------------------------------------------------------
@dataclass
class FitResult:
    params: list[Param]  # all parameters, `all_params` order
    old: list[int]
    new: list[int]
    tuned: list[int]  # indices of the parameters that were fitted
    unsupported: list[int]  # selected, but too few positions depend on them
    nonlinear: list[int]  # selected, but not linear in their number (thresholds): left as they are
    k: float
    error_before: float
    error_after: float  # with the rounded numbers, the model's integer evaluation
    iterations: int

    def changed(self) -> list[tuple[Param, int, int]]:
        return [(self.params[i], self.old[i], self.new[i]) for i in self.tuned if self.old[i] != self.new[i]]


def fit(
    model: Model,
    results: Array,
    selected: Sequence[Param],
    k: float | None = None,
    ridge: float = 1.0,
    max_iter: int = 100,
    log: Any = None,
    anchor: Array | None = None,
) -> FitResult:
    """Fit the selected parameters: Levenberg-Marquardt on the mean squared error plus a ridge
    penalty `ridge / n * sum((change / pawn_unit) ** 2)` (a change of one pawn costs what one
    position mispredicted by a whole point costs; 0 is plain Texel tuning). The penalty pulls
    towards `anchor` (default: the model's own numbers), the original document's numbers when a
    fit is refined from an earlier one."""
    theta0 = model.theta0.copy()
    pull = theta0 if anchor is None else anchor
    n = len(results)
    e0 = model.evaluate(theta0)
    if k is None:
        k = fit_k(results, e0)
    before = mse(results, e0, k)
    wanted = [i for i, p in enumerate(model.params) if p in set(selected)]
    jac0 = model.jacobian(theta0, wanted)
    support = np.count_nonzero(np.abs(jac0) > 1e-6, axis=0)
    nonlinear = [j for j in wanted if model.f.nonlinear[j]]
    tuned = [j for col, j in enumerate(wanted) if support[col] >= MIN_SUPPORT and j not in nonlinear]
    unsupported = [j for col, j in enumerate(wanted) if support[col] < MIN_SUPPORT and j not in nonlinear]
    prior = ridge / model.pawn_unit**2  # on the summed squared error

    def objective(theta: Array) -> float:
        change = theta[tuned] - pull[tuned]
        return mse(results, model.evaluate(theta, exact=False), k) + prior * float(change @ change) / n

    theta = theta0.copy()
    error = objective(theta)
    lam = 1e-3
    iterations = 0
    for iterations in range(1, max_iter + 1):
        if not tuned:
            break
        e = model.evaluate(theta, exact=False)
        p = sigmoid(k * e)
        jac = model.jacobian(theta, tuned) * (k * p * (1 - p))[:, None]
        a = jac.T @ jac + prior * np.eye(len(tuned))
        g = jac.T @ (results - p) - prior * (theta[tuned] - pull[tuned])
        diag = np.diag(a).copy()
        improved = False
        gain = 0.0
        step: Array = np.zeros(len(tuned))
        while lam < 1e12:
            step = np.asarray(np.linalg.solve(a + lam * np.diag(diag + 1e-12), g), dtype=np.float64)
            trial = theta.copy()
            trial[tuned] = np.clip(trial[tuned] + step, -LIMIT, LIMIT)
            trial_error = objective(trial)
            if trial_error < error:
                improved = True
                gain = error - trial_error
                theta, error = trial, trial_error
                lam = max(lam / 3, 1e-9)
                break
            lam *= 4
        if log is not None:
            log(f"  iteration {iterations}: objective {error:.6f}")
        if not improved or gain <= 1e-9 * error or float(np.max(np.abs(step))) < 0.05:
            break
    new = theta0.copy()
    new[tuned] = np.round(theta[tuned])
    after = mse(results, model.evaluate(new), k)
    return FitResult(
        model.params,
        [int(v) for v in theta0],
        [int(v) for v in new],
        tuned,
        unsupported,
        nonlinear,
        k,
        before,
        after,
        iterations,
    )
