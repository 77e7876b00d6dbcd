"""Reading the text files users hand in: boards, layouts, solutions, conformance traces.

:func:`read_text` never reads without bound (``/dev/zero`` or a 5 GB file costs at most
``max_bytes + 1`` bytes; a ``.gz`` file is decompressed up to the same bound), decodes UTF-8,
drops a leading byte-order mark, and turns every failure -- missing file, directory, bad gzip
data, bytes that are not UTF-8, a file too large -- into one :class:`~rules.errors.AisleError`
quoting the path, never a traceback.
"""
import gzip
import os
import zlib

from rules.errors import UnreadableFileError, clip, shorten

MAX_TEXT_BYTES = 1 << 20     # 1 MiB: a board, layout or solution is a few kB at most


def read_text(path, what, max_bytes=MAX_TEXT_BYTES, error=UnreadableFileError):
    """The text of the file at ``path`` (str or path-like; ``.gz`` is decompressed).

    ``what`` names the file in messages ("board", "solution").  Raises ``error`` (by default
    :class:`UnreadableFileError`, an InvalidDealError) for a file that cannot be read, holds
    more than ``max_bytes`` bytes (decompressed), or is not UTF-8.
    """
    if not isinstance(path, (str, bytes, os.PathLike)):
        raise error(f"{what} file name must be a path, got {shorten(path)}")
    name = shorten(os.fsdecode(path), 120)
    gzipped = os.fsdecode(path).endswith(".gz")
    try:
        with (gzip.open(path, "rb") if gzipped else open(path, "rb")) as fh:
            data = fh.read(max_bytes + 1)
    except OSError as exc:
        reason = exc.strerror or str(exc) or type(exc).__name__
        raise error(f"cannot read {what} file {name}: {clip(reason, 100)}") from None
    except (EOFError, zlib.error) as exc:
        raise error(f"cannot read {what} file {name}: damaged gzip data ({clip(exc, 80)})") from None
    except ValueError as exc:      # e.g. a path with a NUL byte
        raise error(f"cannot read {what} file {name}: {clip(exc, 80)}") from None
    if len(data) > max_bytes:
        raise error(f"{what} file {name} is larger than {max_bytes} bytes; refused")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise error(f"{what} file {name} is not UTF-8 text (line {line}, byte {exc.start})") from None
    return text.removeprefix("\ufeff")
