/* The object cache of compiled code: a second run loads what the first
 * compiled and moves the model's bytes with it; a damaged file, a file of
 * another build, writers racing on one folder, a full disk and a folder
 * that cannot be made each leave the program correct. Every run is a
 * child process (a cache serves later processes; this one never starts
 * the JIT), reporting its counts through a pipe. */
#include <check.h>
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "buffers.h"
#include "codegen.h"
#include "llvm.h"
#include "runner.h"

static uint64_t seed;

typedef struct report {
  dli_objcache_counts n;
  bool cache_on;             /* the child had a cache folder */
  int compiled;              /* types that got code */
  unsigned long own, by_llvm;   /* objects linked by elfload.c, by LLVM's linker */
  int wrong;                 /* types whose bytes differ from the model's */
  char first[160];           /* the first of those */
} report;

typedef struct run {
  const char *dir;           /* DL_JIT_CACHE */
  uint64_t seed;             /* the types drawn */
  int types;
  long fsize;                /* > 0: the file size limit, a full disk */
  bool reverse;              /* compile them last to first */
  uint64_t before;           /* not 0: 20 types of this seed compiled first */
  const char *max;           /* DL_JIT_CACHE_MAX, if not NULL */
  const char *link;          /* DL_JIT_LINK, if not NULL */
} run;

static void wrong(report *rep, const char *what, const tcase *c)
{
  if (rep->wrong++ == 0)
    snprintf(rep->first, sizeof(rep->first), "%s: %s", what, c->rt.desc);
}

/* packs whole and in pieces in random order, unpacks whole: the model's bytes */
static void check_bytes(rng *r, const tcase *c, report *rep)
{
  char *want = malloc(c->size + 1), *got = malloc(c->size + 1);
  size_t edges[64], pos = 0;
  model_pack(c->runs, c->nruns, c->mem.origin, want);
  if (dl_pack(c->mem.origin, c->count, c->rt.t, got, c->size, &pos) ||
      pos != c->size || memcmp(want, got, c->size))
    wrong(rep, "pack", c);
  size_t ne = rng_cut(r, c->size, edges, 64), order[64];
  for (size_t k = 0; k + 1 < ne; k++)
    order[k] = k;
  rng_shuffle(r, order, ne - 1);
  dl_segment *s;
  memset(got, 0, c->size);
  if (dl_segment_create(c->mem.origin, c->count, c->rt.t, &s) == DL_OK) {
    for (size_t k = 0; k + 1 < ne; k++) {
      size_t a = edges[order[k]], z = edges[order[k] + 1], last = z;
      if (dl_segment_pack(s, a, &last, got + a) || last != z)
        wrong(rep, "segment pack", c);
    }
    dl_segment_free(&s);
  }
  if (memcmp(want, got, c->size))
    wrong(rep, "pieces", c);
  /* unpack what the model packed from other contents over this buffer */
  char *before = malloc(c->mem.len), *model_mem = malloc(c->mem.len);
  memcpy(before, c->mem.mem, c->mem.len);
  for (size_t i = 0; i < c->size; i++)
    want[i] = (char)(i * 7 + 1);
  memcpy(model_mem, before, c->mem.len);
  model_unpack(c->runs, c->nruns, model_mem + (c->mem.origin - c->mem.mem), want);
  pos = 0;
  if (dl_unpack(want, c->size, &pos, c->mem.origin, c->count, c->rt.t) ||
      memcmp(c->mem.mem, model_mem, c->mem.len))
    wrong(rep, "unpack", c);
  memcpy(c->mem.mem, before, c->mem.len);
  free(before);
  free(model_mem);
  free(want);
  free(got);
}

/* a type that always compiles: every run of more than one type starts
   with it, so every such run writes (or finds) at least one object */
static void anchor(report *rep)
{
  dl_type *t;
  double mem[12], out[4];
  for (int i = 0; i < 12; i++)
    mem[i] = i + 0.5;
  dl_type_vector(4, 1, 3, dl_builtin(DL_DOUBLE), &t);
  dl_type_commit(t);
  if (dl_type_compile(t) == DL_OK)
    rep->compiled++;
  size_t pos = 0;
  dl_pack(mem, 1, t, out, sizeof(out), &pos);
  if (pos != sizeof(out) || out[0] != mem[0] || out[1] != mem[3] || out[2] != mem[6] ||
      out[3] != mem[9])
    rep->wrong++;
  dl_type_free(&t);
}

