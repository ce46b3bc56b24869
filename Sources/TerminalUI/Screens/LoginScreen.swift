import SafeText
import ViewModels

/// The login and sign-up forms: title, fields (an invite code when the server signs up by
/// invitation; a notice instead of the fields when it takes no sign-ups), [ Log In ], the sign-up
/// link, a "Log in with …" button per device-login provider the server offers, the demo hint, the plain-http warning, a spinner while the request is out, and the alert
/// when it failed.
@MainActor
public enum LoginScreen {
    public static func render(
        _ model: LoginViewModel, width: Int, height: Int, milliseconds: Int, ascii: Bool = false,
        keys: KeyMap = .standard
    ) -> Frame {
        var buffer = Buffer(width: width, height: height)
        var hotspots: [Hotspot] = []
        let signUp = model.mode == .signUp
        let closed = signUp && model.signUpPolicy == .closed
        let withInvite = signUp && model.signUpPolicy == .invite
        let providers = signUp ? [] : model.deviceProviders
        let formHeight = closed ? 10 : withInvite ? 18 : signUp ? 16 : 14 + 2 * providers.count
        let form = buffer.area.centered(width: min(56, width - 2), height: min(formHeight, height))
        buffer.box(form, style: .accent, title: signUp ? "Create an account" : nil, ascii: ascii)
        buffer.putCentered("On the Map", in: form.row(1), style: Style(foreground: .cyan, bold: true))
        buffer.putCentered("where your classmates study", in: form.row(2), style: .dim)
        let inner = Rect(x: form.x + 3, y: form.y, width: form.width - 6, height: form.height)
        var y = form.y + 4
        let fields: [(LoginField, String, String, Bool)] =
            (signUp
                ? [(.firstName, "First name", model.firstName, false), (.lastName, "Last name", model.lastName, false)]
                : [])
            + [(.email, "Email", model.email, false), (.password, "Password", model.password, true)]
            + (withInvite ? [(.invite, "Invite code", model.invite, false)] : [])
        if closed {
            for line in ["This server does not take sign-ups.", "Ask its operator for an account, then log in."] {
                buffer.put(line, x: inner.x, y: y, style: .bold, maxWidth: inner.width)
                y += 1
            }
            y += 1
        }
        for (index, field) in (closed ? [] : fields).enumerated() {
            let rect = Controls.textField(
                &buffer, x: inner.x, y: y, width: inner.width, label: field.1, labelWidth: 12, value: field.2,
                masked: field.3, focused: model.focus == field.0, flashed: model.flashedField == field.0,
                dimmed: model.isBusy)
            hotspots.append(Hotspot(rect: rect, target: .field(index)))
            y += 2
        }
        if !closed {
            let title = signUp ? "Sign Up" : "Log In"
            let button = Controls.button(
                &buffer, x: inner.x + 12, y: y, title: title, focused: model.focus == .submit, dimmed: model.isBusy)
            hotspots.append(Hotspot(rect: button, target: .button(.submit)))
            if model.isBusy {
                let verb = signUp ? "Signing up" : "Logging in"
                buffer.put(
                    "\(Controls.spinner(milliseconds: milliseconds)) \(verb)…", x: button.maxX + 2, y: y, style: .accent)
            }
            y += 2
        }
        // One "Log in with …" per provider the server offers (none when it offers none).
        for (index, provider) in providers.enumerated() {
            let button = Controls.button(
                &buffer, x: inner.x + 12, y: y, title: "Log in with \(provider.displayName)",
                focused: model.focus == .provider(index), dimmed: model.isBusy)
            hotspots.append(Hotspot(rect: button, target: .field(model.fields.firstIndex(of: .provider(index)) ?? 0)))
            y += 2
        }
        let switchText = signUp ? "Have an account? Log In" : "Don't have an account? Sign Up"
        let switchStyle =
            model.focus == .switchMode
            ? Style(reverse: true, underline: true) : Style(foreground: .cyan, underline: true)
        let used = buffer.put(switchText, x: inner.x, y: y, style: switchStyle, maxWidth: inner.width)
        hotspots.append(Hotspot(rect: Rect(x: inner.x, y: y, width: used, height: 1), target: .button(.switchMode)))
        var below = form.maxY
        if let hint = model.hint, below + 1 < height {
            buffer.putCentered(hint, in: Rect(x: 0, y: below, width: width, height: 1), style: .dim)
            below += 1
        }
        if let warning = model.transportWarning {
            let text = (ascii ? "! " : "⚠ ") + SafeText.clean(warning)
            for line in TextWrap.lines(text, width: min(76, width - 2)).prefix(2) where below + 1 < height {
                buffer.putCentered(line, in: Rect(x: 0, y: below, width: width, height: 1), style: .danger)
                below += 1
            }
        }
        if let note = model.terminalNote {
            for line in TextWrap.lines(SafeText.clean(note), width: min(76, width - 2)).prefix(2) where below + 1 < height {
                buffer.putCentered(line, in: Rect(x: 0, y: below, width: width, height: 1), style: .dim)
                below += 1
            }
        }
        Footer.render(
            &buffer, text: keys.footer(KeyContext.loginForm(signUp: signUp, onButton: false)), status: "")
        if let alert = model.alert {
            let title =
                alert.hasPrefix("Cannot reach") ? "Cannot reach the server" : signUp ? "Sign up failed" : "Login failed"
            let ok = Overlay.alert(&buffer, title: title, message: alert, ascii: ascii)
            hotspots.append(Hotspot(rect: ok, target: .button(.dismiss)))
        }
        return Frame(buffer: buffer, hotspots: hotspots)
    }
}
