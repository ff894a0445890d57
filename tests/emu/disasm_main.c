/* disasm_main.c — emu-disasm: decodes every instruction of a code object's
 * .text (function by function, as llvm-objdump does) and prints one line
 * per instruction, "ADDR<TAB>text", ADDR in hex as objdump's comment has it.
 * Usage: emu-disasm gfx942|gfx90a|gfx1100 file.hsaco
 *        emu-disasm --exec-check ARCH file.hsaco
 * The second form executes every instruction once (one active lane, memory
 * reads as zeros) and lists the operations emu_step cannot execute.
 * Exit status: 0, or 1 when some word did not decode (or execute). */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "isa.h"

static uint8_t *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long sz = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc(sz > 0 ? (size_t)sz : 1);
    if (b && fread(b, 1, (size_t)sz, f) != (size_t)sz) {
        free(b);
        b = NULL;
    }
    fclose(f);
    *n = (size_t)sz;
    return b;
}

/* --exec-check: memory that reads zeros and accepts writes */
struct emu_mem { int unused; };
int emu_mem_read(emu_mem *m, uint64_t a, void *dst, unsigned n, char *err, size_t elen)
{
    (void)m, (void)a, (void)err, (void)elen;
    memset(dst, 0, n);
    return 0;
}
int emu_mem_write(emu_mem *m, uint64_t a, const void *src, unsigned n, char *err, size_t elen)
{
    (void)m, (void)a, (void)src, (void)n, (void)err, (void)elen;
    return 0;
}

static uint32_t regs[EMU_NVGPR][EMU_MAX_LANES];
static uint8_t lds[65536];

/* Runs the instruction at pc once; returns 0 or -1 with err. */
static int try_exec(emu_isa isa, const uint8_t *code, size_t n, uint64_t pc, char *err, size_t elen)
{
    static emu_wave w;
    static emu_mem m;
    memset(&w, 0, sizeof w);
    w.isa = isa == ISA_GFX90A ? EMU_GFX9 : isa;
    w.gfx90a = isa == ISA_GFX90A;
    w.wave_size = isa == EMU_GFX11 ? 32 : 64;
    w.vgpr = regs;
    w.exec = 1;
    w.mode = 0xF0;
    w.code = code;
    w.code_size = n;
    w.pc = pc;
    w.lds = lds;
    w.lds_size = sizeof lds;
    w.mem = &m;
    w.kernel = "exec-check";
    if (emu_step(&w, err, elen) != EMU_STEP_ERROR) return 0;
    if (!strstr(err, "LDS access")) return -1;
    /* The registers carry what earlier instructions left: an LDS address
     * out of range says nothing of the instruction. Once more from zeros. */
    memset(regs, 0, sizeof regs);
    w.pc = pc, w.exec = 1;
    return emu_step(&w, err, elen) == EMU_STEP_ERROR ? -1 : 0;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    int check = argc == 4 && !strcmp(argv[1], "--exec-check");
    if (check)
        argv++, argc--;
    if (argc != 3) {
        fprintf(stderr, "usage: emu-disasm [--exec-check] gfx942|gfx90a|gfx1100 file.hsaco\n");
        return 2;
    }
    emu_isa isa = !strncmp(argv[1], "gfx11", 5) ? EMU_GFX11
                : !strcmp(argv[1], "gfx90a") || !strcmp(argv[1], "gfx908") ? ISA_GFX90A : EMU_GFX9;
    size_t n;
    uint8_t *f = slurp(argv[2], &n);
    if (!f || n < sizeof(Elf64_Ehdr) || memcmp(f, ELFMAG, SELFMAG)) {
        fprintf(stderr, "emu-disasm: %s: not an ELF file\n", argv[2]);
        return 2;
    }
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)f;
    const Elf64_Shdr *sh = (const Elf64_Shdr *)(f + eh->e_shoff);
    const char *shstr = (const char *)f + sh[eh->e_shstrndx].sh_offset;
    const Elf64_Shdr *text = NULL;
    unsigned textidx = 0;
    for (unsigned i = 0; i < eh->e_shnum; i++)
        if (!strcmp(shstr + sh[i].sh_name, ".text"))
            text = &sh[i], textidx = i;
    if (!text) {
        fprintf(stderr, "emu-disasm: no .text\n");
        return 2;
    }
    /* function starts: FUNC symbols in .text (symtab or dynsym) */
    uint64_t starts[4096];
    size_t ns = 0;
    for (unsigned i = 0; i < eh->e_shnum; i++) {
        if (sh[i].sh_type != SHT_SYMTAB && sh[i].sh_type != SHT_DYNSYM)
            continue;
        const Elf64_Sym *sy = (const Elf64_Sym *)(f + sh[i].sh_offset);
        for (size_t k = 0; k < sh[i].sh_size / sizeof *sy; k++)
            if (ELF64_ST_TYPE(sy[k].st_info) == STT_FUNC && sy[k].st_shndx == textidx && ns < 4096)
                starts[ns++] = sy[k].st_value;
    }
    qsort(starts, ns, sizeof starts[0], cmp_u64);
    size_t u = 0; /* a function named in both symbol tables counts once */
    for (size_t s = 0; s < ns; s++)
        if (!u || starts[s] != starts[u - 1])
            starts[u++] = starts[s];
    ns = u;
    const uint8_t *code = f + text->sh_offset;
    size_t csize = text->sh_size;
    int bad = 0;
    char err[256], line[512];
    for (size_t s = 0; s < ns; s++) {
        uint64_t pc = starts[s] - text->sh_addr;
        uint64_t end = s + 1 < ns ? starts[s + 1] - text->sh_addr : csize;
        while (pc < end) {
            isa_inst in;
            if (isa_decode(isa, code, csize, pc, &in, err, sizeof err)) {
                printf("%llX\t<error: %s>\n", (unsigned long long)(pc + text->sh_addr), err);
                bad = 1;
                pc += 4;
                continue;
            }
            isa_disasm(isa, &in, line, sizeof line);
            if (!check) {
                printf("%llX\t%s\n", (unsigned long long)(pc + text->sh_addr), line);
            } else if (in.op != ISA_OP_s_code_end && /* padding, never executed */
                       try_exec(isa, code, csize, pc, err, sizeof err)) {
                printf("%llX\t%s\n", (unsigned long long)(pc + text->sh_addr), err);
                bad = 1;
            }
            pc += in.size;
        }
    }
    free(f);
    return bad;
}
