/* The object cache: compiled code kept across runs. One file per key (the
 * shapes of a batch of loops), named by a hash and holding the key and the
 * identity of the build that wrote it, so a file serves only the loops it
 * was compiled from, for the same sources, LLVM and CPU; a checksum
 * catches a damaged file. A writer fills a file of its own and renames it
 * into place, so a reader sees a whole file or none. The folder is bounded
 * (trim). Callers hold the JIT's lock; the counters are for tests and the
 * benchmark. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "../../dataloop/env.h"
#include "codegen.h"

#define MAGIC "DLJITOB1"

typedef struct header {
  char magic[8];
  uint64_t ident_len, key_len, value_len;
  uint64_t sum;                 /* of everything after the header */
} header;

static struct {
  char *dir;                    /* NULL: no cache */
  char *ident;
  size_t ident_len;
  uint64_t ident_sum;           /* FNV-1a of the identity, where sums start */
  bool made;                    /* dir created */
  unsigned long temps;          /* temporary file names */
  size_t max;                   /* DL_JIT_CACHE_MAX */
  uint64_t total;               /* bytes in the folder, as of the last trim */
  bool trimmed;
  dli_objcache_counts n;
} C;

static uint64_t fnv_more(uint64_t h, const void *p, size_t n)
{
  const unsigned char *b = p;
  for (size_t i = 0; i < n; i++)
    h = (h ^ b[i]) * 1099511628211ull;
  return h;
}

#define FNV_START 1469598103934665603ull

static char *joined(const char *a, const char *b)
{
  size_t n = strlen(a) + strlen(b) + 1;
  char *s = malloc(n);
  if (s)
    snprintf(s, n, "%s%s", a, b);
  return s;
}

/* DL_JIT_CACHE names the folder (off, 0, no or false: no cache); else
   $XDG_CACHE_HOME/dataloop/jit, else $HOME/.cache/dataloop/jit */
static char *folder(void)
{
  const char *v = getenv("DL_JIT_CACHE");
  if (v && *v) {
    static const char *const off[] = {"off", "0", "no", "false"};
    for (size_t i = 0; i < sizeof(off) / sizeof(off[0]); i++)
      if (!strcasecmp(v, off[i]))
        return NULL;
    return strdup(v);
  }
  v = getenv("XDG_CACHE_HOME");
  if (v && *v == '/')
    return joined(v, "/dataloop/jit");
  v = getenv("HOME");
  if (v && *v == '/')
    return joined(v, "/.cache/dataloop/jit");
  return NULL;
}

void dli_objcache_start(const char *ident)
{
  C.dir = folder();
  C.max = dli_env_bytes("DL_JIT_CACHE_MAX", (size_t)64 << 20, 4096, SIZE_MAX / 2);
  C.ident = strdup(ident);
  C.ident_len = strlen(ident);
  C.ident_sum = fnv_more(FNV_START, ident, C.ident_len);
  if (!C.ident) {
    free(C.dir);
    C.dir = NULL;
  }
}

const char *dli_objcache_dir(void)
{
  return C.dir;
}

const char *dli_objcache_identity(void)
{
  return C.ident;
}

void dli_objcache_counts_get(dli_objcache_counts *out)
{
  *out = C.n;
}

static uint64_t name_hash(const void *key, size_t len)
{
  return fnv_more(C.ident_sum, key, len);
}

static char *path_of(uint64_t h, const char *tail)
{
  size_t n = strlen(C.dir) + 64;
  char *p = malloc(n);
  if (p)
    snprintf(p, n, "%s/%016" PRIx64 "%s", C.dir, h, tail);
  return p;
}

/* all n bytes, read into p or (out) written from it: short transfers and
   EINTR retried */
static bool transfer(int fd, void *p, size_t n, bool out)
{
  char *c = p;
  while (n) {
    ssize_t r = out ? write(fd, c, n) : read(fd, c, n);
    if (r < 0 && errno == EINTR)
      continue;
    if (r <= 0)
      return false;
    c += r;
    n -= (size_t)r;
  }
  return true;
}

static bool read_all(int fd, void *p, size_t n)
{
  return transfer(fd, p, n, false);
}

static bool write_all(int fd, const void *p, size_t n)
{
  return transfer(fd, (void *)p, n, true);
}

/* the value stored under key by this build, checked whole, or NULL */
static void *load(int fd, const void *key, size_t len, size_t *value_len)
{
  /* one read of the whole file; the sum of its identity is known */
  struct stat st;
  size_t il = C.ident_len;
  if (fstat(fd, &st) || (uint64_t)st.st_size < sizeof(header) + il + len ||
      (uint64_t)st.st_size > ((uint64_t)1 << 31))
    return NULL;
  char *b = malloc((size_t)st.st_size);
  if (!b)
    return NULL;
  header h;
  size_t rest = (size_t)st.st_size - sizeof(h);
  char *r = b + sizeof(h);
  bool ok = read_all(fd, b, (size_t)st.st_size);
  if (ok) {
    memcpy(&h, b, sizeof(h));
    ok = !memcmp(h.magic, MAGIC, 8) && h.ident_len == il && h.key_len == len &&
         h.value_len == rest - il - len && !memcmp(r, C.ident, il) &&
         !memcmp(r + il, key, len) && fnv_more(C.ident_sum, r + il, rest - il) == h.sum;
  }
  if (!ok) {
    free(b);
    return NULL;
  }
  memmove(b, r + il + len, h.value_len);
  *value_len = h.value_len;
  return b;
}

