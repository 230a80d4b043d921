/*
 * internal.h -- what the files of the frontier engine share (private to this folder; see
 * README.md for the engine's words and strategies):
 *   values.c     reading values back: head, window or the caller's file
 *   state.c      the state: feeding, the mask and the rare list
 *   settle.c     one position: the near marks, the witnesses to try, the search
 *   step.c       a step: the far marks a group ahead, the finisher and its helpers
 *   cover.c      witnesses for values of rare class, a block of positions at a time
 *   block*.c     a step a block at a time once the coverage is ready
 *   simd.c       the vector kernels on each path (AVX-512, AVX2, portable)
 *   narrow.c     a step for games whose values all lie below 64 (one word of marks)
 */
#ifndef NIMBERS_FRONTIER_CORE_H
#define NIMBERS_FRONTIER_CORE_H


#include "frontier.h"
#include "../sparse.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define CPU_RELAX() _mm_pause()
#else
#define CPU_RELAX() ((void)0)
#endif

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#define FR_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define FR_CLONES
#endif

/* G: positions per group; SLOTS: groups in flight; NFIRST: first heap sizes among the parts;
 * SCRATCH: values read back per piece; CHUNK_SPLITS: splits marked one by one per chunk
 * while values of rare class are pending, up to MARK_BUDGET before the search by value. */
#ifndef FR_NFIRST
#define FR_NFIRST 192
#endif
#ifndef FR_BUDGET
#define FR_BUDGET 256
#endif
/* TRY_VALUES: values with lists of witnesses to try, TRY_LEN entries each, PER_VALUE per
 * frequent value of the frontier, from heap sizes below TRY_FROM (cached near the frontier's). */
#ifndef FR_TRY_FROM
#define FR_TRY_FROM (1 << 16)
#endif
#ifndef FR_TRY_LEN
#define FR_TRY_LEN 128
#endif
enum { TRY_VALUES = 1024, TRY_LEN = FR_TRY_LEN, PER_VALUE = 8, TRY_FROM = FR_TRY_FROM };
enum { LOOKAHEAD = 4 }; /* groups a helper may mark ahead of the finisher */
/* FR_BLOCK: positions covered at once (cover.c, block.c); FR_LAG: the least
 * witness of the coverage, so that a block's coverage needs no value of the block before it
 * nor of the last 256 positions before that (a helper makes it while those are settled) */
#define FR_BLOCK 512
#define FR_LAG (2 * FR_BLOCK + 256)
/* FR_SETS: blocks whose coverage words are kept at once (cover.c): the one settled,
 * the next (prepared), and with speculation up to FR_SETS - 2 settled blocks still being
 * proved (block.c) */
#ifndef FR_SETS
#define FR_SETS 8
#endif
/* FR_NG: the positions of a narrow step marked at once; FR_NARROW 0 builds without narrow
 * steps (for measuring them: narrow.c) */
#define FR_NG 16
#ifndef FR_NARROW
#define FR_NARROW 1
#endif
/* FR_SUB: the positions whose candidates are checked at once; FR_K: a position's candidates
 * (block.c); FR_CW: words of a block's bitset; FR_CSPAN: positions in each ring of
 * the coverage's bitsets (cover.c) */
#ifndef FR_CANDIDATES
#define FR_CANDIDATES 8
#endif
#define FR_SUB 128
#define FR_K FR_CANDIDATES
#define FR_CW (FR_BLOCK / 64)
#ifndef FR_CSPAN
#define FR_CSPAN (1 << 18)
#endif
enum { G = 64, SLOTS = 16, NFIRST = FR_NFIRST, SCRATCH = 4096, CHUNK_SPLITS = 64,
       MARK_BUDGET = FR_BUDGET, MAX_BITS = 16 };

typedef struct fr_cover fr_cover;
typedef struct fr_kernels fr_kernels;

typedef struct {
    uint64_t p;
    uint32_t g;
    uint32_t rare; /* of rare class (else one of the first heap sizes) */
} part;

/* A witness of the coverage: heap size a, whose split with a position of the frequent value
 * of index t reaches the value whose list holds the pair (cover.c). */
typedef struct {
    uint32_t a;
    uint32_t t;
} cover_pair;

/* The blocks' vector kernels, one set per path (simd.c).
 * hits: for the FR_SUB positions j0 .. of a block, hit[c * FR_BLOCK + j] = 1 (or'ed in when
 *   more) where g(p) ^ g(partner) equals the candidate cand[c * FR_BLOCK + j] for some far part
 *   p = far[i] and split k; sources[k * nfar + i][j - j0] is that partner's value.
 * cover: ors the pairs list[from ..) into the 8 words acc of the block n0 (acc is zero when
 *   from is 0): the bits of frequent value t's ring (rows + t * row_words) from n0 - k - a; it
 *   stops, checking every 8 pairs, once all bits are set, or bit `bit` (< FR_BLOCK) is set, or
 *   at len; returns the pairs used. */
