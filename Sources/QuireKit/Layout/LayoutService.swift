import Foundation
import QuireLayout

/// Answers `quire layout` requests: builds the named layout from a `LayoutRequest`, queries
/// it at the request's offset and returns the response object
/// (`Schemas/quire.layout-response-1.schema.json`).
public enum LayoutService {
    /// The response to one request document, or an error object naming the bad field.
    /// - Returns: the response and whether it is an error.
    ///   An error reply carries the request's `id` whenever the request is a JSON object with
    ///   one, so a client that pipelines requests over `--lines` can tell which one failed.
    public static func respond(toJSON data: Data, cache: LayoutCache? = nil) -> (response: LayoutJSON, isError: Bool) {
        let failure: LayoutRequestError
        do {
            return (try respond(to: LayoutRequest.parse(data), cache: cache), false)
        } catch let error as LayoutRequestError {
            failure = error
        } catch {
            failure = LayoutRequestError(field: "", message: "\(error)")
        }
        guard case .object(var reply) = failure.json else { return (failure.json, true) }
        if case .object(let request)? = try? LayoutJSON.parse(data), let id = request["id"] { reply["id"] = id }
        return (.object(reply), true)
    }

    /// The response to a parsed request: the catalogue entry of its layout answers the query.
    /// - Throws: `LayoutRequestError` for bad parameters or an unreadable `pagesFrom`.
    /// - Parameter request: the parsed request (`LayoutRequest.parse`).
    /// - Parameter cache: keeps the page list (and the pager's filled ratios) between requests
    ///   over the same pages, so a client that keeps `quire layout --lines` open pays the
    ///   linear setup once (see `LayoutCache`).
    public static func respond(to request: LayoutRequest, cache: LayoutCache? = nil) throws -> LayoutJSON {
        let entry = request.entry
        let resolved = try (cache ?? LayoutCache()).items(for: request)
        guard let viewport = request.viewport ?? resolved.reportViewport.map(entry.defaultViewport) else {
            throw LayoutRequestError(field: "viewport", message: "is required")
        }
        let query = LayoutQuery(
            viewport: viewport, ratios: resolved.ratios, offset: request.offset, rect: request.rect,
            snap: request.snap, animation: request.animation, filled: resolved.filled)
        var out = try entry.respond(to: query, parameters: request.parameters)
        out["layout"] = .string(request.layout.rawValue)
        if let id = request.id { out["id"] = id }
        let reply = LayoutJSON.object(out)
        // The bounds on the request keep every formula finite; should one still overflow, an
        // error is honest where the writer would print 0.
        guard reply.isFinite else {
            throw LayoutRequestError(
                field: "",
                message: "the reply would hold a number that is not finite (a bug: please report the request)")
        }
        return reply
    }
}
