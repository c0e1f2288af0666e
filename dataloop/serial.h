/* The serialized form of a type (serialize.c, deserialize.c). */
#ifndef DLI_SERIAL_H
#define DLI_SERIAL_H

#include "loop.h"

/* Little-endian fixed-width fields; doc/serialization.md is the spec. */
#define DLI_SER_MAGIC 0x59544c44u    /* the bytes "DLTY" */
#define DLI_SER_VERSION 1
#define DLI_SER_STICKY 1u            /* header flag: bounds set by resized */
#define DLI_SER_HEADER 58            /* bytes before the root loop */
#define DLI_SER_NODE_MIN 19          /* bytes of the smallest loop node */
#define DLI_SER_MAX_ALIGN 128

#endif
