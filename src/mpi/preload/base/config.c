/* The interposer's settings, read once from the environment, and its trace
 * output. It prints nothing unless DL_TRACE=1 (test harnesses treat any
 * output as failure). */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "thresholds.h"
#include "host.h"
#include "../../../../dataloop/env.h"

static dlp_config cfg;
static size_t chunk;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void)
{
  static const char *const strategies[] = {"auto", "pack", "blocks", "pipe", "mpich",
                                           NULL};
  static const int route_of[] = {-1, DLP_R_PACK, DLP_R_BLOCKS, DLP_R_PIPE,
                                 DLP_R_MPICH};
  cfg.trace = dli_env_flag("DL_TRACE", false);
  cfg.pipeline = dli_env_flag("DL_PIPELINE", false);
  cfg.adapt = dli_env_flag("DL_ADAPT", false);
  cfg.ring = (int)dli_env_int("DL_PIPELINE_RING", 4, 2, 4);
  cfg.strategy = route_of[dli_env_choice("DL_STRATEGY", strategies, 0)];
  static const char *const lands[] = {"never", "auto", "always", NULL};
  cfg.land = dli_env_choice("DL_RMA_LAND", lands, 1) - 1;
  cfg.land_chunk = (size_t)dli_env_int("DL_RMA_LAND_CHUNK", 0, 0, 1 << 30);
  cfg.map = dli_env_choice("DL_RMA_MAP", lands, 1) - 1;
  static const char *const peers[] = {"check", "all", "none", NULL};
  cfg.peers = dli_env_choice("DL_RMA_PEERS", peers, DLP_PEERS_CHECK);
  chunk = dlp_th()->chunk;
  if (cfg.trace)
    dlp_trace("active: %s mode, chunk %zu bytes, ring %d, route %s%s, %d route "
              "table rows, host %s", cfg.pipeline ? "pipeline" : "default", chunk,
              cfg.ring, cfg.strategy < 0 ? "auto" : dlp_route_name(cfg.strategy),
              cfg.adapt ? " (calibrated)" : "", dlp_th()->route.rows,
              dlp_host_name() ? dlp_host_name() : "unknown (every workaround)");
}

const dlp_config *dlp_cfg(void)
{
  pthread_once(&once, load);
  return &cfg;
}

size_t dlp_chunk(void)
{
  pthread_once(&once, load);
  return chunk;
}

void dlp_configure(bool pipeline, size_t c)
{
  pthread_once(&once, load);
  cfg.pipeline = pipeline;
  if (c > 0 && c <= (1u << 30))
    chunk = c;
}

void dlp_configure_strategy(int route)
{
  pthread_once(&once, load);
  cfg.strategy = route;
}

void dlp_configure_land(int land)
{
  pthread_once(&once, load);
  cfg.land = land;
}

void dlp_configure_map(int map)
{
  pthread_once(&once, load);
  cfg.map = map;
}

void dlp_configure_adapt(bool adapt)
{
  pthread_once(&once, load);
  cfg.adapt = adapt;
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
