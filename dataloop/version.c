/* dl_version: the version this library was built as, from the header's
   macros (test_version checks them against configure's version). */
#include "dataloop.h"

#define DLI_STR2(x) #x
#define DLI_STR(x) DLI_STR2(x)

const char *dl_version(void)
{
  return DLI_STR(DL_VERSION_MAJOR) "." DLI_STR(DL_VERSION_MINOR) "."
         DLI_STR(DL_VERSION_PATCH);
}
