"""The test suite, laid out like the packages it tests (``tests/rules``, ``tests/solvers/...``).

A package so that pytest imports every test module by its dotted name (``tests.rules.test_yukon``,
``tests.solvers.games.test_yukon``): same-named files in different folders do not clash, and the
repository root, not ``tests/``, goes on ``sys.path``, so ``tests/rules`` never hides ``rules``.
"""
