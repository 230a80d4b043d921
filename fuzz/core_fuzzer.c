/*
 * core_fuzzer.c -- libFuzzer harness for the C core's frontier engine (csrc/core/frontier/:
 * the public fr_* API) and the misère quotient walks (quotient.c: mq_mark_p, mq_n_failure,
 * mq_refine), linked straight to csrc/core/ (no Python), built with clang's
 * -fsanitize=fuzzer (coverage feedback from every branch of the core), address and undefined
 * (fuzz/run_all.sh builds it when clang is there).  By hand:
 *
 *     clang -g -O1 -fsanitize=fuzzer,address,undefined -Icsrc/core fuzz/core_fuzzer.c \
 *         csrc/core/frontier/[a-z]*.c csrc/core/sparse.c csrc/core/quotient.c -lpthread \
 *         -o fuzz/build/core_fuzzer
 *     fuzz/build/core_fuzzer -max_total_time=60 fuzz/build/corpus
 *
 * Every answer is checked, not only survived:
 *   frontier -- random take-and-break rules (moves leaving at most two heaps, or three to
 *     see them refused; Grundy's game), threads, head and window sizes, masks (with parity
 *     bits the rules may not allow, changed mid-run), a prefix fed as a resumed run feeds it,
 *     steps of random lengths, past the window so that old values come back from the file:
 *     each value against the mex definition computed here;
 *   quotient -- random tables (indices past the end too), cyclic factors, generators and
 *     options: mq_refine's classes against the definition (two states share a class exactly
 *     when every word of length < n gives the same output), mq_mark_p's lex-least positions
 *     (each reached element after its parent), mq_n_failure's exponents within range.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "frontier/frontier.h"
#include "quotient.h"

typedef struct {
    const uint8_t *data;
    size_t size, at;
} reader;

static unsigned take(reader *r) /* one byte, 0 past the end */
{
    return r->at < r->size ? r->data[r->at++] : 0;
}

static unsigned take16(reader *r)
{
    unsigned hi = take(r);
    return hi << 8 | take(r);
}

