/*
 * officers_proof.c -- a probe, not part of nimbers: what a per-position proof of the values of
 * rare class would cost (benchmarks/README.md, "Officers: a last look").
 *
 * A heap size n's value is its least unmarked common value c, unless a value of rare class
 * below c is reached by no split a + (n - 1 - a) (two common parts: the sparse space of
 * Gangolli and Plambeck).  The frontier engine proves those values a block of positions at a
 * time (frontier/cover.c).  This probe proves them position by position instead, 32 splits at
 * a time against every value still pending, and prints
 *   1. how many values of rare class below g(n) the first 64 .. 16,384 splits leave unreached;
 *   2. the nanoseconds a position of two kernels that prove them all from the splits
 *      FIRST .. LIMIT (after the first 192, which the engine's parts mark anyway):
 *        compare: one 16-bit compare of the 32 splits per value still pending;
 *        table:   the pending values as a 512-bit table, each split looked up (vpermw, vpsrlvw).
 * Only games whose values stay below 512 and whose split removes one token (0.6, Officers).
 *
 *   cc -O2 -march=native -o /tmp/officers_proof benchmarks/probes/officers_proof.c
 *   nimbers heap 0.6 --frontier --until 2^23 --checkpoint /tmp/off
 *   /tmp/officers_proof /tmp/off/values16.bin 494     # 494 = 0x1ee, Officers' mask
 *
 * Needs AVX-512 F and BW.  The values to prove are made before the clock starts.
 */
#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { FIRST = 193, LIMIT = 8192, HEAD = 1 << 15, SPAN = 1 << 16, MAXV = 512, MAXP = 64 };

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int rare_class(unsigned v, unsigned mask)
{
    return (__builtin_popcount(v & mask) & 1) == 0;
}

/* The values of rare class below g(n) that no split with smaller part below FIRST reaches. */
static int pending_of(const uint16_t *g, size_t n, unsigned mask, uint16_t *out)
{
    uint8_t row[MAXV] = {0};
    size_t total = n - 1;
    for (size_t a = 1; a < FIRST; a++)
        row[g[a] ^ g[total - a]] = 1;
    int k = 0;
    for (unsigned v = 0; v < g[n] && k < MAXP; v++)
        if (rare_class(v, mask) && !row[v])
            out[k++] = (uint16_t)v;
    return k;
}

/* Lanes j of one chunk: split a = a0 + 31 - j, its partner total - a (rev[i] = g(HEAD-1-i)). */
static __m512i chunk(const uint16_t *g, const uint16_t *rev, size_t total, size_t a0)
{
    __m512i x = _mm512_loadu_si512((const void *)(rev + (HEAD - 1 - (a0 + 31))));
    __m512i y = _mm512_loadu_si512((const void *)(g + (total - a0 - 31)));
    return _mm512_xor_si512(x, y);
}

static int prove_compare(const uint16_t *g, const uint16_t *rev, size_t n, uint16_t *pv, int k)
{
    for (size_t a0 = FIRST; k && a0 + 32 <= LIMIT; a0 += 32) {
        __m512i z = chunk(g, rev, n - 1, a0);
        for (int i = 0; i < k;)
            if (_mm512_cmpeq_epi16_mask(z, _mm512_set1_epi16((short)pv[i])))
                pv[i] = pv[--k];
            else
                i++;
    }
    return k;
}

static int prove_table(const uint16_t *g, const uint16_t *rev, size_t n, const uint16_t *pv, int k)
{
    uint16_t tab[32] = {0};
    for (int i = 0; i < k; i++)
        tab[pv[i] >> 4] |= (uint16_t)(1u << (pv[i] & 15));
    __m512i t = _mm512_loadu_si512((const void *)tab);
    const __m512i low4 = _mm512_set1_epi16(15), one = _mm512_set1_epi16(1);
    for (size_t a0 = FIRST; k && a0 + 32 <= LIMIT; a0 += 32) {
        __m512i z = chunk(g, rev, n - 1, a0);
        __m512i w = _mm512_permutexvar_epi16(_mm512_srli_epi16(z, 4), t);
        __mmask32 hit = _mm512_test_epi16_mask(_mm512_srlv_epi16(w, _mm512_and_si512(z, low4)), one);
        if (!hit)
            continue;
        uint16_t zz[32];
        _mm512_storeu_si512((void *)zz, z);
        do {
            unsigned v = zz[__builtin_ctz(hit)];
            hit &= hit - 1;
            unsigned bit = (unsigned)(tab[v >> 4] >> (v & 15)) & 1;
            tab[v >> 4] &= (uint16_t)~(bit << (v & 15));
            k -= (int)bit;
            t = _mm512_andnot_si512(
                _mm512_maskz_set1_epi16((__mmask32)1u << (v >> 4), (short)(1u << (v & 15))), t);
        } while (hit);
    }
    return k;
}

