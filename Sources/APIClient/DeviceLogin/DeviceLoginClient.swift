import Foundation
import OnTheMapModels

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The live device login: form-encoded POSTs to the provider's endpoints (Facebook's
/// `device/login` and `device/login_status`, or RFC 8628's device and token endpoints).
/// Holds no token: the one it gets is handed to the caller and nowhere stored.
public struct DeviceLoginClient: DeviceLoginAPI {
    private let session: URLSession
    private let timeout: TimeInterval

    public init(timeout: TimeInterval = 15) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.urlCache = nil
        session = URLSession(configuration: configuration)
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
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        // GitHub answers form-encoded unless asked for JSON.
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        request.httpBody = Data(QueryString.encode(form).utf8)
        do {
            let (data, response) = try await session.data(for: request)
            guard let http = response as? HTTPURLResponse, data.count <= 65_536 else { throw DeviceLoginError.unreadable(provider: provider.displayName) }
            let body = (try? JSONDecoder().decode(JSONValue.self, from: data)) ?? .null
            return (http.statusCode, body)
        } catch let error as DeviceLoginError {
            throw error
        } catch {
            throw .cannotReachProvider(provider: provider.displayName)
        }
    }

    /// Short printable ASCII: the code is shown large, and must not carry terminal controls.
    static func isPrintableCode(_ code: String) -> Bool {
        !code.isEmpty && code.count <= 32 && code.unicodeScalars.allSatisfy { $0.value >= 0x21 && $0.value < 0x7F }
    }
}
