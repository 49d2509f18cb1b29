"""bestiary's tests: a package, so test modules can share helpers (e.g. tests.pg)."""
