# tests/e2e tests
