/* cases.h — the layouts every kernel is run on. */
#ifndef CRK_TEST_CASES_H
#define CRK_TEST_CASES_H
#include "crk.h"

enum { K_CONTIG, K_TRANSPOSE, K_BCAST, K_SIZE1, K_BCAST_COL, CASE_KINDS };

typedef struct {
    const char *name;
    size_t rank;
    size_t dims[6];
    int kind;
    size_t offset;   /* start_offset (a sliced view)                       */
    int inplace;     /* 1: inp == out; 2: inp == NULL (reads out)          */
} layout_case;

extern const layout_case CASES[];
extern const size_t N_CASES;
/* Builds the layout of kind `kind` over the case's dims; returns the span
 * (elements past start_offset that the view can touch). */
size_t case_layout(const layout_case *c, int kind, crk_layout *l);
/* The product of the case's dims. */
size_t case_numel(const layout_case *c);
#endif
