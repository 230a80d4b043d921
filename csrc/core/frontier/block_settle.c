/*
 * block_settle.c -- settling a prepared block (block_prepare.c) of the block step (block.c),
 * each position in order: its near rare parts marked, its candidates walked up to the first
 * one no split reaches (past the K candidates the far parts are marked one by one), the
 * values of rare class below it settled (settle.c) or, speculating, left as obligations.
 */
#define _POSIX_C_SOURCE 200809L /* pread, clock_gettime in strict C11 */

#include "block.h"

#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- settling a block, each position in order ----------------------------------------------- */

/* The near parts' partners for the sub-block from m0 (NULL where a part lies so close that
 * its first positions have none: those go one by one). */
static int near_sources(const fr_state *s, uint64_t m0, block_work *b)
{
    size_t pooled = 0;
    if (room(&b->src, &b->src_cap, b->nnear * s->nsplit + 1, sizeof(uint16_t *)) < 0 ||
        room(&b->pool, &b->pool_cap, (b->nnear * s->nsplit + 1) * S, sizeof(uint16_t)) < 0)
        return -1;
    for (size_t k = 0; k < s->nsplit; k++)
        for (size_t i = 0; i < b->nnear; i++) {
            const uint16_t **src = &b->src[k * b->nnear + i];
            uint64_t p = b->near[i].p;
            *src = NULL;
            if (p + s->split[k] + 1 > m0)
                continue;
            uint64_t at = m0 - s->split[k] - p;
            if (!(*src = source(s, at, b->pool + pooled * S)))
                return -1;
            pooled += at < s->base;
        }
    return 0;
}

/* Marks the one-heap moves and the splits with a near part at n = m0 + j.  (The lists are
 * read into locals: a store to row may alias anything, and would reload them.) */
FR_INLINE int near_marks(const fr_state *s, uint64_t m0, size_t j, const block_work *b,
                         uint8_t *row)
{
    uint64_t n = m0 + j;
    uint32_t v;
    const part *near = b->near;
    size_t nnear = b->nnear;
    int unequal = s->unequal;
    if (fr_take_marks(s, n, row) < 0)
        return -1;
    for (size_t k = 0; k < s->nsplit; k++) {
        if (n < s->split[k] + 2)
            continue;
        uint64_t total = n - s->split[k];
        const uint16_t *const *src = b->src + k * nnear;
        for (size_t i = 0; i < nnear && near[i].p < total; i++) {
            uint64_t q = total - near[i].p;
            if (unequal && q == near[i].p)
                continue;
            if (src[i])
                v = src[i][j];
            else if (fr_value(s, q, &v) < 0)
                return -1;
            row[near[i].g ^ v] = 1;
        }
        for (size_t i = b->parts_seen; i < s->nparts; i++) { /* rare heap sizes of the block */
            const part *pt = &s->parts[i];
            if (!pt->rare || pt->p >= total || (s->unequal && 2 * pt->p == total))
                continue;
            if (fr_value(s, total - pt->p, &v) < 0)
                return -1;
            row[pt->g ^ v] = 1;
        }
    }
    return 0;
}

/* The partners of the far and mid parts for the sub-block b->m0, as near_sources makes those
 * of the near parts: read back once for the sub-block where they lie before the window (one
 * read each, where fr_value would read the file value by value), into lane l's arrays. */
static int far_sources(const fr_state *s, const block_work *b, settle_lane *l)
{
    size_t nfm = b->nfar + b->nmid, pooled = 0;
    if (room(&l->fsrc, &l->fsrc_cap, nfm * s->nsplit + 1, sizeof(uint16_t *)) < 0 ||
        room(&l->fpool, &l->fpool_cap, (nfm * s->nsplit + 1) * S, sizeof(uint16_t)) < 0)
        return -1;
    for (size_t k = 0; k < s->nsplit; k++) {
        const uint16_t **src = l->fsrc + k * nfm;
        if (sources_of(s, b->m0, k, b->far, b->nfar, src, l->fpool, &pooled) < 0 ||
            sources_of(s, b->m0, k, b->mid, b->nmid, src + b->nfar, l->fpool, &pooled) < 0)
            return -1;
    }
    l->fsrc_m0 = b->m0;
    return 0;
}

/* Marks every far (and mid) part's split at n: past the K candidates the walk goes on with
 * exact marks. */
