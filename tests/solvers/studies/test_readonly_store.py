"""A results store the user cannot write (issue 55): readers open it read-only, writers say so
in one line.  The store is made read-only by permissions, or (as root, whom permissions do not
stop) by a read-only bind mount in a private mount namespace."""
import os
import shutil
import subprocess
import sys

import pytest

from solvers.cli.main import main


def _child_env():
    import solvers

    root = os.path.dirname(os.path.dirname(os.path.abspath(solvers.__file__)))
    return {**os.environ, "PYTHONPATH": root + os.pathsep + os.environ.get("PYTHONPATH", "")}


def _run_read_only(folder, argvs):
    """Run ``aisle ARGV`` for each argv in a child that cannot write ``folder``: (code, out, err)."""
    script = "; ".join(f"{sys.executable} -m solvers {' '.join(argv)}; echo \"rc=$?\""
                       for argv in argvs)
    if os.geteuid() != 0:
        os.chmod(folder, 0o555)
        try:
            return subprocess.run(["sh", "-c", script], capture_output=True, text=True,
                                  timeout=600, env=_child_env())
        finally:
            os.chmod(folder, 0o755)
    if not shutil.which("unshare"):
        pytest.skip("running as root without unshare: cannot make a folder read-only")
    mount = f"mount --bind {folder} {folder} && mount -o remount,bind,ro {folder} && {script}"
    proc = subprocess.run(["unshare", "-rm", "sh", "-c", mount], capture_output=True, text=True,
                          timeout=600, env=_child_env())
    if proc.returncode != 0 and "rc=" not in proc.stdout:
        pytest.skip(f"no private read-only mount here: {proc.stderr.strip()[:200]}")
    return proc


def test_a_store_in_a_read_only_folder_is_read_and_refused_for_writing(tmp_path, capsys):
    folder = tmp_path / "ro"
    folder.mkdir()
    db = folder / "results.sqlite"
    assert main(["winrate", "clock", "--seeds", "1-3", "--db", str(db), "--no-progress", "--no-atlas"]) == 0
    os.chmod(db, 0o444)
    capsys.readouterr()
    proc = _run_read_only(str(folder), [
        ["report", str(db)], ["report", str(db), "--export", "csv"],
        ["winrate", "clock", "--seeds", "1-5", "--db", str(db), "--no-progress", "--no-atlas"]])
    out, err = proc.stdout, proc.stderr
    assert out.count("rc=0") == 2 and out.count("rc=2") == 1, (out, err)
    assert "clock" in out and "game,numbering" in out                 # the table and the CSV
    assert "Traceback" not in err and err.count("\n") == 1 and "cannot write" in err, err
