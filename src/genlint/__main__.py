from genlint.cli.main import entry

entry()
