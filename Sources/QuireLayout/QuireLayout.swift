/// QuireLayout: the pure layout engine (docs/layout-formulas.md). Imports only QuireGeometry.
@_exported import QuireGeometry
