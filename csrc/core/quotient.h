/*
 * quotient.h -- the hot loops of the misère quotient construction (quotient.c), plain C99.
 *
 * A candidate is a commutative monoid of m elements given by its table mul (m x m, row-major,
 * element 0 the identity), a P-portion p[m] (0/1), and the heaps with a move as generators:
 * gen[i] is the element of the i-th generator (the largest heap first, the lex order of
 * A. Siegel's MisereSolver) and opt[opt_start[i] .. opt_start[i + 1]) the elements of its
 * options (opt has nopt entries).  Both loops walk the positions depth-first in that lex
 * order (the exponent of generator 0 outermost), cutting a branch where it can only repeat
 * what came before.
 * Every index is checked against m before use; poll may be NULL.
 */
#ifndef NIMBERS_QUOTIENT_H
#define NIMBERS_QUOTIENT_H

#include <stddef.h>
#include <stdint.h>

#include "nimcore.h"

/* A monoid given as a table times cyclic monoids, for candidates too large to tabulate: the
 * table mul (m0 x m0, element 0 the identity) and, for each of ncycles factors,
 * <x | x^(index + period) = x^index>; element a0 + m0 (k1 + c1 (k2 + ...)) is a0 times the
 * k-th powers (c = index + period, the factor's size).  m, the number of elements, must fit
 * in an int32.  With ncycles 0 it is the table alone. */
typedef struct {
    const int32_t *mul;
    size_t m0;
    size_t ncycles;
    const int32_t *index, *period;
} mq_monoid;

/* P read off the monoid: each element the generators reach takes the outcome of its lex-least
 * position (in P when it has a move and none of its options' elements is in P), computed
 * from its options' elements, all met before it.  p[m] is written (0 for elements not
 * reached).  The lex-least positions themselves: order[0 .. *reached) lists the elements
 * reached in lex order of their positions (0 first), and the position of order[k], k > 0,
 * is that of parent[order[k]] plus one heap, generator via[order[k]] (parent, via and order
 * hold m entries each).  NC_OK, NC_NOMEM, NC_STOPPED or NC_BADARG (an index out of
 * range). */
int mq_mark_p(const mq_monoid *M, const int32_t *gen, size_t ng,
              const int64_t *opt_start, const int32_t *opt, size_t nopt, uint8_t *p,
              int32_t *parent, int32_t *via, int32_t *order, size_t *reached,
              const nc_poll *poll);

/* The lex-least non-empty position whose element is outside P but none of whose options'
 * elements is in P (an N-failure), over the states (element, W), W the set of z for which
 * some option's element times z is in P; a position whose state contains an earlier one's
 * (same element, W a superset) is not extended.  On NC_OK: *found is 1 with exps[ng] the
 * failure's exponents, 0 when there is none, -1 when more than max_states states were
 * needed; *states is the number of states kept.  NC_NOMEM, NC_STOPPED, NC_BADARG. */
int mq_n_failure(const int32_t *mul, size_t m, const uint8_t *p, const int32_t *gen,
                 size_t ng, const int64_t *opt_start, const int32_t *opt, size_t nopt,
                 size_t max_states,
                 uint32_t *exps, int *found, size_t *states, const nc_poll *poll);

/* Moore's partition refinement of an automaton of n states: delta[i * n + s] is where letter
 * i (of ng) takes state s, out[s] its output.  On NC_OK, cls[s] is the class of s (classes
 * numbered 0 .. *count - 1 in order of first appearance): two states share a class exactly
 * when every word leads them to states of the same output.  NC_NOMEM, NC_STOPPED,
 * NC_BADARG (a target out of range, or n past 2^31). */
int mq_refine(const int32_t *delta, size_t ng, size_t n, const uint8_t *out, int32_t *cls,
              size_t *count, const nc_poll *poll);

#endif
