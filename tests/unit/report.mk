# tests/unit tests
