/// QuireKit: batches (input discovery, jobs, concurrency, reports, strips, rendering).
@_exported import QuireGeometry
