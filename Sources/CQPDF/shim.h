// libqpdf's C API (Debian's libqpdf-dev; pkg-config libqpdf): reads the XML attached to a Factur-X/ZUGFeRD PDF.
// zlib (zlib1g-dev, which libqpdf-dev depends on): the attachment's FlateDecode stream is inflated here, under the
// input budget, rather than by qpdf's C API, which decodes a whole stream before returning it.
#include <qpdf/qpdf-c.h>
#include <zlib.h>
