/* Links the code generator's objects into the process without LLVM. An
 * object of one batch is small and plain (doc/codegen.md, "Linking"): a
 * text section, sometimes read-only tables, an unwind table, and
 * relocations of a handful of kinds against its own sections and
 * functions or against memcpy. LLVM's JIT linker (its session, lookups
 * and a memory manager that maps and protects pages per object) took most
 * of the time a type takes when its object comes from the object cache
 * (doc/codegen.md gives the figures). Here an object is read once: its
 * allocated sections copied into an arena, relocated there, and run from
 * it. The arena is memory mapped twice, writable at one address and
 * executable at another, in chunks touched whole when made: changing a
 * page's protection or touching a new page costs a kernel entry, more
 * than all the rest of a link, and an mprotect interrupts every other
 * thread of the process. Anything
 * this loader does not know (another machine, a section kind, a
 * relocation kind, a symbol it cannot resolve, an offset out of range)
 * makes it refuse the object, and the caller links it with LLVM's. The
 * unwind table is not loaded: nothing unwinds through these functions
 * (they call only memcpy, and nothing throws). The pages live as long as
 * the process, as LLVM's JIT keeps its code. Callers serialize calls. */
#include <dlfcn.h>
#include <elf.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "codegen.h"

#define MAX_SECTIONS 64
#define CHUNK ((size_t)64 << 10)

/* the chunk objects are placed in now: its writable and executable views */
struct dli_code_arena {
  unsigned char *rw, *rx;
  size_t used, size;
};

typedef struct obj {
  const unsigned char *p;
  size_t len;
  const Elf64_Shdr *sh;
  unsigned nsec;
  uintptr_t at[MAX_SECTIONS];   /* each loaded section's address, or 0 */
  const Elf64_Sym *syms;
  size_t nsyms;
  const char *names;            /* the symbol table's strings */
  size_t names_len;
} obj;

static bool within(const obj *o, uint64_t off, uint64_t n)
{
  return off <= o->len && n <= o->len - off;
}

static const char *section_name(const obj *o, const Elf64_Ehdr *eh, unsigned i)
{
  const Elf64_Shdr *s = &o->sh[eh->e_shstrndx];
  uint32_t n = o->sh[i].sh_name;
  if (s->sh_type != SHT_STRTAB || n >= s->sh_size || !within(o, s->sh_offset, s->sh_size))
    return NULL;
  const char *str = (const char *)o->p + s->sh_offset;
  return memchr(str + n, 0, s->sh_size - n) ? str + n : NULL;
}

static const char *symbol_name(const obj *o, const Elf64_Sym *s)
{
  if (s->st_name >= o->names_len)
    return NULL;
  const char *n = o->names + s->st_name;
  return memchr(n, 0, o->names_len - s->st_name) ? n : NULL;
}

/* the header and section table, and the one symbol table */
static bool parse(obj *o)
{
  if (o->len < sizeof(Elf64_Ehdr))
    return false;
  const Elf64_Ehdr *eh = (const Elf64_Ehdr *)o->p;
  if (memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
      eh->e_ident[EI_DATA] != ELFDATA2LSB || eh->e_type != ET_REL ||
      eh->e_machine != EM_X86_64 || eh->e_shentsize != sizeof(Elf64_Shdr) ||
      eh->e_shnum == 0 || eh->e_shnum > MAX_SECTIONS || eh->e_shstrndx >= eh->e_shnum ||
      eh->e_shoff % 8 || !within(o, eh->e_shoff, (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr)))
    return false;
  o->sh = (const Elf64_Shdr *)(o->p + eh->e_shoff);
  o->nsec = eh->e_shnum;
  for (unsigned i = 0; i < o->nsec; i++) {
    const Elf64_Shdr *s = &o->sh[i];
    if (s->sh_type == SHT_REL)
      return false;
    if (s->sh_type != SHT_SYMTAB)
      continue;
    if (o->syms || s->sh_entsize != sizeof(Elf64_Sym) || s->sh_offset % 8 ||
        !within(o, s->sh_offset, s->sh_size) || s->sh_link >= o->nsec)
      return false;
    const Elf64_Shdr *str = &o->sh[s->sh_link];
    if (str->sh_type != SHT_STRTAB || !within(o, str->sh_offset, str->sh_size))
      return false;
    o->syms = (const Elf64_Sym *)(o->p + s->sh_offset);
    o->nsyms = s->sh_size / sizeof(Elf64_Sym);
    o->names = (const char *)o->p + str->sh_offset;
    o->names_len = str->sh_size;
  }
  return o->syms != NULL;
}

