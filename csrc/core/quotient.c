/*
 * quotient.c -- the hot loops of the misère quotient construction (see quotient.h and
 * src/nimbers/games/quotient/verify.py, which states the mathematics).
 *
 * Both loops walk the positions in MisereSolver's lex order without recursion.  A frame is a
 * loop over the exponent of one generator ("level"), started from a node (a position met
 * first) and stepping while each step reaches something new; when it stops, the frame moves
 * to the next smaller level until it reaches its node's own level, so the loops of a node
 * run from the last generator (the smallest heap) up, exactly as nested loops would.  The
 * data a frame steps (a list of option elements, or a bit set W) live in a stack-shaped
 * arena: a frame's base is its parent's current data, and its own current data sit on top.
 */
#include "quotient.h"

#include <stdlib.h>
#include <string.h>

#define POLL_EVERY 4096u

/* Every generator and option element below m; opt_start non-decreasing from 0 up to at
 * most nopt (the length of opt). */
static int valid_options(size_t m, const int32_t *gen, size_t ng, const int64_t *opt_start,
                         const int32_t *opt, size_t nopt)
{
    if (opt_start[0] != 0)
        return 0;
    for (size_t i = 0; i < ng; i++) {
        if (gen[i] < 0 || (size_t)gen[i] >= m || opt_start[i + 1] < opt_start[i] ||
            (uint64_t)opt_start[i + 1] > (uint64_t)nopt)
            return 0;
        for (int64_t k = opt_start[i]; k < opt_start[i + 1]; k++)
            if (opt[k] < 0 || (size_t)opt[k] >= m)
                return 0;
    }
    return 1;
}

/* The number of elements of M, or 0 when a factor is malformed or it does not fit in an
 * int32; also checks the table's entries. */
static size_t monoid_size(const mq_monoid *M)
{
    if (M->m0 == 0 || M->m0 > (size_t)INT32_MAX)
        return 0;
    for (size_t i = 0; i < M->m0 * M->m0; i++)
        if (M->mul[i] < 0 || (size_t)M->mul[i] >= M->m0)
            return 0;
    size_t m = M->m0;
    for (size_t j = 0; j < M->ncycles; j++) {
        if (M->index[j] < 0 || M->period[j] < 1 || M->index[j] > INT32_MAX - M->period[j])
            return 0;
        size_t c = (size_t)M->index[j] + (size_t)M->period[j];
        if (m > (size_t)INT32_MAX / c)
            return 0;
        m *= c;
    }
    return m;
}

/* a b in M (both below its size). */
static inline int32_t product(const mq_monoid *M, int32_t a, int32_t b)
{
    size_t m0 = M->m0, x = (size_t)a, y = (size_t)b;
    if (!M->ncycles)
        return M->mul[x * m0 + y];
    size_t out = (size_t)M->mul[(x % m0) * m0 + y % m0], scale = m0;
    x /= m0;
    y /= m0;
    for (size_t j = 0; j < M->ncycles; j++) {
        size_t i = (size_t)M->index[j], p = (size_t)M->period[j], c = i + p;
        size_t k = x % c + y % c;
        if (k >= c)
            k = i + (k - i) % p;
        out += k * scale;
        scale *= c;
        x /= c;
        y /= c;
    }
    return (int32_t)out;
}

/* A growable stack of T, in units of T. */
typedef struct {
    void *data;
    size_t top, cap, size;
} arena;

static int reserve(arena *a, size_t more)
{
    if (a->top + more <= a->cap)
        return 1;
    size_t cap = a->cap ? a->cap : 1024;
    while (cap < a->top + more)
        cap *= 2;
    void *d = realloc(a->data, cap * a->size);
    if (!d)
        return 0;
    a->data = d;
    a->cap = cap;
    return 1;
}

typedef struct {
    long level, stop;         /* the level stepped now; the node's own level (loops above it) */
    int32_t e0, e;            /* the node's element, and the current one */
    uint32_t count;           /* steps taken at this level */
    size_t base, cur, len;    /* arena offsets: the node's data, the current data; list length */
} frame;

static int push_frame(frame **fs, size_t *n, size_t *cap, frame f)
{
    if (*n == *cap) {
        size_t c = *cap ? 2 * *cap : 64;
        frame *d = (frame *)realloc(*fs, c * sizeof(frame));
        if (!d)
            return 0;
        *fs = d;
        *cap = c;
    }
    (*fs)[(*n)++] = f;
    return 1;
}

