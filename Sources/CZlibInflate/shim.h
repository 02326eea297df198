// zlib (Debian: zlib1g-dev): raw inflate and crc32 for reading zip entries (Sources/ZipReading).
#include <zlib.h>
