/* abi_v0_1.c — a program built against libcrk 0.1, whose crk_launch had no
 * shared_bytes parameter: it binds crk_launch@CRK_0.1 and must keep working
 * (tests/unit/test_link.sh runs it against today's library). */
#include <crk.h>
#include <stdio.h>
#include <string.h>

crk_status crk_launch_0_1(crk_ctx *ctx, crk_stream s, const char *name, const unsigned grid[3],
                          const unsigned block[3], void **args, const size_t *sizes, size_t nargs);
__asm__(".symver crk_launch_0_1, crk_launch@CRK_0.1");

int main(void) {
    const unsigned g[3] = {1, 1, 1};
    /* No GPU needed: a NULL context is refused by the 0.1 entry point itself. */
    const crk_status st = crk_launch_0_1(NULL, NULL, "ucopy_f32", g, g, NULL, NULL, 0);
    const int ok = st == CRK_E_INVALID && strstr(crk_last_error(), "ctx is NULL") != NULL;
    printf("crk_launch@CRK_0.1: %s (%s)\n", ok ? "ok" : "WRONG", crk_last_error());
    return !ok;
}
