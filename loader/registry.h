/* registry.h — the generated registry (build/gen/registry.c). */
#ifndef CRK_REGISTRY_H
#define CRK_REGISTRY_H
#include "crk.h"

extern const crk_kernel_info crk_registry[];
extern const size_t crk_registry_count;
extern const uint32_t crk_registry_slot_mask;
extern const uint16_t crk_registry_slots[];
extern const char *const crk_registry_modules[];
extern const size_t crk_registry_module_count;
extern const char *const crk_registry_dtype_names[];
extern const uint8_t crk_registry_dtype_sizes[];
#endif