/* draws the types, then compiles and checks them in order or reversed */
static void compile_all(const run *p, report *rep)
{
  if (p->types > 1)
    anchor(rep);
  if (p->before) {
    run q = {p->dir, p->before, 20, 0, false, 0, NULL, NULL};
    report other = {0};
    compile_all(&q, &other);
    rep->wrong += other.wrong;
    if (other.wrong)
      memcpy(rep->first, other.first, sizeof(rep->first));
  }
  rng r = {p->seed};
  tcase *c = calloc((size_t)p->types, sizeof(tcase));
  bool *made = calloc((size_t)p->types, sizeof(bool));
  for (int i = 0; i < p->types; i++)
    if (!(made[i] = tcase_new(&r, &c[i], 3, NULL, 0) == 0))
      wrong(rep, "generator", &c[i]);
  for (int k = 0; k < p->types; k++) {
    int i = p->reverse ? p->types - 1 - k : k;
    if (!made[i])
      continue;
    if (dl_type_compile(c[i].rt.t) == DL_OK)
      rep->compiled++;
    check_bytes(&r, &c[i], rep);
    tcase_free(&c[i]);
  }
  free(c);
  free(made);
}

/* starts p in a child process */
static pid_t start(const run *p, int *fd)
{
  int fds[2];
  ck_assert_int_eq(pipe(fds), 0);
  pid_t pid = fork();
  ck_assert_int_ge(pid, 0);
  if (pid > 0) {
    close(fds[1]);
    *fd = fds[0];
    return pid;
  }
  close(fds[0]);
  setenv("DL_JIT_CACHE", p->dir, 1);
  setenv("DL_JIT_THRESHOLD", "1000000", 1);     /* only explicit compiles */
  if (p->max)
    setenv("DL_JIT_CACHE_MAX", p->max, 1);
  if (p->link)
    setenv("DL_JIT_LINK", p->link, 1);
  if (p->fsize > 0) {
    signal(SIGXFSZ, SIG_IGN);                    /* writes fail with EFBIG */
    struct rlimit lim = {(rlim_t)p->fsize, (rlim_t)p->fsize};
    setrlimit(RLIMIT_FSIZE, &lim);
  }
  report rep = {0};
  compile_all(p, &rep);
  dli_objcache_counts_get(&rep.n);
  dli_jit_links(&rep.own, &rep.by_llvm);
  rep.cache_on = dli_objcache_dir() != NULL;
  _exit(write(fds[1], &rep, sizeof(rep)) == (ssize_t)sizeof(rep) ? 0 : 1);
}

static report finish(pid_t pid, int fd)
{
  report rep;
  ck_assert_int_eq(read(fd, &rep, sizeof(rep)), (ssize_t)sizeof(rep));
  close(fd);
  int status;
  ck_assert_int_eq(waitpid(pid, &status, 0), pid);
  ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  ck_assert_msg(rep.wrong == 0, "%d types moved wrong bytes, first %s", rep.wrong,
                rep.first);
  return rep;
}

static report in_child(const run *p)
{
  int fd;
  pid_t pid = start(p, &fd);
  return finish(pid, fd);
}

/* a fresh cache folder under TMPDIR or /tmp, named in d (not allocated:
   the child processes end with _exit) */
enum { DIRLEN = 4096 };
static void fresh_dir(char *d)
{
  const char *base = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
  snprintf(d, DIRLEN, "%s/dl-jitcache-XXXXXX", base);
  ck_assert_ptr_nonnull(mkdtemp(d));
}

/* the names in d: cached objects (*.dlo) and anything else; their bytes
   in *bytes, if not NULL */
