/* codeobj_cubin.c — NVIDIA cubins (ELF64, EM_CUDA): sm arch and kernel names. */
#include "codeobj.h"

#include <stdio.h>
#include <string.h>

#define EM_CUDA 190
#define SHT_SYMTAB 2
#define STT_FUNC 2
#define STO_CUDA_ENTRY 0x10
#define SYM_SIZE 24
#define ELFABIVERSION_CUDA_V2 8

/* sm arch from e_flags: the encoding moved with the V2 ABI (CUDA 12.8+). */
static void cubin_target(const crk_elf *e, char *out, size_t cap)
{
    unsigned sm;
    int accel;
    if (e->abiversion >= ELFABIVERSION_CUDA_V2) {
        sm = (e->flags >> 8) & 0xff;
        accel = (e->flags & 0x8) != 0;
    } else {
        sm = e->flags & 0xff;
        accel = (e->flags & 0x800) != 0;
    }
    snprintf(out, cap, "sm_%u%s", sm, accel ? "a" : "");
}

/* 1 if the symbol is a kernel: marked entry, or (old cubins with no entry
 * marks) a function living in its own ".text.<name>" section. */
static int is_kernel(const crk_elf *e, const uint8_t *sym, const char *name, int any_entry,
                     uint16_t shstrndx)
{
    if ((sym[4] & 0xf) != STT_FUNC || !name || !name[0])
        return 0;
    if (any_entry)
        return (sym[5] & STO_CUDA_ENTRY) != 0;
    crk_elf_shdr sh;
    crk_elf_shdr_at(e, crk_co_le16(sym + 6), &sh);
    const char *sec = crk_elf_str(e, shstrndx, sh.name);
    return sec && strncmp(sec, ".text.", 6) == 0 && strcmp(sec + 6, name) == 0;
}

int crk_co_parse_cubin(crk_codeobj *co, crk_co_image *img, const uint8_t *buf, size_t len,
                       char *err, size_t n)
{
    crk_elf e;
    if (crk_elf_open(&e, buf, len, err, n))
        return -1;
    if (e.machine != EM_CUDA) {
        crk_co_errf(err, n, "ELF machine %u is not CUDA (190)", e.machine);
        return -1;
    }
    img->kind = CRK_CO_IMG_CUBIN;
    img->data = buf;
    img->size = len;
    cubin_target(&e, img->target, sizeof img->target);

    crk_elf_shdr sym;
    uint16_t symtab = 0;
    for (uint16_t i = 1; i < e.shnum && !symtab; i++) {
        crk_elf_shdr_at(&e, i, &sym);
        if (sym.type == SHT_SYMTAB)
            symtab = i;
    }
    if (!symtab)
        return 0; /* no symbols: no kernels to list */
    if (sym.entsize != SYM_SIZE || sym.link >= e.shnum) {
        crk_co_errf(err, n, "bad cubin symbol table (entry size %llu, link %llu)",
                    (unsigned long long)sym.entsize, (unsigned long long)sym.link);
        return -1;
    }
    uint64_t nsym = sym.size / SYM_SIZE;
    const uint8_t *base = buf + sym.offset;
    int any_entry = 0;
    for (uint64_t i = 0; i < nsym; i++)
        any_entry |= (base[i * SYM_SIZE + 4] & 0xf) == STT_FUNC &&
                     (base[i * SYM_SIZE + 5] & STO_CUDA_ENTRY);
    /* Two passes: count, then fill. */
    uint32_t count = 0;
    crk_co_kernel *ks = NULL;
    for (int pass = 0; pass < 2; pass++) {
        uint32_t k = 0;
        for (uint64_t i = 0; i < nsym; i++) {
            const uint8_t *s = base + i * SYM_SIZE;
            const char *name = crk_elf_str(&e, (uint16_t)sym.link, crk_co_le32(s));
            if (!name && any_entry && (s[4] & 0xf) == STT_FUNC && (s[5] & STO_CUDA_ENTRY)) {
                crk_co_errf(err, n, "cubin kernel symbol %llu: name at 0x%x is unterminated or "
                            "longer than %u bytes", (unsigned long long)i, crk_co_le32(s),
                            CRK_CO_MAX_NAME);
                return -1;
            }
            if (!is_kernel(&e, s, name, any_entry, e.shstrndx))
                continue;
            if (pass == 1) {
                crk_co_kernel *kk = &ks[k];
                memset(kk, 0xff, sizeof *kk); /* numeric fields: CRK_CO_UNSET */
                /* Referenced, not copied: many symbols may share one string. */
                kk->name = kk->symbol = name;
                kk->args = NULL;
                kk->nargs = 0;
            }
            if (++k > CRK_CO_MAX_KERNELS) {
                crk_co_errf(err, n, "cubin has more than %u kernels", CRK_CO_MAX_KERNELS);
                return -1;
            }
        }
        if (pass == 0) {
            count = k;
            ks = crk_co_alloc(co, count, sizeof *ks);
            if (!ks) {
                crk_co_errf(err, n, "out of memory");
                return -1;
            }
        }
    }
    img->kernels = ks;
    img->nkernels = count;
    return 0;
}
