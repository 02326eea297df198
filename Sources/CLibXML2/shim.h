#include <libxml/xmlversion.h>
// Debian's libxml2 is built with ICU, and its encoding.h then includes ICU headers that clash
// with Foundation's bundled ICU module. HealthPipe never touches xmlCharEncodingHandler's ICU
// fields, so the ICU part of the headers is left out.
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/SAX2.h>
#include <libxml/xmlreader.h>
