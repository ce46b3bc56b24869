import BoundedHTTP
import Foundation
import OnTheMapModels

/// The live device login: form-encoded POSTs to the provider's endpoints (Facebook's
/// `device/login` and `device/login_status`, or RFC 8628's device and token endpoints).
/// Holds no token: the one it gets is handed to the caller and nowhere stored.
public struct DeviceLoginClient: DeviceLoginAPI {
    private let http: any HTTPExchanging
    private let timeout: TimeInterval
    /// A provider's answers are small JSON objects; a bigger one is refused, and not read past this.
    static let maxAnswerBytes = 65_536

    public init(timeout: TimeInterval = 15, http: any HTTPExchanging = BoundedHTTPClient()) {
        self.http = http
        self.timeout = timeout
    }

    public func requestCode(_ provider: DeviceLoginProvider) async throws(DeviceLoginError) -> DeviceCode {
        var form: [(String, String)]
        switch provider.kind {
        case .facebook(let appID, let clientToken):
            form = [("access_token", appID + "|" + clientToken), ("scope", provider.scope ?? "public_profile")]
        case .oauth(_, let clientID):
            form = [("client_id", clientID)]
            if let scope = provider.scope, !scope.isEmpty { form.append(("scope", scope)) }
        }
        let (status, body) = try await post(provider.deviceURL, form, provider)
        guard status == 200 else { throw refusal(body, provider) }
        let codeKey = provider.name == "facebook" ? "code" : "device_code"
        guard let deviceCode = body[codeKey]?.stringValue, !deviceCode.isEmpty, deviceCode.count <= 1024,
            let userCode = body["user_code"]?.stringValue, Self.isPrintableCode(userCode),
            let verification = body["verification_uri"]?.stringValue.flatMap(DeviceLoginProvider.webURL)
                ?? body["verification_url"]?.stringValue.flatMap(DeviceLoginProvider.webURL)
        else { throw .unreadable(provider: provider.displayName) }
        let complete = body["verification_uri_complete"]?.stringValue.flatMap(DeviceLoginProvider.webURL)
        // RFC 8628: interval defaults to 5 s. Bounds keep a hostile answer from spinning or stalling us.
        let interval = min(max(body["interval"]?.doubleValue ?? 5, 1), 60)
        let expiresIn = min(max(body["expires_in"]?.doubleValue ?? 600, 1), 3600)
        return DeviceCode(
            deviceCode: deviceCode, userCode: userCode, verificationURL: verification, completeURL: complete,
            expiresIn: expiresIn, interval: interval)
    }

    public func poll(_ provider: DeviceLoginProvider, code: DeviceCode) async throws(DeviceLoginError) -> DevicePoll {
        let form: [(String, String)]
        switch provider.kind {
        case .facebook(let appID, let clientToken):
            form = [("access_token", appID + "|" + clientToken), ("code", code.deviceCode)]
        case .oauth(_, let clientID):
            form = [
                ("client_id", clientID), ("device_code", code.deviceCode),
                ("grant_type", "urn:ietf:params:oauth:grant-type:device_code"),
            ]
        }
        let (status, body) = try await post(provider.tokenURL, form, provider)
        if let token = body["access_token"]?.stringValue, !token.isEmpty, status == 200 {
            guard token.utf8.count <= 4096 else { throw .unreadable(provider: provider.displayName) }
            return .approved(accessToken: token)
        }
        switch provider.kind {
        case .facebook:
            // Graph errors: {"error":{"code":…,"error_subcode":…,"message":…}}.
            switch body["error"]?["error_subcode"]?.doubleValue.map(Int.init) ?? 0 {
            case 1_349_174: return .pending
            case 1_349_172: return .slowDown
            case 1_349_152: return .expired
            default:
                // Permission errors (code 200, 10): the person said no.
                if let graphCode = body["error"]?["code"]?.doubleValue, [10, 200].contains(Int(graphCode)) { return .denied }
            }
        case .oauth:
            switch body["error"]?.stringValue {
            case "authorization_pending": return .pending
            case "slow_down": return .slowDown
            case "expired_token": return .expired
            case "access_denied": return .denied
            default: break
            }
        }
        throw refusal(body, provider)
    }

    private func refusal(_ body: JSONValue, _ provider: DeviceLoginProvider) -> DeviceLoginError {
        let message =
            body["error"]?["message"]?.stringValue ?? body["error_description"]?.stringValue ?? body["error"]?.stringValue
            ?? "no reason given"
        return .refused(provider: provider.displayName, message: String(message.prefix(200)))
    }

    /// POSTs `form`; the status and the JSON body (`.null` when not JSON).
    private func post(_ url: URL, _ form: [(String, String)], _ provider: DeviceLoginProvider) async throws(DeviceLoginError)
        -> (Int, JSONValue)
    {
        let request = HTTPRequest(
            method: "POST", url: url,
            fields: [
                HTTPField("Content-Type", "application/x-www-form-urlencoded"),
                // GitHub answers form-encoded unless asked for JSON.
                HTTPField("Accept", "application/json"),
            ],
            body: Data(QueryString.encode(form).utf8))
        let answer: HTTPAnswer
        do {
            answer = try await http.exchange(request, maxBytes: Self.maxAnswerBytes, deadline: .seconds(timeout))
        } catch .tooBig, .malformedAnswer {
            throw .unreadable(provider: provider.displayName)
        } catch {
            throw .cannotReachProvider(provider: provider.displayName)
        }
        let body = (try? JSONDecoder().decode(JSONValue.self, from: answer.body)) ?? .null
        return (answer.status, body)
    }

    /// Short printable ASCII: the code is shown large, and must not carry terminal controls.
    static func isPrintableCode(_ code: String) -> Bool {
        !code.isEmpty && code.count <= 32 && code.unicodeScalars.allSatisfy { $0.value >= 0x21 && $0.value < 0x7F }
    }
}
