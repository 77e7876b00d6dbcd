"""Progress bars: tqdm's, without the monitor thread that would keep a run from forking its workers."""
import threading

from solvers.core.workers import start_method
from solvers.studies.progress import NoBar, progress_bar


def test_a_bar_starts_no_thread_so_workers_can_still_be_forked():
    before = {t.ident for t in threading.enumerate()}
    method = start_method()
    bar = progress_bar(True, total=3, disable=False)
    try:
        bar.update(1)
        assert {t.ident for t in threading.enumerate()} == before
        assert start_method() == method
    finally:
        bar.close()


def test_no_bar_when_not_enabled():
    assert isinstance(progress_bar(False, total=3), NoBar)
