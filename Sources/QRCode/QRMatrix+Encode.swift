import CQRencode

extension QRMatrix {
    /// The QR code of `text` (bytes as given, error correction level L: the smallest code, fine
    /// for a screen), or `nil` when libqrencode cannot encode it (too long, out of memory).
    public static func encode(_ text: String) -> QRMatrix? {
        guard !text.isEmpty, text.utf8.count <= 1024 else { return nil }
        guard let code = QRcode_encodeString8bit(text, 0, QR_ECLEVEL_L) else { return nil }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        guard width > 0, let data = code.pointee.data else { return nil }
        // Bit 0 of each byte is the module's colour (1 dark); the other bits describe its role.
        let modules = (0..<(width * width)).map { data[$0] & 1 == 1 }
        return QRMatrix(size: width, modules: modules)
    }
}
