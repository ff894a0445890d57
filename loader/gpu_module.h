/* gpu_module.h — module and launch calls, included by gpu_hip.c and
 * gpu_cuda.c: HIP's hipModule* API has the CUDA driver's cuModule* and
 * cuLaunchKernel signatures, so one text serves both. The includer defines
 * F() and the indexes MLOAD, MUNLOAD, GETFN, LAUNCH into crk_gpu.fn. */
static int module_load(crk_gpu *g, void **m, const void *img) {
    return F(g, MLOAD, int (*)(void **, const void *))(m, img);
}
static int module_unload(crk_gpu *g, void *m) { return F(g, MUNLOAD, int (*)(void *))(m); }
static int get_function(crk_gpu *g, void **f, void *m, const char *n) {
    return F(g, GETFN, int (*)(void **, void *, const char *))(f, m, n);
}
static int launch(crk_gpu *g, void *f, const unsigned gr[3], const unsigned bl[3], unsigned shm, void *s,
                  void **args) {
    return F(g, LAUNCH, int (*)(void *, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                                unsigned, void *, void **, void **))(f, gr[0], gr[1], gr[2], bl[0], bl[1],
                                                                     bl[2], shm, s, args, NULL);
}
