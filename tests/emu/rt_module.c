/* rt_module.c — hipModuleLoadData's work: measure and copy the image, parse
 * it with libcrk's own parsers (loader/codeobj*.c: ELF, offload bundle,
 * CCOB, AMDGPU metadata), pick the bundle entry for the emulated target the
 * way libcrk does (target_id.c), and load its PT_LOAD segments into emulated
 * memory at their virtual addresses (so PC-relative loads of constants find
 * them), applying its dynamic relocations. Kernels are found by their
 * "<name>.kd" symbol and descriptor. */
#include "isa.h"
#include "rt.h"
#include "target_id.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { PT_LOAD = 1, SHT_RELA = 4, SHT_SYMTAB = 2, SHT_DYNSYM = 11, SHF_ALLOC = 2 };
enum { R_AMDGPU_NONE = 0, R_AMDGPU_ABS64 = 3, R_AMDGPU_RELATIVE64 = 13 };

/* The image for the device: the ELF itself, or the best bundle entry.
 * -2 when nothing fits the device (hipErrorNoBinaryForGpu). */
static int pick_image(rt_module *mod, char *err, size_t n)
{
    const char *cand[CRK_CO_MAX_IMAGES] = {0};
    uint32_t idx[CRK_CO_MAX_IMAGES] = {0};
    size_t nc = 0;
    char have[512] = "";
    for (uint32_t i = 0; i < mod->co.nimages; i++) {
        const crk_co_image *im = &mod->co.images[i];
        if (im->kind != CRK_CO_IMG_AMDGPU) continue;
        size_t l = strlen(have);
        snprintf(have + l, sizeof have - l, "%s%s", nc ? " " : "", im->target);
        cand[nc] = im->target, idx[nc++] = i;
    }
    int pick = crk_target_pick(mod->dev->target, cand, nc, 1);
    if (pick < 0) {
        crk_co_errf(err, n, "no code object for %s in this %s (has: %s)", mod->dev->target,
                    crk_co_format_name(mod->co.format), nc ? have : "nothing");
        return -2;
    }
    mod->img = &mod->co.images[idx[pick]];
    return 0;
}

/* Dynamic relocations of the loaded image (SHF_ALLOC RELA sections). */
static int relocate(rt_module *mod, const crk_elf *e, char *err, size_t n)
{
    for (uint16_t i = 0; i < e->shnum; i++) {
        crk_elf_shdr sh, symsh;
        crk_elf_shdr_at(e, i, &sh);
        if (sh.type != SHT_RELA || !(sh.flags & SHF_ALLOC)) continue;
        crk_elf_shdr_at(e, (uint16_t)sh.link, &symsh);
        for (uint64_t o = 0; o + 24 <= sh.size; o += 24) {
            const uint8_t *r = e->buf + sh.offset + o;
            uint64_t off = crk_co_le64(r), info = crk_co_le64(r + 8), add = crk_co_le64(r + 16);
            uint32_t type = (uint32_t)info, sym = (uint32_t)(info >> 32);
            uint64_t v;
            if (type == R_AMDGPU_NONE) continue;
            if (type == R_AMDGPU_RELATIVE64) v = mod->base + add;
            else if (type == R_AMDGPU_ABS64 && (uint64_t)sym * 24 + 24 <= symsh.size)
                v = mod->base + crk_co_le64(e->buf + symsh.offset + (uint64_t)sym * 24 + 8) + add;
            else return crk_co_errf(err, n, "unsupported relocation type %u in section %u", type, i), -1;
            if (off > mod->size || mod->size - off < 8)
                return crk_co_errf(err, n, "relocation at 0x%llx outside the image", (unsigned long long)off), -1;
            for (int b = 0; b < 8; b++) mod->host[off + b] = (uint8_t)(v >> (8 * b));
        }
    }
    return 0;
}

static int load_segments(rt_module *mod, char *err, size_t n)
{
    crk_elf e;
    if (crk_elf_open(&e, mod->img->data, mod->img->size, err, n)) return -1;
    uint64_t end = 0;
    for (uint16_t i = 0; i < e.phnum; i++) {
        const uint8_t *ph = e.buf + e.phoff + (uint64_t)i * 56;
        uint64_t va = crk_co_le64(ph + 16), filesz = crk_co_le64(ph + 32), memsz = crk_co_le64(ph + 40);
        if (crk_co_le32(ph) != PT_LOAD) continue;
        if (filesz > memsz || va + memsz < va || va + memsz > ((uint64_t)1 << 32))
            return crk_co_errf(err, n, "bad PT_LOAD segment %u", i), -1;
        if (va + memsz > end) end = va + memsz;
    }
    if (!end) return crk_co_errf(err, n, "code object has no PT_LOAD segment"), -1;
    mod->size = (size_t)end;
    mod->base = rt_mem_alloc(mod->mem, mod->size, 0, "code object");
    mod->host = mod->base ? rt_mem_host(mod->mem, mod->base, mod->size, NULL, 0) : NULL;
    if (!mod->host) return crk_co_errf(err, n, "out of memory loading the code object"), -1;
    for (uint16_t i = 0; i < e.phnum; i++) {
        const uint8_t *ph = e.buf + e.phoff + (uint64_t)i * 56;
        if (crk_co_le32(ph) != PT_LOAD) continue;
        memcpy(mod->host + crk_co_le64(ph + 16), e.buf + crk_co_le64(ph + 8), crk_co_le64(ph + 32));
    }
    return relocate(mod, &e, err, n);
}

