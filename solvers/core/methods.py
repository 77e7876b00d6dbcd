"""The search methods of the solvers built on the generic core, dispatched in one place.

``dfs``: depth-first, children ordered by the heuristic; ``greedy``: best-first on the heuristic
alone (f = h); ``astar``: weighted A* (f = g + h), for shorter solutions.
"""
from solvers.core.search import BestFirst, DFS
from solvers.core.split_dfs import run_dfs

METHODS = ("dfs", "greedy", "astar")
WEIGHTS = {"greedy": (0, 1), "astar": (1, 1)}     # best-first (g, h) weights


def run(method, plug, root, limits, dfs=None):
    """Search from the state array ``root`` with ``method`` over ``plug`` within ``limits``:
    best-first with the method's weights, or depth-first -- ``dfs(root, limits)`` where the
    game runs its own, else :class:`DFS` on ``limits.threads`` threads."""
    if method != "dfs":
        return BestFirst(plug, limits, WEIGHTS[method]).run(root)
    if dfs is not None:
        return dfs(root, limits)
    return run_dfs(DFS(plug, limits), root, limits.threads)