static int far_marks(const fr_state *s, uint64_t n, const block_work *b, settle_lane *l,
                     uint8_t *row)
{
    const part *far = b->far, *mid = b->mid; /* (locals: see near_marks) */
    size_t nfar = b->nfar, nmid = b->nmid;
    uint64_t largest = nfar ? far[nfar - 1].p : 0;
    if (nfar && n >= s->base + s->kmax + largest) { /* every partner in the window */
        for (size_t k = 0; k < s->nsplit; k++) {
            const uint16_t *q = s->buf + (n - s->split[k] - s->base);
            for (size_t i = 0; i < nfar; i++)
                row[far[i].g ^ q[-(ptrdiff_t)far[i].p]] = 1;
            for (size_t i = 0; i < nmid; i++) /* (mid parts: partners in the window) */
                row[mid[i].g ^ q[-(ptrdiff_t)mid[i].p]] = 1;
        }
        return 0;
    }
    if (l->fsrc_m0 != b->m0 && far_sources(s, b, l) < 0)
        return -1;
    size_t j = (size_t)(n - b->m0), nfm = nfar + nmid;
    for (size_t k = 0; k < s->nsplit; k++) {
        const uint16_t *const *src = l->fsrc + k * nfm;
        for (size_t i = 0; i < nfar; i++)
            row[far[i].g ^ src[i][j]] = 1;
        for (size_t i = 0; i < nmid; i++)
            row[mid[i].g ^ src[nfar + i][j]] = 1;
    }
    return 0;
}

/* The least common value reached by no split at n0 + j, or 2^bits: the first candidate not
 * reached, or past the K candidates a walk with the far parts marked (*past then).  0; 1
 * when lane l would have to make a word of the coverage and may not; -1 an error. */
FR_INLINE int candidate(const fr_state *s, const block_prep *p, size_t j, const block_work *b,
                        settle_lane *l, uint32_t *c, int *past)
{
    const uint8_t *row = l->row;
    for (int i = 0; i < p->ncand[j]; i++) {
        uint32_t w = p->cand[i][j];
        if (!p->hit[i][j] && !row[w]) {
            *c = w;
            return 0;
        }
    }
    uint64_t n = p->n0 + j;
    uint32_t ts = (uint32_t)1 << s->bits;
    const uint8_t *common = s->common[(n - s->kmin) & 1];
    uint32_t w = p->ncand[j] < K ? ts : (uint32_t)p->cand[K - 1][j] + 1;
    for (int marked = 0; w < ts; w++) {
        if (!common[w] || row[w])
            continue;
        const uint64_t *words;
        if (l->may_make)
            words = fr_cover_common(s, p->n0, w);
        else if (fr_cover_common_made(s, p->n0, w, &words) < 0)
            return 1;
        if (words && ((words[j >> 6] >> (j & 63)) & 1))
            continue;
        if (marked)
            break;
        if (far_marks(s, n, b, l, l->row) < 0)
            return -1;
        marked = *past = 1;
        w--; /* w again, with the far parts marked */
    }
    *c = w;
    return 0;
}

/* With a helper the near parts reach up to 3S: those from S on whose partners all lie before
 * the sub-block (not late) get their candidates checked at once, like the far parts, and
 * leave the near list. */
static int is_mid(const fr_state *s, const block_work *b, size_t i, uint64_t m0)
{
    const part *pt = &b->near[i];
    int mid = pt->p >= S && 2 * pt->p + s->kmax + 1 < m0;
    for (size_t k = 0; mid && k < s->nsplit; k++)
        mid = b->src[k * b->nnear + i] != NULL;
    return mid;
}

static int mid_parts(const fr_state *s, uint64_t m0, block_prep *p, size_t j0, block_work *b)
{
    if (room(&b->mid, &b->mid_cap, b->nnear + 1, sizeof(part)) < 0 ||
        room(&b->msrc, &b->msrc_cap, b->nnear * s->nsplit + 1, sizeof(uint16_t *)) < 0)
        return -1;
    size_t kept = 0, nmid = 0;
    for (size_t i = 0; i < b->nnear; i++)
        nmid += is_mid(s, b, i, m0);
    b->nmid = 0;
    if (!nmid)
        return 0;
    for (size_t i = 0; i < b->nnear; i++) { /* mid: to mid and msrc (k-major); else kept */
        if (is_mid(s, b, i, m0)) {
            for (size_t k = 0; k < s->nsplit; k++)
                b->msrc[k * nmid + b->nmid] = b->src[k * b->nnear + i];
            b->mid[b->nmid++] = b->near[i];
            continue;
        }
        for (size_t k = 0; k < s->nsplit; k++)
            b->src[k * b->nnear + kept] = b->src[k * b->nnear + i];
        b->near[kept++] = b->near[i];
    }
    /* the sources of the kept parts, k-major with the new count */
    for (size_t k = 1; k < s->nsplit; k++)
        for (size_t i = 0; i < kept; i++)
            b->src[k * kept + i] = b->src[k * b->nnear + i];
    b->nnear = kept;
    s->kern->hits(&p->cand[0][0], &p->hit[0][0], j0, b->mid, b->nmid, s->nsplit, b->msrc, 1);
    return 0;
}

