/*
 * sparse.h -- the sparse space of heap games (Winning Ways ch. 4; Gangolli & Plambeck, "A note
 * on periodicity in some octal games", IJGT 18, 1989; A. Flammenkamp's octal-game tables): the
 * one home of the method that both heap engines (heap.c, and the frontier engine of frontier/)
 * and the statistics of Python (through the bindings' sparse_best_mask and sparse_mask_rule)
 * use.
 *
 * Extend each value with the parity of its heap size, e(i) = 2 g(i) + (i mod 2), and fix a mask
 * M over e.  Heap size i is *rare* when popcount(e(i) & M) has the rare class's parity (the
 * class closed under the XOR of two parts, so that two rare parts give a value of rare class),
 * *common* otherwise.  For a split a + b = n - k the parities add, so the class of the option's
 * value is fixed by the parts' classes: an option of common class needs one rare part.
 * Marking the splits with a rare part therefore finds every reachable common value, and the
 * least common value not found is a certain candidate for the mex; smaller values of rare
 * class are looked for among the other splits (the pair test, sp_has_pair_*).  The mask is the
 * one making the fewest heap sizes rare (sp_best_mask), re-chosen when another is clearly
 * better (sp_mask_better, sp_next_check).  Python asks the same: sp_rare_flags for the
 * classes of its statistics, sp_best_mask and the rule for its runs (csrc/python/sparse.c).  Any mask gives exact values; a good one only makes
 * them cheap.
 */
#ifndef NIMBERS_SPARSE_H
#define NIMBERS_SPARSE_H

#include <stddef.h>
#include <stdint.h>

/* The parity of the 1 bits of x. */
static inline int parity32(uint32_t x)
{
    x ^= x >> 16;
    x ^= x >> 8;
    x ^= x >> 4;
    x ^= x >> 2;
    x ^= x >> 1;
    return (int)(x & 1);
}

/* ---- the classes ---------------------------------------------------------------------------- */

/* The parity of popcount(e & emask) that makes a heap size rare.  split_parity: the parity of
 * the tokens every split removes (a mask with the parity bit needs them all of one parity).
 * The rare class is the one closed under the XOR of two parts: with the parity term and splits
 * removing an odd number of tokens, a + b and n differ in parity, so that class is the odd one:
 * T. Czajka's "1+pos" (0.127: g(n) + n odd is rare). */
static inline uint32_t sp_rare_phase(uint32_t emask, unsigned split_parity)
{
    return emask & 1 & (uint32_t)split_parity;
}

/* Whether heap size i of value v is rare under emask. */
static inline int sp_is_rare(uint32_t emask, unsigned split_parity, uint64_t i, uint32_t v)
{
    return (uint32_t)parity32(((v << 1) | (uint32_t)(i & 1)) & emask) ==
           sp_rare_phase(emask, split_parity);
}

/* Whether v is of common class as the value of a split of a total of parity p (the XOR of two
 * rare parts is never: its popcount parity is even, whatever the phase). */
static inline int sp_is_common_value(uint32_t emask, uint32_t v, unsigned p)
{
    return parity32(((v << 1) | (uint32_t)p) & emask);
}

/* out[j] = 1 when heap size start + j (value g[j]) is rare under emask, else 0, for j < n:
 * the classes of a stretch of values at once (the statistics of Python count with it).  odd:
 * the splits remove an odd number of tokens (the rare class of a parity mask is the odd one). */
void sp_rare_flags_u8(const uint8_t *g, size_t n, uint64_t start, uint32_t emask, int odd,
                      uint8_t *out);
void sp_rare_flags_u16(const uint16_t *g, size_t n, uint64_t start, uint32_t emask, int odd,
                       uint8_t *out);
void sp_rare_flags_u32(const uint32_t *g, size_t n, uint64_t start, uint32_t emask, int odd,
                       uint8_t *out);

/* ---- the mask ------------------------------------------------------------------------------- */

