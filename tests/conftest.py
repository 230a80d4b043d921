import contextlib
import pathlib
import signal
import subprocess
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).parent))

import nimbers  # noqa: E402

DATA = pathlib.Path(__file__).parent / "data"

def free_port() -> int:
    """A TCP port free on 127.0.0.1 now (for the real dask schedulers and servers of tests)."""
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def dask_cluster(env, workers=2, nanny=True):
    """A real dask scheduler and workers (one thread each) on 127.0.0.1, started as a user
    starts them (``dask scheduler``, ``dask worker ADDRESS``) and stopped at the end: yields
    (the scheduler's address, the workers' processes)."""
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    quiet = {"env": env, "stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    procs = [subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host",
                               "127.0.0.1", "--port", str(port), "--dashboard-address",
                               f"127.0.0.1:{free_port()}"], **quiet)]
    try:
        for _ in range(workers):
            procs.append(subprocess.Popen(
                [sys.executable, "-m", "distributed.cli.dask_worker", address, "--nthreads", "1",
                 "--no-dashboard", "--host", "127.0.0.1"] + ([] if nanny else ["--no-nanny"]),
                **quiet))
        yield address, procs[1:]
    finally:
        for proc in reversed(procs):
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def edited_table(good, folder, name, change, table="census.jsonl"):
    """A copy of the directory good as folder/name with the latest row of table for which
    change(row) edits the row (returning True) rewritten: (the copy, the edited line)."""
    import json
    import shutil
    bad = folder / name
    shutil.copytree(good, bad)
    lines = (bad / table).read_text().splitlines()
    for i in reversed(range(len(lines))):   # the class's latest row
        row = json.loads(lines[i])
        if change(row):
            lines[i] = json.dumps(row)
            (bad / table).write_text("\n".join(lines) + "\n")
            return bad, i + 1
    raise AssertionError(f"{name}: no row changed")


KERNELS = list(nimbers.arith._core.available_kernels())  # every path this CPU can run


@pytest.fixture(params=KERNELS)
def kernel(request):
    """Runs a test once per 64-bit kernel the CPU has, restoring the default after."""
    nimbers.set_kernel(request.param)
    yield request.param
    nimbers.set_kernel("auto")


@pytest.fixture
def python_sigint():
    """Python's own SIGINT handler for the test's duration, for tests that interrupt
    themselves: a suite started with SIGINT ignored (``nohup pytest &``, a script's background
    job, some CI runners) would otherwise never see the KeyboardInterrupt
    (``_thread.interrupt_main`` does nothing while SIGINT is ignored), and child processes
    would inherit the ignored signal.  A handler set here is reset to the default in a child
    at exec, so subprocesses started during the test get Python's usual Ctrl-C too."""
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)


# The typing tests are checked by mypy (test_typing.py), never run: some lines are errors
# on purpose.
collect_ignore = ["typing"]


#: The slowest tests, marked ``slow`` here in one place (``python -m pytest -m "not slow"``
#: leaves them out for daily work; ``python -m pytest`` runs them): each took 10 s or more
#: (call and set-up) in a --durations run on the 2-core machine the suite is measured on,
#: shared with other work (issue 53).  tests/project/test_suite_rules.py checks that each
#: names a test that exists.
SLOW = (
    "tests/research/test_census_depth.py::test_dask_without_workers_stops_with_a_message",
    "tests/research/test_census_depth.py::test_unclear_input_is_one_line",
    "tests/research/test_census_depth.py::test_levels_and_the_dense_class",
    "tests/research/test_census_dense.py::test_thinning_class_goes_on_to_the_frontier_and_a_dense_one_stops",
    "tests/research/test_census_depth.py::test_deepen_continues_only_open_rows",
    "tests/research/test_census_depth.py::test_same_csv_digest_under_load",
    "tests/research/test_census_depth.py::test_376_proven_at_its_published_numbers",
    "tests/research/test_census.py::test_verify_passes_and_fails_naming_the_row",
    "tests/research/test_census.py::test_same_table_on_a_dask_cluster",
    "tests/research/test_census.py::test_unreachable_scheduler_is_one_line",
    "tests/research/test_frontier_paths.py::test_blocks_that_go_alone_give_the_ordinary_engines_values",
    "tests/research/test_frontier_paths.py::test_candidates_made_without_the_lag_parts_give_the_ordinary_engines_values",
    "tests/research/test_frontier_paths.py::test_every_thread_count_gives_the_same_values",
    "tests/research/test_frontier_files.py::test_grundys_rare_values_are_flammenkamps",
    "tests/research/test_frontier_files.py::test_a_run_to_a_file_writes_progress_lines",
    "tests/research/test_frontier.py::test_ctrl_c_then_resume",
    "tests/research/test_frontier_team.py::test_every_thread_count_on_each_game",
    "tests/research/test_frontier_team.py::test_a_team_taken_back_or_with_remade_candidates_gives_the_same_values",
    "tests/games/test_misere_quotient.py::test_order_past_the_cap_is_proved_and_stated",
    "tests/games/test_misere_quotient.py::test_endless_powers_are_reported_as_a_sign_only",
    "tests/games/test_misere_quotient.py::test_previously_stuck_codes_against_oracle",
    "tests/project/test_bounded_work.py::test_small_cases_still_answer_at_once",
)


def pytest_configure(config):
    """Registers the marker here, beside SLOW, rather than in pyproject.toml: a run without the
    project's configuration (tools/sanitize.sh passes -c /dev/null) knows it too."""
    config.addinivalue_line(
        "markers", "slow: takes 10 s or more on a quiet 2-core machine (tests/conftest.py's SLOW)")


def pytest_collection_modifyitems(config, items):
    """Marks the tests of SLOW ``slow`` (every parametrization of each)."""
    slow = set(SLOW)
    for item in items:
        if item.nodeid.split("[")[0] in slow:
            item.add_marker(pytest.mark.slow)


@pytest.fixture
def closed_engines(monkeypatch):
    """(path, frontier_info) of each frontier engine as its run closes, in order: what the
    engine did (its vector path, the values made by the blocks, the speculations taken
    back) once the run is over (tests/research)."""
    from nimbers import _core
    from nimbers.research.frontier import run as frontier

    seen = []
    close = frontier._Run.close

    def close_and_look(run):
        seen.append((_core.frontier_path(run.engine), _core.frontier_info(run.engine)))
        close(run)

    monkeypatch.setattr(frontier._Run, "close", close_and_look)
    return seen
