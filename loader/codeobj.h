/* codeobj.h — parsers for GPU code objects and their containers.
 *
 * Pure functions on memory buffers (no GPU, no I/O). They read untrusted
 * files: every offset and size is bound-checked, nothing recurses on input,
 * decompression has a hard size cap. On failure a function returns -1 and
 * writes a one-line message naming the problem into err (when err != NULL);
 * bytes of the file in it (ids, names) are printable ASCII ('?' otherwise),
 * so a message never carries a terminal escape sequence.
 *
 * Cost: time is linear in the input size (no string is scanned more than
 * CRK_CO_MAX_NAME bytes per reference, note areas are walked at most twice in
 * all). Memory: at most the CCOB payload (CRK_CO_MAX_UNCOMPRESSED) plus a
 * small multiple of the input (kernel and argument records, strings of the
 * AMDGPU metadata copied once); cubin kernel names are not copied, they
 * point into the image bytes.
 *
 * Formats understood by crk_codeobj_open():
 *   - AMDGPU ELF64 code object (EM_AMDGPU): one image, kernels from the
 *     NT_AMDGPU_METADATA msgpack note;
 *   - Clang offload bundle "__CLANG_OFFLOAD_BUNDLE__": one image per device
 *     entry (host entries are skipped);
 *   - compressed offload bundle "CCOB" v1/v2/v3, zlib or zstd;
 *   - NVIDIA cubin (ELF64, EM_CUDA): one image, kernel names only;
 *   - NVIDIA fatbin (magic 0xBA55ED50): one image per entry (cubin entries
 *     list names; PTX and compressed entries only give their arch).
 *
 * Ownership: everything hangs off crk_codeobj and is released by
 * crk_codeobj_free(). crk_co_image.data points either into the caller's
 * buffer or into memory owned by the crk_codeobj (decompressed CCOB payload),
 * so it stays valid while both are alive.
 */
#ifndef CRK_CODEOBJ_H
#define CRK_CODEOBJ_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "crk.h"

/* Hard limits on what a file may claim (hostile files cannot make us
 * allocate more; real code objects stay far below). */
#ifndef CRK_CO_MAX_UNCOMPRESSED /* fuzz builds lower it */
#define CRK_CO_MAX_UNCOMPRESSED ((uint64_t)1 << 30) /* CCOB payload, bytes   */
#endif
#define CRK_CO_MAX_IMAGES 1024                      /* bundle/fatbin entries */
#define CRK_CO_MAX_KERNELS 65536                    /* per image             */
#define CRK_CO_MAX_ARGS 4096                        /* per kernel            */
#define CRK_CO_TARGET_MAX 96                        /* target string buffer  */
#define CRK_CO_MAX_NAME 4096                        /* ELF symbol name bytes */

typedef enum {
    CRK_CO_FMT_AMDGPU_ELF = 1,
    CRK_CO_FMT_BUNDLE,       /* uncompressed clang offload bundle */
    CRK_CO_FMT_CCOB,         /* compressed clang offload bundle   */
    CRK_CO_FMT_CUBIN,
    CRK_CO_FMT_FATBIN
} crk_co_format;

typedef enum {
    CRK_CO_IMG_AMDGPU = 1,   /* AMDGPU ELF code object                     */
    CRK_CO_IMG_CUBIN,        /* NVIDIA ELF                                 */
    CRK_CO_IMG_PTX,          /* fatbin PTX entry (no kernel list)          */
    CRK_CO_IMG_OPAQUE        /* e.g. compressed fatbin entry (no kernels)  */
} crk_co_image_kind;

/* Value absent from the metadata. */
#define CRK_CO_UNSET UINT32_MAX

/* One kernel argument from the AMDGPU metadata (.args[]). */
typedef struct {
    const char *name;          /* ".name", "" when absent                    */
    const char *value_kind;    /* "by_value", "global_buffer", "hidden_..."  */
    const char *address_space; /* "global", ... ; "" when absent            */
    uint32_t offset;           /* ".offset" in the kernarg segment           */
    uint32_t size;             /* ".size"                                    */
} crk_co_arg;

/* One kernel of an image. For cubins only name/symbol are filled, the
 * numeric fields are CRK_CO_UNSET. */
typedef struct {
    const char *name;                    /* ".name"                          */
    const char *symbol;                  /* ".symbol" ("name.kd")            */
    const crk_co_arg *args;
    uint32_t nargs;
    uint32_t kernarg_segment_size;
    uint32_t vgpr_count, sgpr_count, agpr_count;
    uint32_t vgpr_spill_count, sgpr_spill_count;
    uint32_t group_segment_fixed_size;   /* LDS bytes                        */
    uint32_t private_segment_fixed_size; /* scratch bytes per work-item      */
    uint32_t wavefront_size;
    uint32_t max_flat_workgroup_size;
} crk_co_kernel;

/* One device image inside the file. */
typedef struct {
    crk_co_image_kind kind;
    char target[CRK_CO_TARGET_MAX]; /* "gfx90a:sramecc+:xnack-", "sm_90", "compute_80" */
    char bundle_id[160];            /* offload bundle entry id, "" otherwise            */
    int code_object_version;        /* AMDGPU: 4, 5, 6; 0 unknown                        */
    int compressed;                 /* fatbin entry compressed: kernels not listed       */
    const uint8_t *data;            /* the image bytes (see ownership above)             */
    size_t size;
    const crk_co_kernel *kernels;
    uint32_t nkernels;
} crk_co_image;

