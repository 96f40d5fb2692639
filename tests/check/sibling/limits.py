"""A constant two modules away from tests/check/sibling_helpers.py."""
LIMIT = 1.5
