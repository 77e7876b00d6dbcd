"""What a benchmark ran on, for its JSON and its header line.

Timed figures compare only between runs on the same processor, and the machines a project
runs on differ, so every benchmark records the processor's model beside Python, Numba and the
core count.
"""
import os
import platform

import numba


def cpu_model():
    """The processor's model name with its family, model and clock (Linux: ``/proc/cpuinfo``;
    a virtual machine may name only the make, e.g. "AMD EPYC"), else what ``platform`` says."""
    fields = {}
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            for line in fh:
                key, _, value = line.partition(":")
                if not key.strip():
                    break                           # the first processor's entry ends
                fields.setdefault(key.strip(), value.strip())
    except OSError:
        pass
    if "model name" not in fields:
        return platform.processor() or platform.machine()
    mhz = fields.get("cpu MHz", "?").split(".")[0]
    return (f"{fields['model name']} (family {fields.get('cpu family', '?')}, "
            f"model {fields.get('model', '?')}, {mhz} MHz)")


def describe():
    """The machine and software a run used, as a dict for a benchmark's JSON."""
    return {"cpu": cpu_model(), "cpus": os.cpu_count(), "machine": platform.machine(),
            "python": platform.python_version(), "numba": numba.__version__}


def header(d=None):
    """One line for a benchmark's printed table, from :func:`describe` (or its ``d``, e.g. the
    copy a benchmark keeps in its results)."""
    d = describe() if d is None else d
    return f"{d['cpu']}, {d['cpus']} cores; Python {d['python']}, Numba {d['numba']}"
