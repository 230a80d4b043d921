/*
 * rare_solver.c -- the plain rare-value solver the frontier benchmark compares with: the
 * sparse-space method as the literature describes it (Winning Ways ch. 4; A. Flammenkamp's
 * pages), one thread, no vector code, every value in memory.
 *
 *   rare_solver CODE N MASK    (CODE: grundy or a two-heap octal code like 0.6; MASK: hex,
 *                               over the values; a heap size is rare when popcount(g & MASK)
 *                               is even)
 *
 * For each heap size: mark g(r) ^ g(n - k - r) for every rare r (the common values reached),
 * take the least common value not marked as the candidate, then scan the splits from the
 * smallest heap up until every smaller rare value is marked (the full scan when one is not).
 * Prints "n=2^e seconds=S" at each power of two and finally the SHA-256-free summary line
 * "done N largest L at I rare R last_rare Q" for checking against the frontier engine.
 * Build: cc -O2 -o rare_solver rare_solver.c
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int parity(unsigned x)
{
    return __builtin_parity(x);
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: rare_solver CODE N MASK\n");
        return 2;
    }
    int grundy = strcmp(argv[1], "grundy") == 0;
    unsigned digits[32] = {0};
    size_t ndigits = 0;
    if (!grundy) {
        const char *c = strchr(argv[1], '.');
        if (!c || argv[1][0] != '0') {
            fprintf(stderr, "rare_solver: codes 0.ddd only\n");
            return 2;
        }
        for (c++; *c && ndigits < 31; c++)
            digits[++ndigits] = (unsigned)(*c - '0');
    }
    size_t n_max = strtoull(argv[2], NULL, 0);
    unsigned mask = (unsigned)strtoul(argv[3], NULL, 16);
    size_t take[32], ntake = 0, split[32], nsplit = 0;
    if (grundy)
        split[nsplit++] = 0;
    for (size_t k = 1; k <= ndigits; k++) {
        if (digits[k] & 2)
            take[ntake++] = k;
        if (digits[k] & 4)
            split[nsplit++] = k;
    }
    uint16_t *g = malloc(n_max * sizeof *g);
    uint32_t *rare = malloc(n_max * sizeof *rare);
    enum { V = 1 << 16 };
    static uint32_t seen[V];
    uint32_t stamp = 0;
    size_t nrare = 0, largest_at = 0;
    if (!g || !rare)
        return 1;
    double t0 = now();
    for (size_t n = 0; n < n_max; n++) {
        stamp++;
        if (!grundy && n <= ndigits && n > 0 && (digits[n] & 1))
            seen[0] = stamp;
        for (size_t t = 0; t < ntake; t++)
            if (take[t] < n)
                seen[g[n - take[t]]] = stamp;
        for (size_t s = 0; s < nsplit; s++) {
            if (n < split[s] + 2)
                continue;
            size_t total = n - split[s];
            for (size_t i = 0; i < nrare && rare[i] < total; i++) {
                size_t r = rare[i], q = total - r;
                if (grundy && q == r)
                    continue;
                seen[g[r] ^ g[q]] = stamp;
            }
        }
        unsigned c = 0;
        while (seen[c] == stamp || !parity(c & mask))
            c++;
        unsigned pending = 0;
        for (unsigned v = 0; v < c; v++)
            pending += seen[v] != stamp;
        for (size_t s = 0; s < nsplit && pending; s++) {
            if (n < split[s] + 2)
                continue;
            size_t total = n - split[s], end = grundy ? (total + 1) / 2 : total / 2 + 1;
            for (size_t a = 1; a < end && pending; a++) {
                unsigned v = g[a] ^ g[total - a];
                if (v < c && seen[v] != stamp) {
                    seen[v] = stamp;
                    pending--;
                }
            }
        }
        if (pending) { /* a smaller rare value is reached by no split */
            c = 0;
            while (seen[c] == stamp)
                c++;
        }
        g[n] = (uint16_t)c;
        if (c > g[largest_at])
            largest_at = n;
        if (n > 0 && !parity(c & mask))
            rare[nrare++] = (uint32_t)n;
        if (n && (n & (n - 1)) == 0 && n >= 1024)
            printf("n=%zu seconds=%.3f\n", n, now() - t0), fflush(stdout);
    }
    printf("done %zu seconds=%.3f largest %u at %zu rare %zu last_rare %u\n", n_max, now() - t0,
           g[largest_at], largest_at, nrare + 1, nrare ? rare[nrare - 1] : 0);
    return 0;
}
