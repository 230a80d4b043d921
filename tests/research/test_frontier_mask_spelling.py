"""A frontier run's statistics follow games.heap.stats's conventions (heap 0 counted like every
heap size, as the published counts do: Officers' 1584 rare values to 2^21 under mask 1ee), and
its files spell its mask one way, as the tables write it ("1fe", "1+pos": mask_name, read back
by read_mask_name): checkpoint.json as stats.json.  The checkpoints of the two earlier formats
(the mask over e as one number; the value mask and the parity apart) are still read, and a
resumed run writes the one spelling."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from nimbers.games.catalogue import heap_game
from nimbers.games.heap.stats import heap_stats, mask_name, read_mask_name
from nimbers.research.frontier import frontier_run, store

ENGINE = {"head": 1024, "window": 1 << 12, "interval": 1e9, "progress": False}


def _checkpoint(folder: Path) -> dict[str, object]:
    data: dict[str, object] = json.loads((folder / store.CHECKPOINT).read_text())
    return data


def _write_sealed(folder: Path, fields: dict[str, object]) -> None:
    fields = {k: v for k, v in fields.items() if k != "seal"}
    text = json.dumps({**fields, "seal": store.seal(fields)})
    (folder / store.CHECKPOINT).write_text(text)


@pytest.mark.parametrize("code", ["grundy", "0.127"])  # 0.127: a mask with the parity
def test_checkpoint_and_stats_spell_the_mask_alike(tmp_path: Path, code: str) -> None:
    stats = frontier_run(code, 3000, tmp_path, threads=1, **ENGINE)
    saved = json.loads((tmp_path / store.STATS).read_text())
    assert _checkpoint(tmp_path)["mask"] == saved["mask"] == stats.mask_name
    assert "parity" not in _checkpoint(tmp_path)


@pytest.mark.parametrize("code", ["grundy", "0.6", "0.127"])
def test_heap_and_frontier_statistics_count_alike(tmp_path: Path, code: str) -> None:
    """HeapStats and FrontierStats of the same values: the same mask, rare count (heap 0
    included) and last rare heap size."""
    frontier = frontier_run(code, 6000, tmp_path, threads=1, **ENGINE)
    game = heap_game(code)
    heap = heap_stats(game.nim_values(6000), game.rules)
    assert (frontier.mask_name, frontier.rare_count, frontier.last_rare) == \
        (heap.mask_name, heap.rare_count, heap.last_rare)


@pytest.mark.parametrize("old", ["nimbers-frontier/1", "nimbers-frontier/2"])
@pytest.mark.parametrize("code", ["grundy", "0.127"])
def test_earlier_checkpoints_are_read(tmp_path: Path, old: str, code: str) -> None:
    frontier_run(code, 3000, tmp_path, threads=1, **ENGINE)
    data = _checkpoint(tmp_path)
    emask = read_mask_name(str(data["mask"]))
    if old.endswith("/1"):
        data.update(format=old, mask=emask)
    else:
        data.update(format=old, mask=emask >> 1, parity=bool(emask & 1))
    _write_sealed(tmp_path, data)
    stats = frontier_run(code, 4000, tmp_path, threads=1, **ENGINE)
    expected = heap_game(code).nim_values(4000).astype(f"<u{stats.width}")
    assert stats.heap_sizes == 4000
    assert stats.sha256 == hashlib.sha256(expected.tobytes()).hexdigest()
    assert _checkpoint(tmp_path)["mask"] == stats.mask_name
    assert _checkpoint(tmp_path)["format"] == store.FORMAT


@pytest.mark.parametrize("name", ["1FE", "fe+", "+pos", "", "1+neg", "123456789"])
def test_bad_mask_names_are_refused(name: str) -> None:
    with pytest.raises(ValueError, match="not a mask"):
        read_mask_name(name)


def test_mask_names_read_back() -> None:
    for emask in range(1, 1 << 10):
        assert read_mask_name(mask_name(emask)) == emask
