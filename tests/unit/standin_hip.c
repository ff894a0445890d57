/* standin_hip.c — a stand-in HIP runtime for libcrk's context tests
 * (build/unit/libstandin_hip.so, opened through CRK_HIP_LIBRARY). It runs no
 * kernel; it enforces what a real runtime requires of libcrk's calls:
 *  - per-thread devices, stricter than HIP and as CUDA's per-thread
 *    contexts: a thread has no device until it calls hipSetDevice, and calls
 *    that need one fail with hipErrorInvalidContext;
 *  - a module belongs to the device current when it was loaded: getting a
 *    function from it, or launching one, on another device fails;
 *  - streams never finish work on their own: a kernel counts as running
 *    until an event recorded after it, or hipDeviceSynchronize, is waited
 *    for; an async copy into memory a running kernel reads is counted as an
 *    unsafe overwrite.
 * Tests drive it through standin_hip_* (looked up with dlsym): injected
 * failures and counters. Env: STANDIN_HIP_DEVICES (default 2),
 * STANDIN_HIP_ARCH (default gfx942:sramecc+:xnack-); every device has 2 CUs
 * (hipDeviceGetAttribute) and holds one block of any kernel a CU
 * (hipModuleOccupancyMaxActiveBlocksPerMultiprocessor, its calls counted),
 * and the last launch's grid x is counted. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXPORT __attribute__((visibility("default")))
enum { OK = 0, E_INVALID_VALUE = 1, E_OOM = 2, E_NO_DEVICE = 100, E_INVALID_DEVICE = 101,
       E_INVALID_DEVICE_FUNCTION = 98, E_INVALID_CONTEXT = 201, E_INVALID_HANDLE = 400 };
enum { MAX_DEV = 8, MAX_WATCH = 8192, MAX_FAIL = 8 };

typedef struct function function;
typedef struct { int device; function *functions; } module;
struct function { struct function *next; module *m; }; /* freed with their module */
typedef struct { unsigned long seq; const void *reads; } event; /* reads: what its launch read */

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static _Thread_local int current = -1;         /* no device until hipSetDevice */
static _Thread_local const void *pending_read; /* copied (or waited for) just before this thread's next launch */
static _Thread_local const void *last_read;    /* what this thread's last launch read */
static unsigned long launch_seq, completed_seq;
static long launches[MAX_DEV], loads[MAX_DEV], syncs, unsafe, last_grid_x, last_block_x, occupancy_calls, uploads, waits;
static struct { const void *addr; unsigned long reader; } watch[MAX_WATCH];
static int nwatch;
static struct { char call[48]; int err, left; } fails[MAX_FAIL];

static int ndevices(void) {
    const char *s = getenv("STANDIN_HIP_DEVICES");
    int n = s ? atoi(s) : 2;
    return n < 0 ? 0 : n > MAX_DEV ? MAX_DEV : n;
}

/* An injected failure for `call`, or 0. Caller holds the lock. */
static int injected(const char *call) {
    for (int i = 0; i < MAX_FAIL; i++)
        if (fails[i].left > 0 && !strcmp(fails[i].call, call)) return fails[i].left--, fails[i].err;
    return 0;
}

/* Common entry: the lock, an injected failure, and a current device. */
#define ENTER(call, need_device)                                                   \
    pthread_mutex_lock(&lock);                                                     \
    int err_ = injected(call);                                                     \
    if (!err_ && (need_device) && current < 0) err_ = E_INVALID_CONTEXT;           \
    if (err_) return pthread_mutex_unlock(&lock), err_
#define LEAVE(e) return pthread_mutex_unlock(&lock), (e)

/* ------------------------------------------------------------ control */
EXPORT void standin_hip_fail(const char *call, int err, int count) {
    pthread_mutex_lock(&lock);
    for (int i = 0; i < MAX_FAIL; i++)
        if (fails[i].left <= 0) {
            snprintf(fails[i].call, sizeof fails[i].call, "%s", call);
            fails[i].err = err, fails[i].left = count;
            break;
        }
    pthread_mutex_unlock(&lock);
}
/* "launch" and "module_load" per device; "sync", "unsafe", "occupancy",
 * "upload" (async copies), "wait" (hipStreamWaitEvent) (calls), "grid_x" and
 * "block_x" (the last launch's; device -1). */
