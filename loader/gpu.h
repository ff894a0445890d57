/* gpu.h — the mapping between libcrk and a GPU runtime. The loader logic
 * calls only these; gpu_hip.c maps them onto HIP (AMD), gpu_cuda.c onto the
 * CUDA driver API (NVIDIA, to run the same kernels on NVIDIA hardware).
 * Both runtimes are opened with dlopen, so libcrk needs neither at build or
 * load time and says "no GPU" cleanly where there is none. */
#ifndef CRK_GPU_H
#define CRK_GPU_H
#include <stddef.h>

typedef struct crk_gpu crk_gpu;

/* Peak DRAM bandwidth in GB/s from the runtime's memory clock (kHz) and bus
 * width (bits), two transfers a clock (H100 SXM: 2619 MHz x 5120 bits,
 * 3352); 0 where either is not known. */
static inline double crk_gpu_dram_gbps(int khz, int bits) {
    return khz > 0 && bits > 0 ? 2.0 * khz * 1e3 * (bits / 8.0) / 1e9 : 0;
}
struct crk_gpu {
    const char *api;            /* "hip" or "cuda"                               */
    const char *image_kind;     /* what its code objects are: "amdgpu", "nvidia" */
    int supports_generic;       /* runtime loads generic AMDGPU targets          */
    void *lib, *ctx;            /* dlopen handle; CUDA primary context           */
    int device;
    int sm_count;               /* multiprocessors (NVIDIA), compute units (AMD); 0: not known */
    double dram_gbps;           /* peak DRAM bandwidth the runtime implies (GB/s); 0: not known */
    void *fn[32];               /* resolved entry points, see gpu_*.c            */
    /* Calls; every one returns 0 or the runtime's error code. */
    int (*make_current)(crk_gpu *g);
    int (*module_load)(crk_gpu *g, void **mod, const void *image);
    int (*module_unload)(crk_gpu *g, void *mod);
    int (*get_function)(crk_gpu *g, void **fn, void *mod, const char *name);
    int (*launch)(crk_gpu *g, void *fn, const unsigned grid[3], const unsigned block[3],
                  unsigned shared_bytes, void *stream, void **args);
    int (*malloc)(crk_gpu *g, void **p, size_t bytes);
    int (*free)(crk_gpu *g, void *p);
    int (*htod)(crk_gpu *g, void *dst, const void *src, size_t bytes);
    int (*dtoh)(crk_gpu *g, void *dst, const void *src, size_t bytes);
    int (*htod_async)(crk_gpu *g, void *dst, const void *src, size_t bytes, void *stream);
    int (*memset)(crk_gpu *g, void *p, int byte, size_t bytes);
    int (*synchronize)(crk_gpu *g);
    int (*event_create)(crk_gpu *g, void **ev);
    int (*event_record)(crk_gpu *g, void *ev, void *stream);
    int (*event_sync)(crk_gpu *g, void *ev);
    int (*stream_wait)(crk_gpu *g, void *stream, void *ev); /* later work on stream waits for ev */
    int (*event_destroy)(crk_gpu *g, void *ev);
    const char *(*error_string)(crk_gpu *g, int err);
    /* Blocks of `block` threads of fn an SM (CU) holds at once; -1 where the
     * runtime has no occupancy call (tests/emu's, the unit tests' stand-in). */
    int (*occupancy)(crk_gpu *g, void *fn, unsigned block, unsigned shared_bytes, int *blocks);
    void (*close)(crk_gpu *g);
};

/* Each back end defines these static functions under the same names and
 * binds them with this one macro. */
#define CRK_GPU_BIND(g)                                                                          \
    ((g)->make_current = make_current, (g)->module_load = module_load,                           \
     (g)->module_unload = module_unload, (g)->get_function = get_function, (g)->launch = launch,  \
     (g)->malloc = gmalloc, (g)->free = gfree, (g)->htod = htod, (g)->dtoh = dtoh,                \
     (g)->htod_async = htod_async, (g)->memset = gmemset, (g)->synchronize = sync,              \
     (g)->event_create = ev_create, (g)->event_record = ev_record, (g)->event_sync = ev_sync,     \
     (g)->stream_wait = stream_wait, (g)->event_destroy = ev_destroy, (g)->error_string = err_str, (g)->occupancy = occupancy,     \
     (g)->close = gclose)

/* Open device `device` of that runtime; fill target (full target ID, e.g.
 * "gfx90a:sramecc+:xnack-" or "sm_90") and name. 0 ok, else -1 with why. */
int crk_gpu_open_hip(crk_gpu *g, int device, char *target, size_t tlen, char *name, size_t nlen,
                     char *why, size_t wlen);
int crk_gpu_open_cuda(crk_gpu *g, int device, char *target, size_t tlen, char *name, size_t nlen,
                      char *why, size_t wlen);
/* The calling thread's current device in that runtime (hipGetDevice,
 * cuCtxGetDevice), leaving it as it is; 0 ok, -1 if there is none. */
int crk_gpu_current_hip(int *device);
int crk_gpu_current_cuda(int *device);
/* The same in the runtime crk_gpu_open would pick; 0 if none says. */
int crk_gpu_current_device(void);
/* Opens the first runtime that has a device: HIP, then CUDA (or only the one
 * named by CRK_GPU_API=hip|cuda). 0 ok; -1 no device (why says which runtime
 * failed how); CRK_GPU_BAD_CONFIG when CRK_GPU_API names neither. */
#define CRK_GPU_BAD_CONFIG (-2)
int crk_gpu_open(crk_gpu *g, int device, char *target, size_t tlen, char *name, size_t nlen,
                 char *why, size_t wlen);
#endif
