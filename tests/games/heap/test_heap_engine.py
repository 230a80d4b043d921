"""The C heap engine (the sparse space and the plain scan), periodicity proofs, values by
period, statistics, saving and resuming: against the definition (tests/oracle.py), against
each other, and against the literature's periods."""

import _thread
import itertools
import random
import threading

import numpy as np
import pytest

from nimbers import _core, _limits
from nimbers.games.heap import HeapGame, grundy_game, octal_game, subtraction_game
from oracle import heap_values

METHODS = {"auto": 0, "exact": 1, "sparse": 2}


def engine_values(digits, n, method="auto", mask=-1, dtype=np.uint8, pieces=1, seed=0):
    """The engine's values, extended in pieces, widening the dtype when a value outgrows it."""
    g = np.zeros(n, dtype=dtype)
    rng = random.Random(seed)
    cuts = sorted({0, n} | {rng.randrange(n) for _ in range(pieces - 1)})
    known = 0
    for stop in cuts[1:]:
        while known < stop:
            known = _core.heap_extend(digits, g, known, stop, mask, METHODS[method])[0]
            if known < stop:
                g = g.astype(np.uint16 if g.dtype == np.uint8 else np.uint32)
    return g.tolist()


def all_codes():
    """Every octal code with one to three digits after the point, first digit 0, and every
    two-digit code with first digit 4 (splitting without taking)."""
    for length in (1, 2, 3):
        for digits in itertools.product(range(8), repeat=length):
            if any(digits):
                yield (0,) + digits
    for digits in itertools.product(range(8), repeat=2):
        yield (4,) + digits


CODES = list(all_codes())


def test_every_short_code_against_the_definition():
    for digits in CODES:
        ref = heap_values(digits, 120)
        for method in METHODS:
            assert engine_values(digits, 120, method, pieces=3) == ref, (digits, method)


def test_every_short_code_methods_agree_on_thousands_of_heaps():
    for digits in CODES:
        exact = engine_values(digits, 1500, "exact", dtype=np.uint32)
        assert engine_values(digits, 1500, "sparse", pieces=2) == exact, digits


def test_longer_codes_against_the_definition():
    for code in ["0.16", "0.56", "0.354", "0.376", "0.6", "0.04", "0.06", "4.07", "0.1337"]:
        digits = [int(c) for c in code.replace(".", "")]
        ref = heap_values(digits, 700)
        for method in METHODS:
            assert engine_values(digits, 700, method) == ref, (code, method)


def test_random_masks_give_the_same_values():
    rng = random.Random(20)
    for _ in range(60):
        length = rng.randrange(1, 5)
        digits = (rng.choice([0, 0, 4]),) + tuple(rng.randrange(8) for _ in range(length))
        if not any(digits[1:]) and not digits[0]:
            continue
        ref = engine_values(digits, 1500, "exact")
        mask = rng.randrange(1, 1 << 10)
        assert engine_values(digits, 1500, "sparse", mask=mask, pieces=3) == ref, (digits, mask)


def test_grundys_game_against_the_definition_and_each_method():
    ref = heap_values(None, 400)
    for method in METHODS:
        assert engine_values(None, 400, method, pieces=2) == ref
    exact = engine_values(None, 6000, "exact")
    assert engine_values(None, 6000, "sparse", pieces=4) == exact
    for mask in (0xfe << 1, (0xfe << 1) | 1, 6, 0x3ff):
        assert engine_values(None, 3000, "sparse", mask=mask) == exact[:3000], mask


def test_values_outgrow_one_byte():
    # 0.04 reaches 256 near heap 9169: the engine stops there and resumes in uint16
    game = octal_game("0.04")
    values = game.nim_values(12000)
    assert values.dtype == np.uint16 and values.max() > 255
    assert values.tolist() == engine_values((0, 0, 4), 12000, "exact", dtype=np.uint32)


def test_three_heap_codes_still_exact():
    for digits in [(0, 8), (0, 15), (4, 8), (0, 11, 4)]:
        ref = engine_values(digits, 120, "exact", dtype=np.uint32)
        assert engine_values(digits, 120, "auto", pieces=3) == ref
    # and against the definition, for one of them
    g = [0] * 40
    for h in range(1, 40):
        opts = {g[h - 1]} if h >= 2 else set()
        opts |= {g[a] ^ g[b] ^ g[h - 1 - a - b] for a in range(1, h) for b in range(1, h - a)
                 if h - 1 - a - b >= 1}
        m = 0
        while m in opts:
            m += 1
        g[h] = m
    assert engine_values((0, 10), 40) == g  # 0.A: take one, leave one or three heaps


def test_sparse_subtraction_sets():
    squares = [k * k for k in range(1, 50)]
    game = subtraction_game(squares)
    g = [0] * 2000
    for h in range(1, 2000):
        opts = {g[h - s] for s in squares if s <= h}
        m = 0
        while m in opts:
            m += 1
        g[h] = m
    assert game.nim_values(2000).tolist() == g


