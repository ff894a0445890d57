/* codeobj_check.c — does a compiled kernel match the registry's signature?
 *
 * The launcher packs arguments by the registry's parameter list, so a kernel
 * whose explicit arguments sit elsewhere would read garbage. */
#include "codeobj.h"

#include <string.h>

int crk_co_arg_is_hidden(const crk_co_arg *a)
{
    return a->value_kind && strncmp(a->value_kind, "hidden_", 7) == 0;
}

int crk_check_kernel_abi(const crk_kernel_info *ki, const crk_co_kernel *k, char *why,
                         size_t n)
{
    if (!ki || !k) {
        crk_co_errf(why, n, "missing kernel");
        return -1;
    }
    uint32_t explicit_args = 0;
    for (uint32_t i = 0; i < k->nargs; i++)
        explicit_args += !crk_co_arg_is_hidden(&k->args[i]);
    if (explicit_args != ki->nparams) {
        crk_co_errf(why, n, "%s: %u explicit arguments, registry has %u parameters",
                    ki->name, explicit_args, ki->nparams);
        return -1;
    }
    uint64_t off = 0;
    uint32_t ai = 0;
    for (uint32_t p = 0; p < ki->nparams; p++) {
        const crk_param *pr = &ki->params[p];
        while (crk_co_arg_is_hidden(&k->args[ai]))
            ai++; /* explicit_args == nparams guarantees one is left */
        const crk_co_arg *a = &k->args[ai++];
        uint32_t size = pr->size;
        if (size == 0 || (size & (size - 1)) != 0) {
            crk_co_errf(why, n, "%s: registry parameter %u (%s) has size %u, not a power of 2",
                        ki->name, p, pr->name, size);
            return -1;
        }
        off = (off + size - 1) / size * size; /* natural alignment */
        const char *kind = pr->kind == CRK_ARG_PTR ? "global_buffer" : "by_value";
        if (a->size != size) {
            crk_co_errf(why, n, "%s: parameter %u (%s %s) has size %u in the code object, "
                        "registry says %u", ki->name, p, pr->ctype, pr->name, a->size, size);
            return -1;
        }
        if (a->offset != off) {
            crk_co_errf(why, n, "%s: parameter %u (%s %s) at offset %u in the code object, "
                        "expected %llu", ki->name, p, pr->ctype, pr->name, a->offset,
                        (unsigned long long)off);
            return -1;
        }
        if (strcmp(a->value_kind, kind) != 0) {
            crk_co_errf(why, n, "%s: parameter %u (%s %s) has value_kind %s, expected %s",
                        ki->name, p, pr->ctype, pr->name, a->value_kind, kind);
            return -1;
        }
        off += size;
    }
    return 0;
}

int crk_check_kernel_resources(const crk_co_kernel *k, char *why, size_t n)
{
    const char *name = k && k->name ? k->name : "?";
    if (!k) {
        crk_co_errf(why, n, "missing kernel");
        return -1;
    }
    if (k->private_segment_fixed_size != 0 && k->private_segment_fixed_size != CRK_CO_UNSET) {
        crk_co_errf(why, n, "%s: uses %u bytes of scratch per work-item", name,
                    k->private_segment_fixed_size);
        return -1;
    }
    if (k->vgpr_spill_count != 0 && k->vgpr_spill_count != CRK_CO_UNSET) {
        crk_co_errf(why, n, "%s: spills %u VGPRs", name, k->vgpr_spill_count);
        return -1;
    }
    if (k->sgpr_spill_count != 0 && k->sgpr_spill_count != CRK_CO_UNSET) {
        crk_co_errf(why, n, "%s: spills %u SGPRs", name, k->sgpr_spill_count);
        return -1;
    }
    return 0;
}
