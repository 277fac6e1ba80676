# tests/tui tests
