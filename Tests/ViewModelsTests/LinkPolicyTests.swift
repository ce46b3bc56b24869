import Testing

@testable import ViewModels

struct LinkPolicyTests {
    @Test func addsHTTPSWhenThereIsNoScheme() {
        #expect(LinkPolicy.decide("www.linkedin.com/in/x") == .open("https://www.linkedin.com/in/x"))
        #expect(LinkPolicy.decide("example.com:8080/a") == .open("https://example.com:8080/a"))
        #expect(LinkPolicy.decide("HTTPS://www.google.com") == .open("HTTPS://www.google.com"))
    }

    @Test func refusesEverythingElse() {
        for bad in [
            "javascript:alert(1)", "file:///etc/passwd", "-oProxyCommand=x", "--help", "", "data:text/html,x", "a b",
        ] {
            guard case .refuse = LinkPolicy.decide(bad) else {
                Issue.record("opened \(bad)")
                continue
            }
        }
    }

    @Test func cleansEscapesBeforeDeciding() {
        #expect(LinkPolicy.decide("\u{1B}]8;;http://evil\u{07}https://ok.example") == .open("https://ok.example"))
    }

    @Test func openerTriesBrowserThenXdgOpen() {
        let opener = LinkOpener(environment: ["BROWSER": "firefox:/opt/x", "PATH": "/nonexistent"])
        #expect(opener.candidates == ["firefox", "/opt/x", "xdg-open"])
        #expect(
            opener.open("https://example.com")
                == .noOpener("No browser could be started ($BROWSER is not set and xdg-open is missing)."))
        #expect(opener.open("javascript:x") == .noOpener("refused"))
    }
}
