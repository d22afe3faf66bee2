/* A typical mistake: a negative slot index not wrapped - C's % keeps the
   sign, so (newest - k) % capacity is negative once k > newest, and peek
   points before the buffer.  The first check's message once read "a new
   line must read zeros" (what it read was outside the ring); it names the
   index now.
   expect: FAIL init: sizes, zero fill, free
   says: points outside the buffer */
#define MISTAKE_NEGATIVE_SLOT
#include "right.c"