/* ---- mq_mark_p ------------------------------------------------------------------------- */

int mq_mark_p(const mq_monoid *M, const int32_t *gen, size_t ng,
              const int64_t *opt_start, const int32_t *opt, size_t nopt, uint8_t *p,
              int32_t *parent, int32_t *via, int32_t *order, size_t *reached,
              const nc_poll *poll)
{
    *reached = 0;
    size_t m = monoid_size(M);
    if (!m || !valid_options(m, gen, ng, opt_start, opt, nopt))
        return NC_BADARG;
    uint8_t *seen = (uint8_t *)calloc(m, 1);
    uint32_t *stamp = (uint32_t *)calloc(m, sizeof(uint32_t));
    arena lists = {NULL, 0, 0, sizeof(int32_t)};
    frame *fs = NULL;
    size_t nf = 0, fcap = 0, steps = 0;
    uint32_t now = 0;
    int status = NC_OK;
    memset(p, 0, m);
    if (!seen || !stamp)
        goto nomem;
    seen[0] = 1;                                  /* the empty position: no move, N */
    parent[0] = via[0] = -1;
    order[(*reached)++] = 0;
    if (ng && !push_frame(&fs, &nf, &fcap, (frame){(long)ng - 1, -1, 0, 0, 0, 0, 0, 0}))
        goto nomem;
    while (nf) {
        frame *f = &fs[nf - 1];
        if (++steps % POLL_EVERY == 0 && nc_should_stop(poll)) {
            status = NC_STOPPED;
            break;
        }
        int32_t g = gen[f->level];
        int32_t e = product(M, f->e, g);
        if (seen[e]) {                            /* this level's loop ends */
            if (f->level - 1 > f->stop) {
                size_t base_len = f == fs ? 0 : fs[nf - 2].len;
                f->level--;
                f->e = f->e0;
                lists.top = f->cur;
                if (!reserve(&lists, base_len))
                    goto nomem;
                if (base_len) /* (lists.data may still be NULL: nothing to copy) */
                    memcpy((int32_t *)lists.data + f->cur, (int32_t *)lists.data + f->base,
                           base_len * sizeof(int32_t));
                f->len = base_len;
                lists.top = f->cur + base_len;
            } else {
                lists.top = f->cur;
                nf--;
            }
            continue;
        }
        /* the options of the new position: the old ones times g, and e times g's options */
        if (!reserve(&lists, f->len + (size_t)(opt_start[f->level + 1] - opt_start[f->level])))
            goto nomem;
        int32_t *cur = (int32_t *)lists.data + f->cur;
        int32_t *out = (int32_t *)lists.data + lists.top;
        if (++now == 0) {
            memset(stamp, 0, m * sizeof(uint32_t));
            now = 1;
        }
        size_t k = 0;
        for (size_t i = 0; i < f->len; i++) {
            int32_t t = product(M, cur[i], g);
            if (stamp[t] != now) {
                stamp[t] = now;
                out[k++] = t;
            }
        }
        for (int64_t j = opt_start[f->level]; j < opt_start[f->level + 1]; j++) {
            int32_t t = product(M, f->e, opt[j]);
            if (stamp[t] != now) {
                stamp[t] = now;
                out[k++] = t;
            }
        }
        int in_p = k > 0;
        for (size_t i = 0; i < k && in_p; i++)
            if (p[out[i]])
                in_p = 0;
        if (k) /* (cur may be NULL when no list was ever reserved) */
            memmove(cur, out, k * sizeof(int32_t));
        f->len = k;
        parent[e] = f->e;
        f->e = e;
        lists.top = f->cur + k;
        seen[e] = 1;
        p[e] = (uint8_t)in_p;
        via[e] = (int32_t)f->level;
        order[(*reached)++] = e;
        if (f->level + 1 < (long)ng) {            /* the new node's own loops */
            frame child = {(long)ng - 1, f->level, e, e, 0, f->cur, lists.top, k};
            if (!reserve(&lists, k))
                goto nomem;
            if (k)
                memcpy((int32_t *)lists.data + lists.top, (int32_t *)lists.data + f->cur,
                       k * sizeof(int32_t));
            lists.top += k;
            if (!push_frame(&fs, &nf, &fcap, child))
                goto nomem;
        }
    }
    goto done;
nomem:
    status = NC_NOMEM;
done:
    free(seen);
    free(stamp);
    free(lists.data);
    free(fs);
    return status;
}

/* ---- mq_n_failure ---------------------------------------------------------------------- */