/* whether section i is loaded: allocated, and not the unwind table */
static bool loaded(const obj *o, unsigned i, bool *ok)
{
  const Elf64_Shdr *s = &o->sh[i];
  if (!(s->sh_flags & SHF_ALLOC))
    return false;
  const char *n = section_name(o, (const Elf64_Ehdr *)o->p, i);
  if (!n) {
    *ok = false;
    return false;
  }
  if (!strcmp(n, ".eh_frame"))
    return false;
  if ((s->sh_type != SHT_PROGBITS && s->sh_type != SHT_NOBITS) ||
      (s->sh_flags & (SHF_TLS | SHF_GROUP)) || s->sh_addralign > 4096 ||
      (s->sh_type == SHT_PROGBITS && !within(o, s->sh_offset, s->sh_size)))
    *ok = false;
  return *ok;
}

/* a new chunk of at least n bytes, its pages touched */
static bool grow(dli_code_arena *a, size_t n)
{
  size_t page = (size_t)sysconf(_SC_PAGESIZE), size = n > CHUNK ? n : CHUNK;
  size = (size + page - 1) & ~(page - 1);
  int fd = memfd_create("dataloop-jit", MFD_CLOEXEC);
  if (fd < 0)
    return false;
  void *rw = MAP_FAILED, *rx = MAP_FAILED;
  if (ftruncate(fd, (off_t)size) == 0) {
    rw = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, 0);
    rx = mmap(NULL, size, PROT_READ | PROT_EXEC, MAP_SHARED | MAP_POPULATE, fd, 0);
  }
  close(fd);
  if (rw == MAP_FAILED || rx == MAP_FAILED) {
    if (rw != MAP_FAILED)
      munmap(rw, size);
    if (rx != MAP_FAILED)
      munmap(rx, size);
    return false;
  }
  memset(rw, 0, size);
  *a = (dli_code_arena){.rw = rw, .rx = rx, .size = size};
  return true;
}

/* the loaded sections laid out in the arena and copied there: their
   executable addresses in o->at; the writable view of the first byte */
static unsigned char *place(obj *o, dli_code_arena *a, intptr_t *to_rw)
{
  uint64_t off[MAX_SECTIONS] = {0}, total = 0, align = 64;
  bool ok = true;
  for (unsigned i = 0; i < o->nsec && ok; i++) {
    if (!loaded(o, i, &ok))
      continue;
    uint64_t al = o->sh[i].sh_addralign ? o->sh[i].sh_addralign : 1;
    if (al & (al - 1) || o->sh[i].sh_size > (1u << 30))
      return NULL;
    align = al > align ? al : align;
    total = (total + al - 1) & ~(al - 1);
    off[i] = total;
    total += o->sh[i].sh_size;
    o->at[i] = 1;                          /* marked; the address below */
  }
  if (!ok || total > (1u << 30))
    return NULL;
  /* chunks start on a page, which every section's alignment divides */
  size_t start = (a->used + (size_t)align - 1) & ~(size_t)(align - 1);
  if (!a->rw || start > a->size || total > a->size - start) {
    if (!grow(a, (size_t)total))
      return NULL;
    start = 0;
  }
  a->used = start + (size_t)total;
  unsigned char *w = a->rw + start;
  *to_rw = a->rw - a->rx;
  for (unsigned i = 0; i < o->nsec; i++) {
    if (!o->at[i])
      continue;
    o->at[i] = (uintptr_t)(a->rx + start + off[i]);
    if (o->sh[i].sh_type == SHT_PROGBITS)
      memcpy(w + off[i], o->p + o->sh[i].sh_offset, o->sh[i].sh_size);
  }
  return w;
}

/* a symbol's address: in a loaded section, absolute, or the process's
   (memcpy); 0 when it has none here */
static uintptr_t address(const obj *o, uint32_t k)
{
  if (k >= o->nsyms)
    return 0;
  const Elf64_Sym *s = &o->syms[k];
  if (s->st_shndx == SHN_UNDEF) {
    const char *n = symbol_name(o, s);
    return n && *n ? (uintptr_t)dlsym(RTLD_DEFAULT, n) : 0;
  }
  if (s->st_shndx == SHN_ABS)
    return (uintptr_t)s->st_value;
  if (s->st_shndx >= o->nsec || !o->at[s->st_shndx] ||
      s->st_value > o->sh[s->st_shndx].sh_size)
    return 0;
  return o->at[s->st_shndx] + (uintptr_t)s->st_value;
}

