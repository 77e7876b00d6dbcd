import pathlib

import pytest

SHARED = pathlib.Path(__file__).resolve().parents[1].parent / "shared"
CONFORMANCE = SHARED / "conformance"


@pytest.fixture(scope="session")
def conformance_dir():
    if not CONFORMANCE.is_dir():
        pytest.fail(f"conformance traces not found at {CONFORMANCE} (shared/ must sit beside the clone)")
    return CONFORMANCE

from hypothesis import settings

# Numba compiles on first call, so the first example of a property can take seconds.
settings.register_profile("aisle", deadline=None, print_blob=True)
settings.load_profile("aisle")
