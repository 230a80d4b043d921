/*
 * dlog.c -- discrete logarithms in the nim field: baby-step giant-step in a subgroup of
 * prime order p, with the baby steps kept in a hash table so that repeated queries (the
 * Pohlig-Hellman steps of many logarithms) pay only for their giant steps.
 * Elements are n-limb nimbers in the kernel's working basis; the table keys are 64-bit
 * fingerprints of the elements, and a match is confirmed by recomputing the power.
 */
#include <stdlib.h>
#include <string.h>

#include "nimcore.h"

struct dl_table {
    size_t n;          /* limbs per element */
    u64 p, m;          /* subgroup order, baby steps */
    u64 *g;            /* the subgroup's generator (n limbs, working basis) */
    u64 *giant;        /* g^-m */
    u64 *keys;         /* fingerprints, 0 = empty slot (fingerprints are made odd) */
    uint32_t *vals;    /* baby-step exponents */
    size_t mask;
    u64 *scratch;
};

/* The key of an element: itself for one limb (group elements are never 0, the empty mark),
 * else a 64-bit fingerprint, whose matches are then confirmed. */
static u64 fingerprint(const u64 *a, size_t n)
{
    if (n == 1)
        return a[0];
    u64 h = 0x9E3779B97F4A7C15ull;
    for (size_t i = 0; i < n; i++) {
        h ^= a[i];
        h *= 0xBF58476D1CE4E5B9ull;
        h ^= h >> 31;
    }
    return h | 1;
}

void dl_free(dl_table *t)
{
    if (!t)
        return;
    free(t->g);
    free(t->giant);
    free(t->keys);
    free(t->vals);
    free(t->scratch);
    free(t);
}

static void put(dl_table *t, u64 key, uint32_t val)
{
    size_t i = (size_t)(key * 0x9E3779B97F4A7C15ull >> 20) & t->mask;
    while (t->keys[i])
        i = (i + 1) & t->mask;
    t->keys[i] = key;
    t->vals[i] = val;
}

dl_table *dl_new(const u64 *g, size_t n, u64 p, u64 m)
{
    dl_table *t = (dl_table *)calloc(1, sizeof *t);
    if (!t)
        return NULL;
    if (m > p)
        m = p;
    if (m < 1)
        m = 1;
    size_t slots = 1;
    while (slots < 2 * m)
        slots <<= 1;
    t->n = n;
    t->p = p;
    t->m = m;
    t->mask = slots - 1;
    t->g = (u64 *)malloc(n * sizeof(u64));
    t->giant = (u64 *)malloc(n * sizeof(u64));
    t->keys = (u64 *)calloc(slots, sizeof(u64));
    t->vals = (uint32_t *)calloc(slots, sizeof(uint32_t));
    t->scratch = (u64 *)malloc((4 * n + tw_scratch_limbs(n)) * sizeof(u64));
    if (!t->g || !t->giant || !t->keys || !t->vals || !t->scratch || m > 0xFFFFFFFFu) {
        dl_free(t);
        return NULL;
    }
    memcpy(t->g, g, n * sizeof(u64));
    u64 *x = t->scratch, *y = t->scratch + n, *s = t->scratch + 4 * n;
    memset(x, 0, n * sizeof(u64));
    x[0] = nk_to_work(1);
    for (u64 j = 0; j < m; j++) { /* x = g^j */
        put(t, fingerprint(x, n), (uint32_t)j);
        tw_mul(x, g, y, n, s);
        memcpy(x, y, n * sizeof(u64));
    }
    tw_inv(x, t->giant, n, s); /* x = g^m */
    return t;
}

static int equal(const u64 *a, const u64 *b, size_t n)
{
    return memcmp(a, b, n * sizeof(u64)) == 0;
}

/* g^e for a small exponent e < 2^64. */
static void pow_small(const dl_table *t, u64 e, u64 *out, u64 *s)
{
    tw_pow(t->g, &e, 1, out, t->n, s);
}

int64_t dl_log(dl_table *t, const u64 *h_in)
{
    size_t n = t->n;
    u64 *h = t->scratch, *y = t->scratch + n, *chk = t->scratch + 2 * n, *s = t->scratch + 4 * n;
    memcpy(h, h_in, n * sizeof(u64));
    for (u64 i = 0; i * t->m < t->p; i++) {
        u64 key = fingerprint(h, n);
        size_t k = (size_t)(key * 0x9E3779B97F4A7C15ull >> 20) & t->mask;
        while (t->keys[k]) {
            if (t->keys[k] == key) {
                u64 x = (i * t->m + t->vals[k]) % t->p;
                if (n == 1)
                    return (int64_t)x; /* the key is the element itself */
                pow_small(t, x, chk, s);
                if (equal(chk, h_in, n))
                    return (int64_t)x;
            }
            k = (k + 1) & t->mask;
        }
        tw_mul(h, t->giant, y, n, s);
        memcpy(h, y, n * sizeof(u64));
    }
    return -1;
}
