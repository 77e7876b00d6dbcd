"""The search core: the :class:`~solvers.core.solver.Solver` contract every game solver implements,
the compiled DFS / best-first search, its hash table, results and worker processes."""
