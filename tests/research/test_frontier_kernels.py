"""The frontier engine's vector kernels (csrc/core/frontier/simd.c) against a plain reference
on random data, every path this CPU runs, in a small C program built here with the system's C
compiler -- and, where a cross compiler and qemu-user are installed (Debian: gcc-aarch64-linux-gnu,
qemu-user), the portable path built for AArch64 and run under qemu.  The reference marks
bit by bit and compares value by value, sharing nothing with the kernels but their stopping
rule (every 8 pairs, all bits set or the asked bit set) and, for the narrow search, its rule
(32 splits at a time until the wanted bits are set)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

CORE = Path(__file__).resolve().parents[2] / "csrc" / "core" / "frontier"

PROGRAM = r"""
/* Checks the block engine's kernels (frontier/simd.c) against a plain reference on random
 * data: every path this CPU runs.  Built for x86-64 and AArch64 (run under qemu-aarch64). */
#include "simd.c"
#include <stdio.h>
#include <stdlib.h>

static uint64_t rng = 88172645463325252ull;
static uint64_t next(void) { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; return rng; }

int main(void)
{
    enum { NT = 4, ROWW = FR_CSPAN / 64 + CW + 1, NP = 300 };
    uint64_t *rows = malloc(sizeof(uint64_t) * NT * ROWW);
    int bad = 0;
    for (int round = 0; round < 200; round++) {
        for (size_t i = 0; i < (size_t)NT * ROWW; i++)
            rows[i] = next() & next() & next(); /* sparse bits: the early exit seldom fires */
        for (int t = 0; t < NT; t++) /* the copies after the ring's end */
            for (int w = 0; w <= CW; w++)
                rows[t * ROWW + FR_CSPAN / 64 + w] = rows[t * ROWW + w];
        cover_pair list[NP];
        size_t split[2] = {next() % 3, 3 + next() % 3}, nsplit = 1 + round % 2;
        for (int i = 0; i < NP; i++) {
            list[i].a = (uint32_t)(next() % 60000);
            list[i].t = (uint32_t)(next() % NT);
        }
        uint64_t n0 = 1000000 + (next() % 100000) * FR_BLOCK, want[CW] = {0};
        size_t bit = round % 3 ? FR_BLOCK : next() % FR_BLOCK, len = 0;
        for (size_t i = 0; i < NP; i++) { /* the reference, pair by pair, same stopping rule */
            for (size_t k = 0; k < nsplit; k++)
                for (size_t j = 0; j < FR_BLOCK; j++) {
                    uint64_t q = (n0 - split[k] - list[i].a + j) & (FR_CSPAN - 1);
                    if ((rows[list[i].t * ROWW + q / 64] >> (q % 64)) & 1)
                        want[j / 64] |= (uint64_t)1 << (j % 64);
                }
            len = i + 1;
            if ((len & 7) == 0 && cover_done(want, bit))
                break;
        }
        for (int p = 0; p < FR_PATHS; p++) {
            if (!fr_path_supported(p))
                continue;
            uint64_t acc[CW];
            size_t got = KERNELS[p].cover(rows, ROWW, split, nsplit, n0, list, 0, NP, bit, acc);
            if (got != len || memcmp(acc, want, sizeof acc)) {
                printf("cover %s differs (round %d)\n", fr_path_name(p), round);
                bad = 1;
            }
        }
        /* hits: candidates of B positions, NF far parts, partner values */
        static uint16_t cand[K * B], src[2][NP][S];
        static uint8_t ref[K * B], hit[K * B];
        part far[NP];
        const uint16_t *sources[2 * NP];
        size_t nfar = 1 + next() % NP, j0 = S * (next() % (B / S));
        for (size_t i = 0; i < (size_t)K * B; i++)
            cand[i] = (uint16_t)(next() % 512), ref[i] = (uint8_t)(next() & 1);
        for (size_t i = 0; i < nfar; i++) {
            far[i].g = (uint32_t)(next() % 512);
            for (size_t k = 0; k < nsplit; k++) {
                for (size_t j = 0; j < S; j++)
                    src[k][i][j] = (uint16_t)(next() % 512);
                sources[k * nfar + i] = src[k][i];
            }
        }
        int more = round & 1;
        for (int p = 0; p < FR_PATHS; p++) {
            if (!fr_path_supported(p))
                continue;
            memcpy(hit, ref, sizeof hit);
            KERNELS[p].hits(cand, hit, j0, far, nfar, nsplit, sources, more);
            for (size_t c = 0; c < K; c++)
                for (size_t j = j0; j < j0 + S; j++) {
                    int r = more && ref[c * B + j];
                    for (size_t k = 0; k < nsplit; k++)
                        for (size_t i = 0; i < nfar; i++)
                            r |= (uint16_t)(src[k][i][j - j0] ^ far[i].g) == cand[c * B + j];
                    if (hit[c * B + j] != r) {
                        printf("hits %s differs (round %d)\n", fr_path_name(p), round);
                        bad = 1;
                        c = K;
                        break;
                    }
                }
        }
        /* narrow steps: marks of FR_NG positions by pairs, the search 32 splits at a time */
        static uint16_t vals[NP][FR_NG + 64], xs[1024], ys[3][1024];
        const uint16_t *srcs[NP];
        uint8_t gv[NP];
        size_t npairs = next() % NP, j = next() % 64;
        uint64_t mref[FR_NG] = {0}, seed[FR_NG];
        for (size_t i = 0; i < npairs; i++) {
            gv[i] = (uint8_t)(next() % 64);
            for (size_t t = 0; t < FR_NG + 64; t++)
                vals[i][t] = (uint16_t)(next() % 64);
            srcs[i] = vals[i];
        }
        for (size_t t = 0; t < FR_NG; t++) {
            seed[t] = next() & next();
            mref[t] = seed[t];
            for (size_t i = 0; i < npairs; i++)
                mref[t] |= (uint64_t)1 << (gv[i] ^ vals[i][j + t]);
        }
        for (size_t i = 0; i < 1024; i++) {
            xs[i] = (uint16_t)(next() % 64);
            for (size_t k = 0; k < 3; k++)
                ys[k][i] = (uint16_t)(next() % 64);
        }
        const uint16_t *yk[3] = {ys[0] + 1023, ys[1] + 1023, ys[2] + 1023};
        uint64_t wanted = next() & next() & next(), row0 = next() & next(), rref = row0;
        size_t limit = 32 * (next() % 33), aref = 1 + 32 * (next() % 4), ns = 1 + next() % 3;
        size_t a0 = aref;
        for (; (wanted & ~rref) && aref + 32 <= limit; aref += 32)
            for (size_t k = 0; k < ns; k++)
                for (size_t i = 0; i < 32; i++)
                    rref |= (uint64_t)1 << (xs[1023 - aref + i] ^ yk[k][i - aref]);
        for (int p = 0; p < FR_PATHS; p++) {
            if (!fr_path_supported(p))
                continue;
            uint64_t acc[FR_NG];
            memcpy(acc, seed, sizeof acc);
            KERNELS[p].narrow_marks(acc, srcs, gv, npairs, j);
            size_t a = a0;
            uint64_t row = KERNELS[p].narrow_search(xs + 1023, yk, ns, row0, wanted, limit, &a);
            if (memcmp(acc, mref, sizeof acc) || row != rref || a != aref) {
                printf("narrow %s differs (round %d)\n", fr_path_name(p), round);
                bad = 1;
            }
        }
    }
    for (int p = 0; p < FR_PATHS; p++)
        printf("%s%s", p ? ", " : "paths checked: ", fr_path_supported(p) ? fr_path_name(p) : "-");
    printf("\n%s\n", bad ? "DIFFERENCES" : "all equal to the reference");
    free(rows);
    return bad;
}
"""


def build_and_run(tmp_path: Path, cc: str, flags: list[str], runner: list[str]) -> str:
    source = tmp_path / "kernels.c"
    source.write_text(PROGRAM)
    binary = tmp_path / "kernels"
    subprocess.run([cc, "-O2", "-std=c11", *flags, f"-I{CORE}", "-o", str(binary),
                    str(source)], check=True, capture_output=True, timeout=120)
    done = subprocess.run([*runner, str(binary)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


@pytest.mark.skipif(not CORE.is_dir() or not shutil.which("cc"),
                    reason="needs the C sources and a C compiler")
def test_every_path_here_equals_the_reference(tmp_path: Path) -> None:
    out = build_and_run(tmp_path, "cc", [], [])
    assert "all equal to the reference" in out and "portable" in out


@pytest.mark.skipif(not CORE.is_dir() or not shutil.which("aarch64-linux-gnu-gcc")
                    or not shutil.which("qemu-aarch64"),
                    reason="needs gcc-aarch64-linux-gnu and qemu-user")
def test_the_portable_path_on_aarch64(tmp_path: Path) -> None:
    out = build_and_run(tmp_path, "aarch64-linux-gnu-gcc", ["-static"], ["qemu-aarch64"])
    assert "paths checked: portable, -, -" in out and "all equal to the reference" in out
