# tests for this area