/* r applied to target, loaded at base (executable view), written at
   base + to_rw */
static bool relocate_one(const obj *o, const Elf64_Shdr *target, uintptr_t base,
                         intptr_t to_rw, const Elf64_Rela *r)
{
  uint32_t type = ELF64_R_TYPE(r->r_info);
  uint64_t width = type == R_X86_64_64 || type == R_X86_64_PC64 ? 8 : 4;
  if (r->r_offset > target->sh_size || width > target->sh_size - r->r_offset)
    return false;
  uintptr_t s = address(o, ELF64_R_SYM(r->r_info));
  if (!s)
    return false;
  uintptr_t pc = base + r->r_offset;
  unsigned char *at = (unsigned char *)(pc + (uintptr_t)to_rw);
  int64_t v = (int64_t)(s + (uint64_t)r->r_addend);
  switch (type) {
  case R_X86_64_64:
    memcpy(at, &v, 8);
    return true;
  case R_X86_64_PC64:
    v -= (int64_t)pc;
    memcpy(at, &v, 8);
    return true;
  case R_X86_64_PC32:
  case R_X86_64_PLT32:
    v -= (int64_t)pc;
    break;
  case R_X86_64_32:
    if ((uint64_t)v > UINT32_MAX)
      return false;
    memcpy(at, &(uint32_t){(uint32_t)v}, 4);
    return true;
  case R_X86_64_32S:
    break;
  default:
    return false;
  }
  if (v < INT32_MIN || v > INT32_MAX)
    return false;
  memcpy(at, &(int32_t){(int32_t)v}, 4);
  return true;
}

static bool relocate(const obj *o, intptr_t to_rw)
{
  for (unsigned i = 0; i < o->nsec; i++) {
    const Elf64_Shdr *s = &o->sh[i];
    if (s->sh_type != SHT_RELA)
      continue;
    if (s->sh_info >= o->nsec)
      return false;
    if (!o->at[s->sh_info])
      continue;                            /* the unwind table's */
    if (s->sh_entsize != sizeof(Elf64_Rela) || s->sh_offset % 8 ||
        !within(o, s->sh_offset, s->sh_size))
      return false;
    const Elf64_Rela *r = (const Elf64_Rela *)(o->p + s->sh_offset);
    for (size_t k = 0; k < s->sh_size / sizeof(*r); k++)
      if (!relocate_one(o, &o->sh[s->sh_info], o->at[s->sh_info], to_rw, &r[k]))
        return false;
  }
  return true;
}

/* the address of the defined function name, or NULL */
static void *function(const obj *o, const char *name)
{
  for (size_t k = 0; k < o->nsyms; k++) {
    const Elf64_Sym *s = &o->syms[k];
    const char *n = ELF64_ST_TYPE(s->st_info) == STT_FUNC &&
                            ELF64_ST_BIND(s->st_info) == STB_GLOBAL
                        ? symbol_name(o, s)
                        : NULL;
    if (n && !strcmp(n, name))
      return (void *)address(o, (uint32_t)k);
  }
  return NULL;
}

bool dli_elf_link(dli_code_arena *arena, const void *object, size_t len, size_t n,
                  const char *const *names, void **fns)
{
  /* the headers are read in place: an object stored after other bytes
     is read from an aligned copy */
  void *copy = NULL;
  if ((uintptr_t)object & 7) {
    if (!(copy = malloc(len)))
      return false;
    object = memcpy(copy, object, len);
  }
  obj o = {.p = object, .len = len};
  dli_code_arena before = *arena;
  intptr_t to_rw = 0;
  bool ok = parse(&o) && place(&o, arena, &to_rw) && relocate(&o, to_rw);
  for (size_t i = 0; ok && i < n; i++)
    ok = !names[i] || (fns[i] = function(&o, names[i])) != NULL;
  if (!ok && arena->rw == before.rw)
    arena->used = before.used;             /* the space is free again */
  free(copy);
  return ok;
}

dli_code_arena *dli_code_arena_new(void)
{
  return calloc(1, sizeof(dli_code_arena));
}
