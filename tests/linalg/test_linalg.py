"""Linear algebra over the nim field: identities, brute-force permanents, both paths, errors."""

import random

import numpy as np
import pytest

from nimbers import nim_mul
from nimbers.linalg import (LinAlgError, det, inv, matmul, nullspace, permanent, rank,
                            row_reduce, solve)
from oracle import brute_permanent, fermat_mul


def rand_matrix(rng, r, c, bits):
    return [[rng.getrandbits(bits) for _ in range(c)] for _ in range(r)]


def slow_matmul(a, b):
    out = []
    for row in a:
        new = []
        for j in range(len(b[0])):
            acc = 0
            for k, x in enumerate(row):
                acc ^= fermat_mul(x, b[k][j])
            new.append(acc)
        out.append(new)
    return out


@pytest.mark.parametrize("n", range(1, 8))
@pytest.mark.parametrize("bits", [8, 64, 128])
def test_permanent_against_brute_force(n, bits, kernel):
    rng = random.Random(n * 1000 + bits)
    m = rand_matrix(rng, n, n, bits)
    assert permanent(m) == det(m) == brute_permanent(m)
    if bits <= 64:
        assert det(np.array(m, dtype=np.uint64)) == brute_permanent(m)


@pytest.mark.parametrize("bits", [16, 64, 128, 256])
def test_identities(bits, kernel):
    rng = random.Random(bits)
    n = 12
    a, b = rand_matrix(rng, n, n, bits), rand_matrix(rng, n, n, bits)
    ab = matmul(a, b)
    assert ab.tolist() == slow_matmul(a, b)
    assert det(ab) == nim_mul(det(a), det(b))
    ai = inv(a)
    eye = [[int(i == j) for j in range(n)] for i in range(n)]
    assert matmul(a, ai).tolist() == eye and matmul(ai, a).tolist() == eye
    x = [rng.getrandbits(bits) for _ in range(n)]
    rhs = [row[0] for row in slow_matmul(a, [[v] for v in x])]
    assert solve(a, rhs).tolist() == x
    X = rand_matrix(rng, n, 3, bits)
    assert solve(a, slow_matmul(a, X)).tolist() == X


def test_triangular_det_is_diagonal_product():
    rng = random.Random(5)
    n = 10
    m = rand_matrix(rng, n, n, 64)
    for i in range(n):
        for j in range(i):
            m[i][j] = 0
    prod = 1
    for i in range(n):
        prod = fermat_mul(prod, m[i][i])
    assert det(m) == prod


def test_row_swap_does_not_change_sign():
    assert det([[0, 1], [1, 0]]) == 1
    assert det([[0, 0, 1], [0, 1, 0], [1, 0, 0]]) == 1


def test_rank_nullity_and_rref():
    rng = random.Random(9)
    for r, c, k in [(6, 9, 4), (9, 6, 3), (7, 7, 7), (5, 5, 1)]:
        left, right = rand_matrix(rng, r, k, 64), rand_matrix(rng, k, c, 64)
        m = slow_matmul(left, right)  # rank at most k
        rk = rank(m)
        basis = nullspace(m)
        assert rk <= k and rk + len(basis) == c
        for v in basis.tolist():
            assert all(x == 0 for row in slow_matmul(m, [[x] for x in v]) for x in row)
        R, pivots = row_reduce(m)
        assert len(pivots) == rk
        for i, p in enumerate(pivots):
            assert R[i][p] == 1 and all(R[j][p] == 0 for j in range(len(R)) if j != i)


def test_big_entries_and_paths():
    rng = random.Random(2)
    m = rand_matrix(rng, 6, 6, 64)
    as_np = det(np.array(m, dtype=np.uint64))
    assert det(m) == as_np == det(np.array(m, dtype=object))
    assert isinstance(inv(m)[0, 0], int)
    assert inv(np.array(m, dtype=np.uint64)).dtype == np.uint64
    mixed = [[2**100, 1], [3, 2**64]]
    assert det(mixed) == fermat_mul(2**100, 2**64) ^ 3


def test_singular_and_inconsistent():
    with pytest.raises(LinAlgError, match="singular"):
        inv([[1, 2], [2, 3]])
    with pytest.raises(LinAlgError, match="inconsistent"):
        solve([[1, 2], [2, 3]], [5, 11])
    with pytest.raises(LinAlgError, match="singular"):
        solve([[1, 2], [2, 3]], [1, 2])
    assert det([[1, 2], [2, 3]]) == 0
    assert issubclass(LinAlgError, ValueError)


def test_bad_input():
    with pytest.raises(ValueError, match="square"):
        det([[1, 2, 3], [4, 5, 6]])
    with pytest.raises(ValueError, match="square"):
        inv([[1, 2]])
    with pytest.raises(ValueError, match="negative"):
        det(np.array([[1, -2], [3, 4]]))
    with pytest.raises(ValueError, match="negative"):
        det([[1, -2], [3, 4]])
    with pytest.raises(TypeError):
        det(np.array([[1.0, 2.0], [3.0, 4.0]]))
    with pytest.raises(TypeError):
        det([[1, "2"], [3, 4]])
    with pytest.raises(ValueError):
        det([[1, 2], [3]])
    with pytest.raises(ValueError):
        matmul([[1, 2]], [[1, 2]])
    with pytest.raises(ValueError):
        det(np.zeros((2, 2, 2), dtype=np.uint64))


def test_empty():
    assert det(np.zeros((0, 0), dtype=np.uint64)) == 1
    assert det([]) == 1
    assert rank(np.zeros((0, 3), dtype=np.uint64)) == 0
    assert inv(np.zeros((0, 0), dtype=np.uint64)).shape == (0, 0)


def test_cli_matrix_files(tmp_path, capsys):
    from nimbers.cli import main
    a = tmp_path / "a.txt"
    a.write_text("1 2\n0x3 4\n")
    b = tmp_path / "b.txt"
    b.write_text("5\n11\n")
    assert main(["det", str(a)]) == 0 and capsys.readouterr().out.strip() == "5"
    assert main(["rank", str(a)]) == 0 and capsys.readouterr().out.strip() == "2"
    assert main(["solve", str(a), str(b)]) == 0 and capsys.readouterr().out.split() == ["3", "13"]
    for text, where in [("1 2\n3\n", "row 2"), ("1 -2\n3 4\n", "row 1, column 2"),
                        ("1 z\n", "column 2"), ("", "empty")]:
        bad = tmp_path / "bad.txt"
        bad.write_text(text)
        assert main(["det", str(bad)]) == 2
        err = capsys.readouterr().err
        assert where in err and len(err.strip().splitlines()) == 1
