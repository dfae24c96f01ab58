import ArgumentParser
import Foundation
import QuireKit

/// `quire merge SHARD... -o OUT`: one OUT from the outputs of `quire process --shard K/N`.
struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Combine the outputs of `quire process --shard K/N` (K = 1...N) into one output folder.",
        discussion: """
            The result is what one `quire process` over all the inputs writes: pages numbered in \
            input order, one layout.json with its geometry computed over every page and the errors \
            of every shard. Files are hard-linked when possible, copied otherwise. Exit status: 0 \
            when the merged batch has no failed input, 1 when it has some or the merge failed, \
            2 for usage errors.
            """)

    @Argument(help: "The shard output folders (all N of them, in any order).")
    var shards: [String] = []

    @Option(name: [.customShort("o"), .customLong("output")], help: "The merged output folder (created when missing).")
    var output: String

    @Flag(name: .shortAndLong, help: "Print only failures.")
    var quiet = false

    func validate() throws {
        guard !shards.isEmpty else { throw ValidationError("Give the shard output folders to merge.") }
        guard !output.isEmpty else { throw ValidationError("--output must not be empty.") }
    }

    func run() throws {
        let summary: ProcessSummary
        do {
            summary = try ShardMerge.merge(shards, into: output)
        } catch {
            var standardError = StandardError()
            print("quire: \(error)", to: &standardError)
            throw ExitCode(1)
        }
        if !quiet {
            let failed = summary.failureCount == 0 ? "" : "; \(summary.failureCount) failed"
            print(
                "quire: \(summary.pageCount) page\(summary.pageCount == 1 ? "" : "s") from \(shards.count) shard\(shards.count == 1 ? "" : "s") merged into \(output)\(failed)"
            )
        }
        if !summary.succeeded { throw ExitCode(1) }
    }
}