struct fr_kernels {
    const char *name;
    /* narrow steps (narrow.c), every value below 64:
     * narrow_marks: acc[t] |= 1 << (gv[i] ^ src[i][j + t]) for the FR_NG positions t and
     *   every i < npairs (src[i]: pair i's partners, known for these positions);
     * narrow_search: from a = *at on, 32 at a time while want has bits that row lacks and
     *   a + 32 <= limit, row |= 1 << (x[i - a] ^ y[k][i - a]) for i < 32 and k < nsplit;
     *   returns row, *at the first a not looked at. */
    void (*narrow_marks)(uint64_t *acc, const uint16_t *const *src, const uint8_t *gv,
                         size_t npairs, size_t j);
    uint64_t (*narrow_search)(const uint16_t *x, const uint16_t *const *y, size_t nsplit,
                              uint64_t row, uint64_t want, size_t limit, size_t *at);
    void (*hits)(const uint16_t *cand, uint8_t *hit, size_t j0, const part *far, size_t nfar,
                 size_t nsplit, const uint16_t *const *sources, int more);
    size_t (*cover)(const uint64_t *rows, size_t row_words, const size_t *split, size_t nsplit,
                    uint64_t n0, const cover_pair *list, size_t from, size_t len, size_t bit,
                    uint64_t *acc);
};
const fr_kernels *fr_kernels_of(int path);

typedef struct {
    uint8_t *tab;       /* G rows of 2^bits marks */
    size_t far_lo, far_hi; /* the parts [far_lo, far_hi) marked ahead */
} slot;

struct fr_state {
    unsigned *rules;
    size_t nrules;
    int unequal;                /* Grundy's game */
    size_t take[32], ntake;     /* remove k, leave one heap */
    size_t split[32], nsplit;   /* remove k, leave two heaps */
    size_t kmin, kmax;
    int parity_ok;
    int threads;
    /* the values */
    uint64_t done;
    uint16_t *head;
    size_t head_cap, nhead;
    uint16_t *buf; /* g(base .. done) */
    uint64_t base;
    size_t window, buf_cap;
    int fd, fwidth;
    unsigned bits;
    /* the sparse space */
    uint32_t emask;
    int has_mask;
    uint8_t *common[2]; /* 2^MAX_BITS each */
    uint16_t *rare_values[2]; /* the values v with common[.][v] == 0, in order */
    size_t nrare_values[2];
    part *parts;
    size_t nparts, pcap;
    uint64_t nrare, last_rare;
    uint64_t blocked; /* values computed a block at a time */
    uint64_t taken_back; /* speculations taken back (block.c) */
    uint64_t narrowed;   /* values computed by narrow steps (narrow.c) */
    uint64_t alone_until; /* the blocks go without a helper before this (block.c) */
    uint64_t lag_until;   /* the blocks' candidates leave out the lag parts' values before
                           * this (block.c; atomic: the helper reads it) */
    size_t near_limit; /* D of the last step */
    /* the witnesses to try first for a value v of rare class: heap sizes a of the head
     * whose value u makes u ^ v a frequent value of the frontier */
    uint32_t *tries;     /* TRY_VALUES lists of TRY_LEN: a << 16 | g(a) */
    uint16_t *ntries;
    uint64_t tries_next; /* rebuilt when done reaches this */
    slot slots[SLOTS];
    size_t slot_bits;
    fr_cover *cover; /* witnesses a block at a time (cover.c); the finisher's */
    int path;                /* FR_PATH_*: the blocks' kernels (simd.c) */
    const fr_kernels *kern;
    uint64_t teamed;     /* values settled by a team of threads (block_team.c) */
};

/* Whether heap size i of value v is rare (sparse.h's classes; every split removes tokens of
 * the parity of kmin when the mask has the parity bit). */
static inline int is_rare(const fr_state *s, uint64_t i, uint32_t v)
{
    return sp_is_rare(s->emask, (unsigned)(s->kmin & 1), i, v);
}

/* Heap sizes among the parts whatever their values: the first NFIRST, where the search for
 * values of rare class would start anyway. */
static inline int is_first(uint64_t n)
{
    return n <= NFIRST;
}

/* The end (exclusive) of the smaller heap a of the splits a + (total - a). */
static inline uint64_t fr_split_end(const fr_state *s, uint64_t total)
{
    return s->unequal ? (total + 1) / 2 : total / 2 + 1;
}

typedef struct {
    uint16_t sx[SCRATCH], sy[SCRATCH];
    uint32_t pending[(size_t)1 << MAX_BITS];
} finisher_scratch;

/* values.c */
const uint16_t *fr_values_at(const fr_state *s, uint64_t from, size_t n, uint16_t *scratch);
int fr_value_at(const fr_state *s, uint64_t i, uint32_t *v);

