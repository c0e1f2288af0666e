/* Replays fuzz inputs through a target's entry point without libFuzzer:
 * make check runs every checked-in corpus and regression input this way
 * (and under Valgrind and the sanitizers). With no arguments it replays
 * $srcdir/test/fuzz/corpus/NAME and $srcdir/test/fuzz/regress/NAME; with
 * arguments, the files and directories named. */
#include <dirent.h>
#include <string.h>
#include <sys/stat.h>
#include "fuzz.h"

static int replay_file(const char *path)
{
  FILE *f = fopen(path, "rb");
  if (!f) {
    perror(path);
    return 1;
  }
  size_t cap = 4096, n = 0, got;
  uint8_t *buf = malloc(cap);
  while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
    n += got;
    if (n == cap)
      buf = realloc(buf, cap *= 2);
  }
  fclose(f);
  if (!buf)
    return 1;
  /* an exact-size copy, so reading past the input is a memory error */
  uint8_t *exact = malloc(n ? n : 1);
  memcpy(exact, buf, n);
  free(buf);
  LLVMFuzzerTestOneInput(exact, n);
  free(exact);
  return 0;
}

static int cmp(const void *a, const void *b)
{
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* every regular file of dir, in name order; a missing dir is empty */
static int replay_dir(const char *dir, int *count)
{
  DIR *d = opendir(dir);
  if (!d)
    return 0;
  char **names = NULL;
  size_t n = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (e->d_name[0] == '.')
      continue;
    names = realloc(names, (n + 1) * sizeof(*names));
    names[n] = malloc(strlen(dir) + strlen(e->d_name) + 2);
    sprintf(names[n++], "%s/%s", dir, e->d_name);
  }
  closedir(d);
  qsort(names, n, sizeof(*names), cmp);
  int bad = 0;
  for (size_t i = 0; i < n; i++) {
    bad |= replay_file(names[i]);
    free(names[i]);
  }
  free(names);
  *count += (int)n;
  return bad;
}

static int replay(const char *path, int *count)
{
  struct stat st;
  if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
    return replay_dir(path, count);
  ++*count;
  return replay_file(path);
}

int main(int argc, char **argv)
{
  LLVMFuzzerInitialize(&argc, &argv);
  int bad = 0, count = 0;
  if (argc > 1) {
    for (int i = 1; i < argc; i++)
      bad |= replay(argv[i], &count);
  } else {
    const char *src = getenv("srcdir");
    char path[4096];
    static const char *const kinds[] = {"corpus", "regress"};
    for (int k = 0; k < 2; k++) {
      snprintf(path, sizeof(path), "%s/test/fuzz/%s/%s", src ? src : ".",
               kinds[k], FUZZ_NAME);
      bad |= replay_dir(path, &count);
    }
  }
  printf("%s: %d inputs replayed\n", FUZZ_NAME, count);
  return bad || count == 0;
}
