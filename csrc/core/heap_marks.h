/*
 * heap_marks.h -- the marks of one position of the heap engine (heap.c) and the kernels that
 * make them (heap_marks.c), one set per value width (1, 2 or 4 bytes).  Private to heap*.c.
 */
#ifndef NIMBERS_HEAP_MARKS_H
#define NIMBERS_HEAP_MARKS_H

#include <stddef.h>
#include <stdint.h>

/* HP_BLOCK: the comparisons settle's cost counts a pair test in (whole blocks). */
enum { HP_BLOCK = 256 };

/* The marks of one position are stamps: value v is marked when seen[v] == now (no clearing
 * between positions, and every mark a plain store). */
typedef struct {
    uint32_t *seen;
    uint32_t now;
} marks;

static inline void mark(marks m, uint32_t v)
{
    m.seen[v] = m.now;
}

static inline int marked(marks m, uint32_t v)
{
    return m.seen[v] == m.now;
}

/* The same kernels for a width known only at run time (the switch sits outside the loops). */
#define HP_DISPATCH(width, call8, call16, call32)                                             \
    ((width) == 1 ? (call8) : (width) == 2 ? (call16) : (call32))

static inline uint32_t get_value(const void *g, int width, size_t i)
{
    return HP_DISPATCH(width, ((const uint8_t *)g)[i], ((const uint16_t *)g)[i],
                       ((const uint32_t *)g)[i]);
}

/* For a split of total tokens into a + (total - a), lo <= a < hi:
 *   hp_mark_pairs    marks every value g[a] ^ g[total - a];
 *   hp_search_value  says whether the value c is among them (sparse.h's pair test; *scanned:
 *                    how many were compared, in whole blocks of HP_BLOCK);
 *   hp_mark_rare     marks g[r] ^ g[total - r] for the rare positions r < total (sorted; the
 *                    two heaps unequal in Grundy's game);
 *   hp_mark_triples  marks every three-heap split of total. */
void hp_mark_pairs(const void *g, int width, size_t total, size_t lo, size_t hi,
                   marks seen);
int hp_search_value(const void *g, int width, size_t total, size_t lo, size_t hi, uint32_t c,
                    size_t *scanned);
void hp_mark_rare(const void *g, int width, size_t total, const uint32_t *rpos,
                  const uint32_t *rval, size_t nrare, int unequal, marks seen);
void hp_mark_triples(const void *g, int width, size_t total, marks seen);

#endif
