/* The thresholds. Each comes from the machine's caches, then a tuning
 * file (what dataloop-tune measured), then the environment, the later
 * winning; dl_tune_print says which one each value came from. */
#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tune.h"
#include "../../dataloop/env.h"

#define KIB ((size_t)1024)
#define MIB (1024 * KIB)

enum { K_CHUNK, K_NT, K_BATCH, K_DIRECT, NKEYS };

static const struct key {
  const char *file, *env;
  size_t lo, hi;           /* accepted values; nt_threshold 0 is "never" */
} keys[NKEYS] = {
  [K_CHUNK] = {"pipeline_chunk", "DL_PIPELINE_CHUNK", 1, 1024 * MIB},
  [K_NT] = {"nt_threshold", "DL_NT_THRESHOLD", 0, (size_t)1 << 50},
  [K_BATCH] = {"list_batch", "DL_LIST_BATCH", 16, 1 << 20},
  [K_DIRECT] = {"direct_block", "DL_DIRECT_BLOCK", 1, (size_t)1 << 50},
};

static struct {
  dl_tune t;
  const char *source[NKEYS];
  char path[4096];
} st;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static size_t *field(int k)
{
  switch (k) {
  case K_CHUNK: return &st.t.pipeline_chunk;
  case K_NT: return &st.t.nt_threshold;
  case K_BATCH: return &st.t.list_batch;
  default: return &st.t.direct_block;
  }
}

static void set(int k, const char *text, const char *source)
{
  size_t v;
  if (dli_parse_bytes(text, &v) && v >= keys[k].lo && v <= keys[k].hi) {
    *field(k) = v;
    st.source[k] = source;
  }
}

static size_t clamp(size_t v, size_t lo, size_t hi)
{
  return v < lo ? lo : v > hi ? hi : v;
}

/* from the caches: see doc/tuning.md for why each */
static void derive(void)
{
  dli_topology topo;
  dli_topology_read(&topo);
  st.t.l1d = topo.l1d;
  st.t.l2 = topo.l2;
  st.t.l3 = topo.l3;
  st.t.cores = topo.cores;
  const char *machine = topo.from_hwloc ? "hwloc" : "sysconf";
  for (int k = 0; k < NKEYS; k++)
    st.source[k] = topo.l2 ? machine : "default";
  /* a pipeline ring of four chunks stays in one core's L2 */
  st.t.pipeline_chunk = topo.l2 ? clamp(topo.l2 / 4, 64 * KIB, 4 * MIB) : 256 * KIB;
  /* a block of half the L2 or more is not in cache by the time its packed
     copy is sent: packing it costs a whole extra pass over memory */
  st.t.direct_block = topo.l2 ? clamp(topo.l2 / 2, 64 * KIB, 16 * MIB) : 512 * KIB;
  /* a batch's offset and length arrays (16 bytes an entry) fill two L1s */
  st.t.list_batch = topo.l1d ? clamp(topo.l1d / 8, 256, 1 << 16) : 4096;
  if (!topo.l1d)
    st.source[K_BATCH] = "default";
  /* non-temporal stores only where dataloop-tune measured that they win */
  st.t.nt_threshold = 0;
  st.source[K_NT] = "default";
}

/* a line "direct_block@<message> <block>": replaces an entry of the same
   message size, else adds one while there is room */
static void set_direct_at(const char *message, const char *block)
{
  size_t m, b;
  if (!dli_parse_bytes(message, &m) || m == 0 || !dli_parse_bytes(block, &b) ||
      b < keys[K_DIRECT].lo || b > keys[K_DIRECT].hi)
    return;
  int i = 0;
  while (i < st.t.direct_sizes && st.t.direct_at[i].message != m)
    i++;
  if (i == DL_TUNE_DIRECT_MAX)
    return;
  st.t.direct_at[i] = (struct dl_tune_direct){m, b};
  if (i == st.t.direct_sizes)
    st.t.direct_sizes++;
}

