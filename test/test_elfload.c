/* The code generator's own linker (src/codegen/elfload.c) on objects built
 * here byte by byte: a function that returns the address of another
 * (R_X86_64_64 in the text), one that calls memcpy from the process (its
 * address taken the same way), and a PC-relative load of a read-only
 * constant (R_X86_64_PC32), each run from the arena; and every way an
 * object can be refused (another machine, a truncated file, an unknown
 * relocation, a symbol the process lacks, an offset past its section, a
 * REL section), after which the arena is as it was: the next object
 * lands where the refused one would have. The objects the code generator
 * makes are linked by it in test_jitcache, whose bytes are checked. */
#include <check.h>
#include <elf.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "codegen.h"
#include "runner.h"

#if defined(__x86_64__)

/* an object: .text, .rodata, .rela.text, .symtab, .strtab, .shstrtab */
typedef struct built {
  unsigned char b[4096];
  size_t len;
  Elf64_Shdr *sh;
  Elf64_Rela *rela;
} built;

enum { S_NULL, S_TEXT, S_RODATA, S_RELA, S_SYMTAB, S_STRTAB, S_SHSTRTAB, NSEC };

static size_t add(built *o, const void *p, size_t n, size_t align)
{
  o->len = (o->len + align - 1) & ~(align - 1);
  size_t at = o->len;
  memcpy(o->b + at, p, n);
  o->len += n;
  return at;
}

/* text: three functions.
   f: movabs rax, <g>; ret          (R_X86_64_64 at 2 against g)
   g: movabs rax, <memcpy>; ret     (R_X86_64_64 at 13 against memcpy)
   h: mov eax, [rip + k]; ret       (R_X86_64_PC32 at 24 against .rodata, -4)
   k in .rodata: 0x5eed1234 */
static void build(built *o)
{
  memset(o, 0, sizeof(*o));
  static const unsigned char text[] = {
      0x48, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0xc3,   /* f at 0 */
      0x48, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0xc3,   /* g at 11 */
      0x8b, 0x05, 0, 0, 0, 0, 0xc3};              /* h at 22 */
  static const uint32_t k = 0x5eed1234;
  static const char strtab[] = "\0f\0g\0h\0memcpy";
  static const char shstrtab[] = "\0.text\0.rodata\0.rela.text\0.symtab\0.strtab\0.shstrtab";
  Elf64_Ehdr eh = {0};
  add(o, &eh, sizeof(eh), 1);
  size_t text_at = add(o, text, sizeof(text), 16);
  size_t ro_at = add(o, &k, sizeof(k), 8);
  Elf64_Sym syms[] = {
      {0},
      {.st_name = 0, .st_info = ELF64_ST_INFO(STB_LOCAL, STT_SECTION), .st_shndx = S_RODATA},
      {.st_name = 1, .st_info = ELF64_ST_INFO(STB_GLOBAL, STT_FUNC), .st_shndx = S_TEXT,
       .st_value = 0, .st_size = 11},
      {.st_name = 3, .st_info = ELF64_ST_INFO(STB_GLOBAL, STT_FUNC), .st_shndx = S_TEXT,
       .st_value = 11, .st_size = 11},
      {.st_name = 5, .st_info = ELF64_ST_INFO(STB_GLOBAL, STT_FUNC), .st_shndx = S_TEXT,
       .st_value = 22, .st_size = 7},
      {.st_name = 7, .st_info = ELF64_ST_INFO(STB_GLOBAL, STT_NOTYPE), .st_shndx = SHN_UNDEF},
  };
  Elf64_Rela rela[] = {
      {.r_offset = 2, .r_info = ELF64_R_INFO(3, R_X86_64_64)},
      {.r_offset = 13, .r_info = ELF64_R_INFO(5, R_X86_64_64)},
      {.r_offset = 24, .r_info = ELF64_R_INFO(1, R_X86_64_PC32), .r_addend = -4},
  };
  size_t rela_at = add(o, rela, sizeof(rela), 8);
  size_t sym_at = add(o, syms, sizeof(syms), 8);
  size_t str_at = add(o, strtab, sizeof(strtab), 1);
  size_t shstr_at = add(o, shstrtab, sizeof(shstrtab), 1);
  Elf64_Shdr sh[NSEC] = {
      {0},
      {.sh_name = 1, .sh_type = SHT_PROGBITS, .sh_flags = SHF_ALLOC | SHF_EXECINSTR,
       .sh_offset = text_at, .sh_size = sizeof(text), .sh_addralign = 16},
      {.sh_name = 7, .sh_type = SHT_PROGBITS, .sh_flags = SHF_ALLOC, .sh_offset = ro_at,
       .sh_size = sizeof(k), .sh_addralign = 8},
      {.sh_name = 15, .sh_type = SHT_RELA, .sh_offset = rela_at, .sh_size = sizeof(rela),
       .sh_link = S_SYMTAB, .sh_info = S_TEXT, .sh_entsize = sizeof(Elf64_Rela),
       .sh_addralign = 8},
      {.sh_name = 26, .sh_type = SHT_SYMTAB, .sh_offset = sym_at, .sh_size = sizeof(syms),
       .sh_link = S_STRTAB, .sh_info = 2, .sh_entsize = sizeof(Elf64_Sym), .sh_addralign = 8},
      {.sh_name = 34, .sh_type = SHT_STRTAB, .sh_offset = str_at, .sh_size = sizeof(strtab)},
      {.sh_name = 42, .sh_type = SHT_STRTAB, .sh_offset = shstr_at,
       .sh_size = sizeof(shstrtab)},
  };
  size_t sh_at = add(o, sh, sizeof(sh), 8);
  Elf64_Ehdr *e = (Elf64_Ehdr *)o->b;
  memcpy(e->e_ident, ELFMAG, SELFMAG);
  e->e_ident[EI_CLASS] = ELFCLASS64;
  e->e_ident[EI_DATA] = ELFDATA2LSB;
  e->e_ident[EI_VERSION] = EV_CURRENT;
  e->e_type = ET_REL;
  e->e_machine = EM_X86_64;
  e->e_version = EV_CURRENT;
  e->e_shoff = sh_at;
  e->e_ehsize = sizeof(Elf64_Ehdr);
  e->e_shentsize = sizeof(Elf64_Shdr);
  e->e_shnum = NSEC;
  e->e_shstrndx = S_SHSTRTAB;
  o->sh = (Elf64_Shdr *)(o->b + sh_at);
  o->rela = (Elf64_Rela *)(o->b + rela_at);
}

