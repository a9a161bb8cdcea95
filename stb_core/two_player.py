"""Two players, one turn each to the end of the game; the lower sum left open wins, equal sums tie.

The second player knows the sum ``t`` to beat and plays to maximise ``P(s2 < t)`` (goal ``beat``) or
``P(s2 <= t)`` (goal ``tie-or-beat``): a terminal utility of the final sum, solved by the same Bellman
sweep as every built-in objective. Playing that way from the full board gives, for each ``t``,

    L(t) = P(s2 < t),   E(t) = P(s2 = t),   G(t) = P(s2 > t).

The first player, knowing this, maximises the chance of winning outright, the terminal utility
``u1(s) = G(s)``. Then ``P(first wins) = sum_s P1(s) G(s)``, ``P(tie) = sum_s P1(s) E(s)`` with ``P1``
the first player's final-sum distribution, and the second wins the rest.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from .evaluate import final_sum_distribution
from .objectives import custom_objective
from .rules import Rules, RulesError
from .solve import Solution, solve

SECOND_GOALS = ("beat", "tie-or-beat")


def second_player_objective(target: int, goal: str = "beat"):
    """The second player's objective facing a first-player sum of ``target``."""
    if goal not in SECOND_GOALS:
        raise RulesError(f"goal must be one of {', '.join(SECOND_GOALS)}; got {goal!r}")
    if goal == "beat":
        return custom_objective(f"beat {target}", of_sum=lambda s: s < target)
    return custom_objective(f"tie or beat {target}", of_sum=lambda s: s <= target)


def second_player_table(rules: Rules, goal: str = "beat", exact: bool = False) -> pd.DataFrame:
    """For each sum ``t`` the first player may leave: the second player's chances of finishing below,
    equal to and above ``t`` when playing for ``goal``."""
    rows = []
    for target in range(rules.total + 1):
        sol = solve(rules, second_player_objective(target, goal), exact=exact)
        dist = final_sum_distribution(rules, solution=sol)
        below = sum((p for s, p in dist.items() if s < target), start=0)
        equal = dist.get(target, 0)
        rows.append({"target": target, "p_below": below, "p_equal": equal, "p_above": 1 - below - equal})
    return pd.DataFrame(rows)


@dataclass(frozen=True)
class TwoPlayerResult:
    """Exact outcome of the two-player game under one rules value."""

    rules: Rules
    goal: str
    p_first_wins: object
    p_tie: object
    p_second_wins: object
    second: pd.DataFrame          # second_player_table
    first: Solution               # the first player's optimal solution
    first_distribution: dict      # the first player's final-sum distribution

    @property
    def second_advantage(self):
        """How much going second is worth: P(second wins) - P(first wins)."""
        return self.p_second_wins - self.p_first_wins


def two_player_game(rules: Rules, goal: str = "beat", exact: bool = False) -> TwoPlayerResult:
    """Solve the two-player game described in the module docstring."""
    second = second_player_table(rules, goal, exact)
    above = dict(zip(second["target"], second["p_above"], strict=True))
    equal = dict(zip(second["target"], second["p_equal"], strict=True))
    first_objective = custom_objective("first player wins", of_sum=lambda s: above[s])
    first = solve(rules, first_objective, exact=exact)
    dist = final_sum_distribution(rules, solution=first)
    p_first = sum((p * above[s] for s, p in dist.items()), start=0)
    p_tie = sum((p * equal[s] for s, p in dist.items()), start=0)
    return TwoPlayerResult(rules, goal, p_first, p_tie, 1 - p_first - p_tie, second, first, dist)

