import Testing
@testable import quire

@Suite struct CLIModuleTests {
    @Test func rootCommandHasAName() { #expect(Quire.configuration.commandName == "quire") }
}
