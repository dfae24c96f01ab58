/// QuireLayout: the pure layout engine (LAYOUTS.md). Imports only QuireGeometry.
@_exported import QuireGeometry