static const char *const names[] = {"f", "g", "h"};

/* an arena lives as long as the process (its code may run until the end) */
static dli_code_arena *volatile arenas[2];

typedef void *(*addr_fn)(void);
typedef uint32_t (*u32_fn)(void);

static void *run_linked(dli_code_arena *a, const built *o)
{
  void *fns[3] = {NULL, NULL, NULL};
  ck_assert(dli_elf_link(a, o->b, o->len, 3, names, fns));
  ck_assert_ptr_eq(((addr_fn)fns[0])(), fns[1]);
  ck_assert_ptr_eq(((addr_fn)fns[1])(), (void *)memcpy);
  ck_assert_uint_eq(((u32_fn)fns[2])(), 0x5eed1234u);
  return fns[0];
}

START_TEST(links_and_runs)
{
  dli_code_arena *a = arenas[0] = dli_code_arena_new();
  ck_assert_ptr_nonnull(a);
  built o;
  build(&o);
  void *first = run_linked(a, &o);
  /* a second object of the same names: its own copy, both callable */
  void *second = run_linked(a, &o);
  ck_assert_ptr_ne(first, second);
  /* an object stored after other bytes (a cache file's flags): read from
     an aligned copy */
  unsigned char *shifted = malloc(o.len + 1);
  memcpy(shifted + 1, o.b, o.len);
  void *fns[3] = {NULL, NULL, NULL};
  ck_assert(dli_elf_link(a, shifted + 1, o.len, 3, names, fns));
  ck_assert_ptr_eq(((addr_fn)fns[0])(), fns[1]);
  free(shifted);
  /* names not asked for are skipped */
  const char *only[] = {NULL, "h", NULL};
  void *just[3] = {NULL, NULL, NULL};
  ck_assert(dli_elf_link(a, o.b, o.len, 3, only, just));
  ck_assert_ptr_null(just[0]);
  ck_assert_uint_eq(((u32_fn)just[1])(), 0x5eed1234u);
  /* many objects: the arena grows by chunks */
  for (int i = 0; i < 200; i++)
    run_linked(a, &o);
}
END_TEST

/* each change makes the object one the loader refuses, and a refusal
   takes no space: the next good object lands where it would have */
START_TEST(refuses)
{
  dli_code_arena *a = arenas[1] = dli_code_arena_new();
  built good;
  build(&good);
  run_linked(a, &good);
  void *fns[3];
  ck_assert(dli_elf_link(a, good.b, good.len, 3, names, fns));
  uintptr_t step = (uintptr_t)fns[0];
  ck_assert(dli_elf_link(a, good.b, good.len, 3, names, fns));
  step = (uintptr_t)fns[0] - step;         /* the space one object takes */
  for (int c = 0; c < 9; c++) {
    built o;
    build(&o);
    size_t len = o.len;
    const char *missing[] = {"f", "nothere", "h"};
    const char *const *want = names;
    switch (c) {
    case 0: ((Elf64_Ehdr *)o.b)->e_machine = EM_AARCH64; break;
    case 1: len = o.len / 2; break;                              /* cut short */
    case 2: o.rela[0].r_info = ELF64_R_INFO(3, 37); break;       /* unknown kind */
    case 3: o.rela[0].r_offset = 27; break;                      /* past the text */
    case 4: o.sh[S_RELA].sh_type = SHT_REL; break;
    case 5: want = missing; break;
    case 6: memcpy((char *)o.b + o.sh[S_STRTAB].sh_offset + 7, "nosuch", 6); break;
    case 7: ((Elf64_Ehdr *)o.b)->e_ident[EI_CLASS] = ELFCLASS32; break;
    default: o.sh[S_TEXT].sh_addralign = 3; break;               /* not a power of 2 */
    }
    void *f[3] = {NULL, NULL, NULL};
    ck_assert_msg(!dli_elf_link(a, o.b, len, 3, want, f), "change %d was linked", c);
    uintptr_t before = (uintptr_t)fns[0];
    ck_assert(dli_elf_link(a, good.b, good.len, 3, names, fns));
    ck_assert_msg((uintptr_t)fns[0] == before + step, "change %d took space in the arena",
                  c);
    ck_assert_ptr_eq(((addr_fn)fns[0])(), fns[1]);
  }
}
END_TEST

int main(void)
{
  TCase *tc = tcase_create("link");
  tcase_add_test(tc, links_and_runs);
  tcase_add_test(tc, refuses);
  return test_run("elfload", tc, false);
}

#else
int main(void)
{
  return 77;                  /* the loader links x86-64 objects only */
}
#endif
