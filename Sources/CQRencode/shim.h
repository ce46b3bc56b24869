#ifndef CQRENCODE_SHIM_H
#define CQRENCODE_SHIM_H
// libqrencode (Debian libqrencode-dev, pkg-config libqrencode): only QRcode_encodeString8bit
// and QRcode_free are used, by Sources/QRCode/QRMatrix+Encode.swift.
#include <qrencode.h>
#endif
