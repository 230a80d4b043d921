"""The census in a script (issue 53): its worker processes import the script that started
them (multiprocessing's forkserver and spawn), so the guide's example pasted into a script
without ``if __name__ == "__main__":`` gave multiprocessing's RuntimeError, then
BrokenProcessPool, and ran the script's body twice.  Now: a script with no guard is refused
before any worker starts, a call outside the guard ends in one clear RuntimeError, and a
guarded script works.  Each script runs in a subprocess, as a user runs it."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

CALL = 'rows = census(codes=[".77", "4.4"], out=OUT, until=256, workers=1, progress=False)'


def run_script(tmp_path, body: str) -> subprocess.CompletedProcess[str]:
    script = tmp_path / "my_census.py"
    script.write_text(textwrap.dedent(f"""\
        from nimbers.research import census
        OUT = {str(tmp_path / "out")!r}
        print("body ran")
        """) + textwrap.dedent(body))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    return subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          timeout=120, env=env, cwd=tmp_path)


def last_line(text: str) -> str:
    return text.strip().splitlines()[-1]


def test_a_script_without_the_guard_is_refused_before_it_runs_twice(tmp_path):
    done = run_script(tmp_path, CALL + "\n")
    assert done.returncode == 1 and done.stdout.split() == ["body", "ran"]
    said = last_line(done.stderr)
    assert said.startswith("RuntimeError: census needs worker processes: ")
    assert 'if __name__ == "__main__":' in said and "my_census.py" in said
    assert "BrokenProcessPool" not in done.stderr


def test_a_call_outside_the_guard_says_why_the_workers_ended(tmp_path):
    done = run_script(tmp_path, CALL + '\nif __name__ == "__main__":\n    print("guarded")\n')
    assert done.returncode == 1 and "guarded" not in done.stdout
    said = last_line(done.stderr)
    assert said.startswith("RuntimeError: a worker process ended at its start: ")
    assert 'if __name__ == "__main__":' in said


@pytest.mark.parametrize("guard", ['if __name__ == "__main__":', "if __name__ == '__main__':"])
def test_a_guarded_script_runs_the_census(tmp_path, guard):
    done = run_script(tmp_path, f"{guard}\n    {CALL}\n    print(sorted(r['code'] for r in rows))\n")
    assert done.returncode == 0, done.stderr
    # (the unguarded print runs in the workers' forkserver too: multiprocessing's way)
    assert done.stdout.splitlines()[0] == "body ran" and last_line(done.stdout) == "['0.77']"