/* DL_TUNE_FILE, else $XDG_CONFIG_HOME (or ~/.config)/dataloop/tune.conf */
static void read_file(void)
{
  const char *p = getenv("DL_TUNE_FILE");
  if (p && *p) {
    snprintf(st.path, sizeof(st.path), "%s", p);
  } else {
    const char *x = getenv("XDG_CONFIG_HOME"), *h = getenv("HOME");
    if (x && *x)
      snprintf(st.path, sizeof(st.path), "%s/dataloop/tune.conf", x);
    else if (h && *h)
      snprintf(st.path, sizeof(st.path), "%s/.config/dataloop/tune.conf", h);
    else
      return;
  }
  FILE *f = fopen(st.path, "r");
  if (!f)
    return;
  st.t.file = st.path;
  char line[256];
  while (fgets(line, sizeof(line), f)) {
    char *s = line, *hash = strchr(line, '#');
    if (hash)
      *hash = '\0';
    while (isspace((unsigned char)*s))
      s++;
    char *name = s;
    while (*s && !isspace((unsigned char)*s) && *s != '=')
      s++;
    size_t len = (size_t)(s - name);
    while (isspace((unsigned char)*s) || *s == '=')
      s++;
    char *end = s + strlen(s);
    while (end > s && isspace((unsigned char)end[-1]))
      *--end = '\0';
    for (int k = 0; k < NKEYS; k++)
      if (len == strlen(keys[k].file) && strncmp(name, keys[k].file, len) == 0)
        set(k, s, "file");
    size_t key = strlen(keys[K_DIRECT].file);     /* direct_block@<message> */
    if (len > key + 1 && strncmp(name, keys[K_DIRECT].file, key) == 0 &&
        name[key] == '@') {
      name[len] = '\0';
      set_direct_at(name + key + 1, s);
    }
  }
  fclose(f);
}

static void load(void)
{
  derive();
  read_file();
  for (int k = 0; k < NKEYS; k++) {
    size_t v = dli_env_bytes(keys[k].env, SIZE_MAX, keys[k].lo, keys[k].hi);
    if (v != SIZE_MAX) {
      *field(k) = v;
      st.source[k] = "environment";
    }
  }
  /* DL_DIRECT_BLOCK is one threshold for every message size */
  if (strcmp(st.source[K_DIRECT], "environment") == 0)
    st.t.direct_sizes = 0;
}

const dl_tune *dli_tune(void)
{
  pthread_once(&once, load);
  return &st.t;
}

const dl_tune *dl_tune_get(void)
{
  return dli_tune();
}

/* how far apart two sizes are on a log scale: the larger over the smaller */
static double size_ratio(size_t a, size_t b)
{
  return a < b ? (double)b / (double)a : (double)a / (double)b;
}

size_t dl_tune_direct_block(size_t message_bytes)
{
  const dl_tune *t = dli_tune();
  size_t block = t->direct_block;
  double best = 0;
  for (int i = 0; i < t->direct_sizes; i++) {
    double d = size_ratio(message_bytes ? message_bytes : 1, t->direct_at[i].message);
    if (i == 0 || d < best) {
      best = d;
      block = t->direct_at[i].block;
    }
  }
  return block;
}

static void bytes(FILE *f, size_t v)
{
  if (v && v % MIB == 0)
    fprintf(f, "%zuM", v / MIB);
  else if (v && v % KIB == 0)
    fprintf(f, "%zuK", v / KIB);
  else
    fprintf(f, "%zu", v);
}

int dl_tune_print(FILE *f)
{
  if (!f)
    return DL_ERR_ARG;
  const dl_tune *t = dli_tune();
  fprintf(f, "# dataloop tuning: caches L1d ");
  bytes(f, t->l1d);
  fprintf(f, ", L2 ");
  bytes(f, t->l2);
  fprintf(f, ", L3 ");
  bytes(f, t->l3);
  fprintf(f, ", %d cores; tuning file: %s\n", t->cores, t->file ? t->file : "none");
  for (int k = 0; k < NKEYS; k++) {
    fprintf(f, "%-15s ", keys[k].file);
    bytes(f, *field(k));
    fprintf(f, "\t# %s; %s overrides\n", st.source[k], keys[k].env);
  }
  for (int i = 0; i < t->direct_sizes; i++) {
    fprintf(f, "%s", keys[K_DIRECT].file);
    fputc('@', f);
    bytes(f, t->direct_at[i].message);
    fputc(' ', f);
    bytes(f, t->direct_at[i].block);
    fprintf(f, "\t# file: messages of about this size; %s overrides\n",
            keys[K_DIRECT].env);
  }
  return ferror(f) ? DL_ERR_IO : DL_OK;
}
