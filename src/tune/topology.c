/* Cache sizes and core count. The C library's sysconf first: glibc reads
 * the caches from the CPU itself, at no cost, where loading hwloc's
 * topology takes milliseconds per process (every CPU's caches, frequencies,
 * NUMA and DMI data), paid by every MPI process at its first message.
 * hwloc (when the build has it) where sysconf cannot tell the caches, and
 * always where a topology is given to it (HWLOC_SYNTHETIC, HWLOC_XMLFILE,
 * HWLOC_FSROOT: a described machine, not this one). */
#include <stdlib.h>
#include <unistd.h>
#include "tune.h"
#if DL_HAVE_HWLOC
#include <hwloc.h>
#endif

#if DL_HAVE_HWLOC
/* the first cache of a level that holds data, from the first core down */
static size_t cache_size(hwloc_topology_t topo, hwloc_obj_type_t type)
{
  hwloc_obj_t o = hwloc_get_obj_by_type(topo, type, 0);
  return o && o->attr ? (size_t)o->attr->cache.size : 0;
}

static bool from_hwloc(dli_topology *t)
{
  hwloc_topology_t topo;
  if (hwloc_topology_init(&topo) != 0)
    return false;
  bool ok = hwloc_topology_load(topo) == 0;
  if (ok) {
    t->l1d = cache_size(topo, HWLOC_OBJ_L1CACHE);
    t->l2 = cache_size(topo, HWLOC_OBJ_L2CACHE);
    t->l3 = cache_size(topo, HWLOC_OBJ_L3CACHE);
    int n = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
    t->cores = n > 0 ? n : 0;
    t->from_hwloc = true;
  }
  hwloc_topology_destroy(topo);
  return ok;
}
#endif

static size_t conf(int name)
{
  long v = sysconf(name);
  return v > 0 ? (size_t)v : 0;
}

void dli_topology_read(dli_topology *t)
{
  *t = (dli_topology){0};
#if DL_HAVE_HWLOC
  bool described = getenv("HWLOC_SYNTHETIC") || getenv("HWLOC_XMLFILE") ||
                   getenv("HWLOC_FSROOT");
  if (described && from_hwloc(t) && t->l1d && t->l2 && t->cores)
    return;
#endif
#ifdef _SC_LEVEL1_DCACHE_SIZE
  if (!t->l1d) t->l1d = conf(_SC_LEVEL1_DCACHE_SIZE);
  if (!t->l2) t->l2 = conf(_SC_LEVEL2_CACHE_SIZE);
  if (!t->l3) t->l3 = conf(_SC_LEVEL3_CACHE_SIZE);
#endif
#if DL_HAVE_HWLOC
  if ((!t->l1d || !t->l2) && !described) {
    dli_topology h = {0};
    if (from_hwloc(&h)) {
      *t = h;
      return;
    }
  }
#endif
  if (!t->cores)
    t->cores = (int)conf(_SC_NPROCESSORS_ONLN);
}