EXPORT long standin_hip_count(const char *what, int device) {
    pthread_mutex_lock(&lock);
    long v = -1;
    if (!strcmp(what, "launch") && device >= 0 && device < MAX_DEV) v = launches[device];
    else if (!strcmp(what, "module_load") && device >= 0 && device < MAX_DEV) v = loads[device];
    else if (!strcmp(what, "sync")) v = syncs;
    else if (!strcmp(what, "unsafe")) v = unsafe;
    else if (!strcmp(what, "grid_x")) v = last_grid_x;
    else if (!strcmp(what, "block_x")) v = last_block_x;
    else if (!strcmp(what, "occupancy")) v = occupancy_calls;
    else if (!strcmp(what, "upload")) v = uploads;
    else if (!strcmp(what, "wait")) v = waits;
    pthread_mutex_unlock(&lock);
    return v;
}

/* ------------------------------------------------------------ devices */
EXPORT int hipInit(unsigned flags) { return flags ? E_INVALID_VALUE : OK; }
EXPORT int hipGetDeviceCount(int *n) {
    *n = ndevices();
    return *n ? OK : E_NO_DEVICE;
}
EXPORT int hipSetDevice(int d) {
    ENTER("hipSetDevice", 0);
    if (d < 0 || d >= ndevices()) LEAVE(E_INVALID_DEVICE);
    current = d;
    LEAVE(OK);
}
/* libcrk finds gcnArchName by its content: put it after a NUL, anywhere. */
EXPORT int hipGetDevicePropertiesR0600(void *props, int d) {
    if (d < 0 || d >= ndevices()) return E_INVALID_DEVICE;
    const char *arch = getenv("STANDIN_HIP_ARCH");
    snprintf((char *)props + 1160, 256, "%s", arch && *arch ? arch : "gfx942:sramecc+:xnack-");
    return OK;
}
EXPORT int hipDeviceGetAttribute(int *v, int attr, int d) {
    if (d < 0 || d >= ndevices()) return E_INVALID_DEVICE;
    if (attr != 63) return E_INVALID_VALUE; /* hipDeviceAttributeMultiprocessorCount */
    return *v = 2, OK;
}
EXPORT int hipDeviceGetName(char *name, int len, int d) {
    snprintf(name, (size_t)len, "stand-in device %d", d);
    return OK;
}
EXPORT int hipRuntimeGetVersion(int *v) { return *v = 60400000, OK; }
EXPORT const char *hipGetErrorString(int e) {
    switch (e) {
    case E_INVALID_CONTEXT: return "hipErrorInvalidContext (stand-in: no device current on this thread)";
    case E_INVALID_DEVICE_FUNCTION: return "hipErrorInvalidDeviceFunction (stand-in: module of another device)";
    case E_OOM: return "hipErrorOutOfMemory";
    default: return "stand-in HIP error";
    }
}

/* ------------------------------------------------------------ modules */
EXPORT int hipModuleLoadData(void **m, const void *image) {
    ENTER("hipModuleLoadData", 1);
    module *mod = image ? malloc(sizeof *mod) : NULL;
    if (!mod) LEAVE(image ? E_OOM : E_INVALID_VALUE);
    mod->device = current, mod->functions = NULL;
    loads[current]++;
    *m = mod;
    LEAVE(OK);
}
EXPORT int hipModuleUnload(void *m) {
    module *mod = m;
    for (function *f = mod ? mod->functions : NULL, *next; f; f = next) next = f->next, free(f);
    free(mod);
    return OK;
}
EXPORT int hipModuleGetFunction(void **f, void *m, const char *name) {
    ENTER("hipModuleGetFunction", 1);
    module *mod = m;
    if (!mod || !name) LEAVE(E_INVALID_HANDLE);
    if (mod->device != current) LEAVE(E_INVALID_DEVICE_FUNCTION);
    function *fn = malloc(sizeof *fn);
    if (!fn) LEAVE(E_OOM);
    fn->m = mod, fn->next = mod->functions, mod->functions = fn;
    *f = fn;
    LEAVE(OK);
}
EXPORT int hipModuleLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                                 unsigned bz, unsigned shm, void *stream, void **args, void **extra) {
    (void)shm, (void)stream, (void)extra;
    ENTER("hipModuleLaunchKernel", 1);
    const function *fn = f;
    if (!fn || !args || !gx || !gy || !gz || !bx || !by || !bz) LEAVE(E_INVALID_VALUE);
    if (fn->m->device != current) LEAVE(E_INVALID_DEVICE_FUNCTION);
    launches[current]++;
    launch_seq++;
    last_grid_x = gx, last_block_x = bx;
    if (pending_read) { /* the bytes just copied are read by this kernel */
        int i = 0;
        while (i < nwatch && watch[i].addr != pending_read) i++;
        if (i == nwatch && nwatch < MAX_WATCH) watch[nwatch].addr = pending_read, nwatch++;
        if (i < nwatch) watch[i].reader = launch_seq;
    }
    last_read = pending_read, pending_read = NULL;
    LEAVE(OK);
}

