// libqrencode: QR code symbols (Debian's libqrencode-dev; pkg-config libqrencode). Used for the EPC payment codes.
#include <qrencode.h>
