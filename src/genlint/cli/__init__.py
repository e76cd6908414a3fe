"""The command-line layer: argument parsing and result formatting only."""
