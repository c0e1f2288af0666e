/* A recursive reference walk of a loop tree, for tests: calls fn for
 * every contiguous run in packed order. */
#ifndef TEST_LOOPWALK_H
#define TEST_LOOPWALK_H

#include "loop.h"

typedef int (*dli_run_fn)(void *ctx, dl_aint addr, dl_count len);
int dli_loop_walk(const dli_loop *l, dl_aint origin, dli_run_fn fn, void *ctx);

#endif