#define CHECK(cond)                                                                           \
    do {                                                                                      \
        if (!(cond)) {                                                                        \
            fprintf(stderr, "core_fuzzer: check failed: %s (line %d)\n", #cond, __LINE__);    \
            abort();                                                                          \
        }                                                                                     \
    } while (0)

/* ---- the frontier engine -------------------------------------------------------------------- */

/* g(0..n) of the rules (NULL: Grundy's game) from the definition: the mex of the options. */
static uint16_t *mex_values(const unsigned *rules, size_t nrules, size_t n)
{
    uint16_t *g = calloc(n + 1, sizeof *g);
    uint8_t *seen = malloc(1 << 16);
    size_t top = 2; /* a power of two above every value so far: options' values lie below */
    for (size_t h = 1; g && seen && h <= n; h++) {
        memset(seen, 0, top + 1);
        for (size_t k = 0; k <= h && k < (rules ? nrules : 1); k++) {
            unsigned d = rules ? rules[k] : 4;
            size_t rest = h - k;
            if ((d & 1) && rest == 0 && k)
                seen[0] = 1;
            if ((d & 2) && rest && k)
                seen[g[rest]] = 1;
            for (size_t a = 1; (d & 4) && 2 * a <= rest; a++)
                if (rules || 2 * a < rest)
                    seen[g[a] ^ g[rest - a]] = 1;
        }
        while (seen[g[h]])
            g[h]++;
        while (g[h] >= top / 2 && top < (1 << 15))
            top *= 2;
    }
    free(seen);
    return g;
}

static void append(int fd, const uint16_t *v, size_t n, size_t at)
{
    CHECK(pwrite(fd, v, n * sizeof *v, (off_t)(at * sizeof *v)) == (ssize_t)(n * sizeof *v));
}

/* Steps the engine to n values in random steps, checking each against g; returns how many. */
static size_t run_steps(reader *r, fr_state *s, int fd, const uint16_t *g, size_t done, size_t n)
{
    uint16_t *out = malloc(4096 * sizeof *out);
    while (out && done < n) {
        if (take(r) == 0xff) /* a new mask mid-run: the rare list rebuilt from every value */
            if (fr_set_mask(s, take16(r), NULL) != NC_OK)
                break;
        size_t want = 1 + take16(r) % 4096, made = 0;
        if (want > n - done)
            want = n - done;
        int rc = fr_step(s, want, out, &made, NULL);
        CHECK(rc == NC_OK && made <= want);
        for (size_t i = 0; i < made; i++)
            CHECK(out[i] == g[done + i]);
        append(fd, out, made, done);
        done += made;
        if (!made)
            break;
    }
    free(out);
    return done;
}

static void fuzz_frontier(reader *r)
{
    unsigned rules[8];
    size_t nrules = 1 + take(r) % 6;
    int grundy = take(r) % 8 == 0, three = 0, split = 0;
    for (size_t k = 0; k < nrules; k++) {
        unsigned digit = take(r), width = take(r) % 16 == 0 ? 15 : 7; /* 8: three heaps */
        rules[k] = digit & width & (k ? 15u : 12u); /* no null move: d0 is 0, 4 or 8 */
        three |= (rules[k] & 8) != 0;
        split |= (rules[k] & 4) != 0;
    }
    /* past the window (4096 values) one time in 256, so that old values come back from the
     * file: 1 to 24 s a run under the sanitizers (Grundy's game 15 s: not taken that far) */
    size_t n = take(r) == 0xff && !grundy ? 4097 + take(r) % 64 : take16(r) % 400;
    fr_state *s = fr_new(grundy ? NULL : rules, nrules, 1 + take(r) % 2, take16(r) % 400,
                         take(r) * 64u);
    if (!grundy && (three || !split)) {
        CHECK(s == NULL); /* refused: not the sparse space's game */
        return;
    }
    CHECK(s != NULL);
    int fd = memfd_create("values", 0);
    uint16_t *g = mex_values(grundy ? NULL : rules, nrules, n);
    CHECK(fd >= 0 && g);
    fr_set_file(s, fd, 2);
    size_t fed = n ? take(r) % (n < 300 ? n : 300) : 0;
    CHECK(fr_feed(s, g, fed) == NC_OK);
    append(fd, g, fed, 0);
    uint32_t emask = take16(r);
    int rc = fr_set_mask(s, emask, NULL);
    CHECK(rc == NC_OK || (rc == NC_BADARG && (emask & 1)));
    if (rc == NC_OK) {
        size_t done = run_steps(r, s, fd, g, fed, n);
        fr_info info;
        fr_get_info(s, &info);
        CHECK(info.done == done && info.last_rare < done + 1);
    }
    free(g);
    close(fd);
    fr_free(s);
}

/* ---- the quotient walks -------------------------------------------------------------------- */

/* Whether states a and b give the same output after every word of length below len. */
static int same_outputs(const int32_t *delta, size_t ng, size_t n, const uint8_t *out,
                        size_t a, size_t b, size_t len)
{
    if (out[a] != out[b])
        return 0;
    for (size_t i = 0; len > 1 && i < ng; i++)
        if (!same_outputs(delta, ng, n, out, (size_t)delta[i * n + a],
                          (size_t)delta[i * n + b], len - 1))
            return 0;
    return 1;
}

static void fuzz_refine(reader *r)
{
    size_t n = 1 + take(r) % 7, ng = take(r) % 3;
    int32_t delta[3 * 7], cls[7];
    uint8_t out[7];
    int in_range = 1;
    for (size_t i = 0; i < ng * n; i++) {
        int32_t target = (int32_t)(take(r) % (n + 1)); /* n: past the end */
        delta[i] = take(r) == 0xff ? -1 : target;
        in_range &= delta[i] >= 0 && (size_t)delta[i] < n;
    }
    for (size_t s = 0; s < n; s++)
        out[s] = take(r) & 1;
    size_t count = 0;
    int rc = mq_refine(delta, ng, n, out, cls, &count, NULL);
    CHECK(rc == (in_range ? NC_OK : NC_BADARG));
    for (size_t a = 0; rc == NC_OK && a < n; a++)
        for (size_t b = 0; b < n; b++)
            CHECK((cls[a] == cls[b]) == same_outputs(delta, ng, n, out, a, b, n));
}

typedef struct {
    int32_t mul[64], gen[4], opt[16], index[2], period[2];
    int64_t opt_start[5];
    size_t m0, m, ng, nopt;
    mq_monoid M;
} candidate;

static void read_candidate(reader *r, candidate *c)
{
    c->m0 = 1 + take(r) % 8;
    c->M.ncycles = take(r) % 3;
    c->m = c->m0;
    for (size_t i = 0; i < c->M.ncycles; i++) {
        c->index[i] = (int32_t)(take(r) % 3);
        c->period[i] = (int32_t)(take(r) % 3);
        c->m *= (size_t)(c->index[i] + c->period[i]);
    }
    for (size_t i = 0; i < c->m0 * c->m0; i++) {
        unsigned past = take(r) == 0xff; /* an index past the end, now and then */
        c->mul[i] = (int32_t)(take(r) % (c->m0 + past));
    }
    c->ng = take(r) % 5;
    c->nopt = 0;
    c->opt_start[0] = 0;
    for (size_t i = 0; i < c->ng; i++) {
        c->gen[i] = (int32_t)(take(r) % (c->m + 1));
        for (unsigned k = take(r) % 5; k && c->nopt < 16; k--)
            c->opt[c->nopt++] = (int32_t)(take(r) % (c->m + 1));
        c->opt_start[i + 1] = (int64_t)c->nopt;
    }
    c->M.mul = c->mul;
    c->M.m0 = c->m0;
    c->M.index = c->index;
    c->M.period = c->period;
}

static void fuzz_quotient(reader *r)
{
    candidate c;
    read_candidate(r, &c);
    size_t m = c.m ? c.m : 1, reached = 0, states = 0;
    uint8_t *p = calloc(m, 1);
    int32_t *parent = calloc(m, sizeof *parent), *via = calloc(m, sizeof *via);
    int32_t *order = calloc(m, sizeof *order);
    CHECK(p && parent && via && order);
    int rc = mq_mark_p(&c.M, c.gen, c.ng, c.opt_start, c.opt, c.nopt, p, parent, via, order,
                       &reached, NULL);
    CHECK(rc == NC_OK || rc == NC_BADARG);
    if (rc == NC_OK) {
        CHECK(reached >= 1 && reached <= c.m && order[0] == 0);
        for (size_t k = 1; k < reached; k++) {
            CHECK(order[k] >= 0 && (size_t)order[k] < c.m && (size_t)via[order[k]] < c.ng);
            int earlier = 0;
            for (size_t j = 0; j < k; j++)
                earlier |= order[j] == parent[order[k]];
            CHECK(earlier);
        }
    }
    if (c.M.ncycles == 0) { /* the table alone: the N-failure search */
        uint32_t exps[4] = {0};
        int found = 0;
        rc = mq_n_failure(c.mul, c.m0, p, c.gen, c.ng, c.opt_start, c.opt, c.nopt,
                          1 + take(r) % 64, exps, &found, &states, NULL);
        CHECK(rc == NC_OK || rc == NC_BADARG);
        CHECK(rc != NC_OK || found == -1 || found == 0 || found == 1);
    }
    free(p);
    free(parent);
    free(via);
    free(order);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    reader r = {data, size, 0};
    switch (take(&r) % 3) {
    case 0:
        fuzz_frontier(&r);
        break;
    case 1:
        fuzz_quotient(&r);
        break;
    default:
        fuzz_refine(&r);
    }
    return 0;
}
