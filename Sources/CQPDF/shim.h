// libqpdf's C API (Debian's libqpdf-dev; pkg-config libqpdf): reads the XML attached to a Factur-X/ZUGFeRD PDF.
#include <qpdf/qpdf-c.h>
