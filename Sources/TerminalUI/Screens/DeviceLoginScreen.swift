import Foundation
import QRCode
import SafeText
import ViewModels

/// A device login over the login form: where to go, the user code large and clear, a QR code of
/// the address (the complete one, with the code, when the provider gives one), a spinner and the
/// time left while the app polls, and [ Open in browser ] / [ Cancel ].
@MainActor
public enum DeviceLoginScreen {
    /// The last QR code drawn, by its text: one encoding per login, not one per frame.
    private static var cached: (text: String, matrix: QRMatrix?)?

    static func matrix(for text: String) -> QRMatrix? {
        if let cached, cached.text == text { return cached.matrix }
        let matrix = QRMatrix.encode(text)
        cached = (text, matrix)
        return matrix
    }

    public static func render(
        _ flow: DeviceLoginFlow, over frame: Frame, milliseconds: Int, ascii: Bool = false, keys: KeyMap = .standard
    ) -> Frame {
        var buffer = frame.buffer
        buffer.restyle(buffer.area) { $0.dim = true }
        var hotspots: [Hotspot] = []
        let name = flow.provider.displayName
        let code = flow.code
        let qr = code.flatMap { matrix(for: $0.urlToOpen.absoluteString) }
        let qrSize = qr.map { QRCodeView.size(of: $0, ascii: ascii) } ?? (width: 0, height: 0)
        let textWidth = 40
        // The QR code goes right of the text when it fits the window, else it is left out.
        let showsQR = qr != nil && textWidth + qrSize.width + 6 <= buffer.width - 2 && qrSize.height + 4 <= buffer.height - 2
        let width = min(buffer.width - 2, textWidth + 4 + (showsQR ? qrSize.width + 2 : 0))
        let height = min(buffer.height - 2, max(15, showsQR ? qrSize.height + 4 : 0))
        let box = buffer.area.centered(width: width, height: height)
        buffer.fill(box)
        buffer.box(box, style: .accent, title: "Log in with \(name)", ascii: ascii)
        let x = box.x + 2
        var y = box.y + 2
        let textMax = min(textWidth, box.width - 4)
        if let code {
            buffer.put("1. On your phone or computer, open", x: x, y: y, maxWidth: textMax)
            buffer.put(SafeText.clean(code.verificationURL.absoluteString), x: x + 3, y: y + 1, style: .accent, maxWidth: textMax - 3)
            buffer.put("2. Enter this code:", x: x, y: y + 3, maxWidth: textMax)
            // Spaced out and reversed: read across a room, typed on a phone.
            let spaced = code.userCode.map(String.init).joined(separator: " ")
            buffer.put(" \(spaced) ", x: x + 3, y: y + 5, style: Style(bold: true, reverse: true), maxWidth: textMax - 3)
            y += 7
            if showsQR {
                buffer.put("Or scan the QR code with your phone.", x: x, y: y, style: .dim, maxWidth: textMax)
            }
            y += 2
            let minutes = flow.remainingSeconds / 60
            let seconds = flow.remainingSeconds % 60
            let waiting = "\(Controls.spinner(milliseconds: milliseconds)) Waiting for approval · \(minutes):\(String(format: "%02d", seconds)) left"
            buffer.put(waiting, x: x, y: y, style: .accent, maxWidth: textMax)
            for (index, line) in TextWrap.lines(flow.note ?? "", width: textMax).prefix(2).enumerated() where y + 2 + index < box.maxY - 2 {
                buffer.put(line, x: x, y: y + 2 + index, style: .danger, maxWidth: textMax)
            }
        } else {
            let text = flow.phase == .loggingIn ? "Logging in…" : "Asking \(name) for a code…"
            buffer.put("\(Controls.spinner(milliseconds: milliseconds)) \(text)", x: x, y: y, style: .accent, maxWidth: textMax)
        }
        let buttonsY = box.maxY - 2
        if code != nil {
            let open = Controls.button(&buffer, x: x, y: buttonsY, title: "Open in browser", focused: false)
            hotspots.append(Hotspot(rect: open, target: .button(.openDeviceLoginURL)))
        }
        let cancel = Controls.button(&buffer, x: x + 22, y: buttonsY, title: "Cancel", focused: false)
        hotspots.append(Hotspot(rect: cancel, target: .button(.cancelDeviceLogin)))
        if showsQR, let qr {
            QRCodeView.draw(qr, in: &buffer, x: box.maxX - 2 - qrSize.width, y: box.y + (box.height - qrSize.height) / 2, ascii: ascii)
        }
        Footer.render(&buffer, text: keys.footer([.deviceLogin]), status: "")
        return Frame(buffer: buffer, hotspots: hotspots)
    }
}