int rt_module_load(rt_module **out, emu_mem *m, const rt_device *dev, const void *image, char *err, size_t n)
{
    size_t size;
    *out = NULL;
    if (rt_image_size(image, &size, err, n)) return -1;
    rt_module *mod = calloc(1, sizeof *mod);
    uint8_t *copy = malloc(size ? size : 1);
    if (!mod || !copy) return free(mod), free(copy), crk_co_errf(err, n, "out of memory"), -1;
    memcpy(copy, image, size);
    mod->dev = dev, mod->mem = m, mod->file = copy;
    int r = crk_codeobj_open(copy, size, &mod->co, err, n);
    if (!r) r = pick_image(mod, err, n);
    if (!r) r = load_segments(mod, err, n);
    if (r) return rt_module_free(mod), r;
    *out = mod;
    return 0;
}

/* Value of symbol `name` in .symtab or .dynsym; -1 if absent. */
static int find_symbol(const crk_elf *e, const char *name, uint64_t *value)
{
    for (int pass = 0; pass < 2; pass++)
        for (uint16_t i = 0; i < e->shnum; i++) {
            crk_elf_shdr sh;
            crk_elf_shdr_at(e, i, &sh);
            if (sh.type != (pass ? SHT_DYNSYM : SHT_SYMTAB)) continue;
            for (uint64_t o = 24; o + 24 <= sh.size; o += 24) {
                const uint8_t *s = e->buf + sh.offset + o;
                const char *nm = crk_elf_str(e, (uint16_t)sh.link, crk_co_le32(s));
                if (nm && !strcmp(nm, name)) return *value = crk_co_le64(s + 8), 0;
            }
        }
    return -1;
}

rt_kernel *rt_module_kernel(rt_module *mod, const char *name, char *err, size_t n)
{
    for (size_t i = 0; i < mod->nkernels; i++)
        if (!strcmp(mod->kernels[i]->name, name)) return mod->kernels[i];
    const crk_co_kernel *md = crk_co_find_kernel(mod->img, name);
    if (!md) return crk_co_errf(err, n, "no kernel '%s' in the code object for %s", name, mod->img->target), NULL;
    char sym[160];
    snprintf(sym, sizeof sym, "%s", md->symbol && *md->symbol ? md->symbol : name);
    if (!md->symbol || !*md->symbol) strncat(sym, ".kd", sizeof sym - strlen(sym) - 1);
    crk_elf e;
    uint64_t va;
    if (crk_elf_open(&e, mod->img->data, mod->img->size, err, n)) return NULL;
    if (find_symbol(&e, sym, &va)) return crk_co_errf(err, n, "kernel descriptor symbol %s not found", sym), NULL;
    if (va > mod->size || mod->size - va < 64)
        return crk_co_errf(err, n, "kernel descriptor %s at 0x%llx outside the loaded image", sym,
                           (unsigned long long)va), NULL;
    rt_kernel **list = realloc(mod->kernels, (mod->nkernels + 1) * sizeof *list);
    if (list) mod->kernels = list;
    rt_kernel *k = list ? calloc(1, sizeof *k) : NULL;
    if (!k) return crk_co_errf(err, n, "out of memory"), NULL;
    snprintf(k->name, sizeof k->name, "%s", name);
    k->mod = mod, k->md = md, k->kd_addr = mod->base + va;
    if (rt_kd_decode(mod->host + va, &k->kd, err, n)) return free(k), NULL;
    int64_t entry = (int64_t)va + k->kd.entry_offset;
    if (entry < 0 || (uint64_t)entry + 4 > mod->size)
        return crk_co_errf(err, n, "%s: code entry 0x%llx outside the loaded image", sym, (long long unsigned)entry),
               free(k), NULL;
    k->entry = (uint64_t)entry;
    mod->kernels[mod->nkernels++] = k;
    return k;
}

int rt_kernel_wave_size(const rt_kernel *k) { return k->mod->dev->isa == EMU_GFX9 || !k->kd.wave32 ? 64 : 32; }

void rt_module_free(rt_module *mod)
{
    if (!mod) return;
    for (size_t i = 0; i < mod->nkernels; i++) free(mod->kernels[i]);
    free(mod->kernels);
    if (mod->host) emu_isa_forget(mod->host); /* the ISA half's decode cache */
    if (mod->base) rt_mem_free(mod->mem, mod->base);
    crk_codeobj_free(&mod->co);
    free(mod->file);
    free(mod);
}
