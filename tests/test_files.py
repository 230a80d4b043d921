"""nimbers.files: the one atomic writer, written to by several threads at once."""

from __future__ import annotations

import threading
from pathlib import Path

from nimbers import files


def test_threads_writing_one_file_never_leave_a_part_of_one(tmp_path: Path) -> None:
    # each thread has its own temporary name: none unlinks or renames another's half-written
    # file, so the target is always one writer's whole text and every write succeeds
    target = tmp_path / "shared.txt"
    texts = [str(k) * 200_000 for k in range(8)]
    errors: list[BaseException] = []
    seen: set[str] = set()
    done = threading.Event()

    def write(text: str) -> None:
        try:
            for _ in range(10):
                files.write_atomically(target, text)
        except BaseException as exc:  # noqa: BLE001 (the test reports it below)
            errors.append(exc)

    def read() -> None:
        while not done.is_set():
            if target.exists():
                seen.add(target.read_text())

    reader = threading.Thread(target=read)
    reader.start()
    writers = [threading.Thread(target=write, args=(text,)) for text in texts]
    for thread in writers:
        thread.start()
    for thread in writers:
        thread.join()
    done.set()
    reader.join()
    assert errors == []
    assert seen <= set(texts)
    assert target.read_text() in texts
    assert sorted(p.name for p in tmp_path.iterdir()) == ["shared.txt"]
