/*
 * frontier.h -- long runs of heap games in the sparse space, in bounded memory (the engine of
 * this folder: README.md).
 *
 * The engine keeps in RAM only what later values can need: the first heap sizes (the head),
 * a window of recent values, and the "parts" -- the rare heap sizes with their values plus
 * the first heap sizes, whose splits are marked for every position.  Every older value is read
 * back from the caller's values file (pread), which the caller appends to between steps.
 * Values are below 2^16.  A step may use several threads and gives the same values for any
 * number of them.  Plain C (no Python.h); the caller owns the file, checksums and checkpoints.
 */
#ifndef NIMBERS_FRONTIER_H
#define NIMBERS_FRONTIER_H

#include <stddef.h>
#include <stdint.h>

#include "../nimcore.h"

typedef struct fr_state fr_state;

/* A new engine for the game of rules[0..nrules) (take-and-break digits, moves leaving at most
 * two heaps; NULL: Grundy's game) with threads >= 1 threads, head_cap values kept from heap
 * size 0 and window >= 2^12 recent values.  NULL when out of memory or the rules leave three
 * heaps. */
fr_state *fr_new(const unsigned *rules, size_t nrules, int threads, size_t head_cap,
                 size_t window);
void fr_free(fr_state *s);

/* The values file: fd open for reading, holding g(0..) in width (1 or 2) bytes each, little
 * endian, at least up to every value fed or stepped so far when the next step starts. */
void fr_set_file(fr_state *s, int fd, int width);

/* Appends known values g(done..done+n) (a resumed run feeds its file); NC_OK or NC_NOMEM. */
int fr_feed(fr_state *s, const uint16_t *values, size_t n);

/* Uses the sparse-space mask emask over 2 g(i) + (i mod 2) (any mask gives exact values; a
 * good one makes few heap sizes rare) and rebuilds the rare list from all values so far.
 * NC_OK, NC_NOMEM, NC_BADARG (a parity bit where splits remove tokens of both parities) or
 * NC_STOPPED. */
int fr_set_mask(fr_state *s, uint32_t emask, const nc_poll *poll);

/* Computes g(done..done+count) into out[0..count); *made: how many were computed (fewer when
 * the window's room ends, a value outgrows the tables, or the poll stops the step).  NC_OK,
 * NC_NOMEM, NC_STOPPED (out[0..*made) valid), NC_BADARG (no mask yet, or a value >= 2^16). */
int fr_step(fr_state *s, size_t count, uint16_t *out, size_t *made, const nc_poll *poll);

/* What the engine holds: values known, rare heap sizes >= 1 and the last of them, the bit
 * width of the values, the mask, the number of parts, the values computed a block at a time
 * (block.c), the speculations taken back (with three threads or more: each a
 * position whose proof found a smaller value of rare class), the values made by narrow steps
 * (narrow.c), the heap sizes up to which the blocks go alone, or make their
 * candidates again without the lag parts' values (the helper's lag: block.c), and the values
 * a team of threads settled (block_team.c; speculations taken back included). */
typedef struct {
    uint64_t done, rare, last_rare, blocked, taken_back, narrowed, alone_until, lag_until;
    uint64_t teamed;
    unsigned bits;
    uint32_t emask;
    size_t parts, near_limit;
} fr_info;
void fr_get_info(const fr_state *s, fr_info *info);

/* The paths of the blocks' vector kernels (simd.c), narrowest first: portable C on
 * any CPU, AVX2, AVX-512 (F, BW, VBMI2).  Every path gives the same values; a new engine takes
 * the widest this CPU runs. */
enum { FR_PATH_PORTABLE = 0, FR_PATH_AVX2 = 1, FR_PATH_AVX512 = 2, FR_PATHS = 3 };
int fr_path_supported(int path);
int fr_path_best(void);
const char *fr_path_name(int path); /* "portable", "avx2", "avx512"; NULL past them */
/* Forces the path of s (before its first step): NC_OK, or NC_BADARG when this CPU lacks it. */
int fr_set_path(fr_state *s, int path);
int fr_get_path(const fr_state *s);

#endif
