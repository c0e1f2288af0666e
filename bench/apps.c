/* Application patterns from DDTBench (Schneider, Gerstenberger, Hoefler,
 * EuroMPI 2012). */
#include "bench.h"

const bentry bench_apps[] = {
  {NULL, NULL},
};