struct crk_co_arena;

typedef struct {
    crk_co_format format;
    const crk_co_image *images;
    uint32_t nimages;
    struct crk_co_arena *arena;     /* private: all allocations */
} crk_codeobj;

/* Sniffs the format of buf and parses it fully. 0 on success (out must then
 * be released with crk_codeobj_free), -1 with a one-line message in err
 * (out is left empty; crk_codeobj_free on it is harmless). */
int crk_codeobj_open(const uint8_t *buf, size_t len, crk_codeobj *out, char *err,
                     size_t errlen);
void crk_codeobj_free(crk_codeobj *co);
const char *crk_co_format_name(crk_co_format f);

/* Kernel of an image by exact name, NULL if absent. */
const crk_co_kernel *crk_co_find_kernel(const crk_co_image *img, const char *name);

/* Target ID of one AMDGPU ELF image ("gfx942", "gfx90a:sramecc+:xnack-"),
 * for code-object selection; metadata amdhsa.target preferred, else e_flags.
 * 0 ok, -1 with err. */
int crk_codeobj_amdgpu_target(const uint8_t *buf, size_t len, char *target, size_t tlen,
                              char *err, size_t errlen);

/* ------------------------------------------------------------- ABI checks */

/* 1 if the argument is an implicit ("hidden_*") one. */
int crk_co_arg_is_hidden(const crk_co_arg *a);
/* Checks that the explicit arguments of k match the registry's parameter
 * list of ki: same count, each at the naturally aligned offset, same size,
 * value_kind global_buffer for CRK_ARG_PTR and by_value otherwise.
 * 0 ok, -1 with the first mismatch in why. */
int crk_check_kernel_abi(const crk_kernel_info *ki, const crk_co_kernel *k, char *why,
                         size_t n);
/* Checks zero scratch and zero VGPR/SGPR spills. 0 ok, -1 with why. */
int crk_check_kernel_resources(const crk_co_kernel *k, char *why, size_t n);

/* ============================================================ internal ==
 * Shared by the codeobj_*.c files only; not part of the library's API. */

void crk_co_errf(char *err, size_t n, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* Arena: zeroed allocations freed together. NULL on overflow / OOM. */
void *crk_co_alloc(crk_codeobj *co, size_t count, size_t size);
/* Like crk_co_alloc but not zeroed (large decompression buffers). */
void *crk_co_alloc_raw(crk_codeobj *co, size_t bytes);
char *crk_co_strndup(crk_codeobj *co, const char *s, size_t n);
/* Bounded copy into a fixed buffer; stops at NUL or n; always terminates. */
void crk_co_copy(char *dst, size_t cap, const char *s, size_t n);

/* Little-endian loads; caller guarantees the bytes are in range. */
uint16_t crk_co_le16(const uint8_t *p);
uint32_t crk_co_le32(const uint8_t *p);
uint64_t crk_co_le64(const uint8_t *p);
/* 1 if [off, off+size) lies inside [0, len) (overflow-safe). */
int crk_co_in_range(uint64_t off, uint64_t size, uint64_t len);

/* Validated ELF64 little-endian view. */
typedef struct {
    const uint8_t *buf;
    size_t len;
    uint16_t machine;
    uint32_t flags;
    uint8_t osabi, abiversion;
    uint64_t shoff, phoff;
    uint16_t shnum, phnum, shstrndx;
} crk_elf;

typedef struct {
    uint32_t name, type;
    uint64_t flags, offset, size, link, entsize;
} crk_elf_shdr;

/* Checks the header, the section and program header tables, every section's
 * and segment's file range. */
int crk_elf_open(crk_elf *e, const uint8_t *buf, size_t len, char *err, size_t n);
/* Section header i; SHT_NULL/SHT_NOBITS sections read as offset 0 size 0,
 * every other section's [offset, offset+size) is inside the file. */
void crk_elf_shdr_at(const crk_elf *e, uint16_t i, crk_elf_shdr *sh);
/* NUL-terminated string at off within section `strtab`; NULL if invalid or
 * longer than CRK_CO_MAX_NAME (so a lookup costs at most that many bytes). */
const char *crk_elf_str(const crk_elf *e, uint16_t strtab, uint64_t off);

/* Single-image parsers fill *img (strings and kernels allocated in co). */
int crk_co_parse_amdgpu(crk_codeobj *co, crk_co_image *img, const uint8_t *buf, size_t len,
                        char *err, size_t n);
int crk_co_parse_cubin(crk_codeobj *co, crk_co_image *img, const uint8_t *buf, size_t len,
                       char *err, size_t n);
/* Container parsers set co->images / co->nimages. */
int crk_co_parse_bundle(crk_codeobj *co, const uint8_t *buf, size_t len, char *err, size_t n);
int crk_co_parse_ccob(crk_codeobj *co, const uint8_t *buf, size_t len, char *err, size_t n);
int crk_co_parse_fatbin(crk_codeobj *co, const uint8_t *buf, size_t len, char *err, size_t n);
/* Parses the NT_AMDGPU_METADATA msgpack blob into img (kernels, target,
 * version). */
int crk_co_parse_amdgpu_metadata(crk_codeobj *co, crk_co_image *img, const uint8_t *md,
                                 size_t len, char *err, size_t n);
/* Processor name for an EF_AMDGPU_MACH value, NULL if unknown. */
const char *crk_co_amdgpu_mach_name(uint32_t mach);

#endif
