"""The ``aisle`` command: argument parsing and printing around the library (``aisle --help``)."""