static void list_dir_bytes(const char *d, int *objects, int *others, char *first,
                           size_t len, long *bytes)
{
  *objects = *others = 0;
  if (bytes)
    *bytes = 0;
  DIR *dir = opendir(d);
  if (!dir)
    return;
  for (struct dirent *e; (e = readdir(dir));) {
    if (e->d_name[0] == '.' && (!e->d_name[1] || !strcmp(e->d_name, "..")))
      continue;
    size_t l = strlen(e->d_name);
    if (bytes) {
      struct stat st;
      char p[4200];
      snprintf(p, sizeof(p), "%s/%s", d, e->d_name);
      if (!stat(p, &st))
        *bytes += (long)st.st_size;
    }
    if (l > 4 && !strcmp(e->d_name + l - 4, ".dlo")) {
      if ((*objects)++ == 0 && first)
        snprintf(first, len, "%s/%s", d, e->d_name);
    } else {
      (*others)++;
    }
  }
  closedir(dir);
}

static void list_dir(const char *d, int *objects, int *others, char *first, size_t len)
{
  list_dir_bytes(d, objects, others, first, len, NULL);
}

static void remove_dir(const char *d)
{
  DIR *dir = opendir(d);
  if (dir) {
    for (struct dirent *e; (e = readdir(dir));) {
      char p[4096];
      snprintf(p, sizeof(p), "%s/%s", d, e->d_name);
      if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
        unlink(p);
    }
    closedir(dir);
  }
  rmdir(d);
}

static long file_size(const char *p)
{
  struct stat st;
  ck_assert_int_eq(stat(p, &st), 0);
  return (long)st.st_size;
}

/* XORs byte at of file p with x */
static void flip(const char *p, long at, unsigned char x)
{
  int fd = open(p, O_RDWR);
  ck_assert_int_ge(fd, 0);
  unsigned char b;
  ck_assert_int_eq(pread(fd, &b, 1, at), 1);
  b ^= x;
  ck_assert_int_eq(pwrite(fd, &b, 1, at), 1);
  close(fd);
}

/* the offset of s in file p, or -1 */
static long find_in(const char *p, const char *s)
{
  long n = file_size(p);
  char *b = malloc((size_t)n);
  int fd = open(p, O_RDONLY);
  ck_assert_int_eq(read(fd, b, (size_t)n), n);
  close(fd);
  char *at = memmem(b, (size_t)n, s, strlen(s));
  long off = at ? at - b : -1;
  free(b);
  return off;
}

/* one type that compiles, alone in its run: one file */
static run one_type(const char *dir)
{
  for (uint64_t s = seed;; s++) {
    run p = {dir, s, 1, 0, false, 0, NULL, NULL};
    char probe[DIRLEN];
    fresh_dir(probe);
    p.dir = probe;
    report rep = in_child(&p);
    remove_dir(probe);
    if (rep.compiled == 1 && rep.n.written == 1) {
      p.dir = dir;
      return p;
    }
  }
}

START_TEST(second_run_loads)
{
  char d[DIRLEN];
  fresh_dir(d);
  run p = {d, seed, test_scaled(150) + 1, 0, false, 0, NULL, NULL};
  report a = in_child(&p);
  ck_assert(a.cache_on);
  ck_assert_uint_eq(a.n.hits, 0);
  ck_assert_uint_eq(a.n.refused, 0);
  ck_assert_uint_eq(a.n.failed, 0);
  ck_assert_uint_gt(a.n.written, 0);
  ck_assert_uint_eq(a.n.written, a.n.misses);
  int objects, others;
  list_dir(d, &objects, &others, NULL, 0);
  ck_assert_int_eq(objects, (int)a.n.written);
  ck_assert_int_eq(others, 0);
  /* the same types again: every object from the disk, nothing compiled */
  report b = in_child(&p);
  ck_assert_uint_eq(b.n.hits, a.n.written);
  ck_assert_uint_eq(b.n.misses, 0);
  ck_assert_uint_eq(b.n.refused, 0);
  ck_assert_uint_eq(b.n.written, 0);
  ck_assert_int_eq(b.compiled, a.compiled);
  /* every object, compiled or loaded, linked by elfload.c, none by LLVM */
  ck_assert_uint_eq(a.own, a.n.written);
  ck_assert_uint_eq(b.own, b.n.hits);
  ck_assert_uint_eq(a.by_llvm + b.by_llvm, 0);
  /* and the same objects by LLVM's linker (DL_JIT_LINK=llvm): the same
     bytes (checked in the child), nothing linked by elfload.c */
  run l = p;
  l.link = "llvm";
  report e = in_child(&l);
  ck_assert_uint_eq(e.n.hits, a.n.written);
  ck_assert_uint_eq(e.by_llvm, e.n.hits);
  ck_assert_uint_eq(e.own, 0);
  ck_assert_int_eq(e.compiled, a.compiled);
  /* in another order, after other types were compiled: the process has code
     of its own when it loads the objects, and functions named by their
     shapes do not clash with it */
  p.reverse = true;
  p.before = seed ^ 0x5eed;
  report c = in_child(&p);
  /* (a type whose shapes an earlier one had compiles fewer loops: a
     different key, a miss) */
  ck_assert_uint_ge(2 * c.n.hits, a.n.written);
  ck_assert_uint_eq(c.n.refused, 0);
  ck_assert_uint_eq(c.n.failed, 0);
  ck_assert_int_eq(c.compiled, a.compiled);
  remove_dir(d);
}
END_TEST