# -- periodicity -------------------------------------------------------------------------------


@pytest.mark.parametrize("code, period, preperiod", [
    ("0.16", 149459, 105351),  # Gangolli & Plambeck 1989; A. Flammenkamp's table
    ("0.56", 144, 326640),     # the same sources
    ("0.77", 12, 71),          # Kayles (OEIS A002186)
])
def test_published_periods_proven_with_the_exact_bound(code, period, preperiod):
    p = octal_game(code).period(max_n=1 << 21)
    t = max(k for k, d in enumerate(int(c) for c in code.replace(".", "")) if d)
    assert (p.period, p.preperiod, p.proven) == (period, preperiod, True)
    assert p.checked_up_to <= 2 * preperiod + 2 * period + t + 16  # no more than needed
    assert "Guy-Smith" in p.theorem


def test_first_digit_four_is_proven_and_true():
    for code in ["4.3", "4.07", "4.7", "4.37", "4.17"]:
        game = octal_game(code)
        p = game.period(max_n=1 << 16)
        assert p.proven, code
        # the proof's claim, checked on four times as many values from scratch
        far = engine_values(game.rules, 4 * p.checked_up_to + 200, "exact", dtype=np.uint32)
        assert all(far[n + p.period] == far[n] for n in range(p.preperiod, len(far) - p.period))
        assert far[p.preperiod - 1 + p.period] != far[p.preperiod - 1] if p.preperiod else True


def test_three_heap_codes_and_grundys_game_never_proven():
    assert not take_break("0.8").period(max_n=500).proven
    assert not grundy_game().period(max_n=4096).proven


def take_break(code):
    from nimbers.games.heap import take_break_game
    return take_break_game(code)


def test_values_by_period_for_any_heap():
    game = octal_game("0.07")  # Dawson's Kayles: period 34 from heap 53
    assert game.period().proven
    fresh = heap_values((0, 0, 7), 600)
    assert game.nim_values(600).tolist() == fresh
    n = 10**18
    assert game.nim_value(n) == fresh[53 + (n - 53) % 34]
    assert game.nim_value([n, n + 1, 5]) == game.nim_value(n) ^ game.nim_value(n + 1) ^ fresh[5]
    move = game.winning_move([n, 7])
    if move is not None:
        i, k, left = move
        heaps = [n, 7]
        rest = heaps[:i] + heaps[i + 1:]
        assert (k, left) in set(game._candidate_moves(heaps[i]))
        assert sum(left) + k == heaps[i]
        assert game.is_losing(rest + list(left))
    assert len(game.nim_values(10**6 + 1)) == 10**6 + 1


# -- statistics, saving, memory, interruption ---------------------------------------------------


def test_statistics_choose_the_mask_with_fewest_rare_positions():
    game = octal_game("0.16")
    s = game.stats(1 << 14)
    g = game.nim_values(1 << 14).tolist()
    assert s.mask == 0x1e and not s.parity  # the literature's mask for 0.16

    def rare(mask, parity):  # heap 0 counted, as the published tables count it
        return [n for n in range(len(g))
                if (bin(g[n] & mask).count("1") + (n & 1 if parity else 0)) % 2 == 0]
    assert s.rare_positions.tolist() == rare(0x1e, False)
    assert s.rare_values.tolist() == [g[n] for n in s.rare_positions.tolist()]
    # no other mask (below 2^6, with or without the parity) has fewer
    counts = [len(rare(m, False)) for m in range(1, 64)]
    assert min(counts) == len(s.rare_positions) == s.rare_count
    assert s.largest == max(g) and g.index(s.largest) == s.largest_at
    assert "rare mask: 1e" in str(s)


def test_statistics_records_are_each_new_largest_value():
    g = grundy_game().nim_values(5000).tolist()
    s = grundy_game().stats(5000)
    expected = [n for n in range(len(g)) if n == 0 or g[n] > max(g[:n])]
    assert s.record_positions.tolist() == expected
    assert s.record_values.tolist() == [g[n] for n in expected]


def test_position_parity_with_odd_splits_is_the_odd_class():
    # T. Czajka, SolvedGames.md: 0.127 "1+pos", 693 rare, the last at 27106 -- rare when
    # g(n) + n is odd (every split of 0.127 removes 3 tokens)
    s = octal_game("0.127").stats(60000)
    g = octal_game("0.127").nim_values(60000).tolist()
    assert s.mask_name == "1+pos"
    assert s.rare_positions.tolist() == [n for n in range(len(g)) if (g[n] + n) % 2 == 1]
    assert (s.rare_count, s.last_rare) == (693, 27106)


def test_grundys_game_statistics_mask():
    s = grundy_game().stats(1 << 14)
    assert s.mask == 0xfe  # A. Flammenkamp's mask for Grundy's game


