// The C side of the callbacks: the engine calls cuzkgo_on_event (timeline)
// and cuzkgo_on_release (borrowed partitions) on its own threads; they
// forward to the exported Go functions with the cgo.Handle that travels as
// user_data. (A separate file because a cgo preamble in a package with
// //export may hold declarations only.)
#include <stdint.h>

#include "cuzk.h"
#include "_cgo_export.h"

void cuzkgo_on_event(void* user_data, const cuzk_event* ev)
{
    cuzkgoTimelineEvent((uintptr_t)user_data, (cuzk_event*)ev);
}

void cuzkgo_on_release(void* user_data, size_t partition)
{
    cuzkgoRelease((uintptr_t)user_data, partition);
}

// Stores the cgo.Handle (an integer) as user_data, so that Go never holds
// the integer in a pointer-typed variable.
void cuzkgo_set_user_data(cuzk_timeline_callbacks* cb, uintptr_t handle)
{
    cb->user_data = (void*)handle;
}

void cuzkgo_set_release(cuzk_borrowed_partition* p, uintptr_t handle)
{
    p->user_data = (void*)handle;
    p->release = cuzkgo_on_release;
}