/* a damaged file is refused, the type compiled again and the file mended */
static void damaged(void (*damage)(const char *path))
{
  char d[DIRLEN];
  fresh_dir(d);
  run p = one_type(d);
  report a = in_child(&p);
  ck_assert_uint_eq(a.n.written, 1);
  char path[4096];
  int objects, others;
  list_dir(d, &objects, &others, path, sizeof(path));
  ck_assert_int_eq(objects, 1);
  damage(path);
  report b = in_child(&p);
  ck_assert_uint_eq(b.n.refused, 1);
  ck_assert_uint_eq(b.n.hits, 0);
  ck_assert_uint_eq(b.n.written, 1);
  ck_assert_int_eq(b.compiled, 1);
  report c = in_child(&p);
  ck_assert_uint_eq(c.n.hits, 1);
  ck_assert_uint_eq(c.n.refused, 0);
  remove_dir(d);
}

static void flip_last(const char *path)
{
  flip(path, file_size(path) - 20, 0x40);     /* inside the object code */
}

static void cut_half(const char *path)
{
  ck_assert_int_eq(truncate(path, file_size(path) / 2), 0);
}

static void flip_magic(const char *path)
{
  flip(path, 0, 0x01);
}

/* the identity names the library's sources by a digest: change one digit,
   as another build would have written it */
static void other_build(const char *path)
{
  long at = find_in(path, "sources ");
  ck_assert_int_ge(at, 0);
  flip(path, at + 8, 0x01);
}

START_TEST(corrupt_object_refused)
{
  damaged(flip_last);
}
END_TEST

START_TEST(truncated_file_refused)
{
  damaged(cut_half);
}
END_TEST

START_TEST(bad_magic_refused)
{
  damaged(flip_magic);
}
END_TEST

START_TEST(other_build_refused)
{
  damaged(other_build);
}
END_TEST

/* writers racing on one folder: all correct, every file whole, no
   temporary left behind, and a later run finds everything */
START_TEST(concurrent_writers)
{
  char d[DIRLEN];
  fresh_dir(d);
  run p = {d, seed + 1, test_scaled(40) + 1, 0, false, 0, NULL, NULL};
  enum { N = 4 };
  pid_t pid[N];
  int fd[N];
  for (int i = 0; i < N; i++)
    pid[i] = start(&p, &fd[i]);
  unsigned long written = 0;
  for (int i = 0; i < N; i++) {
    report r = finish(pid[i], fd[i]);
    ck_assert_uint_eq(r.n.failed, 0);
    ck_assert_uint_eq(r.n.refused, 0);
    written += r.n.written;
  }
  ck_assert_uint_gt(written, 0);
  int objects, others;
  list_dir(d, &objects, &others, NULL, 0);
  ck_assert_int_eq(others, 0);
  report b = in_child(&p);
  ck_assert_uint_eq(b.n.misses, 0);
  ck_assert_uint_eq(b.n.refused, 0);
  ck_assert_uint_eq(b.n.hits, (unsigned long)objects);
  remove_dir(d);
}
END_TEST

/* writes fail (the file size limit, as on a full disk): the program is
   right, and no file or part of one is left */
