import APIClient
import Foundation
import Geo
import Observation
import OnTheMapModels

/// The focusable parts of the posting form.
public enum PostingField: Sendable, Hashable {
    case location, link, primary, cancel
}

/// Where the posting flow is.
public enum PostingStep: Sendable, Hashable {
    /// Typing the place and the link.
    case enter
    /// Looking the place up.
    case geocoding
    /// A place was found: preview it, pick an alternative, then Finish.
    case confirm(GeocodeResult)
    /// The user already has a row: ask before replacing it.
    case overwrite(GeocodeResult, objectId: String)
    /// Sending the row to the server.
    case posting
    /// Posted; the new row's id.
    case done(objectId: String)
}

/// The posting form: enter → geocoding → confirm (→ overwrite?) → posting → done, with an alert
/// on any failure and Cancel at every step.
@MainActor
@Observable
public final class PostingViewModel {
    public private(set) var step: PostingStep = .enter
    public var location = ""
    public var link = ""
    public var focus: PostingField = .location
    /// A blocking message (empty field, not found, server said no).
    public var alert: String?
    /// Which of best + alternatives is chosen on the confirm step.
    public var choice = 0
    /// The server refused the post with 401/403: the session is no longer good (the app goes
    /// back to the login form once the alert is closed).
    public private(set) var sessionEnded = false

    /// How precisely the post may place the student; `chosen` is already coarsened to it.
    public let precision: Precision
    private let api: any OnTheMapAPI
    private let geocoder: any Geocoder
    private let accountKey: String
    @ObservationIgnored private var work: Task<Void, Never>?
    @ObservationIgnored private var generation = 0

    public init(api: any OnTheMapAPI, geocoder: any Geocoder, accountKey: String, precision: Precision = .city) {
        self.precision = precision
        self.api = api
        self.geocoder = geocoder
        self.accountKey = accountKey
    }

    /// True while a request is in flight (quitting should ask first).
    public var isWorking: Bool { step == .geocoding || step == .posting }

    /// The placemark chosen on the confirm or overwrite step, coarsened to `precision`: what the
    /// preview shows is what will be posted.
    public var chosen: Placemark? {
        switch step {
        case .confirm(let result), .overwrite(let result, _):
            let all = [result.best] + result.alternatives
            return precision.coarsen(all[min(max(choice, 0), all.count - 1)])
        default: return nil
        }
    }

    public func type(_ character: Character) {
        guard step == .enter else { return }
        if focus == .location { location.append(character) }
        if focus == .link { link.append(character) }
    }

    public func deleteBackward() {
        guard step == .enter else { return }
        if focus == .location, !location.isEmpty { location.removeLast() }
        if focus == .link, !link.isEmpty { link.removeLast() }
    }

    public func focusNext(forward: Bool = true) {
        let order: [PostingField] = step == .enter ? [.location, .link, .primary, .cancel] : [.primary, .cancel]
        let index = order.firstIndex(of: focus) ?? 0
        focus = order[(index + (forward ? 1 : order.count - 1)) % order.count]
    }

    /// [ Find Location ]: checks the fields, then geocodes in the background.
    public func findLocation() {
        guard step == .enter else { return }
        let place = location.trimmingCharacters(in: .whitespaces)
        if place.isEmpty {
            alert = "Enter where you are studying (a city, or a city and country)."
            focus = .location
            return
        }
        let trimmedLink = link.trimmingCharacters(in: .whitespaces)
        if trimmedLink.isEmpty {
            alert = "Enter a link to share (your LinkedIn, GitHub or web page)."
            focus = .link
            return
        }
        if case .refuse(let reason) = LinkPolicy.decide(trimmedLink) {
            alert = reason
            focus = .link
            return
        }
        step = .geocoding
        generation += 1
        let ticket = generation
        let geocoder = self.geocoder
        work = Task { [weak self] in
            let outcome: Result<GeocodeResult, GeocodeError>
            do throws(GeocodeError) {
                outcome = .success(try await geocoder.geocode(place))
            } catch {
                outcome = .failure(error)
            }
            self?.geocoded(outcome, ticket: ticket)
        }
    }

    private func geocoded(_ outcome: Result<GeocodeResult, GeocodeError>, ticket: Int) {
        guard ticket == generation, step == .geocoding else { return }
        switch outcome {
        case .success(let result):
            choice = 0
            step = .confirm(result)
            focus = .primary
        case .failure(let error):
            step = .enter
            alert = error.userMessage
        }
    }

    /// [ Finish ] on confirm (asks to overwrite when the user has a row), or [ Overwrite ].
    /// `onDone` gets the posted row's id.
    public func finish(onDone: @escaping @MainActor (String) -> Void = { _ in }) {
        let result: GeocodeResult
        let existing: String?
        switch step {
        case .confirm(let found):
            result = found
            existing = nil
        case .overwrite(let found, let objectId):
            result = found
            existing = objectId
        default: return
        }
        guard let place = chosen else { return }
        let confirmedOverwrite = existing != nil
        step = .posting
        generation += 1
        let ticket = generation
        let (api, key) = (self.api, accountKey)
        let mapString = location.trimmingCharacters(in: .whitespaces)
        let mediaURL: String
        if case .open(let url) = LinkPolicy.decide(link) { mediaURL = url } else { mediaURL = link }
        work = Task { [weak self] in
            do throws(APIError) {
                if !confirmedOverwrite, let mine = try await api.locations(ofUser: key).first {
                    self?.askOverwrite(result, objectId: mine.objectId, ticket: ticket)
                    return
                }
                let user = try await api.publicUser(key: key)
                let row = NewStudentLocation(
                    uniqueKey: key, firstName: user.firstName, lastName: user.lastName, mapString: mapString,
                    mediaURL: mediaURL, latitude: place.latitude, longitude: place.longitude)
                let objectId: String
                if let existing {
                    _ = try await api.updateLocation(objectId: existing, with: row)
                    objectId = existing
                } else {
                    objectId = try await api.createLocation(row).objectId
                }
                self?.posted(objectId, ticket: ticket, onDone: onDone)
            } catch {
                if case .refused(let status, _) = error, status == 401 || status == 403 { self?.sessionEnded = true }
                self?.failed(error.userMessage, back: result, ticket: ticket)
            }
        }
    }

    private func askOverwrite(_ result: GeocodeResult, objectId: String, ticket: Int) {
        guard ticket == generation, step == .posting else { return }
        step = .overwrite(result, objectId: objectId)
        focus = .primary
    }

    private func posted(_ objectId: String, ticket: Int, onDone: @MainActor (String) -> Void) {
        guard ticket == generation, step == .posting else { return }
        step = .done(objectId: objectId)
        onDone(objectId)
    }

    private func failed(_ message: String, back result: GeocodeResult, ticket: Int) {
        guard ticket == generation, step == .posting else { return }
        step = .confirm(result)
        alert = "Could not post your location. \(message)"
    }

    /// Esc / [Cancel]: stops what is in flight and goes one step back; from `enter` it closes.
    /// Returns true when the form should close.
    public func cancel() -> Bool {
        work?.cancel()
        work = nil
        generation += 1
        switch step {
        case .enter, .done: return true
        case .geocoding, .confirm, .overwrite, .posting:
            step = .enter
            focus = .location
            return false
        }
    }
}
