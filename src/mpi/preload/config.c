/* The interposer's settings, read once from the environment, and its trace
 * output. It prints nothing unless DL_TRACE=1 (test harnesses treat any
 * output as failure). */
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "preload.h"
#include "../../../dataloop/env.h"

#define MAX_CHUNK (1u << 30)     /* chunks use the int-count MPI calls */

static dlp_config cfg;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void)
{
  /* the machine's thresholds, a tuning file and DL_PIPELINE_CHUNK and
     DL_DIRECT_BLOCK are dl_tune's (strategy.c asks it per message size) */
  const dl_tune *t = dl_tune_get();
  static const char *const strategies[] = {"auto", "pack", "blocks", "pipe", "mpich",
                                           NULL};
  static const int strategy_of[] = {-1, DLP_S_PACK, DLP_S_BLOCKS, DLP_S_PIPE,
                                    DLP_S_MPICH};
  cfg.trace = dli_env_flag("DL_TRACE", false);
  cfg.pipeline = dli_env_flag("DL_PIPELINE", false);
  cfg.adapt = dli_env_flag("DL_ADAPT", true);
  cfg.chunk = t->pipeline_chunk < MAX_CHUNK ? t->pipeline_chunk : MAX_CHUNK;
  cfg.ring = (int)dli_env_int("DL_PIPELINE_RING", 4, 2, 4);
  cfg.try_mpich = dli_env_flag("DL_TRY_MPICH", true);
  cfg.strategy = strategy_of[dli_env_choice("DL_STRATEGY", strategies, 0)];
  if (cfg.trace)
    dlp_trace("active: %s mode, chunk %zu bytes, ring %d, strategy %s%s, direct "
              "blocks from %zu bytes (%d sizes measured)", cfg.pipeline ? "pipeline"
              : "default", cfg.chunk, cfg.ring, cfg.strategy < 0 ? "auto"
              : dlp_strategy_name(cfg.strategy), !cfg.adapt ? ""
              : cfg.try_mpich ? " (timed)" : " (timed, MPICH's engine not tried)",
              t->direct_block, t->direct_sizes);
}

const dlp_config *dlp_cfg(void)
{
  pthread_once(&once, load);
  return &cfg;
}

void dlp_configure(bool pipeline, size_t chunk)
{
  pthread_once(&once, load);
  cfg.pipeline = pipeline;
  if (chunk > 0 && chunk <= MAX_CHUNK)
    cfg.chunk = chunk;
}

void dlp_configure_strategy(int strategy)
{
  pthread_once(&once, load);
  cfg.strategy = strategy;
}

void dlp_configure_adapt(bool adapt)
{
  pthread_once(&once, load);
  cfg.adapt = adapt;
}

void dlp_configure_try_mpich(bool try_mpich)
{
  pthread_once(&once, load);
  cfg.try_mpich = try_mpich;
}

void dlp_trace(const char *fmt, ...)
{
  char line[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof(line), fmt, ap);
  va_end(ap);
  fprintf(stderr, "[dataloop-preload %d] %s\n", (int)getpid(), line);
}

/* lets a program (or a test) see that the interposer is loaded */
__attribute__((visibility("default"))) int dl_preload_active(void)
{
  return 1;
}
