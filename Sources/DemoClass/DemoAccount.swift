/// The account the demo class comes with: the built-in server seeds it, and the app's login
/// screen offers it as a hint.
public enum DemoAccount {
    public static let email = "demo@onthemap.example"
    public static let password = "onthemap"
    public static let firstName = "Demo"
    public static let lastName = "Student"
}
