/* Compiles the C ABI's headers as strict C99 (see CMakeLists.txt), as the
 * macro CUZK_HEADER_TEST selects:
 *   1          cuzk.h alone,
 *   2          cuzk_filecoin.h alone (it includes cuzk.h itself),
 *   otherwise  both together, each included twice (the include guards). */
#if defined(CUZK_HEADER_TEST) && CUZK_HEADER_TEST == 1
#include "cuzk.h"
#elif defined(CUZK_HEADER_TEST) && CUZK_HEADER_TEST == 2
#include "cuzk_filecoin.h"
#else
#include "cuzk.h"
#include "cuzk_filecoin.h"
#include "cuzk.h"
#include "cuzk_filecoin.h"
#endif

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
#ifdef CUZK_FILECOIN_H
    {
        cuzk_porep_shape porep;
        cuzk_post_shape post;
        porep.registered_proof = CUZK_POREP_CUSTOM;
        post.type = CUZK_POST_WINDOW;
        t.var += (uint32_t)porep.registered_proof + post.type;
    }
#endif
    return (int)t.var + CUZK_OK + CUZK_ABI_VERSION;
}
