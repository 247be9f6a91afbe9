// The C side of the timeline callback: the engine calls gohost_on_event on
// its own threads; it forwards to the exported Go function with the
// cgo.Handle that travels as user_data. (A separate file because a cgo
// preamble in a package with //export may hold declarations only.)
#include <stdint.h>

#include "cuzk.h"
#include "_cgo_export.h"

void gohost_on_event(void* user_data, const cuzk_event* ev)
{
    goTimelineEvent((uintptr_t)user_data, (cuzk_event*)ev);
}

// Stores the cgo.Handle (an integer) as user_data, so that Go never holds
// the integer in a pointer-typed variable.
void gohost_set_user_data(cuzk_timeline_callbacks* cb, uintptr_t handle)
{
    cb->user_data = (void*)handle;
}
