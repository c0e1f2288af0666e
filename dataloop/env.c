/* See env.h. */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "env.h"

bool dli_parse_bytes(const char *s, size_t *out)
{
  if (!s || !isdigit((unsigned char)*s))
    return false;
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 10);
  int shift = 0;
  switch (*end) {
  case 'k': case 'K': shift = 10; end++; break;
  case 'm': case 'M': shift = 20; end++; break;
  case 'g': case 'G': shift = 30; end++; break;
  default: break;
  }
  while (isspace((unsigned char)*end))
    end++;
  if (*end || errno || v > ((unsigned long long)SIZE_MAX >> (shift + 1)))
    return false;
  *out = (size_t)(v << shift);
  return true;
}

static const char *value(const char *name)
{
  const char *v = getenv(name);
  return v && *v ? v : NULL;
}

static void ignored(const char *name, const char *v, const char *expected)
{
  fprintf(stderr, "dataloop: %s=%s ignored: expected %s\n", name, v, expected);
}

bool dli_env_flag(const char *name, bool def)
{
  static const char *const on[] = {"1", "yes", "on", "true"};
  static const char *const off[] = {"0", "no", "off", "false"};
  const char *v = value(name);
  if (!v)
    return def;
  for (int i = 0; i < 4; i++) {
    if (!strcasecmp(v, on[i]))
      return true;
    if (!strcasecmp(v, off[i]))
      return false;
  }
  ignored(name, v, "1 or 0 (yes/no, on/off, true/false)");
  return def;
}

size_t dli_env_bytes(const char *name, size_t def, size_t lo, size_t hi)
{
  const char *v = value(name);
  size_t n;
  if (!v)
    return def;
  if (dli_parse_bytes(v, &n) && n >= lo && n <= hi)
    return n;
  char what[96];
  snprintf(what, sizeof(what), "bytes from %zu to %zu (K, M, G suffixes)", lo, hi);
  ignored(name, v, what);
  return def;
}

long dli_env_int(const char *name, long def, long lo, long hi)
{
  const char *v = value(name);
  if (!v)
    return def;
  char *end;
  errno = 0;
  long n = strtol(v, &end, 10);
  if (!errno && end != v && !*end && n >= lo && n <= hi)
    return n;
  char what[96];
  snprintf(what, sizeof(what), "an integer from %ld to %ld", lo, hi);
  ignored(name, v, what);
  return def;
}

int dli_env_choice(const char *name, const char *const *words, int def)
{
  const char *v = value(name);
  if (!v)
    return def;
  char what[160] = "one of:";
  for (int i = 0; words[i]; i++) {
    if (!strcmp(v, words[i]))
      return i;
    size_t l = strlen(what);
    snprintf(what + l, sizeof(what) - l, " %s", words[i]);
  }
  ignored(name, v, what);
  return def;
}
