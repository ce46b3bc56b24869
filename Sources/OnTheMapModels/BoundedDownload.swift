import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One HTTP exchange read with a byte cap and an overall deadline, for the server's calls to
/// login providers and the app's calls to its server: URLSession's own `data(for:)` reads an
/// answer whole whatever its size, and its timeout is an idle one (a byte every few seconds
/// keeps it alive for ever). Here the body is streamed through a delegate that stops reading
/// and cancels the task at `maxBytes`, and the whole exchange is cancelled at `deadline`.
public final class BoundedDownload: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    /// Why an exchange was cut short.
    public enum Failure: Error, Sendable, Equatable {
        /// The answer (its `Content-Length` or the bytes read so far) passed the cap.
        case tooBig(maxBytes: Int)
        /// The whole exchange took longer than the deadline.
        case deadline(seconds: Double)
        /// No HTTP answer: refused, reset, cancelled, not HTTP.
        case transport(String)
    }

    private let maxBytes: Int
    private let lock = NSLock()
    private var body = Data()
    private var response: HTTPURLResponse?
    private var continuation: CheckedContinuation<(HTTPURLResponse, Data), any Error>?
    private var done = false

    private init(maxBytes: Int) {
        self.maxBytes = maxBytes
    }

    /// Sends `request` on a session of its own made from `configuration`; the answer and its body.
    public static func fetch(
        _ request: URLRequest, configuration: URLSessionConfiguration, maxBytes: Int, deadline: Double
    ) async throws -> (HTTPURLResponse, Data) {
        let reader = BoundedDownload(maxBytes: maxBytes)
        let session = URLSession(configuration: configuration, delegate: reader, delegateQueue: nil)
        // Frees the delegate (the session holds it until invalidated) and any task still running.
        defer { session.invalidateAndCancel() }
        let task = session.dataTask(with: request)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                reader.lock.withLock { reader.continuation = continuation }
                task.resume()
                DispatchQueue.global().asyncAfter(deadline: .now() + deadline) {
                    if reader.finish(.failure(Failure.deadline(seconds: deadline))) { task.cancel() }
                }
            }
        } onCancel: {
            if reader.finish(.failure(CancellationError())) { task.cancel() }
        }
    }

    /// Resumes the caller once; `true` the first time.
    @discardableResult
    private func finish(_ result: Result<(HTTPURLResponse, Data), any Error>) -> Bool {
        let waiting: CheckedContinuation<(HTTPURLResponse, Data), any Error>? = lock.withLock {
            if done { return nil }
            done = true
            body = Data()
            defer { continuation = nil }
            return continuation
        }
        waiting?.resume(with: result)
        return waiting != nil
    }

    public func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        guard let http = response as? HTTPURLResponse else {
            finish(.failure(Failure.transport("not an HTTP answer")))
            completionHandler(.cancel)
            return
        }
        if http.expectedContentLength > Int64(maxBytes) {
            finish(.failure(Failure.tooBig(maxBytes: maxBytes)))
            completionHandler(.cancel)
            return
        }
        lock.withLock { self.response = http }
        completionHandler(.allow)
    }

    public func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let over: Bool = lock.withLock {
            if done { return false }
            body.append(data)
            return body.count > maxBytes
        }
        if over, finish(.failure(Failure.tooBig(maxBytes: maxBytes))) { dataTask.cancel() }
    }

    public func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (response, body) = lock.withLock { (self.response, self.body) }
        if let error = error as? URLError, error.code == .timedOut {
            // URLSession's own (idle) timeout, when it comes before the deadline.
            finish(.failure(Failure.deadline(seconds: task.originalRequest?.timeoutInterval ?? 0)))
        } else if let error {
            finish(.failure(Failure.transport(error.localizedDescription)))
        } else if let response {
            finish(.success((response, body)))
        } else {
            finish(.failure(Failure.transport("no answer")))
        }
    }
}
