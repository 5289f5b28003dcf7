"""Subcommands of `sheetscan`: each module is one command (see `sheetscan.cli`)."""
