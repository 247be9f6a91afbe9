/* Compiles cuzk.h alone as strict C99 (see CMakeLists.txt). */
#include "cuzk.h"

/* Use a few declarations so that an unused-declaration regression shows. */
int cuzk_header_c99_check(void);
int cuzk_header_c99_check(void)
{
    cuzk_engine_options o;
    cuzk_partition p;
    cuzk_term t;
    (void)o;
    (void)p;
    t.var = CUZK_VAR_AUX | 1u;
    return (int)t.var + CUZK_OK + CUZK_ABI_VERSION;
}