def test_save_and_resume(tmp_path):
    game = octal_game("0.376")
    head = game.nim_values(5000)
    path = tmp_path / "g376.npy"
    game.save(path)
    again = HeapGame.load(path)
    assert again.nim_values(5000).tolist() == head.tolist()
    assert again.nim_values(9000).tolist() == octal_game("0.376").nim_values(9000).tolist()
    assert np.load(path).tolist() == head.tolist()  # a plain .npy file
    proven = octal_game("0.07")
    proven.period()
    proven.save(tmp_path / "d.npy")
    assert HeapGame.load(tmp_path / "d.npy").nim_value(10**18) == proven.nim_value(10**18)
    with pytest.raises(ValueError, match="no saved state"):
        HeapGame.load(tmp_path / "missing.npy")
    np.save(tmp_path / "bad.npy", np.arange(3, dtype=np.uint8))
    (tmp_path / "bad.npy.json").write_text((tmp_path / "g376.npy.json").read_text())
    with pytest.raises(ValueError, match="do not match"):
        HeapGame.load(tmp_path / "bad.npy")


def test_refuses_what_memory_cannot_hold(monkeypatch):
    # 1 MiB free now: 10^8 one-byte values (95.4 MiB) are refused before they are allocated,
    # whatever the cap, with the size, the memory there is and what to do instead
    monkeypatch.setattr(_limits, "available_memory", lambda: 1 << 20)
    game = octal_game("0.77")
    with pytest.raises(ValueError) as refused:
        game.nim_values(10**8)
    message = str(refused.value)
    assert "100,000,000 values" in message and "95.4 MiB" in message
    assert "more than the 1.0 MiB of memory available now" in message
    assert "prove a period" in message and "\n" not in message
    assert game.nim_values(100).tolist()[:4] == [0, 1, 2, 3]  # small tables still answer


def test_past_the_cap_the_message_says_how_to_raise_it():
    game = octal_game("0.77")
    game.memory_limit = "1M"
    with pytest.raises(ValueError) as refused:
        game.nim_values(10**7)
    message = str(refused.value)
    assert "10,000,000 values" in message and "over the memory cap of 1.0 MiB" in message
    assert "memory_limit" in message and "NIMBERS_MEMORY_LIMIT" in message


def test_bad_arguments():
    game = octal_game("0.77")
    with pytest.raises(ValueError, match="method"):
        game.nim_values(10, method="fast")
    with pytest.raises(ValueError, match="mask"):
        game.nim_values(10, mask=0)
    with pytest.raises(ValueError):
        game.nim_values(-1)
    with pytest.raises(ValueError, match="2\\^32"):
        game.nim_values(2**33)
    with pytest.raises(ValueError):
        _core.heap_extend((0, 7, 7), np.zeros(10, dtype=np.int16), 0, 10, -1, 0)


@pytest.mark.usefixtures("python_sigint")
def test_ctrl_c_stops_a_long_run_and_keeps_the_values():
    game = grundy_game()
    timer = threading.Timer(0.5, _thread.interrupt_main)
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        game.nim_values(1 << 24, progress=False)  # minutes of work
    timer.join()
    known = game._known
    assert 0 < known < 1 << 24
    assert game.nim_values(3000).tolist() == heap_values(None, 3000) if known >= 3000 \
        else True


def test_other_threads_run_during_a_long_run():
    ticks = []
    worker = threading.Thread(target=lambda: grundy_game().nim_values(60000, progress=False))
    worker.start()
    while worker.is_alive():
        ticks.append(1)
        worker.join(0.005)
    assert len(ticks) > 1


def test_arithmetic_periods_of_three_heap_codes():
    # 0.C: take one token and leave two or three heaps, from the definition
    g = [0] * 80
    for h in range(1, 80):
        r = h - 1
        opts = {g[a] ^ g[r - a] for a in range(1, r)}
        opts |= {g[a] ^ g[b] ^ g[r - a - b] for a in range(1, r) for b in range(1, r - a)
                 if r - a - b >= 1}
        m = 0
        while m in opts:
            m += 1
        g[h] = m
    p = take_break("0.C").period(max_n=80)
    assert not p.proven and p.saltus != 0
    assert all(g[n + p.period] == g[n] + p.saltus for n in range(p.preperiod, 80 - p.period))
    assert g[p.preperiod - 1 + p.period] != g[p.preperiod - 1] + p.saltus
    assert "saltus" in str(p) and "not proven" in str(p)


def test_load_refuses_a_broken_state(tmp_path):
    game = octal_game("0.77")
    game.nim_values(50)
    game.save(tmp_path / "k.npy")
    state = tmp_path / "k.npy.json"
    state.write_text(state.read_text().replace('"rules"', '"regles"'))
    with pytest.raises(ValueError, match="not a saved heap game"):
        HeapGame.load(tmp_path / "k.npy")
