/* Links the installed C ABI, through both of its headers, and prints its
 * version and a Filecoin shape's partition count. */
#include <stdio.h>

#include "cuzk.h"
#include "cuzk_filecoin.h"

int main(void)
{
    cuzk_porep_shape shape;
    if (cuzk_porep_shape_registered(&shape, 8) != CUZK_OK) { /* 32 GiB V1_1 */
        fprintf(stderr, "consumer_c: cuzk_porep_shape_registered failed\n");
        return 1;
    }
    printf("consumer_c: %s; 32 GiB PoRep: %u partitions\n", cuzk_version(), (unsigned)shape.partitions);
    return 0;
}
