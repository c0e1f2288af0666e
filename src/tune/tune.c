/* The thresholds. Each comes from the machine's caches, then a tuning
 * file (what dataloop-tune measured), then the environment, the later
 * winning; dl_tune_print says which one each value came from. */
#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tune.h"
#include "../../actions/actions.h"
#include "../../dataloop/env.h"

#define KIB ((size_t)1024)
#define MIB (1024 * KIB)

enum { K_NT, K_BATCH, NKEYS };

static const struct key {
  const char *file, *env;
  size_t lo, hi;           /* accepted values; nt_threshold 0 is "never" */
} keys[NKEYS] = {
  [K_NT] = {"nt_threshold", "DL_NT_THRESHOLD", 0, (size_t)1 << 50},
  [K_BATCH] = {"list_batch", "DL_LIST_BATCH", 16, 1 << 20},
};

static struct {
  dl_tune t;
  const char *source[NKEYS];
  char path[4096];
  dli_copy_sizes limits;
} st;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static size_t *field(int k)
{
  return k == K_NT ? &st.t.nt_threshold : &st.t.list_batch;
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
  /* a batch's offset and length arrays (16 bytes an entry) fill two L1s */
  st.t.list_batch = topo.l1d ? clamp(topo.l1d / 8, 256, 1 << 16) : 4096;
  if (!topo.l1d)
    st.source[K_BATCH] = "default";
  /* non-temporal stores only where dataloop-tune measured that they win */
  st.t.nt_threshold = 0;
  st.source[K_NT] = "default";
}

bool dli_tune_file_path(char *out, size_t n)
{
  const char *p = getenv("DL_TUNE_FILE"), *x = getenv("XDG_CONFIG_HOME"),
             *h = getenv("HOME");
  if (p && *p)
    snprintf(out, n, "%s", p);
  else if (x && *x)
    snprintf(out, n, "%s/dataloop/tune.conf", x);
  else if (h && *h)
    snprintf(out, n, "%s/.config/dataloop/tune.conf", h);
  else
    return false;
  return true;
}

/* one line "name value" (or "name = value", # comments): name and value
   cut out in place; false for a line without a name */
static bool split_line(char *line, char **name, char **value)
{
  char *s = line, *hash = strchr(line, '#');
  if (hash)
    *hash = '\0';
  while (isspace((unsigned char)*s))
    s++;
  *name = s;
  while (*s && !isspace((unsigned char)*s) && *s != '=')
    s++;
  bool any = s > *name;
  char *end_name = s;
  while (isspace((unsigned char)*s) || *s == '=')
    s++;
  *end_name = '\0';
  char *end = s + strlen(s);
  while (end > s && isspace((unsigned char)end[-1]))
    *--end = '\0';
  *value = s;
  return any;
}

bool dli_tune_file_each(void (*fn)(void *ctx, const char *name, const char *value),
                        void *ctx)
{
  char path[4096];
  FILE *f = dli_tune_file_path(path, sizeof(path)) ? fopen(path, "r") : NULL;
  if (!f)
    return false;
  char line[512];
  while (fgets(line, sizeof(line), f)) {
    char *name, *value;
    if (split_line(line, &name, &value))
      fn(ctx, name, value);
  }
  fclose(f);
  return true;
}

void dli_tune_lines_each(const char *text,
                         void (*fn)(void *ctx, const char *name, const char *value),
                         void *ctx)
{
  char line[512];
  while (text && *text) {
    size_t n = strcspn(text, "\n");
    snprintf(line, sizeof(line), "%.*s", (int)(n < sizeof(line) ? n : sizeof(line) - 1),
             text);
    char *name, *value;
    if (split_line(line, &name, &value))
      fn(ctx, name, value);
    text += n + (text[n] == '\n');
  }
}

/* the core's own keys of the tuning file */
static void core_key(void *ctx, const char *name, const char *value)
{
  (void)ctx;
  for (int k = 0; k < NKEYS; k++)
    if (strcmp(name, keys[k].file) == 0)
      set(k, value, "file");
}

static void load(void)
{
  derive();
  if (dli_tune_file_each(core_key, NULL) && dli_tune_file_path(st.path, sizeof(st.path)))
    st.t.file = st.path;
  for (int k = 0; k < NKEYS; k++) {
    size_t v = dli_env_bytes(keys[k].env, SIZE_MAX, keys[k].lo, keys[k].hi);
    if (v != SIZE_MAX) {
      *field(k) = v;
      st.source[k] = "environment";
    }
  }
  /* the stream order reads an interleaved element's lines once per copy;
     that costs nothing while one pass over them (about the packed size)
     stays in a core's L2 until the next: on Flash-like types the
     interleaved walk lost below half the L2 and won above it
     (doc/design.md, "Actions") */
  size_t l2 = st.t.l2, half = l2 ? l2 / 2 : 0;
  st.limits.nt = st.t.nt_threshold;
  st.limits.interleave = half ? half : (size_t)1 << 20;
  st.limits.chunk = !half ? (size_t)512 << 10 : half < ((size_t)32 << 10) ? (size_t)32 << 10
                  : half > ((size_t)4 << 20) ? (size_t)4 << 20 : half;
}

const dl_tune *dli_tune(void)
{
  pthread_once(&once, load);
  return &st.t;
}

const dli_copy_sizes *dli_copy_limits(void)
{
  pthread_once(&once, load);
  return &st.limits;
}

const dl_tune *dl_tune_get(void)
{
  return dli_tune();
}

void dli_tune_print_bytes(FILE *f, size_t v)
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
  dli_tune_print_bytes(f, t->l1d);
  fprintf(f, ", L2 ");
  dli_tune_print_bytes(f, t->l2);
  fprintf(f, ", L3 ");
  dli_tune_print_bytes(f, t->l3);
  fprintf(f, ", %d cores; tuning file: %s\n", t->cores, t->file ? t->file : "none");
  for (int k = 0; k < NKEYS; k++) {
    fprintf(f, "%-15s ", keys[k].file);
    dli_tune_print_bytes(f, *field(k));
    fprintf(f, "\t# %s; %s overrides\n", st.source[k], keys[k].env);
  }
  return ferror(f) ? DL_ERR_IO : DL_OK;
}
