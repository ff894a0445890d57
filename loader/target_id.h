/* target_id.h — LLVM AMDGPU target IDs and code-object compatibility.
 *
 * A target ID is a processor followed by optional target features, each
 * "name+" (on) or "name-" (off); a feature not written is "any"
 * (LLVM AMDGPUUsage, "Target ID"). Examples: "gfx942", "gfx90a:sramecc+:xnack-",
 * "gfx11-generic". A leading triple ("amdgcn-amd-amdhsa--", also inside an
 * offload bundle id such as "hipv4-amdgcn-amd-amdhsa--gfx90a") is accepted and
 * ignored. */
#ifndef CRK_TARGET_ID_H
#define CRK_TARGET_ID_H

#include <stddef.h>

#define CRK_TID_MAX_FEATURES 4

typedef enum { CRK_FEAT_ANY = 0, CRK_FEAT_ON = 1, CRK_FEAT_OFF = 2 } crk_feat_mode;

typedef struct {
    char processor[32];                        /* "gfx90a", "gfx11-generic" */
    size_t nfeatures;
    struct {
        char name[16];                         /* "sramecc", "xnack"        */
        crk_feat_mode mode;                    /* ON or OFF (ANY = absent)  */
    } features[CRK_TID_MAX_FEATURES];
} crk_target_id;

/* Parses s; 0 ok, -1 if malformed (empty processor, feature without '+'/'-',
 * unknown or repeated feature, too long). */
int crk_target_parse(const char *s, crk_target_id *out);
/* Mode of a feature in a parsed ID (ANY when not written). */
crk_feat_mode crk_target_feature(const crk_target_id *t, const char *name);
/* 1 if processor is a generic target ("gfx9-generic", ...). */
int crk_target_is_generic(const char *processor);
/* 1 if the generic target `generic` covers the processor `proc`. */
int crk_target_generic_covers(const char *generic, const char *proc);
/* The generic target covering processor `proc` ("gfx11-generic" for
 * "gfx1103"), NULL if none does. */
const char *crk_target_generic_for(const char *proc);

/* 1 if a code object built for `code_object_target` may run on a device whose
 * full target ID is `device_target`:
 *  - same processor, or code object generic covering the device's processor
 *    (only if runtime_supports_generic);
 *  - each feature the code object specifies (+/-) equals the device's setting;
 *    a feature the code object leaves unspecified matches any setting; a
 *    device that does not report a feature matches only "any".
 * 0 otherwise, or when either ID is malformed. */
int crk_target_compatible(const char *code_object_target, const char *device_target,
                          int runtime_supports_generic);

/* Index of the best compatible candidate for the device, -1 if none.
 * Preference: exact processor over generic; then more specified features
 * (a matching "xnack-" beats "any"); ties go to the lowest index. */
int crk_target_pick(const char *device_target, const char *const *candidates, size_t n,
                    int supports_generic);

#endif