/* The mask over e making the fewest of total heap sizes rare, from counts[e] (size entries, a
 * power of two covering the e counted): with the Walsh-Hadamard transform
 * W[M] = sum_e counts[e] (-1)^popcount(e & M), the rare count of M is (total + W[M]) / 2, or
 * (total - W[M]) / 2 for a parity mask whose rare class is the odd one (odd: the splits remove
 * an odd number of tokens).  Masks with the parity bit only when parity_ok; never 0; the
 * smallest among equals.  walsh: scratch of size entries.  *rare: the rare count (total + 1
 * when no mask is allowed, and then 0 is returned). */
uint32_t sp_best_mask(const uint64_t *counts, int64_t *walsh, size_t size, uint64_t total,
                      int parity_ok, int odd, uint64_t *rare);

/* The rule for switching masks: whether a mask with best_rare rare heap sizes should replace
 * one with rare of them.  Rebuilding the rare list costs a pass over all values, so a run
 * switches only when the gain is clear (max(8, rare / 8) fewer); eager (a checkpoint, where
 * the statistics are written) switches for any gain. */
int sp_mask_better(uint64_t rare, uint64_t best_rare, int eager);

/* The rare count at which a run looks for a better mask again, rare being the count now. */
uint64_t sp_next_check(uint64_t rare);

/* ---- the pair test --------------------------------------------------------------------------- */

/* Whether the value c is among the splits x[j] ^ ytop[-j], j < m (x the smaller heaps from
 * some a up, ytop the larger ones from total - a down): compared SP_PAIR_BLOCK at a time in
 * vector registers, stopping after the first block with a hit.  *scanned: how many were
 * compared (the end of the block with the hit, else m).  One per value width. */
enum { SP_PAIR_BLOCK = 64 };

/* Marking or the pair test: with values of rare class pending at a position, both engines
 * first mark its splits one by one (each split's nim-sum stored), up to their budget, then
 * look for each value left by the pair test.  A marked split costs some ten times one value's
 * compare in the pair test, but serves every pending value at once, where the pair test scans
 * again for each; so the marking goes on past the budget while SP_MARK_MANY or more values are
 * pending (.764, with values to 4,933, has hundreds pending at a position: 3.3x faster so on
 * the frontier engine).  Whether to mark the next chunk, budget_left splits of the budget
 * being left. */
#ifndef SP_MARK_MANY
#define SP_MARK_MANY 8
#endif
static inline int sp_keep_marking(size_t budget_left, size_t npending)
{
    return npending && (budget_left || npending >= SP_MARK_MANY);
}

/* Whether to drop the values now marked from the pending list, marked_since splits having
 * been marked since it was last done.  Dropping reads each pending value's mark and branches
 * on it, one unpredictable branch per value, so done after every chunk it cost as much as the
 * marking wherever hundreds are pending (.764 at 2^25: about a fifth of its frontier time).
 * Done once the splits marked since reach SP_DROP_RATIO times the values pending, it costs a
 * small part of the marking; a larger ratio marks past the point where the search by value
 * would have been cheaper (64 was slower again: benchmarks/README.md, "Frontier tuning
 * notes").  The list only decides when the marking stops -- a value kept in it after being
 * marked is skipped by the search -- so the values do not depend on it. */
#ifndef SP_DROP_RATIO
#define SP_DROP_RATIO 16
#endif
static inline int sp_drop_due(size_t marked_since, size_t npending)
{
    return marked_since >= (size_t)SP_DROP_RATIO * npending;
}

int sp_has_pair_u8(const uint8_t *x, const uint8_t *ytop, size_t m, uint32_t c,
                   size_t *scanned);
int sp_has_pair_u16(const uint16_t *x, const uint16_t *ytop, size_t m, uint32_t c,
                    size_t *scanned);
int sp_has_pair_u32(const uint32_t *x, const uint32_t *ytop, size_t m, uint32_t c,
                    size_t *scanned);

#endif