void *dli_objcache_get(const void *key, size_t len, size_t *value_len)
{
  if (!C.dir)
    return NULL;
  char *p = path_of(name_hash(key, len), ".dlo");
  int fd = p ? open(p, O_RDONLY | O_CLOEXEC) : -1;
  free(p);
  if (fd < 0) {
    C.n.misses++;
    return NULL;
  }
  void *v = load(fd, key, len, value_len);
  close(fd);
  if (v)
    C.n.hits++;
  else
    C.n.refused++;
  return v;
}

/* the folder and its parents, private to the user */
static bool make_dir(void)
{
  if (C.made)
    return true;
  char *p = strdup(C.dir);
  if (!p)
    return false;
  for (char *s = p + 1;; s++) {
    bool end = *s == '\0';
    if (end || *s == '/') {
      *s = '\0';
      if (mkdir(p, 0700) && errno != EEXIST)
        break;
      if (end) {
        C.made = true;
        break;
      }
      *s = '/';
    }
  }
  free(p);
  return C.made;
}

/* ---- the bound ---- */

typedef struct item {
  time_t mtime;
  uint64_t size;
  char *name;
} item;

static int older(const void *a, const void *b)
{
  const item *x = a, *y = b;
  return (x->mtime > y->mtime) - (x->mtime < y->mtime);
}

static bool ends_with(const char *s, const char *tail)
{
  size_t n = strlen(s), t = strlen(tail);
  return n >= t && !strcmp(s + n - t, tail);
}

/* A process's first write, and one that would take the folder past
   DL_JIT_CACHE_MAX, look at the folder: temporaries an hour old (their
   writer died) go, and, if the incoming object would pass the bound, the
   oldest objects until half the bound is left and the object fits. */
static void trim(uint64_t incoming)
{
  DIR *d = opendir(C.dir);
  if (!d)
    return;
  item *it = NULL;
  size_t n = 0, cap = 0;
  uint64_t total = 0;
  time_t stale = time(NULL) - 3600;
  for (struct dirent *e; (e = readdir(d));) {
    struct stat st;
    bool obj = ends_with(e->d_name, ".dlo");
    if ((!obj && !ends_with(e->d_name, ".tmp")) ||
        fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) || !S_ISREG(st.st_mode))
      continue;
    if (!obj) {
      if (st.st_mtime < stale)
        unlinkat(dirfd(d), e->d_name, 0);
      continue;
    }
    if (n == cap) {
      cap = cap ? 2 * cap : 64;
      item *m = realloc(it, cap * sizeof(item));
      if (!m)
        break;
      it = m;
    }
    if (!(it[n].name = strdup(e->d_name)))
      break;
    it[n].mtime = st.st_mtime;
    it[n++].size = (uint64_t)st.st_size;
    total += (uint64_t)st.st_size;
  }
  if (total + incoming > C.max) {
    qsort(it, n, sizeof(item), older);
    for (size_t i = 0; i < n && (total > C.max / 2 || total + incoming > C.max); i++)
      if (!unlinkat(dirfd(d), it[i].name, 0)) {
        total -= it[i].size;
        C.n.evicted++;
      }
  }
  for (size_t i = 0; i < n; i++)
    free(it[i].name);
  free(it);
  closedir(d);
  C.total = total;
  C.trimmed = true;
}

void dli_objcache_put(const void *key, size_t len, const void *value, size_t value_len)
{
  if (!C.dir)
    return;
  uint64_t nh = name_hash(key, len);
  size_t il = C.ident_len;
  header h = {MAGIC, il, len, value_len,
              fnv_more(fnv_more(C.ident_sum, key, len), value, value_len)};
  char tail[48];
  snprintf(tail, sizeof(tail), ".%ld.%lu.tmp", (long)getpid(), C.temps++);
  char *tmp = path_of(nh, tail), *final = path_of(nh, ".dlo");
  uint64_t bytes = sizeof(h) + il + len + value_len;
  bool made = bytes <= C.max && make_dir();     /* (an object past the bound: not kept) */
  if (made && (!C.trimmed || C.total + bytes > C.max))
    trim(bytes);
  int fd = -1;
  bool done = tmp && final && made &&
              (fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600)) >= 0;
  if (done)
    done = write_all(fd, &h, sizeof(h)) && write_all(fd, C.ident, il) &&
           write_all(fd, key, len) && write_all(fd, value, value_len);
  if (fd >= 0 && close(fd))
    done = false;
  if (done)
    done = rename(tmp, final) == 0;
  if (!done && fd >= 0)
    unlink(tmp);
  if (done) {
    C.n.written++;
    C.total += bytes;
  } else
    C.n.failed++;
  free(tmp);
  free(final);
}
