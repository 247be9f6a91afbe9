/* Links the installed C ABI and prints its version. */
#include <stdio.h>

#include "cuzk.h"

int main(void)
{
    printf("consumer_c: %s\n", cuzk_version());
    return 0;
}
