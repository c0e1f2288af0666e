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

#define MAX_CHUNK (1u << 30)     /* chunks use the int-count MPI calls */

static dlp_config cfg;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static bool flag(const char *name)
{
  const char *v = getenv(name);
  return v && *v && strcmp(v, "0") != 0;
}

/* a byte count with an optional K, M or G suffix; def when absent or bad */
static size_t bytes(const char *name, size_t def, size_t lo, size_t hi)
{
  const char *v = getenv(name);
  if (!v || !*v)
    return def;
  char *end;
  unsigned long long n = strtoull(v, &end, 10);
  int shift = *end == 'K' || *end == 'k' ? 10 : *end == 'M' || *end == 'm' ? 20
            : *end == 'G' || *end == 'g' ? 30 : 0;
  if (shift)
    end++;
  if (*end || end == v || n > (hi >> shift))
    return def;
  n <<= shift;
  return n < lo ? def : (size_t)n;
}

static void load(void)
{
  /* the machine's thresholds, a tuning file and DL_PIPELINE_CHUNK and
     DL_DIRECT_BLOCK are dl_tune's (strategy.c asks it per message size) */
  const dl_tune *t = dl_tune_get();
  cfg.trace = flag("DL_TRACE");
  cfg.pipeline = flag("DL_PIPELINE");
  const char *adapt = getenv("DL_ADAPT");
  cfg.adapt = !(adapt && strcmp(adapt, "0") == 0);
  cfg.chunk = t->pipeline_chunk < MAX_CHUNK ? t->pipeline_chunk : MAX_CHUNK;
  cfg.ring = (int)bytes("DL_PIPELINE_RING", 4, 2, 4);
  const char *tm = getenv("DL_TRY_MPICH");
  cfg.try_mpich = !(tm && strcmp(tm, "0") == 0);
  const char *s = getenv("DL_STRATEGY");
  cfg.strategy = s && !strcmp(s, "pack") ? DLP_S_PACK
               : s && !strcmp(s, "blocks") ? DLP_S_BLOCKS
               : s && !strcmp(s, "pipe") ? DLP_S_PIPE
               : s && !strcmp(s, "mpich") ? DLP_S_MPICH : -1;
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