/* Per element, the W kept so far: an antichain under inclusion. */
typedef struct {
    uint64_t *sets;
    size_t n, cap;
} antichain;

/* 1 when some kept set is inside w (w is dominated); otherwise drops the kept sets
 * containing w, keeps w and returns 0 (-1 when out of memory). */
static int dominated(antichain *a, const uint64_t *w, size_t words)
{
    for (size_t i = 0; i < a->n; i++) {
        const uint64_t *k = a->sets + i * words;
        size_t j = 0;
        while (j < words && !(k[j] & ~w[j]))
            j++;
        if (j == words)
            return 1;
    }
    size_t kept = 0;
    for (size_t i = 0; i < a->n; i++) {
        const uint64_t *k = a->sets + i * words;
        size_t j = 0;
        while (j < words && !(w[j] & ~k[j]))
            j++;
        if (j < words) {                          /* k is not a superset of w: keep it */
            if (kept != i)
                memmove(a->sets + kept * words, k, words * sizeof(uint64_t));
            kept++;
        }
    }
    a->n = kept;
    if (a->n == a->cap) {
        size_t c = a->cap ? 2 * a->cap : 4;
        uint64_t *d = (uint64_t *)realloc(a->sets, c * words * sizeof(uint64_t));
        if (!d)
            return -1;
        a->sets = d;
        a->cap = c;
    }
    memcpy(a->sets + a->n * words, w, words * sizeof(uint64_t));
    a->n++;
    return 0;
}

#define BIT(s, i) (((s)[(size_t)(i) >> 6] >> ((size_t)(i) & 63)) & 1u)

int mq_n_failure(const int32_t *mul, size_t m, const uint8_t *p, const int32_t *gen,
                 size_t ng, const int64_t *opt_start, const int32_t *opt, size_t nopt,
                 size_t max_states,
                 uint32_t *exps, int *found, size_t *states, const nc_poll *poll)
{
    *found = 0;
    *states = 0;
    mq_monoid table = {mul, m, 0, NULL, NULL};
    if (monoid_size(&table) != m || !valid_options(m, gen, ng, opt_start, opt, nopt))
        return NC_BADARG;
    size_t words = (m + 63) / 64;
    /* reach[i]: the y with t y in P for some option element t of generator i */
    uint64_t *reach = (uint64_t *)calloc(ng * words + 1, sizeof(uint64_t));
    antichain *kept = (antichain *)calloc(m, sizeof(antichain));
    arena sets = {NULL, 0, 0, sizeof(uint64_t)};
    frame *fs = NULL;
    size_t nf = 0, fcap = 0, steps = 0;
    int status = NC_OK;
    memset(exps, 0, ng * sizeof(uint32_t));
    if (!reach || !kept || !reserve(&sets, 2 * words))
        goto nomem;
    for (size_t i = 0; i < ng; i++)
        for (int64_t j = opt_start[i]; j < opt_start[i + 1]; j++)
            for (size_t y = 0; y < m; y++)
                if (p[mul[(size_t)opt[j] * m + y]])
                    reach[i * words + (y >> 6)] |= (uint64_t)1 << (y & 63);
    /* the empty position: W empty; its loops start from it (it is exempt and kept nowhere) */
    memset(sets.data, 0, 2 * words * sizeof(uint64_t));
    sets.top = 2 * words;
    if (ng && !push_frame(&fs, &nf, &fcap, (frame){(long)ng - 1, -1, 0, 0, 0, 0, words, 0}))
        goto nomem;
    while (nf) {
        frame *f = &fs[nf - 1];
        if (++steps % POLL_EVERY == 0 && nc_should_stop(poll)) {
            status = NC_STOPPED;
            goto done;
        }
        if (!reserve(&sets, words))
            goto nomem;
        uint64_t *w = (uint64_t *)sets.data + f->cur;
        uint64_t *out = (uint64_t *)sets.data + sets.top;
        const uint64_t *r = reach + (size_t)f->level * words;
        const int32_t *row_e = mul + (size_t)f->e * m, *row_g = mul + (size_t)gen[f->level] * m;
        memset(out, 0, words * sizeof(uint64_t));
        for (size_t z = 0; z < m; z++)
            if (BIT(r, row_e[z]) | BIT(w, row_g[z]))
                out[z >> 6] |= (uint64_t)1 << (z & 63);
        int32_t e = row_e[gen[f->level]];
        int d = dominated(&kept[e], out, words);
        if (d < 0)
            goto nomem;
        if (d) {                                  /* this level's loop ends */
            if (f->level - 1 > f->stop) {
                f->level--;
                f->e = f->e0;
                f->count = 0;
                memcpy(w, (uint64_t *)sets.data + f->base, words * sizeof(uint64_t));
            } else {
                sets.top = f->cur;
                nf--;
            }
            continue;
        }
        memcpy(w, out, words * sizeof(uint64_t));
        f->e = e;
        f->count++;
        if (++*states > max_states) {
            *found = -1;
            goto done;
        }
        if (!p[e] && !(w[0] & 1u)) {              /* outside P with no option in P */
            for (size_t i = 0; i < nf; i++)
                exps[fs[i].level] = fs[i].count;
            *found = 1;
            goto done;
        }
        if (f->level + 1 < (long)ng) {
            frame child = {(long)ng - 1, f->level, e, e, 0, f->cur, sets.top, 0};
            memcpy(out, w, words * sizeof(uint64_t));
            sets.top += words;
            if (!push_frame(&fs, &nf, &fcap, child))
                goto nomem;
        }
    }
    goto done;
nomem:
    status = NC_NOMEM;
done:
    if (kept)
        for (size_t x = 0; x < m; x++)
            free(kept[x].sets);
    free(kept);
    free(reach);
    free(sets.data);
    free(fs);
    return status;
}

