# tests/fuzz tests