int fr_block_record(uint64_t n0, size_t j, uint32_t c, const uint32_t *pending, size_t npending,
                    block_work *b)
{
    spec_block *sb = &b->spec[(n0 / B) % FR_SETS];
    if (j == 0)
        sb->first[0] = 0;
    size_t at = sb->first[j];
    if (room(&sb->todo, &sb->todo_cap, at + npending + 1, sizeof(uint16_t)) < 0)
        return -1;
    for (size_t i = 0; i < npending; i++)
        sb->todo[at + i] = (uint16_t)pending[i];
    sb->first[j + 1] = (uint32_t)(at + npending);
    sb->value[j] = (uint16_t)c;
    return 0;
}

/* Position j's value taken on speculation, c (< 2^bits), and its obligations recorded: 0, or
 * -1 out of memory. */
static int speculate(const fr_state *s, uint64_t n0, size_t j, uint32_t c, block_work *b)
{
    size_t npending = fr_cover_pending(s, n0 + j, c, b->row, b->fs.pending, 0);
    return fr_block_record(n0, j, c, b->fs.pending, npending, b);
}

int fr_block_guess(const fr_state *s, const block_prep *p, size_t j, const block_work *b,
                   settle_lane *l, uint32_t *c, size_t *npending, int *past)
{
    size_t ts = (size_t)1 << s->bits;
    memset(l->row, 0, ts);
    *past = 0;
    if (near_marks(s, b->m0, j - (size_t)(b->m0 - p->n0), b, l->row) < 0)
        return -1;
    int r = candidate(s, p, j, b, l, c, past);
    if (r || *c >= ts)
        return r ? r : 1;
    *npending = fr_cover_pending(s, p->n0 + j, *c, l->row, l->pending, 0);
    return 0;
}

int fr_block_begin(const fr_state *s, block_prep *p, size_t j0, uint64_t least, block_work *b)
{
    uint64_t m0 = p->n0 + j0;
    b->parts_seen = s->nparts;
    if (room(&b->far, &b->far_cap, s->nparts + 1, sizeof(part)) < 0 ||
        room(&b->near, &b->near_cap, s->nparts + 1, sizeof(part)) < 0)
        return -2;
    b->nfar = split_parts(s, s->nparts, m0, least, b->far, b->near, &b->nnear);
    b->m0 = m0;
    b->lane.fsrc_m0 = UINT64_MAX; /* (far_marks makes the far parts' sources when it needs them) */
    return near_sources(s, m0, b) < 0 || mid_parts(s, m0, p, j0, b) < 0 ? -1 : 0;
}

/* Settles the sub-block j0 of the prepared block: NC_OK, 1 when a value outgrew the tables
 * (out[0..*made) valid), 2 when speculation stops before a value that would, or an error. */
int fr_block_settle(fr_state *s, block_prep *p, size_t j0, uint64_t least, block_work *b,
                    uint16_t *out, size_t *made)
{
    unsigned bits = s->bits;
    size_t ts = (size_t)1 << bits;
    uint64_t m0 = p->n0 + j0;
    int begun = fr_block_begin(s, p, j0, least, b);
    if (begun < 0)
        return begun == -2 ? NC_NOMEM : NC_BADARG;
    for (size_t j = j0; j < j0 + S; j++) {
        uint64_t n = p->n0 + j;
        uint32_t c = 0, v;
        int past = 0;
        memset(b->row, 0, ts);
        if (near_marks(s, m0, j - j0, b, b->row) < 0 ||
            candidate(s, p, j, b, &b->lane, &c, &past) < 0)
            return NC_BADARG;
        b->far_marked += (size_t)past;
        if (b->spec) { /* speculation: c now, the proofs on other threads */
            if (c >= ts)
                return 2; /* a value that widens the tables: proved here, after the step */
            if (speculate(s, p->n0, j, c, b) < 0)
                return NC_NOMEM;
            v = c;
        } else if (fr_settle_below(s, n, b->row, c, 1, &b->fs, &v) < 0 || (v >> MAX_BITS)) {
            return NC_BADARG;
        }
        out[*made] = (uint16_t)v;
        if (fr_accept(s, (uint16_t)v) < 0)
            return NC_NOMEM;
        (*made)++;
        s->blocked++;
        if (s->bits != bits)
            return 1;
    }
    return NC_OK;
}