/* ---- mq_refine ------------------------------------------------------------------------- */

/* Numbers the pairs (a[s], b[via[s]]) (b[s] when via is NULL) in order of first appearance
 * into next[s]; returns the number of distinct pairs.  keys/vals: a table of 2^bits slots,
 * 2^bits >= 2n. */
static size_t number_pairs(const int32_t *a, const int32_t *b, const int32_t *via, size_t n,
                           int32_t *next, uint64_t *keys, int32_t *vals, unsigned bits)
{
    size_t mask = ((size_t)1 << bits) - 1, labels = 0;
    memset(keys, 0xff, (mask + 1) * sizeof(uint64_t));
    for (size_t s = 0; s < n; s++) {
        uint64_t key = (uint64_t)(uint32_t)a[s] << 32 | (uint32_t)b[via ? (size_t)via[s] : s];
        size_t h = (size_t)((key * 0x9E3779B97F4A7C15ull) >> (64 - bits)) & mask;
        while (keys[h] != ~(uint64_t)0 && keys[h] != key)
            h = (h + 1) & mask;
        if (keys[h] != key) {
            keys[h] = key;
            vals[h] = (int32_t)labels++;
        }
        next[s] = vals[h];
    }
    return labels;
}

int mq_refine(const int32_t *delta, size_t ng, size_t n, const uint8_t *out, int32_t *cls,
              size_t *count, const nc_poll *poll)
{
    *count = 0;
    if (n == 0 || n > (size_t)INT32_MAX)
        return NC_BADARG;
    for (size_t i = 0; i < ng * n; i++)
        if (delta[i] < 0 || (size_t)delta[i] >= n)
            return NC_BADARG;
    unsigned bits = 1;
    while (((size_t)1 << bits) < 2 * n)
        bits++;
    uint64_t *keys = (uint64_t *)malloc(((size_t)1 << bits) * sizeof(uint64_t));
    int32_t *vals = (int32_t *)malloc(((size_t)1 << bits) * sizeof(int32_t));
    int32_t *tmp = (int32_t *)malloc(n * sizeof(int32_t));
    int32_t *zero = (int32_t *)calloc(n, sizeof(int32_t));
    int status = NC_OK;
    if (!keys || !vals || !tmp || !zero) {
        status = NC_NOMEM;
        goto done;
    }
    for (size_t s = 0; s < n; s++)
        tmp[s] = out[s] ? 1 : 0;
    size_t labels = number_pairs(tmp, zero, NULL, n, cls, keys, vals, bits);
    for (;;) {
        size_t before = labels;
        for (size_t i = 0; i < ng; i++) {         /* split each class by where letter i goes */
            if (nc_should_stop(poll)) {
                status = NC_STOPPED;
                goto done;
            }
            labels = number_pairs(cls, cls, delta + i * n, n, tmp, keys, vals, bits);
            memcpy(cls, tmp, n * sizeof(int32_t));
        }
        if (labels == before)
            break;
    }
    *count = labels;
done:
    free(keys);
    free(vals);
    free(tmp);
    free(zero);
    return status;
}