START_TEST(full_disk)
{
  char d[DIRLEN];
  fresh_dir(d);
  run p = {d, seed + 2, test_scaled(30) + 1, 200, false, 0, NULL, NULL};
  report a = in_child(&p);
  ck_assert_uint_gt(a.n.failed, 0);
  ck_assert_uint_eq(a.n.written, 0);
  int objects, others;
  list_dir(d, &objects, &others, NULL, 0);
  ck_assert_int_eq(objects, 0);
  ck_assert_int_eq(others, 0);
  p.fsize = 0;
  report b = in_child(&p);
  ck_assert_uint_eq(b.n.hits, 0);
  ck_assert_uint_eq(b.n.written, a.n.failed);
  remove_dir(d);
}
END_TEST

/* the folder stays within DL_JIT_CACHE_MAX, oldest objects going first;
   a temporary file an hour old (its writer died) goes, a new one stays */
START_TEST(bounded)
{
  char d[DIRLEN];
  fresh_dir(d);
  char old[4200], young[4200];
  snprintf(old, sizeof(old), "%s/0123456789abcdef.1.0.tmp", d);
  snprintf(young, sizeof(young), "%s/0123456789abcdef.2.0.tmp", d);
  for (int i = 0; i < 2; i++) {
    int fd = open(i ? young : old, O_CREAT | O_WRONLY, 0600);
    ck_assert_int_ge(fd, 0);
    close(fd);
  }
  struct timespec t[2] = {{time(NULL) - 7200, 0}, {time(NULL) - 7200, 0}};
  ck_assert_int_eq(utimensat(AT_FDCWD, old, t, 0), 0);
  run p = {d, seed + 4, 150, 0, false, 0, "64K", NULL};   /* enough to pass the bound */
  report a = in_child(&p);
  ck_assert_uint_gt(a.n.evicted, 0);
  ck_assert_uint_eq(a.n.failed, 0);
  int objects, others;
  long bytes;
  list_dir_bytes(d, &objects, &others, NULL, 0, &bytes);
  ck_assert_int_le(bytes, 64 * 1024);
  ck_assert_int_lt(objects, (int)a.n.written);
  ck_assert_int_eq(others, 1);
  ck_assert_int_ne(access(old, F_OK), 0);
  ck_assert_int_eq(access(young, F_OK), 0);
  /* what is left still serves: the same types, in a run that evicts
     nothing, find every object left */
  p.max = NULL;
  report b = in_child(&p);
  ck_assert_uint_eq(b.n.hits, (unsigned long)objects);
  ck_assert_uint_eq(b.n.refused, 0);
  remove_dir(d);
}
END_TEST

/* a folder that cannot be made (under a regular file), and the cache off */
START_TEST(no_folder)
{
  char d[DIRLEN];
  fresh_dir(d);
  char file[DIRLEN + 8], under[DIRLEN + 24];
  snprintf(file, sizeof(file), "%s/file", d);
  snprintf(under, sizeof(under), "%s/sub/dir", file);
  int fd = open(file, O_CREAT | O_WRONLY, 0600);
  ck_assert_int_ge(fd, 0);
  close(fd);
  run p = {under, seed + 3, test_scaled(20) + 1, 0, false, 0, NULL, NULL};
  report a = in_child(&p);
  ck_assert_uint_gt(a.n.failed, 0);
  ck_assert_uint_eq(a.n.written, 0);
  ck_assert_int_gt(a.compiled, 0);
  run off = {"off", seed + 3, test_scaled(20) + 1, 0, false, 0, NULL, NULL};
  report b = in_child(&off);
  ck_assert(!b.cache_on);
  ck_assert_uint_eq(b.n.misses + b.n.hits + b.n.written + b.n.failed, 0);
  ck_assert_int_eq(b.compiled, a.compiled);
  remove_dir(d);
}
END_TEST

int main(void)
{
  seed = test_seed(NULL);
  /* libLLVM loaded once here, before the runs fork: each child process
     finds it loaded (under Valgrind, translated) instead of loading it */
  dli_llvm_load();
  TCase *tc = tcase_create("objcache");
  tcase_add_test(tc, second_run_loads);
  tcase_add_test(tc, corrupt_object_refused);
  tcase_add_test(tc, truncated_file_refused);
  tcase_add_test(tc, bad_magic_refused);
  tcase_add_test(tc, other_build_refused);
  tcase_add_test(tc, concurrent_writers);
  tcase_add_test(tc, full_disk);
  tcase_add_test(tc, bounded);
  tcase_add_test(tc, no_folder);
  return test_run("jitcache", tc, false);
}
