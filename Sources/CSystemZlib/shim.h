// zlib, the system's: `locwire stats` reports gzipped sizes as a real gzip stream would have them.
#include <zlib.h>