/* g(i) into *v: from the window without a call when it is there (the hot loops' case). */
static inline int fr_value(const fr_state *s, uint64_t i, uint32_t *v)
{
    if (i >= s->base) {
        *v = s->buf[i - s->base];
        return 0;
    }
    return fr_value_at(s, i, v);
}
/* state.c */
int fr_parts_reserve(fr_state *s, size_t need);
int fr_accept(fr_state *s, uint16_t v);
/* cover.c (its words made by s->kern->cover) */
int fr_cover_refresh(fr_state *s);
void fr_cover_note(fr_state *s, uint64_t n, uint16_t v);
/* FR_BLOCK positions n0 .. (n0 a multiple of it) may use the coverage. */
int fr_cover_active(const fr_state *s, uint64_t n0);
/* The coverage of the value w of common class for the block n0 (a multiple of FR_BLOCK): bit
 * j of word j / 64 (8 words) when w is reached at n0 + j; NULL when none. */
const uint64_t *fr_cover_common(const fr_state *s, uint64_t n0, uint32_t w);
/* The same without making them (a thread other than their owner): 0 and *words (NULL: none),
 * or -1 when they are not made yet. */
int fr_cover_common_made(const fr_state *s, uint64_t n0, uint32_t w, const uint64_t **words);
/* The same for a value v of rare class, witnesses from the head; only where fr_cover_active. */
const uint64_t *fr_cover_rare(const fr_state *s, uint64_t n0, uint32_t v);
/* The coverage of the values of rare class below c at n0 + j, extended (each value's later
 * pairs, for the whole block) until it reaches n0 + j or the pairs run out: what
 * fr_cover_pending will ask of them, asked ahead by the helper; only where fr_cover_active. */
void fr_cover_ahead(const fr_state *s, uint64_t n0, size_t j, uint32_t c);
/* The values v < c of rare class at n that neither row nor the coverage marks reached, into
 * pending: their number; only where fr_cover_active.  extend: try the values' later pairs
 * first (the block's words then change: their owner only); else the words as they are. */
size_t fr_cover_pending(const fr_state *s, uint64_t n, uint32_t c, const uint8_t *row,
                        uint32_t *pending, int extend);
/* Keeps those of pending[0 .. npending) that the coverage at n does not reach, their later
 * pairs tried: their number (the block's words change: their owner only). */
size_t fr_cover_keep(const fr_state *s, uint64_t n, uint32_t *pending, size_t npending);
/* Position n with value v leaves the bitsets (a speculation taken back: block.c). */
void fr_cover_unnote(fr_state *s, uint64_t n, uint16_t v);
/* Whether the witnesses start from FR_LAG, so that a helper may prepare a block ahead. */
int fr_cover_lagged(const fr_state *s);
/* The least witness of the coverage (a heap size whose partners n - k - a lie below the block,
 * or, lagged, below the block before it less 256 positions): the rare parts from
 * fr_witness_from(s, 0) to fr_witness_from(s, 1) are those a helper's lag leaves out. */
static inline uint64_t fr_witness_from(const fr_state *s, int lagged)
{
    return (uint64_t)(lagged ? FR_LAG : FR_BLOCK) + s->kmax + 1;
}
/* Every block's words are made again on their next use. */
void fr_cover_forget(fr_state *s);
/* The bitsets are no longer kept up to date (narrow steps): made again on the next refresh. */
void fr_cover_drop(fr_state *s);
void fr_cover_free(fr_cover *c);
/* block.c: blocks of FR_BLOCK from s->done (a multiple of it) while count allows */
int fr_blocks_ready(const fr_state *s, uint64_t n0);
int fr_step_blocks(fr_state *s, size_t count, uint16_t *out, size_t *made, const nc_poll *poll);
/* narrow.c: a step one word of marks a position, where every value so far lies below
 * 64.  fr_narrow_wait: the positions before one can be taken (0: now; SIZE_MAX: none is in
 * sight); fr_step_narrow then makes at least one value. */
size_t fr_narrow_wait(const fr_state *s);
int fr_step_narrow(fr_state *s, size_t count, uint16_t *out, size_t *made, const nc_poll *poll);
/* settle.c */
int fr_build_tries(fr_state *s);
int fr_near_marks(const fr_state *s, uint64_t n, const slot *sl, uint8_t *row);
/* Marks the moves that leave one heap (or none) at n. */
int fr_take_marks(const fr_state *s, uint64_t n, uint8_t *row);
int fr_settle(const fr_state *s, uint64_t n, uint8_t *row, finisher_scratch *fs, uint32_t *value);
int fr_settle_below(const fr_state *s, uint64_t n, uint8_t *row, uint32_t c, uint64_t first,
                    finisher_scratch *fs, uint32_t *value);
/* The value at n given the values of rare class below c still to prove, fs->pending[0 ..
 * npending), in order: the first no split reaches, else c (the search of fr_settle_below). */
int fr_settle_pending(const fr_state *s, uint64_t n, uint8_t *row, uint32_t c, uint64_t first,
                      size_t npending, finisher_scratch *fs, uint32_t *value);
/* state.c: the values from n on are taken back (not values of rare class: speculation). */
void fr_take_back(fr_state *s, uint64_t n);

#endif
