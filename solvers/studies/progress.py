"""Progress bars on stderr: tqdm (the optional extra ``progress``) when it is installed, and
otherwise a stand-in that shows nothing, so no result ever depends on it."""
import sys


class NoBar:
    """What a tqdm bar offers here, doing nothing."""
    n = 0

    def update(self, n):
        pass

    def set_postfix_str(self, *args, **kwargs):
        pass

    def close(self):
        pass


def progress_bar(enabled, **options):
    """A tqdm bar on stderr with ``options`` if ``enabled``, else :class:`NoBar`.  Without
    tqdm, one line on stderr says how to get it.  The bar starts no monitor thread (tqdm's
    default), so a run that shows it can still fork its workers
    (:func:`solvers.core.workers.start_method`)."""
    if not enabled:
        return NoBar()
    try:
        from tqdm import tqdm
    except ImportError:
        sys.stderr.write("aisle: install tqdm (pip install 'aisle-solvers[progress]') for a progress bar\n")
        return NoBar()

    class Bar(tqdm):
        monitor_interval = 0

    return Bar(file=sys.stderr, dynamic_ncols=True, **options)
