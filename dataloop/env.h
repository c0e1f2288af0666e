/* Settings from the environment: one parser for every layer. Each user
 * reads its variables once (inside pthread_once), so a value that does not
 * parse is reported once on stderr, naming the variable and what it
 * takes, and the default applies. */
#ifndef DLI_ENV_H
#define DLI_ENV_H

#include <stdbool.h>
#include <stddef.h>

#define DLI_ENV_HIDDEN __attribute__((visibility("hidden")))

/* a byte count: digits with an optional K, M or G (binary) suffix and
   trailing blanks; false for anything else or more than SIZE_MAX / 2 */
DLI_ENV_HIDDEN bool dli_parse_bytes(const char *s, size_t *out);

/* 1/0, yes/no, on/off, true/false (any case); unset or empty: def */
DLI_ENV_HIDDEN bool dli_env_flag(const char *name, bool def);
/* a byte count in [lo, hi]; unset or empty: def */
DLI_ENV_HIDDEN size_t dli_env_bytes(const char *name, size_t def, size_t lo,
                                    size_t hi);
/* a decimal integer in [lo, hi]; unset or empty: def */
DLI_ENV_HIDDEN long dli_env_int(const char *name, long def, long lo, long hi);
/* the index of the value among words (NULL-terminated, exact match);
   unset or empty: def */
DLI_ENV_HIDDEN int dli_env_choice(const char *name, const char *const *words, int def);

#endif
