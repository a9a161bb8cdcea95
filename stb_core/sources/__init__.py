"""Source-specific analysis: one module per source notebook, shaping the engine's tables into each
source's own exhibits (its column meanings, tie rules and sort orders). No DP lives here: every number
comes from ``stb_core.sweep`` / ``counts`` / ``evaluate`` / ``simulate``."""