static void count_unreached(const uint16_t *g, size_t nvalues, unsigned mask)
{
    static const size_t upto[] = {64, 256, 1024, 4096, 16384};
    double unreached[5] = {0};
    int samples = 300;
    srand(1);
    for (int s = 0; s < samples; s++) {
        size_t n = nvalues - 1 - (size_t)rand() % ((size_t)1 << 20), total = n - 1;
        static size_t first[MAXV]; /* the least a reaching each value, 0 if none */
        for (unsigned v = 0; v < MAXV; v++)
            first[v] = 0;
        for (size_t a = total / 2; a >= 1; a--)
            first[g[a] ^ g[total - a]] = a;
        for (unsigned v = 0; v < g[n]; v++)
            for (int i = 0; i < 5 && rare_class(v, mask); i++)
                unreached[i] += !first[v] || first[v] > upto[i];
    }
    printf("splits from a = 1:");
    for (int i = 0; i < 5; i++)
        printf(" %zu: %.2f", upto[i], unreached[i] / samples);
    printf(" (values of rare class below g(n) not yet reached, %d positions)\n", samples);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: officers_proof VALUES16.BIN MASK\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    if (!f) {
        perror(argv[1]);
        return 2;
    }
    fseek(f, 0, SEEK_END);
    size_t nvalues = (size_t)ftell(f) / 2;
    fseek(f, 0, SEEK_SET);
    uint16_t *g = malloc(nvalues * 2);
    unsigned mask = (unsigned)strtoul(argv[2], NULL, 0);
    if (!g || fread(g, 2, nvalues, f) != nvalues || nvalues < ((size_t)1 << 21)) {
        fprintf(stderr, "officers_proof: could not read 2^21 values or more\n");
        return 2;
    }
    fclose(f);
    for (size_t i = 0; i < nvalues; i++)
        if (g[i] >= MAXV) {
            fprintf(stderr, "officers_proof: a value of %u (512 or more)\n", g[i]);
            return 2;
        }
    count_unreached(g, nvalues, mask);
    static uint16_t rev[HEAD], pend[SPAN][MAXP];
    static int npend[SPAN];
    for (size_t i = 0; i < HEAD; i++)
        rev[i] = g[HEAD - 1 - i];
    double seconds[2] = {0, 0}, pending = 0, left[2] = {0, 0};
    size_t positions = (size_t)1 << 20;
    for (size_t base = nvalues - positions; base < nvalues; base += SPAN) {
        for (int kind = 0; kind < 2; kind++) {
            for (size_t n = base; n < base + SPAN; n++) {
                npend[n - base] = pending_of(g, n, mask, pend[n - base]);
                pending += kind == 0 ? npend[n - base] : 0;
            }
            double t0 = now();
            for (size_t n = base; n < base + SPAN; n++)
                left[kind] += kind == 0 ? prove_compare(g, rev, n, pend[n - base], npend[n - base])
                                        : prove_table(g, rev, n, pend[n - base], npend[n - base]);
            seconds[kind] += now() - t0;
        }
    }
    printf("pending after the first %d splits: %.1f a position\n", FIRST - 1, pending / positions);
    printf("compare: %.0f ns a position, %.4f left after %d splits\n", seconds[0] * 1e9 / positions,
           left[0] / positions, LIMIT);
    printf("table:   %.0f ns a position, %.4f left after %d splits\n", seconds[1] * 1e9 / positions,
           left[1] / positions, LIMIT);
    return 0;
}