EXPORT int hipModuleOccupancyMaxActiveBlocksPerMultiprocessor(int *n, void *f, int block, size_t shm) {
    (void)shm;
    ENTER("hipModuleOccupancyMaxActiveBlocksPerMultiprocessor", 1);
    const function *fn = f;
    if (!n || !fn || block <= 0 || block > 1024) LEAVE(E_INVALID_VALUE);
    if (fn->m->device != current) LEAVE(E_INVALID_DEVICE_FUNCTION);
    occupancy_calls++;
    *n = 1024 / block; /* as a kernel at 64 registers a thread */
    LEAVE(OK);
}

/* ------------------------------------------------------------- memory */
EXPORT int hipMalloc(void **p, size_t n) {
    ENTER("hipMalloc", 1);
    *p = malloc(n ? n : 1);
    LEAVE(*p ? OK : E_OOM);
}
EXPORT int hipFree(void *p) {
    free(p);
    return OK;
}
EXPORT int hipMemcpy(void *d, const void *s, size_t n, int kind) {
    (void)kind;
    ENTER("hipMemcpy", 1);
    memcpy(d, s, n);
    LEAVE(OK);
}
EXPORT int hipMemcpyAsync(void *d, const void *s, size_t n, int kind, void *stream) {
    (void)kind, (void)stream;
    ENTER("hipMemcpyAsync", 1);
    for (int i = 0; i < nwatch; i++)
        if (watch[i].addr == d && watch[i].reader > completed_seq) unsafe++;
    memcpy(d, s, n);
    pending_read = d;
    uploads++;
    LEAVE(OK);
}
EXPORT int hipMemset(void *p, int v, size_t n) {
    ENTER("hipMemset", 1);
    memset(p, v, n);
    LEAVE(OK);
}
EXPORT int hipDeviceSynchronize(void) {
    ENTER("hipDeviceSynchronize", 1);
    completed_seq = launch_seq;
    syncs++;
    LEAVE(OK);
}

/* ------------------------------------------------------------- events */
EXPORT int hipEventCreateWithFlags(void **e, unsigned flags) {
    (void)flags;
    ENTER("hipEventCreateWithFlags", 1);
    *e = calloc(1, sizeof(event));
    LEAVE(*e ? OK : E_OOM);
}
EXPORT int hipEventRecord(void *e, void *stream) {
    (void)stream;
    ENTER("hipEventRecord", 1);
    ((event *)e)->seq = launch_seq; /* one ordered stream: all work so far */
    ((event *)e)->reads = last_read;
    LEAVE(OK);
}
/* libcrk waits for a slot's event before launching a kernel that reads the
 * slot again: that kernel reads what the event's launch read. */
EXPORT int hipStreamWaitEvent(void *stream, void *e, unsigned flags) {
    (void)stream;
    ENTER("hipStreamWaitEvent", 1);
    if (!e || flags) LEAVE(E_INVALID_VALUE);
    pending_read = ((event *)e)->reads;
    waits++;
    LEAVE(OK);
}
EXPORT int hipEventSynchronize(void *e) {
    ENTER("hipEventSynchronize", 1);
    if (((event *)e)->seq > completed_seq) completed_seq = ((event *)e)->seq;
    LEAVE(OK);
}
EXPORT int hipEventDestroy(void *e) {
    free(e);
    return OK;
}
